/*
 * sto_games.c: games, their seats, the invitations to a rematch's lobby,
 * moves, the requests remembered with their first answer, and snapshots
 * (storage/sto.h).
 *
 * A move is accepted inside a transaction (the command's, or one of its
 * own) that checks its request id and its sequence number against the
 * game's move count; the (game, seq) key and the unique request index back
 * those checks up should another process write the same file. Games are
 * counted and picked by SQL, so no number of games changes an answer.
 */
#include "sto_int.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static sto_rc game_list(sto *db, st_id id, const char *key, unsigned statuses,
                        int (*fn)(void *ctx, const sto_game *g), void *ctx);

/* Binds the status filter of the game queries: one parameter per status
 * (?2..?5), an unwanted one bound to -1, which matches nothing. */
static void bind_statuses(sto_stmt *s, unsigned statuses) {
  for (int st = STO_LOBBY; st <= STO_ABORTED; st++)
    sto_bind_i64(s, 2 + st, (statuses >> st) & 1u ? st : -1);
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
static sto_rc read_game(sto_stmt *s, sto_game *g) {
  char seed[24];
  sto_rc r;

  memset(g, 0, sizeof *g);
  /* No uint64 needs more digits than seed holds: a longer one is damage. */
  r = sto_col_text(s, 4, seed, sizeof seed);
  if (r == STO_TOO_BIG)
    r = STO_CORRUPT;
  if (r || (r = parse_seed(seed, &g->seed)))
    return r;
  if ((r = sto_col_i64(s, 0, &g->id)) ||
      (r = sto_col_text(s, 1, g->ruleset, sizeof g->ruleset)) ||
      (r = sto_col_int(s, 2, &g->ruleset_version)) ||
      (r = sto_col_text(s, 3, g->config, sizeof g->config)) ||
      (r = sto_col_text(s, 5, g->guild, sizeof g->guild)) ||
      (r = sto_col_text(s, 6, g->channel, sizeof g->channel)) ||
      (r = sto_col_text(s, 7, g->creator, sizeof g->creator)) ||
      (r = sto_col_int(s, 8, &g->status)) ||
      (r = sto_col_i64(s, 9, &g->created)) ||
      (r = sto_col_i64(s, 10, &g->updated)) ||
      (r = sto_col_i64(s, 11, &g->moves)) ||
      (r = sto_col_int(s, 12, &g->ai_due)) ||
      (r = sto_col_i64(s, 13, &g->version)))
    return r;
  return STO_OK;
}

static bool valid_status(int status) {
  return status >= STO_LOBBY && status <= STO_ABORTED;
}

/* ---- games ------------------------------------------------------------ */

sto_rc sto_game_create(sto *db, const sto_game *g, int64_t *id) {
  sto_stmt *s;
  char seed[24];
  sto_rc r;

  if (!db || !g || !id)
    return sto_spoil(db, STO_INVALID);
  if (!sto_fits(g->ruleset, sizeof g->ruleset) ||
      !sto_fits(g->config, sizeof g->config) ||
      !sto_fits(g->guild, sizeof g->guild) ||
      !sto_fits(g->channel, sizeof g->channel) ||
      !sto_fits(g->creator, sizeof g->creator))
    return sto_spoil(db, STO_TOO_BIG);
  if (!valid_status(g->status))
    return sto_spoil(db, STO_INVALID);
  format_seed(g->seed, seed, sizeof seed);

  if ((r = sto_stmt_get(db, ST_GAME_INSERT, &s)))
    return sto_spoil(db, r);
  sto_bind_text(s, 1, g->ruleset);
  sto_bind_i64(s, 2, g->ruleset_version);
  sto_bind_text(s, 3, g->config);
  sto_bind_text(s, 4, seed);
  sto_bind_text(s, 5, g->guild);
  sto_bind_text(s, 6, g->channel);
  sto_bind_text(s, 7, g->creator);
  sto_bind_i64(s, 8, g->status);
  sto_bind_i64(s, 9, g->created);
  sto_bind_i64(s, 10, g->updated);
  /* The new id comes back as the statement's one row (RETURNING id). */
  if (db->depth > 0 && db->spoiled) {
    r = db->spoiled;
  } else if ((r = sto_step(s)) == STO_ROW) {
    r = sto_col_i64(s, 0, id);
    if (!r && (r = sto_step(s)) == STO_ROW)
      r = STO_CORRUPT; /* one row per insert */
  } else if (!r) {
    r = STO_IO;
  }
  sto_stmt_put(db, ST_GAME_INSERT, s);
  return sto_spoil(db, r);
}

sto_rc sto_game_get(sto *db, int64_t id, sto_game *out) {
  sto_stmt *s;
  sto_rc r;
  sto_rc rc;

  if (!db || !out)
    return STO_INVALID;
  if ((r = sto_stmt_get(db, ST_GAME_GET, &s)))
    return r;
  sto_bind_i64(s, 1, id);
  rc = sto_step(s);
  if (rc == STO_ROW)
    r = read_game(s, out);
  else if (rc == STO_OK)
    r = STO_NOT_FOUND;
  else
    r = rc;
  sto_stmt_put(db, ST_GAME_GET, s);
  return r;
}

/* Runs an UPDATE of one game; STO_NOT_FOUND when it touched no row. */
static sto_rc update_game(sto *db, st_id id, sto_stmt *s) {
  sto_rc r = sto_step_write(db, s);
  if (!r && sto_stmt_changes(s) == 0)
    r = sto_spoil(db, STO_NOT_FOUND);
  sto_stmt_put(db, id, s);
  return sto_spoil(db, r);
}

/* Advances game's version after a write to its seats or invitations. */
static sto_rc touch_game(sto *db, int64_t game) {
  return sto_write_i64(db, ST_GAME_TOUCH, game);
}

sto_rc sto_game_lock(sto *db, int64_t id, int64_t *version) {
  sto_stmt *s;
  sto_rc r;

  if (!db || !version || db->depth == 0)
    return STO_INVALID;
  if (db->spoiled)
    return db->spoiled;
  if ((r = sto_stmt_get(db, ST_GAME_LOCK, &s)))
    return sto_spoil(db, r);
  sto_bind_i64(s, 1, id);
  r = sto_step(s);
  if (r == STO_ROW)
    r = sto_col_i64(s, 0, version);
  else if (r == STO_OK)
    r = STO_NOT_FOUND;
  else
    sto_spoil(db, r); /* a lock not had: the command cannot go on */
  sto_stmt_put(db, ST_GAME_LOCK, s);
  return r;
}

sto_rc sto_game_set_status(sto *db, int64_t id, int status, int64_t now) {
  sto_stmt *s;
  sto_rc r;

  if (!db)
    return sto_spoil(db, STO_INVALID);
  if (!valid_status(status))
    return sto_spoil(db, STO_INVALID);
  if ((r = sto_stmt_get(db, ST_GAME_SET_STATUS, &s)))
    return sto_spoil(db, r);
  sto_bind_i64(s, 1, id);
  sto_bind_i64(s, 2, status);
  sto_bind_i64(s, 3, now);
  return update_game(db, ST_GAME_SET_STATUS, s);
}

sto_rc sto_game_set_config(sto *db, int64_t id, const char *config,
                           uint64_t seed, int64_t now) {
  sto_stmt *s;
  char seed_text[24];
  sto_rc r;

  if (!db || !config)
    return sto_spoil(db, STO_INVALID);
  if (!sto_fits(config, STO_CONFIG_MAX + 1))
    return sto_spoil(db, STO_TOO_BIG);
  format_seed(seed, seed_text, sizeof seed_text);
  if ((r = sto_stmt_get(db, ST_GAME_SET_CONFIG, &s)))
    return sto_spoil(db, r);
  sto_bind_i64(s, 1, id);
  sto_bind_text(s, 2, config);
  sto_bind_text(s, 3, seed_text);
  sto_bind_i64(s, 4, now);
  return update_game(db, ST_GAME_SET_CONFIG, s);
}

sto_rc sto_game_set_ai_due(sto *db, int64_t id, bool due) {
  sto_stmt *s;
  sto_rc r;

  if (!db)
    return STO_INVALID;
  if ((r = sto_stmt_get(db, ST_GAME_SET_AI_DUE, &s)))
    return sto_spoil(db, r);
  sto_bind_i64(s, 1, id);
  sto_bind_i64(s, 2, due ? 1 : 0);
  return update_game(db, ST_GAME_SET_AI_DUE, s);
}

/* Counts the games matching key (a channel or a user) and statuses. */
static sto_rc game_count(sto *db, st_id id, const char *key, unsigned statuses,
                         long *n) {
  sto_stmt *s;
  sto_rc r;
  int64_t v = 0;

  if (!db || !key || !n)
    return STO_INVALID;
  if ((r = sto_stmt_get(db, id, &s)))
    return r;
  sto_bind_text(s, 1, key);
  bind_statuses(s, statuses);
  sto_rc rc = sto_step(s);
  r = rc == STO_ROW ? sto_col_i64(s, 0, &v) : rc;
  sto_stmt_put(db, id, s);
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
  sto_stmt *s;
  sto_rc r;
  sto_rc rc;
  st_id id = channel ? ST_GAME_PICK_CHANNEL : ST_GAME_PICK_USER;

  if (!db || !user || !ids || !ranks || !n)
    return STO_INVALID;
  *n = 0;
  if ((r = sto_stmt_get(db, id, &s)))
    return r;
  if (channel)
    sto_bind_text(s, 1, channel);
  bind_statuses(s, statuses);
  sto_bind_text(s, 6, user);
  while (*n < 2 && (rc = sto_step(s)) == STO_ROW) {
    if ((r = sto_col_i64(s, 0, &ids[*n])) ||
        (r = sto_col_int(s, 1, &ranks[*n])))
      break;
    ++*n;
  }
  if (!r && *n < 2 && rc != STO_OK)
    r = rc;
  sto_stmt_put(db, id, s);
  return r;
}

sto_rc sto_game_list_ai_due(sto *db, int (*fn)(void *ctx, const sto_game *g),
                            void *ctx) {
  return game_list(db, ST_GAME_LIST_AI_DUE, NULL, 1u << STO_RUNNING, fn, ctx);
}

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
  sto_stmt *s;
  sto_game g;
  sto_rc r;
  sto_rc rc;

  if (!db || !fn)
    return STO_INVALID;
  if ((r = sto_stmt_get(db, id, &s)))
    return r;
  if (channel)
    sto_bind_text(s, 1, channel);
  bind_statuses(s, statuses);
  while ((rc = sto_step(s)) == STO_ROW) {
    if ((r = read_game(s, &g)))
      break;
    if (fn(ctx, &g))
      break;
  }
  if (!r && rc != STO_ROW)
    r = rc;
  sto_stmt_put(db, id, s);
  return r;
}

