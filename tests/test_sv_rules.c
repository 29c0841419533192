/*
 * test_sv_rules.c: the rules of Supervillain: This Galaxy Is Mine!, one
 * cmocka test per rulebook passage (the English rulebook of Supervillain: This Galaxy Is Mine!).
 *
 * Each test names the passage it checks (section heading and a short
 * quote) and starts from a position file in tests/data/supervillain/
 * (built by tests/sv_position.c, its "rule" field quoting the same
 * passage). The game is driven only through the ruleset interface:
 * sv_ruleset.prompt and .option to find an answer by its id ("mob.c12",
 * "pick.c50", "end"...), .apply to make it. After every answer the state
 * must pass sv_check and every seat's view (and the public one) must pass
 * sv_check_view_json, and the lines it told must pass sv_told_check (a
 * public line at least, no card named to a reader who may not see it),
 * so the open-information rule is checked all along.
 * Card instances are looked up by card id and zone, never hard-coded.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "eng.h"
#include "games/supervillain/sv.h"
#include "prompt_util.h"
#include "sv_position.h"
#include "sv_told.h"

#ifndef SV_TEST_DATA
#error "SV_TEST_DATA must name tests/data/supervillain (see tests.cmake)"
#endif

/* ---- the table: a state, its prompt, the last answer's flags --------- */

typedef struct table {
  sv_state s;
  eng_prompt p;
  unsigned flags;
  eng_events ev; /* what the last answer told */
} table;

static void check_state(const sv_state *s) {
  char msg[256];
  if (sv_check(s, msg, sizeof msg))
    fail_msg("sv_check: %s", msg);
  for (int v = -1; v < s->players; v++) {
    json_t *j = sv_view(s, v);
    assert_non_null(j);
    if (sv_check_view_json(s, j, v, msg, sizeof msg))
      fail_msg("view of seat %d: %s", v, msg);
    json_decref(j);
  }
}

static void refresh(table *t) {
  sv_ruleset.prompt(&t->s, &t->p);
  check_state(&t->s);
}

static void load(table *t, const char *name) {
  char path[512], err[400];
  snprintf(path, sizeof path, "%s/%s.json", SV_TEST_DATA, name);
  memset(t, 0, sizeof *t);
  if (sv_position_load(&t->s, path, err, sizeof err))
    fail_msg("position %s: %s", name, err);
  refresh(t);
}

static void option_id(const table *t, int i, char id[ENG_ID_MAX + 1]) {
  char label[ENG_LABEL_MAX + 1];
  sv_ruleset.option(&t->s, &t->p, i, id, label);
}

static int find_option(const table *t, const char *id) {
  return pu_find(&sv_ruleset, &t->s, &t->p, id);
}

/* All option ids of the prompt, space-separated, for failure messages. */
static const char *options_text(const table *t) {
  return pu_ids(&sv_ruleset, &t->s, &t->p);
}

static bool offered(const table *t, const char *fmt, ...) {
  char id[64];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(id, sizeof id, fmt, ap);
  va_end(ap);
  return find_option(t, id) >= 0;
}

/* Answers the current prompt as seat with the option id; the test fails
 * when the prompt is someone else's or the option is not offered. */
static void answer(table *t, int seat, const char *fmt, ...) {
  char id[64];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(id, sizeof id, fmt, ap);
  va_end(ap);
  int i = pu_expect(&sv_ruleset, &t->s, &t->p, seat, id);
  t->flags = 0;
  static sv_state before;
  static sv_trace trace;
  before = t->s;
  memset(&trace, 0, sizeof trace);
  eng_events_clear(&t->ev);
  assert_int_equal(
      sv_apply_traced(&t->s, t->p.code[i], &t->flags, &t->ev, &trace), ENG_OK);
  char msg[600];
  if (sv_told_check(&before, &t->s, &t->ev, trace.shown, msg, sizeof msg))
    fail_msg("answer %s told wrongly: %s", id, msg);
  refresh(t);
}

/* Asserts the prompt is seat's and offers exactly the space-separated
 * option ids of fmt, in any order. */
