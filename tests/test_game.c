/*
 * test_game.c: the game core (eng_game_*) driven through the test-only toy
 * ruleset: replays, state JSON, refused answers, out-of-turn prompts,
 * takeback, option lookup, the shape of option ids, and the lines every
 * answer must tell.
 *
 * "Unchanged" always means the canonical state text, the prompt and the
 * answer list are identical to before the call.
 */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "eng.h"
#include "toy_ruleset.h"

/* ---- helpers ------------------------------------------------------------*/

static eng_game *new_game(int players, uint64_t seed, int first) {
  eng_config cfg;
  eng_game *g = NULL;

  memset(&cfg, 0, sizeof cfg);
  cfg.players = players;
  cfg.first = first;
  assert_int_equal(eng_game_new(&toy_ruleset, &cfg, seed, &g), ENG_OK);
  assert_non_null(g);
  return g;
}

static char *state_text(const eng_game *g) {
  char *t = eng_game_state_text(g);
  assert_non_null(t);
  return t;
}

typedef struct snapshot {
  char *text;
  eng_prompt prompt;
  size_t n_answers;
} snapshot;

static void snap(snapshot *s, const eng_game *g) {
  s->text = state_text(g);
  s->prompt = g->prompt;
  s->n_answers = g->n_answers;
}

static void assert_prompt_equal(const eng_prompt *a, const eng_prompt *b) {
  assert_int_equal(a->player, b->player);
  assert_int_equal(a->turn, b->turn);
  assert_int_equal(a->n, b->n);
  if (a->n > 0)
    assert_memory_equal(a->code, b->code, (size_t)a->n * sizeof a->code[0]);
}

/* Asserts g is as snapshot s, then frees s. */
static void assert_unchanged(snapshot *s, const eng_game *g) {
  char *now = state_text(g);

  assert_string_equal(now, s->text);
  assert_prompt_equal(&g->prompt, &s->prompt);
  assert_int_equal(g->n_answers, s->n_answers);
  free(now);
  free(s->text);
  s->text = NULL;
}

/* Index of the option with this id in the current prompt, or -1. */
static int index_of(const eng_game *g, const char *id) {
  char oid[ENG_ID_MAX + 1], label[ENG_LABEL_MAX + 1];

  for (int i = 0; i < g->prompt.n; i++) {
    eng_game_option(g, i, oid, label);
    if (strcmp(oid, id) == 0)
      return i;
  }
  return -1;
}

/* The id of the first option whose id starts with prefix. */
static void first_id(const eng_game *g, const char *prefix,
                     char id[ENG_ID_MAX + 1]) {
  char label[ENG_LABEL_MAX + 1];

  for (int i = 0; i < g->prompt.n; i++) {
    eng_game_option(g, i, id, label);
    if (strncmp(id, prefix, strlen(prefix)) == 0)
      return;
  }
  fail_msg("no option starting with %s", prefix);
}

static void answer_ok(eng_game *g, int player, const char *id) {
  eng_rc rc = eng_game_answer(g, player, id, NULL);
  if (rc != ENG_OK)
    fail_msg("answer %d '%s': %s", player, id, eng_rcname(rc));
}

/* Plays random answers until the game ends or max answers were given,
 * checking that each answer is recorded as given. */
static void play_random(eng_game *g, eng_rng *pick, int max) {
  char id[ENG_ID_MAX + 1], label[ENG_LABEL_MAX + 1];

  for (int k = 0; k < max && g->prompt.player >= 0; k++) {
    int player = g->prompt.player, turn = g->prompt.turn;
    int i = (int)eng_rng_below(pick, (uint32_t)g->prompt.n);
    size_t n = g->n_answers;

    eng_game_option(g, i, id, label);
    assert_int_equal(eng_game_answer_index(g, i, NULL), ENG_OK);
    assert_int_equal(g->n_answers, n + 1);
    assert_int_equal(g->answers[n].player, player);
    assert_int_equal(g->answers[n].turn, turn);
    assert_string_equal(g->answers[n].id, id);
  }
}