/* ---- seats ------------------------------------------------------------ */

sto_rc sto_seat_set(sto *db, int64_t game, const sto_seat *seat) {
  sto_stmt *s;
  sto_rc r;

  if (!db || !seat)
    return sto_spoil(db, STO_INVALID);
  if (!sto_fits(seat->user, sizeof seat->user) ||
      !sto_fits(seat->name, sizeof seat->name))
    return sto_spoil(db, STO_TOO_BIG);
  if (seat->seat < 0)
    return sto_spoil(db, STO_INVALID);
  if ((r = sto_stmt_get(db, ST_SEAT_SET, &s)))
    return sto_spoil(db, r);
  sto_bind_i64(s, 1, game);
  sto_bind_i64(s, 2, seat->seat);
  sto_bind_text(s, 3, seat->user);
  sto_bind_text(s, 4, seat->name);
  r = sto_step_write(db, s);
  sto_stmt_put(db, ST_SEAT_SET, s);
  if (!r)
    r = touch_game(db, game);
  return sto_spoil(db, r);
}

sto_rc sto_seat_remove(sto *db, int64_t game, int seat) {
  sto_stmt *s;
  sto_rc r;

  if (!db)
    return sto_spoil(db, STO_INVALID);
  if ((r = sto_stmt_get(db, ST_SEAT_REMOVE, &s)))
    return sto_spoil(db, r);
  sto_bind_i64(s, 1, game);
  sto_bind_i64(s, 2, seat);
  r = sto_step_write(db, s);
  bool removed = !r && sto_stmt_changes(s) > 0;
  sto_stmt_put(db, ST_SEAT_REMOVE, s);
  if (removed)
    r = touch_game(db, game);
  return sto_spoil(db, r);
}