static void expect_options(const table *t, int seat, const char *fmt, ...) {
  char want[1024], copy[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(want, sizeof want, fmt, ap);
  va_end(ap);
  if (t->p.player != seat)
    fail_msg("expected a prompt for seat %d offering %s; it is for seat %d "
             "(options: %s)",
             seat, want, t->p.player, options_text(t));
  memcpy(copy, want, sizeof copy);
  int n = 0;
  char *save = NULL;
  for (char *tok = strtok_r(copy, " ", &save); tok;
       tok = strtok_r(NULL, " ", &save)) {
    n++;
    if (find_option(t, tok) < 0)
      fail_msg("expected options {%s}, got {%s}", want, options_text(t));
  }
  if (n != t->p.n)
    fail_msg("expected options {%s}, got {%s}", want, options_text(t));
}

/* Counts the options whose id starts with prefix. */
static int count_prefix(const table *t, const char *prefix) {
  int n = 0;
  char id[ENG_ID_MAX + 1];
  for (int i = 0; i < t->p.n; i++) {
    option_id(t, i, id);
    n += strncmp(id, prefix, strlen(prefix)) == 0;
  }
  return n;
}

/* The lowest instance of card id in zone of owner (-1: anyone's). */
static int card(const table *t, const char *id, int zone, int owner) {
  int i = sv_position_find(&t->s, id, zone, owner);
  if (i < 0)
    fail_msg("no '%s' in zone %s of seat %d", id, sv_zone_name(zone), owner);
  return i;
}

static void assert_at(const table *t, int i, int zone, int owner) {
  const sv_where *w = &t->s.w[i];
  if (w->zone != zone || w->owner != owner)
    fail_msg("card %d (%s) is in %s of seat %d, expected %s of seat %d", i,
             sv_card_of(i)->id, sv_zone_name(w->zone), w->owner,
             sv_zone_name(zone), owner);
}

static int hand_size(const table *t, int seat) {
  int n = 0;
  for (int i = 0; i < SV_N_MINION; i++)
    n += t->s.w[i].zone == SV_Z_HAND && t->s.w[i].owner == seat;
  return n;
}

static int count_zone(const sv_state *s, int zone) {
  int n = 0;
  for (int i = 0; i < SV_N; i++)
    n += s->w[i].zone == zone;
  return n;
}

static int pile_top(const eng_pile *p) {
  assert_true(p->n > 0);
  return p->c[p->n - 1];
}

static void result(const table *t, eng_result *r) {
  sv_ruleset.result(&t->s, r);
}

/* ======================================================================
 * Setup
 * ====================================================================*/

/* BATTLE FOR THE GALAXY: INITIAL SETUP - "1. Shuffle the Domination deck
 * and Minion deck." "3. Each Villain draws 2 cards from the Minion deck."
 * (The first Villain then plays Act II at once, so holds 3.) */
static void test_setup_shuffles_and_deals_two(void **unused) {
  (void)unused;
  for (int players = 2; players <= 4; players++) {
    table t;
    eng_config cfg = {.players = players, .first = 0};
    memset(&t, 0, sizeof t);
    assert_int_equal(sv_ruleset.setup(&t.s, &cfg, 7), ENG_OK);
    refresh(&t);
    assert_int_equal(t.s.current, 0);
    assert_int_equal(t.s.phase, SV_PH_ACT3);
    assert_int_equal(t.s.sp, 0);
    assert_int_equal(hand_size(&t, 0), 3);
    for (int p = 1; p < players; p++)
      assert_int_equal(hand_size(&t, p), 2);
    assert_int_equal(t.s.mdeck.n, SV_N_MINION - 2 * players - 1);
    assert_int_equal(t.s.mdisc.n, 0);
    assert_int_equal(t.s.ddeck.n, SV_N_DOMINATION - 1);
    assert_int_equal(t.s.ddisc.n, 0);
    assert_int_equal(count_zone(&t.s, SV_Z_LIMBO), 1);
    expect_options(&t, 0,
                   players == 2   ? "project launch.2"
                   : players == 3 ? "project launch.2 launch.3"
                                  : "project launch.2 launch.3 "
                                    "launch.4");
    /* Shuffled: neither deck is left in card order. */
    int mrise = 0, drise = 0;
    for (int k = 1; k < t.s.mdeck.n; k++)
      mrise += t.s.mdeck.c[k] > t.s.mdeck.c[k - 1];
    for (int k = 1; k < t.s.ddeck.n; k++)
      drise += t.s.ddeck.c[k] > t.s.ddeck.c[k - 1];
    assert_true(mrise > 0 && mrise < t.s.mdeck.n - 1);
    assert_true(drise > 0 && drise < t.s.ddeck.n - 1);
  }
  /* Another seed, another order. */
  sv_state a, b;
  eng_config cfg = {.players = 2, .first = 0};
  assert_int_equal(sv_ruleset.setup(&a, &cfg, 1), ENG_OK);
  assert_int_equal(sv_ruleset.setup(&b, &cfg, 2), ENG_OK);
  assert_true(memcmp(a.mdeck.c, b.mdeck.c, sizeof a.mdeck.c) != 0);
  assert_true(memcmp(a.ddeck.c, b.ddeck.c, sizeof a.ddeck.c) != 0);
}

/* INITIAL SETUP - "The one who had seen a movie with Superheroes ... most
 * recently makes the first turn." Lair: the host names the first Villain
 * (eng_config.first) or the engine picks one at random (first = -1). */
static void test_setup_first_villain(void **unused) {
  (void)unused;
  for (int first = 0; first < 3; first++) {
    sv_state s;
    eng_config cfg = {.players = 3, .first = first};
    assert_int_equal(sv_ruleset.setup(&s, &cfg, 5), ENG_OK);
    assert_int_equal(s.current, first);
  }
  int starts[3] = {0, 0, 0};
  for (uint64_t seed = 1; seed <= 60; seed++) {
    sv_state s, again;
    eng_config cfg = {.players = 3, .first = -1};
    assert_int_equal(sv_ruleset.setup(&s, &cfg, seed), ENG_OK);
    assert_int_equal(sv_ruleset.setup(&again, &cfg, seed), ENG_OK);
    assert_int_equal(s.current, again.current); /* the seed decides */
    assert_true(s.current < 3);
    starts[s.current]++;
  }
  for (int p = 0; p < 3; p++)
    assert_true(starts[p] > 0);
}

/* ======================================================================
 * Morning
 * ====================================================================*/

/* Asteroids Hit Targets - "1. Draw a Minion card. Even if your Asteroid
 * hasn't inflicted any damage to the opponent." "4. Put the Asteroid card
 * to the discard pile." An uncharged Asteroid finds no Mob here. */
static void test_act1_draws_even_without_damage(void **unused) {
  (void)unused;
  table t;
  load(&t, "act1_draw_without_damage");
  int ast = card(&t, "wormhole", SV_Z_ASTEROID, 0);
  int proj = card(&t, "asteroid_slingshot", SV_Z_PROJECT, 1);
  int fac = card(&t, "overtime_hq", SV_Z_FACILITY, 1);
  answer(&t, 1, "end");
  assert_true(t.flags & ENG_REVEALED);
  /* Act I card, then Act II card. */
  assert_at(&t, card(&t, "colossal_clone", SV_Z_HAND, 0), SV_Z_HAND, 0);
  assert_at(&t, card(&t, "middle_management", SV_Z_HAND, 0), SV_Z_HAND, 0);
  assert_int_equal(hand_size(&t, 0), 3);
  assert_at(&t, ast, SV_Z_DDISC, 0);
  assert_int_equal(pile_top(&t.s.ddisc), ast);
  assert_at(&t, proj, SV_Z_PROJECT, 1); /* uncharged: no harm to these */
  assert_at(&t, fac, SV_Z_FACILITY, 1);
  expect_options(&t, 0, "project launch.2");
}

/* Asteroids Hit Targets - "2.1. Uncharged Asteroid: destroy one Mob laying
 * on a Project of the targeted Villain." "It's your choice what to
 * destroy." Not a Project, not a Secret Facility. */
static void test_act1_uncharged_destroys_only_a_mob(void **unused) {
  (void)unused;
  table t;
  load(&t, "act1_uncharged");
  int tractor = card(&t, "tractor_beam_techs", SV_Z_MOB, 1);
  int flak = card(&t, "flak_gnomes", SV_Z_MOB, 1);
  int ast = card(&t, "wormhole", SV_Z_ASTEROID, 0);
  answer(&t, 1, "end");
  /* Step 1 came first: the owner already holds the Act I card. */
  assert_at(&t, card(&t, "colossal_clone", SV_Z_HAND, 0), SV_Z_HAND, 0);
  expect_options(&t, 0, "pick.c%d pick.c%d", tractor, flak);
  answer(&t, 0, "pick.c%d", tractor);
  assert_at(&t, tractor, SV_Z_MDISC, 0);
  assert_at(&t, flak, SV_Z_MOB, 1);
  assert_true(t.s.w[flak].proof);
  assert_at(&t, card(&t, "doomsday_clock", SV_Z_PROJECT, 1), SV_Z_PROJECT, 1);
  assert_at(&t, card(&t, "asteroid_slingshot", SV_Z_PROJECT, 1), SV_Z_PROJECT,
            1);
  assert_at(&t, card(&t, "overtime_hq", SV_Z_FACILITY, 1), SV_Z_FACILITY, 1);
  assert_at(&t, ast, SV_Z_DDISC, 0);
  expect_options(&t, 0, "project launch.2");
}

/* Asteroid-proof tokens - "If an uncharged Asteroid hits a Mob with an
 * Asteroid-proof token, the token is discarded, while the Mob is not
 * affected." NO MERCY FOR THE OBSOLETE! - "you can choose to discard an
 * Asteroid-proof token, even if you can destroy, for instance, some other
 * Mob nearby." */
static void test_proof_token_absorbs_uncharged_hit_no_mercy(void **unused) {
  (void)unused;
  table t;
  load(&t, "act1_uncharged");
  int tractor = card(&t, "tractor_beam_techs", SV_Z_MOB, 1);
  int flak = card(&t, "flak_gnomes", SV_Z_MOB, 1);
  answer(&t, 1, "end");
  assert_true(offered(&t, "pick.c%d", tractor)); /* could destroy this... */
  answer(&t, 0, "pick.c%d", flak);               /* ...hits the token */
  assert_at(&t, flak, SV_Z_MOB, 1);
  assert_false(t.s.w[flak].proof);
  assert_at(&t, tractor, SV_Z_MOB, 1);
  assert_int_equal(t.s.mdisc.n, 0);
  assert_at(&t, card(&t, "wormhole", SV_Z_DDISC, -1), SV_Z_DDISC, 0);
}

/* Asteroids Hit Targets - "2.2. Charged Asteroid: destroy one Mob laying
 * on a Project, or a Project without Mobs, or a Secret Facility" and "A
 * Charged Asteroid can't do any harm to a Project if there is at least one
 * Mob on it." Domination points - "Should a Secret Facility be later
 * destroyed, you lose its points." */
static void test_act1_charged_mob_empty_project_or_facility(void **unused) {
  (void)unused;
  table t;
  load(&t, "act1_charged");
  int tractor = card(&t, "tractor_beam_techs", SV_Z_MOB, 1);
  int flak = card(&t, "flak_gnomes", SV_Z_MOB, 1);
  int full = card(&t, "doomsday_clock", SV_Z_PROJECT, 1);
  int empty = card(&t, "asteroid_slingshot", SV_Z_PROJECT, 1);
  int hq = card(&t, "overtime_hq", SV_Z_FACILITY, 1);
  int dish = card(&t, "deflector_dish", SV_Z_FACILITY, 1);
  answer(&t, 1, "end");
  expect_options(&t, 0, "pick.c%d pick.c%d pick.c%d pick.c%d pick.c%d", tractor,
                 flak, empty, hq, dish);
  assert_false(offered(&t, "pick.c%d", full));
  answer(&t, 0, "pick.c%d", empty);
  assert_at(&t, empty, SV_Z_DDISC, 0);
  assert_at(&t, full, SV_Z_PROJECT, 1);

  load(&t, "act1_charged");
  assert_int_equal(sv_points(&t.s, 1), 2);
  answer(&t, 1, "end");
  answer(&t, 0, "pick.c%d", hq);
  assert_at(&t, hq, SV_Z_DDISC, 0);
  assert_int_equal(sv_points(&t.s, 1), 1);
}

/* Asteroid-proof tokens - "Charged Asteroids are much more deadly. Even an
 * Asteroid-proof token won't save a Mob from it. This Mob will be buried
 * with the token in his mouth." */
static void test_charged_hit_destroys_mob_with_token(void **unused) {
  (void)unused;
  table t;
  load(&t, "act1_charged");
  int flak = card(&t, "flak_gnomes", SV_Z_MOB, 1);
  answer(&t, 1, "end");
  answer(&t, 0, "pick.c%d", flak);
  assert_at(&t, flak, SV_Z_MDISC, 0);
  assert_false(t.s.w[flak].proof);
}

/* Asteroid-proof tokens - "If a charged Asteroid hits a Secret Facility
 * with an Asteroid-proof token, the token is discarded, while the Secret
 * Facility is not affected!" */
static void test_facility_token_absorbs_charged_hit(void **unused) {
  (void)unused;
  table t;
  load(&t, "act1_charged");
  int dish = card(&t, "deflector_dish", SV_Z_FACILITY, 1);
  answer(&t, 1, "end");
  answer(&t, 0, "pick.c%d", dish);
  assert_at(&t, dish, SV_Z_FACILITY, 1);
  assert_false(t.s.w[dish].proof);
  assert_int_equal(sv_points(&t.s, 1), 2);
  assert_at(&t, card(&t, "wormhole", SV_Z_DDISC, -1), SV_Z_DDISC, 0);
}

/* Asteroids Hit Targets - "3. When a Mob, Project, or Secret Facility is
 * destroyed, abilities of some Secret Facilities are triggered. If more
 * than one ability are triggered, you - the owner of the Asteroid -
 * determine their order." Two Henchman Insurance Projects of the target
 * fire; the Asteroid's owner, not their owner, is asked. */
static void test_act1_asteroid_owner_orders_triggers(void **unused) {
  (void)unused;
  table t;
  load(&t, "act1_trigger_order");
  int ins1 = sv_position_find(&t.s, "henchman_insurance", SV_Z_PROJECT, 1);
  int ins2 = ins1 + 1;
  assert_at(&t, ins2, SV_Z_PROJECT, 1);
  int tractor = card(&t, "tractor_beam_techs", SV_Z_MOB, 1);
  answer(&t, 1, "end");
  assert_at(&t, tractor, SV_Z_MDISC, 0); /* the only Mob: no choice */
  expect_options(&t, 0, "pick.c%d pick.c%d", ins1, ins2);
  answer(&t, 0, "pick.c%d", ins2);
  assert_int_equal(hand_size(&t, 1), 3); /* each Insurance drew 1 */
  assert_at(&t, card(&t, "launch_chimps", SV_Z_HAND, 1), SV_Z_HAND, 1);
  assert_at(&t, card(&t, "middle_management", SV_Z_HAND, 1), SV_Z_HAND, 1);
  assert_int_equal(hand_size(&t, 0), 3);
  expect_options(&t, 0, "project launch.2");
}

/* Act II. Draw a Card from the Minion Deck; Act III - "Draw a card from
 * the Domination deck and place it on the table face up. You now must
 * make a decision". */
static void test_act2_draw_then_act3_decision(void **unused) {
  (void)unused;
  table t;
  load(&t, "act2_draw");
  int top_m = pile_top(&t.s.mdeck), top_d = pile_top(&t.s.ddeck);
  assert_string_equal(sv_card_of(top_m)->id, "colossal_clone");
  answer(&t, 1, "end");
  assert_int_equal(t.s.current, 0);
  assert_int_equal(t.s.turn, 2);
  assert_at(&t, top_m, SV_Z_HAND, 0);
  assert_int_equal(hand_size(&t, 0), 2);
  assert_at(&t, top_d, SV_Z_LIMBO, 0);
  assert_int_equal(t.s.phase, SV_PH_ACT3);
  expect_options(&t, 0, "project launch.2");
  /* The drawn card is face up: everyone sees it. */
  json_t *v = sv_view(&t.s, 1);
  json_t *drawn = json_object_get(v, "drawn");
  assert_string_equal(json_string_value(json_object_get(drawn, "id")),
                      "doomsday_clock");
  json_decref(v);
}

/* Act III - "Option A. Start a new Project. The Domination card becomes
 * your Project." "Option B. Launch an Asteroid into another Villain ...
 * point the Asteroid at any other Villain". Launched Asteroids "are always
 * uncharged". */
static void test_act3_project_or_asteroid_at_another(void **unused) {
  (void)unused;
  table t;
  load(&t, "act3_three_players");
  int sun = card(&t, "sun_magnifier", SV_Z_LIMBO, 0);
  expect_options(&t, 0, "project launch.2 launch.3");
  answer(&t, 0, "launch.3");
  assert_at(&t, sun, SV_Z_ASTEROID, 0);
  assert_int_equal(t.s.w[sun].target, 2);
  assert_false(t.s.w[sun].charged);
  assert_int_equal(t.s.phase, SV_PH_DAY);

  load(&t, "act3_three_players");
  answer(&t, 0, "project");
  assert_at(&t, sun, SV_Z_PROJECT, 0);
  assert_int_equal(t.s.phase, SV_PH_DAY);
}

/* Team Battle - "1. You are teamed with the player sitting diagonally from
 * you." (seats 0&2, 1&3) "2. You cannot launch Asteroids into your
 * partner." */
static void test_team_partners_no_asteroid_at_partner(void **unused) {
  (void)unused;
  table t;
  load(&t, "act3_team");
  assert_true(t.s.team);
  assert_int_equal(t.s.target, 8);
  expect_options(&t, 0, "project launch.2 launch.4");
  json_t *v = sv_view(&t.s, -1);
  json_t *players = json_object_get(v, "players");
  for (int p = 0; p < 4; p++)
    assert_int_equal(
        json_integer_value(json_object_get(json_array_get(players, p), "team")),
        p % 2);
  json_decref(v);
  answer(&t, 0, "launch.4");
  assert_int_equal(t.s.w[card(&t, "sun_magnifier", SV_Z_ASTEROID, 0)].target,
                   3);

  /* Nor retarget one at your partner; the Asteroid keeps its charge. */
  load(&t, "team_retarget");
  int ast = card(&t, "wormhole", SV_Z_ASTEROID, 1);
  answer(&t, 0, "ops.c%d", card(&t, "tractor_beam_techs", SV_Z_HAND, 0));
  expect_options(&t, 0, "seat.2 seat.4");
  answer(&t, 0, "seat.4");
  assert_at(&t, ast, SV_Z_ASTEROID, 0);
  assert_int_equal(t.s.w[ast].target, 3);
  assert_true(t.s.w[ast].charged);
}

/* ======================================================================
 * Day
 * ====================================================================*/

/* Play a Mob - "you can play one Minion card from your hand as a Minion
 * Mob ... This can be done only once per turn." Boosted - "you play it
 * ignoring the restriction 'one Mob per turn'." */
static void test_day_one_mob_boosted_ignore(void **unused) {
  (void)unused;
  table t;
  load(&t, "day_one_mob");
  int mental = card(&t, "mental_restart", SV_Z_HAND, 0);
  int tractor = card(&t, "tractor_beam_techs", SV_Z_HAND, 0);
  int adren = card(&t, "adrenaline_shot", SV_Z_HAND, 0);
  int jet = card(&t, "jetpack_couriers", SV_Z_HAND, 0);
  int proj = card(&t, "doomsday_clock", SV_Z_PROJECT, 0);
  assert_int_equal(count_prefix(&t, "mob."), 4);
  answer(&t, 0, "mob.c%d", mental);
  assert_at(&t, mental, SV_Z_MOB, 0);
  assert_int_equal(t.s.w[mental].host, proj);
  assert_int_equal(t.s.mobs_left, 0);
  assert_false(offered(&t, "mob.c%d", tractor)); /* a second Mob: no */
  assert_true(offered(&t, "ops.c%d", tractor));  /* as Ops it still may */
  assert_true(offered(&t, "mob.c%d", adren));
  assert_true(offered(&t, "mob.c%d", jet));
  answer(&t, 0, "mob.c%d", adren); /* Boosted: before or after */
  assert_true(offered(&t, "mob.c%d", jet));
  answer(&t, 0, "mob.c%d", jet);
  assert_at(&t, jet, SV_Z_MOB, 0);
  assert_false(offered(&t, "mob.c%d", tractor));
  assert_false(t.flags & ENG_REVEALED);
}

/* Play a Minion Ops - "you can play one Minion card from hand as Minion
 * Ops. This can be done only once per turn." Swift - "you play it ignoring
 * the restriction 'one Minion Ops per turn'." */
static void test_day_one_ops_swift_ignore(void **unused) {
  (void)unused;
  table t;
  load(&t, "day_one_ops");
  int wreck = card(&t, "wrecking_ball_choir", SV_Z_HAND, 0);
  int sock = card(&t, "sock_puppet_saboteurs", SV_Z_HAND, 0);
  int flak = card(&t, "flak_gnomes", SV_Z_HAND, 0);
  int jet = card(&t, "jetpack_couriers", SV_Z_HAND, 0);
  assert_int_equal(count_prefix(&t, "mob."), 0); /* no Project to build */
  assert_int_equal(count_prefix(&t, "ops."), 4);
  answer(&t, 0, "ops.c%d", wreck); /* nothing to wreck: it just fizzles */
  assert_at(&t, wreck, SV_Z_MDISC, 0);
  assert_int_equal(t.s.ops_left, 0);
  assert_false(offered(&t, "ops.c%d", sock));
  assert_true(offered(&t, "ops.c%d", flak));
  assert_true(offered(&t, "ops.c%d", jet));
  answer(&t, 0, "ops.c%d", flak);
  assert_true(offered(&t, "ops.c%d", jet));
  assert_false(offered(&t, "ops.c%d", sock));
  answer(&t, 0, "ops.c%d", jet); /* draws a card */
  assert_true(t.flags & ENG_REVEALED);
  assert_int_equal(hand_size(&t, 0), 2);
}

/* Shooting down an Asteroid - "Discard two Minion cards to shoot down an
 * incoming uncharged Asteroid. Discard three Minion cards to shoot down an
 * incoming Charged Asteroid." "the League of Villains' Code of Honor
 * prohibits shooting down your own Asteroids!" */
static void test_shoot_down_costs_two_and_not_own(void **unused) {
  (void)unused;
  table t;
  load(&t, "shoot_down_two");
  int unch = card(&t, "wormhole", SV_Z_ASTEROID, 1);
  int chg = card(&t, "chronosphere", SV_Z_ASTEROID, 1);
  int own = card(&t, "star_of_death", SV_Z_ASTEROID, 0);
  int mental = card(&t, "mental_restart", SV_Z_HAND, 0);
  int tractor = card(&t, "tractor_beam_techs", SV_Z_HAND, 0);
  assert_true(offered(&t, "shoot.c%d", unch));
  assert_false(offered(&t, "shoot.c%d", chg)); /* 2 cards are not enough */
  assert_false(offered(&t, "shoot.c%d", own));
  answer(&t, 0, "shoot.c%d", unch);
  expect_options(&t, 0, "pick.c%d pick.c%d", mental, tractor);
  answer(&t, 0, "pick.c%d", mental); /* the second discard is forced */
  assert_int_equal(hand_size(&t, 0), 0);
  assert_at(&t, mental, SV_Z_MDISC, 0);
  assert_at(&t, tractor, SV_Z_MDISC, 0);
  assert_at(&t, unch, SV_Z_DDISC, 0);
  assert_at(&t, chg, SV_Z_ASTEROID, 1);
  assert_at(&t, own, SV_Z_ASTEROID, 0);
  expect_options(&t, 0, "end");
}

/* Shooting down an Asteroid - "Discard three Minion cards to shoot down an
 * incoming Charged Asteroid." "Downed Asteroids go directly to the discard
 * pile." */
static void test_shoot_down_charged_costs_three(void **unused) {
  (void)unused;
  table t;
  load(&t, "shoot_down_three");
  int unch = card(&t, "wormhole", SV_Z_ASTEROID, 1);
  int chg = card(&t, "chronosphere", SV_Z_ASTEROID, 1);
  int own = card(&t, "star_of_death", SV_Z_ASTEROID, 0);
  assert_true(offered(&t, "shoot.c%d", unch));
  assert_true(offered(&t, "shoot.c%d", chg));
  assert_false(offered(&t, "shoot.c%d", own));
  answer(&t, 0, "shoot.c%d", chg);
  answer(&t, 0, "pick.c%d", card(&t, "mental_restart", SV_Z_HAND, 0));
  answer(&t, 0, "pick.c%d", card(&t, "tractor_beam_techs", SV_Z_HAND, 0));
  assert_int_equal(hand_size(&t, 0), 0);
  assert_int_equal(t.s.mdisc.n, 3);
  assert_at(&t, chg, SV_Z_DDISC, 0);
  assert_at(&t, unch, SV_Z_ASTEROID, 1);
}

/* Completing a Project - "The Project is completed as soon as the total
 * Minion Power of all Mobs placed on it equals the Minion Power cost of
 * that Project or exceeds it." "Discard all Mobs from this Project."
 * Discard vs. Destroy - "When you complete a Project, the Mobs laying on it
 * are discarded (not destroyed)": Henchman Insurance ("Whenever one of your
 * Mobs is destroyed, draw 1") stays silent. */
static void test_completion_discards_mobs_not_destroyed(void **unused) {
  (void)unused;
  table t;
  load(&t, "complete_discards_mobs");
  int sling = card(&t, "asteroid_slingshot", SV_Z_PROJECT, 0);
  int ins = card(&t, "henchman_insurance", SV_Z_PROJECT, 0);
  int tractor = card(&t, "tractor_beam_techs", SV_Z_MOB, 0);
  int chimps = card(&t, "launch_chimps", SV_Z_HAND, 0);
  answer(&t, 0, "mob.c%d", chimps);
  expect_options(&t, 0, "pick.c%d pick.c%d", sling, ins);
  answer(&t, 0, "pick.c%d", sling); /* 500m + 400m >= 800m */
  assert_at(&t, sling, SV_Z_FACILITY, 0);
  assert_at(&t, tractor, SV_Z_MDISC, 0);
  assert_at(&t, chimps, SV_Z_MDISC, 0);
  assert_int_equal(sv_points(&t.s, 0), 1);
  assert_int_equal(hand_size(&t, 0), 1); /* no Insurance draw */
  assert_false(t.flags & ENG_REVEALED);
  assert_at(&t, ins, SV_Z_PROJECT, 0);
}

/* Completing a Project - "If the Project has a 'When complete' ability,
 * execute it now. Note that this is still a Project - not a Secret
 * Facility yet!" then "Rotate the Project card" then "There are some
 * Secret Facilities whose abilities are activated when you complete a
 * Project ... For instance, Transgalactic Bank and Wormhole." */
static void test_completion_order_when_complete_then_wormhole(void **unused) {
  (void)unused;
  table t;
  load(&t, "completion_order");
  int chrono = card(&t, "chronosphere", SV_Z_PROJECT, 0);
  int star = card(&t, "star_of_death", SV_Z_DDISC, -1);
  int moon = card(&t, "moon_mustache", SV_Z_DDISC, -1);
  int sun = card(&t, "sun_magnifier", SV_Z_DDECK, -1);
  assert_int_equal(pile_top(&t.s.ddeck), sun);
  answer(&t, 0, "mob.c%d", card(&t, "confused_dispatchers", SV_Z_HAND, 0));
  /* "When complete" waits for a choice: the Mobs are gone, the card is
   * still a Project and Wormhole has not fired. */
  expect_options(&t, 0, "pick.c%d pick.c%d", star, moon);
  assert_at(&t, chrono, SV_Z_PROJECT, 0);
  assert_int_equal(t.s.mdisc.n, 3);
  assert_int_equal(count_zone(&t.s, SV_Z_MOB), 0);
  assert_int_equal(pile_top(&t.s.ddeck), sun);
  answer(&t, 0, "pick.c%d", moon);
  assert_at(&t, moon, SV_Z_PROJECT, 0);
  assert_at(&t, chrono, SV_Z_FACILITY, 0);
  assert_at(&t, sun, SV_Z_PROJECT, 0); /* Wormhole: the top card */
  assert_at(&t, star, SV_Z_DDISC, 0);
  assert_int_equal(sv_points(&t.s, 0), 2);
}

/* Completing a Project - "their abilities are triggered now. For instance,
 * Transgalactic Bank" - ours reads "Whenever you complete a Project (this
 * one too), draw 2 Minion cards": completing the Bank itself draws 2.
 * (The Bank Project's own "Mob played onto this" draw does not fire for
 * the Mob that completes it: docs/rules/supervillain.md, trigger
 * mob_put_here, "and does not complete it".) */
static void test_transgalactic_bank_completing_itself(void **unused) {
  (void)unused;
  table t;
  load(&t, "bank_completes_itself");
  int bank = card(&t, "transgalactic_bank", SV_Z_PROJECT, 0);
  int chimps = card(&t, "launch_chimps", SV_Z_MDECK, -1);
  int tractor = card(&t, "tractor_beam_techs", SV_Z_MDECK, -1);
  answer(&t, 0, "mob.c%d", card(&t, "adrenaline_shot", SV_Z_HAND, 0));
  assert_at(&t, bank, SV_Z_FACILITY, 0);
  assert_int_equal(sv_points(&t.s, 0), 2);
  assert_at(&t, chimps, SV_Z_HAND, 0);
  assert_at(&t, tractor, SV_Z_HAND, 0);
  assert_int_equal(hand_size(&t, 0), 2);
  assert_int_equal(t.s.mdisc.n, 3);
}

/* Using Project Abilities, 2. Destroy this - "you may send this Project to
 * the discard pile, and use its ability then. If there are any Mobs on
 * it, they get destroyed." (destroyed: Henchman Insurance draws 1) */
static void test_project_destroy_this_destroys_its_mobs(void **unused) {
  (void)unused;
  table t;
  load(&t, "destroy_this_project");
  int moon = card(&t, "moon_mustache", SV_Z_PROJECT, 0);
  int ins = card(&t, "henchman_insurance", SV_Z_PROJECT, 0);
  int mental = card(&t, "mental_restart", SV_Z_MOB, 0);
  assert_false(offered(&t, "use.c%d", ins)); /* "Whenever" is not used */
  answer(&t, 0, "use.c%d", moon);
  assert_at(&t, moon, SV_Z_DDISC, 0);
  assert_at(&t, mental, SV_Z_MDISC, 0);
  /* Moon Mustache draws 2, Insurance 1 for the destroyed Mob. */
  assert_int_equal(hand_size(&t, 0), 3);
  assert_at(&t, ins, SV_Z_PROJECT, 0);
  assert_false(offered(&t, "use.c%d", moon));
}

/* Using Secret Facility Abilities, 1. Once-per-Turn Ability - "Starts
 * with 'Once per turn'. Can be used once during your turn." */
static void test_facility_once_per_turn(void **unused) {
  (void)unused;
  table t;
  load(&t, "facility_once_per_turn");
  int hq = card(&t, "overtime_hq", SV_Z_FACILITY, 0);
  answer(&t, 0, "use.c%d", hq);
  assert_int_equal(t.s.ops_left, 2);
  assert_true(t.s.w[hq].used);
  assert_false(offered(&t, "use.c%d", hq));
  answer(&t, 0, "end");
  answer(&t, 1, "project");
  answer(&t, 1, "end");
  answer(&t, 0, "project");
  assert_false(t.s.w[hq].used);
  assert_true(offered(&t, "use.c%d", hq)); /* a new turn */
}

/* Using Secret Facility Abilities, 2. Badaboom Ability - "Starts from
 * 'Destroy this...'. Can be used during your turn and definitely only
 * once - because the Secret Facility is destroyed." (Star of Death:
 * "Destroy every Mob on other Villains' Projects.") */
static void test_badaboom_facility_destroys_itself(void **unused) {
  (void)unused;
  table t;
  load(&t, "badaboom_star");
  int star = card(&t, "star_of_death", SV_Z_FACILITY, 0);
  int mine = card(&t, "tractor_beam_techs", SV_Z_MOB, 0);
  int m1 = card(&t, "mental_restart", SV_Z_MOB, 1);
  int m2 = card(&t, "colossal_clone", SV_Z_MOB, 1);
  answer(&t, 0, "use.c%d", star);
  assert_at(&t, star, SV_Z_DDISC, 0);
  assert_at(&t, m1, SV_Z_MDISC, 0);
  assert_at(&t, m2, SV_Z_MDISC, 0);
  assert_at(&t, mine, SV_Z_MOB, 0);
  assert_at(&t, card(&t, "sun_magnifier", SV_Z_PROJECT, 1), SV_Z_PROJECT, 1);
  assert_false(offered(&t, "use.c%d", star));
}

/* Using Secret Facility Abilities, 3. Conditional Ability - "starts with
 * 'If destroyed...' and is triggered when this Secret Facility is
 * destroyed." "Conditional abilities are triggered regardless of your will
 * and desire." A charged Asteroid destroys Moon Mustache ("If destroyed:
 * draw 2 Minion cards"): its owner draws. */
static void test_if_destroyed_triggers_on_asteroid(void **unused) {
  (void)unused;
  table t;
  load(&t, "if_destroyed_asteroid");
  int moon = card(&t, "moon_mustache", SV_Z_FACILITY, 1);
  answer(&t, 1, "end");
  assert_at(&t, moon, SV_Z_DDISC, 0);
  assert_int_equal(hand_size(&t, 1), 3);
  assert_at(&t, card(&t, "launch_chimps", SV_Z_HAND, 1), SV_Z_HAND, 1);
  assert_at(&t, card(&t, "tractor_beam_techs", SV_Z_HAND, 1), SV_Z_HAND, 1);
  assert_int_equal(hand_size(&t, 0), 3); /* Act I and Act II cards */
  expect_options(&t, 0, "project launch.2");
}

/* Questions of general interest - "Can a Villain voluntarily destroy
 * his/her own Secret Facility with 'If destroyed...' ability? Just at
 * will? No, it's not allowed." Planet Cracker may still destroy another
 * Villain's, whose ability then triggers. */
static void test_if_destroyed_not_at_will(void **unused) {
  (void)unused;
  table t;
  load(&t, "no_voluntary_if_destroyed");
  int moon0 = card(&t, "moon_mustache", SV_Z_FACILITY, 0);
  int statue = card(&t, "giant_statue_of_me", SV_Z_FACILITY, 0);
  int cracker = card(&t, "planet_cracker", SV_Z_FACILITY, 0);
  int moon1 = card(&t, "moon_mustache", SV_Z_FACILITY, 1);
  int hq1 = card(&t, "overtime_hq", SV_Z_FACILITY, 1);
  assert_false(offered(&t, "use.c%d", moon0));
  assert_false(offered(&t, "use.c%d", statue));
  assert_true(offered(&t, "use.c%d", cracker));
  answer(&t, 0, "use.c%d", cracker);
  expect_options(&t, 0, "pick.c%d pick.c%d", moon1, hq1);
  answer(&t, 0, "pick.c%d", moon1);
  assert_at(&t, moon1, SV_Z_DDISC, 0);
  assert_int_equal(hand_size(&t, 1), 3); /* its "If destroyed" draws 2 */
  assert_at(&t, moon0, SV_Z_FACILITY, 0);
  assert_at(&t, statue, SV_Z_FACILITY, 0);
}

/* ======================================================================
 * The villainous lexicon
 * ====================================================================*/

/* Play vs. Put - "Play a Mob means playing a Mob from the hand. Normally
 * it's possible only once per turn." "Put a Mob [onto a Project] ... This
 * allows to ignore the restriction 'one Mob per turn'." */
static void test_play_vs_put(void **unused) {
  (void)unused;
  table t;
  load(&t, "play_vs_put");
  int gob1 = card(&t, "overtime_goblins", SV_Z_HAND, 0);
  int gob2 = gob1 + 1;
  int mental = card(&t, "mental_restart", SV_Z_HAND, 0);
  int tractor = card(&t, "tractor_beam_techs", SV_Z_HAND, 0);
  int chimps = card(&t, "launch_chimps", SV_Z_HAND, 0);
  int proj = card(&t, "volcano_lair", SV_Z_PROJECT, 0);
  assert_at(&t, gob2, SV_Z_HAND, 0);
  /* Putting a Mob does not use the day's Mob... */
  answer(&t, 0, "ops.c%d", gob1);
  expect_options(&t, 0, "pick.c%d pick.c%d pick.c%d pick.c%d stop", gob2,
                 mental, tractor, chimps);
  answer(&t, 0, "pick.c%d", mental);
  assert_at(&t, mental, SV_Z_MOB, 0);
  assert_int_equal(t.s.w[mental].host, proj);
  assert_int_equal(t.s.mobs_left, 1);
  /* ...which is still there to be played. */
  answer(&t, 0, "mob.c%d", tractor);
  assert_int_equal(t.s.mobs_left, 0);
  assert_false(offered(&t, "mob.c%d", chimps));
  assert_true(offered(&t, "mob.c%d", gob2)); /* Boosted */
  /* And a Mob can still be put once the Mob has been played. */
  answer(&t, 0, "ops.c%d", gob2);
  expect_options(&t, 0, "pick.c%d stop", chimps);
  answer(&t, 0, "pick.c%d", chimps);
  assert_at(&t, chimps, SV_Z_MOB, 0);
  assert_int_equal(t.s.w[chimps].host, proj);
  assert_int_equal(t.s.mobs_left, 0);
  assert_int_equal(t.s.ops_left, 0);
}

/* Swap - "Swap a Mob with [another Mob] - a Villain chooses two Mobs to
 * change their places." Each keeps its own token. */
static void test_swap_mobs(void **unused) {
  (void)unused;
  table t;
  load(&t, "swap");
  int flak = card(&t, "flak_gnomes", SV_Z_MOB, 0);
  int tractor = card(&t, "tractor_beam_techs", SV_Z_MOB, 1);
  int chimps = card(&t, "launch_chimps", SV_Z_MOB, 1);
  int doom = card(&t, "doomsday_clock", SV_Z_PROJECT, 0);
  int sun = card(&t, "sun_magnifier", SV_Z_PROJECT, 1);
  answer(&t, 0, "ops.c%d", card(&t, "confused_dispatchers", SV_Z_HAND, 0));
  expect_options(&t, 0, "pick.c%d pick.c%d pick.c%d", flak, tractor, chimps);
  answer(&t, 0, "pick.c%d", flak);
  expect_options(&t, 0, "pick.c%d pick.c%d", tractor, chimps);
  answer(&t, 0, "pick.c%d", tractor);
  assert_at(&t, flak, SV_Z_MOB, 1);
  assert_int_equal(t.s.w[flak].host, sun);
  assert_true(t.s.w[flak].proof);
  assert_at(&t, tractor, SV_Z_MOB, 0);
  assert_int_equal(t.s.w[tractor].host, doom);
  assert_false(t.s.w[tractor].proof);
  assert_at(&t, chimps, SV_Z_MOB, 1);
}

/* Questions of general interest - "If a Mob with Asteroid-proof token is
 * stolen from another Villain and put on your own Project, does it retain
 * the Asteroid-proof token? Sure. But if it hadn't an Asteroid-proof token
 * before the abduction, he won't get it." (Even with the printed symbol.) */
static void test_steal_keeps_token_gives_none(void **unused) {
  (void)unused;
  table t;
  load(&t, "steal");
  int flak = card(&t, "flak_gnomes", SV_Z_MOB, 1);
  int monks = card(&t, "bubble_wrap_monks", SV_Z_MOB, 1);
  int doom = card(&t, "doomsday_clock", SV_Z_PROJECT, 0);
  assert_true(sv_card_of(monks)->proof); /* the symbol is printed */
  answer(&t, 0, "ops.c%d", card(&t, "poaching_recruiters", SV_Z_HAND, 0));
  expect_options(&t, 0, "pick.c%d pick.c%d", flak, monks);
  answer(&t, 0, "pick.c%d", flak);
  assert_at(&t, flak, SV_Z_MOB, 0);
  assert_int_equal(t.s.w[flak].host, doom);
  assert_true(t.s.w[flak].proof);
  answer(&t, 0, "ops.c%d", card(&t, "poaching_recruiters", SV_Z_HAND, 0));
  assert_at(&t, monks, SV_Z_MOB, 0); /* the only Mob left: no choice */
  assert_int_equal(t.s.w[monks].host, doom);
  assert_false(t.s.w[monks].proof);
}

/* Discard vs. Destroy - "Discard - put a card from the hand to the discard
 * pile. Destroy - put a card from the game table to the discard pile."
 * Henchman Insurance draws when a Mob is destroyed, not when a card is
 * discarded. */
static void test_discard_vs_destroy(void **unused) {
  (void)unused;
  table t;
  load(&t, "discard_vs_destroy");
  int mental = card(&t, "mental_restart", SV_Z_HAND, 1);
  int interns = card(&t, "clone_vat_interns", SV_Z_HAND, 1);
  int tractor = card(&t, "tractor_beam_techs", SV_Z_MOB, 1);
  answer(&t, 0, "ops.c%d", card(&t, "extortion_clerks", SV_Z_HAND, 0));
  expect_options(&t, 1, "pick.c%d pick.c%d", mental, interns);
  answer(&t, 1, "pick.c%d", mental);
  assert_at(&t, mental, SV_Z_MDISC, 0);
  assert_int_equal(hand_size(&t, 1), 1); /* discarded: no draw */
  assert_int_equal(t.p.player, 0);
  answer(&t, 0, "ops.c%d", card(&t, "sock_puppet_saboteurs", SV_Z_HAND, 0));
  assert_at(&t, tractor, SV_Z_MDISC, 0);
  assert_int_equal(hand_size(&t, 1), 2); /* destroyed: Insurance draws */
  assert_at(&t, card(&t, "colossal_clone", SV_Z_HAND, 1), SV_Z_HAND, 1);
}

/* Incoming vs. Any - "Incoming Asteroid is an Asteroid flying into you.
 * Otherwise any Asteroids on the game table are meant." "...prohibits
 * shooting down your own Asteroids!" Flak Gnomes shoot an incoming one,
 * Orbital Batboys any one not your own. */
static void test_incoming_vs_any(void **unused) {
  (void)unused;
  table t;
  load(&t, "incoming_vs_any");
  int in1 = card(&t, "wormhole", SV_Z_ASTEROID, 1);
  int in2 = card(&t, "chronosphere", SV_Z_ASTEROID, 2);
  int other = card(&t, "star_of_death", SV_Z_ASTEROID, 1);
  int own = card(&t, "cloning_vats", SV_Z_ASTEROID, 0);
  /* Discarding shoots down incoming Asteroids only. */
  assert_true(offered(&t, "shoot.c%d", in1));
  assert_true(offered(&t, "shoot.c%d", in2));
  assert_false(offered(&t, "shoot.c%d", other));
  assert_false(offered(&t, "shoot.c%d", own));
  answer(&t, 0, "ops.c%d", card(&t, "flak_gnomes", SV_Z_HAND, 0));
  expect_options(&t, 0, "pick.c%d pick.c%d", in1, in2);
  answer(&t, 0, "pick.c%d", in1);
  assert_at(&t, in1, SV_Z_DDISC, 0);
  answer(&t, 0, "ops.c%d", card(&t, "orbital_batboys", SV_Z_HAND, 0));
  expect_options(&t, 0, "pick.c%d pick.c%d", in2, other);
  answer(&t, 0, "pick.c%d", other);
  assert_at(&t, other, SV_Z_DDISC, 0);
  assert_at(&t, own, SV_Z_ASTEROID, 0);
  assert_at(&t, in2, SV_Z_ASTEROID, 2);
}

/* Retarget an Asteroid - "You become the new owner of this Asteroid.
 * Rotate its tail to yourself and point the Asteroid at any other
 * Villain." It hits in its new owner's next Act I ("all Asteroids you had
 * launched ... reach their planets"), not in the old owner's. */
static void test_retarget(void **unused) {
  (void)unused;
  table t;
  load(&t, "retarget");
  int ast = card(&t, "wormhole", SV_Z_ASTEROID, 1);
  int mob = card(&t, "mental_restart", SV_Z_MOB, 2);
  answer(&t, 0, "ops.c%d", card(&t, "tractor_beam_techs", SV_Z_HAND, 0));
  expect_options(&t, 0, "seat.2 seat.3"); /* the only Asteroid: taken */
  answer(&t, 0, "seat.3");
  assert_at(&t, ast, SV_Z_ASTEROID, 0);
  assert_int_equal(t.s.w[ast].target, 2);
  answer(&t, 0, "end");
  /* Seat 1's morning: it no longer owns the Asteroid. */
  assert_int_equal(t.s.current, 1);
  assert_at(&t, ast, SV_Z_ASTEROID, 0);
  assert_int_equal(hand_size(&t, 1), 2); /* Act II only */
  answer(&t, 1, "project");
  answer(&t, 1, "end");
  assert_at(&t, ast, SV_Z_ASTEROID, 0);
  assert_at(&t, mob, SV_Z_MOB, 2);
  answer(&t, 2, "project");
  answer(&t, 2, "end");
  /* Seat 0's morning: it hits seat 2's only Mob. */
  assert_int_equal(t.s.current, 0);
  assert_at(&t, ast, SV_Z_DDISC, 0);
  assert_at(&t, mob, SV_Z_MDISC, 0);
  assert_int_equal(hand_size(&t, 0), 2);
}

/* ALL IN ITS PROPER TIME - III - "If a Secret Facility is transformed back
 * to the Project, its ability is no longer in effect - but the Project
 * ability becomes active again." Its points are lost, and Asteroid-proof
 * tokens "can be put on Mobs and Secret Facilities - but not on Projects.
 * If an Asteroid-proof token somehow appears on a Project, discard this
 * token immediately." */
static void test_facility_back_to_project(void **unused) {
  (void)unused;
  table t;
  load(&t, "revert_facility");
  int bill = card(&t, "vanity_billboard", SV_Z_FACILITY, 1);
  int hypno = card(&t, "hypno_spiral_tower", SV_Z_FACILITY, 1);
  assert_int_equal(sv_points(&t.s, 1), 4);
  answer(&t, 0, "ops.c%d", card(&t, "warranty_voiders", SV_Z_HAND, 0));
  expect_options(&t, 0, "pick.c%d pick.c%d", bill, hypno);
  answer(&t, 0, "pick.c%d", bill);
  assert_at(&t, bill, SV_Z_PROJECT, 1);
  assert_false(t.s.w[bill].proof);
  assert_int_equal(sv_points(&t.s, 1), 2);
  answer(&t, 0, "end");
  answer(&t, 1, "project");
  assert_true(offered(&t, "use.c%d", bill)); /* its Project ability */
}

/* Charge Your Asteroid! - "Each Asteroid can carry only one Charge token.
 * Therefore, only an uncharged Asteroid can be charged." */
static void test_charge_only_uncharged(void **unused) {
  (void)unused;
  table t;
  load(&t, "charge_uncharged_only");
  int a1 = card(&t, "wormhole", SV_Z_ASTEROID, 0);
  int a2 = card(&t, "chronosphere", SV_Z_ASTEROID, 0);
  int a3 = card(&t, "star_of_death", SV_Z_ASTEROID, 0);
  assert_true(t.s.w[a3].charged);
  answer(&t, 0, "ops.c%d", card(&t, "plasma_stokers", SV_Z_HAND, 0));
  expect_options(&t, 0, "pick.c%d pick.c%d", a1, a2);
  answer(&t, 0, "pick.c%d", a1);
  assert_true(t.s.w[a1].charged);
  assert_false(t.s.w[a2].charged);
}

/* Total Annihilation - "Villains seeking more chaos and destruction may
 * agree that Asteroids can be charged at the cost of discarding 3 Minion
 * cards from hand." Only an uncharged Asteroid; only in that mode. */
static void test_total_annihilation_charge(void **unused) {
  (void)unused;
  table t;
  load(&t, "charge_standard");
  assert_int_equal(count_prefix(&t, "charge."), 0);

  load(&t, "charge_annihilation");
  assert_true(t.s.annihilation);
  int u = card(&t, "wormhole", SV_Z_ASTEROID, 0);
  int c = card(&t, "chronosphere", SV_Z_ASTEROID, 0);
  assert_true(offered(&t, "charge.c%d", u));
  assert_false(offered(&t, "charge.c%d", c));
  answer(&t, 0, "charge.c%d", u);
  answer(&t, 0, "pick.c%d", card(&t, "mental_restart", SV_Z_HAND, 0));
  answer(&t, 0, "pick.c%d", card(&t, "tractor_beam_techs", SV_Z_HAND, 0));
  assert_int_equal(hand_size(&t, 0), 0);
  assert_int_equal(t.s.mdisc.n, 3);
  assert_true(t.s.w[u].charged);
  assert_int_equal(count_prefix(&t, "charge."), 0);
}

/* ======================================================================
 * Evening, components, victory
 * ====================================================================*/

/* Play a Mob - "If the Mob you have just played (or somehow put on a
 * Project) has this Asteroid-proof symbol, put the respective token on."
 * Asteroid-proof tokens - "Each Mob or Secret Facility can have only one
 * Asteroid-proof token on it." */
static void test_mob_token_on_play_and_put_one_each(void **unused) {
  (void)unused;
  table t;
  load(&t, "put_mob_token");
  int doom = card(&t, "doomsday_clock", SV_Z_PROJECT, 0);
  int sun = card(&t, "sun_magnifier", SV_Z_PROJECT, 0);
  int flak = card(&t, "flak_gnomes", SV_Z_HAND, 0);
  int union_ = card(&t, "undead_labor_union", SV_Z_HAND, 0);
  int grunts = card(&t, "lead_lined_grunts", SV_Z_MDISC, -1);
  int tractor = card(&t, "tractor_beam_techs", SV_Z_MOB, 0);
  int mental = card(&t, "mental_restart", SV_Z_MOB, 0);
  int hq = card(&t, "overtime_hq", SV_Z_FACILITY, 0);
  int dish = card(&t, "deflector_dish", SV_Z_FACILITY, 0);
  answer(&t, 0, "mob.c%d", flak); /* played */
  expect_options(&t, 0, "pick.c%d pick.c%d", doom, sun);
  answer(&t, 0, "pick.c%d", doom);
  assert_at(&t, flak, SV_Z_MOB, 0);
  assert_true(t.s.w[flak].proof);
  answer(&t, 0, "ops.c%d", union_); /* put from the discard pile */
  expect_options(&t, 0, "pick.c%d pick.c%d", grunts, union_);
  answer(&t, 0, "pick.c%d", grunts);
  answer(&t, 0, "pick.c%d", doom);
  assert_at(&t, grunts, SV_Z_MOB, 0);
  assert_true(t.s.w[grunts].proof);
  /* Bubble-Wrap Monks: only what has no token yet. */
  answer(&t, 0, "ops.c%d", card(&t, "bubble_wrap_monks", SV_Z_HAND, 0));
  expect_options(&t, 0, "pick.c%d pick.c%d pick.c%d", tractor, mental, dish);
  answer(&t, 0, "pick.c%d", dish);
  assert_true(t.s.w[dish].proof);
  assert_true(t.s.w[hq].proof);
  assert_false(t.s.w[tractor].proof);
}

/* EVENING - "If you have more than 7 Minion cards on hand, discard the
 * extra ones. Then pass the turn to the next Villain clockwise." */
static void test_evening_discard_to_seven(void **unused) {
  (void)unused;
  table t;
  load(&t, "evening_discard");
  int mental = card(&t, "mental_restart", SV_Z_HAND, 0);
  int interns = card(&t, "clone_vat_interns", SV_Z_HAND, 0);
  answer(&t, 0, "end");
  assert_int_equal(t.p.player, 0);
  assert_int_equal(t.p.n, 9);
  answer(&t, 0, "pick.c%d", mental);
  assert_int_equal(t.p.player, 0);
  answer(&t, 0, "pick.c%d", interns);
  assert_int_equal(hand_size(&t, 0), 7);
  assert_at(&t, mental, SV_Z_MDISC, 0);
  assert_at(&t, interns, SV_Z_MDISC, 0);
  assert_int_equal(t.s.current, 1);
  expect_options(&t, 1, "project launch.1 launch.3");
}

/* WHO COUNTS THOSE MINIONS?! - "if you need to draw a card from the Minion
 * deck, but it is empty, reshuffle the discard pile to create a new
 * deck." */
static void test_minion_deck_reshuffles_discard(void **unused) {
  (void)unused;
  table t;
  load(&t, "minion_reshuffle");
  assert_int_equal(t.s.mdeck.n, 0);
  assert_int_equal(t.s.mdisc.n, SV_N_MINION - 2);
  answer(&t, 1, "end");
  assert_int_equal(hand_size(&t, 0), 2);
  assert_int_equal(t.s.mdisc.n, 0);
  assert_int_equal(t.s.mdeck.n, SV_N_MINION - 3);
}

/* I HAVE FRESH ASTEROIDS FOR YOU ALL! - "At any time, if you need to draw
 * a card from the Domination deck, but it's empty, reshuffle the discard
 * pile to create a new deck." */
static void test_domination_deck_reshuffles_discard(void **unused) {
  (void)unused;
  table t;
  load(&t, "domination_reshuffle");
  assert_int_equal(t.s.ddeck.n, 0);
  assert_int_equal(t.s.ddisc.n, SV_N_DOMINATION);
  answer(&t, 1, "end");
  assert_false(t.s.over);
  assert_int_equal(t.s.ddisc.n, 0);
  assert_int_equal(t.s.ddeck.n, SV_N_DOMINATION - 1);
  assert_int_equal(count_zone(&t.s, SV_Z_LIMBO), 1);
  expect_options(&t, 0, "project launch.2");
}

/* COMPONENT LIMITATIONS - "Minion cards - shuffle the discard pile to
 * create a new deck. If this is impossible... well, you are out of luck.
 * The Minions are on siesta!" No card, and the game goes on. */
static void test_minion_both_empty_no_card(void **unused) {
  (void)unused;
  table t;
  load(&t, "minion_both_empty");
  assert_int_equal(t.s.mdeck.n + t.s.mdisc.n, 0);
  int before = hand_size(&t, 0);
  answer(&t, 1, "end");
  assert_int_equal(hand_size(&t, 0), before);
  assert_false(t.s.over);
  expect_options(&t, 0, "project launch.2");
}

/* VICTORY - "If a Villain has to draw a card from the Domination deck, but
 * the deck is empty and the discard pile is empty as well - the game
 * immediately ends. In that situation, the Villain having the maximum
 * number of Domination points wins." */
static void test_domination_exhausted_most_points(void **unused) {
  (void)unused;
  table t;
  eng_result r;
  load(&t, "domination_exhausted");
  assert_int_equal(t.s.ddeck.n + t.s.ddisc.n, 0);
  answer(&t, 1, "end");
  assert_true(t.s.over);
  assert_int_equal(t.p.player, -1);
  result(&t, &r);
  assert_true(r.over);
  assert_int_equal(r.winners, 1u << 0);
  assert_string_equal(r.reason, "decks_exhausted");
  assert_int_equal(r.score[0], 2);
  assert_int_equal(r.score[1], 1);
  assert_int_equal(hand_size(&t, 0), 2); /* Act II happened, Act III not */
}

/* VICTORY - "If two or more Villains are tied, there is no winner in this
 * game. The world is saved!" */
static void test_domination_exhausted_tie_no_winner(void **unused) {
  (void)unused;
  table t;
  eng_result r;
  load(&t, "domination_exhausted_tie");
  answer(&t, 1, "end");
  result(&t, &r);
  assert_true(r.over);
  assert_int_equal(r.winners, 0);
  assert_string_equal(r.reason, "decks_exhausted_tie");
  json_t *v = sv_view(&t.s, -1);
  assert_int_equal(json_array_size(json_object_get(v, "winners")), 0);
  json_decref(v);
}

/* Plays the two Adrenaline Shots of a victory position: each completes a
 * 1-point Project. One point short is no win; reaching the target ends the
 * game at once. */
static void reach_target(const char *position, int target, unsigned winners) {
  table t;
  eng_result r;
  load(&t, position);
  assert_int_equal(t.s.target, target);
  int sling = card(&t, "asteroid_slingshot", SV_Z_PROJECT, 0);
  answer(&t, 0, "mob.c%d", card(&t, "adrenaline_shot", SV_Z_HAND, 0));
  answer(&t, 0, "pick.c%d", sling);
  assert_at(&t, sling, SV_Z_FACILITY, 0);
  assert_int_equal(sv_team_points(&t.s, 0), target - 1);
  assert_false(t.s.over);
  assert_int_equal(t.p.player, 0);
  answer(&t, 0, "mob.c%d", card(&t, "adrenaline_shot", SV_Z_HAND, 0));
  assert_int_equal(sv_team_points(&t.s, 0), target);
  assert_true(t.s.over);
  assert_int_equal(t.p.player, -1);
  result(&t, &r);
  assert_int_equal(r.winners, winners);
  assert_string_equal(r.reason, "points");
}

/* VICTORY - "A Villain who has acquired 5 Domination points immediately
 * wins the game and is proclaimed the Supervillain." */
static void test_victory_standard_five(void **unused) {
  (void)unused;
  reach_target("victory_standard", 5, 1u << 0);
}

/* GAME MODES, Blitz Galaxy - "play until somebody acquires 4 Domination
 * points." */
static void test_victory_blitz_four(void **unused) {
  (void)unused;
  reach_target("victory_blitz", 4, 1u << 0);
}

/* GAME MODES, I'll Be Killing You Slowly! - "play until somebody acquires
 * 7 Domination points." */
static void test_victory_slow_seven(void **unused) {
  (void)unused;
  reach_target("victory_slow", 7, 1u << 0);
}

/* GAME MODES, Team Battle - "You win by acquiring together 8 Domination
 * points." Partners win together. */
static void test_victory_team_eight_together(void **unused) {
  (void)unused;
  reach_target("victory_team", 8, (1u << 0) | (1u << 2));
}

/* Bad Luck Emitter - "prevents ... from winning the game, if there is a
 * charged Asteroid targeted at one of them" (ours: "no Villain or team can
 * win while a charged Asteroid targets them"). An uncharged one does not
 * block, and the win comes the moment the block lifts. */
static void test_bad_luck_emitter_blocks_win(void **unused) {
  (void)unused;
  table t;
  eng_result r;
  load(&t, "bad_luck_emitter");
  int chg = card(&t, "wormhole", SV_Z_ASTEROID, 1);
  int unch = card(&t, "chronosphere", SV_Z_ASTEROID, 1);
  answer(&t, 0, "mob.c%d", card(&t, "adrenaline_shot", SV_Z_HAND, 0));
  assert_int_equal(sv_points(&t.s, 0), 5);
  assert_false(t.s.over);
  assert_true(sv_win_blocked(&t.s, 0));
  answer(&t, 0, "shoot.c%d", chg);
  answer(&t, 0, "pick.c%d", card(&t, "mental_restart", SV_Z_HAND, 0));
  assert_false(t.s.over); /* the Asteroid flies until all 3 are discarded */
  answer(&t, 0, "pick.c%d", card(&t, "clone_vat_interns", SV_Z_HAND, 0));
  assert_true(t.s.over);
  result(&t, &r);
  assert_int_equal(r.winners, 1u << 0);
  assert_string_equal(r.reason, "points");
  assert_at(&t, unch, SV_Z_ASTEROID, 1);
}

/* Team Battle, P.S. - "Bad Luck Emitter Domination card prevents both
 * teammates from winning the game, if there is a charged Asteroid targeted
 * at one of them." The block lifts when that Asteroid hits, in its
 * owner's Act I: the team wins then and there. */
static void test_bad_luck_emitter_team_partner(void **unused) {
  (void)unused;
  table t;
  eng_result r;
  load(&t, "bad_luck_emitter_team");
  int ast = card(&t, "wormhole", SV_Z_ASTEROID, 1);
  answer(&t, 0, "mob.c%d", card(&t, "adrenaline_shot", SV_Z_HAND, 0));
  assert_int_equal(sv_team_points(&t.s, 0), 8);
  assert_false(t.s.over);
  assert_true(sv_win_blocked(&t.s, 0));
  assert_true(sv_win_blocked(&t.s, 2));
  answer(&t, 0, "end");
  assert_true(t.s.over);
  assert_int_equal(t.s.current, 1);
  assert_at(&t, ast, SV_Z_DDISC, 0);
  assert_int_equal(hand_size(&t, 1), 2); /* its Act I card, no Act II */
  result(&t, &r);
  assert_int_equal(r.winners, (1u << 0) | (1u << 2));
}

/* Questions of general interest - "The following information in the game
 * is open: number of cards in the Villain's hand, front side of any
 * Asteroid, cards in the discard piles, and Mobs, Projects, and Secret
 * Facilities laying on the table". Act II - "never show it to other
 * Villains." */
static void test_open_information(void **unused) {
  (void)unused;
  table t;
  char msg[256];
  load(&t, "open_information");
  for (int v = -1; v < t.s.players; v++) {
    json_t *j = sv_view(&t.s, v);
    assert_int_equal(sv_check_view_json(&t.s, j, v, msg, sizeof msg), 0);
    json_t *players = json_object_get(j, "players");
    for (int p = 0; p < t.s.players; p++)
      assert_int_equal(json_integer_value(
                           json_object_get(json_array_get(players, p), "hand")),
                       hand_size(&t, p));
    /* Decks are counts only, never their order. */
    assert_true(json_is_integer(json_object_get(j, "minion_deck")));
    assert_true(json_is_integer(json_object_get(j, "domination_deck")));
    assert_int_equal(json_array_size(json_object_get(j, "minion_discard")), 2);
    assert_int_equal(json_array_size(json_object_get(j, "domination_discard")),
                     1);
    json_t *ast = json_object_get(j, "asteroids");
    assert_int_equal(json_array_size(ast), 2);
    for (size_t k = 0; k < 2; k++) {
      json_t *a = json_array_get(ast, k);
      int i = (int)json_integer_value(json_object_get(a, "i"));
      assert_string_equal(json_string_value(json_object_get(a, "id")),
                          sv_card_of(i)->id);
    }
    json_t *hand = json_object_get(j, "hand");
    if (v < 0) {
      assert_null(hand);
    } else {
      assert_int_equal(json_array_size(hand), hand_size(&t, v));
      size_t k;
      json_t *c;
      json_array_foreach(hand, k, c) {
        int i = (int)json_integer_value(json_object_get(c, "i"));
        assert_at(&t, i, SV_Z_HAND, v);
      }
    }
    /* Nobody else's hand card appears anywhere in the text. */
    char *text = json_dumps(j, JSON_COMPACT);
    assert_non_null(text);
    if (v != 2)
      assert_null(strstr(text, "colossal_clone"));
    if (v != 0)
      assert_null(strstr(text, "mental_restart"));
    free(text);
    json_decref(j);
  }
  /* The checker itself can fail: seat 0's view shown to seat 1. */
  json_t *j = sv_view(&t.s, 0);
  assert_int_equal(sv_check_view_json(&t.s, j, 1, msg, sizeof msg), 1);
  json_decref(j);
}

/* QUESTIONS OF GENERAL INTEREST - "Is it possible to replay? Yes, until
 * any new information is revealed. For example, if a card has been drawn
 * from the Minion deck or Domination deck, you can't replay anymore." */
static void test_takeback_until_revealed(void **unused) {
  (void)unused;
  const eng_ruleset *rs = eng_find("supervillain");
  assert_non_null(rs);
  assert_ptr_equal(rs, &sv_ruleset);
  eng_config cfg = {.players = 2, .first = 0};
  eng_game *g = NULL;
  int drawer = -1;
  /* A seed whose first Villain holds a Minion card whose Ops draw. */
  for (uint64_t seed = 1; seed <= 200 && drawer < 0; seed++) {
    eng_game_free(g);
    assert_int_equal(eng_game_new(rs, &cfg, seed, &g), ENG_OK);
    const sv_state *s = g->state;
    for (int i = 0; i < SV_N_MINION && drawer < 0; i++)
      if (s->w[i].zone == SV_Z_HAND && s->w[i].owner == 0 &&
          sv_card_of(i)->ops.eff[0].op == SV_OP_DRAW_MINION)
        drawer = i;
  }
  assert_true(drawer >= 0);

  /* Starting a Project reveals nothing: it can be taken back, and the
   * state is then the same byte for byte. */
  char *before = eng_game_state_text(g);
  assert_non_null(before);
  assert_int_equal(eng_game_answer(g, 0, "project", NULL), ENG_OK);
  assert_int_equal(eng_game_takeback_count(g, 0), 1);
  assert_int_equal(eng_game_takeback(g, 1), ENG_NO_TAKEBACK);
  assert_int_equal(eng_game_takeback(g, 0), ENG_OK);
  char *after = eng_game_state_text(g);
  assert_string_equal(before, after);
  free(after);
  free(before);

  /* Playing Ops that draw a card reveals it: no takeback past it. */
  assert_int_equal(eng_game_answer(g, 0, "project", NULL), ENG_OK);
  char id[ENG_ID_MAX + 1];
  snprintf(id, sizeof id, "ops.c%d", drawer);
  assert_int_equal(eng_game_answer(g, 0, id, NULL), ENG_OK);
  assert_int_equal(eng_game_takeback_count(g, 0), 0);
  before = eng_game_state_text(g);
  assert_int_equal(eng_game_takeback(g, 0), ENG_NO_TAKEBACK);
  after = eng_game_state_text(g);
  assert_string_equal(before, after);
  free(after);
  free(before);
  eng_game_free(g);
}

/* ======================================================================
 * The rulebook's worked examples
 * ====================================================================*/

/* Chronosphere is completed! - "1. Put all the three Minion cards to the
 * discard pile ... 2. ... take any Domination card from the discard pile
 * as your Project. 3. Rotate Chronosphere to the horizontal position. Now
 * it's your Secret Facility!" */
static void test_example_chronosphere(void **unused) {
  (void)unused;
  table t;
  load(&t, "chronosphere_example");
  int chrono = card(&t, "chronosphere", SV_Z_PROJECT, 0);
  int m1 = card(&t, "mental_restart", SV_Z_MOB, 0);
  int m2 = card(&t, "clone_vat_interns", SV_Z_MOB, 0);
  int m3 = card(&t, "confused_dispatchers", SV_Z_HAND, 0);
  int star = card(&t, "star_of_death", SV_Z_DDISC, -1);
  int moon = card(&t, "moon_mustache", SV_Z_DDISC, -1);
  answer(&t, 0, "mob.c%d", m3);
  assert_at(&t, m1, SV_Z_MDISC, 0);
  assert_at(&t, m2, SV_Z_MDISC, 0);
  assert_at(&t, m3, SV_Z_MDISC, 0);
  assert_at(&t, chrono, SV_Z_PROJECT, 0);
  expect_options(&t, 0, "pick.c%d pick.c%d", star, moon);
  answer(&t, 0, "pick.c%d", star);
  assert_at(&t, star, SV_Z_PROJECT, 0);
  assert_at(&t, chrono, SV_Z_FACILITY, 0);
  assert_int_equal(sv_points(&t.s, 0), 1);
  assert_int_equal(t.s.ddisc.n, 1);
}

/* "Project under construction. To complete it, mere 100m Minion Power are
 * required!" - "By playing Adrenaline Shot Minion card as a Mob, you
 * successfully complete the Project." (Boosted: even after a Mob.) */
static void test_example_adrenaline_shot(void **unused) {
  (void)unused;
  table t;
  load(&t, "adrenaline_example");
  int station = card(&t, "charging_station", SV_Z_PROJECT, 0);
  int shot = card(&t, "adrenaline_shot", SV_Z_HAND, 0);
  assert_int_equal(sv_card_of(station)->cost, 900);
  answer(&t, 0, "mob.c%d", shot);
  assert_at(&t, station, SV_Z_FACILITY, 0);
  assert_at(&t, shot, SV_Z_MDISC, 0);
  assert_int_equal(t.s.mdisc.n, 3);
  assert_int_equal(sv_points(&t.s, 0), 1);
}

/* The Golden Rule of the Outer Space - "upon playing Mental Restart Minion
 * Ops stating 'Destroy your Project, then draw two Projects', you must take
 * two Domination cards as your Projects." */
static void test_example_mental_restart(void **unused) {
  (void)unused;
  table t;
  load(&t, "mental_restart_example");
  int swat = card(&t, "giant_flyswatter", SV_Z_PROJECT, 0);
  int mob = card(&t, "tractor_beam_techs", SV_Z_MOB, 0);
  int sun = card(&t, "sun_magnifier", SV_Z_DDECK, -1);
  int doom = card(&t, "doomsday_clock", SV_Z_DDECK, -1);
  answer(&t, 0, "ops.c%d", card(&t, "mental_restart", SV_Z_HAND, 0));
  assert_at(&t, swat, SV_Z_DDISC, 0);
  assert_at(&t, mob, SV_Z_MDISC, 0);
  assert_at(&t, sun, SV_Z_PROJECT, 0);
  assert_at(&t, doom, SV_Z_PROJECT, 0);
  assert_int_equal(count_zone(&t.s, SV_Z_ASTEROID), 0);
  assert_int_equal(t.s.sp, 0); /* no launch question was asked */
  assert_int_equal(t.s.phase, SV_PH_DAY);
  assert_int_equal(t.p.player, 0);
}

/* The Golden Rule of the Outer Space - "upon completing Big Bang
 * Generator whose Project ability states 'When complete: Launch two
 * Asteroids', you draw two Domination cards and launch those into other
 * Villains as Asteroids." */
static void test_example_big_bang_generator(void **unused) {
  (void)unused;
  table t;
  load(&t, "big_bang_example");
  int bbg = card(&t, "big_bang_generator", SV_Z_PROJECT, 0);
  int sun = card(&t, "sun_magnifier", SV_Z_DDECK, -1);
  int doom = card(&t, "doomsday_clock", SV_Z_DDECK, -1);
  int hypno = card(&t, "hypno_spiral_tower", SV_Z_DDECK, -1);
  answer(&t, 0, "mob.c%d", card(&t, "tractor_beam_techs", SV_Z_HAND, 0));
  assert_at(&t, sun, SV_Z_LIMBO, 0);
  assert_at(&t, bbg, SV_Z_PROJECT, 0); /* "When complete": still a Project */
  assert_int_equal(t.s.mdisc.n, 3);
  expect_options(&t, 0, "seat.2 seat.3");
  answer(&t, 0, "seat.3");
  assert_at(&t, sun, SV_Z_ASTEROID, 0);
  assert_int_equal(t.s.w[sun].target, 2);
  assert_false(t.s.w[sun].charged);
  assert_at(&t, doom, SV_Z_LIMBO, 0);
  expect_options(&t, 0, "seat.2 seat.3");
  answer(&t, 0, "seat.2");
  assert_at(&t, doom, SV_Z_ASTEROID, 0);
  assert_int_equal(t.s.w[doom].target, 1);
  assert_at(&t, bbg, SV_Z_FACILITY, 0);
  assert_int_equal(sv_points(&t.s, 0), 2);
  assert_int_equal(pile_top(&t.s.ddeck), hypno);
  assert_int_equal(count_zone(&t.s, SV_Z_PROJECT), 0);
}

/* ======================================================================
 * Saved states and the position loader
 * ====================================================================*/

static char *state_text(const sv_state *s) {
  json_t *j = sv_to_json(s);
  assert_non_null(j);
  char *text = json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS);
  json_decref(j);
  assert_non_null(text);
  return text;
}

