/*
 * test_storage.c: storage/sto.h on SQLite and on PostgreSQL.
 *
 * The backend-neutral tests run twice: on SQLite, and (as pg_<name>) on
 * PostgreSQL when LAIR_TEST_PG names a server (tools/pg.sh start DIR
 * prints one; tools/test.sh sets it), each on a database of its own made
 * for it (lair_t_<pid>_<n>) and dropped afterwards; without LAIR_TEST_PG
 * the PostgreSQL cases are skipped and say why. PostgreSQL-only tests
 * stand two handles (two connections) for two processes: the same move
 * or request from both, a game lock that makes the other wait, timers
 * taken once; and a dropped connection, a password kept out of errors, a
 * newer or foreign schema refused untouched.
 *
 * On SQLite each test gets a fresh directory under /tmp (removed
 * afterwards) and works on real files: games, seats, invitations, moves (the
 * sequence and request-id arbiter), snapshots, settings and timers; reopening;
 * migration of an empty file and of a version-4 file; refusal of garbage,
 * newer, foreign and damaged files without changing a byte of them; and a crash
 * test that SIGKILLs a writer at a random moment and checks that every
 * acknowledged move survived, with no gap and no duplicate.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <libpq-fe.h>
#include <pthread.h>
#include <sqlite3.h>

#include "sto.h"

/* ---- fixture and file helpers ------------------------------------------ */

typedef struct fixture {
  char dir[64];
  char path[1024]; /* a file, or a PostgreSQL database's URL */
  bool pg;
  bool skip;         /* PostgreSQL wanted but LAIR_TEST_PG unset */
  char dbname[64];   /* PostgreSQL: the database made for the test */
  char server[1024]; /* PostgreSQL: LAIR_TEST_PG */
} fixture;

/* The fixture, or a skip (with its reason) when the test needs a
 * PostgreSQL server and none was given. */
static fixture *fx(void **state) {
  fixture *f = *state;
  if (f->skip) {
    print_message("skipped: LAIR_TEST_PG is not set (tools/pg.sh start DIR "
                  "starts a server and prints its URL)\n");
    skip();
  }
  return f;
}

/* url with its database (the URL's path) replaced by name. */
static void url_with_db(const char *url, const char *name, char *out,
                        size_t cap) {
  const char *auth = strstr(url, "://");
  assert_non_null(auth);
  auth += 3;
  size_t host = strcspn(auth, "/?");
  const char *rest = auth + host;
  if (*rest == '/')
    rest += strcspn(rest, "?");
  int n = snprintf(out, cap, "%.*s/%s%s", (int)(auth + host - url), url, name,
                   rest);
  assert_true(n > 0 && (size_t)n < cap);
}

/* A maintenance connection to the LAIR_TEST_PG server. */
static PGconn *pg_server(const char *server) {
  PGconn *c = PQconnectdb(server);
  if (PQstatus(c) != CONNECTION_OK)
    fail_msg("cannot connect to LAIR_TEST_PG: %s", PQerrorMessage(c));
  return c;
}

static void pg_exec(PGconn *c, const char *sql) {
  PGresult *res = PQexec(c, sql);
  ExecStatusType st = PQresultStatus(res);
  if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK)
    fail_msg("%s: %s", sql, PQresultErrorMessage(res));
  PQclear(res);
}

static int setup(void **state);

/* A fresh PostgreSQL database for one test (or a skip, without a
 * server). */
static int setup_pg(void **state) {
  static int made;
  const char *server = getenv("LAIR_TEST_PG");
  fixture *f;

  if (setup(state))
    return -1;
  f = *state;
  f->pg = true;
  if (!server || !*server) {
    f->skip = true;
    return 0;
  }
  snprintf(f->server, sizeof f->server, "%s", server);
  snprintf(f->dbname, sizeof f->dbname, "lair_t_%ld_%d", (long)getpid(),
           ++made);
  url_with_db(server, f->dbname, f->path, sizeof f->path);
  PGconn *c = pg_server(server);
  char sql[128];
  snprintf(sql, sizeof sql, "CREATE DATABASE %s", f->dbname);
  pg_exec(c, sql);
  PQfinish(c);
  return 0;
}

static int setup(void **state) {
  fixture *f = calloc(1, sizeof *f);

  if (!f)
    return -1;
  snprintf(f->dir, sizeof f->dir, "/tmp/lair-sto-XXXXXX");
  if (!mkdtemp(f->dir)) {
    free(f);
    return -1;
  }
  snprintf(f->path, sizeof f->path, "%s/lair.db", f->dir);
  *state = f;
  return 0;
}

static int teardown(void **state) {
  fixture *f = *state;
  if (f->pg && f->dbname[0]) {
    PGconn *c = pg_server(f->server);
    char sql[128];
    snprintf(sql, sizeof sql, "DROP DATABASE IF EXISTS %s WITH (FORCE)",
             f->dbname);
    pg_exec(c, sql);
    PQfinish(c);
  }
  DIR *d = opendir(f->dir);
  struct dirent *e;
  char p[512];

  while (d && (e = readdir(d))) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
      continue;
    snprintf(p, sizeof p, "%s/%s", f->dir, e->d_name);
    unlink(p);
  }
  if (d)
    closedir(d);
  rmdir(f->dir);
  free(f);
  return 0;
}

/* Reads a whole file; the caller frees. */
static unsigned char *slurp(const char *path, size_t *len) {
  FILE *fp = fopen(path, "rb");
  unsigned char *buf = NULL;
  long n;

  assert_non_null(fp);
  assert_int_equal(fseek(fp, 0, SEEK_END), 0);
  n = ftell(fp);
  assert_true(n >= 0);
  rewind(fp);
  buf = malloc((size_t)n + 1);
  assert_non_null(buf);
  assert_int_equal(fread(buf, 1, (size_t)n, fp), (size_t)n);
  fclose(fp);
  *len = (size_t)n;
  return buf;
}

static void spit(const char *path, const void *data, size_t len) {
  FILE *fp = fopen(path, "wb");
  assert_non_null(fp);
  assert_int_equal(fwrite(data, 1, len, fp), len);
  assert_int_equal(fclose(fp), 0);
}

/* Runs sql on path with a plain SQLite or PostgreSQL connection (to
 * build files by hand, or to look underneath the interface). */
static void raw_exec(const char *path, const char *sql) {
  sqlite3 *h = NULL;
  char *msg = NULL;

  if (sto_is_url(path)) {
    PGconn *c = pg_server(path);
    pg_exec(c, sql);
    PQfinish(c);
    return;
  }

  assert_int_equal(sqlite3_open(path, &h), SQLITE_OK);
  if (sqlite3_exec(h, sql, NULL, NULL, &msg) != SQLITE_OK)
    fail_msg("%s: %s", sql, msg ? msg : "?");
  sqlite3_close(h);
}

static int64_t raw_int(const char *path, const char *sql) {
  sqlite3 *h = NULL;
  sqlite3_stmt *s = NULL;
  int64_t v;

  if (sto_is_url(path)) {
    PGconn *c = pg_server(path);
    PGresult *res = PQexec(c, sql);
    if (PQresultStatus(res) != PGRES_TUPLES_OK || PQntuples(res) < 1)
      fail_msg("%s: %s", sql, PQresultErrorMessage(res));
    v = strtoll(PQgetvalue(res, 0, 0), NULL, 10);
    PQclear(res);
    PQfinish(c);
    return v;
  }

  assert_int_equal(sqlite3_open(path, &h), SQLITE_OK);
  assert_int_equal(sqlite3_prepare_v2(h, sql, -1, &s, NULL), SQLITE_OK);
  assert_int_equal(sqlite3_step(s), SQLITE_ROW);
  v = sqlite3_column_int64(s, 0);
  sqlite3_finalize(s);
  sqlite3_close(h);
  return v;
}

/* Opening path must fail with want and leave the file's bytes as they
 * were. */
static void expect_refused(const char *path, sto_rc want) {
  unsigned char *before, *after;
  size_t n_before, n_after;
  char err[256] = "";
  sto *db = (sto *)&err; /* must be reset to NULL */

  before = slurp(path, &n_before);
  assert_int_equal(sto_open(path, &db, err, sizeof err), want);
  assert_null(db);
  assert_true(err[0] != '\0');
  print_message("refused as expected: %s\n", err);
  after = slurp(path, &n_after);
  assert_int_equal(n_before, n_after);
  assert_memory_equal(before, after, n_before);
  free(before);
  free(after);
}

static sto *open_ok(const char *path) {
  char err[256] = "";
  sto *db = NULL;
  sto_rc rc = sto_open(path, &db, err, sizeof err);

  if (rc != STO_OK)
    fail_msg("sto_open: %s (%s)", sto_strerror(rc), err);
  assert_non_null(db);
  return db;
}

static void copy(char *dst, size_t cap, const char *src) {
  snprintf(dst, cap, "%s", src);
}

static int64_t make_game(sto *db, const char *channel, int status,
                         int64_t created) {
  sto_game g;
  int64_t id = -1;

  memset(&g, 0, sizeof g);
  copy(g.ruleset, sizeof g.ruleset, "supervillain");
  g.ruleset_version = 3;
  copy(g.config, sizeof g.config, "{\"players\":3}");
  g.seed = 42;
  copy(g.guild, sizeof g.guild, "111");
  copy(g.channel, sizeof g.channel, channel);
  copy(g.creator, sizeof g.creator, "u1");
  g.status = status;
  g.created = g.updated = created;
  assert_int_equal(sto_game_create(db, &g, &id), STO_OK);
  assert_true(id > 0);
  return id;
}

static sto_move move_for(int64_t seq, const char *request) {
  sto_move m;

  memset(&m, 0, sizeof m);
  m.seq = seq;
  m.seat = (int)(seq % 3);
  m.kind = STO_MOVE_ANSWER;
  m.turn = (int)(seq / 3);
  m.revealed = (int)(seq % 2);
  snprintf(m.option, sizeof m.option, "opt-%" PRId64, seq);
  copy(m.request, sizeof m.request, request);
  m.time = 1000 + seq;
  return m;
}

static void append_n(sto *db, int64_t game, int64_t from, int64_t n) {
  char req[STO_REQUEST_MAX + 1];

  for (int64_t i = from; i < from + n; i++) {
    snprintf(req, sizeof req, "g%" PRId64 "-r%" PRId64, game, i);
    sto_move m = move_for(i, req);
    assert_int_equal(sto_move_append(db, game, &m), STO_OK);
  }
}

/* Collects listed games' ids. */
typedef struct id_list {
  int64_t ids[16];
  int n, stop_after;
} id_list;

static int collect_game(void *ctx, const sto_game *g) {
  id_list *l = ctx;
  assert_true(l->n < 16);
  l->ids[l->n++] = g->id;
  return l->stop_after && l->n >= l->stop_after;
}

typedef struct move_list {
  sto_move m[64];
  int n;
} move_list;

static int collect_move(void *ctx, const sto_move *m) {
  move_list *l = ctx;
  assert_true(l->n < 64);
  l->m[l->n++] = *m;
  return 0;
}

static void expect_moves(sto *db, int64_t game, int64_t count,
                         int64_t updated) {
  move_list l;
  sto_game g;

  memset(&l, 0, sizeof l);
  assert_int_equal(sto_move_list(db, game, 0, collect_move, &l), STO_OK);
  assert_int_equal(l.n, count);
  assert_int_equal(sto_game_get(db, game, &g), STO_OK);
  assert_int_equal(g.moves, count);
  assert_int_equal(g.updated, updated);
}

/* ---- games ------------------------------------------------------------- */

static void test_strerror(void **state) {
  (void)state;
  for (int rc = 0; rc < STO_RC_COUNT; rc++) {
    const char *t = sto_strerror((sto_rc)rc);
    assert_non_null(t);
    assert_true(strlen(t) > 0);
  }
  assert_string_equal(sto_strerror(STO_OK), "OK.");
  assert_non_null(sto_strerror(STO_RC_COUNT));
  assert_non_null(sto_strerror((sto_rc)-1));
}

