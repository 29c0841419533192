/*
 * cmd_rating.c: what a finished game means for the ratings, and the
 * commands that show them (/game stats, /game leaderboard).
 *
 * cmd_rate_game runs in the transaction that marks a game finished
 * (cmd_set_status), so a game's end and its ratings commit together or
 * not at all. A game of n seats is one Glicko-2 rating period for each of
 * its players, whose results are the game's pairwise outcomes (see
 * docs/ratings.md); the Glicko-2 arithmetic itself is cmd_glicko.c.
 */
#include "cmd_glicko.h"
#include "cmd_int.h"

#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- rating a finished game ------------------------------------------ */

/* One player of a game: a person, or an AI level as a player of its own
 * (all seats of that level in one game are one player). */
typedef struct rated {
  char player[STO_ID_MAX + 1];
  char name[64];
  sto_rating row; /* before the game */
} rated;

static double to_double(int64_t millionths) {
  return (double)millionths / STO_RATING_SCALE;
}

static int64_t to_stored(double v) {
  return (int64_t)llround(v * STO_RATING_SCALE);
}

/* Whether the game's config asks not to be rated (a tutorial). */
static bool unrated(const char *config) {
  json_t *j = json_loads(config ? config : "", 0, NULL);
  bool learn = j && json_is_true(json_object_get(j, "learn"));
  json_decref(j);
  return learn;
}

bool cmd_rate_game(cmd_ctx *c, live *L) {
  if (!L->g || unrated(L->row.config))
    return true;
  eng_result res;
  eng_game_result(L->g, &res);
  if (!res.over || L->n_seats < 2)
    return true;
  rated p[ENG_MAX_SEATS];
  int np = 0, of[ENG_MAX_SEATS];
  for (int i = 0; i < L->n_seats; i++) {
    char id[STO_ID_MAX + 1], name[64];
    int level = cmd_ai_level(L->seats[i].user);
    if (level >= 0) {
      snprintf(id, sizeof id, "ai:%s", eng_ai_name(level));
      snprintf(name, sizeof name, "AI (%s)", eng_ai_name(level));
    } else {
      snprintf(id, sizeof id, "%s", L->seats[i].user);
      snprintf(name, sizeof name, "%s", L->seats[i].name);
    }
    int k = 0;
    while (k < np && strcmp(p[k].player, id) != 0)
      k++;
    if (k == np) {
      memset(&p[k], 0, sizeof p[k]);
      memcpy(p[k].player, id, sizeof id);
      memcpy(p[k].name, name, sizeof name);
      np++;
    }
    of[i] = k;
  }
  if (np < 2) /* AI seats of one level alone: nobody to compare with */
    return true;
  const char *ruleset = L->row.ruleset, *guild = L->row.guild;
  for (int k = 0; k < np; k++) {
    sto_rc rc =
        sto_rating_get(c->cfg.db, guild, ruleset, p[k].player, &p[k].row);
    if (rc == STO_NOT_FOUND) {
      p[k].row.rating = to_stored(CMD_GLICKO_RATING);
      p[k].row.rd = to_stored(CMD_GLICKO_RD);
      p[k].row.volatility = to_stored(CMD_GLICKO_VOLATILITY);
    } else if (rc) {
      cmd_fail(c,
               "Game #%" PRId64 " is over but its ratings could not be read "
               "(%s); nothing changed. Try the last move again.",
               L->row.id, sto_strerror(rc));
      return false;
    }
  }
  /* Everyone's new rating from everyone's rating before the game. */
  sto_rating next[ENG_MAX_SEATS];
  for (int k = 0; k < np; k++) {
    cmd_glicko_result rs[ENG_MAX_SEATS * ENG_MAX_SEATS];
    int n = 0;
    bool won = false;
    for (int i = 0; i < L->n_seats; i++) {
      if (of[i] != k)
        continue;
      won = won || (res.winners >> i & 1);
      for (int j = 0; j < L->n_seats; j++) {
        double s = of[j] == k ? -1 : cmd_glicko_pair(&res, i, j);
        if (s < 0)
          continue;
        rs[n++] = (cmd_glicko_result){to_double(p[of[j]].row.rating),
                                      to_double(p[of[j]].row.rd), s};
      }
    }
    cmd_glicko old = {to_double(p[k].row.rating), to_double(p[k].row.rd),
                      to_double(p[k].row.volatility)};
    cmd_glicko now = n ? cmd_glicko_update(old, rs, n, CMD_GLICKO_TAU) : old;
    next[k] = p[k].row;
    snprintf(next[k].guild, sizeof next[k].guild, "%s", guild);
    snprintf(next[k].ruleset, sizeof next[k].ruleset, "%s", ruleset);
    memcpy(next[k].player, p[k].player, sizeof next[k].player);
    memcpy(next[k].name, p[k].name, sizeof next[k].name);
    next[k].rating = to_stored(now.rating);
    next[k].rd = to_stored(now.rd);
    next[k].volatility = to_stored(now.volatility);
    next[k].games++;
    next[k].wins += won;
    next[k].updated = c->now;
  }
  for (int k = 0; k < np; k++) {
    sto_rc rc = sto_rating_put(c->cfg.db, &next[k]);
    for (int i = 0; !rc && i < L->n_seats; i++)
      if (of[i] == k && res.side[i][0])
        rc = sto_side_add(c->cfg.db, guild, ruleset, p[k].player, res.side[i],
                          res.side_name[i]);
    if (rc) {
      cmd_fail(c,
               "Game #%" PRId64 " is over but its ratings could not be saved "
               "(%s); nothing changed. Try the last move again.",
               L->row.id, sto_strerror(rc));
      return false;
    }
  }
  return true;
}

