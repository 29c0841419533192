/*
 * test_fuzz_state.c: a damaged saved state never crashes the engine.
 *
 * Lair keeps each game's state as a snapshot in its database; a file
 * edited by hand or damaged on disk must be refused with ENG_BAD_STATE or
 * be a state the rules can go on with. For every registered ruleset,
 * states reached by seeded random play at every player count are written
 * with to_json, then damaged at random, one change at a time (a number
 * set to a neighbour, an edge value or a random one; a string emptied or
 * replaced; an array element removed, duplicated or swapped; a member
 * removed), and read back with from_json. A state that is accepted must
 * satisfy the ruleset's invariants, give every seat a view that renders,
 * offer a prompt whose options all have ids and labels, and play on with
 * random legal answers, each applied without error and followed by the
 * invariant check, until the game ends or a cap. Under the sanitizer
 * build (tools/test.sh) an out-of-range index that a check missed shows
 * here as a report. Everything is seeded, so a failure repeats. One run
 * per ruleset: `test_fuzz_state RULESET` (cmake/tests.cmake).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "eng.h"

#define BASE_STATES 36  /* per ruleset, spread over its player counts */
#define DAMAGES 24      /* damaged copies of each */
#define PLAY_ON 60      /* answers played from an accepted copy */
#define LEAVES_MAX 4096 /* places in one state's JSON */
#define RENDER_CAP 8192

/* One place in a JSON tree: a member of an object or an array element. */
typedef struct place {
  json_t *parent;
  const char *key; /* object member, or NULL for an array element */
  size_t index;
} place;

static void collect(json_t *j, place *out, size_t *n) {
  if (json_is_object(j)) {
    const char *key;
    json_t *v;
    json_object_foreach(j, key, v) {
      if (*n < LEAVES_MAX)
        out[(*n)++] = (place){j, key, 0};
      collect(v, out, n);
    }
  } else if (json_is_array(j)) {
    size_t i;
    json_t *v;
    json_array_foreach(j, i, v) {
      if (*n < LEAVES_MAX)
        out[(*n)++] = (place){j, NULL, i};
      collect(v, out, n);
    }
  }
}

static json_t *get(const place *p) {
  return p->key ? json_object_get(p->parent, p->key)
                : json_array_get(p->parent, p->index);
}

static void set(const place *p, json_t *v) {
  if (p->key)
    json_object_set_new(p->parent, p->key, v);
  else
    json_array_set_new(p->parent, p->index, v);
}

/* A damaged number: near the old one, at an edge, or anywhere. */
static json_int_t damaged_int(json_int_t old, eng_rng *r) {
  switch (eng_rng_below(r, 8)) {
  case 0:
    return old + 1;
  case 1:
    return old - 1;
  case 2:
    return 0;
  case 3:
    return -1;
  case 4:
    return 255;
  case 5:
    return 256;
  case 6:
    return INT32_MAX;
  default:
    return (json_int_t)eng_rng_below(r, 300);
  }
}

/* Makes one random change to j (a state's JSON). */
static void damage(json_t *j, eng_rng *r) {
  static place places[LEAVES_MAX];
  size_t n = 0;
  collect(j, places, &n);
  if (n == 0)
    return;
  const place *p = &places[eng_rng_below(r, (uint32_t)n)];
  json_t *v = get(p);
  if (json_is_integer(v)) {
    set(p, json_integer(damaged_int(json_integer_value(v), r)));
  } else if (json_is_string(v)) {
    set(p, eng_rng_below(r, 2) ? json_string("") : json_string("zz"));
  } else if (json_is_array(v) && json_array_size(v) > 0) {
    size_t len = json_array_size(v), i = eng_rng_below(r, (uint32_t)len);
    switch (eng_rng_below(r, 3)) {
    case 0:
      json_array_remove(v, i);
      break;
    case 1:
      json_array_append(v, json_array_get(v, i));
      break;
    default: {
      size_t k = eng_rng_below(r, (uint32_t)len);
      json_t *a = json_incref(json_array_get(v, i));
      json_array_set(v, i, json_array_get(v, k));
      json_array_set_new(v, k, a);
    }
    }
  } else if (p->key && eng_rng_below(r, 2)) {
    json_object_del(p->parent, p->key);
  } else {
    set(p, json_true());
  }
}

/* Checks an accepted state as far as the rules take it. */
static void play_on(const eng_ruleset *rs, void *st, int players, eng_rng *r,
                    const char *what) {
  char msg[300], id[ENG_ID_MAX + 1], label[ENG_LABEL_MAX + 1];
  static char text[RENDER_CAP];
  static eng_prompt p;
  static eng_events ev;
  for (int k = 0; k < PLAY_ON; k++) {
    if (rs->check(st, msg, sizeof msg))
      fail_msg("%s, %d answers on: %s", what, k, msg);
    for (int v = -1; v < players; v++) {
      json_t *view = rs->view(st, v);
      assert_non_null(view);
      if (rs->render)
        rs->render(view, v < 0 ? ENG_RENDER_TABLE : ENG_RENDER_HAND, text,
                   sizeof text);
      json_decref(view);
    }
    rs->prompt(st, &p);
    if (p.player < 0)
      return;
    if (p.player >= players || p.n < 1 || p.n > ENG_OPTIONS_MAX)
      fail_msg("%s: a prompt for seat %d with %d options", what, p.player, p.n);
    rs->question(st, &p, text, sizeof text);
    for (int i = 0; i < p.n; i++) {
      rs->option(st, &p, i, id, label);
      if (!id[0] || !label[0])
        fail_msg("%s: option %d has no id or label", what, i);
    }
    unsigned flags = 0;
    eng_events_clear(&ev);
    eng_rc rc =
        rs->apply(st, p.code[eng_rng_below(r, (uint32_t)p.n)], &flags, &ev);
    if (rc != ENG_OK)
      fail_msg("%s: a legal answer failed: %s", what, eng_rcname(rc));
    if (eng_events_count(&ev, -1) == 0)
      fail_msg("%s: an answer told the table nothing", what);
  }
}