static void test_games(void **state) {
  fixture *f = fx(state);
  sto *db = open_ok(f->path);
  int64_t a1, a2, b1;
  sto_game g;
  id_list l;

  a1 = make_game(db, "chanA", STO_LOBBY, 100);
  a2 = make_game(db, "chanA", STO_RUNNING, 200);
  b1 = make_game(db, "chanB", STO_FINISHED, 300);

  assert_int_equal(sto_game_get(db, a2, &g), STO_OK);
  assert_int_equal(g.id, a2);
  assert_string_equal(g.ruleset, "supervillain");
  assert_int_equal(g.ruleset_version, 3);
  assert_string_equal(g.config, "{\"players\":3}");
  assert_int_equal(g.seed, 42);
  assert_string_equal(g.guild, "111");
  assert_string_equal(g.channel, "chanA");
  assert_string_equal(g.creator, "u1");
  assert_int_equal(g.status, STO_RUNNING);
  assert_int_equal(g.created, 200);
  assert_int_equal(g.updated, 200);
  assert_int_equal(g.moves, 0);
  assert_int_equal(sto_game_get(db, 9999, &g), STO_NOT_FOUND);

  /* Per channel, by status, newest first. */
  memset(&l, 0, sizeof l);
  assert_int_equal(sto_game_list(db, "chanA",
                                 1u << STO_LOBBY | 1u << STO_RUNNING,
                                 collect_game, &l),
                   STO_OK);
  assert_int_equal(l.n, 2);
  assert_int_equal(l.ids[0], a2);
  assert_int_equal(l.ids[1], a1);
  memset(&l, 0, sizeof l);
  assert_int_equal(
      sto_game_list(db, "chanA", 1u << STO_LOBBY, collect_game, &l), STO_OK);
  assert_int_equal(l.n, 1);
  assert_int_equal(l.ids[0], a1);
  memset(&l, 0, sizeof l);
  assert_int_equal(sto_game_list(db, "chanA", 0, collect_game, &l), STO_OK);
  assert_int_equal(l.n, 0);

  /* All channels; the callback can stop the walk. */
  memset(&l, 0, sizeof l);
  assert_int_equal(sto_game_list(db, NULL, ~0u, collect_game, &l), STO_OK);
  assert_int_equal(l.n, 3);
  assert_int_equal(l.ids[0], b1);
  memset(&l, 0, sizeof l);
  l.stop_after = 1;
  assert_int_equal(sto_game_list(db, NULL, ~0u, collect_game, &l), STO_OK);
  assert_int_equal(l.n, 1);
  memset(&l, 0, sizeof l);
  assert_int_equal(
      sto_game_list(db, NULL, 1u << STO_FINISHED, collect_game, &l), STO_OK);
  assert_int_equal(l.n, 1);
  assert_int_equal(l.ids[0], b1);

  /* Status and config. */
  assert_int_equal(sto_game_set_status(db, a1, STO_ABORTED, 400), STO_OK);
  assert_int_equal(sto_game_get(db, a1, &g), STO_OK);
  assert_int_equal(g.status, STO_ABORTED);
  assert_int_equal(g.updated, 400);
  assert_int_equal(g.created, 100);
  assert_int_equal(sto_game_set_status(db, 9999, STO_ABORTED, 400),
                   STO_NOT_FOUND);
  assert_int_equal(sto_game_set_status(db, a1, 17, 400), STO_INVALID);

  assert_int_equal(
      sto_game_set_config(db, a2, "{\"seats\":[1,2]}", UINT64_MAX, 500),
      STO_OK);
  assert_int_equal(sto_game_get(db, a2, &g), STO_OK);
  assert_string_equal(g.config, "{\"seats\":[1,2]}");
  assert_true(g.seed == UINT64_MAX);
  assert_int_equal(g.updated, 500);
  assert_int_equal(sto_game_set_config(db, 9999, "{}", 1, 500), STO_NOT_FOUND);

  /* A config over the cap is refused, not cut. */
  {
    char big[STO_CONFIG_MAX + 2];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    assert_int_equal(sto_game_set_config(db, a2, big, 1, 600), STO_TOO_BIG);
    big[STO_CONFIG_MAX] = '\0';
    assert_int_equal(sto_game_set_config(db, a2, big, 1, 600), STO_OK);
  }

  /* Fields of the struct must be terminated within their buffer. */
  memset(&g, 0, sizeof g);
  memset(g.ruleset, 'r', sizeof g.ruleset);
  {
    int64_t id;
    assert_int_equal(sto_game_create(db, &g, &id), STO_TOO_BIG);
    g.ruleset[0] = '\0';
    g.status = 9;
    assert_int_equal(sto_game_create(db, &g, &id), STO_INVALID);
  }
  sto_close(db);
}

/* A callback may call back into storage, even the same list. */
typedef struct nest {
  sto *db;
  int outer, inner;
} nest;

static int nest_inner(void *ctx, const sto_game *g) {
  nest *n = ctx;
  (void)g;
  n->inner++;
  return 0;
}

static int nest_outer(void *ctx, const sto_game *g) {
  nest *n = ctx;
  sto_game again;

  n->outer++;
  assert_int_equal(sto_game_get(n->db, g->id, &again), STO_OK);
  assert_int_equal(again.id, g->id);
  assert_int_equal(sto_game_list(n->db, NULL, ~0u, nest_inner, n), STO_OK);
  return 0;
}

/* A sweep over running games that records a move in each (a deadline
 * passing, say) while the list is still being read. */
static int sweep_append(void *ctx, const sto_game *g) {
  nest *n = ctx;
  char req[32];
  sto_move m;

  snprintf(req, sizeof req, "sweep-%" PRId64, g->id);
  m = move_for(g->moves, req);
  assert_int_equal(sto_move_append(n->db, g->id, &m), STO_OK);
  n->outer++;
  return 0;
}

/* A command's writes commit together or not at all (sto_tx_begin/end):
 * nested levels join the outermost, sto_move_append joins too, and one
 * failed write spoils the whole transaction even when its caller ignores
 * the failure and asks to commit. */
static void test_transactions(void **state) {
  fixture *f = fx(state);
  sto *db = open_ok(f->path);
  int64_t g = make_game(db, "chanT", STO_LOBBY, 100);
  sto_seat s = {.seat = 0};
  copy(s.user, sizeof s.user, "u1");
  copy(s.name, sizeof s.name, "one");
  sto_move m = {.seq = 0, .time = 5};
  copy(m.request, sizeof m.request, "req-1");
  copy(m.option, sizeof m.option, "a");
  sto_game row;
  int n = 0;
  sto_seat seats[4];

  /* Committed: the seat, the move (nested) and the status together. */
  assert_int_equal(sto_tx_begin(db), STO_OK);
  assert_true(sto_in_tx(db));
  assert_int_equal(sto_seat_set(db, g, &s), STO_OK);
  assert_int_equal(sto_tx_begin(db), STO_OK);
  assert_int_equal(sto_move_append(db, g, &m), STO_OK);
  assert_int_equal(sto_tx_end(db, true), STO_OK);
  assert_int_equal(sto_game_set_status(db, g, STO_RUNNING, 6), STO_OK);
  assert_int_equal(sto_tx_end(db, true), STO_OK);
  assert_false(sto_in_tx(db));
  assert_int_equal(sto_game_get(db, g, &row), STO_OK);
  assert_int_equal(row.status, STO_RUNNING);
  assert_int_equal(row.moves, 1);

  /* Spoiled: a move out of sequence fails; the status written before it
   * and the seat after it are dropped although commit was asked. */
  m.seq = 5;
  copy(m.request, sizeof m.request, "req-2");
  s.seat = 1;
  assert_int_equal(sto_tx_begin(db), STO_OK);
  assert_int_equal(sto_game_set_status(db, g, STO_FINISHED, 7), STO_OK);
  assert_int_equal(sto_move_append(db, g, &m), STO_CONFLICT);
  assert_int_equal(sto_seat_set(db, g, &s), STO_CONFLICT);
  assert_int_equal(sto_tx_end(db, true), STO_CONFLICT);
  assert_int_equal(sto_game_get(db, g, &row), STO_OK);
  assert_int_equal(row.status, STO_RUNNING);
  assert_int_equal(row.moves, 1);
  assert_int_equal(sto_seat_list(db, g, seats, 4, &n), STO_OK);
  assert_int_equal(n, 1);

  /* Dropped on request: nothing kept, and no failure to report. */
  assert_int_equal(sto_tx_begin(db), STO_OK);
  assert_int_equal(sto_game_set_status(db, g, STO_ABORTED, 8), STO_OK);
  assert_int_equal(sto_tx_end(db, false), STO_OK);
  assert_int_equal(sto_game_get(db, g, &row), STO_OK);
  assert_int_equal(row.status, STO_RUNNING);
  assert_int_equal(sto_tx_end(db, true), STO_INVALID); /* none open */

  /* The next transaction starts clean. */
  assert_int_equal(sto_tx_begin(db), STO_OK);
  assert_int_equal(sto_seat_set(db, g, &s), STO_OK);
  assert_int_equal(sto_tx_end(db, true), STO_OK);
  assert_int_equal(sto_seat_list(db, g, seats, 4, &n), STO_OK);
  assert_int_equal(n, 2);
  sto_close(db);
}

/* Remembered requests, the AI-due mark, counts and the pick of the game a
 * request means, all answered by SQL whatever the number of games. */
static void test_requests_and_counts(void **state) {
  fixture *f = fx(state);
  sto *db = open_ok(f->path);
  char user[40], answer[STO_ANSWER_MAX + 1];
  bool seen = true;

  assert_int_equal(sto_request_answer(db, "r1", &seen, user, sizeof user,
                                      answer, sizeof answer),
                   STO_OK);
  assert_false(seen);
  assert_int_equal(sto_request_put(db, "r1", "u1", 100, "Game #1 opened."),
                   STO_OK);
  assert_int_equal(sto_request_put(db, "r1", "u1", 101, "again"),
                   STO_DUPLICATE);
  assert_int_equal(sto_request_put(db, "", "u1", 101, "x"), STO_INVALID);
  assert_int_equal(sto_request_answer(db, "r1", &seen, user, sizeof user,
                                      answer, sizeof answer),
                   STO_OK);
  assert_true(seen);
  assert_string_equal(user, "u1");
  assert_string_equal(answer, "Game #1 opened.");
  assert_int_equal(sto_request_prune(db, 101), STO_OK);
  assert_int_equal(sto_request_answer(db, "r1", &seen, user, sizeof user,
                                      answer, sizeof answer),
                   STO_OK);
  assert_false(seen);

  /* 40 open games in one channel: counted, never capped. */
  int64_t last = 0;
  for (int i = 0; i < 40; i++)
    last = make_game(db, "busy", i % 2 ? STO_RUNNING : STO_LOBBY, 100 + i);
  make_game(db, "busy", STO_FINISHED, 500);
  long n = 0;
  assert_int_equal(
      sto_game_count(db, "busy", 1u << STO_LOBBY | 1u << STO_RUNNING, &n),
      STO_OK);
  assert_int_equal(n, 40);
  sto_seat s = {.seat = 0};
  copy(s.user, sizeof s.user, "me");
  copy(s.name, sizeof s.name, "me");
  int64_t mine = make_game(db, "busy", STO_RUNNING, 50); /* the 42nd */
  assert_int_equal(sto_seat_set(db, mine, &s), STO_OK);
  assert_int_equal(sto_game_count_user(db, "me", 1u << STO_RUNNING, &n),
                   STO_OK);
  assert_int_equal(n, 1);

  /* The pick: the requester's own game first, wherever it is listed. */
  int64_t ids[2];
  int ranks[2], k = 0;
  assert_int_equal(
      sto_game_pick(db, "busy", "me", 1u << STO_RUNNING, ids, ranks, &k),
      STO_OK);
  assert_int_equal(k, 2);
  assert_int_equal(ids[0], mine);
  assert_true(ranks[0] > ranks[1]);
  /* Someone who sits in none: two of equal rank, the choice is open. */
  assert_int_equal(
      sto_game_pick(db, "busy", "you", 1u << STO_RUNNING, ids, ranks, &k),
      STO_OK);
  assert_int_equal(k, 2);
  assert_int_equal(ranks[0], ranks[1]);
  assert_int_equal(
      sto_game_pick(db, NULL, "me", 1u << STO_RUNNING, ids, ranks, &k), STO_OK);
  assert_int_equal(k, 1);
  assert_int_equal(ids[0], mine);

  /* The AI-due mark lists only running games so marked. */
  id_list l;
  memset(&l, 0, sizeof l);
  assert_int_equal(sto_game_set_ai_due(db, mine, true), STO_OK);
  assert_int_equal(sto_game_set_ai_due(db, last, true), STO_OK);
  assert_int_equal(sto_game_list_ai_due(db, collect_game, &l), STO_OK);
  assert_int_equal(l.n, 2); /* the loop's last game is running */
  assert_int_equal(sto_game_set_ai_due(db, 99999, true), STO_NOT_FOUND);
  sto_close(db);
}