static eng_game *finished_game(int players, uint64_t seed) {
  eng_game *g = new_game(players, seed, -1);
  eng_rng pick;

  eng_rng_seed(&pick, seed, 99);
  play_random(g, &pick, 1000);
  assert_int_equal(g->prompt.player, -1);
  return g;
}

/* ---- setup --------------------------------------------------------------*/

static void test_new_rejects(void **unused) {
  static const struct {
    int players, first;
    const char *mode;
    eng_rc rc;
  } cases[] = {
      {1, -1, "", ENG_BAD_PLAYERS},    {5, -1, "", ENG_BAD_PLAYERS},
      {0, -1, "", ENG_BAD_PLAYERS},    {-3, -1, "", ENG_BAD_PLAYERS},
      {2, -1, "nosuch", ENG_BAD_MODE}, {2, -1, "short+short", ENG_BAD_MODE},
      {3, 3, "", ENG_BAD_SEAT},        {3, -2, "", ENG_BAD_SEAT},
  };
  (void)unused;
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    eng_config cfg;
    eng_game *g = (eng_game *)&cfg; /* any non-NULL value */
    memset(&cfg, 0, sizeof cfg);
    cfg.players = cases[k].players;
    cfg.first = cases[k].first;
    strcpy(cfg.mode, cases[k].mode);
    assert_int_equal(eng_game_new(&toy_ruleset, &cfg, 1, &g), cases[k].rc);
    assert_null(g);
  }
}

static void test_new_game_prompt(void **unused) {
  eng_game *g = new_game(3, 42, 1);

  (void)unused;
  assert_int_equal(g->prompt.player, 1);
  assert_int_equal(g->prompt.turn, 1);
  assert_int_equal(g->prompt.n, TOY_DEAL + 1); /* 3 cards and draw */
  assert_int_equal(g->n_answers, 0);
  eng_game_free(g);
  eng_game_free(NULL);
}

/* ---- replay -------------------------------------------------------------*/

static void test_replay(void **unused) {
  (void)unused;
  for (int players = 2; players <= 4; players++) {
    for (uint64_t seed = 1; seed <= 20; seed++) {
      eng_game *g = finished_game(players, seed);
      eng_game *h = new_game(players, seed, -1);
      eng_game *again = finished_game(players, seed);
      char *t1 = state_text(g), *t2, *t3 = state_text(again);
      eng_result r1, r2;

      for (size_t i = 0; i < g->n_answers; i++)
        answer_ok(h, g->answers[i].player, g->answers[i].id);
      t2 = state_text(h);
      assert_string_equal(t1, t2);
      assert_string_equal(t1, t3);
      assert_int_equal(h->n_answers, g->n_answers);
      eng_game_result(g, &r1);
      eng_game_result(h, &r2);
      assert_true(r1.over && r2.over);
      assert_int_equal(r1.winners, r2.winners);
      assert_string_equal(r1.reason, r2.reason);
      free(t1);
      free(t2);
      free(t3);
      eng_game_free(g);
      eng_game_free(h);
      eng_game_free(again);
    }
  }
}

static void test_record(void **unused) {
  eng_game *g = finished_game(3, 7), *out = NULL;
  json_t *rec = eng_game_record(g), *bad;

  (void)unused;
  assert_non_null(rec);
  assert_true(json_is_object(rec));
  assert_string_equal(json_string_value(json_object_get(rec, "ruleset")),
                      "toy");
  assert_non_null(json_object_get(rec, "version"));
  assert_non_null(json_object_get(rec, "seed"));
  assert_int_equal(json_array_size(json_object_get(rec, "answers")),
                   g->n_answers);

  /* The toy ruleset is not registered, so a replay cannot find it. */
  out = g;
  assert_int_equal(eng_game_from_record(rec, &out), ENG_UNKNOWN_GAME);
  assert_null(out);

  out = g;
  bad = json_integer(5);
  assert_int_equal(eng_game_from_record(bad, &out), ENG_BAD_RECORD);
  assert_null(out);
  json_decref(bad);
  out = g;
  bad = json_object();
  assert_int_equal(eng_game_from_record(bad, &out), ENG_BAD_RECORD);
  assert_null(out);
  json_decref(bad);
  out = g;
  assert_int_equal(eng_game_from_record(NULL, &out), ENG_BAD_RECORD);
  assert_null(out);

  json_decref(rec);
  eng_game_free(g);
}

