/*
 * sv_told.h: test-only checks of what a Supervillain answer tells
 * (eng_events): the form of every line and, above all, that no line
 * names a card its reader may not see.
 */
#ifndef LAIR_TESTS_SV_TOLD_H
#define LAIR_TESTS_SV_TOLD_H

#include <stddef.h>

#include "games/supervillain/sv.h"

/* Checks the lines ev told for one answer that turned *before into
 * *after. Each line must be one sentence (ending in '.', '!' or '?', not
 * cut short), name only seats of the table ("Villain N"), and name only
 * cards its reader may see: the public view's cards (for public lines) or
 * seat s's view (for s's lines), before or after the answer, plus the
 * cards that lay face up in a discard pile during the answer: shown[]
 * (sv_trace.shown; NULL: none) and those that went into a deck (only a
 * discard pile is shuffled into one). The answer must tell at least one
 * public line. Returns 0, or 1 with msg saying which line broke which
 * rule. */
int sv_told_check(const sv_state *before, const sv_state *after,
                  const eng_events *ev, const uint8_t *shown, char *msg,
                  size_t cap);

#endif
