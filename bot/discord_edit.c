/*
 * discord_edit.c: messages Lair keeps up to date in place. A turn is one
 * channel message, and one DM for the player who decides, edited as the
 * turn goes on (cmd_msg.edit): the first text of a key is POSTed, later
 * ones PATCH the message that POST made. A text that comes while the
 * POST is still under way waits for its id (only the newest waits);
 * PATCHes of one message go through bot_rest_send_latest, so a backlog
 * behind a rate limit holds only the newest text. A message someone
 * deleted (Unknown Message) is forgotten, and the next text is posted
 * anew. The table is a cache of the database's `kept` rows: each id it
 * learns is recorded there by the worker (bot_dc_edit_save), and a key it
 * does not hold is looked up there before its text goes out
 * (bot_dc_edit_recall), so that another Lair process on the same
 * database, or this one after a restart, edits the message rather than
 * posting another. A key found nowhere gets a new message. Such a message is an
 * embed: the turn's title, its text as the description, the table's
 * fields (a player each) and the game's colour, and the picture of the
 * table as its image: a body and its files travel as one, so whichever
 * text wins a wait shows its own picture, never an older one.
 */
#include "discord_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* A POST or PATCH of a kept message, from its queueing to its outcome.
 * As many wait behind rate limits as there are games moving, so it is
 * one block sized to its strings. */
typedef struct edit_call {
  bot_discord *b;
  bot_rest_done done;
  void *ctx;
  const char *channel; /* in the same block, after the key */
  char key[];          /* the entry's key, then the channel */
} edit_call;

/* The entry of key, or NULL (under edit_mu). */
static edit_entry *find(bot_discord *b, const char *key) {
  for (int i = 0; i < EDIT_CACHE; i++)
    if (b->edits[i].key[0] && strcmp(b->edits[i].key, key) == 0)
      return &b->edits[i];
  return NULL;
}

/* Sets e's message id, to be recorded in the database (under edit_mu). */
static void learnt(bot_discord *b, edit_entry *e, const char *id) {
  snprintf(e->id, sizeof e->id, "%s", id);
  e->saved = false;
  b->edits_unsaved = true;
}

/* Wakes the worker, so that a new id is recorded before another process
 * may need it (bot_dc_edit_save). */
static void wake_worker(bot_discord *b) {
  pthread_mutex_lock(&b->mu);
  pthread_cond_signal(&b->cv);
  pthread_mutex_unlock(&b->mu);
}

/* A body waiting for its message's id, taken out of an entry. */
typedef struct waiting {
  bot_packed *body;
  dc_files *files;
  uint64_t gen;
  bot_rest_done done;
  void *ctx;
} waiting;

/* Empties e's waiting body into *w (under edit_mu; the caller tells its
 * sender after unlocking). */
static void take_pending(edit_entry *e, waiting *w) {
  w->body = e->pending;
  w->files = e->pending_files;
  w->gen = e->pending_gen;
  w->done = e->pending_done;
  w->ctx = e->pending_ctx;
  e->pending = NULL;
  e->pending_files = NULL;
  e->pending_done = NULL;
}

static void superseded(bot_rest_done done, void *ctx) {
  if (done) {
    bot_rest_result r = {.status = 0, .superseded = true, .body = ""};
    done(ctx, &r);
  }
}

/* Drops a waiting body a newer one replaced, telling its sender. */
static void drop_waiting(waiting *w) {
  free(w->body);
  free(w->files);
  superseded(w->done, w->ctx);
}

static int patch(bot_discord *b, const char *channel, const char *id,
                 const char *key, uint64_t gen, char *body, dc_files *files,
                 bot_rest_done done, void *ctx);

/* Queues method path with body and its files (taken over), replacing
 * unsent predecessors of latest (if not NULL). */
static int send(bot_discord *b, const char *method, const char *path,
                char *body, dc_files *files, const char *latest, uint64_t gen,
                bot_rest_done done, void *ctx) {
  int rc;
  if (files)
    rc = bot_rest_send_files(b->rest, method, path, body, files->f, files->n,
                             latest, gen, 0, done, ctx);
  else if (latest)
    rc = bot_rest_send_latest(b->rest, method, path, body, latest, gen, done,
                              ctx);
  else
    rc = bot_rest_send(b->rest, method, path, body, 0, done, ctx);
  free(body);
  free(files);
  return rc;
}

