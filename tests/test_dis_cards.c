/*
 * test_dis_cards.c: the Disorder of the Villains data (dis_cards.c;
 * docs/rules/disorder.md, "Data format", is the format). The shipped
 * pool and deck designs load without a word; each broken copy of a
 * shipped file is refused with every error named once, in a message that
 * names the file, the card and what is wrong, so that whoever edits the
 * content sees all that is wrong in one run. The card list (JSON and
 * Markdown) says what the data holds.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "blob.h"
#include "games/disorder/dis.h"

/* The shipped files, as the loader names them. */
static const char *const files[] = {"villains", "emberwick", "tidewrack",
                                    "thornmind"};
enum { N_FILES = 4 };

/* The messages of one parse. */
typedef struct heard {
  int n;
  char msg[64][480];
} heard;

static void hear(void *ctx, const char *msg) {
  heard *h = ctx;
  if (h->n >= 64)
    fail_msg("more than 64 messages; the last: %s", msg);
  snprintf(h->msg[h->n++], sizeof h->msg[0], "%s", msg);
}

static void print_heard(const heard *h) {
  for (int k = 0; k < h->n; k++)
    print_message("  %s\n", h->msg[k]);
}

/* How many of the messages hold text. */
static int said(const heard *h, const char *text) {
  int n = 0;
  for (int k = 0; k < h->n; k++)
    n += strstr(h->msg[k], text) != NULL;
  return n;
}

/* The shipped text of disorder/FILE.json. */
static const char *shipped(const char *file) {
  char name[64];
  snprintf(name, sizeof name, "disorder/%s.json", file);
  const eng_blob *b = eng_blob_find(name);
  assert_non_null(b);
  return b->text;
}

/* Parses the shipped files with file's text replaced by text (when
 * file is not NULL); returns the error count, the messages in *h. */
static int parse_with(const char *file, const char *text, heard *h,
                      dis_data *d) {
  const char *texts[N_FILES], *names[N_FILES];
  char name[N_FILES][64];
  for (int k = 0; k < N_FILES; k++) {
    snprintf(name[k], sizeof name[k], "disorder/%s.json", files[k]);
    names[k] = name[k];
    texts[k] = file && strcmp(file, files[k]) == 0 ? text : shipped(files[k]);
  }
  memset(h, 0, sizeof *h);
  return dis_data_parse(texts, names, N_FILES, d, hear, h);
}

/* The card called id in a file's root (pool or design). */
static json_t *card(json_t *root, const char *id) {
  json_t *list = json_object_get(root, "villains");
  if (!list)
    list = json_object_get(root, "monsters");
  size_t k;
  json_t *c;
  json_array_foreach(list, k, c) {
    if (strcmp(json_string_value(json_object_get(c, "id")), id) == 0)
      return c;
  }
  fail_msg("no card '%s'", id);
  return NULL;
}

/* Trait k of card id. */
static json_t *trait(json_t *root, const char *id, size_t k) {
  json_t *t = json_array_get(json_object_get(card(root, id), "traits"), k);
  assert_non_null(t);
  return t;
}

static void set_str(json_t *o, const char *key, const char *value) {
  json_object_set_new(o, key, json_string(value));
}

/* Expects the shipped files, file changed by change, refused with
 * exactly `errors` errors, one of them (and only once) holding want and,
 * when card_id is given, naming that card; every error names file. */
static void expect_refused(const char *file, void (*change)(json_t *root),
                           int errors, const char *want, const char *card_id) {
  json_error_t je;
  json_t *root = json_loads(shipped(file), 0, &je);
  assert_non_null(root);
  change(root);
  char *text = json_dumps(root, JSON_INDENT(2));
  json_decref(root);
  assert_non_null(text);
  static heard h;
  static dis_data d;
  int n = parse_with(file, text, &h, &d);
  free(text);
  if (n != errors || h.n != n || said(&h, want) != 1) {
    print_heard(&h);
    fail_msg("expected %d error(s) naming '%s' once; got %d", errors, want, n);
  }
  char prefix[64], named[64];
  snprintf(prefix, sizeof prefix, "disorder/%s.json: ", file);
  snprintf(named, sizeof named, "card '%s'", card_id ? card_id : "");
  for (int k = 0; k < h.n; k++) {
    if (strncmp(h.msg[k], prefix, strlen(prefix)) != 0)
      fail_msg("'%s' does not begin with '%s'", h.msg[k], prefix);
    if (card_id && strstr(h.msg[k], want) && !strstr(h.msg[k], named))
      fail_msg("'%s' does not name %s", h.msg[k], named);
  }
}

