/*
 * bench_db.c: moves per second and their latency through the commands
 * layer and storage, with one or several Lair processes on one database.
 *
 * It opens `--games` two-player Supervillain games (each in a channel of
 * its own, two people seated) unless the database already has them, then
 * forks `--procs` processes that, for `--seconds`, each pick a game at
 * random (so with two processes both touch every game, as two bot
 * processes behind one Discord application do), ask whose decision it
 * is and answer it with a random option through cmd_handle: the same
 * path a /game move takes, its transaction and its commit included,
 * without a transport. A move refused because another process answered
 * that decision first is counted apart, not as a move.
 *
 * Prints one JSON line: the backend, processes, games, moves, moves per
 * second, refused answers, and the latency of cmd_handle (p50, p99, max).
 * Run it from a Release build (bench/README.md):
 *   build/release/lair-bench-db --db /tmp/b.db --procs 2
 *   build/release/lair-bench-db --db 'postgresql:///lair?host=/tmp/pg'
 */
#include "cmd.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* What the sink saw during one request: whether anything went beyond an
 * ephemeral reply (a refused answer gets only that). */
typedef struct seen {
  int public;
  int ephemeral;
} seen;

static void deliver(void *ctx, const cmd_msg *m) {
  seen *s = ctx;
  if (m->to == CMD_TO_EPHEMERAL)
    s->ephemeral++;
  else
    s->public++;
}

static cmd_ctx *open_cmd(const char *db_path, sto **db, seen *s) {
  char err[300] = "";
  sto_rc rc = sto_open(db_path, db, err, sizeof err);
  if (rc) {
    fprintf(stderr, "bench: %s\n", err[0] ? err : sto_strerror(rc));
    return NULL;
  }
  cmd_config cfg = {.db = *db, .sink = {deliver, s}};
  cmd_ctx *c = cmd_new(&cfg);
  if (!c) {
    sto_close(*db);
    fprintf(stderr, "bench: out of memory\n");
  }
  return c;
}

/* Runs one command for user in channel; returns whether it reached
 * beyond an ephemeral reply. */
static bool run(cmd_ctx *c, seen *s, const char *id, const char *channel,
                const char *user, const char *command, const char *arg,
                const char *value) {
  cmd_request r = {.request_id = id,
                   .guild = "1",
                   .channel = channel,
                   .user = user,
                   .user_name = user,
                   .command = command};
  if (arg) {
    r.args[0] = (cmd_arg){arg, value};
    r.n_args = 1;
  }
  *s = (seen){0, 0};
  cmd_set_now(c, (int64_t)time(NULL));
  cmd_handle(c, &r);
  return s->public > 0;
}

/* The user id of seat (0, 1) of game i: two people a game, since Lair
 * limits how many games one person sits in. */
static void player(char *out, size_t cap, long i, int seat) {
  snprintf(out, cap, "%ld", 100000 + 2 * i + seat);
}

/* The games' numbers, by channel bench-1..bench-N (ids[i - 1]). */
static int64_t *ids;

static int count_game(void *ctx, const sto_game *g) {
  (void)g;
  ++*(long *)ctx;
  return 0;
}

static int first_id(void *ctx, const sto_game *g) {
  *(int64_t *)ctx = g->id;
  return 1;
}

/* Opens the games that are missing (channels bench-1..bench-N) and reads
 * their numbers into ids. */
