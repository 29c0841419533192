/*
 * registry.c: the rulesets Lair ships, by stable id.
 *
 * A ruleset is static configuration, not game state, so one read-only
 * table serves every game in the process.
 */
#include "eng.h"

#include "games/disorder/dis.h"
#include "games/galactic/gal.h"
#include "games/supervillain/sv.h"
#include "games/villainous/vl.h"

#include <string.h>

static const eng_ruleset *const rulesets[] = {
    &sv_ruleset,
    &vl_ruleset,
    &vl_marvel_ruleset,
    &dis_ruleset,
    &gal_ruleset,
    NULL,
};

#define N_RULESETS (sizeof rulesets / sizeof rulesets[0] - 1)

const eng_ruleset *const *eng_rulesets(size_t *n) {
  *n = N_RULESETS;
  return rulesets;
}

const char *eng_mode_name(const eng_ruleset *rs, const char *mode) {
  if (mode && mode[0])
    return mode;
  return rs && rs->modes && rs->modes[0] ? rs->modes[0] : "standard";
}

const eng_ruleset *eng_find(const char *id) {
  if (!id)
    return NULL;
  for (const eng_ruleset *const *r = rulesets; *r; r++)
    if (strcmp((*r)->id, id) == 0)
      return *r;
  return NULL;
}
