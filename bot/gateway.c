/*
 * gateway.c: Lair's Discord gateway client (gateway.h) on libwebsockets.
 *
 * Everything happens on the thread that calls bot_gw_run: one lws client
 * context serving every shard this process runs, one connection per
 * shard at a time, two lws timers per shard (connect, beat) and two for
 * the client (the Identify pump, the stop deadline). lws is
 * single-threaded, so the only things other threads touch are the stop
 * flag (then lws_cancel_service wakes the loop) and the stats, behind a
 * mutex.
 *
 * A shard's connection lives like this: connect (to resume_gateway_url
 * when its session can be resumed), Hello, then Resume at once or
 * Identify when the pump gives its bucket the turn, dispatches, and an
 * end. How it ended decides what comes next (enum gw_next): resume, a
 * new session, a fatal stop of every shard, or the end of a bot_gw_stop.
 * We close a connection ourselves by setting close_code and asking for
 * WRITEABLE, where lws_close_reason() is called and the callback returns
 * -1.
 *
 * Identify is rationed per bucket (shard id % max_concurrency): the pump
 * (pump(), bot_gw_identify_plan) lets the lowest waiting id of a bucket
 * identify once the bucket's last Identify is identify_gap_ms old, and
 * wakes itself for the next turn. A new session's connection is put off
 * until its bucket is free, so connections do not sit idle after Hello.
 *
 * Every payload goes through the shard's queue (one lws_write per
 * WRITEABLE), after the size and 120-per-minute checks (bot_gw_budget,
 * one per connection as at Discord). A heartbeat is a flag rather than a
 * queue entry, written before anything queued.
 */
#include "gateway.h"
#include "gateway_internal.h"

#include <libwebsockets.h>
#include <limits.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#define GW_PROTOCOL "lair-gateway"
#define GW_QUERY "v=10&encoding=json"
#define GW_QUEUE_CAP 128
#define GW_MAX_TOKEN 1024 /* so Identify and Resume always fit 4096 bytes */
#define GW_HELLO_TIMEOUT_MS 30000
#define GW_STOP_DEADLINE_MS 2000

/* What happens after the current connection ends. */
enum gw_next {
  GW_NEXT_RESUME,      /* reconnect; resume if there is a session */
  GW_NEXT_NEW_SESSION, /* forget the session, reconnect and identify */
  GW_NEXT_FATAL,       /* stop every shard with the close code */
  GW_NEXT_STOP,        /* bot_gw_stop: end with 0 */
};

typedef struct gw_out {
  unsigned char *buf; /* LWS_PRE bytes of headroom, then the text */
  size_t len;
} gw_out;

/* One shard: its session and its current connection. */
typedef struct gw_shard {
  bot_gw *gw;
  int id;

  /* The session: survives reconnects. */
  char session_id[128]; /* "" = nothing to resume */
  int64_t seq;          /* the last non-null s, -1 = none */
  bot_gw_url resume_url;
  bool have_resume_url;
  int attempt; /* connection attempts since the last READY/RESUMED */
  int64_t identify_not_before_ms; /* op 9 d=false asks for a wait */
  bot_gw_budget budget;
  int64_t budget_logged_ms; /* one refusal line per window */

  /* The current connection. */
  struct lws *wsi;
  bool conn_active; /* started and its end not yet handled */
  bool established, hello_seen, resuming, ack_pending;
  bool wants_identify; /* Hello seen; waits for its bucket's turn */
  bool closing;        /* we are closing it: ignore what still arrives */
  bool close_started;  /* lws_close_reason was called */
  int close_code;
  enum gw_next next;
  int peer_close; /* code of the server's close frame, 0 = none */
  int hb_interval_ms;
  bool hb_pending;
  gw_out queue[GW_QUEUE_CAP];
  int q_head, q_count;
  char *rx;
  size_t rx_len, rx_cap;

  lws_sorted_usec_list_t sul_connect, sul_beat;
} gw_shard;

struct bot_gw {
  /* Configuration. */
  bot_gw_url main_url;
  char *token;
  int intents;
  void (*on_event)(void *ctx, int shard, const char *type, json_t *d);
  void (*on_stop)(void *ctx, int close_code, const char *why);
  void *ctx;
  size_t max_payload;
  int backoff_base_ms, backoff_max_ms, identify_gap_ms, start_delay_ms;
  int shard_count;     /* N of Identify's [id, N]; 0 = unsharded */
  int max_concurrency; /* Identify buckets */

  gw_shard *shards; /* ascending ids */
  int n_shards;
  int64_t *bucket_free_at;  /* per bucket: when it may identify next */
  int *plan_ids, *plan_idx; /* the pump's scratch, n_shards each */
  int64_t *plan_at;

  struct lws_context *lws;
  atomic_bool stop_requested;
  bool stopping, ended;
  int end_code;
  const char *end_why; /* a static string */
  uint64_t rng;
  lws_sorted_usec_list_t sul_pump, sul_stop;

  pthread_mutex_t mu; /* guards stats */
  bot_gw_stats stats;
};

/* ---- small helpers ------------------------------------------------------ */

static void gw_vlog(const gw_shard *s, const char *fmt, va_list ap) {
  char line[512];
  vsnprintf(line, sizeof line, fmt, ap);
  if (s && s->gw->shard_count > 0)
    fprintf(stderr, "lair gateway: shard %d: %s\n", s->id, line);
  else
    fprintf(stderr, "lair gateway: %s\n", line);
}

static void gw_log(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  gw_vlog(NULL, fmt, ap);
  va_end(ap);
}

/* A line about one shard: named when the process is sharded. */
static void shard_log(const gw_shard *s, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  gw_vlog(s, fmt, ap);
  va_end(ap);
}

