/*
 * test_simulate.c: random playouts (eng_simulate) over the toy ruleset:
 * statistics add up, runs are deterministic, setup errors are reported,
 * and broken invariants, untold answers and endless games are counted as
 * violations.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "eng.h"
#include "toy_ruleset.h"

static eng_config config(int players, const char *mode) {
  eng_config cfg;

  memset(&cfg, 0, sizeof cfg);
  cfg.players = players;
  cfg.first = 0;
  snprintf(cfg.mode, sizeof cfg.mode, "%s", mode);
  return cfg;
}

static void run(const eng_ruleset *rs, const eng_config *cfg, uint64_t seed,
                long games, bool check, long max_answers, eng_sim_stats *st) {
  memset(st, 0, sizeof *st);
  assert_int_equal(eng_simulate(rs, cfg, seed, games, check, max_answers, st),
                   ENG_OK);
}

static void test_statistics(void **unused) {
  (void)unused;
  for (int players = 2; players <= 4; players++) {
    eng_config cfg = config(players, "");
    eng_sim_stats st;
    long wins = 0, ended = 0;

    run(&toy_ruleset, &cfg, 1, 200, true, 10000, &st);
    if (st.violations)
      fail_msg("violation: %s", st.first_violation);
    assert_int_equal(st.games, 200);
    assert_true(st.moves >= 200 * 3); /* play, claim, respond */
    assert_true(st.turns >= 200);
    assert_true(st.turns <= st.moves);
    for (int i = 0; i < players; i++)
      wins += st.wins_by_seat[i];
    for (int i = players; i < ENG_MAX_SEATS; i++)
      assert_int_equal(st.wins_by_seat[i], 0);
    assert_true(wins >= st.games); /* ties make several winners */
    assert_true(st.n_reasons >= 1 && st.n_reasons <= ENG_SIM_REASONS);
    for (int i = 0; i < st.n_reasons; i++) {
      assert_true(strcmp(st.reason[i], "points") == 0 ||
                  strcmp(st.reason[i], "exhausted") == 0);
      ended += st.reason_count[i];
    }
    assert_int_equal(ended, st.games);
  }
}

static void test_deterministic(void **unused) {
  eng_config cfg = config(3, "short");
  eng_sim_stats a, b, c;

  (void)unused;
  run(&toy_ruleset, &cfg, 77, 100, true, 10000, &a);
  run(&toy_ruleset, &cfg, 77, 100, true, 10000, &b);
  run(&toy_ruleset, &cfg, 78, 100, true, 10000, &c);
  assert_int_equal(a.games, b.games);
  assert_int_equal(a.moves, b.moves);
  assert_int_equal(a.turns, b.turns);
  assert_memory_equal(a.wins_by_seat, b.wins_by_seat, sizeof a.wins_by_seat);
  assert_int_equal(a.n_reasons, b.n_reasons);
  assert_memory_equal(a.reason_count, b.reason_count, sizeof a.reason_count);
  assert_true(a.moves != c.moves ||
              memcmp(a.wins_by_seat, c.wins_by_seat, sizeof a.wins_by_seat));
}

static void test_setup_errors(void **unused) {
  eng_sim_stats st;
  eng_config cfg;

  (void)unused;
  cfg = config(1, "");
  assert_int_equal(eng_simulate(&toy_ruleset, &cfg, 1, 5, true, 1000, &st),
                   ENG_BAD_PLAYERS);
  cfg = config(5, "");
  assert_int_equal(eng_simulate(&toy_ruleset, &cfg, 1, 5, true, 1000, &st),
                   ENG_BAD_PLAYERS);
  cfg = config(2, "nosuch");
  assert_int_equal(eng_simulate(&toy_ruleset, &cfg, 1, 5, true, 1000, &st),
                   ENG_BAD_MODE);
}

static int always_broken(const void *st, char *msg, size_t cap) {
  (void)st;
  snprintf(msg, cap, "broken on purpose");
  return 1;
}

static eng_rc silent_apply(void *st, uint32_t code, unsigned *flags,
                           eng_events *ev) {
  (void)ev;
  return toy_ruleset.apply(st, code, flags, NULL);
}

/* Checked playouts have every answer told: an answer without a public
 * line is a violation naming the option; unchecked ones pass no events. */
static void test_untold_answer(void **unused) {
  eng_ruleset silent = toy_ruleset;
  eng_config cfg = config(2, "");
  eng_sim_stats st;

  (void)unused;
  silent.apply = silent_apply;
  run(&silent, &cfg, 1, 5, true, 10000, &st);
  assert_int_equal(st.violations, 5); /* each game stops at its first */
  assert_non_null(strstr(st.first_violation, "told the table nothing"));
  assert_non_null(strstr(st.first_violation, "option '"));
  run(&silent, &cfg, 1, 5, false, 10000, &st);
  assert_int_equal(st.violations, 0);
}

static void test_violations(void **unused) {
  eng_ruleset broken = toy_ruleset;
  eng_config cfg = config(2, "");
  eng_sim_stats st;

  (void)unused;
  broken.check = always_broken;
  run(&broken, &cfg, 1, 10, true, 10000, &st);
  assert_true(st.violations > 0);
  assert_non_null(strstr(st.first_violation, "broken on purpose"));

  /* Without checks nothing is counted. */
  run(&broken, &cfg, 1, 10, false, 10000, &st);
  assert_int_equal(st.violations, 0);

  /* A game longer than max_answers counts as a violation. */
  run(&toy_ruleset, &cfg, 1, 10, true, 3, &st);
  assert_true(st.violations > 0);
  assert_true(st.first_violation[0] != '\0');
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_statistics),
      cmocka_unit_test(test_deterministic),
      cmocka_unit_test(test_setup_errors),
      cmocka_unit_test(test_violations),
      cmocka_unit_test(test_untold_answer),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