/* ---- state JSON ---------------------------------------------------------*/

static char *dump(const json_t *j) {
  char *t = json_dumps(j, JSON_SORT_KEYS | JSON_COMPACT);
  assert_non_null(t);
  return t;
}

static void test_state_round_trip(void **unused) {
  const eng_ruleset *rs = &toy_ruleset;
  void *buf = calloc(1, rs->state_size);
  char msg[256];

  (void)unused;
  assert_non_null(buf);
  for (int players = 2; players <= 4; players++) {
    for (uint64_t seed = 1; seed <= 8; seed++) {
      eng_game *g = new_game(players, seed, -1);
      eng_rng pick;
      eng_rng_seed(&pick, seed, 5);
      while (g->prompt.player >= 0) {
        json_t *j = rs->to_json(g->state), *j2;
        char *t1 = dump(j), *t2, *s1, *s2;

        assert_int_equal(rs->from_json(buf, j), ENG_OK);
        j2 = rs->to_json(buf);
        t2 = dump(j2);
        assert_string_equal(t1, t2);
        if (rs->check(g->state, msg, sizeof msg))
          fail_msg("toy invariant: %s", msg);
        s1 = state_text(g);
        s2 = state_text(g);
        assert_string_equal(s1, s2);
        free(s1);
        free(s2);
        free(t1);
        free(t2);
        json_decref(j);
        json_decref(j2);
        play_random(g, &pick, 1);
      }
      eng_game_free(g);
    }
  }
  free(buf);
}

/* The toy's strict from_json refuses damaged saves (it relies on the core's
 * eng_rng_from_json and eng_pile_from_json). */
static void test_state_rejects(void **unused) {
  const eng_ruleset *rs = &toy_ruleset;
  eng_game *g = new_game(3, 9, 0);
  void *buf = calloc(1, rs->state_size);
  json_t *j;

  (void)unused;
  j = rs->to_json(g->state);
  json_object_del(j, "rng");
  assert_int_equal(rs->from_json(buf, j), ENG_BAD_STATE);
  json_decref(j);

  j = rs->to_json(g->state);
  json_object_set_new(j, "players", json_integer(9));
  assert_int_equal(rs->from_json(buf, j), ENG_BAD_STATE);
  json_decref(j);

  /* A card in two places. */
  j = rs->to_json(g->state);
  json_array_set(
      json_object_get(j, "deck"), 0,
      json_array_get(json_array_get(json_object_get(j, "hands"), 0), 0));
  assert_int_equal(rs->from_json(buf, j), ENG_BAD_STATE);
  json_decref(j);

  j = rs->to_json(g->state);
  json_array_append_new(json_object_get(j, "deck"), json_integer(16));
  assert_int_equal(rs->from_json(buf, j), ENG_BAD_STATE);
  json_decref(j);

  j = json_array();
  assert_int_equal(rs->from_json(buf, j), ENG_BAD_STATE);
  json_decref(j);

  free(buf);
  eng_game_free(g);
}

/* ---- refused answers ----------------------------------------------------*/

static void expect_answer(eng_game *g, int player, const char *id, eng_rc rc) {
  snapshot s;
  eng_rc got;

  snap(&s, g);
  got = eng_game_answer(g, player, id, NULL);
  if (got != rc)
    fail_msg("answer(%d, '%.50s') gave %s, expected %s", player, id,
             eng_rcname(got), eng_rcname(rc));
  assert_unchanged(&s, g);
}

static void expect_index(eng_game *g, int i, eng_rc rc) {
  snapshot s;
  eng_rc got;

  snap(&s, g);
  got = eng_game_answer_index(g, i, NULL);
  if (got != rc)
    fail_msg("answer_index(%d) gave %s, expected %s", i, eng_rcname(got),
             eng_rcname(rc));
  assert_unchanged(&s, g);
}

