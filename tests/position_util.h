/*
 * position_util.h: test-only strict reading of the JSON position files
 * the rule tests of every game load: an unknown key or a number out of
 * range fails with a message naming it, rather than silently testing
 * some other position.
 */
#ifndef LAIR_TESTS_POSITION_UTIL_H
#define LAIR_TESTS_POSITION_UTIL_H

#include <jansson.h>
#include <stddef.h>

/* 0 when obj is an object whose keys are all in the NULL-terminated list
 * allowed; else 1 with err (cap bytes) naming where and the key. */
int pos_keys_ok(const json_t *obj, const char *where,
                const char *const *allowed, char *err, size_t cap);

/* Reads the optional integer member key of obj into *out (def when it is
 * absent). 0 on success; 1 with err when it is no integer in [lo, hi]. */
int pos_int_key(const json_t *obj, const char *key, int lo, int hi, int def,
                const char *where, int *out, char *err, size_t cap);

#endif
