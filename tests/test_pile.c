/*
 * test_pile.c: card piles (eng_pile_*): stack operations and capacity,
 * shuffle uniformity, drawing with a reshuffled discard pile, and the JSON
 * form including what it must refuse.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "eng.h"

static void fill(eng_pile *p, int n, uint16_t first) {
  memset(p, 0, sizeof *p);
  for (int i = 0; i < n; i++)
    assert_true(eng_pile_push(p, (uint16_t)(first + i)));
}

/* Sorted copy of the cards, to compare piles as multisets. */
static void sorted(const eng_pile *p, uint16_t *out) {
  memcpy(out, p->c, p->n * sizeof out[0]);
  for (int i = 1; i < p->n; i++)
    for (int k = i; k > 0 && out[k - 1] > out[k]; k--) {
      uint16_t t = out[k];
      out[k] = out[k - 1];
      out[k - 1] = t;
    }
}

static void test_push_pop(void **unused) {
  eng_pile p;
  uint16_t c = 999;

  (void)unused;
  memset(&p, 0, sizeof p);
  assert_false(eng_pile_pop(&p, &c));
  assert_int_equal(c, 999);
  assert_true(eng_pile_push(&p, 7));
  assert_true(eng_pile_push(&p, 8));
  assert_int_equal(p.n, 2);
  assert_int_equal(p.c[0], 7); /* bottom first */
  assert_true(eng_pile_pop(&p, &c));
  assert_int_equal(c, 8); /* top last */
  assert_true(eng_pile_pop(&p, &c));
  assert_int_equal(c, 7);
  assert_int_equal(p.n, 0);
  assert_false(eng_pile_pop(&p, &c));
}

static void test_capacity(void **unused) {
  eng_pile p, saved;

  (void)unused;
  fill(&p, ENG_PILE_MAX, 0);
  assert_int_equal(p.n, ENG_PILE_MAX);
  saved = p;
  assert_false(eng_pile_push(&p, 1000));
  assert_memory_equal(&p, &saved, sizeof p);
}

static void test_remove_find(void **unused) {
  eng_pile p;
  static const uint16_t cards[] = {4, 9, 4, 2, 9};

  (void)unused;
  memset(&p, 0, sizeof p);
  for (size_t i = 0; i < 5; i++)
    eng_pile_push(&p, cards[i]);
  assert_int_equal(eng_pile_find(&p, 4), 0);
  assert_int_equal(eng_pile_find(&p, 9), 1);
  assert_int_equal(eng_pile_find(&p, 2), 3);
  assert_int_equal(eng_pile_find(&p, 5), -1);

  /* Removes the first 9 and keeps the order of the rest. */
  assert_true(eng_pile_remove(&p, 9));
  assert_int_equal(p.n, 4);
  assert_int_equal(p.c[0], 4);
  assert_int_equal(p.c[1], 4);
  assert_int_equal(p.c[2], 2);
  assert_int_equal(p.c[3], 9);
  assert_false(eng_pile_remove(&p, 5));
  assert_int_equal(p.n, 4);
  assert_true(eng_pile_remove(&p, 9));
  assert_true(eng_pile_remove(&p, 4));
  assert_true(eng_pile_remove(&p, 4));
  assert_true(eng_pile_remove(&p, 2));
  assert_int_equal(p.n, 0);
  assert_false(eng_pile_remove(&p, 2));
  assert_int_equal(eng_pile_find(&p, 2), -1);
}

/* Index of the permutation p.c[0..4] of 0..4 (Lehmer code), 0..119. */
static int perm_index(const eng_pile *p) {
  int idx = 0;

  for (int i = 0; i < 5; i++) {
    int smaller = 0;
    for (int k = i + 1; k < 5; k++)
      smaller += p->c[k] < p->c[i];
    idx = idx * (5 - i) + smaller;
  }
  return idx;
}

/* All 120 orders of 5 cards must come up equally often: chi-square with
 * 119 degrees of freedom between its 0.001 and 0.999 quantiles. */