static void test_answer_rejects(void **unused) {
  eng_game *g = new_game(3, 5, 0);
  char valid[ENG_ID_MAX + 1], long_id[301];

  (void)unused;
  first_id(g, "play-", valid);
  memset(long_id, 'a', sizeof long_id - 1);
  long_id[sizeof long_id - 1] = '\0';

  expect_answer(g, 0, "nosuch", ENG_BAD_OPTION);
  expect_answer(g, 0, "", ENG_BAD_OPTION);
  expect_answer(g, 0, long_id, ENG_BAD_OPTION);
  long_id[ENG_ID_MAX + 1] = '\0'; /* one character too long */
  expect_answer(g, 0, long_id, ENG_BAD_OPTION);
  expect_answer(g, 0, "play-99", ENG_BAD_OPTION);
  expect_answer(g, 0, "pass", ENG_BAD_OPTION);        /* not offered now */
  expect_answer(g, 0, "Draw a card", ENG_BAD_OPTION); /* a label */

  expect_answer(g, 1, valid, ENG_NOT_YOUR_TURN);
  expect_answer(g, 2, valid, ENG_NOT_YOUR_TURN);
  expect_answer(g, -1, valid, ENG_NOT_PLAYING);
  expect_answer(g, 3, valid, ENG_NOT_PLAYING);
  expect_answer(g, ENG_MAX_SEATS, valid, ENG_NOT_PLAYING);
  expect_answer(g, INT_MAX, valid, ENG_NOT_PLAYING);
  expect_answer(g, INT_MIN, valid, ENG_NOT_PLAYING);

  expect_index(g, -1, ENG_BAD_OPTION);
  expect_index(g, g->prompt.n, ENG_BAD_OPTION);
  expect_index(g, ENG_OPTIONS_MAX, ENG_BAD_OPTION);
  expect_index(g, INT_MAX, ENG_BAD_OPTION);

  /* The valid answer still works afterwards. */
  answer_ok(g, 0, valid);
  eng_game_free(g);
}

static void test_answer_after_game_over(void **unused) {
  eng_game *g = finished_game(2, 3);

  (void)unused;
  expect_answer(g, 0, "pass", ENG_GAME_OVER);
  expect_answer(g, 1, "pass", ENG_GAME_OVER);
  expect_answer(g, 0, "draw", ENG_GAME_OVER);
  expect_index(g, 0, ENG_GAME_OVER);
  eng_game_free(g);
}

/* ---- out-of-turn prompts ------------------------------------------------*/

static void test_out_of_turn(void **unused) {
  eng_game *g = new_game(3, 11, 0);
  char card[ENG_ID_MAX + 1];

  (void)unused;
  first_id(g, "play-", card);
  answer_ok(g, 0, card);
  assert_int_equal(g->prompt.player, 0); /* claim: still seat 0 */
  answer_ok(g, 0, "high");

  /* The next seat must decide although it is seat 0's turn. */
  assert_int_equal(g->prompt.player, 1);
  assert_int_equal(g->prompt.turn, 1);
  assert_int_equal(g->prompt.n, 2);
  assert_true(index_of(g, "challenge") >= 0);
  assert_true(index_of(g, "pass") >= 0);
  expect_answer(g, 0, "pass", ENG_NOT_YOUR_TURN);
  expect_answer(g, 2, "pass", ENG_NOT_YOUR_TURN);
  answer_ok(g, 1, "pass");

  /* Seat 1's own turn follows. */
  assert_int_equal(g->prompt.player, 1);
  assert_int_equal(g->prompt.turn, 2);
  assert_true(index_of(g, "draw") >= 0);
  eng_game_free(g);
}

/* ---- takeback -----------------------------------------------------------*/

static void expect_takeback(eng_game *g, int player, eng_rc rc) {
  snapshot s;
  eng_rc got;

  snap(&s, g);
  got = eng_game_takeback(g, player);
  if (got != rc)
    fail_msg("takeback(%d) gave %s, expected %s", player, eng_rcname(got),
             eng_rcname(rc));
  assert_unchanged(&s, g);
}

