/*
 * sto_pg.c: the PostgreSQL engine of storage/sto.h, through libpq, so
 * that several Lair processes can share one database.
 *
 * One handle is one connection. Each statement of sto_int.h's list is
 * rewritten once per handle (?N becomes $N; PG_STATEMENTS gives the few
 * texts of PostgreSQL's own), prepared on the connection the first time
 * it runs (PQprepare) and then run with PQexecPrepared, all parameters
 * as text. A statement's whole result is fetched at once, so a list's
 * callback may run other statements on the same connection.
 *
 * The schema is made in one transaction under an advisory lock (two
 * processes starting at once do not race), with its version in the
 * table lair_meta. Errors are mapped by SQLSTATE and, for unique keys,
 * by constraint name. A connection the server dropped is made again
 * (PQreset, statements prepared anew) before the next transaction or
 * statement outside one, never inside a transaction: that transaction
 * fails with STO_IO and is rolled back.
 */
#include "sto_int.h"

#include <libpq-fe.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PG_PARAMS_MAX 12 /* the most parameters a statement takes */
#define PG_TEXT_OID 25   /* the type of a parameter a statement never uses */
/* pg_advisory_xact_lock's key for making or migrating the schema ("LAIR"). */
#define PG_SCHEMA_LOCK 0x4c414952
#define PG_NAME_MAX 256 /* the database's name as errors show it */

/* ---- schema ----------------------------------------------------------- */

/* The whole schema of version PG_BASE_VERSION, for a database without
 * one. Types: BIGINT for every integer, identity ids, TEXT; the keys,
 * indexes and foreign keys of the SQLite schema, named where errors are
 * told apart by constraint name (moves_pkey, moves_by_request,
 * requests_pkey). */
#define PG_BASE_VERSION 7
static const char pg_schema[] =
    "CREATE TABLE lair_meta("
    " id INTEGER PRIMARY KEY CHECK (id = 1),"
    " version BIGINT NOT NULL);"
    "CREATE TABLE games("
    " id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,"
    " ruleset TEXT NOT NULL,"
    " ruleset_version BIGINT NOT NULL,"
    " config TEXT NOT NULL,"
    " seed TEXT NOT NULL,"
    " guild TEXT NOT NULL,"
    " channel TEXT NOT NULL,"
    " creator TEXT NOT NULL,"
    " status BIGINT NOT NULL,"
    " created BIGINT NOT NULL,"
    " updated BIGINT NOT NULL,"
    " moves BIGINT NOT NULL DEFAULT 0,"
    " ai_due BIGINT NOT NULL DEFAULT 0,"
    " version BIGINT NOT NULL DEFAULT 0);"
    "CREATE INDEX games_by_channel ON games(channel, status);"
    "CREATE INDEX games_by_status ON games(status);"
    "CREATE INDEX games_ai_due ON games(id) WHERE ai_due = 1;"
    "CREATE TABLE seats("
    " game BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,"
    " seat BIGINT NOT NULL,"
    " \"user\" TEXT NOT NULL,"
    " name TEXT NOT NULL,"
    " PRIMARY KEY(game, seat));"
    "CREATE INDEX seats_by_user ON seats(\"user\");"
    "CREATE TABLE moves("
    " game BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,"
    " seq BIGINT NOT NULL,"
    " seat BIGINT NOT NULL,"
    " kind BIGINT NOT NULL,"
    " turn BIGINT NOT NULL,"
    " revealed BIGINT NOT NULL,"
    " option TEXT NOT NULL,"
    " request TEXT NOT NULL,"
    " time BIGINT NOT NULL,"
    " CONSTRAINT moves_pkey PRIMARY KEY(game, seq));"
    "CREATE UNIQUE INDEX moves_by_request ON moves(request);"
    "CREATE TABLE snapshots("
    " game BIGINT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,"
    " seq BIGINT NOT NULL,"
    " state TEXT NOT NULL);"
    "CREATE TABLE settings("
    " scope TEXT NOT NULL,"
    " key TEXT NOT NULL,"
    " value TEXT NOT NULL,"
    " PRIMARY KEY(scope, key));"
    "CREATE TABLE timers("
    " game BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,"
    " kind TEXT NOT NULL,"
    " seat BIGINT NOT NULL,"
    " due BIGINT NOT NULL,"
    " data BIGINT NOT NULL DEFAULT 0,"
    " turn BIGINT NOT NULL DEFAULT -1,"
    " PRIMARY KEY(game, kind, seat));"
    "CREATE INDEX timers_by_due ON timers(due);"
    "CREATE TABLE audit("
    " id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,"
    " scope TEXT NOT NULL,"
    " time BIGINT NOT NULL,"
    " actor TEXT NOT NULL,"
    " action TEXT NOT NULL,"
    " game BIGINT NOT NULL,"
    " detail TEXT NOT NULL);"
    "CREATE INDEX audit_by_scope ON audit(scope, id);"
    "CREATE TABLE requests("
    " id TEXT NOT NULL,"
    " \"user\" TEXT NOT NULL,"
    " time BIGINT NOT NULL,"
    " answer TEXT NOT NULL,"
    " CONSTRAINT requests_pkey PRIMARY KEY(id));"
    "CREATE INDEX requests_by_time ON requests(time);"
    "CREATE TABLE invites("
    " game BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,"
    " \"user\" TEXT NOT NULL,"
    " name TEXT NOT NULL,"
    " seat BIGINT NOT NULL,"
    " PRIMARY KEY(game, \"user\"));"
    "CREATE INDEX invites_by_user ON invites(\"user\");"
    "CREATE TABLE lines("
    " game BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,"
    " seq BIGINT NOT NULL,"
    " n BIGINT NOT NULL,"
    " seat BIGINT NOT NULL,"
    " text TEXT NOT NULL,"
    " PRIMARY KEY(game, seq, n));";