/* Reads the rows of list statement id (seat, user, name) for game into
 * out, as sto_seat_list describes. */
static sto_rc seat_rows(sto *db, st_id id, int64_t game, sto_seat *out, int max,
                        int *n) {
  sto_stmt *s;
  sto_rc r;
  sto_rc rc;
  int count = 0;

  if (n)
    *n = 0;
  if (!db || !n || max < 0 || (max > 0 && !out))
    return STO_INVALID;
  if ((r = sto_stmt_get(db, id, &s)))
    return r;
  sto_bind_i64(s, 1, game);
  while ((rc = sto_step(s)) == STO_ROW) {
    sto_seat *seat;
    if (count == max) {
      r = STO_TOO_BIG;
      break;
    }
    seat = &out[count];
    memset(seat, 0, sizeof *seat);
    if ((r = sto_col_int(s, 0, &seat->seat)) ||
        (r = sto_col_text(s, 1, seat->user, sizeof seat->user)) ||
        (r = sto_col_text(s, 2, seat->name, sizeof seat->name)))
      break;
    count++;
  }
  if (!r && rc != STO_ROW)
    r = rc;
  sto_stmt_put(db, id, s);
  *n = count;
  return r;
}

sto_rc sto_seat_list(sto *db, int64_t game, sto_seat *out, int max, int *n) {
  return seat_rows(db, ST_SEAT_LIST, game, out, max, n);
}

