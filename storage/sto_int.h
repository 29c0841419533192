/*
 * sto_int.h: inside storage, shared by its files: the statements (one
 * X-macro list of portable SQL, prepared once per connection), the handle,
 * and the driver layer between the row code and the two engines. Not for
 * other layers.
 *
 * sto.c holds what both backends share: opening by name, errors,
 * transactions, the row checks; sto_sqlite.c and sto_pg.c are the engines
 * (each a sto_driver). sto_games.c holds games, seats, invitations,
 * moves, remembered requests and snapshots; sto_timers.c timers;
 * sto_settings.c settings and the audit log. Those three are written once,
 * against the statement handle below (bind, step, read columns).
 */
#ifndef LAIR_STO_INT_H
#define LAIR_STO_INT_H

#include "sto.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- statements ------------------------------------------------------- */

#define GAME_COLUMNS                                                           \
  "id, ruleset, ruleset_version, config, seed, guild, channel, creator, "      \
  "status, created, updated, moves, ai_due, version"

#define RATING_COLUMNS                                                         \
  "guild, ruleset, player, name, rating, rd, volatility, games, wins, "        \
  "updated"

/* Every write to a game's row, seats, invitations or moves advances its
 * version (sto_game.version): the statements that update the row do it
 * themselves, the others are followed by GAME_TOUCH. */
/* The status filter of the game lists binds one parameter per status
 * (?2..?5); an unwanted status is bound to -1, which matches nothing. */
