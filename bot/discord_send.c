/*
 * discord_send.c: what a command produced, on its way out: the messages
 * collected while a command runs, channel posts and DMs. A user's DM
 * channel is opened once and remembered (in memory and in the database);
 * DMs to one user go out in order, and a later DM of the same slot (the
 * hand, a reminder) replaces one not yet sent.
 */
#include "discord_int.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* DMs: the channel is created once per user, then cached. While it is
 * being opened, later DMs to that user wait behind the first (in order,
 * without opening it again). */
typedef struct dm_job {
  bot_discord *b;
  char user[32];
  char game_channel[32];
  int64_t game;
  cmd_lang lang;      /* its reader's (out_msg.lang), for the notice */
  const char *latest; /* out_msg.latest, or "": in s */
  const char *edit;   /* bot_dc_edit_key, or "": in s */
  uint64_t gen;
  bool noticed;     /* the game's channel was told the user's DMs are closed */
  double queued;    /* bot_dc_now() when it was made */
  bot_packed *body; /* the JSON, packed: a DM may wait a while behind the
                       opening of its channel; NULL once a later DM
                       replaced it or it went to the REST queue */
  struct dm_job *next_open; /* b->opening */
  struct dm_job *waiters;   /* the same user's later DMs, in order */
  struct dm_job *next;      /* among those */
  /* latest and edit, NUL-terminated: a DM lives until Discord answered
   * it, and hundreds may wait at once, so they take the room they need,
   * not the room they might. */
  char s[];
} dm_job;

static dm_entry *dm_entry_of(bot_discord *b, const char *user);

/* Whether e's user was noticed as unreachable in game's channel (under
 * dm_mu). */
static bool was_noticed(const dm_entry *e, int64_t game) {
  for (int i = 0; i < e->n_noticed && i < DM_NOTICED; i++)
    if (e->noticed[i] == game)
      return true;
  return false;
}
static void mark_closed(bot_discord *b, const char *user, int64_t when,
                        double queued);

/* ---- sending --------------------------------------------------------- */

void bot_dc_note_result(void *ctx, const bot_rest_result *r) {
  bot_discord *b = ctx;
  if (!r->superseded && (r->status >= 400 || r->status == 0))
    bot_dc_log(b, LOG_WARN, "a request failed: %d %s", r->status,
               r->error ? r->error : "");
}

/* Queues a request; returns false (done not called) when it could not. */
bool bot_dc_send_json(bot_discord *b, const char *method, const char *path,
                      json_t *body, unsigned flags, bot_rest_done done,
                      void *ctx) {
  char *text = body ? json_dumps(body, JSON_COMPACT) : NULL;
  int rc = bot_rest_send(b->rest, method, path, text, flags,
                         done ? done : bot_dc_note_result, done ? ctx : b);
  if (rc)
    bot_dc_log(b, LOG_WARN, "could not queue %s %s", method, path);
  free(text);
  return rc == 0;
}

/* Builds the bot_dc_components of a prompt: buttons when few, else a select
 * menu of PER_PAGE options with page buttons. */
