/*
 * test_dis_dna.c: DNA Sequences of Disorder of the Villains (rulebook
 * 002, MINTING A VILLAIN), the first piece of the `disorder` ruleset
 * (engine/games/disorder/dis_dna.h). Every example the rulebook gives is
 * checked, with Lair's reading of its one five-letter example.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "games/disorder/dis_dna.h"

/* Whether four Monsters with the letters of monsters ("BBAC"), none with
 * a second letter, mint seq. */
static bool mints(const char *seq, const char *monsters) {
  int8_t own[DIS_SEQ], alias[DIS_SEQ] = {-1, -1, -1, -1};
  for (int k = 0; k < DIS_SEQ; k++)
    own[k] = (int8_t)dis_dna_letter(monsters[k]);
  return dis_dna_match(seq, own, alias);
}

/* MINTING A VILLAIN: "If the DNA Sequence has an 'x', this means the
 * Sequence must contain a different DNA letter not already listed within
 * the Sequence (namely A, B, C, or D). Another 'x' means both 'x's will
 * need to match each other. For example: to complete a BBxx Sequence, you
 * would need to mint 4 monsters with a DNA of BBAA, BBCC, or BBDD." */
static void test_two_x_match_each_other(void **unused) {
  (void)unused;
  assert_true(mints("BBxx", "BBAA"));
  assert_true(mints("BBxx", "BBCC"));
  assert_true(mints("BBxx", "BBDD"));
  assert_false(mints("BBxx", "BBAC")); /* the two x's differ */
  assert_false(mints("BBxx", "BBBB")); /* x is not a listed letter */
  assert_false(mints("BBxx", "BBCD"));
  assert_false(mints("BBxx", "BAAA")); /* B is listed twice */
}

/* MINTING A VILLAIN: "A 'y' means it cannot match any listed Sequence
 * letters or the 'x' (so BBxy would require BBAD or BBBCD, etc. to
 * mint)." BBBCD has five letters where a mint takes exactly four
 * Monsters; Lair reads it as BBCD (docs/rules/disorder.md). */
static void test_y_differs_from_x_and_the_listed(void **unused) {
  (void)unused;
  assert_true(mints("BBxy", "BBAD"));
  assert_true(mints("BBxy", "BBCD"));
  assert_true(mints("BBxy", "BBAC"));
  assert_false(mints("BBxy", "BBAA")); /* y = x */
  assert_false(mints("BBxy", "BBAB")); /* y is the listed B */
  assert_false(mints("BBxy", "BBBC")); /* x is the listed B */
}

/* MINTING A VILLAIN: "It is also important to note that the order in
 * which the Monsters are presented on the board, in-play, has no
 * importance. Simply that you have the correct 4 cards (if rearranged),
 * is enough to Mint." */
static void test_order_has_no_importance(void **unused) {
  (void)unused;
  assert_true(mints("BBxx", "ABAB"));
  assert_true(mints("BBxy", "DBAB"));
  assert_true(mints("AABB", "BABA"));
  assert_true(mints("xBxB", "CBBC"));
  assert_false(mints("AABB", "AAAB"));
  assert_false(mints("ABCD", "ABCC"));
}

/* docs/rules/disorder.md (DNA and matching): a Monster whose always-on
 * trait lets it "also count as" another letter may count as either,
 * chosen so that the four match if any choice does. */
static void test_a_second_letter_counts_when_it_helps(void **unused) {
  (void)unused;
  int8_t own[DIS_SEQ] = {0, 0, 1, 2}; /* A A B C */
  int8_t none[DIS_SEQ] = {-1, -1, -1, -1};
  int8_t c_as_b[DIS_SEQ] = {-1, -1, -1, 1};
  assert_false(dis_dna_match("AABB", own, none));
  assert_true(dis_dna_match("AABB", own, c_as_b));
  assert_true(dis_dna_match("AABC", own, c_as_b)); /* its own letter too */
  int8_t a_as_d[DIS_SEQ] = {3, -1, -1, -1};
  assert_true(dis_dna_match("ABCD", own, a_as_d));
  assert_false(dis_dna_match("AABD", own, a_as_d));
}

/* docs/rules/disorder.md (Data format): the Sequences Lair accepts. */
static void test_valid_sequences(void **unused) {
  (void)unused;
  char why[120];
  static const char *const good[] = {"BBxx", "BBxy", "ABCD", "AABB",
                                     "ABCx", "xxyy", "xxxx", "ABxy"};
  for (size_t k = 0; k < sizeof good / sizeof good[0]; k++)
    assert_true(dis_dna_valid(good[k], why, sizeof why));
  static const struct {
    const char *seq, *why;
  } bad[] = {{"BBB", "is not four symbols"},
             {"BBBBB", "is not four symbols"},
             {"ABCE", "is not four symbols"},
             {"abcd", "is not four symbols"},
             {"BBBx", "lists B 3 times"},
             {"AByy", "has a y without an x"},
             {"ABCy", "has a y without an x"},
             {"ACDy", "has a y without an x"}};
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    why[0] = '\0';
    assert_false(dis_dna_valid(bad[k].seq, why, sizeof why));
    assert_non_null(strstr(why, bad[k].why));
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_two_x_match_each_other),
      cmocka_unit_test(test_y_differs_from_x_and_the_listed),
      cmocka_unit_test(test_order_has_no_importance),
      cmocka_unit_test(test_a_second_letter_counts_when_it_helps),
      cmocka_unit_test(test_valid_sequences),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
