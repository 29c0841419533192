/*
 * sto_ratings.c: the ratings of players per server and game, and the
 * sides (villains) they played, as storage/sto.h describes them. The
 * commands layer computes the ratings (cmd_rating.c); this file only keeps
 * them.
 */
#include "sto_int.h"

#include <string.h>

static bool key_ok(const char *guild, const char *ruleset, const char *player) {
  return guild && ruleset && player && ruleset[0] && player[0] &&
         sto_fits(guild, STO_ID_MAX + 1) && sto_fits(ruleset, STO_ID_MAX + 1) &&
         sto_fits(player, STO_ID_MAX + 1);
}

/* Reads the current row of a RATING_COLUMNS statement into *r. */
static sto_rc read_rating(sto_stmt *s, sto_rating *r) {
  sto_rc rc;
  memset(r, 0, sizeof *r);
  if ((rc = sto_col_text(s, 0, r->guild, sizeof r->guild)) ||
      (rc = sto_col_text(s, 1, r->ruleset, sizeof r->ruleset)) ||
      (rc = sto_col_text(s, 2, r->player, sizeof r->player)) ||
      (rc = sto_col_text(s, 3, r->name, sizeof r->name)) ||
      (rc = sto_col_i64(s, 4, &r->rating)) ||
      (rc = sto_col_i64(s, 5, &r->rd)) ||
      (rc = sto_col_i64(s, 6, &r->volatility)) ||
      (rc = sto_col_i64(s, 7, &r->games)) ||
      (rc = sto_col_i64(s, 8, &r->wins)) ||
      (rc = sto_col_i64(s, 9, &r->updated)))
    return rc;
  return STO_OK;
}

sto_rc sto_rating_get(sto *db, const char *guild, const char *ruleset,
                      const char *player, sto_rating *out) {
  sto_stmt *s;
  sto_rc r, rc;
  if (!db || !out || !key_ok(guild, ruleset, player))
    return STO_INVALID;
  memset(out, 0, sizeof *out);
  if ((r = sto_stmt_get(db, ST_RATING_GET, &s)))
    return r;
  sto_bind_text(s, 1, guild);
  sto_bind_text(s, 2, ruleset);
  sto_bind_text(s, 3, player);
  rc = sto_step(s);
  if (rc == STO_ROW)
    r = read_rating(s, out);
  else
    r = rc == STO_OK ? STO_NOT_FOUND : rc;
  sto_stmt_put(db, ST_RATING_GET, s);
  return r;
}

sto_rc sto_rating_put(sto *db, const sto_rating *r) {
  sto_stmt *s;
  sto_rc rc;
  if (!db || !r || !key_ok(r->guild, r->ruleset, r->player) ||
      !sto_fits(r->name, sizeof r->name))
    return sto_spoil(db, STO_INVALID);
  if ((rc = sto_stmt_get(db, ST_RATING_PUT, &s)))
    return sto_spoil(db, rc);
  sto_bind_text(s, 1, r->guild);
  sto_bind_text(s, 2, r->ruleset);
  sto_bind_text(s, 3, r->player);
  sto_bind_text(s, 4, r->name);
  sto_bind_i64(s, 5, r->rating);
  sto_bind_i64(s, 6, r->rd);
  sto_bind_i64(s, 7, r->volatility);
  sto_bind_i64(s, 8, r->games);
  sto_bind_i64(s, 9, r->wins);
  sto_bind_i64(s, 10, r->updated);
  rc = sto_step_write(db, s);
  sto_stmt_put(db, ST_RATING_PUT, s);
  return sto_spoil(db, rc);
}

/* Steps s to its end, calling fn for each rating row. */
static sto_rc walk(sto_stmt *s, int (*fn)(void *ctx, const sto_rating *r),
                   void *ctx) {
  sto_rating row;
  sto_rc rc;
  while ((rc = sto_step(s)) == STO_ROW) {
    sto_rc r = read_rating(s, &row);
    if (r)
      return r;
    if (fn(ctx, &row))
      return STO_OK;
  }
  return rc;
}