/* Migrations past the base schema: entry k brings a PostgreSQL database
 * from version PG_BASE_VERSION + k to the next, in the schema's
 * transaction. A schema change appends an entry here AND one to SQLite's
 * list (sto_sqlite.c); never edit a shipped entry. */
static const char *const pg_migrations[] = {
    /* 8: the messages kept up to date in place, by key (sto_kept_set). */
    "CREATE TABLE kept("
    " key TEXT PRIMARY KEY,"
    " channel TEXT NOT NULL,"
    " message TEXT NOT NULL,"
    " time BIGINT NOT NULL);"
    "CREATE INDEX kept_by_time ON kept(time);",
    /* 9: ratings and sides played (sto_rating_put, sto_side_add). */
    "CREATE TABLE ratings("
    " guild TEXT NOT NULL,"
    " ruleset TEXT NOT NULL,"
    " player TEXT NOT NULL,"
    " name TEXT NOT NULL,"
    " rating BIGINT NOT NULL,"
    " rd BIGINT NOT NULL,"
    " volatility BIGINT NOT NULL,"
    " games BIGINT NOT NULL,"
    " wins BIGINT NOT NULL,"
    " updated BIGINT NOT NULL,"
    " PRIMARY KEY(guild, player, ruleset));"
    "CREATE INDEX ratings_by_rank ON ratings(guild, ruleset, rating DESC, "
    "rd, games DESC, player);"
    "CREATE TABLE sides("
    " guild TEXT NOT NULL,"
    " ruleset TEXT NOT NULL,"
    " player TEXT NOT NULL,"
    " side TEXT NOT NULL,"
    " name TEXT NOT NULL,"
    " games BIGINT NOT NULL,"
    " PRIMARY KEY(guild, ruleset, player, side));",
    NULL};
#define PG_MIGRATION_COUNT                                                     \
  ((int)(sizeof pg_migrations / sizeof pg_migrations[0]) - 1)

_Static_assert(PG_BASE_VERSION + PG_MIGRATION_COUNT == STO_SCHEMA_VERSION,
               "each schema change needs its PostgreSQL migration");

