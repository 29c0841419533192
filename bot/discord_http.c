/*
 * discord_http.c: the HTTP interactions endpoint. With LAIR_HTTP_PORT
 * set, Discord POSTs every interaction to the application's
 * Interactions Endpoint URL instead of sending it over the gateway, so
 * that several stateless Lair processes behind a load balancer can share
 * the work. A TLS-terminating reverse proxy stands in front: this server
 * speaks plain HTTP/1.1 on LAIR_HTTP_ADDR (127.0.0.1 by default).
 *
 * A request is refused before anything else happens unless it is a POST
 * to LAIR_HTTP_PATH (404, 405) of an application/json body (415) within
 * BOT_HTTP_BODY_MAX (413; an empty one 400), signed: X-Signature-Ed25519 over
 * X-Signature-Timestamp followed by the raw body, by the application's
 * LAIR_PUBLIC_KEY, the timestamp within BOT_HTTP_MAX_SKEW of now (401).
 * A PING is answered here with a PONG. Any other interaction goes to the
 * worker's queue (the gateway's), and the request is held open:
 *
 * - the worker's first answer (bot_http_respond) becomes the HTTP
 *   response's body; its follow-ups and edits go through REST as over
 *   the gateway, once that response is written;
 * - an answer carrying files (a picture, a record) goes to the REST
 *   callback endpoint as multipart, and the request is answered 202
 *   without a body once that callback is done, as Discord's docs ask;
 * - BOT_HTTP_DEFER_AFTER seconds after the request arrived, if the worker
 *   has not answered, this thread answers with the interaction's
 *   deferral (type 5 for a command, 6 for a component, an empty list
 *   for an autocomplete): Discord waits 3 s. The worker's answer then
 *   goes as an edit of the deferred message or a follow-up
 *   (discord_ix.c).
 *
 * Threads: lws is single-threaded. Everything shared with the worker
 * (the requests waiting for an answer) is under h->mu, and the worker
 * wakes this thread with lws_cancel_service. An interaction id is still
 * applied at most once: the worker's and the command layer's checks do
 * not care how it came. Nothing of a refused request is logged but one
 * line at debug level: never its headers' values, its body or the key.
 */
#include "discord_http.h"
#include "discord_int.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <libwebsockets.h>
#include <pthread.h>
#include <sodium.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

/* ---- configuration ----------------------------------------------------- */

bool bot_http_hex(const char *hex, unsigned char *out, size_t n) {
  size_t len = hex ? strlen(hex) : 0, got = 0;
  const char *end = NULL;
  /* libsodium's decoder stops at the first non-hex character: the whole
   * text must be exactly n bytes' worth. */
  return hex && len == 2 * n &&
         sodium_hex2bin(out, n, hex, len, NULL, &got, &end) == 0 &&
         got == n && end == hex + len;
}

static bool set_or_empty(const char *v) { return v && *v; }