/* ---- invitations ------------------------------------------------------ */

sto_rc sto_invite_set(sto *db, int64_t game, const sto_seat *inv) {
  sto_stmt *s;
  sto_rc r;

  if (!db || !inv || !inv->user[0])
    return sto_spoil(db, STO_INVALID);
  if (!sto_fits(inv->user, sizeof inv->user) ||
      !sto_fits(inv->name, sizeof inv->name))
    return sto_spoil(db, STO_TOO_BIG);
  if ((r = sto_stmt_get(db, ST_INVITE_SET, &s)))
    return sto_spoil(db, r);
  sto_bind_i64(s, 1, game);
  sto_bind_text(s, 2, inv->user);
  sto_bind_text(s, 3, inv->name);
  sto_bind_i64(s, 4, inv->seat);
  r = sto_step_write(db, s);
  sto_stmt_put(db, ST_INVITE_SET, s);
  if (!r)
    r = touch_game(db, game);
  return sto_spoil(db, r);
}

sto_rc sto_invite_remove(sto *db, int64_t game, const char *user,
                         bool *removed) {
  sto_stmt *s;
  sto_rc r;

  if (removed)
    *removed = false;
  if (!db || !user)
    return sto_spoil(db, STO_INVALID);
  if ((r = sto_stmt_get(db, ST_INVITE_REMOVE, &s)))
    return sto_spoil(db, r);
  sto_bind_i64(s, 1, game);
  sto_bind_text(s, 2, user);
  r = sto_step_write(db, s);
  bool gone = !r && sto_stmt_changes(s) == 1;
  sto_stmt_put(db, ST_INVITE_REMOVE, s);
  if (gone)
    r = touch_game(db, game);
  if (!r && removed)
    *removed = gone;
  return sto_spoil(db, r);
}

sto_rc sto_invite_list(sto *db, int64_t game, sto_seat *out, int max, int *n) {
  return seat_rows(db, ST_INVITE_LIST, game, out, max, n);
}

