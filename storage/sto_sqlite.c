/*
 * sto_sqlite.c: the SQLite engine of storage/sto.h: opening a file, its
 * schema and migrations, the full check, and the driver (sto_int.h) the
 * row code runs its statements through.
 *
 * One handle is one SQLite connection (WAL, synchronous=FULL, foreign
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

#include <sqlite3.h>

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
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
    /* 7: a version per game, advanced by every write to its row, seats,
     * invitations and moves, so that a process holding a game in memory
     * can tell whether another one changed it (sto_game_lock). */
    "ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 0;",
    /* 8: the messages kept up to date in place (a turn's channel message
     * and DMs) by their key, so that whichever process edits a turn next,
     * or a restarted one, edits that message rather than posting another. */
    "CREATE TABLE kept("
    " key TEXT PRIMARY KEY,"
    " channel TEXT NOT NULL,"
    " message TEXT NOT NULL,"
    " time INTEGER NOT NULL) WITHOUT ROWID;"
    "CREATE INDEX kept_by_time ON kept(time);",
    /* 9: Glicko-2 ratings per server, game and player, and how often each
     * player played each side (a villain), written with a game's end.
     * Ratings are integers in millionths, so both engines store and order
     * them exactly alike. ratings_by_rank is the leaderboard's order, so
     * its top 10 is read from the index's start without a sort; the
     * primary key puts a player's ratings together for /game stats. */
    "CREATE TABLE ratings("
    " guild TEXT NOT NULL,"
    " ruleset TEXT NOT NULL,"
    " player TEXT NOT NULL,"
    " name TEXT NOT NULL,"
    " rating INTEGER NOT NULL,"
    " rd INTEGER NOT NULL,"
    " volatility INTEGER NOT NULL,"
    " games INTEGER NOT NULL,"
    " wins INTEGER NOT NULL,"
    " updated INTEGER NOT NULL,"
    " PRIMARY KEY(guild, player, ruleset)) WITHOUT ROWID;"
    "CREATE INDEX ratings_by_rank ON ratings(guild, ruleset, rating DESC, "
    "rd, games DESC, player);"
    "CREATE TABLE sides("
    " guild TEXT NOT NULL,"
    " ruleset TEXT NOT NULL,"
    " player TEXT NOT NULL,"
    " side TEXT NOT NULL,"
    " name TEXT NOT NULL,"
    " games INTEGER NOT NULL,"
    " PRIMARY KEY(guild, ruleset, player, side)) WITHOUT ROWID;",
};

#define MIGRATION_COUNT ((int)(sizeof migrations / sizeof migrations[0]))

_Static_assert(MIGRATION_COUNT == STO_SCHEMA_VERSION,
               "each SQLite migration needs its PostgreSQL entry (sto_pg.c)");

int sto_schema_version(void) { return MIGRATION_COUNT; }

/* ---- errors ----------------------------------------------------------- */

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

/* ---- the driver ------------------------------------------------------- */

typedef struct lite_stmt {
  sto_stmt base;
  sqlite3_stmt *st;
} lite_stmt;

typedef struct lite {
  sto base;
  sqlite3 *h;
  lite_stmt st[ST_COUNT]; /* prepared once at open */
} lite;

static const sto_driver lite_driver;

static sqlite3_stmt *raw(sto_stmt *s) { return ((lite_stmt *)s)->st; }

/* Hands out statement id, ready to bind. A list function's callback may
 * call back into storage while the cached statement is still stepping;
 * then a private copy is prepared so the outer iteration is undisturbed. */
static sto_rc lite_get(sto *base, st_id id, sto_stmt **out) {
  lite *db = (lite *)base;
  lite_stmt *copy;
  int rc;

  if (!sqlite3_stmt_busy(db->st[id].st)) {
    *out = &db->st[id].base;
    return STO_OK;
  }
  *out = NULL;
  if (!(copy = calloc(1, sizeof *copy)))
    return STO_NOMEM;
  copy->base.drv = &lite_driver;
  rc = sqlite3_prepare_v2(db->h, sto_statement_sql[id], -1, &copy->st, NULL);
  if (rc != SQLITE_OK) {
    free(copy);
    return map_rc(rc);
  }
  *out = &copy->base;
  return STO_OK;
}

/* The cached statement is reset and its bindings cleared (no pointer to
 * the caller's strings outlives the call), a private copy is finalized. */
static void lite_put(sto *base, st_id id, sto_stmt *s) {
  lite *db = (lite *)base;
  if (s == &db->st[id].base) {
    sqlite3_reset(raw(s));
    sqlite3_clear_bindings(raw(s));
  } else {
    sqlite3_finalize(raw(s));
    free(s);
  }
}

static void lite_bind_i64(sto_stmt *s, int i, int64_t v) {
  sqlite3_bind_int64(raw(s), i, v);
}