/* The tables a database of the current version has. */
static const char *const pg_tables[] = {
    "games",    "seats",   "moves", "snapshots", "settings", "timers", "audit",
    "requests", "invites", "lines", "kept",      "ratings",  "sides",  NULL};

/* ---- the handle -------------------------------------------------------- */

typedef struct pg pg;

typedef struct pg_stmt {
  sto_stmt base;
  pg *db;
  st_id id;
  bool busy; /* handed out and not yet put back */
  const char *val[PG_PARAMS_MAX];
  char num[PG_PARAMS_MAX][24]; /* the text of integer parameters */
  PGresult *res;               /* the run's rows, once stepped */
  int row;                     /* the current row of res */
  int64_t changed;             /* rows the run changed */
} pg_stmt;

/* A statement as this engine runs it. */
typedef struct pg_sql {
  char *text;  /* with $N */
  int nparams; /* the highest N */
  Oid types[PG_PARAMS_MAX];
  bool write; /* counts in sto_changes and for the fault hook */
} pg_sql;

struct pg {
  sto base;
  PGconn *conn;
  char name[PG_NAME_MAX]; /* the URL without its password */
  bool prepared[ST_COUNT];
  pg_sql sql[ST_COUNT];
  pg_stmt st[ST_COUNT];
  int64_t changes;
};

static const sto_driver pg_driver;

/* The SQLSTATE of res and the errors of the layer it means. */
static sto_rc map_error(pg *db, const PGresult *res) {
  const char *state = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;

  if (PQstatus(db->conn) != CONNECTION_OK || !state)
    return STO_IO;
  if (strcmp(state, "23505") == 0) {
    /* A unique key: the moves' (game, seq) key means another move came
     * first; the request index and the requests' key a request already
     * applied; another primary key a row written twice. */
    const char *c = PQresultErrorField(res, PG_DIAG_CONSTRAINT_NAME);
    if (!c)
      return STO_DUPLICATE;
    if (strcmp(c, "moves_by_request") == 0 || strcmp(c, "requests_pkey") == 0)
      return STO_DUPLICATE;
    size_t n = strlen(c);
    if (n >= 5 && strcmp(c + n - 5, "_pkey") == 0)
      return STO_CONFLICT;
    return STO_DUPLICATE;
  }
  if (strcmp(state, "23503") == 0)
    return STO_NOT_FOUND; /* a foreign key: no such game */
  if (strcmp(state, "40001") == 0 || strcmp(state, "40P01") == 0 ||
      strcmp(state, "55P03") == 0 || strcmp(state, "57014") == 0)
    return STO_BUSY; /* serialization, deadlock, lock or statement timeout */
  if (strcmp(state, "25P02") == 0)
    return db->base.spoiled ? db->base.spoiled : STO_IO;
  if (strcmp(state, "53200") == 0)
    return STO_NOMEM;
  if (strcmp(state, "54000") == 0)
    return STO_TOO_BIG;
  if (strncmp(state, "23", 2) == 0 || strncmp(state, "22", 2) == 0)
    return STO_INVALID; /* another constraint, or a value it cannot take */
  return STO_IO;
}

/* The first line of the connection's last error, for err. */
static const char *conn_error(PGconn *c, char *buf, size_t cap) {
  const char *m = c ? PQerrorMessage(c) : "out of memory";
  snprintf(buf, cap, "%.*s", (int)strcspn(m, "\n"), m);
  return buf;
}

