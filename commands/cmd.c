/*
 * cmd.c: the entry of the command layer, where a transport's request or
 * the clock comes in. Calls flow one way: this file validates a request
 * and runs its handler (cmd_table.c, cmd_async.c, cmd_history.c,
 * cmd_settings.c), which use the shared helpers (cmd_core.c, cmd_turn.c,
 * cmd_conf.c); helpers never call back into handlers or here.
 *
 * Every request, every timer that fires and the restart's catching up is
 * ONE storage transaction: its moves, the AI answers they cause, status,
 * seats, settings, timers, audit lines and its request id commit together
 * or not at all. Messages are held while it runs and delivered only once
 * it is durable; if anything fails, nothing is kept, the cached games are
 * dropped (they may hold the undone changes) and the requester is told
 * that nothing changed. A request that changed something is remembered
 * with its first answer, so a retry (a resent interaction, a console line
 * resent after a crash) gets that answer instead of being applied again.
 */
#include "cmd_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* How long a request id is remembered: far beyond any retry. */
#define REQUEST_KEEP_SECONDS (7 * 86400)

cmd_ctx *cmd_new(const cmd_config *cfg) {
  cmd_ctx *c = calloc(1, sizeof *c);
  if (!c)
    return NULL;
  c->cfg = *cfg;
  if (c->cfg.snapshot_every <= 0)
    c->cfg.snapshot_every = 32;
  return c;
}

void cmd_free(cmd_ctx *c) {
  if (!c)
    return;
  cmd_forget(c);
  cmd_hold_drop(c);
  free(c->held);
  cmd_pic_free(c);
  free(c);
}

void cmd_set_now(cmd_ctx *c, int64_t now) { c->now = now; }

/* Checks r against its table entry and gives fixed-value options their
 * listed spelling (r's values may point at the table afterwards); replies
 * and returns false if bad. */
static bool validate(cmd_ctx *c, cmd_request *r, const cmd_def **out) {
  const char *group = r->group ? r->group : "game";
  const cmd_def *d = cmd_find(group, r->command ? r->command : "");
  if (!d) {
    char list[400] = "";
    size_t len = 0;
    for (size_t i = 0; i < cmd_table_n && len < sizeof list; i++)
      if (strcmp(cmd_table[i].group, group) == 0)
        len += (size_t)snprintf(list + len, sizeof list - len, "%s%s",
                                len ? ", " : "", cmd_table[i].name);
    if (!cmd_find_group(group))
      cmd_reply(c, r, NULL,
                "Unknown command '/%.40s'. Lair's commands are /game (to "
                "play), /prefs (your settings) and /gamemod (moderators).",
                group);
    else
      cmd_reply(c, r, NULL,
                "Unknown command '/%s %.40s'. The /%s commands are: %s.", group,
                r->command ? r->command : "", group, list);
    return false;
  }
  for (int i = 0; i < r->n_args; i++) {
    const char *v = r->args[i].value;
    bool text_ok = cmd_utf8_valid(v, strlen(v));
    for (const char *q = v; text_ok && *q; q++)
      text_ok = (unsigned char)*q >= 0x20 && *q != 0x7F;
    if (!text_ok) {
      cmd_reply(c, r, NULL,
                "Option '%.40s' is not valid text: it must be UTF-8 "
                "without control characters. Nothing changed; type it "
                "again.",
                r->args[i].name);
      return false;
    }
  }
  for (int i = 0; i < r->n_args; i++) {
    const cmd_option_def *o = NULL;
    for (int k = 0; k < d->n_options; k++)
      if (strcmp(d->options[k].name, r->args[i].name) == 0)
        o = &d->options[k];
    if (!o) {
      cmd_reply(c, r, NULL, "/%s %s has no option '%.40s'.", d->group, d->name,
                r->args[i].name);
      return false;
    }
    for (int k = 0; k < i; k++)
      if (strcmp(r->args[k].name, r->args[i].name) == 0) {
        cmd_reply(c, r, NULL, "Option '%s' was given twice.", o->name);
        return false;
      }
    if (o->choices) {
      const char *const *k = o->choices;
      while (*k && strcasecmp(*k, r->args[i].value) != 0)
        k++;
      if (!*k) {
        char list[200] = "";
        size_t len = 0;
        for (k = o->choices; *k && len < sizeof list; k++)
          len +=
              (size_t)snprintf(list + len, sizeof list - len, "%s%s",
                               k == o->choices ? "" : T(c->lang, " or "), *k);
        cmd_reply(c, r, NULL,
                  "Option '%s' of /%s %s takes %s, not '%.40s'. Nothing "
                  "changed.",
                  o->name, d->group, d->name, list, r->args[i].value);
        return false;
      }
      r->args[i].value = *k;
    }
    long v;
    if (o->type == CMD_ARG_INTEGER &&
        !cmd_parse_int(r->args[i].value, o->min, o->max, &v)) {
      cmd_reply(c, r, NULL,
                "Option '%s' must be a whole number from %ld to %ld, not "
                "'%.40s'.",
                o->name, o->min, o->max, r->args[i].value);
      return false;
    }
    if (strlen(r->args[i].value) == 0 ||
        strlen(r->args[i].value) > CMD_VALUE_MAX) {
      cmd_reply(c, r, NULL, "Option '%s' needs a value of 1 to %d characters.",
                o->name, CMD_VALUE_MAX);
      return false;
    }
  }
  for (int k = 0; k < d->n_options; k++)
    if (d->options[k].required && !cmd_arg_get(r, d->options[k].name)) {
      cmd_reply(c, r, NULL, "/%s %s needs the option '%s' (%s).", d->group,
                d->name, d->options[k].name,
                cmd_tr(c->lang, d->options[k].description));
      return false;
    }
  if (d->mod_only && !r->is_mod) {
    cmd_reply(c, r, NULL,
              "Only moderators can use /%s %s (members with Manage Server, "
              "or the server's mod_role).",
              d->group, d->name);
    return false;
  }
  *out = d;
  return true;
}