static void fuzz(const eng_ruleset *rs) {
  void *st = calloc(1, rs->state_size), *copy = calloc(1, rs->state_size);
  assert_non_null(st);
  assert_non_null(copy);
  long accepted = 0, refused = 0;
  eng_rng r;
  eng_rng_seed(&r, 20261122, 7);
  int counts = rs->max_players - rs->min_players + 1;
  int per_count = BASE_STATES / counts > 4 ? BASE_STATES / counts : 4;
  for (int players = rs->min_players; players <= rs->max_players; players++) {
    for (int b = 0; b < per_count; b++) {
      eng_config cfg;
      memset(&cfg, 0, sizeof cfg);
      cfg.players = players;
      memset(st, 0, rs->state_size);
      assert_int_equal(rs->setup(st, &cfg, (uint64_t)(1000 * players + b)),
                       ENG_OK);
      /* Somewhere in the game: from its start to well into it. */
      long steps = (long)eng_rng_below(&r, 400);
      eng_prompt p;
      for (long k = 0; k < steps; k++) {
        rs->prompt(st, &p);
        if (p.player < 0)
          break;
        unsigned flags = 0;
        assert_int_equal(rs->apply(st, p.code[eng_rng_below(&r, (uint32_t)p.n)],
                                   &flags, NULL),
                         ENG_OK);
      }
      json_t *saved = rs->to_json(st);
      assert_non_null(saved);
      /* The undamaged state reads back as itself. */
      memset(copy, 0, rs->state_size);
      assert_int_equal(rs->from_json(copy, saved), ENG_OK);
      for (int d = 0; d < DAMAGES; d++) {
        json_t *j = json_deep_copy(saved);
        assert_non_null(j);
        int changes = 1 + (int)eng_rng_below(&r, 3);
        for (int c = 0; c < changes; c++)
          damage(j, &r);
        memset(copy, 0xA5, rs->state_size); /* from_json must not rely
                                                on a zeroed buffer */
        eng_rc rc = rs->from_json(copy, j);
        json_decref(j);
        if (rc != ENG_OK) {
          assert_int_equal(rc, ENG_BAD_STATE);
          refused++;
          continue;
        }
        accepted++;
        char what[120];
        snprintf(what, sizeof what,
                 "%s, %d players, base state %d, damaged copy %d", rs->id,
                 players, b, d);
        play_on(rs, copy, players, &r, what);
      }
      json_decref(saved);
    }
  }
  /* Both outcomes happen, or the damage is not reaching the reader. */
  print_message("%s: %ld damaged states refused, %ld accepted and played\n",
                rs->id, refused, accepted);
  assert_true(refused > 0);
  assert_true(accepted > 0);
  free(st);
  free(copy);
}

/* The ruleset this run damages (argv[1]); NULL: the run that checks that
 * every registered ruleset has a run of its own. */
static const char *only;

static void test_damaged_states(void **unused) {
  (void)unused;
  size_t n;
  const eng_ruleset *const *all = eng_rulesets(&n);
  assert_true(n > 0);
  for (size_t i = 0; i < n; i++)
    if (strcmp(all[i]->id, only) == 0)
      return fuzz(all[i]);
  fail_msg("no ruleset '%s' is registered", only);
}

/* cmake/tests.cmake runs this file once per ruleset (LAIR_FUZZ_RULESETS,
 * space-separated): a ruleset added without a run fails. */
static void test_every_ruleset_has_a_run(void **unused) {
  (void)unused;
  const char *list = getenv("LAIR_FUZZ_RULESETS");
  assert_non_null(list);
  size_t n;
  const eng_ruleset *const *all = eng_rulesets(&n);
  for (size_t i = 0; i < n; i++) {
    size_t len = strlen(all[i]->id);
    bool found = false;
    for (const char *p = list; *p && !found; p += strcspn(p, " "),
                    p += strspn(p, " "))
      found = strncmp(p, all[i]->id, len) == 0 &&
              (p[len] == '\0' || p[len] == ' ');
    if (!found)
      fail_msg("ruleset '%s' has no test_fuzz_state run in "
               "cmake/tests.cmake (LAIR_FUZZ_RULESETS)",
               all[i]->id);
  }
}

int main(int argc, char **argv) {
  only = argc > 1 ? argv[1] : NULL;
  const struct CMUnitTest fuzzing[] = {
      cmocka_unit_test(test_damaged_states),
  };
  const struct CMUnitTest listing[] = {
      cmocka_unit_test(test_every_ruleset_has_a_run),
  };
  return only ? cmocka_run_group_tests(fuzzing, NULL, NULL)
              : cmocka_run_group_tests(listing, NULL, NULL);
}
