/*
 * prompt_util.h: test-only helpers over any ruleset's prompts: finding
 * an option by its id, listing the ids for a failure message, answering
 * by id, the heuristic's answer, the heuristic's share of wins against
 * random seats, and the form of the lines an answer tells. The rule and
 * AI tests of every game use them.
 */
#ifndef LAIR_TESTS_PROMPT_UTIL_H
#define LAIR_TESTS_PROMPT_UTIL_H

#include <stdint.h>

#include "eng.h"

/* The index of option id in prompt p of state st, or -1. */
int pu_find(const eng_ruleset *rs, const void *st, const eng_prompt *p,
            const char *id);

/* All option ids of p, space-separated, for failure messages (a static
 * buffer, overwritten by the next call). */
const char *pu_ids(const eng_ruleset *rs, const void *st, const eng_prompt *p);

/* The index of option id, which p must offer to seat; fails the test,
 * naming the options, when the prompt is another seat's or id is not
 * offered. */
int pu_expect(const eng_ruleset *rs, const void *st, const eng_prompt *p,
              int seat, const char *id);

/* Answers st's current prompt with option id (whoever's it is); fails the
 * test when id is not offered or the answer is refused. */
void pu_answer(const eng_ruleset *rs, void *st, const char *id);

/* The heuristic's answer to st's current prompt, as an option id (the
 * same rng seed every call). */
void pu_ai_id(const eng_ruleset *rs, const void *st, char id[ENG_ID_MAX + 1]);

/* One heuristic seat against random seats, in every seat in turn (seat 0
 * starts; the game's mode mode, "" for its default), games_per_seat games
 * each from seeds seed, seed + 1, ...: its share of the wins in percent.
 * Fails the test on any invariant violation. */
double pu_heuristic_share(const eng_ruleset *rs, int players, const char *mode,
                          uint64_t seed, long games_per_seat);

/* Checks the form of the lines ev told for one answer at a table of
 * players: each for everyone or a seat of the table, one whole sentence
 * (ending in '.', '!' or '?', not cut short with "..."), no Markdown or
 * missing text ("**", "(null)"), naming only seats of the table ("Villain
 * N"), and at least one line for everyone. Returns 0, or 1 with msg
 * saying which line broke which rule. (What a line may name is each
 * game's own check.) */
int pu_told_form(const eng_events *ev, int players, char *msg, size_t cap);

#endif
