/*
 * gateway.c: Lair's Discord gateway client (gateway.h) on libwebsockets.
 *
 * Everything happens on the thread that calls bot_gw_run: one lws client
 * context, one connection at a time, and four lws timers (connect, beat,
 * delayed identify, stop deadline). lws is single-threaded, so the only
 * things other threads touch are the stop flag (then lws_cancel_service
 * wakes the loop) and the stats, behind a mutex.
 *
 * A connection's life: connect (to resume_gateway_url when a session can
 * be resumed), Hello, then Identify or Resume, dispatches, and an end.
 * How it ended decides what comes next (enum gw_next): resume, a new
 * session, a fatal stop, or the end of a bot_gw_stop. We close a
 * connection ourselves by setting close_code and asking for WRITEABLE,
 * where lws_close_reason() is called and the callback returns -1.
 *
 * Every payload goes through one queue (one lws_write per WRITEABLE),
 * after the size and 120-per-minute checks (bot_gw_budget). A heartbeat
 * is a flag rather than a queue entry, written before anything queued.
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
  GW_NEXT_FATAL,       /* stop with the close code */
  GW_NEXT_STOP,        /* bot_gw_stop: end with 0 */
};

typedef struct gw_out {
  unsigned char *buf; /* LWS_PRE bytes of headroom, then the text */
  size_t len;
} gw_out;

struct bot_gw {
  /* Configuration. */
  bot_gw_url main_url;
  char *token;
  int intents;
  void (*on_event)(void *ctx, const char *type, json_t *d);
  void (*on_stop)(void *ctx, int close_code, const char *why);
  void *ctx;
  size_t max_payload;
  int backoff_base_ms, backoff_max_ms, identify_gap_ms;

  struct lws_context *lws;
  atomic_bool stop_requested;
  bool stopping, ended;
  int end_code;
  uint64_t rng;

  /* The session: survives reconnects. */
  char session_id[128]; /* "" = nothing to resume */
  int64_t seq;          /* the last non-null s, -1 = none */
  bot_gw_url resume_url;
  bool have_resume_url;
  int attempt; /* connection attempts since the last READY/RESUMED */
  bool identified_once;
  int64_t last_identify_ms;
  int64_t identify_not_before_ms; /* op 9 d=false asks for a wait */
  bot_gw_budget budget;
  int64_t budget_logged_ms; /* one refusal line per window */

  /* The current connection. */
  struct lws *wsi;
  bool conn_active; /* started and its end not yet handled */
  bool established, hello_seen, resuming, ack_pending;
  bool closing;       /* we are closing it: ignore what still arrives */
  bool close_started; /* lws_close_reason was called */
  int close_code;
  enum gw_next next;
  int peer_close; /* code of the server's close frame, 0 = none */
  int hb_interval_ms;
  bool hb_pending;
  gw_out queue[GW_QUEUE_CAP];
  int q_head, q_count;
  char *rx;
  size_t rx_len, rx_cap;

  lws_sorted_usec_list_t sul_connect, sul_beat, sul_identify, sul_stop;

  pthread_mutex_t mu; /* guards stats */
  bot_gw_stats stats;
};

/* ---- small helpers ------------------------------------------------------ */

