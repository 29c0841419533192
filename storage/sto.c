/*
 * sto.c: the SQLite backend of storage/sto.h.
 *
 * One sto handle is one SQLite connection (WAL, synchronous=FULL, foreign
 * keys on) plus its prepared statements, prepared once at open and reset
 * after each use; there is no global state, so several handles may be
 * open in one process. Opening an existing file first inspects it through
 * a read-only connection, so a file that is damaged, foreign or from a
 * newer Lair is refused before anything could write to it. The schema is
 * the table `migrations` below: migration k takes PRAGMA user_version from
 * k-1 to k in one transaction, so a crash mid-migration leaves the old
 * version intact. A move is accepted inside one BEGIN IMMEDIATE
 * transaction that checks its request id and its sequence number against
 * the game's move count; the (game, seq) key and the unique request index
 * back those checks up should another process write the same file.
 */
#include "sto.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <sqlite3.h>

/* PRAGMA application_id marks a file as Lair's ("LAIR"), so a database of
 * another program that happens to use user_version is not mistaken for
 * one of ours. */
#define LAIR_APPLICATION_ID 0x4c414952
#define BUSY_TIMEOUT_MS 5000

/* ---- schema ----------------------------------------------------------- */

/* Entry k-1 brings user_version k-1 to k. Never edit a shipped entry:
 * append a new one. */
static const char *const migrations[] = {
    /* 1: games, seats, moves, snapshots, settings. The seed is decimal
     * text because a uint64 does not fit SQLite's signed integers. */
    "CREATE TABLE games("
    " id INTEGER PRIMARY KEY,"
    " ruleset TEXT NOT NULL,"
    " ruleset_version INTEGER NOT NULL,"
    " config TEXT NOT NULL,"
    " seed TEXT NOT NULL,"
    " guild TEXT NOT NULL,"
    " channel TEXT NOT NULL,"
    " creator TEXT NOT NULL,"
    " status INTEGER NOT NULL,"
    " created INTEGER NOT NULL,"
    " updated INTEGER NOT NULL,"
    " moves INTEGER NOT NULL DEFAULT 0);"
    "CREATE INDEX games_by_channel ON games(channel, status);"
    "CREATE INDEX games_by_status ON games(status);"
    "CREATE TABLE seats("
    " game INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,"
    " seat INTEGER NOT NULL,"
    " user TEXT NOT NULL,"
    " name TEXT NOT NULL,"
    " PRIMARY KEY(game, seat)) WITHOUT ROWID;"
    "CREATE TABLE moves("
    " game INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,"
    " seq INTEGER NOT NULL,"
    " seat INTEGER NOT NULL,"
    " kind INTEGER NOT NULL,"
    " turn INTEGER NOT NULL,"
    " revealed INTEGER NOT NULL,"
    " option TEXT NOT NULL,"
    " request TEXT NOT NULL,"
    " time INTEGER NOT NULL,"
    " PRIMARY KEY(game, seq)) WITHOUT ROWID;"
    "CREATE UNIQUE INDEX moves_by_request ON moves(request);"
    "CREATE TABLE snapshots("
    " game INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,"
    " seq INTEGER NOT NULL,"
    " state TEXT NOT NULL);"
    "CREATE TABLE settings("
    " scope TEXT NOT NULL,"
    " key TEXT NOT NULL,"
    " value TEXT NOT NULL,"
    " PRIMARY KEY(scope, key)) WITHOUT ROWID;",
    /* 2: finding a member's games from anywhere (slash commands in DMs). */
    "CREATE INDEX seats_by_user ON seats(user);",
    /* 3: timers (reminders, deadlines, lobby expiry) as rows that any
     * process can claim, and the moderators' audit log. */
    "CREATE TABLE timers("
    " game INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,"
    " kind TEXT NOT NULL,"
    " seat INTEGER NOT NULL,"
    " due INTEGER NOT NULL,"
    " data INTEGER NOT NULL DEFAULT 0,"
    " PRIMARY KEY(game, kind, seat)) WITHOUT ROWID;"
    "CREATE INDEX timers_by_due ON timers(due);"
    "CREATE TABLE audit("
    " id INTEGER PRIMARY KEY,"
    " scope TEXT NOT NULL,"
    " time INTEGER NOT NULL,"
    " actor TEXT NOT NULL,"
    " action TEXT NOT NULL,"
    " game INTEGER NOT NULL,"
    " detail TEXT NOT NULL);"
    "CREATE INDEX audit_by_scope ON audit(scope, id);",
    /* 4: every state-changing request remembered with its first answer
     * (a retried /game new or join is answered, not applied twice), and a
     * mark on the games whose next decision is an AI seat's, so that a
     * restart finds the games left waiting for one without loading every
     * running game. Games running before this migration are marked:
     * the first start looks at each of them once. */
    "CREATE TABLE requests("
    " id TEXT PRIMARY KEY,"
    " user TEXT NOT NULL,"
    " time INTEGER NOT NULL,"
    " answer TEXT NOT NULL) WITHOUT ROWID;"
    "CREATE INDEX requests_by_time ON requests(time);"
    "ALTER TABLE games ADD COLUMN ai_due INTEGER NOT NULL DEFAULT 0;"
    "UPDATE games SET ai_due = 1 WHERE status = 1;"
    "CREATE INDEX games_ai_due ON games(id) WHERE ai_due = 1;",
};

#define MIGRATION_COUNT ((int)(sizeof migrations / sizeof migrations[0]))

int sto_schema_version(void) { return MIGRATION_COUNT; }

/* ---- statements ------------------------------------------------------- */

#define GAME_COLUMNS                                                           \
  "id, ruleset, ruleset_version, config, seed, guild, channel, creator, "      \
  "status, created, updated, moves, ai_due"

/* The status filter of the game lists binds one parameter per status
 * (?2..?5); an unwanted status is bound to -1, which matches nothing. */
