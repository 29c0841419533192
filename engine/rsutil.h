/*
 * rsutil.h: small helpers every ruleset needs for the text and JSON
 * around its rules: an option label cut to Discord's limit, a bounded
 * text builder for renders, typed reads of a view's or a save's JSON, and
 * a name lookup in a vocabulary, the walk over a view's card references,
 * and the growing Markdown of a card list. Rulesets share them so that
 * each game's files hold only its own rules.
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
  bool full; /* something was cut: nothing more is added */
} eng_text;
/* Appends printf-style to t. Returns nothing; a full t takes no more, and
 * a text cut at the cap never ends inside a UTF-8 character. */
void eng_put(eng_text *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The string member key of o, or "" (never NULL). */
const char *eng_jstr(const json_t *o, const char *key);
/* The member of view's "players" array whose "seat" is seat, or NULL. */
const json_t *eng_view_player(const json_t *view, long seat);
/* The integer member key of o, or 0. */
long eng_jnum(const json_t *o, const char *key);
/* Reads v into *out when it is an integer in [lo, hi]; false (and *out
 * unchanged) otherwise. */
bool eng_jint(const json_t *v, long lo, long hi, long *out);

/* The index of s in names[0..n), or -1 (also for s NULL). */
int eng_lookup(const char *const *names, int n, const char *s);

/* Calls fn(ctx, i) for every card reference of a view's JSON (an object
 * with member "i": the instance number i), the object's own first, then
 * its members in order, depth first. Returns the first nonzero fn
 * returned, or 0. For the rulesets' checks that a view shows its viewer
 * only what they may see. */
int eng_view_cards(const json_t *view, int (*fn)(void *ctx, json_int_t i),
                   void *ctx);

/* A Markdown text growing in memory (a game's card list), at most
 * 256 KiB. What fails (out of memory, too long) marks it bad, and later
 * calls do nothing. Start from eng_md m = {0}; end with eng_md_take. */
typedef struct eng_md {
  char *p;
  size_t len, cap;
  bool bad;
} eng_md;
void eng_md_str(eng_md *m, const char *s);
void eng_md_printf(eng_md *m, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Appends text as the inside of a table cell: '|' would end the cell and
 * a line break the row, so they become "\|" and a space. */
void eng_md_cell(eng_md *m, const char *text);
/* The text, malloc'd and the caller's, or NULL when m went bad (then it
 * is freed). */
char *eng_md_take(eng_md *m);

/* A data file being read and validated: every problem is reported (the
 * file's name first) and counted, so that a loader lists them all before
 * it refuses the data. Start from {.report, .ctx, .game}. */
typedef struct eng_loader {
  void (*report)(void *ctx, const char *msg);
  void *ctx;
  int errors;
  const char *file; /* the file being read, for messages; NULL: none */
  const char *game; /* what a message names when no file is being read */
} eng_loader;
/* Reports one problem, printf-style, prefixed "FILE: " (or "GAME: "). */
void eng_load_err(eng_loader *l, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Reports every key of o that is not in keys (NULL-terminated); where
 * names o in the messages. */
void eng_load_keys(eng_loader *l, const char *where, const json_t *o,
                   const char *const *keys);
/* Copies the string member key of o into dst (cap bytes); reports a
 * missing (when required), empty or too long value. Returns whether dst
 * holds a value. */
bool eng_load_str(eng_loader *l, const char *where, const json_t *o,
                  const char *key, char *dst, size_t cap, bool required);

#endif
