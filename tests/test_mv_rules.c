/*
 * test_mv_rules.c: the rules of Marvel Villainous (ruleset
 * "marvel-villainous", the Villainous engine's Marvel profile), one
 * cmocka test per rulebook passage.
 *
 * Each test names the passage of the Marvel rulebook it checks (its
 * section and a verbatim quote) and starts from a position
 * (tests/data/marvel-villainous/NAME.json, built by tests/vl_position.c,
 * its "rule" field quoting the same passage) or from a real setup. Where
 * the rulebook leaves a question open, the test follows
 * docs/rules/marvel-villainous.md and says which decision. The game is
 * driven only through the ruleset interface: vl_marvel_ruleset.prompt
 * and .option find an answer by its id ("play.c12", "loc.2", "seat.3"...),
 * vl_position_apply makes it. After every answer the state must pass
 * vl_check, every view must show only what its viewer may see, and the
 * lines told must pass vl_told_check. Card instances are looked up by card
 * id and zone, never hard-coded; numbers that tuning may change (an
 * objective's count, an effect's amount) are read from the data.
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

#include "eng.h"
#include "games/villainous/vl.h"
#include "prompt_util.h"
#include "vl_position.h"
#include "vl_table.h"

#ifndef MV_TEST_DATA
#error "MV_TEST_DATA must name tests/data/marvel-villainous (see tests.cmake)"
#endif

#define RS (&vl_marvel_ruleset)
#define COMMON VL_POSITION_COMMON

/* ---- the table: a state, its prompt, the last answer's lines ---------- */

typedef vl_table table;

/* Loads tests/data/marvel-villainous/NAME.json into a fresh table. */
static table *load(const char *name) {
  static table t;
  vt_load(&t, RS, MV_TEST_DATA, name);
  return &t;
}

/* A real game's setup, or its refusal: rc is what setup returned. */
static table *setup_rc(int players, const char *mode, int first, uint64_t seed,
                       eng_rc *rc) {
  static table t;
  eng_config cfg = {.players = players, .first = first};
  memset(&t, 0, sizeof t);
  t.rs = RS;
  snprintf(cfg.mode, sizeof cfg.mode, "%s", mode);
  *rc = RS->setup(&t.s, &cfg, seed);
  if (*rc == ENG_OK)
    vt_refresh(&t);
  return &t;
}

/* A real game's setup: players, mode, first seat (-1: from the seed). */
static table *setup(int players, const char *mode, int first, uint64_t seed) {
  eng_rc rc;
  table *t = setup_rc(players, mode, first, seed, &rc);
  if (rc != ENG_OK)
    fail_msg("setup of %d players in mode '%s': %s", players, mode,
             eng_rcname(rc));
  return t;
}

/* The n-th (from 0) instance of card id of seat's villain in zone. */
static int card_nth(const table *t, int seat, const char *id, int zone, int n) {
  for (int i = seat * VL_BLOCK; i < (seat + 1) * VL_BLOCK; i++)
    if (t->s.w[i].zone == zone && i % VL_BLOCK < VL_VDECK &&
        strcmp(vl_card_of(&t->s, i)->id, id) == 0 && n-- == 0)
      return i;
  fail_msg("no more '%s' of seat %d in zone %s", id, seat, vl_zone_name(zone));
  return -1;
}

/* Asserts card i lies in zone of seat (-1: any seat) at loc (-1: any). */
static void assert_at(const table *t, int i, int zone, int seat, int loc) {
  const vl_where *w = &t->s.w[i];
  if (w->zone != zone || (seat >= 0 && w->seat != seat) ||
      (loc >= 0 && w->loc != loc))
    fail_msg("%s is in %s of seat %d at %d, expected %s of seat %d at %d",
             vl_card_of(&t->s, i)->id, vl_zone_name(w->zone), w->seat, w->loc,
             vl_zone_name(zone), seat, loc);
}

static int hand(const table *t, int seat) { return vl_hand_size(&t->s, seat); }

static int power_of(const table *t, int seat) { return t->s.seat[seat].power; }

/* The number an option id gives a destination (VL_OPT_LOC's "loc.N",
 * VL_OPT_MOVE_ALLY's "ally.cI.N"): Event e, or loc of another domain. */
static int event_dest(int e) { return VL_DEST_EVENT + e + 1; }
static int away_dest(int seat, int loc) {
  return VL_DEST_OTHER + seat * VL_LOCS + loc + 1;
}

/* The amount of the first effect op of card i's card (so that a test
 * follows tuned content). */
static int effect_n(const table *t, int i, int op) {
  const vl_card *c = vl_card_of(&t->s, i);
  for (int a = 0; a < c->n_ab; a++)
    for (int k = 0; k < c->ab[a].n_eff; k++)
      if (c->ab[a].eff[k].op == op)
        return c->ab[a].eff[k].n;
  fail_msg("'%s' has no effect %s", c->id, vl_op_name(op));
  return 0;
}

/* The amount of the first static modifier mod of card i's card. */
static int mod_n(const table *t, int i, int mod) {
  const vl_card *c = vl_card_of(&t->s, i);
  for (int a = 0; a < c->n_ab; a++)
    for (int k = 0; k < c->ab[a].n_mod; k++)
      if (c->ab[a].mod[k].mod == mod)
        return c->ab[a].mod[k].n;
  fail_msg("'%s' has no modifier %d", c->id, mod);
  return 0;
}

/* The Stone carried by card host, or -1. */
static int stone_on(const table *t, int host) {
  for (int i = vl_common_base(&t->s); i < vl_n_inst(&t->s); i++)
    if (vl_is_stone(&t->s, i) && t->s.w[i].host == host &&
        t->s.w[i].zone != VL_Z_CENTRE)
      return i;
  return -1;
}

/* How many Stones lie in zone (of seat, -1: any seat). */
static int stones_in(const table *t, int zone, int seat) {
  int n = 0;
  for (int i = vl_common_base(&t->s); i < vl_n_inst(&t->s); i++)
    n += vl_is_stone(&t->s, i) && t->s.w[i].zone == zone &&
         (seat < 0 || t->s.w[i].seat == seat);
  return n;
}

/* Ends the current turn and plays the next villain's whole turn: a move
 * to location loc (0-3), then the end. */
static void pass_turn(table *t, int loc) {
  int me = t->s.current, next = (me + 1) % t->s.players;
  vt_answer(t, me, "end");
  vt_answer(t, next, "move.%d", loc + 1);
  vt_answer(t, next, "end");
}

/* ======================================================================
 * Setup (SETUP, PLAYER SETUP, GAME MODES)
 * ====================================================================*/

/* PLAYER SETUP: "Draw a starting hand of four cards from your Villain
 * deck." "The first player starts with no Power tokens. The second player
 * starts with one Power token, while the third and fourth players (if
 * present) each start with two Power." Two to four villains: the third
 * and fourth are the last there may be. */
static void test_setup_two_to_four_power_by_turn_order(void **unused) {
  (void)unused;
  static const int power[4] = {0, 1, 2, 2};
  eng_rc rc;
  setup_rc(1, "inevitable-random", 0, 3, &rc);
  assert_int_equal(rc, ENG_BAD_PLAYERS);
  setup_rc(5, "inevitable-random", 0, 3, &rc);
  assert_int_equal(rc, ENG_BAD_PLAYERS);
  for (int players = 2; players <= 4; players++) {
    int first = players - 1; /* the last seat starts: order wraps */
    table *t =
        setup(players, "inevitable-random", first, 60 + (uint64_t)players);
    assert_int_equal(t->s.current, first);
    assert_int_equal(t->s.phase, VL_PH_MOVE);
    assert_int_equal(t->p.player, first);
    for (int p = 0; p < players; p++) {
      int pos = (p - first + players) % players;
      assert_int_equal(power_of(t, p), power[pos]);
      assert_int_equal(hand(t, p), 4);
      assert_int_equal(t->s.vdeck[p].n, VL_VDECK - 4);
      for (int q = 0; q < p; q++)
        assert_int_not_equal(t->s.seat[q].villain, t->s.seat[p].villain);
    }
  }
}

/* SETUP: "Shuffle together the Common Fate deck and the Fate decks from
 * all Villains playing this game to create a single Fate deck. Place this
 * deck within reach of all players. Leave room for a discard pile next to
 * the Fate deck." COMPONENTS: "(1 Common Fate deck with 15 cards and 5
 * Villain Fate decks with 11 cards each)". THANOS AND THE INFINITY
 * STONES: "The Infinity Stones begin the game as Items and are not in any
 * Villain’s Domain; set them near the Fate deck in the center of the
 * table." */
static void test_setup_one_fate_deck_of_all_villains(void **unused) {
  (void)unused;
  const vl_data *d = vl_data_get(VL_PROFILE_MARVEL);
  assert_non_null(d);
  assert_int_equal(d->n_common_fate, 15);
  for (int players = 2; players <= 4; players++) {
    table *t = setup(players, "inevitable-random", 0, 70 + (uint64_t)players);
    int want = d->n_common_fate;
    for (int p = 0; p < players; p++) {
      assert_int_equal(vl_villain_of(&t->s, p)->n_fate, 11);
      want += 11;
    }
    assert_int_equal(t->s.fdeck[0].n, want);
    assert_int_equal(t->s.fdisc[0].n, 0);
    for (int p = 1; p < players; p++)
      assert_int_equal(t->s.fdeck[p].n + t->s.fdisc[p].n, 0);
    /* Every fate card of every villain at the table, and of the common
     * part, lies in that one deck. */
    for (int i = 0; i < vl_n_inst(&t->s); i++)
      if (vl_is_fate_card(&t->s, i) &&
          (vl_is_common(&t->s, i) ||
           i % VL_BLOCK <
               VL_VDECK + vl_villain_of(&t->s, i / VL_BLOCK)->n_fate))
        assert_at(t, i, VL_Z_FDECK, 0, -1);
    assert_int_equal(stones_in(t, VL_Z_CENTRE, -1), VL_STONES);
  }
}

/* GAME MODES, Omnipotent: "remove all Events from the game, return them
 * to the box, and ignore all references to Event cards." Game Modes:
 * "When playing an Omnipotent game, remove all Events from the game and
 * ignore all game text referencing Events." (Lair's decision 11: they are
 * left out when the deck is built.) */
static void test_mode_omnipotent_leaves_the_events_out(void **unused) {
  (void)unused;
  table *t = setup(3, "inevitable-random", 0, 12);
  int all = t->s.fdeck[0].n, events = 0;
  for (int k = 0; k < all; k++)
    events += vl_card_of(&t->s, t->s.fdeck[0].c[k])->kind == VL_K_EVENT;
  assert_int_equal(events, 4 + 3); /* the common four, one per villain */
  t = setup(3, "omnipotent-random", 0, 12);
  assert_int_equal(t->s.events, VL_EV_NONE);
  assert_int_equal(t->s.fdeck[0].n, all - events);
  for (int i = 0; i < vl_n_inst(&t->s); i++)
    if (vl_is_fate_card(&t->s, i) && t->s.w[i].zone != VL_Z_NONE)
      assert_int_not_equal(vl_card_of(&t->s, i)->kind, VL_K_EVENT);
}

/* GAME MODES: Omnipotent (Easy), Inevitable (Intermediate), Undying
 * (Difficult); SETUP: "Each player chooses a Villain and takes the
 * corresponding Villain Domain, mover, guide, Villain deck, and Fate
 * deck". The plain modes let the seats choose in seat order; the -random
 * ones deal the villains; inevitable is the default. */