#define STATEMENTS(X)                                                          \
  X(BEGIN, "BEGIN IMMEDIATE")                                                  \
  X(COMMIT, "COMMIT")                                                          \
  X(ROLLBACK, "ROLLBACK")                                                      \
  X(GAME_INSERT,                                                               \
    "INSERT INTO games(ruleset, ruleset_version, config, seed, guild, "        \
    "channel, creator, status, created, updated) "                             \
    "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)")                         \
  X(GAME_GET, "SELECT " GAME_COLUMNS " FROM games WHERE id = ?1")              \
  X(GAME_SET_STATUS, "UPDATE games SET status = ?2, updated = ?3 "             \
                     "WHERE id = ?1")                                          \
  X(GAME_SET_CONFIG, "UPDATE games SET config = ?2, seed = ?3, updated = ?4 "  \
                     "WHERE id = ?1")                                          \
  X(GAME_LIST_CHANNEL, "SELECT " GAME_COLUMNS " FROM games "                   \
                       "WHERE channel = ?1 AND status IN (?2, ?3, ?4, ?5) "    \
                       "ORDER BY id DESC")                                     \
  X(GAME_LIST_ALL, "SELECT " GAME_COLUMNS " FROM games "                       \
                   "WHERE status IN (?2, ?3, ?4, ?5) ORDER BY id DESC")        \
  X(GAME_LIST_AI_DUE, "SELECT " GAME_COLUMNS " FROM games "                    \
                      "WHERE ai_due = 1 AND status IN (?2, ?3, ?4, ?5) "       \
                      "ORDER BY id")                                           \
  X(GAME_SET_AI_DUE, "UPDATE games SET ai_due = ?2 WHERE id = ?1")             \
  X(GAME_COUNT_CHANNEL, "SELECT COUNT(*) FROM games "                          \
                        "WHERE channel = ?1 AND status IN (?2, ?3, ?4, ?5)")   \
  X(GAME_COUNT_USER, "SELECT COUNT(*) FROM games "                             \
                     "WHERE id IN (SELECT game FROM seats WHERE user = ?1) "   \
                     "AND status IN (?2, ?3, ?4, ?5)")                         \
  X(GAME_PICK_CHANNEL,                                                         \
    "SELECT id, EXISTS(SELECT 1 FROM seats WHERE game = games.id AND "         \
    "user = ?6) * 2 + (status IN (0, 1)) AS rank FROM games "                  \
    "WHERE channel = ?1 AND status IN (?2, ?3, ?4, ?5) "                       \
    "ORDER BY rank DESC, id DESC LIMIT 2")                                     \
  X(GAME_PICK_USER,                                                            \
    "SELECT id, 2 + (status IN (0, 1)) AS rank FROM games "                    \
    "WHERE id IN (SELECT game FROM seats WHERE user = ?6) "                    \
    "AND status IN (?2, ?3, ?4, ?5) ORDER BY rank DESC, id DESC LIMIT 2")      \
  X(REQUEST_PUT, "INSERT INTO requests(id, user, time, answer) "               \
                 "VALUES(?1, ?2, ?3, ?4)")                                     \
  X(REQUEST_ANSWER, "SELECT user, answer FROM requests WHERE id = ?1")         \
  X(REQUEST_PRUNE, "DELETE FROM requests WHERE time < ?1")                     \
  X(GAME_LIST_GUILD, "SELECT " GAME_COLUMNS " FROM games "                     \
                     "WHERE guild = ?1 AND status IN (?2, ?3, ?4, ?5) "        \
                     "ORDER BY id DESC")                                       \
  X(GAME_LIST_USER, "SELECT " GAME_COLUMNS " FROM games "                      \
                    "WHERE id IN (SELECT game FROM seats WHERE user = ?1) "    \
                    "AND status IN (?2, ?3, ?4, ?5) ORDER BY id DESC")         \
  X(GAME_MOVES, "SELECT moves FROM games WHERE id = ?1")                       \
  X(GAME_BUMP, "UPDATE games SET moves = moves + 1, updated = ?2 "             \
               "WHERE id = ?1")                                                \
  X(SEAT_SET, "INSERT INTO seats(game, seat, user, name) "                     \
              "VALUES(?1, ?2, ?3, ?4) ON CONFLICT(game, seat) "                \
              "DO UPDATE SET user = excluded.user, name = excluded.name")      \
  X(SEAT_REMOVE, "DELETE FROM seats WHERE game = ?1 AND seat = ?2")            \
  X(SEAT_LIST, "SELECT seat, user, name FROM seats WHERE game = ?1 "           \
               "ORDER BY seat")                                                \
  X(MOVE_INSERT,                                                               \
    "INSERT INTO moves(game, seq, seat, kind, turn, revealed, option, "        \
    "request, time) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)")               \
  X(MOVE_LIST, "SELECT seq, seat, kind, turn, revealed, option, request, "     \
               "time FROM moves WHERE game = ?1 AND seq >= ?2 ORDER BY seq")   \
  X(REQUEST_GET, "SELECT game, seq FROM moves WHERE request = ?1")             \
  X(SNAPSHOT_PUT, "INSERT INTO snapshots(game, seq, state) "                   \
                  "VALUES(?1, ?2, ?3) ON CONFLICT(game) DO UPDATE "            \
                  "SET seq = excluded.seq, state = excluded.state "            \
                  "WHERE excluded.seq >= snapshots.seq")                       \
  X(SNAPSHOT_GET, "SELECT seq, state FROM snapshots WHERE game = ?1")          \
  X(TIMER_SET, "INSERT INTO timers(game, kind, seat, due, data) "              \
               "VALUES(?1, ?2, ?3, ?4, ?5) ON CONFLICT(game, kind, seat) "     \
               "DO UPDATE SET due = excluded.due, data = excluded.data")       \
  X(TIMER_CLEAR, "DELETE FROM timers WHERE game = ?1 AND kind = ?2 AND "       \
                 "(seat = ?3 OR ?3 < 0)")                                      \
  X(TIMER_CLEAR_GAME, "DELETE FROM timers WHERE game = ?1")                    \
  X(TIMER_NEXT, "SELECT game, kind, seat, due, data FROM timers "              \
                "WHERE due <= ?1 ORDER BY due, game, kind, seat LIMIT 1")      \
  X(TIMER_GET, "SELECT game, kind, seat, due, data FROM timers "               \
               "WHERE game = ?1 AND kind = ?2 AND seat = ?3")                  \
  X(TIMER_CLAIM, "DELETE FROM timers WHERE game = ?1 AND kind = ?2 AND "       \
                 "seat = ?3 AND due = ?4")                                     \
  X(AUDIT_ADD, "INSERT INTO audit(scope, time, actor, action, game, detail) "  \
               "VALUES(?1, ?2, ?3, ?4, ?5, ?6)")                               \
  X(AUDIT_LIST, "SELECT time, actor, action, game, detail FROM audit "         \
                "WHERE scope = ?1 ORDER BY id DESC LIMIT ?2")                  \
  X(SETTING_GET, "SELECT value FROM settings WHERE scope = ?1 AND key = ?2")   \
  X(SETTING_SET, "INSERT INTO settings(scope, key, value) "                    \
                 "VALUES(?1, ?2, ?3) ON CONFLICT(scope, key) "                 \
                 "DO UPDATE SET value = excluded.value")

typedef enum {
#define ST_ENUM(name, sql) ST_##name,
  STATEMENTS(ST_ENUM)
#undef ST_ENUM
      ST_COUNT
} st_id;

static const char *const statement_sql[ST_COUNT] = {
#define ST_SQL(name, sql) sql,
    STATEMENTS(ST_SQL)
#undef ST_SQL
};

struct sto {
  sqlite3 *db;
  sqlite3_stmt *st[ST_COUNT];
  int depth;      /* sto_tx_begin calls not yet ended */
  sto_rc spoiled; /* the first failed write of the open transaction */
#ifdef LAIR_FAULTS
  long faults_left; /* writes until the process kills itself; 0: never */
#endif
};

/* ---- errors ----------------------------------------------------------- */

const char *sto_strerror(sto_rc rc) {
  static const char *const text[STO_RC_COUNT] = {
#define STO_RC_TEXT(name, t) t,
      STO_ERRORS(STO_RC_TEXT)
#undef STO_RC_TEXT
  };
  if ((unsigned)rc >= STO_RC_COUNT)
    return "Unknown storage error.";
  return text[rc];
}

/* Maps an (extended) SQLite result code to the layer's result. Constraint
 * failures name the rule the caller broke; the schema's constraints are
 * exactly the ones this file relies on. */
static sto_rc map_rc(int rc) {
  switch (rc & 0xff) {
  case SQLITE_OK:
  case SQLITE_ROW:
  case SQLITE_DONE:
    return STO_OK;
  case SQLITE_BUSY:
  case SQLITE_LOCKED:
    return STO_BUSY;
  case SQLITE_NOMEM:
    return STO_NOMEM;
  case SQLITE_CORRUPT:
  case SQLITE_NOTADB:
    return STO_CORRUPT;
  case SQLITE_TOOBIG:
    return STO_TOO_BIG;
  case SQLITE_CONSTRAINT:
    switch (rc) {
    case SQLITE_CONSTRAINT_FOREIGNKEY:
      return STO_NOT_FOUND;
    case SQLITE_CONSTRAINT_UNIQUE:
      return STO_DUPLICATE;
    case SQLITE_CONSTRAINT_PRIMARYKEY:
      return STO_CONFLICT;
    default:
      return STO_INVALID;
    }
  default:
    return STO_IO;
  }
}