/* lws's own error lines, under the same prefix (they end with '\n'). */
static void gw_lws_log(int level, const char *line) {
  (void)level;
  fprintf(stderr, "lair gateway: lws: %s", line);
}

static int64_t now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* xorshift64*: jitter only, seeded from lws_get_random. */
static double rand01(bot_gw *g) {
  g->rng ^= g->rng >> 12;
  g->rng ^= g->rng << 25;
  g->rng ^= g->rng >> 27;
  uint64_t x = g->rng * 0x2545F4914F6CDD1DULL;
  return (double)(x >> 11) * 0x1.0p-53;
}

#define GW_STAT_ADD(g, field, n)                                               \
  do {                                                                         \
    pthread_mutex_lock(&(g)->mu);                                              \
    (g)->stats.field += (n);                                                   \
    pthread_mutex_unlock(&(g)->mu);                                            \
  } while (0)

static void schedule(bot_gw *g, lws_sorted_usec_list_t *sul, sul_cb_t cb,
                     int64_t ms) {
  if (ms < 0)
    ms = 0;
  lws_sul_schedule(g->lws, 0, sul, cb, (lws_usec_t)ms * 1000);
}

static bool resumable(const gw_shard *s) {
  return s->session_id[0] && s->seq >= 0;
}

static int bucket_of(const bot_gw *g, int id) {
  return id % g->max_concurrency;
}

/* Why a connection closed, for the log and on_stop. */
static const struct {
  int code;
  const char *meaning;
} close_meanings[] = {
    {1000, "normal closure"},
    {1001, "going away"},
    {1005, "no close code"},
    {1009, "message too big"},
    {4000, "unknown error"},
    {4001, "unknown opcode"},
    {4002, "decode error"},
    {4003, "not authenticated"},
    {4004, "authentication failed: the bot token was refused"},
    {4005, "already authenticated"},
    {4007, "invalid seq"},
    {4008, "rate limited"},
    {4009, "session timed out"},
    {4010, "invalid shard"},
    {4011, "sharding required: too many guilds for one shard"},
    {4012, "invalid API version"},
    {4013, "invalid intents"},
    {4014, "disallowed intents: enable them in the Developer Portal or ask "
           "for fewer"},
};

static const char *close_meaning(int code) {
  for (size_t i = 0; i < sizeof close_meanings / sizeof close_meanings[0]; i++)
    if (close_meanings[i].code == code)
      return close_meanings[i].meaning;
  return "unexpected close code";
}

static enum gw_next next_after_close(int code) {
  if (code == 4004 || (code >= 4010 && code <= 4014))
    return GW_NEXT_FATAL;
  if (code == 4006 || code == 4007 || code == 4009)
    return GW_NEXT_NEW_SESSION;
  return GW_NEXT_RESUME; /* 4000-4003, 4005, 4008, 1006, drops, others */
}

/* ---- the parts the tests reach (gateway_internal.h) ---------------------- */

void bot_gw_budget_init(bot_gw_budget *b) {
  b->head = 0;
  b->count = 0;
}

bool bot_gw_budget_take(bot_gw_budget *b, int64_t now_ms, bool heartbeat) {
  while (b->count > 0 && now_ms - b->at[b->head] >= BOT_GW_BUDGET_WINDOW_MS) {
    b->head = (b->head + 1) % BOT_GW_BUDGET_LIMIT;
    b->count--;
  }
  int limit = heartbeat ? BOT_GW_BUDGET_LIMIT
                        : BOT_GW_BUDGET_LIMIT - BOT_GW_BUDGET_HB_RESERVE;
  if (b->count >= limit)
    return false;
  b->at[(b->head + b->count) % BOT_GW_BUDGET_LIMIT] = now_ms;
  b->count++;
  return true;
}