static void test_modes_choose_or_deal_the_villains(void **unused) {
  (void)unused;
  static const struct {
    const char *mode;
    int events, dealt;
  } modes[] = {{"", VL_EV_ONE, 0},
               {"inevitable", VL_EV_ONE, 0},
               {"omnipotent", VL_EV_NONE, 0},
               {"undying", VL_EV_MANY, 0},
               {"inevitable-random", VL_EV_ONE, 1},
               {"omnipotent-random", VL_EV_NONE, 1},
               {"undying-random", VL_EV_MANY, 1},
               {"random", VL_EV_ONE, 1}};
  for (size_t k = 0; k < sizeof modes / sizeof modes[0]; k++) {
    table *t = setup(3, modes[k].mode, 0, 8);
    assert_int_equal(t->s.events, modes[k].events);
    int events = 0;
    for (int i = 0; i < vl_n_inst(&t->s); i++)
      events += t->s.w[i].zone == VL_Z_FDECK &&
                vl_card_of(&t->s, i)->kind == VL_K_EVENT;
    if (modes[k].dealt)
      assert_true((events > 0) == (modes[k].events != VL_EV_NONE));
    assert_int_equal(t->s.phase, modes[k].dealt ? VL_PH_MOVE : VL_PH_CHOOSE);
    for (int p = 0; p < 3; p++)
      assert_true((vl_villain_of(&t->s, p) != NULL) == modes[k].dealt);
  }
  eng_rc rc;
  setup_rc(3, "choose", 0, 8, &rc); /* the Disney profile's mode */
  assert_int_equal(rc, ENG_BAD_MODE);
  /* Chosen in seat order, each among the villains nobody took. */
  table *t = setup(2, "undying", 0, 8);
  int all = vl_loaded[VL_PROFILE_MARVEL].n;
  assert_int_equal(t->p.player, 0);
  assert_int_equal(t->p.n, all);
  vt_answer(t, 0, "villain.vault_tyrant");
  assert_int_equal(t->p.player, 1);
  assert_int_equal(t->p.n, all - 1);
  assert_false(vt_offered(t, "villain.vault_tyrant"));
  vt_answer(t, 1, "villain.horologue");
  assert_int_equal(t->s.phase, VL_PH_MOVE);
  assert_int_equal(hand(t, 0), 4);
  assert_int_equal(hand(t, 1), 4);
}

/* SETUP: "Place your Villain mover on the Villain portrait." ON YOUR
 * TURN, Move Your Villain: "Move your Villain from its current location
 * to a different location in your Domain. You may not stay in your
 * previous location in your Domain. You may not move your Villain to
 * Events or to another player’s Domain." The first move may go to any of
 * the four locations; a Global Event in play is never one. */
static void test_move_from_the_portrait_then_elsewhere(void **unused) {
  (void)unused;
  table *s = setup(4, "undying-random", 0, 5);
  for (int p = 0; p < 4; p++)
    assert_int_equal(s->s.seat[p].mover, VL_PORTRAIT);
  table *t = load("move_portrait");
  assert_int_equal(t->p.player, 0);
  assert_int_equal(t->p.n, VL_LOCS);
  assert_int_equal(vt_count_prefix(t, "move."), VL_LOCS);
  vt_answer(t, 0, "move.3");
  assert_int_equal(t->s.seat[0].mover, 2);
  vt_answer(t, 0, "end");
  assert_int_equal(vt_count_prefix(t, "move."), VL_LOCS);
  vt_answer(t, 1, "move.1");
  vt_answer(t, 1, "end");
  /* The next move leaves the location. */
  assert_int_equal(t->p.player, 0);
  assert_int_equal(t->p.n, VL_LOCS - 1);
  assert_false(vt_offered(t, "move.3"));
  assert_true(vt_offered(t, "move.1") && vt_offered(t, "move.2") &&
              vt_offered(t, "move.4"));
}

/* ON YOUR TURN, Draw Cards: "At the end of your turn, if you have fewer
 * than four cards in your hand, draw from your Villain deck until you
 * have four cards." */
static void test_turn_draw_up_to_four_at_the_end(void **unused) {
  (void)unused;
  table *t = load("draw_end");
  assert_int_equal(hand(t, 0), 1);
  vt_answer(t, 0, "end");
  assert_int_equal(hand(t, 0), 4);
  assert_true(vt_told(t, -1, "Villain 1 drew 3 cards."));
  assert_int_equal(t->s.current, 1);
}

/* ======================================================================
 * Fate (TYPES OF ACTIONS — Fate, FATE CARDS)
 * ====================================================================*/

/* TYPES OF ACTIONS, Fate: "Reveal one card from the top of the Fate deck,
 * then choose which player to target. (See Fate Cards.) You may not
 * choose to use a Fate action to play cards into your own Domain." FATE
 * CARDS: "To play a Hero, place the card so that it covers the top of any
 * location in the targeted player’s Domain, blocking the actions in that
 * location. Heroes cannot be played to Events." (Decisions 4 and 5: the
 * target is chosen after the reveal, and the acting player places the
 * Hero.) */
static void test_fate_reveals_one_then_the_target(void **unused) {
  (void)unused;
  table *t = load("fate_reveal");
  int knight = vt_card(t, COMMON, "cm_granite_knight", VL_Z_FDECK);
  int ilsa = vt_card(t, COMMON, "cm_ilsa_brandt", VL_Z_FDECK);
  int deck = t->s.fdeck[0].n;
  vt_answer(t, 0, "fate.1");
  assert_at(t, knight, VL_Z_REVEALED, -1, -1);
  assert_int_equal(t->s.fdeck[0].n, deck - 1); /* one card, not two */
  assert_int_equal(t->s.fdeck[0].c[t->s.fdeck[0].n - 1], ilsa);
  assert_true(vt_told(t, -1, "Villain 1 revealed The Granite Knight"));
  assert_true(t->flags & ENG_REVEALED);
  /* Now the target: an opponent, never oneself. */
  assert_int_equal(t->p.player, 0);
  assert_int_equal(t->p.n, 2);
  assert_true(vt_offered(t, "seat.2") && vt_offered(t, "seat.3"));
  assert_false(vt_offered(t, "seat.1"));
  vt_answer(t, 0, "seat.3");
  /* The top of one of the target's four locations; no Event. */
  assert_int_equal(t->p.player, 0);
  assert_int_equal(t->p.n, VL_LOCS);
  assert_int_equal(vt_count_prefix(t, "loc."), VL_LOCS);
  vt_answer(t, 0, "loc.2");
  assert_at(t, knight, VL_Z_TOP, 2, 1);
  assert_true(vl_covered(&t->s, 2, 1));
  assert_at(t, ilsa, VL_Z_FDECK, 0, -1);
}

/* GAME OVERVIEW, H. Fate Cards: "Your opponents can play Hero and Item
 * cards from the Fate deck to the top of your Domain." A fate Item goes on
 * a Hero there. */
static void test_fate_item_on_a_hero_of_the_target(void **unused) {
  (void)unused;
  table *t = load("fate_item");
  int shield = vt_card(t, 0, "nm_riot_shield", VL_Z_FDECK);
  int oren = vt_card(t, COMMON, "cm_oren_blackwood", VL_Z_TOP);
  int printed = vl_card_of(&t->s, oren)->strength;
  vt_answer(t, 0, "fate.1");
  vt_answer(t, 0, "seat.2"); /* Oren, the one Hero there: taken at once */
  assert_at(t, shield, VL_Z_TOP, 1, 0);
  assert_int_equal(t->s.w[shield].host, oren);
  assert_int_equal(vl_strength(&t->s, oren),
                   printed + mod_n(t, shield, VL_M_STRENGTH));
}

/* TYPES OF ACTIONS, Fate: "If you draw a Fate card and cannot play it
 * for whatever reason, discard it with no effect. Fate was not on your
 * side this turn." An Item against a villain with no Hero. */
static void test_fate_unplayable_card_discarded(void **unused) {
  (void)unused;
  table *t = load("fate_item");
  int shield = vt_card(t, 0, "nm_riot_shield", VL_Z_FDECK);
  vt_answer(t, 0, "fate.1");
  vt_answer(t, 0, "seat.3");
  assert_at(t, shield, VL_Z_FDISC, 0, -1);
  assert_int_equal(t->s.fdisc[0].n, 1);
  assert_true(vt_told(t, -1, "cannot be played"));
  assert_int_equal(t->p.player, 0); /* no second reveal */
  assert_int_equal(vt_count_prefix(t, "seat."), 0);
}

/* FATE CARDS: "Item and Effect cards also appear in the Fate deck; they
 * do not have a cost to play them, although other conditions may need to
 * be met for the card to be played." VILLAIN CARDS: "To play an Effect,
 * pay its cost (shown in the upper-left corner), do what the card says,
 * then place it face up in the appropriate discard pile." A fate Effect
 * works on its target ("you" is the target). */
static void test_fate_effect_resolves_on_the_target(void **unused) {
  (void)unused;
  table *t = load("fate_effect");
  int clapper = vt_card(t, 1, "hc_cracked_clapper", VL_Z_FDECK);
  vt_answer(t, 0, "fate.1"); /* one opponent: the target at once */
  assert_int_equal(t->s.seat[1].track, 5 + effect_n(t, clapper, VL_OP_TRACK));
  assert_int_equal(power_of(t, 1), 3 - effect_n(t, clapper, VL_OP_LOSE_POWER));
  assert_int_equal(power_of(t, 0), 0);
  assert_at(t, clapper, VL_Z_FDISC, 0, -1);
}

/* FATE CARDS: "When a Global Event (one without a Villain icon) is
 * revealed during a Fate action, immediately play this Global Event to
 * the center of the playing area unless a Global Event is already in
 * play." "The penalty is ongoing, and each player must deal with it on
 * their turn until the Event is resolved." (Decision 3: a Gain Power
 * penalty changes every Gain Power action.) */
static void test_fate_global_event_to_the_centre(void **unused) {
  (void)unused;
  table *t = load("fate_global_event");
  int blackout = vt_card(t, COMMON, "cm_citywide_blackout", VL_Z_FDECK);
  int less = mod_n(t, blackout, VL_M_GAIN);
  vt_answer(t, 0, "fate.1");
  assert_at(t, blackout, VL_Z_EVENT, 0, 0); /* loc 0: Global */
  assert_true(vt_told(t, -1, "The Global Event Citywide Blackout is in play"));
  /* No target to choose: back to the actions. */
  assert_int_equal(t->p.player, 0);
  assert_int_equal(vt_count_prefix(t, "seat."), 0);
  assert_true(vt_offered(t, "end"));
  for (int p = 0; p < 3; p++)
    assert_int_equal(vl_gain_amount(&t->s, p, 0, 2), 2 + less);
  vt_answer(t, 0, "gain.4"); /* Hunting Grounds: Gain 1 Power */
  assert_int_equal(power_of(t, 0), 2 + (1 + less > 0 ? 1 + less : 0));
}

/* FATE CARDS: "Targeted Events must be played against the Villain
 * indicated by the icon in the lower-right corner, whether or not a
 * Global Event is already in play. Place this Targeted Event above the
 * indicated Villain’s Domain. It is not considered part of their
 * Domain." Its penalty hits that villain alone. */
