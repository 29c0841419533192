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
static void h_board(cmd_ctx *c, const cmd_request *r);
static void h_hand(cmd_ctx *c, const cmd_request *r);
static void h_move(cmd_ctx *c, const cmd_request *r);
static void h_undo(cmd_ctx *c, const cmd_request *r);
static void h_list(cmd_ctx *c, const cmd_request *r);
static void h_card(cmd_ctx *c, const cmd_request *r);
static void h_abort(cmd_ctx *c, const cmd_request *r);
static void h_kick(cmd_ctx *c, const cmd_request *r);
static void h_pile(cmd_ctx *c, const cmd_request *r);

/* Outside the macro, so that tests/lang_check.py sees the mark (it skips
 * preprocessor lines). */
static const char game_opt_help[] =
    N_("Which game, when several are open here (see /game list)");
#define GAME_OPT                                                               \
  { "game", game_opt_help, CMD_ARG_INTEGER, false, false, 1, 1000000000, NULL }

static const char *const yes_only[] = {"yes", NULL};
static const char *const yes_no[] = {"yes", "no", NULL};
static const char *const ai_levels[] = {"heuristic", "random", NULL};
static const char *const reminder_routes[] = {"channel", "dm", "off", NULL};
static const char *const lang_choices[] = {"auto", "en", "de", NULL};
static const char *const window_choices[] = {"ask", "auto-pass", NULL};
static const char *const log_since[] = {"me", "start", NULL};

const cmd_group_def cmd_groups[] = {
    {"game", N_("Play tabletop games with Lair"), -1},
    /* Manage Server (1 << 5): Discord shows /gamemod to those members
     * only; a server can widen it in its integration settings, and Lair
     * checks every call itself (is_mod). */
    {"gamemod", N_("Moderators: manage this server's Lair games"), 1L << 5},
    {"prefs",
     N_("Your own Lair settings: reminders, vacations, Condition and interrupt "
        "windows"),
     -1},
};
const size_t cmd_groups_n = sizeof cmd_groups / sizeof cmd_groups[0];

