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
static void h_status(cmd_ctx *c, const cmd_request *r);
static void h_hand(cmd_ctx *c, const cmd_request *r);
static void h_move(cmd_ctx *c, const cmd_request *r);
static void h_undo(cmd_ctx *c, const cmd_request *r);
static void h_list(cmd_ctx *c, const cmd_request *r);
static void h_card(cmd_ctx *c, const cmd_request *r);
static void h_abort(cmd_ctx *c, const cmd_request *r);
static void h_kick(cmd_ctx *c, const cmd_request *r);

#define GAME_OPT                                                               \
  {                                                                            \
    "game", "Which game, when several are open here (see /game list)",         \
        CMD_ARG_INTEGER, false, false, 1, 1000000000                           \
  }

const cmd_def cmd_table[] = {
    {"new",
     "Open a new game in this channel",
     false,
     h_new,
     4,
     {{"game", "Which game to play", CMD_ARG_STRING, true, true, 0, 0},
      {"mode", "Rules variant, e.g. blitz or team+annihilation", CMD_ARG_STRING,
       false, true, 0, 0},
      {"seats", "Most players who may join", CMD_ARG_INTEGER, false, false, 2,
       ENG_MAX_SEATS},
      {"ai", "How many AI players take seats at once", CMD_ARG_INTEGER, false,
       false, 1, ENG_MAX_SEATS - 1}}},
    {"join",
     "Join the open game in this channel",
     false,
     h_join,
     1,
     {GAME_OPT}},
    {"leave",
     "Leave a game (a running one only with confirm:yes)",
     false,
     h_leave,
     2,
     {GAME_OPT,
      {"confirm", "yes: leave a running game; the AI takes your seat",
       CMD_ARG_STRING, false, false, 0, 0}}},
    {"start",
     "Start the game with the players who joined",
     false,
     cmd_h_start,
     1,
     {GAME_OPT}},
    {"status", "Show the table", false, h_status, 1, {GAME_OPT}},
    {"hand",
     "Show your private hand (only to you)",
     false,
     h_hand,
     1,
     {GAME_OPT}},
    {"move",
     "Answer your current decision",
     false,
     h_move,
     2,
     {{"choice", "An option id or its exact label", CMD_ARG_STRING, true, true,
       0, 0},
      GAME_OPT}},
    {"undo",
     "Take back your last answer of this turn",
     false,
     h_undo,
     1,
     {GAME_OPT}},
    {"log",
     "The game's public history, 20 moves a page",
     false,
     cmd_h_log,
     2,
     {GAME_OPT,
      {"page", "Which page (1 = the first moves; default: the latest)",
       CMD_ARG_INTEGER, false, false, 1, 1000000000}}},
    {"list",
     "The games of this channel",
     false,
     h_list,
     1,
     {{"all", "Moderators: yes lists every game of this server", CMD_ARG_STRING,
       false, false, 0, 0}}},
    {"card",
     "A card's full text",
     false,
     h_card,
     1,
     {{"name", "The card's name", CMD_ARG_STRING, true, true, 0, 0}}},
    {"export",
     "A finished game's record as a file (check it with lair replay)",
     false,
     cmd_h_export,
     1,
     {GAME_OPT}},
    {"rematch",
     "Play an ended game again: same game, mode and seats",
     false,
     cmd_h_rematch,
     1,
     {GAME_OPT}},
    {"addai",
     "Add an AI player to the open game",
     false,
     cmd_h_addai,
     2,
     {{"level", "random or heuristic (default)", CMD_ARG_STRING, false, false,
       0, 0},
      GAME_OPT}},
    {"mute",
     "No more reminders for this turn",
     false,
     cmd_h_mute,
     1,
     {GAME_OPT}},
    {"prefs",
     "Your reminders: channel, dm or off; time zone; quiet hours",
     false,
     cmd_h_prefs,
     3,
     {{"reminders", "channel, dm or off", CMD_ARG_STRING, false, false, 0, 0},
      {"tz", "Your time zone, e.g. Europe/Berlin", CMD_ARG_STRING, false, false,
       0, 0},
      {"quiet", "Hours without reminders, e.g. 22-7", CMD_ARG_STRING, false,
       false, 0, 0}}},
    {"vacation",
     "Pause your clock in a game for some days",
     false,
     cmd_h_vacation,
     2,
     {{"days", "How many days", CMD_ARG_INTEGER, true, false, 1, 60},
      GAME_OPT}},
    {"deadline",
     "Set a game's time per decision (opener or moderator)",
     false,
     cmd_h_deadline,
     2,
     {{"hours", "Hours per decision; 0 turns the deadline off", CMD_ARG_INTEGER,
       true, false, 0, 720},
      GAME_OPT}},
    {"abort", "Moderators: end a game at once", true, h_abort, 1, {GAME_OPT}},
    {"replace",
     "Moderators: give a player's seat to another member or the AI",
     true,
     cmd_h_replace,
     3,
     {{"user", "The player whose seat changes hands", CMD_ARG_USER, true, false,
       0, 0},
      {"with", "The member who takes it (without: the AI)", CMD_ARG_USER, false,
       false, 0, 0},
      GAME_OPT}},
    {"pause",
     "Moderators: stop a game's clock and moves",
     true,
     cmd_h_pause,
     1,
     {GAME_OPT}},
    {"resume",
     "Moderators: let a paused game go on",
     true,
     cmd_h_resume,
     1,
     {GAME_OPT}},
    {"kick",
     "Moderators: remove a member from a game",
     true,
     h_kick,
     2,
     {{"user", "The member to remove", CMD_ARG_USER, true, false, 0, 0},
      GAME_OPT}},
    {"settings",
     "Moderators: show or change this server's settings",
     true,
     cmd_h_settings,
     2,
     {{"key", "A setting's name (without it: all of them)", CMD_ARG_STRING,
       false, false, 0, 0},
      {"value", "The new value", CMD_ARG_STRING, false, false, 0, 0}}},
    {"audit",
     "Moderators: this server's log of moderator actions",
     true,
     cmd_h_audit,
     1,
     {{"page", "Which page (1 = the newest entries)", CMD_ARG_INTEGER, false,
       false, 1, 1000000000}}},
};
const size_t cmd_table_n = sizeof cmd_table / sizeof cmd_table[0];

