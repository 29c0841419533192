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
 * downtime yields one reminder, not a burst. A deadline is a turn's clock
 * (cmd_turn.c keeps them): when it runs out the AI plays the rest of the
 * turn, and miss_limit missed turns in a row bring miss_action.
 */
#include "cmd_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define HOUR 3600
#define DAY 86400

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
  cmd_user_scope(user, scope, sizeof scope);
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
  cmd_user_scope(user, scope, sizeof scope);
  if (sto_setting_get(c->cfg.db, scope, "reminders", v, sizeof v))
    return 0;
  return strcmp(v, "dm") == 0 ? 1 : strcmp(v, "off") == 0 ? 2 : 0;
}

static void fmt_duration(cmd_lang lang, int64_t s, char *buf, size_t cap) {
  if (s >= DAY)
    snprintf(buf, cap, T(lang, "%" PRId64 "d %" PRId64 "h"), s / DAY,
             s % DAY / HOUR);
  else if (s >= HOUR)
    snprintf(buf, cap, T(lang, "%" PRId64 "h %" PRId64 "m"), s / HOUR,
             s % HOUR / 60);
  else
    snprintf(buf, cap, T(lang, "%" PRId64 "m"), s / 60);
}

static void fire_reminder(cmd_ctx *c, live *L, const sto_timer *t) {
  const sto_seat *s = &L->seats[t->seat];
  int64_t wait = cmd_setting(c, L->row.guild, "reminder_hours") * HOUR;
  int64_t cap = cmd_setting(c, L->row.guild, "reminder_cap_hours") * HOUR;
  int64_t quiet = quiet_left(c, s->user, c->now);
  if (quiet > 0) { /* not now: when their quiet hours end */
    cmd_set_timer(c, L, "remind", t->seat, c->now + quiet, t->data);
    return;
  }
  int route = reminder_route(c, s->user);
  char q[ENG_QUESTION_MAX], text[400], req[64];
  L->g->rs->question(L->g->state, &L->g->prompt, q, sizeof q);
  snprintf(req, sizeof req, "timer:%" PRId64, L->row.id);
  cmd_request r = cmd_timer_request(L, req);
  if (route == 1) {
    snprintf(text, sizeof text,
             T(cmd_lang_user(c, s->user),
               "Reminder: game #%" PRId64 " is waiting for your decision (%s). "
               "/prefs mute silences this turn's reminders."),
             L->row.id, q);
    cmd_send_to(c, &r, CMD_TO_DM, s->user, s->name, L, text, NULL, "reminder");
  } else if (route == 0) {
    snprintf(text, sizeof text,
             T(cmd_lang_game(c, L),
               "<@%s>, game #%" PRId64 " is waiting for your decision. "
               "(/prefs mute silences this turn's reminders; /prefs set "
               "reminders:dm sends them by DM.)"),
             s->user, L->row.id);
    cmd_send_to(c, &r, CMD_TO_CHANNEL, NULL, NULL, L, text, s->user,
                "reminder");
  }
  /* Growing intervals: 1, 2, 4... times the first wait, up to the cap,
   * counted from now so downtime never makes a burst. */
  int64_t next = wait << (t->data + 1 < 16 ? t->data + 1 : 16);
  if (next > cap || next <= 0)
    next = cap;
  cmd_set_timer(c, L, "remind", t->seat, c->now + next, t->data + 1);
}

/* What miss_action does to seat, said to its player ("you forfeit...")
 * or about them ("bob forfeits..."), in lang. The clause follows "or" or
 * "at 3,": languages that put the verb first there (German) do so in
 * their form of it. */
static void escalation(cmd_ctx *c, const live *L, int seat, bool you,
                       cmd_lang lang, char *buf, size_t cap) {
  const char *name = L->seats[seat].name;
  bool forfeit = cmd_game_setting(c, L, "miss_action") == 1;
  if (forfeit && you)
    snprintf(buf, cap, "%s",
             T(lang, "you forfeit the game (the seat goes to the AI)"));
  else if (forfeit)
    snprintf(buf, cap,
             T(lang, "%s forfeits the game (the seat goes to the AI)"), name);
  else if (you)
    snprintf(buf, cap, "%s",
             T(lang, "the AI plays your seat for the rest of the game"));
  else
    snprintf(buf, cap,
             T(lang, "the AI plays %s's seat for the rest of the game"), name);
}