static void set_err(char *err, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void set_err(char *err, size_t cap, const char *fmt, ...) {
  va_list ap;

  if (!err || cap == 0)
    return;
  va_start(ap, fmt);
  vsnprintf(err, cap, fmt, ap);
  va_end(ap);
}

/* ---- statement and column helpers ------------------------------------- */

/* Hands out statement id, ready to bind. A list function's callback may
 * call back into storage while the cached statement is still stepping;
 * then a private copy is prepared so the outer iteration is undisturbed. */
static sto_rc stmt_get(sto *db, st_id id, sqlite3_stmt **out) {
  sqlite3_stmt *s = db->st[id];
  int rc;

  if (!sqlite3_stmt_busy(s)) {
    *out = s;
    return STO_OK;
  }
  rc = sqlite3_prepare_v2(db->db, statement_sql[id], -1, out, NULL);
  if (rc != SQLITE_OK) {
    *out = NULL;
    return map_rc(rc);
  }
  return STO_OK;
}

/* Returns a statement from stmt_get: the cached one is reset and its
 * bindings cleared (no pointer to the caller's strings outlives the call),
 * a private copy is finalized. */
static void stmt_put(sto *db, st_id id, sqlite3_stmt *s) {
  if (!s)
    return;
  if (s == db->st[id]) {
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
  } else {
    sqlite3_finalize(s);
  }
}

/* Runs a statement that returns no rows (BEGIN, COMMIT, an UPDATE). */
static int step_done(sqlite3_stmt *s) {
  int rc = sqlite3_step(s);
  return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

static sto_rc exec_st(sto *db, st_id id) {
  sqlite3_stmt *s;
  sto_rc r = stmt_get(db, id, &s);
  if (r)
    return r;
  r = map_rc(step_done(s));
  stmt_put(db, id, s);
  return r;
}

/* Notes a failed write inside a transaction (sto_tx_begin) and returns
 * r: the transaction is spoiled and will be rolled back whatever its
 * caller asks, so that no command commits half its writes because one
 * of them failed unnoticed. */
static sto_rc spoil(sto *db, sto_rc r) {
  if (r && db && db->depth > 0 && !db->spoiled)
    db->spoiled = r;
  return r;
}

/* Runs a write statement. Inside a spoiled transaction it writes nothing:
 * SQLite may have rolled the transaction back already (after an I/O error
 * or a full disk), and would then run each later write on its own. */
static sto_rc step_write(sto *db, sqlite3_stmt *s) {
  if (db->depth > 0 && db->spoiled)
    return db->spoiled;
  return spoil(db, map_rc(step_done(s)));
}

/* Undoes an open transaction, if SQLite has not already done so. */
static void rollback(sto *db) {
  if (!sqlite3_get_autocommit(db->db))
    (void)exec_st(db, ST_ROLLBACK);
}

/* Whether s is a NUL-terminated string within a buffer of size cap. */
static bool fits(const char *s, size_t cap) { return strnlen(s, cap) < cap; }

static int bind_text(sqlite3_stmt *s, int i, const char *text) {
  return sqlite3_bind_text(s, i, text, -1, SQLITE_STATIC);
}

/* Copies text column i into buf (cap bytes with the NUL): STO_TOO_BIG
 * rather than truncating, STO_CORRUPT for a NULL or an embedded NUL. */
static sto_rc col_text(sqlite3_stmt *s, int i, char *buf, size_t cap) {
  const unsigned char *t = sqlite3_column_text(s, i);
  int n = sqlite3_column_bytes(s, i);

  if (!t) {
    if (sqlite3_errcode(sqlite3_db_handle(s)) == SQLITE_NOMEM)
      return STO_NOMEM;
    return STO_CORRUPT;
  }
  if (n < 0 || (size_t)n >= cap)
    return STO_TOO_BIG;
  if (memchr(t, '\0', (size_t)n))
    return STO_CORRUPT;
  memcpy(buf, t, (size_t)n);
  buf[n] = '\0';
  return STO_OK;
}

static sto_rc col_i64(sqlite3_stmt *s, int i, int64_t *out) {
  if (sqlite3_column_type(s, i) != SQLITE_INTEGER)
    return STO_CORRUPT;
  *out = sqlite3_column_int64(s, i);
  return STO_OK;
}

static sto_rc col_int(sqlite3_stmt *s, int i, int *out) {
  int64_t v;
  sto_rc r = col_i64(s, i, &v);
  if (r)
    return r;
  if (v < INT_MIN || v > INT_MAX)
    return STO_CORRUPT;
  *out = (int)v;
  return STO_OK;
}

/* The seed as stored: decimal digits only (strtoull alone would accept
 * blanks, a sign, and wrap "-1" to the maximum). */
static sto_rc parse_seed(const char *text, uint64_t *out) {
  unsigned long long v;
  char *end;

  if (*text < '0' || *text > '9')
    return STO_CORRUPT;
  errno = 0;
  v = strtoull(text, &end, 10);
  if (errno != 0 || *end != '\0')
    return STO_CORRUPT;
#if ULLONG_MAX > UINT64_MAX
  if (v > UINT64_MAX)
    return STO_CORRUPT;
#endif
  *out = (uint64_t)v;
  return STO_OK;
}

static void format_seed(uint64_t seed, char *buf, size_t cap) {
  snprintf(buf, cap, "%" PRIu64, seed);
}

/* Reads a row of GAME_COLUMNS. */
static sto_rc read_game(sqlite3_stmt *s, sto_game *g) {
  char seed[24];
  sto_rc r;

  memset(g, 0, sizeof *g);
  /* No uint64 needs more digits than seed holds: a longer one is damage. */
  r = col_text(s, 4, seed, sizeof seed);
  if (r == STO_TOO_BIG)
    r = STO_CORRUPT;
  if (r || (r = parse_seed(seed, &g->seed)))
    return r;
  if ((r = col_i64(s, 0, &g->id)) ||
      (r = col_text(s, 1, g->ruleset, sizeof g->ruleset)) ||
      (r = col_int(s, 2, &g->ruleset_version)) ||
      (r = col_text(s, 3, g->config, sizeof g->config)) ||
      (r = col_text(s, 5, g->guild, sizeof g->guild)) ||
      (r = col_text(s, 6, g->channel, sizeof g->channel)) ||
      (r = col_text(s, 7, g->creator, sizeof g->creator)) ||
      (r = col_int(s, 8, &g->status)) || (r = col_i64(s, 9, &g->created)) ||
      (r = col_i64(s, 10, &g->updated)) || (r = col_i64(s, 11, &g->moves)) ||
      (r = col_int(s, 12, &g->ai_due)))
    return r;
  return STO_OK;
}

static bool valid_status(int status) {
  return status >= STO_LOBBY && status <= STO_ABORTED;
}

/* ---- open ------------------------------------------------------------- */

/* Runs sql on h and reads the first column of its first row as an
 * integer (0 when there is no row). */
static int query_int(sqlite3 *h, const char *sql, int64_t *out) {
  sqlite3_stmt *s;
  int rc = sqlite3_prepare_v2(h, sql, -1, &s, NULL);

  if (rc != SQLITE_OK)
    return rc;
  rc = sqlite3_step(s);
  *out = 0;
  if (rc == SQLITE_ROW) {
    *out = sqlite3_column_int64(s, 0);
    rc = SQLITE_OK;
  } else if (rc == SQLITE_DONE) {
    rc = SQLITE_OK;
  }
  sqlite3_finalize(s);
  return rc;
}

/* Reports a failed SQLite call on h; returns its mapped result. */
static sto_rc sqlite_fail(sqlite3 *h, int rc, const char *path,
                          const char *what, char *err, size_t cap) {
  set_err(err, cap, "%s: %s: %s", path, what,
          h ? sqlite3_errmsg(h) : sqlite3_errstr(rc));
  return map_rc(rc);
}

/* The identity checks shared by the read-only inspection and the
 * migration transaction: whose file it is and whether this build can
 * read its schema. */
static sto_rc check_identity(sqlite3 *h, const char *path, char *err,
                             size_t cap) {
  int64_t app, version, objects;
  int rc;

  if ((rc = query_int(h, "PRAGMA application_id", &app)) ||
      (rc = query_int(h, "PRAGMA user_version", &version)) ||
      (rc = query_int(h, "SELECT count(*) FROM sqlite_schema", &objects)))
    return sqlite_fail(h, rc, path, "cannot read the database", err, cap);
  if (app != 0 && app != LAIR_APPLICATION_ID) {
    set_err(err, cap, "%s: not a Lair database (application_id %" PRId64 ")",
            path, app);
    return STO_CORRUPT;
  }
  if (version < 0) {
    set_err(err, cap, "%s: bad schema version %" PRId64, path, version);
    return STO_CORRUPT;
  }
  if (version > MIGRATION_COUNT) {
    set_err(err, cap,
            "%s: schema version %" PRId64 " is newer than this Lair's (%d)",
            path, version, MIGRATION_COUNT);
    return STO_TOO_NEW;
  }
  if (version == 0 && objects > 0) {
    set_err(err, cap, "%s: not a Lair database (it already holds tables)",
            path);
    return STO_CORRUPT;
  }
  if (version > 0 && app != LAIR_APPLICATION_ID) {
    set_err(err, cap, "%s: not a Lair database (no Lair application_id)", path);
    return STO_CORRUPT;
  }
  return STO_OK;
}

/* Inspects an existing file through a read-only connection, so nothing
 * is written to a file that is then refused. For a file in WAL mode
 * SQLite still creates the -wal and -shm files beside it (readers need
 * the shared-memory index); they are left there, since another process
 * may be mapping them by the time the inspection ends. */
static sto_rc inspect(const char *path, char *err, size_t cap) {
  sqlite3 *h = NULL;
  sqlite3_stmt *s = NULL;
  sto_rc r;
  int rc;

  rc = sqlite3_open_v2(path, &h, SQLITE_OPEN_READONLY, NULL);
  if (rc != SQLITE_OK) {
    r = sqlite_fail(h, rc, path, "cannot open", err, cap);
    sqlite3_close(h);
    return r;
  }
  sqlite3_extended_result_codes(h, 1);
  sqlite3_busy_timeout(h, BUSY_TIMEOUT_MS);

  /* The first read parses the header: a file that is not a database
   * fails here with SQLITE_NOTADB. */
  r = check_identity(h, path, err, cap);
  if (r)
    goto done;

  rc = sqlite3_prepare_v2(h, "PRAGMA quick_check", -1, &s, NULL);
  if (rc == SQLITE_OK)
    rc = sqlite3_step(s);
  if (rc != SQLITE_ROW) {
    r = sqlite_fail(h, rc, path, "integrity check failed", err, cap);
    if (!r)
      r = STO_CORRUPT;
    goto done;
  }
  {
    /* A report starts with the schema's name ("*** in database main ***")
     * on a line of its own; the explanation is one line down. */
    const char *line = (const char *)sqlite3_column_text(s, 0);
    const char *nl;

    if (!line || strcmp(line, "ok") != 0) {
      if (!line)
        line = "no verdict";
      else if (strncmp(line, "***", 3) == 0 && (nl = strchr(line, '\n')))
        line = nl + 1;
      set_err(err, cap, "%s: damaged: %s", path, line);
      for (char *c = err; err && cap && *c; c++)
        if (*c == '\n')
          *c = ' ';
      r = STO_CORRUPT;
    }
  }

done:
  sqlite3_finalize(s);
  sqlite3_close(h);
  return r;
}

static int exec_sql(sqlite3 *h, const char *sql) {
  return sqlite3_exec(h, sql, NULL, NULL, NULL);
}

/* Applies the missing migrations, each in its own transaction with its
 * user_version bump. The version is read again inside each transaction,
 * since another process may be migrating the same file. */
static sto_rc migrate(sqlite3 *h, const char *path, char *err, size_t cap) {
  for (;;) {
    int64_t version = 0;
    char sql[80], what[48];
    sto_rc r;
    int rc;

    rc = exec_sql(h, "BEGIN IMMEDIATE");
    if (rc != SQLITE_OK)
      return sqlite_fail(h, rc, path, "cannot start the migration", err, cap);
    r = check_identity(h, path, err, cap);
    if (!r) {
      rc = query_int(h, "PRAGMA user_version", &version);
      if (rc != SQLITE_OK)
        r = sqlite_fail(h, rc, path, "cannot read the schema version", err,
                        cap);
    }
    if (r) {
      exec_sql(h, "ROLLBACK");
      return r;
    }
    if (version == MIGRATION_COUNT) {
      rc = exec_sql(h, "COMMIT");
      if (rc != SQLITE_OK) {
        r = sqlite_fail(h, rc, path, "cannot end the migration", err, cap);
        exec_sql(h, "ROLLBACK");
        return r;
      }
      return STO_OK;
    }

    snprintf(sql, sizeof sql,
             "PRAGMA user_version = %" PRId64 "; PRAGMA application_id = %d;",
             version + 1, LAIR_APPLICATION_ID);
    rc = exec_sql(h, migrations[version]);
    if (rc == SQLITE_OK)
      rc = exec_sql(h, sql);
    if (rc == SQLITE_OK)
      rc = exec_sql(h, "COMMIT");
    if (rc != SQLITE_OK) {
      snprintf(what, sizeof what, "migration %" PRId64 " failed", version + 1);
      r = sqlite_fail(h, rc, path, what, err, cap);
      if (!sqlite3_get_autocommit(h))
        exec_sql(h, "ROLLBACK");
      return r;
    }
  }
}

/* Sets the connection's durability and locking behaviour. */
static sto_rc configure(sqlite3 *h, const char *path, char *err, size_t cap) {
  sqlite3_stmt *s;
  bool wal = false;
  int rc;

  sqlite3_extended_result_codes(h, 1);
  sqlite3_busy_timeout(h, BUSY_TIMEOUT_MS);
  rc = sqlite3_prepare_v2(h, "PRAGMA journal_mode = WAL", -1, &s, NULL);
  if (rc == SQLITE_OK) {
    rc = sqlite3_step(s);
    if (rc == SQLITE_ROW) {
      const unsigned char *mode = sqlite3_column_text(s, 0);
      wal = mode && (strcmp((const char *)mode, "wal") == 0 ||
                     strcmp((const char *)mode, "memory") == 0);
      rc = SQLITE_OK;
    }
    sqlite3_finalize(s);
  }
  if (rc != SQLITE_OK)
    return sqlite_fail(h, rc, path, "cannot enable WAL", err, cap);
  if (!wal) {
    set_err(err, cap, "%s: the file system does not allow WAL mode", path);
    return STO_IO;
  }
  /* FULL: in WAL mode, NORMAL may lose the last commits on power loss,
   * and a move must be durable before anyone hears of it. */
  rc = exec_sql(h, "PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;");
  if (rc != SQLITE_OK)
    return sqlite_fail(h, rc, path, "cannot configure", err, cap);
  return STO_OK;
}

#ifdef LAIR_FAULTS
/* Fault injection for the crash tests (built with -DLAIR_FAULTS only):
 * with LAIR_FAULT_AFTER=N in the environment the process kills itself
 * with SIGKILL right after its Nth statement that writes or ends a
 * transaction, as a `kill -9` at that moment would. */
static int fault_trace(unsigned type, void *ctx, void *p, void *x) {
  sto *db = ctx;
  sqlite3_stmt *s = p;
  (void)type;
  (void)x;
  const char *sql = sqlite3_sql(s);
  bool counts =
      !sqlite3_stmt_readonly(s) || (sql && (strncmp(sql, "COMMIT", 6) == 0 ||
                                            strncmp(sql, "BEGIN", 5) == 0));
  if (counts && db->faults_left > 0 && --db->faults_left == 0)
    raise(SIGKILL);
  return 0;
}

static void arm_faults(sto *db) {
  const char *v = getenv("LAIR_FAULT_AFTER");
  char *end;
  long n = v ? strtol(v, &end, 10) : 0;
  if (v && *v && !*end && n > 0) {
    db->faults_left = n;
    sqlite3_trace_v2(db->db, SQLITE_TRACE_PROFILE, fault_trace, db);
  }
}
#endif

sto_rc sto_open(const char *path, sto **out, char *err, size_t cap) {
  struct stat st;
  sto *db;
  sto_rc r;
  int rc;

  if (err && cap)
    err[0] = '\0';
  if (!out)
    return STO_INVALID;
  *out = NULL;
  if (!path || !*path) {
    set_err(err, cap, "no database path");
    return STO_INVALID;
  }
  if (stat(path, &st) == 0) {
    r = inspect(path, err, cap);
    if (r)
      return r;
  } else if (errno != ENOENT) {
    set_err(err, cap, "%s: %s", path, strerror(errno));
    return STO_IO;
  }

  db = calloc(1, sizeof *db);
  if (!db) {
    set_err(err, cap, "%s: out of memory", path);
    return STO_NOMEM;
  }
  rc = sqlite3_open_v2(path, &db->db,
                       SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
  if (rc != SQLITE_OK) {
    r = sqlite_fail(db->db, rc, path, "cannot open", err, cap);
    goto fail;
  }
  if ((r = configure(db->db, path, err, cap)) ||
      (r = migrate(db->db, path, err, cap)))
    goto fail;
#ifdef LAIR_FAULTS
  arm_faults(db);
#endif
  for (int i = 0; i < ST_COUNT; i++) {
    rc = sqlite3_prepare_v3(db->db, statement_sql[i], -1,
                            SQLITE_PREPARE_PERSISTENT, &db->st[i], NULL);
    if (rc != SQLITE_OK) {
      r = sqlite_fail(db->db, rc, path, "cannot prepare a statement", err, cap);
      goto fail;
    }
  }
  *out = db;
  return STO_OK;

fail:
  sto_close(db);
  return r;
}

void sto_close(sto *db) {
  if (!db)
    return;
  for (int i = 0; i < ST_COUNT; i++)
    sqlite3_finalize(db->st[i]);
  sqlite3_close(db->db);
  free(db);
}

/* ---- games ------------------------------------------------------------ */

sto_rc sto_game_create(sto *db, const sto_game *g, int64_t *id) {
  sqlite3_stmt *s;
  char seed[24];
  sto_rc r;

  if (!db || !g || !id)
    return spoil(db, STO_INVALID);
  if (!fits(g->ruleset, sizeof g->ruleset) ||
      !fits(g->config, sizeof g->config) || !fits(g->guild, sizeof g->guild) ||
      !fits(g->channel, sizeof g->channel) ||
      !fits(g->creator, sizeof g->creator))
    return spoil(db, STO_TOO_BIG);
  if (!valid_status(g->status))
    return spoil(db, STO_INVALID);
  format_seed(g->seed, seed, sizeof seed);

  if ((r = stmt_get(db, ST_GAME_INSERT, &s)))
    return spoil(db, r);
  bind_text(s, 1, g->ruleset);
  sqlite3_bind_int(s, 2, g->ruleset_version);
  bind_text(s, 3, g->config);
  bind_text(s, 4, seed);
  bind_text(s, 5, g->guild);
  bind_text(s, 6, g->channel);
  bind_text(s, 7, g->creator);
  sqlite3_bind_int(s, 8, g->status);
  sqlite3_bind_int64(s, 9, g->created);
  sqlite3_bind_int64(s, 10, g->updated);
  r = step_write(db, s);
  if (!r)
    *id = sqlite3_last_insert_rowid(db->db);
  stmt_put(db, ST_GAME_INSERT, s);
  return spoil(db, r);
}

sto_rc sto_game_get(sto *db, int64_t id, sto_game *out) {
  sqlite3_stmt *s;
  sto_rc r;
  int rc;

  if (!db || !out)
    return STO_INVALID;
  if ((r = stmt_get(db, ST_GAME_GET, &s)))
    return r;
  sqlite3_bind_int64(s, 1, id);
  rc = sqlite3_step(s);
  if (rc == SQLITE_ROW)
    r = read_game(s, out);
  else if (rc == SQLITE_DONE)
    r = STO_NOT_FOUND;
  else
    r = map_rc(rc);
  stmt_put(db, ST_GAME_GET, s);
  return r;
}

/* Runs an UPDATE of one game; STO_NOT_FOUND when it touched no row. */
static sto_rc update_game(sto *db, st_id id, sqlite3_stmt *s) {
  sto_rc r = step_write(db, s);
  if (!r && sqlite3_changes(db->db) == 0)
    r = spoil(db, STO_NOT_FOUND);
  stmt_put(db, id, s);
  return spoil(db, r);
}

sto_rc sto_game_set_status(sto *db, int64_t id, int status, int64_t now) {
  sqlite3_stmt *s;
  sto_rc r;

  if (!db)
    return spoil(db, STO_INVALID);
  if (!valid_status(status))
    return spoil(db, STO_INVALID);
  if ((r = stmt_get(db, ST_GAME_SET_STATUS, &s)))
    return spoil(db, r);
  sqlite3_bind_int64(s, 1, id);
  sqlite3_bind_int(s, 2, status);
  sqlite3_bind_int64(s, 3, now);
  return update_game(db, ST_GAME_SET_STATUS, s);
}

sto_rc sto_game_set_config(sto *db, int64_t id, const char *config,
                           uint64_t seed, int64_t now) {
  sqlite3_stmt *s;
  char seed_text[24];
  sto_rc r;

  if (!db || !config)
    return spoil(db, STO_INVALID);
  if (!fits(config, STO_CONFIG_MAX + 1))
    return spoil(db, STO_TOO_BIG);
  format_seed(seed, seed_text, sizeof seed_text);
  if ((r = stmt_get(db, ST_GAME_SET_CONFIG, &s)))
    return spoil(db, r);
  sqlite3_bind_int64(s, 1, id);
  bind_text(s, 2, config);
  bind_text(s, 3, seed_text);
  sqlite3_bind_int64(s, 4, now);
  return update_game(db, ST_GAME_SET_CONFIG, s);
}

static sto_rc game_list(sto *db, st_id id, const char *key, unsigned statuses,
                        int (*fn)(void *ctx, const sto_game *g), void *ctx);

sto_rc sto_game_set_ai_due(sto *db, int64_t id, bool due) {
  sqlite3_stmt *s;
  sto_rc r;

  if (!db)
    return STO_INVALID;
  if ((r = stmt_get(db, ST_GAME_SET_AI_DUE, &s)))
    return spoil(db, r);
  sqlite3_bind_int64(s, 1, id);
  sqlite3_bind_int(s, 2, due ? 1 : 0);
  return update_game(db, ST_GAME_SET_AI_DUE, s);
}

/* Counts the games matching key (a channel or a user) and statuses. */
static sto_rc game_count(sto *db, st_id id, const char *key, unsigned statuses,
                         long *n) {
  sqlite3_stmt *s;
  sto_rc r;
  int64_t v = 0;

  if (!db || !key || !n)
    return STO_INVALID;
  if ((r = stmt_get(db, id, &s)))
    return r;
  bind_text(s, 1, key);
  for (int st = STO_LOBBY; st <= STO_ABORTED; st++)
    sqlite3_bind_int(s, 2 + st, (statuses >> st) & 1u ? st : -1);
  int rc = sqlite3_step(s);
  r = rc == SQLITE_ROW ? col_i64(s, 0, &v) : map_rc(rc);
  stmt_put(db, id, s);
  *n = r ? 0 : (long)v;
  return r;
}

sto_rc sto_game_count(sto *db, const char *channel, unsigned statuses,
                      long *n) {
  return game_count(db, ST_GAME_COUNT_CHANNEL, channel, statuses, n);
}

sto_rc sto_game_count_user(sto *db, const char *user, unsigned statuses,
                           long *n) {
  return game_count(db, ST_GAME_COUNT_USER, user, statuses, n);
}

sto_rc sto_game_pick(sto *db, const char *channel, const char *user,
                     unsigned statuses, int64_t ids[2], int ranks[2], int *n) {
  sqlite3_stmt *s;
  sto_rc r;
  int rc;
  st_id id = channel ? ST_GAME_PICK_CHANNEL : ST_GAME_PICK_USER;

  if (!db || !user || !ids || !ranks || !n)
    return STO_INVALID;
  *n = 0;
  if ((r = stmt_get(db, id, &s)))
    return r;
  if (channel)
    bind_text(s, 1, channel);
  for (int st = STO_LOBBY; st <= STO_ABORTED; st++)
    sqlite3_bind_int(s, 2 + st, (statuses >> st) & 1u ? st : -1);
  bind_text(s, 6, user);
  while (*n < 2 && (rc = sqlite3_step(s)) == SQLITE_ROW) {
    if ((r = col_i64(s, 0, &ids[*n])) || (r = col_int(s, 1, &ranks[*n])))
      break;
    ++*n;
  }
  if (!r && *n < 2 && rc != SQLITE_DONE)
    r = map_rc(rc);
  stmt_put(db, id, s);
  return r;
}

sto_rc sto_game_list_ai_due(sto *db, int (*fn)(void *ctx, const sto_game *g),
                            void *ctx) {
  return game_list(db, ST_GAME_LIST_AI_DUE, NULL, 1u << STO_RUNNING, fn, ctx);
}

static sto_rc game_list(sto *db, st_id id, const char *key, unsigned statuses,
                        int (*fn)(void *ctx, const sto_game *g), void *ctx);

sto_rc sto_game_list(sto *db, const char *channel, unsigned statuses,
                     int (*fn)(void *ctx, const sto_game *g), void *ctx) {
  return game_list(db, channel ? ST_GAME_LIST_CHANNEL : ST_GAME_LIST_ALL,
                   channel, statuses, fn, ctx);
}

sto_rc sto_game_list_user(sto *db, const char *user, unsigned statuses,
                          int (*fn)(void *ctx, const sto_game *g), void *ctx) {
  if (!user)
    return STO_INVALID;
  return game_list(db, ST_GAME_LIST_USER, user, statuses, fn, ctx);
}

sto_rc sto_game_list_guild(sto *db, const char *guild, unsigned statuses,
                           int (*fn)(void *ctx, const sto_game *g), void *ctx) {
  if (!guild)
    return STO_INVALID;
  return game_list(db, ST_GAME_LIST_GUILD, guild, statuses, fn, ctx);
}

static sto_rc game_list(sto *db, st_id id, const char *channel,
                        unsigned statuses,
                        int (*fn)(void *ctx, const sto_game *g), void *ctx) {
  sqlite3_stmt *s;
  sto_game g;
  sto_rc r;
  int rc;

  if (!db || !fn)
    return STO_INVALID;
  if ((r = stmt_get(db, id, &s)))
    return r;
  if (channel)
    bind_text(s, 1, channel);
  for (int st = STO_LOBBY; st <= STO_ABORTED; st++)
    sqlite3_bind_int(s, 2 + st, (statuses >> st) & 1u ? st : -1);
  while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
    if ((r = read_game(s, &g)))
      break;
    if (fn(ctx, &g))
      break;
  }
  if (!r && rc != SQLITE_ROW)
    r = map_rc(rc);
  stmt_put(db, id, s);
  return r;
}

/* ---- seats ------------------------------------------------------------ */

sto_rc sto_seat_set(sto *db, int64_t game, const sto_seat *seat) {
  sqlite3_stmt *s;
  sto_rc r;

  if (!db || !seat)
    return spoil(db, STO_INVALID);
  if (!fits(seat->user, sizeof seat->user) ||
      !fits(seat->name, sizeof seat->name))
    return spoil(db, STO_TOO_BIG);
  if (seat->seat < 0)
    return spoil(db, STO_INVALID);
  if ((r = stmt_get(db, ST_SEAT_SET, &s)))
    return spoil(db, r);
  sqlite3_bind_int64(s, 1, game);
  sqlite3_bind_int(s, 2, seat->seat);
  bind_text(s, 3, seat->user);
  bind_text(s, 4, seat->name);
  r = step_write(db, s);
  stmt_put(db, ST_SEAT_SET, s);
  return spoil(db, r);
}

sto_rc sto_seat_remove(sto *db, int64_t game, int seat) {
  sqlite3_stmt *s;
  sto_rc r;

  if (!db)
    return spoil(db, STO_INVALID);
  if ((r = stmt_get(db, ST_SEAT_REMOVE, &s)))
    return spoil(db, r);
  sqlite3_bind_int64(s, 1, game);
  sqlite3_bind_int(s, 2, seat);
  r = step_write(db, s);
  stmt_put(db, ST_SEAT_REMOVE, s);
  return spoil(db, r);
}

sto_rc sto_seat_list(sto *db, int64_t game, sto_seat *out, int max, int *n) {
  sqlite3_stmt *s;
  sto_rc r;
  int rc, count = 0;

  if (n)
    *n = 0;
  if (!db || !n || max < 0 || (max > 0 && !out))
    return STO_INVALID;
  if ((r = stmt_get(db, ST_SEAT_LIST, &s)))
    return r;
  sqlite3_bind_int64(s, 1, game);
  while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
    sto_seat *seat;
    if (count == max) {
      r = STO_TOO_BIG;
      break;
    }
    seat = &out[count];
    memset(seat, 0, sizeof *seat);
    if ((r = col_int(s, 0, &seat->seat)) ||
        (r = col_text(s, 1, seat->user, sizeof seat->user)) ||
        (r = col_text(s, 2, seat->name, sizeof seat->name)))
      break;
    count++;
  }
  if (!r && rc != SQLITE_ROW)
    r = map_rc(rc);
  stmt_put(db, ST_SEAT_LIST, s);
  *n = count;
  return r;
}

/* ---- moves ------------------------------------------------------------ */

/* The checks and writes of sto_move_append, inside its transaction. */
static sto_rc append_in_tx(sto *db, int64_t game, const sto_move *m) {
  sqlite3_stmt *s;
  int64_t next = 0;
  sto_rc r;
  int rc;

  if ((r = stmt_get(db, ST_REQUEST_GET, &s)))
    return spoil(db, r);
  bind_text(s, 1, m->request);
  rc = sqlite3_step(s);
  r = rc == SQLITE_ROW ? STO_DUPLICATE : map_rc(rc);
  stmt_put(db, ST_REQUEST_GET, s);
  if (r)
    return spoil(db, r);

  if ((r = stmt_get(db, ST_GAME_MOVES, &s)))
    return spoil(db, r);
  sqlite3_bind_int64(s, 1, game);
  rc = sqlite3_step(s);
  if (rc == SQLITE_ROW)
    r = col_i64(s, 0, &next);
  else
    r = rc == SQLITE_DONE ? STO_NOT_FOUND : map_rc(rc);
  stmt_put(db, ST_GAME_MOVES, s);
  if (r)
    return spoil(db, r);
  if (m->seq != next)
    return spoil(db, STO_CONFLICT);

  if ((r = stmt_get(db, ST_MOVE_INSERT, &s)))
    return spoil(db, r);
  sqlite3_bind_int64(s, 1, game);
  sqlite3_bind_int64(s, 2, m->seq);
  sqlite3_bind_int(s, 3, m->seat);
  sqlite3_bind_int(s, 4, m->kind);
  sqlite3_bind_int(s, 5, m->turn);
  sqlite3_bind_int(s, 6, m->revealed);
  bind_text(s, 7, m->option);
  bind_text(s, 8, m->request);
  sqlite3_bind_int64(s, 9, m->time);
  r = step_write(db, s);
  stmt_put(db, ST_MOVE_INSERT, s);
  if (r)
    return spoil(db, r);

  if ((r = stmt_get(db, ST_GAME_BUMP, &s)))
    return spoil(db, r);
  sqlite3_bind_int64(s, 1, game);
  sqlite3_bind_int64(s, 2, m->time);
  r = step_write(db, s);
  stmt_put(db, ST_GAME_BUMP, s);
  return spoil(db, r);
}

sto_rc sto_move_append(sto *db, int64_t game, const sto_move *m) {
  sto_rc r;

  if (!db || !m)
    return STO_INVALID;
  if (!fits(m->option, sizeof m->option) ||
      !fits(m->request, sizeof m->request))
    return spoil(db, STO_TOO_BIG);
  if (m->request[0] == '\0' || m->seat < 0 ||
      (m->kind != STO_MOVE_ANSWER && m->kind != STO_MOVE_TAKEBACK) ||
      (m->revealed != 0 && m->revealed != 1))
    return spoil(db, STO_INVALID);

  if ((r = sto_tx_begin(db)))
    return r;
  r = append_in_tx(db, game, m);
  sto_rc end = sto_tx_end(db, r == STO_OK);
  return r ? r : end;
}

sto_rc sto_move_list(sto *db, int64_t game, int64_t from,
                     int (*fn)(void *ctx, const sto_move *m), void *ctx) {
  sqlite3_stmt *s;
  sto_move m;
  sto_rc r;
  int rc;

  if (!db || !fn)
    return STO_INVALID;
  if ((r = stmt_get(db, ST_MOVE_LIST, &s)))
    return r;
  sqlite3_bind_int64(s, 1, game);
  sqlite3_bind_int64(s, 2, from);
  while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
    memset(&m, 0, sizeof m);
    if ((r = col_i64(s, 0, &m.seq)) || (r = col_int(s, 1, &m.seat)) ||
        (r = col_int(s, 2, &m.kind)) || (r = col_int(s, 3, &m.turn)) ||
        (r = col_int(s, 4, &m.revealed)) ||
        (r = col_text(s, 5, m.option, sizeof m.option)) ||
        (r = col_text(s, 6, m.request, sizeof m.request)) ||
        (r = col_i64(s, 7, &m.time)))
      break;
    if (fn(ctx, &m))
      break;
  }
  if (!r && rc != SQLITE_ROW)
    r = map_rc(rc);
  stmt_put(db, ST_MOVE_LIST, s);
  return r;
}