/* Rewrites the portable text (?N) for PostgreSQL ($N) into q. */
static sto_rc rewrite(const char *src, pg_sql *q) {
  size_t n = strlen(src);
  char *out = malloc(n + 1); /* ?N and $N are the same length */
  bool used[PG_PARAMS_MAX + 1] = {false};
  size_t o = 0;

  if (!out)
    return STO_NOMEM;
  q->nparams = 0;
  for (size_t i = 0; i < n; i++) {
    if (src[i] != '?') {
      out[o++] = src[i];
      continue;
    }
    int k = 0;
    out[o++] = '$';
    while (src[i + 1] >= '0' && src[i + 1] <= '9') {
      k = k * 10 + (src[i + 1] - '0');
      out[o++] = src[++i];
    }
    /* The list is this file's own: a malformed one is a bug. */
    if (k < 1 || k > PG_PARAMS_MAX) {
      free(out);
      return STO_INVALID;
    }
    used[k] = true;
    if (k > q->nparams)
      q->nparams = k;
  }
  out[o] = '\0';
  /* A parameter below the highest that the text never names (the status
   * filters' lists skip ?1) gets a type, or PostgreSQL refuses it. */
  for (int k = 1; k <= q->nparams; k++)
    q->types[k - 1] = used[k] ? 0 : PG_TEXT_OID;
  q->text = out;
  q->write = strncmp(src, "SELECT", 6) != 0 && strncmp(src, "ROLLBACK", 8);
  return STO_OK;
}

/* Makes the connection again after the server dropped it; the statements
 * are prepared anew on first use. Only ever outside a transaction. */
static bool reconnect(pg *db) {
  PQreset(db->conn);
  memset(db->prepared, 0, sizeof db->prepared);
  return PQstatus(db->conn) == CONNECTION_OK;
}

/* Runs statement id with parameters val; *out receives its result. */
static sto_rc run(pg *db, st_id id, const char *const *val, PGresult **out) {
  pg_sql *q = &db->sql[id];
  bool outside = db->base.depth == 0 && id != ST_COMMIT && id != ST_ROLLBACK;
  char name[16];
  PGresult *res;
  sto_rc r;

  *out = NULL;
  snprintf(name, sizeof name, "lair%d", (int)id);
  for (int attempt = 0;; attempt++) {
    if (PQstatus(db->conn) != CONNECTION_OK && (!outside || !reconnect(db)))
      return STO_IO;
    r = STO_OK;
    if (!db->prepared[id]) {
      res = PQprepare(db->conn, name, q->text, q->nparams, q->types);
      if (PQresultStatus(res) == PGRES_COMMAND_OK)
        db->prepared[id] = true;
      else
        r = map_error(db, res);
      PQclear(res);
    }
    if (!r) {
      res = PQexecPrepared(db->conn, name, q->nparams, val, NULL, NULL, 0);
      ExecStatusType st = PQresultStatus(res);
      if (st == PGRES_TUPLES_OK || st == PGRES_COMMAND_OK) {
        *out = res;
        return STO_OK;
      }
      r = map_error(db, res);
      PQclear(res);
    }
    /* A connection lost before a statement that changes nothing on its
     * own (a read outside a transaction, BEGIN) is made again and the
     * statement run once more; a write might have been done before the
     * connection went, so it fails. */
    if (attempt == 0 && outside && PQstatus(db->conn) != CONNECTION_OK &&
        (!q->write || id == ST_BEGIN))
      continue;
    return r;
  }
}

/* ---- the driver ------------------------------------------------------- */

static sto_rc pg_get(sto *base, st_id id, sto_stmt **out) {
  pg *db = (pg *)base;
  pg_stmt *s = &db->st[id];

  if (s->busy) {
    /* A list's callback runs the same statement again: a handle of its
     * own (the connection's prepared statement serves both). */
    if (!(s = calloc(1, sizeof *s))) {
      *out = NULL;
      return STO_NOMEM;
    }
    s->base.drv = &pg_driver;
    s->db = db;
    s->id = id;
  }
  s->busy = true;
  s->row = -1;
  *out = &s->base;
  return STO_OK;
}

static void pg_put(sto *base, st_id id, sto_stmt *st) {
  pg *db = (pg *)base;
  pg_stmt *s = (pg_stmt *)st;

  PQclear(s->res);
  s->res = NULL;
  if (s != &db->st[id]) {
    free(s);
    return;
  }
  memset(s->val, 0, sizeof s->val);
  s->busy = false;
  s->changed = 0;
}