static void test_fate_targeted_event_above_its_villain(void **unused) {
  (void)unused;
  table *t = load("fate_targeted_event");
  int strike = vt_card(t, 1, "ss_scrapworks_strike", VL_Z_FDECK);
  int curfew = vt_card(t, COMMON, "cm_curfew_order", VL_Z_EVENT);
  int grub = vt_card(t, 1, "ss_rivet_grub", -1);
  int gilt = vt_card(t, 2, "vt_gilt_retriever", -1);
  vt_answer(t, 0, "fate.1");
  assert_at(t, strike, VL_Z_EVENT, 1, 1); /* loc 1: Targeted */
  assert_at(t, curfew, VL_Z_EVENT, 0, 0);
  assert_int_equal(vt_count_prefix(t, "seat."), 0);
  assert_false(vl_in_realm(&t->s, strike, 1));
  int strike_cost = mod_n(t, strike, VL_M_COST);
  int curfew_cost = mod_n(t, curfew, VL_M_COST);
  assert_int_equal(vl_cost(&t->s, 1, grub),
                   vl_card_of(&t->s, grub)->cost + curfew_cost + strike_cost);
  assert_int_equal(vl_cost(&t->s, 2, gilt),
                   vl_card_of(&t->s, gilt)->cost + curfew_cost);
}

/* FATE CARDS: "If you draw a Targeted Event card for your Villain,
 * discard it without effect." (Decision 10.) */
static void test_fate_own_targeted_event_discarded(void **unused) {
  (void)unused;
  table *t = load("fate_own_targeted_event");
  int accord = vt_card(t, 0, "nm_amnesty_accord", VL_Z_FDECK);
  vt_answer(t, 0, "fate.1");
  assert_at(t, accord, VL_Z_FDISC, 0, -1);
  assert_true(vt_told(t, -1, "own Targeted Event"));
  assert_int_equal(vt_count_prefix(t, "seat."), 0);
}

/* FATE CARDS: "If you draw a Targeted Event card for your Villain,
 * discard it without effect." CARD ACTIONS, Play: "Some cards allow you
 * to add a card to a Villain’s Domain or to an Event directly from a
 * Villain deck, Fate deck, or discard pile as if it were being played
 * from your hand." (Decision 10: so too when a card turns up the top fate
 * card.) Post a Bounty turns up the Null Marshal's own Amnesty Accord,
 * then Pia Lindqvist, whom he places in his own domain. */
static void test_fate_top_card_played_in_the_own_domain(void **unused) {
  (void)unused;
  table *t = load("fate_top_own_event");
  int bounty = card_nth(t, 0, "nm_post_bounty", VL_Z_HAND, 0);
  int bounty2 = card_nth(t, 0, "nm_post_bounty", VL_Z_HAND, 1);
  int accord = vt_card(t, 0, "nm_amnesty_accord", VL_Z_FDECK);
  int pia = vt_card(t, COMMON, "cm_pia_lindqvist", VL_Z_FDECK);
  int gain = effect_n(t, bounty, VL_OP_GAIN_POWER);
  vt_answer(t, 0, "play.c%d", bounty);
  assert_at(t, accord, VL_Z_FDISC, 0, -1);
  assert_true(vt_told(t, -1, "own Targeted Event"));
  assert_int_equal(power_of(t, 0), gain);
  vt_answer(t, 0, "play.c%d", bounty2);
  assert_int_equal(t->p.player, 0);
  assert_int_equal(t->p.n, VL_LOCS);
  vt_answer(t, 0, "loc.4");
  assert_at(t, pia, VL_Z_TOP, 0, 3);
  assert_int_equal(power_of(t, 0), 2 * gain);
}

/* ======================================================================
 * Modes and Events (FATE CARDS, Game Modes)
 * ====================================================================*/

/* FATE CARDS: "Only one Global Event card can be in play at a time. If a
 * Global Event is in play and you draw a new one from the Fate deck,
 * place the newly drawn Global Event on the discard pile." Game Modes:
 * "For a tougher challenge, play in Inevitable mode, and read the rules
 * as written." */
static void test_mode_inevitable_second_global_discarded(void **unused) {
  (void)unused;
  table *t = load("inevitable_one_global");
  int curfew = vt_card(t, COMMON, "cm_curfew_order", VL_Z_EVENT);
  int hope = vt_card(t, COMMON, "cm_hope_rekindled", VL_Z_FDECK);
  vt_answer(t, 0, "fate.1");
  assert_at(t, hope, VL_Z_FDISC, 0, -1);
  assert_at(t, curfew, VL_Z_EVENT, 0, 0);
  assert_true(vt_told(t, -1, "is already in play"));
}

/* Game Modes: "For true test, play in Undying mode, and do not restrict
 * the number of Global Events that may be in play. Each time a Global
 * Event is drawn, play it next to any other active Events. In this game,
 * a single Villain may be affected by multiple Events at the same
 * time!" */
static void test_mode_undying_any_number_of_events(void **unused) {
  (void)unused;
  table *t = load("undying_many_globals");
  int blackout = vt_card(t, COMMON, "cm_citywide_blackout", VL_Z_EVENT);
  int cry = vt_card(t, 1, "vt_stones_cry_out", VL_Z_EVENT);
  int curfew = vt_card(t, COMMON, "cm_curfew_order", VL_Z_FDECK);
  vt_answer(t, 0, "fate.1");
  assert_at(t, curfew, VL_Z_EVENT, 0, 0);
  assert_at(t, blackout, VL_Z_EVENT, 0, 0);
  assert_at(t, cry, VL_Z_EVENT, 1, 1);
  /* The Vault Tyrant suffers all three, the Null Marshal the two Global
   * ones. */
  int less = mod_n(t, blackout, VL_M_GAIN), cry_less = mod_n(t, cry, VL_M_GAIN);
  int dear = mod_n(t, curfew, VL_M_COST);
  assert_int_equal(vl_gain_amount(&t->s, 0, 0, 3), 3 + less);
  assert_int_equal(vl_gain_amount(&t->s, 1, 0, 3), 3 + less + cry_less);
  int trooper = vt_card(t, 0, "nm_null_trooper", -1);
  int gilt = vt_card(t, 1, "vt_gilt_retriever", -1);
  assert_int_equal(vl_cost(&t->s, 0, trooper),
                   vl_card_of(&t->s, trooper)->cost + dear);
  assert_int_equal(vl_cost(&t->s, 1, gilt),
                   vl_card_of(&t->s, gilt)->cost + dear);
}

/* TYPES OF ACTIONS, Play a Card: "You may play an Ally to any location in
 * your Domain or directly to an Event. Items are directly played to your
 * Domain only." "To play an Ally to an Event, pay the card’s cost, then
 * place the card beside the chosen Event." The Null Marshal's Targeted
 * Event is no place for the Scrap Sovereign's Ally (decision 12). */
static void test_event_ally_played_there_item_never(void **unused) {
  (void)unused;
  table *t = load("event_play_ally");
  int grub = vt_card(t, 0, "ss_rivet_grub", VL_Z_HAND);
  int standard = vt_card(t, 0, "ss_rusted_standard", VL_Z_HAND);
  int hope = vt_card(t, COMMON, "cm_hope_rekindled", VL_Z_EVENT);
  int accord = vt_card(t, 1, "nm_amnesty_accord", VL_Z_EVENT);
  vt_answer(t, 0, "play.c%d", grub);
  assert_int_equal(t->p.n, VL_LOCS + 1);
  assert_true(vt_offered(t, "loc.%d", event_dest(hope)));
  /* Decision 12: another villain's Targeted Event is theirs alone. */
  assert_false(vt_offered(t, "loc.%d", event_dest(accord)));
  vt_answer(t, 0, "loc.%d", event_dest(hope));
  assert_at(t, grub, VL_Z_EVENT, 0, -1);
  assert_int_equal(t->s.w[grub].host, hope);
  assert_int_equal(power_of(t, 0), 5 - vl_card_of(&t->s, grub)->cost);
  assert_at(t, hope, VL_Z_EVENT, 0, 0); /* 1 of its 8: not resolved */
  assert_int_equal(vl_event_strength(&t->s, hope), 1);
  vt_answer(t, 0, "play.c%d", standard);
  assert_int_equal(t->p.n, VL_LOCS);
  assert_false(vt_offered(t, "loc.%d", event_dest(hope)));
}

/* TYPES OF ACTIONS, Relocate: "Move one of your:- Allies or Items from a
 * location in your Domain to another location within your Domain. -
 * Allies to either a Global Event or your specific Targeted Event." FATE
 * CARDS: "Allies with attached items may be relocated to Events." "Only
 * the indicated Villain can relocate Allies to their Targeted Event."
 * VILLAIN CARDS: "Unattached Items cannot be relocated to an Event." */
static void test_event_relocate_to_global_or_own_targeted(void **unused) {
  (void)unused;
  table *t = load("event_relocate");
  int trooper = vt_card(t, 0, "nm_null_trooper", VL_Z_REALM);
  int lance = vt_card(t, 0, "nm_shock_lance", VL_Z_REALM);
  int board = vt_card(t, 0, "nm_bounty_board", VL_Z_REALM);
  int hope = vt_card(t, COMMON, "cm_hope_rekindled", VL_Z_EVENT);
  int strike = vt_card(t, 1, "ss_scrapworks_strike", VL_Z_EVENT);
  int accord = vt_card(t, 0, "nm_amnesty_accord", VL_Z_EVENT);
  assert_true(vt_offered(t, "ally.c%d.%d", trooper, event_dest(hope)));
  assert_true(vt_offered(t, "ally.c%d.%d", trooper, event_dest(accord)));
  assert_false(vt_offered(t, "ally.c%d.%d", trooper, event_dest(strike)));
  assert_true(vt_offered(t, "ally.c%d.1", board));
  assert_false(vt_offered(t, "ally.c%d.%d", board, event_dest(hope)));
  assert_int_equal(vt_count_prefix(t, "ally.c%d.", lance), 0);
  vt_answer(t, 0, "ally.c%d.%d", trooper, event_dest(accord));
  assert_at(t, trooper, VL_Z_EVENT, 0, -1);
  assert_int_equal(t->s.w[trooper].host, accord);
  assert_at(t, lance, VL_Z_EVENT, 0, -1);
  assert_int_equal(t->s.w[lance].host, trooper);
}

/* FATE CARDS: "Once the combined Strength of all the Allies at the Event
 * meets or exceeds the Strength requirement, the Event is resolved
 * immediately. Villains with Allies at the Event receive a reward for
 * resolving it. Place the Event on the Fate discard pile. All Allies used
 * to resolve the Event are placed face up on their respective Villains’
 * discard piles." (Docs, Events: "leaving no domain, they fire no
 * 'discarded from your domain' ability".) */