const cmd_def cmd_table[] = {
    {"game",
     "new",
     N_("Open a new game in this channel"),
     false,
     h_new,
     4,
     {{"kind", N_("Which game to play"), CMD_ARG_STRING, true, true, 0, 0,
       NULL},
      {"mode", N_("Rules variant, e.g. blitz or team+annihilation"),
       CMD_ARG_STRING, false, true, 0, 0, NULL},
      {"seats", N_("Most players who may join"), CMD_ARG_INTEGER, false, false,
       2, ENG_MAX_SEATS, NULL},
      {"ai", N_("How many AI players take seats at once"), CMD_ARG_INTEGER,
       false, false, 1, ENG_MAX_SEATS - 1, NULL}}},
    {"game",
     "join",
     N_("Join the open game in this channel"),
     false,
     h_join,
     1,
     {GAME_OPT}},
    {"game",
     "leave",
     N_("Leave a game or decline a rematch's invitation (a running game only "
        "with confirm:yes)"),
     false,
     h_leave,
     2,
     {GAME_OPT,
      {"confirm", N_("yes: leave a running game; the AI takes your seat"),
       CMD_ARG_STRING, false, false, 0, 0, yes_only}}},
    {"game",
     "start",
     N_("Start the game with the players who joined"),
     false,
     cmd_h_start,
     1,
     {GAME_OPT}},
    {"game",
     "status",
     N_("Show the table (only to you, unless public:yes)"),
     false,
     h_status,
     2,
     {GAME_OPT,
      {"public", N_("yes: post the table in the channel for everyone"),
       CMD_ARG_STRING, false, false, 0, 0, yes_no}}},
    {"game",
     "hand",
     N_("Show your private hand (only to you)"),
     false,
     h_hand,
     1,
     {GAME_OPT}},
    {"game",
     "move",
     N_("Answer your current decision"),
     false,
     h_move,
     2,
     {{"choice", N_("An option id or its label (? lists them)"), CMD_ARG_STRING,
       true, true, 0, 0, NULL},
      GAME_OPT}},
    {"game",
     "undo",
     N_("Take back your last answer of this turn"),
     false,
     h_undo,
     1,
     {GAME_OPT}},
    {"game",
     "pile",
     N_("List an open pile in full, e.g. a discard pile (only to you)"),
     false,
     h_pile,
     2,
     {{"pile", N_("Which pile (without it: the list of open piles)"),
       CMD_ARG_STRING, false, true, 0, 0, NULL},
      GAME_OPT}},
    {"game",
     "log",
     N_("The game's history: for a player, what happened since their last "
        "answer"),
     false,
     cmd_h_log,
     3,
     {GAME_OPT,
      {"page",
       N_("Which page (default: the catch-up's first, the history's last)"),
       CMD_ARG_INTEGER, false, false, 1, 1000000000, NULL},
      {"since",
       N_("me: since your last answer (a player's default); start: all of it"),
       CMD_ARG_STRING, false, false, 0, 0, log_since}}},
    {"game", "list", N_("The games of this channel"), false, h_list, 0, {{0}}},
    {"game",
     "card",
     N_("A card's full text"),
     false,
     h_card,
     1,
     {{"name", N_("The card's name"), CMD_ARG_STRING, true, true, 0, 0, NULL}}},
    {"game",
     "export",
     N_("A game's record as a file (check it with lair replay)"),
     false,
     cmd_h_export,
     1,
     {GAME_OPT}},
    {"game",
     "rematch",
     N_("Play an ended game again: a lobby inviting its players back"),
     false,
     cmd_h_rematch,
     1,
     {GAME_OPT}},
    {"game",
     "addai",
     N_("Add an AI player to the open game (lobby only)"),
     false,
     cmd_h_addai,
     2,
     {{"level", N_("How the AI plays (default: heuristic)"), CMD_ARG_STRING,
       false, false, 0, 0, ai_levels},
      GAME_OPT}},
    {"game",
     "deadline",
     N_("Set a game's time per turn (opener or moderator)"),
     false,
     cmd_h_deadline,
     2,
     {{"hours", N_("Hours each player has per turn; 0 turns the deadline off"),
       CMD_ARG_INTEGER, true, false, 0, 720, NULL},
      GAME_OPT}},
    {"game",
     "board",
     N_("A picture of the table (only to you, unless public:yes)"),
     false,
     h_board,
     2,
     {GAME_OPT,
      {"public", N_("yes: post the picture in the channel for everyone"),
       CMD_ARG_STRING, false, false, 0, 0, yes_no}}},
    {"game",
     "help",
     N_("A game's rules, topic by topic (only to you)"),
     false,
     cmd_h_help,
     3,
     {{"topic", N_("A heading of the rules (without it: the list of topics)"),
       CMD_ARG_STRING, false, true, 0, 0, NULL},
      {"kind", N_("Which game (default: this channel's)"), CMD_ARG_STRING,
       false, true, 0, 0, NULL},
      {"page", N_("Which page of the topic"), CMD_ARG_INTEGER, false, false, 1,
       1000, NULL}}},
    {"game",
     "learn",
     N_("Play a tutorial game against the AI, with a hint at every decision"),
     false,
     cmd_h_learn,
     1,
     {{"kind", N_("Which game to learn"), CMD_ARG_STRING, true, true, 0, 0,
       NULL}}},
    {"game",
     "stats",
     N_("Games, wins and rating of a member on this server (only to you)"),
     false,
     cmd_h_stats,
     2,
     {{"user", N_("Whose statistics (default: yours)"), CMD_ARG_USER, false,
       false, 0, 0, NULL},
      {"kind", N_("Which game (default: each game played here)"),
       CMD_ARG_STRING, false, true, 0, 0, NULL}}},
    {"game",
     "leaderboard",
     N_("The best rated players of this server (only to you)"),
     false,
     cmd_h_leaderboard,
     1,
     {{"kind", N_("Which game (default: each game played here)"),
       CMD_ARG_STRING, false, true, 0, 0, NULL}}},
    {"prefs",
     "show",
     N_("Your reminder settings"),
     false,
     cmd_h_prefs,
     0,
     {{0}}},
    {"prefs",
     "set",
     N_("Change your reminders, time zone, quiet hours, Condition and "
        "interrupt "
        "windows or language"),
     false,
     cmd_h_prefs,
     5,
     {{"reminders", N_("Where your turn reminders go"), CMD_ARG_STRING, false,
       false, 0, 0, reminder_routes},
      {"tz", N_("Your time zone, e.g. Europe/Berlin"), CMD_ARG_STRING, false,
       false, 0, 0, NULL},
      {"quiet", N_("Hours without reminders or deadline warnings, e.g. 22-7"),
       CMD_ARG_STRING, false, false, 0, 0, NULL},
      {"conditions",
       N_("ask: a DM at every Condition or interrupt window; auto-pass: Lair "
          "passes"),
       CMD_ARG_STRING, false, false, 0, 0, window_choices},
      {"language",
       N_("The language Lair answers you in: auto (your Discord app's), en or "
          "de"),
       CMD_ARG_STRING, false, false, 0, 0, lang_choices}}},
    {"prefs",
     "mute",
     N_("No more reminders (nor the deadline's warning) this turn"),
     false,
     cmd_h_mute,
     1,
     {GAME_OPT}},
    {"prefs",
     "vacation",
     N_("Pause your clock in a game for some days"),
     false,
     cmd_h_vacation,
     2,
     {{"days", N_("How many days"), CMD_ARG_INTEGER, true, false, 1, 60, NULL},
      GAME_OPT}},
    {"gamemod",
     "list",
     N_("Every game of this server, open ones first"),
     true,
     cmd_h_list_server,
     0,
     {{0}}},
    {"gamemod",
     "abort",
     N_("End a game at once"),
     true,
     h_abort,
     1,
     {GAME_OPT}},
    {"gamemod",
     "replace",
     N_("Give a player's seat to another member or the AI"),
     true,
     cmd_h_replace,
     3,
     {{"user", N_("The player whose seat changes hands"), CMD_ARG_USER, true,
       false, 0, 0, NULL},
      {"with", N_("The member who takes it (without: the AI)"), CMD_ARG_USER,
       false, false, 0, 0, NULL},
      GAME_OPT}},
    {"gamemod",
     "pause",
     N_("Stop a game's clock and moves"),
     true,
     cmd_h_pause,
     1,
     {GAME_OPT}},
    {"gamemod",
     "resume",
     N_("Let a paused game go on"),
     true,
     cmd_h_resume,
     1,
     {GAME_OPT}},
    {"gamemod",
     "kick",
     N_("Remove a member from a game"),
     true,
     h_kick,
     2,
     {{"user", N_("The member to remove"), CMD_ARG_USER, true, false, 0, 0,
       NULL},
      GAME_OPT}},
    {"gamemod",
     "settings",
     N_("Show or change this server's settings"),
     true,
     cmd_h_settings,
     2,
     {{"key", N_("A setting's name (without it: all of them)"), CMD_ARG_STRING,
       false, true, 0, 0, NULL},
      {"value", N_("The new value"), CMD_ARG_STRING, false, false, 0, 0,
       NULL}}},
    {"gamemod",
     "audit",
     N_("This server's log of moderator actions"),
     true,
     cmd_h_audit,
     1,
     {{"page", N_("Which page (1 = the newest entries)"), CMD_ARG_INTEGER,
       false, false, 1, 1000000000, NULL}}},
};
const size_t cmd_table_n = sizeof cmd_table / sizeof cmd_table[0];

const cmd_def *cmd_find(const char *group, const char *name) {
  if (!group)
    group = "game";
  for (size_t i = 0; i < cmd_table_n; i++)
    if (strcmp(cmd_table[i].group, group) == 0 &&
        strcmp(cmd_table[i].name, name) == 0)
      return &cmd_table[i];
  return NULL;
}