sto_rc sto_request_seen(sto *db, const char *request, bool *seen, int64_t *game,
                        int64_t *seq) {
  sqlite3_stmt *s;
  int64_t g = 0, q = 0;
  sto_rc r;
  int rc;

  if (!db || !request || !seen)
    return STO_INVALID;
  *seen = false;
  if ((r = stmt_get(db, ST_REQUEST_GET, &s)))
    return r;
  bind_text(s, 1, request);
  rc = sqlite3_step(s);
  if (rc == SQLITE_ROW) {
    if (!(r = col_i64(s, 0, &g)) && !(r = col_i64(s, 1, &q)))
      *seen = true;
  } else {
    r = map_rc(rc);
  }
  stmt_put(db, ST_REQUEST_GET, s);
  if (!r && *seen) {
    if (game)
      *game = g;
    if (seq)
      *seq = q;
  }
  return r;
}

sto_rc sto_request_put(sto *db, const char *id, const char *user, int64_t time,
                       const char *answer) {
  sqlite3_stmt *s;
  sto_rc r;

  if (!db)
    return STO_INVALID;
  if (!id || !id[0] || !user || !answer)
    return spoil(db, STO_INVALID);
  if (!fits(id, STO_REQUEST_MAX + 1) || !fits(user, STO_ID_MAX + 1) ||
      !fits(answer, STO_ANSWER_MAX + 1))
    return spoil(db, STO_TOO_BIG);
  if ((r = stmt_get(db, ST_REQUEST_PUT, &s)))
    return spoil(db, r);
  bind_text(s, 1, id);
  bind_text(s, 2, user);
  sqlite3_bind_int64(s, 3, time);
  bind_text(s, 4, answer);
  if (db->depth > 0 && db->spoiled) {
    r = db->spoiled;
  } else {
    /* The key is the request id: a second use is a duplicate request. */
    r = map_rc(step_done(s));
    r = spoil(db, r == STO_CONFLICT ? STO_DUPLICATE : r);
  }
  stmt_put(db, ST_REQUEST_PUT, s);
  return r;
}

