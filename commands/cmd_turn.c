/*
 * cmd_turn.c: the helpers that keep a game moving after a change: AI
 * seats answering while it is their decision, the reminders and deadlines
 * armed for whoever must answer next, a game's own values (paused,
 * vacations, mutes) and handing a seat to the AI.
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

/* Plays one answer for the seat whose decision it is, with the AI; used
 * for AI seats and for a human's deadline under the "ai" policy. */
bool cmd_ai_answer(cmd_ctx *c, const cmd_request *r, live *L, int level) {
  eng_game *g = L->g;
  int seat = g->prompt.player;
  eng_rng rng;
  eng_rng_seed(&rng, L->row.seed ^ (uint64_t)L->row.moves, 7);
  int i = eng_ai_choose(g->rs, g->state, &g->prompt, level, &rng);
  if (i < 0)
    return false;
  char before[ENG_MAX_SEATS][CMD_TEXT_MAX + 1];
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
    if (!cmd_ai_answer(c, r, L, cmd_ai_level(L->seats[p].user)))
      break;
  }
  c->settling = false;
}

/* ---- timers -------------------------------------------------------------- */

void cmd_set_timer(cmd_ctx *c, const live *L, const char *kind, int seat,
                   int64_t due, int64_t data) {
  sto_timer t = {.game = L->row.id, .seat = seat, .due = due, .data = data};
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
  sto_timer_clear(c->cfg.db, id, "warn", -1);
  sto_timer_clear(c->cfg.db, id, "deadline", -1);
  if (L->row.status != STO_RUNNING || !L->g || cmd_paused(c, L))
    return;
  int p = L->g->prompt.player;
  if (p < 0 || p >= L->n_seats || cmd_is_ai(L->seats[p].user))
    return;
  /* A player on vacation starts counting when it ends. */
  int64_t start = c->now;
  int64_t back = cmd_vacation_until(c, L, p);
  if (back > start)
    start = back;
  char key[32];
  snprintf(key, sizeof key, "mute:%d", p);
  if (cmd_game_value(c, L, key, -1) != L->g->prompt.turn)
    cmd_set_timer(c, L, "remind", p,
                  start + cmd_setting(c, L->row.guild, "reminder_hours") * HOUR,
                  0);
  long hours = cmd_game_setting(c, L, "deadline_hours");
  if (hours > 0) {
    cmd_set_timer(c, L, "warn", p, start + hours * HOUR / 2, 0);
    cmd_set_timer(c, L, "deadline", p, start + hours * HOUR, 0);
  }
}

void cmd_arm_lobby(cmd_ctx *c, live *L) {
  cmd_set_timer(c, L, "lobby", -1,
                c->now + cmd_setting(c, L->row.guild, "lobby_hours") * HOUR, 0);
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

void cmd_forfeit_seat(cmd_ctx *c, const cmd_request *r, live *L, int seat,
                      const char *why) {
  forfeit(c, r, L, seat, why);
  cmd_settle(c, r, L);
  cmd_arm_timers(c, L);
}