static void pg_bind_i64(sto_stmt *st, int i, int64_t v) {
  pg_stmt *s = (pg_stmt *)st;
  if (i < 1 || i > PG_PARAMS_MAX)
    return;
  snprintf(s->num[i - 1], sizeof s->num[0], "%" PRId64, v);
  s->val[i - 1] = s->num[i - 1];
}

static void pg_bind_text(sto_stmt *st, int i, const char *text) {
  pg_stmt *s = (pg_stmt *)st;
  if (i >= 1 && i <= PG_PARAMS_MAX)
    s->val[i - 1] = text;
}

/* Parses the decimal text of a bigint, strictly. */
static bool parse_i64(const char *t, int64_t *out) {
  const char *d = t[0] == '-' ? t + 1 : t;
  char *end;
  long long v;

  if (*d < '0' || *d > '9')
    return false;
  errno = 0;
  v = strtoll(t, &end, 10);
  if (errno != 0 || *end != '\0')
    return false;
  *out = (int64_t)v;
  return true;
}

static sto_rc pg_step(sto_stmt *st) {
  pg_stmt *s = (pg_stmt *)st;
  pg *db = s->db;

  if (!s->res) {
    sto_rc r = run(db, s->id, s->val, &s->res);
    if (r) {
      /* PostgreSQL has aborted the transaction: nothing more of it can
       * be written or read. */
      return sto_spoil(&db->base, r);
    }
    s->row = 0;
    if (db->sql[s->id].write) {
      const char *n = PQcmdTuples(s->res);
      int64_t k = 0;
      if (n[0] && parse_i64(n, &k))
        s->changed = k;
      db->changes += s->changed;
#ifdef LAIR_FAULTS
      sto_fault_tick(&db->base);
#endif
    }
    if (s->id == ST_COMMIT && strcmp(PQcmdStatus(s->res), "COMMIT") != 0)
      return STO_IO; /* the server had aborted it: rolled back */
  } else if (s->row < PQntuples(s->res)) {
    s->row++;
  }
  return s->row < PQntuples(s->res) ? STO_ROW : STO_OK;
}

static int64_t pg_changes(sto_stmt *st) { return ((pg_stmt *)st)->changed; }

/* The value of column i of the current row, or NULL (a NULL, or no row). */
static const char *cell(pg_stmt *s, int i, int *len) {
  if (!s->res || s->row < 0 || s->row >= PQntuples(s->res) || i < 0 ||
      i >= PQnfields(s->res) || PQgetisnull(s->res, s->row, i))
    return NULL;
  *len = PQgetlength(s->res, s->row, i);
  return PQgetvalue(s->res, s->row, i);
}

static sto_rc pg_col_text(sto_stmt *st, int i, char *buf, size_t cap) {
  int n = 0;
  const char *t = cell((pg_stmt *)st, i, &n);

  if (!t || n < 0)
    return STO_CORRUPT;
  if ((size_t)n >= cap)
    return STO_TOO_BIG;
  memcpy(buf, t, (size_t)n);
  buf[n] = '\0';
  return STO_OK;
}

static sto_rc pg_col_i64(sto_stmt *st, int i, int64_t *out) {
  int n = 0;
  const char *t = cell((pg_stmt *)st, i, &n);
  return t && parse_i64(t, out) ? STO_OK : STO_CORRUPT;
}

static size_t pg_col_bytes(sto_stmt *st, int i) {
  int n = 0;
  return cell((pg_stmt *)st, i, &n) && n > 0 ? (size_t)n : 0;
}

static bool pg_tx_open(sto *base) {
  PGTransactionStatusType t = PQtransactionStatus(((pg *)base)->conn);
  return t == PQTRANS_INTRANS || t == PQTRANS_INERROR;
}

static int64_t pg_total_changes(sto *base) { return ((pg *)base)->changes; }

static void pg_close(sto *base) {
  pg *db = (pg *)base;
  for (int i = 0; i < ST_COUNT; i++) {
    PQclear(db->st[i].res);
    free(db->sql[i].text);
  }
  PQfinish(db->conn);
  free(db);
}

