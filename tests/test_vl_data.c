/*
 * test_vl_data.c: the Villainous villain files' validation (vl_data_parse,
 * engine/games/villainous/README.md is the format). The shipped villains
 * parse without a word; each broken copy of one is refused with every
 * error named once, in a message that names the file and what is wrong,
 * so that whoever edits a villain sees all that is wrong in one run.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "blob.h"
#include "eng.h"
#include "games/villainous/vl.h"

/* The messages of one parse. */
typedef struct heard {
  int n;
  char msg[160][400];
} heard;

static void hear(void *ctx, const char *msg) {
  heard *h = ctx;
  if (h->n >= 160)
    fail_msg("more than 160 messages; the last: %s", msg);
  snprintf(h->msg[h->n++], sizeof h->msg[0], "%s", msg);
}

/* The shipped text of villainous/ID.json. */
static const char *shipped(const char *id) {
  char name[64];
  snprintf(name, sizeof name, "villainous/%s.json", id);
  const eng_blob *b = eng_blob_find(name);
  assert_non_null(b);
  return b->text;
}

/* Parses text (as "edited.json") beside the shipped Hive Queen; returns
 * the error count, the messages in *h. */
static int parse(const char *text, heard *h) {
  static vl_data d;
  const char *texts[2] = {text, shipped("hive_queen")};
  const char *names[2] = {"edited.json", "villainous/hive_queen.json"};
  memset(h, 0, sizeof *h);
  return vl_data_parse(VL_PROFILE_DISNEY, texts, names, 2, &d, hear, h);
}

/* How many of the messages hold text. */
static int said(const heard *h, const char *text) {
  int n = 0;
  for (int k = 0; k < h->n; k++)
    n += strstr(h->msg[k], text) != NULL;
  return n;
}

static void print_heard(const heard *h) {
  for (int k = 0; k < h->n; k++)
    print_message("  %s\n", h->msg[k]);
}

/* The Bog Witch's file with change applied to its JSON; returns the
 * edited text (malloc'd). */
static char *edited(void (*change)(json_t *root)) {
  json_error_t je;
  json_t *root = json_loads(shipped("bog_witch"), 0, &je);
  assert_non_null(root);
  change(root);
  char *text = json_dumps(root, JSON_INDENT(2));
  json_decref(root);
  assert_non_null(text);
  return text;
}

/* Expects the edited file refused with exactly `errors` errors, one of
 * them (and only once) holding want, every one naming the file. */
static void expect_refused(void (*change)(json_t *root), int errors,
                           const char *want) {
  char *text = edited(change);
  static heard h;
  int n = parse(text, &h);
  free(text);
  if (n != errors || said(&h, want) != 1) {
    print_heard(&h);
    fail_msg("expected %d error(s) naming '%s' once; got %d", errors, want, n);
  }
  for (int k = 0; k < h.n; k++)
    assert_non_null(strstr(h.msg[k], "edited.json: "));
}

static json_t *card(json_t *root, const char *deck, size_t k) {
  json_t *c = json_array_get(json_object_get(root, deck), k);
  assert_non_null(c);
  return c;
}

static void unknown_key(json_t *root) {
  json_object_set_new(root, "colour_scheme", json_string("dark"));
}

static void id_twice(json_t *root) {
  json_object_set_new(card(root, "deck", 1), "id", json_string("mudling"));
}

static void unknown_op(json_t *root) {
  json_t *ab =
      json_array_get(json_object_get(card(root, "deck", 1), "abilities"), 0);
  json_object_set_new(json_array_get(json_object_get(ab, "effects"), 0), "op",
                      json_string("teleport"));
}

static void deck_short(json_t *root) {
  json_object_set_new(card(root, "deck", 0), "count", json_integer(2));
}

static void cost_too_high(json_t *root) {
  json_object_set_new(card(root, "deck", 1), "cost", json_integer(9));
}

static void objective_unknown_card(json_t *root) {
  json_t *cards = json_object_get(json_object_get(root, "objective"), "cards");
  json_array_set_new(cards, 0, json_string("moonwort_rot"));
}

/* The shipped villains, all of them together, parse cleanly. */
static void test_shipped_parse(void **unused) {
  (void)unused;
  const vl_data *d = vl_data_get(VL_PROFILE_DISNEY);
  assert_non_null(d);
  assert_true(d->n >= 6);
  static heard h;
  assert_int_equal(parse(shipped("bog_witch"), &h), 0);
  assert_int_equal(h.n, 0);
}

static void test_unknown_key(void **unused) {
  (void)unused;
  expect_refused(unknown_key, 1, "unknown key 'colour_scheme'");
}

/* An id twice in one file is one error, named with that file. */
static void test_card_id_twice(void **unused) {
  (void)unused;
  char *text = edited(id_twice);
  static heard h;
  int n = parse(text, &h);
  free(text);
  if (said(&h, "card id 'mudling' twice") != 1 || said(&h, "mudling") != 1) {
    print_heard(&h);
    fail_msg("a card id twice is not named exactly once");
  }
  assert_true(n >= 1);
}

static void test_unknown_op(void **unused) {
  (void)unused;
  expect_refused(unknown_op, 1, "unknown effect op 'teleport'");
}

static void test_deck_size(void **unused) {
  (void)unused;
  expect_refused(deck_short, 1, "the villain deck has 29 cards, not 30");
}

static void test_cost_range(void **unused) {
  (void)unused;
  expect_refused(cost_too_high, 1, "'cost' must be an integer from 0 to 4");
}

static void test_objective_card(void **unused) {
  (void)unused;
  char *text = edited(objective_unknown_card);
  static heard h;
  int n = parse(text, &h);
  free(text);
  if (n < 1 || said(&h, "moonwort_rot") < 1) {
    print_heard(&h);
    fail_msg("an objective naming no card of the villain is not refused");
  }
}

static void test_not_json(void **unused) {
  (void)unused;
  static heard h;
  assert_int_equal(parse("{\"id\": \"bog_witch\",", &h), 1);
  assert_int_equal(said(&h, "edited.json: not a JSON object"), 1);
}

/* Two villains with one id: the second file is refused by name. */
static void test_villain_twice(void **unused) {
  (void)unused;
  static vl_data d;
  static heard h;
  memset(&h, 0, sizeof h);
  const char *texts[2] = {shipped("bog_witch"), shipped("bog_witch")};
  const char *names[2] = {"a.json", "b.json"};
  int n = vl_data_parse(VL_PROFILE_DISNEY, texts, names, 2, &d, hear, &h);
  assert_true(n >= 1);
  assert_int_equal(said(&h, "two villains have the id 'bog_witch'"), 1);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_shipped_parse),  cmocka_unit_test(test_unknown_key),
      cmocka_unit_test(test_card_id_twice),  cmocka_unit_test(test_unknown_op),
      cmocka_unit_test(test_deck_size),      cmocka_unit_test(test_cost_range),
      cmocka_unit_test(test_objective_card), cmocka_unit_test(test_not_json),
      cmocka_unit_test(test_villain_twice),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