bool bot_http_config_from_env(bot_http_config *c, char *err, size_t cap) {
  memset(c, 0, sizeof *c);
  const char *port = getenv("LAIR_HTTP_PORT");
  const char *addr = getenv("LAIR_HTTP_ADDR");
  const char *path = getenv("LAIR_HTTP_PATH");
  const char *key = getenv("LAIR_PUBLIC_KEY");
  if (!set_or_empty(port)) {
    /* The others mean nothing without it: one set alone is a mistake
     * better heard of now than found as a bot that never answers. */
    const char *lone = set_or_empty(key)    ? "LAIR_PUBLIC_KEY"
                       : set_or_empty(addr) ? "LAIR_HTTP_ADDR"
                       : set_or_empty(path) ? "LAIR_HTTP_PATH"
                                            : NULL;
    if (lone) {
      snprintf(err, cap,
               "%s is set but LAIR_HTTP_PORT is not: set LAIR_HTTP_PORT to "
               "receive interactions over HTTP, or unset %s",
               lone, lone);
      return false;
    }
    return true;
  }
  char *end;
  errno = 0;
  long p = strtol(port, &end, 10);
  if (errno || *end || !isdigit((unsigned char)*port) || p < 1 || p > 65535) {
    snprintf(err, cap, "LAIR_HTTP_PORT must be a port number from 1 to 65535");
    return false;
  }
  c->port = (int)p;
  snprintf(c->addr, sizeof c->addr, "%s",
           set_or_empty(addr) ? addr : "127.0.0.1");
  unsigned char ip[16];
  if (strlen(addr ? addr : "") >= sizeof c->addr ||
      (inet_pton(AF_INET, c->addr, ip) != 1 &&
       inet_pton(AF_INET6, c->addr, ip) != 1)) {
    snprintf(err, cap,
             "LAIR_HTTP_ADDR must be an IPv4 or IPv6 address to listen on "
             "(e.g. 127.0.0.1)");
    return false;
  }
  snprintf(c->path, sizeof c->path, "%s",
           set_or_empty(path) ? path : "/interactions");
  bool path_ok = c->path[0] == '/' && strlen(path ? path : "") < sizeof c->path;
  for (const char *s = c->path; path_ok && *s; s++)
    path_ok = *s > ' ' && *s <= '~' && *s != '?' && *s != '#';
  if (!path_ok) {
    snprintf(err, cap,
             "LAIR_HTTP_PATH must be a URL path starting with / (at most 127 "
             "characters, no spaces, ? or #)");
    return false;
  }
  if (!set_or_empty(key)) {
    snprintf(err, cap,
             "LAIR_PUBLIC_KEY is not set: LAIR_HTTP_PORT needs the "
             "application's public key (developer portal, General "
             "Information)");
    return false;
  }
  if (!bot_http_hex(key, c->public_key, sizeof c->public_key)) {
    snprintf(err, cap,
             "LAIR_PUBLIC_KEY must be 64 hex digits (the "
             "application's public key)");
    return false;
  }
  return true;
}

/* ---- signatures ---------------------------------------------------------- */

bool bot_http_signature_ok(const unsigned char pk[32], const char *sig_hex,
                           const char *timestamp, const unsigned char *body,
                           size_t len) {
  unsigned char sig[crypto_sign_BYTES];
  if (!timestamp || !*timestamp || (!body && len) ||
      !bot_http_hex(sig_hex, sig, sizeof sig) || sodium_init() < 0)
    return false;
  size_t tl = strlen(timestamp);
  unsigned char *msg = malloc(tl + len + 1);
  if (!msg)
    return false;
  memcpy(msg, timestamp, tl);
  if (len)
    memcpy(msg + tl, body, len);
  bool ok = crypto_sign_verify_detached(sig, msg, tl + len, pk) == 0;
  free(msg);
  return ok;
}

bool bot_http_timestamp_ok(const char *timestamp, int64_t now) {
  if (!timestamp || !isdigit((unsigned char)*timestamp) ||
      strlen(timestamp) > 18)
    return false;
  char *end;
  errno = 0;
  long long t = strtoll(timestamp, &end, 10);
  if (errno || *end)
    return false;
  /* A signature is good for ever: without this, whoever once saw a
   * signed request (a log, a proxy) could send it again. The interaction
   * id would be refused as a duplicate, but only while it is remembered;
   * a window of minutes bounds the replay whatever the memory, and still
   * allows for clocks a little apart. */
  return t >= now - BOT_HTTP_MAX_SKEW && t <= now + BOT_HTTP_MAX_SKEW;
}

/* Seconds on the monotonic clock, as bot_dc_now (whose file this one
 * does not pull in, so that its tests link without the transport). */
static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ---- the requests waiting for an answer ---------------------------------- */

enum {
  P_WAITING, /* no answer yet */
  P_REST,    /* the answer went to the callback endpoint */
  P_READY,   /* an answer waits to be written */
  P_WRITTEN, /* the answer was taken for writing */
  P_CLOSED   /* the connection closed unanswered */
};

/* One verified interaction's request, from its arrival until both the
 * connection and the worker are done with it (refs). Under h->mu but
 * wsi, which only the lws thread touches. */
