/*
 * test_vl_ai.c: Villainous's heuristic player (engine/games/villainous/
 * vl_ai.c).
 *
 * Over whole games the heuristic answers legally, gives the same answer
 * for the same state and rng, leaves the state alone, and gives the same
 * answer when everything its seat cannot see is scrambled (other hands,
 * deck orders): it plays from what it may see. It beats random villains
 * clearly. In positions it pursues its own objective (a Brood where one
 * is missing, the nemesis vanquished where it wins, Power hoarded when
 * it starts the next turn with enough) and fates the villain nearest to
 * winning.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "eng.h"
#include "games/villainous/vl.h"
#include "prompt_util.h"
#include "vl_position.h"

/* A copy of s where everything seat `me` cannot see is changed: the
 * other villains' hands swapped with cards of their villain decks, and
 * every villain deck and every other villain's fate deck shuffled (me's
 * fate deck keeps the order me may have looked at). */
static void scramble_hidden(const vl_state *s, int me, uint64_t seed,
                            vl_state *out) {
  eng_rng r;
  eng_rng_seed(&r, seed, 7);
  *out = *s;
  for (int p = 0; p < s->players; p++) {
    eng_pile *deck = &out->vdeck[p];
    for (int i = p * VL_BLOCK; i < p * VL_BLOCK + VL_VDECK && p != me; i++) {
      if (out->w[i].zone != VL_Z_HAND || deck->n == 0)
        continue;
      int k = (int)eng_rng_below(&r, deck->n);
      int d = deck->c[k];
      deck->c[k] = (uint16_t)i;
      vl_where hand = out->w[i];
      out->w[i] = out->w[d];
      out->w[d] = hand;
    }
    eng_pile_shuffle(deck, &r);
    if (p != me)
      eng_pile_shuffle(&out->fdeck[p], &r);
  }
}

/* Plays seeded games with every seat heuristic, 2 to 6 players. */
static void test_legal_deterministic_blind(void **unused) {
  (void)unused;
  static vl_state s, before, blind;
  eng_prompt p, q;
  long prompts = 0, scrambled = 0;
  for (int game = 0; game < 15; game++) {
    eng_config cfg = {.players = 2 + game % 5, .first = -1};
    snprintf(cfg.mode, sizeof cfg.mode, "%s", game % 2 ? "random" : "");
    memset(&s, 0, sizeof s);
    assert_int_equal(vl_ruleset.setup(&s, &cfg, eng_mix64(300 + game)), ENG_OK);
    eng_rng rng;
    eng_rng_seed(&rng, (uint64_t)game, 1);
    vl_ruleset.prompt(&s, &p);
    int answers = 0;
    while (p.player >= 0) {
      assert_true(++answers < 20000);
      before = s;
      eng_rng r1 = rng, r2 = rng;
      int i = eng_ai_choose(&vl_ruleset, &s, &p, ENG_AI_HEURISTIC, &rng);
      assert_true(i >= 0 && i < p.n);
      assert_int_equal(vl_ai_choose(&s, &p, &r1), i);
      assert_memory_equal(&r1, &rng, sizeof rng);
      assert_memory_equal(&s, &before, sizeof s);
      if (answers % 5 == 0 && s.phase != VL_PH_CHOOSE) {
        scramble_hidden(&s, p.player, (uint64_t)answers, &blind);
        char msg[256];
        if (vl_check(&blind, msg, sizeof msg))
          fail_msg("game %d, answer %d: the scrambled copy is not a state: "
                   "%s",
                   game, answers, msg);
        vl_ruleset.prompt(&blind, &q);
        assert_int_equal(q.player, p.player);
        assert_int_equal(q.n, p.n);
        assert_memory_equal(q.code, p.code, sizeof p.code[0] * (size_t)p.n);
        assert_int_equal(vl_ai_choose(&blind, &p, &r2), i);
        scrambled++;
      }
      unsigned flags = 0;
      assert_int_equal(vl_ruleset.apply(&s, p.code[i], &flags, NULL), ENG_OK);
      char msg[256];
      if (vl_check(&s, msg, sizeof msg))
        fail_msg("game %d, answer %d: %s", game, answers, msg);
      vl_ruleset.prompt(&s, &p);
      prompts++;
    }
    assert_true(s.over);
  }
  assert_true(prompts > 1000);
  assert_true(scrambled > 200);
}