/* What seat's next missed turn brings, said to its player in lang: the
 * AI plays the rest of the turn, or, when it reaches miss_limit,
 * miss_action. */
static void next_miss(cmd_ctx *c, const live *L, int seat, cmd_lang lang,
                      char *buf, size_t cap) {
  long limit = cmd_game_setting(c, L, "miss_limit");
  if (limit > 0 && cmd_misses(c, L, seat) + 1 >= limit)
    escalation(c, L, seat, true, lang, buf, cap);
  else
    snprintf(buf, cap, "%s", T(lang, "the AI plays the rest of your turn"));
}

/* "missed a turn", "missed 3 turns in a row", in lang. */
static void missed_words(cmd_lang lang, long misses, char *buf, size_t cap) {
  if (misses == 1)
    snprintf(buf, cap, "%s", T(lang, "missed a turn"));
  else
    snprintf(buf, cap, T(lang, "missed %ld turns in a row"), misses);
}

/* The half-time warning, routed like reminders: in the channel with a
 * ping, by DM when the player asked for DMs, not at all when they muted
 * this turn or turned reminders off; during their quiet hours it waits
 * for them to end, unless the deadline comes first: then none is sent. */
static void fire_warning(cmd_ctx *c, live *L, const sto_timer *t) {
  const sto_seat *s = &L->seats[t->seat];
  int64_t due = cmd_clock_due(c, L, t->seat);
  char key[24];
  snprintf(key, sizeof key, "mute:%d", t->seat);
  int route = reminder_route(c, s->user);
  if (due <= c->now || route == 2 ||
      cmd_game_value(c, L, key, -1) == L->g->prompt.turn)
    return;
  int64_t quiet = quiet_left(c, s->user, c->now);
  if (quiet > 0) {
    if (c->now + quiet < due) {
      sto_timer w = *t;
      w.due = c->now + quiet;
      w.turn = L->g->prompt.turn;
      sto_timer_set(c->cfg.db, &w);
    }
    return;
  }
  char req[64], left[32], then[160], text[400];
  snprintf(req, sizeof req, "timer:%" PRId64, L->row.id);
  cmd_request r = cmd_timer_request(L, req);
  /* In the player's language by DM, else in the channel's. */
  cmd_lang lang = route == 1 ? cmd_lang_user(c, s->user) : cmd_lang_game(c, L);
  fmt_duration(lang, due - c->now, left, sizeof left);
  next_miss(c, L, t->seat, lang, then, sizeof then);
  if (route == 1) {
    snprintf(text, sizeof text,
             T(lang, "Half your time for this turn of game #%" PRId64
                     " is gone: decide within %s, or %s."),
             L->row.id, left, then);
    cmd_send_to(c, &r, CMD_TO_DM, s->user, s->name, L, text, NULL, "reminder");
  } else {
    snprintf(text, sizeof text,
             T(lang, "<@%s>, half your time for this turn of game #%" PRId64
                     " is gone: decide within %s, or %s."),
             s->user, L->row.id, left, then);
    cmd_send_to(c, &r, CMD_TO_CHANNEL, NULL, NULL, L, text, s->user, NULL);
  }
}

/* The seat's clock ran out: a missed turn. Below miss_limit the AI plays
 * the rest of the turn; at it, miss_action hands the seat to the AI for
 * good, announced and written to the audit log. */