static void patched(void *arg, const bot_rest_result *r) {
  edit_call *k = arg;
  if (r->status == 404 && r->discord_code == 10008) { /* deleted by someone */
    pthread_mutex_lock(&k->b->edit_mu);
    edit_entry *e = find(k->b, k->key);
    if (e && !e->pending)
      memset(e, 0, sizeof *e);
    pthread_mutex_unlock(&k->b->edit_mu);
  }
  if (k->done)
    k->done(k->ctx, r);
  free(k);
}

static void posted(void *arg, const bot_rest_result *r) {
  edit_call *k = arg;
  bot_discord *b = k->b;
  char message[sizeof b->edits[0].id];
  bool ok = r->status == 200 &&
            bot_dc_body_id(r->body, message, sizeof message);
  waiting w = {0};
  pthread_mutex_lock(&b->edit_mu);
  edit_entry *e = find(b, k->key);
  if (e) {
    take_pending(e, &w);
    if (ok)
      learnt(b, e, message);
    else
      memset(e, 0, sizeof *e); /* the next text posts anew */
  }
  pthread_mutex_unlock(&b->edit_mu);
  if (e && ok)
    wake_worker(b);
  if (k->done)
    k->done(k->ctx, r);
  char *body = w.body ? bot_unpack(w.body) : NULL;
  if (w.body && !body) {
    drop_waiting(&w);
  } else if (body) { /* the newest text waited for this message */
    free(w.body);
    int rc = ok ? patch(b, k->channel, message, k->key, w.gen, body, w.files,
                        w.done, w.ctx)
                : bot_dc_send_edited(b, k->channel, k->key, w.gen, body,
                                     w.files, w.done, w.ctx);
    if (rc) {
      bot_dc_log(b, LOG_WARN, "could not queue a message's newer text");
      superseded(w.done, w.ctx);
    }
  }
  free(k);
}

/* Cut like the entry's own key and channel, so find() matches. */
static edit_call *call_new(bot_discord *b, const char *channel, const char *key,
                           bot_rest_done done, void *ctx) {
  size_t klen = strnlen(key, sizeof b->edits[0].key - 1);
  size_t clen = strnlen(channel, sizeof b->edits[0].channel - 1);
  edit_call *k = malloc(sizeof *k + klen + 1 + clen + 1);
  if (!k)
    return NULL;
  k->b = b;
  k->done = done;
  k->ctx = ctx;
  memcpy(k->key, key, klen);
  k->key[klen] = '\0';
  char *ch = k->key + klen + 1;
  memcpy(ch, channel, clen);
  ch[clen] = '\0';
  k->channel = ch;
  return k;
}

/* PATCHes message id with body and its files (taken over). */
static int patch(bot_discord *b, const char *channel, const char *id,
                 const char *key, uint64_t gen, char *body, dc_files *files,
                 bot_rest_done done, void *ctx) {
  edit_call *k = call_new(b, channel, key, done, ctx);
  if (!k) {
    free(body);
    free(files);
    return -1;
  }
  char path[96];
  snprintf(path, sizeof path, "/channels/%s/messages/%s", channel, id);
  int rc = send(b, "PATCH", path, body, files, key, gen, patched, k);
  if (rc)
    free(k);
  return rc;
}

int bot_dc_send_edited(bot_discord *b, const char *channel, const char *key,
                       uint64_t gen, char *body, dc_files *files,
                       bot_rest_done done, void *ctx) {
  char id[24] = "";
  pthread_mutex_lock(&b->edit_mu);
  edit_entry *e = find(b, key);
  if (e && !e->id[0]) { /* its POST is under way: the newest text waits */
    bot_packed *now = bot_pack(body);
    waiting old;
    free(body);
    take_pending(e, &old);
    e->pending = now; /* packed: many may wait behind rate limits */
    e->pending_files = now ? files : NULL; /* a PNG packs no smaller */
    e->pending_gen = gen;
    e->pending_done = now ? done : NULL;
    e->pending_ctx = ctx;
    pthread_mutex_unlock(&b->edit_mu);
    drop_waiting(&old);
    if (!now) {
      free(files);
      superseded(done, ctx);
    }
    return 0;
  }
  if (e)
    snprintf(id, sizeof id, "%s", e->id);
  else { /* a new message: remembered at once, so later texts wait */
    e = &b->edits[b->edit_pos++ % EDIT_CACHE];
    waiting old;
    take_pending(e, &old);
    memset(e, 0, sizeof *e);
    snprintf(e->key, sizeof e->key, "%s", key);
    snprintf(e->channel, sizeof e->channel, "%s", channel);
    pthread_mutex_unlock(&b->edit_mu);
    drop_waiting(&old);
    edit_call *k = call_new(b, channel, key, done, ctx);
    if (!k) {
      free(body);
      free(files);
      return -1;
    }
    char path[80];
    snprintf(path, sizeof path, "/channels/%s/messages", channel);
    int rc = send(b, "POST", path, body, files, NULL, 0, posted, k);
    if (rc) {
      waiting lost = {0}; /* a text that came meanwhile goes nowhere */
      pthread_mutex_lock(&b->edit_mu);
      edit_entry *mine = find(b, key);
      if (mine) {
        take_pending(mine, &lost);
        memset(mine, 0, sizeof *mine);
      }
      pthread_mutex_unlock(&b->edit_mu);
      drop_waiting(&lost);
      free(k);
    }
    return rc;
  }
  pthread_mutex_unlock(&b->edit_mu);
  return patch(b, channel, id, key, gen, body, files, done, ctx);
}

