/*
 * rsutil.c: the helpers rulesets share for text and JSON (rsutil.h).
 */
#include "rsutil.h"

#include <stdarg.h>
#include <stdio.h>
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
  if (t->len + 1 >= t->cap)
    return;
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(t->buf + t->len, t->cap - t->len, fmt, ap);
  va_end(ap);
  if (n < 0)
    return;
  t->len += (size_t)n;
  if (t->len >= t->cap)
    t->len = t->cap - 1;
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
