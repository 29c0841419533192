/*
 * gal_position.h: test-only builder of Galactic Domination positions
 * (engine/games/galactic/), so that a rule test starts from the few ships
 * its passage is about and reads like the rulebook.
 *
 * A position is a real game (eng_game_new on `galactic`, first seat 0, so
 * seat 0 is player 1 with the Red zone) whose gal_state is rewritten: the
 * placement is over, no unit is left, both players hold nothing, and it
 * is seat 0's first turn of play with nothing acting. The test puts the
 * ships it needs, sets funds and the turn, and calls gp_refresh, which
 * recomputes the prompt and proves the state with gal_check. The game is
 * then driven through eng_game_answer like any other, so the prompts,
 * the automatic steps and the lines told are the engine's.
 *
 *   gal_pos p;
 *   gp_new(&p, 1);
 *   int r = gp_unit(&p, 0, GAL_RAIDER, "Y1");
 *   gp_unit(&p, 1, GAL_MINER, "Y1");
 *   gp_refresh(&p);
 *   gp_answer(&p, 0, "ship.u%d", r);
 *   gp_answer(&p, 0, "attack.u%d", 1);
 *   gp_expect_told(&p, "hits");
 *   gp_free(&p);
 *
 * After every answer gp_answer checks the state (gal_check) and the form
 * of the lines told (every line one whole sentence, a public one at
 * least); p->ev holds them until the next answer.
 */
#ifndef LAIR_TESTS_GAL_POSITION_H
#define LAIR_TESTS_GAL_POSITION_H

#include <stdbool.h>
#include <stdint.h>

#include "eng.h"
#include "games/galactic/gal.h"

typedef struct gal_pos {
  eng_game *g;
  gal_state *s;  /* g->state */
  eng_events ev; /* the lines the last answer told */
} gal_pos;

/* Creates the game behind p from seed (what the seed drew is rewritten)
 * and empties it: no unit, nothing to place, 0 minerals and 0 Dark
 * Matter with every counter 0, no black hole, phase orders, seat 0
 * active, the turn number the real first turn of play has (21) and round
 * 1. Fails the test when eng_game_new fails. The position is not yet
 * checked: put ships of both sides, then call gp_refresh. */
void gp_new(gal_pos *p, uint64_t seed);

/* Puts a new unit of owner (a seat) and type (GAL_COMMAND..) in sector
 * (an id such as "R1", or "deep" for deep space) with full shields, hull
 * and AP, not attached, not charged, not yet acted, named by the owner's
 * next serial of that type. Returns its slot (the lowest free one).
 * Fails the test on an unknown sector or when every slot is taken. */
int gp_unit(gal_pos *p, int owner, int type, const char *sector);

/* Sets unit i's shields, hull and AP (no check until gp_refresh). */
void gp_set(gal_pos *p, int i, int shields, int hull, int ap);

/* Gives seat exactly minerals and dark Dark Matter, as if found in deep
 * space: the found counters take what gathering and spending do not
 * explain, so the conservation gal_check proves still holds. */
void gp_funds(gal_pos *p, int seat, int minerals, int dark);

/* Makes it seat active's turn, in play turn `play` (1: player 1's first
 * turn; the round is (play + 1) / 2) with turn number 20 + play, in the
 * orders phase with no ship acting. */
void gp_turn(gal_pos *p, int active, int play);

/* The sector number of id ("R1"); fails the test on an unknown id. */
int gp_sector(const char *id);

/* Rigs the state's generator so that its next n draws eng_rng_below(
 * below[k]) give want[k] (k = 0..n-1), by trying seeds of the generator
 * in order. Fails the test when none of a million does. */
void gp_rig(gal_pos *p, const uint32_t *below, const uint32_t *want, int n);

/* Recomputes the prompt after the test changed p->s, and proves the
 * state with gal_check (fails the test with its message). */
void gp_refresh(gal_pos *p);

/* Whether the current prompt offers option id (printf-style). */
bool gp_offered(const gal_pos *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* How many options of the current prompt have ids starting with prefix. */
int gp_count(const gal_pos *p, const char *prefix);

/* Answers as seat with option id (printf-style), the lines told into
 * p->ev; fails the test when the prompt is not seat's, id is not offered
 * or the answer is refused, and after it when gal_check fails or a line
 * told is not one whole sentence. */
void gp_answer(gal_pos *p, int seat, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The index of the first public line of the last answer holding text,
 * or -1. */
int gp_told(const gal_pos *p, const char *text);

/* As gp_told, but fails the test (printing the lines) when none does. */
int gp_expect_told(const gal_pos *p, const char *text);

/* Frees the game. */
void gp_free(gal_pos *p);

#endif
