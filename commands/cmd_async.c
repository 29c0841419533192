/*
 * cmd_async.c: what keeps slow games moving: AI seats, turn reminders,
 * deadlines, vacations, lobby expiry, pausing, and handing a seat to the
 * AI or to another member.
 *
 * Timers are rows in storage (sto_timer), armed after every change for
 * whoever must answer, and fired by cmd_tick with the transport's clock
 * (the console's can be moved with !advance). A due timer is claimed
 * before it acts, so a restart, or a second process, never fires it
 * twice; a reminder's next time counts from when it was sent, so a long
 * downtime yields one reminder, not a burst.
 */
#include "cmd_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define HOUR 3600
#define DAY 86400

bool cmd_is_ai(const char *user) { return strncmp(user, "ai:", 3) == 0; }

static void game_scope(const live *L, char *buf, size_t cap) {
  snprintf(buf, cap, "game:%" PRId64, L->row.id);
}

static void user_scope(const char *user, char *buf, size_t cap) {
  snprintf(buf, cap, "user:%s", user);
}

static long game_value(cmd_ctx *c, const live *L, const char *key, long dflt) {
  char scope[40], v[32];
  long x;
  game_scope(L, scope, sizeof scope);
  if (sto_setting_get(c->cfg.db, scope, key, v, sizeof v) == STO_OK &&
      cmd_parse_int(v, -1, INT32_MAX, &x))
    return x;
  return dflt;
}

static sto_rc set_game_value(cmd_ctx *c, const live *L, const char *key,
                             long value) {
  char scope[40], v[32];
  game_scope(L, scope, sizeof scope);
  snprintf(v, sizeof v, "%ld", value);
  return sto_setting_set(c->cfg.db, scope, key, v);
}

bool cmd_paused(cmd_ctx *c, const live *L) {
  return game_value(c, L, "paused", 0) != 0;
}

/* A request for messages that no user's request caused (timers). */
static cmd_request timer_request(const live *L, const char *id) {
  cmd_request r = {.request_id = id,
                   .guild = L->row.guild,
                   .channel = L->row.channel,
                   .user = "",
                   .user_name = "Lair"};
  return r;
}

/* ---- AI seats ------------------------------------------------------------ */

int cmd_ai_level(const char *user) {
  if (!cmd_is_ai(user))
    return -1;
  const char *p = user + 3;
  const char *colon = strchr(p, ':');
  char name[24];
  snprintf(name, sizeof name, "%.*s", colon ? (int)(colon - p) : (int)strlen(p),
           p);
  int level = eng_ai_find(name);
  return level < 0 ? ENG_AI_HEURISTIC : level;
}

void cmd_ai_seat(int seat, int level, sto_seat *out) {
  memset(out, 0, sizeof *out);
  out->seat = seat;
  snprintf(out->user, sizeof out->user, "ai:%s:%d", eng_ai_name(level), seat);
  snprintf(out->name, sizeof out->name, "AI %d", seat + 1);
}

/* Plays one answer for the seat whose decision it is, with the AI; used
 * for AI seats and for a human's deadline under the "ai" policy. */
static bool ai_answer(cmd_ctx *c, const cmd_request *r, live *L, int level) {
  eng_game *g = L->g;
  int seat = g->prompt.player;
  eng_rng rng;
  eng_rng_seed(&rng, L->row.seed ^ (uint64_t)L->row.moves, 7);
  int i = eng_ai_choose(g->rs, g->state, &g->prompt, level, &rng);
  if (i < 0)
    return false;
  static _Thread_local char before[ENG_MAX_SEATS][CMD_TEXT_MAX + 1];
  cmd_hands(L, before);
  uint32_t code = g->prompt.code[i];
  int turn = g->prompt.turn;
  char id[ENG_ID_MAX + 1], label[ENG_LABEL_MAX + 1], req[64];
  eng_game_option(g, i, id, label);
  if (eng_game_answer_index(g, i))
    return false;
  snprintf(req, sizeof req, "ai:%" PRId64 ":%" PRId64, L->row.id, L->row.moves);
  cmd_request ar = *r;
  ar.request_id = req;
  bool revealed = g->answers[g->n_answers - 1].revealed;
  int64_t id_game = L->row.id;
  if (!cmd_commit(c, &ar, L, seat, STO_MOVE_ANSWER, id, turn, revealed))
    return false;
  /* cmd_commit may not evict on success; L is still ours. */
  (void)id_game;
  char line[400], named[600];
  g->rs->public_answer(g->state, seat, code, label, line, sizeof line);
  cmd_names(L, line, named, sizeof named);
  cmd_after_change(c, r, L, named, before, g->prompt.turn != turn);
  return true;
}