json_t *bot_dc_components(const out_msg *m, int page) {
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
 * content; prompts carry their bot_dc_components; nobody is pinged. */
json_t *bot_dc_message_body(const out_msg *m, bool ephemeral) {
  int lines = 0;
  for (const char *p = m->text; *p; p++)
    lines += *p == '\n';
  /* Nobody is pinged, except the player a reminder is for (or the
   * players a rematch invites). */
  json_t *o = json_pack("{s{s[]}}", "allowed_mentions", "parse");
  json_t *users = m->mention[0] ? json_array() : NULL;
  for (const char *p = m->mention; users && *p;) {
    size_t n = strcspn(p, " ");
    if (n)
      json_array_append_new(users, json_stringn(p, n));
    p += n + (p[n] == ' ');
  }
  if (users)
    json_object_set_new(json_object_get(o, "allowed_mentions"), "users", users);
  /* Each file's id is its index among the files[n] parts; a channel
   * message kept up to date in place lists them even when it has none,
   * so an edit drops the picture an earlier text carried. */
  bot_rest_file files[2];
  int n_files = bot_dc_files(m, files);
  if (n_files || (m->edit[0] && m->to == CMD_TO_CHANNEL && !ephemeral)) {
    json_t *att = json_array();
    for (int i = 0; i < n_files; i++) {
      char id[12];
      snprintf(id, sizeof id, "%d", i);
      json_array_append_new(
          att, json_pack("{ssss}", "id", id, "filename", files[i].name));
    }
    json_object_set_new(o, "attachments", att);
  }
  json_t *embed = NULL;
  if (m->title && strlen(m->text) <= 4096)
    embed = bot_dc_embed(m);
  else if (lines >= 4 && m->to == CMD_TO_CHANNEL && strlen(m->text) <= 4096)
    embed = json_pack("{sssi}", "description", m->text, "color", LAIR_COLOUR);
  else
    json_object_set_new(o, "content", json_string(m->text));
  if (m->image_name && m->image_data) {
    /* The picture is shown in the embed, under the text (an embed of its
     * own when the text goes as content). */
    char url[96];
    snprintf(url, sizeof url, "attachment://%s", m->image_name);
    if (!embed)
      embed = json_pack("{sI}", "color",
                        (json_int_t)(m->colour ? m->colour : LAIR_COLOUR));
    if (embed)
      json_object_set_new(embed, "image", json_pack("{ss}", "url", url));
  }
  /* The text and the embeds are always both given (empty when unused):
   * an edit, or a click's update, would otherwise keep what the message
   * showed before, such as a DM's old question above its new embed. */
  if (embed)
    json_object_set_new(o, "embeds", json_pack("[o]", embed));
  else
    json_object_set_new(o, "embeds", json_array());
  if (!json_object_get(o, "content"))
    json_object_set_new(o, "content", json_string(""));
  if (m->n_options > 0)
    json_object_set_new(o, "components", bot_dc_components(m, 0));
  else if (m->lobby && !ephemeral) {
    /* Join, Leave, Start and Add AI: each runs that command for whoever
     * clicks (custom_id "<kind>:<game>"; Lair checks who may). */
    const struct {
      char kind;
      const char *label;
      int style;
    } b[] = {{'j', cmd_tr(m->lang, "Join"), 3},
             {'l', cmd_tr(m->lang, "Leave"), 2},
             {'b', cmd_tr(m->lang, "Start"), 1},
             {'a', cmd_tr(m->lang, "Add AI"), 2}};
    json_t *row = json_pack("{sis[]}", "type", 1, "components");
    for (size_t i = 0; i < sizeof b / sizeof b[0]; i++) {
      char id[40];
      snprintf(id, sizeof id, "%c:%" PRId64, b[i].kind, m->game);
      json_array_append_new(json_object_get(row, "components"),
                            json_pack("{sisissss}", "type", 2, "style",
                                      b[i].style, "label", b[i].label,
                                      "custom_id", id));
    }
    json_object_set_new(o, "components", json_pack("[o]", row));
  } else if (m->ended && !ephemeral) {
    /* A finished game's summary: Rematch and Export, run for whoever
     * clicks (custom_id "r:<game>", "x:<game>"). */
    char r[40], x[40];
    snprintf(r, sizeof r, "r:%" PRId64, m->game);
    snprintf(x, sizeof x, "x:%" PRId64, m->game);
    json_t *row = json_pack(
        "{sis[{sisissss}{sisissss}]}", "type", 1, "components", "type", 2,
        "style", 1, "label", cmd_tr(m->lang, "Rematch"), "custom_id", r, "type",
        2, "style", 2, "label", cmd_tr(m->lang, "Export"), "custom_id", x);
    json_object_set_new(o, "components", json_pack("[o]", row));
  }
  if (ephemeral)
    json_object_set_new(o, "flags", json_integer(64));
  return o;
}

int bot_dc_files(const out_msg *m, bot_rest_file out[2]) {
  int n = 0;
  if (m->file_name && m->file_data)
    out[n++] = (bot_rest_file){m->file_name, m->file_data, m->file_len};
  if (m->image_name && m->image_data)
    out[n++] = (bot_rest_file){m->image_name, m->image_data, m->image_len};
  return n;
}

dc_files *bot_dc_files_copy(const out_msg *m, bool *nomem) {
  bot_rest_file f[2];
  int n = bot_dc_files(m, f);
  if (n == 0)
    return NULL;
  size_t size = 0;
  for (int i = 0; i < n; i++)
    size += f[i].len + strlen(f[i].name) + 1;
  dc_files *d = malloc(sizeof *d + size);
  if (!d) {
    *nomem = true;
    return NULL;
  }
  d->n = n;
  unsigned char *p = d->data;
  for (int i = 0; i < n; i++) {
    size_t nlen = strlen(f[i].name) + 1;
    memcpy(p, f[i].data, f[i].len);
    memcpy(p + f[i].len, f[i].name, nlen);
    d->f[i] = (bot_rest_file){(const char *)p + f[i].len, p, f[i].len};
    p += f[i].len + nlen;
  }
  return d;
}

out_msg bot_dc_without_picture(const out_msg *m) {
  out_msg c = *m;
  c.image_name = NULL;
  c.image_data = NULL;
  c.image_len = 0;
  return c;
}

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
    mark_closed(b, j->user, (int64_t)time(NULL), j->queued);
    pthread_mutex_lock(&b->dm_mu);
    dm_entry *e = dm_entry_of(b, j->user);
    bool told = j->noticed || was_noticed(e, j->game);
    if (!told) {
      e->noticed[e->n_noticed++ % DM_NOTICED] = j->game;
      e->noticed_saved = false;
    }
    pthread_mutex_unlock(&b->dm_mu);
    if (told) {
      dm_free(j);
      return;
    }
    char text[300], id[64], path[80];
    snprintf(text, sizeof text,
             cmd_tr(j->lang,
                    "<@%s>, I cannot send you direct messages, so your hand "
                    "and turns wait behind the button below (only you will "
                    "see them). To get them by DM, allow direct messages "
                    "from server members in this server's privacy "
                    "settings."),
             j->user);
    snprintf(id, sizeof id, "h:%" PRId64, j->game);
    json_t *o = json_pack(
        "{sss{s[s]}s[{sis[{sisissss}]}]}", "content", text, "allowed_mentions",
        "users", j->user, "components", "type", 1, "components", "type", 2,
        "style", 1, "label", cmd_tr(j->lang, "Show my hand"), "custom_id", id);
    snprintf(path, sizeof path, "/channels/%s/messages", j->game_channel);
    bot_dc_send_json(b, "POST", path, o, 0, NULL, NULL);
    json_decref(o);
  } else if (r->discord_code == 10003) { /* Unknown Channel */
    bot_dc_log(b, LOG_WARN,
               "a DM channel is gone; the next DM opens a new one");
    pthread_mutex_lock(&b->dm_mu);
    for (int i = 0; i < DM_CACHE; i++)
      if (strcmp(b->dm[i].user, j->user) == 0) {
        b->dm[i].channel[0] = '\0';
        b->dm[i].saved = false;
      }
    pthread_mutex_unlock(&b->dm_mu);
  } else if (r->status >= 300 || r->status == 0) {
    bot_dc_log(b, LOG_WARN, "a direct message failed: %d", r->status);
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
  dm_entry *e = dm_entry_of(b, user);
  snprintf(e->channel, sizeof e->channel, "%s", channel);
  e->saved = saved;
}
/* Writes the DM channels learnt since the last call to the database, in
 * one transaction (worker only: the database is the worker's). An entry
 * that could not be written stays unsaved for the next tick. */
