/*
 * sto.c: what storage/sto.h's two backends share: choosing the engine by
 * the database's name, the layer's errors, the statement helpers the row
 * code calls, transactions (nesting and spoiling are the same on both
 * engines), and Lair's own checks on its rows. The engines are
 * sto_sqlite.c and sto_pg.c (a sto_driver each, sto_int.h); the rows live
 * in sto_games.c, sto_timers.c and sto_settings.c.
 */
#include "sto_int.h"

#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const sto_statement_sql[ST_COUNT] = {
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

void sto_set_err(char *err, size_t cap, const char *fmt, ...) {
  va_list ap;

  if (!err || cap == 0)
    return;
  va_start(ap, fmt);
  vsnprintf(err, cap, fmt, ap);
  va_end(ap);
}

/* ---- choosing the engine ---------------------------------------------- */

bool sto_is_url(const char *path) {
  return path && (strncmp(path, "postgresql://", 13) == 0 ||
                  strncmp(path, "postgres://", 11) == 0);
}

/* Appends n bytes of src to out (cap with the NUL) at *len, cutting. */
static void put_bytes(char *out, size_t cap, size_t *len, const char *src,
                      size_t n) {
  if (*len + 1 >= cap)
    return;
  if (n > cap - 1 - *len)
    n = cap - 1 - *len;
  memcpy(out + *len, src, n);
  *len += n;
  out[*len] = '\0';
}

/* Finds the secrets of url: the userinfo's password, everything between
 * its first ':' and the last '@' before the query (a password may hold an
 * unescaped '@' or '/': hiding too much is harmless, showing any of it is
 * not), and the value of each `password` parameter of the query, up to
 * the next '&'. Calls fn with each (start, length) in order. */
static void find_secrets(const char *url,
                         void (*fn)(void *ctx, const char *at, size_t n),
                         void *ctx) {
  const char *auth = strstr(url, "://") + 3;
  const char *query = auth + strcspn(auth, "?#");
  const char *at = NULL;
  for (const char *p = auth; p < query; p++)
    if (*p == '@')
      at = p;
  const char *colon = at ? memchr(auth, ':', (size_t)(at - auth)) : NULL;
  if (colon)
    fn(ctx, colon + 1, (size_t)(at - colon - 1));
  for (const char *p = query; *p && *p != '#'; p += 1 + strcspn(p + 1, "&#"))
    if (strncmp(p + 1, "password=", 9) == 0)
      fn(ctx, p + 10, strcspn(p + 10, "&#"));
}

typedef struct redaction {
  const char *path, *from; /* the URL, and how far it was copied */
  char *out;
  size_t cap, len;
} redaction;

static void hide_secret(void *ctx, const char *at, size_t n) {
  redaction *x = ctx;
  put_bytes(x->out, x->cap, &x->len, x->from, (size_t)(at - x->from));
  put_bytes(x->out, x->cap, &x->len, "***", 3);
  x->from = at + n;
}

void sto_redact(const char *path, char *out, size_t cap) {
  redaction x = {path, path, out, cap, 0};

  if (!out || cap == 0)
    return;
  out[0] = '\0';
  if (!path)
    return;
  if (sto_is_url(path))
    find_secrets(path, hide_secret, &x);
  put_bytes(out, cap, &x.len, x.from, strlen(x.from));
}

/* Replaces every copy of the secret at..n in text (cap bytes) by ***. */
typedef struct scrub {
  char *text;
  size_t cap;
} scrub;

static void scrub_secret(void *ctx, const char *at, size_t n) {
  scrub *x = ctx;
  char buf[1024];
  size_t len = 0;
  const char *p = x->text, *hit;

  if (n == 0 || x->cap > sizeof buf)
    return;
  char secret[512];
  if (n >= sizeof secret)
    n = sizeof secret - 1;
  memcpy(secret, at, n);
  secret[n] = '\0';
  buf[0] = '\0';
  while ((hit = strstr(p, secret))) {
    put_bytes(buf, x->cap, &len, p, (size_t)(hit - p));
    put_bytes(buf, x->cap, &len, "***", 3);
    p = hit + n;
  }
  put_bytes(buf, x->cap, &len, p, strlen(p));
  memcpy(x->text, buf, len + 1);
}

void sto_scrub(char *text, size_t cap, const char *url) {
  scrub x = {text, cap};
  if (text && cap && sto_is_url(url))
    find_secrets(url, scrub_secret, &x);
}

