/*
 * position_util.c: strict reading of position files (position_util.h).
 */
#include "position_util.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

int pos_keys_ok(const json_t *obj, const char *where,
                const char *const *allowed, char *err, size_t cap) {
  const char *key;
  json_t *v;
  if (!json_is_object(obj)) {
    snprintf(err, cap, "%s: expected an object", where);
    return 1;
  }
  json_object_foreach((json_t *)obj, key, v) {
    bool ok = false;
    for (const char *const *a = allowed; *a && !ok; a++)
      ok = strcmp(*a, key) == 0;
    if (!ok) {
      snprintf(err, cap, "%s: unknown key \"%s\"", where, key);
      return 1;
    }
  }
  return 0;
}

int pos_int_key(const json_t *obj, const char *key, int lo, int hi, int def,
                const char *where, int *out, char *err, size_t cap) {
  json_t *v = json_object_get(obj, key);
  if (!v) {
    *out = def;
    return 0;
  }
  if (!json_is_integer(v) || json_integer_value(v) < lo ||
      json_integer_value(v) > hi) {
    snprintf(err, cap, "%s: \"%s\" must be an integer from %d to %d", where,
             key, lo, hi);
    return 1;
  }
  *out = (int)json_integer_value(v);
  return 0;
}