/* The cache entry of user, made if need be (under dm_mu). */
static dm_entry *dm_entry_of(bot_discord *b, const char *user) {
  for (int i = 0; i < DM_CACHE; i++)
    if (strcmp(b->dm[i].user, user) == 0)
      return &b->dm[i];
  dm_entry *e = &b->dm[b->dm_pos++ % DM_CACHE];
  memset(e, 0, sizeof *e);
  e->saved = true; /* no channel to save */
  e->closed_saved = true;
  e->noticed_saved = true;
  snprintf(e->user, sizeof e->user, "%s", user);
  return e;
}

/* Notes that user's DMs are closed (since `when`, as a DM queued at
 * `queued` found) or open again (when 0: the user sent a command at
 * `queued`); the worker's next dm_save writes it down. A refusal of a DM
 * queued before the user's latest command is old news: it closes
 * nothing. */
static void mark_closed(bot_discord *b, const char *user, int64_t when,
                        double queued) {
  pthread_mutex_lock(&b->dm_mu);
  dm_entry *e = dm_entry_of(b, user);
  if (!when)
    e->heard = queued;
  else if (queued < e->heard)
    when = e->closed;
  if ((e->closed != 0) != (when != 0)) {
    e->closed = when;
    e->closed_saved = false;
  }
  pthread_mutex_unlock(&b->dm_mu);
}