static void test_nested_list(void **state) {
  fixture *f = fx(state);
  sto *db = open_ok(f->path);
  nest n = {db, 0, 0};
  int64_t ids[3];

  for (int i = 0; i < 3; i++)
    ids[i] = make_game(db, "c", STO_LOBBY, i + 1);
  assert_int_equal(sto_game_list(db, "c", ~0u, nest_outer, &n), STO_OK);
  assert_int_equal(n.outer, 3);
  assert_int_equal(n.inner, 9);

  n.outer = 0;
  assert_int_equal(sto_game_list(db, "c", ~0u, sweep_append, &n), STO_OK);
  assert_int_equal(n.outer, 3);
  for (int i = 0; i < 3; i++)
    expect_moves(db, ids[i], 1, 1000);
  sto_close(db);
}

/* ---- seats ------------------------------------------------------------- */

static void test_seats(void **state) {
  fixture *f = fx(state);
  sto *db = open_ok(f->path);
  int64_t game = make_game(db, "c", STO_LOBBY, 1);
  sto_seat s, out[4];
  int n = -1;

  assert_int_equal(sto_seat_list(db, game, out, 4, &n), STO_OK);
  assert_int_equal(n, 0);
  for (int i = 0; i < 3; i++) {
    memset(&s, 0, sizeof s);
    s.seat = i;
    snprintf(s.user, sizeof s.user, "user%d", i);
    snprintf(s.name, sizeof s.name, "Name %d", i);
    assert_int_equal(sto_seat_set(db, game, &s), STO_OK);
  }
  memset(&s, 0, sizeof s);
  s.seat = 1;
  copy(s.user, sizeof s.user, "user9");
  copy(s.name, sizeof s.name, "Nine");
  assert_int_equal(sto_seat_set(db, game, &s), STO_OK);

  assert_int_equal(sto_seat_list(db, game, out, 4, &n), STO_OK);
  assert_int_equal(n, 3);
  assert_int_equal(out[0].seat, 0);
  assert_string_equal(out[0].user, "user0");
  assert_int_equal(out[1].seat, 1);
  assert_string_equal(out[1].user, "user9");
  assert_string_equal(out[1].name, "Nine");
  assert_string_equal(out[2].name, "Name 2");

  /* More seats than room: an error, not a silently short table. */
  assert_int_equal(sto_seat_list(db, game, out, 2, &n), STO_TOO_BIG);
  assert_int_equal(n, 2);

  assert_int_equal(sto_seat_remove(db, game, 2), STO_OK);
  assert_int_equal(sto_seat_remove(db, game, 2), STO_OK);
  assert_int_equal(sto_seat_list(db, game, out, 4, &n), STO_OK);
  assert_int_equal(n, 2);

  assert_int_equal(sto_seat_set(db, 9999, &s), STO_NOT_FOUND);
  s.seat = -1;
  assert_int_equal(sto_seat_set(db, game, &s), STO_INVALID);
  sto_close(db);
}

/* ---- moves ------------------------------------------------------------- */

static void test_moves(void **state) {
  fixture *f = fx(state);
  sto *db = open_ok(f->path);
  int64_t game = make_game(db, "c", STO_RUNNING, 1);
  int64_t other = make_game(db, "c", STO_RUNNING, 1);
  sto_move m;
  move_list l;
  bool seen;
  int64_t where_game = -1, where_seq = -1;

  m = move_for(0, "req-0");
  assert_int_equal(sto_move_append(db, game, &m), STO_OK);
  m = move_for(1, "req-1");
  m.kind = STO_MOVE_TAKEBACK;
  m.option[0] = '\0';
  assert_int_equal(sto_move_append(db, game, &m), STO_OK);
  m = move_for(2, "req-2");
  assert_int_equal(sto_move_append(db, game, &m), STO_OK);
  expect_moves(db, game, 3, 1002);

  /* Not the next sequence number: rejected, nothing written. */
  m = move_for(2, "req-x");
  assert_int_equal(sto_move_append(db, game, &m), STO_CONFLICT);
  m = move_for(7, "req-y");
  assert_int_equal(sto_move_append(db, game, &m), STO_CONFLICT);
  m = move_for(3, "req-z");
  m.seq = -1;
  assert_int_equal(sto_move_append(db, game, &m), STO_CONFLICT);
  /* A request id already applied, in this game or any other. */
  m = move_for(3, "req-1");
  assert_int_equal(sto_move_append(db, game, &m), STO_DUPLICATE);
  m = move_for(0, "req-2");
  assert_int_equal(sto_move_append(db, other, &m), STO_DUPLICATE);
  /* A duplicate that is also stale is still reported as a duplicate. */
  m = move_for(1, "req-1");
  assert_int_equal(sto_move_append(db, game, &m), STO_DUPLICATE);
  expect_moves(db, game, 3, 1002);
  expect_moves(db, other, 0, 1);
  assert_int_equal(sto_request_seen(db, "req-x", &seen, NULL, NULL), STO_OK);
  assert_false(seen);

  /* Malformed input. */
  m = move_for(3, "");
  assert_int_equal(sto_move_append(db, game, &m), STO_INVALID);
  m = move_for(3, "req-3");
  m.kind = 5;
  assert_int_equal(sto_move_append(db, game, &m), STO_INVALID);
  m = move_for(3, "req-3");
  memset(m.option, 'o', sizeof m.option);
  assert_int_equal(sto_move_append(db, game, &m), STO_TOO_BIG);
  m = move_for(0, "req-3");
  assert_int_equal(sto_move_append(db, 9999, &m), STO_NOT_FOUND);
  expect_moves(db, game, 3, 1002);

  /* Request ids. */
  assert_int_equal(
      sto_request_seen(db, "req-1", &seen, &where_game, &where_seq), STO_OK);
  assert_true(seen);
  assert_int_equal(where_game, game);
  assert_int_equal(where_seq, 1);

  /* Listing from a sequence number. */
  memset(&l, 0, sizeof l);
  assert_int_equal(sto_move_list(db, game, 1, collect_move, &l), STO_OK);
  assert_int_equal(l.n, 2);
  assert_int_equal(l.m[0].seq, 1);
  assert_int_equal(l.m[0].kind, STO_MOVE_TAKEBACK);
  assert_string_equal(l.m[0].option, "");
  assert_string_equal(l.m[0].request, "req-1");
  assert_int_equal(l.m[1].seq, 2);
  assert_int_equal(l.m[1].seat, 2);
  assert_int_equal(l.m[1].turn, 0);
  assert_int_equal(l.m[1].revealed, 0);
  assert_string_equal(l.m[1].option, "opt-2");
  assert_int_equal(l.m[1].time, 1002);
  memset(&l, 0, sizeof l);
  assert_int_equal(sto_move_list(db, game, 3, collect_move, &l), STO_OK);
  assert_int_equal(l.n, 0);

  /* The other game carries on from its own sequence. */
  m = move_for(0, "other-0");
  assert_int_equal(sto_move_append(db, other, &m), STO_OK);
  expect_moves(db, other, 1, 1000);
  sto_close(db);
}

/* Two handles on one file stand for two bot processes: the sequence
 * number decides which move counts. */
static void test_two_writers(void **state) {
  fixture *f = fx(state);
  sto *a = open_ok(f->path);
  sto *b = open_ok(f->path);
  int64_t game = make_game(a, "c", STO_RUNNING, 1);
  sto_move m;

  m = move_for(0, "from-a");
  assert_int_equal(sto_move_append(a, game, &m), STO_OK);
  m = move_for(0, "from-b");
  assert_int_equal(sto_move_append(b, game, &m), STO_CONFLICT);
  m = move_for(1, "from-a");
  assert_int_equal(sto_move_append(b, game, &m), STO_DUPLICATE);
  m = move_for(1, "from-b");
  assert_int_equal(sto_move_append(b, game, &m), STO_OK);
  expect_moves(a, game, 2, 1001);
  sto_close(a);
  sto_close(b);
}

/* ---- snapshots and settings ------------------------------------------- */

static void test_snapshots(void **state) {
  fixture *f = fx(state);
  sto *db = open_ok(f->path);
  int64_t game = make_game(db, "c", STO_RUNNING, 1);
  int64_t seq = -1;
  char *text = NULL;

  assert_int_equal(sto_snapshot_get(db, game, &seq, &text), STO_NOT_FOUND);
  assert_null(text);
  assert_int_equal(sto_snapshot_put(db, game, 3, "{\"s\":3}"), STO_OK);
  assert_int_equal(sto_snapshot_put(db, game, 5, "{\"s\":5}"), STO_OK);
  /* An older snapshot does not replace a newer one. */
  assert_int_equal(sto_snapshot_put(db, game, 4, "{\"s\":4}"), STO_OK);
  assert_int_equal(sto_snapshot_get(db, game, &seq, &text), STO_OK);
  assert_int_equal(seq, 5);
  assert_string_equal(text, "{\"s\":5}");
  free(text);
  assert_int_equal(raw_int(f->path, "SELECT count(*) FROM snapshots"), 1);

  assert_int_equal(sto_snapshot_put(db, 9999, 1, "{}"), STO_NOT_FOUND);
  assert_int_equal(sto_snapshot_put(db, game, -1, "{}"), STO_INVALID);
  sto_close(db);
}

static void test_settings(void **state) {
  fixture *f = fx(state);
  sto *db = open_ok(f->path);
  char buf[16];

  assert_int_equal(sto_setting_get(db, "guild:1", "prefix", buf, sizeof buf),
                   STO_NOT_FOUND);
  assert_int_equal(sto_setting_set(db, "guild:1", "prefix", "!"), STO_OK);
  assert_int_equal(sto_setting_set(db, "guild:2", "prefix", "?"), STO_OK);
  assert_int_equal(sto_setting_get(db, "guild:1", "prefix", buf, sizeof buf),
                   STO_OK);
  assert_string_equal(buf, "!");
  assert_int_equal(sto_setting_set(db, "guild:1", "prefix", "$$"), STO_OK);
  assert_int_equal(sto_setting_get(db, "guild:1", "prefix", buf, sizeof buf),
                   STO_OK);
  assert_string_equal(buf, "$$");
  assert_int_equal(sto_setting_get(db, "guild:2", "prefix", buf, sizeof buf),
                   STO_OK);
  assert_string_equal(buf, "?");

  /* A value longer than the caller's buffer is an error, not a cut. */
  assert_int_equal(
      sto_setting_set(db, "guild:1", "quiet", "22:00-07:00 Europe/Paris"),
      STO_OK);
  assert_int_equal(sto_setting_get(db, "guild:1", "quiet", buf, sizeof buf),
                   STO_TOO_BIG);
  assert_string_equal(buf, "");
  sto_close(db);
}