static void takeback_ok(eng_game *g, int player, const snapshot *before) {
  char *now;

  assert_int_equal(eng_game_takeback(g, player), ENG_OK);
  now = state_text(g);
  assert_string_equal(now, before->text);
  assert_prompt_equal(&g->prompt, &before->prompt);
  assert_int_equal(g->n_answers, before->n_answers);
  free(now);
}

static void test_takeback_own_answers(void **unused) {
  eng_game *g = new_game(3, 21, 0);
  snapshot start, played;
  char card[ENG_ID_MAX + 1];

  (void)unused;
  snap(&start, g);
  assert_int_equal(eng_game_takeback_count(g, 0), 0);
  expect_takeback(g, 0, ENG_NO_TAKEBACK);

  first_id(g, "play-", card);
  answer_ok(g, 0, card);
  assert_int_equal(eng_game_takeback_count(g, 0), 1);
  assert_int_equal(eng_game_takeback_count(g, 1), 0);
  expect_takeback(g, 1, ENG_NO_TAKEBACK);
  takeback_ok(g, 0, &start);

  /* Both answers of the turn come back, in order. */
  answer_ok(g, 0, card);
  snap(&played, g);
  answer_ok(g, 0, "low");
  assert_int_equal(g->prompt.player, 1);
  assert_int_equal(eng_game_takeback_count(g, 0), 2);
  assert_int_equal(eng_game_takeback_count(g, 1), 0);
  expect_takeback(g, 1, ENG_NO_TAKEBACK);
  takeback_ok(g, 0, &played);
  takeback_ok(g, 0, &start);
  expect_takeback(g, 0, ENG_NO_TAKEBACK);

  /* The taken-back answers are gone from the record: a different answer
   * replays to the same state. */
  answer_ok(g, 0, card);
  answer_ok(g, 0, "high");
  {
    eng_game *h = new_game(3, 21, 0);
    char *a, *b;
    for (size_t i = 0; i < g->n_answers; i++)
      answer_ok(h, g->answers[i].player, g->answers[i].id);
    a = state_text(g);
    b = state_text(h);
    assert_string_equal(a, b);
    free(a);
    free(b);
    eng_game_free(h);
  }
  free(start.text);
  free(played.text);
  eng_game_free(g);
}

static void test_takeback_not_across_other_player(void **unused) {
  eng_game *g = new_game(3, 22, 0);
  char card[ENG_ID_MAX + 1];

  (void)unused;
  first_id(g, "play-", card);
  answer_ok(g, 0, card);
  answer_ok(g, 0, "high");
  answer_ok(g, 1, "pass"); /* reveals nothing, ends seat 0's turn */
  assert_int_equal(g->prompt.turn, 2);
  assert_int_equal(eng_game_takeback_count(g, 0), 0);
  assert_int_equal(eng_game_takeback_count(g, 1), 0);
  expect_takeback(g, 0, ENG_NO_TAKEBACK); /* seat 1 answered since */
  expect_takeback(g, 1, ENG_NO_TAKEBACK); /* an answer of turn 1 */
  expect_takeback(g, 2, ENG_NO_TAKEBACK);
  assert_int_not_equal(eng_game_takeback(g, -1), ENG_OK);
  assert_int_not_equal(eng_game_takeback(g, 3), ENG_OK);
  assert_int_not_equal(eng_game_takeback(g, INT_MAX), ENG_OK);
  eng_game_free(g);
}

static void test_takeback_not_across_reveal(void **unused) {
  eng_game *g = new_game(3, 23, 0);
  snapshot drawn;
  char card[ENG_ID_MAX + 1];

  (void)unused;
  answer_ok(g, 0, "draw"); /* shows seat 0 a new card */
  assert_int_equal(eng_game_takeback_count(g, 0), 0);
  expect_takeback(g, 0, ENG_NO_TAKEBACK);

  snap(&drawn, g);
  first_id(g, "play-", card);
  answer_ok(g, 0, card);
  assert_int_equal(eng_game_takeback_count(g, 0), 1);
  takeback_ok(g, 0, &drawn);
  expect_takeback(g, 0, ENG_NO_TAKEBACK);

  /* A challenge reveals the card: nothing before it comes back. */
  answer_ok(g, 0, card);
  answer_ok(g, 0, "high");
  answer_ok(g, 1, "challenge");
  assert_int_equal(eng_game_takeback_count(g, 0), 0);
  assert_int_equal(eng_game_takeback_count(g, 1), 0);
  expect_takeback(g, 0, ENG_NO_TAKEBACK);
  expect_takeback(g, 1, ENG_NO_TAKEBACK);
  free(drawn.text);
  eng_game_free(g);
}