static void fire_deadline(cmd_ctx *c, live *L, const sto_timer *t) {
  int seat = t->seat;
  char req[64], name[64];
  snprintf(req, sizeof req, "timer:%" PRId64, L->row.id);
  snprintf(name, sizeof name, "%s", L->seats[seat].name);
  cmd_request r = cmd_timer_request(L, req);
  long limit = cmd_game_setting(c, L, "miss_limit");
  long misses = cmd_add_miss(c, L, seat);
  if (misses < 0)
    return;
  /* Announced in the channel's language; the audit keeps English. */
  cmd_lang lang = cmd_lang_game(c, L);
  char what[200];
  escalation(c, L, seat, false, lang, what, sizeof what);
  if (limit > 0 && misses >= limit) {
    char missed[80], missed_en[48];
    missed_words(lang, misses, missed, sizeof missed);
    missed_words(CMD_LANG_EN, misses, missed_en, sizeof missed_en);
    sto_seat ai;
    cmd_ai_seat(seat, ENG_AI_HEURISTIC, &ai);
    bool forfeits = cmd_game_setting(c, L, "miss_action") == 1;
    if (forfeits)
      cmd_announce(c, &r, L,
                   "%s %s and forfeits game #%" PRId64 ": the seat goes to "
                   "%s, and %s can no longer win.",
                   name, missed, L->row.id, ai.name, name);
    else {
      /* The AI plays on in the player's name. */
      snprintf(ai.name, sizeof ai.name, "%.56s (AI)", name);
      cmd_announce(c, &r, L,
                   "%s %s; the AI plays %s's seat for the rest of game "
                   "#%" PRId64 ".",
                   name, missed, name, L->row.id);
    }
    /* The audit names the setting that acted, not a member. */
    cmd_request by = r;
    by.user = "miss_limit";
    cmd_audit(c, &by, "missed_turns", L->row.id, "%s (seat %d) %s: %s", name,
              seat + 1, missed_en,
              forfeits ? "forfeited to the AI"
                       : "the AI plays the seat to the end");
    if (!cmd_give_seat(c, L, seat, &ai))
      return;
  } else {
    cmd_clock_run_out(c, L, seat);
    char more[300] = "";
    if (limit > 0)
      snprintf(more, sizeof more,
               cmd_trn(lang, misses,
                       " That is %ld missed turn in a row; at %ld, %s.",
                       " That is %ld missed turns in a row; at %ld, %s."),
               misses, limit, what);
    cmd_announce(c, &r, L,
                 "%s's time for this turn of game #%" PRId64 " ran out: the "
                 "AI plays the rest of %s's turn.%s",
                 name, L->row.id, name, more);
  }
  cmd_settle(c, &r, L);
  cmd_arm_timers(c, L);
}

/* ---- commands ------------------------------------------------------------ */