/* Kept messages: a key names one message, replaced when it is posted
 * anew, forgotten once older than the prune's time. */
static void test_kept(void **state) {
  fixture *f = fx(state);
  sto *db = open_ok(f->path);
  char ch[24], msg[24];

  assert_int_equal(
      sto_kept_get(db, "c:200:t:1:3", ch, sizeof ch, msg, sizeof msg),
      STO_NOT_FOUND);
  assert_int_equal(sto_kept_set(db, "c:200:t:1:3", "200", "901", 100), STO_OK);
  assert_int_equal(sto_kept_set(db, "d:7:t:1:3", "300", "902", 200), STO_OK);
  assert_int_equal(
      sto_kept_get(db, "c:200:t:1:3", ch, sizeof ch, msg, sizeof msg), STO_OK);
  assert_string_equal(ch, "200");
  assert_string_equal(msg, "901");
  /* Posted anew (the old one deleted by someone): the key names it now. */
  assert_int_equal(sto_kept_set(db, "c:200:t:1:3", "200", "903", 150), STO_OK);
  assert_int_equal(
      sto_kept_get(db, "c:200:t:1:3", ch, sizeof ch, msg, sizeof msg), STO_OK);
  assert_string_equal(msg, "903");
  /* Nothing empty or oversized is recorded. */
  assert_int_equal(sto_kept_set(db, "", "200", "904", 1), STO_INVALID);
  assert_int_equal(sto_kept_set(db, "k", "200", "", 1), STO_INVALID);
  char big[STO_KEPT_KEY_MAX + 2];
  memset(big, 'k', sizeof big - 1);
  big[sizeof big - 1] = '\0';
  assert_int_equal(sto_kept_set(db, big, "200", "905", 1), STO_INVALID);
  /* A buffer too small is an error, not a cut. */
  assert_int_equal(sto_kept_get(db, "c:200:t:1:3", ch, 2, msg, sizeof msg),
                   STO_TOO_BIG);
  assert_int_equal(sto_kept_prune(db, 160), STO_OK);
  assert_int_equal(
      sto_kept_get(db, "c:200:t:1:3", ch, sizeof ch, msg, sizeof msg),
      STO_NOT_FOUND);
  assert_int_equal(
      sto_kept_get(db, "d:7:t:1:3", ch, sizeof ch, msg, sizeof msg), STO_OK);
  assert_string_equal(msg, "902");
  sto_close(db);
}

static int collect_rating(void *ctx, const sto_rating *r) {
  char *out = ctx;
  size_t n = strlen(out);
  snprintf(out + n, 256 - n, "%s%s", n ? "," : "", r->player);
  return 0;
}

/* Ratings per (guild, ruleset, player): replaced in place, listed per
 * player by ruleset, and ranked for the leaderboard by rating, then the
 * smaller deviation, more games and the player id, below a deviation
 * threshold; sides counted per player. */
static void test_ratings(void **state) {
  fixture *f = fx(state);
  sto *db = open_ok(f->path);
  sto_rating r, got;
  memset(&r, 0, sizeof r);
  copy(r.guild, sizeof r.guild, "g1");
  copy(r.ruleset, sizeof r.ruleset, "supervillain");
  copy(r.player, sizeof r.player, "u1");
  copy(r.name, sizeof r.name, "One");
  assert_int_equal(sto_rating_get(db, "g1", "supervillain", "u1", &got),
                   STO_NOT_FOUND);
  r.rating = 1500000000;
  r.rd = 200000000;
  r.volatility = 60000;
  r.games = 1;
  r.wins = 1;
  r.updated = 77;
  assert_int_equal(sto_rating_put(db, &r), STO_OK);
  r.rating = 1520123456;
  r.rd = 90000000;
  r.games = 2;
  assert_int_equal(sto_rating_put(db, &r), STO_OK);
  assert_int_equal(sto_rating_get(db, "g1", "supervillain", "u1", &got),
                   STO_OK);
  assert_string_equal(got.name, "One");
  assert_true(got.rating == 1520123456 && got.rd == 90000000 &&
              got.volatility == 60000 && got.games == 2 && got.wins == 1 &&
              got.updated == 77);
  /* Another server's rating is its own. */
  assert_int_equal(sto_rating_get(db, "g2", "supervillain", "u1", &got),
                   STO_NOT_FOUND);
  /* u2 ties u1 on rating with a smaller deviation; u3 ties u2 on both
   * with fewer games; u4 ties u3 on everything (id decides); u5's
   * deviation is too wide to rank. */
  const struct {
    const char *p;
    int64_t rating, rd, games;
  } rows[] = {{"u2", 1520123456, 80000000, 5},
              {"u3", 1520123456, 80000000, 4},
              {"u4", 1520123456, 80000000, 4},
              {"u5", 1800000000, 150000000, 9},
              {"ai:heuristic", 1400000000, 50000000, 30}};
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    copy(r.player, sizeof r.player, rows[i].p);
    r.rating = rows[i].rating;
    r.rd = rows[i].rd;
    r.games = rows[i].games;
    assert_int_equal(sto_rating_put(db, &r), STO_OK);
  }
  char list[256] = "";
  assert_int_equal(sto_rating_top(db, "g1", "supervillain", 110000000, 10,
                                  collect_rating, list),
                   STO_OK);
  assert_string_equal(list, "u2,u3,u4,u1,ai:heuristic");
  list[0] = '\0';
  assert_int_equal(sto_rating_top(db, "g1", "supervillain", 110000000, 2,
                                  collect_rating, list),
                   STO_OK);
  assert_string_equal(list, "u2,u3");
  list[0] = '\0';
  assert_int_equal(
      sto_rating_top(db, "g1", "galactic", 110000000, 10, collect_rating, list),
      STO_OK);
  assert_string_equal(list, "");
  long count = -1;
  assert_int_equal(sto_rating_count(db, "g1", "supervillain", &count), STO_OK);
  assert_int_equal(count, 6);
  assert_int_equal(sto_rating_count(db, "g2", "supervillain", &count), STO_OK);
  assert_int_equal(count, 0);
  /* A player's ratings, one per game, by ruleset id. */
  copy(r.ruleset, sizeof r.ruleset, "galactic");
  copy(r.player, sizeof r.player, "u1");
  assert_int_equal(sto_rating_put(db, &r), STO_OK);
  list[0] = '\0';
  assert_int_equal(sto_rating_list_player(db, "g1", "u1", collect_rating, list),
                   STO_OK);
  assert_string_equal(list, "u1,u1");
  /* Bad keys change nothing. */
  copy(r.player, sizeof r.player, "");
  assert_int_equal(sto_rating_put(db, &r), STO_INVALID);
  /* Sides: the most played, ties by id. */
  char side[33], sname[STO_SIDE_NAME_MAX];
  int64_t n = -1;
  assert_int_equal(sto_side_top(db, "g1", "villainous", "u1", side, sizeof side,
                                sname, sizeof sname, &n),
                   STO_NOT_FOUND);
  assert_int_equal(
      sto_side_add(db, "g1", "villainous", "u1", "zeta", "The Zeta"), STO_OK);
  assert_int_equal(
      sto_side_add(db, "g1", "villainous", "u1", "alpha", "Alpha One"), STO_OK);
  assert_int_equal(sto_side_top(db, "g1", "villainous", "u1", side, sizeof side,
                                sname, sizeof sname, &n),
                   STO_OK);
  assert_string_equal(side, "alpha");
  assert_string_equal(sname, "Alpha One");
  assert_int_equal(n, 1);
  assert_int_equal(
      sto_side_add(db, "g1", "villainous", "u1", "zeta", "The Zeta"), STO_OK);
  assert_int_equal(sto_side_top(db, "g1", "villainous", "u1", side, sizeof side,
                                sname, sizeof sname, &n),
                   STO_OK);
  assert_string_equal(side, "zeta");
  assert_string_equal(sname, "The Zeta");
  assert_int_equal(n, 2);
  assert_int_equal(sto_side_add(db, "g1", "villainous", "u1", "", "x"),
                   STO_INVALID);
  sto_close(db);
}

/* Values that came into the file by another road are checked on the way
 * out: too long for the struct, or a seed that is not a uint64. */
static void test_stored_values_checked(void **state) {
  fixture *f = *state;
  sto *db = open_ok(f->path);
  int64_t game = make_game(db, "c", STO_RUNNING, 1);
  sto_game g;
  char sql[256];

  sto_close(db);
  snprintf(sql, sizeof sql,
           "UPDATE games SET channel = printf('%%.*c', 40, 'x') "
           "WHERE id = %" PRId64,
           game);
  raw_exec(f->path, sql);
  db = open_ok(f->path);
  assert_int_equal(sto_game_get(db, game, &g), STO_TOO_BIG);
  sto_close(db);

  const char *bad_seeds[] = {"-1", " 5", "12x", "", "18446744073709551616"};
  for (size_t i = 0; i < sizeof bad_seeds / sizeof bad_seeds[0]; i++) {
    snprintf(sql, sizeof sql,
             "UPDATE games SET channel = 'c', seed = '%s' WHERE id = %" PRId64,
             bad_seeds[i], game);
    raw_exec(f->path, sql);
    db = open_ok(f->path);
    assert_int_equal(sto_game_get(db, game, &g), STO_CORRUPT);
    sto_close(db);
  }
}

/* Timers keep the turn they count for; a stopped clock is kept but never
 * due, and a due one is claimed once. */
static void test_timers(void **state) {
  fixture *f = fx(state);
  sto *db = open_ok(f->path);
  int64_t game = make_game(db, "c", STO_RUNNING, 1);
  sto_timer t = {.game = game,
                 .kind = "deadline",
                 .seat = 1,
                 .due = 500,
                 .data = 3600,
                 .turn = 7};
  sto_timer got;
  bool claimed;

  assert_int_equal(sto_timer_set(db, &t), STO_OK);
  snprintf(t.kind, sizeof t.kind, "warn");
  t.due = STO_TIMER_STOPPED;
  t.data = 1800;
  assert_int_equal(sto_timer_set(db, &t), STO_OK);
  assert_int_equal(sto_timer_get(db, game, "deadline", 1, &got), STO_OK);
  assert_int_equal(got.turn, 7);
  assert_int_equal(got.due, 500);
  assert_int_equal(got.data, 3600);
  assert_int_equal(sto_timer_next(db, 499, &got), STO_NOT_FOUND);
  assert_int_equal(sto_timer_next(db, INT64_MAX - 1, &got), STO_OK);
  assert_string_equal(got.kind, "deadline"); /* not the stopped warning */
  assert_int_equal(sto_timer_claim(db, &got, &claimed), STO_OK);
  assert_true(claimed);
  assert_int_equal(sto_timer_claim(db, &got, &claimed), STO_OK);
  assert_false(claimed);
  assert_int_equal(sto_timer_next(db, INT64_MAX - 1, &got), STO_NOT_FOUND);
  assert_int_equal(sto_timer_get(db, game, "warn", 1, &got), STO_OK);
  assert_int_equal(got.due, STO_TIMER_STOPPED);
  assert_int_equal(got.data, 1800);
  assert_int_equal(got.turn, 7);
  sto_close(db);
}

/* Invitations: set, listed in their seat order, withdrawn once; an
 * invited member's game is picked as if they sat in it. */