/* The checks and writes of sto_move_append, inside its transaction. */
static sto_rc append_in_tx(sto *db, int64_t game, const sto_move *m) {
  sto_stmt *s;
  int64_t next = 0;
  sto_rc r;
  sto_rc rc;

  if ((r = sto_stmt_get(db, ST_REQUEST_GET, &s)))
    return sto_spoil(db, r);
  sto_bind_text(s, 1, m->request);
  rc = sto_step(s);
  r = rc == STO_ROW ? STO_DUPLICATE : rc;
  sto_stmt_put(db, ST_REQUEST_GET, s);
  if (r)
    return sto_spoil(db, r);

  if ((r = sto_stmt_get(db, ST_GAME_MOVES, &s)))
    return sto_spoil(db, r);
  sto_bind_i64(s, 1, game);
  rc = sto_step(s);
  if (rc == STO_ROW)
    r = sto_col_i64(s, 0, &next);
  else
    r = rc == STO_OK ? STO_NOT_FOUND : rc;
  sto_stmt_put(db, ST_GAME_MOVES, s);
  if (r)
    return sto_spoil(db, r);
  if (m->seq != next)
    return sto_spoil(db, STO_CONFLICT);

  if ((r = sto_stmt_get(db, ST_MOVE_INSERT, &s)))
    return sto_spoil(db, r);
  sto_bind_i64(s, 1, game);
  sto_bind_i64(s, 2, m->seq);
  sto_bind_i64(s, 3, m->seat);
  sto_bind_i64(s, 4, m->kind);
  sto_bind_i64(s, 5, m->turn);
  sto_bind_i64(s, 6, m->revealed);
  sto_bind_text(s, 7, m->option);
  sto_bind_text(s, 8, m->request);
  sto_bind_i64(s, 9, m->time);
  r = sto_step_write(db, s);
  sto_stmt_put(db, ST_MOVE_INSERT, s);
  if (r)
    return sto_spoil(db, r);

  if ((r = sto_stmt_get(db, ST_GAME_BUMP, &s)))
    return sto_spoil(db, r);
  sto_bind_i64(s, 1, game);
  sto_bind_i64(s, 2, m->time);
  r = sto_step_write(db, s);
  sto_stmt_put(db, ST_GAME_BUMP, s);
  return sto_spoil(db, r);
}

/* ---- moves ------------------------------------------------------------ */

sto_rc sto_move_append(sto *db, int64_t game, const sto_move *m) {
  sto_rc r;

  if (!db || !m)
    return STO_INVALID;
  if (!sto_fits(m->option, sizeof m->option) ||
      !sto_fits(m->request, sizeof m->request))
    return sto_spoil(db, STO_TOO_BIG);
  if (m->request[0] == '\0' || m->seat < 0 ||
      (m->kind != STO_MOVE_ANSWER && m->kind != STO_MOVE_TAKEBACK) ||
      (m->revealed != 0 && m->revealed != 1))
    return sto_spoil(db, STO_INVALID);

  if ((r = sto_tx_begin(db)))
    return r;
  r = append_in_tx(db, game, m);
  sto_rc end = sto_tx_end(db, r == STO_OK);
  return r ? r : end;
}

sto_rc sto_line_add(sto *db, int64_t game, int64_t seq, int n, int seat,
                    const char *text) {
  sto_stmt *s;
  sto_rc r;
  if (!db || !text)
    return STO_INVALID;
  if (!sto_fits(text, STO_LINE_MAX + 1))
    return sto_spoil(db, STO_TOO_BIG);
  if ((r = sto_stmt_get(db, ST_LINE_ADD, &s)))
    return sto_spoil(db, r);
  sto_bind_i64(s, 1, game);
  sto_bind_i64(s, 2, seq);
  sto_bind_i64(s, 3, n);
  sto_bind_i64(s, 4, seat);
  sto_bind_text(s, 5, text);
  r = sto_step(s);
  sto_stmt_put(db, ST_LINE_ADD, s);
  return r ? sto_spoil(db, r) : STO_OK;
}