sto_rc sto_request_answer(sto *db, const char *id, bool *seen, char *user,
                          size_t ucap, char *answer, size_t cap) {
  sqlite3_stmt *s;
  sto_rc r;
  int rc;

  if (!db || !id || !seen || !user || !ucap || !answer || !cap)
    return STO_INVALID;
  *seen = false;
  user[0] = answer[0] = '\0';
  if ((r = stmt_get(db, ST_REQUEST_ANSWER, &s)))
    return r;
  bind_text(s, 1, id);
  rc = sqlite3_step(s);
  if (rc == SQLITE_ROW) {
    r = col_text(s, 0, user, ucap);
    if (!r)
      r = col_text(s, 1, answer, cap);
    *seen = r == STO_OK;
  } else {
    r = map_rc(rc);
  }
  stmt_put(db, ST_REQUEST_ANSWER, s);
  return r;
}

sto_rc sto_request_prune(sto *db, int64_t before) {
  sqlite3_stmt *s;
  sto_rc r;

  if (!db)
    return STO_INVALID;
  if ((r = stmt_get(db, ST_REQUEST_PRUNE, &s)))
    return spoil(db, r);
  sqlite3_bind_int64(s, 1, before);
  r = step_write(db, s);
  stmt_put(db, ST_REQUEST_PRUNE, s);
  return r;
}