static void test_invites(void **state) {
  fixture *f = fx(state);
  sto *db = open_ok(f->path);
  int64_t old = make_game(db, "c", STO_FINISHED, 1);
  int64_t lobby = make_game(db, "c", STO_LOBBY, 2);
  int64_t other = make_game(db, "c", STO_LOBBY, 3);
  sto_seat a = {.seat = 2}, b = {.seat = 0}, list[4];
  int n, ranks[2];
  int64_t ids[2];
  bool removed;

  (void)old;
  copy(a.user, sizeof a.user, "u2");
  copy(a.name, sizeof a.name, "Ann");
  copy(b.user, sizeof b.user, "u3");
  copy(b.name, sizeof b.name, "Bob");
  assert_int_equal(sto_invite_set(db, lobby, &a), STO_OK);
  assert_int_equal(sto_invite_set(db, lobby, &b), STO_OK);
  assert_int_equal(sto_invite_set(db, lobby, &b), STO_OK); /* replaced */
  assert_int_equal(sto_invite_set(db, 999, &b), STO_NOT_FOUND);
  assert_int_equal(sto_invite_list(db, lobby, list, 4, &n), STO_OK);
  assert_int_equal(n, 2);
  assert_string_equal(list[0].name, "Bob");
  assert_string_equal(list[1].name, "Ann");
  assert_int_equal(sto_invite_list(db, lobby, list, 1, &n), STO_TOO_BIG);
  /* u2 is invited to the older lobby: it outranks the newer one. */
  assert_int_equal(
      sto_game_pick(db, "c", "u2", 1u << STO_LOBBY, ids, ranks, &n), STO_OK);
  assert_int_equal(n, 2);
  assert_int_equal(ids[0], lobby);
  assert_int_equal(ranks[0], 3);
  assert_int_equal(ids[1], other);
  assert_int_equal(ranks[1], 1);
  assert_int_equal(
      sto_game_pick(db, NULL, "u2", 1u << STO_LOBBY, ids, ranks, &n), STO_OK);
  assert_int_equal(n, 1);
  assert_int_equal(ids[0], lobby);
  assert_int_equal(sto_invite_remove(db, lobby, "u2", &removed), STO_OK);
  assert_true(removed);
  assert_int_equal(sto_invite_remove(db, lobby, "u2", &removed), STO_OK);
  assert_false(removed);
  assert_int_equal(sto_invite_list(db, lobby, list, 4, &n), STO_OK);
  assert_int_equal(n, 1);
  sto_close(db);
}

/* ---- opening, migrating, refusing -------------------------------------- */

static void test_reopen(void **state) {
  fixture *f = fx(state);
  sto *db = open_ok(f->path);
  int64_t game = make_game(db, "c", STO_RUNNING, 7);
  sto_seat s, seats[2];
  sto_game g;
  char buf[8];
  char *text = NULL;
  int64_t seq;
  int n;

  memset(&s, 0, sizeof s);
  copy(s.user, sizeof s.user, "u");
  copy(s.name, sizeof s.name, "U");
  assert_int_equal(sto_seat_set(db, game, &s), STO_OK);
  append_n(db, game, 0, 5);
  assert_int_equal(sto_snapshot_put(db, game, 4, "state"), STO_OK);
  assert_int_equal(sto_setting_set(db, "s", "k", "v"), STO_OK);
  sto_close(db);

  db = open_ok(f->path);
  assert_int_equal(sto_game_get(db, game, &g), STO_OK);
  assert_int_equal(g.moves, 5);
  assert_int_equal(g.created, 7);
  assert_int_equal(sto_seat_list(db, game, seats, 2, &n), STO_OK);
  assert_int_equal(n, 1);
  assert_string_equal(seats[0].user, "u");
  expect_moves(db, game, 5, 1004);
  assert_int_equal(sto_snapshot_get(db, game, &seq, &text), STO_OK);
  assert_int_equal(seq, 4);
  assert_string_equal(text, "state");
  free(text);
  assert_int_equal(sto_setting_get(db, "s", "k", buf, sizeof buf), STO_OK);
  assert_string_equal(buf, "v");
  /* The sequence continues after a reopen. */
  append_n(db, game, 5, 1);
  sto_close(db);

  assert_int_equal(raw_int(f->path, "SELECT count(*) FROM moves"), 6);
  if (f->pg) {
    assert_int_equal(raw_int(f->path, "SELECT version FROM lair_meta"),
                     sto_schema_version());
    return;
  }
  assert_int_equal(raw_int(f->path, "PRAGMA user_version"),
                   sto_schema_version());
  /* The header's read and write versions say WAL. */
  {
    size_t len;
    unsigned char *bytes = slurp(f->path, &len);
    assert_true(len >= 100);
    assert_int_equal(bytes[18], 2);
    assert_int_equal(bytes[19], 2);
    free(bytes);
  }
}

/* A new database is made only where no file is: an empty file is refused
 * (bytes unchanged); a missing one is made, with the whole schema, and
 * says so once; nothing of its making is left beside it. */
static void test_new_and_empty_file(void **state) {
  fixture *f = *state;
  sto *db;
  char side[1100];

  spit(f->path, "", 0);
  expect_refused(f->path, STO_CORRUPT);
  assert_int_equal(unlink(f->path), 0);

  db = open_ok(f->path);
  assert_true(sto_created(db));
  make_game(db, "c", STO_LOBBY, 1);
  sto_close(db);
  snprintf(side, sizeof side, "%s.new", f->path);
  assert_int_equal(access(side, F_OK), -1);
  assert_true(sto_schema_version() >= 1);
  assert_int_equal(raw_int(f->path, "PRAGMA user_version"),
                   sto_schema_version());
  assert_int_equal(raw_int(f->path, "PRAGMA application_id"), 0x4c414952);
  assert_int_equal(raw_int(f->path, "SELECT count(*) FROM sqlite_schema "
                                    "WHERE name IN ('games', 'seats', "
                                    "'moves', 'snapshots', 'settings', "
                                    "'timers', 'audit', 'requests')"),
                   8);
  /* Opening a current file again migrates nothing and keeps the data. */
  db = open_ok(f->path);
  assert_false(sto_created(db));
  sto_close(db);
  assert_int_equal(raw_int(f->path, "SELECT count(*) FROM games"), 1);

  /* A leftover of an interrupted making is made again, not used. */
  spit(side, "leftover", 8);
  assert_int_equal(unlink(f->path), 0);
  db = open_ok(f->path);
  assert_true(sto_created(db));
  sto_close(db);
  assert_int_equal(access(side, F_OK), -1);
}

/* An SQLite file without Lair's schema (user_version 0, no tables) was
 * not made by Lair: refused, not taken over. */
static void test_foreign_empty_sqlite(void **state) {
  fixture *f = *state;
  sqlite3 *h;

  assert_int_equal(sqlite3_open(f->path, &h), SQLITE_OK);
  assert_int_equal(
      sqlite3_exec(h, "PRAGMA page_size = 4096; VACUUM;", NULL, NULL, NULL),
      SQLITE_OK);
  sqlite3_close(h);
  expect_refused(f->path, STO_CORRUPT);
}

static void test_missing_directory(void **state) {
  fixture *f = *state;
  char path[160], err[256] = "";
  sto *db = NULL;

  snprintf(path, sizeof path, "%s/no/such/dir.db", f->dir);
  assert_int_equal(sto_open(path, &db, err, sizeof err), STO_IO);
  assert_null(db);
  assert_true(err[0] != '\0');
  assert_int_equal(sto_open(NULL, &db, err, sizeof err), STO_INVALID);
  sto_close(NULL);
}

static void test_garbage_file(void **state) {
  fixture *f = *state;
  unsigned char junk[8192];
  uint32_t x = 12345;

  for (size_t i = 0; i < sizeof junk; i++) {
    x = x * 1664525u + 1013904223u;
    junk[i] = (unsigned char)(x >> 24);
  }
  spit(f->path, junk, sizeof junk);
  expect_refused(f->path, STO_CORRUPT);

  /* A short text file too (a config file given by mistake). */
  spit(f->path, "DISCORD_TOKEN=abc\n", 18);
  expect_refused(f->path, STO_CORRUPT);
}

static void test_too_new(void **state) {
  fixture *f = *state;
  sto *db = open_ok(f->path);
  char sql[64];

  make_game(db, "c", STO_LOBBY, 1);
  sto_close(db);
  snprintf(sql, sizeof sql, "PRAGMA user_version = %d",
           sto_schema_version() + 1);
  raw_exec(f->path, sql);
  expect_refused(f->path, STO_TOO_NEW);
  assert_int_equal(raw_int(f->path, "PRAGMA user_version"),
                   sto_schema_version() + 1);
}

static void test_foreign_database(void **state) {
  fixture *f = *state;

  raw_exec(f->path, "CREATE TABLE foo(a, b); INSERT INTO foo VALUES(1, 2);");
  expect_refused(f->path, STO_CORRUPT);
  assert_int_equal(raw_int(f->path, "SELECT count(*) FROM sqlite_schema"), 1);

  /* Another program's file that uses user_version and application_id. */
  raw_exec(f->path, "DROP TABLE foo; PRAGMA user_version = 1;"
                    "PRAGMA application_id = 1234;");
  expect_refused(f->path, STO_CORRUPT);
  raw_exec(f->path, "PRAGMA application_id = 0;");
  expect_refused(f->path, STO_CORRUPT);
}

/* A Lair file of many pages, with moves in every page of the middle. */
static void make_big_lair_file(const char *path) {
  sto *db = open_ok(path);
  int64_t game = make_game(db, "c", STO_RUNNING, 1);
  sqlite3 *h;

  /* One transaction by hand: 2000 durable appends would take a while. */
  sto_close(db);
  assert_int_equal(game, 1);
  assert_int_equal(sqlite3_open(path, &h), SQLITE_OK);
  assert_int_equal(
      sqlite3_exec(h,
                   "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL "
                   "SELECT i + 1 FROM n WHERE i < 1999) "
                   "INSERT INTO moves(game, seq, seat, kind, turn, revealed, "
                   "option, request, time) SELECT 1, i, i % 3, 0, i / 3, 0, "
                   "'option-' || i, 'request-' || i, 1000 + i FROM n;"
                   "UPDATE games SET moves = 2000;",
                   NULL, NULL, NULL),
      SQLITE_OK);
  sqlite3_close(h);
  db = open_ok(path); /* still healthy */
  sto_close(db);
}

static void count_problem(void *ctx, const char *problem) {
  (*(int *)ctx)++;
  fprintf(stderr, "problem: %s\n", problem);
}

/* A zeroed page in the middle: start-up does not read the whole file
 * (so it stays fast), the full check (sto_check, `lair check`) finds the
 * damage, and neither changes a byte. */
static void test_damaged_page(void **state) {
  fixture *f = *state;
  unsigned char *bytes, *after;
  size_t len, n_after;
  int64_t page;
  long problems = 0;
  int reported = 0;
  char err[256];

  make_big_lair_file(f->path);
  sto *db = open_ok(f->path);
  sto_seat s = {.seat = 0};
  copy(s.user, sizeof s.user, "u");
  copy(s.name, sizeof s.name, "u");
  assert_int_equal(sto_seat_set(db, 1, &s), STO_OK);
  sto_close(db);
  problems = -1;
  assert_int_equal(
      sto_check(f->path, count_problem, &reported, &problems, err, sizeof err),
      STO_OK);
  assert_int_equal(problems, 0);
  page = raw_int(f->path, "PRAGMA page_size");
  bytes = slurp(f->path, &len);
  assert_true(len / (size_t)page >= 20);
  memset(bytes + (len / (size_t)page / 2) * (size_t)page, 0, (size_t)page);
  spit(f->path, bytes, len);
  assert_int_equal(
      sto_check(f->path, count_problem, &reported, &problems, err, sizeof err),
      STO_OK);
  assert_true(problems > 0);
  assert_true(reported > 0);
  after = slurp(f->path, &n_after);
  assert_int_equal(len, n_after);
  assert_memory_equal(bytes, after, len);
  free(bytes);
  free(after);
}

/* Lair's own rules: a move missing from the middle of a game, a snapshot
 * past the moves and seats with a gap are each reported. */
