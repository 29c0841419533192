/*
 * discord_ix.c: interactions: turning a slash command, a button, a select
 * menu or an autocomplete query into a cmd_request, and answering it from
 * what the command produced: the first channel message or the ephemeral
 * reply becomes the callback, the rest are follow-ups, channel posts and
 * DMs. Buttons and select menus carry the game id and state version in
 * their custom_id, so a stale or foreign click gets a clear ephemeral
 * error.
 */
#include "discord_http.h"
#include "discord_int.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- interactions ------------------------------------------------------- */

/* Seconds after its arrival past which a command's answer is deferred
 * rather than sent: Discord waits 3 s for a callback, and one carrying a
 * picture takes a moment to upload. */
#define ANSWER_LATE 2.0

/* Follow-ups and edits of an interaction's answer are valid only once
 * Discord has acknowledged its callback, and the callback travels in a
 * lane of its own: they wait behind a gate that the callback's outcome
 * opens (2xx: they are sent) or shuts (they are dropped). */
typedef struct gated {
  struct gated *next;
  char method[8];
  char *path, *body;
  dc_files *files; /* its attachments (multipart), or NULL */
  /* Its outcome's handler (a kept message's first POST), or NULL for
   * bot_dc_note_result; told of a drop too, once. */
  bot_rest_done done;
  void *done_ctx;
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

static void gated_free(gated *q) {
  while (q) {
    gated *next = q->next;
    if (q->done) { /* never sent */
      bot_rest_result r = {.status = 0, .error = "dropped", .body = ""};
      q->done(q->done_ctx, &r);
    }
    free(q->path);
    free(q->body);
    free(q->files);
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

/* Queues a gated request; nonzero when it could not. Its done handler
 * (if any) is the REST queue's once queued. */
static int gated_post(bot_discord *b, gated *q) {
  bot_rest_done done = q->done ? q->done : bot_dc_note_result;
  void *ctx = q->done ? q->done_ctx : b;
  int rc =
      q->files
          ? bot_rest_send_files(b->rest, q->method, q->path, q->body,
                                q->files->f, q->files->n, NULL, 0, 0, done, ctx)
          : bot_rest_send(b->rest, q->method, q->path, q->body, 0, done, ctx);
  if (!rc)
    q->done = NULL;
  return rc;
}

/* The callback's outcome, on the REST thread. */
static void gate_acked(void *ctx, const bot_rest_result *r) {
  ack_gate *g = ctx;
  bot_discord *b = g->b;
  bool ok = r->status >= 200 && r->status < 300;
  if (!ok)
    bot_dc_log(b, LOG_WARN, "an interaction callback failed: %d %s", r->status,
               r->error ? r->error : "");
  else /* for bench/bench_discord.py: the bot's own share of the latency */
    bot_dc_log(b, LOG_DEBUG,
               "interaction answered: callback queued %.3f ms, sent %.3f ms, "
               "acknowledged %.3f ms after the event arrived",
               (g->queued - g->received) * 1000.0,
               r->sent_at > 0 ? (r->sent_at - g->received) * 1000.0 : -1.0,
               (bot_dc_now() - g->received) * 1000.0);
  pthread_mutex_lock(&b->gate_mu);
  gated *list = g->head;
  g->head = g->tail = NULL;
  g->state = ok ? GATE_OPEN : GATE_SHUT;
  pthread_mutex_unlock(&b->gate_mu);
  for (gated *q = list; q && ok; q = q->next)
    if (gated_post(b, q))
      bot_dc_log(b, LOG_WARN, "could not queue an answer's follow-up");
  if (list && !ok)
    bot_dc_log(b, LOG_WARN, "an answer's follow-ups were dropped");
  gated_free(list);
  gate_release(g);
}

/* Sends a follow-up or an edit of x's answer once its callback is
 * acknowledged; with the files m carries (its record, its picture), when
 * m is not NULL; its outcome to done (ctx), when not NULL, which is told
 * of a drop too. */
static void gate_send_done(bot_discord *b, const ix *x, const char *method,
                           const char *path, json_t *body, const out_msg *m,
                           bot_rest_done done, void *ctx) {
  gated *q = calloc(1, sizeof *q);
  if (!q) {
    if (done) {
      bot_rest_result r = {.status = 0, .error = "out of memory", .body = ""};
      done(ctx, &r);
    }
    return;
  }
  q->done = done;
  q->done_ctx = ctx;
  snprintf(q->method, sizeof q->method, "%s", method);
  q->path = strdup(path);
  q->body = json_dumps(body, JSON_COMPACT);
  bool nomem = false;
  if (m)
    q->files = bot_dc_files_copy(m, &nomem);
  if (!q->path || !q->body || nomem) {
    gated_free(q);
    return;
  }
  ack_gate *g = x->gate;
  if (!g) {
    if (gated_post(b, q))
      bot_dc_log(b, LOG_WARN, "could not queue an answer's follow-up");
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
    bot_dc_log(b, LOG_WARN, "could not queue an answer's follow-up");
  if (state == GATE_SHUT)
    bot_dc_log(b, LOG_WARN, "an answer's follow-up was dropped");
  if (state != GATE_WAITING)
    gated_free(q);
}

static void gate_send_msg(bot_discord *b, const ix *x, const char *method,
                          const char *path, json_t *body, const out_msg *m) {
  gate_send_done(b, x, method, path, body, m, NULL, NULL);
}

/* An interaction id as a number: its snowflake, or, should Discord ever
 * send an id that is not one, a 64-bit hash of its text. */
static uint64_t id_number(const char *id) {
  uint64_t v = 0;
  const char *p = id;
  for (; *p >= '0' && *p <= '9'; p++) {
    unsigned d = (unsigned)(*p - '0');
    if (v > (UINT64_MAX - d) / 10)
      break;
    v = v * 10 + d;
  }
  if (p != id && !*p)
    return v;
  uint64_t h = 14695981039346656037u; /* FNV-1a */
  for (p = id; *p; p++)
    h = (h ^ (unsigned char)*p) * 1099511628211u;
  return h;
}

static bool seen_before(bot_discord *b, const char *id) {
  uint64_t v = id_number(id);
  unsigned n = b->seen_n < SEEN_MAX ? b->seen_n : SEEN_MAX;
  for (unsigned i = 0; i < n; i++)
    if (b->seen[i] == v)
      return true;
  b->seen[b->seen_n++ % SEEN_MAX] = v;
  if (b->seen_n == 2 * SEEN_MAX) /* the same slot, without wrapping */
    b->seen_n = SEEN_MAX;
  return false;
}

static void followup(bot_discord *b, const ix *x, json_t *body,
                     const out_msg *m);
static void edit_original(bot_discord *b, const ix *x, json_t *body,
                          const out_msg *m);

/* An answer the HTTP endpoint had to defer before the worker gave it
 * (discord_http.c) goes where Discord now expects it: a message edits
 * the deferred message (after a type 5) or follows up (after a
 * component's type 6, which deferred an update of the clicked message);
 * an update edits the clicked message. A deferral, an autocomplete's
 * choices or a modal come too late to mean anything. */
static void http_late_answer(bot_discord *b, const ix *x, json_t *body,
                             const out_msg *m, int deferred) {
  int type = (int)json_integer_value(json_object_get(body, "type"));
  json_t *data = json_object_get(body, "data");
  if (type == 4 && deferred == 6) {
    followup(b, x, data, m);
  } else if ((type == 4 && deferred == 5) || (type == 7 && deferred == 6)) {
    json_t *copy = json_deep_copy(data);
    if (copy)
      edit_original(b, x, copy, m);
    json_decref(copy);
  } else if (type != 5 && type != 6) {
    bot_dc_log(b, LOG_DEBUG,
               "an answer of type %d came after the endpoint deferred "
               "(type %d); dropped",
               type, deferred);
  }
}

/* The REST callback of an interaction that came over HTTP is done: its
 * request is answered 202, then the gate opens or shuts. */
typedef struct http_acked {
  bot_discord *b;
  uint64_t handle;
  ack_gate *g;
} http_acked;

static void http_rest_acked(void *ctx, const bot_rest_result *r) {
  http_acked *a = ctx;
  bot_http_rest_done(a->b->http, a->handle);
  if (a->g)
    gate_acked(a->g, r);
  else
    bot_dc_note_result(a->b, r);
  free(a);
}

/* Answers x with body; with the files m carries (multipart) when m is
 * not NULL. An interaction that came over HTTP is answered in its HTTP
 * response when it can be (discord_http.h). */
static void callback_msg(bot_discord *b, const ix *x, json_t *body,
                         const out_msg *m) {
  char path[800];
  snprintf(path, sizeof path, "/interactions/%s/%s/callback", x->id, x->token);
  ack_gate *g = x->gate;
  if (g) {
    pthread_mutex_lock(&b->gate_mu);
    g->refs++;
    g->queued = bot_dc_now();
    pthread_mutex_unlock(&b->gate_mu);
  }
  bot_rest_file files[2];
  int n = m ? bot_dc_files(m, files) : 0;
  bot_rest_done done = g ? gate_acked : bot_dc_note_result;
  void *done_ctx = g ? (void *)g : (void *)b;
  if (x->http && b->http) {
    char *text = n ? NULL : json_dumps(body, JSON_COMPACT);
    int deferred = 0;
    bot_http_answer a =
        n || text ? bot_http_respond(b->http, x->http, text, &deferred,
                                     g ? gate_acked : NULL, g)
                  : BOT_HTTP_GONE;
    free(text);
    if (a == BOT_HTTP_BODY || a == BOT_HTTP_DEFERRED) {
      if (!g) /* nothing waits for the outcome */
        bot_dc_log(b, LOG_DEBUG, "an HTTP answer without a gate");
      if (a == BOT_HTTP_DEFERRED)
        http_late_answer(b, x, body, m, deferred);
      __atomic_add_fetch(&b->stats.callbacks, 1, __ATOMIC_RELAXED);
      return;
    }
    http_acked *ha = a == BOT_HTTP_REST ? malloc(sizeof *ha) : NULL;
    if (ha) {
      *ha = (http_acked){b, x->http, g};
      done = http_rest_acked;
      done_ctx = ha;
    } else if (a == BOT_HTTP_REST) {
      bot_http_rest_done(b->http, x->http);
    }
  }
  bool queued;
  if (n) { /* the picture rides on the callback: one request, no wait */
    char *text = json_dumps(body, JSON_COMPACT);
    queued = text &&
             bot_rest_send_files(b->rest, "POST", path, text, files, n, NULL, 0,
                                 BOT_REST_INTERACTION, done, done_ctx) == 0;
    free(text);
    if (!queued)
      bot_dc_log(b, LOG_WARN, "could not queue an interaction's answer");
  } else {
    queued = bot_dc_send_json(b, "POST", path, body, BOT_REST_INTERACTION, done,
                              done_ctx);
  }
  if (!queued) {
    bot_rest_result failed = {.status = 0, .error = "not queued"};
    done(done_ctx, &failed);
  }
  __atomic_add_fetch(&b->stats.callbacks, 1, __ATOMIC_RELAXED);
}

static void callback(bot_discord *b, const ix *x, json_t *body) {
  callback_msg(b, x, body, NULL);
}

/* A follow-up message to x's answer, with the file m carries (m may be
 * NULL). */
static void followup(bot_discord *b, const ix *x, json_t *body,
                     const out_msg *m) {
  char path[800];
  snprintf(path, sizeof path, "/webhooks/%s/%s", b->app_id, x->token);
  gate_send_msg(b, x, "POST", path, body, m);
}

/* Edits x's deferred answer into body, with m's files (m may be NULL). */
static void edit_original(bot_discord *b, const ix *x, json_t *body,
                          const out_msg *m) {
  char path[800];
  snprintf(path, sizeof path, "/webhooks/%s/%s/messages/@original", b->app_id,
           x->token);
  json_object_del(body, "flags"); /* fixed when the response was deferred */
  gate_send_msg(b, x, "PATCH", path, body, m);
}

/* Sends body to path: as multipart when m carries files, replacing an
 * unsent predecessor when m has a slot. */
static void send_msg_body(bot_discord *b, const char *method, const char *path,
                          const out_msg *m, json_t *body) {
  char *text = json_dumps(body, JSON_COMPACT);
  bot_rest_file files[2];
  int n = bot_dc_files(m, files);
  int rc = -1;
  if (text && n)
    rc = bot_rest_send_files(b->rest, method, path, text, files, n,
                             m->latest[0] ? m->latest : NULL, m->gen, 0,
                             bot_dc_note_result, b);
  else if (text && m->latest[0])
    rc = bot_rest_send_latest(b->rest, method, path, text, m->latest, m->gen,
                              bot_dc_note_result, b);
  else if (text)
    rc = bot_rest_send(b->rest, method, path, text, 0, bot_dc_note_result, b);
  if (rc)
    bot_dc_log(b, LOG_WARN, "could not queue a message");
  free(text);
}

/* Posts m in its game's channel (or edits the message it keeps up to
 * date). */
static void post_channel(bot_discord *b, const out_msg *m) {
  char key[112];
  bot_dc_edit_key(m, key, sizeof key);
  if (key[0]) {
    json_t *body = bot_dc_message_body(m, false);
    char *text = body ? json_dumps(body, JSON_COMPACT) : NULL;
    json_decref(body);
    bool nomem = false;
    dc_files *files = bot_dc_files_copy(m, &nomem);
    if (!text || nomem ||
        bot_dc_send_edited(b, m->channel, key, m->gen, text, files,
                           bot_dc_note_result, b)) {
      if (!text || nomem) {
        free(text);
        free(files);
      }
      bot_dc_log(b, LOG_WARN, "could not queue a message");
    }
    return;
  }
  char path[80];
  snprintf(path, sizeof path, "/channels/%s/messages", m->channel);
  json_t *body = bot_dc_message_body(m, false);
  send_msg_body(b, "POST", path, m, body);
  json_decref(body);
}

/* Answers x with message body (taken over) and m's files (m may be
 * NULL): the callback, or the edit of the deferred answer. */
static void answer_with(bot_discord *b, const ix *x, bool deferred,
                        json_t *body, const out_msg *m) {
  if (deferred) {
    edit_original(b, x, body, m);
  } else {
    json_t *o = json_pack("{siso}", "type", 4, "data", body);
    callback_msg(b, x, o, m);
    json_decref(o);
    body = NULL;
  }
  json_decref(body);
}

/* A new turn's DM for the player who clicked in their DM goes as a
 * follow-up of the click: its own rate limit, not the DM channel's 5
 * messages in 5 s, which a quick player's passing turns would spend, so
 * the next question never waits behind them. It is kept up to date in
 * place like any turn DM. false when its message exists already (then it
 * is edited as usual). */
static bool followup_kept(bot_discord *b, const ix *x, const out_msg *m) {
  char key[112], path[800];
  bot_rest_done fn;
  void *ctx;
  bot_dc_edit_key(m, key, sizeof key);
  if (!key[0] || !bot_dc_edit_claim(b, x->channel, key, &fn, &ctx))
    return false;
  json_t *body = bot_dc_message_body(m, false);
  snprintf(path, sizeof path, "/webhooks/%s/%s", b->app_id, x->token);
  gate_send_done(b, x, "POST", path, body, NULL, fn, ctx);
  json_decref(body);
  return true;
}

/* Answers interaction x from the messages its command produced. */
static void answer(bot_discord *b, const ix *x, bool deferred, bool component) {
  int first = -1; /* the message that becomes the interaction's answer */
  /* A message kept up to date in place (a turn's) is edited where it is,
   * never posted as an answer. */
  for (int i = 0; i < b->n_msgs && first < 0; i++)
    if (b->msgs[i].to == CMD_TO_CHANNEL && !x->in_dm && !b->msgs[i].edit[0] &&
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
    if (b->msgs[i].to == CMD_TO_CHANNEL && !b->msgs[i].edit[0]) {
      first = i;
      copy = true;
    }
  /* The requester's own turn DM, which says what their answer did: the
   * clicked message is updated to it (no rate limit stands in the way of
   * the next decision), or a slash command is answered with a copy. */
  int mine = -1;
  for (int i = 0; i < b->n_msgs && mine < 0; i++)
    if (b->msgs[i].to == CMD_TO_DM && b->msgs[i].edit[0] &&
        strcmp(b->msgs[i].user, x->user) == 0)
      mine = i;
  /* Else the turn's channel message, copied for the requester alone. */
  int turn_msg = -1;
  for (int i = 0; i < b->n_msgs && turn_msg < 0; i++)
    if (b->msgs[i].to == CMD_TO_CHANNEL && b->msgs[i].edit[0])
      turn_msg = i;
  /* A click that moved the game (it is announced in the game's channel,
   * which is not where a DM click comes from): the clicked prompt is
   * spent. */
  bool spent = false;
  for (int i = 0; component && i < b->n_msgs; i++)
    spent = spent || b->msgs[i].to == CMD_TO_CHANNEL;
  int skip = -1; /* a message the callback already carries */
  /* Discord waits 3 s for the callback. A command that took long (its
   * picture drawn on a busy machine, a slow disk) is deferred now, as
   * ephemeral as its answer will be, and the answer edits it in. */
  if (!component && !deferred && bot_dc_now() - x->received > ANSWER_LATE &&
      !(first >= 0 && b->msgs[first].file_name)) {
    bool eph = first < 0 || b->msgs[first].to == CMD_TO_EPHEMERAL;
    json_t *o = eph ? json_pack("{sis{si}}", "type", 5, "data", "flags", 64)
                    : json_pack("{si}", "type", 5);
    callback(b, x, o);
    json_decref(o);
    deferred = true;
    bot_dc_log(b, LOG_DEBUG, "an answer came late; it was deferred");
  }
  if (spent && mine >= 0 && x->message) {
    out_msg *m = &b->msgs[mine];
    json_t *data = bot_dc_message_body(m, false);
    if (!json_object_get(data, "components"))
      json_object_set_new(data, "components", json_array());
    json_object_del(data, "allowed_mentions");
    json_t *o = json_pack("{siso}", "type", 7, "data", data);
    callback(b, x, o);
    json_decref(o);
    /* The clicked message is now the turn's DM, if it is one (not an
     * ephemeral copy in the game's channel): later texts edit it. */
    if (x->in_dm && !x->message_ephemeral) {
      char key[112];
      bot_dc_edit_key(m, key, sizeof key);
      bot_dc_edit_known(b, key, x->channel, x->message);
      skip = mine;
    }
    first = -1;
  } else if (spent) {
    json_t *o = json_pack("{sis{sss[]}}", "type", 7, "data", "content",
                          "Answered: see the game's channel.", "components");
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
    json_t *body = bot_dc_message_body(m, false);
    char path[800];
    snprintf(path, sizeof path, "/webhooks/%s/%s/messages/@original", b->app_id,
             x->token);
    gate_send_msg(b, x, "PATCH", path, body, m);
    json_decref(body);
  } else if (first >= 0 && x->lobby_click && !deferred && x->message &&
             !x->message_ephemeral && b->msgs[first].to == CMD_TO_CHANNEL) {
    /* A lobby's button: the clicked lobby message is updated in place to
     * the lobby as it now is (or to the game's start, without buttons),
     * rather than a new message per seat taken. */
    json_t *data = bot_dc_message_body(&b->msgs[first], false);
    if (!json_object_get(data, "components"))
      json_object_set_new(data, "components", json_array());
    json_t *o = json_pack("{siso}", "type", 7, "data", data);
    callback(b, x, o);
    json_decref(o);
  } else if (first >= 0) {
    /* With its picture, if it has one (/game status, /game board). */
    answer_with(b, x, deferred,
                bot_dc_message_body(&b->msgs[first],
                                    b->msgs[first].to == CMD_TO_EPHEMERAL),
                &b->msgs[first]);
  } else if (mine >= 0 || turn_msg >= 0) {
    /* What the command did, to the requester alone; the turn's picture
     * is the channel's (a copy would upload it twice). */
    out_msg copy =
        bot_dc_without_picture(&b->msgs[mine >= 0 ? mine : turn_msg]);
    answer_with(b, x, deferred, bot_dc_message_body(&copy, true), NULL);
  } else if (!deferred) {
    json_t *o = json_pack("{sis{sssi}}", "type", 4, "data", "content", "Done.",
                          "flags", 64);
    callback(b, x, o);
    json_decref(o);
  } else { /* a deferred answer must not stay "thinking..." */
    json_t *o = json_pack("{ss}", "content", "Done.");
    edit_original(b, x, o, NULL);
    json_decref(o);
  }
  for (int i = 0; i < b->n_msgs; i++) {
    if ((i == first && !copy) || i == skip)
      continue;
    out_msg *m = &b->msgs[i];
    if (m->to == CMD_TO_EPHEMERAL) {
      json_t *body = bot_dc_message_body(m, true);
      followup(b, x, body, m);
      json_decref(body);
    } else if (m->to == CMD_TO_CHANNEL) {
      post_channel(b, m);
    } else if (x->dms_here && strcmp(m->user, x->user) == 0) {
      json_t *body = bot_dc_message_body(m, true);
      followup(b, x, body, m);
      json_decref(body);
    } else if (!(component && x->in_dm && !x->message_ephemeral && m->edit[0] &&
                 strcmp(m->user, x->user) == 0 && followup_kept(b, x, m))) {
      bot_dc_send_dm(b, m);
    }
  }
  bot_dc_clear_msgs(b);
}

/* Delivers what no interaction asked for (reminders, deadlines, AI
 * moves after a timer): channel posts and DMs; an ephemeral reply needs
 * an interaction and cannot be sent. */
void bot_dc_deliver_unprompted(bot_discord *b) {
  for (int i = 0; i < b->n_msgs; i++) {
    out_msg *m = &b->msgs[i];
    if (m->to == CMD_TO_CHANNEL) {
      post_channel(b, m);
    } else if (m->to == CMD_TO_DM) {
      bot_dc_send_dm(b, m);
    }
  }
  bot_dc_clear_msgs(b);
}

/* Opens a public thread for a new game (the "threads" setting). */
bool bot_dc_open_thread(void *ctx, const char *channel, const char *name,
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
  bool ok =
      (status == 200 || status == 201) && bot_dc_body_id(body, thread_id, cap);
  free(body);
  if (!ok)
    bot_dc_log(b, LOG_WARN, "could not open a thread (HTTP %d)", status);
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
                   .in_dm = x->in_dm,
                   .may_thread = x->may_thread,
                   .locale = x->locale,
                   .guild_locale = x->guild_locale};
  return r;
}

/* The deferral of slash command r: as ephemeral as its answer will be
 * (/game status and board are the asker's alone unless public:yes). A
 * new reference. */
static json_t *deferral_of(const cmd_request *r) {
  bool posted = false;
  for (int i = 0; i < r->n_args; i++)
    posted = posted || (strcmp(r->args[i].name, "public") == 0 &&
                        strcmp(r->args[i].value, "yes") == 0);
  bool quiet =
      strcmp(r->command, "log") == 0 || strcmp(r->command, "hand") == 0 ||
      strcmp(r->command, "list") == 0 || strcmp(r->command, "card") == 0 ||
      ((strcmp(r->command, "status") == 0 ||
        strcmp(r->command, "board") == 0) &&
       !posted);
  return quiet ? json_pack("{sis{si}}", "type", 5, "data", "flags", 64)
               : json_pack("{si}", "type", 5);
}

char *bot_dc_deferral(json_t *d) {
  ix x = {0};
  if (!bot_dc_read_interaction(d, &x))
    return NULL;
  json_t *o = NULL;
  if (x.type == 2) {
    char vals[CMD_MAX_ARGS][24];
    cmd_request r = bot_dc_command_request(&x, vals, NULL);
    o = deferral_of(&r);
  } else if (x.type == 3) {
    o = json_pack("{si}", "type", 6);
  } else if (x.type == 4) {
    o = json_pack("{sis{s[]}}", "type", 8, "data", "choices");
  }
  char *text = o ? json_dumps(o, JSON_COMPACT) : NULL;
  json_decref(o);
  return text;
}

static void handle_command(bot_discord *b, const ix *x, bool autocomplete) {
  char vals[CMD_MAX_ARGS][24];
  const char *focused = NULL;
  cmd_request r = bot_dc_command_request(x, vals, &focused);
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
  bool slow = strcmp(r.command, "log") == 0 || bot_dc_now() - x->received > 1.0;
  if (slow) {
    json_t *o = deferral_of(&r);
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
bool bot_dc_parse_custom(const char *id, char *kind, int64_t *game,
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
    return strchr("hjlbarx", *kind) != NULL;
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

/* The language of x's user, for the few answers the transport words
 * itself (a stale or foreign button): their Discord client's. */
static cmd_lang ix_lang(const ix *x) { return cmd_lang_of_locale(x->locale); }

static void handle_component(bot_discord *b, const ix *x) {
  const char *cid = json_string_value(json_object_get(x->data, "custom_id"));
  char kind;
  int64_t game, version;
  const char *rest;
  if (!bot_dc_parse_custom(cid, &kind, &game, &version, &rest)) {
    reply_ephemeral(
        b, x,
        cmd_tr(ix_lang(x), "This button is not one of Lair's current ones."));
    return;
  }
  char gtext[24];
  snprintf(gtext, sizeof gtext, "%" PRId64, game);
  cmd_request r = request_of(x);
  r.in_dm = true; /* buttons act on the clicker's games */
  r.n_args = 1;
  r.args[0].name = "game";
  r.args[0].value = gtext;
  if (kind == 'j' || kind == 'l' || kind == 'b' || kind == 'a') {
    /* A lobby's button: the command for the clicker, in the lobby's
     * channel, answered as that command is. */
    r.in_dm = x->in_dm;
    ix lobby = *x;
    lobby.lobby_click = true;
    x = &lobby;
    r.command = kind == 'j'   ? "join"
                : kind == 'l' ? "leave"
                : kind == 'b' ? "start"
                              : "addai";
    cmd_set_now(b->cmd, (int64_t)time(NULL));
    cmd_handle(b->cmd, &r);
    answer(b, x, false, false);
    return;
  }
  if (kind == 'r' || kind == 'x') {
    /* A finished game's summary: /game rematch or /game export for the
     * clicker, answered as that command is. */
    r.in_dm = x->in_dm;
    r.command = kind == 'r' ? "rematch" : "export";
    cmd_set_now(b->cmd, (int64_t)time(NULL));
    cmd_handle(b->cmd, &r);
    answer(b, x, false, false);
    return;
  }
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
                    current < 0
                        ? cmd_tr(ix_lang(x), "That game no longer exists.")
                        : cmd_tr(ix_lang(x),
                                 "These buttons are out of date: the game has "
                                 "moved on. Use the newest message, or /game "
                                 "move."));
    return;
  }
  if (kind == 'p') {
    static cmd_choice opts[ENG_OPTIONS_MAX];
    char q[400];
    int n = cmd_user_prompt(b->cmd, game, x->user, opts, ENG_OPTIONS_MAX, q,
                            sizeof q);
    if (n < 0) {
      reply_ephemeral(b, x,
                      cmd_tr(ix_lang(x), "This is not your decision to make."));
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
                          "components", bot_dc_components(&m, (int)page));
    callback(b, x, o);
    json_decref(o);
    return;
  }
  const char *choice = kind == 's' ? json_string_value(json_array_get(
                                         json_object_get(x->data, "values"), 0))
                                   : rest;
  if (!choice || !*choice || (kind != 'm' && kind != 's')) {
    reply_ephemeral(
        b, x,
        cmd_tr(ix_lang(x), "This button is not one of Lair's current ones."));
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

bool bot_dc_read_interaction(json_t *d, ix *x) {
  x->id = json_string_value(json_object_get(d, "id"));
  x->token = json_string_value(json_object_get(d, "token"));
  x->type = (int)json_integer_value(json_object_get(d, "type"));
  x->channel = json_string_value(json_object_get(d, "channel_id"));
  x->guild = json_string_value(json_object_get(d, "guild_id"));
  /* The user's client language, and the server's (Community servers'
   * preferred locale): Lair answers in German to "de". */
  x->locale = json_string_value(json_object_get(d, "locale"));
  x->guild_locale = json_string_value(json_object_get(d, "guild_locale"));
  x->data = json_object_get(d, "data");
  json_t *member = json_object_get(d, "member");
  json_t *user =
      member ? json_object_get(member, "user") : json_object_get(d, "user");
  x->user = json_string_value(json_object_get(user, "id"));
  x->name = json_string_value(json_object_get(member, "nick"));
  if (!x->name)
    x->name = json_string_value(json_object_get(user, "global_name"));
  if (!x->name)
    x->name = json_string_value(json_object_get(user, "username"));
  x->in_dm = !member;
  json_t *msg = json_object_get(d, "message");
  x->message = json_string_value(json_object_get(msg, "id"));
  x->message_ephemeral =
      (json_integer_value(json_object_get(msg, "flags")) & 64) != 0;
  /* Threads: a server's text or announcement channel (not a thread)
   * where Lair's own permissions (app_permissions) include Create Public
   * Threads and Send Messages in Threads. */
  const char *app = json_string_value(json_object_get(d, "app_permissions"));
  json_int_t kind = json_integer_value(
      json_object_get(json_object_get(d, "channel"), "type"));
  unsigned long long bits = app ? strtoull(app, NULL, 10) : 0;
  unsigned long long need = (1ull << 35) | (1ull << 38);
  x->may_thread = member && (kind == 0 || kind == 5) && (bits & need) == need;
  if (!x->id || !x->token || !x->channel || !x->user || !x->name ||
      !bot_dc_snowflake_ok(x->id) || !bot_dc_snowflake_ok(x->user) ||
      strlen(x->token) > 600)
    return false;
  x->guild = x->guild ? x->guild : "";
  return true;
}

cmd_request bot_dc_command_request(const ix *x, char vals[][24],
                                   const char **focused) {
  json_t *sub = json_array_get(json_object_get(x->data, "options"), 0);
  const char *name = json_string_value(json_object_get(sub, "name"));
  cmd_request r = request_of(x);
  r.group = json_string_value(json_object_get(x->data, "name"));
  r.command = name ? name : "";
  fill_args(&r, json_object_get(sub, "options"), vals, focused);
  return r;
}

/* Handles interaction d; returns the HTTP status its request gets if
 * nothing answered it (discord_http.h's bot_http_finish). */
static int handle_interaction(bot_discord *b, json_t *d, double received,
                              uint64_t http) {
  ix x = {.received = received, .http = http};
  json_t *member = json_object_get(d, "member");
  if (!bot_dc_read_interaction(d, &x)) {
    bot_dc_log(b, LOG_WARN, "ignored a malformed interaction");
    return 400;
  }
  if (seen_before(b, x.id)) {
    __atomic_add_fetch(&b->stats.duplicates, 1, __ATOMIC_RELAXED);
    bot_dc_log(b, LOG_DEBUG, "interaction %s delivered again; ignored", x.id);
    return 202; /* its first delivery is answered */
  }
  if (x.type == 2 || x.type == 3)
    bot_dc_dm_heard_from(b, x.user); /* closed DMs are tried again */
  x.is_mod = member && member_is_mod(b, member, x.guild);
  x.gate = calloc(1, sizeof *x.gate);
  if (x.gate) {
    x.gate->b = b;
    x.gate->refs = 1;
    x.gate->received = received;
  }
  if (x.type == 2 || x.type == 4) {
    const char *name = json_string_value(json_object_get(x.data, "name"));
    if (!name || !cmd_find_group(name)) {
      if (x.type == 2)
        reply_ephemeral(b, &x,
                        cmd_tr(ix_lang(&x),
                               "Lair knows /game, /prefs and /gamemod; this "
                               "command is not one of them."));
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
  return 400;
}

void bot_dc_handle_interaction(bot_discord *b, json_t *d, double received,
                               uint64_t http) {
  int status = handle_interaction(b, d, received, http);
  if (http && b->http)
    bot_http_finish(b->http, http, status);
}
