/*
 * cmd_table.c: the /game commands, declared once as data, and their
 * handlers.
 *
 * Every handler checks everything first and replies with a clear
 * ephemeral error, changing nothing; it changes state only after all
 * checks pass, and a move is committed to storage before anyone is told.
 */
#include "cmd_int.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>

#define MASK(s) (1u << (s))
#define ACTIVE (MASK(STO_LOBBY) | MASK(STO_RUNNING))

static void h_new(cmd_ctx *c, const cmd_request *r);
static void h_join(cmd_ctx *c, const cmd_request *r);
static void h_leave(cmd_ctx *c, const cmd_request *r);
static void h_start(cmd_ctx *c, const cmd_request *r);
static void h_status(cmd_ctx *c, const cmd_request *r);
static void h_hand(cmd_ctx *c, const cmd_request *r);
static void h_move(cmd_ctx *c, const cmd_request *r);
static void h_undo(cmd_ctx *c, const cmd_request *r);
static void h_log(cmd_ctx *c, const cmd_request *r);
static void h_list(cmd_ctx *c, const cmd_request *r);
static void h_card(cmd_ctx *c, const cmd_request *r);
static void h_abort(cmd_ctx *c, const cmd_request *r);
static void h_kick(cmd_ctx *c, const cmd_request *r);
static void h_settings(cmd_ctx *c, const cmd_request *r);

#define GAME_OPT                                                               \
  {"game", "Which game, when several are open here (see /game list)",         \
   CMD_ARG_INTEGER, false, false, 1, 1000000000}

const cmd_def cmd_table[] = {
    {"new", "Open a new game in this channel", false, h_new, 3,
     {{"game", "Which game to play", CMD_ARG_STRING, true, true, 0, 0},
      {"mode", "Rules variant, e.g. blitz or team+annihilation",
       CMD_ARG_STRING, false, true, 0, 0},
      {"seats", "Most players who may join", CMD_ARG_INTEGER, false, false, 2,
       ENG_MAX_SEATS}}},
    {"join", "Join the open game in this channel", false, h_join, 1,
     {GAME_OPT}},
    {"leave", "Leave a game that has not started", false, h_leave, 1,
     {GAME_OPT}},
    {"start", "Start the game with the players who joined", false, h_start, 1,
     {GAME_OPT}},
    {"status", "Show the table", false, h_status, 1, {GAME_OPT}},
    {"hand", "Show your private hand (only to you)", false, h_hand, 1,
     {GAME_OPT}},
    {"move", "Answer your current decision", false, h_move, 2,
     {{"choice", "An option id or its exact label", CMD_ARG_STRING, true,
       true, 0, 0},
      GAME_OPT}},
    {"undo", "Take back your last answer of this turn", false, h_undo, 1,
     {GAME_OPT}},
    {"log", "The game's public history", false, h_log, 1, {GAME_OPT}},
    {"list", "The games of this channel", false, h_list, 0, {{0}}},
    {"card", "A card's full text", false, h_card, 1,
     {{"name", "The card's name", CMD_ARG_STRING, true, true, 0, 0}}},
    {"abort", "Moderators: end a game at once", true, h_abort, 1, {GAME_OPT}},
    {"kick", "Moderators: remove a member from a game", true, h_kick, 2,
     {{"user", "The member to remove", CMD_ARG_USER, true, false, 0, 0},
      GAME_OPT}},
    {"settings", "Moderators: show or change this server's settings", true,
     h_settings, 2,
     {{"key", "games_per_channel", CMD_ARG_STRING, false, false, 0, 0},
      {"value", "The new value", CMD_ARG_STRING, false, false, 0, 0}}},
};
const size_t cmd_table_n = sizeof cmd_table / sizeof cmd_table[0];

const cmd_def *cmd_find(const char *name) {
  for (size_t i = 0; i < cmd_table_n; i++)
    if (strcmp(cmd_table[i].name, name) == 0)
      return &cmd_table[i];
  return NULL;
}

/* ---- settings --------------------------------------------------------- */

static void scope_of(const cmd_request *r, char *buf, size_t cap) {
  snprintf(buf, cap, "guild:%s", r->guild && *r->guild ? r->guild : "local");
}

static long setting(cmd_ctx *c, const cmd_request *r, const char *key,
                    long dflt, long min, long max) {
  char scope[64], v[64];
  long x;
  scope_of(r, scope, sizeof scope);
  if (sto_setting_get(c->cfg.db, scope, key, v, sizeof v) == STO_OK &&
      cmd_parse_int(v, min, max, &x))
    return x;
  return dflt;
}