static void test_check_rules(void **state) {
  fixture *f = fx(state);
  sto *db = open_ok(f->path);
  int64_t g = make_game(db, "c", STO_RUNNING, 1);
  long problems = 0;
  int reported = 0;
  char err[256];

  append_n(db, g, 0, 5);
  sto_seat s = {.seat = 0};
  copy(s.user, sizeof s.user, "u");
  copy(s.name, sizeof s.name, "u");
  assert_int_equal(sto_seat_set(db, g, &s), STO_OK);
  assert_int_equal(sto_snapshot_put(db, g, 4, "{}"), STO_OK);
  sto_close(db);
  assert_int_equal(
      sto_check(f->path, count_problem, &reported, &problems, err, sizeof err),
      STO_OK);
  assert_int_equal(problems, 0);
  raw_exec(f->path, "DELETE FROM moves WHERE seq = 2;"
                    "UPDATE snapshots SET seq = 9;"
                    "UPDATE seats SET seat = 3;"
                    "INSERT INTO invites VALUES(1, 'x', 'X', 0);");
  assert_int_equal(
      sto_check(f->path, count_problem, &reported, &problems, err, sizeof err),
      STO_OK);
  assert_int_equal(problems, 4);
}

/* A file of schema version 4 is migrated forward: its timers count for
 * the turn in progress (-1), it gains invitations, and a server's
 * deadline_policy forfeit becomes miss_action forfeit at the second
 * missed turn, its other settings untouched. */
static void test_migration_5(void **state) {
  fixture *f = *state;
  sto *db = open_ok(f->path);
  int64_t game = make_game(db, "c", STO_RUNNING, 1);
  char buf[16];
  sto_timer t;
  sto_close(db);
  raw_exec(f->path,
           "DROP TABLE lines;"
           "DROP TABLE invites;"
           "DROP TABLE kept;"
           "DROP TABLE ratings;"
           "DROP TABLE sides;"
           "ALTER TABLE games DROP COLUMN version;"
           "ALTER TABLE timers DROP COLUMN turn;"
           "PRAGMA user_version = 4;"
           "INSERT INTO timers(game, kind, seat, due, data) "
           "VALUES(1, 'deadline', 0, 1234, 0);"
           "INSERT INTO settings VALUES('guild:1', 'deadline_policy', "
           "'forfeit'), ('guild:2', 'deadline_policy', 'ai'), "
           "('guild:3', 'deadline_policy', 'forfeit'), "
           "('guild:3', 'miss_limit', '4'), ('guild:2', 'undo', 'off');");
  db = open_ok(f->path);
  assert_int_equal(raw_int(f->path, "PRAGMA user_version"),
                   sto_schema_version());
  assert_int_equal(sto_timer_get(db, game, "deadline", 0, &t), STO_OK);
  assert_int_equal(t.turn, -1);
  assert_int_equal(t.due, 1234);
  assert_int_equal(
      sto_setting_get(db, "guild:1", "miss_action", buf, sizeof buf), STO_OK);
  assert_string_equal(buf, "forfeit");
  assert_int_equal(
      sto_setting_get(db, "guild:1", "miss_limit", buf, sizeof buf), STO_OK);
  assert_string_equal(buf, "2");
  assert_int_equal(
      sto_setting_get(db, "guild:3", "miss_limit", buf, sizeof buf), STO_OK);
  assert_string_equal(buf, "4"); /* the moderator's own value is kept */
  assert_int_equal(
      sto_setting_get(db, "guild:2", "miss_action", buf, sizeof buf),
      STO_NOT_FOUND);
  assert_int_equal(sto_setting_get(db, "guild:2", "undo", buf, sizeof buf),
                   STO_OK);
  assert_int_equal(raw_int(f->path, "SELECT count(*) FROM settings WHERE "
                                    "key = 'deadline_policy'"),
                   0);
  sto_seat inv = {.seat = 0};
  copy(inv.user, sizeof inv.user, "u");
  copy(inv.name, sizeof inv.name, "U");
  assert_int_equal(sto_invite_set(db, game, &inv), STO_OK);
  sto_close(db);
}

static void test_truncated_file(void **state) {
  fixture *f = *state;
  unsigned char *bytes;
  size_t len;

  make_big_lair_file(f->path);
  bytes = slurp(f->path, &len);
  spit(f->path, bytes, len / 2);
  free(bytes);
  expect_refused(f->path, STO_CORRUPT);
}

/* ---- crash durability -------------------------------------------------- */

/* The writer: appends moves until killed and reports each acknowledged
 * sequence number on fd. It never returns; cmocka is not used here. */
static void crash_child(const char *path, int64_t game, int fd) {
  char req[STO_REQUEST_MAX + 1];
  sto_game g;
  sto *db = NULL;

  if (sto_open(path, &db, NULL, 0) != STO_OK)
    _exit(2);
  if (sto_game_get(db, game, &g) != STO_OK)
    _exit(3);
  for (int64_t seq = g.moves; seq < g.moves + 100000; seq++) {
    snprintf(req, sizeof req, "crash-%" PRId64, seq);
    sto_move m = move_for(seq, req);
    if (sto_move_append(db, game, &m) != STO_OK)
      _exit(4);
    if (seq % 10 == 9 && sto_snapshot_put(db, game, seq + 1, req) != STO_OK)
      _exit(5);
    if (write(fd, &seq, sizeof seq) != (ssize_t)sizeof seq)
      _exit(6);
  }
  sto_close(db);
  _exit(0);
}

typedef struct gapless {
  int64_t next;
  bool ok;
} gapless;

static int check_gapless(void *ctx, const sto_move *m) {
  gapless *c = ctx;
  char want[STO_REQUEST_MAX + 1];

  snprintf(want, sizeof want, "crash-%" PRId64, m->seq);
  if (m->seq != c->next || strcmp(m->request, want) != 0)
    c->ok = false;
  c->next++;
  return 0;
}

static void test_crash_durability(void **state) {
  fixture *f = fx(state);
  unsigned seed = (unsigned)time(NULL) ^ ((unsigned)getpid() << 16);
  sto *db = open_ok(f->path);
  int64_t game = make_game(db, "c", STO_RUNNING, 1);
  int64_t acked = 0; /* moves acknowledged so far, over all rounds */

  sto_close(db);
  print_message("crash test seed %u\n", seed);
  for (int round = 0; round < 3; round++) {
    int fds[2], status;
    int64_t seq, start = acked;
    struct timespec pause;
    ssize_t got;
    pid_t pid;

    assert_int_equal(pipe(fds), 0);
    pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
      close(fds[0]);
      crash_child(f->path, game, fds[1]);
    }
    close(fds[1]);

    /* Let a few moves through, then kill at a random moment. */
    for (int i = 0; i < 3; i++) {
      got = read(fds[0], &seq, sizeof seq);
      assert_int_equal(got, sizeof seq);
      assert_int_equal(seq, acked);
      acked++;
    }
    seed = seed * 1103515245u + 12345u;
    pause.tv_sec = 0;
    pause.tv_nsec = (long)((seed >> 8) % 40000) * 1000L;
    nanosleep(&pause, NULL);
    assert_int_equal(kill(pid, SIGKILL), 0);
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true((WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) ||
                (WIFEXITED(status) && WEXITSTATUS(status) == 0));
    while ((got = read(fds[0], &seq, sizeof seq)) == sizeof seq) {
      assert_int_equal(seq, acked);
      acked++;
    }
    assert_true(got == 0 || got == -1 || (size_t)got < sizeof seq);
    close(fds[0]);
    assert_true(acked > start);

    /* Every acknowledged move is there, in order, with no gap and no
     * duplicate; at most the move in flight was added unacknowledged. */
    {
      gapless c = {0, true};
      sto_game g;
      bool seen;

      db = open_ok(f->path);
      assert_int_equal(sto_game_get(db, game, &g), STO_OK);
      assert_int_equal(sto_move_list(db, game, 0, check_gapless, &c), STO_OK);
      assert_true(c.ok);
      assert_int_equal(c.next, g.moves);
      assert_true(g.moves == acked || g.moves == acked + 1);
      for (int64_t i = 0; i < g.moves; i++) {
        char req[32];
        snprintf(req, sizeof req, "crash-%" PRId64, i);
        assert_int_equal(sto_request_seen(db, req, &seen, NULL, NULL), STO_OK);
        assert_true(seen);
      }
      print_message("round %d: %" PRId64 " moves acknowledged, %" PRId64
                    " stored\n",
                    round, acked, g.moves);
      acked = g.moves; /* the next round starts after the last commit */
      sto_close(db);
    }
  }
}

/* ---- versions, locks, timers taken (both engines) ---------------------- */

static int64_t version_of(sto *db, int64_t game) {
  sto_game g;
  assert_int_equal(sto_game_get(db, game, &g), STO_OK);
  return g.version;
}

static int collect_versions(void *ctx, const sto_game *g) {
  int64_t *v = ctx;
  *v = g->version;
  return 0;
}

/* Every kind of write to a game advances its version; what writes nothing
 * (an empty seat removed, an invitation that was not there) does not. */
static void test_versions(void **state) {
  fixture *f = fx(state);
  sto *db = open_ok(f->path);
  int64_t g = make_game(db, "c", STO_LOBBY, 1), v = 0, listed = -1;
  sto_seat s = {.seat = 0}, inv = {.seat = 1};
  bool removed;

  copy(s.user, sizeof s.user, "u1");
  copy(s.name, sizeof s.name, "One");
  copy(inv.user, sizeof inv.user, "u2");
  copy(inv.name, sizeof inv.name, "Two");
  assert_int_equal(version_of(db, g), 0);
  assert_int_equal(sto_game_set_status(db, g, STO_LOBBY, 2), STO_OK);
  assert_int_equal(version_of(db, g), ++v);
  assert_int_equal(sto_game_set_config(db, g, "{}", 7, 3), STO_OK);
  assert_int_equal(version_of(db, g), ++v);
  assert_int_equal(sto_game_set_ai_due(db, g, true), STO_OK);
  assert_int_equal(version_of(db, g), ++v);
  assert_int_equal(sto_seat_set(db, g, &s), STO_OK);
  assert_int_equal(version_of(db, g), ++v);
  s.seat = 1;
  assert_int_equal(sto_seat_set(db, g, &s), STO_OK);
  assert_int_equal(version_of(db, g), ++v);
  assert_int_equal(sto_seat_remove(db, g, 1), STO_OK);
  assert_int_equal(version_of(db, g), ++v);
  assert_int_equal(sto_seat_remove(db, g, 1), STO_OK); /* empty: no write */
  assert_int_equal(version_of(db, g), v);
  assert_int_equal(sto_invite_set(db, g, &inv), STO_OK);
  assert_int_equal(version_of(db, g), ++v);
  assert_int_equal(sto_invite_remove(db, g, "u2", &removed), STO_OK);
  assert_true(removed);
  assert_int_equal(version_of(db, g), ++v);
  assert_int_equal(sto_invite_remove(db, g, "u2", &removed), STO_OK);
  assert_false(removed);
  assert_int_equal(version_of(db, g), v);
  append_n(db, g, 0, 2);
  v += 2;
  assert_int_equal(version_of(db, g), v);
  /* A failed write advances nothing. */
  sto_move m = move_for(7, "late");
  assert_int_equal(sto_move_append(db, g, &m), STO_CONFLICT);
  assert_int_equal(sto_seat_set(db, 9999, &s), STO_NOT_FOUND);
  assert_int_equal(version_of(db, g), v);
  /* The lists carry it too. */
  assert_int_equal(sto_game_list(db, "c", ~0u, collect_versions, &listed),
                   STO_OK);
  assert_int_equal(listed, v);

  /* The lock reads it, inside a transaction only. */
  int64_t locked = -1;
  assert_int_equal(sto_game_lock(db, g, &locked), STO_INVALID);
  assert_int_equal(sto_tx_begin(db), STO_OK);
  assert_int_equal(sto_game_lock(db, g, &locked), STO_OK);
  assert_int_equal(locked, v);
  assert_int_equal(sto_game_lock(db, 9999, &locked), STO_NOT_FOUND);
  assert_int_equal(sto_game_set_status(db, g, STO_RUNNING, 4), STO_OK);
  assert_int_equal(sto_tx_end(db, true), STO_OK); /* not found spoils not */
  assert_int_equal(version_of(db, g), v + 1);
  assert_string_equal(sto_backend(db), f->pg ? "postgresql" : "sqlite");
  sto_close(db);
}