/* Marks each game of the command whose next decision is an AI seat's,
 * so that a restart finds the games an interrupted process left waiting.
 * Only the games it held: another cached one may be behind what another
 * process did since. */
static void mark_ai_due(cmd_ctx *c) {
  for (live *L = c->games; L; L = L->next) {
    if (!L->held)
      continue;
    int p = L->g && L->row.status == STO_RUNNING ? L->g->prompt.player : -1;
    int due = p >= 0 && p < L->n_seats && cmd_is_ai(L->seats[p].user);
    if (due != L->row.ai_due &&
        sto_game_set_ai_due(c->cfg.db, L->row.id, due) == STO_OK)
      L->row.ai_due = due;
  }
}

typedef void (*tx_body)(cmd_ctx *c, const cmd_request *r, void *arg);

/* How often a command is run again when another process changed its
 * game first (cmd_ctx.retry): each run waits for that game's lock, so a
 * second run fails only if yet another process got in between. */
#define TX_RUNS 3

/* Runs body(c, r, arg) as one transaction with its messages held, then
 * delivers them once it committed; remember: store r's request id (when
 * something was written) with its first answer. A run that lost a race
 * with another process (a move number taken, a deadlock) is dropped and
 * run again on the fresh state. Returns whether it committed; if not,
 * the requester (if any) was told nothing changed. */
static bool in_tx(cmd_ctx *c, const cmd_request *r, tx_body body, void *arg,
                  bool remember) {
  sto *db = c->cfg.db;
  sto_rc rc = STO_OK;
  for (int run = 1; run <= TX_RUNS; run++) {
    rc = sto_tx_begin(db);
    if (rc) {
      cmd_reply(c, r, NULL,
                "Lair could not start saving (%s) Nothing changed; send the "
                "command again in a moment.",
                sto_strerror(rc));
      return false;
    }
    cmd_hold_begin(c, r);
    c->retry = false;
    int64_t before = sto_changes(db);
    body(c, r, arg);
    if (!c->failed)
      mark_ai_due(c);
    if (!c->failed && remember && r->request_id && r->request_id[0] &&
        sto_changes(db) != before)
      sto_request_put(db, r->request_id, r->user, c->now, c->answer);
    cmd_release(c, !c->failed);
    rc = sto_tx_end(db, !c->failed);
    if (!rc && !c->failed) {
      cmd_hold_flush(c);
      return true;
    }
    cmd_hold_drop(c);
    cmd_forget(c); /* cached games may hold what was just undone */
    bool raced = c->retry || rc == STO_CONFLICT || rc == STO_BUSY;
    if (!raced || run == TX_RUNS)
      break;
  }
  if (r->user && r->user[0]) {
    if (c->fail_text[0])
      cmd_reply(c, r, NULL, "%s", c->fail_text);
    else
      cmd_reply(c, r, NULL,
                "That could not be saved (%s) Nothing changed: every game is "
                "as it was before; send the command again.",
                sto_strerror(rc ? rc : STO_IO));
  }
  return false;
}

static void run_handler(cmd_ctx *c, const cmd_request *r, void *arg) {
  cmd_lang_note(c, r);
  if (!c->failed)
    ((const cmd_def *)arg)->handler(c, r);
}

/* Answers r if its request id was applied before; returns whether. */
static bool answered_before(cmd_ctx *c, const cmd_request *r) {
  if (!r->request_id || !r->request_id[0])
    return false;
  bool seen = false;
  char user[STO_ID_MAX + 1], answer[STO_ANSWER_MAX + 1];
  if (sto_request_answer(c->cfg.db, r->request_id, &seen, user, sizeof user,
                         answer, sizeof answer) != STO_OK ||
      !seen)
    return false;
  /* The first answer may hold what only its sender may read. It is told
   * in one message: cut at a line's end when it is longer. */
  const char *head =
      T(c->lang, "That request was already handled. Its answer was:\n");
  size_t room = CMD_TEXT_MAX - strlen(head) - 4;
  if (strlen(answer) > room) {
    answer[room] = '\0';
    char *nl = strrchr(answer, '\n');
    if (nl)
      *nl = '\0';
    cmd_utf8_repair(answer);
    size_t n = strlen(answer);
    snprintf(answer + n, sizeof answer - n, "\n...");
  }
  if (answer[0] && r->user && strcmp(user, r->user) == 0)
    cmd_reply(c, r, NULL, "%s%s", head, answer);
  else
    cmd_reply(c, r, NULL, "That request was already handled.");
  return true;
}