/* ---- snapshots -------------------------------------------------------- */

sto_rc sto_snapshot_put(sto *db, int64_t game, int64_t seq, const char *state) {
  sqlite3_stmt *s;
  size_t n;
  sto_rc r;

  if (!db || !state || seq < 0)
    return spoil(db, STO_INVALID);
  n = strnlen(state, (size_t)STO_STATE_MAX + 1);
  if (n > STO_STATE_MAX)
    return spoil(db, STO_TOO_BIG);
  if ((r = stmt_get(db, ST_SNAPSHOT_PUT, &s)))
    return spoil(db, r);
  sqlite3_bind_int64(s, 1, game);
  sqlite3_bind_int64(s, 2, seq);
  sqlite3_bind_text(s, 3, state, (int)n, SQLITE_STATIC);
  r = step_write(db, s);
  stmt_put(db, ST_SNAPSHOT_PUT, s);
  return spoil(db, r);
}

sto_rc sto_snapshot_get(sto *db, int64_t game, int64_t *seq, char **state) {
  sqlite3_stmt *s;
  sto_rc r;
  int rc;

  if (state)
    *state = NULL;
  if (!db || !seq || !state)
    return STO_INVALID;
  if ((r = stmt_get(db, ST_SNAPSHOT_GET, &s)))
    return r;
  sqlite3_bind_int64(s, 1, game);
  rc = sqlite3_step(s);
  if (rc == SQLITE_ROW) {
    int n = sqlite3_column_bytes(s, 1);
    char *buf = NULL;
    r = col_i64(s, 0, seq);
    if (r)
      *seq = 0;
    else if (n < 0 || (size_t)n > STO_STATE_MAX)
      r = STO_TOO_BIG;
    else if (!(buf = malloc((size_t)n + 1)))
      r = STO_NOMEM;
    else if ((r = col_text(s, 1, buf, (size_t)n + 1)))
      free(buf);
    else
      *state = buf;
  } else {
    r = rc == SQLITE_DONE ? STO_NOT_FOUND : map_rc(rc);
  }
  stmt_put(db, ST_SNAPSHOT_GET, s);
  return r;
}