static void test_event_resolved_when_its_requirement_is_met(void **unused) {
  (void)unused;
  table *t = load("event_resolve");
  int blackout = vt_card(t, COMMON, "cm_citywide_blackout", VL_Z_EVENT);
  int brute = vt_card(t, 1, "ss_slag_brute", VL_Z_EVENT);
  int picker = vt_card(t, 1, "ss_tin_picker", VL_Z_EVENT);
  int trooper = vt_card(t, 0, "nm_null_trooper", VL_Z_HAND);
  int reward = effect_n(t, blackout, VL_OP_GAIN_POWER);
  assert_true(vl_event_strength(&t->s, blackout) +
                  vl_strength(&t->s, trooper) >=
              vl_strength(&t->s, blackout));
  vt_answer(t, 0, "play.c%d", trooper);
  vt_answer(t, 0, "loc.%d", event_dest(blackout));
  assert_true(vt_told(t, -1, "The Event Citywide Blackout is resolved"));
  assert_at(t, blackout, VL_Z_FDISC, 0, -1);
  assert_at(t, trooper, VL_Z_VDISC, 0, -1);
  assert_at(t, brute, VL_Z_VDISC, 1, -1);
  assert_at(t, picker, VL_Z_VDISC, 1, -1);
  /* The villains with Allies there gain; the third does not. The Tin
   * Picker ("When Tin Picker is discarded from your domain, gain 1
   * Power.") gives nothing: it left no domain. */
  assert_int_equal(power_of(t, 0),
                   5 - vl_card_of(&t->s, trooper)->cost + reward);
  assert_int_equal(power_of(t, 1), reward);
  assert_int_equal(power_of(t, 2), 0);
}

/* FATE CARDS: "Event cards are situations with far-reaching effects,
 * which inflict powerful and negative penalties on Villains while in
 * play. The penalty is ongoing, and each player must deal with it on
 * their turn until the Event is resolved." An Event with no Ally at it is
 * never resolved (Lair: "Resolved the moment its Allies' Strength reaches
 * the requirement"): it stays, and nobody gets its reward. */
static void test_event_without_allies_stays(void **unused) {
  (void)unused;
  table *t = load("event_no_allies");
  int curfew = vt_card(t, COMMON, "cm_curfew_order", VL_Z_EVENT);
  int grub = vt_card(t, 1, "ss_rivet_grub", -1);
  int dear = mod_n(t, curfew, VL_M_COST);
  pass_turn(t, 2);
  assert_int_equal(t->s.current, 0);
  assert_int_equal(t->s.round, 2);
  vt_answer(t, 0, "move.2");
  pass_turn(t, 1);
  assert_at(t, curfew, VL_Z_EVENT, 0, 0);
  assert_int_equal(vl_event_strength(&t->s, curfew), 0);
  assert_int_equal(vl_cost(&t->s, 1, grub),
                   vl_card_of(&t->s, grub)->cost + dear);
  assert_int_equal(power_of(t, 0), 0);
  assert_int_equal(power_of(t, 1), 0);
}

/* FATE CARDS: "Events are not in anyone’s Domain. You can relocate your
 * Allies to an Event, but while there, they are not part of any
 * Villain’s Domain." GAME OVERVIEW, A. Domain: "Cards in your hand, deck,
 * and discard pile are not in your Domain, nor are cards at Events." The
 * Scrap Sovereign starts his turn with 5 Allies in his domain and one at
 * an Event: not his 6. */
static void test_event_allies_in_no_domain(void **unused) {
  (void)unused;
  table *t = load("event_not_in_domain");
  const vl_villain *v = vl_villain_of(&t->s, 0);
  if (v->obj.kind != VL_O_REACH || v->obj.count != VL_C_ALLIES || v->obj.n != 6)
    fail_msg("the positions hold 5 + 1 Allies for the objective 6 Allies");
  int brute = vt_card(t, 0, "ss_slag_brute", VL_Z_EVENT);
  assert_false(vl_in_realm(&t->s, brute, 0));
  assert_false(t->s.over);
  assert_int_equal(t->s.phase, VL_PH_MOVE);
  /* GAME OVERVIEW, A. Domain: "All cards played to your Domain, including
   * Specialty Cards, are “in” your Domain." Six there: he wins. */
  t = load("event_not_in_domain_home");
  assert_true(t->s.over);
  assert_int_equal(t->s.winners, 1);
}

/* VILLAIN CARDS: "If an Item says to attach it to an Ally, you must place
 * the Item under an Ally in your Domain. If you have no Allies in your
 * Domain, you may not play an attached Item." GAME OVERVIEW, A. Domain:
 * "Cards in your hand, deck, and discard pile are not in your Domain, nor
 * are cards at Events." An Ally at an Event carries no new Item. */
static void test_event_ally_takes_no_attached_item(void **unused) {
  (void)unused;
  table *t = load("attach_needs_domain_ally");
  int lance = vt_card(t, 0, "nm_shock_lance", VL_Z_HAND);
  int board = vt_card(t, 0, "nm_bounty_board", VL_Z_HAND);
  assert_false(vt_offered(t, "play.c%d", lance));
  assert_true(vt_offered(t, "play.c%d", board));
}

/* FATE CARDS: "Events are not in anyone’s Domain. You can relocate your
 * Allies to an Event, but while there, they are not part of any
 * Villain’s Domain." TYPES OF CARDS: "Cards placed in locations on your
 * Domain affect only you." (Decision 2: at an Event an Ally counts its
 * printed Strength and its tokens, not its Items or its domain's cards.)
 * A Null Trooper of Strength 4 with its Shock Lance brings 2. */
static void test_event_counts_printed_strength_and_tokens(void **unused) {
  (void)unused;
  table *t = load("event_printed_strength");
  int curfew = vt_card(t, COMMON, "cm_curfew_order", VL_Z_EVENT);
  int trooper = vt_card(t, 0, "nm_null_trooper", VL_Z_REALM);
  int lance = vt_card(t, 0, "nm_shock_lance", VL_Z_REALM);
  int tracker = vt_card(t, 0, "nm_rift_tracker", VL_Z_EVENT);
  int printed = vl_card_of(&t->s, trooper)->strength;
  assert_int_equal(vl_strength(&t->s, trooper),
                   printed + mod_n(t, lance, VL_M_STRENGTH));
  assert_int_equal(vl_strength(&t->s, tracker),
                   vl_card_of(&t->s, tracker)->strength + 1); /* its token */
  int before = vl_event_strength(&t->s, curfew);
  /* Counted in the domain, the Trooper would resolve the Curfew. */
  assert_true(before + vl_strength(&t->s, trooper) >=
              vl_strength(&t->s, curfew));
  assert_true(before + printed < vl_strength(&t->s, curfew));
  vt_answer(t, 0, "ally.c%d.%d", trooper, event_dest(curfew));
  assert_at(t, curfew, VL_Z_EVENT, 0, 0);
  assert_int_equal(vl_event_strength(&t->s, curfew), before + printed);
  assert_int_equal(vl_strength(&t->s, trooper), printed);
}

/* ======================================================================
 * Specialty cards (GAME OVERVIEW — J. Specialty Area, VILLAIN CARDS)
 * ====================================================================*/

/* VILLAIN CARDS: "To play a Specialty, pay its cost, if any (shown in the
 * upper-left corner), then place it in the rightmost space of your
 * Domain." GAME OVERVIEW, J. Specialty Area: "Play Specialty cards to the
 * rightmost area of your Domain. Specialty cards are in your Domain and
 * cannot be relocated or removed." */
static void test_specialty_played_to_the_specialty_area(void **unused) {
  (void)unused;
  table *t = load("specialty_play");
  int hymnal = vt_card(t, 0, "hc_hymnal_of_hollows", VL_Z_HAND);
  vt_answer(t, 0, "play.c%d", hymnal); /* one place for it: taken at once */
  assert_at(t, hymnal, VL_Z_SPECIALTY, 0, -1);
  assert_true(vl_in_realm(&t->s, hymnal, 0));
  assert_int_equal(power_of(t, 0), 5 - vl_card_of(&t->s, hymnal)->cost);
  assert_true(vt_told(t, -1, "to their Specialty area"));
}

/* GAME OVERVIEW, J. Specialty Area: "Specialty cards are in your Domain
 * and cannot be relocated or removed." VILLAIN CARDS: "Specialty cards
 * have an ongoing ability that a Villain can use on their turn." A fate
 * Effect that discards an Item finds none in a Specialty area; a
 * Relocate never offers a Specialty; the Hymnal works at the start of
 * the turn. */
static void test_specialty_never_relocated_or_removed(void **unused) {
  (void)unused;
  table *t = load("specialty_stays");
  int stair = vt_card(t, 0, "hc_belfry_stair", VL_Z_SPECIALTY);
  int hymnal = vt_card(t, 0, "hc_hymnal_of_hollows", VL_Z_SPECIALTY);
  int acolyte = vt_card(t, 0, "hc_hush_acolyte", VL_Z_REALM);
  int melt = vt_card(t, 0, "hc_melt_the_bronze", VL_Z_FDECK);
  vt_answer(t, 1, "fate.2"); /* one opponent: the Hollow Cantor at once */
  assert_at(t, melt, VL_Z_FDISC, 0, -1);
  assert_true(vt_told(t, -1, "cannot be played"));
  assert_at(t, stair, VL_Z_SPECIALTY, 0, -1);
  assert_at(t, hymnal, VL_Z_SPECIALTY, 0, -1);
  vt_answer(t, 1, "end");
  /* The Hymnal: "At the start of your turn, gain 1 Power." */
  assert_int_equal(power_of(t, 0), effect_n(t, hymnal, VL_OP_GAIN_POWER));
  vt_answer(t, 0, "move.2"); /* Whispering Cloister: Move an Item or Ally */
  assert_true(vt_offered(t, "ally.c%d.2", acolyte));
  assert_int_equal(vt_count_prefix(t, "ally.c%d.", stair), 0);
  assert_int_equal(vt_count_prefix(t, "ally.c%d.", hymnal), 0);
}

/* VILLAIN CARDS: "While you may use multiple Specialties in a single
 * turn, you many not use the same Specialty card more than once per
 * turn." The Belfry Stair, already used this turn, waits for the next;
 * an Item may be activated again and again. */
static void test_specialty_once_per_turn(void **unused) {
  (void)unused;
  table *t = load("specialty_once");
  int stair = vt_card(t, 0, "hc_belfry_stair", VL_Z_SPECIALTY);
  int fork = vt_card(t, 0, "hc_bone_tuning_fork", VL_Z_REALM);
  assert_true(vt_offered(t, "act.c%d", fork));
  assert_false(vt_offered(t, "act.c%d", stair));
  pass_turn(t, 1);
  vt_answer(t, 0, "move.2"); /* Whispering Cloister: Activate */
  assert_true(vt_offered(t, "act.c%d", stair));
  int power = power_of(t, 0);
  vt_answer(t, 0, "act.c%d", stair);
  assert_int_equal(t->s.seat[0].track, effect_n(t, stair, VL_OP_TRACK));
  assert_int_equal(power_of(t, 0),
                   power - vl_card_of(&t->s, stair)->ab[0].cost);
}

/* ======================================================================
 * Strength (TYPES OF CARDS — Strength; FATE CARDS — Protector)
 * ====================================================================*/

/* TYPES OF CARDS, Placing Strength Tokens: "When you place a +1 or -1
 * Strength token on a character, this character’s Strength is
 * permanently affected as long as that token remains on the card." GAME
 * OVERVIEW, E. Power Tokens & Strength Tokens: "Use +1 or -1 Strength
 * tokens to represent a permanent change in Strength to Allies or
 * Heroes." Wear Them Down puts -1 on Yuki Tanabe (4), whom the Rift
 * Tracker (3) then vanquishes; the token leaves with her. */