typedef struct pending {
  struct pending *next;
  uint64_t handle;
  int refs;
  int state;
  int status;     /* P_READY: the HTTP status to write */
  char *body;     /* P_READY: its JSON body, or NULL for none */
  char *deferral; /* the endpoint's own answer at BOT_HTTP_DEFER_AFTER */
  int deferral_type;
  int deferred; /* the deferral's type once it was given, else 0 */
  bool asked;   /* lws_callback_on_writable was called for the answer */
  bool written, write_ok;
  bot_rest_done done; /* told when the answer is written */
  void *done_ctx;
  struct lws *wsi; /* NULL once the connection is gone (lws thread) */
} pending;

struct bot_http {
  bot_http_config cfg;
  bot_http_hooks hk;
  struct lws_context *lws;
  pthread_mutex_t mu;
  pending *list;
  uint64_t next_handle;
  atomic_bool stop;
  atomic_uint_fast64_t heard;
  lws_sorted_usec_list_t sul_beat;
};

static void http_log(const bot_http *h, int level, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void http_log(const bot_http *h, int level, const char *fmt, ...) {
  if (level > h->hk.log_level)
    return;
  char line[300];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  fprintf(stderr, "lair http: %s\n", line);
}

static pending *find(bot_http *h, uint64_t handle) {
  for (pending *p = h->list; p; p = p->next)
    if (p->handle == handle)
      return p;
  return NULL;
}

/* Drops one reference to p (h->mu held); frees it with the last. */
static void unref(bot_http *h, pending *p) {
  if (--p->refs > 0)
    return;
  for (pending **pp = &h->list; *pp; pp = &(*pp)->next)
    if (*pp == p) {
      *pp = p->next;
      break;
    }
  free(p->body);
  free(p->deferral);
  free(p);
}

/* Makes status and body (taken over, may be NULL) p's answer (h->mu
 * held). */
static void set_answer(pending *p, int status, char *body) {
  free(p->body);
  p->state = P_READY;
  p->status = status;
  p->body = body;
}

bot_http_answer bot_http_respond(bot_http *h, uint64_t handle, const char *text,
                                 int *deferred, bot_rest_done done, void *ctx) {
  bot_http_answer r = BOT_HTTP_GONE;
  bool call = false, wake = false;
  bot_rest_result res = {.status = 0, .error = "connection closed", .body = ""};
  pthread_mutex_lock(&h->mu);
  pending *p = find(h, handle);
  if (p && p->deferred) {
    r = BOT_HTTP_DEFERRED;
    *deferred = p->deferred;
    if (p->written || p->state == P_CLOSED) {
      call = true;
      res.status = p->write_ok ? 200 : 0;
      res.error = p->write_ok ? NULL : res.error;
    } else {
      p->done = done;
      p->done_ctx = ctx;
    }
  } else if (p && p->state == P_WAITING && !text) {
    r = BOT_HTTP_REST;
    p->state = P_REST;
    p->refs++; /* bot_http_rest_done's */
  } else if (p && p->state == P_WAITING) {
    char *copy = strdup(text);
    if (copy) {
      r = BOT_HTTP_BODY;
      set_answer(p, 200, copy);
      p->done = done;
      p->done_ctx = ctx;
      wake = true;
    }
  }
  pthread_mutex_unlock(&h->mu);
  if (call && done)
    done(ctx, &res);
  if (wake)
    lws_cancel_service(h->lws);
  return r;
}

void bot_http_rest_done(bot_http *h, uint64_t handle) {
  pthread_mutex_lock(&h->mu);
  pending *p = find(h, handle);
  bool wake = false;
  if (p) {
    if (p->state == P_REST) {
      set_answer(p, 202, NULL);
      wake = true;
    }
    unref(h, p);
  }
  pthread_mutex_unlock(&h->mu);
  if (wake)
    lws_cancel_service(h->lws);
}

void bot_http_finish(bot_http *h, uint64_t handle, int status) {
  pthread_mutex_lock(&h->mu);
  pending *p = find(h, handle);
  bool wake = false;
  if (p) {
    if (p->state == P_WAITING) {
      set_answer(p, status, NULL);
      wake = true;
    }
    unref(h, p);
  }
  pthread_mutex_unlock(&h->mu);
  if (wake)
    lws_cancel_service(h->lws);
}

uint64_t bot_http_heard(bot_http *h) { return h ? atomic_load(&h->heard) : 0; }

/* ---- the server ---------------------------------------------------------- */

/* One connection's current request (lws's per-session data). */
typedef struct conn {
  double received;
  bool refused; /* an answer was decided before the body was read */
  char sig[136], ts[24];
  size_t want; /* Content-Length */
  unsigned char *body;
  size_t len;
  /* The response being written: status, content type, body. */
  int status;
  const char *type;
  char *out; /* malloc'd, or NULL */
  size_t out_len;
  bool headers_sent, answering;
  pending *p; /* the interaction it carries, once verified */
} conn;

static void conn_reset(conn *c) {
  free(c->body);
  free(c->out);
  memset(c, 0, sizeof *c);
}

/* Answers c's request with status and a short plain-text body, then
 * closes the connection (a refused request's body may be unread). */
static int refuse(bot_http *h, struct lws *wsi, conn *c, int status,
                  const char *why) {
  http_log(h, LOG_DEBUG, "refused a request: %d %s", status, why);
  free(c->out);
  c->refused = true;
  c->status = status;
  c->type = "text/plain";
  size_t n = strlen(why);
  c->out = malloc(n + 1);
  if (!c->out)
    return -1;
  memcpy(c->out, why, n);
  c->out[n] = '\n';
  c->out_len = n + 1;
  c->answering = true;
  lws_callback_on_writable(wsi);
  return 0;
}

/* Copies header `name` (lower case, with its colon) into out (cap
 * bytes); false when it is missing or longer. */
static bool custom_header(struct lws *wsi, const char *name, char *out,
                          size_t cap) {
  int n = lws_hdr_custom_length(wsi, name, (int)strlen(name));
  if (n < 0 || (size_t)n >= cap)
    return false;
  return lws_hdr_custom_copy(wsi, out, (int)cap, name, (int)strlen(name)) >= 0;
}

static int on_request(bot_http *h, struct lws *wsi, conn *c, const char *uri) {
  conn_reset(c);
  c->received = now_s();
  if (!uri || strcmp(uri, h->cfg.path) != 0)
    return refuse(h, wsi, c, 404, "not found");
  if (lws_hdr_total_length(wsi, WSI_TOKEN_POST_URI) <= 0)
    return refuse(h, wsi, c, 405, "method not allowed: POST only");
  char type[80] = "";
  if (lws_hdr_copy(wsi, type, sizeof type, WSI_TOKEN_HTTP_CONTENT_TYPE) < 0)
    type[0] = '\0';
  size_t tl = strcspn(type, ";");
  while (tl > 0 && type[tl - 1] == ' ')
    tl--;
  if (tl != 16 || strncasecmp(type, "application/json", 16) != 0)
    return refuse(h, wsi, c, 415, "Content-Type must be application/json");
  char len[24] = "";
  if (lws_hdr_copy(wsi, len, sizeof len, WSI_TOKEN_HTTP_CONTENT_LENGTH) <= 0)
    return refuse(h, wsi, c, 411, "Content-Length required");
  char *end;
  errno = 0;
  unsigned long long want = strtoull(len, &end, 10);
  if (errno || *end || !isdigit((unsigned char)len[0]))
    return refuse(h, wsi, c, 400, "bad Content-Length");
  if (want > BOT_HTTP_BODY_MAX)
    return refuse(h, wsi, c, 413, "body too large");
  if (want == 0) /* lws would wait for a body that never comes */
    return refuse(h, wsi, c, 400, "empty body");
  if (!custom_header(wsi, "x-signature-ed25519:", c->sig, sizeof c->sig) ||
      !custom_header(wsi, "x-signature-timestamp:", c->ts, sizeof c->ts))
    return refuse(h, wsi, c, 401, "invalid request signature");
  c->want = (size_t)want;
  c->body = malloc(c->want + 1);
  if (!c->body)
    return refuse(h, wsi, c, 503, "out of memory");
  return 0;
}

static int on_body(bot_http *h, struct lws *wsi, conn *c, const void *in,
                   size_t n) {
  if (c->refused || c->p)
    return 0;
  if (!c->body || n > c->want - c->len)
    return refuse(h, wsi, c, 413, "body too large");
  memcpy(c->body + c->len, in, n);
  c->len += n;
  return 0;
}

/* The whole body is in: verify it, answer a PING, hand the rest over. */
static int on_body_done(bot_http *h, struct lws *wsi, conn *c) {
  if (c->refused || c->p)
    return 0;
  if (!c->body || c->len != c->want)
    return refuse(h, wsi, c, 400, "body shorter than its Content-Length");
  if (!bot_http_timestamp_ok(c->ts, (int64_t)time(NULL)))
    return refuse(h, wsi, c, 401, "invalid request signature: stale timestamp");
  if (!bot_http_signature_ok(h->cfg.public_key, c->sig, c->ts, c->body, c->len))
    return refuse(h, wsi, c, 401, "invalid request signature");
  atomic_fetch_add(&h->heard, 1);
  json_t *d =
      json_loadb((const char *)c->body, c->len, JSON_REJECT_DUPLICATES, NULL);
  json_t *type = json_object_get(d, "type");
  if (!json_is_integer(type)) {
    json_decref(d);
    return refuse(h, wsi, c, 400, "not an interaction");
  }
  if (json_integer_value(type) == 1) {
    json_decref(d);
    c->status = 200;
    c->type = "application/json";
    c->out = strdup("{\"type\":1}");
    c->out_len = c->out ? strlen(c->out) : 0;
    c->answering = true;
    lws_callback_on_writable(wsi);
    return c->out ? 0 : -1;
  }
  char *deferral = h->hk.deferral(h->hk.ctx, d);
  if (!deferral) {
    json_decref(d);
    return refuse(h, wsi, c, 400, "not an interaction Lair answers");
  }
  pending *p = calloc(1, sizeof *p);
  if (!p) {
    free(deferral);
    json_decref(d);
    return refuse(h, wsi, c, 503, "out of memory");
  }
  p->refs = 2; /* the connection's and the worker's */
  p->wsi = wsi;
  p->deferral = deferral;
  json_t *dj = json_loads(deferral, 0, NULL);
  p->deferral_type = (int)json_integer_value(json_object_get(dj, "type"));
  json_decref(dj);
  pthread_mutex_lock(&h->mu);
  p->handle = ++h->next_handle;
  p->next = h->list;
  h->list = p;
  pthread_mutex_unlock(&h->mu);
  c->p = p;
  double left = c->received + BOT_HTTP_DEFER_AFTER - now_s();
  lws_set_timer_usecs(wsi, left > 0 ? (lws_usec_t)(left * 1e6) : 1);
  h->hk.deliver(h->hk.ctx, d, p->handle, c->received);
  return 0;
}

/* The deadline: an interaction still unanswered gets its deferral, one
 * whose answer went to the callback endpoint a bare 202. */
static void on_timer(bot_http *h, struct lws *wsi, conn *c) {
  if (!c->p)
    return;
  pthread_mutex_lock(&h->mu);
  pending *p = c->p;
  if (p->state == P_WAITING) {
    set_answer(p, 200, p->deferral);
    p->deferral = NULL;
    p->deferred = p->deferral_type;
    http_log(h, LOG_DEBUG, "no answer after %.1f s: deferred (type %d)",
             BOT_HTTP_DEFER_AFTER, p->deferred);
  } else if (p->state == P_REST) {
    set_answer(p, 202, NULL);
  }
  pthread_mutex_unlock(&h->mu);
  lws_callback_on_writable(wsi);
}

/* Tells p's done (if any) how its answer's writing ended. */
static void tell_written(bot_http *h, pending *p, bool ok) {
  pthread_mutex_lock(&h->mu);
  p->written = true;
  p->write_ok = ok;
  bot_rest_done done = p->done;
  void *ctx = p->done_ctx;
  p->done = NULL;
  pthread_mutex_unlock(&h->mu);
  bot_rest_result r = {.status = ok ? 200 : 0,
                       .error = ok ? NULL : "the response was not written",
                       .body = ""};
  if (done)
    done(ctx, &r);
}

/* The connection is done with its interaction. */
static void conn_release(bot_http *h, conn *c, bool closed) {
  pending *p = c->p;
  if (!p)
    return;
  c->p = NULL;
  bot_rest_done done = NULL;
  void *ctx = NULL;
  pthread_mutex_lock(&h->mu);
  p->wsi = NULL;
  if (closed && !p->written) {
    p->state = P_CLOSED;
    done = p->done;
    ctx = p->done_ctx;
    p->done = NULL;
  }
  unref(h, p);
  pthread_mutex_unlock(&h->mu);
  if (done) {
    bot_rest_result r = {.status = 0, .error = "connection closed", .body = ""};
    done(ctx, &r);
  }
}

static int on_writeable(bot_http *h, struct lws *wsi, conn *c) {
  if (!c->answering && c->p) { /* the interaction's answer, if it is ready */
    pthread_mutex_lock(&h->mu);
    pending *p = c->p;
    if (p->state == P_READY) {
      p->state = P_WRITTEN;
      c->status = p->status;
      c->type = "application/json";
      c->out = p->body;
      c->out_len = p->body ? strlen(p->body) : 0;
      p->body = NULL;
      c->answering = true;
    }
    pthread_mutex_unlock(&h->mu);
    if (c->answering)
      lws_set_timer_usecs(wsi, LWS_SET_TIMER_USEC_CANCEL);
  }
  if (!c->answering)
    return 0;
  if (!c->headers_sent) {
    unsigned char buf[LWS_PRE + 512];
    unsigned char *start = buf + LWS_PRE, *p = start, *end = buf + sizeof buf;
    if (lws_add_http_common_headers(wsi, (unsigned)c->status,
                                    c->out_len ? c->type : NULL, c->out_len, &p,
                                    end) ||
        (c->status == 405 && lws_add_http_header_by_name(
                                 wsi, (const unsigned char *)"allow:",
                                 (const unsigned char *)"POST", 4, &p, end)) ||
        lws_finalize_write_http_header(wsi, start, &p, end)) {
      if (c->p)
        tell_written(h, c->p, false);
      return -1;
    }
    c->headers_sent = true;
    if (c->out_len) { /* one lws_write per WRITEABLE */
      lws_callback_on_writable(wsi);
      return 0;
    }
  } else if (c->out_len) {
    unsigned char *buf = malloc(LWS_PRE + c->out_len);
    int n = -1;
    if (buf) {
      memcpy(buf + LWS_PRE, c->out, c->out_len);
      n = lws_write(wsi, buf + LWS_PRE, c->out_len, LWS_WRITE_HTTP_FINAL);
      free(buf);
    }
    if (n < (int)c->out_len) {
      if (c->p)
        tell_written(h, c->p, false);
      return -1;
    }
  }
  if (c->p) {
    tell_written(h, c->p, c->status < 300);
    conn_release(h, c, false);
  }
  bool keep = !c->refused && c->status < 300;
  conn_reset(c);
  if (!keep || lws_http_transaction_completed(wsi))
    return -1;
  return 0;
}

/* The worker answered (lws_cancel_service): the connections whose
 * answers are ready are asked to write them. */
static void on_wake(bot_http *h) {
  pthread_mutex_lock(&h->mu);
  for (pending *p = h->list; p; p = p->next)
    if (p->state == P_READY && p->wsi && !p->asked) {
      p->asked = true;
      lws_callback_on_writable(p->wsi);
    }
  pthread_mutex_unlock(&h->mu);
}

static int http_callback(struct lws *wsi, enum lws_callback_reasons reason,
                         void *user, void *in, size_t len) {
  struct lws_context *cx = lws_get_context(wsi);
  bot_http *h = cx ? lws_context_user(cx) : NULL;
  conn *c = user;
  if (!h)
    return lws_callback_http_dummy(wsi, reason, user, in, len);
  /* An int: lws has ~100 reasons and we want seven (-Wswitch-enum). */
  switch ((int)reason) {
  case LWS_CALLBACK_HTTP:
    return on_request(h, wsi, c, in);
  case LWS_CALLBACK_HTTP_BODY:
    return on_body(h, wsi, c, in, len);
  case LWS_CALLBACK_HTTP_BODY_COMPLETION:
    return on_body_done(h, wsi, c);
  case LWS_CALLBACK_HTTP_WRITEABLE:
    return on_writeable(h, wsi, c);
  case LWS_CALLBACK_TIMER:
    on_timer(h, wsi, c);
    return 0;
  case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
    on_wake(h);
    return 0;
  case LWS_CALLBACK_CLOSED_HTTP:
    if (c) {
      conn_release(h, c, true);
      conn_reset(c);
    }
    return 0;
  default:
    return lws_callback_http_dummy(wsi, reason, user, in, len);
  }
}

static const struct lws_protocols http_protocols[] = {
    {"lair-http", http_callback, sizeof(conn), 0, 0, NULL, 0},
    {0}, /* lws 4.1 has no LWS_PROTOCOL_LIST_TERM */
};

/* lws's own error lines, under the same prefix (they end with '\n'). */
static void http_lws_log(int level, const char *line) {
  (void)level;
  fprintf(stderr, "lair http: lws: %s", line);
}

static void beat_cb(lws_sorted_usec_list_t *sul) {
  bot_http *h = lws_container_of(sul, bot_http, sul_beat);
  atomic_fetch_add(&h->heard, 1);
  lws_sul_schedule(h->lws, 0, &h->sul_beat, beat_cb, 2 * LWS_USEC_PER_SEC);
}

bot_http *bot_http_new(const bot_http_config *cfg, const bot_http_hooks *hk) {
  if (sodium_init() < 0) {
    fputs("lair http: libsodium could not be initialised\n", stderr);
    return NULL;
  }
  bot_http *h = calloc(1, sizeof *h);
  if (!h)
    return NULL;
  h->cfg = *cfg;
  h->hk = *hk;
  pthread_mutex_init(&h->mu, NULL);
  atomic_init(&h->stop, false);
  atomic_init(&h->heard, 0);
  lws_set_log_level(LLL_ERR, http_lws_log);
  struct lws_context_creation_info info;
  memset(&info, 0, sizeof info);
  info.options = LWS_SERVER_OPTION_EXPLICIT_VHOSTS;
  info.user = h;
  h->lws = lws_create_context(&info);
  if (!h->lws) {
    fputs("lair http: could not create the libwebsockets context\n", stderr);
    bot_http_free(h);
    return NULL;
  }
  memset(&info, 0, sizeof info);
  info.vhost_name = "lair-interactions";
  info.port = cfg->port;
  info.iface = h->cfg.addr;
  info.protocols = http_protocols;
  if (!strchr(h->cfg.addr, ':'))
    info.options = LWS_SERVER_OPTION_DISABLE_IPV6;
  info.keepalive_timeout = 60;
  info.timeout_secs = 10;
  if (!lws_create_vhost(h->lws, &info)) {
    fprintf(stderr,
            "lair http: cannot listen on LAIR_HTTP_ADDR %s, LAIR_HTTP_PORT %d "
            "(in use, or not an address of this machine?)\n",
            h->cfg.addr, cfg->port);
    bot_http_free(h);
    return NULL;
  }
  lws_sul_schedule(h->lws, 0, &h->sul_beat, beat_cb, 2 * LWS_USEC_PER_SEC);
  http_log(h, LOG_INFO, "serving interactions on http://%s:%d%s", h->cfg.addr,
           cfg->port, h->cfg.path);
  return h;
}

int bot_http_run(bot_http *h) {
  while (!atomic_load(&h->stop))
    if (lws_service(h->lws, 0) < 0) {
      http_log(h, LOG_ERROR, "the event loop failed");
      return -1;
    }
  return 0;
}

void bot_http_stop(bot_http *h) {
  if (!h)
    return;
  atomic_store(&h->stop, true);
  lws_cancel_service(h->lws);
}

void bot_http_free(bot_http *h) {
  if (!h)
    return;
  if (h->lws) {
    lws_sul_cancel(&h->sul_beat);
    lws_context_destroy(h->lws); /* closes the connections (conn_release) */
  }
  /* What the worker never finished (it stopped first). */
  while (h->list) {
    pending *p = h->list;
    h->list = p->next;
    free(p->body);
    free(p->deferral);
    free(p);
  }
  pthread_mutex_destroy(&h->mu);
  /* The key is public, but the copy goes anyway with the rest. */
  sodium_memzero(&h->cfg, sizeof h->cfg);
  free(h);
}