/* ---- showing them ------------------------------------------------------ */

/* A ruleset's display name from its id. */
static const char *game_name(const char *id) {
  const eng_ruleset *rs = eng_find(id);
  return rs ? rs->name : id;
}

/* A side's stable id ("hive_queen") as words ("Hive Queen"). */
static void side_words(const char *id, char *buf, size_t cap) {
  size_t o = 0;
  bool start = true;
  for (; *id && o + 1 < cap; id++) {
    char ch = *id == '_' || *id == '-' ? ' ' : *id;
    buf[o++] = start ? (char)toupper((unsigned char)ch) : ch;
    start = ch == ' ';
  }
  buf[o] = '\0';
}

/* A rating as people read it: "1523 ± 87". */
static void rating_words(const sto_rating *r, char *buf, size_t cap) {
  snprintf(buf, cap, "%.0f ± %.0f", to_double(r->rating), to_double(r->rd));
}

/* Whether r may read a server's ratings: not from a DM, which belongs to
 * no server (false after a reply saying where to ask). */
static bool on_a_server(cmd_ctx *c, const cmd_request *r, const char *what) {
  if (!r->in_dm)
    return true;
  cmd_reply(c, r, NULL,
            "Ratings are kept per server: ask %s in a channel of the server "
            "whose games you mean.",
            what);
  return false;
}

/* The ruleset kind names, or NULL after an error reply; *given tells
 * whether kind was given at all. */
static const eng_ruleset *kind_arg(cmd_ctx *c, const cmd_request *r,
                                   bool *given) {
  const char *id = cmd_arg_get(r, "kind");
  *given = id != NULL;
  if (!id)
    return NULL;
  return cmd_ruleset_named(c, r, id);
}

/* The most rulesets one /game stats lists. */
#define STATS_MAX 32

typedef struct stats_text {
  cmd_ctx *c;
  char text[CMD_TEXT_MAX * 2];
  size_t o;
  int n;
  char name[64];
  sto_rating rows[STATS_MAX];
  int n_rows;
} stats_text;

/* Keeps a player's rating rows; they are written out once the list is
 * read, so that the side lookups reuse the connection's own statement
 * rather than preparing one while the list is still being read. */
static int keep_row(void *ctx, const sto_rating *r) {
  stats_text *t = ctx;
  if (t->n_rows < STATS_MAX)
    t->rows[t->n_rows++] = *r;
  return t->n_rows == STATS_MAX;
}

/* "3 games", "1 win" in lang. */
static void games_words(cmd_lang lang, int64_t n, char *buf, size_t cap) {
  snprintf(buf, cap, cmd_trn(lang, n, "%" PRId64 " game", "%" PRId64 " games"),
           n);
}

static void wins_words(cmd_lang lang, int64_t n, char *buf, size_t cap) {
  snprintf(buf, cap, cmd_trn(lang, n, "%" PRId64 " win", "%" PRId64 " wins"),
           n);
}

