/*
 * bench_stats.c: the latency of /game stats and /game leaderboard through
 * cmd_handle with 100,000 finished games' ratings stored.
 *
 * Unless the database already holds ratings, it rates `--games` finished
 * 2-4 player games (default 100,000) spread over 3 servers, the 5 games
 * and `--players` people per server (default 3,000), with the Glicko-2
 * update the commands layer applies at a game's end and through the
 * storage API (sto_rating_put, sto_side_add), 1,000 games per
 * transaction. Then it runs `--queries` requests of each command (a
 * random member's /game stats without and with kind:, /game leaderboard
 * without and with kind:) through cmd_handle, as a transport would, and
 * prints one JSON line with p50/p99/max of each in milliseconds.
 * Run it from a Release build (bench/README.md):
 *   build/release/lair-bench-stats --db /tmp/s.db
 *   build/release/lair-bench-stats --db 'postgresql:///lair?host=/tmp/pg'
 */
#include "cmd.h"
#include "cmd_glicko.h"

#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define GUILDS 3

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static uint64_t rng_state = 0x9e3779b97f4a7c15u;
static uint64_t rnd(void) { /* xorshift64*: enough for a bench */
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * 2685821657736338717u;
}

static const char *const kinds[] = {
    "supervillain", "villainous", "marvel-villainous", "disorder", "galactic"};
#define N_KINDS (sizeof kinds / sizeof kinds[0])

static int answered;
static void deliver(void *ctx, const cmd_msg *m) {
  (void)ctx;
  (void)m;
  answered++;
}

static int count_row(void *ctx, const sto_rating *r) {
  (void)r;
  ++*(long *)ctx;
  return 1;
}

/* Rates n games through the storage API; returns 0 or 1 after a message. */
static int fill(sto *db, long n, long players) {
  double t0 = now_s();
  for (long done = 0; done < n;) {
    if (sto_tx_begin(db))
      return 1;
    for (int k = 0; k < 1000 && done < n; k++, done++) {
      char guild[16], id[4][24];
      snprintf(guild, sizeof guild, "%d", 900 + (int)(rnd() % GUILDS));
      const char *kind = kinds[rnd() % N_KINDS];
      int seats = 2 + (int)(rnd() % 3);
      sto_rating old[4];
      for (int s = 0; s < seats; s++) {
        long p = (long)(rnd() % (uint64_t)players);
        snprintf(id[s], sizeof id[s], "%ld", 10000000 + p);
        for (int q = 0; q < s; q++)
          if (strcmp(id[q], id[s]) == 0)
            snprintf(id[s], sizeof id[s], "ai:heuristic%d", s);
        if (sto_rating_get(db, guild, kind, id[s], &old[s])) {
          memset(&old[s], 0, sizeof old[s]);
          snprintf(old[s].guild, sizeof old[s].guild, "%s", guild);
          snprintf(old[s].ruleset, sizeof old[s].ruleset, "%s", kind);
          snprintf(old[s].player, sizeof old[s].player, "%.23s", id[s]);
          snprintf(old[s].name, sizeof old[s].name, "Player %.23s", id[s]);
          old[s].rating = 1500 * (int64_t)STO_RATING_SCALE;
          old[s].rd = 200 * (int64_t)STO_RATING_SCALE;
          old[s].volatility = 60000;
        }
      }
      int winner = (int)(rnd() % (uint64_t)seats);
      for (int s = 0; s < seats; s++) {
        cmd_glicko_result res[3];
        int m = 0;
        for (int q = 0; q < seats; q++)
          if (q != s)
            res[m++] =
                (cmd_glicko_result){(double)old[q].rating / STO_RATING_SCALE,
                                    (double)old[q].rd / STO_RATING_SCALE,
                                    s == winner   ? 1.0
                                    : q == winner ? 0.0
                                                  : 0.5};
        cmd_glicko me = {(double)old[s].rating / STO_RATING_SCALE,
                         (double)old[s].rd / STO_RATING_SCALE,
                         (double)old[s].volatility / STO_RATING_SCALE};
        cmd_glicko now = cmd_glicko_update(me, res, m, CMD_GLICKO_TAU);
        sto_rating r = old[s];
        r.rating = (int64_t)(now.rating * STO_RATING_SCALE);
        r.rd = (int64_t)(now.rd * STO_RATING_SCALE);
        r.volatility = (int64_t)(now.volatility * STO_RATING_SCALE);
        r.games++;
        r.wins += s == winner;
        r.updated = (int64_t)time(NULL);
        char side[16];
        snprintf(side, sizeof side, "villain_%d", (int)(rnd() % 6));
        sto_rating_put(db, &r);
        sto_side_add(db, guild, kind, id[s], side, side);
      }
    }
    sto_rc rc = sto_tx_end(db, true);
    if (rc) {
      fprintf(stderr, "bench: cannot store ratings: %s\n", sto_strerror(rc));
      return 1;
    }
  }
  fprintf(stderr, "bench: rated %ld games in %.1f s\n", n, now_s() - t0);
  return 0;
}