static bool setup(const char *db_path, long games) {
  sto *db;
  seen s;
  cmd_ctx *c = open_cmd(db_path, &db, &s);
  if (!c)
    return false;
  long have = 0;
  if (sto_game_list(db, NULL, 1u << STO_RUNNING, count_game, &have)) {
    fprintf(stderr, "bench: the database cannot be read\n");
    have = games;
  }
  bool ok = true;
  double t0 = now_s();
  for (long i = have + 1; ok && i <= games; i++) {
    char channel[32], id[48], a[24], b[24];
    snprintf(channel, sizeof channel, "bench-%ld", i);
    player(a, sizeof a, i, 0);
    player(b, sizeof b, i, 1);
    snprintf(id, sizeof id, "setup-%ld-new", i);
    ok = run(c, &s, id, channel, a, "new", "kind", "supervillain");
    snprintf(id, sizeof id, "setup-%ld-join", i);
    ok = ok && run(c, &s, id, channel, b, "join", NULL, NULL);
    snprintf(id, sizeof id, "setup-%ld-start", i);
    ok = ok && run(c, &s, id, channel, a, "start", NULL, NULL);
    if (!ok)
      fprintf(stderr, "bench: game %ld could not be opened\n", i);
  }
  if (ok && have < games)
    fprintf(stderr, "bench: opened %ld games in %.1f s\n", games - have,
            now_s() - t0);
  ids = calloc((size_t)games, sizeof *ids);
  ok = ok && ids;
  for (long i = 1; ok && i <= games; i++) {
    char channel[32];
    snprintf(channel, sizeof channel, "bench-%ld", i);
    ok = sto_game_list(db, channel, 1u << STO_RUNNING, first_id,
                       &ids[i - 1]) == STO_OK &&
         ids[i - 1] > 0;
    if (!ok)
      fprintf(stderr, "bench: no running game in %s\n", channel);
  }
  cmd_free(c);
  sto_close(db);
  return ok;
}

/* What one process reports to the parent through its pipe. */
typedef struct tally {
  long moves, refused, errors;
  double seconds;
} tally;

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

/* One process's loop: writes its tally, then each move's latency in
 * microseconds (uint32), to fd. */
static int play(const char *db_path, long games, double seconds, unsigned seed,
                int fd) {
  sto *db;
  seen s;
  cmd_ctx *c = open_cmd(db_path, &db, &s);
  if (!c)
    return 1;
  size_t cap = 1 << 16, n = 0;
  uint32_t *lat = malloc(cap * sizeof *lat);
  tally t = {0};
  srand(seed);
  char channel[32], id[48];
  double start = now_s(), end = start + seconds;
  long k = 0;
  while (lat && now_s() < end) {
    long g = 1 + rand() % games;
    snprintf(channel, sizeof channel, "bench-%ld", g);
    int64_t gid = ids[g - 1];
    cmd_choice opts[64];
    char question[600];
    int no = -1;
    char who[24];
    for (int seat = 0; seat < 2 && no < 0; seat++) {
      player(who, sizeof who, g, seat);
      no = cmd_user_prompt(c, gid, who, opts, 64, question, sizeof question);
    }
    if (no <= 0)
      continue; /* over, or nobody's decision */
    snprintf(id, sizeof id, "p%d-%ld", (int)getpid(), k++);
    char game[24];
    snprintf(game, sizeof game, "%" PRId64, gid);
    cmd_request r = {.request_id = id,
                     .guild = "1",
                     .channel = channel,
                     .user = who,
                     .user_name = who,
                     .command = "move",
                     .n_args = 2,
                     .args = {{"choice", opts[rand() % no].id},
                              {"game", game}}};
    s = (seen){0, 0};
    cmd_set_now(c, (int64_t)time(NULL));
    double t0 = now_s();
    cmd_handle(c, &r);
    double dt = now_s() - t0;
    if (s.public == 0) {
      t.refused++;
      continue;
    }
    t.moves++;
    if (n == cap) {
      uint32_t *more = realloc(lat, 2 * cap * sizeof *lat);
      if (!more)
        break;
      lat = more;
      cap *= 2;
    }
    lat[n++] = (uint32_t)(dt * 1e6);
  }
  t.seconds = now_s() - start;
  bool ok = write(fd, &t, sizeof t) == (ssize_t)sizeof t;
  for (size_t i = 0; ok && i < n;) {
    ssize_t w = write(fd, lat + i, (n - i) * sizeof *lat);
    ok = w > 0;
    if (ok)
      i += (size_t)w / sizeof *lat;
  }
  free(lat);
  cmd_free(c);
  sto_close(db);
  return ok ? 0 : 1;
}

/* Reads exactly n bytes; false at an early end. */
static bool read_all(int fd, void *buf, size_t n) {
  char *p = buf;
  while (n > 0) {
    ssize_t r = read(fd, p, n);
    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0)
      return false;
    p += r;
    n -= (size_t)r;
  }
  return true;
}

static void usage(FILE *f) {
  fprintf(f, "usage: lair-bench-db --db PATH|URL [--games N] [--procs P] "
             "[--seconds S]\n");
}