static void lite_bind_text(sto_stmt *s, int i, const char *text) {
  sqlite3_bind_text(raw(s), i, text, -1, SQLITE_STATIC);
}

static sto_rc lite_step(sto_stmt *s) {
  int rc = sqlite3_step(raw(s));
  return rc == SQLITE_ROW ? STO_ROW : map_rc(rc);
}

static int64_t lite_changes(sto_stmt *s) {
  return sqlite3_changes64(sqlite3_db_handle(raw(s)));
}

/* Copies text column i into buf (cap bytes with the NUL): STO_TOO_BIG
 * rather than truncating, STO_CORRUPT for a NULL or an embedded NUL. */
static sto_rc lite_col_text(sto_stmt *st, int i, char *buf, size_t cap) {
  sqlite3_stmt *s = raw(st);
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

static sto_rc lite_col_i64(sto_stmt *st, int i, int64_t *out) {
  sqlite3_stmt *s = raw(st);
  if (sqlite3_column_type(s, i) != SQLITE_INTEGER)
    return STO_CORRUPT;
  *out = sqlite3_column_int64(s, i);
  return STO_OK;
}

static size_t lite_col_bytes(sto_stmt *s, int i) {
  int n = sqlite3_column_bytes(raw(s), i);
  return n > 0 ? (size_t)n : 0;
}

static bool lite_tx_open(sto *base) {
  return !sqlite3_get_autocommit(((lite *)base)->h);
}

static int64_t lite_total_changes(sto *base) {
  return sqlite3_total_changes64(((lite *)base)->h);
}

static void lite_close(sto *base) {
  lite *db = (lite *)base;
  for (int i = 0; i < ST_COUNT; i++)
    sqlite3_finalize(db->st[i].st);
  sqlite3_close(db->h);
  free(db);
}

static const sto_driver lite_driver = {
    .name = "sqlite",
    .get = lite_get,
    .put = lite_put,
    .bind_i64 = lite_bind_i64,
    .bind_text = lite_bind_text,
    .step = lite_step,
    .changes = lite_changes,
    .col_text = lite_col_text,
    .col_i64 = lite_col_i64,
    .col_bytes = lite_col_bytes,
    .tx_open = lite_tx_open,
    .total_changes = lite_total_changes,
    .close = lite_close,
};

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
  sto_set_err(err, cap, "%s: %s: %s", path, what,
              h ? sqlite3_errmsg(h) : sqlite3_errstr(rc));
  return map_rc(rc);
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
    sto_set_err(err, cap,
                "%s: not a Lair database (application_id %" PRId64 ")", path,
                app);
    return STO_CORRUPT;
  }
  if (version < 0) {
    sto_set_err(err, cap, "%s: bad schema version %" PRId64, path, version);
    return STO_CORRUPT;
  }
  if (version > MIGRATION_COUNT) {
    sto_set_err(err, cap,
                "%s: schema version %" PRId64 " is newer than this Lair's (%d)",
                path, version, MIGRATION_COUNT);
    return STO_TOO_NEW;
  }
  if (version == 0 && objects > 0) {
    sto_set_err(err, cap, "%s: not a Lair database (it already holds tables)",
                path);
    return STO_CORRUPT;
  }
  if (version == 0 && fresh == 0) {
    /* Lair makes a new database under another name and renames it into
     * place once its schema is in: a file without one was made by
     * something else, and is not taken over. */
    sto_set_err(err, cap,
                "%s: an SQLite database without Lair's schema (not made by "
                "Lair); move it away to start a new database there",
                path);
    return STO_CORRUPT;
  }
  if (version > 0 && app != LAIR_APPLICATION_ID) {
    sto_set_err(err, cap, "%s: not a Lair database (no Lair application_id)",
                path);
    return STO_CORRUPT;
  }
  return STO_OK;
}

/* The tables each schema version has (the migrations above create them). */
static const struct {
  int since;
  const char *name;
} tables[] = {{1, "games"},    {1, "seats"},  {1, "moves"}, {1, "snapshots"},
              {1, "settings"}, {3, "timers"}, {3, "audit"}, {4, "requests"},
              {5, "invites"},  {6, "lines"},  {8, "kept"},  {9, "ratings"},
              {9, "sides"}};

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
      sto_set_err(err, cap, "%s: damaged: the table '%s' is missing", path,
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
    sto_set_err(err, cap, "%s: the file system does not allow WAL mode", path);
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
  sqlite3_stmt *s = p;
  (void)type;
  (void)x;
  const char *sql = sqlite3_sql(s);
  bool counts =
      !sqlite3_stmt_readonly(s) || (sql && (strncmp(sql, "COMMIT", 6) == 0 ||
                                            strncmp(sql, "BEGIN", 5) == 0));
  if (counts)
    sto_fault_tick(ctx);
  return 0;
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
    sto_set_err(err, cap, "%s: the path is too long", path);
    return STO_INVALID;
  }
  static const char *const ends[] = {"", "-wal", "-shm", "-journal"};
  for (size_t i = 0; i < 4; i++) {
    snprintf(side, sizeof side, "%s%s", tmp, ends[i]);
    if (unlink(side) != 0 && errno != ENOENT) {
      sto_set_err(err, cap, "%s: %s", side, strerror(errno));
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
    sto_set_err(err, cap, "%s: cannot close the new database", tmp);
    r = STO_IO;
  }
  if (!r) {
    /* link, not rename: a file another process put at path meanwhile
     * is kept, and then used. */
    if (link(tmp, path) == 0)
      *made = true;
    else if (errno != EEXIST) {
      sto_set_err(err, cap, "%s: cannot create: %s", path, strerror(errno));
      r = STO_IO;
    }
  }
  unlink(tmp);
  return r;
}