/* ---- the shipped data ---------------------------------------------------- */

static int count_letter(const dis_data *d, const dis_design *g, int letter) {
  int n = 0;
  for (int k = 0; k < 16; k++)
    n += d->cards[g->monsters[k]].letter == letter;
  return n;
}

/* The shipped content loads without a word: 12 Villains, three designs
 * of 16 Monsters, four of each letter, sorted by id. */
static void test_shipped_data_loads(void **unused) {
  (void)unused;
  static heard h;
  static dis_data parsed;
  int n = parse_with(NULL, NULL, &h, &parsed);
  if (n) {
    print_heard(&h);
    fail_msg("the shipped data has %d errors", n);
  }
  assert_int_equal(h.n, 0);
  const dis_data *d = dis_data_get();
  assert_non_null(d);
  assert_ptr_equal(dis_data_get(), d);
  assert_int_equal(d->n_pool, 12);
  assert_int_equal(d->n_designs, 3);
  assert_int_equal(d->n_cards, 12 + 3 * 16);
  static const char *const ids[] = {"emberwick", "thornmind", "tidewrack"};
  for (int g = 0; g < 3; g++) {
    const dis_design *dg = &d->designs[g];
    assert_string_equal(dg->id, ids[g]);
    assert_true(dg->name[0] && dg->guide[0]);
    for (int l = 0; l < DIS_LETTERS; l++)
      assert_int_equal(count_letter(d, dg, l), 4);
    for (int k = 0; k < 16; k++) {
      const dis_card *c = &d->cards[dg->monsters[k]];
      assert_int_equal(c->kind, DIS_KIND_MONSTER);
      assert_int_equal(c->deck, g);
      assert_string_equal(c->seq, "");
    }
  }
  for (int k = 0; k < d->n_pool; k++) {
    const dis_card *c = &d->cards[d->pool[k]];
    assert_int_equal(c->kind, DIS_KIND_VILLAIN);
    assert_int_equal(c->deck, -1);
    assert_int_equal(c->letter, -1);
    assert_int_equal(strlen(c->seq), DIS_SEQ);
  }
  /* What the traits say, read back. */
  assert_int_equal(dis_card_find(d, "no_such_card"), -1);
  const dis_card *troll = &d->cards[dis_card_find(d, "mudskipper_troll")];
  const dis_trait *t = &troll->t[0];
  assert_int_equal(t->timing, DIS_T_TIMED);
  assert_int_equal(t->trigger, DIS_TR_TURN_START);
  assert_int_equal(t->op, DIS_OP_READY);
  assert_int_equal(t->target.side, DIS_SIDE_OWN);
  assert_int_equal(t->target.kind, DIS_KIND_CARD);
  assert_int_equal(t->target.n_names, 4);
  assert_int_equal(t->target.names[0], dis_card_find(d, "undertow_hag"));
  assert_int_equal(t->target.names[3], dis_card_find(d, "reef_basilisk"));
  const dis_card *newt = &d->cards[dis_card_find(d, "slag_newt")];
  assert_int_equal(newt->t[0].mod, DIS_MOD_ALIAS);
  assert_int_equal(newt->t[0].letter, 3);
  assert_int_equal(d->cards[dis_card_find(d, "cinder_whelp")].t[0].letter, -1);
  const dis_card *hydra = &d->cards[dis_card_find(d, "mycel_hydra")];
  assert_int_equal(hydra->t[0].against,
                   1u << DIS_OP_BURN | 1u << DIS_OP_BOUNCE | 1u << DIS_OP_FLIP |
                       1u << DIS_OP_NEGATE);
  assert_int_equal(hydra->t[0].target.colour, 1u << DIS_VIOLET);
  assert_int_equal(hydra->t[0].target.side, DIS_SIDE_NONE);
  const dis_card *crow = &d->cards[dis_card_find(d, "smoulder_crow")];
  assert_int_equal(crow->t[0].answers, DIS_AN_TRAIT);
  assert_true(crow->t[0].target.subject);
  const dis_card *drake = &d->cards[dis_card_find(d, "pollen_drake")];
  assert_true(drake->t[0].has_on);
  assert_int_equal(drake->t[0].on.kind, DIS_KIND_MONSTER);
  const dis_card *nettle = &d->cards[dis_card_find(d, "sister_nettlebane")];
  assert_int_equal(nettle->t[0].target.dna, 1u << 0);
  const dis_card *brine = &d->cards[dis_card_find(d, "mother_brinewhistle")];
  assert_int_equal(brine->n_traits, 2);
  assert_int_equal(brine->t[0].op, DIS_OP_DISCARD);
  assert_int_equal(brine->t[0].n, 1);
}