/* sto_timer_take removes the earliest due timer with the transaction: a
 * rollback puts it back, a commit removes it for good. */
static void test_timer_take(void **state) {
  fixture *f = fx(state);
  sto *db = open_ok(f->path);
  int64_t g = make_game(db, "c", STO_RUNNING, 1);
  sto_timer a = {.game = g,
                 .kind = "remind",
                 .seat = 0,
                 .due = 100,
                 .data = 1,
                 .turn = -1};
  sto_timer b = {.game = g,
                 .kind = "deadline",
                 .seat = 1,
                 .due = 200,
                 .data = 2,
                 .turn = 3};
  sto_timer later = {.game = g, .kind = "lobby", .seat = -1, .due = 900};
  sto_timer stopped = {
      .game = g, .kind = "warn", .seat = 1, .due = STO_TIMER_STOPPED};
  sto_timer got;

  assert_int_equal(sto_timer_set(db, &b), STO_OK);
  assert_int_equal(sto_timer_set(db, &a), STO_OK);
  assert_int_equal(sto_timer_set(db, &later), STO_OK);
  assert_int_equal(sto_timer_set(db, &stopped), STO_OK);
  assert_int_equal(sto_timer_take(db, 500, &got), STO_INVALID); /* no tx */

  assert_int_equal(sto_tx_begin(db), STO_OK);
  assert_int_equal(sto_timer_take(db, 500, &got), STO_OK);
  assert_string_equal(got.kind, "remind");
  assert_int_equal(got.data, 1);
  assert_int_equal(sto_tx_end(db, false), STO_OK);
  assert_int_equal(sto_timer_get(db, g, "remind", 0, &got), STO_OK);

  assert_int_equal(sto_tx_begin(db), STO_OK);
  assert_int_equal(sto_timer_take(db, 500, &got), STO_OK);
  assert_string_equal(got.kind, "remind");
  assert_int_equal(sto_timer_take(db, 500, &got), STO_OK);
  assert_string_equal(got.kind, "deadline");
  assert_int_equal(got.seat, 1);
  assert_int_equal(got.due, 200);
  assert_int_equal(got.data, 2);
  assert_int_equal(got.turn, 3);
  assert_int_equal(sto_timer_take(db, 500, &got), STO_NOT_FOUND);
  assert_int_equal(sto_tx_end(db, true), STO_OK); /* none due spoils not */
  assert_int_equal(sto_timer_get(db, g, "remind", 0, &got), STO_NOT_FOUND);
  assert_int_equal(sto_timer_get(db, g, "deadline", 1, &got), STO_NOT_FOUND);
  assert_int_equal(sto_timer_get(db, g, "lobby", -1, &got), STO_OK);
  assert_int_equal(sto_timer_get(db, g, "warn", 1, &got), STO_OK);
  /* A stopped clock is never due. */
  assert_int_equal(sto_tx_begin(db), STO_OK);
  assert_int_equal(sto_timer_take(db, INT64_MAX - 1, &got), STO_OK);
  assert_string_equal(got.kind, "lobby");
  assert_int_equal(sto_timer_take(db, INT64_MAX - 1, &got), STO_NOT_FOUND);
  assert_int_equal(sto_tx_end(db, true), STO_OK);
  sto_close(db);
}

/* sto_redact keeps a URL's password out of what is shown. */
static void test_redact(void **state) {
  static const struct {
    const char *in, *out;
  } cases[] = {
      {"/var/lib/lair/lair.db", "/var/lib/lair/lair.db"},
      {"postgresql://lair:s3cret@db.example/lair",
       "postgresql://lair:***@db.example/lair"},
      {"postgres://u:p%40ss@h:5432/d?sslmode=require",
       "postgres://u:***@h:5432/d?sslmode=require"},
      {"postgresql://u:pa@ss/word@h/d", "postgresql://u:***@h/d"},
      {"postgresql://u@h/d", "postgresql://u@h/d"},
      {"postgresql:///d?host=/run/pg&password=hunter2&port=5",
       "postgresql:///d?host=/run/pg&password=***&port=5"},
      {"postgresql://h/d?password=x", "postgresql://h/d?password=***"},
      {"postgresql://u:secret@", "postgresql://u:***@"},
  };
  char out[128];

  (void)state;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    sto_redact(cases[i].in, out, sizeof out);
    assert_string_equal(out, cases[i].out);
  }
  /* Cut to fit, never past the buffer. */
  sto_redact("postgresql://u:secret@host/db", out, 12);
  assert_string_equal(out, "postgresql:");
  sto_redact(NULL, out, sizeof out);
  assert_string_equal(out, "");
  assert_true(sto_is_url("postgres://x"));
  assert_false(sto_is_url("postgresql:/x"));
  assert_false(sto_is_url("lair.db"));
}

/* ---- PostgreSQL only: several processes -------------------------------- */

/* A second handle's transaction, run in a thread while the test holds
 * the first handle's transaction open. */
typedef struct other {
  sto *db;
  int64_t game;
  int what; /* 0: append move m; 1: put request; 2: lock; 3: take */
  sto_move m;
  sto_rc step, end;
  int64_t version;
  sto_timer timer;
  struct timespec started, done;
  pthread_t thread;
} other;

static void *other_run(void *arg) {
  other *o = arg;
  clock_gettime(CLOCK_MONOTONIC, &o->started);
  o->step = sto_tx_begin(o->db);
  if (!o->step) {
    switch (o->what) {
    case 0:
      o->step = sto_move_append(o->db, o->game, &o->m);
      break;
    case 1:
      o->step = sto_request_put(o->db, o->m.request, "u", 1, "answer");
      break;
    case 2:
      o->step = sto_game_lock(o->db, o->game, &o->version);
      break;
    default:
      o->step = sto_timer_take(o->db, 1000, &o->timer);
      break;
    }
    clock_gettime(CLOCK_MONOTONIC, &o->done);
    o->end = sto_tx_end(o->db, true);
  }
  return NULL;
}

static void other_start(other *o) {
  assert_int_equal(pthread_create(&o->thread, NULL, other_run, o), 0);
  /* Long enough for the other transaction to reach the row and wait. */
  struct timespec pause = {0, 300 * 1000 * 1000};
  nanosleep(&pause, NULL);
}

static double waited(const other *o) {
  return (double)(o->done.tv_sec - o->started.tv_sec) +
         (double)(o->done.tv_nsec - o->started.tv_nsec) / 1e9;
}

/* Two processes append the same sequence number at once: the (game, seq)
 * key lets exactly one commit; the other's transaction keeps nothing. */
static void pg_same_seq(void **state) {
  fixture *f = fx(state);
  sto *a = open_ok(f->path);
  other o = {.db = open_ok(f->path), .what = 0};
  int64_t g = make_game(a, "c", STO_RUNNING, 1);
  bool seen;

  o.game = g;
  o.m = move_for(0, "from-b");
  assert_int_equal(sto_tx_begin(a), STO_OK);
  sto_move m = move_for(0, "from-a");
  assert_int_equal(sto_move_append(a, g, &m), STO_OK);
  other_start(&o);
  assert_int_equal(sto_tx_end(a, true), STO_OK);
  assert_int_equal(pthread_join(o.thread, NULL), 0);
  assert_int_equal(o.step, STO_CONFLICT);
  assert_int_equal(o.end, STO_CONFLICT);
  expect_moves(a, g, 1, 1000);
  assert_int_equal(sto_request_seen(a, "from-b", &seen, NULL, NULL), STO_OK);
  assert_false(seen);
  assert_int_equal(version_of(a, g), 1);
  sto_close(o.db);
  sto_close(a);
}

/* The same request id from two processes at once: one is a duplicate,
 * for moves (in two games) and for remembered requests. */
static void pg_same_request(void **state) {
  fixture *f = fx(state);
  sto *a = open_ok(f->path);
  other o = {.db = open_ok(f->path), .what = 0};
  int64_t g1 = make_game(a, "c", STO_RUNNING, 1);
  int64_t g2 = make_game(a, "c", STO_RUNNING, 1);

  o.game = g2;
  o.m = move_for(0, "req-same");
  assert_int_equal(sto_tx_begin(a), STO_OK);
  sto_move m = move_for(0, "req-same");
  assert_int_equal(sto_move_append(a, g1, &m), STO_OK);
  other_start(&o);
  assert_int_equal(sto_tx_end(a, true), STO_OK);
  assert_int_equal(pthread_join(o.thread, NULL), 0);
  assert_int_equal(o.step, STO_DUPLICATE);
  assert_int_equal(o.end, STO_DUPLICATE);
  expect_moves(a, g1, 1, 1000);
  expect_moves(a, g2, 0, 1);

  other p = {.db = o.db, .what = 1};
  copy(p.m.request, sizeof p.m.request, "cmd-1");
  assert_int_equal(sto_tx_begin(a), STO_OK);
  assert_int_equal(sto_request_put(a, "cmd-1", "u", 1, "first"), STO_OK);
  other_start(&p);
  assert_int_equal(sto_tx_end(a, true), STO_OK);
  assert_int_equal(pthread_join(p.thread, NULL), 0);
  assert_int_equal(p.step, STO_DUPLICATE);
  char user[8], answer[16];
  bool seen;
  assert_int_equal(sto_request_answer(a, "cmd-1", &seen, user, sizeof user,
                                      answer, sizeof answer),
                   STO_OK);
  assert_string_equal(answer, "first");
  sto_close(o.db);
  sto_close(a);
}

/* A game locked by one process makes another's lock wait until the first
 * transaction ends, and then read the version it left. */
static void pg_lock_waits(void **state) {
  fixture *f = fx(state);
  sto *a = open_ok(f->path);
  other o = {.db = open_ok(f->path), .what = 2};
  int64_t g = make_game(a, "c", STO_LOBBY, 1), v = -1;

  o.game = g;
  assert_int_equal(sto_tx_begin(a), STO_OK);
  assert_int_equal(sto_game_lock(a, g, &v), STO_OK);
  assert_int_equal(v, 0);
  other_start(&o);
  assert_int_equal(sto_game_set_status(a, g, STO_RUNNING, 2), STO_OK);
  assert_int_equal(sto_tx_end(a, true), STO_OK);
  assert_int_equal(pthread_join(o.thread, NULL), 0);
  assert_int_equal(o.step, STO_OK);
  assert_int_equal(o.version, 1);
  assert_true(waited(&o) >= 0.25);
  print_message("the second lock waited %.2f s\n", waited(&o));

  /* With a lock timeout the wait ends as STO_BUSY, and spoils nothing of
   * the holder's. */
  raw_exec(f->path, "DO $$ BEGIN EXECUTE 'ALTER DATABASE ' || "
                    "current_database() || ' SET lock_timeout = 200'; END $$");
  other q = {.db = NULL, .what = 2, .game = g};
  q.db = open_ok(f->path);
  assert_int_equal(sto_tx_begin(a), STO_OK);
  assert_int_equal(sto_game_lock(a, g, &v), STO_OK);
  other_start(&q);
  assert_int_equal(pthread_join(q.thread, NULL), 0);
  assert_int_equal(q.step, STO_BUSY);
  assert_int_equal(q.end, STO_BUSY);
  assert_int_equal(sto_game_set_status(a, g, STO_FINISHED, 3), STO_OK);
  assert_int_equal(sto_tx_end(a, true), STO_OK);
  assert_int_equal(version_of(q.db, g), 2);
  sto_close(q.db);
  sto_close(o.db);
  sto_close(a);
}

