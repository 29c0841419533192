/*
 * rsutil.c: the helpers rulesets share for text and JSON (rsutil.h).
 */
#include "rsutil.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void eng_label(char label[ENG_LABEL_MAX + 1], const char *fmt, ...) {
  char buf[400];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  if (n < 0)
    buf[0] = '\0';
  else if (n > ENG_LABEL_MAX) {
    int cut = ENG_LABEL_MAX - 3;
    while (cut > 0 && ((unsigned char)buf[cut] & 0xC0) == 0x80)
      cut--;
    memcpy(buf + cut, "...", 4);
  }
  memcpy(label, buf, strlen(buf) + 1);
}

void eng_put(eng_text *t, const char *fmt, ...) {
  if (t->full || t->len + 1 >= t->cap)
    return;
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(t->buf + t->len, t->cap - t->len, fmt, ap);
  va_end(ap);
  if (n < 0)
    return;
  t->len += (size_t)n;
  if (t->len >= t->cap) {
    /* Cut: never in the middle of a UTF-8 character (a trait's emoji). */
    t->full = true;
    t->len = t->cap - 1;
    size_t k = t->len;
    while (k > 0 && ((unsigned char)t->buf[k - 1] & 0xC0) == 0x80)
      k--;
    if (k > 0) {
      unsigned lead = (unsigned char)t->buf[k - 1];
      size_t need = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
      if (t->len - (k - 1) < need)
        t->len = k - 1;
    }
    t->buf[t->len] = '\0';
  }
}

const char *eng_jstr(const json_t *o, const char *key) {
  const char *s = json_string_value(json_object_get(o, key));
  return s ? s : "";
}

long eng_jnum(const json_t *o, const char *key) {
  return (long)json_integer_value(json_object_get(o, key));
}

bool eng_jint(const json_t *v, long lo, long hi, long *out) {
  if (!json_is_integer(v))
    return false;
  json_int_t x = json_integer_value(v);
  if (x < lo || x > hi)
    return false;
  *out = (long)x;
  return true;
}

int eng_lookup(const char *const *names, int n, const char *s) {
  if (!s)
    return -1;
  for (int i = 0; i < n; i++)
    if (strcmp(names[i], s) == 0)
      return i;
  return -1;
}

int eng_view_cards(const json_t *view, int (*fn)(void *ctx, json_int_t i),
                   void *ctx) {
  int rc = 0;
  if (json_is_object(view)) {
    json_t *i = json_object_get(view, "i");
    if (i && (rc = fn(ctx, json_integer_value(i))) != 0)
      return rc;
    const char *key;
    json_t *x;
    json_object_foreach((json_t *)view, key, x) {
      if ((rc = eng_view_cards(x, fn, ctx)) != 0)
        return rc;
    }
  } else if (json_is_array(view)) {
    size_t k;
    json_t *x;
    json_array_foreach(view, k, x) {
      if ((rc = eng_view_cards(x, fn, ctx)) != 0)
        return rc;
    }
  }
  return 0;
}

#define MD_CAP (256u * 1024u)

/* Makes room for n more bytes plus the terminating NUL. */
static bool md_reserve(eng_md *m, size_t n) {
  if (m->bad)
    return false;
  if (n >= MD_CAP - m->len) {
    m->bad = true;
    return false;
  }
  if (m->len + n < m->cap)
    return true;
  size_t cap = m->cap ? m->cap : 4096;
  while (cap <= m->len + n)
    cap *= 2;
  if (cap > MD_CAP)
    cap = MD_CAP;
  char *p = realloc(m->p, cap);
  if (!p) {
    m->bad = true;
    return false;
  }
  m->p = p;
  m->cap = cap;
  return true;
}

static void md_put(eng_md *m, const char *s, size_t n) {
  if (!md_reserve(m, n))
    return;
  memcpy(m->p + m->len, s, n);
  m->len += n;
  m->p[m->len] = '\0';
}

void eng_md_str(eng_md *m, const char *s) { md_put(m, s, strlen(s)); }

void eng_md_printf(eng_md *m, const char *fmt, ...) {
  char small[256];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(small, sizeof small, fmt, ap);
  va_end(ap);
  if (n < 0) {
    m->bad = true;
    return;
  }
  if ((size_t)n < sizeof small) {
    md_put(m, small, (size_t)n);
    return;
  }
  if (!md_reserve(m, (size_t)n))
    return;
  va_start(ap, fmt);
  vsnprintf(m->p + m->len, m->cap - m->len, fmt, ap);
  va_end(ap);
  m->len += (size_t)n;
}

void eng_md_cell(eng_md *m, const char *text) {
  for (const char *s = text; *s; s++) {
    if (*s == '|')
      eng_md_str(m, "\\|");
    else if (*s == '\n' || *s == '\r')
      eng_md_str(m, " ");
    else
      md_put(m, s, 1);
  }
}

char *eng_md_take(eng_md *m) {
  char *p = m->p;
  bool bad = m->bad;
  *m = (eng_md){0};
  if (bad) {
    free(p);
    return NULL;
  }
  return p ? p : calloc(1, 1);
}

/* ---- data files -----------------------------------------------------------
 */

void eng_load_err(eng_loader *l, const char *fmt, ...) {
  char msg[480];
  int o = snprintf(msg, sizeof msg, "%s: ",
                   l->file   ? l->file
                   : l->game ? l->game
                             : "data");
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg + o, sizeof msg - (size_t)o, fmt, ap);
  va_end(ap);
  l->errors++;
  if (l->report)
    l->report(l->ctx, msg);
}

void eng_load_keys(eng_loader *l, const char *where, const json_t *o,
                   const char *const *keys) {
  const char *key;
  json_t *v;
  json_object_foreach((json_t *)o, key, v) {
    bool ok = false;
    for (const char *const *k = keys; *k && !ok; k++)
      ok = strcmp(*k, key) == 0;
    if (!ok)
      eng_load_err(l, "%s: unknown key '%s'.", where, key);
  }
}

bool eng_load_str(eng_loader *l, const char *where, const json_t *o,
                  const char *key, char *dst, size_t cap, bool required) {
  json_t *v = json_object_get(o, key);
  dst[0] = '\0';
  if (!v) {
    if (required)
      eng_load_err(l, "%s: '%s' is missing.", where, key);
    return false;
  }
  const char *s = json_string_value(v);
  if (!s || !s[0]) {
    eng_load_err(l, "%s: '%s' must be a non-empty string.", where, key);
    return false;
  }
  if (strlen(s) >= cap) {
    eng_load_err(l, "%s: '%s' is longer than %zu bytes.", where, key, cap - 1);
    return false;
  }
  memcpy(dst, s, strlen(s) + 1);
  return true;
}

const json_t *eng_view_player(const json_t *view, long seat) {
  size_t i;
  json_t *p;
  json_array_foreach(json_object_get(view, "players"), i, p) {
    if (eng_jnum(p, "seat") == seat)
      return p;
  }
  return NULL;
}