const cmd_group_def *cmd_find_group(const char *name) {
  for (size_t i = 0; i < cmd_groups_n; i++)
    if (strcmp(cmd_groups[i].name, name) == 0)
      return &cmd_groups[i];
  return NULL;
}

/* ---- lobby ------------------------------------------------------------ */

uint64_t cmd_new_seed(cmd_ctx *c) {
  if (c->cfg.seed)
    return c->cfg.seed(c->cfg.seed_ctx);
  uint64_t s = 0;
  if (getrandom(&s, sizeof s, 0) != (ssize_t)sizeof s)
    s = (uint64_t)c->now * 6364136223846793005ULL + 1442695040888963407ULL;
  return s >> 1; /* keeps records' seeds within int64 for other tools */
}

static void seat_list(const live *L, char *buf, size_t cap) {
  size_t o = 0;
  buf[0] = '\0';
  for (int i = 0; i < L->n_seats && o < cap; i++)
    o += (size_t)snprintf(buf + o, cap - o, "%s%s", i ? ", " : "",
                          L->seats[i].name);
}

static void h_new(cmd_ctx *c, const cmd_request *r) {
  const char *id = cmd_arg_get(r, "kind");
  if (r->in_dm) {
    cmd_reply(c, r, NULL,
              "Games are opened in a server channel, where "
              "others can join; your hand then comes here.");
    return;
  }
  const char *mode = cmd_arg_get(r, "mode");
  const eng_ruleset *rs = cmd_ruleset_named(c, r, id);
  if (!rs)
    return;
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
              eng_mode_name(rs, mode), seats, T(c->lang, eng_strerror(erc)),
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
  char name[100];
  /* The thread's name: read by everyone in the server's channel. */
  snprintf(name, sizeof name,
           T(cmd_lang_guild(c, r->guild), "%s (opened by %.40s)"), rs->name,
           r->user_name);
  int64_t gid;
  bool threaded;
  if (!cmd_place_game(c, r, &g, name, T(c->lang, "game"), &gid, &threaded))
    return;
  char why[200];
  live *L = cmd_load(c, gid, why, sizeof why);
  if (!L) { /* out of memory, or storage failing: nothing is kept */
    cmd_fail(c,
             "The new game could not be read back (%s). Nothing changed; "
             "send /game new again.",
             why);
    return;
  }
  long ai = 0;
  if (cmd_arg_get(r, "ai") &&
      cmd_parse_int(cmd_arg_get(r, "ai"), 1, seats - 1, &ai)) {
    for (long k = 0; k < ai; k++) {
      sto_seat bot;
      cmd_ai_seat(L->n_seats, ENG_AI_HEURISTIC, &bot);
      if (sto_seat_set(c->cfg.db, gid, &bot))
        break;
      L->seats[L->n_seats++] = bot;
    }
  }
  cmd_arm_lobby(c, L);
  if (threaded)
    cmd_announce(c, r, NULL, "%s opened game #%" PRId64 " in <#%s>.",
                 r->user_name, gid, g.channel);
  cmd_announce_lobby(
      c, r, L,
      "%s opened game #%" PRId64 ": %s (%s, up to %ld players%s). "
      "Join with /game join; %s starts it with /game start.",
      r->user_name, gid, rs->name, eng_mode_name(rs, cfg.mode), seats,
      ai ? T(cmd_lang_game(c, L), ", AI players seated") : "", r->user_name);
}

static live *lobby(cmd_ctx *c, const cmd_request *r) {
  live *L = cmd_find_game(c, r, ACTIVE);
  if (L && L->row.status != STO_LOBBY) {
    cmd_reply_state(c, r, L, NULL, NULL);
    return NULL;
  }
  return L;
}

/* The invitations to lobby L still open (a rematch's): how many (-1 when
 * they cannot be read); *mine receives the one of user (their id or
 * name), or an empty user when they hold none. */
static int invitations(cmd_ctx *c, const live *L, const char *user,
                       sto_seat *mine) {
  sto_seat inv[ENG_MAX_SEATS];
  int n = 0;
  memset(mine, 0, sizeof *mine);
  sto_rc rc = sto_invite_list(c->cfg.db, L->row.id, inv, ENG_MAX_SEATS, &n);
  if (rc && rc != STO_TOO_BIG)
    return -1;
  for (int k = 0; k < n && !mine->user[0]; k++)
    if (strcmp(inv[k].user, user) == 0 || strcasecmp(inv[k].name, user) == 0)
      *mine = inv[k];
  return n;
}

/* What a lobby's announcement adds about its invitations, in lang: who is
 * still invited, or that everyone invited has answered (answered: this
 * request answered one). */
static void invited_line(cmd_ctx *c, const live *L, cmd_lang lang,
                         bool answered, char *buf, size_t cap) {
  char names[400];
  int n = cmd_invited(c, cmd_lang_game(c, L), L, names, sizeof names);
  buf[0] = '\0';
  if (n > 0)
    snprintf(buf, cap, T(lang, " Still invited: %s."), names);
  else if (n == 0 && answered)
    snprintf(buf, cap, "%s",
             T(lang, " Everyone invited has answered: it can start "
                     "(/game start)."));
}

