/*
 * bench_pic.c: what a table picture costs (engine/pic/, lair_pic).
 *
 * For each game Lair draws, it builds a full table from the engine (the
 * same seeded playouts the golden-image tests draw: a four-Villain
 * Supervillain table in the middle of a game, a Galactic Domination board
 * in the middle of a turn), draws it once to load the font, then N times,
 * and prints one JSON line per game: milliseconds per picture (wall-clock
 * mean and slowest, and the thread's CPU time, which a shared machine
 * disturbs less), the PNG's bytes and its size in pixels. It asserts
 * nothing. Run it from a Release build:
 * build/release/lair-bench-pic [--pictures N].
 */
#include "eng.h"
#include "pic.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(clockid_t clock) {
  struct timespec ts;
  clock_gettime(clock, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The public view after `answers` AI answers of a seeded game (NULL on
 * an engine error); the caller owns it. As tests/test_pic.c builds it. */
static json_t *played_view(const char *id, int players, uint64_t seed,
                           int answers, int level) {
  const eng_ruleset *rs = eng_find(id);
  eng_config cfg = {.players = players, .first = 0};
  eng_game *g;
  if (!rs || eng_game_new(rs, &cfg, seed, &g))
    return NULL;
  eng_rng pick;
  eng_rng_seed(&pick, seed, 7);
  for (int k = 0; k < answers && g->prompt.player >= 0; k++) {
    int i = eng_ai_choose(rs, g->state, &g->prompt, level, &pick);
    if (i < 0 || eng_game_answer_index(g, i, NULL)) {
      eng_game_free(g);
      return NULL;
    }
  }
  json_t *v = rs->view(g->state, -1);
  eng_game_free(g);
  return v;
}

/* The PNG's width and height from its IHDR chunk. */
static void png_size(const pic_png *p, long *w, long *h) {
  *w = *h = 0;
  if (p->len < 24)
    return;
  for (int k = 16; k < 20; k++)
    *w = *w << 8 | p->data[k];
  for (int k = 20; k < 24; k++)
    *h = *h << 8 | p->data[k];
}

/* Draws view n times and prints the line; returns the exit status. */
static int run(const char *game, const json_t *view, long n) {
  char err[256];
  pic_png png;
  if (!view || pic_draw(game, view, &png, err, sizeof err)) {
    fprintf(stderr, "bench: %s: %s\n", game,
            view ? err : "the engine did not play");
    return 1;
  }
  size_t bytes = png.len;
  long w, h;
  png_size(&png, &w, &h);
  pic_png_free(&png);
  double total = 0, worst = 0, cpu0 = now(CLOCK_THREAD_CPUTIME_ID);
  for (long k = 0; k < n; k++) {
    double t0 = now(CLOCK_MONOTONIC);
    int rc = pic_draw(game, view, &png, err, sizeof err);
    double dt = now(CLOCK_MONOTONIC) - t0;
    pic_png_free(&png);
    if (rc) {
      fprintf(stderr, "bench: %s: %s\n", game, err);
      return 1;
    }
    total += dt;
    if (dt > worst)
      worst = dt;
  }
  double cpu = now(CLOCK_THREAD_CPUTIME_ID) - cpu0;
  printf("{\"game\": \"%s\", \"pictures\": %ld, \"ms_per_picture\": %.2f, "
         "\"cpu_ms_per_picture\": %.2f, \"ms_slowest\": %.2f, "
         "\"png_bytes\": %zu, \"width\": %ld, \"height\": %ld}\n",
         game, n, total * 1e3 / (double)n, cpu * 1e3 / (double)n, worst * 1e3,
         bytes, w, h);
  fflush(stdout);
  return 0;
}

int main(int argc, char **argv) {
  long n = 50;
  if (argc == 3 && strcmp(argv[1], "--pictures") == 0) {
    char *end;
    errno = 0;
    n = strtol(argv[2], &end, 10);
    if (errno || *end || n < 1) {
      fprintf(stderr, "bench: --pictures needs a positive number\n");
      return 2;
    }
  } else if (argc != 1) {
    fprintf(stderr, "usage: %s [--pictures N]\n", argv[0]);
    return 2;
  }
  json_t *sv = played_view("supervillain", 4, 35, 220, ENG_AI_HEURISTIC);
  json_t *gal = played_view("galactic", 2, 9, 800, ENG_AI_RANDOM);
  int status = run("supervillain", sv, n);
  status |= run("galactic", gal, n);
  json_decref(sv);
  json_decref(gal);
  return status;
}