/* ---- lobby ------------------------------------------------------------ */

static uint64_t new_seed(cmd_ctx *c) {
  if (c->cfg.seed)
    return c->cfg.seed(c->cfg.seed_ctx);
  uint64_t s = 0;
  if (getrandom(&s, sizeof s, 0) != (ssize_t)sizeof s)
    s = (uint64_t)c->now * 6364136223846793005ULL + 1442695040888963407ULL;
  return s >> 1; /* keeps records' seeds within int64 for other tools */
}

static const char *game_name(const live *L) {
  const eng_ruleset *rs = eng_find(L->row.ruleset);
  return rs ? rs->name : L->row.ruleset;
}

static void seat_list(const live *L, char *buf, size_t cap) {
  size_t o = 0;
  buf[0] = '\0';
  for (int i = 0; i < L->n_seats && o < cap; i++)
    o += (size_t)snprintf(buf + o, cap - o, "%s%s", i ? ", " : "",
                          L->seats[i].name);
}

static void h_new(cmd_ctx *c, const cmd_request *r) {
  const char *id = cmd_arg_get(r, "game");
  if (r->in_dm) {
    cmd_reply(c, r, NULL, "Games are opened in a server channel, where "
                          "others can join; your hand then comes here.");
    return;
  }
  const char *mode = cmd_arg_get(r, "mode");
  const eng_ruleset *rs = eng_find(id);
  if (!rs) {
    char known[200] = "";
    size_t n, o = 0;
    const eng_ruleset *const *all = eng_rulesets(&n);
    for (size_t i = 0; i < n && o < sizeof known; i++)
      o += (size_t)snprintf(known + o, sizeof known - o, "%s%s", i ? ", " : "",
                            all[i]->id);
    cmd_reply(c, r, NULL, "Lair has no game called '%.40s'. It has: %s.", id,
              known);
    return;
  }
  long seats = rs->max_players;
  if (cmd_arg_get(r, "seats"))
    cmd_parse_int(cmd_arg_get(r, "seats"), 2, ENG_MAX_SEATS, &seats);
  if (seats < rs->min_players || seats > rs->max_players) {
    cmd_reply(c, r, NULL, "%s is for %d to %d players, not %ld.", rs->name,
              rs->min_players, rs->max_players, seats);
    return;
  }
  eng_config cfg = {.players = (int)seats, .first = -1};
  snprintf(cfg.mode, sizeof cfg.mode, "%s", mode ? mode : "");
  eng_game *probe;
  eng_rc erc = eng_game_new(rs, &cfg, 1, &probe);
  if (erc) {
    cmd_reply(c, r, NULL, "Mode '%.60s' with %ld seats: %s Modes: %s.",
              mode ? mode : "standard", seats, eng_strerror(erc),
              rs->modes_help);
    return;
  }
  eng_game_free(probe);
  long limit = setting(c, r, "games_per_channel", 1, 1, 20);
  int64_t ids[16];
  int open = cmd_channel_games(c, r->channel, ACTIVE, ids, 16);
  if (open < 0 || open >= limit) {
    cmd_reply(c, r, NULL,
              "This channel already has %d open game%s (the limit is %ld). "
              "Finish it, or ask a moderator to raise games_per_channel.",
              open, open == 1 ? "" : "s", limit);
    return;
  }
  sto_game g = {.ruleset_version = rs->version,
                .status = STO_LOBBY,
                .created = c->now,
                .updated = c->now};
  snprintf(g.ruleset, sizeof g.ruleset, "%s", rs->id);
  json_t *conf = json_pack("{sssi}", "mode", cfg.mode, "seats", (int)seats);
  char *text = conf ? json_dumps(conf, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
  json_decref(conf);
  snprintf(g.config, sizeof g.config, "%s", text ? text : "{}");
  free(text);
  snprintf(g.guild, sizeof g.guild, "%s", r->guild ? r->guild : "");
  snprintf(g.channel, sizeof g.channel, "%s", r->channel);
  snprintf(g.creator, sizeof g.creator, "%s", r->user);
  int64_t gid;
  sto_seat s = {.seat = 0};
  snprintf(s.user, sizeof s.user, "%s", r->user);
  snprintf(s.name, sizeof s.name, "%s", r->user_name);
  sto_rc rc = sto_game_create(c->cfg.db, &g, &gid);
  if (!rc)
    rc = sto_seat_set(c->cfg.db, gid, &s);
  if (rc) {
    cmd_reply(c, r, NULL, "The game could not be created: %s",
              sto_strerror(rc));
    return;
  }
  char why[200];
  live *L = cmd_load(c, gid, why, sizeof why);
  cmd_announce(c, r, L,
               "%s opened game #%" PRId64 ": %s (%s, up to %ld players). "
               "Join with /game join; %s starts it with /game start.",
               r->user_name, gid, rs->name, cfg.mode[0] ? cfg.mode : "standard",
               seats, r->user_name);
}

static live *lobby(cmd_ctx *c, const cmd_request *r) {
  live *L = cmd_find_game(c, r, ACTIVE);
  if (L && L->row.status != STO_LOBBY) {
    cmd_reply(c, r, L, "Game #%" PRId64 " has already started.", L->row.id);
    return NULL;
  }
  return L;
}

static void h_join(cmd_ctx *c, const cmd_request *r) {
  live *L = lobby(c, r);
  if (!L)
    return;
  eng_config cfg;
  int seats;
  cmd_parse_config(L->row.config, &cfg, &seats);
  if (cmd_seat_of(L, r->user) >= 0) {
    cmd_reply(c, r, L, "You have already joined game #%" PRId64 ".",
              L->row.id);
    return;
  }
  if (L->n_seats >= seats) {
    cmd_reply(c, r, L, "Game #%" PRId64 " is full (%d players).", L->row.id,
              seats);
    return;
  }
  sto_seat s = {.seat = L->n_seats};
  snprintf(s.user, sizeof s.user, "%s", r->user);
  snprintf(s.name, sizeof s.name, "%s", r->user_name);
  sto_rc rc = sto_seat_set(c->cfg.db, L->row.id, &s);
  if (rc) {
    cmd_reply(c, r, L, "You could not join: %s", sto_strerror(rc));
    return;
  }
  L->seats[L->n_seats++] = s;
  char list[400];
  seat_list(L, list, sizeof list);
  cmd_announce(c, r, L, "%s joined game #%" PRId64 ". Players: %s.",
               r->user_name, L->row.id, list);
}

/* Removes seat i from a lobby, keeping seats numbered 0..n-1. */
static sto_rc drop_seat(cmd_ctx *c, live *L, int i) {
  sto_rc rc = sto_seat_remove(c->cfg.db, L->row.id, L->n_seats - 1);
  for (int k = i; !rc && k + 1 < L->n_seats; k++) {
    sto_seat s = L->seats[k + 1];
    s.seat = k;
    rc = sto_seat_set(c->cfg.db, L->row.id, &s);
  }
  if (rc) {
    cmd_evict(c, L->row.id);
    return rc;
  }
  memmove(&L->seats[i], &L->seats[i + 1],
          (size_t)(L->n_seats - i - 1) * sizeof L->seats[0]);
  L->n_seats--;
  for (int k = 0; k < L->n_seats; k++)
    L->seats[k].seat = k;
  return STO_OK;
}

static void close_if_empty(cmd_ctx *c, const cmd_request *r, live *L) {
  if (L->n_seats > 0)
    return;
  sto_game_set_status(c->cfg.db, L->row.id, STO_ABORTED, c->now);
  L->row.status = STO_ABORTED;
  cmd_announce(c, r, L, "Game #%" PRId64 " closed: nobody is left.",
               L->row.id);
  cmd_evict(c, L->row.id);
}

static void h_leave(cmd_ctx *c, const cmd_request *r) {
  live *L = cmd_find_game(c, r, ACTIVE);
  if (!L)
    return;
  int seat = cmd_seat_of(L, r->user);
  if (seat < 0) {
    cmd_reply(c, r, L, "You are not in game #%" PRId64 ".", L->row.id);
    return;
  }
  if (L->row.status != STO_LOBBY) {
    cmd_reply(c, r, L,
              "Game #%" PRId64 " is running; a running game cannot be left. "
              "A moderator can end it (/game abort).",
              L->row.id);
    return;
  }
  sto_rc rc = drop_seat(c, L, seat);
  if (rc) {
    cmd_reply(c, r, NULL, "You could not leave: %s", sto_strerror(rc));
    return;
  }
  cmd_announce(c, r, L, "%s left game #%" PRId64 ".", r->user_name,
               L->row.id);
  close_if_empty(c, r, L);
}

static void h_start(cmd_ctx *c, const cmd_request *r) {
  live *L = lobby(c, r);
  if (!L)
    return;
  const eng_ruleset *rs = eng_find(L->row.ruleset);
  eng_config cfg;
  int seats;
  if (!rs || !cmd_parse_config(L->row.config, &cfg, &seats)) {
    cmd_reply(c, r, L, "Game #%" PRId64 " is damaged and cannot start.",
              L->row.id);
    return;
  }
  if (strcmp(L->row.creator, r->user) != 0 && !r->is_mod) {
    cmd_reply(c, r, L,
              "Only the player who opened game #%" PRId64
              " or a moderator can start it.",
              L->row.id);
    return;
  }
  if (L->n_seats < rs->min_players) {
    cmd_reply(c, r, L,
              "%s needs at least %d players; game #%" PRId64
              " has %d. Others can join with /game join.",
              rs->name, rs->min_players, L->row.id, L->n_seats);
    return;
  }
  cfg.players = L->n_seats;
  cfg.first = -1;
  uint64_t seed = new_seed(c);
  eng_game *g;
  eng_rc erc = eng_game_new(rs, &cfg, seed, &g);
  if (erc) {
    cmd_reply(c, r, L, "Game #%" PRId64 " cannot start with %d players: %s",
              L->row.id, L->n_seats, eng_strerror(erc));
    return;
  }
  json_t *conf = json_pack("{sisssisi}", "players", cfg.players, "mode",
                           cfg.mode, "first", cfg.first, "seats", seats);
  char *text = conf ? json_dumps(conf, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
  json_decref(conf);
  sto_rc rc = text ? sto_game_set_config(c->cfg.db, L->row.id, text, seed,
                                         c->now)
                   : STO_NOMEM;
  if (!rc)
    rc = sto_game_set_status(c->cfg.db, L->row.id, STO_RUNNING, c->now);
  if (rc) {
    free(text);
    eng_game_free(g);
    cmd_evict(c, L->row.id);
    cmd_reply(c, r, NULL, "The game could not start: %s", sto_strerror(rc));
    return;
  }
  snprintf(L->row.config, sizeof L->row.config, "%s", text);
  free(text);
  L->row.seed = seed;
  L->row.status = STO_RUNNING;
  L->g = g;
  char list[400];
  seat_list(L, list, sizeof list);
  char line[600];
  snprintf(line, sizeof line,
           "Game #%" PRId64 " (%s) starts! Seats in turn order: %s.",
           L->row.id, game_name(L), list);
  cmd_after_change(c, r, L, line, NULL, true);
}

/* ---- playing ----------------------------------------------------------- */

static live *running(cmd_ctx *c, const cmd_request *r, bool seated,
                     int *seat) {
  live *L = cmd_find_game(c, r, MASK(STO_RUNNING) | MASK(STO_FINISHED));
  if (!L)
    return NULL;
  *seat = cmd_seat_of(L, r->user);
  if (seated && *seat < 0) {
    cmd_reply(c, r, L, "You are not playing in game #%" PRId64 ".",
              L->row.id);
    return NULL;
  }
  return L;
}

static void h_status(cmd_ctx *c, const cmd_request *r) {
  live *L = cmd_find_game(c, r, ACTIVE | MASK(STO_FINISHED));
  if (!L)
    return;
  if (!L->g) {
    char list[400];
    seat_list(L, list, sizeof list);
    cmd_announce(c, r, L,
                 "Game #%" PRId64 " (%s) is waiting for players: %s. Join "
                 "with /game join.",
                 L->row.id, game_name(L), list);
    return;
  }
  char t[CMD_TEXT_MAX * 2];
  cmd_render(L, -1, ENG_RENDER_TABLE, t, sizeof t);
  if (L->g->prompt.player >= 0) {
    size_t o = strlen(t);
    snprintf(t + o, sizeof t - o, "Waiting for %s.",
             L->seats[L->g->prompt.player].name);
  }
  cmd_announce(c, r, L, "%s", t);
}

static void h_hand(cmd_ctx *c, const cmd_request *r) {
  int seat;
  live *L = running(c, r, true, &seat);
  if (!L)
    return;
  char t[CMD_TEXT_MAX + 1];
  cmd_render(L, seat, ENG_RENDER_HAND, t, sizeof t);
  cmd_send(c, r, CMD_TO_EPHEMERAL, r->user, r->user_name, L, t, NULL, 0);
  if (L->g->prompt.player == seat)
    cmd_prompt(c, r, L);
}

/* Matches choice against the current options: id first, then the exact
 * label as shown. Returns the index, -1 for none, -2 for several. */
static int match(const cmd_choice *opts, int n, const char *choice) {
  int found = -1, hits = 0;
  for (int i = 0; i < n; i++) {
    if (strcmp(opts[i].id, choice) == 0)
      return i;
    if (strcmp(opts[i].label, choice) == 0) {
      found = i;
      hits++;
    }
  }
  return hits > 1 ? -2 : found;
}

/* Whether r was already applied (a resent or retried interaction); then
 * says so. Checked first: by then the game may have moved on, and "not
 * your turn" or "no options" would hide that the request counted. */
static bool already_handled(cmd_ctx *c, const cmd_request *r, const live *L) {
  bool seen = false;
  if (sto_request_seen(c->cfg.db, r->request_id, &seen, NULL, NULL) != STO_OK ||
      !seen)
    return false;
  cmd_reply(c, r, L, "That request was already handled.");
  return true;
}

/* The game a seated player acts in with a move or an undo; NULL (after a
 * reply) when there is none or this request was already applied. */
static live *acting(cmd_ctx *c, const cmd_request *r, int *seat) {
  live *L = running(c, r, true, seat);
  return L && !already_handled(c, r, L) ? L : NULL;
}

static void h_move(cmd_ctx *c, const cmd_request *r) {
  int seat;
  live *L = acting(c, r, &seat);
  if (!L)
    return;
  eng_game *g = L->g;
  if (g->prompt.player < 0) {
    cmd_reply(c, r, L, "Game #%" PRId64 " is over.", L->row.id);
    return;
  }
  if (g->prompt.player != seat) {
    cmd_reply(c, r, L, "It is not your decision now: game #%" PRId64
                       " is waiting for %s.",
              L->row.id, L->seats[g->prompt.player].name);
    return;
  }
  static _Thread_local cmd_choice opts[ENG_OPTIONS_MAX];
  int n = cmd_options(L, opts, ENG_OPTIONS_MAX);
  const char *choice = cmd_arg_get(r, "choice");
  int i = match(opts, n, choice);
  if (i < 0) {
    char list[1500];
    size_t o = 0;
    for (int k = 0; k < n && o < sizeof list; k++)
      o += (size_t)snprintf(list + o, sizeof list - o, "\n- `%s` %s",
                            opts[k].id, opts[k].label);
    cmd_reply(c, r, L, "%s Your options:%s",
              i == -2 ? "That label fits several options; use an id."
                      : "That is not one of your options.",
              list);
    return;
  }
  static _Thread_local char before[ENG_MAX_SEATS][CMD_TEXT_MAX + 1];
  cmd_hands(L, before);
  uint32_t code = g->prompt.code[i];
  int turn = g->prompt.turn;
  char id[ENG_ID_MAX + 1], label[ENG_LABEL_MAX + 1];
  eng_game_option(g, i, id, label);
  eng_rc erc = eng_game_answer_index(g, i);
  if (erc) {
    cmd_reply(c, r, L, "%s", eng_strerror(erc));
    return;
  }
  bool revealed = g->answers[g->n_answers - 1].revealed;
  if (!cmd_commit(c, r, L, seat, STO_MOVE_ANSWER, id, turn, revealed))
    return;
  char line[400], named[600];
  g->rs->public_answer(g->state, seat, code, label, line, sizeof line);
  cmd_names(L, line, named, sizeof named);
  cmd_after_change(c, r, L, named, before, g->prompt.turn != turn);
}

static void h_undo(cmd_ctx *c, const cmd_request *r) {
  int seat;
  live *L = acting(c, r, &seat);
  if (!L)
    return;
  if (eng_game_takeback_count(L->g, seat) == 0) {
    cmd_reply(c, r, L, "%s Answers that drew a card, shuffled a deck or "
                       "came before another player's answer are final.",
              eng_strerror(ENG_NO_TAKEBACK));
    return;
  }
  static _Thread_local char before[ENG_MAX_SEATS][CMD_TEXT_MAX + 1];
  cmd_hands(L, before);
  int turn = L->g->prompt.turn;
  eng_rc erc = eng_game_takeback(L->g, seat);
  if (erc) {
    cmd_reply(c, r, L, "%s", eng_strerror(erc));
    return;
  }
  if (!cmd_commit(c, r, L, seat, STO_MOVE_TAKEBACK, "", turn, false))
    return;
  char line[200];
  snprintf(line, sizeof line, "%s took back their last answer.",
           r->user_name);
  cmd_after_change(c, r, L, line, before, false);
}

typedef struct log_ctx {
  eng_game *g;
  const live *L;
  char lines[20][300];
  int n, total;
  bool broken;
} log_ctx;

static void log_line(log_ctx *lc, const char *text) {
  cmd_copy(lc->lines[lc->total % 20], sizeof lc->lines[0], text);
  lc->total++;
}

static int log_move(void *ctx, const sto_move *m) {
  log_ctx *lc = ctx;
  char line[300], named[400];
  if (m->kind == STO_MOVE_TAKEBACK) {
    if (eng_game_takeback(lc->g, m->seat)) {
      lc->broken = true;
      return 1;
    }
    snprintf(line, sizeof line, "Villain %d took back an answer.",
             m->seat + 1);
  } else {
    int i = -1;
    char id[ENG_ID_MAX + 1], label[ENG_LABEL_MAX + 1];
    for (int k = 0; k < lc->g->prompt.n && i < 0; k++) {
      eng_game_option(lc->g, k, id, label);
      if (strcmp(id, m->option) == 0)
        i = k;
    }
    if (i < 0 || lc->g->prompt.player != m->seat) {
      lc->broken = true;
      return 1;
    }
    uint32_t code = lc->g->prompt.code[i];
    if (eng_game_answer_index(lc->g, i)) {
      lc->broken = true;
      return 1;
    }
    lc->g->rs->public_answer(lc->g->state, m->seat, code, label, line,
                             sizeof line);
  }
  cmd_names(lc->L, line, named, sizeof named);
  char numbered[420];
  int o = snprintf(numbered, sizeof numbered, "%" PRId64 ". ", m->seq + 1);
  cmd_copy(numbered + o, sizeof numbered - (size_t)o, named);
  log_line(lc, numbered);
  return 0;
}

static void h_log(cmd_ctx *c, const cmd_request *r) {
  int seat;
  live *L = running(c, r, false, &seat);
  if (!L)
    return;
  eng_config cfg;
  int seats;
  cmd_parse_config(L->row.config, &cfg, &seats);
  log_ctx *lc = calloc(1, sizeof *lc);
  if (!lc || eng_game_new(L->g->rs, &cfg, L->row.seed, &lc->g)) {
    free(lc);
    cmd_reply(c, r, L, "The history could not be rebuilt.");
    return;
  }
  lc->L = L;
  sto_move_list(c->cfg.db, L->row.id, 0, log_move, lc);
  char text[CMD_TEXT_MAX * 4];
  size_t o = (size_t)snprintf(text, sizeof text,
                              "**Game #%" PRId64 "**, %d move%s%s:\n",
                              L->row.id, lc->total, lc->total == 1 ? "" : "s",
                              lc->total > 20 ? " (the last 20)" : "");
  int first = lc->total > 20 ? lc->total - 20 : 0;
  for (int k = first; k < lc->total && o < sizeof text; k++)
    o += (size_t)snprintf(text + o, sizeof text - o, "%s\n",
                          lc->lines[k % 20]);
  if (lc->broken && o < sizeof text)
    snprintf(text + o, sizeof text - o, "(the rest could not be replayed)");
  eng_game_free(lc->g);
  free(lc);
  cmd_send(c, r, CMD_TO_EPHEMERAL, r->user, r->user_name, L, text, NULL, 0);
}

/* ---- information -------------------------------------------------------- */

static void h_list(cmd_ctx *c, const cmd_request *r) {
  int64_t ids[16];
  int n = cmd_channel_games(c, r->channel,
                            ACTIVE | MASK(STO_FINISHED) | MASK(STO_ABORTED),
                            ids, 10);
  if (n <= 0) {
    cmd_reply(c, r, NULL,
              n < 0 ? "The games could not be read."
                    : "No games in this channel yet. Start one with /game new.");
    return;
  }
  char text[CMD_TEXT_MAX];
  size_t o = (size_t)snprintf(text, sizeof text, "Games in this channel:\n");
  for (int k = 0; k < n && o < sizeof text; k++) {
    char why[200], list[400];
    live *L = cmd_load(c, ids[k], why, sizeof why);
    if (!L) {
      o += (size_t)snprintf(text + o, sizeof text - o,
                            "- #%" PRId64 ": unreadable (%s)\n", ids[k], why);
      continue;
    }
    seat_list(L, list, sizeof list);
    o += (size_t)snprintf(
        text + o, sizeof text - o, "- #%" PRId64 " %s: %s, %" PRId64
                                   " moves; %s\n",
        L->row.id, game_name(L),
        L->row.status == STO_ABORTED ? "aborted"
                                     : cmd_status_name(L->row.status),
        L->row.moves, list);
  }
  cmd_reply(c, r, NULL, "%s", text);
}

static const char *field_text(const json_t *card, const char *half) {
  return json_string_value(
      json_object_get(json_object_get(card, half), "text"));
}

/* Finds a card by name or id among every ruleset's cards (the channel's
 * game first). Returns a new reference or NULL. */
static json_t *find_card(const char *name, const eng_ruleset **from) {
  size_t n;
  const eng_ruleset *const *all = eng_rulesets(&n);
  for (size_t k = 0; k < n; k++) {
    json_t *cards = all[k]->cards ? all[k]->cards() : NULL;
    size_t i;
    json_t *card;
    json_array_foreach(cards, i, card) {
      const char *cn = json_string_value(json_object_get(card, "name"));
      const char *ci = json_string_value(json_object_get(card, "id"));
      if ((cn && strcasecmp(cn, name) == 0) || (ci && strcmp(ci, name) == 0)) {
        json_incref(card);
        json_decref(cards);
        *from = all[k];
        return card;
      }
    }
    json_decref(cards);
  }
  return NULL;
}

static void h_card(cmd_ctx *c, const cmd_request *r) {
  const char *name = cmd_arg_get(r, "name");
  const eng_ruleset *rs = NULL;
  json_t *card = find_card(name, &rs);
  if (!card) {
    cmd_reply(c, r, NULL, "No card is called '%.60s'. Try the suggestions "
                          "while you type.",
              name);
    return;
  }
  char text[CMD_TEXT_MAX];
  size_t o = (size_t)snprintf(
      text, sizeof text, "**%s** (%s, %s card, %lld in the deck)\n",
      json_string_value(json_object_get(card, "name")), rs->name,
      json_string_value(json_object_get(card, "deck")),
      (long long)json_integer_value(json_object_get(card, "count")));
  const char *power = json_string_value(json_object_get(card, "power_text"));
  if (power)
    o += (size_t)snprintf(
        text + o, sizeof text - o, "Mob: %s%s%s\nMinion Ops%s: %s\n", power,
        json_is_true(json_object_get(card, "proof")) ? ", Asteroid-proof" : "",
        json_is_true(json_object_get(card, "boosted")) ? ", Boosted" : "",
        json_is_true(json_object_get(card, "swift")) ? " (Swift)" : "",
        field_text(card, "ops") ? field_text(card, "ops") : "");
  const char *cost = json_string_value(json_object_get(card, "cost_text"));
  if (cost && o < sizeof text)
    snprintf(text + o, sizeof text - o,
             "Project, cost %s: %s\nSecret Facility, %lld point%s: %s\n", cost,
             field_text(card, "project") ? field_text(card, "project") : "",
             (long long)json_integer_value(json_object_get(card, "points")),
             json_integer_value(json_object_get(card, "points")) == 1 ? ""
                                                                       : "s",
             field_text(card, "facility") ? field_text(card, "facility") : "");
  json_decref(card);
  cmd_reply(c, r, NULL, "%s", text);
}

/* ---- moderation --------------------------------------------------------- */

static void end_game(cmd_ctx *c, const cmd_request *r, live *L,
                     const char *why) {
  sto_rc rc = sto_game_set_status(c->cfg.db, L->row.id, STO_ABORTED, c->now);
  if (rc) {
    cmd_reply(c, r, L, "Game #%" PRId64 " could not be ended: %s", L->row.id,
              sto_strerror(rc));
    return;
  }
  L->row.status = STO_ABORTED;
  cmd_announce(c, r, L, "Game #%" PRId64 " was ended by %s%s.", L->row.id,
               r->user_name, why);
  cmd_evict(c, L->row.id);
}

static void h_abort(cmd_ctx *c, const cmd_request *r) {
  live *L = cmd_find_game(c, r, ACTIVE);
  if (L)
    end_game(c, r, L, "");
}

static void h_kick(cmd_ctx *c, const cmd_request *r) {
  live *L = cmd_find_game(c, r, ACTIVE);
  if (!L)
    return;
  const char *who = cmd_arg_get(r, "user");
  int seat = cmd_seat_of(L, who);
  for (int i = 0; seat < 0 && i < L->n_seats; i++)
    if (strcasecmp(L->seats[i].name, who) == 0)
      seat = i;
  if (seat < 0) {
    cmd_reply(c, r, L, "'%.40s' is not in game #%" PRId64 ".", who,
              L->row.id);
    return;
  }
  char name[64];
  snprintf(name, sizeof name, "%s", L->seats[seat].name);
  if (L->row.status == STO_RUNNING) {
    char why[200];
    snprintf(why, sizeof why,
             ": %s was removed, and a running game cannot go on without "
             "them",
             name);
    end_game(c, r, L, why);
    return;
  }
  sto_rc rc = drop_seat(c, L, seat);
  if (rc) {
    cmd_reply(c, r, NULL, "%s could not be removed: %s", name,
              sto_strerror(rc));
    return;
  }
  cmd_announce(c, r, L, "%s removed %s from game #%" PRId64 ".",
               r->user_name, name, L->row.id);
  close_if_empty(c, r, L);
}

static void h_settings(cmd_ctx *c, const cmd_request *r) {
  const char *key = cmd_arg_get(r, "key"), *value = cmd_arg_get(r, "value");
  char scope[64];
  scope_of(r, scope, sizeof scope);
  if (!key) {
    cmd_reply(c, r, NULL, "Settings: games_per_channel = %ld (1-20).",
              setting(c, r, "games_per_channel", 1, 1, 20));
    return;
  }
  if (strcmp(key, "games_per_channel") != 0) {
    cmd_reply(c, r, NULL, "There is no setting '%.40s'. Settings: "
                          "games_per_channel.",
              key);
    return;
  }
  long v;
  if (!value || !cmd_parse_int(value, 1, 20, &v)) {
    cmd_reply(c, r, NULL, "games_per_channel needs a value from 1 to 20.");
    return;
  }
  char text[24];
  snprintf(text, sizeof text, "%ld", v);
  sto_rc rc = sto_setting_set(c->cfg.db, scope, key, text);
  if (rc) {
    cmd_reply(c, r, NULL, "The setting could not be saved: %s",
              sto_strerror(rc));
    return;
  }
  cmd_announce(c, r, NULL, "%s set games_per_channel to %ld.", r->user_name,
               v);
}

/* ---- autocomplete ------------------------------------------------------- */

static bool has_prefix_ci(const char *s, const char *partial) {
  if (!partial)
    return true;
  for (const char *p = s; *p; p++) {
    size_t k = 0;
    while (partial[k] && p[k] &&
           tolower((unsigned char)p[k]) == tolower((unsigned char)partial[k]))
      k++;
    if (!partial[k])
      return true;
  }
  return !*partial;
}

int cmd_autocomplete(cmd_ctx *c, const cmd_request *r, const char *option,
                     const char *partial, cmd_choice *out, int max) {
  int n = 0;
  if (strcmp(option, "choice") == 0) {
    int seat;
    live *L = cmd_find_game(c, r, MASK(STO_RUNNING));
    if (!L || (seat = cmd_seat_of(L, r->user)) < 0 ||
        L->g->prompt.player != seat)
      return 0;
    static _Thread_local cmd_choice opts[ENG_OPTIONS_MAX];
    int k = cmd_options(L, opts, ENG_OPTIONS_MAX);
    for (int i = 0; i < k && n < max; i++)
      if (has_prefix_ci(opts[i].label, partial) ||
          has_prefix_ci(opts[i].id, partial))
        out[n++] = opts[i];
  } else if (strcmp(option, "name") == 0 || strcmp(option, "game") == 0) {
    size_t count;
    const eng_ruleset *const *all = eng_rulesets(&count);
    for (size_t k = 0; k < count; k++) {
      if (strcmp(option, "game") == 0) {
        if (n < max && has_prefix_ci(all[k]->name, partial)) {
          snprintf(out[n].id, sizeof out[n].id, "%s", all[k]->id);
          snprintf(out[n].label, sizeof out[n].label, "%s", all[k]->name);
          n++;
        }
        continue;
      }
      json_t *cards = all[k]->cards ? all[k]->cards() : NULL;
      size_t i;
      json_t *card;
      json_array_foreach(cards, i, card) {
        const char *cn = json_string_value(json_object_get(card, "name"));
        if (n < max && cn && has_prefix_ci(cn, partial)) {
          snprintf(out[n].id, sizeof out[n].id, "%s", cn);
          snprintf(out[n].label, sizeof out[n].label, "%s", cn);
          n++;
        }
      }
      json_decref(cards);
    }
  }
  return n;
}