sto_rc sto_line_list(sto *db, int64_t game, int from, int to, int viewer,
                     int (*fn)(void *ctx, const sto_line *l), void *ctx) {
  sto_stmt *s;
  sto_line l;
  sto_rc r;
  sto_rc rc;
  if (!db || !fn)
    return STO_INVALID;
  if ((r = sto_stmt_get(db, ST_LINE_LIST, &s)))
    return r;
  sto_bind_i64(s, 1, game);
  sto_bind_i64(s, 2, from);
  sto_bind_i64(s, 3, to);
  sto_bind_i64(s, 4, viewer < 0 ? -2 : viewer);
  while ((rc = sto_step(s)) == STO_ROW) {
    memset(&l, 0, sizeof l);
    if ((r = sto_col_i64(s, 0, &l.seq)) || (r = sto_col_int(s, 1, &l.n)) ||
        (r = sto_col_int(s, 2, &l.seat)) ||
        (r = sto_col_text(s, 3, l.text, sizeof l.text)) ||
        (r = sto_col_int(s, 4, &l.mover)) || (r = sto_col_int(s, 5, &l.turn)) ||
        (r = sto_col_i64(s, 6, &l.time)) ||
        (r = sto_col_text(s, 7, l.request, sizeof l.request)))
      break;
    if (fn(ctx, &l))
      break;
  }
  if (!r && rc != STO_ROW && rc != STO_OK)
    r = rc;
  sto_stmt_put(db, ST_LINE_LIST, s);
  return r;
}

sto_rc sto_move_list(sto *db, int64_t game, int64_t from,
                     int (*fn)(void *ctx, const sto_move *m), void *ctx) {
  sto_stmt *s;
  sto_move m;
  sto_rc r;
  sto_rc rc;

  if (!db || !fn)
    return STO_INVALID;
  if ((r = sto_stmt_get(db, ST_MOVE_LIST, &s)))
    return r;
  sto_bind_i64(s, 1, game);
  sto_bind_i64(s, 2, from);
  while ((rc = sto_step(s)) == STO_ROW) {
    memset(&m, 0, sizeof m);
    if ((r = sto_col_i64(s, 0, &m.seq)) || (r = sto_col_int(s, 1, &m.seat)) ||
        (r = sto_col_int(s, 2, &m.kind)) || (r = sto_col_int(s, 3, &m.turn)) ||
        (r = sto_col_int(s, 4, &m.revealed)) ||
        (r = sto_col_text(s, 5, m.option, sizeof m.option)) ||
        (r = sto_col_text(s, 6, m.request, sizeof m.request)) ||
        (r = sto_col_i64(s, 7, &m.time)))
      break;
    if (fn(ctx, &m))
      break;
  }
  if (!r && rc != STO_ROW)
    r = rc;
  sto_stmt_put(db, ST_MOVE_LIST, s);
  return r;
}

sto_rc sto_request_seen(sto *db, const char *request, bool *seen, int64_t *game,
                        int64_t *seq) {
  sto_stmt *s;
  int64_t g = 0, q = 0;
  sto_rc r;
  sto_rc rc;

  if (!db || !request || !seen)
    return STO_INVALID;
  *seen = false;
  if ((r = sto_stmt_get(db, ST_REQUEST_GET, &s)))
    return r;
  sto_bind_text(s, 1, request);
  rc = sto_step(s);
  if (rc == STO_ROW) {
    if (!(r = sto_col_i64(s, 0, &g)) && !(r = sto_col_i64(s, 1, &q)))
      *seen = true;
  } else {
    r = rc;
  }
  sto_stmt_put(db, ST_REQUEST_GET, s);
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
  sto_stmt *s;
  sto_rc r;

  if (!db)
    return STO_INVALID;
  if (!id || !id[0] || !user || !answer)
    return sto_spoil(db, STO_INVALID);
  if (!sto_fits(id, STO_REQUEST_MAX + 1) || !sto_fits(user, STO_ID_MAX + 1) ||
      !sto_fits(answer, STO_ANSWER_MAX + 1))
    return sto_spoil(db, STO_TOO_BIG);
  if ((r = sto_stmt_get(db, ST_REQUEST_PUT, &s)))
    return sto_spoil(db, r);
  sto_bind_text(s, 1, id);
  sto_bind_text(s, 2, user);
  sto_bind_i64(s, 3, time);
  sto_bind_text(s, 4, answer);
  if (db->depth > 0 && db->spoiled) {
    r = db->spoiled;
  } else {
    /* The key is the request id: a second use is a duplicate request. */
    r = sto_step(s);
    r = sto_spoil(db, r == STO_CONFLICT ? STO_DUPLICATE : r);
  }
  sto_stmt_put(db, ST_REQUEST_PUT, s);
  return r;
}