bool bot_dc_edit_claim(bot_discord *b, const char *channel, const char *key,
                       bot_rest_done *posted_fn, void **posted_ctx) {
  pthread_mutex_lock(&b->edit_mu);
  if (find(b, key)) {
    pthread_mutex_unlock(&b->edit_mu);
    return false;
  }
  edit_call *k = call_new(b, channel, key, bot_dc_note_result, b);
  if (!k) {
    pthread_mutex_unlock(&b->edit_mu);
    return false;
  }
  edit_entry *e = &b->edits[b->edit_pos++ % EDIT_CACHE];
  waiting old;
  take_pending(e, &old); /* pushed out */
  memset(e, 0, sizeof *e);
  snprintf(e->key, sizeof e->key, "%s", key);
  snprintf(e->channel, sizeof e->channel, "%s", channel);
  pthread_mutex_unlock(&b->edit_mu);
  drop_waiting(&old);
  *posted_fn = posted;
  *posted_ctx = k;
  return true;
}

void bot_dc_edit_known(bot_discord *b, const char *key, const char *channel,
                       const char *id) {
  if (!id || !bot_dc_snowflake_ok(id))
    return;
  waiting old = {0};
  pthread_mutex_lock(&b->edit_mu);
  edit_entry *e = find(b, key);
  if (!e) {
    e = &b->edits[b->edit_pos++ % EDIT_CACHE];
    take_pending(e, &old); /* pushed out */
    memset(e, 0, sizeof *e);
    snprintf(e->key, sizeof e->key, "%s", key);
  }
  snprintf(e->channel, sizeof e->channel, "%s", channel);
  bool changed = strcmp(e->id, id) != 0 || !e->saved;
  if (changed)
    learnt(b, e, id);
  pthread_mutex_unlock(&b->edit_mu);
  drop_waiting(&old);
}

void bot_dc_edit_recall(bot_discord *b, const char *key) {
  pthread_mutex_lock(&b->edit_mu);
  bool known = find(b, key) != NULL;
  pthread_mutex_unlock(&b->edit_mu);
  char channel[sizeof b->edits[0].channel], id[sizeof b->edits[0].id];
  if (known || sto_kept_get(b->db, key, channel, sizeof channel, id,
                            sizeof id) != STO_OK ||
      !bot_dc_snowflake_ok(id))
    return;
  waiting old = {0};
  pthread_mutex_lock(&b->edit_mu);
  if (!find(b, key)) { /* still: only the worker adds keys by recall */
    edit_entry *e = &b->edits[b->edit_pos++ % EDIT_CACHE];
    take_pending(e, &old); /* pushed out */
    memset(e, 0, sizeof *e);
    snprintf(e->key, sizeof e->key, "%s", key);
    snprintf(e->channel, sizeof e->channel, "%s", channel);
    snprintf(e->id, sizeof e->id, "%s", id);
    e->saved = true;
  }
  pthread_mutex_unlock(&b->edit_mu);
  drop_waiting(&old);
}

bool bot_dc_edit_id(bot_discord *b, const char *key, char *id, size_t cap) {
  bot_dc_edit_recall(b, key);
  pthread_mutex_lock(&b->edit_mu);
  edit_entry *e = find(b, key);
  bool known = e && e->id[0];
  if (known)
    snprintf(id, cap, "%s", e->id);
  pthread_mutex_unlock(&b->edit_mu);
  return known;
}

