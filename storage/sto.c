/*
 * sto.c: the SQLite backend of storage/sto.h: opening, the schema and its
 * migrations, the statement helpers, and transactions. The rows live in
 * sto_games.c, sto_timers.c and sto_settings.c (sto_int.h).
 *
 * One sto handle is one SQLite connection (WAL, synchronous=FULL, foreign
 * keys on) plus its prepared statements, prepared once at open and reset
 * after each use; there is no global state, so several handles may be
 * open in one process. Opening an existing file first inspects it through
 * a read-only connection, so a file that is damaged, foreign or from a
 * newer Lair is refused before anything could write to it. The schema is
 * the table `migrations` below: migration k takes PRAGMA user_version from
 * k-1 to k in one transaction, so a crash mid-migration leaves the old
 * version intact.
 */
#include "sto_int.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
    /* 5: asynchronous play as people play it. A timer's engine turn, so
     * that a turn's clock (kept, stopped and restarted by seat) survives
     * a restart; the rows armed before it keep -1 and count for the turn
     * in progress. Invitations to a rematch's lobby, of the members who
     * have not joined or declined yet. And deadline_policy, which either
     * answered once per decision or forfeited at the first miss, becomes
     * miss_action/miss_limit: a server that chose forfeit forfeits at the
     * second missed turn in a row, the first being played by the AI. */
    "ALTER TABLE timers ADD COLUMN turn INTEGER NOT NULL DEFAULT -1;"
    "CREATE TABLE invites("
    " game INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,"
    " user TEXT NOT NULL,"
    " name TEXT NOT NULL,"
    " seat INTEGER NOT NULL,"
    " PRIMARY KEY(game, user)) WITHOUT ROWID;"
    "CREATE INDEX invites_by_user ON invites(user);"
    "INSERT OR IGNORE INTO settings(scope, key, value)"
    " SELECT scope, 'miss_action', 'forfeit' FROM settings"
    " WHERE key = 'deadline_policy' AND value = 'forfeit';"
    "INSERT OR IGNORE INTO settings(scope, key, value)"
    " SELECT scope, 'miss_limit', '2' FROM settings"
    " WHERE key = 'deadline_policy' AND value = 'forfeit';"
    "DELETE FROM settings WHERE key = 'deadline_policy';",
    /* 6: what each move did, in words, for whom (seat -1: everyone): the
     * lines of a turn's channel message, a player's turn DM and the log,
     * written with the move. */
    "CREATE TABLE lines("
    " game INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,"
    " seq INTEGER NOT NULL,"
    " n INTEGER NOT NULL,"
    " seat INTEGER NOT NULL,"
    " text TEXT NOT NULL,"
    " PRIMARY KEY(game, seq, n)) WITHOUT ROWID;",
};

#define MIGRATION_COUNT ((int)(sizeof migrations / sizeof migrations[0]))

int sto_schema_version(void) { return MIGRATION_COUNT; }