static void test_strength_token_lasts_while_the_card_stays(void **unused) {
  (void)unused;
  table *t = load("strength_token");
  int wear = vt_card(t, 0, "nm_wear_down", VL_Z_HAND);
  int yuki = vt_card(t, COMMON, "cm_yuki_tanabe", VL_Z_TOP);
  int tracker = vt_card(t, 0, "nm_rift_tracker", VL_Z_REALM);
  int printed = vl_card_of(&t->s, yuki)->strength;
  assert_int_equal(vl_strength(&t->s, yuki), printed);
  assert_false(vt_offered(t, "vanq.c%d", yuki)); /* 3 against 4 */
  vt_answer(t, 0, "play.c%d", wear); /* the one Hero: the token at once */
  assert_int_equal(vl_strength(&t->s, yuki),
                   printed + effect_n(t, wear, VL_OP_TOKEN));
  assert_true(vt_told(t, -1, "Strength token on Yuki Tanabe"));
  vt_answer(t, 0, "done"); /* the optional Vanquish, with the one Ally */
  assert_at(t, yuki, VL_Z_FDISC, 0, -1);
  assert_at(t, tracker, VL_Z_VDISC, 0, -1);
  assert_int_equal(t->s.seat[0].defeated, 1);
  assert_int_equal(vl_strength(&t->s, yuki), printed);
}

/* FATE CARDS, Protector: "Some Heroes have the Protector ability. If
 * multiple Heroes are in a location, you must defeat the Hero with the
 * Protector ability first. If multiple Heroes in one location have the
 * Protector ability, you may choose which of those Heroes to defeat
 * first." Oren Blackwood waits behind Dario Castell and the Granite
 * Knight; the Vault Tyrant's Gilt Retriever beside them does not. */
static void test_protector_defeated_first(void **unused) {
  (void)unused;
  table *t = load("protector");
  int oren = vt_card(t, COMMON, "cm_oren_blackwood", VL_Z_TOP);
  int dario = vt_card(t, COMMON, "cm_dario_castell", VL_Z_TOP);
  int knight = vt_card(t, COMMON, "cm_granite_knight", VL_Z_TOP);
  int enforcer = vt_card(t, 0, "nm_gravemaul_enforcer", VL_Z_REALM);
  int trooper = vt_card(t, 0, "nm_null_trooper", VL_Z_REALM);
  int gilt = vt_card(t, 1, "vt_gilt_retriever", VL_Z_TOP);
  assert_true(vl_strength(&t->s, enforcer) + vl_strength(&t->s, trooper) >=
              vl_strength(&t->s, knight));
  /* Only Heroes wait behind a Protector, no opponent's Ally (docs). */
  assert_true(vt_offered(t, "vanq.c%d", gilt));
  assert_false(vt_offered(t, "vanq.c%d", oren));
  assert_true(vt_offered(t, "vanq.c%d", dario));
  assert_true(vt_offered(t, "vanq.c%d", knight));
  vt_answer(t, 0, "vanq.c%d", dario);
  vt_answer(t, 0, "pick.c%d", enforcer);
  vt_answer(t, 0, "done");
  assert_at(t, dario, VL_Z_FDISC, 0, -1);
  assert_at(t, trooper, VL_Z_REALM, 0, 2);
  /* The Granite Knight still shelters Oren. */
  assert_false(vl_vanquishable(&t->s, 0, oren));
  assert_true(vl_strength(&t->s, trooper) >= vl_strength(&t->s, oren));
}

/* FATE CARDS, Protector: "If multiple Heroes are in a location, you must
 * defeat the Hero with the Protector ability first." CARD ACTIONS,
 * Defeat: "You can defeat a character either by performing a vanquish
 * action or by playing a card." Null Sentence, which defeats a weak Hero,
 * cannot reach Oren Blackwood behind Dario Castell. */
static void test_protector_first_for_a_defeating_card_too(void **unused) {
  (void)unused;
  table *t = load("protector_defeat_effect");
  int sentence = vt_card(t, 0, "nm_null_sentence", VL_Z_HAND);
  int pay = vt_card(t, 0, "nm_hazard_pay", VL_Z_HAND);
  int oren = vt_card(t, COMMON, "cm_oren_blackwood", VL_Z_TOP);
  int dario = vt_card(t, COMMON, "cm_dario_castell", VL_Z_TOP);
  int most = effect_n(t, sentence, VL_OP_DEFEAT_HERO);
  assert_true(vl_strength(&t->s, oren) <= most);
  assert_true(vl_strength(&t->s, dario) > most);
  assert_true(vl_cost(&t->s, 0, sentence) <= power_of(t, 0));
  assert_false(vt_offered(t, "play.c%d", sentence));
  assert_true(vt_offered(t, "play.c%d", pay));
}

/* TYPES OF CARDS, Zero Strength Allies and Heroes: "A 0 Strength Hero
 * remains in place at its location and continues to block actions. You
 * may use a vanquish action against this Hero as per normal, but the Ally
 * used in the vanquish action is not discarded." ON YOUR TURN, Blocked
 * Actions: "When an action is uncovered, it is available immediately; if
 * your Villain is at that location and it’s still your turn, you may
 * perform it." Vanquishing needs an Ally there. */
static void test_zero_strength_hero_needs_an_ally_that_stays(void **unused) {
  (void)unused;
  table *t = load("zero_strength_hero");
  int oren = vt_card(t, COMMON, "cm_oren_blackwood", VL_Z_TOP);
  int pia = vt_card(t, COMMON, "cm_pia_lindqvist", VL_Z_TOP);
  int trooper = vt_card(t, 0, "nm_null_trooper", VL_Z_REALM);
  assert_int_equal(vl_strength(&t->s, oren), 0);
  assert_int_equal(vl_strength(&t->s, pia), 0);
  assert_true(vl_covered(&t->s, 0, 2));
  assert_false(vt_offered(t, "gain.1")); /* Armory Spire: Gain 3, covered */
  assert_false(vt_offered(t, "vanq.c%d", pia)); /* no Ally at her location */
  assert_true(vt_offered(t, "vanq.c%d", oren));
  vt_answer(t, 0, "vanq.c%d", oren);
  assert_at(t, oren, VL_Z_FDISC, 0, -1);
  assert_at(t, trooper, VL_Z_REALM, 0, 2);
  assert_int_equal(t->s.seat[0].defeated, 1);
  assert_true(vt_offered(t, "gain.1"));
}

/* TYPES OF CARDS, Zero Strength Allies and Heroes: "If an Ally or Hero is
 * reduced to 0 Strength by other card abilities, that card remains in its
 * location. A 0 Strength Ally cannot be used in a vanquish action, but
 * you may still use its ability, and it can be relocated." The Welded
 * Guardian at 0 still gives the Rivet Grubs beside it +1. */
static void test_zero_strength_ally_acts_and_moves_only(void **unused) {
  (void)unused;
  table *t = load("zero_strength_ally");
  int guardian = vt_card(t, 0, "ss_welded_guardian", VL_Z_REALM);
  int grub = card_nth(t, 0, "ss_rivet_grub", VL_Z_REALM, 0);
  int grub2 = card_nth(t, 0, "ss_rivet_grub", VL_Z_REALM, 1);
  int oren = vt_card(t, COMMON, "cm_oren_blackwood", VL_Z_TOP);
  assert_int_equal(vl_strength(&t->s, guardian), 0);
  assert_int_equal(vl_strength(&t->s, grub),
                   vl_card_of(&t->s, grub)->strength + 1);
  assert_true(vt_offered(t, "ally.c%d.2", guardian));
  vt_answer(t, 0, "vanq.c%d", oren);
  assert_true(vt_offered(t, "pick.c%d", grub));
  assert_true(vt_offered(t, "pick.c%d", grub2));
  assert_false(vt_offered(t, "pick.c%d", guardian));
  vt_answer(t, 0, "pick.c%d", grub);
  vt_answer(t, 0, "done");
  assert_at(t, oren, VL_Z_FDISC, 0, -1);
  assert_at(t, grub, VL_Z_VDISC, 0, -1);
  assert_at(t, guardian, VL_Z_REALM, 0, 0);
}

/* TYPES OF ACTIONS, Vanquish: "Example: You have three Allies at the same
 * location as a Hero with a Strength of 5. Because two of the Allies have
 * a combined Strength of 5 (4+1), only those two Allies need to be used
 * to Vanquish the Hero. Discard the Hero and the two Allies. The third
 * Ally remains at the location." */
static void test_vanquish_example(void **unused) {
  (void)unused;
  table *t = load("vanquish_example");
  int lucan = vt_card(t, COMMON, "cm_lucan_drave", VL_Z_TOP);
  int knight = vt_card(t, 0, "ss_furnace_knight", VL_Z_REALM);
  int grub = vt_card(t, 0, "ss_rivet_grub", VL_Z_REALM);
  int picker = vt_card(t, 0, "ss_tin_picker", VL_Z_REALM);
  assert_int_equal(vl_strength(&t->s, lucan), 5);
  assert_int_equal(vl_strength(&t->s, knight), 4);
  assert_int_equal(vl_strength(&t->s, grub), 1);
  vt_answer(t, 0, "vanq.c%d", lucan);
  vt_answer(t, 0, "pick.c%d", knight);
  assert_false(vt_offered(t, "done")); /* 4 of 5 */
  vt_answer(t, 0, "pick.c%d", grub);
  vt_answer(t, 0, "done");
  assert_at(t, lucan, VL_Z_FDISC, 0, -1);
  assert_at(t, knight, VL_Z_VDISC, 0, -1);
  assert_at(t, grub, VL_Z_VDISC, 0, -1);
  assert_at(t, picker, VL_Z_REALM, 0, 2);
}

/* ======================================================================
 * Relocate, Invade, Activate (TYPES OF ACTIONS, VILLAIN CARDS)
 * ====================================================================*/

/* TYPES OF ACTIONS, Relocate: "Move one of your:- Allies or Items from a
 * location in your Domain to another location within your Domain."
 * "Unless a card specifies otherwise, you cannot relocate an Ally or Item
 * to a location in an opponent’s Domain, nor can you relocate Fate cards.
 * If an Ally you relocate has an attached Item, that Item moves with the
 * Ally." "You cannot relocate Allies or Items you do not control." Any
 * other location, not only an adjacent one; never the Vault Tyrant's
 * Gilt Retriever on the Null Marshal's top. */
static void test_relocate_anywhere_in_the_domain(void **unused) {
  (void)unused;
  table *t = load("relocate");
  int tracker = vt_card(t, 0, "nm_rift_tracker", VL_Z_REALM);
  int trooper = vt_card(t, 0, "nm_null_trooper", VL_Z_REALM);
  int lance = vt_card(t, 0, "nm_shock_lance", VL_Z_REALM);
  int board = vt_card(t, 0, "nm_bounty_board", VL_Z_REALM);
  int oren = vt_card(t, COMMON, "cm_oren_blackwood", VL_Z_TOP);
  int gilt = vt_card(t, 1, "vt_gilt_retriever", VL_Z_TOP);
  /* Drop Bay to the three others, the Trophy Gallery two away included. */
  assert_int_equal(vt_count_prefix(t, "ally.c%d.", tracker), VL_LOCS - 1);
  assert_true(vt_offered(t, "ally.c%d.4", tracker));
  assert_int_equal(vt_count_prefix(t, "ally.c%d.", trooper), VL_LOCS - 1);
  assert_true(vt_offered(t, "ally.c%d.1", trooper));
  assert_int_equal(vt_count_prefix(t, "ally.c%d.", board), VL_LOCS - 1);
  assert_int_equal(vt_count_prefix(t, "ally.c%d.", lance), 0);
  assert_int_equal(vt_count_prefix(t, "ally.c%d.", oren), 0);
  assert_int_equal(vt_count_prefix(t, "ally.c%d.", gilt), 0); /* not his */
  vt_answer(t, 0, "ally.c%d.1", trooper);
  assert_at(t, trooper, VL_Z_REALM, 0, 0);
  assert_at(t, lance, VL_Z_REALM, 0, 0);
  assert_int_equal(t->s.w[lance].host, trooper);
}