static void test_names(void **unused) {
  (void)unused;
  static const char *const symbols[] = {"!!!", "⏳", "♾", "👤", "🧠"};
  static const char *const timings[] = {"immediate", "timed", "always",
                                        "after_mint", "interrupt"};
  for (int k = 0; k < DIS_TIMINGS; k++) {
    assert_string_equal(dis_timing_symbol(k), symbols[k]);
    assert_string_equal(dis_timing_id(k), timings[k]);
  }
  static const char *const ops[] = {"BOUNCE", "BURN",    "FLIP",
                                    "COPY",   "NEGATE",  "DROP",
                                    "DRAW",   "discard", "READY"};
  static const char *const op_ids[] = {"bounce", "burn",    "flip",
                                       "copy",   "negate",  "drop",
                                       "draw",   "discard", "ready"};
  for (int k = DIS_OP_BOUNCE; k < DIS_OPS; k++) {
    assert_string_equal(dis_op_name(k), ops[k - 1]);
    assert_string_equal(dis_op_id(k), op_ids[k - 1]);
  }
  assert_string_equal(dis_colour_id(DIS_VIOLET), "violet");
  assert_string_equal(dis_colour_name(DIS_GOLD), "Gold");
  assert_string_equal(dis_colour_name(DIS_COLOURS), "?");
  assert_string_equal(dis_op_name(-1), "?");
}

/* The JSON card list is the data: files rebuilt from it parse into the
 * same dis_data. */
static void test_cards_json_is_the_data(void **unused) {
  (void)unused;
  const dis_data *d = dis_data_get();
  assert_non_null(d);
  json_t *list = dis_cards_json(d);
  assert_non_null(list);
  assert_int_equal(json_array_size(list), 60);
  json_t *first = json_array_get(list, 0), *m = json_array_get(list, 12);
  assert_string_equal(json_string_value(json_object_get(first, "deck")),
                      "pool");
  assert_string_equal(json_string_value(json_object_get(first, "kind")),
                      "villain");
  assert_string_equal(json_string_value(json_object_get(first, "dna")), "AABB");
  assert_string_equal(json_string_value(json_object_get(m, "deck")),
                      "emberwick");
  assert_string_equal(json_string_value(json_object_get(m, "id")),
                      "cinder_whelp");
  assert_string_equal(json_string_value(json_object_get(m, "dna")), "A");
  assert_string_equal(json_string_value(json_object_get(m, "colour")), "red");

  /* Rebuild the four files (in another order) and parse them again. */
  json_t *roots[N_FILES];
  roots[0] = json_pack("{ss s[]}", "type", "villain_pool", "villains");
  for (int g = 0; g < 3; g++)
    roots[1 + g] =
        json_pack("{ss ss ss ss s[]}", "type", "deck_design", "id",
                  d->designs[2 - g].id, "name", d->designs[2 - g].name, "guide",
                  d->designs[2 - g].guide, "monsters");
  size_t k;
  json_t *c;
  json_array_foreach(list, k, c) {
    const char *deck = json_string_value(json_object_get(c, "deck"));
    int f = strcmp(deck, "pool") == 0 ? 0 : -1;
    for (int g = 0; g < 3 && f < 0; g++)
      if (strcmp(deck, d->designs[2 - g].id) == 0)
        f = 1 + g;
    assert_true(f >= 0);
    json_t *copy = json_deep_copy(c);
    json_object_del(copy, "deck");
    json_array_append_new(
        json_object_get(roots[f], f ? "monsters" : "villains"), copy);
  }
  json_decref(list);
  char *texts[N_FILES];
  const char *names[N_FILES] = {"pool.json", "c.json", "b.json", "a.json"};
  for (int f = 0; f < N_FILES; f++) {
    texts[f] = json_dumps(roots[f], 0);
    json_decref(roots[f]);
    assert_non_null(texts[f]);
  }
  static dis_data again;
  static heard h;
  memset(&h, 0, sizeof h);
  int n = dis_data_parse((const char *const *)texts, names, N_FILES, &again,
                         hear, &h);
  for (int f = 0; f < N_FILES; f++)
    free(texts[f]);
  if (n) {
    print_heard(&h);
    fail_msg("the card list does not parse back");
  }
  assert_memory_equal(&again, d, sizeof again);
}