sto_rc sto_request_answer(sto *db, const char *id, bool *seen, char *user,
                          size_t ucap, char *answer, size_t cap) {
  sto_stmt *s;
  sto_rc r;
  sto_rc rc;

  if (!db || !id || !seen || !user || !ucap || !answer || !cap)
    return STO_INVALID;
  *seen = false;
  user[0] = answer[0] = '\0';
  if ((r = sto_stmt_get(db, ST_REQUEST_ANSWER, &s)))
    return r;
  sto_bind_text(s, 1, id);
  rc = sto_step(s);
  if (rc == STO_ROW) {
    r = sto_col_text(s, 0, user, ucap);
    if (!r)
      r = sto_col_text(s, 1, answer, cap);
    *seen = r == STO_OK;
  } else {
    r = rc;
  }
  sto_stmt_put(db, ST_REQUEST_ANSWER, s);
  return r;
}

sto_rc sto_request_prune(sto *db, int64_t before) {
  return db ? sto_write_i64(db, ST_REQUEST_PRUNE, before) : STO_INVALID;
}

/* ---- snapshots -------------------------------------------------------- */

sto_rc sto_snapshot_put(sto *db, int64_t game, int64_t seq, const char *state) {
  sto_stmt *s;
  size_t n;
  sto_rc r;

  if (!db || !state || seq < 0)
    return sto_spoil(db, STO_INVALID);
  n = strnlen(state, (size_t)STO_STATE_MAX + 1);
  if (n > STO_STATE_MAX)
    return sto_spoil(db, STO_TOO_BIG);
  if ((r = sto_stmt_get(db, ST_SNAPSHOT_PUT, &s)))
    return sto_spoil(db, r);
  sto_bind_i64(s, 1, game);
  sto_bind_i64(s, 2, seq);
  sto_bind_text(s, 3, state);
  r = sto_step_write(db, s);
  sto_stmt_put(db, ST_SNAPSHOT_PUT, s);
  return sto_spoil(db, r);
}

sto_rc sto_snapshot_get(sto *db, int64_t game, int64_t *seq, char **state) {
  sto_stmt *s;
  sto_rc r;
  sto_rc rc;

  if (state)
    *state = NULL;
  if (!db || !seq || !state)
    return STO_INVALID;
  if ((r = sto_stmt_get(db, ST_SNAPSHOT_GET, &s)))
    return r;
  sto_bind_i64(s, 1, game);
  rc = sto_step(s);
  if (rc == STO_ROW) {
    size_t n = sto_col_bytes(s, 1);
    char *buf = NULL;
    r = sto_col_i64(s, 0, seq);
    if (r)
      *seq = 0;
    else if (n > STO_STATE_MAX)
      r = STO_TOO_BIG;
    else if (!(buf = malloc(n + 1)))
      r = STO_NOMEM;
    else if ((r = sto_col_text(s, 1, buf, n + 1)))
      free(buf);
    else
      *state = buf;
  } else {
    r = rc == STO_OK ? STO_NOT_FOUND : rc;
  }
  sto_stmt_put(db, ST_SNAPSHOT_GET, s);
  return r;
}