/* ---- option lookup and ids ----------------------------------------------*/

static void test_find_option(void **unused) {
  char id[ENG_ID_MAX + 1], label[ENG_LABEL_MAX + 1];
  eng_game *g = NULL;
  uint64_t seed;
  int dup = -1;

  (void)unused;
  /* A deal in which seat 0 holds both copies of a rank: two options share
   * the label "Play N". */
  for (seed = 1; seed < 1000 && dup < 0; seed++) {
    const toy_state *s;
    g = new_game(2, seed, 0);
    s = g->state;
    for (int i = 0; i < s->hand[0].n && dup < 0; i++)
      for (int k = i + 1; k < s->hand[0].n; k++)
        if (toy_rank(s->hand[0].c[i]) == toy_rank(s->hand[0].c[k]))
          dup = toy_rank(s->hand[0].c[i]);
    if (dup < 0) {
      eng_game_free(g);
      g = NULL;
    }
  }
  assert_non_null(g);

  for (int i = 0; i < g->prompt.n; i++) {
    eng_game_option(g, i, id, label);
    assert_int_equal(eng_game_find_option(g, id), i);
  }
  snprintf(label, sizeof label, "Play %d", dup);
  assert_int_equal(eng_game_find_option(g, label), -2);
  assert_int_equal(eng_game_find_option(g, "Draw a card"), index_of(g, "draw"));
  assert_int_equal(eng_game_find_option(g, "nosuch"), -1);
  assert_int_equal(eng_game_find_option(g, ""), -1);
  assert_int_equal(eng_game_find_option(g, "Play 99"), -1);

  /* A unique label finds its option. */
  answer_ok(g, 0, "draw");
  first_id(g, "play-", id);
  answer_ok(g, 0, id);
  assert_int_equal(eng_game_find_option(g, "Claim high"), index_of(g, "high"));
  assert_int_equal(eng_game_find_option(g, "Claim low"), index_of(g, "low"));
  assert_int_equal(eng_game_find_option(g, "low"), index_of(g, "low"));
  eng_game_free(g);
}