#define STATEMENTS(X)                                                          \
  X(BEGIN, "BEGIN IMMEDIATE")                                                  \
  X(COMMIT, "COMMIT")                                                          \
  X(ROLLBACK, "ROLLBACK")                                                      \
  X(GAME_INSERT,                                                               \
    "INSERT INTO games(ruleset, ruleset_version, config, seed, guild, "        \
    "channel, creator, status, created, updated) "                             \
    "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10) RETURNING id")            \
  X(GAME_GET, "SELECT " GAME_COLUMNS " FROM games WHERE id = ?1")              \
  X(GAME_SET_STATUS, "UPDATE games SET status = ?2, updated = ?3, "            \
                     "version = version + 1 "                                  \
                     "WHERE id = ?1")                                          \
  X(GAME_SET_CONFIG, "UPDATE games SET config = ?2, seed = ?3, updated = ?4, " \
                     "version = version + 1 "                                  \
                     "WHERE id = ?1")                                          \
  X(GAME_LIST_CHANNEL, "SELECT " GAME_COLUMNS " FROM games "                   \
                       "WHERE channel = ?1 AND status IN (?2, ?3, ?4, ?5) "    \
                       "ORDER BY id DESC")                                     \
  X(GAME_LIST_ALL, "SELECT " GAME_COLUMNS " FROM games "                       \
                   "WHERE status IN (?2, ?3, ?4, ?5) ORDER BY id DESC")        \
  X(GAME_LIST_AI_DUE, "SELECT " GAME_COLUMNS " FROM games "                    \
                      "WHERE ai_due = 1 AND status IN (?2, ?3, ?4, ?5) "       \
                      "ORDER BY id")                                           \
  X(GAME_SET_AI_DUE, "UPDATE games SET ai_due = ?2, version = version + 1 "    \
                     "WHERE id = ?1")                                          \
  X(GAME_COUNT_CHANNEL, "SELECT COUNT(*) FROM games "                          \
                        "WHERE channel = ?1 AND status IN (?2, ?3, ?4, ?5)")   \
  X(GAME_COUNT_USER,                                                           \
    "SELECT COUNT(*) FROM games "                                              \
    "WHERE id IN (SELECT game FROM seats WHERE \"user\" = ?1) "                \
    "AND status IN (?2, ?3, ?4, ?5)")                                          \
  X(GAME_PICK_CHANNEL,                                                         \
    "SELECT id, CASE WHEN EXISTS(SELECT 1 FROM seats WHERE game = games.id "   \
    "AND \"user\" = ?6) OR EXISTS(SELECT 1 FROM invites WHERE game = "         \
    "games.id AND \"user\" = ?6) THEN 2 ELSE 0 END + CASE WHEN status "        \
    "IN (0, 1) THEN 1 ELSE 0 END AS rank FROM games "                          \
    "WHERE channel = ?1 AND status IN (?2, ?3, ?4, ?5) "                       \
    "ORDER BY rank DESC, id DESC LIMIT 2")                                     \
  X(GAME_PICK_USER,                                                            \
    "SELECT id, 2 + CASE WHEN status IN (0, 1) THEN 1 ELSE 0 END AS rank "     \
    "FROM games "                                                              \
    "WHERE id IN (SELECT game FROM seats WHERE \"user\" = ?6 "                 \
    "UNION SELECT game FROM invites WHERE \"user\" = ?6) "                     \
    "AND status IN (?2, ?3, ?4, ?5) ORDER BY rank DESC, id DESC LIMIT 2")      \
  X(REQUEST_PUT, "INSERT INTO requests(id, \"user\", time, answer) "           \
                 "VALUES(?1, ?2, ?3, ?4)")                                     \
  X(REQUEST_ANSWER, "SELECT \"user\", answer FROM requests WHERE id = ?1")     \
  X(REQUEST_PRUNE, "DELETE FROM requests WHERE time < ?1")                     \
  X(GAME_LIST_GUILD, "SELECT " GAME_COLUMNS " FROM games "                     \
                     "WHERE guild = ?1 AND status IN (?2, ?3, ?4, ?5) "        \
                     "ORDER BY id DESC")                                       \
  X(GAME_LIST_USER,                                                            \
    "SELECT " GAME_COLUMNS " FROM games "                                      \
    "WHERE id IN (SELECT game FROM seats WHERE \"user\" = ?1) "                \
    "AND status IN (?2, ?3, ?4, ?5) ORDER BY id DESC")                         \
  X(GAME_MOVES, "SELECT moves FROM games WHERE id = ?1")                       \
  X(GAME_BUMP, "UPDATE games SET moves = moves + 1, updated = ?2, "            \
               "version = version + 1 "                                        \
               "WHERE id = ?1")                                                \
  X(SEAT_SET,                                                                  \
    "INSERT INTO seats(game, seat, \"user\", name) "                           \
    "VALUES(?1, ?2, ?3, ?4) ON CONFLICT(game, seat) "                          \
    "DO UPDATE SET \"user\" = excluded.\"user\", name = excluded.name")        \
  X(SEAT_REMOVE, "DELETE FROM seats WHERE game = ?1 AND seat = ?2")            \
  X(SEAT_LIST, "SELECT seat, \"user\", name FROM seats WHERE game = ?1 "       \
               "ORDER BY seat")                                                \
  X(INVITE_SET, "INSERT INTO invites(game, \"user\", name, seat) "             \
                "VALUES(?1, ?2, ?3, ?4) ON CONFLICT(game, \"user\") "          \
                "DO UPDATE SET name = excluded.name, seat = excluded.seat")    \
  X(INVITE_REMOVE, "DELETE FROM invites WHERE game = ?1 AND \"user\" = ?2")    \
  X(INVITE_LIST, "SELECT seat, \"user\", name FROM invites WHERE game = ?1 "   \
                 "ORDER BY seat, \"user\"")                                    \
  X(MOVE_INSERT,                                                               \
    "INSERT INTO moves(game, seq, seat, kind, turn, revealed, option, "        \
    "request, time) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)")               \
  X(MOVE_LIST, "SELECT seq, seat, kind, turn, revealed, option, request, "     \
               "time FROM moves WHERE game = ?1 AND seq >= ?2 ORDER BY seq")   \
  X(REQUEST_GET, "SELECT game, seq FROM moves WHERE request = ?1")             \
  X(LINE_ADD, "INSERT INTO lines(game, seq, n, seat, text) "                   \
              "VALUES(?1, ?2, ?3, ?4, ?5)")                                    \
  X(LINE_LIST, "SELECT l.seq, l.n, l.seat, l.text, m.seat, m.turn, m.time, "   \
               "m.request FROM lines l JOIN moves m ON m.game = l.game AND "   \
               "m.seq = l.seq WHERE l.game = ?1 AND m.turn >= ?2 AND "         \
               "m.turn <= ?3 AND (l.seat = -1 OR l.seat = ?4) "                \
               "ORDER BY l.seq, l.n")                                          \
  X(SNAPSHOT_PUT, "INSERT INTO snapshots(game, seq, state) "                   \
                  "VALUES(?1, ?2, ?3) ON CONFLICT(game) DO UPDATE "            \
                  "SET seq = excluded.seq, state = excluded.state "            \
                  "WHERE excluded.seq >= snapshots.seq")                       \
  X(SNAPSHOT_GET, "SELECT seq, state FROM snapshots WHERE game = ?1")          \
  X(TIMER_SET, "INSERT INTO timers(game, kind, seat, due, data, turn) "        \
               "VALUES(?1, ?2, ?3, ?4, ?5, ?6) "                               \
               "ON CONFLICT(game, kind, seat) DO UPDATE SET "                  \
               "due = excluded.due, data = excluded.data, "                    \
               "turn = excluded.turn")                                         \
  X(TIMER_CLEAR, "DELETE FROM timers WHERE game = ?1 AND kind = ?2 AND "       \
                 "(seat = ?3 OR ?3 < 0)")                                      \
  X(TIMER_CLEAR_GAME, "DELETE FROM timers WHERE game = ?1")                    \
  X(TIMER_NEXT, "SELECT game, kind, seat, due, data, turn FROM timers "        \
                "WHERE due <= ?1 ORDER BY due, game, kind, seat LIMIT 1")      \
  X(TIMER_GET, "SELECT game, kind, seat, due, data, turn FROM timers "         \
               "WHERE game = ?1 AND kind = ?2 AND seat = ?3")                  \
  X(GAME_TOUCH, "UPDATE games SET version = version + 1 WHERE id = ?1")        \
  X(GAME_LOCK, "SELECT version FROM games WHERE id = ?1")                      \
  X(TIMER_TAKE, "DELETE FROM timers WHERE (game, kind, seat) IN "              \
                "(SELECT game, kind, seat FROM timers WHERE due <= ?1 "        \
                "ORDER BY due, game, kind, seat LIMIT 1) "                     \
                "RETURNING game, kind, seat, due, data, turn")                 \
  X(TIMER_CLAIM, "DELETE FROM timers WHERE game = ?1 AND kind = ?2 AND "       \
                 "seat = ?3 AND due = ?4")                                     \
  X(AUDIT_ADD, "INSERT INTO audit(scope, time, actor, action, game, detail) "  \
               "VALUES(?1, ?2, ?3, ?4, ?5, ?6)")                               \
  X(AUDIT_LIST, "SELECT time, actor, action, game, detail FROM audit "         \
                "WHERE scope = ?1 ORDER BY id DESC LIMIT ?2")                  \
  X(SETTING_GET, "SELECT value FROM settings WHERE scope = ?1 AND key = ?2")   \
  X(SETTING_SET, "INSERT INTO settings(scope, key, value) "                    \
                 "VALUES(?1, ?2, ?3) ON CONFLICT(scope, key) "                 \
                 "DO UPDATE SET value = excluded.value")                       \
  X(KEPT_SET, "INSERT INTO kept(key, channel, message, time) "                 \
              "VALUES(?1, ?2, ?3, ?4) ON CONFLICT(key) DO UPDATE SET "         \
              "channel = excluded.channel, message = excluded.message, "       \
              "time = excluded.time")                                          \
  X(KEPT_GET, "SELECT channel, message FROM kept WHERE key = ?1")              \
  X(KEPT_PRUNE, "DELETE FROM kept WHERE time < ?1")                            \
  X(RATING_GET, "SELECT " RATING_COLUMNS " FROM ratings WHERE guild = ?1 "     \
                "AND ruleset = ?2 AND player = ?3")                            \
  X(RATING_PUT,                                                                \
    "INSERT INTO ratings(" RATING_COLUMNS ") "                                 \
    "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10) "                         \
    "ON CONFLICT(guild, player, ruleset) DO UPDATE SET "                       \
    "name = excluded.name, rating = excluded.rating, rd = excluded.rd, "       \
    "volatility = excluded.volatility, games = excluded.games, "               \
    "wins = excluded.wins, updated = excluded.updated")                        \
  X(RATING_LIST_PLAYER, "SELECT " RATING_COLUMNS " FROM ratings "              \
                        "WHERE guild = ?1 AND player = ?2 ORDER BY ruleset")   \
  X(RATING_TOP, "SELECT " RATING_COLUMNS " FROM ratings "                      \
                "WHERE guild = ?1 AND ruleset = ?2 AND rd < ?3 "               \
                "ORDER BY rating DESC, rd, games DESC, player LIMIT ?4")       \
  X(RATING_COUNT, "SELECT COUNT(*) FROM ratings WHERE guild = ?1 AND "         \
                  "ruleset = ?2")                                              \
  X(SIDE_ADD, "INSERT INTO sides(guild, ruleset, player, side, name, games) "  \
              "VALUES(?1, ?2, ?3, ?4, ?5, 1) "                                 \
              "ON CONFLICT(guild, ruleset, player, side) "                     \
              "DO UPDATE SET games = sides.games + 1, name = excluded.name")   \
  X(SIDE_TOP,                                                                  \
    "SELECT side, name, games FROM sides WHERE guild = ?1 AND "                \
    "ruleset = ?2 AND player = ?3 ORDER BY games DESC, side LIMIT 1")

