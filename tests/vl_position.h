/*
 * vl_position.h: builds a Villainous state from a POSITION written as
 * JSON, naming villains and cards by their ids, so rule tests read like
 * the rulebook; and checks what every answer tells.
 *
 * A position (tests/data/villainous/NAME.json, or JSON text in a test)
 * says where the cards that matter are; every other card of a villain
 * lies in its deck, shuffled (seeded) under the listed top cards. Keys:
 *
 *   "rule"      the rulebook passage the position is about (required)
 *   "villains"  one villain id per seat, 2-6 of them (required)
 *   "seed"      shuffles the unplaced cards (default 1)
 *   "first", "current" (default 0), "turn", "round" (default 1)
 *   "phase"     "start" (the turn's start is still to come), "move" or
 *               "actions" (default)
 *   "used"      [slot, ...]: action slots of the current location used
 *   "fate_token" a seat (5-6 players)
 *   "seats"     one object per seat, all keys optional:
 *     "power", "mover" (location 0-3), "track", "defeated",
 *     "locked"  [location, ...] (default: as the villain's data says)
 *     "hand"    [card, ...]
 *     "realm"   [{"card", "loc", "items": [card, ...]}] Allies, Items and
 *               specials at the bottom, in placement order
 *     "heroes"  [{"card", "loc", "items": [card, ...]}] at the top, in
 *               placement order (the first covers)
 *     "discard", "fate_discard"  [card, ...], bottom first
 *     "deck_top", "fate_top"     [card, ...], drawn first
 *     "looked"  [card, ...]: cards of fate_top this seat looked at
 *
 * A card id names a card of that seat's villain; each mention takes the
 * lowest free instance of it, so a card with count 2 can be named twice
 * and a third mention is an error. The built state passes vl_check, and
 * vl_resume is run on it (the automatic work, e.g. a "start" phase).
 */
#ifndef LAIR_TESTS_VL_POSITION_H
#define LAIR_TESTS_VL_POSITION_H

#include <stddef.h>

#include "games/villainous/vl.h"

/* Builds *s from the position object pos. Returns 0, or 1 with err set
 * to a message naming the problem (unknown key, villain or card id, no
 * free instance left, a state that fails vl_check...). */
int vl_position_build(vl_state *s, const json_t *pos, char *err, size_t cap);
/* Reads the position file at path and builds *s; as vl_position_build. */
int vl_position_load(vl_state *s, const char *path, char *err, size_t cap);

/* The lowest instance of card id of seat's villain lying in zone (a
 * vl_zone; -1: anywhere), or -1 when there is none. */
int vl_position_find(const vl_state *s, int seat, const char *id, int zone);

/* Checks the lines ev told for one answer that turned *before into
 * *after: each is one whole sentence for a seat of the table or
 * everyone; at least one is public; and a line names a card only when
 * its reader may see a card of that name before or after the answer
 * (vl_visible), the card went from an open place into a hidden one
 * meanwhile (a discard pile shuffled in), or the answer showed it
 * (shown[], from vl_apply_traced; NULL: none). A name inside the quoted
 * text of a card the reader sees does not count: a card's text may name
 * another card without telling where it is. Returns 0, or 1 with msg. */
int vl_told_check(const vl_state *before, const vl_state *after,
                  const eng_events *ev, const uint8_t *shown, char *msg,
                  size_t cap);

#endif
