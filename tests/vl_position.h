/*
 * vl_position.h: builds a Villainous state from a POSITION written as
 * JSON, naming villains and cards by their ids, so rule tests read like
 * the rulebook; checks what every answer tells; and drives a built state
 * through the ruleset, checking it after every answer.
 *
 * A position (tests/data/villainous/NAME.json,
 * tests/data/marvel-villainous/NAME.json, or JSON text in a test) says
 * where the cards that matter are; every other card of a villain lies in
 * its deck, shuffled (seeded) under the listed top cards. Keys:
 *
 *   "rule"      the rulebook passage the position is about (required)
 *   "game"      "villainous" (the Disney rulebook, the default) or
 *               "marvel-villainous" (the Marvel rulebook)
 *   "villains"  one villain id per seat, 2-6 of them (Marvel: 2-4)
 *               (required)
 *   "seed"      shuffles the unplaced cards (default 1)
 *   "first", "current" (default 0), "turn", "round" (default 1)
 *   "phase"     "start" (the turn's start is still to come), "move" or
 *               "actions" (default)
 *   "used"      [slot, ...]: action slots of the current location used
 *   "fate_token" a seat (Disney, 5-6 players)
 *   "seats"     one object per seat, all keys optional:
 *     "power", "mover" (location 0-3; Marvel also "portrait", before the
 *               first move), "track", "defeated",
 *     "locked"  [location, ...] (Disney; default: as the villain's data
 *               says)
 *     "hand"    [card, ...]
 *     "realm"   [{"card", "loc", "items": [card, ...]}] Allies, Items and
 *               specials at the bottom, in placement order
 *     "heroes"  [{"card", "loc", "items": [card, ...]}] at the top, in
 *               placement order (the first covers)
 *     "discard" [card, ...], bottom first
 *     "deck_top" [card, ...], drawn first
 *     Disney only (each villain has its own fate deck):
 *     "fate_discard" [card, ...], bottom first
 *     "fate_top" [card, ...], drawn first
 *     "looked"  [card, ...]: cards of fate_top this seat looked at
 *     Marvel only:
 *     "invaders" [{"card", "loc", "items": [card, ...]}] other villains'
 *               Allies on the top of this domain (after its Heroes in
 *               placement order), each its owner's
 *     "specialty" [card, ...] the Specialty area: this villain's
 *               Specialties, and (the collector) Stones on their
 *               Specialty side
 *     and "tok" (a Strength token total, -3..3) on any entry of
 *     "realm", "heroes" or "invaders".
 *   Marvel only, for the whole table:
 *   "mode"      "inevitable" (the default), "omnipotent" (the Events stay
 *               in the box) or "undying"
 *   "events"    [{"card", "allies": [{"card", "items", "tok"}]}] Events
 *               in play, in placement order: a common Event is Global, a
 *               villain's own Event is Targeted at that villain; the
 *               Allies there (a Targeted Event's are its villain's) must
 *               not yet meet its Strength requirement
 *   "fate_top"  [card, ...] the top of the one fate deck, drawn first
 *   "fate_discard" [card, ...] its discard pile, bottom first
 *   "once"      [card, ...] the current villain's Specialties and Stones
 *               already activated this turn
 *
 * A Disney card id names a card of that seat's villain. A Marvel card id
 * names its card wherever its data is (ids are unique across the villains
 * and the common part): a seat's villain or fate part, or the common part
 * (common fate cards and the six Stones); a Hero on a domain may come
 * from any fate part. A Stone is placed like an Item: carried by an Ally
 * ("items" of a "realm" or "invaders" entry), loose at a location (a
 * "realm" entry of its own), or in the collector's "specialty"; every
 * Stone not placed lies in the centre. Each mention takes the lowest free
 * instance of the card, so a card with count 2 can be named twice and a
 * third mention is an error. The built state passes vl_check, and
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

/* vl_position_find's seat for the common part of a Marvel table. */
#define VL_POSITION_COMMON (-1)

/* The lowest instance of card id of seat's villain (VL_POSITION_COMMON:
 * of the common part) lying in zone (a vl_zone; -1: anywhere), or -1
 * when there is none. */
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

/* Checks *s as the rule tests do after every answer: vl_check, and every
 * view (the public one and each seat's) shows only what its viewer may
 * see. Returns 0, or 1 with msg. */
int vl_position_check_state(const vl_state *s, char *msg, size_t cap);

/* Applies option code to *s (vl_apply_traced), its lines into ev (cleared
 * first) and its flags into *flags (cleared first), and checks what it
 * told with vl_told_check. Returns 0, or 1 with msg when the answer was
 * refused or told wrongly. Not reentrant (it keeps the state before the
 * answer in a static). */
int vl_position_apply(vl_state *s, uint32_t code, unsigned *flags,
                      eng_events *ev, char *msg, size_t cap);

#endif