/* Where PostgreSQL's dialect must differ (sto_pg.c): the
 * same name, its own text. GAME_LOCK holds the row against
 * other writers until the transaction ends (SQLite's BEGIN
 * IMMEDIATE already holds the whole file); TIMER_TAKE
 * skips the timers another open transaction holds, so that
 * two processes never take the same one. */
#define PG_STATEMENTS(X)                                                       \
  X(BEGIN, "BEGIN")                                                            \
  X(GAME_LOCK, "SELECT version FROM games WHERE id = ?1 FOR UPDATE")           \
  X(TIMER_TAKE, "DELETE FROM timers WHERE (game, kind, seat) IN "              \
                "(SELECT game, kind, seat FROM timers WHERE due <= ?1 "        \
                "ORDER BY due, game, kind, seat LIMIT 1 "                      \
                "FOR UPDATE SKIP LOCKED) "                                     \
                "RETURNING game, kind, seat, due, data, turn")

/* The schema version this build writes, on both engines.
 */
#define STO_SCHEMA_VERSION 9

typedef enum {
#define ST_ENUM(name, sql) ST_##name,
  STATEMENTS(ST_ENUM)
#undef ST_ENUM
      ST_COUNT
} st_id;

/* The portable text of each statement (sto.c). */
extern const char *const sto_statement_sql[ST_COUNT];

