/*
 * test_dis_rules.c: the rules of Disorder of the Villains (rulebook 002,
 * "Rules of Play" 1.0) as docs/rules/disorder.md specifies them for the
 * `disorder` ruleset, one cmocka test per rule of that page's "Tests this
 * page asks for" (the DNA examples themselves are tests/test_dis_dna.c's;
 * here minting is checked on real Monster rows).
 *
 * Each test names in its comment the rulebook passage it checks and starts
 * from a real setup or from a small position built by tests/dis_position.c
 * (a real game whose state is rewritten, then proven by dis_check). The
 * game is driven only through eng_game_answer by option id ("play.c5",
 * "int.c23", "pass"...). After every answer the state must pass
 * dis_check and the lines told must have the form every game's lines
 * have (pu_told_form: whole sentences, a public line at least). The
 * engine takes every decision with one possible answer by itself (never
 * a window), so a test asserts on the state an answer leads to, not on
 * prompts it skipped.
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

#include "dis_position.h"
#include "eng.h"
#include "games/disorder/dis.h"
#include "prompt_util.h"

enum { P1 = 0, P2 = 1 }; /* the page's Player 1 and Player 2 (seats) */

/* ---- the harness ----------------------------------------------------- */

static eng_events ev; /* the last answer's lines */

static const char *ids(const eng_game *g) {
  return pu_ids(g->rs, g->state, &g->prompt);
}

static void vfmt(char *buf, size_t cap, const char *fmt, va_list ap) {
  vsnprintf(buf, cap, fmt, ap);
}