/* TYPES OF ACTIONS, Relocate: "Relocating a card is not the same as
 * playing a card. If a card’s ability is triggered when it (or another
 * card) is played, that ability is not triggered if it is moved by a
 * relocate action or a character’s ability." The Rift Tracker ("When Rift
 * Tracker is played, you may perform a Vanquish action") moves beside
 * Oren Blackwood and asks nothing; its +1 token goes along. */
static void test_relocated_is_not_played(void **unused) {
  (void)unused;
  table *t = load("relocate");
  int tracker = vt_card(t, 0, "nm_rift_tracker", VL_Z_REALM);
  int oren = vt_card(t, COMMON, "cm_oren_blackwood", VL_Z_TOP);
  int strength = vl_strength(&t->s, tracker);
  vt_answer(t, 0, "ally.c%d.4", tracker);
  assert_at(t, tracker, VL_Z_REALM, 0, 3);
  assert_true(vl_vanquishable(&t->s, 0, oren));
  assert_int_equal(t->p.player, 0);
  assert_false(vt_offered(t, "skip"));
  assert_false(vt_offered(t, "done"));
  assert_true(vt_offered(t, "end"));
  assert_int_equal(vl_strength(&t->s, tracker), strength);
  assert_at(t, oren, VL_Z_TOP, 0, 3);
}

/* VILLAIN CARDS: "Some Allies have abilities allowing you to play them to
 * another Villain’s Domain. Allies played to another Villain’s Domain are
 * placed at the top of that player’s Domain and block actions at that
 * location just like Heroes do. However, they are still considered Allies
 * and are controlled by their original Villain. These Allies may be
 * vanquished just like Heroes." */
static void test_invade_an_opponents_top(void **unused) {
  (void)unused;
  table *t = load("invade");
  int shade = vt_card(t, 0, "hc_resonant_shade", VL_Z_HAND);
  int chorister = vt_card(t, 0, "hc_grave_chorister", VL_Z_HAND);
  int trooper = vt_card(t, 1, "nm_null_trooper", VL_Z_REALM);
  /* An Ally without Invade: only the own four locations. */
  vt_answer(t, 0, "play.c%d", chorister);
  assert_int_equal(t->p.n, VL_LOCS);
  vt_answer(t, 0, "loc.1");
  /* The Shade: any top of the two opponents too. */
  vt_answer(t, 0, "play.c%d", shade);
  assert_int_equal(t->p.n, VL_LOCS * 3);
  assert_true(vt_offered(t, "loc.%d", away_dest(2, 3)));
  vt_answer(t, 0, "loc.%d", away_dest(1, 1));
  assert_at(t, shade, VL_Z_TOP, 1, 1);
  assert_true(vl_covered(&t->s, 1, 1));
  assert_false(vl_in_realm(&t->s, shade, 0));
  /* "When Resonant Shade is played, gain 1 Power.": its owner gains. */
  assert_int_equal(power_of(t, 0), 4 - vl_card_of(&t->s, chorister)->cost -
                                       vl_card_of(&t->s, shade)->cost +
                                       effect_n(t, shade, VL_OP_GAIN_POWER));
  assert_int_equal(power_of(t, 1), 0);
  vt_answer(t, 0, "end");
  /* The Null Marshal's Hunting Grounds: both top actions blocked. */
  assert_non_null(strstr(vt_label_of(t, "move.2"), "(top covered)"));
  vt_answer(t, 1, "move.3"); /* Armory Spire: Vanquish at the bottom */
  assert_true(vt_offered(t, "vanq.c%d", shade));
  vt_answer(t, 1, "vanq.c%d", shade);
  assert_at(t, shade, VL_Z_VDISC, 0, -1);
  assert_at(t, trooper, VL_Z_VDISC, 1, -1);
  assert_false(vl_covered(&t->s, 1, 1));
  assert_int_equal(t->s.seat[1].defeated, 0); /* no Hero defeated */
}

/* TYPES OF ACTIONS, Relocate: "Allies from another Villain’s Domain to a
 * location in your Domain." "Unless a card specifies otherwise, you
 * cannot relocate an Ally or Item to a location in an opponent’s
 * Domain". */
static void test_relocate_an_invader_home(void **unused) {
  (void)unused;
  table *t = load("invader_home");
  int shade = vt_card(t, 0, "hc_resonant_shade", VL_Z_TOP);
  int chorister = vt_card(t, 0, "hc_grave_chorister", VL_Z_REALM);
  assert_int_equal(vt_count_prefix(t, "ally.c%d.", shade), VL_LOCS);
  assert_int_equal(vt_count_prefix(t, "ally.c%d.", chorister), VL_LOCS - 1);
  for (int l = 0; l < VL_LOCS; l++)
    assert_false(vt_offered(t, "ally.c%d.%d", chorister, away_dest(1, l)));
  assert_true(vl_covered(&t->s, 1, 2));
  vt_answer(t, 0, "ally.c%d.4", shade);
  assert_at(t, shade, VL_Z_REALM, 0, 3);
  assert_false(vl_covered(&t->s, 1, 2));
}

/* TYPES OF ACTIONS, Activate: "You may also activate your Ally or Item in
 * another player’s Domain or at an Event." The Paradox Escapement
 * ("Activate Paradox Escapement: gain 1 Power.") on the Seconds Thief in the
 * Null Marshal's domain, then on a Cog Acolyte at an Event. */
static void test_activate_in_another_domain_or_at_an_event(void **unused) {
  (void)unused;
  static const char *const where[] = {"activate_away", "activate_at_event"};
  for (int k = 0; k < 2; k++) {
    table *t = load(where[k]);
    int esc = vt_card(t, 0, "ho_paradox_escapement", -1);
    assert_false(vl_in_realm(&t->s, esc, 0));
    assert_true(vt_offered(t, "act.c%d", esc));
    vt_answer(t, 0, "act.c%d", esc);
    assert_int_equal(power_of(t, 0), effect_n(t, esc, VL_OP_GAIN_POWER));
  }
}

/* TYPES OF ACTIONS, Relocate: "Allies from another Villain’s Domain to a
 * location in your Domain." Call Home ("Relocate one of your Allies, with
 * its Items, to any location in your domain") brings the Gilt Retriever
 * home from the Null Marshal's domain with the Stone it took up, which
 * turns to its Specialty side (THANOS AND THE INFINITY STONES: "Thanos
 * retrieves the Stone when his Ally returns to his Domain with the
 * Infinity Stone"). */
static void test_call_home_from_another_domain(void **unused) {
  (void)unused;
  table *t = load("call_home_away");
  int call = vt_card(t, 0, "vt_call_home", VL_Z_HAND);
  int gilt = vt_card(t, 0, "vt_gilt_retriever", VL_Z_TOP);
  int garnet = vt_card(t, COMMON, "st_ember_garnet", -1);
  assert_int_equal(t->s.w[garnet].host, gilt);
  vt_answer(t, 0, "play.c%d", call);
  /* The one Ally it can move is picked at once (one possible answer). */
  assert_true(vt_told(t, -1, "is moving Gilt Retriever"));
  assert_int_equal(vt_count_prefix(t, "loc."), VL_LOCS);
  vt_answer(t, 0, "loc.3");
  assert_at(t, gilt, VL_Z_REALM, 0, 2);
  assert_at(t, garnet, VL_Z_SPECIALTY, 0, -1);
  assert_true(vt_told(t, -1, "called Gilt Retriever home"));
  assert_true(vt_told(t, -1, "turns to its Specialty side"));
  assert_false(vl_covered(&t->s, 1, 2));
}

/* TYPES OF ACTIONS: "If one card grants an ability and another restricts
 * your actions, the card restriction takes precedence and the restriction
 * applies." Warden Brisa Kade ("No Ally or Item can leave Brisa Kade's
 * location") holds the Hollow Cantor's invading Resonant Shade in the
 * Horologue's domain: the Relocate action cannot bring it home. */
static void test_invader_held_by_its_host_domain(void **unused) {
  (void)unused;
  table *t = load("invader_held");
  int shade = vt_card(t, 0, "hc_resonant_shade", VL_Z_TOP);
  assert_int_equal(vt_count_prefix(t, "ally.c%d.", shade), 0);
  /* The same invader elsewhere in that domain may come home. */
  t->s.w[shade].loc = 1;
  vt_refresh(t);
  assert_int_equal(vt_count_prefix(t, "ally.c%d.", shade), VL_LOCS);
}

/* TYPES OF ACTIONS: "... the card restriction takes precedence and the
 * restriction applies." Activate: "You may also activate your Ally or
 * Item in another player’s Domain". Pilar Santangelo ("No card at Pilar
 * Santangelo's location can be activated") silences the Paradox
 * Escapement on the Horologue's Seconds Thief there. */
static void test_activate_away_silenced(void **unused) {
  (void)unused;
  table *t = load("activate_away_silenced");
  int esc = vt_card(t, 0, "ho_paradox_escapement", -1);
  assert_false(vt_offered(t, "act.c%d", esc));
  int pilar = vt_card(t, 1, "nm_pilar_santangelo", VL_Z_TOP);
  t->s.w[pilar].loc = 3; /* she stands elsewhere: it works */
  vt_refresh(t);
  assert_true(vt_offered(t, "act.c%d", esc));
}

/* CARD ACTIONS, Reveal: "If you ever need to reveal a card from a Villain
 * or Fate deck when it’s empty, shuffle its discard pile to form a new
 * deck." The Scrap Sovereign, given a Stone with no Ally in play, in hand
 * or in his villain deck, turns up his whole deck, then his shuffled
 * discard pile until an Ally carries it; every card turned up is named
 * (docs: the Stone search is shown to all). */
static void test_stone_search_goes_on_into_the_discard(void **unused) {
  (void)unused;
  table *t = load("stone_from_discard");
  int deck = t->s.vdeck[2].n, disc = t->s.vdisc[2].n;
  for (int k = 0; k < deck; k++)
    assert_false(vl_card_of(&t->s, t->s.vdeck[2].c[k])->kind == VL_K_ALLY);
  vt_answer(t, 0, "fate.1");
  vt_answer(t, 0, "seat.3");
  assert_true(vt_told(t, -1, "revealed their whole villain deck"));
  assert_true(vt_told(t, -1, "shuffled their villain discard pile"));
  assert_int_equal(t->p.player, 2);
  vt_answer(t, 2, "loc.2");
  int carrier = -1;
  for (int i = 2 * VL_BLOCK; i < 2 * VL_BLOCK + VL_VDECK; i++)
    if (t->s.w[i].zone == VL_Z_REALM && stone_on(t, i) >= 0)
      carrier = i;
  assert_true(carrier >= 0);
  assert_int_equal(vl_card_of(&t->s, carrier)->kind, VL_K_ALLY);
  assert_int_equal(t->s.vdisc[2].n, 0);
  assert_int_equal(t->s.vdeck[2].n, deck + disc - 1);
}

/* CARD ACTIONS, Look: "If a card instructs you to look at cards, either
 * from your Villain deck or the Fate deck, you may look at them
 * privately, keeping them secret from the other players." Survey the
 * Stars, played by the second seat, looks at the top 2 of the one fate
 * deck: the player alone learns them and may discard them. */