static void assert_round_trip(const sv_state *s, const char *what) {
  char *a = state_text(s);
  json_t *j = json_loads(a, 0, NULL);
  assert_non_null(j);
  sv_state back;
  eng_rc rc = sv_from_json(&back, j);
  json_decref(j);
  if (rc)
    fail_msg("%s: sv_from_json says %s", what, eng_rcname(rc));
  char *b = state_text(&back);
  if (strcmp(a, b) != 0)
    fail_msg("%s: the state changed in its JSON round trip", what);
  free(a);
  free(b);
}

/* Saves: sv_to_json -> sv_from_json -> the same text, for every position
 * file, for states waiting inside an ability, and for fresh games. */
static void test_state_json_round_trip(void **unused) {
  (void)unused;
  DIR *d = opendir(SV_TEST_DATA);
  assert_non_null(d);
  int files = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    size_t n = strlen(e->d_name);
    if (n < 6 || strcmp(e->d_name + n - 5, ".json") != 0)
      continue;
    char name[256];
    snprintf(name, sizeof name, "%.*s", (int)(n - 5), e->d_name);
    table t;
    load(&t, name);
    assert_round_trip(&t.s, name);
    files++;
  }
  closedir(d);
  assert_true(files >= 40);

  table t;
  load(&t, "completion_order"); /* waiting inside "When complete" */
  answer(&t, 0, "mob.c%d", card(&t, "confused_dispatchers", SV_Z_HAND, 0));
  assert_true(t.s.sp > 0);
  assert_round_trip(&t.s, "completion_order after the Mob");
  load(&t, "evening_discard"); /* waiting inside the Evening discard */
  answer(&t, 0, "end");
  assert_round_trip(&t.s, "evening_discard after end");
  load(&t, "domination_exhausted"); /* a finished game */
  answer(&t, 1, "end");
  assert_true(t.s.over);
  assert_round_trip(&t.s, "domination_exhausted after the end");

  static const char *const modes[] = {
      "standard", "blitz", "slow", "team", "annihilation", "team+annihilation"};
  for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++) {
    sv_state s;
    eng_config cfg = {.players = 4, .first = -1};
    snprintf(cfg.mode, sizeof cfg.mode, "%s", modes[m]);
    assert_int_equal(sv_ruleset.setup(&s, &cfg, 11 + m), ENG_OK);
    assert_round_trip(&s, modes[m]);
  }
}