const cmd_def *cmd_find(const char *name) {
  for (size_t i = 0; i < cmd_table_n; i++)
    if (strcmp(cmd_table[i].name, name) == 0)
      return &cmd_table[i];
  return NULL;
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
    cmd_reply(c, r, NULL,
              "Games are opened in a server channel, where "
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
  long ai_seats = 0;
  if (cmd_arg_get(r, "ai") &&
      !cmd_parse_int(cmd_arg_get(r, "ai"), 1, seats - 1, &ai_seats)) {
    cmd_reply(c, r, NULL, "ai must leave a seat for you: from 1 to %ld.",
              seats - 1);
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
  if (!cmd_member_has_room(c, r, NULL) || !cmd_channel_has_room(c, r))
    return;
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
  /* The server may want each game in a thread of its own. */
  bool threaded = false;
  if (c->cfg.open_thread && cmd_setting(c, r->guild, "threads") == 1) {
    char name[100];
    snprintf(name, sizeof name, "%s (opened by %.40s)", rs->name, r->user_name);
    threaded = c->cfg.open_thread(c->cfg.thread_ctx, r->channel, name,
                                  g.channel, sizeof g.channel);
    if (!threaded) {
      cmd_reply(c, r, NULL,
                "A thread for the game could not be opened "
                "(does Lair have the Create Public Threads "
                "permission here?); nothing was created.");
      return;
    }
  }
  snprintf(g.creator, sizeof g.creator, "%s", r->user);
  int64_t gid;
  sto_seat s = {.seat = 0};
  snprintf(s.user, sizeof s.user, "%s", r->user);
  snprintf(s.name, sizeof s.name, "%s", r->user_name);
  sto_rc rc = sto_game_create(c->cfg.db, &g, &gid);
  if (!rc)
    rc = sto_seat_set(c->cfg.db, gid, &s);
  if (rc) {
    cmd_fail(c, "The game could not be created: %s", sto_strerror(rc));
    return;
  }
  char why[200];
  live *L = cmd_load(c, gid, why, sizeof why);
  long ai = 0;
  if (L && cmd_arg_get(r, "ai") &&
      cmd_parse_int(cmd_arg_get(r, "ai"), 1, seats - 1, &ai)) {
    for (long k = 0; k < ai; k++) {
      sto_seat bot;
      cmd_ai_seat(L->n_seats, ENG_AI_HEURISTIC, &bot);
      if (sto_seat_set(c->cfg.db, gid, &bot))
        break;
      L->seats[L->n_seats++] = bot;
    }
  }
  if (L)
    cmd_arm_lobby(c, L);
  if (threaded)
    cmd_announce(c, r, NULL, "%s opened game #%" PRId64 " in <#%s>.",
                 r->user_name, gid, g.channel);
  cmd_announce(c, r, L,
               "%s opened game #%" PRId64 ": %s (%s, up to %ld players%s). "
               "Join with /game join; %s starts it with /game start.",
               r->user_name, gid, rs->name, cfg.mode[0] ? cfg.mode : "standard",
               seats, ai ? ", AI players seated" : "", r->user_name);
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
    cmd_reply(c, r, L, "You have already joined game #%" PRId64 ".", L->row.id);
    return;
  }
  if (L->n_seats >= seats) {
    cmd_reply(c, r, L, "Game #%" PRId64 " is full (%d players).", L->row.id,
              seats);
    return;
  }
  if (!cmd_member_has_room(c, r, L))
    return;
  sto_seat s = {.seat = L->n_seats};
  snprintf(s.user, sizeof s.user, "%s", r->user);
  snprintf(s.name, sizeof s.name, "%s", r->user_name);
  sto_rc rc = sto_seat_set(c->cfg.db, L->row.id, &s);
  if (rc) {
    cmd_fail(c, "You could not join: %s", sto_strerror(rc));
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
  if (!cmd_set_status(c, L, STO_ABORTED))
    return;
  cmd_announce(c, r, L, "Game #%" PRId64 " closed: nobody is left.", L->row.id);
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
    const char *confirm = cmd_arg_get(r, "confirm");
    if (!confirm || strcmp(confirm, "yes") != 0) {
      cmd_reply(c, r, L,
                "Game #%" PRId64 " is running. Leaving it forfeits your "
                "seat: the AI plays it to the end and you cannot win. To "
                "leave, repeat with confirm:yes.",
                L->row.id);
      return;
    }
    cmd_forfeit_seat(c, r, L, seat, "they left");
    return;
  }
  sto_rc rc = drop_seat(c, L, seat);
  if (rc) {
    cmd_fail(c, "You could not leave: %s", sto_strerror(rc));
    return;
  }
  cmd_announce(c, r, L, "%s left game #%" PRId64 ".", r->user_name, L->row.id);
  close_if_empty(c, r, L);
}

void cmd_h_start(cmd_ctx *c, const cmd_request *r) {
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
  if (!cmd_opener_or_mod(c, r, L, "start it"))
    return;
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
  sto_rc rc =
      text ? sto_game_set_config(c->cfg.db, L->row.id, text, seed, c->now)
           : STO_NOMEM;
  if (!rc)
    rc = sto_game_set_status(c->cfg.db, L->row.id, STO_RUNNING, c->now);
  if (rc) {
    free(text);
    eng_game_free(g);
    cmd_evict(c, L->row.id);
    cmd_fail(c, "The game could not start: %s", sto_strerror(rc));
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
           "Game #%" PRId64 " (%s) starts! Seats in turn order: %s.", L->row.id,
           game_name(L), list);
  cmd_after_change(c, r, L, line, NULL, true);
}

/* ---- playing ----------------------------------------------------------- */

static live *running(cmd_ctx *c, const cmd_request *r, bool seated, int *seat) {
  live *L = cmd_find_game(c, r, MASK(STO_RUNNING) | MASK(STO_FINISHED));
  if (!L)
    return NULL;
  *seat = cmd_seat_of(L, r->user);
  if (seated && *seat < 0) {
    cmd_reply(c, r, L, "You are not playing in game #%" PRId64 ".", L->row.id);
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
    cmd_prompt(c, r, L, t);
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
  if (cmd_paused(c, L)) {
    cmd_reply(c, r, L, "Game #%" PRId64 " is paused by a moderator.",
              L->row.id);
    return;
  }
  eng_game *g = L->g;
  if (g->prompt.player < 0) {
    cmd_reply(c, r, L, "Game #%" PRId64 " is over.", L->row.id);
    return;
  }
  if (g->prompt.player != seat) {
    cmd_reply(c, r, L,
              "It is not your decision now: game #%" PRId64
              " is waiting for %s.",
              L->row.id, L->seats[g->prompt.player].name);
    return;
  }
  cmd_choice opts[ENG_OPTIONS_MAX];
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
  char before[ENG_MAX_SEATS][CMD_TEXT_MAX + 1];
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
  if (cmd_paused(c, L) || cmd_game_setting(c, L, "undo") == 1) {
    cmd_reply(c, r, L,
              cmd_paused(c, L)
                  ? "Game #%" PRId64 " is paused by a moderator."
                  : "Takeback is turned off on this server (game #%" PRId64
                    ").",
              L->row.id);
    return;
  }
  if (eng_game_takeback_count(L->g, seat) == 0) {
    cmd_reply(c, r, L,
              "%s Answers that drew a card, shuffled a deck or "
              "came before another player's answer are final.",
              eng_strerror(ENG_NO_TAKEBACK));
    return;
  }
  char before[ENG_MAX_SEATS][CMD_TEXT_MAX + 1];
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
  snprintf(line, sizeof line, "%s took back their last answer.", r->user_name);
  cmd_after_change(c, r, L, line, before, false);
}

/* ---- information -------------------------------------------------------- */

static void h_list(cmd_ctx *c, const cmd_request *r) {
  if (cmd_list_all(c, r))
    return;
  int64_t ids[16];
  unsigned all = ACTIVE | MASK(STO_FINISHED) | MASK(STO_ABORTED);
  /* In a DM: the requester's own games, wherever they are played. */
  int n = r->in_dm ? cmd_user_games(c, r->user, all, ids, 10)
                   : cmd_channel_games(c, r->channel, all, ids, 10);
  if (n <= 0) {
    cmd_reply(c, r, NULL, "%s",
              n < 0      ? "The games could not be read."
              : r->in_dm ? "You have no games yet. Start one in a server's "
                           "channel with /game new."
                         : "No games in this channel yet. Start one with "
                           "/game new.");
    return;
  }
  char text[CMD_TEXT_MAX];
  size_t o =
      (size_t)snprintf(text, sizeof text, "%s:\n",
                       r->in_dm ? "Your games" : "Games in this channel");
  for (int k = 0; k < n && o < sizeof text; k++) {
    char why[200], list[400];
    live *L = cmd_load(c, ids[k], why, sizeof why);
    if (!L) {
      o += (size_t)snprintf(text + o, sizeof text - o,
                            "- #%" PRId64 ": unreadable (%s)\n", ids[k], why);
      continue;
    }
    seat_list(L, list, sizeof list);
    char where[48] = "";
    if (r->in_dm && L->row.channel[0])
      snprintf(where, sizeof where, " in <#%s>", L->row.channel);
    o += (size_t)snprintf(text + o, sizeof text - o,
                          "- #%" PRId64 " %s%s: %s, %" PRId64 " moves; %s\n",
                          L->row.id, game_name(L), where,
                          L->row.status == STO_ABORTED
                              ? "aborted"
                              : cmd_status_name(L->row.status),
                          L->row.moves, list);
  }
  long total = 0;
  if ((r->in_dm
           ? sto_game_count_user(c->cfg.db, r->user, all, &total)
           : sto_game_count(c->cfg.db, r->channel, all, &total)) == STO_OK &&
      total > n && o < sizeof text)
    snprintf(text + o, sizeof text - o,
             "(the newest %d of %ld; an older one by its number, e.g. "
             "/game log game:<number>)",
             n, total);
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
    cmd_reply(c, r, NULL,
              "No card is called '%.60s'. Try the suggestions "
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

/* Ends L (then freed); false, after a reply, when it could not. */
static bool end_game(cmd_ctx *c, const cmd_request *r, live *L,
                     const char *why) {
  sto_rc rc = sto_game_set_status(c->cfg.db, L->row.id, STO_ABORTED, c->now);
  if (rc) {
    cmd_fail(c, "Game #%" PRId64 " could not be ended: %s", L->row.id,
             sto_strerror(rc));
    return false;
  }
  L->row.status = STO_ABORTED;
  cmd_announce(c, r, L, "Game #%" PRId64 " was ended by %s%s.", L->row.id,
               r->user_name, why);
  cmd_evict(c, L->row.id);
  return true;
}

static void h_abort(cmd_ctx *c, const cmd_request *r) {
  live *L = cmd_find_game(c, r, ACTIVE);
  if (!L)
    return;
  int64_t id = L->row.id;
  const char *was = cmd_status_name(L->row.status);
  if (!end_game(c, r, L, ""))
    return;
  sto_timer_clear(c->cfg.db, id, NULL, -1);
  cmd_audit(c, r, "abort", id, "%s", was);
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
    cmd_reply(c, r, L, "'%.40s' is not in game #%" PRId64 ".", who, L->row.id);
    return;
  }
  char name[64];
  snprintf(name, sizeof name, "%s", L->seats[seat].name);
  if (L->row.status == STO_RUNNING) {
    cmd_audit(c, r, "kick", L->row.id, "%s (seat %d, to the AI)", name,
              seat + 1);
    cmd_forfeit_seat(c, r, L, seat, "a moderator removed them");
    return;
  }
  sto_rc rc = drop_seat(c, L, seat);
  if (rc) {
    cmd_fail(c, "%s could not be removed: %s", name, sto_strerror(rc));
    return;
  }
  cmd_audit(c, r, "kick", L->row.id, "%s (seat %d, from the lobby)", name,
            seat + 1);
  cmd_announce(c, r, L, "%s removed %s from game #%" PRId64 ".", r->user_name,
               name, L->row.id);
  close_if_empty(c, r, L);
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
    cmd_choice opts[ENG_OPTIONS_MAX];
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