static void test_shuffle_uniform(void **unused) {
  enum { SHUFFLES = 60000, PERMS = 120 };
  static long count[PERMS];
  double chi2 = 0, expect = (double)SHUFFLES / PERMS;
  eng_rng r;
  eng_pile p;

  (void)unused;
  memset(count, 0, sizeof count);
  eng_rng_seed(&r, 1, 0);
  for (int s = 0; s < SHUFFLES; s++) {
    fill(&p, 5, 0);
    eng_pile_shuffle(&p, &r);
    count[perm_index(&p)]++;
  }
  for (int i = 0; i < PERMS; i++)
    chi2 += (count[i] - expect) * (count[i] - expect) / expect;
  print_message("shuffle chi-square %.1f (119 dof)\n", chi2);
  assert_true(chi2 < 173.6);
  assert_true(chi2 > 76.0);
}

static void test_shuffle_small_and_full(void **unused) {
  eng_rng r, before;
  eng_pile p;
  uint16_t a[ENG_PILE_MAX], b[ENG_PILE_MAX];

  (void)unused;
  eng_rng_seed(&r, 3, 0);
  memset(&p, 0, sizeof p);
  eng_pile_shuffle(&p, &r);
  assert_int_equal(p.n, 0);
  fill(&p, 1, 42);
  eng_pile_shuffle(&p, &r);
  assert_int_equal(p.n, 1);
  assert_int_equal(p.c[0], 42);

  /* A full pile keeps its cards, and a shuffle is deterministic. */
  fill(&p, ENG_PILE_MAX, 100);
  before = r;
  eng_pile q = p;
  eng_pile_shuffle(&p, &r);
  eng_pile_shuffle(&q, &before);
  assert_memory_equal(&p, &q, sizeof p);
  sorted(&p, a);
  for (int i = 0; i < ENG_PILE_MAX; i++)
    b[i] = (uint16_t)(100 + i);
  assert_memory_equal(a, b, sizeof a);
}

static void test_draw(void **unused) {
  eng_pile deck, discard;
  eng_rng r;
  uint16_t card = 0;
  bool resh = false;

  (void)unused;
  eng_rng_seed(&r, 11, 0);
  fill(&deck, 3, 10);
  fill(&discard, 2, 20);
  assert_true(eng_pile_draw(&deck, &discard, &r, &card, &resh));
  assert_int_equal(card, 12); /* the top */
  assert_false(resh);
  assert_int_equal(deck.n, 2);
  assert_int_equal(discard.n, 2);
}

static void test_draw_reshuffles(void **unused) {
  eng_pile deck, discard, both;
  eng_rng r;
  uint16_t card = 0, got[8], want[8];
  bool resh = false;

  (void)unused;
  eng_rng_seed(&r, 12, 0);
  memset(&deck, 0, sizeof deck);
  fill(&discard, 6, 30);
  assert_true(eng_pile_draw(&deck, &discard, &r, &card, &resh));
  assert_true(resh);
  assert_int_equal(discard.n, 0);
  assert_int_equal(deck.n, 5);
  assert_true(card >= 30 && card < 36);
  assert_int_equal(eng_pile_find(&deck, card), -1);

  /* No card lost or duplicated. */
  both = deck;
  eng_pile_push(&both, card);
  sorted(&both, got);
  for (int i = 0; i < 6; i++)
    want[i] = (uint16_t)(30 + i);
  assert_memory_equal(got, want, 6 * sizeof got[0]);
}

static void test_draw_both_empty(void **unused) {
  eng_pile deck, discard, d0, x0;
  eng_rng r, r0;
  uint16_t card = 0xbeef;
  bool resh = false;

  (void)unused;
  eng_rng_seed(&r, 13, 0);
  memset(&deck, 0, sizeof deck);
  memset(&discard, 0, sizeof discard);
  d0 = deck;
  x0 = discard;
  r0 = r;
  assert_false(eng_pile_draw(&deck, &discard, &r, &card, &resh));
  assert_memory_equal(&deck, &d0, sizeof deck);
  assert_memory_equal(&discard, &x0, sizeof discard);
  assert_memory_equal(&r, &r0, sizeof r);
  assert_int_equal(card, 0xbeef);
  assert_false(resh);
}