/* ---- settings --------------------------------------------------------- */

sto_rc sto_setting_get(sto *db, const char *scope, const char *key, char *buf,
                       size_t cap) {
  sqlite3_stmt *s;
  sto_rc r;
  int rc;

  if (!db || !scope || !key || !buf || cap == 0)
    return STO_INVALID;
  buf[0] = '\0';
  if ((r = stmt_get(db, ST_SETTING_GET, &s)))
    return r;
  bind_text(s, 1, scope);
  bind_text(s, 2, key);
  rc = sqlite3_step(s);
  if (rc == SQLITE_ROW)
    r = col_text(s, 0, buf, cap);
  else
    r = rc == SQLITE_DONE ? STO_NOT_FOUND : map_rc(rc);
  if (r)
    buf[0] = '\0';
  stmt_put(db, ST_SETTING_GET, s);
  return r;
}

sto_rc sto_setting_set(sto *db, const char *scope, const char *key,
                       const char *value) {
  sqlite3_stmt *s;
  sto_rc r;

  if (!db || !scope || !key || !value)
    return spoil(db, STO_INVALID);
  if ((r = stmt_get(db, ST_SETTING_SET, &s)))
    return spoil(db, r);
  bind_text(s, 1, scope);
  bind_text(s, 2, key);
  bind_text(s, 3, value);
  r = step_write(db, s);
  stmt_put(db, ST_SETTING_SET, s);
  return spoil(db, r);
}

