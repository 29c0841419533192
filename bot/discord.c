/*
 * discord.c: the Discord transport: configuration, start-up, and the
 * translation between interactions and Lair's commands.
 *
 * Three threads, so that nothing waits behind anything else: the gateway
 * thread (gateway.c: heartbeats on lws timers) only queues events; one
 * worker thread owns the database and the command context and handles
 * interactions in order; the REST thread (rest.c) sends, with interaction
 * callbacks in a lane of their own. An interaction is answered from what
 * its command produced: the first channel message or the ephemeral reply
 * becomes the callback, the rest are follow-ups, channel posts and DMs.
 * Buttons and select menus carry the game id and state version in their
 * custom_id, so a stale or foreign click gets a clear ephemeral error.
 */
#include "discord.h"
#include "cli.h"
#include "cmd.h"
#include "gateway.h"
#include "rest.h"
#include "sto.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <malloc.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifndef LAIR_VERSION
#define LAIR_VERSION "0.0.0"
#endif

#define MANAGE_GUILD (1ull << 5)
#define SEEN_MAX 4096
#define DM_CACHE 512
#define PER_PAGE 25
#define MAX_MSGS 32

enum { LOG_ERROR, LOG_WARN, LOG_INFO, LOG_DEBUG };

typedef struct event {
  json_t *d;
  double received;
  struct event *next;
} event;

/* A user's DM channel ("" once Discord said it is gone). Kept in the
 * database too (setting "dm_channel" of scope "user:<id>"), so a restart
 * does not open every player's channel again; saved is false until the
 * worker has written it there. */
typedef struct dm_entry {
  char user[32];
  char channel[32];
  bool saved;
} dm_entry;

/* A message produced by the command being handled, kept until the
 * interaction's answer is decided. */
typedef struct out_msg {
  cmd_to to;
  char user[32];
  char channel[32];
  char *text;
  int64_t game;
  int64_t version;
  cmd_choice *options;
  int n_options;
  char mention[32]; /* a user the message may ping ("" none) */
  char *file_name;  /* an attachment (an exported record), or NULL */
  char *file_data;
  size_t file_len;
  char latest[48]; /* "slot:game" when a later message replaces it, or "" */
  uint64_t gen;    /* counts messages (a text's pieces share it) */
} out_msg;