sto_rc sto_rating_list_player(sto *db, const char *guild, const char *player,
                              int (*fn)(void *ctx, const sto_rating *r),
                              void *ctx) {
  sto_stmt *s;
  sto_rc r;
  if (!db || !fn || !key_ok(guild, "-", player))
    return STO_INVALID;
  if ((r = sto_stmt_get(db, ST_RATING_LIST_PLAYER, &s)))
    return r;
  sto_bind_text(s, 1, guild);
  sto_bind_text(s, 2, player);
  r = walk(s, fn, ctx);
  sto_stmt_put(db, ST_RATING_LIST_PLAYER, s);
  return r;
}

sto_rc sto_rating_top(sto *db, const char *guild, const char *ruleset,
                      int64_t rd_below, int limit,
                      int (*fn)(void *ctx, const sto_rating *r), void *ctx) {
  sto_stmt *s;
  sto_rc r;
  if (!db || !fn || limit < 1 || !key_ok(guild, ruleset, "-"))
    return STO_INVALID;
  if ((r = sto_stmt_get(db, ST_RATING_TOP, &s)))
    return r;
  sto_bind_text(s, 1, guild);
  sto_bind_text(s, 2, ruleset);
  sto_bind_i64(s, 3, rd_below);
  sto_bind_i64(s, 4, limit);
  r = walk(s, fn, ctx);
  sto_stmt_put(db, ST_RATING_TOP, s);
  return r;
}

sto_rc sto_rating_count(sto *db, const char *guild, const char *ruleset,
                        long *n) {
  sto_stmt *s;
  sto_rc r, rc;
  int64_t v = 0;
  if (!db || !n || !key_ok(guild, ruleset, "-"))
    return STO_INVALID;
  *n = 0;
  if ((r = sto_stmt_get(db, ST_RATING_COUNT, &s)))
    return r;
  sto_bind_text(s, 1, guild);
  sto_bind_text(s, 2, ruleset);
  rc = sto_step(s);
  if (rc == STO_ROW)
    r = sto_col_i64(s, 0, &v);
  else
    r = rc == STO_OK ? STO_IO : rc; /* COUNT always has a row */
  sto_stmt_put(db, ST_RATING_COUNT, s);
  *n = (long)v;
  return r;
}

sto_rc sto_side_add(sto *db, const char *guild, const char *ruleset,
                    const char *player, const char *side, const char *name) {
  sto_stmt *s;
  sto_rc r;
  if (!db || !key_ok(guild, ruleset, player) || !side || !side[0] ||
      !sto_fits(side, STO_ID_MAX + 1) || !name ||
      !sto_fits(name, STO_SIDE_NAME_MAX))
    return sto_spoil(db, STO_INVALID);
  if ((r = sto_stmt_get(db, ST_SIDE_ADD, &s)))
    return sto_spoil(db, r);
  sto_bind_text(s, 1, guild);
  sto_bind_text(s, 2, ruleset);
  sto_bind_text(s, 3, player);
  sto_bind_text(s, 4, side);
  sto_bind_text(s, 5, name);
  r = sto_step_write(db, s);
  sto_stmt_put(db, ST_SIDE_ADD, s);
  return sto_spoil(db, r);
}

sto_rc sto_side_top(sto *db, const char *guild, const char *ruleset,
                    const char *player, char *side, size_t cap, char *name,
                    size_t ncap, int64_t *games) {
  sto_stmt *s;
  sto_rc r, rc;
  if (!db || !side || !cap || !name || !ncap || !games ||
      !key_ok(guild, ruleset, player))
    return STO_INVALID;
  side[0] = name[0] = '\0';
  *games = 0;
  if ((r = sto_stmt_get(db, ST_SIDE_TOP, &s)))
    return r;
  sto_bind_text(s, 1, guild);
  sto_bind_text(s, 2, ruleset);
  sto_bind_text(s, 3, player);
  rc = sto_step(s);
  if (rc == STO_ROW) {
    if (!(r = sto_col_text(s, 0, side, cap)) &&
        !(r = sto_col_text(s, 1, name, ncap)))
      r = sto_col_i64(s, 2, games);
  } else {
    r = rc == STO_OK ? STO_NOT_FOUND : rc;
  }
  if (r)
    side[0] = name[0] = '\0';
  sto_stmt_put(db, ST_SIDE_TOP, s);
  return r;
}