/* The Markdown list: the pool's table, then each design's guide and
 * table, one row per card. */
static void test_cards_markdown(void **unused) {
  (void)unused;
  const dis_data *d = dis_data_get();
  assert_non_null(d);
  char *md = dis_cards_markdown(d);
  assert_non_null(md);
  const char *pool = strstr(md, "### The pool\n\n| Villain | Sequence | Colour "
                                "| Traits |\n|---|---|---|---|\n");
  const char *ember = strstr(md, "### The Emberwick Menagerie (`emberwick`)"
                                 "\n\nCreatures of soot and cinder.");
  const char *thorn = strstr(md, "### The Thornmind Clade (`thornmind`)");
  const char *tide = strstr(md, "### The Tidewrack Brood (`tidewrack`)");
  assert_true(pool == md);
  assert_true(ember && thorn && tide && ember < thorn && thorn < tide);
  assert_non_null(strstr(md, "| The Velvet Tyrant | AABB | Gold | !!! BOUNCE "
                             "one of your opponent's Villains."));
  assert_non_null(strstr(ember, "| Monster | DNA | Colour | Traits |\n"
                                "|---|---|---|---|\n| Cinder Whelp | A | Red "
                                "| !!! BURN a Monster. |\n"));
  int rows = 0;
  for (const char *p = md; (p = strstr(p, "\n| ")) != NULL; p++)
    rows++;
  assert_int_equal(rows, 60 + 4); /* the cards and four header rows */
  free(md);
}

/* ---- refusals, one rule each --------------------------------------------- */

static void drop_whelp(json_t *root) {
  json_t *list = json_object_get(root, "monsters");
  json_array_remove(list, 0); /* cinder_whelp, an A */
}

/* "monsters: exactly 16 cards ..., exactly four of each letter" */
static void test_monster_count(void **unused) {
  (void)unused;
  expect_refused("emberwick", drop_whelp, 2,
                 "the design 'emberwick' has 15 Monsters, not 16.", NULL);
  expect_refused("emberwick", drop_whelp, 2,
                 "the design 'emberwick' has 3 Monsters of DNA A, not 4.",
                 NULL);
}

static void whelp_is_a_b(json_t *root) {
  set_str(card(root, "cinder_whelp"), "dna", "B");
}

static void test_four_of_each_letter(void **unused) {
  (void)unused;
  expect_refused("emberwick", whelp_is_a_b, 2,
                 "has 5 Monsters of DNA B, not 4.", NULL);
}

static void id_twice(json_t *root) {
  set_str(card(root, "brine_leech"), "id", "cinder_whelp");
}

static void name_twice(json_t *root) {
  set_str(card(root, "brine_leech"), "name", "Cinder Whelp");
}

/* "a card's [id] unique among all cards of all files", and its name. */
static void test_repeated_id_and_name(void **unused) {
  (void)unused;
  expect_refused("tidewrack", id_twice, 1,
                 "the id is taken by a card of disorder/emberwick.json.",
                 "cinder_whelp");
  expect_refused("tidewrack", name_twice, 1,
                 "the name 'Cinder Whelp' is taken by card 'cinder_whelp' of "
                 "disorder/emberwick.json.",
                 "brine_leech");
}

static void bad_id(json_t *root) {
  set_str(card(root, "hollow_regent"), "id", "Hollow-Regent");
}

static void test_id_characters(void **unused) {
  (void)unused;
  expect_refused("villains", bad_id, 1,
                 "the id 'Hollow-Regent' must be lower case letters, digits "
                 "and '_'.",
                 NULL);
}

static void three_a(json_t *root) {
  set_str(card(root, "velvet_tyrant"), "dna", "AAAB");
}

