/*
 * sto_timers.c: reminders, turn clocks and lobby expiry as rows
 * (storage/sto.h), so that they survive restarts and several processes
 * can share them: whoever claims a due row acts on it. A stopped clock
 * (due STO_TIMER_STOPPED) is kept but never due. sto_timer_take removes
 * a due row inside the caller's transaction (on PostgreSQL skipping the
 * rows other transactions hold), so the row goes exactly when the
 * timer's effects commit; sto_timer_next and sto_timer_claim remain for
 * callers that read first and claim after.
 */
#include "sto_int.h"

#include <string.h>

/* ---- timers ------------------------------------------------------------- */

static sto_rc read_timer(sto_stmt *s, sto_timer *t) {
  sto_rc r;
  memset(t, 0, sizeof *t);
  if ((r = sto_col_i64(s, 0, &t->game)) ||
      (r = sto_col_text(s, 1, t->kind, sizeof t->kind)) ||
      (r = sto_col_int(s, 2, &t->seat)) || (r = sto_col_i64(s, 3, &t->due)) ||
      (r = sto_col_i64(s, 4, &t->data)) || (r = sto_col_int(s, 5, &t->turn)))
    return r;
  return STO_OK;
}

sto_rc sto_timer_set(sto *db, const sto_timer *t) {
  sto_stmt *s;
  sto_rc r;
  if (!db || !t || !t->kind[0] || !sto_fits(t->kind, sizeof t->kind))
    return sto_spoil(db, STO_INVALID);
  if ((r = sto_stmt_get(db, ST_TIMER_SET, &s)))
    return sto_spoil(db, r);
  sto_bind_i64(s, 1, t->game);
  sto_bind_text(s, 2, t->kind);
  sto_bind_i64(s, 3, t->seat);
  sto_bind_i64(s, 4, t->due);
  sto_bind_i64(s, 5, t->data);
  sto_bind_i64(s, 6, t->turn);
  r = sto_step_write(db, s);
  sto_stmt_put(db, ST_TIMER_SET, s);
  return sto_spoil(db, r);
}

sto_rc sto_timer_clear(sto *db, int64_t game, const char *kind, int seat) {
  sto_stmt *s;
  sto_rc r;
  st_id id = kind ? ST_TIMER_CLEAR : ST_TIMER_CLEAR_GAME;
  if (!db)
    return sto_spoil(db, STO_INVALID);
  if ((r = sto_stmt_get(db, id, &s)))
    return sto_spoil(db, r);
  sto_bind_i64(s, 1, game);
  if (kind) {
    sto_bind_text(s, 2, kind);
    sto_bind_i64(s, 3, seat);
  }
  r = sto_step_write(db, s);
  sto_stmt_put(db, id, s);
  return sto_spoil(db, r);
}

static sto_rc timer_query(sto *db, st_id id, sto_stmt *s, sto_timer *out) {
  sto_rc rc = sto_step(s);
  sto_rc r = rc == STO_ROW  ? read_timer(s, out)
             : rc == STO_OK ? STO_NOT_FOUND
                            : rc;
  sto_stmt_put(db, id, s);
  return r;
}

sto_rc sto_timer_next(sto *db, int64_t now, sto_timer *out) {
  sto_stmt *s;
  sto_rc r;
  if (!db || !out)
    return STO_INVALID;
  if ((r = sto_stmt_get(db, ST_TIMER_NEXT, &s)))
    return r;
  sto_bind_i64(s, 1, now);
  return timer_query(db, ST_TIMER_NEXT, s, out);
}

sto_rc sto_timer_get(sto *db, int64_t game, const char *kind, int seat,
                     sto_timer *out) {
  sto_stmt *s;
  sto_rc r;
  if (!db || !kind || !out)
    return STO_INVALID;
  if ((r = sto_stmt_get(db, ST_TIMER_GET, &s)))
    return r;
  sto_bind_i64(s, 1, game);
  sto_bind_text(s, 2, kind);
  sto_bind_i64(s, 3, seat);
  return timer_query(db, ST_TIMER_GET, s, out);
}

sto_rc sto_timer_claim(sto *db, const sto_timer *t, bool *claimed) {
  sto_stmt *s;
  sto_rc r;
  *claimed = false;
  if (!db || !t)
    return sto_spoil(db, STO_INVALID);
  if ((r = sto_stmt_get(db, ST_TIMER_CLAIM, &s)))
    return sto_spoil(db, r);
  sto_bind_i64(s, 1, t->game);
  sto_bind_text(s, 2, t->kind);
  sto_bind_i64(s, 3, t->seat);
  sto_bind_i64(s, 4, t->due);
  r = sto_step_write(db, s);
  if (!r)
    *claimed = sto_stmt_changes(s) == 1;
  sto_stmt_put(db, ST_TIMER_CLAIM, s);
  return sto_spoil(db, r);
}

sto_rc sto_timer_take(sto *db, int64_t now, sto_timer *out) {
  sto_stmt *s;
  sto_rc r;
  if (!db || !out || db->depth == 0)
    return STO_INVALID;
  if (db->spoiled)
    return db->spoiled;
  if ((r = sto_stmt_get(db, ST_TIMER_TAKE, &s)))
    return sto_spoil(db, r);
  sto_bind_i64(s, 1, now);
  r = sto_step(s);
  if (r == STO_ROW) {
    r = read_timer(s, out);
    /* One row at most (LIMIT 1); stepping on ends the statement. */
    if (!r && (r = sto_step(s)) == STO_ROW)
      r = STO_CORRUPT;
  } else if (r == STO_OK) {
    r = STO_NOT_FOUND;
  }
  sto_stmt_put(db, ST_TIMER_TAKE, s);
  return r == STO_NOT_FOUND ? r : sto_spoil(db, r);
}