static const sto_driver pg_driver = {
    .name = "postgresql",
    .get = pg_get,
    .put = pg_put,
    .bind_i64 = pg_bind_i64,
    .bind_text = pg_bind_text,
    .step = pg_step,
    .changes = pg_changes,
    .col_text = pg_col_text,
    .col_i64 = pg_col_i64,
    .col_bytes = pg_col_bytes,
    .tx_open = pg_tx_open,
    .total_changes = pg_total_changes,
    .close = pg_close,
};

/* ---- opening ---------------------------------------------------------- */

static void quiet_notices(void *arg, const char *message) {
  (void)arg;
  (void)message;
}

/* Connects to url; err names the database by name (no password). */
static sto_rc connect_to(const char *url, const char *name, PGconn **out,
                         char *err, size_t cap) {
  char why[256];
  PGconn *c = PQconnectdb(url);

  *out = NULL;
  if (PQstatus(c) != CONNECTION_OK) {
    conn_error(c, why, sizeof why);
    sto_scrub(why, sizeof why, url);
    sto_set_err(err, cap, "%s: cannot connect: %s", name, why);
    PQfinish(c);
    return c ? STO_IO : STO_NOMEM;
  }
  PQsetNoticeProcessor(c, quiet_notices, NULL);
  *out = c;
  return STO_OK;
}

/* Runs sql (no parameters); on failure writes err and returns why. */
static sto_rc exec_sql(pg *db, PGconn *c, const char *sql, const char *what,
                       char *err, size_t cap, PGresult **rows) {
  PGresult *res = PQexec(c, sql);
  ExecStatusType st = PQresultStatus(res);

  if (rows)
    *rows = NULL;
  if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK) {
    if (rows)
      *rows = res;
    else
      PQclear(res);
    return STO_OK;
  }
  char why[256];
  const char *m = res ? PQresultErrorMessage(res) : "";
  snprintf(why, sizeof why, "%.*s", (int)strcspn(m, "\n"), m);
  sto_set_err(err, cap, "%s: %s: %s", db->name, what,
              why[0] ? why : conn_error(c, why, sizeof why));
  sto_rc r = map_error(db, res);
  PQclear(res);
  return r;
}

/* What the database holds of Lair's: *meta whether lair_meta is there
 * (then *version), *found how many of Lair's tables are. */
static sto_rc read_identity(pg *db, bool *meta, int64_t *version, int *found,
                            char *err, size_t cap) {
  char sql[512];
  size_t n = (size_t)snprintf(sql, sizeof sql,
                              "SELECT to_regclass('lair_meta') IS NOT NULL, "
                              "(SELECT count(*) FROM unnest(ARRAY[");
  for (int i = 0; pg_tables[i]; i++)
    n += (size_t)snprintf(sql + n, sizeof sql - n, "%s'%s'", i ? ", " : "",
                          pg_tables[i]);
  snprintf(sql + n, sizeof sql - n, "]) t WHERE to_regclass(t) IS NOT NULL)");
  PGresult *res;
  sto_rc r =
      exec_sql(db, db->conn, sql, "cannot read the schema", err, cap, &res);
  if (r)
    return r;
  int64_t k = 0;
  *meta = PQntuples(res) == 1 && strcmp(PQgetvalue(res, 0, 0), "t") == 0;
  if (PQntuples(res) != 1 || !parse_i64(PQgetvalue(res, 0, 1), &k)) {
    PQclear(res);
    sto_set_err(err, cap, "%s: cannot read the schema", db->name);
    return STO_IO;
  }
  *found = (int)k;
  PQclear(res);
  *version = 0;
  if (!*meta)
    return STO_OK;
  r = exec_sql(db, db->conn, "SELECT version FROM lair_meta WHERE id = 1",
               "cannot read the schema version", err, cap, &res);
  if (r)
    return r;
  bool ok = PQntuples(res) == 1 && !PQgetisnull(res, 0, 0) &&
            parse_i64(PQgetvalue(res, 0, 0), version);
  PQclear(res);
  if (!ok) {
    sto_set_err(err, cap, "%s: damaged: lair_meta holds no schema version",
                db->name);
    return STO_CORRUPT;
  }
  return STO_OK;
}