static void lone_y(json_t *root) {
  set_str(card(root, "velvet_tyrant"), "dna", "ABCy");
}

static void monster_sequence(json_t *root) {
  set_str(card(root, "cinder_whelp"), "dna", "AABB");
}

/* "dna: a Monster: one of A-D; a Villain: 4 symbols ..., no listed
 * letter more than twice, y only with x" */
static void test_bad_sequence(void **unused) {
  (void)unused;
  expect_refused("villains", three_a, 1,
                 "the Sequence 'AAAB' lists A 3 times; at most twice.",
                 "velvet_tyrant");
  expect_refused("villains", lone_y, 1, "'ABCy' has a y without an x.",
                 "velvet_tyrant");
  /* (and the design lacks an A) */
  expect_refused("emberwick", monster_sequence, 2,
                 "a Monster's 'dna' is one of A-D, not 'AABB'.",
                 "cinder_whelp");
}

static void unknown_name(json_t *root) {
  json_t *names = json_object_get(
      json_object_get(trait(root, "mudskipper_troll", 0), "target"), "name");
  json_array_set_new(names, 0, json_string("undertow_hog"));
}

static void name_of_other_file(json_t *root) {
  json_t *names = json_object_get(
      json_object_get(trait(root, "mudskipper_troll", 0), "target"), "name");
  json_array_set_new(names, 0, json_string("cinder_whelp"));
}

/* "name: a list of card ids (of any file)" */
static void test_filter_names(void **unused) {
  (void)unused;
  expect_refused("tidewrack", unknown_name, 1,
                 "'name' names 'undertow_hog', which is no card.",
                 "mudskipper_troll");
  /* A card of another file is a name like any other. */
  json_error_t je;
  json_t *root = json_loads(shipped("tidewrack"), 0, &je);
  name_of_other_file(root);
  char *text = json_dumps(root, 0);
  json_decref(root);
  static heard h;
  static dis_data d;
  assert_int_equal(parse_with("tidewrack", text, &h, &d), 0);
  free(text);
  assert_int_equal(
      d.cards[dis_card_find(&d, "mudskipper_troll")].t[0].target.names[0],
      dis_card_find(&d, "cinder_whelp"));
}

static void negate_at_start(json_t *root) {
  set_str(trait(root, "furnace_ox", 0), "trigger", "turn_start");
}

static void negate_on_entry(json_t *root) {
  set_str(trait(root, "ashen_moth", 0), "answers", "enter");
}

/* "negate only with trigger own_turn or answers trait" */
static void test_negate_timing(void **unused) {
  (void)unused;
  expect_refused("emberwick", negate_at_start, 1,
                 "NEGATE only with trigger own_turn or answers trait.",
                 "furnace_ox");
  expect_refused("emberwick", negate_on_entry, 1,
                 "NEGATE only with trigger own_turn or answers trait.",
                 "ashen_moth");
}

static void two_marked(json_t *root) {
  json_t *c = card(root, "kiln_toad");
  set_str(c, "text",
          "👤 After this Monster is discarded to mint: Draw 2 "
          "cards. ⏳ On your turn: Draw a card.");
  json_array_append_new(json_object_get(c, "traits"),
                        json_pack("{ss ss ss si}", "timing", "timed", "trigger",
                                  "own_turn", "op", "draw", "n", 1));
}

static void two_immediate(json_t *root) {
  json_t *c = card(root, "cinder_whelp");
  set_str(c, "text", "!!! BURN a Monster. !!! Draw a card.");
  json_array_append_new(
      json_object_get(c, "traits"),
      json_pack("{ss ss si}", "timing", "immediate", "op", "draw", "n", 1));
}

static void three_traits(json_t *root) {
  json_t *t = json_object_get(card(root, "cinder_whelp"), "traits");
  json_array_append(t, json_array_get(t, 0));
  json_array_append(t, json_array_get(t, 0));
}

/* "traits: 1 or 2 traits: at most one immediate, at most one always, at
 * most one of timed, interrupt, after_mint" */
static void test_trait_counts(void **unused) {
  (void)unused;
  expect_refused("emberwick", two_marked, 1,
                 "two traits marked when used (timed, interrupt, "
                 "after_mint); a card has at most one.",
                 "kiln_toad");
  expect_refused("emberwick", two_immediate, 1,
                 "two immediate traits; a card has at most one.",
                 "cinder_whelp");
  expect_refused("emberwick", three_traits, 1,
                 "'traits' must be a list of 1 or 2 traits.", "cinder_whelp");
}