/* While an AI seat must answer, it does. Bounded: a game between AI seats
 * alone still ends long before the bound. */
void cmd_settle(cmd_ctx *c, const cmd_request *r, live *L) {
  if (c->settling || !L->g)
    return;
  c->settling = true;
  for (int guard = 0; guard < 20000; guard++) {
    int p = L->g->prompt.player;
    if (p < 0 || p >= L->n_seats || !cmd_is_ai(L->seats[p].user) ||
        cmd_paused(c, L))
      break;
    if (!ai_answer(c, r, L, cmd_ai_level(L->seats[p].user)))
      break;
  }
  c->settling = false;
}

/* ---- timers -------------------------------------------------------------- */

static void set_timer(cmd_ctx *c, const live *L, const char *kind, int seat,
                      int64_t due, int64_t data) {
  sto_timer t = {.game = L->row.id, .seat = seat, .due = due, .data = data};
  snprintf(t.kind, sizeof t.kind, "%s", kind);
  sto_timer_set(c->cfg.db, &t);
}

static int64_t vacation_until(cmd_ctx *c, const live *L, int seat) {
  char key[32];
  snprintf(key, sizeof key, "vacation_until:%d", seat);
  return game_value(c, L, key, 0);
}

void cmd_arm_timers(cmd_ctx *c, live *L) {
  int64_t id = L->row.id;
  sto_timer_clear(c->cfg.db, id, "remind", -1);
  sto_timer_clear(c->cfg.db, id, "warn", -1);
  sto_timer_clear(c->cfg.db, id, "deadline", -1);
  if (L->row.status != STO_RUNNING || !L->g || cmd_paused(c, L))
    return;
  int p = L->g->prompt.player;
  if (p < 0 || p >= L->n_seats || cmd_is_ai(L->seats[p].user))
    return;
  /* A player on vacation starts counting when it ends. */
  int64_t start = c->now;
  int64_t back = vacation_until(c, L, p);
  if (back > start)
    start = back;
  char key[32];
  snprintf(key, sizeof key, "mute:%d", p);
  if (game_value(c, L, key, -1) != L->g->prompt.turn)
    set_timer(c, L, "remind", p,
              start + cmd_setting(c, L->row.guild, "reminder_hours") * HOUR, 0);
  long hours = cmd_game_setting(c, L, "deadline_hours");
  if (hours > 0) {
    set_timer(c, L, "warn", p, start + hours * HOUR / 2, 0);
    set_timer(c, L, "deadline", p, start + hours * HOUR, 0);
  }
}

void cmd_arm_lobby(cmd_ctx *c, live *L) {
  set_timer(c, L, "lobby", -1,
            c->now + cmd_setting(c, L->row.guild, "lobby_hours") * HOUR, 0);
}

/* The player's local hour in their time zone (the C library's tz
 * database), or -1 when they set none. The C library reads the zone from
 * TZ, so TZ is switched and put back. main gives TZ a value before any
 * thread starts (cmd_tz_init): replacing the value of a variable that
 * exists leaves the environment's array in place for other threads'
 * getenv (curl reads proxy variables), where adding or removing one
 * would move it. */
static int local_hour(const char *tz, int64_t now) {
  if (!tz[0])
    return -1;
  const char *old = getenv("TZ");
  char saved[128];
  snprintf(saved, sizeof saved, "%s", old && old[0] ? old : CMD_TZ_DEFAULT);
  setenv("TZ", tz, 1);
  tzset();
  time_t t = (time_t)now;
  struct tm tm;
  int hour = localtime_r(&t, &tm) ? tm.tm_hour : -1;
  setenv("TZ", saved, 1);
  tzset();
  return hour;
}

