/*
 * test_gal_views.c: Galactic Domination hides nothing, so every seat's
 * view is the public one.
 *
 * The transports draw a seat's DMs from the view for that seat and the
 * channel's table (and its picture) from the public view (viewer -1); a
 * game with no hidden information must give them the same board. Seeded
 * whole games (the heuristic AI against random answers, the AI against
 * itself, random against random: about 2,000 answers, 6 s in the
 * sanitizer build) are played through the ruleset, and after every
 * answer the views for seat 0, seat 1 and the public one must
 * be equal but for their "viewer" member, and each must render every
 * seat's area alike. The console tests (tests/local/test_privacy.py)
 * check the same from the outside: each DM's fleet equals the seat's
 * field in the channel's table.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "eng.h"

/* A random game ends at the round limit well before. */
#define MAX_ANSWERS 4000
#define RENDER_CAP 8192

enum { RANDOM, AI };

/* The view for viewer without its "viewer" member; the caller's to free. */
static json_t *bare_view(const eng_ruleset *rs, const void *st, int viewer) {
  json_t *v = rs->view(st, viewer);
  assert_non_null(v);
  json_t *at = json_object_get(v, "viewer");
  assert_true(json_is_integer(at));
  assert_int_equal(json_integer_value(at), viewer);
  assert_int_equal(json_object_del(v, "viewer"), 0);
  return v;
}

/* Views of every viewer equal; every seat's area rendered alike. */
static void same_views(const eng_ruleset *rs, const void *st, int answers) {
  static char a[RENDER_CAP], b[RENDER_CAP];
  json_t *pub = bare_view(rs, st, -1);
  for (int viewer = 0; viewer < 2; viewer++) {
    json_t *v = bare_view(rs, st, viewer);
    if (!json_equal(pub, v)) {
      char *x = json_dumps(pub, JSON_COMPACT | JSON_SORT_KEYS);
      char *y = json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS);
      fail_msg("after %d answers seat %d's view differs from the public "
               "one:\npublic %s\nseat   %s",
               answers, viewer, x, y);
    }
    for (int seat = 0; seat < 2; seat++) {
      rs->render(pub, ENG_RENDER_SEAT(seat), a, sizeof a);
      rs->render(v, ENG_RENDER_SEAT(seat), b, sizeof b);
      assert_string_equal(a, b);
    }
    json_decref(v);
  }
  json_decref(pub);
}

/* Plays one whole game, seat s answered as kind[s]; returns the answers. */
static int play(uint64_t seed, const int kind[2]) {
  const eng_ruleset *rs = eng_find("galactic");
  assert_non_null(rs);
  void *st = calloc(1, rs->state_size);
  assert_non_null(st);
  eng_config cfg;
  memset(&cfg, 0, sizeof cfg);
  cfg.players = 2;
  cfg.first = -1; /* the rulebook's roll-off */
  assert_int_equal(rs->setup(st, &cfg, seed), ENG_OK);
  eng_rng r;
  eng_rng_seed(&r, seed, 3);
  static eng_prompt p;
  static eng_events ev;
  int answers = 0;
  for (;;) {
    same_views(rs, st, answers);
    rs->prompt(st, &p);
    if (p.player < 0)
      break;
    assert_true(p.player < 2 && p.n >= 1);
    int i = kind[p.player] == AI ? rs->ai(st, &p, &r)
                                 : (int)eng_rng_below(&r, (uint32_t)p.n);
    assert_true(i >= 0 && i < p.n);
    unsigned flags = 0;
    eng_events_clear(&ev);
    assert_int_equal(rs->apply(st, p.code[i], &flags, &ev), ENG_OK);
    if (++answers > MAX_ANSWERS)
      fail_msg("seed %llu: no end after %d answers", (unsigned long long)seed,
               answers);
  }
  free(st);
  return answers;
}

static void test_ai_against_random(void **unused) {
  (void)unused;
  for (uint64_t seed = 1; seed <= 2; seed++)
    play(seed, (const int[2]){seed % 2 ? AI : RANDOM, seed % 2 ? RANDOM : AI});
}

static void test_ai_against_ai(void **unused) {
  (void)unused;
  play(12, (const int[2]){AI, AI});
}

static void test_random_against_random(void **unused) {
  (void)unused;
  play(21, (const int[2]){RANDOM, RANDOM}); /* to the round limit */
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_ai_against_random),
      cmocka_unit_test(test_ai_against_ai),
      cmocka_unit_test(test_random_against_random),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