sto_rc sto_sqlite_open(const char *path, sto **out, char *err, size_t cap) {
  struct stat st;
  lite *db;
  sto_rc r;
  int rc;
  bool made = false;

  if (!path || !*path) {
    sto_set_err(err, cap, "no database path");
    return STO_INVALID;
  }
  if (stat(path, &st) != 0) {
    if (errno != ENOENT) {
      sto_set_err(err, cap, "%s: %s", path, strerror(errno));
      return STO_IO;
    }
    if ((r = create_new(path, &made, err, cap)))
      return r;
  } else if (!S_ISREG(st.st_mode)) {
    sto_set_err(err, cap, "%s: not a regular file", path);
    return STO_INVALID;
  } else if (st.st_size == 0) {
    sto_set_err(err, cap,
                "%s: an empty file (0 bytes), not a Lair database; remove it "
                "and Lair makes a new database there",
                path);
    return STO_CORRUPT;
  }
  if ((r = inspect(path, err, cap)))
    return r;

  db = calloc(1, sizeof *db);
  if (!db) {
    sto_set_err(err, cap, "%s: out of memory", path);
    return STO_NOMEM;
  }
  db->base.drv = &lite_driver;
  db->base.created = made;
  rc = sqlite3_open_v2(path, &db->h, SQLITE_OPEN_READWRITE, NULL);
  if (rc != SQLITE_OK) {
    r = sqlite_fail(db->h, rc, path, "cannot open", err, cap);
    goto fail;
  }
  if ((r = configure(db->h, path, err, cap)) ||
      (r = migrate(db->h, path, err, cap)))
    goto fail;
#ifdef LAIR_FAULTS
  if (sto_arm_faults(&db->base))
    sqlite3_trace_v2(db->h, SQLITE_TRACE_PROFILE, fault_trace, db);
#endif
  for (int i = 0; i < ST_COUNT; i++) {
    db->st[i].base.drv = &lite_driver;
    rc = sqlite3_prepare_v3(db->h, sto_statement_sql[i], -1,
                            SQLITE_PREPARE_PERSISTENT, &db->st[i].st, NULL);
    if (rc != SQLITE_OK) {
      r = sqlite_fail(db->h, rc, path, "cannot prepare a statement", err, cap);
      goto fail;
    }
  }
  *out = &db->base;
  return STO_OK;

fail:
  lite_close(&db->base);
  return r;
}

/* ---- the full check --------------------------------------------------- */

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
      if (n++ >= STO_CHECK_REPORT_MAX)
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
  if (n > STO_CHECK_REPORT_MAX)
    report(ctx, "(more problems of this kind not shown)");
  *problems += n;
  sqlite3_finalize(q);
  return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

sto_rc sto_sqlite_check(const char *path,
                        void (*report)(void *ctx, const char *problem),
                        void *ctx, long *problems, char *err, size_t cap) {
  struct stat st;
  sqlite3 *h = NULL;
  sto_rc r;
  int rc;

  *problems = 0;
  if (err && cap)
    err[0] = '\0';
  if (stat(path, &st) != 0) {
    sto_set_err(err, cap, "%s: %s", path, strerror(errno));
    return errno == ENOENT ? STO_NOT_FOUND : STO_IO;
  }
  if (st.st_size == 0) {
    sto_set_err(err, cap, "%s: an empty file (0 bytes), not a Lair database",
                path);
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
  for (size_t i = 0; rc == SQLITE_OK && damage == 0 && i < sto_check_rule_count;
       i++)
    rc = check_rows(h, sto_check_rules[i], report, ctx, problems, false);
  int64_t version = 0;
  if (rc == SQLITE_OK && damage == 0)
    rc = query_int(h, "PRAGMA user_version", &version);
  for (size_t i = 0;
       rc == SQLITE_OK && damage == 0 && i < sto_check_since_count; i++)
    if (version >= sto_check_since[i].since)
      rc = check_rows(h, sto_check_since[i].sql, report, ctx, problems, false);
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
