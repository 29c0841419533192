/*
 * cmd_conf.c: a server's settings, declared once as data, how a value is
 * read (a game's own, else its server's, else the default), and the
 * moderators' audit log.
 *
 * Settings live in storage under the scope "guild:<id>" ("guild:local"
 * at the console table); a game may override some under "game:<id>"
 * (its deadline). Every change is written to the audit log. A setting
 * that is replaced is kept in `retired` with what replaced it, and a
 * storage migration carries the stored values over.
 */
#include "cmd_int.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

static const char *const actions[] = {"ai", "forfeit", NULL};
static const char *const undo_modes[] = {"turn", "off", NULL};
static const char *const thread_words[] = {"off", "on", "auto", NULL};
static const char *const lang_words[] = {"auto", "en", "de", NULL};

/* name, meaning (in English: cmd_tr where it is shown), min, max, default,
 * words (NULL: a number) */
static const cmd_setting_def defs[] = {
    {"games_per_channel", N_("open games one channel may hold"), 1, 20, 1,
     NULL},
    {"games_per_member", N_("open games one member may sit in"), 1, 50, 10,
     NULL},
    {"reminder_hours", N_("hours before the first turn reminder"), 1, 168, 4,
     NULL},
    {"reminder_cap_hours", N_("the longest gap between reminders, in hours"), 1,
     336, 24, NULL},
    {"deadline_hours",
     N_("hours each player has per turn (0: no deadline); then the AI plays "
        "the rest of their turn. The warning at half time waits out their "
        "quiet hours, and is not sent when the deadline comes first"),
     0, 720, 0, NULL},
    {"miss_limit",
     N_("missed turns in a row (deadlines passed without an own answer between "
        "them) before miss_action (0: never)"),
     0, 20, 0, NULL},
    {"miss_action",
     N_("at miss_limit: ai plays the seat to the end under the player's name, "
        "or forfeit: the seat goes to the AI and the player can no longer win"),
     0, 1, 0, actions},
    {"vacation_days", N_("days of vacation a player may take per game"), 0, 60,
     7, NULL},
    {"lobby_hours", N_("hours an unstarted lobby stays open"), 1, 720, 72,
     NULL},
    {"undo", N_("takeback: own answers of the current turn, or off"), 0, 1, 0,
     undo_modes},
    {"threads",
     N_("a thread for each new game (Discord): auto where Lair may open one, "
        "on always, off never"),
     0, 2, 2, thread_words},
    {"mod_role", N_("a role id whose members are moderators (0: none)"), 0,
     LONG_MAX, 0, NULL},
    {"language",
     N_("the language of Lair's messages in this server's channels: auto (the "
        "server's own Discord language), en or de; DMs and replies follow each "
        "member's"),
     0, 2, 0, lang_words},
    {"leaderboard_rd",
     N_("/game leaderboard ranks a rating only when its deviation (the ± part) "
        "is below this"),
     30, 350, 110, NULL},
};
#define N_DEFS (sizeof defs / sizeof defs[0])

/* Settings that are no more, and what took their place (a moderator may
 * still type them; in English, cmd_tr where it is shown). */
static const struct {
  const char *key, *note;
} retired[] = {
    {"deadline_policy",
     N_("deadline_policy is no more: when a player's time for a turn runs out "
        "the AI plays the rest of that turn, and miss_limit missed turns in a "
        "row lead to miss_action (ai or forfeit).")},
};

const char *cmd_setting_retired(const char *key) {
  for (size_t i = 0; i < sizeof retired / sizeof retired[0]; i++)
    if (strcmp(retired[i].key, key) == 0)
      return retired[i].note;
  return NULL;
}

const cmd_setting_def *cmd_setting_at(size_t i) {
  return i < N_DEFS ? &defs[i] : NULL;
}

const cmd_setting_def *cmd_setting_find(const char *key) {
  for (size_t i = 0; i < N_DEFS; i++)
    if (strcmp(defs[i].key, key) == 0)
      return &defs[i];
  return NULL;
}

void cmd_guild_scope(const char *guild, char *buf, size_t cap) {
  snprintf(buf, cap, "guild:%s", guild && *guild ? guild : "local");
}

void cmd_user_scope(const char *user, char *buf, size_t cap) {
  snprintf(buf, cap, "user:%s", user);
}

bool cmd_auto_passes(cmd_ctx *c, const char *user) {
  char scope[64], v[16];
  cmd_user_scope(user, scope, sizeof scope);
  return sto_setting_get(c->cfg.db, scope, "conditions", v, sizeof v) ==
             STO_OK &&
         strcmp(v, "auto-pass") == 0;
}

/* Parses text for d: a number in range, or one of its words. */
bool cmd_setting_parse(const cmd_setting_def *d, const char *text, long *out) {
  if (d->words) {
    for (long i = 0; d->words[i]; i++)
      if (strcmp(d->words[i], text) == 0) {
        *out = i;
        return true;
      }
    return false;
  }
  return cmd_parse_int(text, d->min, d->max, out);
}

long cmd_setting_scoped(cmd_ctx *c, const char *scope, const cmd_setting_def *d,
                        bool *found) {
  char v[64];
  long x;
  *found = false;
  if (sto_setting_get(c->cfg.db, scope, d->key, v, sizeof v) == STO_OK &&
      cmd_setting_parse(d, v, &x)) {
    *found = true;
    return x;
  }
  return d->dflt;
}

long cmd_setting(cmd_ctx *c, const char *guild, const char *key) {
  const cmd_setting_def *d = cmd_setting_find(key);
  if (!d)
    return 0;
  char scope[64];
  bool found;
  cmd_guild_scope(guild, scope, sizeof scope);
  return cmd_setting_scoped(c, scope, d, &found);
}

long cmd_game_setting(cmd_ctx *c, const live *L, const char *key) {
  const cmd_setting_def *d = cmd_setting_find(key);
  if (!d)
    return 0;
  char scope[40];
  bool found;
  snprintf(scope, sizeof scope, "game:%" PRId64, L->row.id);
  long v = cmd_setting_scoped(c, scope, d, &found);
  return found ? v : cmd_setting(c, L->row.guild, key);
}

void cmd_audit(cmd_ctx *c, const cmd_request *r, const char *action,
               int64_t game, const char *fmt, ...) {
  sto_audit a = {.time = c->now, .game = game};
  cmd_guild_scope(r->guild, a.scope, sizeof a.scope);
  snprintf(a.actor, sizeof a.actor, "%.60s (%.30s)", r->user_name, r->user);
  snprintf(a.action, sizeof a.action, "%s", action);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(a.detail, sizeof a.detail, fmt, ap);
  va_end(ap);
  sto_audit_add(c->cfg.db, &a);
}

long cmd_mod_role(cmd_ctx *c, const char *guild) {
  return cmd_setting(c, guild, "mod_role");
}