void cmd_tz_init(void) {
  const char *tz = getenv("TZ");
  if (!tz || !tz[0])
    setenv("TZ", CMD_TZ_DEFAULT, 1);
  tzset();
}

/* Seconds until quiet hours end, or 0 when it is not quiet for user. */
static int64_t quiet_left(cmd_ctx *c, const char *user, int64_t now) {
  char scope[64], tz[64] = "", quiet[16] = "";
  user_scope(user, scope, sizeof scope);
  sto_setting_get(c->cfg.db, scope, "tz", tz, sizeof tz);
  if (sto_setting_get(c->cfg.db, scope, "quiet", quiet, sizeof quiet))
    return 0;
  long from, to;
  char *dash = strchr(quiet, '-');
  if (!dash)
    return 0;
  *dash = '\0';
  if (!cmd_parse_int(quiet, 0, 23, &from) ||
      !cmd_parse_int(dash + 1, 0, 23, &to) || from == to)
    return 0;
  int hour = local_hour(tz[0] ? tz : "UTC", now);
  bool in =
      from < to ? (hour >= from && hour < to) : (hour >= from || hour < to);
  if (!in)
    return 0;
  int hours = (int)((to - hour + 24) % 24);
  int64_t into_hour = now % HOUR; /* zones with whole-hour offsets */
  return (int64_t)hours * HOUR - into_hour;
}

/* How the player wants reminders: 0 channel, 1 DM, 2 none. */
static int reminder_route(cmd_ctx *c, const char *user) {
  char scope[64], v[16];
  user_scope(user, scope, sizeof scope);
  if (sto_setting_get(c->cfg.db, scope, "reminders", v, sizeof v))
    return 0;
  return strcmp(v, "dm") == 0 ? 1 : strcmp(v, "off") == 0 ? 2 : 0;
}

static void fmt_duration(int64_t s, char *buf, size_t cap) {
  if (s >= DAY)
    snprintf(buf, cap, "%" PRId64 "d %" PRId64 "h", s / DAY, s % DAY / HOUR);
  else if (s >= HOUR)
    snprintf(buf, cap, "%" PRId64 "h %" PRId64 "m", s / HOUR, s % HOUR / 60);
  else
    snprintf(buf, cap, "%" PRId64 "m", s / 60);
}

static void fire_reminder(cmd_ctx *c, live *L, const sto_timer *t) {
  const sto_seat *s = &L->seats[t->seat];
  int64_t wait = cmd_setting(c, L->row.guild, "reminder_hours") * HOUR;
  int64_t cap = cmd_setting(c, L->row.guild, "reminder_cap_hours") * HOUR;
  int64_t quiet = quiet_left(c, s->user, c->now);
  if (quiet > 0) { /* not now: when their quiet hours end */
    set_timer(c, L, "remind", t->seat, c->now + quiet, t->data);
    return;
  }
  int route = reminder_route(c, s->user);
  char q[ENG_QUESTION_MAX], text[400], req[64];
  L->g->rs->question(L->g->state, &L->g->prompt, q, sizeof q);
  snprintf(req, sizeof req, "timer:%" PRId64, L->row.id);
  cmd_request r = timer_request(L, req);
  if (route == 1) {
    snprintf(text, sizeof text,
             "Reminder: game #%" PRId64 " is waiting for your decision (%s). "
             "/game mute silences this turn's reminders.",
             L->row.id, q);
    cmd_send_to(c, &r, CMD_TO_DM, s->user, s->name, L, text, NULL, "reminder");
  } else if (route == 0) {
    snprintf(text, sizeof text,
             "<@%s>, game #%" PRId64 " is waiting for your decision. "
             "(/game mute silences this turn's reminders; /game prefs "
             "reminders:dm sends them by DM.)",
             s->user, L->row.id);
    cmd_send_to(c, &r, CMD_TO_CHANNEL, NULL, NULL, L, text, s->user,
                "reminder");
  }
  /* Growing intervals: 1, 2, 4... times the first wait, up to the cap,
   * counted from now so downtime never makes a burst. */
  int64_t next = wait << (t->data + 1 < 16 ? t->data + 1 : 16);
  if (next > cap || next <= 0)
    next = cap;
  set_timer(c, L, "remind", t->seat, c->now + next, t->data + 1);
}