int bot_gw_parse_url(const char *url, bot_gw_url *out) {
  const char *p;
  if (!url)
    return -1;
  memset(out, 0, sizeof *out);
  if (strncmp(url, "wss://", 6) == 0) {
    out->tls = true;
    out->port = 443;
    p = url + 6;
  } else if (strncmp(url, "ws://", 5) == 0) {
    out->port = 80;
    p = url + 5;
  } else {
    return -1;
  }
  size_t hl = strcspn(p, ":/?#");
  if (hl == 0 || hl >= sizeof out->host)
    return -1;
  for (size_t i = 0; i < hl; i++) {
    char c = p[i];
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
              (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '_';
    if (!ok) /* '@' (user info), '[' (IPv6), spaces... */
      return -1;
  }
  memcpy(out->host, p, hl);
  out->host[hl] = '\0';
  p += hl;
  if (*p == ':') {
    p++;
    int port = 0, digits = 0;
    while (*p >= '0' && *p <= '9' && digits < 6) {
      port = port * 10 + (*p - '0');
      p++;
      digits++;
    }
    if (digits == 0 || digits > 5 || port < 1 || port > 65535)
      return -1;
    out->port = port;
  }
  if (*p == '#')
    return -1;
  if (*p && *p != '/' && *p != '?')
    return -1;
  const char *slash = *p == '/' ? "" : "/";
  const char *sep = strchr(p, '?') ? "&" : "?";
  int n = snprintf(out->path, sizeof out->path, "%s%s%s%s", slash, p, sep,
                   GW_QUERY);
  if (n < 0 || (size_t)n >= sizeof out->path)
    return -1;
  return 0;
}

int bot_gw_backoff_ms(int base_ms, int max_ms, int attempt, double r) {
  int64_t d = base_ms;
  for (int i = 0; i < attempt && d < max_ms; i++)
    d *= 2;
  if (d > max_ms)
    d = max_ms;
  int64_t half = d / 2;
  return (int)(half + (int64_t)(r * (double)(d - half)));
}

void bot_gw_identify_plan(int max_concurrency, const int *ids, int n,
                          const int64_t *free_at, int64_t gap_ms,
                          int64_t now_ms, int64_t *at) {
  for (int i = 0; i < n; i++) {
    int b = ids[i] % max_concurrency;
    int64_t t = free_at[b] > now_ms ? free_at[b] : now_ms;
    for (int j = i - 1; j >= 0; j--) /* the bucket's previous turn */
      if (ids[j] % max_concurrency == b) {
        t = at[j] + gap_ms;
        break;
      }
    at[i] = t;
  }
}

/* ---- sending ------------------------------------------------------------ */

static void queue_clear(gw_shard *s) {
  while (s->q_count > 0) {
    free(s->queue[s->q_head].buf);
    s->q_head = (s->q_head + 1) % GW_QUEUE_CAP;
    s->q_count--;
  }
  s->q_head = 0;
  s->hb_pending = false;
}

static void log_refusal(gw_shard *s, const char *what) {
  int64_t t = now_ms();
  if (s->budget_logged_ms && t - s->budget_logged_ms < BOT_GW_BUDGET_WINDOW_MS)
    return;
  s->budget_logged_ms = t;
  shard_log(s,
            "%s (payloads sent in the last 60 s: %d of %d); further "
            "refusals this minute are not logged",
            what, s->budget.count, BOT_GW_BUDGET_LIMIT);
}

/* Queues text (copied); the checks of bot_gw_send. */
static bot_gw_send_result queue_text(gw_shard *s, const char *text,
                                     size_t len) {
  bot_gw *g = s->gw;
  if (!s->wsi || !s->established || s->closing)
    return BOT_GW_SEND_CLOSED;
  if (len > BOT_GW_MAX_SEND) {
    GW_STAT_ADD(g, dropped_by_budget, 1);
    shard_log(s, "a %zu-byte payload was not sent (at most %d bytes)", len,
              BOT_GW_MAX_SEND);
    return BOT_GW_SEND_TOO_BIG;
  }
  if (s->q_count == GW_QUEUE_CAP) {
    GW_STAT_ADD(g, dropped_by_budget, 1);
    log_refusal(s, "a payload was not sent: the send queue is full");
    return BOT_GW_SEND_QUEUE_FULL;
  }
  if (!bot_gw_budget_take(&s->budget, now_ms(), false)) {
    GW_STAT_ADD(g, dropped_by_budget, 1);
    log_refusal(s, "a payload was not sent: 120 per minute reached");
    return BOT_GW_SEND_BUDGET;
  }
  unsigned char *buf = malloc(LWS_PRE + len);
  if (!buf)
    return BOT_GW_SEND_NOMEM;
  memcpy(buf + LWS_PRE, text, len);
  int tail = (s->q_head + s->q_count) % GW_QUEUE_CAP;
  s->queue[tail] = (gw_out){.buf = buf, .len = len};
  s->q_count++;
  lws_callback_on_writable(s->wsi);
  return BOT_GW_SEND_OK;
}

static bot_gw_send_result shard_send(gw_shard *s, json_t *payload) {
  char *text = json_dumps(payload, JSON_COMPACT);
  if (!text)
    return BOT_GW_SEND_NOMEM;
  bot_gw_send_result r = queue_text(s, text, strlen(text));
  free(text);
  return r;
}

bot_gw_send_result bot_gw_send(bot_gw *g, json_t *payload) {
  return shard_send(&g->shards[0], payload);
}

/* Asks for a heartbeat, written (with the then current seq) before
 * anything queued. */
static void queue_heartbeat(gw_shard *s) {
  if (!s->wsi || s->closing || s->hb_pending)
    return;
  if (!bot_gw_budget_take(&s->budget, now_ms(), true)) {
    GW_STAT_ADD(s->gw, dropped_by_budget, 1);
    log_refusal(s, "a heartbeat was not sent: 120 per minute reached");
    return;
  }
  s->hb_pending = true;
  s->ack_pending = true;
  lws_callback_on_writable(s->wsi);
}

/* Starts closing the connection with code; what follows is next. */
static void close_with(gw_shard *s, int code, enum gw_next next) {
  if (!s->wsi || s->closing)
    return;
  s->closing = true;
  s->close_code = code;
  s->next = next;
  s->wants_identify = false;
  lws_sul_cancel(&s->sul_beat);
  if (s->established)
    lws_callback_on_writable(s->wsi);
  else /* nothing to send a close frame on: drop the attempt */
    lws_set_timeout(s->wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
}

static int on_writeable(gw_shard *s, struct lws *wsi) {
  if (s->closing) {
    /* Once: lws then sends the close frame and waits for the echo, and
     * may call here again meanwhile; a second -1 would drop the TCP
     * connection before the server has read our close code. */
    if (s->close_started)
      return 0;
    s->close_started = true;
    lws_close_reason(wsi, (enum lws_close_status)s->close_code, NULL, 0);
    return -1;
  }
  if (s->hb_pending) {
    char buf[LWS_PRE + 64];
    char *text = buf + LWS_PRE;
    int n = s->seq >= 0
                ? snprintf(text, 64, "{\"op\":1,\"d\":%lld}", (long long)s->seq)
                : snprintf(text, 64, "{\"op\":1,\"d\":null}");
    s->hb_pending = false;
    if (lws_write(wsi, (unsigned char *)text, (size_t)n, LWS_WRITE_TEXT) < n)
      return -1;
    pthread_mutex_lock(&s->gw->mu);
    s->gw->stats.heartbeats++;
    s->gw->stats.sent++;
    pthread_mutex_unlock(&s->gw->mu);
  } else if (s->q_count > 0) {
    gw_out o = s->queue[s->q_head];
    s->q_head = (s->q_head + 1) % GW_QUEUE_CAP;
    s->q_count--;
    int n = lws_write(wsi, o.buf + LWS_PRE, o.len, LWS_WRITE_TEXT);
    free(o.buf);
    if (n < (int)o.len)
      return -1;
    GW_STAT_ADD(s->gw, sent, 1);
  }
  if (s->hb_pending || s->q_count > 0)
    lws_callback_on_writable(wsi);
  return 0;
}

/* ---- Identify, Resume, heartbeats --------------------------------------- */

static void send_identify(gw_shard *s) {
  bot_gw *g = s->gw;
  s->wants_identify = false;
  json_t *msg =
      json_pack("{s:i, s:{s:s, s:i, s:{s:s, s:s, s:s}}}", "op", 2, "d", "token",
                g->token, "intents", g->intents, "properties", "os", "linux",
                "browser", "lair", "device", "lair");
  if (msg && g->shard_count > 0)
    json_object_set_new(json_object_get(msg, "d"), "shard",
                        json_pack("[ii]", s->id, g->shard_count));
  if (!msg || shard_send(s, msg) != BOT_GW_SEND_OK) {
    json_decref(msg);
    shard_log(s, "could not send Identify; reconnecting");
    close_with(s, 4000, GW_NEXT_RESUME);
    return;
  }
  json_decref(msg);
  g->bucket_free_at[bucket_of(g, s->id)] = now_ms() + g->identify_gap_ms;
  GW_STAT_ADD(g, identifies, 1);
}

static void pump_cb(lws_sorted_usec_list_t *sul);

/* The Identify pump: every shard that waits for an Identify (and whose
 * op 9 wait is over) gets its turn from bot_gw_identify_plan; those
 * whose turn is now identify, and the pump wakes itself for the next
 * turn. Identify is never sent in a loop, and never twice in a bucket
 * within identify_gap_ms. */
static void pump(bot_gw *g) {
  if (g->ended || g->stopping)
    return;
  int64_t t = now_ms(), wake = INT64_MAX;
  int n = 0;
  for (int i = 0; i < g->n_shards; i++) {
    gw_shard *s = &g->shards[i];
    if (!s->wants_identify)
      continue;
    if (s->identify_not_before_ms > t) {
      if (s->identify_not_before_ms < wake)
        wake = s->identify_not_before_ms;
      continue;
    }
    g->plan_ids[n] = s->id;
    g->plan_idx[n] = i;
    n++;
  }
  bot_gw_identify_plan(g->max_concurrency, g->plan_ids, n, g->bucket_free_at,
                       g->identify_gap_ms, t, g->plan_at);
  for (int k = 0; k < n; k++) {
    if (g->plan_at[k] <= t)
      send_identify(&g->shards[g->plan_idx[k]]);
    else if (g->plan_at[k] < wake)
      wake = g->plan_at[k];
  }
  if (wake != INT64_MAX)
    schedule(g, &g->sul_pump, pump_cb, wake - t);
}

static void send_resume(gw_shard *s) {
  json_t *msg =
      json_pack("{s:i, s:{s:s, s:s, s:I}}", "op", 6, "d", "token", s->gw->token,
                "session_id", s->session_id, "seq", (json_int_t)s->seq);
  if (!msg || shard_send(s, msg) != BOT_GW_SEND_OK) {
    json_decref(msg);
    shard_log(s, "could not send Resume; reconnecting");
    close_with(s, 4000, GW_NEXT_RESUME);
    return;
  }
  json_decref(msg);
  GW_STAT_ADD(s->gw, resumes, 1);
}

static void beat_cb(lws_sorted_usec_list_t *sul) {
  gw_shard *s = lws_container_of(sul, gw_shard, sul_beat);
  if (!s->wsi || s->closing || s->gw->ended)
    return;
  if (s->ack_pending) {
    GW_STAT_ADD(s->gw, zombies, 1);
    shard_log(s, "no heartbeat ACK since the last beat: closing with 4000 "
                 "and reconnecting");
    close_with(s, 4000, GW_NEXT_RESUME);
    return;
  }
  queue_heartbeat(s);
  schedule(s->gw, &s->sul_beat, beat_cb, s->hb_interval_ms);
}

static void hello_timeout_cb(lws_sorted_usec_list_t *sul) {
  gw_shard *s = lws_container_of(sul, gw_shard, sul_beat);
  if (!s->wsi || s->closing || s->gw->ended || s->hello_seen)
    return;
  shard_log(s, "no Hello within %d s: reconnecting",
            GW_HELLO_TIMEOUT_MS / 1000);
  close_with(s, 4000, GW_NEXT_RESUME);
}

/* ---- what the server sends ---------------------------------------------- */

static void on_hello(gw_shard *s, json_t *d) {
  if (s->hello_seen)
    return;
  json_t *iv = json_object_get(d, "heartbeat_interval");
  json_int_t ms = json_is_integer(iv) ? json_integer_value(iv) : 0;
  if (ms <= 0 || ms > 600000) {
    shard_log(s, "Hello without a usable heartbeat_interval: reconnecting");
    close_with(s, 4000, GW_NEXT_RESUME);
    return;
  }
  s->hello_seen = true;
  s->hb_interval_ms = (int)ms;
  s->ack_pending = false;
  schedule(s->gw, &s->sul_beat, beat_cb, (int64_t)((double)ms * rand01(s->gw)));
  if (s->resuming) {
    send_resume(s);
  } else {
    s->wants_identify = true;
    pump(s->gw);
  }
}

static void on_dispatch(gw_shard *s, json_t *msg, json_t *d) {
  bot_gw *g = s->gw;
  const char *type = json_string_value(json_object_get(msg, "t"));
  if (!type)
    return;
  if (strcmp(type, "READY") == 0) {
    const char *sid = json_string_value(json_object_get(d, "session_id"));
    if (sid && strlen(sid) < sizeof s->session_id)
      memcpy(s->session_id, sid, strlen(sid) + 1);
    else
      s->session_id[0] = '\0';
    const char *url =
        json_string_value(json_object_get(d, "resume_gateway_url"));
    s->have_resume_url = url && bot_gw_parse_url(url, &s->resume_url) == 0;
    s->attempt = 0;
    s->identify_not_before_ms = 0;
    shard_log(s, "ready");
  } else if (strcmp(type, "RESUMED") == 0) {
    s->attempt = 0;
    shard_log(s, "resumed");
  }
  GW_STAT_ADD(g, dispatches, 1);
  if (g->on_event)
    g->on_event(g->ctx, s->id, type, d ? d : json_null());
}

static void shard_message(gw_shard *s, const char *text, size_t len) {
  bot_gw *g = s->gw;
  json_error_t err;
  json_t *msg = json_loadb(text, len, 0, &err);
  json_t *op = json_object_get(msg, "op");
  if (!json_is_object(msg) || !json_is_integer(op)) {
    shard_log(s, "a message that is not a gateway payload was ignored");
    json_decref(msg);
    return;
  }
  json_t *sq = json_object_get(msg, "s");
  if (json_is_integer(sq) && json_integer_value(sq) >= 0) {
    s->seq = json_integer_value(sq);
    pthread_mutex_lock(&g->mu);
    g->stats.last_seq = s->seq;
    pthread_mutex_unlock(&g->mu);
  }
  json_t *d = json_object_get(msg, "d");
  switch (json_integer_value(op)) {
  case 0:
    on_dispatch(s, msg, d);
    break;
  case 1: /* the server wants a beat now */
    queue_heartbeat(s);
    break;
  case 7:
    shard_log(s, "Discord asked for a reconnect (op 7): resuming");
    close_with(s, 4000, GW_NEXT_RESUME);
    break;
  case 9:
    if (json_is_true(d)) {
      shard_log(s, "invalid session (op 9), resumable: resuming");
      close_with(s, 4000, GW_NEXT_RESUME);
    } else {
      int64_t gap = g->identify_gap_ms;
      int64_t wait = gap / 5 + (int64_t)(rand01(g) * (double)(gap - gap / 5));
      s->identify_not_before_ms = now_ms() + wait;
      shard_log(s, "invalid session (op 9): a new session in %lld ms",
                (long long)wait);
      close_with(s, 4000, GW_NEXT_NEW_SESSION);
    }
    break;
  case 10:
    on_hello(s, d);
    break;
  case 11:
    s->ack_pending = false;
    GW_STAT_ADD(g, acks, 1);
    break;
  default: /* opcodes a client never receives */
    break;
  }
  json_decref(msg);
}

void bot_gw_on_message(bot_gw *g, const char *text, size_t len) {
  shard_message(&g->shards[0], text, len);
}

/* Reassembles fragments up to max_payload; a bigger message closes the
 * connection with 1009 and resumes (the message is not dispatched). */
static void on_receive(gw_shard *s, struct lws *wsi, const void *in,
                       size_t len) {
  size_t cap_max = s->gw->max_payload;
  if (s->closing)
    return;
  if (len > cap_max - s->rx_len) {
    shard_log(s, "a message over %zu bytes: closing with 1009 and resuming",
              cap_max);
    s->rx_len = 0;
    close_with(s, 1009, GW_NEXT_RESUME);
    return;
  }
  if (s->rx_len + len > s->rx_cap) {
    size_t cap = s->rx_cap ? s->rx_cap : 16384;
    while (cap < s->rx_len + len)
      cap *= 2;
    if (cap > cap_max)
      cap = cap_max;
    char *p = realloc(s->rx, cap);
    if (!p) {
      shard_log(s, "out of memory for a message: reconnecting");
      s->rx_len = 0;
      close_with(s, 1009, GW_NEXT_RESUME);
      return;
    }
    s->rx = p;
    s->rx_cap = cap;
  }
  if (len)
    memcpy(s->rx + s->rx_len, in, len);
  s->rx_len += len;
  if (!lws_is_final_fragment(wsi) || lws_remaining_packet_payload(wsi) > 0)
    return;
  size_t n = s->rx_len;
  s->rx_len = 0;
  shard_message(s, s->rx, n);
  if (s->rx_cap > 65536) { /* READY can be large; do not keep it */
    free(s->rx);
    s->rx = NULL;
    s->rx_cap = 0;
  }
}

static void pump_cb(lws_sorted_usec_list_t *sul) {
  pump(lws_container_of(sul, bot_gw, sul_pump));
}

/* ---- connections -------------------------------------------------------- */

/* The end of bot_gw_run: every timer stops, on_stop hears why. */
static void finish(bot_gw *g) {
  if (g->ended)
    return;
  g->ended = true;
  lws_sul_cancel(&g->sul_pump);
  lws_sul_cancel(&g->sul_stop);
  for (int i = 0; i < g->n_shards; i++) {
    gw_shard *s = &g->shards[i];
    lws_sul_cancel(&s->sul_connect);
    lws_sul_cancel(&s->sul_beat);
    queue_clear(s);
  }
  if (g->on_stop)
    g->on_stop(g->ctx, g->end_code, g->end_why);
}

/* Whether a shard still has an open connection to close cleanly. */
static bool any_open(const bot_gw *g) {
  for (int i = 0; i < g->n_shards; i++)
    if (g->shards[i].conn_active && g->shards[i].established)
      return true;
  return false;
}

static void stop_deadline_cb(lws_sorted_usec_list_t *sul) {
  finish(lws_container_of(sul, bot_gw, sul_stop)); /* the connections go
                                                      with the context */
}

/* Ends every shard: open connections close with 1000 (their sessions
 * end), the rest are dropped with the context; then finish, with code
 * (0 for bot_gw_stop) and why (a static string). */
static void begin_stop(bot_gw *g, int code, const char *why) {
  if (g->stopping || g->ended)
    return;
  g->stopping = true;
  g->end_code = code;
  g->end_why = why;
  lws_sul_cancel(&g->sul_pump);
  for (int i = 0; i < g->n_shards; i++) {
    gw_shard *s = &g->shards[i];
    lws_sul_cancel(&s->sul_connect);
    if (s->conn_active && s->established)
      close_with(s, 1000, GW_NEXT_STOP);
  }
  if (any_open(g))
    schedule(g, &g->sul_stop, stop_deadline_cb, GW_STOP_DEADLINE_MS);
  else
    finish(g);
}

static void connect_cb(lws_sorted_usec_list_t *sul);

static void schedule_connect(gw_shard *s) {
  bot_gw *g = s->gw;
  int64_t delay = bot_gw_backoff_ms(g->backoff_base_ms, g->backoff_max_ms,
                                    s->attempt, rand01(g));
  if (s->attempt < 64)
    s->attempt++;
  if (!resumable(s)) { /* this connection will identify: not before its
                          bucket may */
    int64_t t = now_ms();
    int64_t free_at = g->bucket_free_at[bucket_of(g, s->id)];
    if (free_at - t > delay)
      delay = free_at - t;
    if (s->identify_not_before_ms - t > delay)
      delay = s->identify_not_before_ms - t;
  }
  schedule(g, &s->sul_connect, connect_cb, delay);
}

static void connect_cb(lws_sorted_usec_list_t *sul) {
  gw_shard *s = lws_container_of(sul, gw_shard, sul_connect);
  bot_gw *g = s->gw;
  if (g->ended || g->stopping || s->conn_active)
    return;
  bool resume = resumable(s);
  const bot_gw_url *u =
      resume && s->have_resume_url ? &s->resume_url : &g->main_url;
  s->resuming = resume;
  s->established = s->hello_seen = s->ack_pending = s->closing = false;
  s->close_started = s->wants_identify = false;
  s->hb_pending = false;
  s->close_code = 0;
  s->peer_close = 0;
  s->next = GW_NEXT_RESUME;
  s->rx_len = 0;
  queue_clear(s);

  struct lws_client_connect_info ci;
  memset(&ci, 0, sizeof ci);
  ci.context = g->lws;
  ci.address = u->host;
  ci.port = u->port;
  ci.path = u->path;
  ci.host = u->host;
  ci.ssl_connection = u->tls ? LCCSCF_USE_SSL : 0;
  ci.local_protocol_name = GW_PROTOCOL;
  ci.ietf_version_or_minus_one = -1;
  ci.opaque_user_data = s; /* which shard a callback is about */
  ci.pwsi = &s->wsi;       /* set early: callbacks may come before we return */
  s->conn_active = true;
  if (!lws_client_connect_via_info(&ci) && s->conn_active) {
    s->conn_active = false;
    s->wsi = NULL;
    shard_log(s, "could not start a connection to %s:%d; retrying", u->host,
              u->port);
    schedule_connect(s);
  }
}

/* The shard's current connection is gone: decide what comes next. */
static void conn_ended(gw_shard *s, struct lws *wsi, const char *err,
                       size_t err_len) {
  bot_gw *g = s->gw;
  if (!s->conn_active || wsi != s->wsi)
    return;
  s->conn_active = false;
  s->wsi = NULL;
  s->wants_identify = false;
  lws_sul_cancel(&s->sul_beat);
  queue_clear(s);
  s->rx_len = 0;
  if (g->ended)
    return;
  if (g->stopping) {
    if (!any_open(g))
      finish(g);
    return;
  }
  enum gw_next next = GW_NEXT_RESUME;
  if (s->closing) {
    next = s->next; /* logged when we decided to close */
  } else if (!s->established) {
    shard_log(s, "could not connect (%.*s); retrying",
              err ? (int)(err_len > 200 ? 200 : err_len) : 7,
              err ? err : "no info");
  } else if (s->peer_close) {
    next = next_after_close(s->peer_close);
    if (next != GW_NEXT_FATAL)
      shard_log(s, "Discord closed the connection with %d (%s): %s",
                s->peer_close, close_meaning(s->peer_close),
                next == GW_NEXT_NEW_SESSION ? "starting a new session"
                : resumable(s)              ? "resuming"
                                            : "reconnecting");
  } else {
    shard_log(s, "the connection dropped without a close frame: %s",
              resumable(s) ? "resuming" : "reconnecting");
  }
  switch (next) {
  case GW_NEXT_FATAL:
    shard_log(s,
              "Discord closed the connection with %d (%s): not "
              "reconnecting",
              s->peer_close, close_meaning(s->peer_close));
    begin_stop(g, s->peer_close, close_meaning(s->peer_close));
    return;
  case GW_NEXT_STOP:
    begin_stop(g, 0, "stopped");
    return;
  case GW_NEXT_NEW_SESSION:
    s->session_id[0] = '\0';
    s->seq = -1;
    s->have_resume_url = false;
    break;
  case GW_NEXT_RESUME:
    break;
  }
  schedule_connect(s);
}

/* The certificates wss:// connections are checked against: the system's
 * trust store, read as a chain needs it. lws would set OpenSSL's default
 * paths, whose file half parses the whole CA bundle (about 140
 * certificates, 700 KB of heap kept for the life of the process) for a
 * connection whose chain needs one or two. The hashed directory half
 * (/etc/ssl/certs, or SSL_CERT_DIR) trusts the same certificates and
 * reads each only when a chain asks for it.
 *
 * SSL_CERT_FILE, when set, is still loaded, as OpenSSL's defaults would,
 * unless it is the distribution's bundle of that same directory
 * (ca-certificates.crt in it, the path Debian's environments and images
 * set it to): update-ca-certificates writes that file and the directory's
 * hash links together from one list of certificates, so the directory
 * alone trusts exactly what the file holds. Any other file (a private CA,
 * a bundle of its own) is parsed as before. */
static bool is_dir_bundle(const char *file, const char *dir) {
  char path[PATH_MAX];
  int n = snprintf(path, sizeof path, "%s/ca-certificates.crt", dir);
  if (n < 0 || (size_t)n >= sizeof path)
    return false;
  struct stat a, b; /* the same file, through any links */
  return stat(file, &a) == 0 && stat(path, &b) == 0 && a.st_dev == b.st_dev &&
         a.st_ino == b.st_ino;
}

static void load_trust_store(SSL_CTX *ctx) {
  const char *dir = getenv(X509_get_default_cert_dir_env());
  if (!dir || !*dir)
    dir = X509_get_default_cert_dir();
  const char *file = getenv(X509_get_default_cert_file_env());
  if (file && *file && !is_dir_bundle(file, dir) &&
      !SSL_CTX_load_verify_file(ctx, file))
    gw_log("cannot load the certificates of SSL_CERT_FILE (%s)", file);
  if (!SSL_CTX_load_verify_dir(ctx, dir))
    gw_log("cannot use the certificate directory %s", dir);
}

static int gw_callback(struct lws *wsi, enum lws_callback_reasons reason,
                       void *user, void *in, size_t len) {
  if ((int)reason == LWS_CALLBACK_OPENSSL_LOAD_EXTRA_CLIENT_VERIFY_CERTS) {
    load_trust_store(user); /* the client SSL_CTX, as the context starts */
    return 0;
  }
  gw_shard *s = wsi ? lws_get_opaque_user_data(wsi) : NULL;
  if (!s)
    return 0;
  bot_gw *g = s->gw;
  /* An int: lws has ~100 reasons and we want five (-Wswitch-enum). */
  switch ((int)reason) {
  case LWS_CALLBACK_CLIENT_ESTABLISHED:
    if (wsi != s->wsi || g->ended || g->stopping)
      return -1;
    s->established = true;
    GW_STAT_ADD(g, connects, 1);
    schedule(g, &s->sul_beat, hello_timeout_cb, GW_HELLO_TIMEOUT_MS);
    break;
  case LWS_CALLBACK_CLIENT_RECEIVE:
    if (wsi == s->wsi && !g->ended)
      on_receive(s, wsi, in, len);
    break;
  case LWS_CALLBACK_CLIENT_WRITEABLE:
    if (wsi != s->wsi || g->ended)
      return 0;
    return on_writeable(s, wsi);
  case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
    if (wsi == s->wsi) {
      const unsigned char *p = in;
      s->peer_close = len >= 2 && p ? (p[0] << 8) | p[1] : 1005;
    }
    break;
  case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
    conn_ended(s, wsi, in, in ? len : 0);
    break;
  case LWS_CALLBACK_CLIENT_CLOSED:
  case LWS_CALLBACK_WSI_DESTROY: /* the fallback: an end is never missed */
    conn_ended(s, wsi, NULL, 0);
    break;
  default:
    break;
  }
  return 0;
}

static const struct lws_protocols gw_protocols[] = {
    {.name = GW_PROTOCOL, .callback = gw_callback, .rx_buffer_size = 16384},
    {0}, /* lws 4.1 has no LWS_PROTOCOL_LIST_TERM */
};

/* ---- the public functions ----------------------------------------------- */

/* The shards cfg asks for, into g->shards; false (logged) when the
 * configuration is not one gateway.h allows. */
static bool make_shards(bot_gw *g, const bot_gw_config *cfg) {
  int n = cfg->shard_count;
  if (n < 0 || n > BOT_GW_MAX_SHARDS) {
    gw_log("a shard count of %d (1 to %d)", n, BOT_GW_MAX_SHARDS);
    return false;
  }
  if (cfg->shard_ids && (n == 0 || cfg->n_shard_ids < 1)) {
    gw_log("shard ids without a shard count");
    return false;
  }
  g->shard_count = n;
  g->n_shards = cfg->shard_ids ? cfg->n_shard_ids : n > 0 ? n : 1;
  g->shards = calloc((size_t)g->n_shards, sizeof *g->shards);
  if (!g->shards)
    return false;
  for (int i = 0; i < g->n_shards; i++) {
    int id = cfg->shard_ids ? cfg->shard_ids[i] : i;
    if (id < 0 || (n > 0 && id >= n) || (i > 0 && id <= g->shards[i - 1].id)) {
      gw_log("shard ids must ascend, each below the shard count %d", n);
      return false;
    }
    gw_shard *s = &g->shards[i];
    s->gw = g;
    s->id = id;
    s->seq = -1;
    bot_gw_budget_init(&s->budget);
  }
  /* Buckets beyond the highest id would stay empty. */
  int mc = cfg->max_concurrency > 0 ? cfg->max_concurrency : 1;
  int top = g->shards[g->n_shards - 1].id + 1;
  g->max_concurrency = mc < top ? mc : top;
  g->bucket_free_at = calloc((size_t)g->max_concurrency, sizeof(int64_t));
  g->plan_ids = calloc((size_t)g->n_shards, sizeof(int));
  g->plan_idx = calloc((size_t)g->n_shards, sizeof(int));
  g->plan_at = calloc((size_t)g->n_shards, sizeof(int64_t));
  return g->bucket_free_at && g->plan_ids && g->plan_idx && g->plan_at;
}

bot_gw *bot_gw_new(const bot_gw_config *cfg) {
  if (!cfg || !cfg->token || !cfg->token[0] ||
      strlen(cfg->token) > GW_MAX_TOKEN) {
    gw_log("no usable token");
    return NULL;
  }
  bot_gw *g = calloc(1, sizeof *g);
  if (!g)
    return NULL;
  pthread_mutex_init(&g->mu, NULL);
  atomic_init(&g->stop_requested, false);
  g->stats.last_seq = -1;
  if (bot_gw_parse_url(cfg->url, &g->main_url) != 0) {
    gw_log("not a ws:// or wss:// URL: %s", cfg->url ? cfg->url : "(none)");
    bot_gw_free(g);
    return NULL;
  }
  g->token = strdup(cfg->token);
  if (!g->token || !make_shards(g, cfg)) {
    bot_gw_free(g);
    return NULL;
  }
  g->intents = cfg->intents;
  g->on_event = cfg->on_event;
  g->on_stop = cfg->on_stop;
  g->ctx = cfg->ctx;
  g->max_payload =
      cfg->max_payload > 0 ? (size_t)cfg->max_payload : 4u * 1024 * 1024;
  g->backoff_base_ms = cfg->backoff_base_ms > 0 ? cfg->backoff_base_ms : 1000;
  g->backoff_max_ms = cfg->backoff_max_ms > 0 ? cfg->backoff_max_ms : 60000;
  if (g->backoff_max_ms < g->backoff_base_ms)
    g->backoff_max_ms = g->backoff_base_ms;
  g->identify_gap_ms = cfg->identify_gap_ms > 0 ? cfg->identify_gap_ms : 5000;
  g->start_delay_ms = cfg->start_delay_ms > 0 ? cfg->start_delay_ms : 0;

  lws_set_log_level(LLL_ERR, gw_lws_log);
  struct lws_context_creation_info info;
  memset(&info, 0, sizeof info);
  info.port = CONTEXT_PORT_NO_LISTEN;
  info.protocols = gw_protocols;
  /* The system's certificates come from load_trust_store. */
  info.options = LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT |
                 LWS_SERVER_OPTION_DISABLE_OS_CA_CERTS;
  /* A connection per shard (two while one closes and the next opens),
   * lws's pipe, DNS. */
  info.fd_limit_per_thread = 6 + 2 * (unsigned)g->n_shards;
  info.user = g;
  g->lws = lws_create_context(&info);
  if (!g->lws) {
    gw_log("could not create the libwebsockets context");
    bot_gw_free(g);
    return NULL;
  }
  if (lws_get_random(g->lws, &g->rng, sizeof g->rng) != sizeof g->rng ||
      !g->rng)
    g->rng =
        (uint64_t)now_ms() ^ (uint64_t)(uintptr_t)g ^ 0x9E3779B97F4A7C15ULL;
  return g;
}

int bot_gw_run(bot_gw *g) {
  if (!g)
    return -1;
  if (g->ended)
    return g->end_code;
  /* The first connections in the Identify plan's order, each when its
   * turn comes (after start_delay_ms). */
  int64_t t = now_ms();
  for (int b = 0; b < g->max_concurrency; b++)
    g->bucket_free_at[b] = t + g->start_delay_ms;
  for (int i = 0; i < g->n_shards; i++)
    g->plan_ids[i] = g->shards[i].id;
  bot_gw_identify_plan(g->max_concurrency, g->plan_ids, g->n_shards,
                       g->bucket_free_at, g->identify_gap_ms, t, g->plan_at);
  for (int i = 0; i < g->n_shards; i++)
    schedule(g, &g->shards[i].sul_connect, connect_cb, g->plan_at[i] - t);
  while (!g->ended) {
    if (!g->stopping && atomic_load(&g->stop_requested))
      begin_stop(g, 0, "stopped");
    if (g->ended)
      break;
    if (lws_service(g->lws, 0) < 0) {
      gw_log("the event loop failed");
      g->end_code = -1;
      g->end_why = "event loop failure";
      finish(g);
    }
  }
  return g->end_code;
}

void bot_gw_stop(bot_gw *g) {
  if (!g)
    return;
  atomic_store(&g->stop_requested, true);
  if (g->lws)
    lws_cancel_service(g->lws);
}

void bot_gw_free(bot_gw *g) {
  if (!g)
    return;
  g->ended = true; /* callbacks during the destroy change nothing */
  if (g->lws)
    lws_context_destroy(g->lws);
  for (int i = 0; g->shards && i < g->n_shards; i++) {
    queue_clear(&g->shards[i]);
    free(g->shards[i].rx);
  }
  free(g->shards);
  free(g->bucket_free_at);
  free(g->plan_ids);
  free(g->plan_idx);
  free(g->plan_at);
  if (g->token) { /* do not leave the token in freed memory */
    for (volatile char *p = g->token; *p; p++)
      *p = '\0';
    free(g->token);
  }
  pthread_mutex_destroy(&g->mu);
  free(g);
}

void bot_gw_get_stats(bot_gw *g, bot_gw_stats *out) {
  if (!g) {
    memset(out, 0, sizeof *out);
    return;
  }
  pthread_mutex_lock(&g->mu);
  *out = g->stats;
  pthread_mutex_unlock(&g->mu);
}