void cmd_handle(cmd_ctx *c, const cmd_request *req) {
  const cmd_def *d;
  cmd_request r = *req;
  cmd_trim_cache(c);
  c->lang = cmd_lang_request(c, &r);
  if (!validate(c, &r, &d) || answered_before(c, &r))
    return;
  in_tx(c, &r, run_handler, (void *)d, true);
}

/* ---- the clock ------------------------------------------------------------
 */

/* The request of what no user asked for (timers, a restart's catching up):
 * nobody to answer, no request id to remember. */
static cmd_request no_request(void) {
  cmd_request r = {.request_id = "",
                   .guild = "",
                   .channel = "",
                   .user = "",
                   .user_name = "Lair"};
  return r;
}

/* Takes the earliest due timer (*fired tells whether there was one) and
 * does what it is for, in one transaction: the timer's removal commits
 * with its effects, and another process skips the timer while this one
 * holds it (sto_timer_take), so each fires exactly once. */
static void fire_due(cmd_ctx *c, const cmd_request *r, void *arg) {
  (void)r;
  bool *fired = arg;
  sto_timer t;
  *fired = sto_timer_take(c->cfg.db, c->now, &t) == STO_OK;
  if (*fired)
    cmd_fire_timer(c, &t);
}

void cmd_tick(cmd_ctx *c) {
  sto_timer t;
  cmd_request none = no_request();
  c->lang = CMD_LANG_EN; /* nobody asked: nobody is answered */
  /* A read first: most ticks find nothing due and open no write
   * transaction. */
  for (int guard = 0; guard < 1000; guard++) {
    bool fired = false;
    if (sto_timer_next(c->cfg.db, c->now, &t) != STO_OK ||
        !in_tx(c, &none, fire_due, &fired, false) || !fired)
      break; /* nothing due, or tried again at the next tick */
  }
  if (c->now - c->pruned >= 3600) {
    c->pruned = c->now;
    sto_request_prune(c->cfg.db, c->now - REQUEST_KEEP_SECONDS);
  }
}

typedef struct id_vec {
  int64_t *id;
  size_t n, cap;
} id_vec;

static int collect_due(void *ctx, const sto_game *g) {
  id_vec *v = ctx;
  if (v->n == v->cap) {
    size_t cap = v->cap ? v->cap * 2 : 16;
    int64_t *p = realloc(v->id, cap * sizeof *p);
    if (!p)
      return 1;
    v->id = p;
    v->cap = cap;
  }
  v->id[v->n++] = g->id;
  return 0;
}

static void settle_one(cmd_ctx *c, const cmd_request *r, void *arg) {
  (void)r;
  char why[200];
  live *L = cmd_load(c, *(const int64_t *)arg, why, sizeof why);
  if (!L || !L->g)
    return;
  char req[64];
  snprintf(req, sizeof req, "restart:%" PRId64, L->row.id);
  cmd_request tr = cmd_timer_request(L, req);
  cmd_settle(c, &tr, L);
  cmd_arm_timers(c, L);
}

int cmd_recover(cmd_ctx *c) {
  id_vec v = {0};
  cmd_request none = no_request();
  c->lang = CMD_LANG_EN;
  sto_rc rc = sto_game_list_ai_due(c->cfg.db, collect_due, &v);
  int done = 0;
  for (size_t i = 0; !rc && i < v.n; i++)
    done += in_tx(c, &none, settle_one, &v.id[i], false);
  free(v.id);
  cmd_tick(c);
  return rc ? -1 : done;
}

/* ---- read-only questions from transports -------------------------------- */

char *cmd_state_text(cmd_ctx *c, int64_t id) {
  char why[200];
  live *L = cmd_load(c, id, why, sizeof why);
  return L && L->g ? eng_game_state_text(L->g) : NULL;
}

int64_t cmd_game_version(cmd_ctx *c, int64_t id) {
  char why[200];
  live *L = cmd_load(c, id, why, sizeof why);
  return L ? L->row.moves : -1;
}

int cmd_user_prompt(cmd_ctx *c, int64_t id, const char *user, cmd_choice *out,
                    int max, char *question, size_t qcap) {
  char why[200];
  live *L = cmd_load(c, id, why, sizeof why);
  if (!L || !L->g || L->row.status != STO_RUNNING)
    return -1;
  int seat = cmd_seat_of(L, user);
  if (seat < 0 || L->g->prompt.player != seat)
    return -1;
  char q[ENG_QUESTION_MAX];
  L->g->rs->question(L->g->state, &L->g->prompt, q, sizeof q);
  cmd_names(L, q, question, qcap);
  return cmd_options(L, out, max);
}