sto_rc sto_open(const char *path, sto **out, char *err, size_t cap) {
  if (err && cap)
    err[0] = '\0';
  if (!out)
    return STO_INVALID;
  *out = NULL;
  if (sto_is_url(path))
    return sto_pg_open(path, out, err, cap);
  return sto_sqlite_open(path, out, err, cap);
}

sto_rc sto_check(const char *path,
                 void (*report)(void *ctx, const char *problem), void *ctx,
                 long *problems, char *err, size_t cap) {
  *problems = 0;
  if (err && cap)
    err[0] = '\0';
  if (sto_is_url(path))
    return sto_pg_check(path, report, ctx, problems, err, cap);
  return sto_sqlite_check(path, report, ctx, problems, err, cap);
}

void sto_close(sto *db) {
  if (db)
    db->drv->close(db);
}

bool sto_created(const sto *db) { return db && db->created; }

const char *sto_backend(const sto *db) { return db ? db->drv->name : ""; }

#ifdef LAIR_FAULTS
bool sto_arm_faults(sto *db) {
  const char *v = getenv("LAIR_FAULT_AFTER");
  char *end;
  long n = v ? strtol(v, &end, 10) : 0;
  if (!v || !*v || *end || n <= 0)
    return false;
  db->faults_left = n;
  return true;
}

void sto_fault_tick(sto *db) {
  if (db->faults_left > 0 && --db->faults_left == 0)
    raise(SIGKILL);
}
#endif

/* ---- the row checks ----------------------------------------------------- */

const char *const sto_check_rules[] = {
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
const size_t sto_check_rule_count =
    sizeof sto_check_rules / sizeof sto_check_rules[0];

const sto_check_since_rule sto_check_since[] = {
    {5, "SELECT 'game ' || i.game || ': ' || i.\"user\" || ' is still "
        "invited though the game started' FROM invites i JOIN games g ON "
        "g.id = i.game WHERE g.status IN (1, 2)"},
};
const size_t sto_check_since_count =
    sizeof sto_check_since / sizeof sto_check_since[0];

/* ---- statement helpers ------------------------------------------------ */

sto_rc sto_exec_st(sto *db, st_id id) {
  sto_stmt *s;
  sto_rc r = sto_stmt_get(db, id, &s);
  if (r)
    return r;
  r = sto_step(s);
  if (r == STO_ROW)
    r = STO_OK;
  sto_stmt_put(db, id, s);
  return r;
}

/* Notes a failed write inside a transaction (sto_tx_begin) and returns
 * r: the transaction is spoiled and will be rolled back whatever its
 * caller asks, so that no command commits half its writes because one
 * of them failed unnoticed. */
sto_rc sto_write_i64(sto *db, st_id id, int64_t v) {
  sto_stmt *s;
  sto_rc r;

  if ((r = sto_stmt_get(db, id, &s)))
    return sto_spoil(db, r);
  sto_bind_i64(s, 1, v);
  r = sto_step_write(db, s);
  sto_stmt_put(db, id, s);
  return sto_spoil(db, r);
}

sto_rc sto_spoil(sto *db, sto_rc r) {
  if (r && db && db->depth > 0 && !db->spoiled)
    db->spoiled = r;
  return r;
}

/* Runs a write statement. Inside a spoiled transaction it writes nothing:
 * the engine may have ended the transaction already (SQLite after an I/O
 * error or a full disk, PostgreSQL after any error) and would then run
 * each later write on its own. */
sto_rc sto_step_write(sto *db, sto_stmt *s) {
  if (db->depth > 0 && db->spoiled)
    return db->spoiled;
  sto_rc r = sto_step(s);
  if (r == STO_ROW)
    r = STO_OK;
  return sto_spoil(db, r);
}

bool sto_fits(const char *s, size_t cap) { return strnlen(s, cap) < cap; }

sto_rc sto_col_int(sto_stmt *s, int i, int *out) {
  int64_t v;
  sto_rc r = sto_col_i64(s, i, &v);
  if (r)
    return r;
  if (v < INT_MIN || v > INT_MAX)
    return STO_CORRUPT;
  *out = (int)v;
  return STO_OK;
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
  if (!r && db->drv->tx_open(db))
    r = sto_exec_st(db, ST_COMMIT);
  else if (!r)
    r = STO_IO; /* the engine ended the transaction itself: nothing kept */
  if (r && db->drv->tx_open(db))
    (void)sto_exec_st(db, ST_ROLLBACK);
  db->spoiled = STO_OK;
  return commit ? r : STO_OK;
}

int64_t sto_changes(sto *db) { return db ? db->drv->total_changes(db) : 0; }

bool sto_in_tx(sto *db) { return db && db->depth > 0; }