/* ---- the driver layer
 * ------------------------------------------------- */

/* sto_step's result beside the layer's errors: a row is
 * ready to read. STO_OK means the statement is done (no
 * more rows). */
#define STO_ROW ((sto_rc)STO_RC_COUNT)

typedef struct sto_driver sto_driver;

/* A statement being run: each backend's handle starts with
 * this. */
typedef struct sto_stmt {
  const sto_driver *drv;
} sto_stmt;

/* What an engine provides. A statement handle comes from
 * get and goes back through put; in between it is bound
 * (parameters numbered from 1, text not copied: it must
 * outlive the step), stepped and read. */
struct sto_driver {
  const char *name; /* sto_backend's answer */
  /* Hands out statement id ready to bind: the connection's
   * own handle, or a private one when that is still being
   * read (a list whose callback calls back into storage).
   */
  sto_rc (*get)(sto *db, st_id id, sto_stmt **out);
  /* Takes back a handle from get: bindings and results are
   * dropped. */
  void (*put)(sto *db, st_id id, sto_stmt *s);
  void (*bind_i64)(sto_stmt *s, int i, int64_t v);
  void (*bind_text)(sto_stmt *s, int i, const char *text);
  /* Runs the statement (first call) or moves to its next
   * row: STO_ROW, STO_OK when done, or the failure. */
  sto_rc (*step)(sto_stmt *s);
  /* Rows changed by the statement's run. */
  int64_t (*changes)(sto_stmt *s);
  /* Column readers of the current row (see sto_col_text).
   */
  sto_rc (*col_text)(sto_stmt *s, int i, char *buf, size_t cap);
  sto_rc (*col_i64)(sto_stmt *s, int i, int64_t *out);
  /* The length in bytes of text column i (0 for a NULL).
   */
  size_t (*col_bytes)(sto_stmt *s, int i);
  /* Whether the engine still holds the transaction
   * sto_tx_begin opened (it may have ended it itself after
   * an error). */
  bool (*tx_open)(sto *db);
  /* Rows changed through db since it was opened. */
  int64_t (*total_changes)(sto *db);
  /* Closes the connection and frees db. */
  void (*close)(sto *db);
};

/* The part of a handle both backends share; each engine's
 * handle starts with it. */
struct sto {
  const sto_driver *drv;
  bool created;   /* sto_open made the database */
  int depth;      /* sto_tx_begin calls not yet ended */
  sto_rc spoiled; /* the first failed write of the open
                     transaction */
#ifdef LAIR_FAULTS
  long faults_left; /* writes until the process kills
                       itself; 0: never */
#endif
};

