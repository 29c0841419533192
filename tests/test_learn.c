/*
 * test_learn.c: what /game help and /game learn are built on.
 *
 * The rules summaries embedded at build time (commands/cmd_docs.h) are
 * byte for byte the files of docs/rules, read here at test time
 * (LAIR_RULES_DIR), one for every registered ruleset. eng_ai_hint names
 * the very option eng_ai_choose answers at the heuristic level with the
 * same generator, with a reason of one line, in every prompt of seeded
 * games of every ruleset.
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

#include "cmd_docs.h"
#include "eng.h"

static char *read_whole(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap);
  size_t k;
  while (buf && (k = fread(buf + n, 1, cap - n, f)) > 0) {
    n += k;
    if (n == cap) {
      char *more = realloc(buf, cap * 2);
      if (!more) {
        free(buf);
        buf = NULL;
        break;
      }
      buf = more;
      cap *= 2;
    }
  }
  fclose(f);
  *len = n;
  return buf;
}

static void test_embedded_rules_equal_docs(void **unused) {
  (void)unused;
  assert_true(cmd_rules_docs_n > 0);
  for (size_t i = 0; i < cmd_rules_docs_n; i++) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s.md", LAIR_RULES_DIR,
             cmd_rules_docs[i].id);
    size_t len;
    char *text = read_whole(path, &len);
    assert_non_null(text);
    assert_int_equal(len, cmd_rules_docs[i].len);
    assert_int_equal(strlen(cmd_rules_docs[i].text), len);
    assert_memory_equal(text, cmd_rules_docs[i].text, len);
    free(text);
  }
  assert_null(cmd_rules_docs[cmd_rules_docs_n].id);
  size_t n;
  const eng_ruleset *const *all = eng_rulesets(&n);
  for (size_t k = 0; k < n; k++) {
    bool found = false;
    for (size_t i = 0; i < cmd_rules_docs_n; i++)
      found |= strcmp(cmd_rules_docs[i].id, all[k]->id) == 0;
    if (!found)
      fail_msg("no rules summary embedded for %s", all[k]->id);
  }
}

/* Plays seeded games of rs; at every prompt the hint's option is the
 * heuristic's answer with the same generator state, and that answer is
 * played. */
static void hints_of(const eng_ruleset *rs) {
  for (uint64_t seed = 1; seed <= 3; seed++) {
    eng_config cfg = {.players = rs->min_players, .first = -1};
    eng_game *g;
    assert_int_equal(eng_game_new(rs, &cfg, seed, &g), ENG_OK);
    long steps = 0;
    while (g->prompt.player >= 0 && steps < 400) {
      eng_rng a, b;
      eng_rng_seed(&a, seed ^ (uint64_t)steps, 7);
      b = a;
      char why[160];
      int hint = eng_ai_hint(rs, g->state, &g->prompt, &a, why, sizeof why);
      int pick = eng_ai_choose(rs, g->state, &g->prompt, ENG_AI_HEURISTIC, &b);
      if (hint != pick)
        fail_msg("%s seed %llu step %ld: hint %d, AI %d", rs->id,
                 (unsigned long long)seed, steps, hint, pick);
      assert_true(hint >= 0 && hint < g->prompt.n);
      assert_true(strlen(why) > 5);
      assert_null(strchr(why, '\n'));
      assert_int_equal(eng_game_answer_index(g, pick, NULL), ENG_OK);
      steps++;
    }
    eng_game_free(g);
  }
}

static void test_hint_is_the_ai_answer(void **unused) {
  (void)unused;
  size_t n;
  const eng_ruleset *const *all = eng_rulesets(&n);
  for (size_t k = 0; k < n; k++) {
    assert_non_null(all[k]->ai_why);
    hints_of(all[k]);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_embedded_rules_equal_docs),
      cmocka_unit_test(test_hint_is_the_ai_answer),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