static void test_look_at_the_shared_fate_deck(void **unused) {
  (void)unused;
  table *t = load("look_fate");
  int survey = vt_card(t, 1, "vt_survey_the_stars", VL_Z_HAND);
  int knight = vt_card(t, COMMON, "cm_granite_knight", VL_Z_FDECK);
  int pia = vt_card(t, COMMON, "cm_pia_lindqvist", VL_Z_FDECK);
  t->s.w[pia].known = 1u << 0; /* the first villain looked at it before */
  vt_refresh(t);
  vt_answer(t, 1, "play.c%d", survey);
  assert_true(vt_offered(t, "pick.c%d", knight));
  assert_true(vt_offered(t, "pick.c%d", pia));
  assert_true(vt_offered(t, "done"));
  assert_int_equal(t->s.w[knight].known, 1u << 1);
  assert_int_equal(t->s.w[pia].known, (1u << 0) | (1u << 1)); /* both */
  assert_false(vt_told(t, -1, "Granite Knight"));
  vt_answer(t, 1, "pick.c%d", knight);
  assert_at(t, knight, VL_Z_FDISC, 0, -1);
  assert_true(vt_told(t, -1,
                      "discarded The Granite Knight from the top of "
                      "the fate deck"));
  vt_answer(t, 1, "done");
  assert_at(t, pia, VL_Z_FDECK, 0, -1);
}

/* ======================================================================
 * Stones (THANOS AND THE INFINITY STONES; Lair's collector is the Vault
 * Tyrant)
 * ====================================================================*/

/* THANOS AND THE INFINITY STONES: "When a Stone enters play, the targeted
 * player randomly picks a Stone from the remaining Stones in the center
 * of the table, then attaches the Stone to one of their Allies in play."
 * The Scrap Sovereign, the target of A Stone Falls, picks the Ally. */
static void test_stone_enters_on_an_ally_of_the_target(void **unused) {
  (void)unused;
  table *t = load("stone_enters");
  int falls = vt_card(t, 1, "vt_a_stone_falls", VL_Z_FDECK);
  int grub = vt_card(t, 2, "ss_rivet_grub", VL_Z_REALM);
  int brute = vt_card(t, 2, "ss_slag_brute", VL_Z_REALM);
  vt_answer(t, 0, "fate.1");
  vt_answer(t, 0, "seat.3");
  assert_int_equal(t->p.player, 2); /* the target attaches it */
  assert_int_equal(t->p.n, 2);
  assert_true(vt_offered(t, "pick.c%d", grub));
  vt_answer(t, 2, "pick.c%d", brute);
  int st = stone_on(t, brute);
  assert_true(st >= 0);
  assert_at(t, st, VL_Z_REALM, 2, 2);
  assert_int_equal(stones_in(t, VL_Z_CENTRE, -1), VL_STONES - 1);
  assert_int_equal(stone_on(t, grub), -1);
  assert_int_equal(power_of(t, 2), 2 - effect_n(t, falls, VL_OP_LOSE_POWER));
  assert_at(t, falls, VL_Z_FDISC, 0, -1);
}

/* THANOS AND THE INFINITY STONES: "If the targeted player has no Ally in
 * play, they play one from their hand for free." */
static void test_stone_carrier_from_the_hand_for_free(void **unused) {
  (void)unused;
  table *t = load("stone_from_hand");
  int falls = vt_card(t, 1, "vt_a_stone_falls", VL_Z_FDECK);
  int grub = vt_card(t, 2, "ss_rivet_grub", VL_Z_HAND);
  vt_answer(t, 0, "fate.1");
  vt_answer(t, 0, "seat.3");        /* the one Ally in hand: taken at once */
  assert_int_equal(t->p.player, 2); /* where it goes is its owner's */
  assert_int_equal(t->p.n, VL_LOCS);
  vt_answer(t, 2, "loc.2");
  assert_at(t, grub, VL_Z_REALM, 2, 1);
  int st = stone_on(t, grub);
  assert_true(st >= 0);
  assert_at(t, st, VL_Z_REALM, 2, 1);
  assert_int_equal(power_of(t, 2), 2 - effect_n(t, falls, VL_OP_LOSE_POWER));
}

/* THANOS AND THE INFINITY STONES: "If they have no Ally in hand, they
 * reveal cards from their Villain deck until they find one, then place
 * that Ally in any location in their Domain for free." */
static void test_stone_carrier_revealed_from_the_deck(void **unused) {
  (void)unused;
  table *t = load("stone_from_deck");
  int falls = vt_card(t, 1, "vt_a_stone_falls", VL_Z_FDECK);
  int grub = vt_card(t, 2, "ss_rivet_grub", VL_Z_VDECK);
  int deck = t->s.vdeck[2].n;
  assert_int_equal(t->s.vdeck[2].c[deck - 3], grub); /* the third card */
  vt_answer(t, 0, "fate.1");
  vt_answer(t, 0, "seat.3");
  assert_true(vt_told(t, -1,
                      "revealed 3 cards from the top of their villain "
                      "deck to find the Ally Rivet Grub"));
  /* Every card turned up is named (docs: the Stone search is shown). */
  assert_true(
      vt_told(t, -1, "Villain 3 turned up Forge Tithe, Scrap Dividend."));
  assert_int_equal(t->p.player, 2);
  assert_int_equal(t->p.n, VL_LOCS);
  vt_answer(t, 2, "loc.3");
  assert_at(t, grub, VL_Z_REALM, 2, 2);
  assert_true(stone_on(t, grub) >= 0);
  assert_int_equal(t->s.vdeck[2].n, deck - 1);
  assert_int_equal(hand(t, 2), 2);
  assert_int_equal(power_of(t, 2), 2 - effect_n(t, falls, VL_OP_LOSE_POWER));
}

/* THANOS AND THE INFINITY STONES: "The Stone cannot be discarded or
 * removed in any way. If the Ally attached to the Stone is defeated or
 * removed, the Infinity Stone remains as an unattached Item in the
 * Villain’s Domain and may not be attached to another character." */
static void test_stone_stays_when_its_carrier_falls(void **unused) {
  (void)unused;
  table *t = load("stone_carrier_falls");
  int grub = vt_card(t, 2, "ss_rivet_grub", VL_Z_REALM);
  int garnet = vt_card(t, COMMON, "st_ember_garnet", VL_Z_REALM);
  vt_answer(t, 0, "fate.1");
  vt_answer(t, 0, "seat.3"); /* Rout the Rabble: the one Ally, at once */
  assert_at(t, grub, VL_Z_VDISC, 2, -1);
  assert_at(t, garnet, VL_Z_REALM, 2, 1);
  assert_int_equal(t->s.w[garnet].host, VL_NONE);
  assert_true(vl_in_realm(&t->s, garnet, 2));
}

/* THANOS AND THE INFINITY STONES: "With the exception of Thanos, a
 * Villain may only relocate an Infinity Stone within their Domain.
 * Infinity Stones and Allies with attached Infinity Stones may not be
 * relocated to an Event or to another Villain’s Domain." */
static void test_stone_relocated_within_its_domain_only(void **unused) {
  (void)unused;
  table *t = load("stone_relocate");
  int pearl = vt_card(t, COMMON, "st_tidewell_pearl", VL_Z_REALM);
  int garnet = vt_card(t, COMMON, "st_ember_garnet", VL_Z_REALM);
  int trooper = vt_card(t, 0, "nm_null_trooper", VL_Z_REALM);
  int drone = vt_card(t, 0, "nm_bounty_drone", VL_Z_REALM);
  int hope = vt_card(t, COMMON, "cm_hope_rekindled", VL_Z_EVENT);
  assert_int_equal(vt_count_prefix(t, "ally.c%d.", pearl), VL_LOCS - 1);
  assert_int_equal(vt_count_prefix(t, "ally.c%d.", trooper), VL_LOCS - 1);
  assert_false(vt_offered(t, "ally.c%d.%d", trooper, event_dest(hope)));
  assert_int_equal(vt_count_prefix(t, "ally.c%d.", garnet), 0);
  /* Without a Stone the Drone may go to the Event. */
  assert_true(vt_offered(t, "ally.c%d.%d", drone, event_dest(hope)));
  vt_answer(t, 0, "ally.c%d.1", pearl);
  assert_at(t, pearl, VL_Z_REALM, 0, 0);
}

/* THANOS AND THE INFINITY STONES: "Players with a Stone in their Domain
 * may activate the Stone, just as they would any other Item in their
 * Domain. An individual Infinity Stone can be activated only once per
 * turn, no matter how many activate actions a player has." The Ember
 * Garnet was used this turn; next turn it is there again. */
static void test_stone_activated_once_per_turn(void **unused) {
  (void)unused;
  table *t = load("stone_activate");
  int garnet = vt_card(t, COMMON, "st_ember_garnet", VL_Z_REALM);
  int beacon = vt_card(t, 0, "nm_lure_beacon", VL_Z_REALM);
  assert_false(vt_offered(t, "act.c%d", garnet));
  assert_true(vt_offered(t, "act.c%d", beacon));
  pass_turn(t, 1);
  vt_answer(t, 0, "move.3"); /* Armory Spire: Activate */
  vt_answer(t, 0, "act.c%d", garnet);
  assert_int_equal(power_of(t, 0), effect_n(t, garnet, VL_OP_GAIN_POWER));
}

/* THANOS AND THE INFINITY STONES: "When an Infinity Stone is in Thanos’
 * Domain, Thanos flips it to its Specialty side." A fate Stone Effect
 * played against the Vault Tyrant brings the Stone straight into his
 * domain: it turns at once, on no Ally (docs: "A Stone that comes straight
 * into his domain ... turns at once"). */
static void test_stone_straight_to_the_collector(void **unused) {
  (void)unused;
  table *t = load("stone_to_collector");
  int clerk = vt_card(t, 1, "vt_ledger_clerk", VL_Z_REALM);
  vt_answer(t, 0, "fate.1"); /* one opponent: the Vault Tyrant at once */
  assert_int_equal(stones_in(t, VL_Z_SPECIALTY, 1), 1);
  assert_int_equal(stones_in(t, VL_Z_CENTRE, -1), VL_STONES - 1);
  assert_int_equal(stone_on(t, clerk), -1);
  assert_true(vt_told(t, -1, "turns to its Specialty side"));
}

/* THANOS AND THE INFINITY STONES: "Only Thanos can collect the Stone by
 * sending one of his Allies there to retrieve it." "Thanos retrieves the
 * Stone when his Ally returns to his Domain with the Infinity Stone. When
 * an Infinity Stone is in Thanos’ Domain, Thanos flips it to its
 * Specialty side." (Decision 6: his Ally takes the loose Stone and the
 * one an Ally there carries.) */