/* The engines' entry points (sto_open and sto_check choose
 * by name). */
sto_rc sto_sqlite_open(const char *path, sto **out, char *err, size_t cap);
sto_rc sto_sqlite_check(const char *path,
                        void (*report)(void *ctx, const char *problem),
                        void *ctx, long *problems, char *err, size_t cap);
sto_rc sto_pg_open(const char *url, sto **out, char *err, size_t cap);
sto_rc sto_pg_check(const char *url,
                    void (*report)(void *ctx, const char *problem), void *ctx,
                    long *problems, char *err, size_t cap);

#ifdef LAIR_FAULTS
/* Fault injection for the crash tests (built with
 * -DLAIR_FAULTS only): with LAIR_FAULT_AFTER=N in the
 * environment the process kills itself with SIGKILL right
 * after its Nth statement that writes or ends a
 * transaction, as a `kill -9` at that moment would.
 * sto_arm_faults reads N into db (returns whether it is
 * set); the engines call sto_fault_tick after each such
 * statement. */
bool sto_arm_faults(sto *db);
void sto_fault_tick(sto *db);
#endif

/* Lair's own rules on its rows, each a query whose rows
 * are problems (one text column), in SQL both engines run;
 * sto_check_since's apply from a schema version on
 * (sto.c). */
extern const char *const sto_check_rules[];
extern const size_t sto_check_rule_count;
typedef struct sto_check_since_rule {
  int since;
  const char *sql;
} sto_check_since_rule;
extern const sto_check_since_rule sto_check_since[];
extern const size_t sto_check_since_count;
#define STO_CHECK_REPORT_MAX 100 /* lines per check; the rest are counted */

/* Replaces in text (cap bytes, at most 1024) every copy of a password
 * that url holds (see sto_redact) by ***: for messages that may quote the
 * URL, such as libpq's about a malformed one. */
void sto_scrub(char *text, size_t cap, const char *url);
/* Writes a one-line explanation into err (if not NULL). */
void sto_set_err(char *err, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* ---- statement helpers (sto.c)
 * ---------------------------------------- */

static inline sto_rc sto_stmt_get(sto *db, st_id id, sto_stmt **out) {
  return db->drv->get(db, id, out);
}
static inline void sto_stmt_put(sto *db, st_id id, sto_stmt *s) {
  if (s)
    db->drv->put(db, id, s);
}
static inline void sto_bind_i64(sto_stmt *s, int i, int64_t v) {
  s->drv->bind_i64(s, i, v);
}
/* Binds text (not copied: it must outlive the step). */
static inline void sto_bind_text(sto_stmt *s, int i, const char *text) {
  s->drv->bind_text(s, i, text);
}
/* STO_ROW, STO_OK when done, or the failure. */
static inline sto_rc sto_step(sto_stmt *s) { return s->drv->step(s); }
static inline int64_t sto_stmt_changes(sto_stmt *s) {
  return s->drv->changes(s);
}
/* Column readers: STO_TOO_BIG rather than truncating,
 * STO_CORRUPT for a NULL or a value of the wrong kind. */
static inline sto_rc sto_col_text(sto_stmt *s, int i, char *buf, size_t cap) {
  return s->drv->col_text(s, i, buf, cap);
}
static inline sto_rc sto_col_i64(sto_stmt *s, int i, int64_t *out) {
  return s->drv->col_i64(s, i, out);
}
static inline size_t sto_col_bytes(sto_stmt *s, int i) {
  return s->drv->col_bytes(s, i);
}
sto_rc sto_col_int(sto_stmt *s, int i, int *out);

/* Runs statement id that takes no parameters and returns
 * no rows. */
sto_rc sto_exec_st(sto *db, st_id id);
/* Notes a failed write inside a transaction (it will be
 * rolled back); returns r. */
sto_rc sto_spoil(sto *db, sto_rc r);
/* Runs a write statement to its end; inside a spoiled
 * transaction writes nothing and returns the first
 * failure. */
sto_rc sto_step_write(sto *db, sto_stmt *s);
/* Runs write statement id whose one parameter (?1) is v; inside a
 * transaction a failure spoils it. */
sto_rc sto_write_i64(sto *db, st_id id, int64_t v);
/* Whether s is a NUL-terminated string within a buffer of
 * size cap. */
bool sto_fits(const char *s, size_t cap);

#endif
