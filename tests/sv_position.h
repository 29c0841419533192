/*
 * sv_position.h: builds a Supervillain state from a POSITION written as
 * JSON, naming cards by their ids, so rule tests read like the rulebook.
 *
 * A position (tests/data/supervillain/NAME.json) says where the cards that
 * matter are; every other card lies in its deck. Keys (all optional but
 * "rule", "players" and "phase"):
 *
 *   "rule"      the rulebook passage the position is about (text)
 *   "players"   2..4;  "mode" as eng_config.mode (default "standard")
 *   "seed"      shuffles the cards not placed (default 1)
 *   "current", "turn" (default 0, 1), "mobs_left", "ops_left" (default 1)
 *   "phase"     "act3" (the drawn Domination card waits for Project or
 *               Asteroid) or "day"
 *   "drawn"     act3 only: the drawn card (default: the deck's top card)
 *   "hands"     [[card, ...] per seat]
 *   "projects"  [{"seat", "card", "mobs": [{"card", "proof"}], "used"}]
 *   "facilities" [{"seat", "card", "proof", "used"}]
 *   "asteroids" [{"owner", "target", "card", "charged"}]
 *   "minion_discard", "domination_discard"  [card, ...], bottom first
 *   "minion_deck_top", "domination_deck_top" [card, ...], drawn first
 *   "minion_rest"      where unplaced Minion cards go: "deck" (default,
 *                      shuffled under the listed top cards), "discard"
 *                      (shuffled, under the listed discard) or
 *                      {"hand": seat}
 *   "domination_rest"  "deck" (default), "discard" or {"projects": seat}
 *
 * A card id names a card definition; the loader gives each mention the
 * lowest free instance of that card (sv_loaded.inst[]), so a card with
 * count 2 can be named twice and a third mention is an error.
 */
#ifndef LAIR_TESTS_SV_POSITION_H
#define LAIR_TESTS_SV_POSITION_H

#include <stddef.h>

#include "games/supervillain/sv.h"

/* Builds *s from the position object pos. Returns 0, or 1 with err set
 * to a message naming the problem (unknown key or card id, no free
 * instance left, a Mob whose Project would already be complete, a state
 * that fails sv_check...). *s is undefined after a failure. */
int sv_position_build(sv_state *s, const json_t *pos, char *err, size_t cap);

/* Builds *s from a position written as JSON text in a cmocka test; any
 * error fails the test with its message. */
void sv_position_text(sv_state *s, const char *json);
/* Reads the position file at path and builds *s; as sv_position_build. */
int sv_position_load(sv_state *s, const char *path, char *err, size_t cap);

/* Returns the lowest instance of card id lying in zone (an sv_zone) and
 * owned by owner (-1: anyone's), or -1 when there is none. */
int sv_position_find(const sv_state *s, const char *id, int zone, int owner);

#endif