typedef void (*mutation)(json_t *state, const sv_state *s);

static json_t *where_of(json_t *j, int i) {
  return json_array_get(json_object_get(j, "where"), (size_t)i);
}

static void set_where(json_t *j, int i, int field, json_int_t v) {
  assert_int_equal(
      json_array_set_new(where_of(j, i), (size_t)field, json_integer(v)), 0);
}

static int first_in(const sv_state *s, int zone) {
  for (int i = 0; i < SV_N; i++)
    if (s->w[i].zone == zone)
      return i;
  fail_msg("no card in zone %s", sv_zone_name(zone));
  return -1;
}

static void mut_card_in_two_piles(json_t *j, const sv_state *s) {
  json_array_append_new(json_object_get(j, "minion_discard"),
                        json_integer(pile_top(&s->mdeck)));
}
static void mut_card_twice_in_deck(json_t *j, const sv_state *s) {
  json_t *deck = json_object_get(j, "minion_deck");
  json_array_set_new(deck, 0, json_integer(pile_top(&s->mdeck)));
}
static void mut_card_missing_from_pile(json_t *j, const sv_state *s) {
  set_where(j, first_in(s, SV_Z_HAND), 0, SV_Z_MDISC); /* not in the list */
}
static void mut_token_on_project(json_t *j, const sv_state *s) {
  set_where(j, first_in(s, SV_Z_PROJECT), 4, 1);
}
static void mut_charge_on_mob(json_t *j, const sv_state *s) {
  set_where(j, first_in(s, SV_Z_MOB), 5, 1);
}
static void mut_asteroid_at_owner(json_t *j, const sv_state *s) {
  int a = first_in(s, SV_Z_ASTEROID);
  set_where(j, a, 3, s->w[a].owner);
}
static void mut_asteroid_at_nobody(json_t *j, const sv_state *s) {
  set_where(j, first_in(s, SV_Z_ASTEROID), 3, 3); /* 3 players: 0..2 */
}
static void mut_mob_on_others_project(json_t *j, const sv_state *s) {
  int m = first_in(s, SV_Z_MOB);
  set_where(j, m, 1, (s->w[m].owner + 1) % s->players);
}
static void mut_minion_as_project(json_t *j, const sv_state *s) {
  set_where(j, first_in(s, SV_Z_HAND), 0, SV_Z_PROJECT);
}
static void mut_zone_out_of_range(json_t *j, const sv_state *s) {
  (void)s;
  set_where(j, 0, 0, SV_Z_COUNT);
}
static void mut_players_string(json_t *j, const sv_state *s) {
  (void)s;
  json_object_set_new(j, "players", json_string("3"));
}
static void mut_where_string(json_t *j, const sv_state *s) {
  (void)s;
  json_array_set_new(json_object_get(j, "where"), 0, json_string("deck"));
}
static void mut_where_short(json_t *j, const sv_state *s) {
  (void)s;
  json_array_remove(json_object_get(j, "where"), SV_N - 1);
}
static void mut_pile_card_too_big(json_t *j, const sv_state *s) {
  (void)s;
  json_array_append_new(json_object_get(j, "domination_discard"),
                        json_integer(SV_N));
}
static void mut_no_rng(json_t *j, const sv_state *s) {
  (void)s;
  json_object_del(j, "rng");
}
static void mut_other_ruleset(json_t *j, const sv_state *s) {
  (void)s;
  json_object_set_new(j, "ruleset", json_string("toy"));
}
static void mut_turn_float(json_t *j, const sv_state *s) {
  (void)s;
  json_object_set_new(j, "turn", json_real(1.5));
}
static void mut_sp_disagrees(json_t *j, const sv_state *s) {
  (void)s;
  json_object_set_new(j, "sp", json_integer(1));
}
static void mut_two_drawn(json_t *j, const sv_state *s) {
  /* A second card "drawn" in Act III, taken off the Domination deck. */
  int c = pile_top(&s->ddeck);
  json_array_remove(json_object_get(j, "domination_deck"),
                    (size_t)s->ddeck.n - 1);
  set_where(j, c, 0, SV_Z_LIMBO);
}