static void test_json_round_trip(void **unused) {
  eng_pile p, q;
  json_t *j;
  char *text;

  (void)unused;
  memset(&p, 0, sizeof p);
  eng_pile_push(&p, 5);
  eng_pile_push(&p, 3);
  eng_pile_push(&p, 9);
  j = eng_pile_to_json(&p);
  assert_non_null(j);
  text = json_dumps(j, JSON_COMPACT);
  assert_string_equal(text, "[5,3,9]"); /* bottom first */
  free(text);
  memset(&q, 0xff, sizeof q);
  assert_int_equal(eng_pile_from_json(&q, j, 10), ENG_OK);
  assert_int_equal(q.n, 3);
  assert_memory_equal(q.c, p.c, 3 * sizeof p.c[0]);
  json_decref(j);

  /* Empty and full piles. */
  memset(&p, 0, sizeof p);
  j = eng_pile_to_json(&p);
  assert_int_equal(json_array_size(j), 0);
  assert_int_equal(eng_pile_from_json(&q, j, 10), ENG_OK);
  assert_int_equal(q.n, 0);
  json_decref(j);
  fill(&p, ENG_PILE_MAX, 0);
  j = eng_pile_to_json(&p);
  assert_int_equal(eng_pile_from_json(&q, j, ENG_PILE_MAX), ENG_OK);
  assert_int_equal(q.n, ENG_PILE_MAX);
  assert_memory_equal(q.c, p.c, sizeof p.c);
  json_decref(j);
}

static void test_json_rejects(void **unused) {
  static const char *const bad[] = {
      "null", "{}",   "\"1,2\"", "3",       "[1, \"2\"]", "[1.5]",  "[true]",
      "[-1]", "[10]", "[2, 11]", "[65536]", "[[1]]",      "[null]",
  };
  eng_pile p;
  json_t *j;

  (void)unused;
  assert_int_equal(eng_pile_from_json(&p, NULL, 10), ENG_BAD_STATE);
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    j = json_loads(bad[k], JSON_DECODE_ANY, NULL);
    assert_non_null(j);
    if (eng_pile_from_json(&p, j, 10) != ENG_BAD_STATE)
      fail_msg("accepted malformed pile JSON %s", bad[k]);
    json_decref(j);
  }
  /* limit - 1 is fine, limit is not. */
  j = json_loads("[9]", 0, NULL);
  assert_int_equal(eng_pile_from_json(&p, j, 10), ENG_OK);
  assert_int_equal(eng_pile_from_json(&p, j, 9), ENG_BAD_STATE);
  json_decref(j);

  /* One card more than a pile holds. */
  j = json_array();
  for (int i = 0; i <= ENG_PILE_MAX; i++)
    json_array_append_new(j, json_integer(1));
  assert_int_equal(eng_pile_from_json(&p, j, 10), ENG_BAD_STATE);
  json_array_remove(j, 0);
  assert_int_equal(eng_pile_from_json(&p, j, 10), ENG_OK);
  assert_int_equal(p.n, ENG_PILE_MAX);
  json_decref(j);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_push_pop),
      cmocka_unit_test(test_capacity),
      cmocka_unit_test(test_remove_find),
      cmocka_unit_test(test_shuffle_uniform),
      cmocka_unit_test(test_shuffle_small_and_full),
      cmocka_unit_test(test_draw),
      cmocka_unit_test(test_draw_reshuffles),
      cmocka_unit_test(test_draw_both_empty),
      cmocka_unit_test(test_json_round_trip),
      cmocka_unit_test(test_json_rejects),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