int main(int argc, char **argv) {
  const char *db_path = NULL;
  long games = 1000, procs = 1;
  double seconds = 20;
  static const struct option longs[] = {{"db", required_argument, NULL, 'd'},
                                        {"games", required_argument, NULL, 'g'},
                                        {"procs", required_argument, NULL, 'p'},
                                        {"seconds", required_argument, NULL,
                                         's'},
                                        {"help", no_argument, NULL, 'h'},
                                        {NULL, 0, NULL, 0}};
  int o;
  while ((o = getopt_long(argc, argv, "", longs, NULL)) != -1) {
    char *end = NULL;
    errno = 0;
    switch (o) {
    case 'd':
      db_path = optarg;
      break;
    case 'g':
      games = strtol(optarg, &end, 10);
      break;
    case 'p':
      procs = strtol(optarg, &end, 10);
      break;
    case 's':
      seconds = strtod(optarg, &end);
      break;
    case 'h':
      usage(stdout);
      return 0;
    default:
      usage(stderr);
      return 2;
    }
    if (end && (errno || *end || end == optarg)) {
      fprintf(stderr, "bench: %s takes a number, not \"%s\"\n",
              argv[optind - 1], optarg);
      return 2;
    }
  }
  if (!db_path || games < 1 || games > 100000 || procs < 1 || procs > 64 ||
      seconds <= 0) {
    usage(stderr);
    return 2;
  }
  if (!setup(db_path, games))
    return 1;
  int fds[64];
  pid_t pids[64];
  for (long p = 0; p < procs; p++) {
    int pipefd[2];
    if (pipe(pipefd) != 0) {
      perror("bench: pipe");
      return 1;
    }
    pids[p] = fork();
    if (pids[p] < 0) {
      perror("bench: fork");
      return 1;
    }
    if (pids[p] == 0) {
      close(pipefd[0]);
      _exit(play(db_path, games, seconds, 1000u + (unsigned)p, pipefd[1]));
    }
    close(pipefd[1]);
    fds[p] = pipefd[0];
  }
  tally all = {0};
  size_t n = 0, cap = 0;
  uint32_t *lat = NULL;
  int status = 0;
  for (long p = 0; p < procs; p++) {
    tally t;
    if (!read_all(fds[p], &t, sizeof t)) {
      fprintf(stderr, "bench: process %ld reported nothing\n", p);
      status = 1;
      continue;
    }
    all.moves += t.moves;
    all.refused += t.refused;
    if (t.seconds > all.seconds)
      all.seconds = t.seconds;
    if (n + (size_t)t.moves > cap) {
      cap = n + (size_t)t.moves;
      uint32_t *more = realloc(lat, cap * sizeof *lat);
      if (!more) {
        fprintf(stderr, "bench: out of memory\n");
        return 1;
      }
      lat = more;
    }
    if (!read_all(fds[p], lat + n, (size_t)t.moves * sizeof *lat)) {
      fprintf(stderr, "bench: process %ld's latencies were cut short\n", p);
      status = 1;
    }
    n += (size_t)t.moves;
    close(fds[p]);
  }
  for (long p = 0; p < procs; p++) {
    int ws;
    if (waitpid(pids[p], &ws, 0) < 0 || !WIFEXITED(ws) || WEXITSTATUS(ws))
      status = 1;
  }
  if (n)
    qsort(lat, n, sizeof *lat, cmp_u32);
  sto *db = NULL;
  char err[300];
  const char *backend = "?";
  if (sto_open(db_path, &db, err, sizeof err) == STO_OK)
    backend = sto_backend(db);
  printf("{\"bench\": \"db\", \"backend\": \"%s\", \"procs\": %ld, "
         "\"games\": %ld, \"seconds\": %.1f, \"moves\": %ld, "
         "\"moves_per_second\": %.0f, \"refused\": %ld, \"p50_ms\": %.2f, "
         "\"p99_ms\": %.2f, \"max_ms\": %.2f}\n",
         backend, procs, games, all.seconds, all.moves,
         all.seconds > 0 ? (double)all.moves / all.seconds : 0, all.refused,
         n ? lat[n / 2] / 1e3 : 0, n ? lat[n * 99 / 100] / 1e3 : 0,
         n ? lat[n - 1] / 1e3 : 0);
  sto_close(db);
  free(lat);
  return status;
}