static void forfeit(cmd_ctx *c, const cmd_request *r, live *L, int seat,
                    const char *why) {
  sto_seat ai;
  char old[64];
  snprintf(old, sizeof old, "%s", L->seats[seat].name);
  cmd_ai_seat(seat, ENG_AI_HEURISTIC, &ai);
  if (sto_seat_set(c->cfg.db, L->row.id, &ai))
    return;
  L->seats[seat] = ai;
  cmd_announce(c, r, L,
               "%s's seat in game #%" PRId64 " goes to %s (%s); %s can no "
               "longer win this game.",
               old, L->row.id, ai.name, why, old);
}

static void fire_deadline(cmd_ctx *c, live *L, const sto_timer *t, bool warn) {
  const sto_seat *s = &L->seats[t->seat];
  char req[64];
  snprintf(req, sizeof req, "timer:%" PRId64, L->row.id);
  cmd_request r = timer_request(L, req);
  long hours = cmd_game_setting(c, L, "deadline_hours");
  if (warn) {
    char text[300], left[32];
    fmt_duration(hours * HOUR - hours * HOUR / 2, left, sizeof left);
    snprintf(text, sizeof text,
             "<@%s>, half your time for game #%" PRId64 " is gone: decide "
             "within %s, or %s.",
             s->user, L->row.id, left,
             cmd_setting(c, L->row.guild, "deadline_policy") == 0
                 ? "the AI answers for you"
                 : "your seat goes to the AI");
    cmd_send_to(c, &r, CMD_TO_CHANNEL, NULL, NULL, L, text, s->user, NULL);
    return;
  }
  if (cmd_game_setting(c, L, "deadline_policy") == 1) {
    forfeit(c, &r, L, t->seat, "the deadline passed");
  } else {
    cmd_announce(c, &r, L,
                 "%s's time ran out in game #%" PRId64 "; the AI answers "
                 "for them this once.",
                 s->name, L->row.id);
    ai_answer(c, &r, L, ENG_AI_HEURISTIC);
  }
  cmd_settle(c, &r, L);
  cmd_arm_timers(c, L);
}

void cmd_tick(cmd_ctx *c) {
  sto_timer t;
  for (int guard = 0; guard < 1000; guard++) {
    if (sto_timer_next(c->cfg.db, c->now, &t) != STO_OK)
      return;
    bool claimed;
    if (sto_timer_claim(c->cfg.db, &t, &claimed) || !claimed)
      continue; /* someone else acts on it */
    char why[200];
    live *L = cmd_load(c, t.game, why, sizeof why);
    if (!L)
      continue;
    if (strcmp(t.kind, "lobby") == 0) {
      if (L->row.status == STO_LOBBY) {
        char req[64];
        snprintf(req, sizeof req, "timer:%" PRId64, L->row.id);
        cmd_request r = timer_request(L, req);
        sto_game_set_status(c->cfg.db, L->row.id, STO_ABORTED, c->now);
        L->row.status = STO_ABORTED;
        cmd_announce(c, &r, L,
                     "Game #%" PRId64 " closed: nobody started it within "
                     "%ld hours.",
                     L->row.id, cmd_setting(c, L->row.guild, "lobby_hours"));
        cmd_evict(c, L->row.id);
      }
      continue;
    }
    if (L->row.status != STO_RUNNING || !L->g || cmd_paused(c, L) ||
        L->g->prompt.player != t.seat || t.seat < 0 || t.seat >= L->n_seats)
      continue; /* the decision it was for is gone */
    if (strcmp(t.kind, "remind") == 0)
      fire_reminder(c, L, &t);
    else if (strcmp(t.kind, "warn") == 0)
      fire_deadline(c, L, &t, true);
    else if (strcmp(t.kind, "deadline") == 0)
      fire_deadline(c, L, &t, false);
  }
}

/* ---- commands ------------------------------------------------------------ */