/* Whether the current prompt offers the option id (printf-style). */
static bool offered(const eng_game *g, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static bool offered(const eng_game *g, const char *fmt, ...) {
  char id[ENG_ID_MAX + 1];
  va_list ap;
  va_start(ap, fmt);
  vfmt(id, sizeof id, fmt, ap);
  va_end(ap);
  return pu_find(g->rs, g->state, &g->prompt, id) >= 0;
}

/* Checks the state and the lines after an answer. */
static void checked(const eng_game *g) {
  char msg[256];
  if (dis_check(g->state, msg, sizeof msg))
    fail_msg("dis_check: %s", msg);
  if (pu_told_form(&ev, DIS_PLAYERS, msg, sizeof msg))
    fail_msg("the lines told: %s", msg);
}

/* Answers as seat with option id (printf-style); fails the test when the
 * prompt is not seat's or id is not offered. */
static void answer(eng_game *g, int seat, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void answer(eng_game *g, int seat, const char *fmt, ...) {
  char id[ENG_ID_MAX + 1];
  va_list ap;
  va_start(ap, fmt);
  vfmt(id, sizeof id, fmt, ap);
  va_end(ap);
  pu_expect(g->rs, g->state, &g->prompt, seat, id);
  eng_rc rc = eng_game_answer(g, seat, id, &ev);
  if (rc)
    fail_msg("answering %s as seat %d: %s", id, seat, eng_rcname(rc));
  checked(g);
}

/* The index of the first public line of the last answer holding text,
 * or -1. */
static int told_at(const char *text) {
  for (int k = 0; k < ev.n; k++)
    if (ev.ev[k].seat < 0 && strstr(ev.ev[k].text, text))
      return k;
  return -1;
}

static void print_told(void) {
  for (int k = 0; k < ev.n; k++)
    print_message("  [%d] %s\n", ev.ev[k].seat, ev.ev[k].text);
}

/* Fails unless a public line of the last answer holds text. */
static int expect_told(const char *text) {
  int k = told_at(text);
  if (k < 0) {
    print_told();
    fail_msg("no public line says '%s'", text);
  }
  return k;
}

/* Fails unless the prompt is seat's with exactly the options in want
 * (printf-style; space-separated ids, any order). */
static void expect_options(const eng_game *g, int seat, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void expect_options(const eng_game *g, int seat, const char *fmt, ...) {
  char want[512];
  va_list ap;
  va_start(ap, fmt);
  vfmt(want, sizeof want, fmt, ap);
  va_end(ap);
  int n = 0;
  bool ok = g->prompt.player == seat;
  for (const char *at = want; ok && *at;) {
    size_t len = strcspn(at, " ");
    char id[ENG_ID_MAX + 1];
    snprintf(id, sizeof id, "%.*s", (int)len, at);
    ok = pu_find(g->rs, g->state, &g->prompt, id) >= 0;
    n++;
    at += len;
    at += strspn(at, " ");
  }
  if (!ok || n != g->prompt.n)
    fail_msg("expected seat %d to choose among '%s'; seat %d has '%s'", seat,
             want, g->prompt.player, ids(g));
}

static void expect_zone(const dis_state *s, int i, int zone, int side) {
  if (s->zone[i] != zone || s->side[i] != side)
    fail_msg("c%d (%s) is in %s of seat %d, expected %s of seat %d", i,
             dis_def(s, i)->name, dis_zone_name(s->zone[i]), s->side[i],
             dis_zone_name(zone), side);
}

/* The played flag set after dp_finish (the turn's Play already made). */
static void played(dis_pos *p) {
  p->s->played = true;
  dp_refresh(p);
}

static int count_kind(const eng_game *g, int kind) {
  int n = 0;
  for (int k = 0; k < g->prompt.n; k++)
    n += DIS_CODE_KIND(g->prompt.code[k]) == kind;
  return n;
}

/* Whether card i has an "at the start of your turn" trait. */
static bool starts_turn(const dis_state *s, int i) {
  const dis_card *c = dis_def(s, i);
  for (int t = 0; t < c->n_traits; t++)
    if (c->t[t].timing == DIS_T_TIMED && c->t[t].trigger == DIS_TR_TURN_START)
      return true;
  return false;
}

/* ---- SETUP ------------------------------------------------------------ */

/* SETUP 1-3: "CHOOSE YOUR DECK. Ensure you have 4 Villains. You cannot
 * have multiple Villains that are the same name ... you'll need 1 of each
 * of the 16 unique Monsters." "STARTING VILLAIN. Players will randomly
 * draw a starting Villain, to put in-play as part of their setup. Shuffle
 * the remaining 3 Villains and 16 Monsters together to make your deck."
 * "DRAW TWO." In mode random (designs and Villains dealt): 20 cards a
 * deck, 4 distinct Villains (8 across the table), the design's 16
 * Monsters; one starting Villain in play, put there and not Played (no
 * !!! on the chain, ready, counted as before turn 1); 17 in the deck and
 * 2 in hand (the first player has drawn for turn 1). */
static void test_setup_decks_and_starting_villain(void **unused) {
  (void)unused;
  const dis_data *d = dis_data_get();
  assert_non_null(d);
  int start_at[4] = {0}, with_immediate = 0;
  for (uint64_t seed = 1; seed <= 40; seed++) {
    eng_config cfg = {.players = 2, .mode = "random", .first = 0};
    eng_game *g;
    assert_int_equal(eng_game_new(eng_find("disorder"), &cfg, seed, &g),
                     ENG_OK);
    const dis_state *s = g->state;
    char msg[256];
    if (dis_check(s, msg, sizeof msg))
      fail_msg("seed %d: %s", (int)seed, msg);
    for (int p = 0; p < DIS_PLAYERS; p++) {
      assert_true(s->design[p] >= 0 && s->design[p] < d->n_designs);
      int base = p * DIS_DECK;
      for (int k = 0; k < 4; k++) {
        assert_int_equal(dis_def(s, base + k)->kind, DIS_KIND_VILLAIN);
        assert_int_equal(dis_def(s, base + k)->deck, -1);
      }
      for (int k = 0; k < 16; k++)
        assert_int_equal(s->def[base + 4 + k],
                         d->designs[s->design[p]].monsters[k]);
      for (int a = base + 4; a < base + DIS_DECK; a++)
        for (int b = a + 1; b < base + DIS_DECK; b++)
          assert_int_not_equal(s->def[a], s->def[b]);
      assert_int_equal(s->n_vrow[p], 1);
      int v = s->vrow[p][0];
      assert_int_equal(dis_owner(v), p);
      assert_true(v - base < 4);
      assert_int_equal(s->entered[v], -1);
      /* ready, unless it is the first player's and its "at the start of
       * your turn" trait has just triggered (usable from turn 1 on) */
      assert_int_equal(s->used[v], p == P1 && starts_turn(s, v));
      assert_int_equal(s->n_mrow[p] + s->n_minted[p] + s->n_discard[p], 0);
      assert_int_equal(s->n_deck[p] + s->n_hand[p] + s->n_vrow[p], DIS_DECK);
      if (p == 0) {
        start_at[v - base]++;
        with_immediate += dis_def(s, v)->t[0].timing == DIS_T_IMMEDIATE;
      }
    }
    for (int a = 0; a < DIS_CARDS; a++)
      for (int b = a + 1; b < DIS_CARDS; b++)
        if (a % DIS_DECK < 4 && b % DIS_DECK < 4)
          assert_int_not_equal(s->def[a], s->def[b]);
    /* Player 2 as dealt; Player 1 has drawn the first turn's card, unless
     * a start-of-turn trait waits on the chain (then Player 2 has the
     * window it opened, and the draw comes after it). */
    assert_int_equal(s->n_deck[P2], 17);
    assert_int_equal(s->n_hand[P2], 2);
    assert_int_equal(s->turn, 1);
    assert_int_equal(s->active, P1);
    if (starts_turn(s, s->vrow[P1][0])) {
      assert_int_equal(s->n_chain, 1);
      assert_int_equal(s->n_deck[P1], 17);
      assert_int_equal(s->n_hand[P1], 2);
      assert_int_equal(s->phase, DIS_PH_WINDOW);
      assert_int_equal(g->prompt.player, P2);
    } else {
      assert_int_equal(s->n_chain, 0);
      assert_int_equal(s->n_deck[P1], 16);
      assert_int_equal(s->n_hand[P1], 3);
      assert_int_equal(g->prompt.player, P1);
      assert_int_equal(count_kind(g, DIS_O_PLAY), 3);
    }
    eng_game_free(g);
  }
  /* "randomly draw": each of the four can be the starting Villain */
  for (int k = 0; k < 4; k++)
    assert_true(start_at[k] > 0);
  assert_true(with_immediate > 0); /* some start with a !!! untriggered */
}

/* SETUP 1 as Lair plays it (docs: "Deck choice"): Player 1 then Player 2
 * chooses a deck design (the same one may be chosen twice), then the
 * Villains are drafted in the order 1, 2, 2, 1, 1, 2, 2, 1, and a drafted
 * Villain is offered to neither player again, so no deck holds a Villain
 * twice and the two decks share none. SETUP 2-3 follow: one starting
 * Villain in play, 17 cards in the deck, 2 in hand. */
static void test_setup_draft_order(void **unused) {
  (void)unused;
  const dis_data *d = dis_data_get();
  eng_config cfg = {.players = 2, .mode = "standard", .first = -1};
  eng_game *g;
  assert_int_equal(eng_game_new(eng_find("disorder"), &cfg, 7, &g), ENG_OK);
  assert_int_equal(g->prompt.player, P1);
  assert_int_equal(count_kind(g, DIS_O_DESIGN), d->n_designs);
  answer(g, P1, "design.tidewrack");
  expect_told("chooses the deck design");
  assert_int_equal(g->prompt.player, P2);
  answer(g, P2, "design.tidewrack");
  static const int order[8] = {0, 1, 1, 0, 0, 1, 1, 0};
  char picked[8][ENG_ID_MAX + 1];
  for (int k = 0; k < 8; k++) {
    assert_int_equal(g->prompt.player, order[k]);
    assert_int_equal(count_kind(g, DIS_O_VILLAIN), d->n_pool - k);
    for (int q = 0; q < k; q++)
      assert_false(offered(g, "%s", picked[q]));
    /* the last offered Villain, so that picks are not simply pool order */
    char label[ENG_LABEL_MAX + 1];
    eng_game_option(g, g->prompt.n - 1, picked[k], label);
    answer(g, order[k], "%s", picked[k]);
    expect_told("drafts");
  }
  const dis_state *s = g->state;
  int nth[2] = {0, 0};
  for (int k = 0; k < 8; k++) {
    int i = order[k] * DIS_DECK + nth[order[k]]++;
    assert_string_equal(picked[k] + strlen("villain."), dis_def(s, i)->id);
  }
  assert_int_equal(s->design[P1], s->design[P2]);
  /* dealt: a starting Villain each, 17 in the deck, 2 in hand; then
   * Rock-Paper-Scissors, told to the table */
  for (int p = 0; p < DIS_PLAYERS; p++) {
    assert_int_equal(s->n_vrow[p], 1);
    assert_true(s->vrow[p][0] - p * DIS_DECK < 4);
    assert_int_equal(s->n_deck[p], 17);
    assert_int_equal(s->n_hand[p], 2);
  }
  expect_told("Rock-Paper-Scissors");
  assert_int_equal(s->phase, DIS_PH_RPS);
  assert_int_equal(g->prompt.player, s->rps);
  eng_game_free(g);
}

/* GAMEPLAY: "Players will Rock-Paper-Scissors to see who gets to choose
 * whether to start the game or defer." The seed's winner (either seat,
 * depending on the seed) is asked start or defer: start makes them
 * first, defer makes the other player first. */
static void test_gameplay_rps_start_or_defer(void **unused) {
  (void)unused;
  bool won[2] = {false, false}, deferred = false, started = false;
  for (uint64_t seed = 1; seed <= 20; seed++) {
    eng_config cfg = {.players = 2, .mode = "random", .first = -1};
    eng_game *g;
    assert_int_equal(eng_game_new(eng_find("disorder"), &cfg, seed, &g),
                     ENG_OK);
    const dis_state *s = g->state;
    int w = s->rps;
    assert_true(w == P1 || w == P2);
    won[w] = true;
    assert_int_equal(s->phase, DIS_PH_RPS);
    assert_int_equal(s->turn, 0);
    expect_options(g, w, "%s", "start defer");
    if (seed % 2) {
      answer(g, w, "start");
      expect_told("takes the first turn");
      assert_int_equal(s->active, w);
      started = true;
    } else {
      answer(g, w, "defer");
      expect_told("lets their opponent start");
      assert_int_equal(s->active, 1 - w);
      deferred = true;
    }
    assert_int_equal(s->turn, 1);
    assert_int_equal(s->first, s->active);
    if (!starts_turn(s, s->vrow[s->active][0])) {
      assert_int_equal(s->n_hand[s->active], 3); /* the first turn's draw */
      assert_int_equal(g->prompt.player, s->active);
    }
    eng_game_free(g);
  }
  assert_true(won[P1] && won[P2] && started && deferred);
}

/* GAMEPLAY, Rock-Paper-Scissors (docs: "When the game's configuration
 * names the first seat ... that seat starts and neither the draw nor the
 * question happens"). */
static void test_gameplay_rps_skipped_with_a_configured_first(void **unused) {
  (void)unused;
  eng_config cfg = {.players = 2, .mode = "random", .first = 1};
  eng_game *g;
  assert_int_equal(eng_game_new(eng_find("disorder"), &cfg, 3, &g), ENG_OK);
  const dis_state *s = g->state;
  assert_int_equal(s->rps, DIS_NONE);
  assert_int_equal(s->phase, DIS_PH_MAIN);
  assert_int_equal(s->turn, 1);
  assert_int_equal(s->active, P2);
  assert_int_equal(g->prompt.player, P2);
  assert_false(offered(g, "start"));
  assert_int_equal(count_kind(g, DIS_O_PLAY), 3);
  eng_game_free(g);
}

/* ---- GAMEPLAY ----------------------------------------------------------- */

/* GAMEPLAY: "The first player will draw a card and place one of their
 * cards in-play without triggering its trait. Hereafter, players take
 * turns playing normally". Turn 1's Play triggers no !!! (Velvet
 * Tyrant's BOUNCE stays off the chain) but is a Play for the rest: the
 * opponent's "when your opponent Plays a Villain" trait (The Saltmarrow
 * Duke) triggers and a window opens; turn 2's Play triggers its !!!. */
static void test_gameplay_first_play_without_its_trait(void **unused) {
  (void)unused;
  dis_pos p;
  dp_new(&p, 1, "emberwick", "hollow_regent velvet_tyrant", "tidewrack",
         "saltmarrow_duke");
  dp_put(&p, P1, "hollow_regent", DIS_Z_VROW);
  int tyrant = dp_put(&p, P1, "velvet_tyrant", DIS_Z_HAND);
  dp_put(&p, P1, "kiln_toad", DIS_Z_HAND);
  int duke = dp_put(&p, P2, "saltmarrow_duke", DIS_Z_VROW);
  dp_put(&p, P2, "silt_eel", DIS_Z_HAND);
  dp_put(&p, P2, "kelp_wraith", DIS_Z_HAND);
  int leech = dp_put(&p, P2, "brine_leech", DIS_Z_DECK);
  dp_put(&p, P1, "cinder_whelp", DIS_Z_MROW);
  dp_finish(&p, 1, P1);
  eng_game *g = p.g;
  dis_state *s = p.s;

  answer(g, P1, "play.c%d", tyrant);
  expect_told("The game's first Play does not trigger The Velvet Tyrant's !!!");
  assert_int_equal(s->n_chain, 1);
  assert_int_equal(s->chain[0].card, duke); /* opp_play, not the !!! */
  expect_options(g, P2, "%s", "pass");      /* a window, asked */
  assert_int_equal(s->phase, DIS_PH_WINDOW);

  answer(g, P2, "pass");
  /* the Duke BOUNCEd the Tyrant; Player 1's turn ended by itself */
  expect_zone(s, tyrant, DIS_Z_HAND, P1);
  assert_int_equal(s->turn, 2);
  assert_int_equal(s->active, P2);
  assert_true(offered(g, "play.c%d", leech));

  answer(g, P2, "play.c%d", leech);
  assert_int_equal(s->n_chain, 1);
  assert_int_equal(s->chain[0].card, leech); /* turn 2: the !!! triggers */
  assert_int_equal(g->prompt.player, P1);
  dp_free(&p);
}

/* GAMEPLAY: "draw a card and Play a card. Both of these steps are
 * required." end is not offered before the Play while the hand holds a
 * card; it is after the Play; with an empty hand there is no Play and the
 * turn may end at once. */
static void test_gameplay_both_steps_are_required(void **unused) {
  (void)unused;
  dis_pos p;
  dp_new(&p, 1, "emberwick", "hollow_regent", "tidewrack", "gutterglass_king");
  dp_put(&p, P1, "hollow_regent", DIS_Z_VROW);
  int gremlin = dp_put(&p, P1, "soot_gremlin", DIS_Z_MROW);
  int toad = dp_put(&p, P1, "kiln_toad", DIS_Z_HAND);
  int lynx = dp_put(&p, P1, "ember_lynx", DIS_Z_HAND);
  dp_put(&p, P2, "gutterglass_king", DIS_Z_VROW);
  dp_finish(&p, 3, P1);
  eng_game *g = p.g;
  dis_state *s = p.s;
  expect_options(g, P1, "play.c%d play.c%d trait.c%d", toad, lynx, gremlin);

  answer(g, P1, "play.c%d", toad);
  answer(g, P2, "pass");
  expect_options(g, P1, "trait.c%d end", gremlin);
  answer(g, P1, "end");
  assert_int_equal(s->turn, 4);
  dp_free(&p);

  /* an empty hand: no Play to make, the turn may end */
  dp_new(&p, 1, "emberwick", "hollow_regent", "tidewrack", "gutterglass_king");
  dp_put(&p, P1, "hollow_regent", DIS_Z_VROW);
  gremlin = dp_put(&p, P1, "soot_gremlin", DIS_Z_MROW);
  dp_finish(&p, 3, P1);
  g = p.g;
  assert_int_equal(p.s->n_hand[P1], 0);
  expect_options(g, P1, "trait.c%d end", gremlin);
  dp_free(&p);
}

/* GAMEPLAY: "If your deck is empty, you get no cards (the discard is not
 * recycled into the deck)." */
static void test_gameplay_empty_deck_draws_nothing(void **unused) {
  (void)unused;
  dis_pos p;
  dp_new(&p, 1, "emberwick", "hollow_regent", "tidewrack", "gutterglass_king");
  dp_put(&p, P1, "hollow_regent", DIS_Z_VROW);
  int toad = dp_put(&p, P1, "kiln_toad", DIS_Z_HAND);
  int lynx = dp_put(&p, P1, "ember_lynx", DIS_Z_HAND);
  dp_rest(&p, P1, DIS_Z_DISCARD);
  dp_put(&p, P2, "gutterglass_king", DIS_Z_VROW);
  int wraith = dp_put(&p, P2, "kelp_wraith", DIS_Z_MROW);
  dp_finish(&p, 4, P2);
  played(&p);
  eng_game *g = p.g;
  dis_state *s = p.s;
  int discard = s->n_discard[P1];
  assert_true(discard > 10);
  expect_options(g, P2, "trait.c%d end", wraith);

  answer(g, P2, "end");
  expect_told("Villain 1's deck is empty: no card to draw.");
  assert_int_equal(s->turn, 5);
  assert_int_equal(s->n_deck[P1], 0);
  assert_int_equal(s->n_hand[P1], 2);
  assert_int_equal(s->n_discard[P1], discard);
  assert_int_equal(s->last_left, -1); /* Player 2's deck still holds cards */
  expect_options(g, P1, "play.c%d play.c%d", toad, lynx);
  dp_free(&p);
}

/* GAMEPLAY: "You may only have up to 4 Monsters and 4 Villains in-play.
 * When playing a card, if it would exceed your board limit, you must
 * discard a card to make room for the new one." A fifth Monster, Played
 * or DROPped, asks which of the four in the row to discard (room.cN); the
 * new card is never offered; then it enters last in the row. */
static void test_gameplay_board_limit_makes_room(void **unused) {
  (void)unused;
  for (int drop = 0; drop < 2; drop++) {
    dis_pos p;
    dp_new(&p, 1, "emberwick", "hollow_regent", "tidewrack",
           "gutterglass_king");
    dp_put(&p, P1, "hollow_regent", DIS_Z_VROW);
    int row[4] = {dp_put(&p, P1, "soot_gremlin", DIS_Z_MROW),
                  dp_put(&p, P1, "kiln_toad", DIS_Z_MROW),
                  dp_put(&p, P1, "ashen_moth", DIS_Z_MROW),
                  dp_put(&p, P1, "slag_newt", DIS_Z_MROW)};
    int lynx = dp_put(&p, P1, "ember_lynx", DIS_Z_HAND);
    int serpent = dp_put(&p, P1, "wick_serpent", DIS_Z_HAND);
    dp_put(&p, P2, "gutterglass_king", DIS_Z_VROW);
    dp_finish(&p, 3, P1);
    eng_game *g = p.g;
    dis_state *s = p.s;
    if (drop) {
      answer(g, P1, "trait.c%d", row[0]); /* Soot Gremlin: DROP */
      answer(g, P2, "pass");
      expect_options(g, P1, "pick.c%d pick.c%d", lynx, serpent);
      answer(g, P1, "pick.c%d", lynx);
    } else {
      answer(g, P1, "play.c%d", lynx);
    }
    expect_told("Monster row is full");
    expect_options(g, P1, "room.c%d room.c%d room.c%d room.c%d", row[0], row[1],
                   row[2], row[3]);
    assert_int_equal(s->phase, DIS_PH_ROOM);
    answer(g, P1, "room.c%d", row[1]);
    expect_zone(s, row[1], DIS_Z_DISCARD, P1);
    expect_zone(s, lynx, DIS_Z_MROW, P1);
    assert_int_equal(s->n_mrow[P1], 4);
    assert_int_equal(s->mrow[P1][3], lynx);
    assert_int_equal(s->entered[lynx], 3);
    assert_int_equal(s->played, !drop);     /* a DROP is not the Play */
    assert_int_equal(g->prompt.player, P2); /* the window after the step */
    assert_int_equal(s->phase, DIS_PH_WINDOW);
    dp_free(&p);
  }
}

/* ---- MINTING A VILLAIN ------------------------------------------------- */

/* Builds Player 1 with villain in the Villain row and the Monsters named
 * in row (space-separated, in that order) in the Monster row, design
 * emberwick, and says whether minting villain is offered. */
static bool mint_offered(const char *villain, const char *row) {
  dis_pos p;
  dp_new(&p, 1, "emberwick", villain, "tidewrack", "gutterglass_king");
  int v = dp_put(&p, P1, villain, DIS_Z_VROW);
  for (const char *at = row; *at;) {
    size_t len = strcspn(at, " ");
    char id[DIS_ID_MAX + 1];
    snprintf(id, sizeof id, "%.*s", (int)len, at);
    dp_put(&p, P1, id, DIS_Z_MROW);
    at += len;
    at += strspn(at, " ");
  }
  dp_finish(&p, 3, P1);
  bool yes = offered(p.g, "mint.c%d", v);
  dp_free(&p);
  return yes;
}

/* MINTING A VILLAIN: "to complete a BBxx Sequence, you would need to mint
 * 4 monsters with a DNA of BBAA, BBCC, or BBDD." Mother Brinewhistle
 * (BBxx) on real Emberwick Monsters: BBAA, BBCC, BBDD are offered; BBAC,
 * BBBB (one of the four B's is Slag Newt, B or D: BBBD at best) and three
 * Monsters are not; nor a Villain in the hand (docs: "A Villain in your
 * hand cannot be minted"). */
static void test_minting_bbxx(void **unused) {
  (void)unused;
  /* A: cinder_whelp soot_gremlin kiln_toad ashen_moth; B: brazier_hound
   * slag_newt(D) charcoal_imp ember_lynx; C: pyre_beetle scorchwing
   * flue_rat clinker_golem; D: wick_serpent tallow_wight furnace_ox
   * smoulder_crow */
  const char *v = "mother_brinewhistle";
  assert_true(
      mint_offered(v, "brazier_hound charcoal_imp kiln_toad ashen_moth"));
  assert_true(
      mint_offered(v, "brazier_hound charcoal_imp flue_rat scorchwing"));
  assert_true(
      mint_offered(v, "brazier_hound ember_lynx furnace_ox smoulder_crow"));
  assert_false(
      mint_offered(v, "brazier_hound charcoal_imp kiln_toad flue_rat"));
  assert_false(
      mint_offered(v, "brazier_hound charcoal_imp ember_lynx slag_newt"));
  assert_false(mint_offered(v, "brazier_hound charcoal_imp kiln_toad"));

  dis_pos p;
  dp_new(&p, 1, "emberwick", "quillon_vex mother_brinewhistle", "tidewrack",
         "gutterglass_king");
  dp_put(&p, P1, "quillon_vex", DIS_Z_VROW);
  int mother = dp_put(&p, P1, "mother_brinewhistle", DIS_Z_HAND);
  dp_put(&p, P1, "brazier_hound", DIS_Z_MROW);
  dp_put(&p, P1, "charcoal_imp", DIS_Z_MROW);
  dp_put(&p, P1, "kiln_toad", DIS_Z_MROW);
  dp_put(&p, P1, "ashen_moth", DIS_Z_MROW);
  dp_put(&p, P1, "wick_serpent", DIS_Z_HAND);
  dp_finish(&p, 3, P1);
  assert_false(offered(p.g, "mint.c%d", mother));
  assert_int_equal(count_kind(p.g, DIS_O_MINT), 0);
  dp_free(&p);
}

/* MINTING A VILLAIN: "A 'y' means it cannot match any listed Sequence
 * letters or the 'x' (so BBxy would require BBAD or BBBCD, etc. to
 * mint)." The pool has no BBxy; Baron Ashcombe Thrale (CCxy) is the same
 * rule with C listed: CCAB, CCAD, CCBD are offered; CCAA (x = y), CCAC (y
 * is the listed C) and CCDD are not. */
static void test_minting_xy(void **unused) {
  (void)unused;
  const char *v = "baron_thrale";
  assert_true(
      mint_offered(v, "pyre_beetle scorchwing cinder_whelp ember_lynx"));
  assert_true(
      mint_offered(v, "pyre_beetle scorchwing cinder_whelp furnace_ox"));
  assert_true(
      mint_offered(v, "pyre_beetle scorchwing charcoal_imp furnace_ox"));
  assert_false(
      mint_offered(v, "pyre_beetle scorchwing cinder_whelp kiln_toad"));
  assert_false(mint_offered(v, "pyre_beetle scorchwing cinder_whelp flue_rat"));
  assert_false(
      mint_offered(v, "pyre_beetle scorchwing furnace_ox wick_serpent"));
}

/* MINTING A VILLAIN: "the order in which the Monsters are presented on
 * the board, in-play, has no importance. Simply that you have the correct
 * 4 cards (if rearranged), is enough to Mint." */
static void test_minting_order_has_no_importance(void **unused) {
  (void)unused;
  const char *v = "mother_brinewhistle";
  assert_true(
      mint_offered(v, "brazier_hound charcoal_imp kiln_toad ashen_moth"));
  assert_true(
      mint_offered(v, "kiln_toad brazier_hound ashen_moth charcoal_imp"));
  assert_true(
      mint_offered(v, "ashen_moth kiln_toad charcoal_imp brazier_hound"));
  assert_true(mint_offered("quillon_vex",
                           "furnace_ox flue_rat charcoal_imp kiln_toad"));
  assert_false(mint_offered("quillon_vex",
                            "furnace_ox flue_rat charcoal_imp scorchwing"));
}

/* MINTING A VILLAIN, matching with a ♾ alias (docs: "A Monster whose ♾
 * trait lets it 'also count as' another letter may count as either of
 * its letters"): Slag Newt (B, also D) completes BBxx as a D (B B D +
 * Slag Newt), AABB as a B, and Dxxx (with three other B's) as a D. */
static void test_minting_alias_counts_as_either_letter(void **unused) {
  (void)unused;
  const char *v = "mother_brinewhistle";
  assert_true(
      mint_offered(v, "brazier_hound charcoal_imp furnace_ox slag_newt"));
  assert_false(
      mint_offered(v, "brazier_hound charcoal_imp furnace_ox ember_lynx"));
  assert_true(mint_offered("velvet_tyrant",
                           "kiln_toad ashen_moth brazier_hound slag_newt"));
  assert_true(mint_offered("clockless_prophet",
                           "furnace_ox brazier_hound charcoal_imp ember_lynx"));
  assert_true(mint_offered("clockless_prophet",
                           "slag_newt brazier_hound charcoal_imp ember_lynx"));
  assert_false(mint_offered("clockless_prophet",
                            "slag_newt brazier_hound charcoal_imp kiln_toad"));
}

/* MINTING A VILLAIN: "discard the 4 monsters in-play and MINT the
 * corresponding un-minted Villain" (docs: the four are "yours, or the
 * opponent's that a FLIP gave you"; they "go to their owners' discard
 * piles"; a discarded Monster's 👤 is the minter's "whoever owns them").
 * Player 2's Gull Harpy, FLIPped to Player 1, completes BBAA; it goes to
 * Player 2's discard pile and its 👤 "Draw 2 cards" is Player 1's. */
static void test_minting_with_a_flipped_monster(void **unused) {
  (void)unused;
  dis_pos p;
  dp_new(&p, 1, "emberwick", "mother_brinewhistle", "tidewrack",
         "baron_thrale");
  int mother = dp_put(&p, P1, "mother_brinewhistle", DIS_Z_VROW);
  dp_put(&p, P1, "brazier_hound", DIS_Z_MROW);
  dp_put(&p, P1, "charcoal_imp", DIS_Z_MROW);
  dp_put(&p, P1, "ashen_moth", DIS_Z_MROW);
  int harpy = dp_put_side(&p, P2, "gull_harpy", DIS_Z_MROW, P1);
  dp_put(&p, P1, "wick_serpent", DIS_Z_HAND);
  dp_put(&p, P2, "baron_thrale", DIS_Z_VROW);
  dp_finish(&p, 3, P1);
  eng_game *g = p.g;
  dis_state *s = p.s;
  answer(g, P1, "mint.c%d", mother);
  expect_zone(s, harpy, DIS_Z_DISCARD, P2);
  assert_int_equal(s->n_discard[P1], 3);
  assert_int_equal(s->n_chain, 1);
  assert_int_equal(s->chain[0].card, harpy);
  assert_int_equal(s->chain[0].ctrl, P1);
  answer(g, P2, "pass");
  expect_told("Villain 1 draws 2 cards.");
  assert_int_equal(s->n_hand[P1], 3);
  dp_free(&p);
}

/* The position of the "anytime" tests: Player 1 has Mother Brinewhistle
 * (BBxx) and three of BBAA in play (the fourth, Soot Gremlin, in play or
 * in hand; none with a 👤 trait); Player 2 a Monster. */
typedef struct mint_pos {
  dis_pos p;
  int mother, gremlin, whelp, serpent, wraith;
} mint_pos;

static void mint_position(mint_pos *m, bool fourth_in_play) {
  dis_pos *p = &m->p;
  dp_new(p, 1, "emberwick", "mother_brinewhistle", "tidewrack",
         "gutterglass_king");
  m->mother = dp_put(p, P1, "mother_brinewhistle", DIS_Z_VROW);
  dp_put(p, P1, "brazier_hound", DIS_Z_MROW);
  dp_put(p, P1, "charcoal_imp", DIS_Z_MROW);
  dp_put(p, P1, "ashen_moth", DIS_Z_MROW);
  m->gremlin =
      dp_put(p, P1, "soot_gremlin", fourth_in_play ? DIS_Z_MROW : DIS_Z_HAND);
  m->whelp = dp_put(p, P1, "cinder_whelp", DIS_Z_HAND);
  m->serpent = dp_put(p, P1, "wick_serpent", DIS_Z_HAND);
  dp_put(p, P2, "hollow_regent", DIS_Z_VROW);
  m->wraith = dp_put(p, P2, "kelp_wraith", DIS_Z_MROW);
}

/* MINTING A VILLAIN: "You may declare a 'MINT' anytime during your turn
 * (you cannot MINT on your opponent's turn)" and INTERRUPTIONS: "You may
 * even end up having to interrupt one of your own Plays with a Mint. You
 * are permitted to avoid having to use BURN or FLIP prior to discarding
 * your 4 cards". A mint before the Play (the Play is still owed), and in
 * answer to one's own !!! (Cinder Whelp's BURN, which then finds only the
 * opponent's Monster); none in the opponent's turn. */
static void test_minting_anytime_during_your_turn(void **unused) {
  (void)unused;
  mint_pos m;
  /* before the Play */
  mint_position(&m, true);
  dp_finish(&m.p, 3, P1);
  eng_game *g = m.p.g;
  dis_state *s = m.p.s;
  assert_true(offered(g, "play.c%d", m.whelp));
  answer(g, P1, "mint.c%d", m.mother);
  expect_told("MINTs Mother Brinewhistle");
  expect_zone(s, m.mother, DIS_Z_MINTED, P1);
  expect_zone(s, m.gremlin, DIS_Z_DISCARD, P1);
  assert_int_equal(s->n_mrow[P1], 0);
  assert_int_equal(s->n_chain, 0); /* a mint is no trait */
  assert_int_equal(s->n_discard[P1], 4);
  answer(g, P2, "pass");
  expect_options(g, P1, "play.c%d play.c%d", m.whelp, m.serpent);
  dp_free(&m.p);

  /* after the Play */
  mint_position(&m, false);
  dp_finish(&m.p, 3, P1);
  g = m.p.g;
  answer(g, P1, "play.c%d", m.gremlin);
  answer(g, P2, "pass");
  expect_options(g, P1, "mint.c%d end", m.mother);
  dp_free(&m.p);

  /* in answer to one's own !!!: Cinder Whelp (A) is the fourth */
  mint_position(&m, false);
  dp_finish(&m.p, 3, P1);
  g = m.p.g;
  s = m.p.s;
  answer(g, P1, "play.c%d", m.whelp);
  assert_int_equal(s->n_chain, 1);
  answer(g, P2, "pass");
  expect_options(g, P1, "mint.c%d resolve", m.mother);
  answer(g, P1, "mint.c%d", m.mother);
  expect_zone(s, m.whelp, DIS_Z_DISCARD, P1);
  assert_int_equal(s->n_chain, 1); /* the BURN still waits */
  answer(g, P2, "pass");
  /* the BURN resolved by itself: the only Monster left was Player 2's */
  expect_told("BURNs Kelp Wraith");
  expect_zone(s, m.wraith, DIS_Z_DISCARD, P2);
  dp_free(&m.p);

  /* not in the opponent's turn */
  mint_position(&m, true);
  int eel = dp_put(&m.p, P2, "silt_eel", DIS_Z_HAND);
  dp_put(&m.p, P2, "foam_sprite", DIS_Z_HAND);
  dp_finish(&m.p, 4, P2);
  g = m.p.g;
  s = m.p.s;
  assert_int_equal(count_kind(g, DIS_O_MINT), 0);
  answer(g, P2, "play.c%d", eel);
  assert_int_equal(g->prompt.player, P1);
  assert_true(dis_can_mint(s, P1, m.mother));
  assert_int_equal(count_kind(g, DIS_O_MINT), 0);
  answer(g, P1, "pass");
  assert_int_equal(s->n_minted[P1], 0);
  for (int k = 0; k < g->prompt.n; k++)
    assert_int_not_equal(DIS_CODE_KIND(g->prompt.code[k]), DIS_O_MINT);
  dp_free(&m.p);
}

/* INTERRUPTIONS: "opponents must be given an opportunity to counter a
 * Play before a MINT is announced." The Play that completes a Sequence
 * opens the opponent's window first; the mint is offered only after it. */
static void test_interruptions_counter_a_play_before_a_mint(void **unused) {
  (void)unused;
  mint_pos m;
  mint_position(&m, false);
  dp_finish(&m.p, 3, P1);
  eng_game *g = m.p.g;
  dis_state *s = m.p.s;
  assert_false(offered(g, "mint.c%d", m.mother));
  answer(g, P1, "play.c%d", m.gremlin);
  assert_int_equal(s->phase, DIS_PH_WINDOW);
  assert_true(dis_can_mint(s, P1, m.mother));
  expect_options(g, P2, "%s", "pass");
  answer(g, P2, "pass");
  assert_true(offered(g, "mint.c%d", m.mother));
  dp_free(&m.p);
}

/* MINTING A VILLAIN: "Minting a Villain cannot be undone once the
 * declaration is made." The mint is final (revealed: no takeback past
 * it, where a ⏳ trigger could be taken back), and it is no trait: the
 * opponent's 🧠 NEGATE (The Gutterglass King), offered against a ⏳ trait,
 * is not offered against it. */
static void test_minting_cannot_be_undone(void **unused) {
  (void)unused;
  mint_pos m;
  mint_position(&m, true);
  int king = dp_put(&m.p, P2, "gutterglass_king", DIS_Z_VROW);
  dp_finish(&m.p, 3, P1);
  eng_game *g = m.p.g;
  dis_state *s = m.p.s;
  answer(g, P1, "mint.c%d", m.mother);
  assert_true(g->answers[g->n_answers - 1].revealed);
  assert_int_equal(eng_game_takeback_count(g, P1), 0);
  assert_int_equal(eng_game_takeback(g, P1), ENG_NO_TAKEBACK);
  assert_int_equal(s->n_chain, 0);
  expect_options(g, P2, "%s", "pass"); /* nothing to NEGATE */
  answer(g, P2, "pass");
  expect_zone(s, m.mother, DIS_Z_MINTED, P1);
  dp_free(&m.p);

  /* the same King against a ⏳ trait, which is also taken back */
  dp_new(&m.p, 1, "emberwick", "hollow_regent", "tidewrack",
         "gutterglass_king");
  dp_put(&m.p, P1, "hollow_regent", DIS_Z_VROW);
  int lynx = dp_put(&m.p, P1, "ember_lynx", DIS_Z_MROW);
  king = dp_put(&m.p, P2, "gutterglass_king", DIS_Z_VROW);
  dp_put(&m.p, P2, "kelp_wraith", DIS_Z_MROW);
  dp_finish(&m.p, 3, P1);
  played(&m.p);
  g = m.p.g;
  answer(g, P1, "trait.c%d", lynx);
  expect_options(g, P2, "int.c%d pass", king);
  assert_int_equal(eng_game_takeback_count(g, P1), 1);
  dp_free(&m.p);
}

/* WINNING & LOSING: "if you MINT 2 Villains before your opponent does,
 * you win the game." The second mint ends the game at once, with the
 * BURN of the Whelp whose Play it answered still on the chain: it never
 * resolves (Player 2's Kelp Wraith stays). */
static void
test_winning_second_mint_leaves_the_chain_unresolved(void **unused) {
  (void)unused;
  mint_pos m;
  mint_position(&m, false);
  int tyrant = dp_put(&m.p, P1, "velvet_tyrant", DIS_Z_MINTED);
  dp_finish(&m.p, 9, P1);
  eng_game *g = m.p.g;
  dis_state *s = m.p.s;
  answer(g, P1, "play.c%d", m.whelp);
  answer(g, P2, "pass");
  answer(g, P1, "mint.c%d", m.mother);
  expect_told("Villain 1 wins with 2 minted Villains.");
  assert_int_equal(s->phase, DIS_PH_OVER);
  assert_int_equal(s->winner, P1);
  assert_string_equal(s->reason, "minted_two");
  assert_int_equal(s->n_chain, 0);
  assert_int_equal(told_at("BURNs"), -1);
  expect_zone(s, m.wraith, DIS_Z_MROW, P2);
  expect_zone(s, tyrant, DIS_Z_MINTED, P1);
  assert_int_equal(g->prompt.player, -1);
  eng_result r;
  eng_game_result(g, &r);
  assert_true(r.over);
  assert_int_equal(r.winners, 1u << P1);
  assert_string_equal(r.reason, "minted_two");
  dp_free(&m.p);
}

/* MINTING A VILLAIN: "A Minted Villain is still considered as 'in-play',
 * but it is free from interactions that would somehow affect its Minted
 * state, such as BOUNCE or BURN." Player 2's minted Gutterglass King:
 * its 🧠 NEGATE is offered against Velvet Tyrant's !!! BOUNCE of a Villain;
 * Player 1 NEGATEs that entry (it is cancelled, the King stays minted);
 * the BOUNCE then finds only the Hollow Regent of the Villain row. */
static void test_minting_minted_villain_bounce_and_negate(void **unused) {
  (void)unused;
  dis_pos p;
  dp_new(&p, 1, "emberwick", "velvet_tyrant baron_thrale", "tidewrack",
         "gutterglass_king hollow_regent");
  dp_put(&p, P1, "baron_thrale", DIS_Z_VROW);
  int tyrant = dp_put(&p, P1, "velvet_tyrant", DIS_Z_HAND);
  dp_put(&p, P1, "kiln_toad", DIS_Z_HAND);
  int ox = dp_put(&p, P1, "furnace_ox", DIS_Z_MROW);
  int king = dp_put(&p, P2, "gutterglass_king", DIS_Z_MINTED);
  int regent = dp_put(&p, P2, "hollow_regent", DIS_Z_VROW);
  dp_finish(&p, 5, P1);
  eng_game *g = p.g;
  dis_state *s = p.s;
  answer(g, P1, "play.c%d", tyrant);
  expect_options(g, P2, "int.c%d pass", king); /* its 🧠 works */
  answer(g, P2, "int.c%d", king);
  assert_int_equal(s->used[king], 1);
  answer(g, P1, "trait.c%d", ox);
  expect_options(g, P2, "%s", "pass");
  answer(g, P2, "pass");
  expect_told("Villain 2's The Gutterglass King's 🧠 NEGATE");
  expect_told("BOUNCEs The Hollow Regent");
  expect_zone(s, king, DIS_Z_MINTED, P2);
  assert_int_equal(s->n_minted[P2], 1);
  expect_zone(s, regent, DIS_Z_HAND, P2);
  dp_free(&p);
}

/* MINTING A VILLAIN: "its traits are still very much active" (docs: "its ♾
 * trait applies"): Player 2's minted Magistra Umbervane protects their
 * Blue cards, so Ember Lynx's BURN can choose only the green Kelp Wraith
 * and the Blue Barnacle Crab stays. */
static void test_minting_minted_villain_ward_applies(void **unused) {
  (void)unused;
  dis_pos p;
  dp_new(&p, 1, "emberwick", "hollow_regent", "tidewrack",
         "magistra_umbervane");
  dp_put(&p, P1, "hollow_regent", DIS_Z_VROW);
  int lynx = dp_put(&p, P1, "ember_lynx", DIS_Z_MROW);
  dp_put(&p, P2, "magistra_umbervane", DIS_Z_MINTED);
  int crab = dp_put(&p, P2, "barnacle_crab", DIS_Z_MROW);
  int wraith = dp_put(&p, P2, "kelp_wraith", DIS_Z_MROW);
  dp_finish(&p, 3, P1);
  played(&p);
  eng_game *g = p.g;
  dis_state *s = p.s;
  answer(g, P1, "trait.c%d", lynx);
  answer(g, P2, "pass");
  /* one candidate: taken at once */
  expect_zone(s, wraith, DIS_Z_DISCARD, P2);
  expect_zone(s, crab, DIS_Z_MROW, P2);
  dp_free(&p);
}

/* MINTING A VILLAIN (docs: "no trait can choose it (BOUNCE, BURN, FLIP,
 * READY, COPY)"): Baron Ashcombe Thrale's 👤 BURN of a Villain finds only
 * Player 2's Villain row; Flue Rat's READY finds Player 1's used Soot
 * Gremlin and not their used minted Gutterglass King; Quillon Vex's COPY
 * offers no trait of a minted Villain. (FLIP takes Monsters only.) */
static void test_minting_minted_villain_cannot_be_chosen(void **unused) {
  (void)unused;
  /* BURN */
  dis_pos p;
  dp_new(&p, 1, "emberwick", "baron_thrale", "tidewrack",
         "gutterglass_king hollow_regent");
  int baron = dp_put(&p, P1, "baron_thrale", DIS_Z_VROW);
  dp_put(&p, P1, "pyre_beetle", DIS_Z_MROW);
  dp_put(&p, P1, "scorchwing", DIS_Z_MROW);
  dp_put(&p, P1, "cinder_whelp", DIS_Z_MROW);
  dp_put(&p, P1, "ember_lynx", DIS_Z_MROW);
  dp_put(&p, P1, "wick_serpent", DIS_Z_HAND);
  dp_put(&p, P1, "tallow_wight", DIS_Z_HAND);
  int king = dp_put(&p, P2, "gutterglass_king", DIS_Z_MINTED);
  int regent = dp_put(&p, P2, "hollow_regent", DIS_Z_VROW);
  dp_finish(&p, 5, P1);
  eng_game *g = p.g;
  dis_state *s = p.s;
  answer(g, P1, "mint.c%d", baron);
  assert_int_equal(s->n_chain, 1); /* the Baron's 👤 BURN */
  expect_options(g, P2, "int.c%d pass", king);
  answer(g, P2, "pass");
  expect_zone(s, regent, DIS_Z_DISCARD, P2);
  expect_zone(s, king, DIS_Z_MINTED, P2);
  dp_free(&p);

  /* READY */
  dp_new(&p, 1, "emberwick", "gutterglass_king", "tidewrack", "hollow_regent");
  king = dp_put(&p, P1, "gutterglass_king", DIS_Z_MINTED);
  int rat = dp_put(&p, P1, "flue_rat", DIS_Z_MROW);
  int gremlin = dp_put(&p, P1, "soot_gremlin", DIS_Z_MROW);
  p.s->used[king] = p.s->used[gremlin] = 1;
  dp_put(&p, P1, "kiln_toad", DIS_Z_HAND);
  dp_put(&p, P2, "hollow_regent", DIS_Z_VROW);
  dp_finish(&p, 4, P2);
  played(&p);
  g = p.g;
  s = p.s;
  answer(g, P2, "end");
  assert_int_equal(s->n_chain, 1); /* Flue Rat, at the start of the turn */
  answer(g, P2, "pass");
  expect_told("READYs Soot Gremlin");
  assert_int_equal(s->used[gremlin], 0);
  assert_int_equal(s->used[king], 1);
  assert_int_equal(s->used[rat], 1);
  dp_free(&p);

  /* COPY */
  dp_new(&p, 1, "emberwick", "quillon_vex", "tidewrack", "gutterglass_king");
  int vex = dp_put(&p, P1, "quillon_vex", DIS_Z_VROW);
  int hound = dp_put(&p, P1, "brazier_hound", DIS_Z_MROW);
  king = dp_put(&p, P2, "gutterglass_king", DIS_Z_MINTED);
  int wraith = dp_put(&p, P2, "kelp_wraith", DIS_Z_MROW);
  dp_finish(&p, 3, P1);
  played(&p);
  g = p.g;
  answer(g, P1, "trait.c%d", vex);
  answer(g, P2, "pass");
  expect_options(g, P1, "copy.c%d.1 copy.c%d.1", hound, wraith);
  dp_free(&p);
}

/* ---- TRIGGERING TRAITS ------------------------------------------------- */

/* TRIGGERING TRAITS: "Each of these types of traits may only be used once
 * while in-play, however they can be reset if they somehow leave and
 * re-enter the in-play area". A used ⏳ (Soot Gremlin) is not offered;
 * BOUNCEd by Player 2's Silt Eel it goes back to Player 1's hand
 * upright, and Played again it can be used (from the next turn on). */
static void
test_triggering_once_while_in_play_renewed_by_bounce(void **unused) {
  (void)unused;
  dis_pos p;
  dp_new(&p, 1, "emberwick", "hollow_regent", "tidewrack", "gutterglass_king");
  dp_put(&p, P1, "hollow_regent", DIS_Z_VROW);
  int gremlin = dp_put(&p, P1, "soot_gremlin", DIS_Z_MROW);
  int lynx = dp_put(&p, P1, "ember_lynx", DIS_Z_MROW);
  p.s->used[gremlin] = 1;
  dp_put(&p, P1, "wick_serpent", DIS_Z_DECK); /* turn 7's draw */
  dp_put(&p, P1, "kiln_toad", DIS_Z_DECK);    /* turn 5's draw */
  dp_put(&p, P2, "gutterglass_king", DIS_Z_VROW);
  int eel = dp_put(&p, P2, "silt_eel", DIS_Z_HAND);
  dp_put(&p, P2, "foam_sprite", DIS_Z_DECK);            /* turn 6's draw */
  int harpy = dp_put(&p, P2, "gull_harpy", DIS_Z_DECK); /* turn 4's */
  dp_finish(&p, 3, P1);
  played(&p);
  eng_game *g = p.g;
  dis_state *s = p.s;
  expect_options(g, P1, "trait.c%d end", lynx); /* used: not offered */
  answer(g, P1, "end");

  answer(g, P2, "play.c%d", eel);
  answer(g, P1, "pass");
  expect_options(g, P2, "pick.c%d pick.c%d", gremlin, lynx);
  answer(g, P2, "pick.c%d", gremlin);
  expect_zone(s, gremlin, DIS_Z_HAND, P1);
  assert_int_equal(s->used[gremlin], 0);

  assert_int_equal(s->turn, 5);
  answer(g, P1, "play.c%d", gremlin);
  answer(g, P2, "pass");
  /* put into play this turn: not yet */
  expect_options(g, P1, "trait.c%d end", lynx);
  answer(g, P1, "end");
  answer(g, P2, "play.c%d", harpy);
  answer(g, P1, "pass");
  assert_int_equal(s->turn, 7);
  assert_true(offered(g, "trait.c%d", gremlin));
  dp_free(&p);
}

/* TRIGGERING TRAITS: "they can be reset ... if another trait sets the
 * card back upright": Flue Rat's ⏳ "At the start of your turn: READY one
 * of your other cards" makes the used Soot Gremlin usable again, before
 * the turn's draw. */
static void test_triggering_ready_renews_a_used_trait(void **unused) {
  (void)unused;
  dis_pos p;
  dp_new(&p, 1, "emberwick", "hollow_regent", "tidewrack", "gutterglass_king");
  dp_put(&p, P1, "hollow_regent", DIS_Z_VROW);
  dp_put(&p, P1, "flue_rat", DIS_Z_MROW);
  int gremlin = dp_put(&p, P1, "soot_gremlin", DIS_Z_MROW);
  p.s->used[gremlin] = 1;
  dp_put(&p, P1, "kiln_toad", DIS_Z_HAND);
  dp_put(&p, P2, "gutterglass_king", DIS_Z_VROW);
  dp_finish(&p, 4, P2);
  played(&p);
  eng_game *g = p.g;
  dis_state *s = p.s;
  answer(g, P2, "end");
  answer(g, P2, "pass");
  int ready = expect_told("READYs Soot Gremlin");
  int draws = expect_told("Villain 1 draws 1 card.");
  assert_true(ready < draws);
  assert_int_equal(s->used[gremlin], 0);
  assert_true(offered(g, "trait.c%d", gremlin));
  dp_free(&p);
}

/* TRIGGERING TRAITS: "Note that a trait is not able to be triggered the
 * turn this card is put into play." A ⏳ trait: Soot Gremlin Played this
 * turn is not offered, next turn it is. */
static void test_triggering_timed_not_the_turn_put_into_play(void **unused) {
  (void)unused;
  dis_pos p;
  dp_new(&p, 1, "emberwick", "hollow_regent", "tidewrack", "gutterglass_king");
  dp_put(&p, P1, "hollow_regent", DIS_Z_VROW);
  int gremlin = dp_put(&p, P1, "soot_gremlin", DIS_Z_HAND);
  dp_put(&p, P1, "kiln_toad", DIS_Z_HAND);
  int lynx = dp_put(&p, P1, "ember_lynx", DIS_Z_MROW);
  dp_put(&p, P2, "gutterglass_king", DIS_Z_VROW);
  int sprite = dp_put(&p, P2, "foam_sprite", DIS_Z_HAND);
  dp_put(&p, P2, "gull_harpy", DIS_Z_HAND);
  dp_finish(&p, 3, P1);
  eng_game *g = p.g;
  dis_state *s = p.s;
  answer(g, P1, "play.c%d", gremlin);
  answer(g, P2, "pass");
  expect_options(g, P1, "trait.c%d end", lynx);
  answer(g, P1, "end");
  answer(g, P2, "play.c%d", sprite);
  answer(g, P1, "pass"); /* Player 2's turn ends by itself */
  assert_int_equal(s->turn, 5);
  assert_true(offered(g, "trait.c%d", gremlin));
  dp_free(&p);
}

/* TRIGGERING TRAITS: "a trait is not able to be triggered the turn this
 * card is put into play" (docs: ⏳ and 🧠, "whoever's turn that was").
 * Player 2's Smoulder Crow COPYs Player 1's ⏳ DROP and DROPs Ashen Moth
 * in Player 1's turn; the Moth's 🧠 NEGATE is not offered in that turn
 * against Ember Lynx's BURN, and is offered in Player 1's next turn. */
static void
test_triggering_interrupt_not_the_turn_put_into_play(void **unused) {
  (void)unused;
  dis_pos p;
  dp_new(&p, 1, "emberwick", "hollow_regent", "emberwick", "gutterglass_king");
  dp_put(&p, P1, "hollow_regent", DIS_Z_VROW);
  int gremlin = dp_put(&p, P1, "soot_gremlin", DIS_Z_MROW);
  int lynx = dp_put(&p, P1, "ember_lynx", DIS_Z_MROW);
  int toad = dp_put(&p, P1, "kiln_toad", DIS_Z_HAND);
  dp_put(&p, P1, "cinder_whelp", DIS_Z_DECK); /* turn 5's draw */
  int king = dp_put(&p, P2, "gutterglass_king", DIS_Z_VROW);
  int crow = dp_put(&p, P2, "smoulder_crow", DIS_Z_MROW);
  int moth = dp_put(&p, P2, "ashen_moth", DIS_Z_HAND);
  dp_put(&p, P2, "kiln_toad", DIS_Z_DECK); /* turn 4's draw */
  dp_finish(&p, 3, P1);
  played(&p);
  eng_game *g = p.g;
  dis_state *s = p.s;
  answer(g, P1, "trait.c%d", gremlin);
  expect_options(g, P2, "int.c%d int.c%d pass", crow, king);
  answer(g, P2, "int.c%d", crow);
  answer(g, P1, "resolve"); /* the COPY: Player 2 DROPs the Moth */
  expect_told("Villain 2 DROPs Ashen Moth");
  expect_zone(s, moth, DIS_Z_MROW, P2);
  assert_int_equal(s->entered[moth], 3);
  answer(g, P1, "resolve"); /* the Gremlin's DROP */
  expect_zone(s, toad, DIS_Z_MROW, P1);
  answer(g, P2, "pass");
  answer(g, P1, "trait.c%d", lynx);
  /* a window that answers a trait (the King's 🧠 fits it), not the Moth */
  expect_options(g, P2, "int.c%d pass", king);
  answer(g, P2, "pass");
  answer(g, P1, "pick.c%d", crow);
  /* turn 4: Player 2 Plays their one card by itself */
  answer(g, P1, "pass");
  /* turn 5: Player 1 Plays the Whelp by itself; its !!! BURN */
  assert_int_equal(s->turn, 5);
  assert_int_equal(g->prompt.player, P2);
  assert_true(offered(g, "int.c%d", moth));
  dp_free(&p);
}

/* TRIGGERING TRAITS: "In general, triggering !!! traits is required and
 * immediate. Understand that it is possible to have to discard your own
 * Monster that you just played, if there are no other valid Monsters to
 * discard." Cinder Whelp's BURN a Monster with no other Monster in play
 * BURNs the Whelp itself; with Kiln Toad beside it, the choice is between
 * Player 1's own two, and no answer skips it. */
static void test_triggering_immediate_burn_is_required(void **unused) {
  (void)unused;
  for (int with_toad = 0; with_toad < 2; with_toad++) {
    dis_pos p;
    dp_new(&p, 1, "emberwick", "hollow_regent", "tidewrack", "baron_thrale");
    dp_put(&p, P1, "hollow_regent", DIS_Z_VROW);
    int whelp = dp_put(&p, P1, "cinder_whelp", DIS_Z_HAND);
    dp_put(&p, P1, "wick_serpent", DIS_Z_HAND);
    int toad = with_toad ? dp_put(&p, P1, "kiln_toad", DIS_Z_MROW) : -1;
    dp_put(&p, P2, "baron_thrale", DIS_Z_VROW);
    dp_finish(&p, 3, P1);
    eng_game *g = p.g;
    dis_state *s = p.s;
    answer(g, P1, "play.c%d", whelp);
    answer(g, P2, "pass");
    if (with_toad) {
      expect_options(g, P1, "pick.c%d pick.c%d", whelp, toad);
      answer(g, P1, "pick.c%d", toad);
      expect_zone(s, toad, DIS_Z_DISCARD, P1);
    } else {
      expect_told("BURNs Cinder Whelp");
      expect_zone(s, whelp, DIS_Z_DISCARD, P1);
    }
    dp_free(&p);
  }
}

/* TRIGGERING TRAITS and INTERRUPTIONS: "There is potential for triggers to
 * happen from both players on any given turn." (docs: "Several traits at
 * one moment ... the opponent's go on the chain first and the active
 * player's on top ... No one is asked to order them"). Velvet Tyrant
 * Played on turn 5 sets off its own !!! BOUNCE of a Villain and Player 2's
 * Saltmarrow Duke ("When your opponent Plays a Villain: BOUNCE it"): the
 * Tyrant's resolves first and BOUNCEs the Duke, whose entry still
 * resolves and BOUNCEs the Tyrant. */
static void test_interruptions_simultaneous_traits_on_a_play(void **unused) {
  (void)unused;
  dis_pos p;
  dp_new(&p, 1, "emberwick", "hollow_regent velvet_tyrant", "tidewrack",
         "saltmarrow_duke");
  dp_put(&p, P1, "hollow_regent", DIS_Z_VROW);
  int tyrant = dp_put(&p, P1, "velvet_tyrant", DIS_Z_HAND);
  dp_put(&p, P1, "kiln_toad", DIS_Z_HAND);
  int duke = dp_put(&p, P2, "saltmarrow_duke", DIS_Z_VROW);
  dp_finish(&p, 5, P1);
  eng_game *g = p.g;
  dis_state *s = p.s;
  answer(g, P1, "play.c%d", tyrant);
  assert_int_equal(s->n_chain, 2);
  assert_int_equal(s->chain[0].card, duke);
  assert_int_equal(s->chain[1].card, tyrant);
  assert_true(s->win_trait); /* the window answers the Tyrant's, on top */
  answer(g, P2, "pass");
  int a = expect_told("BOUNCEs The Saltmarrow Duke");
  int b = expect_told("BOUNCEs The Velvet Tyrant");
  assert_true(a < b);
  expect_zone(s, duke, DIS_Z_HAND, P2);
  expect_zone(s, tyrant, DIS_Z_HAND, P1);
  dp_free(&p);
}

/* MINTING A VILLAIN, after a first mint (docs: "the 👤 traits it sets off
 * and the opponent's ⏳ 'when your opponent mints' traits go on the
 * chain", in the order: the opponent's first, then the minter's Villain
 * row, ..., the Monsters just discarded to mint, the Villain just minted;
 * the opponent has a window). Minting Velvet Tyrant (AABB) with Kiln Toad
 * among the four, The Clockless Prophet in the Villain row and Player 2's
 * Sister Nettlebane in play. */
static void test_minting_traits_after_a_mint(void **unused) {
  (void)unused;
  dis_pos p;
  dp_new(&p, 1, "emberwick", "velvet_tyrant clockless_prophet", "tidewrack",
         "sister_nettlebane");
  int tyrant = dp_put(&p, P1, "velvet_tyrant", DIS_Z_VROW);
  int prophet = dp_put(&p, P1, "clockless_prophet", DIS_Z_VROW);
  int toad = dp_put(&p, P1, "kiln_toad", DIS_Z_MROW);
  dp_put(&p, P1, "cinder_whelp", DIS_Z_MROW);
  dp_put(&p, P1, "brazier_hound", DIS_Z_MROW);
  dp_put(&p, P1, "charcoal_imp", DIS_Z_MROW);
  dp_put(&p, P1, "wick_serpent", DIS_Z_HAND);
  int nettle = dp_put(&p, P2, "sister_nettlebane", DIS_Z_VROW);
  dp_finish(&p, 5, P1);
  eng_game *g = p.g;
  dis_state *s = p.s;
  answer(g, P1, "mint.c%d", tyrant);
  assert_int_equal(s->n_chain, 4);
  assert_int_equal(s->chain[0].card, nettle);
  assert_int_equal(s->chain[0].ctrl, P2);
  assert_int_equal(s->chain[1].card, prophet);
  assert_int_equal(s->chain[2].card, toad);
  assert_int_equal(s->chain[3].card, tyrant);
  for (int k = 1; k < 4; k++)
    assert_int_equal(s->chain[k].ctrl, P1);
  assert_int_equal(g->prompt.player, P2);
  assert_true(s->win_trait);
  assert_int_equal(s->used[tyrant] + s->used[prophet] + s->used[nettle], 3);
  assert_int_equal(s->used[toad], 0); /* in the discard pile: no mark */
  dp_free(&p);
}

/* ---- INTERRUPTIONS ---------------------------------------------------- */

/* INTERRUPTIONS: "When playing cards, allow for a few seconds to give your
 * opponent a chance to interrupt with a 🧠 trait if applicable." (docs:
 * "A window whose only option is pass is asked like any other"): Player 2
 * holds no 🧠 trait, and still the Play waits for their pass, which the
 * table is told. */
static void test_interruptions_window_asked_with_only_pass(void **unused) {
  (void)unused;
  dis_pos p;
  dp_new(&p, 1, "emberwick", "hollow_regent", "tidewrack", "baron_thrale");
  dp_put(&p, P1, "hollow_regent", DIS_Z_VROW);
  int toad = dp_put(&p, P1, "kiln_toad", DIS_Z_HAND);
  dp_put(&p, P1, "ember_lynx", DIS_Z_HAND);
  dp_put(&p, P2, "baron_thrale", DIS_Z_VROW);
  dp_put(&p, P2, "kelp_wraith", DIS_Z_MROW);
  dp_finish(&p, 3, P1);
  eng_game *g = p.g;
  dis_state *s = p.s;
  answer(g, P1, "play.c%d", toad);
  expect_options(g, P2, "%s", "pass");
  assert_int_equal(s->phase, DIS_PH_WINDOW);
  assert_int_equal(dis_pass_option(s, &g->prompt), 0);
  char q[ENG_QUESTION_MAX];
  g->rs->question(s, &g->prompt, q, sizeof q);
  assert_string_equal(q, "Villain 1 Played Kiln Toad. Interrupt with a 🧠 "
                         "trait, or pass?");
  answer(g, P2, "pass");
  expect_told("Villain 2 passed.");
  assert_int_equal(s->turn, 4); /* nothing else to do: the turn ended */
  dp_free(&p);
}

/* INTERRUPTIONS: "Playing a card with FLIP, then you can trigger DROP,
 * then Mint (discard all 4 Monsters to Mint), and if there are no further
 * interruptions - you will finish carrying out FLIP." The example as the
 * docs' "The chain" plays it: Pyre Beetle's FLIP [1], Soot Gremlin's DROP
 * [2] DROPs Scorchwing as the fourth Monster, the mint of The Hollow
 * Regent (AACC for AAxx) discards the four, and [1] then finds no Monster
 * of Player 1's to give and does nothing. */
static void test_interruptions_flip_drop_mint(void **unused) {
  (void)unused;
  dis_pos p;
  dp_new(&p, 1, "emberwick", "hollow_regent", "tidewrack", "baron_thrale");
  int regent = dp_put(&p, P1, "hollow_regent", DIS_Z_VROW);
  int gremlin = dp_put(&p, P1, "soot_gremlin", DIS_Z_MROW);
  int whelp = dp_put(&p, P1, "cinder_whelp", DIS_Z_MROW);
  int beetle = dp_put(&p, P1, "pyre_beetle", DIS_Z_HAND);
  int scorch = dp_put(&p, P1, "scorchwing", DIS_Z_HAND);
  dp_put(&p, P2, "baron_thrale", DIS_Z_VROW);
  int wraith = dp_put(&p, P2, "kelp_wraith", DIS_Z_MROW);
  dp_finish(&p, 5, P1);
  eng_game *g = p.g;
  dis_state *s = p.s;
  answer(g, P1, "play.c%d", beetle);
  assert_int_equal(s->n_chain, 1);
  answer(g, P2, "pass");
  expect_options(g, P1, "trait.c%d resolve", gremlin);
  answer(g, P1, "trait.c%d", gremlin);
  assert_int_equal(s->n_chain, 2);
  answer(g, P2, "pass");
  /* [2] resolved by itself (one answer): Scorchwing DROPped; a window */
  expect_told("DROPs Scorchwing");
  expect_zone(s, scorch, DIS_Z_MROW, P1);
  assert_int_equal(s->n_chain, 1);
  assert_int_equal(s->chain[0].card, beetle);
  answer(g, P2, "pass");
  expect_options(g, P1, "mint.c%d resolve", regent);
  answer(g, P1, "mint.c%d", regent);
  int gone[4] = {gremlin, whelp, beetle, scorch};
  for (int k = 0; k < 4; k++)
    expect_zone(s, gone[k], DIS_Z_DISCARD, P1);
  expect_zone(s, regent, DIS_Z_MINTED, P1);
  assert_int_equal(s->n_chain, 1);
  answer(g, P2, "pass");
  expect_told("Pyre Beetle's !!! FLIP resolves");
  expect_told("finds no Monster of its controller's to give");
  expect_zone(s, wraith, DIS_Z_MROW, P2);
  assert_int_equal(s->n_minted[P1], 1);
  dp_free(&p);
}

/* The position of the NEGATE chains (docs, "The chain"): Player 1
 * (Emberwick) with Furnace Ox in play and Cinder Whelp in hand; Player 2
 * (Tidewrack) with The Gutterglass King and Barnacle Crab, and in a COPY
 * variant Reef Basilisk in the King's place. */
typedef struct negate_pos {
  dis_pos p;
  int whelp, ox, crab, king, basilisk;
} negate_pos;

static void negate_position(negate_pos *n, bool basilisk) {
  dis_pos *p = &n->p;
  dp_new(p, 1, "emberwick", "hollow_regent", "tidewrack",
         basilisk ? "baron_thrale" : "gutterglass_king");
  dp_put(p, P1, "hollow_regent", DIS_Z_VROW);
  n->whelp = dp_put(p, P1, "cinder_whelp", DIS_Z_HAND);
  dp_put(p, P1, "kiln_toad", DIS_Z_HAND);
  n->ox = dp_put(p, P1, "furnace_ox", DIS_Z_MROW);
  n->king =
      dp_put(p, P2, basilisk ? "baron_thrale" : "gutterglass_king", DIS_Z_VROW);
  n->crab = dp_put(p, P2, "barnacle_crab", DIS_Z_MROW);
  n->basilisk = basilisk ? dp_put(p, P2, "reef_basilisk", DIS_Z_MROW) : -1;
  dp_finish(p, 5, P1);
}

/* INTERRUPTIONS: "Such as being able to NEGATE your opponent's NEGATE!"
 * and "In a chain of triggers, make sure you resolve the newest played
 * traits before working your way back to the original one." Four deep:
 * Cinder Whelp's BURN [1], Barnacle Crab's 🧠 NEGATE [2], Furnace Ox's ⏳
 * NEGATE [3], The Gutterglass King's 🧠 NEGATE [4]: [4] cancels [3], [2]
 * cancels [1], the BURN never happens. */
static void test_interruptions_negate_a_negate_four_deep(void **unused) {
  (void)unused;
  negate_pos n;
  negate_position(&n, false);
  eng_game *g = n.p.g;
  dis_state *s = n.p.s;
  answer(g, P1, "play.c%d", n.whelp);
  expect_options(g, P2, "int.c%d int.c%d pass", n.crab, n.king);
  answer(g, P2, "int.c%d", n.crab);
  expect_options(g, P1, "trait.c%d resolve", n.ox);
  answer(g, P1, "trait.c%d", n.ox);
  assert_int_equal(s->n_chain, 3);
  expect_options(g, P2, "int.c%d pass", n.king);
  answer(g, P2, "int.c%d", n.king);
  expect_told("(chain: 4).");
  int a = expect_told("Villain 1's Furnace Ox's ⏳ NEGATE");
  int b = expect_told("Villain 1's Cinder Whelp's !!! BURN");
  assert_true(a < b);
  assert_int_equal(told_at("BURNs"), -1);
  assert_int_equal(s->n_chain, 0);
  assert_int_equal(s->n_discard[P1] + s->n_discard[P2], 0);
  expect_zone(s, n.whelp, DIS_Z_MROW, P1);
  /* every trait stays used; nothing was left to do: Player 2's turn */
  assert_int_equal(s->used[n.ox] + s->used[n.crab] + s->used[n.king], 3);
  assert_int_equal(s->turn, 6);
  dp_free(&n.p);
}

/* INTERRUPTIONS, the other outcome: three deep, Player 2 passes at the
 * second window: [3] cancels [2], then [1] BURNs (Player 1 chooses the
 * Crab). */
static void test_interruptions_negate_a_negate_three_deep(void **unused) {
  (void)unused;
  negate_pos n;
  negate_position(&n, false);
  eng_game *g = n.p.g;
  dis_state *s = n.p.s;
  answer(g, P1, "play.c%d", n.whelp);
  answer(g, P2, "int.c%d", n.crab);
  answer(g, P1, "trait.c%d", n.ox);
  answer(g, P2, "pass");
  int a = expect_told("Villain 2's Barnacle Crab's 🧠 NEGATE");
  int b = expect_told("Cinder Whelp's !!! BURN resolves");
  assert_true(a < b);
  expect_options(g, P1, "pick.c%d pick.c%d pick.c%d", n.whelp, n.ox, n.crab);
  answer(g, P1, "pick.c%d", n.crab);
  expect_zone(s, n.crab, DIS_Z_DISCARD, P2);
  assert_int_equal(s->n_chain, 0);
  dp_free(&n.p);
}

/* INTERRUPTIONS: "unless the text calls for a cancelation of traits, an
 * interruption does not make a recently triggered trait somehow
 * canceled." Brazier Hound's !!! BOUNCE [1]; Player 2's Drift Jelly
 * BOUNCEs the Hound back to hand [2]; [1] still resolves and BOUNCEs one
 * of Player 2's Monsters. */
static void
test_interruptions_no_cancel_when_the_card_left_play(void **unused) {
  (void)unused;
  dis_pos p;
  dp_new(&p, 1, "emberwick", "hollow_regent", "tidewrack", "baron_thrale");
  dp_put(&p, P1, "hollow_regent", DIS_Z_VROW);
  int hound = dp_put(&p, P1, "brazier_hound", DIS_Z_HAND);
  dp_put(&p, P1, "kiln_toad", DIS_Z_HAND);
  dp_put(&p, P2, "baron_thrale", DIS_Z_VROW);
  int jelly = dp_put(&p, P2, "drift_jelly", DIS_Z_MROW);
  int wraith = dp_put(&p, P2, "kelp_wraith", DIS_Z_MROW);
  dp_finish(&p, 3, P1);
  eng_game *g = p.g;
  dis_state *s = p.s;
  answer(g, P1, "play.c%d", hound);
  expect_options(g, P2, "int.c%d pass", jelly);
  answer(g, P2, "int.c%d", jelly);
  /* [2] resolved by itself: the Hound is back in hand */
  expect_zone(s, hound, DIS_Z_HAND, P1);
  expect_options(g, P1, "pick.c%d pick.c%d", jelly, wraith);
  answer(g, P1, "pick.c%d", wraith);
  expect_zone(s, wraith, DIS_Z_HAND, P2);
  dp_free(&p);
}

/* INTERRUPTIONS: "If a Monster that had previously triggered a 🧠 trait
 * somehow leaves in-play and returns, it is placed upright with a fresh
 * available 🧠". Player 2's used Ashen Moth is not offered; BOUNCEd by
 * Brazier Hound and Played again, it is offered in Player 1's next turn. */
static void
test_interruptions_fresh_interrupt_after_leaving_play(void **unused) {
  (void)unused;
  dis_pos p;
  dp_new(&p, 1, "emberwick", "hollow_regent", "emberwick", "baron_thrale");
  dp_put(&p, P1, "hollow_regent", DIS_Z_VROW);
  int hound = dp_put(&p, P1, "brazier_hound", DIS_Z_HAND);
  dp_put(&p, P1, "kiln_toad", DIS_Z_HAND);
  int whelp = dp_put(&p, P1, "cinder_whelp", DIS_Z_DECK); /* turn 5 */
  dp_put(&p, P2, "baron_thrale", DIS_Z_VROW);
  int moth = dp_put(&p, P2, "ashen_moth", DIS_Z_MROW);
  p.s->used[moth] = 1;
  dp_put(&p, P2, "wick_serpent", DIS_Z_DECK); /* turn 4 */
  dp_finish(&p, 3, P1);
  eng_game *g = p.g;
  dis_state *s = p.s;
  answer(g, P1, "play.c%d", hound);
  expect_options(g, P2, "%s", "pass"); /* used */
  answer(g, P2, "pass");
  expect_zone(s, moth, DIS_Z_HAND, P2);
  assert_int_equal(s->used[moth], 0);
  assert_int_equal(s->turn, 4);
  answer(g, P2, "play.c%d", moth);
  answer(g, P1, "pass");
  assert_int_equal(s->turn, 5);
  answer(g, P1, "play.c%d", whelp);
  expect_options(g, P2, "int.c%d pass", moth);
  dp_free(&p);
}

/* ---- Keywords (docs: "Keywords") ---------------------------------------- */

/* BOUNCE: "Choose a card in play that fits the trait's filter; it goes
 * back to its owner's hand, its used mark cleared." Brazier Hound BOUNCEs
 * one of Player 2's Monsters: the choice is among the Monsters on Player
 * 2's side, one of them Player 1's own FLIPped Soot Gremlin, which goes
 * back to Player 1's hand. */
static void test_keyword_bounce(void **unused) {
  (void)unused;
  dis_pos p;
  dp_new(&p, 1, "emberwick", "hollow_regent", "tidewrack", "baron_thrale");
  dp_put(&p, P1, "hollow_regent", DIS_Z_VROW);
  int hound = dp_put(&p, P1, "brazier_hound", DIS_Z_HAND);
  dp_put(&p, P1, "kiln_toad", DIS_Z_HAND);
  int gremlin = dp_put_side(&p, P1, "soot_gremlin", DIS_Z_MROW, P2);
  p.s->used[gremlin] = 1;
  dp_put(&p, P2, "baron_thrale", DIS_Z_VROW);
  int wraith = dp_put(&p, P2, "kelp_wraith", DIS_Z_MROW);
  dp_finish(&p, 3, P1);
  eng_game *g = p.g;
  dis_state *s = p.s;
  answer(g, P1, "play.c%d", hound);
  answer(g, P2, "pass");
  expect_options(g, P1, "pick.c%d pick.c%d", gremlin, wraith);
  answer(g, P1, "pick.c%d", gremlin);
  expect_told("BOUNCEs Soot Gremlin");
  expect_zone(s, gremlin, DIS_Z_HAND, P1);
  assert_int_equal(s->used[gremlin], 0);
  assert_int_equal(s->n_mrow[P2], 1);
  dp_free(&p);
}

/* BURN: "Choose a card in play that fits; it goes to its owner's discard
 * pile". Ember Lynx's ⏳ BURNs one of Player 2's Monsters, Player 1's
 * choice. */
static void test_keyword_burn(void **unused) {
  (void)unused;
  dis_pos p;
  dp_new(&p, 1, "emberwick", "hollow_regent", "tidewrack", "baron_thrale");
  dp_put(&p, P1, "hollow_regent", DIS_Z_VROW);
  int lynx = dp_put(&p, P1, "ember_lynx", DIS_Z_MROW);
  dp_put(&p, P2, "baron_thrale", DIS_Z_VROW);
  int wraith = dp_put(&p, P2, "kelp_wraith", DIS_Z_MROW);
  int sprite = dp_put(&p, P2, "foam_sprite", DIS_Z_MROW);
  dp_finish(&p, 3, P1);
  played(&p);
  eng_game *g = p.g;
  dis_state *s = p.s;
  answer(g, P1, "trait.c%d", lynx);
  answer(g, P2, "pass");
  expect_options(g, P1, "pick.c%d pick.c%d", wraith, sprite);
  answer(g, P1, "pick.c%d", sprite);
  expect_zone(s, sprite, DIS_Z_DISCARD, P2);
  assert_int_equal(s->discard[P2][s->n_discard[P2] - 1], sprite);
  assert_int_equal(s->used[lynx], 1);
  dp_free(&p);
}

/* FLIP: "Choose a Monster on the opponent's side that fits, then one of
 * your Monsters: they change sides (each keeps its owner, used mark and
 * traits) ... The Monster rows keep their sizes". Undertow Hag takes
 * Player 1's used Ashen Moth and gives Coral Maw; the Moth counts for
 * Player 2 at once: their row now mints Mother Brinewhistle (BBAA). */
static void test_keyword_flip(void **unused) {
  (void)unused;
  dis_pos p;
  dp_new(&p, 1, "emberwick", "hollow_regent", "tidewrack",
         "mother_brinewhistle");
  dp_put(&p, P1, "hollow_regent", DIS_Z_VROW);
  int whelp = dp_put(&p, P1, "cinder_whelp", DIS_Z_MROW);
  int moth = dp_put(&p, P1, "ashen_moth", DIS_Z_MROW);
  p.s->used[moth] = 1;
  int mother = dp_put(&p, P2, "mother_brinewhistle", DIS_Z_VROW);
  int hag = dp_put(&p, P2, "undertow_hag", DIS_Z_MROW);
  int eel = dp_put(&p, P2, "silt_eel", DIS_Z_MROW);
  int harpy = dp_put(&p, P2, "gull_harpy", DIS_Z_MROW);
  int maw = dp_put(&p, P2, "coral_maw", DIS_Z_MROW);
  dp_finish(&p, 4, P2);
  played(&p);
  eng_game *g = p.g;
  dis_state *s = p.s;
  assert_false(offered(g, "mint.c%d", mother));
  answer(g, P2, "trait.c%d", hag);
  answer(g, P1, "pass");
  expect_options(g, P2, "pick.c%d pick.c%d", whelp, moth);
  answer(g, P2, "pick.c%d", moth);
  expect_options(g, P2, "pick.c%d pick.c%d pick.c%d pick.c%d", hag, eel, harpy,
                 maw);
  answer(g, P2, "pick.c%d", maw);
  expect_told("FLIPs");
  expect_zone(s, moth, DIS_Z_MROW, P2);
  expect_zone(s, maw, DIS_Z_MROW, P1);
  assert_int_equal(s->mrow[P2][3], moth);
  assert_int_equal(s->mrow[P1][1], maw);
  assert_int_equal(s->n_mrow[P1], 2);
  assert_int_equal(s->n_mrow[P2], 4);
  assert_int_equal(dis_owner(moth), P1);
  assert_int_equal(s->used[moth], 1);
  assert_int_equal(s->entered[moth], -1); /* not put into play by the FLIP */
  expect_options(g, P2, "mint.c%d end", mother);
  dp_free(&p);
}

/* COPY: "Choose another card in play that fits and one of its traits that
 * is not ♾ and not a COPY; carry out what that trait does as this trait's
 * own, choices yours ... The copied card is not marked." Quillon Vex
 * COPYs Player 2's Kelp Wraith's ⏳ DROP: Player 1 DROPs from their own
 * hand, and the Wraith stays unused. Foam Sprite's ♾ is not offered. "A
 * 🧠 COPY that answers a trait copies the trait it answered (nothing, if
 * that trait is a COPY)": Smoulder Crow answering Quillon Vex. */
static void test_keyword_copy(void **unused) {
  (void)unused;
  dis_pos p;
  dp_new(&p, 1, "emberwick", "quillon_vex", "tidewrack", "mother_brinewhistle");
  int vex = dp_put(&p, P1, "quillon_vex", DIS_Z_VROW);
  int hound = dp_put(&p, P1, "brazier_hound", DIS_Z_MROW);
  int toad = dp_put(&p, P1, "kiln_toad", DIS_Z_HAND);
  int mother = dp_put(&p, P2, "mother_brinewhistle", DIS_Z_VROW);
  int wraith = dp_put(&p, P2, "kelp_wraith", DIS_Z_MROW);
  int sprite = dp_put(&p, P2, "foam_sprite", DIS_Z_MROW);
  dp_put(&p, P2, "gull_harpy", DIS_Z_HAND);
  dp_finish(&p, 3, P1);
  played(&p);
  eng_game *g = p.g;
  dis_state *s = p.s;
  answer(g, P1, "trait.c%d", vex);
  answer(g, P2, "pass");
  expect_options(g, P1, "copy.c%d.1 copy.c%d.1 copy.c%d.1 copy.c%d.2", hound,
                 wraith, mother, mother);
  assert_false(offered(g, "copy.c%d.1", sprite));
  answer(g, P1, "copy.c%d.1", wraith);
  expect_zone(s, toad, DIS_Z_MROW, P1);
  assert_int_equal(s->used[wraith], 0);
  assert_int_equal(s->used[vex], 1);
  assert_int_equal(g->prompt.player, P2); /* the DROP's window */
  dp_free(&p);

  /* a 🧠 COPY answering a COPY carries out nothing */
  dp_new(&p, 1, "emberwick", "quillon_vex", "emberwick", "baron_thrale");
  vex = dp_put(&p, P1, "quillon_vex", DIS_Z_VROW);
  hound = dp_put(&p, P1, "brazier_hound", DIS_Z_MROW);
  int baron = dp_put(&p, P2, "baron_thrale", DIS_Z_VROW);
  int crow = dp_put(&p, P2, "smoulder_crow", DIS_Z_MROW);
  int toad2 = dp_put(&p, P2, "kiln_toad", DIS_Z_MROW);
  dp_finish(&p, 3, P1);
  played(&p);
  g = p.g;
  s = p.s;
  answer(g, P1, "trait.c%d", vex);
  answer(g, P2, "int.c%d", crow);
  expect_told("Smoulder Crow's 🧠 COPY cannot COPY a COPY");
  assert_int_equal(s->n_chain, 0); /* Quillon Vex's COPY now resolving */
  expect_options(g, P1, "copy.c%d.1 copy.c%d.1 copy.c%d.1", hound, baron,
                 toad2);
  dp_free(&p);
}

/* discard (docs: "Your opponent discards n cards of their choice from
 * their hand (all of them if they hold fewer)"): Charcoal Imp's !!! makes
 * Player 2 choose one of their two cards; the table is told which. */
static void test_keyword_discard(void **unused) {
  (void)unused;
  dis_pos p;
  dp_new(&p, 1, "emberwick", "hollow_regent", "tidewrack", "baron_thrale");
  dp_put(&p, P1, "hollow_regent", DIS_Z_VROW);
  int imp = dp_put(&p, P1, "charcoal_imp", DIS_Z_HAND);
  dp_put(&p, P1, "kiln_toad", DIS_Z_HAND);
  dp_put(&p, P2, "baron_thrale", DIS_Z_VROW);
  int eel = dp_put(&p, P2, "silt_eel", DIS_Z_HAND);
  int sprite = dp_put(&p, P2, "foam_sprite", DIS_Z_HAND);
  dp_finish(&p, 3, P1);
  eng_game *g = p.g;
  dis_state *s = p.s;
  answer(g, P1, "play.c%d", imp);
  answer(g, P2, "pass");
  expect_options(g, P2, "pick.c%d pick.c%d", eel, sprite);
  answer(g, P2, "pick.c%d", sprite);
  expect_told("Villain 2 discards Foam Sprite");
  expect_zone(s, sprite, DIS_Z_DISCARD, P2);
  expect_zone(s, eel, DIS_Z_HAND, P2);
  dp_free(&p);
}

/* COPY (docs: "'It' in a copied trait is this COPY's subject card (for a
 * 🧠 COPY, the card whose trait it answered); without one that part does
 * nothing", and Traits: the subject is "the card that was Played or put
 * into play for a trait that answers one, or the trait answered for a 🧠
 * trait that answers a trait"). Hush Owlet's !!! COPY answers nothing, so
 * a copied "BURN it" (Scorchwing's) has no "it" and BURNs nothing: not
 * the Owlet itself. */
static void test_keyword_copy_without_a_subject(void **unused) {
  (void)unused;
  dis_pos p;
  dp_new(&p, 1, "thornmind", "hollow_regent", "emberwick", "baron_thrale");
  dp_put(&p, P1, "hollow_regent", DIS_Z_VROW);
  int owlet = dp_put(&p, P1, "hush_owlet", DIS_Z_HAND);
  dp_put(&p, P1, "dream_weevil", DIS_Z_HAND);
  dp_put(&p, P2, "baron_thrale", DIS_Z_VROW);
  int scorch = dp_put(&p, P2, "scorchwing", DIS_Z_MROW);
  dp_put(&p, P2, "kiln_toad", DIS_Z_MROW);
  dp_finish(&p, 3, P1);
  eng_game *g = p.g;
  dis_state *s = p.s;
  answer(g, P1, "play.c%d", owlet);
  answer(g, P2, "pass");
  answer(g, P1, "copy.c%d.1", scorch);
  expect_told("finds no card it can act on");
  expect_zone(s, owlet, DIS_Z_MROW, P1);
  assert_int_equal(s->n_discard[P1] + s->n_discard[P2], 0);
  dp_free(&p);
}

/* COPY of a NEGATE (docs: "A 🧠 COPY that answers a trait copies the
 * trait it answered ... A copied NEGATE cancels the entry directly
 * beneath the COPY"): the four-deep chain with Reef Basilisk's 🧠 COPY of
 * Furnace Ox's NEGATE as [4]: it cancels [3], then [2] cancels [1]. */
static void test_keyword_copied_negate(void **unused) {
  (void)unused;
  negate_pos n;
  negate_position(&n, true);
  eng_game *g = n.p.g;
  dis_state *s = n.p.s;
  answer(g, P1, "play.c%d", n.whelp);
  answer(g, P2, "int.c%d", n.crab);
  answer(g, P1, "trait.c%d", n.ox);
  expect_options(g, P2, "int.c%d pass", n.basilisk);
  answer(g, P2, "int.c%d", n.basilisk);
  int a = expect_told("COPYs Furnace Ox's ⏳ NEGATE");
  int b = expect_told("Villain 1's Furnace Ox's ⏳ NEGATE");
  int c = expect_told("Villain 1's Cinder Whelp's !!! BURN");
  assert_true(a < b && b < c);
  assert_int_equal(s->n_chain, 0);
  assert_int_equal(s->n_discard[P1] + s->n_discard[P2], 0);
  dp_free(&n.p);
}

/* NEGATE: "Cancel the entry directly beneath this one ... A filter may
 * restrict which entries (by their card)." Pollen Drake NEGATEs only a
 * Monster's trait: not offered against The Hollow Regent's !!!, offered
 * against Cinder Whelp's. An "on your turn" NEGATE (Furnace Ox) is
 * offered only while the chain holds something to NEGATE. */
static void test_keyword_negate(void **unused) {
  (void)unused;
  for (int monster = 0; monster < 2; monster++) {
    dis_pos p;
    dp_new(&p, 1, "emberwick", "quillon_vex hollow_regent", "thornmind",
           "baron_thrale");
    dp_put(&p, P1, "quillon_vex", DIS_Z_VROW);
    int card = monster ? dp_put(&p, P1, "cinder_whelp", DIS_Z_HAND)
                       : dp_put(&p, P1, "hollow_regent", DIS_Z_HAND);
    dp_put(&p, P1, "kiln_toad", DIS_Z_HAND);
    int ox = dp_put(&p, P1, "furnace_ox", DIS_Z_MROW);
    dp_put(&p, P2, "baron_thrale", DIS_Z_VROW);
    int drake = dp_put(&p, P2, "pollen_drake", DIS_Z_MROW);
    dp_finish(&p, 3, P1);
    eng_game *g = p.g;
    dis_state *s = p.s;
    assert_false(offered(g, "trait.c%d", ox));
    answer(g, P1, "play.c%d", card);
    if (!monster) {
      expect_options(g, P2, "%s", "pass");
      dp_free(&p);
      continue;
    }
    expect_options(g, P2, "int.c%d pass", drake);
    answer(g, P2, "int.c%d", drake);
    assert_true(offered(g, "trait.c%d", ox));
    answer(g, P1, "resolve");
    expect_told("Villain 1's Cinder Whelp's !!! BURN");
    assert_int_equal(s->n_chain, 0);
    expect_zone(s, card, DIS_Z_MROW, P1);
    assert_int_equal(s->used[drake], 1);
    dp_free(&p);
  }
}

/* DROP: "Place a card from your hand to in-play, ignoring its !!! trait"
 * (GLOSSARY). Soot Gremlin's ⏳ DROP puts Cinder Whelp into play without
 * its BURN (a Villain in hand is not offered: "a Monster"); it is not the
 * turn's Play, which is still owed; and it opens a window in which
 * Player 2's Scorchwing may answer the card put into play. */
static void test_keyword_drop(void **unused) {
  (void)unused;
  dis_pos p;
  dp_new(&p, 1, "emberwick", "hollow_regent velvet_tyrant quillon_vex",
         "emberwick", "baron_thrale");
  dp_put(&p, P1, "hollow_regent", DIS_Z_VROW);
  int gremlin = dp_put(&p, P1, "soot_gremlin", DIS_Z_MROW);
  int whelp = dp_put(&p, P1, "cinder_whelp", DIS_Z_HAND);
  int tyrant = dp_put(&p, P1, "velvet_tyrant", DIS_Z_HAND);
  int vex = dp_put(&p, P1, "quillon_vex", DIS_Z_HAND);
  dp_put(&p, P2, "baron_thrale", DIS_Z_VROW);
  int scorch = dp_put(&p, P2, "scorchwing", DIS_Z_MROW);
  dp_finish(&p, 3, P1);
  eng_game *g = p.g;
  dis_state *s = p.s;
  answer(g, P1, "trait.c%d", gremlin);
  expect_options(g, P2, "%s", "pass"); /* Scorchwing answers a card only */
  answer(g, P2, "pass");
  expect_told("Villain 1 DROPs Cinder Whelp");
  expect_zone(s, whelp, DIS_Z_MROW, P1);
  assert_int_equal(s->n_chain, 0);
  assert_int_equal(s->entered[whelp], 3);
  assert_false(s->played);
  expect_options(g, P2, "int.c%d pass", scorch);
  answer(g, P2, "pass");
  expect_options(g, P1, "play.c%d play.c%d", tyrant, vex);
  dp_free(&p);
}

/* ward (docs: "Cards in your play area that fit cannot be chosen by your
 * opponent's BURN, BOUNCE or FLIP ... copies carried out by your opponent
 * included; with negate, your opponent's NEGATE does nothing to an entry
 * whose card is then in your play area and fits"). Clinker Golem keeps
 * Player 2's Red Cinder Whelp out of Ember Lynx's BURN; Deepcoil Kraken
 * keeps the Blue Barnacle Crab out of a BOUNCE Quillon Vex COPYs; Mycel
 * Hydra makes Furnace Ox's NEGATE of Thistle Wasp's NEGATE do nothing. */
static void test_keyword_ward(void **unused) {
  (void)unused;
  /* BURN */
  dis_pos p;
  dp_new(&p, 1, "emberwick", "hollow_regent", "emberwick", "baron_thrale");
  dp_put(&p, P1, "hollow_regent", DIS_Z_VROW);
  int lynx = dp_put(&p, P1, "ember_lynx", DIS_Z_MROW);
  dp_put(&p, P2, "baron_thrale", DIS_Z_VROW);
  int golem = dp_put(&p, P2, "clinker_golem", DIS_Z_MROW);
  int whelp = dp_put(&p, P2, "cinder_whelp", DIS_Z_MROW);
  int toad = dp_put(&p, P2, "kiln_toad", DIS_Z_MROW);
  dp_finish(&p, 3, P1);
  played(&p);
  eng_game *g = p.g;
  answer(g, P1, "trait.c%d", lynx);
  answer(g, P2, "pass");
  expect_options(g, P1, "pick.c%d pick.c%d", golem, toad);
  assert_int_equal(p.s->zone[whelp], DIS_Z_MROW);
  dp_free(&p);

  /* a copied BOUNCE */
  dp_new(&p, 1, "emberwick", "quillon_vex", "tidewrack", "baron_thrale");
  int vex = dp_put(&p, P1, "quillon_vex", DIS_Z_VROW);
  int hound = dp_put(&p, P1, "brazier_hound", DIS_Z_MROW);
  dp_put(&p, P2, "baron_thrale", DIS_Z_VROW);
  int kraken = dp_put(&p, P2, "deepcoil_kraken", DIS_Z_MROW);
  int crab = dp_put(&p, P2, "barnacle_crab", DIS_Z_MROW);
  int wraith = dp_put(&p, P2, "kelp_wraith", DIS_Z_MROW);
  dp_finish(&p, 3, P1);
  played(&p);
  g = p.g;
  answer(g, P1, "trait.c%d", vex);
  answer(g, P2, "pass");
  answer(g, P1, "copy.c%d.1", hound);
  expect_options(g, P1, "pick.c%d pick.c%d", kraken, wraith);
  assert_int_equal(p.s->zone[crab], DIS_Z_MROW);
  dp_free(&p);

  /* NEGATE */
  dp_new(&p, 1, "emberwick", "hollow_regent", "thornmind", "baron_thrale");
  dp_put(&p, P1, "hollow_regent", DIS_Z_VROW);
  whelp = dp_put(&p, P1, "cinder_whelp", DIS_Z_HAND);
  dp_put(&p, P1, "kiln_toad", DIS_Z_HAND);
  int ox = dp_put(&p, P1, "furnace_ox", DIS_Z_MROW);
  dp_put(&p, P2, "baron_thrale", DIS_Z_VROW);
  dp_put(&p, P2, "mycel_hydra", DIS_Z_MROW);
  int wasp = dp_put(&p, P2, "thistle_wasp", DIS_Z_MROW);
  dp_finish(&p, 3, P1);
  g = p.g;
  dis_state *s = p.s;
  answer(g, P1, "play.c%d", whelp);
  answer(g, P2, "int.c%d", wasp);
  answer(g, P1, "trait.c%d", ox);
  answer(g, P2, "pass");
  int a = expect_told("cannot NEGATE a warded card's trait");
  int b = expect_told("Villain 1's Cinder Whelp's !!! BURN");
  assert_true(a < b);
  assert_int_equal(s->n_chain, 0);
  assert_int_equal(s->n_discard[P1] + s->n_discard[P2], 0);
  dp_free(&p);
}

/* ---- Privacy (docs: "Interrupt windows and privacy") --------------------- */

/* One position in two copies that differ only in Player 2's hand: Ashen
 * Moth (a Monster their Smoulder Crow's 🧠 COPY of Soot Gremlin's DROP
 * could put into play) or a Villain in its place. */
static void privacy_position(dis_pos *p, bool monster) {
  dp_new(p, 1, "emberwick", "hollow_regent", "emberwick",
         "clockless_prophet velvet_tyrant baron_thrale");
  dp_put(p, P1, "hollow_regent", DIS_Z_VROW);
  dp_put(p, P1, "soot_gremlin", DIS_Z_MROW);
  dp_put(p, P1, "kiln_toad", DIS_Z_HAND);
  dp_put(p, P1, "wick_serpent", DIS_Z_HAND);
  dp_put(p, P2, "clockless_prophet", DIS_Z_VROW);
  dp_put(p, P2, "smoulder_crow", DIS_Z_MROW);
  dp_put(p, P2, monster ? "ashen_moth" : "baron_thrale", DIS_Z_HAND);
  dp_put(p, P2, "velvet_tyrant", DIS_Z_HAND);
  dp_finish(p, 3, P1);
  played(p);
}

/* The question, every option id and label, as one text. */
static void prompt_text(const eng_game *g, char *buf, size_t cap) {
  size_t len = (size_t)snprintf(buf, cap, "seat %d: ", g->prompt.player);
  g->rs->question(g->state, &g->prompt, buf + len, cap - len);
  len = strlen(buf);
  for (int k = 0; k < g->prompt.n && len < cap; k++) {
    char id[ENG_ID_MAX + 1], label[ENG_LABEL_MAX + 1];
    eng_game_option(g, k, id, label);
    len += (size_t)snprintf(buf + len, cap - len, " | %s %s", id, label);
  }
}

static char *view_text(const eng_game *g, int viewer) {
  json_t *v = g->rs->view(g->state, viewer);
  assert_non_null(v);
  char *t = json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS);
  json_decref(v);
  assert_non_null(t);
  return t;
}

/* Fails unless both games show the same: the prompt, the public lines of
 * their last answers (evs), the public view and Player 1's view. */
static void same_to_the_table(const eng_game *a, const eng_game *b,
                              const eng_events *ea, const eng_events *eb) {
  char pa[2048], pb[2048];
  prompt_text(a, pa, sizeof pa);
  prompt_text(b, pb, sizeof pb);
  assert_string_equal(pa, pb);
  char la[4096], lb[4096];
  eng_events_join(ea, -1, la, sizeof la);
  eng_events_join(eb, -1, lb, sizeof lb);
  assert_string_equal(la, lb);
  eng_events_join(ea, P1, la, sizeof la);
  eng_events_join(eb, P1, lb, sizeof lb);
  assert_string_equal(la, lb);
  for (int viewer = -1; viewer <= P1; viewer++) {
    char *va = view_text(a, viewer), *vb = view_text(b, viewer);
    assert_string_equal(va, vb);
    free(va);
    free(vb);
  }
}

/* INTERRUPTIONS: "When playing cards, allow for a few seconds to give your
 * opponent a chance to interrupt with a 🧠 trait if applicable." (docs:
 * "The options depend only on the table"): whether Player 2 holds a card
 * their 🧠 COPY of a DROP could use changes nothing the table or Player 1
 * sees: the same window, question, options, lines and views, and a pass
 * by the ruleset's pass option (what auto-pass answers) goes alike. */
static void test_privacy_window_depends_only_on_the_table(void **unused) {
  (void)unused;
  dis_pos a, b;
  privacy_position(&a, true);
  privacy_position(&b, false);
  assert_int_not_equal(a.s->def[a.s->hand[P2][0]], b.s->def[b.s->hand[P2][0]]);
  int gremlin = dp_card(&a, P1, "soot_gremlin");
  int crow = dp_card(&a, P2, "smoulder_crow");
  eng_events eb;
  answer(a.g, P1, "trait.c%d", gremlin);
  eng_events ea = ev;
  answer(b.g, P1, "trait.c%d", gremlin);
  eb = ev;
  expect_options(a.g, P2, "int.c%d pass", crow);
  same_to_the_table(a.g, b.g, &ea, &eb);

  int ia = dis_pass_option(a.s, &a.g->prompt);
  int ib = dis_pass_option(b.s, &b.g->prompt);
  assert_true(ia >= 0);
  assert_int_equal(ia, ib);
  assert_int_equal(eng_game_answer_index(a.g, ia, &ea), ENG_OK);
  assert_int_equal(eng_game_answer_index(b.g, ib, &eb), ENG_OK);
  same_to_the_table(a.g, b.g, &ea, &eb);
  dp_free(&a);
  dp_free(&b);

  /* Player 1's own ⏳ DROP is offered whatever their hand holds */
  dp_new(&a, 1, "emberwick", "hollow_regent velvet_tyrant baron_thrale",
         "emberwick", "clockless_prophet");
  dp_put(&a, P1, "hollow_regent", DIS_Z_VROW);
  gremlin = dp_put(&a, P1, "soot_gremlin", DIS_Z_MROW);
  dp_put(&a, P1, "velvet_tyrant", DIS_Z_HAND);
  dp_put(&a, P1, "baron_thrale", DIS_Z_HAND);
  dp_put(&a, P2, "clockless_prophet", DIS_Z_VROW);
  dp_finish(&a, 3, P1);
  played(&a);
  expect_options(a.g, P1, "trait.c%d end", gremlin);
  dp_free(&a);
}

/* ---- The end ---------------------------------------------------------- */

/* Both decks empty, each player with Soot Gremlin in play (so that every
 * turn asks something) and minted Villains as given. */
static void end_position(dis_pos *p, int minted1, int minted2) {
  dp_new(p, 1, "emberwick", "hollow_regent velvet_tyrant", "tidewrack",
         "baron_thrale gutterglass_king");
  dp_put(p, P1, "hollow_regent", DIS_Z_VROW);
  if (minted1)
    dp_put(p, P1, "velvet_tyrant", DIS_Z_MINTED);
  dp_put(p, P1, "soot_gremlin", DIS_Z_MROW);
  dp_put(p, P2, "baron_thrale", DIS_Z_VROW);
  if (minted2)
    dp_put(p, P2, "gutterglass_king", DIS_Z_MINTED);
  dp_put(p, P2, "kelp_wraith", DIS_Z_MROW);
  dp_rest(p, P1, DIS_Z_DISCARD);
  dp_rest(p, P2, DIS_Z_DISCARD);
  dp_finish(p, 20, P1);
}

/* WINNING & LOSING says nothing of a game without two mints; docs, "The
 * end": "At the end of the first turn that ends with both decks empty,
 * the last four turns begin: each player has two more turns, the next
 * player first. At the end of the fourth, the game ends." With one mint
 * against none, the one ahead wins (reason exhausted). */
static void test_end_last_four_turns_one_ahead_wins(void **unused) {
  (void)unused;
  dis_pos p;
  end_position(&p, 1, 0);
  eng_game *g = p.g;
  dis_state *s = p.s;
  answer(g, P1, "end");
  expect_told("Both decks are empty: each player has two more turns");
  assert_int_equal(s->last_left, 4);
  for (int k = 0; k < 4; k++) {
    assert_int_equal(s->turn, 21 + k);
    char want[64];
    snprintf(want, sizeof want, "(%d last turn%s left", 4 - k,
             4 - k == 1 ? "" : "s");
    expect_told(want);
    assert_int_equal(s->phase, DIS_PH_MAIN);
    answer(g, (k + 1) % 2, "end");
  }
  assert_int_equal(s->phase, DIS_PH_OVER);
  assert_int_equal(s->turn, 24);
  assert_int_equal(s->winner, P1);
  assert_string_equal(s->reason, "exhausted");
  expect_told("Villain 1 wins with 1 minted Villain.");
  eng_result r;
  eng_game_result(g, &r);
  assert_true(r.over);
  assert_int_equal(r.winners, 1u << P1);
  assert_string_equal(r.reason, "exhausted");
  dp_free(&p);
}

/* docs, "The end": "with as many, the game is a draw, nobody wins
 * (reason exhausted_draw)": one mint each. */
static void test_end_level_is_a_draw(void **unused) {
  (void)unused;
  dis_pos p;
  end_position(&p, 1, 1);
  eng_game *g = p.g;
  dis_state *s = p.s;
  answer(g, P1, "end");
  for (int k = 0; k < 4; k++)
    answer(g, (k + 1) % 2, "end");
  assert_int_equal(s->phase, DIS_PH_OVER);
  assert_int_equal(s->winner, DIS_NONE);
  assert_string_equal(s->reason, "exhausted_draw");
  expect_told("a draw, 1 minted Villain each");
  eng_result r;
  eng_game_result(g, &r);
  assert_true(r.over);
  assert_int_equal(r.winners, 0);
  assert_string_equal(r.reason, "exhausted_draw");
  dp_free(&p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_setup_decks_and_starting_villain),
      cmocka_unit_test(test_setup_draft_order),
      cmocka_unit_test(test_gameplay_rps_start_or_defer),
      cmocka_unit_test(test_gameplay_rps_skipped_with_a_configured_first),
      cmocka_unit_test(test_gameplay_first_play_without_its_trait),
      cmocka_unit_test(test_gameplay_both_steps_are_required),
      cmocka_unit_test(test_gameplay_empty_deck_draws_nothing),
      cmocka_unit_test(test_gameplay_board_limit_makes_room),
      cmocka_unit_test(test_minting_bbxx),
      cmocka_unit_test(test_minting_xy),
      cmocka_unit_test(test_minting_order_has_no_importance),
      cmocka_unit_test(test_minting_alias_counts_as_either_letter),
      cmocka_unit_test(test_minting_with_a_flipped_monster),
      cmocka_unit_test(test_minting_anytime_during_your_turn),
      cmocka_unit_test(test_interruptions_counter_a_play_before_a_mint),
      cmocka_unit_test(test_minting_cannot_be_undone),
      cmocka_unit_test(test_winning_second_mint_leaves_the_chain_unresolved),
      cmocka_unit_test(test_minting_minted_villain_bounce_and_negate),
      cmocka_unit_test(test_minting_minted_villain_ward_applies),
      cmocka_unit_test(test_minting_minted_villain_cannot_be_chosen),
      cmocka_unit_test(test_triggering_once_while_in_play_renewed_by_bounce),
      cmocka_unit_test(test_triggering_ready_renews_a_used_trait),
      cmocka_unit_test(test_triggering_timed_not_the_turn_put_into_play),
      cmocka_unit_test(test_triggering_interrupt_not_the_turn_put_into_play),
      cmocka_unit_test(test_triggering_immediate_burn_is_required),
      cmocka_unit_test(test_interruptions_simultaneous_traits_on_a_play),
      cmocka_unit_test(test_minting_traits_after_a_mint),
      cmocka_unit_test(test_interruptions_window_asked_with_only_pass),
      cmocka_unit_test(test_interruptions_flip_drop_mint),
      cmocka_unit_test(test_interruptions_negate_a_negate_four_deep),
      cmocka_unit_test(test_interruptions_negate_a_negate_three_deep),
      cmocka_unit_test(test_interruptions_no_cancel_when_the_card_left_play),
      cmocka_unit_test(test_interruptions_fresh_interrupt_after_leaving_play),
      cmocka_unit_test(test_keyword_bounce),
      cmocka_unit_test(test_keyword_burn),
      cmocka_unit_test(test_keyword_flip),
      cmocka_unit_test(test_keyword_copy),
      cmocka_unit_test(test_keyword_discard),
      cmocka_unit_test(test_keyword_copy_without_a_subject),
      cmocka_unit_test(test_keyword_copied_negate),
      cmocka_unit_test(test_keyword_negate),
      cmocka_unit_test(test_keyword_drop),
      cmocka_unit_test(test_keyword_ward),
      cmocka_unit_test(test_privacy_window_depends_only_on_the_table),
      cmocka_unit_test(test_end_last_four_turns_one_ahead_wins),
      cmocka_unit_test(test_end_level_is_a_draw),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