static int stats_row(void *ctx, const sto_rating *r) {
  stats_text *t = ctx;
  cmd_lang lang = t->c->lang; /* the requester's alone */
  char rating[48], side[STO_ID_MAX + 1], words[STO_SIDE_NAME_MAX] = "";
  char games[40], wins[40];
  int64_t side_games = 0;
  rating_words(r, rating, sizeof rating);
  if (!sto_side_top(t->c->cfg.db, r->guild, r->ruleset, r->player, side,
                    sizeof side, words, sizeof words, &side_games) &&
      !words[0]) /* a ruleset that names no side: its id, as words */
    side_words(side, words, sizeof words);
  if (!t->name[0])
    snprintf(t->name, sizeof t->name, "%s", r->name);
  games_words(lang, r->games, games, sizeof games);
  wins_words(lang, r->wins, wins, sizeof wins);
  if (t->o < sizeof t->text)
    t->o +=
        (size_t)snprintf(t->text + t->o, sizeof t->text - t->o,
                         T(lang, "\n**%s**: %s, %s (%" PRId64 "%%), rating %s"),
                         game_name(r->ruleset), games, wins,
                         r->games ? r->wins * 100 / r->games : 0, rating);
  games_words(lang, side_games, games, sizeof games);
  if (words[0] && t->o < sizeof t->text)
    t->o += (size_t)snprintf(t->text + t->o, sizeof t->text - t->o,
                             T(lang, "; favourite: %s (%s)"), words, games);
  if (t->o < sizeof t->text)
    t->o += (size_t)snprintf(t->text + t->o, sizeof t->text - t->o, ".");
  t->n++;
  return 0;
}

void cmd_h_stats(cmd_ctx *c, const cmd_request *r) {
  if (!on_a_server(c, r, "/game stats"))
    return;
  bool given;
  const eng_ruleset *rs = kind_arg(c, r, &given);
  if (given && !rs)
    return;
  const char *who = cmd_arg_get(r, "user");
  bool self = !who || strcmp(who, r->user) == 0;
  if (!who)
    who = r->user;
  stats_text *t = calloc(1, sizeof *t);
  if (!t) {
    cmd_reply(c, r, NULL, "The statistics could not be read: out of memory.");
    return;
  }
  t->c = c;
  sto_rc rc;
  if (rs) {
    sto_rating row;
    rc = sto_rating_get(c->cfg.db, r->guild, rs->id, who, &row);
    if (!rc)
      stats_row(t, &row);
    else if (rc == STO_NOT_FOUND)
      rc = STO_OK;
  } else {
    rc = sto_rating_list_player(c->cfg.db, r->guild, who, keep_row, t);
    for (int i = 0; !rc && i < t->n_rows; i++)
      stats_row(t, &t->rows[i]);
  }
  char name[80];
  if (self)
    snprintf(name, sizeof name, "%s", r->user_name);
  else if (t->name[0])
    snprintf(name, sizeof name, "%s", t->name);
  else
    snprintf(name, sizeof name, "%s", T(c->lang, "That member"));
  if (rc)
    cmd_reply(c, r, NULL,
              "The statistics could not be read (%s); nothing changed. Try "
              "again.",
              sto_strerror(rc));
  else if (!t->n && self && rs)
    cmd_reply(c, r, NULL,
              "You have no rated games of %s on this server yet; finish a "
              "game to get a rating.",
              rs->name);
  else if (!t->n && self)
    cmd_reply(c, r, NULL,
              "You have no rated games of any game on this server yet; "
              "finish a game to get a rating.");
  else if (!t->n && rs)
    cmd_reply(c, r, NULL,
              "%s has no rated games of %s on this server yet; finish a game "
              "to get a rating.",
              name, rs->name);
  else if (!t->n)
    cmd_reply(c, r, NULL,
              "%s has no rated games of any game on this server yet; finish "
              "a game to get a rating.",
              name);
  else {
    char text[sizeof t->text + 200];
    snprintf(text, sizeof text,
             T(c->lang, "**Statistics of %s** on this server (rating ± "
                        "deviation, Glicko-2):%s"),
             name, t->text);
    cmd_send(c, r, CMD_TO_EPHEMERAL, r->user, r->user_name, NULL, text, NULL,
             0);
  }
  free(t);
}

/* How many a board shows. Its deviation threshold is the server's
 * leaderboard_rd (110 unless a moderator changes it): a rating whose
 * deviation is that or more is still too uncertain to rank
 * (docs/ratings.md). */
#define BOARD_SIZE 10