static void long_text(json_t *root) {
  char text[DIS_TEXT_MAX + 2];
  memset(text, 'a', sizeof text - 1);
  memcpy(text, "!!! BURN", 8);
  text[sizeof text - 1] = '\0'; /* 240 bytes */
  set_str(card(root, "cinder_whelp"), "text", text);
}

static void no_text(json_t *root) {
  json_object_del(card(root, "cinder_whelp"), "text");
}

static void wrong_symbol(json_t *root) {
  set_str(card(root, "cinder_whelp"), "text", "⏳ BURN a Monster.");
}

static void wrong_keyword(json_t *root) {
  set_str(card(root, "cinder_whelp"), "text", "!!! BOUNCE a Monster.");
}

static void ward_unsaid(json_t *root) {
  set_str(card(root, "clinker_golem"), "text",
          "♾ Your Red Monsters cannot be BURNED or BOUNCED by your "
          "opponent's traits.");
}

/* "text: at most 239 bytes: the traits in English, in order, each
 * beginning with its symbol", and present. */
static void test_text(void **unused) {
  (void)unused;
  expect_refused("emberwick", long_text, 1, "'text' is longer than 239 bytes.",
                 "cinder_whelp");
  expect_refused("emberwick", no_text, 1, "'text' is missing.", "cinder_whelp");
  expect_refused("emberwick", wrong_symbol, 1,
                 "the text must be its traits in order, each beginning with "
                 "its symbol (!!!).",
                 "cinder_whelp");
  expect_refused("emberwick", wrong_keyword, 1,
                 "the text of trait 1 does not say BURN.", "cinder_whelp");
  expect_refused("emberwick", ward_unsaid, 1,
                 "the text of trait 1 does not say that it stops FLIP.",
                 "clinker_golem");
}

static void xxxx_regent(json_t *root) {
  set_str(card(root, "magistra_umbervane"), "dna", "xxxx");
}

/* "every pair of pool Villains mintable together from four Monsters of
 * each letter": xxxx takes four of one letter, and ABCD one of each. */
static void test_pair_not_mintable(void **unused) {
  (void)unused;
  expect_refused("villains", xxxx_regent, 1,
                 "Villains 'quillon_vex' (ABCD) and 'magistra_umbervane' "
                 "(xxxx) cannot be minted together from four Monsters of "
                 "each letter.",
                 NULL);
}

static void small_pool(json_t *root) {
  json_t *list = json_object_get(root, "villains");
  for (int k = 0; k < 3; k++)
    json_array_remove(list, json_array_size(list) - 1);
}

/* "villains: pool only: at least 10 cards of kind villain" */
static void test_pool_size(void **unused) {
  (void)unused;
  expect_refused("villains", small_pool, 1,
                 "the pool has 9 Villains; it needs at least 10.", NULL);
}

static void monster_in_pool(json_t *root) {
  set_str(card(root, "hollow_regent"), "kind", "monster");
}

static void test_kind_as_the_file_requires(void **unused) {
  (void)unused;
  expect_refused("villains", monster_in_pool, 1,
                 "'kind' must be villain in a villain pool.", "hollow_regent");
}

static void subject_on_play(json_t *root) {
  json_t *t = trait(root, "cinder_whelp", 0);
  json_object_set_new(t, "target", json_pack("{sb}", "subject", 1));
}

static void subject_not_alone(json_t *root) {
  json_t *target = json_object_get(trait(root, "scorchwing", 0), "target");
  set_str(target, "kind", "monster");
}

/* "subject: true, alone ...; only with answers enter or trigger
 * opp_play (for bounce, burn), or answers trait (for copy)" */
static void test_subject(void **unused) {
  (void)unused;
  expect_refused("emberwick", subject_on_play, 1,
                 "'subject' only where the trait has a subject",
                 "cinder_whelp");
  expect_refused("emberwick", subject_not_alone, 1,
                 "'subject' stands alone in its filter.", "scorchwing");
}

static void no_side(json_t *root) {
  json_object_del(json_object_get(trait(root, "brazier_hound", 0), "target"),
                  "side");
}

static void flip_own(json_t *root) {
  set_str(json_object_get(trait(root, "pyre_beetle", 0), "target"), "side",
          "own");
}

