/*
 * ai.c: AI seats, the answers Lair gives for a seat it plays itself.
 *
 * Two levels: uniformly random legal answers (what random playouts have
 * always used) and a ruleset's own heuristic (its optional ai hook). The
 * core only dispatches and checks that the answer is one of the prompt's
 * options; what "sensible" means is each game's business. Pure like the
 * rest of the engine: the caller's rng is the only randomness.
 */
#include "eng.h"

#include <stdio.h>
#include <string.h>

static const char *const names[] = {
#define ENG_AI_NAME(name, text) text,
    ENG_AI_LEVELS(ENG_AI_NAME)
#undef ENG_AI_NAME
};

const char *eng_ai_name(int level) {
  if (level < 0 || level >= ENG_AI_COUNT)
    return NULL;
  return names[level];
}

int eng_ai_find(const char *name) {
  if (!name)
    return -1;
  for (int i = 0; i < ENG_AI_COUNT; i++)
    if (strcmp(names[i], name) == 0)
      return i;
  return -1;
}

int eng_ai_choose(const eng_ruleset *rs, const void *st, const eng_prompt *p,
                  int level, eng_rng *rng) {
  if (p->player < 0 || p->n < 1 || p->n > ENG_OPTIONS_MAX)
    return -1;
  if (level < 0 || level >= ENG_AI_COUNT)
    return -1;
  /* Random play draws exactly one number per answer, as eng_simulate
   * always has, so old seeds still replay the same games. */
  if ((eng_ai_level)level == ENG_AI_RANDOM || !rs->ai)
    return (int)eng_rng_below(rng, (uint32_t)p->n);
  int i = rs->ai(st, p, rng);
  return i >= 0 && i < p->n ? i : -1;
}

int eng_ai_hint(const eng_ruleset *rs, const void *st, const eng_prompt *p,
                eng_rng *rng, char *why, size_t cap) {
  if (cap > 0)
    why[0] = '\0';
  int i = eng_ai_choose(rs, st, p, ENG_AI_HEURISTIC, rng);
  if (i < 0 || cap == 0)
    return i;
  if (rs->ai && rs->ai_why)
    rs->ai_why(st, p, i, why, cap);
  if (!why[0])
    snprintf(why, cap, "%s",
             !rs->ai ? "Lair has no strategy for this game; any option will "
                       "do"
             : p->n == 1 ? "it is the only option"
                         : "it scores best of your options by the AI's count");
  return i;
}