static int cmp_d(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Runs q requests of one kind; prints its figures as a JSON member. */
static void measure(cmd_ctx *c, const char *what, const char *command,
                    bool with_kind, long q, long players, bool last) {
  double *ms = malloc((size_t)q * sizeof *ms);
  if (!ms)
    return;
  for (long i = 0; i < q; i++) {
    char guild[16], user[24], rid[32];
    snprintf(guild, sizeof guild, "%d", 900 + (int)(rnd() % GUILDS));
    snprintf(user, sizeof user, "%ld",
             10000000 + (long)(rnd() % (uint64_t)players));
    snprintf(rid, sizeof rid, "bench-%s-%ld", what, i);
    cmd_request r = {.request_id = rid,
                     .guild = guild,
                     .channel = "7",
                     .user = user,
                     .user_name = user,
                     .command = command};
    if (with_kind) {
      r.args[0] = (cmd_arg){"kind", kinds[rnd() % N_KINDS]};
      r.n_args = 1;
    }
    cmd_set_now(c, (int64_t)time(NULL));
    double t0 = now_s();
    cmd_handle(c, &r);
    ms[i] = (now_s() - t0) * 1000.0;
  }
  qsort(ms, (size_t)q, sizeof *ms, cmp_d);
  printf("\"%s\": {\"p50_ms\": %.3f, \"p99_ms\": %.3f, \"max_ms\": %.3f}%s",
         what, ms[q / 2], ms[q * 99 / 100], ms[q - 1], last ? "" : ", ");
  free(ms);
}

int main(int argc, char **argv) {
  const char *path = NULL;
  long games = 100000, players = 3000, queries = 2000;
  static const struct option opts[] = {{"db", 1, NULL, 'd'},
                                       {"games", 1, NULL, 'g'},
                                       {"players", 1, NULL, 'p'},
                                       {"queries", 1, NULL, 'q'},
                                       {NULL, 0, NULL, 0}};
  int o;
  while ((o = getopt_long(argc, argv, "", opts, NULL)) != -1) {
    char *end = NULL;
    long v = o == 'd' ? 0 : strtol(optarg, &end, 10);
    if (o != 'd' && (!end || *end || v < 1)) {
      fprintf(stderr, "bench: --%s needs a positive number\n",
              opts[o == 'g'   ? 1
                   : o == 'p' ? 2
                              : 3]
                  .name);
      return 2;
    }
    if (o == 'd')
      path = optarg;
    else if (o == 'g')
      games = v;
    else if (o == 'p')
      players = v;
    else if (o == 'q')
      queries = v;
    else
      return 2;
  }
  if (!path) {
    fprintf(stderr, "usage: lair-bench-stats --db PATH|URL [--games N] "
                    "[--players N] [--queries N]\n");
    return 2;
  }
  char err[300] = "";
  sto *db;
  sto_rc rc = sto_open(path, &db, err, sizeof err);
  if (rc) {
    fprintf(stderr, "bench: %s\n", err[0] ? err : sto_strerror(rc));
    return 1;
  }
  long have = 0;
  for (int g = 0; g < GUILDS && !have; g++) {
    char guild[16];
    snprintf(guild, sizeof guild, "%d", 900 + g);
    for (size_t k = 0; k < N_KINDS && !have; k++)
      sto_rating_top(db, guild, kinds[k], INT64_MAX, 1, count_row, &have);
  }
  if (!have && fill(db, games, players)) {
    sto_close(db);
    return 1;
  }
  cmd_config cfg = {.db = db, .sink = {deliver, NULL}};
  cmd_ctx *c = cmd_new(&cfg);
  if (!c) {
    sto_close(db);
    return 1;
  }
  printf("{\"backend\": \"%s\", \"games\": %ld, \"players\": %ld, ",
         sto_backend(db), have ? -1 : games, players);
  measure(c, "stats", "stats", false, queries, players, false);
  measure(c, "stats_kind", "stats", true, queries, players, false);
  measure(c, "leaderboard", "leaderboard", false, queries, players, false);
  measure(c, "leaderboard_kind", "leaderboard", true, queries, players, true);
  printf(", \"answered\": %d}\n", answered);
  cmd_free(c);
  sto_close(db);
  return 0;
}