/* Whether user's DMs are known closed: the cache, else the database (the
 * worker's; then cached). */
static bool dm_closed(bot_discord *b, const char *user) {
  pthread_mutex_lock(&b->dm_mu);
  dm_entry *e = NULL;
  for (int i = 0; i < DM_CACHE && !e; i++)
    if (strcmp(b->dm[i].user, user) == 0)
      e = &b->dm[i];
  bool known = e != NULL, closed = e && e->closed != 0;
  pthread_mutex_unlock(&b->dm_mu);
  if (known)
    return closed;
  char scope[48], v[24] = "";
  long long when = 0;
  snprintf(scope, sizeof scope, "user:%s", user);
  if (sto_setting_get(b->db, scope, "dm_closed", v, sizeof v) != STO_OK ||
      !v[0])
    return false;
  char *end;
  when = strtoll(v, &end, 10);
  if (*end || when <= 0)
    return false;
  pthread_mutex_lock(&b->dm_mu);
  dm_entry *n = dm_entry_of(b, user);
  n->closed = when;
  n->closed_saved = true;
  pthread_mutex_unlock(&b->dm_mu);
  return true;
}

/* Whether game's channel was told that user's DMs are closed: the cache,
 * read from the database the first time (worker only). */
static bool noticed_before(bot_discord *b, const char *user, int64_t game) {
  pthread_mutex_lock(&b->dm_mu);
  dm_entry *e = dm_entry_of(b, user);
  bool loaded = e->noticed_loaded;
  bool told = was_noticed(e, game);
  pthread_mutex_unlock(&b->dm_mu);
  if (loaded)
    return told;
  char scope[48], v[DM_NOTICED * 21 + 1] = "";
  snprintf(scope, sizeof scope, "user:%s", user);
  sto_rc rc = sto_setting_get(b->db, scope, "dm_noticed", v, sizeof v);
  bool read = rc == STO_OK || rc == STO_NOT_FOUND;
  if (rc != STO_OK)
    v[0] = '\0';
  pthread_mutex_lock(&b->dm_mu);
  e = dm_entry_of(b, user);
  for (const char *p = v; read && *p;) { /* "12 40 41": oldest first */
    char *end;
    long long id = strtoll(p, &end, 10);
    if (end == p || id <= 0)
      break;
    if (!was_noticed(e, id))
      e->noticed[e->n_noticed++ % DM_NOTICED] = id;
    p = end + strspn(end, " ");
  }
  e->noticed_loaded = read;
  told = was_noticed(e, game);
  pthread_mutex_unlock(&b->dm_mu);
  return told;
}

