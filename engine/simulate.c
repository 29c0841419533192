/*
 * simulate.c: random playouts, the engine's broadest test.
 *
 * Plays whole games straight through a ruleset (no answer list is kept,
 * so it is fast), every seat answering at its AI level (uniformly random
 * legal answers unless told otherwise, see ai.c), and after every answer
 * checks what every prompt must satisfy plus the ruleset's own
 * invariants. Checking also has every answer told (events): each must
 * yield a public line, and every line must be one sentence for a seat of
 * the table. Unchecked runs pass no events, so nothing is formatted. The
 * caller times it: the engine has no clock.
 */
#include "eng.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool id_char_ok(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-';
}

/* Checks that every option has a valid, unique id and a label. */
static int check_prompt(const eng_ruleset *rs, const void *st,
                        const eng_prompt *p, int players, char *msg,
                        size_t cap) {
  if (p->player < 0)
    return 0;
  if (p->player >= players || p->n < 1 || p->n > ENG_OPTIONS_MAX) {
    snprintf(msg, cap, "prompt addresses seat %d with %d options", p->player,
             p->n);
    return 1;
  }
  char ids[ENG_OPTIONS_MAX][ENG_ID_MAX + 1];
  char label[ENG_LABEL_MAX + 1];
  for (int i = 0; i < p->n; i++) {
    rs->option(st, p, i, ids[i], label);
    size_t len = strlen(ids[i]);
    bool ok = len > 0 && len <= ENG_ID_MAX && label[0] != '\0';
    for (size_t c = 0; ok && c < len; c++)
      ok = id_char_ok(ids[i][c]);
    if (!ok) {
      snprintf(msg, cap, "option %d has a bad id '%s' or empty label", i,
               ids[i]);
      return 1;
    }
    for (int j = 0; j < i; j++)
      if (strcmp(ids[i], ids[j]) == 0) {
        snprintf(msg, cap, "option id '%s' offered twice", ids[i]);
        return 1;
      }
  }
  return 0;
}

/* Checks the lines of one answer (option id): at least one public line,
 * each line for a seat of the table, non-empty and ending a sentence. */
static int check_events(const eng_events *ev, int players, const char *id,
                        char *msg, size_t cap) {
  if (eng_events_count(ev, -1) == 0) {
    snprintf(msg, cap, "option '%s' told the table nothing (no public line)",
             id);
    return 1;
  }
  for (int i = 0; i < ev->n; i++) {
    const eng_event *e = &ev->ev[i];
    size_t len = strlen(e->text);
    char last = len ? e->text[len - 1] : '\0';
    if (e->seat < -1 || e->seat >= players || len == 0 ||
        (last != '.' && last != '!' && last != '?')) {
      snprintf(msg, cap, "option '%s' told a bad line for seat %d: '%.80s'", id,
               e->seat, e->text);
      return 1;
    }
  }
  return 0;
}

static void count_reason(eng_sim_stats *s, const char *reason) {
  for (int i = 0; i < s->n_reasons; i++)
    if (strcmp(s->reason[i], reason) == 0) {
      s->reason_count[i]++;
      return;
    }
  if (s->n_reasons < ENG_SIM_REASONS) {
    snprintf(s->reason[s->n_reasons], sizeof s->reason[0], "%s", reason);
    s->reason_count[s->n_reasons++] = 1;
  }
}

/* Counts a game played (and maybe won) by side. */
static void count_side(eng_sim_stats *s, const char *side, bool won) {
  int k = 0;
  while (k < s->n_sides && strcmp(s->side[k], side) != 0)
    k++;
  if (k == s->n_sides) {
    if (k == ENG_SIM_SIDES)
      return;
    snprintf(s->side[k], sizeof s->side[k], "%s", side);
    s->n_sides++;
  }
  s->side_games[k]++;
  s->side_wins[k] += won;
}

static void violation(eng_sim_stats *s, long game, long move,
                      const char *what) {
  if (s->violations++ == 0)
    snprintf(s->first_violation, sizeof s->first_violation,
             "game %ld, answer %ld: %s", game, move, what);
}

