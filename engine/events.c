/*
 * events.c: the lines that tell what an answer did (eng_events in eng.h).
 *
 * A ruleset appends sentences while it applies an answer; the core and
 * the transports read them. The list is a flat value with a fixed
 * capacity, like every state in the engine, so telling never allocates
 * and never fails: a sentence too long is cut on a UTF-8 boundary, and
 * lines past the capacity are dropped with a flag saying so.
 */
#include "eng.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* The length of the longest prefix of s (len bytes) no longer than max
 * that does not end inside a UTF-8 sequence, nor in spaces (it is
 * followed by "..."). */
static size_t utf8_cut(const char *s, size_t len, size_t max) {
  if (len <= max)
    return len;
  size_t cut = max;
  while (cut > 0 && ((unsigned char)s[cut] & 0xC0) == 0x80)
    cut--;
  while (cut > 0 && s[cut - 1] == ' ')
    cut--;
  return cut;
}

void eng_event_add(eng_events *ev, int seat, const char *fmt, ...) {
  if (!ev)
    return;
  if (ev->n >= ENG_EVENTS_MAX) {
    ev->truncated = true;
    return;
  }
  char buf[4 * ENG_EVENT_TEXT_MAX];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  if (n < 0)
    return;
  size_t len = (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1;
  eng_event *e = &ev->ev[ev->n++];
  e->seat = (int8_t)(seat < 0 ? -1 : seat);
  if (len > ENG_EVENT_TEXT_MAX) { /* still one sentence: it ends in "..." */
    len = utf8_cut(buf, len, ENG_EVENT_TEXT_MAX - 3);
    memcpy(buf + len, "...", 3);
    len += 3;
  }
  memcpy(e->text, buf, len);
  e->text[len] = '\0';
}

void eng_events_clear(eng_events *ev) {
  if (!ev)
    return;
  ev->n = 0;
  ev->truncated = false;
}

int eng_events_count(const eng_events *ev, int seat) {
  int n = 0;
  for (int i = 0; ev && i < ev->n; i++)
    n += ev->ev[i].seat == seat;
  return n;
}

size_t eng_events_join(const eng_events *ev, int seat, char *buf, size_t cap) {
  if (cap == 0)
    return 0;
  buf[0] = '\0';
  size_t o = 0;
  for (int i = 0; ev && i < ev->n; i++) {
    if (ev->ev[i].seat != seat)
      continue;
    const char *t = ev->ev[i].text;
    size_t len = strlen(t), sep = o > 0;
    if (o + sep + len < cap) {
      if (sep)
        buf[o++] = ' ';
      memcpy(buf + o, t, len + 1);
      o += len;
      continue;
    }
    /* The first line that does not fit: as much as fits, then "...". */
    if (o + sep + 4 < cap) {
      if (sep)
        buf[o++] = ' ';
      size_t keep = utf8_cut(t, len, cap - o - 4);
      memcpy(buf + o, t, keep);
      memcpy(buf + o + keep, "...", 4);
      o += keep + 3;
    }
    break;
  }
  return o;
}