static bool valid_id(const char *id) {
  size_t n = strlen(id);

  if (n == 0 || n > ENG_ID_MAX)
    return false;
  for (size_t i = 0; i < n; i++) {
    char c = id[i];
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
          (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-'))
      return false;
  }
  return true;
}

static void check_prompt(const eng_game *g) {
  static char ids[ENG_OPTIONS_MAX][ENG_ID_MAX + 1];
  char label[ENG_LABEL_MAX + 1];

  if (g->prompt.player < 0)
    return;
  assert_true(g->prompt.player < g->cfg.players);
  assert_true(g->prompt.n >= 1 && g->prompt.n <= ENG_OPTIONS_MAX);
  for (int i = 0; i < g->prompt.n; i++) {
    memset(label, 0, sizeof label);
    eng_game_option(g, i, ids[i], label);
    if (!valid_id(ids[i]))
      fail_msg("bad option id '%s'", ids[i]);
    assert_true(strlen(label) >= 1 && strlen(label) <= ENG_LABEL_MAX);
    for (int k = 0; k < i; k++)
      if (strcmp(ids[i], ids[k]) == 0)
        fail_msg("option id '%s' twice in one prompt", ids[i]);
  }
}

static void test_option_ids(void **unused) {
  (void)unused;
  for (int players = 2; players <= 4; players++) {
    for (uint64_t seed = 100; seed < 140; seed++) {
      eng_game *g = new_game(players, seed, -1);
      eng_rng pick;
      int last_turn = 0, moves = 0;
      eng_rng_seed(&pick, seed, 1);
      while (g->prompt.player >= 0) {
        check_prompt(g);
        assert_true(g->prompt.turn >= last_turn);
        last_turn = g->prompt.turn;
        play_random(g, &pick, 1);
        assert_true(++moves < 1000);
      }
      eng_game_free(g);
    }
  }
}

/* The toy's rules with its events thrown away: a ruleset that never says
 * what happened. */
static eng_rc silent_apply(void *st, uint32_t code, unsigned *flags,
                           eng_events *ev) {
  (void)ev;
  return toy_ruleset.apply(st, code, flags, NULL);
}

/* Asked for events, an answer fills them: at least one public line, and
 * the drawn card only in the drawer's own line. A ruleset that tells
 * nothing cannot be played: the answer is refused and nothing changes;
 * without events (replays) it plays as before. */
static void test_answer_tells(void **unused) {
  static eng_events ev;
  char id[ENG_ID_MAX + 1];
  eng_game *g = new_game(3, 5, 0);

  (void)unused;
  eng_event_add(&ev, -1, "Stale."); /* emptied by the answer */
  first_id(g, "draw", id);
  assert_int_equal(eng_game_answer(g, 0, id, &ev), ENG_OK);
  assert_int_equal(eng_events_count(&ev, -1), 1);
  assert_string_equal(ev.ev[0].text, "Seat 1 draws a card.");
  assert_int_equal(eng_events_count(&ev, 0), 1);
  assert_non_null(strstr(ev.ev[1].text, "You draw a "));
  assert_int_equal(eng_events_count(&ev, 1) + eng_events_count(&ev, 2), 0);
  /* A refused answer leaves no lines behind. */
  assert_int_equal(eng_game_answer(g, 1, id, &ev), ENG_NOT_YOUR_TURN);
  assert_int_equal(ev.n, 0);
  eng_game_free(g);

  eng_ruleset silent = toy_ruleset;
  silent.apply = silent_apply;
  eng_config cfg;
  memset(&cfg, 0, sizeof cfg);
  cfg.players = 2;
  assert_int_equal(eng_game_new(&silent, &cfg, 5, &g), ENG_OK);
  snapshot s;
  snap(&s, g);
  assert_int_equal(eng_game_answer_index(g, 0, &ev), ENG_INTERNAL);
  assert_int_equal(ev.n, 0);
  assert_unchanged(&s, g);
  assert_int_equal(eng_game_answer_index(g, 0, NULL), ENG_OK);
  assert_int_equal(g->n_answers, 1);
  eng_game_free(g);
}

static void test_result(void **unused) {
  int reasons[2] = {0, 0};

  (void)unused;
  for (uint64_t seed = 1; seed <= 60; seed++) {
    eng_game *g = finished_game(2 + (int)(seed % 3), seed);
    eng_result r;
    eng_game_result(g, &r);
    assert_true(r.over);
    assert_int_not_equal(r.winners, 0);
    assert_true(r.winners < (1u << g->cfg.players));
    if (strcmp(r.reason, "points") == 0)
      reasons[0]++;
    else if (strcmp(r.reason, "exhausted") == 0)
      reasons[1]++;
    else
      fail_msg("unexpected reason '%s'", r.reason);
    eng_game_free(g);
  }
  assert_true(reasons[0] > 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_new_rejects),
      cmocka_unit_test(test_new_game_prompt),
      cmocka_unit_test(test_replay),
      cmocka_unit_test(test_record),
      cmocka_unit_test(test_state_round_trip),
      cmocka_unit_test(test_state_rejects),
      cmocka_unit_test(test_answer_rejects),
      cmocka_unit_test(test_answer_after_game_over),
      cmocka_unit_test(test_out_of_turn),
      cmocka_unit_test(test_takeback_own_answers),
      cmocka_unit_test(test_takeback_not_across_other_player),
      cmocka_unit_test(test_takeback_not_across_reveal),
      cmocka_unit_test(test_find_option),
      cmocka_unit_test(test_option_ids),
      cmocka_unit_test(test_answer_tells),
      cmocka_unit_test(test_result),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