/* Judges what read_identity found; *fresh: the database holds nothing of
 * Lair's, so the schema is to be made. */
static sto_rc judge(pg *db, bool meta, int64_t version, int found, bool *fresh,
                    char *err, size_t cap) {
  int want = (int)(sizeof pg_tables / sizeof pg_tables[0]) - 1;

  *fresh = false;
  if (!meta && found > 0) {
    sto_set_err(err, cap,
                "%s: not a Lair database: it holds tables of Lair's names "
                "(games...) but no Lair schema version (lair_meta); it was "
                "left untouched",
                db->name);
    return STO_CORRUPT;
  }
  if (!meta) {
    *fresh = true;
    return STO_OK;
  }
  if (version > STO_SCHEMA_VERSION) {
    sto_set_err(err, cap,
                "%s: schema version %" PRId64 " is newer than this Lair's (%d)",
                db->name, version, STO_SCHEMA_VERSION);
    return STO_TOO_NEW;
  }
  if (version < PG_BASE_VERSION) {
    sto_set_err(err, cap, "%s: bad schema version %" PRId64, db->name, version);
    return STO_CORRUPT;
  }
  if (version == STO_SCHEMA_VERSION && found != want) {
    sto_set_err(err, cap, "%s: damaged: %d of Lair's %d tables are missing",
                db->name, want - found, want);
    return STO_CORRUPT;
  }
  return STO_OK;
}

/* Makes or migrates the schema in one transaction under an advisory lock
 * (a second process starting at once waits, then finds it made). */
static sto_rc schema(pg *db, char *err, size_t cap) {
  bool meta = false, fresh = false;
  int64_t version = 0;
  int found = 0;
  char sql[160];
  sto_rc r;

  snprintf(sql, sizeof sql, "BEGIN; SELECT pg_advisory_xact_lock(%d)",
           PG_SCHEMA_LOCK);
  if ((r = exec_sql(db, db->conn, sql, "cannot start the schema's transaction",
                    err, cap, NULL)))
    return r;
  r = read_identity(db, &meta, &version, &found, err, cap);
  if (!r)
    r = judge(db, meta, version, found, &fresh, err, cap);
  if (!r && fresh) {
    snprintf(sql, sizeof sql, "INSERT INTO lair_meta VALUES(1, %d)",
             PG_BASE_VERSION);
    if (!(r = exec_sql(db, db->conn, pg_schema, "cannot make the schema", err,
                       cap, NULL)))
      r = exec_sql(db, db->conn, sql, "cannot make the schema", err, cap, NULL);
    version = PG_BASE_VERSION;
    db->base.created = !r;
  }
  while (!r && version < STO_SCHEMA_VERSION) {
    char what[48];
    snprintf(what, sizeof what, "migration %" PRId64 " failed", version + 1);
    snprintf(sql, sizeof sql,
             "UPDATE lair_meta SET version = %" PRId64 " WHERE id = 1",
             version + 1);
    if (!(r = exec_sql(db, db->conn, pg_migrations[version - PG_BASE_VERSION],
                       what, err, cap, NULL)))
      r = exec_sql(db, db->conn, sql, what, err, cap, NULL);
    version++;
  }
  if (!r)
    r = exec_sql(db, db->conn, "COMMIT", "cannot end the schema's transaction",
                 err, cap, NULL);
  if (r) {
    PGresult *res = PQexec(db->conn, "ROLLBACK");
    PQclear(res);
    db->base.created = false;
  }
  return r;
}

/* A handle for url, not yet connected; NULL (err says so) when out of
 * memory. */
