/*
 * game.c: a game as its ruleset, config, seed and ordered answers.
 *
 * This is the one place answers enter a state. It checks who may answer
 * and that the answer is one of the offered options before the ruleset
 * sees it, keeps the answer list that makes replays and takeback possible,
 * and restores the state if a ruleset fails anyway, so a rejected answer
 * never changes anything. Asked for events, it also holds the ruleset to
 * telling the table what the answer did: an answer without a public line
 * is refused as an internal error.
 */
#include "eng.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void refresh(eng_game *g) { g->rs->prompt(g->state, &g->prompt); }

eng_rc eng_game_new(const eng_ruleset *rs, const eng_config *cfg, uint64_t seed,
                    eng_game **out) {
  *out = NULL;
  if (!rs)
    return ENG_UNKNOWN_GAME;
  if (cfg->players < rs->min_players || cfg->players > rs->max_players ||
      cfg->players > ENG_MAX_SEATS)
    return ENG_BAD_PLAYERS;
  if (cfg->first < -1 || cfg->first >= cfg->players)
    return ENG_BAD_SEAT;
  if (memchr(cfg->mode, '\0', sizeof cfg->mode) == NULL)
    return ENG_BAD_MODE;
  eng_game *g = calloc(1, sizeof *g);
  if (!g)
    return ENG_NOMEM;
  g->state = calloc(1, rs->state_size);
  if (!g->state) {
    free(g);
    return ENG_NOMEM;
  }
  g->rs = rs;
  g->cfg = *cfg;
  g->seed = seed;
  eng_rc rc = rs->setup(g->state, cfg, seed);
  if (rc) {
    eng_game_free(g);
    return rc;
  }
  refresh(g);
  *out = g;
  return ENG_OK;
}

void eng_game_free(eng_game *g) {
  if (!g)
    return;
  free(g->state);
  free(g->answers);
  free(g);
}

void eng_game_option(const eng_game *g, int i, char id[ENG_ID_MAX + 1],
                     char label[ENG_LABEL_MAX + 1]) {
  id[0] = label[0] = '\0';
  if (i >= 0 && i < g->prompt.n)
    g->rs->option(g->state, &g->prompt, i, id, label);
}

static eng_rc grow_answers(eng_game *g, size_t need) {
  if (need <= g->cap_answers)
    return ENG_OK;
  size_t cap = g->cap_answers ? g->cap_answers : 64;
  while (cap < need)
    cap *= 2;
  eng_answer *a = realloc(g->answers, cap * sizeof *a);
  if (!a)
    return ENG_NOMEM;
  g->answers = a;
  g->cap_answers = cap;
  return ENG_OK;
}

eng_rc eng_game_answer_index(eng_game *g, int i, eng_events *ev) {
  eng_events_clear(ev);
  if (g->prompt.player < 0)
    return ENG_GAME_OVER;
  if (i < 0 || i >= g->prompt.n)
    return ENG_BAD_OPTION;
  eng_rc rc = grow_answers(g, g->n_answers + 1);
  if (rc)
    return rc;
  void *saved = malloc(g->rs->state_size);
  if (!saved)
    return ENG_NOMEM;
  memcpy(saved, g->state, g->rs->state_size);

  eng_answer ans = {.player = (int8_t)g->prompt.player, .turn = g->prompt.turn};
  char label[ENG_LABEL_MAX + 1];
  g->rs->option(g->state, &g->prompt, i, ans.id, label);
  unsigned flags = 0;
  rc = g->rs->apply(g->state, g->prompt.code[i], &flags, ev);
  /* Asked what happened, a ruleset must say something to the table. */
  if (!rc && ev && eng_events_count(ev, -1) == 0)
    rc = ENG_INTERNAL;
  if (rc) {
    memcpy(g->state, saved, g->rs->state_size);
    free(saved);
    eng_events_clear(ev);
    return rc;
  }
  free(saved);

  ans.revealed = (flags & ENG_REVEALED) != 0;
  g->answers[g->n_answers++] = ans;
  refresh(g);
  return ENG_OK;
}

static int find_id(const eng_game *g, const char *id) {
  char oid[ENG_ID_MAX + 1], label[ENG_LABEL_MAX + 1];
  for (int i = 0; i < g->prompt.n; i++) {
    g->rs->option(g->state, &g->prompt, i, oid, label);
    if (strcmp(oid, id) == 0)
      return i;
  }
  return -1;
}

eng_rc eng_game_answer(eng_game *g, int player, const char *id,
                       eng_events *ev) {
  eng_events_clear(ev);
  if (g->prompt.player < 0)
    return ENG_GAME_OVER;
  if (player < 0 || player >= g->cfg.players)
    return ENG_NOT_PLAYING;
  if (player != g->prompt.player)
    return ENG_NOT_YOUR_TURN;
  if (!id || id[0] == '\0' || strlen(id) > ENG_ID_MAX)
    return ENG_BAD_OPTION;
  int i = find_id(g, id);
  if (i < 0)
    return ENG_BAD_OPTION;
  return eng_game_answer_index(g, i, ev);
}

int eng_game_find_option(const eng_game *g, const char *text) {
  if (!text || g->prompt.player < 0)
    return -1;
  char id[ENG_ID_MAX + 1], label[ENG_LABEL_MAX + 1];
  int found = -1, matches = 0;
  for (int i = 0; i < g->prompt.n; i++) {
    g->rs->option(g->state, &g->prompt, i, id, label);
    if (strcmp(id, text) == 0)
      return i;
    if (strcmp(label, text) == 0) {
      found = i;
      matches++;
    }
  }
  return matches > 1 ? -2 : found;
}