/* The measured shares are in docs/rules/villainous.md ("AI seats"); the
 * bounds still fail a heuristic no better than random (50%, 25%). */
static void test_beats_random(void **unused) {
  (void)unused;
  /* Seat 0 starts; villains dealt at random. */
  double two = pu_heuristic_share(&vl_ruleset, 2, "random", 2000, 60);
  double four = pu_heuristic_share(&vl_ruleset, 4, "random", 2000, 20);
  print_message("heuristic vs random: %.1f%% of 2-player games, %.1f%% of "
                "4-player games\n",
                two, four);
  assert_true(two > 85.0);
  assert_true(four > 70.0);
}

/* ---- in positions ------------------------------------------------------- */

static void build(vl_state *s, const char *json) {
  char err[400];
  json_error_t je;
  json_t *j = json_loads(json, 0, &je);
  if (!j)
    fail_msg("position JSON: line %d: %s", je.line, je.text);
  if (vl_position_build(s, j, err, sizeof err))
    fail_msg("position: %s", err);
  json_decref(j);
}

static void ai_id(const vl_state *s, char id[ENG_ID_MAX + 1]) {
  pu_ai_id(&vl_ruleset, s, id);
}

static void answer(vl_state *s, const char *id) {
  pu_answer(&vl_ruleset, s, id);
}

/* A Brood to play: it goes where none is yet. */
static void test_brood_where_missing(void **unused) {
  (void)unused;
  static vl_state s;
  build(&s, "{\"rule\": \"objective card_everywhere\","
            " \"villains\": [\"hive_queen\", \"gilded_baron\"],"
            " \"seats\": [{\"mover\": 0, \"power\": 3,"
            "   \"hand\": [\"hq_nectar_brood\"],"
            "   \"realm\": [{\"card\": \"hq_guard_brood\", \"loc\": 0},"
            "             {\"card\": \"hq_guard_brood\", \"loc\": 1},"
            "             {\"card\": \"hq_guard_brood\", \"loc\": 3}]}, {}]}");
  char id[ENG_ID_MAX + 1];
  int brood = vl_position_find(&s, 0, "hq_nectar_brood", VL_Z_HAND);
  char want[32];
  snprintf(want, sizeof want, "play.c%d", brood);
  ai_id(&s, id);
  if (strncmp(id, "gain.", 5) == 0) { /* Power first: it costs nothing */
    answer(&s, id);
    ai_id(&s, id);
  }
  assert_string_equal(id, want);
  answer(&s, id);
  ai_id(&s, id);
  assert_string_equal(id, "loc.3"); /* Amber Larder, the only gap */
}

/* The nemesis at its place, vanquishable: the Captain vanquishes it,
 * which wins the game, before anything else. */