void cmd_h_mute(cmd_ctx *c, const cmd_request *r) {
  live *L = cmd_find_game(c, r, 1u << STO_RUNNING);
  if (!L)
    return;
  int seat = cmd_seat_of(L, r->user);
  if (seat < 0 || L->g->prompt.player != seat) {
    cmd_reply_state(c, r, L,
                    T(c->lang, "There is nothing to mute: it is not your "
                               "decision now."),
                    T(c->lang, "Reminders come only while a game waits for "
                               "you; /prefs set reminders:off turns them off "
                               "everywhere."));
    return;
  }
  char key[24];
  snprintf(key, sizeof key, "mute:%d", seat);
  cmd_set_game_value(c, L, key, L->g->prompt.turn);
  sto_timer_clear(c->cfg.db, L->row.id, "remind", seat);
  cmd_reply(c, r, L,
            "No more reminders for this turn of game #%" PRId64
            ", nor its deadline's warning.",
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
  const char *windows = cmd_arg_get(r, "conditions");
  const char *language = cmd_arg_get(r, "language"); /* the table checked it */
  char scope[64];
  cmd_user_scope(r->user, scope, sizeof scope);
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
  char quiet_v[8] = "";
  if (quiet) {
    /* The whole value: two hours and one dash, nothing around them. */
    long a = -1, b = -1;
    char buf[8];
    const char *dash = strchr(quiet, '-');
    size_t n = dash ? (size_t)(dash - quiet) : 0;
    bool ok =
        dash && n > 0 && n < 3 && strlen(dash + 1) > 0 && strlen(dash + 1) < 3;
    if (ok) {
      memcpy(buf, quiet, n);
      buf[n] = '\0';
      ok = cmd_parse_int(buf, 0, 23, &a) && cmd_parse_int(dash + 1, 0, 23, &b);
    }
    if (ok)
      snprintf(quiet_v, sizeof quiet_v, "%ld-%ld", a, b);
    if (!ok || a == b) {
      cmd_reply(c, r, NULL,
                "quiet takes two different hours from 0 to 23, "
                "e.g. quiet:22-7 (no reminders from 22:00 to "
                "7:00 in your time zone).");
      return;
    }
  }
  if (windows && strcmp(windows, "ask") && strcmp(windows, "auto-pass")) {
    cmd_reply(c, r, NULL, "conditions takes ask or auto-pass.");
    return;
  }
  if ((rem && sto_setting_set(c->cfg.db, scope, "reminders", rem)) ||
      (tz && sto_setting_set(c->cfg.db, scope, "tz", tz)) ||
      (quiet && sto_setting_set(c->cfg.db, scope, "quiet", quiet_v)) ||
      (windows && sto_setting_set(c->cfg.db, scope, "conditions", windows)) ||
      (language && sto_setting_set(c->cfg.db, scope, "language", language))) {
    cmd_fail(c, "Your preferences could not be saved.");
    return;
  }
  char v1[16] = "channel", v2[64] = "UTC", v3[16] = "", v4[16] = "ask";
  sto_setting_get(c->cfg.db, scope, "reminders", v1, sizeof v1);
  sto_setting_get(c->cfg.db, scope, "tz", v2, sizeof v2);
  sto_setting_get(c->cfg.db, scope, "quiet", v3, sizeof v3);
  sto_setting_get(c->cfg.db, scope, "conditions", v4, sizeof v4);
  if (language) /* answered in the language just chosen */
    c->lang = cmd_lang_request(c, r);
  char v5[16] = "auto";
  sto_setting_get(c->cfg.db, scope, "language", v5, sizeof v5);
  cmd_reply(
      c, r, NULL,
      "Your preferences: reminders %s, time zone %s, quiet hours %s, "
      "Condition and interrupt windows %s (%s), language %s (%s).",
      v1[0] ? v1 : "channel", v2[0] ? v2 : "UTC",
      v3[0] ? v3 : T(c->lang, "none"), v4[0] ? v4 : "ask",
      strcmp(v4, "auto-pass") == 0
          ? T(c->lang, "Lair passes every window for you at once, "
                       "whatever you hold, a window waiting for you "
                       "now included")
          : T(c->lang, "every window is asked of you by DM, whatever you hold"),
      v5[0] ? v5 : "auto", cmd_lang_code(c->lang));
  /* A window waiting on this person now is passed at once. */
  if (windows && strcmp(windows, "auto-pass") == 0)
    cmd_settle_user(c, r);
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
  long used = cmd_game_value(c, L, key, 0);
  if (used + days > allowed) {
    cmd_reply(
        c, r, L,
        allowed - used == 1
            ? "You have %ld vacation day left in game #%" PRId64 " (of %ld)."
            : "You have %ld vacation days left in game #%" PRId64 " (of %ld).",
        allowed - used, L->row.id, allowed);
    return;
  }
  char until_key[32];
  snprintf(until_key, sizeof until_key, "vacation_until:%d", seat);
  int64_t from = cmd_vacation_until(c, L, seat);
  if (from < c->now)
    from = c->now;
  if (cmd_set_game_value(c, L, key, used + days) ||
      cmd_set_game_value(c, L, until_key, (long)(from + days * DAY))) {
    cmd_fail(c, "Your vacation could not be saved.");
    return;
  }
  cmd_arm_timers(c, L);
  cmd_announce(c, r, L,
               days == 1 ? "%s is on vacation for %ld day: game #%" PRId64
                           " waits for them without reminders or deadlines "
                           "until then."
                         : "%s is on vacation for %ld days: game #%" PRId64
                           " waits for them without reminders or deadlines "
                           "until then.",
               r->user_name, days, L->row.id);
}

void cmd_h_deadline(cmd_ctx *c, const cmd_request *r) {
  live *L = cmd_find_game(c, r, (1u << STO_LOBBY) | (1u << STO_RUNNING));
  if (!L)
    return;
  if (!cmd_opener_or_mod(c, r, L, T(c->lang, "set its deadline")))
    return;
  long hours = 0;
  cmd_parse_int(cmd_arg_get(r, "hours"), 0, 720, &hours);
  char scope[40], v[16];
  cmd_game_scope(L, scope, sizeof scope);
  snprintf(v, sizeof v, "%ld", hours);
  if (sto_setting_set(c->cfg.db, scope, "deadline_hours", v)) {
    cmd_fail(c, "The deadline could not be saved.");
    return;
  }
  if (r->is_mod)
    cmd_audit(c, r, "deadline", L->row.id, "%ld hours", hours);
  /* The clocks of the turn in progress start again with the new time. */
  sto_timer_clear(c->cfg.db, L->row.id, "deadline", -1);
  sto_timer_clear(c->cfg.db, L->row.id, "warn", -1);
  cmd_arm_timers(c, L);
  if (hours)
    cmd_announce(c, r, L,
                 hours == 1
                     ? "Game #%" PRId64 ": each player now has %ld hour per "
                       "turn (warning at half time; the turn in progress "
                       "counts from now). When it runs out, the AI plays the "
                       "rest of their turn."
                     : "Game #%" PRId64 ": each player now has %ld hours per "
                       "turn (warning at half time; the turn in progress "
                       "counts from now). When it runs out, the AI plays the "
                       "rest of their turn.",
                 L->row.id, hours);
  else
    cmd_announce(c, r, L, "Game #%" PRId64 " has no deadline any more.",
                 L->row.id);
}

void cmd_h_addai(cmd_ctx *c, const cmd_request *r) {
  live *L = cmd_find_game(c, r, 1u << STO_LOBBY);
  if (!L)
    return;
  if (!cmd_opener_or_mod(c, r, L, T(c->lang, "add AI players")))
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
    cmd_fail(c, "The AI player could not be added.");
    return;
  }
  L->seats[L->n_seats++] = s;
  cmd_announce_lobby(c, r, L, "%s (%s) joined game #%" PRId64 ".", s.name,
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
  if (!cmd_give_seat(c, L, seat, &s))
    return false;
  if (L->g && to_user) { /* the newcomer gets the hand at once */
    if (L->g->prompt.player == seat) {
      cmd_prompt(c, r, L, NULL, true); /* the prompt carries the hand */
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

static void pause_resume(cmd_ctx *c, const cmd_request *r, bool pause) {
  live *L = cmd_find_game(c, r, 1u << STO_RUNNING);
  if (!L)
    return;
  if (cmd_paused(c, L) == pause) {
    cmd_reply(c, r, L,
              pause ? "Game #%" PRId64 " is already paused."
                    : "Game #%" PRId64 " is not paused.",
              L->row.id);
    return;
  }
  if (cmd_set_game_value(c, L, "paused", pause ? 1 : 0)) {
    cmd_fail(c, pause ? "The game could not be paused."
                      : "The game could not be resumed.");
    return;
  }
  cmd_audit(c, r, pause ? "pause" : "resume", L->row.id, "%s",
            pause ? "paused" : "resumed");
  cmd_announce(c, r, L,
               pause ? "%s paused game #%" PRId64 "."
                     : "%s resumed game #%" PRId64 ".",
               r->user_name, L->row.id);
  if (!pause)
    cmd_settle(c, r, L);
  cmd_arm_timers(c, L);
}

void cmd_h_pause(cmd_ctx *c, const cmd_request *r) { pause_resume(c, r, true); }
void cmd_h_resume(cmd_ctx *c, const cmd_request *r) {
  pause_resume(c, r, false);
}

void cmd_fire_timer(cmd_ctx *c, const sto_timer *t) {
  char why[200];
  live *L = cmd_load(c, t->game, why, sizeof why);
  if (!L)
    return;
  if (strcmp(t->kind, "lobby") == 0) {
    if (L->row.status == STO_LOBBY) {
      char req[64];
      snprintf(req, sizeof req, "timer:%" PRId64, L->row.id);
      cmd_request r = cmd_timer_request(L, req);
      if (cmd_set_status(c, L, STO_ABORTED))
        cmd_announce(c, &r, L,
                     "Game #%" PRId64 " closed: nobody started it within "
                     "%ld hours.",
                     L->row.id, cmd_setting(c, L->row.guild, "lobby_hours"));
    }
    return;
  }
  if (L->row.status != STO_RUNNING || !L->g || cmd_paused(c, L) ||
      L->g->prompt.player != t->seat || t->seat < 0 || t->seat >= L->n_seats ||
      cmd_is_ai(L->seats[t->seat].user))
    return; /* the decision it was for is gone */
  /* A turn clock counts for its turn only (-1: armed before clocks were
   * kept by turn, for the turn in progress). */
  bool this_turn = t->turn < 0 || t->turn == L->g->prompt.turn;
  if (strcmp(t->kind, "remind") == 0)
    fire_reminder(c, L, t);
  else if (strcmp(t->kind, "warn") == 0 && this_turn)
    fire_warning(c, L, t);
  else if (strcmp(t->kind, "deadline") == 0 && this_turn)
    fire_deadline(c, L, t);
}