eng_rc eng_simulate(const eng_ruleset *rs, const eng_config *cfg, uint64_t seed,
                    long games, bool check, long max_answers,
                    eng_sim_stats *out) {
  return eng_simulate_ai(rs, cfg, seed, games, check, max_answers, NULL, out);
}

eng_rc eng_simulate_ai(const eng_ruleset *rs, const eng_config *cfg,
                       uint64_t seed, long games, bool check, long max_answers,
                       const int *levels, eng_sim_stats *out) {
  memset(out, 0, sizeof *out);
  if (cfg->players < rs->min_players || cfg->players > rs->max_players ||
      cfg->players > ENG_MAX_SEATS)
    return ENG_BAD_PLAYERS;
  for (int i = 0; levels && i < cfg->players; i++)
    if (!eng_ai_name(levels[i]))
      return ENG_BAD_AI;
  void *st = malloc(rs->state_size);
  eng_prompt *p = malloc(sizeof *p);
  eng_events *ev = check ? malloc(sizeof *ev) : NULL;
  if (!st || !p || (check && !ev)) {
    free(st);
    free(p);
    free(ev);
    return ENG_NOMEM;
  }
  eng_rc rc = ENG_OK;
  char msg[200];
  for (long k = 0; k < games; k++) {
    memset(st, 0, rs->state_size);
    uint64_t game_seed = eng_mix64(seed + (uint64_t)k);
    rc = rs->setup(st, cfg, game_seed);
    if (rc)
      break;
    eng_rng pick;
    eng_rng_seed(&pick, game_seed, 1);
    long moves = 0;
    bool broken = false;
    rs->prompt(st, p);
    while (p->player >= 0) {
      if (check && check_prompt(rs, st, p, cfg->players, msg, sizeof msg)) {
        violation(out, k, moves, msg);
        broken = true;
        break;
      }
      /* Without checks a broken prompt may name a seat past the table. */
      int level = levels && p->player < cfg->players ? levels[p->player]
                                                     : ENG_AI_RANDOM;
      int choice = eng_ai_choose(rs, st, p, level, &pick);
      if (choice < 0) {
        snprintf(msg, sizeof msg, "the %s AI of seat %d chose no option of %d",
                 eng_ai_name(level), p->player, p->n);
        violation(out, k, moves, msg);
        broken = true;
        break;
      }
      unsigned flags = 0;
      char id[ENG_ID_MAX + 1], label[ENG_LABEL_MAX + 1];
      if (check)
        rs->option(st, p, choice, id, label); /* named in a violation */
      if (check)
        eng_events_clear(ev);
      eng_rc arc = rs->apply(st, p->code[choice], &flags, ev);
      moves++;
      if (arc) {
        snprintf(msg, sizeof msg, "a legal answer failed: %s", eng_rcname(arc));
        violation(out, k, moves, msg);
        broken = true;
        break;
      }
      if (check && check_events(ev, cfg->players, id, msg, sizeof msg)) {
        violation(out, k, moves, msg);
        broken = true;
        break;
      }
      if (check && rs->check(st, msg, sizeof msg)) {
        violation(out, k, moves, msg);
        broken = true;
        break;
      }
      if (moves >= max_answers) {
        snprintf(msg, sizeof msg, "no end after %ld answers (safety cap)",
                 moves);
        violation(out, k, moves, msg);
        broken = true;
        break;
      }
      rs->prompt(st, p);
    }
    out->games++;
    out->moves += moves;
    out->turns += p->turn;
    if (broken) {
      count_reason(out, "violation");
      continue;
    }
    eng_result r;
    memset(&r, 0, sizeof r);
    rs->result(st, &r);
    if (!r.over) {
      violation(out, k, moves, "no prompt but the game is not over");
      count_reason(out, "violation");
      continue;
    }
    for (int s = 0; s < cfg->players; s++) {
      bool won = r.winners & (1u << s);
      if (won)
        out->wins_by_seat[s]++;
      if (r.side[s][0])
        count_side(out, r.side[s], won);
    }
    count_reason(out, r.reason);
  }
  free(st);
  free(p);
  free(ev);
  return rc;
}