static void test_vanquishes_nemesis_to_win(void **unused) {
  (void)unused;
  static vl_state s;
  build(&s, "{\"rule\": \"objective defeat_hero_at\","
            " \"villains\": [\"drowned_captain\", \"bog_witch\"],"
            " \"seats\": [{\"mover\": 1, \"power\": 5, \"locked\": [],"
            "   \"hand\": [\"drowned_deckhand\", \"anchor_wraith\"],"
            "   \"realm\": [{\"card\": \"corvin_slake\", \"loc\": 3},"
            "             {\"card\": \"barnacle_bosun\", \"loc\": 3}],"
            "   \"heroes\": [{\"card\": \"maren_holt\", \"loc\": 3}]}, {}]}");
  char id[ENG_ID_MAX + 1], want[32];
  int maren = vl_position_find(&s, 0, "maren_holt", VL_Z_TOP);
  snprintf(want, sizeof want, "vanq.c%d", maren);
  ai_id(&s, id);
  assert_string_equal(id, want);
  eng_prompt p;
  eng_rng rng;
  eng_rng_seed(&rng, 3, 1);
  vl_ruleset.prompt(&s, &p);
  for (int k = 0; k < 10 && p.player == 0 && !s.over; k++) {
    unsigned flags = 0;
    int i = eng_ai_choose(&vl_ruleset, &s, &p, ENG_AI_HEURISTIC, &rng);
    assert_int_equal(vl_ruleset.apply(&s, p.code[i], &flags, NULL), ENG_OK);
    vl_ruleset.prompt(&s, &p);
  }
  assert_true(s.over);
  assert_int_equal(s.winners, 1);
}

/* Three villains: the Fate action goes against the one nearest to
 * winning (the Lich two Pages from the end), not the one far behind. */
static void test_fates_the_leader(void **unused) {
  (void)unused;
  static vl_state s;
  build(&s, "{\"rule\": \"fate the leader\","
            " \"villains\": [\"iron_warlord\", \"gilded_baron\","
            "   \"lich_archivist\"],"
            " \"seats\": [{\"mover\": 3}, {\"power\": 1},"
            "             {\"track\": 6, \"locked\": []}]}");
  char id[ENG_ID_MAX + 1];
  /* The Warlord at the Red Pass: Fate, Gain 1, Discard in the bottom. */
  eng_prompt p;
  eng_rng rng;
  eng_rng_seed(&rng, 1, 1);
  vl_ruleset.prompt(&s, &p);
  bool fated = false;
  for (int k = 0; k < 6 && p.player == 0 && !fated; k++) {
    ai_id(&s, id);
    if (strncmp(id, "fate.", 5) == 0) {
      assert_string_equal(id, "fate.3");
      fated = true;
      break;
    }
    answer(&s, id);
    vl_ruleset.prompt(&s, &p);
  }
  assert_true(fated);
}

/* The Baron with more than enough to win at his next turn's start spends
 * nothing he would need: he ends his turn with 20 or more. */
static void test_baron_keeps_what_wins(void **unused) {
  (void)unused;
  static vl_state s;
  build(&s, "{\"rule\": \"objective start_power\","
            " \"villains\": [\"gilded_baron\", \"hive_queen\"],"
            " \"phase\": \"move\","
            " \"seats\": [{\"power\": 21,"
            "   \"hand\": [\"gb_hired_cudgel\", \"gb_bailiff_crane\","
            "              \"gb_toll_chain\", \"gb_counting_table\"]}, {}]}");
  eng_prompt p;
  eng_rng rng;
  eng_rng_seed(&rng, 4, 1);
  vl_ruleset.prompt(&s, &p);
  /* His turn, and the windows it opens for the Hive Queen. */
  for (int k = 0; k < 40 && s.current == 0 && p.player >= 0; k++) {
    unsigned flags = 0;
    int i = eng_ai_choose(&vl_ruleset, &s, &p, ENG_AI_HEURISTIC, &rng);
    assert_int_equal(vl_ruleset.apply(&s, p.code[i], &flags, NULL), ENG_OK);
    vl_ruleset.prompt(&s, &p);
  }
  assert_int_equal(s.current, 1);
  assert_true(s.seat[0].power >= 20);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_legal_deterministic_blind),
      cmocka_unit_test(test_beats_random),
      cmocka_unit_test(test_brood_where_missing),
      cmocka_unit_test(test_vanquishes_nemesis_to_win),
      cmocka_unit_test(test_fates_the_leader),
      cmocka_unit_test(test_baron_keeps_what_wins),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
