/*
 * result.c: the engine's result codes and their player-facing texts.
 *
 * Both tables come from the ENG_ERRORS X-macro in eng.h, so a code and
 * its text cannot drift apart.
 */
#include "eng.h"

static const char *const texts[] = {
#define ENG_RC_TEXT(name, text) text,
    ENG_ERRORS(ENG_RC_TEXT)
#undef ENG_RC_TEXT
};

static const char *const names[] = {
#define ENG_RC_NAME(name, text) #name,
    ENG_ERRORS(ENG_RC_NAME)
#undef ENG_RC_NAME
};

const char *eng_strerror(eng_rc rc) {
  if ((unsigned)rc >= ENG_RC_COUNT)
    return "Unknown engine error.";
  return texts[rc];
}

const char *eng_rcname(eng_rc rc) {
  if ((unsigned)rc >= ENG_RC_COUNT)
    return "UNKNOWN";
  return names[rc];
}
