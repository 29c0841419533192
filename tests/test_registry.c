/*
 * test_registry.c: everything the binary ships, whatever games exist:
 * result strings, every registered ruleset (well-formed table, short
 * random playouts without violations, record replay through
 * eng_game_from_record, a public line told for every answer of every
 * kind) and every embedded data file.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "blob.h"
#include "eng.h"

static void test_result_strings(void **unused) {
  (void)unused;
  assert_int_equal(ENG_OK, 0);
  for (int i = 0; i < ENG_RC_COUNT; i++) {
    const char *text = eng_strerror((eng_rc)i), *name = eng_rcname((eng_rc)i);
    assert_non_null(text);
    assert_non_null(name);
    assert_true(text[0] != '\0' && name[0] != '\0');
    for (int k = 0; k < i; k++)
      assert_string_not_equal(name, eng_rcname((eng_rc)k));
  }
  assert_string_equal(eng_rcname(ENG_BAD_OPTION), "BAD_OPTION");
  assert_string_equal(eng_strerror(ENG_OK), "OK.");
  assert_non_null(eng_strerror(ENG_RC_COUNT));
  assert_non_null(eng_strerror((eng_rc)-1));
  assert_non_null(eng_rcname((eng_rc)1000));
}

static void test_rulesets_well_formed(void **unused) {
  size_t n;
  const eng_ruleset *const *all = eng_rulesets(&n);

  (void)unused;
  assert_null(eng_find("nosuchgame"));
  assert_null(eng_find(""));
  assert_null(eng_find("toy")); /* test-only, never registered */
  for (size_t i = 0; i < n; i++) {
    const eng_ruleset *rs = all[i];
    assert_non_null(rs);
    assert_non_null(rs->id);
    assert_non_null(rs->name);
    assert_ptr_equal(eng_find(rs->id), rs);
    for (size_t k = 0; k < i; k++)
      assert_string_not_equal(rs->id, all[k]->id);
    assert_true(rs->min_players >= 1);
    assert_true(rs->min_players <= rs->max_players);
    assert_true(rs->max_players <= ENG_MAX_SEATS);
    assert_true(rs->state_size > 0);
    assert_non_null(rs->setup);
    assert_non_null(rs->prompt);
    assert_non_null(rs->question);
    assert_non_null(rs->option);
    assert_non_null(rs->apply);
    assert_non_null(rs->view);
    assert_non_null(rs->to_json);
    assert_non_null(rs->from_json);
    assert_non_null(rs->result);
    assert_non_null(rs->check);
  }
}

/* A few complete random games per player count: the ruleset's own
 * invariants must hold after every answer. */
static void test_rulesets_simulate(void **unused) {
  size_t n;
  const eng_ruleset *const *all = eng_rulesets(&n);

  (void)unused;
  for (size_t i = 0; i < n; i++) {
    for (int p = all[i]->min_players; p <= all[i]->max_players; p++) {
      eng_config cfg;
      eng_sim_stats st;
      eng_rc rc;
      memset(&cfg, 0, sizeof cfg);
      cfg.players = p;
      cfg.first = -1;
      memset(&st, 0, sizeof st);
      rc = eng_simulate(all[i], &cfg, 2024, 3, true, 100000, &st);
      if (rc != ENG_OK)
        fail_msg("%s with %d players: %s", all[i]->id, p, eng_rcname(rc));
      if (st.violations)
        fail_msg("%s with %d players: %s", all[i]->id, p, st.first_violation);
      assert_int_equal(st.games, 3);
    }
  }
}

/* A record, as text, rebuilds the same game. */
static void test_rulesets_record_replay(void **unused) {
  size_t n;
  const eng_ruleset *const *all = eng_rulesets(&n);

  (void)unused;
  for (size_t i = 0; i < n; i++) {
    eng_config cfg;
    eng_game *g = NULL, *h = NULL;
    eng_rng pick;
    json_t *rec, *back;
    char *text, *a, *b;

    memset(&cfg, 0, sizeof cfg);
    cfg.players = all[i]->max_players;
    cfg.first = -1;
    assert_int_equal(eng_game_new(all[i], &cfg, 99, &g), ENG_OK);
    eng_rng_seed(&pick, 5, 0);
    for (int k = 0; k < 300 && g->prompt.player >= 0; k++)
      assert_int_equal(
          eng_game_answer_index(
              g, (int)eng_rng_below(&pick, (uint32_t)g->prompt.n), NULL),
          ENG_OK);
    rec = eng_game_record(g);
    assert_non_null(rec);
    text = json_dumps(rec, 0);
    assert_non_null(text);
    back = json_loads(text, 0, NULL);
    assert_non_null(back);
    assert_int_equal(eng_game_from_record(back, &h), ENG_OK);
    assert_non_null(h);
    a = eng_game_state_text(g);
    b = eng_game_state_text(h);
    assert_string_equal(a, b);
    assert_int_equal(g->n_answers, h->n_answers);
    free(a);
    free(b);
    free(text);
    json_decref(rec);
    json_decref(back);
    eng_game_free(g);
    eng_game_free(h);
  }
}