static void flip_any_kind(json_t *root) {
  set_str(json_object_get(trait(root, "pyre_beetle", 0), "target"), "kind",
          "card");
}

static void drop_side(json_t *root) {
  set_str(json_object_get(trait(root, "soot_gremlin", 0), "target"), "side",
          "own");
}

static void ward_side(json_t *root) {
  set_str(json_object_get(trait(root, "clinker_golem", 0), "target"), "side",
          "own");
}

static void on_other(json_t *root) {
  json_object_set_new(json_object_get(trait(root, "scorchwing", 0), "on"),
                      "other", json_true());
}

/* "side: ... Required in a target of bounce, burn, ready, copy; must be
 * opp for flip; not allowed for drop, on, a ward"; "kind: must be
 * monster for flip". */
static void test_filter_keys(void **unused) {
  (void)unused;
  expect_refused("emberwick", no_side, 1,
                 "'side' is missing (own, opp or "
                 "any).",
                 "brazier_hound");
  expect_refused("emberwick", flip_own, 1, "'side' must be opp.",
                 "pyre_beetle");
  expect_refused("emberwick", flip_any_kind, 1, "'kind' must be monster.",
                 "pyre_beetle");
  expect_refused("emberwick", drop_side, 1, "a DROP's target takes no 'side'",
                 "soot_gremlin");
  expect_refused("emberwick", ward_side, 1,
                 "'side' is not for a ward's filter.", "clinker_golem");
  expect_refused("emberwick", on_other, 1, "'other' is not for an 'on' filter.",
                 "scorchwing");
}

static void alias_own_letter(json_t *root) {
  set_str(card(root, "slag_newt"), "text",
          "♾ This Monster may also count as DNA B when you mint.");
  set_str(trait(root, "slag_newt", 0), "letter", "B");
}

static void alias_villain(json_t *root) {
  json_t *c = card(root, "magistra_umbervane");
  set_str(c, "text", "♾ This Villain may also count as DNA A.");
  json_array_set_new(json_object_get(c, "traits"), 0,
                     json_pack("{ss ss ss}", "timing", "always", "mod",
                               "dna_alias", "letter", "A"));
}

/* "letter: dna_alias (Monsters only): a letter other than the card's
 * own" */
static void test_alias(void **unused) {
  (void)unused;
  expect_refused("emberwick", alias_own_letter, 1,
                 "the alias letter B is the card's own.", "slag_newt");
  expect_refused("villains", alias_villain, 1,
                 "dna_alias is for Monsters only.", "magistra_umbervane");
}

static void flip_becomes_bounce(json_t *root) {
  json_t *c = card(root, "pyre_beetle");
  set_str(c, "text", "!!! BOUNCE one of your opponent's Monsters.");
  set_str(trait(root, "pyre_beetle", 0), "op", "bounce");
}

/* "in each design every keyword op ... at least once" */
static void test_design_keywords(void **unused) {
  (void)unused;
  expect_refused("emberwick", flip_becomes_bounce, 1,
                 "the design 'emberwick' has FLIP on 0 cards; it needs at "
                 "least 1.",
                 NULL);
}

static void no_always(json_t *root) {
  /* Slag Newt's alias becomes a draw on play; Clinker Golem's ward too. */
  static const char *const ids[] = {"slag_newt", "clinker_golem"};
  for (int k = 0; k < 2; k++) {
    json_t *c = card(root, ids[k]);
    set_str(c, "text", "!!! Draw a card.");
    json_array_set_new(
        json_object_get(c, "traits"), 0,
        json_pack("{ss ss si}", "timing", "immediate", "op", "draw", "n", 1));
  }
}

static void test_design_timings(void **unused) {
  (void)unused;
  expect_refused("emberwick", no_always, 1,
                 "the design 'emberwick' has ♾ (always) traits on 0 cards; "
                 "it needs at least 1.",
                 NULL);
}

/* "in the whole content every keyword and every timing on at least
 * three cards": with one design, FLIP and COPY are on two cards each. */
