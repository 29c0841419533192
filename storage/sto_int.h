/*
 * sto_int.h: inside storage, shared by its files: the prepared statements
 * (one X-macro list, prepared once at open), the handle, and the helpers
 * that bind, step and read them. Not for other layers.
 *
 * sto.c opens and migrates the file and runs transactions; sto_games.c
 * holds games, seats, invitations, moves, remembered requests and
 * snapshots;
 * sto_timers.c timers; sto_settings.c settings and the audit log.
 */
#ifndef LAIR_STO_INT_H
#define LAIR_STO_INT_H

#include "sto.h"

#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>

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
    "SELECT id, (EXISTS(SELECT 1 FROM seats WHERE game = games.id AND "        \
    "user = ?6) OR EXISTS(SELECT 1 FROM invites WHERE game = games.id "        \
    "AND user = ?6)) * 2 + (status IN (0, 1)) AS rank FROM games "             \
    "WHERE channel = ?1 AND status IN (?2, ?3, ?4, ?5) "                       \
    "ORDER BY rank DESC, id DESC LIMIT 2")                                     \
  X(GAME_PICK_USER,                                                            \
    "SELECT id, 2 + (status IN (0, 1)) AS rank FROM games "                    \
    "WHERE id IN (SELECT game FROM seats WHERE user = ?6 "                     \
    "UNION SELECT game FROM invites WHERE user = ?6) "                         \
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
  X(INVITE_SET, "INSERT INTO invites(game, user, name, seat) "                 \
                "VALUES(?1, ?2, ?3, ?4) ON CONFLICT(game, user) "              \
                "DO UPDATE SET name = excluded.name, seat = excluded.seat")    \
  X(INVITE_REMOVE, "DELETE FROM invites WHERE game = ?1 AND user = ?2")        \
  X(INVITE_LIST, "SELECT seat, user, name FROM invites WHERE game = ?1 "       \
                 "ORDER BY seat, user")                                        \
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

struct sto {
  sqlite3 *db;
  sqlite3_stmt *st[ST_COUNT];
  bool created;   /* sto_open made the file (none was there) */
  int depth;      /* sto_tx_begin calls not yet ended */
  sto_rc spoiled; /* the first failed write of the open transaction */
#ifdef LAIR_FAULTS
  long faults_left; /* writes until the process kills itself; 0: never */
#endif
};

/* Maps an (extended) SQLite result code to the layer's result. */
sto_rc sto_map_rc(int rc);
/* Hands out statement id, ready to bind (a private copy when the cached
 * one is still stepping, for a list whose callback calls back in). */
sto_rc sto_stmt_get(sto *db, st_id id, sqlite3_stmt **out);
/* Returns a statement from sto_stmt_get (reset, or finalized if a copy). */
void sto_stmt_put(sto *db, st_id id, sqlite3_stmt *s);
/* Steps a statement that returns no rows; SQLITE_OK when done. */
int sto_step_done(sqlite3_stmt *s);
/* Runs statement id that takes no parameters. */
sto_rc sto_exec_st(sto *db, st_id id);
/* Notes a failed write inside a transaction (it will be rolled back);
 * returns r. */
sto_rc sto_spoil(sto *db, sto_rc r);
/* Runs a write statement; inside a spoiled transaction writes nothing. */
sto_rc sto_step_write(sto *db, sqlite3_stmt *s);
/* Whether s is a NUL-terminated string within a buffer of size cap. */
bool sto_fits(const char *s, size_t cap);
/* Binds text (not copied: it must outlive the step). */
int sto_bind_text(sqlite3_stmt *s, int i, const char *text);
/* Column readers: STO_TOO_BIG rather than truncating, STO_CORRUPT for a
 * NULL or a value of the wrong kind. */
sto_rc sto_col_text(sqlite3_stmt *s, int i, char *buf, size_t cap);
sto_rc sto_col_i64(sqlite3_stmt *s, int i, int64_t *out);
sto_rc sto_col_int(sqlite3_stmt *s, int i, int *out);

#endif