void cmd_h_mute(cmd_ctx *c, const cmd_request *r) {
  live *L = cmd_find_game(c, r, 1u << STO_RUNNING);
  if (!L)
    return;
  int seat = cmd_seat_of(L, r->user);
  if (seat < 0 || L->g->prompt.player != seat) {
    cmd_reply(c, r, L,
              "Game #%" PRId64 " is not waiting for you, so there "
              "is nothing to mute.",
              L->row.id);
    return;
  }
  char key[24];
  snprintf(key, sizeof key, "mute:%d", seat);
  set_game_value(c, L, key, L->g->prompt.turn);
  sto_timer_clear(c->cfg.db, L->row.id, "remind", seat);
  cmd_reply(c, r, L, "No more reminders for this turn of game #%" PRId64 ".",
            L->row.id);
}

static bool valid_zone(const char *tz) {
  if (!tz[0] || strlen(tz) > 60 || tz[0] == '/' || strstr(tz, ".."))
    return false;
  for (const char *p = tz; *p; p++)
    if (!(((*p | 32) >= 'a' && (*p | 32) <= 'z') || *p == '/' || *p == '_' ||
          *p == '-' || *p == '+' || (*p >= '0' && *p <= '9')))
      return false;
  char path[128];
  snprintf(path, sizeof path, "/usr/share/zoneinfo/%s", tz);
  FILE *f = fopen(path, "rb");
  if (!f)
    return false;
  char magic[4] = {0};
  bool ok = fread(magic, 1, 4, f) == 4 && memcmp(magic, "TZif", 4) == 0;
  fclose(f);
  return ok;
}

void cmd_h_prefs(cmd_ctx *c, const cmd_request *r) {
  const char *rem = cmd_arg_get(r, "reminders");
  const char *tz = cmd_arg_get(r, "tz");
  const char *quiet = cmd_arg_get(r, "quiet");
  char scope[64];
  user_scope(r->user, scope, sizeof scope);
  if (rem && strcmp(rem, "channel") && strcmp(rem, "dm") &&
      strcmp(rem, "off")) {
    cmd_reply(c, r, NULL, "reminders takes channel, dm or off.");
    return;
  }
  if (tz && !valid_zone(tz)) {
    cmd_reply(c, r, NULL,
              "'%.60s' is not a time zone Lair knows; use an "
              "Area/City name like Europe/Berlin or "
              "America/New_York.",
              tz);
    return;
  }
  if (quiet) {
    long a, b;
    char buf[16];
    snprintf(buf, sizeof buf, "%s", quiet);
    char *dash = strchr(buf, '-');
    if (dash)
      *dash = '\0';
    if (!dash || !cmd_parse_int(buf, 0, 23, &a) ||
        !cmd_parse_int(dash + 1, 0, 23, &b) || a == b) {
      cmd_reply(c, r, NULL,
                "quiet takes two different hours from 0 to 23, "
                "e.g. quiet:22-7 (no reminders from 22:00 to "
                "7:00 in your time zone).");
      return;
    }
  }
  if ((rem && sto_setting_set(c->cfg.db, scope, "reminders", rem)) ||
      (tz && sto_setting_set(c->cfg.db, scope, "tz", tz)) ||
      (quiet && sto_setting_set(c->cfg.db, scope, "quiet", quiet))) {
    cmd_reply(c, r, NULL, "Your preferences could not be saved.");
    return;
  }
  char v1[16] = "channel", v2[64] = "UTC", v3[16] = "none";
  sto_setting_get(c->cfg.db, scope, "reminders", v1, sizeof v1);
  sto_setting_get(c->cfg.db, scope, "tz", v2, sizeof v2);
  sto_setting_get(c->cfg.db, scope, "quiet", v3, sizeof v3);
  cmd_reply(c, r, NULL,
            "Your preferences: reminders %s, time zone %s, quiet hours %s.",
            v1[0] ? v1 : "channel", v2[0] ? v2 : "UTC", v3[0] ? v3 : "none");
}

