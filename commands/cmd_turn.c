/*
 * cmd_turn.c: the helpers that keep a game moving after a change: AI
 * seats answering while it is their decision, the turn clocks (deadlines)
 * and reminders armed for whoever must answer next, a game's own values
 * (paused, vacations, mutes, missed turns) and seats changing hands.
 *
 * Timers are rows in storage (sto_timer), armed after every change and
 * fired by cmd_tick (cmd.c) with the transport's clock; what each does
 * when it fires is cmd_async.c's.
 */
#include "cmd_int.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HOUR 3600

bool cmd_is_ai(const char *user) { return strncmp(user, "ai:", 3) == 0; }

void cmd_game_scope(const live *L, char *buf, size_t cap) {
  snprintf(buf, cap, "game:%" PRId64, L->row.id);
}

long cmd_game_value(cmd_ctx *c, const live *L, const char *key, long dflt) {
  char scope[40], v[32];
  long x;
  cmd_game_scope(L, scope, sizeof scope);
  if (sto_setting_get(c->cfg.db, scope, key, v, sizeof v) == STO_OK &&
      cmd_parse_int(v, -1, INT32_MAX, &x))
    return x;
  return dflt;
}

sto_rc cmd_set_game_value(cmd_ctx *c, const live *L, const char *key,
                          long value) {
  char scope[40], v[32];
  cmd_game_scope(L, scope, sizeof scope);
  snprintf(v, sizeof v, "%ld", value);
  return sto_setting_set(c->cfg.db, scope, key, v);
}

bool cmd_paused(cmd_ctx *c, const live *L) {
  return cmd_game_value(c, L, "paused", 0) != 0;
}