static void test_stone_raid_and_home(void **unused) {
  (void)unused;
  table *t = load("stone_raid");
  int warden = vt_card(t, 0, "vt_plinth_warden", VL_Z_REALM);
  int garnet = vt_card(t, COMMON, "st_ember_garnet", VL_Z_REALM);
  int pearl = vt_card(t, COMMON, "st_tidewell_pearl", VL_Z_REALM);
  int trooper = vt_card(t, 1, "nm_null_trooper", VL_Z_REALM);
  for (int l = 0; l < VL_LOCS; l++)
    assert_true(vt_offered(t, "ally.c%d.%d", warden, away_dest(1, l)));
  vt_answer(t, 0, "ally.c%d.%d", warden, away_dest(1, 1));
  assert_at(t, warden, VL_Z_TOP, 1, 1);
  assert_true(vt_told(t, -1, "took up the Stone Ember Garnet"));
  assert_at(t, garnet, VL_Z_TOP, 1, 1);
  assert_int_equal(t->s.w[garnet].host, warden);
  assert_at(t, pearl, VL_Z_TOP, 1, 1);
  assert_int_equal(t->s.w[pearl].host, warden);
  assert_at(t, trooper, VL_Z_REALM, 1, 1);
  /* Carrying Stones it goes nowhere but home. */
  for (int l = 0; l < VL_LOCS; l++)
    assert_false(vt_offered(t, "ally.c%d.%d", warden, away_dest(1, l)));
  pass_turn(t, 1); /* the Null Marshal cannot vanquish it: 2 against 3 */
  vt_answer(t, 0, "move.2"); /* Reliquary Stair: Move an Item or Ally */
  assert_int_equal(vt_count_prefix(t, "ally.c%d.", warden), VL_LOCS);
  vt_answer(t, 0, "ally.c%d.1", warden);
  assert_at(t, warden, VL_Z_REALM, 0, 0);
  assert_at(t, garnet, VL_Z_SPECIALTY, 0, -1);
  assert_at(t, pearl, VL_Z_SPECIALTY, 0, -1);
  assert_true(vt_told(t, -1, "turns to its Specialty side"));
  /* A Specialty now, activated from the Specialty area. */
  assert_true(vt_offered(t, "act.c%d", garnet));
}

/* THANOS AND THE INFINITY STONES: "Only Thanos can collect the Stone by
 * sending one of his Allies there to retrieve it." VILLAIN CARDS: "Some
 * Allies have abilities allowing you to play them to another Villain’s
 * Domain." The Vault Tyrant plays his Gilt Retriever (Invade) where the
 * Verdict Ruby lies loose: it takes it up. */
static void test_stone_taken_up_by_an_invader(void **unused) {
  (void)unused;
  table *t = load("stone_invader");
  int gilt = vt_card(t, 0, "vt_gilt_retriever", VL_Z_HAND);
  int ruby = vt_card(t, COMMON, "st_verdict_ruby", VL_Z_REALM);
  vt_answer(t, 0, "play.c%d", gilt);
  vt_answer(t, 0, "loc.%d", away_dest(1, 2));
  assert_at(t, gilt, VL_Z_TOP, 1, 2);
  assert_at(t, ruby, VL_Z_TOP, 1, 2);
  assert_int_equal(t->s.w[ruby].host, gilt);
  assert_true(vt_told(t, -1, "took up the Stone Verdict Ruby"));
}

/* THANOS AND THE INFINITY STONES: "The Villain whose location the stone
 * is in can use vanquish actions to defeat Thanos’ Allies and prevent him
 * from retrieving the Stone." */
static void test_stone_raider_vanquished(void **unused) {
  (void)unused;
  table *t = load("stone_raider_vanquished");
  int gilt = vt_card(t, 1, "vt_gilt_retriever", VL_Z_TOP);
  int garnet = vt_card(t, COMMON, "st_ember_garnet", VL_Z_TOP);
  int trooper = vt_card(t, 0, "nm_null_trooper", VL_Z_REALM);
  vt_answer(t, 0, "vanq.c%d", gilt);
  assert_at(t, gilt, VL_Z_VDISC, 1, -1);
  assert_at(t, trooper, VL_Z_VDISC, 0, -1);
  assert_at(t, garnet, VL_Z_REALM, 0, 1);
  assert_int_equal(t->s.w[garnet].host, VL_NONE);
  assert_int_equal(t->s.seat[0].defeated, 0);
}

/* VILLAIN CARDS: "If you cannot follow all of a card’s instructions to
 * resolve it completely, you may not play it." THANOS AND THE INFINITY
 * STONES: "When a Stone enters play, the targeted player randomly picks
 * a Stone from the remaining Stones in the center of the table". Seeded
 * Bounty hands a Stone to an opponent: none left, no Seeded Bounty. */
static void test_stone_card_needs_a_stone_left(void **unused) {
  (void)unused;
  table *t = load("stone_none_left");
  int bounty = vt_card(t, 0, "vt_seeded_bounty", VL_Z_HAND);
  int tithe = vt_card(t, 0, "vt_tithe_of_worlds", VL_Z_HAND);
  assert_int_equal(stones_in(t, VL_Z_CENTRE, -1), 0);
  assert_false(vt_offered(t, "play.c%d", bounty));
  assert_true(vt_offered(t, "play.c%d", tithe));
  t = load("stone_one_left");
  bounty = vt_card(t, 0, "vt_seeded_bounty", VL_Z_HAND);
  assert_int_equal(stones_in(t, VL_Z_CENTRE, -1), 1);
  assert_true(vt_offered(t, "play.c%d", bounty));
}

/* ======================================================================
 * Objectives (ENDING THE GAME)
 * ====================================================================*/

/* THANOS AND THE INFINITY STONES: "When an Infinity Stone is in Thanos’
 * Domain, Thanos flips it to its Specialty side. The Stone then follows
 * all the normal rules for Specialty cards, and Thanos is one step closer
 * to victory." The Vault Tyrant's objective, "Start your turn with 3
 * Stones in your Domain", holds with his third Stone home, and wins at
 * the start of his next turn, not before. */
static void test_objective_stones_at_the_start_of_the_turn(void **unused) {
  (void)unused;
  table *t = load("stone_objective");
  const vl_villain *v = vl_villain_of(&t->s, 0);
  assert_int_equal(v->obj.count, VL_C_STONES);
  assert_true(v->obj.at_start);
  int warden = vt_card(t, 0, "vt_plinth_warden", VL_Z_TOP);
  int sapphire = vt_card(t, COMMON, "st_hollow_sapphire", VL_Z_TOP);
  vt_answer(t, 0, "ally.c%d.1", warden);
  assert_at(t, sapphire, VL_Z_SPECIALTY, 0, -1);
  assert_int_equal(stones_in(t, VL_Z_SPECIALTY, 0), v->obj.n);
  assert_false(t->s.over);
  vt_answer(t, 0, "end");
  assert_false(t->s.over);
  vt_answer(t, 1, "move.2");
  vt_answer(t, 1, "end");
  assert_true(t->s.over);
  assert_int_equal(t->s.winners, 1);
  assert_true(vt_told(t, -1, "Villain 1, The Vault Tyrant, has achieved"));
}

/* ENDING THE GAME: "As soon as a player fulfills their Villain’s
 * objective, the game ends and that player wins!" The Null Marshal's
 * last Hero ends the game in the middle of his turn. */
static void test_objective_as_soon_as_fulfilled(void **unused) {
  (void)unused;
  table *t = load("objective_defeat");
  const vl_villain *v = vl_villain_of(&t->s, 0);
  assert_int_equal(v->obj.count, VL_C_DEFEATED);
  assert_false(v->obj.at_start);
  /* One Hero short, whatever the tuned objective. */
  t->s.seat[0].defeated = (uint8_t)(v->obj.n - 1);
  vt_refresh(t);
  int oren = vt_card(t, COMMON, "cm_oren_blackwood", VL_Z_TOP);
  vt_answer(t, 0, "vanq.c%d", oren);
  assert_true(t->s.over);
  assert_int_equal(t->s.winners, 1);
  assert_int_equal(t->s.phase, VL_PH_OVER);
  assert_int_equal(t->p.n, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_setup_two_to_four_power_by_turn_order),
      cmocka_unit_test(test_setup_one_fate_deck_of_all_villains),
      cmocka_unit_test(test_mode_omnipotent_leaves_the_events_out),
      cmocka_unit_test(test_modes_choose_or_deal_the_villains),
      cmocka_unit_test(test_move_from_the_portrait_then_elsewhere),
      cmocka_unit_test(test_turn_draw_up_to_four_at_the_end),
      cmocka_unit_test(test_fate_reveals_one_then_the_target),
      cmocka_unit_test(test_fate_item_on_a_hero_of_the_target),
      cmocka_unit_test(test_fate_unplayable_card_discarded),
      cmocka_unit_test(test_fate_effect_resolves_on_the_target),
      cmocka_unit_test(test_fate_global_event_to_the_centre),
      cmocka_unit_test(test_fate_targeted_event_above_its_villain),
      cmocka_unit_test(test_fate_own_targeted_event_discarded),
      cmocka_unit_test(test_fate_top_card_played_in_the_own_domain),
      cmocka_unit_test(test_mode_inevitable_second_global_discarded),
      cmocka_unit_test(test_mode_undying_any_number_of_events),
      cmocka_unit_test(test_event_ally_played_there_item_never),
      cmocka_unit_test(test_event_relocate_to_global_or_own_targeted),
      cmocka_unit_test(test_event_resolved_when_its_requirement_is_met),
      cmocka_unit_test(test_event_without_allies_stays),
      cmocka_unit_test(test_event_allies_in_no_domain),
      cmocka_unit_test(test_event_ally_takes_no_attached_item),
      cmocka_unit_test(test_event_counts_printed_strength_and_tokens),
      cmocka_unit_test(test_specialty_played_to_the_specialty_area),
      cmocka_unit_test(test_specialty_never_relocated_or_removed),
      cmocka_unit_test(test_specialty_once_per_turn),
      cmocka_unit_test(test_strength_token_lasts_while_the_card_stays),
      cmocka_unit_test(test_protector_defeated_first),
      cmocka_unit_test(test_protector_first_for_a_defeating_card_too),
      cmocka_unit_test(test_zero_strength_hero_needs_an_ally_that_stays),
      cmocka_unit_test(test_zero_strength_ally_acts_and_moves_only),
      cmocka_unit_test(test_vanquish_example),
      cmocka_unit_test(test_relocate_anywhere_in_the_domain),
      cmocka_unit_test(test_relocated_is_not_played),
      cmocka_unit_test(test_invade_an_opponents_top),
      cmocka_unit_test(test_relocate_an_invader_home),
      cmocka_unit_test(test_activate_in_another_domain_or_at_an_event),
      cmocka_unit_test(test_call_home_from_another_domain),
      cmocka_unit_test(test_invader_held_by_its_host_domain),
      cmocka_unit_test(test_activate_away_silenced),
      cmocka_unit_test(test_stone_search_goes_on_into_the_discard),
      cmocka_unit_test(test_look_at_the_shared_fate_deck),
      cmocka_unit_test(test_stone_enters_on_an_ally_of_the_target),
      cmocka_unit_test(test_stone_carrier_from_the_hand_for_free),
      cmocka_unit_test(test_stone_carrier_revealed_from_the_deck),
      cmocka_unit_test(test_stone_stays_when_its_carrier_falls),
      cmocka_unit_test(test_stone_relocated_within_its_domain_only),
      cmocka_unit_test(test_stone_activated_once_per_turn),
      cmocka_unit_test(test_stone_straight_to_the_collector),
      cmocka_unit_test(test_stone_raid_and_home),
      cmocka_unit_test(test_stone_taken_up_by_an_invader),
      cmocka_unit_test(test_stone_raider_vanquished),
      cmocka_unit_test(test_stone_card_needs_a_stone_left),
      cmocka_unit_test(test_objective_stones_at_the_start_of_the_turn),
      cmocka_unit_test(test_objective_as_soon_as_fulfilled),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