/* Saves: a malformed or inconsistent state is refused with ENG_BAD_STATE
 * ("The saved game state is malformed."), never loaded half-way. */
static void test_corrupt_states_rejected(void **unused) {
  (void)unused;
  static const struct {
    const char *what;
    mutation f;
  } cases[] = {
      {"a card in two piles", mut_card_in_two_piles},
      {"a card twice in the deck", mut_card_twice_in_deck},
      {"a discarded card missing from the pile", mut_card_missing_from_pile},
      {"a token on a Project", mut_token_on_project},
      {"a charge token on a Mob", mut_charge_on_mob},
      {"an Asteroid aimed at its owner", mut_asteroid_at_owner},
      {"an Asteroid aimed at no seat", mut_asteroid_at_nobody},
      {"a Mob on another Villain's Project", mut_mob_on_others_project},
      {"a Minion card as a Project", mut_minion_as_project},
      {"a zone out of range", mut_zone_out_of_range},
      {"players as a string", mut_players_string},
      {"a where entry as a string", mut_where_string},
      {"a where list one short", mut_where_short},
      {"a pile card that does not exist", mut_pile_card_too_big},
      {"no rng", mut_no_rng},
      {"another ruleset's state", mut_other_ruleset},
      {"turn as a real", mut_turn_float},
      {"sp disagreeing with the stack", mut_sp_disagrees},
      {"two drawn Domination cards", mut_two_drawn},
  };
  table t;
  load(&t, "open_information");
  json_t *base = sv_to_json(&t.s);
  assert_non_null(base);
  sv_state s;
  assert_int_equal(sv_from_json(&s, base), ENG_OK); /* the control */
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    json_t *j = json_deep_copy(base);
    cases[k].f(j, &t.s);
    eng_rc rc = sv_from_json(&s, j);
    if (rc != ENG_BAD_STATE)
      fail_msg("%s: sv_from_json returned %s, not BAD_STATE", cases[k].what,
               eng_rcname(rc));
    json_decref(j);
  }
  json_decref(base);

  /* Team Battle: an Asteroid aimed at its owner's partner. */
  load(&t, "bad_luck_emitter_team");
  base = sv_to_json(&t.s);
  int a = first_in(&t.s, SV_Z_ASTEROID);
  assert_int_equal(sv_from_json(&s, base), ENG_OK);
  set_where(base, a, 3, (t.s.w[a].owner + 2) % 4);
  assert_int_equal(sv_from_json(&s, base), ENG_BAD_STATE);
  json_decref(base);
  json_t *arr = json_array();
  assert_int_equal(sv_from_json(&s, arr), ENG_BAD_STATE);
  json_decref(arr);
}