struct bot_discord {
  bot_discord_config cfg;
  char app_id[32];
  bot_rest *rest;
  bot_gw *gw;
  sto *db;
  cmd_ctx *cmd;
  pthread_t worker;
  bool worker_started;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  event *head, *tail;
  int queued;
  bool stopping;
  char seen[SEEN_MAX][24]; /* recent interaction ids (worker only) */
  int seen_pos;
  pthread_mutex_t dm_mu;
  dm_entry dm[DM_CACHE];
  int dm_pos;
  struct dm_job *opening;  /* DMs whose channel is being opened (dm_mu) */
  pthread_mutex_t gate_mu; /* every ack_gate's state, refs and list */
  out_msg msgs[MAX_MSGS];  /* worker only */
  int n_msgs;
  uint64_t gen;      /* the last out_msg.gen (worker only) */
  char health[1100]; /* DB-alive, touched while Discord is heard from */
  uint64_t heard;    /* the gateway's acks + dispatches at the last tick */
  bool health_warned;
  bot_discord_stats stats;
};

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void logf_(const bot_discord *b, int level, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void logf_(const bot_discord *b, int level, const char *fmt, ...) {
  if (level > b->cfg.log_level)
    return;
  va_list ap;
  va_start(ap, fmt);
  fputs("lair discord: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

/* ---- configuration ----------------------------------------------------- */

static bool snowflake_ok(const char *s) {
  size_t n = strlen(s);
  if (n == 0 || n > 20)
    return false;
  for (size_t i = 0; i < n; i++)
    if (s[i] < '0' || s[i] > '9')
      return false;
  return true;
}

bool bot_discord_config_from_env(bot_discord_config *c, char *err, size_t cap) {
  memset(c, 0, sizeof *c);
  const char *token = getenv("DISCORD_TOKEN");
  const char *api = getenv("LAIR_DISCORD_API_URL");
  const char *guild = getenv("LAIR_GUILD_ID");
  const char *role = getenv("LAIR_MOD_ROLE");
  const char *level = getenv("LAIR_LOG_LEVEL");
  if (!token || !*token || strlen(token) >= sizeof c->token) {
    snprintf(err, cap, "DISCORD_TOKEN is not set or too long");
    return false;
  }
  for (const char *p = token; *p; p++)
    if (*p <= ' ' || *p > '~') {
      snprintf(err, cap,
               "DISCORD_TOKEN contains spaces or control "
               "characters (check the env file)");
      return false;
    }
  memcpy(c->token, token, strlen(token) + 1);
  snprintf(c->api, sizeof c->api, "%s",
           api && *api ? api : "https://discord.com/api/v10");
  size_t n = strlen(c->api);
  while (n > 0 && c->api[n - 1] == '/')
    c->api[--n] = '\0';
  if (strncmp(c->api, "http://", 7) != 0 &&
      strncmp(c->api, "https://", 8) != 0) {
    snprintf(err, cap,
             "LAIR_DISCORD_API_URL must start with http:// or "
             "https://");
    return false;
  }
  if (guild && *guild) {
    if (!snowflake_ok(guild)) {
      snprintf(err, cap, "LAIR_GUILD_ID must be a server id (digits)");
      return false;
    }
    snprintf(c->guild, sizeof c->guild, "%s", guild);
  }
  if (role && *role) {
    if (!snowflake_ok(role)) {
      snprintf(err, cap, "LAIR_MOD_ROLE must be a role id (digits)");
      return false;
    }
    snprintf(c->mod_role, sizeof c->mod_role, "%s", role);
  }
  c->log_level = LOG_INFO;
  if (level && *level) {
    static const char *const names[] = {"error", "warn", "info", "debug"};
    int found = -1;
    for (int i = 0; i < 4; i++)
      if (strcmp(level, names[i]) == 0)
        found = i;
    if (found < 0) {
      snprintf(err, cap, "LAIR_LOG_LEVEL must be error, warn, info or debug");
      return false;
    }
    c->log_level = found;
  }
  return true;
}

/* ---- sending --------------------------------------------------------- */

static void note_result(void *ctx, const bot_rest_result *r) {
  bot_discord *b = ctx;
  if (!r->superseded && (r->status >= 400 || r->status == 0))
    logf_(b, LOG_WARN, "a request failed: %d %s", r->status,
          r->error ? r->error : "");
}

/* Queues a request; returns false (done not called) when it could not. */
static bool send_json(bot_discord *b, const char *method, const char *path,
                      json_t *body, unsigned flags, bot_rest_done done,
                      void *ctx) {
  char *text = body ? json_dumps(body, JSON_COMPACT) : NULL;
  int rc = bot_rest_send(b->rest, method, path, text, flags,
                         done ? done : note_result, done ? ctx : b);
  if (rc)
    logf_(b, LOG_WARN, "could not queue %s %s", method, path);
  free(text);
  return rc == 0;
}

/* Builds the components of a prompt: buttons when few, else a select
 * menu of PER_PAGE options with page buttons. */
static json_t *components(const out_msg *m, int page) {
  json_t *rows = json_array();
  char id[101];
  if (m->n_options <= 20) {
    json_t *row = NULL;
    for (int i = 0; i < m->n_options; i++) {
      if (i % 5 == 0) {
        row = json_pack("{sis[]}", "type", 1, "components");
        json_array_append_new(rows, row);
      }
      snprintf(id, sizeof id, "m:%" PRId64 ":%" PRId64 ":%s", m->game,
               m->version, m->options[i].id);
      json_array_append_new(
          json_object_get(row, "components"),
          json_pack("{sisissss}", "type", 2, "style",
                    strcmp(m->options[i].id, "end") == 0 ? 2 : 1, "label",
                    m->options[i].label, "custom_id", id));
    }
    return rows;
  }
  int pages = (m->n_options + PER_PAGE - 1) / PER_PAGE;
  if (page < 0 || page >= pages)
    page = 0;
  json_t *opts = json_array();
  for (int i = page * PER_PAGE; i < m->n_options && i < (page + 1) * PER_PAGE;
       i++)
    json_array_append_new(opts,
                          json_pack("{ssss}", "label", m->options[i].label,
                                    "value", m->options[i].id));
  snprintf(id, sizeof id, "s:%" PRId64 ":%" PRId64 ":%d", m->game, m->version,
           page);
  json_array_append_new(
      rows, json_pack("{sis[{sisssssisiso}]}", "type", 1, "components", "type",
                      3, "custom_id", id, "placeholder", "Choose...",
                      "min_values", 1, "max_values", 1, "options", opts));
  json_t *nav = json_pack("{sis[]}", "type", 1, "components");
  for (int d = -1; d <= 1; d += 2) {
    int to = page + d;
    snprintf(id, sizeof id, "p:%" PRId64 ":%" PRId64 ":%d", m->game, m->version,
             to);
    json_array_append_new(
        json_object_get(nav, "components"),
        json_pack("{sisisssssb}", "type", 2, "style", 2, "label",
                  d < 0 ? "Previous page" : "Next page", "custom_id", id,
                  "disabled", to < 0 || to >= pages));
  }
  json_array_append_new(rows, nav);
  return rows;
}

/* A message body: tables (several lines) as an embed, the rest as
 * content; prompts carry their components; nobody is pinged. */
static json_t *message_body(const out_msg *m, bool ephemeral) {
  int lines = 0;
  for (const char *p = m->text; *p; p++)
    lines += *p == '\n';
  /* Nobody is pinged, except the player a reminder is for. */
  json_t *o = m->mention[0]
                  ? json_pack("{s{s[]s[s]}}", "allowed_mentions", "parse",
                              "users", m->mention)
                  : json_pack("{s{s[]}}", "allowed_mentions", "parse");
  if (m->file_name)
    json_object_set_new(
        o, "attachments",
        json_pack("[{ssss}]", "id", "0", "filename", m->file_name));
  if (lines >= 4 && m->to == CMD_TO_CHANNEL && strlen(m->text) <= 4096)
    json_object_set_new(
        o, "embeds",
        json_pack("[{sssi}]", "description", m->text, "color", 0x6a0dad));
  else
    json_object_set_new(o, "content", json_string(m->text));
  if (m->n_options > 0)
    json_object_set_new(o, "components", components(m, 0));
  if (ephemeral)
    json_object_set_new(o, "flags", json_integer(64));
  return o;
}

/* DMs: the channel is created once per user, then cached. While it is
 * being opened, later DMs to that user wait behind the first (in order,
 * without opening it again). */
typedef struct dm_job {
  bot_discord *b;
  char user[32];
  char game_channel[32];
  int64_t game;
  char latest[48]; /* out_msg.latest */
  uint64_t gen;
  char *body; /* JSON text: a DM may wait a while, text is compact; NULL
                 once a later DM replaced it */
  struct dm_job *next_open; /* b->opening */
  struct dm_job *waiters;   /* the same user's later DMs, in order */
  struct dm_job *next;      /* among those */
} dm_job;

static void dm_free(dm_job *j) {
  free(j->body);
  free(j);
}

static void dm_sent(void *ctx, const bot_rest_result *r) {
  dm_job *j = ctx;
  bot_discord *b = j->b;
  if (r->superseded) {
    __atomic_add_fetch(&b->stats.dm_superseded, 1, __ATOMIC_RELAXED);
  } else if (r->discord_code == 50007 && j->game_channel[0]) {
    /* DMs closed: a channel notice that reveals nothing, and a button
     * that shows the hand to that player alone. */
    __atomic_add_fetch(&b->stats.dm_refused, 1, __ATOMIC_RELAXED);
    char text[300], id[64], path[80];
    snprintf(text, sizeof text,
             "<@%s>, I cannot send you direct messages, so your hand and "
             "turns wait behind the button below (only you will see them). "
             "To get them by DM, allow direct messages from server members "
             "in this server's privacy settings.",
             j->user);
    snprintf(id, sizeof id, "h:%" PRId64, j->game);
    json_t *o = json_pack("{sss{s[s]}s[{sis[{sisissss}]}]}", "content", text,
                          "allowed_mentions", "users", j->user, "components",
                          "type", 1, "components", "type", 2, "style", 1,
                          "label", "Show my hand", "custom_id", id);
    snprintf(path, sizeof path, "/channels/%s/messages", j->game_channel);
    send_json(b, "POST", path, o, 0, NULL, NULL);
    json_decref(o);
  } else if (r->discord_code == 10003) { /* Unknown Channel */
    logf_(b, LOG_WARN, "a DM channel is gone; the next DM opens a new one");
    pthread_mutex_lock(&b->dm_mu);
    for (int i = 0; i < DM_CACHE; i++)
      if (strcmp(b->dm[i].user, j->user) == 0) {
        b->dm[i].channel[0] = '\0';
        b->dm[i].saved = false;
      }
    pthread_mutex_unlock(&b->dm_mu);
  } else if (r->status >= 300 || r->status == 0) {
    logf_(b, LOG_WARN, "a direct message failed: %d", r->status);
  }
  dm_free(j);
}

/* Whether user's DM channel is in the cache; copies it to ch ("" when it
 * is gone). Under dm_mu. */
static bool dm_cached(bot_discord *b, const char *user, char ch[32]) {
  for (int i = 0; i < DM_CACHE; i++)
    if (strcmp(b->dm[i].user, user) == 0) {
      memcpy(ch, b->dm[i].channel, 32);
      return true;
    }
  return false;
}

/* Remembers user's DM channel (under dm_mu). */
static void dm_remember(bot_discord *b, const char *user, const char *channel,
                        bool saved) {
  dm_entry *e = NULL;
  for (int i = 0; i < DM_CACHE && !e; i++)
    if (strcmp(b->dm[i].user, user) == 0)
      e = &b->dm[i];
  if (!e)
    e = &b->dm[b->dm_pos++ % DM_CACHE];
  snprintf(e->user, sizeof e->user, "%s", user);
  snprintf(e->channel, sizeof e->channel, "%s", channel);
  e->saved = saved;
}

/* Writes the DM channels learnt since the last call to the database, in
 * one transaction (worker only: the database is the worker's). An entry
 * that could not be written stays unsaved for the next tick. */
static void dm_save(bot_discord *b) {
  bool begun = false, ok = true;
  bool written[DM_CACHE] = {false};
  char wrote[DM_CACHE][32]; /* what was written, valid where written[] */
  for (int i = 0; i < DM_CACHE && ok; i++) {
    char user[32], channel[32], scope[48];
    pthread_mutex_lock(&b->dm_mu);
    bool todo = b->dm[i].user[0] && !b->dm[i].saved;
    memcpy(user, b->dm[i].user, sizeof user);
    memcpy(channel, b->dm[i].channel, sizeof channel);
    pthread_mutex_unlock(&b->dm_mu);
    if (!todo)
      continue;
    if (!begun && sto_tx_begin(b->db) != STO_OK)
      break;
    begun = true;
    snprintf(scope, sizeof scope, "user:%s", user);
    ok = sto_setting_set(b->db, scope, "dm_channel", channel) == STO_OK;
    written[i] = ok;
    memcpy(wrote[i], channel, sizeof channel);
  }
  if (begun && sto_tx_end(b->db, ok) == STO_OK && ok) {
    pthread_mutex_lock(&b->dm_mu);
    for (int i = 0; i < DM_CACHE; i++) /* unless it changed meanwhile */
      if (written[i] && strcmp(b->dm[i].channel, wrote[i]) == 0)
        b->dm[i].saved = true;
    pthread_mutex_unlock(&b->dm_mu);
  } else if (begun) {
    logf_(b, LOG_WARN,
          "could not save the DM channels; the next tick tries "
          "again");
  }
}

static void dm_post(dm_job *j, const char *channel) {
  if (!j->body) { /* a later DM waiting behind the same opening replaced it */
    dm_free(j);
    return;
  }
  char path[80];
  snprintf(path, sizeof path, "/channels/%s/messages", channel);
  if (j->latest[0]
          ? bot_rest_send_latest(j->b->rest, "POST", path, j->body, j->latest,
                                 j->gen, dm_sent, j)
          : bot_rest_send(j->b->rest, "POST", path, j->body, 0, dm_sent, j)) {
    logf_(j->b, LOG_WARN, "could not queue a direct message");
    dm_free(j);
  }
}

/* The DM channel of j's user opened (or not): j and the DMs waiting
 * behind it go, in order, before any later DM can use the cache. */
static void dm_opened(void *ctx, const bot_rest_result *r) {
  dm_job *j = ctx;
  bot_discord *b = j->b;
  json_t *ch = r->status == 200 ? json_loads(r->body, 0, NULL) : NULL;
  const char *id = json_string_value(json_object_get(ch, "id"));
  bool ok = id && snowflake_ok(id);
  if (!ok)
    logf_(b, LOG_WARN, "could not open a DM channel: %d", r->status);
  pthread_mutex_lock(&b->dm_mu);
  for (dm_job **p = &b->opening; *p; p = &(*p)->next_open)
    if (*p == j) {
      *p = j->next_open;
      break;
    }
  if (ok)
    dm_remember(b, j->user, id, false);
  dm_job *w = j->waiters;
  if (ok && j->body)
    dm_post(j, id);
  else
    dm_free(j);
  while (w) {
    dm_job *next = w->next;
    if (ok)
      dm_post(w, id);
    else
      dm_free(w);
    w = next;
  }
  pthread_mutex_unlock(&b->dm_mu);
  json_decref(ch);
}

static bool dm_replaces(const dm_job *later, const dm_job *j) {
  return j->body && j->gen < later->gen &&
         strcmp(j->latest, later->latest) == 0;
}

/* Drops the DMs waiting behind first (and first's own text: first itself
 * stays, its channel is being opened) that later makes pointless. */
static void dm_drop_superseded(bot_discord *b, dm_job *first,
                               const dm_job *later) {
  if (dm_replaces(later, first)) {
    free(first->body);
    first->body = NULL;
    __atomic_add_fetch(&b->stats.dm_superseded, 1, __ATOMIC_RELAXED);
  }
  for (dm_job **p = &first->waiters; *p;) {
    dm_job *w = *p;
    if (dm_replaces(later, w)) {
      *p = w->next;
      dm_free(w);
      __atomic_add_fetch(&b->stats.dm_superseded, 1, __ATOMIC_RELAXED);
    } else {
      p = &w->next;
    }
  }
}

static void send_dm(bot_discord *b, const out_msg *m) {
  dm_job *j = calloc(1, sizeof *j);
  if (!j)
    return;
  j->b = b;
  snprintf(j->user, sizeof j->user, "%s", m->user);
  snprintf(j->game_channel, sizeof j->game_channel, "%s", m->channel);
  j->game = m->game;
  memcpy(j->latest, m->latest, sizeof j->latest);
  j->gen = m->gen;
  json_t *body = message_body(m, false);
  j->body = json_dumps(body, JSON_COMPACT);
  json_decref(body);
  if (!j->body) {
    free(j);
    return;
  }
  char ch[32] = "", scope[48], stored[32] = "";
  pthread_mutex_lock(&b->dm_mu);
  bool known = dm_cached(b, j->user, ch);
  pthread_mutex_unlock(&b->dm_mu);
  if (!known) { /* opened before a restart, or beyond the cache */
    snprintf(scope, sizeof scope, "user:%s", j->user);
    if (sto_setting_get(b->db, scope, "dm_channel", stored, sizeof stored) ==
            STO_OK &&
        snowflake_ok(stored))
      memcpy(ch, stored, sizeof ch);
  }
  dm_job *first = NULL;
  pthread_mutex_lock(&b->dm_mu);
  if (!known && ch[0])
    dm_remember(b, j->user, ch, true);
  else if (!known) /* it may have opened meanwhile */
    dm_cached(b, j->user, ch);
  for (dm_job *o = b->opening; o && !ch[0] && !first; o = o->next_open)
    if (strcmp(o->user, j->user) == 0)
      first = o;
  if (first) {        /* its channel is being opened: wait behind it */
    if (j->latest[0]) /* what j makes pointless need not wait */
      dm_drop_superseded(b, first, j);
    dm_job **p = &first->waiters;
    while (*p)
      p = &(*p)->next;
    *p = j;
  } else if (ch[0]) {
    dm_post(j, ch); /* under dm_mu: after any DM that waited */
  } else {
    j->next_open = b->opening;
    b->opening = j;
  }
  pthread_mutex_unlock(&b->dm_mu);
  if (first || ch[0])
    return;
  json_t *o = json_pack("{ss}", "recipient_id", m->user);
  if (!send_json(b, "POST", "/users/@me/channels", o, 0, dm_opened, j)) {
    bot_rest_result failed = {.status = 0, .error = "not queued"};
    dm_opened(j, &failed);
  }
  json_decref(o);
}

/* ---- collecting a command's messages ----------------------------------- */

static void collect(void *ctx, const cmd_msg *m) {
  bot_discord *b = ctx;
  if (b->n_msgs == MAX_MSGS)
    return;
  out_msg *o = &b->msgs[b->n_msgs];
  memset(o, 0, sizeof *o);
  o->to = m->to;
  snprintf(o->user, sizeof o->user, "%s", m->user ? m->user : "");
  snprintf(o->channel, sizeof o->channel, "%s", m->channel ? m->channel : "");
  o->text = strdup(m->text);
  o->game = m->game;
  o->version = m->version;
  snprintf(o->mention, sizeof o->mention, "%s", m->mention ? m->mention : "");
  if (m->piece == 0)
    b->gen++;
  o->gen = b->gen;
  if (m->slot && m->game)
    snprintf(o->latest, sizeof o->latest, "%s:%" PRId64, m->slot, m->game);
  if (m->file_name && m->file_data) {
    o->file_name = strdup(m->file_name);
    o->file_data = malloc(m->file_len + 1);
    if (o->file_data)
      memcpy(o->file_data, m->file_data, m->file_len);
    o->file_len = m->file_len;
    if (!o->file_name || !o->file_data) {
      free(o->file_name);
      free(o->file_data);
      o->file_name = o->file_data = NULL;
    }
  }
  if (m->n_options > 0) {
    o->options = malloc((size_t)m->n_options * sizeof *o->options);
    if (o->options) {
      memcpy(o->options, m->options, (size_t)m->n_options * sizeof *o->options);
      o->n_options = m->n_options;
    }
  }
  if (o->text)
    b->n_msgs++;
}

static void clear_msgs(bot_discord *b) {
  for (int i = 0; i < b->n_msgs; i++) {
    free(b->msgs[i].text);
    free(b->msgs[i].options);
    free(b->msgs[i].file_name);
    free(b->msgs[i].file_data);
  }
  b->n_msgs = 0;
}

/* ---- interactions ------------------------------------------------------- */

/* Follow-ups and edits of an interaction's answer are valid only once
 * Discord has acknowledged its callback, and the callback travels in a
 * lane of its own: they wait behind a gate that the callback's outcome
 * opens (2xx: they are sent) or shuts (they are dropped). */
typedef struct gated {
  struct gated *next;
  char method[8];
  char *path, *body;
  char *file_name, *file_data; /* an attachment (multipart), or NULL */
  size_t file_len;
} gated;

enum { GATE_WAITING, GATE_OPEN, GATE_SHUT };

typedef struct ack_gate {
  bot_discord *b;
  int state; /* GATE_*; this and the rest under b->gate_mu */
  int refs;  /* the worker's while it handles the interaction, and one
                per callback in flight */
  gated *head, *tail;
  double received, queued; /* the event's arrival, the callback's queueing */
} ack_gate;

typedef struct ix {
  const char *id, *token, *channel, *guild;
  const char *user, *name;
  bool is_mod, in_dm;
  int type;
  json_t *data;
  double received;
  ack_gate *gate; /* NULL when out of memory: follow-ups go at once */
  bool dms_here;  /* the requester's DMs come as ephemeral follow-ups */
} ix;

static void gated_free(gated *q) {
  while (q) {
    gated *next = q->next;
    free(q->path);
    free(q->body);
    free(q->file_name);
    free(q->file_data);
    free(q);
    q = next;
  }
}

static void gate_release(ack_gate *g) {
  if (!g)
    return;
  pthread_mutex_lock(&g->b->gate_mu);
  bool last = --g->refs == 0;
  pthread_mutex_unlock(&g->b->gate_mu);
  if (last) {
    gated_free(g->head);
    free(g);
  }
}

/* Queues a gated request; nonzero when it could not. */
static int gated_post(bot_discord *b, const gated *q) {
  return q->file_name ? bot_rest_send_file(b->rest, q->method, q->path, q->body,
                                           q->file_name, q->file_data,
                                           q->file_len, 0, note_result, b)
                      : bot_rest_send(b->rest, q->method, q->path, q->body, 0,
                                      note_result, b);
}

/* The callback's outcome, on the REST thread. */
static void gate_acked(void *ctx, const bot_rest_result *r) {
  ack_gate *g = ctx;
  bot_discord *b = g->b;
  bool ok = r->status >= 200 && r->status < 300;
  if (!ok)
    logf_(b, LOG_WARN, "an interaction callback failed: %d %s", r->status,
          r->error ? r->error : "");
  else /* for bench/bench_discord.py: the bot's own share of the latency */
    logf_(b, LOG_DEBUG,
          "interaction answered: callback queued %.3f ms, sent %.3f ms, "
          "acknowledged %.3f ms after the event arrived",
          (g->queued - g->received) * 1000.0,
          r->sent_at > 0 ? (r->sent_at - g->received) * 1000.0 : -1.0,
          (now_s() - g->received) * 1000.0);
  pthread_mutex_lock(&b->gate_mu);
  gated *list = g->head;
  g->head = g->tail = NULL;
  g->state = ok ? GATE_OPEN : GATE_SHUT;
  pthread_mutex_unlock(&b->gate_mu);
  for (gated *q = list; q && ok; q = q->next)
    if (gated_post(b, q))
      logf_(b, LOG_WARN, "could not queue an answer's follow-up");
  if (list && !ok)
    logf_(b, LOG_WARN, "an answer's follow-ups were dropped");
  gated_free(list);
  gate_release(g);
}

/* Sends a follow-up or an edit of x's answer once its callback is
 * acknowledged; with the file m carries, when m is not NULL. */
static void gate_send_msg(bot_discord *b, const ix *x, const char *method,
                          const char *path, json_t *body, const out_msg *m) {
  gated *q = calloc(1, sizeof *q);
  if (!q)
    return;
  snprintf(q->method, sizeof q->method, "%s", method);
  q->path = strdup(path);
  q->body = json_dumps(body, JSON_COMPACT);
  if (m && m->file_name) {
    q->file_name = strdup(m->file_name);
    q->file_data = malloc(m->file_len + 1);
    if (q->file_data)
      memcpy(q->file_data, m->file_data, m->file_len);
    q->file_len = m->file_len;
  }
  if (!q->path || !q->body ||
      (m && m->file_name && (!q->file_name || !q->file_data))) {
    gated_free(q);
    return;
  }
  ack_gate *g = x->gate;
  if (!g) {
    if (gated_post(b, q))
      logf_(b, LOG_WARN, "could not queue an answer's follow-up");
    gated_free(q);
    return;
  }
  pthread_mutex_lock(&b->gate_mu);
  int state = g->state;
  if (state == GATE_WAITING) {
    if (g->tail)
      g->tail->next = q;
    else
      g->head = q;
    g->tail = q;
  }
  pthread_mutex_unlock(&b->gate_mu);
  if (state == GATE_OPEN && gated_post(b, q))
    logf_(b, LOG_WARN, "could not queue an answer's follow-up");
  if (state == GATE_SHUT)
    logf_(b, LOG_WARN, "an answer's follow-up was dropped");
  if (state != GATE_WAITING)
    gated_free(q);
}

static void gate_send(bot_discord *b, const ix *x, const char *method,
                      const char *path, json_t *body) {
  gate_send_msg(b, x, method, path, body, NULL);
}

static bool seen_before(bot_discord *b, const char *id) {
  for (int i = 0; i < SEEN_MAX; i++)
    if (strcmp(b->seen[i], id) == 0)
      return true;
  snprintf(b->seen[b->seen_pos++ % SEEN_MAX], sizeof b->seen[0], "%s", id);
  return false;
}

static void callback(bot_discord *b, const ix *x, json_t *body) {
  char path[800];
  snprintf(path, sizeof path, "/interactions/%s/%s/callback", x->id, x->token);
  ack_gate *g = x->gate;
  if (g) {
    pthread_mutex_lock(&b->gate_mu);
    g->refs++;
    g->queued = now_s();
    pthread_mutex_unlock(&b->gate_mu);
  }
  if (!send_json(b, "POST", path, body, BOT_REST_INTERACTION,
                 g ? gate_acked : NULL, g) &&
      g) {
    bot_rest_result failed = {.status = 0, .error = "not queued"};
    gate_acked(g, &failed);
  }
  __atomic_add_fetch(&b->stats.callbacks, 1, __ATOMIC_RELAXED);
}

static void followup(bot_discord *b, const ix *x, json_t *body) {
  char path[800];
  snprintf(path, sizeof path, "/webhooks/%s/%s", b->app_id, x->token);
  gate_send(b, x, "POST", path, body);
}

static void edit_original(bot_discord *b, const ix *x, json_t *body) {
  char path[800];
  snprintf(path, sizeof path, "/webhooks/%s/%s/messages/@original", b->app_id,
           x->token);
  json_object_del(body, "flags"); /* fixed when the response was deferred */
  gate_send(b, x, "PATCH", path, body);
}

/* Sends body to path: as multipart when m carries a file, replacing an
 * unsent predecessor when m has a slot. */
static void send_msg_body(bot_discord *b, const char *method, const char *path,
                          const out_msg *m, json_t *body) {
  char *text = json_dumps(body, JSON_COMPACT);
  int rc = -1;
  if (text && m->file_name)
    rc = bot_rest_send_file(b->rest, method, path, text, m->file_name,
                            m->file_data, m->file_len, 0, note_result, b);
  else if (text && m->latest[0])
    rc = bot_rest_send_latest(b->rest, method, path, text, m->latest, m->gen,
                              note_result, b);
  else if (text)
    rc = bot_rest_send(b->rest, method, path, text, 0, note_result, b);
  if (rc)
    logf_(b, LOG_WARN, "could not queue a message");
  free(text);
}

/* Posts m in its game's channel. */
static void post_channel(bot_discord *b, const out_msg *m) {
  char path[80];
  snprintf(path, sizeof path, "/channels/%s/messages", m->channel);
  json_t *body = message_body(m, false);
  send_msg_body(b, "POST", path, m, body);
  json_decref(body);
}

/* Answers interaction x from the messages its command produced. */
static void answer(bot_discord *b, const ix *x, bool deferred, bool component) {
  int first = -1; /* the message that becomes the interaction's answer */
  for (int i = 0; i < b->n_msgs && first < 0; i++)
    if (b->msgs[i].to == CMD_TO_CHANNEL && !x->in_dm &&
        strcmp(b->msgs[i].channel, x->channel) == 0)
      first = i;
  for (int i = 0; i < b->n_msgs && first < 0; i++)
    if (b->msgs[i].to == CMD_TO_EPHEMERAL)
      first = i;
  /* A request from a DM: its game's channel still gets every channel
   * message, and the requester sees the first one as the answer rather
   * than a bare "Done.". */
  bool copy = false;
  for (int i = 0; x->in_dm && i < b->n_msgs && first < 0; i++)
    if (b->msgs[i].to == CMD_TO_CHANNEL) {
      first = i;
      copy = true;
    }
  /* A click that moved the game (it is announced in the game's channel,
   * which is not where a DM click comes from): the clicked prompt is
   * spent. */
  bool spent = false;
  for (int i = 0; component && i < b->n_msgs; i++)
    spent = spent || b->msgs[i].to == CMD_TO_CHANNEL;
  if (spent) {
    json_t *o = json_pack("{sis{sss[]}}", "type", 7, "data", "content",
                          "Answered.", "components");
    callback(b, x, o);
    json_decref(o);
    first = -1;
  } else if (first >= 0 && b->msgs[first].file_name) {
    /* A file rides on the (deferred) answer's edit. */
    out_msg *m = &b->msgs[first];
    bool eph = m->to == CMD_TO_EPHEMERAL;
    if (!deferred) {
      json_t *o = eph ? json_pack("{sis{si}}", "type", 5, "data", "flags", 64)
                      : json_pack("{si}", "type", 5);
      callback(b, x, o);
      json_decref(o);
    }
    /* Like every edit of the answer, only once Discord has acknowledged
     * the deferral: before that the webhook is unknown (10015). */
    json_t *body = message_body(m, false);
    char path[800];
    snprintf(path, sizeof path, "/webhooks/%s/%s/messages/@original", b->app_id,
             x->token);
    gate_send_msg(b, x, "PATCH", path, body, m);
    json_decref(body);
  } else if (first >= 0) {
    json_t *body =
        message_body(&b->msgs[first], b->msgs[first].to == CMD_TO_EPHEMERAL);
    if (deferred) {
      edit_original(b, x, body);
    } else {
      json_t *o = json_pack("{siso}", "type", 4, "data", body);
      callback(b, x, o);
      json_decref(o);
      body = NULL;
    }
    json_decref(body);
  } else if (!deferred) {
    json_t *o = json_pack("{sis{sssi}}", "type", 4, "data", "content", "Done.",
                          "flags", 64);
    callback(b, x, o);
    json_decref(o);
  }
  for (int i = 0; i < b->n_msgs; i++) {
    if (i == first && !copy)
      continue;
    out_msg *m = &b->msgs[i];
    if (m->to == CMD_TO_EPHEMERAL) {
      json_t *body = message_body(m, true);
      followup(b, x, body);
      json_decref(body);
    } else if (m->to == CMD_TO_CHANNEL) {
      post_channel(b, m);
    } else if (x->dms_here && strcmp(m->user, x->user) == 0) {
      json_t *body = message_body(m, true);
      followup(b, x, body);
      json_decref(body);
    } else {
      send_dm(b, m);
    }
  }
  clear_msgs(b);
}

/* Delivers what no interaction asked for (reminders, deadlines, AI
 * moves after a timer): channel posts and DMs; an ephemeral reply needs
 * an interaction and cannot be sent. */
static void deliver_unprompted(bot_discord *b) {
  for (int i = 0; i < b->n_msgs; i++) {
    out_msg *m = &b->msgs[i];
    if (m->to == CMD_TO_CHANNEL) {
      post_channel(b, m);
    } else if (m->to == CMD_TO_DM) {
      send_dm(b, m);
    }
  }
  clear_msgs(b);
}

/* Opens a public thread for a new game (the "threads" setting). */
static bool open_thread(void *ctx, const char *channel, const char *name,
                        char *thread_id, size_t cap) {
  bot_discord *b = ctx;
  char path[80], *body = NULL;
  snprintf(path, sizeof path, "/channels/%s/threads", channel);
  json_t *o = json_pack("{sssisi}", "name", name, "type", 11,
                        "auto_archive_duration", 10080);
  char *text = o ? json_dumps(o, JSON_COMPACT) : NULL;
  json_decref(o);
  int status = text ? bot_rest_call(b->rest, "POST", path, text, &body) : 0;
  free(text);
  json_t *t = (status == 200 || status == 201) && body
                  ? json_loads(body, 0, NULL)
                  : NULL;
  free(body);
  const char *id = json_string_value(json_object_get(t, "id"));
  bool ok = id && snowflake_ok(id) && strlen(id) < cap;
  if (ok)
    memcpy(thread_id, id, strlen(id) + 1);
  else
    logf_(b, LOG_WARN, "could not open a thread (HTTP %d)", status);
  json_decref(t);
  return ok;
}

/* Copies a slash command's options into r (values as text). */
static void fill_args(cmd_request *r, json_t *options, char vals[][24],
                      const char **focused) {
  size_t i;
  json_t *o;
  json_array_foreach(options, i, o) {
    if (r->n_args == CMD_MAX_ARGS)
      break;
    const char *name = json_string_value(json_object_get(o, "name"));
    json_t *v = json_object_get(o, "value");
    if (!name || !v)
      continue;
    cmd_arg *a = &r->args[r->n_args];
    a->name = name;
    if (json_is_string(v)) {
      a->value = json_string_value(v);
    } else if (json_is_integer(v)) {
      snprintf(vals[r->n_args], 24, "%" JSON_INTEGER_FORMAT,
               json_integer_value(v));
      a->value = vals[r->n_args];
    } else {
      continue;
    }
    if (focused && json_is_true(json_object_get(o, "focused")))
      *focused = name;
    r->n_args++;
  }
}

/* The request an interaction makes, before its command and options. */
static cmd_request request_of(const ix *x) {
  cmd_request r = {.request_id = x->id,
                   .guild = x->guild,
                   .channel = x->channel,
                   .user = x->user,
                   .user_name = x->name,
                   .is_mod = x->is_mod,
                   .in_dm = x->in_dm};
  return r;
}

static void handle_command(bot_discord *b, const ix *x, bool autocomplete) {
  json_t *sub = json_array_get(json_object_get(x->data, "options"), 0);
  const char *name = json_string_value(json_object_get(sub, "name"));
  cmd_request r = request_of(x);
  r.command = name ? name : "";
  char vals[CMD_MAX_ARGS][24];
  const char *focused = NULL;
  fill_args(&r, json_object_get(sub, "options"), vals, &focused);
  if (autocomplete) {
    cmd_choice choices[25];
    const char *partial = "";
    for (int i = 0; i < r.n_args; i++)
      if (focused && strcmp(r.args[i].name, focused) == 0)
        partial = r.args[i].value;
    int n = focused
                ? cmd_autocomplete(b->cmd, &r, focused, partial, choices, 25)
                : 0;
    json_t *list = json_array();
    for (int i = 0; i < n; i++)
      json_array_append_new(list, json_pack("{ssss}", "name", choices[i].label,
                                            "value", choices[i].id));
    json_t *o = json_pack("{sis{so}}", "type", 8, "data", "choices", list);
    callback(b, x, o);
    json_decref(o);
    return;
  }
  /* Work that may be slow is deferred first, so Discord hears from us in
   * time; so is everything that waited in the queue. */
  bool slow = strcmp(r.command, "log") == 0 || now_s() - x->received > 1.0;
  if (slow) {
    bool quiet =
        strcmp(r.command, "log") == 0 || strcmp(r.command, "hand") == 0 ||
        strcmp(r.command, "list") == 0 || strcmp(r.command, "card") == 0;
    json_t *o = quiet ? json_pack("{sis{si}}", "type", 5, "data", "flags", 64)
                      : json_pack("{si}", "type", 5);
    callback(b, x, o);
    json_decref(o);
  }
  cmd_set_now(b->cmd, (int64_t)time(NULL));
  cmd_handle(b->cmd, &r);
  answer(b, x, slow, false);
}

static void reply_ephemeral(bot_discord *b, const ix *x, const char *text) {
  json_t *o =
      json_pack("{sis{sssi}}", "type", 4, "data", "content", text, "flags", 64);
  callback(b, x, o);
  json_decref(o);
}

/* Parses "k:<game>:<version>:<rest>" custom_ids. */
static bool parse_custom(const char *id, char *kind, int64_t *game,
                         int64_t *version, const char **rest) {
  if (!id || !id[0] || id[1] != ':')
    return false;
  *kind = id[0];
  char *end;
  errno = 0;
  long long g = strtoll(id + 2, &end, 10);
  if (errno || g <= 0)
    return false;
  *game = g;
  *version = -1;
  *rest = "";
  if (*end == '\0')
    return *kind == 'h';
  if (*end != ':')
    return false;
  long long v = strtoll(end + 1, &end, 10);
  if (errno || v < 0)
    return false;
  *version = v;
  if (*end == ':')
    *rest = end + 1;
  else if (*end != '\0')
    return false;
  return true;
}

static void handle_component(bot_discord *b, const ix *x) {
  const char *cid = json_string_value(json_object_get(x->data, "custom_id"));
  char kind;
  int64_t game, version;
  const char *rest;
  if (!parse_custom(cid, &kind, &game, &version, &rest)) {
    reply_ephemeral(b, x, "This button is not one of Lair's current ones.");
    return;
  }
  char gtext[24];
  snprintf(gtext, sizeof gtext, "%" PRId64, game);
  cmd_request r = request_of(x);
  r.in_dm = true; /* buttons act on the clicker's games */
  r.n_args = 1;
  r.args[0].name = "game";
  r.args[0].value = gtext;
  if (kind == 'h') {
    /* The button of the notice for closed DMs: the hand, and the turn's
     * prompt with its buttons, come here rather than by DM. */
    r.command = "hand";
    cmd_handle(b->cmd, &r);
    ix here = *x;
    here.dms_here = true;
    answer(b, &here, false, false);
    return;
  }
  int64_t current = cmd_game_version(b->cmd, game);
  if (current != version) {
    reply_ephemeral(b, x,
                    current < 0 ? "That game no longer exists."
                                : "These buttons are out of date: the game "
                                  "has moved on. Use the newest message, or "
                                  "/game move.");
    return;
  }
  if (kind == 'p') {
    static cmd_choice opts[ENG_OPTIONS_MAX];
    char q[400];
    int n = cmd_user_prompt(b->cmd, game, x->user, opts, ENG_OPTIONS_MAX, q,
                            sizeof q);
    if (n < 0) {
      reply_ephemeral(b, x, "This is not your decision to make.");
      return;
    }
    long page = strtol(rest, NULL, 10);
    out_msg m = {.to = CMD_TO_DM,
                 .text = q,
                 .game = game,
                 .version = version,
                 .options = opts,
                 .n_options = n};
    json_t *o = json_pack("{sis{ssso}}", "type", 7, "data", "content", q,
                          "components", components(&m, (int)page));
    callback(b, x, o);
    json_decref(o);
    return;
  }
  const char *choice = kind == 's' ? json_string_value(json_array_get(
                                         json_object_get(x->data, "values"), 0))
                                   : rest;
  if (!choice || !*choice || (kind != 'm' && kind != 's')) {
    reply_ephemeral(b, x, "This button is not one of Lair's current ones.");
    return;
  }
  r.command = "move";
  r.args[1].name = "choice";
  r.args[1].value = choice;
  r.n_args = 2;
  cmd_set_now(b->cmd, (int64_t)time(NULL));
  cmd_handle(b->cmd, &r);
  answer(b, x, false, true);
}

static bool member_is_mod(bot_discord *b, json_t *member, const char *guild) {
  const char *perms = json_string_value(json_object_get(member, "permissions"));
  if (perms) {
    unsigned long long p = strtoull(perms, NULL, 10);
    if (p & MANAGE_GUILD)
      return true;
  }
  /* LAIR_MOD_ROLE, or the server's mod_role setting. */
  char setting[24] = "";
  long role_setting = guild && *guild ? cmd_mod_role(b->cmd, guild) : 0;
  if (role_setting > 0)
    snprintf(setting, sizeof setting, "%ld", role_setting);
  size_t i;
  json_t *role;
  json_array_foreach(json_object_get(member, "roles"), i, role) {
    const char *id = json_string_value(role);
    if (id && ((b->cfg.mod_role[0] && strcmp(id, b->cfg.mod_role) == 0) ||
               (setting[0] && strcmp(id, setting) == 0)))
      return true;
  }
  return false;
}

static void handle_interaction(bot_discord *b, json_t *d, double received) {
  ix x = {.received = received};
  x.id = json_string_value(json_object_get(d, "id"));
  x.token = json_string_value(json_object_get(d, "token"));
  x.type = (int)json_integer_value(json_object_get(d, "type"));
  x.channel = json_string_value(json_object_get(d, "channel_id"));
  x.guild = json_string_value(json_object_get(d, "guild_id"));
  x.data = json_object_get(d, "data");
  json_t *member = json_object_get(d, "member");
  json_t *user =
      member ? json_object_get(member, "user") : json_object_get(d, "user");
  x.user = json_string_value(json_object_get(user, "id"));
  x.name = json_string_value(json_object_get(member, "nick"));
  if (!x.name)
    x.name = json_string_value(json_object_get(user, "global_name"));
  if (!x.name)
    x.name = json_string_value(json_object_get(user, "username"));
  if (!x.id || !x.token || !x.channel || !x.user || !x.name ||
      !snowflake_ok(x.id) || !snowflake_ok(x.user) || strlen(x.token) > 600) {
    logf_(b, LOG_WARN, "ignored a malformed interaction");
    return;
  }
  if (seen_before(b, x.id)) {
    __atomic_add_fetch(&b->stats.duplicates, 1, __ATOMIC_RELAXED);
    logf_(b, LOG_DEBUG, "interaction %s delivered again; ignored", x.id);
    return;
  }
  x.in_dm = !member;
  x.guild = x.guild ? x.guild : "";
  x.is_mod = member && member_is_mod(b, member, x.guild);
  x.gate = calloc(1, sizeof *x.gate);
  if (x.gate) {
    x.gate->b = b;
    x.gate->refs = 1;
    x.gate->received = received;
  }
  if (x.type == 2 || x.type == 4) {
    const char *name = json_string_value(json_object_get(x.data, "name"));
    if (!name || strcmp(name, "game") != 0) {
      if (x.type == 2)
        reply_ephemeral(b, &x, "Lair only knows /game.");
    } else {
      handle_command(b, &x, x.type == 4);
    }
  } else if (x.type == 3) {
    handle_component(b, &x);
  } else if (x.type == 1) {
    json_t *o = json_pack("{si}", "type", 1);
    callback(b, &x, o);
    json_decref(o);
  }
  gate_release(x.gate);
}

/* ---- threads ---------------------------------------------------------- */

static void on_event(void *ctx, const char *type, json_t *d) {
  bot_discord *b = ctx;
  if (strcmp(type, "READY") == 0) {
    json_t *app = json_object_get(d, "application");
    const char *id = json_string_value(json_object_get(app, "id"));
    if (id && !b->app_id[0])
      snprintf(b->app_id, sizeof b->app_id, "%s", id);
    logf_(b, LOG_INFO, "connected");
    return;
  }
  if (strcmp(type, "INTERACTION_CREATE") != 0)
    return;
  event *e = calloc(1, sizeof *e);
  if (!e)
    return;
  e->d = json_incref(d);
  e->received = now_s();
  pthread_mutex_lock(&b->mu);
  if (b->tail)
    b->tail->next = e;
  else
    b->head = e;
  b->tail = e;
  b->queued++;
  pthread_cond_signal(&b->cv);
  pthread_mutex_unlock(&b->mu);
}

static void on_stop(void *ctx, int code, const char *why) {
  bot_discord *b = ctx;
  if (code)
    logf_(b, LOG_ERROR, "the gateway closed for good (%d: %s)", code,
          why ? why : "");
}

#define TICK_S 5 /* how often the timers are looked at */

/* The timers' turn: reminders, deadlines, lobby expiry (they live in the
 * database), the DM channels opened meanwhile, then the memory freed
 * meanwhile goes back to the system, so that a burst does not leave the
 * process larger for good. */
/* Touches the health file when the gateway heard from Discord since the
 * last tick (for `lair health`, cli/cli_health.c). */
static void note_health(bot_discord *b) {
  bot_gw_stats st;
  bot_gw_get_stats(b->gw, &st);
  uint64_t heard = st.acks + st.dispatches;
  if (heard == b->heard || !b->health[0])
    return;
  b->heard = heard;
  int fd = open(b->health, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0 || futimens(fd, NULL) != 0) {
    if (!b->health_warned)
      logf_(b, LOG_WARN, "cannot touch the health file: %s", strerror(errno));
    b->health_warned = true;
  }
  if (fd >= 0)
    close(fd);
}

static void tick(bot_discord *b) {
  double t0 = now_s();
  note_health(b);
  dm_save(b);
  cmd_set_now(b->cmd, (int64_t)time(NULL));
  cmd_tick(b->cmd);
  deliver_unprompted(b);
  double t1 = now_s();
  malloc_trim(0);
  logf_(b, LOG_DEBUG, "tick: timers %.2f ms, trim %.2f ms", (t1 - t0) * 1e3,
        (now_s() - t1) * 1e3);
}

static void *worker(void *arg) {
  bot_discord *b = arg;
  /* Before any new command: AI seats an interrupted process left to move
   * answer, and the timers that fell due while Lair was down fire. */
  cmd_set_now(b->cmd, (int64_t)time(NULL));
  int caught_up = cmd_recover(b->cmd);
  deliver_unprompted(b);
  if (caught_up < 0)
    logf_(b, LOG_WARN, "restart: the games left to AI seats could not be read");
  else if (caught_up > 0)
    logf_(b, LOG_INFO, "restart: %d game(s) left to AI seats moved on",
          caught_up);
  double next_tick = now_s() + TICK_S;
  for (;;) {
    pthread_mutex_lock(&b->mu);
    double wait = next_tick - now_s();
    if (!b->head && !b->stopping && wait > 0) {
      struct timespec until;
      clock_gettime(CLOCK_REALTIME, &until);
      double ns = (double)until.tv_nsec + wait * 1e9;
      until.tv_sec += (time_t)(ns / 1e9);
      until.tv_nsec = (long)(ns - (double)(time_t)(ns / 1e9) * 1e9);
      pthread_cond_timedwait(&b->cv, &b->mu, &until);
    }
    event *e = b->head;
    if (e) {
      b->head = e->next;
      if (!b->head)
        b->tail = NULL;
      b->queued--;
    }
    bool stop = b->stopping && !e;
    pthread_mutex_unlock(&b->mu);
    if (stop) {
      dm_save(b);
      break;
    }
    if (e) {
      handle_interaction(b, e->d, e->received);
      __atomic_add_fetch(&b->stats.interactions, 1, __ATOMIC_RELAXED);
      json_decref(e->d);
      free(e);
    }
    /* Due every TICK_S seconds, busy or not: a steady stream of
     * interactions must not hold the timers back. */
    double now = now_s();
    if (now >= next_tick) {
      tick(b);
      next_tick = now + TICK_S;
    }
  }
  return NULL;
}

/* SIGTERM and SIGINT end the session cleanly: every thread blocks them
 * and this one waits for them. */
static void *signal_thread(void *arg) {
  bot_discord *b = arg;
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGUSR1); /* sent by bot_discord_run to end this thread */
  int sig = 0;
  sigwait(&set, &sig);
  if (sig != SIGUSR1) {
    logf_(b, LOG_INFO, "stopping (signal %d)", sig);
    bot_gw_stop(b->gw);
  }
  return NULL;
}

/* ---- start-up ---------------------------------------------------------- */

/* The /game command as Discord's JSON, from the one command table. */
json_t *bot_discord_commands_json(void) {
  json_t *subs = json_array();
  for (size_t i = 0; i < cmd_table_n; i++) {
    const cmd_def *d = &cmd_table[i];
    json_t *opts = json_array();
    for (int k = 0; k < d->n_options; k++) {
      const cmd_option_def *o = &d->options[k];
      int type = o->type == CMD_ARG_INTEGER ? 4
                 : o->type == CMD_ARG_USER  ? 6
                                            : 3;
      json_t *jo =
          json_pack("{sisssssb}", "type", type, "name", o->name, "description",
                    o->description, "required", o->required);
      if (type == 3 && o->autocomplete)
        json_object_set_new(jo, "autocomplete", json_true());
      if (type == 4) {
        json_object_set_new(jo, "min_value", json_integer(o->min));
        json_object_set_new(jo, "max_value", json_integer(o->max));
      }
      json_array_append_new(opts, jo);
    }
    json_array_append_new(subs,
                          json_pack("{sisssssoso}", "type", 1, "name", d->name,
                                    "description", d->description, "options",
                                    opts, "required", json_false()));
    json_object_del(json_array_get(subs, json_array_size(subs) - 1),
                    "required");
  }
  return json_pack("[{sisssss[ii]s[i]so}]", "type", 1, "name", "game",
                   "description", "Play tabletop games with Lair", "contexts",
                   0, 1, "integration_types", 0, "options", subs);
}

/* FNV-1a of the command JSON, to register only when it changed. */
static uint64_t fnv(const char *s) {
  uint64_t h = 1469598103934665603ull;
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return h;
}

static bool register_commands(bot_discord *b) {
  json_t *cmds = bot_discord_commands_json();
  char *text = json_dumps(cmds, JSON_COMPACT | JSON_SORT_KEYS);
  json_decref(cmds);
  if (!text)
    return false;
  char scope[64], key[48], stored[40] = "", hash[40];
  snprintf(scope, sizeof scope, "discord:%s", b->app_id);
  snprintf(key, sizeof key, "commands:%s",
           b->cfg.guild[0] ? b->cfg.guild : "global");
  snprintf(hash, sizeof hash, "%016" PRIx64, fnv(text));
  sto_setting_get(b->db, scope, key, stored, sizeof stored);
  if (strcmp(stored, hash) == 0) {
    logf_(b, LOG_INFO, "slash commands unchanged; not registered again");
    free(text);
    return true;
  }
  char path[200];
  if (b->cfg.guild[0])
    snprintf(path, sizeof path, "/applications/%s/guilds/%s/commands",
             b->app_id, b->cfg.guild);
  else
    snprintf(path, sizeof path, "/applications/%s/commands", b->app_id);
  int status = bot_rest_call(b->rest, "PUT", path, text, NULL);
  free(text);
  if (status != 200) {
    logf_(b, LOG_ERROR, "registering the slash commands failed (HTTP %d)",
          status);
    return false;
  }
  sto_setting_set(b->db, scope, key, hash);
  logf_(b, LOG_INFO, "slash commands registered (%s)",
        b->cfg.guild[0] ? "this server only" : "globally");
  return true;
}

static char *get_string(bot_discord *b, const char *path, const char *field) {
  char *body = NULL;
  int status = bot_rest_call(b->rest, "GET", path, NULL, &body);
  json_t *j = status == 200 && body ? json_loads(body, 0, NULL) : NULL;
  free(body);
  const char *v = json_string_value(json_object_get(j, field));
  char *out = v ? strdup(v) : NULL;
  json_decref(j);
  if (!out)
    logf_(b, LOG_ERROR, "GET %s failed (HTTP %d)%s", path, status,
          status == 401 ? ": the token was refused" : "");
  return out;
}

void bot_discord_get_stats(bot_discord *b, bot_discord_stats *out) {
  out->interactions = __atomic_load_n(&b->stats.interactions, __ATOMIC_RELAXED);
  out->callbacks = __atomic_load_n(&b->stats.callbacks, __ATOMIC_RELAXED);
  out->duplicates = __atomic_load_n(&b->stats.duplicates, __ATOMIC_RELAXED);
  out->dm_refused = __atomic_load_n(&b->stats.dm_refused, __ATOMIC_RELAXED);
  out->dm_superseded =
      __atomic_load_n(&b->stats.dm_superseded, __ATOMIC_RELAXED);
}

int bot_discord_run(const bot_discord_config *cfg, const char *db_path) {
  /* One malloc arena for all threads: the worker does nearly all the
   * allocating, and an arena per thread keeps megabytes of free memory
   * that the others cannot use. */
  mallopt(M_ARENA_MAX, 1);
  bot_discord *b = calloc(1, sizeof *b);
  if (!b)
    return BOT_EXIT_FAIL;
  b->cfg = *cfg;
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGUSR1);
  pthread_sigmask(SIG_BLOCK, &set, NULL); /* inherited by every thread */
  pthread_mutex_init(&b->mu, NULL);
  pthread_cond_init(&b->cv, NULL);
  pthread_mutex_init(&b->dm_mu, NULL);
  pthread_mutex_init(&b->gate_mu, NULL);
  int status = BOT_EXIT_FAIL;
  char err[300] = "";
  sto_rc src = sto_open(db_path, &b->db, err, sizeof err);
  if (src) {
    fprintf(stderr, "lair: cannot use the database %s: %s\n", db_path,
            err[0] ? err : sto_strerror(src));
    goto out;
  }
  /* Healthy only once this process hears from Discord. */
  if (bot_health_path(db_path, b->health, sizeof b->health) &&
      unlink(b->health) != 0 && errno != ENOENT)
    logf_(b, LOG_WARN, "cannot remove the old health file: %s",
          strerror(errno));
  cmd_config cc = {.db = b->db,
                   .sink = {collect, b},
                   .open_thread = open_thread,
                   .thread_ctx = b};
  b->cmd = cmd_new(&cc);
  char ua[120];
  snprintf(ua, sizeof ua, "DiscordBot (https://github.com/lair-bot/lair, %s)",
           LAIR_VERSION);
  bot_rest_config rc = {
      .api_base = cfg->api, .token = cfg->token, .user_agent = ua};
  b->rest = bot_rest_new(&rc);
  if (!b->cmd || !b->rest)
    goto out;
  char *app = get_string(b, "/applications/@me", "id");
  if (!app)
    goto out;
  snprintf(b->app_id, sizeof b->app_id, "%s", app);
  free(app);
  if (!register_commands(b))
    goto out;
  char *url = get_string(b, "/gateway/bot", "url");
  if (!url)
    goto out;
  bot_gw_config gc = {.url = url,
                      .token = cfg->token,
                      .intents = 1,
                      .on_event = on_event,
                      .on_stop = on_stop,
                      .ctx = b};
  b->gw = bot_gw_new(&gc);
  free(url);
  if (!b->gw || pthread_create(&b->worker, NULL, worker, b) != 0)
    goto out;
  b->worker_started = true;
  pthread_t sigs;
  bool sigs_started = pthread_create(&sigs, NULL, signal_thread, b) == 0;
  logf_(b, LOG_INFO, "starting (application %s)", b->app_id);
  int code = bot_gw_run(b->gw);
  status = code == 0 ? BOT_EXIT_OK : BOT_EXIT_FAIL;
  if (sigs_started) {
    pthread_kill(sigs, SIGUSR1);
    pthread_join(sigs, NULL);
  }
out:
  if (b->worker_started) {
    pthread_mutex_lock(&b->mu);
    b->stopping = true;
    pthread_cond_signal(&b->cv);
    pthread_mutex_unlock(&b->mu);
    pthread_join(b->worker, NULL);
  }
  bot_gw_free(b->gw);
  bot_rest_free(b->rest); /* after the worker: it queues requests */
  cmd_free(b->cmd);
  sto_close(b->db);
  clear_msgs(b);
  while (b->head) {
    event *e = b->head;
    b->head = e->next;
    json_decref(e->d);
    free(e);
  }
  pthread_mutex_destroy(&b->mu);
  pthread_cond_destroy(&b->cv);
  pthread_mutex_destroy(&b->dm_mu);
  pthread_mutex_destroy(&b->gate_mu);
  free(b);
  return status;
}