/* Keys older than this are forgotten in the database: a turn that long
 * gets a new message at its next text. */
#define KEPT_DAYS 60
#define KEPT_SAVE_MAX 64 /* ids recorded per transaction */

void bot_dc_edit_save(bot_discord *b) {
  struct {
    char key[sizeof b->edits[0].key], channel[sizeof b->edits[0].channel],
        id[sizeof b->edits[0].id];
  } todo[KEPT_SAVE_MAX];
  int n = 0;
  pthread_mutex_lock(&b->edit_mu);
  bool more = b->edits_unsaved;
  b->edits_unsaved = false;
  for (int i = 0; more && i < EDIT_CACHE && n < KEPT_SAVE_MAX; i++) {
    edit_entry *e = &b->edits[i];
    if (e->key[0] && e->id[0] && !e->saved) {
      memcpy(todo[n].key, e->key, sizeof todo[n].key);
      memcpy(todo[n].channel, e->channel, sizeof todo[n].channel);
      memcpy(todo[n].id, e->id, sizeof todo[n].id);
      n++;
    }
  }
  if (n == KEPT_SAVE_MAX)
    b->edits_unsaved = true; /* the rest at the next turn */
  pthread_mutex_unlock(&b->edit_mu);
  int64_t now = (int64_t)time(NULL);
  bool prune = now - b->kept_pruned >= 3600;
  if (!n && !prune)
    return;
  bool ok = sto_tx_begin(b->db) == STO_OK;
  for (int i = 0; ok && i < n; i++)
    ok = sto_kept_set(b->db, todo[i].key, todo[i].channel, todo[i].id, now) ==
         STO_OK;
  if (ok && prune)
    ok = sto_kept_prune(b->db, now - KEPT_DAYS * 86400) == STO_OK;
  ok = sto_tx_end(b->db, ok) == STO_OK && ok;
  if (!ok) {
    bot_dc_log(b, LOG_WARN, "could not record the kept messages' ids; the "
                            "next turn tries again");
    pthread_mutex_lock(&b->edit_mu);
    b->edits_unsaved = true;
    pthread_mutex_unlock(&b->edit_mu);
    return;
  }
  if (prune)
    b->kept_pruned = now;
  pthread_mutex_lock(&b->edit_mu);
  for (int i = 0; i < n; i++) { /* unless it changed meanwhile */
    edit_entry *e = find(b, todo[i].key);
    if (e && strcmp(e->id, todo[i].id) == 0)
      e->saved = true;
  }
  pthread_mutex_unlock(&b->edit_mu);
}

void bot_dc_edit_key(const out_msg *m, char *key, size_t cap) {
  if (!m->edit[0]) {
    key[0] = '\0';
    return;
  }
  snprintf(key, cap, "%c:%s:%s", m->to == CMD_TO_CHANNEL ? 'c' : 'd',
           m->to == CMD_TO_CHANNEL ? m->channel : m->user, m->edit);
}

/* ---- the embed ------------------------------------------------------- */

/* Each field on a row of its own ("inline": false): side by side, a
 * player's lines would be squeezed into a column a third as wide. */
void bot_dc_embed_keep(out_msg *o, const cmd_msg *m) {
  o->title = m->title ? strdup(m->title) : NULL;
  o->colour = m->colour;
  o->fields = NULL;
  if (!o->title || m->n_fields <= 0)
    return;
  json_t *f = json_array();
  for (int i = 0; f && i < m->n_fields; i++)
    if (json_array_append_new(f, json_pack("{sssssb}", "name",
                                           m->fields[i].name, "value",
                                           m->fields[i].value, "inline", 0))) {
      json_decref(f); /* out of memory: the fields are left out */
      f = NULL;
    }
  o->fields = f;
}

void bot_dc_embed_drop(out_msg *o) {
  free(o->title);
  json_decref(o->fields);
  o->title = NULL;
  o->fields = NULL;
}

json_t *bot_dc_embed(const out_msg *m) {
  json_t *e = json_pack("{sssI}", "title", m->title ? m->title : "", "color",
                        (json_int_t)(m->colour ? m->colour : LAIR_COLOUR));
  if (e && m->text[0])
    json_object_set_new(e, "description", json_string(m->text));
  if (e && m->fields)
    json_object_set(e, "fields", m->fields);
  return e;
}
