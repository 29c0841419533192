/*
 * dis_position.h: test-only builder of Disorder of the Villains positions
 * (engine/games/disorder/), so that a rule test starts from the few cards
 * its passage is about and reads like the rulebook.
 *
 * A position is a real game (eng_game_new on `disorder`, mode random,
 * first seat 0) whose dis_state is rewritten: each seat's deck design and
 * Villains are chosen by id, the named cards are put where the test says,
 * every other card lies in its owner's deck, and the turn is set. The
 * game is then driven through eng_game_answer like any other, so the
 * prompts, the automatic decisions and the lines told are the engine's.
 *
 *   dis_pos p;
 *   dp_new(&p, 1, "emberwick", "hollow_regent", "tidewrack",
 *          "gutterglass_king");
 *   int whelp = dp_put(&p, 0, "cinder_whelp", DIS_Z_HAND);
 *   dp_put(&p, 0, "hollow_regent", DIS_Z_VROW);
 *   dp_finish(&p, 5, 0);   // turn 5, Player 1 has priority
 *   ... eng_game_answer(p.g, 0, "play.c5", &ev) ...
 *   dp_free(&p);
 *
 * Between dp_new and dp_finish the test may also set the per-card fields
 * of p.s directly (used, entered); after dp_finish it may change the
 * turn's flags (played, started, drawn...) and call dp_refresh.
 */
#ifndef LAIR_TESTS_DIS_POSITION_H
#define LAIR_TESTS_DIS_POSITION_H

#include <stdbool.h>
#include <stdint.h>

#include "eng.h"
#include "games/disorder/dis.h"

typedef struct dis_pos {
  eng_game *g;
  dis_state *s; /* g->state */
  bool placed[DIS_CARDS];
  uint8_t n_top[DIS_PLAYERS]; /* cards put on top of each deck so far */
} dis_pos;

/* Creates the game behind p (seed shuffles nothing that matters: every
 * place is rewritten) with seat 0 playing design0 and seat 1 design1 (deck
 * design ids). villains0 and villains1 name 1 to 4 pool Villains each,
 * separated by spaces, for instances c0.. and c20.. in order; the rest of
 * each block is filled with the first pool Villains neither seat named.
 * Every instance is left unplaced. Fails the test on an unknown id, a
 * Villain named twice or a failed eng_game_new. */
void dp_new(dis_pos *p, uint64_t seed, const char *design0,
            const char *villains0, const char *design1, const char *villains1);

/* The instance of card id in owner's block (placed or not); fails the
 * test when owner's deck has no such card. */
int dp_card(const dis_pos *p, int owner, const char *id);

/* Puts owner's card id into zone (DIS_Z_DECK: on top of the deck, the
 * last put drawn first; DIS_Z_HAND, DIS_Z_VROW, DIS_Z_MROW,
 * DIS_Z_MINTED, DIS_Z_DISCARD: at the end, the order of the calls) of
 * owner's side. Returns the instance. Fails the test when the card is
 * already placed. */
int dp_put(dis_pos *p, int owner, const char *id, int zone);

/* As dp_put, into the Monster row of seat side (a FLIPped Monster lies on
 * the side that is not its owner's). */
int dp_put_side(dis_pos *p, int owner, const char *id, int zone, int side);

/* Puts every card of seat not yet placed into zone (DIS_Z_DECK or
 * DIS_Z_DISCARD), in instance order; with DIS_Z_DISCARD the deck ends
 * up holding only the cards put on top of it. */
void dp_rest(dis_pos *p, int seat, int zone);

/* Completes the position: every unplaced card goes to the bottom of its
 * owner's deck (instance order), it is turn `turn` (>= 1) and seat
 * `active` has priority in the main phase with the start of the turn and
 * the draw done and the Play still to make; no chain, no last turns.
 * Then recomputes the prompt and checks the state with dis_check (fails
 * the test with its message). */
void dp_finish(dis_pos *p, int turn, int active);

/* Recomputes the prompt after a test changed p->s and checks the state
 * again. */
void dp_refresh(dis_pos *p);

/* Frees the game. */
void dp_free(dis_pos *p);

#endif