typedef struct board_text {
  cmd_lang lang; /* the requester's */
  char text[CMD_TEXT_MAX * 4];
  size_t o;
  int n;
} board_text;

static int board_row(void *ctx, const sto_rating *r) {
  board_text *b = ctx;
  char rating[48], games[40], wins[40];
  rating_words(r, rating, sizeof rating);
  games_words(b->lang, r->games, games, sizeof games);
  wins_words(b->lang, r->wins, wins, sizeof wins);
  b->n++;
  if (b->o < sizeof b->text)
    b->o += (size_t)snprintf(
        b->text + b->o, sizeof b->text - b->o,
        "\n%d. %s%s: %s (%s, %s)", b->n, r->name,
        strncmp(r->player, "ai:", 3) == 0 ? T(b->lang, " [AI level]") : "",
        rating, games, wins);
  return 0;
}

/* Appends ruleset rs's board to b; *rated receives how many players it
 * rates at all (0: nobody). */
static sto_rc board_of(cmd_ctx *c, const char *guild, const eng_ruleset *rs,
                       long rd_below, board_text *b, int *rated) {
  int before = b->n;
  b->n = 0;
  if (b->o < sizeof b->text)
    b->o += (size_t)snprintf(b->text + b->o, sizeof b->text - b->o,
                             T(b->lang, "%s**%s**, top %d:"), b->o ? "\n" : "",
                             rs->name, BOARD_SIZE);
  size_t head = b->o;
  sto_rc rc = sto_rating_top(c->cfg.db, guild, rs->id,
                             (int64_t)rd_below * STO_RATING_SCALE, BOARD_SIZE,
                             board_row, b);
  *rated = b->n;
  if (!rc && b->n == 0) {
    long all = 0;
    rc = sto_rating_count(c->cfg.db, guild, rs->id, &all);
    *rated = (int)all;
    b->o = head;
    if (b->o < sizeof b->text)
      b->o += (size_t)snprintf(
          b->text + b->o, sizeof b->text - b->o,
          cmd_trn(b->lang, all,
                  "\nNobody yet: %ld player is rated, none with a deviation "
                  "below %ld. Play more games to settle a rating.",
                  "\nNobody yet: %ld players are rated, none with a "
                  "deviation below %ld. Play more games to settle a rating."),
          all, rd_below);
  }
  b->n += before;
  return rc;
}

void cmd_h_leaderboard(cmd_ctx *c, const cmd_request *r) {
  if (!on_a_server(c, r, "/game leaderboard"))
    return;
  bool given;
  const eng_ruleset *rs = kind_arg(c, r, &given);
  if (given && !rs)
    return;
  board_text *b = calloc(1, sizeof *b);
  if (!b) {
    cmd_reply(c, r, NULL, "The leaderboard could not be read: out of memory.");
    return;
  }
  b->lang = c->lang;
  long rd_below = cmd_setting(c, r->guild, "leaderboard_rd");
  sto_rc rc = STO_OK;
  int boards = 0;
  size_t n = 1;
  const eng_ruleset *const *all = rs ? &rs : eng_rulesets(&n);
  for (size_t i = 0; !rc && i < n; i++) {
    size_t mark = b->o;
    int before = b->n, rated = 0;
    rc = board_of(c, r->guild, all[i], rd_below, b, &rated);
    if (!rc && !rated && !rs) {
      b->o = mark; /* a game nobody has finished here is left out */
      b->text[b->o] = '\0';
      b->n = before;
    } else if (!rc && rated) {
      boards++;
    }
  }
  if (rc)
    cmd_reply(c, r, NULL,
              "The leaderboard could not be read (%s); nothing changed. Try "
              "again.",
              sto_strerror(rc));
  else if (!boards && rs)
    cmd_reply(c, r, NULL,
              "No rated games of %s on this server yet; finish a game to get "
              "a rating.",
              rs->name);
  else if (!boards)
    cmd_reply(c, r, NULL,
              "No rated games of any game on this server yet; finish a game "
              "to get a rating.");
  else {
    char text[sizeof b->text + 200];
    snprintf(text, sizeof text,
             T(c->lang, "**Leaderboard** of this server (Glicko-2 rating ± "
                        "deviation; ranked: deviation below %ld)\n%s"),
             rd_below, b->text);
    cmd_send(c, r, CMD_TO_EPHEMERAL, r->user, r->user_name, NULL, text, NULL,
             0);
  }
  free(b);
}