static const char *const statement_sql[ST_COUNT] = {
#define ST_SQL(name, sql) sql,
    STATEMENTS(ST_SQL)
#undef ST_SQL
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
sto_rc sto_map_rc(int rc) {
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
sto_rc sto_stmt_get(sto *db, st_id id, sqlite3_stmt **out) {
  sqlite3_stmt *s = db->st[id];
  int rc;

  if (!sqlite3_stmt_busy(s)) {
    *out = s;
    return STO_OK;
  }
  rc = sqlite3_prepare_v2(db->db, statement_sql[id], -1, out, NULL);
  if (rc != SQLITE_OK) {
    *out = NULL;
    return sto_map_rc(rc);
  }
  return STO_OK;
}

/* Returns a statement from stmt_get: the cached one is reset and its
 * bindings cleared (no pointer to the caller's strings outlives the call),
 * a private copy is finalized. */
void sto_stmt_put(sto *db, st_id id, sqlite3_stmt *s) {
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
int sto_step_done(sqlite3_stmt *s) {
  int rc = sqlite3_step(s);
  return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

sto_rc sto_exec_st(sto *db, st_id id) {
  sqlite3_stmt *s;
  sto_rc r = sto_stmt_get(db, id, &s);
  if (r)
    return r;
  r = sto_map_rc(sto_step_done(s));
  sto_stmt_put(db, id, s);
  return r;
}

/* Notes a failed write inside a transaction (sto_tx_begin) and returns
 * r: the transaction is spoiled and will be rolled back whatever its
 * caller asks, so that no command commits half its writes because one
 * of them failed unnoticed. */
sto_rc sto_spoil(sto *db, sto_rc r) {
  if (r && db && db->depth > 0 && !db->spoiled)
    db->spoiled = r;
  return r;
}

/* Runs a write statement. Inside a spoiled transaction it writes nothing:
 * SQLite may have rolled the transaction back already (after an I/O error
 * or a full disk), and would then run each later write on its own. */
sto_rc sto_step_write(sto *db, sqlite3_stmt *s) {
  if (db->depth > 0 && db->spoiled)
    return db->spoiled;
  return sto_spoil(db, sto_map_rc(sto_step_done(s)));
}

/* Undoes an open transaction, if SQLite has not already done so. */
static void rollback(sto *db) {
  if (!sqlite3_get_autocommit(db->db))
    (void)sto_exec_st(db, ST_ROLLBACK);
}

/* Whether s is a NUL-terminated string within a buffer of size cap. */
bool sto_fits(const char *s, size_t cap) { return strnlen(s, cap) < cap; }

int sto_bind_text(sqlite3_stmt *s, int i, const char *text) {
  return sqlite3_bind_text(s, i, text, -1, SQLITE_STATIC);
}

/* Copies text column i into buf (cap bytes with the NUL): STO_TOO_BIG
 * rather than truncating, STO_CORRUPT for a NULL or an embedded NUL. */
sto_rc sto_col_text(sqlite3_stmt *s, int i, char *buf, size_t cap) {
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

sto_rc sto_col_i64(sqlite3_stmt *s, int i, int64_t *out) {
  if (sqlite3_column_type(s, i) != SQLITE_INTEGER)
    return STO_CORRUPT;
  *out = sqlite3_column_int64(s, i);
  return STO_OK;
}

sto_rc sto_col_int(sqlite3_stmt *s, int i, int *out) {
  int64_t v;
  sto_rc r = sto_col_i64(s, i, &v);
  if (r)
    return r;
  if (v < INT_MIN || v > INT_MAX)
    return STO_CORRUPT;
  *out = (int)v;
  return STO_OK;
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
  return sto_map_rc(rc);
}

/* The identity checks shared by the read-only inspection and the
 * migration transaction: whose file it is and whether this build can
 * read its schema. */
static sto_rc check_identity(sqlite3 *h, const char *path, int fresh, char *err,
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
  if (version == 0 && fresh == 0) {
    /* Lair makes a new database under another name and renames it into
     * place once its schema is in: a file without one was made by
     * something else, and is not taken over. */
    set_err(err, cap,
            "%s: an SQLite database without Lair's schema (not made by "
            "Lair); move it away to start a new database there",
            path);
    return STO_CORRUPT;
  }
  if (version > 0 && app != LAIR_APPLICATION_ID) {
    set_err(err, cap, "%s: not a Lair database (no Lair application_id)", path);
    return STO_CORRUPT;
  }
  return STO_OK;
}

/* The tables each schema version has (the migrations above create them). */
static const struct {
  int since;
  const char *name;
} tables[] = {{1, "games"},     {1, "seats"},    {1, "moves"},
              {1, "snapshots"}, {1, "settings"}, {3, "timers"},
              {3, "audit"},     {4, "requests"}, {5, "invites"},
              {6, "lines"}};

/* Whether every table of the file's schema version is in its schema (a
 * read of the schema pages only). */
static sto_rc check_tables(sqlite3 *h, const char *path, char *err,
                           size_t cap) {
  int64_t version = 0;
  int rc = query_int(h, "PRAGMA user_version", &version);
  if (rc != SQLITE_OK)
    return sqlite_fail(h, rc, path, "cannot read the schema version", err, cap);
  for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++) {
    if (tables[i].since > version)
      continue;
    sqlite3_stmt *q = NULL;
    rc = sqlite3_prepare_v2(h,
                            "SELECT count(*) FROM sqlite_schema WHERE "
                            "type = 'table' AND name = ?1",
                            -1, &q, NULL);
    if (rc == SQLITE_OK)
      rc = sqlite3_bind_text(q, 1, tables[i].name, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK)
      rc = sqlite3_step(q);
    bool there = rc == SQLITE_ROW && sqlite3_column_int(q, 0) == 1;
    sqlite3_finalize(q);
    if (rc != SQLITE_ROW)
      return sqlite_fail(h, rc, path, "cannot read the schema", err, cap);
    if (!there) {
      set_err(err, cap, "%s: damaged: the table '%s' is missing", path,
              tables[i].name);
      return STO_CORRUPT;
    }
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
  r = check_identity(h, path, 0, err, cap);
  if (r)
    goto done;

  /* Cheap checks only, so that start-up does not grow with the file:
   * the header was read above; every table of the schema version must be
   * there. The whole file is checked by `lair check` (sto_check), and a
   * running game's rows when it is loaded. */
  r = check_tables(h, path, err, cap);

done:
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
    r = check_identity(h, path, 1, err, cap);
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
  /* A 256 KiB page cache (SQLite's default is 2 MiB): games are loaded
   * from a snapshot and a few moves, each game's pages are read when it
   * loads and rarely again before it is dropped from memory, and the OS
   * keeps the file's pages anyway (a miss costs a pread, microseconds).
   * What stays hot is the B-trees' inner pages, a few dozen. */
  rc = exec_sql(h, "PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON; "
                   "PRAGMA cache_size = -256;");
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

/* Makes a new database at path, which does not exist: built under the
 * name path.new (left over from an interrupted start, it is made again)
 * and renamed into place once its schema is in, so that no half-made
 * file is ever found at path. *made tells whether this call made it
 * (another process may have been first). */
static sto_rc create_new(const char *path, bool *made, char *err, size_t cap) {
  char tmp[4096], side[4200];
  sqlite3 *h = NULL;
  sto_rc r;
  int rc;

  *made = false;
  if ((size_t)snprintf(tmp, sizeof tmp, "%s.new", path) >= sizeof tmp) {
    set_err(err, cap, "%s: the path is too long", path);
    return STO_INVALID;
  }
  static const char *const ends[] = {"", "-wal", "-shm", "-journal"};
  for (size_t i = 0; i < 4; i++) {
    snprintf(side, sizeof side, "%s%s", tmp, ends[i]);
    if (unlink(side) != 0 && errno != ENOENT) {
      set_err(err, cap, "%s: %s", side, strerror(errno));
      return STO_IO;
    }
  }
  rc = sqlite3_open_v2(tmp, &h, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
                       NULL);
  if (rc != SQLITE_OK)
    r = sqlite_fail(h, rc, path, "cannot create", err, cap);
  else if (!(r = configure(h, path, err, cap)))
    r = migrate(h, path, err, cap);
  /* Closing the last connection checkpoints the WAL into the file. */
  rc = sqlite3_close(h);
  if (!r && rc != SQLITE_OK) {
    set_err(err, cap, "%s: cannot close the new database", tmp);
    r = STO_IO;
  }
  if (!r) {
    /* link, not rename: a file another process put at path meanwhile
     * is kept, and then used. */
    if (link(tmp, path) == 0)
      *made = true;
    else if (errno != EEXIST) {
      set_err(err, cap, "%s: cannot create: %s", path, strerror(errno));
      r = STO_IO;
    }
  }
  unlink(tmp);
  return r;
}

sto_rc sto_open(const char *path, sto **out, char *err, size_t cap) {
  struct stat st;
  sto *db;
  sto_rc r;
  int rc;
  bool made = false;

  if (err && cap)
    err[0] = '\0';
  if (!out)
    return STO_INVALID;
  *out = NULL;
  if (!path || !*path) {
    set_err(err, cap, "no database path");
    return STO_INVALID;
  }
  if (stat(path, &st) != 0) {
    if (errno != ENOENT) {
      set_err(err, cap, "%s: %s", path, strerror(errno));
      return STO_IO;
    }
    if ((r = create_new(path, &made, err, cap)))
      return r;
  } else if (!S_ISREG(st.st_mode)) {
    set_err(err, cap, "%s: not a regular file", path);
    return STO_INVALID;
  } else if (st.st_size == 0) {
    set_err(err, cap,
            "%s: an empty file (0 bytes), not a Lair database; remove it "
            "and Lair makes a new database there",
            path);
    return STO_CORRUPT;
  }
  if ((r = inspect(path, err, cap)))
    return r;

  db = calloc(1, sizeof *db);
  if (!db) {
    set_err(err, cap, "%s: out of memory", path);
    return STO_NOMEM;
  }
  db->created = made;
  rc = sqlite3_open_v2(path, &db->db, SQLITE_OPEN_READWRITE, NULL);
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

bool sto_created(const sto *db) { return db && db->created; }

/* ---- the full check --------------------------------------------------- */

/* Lair's own rules on its rows, each a query whose rows are problems
 * (one text column). */
static const char *const consistency[] = {
    "SELECT 'game ' || id || ': status ' || status || ' is not one Lair "
    "writes' FROM games WHERE status NOT IN (0, 1, 2, 3)",
    "SELECT 'game ' || g.id || ': ' || g.moves || ' moves counted, ' || "
    "count(m.seq) || ' stored, numbered up to ' || coalesce(max(m.seq), -1) "
    "FROM games g LEFT JOIN moves m ON m.game = g.id GROUP BY g.id "
    "HAVING count(m.seq) != g.moves OR coalesce(max(m.seq), -1) != "
    "g.moves - 1 OR coalesce(min(m.seq), 0) != 0",
    "SELECT 'game ' || game || ': seats are not numbered 0..' || "
    "(count(*) - 1) FROM seats GROUP BY game HAVING min(seat) != 0 OR "
    "max(seat) != count(*) - 1",
    "SELECT 'game ' || id || ': started but nobody sits in it' FROM games "
    "WHERE status IN (1, 2) AND id NOT IN (SELECT game FROM seats)",
    "SELECT 'game ' || s.game || ': a snapshot after ' || s.seq || ' of ' "
    "|| g.moves || ' moves' FROM snapshots s JOIN games g ON g.id = s.game "
    "WHERE s.seq < 0 OR s.seq > g.moves",
};

/* The same for the rules of a later schema version, run on files of that
 * version or newer (an older file has not got the tables yet). */
static const struct {
  int since;
  const char *sql;
} consistency_since[] = {
    {5, "SELECT 'game ' || i.game || ': ' || i.user || ' is still invited "
        "though the game started' FROM invites i JOIN games g ON "
        "g.id = i.game WHERE g.status IN (1, 2)"},
};

#define CHECK_REPORT_MAX 100 /* lines per check; the rest are counted */

/* Runs sql and reports each row's first column as a problem (skip_ok:
 * but not a row that says "ok"). Returns SQLITE_OK when it ran through. */
static int check_rows(sqlite3 *h, const char *sql,
                      void (*report)(void *ctx, const char *problem), void *ctx,
                      long *problems, bool skip_ok) {
  sqlite3_stmt *q = NULL;
  long n = 0;
  int rc = sqlite3_prepare_v2(h, sql, -1, &q, NULL);
  if (rc == SQLITE_OK) {
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
      const char *t = (const char *)sqlite3_column_text(q, 0);
      if (skip_ok && t && strcmp(t, "ok") == 0)
        continue;
      if (n++ >= CHECK_REPORT_MAX)
        continue;
      /* One line each: SQLite's report starts with the schema's name
       * ("*** in database main ***") on a line of its own. */
      char line[512];
      if (t && strncmp(t, "***", 3) == 0 && strchr(t, '\n'))
        t = strchr(t, '\n') + 1;
      snprintf(line, sizeof line, "%s", t ? t : "(no text)");
      for (char *c = line; *c; c++)
        if (*c == '\n')
          *c = ' ';
      report(ctx, line);
    }
  }
  if (n > CHECK_REPORT_MAX)
    report(ctx, "(more problems of this kind not shown)");
  *problems += n;
  sqlite3_finalize(q);
  return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

sto_rc sto_check(const char *path,
                 void (*report)(void *ctx, const char *problem), void *ctx,
                 long *problems, char *err, size_t cap) {
  struct stat st;
  sqlite3 *h = NULL;
  sto_rc r;
  int rc;

  *problems = 0;
  if (err && cap)
    err[0] = '\0';
  if (stat(path, &st) != 0) {
    set_err(err, cap, "%s: %s", path, strerror(errno));
    return errno == ENOENT ? STO_NOT_FOUND : STO_IO;
  }
  if (st.st_size == 0) {
    set_err(err, cap, "%s: an empty file (0 bytes), not a Lair database", path);
    return STO_CORRUPT;
  }
  /* What start-up would refuse is a problem too; the file may still be
   * readable enough to say more. */
  if ((r = inspect(path, err, cap))) {
    if (r != STO_CORRUPT)
      return r;
    report(ctx, err);
    ++*problems;
  }
  rc = sqlite3_open_v2(path, &h, SQLITE_OPEN_READONLY, NULL);
  if (rc != SQLITE_OK) {
    r = sqlite_fail(h, rc, path, "cannot open", err, cap);
    sqlite3_close(h);
    return r;
  }
  sqlite3_busy_timeout(h, BUSY_TIMEOUT_MS);
  rc = check_rows(h, "PRAGMA integrity_check(1000)", report, ctx, problems,
                  true);
  if (rc == SQLITE_OK)
    rc = check_rows(h,
                    "SELECT 'row ' || rowid || ' of ' || \"table\" || "
                    "' points at a missing ' || parent FROM "
                    "pragma_foreign_key_check",
                    report, ctx, problems, false);
  /* Lair's rules, once SQLite found the file sound (on a damaged one
   * they would only repeat the damage). */
  long damage = *problems;
  for (size_t i = 0; rc == SQLITE_OK && damage == 0 &&
                     i < sizeof consistency / sizeof consistency[0];
       i++)
    rc = check_rows(h, consistency[i], report, ctx, problems, false);
  int64_t version = 0;
  if (rc == SQLITE_OK && damage == 0)
    rc = query_int(h, "PRAGMA user_version", &version);
  for (size_t i = 0; rc == SQLITE_OK && damage == 0 &&
                     i < sizeof consistency_since / sizeof consistency_since[0];
       i++)
    if (version >= consistency_since[i].since)
      rc =
          check_rows(h, consistency_since[i].sql, report, ctx, problems, false);
  if ((rc & 0xff) == SQLITE_CORRUPT || (rc & 0xff) == SQLITE_NOTADB) {
    /* Too damaged to read on: that is the finding. */
    char what[300];
    snprintf(what, sizeof what, "damaged: %s", sqlite3_errmsg(h));
    report(ctx, what);
    ++*problems;
    rc = SQLITE_OK;
  }
  r = rc == SQLITE_OK ? STO_OK
                      : sqlite_fail(h, rc, path, "the check stopped", err, cap);
  sqlite3_close(h);
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

/* ---- transactions ------------------------------------------------------ */

sto_rc sto_tx_begin(sto *db) {
  if (!db)
    return STO_INVALID;
  if (db->depth == 0) {
    sto_rc r = sto_exec_st(db, ST_BEGIN);
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
    sto_spoil(db, STO_INVALID);
  if (--db->depth > 0)
    return db->spoiled;
  sto_rc r = db->spoiled;
  if (!r && !sqlite3_get_autocommit(db->db))
    r = sto_exec_st(db, ST_COMMIT);
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