void cmd_h_vacation(cmd_ctx *c, const cmd_request *r) {
  live *L = cmd_find_game(c, r, 1u << STO_RUNNING);
  if (!L)
    return;
  int seat = cmd_seat_of(L, r->user);
  if (seat < 0) {
    cmd_reply(c, r, L, "You are not playing in game #%" PRId64 ".", L->row.id);
    return;
  }
  long days = 0;
  cmd_parse_int(cmd_arg_get(r, "days"), 1, 60, &days);
  long allowed = cmd_game_setting(c, L, "vacation_days");
  char key[32];
  snprintf(key, sizeof key, "vacation_used:%d", seat);
  long used = game_value(c, L, key, 0);
  if (used + days > allowed) {
    cmd_reply(c, r, L,
              "You have %ld vacation day%s left in game #%" PRId64 " (of %ld).",
              allowed - used, allowed - used == 1 ? "" : "s", L->row.id,
              allowed);
    return;
  }
  char until_key[32];
  snprintf(until_key, sizeof until_key, "vacation_until:%d", seat);
  int64_t from = vacation_until(c, L, seat);
  if (from < c->now)
    from = c->now;
  if (set_game_value(c, L, key, used + days) ||
      set_game_value(c, L, until_key, (long)(from + days * DAY))) {
    cmd_reply(c, r, L, "Your vacation could not be saved.");
    return;
  }
  cmd_arm_timers(c, L);
  cmd_announce(c, r, L,
               "%s is on vacation for %ld day%s: game #%" PRId64 " waits "
               "for them without reminders or deadlines until then.",
               r->user_name, days, days == 1 ? "" : "s", L->row.id);
}

void cmd_h_deadline(cmd_ctx *c, const cmd_request *r) {
  live *L = cmd_find_game(c, r, (1u << STO_LOBBY) | (1u << STO_RUNNING));
  if (!L)
    return;
  if (!cmd_opener_or_mod(c, r, L, "set its deadline"))
    return;
  long hours = 0;
  cmd_parse_int(cmd_arg_get(r, "hours"), 0, 720, &hours);
  char scope[40], v[16];
  game_scope(L, scope, sizeof scope);
  snprintf(v, sizeof v, "%ld", hours);
  if (sto_setting_set(c->cfg.db, scope, "deadline_hours", v)) {
    cmd_reply(c, r, L, "The deadline could not be saved.");
    return;
  }
  if (r->is_mod)
    cmd_audit(c, r, "deadline", L->row.id, "%ld hours", hours);
  cmd_arm_timers(c, L);
  if (hours)
    cmd_announce(c, r, L,
                 "Game #%" PRId64 ": each decision now has a %ld-hour "
                 "deadline (warning at half time).",
                 L->row.id, hours);
  else
    cmd_announce(c, r, L, "Game #%" PRId64 " has no deadline any more.",
                 L->row.id);
}

void cmd_h_addai(cmd_ctx *c, const cmd_request *r) {
  live *L = cmd_find_game(c, r, 1u << STO_LOBBY);
  if (!L)
    return;
  if (!cmd_opener_or_mod(c, r, L, "add AI players"))
    return;
  const char *lv = cmd_arg_get(r, "level");
  int level = lv ? eng_ai_find(lv) : ENG_AI_HEURISTIC;
  if (level < 0) {
    cmd_reply(c, r, L, "level takes random or heuristic.");
    return;
  }
  eng_config cfg;
  int seats;
  cmd_parse_config(L->row.config, &cfg, &seats);
  if (L->n_seats >= seats) {
    cmd_reply(c, r, L, "Game #%" PRId64 " is full (%d players).", L->row.id,
              seats);
    return;
  }
  sto_seat s;
  cmd_ai_seat(L->n_seats, level, &s);
  if (sto_seat_set(c->cfg.db, L->row.id, &s)) {
    cmd_reply(c, r, L, "The AI player could not be added.");
    return;
  }
  L->seats[L->n_seats++] = s;
  cmd_announce(c, r, L, "%s (%s) joined game #%" PRId64 ".", s.name,
               eng_ai_name(level), L->row.id);
}