static void test_whole_content(void **unused) {
  (void)unused;
  const char *texts[2] = {shipped("villains"), shipped("emberwick")};
  const char *names[2] = {"disorder/villains.json", "disorder/emberwick.json"};
  static heard h;
  static dis_data d;
  memset(&h, 0, sizeof h);
  int n = dis_data_parse(texts, names, 2, &d, hear, &h);
  if (n != 2 ||
      said(&h, "disorder: the whole content has FLIP on 2 cards; it needs at "
               "least 3.") != 1 ||
      said(&h, "disorder: the whole content has COPY on 2 cards; it needs at "
               "least 3.") != 1) {
    print_heard(&h);
    fail_msg("one design's content is not refused for FLIP and COPY");
  }
}

static void unknown_key(json_t *root) {
  json_object_set_new(card(root, "cinder_whelp"), "cost", json_integer(2));
}

static void unknown_op(json_t *root) {
  set_str(trait(root, "cinder_whelp", 0), "op", "explode");
}

static void draw_three(json_t *root) {
  json_object_set_new(trait(root, "kiln_toad", 0), "n", json_integer(3));
}

static void trigger_on_play(json_t *root) {
  set_str(trait(root, "cinder_whelp", 0), "trigger", "own_turn");
}

/* Keys that are not the format's, values outside their vocabulary, and
 * keys of another timing. */
static void test_vocabulary(void **unused) {
  (void)unused;
  expect_refused("emberwick", unknown_key, 1, "unknown key 'cost'.",
                 "cinder_whelp");
  expect_refused("emberwick", unknown_op, 1,
                 "'op' must be bounce, burn, flip, copy, negate, drop, draw, "
                 "discard or ready.",
                 "cinder_whelp");
  expect_refused("emberwick", draw_three, 1, "a draw needs 'n', 1 or 2.",
                 "kiln_toad");
  expect_refused("emberwick", trigger_on_play, 1,
                 "'trigger' is for timed traits only.", "cinder_whelp");
}

static void design_name_long(json_t *root) {
  set_str(root, "name", "The Emberwick Menagerie of Soot, Cinder and Ash");
}

static void test_design_keys(void **unused) {
  (void)unused;
  expect_refused("emberwick", design_name_long, 1,
                 "the design: 'name' is longer than 39 bytes.", NULL);
}

static void test_not_json(void **unused) {
  (void)unused;
  static heard h;
  static dis_data d;
  /* The design is gone with its file: the whole content is short too. */
  int n = parse_with("thornmind", "{\"type\": \"deck_design\",", &h, &d);
  assert_true(n >= 1);
  assert_int_equal(said(&h, "disorder/thornmind.json: not a JSON object"), 1);
}

/* Two designs with one id: the second file is refused by name (and
 * every card of it is a repeated id). */
static void test_design_twice(void **unused) {
  (void)unused;
  static heard h;
  static dis_data d;
  memset(&h, 0, sizeof h);
  const char *texts[3] = {shipped("villains"), shipped("emberwick"),
                          shipped("emberwick")};
  const char *names[3] = {"villains.json", "a.json", "b.json"};
  int n = dis_data_parse(texts, names, 3, &d, hear, &h);
  assert_true(n >= 1);
  assert_int_equal(said(&h, "the design id 'emberwick' is also a.json's."), 1);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_shipped_data_loads),
      cmocka_unit_test(test_names),
      cmocka_unit_test(test_cards_json_is_the_data),
      cmocka_unit_test(test_cards_markdown),
      cmocka_unit_test(test_monster_count),
      cmocka_unit_test(test_four_of_each_letter),
      cmocka_unit_test(test_repeated_id_and_name),
      cmocka_unit_test(test_id_characters),
      cmocka_unit_test(test_bad_sequence),
      cmocka_unit_test(test_filter_names),
      cmocka_unit_test(test_negate_timing),
      cmocka_unit_test(test_trait_counts),
      cmocka_unit_test(test_text),
      cmocka_unit_test(test_pair_not_mintable),
      cmocka_unit_test(test_pool_size),
      cmocka_unit_test(test_kind_as_the_file_requires),
      cmocka_unit_test(test_subject),
      cmocka_unit_test(test_filter_keys),
      cmocka_unit_test(test_alias),
      cmocka_unit_test(test_design_keywords),
      cmocka_unit_test(test_design_timings),
      cmocka_unit_test(test_whole_content),
      cmocka_unit_test(test_vocabulary),
      cmocka_unit_test(test_design_keys),
      cmocka_unit_test(test_not_json),
      cmocka_unit_test(test_design_twice),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