/* Every game tells what each answer did: playing whole games through the
 * core with events, every answer of every kind (its option id up to the
 * first '.', "mob" for "mob.c12") yields at least one public line; the
 * core would refuse one that did not (ENG_INTERNAL). */
static void test_rulesets_tell_every_answer(void **unused) {
  size_t n;
  const eng_ruleset *const *all = eng_rulesets(&n);
  static eng_events ev;

  (void)unused;
  for (size_t i = 0; i < n; i++) {
    char kinds[32][ENG_ID_MAX + 1];
    long told[32] = {0};
    int n_kinds = 0;
    for (int p = all[i]->min_players; p <= all[i]->max_players; p++) {
      eng_config cfg;
      eng_game *g = NULL;
      eng_rng pick;
      memset(&cfg, 0, sizeof cfg);
      cfg.players = p;
      cfg.first = -1;
      assert_int_equal(eng_game_new(all[i], &cfg, 7 + (uint64_t)p, &g), ENG_OK);
      eng_rng_seed(&pick, 11, (uint64_t)p);
      for (int k = 0; k < 20000 && g->prompt.player >= 0; k++) {
        char id[ENG_ID_MAX + 1], label[ENG_LABEL_MAX + 1];
        int o = (int)eng_rng_below(&pick, (uint32_t)g->prompt.n);
        eng_game_option(g, o, id, label);
        eng_rc rc = eng_game_answer_index(g, o, &ev);
        if (rc != ENG_OK)
          fail_msg("%s, %d players: answer '%s' failed: %s", all[i]->id, p, id,
                   eng_rcname(rc));
        if (eng_events_count(&ev, -1) == 0)
          fail_msg("%s: answer '%s' told no public line", all[i]->id, id);
        id[strcspn(id, ".")] = '\0';
        int kind = 0;
        while (kind < n_kinds && strcmp(kinds[kind], id) != 0)
          kind++;
        if (kind == n_kinds && n_kinds < 32)
          memcpy(kinds[n_kinds++], id, sizeof kinds[0]);
        if (kind < 32)
          told[kind]++;
      }
      assert_true(g->prompt.player < 0); /* the game ended */
      eng_game_free(g);
    }
    assert_true(n_kinds >= 2);
    for (int k = 0; k < n_kinds; k++)
      assert_true(told[k] > 0);
  }
}

static void test_blobs(void **unused) {
  (void)unused;
  for (size_t i = 0; i < eng_n_blobs; i++) {
    const eng_blob *b = &eng_blobs[i];
    const char *slash = strchr(b->name, '/');
    size_t len = strlen(b->name);
    json_error_t err;
    json_t *j;

    assert_non_null(slash);
    assert_true(len > 5 && strcmp(b->name + len - 5, ".json") == 0);
    assert_int_equal(strlen(b->text), b->len);
    assert_ptr_equal(eng_blob_find(b->name), b);
    j = json_loadb(b->text, b->len, 0, &err);
    if (!j)
      fail_msg("%s line %d: %s", b->name, err.line, err.text);
    json_decref(j);
  }
  assert_null(eng_blobs[eng_n_blobs].name); /* the table's end marker */
  assert_null(eng_blob_find("nosuch/file.json"));
  assert_null(eng_blob_find(""));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_result_strings),
      cmocka_unit_test(test_rulesets_well_formed),
      cmocka_unit_test(test_rulesets_simulate),
      cmocka_unit_test(test_rulesets_record_replay),
      cmocka_unit_test(test_rulesets_tell_every_answer),
      cmocka_unit_test(test_blobs),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