/* Takeback: a run of the player's own latest answers in the current turn,
 * back to (not including) one that revealed something. */
size_t eng_game_takeback_count(const eng_game *g, int player) {
  size_t n = 0;
  for (size_t k = g->n_answers; k > 0; k--) {
    const eng_answer *a = &g->answers[k - 1];
    if (a->player != player || a->turn != g->prompt.turn || a->revealed)
      break;
    n++;
  }
  return n;
}

eng_rc eng_game_restore(const eng_ruleset *rs, const eng_config *cfg,
                        uint64_t seed, const eng_answer *answers, size_t n,
                        const char *state_text, eng_game **out) {
  *out = NULL;
  json_t *j = json_loads(state_text, 0, NULL);
  if (!j)
    return ENG_BAD_STATE;
  eng_game *g;
  eng_rc rc = eng_game_new(rs, cfg, seed, &g);
  if (!rc)
    rc = rs->from_json(g->state, j);
  json_decref(j);
  if (!rc)
    rc = grow_answers(g, n);
  if (rc) {
    eng_game_free(g);
    return rc;
  }
  if (n)
    memcpy(g->answers, answers, n * sizeof *answers);
  g->n_answers = n;
  refresh(g);
  *out = g;
  return ENG_OK;
}

/* Replays the first n answers of src into a fresh game. */
static eng_rc replay(const eng_game *src, size_t n, eng_game **out) {
  eng_game *g;
  eng_rc rc = eng_game_new(src->rs, &src->cfg, src->seed, &g);
  if (rc)
    return rc;
  for (size_t k = 0; k < n; k++) {
    rc = eng_game_answer(g, src->answers[k].player, src->answers[k].id, NULL);
    if (rc) {
      eng_game_free(g);
      return rc;
    }
  }
  *out = g;
  return ENG_OK;
}

eng_rc eng_game_takeback(eng_game *g, int player) {
  if (player < 0 || player >= g->cfg.players)
    return ENG_NOT_PLAYING;
  if (eng_game_takeback_count(g, player) == 0)
    return ENG_NO_TAKEBACK;
  eng_game *r;
  eng_rc rc = replay(g, g->n_answers - 1, &r);
  if (rc)
    return rc;
  /* Swap the rebuilt game's insides into g, so callers keep their pointer. */
  eng_game tmp = *g;
  *g = *r;
  *r = tmp;
  eng_game_free(r);
  return ENG_OK;
}

void eng_game_result(const eng_game *g, eng_result *r) {
  memset(r, 0, sizeof *r);
  g->rs->result(g->state, r);
}

char *eng_game_state_text(const eng_game *g) {
  json_t *j = g->rs->to_json(g->state);
  if (!j)
    return NULL;
  char *s = json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS);
  json_decref(j);
  return s;
}

json_t *eng_game_record(const eng_game *g) {
  char seed[24];
  snprintf(seed, sizeof seed, "%" PRIu64, g->seed);
  json_t *answers = json_array();
  if (!answers)
    return NULL;
  for (size_t k = 0; k < g->n_answers; k++)
    if (json_array_append_new(answers, json_pack("[is]", g->answers[k].player,
                                                 g->answers[k].id))) {
      json_decref(answers);
      return NULL;
    }
  return json_pack("{sssisisssissso}", "ruleset", g->rs->id, "version",
                   g->rs->version, "players", g->cfg.players, "mode",
                   g->cfg.mode, "first", g->cfg.first, "seed", seed, "answers",
                   answers);
}

static bool parse_u64(const char *s, uint64_t *v) {
  if (!s || *s < '0' || *s > '9')
    return false;
  char *end;
  errno = 0;
  unsigned long long x = strtoull(s, &end, 10);
  if (errno || *end)
    return false;
  *v = x;
  return true;
}

eng_rc eng_game_from_record(const json_t *rec, eng_game **out) {
  *out = NULL;
  const char *ruleset, *mode, *seed_text;
  int version, players, first;
  json_t *answers;
  if (json_unpack((json_t *)rec, "{s:s, s:i, s:i, s:s, s:i, s:s, s:o}",
                  "ruleset", &ruleset, "version", &version, "players", &players,
                  "mode", &mode, "first", &first, "seed", &seed_text, "answers",
                  &answers) ||
      !json_is_array(answers))
    return ENG_BAD_RECORD;
  const eng_ruleset *rs = eng_find(ruleset);
  if (!rs)
    return ENG_UNKNOWN_GAME;
  uint64_t seed;
  eng_config cfg = {.players = players, .first = first};
  if (version != rs->version || !parse_u64(seed_text, &seed) ||
      strlen(mode) >= sizeof cfg.mode)
    return ENG_BAD_RECORD;
  memcpy(cfg.mode, mode, strlen(mode) + 1);
  eng_game *g;
  eng_rc rc = eng_game_new(rs, &cfg, seed, &g);
  if (rc)
    return rc;
  size_t k;
  json_t *a;
  json_array_foreach(answers, k, a) {
    json_int_t player;
    const char *id;
    if (json_unpack(a, "[Is]", &player, &id) || player < 0 ||
        player >= players) {
      eng_game_free(g);
      return ENG_BAD_RECORD;
    }
    rc = eng_game_answer(g, (int)player, id, NULL);
    if (rc) {
      eng_game_free(g);
      return rc;
    }
  }
  *out = g;
  return ENG_OK;
}
