/*
 * sto_settings.c: key/value settings per scope, the moderators' audit
 * log and the messages a transport keeps up to date (storage/sto.h).
 */
#include "sto_int.h"

#include <stdio.h>
#include <string.h>

/* ---- settings --------------------------------------------------------- */

sto_rc sto_setting_get(sto *db, const char *scope, const char *key, char *buf,
                       size_t cap) {
  sto_stmt *s;
  sto_rc r;
  sto_rc rc;

  if (!db || !scope || !key || !buf || cap == 0)
    return STO_INVALID;
  buf[0] = '\0';
  if ((r = sto_stmt_get(db, ST_SETTING_GET, &s)))
    return r;
  sto_bind_text(s, 1, scope);
  sto_bind_text(s, 2, key);
  rc = sto_step(s);
  if (rc == STO_ROW)
    r = sto_col_text(s, 0, buf, cap);
  else
    r = rc == STO_OK ? STO_NOT_FOUND : rc;
  if (r)
    buf[0] = '\0';
  sto_stmt_put(db, ST_SETTING_GET, s);
  return r;
}

sto_rc sto_setting_set(sto *db, const char *scope, const char *key,
                       const char *value) {
  sto_stmt *s;
  sto_rc r;

  if (!db || !scope || !key || !value)
    return sto_spoil(db, STO_INVALID);
  if ((r = sto_stmt_get(db, ST_SETTING_SET, &s)))
    return sto_spoil(db, r);
  sto_bind_text(s, 1, scope);
  sto_bind_text(s, 2, key);
  sto_bind_text(s, 3, value);
  r = sto_step_write(db, s);
  sto_stmt_put(db, ST_SETTING_SET, s);
  return sto_spoil(db, r);
}

/* ---- audit -------------------------------------------------------------- */

sto_rc sto_audit_add(sto *db, const sto_audit *a) {
  sto_stmt *s;
  sto_rc r;
  if (!db || !a || !a->scope[0] || !a->actor[0] || !a->action[0])
    return sto_spoil(db, STO_INVALID);
  if ((r = sto_stmt_get(db, ST_AUDIT_ADD, &s)))
    return sto_spoil(db, r);
  sto_bind_text(s, 1, a->scope);
  sto_bind_i64(s, 2, a->time);
  sto_bind_text(s, 3, a->actor);
  sto_bind_text(s, 4, a->action);
  sto_bind_i64(s, 5, a->game);
  sto_bind_text(s, 6, a->detail);
  r = sto_step_write(db, s);
  sto_stmt_put(db, ST_AUDIT_ADD, s);
  return sto_spoil(db, r);
}

sto_rc sto_audit_list(sto *db, const char *scope, int limit,
                      int (*fn)(void *ctx, const sto_audit *a), void *ctx) {
  sto_stmt *s;
  sto_rc r;
  sto_rc rc;
  if (!db || !scope || !fn || limit < 1)
    return STO_INVALID;
  if ((r = sto_stmt_get(db, ST_AUDIT_LIST, &s)))
    return r;
  sto_bind_text(s, 1, scope);
  sto_bind_i64(s, 2, limit);
  sto_audit a;
  while ((rc = sto_step(s)) == STO_ROW) {
    memset(&a, 0, sizeof a);
    snprintf(a.scope, sizeof a.scope, "%s", scope);
    if ((r = sto_col_i64(s, 0, &a.time)) ||
        (r = sto_col_text(s, 1, a.actor, sizeof a.actor)) ||
        (r = sto_col_text(s, 2, a.action, sizeof a.action)) ||
        (r = sto_col_i64(s, 3, &a.game)) ||
        (r = sto_col_text(s, 4, a.detail, sizeof a.detail)))
      break;
    if (fn(ctx, &a))
      break;
  }
  if (!r && rc != STO_ROW && rc != STO_OK)
    r = rc;
  sto_stmt_put(db, ST_AUDIT_LIST, s);
  return r;
}

/* ---- kept messages --------------------------------------------------- */

sto_rc sto_kept_set(sto *db, const char *key, const char *channel,
                    const char *message, int64_t time) {
  sto_stmt *s;
  sto_rc r;
  if (!db || !key || !key[0] || !sto_fits(key, STO_KEPT_KEY_MAX + 1) ||
      !channel || !channel[0] || !sto_fits(channel, STO_ID_MAX + 1) ||
      !message || !message[0] || !sto_fits(message, STO_ID_MAX + 1))
    return sto_spoil(db, STO_INVALID);
  if ((r = sto_stmt_get(db, ST_KEPT_SET, &s)))
    return sto_spoil(db, r);
  sto_bind_text(s, 1, key);
  sto_bind_text(s, 2, channel);
  sto_bind_text(s, 3, message);
  sto_bind_i64(s, 4, time);
  r = sto_step_write(db, s);
  sto_stmt_put(db, ST_KEPT_SET, s);
  return sto_spoil(db, r);
}

sto_rc sto_kept_get(sto *db, const char *key, char *channel, size_t ccap,
                    char *message, size_t mcap) {
  sto_stmt *s;
  sto_rc r, rc;
  if (!db || !key || !channel || !ccap || !message || !mcap)
    return STO_INVALID;
  channel[0] = message[0] = '\0';
  if ((r = sto_stmt_get(db, ST_KEPT_GET, &s)))
    return r;
  sto_bind_text(s, 1, key);
  rc = sto_step(s);
  if (rc == STO_ROW) {
    if (!(r = sto_col_text(s, 0, channel, ccap)))
      r = sto_col_text(s, 1, message, mcap);
  } else {
    r = rc == STO_OK ? STO_NOT_FOUND : rc;
  }
  if (r)
    channel[0] = message[0] = '\0';
  sto_stmt_put(db, ST_KEPT_GET, s);
  return r;
}

sto_rc sto_kept_prune(sto *db, int64_t before) {
  return db ? sto_write_i64(db, ST_KEPT_PRUNE, before) : STO_INVALID;
}