sto_rc sto_tx_begin(sto *db) {
  if (!db)
    return STO_INVALID;
  if (db->depth == 0) {
    sto_rc r = exec_st(db, ST_BEGIN);
    if (r)
      return r;
    db->spoiled = STO_OK;
  }
  db->depth++;
  return STO_OK;
}

sto_rc sto_tx_end(sto *db, bool commit) {
  if (!db || db->depth == 0)
    return STO_INVALID;
  if (!commit)
    spoil(db, STO_INVALID);
  if (--db->depth > 0)
    return db->spoiled;
  sto_rc r = db->spoiled;
  if (!r && !sqlite3_get_autocommit(db->db))
    r = exec_st(db, ST_COMMIT);
  else if (!r)
    r = STO_IO; /* SQLite ended the transaction itself: nothing is kept */
  if (r)
    rollback(db);
  db->spoiled = STO_OK;
  return commit ? r : STO_OK;
}

int64_t sto_changes(sto *db) {
  return db ? sqlite3_total_changes64(db->db) : 0;
}

bool sto_in_tx(sto *db) { return db && db->depth > 0; }

/* ---- timers ------------------------------------------------------------- */

static sto_rc read_timer(sqlite3_stmt *s, sto_timer *t) {
  sto_rc r;
  memset(t, 0, sizeof *t);
  if ((r = col_i64(s, 0, &t->game)) ||
      (r = col_text(s, 1, t->kind, sizeof t->kind)) ||
      (r = col_int(s, 2, &t->seat)) || (r = col_i64(s, 3, &t->due)) ||
      (r = col_i64(s, 4, &t->data)))
    return r;
  return STO_OK;
}

sto_rc sto_timer_set(sto *db, const sto_timer *t) {
  sqlite3_stmt *s;
  sto_rc r;
  if (!db || !t || !t->kind[0] || !fits(t->kind, sizeof t->kind))
    return spoil(db, STO_INVALID);
  if ((r = stmt_get(db, ST_TIMER_SET, &s)))
    return spoil(db, r);
  sqlite3_bind_int64(s, 1, t->game);
  bind_text(s, 2, t->kind);
  sqlite3_bind_int(s, 3, t->seat);
  sqlite3_bind_int64(s, 4, t->due);
  sqlite3_bind_int64(s, 5, t->data);
  r = step_write(db, s);
  stmt_put(db, ST_TIMER_SET, s);
  return spoil(db, r);
}

sto_rc sto_timer_clear(sto *db, int64_t game, const char *kind, int seat) {
  sqlite3_stmt *s;
  sto_rc r;
  st_id id = kind ? ST_TIMER_CLEAR : ST_TIMER_CLEAR_GAME;
  if (!db)
    return spoil(db, STO_INVALID);
  if ((r = stmt_get(db, id, &s)))
    return spoil(db, r);
  sqlite3_bind_int64(s, 1, game);
  if (kind) {
    bind_text(s, 2, kind);
    sqlite3_bind_int(s, 3, seat);
  }
  r = step_write(db, s);
  stmt_put(db, id, s);
  return spoil(db, r);
}

static sto_rc timer_query(sto *db, st_id id, sqlite3_stmt *s, sto_timer *out) {
  int rc = sqlite3_step(s);
  sto_rc r = rc == SQLITE_ROW    ? read_timer(s, out)
             : rc == SQLITE_DONE ? STO_NOT_FOUND
                                 : map_rc(rc);
  stmt_put(db, id, s);
  return r;
}

sto_rc sto_timer_next(sto *db, int64_t now, sto_timer *out) {
  sqlite3_stmt *s;
  sto_rc r;
  if (!db || !out)
    return STO_INVALID;
  if ((r = stmt_get(db, ST_TIMER_NEXT, &s)))
    return r;
  sqlite3_bind_int64(s, 1, now);
  return timer_query(db, ST_TIMER_NEXT, s, out);
}

sto_rc sto_timer_get(sto *db, int64_t game, const char *kind, int seat,
                     sto_timer *out) {
  sqlite3_stmt *s;
  sto_rc r;
  if (!db || !kind || !out)
    return STO_INVALID;
  if ((r = stmt_get(db, ST_TIMER_GET, &s)))
    return r;
  sqlite3_bind_int64(s, 1, game);
  bind_text(s, 2, kind);
  sqlite3_bind_int(s, 3, seat);
  return timer_query(db, ST_TIMER_GET, s, out);
}

sto_rc sto_timer_claim(sto *db, const sto_timer *t, bool *claimed) {
  sqlite3_stmt *s;
  sto_rc r;
  *claimed = false;
  if (!db || !t)
    return spoil(db, STO_INVALID);
  if ((r = stmt_get(db, ST_TIMER_CLAIM, &s)))
    return spoil(db, r);
  sqlite3_bind_int64(s, 1, t->game);
  bind_text(s, 2, t->kind);
  sqlite3_bind_int(s, 3, t->seat);
  sqlite3_bind_int64(s, 4, t->due);
  r = step_write(db, s);
  if (!r)
    *claimed = sqlite3_changes(db->db) == 1;
  stmt_put(db, ST_TIMER_CLAIM, s);
  return spoil(db, r);
}

/* ---- audit -------------------------------------------------------------- */

sto_rc sto_audit_add(sto *db, const sto_audit *a) {
  sqlite3_stmt *s;
  sto_rc r;
  if (!db || !a || !a->scope[0] || !a->actor[0] || !a->action[0])
    return spoil(db, STO_INVALID);
  if ((r = stmt_get(db, ST_AUDIT_ADD, &s)))
    return spoil(db, r);
  bind_text(s, 1, a->scope);
  sqlite3_bind_int64(s, 2, a->time);
  bind_text(s, 3, a->actor);
  bind_text(s, 4, a->action);
  sqlite3_bind_int64(s, 5, a->game);
  bind_text(s, 6, a->detail);
  r = step_write(db, s);
  stmt_put(db, ST_AUDIT_ADD, s);
  return spoil(db, r);
}

sto_rc sto_audit_list(sto *db, const char *scope, int limit,
                      int (*fn)(void *ctx, const sto_audit *a), void *ctx) {
  sqlite3_stmt *s;
  sto_rc r;
  int rc;
  if (!db || !scope || !fn || limit < 1)
    return STO_INVALID;
  if ((r = stmt_get(db, ST_AUDIT_LIST, &s)))
    return r;
  bind_text(s, 1, scope);
  sqlite3_bind_int(s, 2, limit);
  sto_audit a;
  while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
    memset(&a, 0, sizeof a);
    snprintf(a.scope, sizeof a.scope, "%s", scope);
    if ((r = col_i64(s, 0, &a.time)) ||
        (r = col_text(s, 1, a.actor, sizeof a.actor)) ||
        (r = col_text(s, 2, a.action, sizeof a.action)) ||
        (r = col_i64(s, 3, &a.game)) ||
        (r = col_text(s, 4, a.detail, sizeof a.detail)))
      break;
    if (fn(ctx, &a))
      break;
  }
  if (!r && rc != SQLITE_ROW && rc != SQLITE_DONE)
    r = map_rc(rc);
  stmt_put(db, ST_AUDIT_LIST, s);
  return r;
}