void bot_dc_dm_heard_from(bot_discord *b, const char *user) {
  double now = bot_dc_now();
  if (dm_closed(b, user)) {
    mark_closed(b, user, 0, now);
    bot_dc_log(b, LOG_DEBUG,
               "a member whose DMs were closed sent a "
               "command: DMs are tried again");
    return;
  }
  pthread_mutex_lock(&b->dm_mu); /* a DM refused later is old news */
  for (int i = 0; i < DM_CACHE; i++)
    if (strcmp(b->dm[i].user, user) == 0)
      b->dm[i].heard = now;
  pthread_mutex_unlock(&b->dm_mu);
}

void bot_dc_dm_save(bot_discord *b) {
  bool begun = false, ok = true;
  bool written[DM_CACHE] = {false};
  char wrote[DM_CACHE][32]; /* what was written, valid where written[] */
  bool closed_written[DM_CACHE] = {false};
  int64_t closed_wrote[DM_CACHE];
  bool noticed_written[DM_CACHE] = {false};
  int wrote_noticed[DM_CACHE];
  for (int i = 0; i < DM_CACHE && ok; i++) {
    char user[32], channel[32], scope[48];
    pthread_mutex_lock(&b->dm_mu);
    bool merge =
        b->dm[i].user[0] && !b->dm[i].noticed_saved && !b->dm[i].noticed_loaded;
    memcpy(user, b->dm[i].user, sizeof user);
    pthread_mutex_unlock(&b->dm_mu);
    if (merge) /* the notices an earlier process gave are kept */
      noticed_before(b, user, 0);
    pthread_mutex_lock(&b->dm_mu);
    bool todo = b->dm[i].user[0] && !b->dm[i].saved;
    bool closed_todo = b->dm[i].user[0] && !b->dm[i].closed_saved;
    int64_t closed = b->dm[i].closed;
    bool noticed_todo = b->dm[i].user[0] && !b->dm[i].noticed_saved;
    int n_noticed = b->dm[i].n_noticed;
    char list[DM_NOTICED * 21 + 1] = "";
    size_t lo = 0;
    for (int k = n_noticed > DM_NOTICED ? n_noticed - DM_NOTICED : 0;
         k < n_noticed; k++) /* oldest first */
      lo +=
          (size_t)snprintf(list + lo, sizeof list - lo, "%s%lld", lo ? " " : "",
                           (long long)b->dm[i].noticed[k % DM_NOTICED]);
    memcpy(user, b->dm[i].user, sizeof user);
    memcpy(channel, b->dm[i].channel, sizeof channel);
    pthread_mutex_unlock(&b->dm_mu);
    if (!todo && !closed_todo && !noticed_todo)
      continue;
    if (!begun && sto_tx_begin(b->db) != STO_OK)
      break;
    begun = true;
    snprintf(scope, sizeof scope, "user:%s", user);
    if (todo) {
      ok = sto_setting_set(b->db, scope, "dm_channel", channel) == STO_OK;
      written[i] = ok;
      memcpy(wrote[i], channel, sizeof channel);
    }
    if (closed_todo && ok) {
      char v[24];
      snprintf(v, sizeof v, "%lld", (long long)closed);
      ok = sto_setting_set(b->db, scope, "dm_closed", v) == STO_OK;
      closed_written[i] = ok;
      closed_wrote[i] = closed;
    }
    if (noticed_todo && ok) {
      ok = sto_setting_set(b->db, scope, "dm_noticed", list) == STO_OK;
      noticed_written[i] = ok;
      wrote_noticed[i] = n_noticed;
    }
  }
  if (begun && sto_tx_end(b->db, ok) == STO_OK && ok) {
    pthread_mutex_lock(&b->dm_mu);
    for (int i = 0; i < DM_CACHE; i++) { /* unless it changed meanwhile */
      if (written[i] && strcmp(b->dm[i].channel, wrote[i]) == 0)
        b->dm[i].saved = true;
      if (closed_written[i] && b->dm[i].closed == closed_wrote[i])
        b->dm[i].closed_saved = true;
      if (noticed_written[i] && b->dm[i].n_noticed == wrote_noticed[i])
        b->dm[i].noticed_saved = true;
    }
    pthread_mutex_unlock(&b->dm_mu);
  } else if (begun) {
    bot_dc_log(b, LOG_WARN,
               "could not save the DM channels; the next tick tries "
               "again");
  }
}

