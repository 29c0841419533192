/*
 * bench_engine.c: how fast the rules engine plays, on one thread.
 *
 * For each registered game and player count it plays complete games with
 * uniformly random legal answers straight through the ruleset (no
 * invariant checks: that is `lair simulate`'s job) and prints one JSON
 * line: games per second, answers per second, and the memory one game
 * state takes (the flat state and its saved JSON). Run it from a Release
 * build: build/release/lair-bench-engine [--games N].
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

/* Bytes of the canonical state JSON right after setup. */
static size_t saved_size(const eng_ruleset *rs, int players) {
  eng_config cfg = {.players = players, .first = 0};
  eng_game *g;
  if (eng_game_new(rs, &cfg, 1, &g))
    return 0;
  char *text = eng_game_state_text(g);
  size_t n = text ? strlen(text) : 0;
  free(text);
  eng_game_free(g);
  return n;
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
  for (size_t r = 0; r < n; r++) {
    const eng_ruleset *rs = all[r];
    for (int players = rs->min_players; players <= rs->max_players; players++) {
      if (players != rs->min_players && players != rs->max_players)
        continue;
      eng_config cfg = {.players = players, .first = 0};
      eng_sim_stats st;
      double t0 = now();
      eng_rc rc = eng_simulate(rs, &cfg, 1, games, false, 1000000, &st);
      double dt = now() - t0;
      if (rc) {
        fprintf(stderr, "bench: %s: %s\n", rs->id, eng_strerror(rc));
        return 1;
      }
      printf("{\"game\": \"%s\", \"players\": %d, \"games\": %ld, "
             "\"seconds\": %.3f, \"games_per_second\": %.0f, "
             "\"answers_per_second\": %.0f, \"answers_per_game\": %.1f, "
             "\"state_bytes\": %zu, \"saved_json_bytes\": %zu}\n",
             rs->id, players, st.games, dt, (double)st.games / dt,
             (double)st.moves / dt, (double)st.moves / (double)st.games,
             rs->state_size, saved_size(rs, players));
      fflush(stdout);
    }
  }
  return 0;
}