static pg *new_handle(const char *url, char *err, size_t cap) {
  pg *db = calloc(1, sizeof *db);
  if (!db) {
    sto_set_err(err, cap, "out of memory");
    return NULL;
  }
  db->base.drv = &pg_driver;
  sto_redact(url, db->name, sizeof db->name);
  return db;
}

sto_rc sto_pg_open(const char *url, sto **out, char *err, size_t cap) {
  pg *db = new_handle(url, err, cap);
  sto_rc r;

  if (!db)
    return STO_NOMEM;
  for (int i = 0; i < ST_COUNT; i++) {
    db->st[i].base.drv = &pg_driver;
    db->st[i].db = db;
    db->st[i].id = (st_id)i;
  }
  static const struct {
    st_id id;
    const char *sql;
  } own[] = {
#define PG_OWN(name, sql) {ST_##name, sql},
      PG_STATEMENTS(PG_OWN)
#undef PG_OWN
  };
  for (int i = 0; i < ST_COUNT; i++) {
    const char *text = sto_statement_sql[i];
    for (size_t k = 0; k < sizeof own / sizeof own[0]; k++)
      if (own[k].id == (st_id)i)
        text = own[k].sql;
    if ((r = rewrite(text, &db->sql[i]))) {
      sto_set_err(err, cap, "%s: cannot prepare a statement", db->name);
      goto fail;
    }
  }
  if ((r = connect_to(url, db->name, &db->conn, err, cap)) ||
      (r = schema(db, err, cap)))
    goto fail;
#ifdef LAIR_FAULTS
  sto_arm_faults(&db->base);
#endif
  *out = &db->base;
  return STO_OK;

fail:
  pg_close(&db->base);
  return r;
}

/* ---- the full check --------------------------------------------------- */

/* Runs sql and reports each row's first column as a problem. */
static sto_rc check_rows(pg *db, const char *sql,
                         void (*report)(void *ctx, const char *problem),
                         void *ctx, long *problems, char *err, size_t cap) {
  PGresult *res;
  sto_rc r = exec_sql(db, db->conn, sql, "the check stopped", err, cap, &res);
  if (r)
    return r;
  long n = PQntuples(res);
  for (long i = 0; i < n && i < STO_CHECK_REPORT_MAX; i++)
    report(ctx, PQgetisnull(res, (int)i, 0) ? "(no text)"
                                            : PQgetvalue(res, (int)i, 0));
  if (n > STO_CHECK_REPORT_MAX)
    report(ctx, "(more problems of this kind not shown)");
  *problems += n;
  PQclear(res);
  return STO_OK;
}

sto_rc sto_pg_check(const char *url,
                    void (*report)(void *ctx, const char *problem), void *ctx,
                    long *problems, char *err, size_t cap) {
  pg *db = new_handle(url, err, cap);
  bool meta = false, fresh = false;
  int64_t version = 0;
  int found = 0;
  sto_rc r;

  if (!db)
    return STO_NOMEM;
  if ((r = connect_to(url, db->name, &db->conn, err, cap)))
    goto done;
  /* Read-only, in one snapshot of the database. */
  if ((r = exec_sql(db, db->conn,
                    "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY",
                    "cannot start the check", err, cap, NULL)))
    goto done;
  if ((r = read_identity(db, &meta, &version, &found, err, cap)))
    goto done;
  r = judge(db, meta, version, found, &fresh, err, cap);
  if (r == STO_CORRUPT || fresh) {
    /* Start-up would refuse it (or find nothing to check): that is the
     * finding. */
    report(ctx, fresh ? "not a Lair database: no Lair schema in it" : err);
    ++*problems;
    r = STO_OK;
    goto done;
  }
  if (r)
    goto done;
  for (size_t i = 0; !r && i < sto_check_rule_count; i++)
    r = check_rows(db, sto_check_rules[i], report, ctx, problems, err, cap);
  for (size_t i = 0; !r && i < sto_check_since_count; i++)
    if (version >= sto_check_since[i].since)
      r = check_rows(db, sto_check_since[i].sql, report, ctx, problems, err,
                     cap);
done:
  pg_close(&db->base);
  return r;
}