static void dm_post(dm_job *j, const char *channel) {
  if (!j->body) { /* a later DM waiting behind the same opening replaced it */
    dm_free(j);
    return;
  }
  if (j->edit[0]) { /* a turn's DM, kept up to date in place */
    char *body = bot_unpack(j->body);
    free(j->body);
    j->body = NULL;
    if (!body || bot_dc_send_edited(j->b, channel, j->edit, j->gen, body, NULL,
                                    dm_sent, j)) {
      bot_dc_log(j->b, LOG_WARN, "could not queue a direct message");
      dm_free(j);
    }
    return;
  }
  char path[80];
  snprintf(path, sizeof path, "/channels/%s/messages", channel);
  /* The REST queue keeps its own copy: j's goes now, before j is
   * handed over (dm_sent may free j as soon as it is queued). */
  bot_discord *b = j->b;
  char *text = bot_unpack(j->body);
  free(j->body);
  j->body = NULL;
  if (!text ||
      (j->latest[0]
           ? bot_rest_send_latest(b->rest, "POST", path, text, j->latest,
                                  j->gen, dm_sent, j)
           : bot_rest_send(b->rest, "POST", path, text, 0, dm_sent, j))) {
    bot_dc_log(b, LOG_WARN, "could not queue a direct message");
    dm_free(j);
  }
  free(text);
}

/* The DM channel of j's user opened (or not): j and the DMs waiting
 * behind it go, in order, before any later DM can use the cache. */
static void dm_opened(void *ctx, const bot_rest_result *r) {
  dm_job *j = ctx;
  bot_discord *b = j->b;
  char id[sizeof b->dm[0].channel];
  bool ok = r->status == 200 && bot_dc_body_id(r->body, id, sizeof id);
  if (!ok)
    bot_dc_log(b, LOG_WARN, "could not open a DM channel: %d", r->status);
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
}