/* A request for messages that no user's request caused (timers). */
cmd_request cmd_timer_request(const live *L, const char *id) {
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

void cmd_answer_lines(cmd_lang lang, int seat, const eng_events *ev,
                      const char *label, cmd_lines *out) {
  out->n = 0;
  for (int i = 0; i < ev->n; i++)
    cmd_lines_add(out, ev->ev[i].seat, ev->ev[i].text);
  char line[STO_LINE_MAX + 1];
  size_t n = strlen(label);
  char last = n ? label[n - 1] : '\0';
  snprintf(line, sizeof line, T(lang, "You chose: %s%s"), label,
           last == '.' || last == '!' || last == '?' ? "" : ".");
  cmd_lines_add(out, seat, line);
}

/* Answers option i of L's prompt for the seat whose decision it is, on
 * its behalf (an AI seat, a run-out clock, a standing preference): the
 * move's request id is "ai:GAME:MOVES" and suffix; the seat's "You
 * chose" line adds note (English, marked N_) after the option's label,
 * both in the language of the seat's person. */
static bool answer_for(cmd_ctx *c, const cmd_request *r, live *L, int i,
                       const char *suffix, const char *note) {
  eng_game *g = L->g;
  int seat = g->prompt.player;
  char before[ENG_MAX_SEATS][CMD_TEXT_MAX + 1];
  cmd_hands(L, before);
  int turn = g->prompt.turn;
  char id[ENG_ID_MAX + 1], label[ENG_LABEL_MAX + 1], req[64];
  eng_game_option(g, i, id, label);
  eng_events ev;
  if (eng_game_answer_index(g, i, &ev))
    return false;
  snprintf(req, sizeof req, "ai:%" PRId64 ":%" PRId64 "%s", L->row.id,
           L->row.moves, suffix);
  cmd_request ar = *r;
  ar.request_id = req;
  bool revealed = g->answers[g->n_answers - 1].revealed;
  cmd_lines lines;
  char said[ENG_LABEL_MAX + 160];
  cmd_lang lang = cmd_lang_user(c, L->seats[seat].user);
  snprintf(said, sizeof said, "%s%s", label, cmd_tr(lang, note));
  cmd_answer_lines(lang, seat, &ev, said, &lines);
  if (!cmd_commit(c, &ar, L, seat, STO_MOVE_ANSWER, id, turn, revealed, &lines))
    return false;
  /* cmd_commit does not evict on success; L is still ours. */
  cmd_after_change(c, r, L, turn, seat, before);
  return true;
}

/* The AI's answers draw their tie-breaks from this generator, seeded by
 * the game and its number of moves, so that a learn game's hint
 * (cmd_hint) names exactly the option the AI would answer now. */
static void ai_rng(const live *L, eng_rng *rng) {
  eng_rng_seed(rng, L->row.seed ^ (uint64_t)L->row.moves, 7);
}

/* Plays one answer for the seat whose decision it is, with the AI; used
 * for AI seats and for a human's deadline under the "ai" policy. */
bool cmd_ai_answer(cmd_ctx *c, const cmd_request *r, live *L, int level) {
  eng_game *g = L->g;
  eng_rng rng;
  ai_rng(L, &rng);
  int i = eng_ai_choose(g->rs, g->state, &g->prompt, level, &rng);
  if (i < 0)
    return false;
  /* The AI answering for a person whose turn clock ran out says so in
     the request id, which /game log reads ("AI for bob, deadline"). */
  return answer_for(
      c, r, L, i, cmd_is_ai(L->seats[g->prompt.player].user) ? "" : CMD_AI_FOR,
      "");
}

/* The pass option of L's prompt when it is a window its person passes
 * by standing preference (cmd_auto_passes), else -1. The window is the
 * same whatever they hold (eng_ruleset.pass_option), so this answer
 * tells nobody anything about their hand. */
static int standing_pass(cmd_ctx *c, const live *L, int seat) {
  const eng_game *g = L->g;
  if (!g->rs->pass_option || cmd_is_ai(L->seats[seat].user))
    return -1;
  int i = g->rs->pass_option(g->state, &g->prompt);
  if (i < 0 || i >= g->prompt.n || !cmd_auto_passes(c, L->seats[seat].user))
    return -1;
  return i;
}

/* ---- turn clocks ----------------------------------------------------------
 * A deadline is per turn, not per decision (README, "Deadlines"). Each
 * seat that must decide during a turn has one clock of deadline_hours for
 * that turn. It starts at the first prompt of the turn addressed to that
 * seat and runs only while the game waits for that seat: when a prompt
 * goes to another seat (an out-of-turn decision, or back to the turn's
 * player after one) it stops with what it has left, and goes on at the
 * seat's next prompt of the same turn, so one player's slowness never
 * spends another's time. When the turn counter (eng_prompt.turn) moves
 * on, every clock of the turn is dropped. A clock runs out once: the AI
 * then answers every prompt of that seat until the turn passes
 * (cmd_settle), and the seat has missed a turn.
 *
 * The clocks are timer rows, so a restart finds them as they were. The
 * "deadline" row of a seat is its clock for the row's turn: while the
 * seat decides, due is when the clock runs out and data what it had left
 * when it started counting (due - data: later than now while a vacation
 * lasts); while stopped, due is STO_TIMER_STOPPED and data the seconds
 * left, or -1 once it ran out. The "warn" row is the half-time warning
 * still to come, stopped and started with its clock. Rows armed before
 * turn clocks existed (turn -1) count for the turn in progress. */

static bool timer_get(cmd_ctx *c, const live *L, const char *kind, int seat,
                      sto_timer *t) {
  return sto_timer_get(c->cfg.db, L->row.id, kind, seat, t) == STO_OK;
}

static void clock_put(cmd_ctx *c, const live *L, const char *kind, int seat,
                      int turn, int64_t due, int64_t data) {
  sto_timer t = {
      .game = L->row.id, .seat = seat, .due = due, .data = data, .turn = turn};
  snprintf(t.kind, sizeof t.kind, "%s", kind);
  sto_timer_set(c->cfg.db, &t);
}

static int64_t later(int64_t a, int64_t b) { return a > b ? a : b; }

/* Seconds clock d has left at now (it has not started yet while a
 * vacation lasts). */
static int64_t clock_left(const sto_timer *d, int64_t now) {
  if (d->due == STO_TIMER_STOPPED)
    return d->data > 0 ? d->data : 0;
  int64_t left = d->due - now;
  if (left > d->data)
    left = d->data;
  return left > 0 ? left : 0;
}

/* Keeps seat s's clock for turn as the rule above says: started (new or
 * going on) while it is counting, stopped otherwise, dropped when it is of
 * another turn or there is no deadline. Writes only what changes. */
static void arm_clock(cmd_ctx *c, const live *L, int s, long hours,
                      bool counting, int turn) {
  sto_timer d, w;
  bool hd = timer_get(c, L, "deadline", s, &d);
  bool hw = timer_get(c, L, "warn", s, &w);
  bool keep = hours > 0 && !cmd_is_ai(L->seats[s].user);
  int64_t budget = (int64_t)hours * HOUR, half = budget / 2;
  if (hd && d.turn < 0) { /* armed per decision, before turn clocks */
    d.turn = turn;
    if (d.due != STO_TIMER_STOPPED) {
      d.data = later(0, d.due - c->now < budget ? d.due - c->now : budget);
      clock_put(c, L, "deadline", s, turn, d.due, d.data);
    }
  }
  if (hw && w.turn < 0) {
    w.turn = turn;
    clock_put(c, L, "warn", s, turn, w.due, w.data);
  }
  if (hd && (!keep || d.turn != turn)) {
    sto_timer_clear(c->cfg.db, L->row.id, "deadline", s);
    hd = false;
  }
  if (hw && (!hd || w.turn != turn)) {
    sto_timer_clear(c->cfg.db, L->row.id, "warn", s);
    hw = false;
  }
  int64_t start = later(c->now, cmd_vacation_until(c, L, s));
  if (!hd) {
    if (!counting || !keep)
      return;
    clock_put(c, L, "deadline", s, turn, start + budget, budget);
    if (half > 0)
      clock_put(c, L, "warn", s, turn, start + budget - half, 0);
    return;
  }
  if (d.due == STO_TIMER_STOPPED && d.data < 0) { /* ran out: cmd_settle */
    if (hw)
      sto_timer_clear(c->cfg.db, L->row.id, "warn", s);
    return;
  }
  int64_t left = clock_left(&d, c->now);
  if (!counting) {
    if (d.due != STO_TIMER_STOPPED)
      clock_put(c, L, "deadline", s, turn, STO_TIMER_STOPPED, left);
    if (hw && w.due != STO_TIMER_STOPPED)
      clock_put(c, L, "warn", s, turn, STO_TIMER_STOPPED, w.data);
    return;
  }
  int64_t due = start + left;
  if (due != d.due)
    clock_put(c, L, "deadline", s, turn, due, left);
  /* The warning comes when half the turn's time is gone, or at once when
   * it is already (a clock that stopped past it, a warning held by quiet
   * hours); a warning waiting for quiet hours to end keeps its time. */
  if (hw && (due != d.due || w.due == STO_TIMER_STOPPED))
    clock_put(c, L, "warn", s, turn, later(start, due - half), w.data);
}

void cmd_clock_run_out(cmd_ctx *c, const live *L, int seat) {
  clock_put(c, L, "deadline", seat, L->g->prompt.turn, STO_TIMER_STOPPED, -1);
  sto_timer_clear(c->cfg.db, L->row.id, "warn", seat);
}

bool cmd_clock_ran_out(cmd_ctx *c, const live *L, int seat) {
  sto_timer d;
  return L->g && timer_get(c, L, "deadline", seat, &d) &&
         (d.turn == L->g->prompt.turn || d.turn < 0) &&
         d.due == STO_TIMER_STOPPED && d.data < 0;
}

int64_t cmd_clock_due(cmd_ctx *c, const live *L, int seat) {
  sto_timer d;
  if (!L->g || !timer_get(c, L, "deadline", seat, &d) ||
      (d.turn != L->g->prompt.turn && d.turn >= 0) ||
      d.due == STO_TIMER_STOPPED)
    return 0;
  return d.due;
}

/* While an AI seat must answer, it does; so does the AI for a person
 * whose clock ran out this turn. Bounded: a game between AI seats alone
 * still ends long before the bound. */
void cmd_settle(cmd_ctx *c, const cmd_request *r, live *L) {
  if (c->settling || !L->g)
    return;
  c->settling = true;
  for (int guard = 0; guard < 20000; guard++) {
    int p = L->g->prompt.player;
    if (p < 0 || p >= L->n_seats || cmd_paused(c, L))
      break;
    int level = cmd_ai_level(L->seats[p].user);
    if (level < 0 && cmd_clock_ran_out(c, L, p))
      level = ENG_AI_HEURISTIC;
    int pass = level < 0 ? standing_pass(c, L, p) : -1;
    if (pass >= 0) {
      if (!answer_for(c, r, L, pass, CMD_AUTO_PASS,
                      N_(" (your standing choice: /prefs set conditions:ask "
                         "to be asked again)")))
        break;
      continue;
    }
    if (level < 0 || !cmd_ai_answer(c, r, L, level))
      break;
  }
  c->settling = false;
}

void cmd_settle_user(cmd_ctx *c, const cmd_request *r) {
  int64_t ids[64];
  int n = cmd_user_games(c, r->user, 1u << STO_RUNNING, ids, 64);
  for (int k = 0; k < n; k++) {
    char why[200];
    live *L = cmd_load(c, ids[k], why, sizeof why);
    if (!L || !L->g)
      continue;
    int p = L->g->prompt.player;
    if (p < 0 || p >= L->n_seats || strcmp(L->seats[p].user, r->user) != 0 ||
        standing_pass(c, L, p) < 0 || cmd_paused(c, L))
      continue;
    /* The pass is told in the game's own channel, as any move is. */
    cmd_request tr = cmd_timer_request(L, r->request_id);
    cmd_settle(c, &tr, L);
  }
}

/* ---- timers -------------------------------------------------------------- */

void cmd_set_timer(cmd_ctx *c, const live *L, const char *kind, int seat,
                   int64_t due, int64_t data) {
  sto_timer t = {
      .game = L->row.id, .seat = seat, .due = due, .data = data, .turn = -1};
  snprintf(t.kind, sizeof t.kind, "%s", kind);
  sto_timer_set(c->cfg.db, &t);
}

int64_t cmd_vacation_until(cmd_ctx *c, const live *L, int seat) {
  char key[32];
  snprintf(key, sizeof key, "vacation_until:%d", seat);
  return cmd_game_value(c, L, key, 0);
}

void cmd_arm_timers(cmd_ctx *c, live *L) {
  int64_t id = L->row.id;
  sto_timer_clear(c->cfg.db, id, "remind", -1);
  bool going = L->row.status == STO_RUNNING && L->g;
  bool paused = going && cmd_paused(c, L);
  long hours = going ? cmd_game_setting(c, L, "deadline_hours") : 0;
  int p = going ? L->g->prompt.player : -1;
  int turn = going ? L->g->prompt.turn : 0;
  for (int s = 0; s < L->n_seats; s++)
    arm_clock(c, L, s, hours, s == p && !paused, turn);
  if (!going || paused || p < 0 || p >= L->n_seats ||
      cmd_is_ai(L->seats[p].user))
    return;
  /* A player on vacation is reminded once it ends. */
  int64_t start = later(c->now, cmd_vacation_until(c, L, p));
  char key[32];
  snprintf(key, sizeof key, "mute:%d", p);
  if (cmd_game_value(c, L, key, -1) != L->g->prompt.turn)
    cmd_set_timer(c, L, "remind", p,
                  start + cmd_setting(c, L->row.guild, "reminder_hours") * HOUR,
                  0);
}

void cmd_arm_lobby(cmd_ctx *c, live *L) {
  cmd_set_timer(c, L, "lobby", -1,
                c->now + cmd_setting(c, L->row.guild, "lobby_hours") * HOUR, 0);
}

/* ---- seats changing hands ------------------------------------------------ */

static void seat_key(const char *what, int seat, char *buf, size_t cap) {
  snprintf(buf, cap, "%s:%d", what, seat);
}

bool cmd_give_seat(cmd_ctx *c, live *L, int seat, const sto_seat *to) {
  char scope[40], k_user[24], k_name[24], k_miss[24];
  cmd_game_scope(L, scope, sizeof scope);
  seat_key("human", seat, k_user, sizeof k_user);
  seat_key("human_name", seat, k_name, sizeof k_name);
  seat_key("misses", seat, k_miss, sizeof k_miss);
  const sto_seat *from = &L->seats[seat];
  sto_rc rc = STO_OK;
  /* The person the AI takes over from is remembered for a rematch; a
   * person who takes the seat makes the memory moot. */
  if (cmd_is_ai(to->user) && !cmd_is_ai(from->user))
    rc = sto_setting_set(c->cfg.db, scope, k_user, from->user);
  if (!rc && cmd_is_ai(to->user) && !cmd_is_ai(from->user))
    rc = sto_setting_set(c->cfg.db, scope, k_name, from->name);
  sto_seat was;
  if (!rc && !cmd_is_ai(to->user) && cmd_seat_human(c, L, seat, &was))
    rc = sto_setting_set(c->cfg.db, scope, k_user, "");
  /* Whoever sits down starts with a fresh clock and no missed turns. */
  if (!rc && cmd_game_value(c, L, k_miss, 0) != 0)
    rc = sto_setting_set(c->cfg.db, scope, k_miss, "0");
  if (!rc)
    rc = sto_timer_clear(c->cfg.db, L->row.id, "deadline", seat);
  if (!rc)
    rc = sto_timer_clear(c->cfg.db, L->row.id, "warn", seat);
  sto_seat s = *to;
  s.seat = seat;
  if (!rc)
    rc = sto_seat_set(c->cfg.db, L->row.id, &s);
  if (rc) {
    cmd_fail(c, "The seat could not be changed: %s", sto_strerror(rc));
    return false;
  }
  L->seats[seat] = s;
  return true;
}

bool cmd_seat_human(cmd_ctx *c, const live *L, int seat, sto_seat *out) {
  char scope[40], key[24];
  cmd_game_scope(L, scope, sizeof scope);
  memset(out, 0, sizeof *out);
  out->seat = seat;
  seat_key("human", seat, key, sizeof key);
  if (sto_setting_get(c->cfg.db, scope, key, out->user, sizeof out->user) ||
      !out->user[0] || cmd_is_ai(out->user))
    return false;
  seat_key("human_name", seat, key, sizeof key);
  if (sto_setting_get(c->cfg.db, scope, key, out->name, sizeof out->name) ||
      !out->name[0])
    snprintf(out->name, sizeof out->name, "%s", out->user);
  return true;
}

void cmd_played_self(cmd_ctx *c, const live *L, int seat) {
  char key[24];
  seat_key("misses", seat, key, sizeof key);
  if (cmd_game_value(c, L, key, 0) != 0)
    cmd_set_game_value(c, L, key, 0);
}

long cmd_add_miss(cmd_ctx *c, const live *L, int seat) {
  char key[24];
  seat_key("misses", seat, key, sizeof key);
  long n = cmd_game_value(c, L, key, 0) + 1;
  if (cmd_set_game_value(c, L, key, n)) {
    cmd_fail(c, "The missed turn could not be counted.");
    return -1;
  }
  return n;
}

long cmd_misses(cmd_ctx *c, const live *L, int seat) {
  char key[24];
  seat_key("misses", seat, key, sizeof key);
  return cmd_game_value(c, L, key, 0);
}

/* Hands seat to the AI as a forfeit (leaving, kicks, missed turns):
 * announced with why; the player can no longer win. */
static void forfeit(cmd_ctx *c, const cmd_request *r, live *L, int seat,
                    const char *why) {
  sto_seat ai;
  char old[64];
  snprintf(old, sizeof old, "%s", L->seats[seat].name);
  cmd_ai_seat(seat, ENG_AI_HEURISTIC, &ai);
  if (!cmd_give_seat(c, L, seat, &ai))
    return;
  /* why is English (marked N_ by the caller), said in the channel's
   * language; a why already in it is found in no catalogue and stays. */
  cmd_announce(c, r, L,
               "%s's seat in game #%" PRId64 " goes to %s (%s); %s can no "
               "longer win this game.",
               old, L->row.id, ai.name, cmd_tr(cmd_lang_game(c, L), why), old);
}

void cmd_forfeit_seat(cmd_ctx *c, const cmd_request *r, live *L, int seat,
                      const char *why) {
  forfeit(c, r, L, seat, why);
  cmd_settle(c, r, L);
  cmd_arm_timers(c, L);
}

bool cmd_learning(const live *L) {
  json_t *j = json_loads(L->row.config, 0, NULL);
  bool on = json_is_true(json_object_get(j, "learn"));
  json_decref(j);
  return on;
}

size_t cmd_hint(const live *L, cmd_lang lang, char *out, size_t cap) {
  if (cap == 0)
    return 0;
  out[0] = '\0';
  const eng_game *g = L->g;
  if (!g || g->prompt.player < 0 || !cmd_learning(L))
    return 0;
  eng_rng rng;
  ai_rng(L, &rng);
  char why[160], named[240];
  int i = eng_ai_hint(g->rs, g->state, &g->prompt, &rng, why, sizeof why);
  cmd_names(L, why, named, sizeof named); /* "Villain 2" -> their name */
  if (i < 0)
    return 0;
  cmd_choice opts[ENG_OPTIONS_MAX];
  int n = cmd_options(L, opts, ENG_OPTIONS_MAX);
  if (i >= n)
    return 0;
  int len =
      snprintf(out, cap, T(lang, "Hint: the AI would choose `%s` (%s): %s."),
               opts[i].id, opts[i].label, named);
  return len < 0 ? 0 : (size_t)len < cap ? (size_t)len : cap - 1;
}