/* Gives seat to `to` (a member) or to the AI (to NULL). */
static bool give_seat(cmd_ctx *c, const cmd_request *r, live *L, int seat,
                      const char *to_user, const char *to_name) {
  sto_seat s;
  if (to_user) {
    memset(&s, 0, sizeof s);
    s.seat = seat;
    snprintf(s.user, sizeof s.user, "%s", to_user);
    snprintf(s.name, sizeof s.name, "%s", to_name);
  } else {
    cmd_ai_seat(seat, ENG_AI_HEURISTIC, &s);
  }
  if (sto_seat_set(c->cfg.db, L->row.id, &s)) {
    cmd_reply(c, r, L, "The seat could not be changed.");
    return false;
  }
  L->seats[seat] = s;
  if (L->g && to_user) { /* the newcomer gets the hand at once */
    if (L->g->prompt.player == seat) {
      cmd_prompt(c, r, L, NULL); /* the prompt carries the hand */
    } else {
      char hand[CMD_TEXT_MAX + 1];
      cmd_render(L, seat, ENG_RENDER_HAND, hand, sizeof hand);
      cmd_send_to(c, r, CMD_TO_DM, s.user, s.name, L, hand, NULL, "hand");
    }
  }
  return true;
}

void cmd_h_replace(cmd_ctx *c, const cmd_request *r) {
  live *L = cmd_find_game(c, r, (1u << STO_LOBBY) | (1u << STO_RUNNING));
  if (!L)
    return;
  const char *who = cmd_arg_get(r, "user");
  const char *with = cmd_arg_get(r, "with");
  int seat = cmd_seat_of(L, who);
  for (int i = 0; seat < 0 && i < L->n_seats; i++)
    if (strcmp(L->seats[i].name, who) == 0)
      seat = i;
  if (seat < 0) {
    cmd_reply(c, r, L, "'%.40s' is not in game #%" PRId64 ".", who, L->row.id);
    return;
  }
  if (with && cmd_seat_of(L, with) >= 0) {
    cmd_reply(c, r, L, "'%.40s' already sits in game #%" PRId64 ".", with,
              L->row.id);
    return;
  }
  char old[64];
  snprintf(old, sizeof old, "%s", L->seats[seat].name);
  /* On Discord the member's display name arrives as the option's value's
   * resolved name; the id stands in when the transport has none. */
  const char *with_name = cmd_arg_get(r, "with_name");
  if (!give_seat(c, r, L, seat, with, with_name ? with_name : with))
    return;
  cmd_audit(c, r, "replace", L->row.id, "seat %d: %s -> %s", seat + 1, old,
            L->seats[seat].name);
  cmd_announce(c, r, L, "%s gave %s's seat in game #%" PRId64 " to %s.",
               r->user_name, old, L->row.id, L->seats[seat].name);
  cmd_settle(c, r, L);
  cmd_arm_timers(c, L);
}

void cmd_forfeit_seat(cmd_ctx *c, const cmd_request *r, live *L, int seat,
                      const char *why) {
  forfeit(c, r, L, seat, why);
  cmd_settle(c, r, L);
  cmd_arm_timers(c, L);
}

static void pause_resume(cmd_ctx *c, const cmd_request *r, bool pause) {
  live *L = cmd_find_game(c, r, 1u << STO_RUNNING);
  if (!L)
    return;
  if (cmd_paused(c, L) == pause) {
    cmd_reply(c, r, L, "Game #%" PRId64 " is %s.", L->row.id,
              pause ? "already paused" : "not paused");
    return;
  }
  if (set_game_value(c, L, "paused", pause ? 1 : 0)) {
    cmd_reply(c, r, L, "The game could not be %s.",
              pause ? "paused" : "resumed");
    return;
  }
  cmd_audit(c, r, pause ? "pause" : "resume", L->row.id, "%s",
            pause ? "paused" : "resumed");
  cmd_announce(c, r, L, "%s %s game #%" PRId64 ".", r->user_name,
               pause ? "paused" : "resumed", L->row.id);
  if (!pause)
    cmd_settle(c, r, L);
  cmd_arm_timers(c, L);
}

void cmd_h_pause(cmd_ctx *c, const cmd_request *r) { pause_resume(c, r, true); }
void cmd_h_resume(cmd_ctx *c, const cmd_request *r) {
  pause_resume(c, r, false);
}