/* The loader fails clearly rather than testing some other position. */
static void test_position_loader_refuses(void **unused) {
  (void)unused;
  static const struct {
    const char *json, *says;
  } cases[] = {
      {"{\"players\":2,\"phase\":\"day\"}", "rule"},
      {"{\"rule\":\"r\",\"players\":2,\"phase\":\"day\",\"hand\":[]}",
       "unknown key \"hand\""},
      {"{\"rule\":\"r\",\"players\":2,\"phase\":\"day\","
       "\"hands\":[[\"grunt\"]]}",
       "no card has the id 'grunt'"},
      {"{\"rule\":\"r\",\"players\":2,\"phase\":\"day\","
       "\"hands\":[[\"orbital_batboys\",\"orbital_batboys\"]]}",
       "no free instance of 'orbital_batboys'"},
      {"{\"rule\":\"r\",\"players\":2,\"phase\":\"day\","
       "\"hands\":[[\"wormhole\"]]}",
       "'wormhole' is a Domination card"},
      {"{\"rule\":\"r\",\"players\":2,\"phase\":\"day\",\"projects\":"
       "[{\"seat\":0,\"card\":\"moon_mustache\",\"proof\":true}]}",
       "unknown key \"proof\""},
      {"{\"rule\":\"r\",\"players\":2,\"phase\":\"day\",\"projects\":"
       "[{\"seat\":0,\"card\":\"moon_mustache\",\"mobs\":"
       "[{\"card\":\"colossal_clone\"}]}]}",
       "already reach its cost"},
      {"{\"rule\":\"r\",\"players\":2,\"phase\":\"day\",\"asteroids\":"
       "[{\"owner\":0,\"target\":0,\"card\":\"wormhole\"}]}",
       "cannot target its owner"},
      {"{\"rule\":\"r\",\"players\":4,\"mode\":\"team\",\"phase\":\"day\","
       "\"asteroids\":[{\"owner\":0,\"target\":2,\"card\":\"wormhole\"}]}",
       "sv_check"},
      {"{\"rule\":\"r\",\"players\":3,\"mode\":\"team\",\"phase\":\"day\"}",
       "setup refuses"},
      {"{\"rule\":\"r\",\"players\":2,\"phase\":\"noon\"}", "phase"},
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    json_t *pos = json_loads(cases[k].json, 0, NULL);
    assert_non_null(pos);
    sv_state s;
    char err[300];
    assert_int_equal(sv_position_build(&s, pos, err, sizeof err), 1);
    if (!strstr(err, cases[k].says))
      fail_msg("case %zu: message \"%s\" does not say \"%s\"", k, err,
               cases[k].says);
    json_decref(pos);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_setup_shuffles_and_deals_two),
      cmocka_unit_test(test_setup_first_villain),
      cmocka_unit_test(test_act1_draws_even_without_damage),
      cmocka_unit_test(test_act1_uncharged_destroys_only_a_mob),
      cmocka_unit_test(test_proof_token_absorbs_uncharged_hit_no_mercy),
      cmocka_unit_test(test_act1_charged_mob_empty_project_or_facility),
      cmocka_unit_test(test_charged_hit_destroys_mob_with_token),
      cmocka_unit_test(test_facility_token_absorbs_charged_hit),
      cmocka_unit_test(test_act1_asteroid_owner_orders_triggers),
      cmocka_unit_test(test_act2_draw_then_act3_decision),
      cmocka_unit_test(test_act3_project_or_asteroid_at_another),
      cmocka_unit_test(test_team_partners_no_asteroid_at_partner),
      cmocka_unit_test(test_day_one_mob_boosted_ignore),
      cmocka_unit_test(test_day_one_ops_swift_ignore),
      cmocka_unit_test(test_shoot_down_costs_two_and_not_own),
      cmocka_unit_test(test_shoot_down_charged_costs_three),
      cmocka_unit_test(test_completion_discards_mobs_not_destroyed),
      cmocka_unit_test(test_completion_order_when_complete_then_wormhole),
      cmocka_unit_test(test_transgalactic_bank_completing_itself),
      cmocka_unit_test(test_project_destroy_this_destroys_its_mobs),
      cmocka_unit_test(test_facility_once_per_turn),
      cmocka_unit_test(test_badaboom_facility_destroys_itself),
      cmocka_unit_test(test_if_destroyed_triggers_on_asteroid),
      cmocka_unit_test(test_if_destroyed_not_at_will),
      cmocka_unit_test(test_play_vs_put),
      cmocka_unit_test(test_swap_mobs),
      cmocka_unit_test(test_steal_keeps_token_gives_none),
      cmocka_unit_test(test_discard_vs_destroy),
      cmocka_unit_test(test_incoming_vs_any),
      cmocka_unit_test(test_retarget),
      cmocka_unit_test(test_facility_back_to_project),
      cmocka_unit_test(test_charge_only_uncharged),
      cmocka_unit_test(test_total_annihilation_charge),
      cmocka_unit_test(test_mob_token_on_play_and_put_one_each),
      cmocka_unit_test(test_evening_discard_to_seven),
      cmocka_unit_test(test_minion_deck_reshuffles_discard),
      cmocka_unit_test(test_domination_deck_reshuffles_discard),
      cmocka_unit_test(test_minion_both_empty_no_card),
      cmocka_unit_test(test_domination_exhausted_most_points),
      cmocka_unit_test(test_domination_exhausted_tie_no_winner),
      cmocka_unit_test(test_victory_standard_five),
      cmocka_unit_test(test_victory_blitz_four),
      cmocka_unit_test(test_victory_slow_seven),
      cmocka_unit_test(test_victory_team_eight_together),
      cmocka_unit_test(test_bad_luck_emitter_blocks_win),
      cmocka_unit_test(test_bad_luck_emitter_team_partner),
      cmocka_unit_test(test_open_information),
      cmocka_unit_test(test_takeback_until_revealed),
      cmocka_unit_test(test_example_chronosphere),
      cmocka_unit_test(test_example_adrenaline_shot),
      cmocka_unit_test(test_example_mental_restart),
      cmocka_unit_test(test_example_big_bang_generator),
      cmocka_unit_test(test_state_json_round_trip),
      cmocka_unit_test(test_corrupt_states_rejected),
      cmocka_unit_test(test_position_loader_refuses),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