static bool dm_replaces(const dm_job *later, const dm_job *j) {
  if (!j->body || j->gen >= later->gen)
    return false;
  if (later->latest[0]) /* a newer message of the same slot */
    return strcmp(j->latest, later->latest) == 0;
  /* a newer text of the same kept message (a turn's DM): only the
     newest is ever shown */
  return later->edit[0] && strcmp(j->edit, later->edit) == 0;
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

void bot_dc_send_dm(bot_discord *b, const out_msg *m) {
  if (dm_closed(b, m->user)) {
    /* Discord refused them already: not tried on every turn, until the
     * member sends a command again (bot_dc_dm_heard_from). */
    __atomic_add_fetch(&b->stats.dm_skipped, 1, __ATOMIC_RELAXED);
    return;
  }
  char edit[112];
  bot_dc_edit_key(m, edit, sizeof edit);
  size_t nlatest = strnlen(m->latest, sizeof m->latest - 1),
         nedit = strlen(edit);
  dm_job *j = calloc(1, sizeof *j + nlatest + 1 + nedit + 1);
  if (!j)
    return;
  memcpy(j->s, m->latest, nlatest);
  memcpy(j->s + nlatest + 1, edit, nedit);
  j->latest = j->s;
  j->edit = j->s + nlatest + 1;
  j->b = b;
  j->noticed = noticed_before(b, m->user, m->game);
  j->queued = bot_dc_now();
  snprintf(j->user, sizeof j->user, "%s", m->user);
  snprintf(j->game_channel, sizeof j->game_channel, "%s", m->channel);
  j->game = m->game;
  j->gen = m->gen;
  j->lang = m->lang;
  /* A DM shows a seat's own things, never the table's picture (which no
   * DM is given: its files would have nowhere to wait). */
  out_msg plain = bot_dc_without_picture(m);
  plain.file_name = NULL;
  json_t *body = bot_dc_message_body(&plain, false);
  char *text = json_dumps(body, JSON_COMPACT);
  json_decref(body);
  j->body = text ? bot_pack(text) : NULL;
  free(text);
  if (!j->body) {
    free(j);
    return;
  }
  char ch[32] = "", scope[48], stored[32] = "";
  pthread_mutex_lock(&b->dm_mu);
  /* An entry may hold no channel yet (made for closed DMs or notices). */
  bool known = dm_cached(b, j->user, ch) && ch[0];
  pthread_mutex_unlock(&b->dm_mu);
  if (!known) { /* opened before a restart, or beyond the cache */
    snprintf(scope, sizeof scope, "user:%s", j->user);
    if (sto_setting_get(b->db, scope, "dm_channel", stored, sizeof stored) ==
            STO_OK &&
        bot_dc_snowflake_ok(stored))
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
  if (first) { /* its channel is being opened: wait behind it */
    if (j->latest[0] || j->edit[0]) /* what j makes pointless need not wait */
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
  if (!bot_dc_send_json(b, "POST", "/users/@me/channels", o, 0, dm_opened, j)) {
    bot_rest_result failed = {.status = 0, .error = "not queued"};
    dm_opened(j, &failed);
  }
  json_decref(o);
}

/* ---- collecting a command's messages ----------------------------------- */

/* A copy of an attachment's bytes (len + 1 bytes, so that an empty one
 * is a block too), its name's copy in *name; on failure NULL and *name
 * NULL: the message goes without it. */
static void *copy_attachment(const char *name, const void *data, size_t len,
                             char **name_copy) {
  *name_copy = strdup(name);
  void *copy = *name_copy ? malloc(len + 1) : NULL;
  if (!copy) {
    free(*name_copy);
    *name_copy = NULL;
    return NULL;
  }
  memcpy(copy, data, len);
  return copy;
}

/* The turn of a table key "turn:N". */
static bool table_turn(const char *key, int *turn) {
  if (strncmp(key, "turn:", 5) != 0)
    return false;
  char *end;
  errno = 0;
  long t = strtol(key + 5, &end, 10);
  if (errno || *end || end == key + 5 || t < 0 || t > INT_MAX)
    return false;
  *turn = (int)t;
  return true;
}

/* name with Markdown's marks escaped, so that a server called "*x*"
 * reads as it is called. */
static void plain_name(const char *name, char *out, size_t cap) {
  size_t o = 0;
  for (const char *p = name; *p && o + 2 < cap; p++) {
    if (strchr("\\*_~`|>", *p))
      out[o++] = '\\';
    out[o++] = *p;
  }
  out[o] = '\0';
}

/* m's text, malloc'd; a DM about a game gets, at the end of its first
 * line (the game's header), the name of the game's server, where Lair
 * has heard it, and a link to the game's latest table post in its
 * channel: the message of m->table's turn, or of the turn before while
 * the new turn's message is still being posted (it is posted with this
 * DM). */
static char *table_link(bot_discord *b, const cmd_msg *m) {
  char id[32] = "", key[200], edit[64];
  int turn = 0;
  bool found = false, about_game = m->to == CMD_TO_DM && m->piece == 0 &&
                                   m->game && m->guild && m->guild[0];
  if (about_game && m->table && m->channel && table_turn(m->table, &turn))
    for (int t = turn; t >= turn - 1 && t >= 0 && !found; t--) {
      snprintf(edit, sizeof edit, "%" PRId64 ":turn:%d", m->game, t);
      snprintf(key, sizeof key, "c:%s:%s", m->channel, edit);
      found = bot_dc_edit_id(b, key, id, sizeof id);
    }
  char name[400], plain[820], add[1100] = "";
  int n = 0;
  if (about_game && bot_dc_guild_name(b, m->guild, name, sizeof name)) {
    plain_name(name, plain, sizeof plain);
    n = snprintf(add, sizeof add, cmd_tr(m->lang, " on %s"), plain);
  }
  if (found && n >= 0 && (size_t)n < sizeof add)
    n += snprintf(add + n, sizeof add - (size_t)n,
                  cmd_tr(m->lang, " - the table: "
                                  "https://discord.com/channels/%s/%s/%s"),
                  m->guild, m->channel, id);
  const char *nl = strchr(m->text, '\n');
  size_t len = strlen(m->text), cap = m->title ? 4000 : CMD_TEXT_MAX;
  if (!nl || n <= 0 || (size_t)n >= sizeof add || len + (size_t)n > cap)
    return strdup(m->text);
  char *t = malloc(len + (size_t)n + 1);
  if (!t)
    return strdup(m->text);
  size_t head = (size_t)(nl - m->text);
  memcpy(t, m->text, head);
  memcpy(t + head, add, (size_t)n);
  memcpy(t + head + (size_t)n, nl, len - head + 1);
  return t;
}

void bot_dc_collect(void *ctx, const cmd_msg *m) {
  bot_discord *b = ctx;
  if (b->n_msgs == MAX_MSGS)
    return;
  out_msg *o = &b->msgs[b->n_msgs];
  memset(o, 0, sizeof *o);
  o->to = m->to;
  snprintf(o->user, sizeof o->user, "%s", m->user ? m->user : "");
  snprintf(o->channel, sizeof o->channel, "%s", m->channel ? m->channel : "");
  o->text = table_link(b, m);
  o->game = m->game;
  o->version = m->version;
  snprintf(o->mention, sizeof o->mention, "%s", m->mention ? m->mention : "");
  if (m->piece == 0)
    b->gen++;
  o->gen = b->gen;
  if (m->slot && m->game)
    snprintf(o->latest, sizeof o->latest, "%s:%" PRId64, m->slot, m->game);
  if (m->edit && m->game) {
    snprintf(o->edit, sizeof o->edit, "%" PRId64 ":%s", m->game, m->edit);
    char key[sizeof b->edits[0].key];
    bot_dc_edit_key(o, key, sizeof key);
    bot_dc_edit_recall(b, key);
  }
  bot_dc_embed_keep(o, m);
  o->lobby = m->lobby;
  o->ended = m->ended;
  o->lang = m->lang;
  if (m->file_name && m->file_data) {
    o->file_data =
        copy_attachment(m->file_name, m->file_data, m->file_len, &o->file_name);
    o->file_len = o->file_data ? m->file_len : 0;
  }
  if (m->image_name && m->image_data && m->image_len &&
      bot_rest_file_bytes(b->rest) + m->image_len > PICTURES_WAITING_MAX) {
    /* Far behind Discord's limits, pictures would pile up: the message
     * goes without its picture (an edit then shows none, never an older
     * one) until the backlog drains. */
    bot_dc_log(b, LOG_DEBUG, "a picture was left out: %zu bytes of files wait",
               bot_rest_file_bytes(b->rest));
  } else if (m->image_name && m->image_data && m->image_len) {
    /* Out of memory: the message goes without its picture. */
    o->image_data = copy_attachment(m->image_name, m->image_data, m->image_len,
                                    &o->image_name);
    o->image_len = o->image_data ? m->image_len : 0;
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

void bot_dc_clear_msgs(bot_discord *b) {
  for (int i = 0; i < b->n_msgs; i++) {
    bot_dc_embed_drop(&b->msgs[i]);
    free(b->msgs[i].text);
    free(b->msgs[i].options);
    free(b->msgs[i].file_name);
    free(b->msgs[i].file_data);
    free(b->msgs[i].image_name);
    free(b->msgs[i].image_data);
  }
  b->n_msgs = 0;
}