static void gw_log(const char *fmt, ...) {
  char line[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  fprintf(stderr, "lair gateway: %s\n", line);
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

static bool resumable(const bot_gw *g) {
  return g->session_id[0] && g->seq >= 0;
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

/* ---- sending ------------------------------------------------------------ */

static void queue_clear(bot_gw *g) {
  while (g->q_count > 0) {
    free(g->queue[g->q_head].buf);
    g->q_head = (g->q_head + 1) % GW_QUEUE_CAP;
    g->q_count--;
  }
  g->q_head = 0;
  g->hb_pending = false;
}

static void log_refusal(bot_gw *g, const char *what) {
  int64_t t = now_ms();
  if (g->budget_logged_ms && t - g->budget_logged_ms < BOT_GW_BUDGET_WINDOW_MS)
    return;
  g->budget_logged_ms = t;
  gw_log("%s (payloads sent in the last 60 s: %d of %d); further refusals "
         "this minute are not logged",
         what, g->budget.count, BOT_GW_BUDGET_LIMIT);
}

/* Queues text (copied); the checks of bot_gw_send. */
static bot_gw_send_result queue_text(bot_gw *g, const char *text, size_t len) {
  if (!g->wsi || !g->established || g->closing)
    return BOT_GW_SEND_CLOSED;
  if (len > BOT_GW_MAX_SEND) {
    GW_STAT_ADD(g, dropped_by_budget, 1);
    gw_log("a %zu-byte payload was not sent (at most %d bytes)", len,
           BOT_GW_MAX_SEND);
    return BOT_GW_SEND_TOO_BIG;
  }
  if (g->q_count == GW_QUEUE_CAP) {
    GW_STAT_ADD(g, dropped_by_budget, 1);
    log_refusal(g, "a payload was not sent: the send queue is full");
    return BOT_GW_SEND_QUEUE_FULL;
  }
  if (!bot_gw_budget_take(&g->budget, now_ms(), false)) {
    GW_STAT_ADD(g, dropped_by_budget, 1);
    log_refusal(g, "a payload was not sent: 120 per minute reached");
    return BOT_GW_SEND_BUDGET;
  }
  unsigned char *buf = malloc(LWS_PRE + len);
  if (!buf)
    return BOT_GW_SEND_NOMEM;
  memcpy(buf + LWS_PRE, text, len);
  int tail = (g->q_head + g->q_count) % GW_QUEUE_CAP;
  g->queue[tail] = (gw_out){.buf = buf, .len = len};
  g->q_count++;
  lws_callback_on_writable(g->wsi);
  return BOT_GW_SEND_OK;
}

bot_gw_send_result bot_gw_send(bot_gw *g, json_t *payload) {
  char *text = json_dumps(payload, JSON_COMPACT);
  if (!text)
    return BOT_GW_SEND_NOMEM;
  bot_gw_send_result r = queue_text(g, text, strlen(text));
  free(text);
  return r;
}

/* Asks for a heartbeat, written (with the then current seq) before
 * anything queued. */
static void queue_heartbeat(bot_gw *g) {
  if (!g->wsi || g->closing || g->hb_pending)
    return;
  if (!bot_gw_budget_take(&g->budget, now_ms(), true)) {
    GW_STAT_ADD(g, dropped_by_budget, 1);
    log_refusal(g, "a heartbeat was not sent: 120 per minute reached");
    return;
  }
  g->hb_pending = true;
  g->ack_pending = true;
  lws_callback_on_writable(g->wsi);
}

/* Starts closing the connection with code; what follows is next. */
static void close_with(bot_gw *g, int code, enum gw_next next) {
  if (!g->wsi || g->closing)
    return;
  g->closing = true;
  g->close_code = code;
  g->next = next;
  lws_sul_cancel(&g->sul_beat);
  lws_sul_cancel(&g->sul_identify);
  if (g->established)
    lws_callback_on_writable(g->wsi);
  else /* nothing to send a close frame on: drop the attempt */
    lws_set_timeout(g->wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
}

static int on_writeable(bot_gw *g, struct lws *wsi) {
  if (g->closing) {
    /* Once: lws then sends the close frame and waits for the echo, and
     * may call here again meanwhile; a second -1 would drop the TCP
     * connection before the server has read our close code. */
    if (g->close_started)
      return 0;
    g->close_started = true;
    lws_close_reason(wsi, (enum lws_close_status)g->close_code, NULL, 0);
    return -1;
  }
  if (g->hb_pending) {
    char buf[LWS_PRE + 64];
    char *text = buf + LWS_PRE;
    int n = g->seq >= 0
                ? snprintf(text, 64, "{\"op\":1,\"d\":%lld}", (long long)g->seq)
                : snprintf(text, 64, "{\"op\":1,\"d\":null}");
    g->hb_pending = false;
    if (lws_write(wsi, (unsigned char *)text, (size_t)n, LWS_WRITE_TEXT) < n)
      return -1;
    pthread_mutex_lock(&g->mu);
    g->stats.heartbeats++;
    g->stats.sent++;
    pthread_mutex_unlock(&g->mu);
  } else if (g->q_count > 0) {
    gw_out o = g->queue[g->q_head];
    g->q_head = (g->q_head + 1) % GW_QUEUE_CAP;
    g->q_count--;
    int n = lws_write(wsi, o.buf + LWS_PRE, o.len, LWS_WRITE_TEXT);
    free(o.buf);
    if (n < (int)o.len)
      return -1;
    GW_STAT_ADD(g, sent, 1);
  }
  if (g->hb_pending || g->q_count > 0)
    lws_callback_on_writable(wsi);
  return 0;
}

/* ---- Identify, Resume, heartbeats --------------------------------------- */

static void send_identify(bot_gw *g) {
  json_t *msg =
      json_pack("{s:i, s:{s:s, s:i, s:{s:s, s:s, s:s}}}", "op", 2, "d", "token",
                g->token, "intents", g->intents, "properties", "os", "linux",
                "browser", "lair", "device", "lair");
  if (!msg || bot_gw_send(g, msg) != BOT_GW_SEND_OK) {
    json_decref(msg);
    gw_log("could not send Identify; reconnecting");
    close_with(g, 4000, GW_NEXT_RESUME);
    return;
  }
  json_decref(msg);
  g->identified_once = true;
  g->last_identify_ms = now_ms();
  GW_STAT_ADD(g, identifies, 1);
}

static void identify_cb(lws_sorted_usec_list_t *sul) {
  bot_gw *g = lws_container_of(sul, bot_gw, sul_identify);
  if (g->wsi && !g->closing && !g->ended)
    send_identify(g);
}

/* Identifies now, or when the 5 s spacing (identify_gap_ms) and an op 9
 * wait allow: Identify is never sent in a loop. */
static void identify_when_allowed(bot_gw *g) {
  int64_t t = now_ms(), wait = 0;
  if (g->identified_once)
    wait = g->last_identify_ms + g->identify_gap_ms - t;
  if (g->identify_not_before_ms - t > wait)
    wait = g->identify_not_before_ms - t;
  if (wait > 0)
    schedule(g, &g->sul_identify, identify_cb, wait);
  else
    send_identify(g);
}

static void send_resume(bot_gw *g) {
  json_t *msg =
      json_pack("{s:i, s:{s:s, s:s, s:I}}", "op", 6, "d", "token", g->token,
                "session_id", g->session_id, "seq", (json_int_t)g->seq);
  if (!msg || bot_gw_send(g, msg) != BOT_GW_SEND_OK) {
    json_decref(msg);
    gw_log("could not send Resume; reconnecting");
    close_with(g, 4000, GW_NEXT_RESUME);
    return;
  }
  json_decref(msg);
  GW_STAT_ADD(g, resumes, 1);
}

static void beat_cb(lws_sorted_usec_list_t *sul) {
  bot_gw *g = lws_container_of(sul, bot_gw, sul_beat);
  if (!g->wsi || g->closing || g->ended)
    return;
  if (g->ack_pending) {
    GW_STAT_ADD(g, zombies, 1);
    gw_log("no heartbeat ACK since the last beat: closing with 4000 and "
           "reconnecting");
    close_with(g, 4000, GW_NEXT_RESUME);
    return;
  }
  queue_heartbeat(g);
  schedule(g, &g->sul_beat, beat_cb, g->hb_interval_ms);
}

static void hello_timeout_cb(lws_sorted_usec_list_t *sul) {
  bot_gw *g = lws_container_of(sul, bot_gw, sul_beat);
  if (!g->wsi || g->closing || g->ended || g->hello_seen)
    return;
  gw_log("no Hello within %d s: reconnecting", GW_HELLO_TIMEOUT_MS / 1000);
  close_with(g, 4000, GW_NEXT_RESUME);
}

/* ---- what the server sends ---------------------------------------------- */

static void on_hello(bot_gw *g, json_t *d) {
  if (g->hello_seen)
    return;
  json_t *iv = json_object_get(d, "heartbeat_interval");
  json_int_t ms = json_is_integer(iv) ? json_integer_value(iv) : 0;
  if (ms <= 0 || ms > 600000) {
    gw_log("Hello without a usable heartbeat_interval: reconnecting");
    close_with(g, 4000, GW_NEXT_RESUME);
    return;
  }
  g->hello_seen = true;
  g->hb_interval_ms = (int)ms;
  g->ack_pending = false;
  schedule(g, &g->sul_beat, beat_cb, (int64_t)((double)ms * rand01(g)));
  if (g->resuming)
    send_resume(g);
  else
    identify_when_allowed(g);
}

static void on_dispatch(bot_gw *g, json_t *msg, json_t *d) {
  const char *type = json_string_value(json_object_get(msg, "t"));
  if (!type)
    return;
  if (strcmp(type, "READY") == 0) {
    const char *sid = json_string_value(json_object_get(d, "session_id"));
    if (sid && strlen(sid) < sizeof g->session_id)
      memcpy(g->session_id, sid, strlen(sid) + 1);
    else
      g->session_id[0] = '\0';
    const char *url =
        json_string_value(json_object_get(d, "resume_gateway_url"));
    g->have_resume_url = url && bot_gw_parse_url(url, &g->resume_url) == 0;
    g->attempt = 0;
    g->identify_not_before_ms = 0;
    gw_log("ready");
  } else if (strcmp(type, "RESUMED") == 0) {
    g->attempt = 0;
    gw_log("resumed");
  }
  GW_STAT_ADD(g, dispatches, 1);
  if (g->on_event)
    g->on_event(g->ctx, type, d ? d : json_null());
}

void bot_gw_on_message(bot_gw *g, const char *text, size_t len) {
  json_error_t err;
  json_t *msg = json_loadb(text, len, 0, &err);
  json_t *op = json_object_get(msg, "op");
  if (!json_is_object(msg) || !json_is_integer(op)) {
    gw_log("a message that is not a gateway payload was ignored");
    json_decref(msg);
    return;
  }
  json_t *s = json_object_get(msg, "s");
  if (json_is_integer(s) && json_integer_value(s) >= 0) {
    g->seq = json_integer_value(s);
    pthread_mutex_lock(&g->mu);
    g->stats.last_seq = g->seq;
    pthread_mutex_unlock(&g->mu);
  }
  json_t *d = json_object_get(msg, "d");
  switch (json_integer_value(op)) {
  case 0:
    on_dispatch(g, msg, d);
    break;
  case 1: /* the server wants a beat now */
    queue_heartbeat(g);
    break;
  case 7:
    gw_log("Discord asked for a reconnect (op 7): resuming");
    close_with(g, 4000, GW_NEXT_RESUME);
    break;
  case 9:
    if (json_is_true(d)) {
      gw_log("invalid session (op 9), resumable: resuming");
      close_with(g, 4000, GW_NEXT_RESUME);
    } else {
      int64_t gap = g->identify_gap_ms;
      int64_t wait = gap / 5 + (int64_t)(rand01(g) * (double)(gap - gap / 5));
      g->identify_not_before_ms = now_ms() + wait;
      gw_log("invalid session (op 9): a new session in %lld ms",
             (long long)wait);
      close_with(g, 4000, GW_NEXT_NEW_SESSION);
    }
    break;
  case 10:
    on_hello(g, d);
    break;
  case 11:
    g->ack_pending = false;
    GW_STAT_ADD(g, acks, 1);
    break;
  default: /* opcodes a client never receives */
    break;
  }
  json_decref(msg);
}

/* Reassembles fragments up to max_payload; a bigger message closes the
 * connection with 1009 and resumes (the message is not dispatched). */
static void on_receive(bot_gw *g, struct lws *wsi, const void *in, size_t len) {
  if (g->closing)
    return;
  if (len > g->max_payload - g->rx_len) {
    gw_log("a message over %zu bytes: closing with 1009 and resuming",
           g->max_payload);
    g->rx_len = 0;
    close_with(g, 1009, GW_NEXT_RESUME);
    return;
  }
  if (g->rx_len + len > g->rx_cap) {
    size_t cap = g->rx_cap ? g->rx_cap : 16384;
    while (cap < g->rx_len + len)
      cap *= 2;
    if (cap > g->max_payload)
      cap = g->max_payload;
    char *p = realloc(g->rx, cap);
    if (!p) {
      gw_log("out of memory for a message: reconnecting");
      g->rx_len = 0;
      close_with(g, 1009, GW_NEXT_RESUME);
      return;
    }
    g->rx = p;
    g->rx_cap = cap;
  }
  if (len)
    memcpy(g->rx + g->rx_len, in, len);
  g->rx_len += len;
  if (!lws_is_final_fragment(wsi) || lws_remaining_packet_payload(wsi) > 0)
    return;
  size_t n = g->rx_len;
  g->rx_len = 0;
  bot_gw_on_message(g, g->rx, n);
  if (g->rx_cap > 65536) { /* READY can be large; do not keep it */
    free(g->rx);
    g->rx = NULL;
    g->rx_cap = 0;
  }
}

/* ---- connections -------------------------------------------------------- */

static void finish(bot_gw *g, int code, const char *why) {
  if (g->ended)
    return;
  g->ended = true;
  g->end_code = code;
  lws_sul_cancel(&g->sul_connect);
  lws_sul_cancel(&g->sul_beat);
  lws_sul_cancel(&g->sul_identify);
  lws_sul_cancel(&g->sul_stop);
  queue_clear(g);
  if (g->on_stop)
    g->on_stop(g->ctx, code, why);
}

static void connect_cb(lws_sorted_usec_list_t *sul);

static void schedule_connect(bot_gw *g) {
  int64_t delay = bot_gw_backoff_ms(g->backoff_base_ms, g->backoff_max_ms,
                                    g->attempt, rand01(g));
  if (g->attempt < 64)
    g->attempt++;
  if (!resumable(g)) { /* this connection will identify */
    int64_t t = now_ms();
    if (g->identified_once &&
        g->last_identify_ms + g->identify_gap_ms - t > delay)
      delay = g->last_identify_ms + g->identify_gap_ms - t;
    if (g->identify_not_before_ms - t > delay)
      delay = g->identify_not_before_ms - t;
  }
  schedule(g, &g->sul_connect, connect_cb, delay);
}

static void connect_cb(lws_sorted_usec_list_t *sul) {
  bot_gw *g = lws_container_of(sul, bot_gw, sul_connect);
  if (g->ended || g->stopping || g->conn_active)
    return;
  bool resume = resumable(g);
  const bot_gw_url *u =
      resume && g->have_resume_url ? &g->resume_url : &g->main_url;
  g->resuming = resume;
  g->established = g->hello_seen = g->ack_pending = g->closing = false;
  g->close_started = false;
  g->hb_pending = false;
  g->close_code = 0;
  g->peer_close = 0;
  g->next = GW_NEXT_RESUME;
  g->rx_len = 0;
  queue_clear(g);

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
  ci.pwsi = &g->wsi; /* set early: callbacks may come before we return */
  g->conn_active = true;
  if (!lws_client_connect_via_info(&ci) && g->conn_active) {
    g->conn_active = false;
    g->wsi = NULL;
    gw_log("could not start a connection to %s:%d; retrying", u->host, u->port);
    schedule_connect(g);
  }
}

/* The current connection is gone: decide what comes next. */
static void conn_ended(bot_gw *g, struct lws *wsi, const char *err,
                       size_t err_len) {
  if (!g->conn_active || wsi != g->wsi)
    return;
  g->conn_active = false;
  g->wsi = NULL;
  lws_sul_cancel(&g->sul_beat);
  lws_sul_cancel(&g->sul_identify);
  queue_clear(g);
  g->rx_len = 0;
  if (g->ended)
    return;
  if (g->stopping) {
    finish(g, 0, "stopped");
    return;
  }
  enum gw_next next = GW_NEXT_RESUME;
  if (g->closing) {
    next = g->next; /* logged when we decided to close */
  } else if (!g->established) {
    gw_log("could not connect (%.*s); retrying",
           err ? (int)(err_len > 200 ? 200 : err_len) : 7,
           err ? err : "no info");
  } else if (g->peer_close) {
    next = next_after_close(g->peer_close);
    if (next != GW_NEXT_FATAL)
      gw_log("Discord closed the connection with %d (%s): %s", g->peer_close,
             close_meaning(g->peer_close),
             next == GW_NEXT_NEW_SESSION ? "starting a new session"
             : resumable(g)              ? "resuming"
                                         : "reconnecting");
  } else {
    gw_log("the connection dropped without a close frame: %s",
           resumable(g) ? "resuming" : "reconnecting");
  }
  switch (next) {
  case GW_NEXT_FATAL:
    gw_log("Discord closed the connection with %d (%s): not reconnecting",
           g->peer_close, close_meaning(g->peer_close));
    finish(g, g->peer_close, close_meaning(g->peer_close));
    return;
  case GW_NEXT_STOP:
    finish(g, 0, "stopped");
    return;
  case GW_NEXT_NEW_SESSION:
    g->session_id[0] = '\0';
    g->seq = -1;
    g->have_resume_url = false;
    break;
  case GW_NEXT_RESUME:
    break;
  }
  schedule_connect(g);
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
  bot_gw *g = lws_context_user(lws_get_context(wsi));
  if (!g)
    return 0;
  /* An int: lws has ~100 reasons and we want five (-Wswitch-enum). */
  switch ((int)reason) {
  case LWS_CALLBACK_CLIENT_ESTABLISHED:
    if (wsi != g->wsi || g->ended)
      return -1;
    g->established = true;
    GW_STAT_ADD(g, connects, 1);
    schedule(g, &g->sul_beat, hello_timeout_cb, GW_HELLO_TIMEOUT_MS);
    break;
  case LWS_CALLBACK_CLIENT_RECEIVE:
    if (wsi == g->wsi && !g->ended)
      on_receive(g, wsi, in, len);
    break;
  case LWS_CALLBACK_CLIENT_WRITEABLE:
    if (wsi != g->wsi || g->ended)
      return 0;
    return on_writeable(g, wsi);
  case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
    if (wsi == g->wsi) {
      const unsigned char *p = in;
      g->peer_close = len >= 2 && p ? (p[0] << 8) | p[1] : 1005;
    }
    break;
  case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
    conn_ended(g, wsi, in, in ? len : 0);
    break;
  case LWS_CALLBACK_CLIENT_CLOSED:
  case LWS_CALLBACK_WSI_DESTROY: /* the fallback: an end is never missed */
    conn_ended(g, wsi, NULL, 0);
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

bot_gw *bot_gw_new(const bot_gw_config *cfg) {
  if (!cfg || !cfg->token || !cfg->token[0] ||
      strlen(cfg->token) > GW_MAX_TOKEN) {
    gw_log("no usable token");
    return NULL;
  }
  bot_gw *g = calloc(1, sizeof *g);
  if (!g)
    return NULL;
  if (bot_gw_parse_url(cfg->url, &g->main_url) != 0) {
    gw_log("not a ws:// or wss:// URL: %s", cfg->url ? cfg->url : "(none)");
    free(g);
    return NULL;
  }
  g->token = strdup(cfg->token);
  if (!g->token) {
    free(g);
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
  g->seq = -1;
  g->stats.last_seq = -1;
  atomic_init(&g->stop_requested, false);
  bot_gw_budget_init(&g->budget);
  pthread_mutex_init(&g->mu, NULL);

  lws_set_log_level(LLL_ERR, gw_lws_log);
  struct lws_context_creation_info info;
  memset(&info, 0, sizeof info);
  info.port = CONTEXT_PORT_NO_LISTEN;
  info.protocols = gw_protocols;
  /* The system's certificates come from load_trust_store. */
  info.options = LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT |
                 LWS_SERVER_OPTION_DISABLE_OS_CA_CERTS;
  info.fd_limit_per_thread = 8; /* one connection, lws's pipe, DNS */
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

static void stop_deadline_cb(lws_sorted_usec_list_t *sul) {
  bot_gw *g = lws_container_of(sul, bot_gw, sul_stop);
  finish(g, 0, "stopped"); /* the connection goes with the context */
}

static void begin_stop(bot_gw *g) {
  g->stopping = true;
  lws_sul_cancel(&g->sul_connect);
  if (g->wsi && g->established) {
    close_with(g, 1000, GW_NEXT_STOP);
    schedule(g, &g->sul_stop, stop_deadline_cb, GW_STOP_DEADLINE_MS);
  } else {
    finish(g, 0, "stopped");
  }
}

int bot_gw_run(bot_gw *g) {
  if (!g)
    return -1;
  if (g->ended)
    return g->end_code;
  schedule(g, &g->sul_connect, connect_cb, 0);
  while (!g->ended) {
    if (!g->stopping && atomic_load(&g->stop_requested))
      begin_stop(g);
    if (g->ended)
      break;
    if (lws_service(g->lws, 0) < 0) {
      gw_log("the event loop failed");
      finish(g, -1, "event loop failure");
    }
  }
  return g->end_code;
}

void bot_gw_stop(bot_gw *g) {
  if (!g)
    return;
  atomic_store(&g->stop_requested, true);
  lws_cancel_service(g->lws);
}

void bot_gw_free(bot_gw *g) {
  if (!g)
    return;
  g->ended = true; /* callbacks during the destroy change nothing */
  if (g->lws)
    lws_context_destroy(g->lws);
  queue_clear(g);
  free(g->rx);
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