static void h_join(cmd_ctx *c, const cmd_request *r) {
  live *L = lobby(c, r);
  if (!L)
    return;
  eng_config cfg;
  int seats;
  cmd_parse_config(L->row.config, &cfg, &seats);
  if (cmd_seat_of(L, r->user) >= 0) {
    char lead[80];
    snprintf(lead, sizeof lead,
             T(c->lang, "You have already joined game #%" PRId64 "."),
             L->row.id);
    cmd_reply_state(c, r, L, lead, NULL);
    return;
  }
  /* A rematch keeps a seat for each member it invited. */
  sto_seat inv;
  int n_inv = invitations(c, L, r->user, &inv);
  bool invited = inv.user[0] != '\0';
  if (n_inv < 0) {
    cmd_reply(c, r, L, "Game #%" PRId64 " could not be read; nothing changed.",
              L->row.id);
    return;
  }
  if (L->n_seats >= seats || (!invited && L->n_seats + n_inv >= seats)) {
    char names[400];
    if (n_inv > 0 && !invited &&
        cmd_invited(c, c->lang, L, names, sizeof names) > 0)
      cmd_reply(c, r, L,
                "Game #%" PRId64 " is full: its other seats are kept for "
                "%s, invited to it.",
                L->row.id, names);
    else
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
  if (!rc && invited)
    rc = sto_invite_remove(c->cfg.db, L->row.id, r->user, NULL);
  if (rc) {
    cmd_fail(c, "You could not join: %s", sto_strerror(rc));
    return;
  }
  L->seats[L->n_seats++] = s;
  char list[400], more[500];
  seat_list(L, list, sizeof list);
  invited_line(c, L, cmd_lang_game(c, L), invited, more, sizeof more);
  cmd_announce_lobby(c, r, L, "%s joined game #%" PRId64 ". Players: %s.%s",
                     r->user_name, L->row.id, list, more);
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
  sto_seat inv;
  if (seat < 0 && L->row.status == STO_LOBBY &&
      invitations(c, L, r->user, &inv) > 0 && inv.user[0]) {
    /* Declining a rematch frees the seat kept for them. */
    sto_rc rc = sto_invite_remove(c->cfg.db, L->row.id, r->user, NULL);
    if (rc) {
      cmd_fail(c, "Your answer could not be saved: %s", sto_strerror(rc));
      return;
    }
    char more[500];
    invited_line(c, L, cmd_lang_game(c, L), true, more, sizeof more);
    cmd_announce(c, r, L, "%s declined the invitation to game #%" PRId64 ".%s",
                 r->user_name, L->row.id, more);
    if (cmd_invited(c, c->lang, L, more, sizeof more) == 0)
      close_if_empty(c, r, L);
    return;
  }
  if (seat < 0) {
    cmd_reply(c, r, L, "You are not in game #%" PRId64 ".", L->row.id);
    return;
  }
  if (L->row.status != STO_LOBBY) {
    const char *confirm = cmd_arg_get(r, "confirm");
    if (!confirm || strcmp(confirm, "yes") != 0) {
      cmd_reply_state(c, r, L, NULL,
                      T(c->lang,
                        "Leaving it forfeits your seat: the AI plays it to "
                        "the end and you cannot win. To leave, repeat with "
                        "/game leave confirm:yes."));
      return;
    }
    cmd_forfeit_seat(c, r, L, seat, T(cmd_lang_game(c, L), "they left"));
    return;
  }
  sto_rc rc = drop_seat(c, L, seat);
  if (rc) {
    cmd_fail(c, "You could not leave: %s", sto_strerror(rc));
    return;
  }
  cmd_announce_lobby(c, r, L, "%s left game #%" PRId64 ".", r->user_name,
                     L->row.id);
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
  if (!cmd_opener_or_mod(c, r, L, T(c->lang, "start it")))
    return;
  char names[400];
  int n_inv = cmd_invited(c, c->lang, L, names, sizeof names);
  if (n_inv != 0) {
    if (n_inv < 0)
      cmd_reply(c, r, L,
                "Game #%" PRId64 " could not be read; nothing changed.",
                L->row.id);
    else
      cmd_reply(c, r, L,
                cmd_trn(c->lang, n_inv,
                        "Game #%" PRId64 " cannot start yet: %s is still "
                        "invited to it. Each joins with /game join or "
                        "declines with /game leave (a moderator can withdraw "
                        "an invitation with /gamemod kick).",
                        "Game #%" PRId64 " cannot start yet: %s are still "
                        "invited to it. Each joins with /game join or "
                        "declines with /game leave (a moderator can withdraw "
                        "an invitation with /gamemod kick)."),
                L->row.id, names);
    return;
  }
  if (L->n_seats < rs->min_players) {
    char lead[160];
    snprintf(
        lead, sizeof lead,
        T(c->lang, "%s needs at least %d players; game #%" PRId64 " has %d."),
        rs->name, rs->min_players, L->row.id, L->n_seats);
    cmd_reply_state(c, r, L, lead, NULL);
    return;
  }
  cfg.players = L->n_seats;
  cfg.first = -1;
  uint64_t seed = cmd_new_seed(c);
  eng_game *g;
  eng_rc erc = eng_game_new(rs, &cfg, seed, &g);
  if (erc) {
    cmd_reply(c, r, L, "Game #%" PRId64 " cannot start with %d players: %s",
              L->row.id, L->n_seats, T(c->lang, eng_strerror(erc)));
    return;
  }
  /* The lobby's config with the table fixed; what else it says (a
   * rematch of a tutorial is "learn": true) stays. */
  json_t *conf = json_loads(L->row.config, 0, NULL);
  if (!json_is_object(conf)) {
    json_decref(conf);
    conf = json_object();
  }
  json_t *fixed = json_pack("{sisssisi}", "players", cfg.players, "mode",
                            cfg.mode, "first", cfg.first, "seats", seats);
  if (json_object_update(conf, fixed) != 0) {
    json_decref(conf);
    conf = NULL;
  }
  json_decref(fixed);
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
           T(cmd_lang_game(c, L), "Game #%" PRId64 " (%s) starts! Seats in "
                                  "turn order: %s. Waiting for %s."),
           L->row.id, cmd_game_name(L), list, L->seats[g->prompt.player].name);
  cmd_announce(c, r, L, "%s", line);
  cmd_after_change(c, r, L, g->prompt.turn, -1, NULL);
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

/* /game status: to the asker alone (ephemeral; in a DM, there), or posted
 * in the game's channel with public:yes. */
static void h_status(cmd_ctx *c, const cmd_request *r) {
  live *L = cmd_find_game(c, r, ACTIVE | MASK(STO_FINISHED));
  if (!L)
    return;
  const char *pub = cmd_arg_get(r, "public");
  bool post = pub && strcmp(pub, "yes") == 0;
  if (post && r->in_dm) {
    cmd_reply(c, r, L,
              "public:yes posts the table in the game's channel; from a "
              "DM, /game status shows it here only. Use it in the channel "
              "to post it there.");
    return;
  }
  cmd_lang lang = post ? cmd_lang_game(c, L) : c->lang;
  char t[CMD_TEXT_MAX * 2];
  if (!L->g) {
    char list[400], more[500];
    seat_list(L, list, sizeof list);
    invited_line(c, L, lang, false, more, sizeof more);
    snprintf(t, sizeof t,
             T(lang, "Game #%" PRId64 " (%s) is waiting for players: %s.%s "
                     "Join with /game join; its opener starts it with /game "
                     "start."),
             L->row.id, cmd_game_name(L), list, more);
  } else {
    /* Whom it waits for first: a long table is sent in pieces. */
    size_t o = 0;
    if (L->g->prompt.player >= 0)
      o = (size_t)snprintf(t, sizeof t,
                           T(lang, "Game #%" PRId64 ": Waiting for %s.\n"),
                           L->row.id, L->seats[L->g->prompt.player].name);
    cmd_render(L, -1, ENG_RENDER_TABLE, t + o, sizeof t - o);
  }
  /* With the picture of the table, for the games that have one. */
  cmd_send_pic(c, r, post ? CMD_TO_CHANNEL : CMD_TO_EPHEMERAL, L, t);
}

/* /game board: the picture of the table (its public view), with a line
 * saying what it shows; to the asker alone, or posted in the game's
 * channel with public:yes, like /game status. */
static void h_board(cmd_ctx *c, const cmd_request *r) {
  live *L = cmd_find_game(c, r, ACTIVE | MASK(STO_FINISHED));
  if (!L)
    return;
  const char *pub = cmd_arg_get(r, "public");
  bool post = pub && strcmp(pub, "yes") == 0;
  if (!pic_has(L->row.ruleset)) {
    cmd_reply(c, r, L,
              "Lair draws no pictures of %s games (game #%" PRId64 "): "
              "/game status shows its table as text.",
              cmd_game_name(L), L->row.id);
    return;
  }
  if (!L->g) {
    char lead[120];
    snprintf(
        lead, sizeof lead,
        T(c->lang, "Game #%" PRId64 " has no table to draw before it starts."),
        L->row.id);
    cmd_reply_state(c, r, L, lead, NULL);
    return;
  }
  if (!c->cfg.pictures) {
    cmd_reply(c, r, L,
              "This table shows no pictures (the console writes them with "
              "lair local --images DIR); /game status shows game #%" PRId64
              " as text.",
              L->row.id);
    return;
  }
  if (post && r->in_dm) {
    cmd_reply(c, r, L,
              "public:yes posts the picture in the game's channel; from a "
              "DM, /game board shows it here only. Use it in the channel "
              "to post it there.");
    return;
  }
  /* One line: which game, which turn, whose decision it is. */
  cmd_lang lang = post ? cmd_lang_game(c, L) : c->lang;
  char line[400];
  const eng_prompt *p = &L->g->prompt;
  size_t o = (size_t)snprintf(line, sizeof line,
                              T(lang, "Game #%" PRId64 " (%s), turn %d: "),
                              L->row.id, cmd_game_name(L), p->turn);
  if (p->player < 0) {
    eng_result res;
    eng_game_result(L->g, &res);
    o += (size_t)snprintf(line + o, sizeof line - o, "%s",
                          T(lang, "the game is over; "));
    if (o < sizeof line) {
      o += cmd_winners(lang, L, &res, T(lang, "nobody wins"), line + o,
                       sizeof line - o);
      snprintf(line + o, sizeof line - o, ".");
    }
  } else if (cmd_paused(c, L)) {
    snprintf(line + o, sizeof line - o, "%s",
             T(lang, "paused by a moderator."));
  } else if (p->player < L->n_seats) {
    snprintf(line + o, sizeof line - o, T(lang, "waiting for %s."),
             L->seats[p->player].name);
  }
  cmd_utf8_repair(line);
  cmd_msg m = {.to = post ? CMD_TO_CHANNEL : CMD_TO_EPHEMERAL,
               .user = post ? NULL : r->user,
               .user_name = post ? NULL : r->user_name,
               .channel = L->row.channel,
               .text = line,
               .game = L->row.id,
               .status = L->row.status,
               .version = L->row.moves,
               .colour = L->g->rs->colour};
  cmd_deliver_pic(c, &m, L, true);
}

/* "minion_discard" -> "Minion discard": a pile's key in a view, for
 * people. */
static void pile_label(const char *key, char *out, size_t cap) {
  snprintf(out, cap, "%s", key);
  for (char *p = out; *p; p++)
    if (*p == '_')
      *p = ' ';
  if (out[0])
    out[0] = (char)toupper((unsigned char)out[0]);
}

/* Appends one open pile of public view v, top card last, to t, in
 * lang. */
static size_t pile_text(const json_t *v, const char *key, cmd_lang lang,
                        char *t, size_t cap, size_t o, bool whole) {
  json_t *a = json_object_get(v, key);
  char label[ENG_LABEL_MAX + 1];
  pile_label(key, label, sizeof label);
  size_t n = json_array_size(a);
  if (o < cap)
    o += (size_t)snprintf(t + o, cap - o,
                          cmd_trn(lang, (long)n, "%s**%s** (%zu card)%s",
                                  "%s**%s** (%zu cards)%s"),
                          o ? "\n" : "", label, n,
                          whole && n ? T(lang, ", from the bottom to the top: ")
                                     : "");
  for (size_t k = 0; whole && k < n && o < cap; k++) {
    const char *name =
        json_string_value(json_object_get(json_array_get(a, k), "name"));
    o += (size_t)snprintf(t + o, cap - o, "%s%s", k ? ", " : "",
                          name ? name : "?");
  }
  if (whole && o < cap)
    o += (size_t)snprintf(t + o, cap - o, ".");
  return o;
}

/* /game pile: an open pile (a discard pile...) in full, to the asker. */
static void h_pile(cmd_ctx *c, const cmd_request *r) {
  live *L = cmd_find_game(c, r, MASK(STO_RUNNING) | MASK(STO_FINISHED));
  if (!L)
    return;
  const char *const *piles = L->g ? L->g->rs->open_piles : NULL;
  if (!piles || !piles[0]) {
    cmd_reply(c, r, L, "%s has no open piles to list.", cmd_game_name(L));
    return;
  }
  const char *want = cmd_arg_get(r, "pile");
  const char *key = NULL;
  char names[300] = "";
  size_t no = 0;
  for (const char *const *p = piles; *p; p++) {
    char label[ENG_LABEL_MAX + 1];
    pile_label(*p, label, sizeof label);
    if (want && (strcasecmp(want, *p) == 0 || strcasecmp(want, label) == 0))
      key = *p;
    if (no < sizeof names)
      no += (size_t)snprintf(names + no, sizeof names - no, "%s%s",
                             p == piles ? "" : ", ", *p);
  }
  if (want && !key) {
    cmd_reply(c, r, L,
              "Game #%" PRId64 " has no open pile '%.40s'. Its open "
              "piles are: %s.",
              L->row.id, want, names);
    return;
  }
  json_t *v = L->g->rs->view(L->g->state, -1);
  if (!v) {
    cmd_reply(c, r, L, "The piles could not be read: out of memory.");
    return;
  }
  char t[CMD_TEXT_MAX * 2];
  size_t o = 0;
  t[0] = '\0';
  for (const char *const *p = piles; *p; p++)
    if (!key || *p == key)
      o = pile_text(v, *p, c->lang, t, sizeof t, o, key != NULL);
  json_decref(v);
  if (!key && o < sizeof t)
    snprintf(t + o, sizeof t - o,
             T(c->lang, "\nList one in full with /game pile pile:%s."),
             piles[0]);
  char named[CMD_TEXT_MAX * 2];
  cmd_names(L, t, named, sizeof named);
  cmd_send(c, r, CMD_TO_EPHEMERAL, r->user, r->user_name, L, named, NULL, 0);
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
    cmd_prompt(c, r, L, t, true);
}

/* Matches choice against the current options, in any case: an id first,
 * then a label as shown. Returns the index, -1 for none, -2 for several. */
static int match(const cmd_choice *opts, int n, const char *choice) {
  int found = -1, hits = 0;
  for (int i = 0; i < n; i++)
    if (strcasecmp(opts[i].id, choice) == 0)
      return i;
  for (int i = 0; i < n; i++)
    if (strcasecmp(opts[i].label, choice) == 0) {
      found = i;
      hits++;
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
  if (cmd_paused(c, L) || g->prompt.player < 0) {
    cmd_reply_state(c, r, L, NULL, NULL);
    return;
  }
  if (g->prompt.player != seat) {
    cmd_reply_state(c, r, L, T(c->lang, "It is not your decision now."),
                    T(c->lang, "Your turn's message comes by DM when it is "
                               "yours; /game status shows the table "
                               "meanwhile."));
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
              i == -2
                  ? T(c->lang, "That label fits several options; use an id.")
                  : T(c->lang, "That is not one of your options."),
              list);
    return;
  }
  char before[ENG_MAX_SEATS][CMD_TEXT_MAX + 1];
  cmd_hands(L, before);
  int turn = g->prompt.turn;
  char id[ENG_ID_MAX + 1], label[ENG_LABEL_MAX + 1];
  eng_game_option(g, i, id, label);
  eng_events ev;
  eng_rc erc = eng_game_answer_index(g, i, &ev);
  if (erc) {
    cmd_reply(c, r, L, "%s", T(c->lang, eng_strerror(erc)));
    return;
  }
  bool revealed = g->answers[g->n_answers - 1].revealed;
  cmd_lines lines;
  cmd_answer_lines(c->lang, seat, &ev, label, &lines);
  if (!cmd_commit(c, r, L, seat, STO_MOVE_ANSWER, id, turn, revealed, &lines))
    return;
  cmd_played_self(c, L, seat); /* present: no missed turns in a row */
  cmd_after_change(c, r, L, turn, seat, before);
}

static void h_undo(cmd_ctx *c, const cmd_request *r) {
  int seat;
  live *L = acting(c, r, &seat);
  if (!L)
    return;
  if (cmd_paused(c, L) || L->g->prompt.player < 0) {
    cmd_reply_state(c, r, L, NULL, NULL);
    return;
  }
  if (cmd_game_setting(c, L, "undo") == 1) {
    cmd_reply(c, r, L,
              "Takeback is turned off on this server (game #%" PRId64
              "): answers are final. A moderator can allow it with "
              "/gamemod settings key:undo value:turn.",
              L->row.id);
    return;
  }
  if (eng_game_takeback_count(L->g, seat) == 0) {
    char lead[300];
    snprintf(lead, sizeof lead,
             T(c->lang, "%s Answers that drew a card, shuffled a deck or came "
                        "before another player's answer are final."),
             T(c->lang, eng_strerror(ENG_NO_TAKEBACK)));
    cmd_reply_state(c, r, L, lead, NULL);
    return;
  }
  char before[ENG_MAX_SEATS][CMD_TEXT_MAX + 1];
  cmd_hands(L, before);
  int turn = L->g->prompt.turn;
  eng_rc erc = eng_game_takeback(L->g, seat);
  if (erc) {
    cmd_reply(c, r, L, "%s", T(c->lang, eng_strerror(erc)));
    return;
  }
  cmd_lines lines;
  lines.n = 0;
  char line[200];
  /* Stored with the move, like the engine's lines: in English. */
  snprintf(line, sizeof line, K_("Villain %d took back their last answer."),
           seat + 1);
  cmd_lines_add(&lines, -1, line);
  if (!cmd_commit(c, r, L, seat, STO_MOVE_TAKEBACK, "", turn, false, &lines))
    return;
  cmd_after_change(c, r, L, turn, seat, before);
}

/* ---- information -------------------------------------------------------- */

static void h_list(cmd_ctx *c, const cmd_request *r) {
  int64_t ids[16];
  unsigned all = ACTIVE | MASK(STO_FINISHED) | MASK(STO_ABORTED);
  /* In a DM: the requester's own games, wherever they are played. */
  int n = r->in_dm ? cmd_user_games(c, r->user, all, ids, 10)
                   : cmd_channel_games(c, r->channel, all, ids, 10);
  if (n <= 0) {
    cmd_reply(c, r, NULL, "%s",
              n < 0      ? T(c->lang, "The games could not be read.")
              : r->in_dm ? T(c->lang, "You have no games yet. Start one in a "
                                      "server's channel with /game new.")
                         : T(c->lang, "No games in this channel yet. Start "
                                      "one with /game new."));
    return;
  }
  char text[CMD_TEXT_MAX];
  size_t o = (size_t)snprintf(text, sizeof text, "%s:\n",
                              r->in_dm ? T(c->lang, "Your games")
                                       : T(c->lang, "Games in this channel"));
  for (int k = 0; k < n && o < sizeof text; k++) {
    char why[200], list[400];
    live *L = cmd_load(c, ids[k], why, sizeof why);
    if (!L) {
      o += (size_t)snprintf(text + o, sizeof text - o,
                            T(c->lang, "- #%" PRId64 ": unreadable (%s)\n"),
                            ids[k], why);
      continue;
    }
    seat_list(L, list, sizeof list);
    char where[48] = "";
    if (r->in_dm && L->row.channel[0])
      snprintf(where, sizeof where, T(c->lang, " in <#%s>"), L->row.channel);
    o += (size_t)snprintf(
        text + o, sizeof text - o,
        T(c->lang, "- #%" PRId64 " %s%s: %s, %" PRId64 " moves; %s\n"),
        L->row.id, cmd_game_name(L), where,
        L->row.status == STO_ABORTED ? T(c->lang, "aborted")
                                     : cmd_status_name(c->lang, L->row.status),
        L->row.moves, list);
  }
  long total = 0;
  if ((r->in_dm
           ? sto_game_count_user(c->cfg.db, r->user, all, &total)
           : sto_game_count(c->cfg.db, r->channel, all, &total)) == STO_OK &&
      total > n && o < sizeof text)
    snprintf(text + o, sizeof text - o,
             T(c->lang, "(the newest %d of %ld; an older one by its number, "
                        "e.g. /game log game:<number>)"),
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
  const char *guide = json_string_value(json_object_get(card, "guide"));
  if (guide) { /* a game's side (a villain): its realm, objective, guide */
    cmd_reply(c, r, NULL, "**%s** (%s)\n**Objective:** %s\n%s\n%s",
              json_string_value(json_object_get(card, "name")), rs->name,
              json_string_value(json_object_get(card, "objective")),
              json_string_value(json_object_get(card, "realm")), guide);
    json_decref(card);
    return;
  }
  const char *summary = json_string_value(json_object_get(card, "summary"));
  if (summary) { /* a game whose cards say what they are in one line */
    const char *owner =
        json_string_value(json_object_get(card, "villain_name"));
    cmd_reply(c, r, NULL, "**%s** (%s%s%s, %s deck: %s; %lld in the deck)\n%s",
              json_string_value(json_object_get(card, "name")), rs->name,
              owner ? ", " : "", owner ? owner : "",
              json_string_value(json_object_get(card, "deck")), summary,
              (long long)json_integer_value(json_object_get(card, "count")),
              json_string_value(json_object_get(card, "text")));
    json_decref(card);
    return;
  }
  size_t o = (size_t)snprintf(
      text, sizeof text, T(c->lang, "**%s** (%s, %s card, %lld in the deck)\n"),
      json_string_value(json_object_get(card, "name")), rs->name,
      json_string_value(json_object_get(card, "deck")),
      (long long)json_integer_value(json_object_get(card, "count")));
  const char *power = json_string_value(json_object_get(card, "power_text"));
  if (power)
    o += (size_t)snprintf(
        text + o, sizeof text - o,
        T(c->lang, "Mob: %s%s%s\nMinion Ops%s: %s\n"), power,
        json_is_true(json_object_get(card, "proof"))
            ? T(c->lang, ", Asteroid-proof")
            : "",
        json_is_true(json_object_get(card, "boosted")) ? T(c->lang, ", Boosted")
                                                       : "",
        json_is_true(json_object_get(card, "swift")) ? T(c->lang, " (Swift)")
                                                     : "",
        field_text(card, "ops") ? field_text(card, "ops") : "");
  const char *cost = json_string_value(json_object_get(card, "cost_text"));
  if (cost && o < sizeof text) {
    long long points = json_integer_value(json_object_get(card, "points"));
    snprintf(
        text + o, sizeof text - o,
        cmd_trn(c->lang, (long)points,
                "Project, cost %s: %s\nSecret Facility, %lld point: %s\n",
                "Project, cost %s: %s\nSecret Facility, %lld points: %s\n"),
        cost, field_text(card, "project") ? field_text(card, "project") : "",
        points,
        field_text(card, "facility") ? field_text(card, "facility") : "");
  }
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
  const char *was = cmd_status_name(CMD_LANG_EN, L->row.status); /* audit */
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
  sto_seat inv;
  if (seat < 0 && L->row.status == STO_LOBBY &&
      invitations(c, L, who, &inv) > 0 && inv.user[0]) {
    sto_rc rc = sto_invite_remove(c->cfg.db, L->row.id, inv.user, NULL);
    if (rc) {
      cmd_fail(c, "The invitation could not be withdrawn: %s",
               sto_strerror(rc));
      return;
    }
    char more[500];
    invited_line(c, L, cmd_lang_game(c, L), true, more, sizeof more);
    cmd_audit(c, r, "kick", L->row.id, "%s (invited, from the lobby)",
              inv.name);
    cmd_announce(c, r, L, "%s withdrew %s's invitation to game #%" PRId64 ".%s",
                 r->user_name, inv.name, L->row.id, more);
    if (cmd_invited(c, c->lang, L, more, sizeof more) == 0)
      close_if_empty(c, r, L);
    return;
  }
  if (seat < 0) {
    cmd_reply(c, r, L, "'%.40s' is not in game #%" PRId64 ".", who, L->row.id);
    return;
  }
  char name[64];
  snprintf(name, sizeof name, "%s", L->seats[seat].name);
  if (L->row.status == STO_RUNNING) {
    cmd_audit(c, r, "kick", L->row.id, "%s (seat %d, to the AI)", name,
              seat + 1);
    cmd_forfeit_seat(c, r, L, seat,
                     T(cmd_lang_game(c, L), "a moderator removed them"));
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

/* The modes of game kind (any game when kind is unknown) completing
 * partial; after a '+' the last part is completed and the rest kept, so
 * "team+ann" offers "team+annihilation". */
static int mode_choices(const char *kind, const char *partial, cmd_choice *out,
                        int max) {
  const char *plus = strrchr(partial, '+');
  size_t keep = plus ? (size_t)(plus - partial) + 1 : 0;
  const char *last = partial + keep;
  size_t count;
  const eng_ruleset *const *all = eng_rulesets(&count);
  const eng_ruleset *only = kind ? eng_find(kind) : NULL;
  int n = 0;
  for (size_t k = 0; k < count; k++) {
    if ((only && all[k] != only) || !all[k]->modes)
      continue;
    for (const char *const *m = all[k]->modes; *m && n < max; m++) {
      if (!has_prefix_ci(*m, last) || keep + strlen(*m) > ENG_ID_MAX)
        continue;
      bool dup = false;
      for (int i = 0; i < n && !dup; i++)
        dup = strncmp(out[i].id + keep, *m, ENG_ID_MAX) == 0;
      if (dup)
        continue;
      snprintf(out[n].id, sizeof out[n].id, "%.*s%s", (int)keep, partial, *m);
      snprintf(out[n].label, sizeof out[n].label, "%s", out[n].id);
      n++;
    }
  }
  return n;
}

/* The open piles of the game r names that complete partial. */
static int pile_choices(cmd_ctx *c, const cmd_request *r, const char *partial,
                        cmd_choice *out, int max) {
  live *L = cmd_find_game(c, r, MASK(STO_RUNNING) | MASK(STO_FINISHED));
  if (!L || !L->g || !L->g->rs->open_piles)
    return 0;
  int n = 0;
  for (const char *const *p = L->g->rs->open_piles; *p && n < max; p++) {
    char label[ENG_LABEL_MAX + 1];
    pile_label(*p, label, sizeof label);
    if (has_prefix_ci(*p, partial) || has_prefix_ci(label, partial)) {
      snprintf(out[n].id, sizeof out[n].id, "%s", *p);
      snprintf(out[n].label, sizeof out[n].label, "%s", label);
      n++;
    }
  }
  return n;
}

int cmd_autocomplete(cmd_ctx *c, const cmd_request *r, const char *option,
                     const char *partial, cmd_choice *out, int max) {
  /* Autocompletion comes outside cmd_handle: the requester's language
   * is not set yet. */
  c->lang = cmd_lang_request(c, r);
  int n = 0;
  if (strcmp(option, "choice") == 0) {
    int seat;
    live *L = cmd_find_game(c, r, MASK(STO_RUNNING));
    if (!L || (seat = cmd_seat_of(L, r->user)) < 0 || !L->g)
      return 0;
    int p = L->g->prompt.player;
    if (p != seat) {
      /* One entry that says why there is nothing to choose; picking it
         gets the same words as an error. */
      if (max < 1)
        return 0;
      snprintf(out[0].id, sizeof out[0].id, "-");
      if (p >= 0 && p < L->n_seats)
        snprintf(
            out[0].label, sizeof out[0].label,
            T(c->lang, "Not your decision: game #%" PRId64 " waits for %.40s"),
            L->row.id, L->seats[p].name);
      else
        snprintf(out[0].label, sizeof out[0].label,
                 T(c->lang, "Game #%" PRId64 " is over"), L->row.id);
      return 1;
    }
    cmd_choice opts[ENG_OPTIONS_MAX];
    int k = cmd_options(L, opts, ENG_OPTIONS_MAX);
    for (int i = 0; i < k && n < max; i++)
      if (has_prefix_ci(opts[i].label, partial) ||
          has_prefix_ci(opts[i].id, partial))
        out[n++] = opts[i];
  } else if (strcmp(option, "mode") == 0) {
    n = mode_choices(cmd_arg_get(r, "kind"), partial, out, max);
  } else if (strcmp(option, "topic") == 0) {
    n = cmd_help_topics(c, r, partial, out, max);
  } else if (strcmp(option, "pile") == 0) {
    n = pile_choices(c, r, partial, out, max);
  } else if (strcmp(option, "key") == 0) {
    for (size_t i = 0; cmd_setting_at(i) && n < max; i++)
      if (has_prefix_ci(cmd_setting_at(i)->key, partial)) {
        snprintf(out[n].id, sizeof out[n].id, "%s", cmd_setting_at(i)->key);
        snprintf(out[n].label, sizeof out[n].label, "%s",
                 cmd_setting_at(i)->key);
        n++;
      }
  } else if (strcmp(option, "name") == 0 || strcmp(option, "kind") == 0) {
    size_t count;
    const eng_ruleset *const *all = eng_rulesets(&count);
    for (size_t k = 0; k < count; k++) {
      if (strcmp(option, "kind") == 0) {
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
