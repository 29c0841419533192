/*
 * test_glicko.c: the Glicko-2 functions (commands/cmd_glicko.c) against
 * the worked example of Glickman's "Example of the Glicko-2 system", to
 * the precision the paper prints, their edge cases, and the pairwise
 * results of a multi-player game.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "cmd_glicko.h"

static const cmd_glicko fresh = {CMD_GLICKO_RATING, CMD_GLICKO_RD,
                                 CMD_GLICKO_VOLATILITY};

static void near(double got, double want, double tolerance) {
  if (fabs(got - want) > tolerance)
    fail_msg("got %.6f, want %.6f (+- %g)", got, want, tolerance);
}

/* The paper's example: 1500/200/0.06 beats 1400/30, loses to 1550/100
 * and to 1700/300, tau 0.5. The paper prints its steps on the Glicko-2
 * scale to four decimals (mu' = -0.2069, phi' = 0.8722, sigma' =
 * 0.05999) and converts those rounded values back: 1464.06 / 151.52.
 * Unrounded the rating is 1464.05, so the Glicko-scale checks allow the
 * paper's rounding (0.00005 * 173.7178 = 0.009) and a little more. */
static void test_worked_example(void **state) {
  (void)state;
  const cmd_glicko_result res[] = {
      {1400, 30, 1.0}, {1550, 100, 0.0}, {1700, 300, 0.0}};
  cmd_glicko out = cmd_glicko_update(fresh, res, 3, 0.5);
  near((out.rating - 1500) / 173.7178, -0.2069, 0.00005);
  near(out.rd / 173.7178, 0.8722, 0.00005);
  near(out.volatility, 0.05999, 0.00001); /* printed cut, not rounded */
  near(out.rating, 1464.06, 0.015);
  near(out.rd, 151.52, 0.015);
}

/* No games in a period: the rating and volatility stay, the deviation
 * grows to sqrt(phi^2 + sigma^2) on the Glicko-2 scale, and repeatedly. */
static void test_no_games(void **state) {
  (void)state;
  cmd_glicko me = {1600, 50, 0.06};
  cmd_glicko out = cmd_glicko_update(me, NULL, 0, 0.5);
  near(out.rating, 1600, 1e-9);
  near(out.volatility, 0.06, 1e-12);
  double phi = 50 / 173.7178;
  near(out.rd, sqrt(phi * phi + 0.06 * 0.06) * 173.7178, 1e-9);
  assert_true(out.rd > me.rd);
  cmd_glicko later = cmd_glicko_update(out, NULL, 0, 0.5);
  assert_true(later.rd > out.rd);
}

/* A draw between equals changes neither rating, and narrows both
 * deviations; a win and a loss between equals move them symmetrically. */
static void test_draws_and_symmetry(void **state) {
  (void)state;
  const cmd_glicko_result draw = {1500, 200, 0.5};
  cmd_glicko d = cmd_glicko_update(fresh, &draw, 1, 0.5);
  near(d.rating, 1500, 1e-6);
  assert_true(d.rd < 200);
  const cmd_glicko_result won = {1500, 200, 1.0}, lost = {1500, 200, 0.0};
  cmd_glicko w = cmd_glicko_update(fresh, &won, 1, 0.5);
  cmd_glicko l = cmd_glicko_update(fresh, &lost, 1, 0.5);
  assert_true(w.rating > 1500 && l.rating < 1500);
  near(w.rating - 1500, 1500 - l.rating, 1e-6);
  near(w.rd, l.rd, 1e-9);
}

/* A surprising result (a weak player beats a much stronger one many
 * times) takes the volatility's other branch (delta^2 > phi^2 + v) and
 * still gives finite numbers. */
static void test_upset(void **state) {
  (void)state;
  cmd_glicko_result res[12];
  for (int i = 0; i < 12; i++)
    res[i] = (cmd_glicko_result){2400, 30, 1.0};
  cmd_glicko me = {1000, 60, 0.06};
  cmd_glicko out = cmd_glicko_update(me, res, 12, 0.5);
  assert_true(isfinite(out.rating) && isfinite(out.rd) &&
              isfinite(out.volatility));
  assert_true(out.rating > 1000);
  assert_true(out.volatility > 0.06);
}

/* Pairwise results: winners beat the others, team mates (two winners)
 * are not paired, losers place by score (equal: a draw), and a game
 * nobody won is a draw for every pair. */
static void test_pairs(void **state) {
  (void)state;
  eng_result r = {.over = true, .winners = 1u << 0 | 1u << 2};
  r.score[1] = 3;
  r.score[3] = 5;
  r.score[4] = 5;
  assert_true(cmd_glicko_pair(&r, 0, 2) < 0 && cmd_glicko_pair(&r, 2, 0) < 0);
  assert_true(cmd_glicko_pair(&r, 0, 1) == 1.0);
  assert_true(cmd_glicko_pair(&r, 1, 2) == 0.0);
  assert_true(cmd_glicko_pair(&r, 3, 1) == 1.0);
  assert_true(cmd_glicko_pair(&r, 1, 3) == 0.0);
  assert_true(cmd_glicko_pair(&r, 3, 4) == 0.5);
  eng_result draw = {.over = true, .winners = 0};
  draw.score[0] = 9;
  assert_true(cmd_glicko_pair(&draw, 0, 1) == 0.5);
  assert_true(cmd_glicko_pair(&draw, 1, 0) == 0.5);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_worked_example),
      cmocka_unit_test(test_no_games),
      cmocka_unit_test(test_draws_and_symmetry),
      cmocka_unit_test(test_upset),
      cmocka_unit_test(test_pairs),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
