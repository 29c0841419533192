/*
 * bench_engine.c: how fast the rules engine plays, on one thread.
 *
 * For each registered game, at its smallest and largest table, it plays
 * complete games with uniformly random legal answers straight through the
 * ruleset (no invariant checks: that is `lair simulate`'s job), and at 4
 * players (or its largest table below that) complete games in which
 * every seat is the heuristic AI, the way AI seats play on Discord. It
 * prints one JSON line per run: games per second, answers per second,
 * and the memory one game state takes (the flat state, and its saved
 * JSON after setup and 40 answers into a game, when every card is dealt).
 * Run it from a Release build: build/release/lair-bench-engine [--games N].
 */
#include "eng.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Bytes of the canonical state JSON after `answers` random answers (or
 * the game's end, if sooner). */
static size_t saved_size(const eng_ruleset *rs, int players, int answers) {
  eng_config cfg = {.players = players, .first = 0};
  eng_game *g;
  if (eng_game_new(rs, &cfg, 1, &g))
    return 0;
  eng_rng pick;
  eng_rng_seed(&pick, 1, 1);
  for (int k = 0; k < answers && g->prompt.player >= 0; k++)
    if (eng_game_answer_index(
            g, (int)eng_rng_below(&pick, (uint32_t)g->prompt.n), NULL))
      break;
  char *text = eng_game_state_text(g);
  size_t n = text ? strlen(text) : 0;
  free(text);
  eng_game_free(g);
  return n;
}

/* Plays games of rs at players, every seat at AI level (an eng_ai_level),
 * and prints the JSON line; returns the exit status so far. */
static int run(const eng_ruleset *rs, int players, int level, long games) {
  eng_config cfg = {.players = players, .first = 0};
  int levels[ENG_MAX_SEATS];
  for (int i = 0; i < ENG_MAX_SEATS; i++)
    levels[i] = level;
  eng_sim_stats st;
  double t0 = now();
  eng_rc rc = eng_simulate_ai(rs, &cfg, 1, games, false, 1000000, levels, &st);
  double dt = now() - t0;
  if (rc) {
    fprintf(stderr, "bench: %s: %s\n", rs->id, eng_strerror(rc));
    return 1;
  }
  printf("{\"game\": \"%s\", \"players\": %d, \"ai\": \"%s\", "
         "\"games\": %ld, \"seconds\": %.3f, \"games_per_second\": %.0f, "
         "\"answers_per_second\": %.0f, \"answers_per_game\": %.1f, "
         "\"state_bytes\": %zu, \"saved_json_bytes\": %zu, "
         "\"saved_json_bytes_in_play\": %zu}\n",
         rs->id, players, eng_ai_name(level), st.games, dt,
         (double)st.games / dt, (double)st.moves / dt,
         (double)st.moves / (double)st.games, rs->state_size,
         saved_size(rs, players, 0), saved_size(rs, players, 40));
  fflush(stdout);
  return 0;
}

int main(int argc, char **argv) {
  long games = 20000;
  if (argc == 3 && strcmp(argv[1], "--games") == 0) {
    char *end;
    errno = 0;
    games = strtol(argv[2], &end, 10);
    if (errno || *end || games < 1) {
      fprintf(stderr, "bench: --games needs a positive number\n");
      return 2;
    }
  } else if (argc != 1) {
    fprintf(stderr, "usage: %s [--games N]\n", argv[0]);
    return 2;
  }
  size_t n;
  const eng_ruleset *const *all = eng_rulesets(&n);
  int status = 0;
  for (size_t r = 0; r < n && !status; r++) {
    const eng_ruleset *rs = all[r];
    status |= run(rs, rs->min_players, ENG_AI_RANDOM, games);
    if (rs->max_players != rs->min_players)
      status |= run(rs, rs->max_players, ENG_AI_RANDOM, games);
    if (rs->ai) /* AI seats: fewer games, each decision is weighed */
      status |= run(rs, rs->max_players < 4 ? rs->max_players : 4,
                    ENG_AI_HEURISTIC, games / 10 > 0 ? games / 10 : 1);
  }
  return status;
}