/* Two processes taking due timers at once each get a different one; with
 * one due timer exactly one gets it. */
static void pg_take_once(void **state) {
  fixture *f = fx(state);
  sto *a = open_ok(f->path);
  other o = {.db = open_ok(f->path), .what = 3};
  int64_t g = make_game(a, "c", STO_RUNNING, 1);
  sto_timer t1 = {.game = g, .kind = "remind", .seat = 0, .due = 10};
  sto_timer t2 = {.game = g, .kind = "remind", .seat = 1, .due = 20};
  sto_timer got;

  assert_int_equal(sto_timer_set(a, &t1), STO_OK);
  assert_int_equal(sto_timer_set(a, &t2), STO_OK);
  assert_int_equal(sto_tx_begin(a), STO_OK);
  assert_int_equal(sto_timer_take(a, 1000, &got), STO_OK);
  assert_int_equal(got.seat, 0);
  other_start(&o);
  assert_int_equal(pthread_join(o.thread, NULL), 0); /* skipped, no wait */
  assert_int_equal(o.step, STO_OK);
  assert_int_equal(o.timer.seat, 1);
  assert_int_equal(o.end, STO_OK);
  assert_int_equal(sto_tx_end(a, true), STO_OK);
  assert_int_equal(sto_timer_next(a, 1000, &got), STO_NOT_FOUND);

  /* One due timer: the second process finds none while the first holds
   * it, and none after the first committed. */
  assert_int_equal(sto_timer_set(a, &t1), STO_OK);
  assert_int_equal(sto_tx_begin(a), STO_OK);
  assert_int_equal(sto_timer_take(a, 1000, &got), STO_OK);
  other p = {.db = o.db, .what = 3};
  other_start(&p);
  assert_int_equal(pthread_join(p.thread, NULL), 0);
  assert_int_equal(p.step, STO_NOT_FOUND);
  assert_int_equal(sto_tx_end(a, true), STO_OK);
  other q = {.db = o.db, .what = 3};
  other_run(&q);
  assert_int_equal(q.step, STO_NOT_FOUND);

  /* Rolled back, the timer is due again for the other. */
  assert_int_equal(sto_timer_set(a, &t1), STO_OK);
  assert_int_equal(sto_tx_begin(a), STO_OK);
  assert_int_equal(sto_timer_take(a, 1000, &got), STO_OK);
  assert_int_equal(sto_tx_end(a, false), STO_OK);
  other r = {.db = o.db, .what = 3};
  other_run(&r);
  assert_int_equal(r.step, STO_OK);
  assert_int_equal(r.timer.seat, 0);
  sto_close(o.db);
  sto_close(a);
}

/* Ends every other connection to the test's database, as a server
 * restart would. */
static void drop_connections(const fixture *f) {
  char sql[256];
  snprintf(sql, sizeof sql,
           "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE "
           "datname = '%s' AND pid <> pg_backend_pid()",
           f->dbname);
  raw_exec(f->server, sql);
}

/* A connection the server dropped is made again at the next statement
 * outside a transaction or the next transaction; a transaction it cut is
 * lost as a whole (STO_IO), never half kept. */
static void pg_reconnect(void **state) {
  fixture *f = fx(state);
  sto *db = open_ok(f->path);
  int64_t g = make_game(db, "c", STO_LOBBY, 1);
  sto_game row;

  drop_connections(f);
  assert_int_equal(sto_game_get(db, g, &row), STO_OK);
  drop_connections(f);
  assert_int_equal(sto_tx_begin(db), STO_OK);
  assert_int_equal(sto_game_set_status(db, g, STO_RUNNING, 2), STO_OK);
  drop_connections(f);
  assert_int_equal(sto_game_set_status(db, g, STO_FINISHED, 3), STO_IO);
  assert_int_equal(sto_tx_end(db, true), STO_IO);
  assert_int_equal(sto_game_get(db, g, &row), STO_OK);
  assert_int_equal(row.status, STO_LOBBY);
  assert_int_equal(row.version, 0);
  /* Dropped between transactions: the next one begins on a new one. */
  drop_connections(f);
  assert_int_equal(sto_tx_begin(db), STO_OK);
  assert_int_equal(sto_game_set_status(db, g, STO_RUNNING, 4), STO_OK);
  assert_int_equal(sto_tx_end(db, true), STO_OK);
  assert_int_equal(sto_game_get(db, g, &row), STO_OK);
  assert_int_equal(row.status, STO_RUNNING);
  sto_close(db);
}

/* Inserts ":password" (or "user:password@") into url's user part. */
static void url_with_password(const char *url, const char *pw, char *out,
                              size_t cap) {
  const char *auth = strstr(url, "://") + 3;
  size_t host = strcspn(auth, "/?");
  const char *at = memchr(auth, '@', host);
  int n;
  if (at)
    n = snprintf(out, cap, "%.*s:%s%s", (int)(at - url), url, pw, at);
  else
    n = snprintf(out, cap, "%.*slair:%s@%s", (int)(auth - url), url, pw, auth);
  assert_true(n > 0 && (size_t)n < cap);
}

/* What goes wrong with a URL that holds a password never shows it. */
static void pg_password_hidden(void **state) {
  fixture *f = fx(state);
  char url[1200], nodb[1100], err[512];
  sto *db = NULL;
  long problems = 0;
  int reported = 0;

  url_with_db(f->server, "lair_no_such_database", nodb, sizeof nodb);
  url_with_password(nodb, "Sup3rS3cret", url, sizeof url);
  assert_int_equal(sto_open(url, &db, err, sizeof err), STO_IO);
  assert_null(db);
  print_message("refused as expected: %s\n", err);
  assert_null(strstr(err, "Sup3rS3cret"));
  assert_non_null(strstr(err, "***"));
  assert_int_equal(
      sto_check(url, count_problem, &reported, &problems, err, sizeof err),
      STO_IO);
  assert_null(strstr(err, "Sup3rS3cret"));
  /* As a parameter too, and with a malformed URL. */
  snprintf(url, sizeof url, "%s&password=Sup3rS3cret", nodb);
  assert_int_equal(sto_open(url, &db, err, sizeof err), STO_IO);
  assert_null(strstr(err, "Sup3rS3cret"));
  assert_int_equal(
      sto_open("postgresql://u:Sup3rS3cret@[::1/x", &db, err, sizeof err),
      STO_IO);
  print_message("refused as expected: %s\n", err);
  assert_null(strstr(err, "Sup3rS3cret"));
}

/* A database of a newer Lair, or holding another program's `games`, is
 * refused and left as it was. */
static void pg_refused(void **state) {
  fixture *f = fx(state);
  sto *db = open_ok(f->path);
  char err[512];
  long problems = 0;
  int reported = 0;

  assert_true(sto_created(db));
  make_game(db, "c", STO_LOBBY, 1);
  sto_close(db);
  db = open_ok(f->path);
  assert_false(sto_created(db));
  sto_close(db);
  assert_int_equal(
      sto_check(f->path, count_problem, &reported, &problems, err, sizeof err),
      STO_OK);
  assert_int_equal(problems, 0);

  raw_exec(f->path, "UPDATE lair_meta SET version = 99");
  assert_int_equal(sto_open(f->path, &db, err, sizeof err), STO_TOO_NEW);
  assert_null(db);
  print_message("refused as expected: %s\n", err);
  assert_int_equal(raw_int(f->path, "SELECT version FROM lair_meta"), 99);
  assert_int_equal(raw_int(f->path, "SELECT count(*) FROM games"), 1);
  assert_int_equal(
      sto_check(f->path, count_problem, &reported, &problems, err, sizeof err),
      STO_TOO_NEW);

  /* Someone else's games table, no lair_meta. */
  raw_exec(f->path, "DROP TABLE lair_meta, games, seats, moves, snapshots, "
                    "settings, timers, audit, requests, invites, lines, kept, "
                    "ratings, sides "
                    "CASCADE; CREATE TABLE games(x INTEGER); "
                    "INSERT INTO games VALUES(5)");
  assert_int_equal(sto_open(f->path, &db, err, sizeof err), STO_CORRUPT);
  assert_null(db);
  print_message("refused as expected: %s\n", err);
  assert_int_equal(raw_int(f->path, "SELECT count(*) FROM pg_tables WHERE "
                                    "schemaname = 'public'"),
                   1);
  assert_int_equal(raw_int(f->path, "SELECT x FROM games"), 5);
  problems = 0;
  assert_int_equal(
      sto_check(f->path, count_problem, &reported, &problems, err, sizeof err),
      STO_OK);
  assert_int_equal(problems, 1);
}

/* Two processes starting on an empty database at once: one makes the
 * schema, the other waits for it and uses it. */
static void *open_in_thread(void *arg) {
  fixture *f = arg;
  char err[256];
  sto *db = NULL;
  if (sto_open(f->path, &db, err, sizeof err) != STO_OK)
    return NULL;
  return db;
}

static void pg_two_starts(void **state) {
  fixture *f = fx(state);
  pthread_t t[4];
  sto *db[4];
  int made = 0;

  for (int i = 0; i < 4; i++)
    assert_int_equal(pthread_create(&t[i], NULL, open_in_thread, f), 0);
  for (int i = 0; i < 4; i++) {
    void *p;
    assert_int_equal(pthread_join(t[i], &p), 0);
    db[i] = p;
    assert_non_null(db[i]);
    made += sto_created(db[i]);
  }
  assert_int_equal(made, 1);
  for (int i = 0; i < 4; i++)
    sto_close(db[i]);
}

/* The tests that mean the same on both engines: each runs on SQLite, and
 * as pg_<name> on PostgreSQL. */
#define NEUTRAL(X)                                                             \
  X(test_games)                                                                \
  X(test_nested_list)                                                          \
  X(test_transactions)                                                         \
  X(test_requests_and_counts)                                                  \
  X(test_seats)                                                                \
  X(test_moves)                                                                \
  X(test_two_writers)                                                          \
  X(test_snapshots)                                                            \
  X(test_settings)                                                             \
  X(test_kept)                                                                 \
  X(test_ratings)                                                              \
  X(test_timers)                                                               \
  X(test_invites)                                                              \
  X(test_versions)                                                             \
  X(test_timer_take)                                                           \
  X(test_reopen)                                                               \
  X(test_check_rules)                                                          \
  X(test_crash_durability)

#define ON_SQLITE(t) cmocka_unit_test_setup_teardown(t, setup, teardown),
#define ON_PG(t) {"pg_" #t, t, setup_pg, teardown, NULL},
#define PG_ONLY(t) {#t, t, setup_pg, teardown, NULL},

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_strerror),
      cmocka_unit_test(test_redact),
      NEUTRAL(ON_SQLITE) NEUTRAL(ON_PG)
      /* PostgreSQL only: several processes, connections, its schema. */
      PG_ONLY(pg_same_seq) PG_ONLY(pg_same_request) PG_ONLY(pg_lock_waits)
          PG_ONLY(pg_take_once) PG_ONLY(pg_reconnect)
              PG_ONLY(pg_password_hidden) PG_ONLY(pg_refused)
                  PG_ONLY(pg_two_starts)
      /* SQLite only: its files. */
      cmocka_unit_test_setup_teardown(test_migration_5, setup, teardown),
      cmocka_unit_test_setup_teardown(test_stored_values_checked, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_new_and_empty_file, setup, teardown),
      cmocka_unit_test_setup_teardown(test_foreign_empty_sqlite, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_missing_directory, setup, teardown),
      cmocka_unit_test_setup_teardown(test_garbage_file, setup, teardown),
      cmocka_unit_test_setup_teardown(test_too_new, setup, teardown),
      cmocka_unit_test_setup_teardown(test_foreign_database, setup, teardown),
      cmocka_unit_test_setup_teardown(test_damaged_page, setup, teardown),
      cmocka_unit_test_setup_teardown(test_truncated_file, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
