/*
 * rsutil.h: small helpers every ruleset needs for the text and JSON
 * around its rules: an option label cut to Discord's limit, a bounded
 * text builder for renders, typed reads of a view's or a save's JSON, and
 * a name lookup in a vocabulary. Rulesets share them so that each game's
 * files hold only its own rules.
 */
#ifndef LAIR_RSUTIL_H
#define LAIR_RSUTIL_H

#include "eng.h"

#include <stdbool.h>
#include <stddef.h>

/* Formats an option label into label (ENG_LABEL_MAX + 1 bytes), cut to
 * ENG_LABEL_MAX bytes on a UTF-8 boundary and ended with "..." when it
 * is longer. Returns nothing and cannot fail. */
void eng_label(char label[ENG_LABEL_MAX + 1], const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* A text being written into a caller's buffer: what does not fit is left
 * out, and buf stays NUL-terminated (cap > 0). */
typedef struct eng_text {
  char *buf;
  size_t cap, len;
} eng_text;
/* Appends printf-style to t. Returns nothing; a full t takes no more. */
void eng_put(eng_text *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The string member key of o, or "" (never NULL). */
const char *eng_jstr(const json_t *o, const char *key);
/* The integer member key of o, or 0. */
long eng_jnum(const json_t *o, const char *key);
/* Reads v into *out when it is an integer in [lo, hi]; false (and *out
 * unchanged) otherwise. */
bool eng_jint(const json_t *v, long lo, long hi, long *out);

/* The index of s in names[0..n), or -1 (also for s NULL). */
int eng_lookup(const char *const *names, int n, const char *s);

#endif
