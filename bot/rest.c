/*
 * rest.c: Lair's Discord HTTP client (bot/rest.h) on libcurl's multi
 * interface: requests, sending, the client's loop and the public API. The
 * routes, buckets and the invalid-request window are rest_route.c's
 * (rest_int.h).
 *
 * Callers on any thread append requests to an inbox under a mutex and
 * wake the client's one thread with curl_multi_wakeup. That thread owns
 * everything else: the curl multi handle, the rate-limit state and the
 * two lanes. Interaction callbacks go into a lane of their own that is
 * sent as soon as a request arrives: no route queue, no bucket, no
 * global 50/s token bucket, no global-429 pause (only a Cloudflare-style
 * 429, which blocks the whole IP, holds them back). Other requests queue
 * per route (the key of bot_rest_route) in order; each route points at a
 * bucket, first a provisional one of its own, then the one named by
 * X-RateLimit-Bucket plus the route's major parameter, so routes that
 * Discord counts together share one. A bucket has at most one request in
 * flight, so its X-RateLimit-Remaining and Reset-After always describe
 * the latest answer; a bucket with nothing remaining waits for its reset.
 * Retries (429 after its retry_after, 5xx and timeouts after exponential
 * backoff with jitter) go back to the head of their route's queue, which
 * keeps messages in order. A waiting request is one small block (its
 * method, path and packed body, and what its outcome needs); what a
 * transfer needs (the curl handle, the URL, the unpacked body, the
 * answer) exists only while it is in flight, since behind Discord's
 * limits a thousand may wait at once. Invalid answers (401, 403, 429
 * other than scope "shared") are counted over a sliding ten minutes; at
 * the budget only interaction callbacks are sent. Log lines never show the
 * token, paths or routes (webhook and interaction tokens live in paths).
 */
#include "rest_int.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <curl/curl.h>
#include <jansson.h>

/* ---- small helpers ---------------------------------------------------- */

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static uint64_t next_rand(bot_rest *r) {
  /* xorshift64: jitter only, no need for quality. */
  uint64_t x = r->rng;
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  r->rng = x;
  return x;
}

/* Wipes a secret before freeing it; volatile so it is not optimised out. */
static void free_secret(char *s) {
  if (!s)
    return;
  for (volatile char *p = s; *p; p++)
    *p = 0;
  free(s);
}

static bool parse_double(const char *s, double *out) {
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (end == s || errno || !isfinite(v))
    return false;
  while (*end == ' ' || *end == '\t')
    end++;
  if (*end)
    return false;
  *out = v;
  return true;
}

static bool parse_long(const char *s, long *out) {
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (end == s || errno)
    return false;
  while (*end == ' ' || *end == '\t')
    end++;
  if (*end)
    return false;
  *out = v;
  return true;
}

/* Seconds (as Discord sends them) to a wait in ms, clamped. */
static int64_t wait_ms(double seconds) {
  double ms = seconds * 1000.0;
  if (!(ms >= RETRY_AFTER_MIN_MS))
    return RETRY_AFTER_MIN_MS;
  if (ms > RETRY_AFTER_MAX_MS)
    return RETRY_AFTER_MAX_MS;
  return ceil64(ms);
}

#define STAT_ADD(r, field, n)                                                  \
  do {                                                                         \
    pthread_mutex_lock(&(r)->lock);                                            \
    (r)->stats.field += (n);                                                   \
    pthread_mutex_unlock(&(r)->lock);                                          \
  } while (0)

/* ---- requests --------------------------------------------------------- */

static const char *req_method(const req *q) { return q->s; }
static const char *req_path(const req *q) { return q->s + q->path_at; }
static const char *req_latest(const req *q) {
  return q->latest_at ? q->s + q->latest_at : NULL;
}
/* An interaction callback's JSON, kept as it is: it is sent at once. */
static const char *req_text(const req *q) {
  return q->text_at ? q->s + q->text_at : NULL;
}

/* Ends q's attempt: its transfer, its unpacked body and its answer. */
static void attempt_free(req *q) {
  attempt *a = q->at;
  if (!a)
    return;
  if (a->easy)
    curl_easy_cleanup(a->easy);
  free(a->form);
  free(a->body);
  free(a->resp.p);
  free(a);
  q->at = NULL;
}

/* Frees q's files, counted out of r's (r NULL: never counted). */
static void req_files_free(bot_rest *r, req *q) {
  while (q->file) {
    req_file *next = q->file->next;
    if (r)
      __atomic_sub_fetch(&r->file_bytes, q->file->len, __ATOMIC_RELAXED);
    free(q->file);
    q->file = next;
  }
}

static void req_free_in(bot_rest *r, req *q) {
  if (!q)
    return;
  attempt_free(q);
  free(q->packed);
  req_files_free(r, q);
  free(q);
}

/* The Content-Type of a file part, by its name's ending. */
const char *bot_rest_file_type(const char *name) {
  static const struct {
    const char *end, *type;
  } types[] = {{".png", "image/png"},
               {".json", "application/json"},
               {".md", "text/markdown"}};
  size_t n = strlen(name);
  for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
    size_t e = strlen(types[i].end);
    if (n > e && strcmp(name + n - e, types[i].end) == 0)
      return types[i].type;
  }
  return "application/octet-stream";
}

/* Parses a JSON object answer of q's attempt; NULL when it is not one. */
static json_t *body_json(const req *q) {
  const rbuf *b = &q->at->resp;
  if (!b->p || b->len == 0)
    return NULL;
  json_t *j = json_loadb(b->p, b->len, 0, NULL);
  if (j && !json_is_object(j)) {
    json_decref(j);
    return NULL;
  }
  return j;
}

static const char SUPERSEDED[] = "superseded by a later message";

/* Ends a request: runs its callback and frees it. error NULL means the
 * generic text for the status. A status other than 0 comes from q's
 * attempt, which has not been freed yet. */
static void finish(bot_rest *r, req *q, int status, const char *error) {
  bot_rest_result res = {0};
  char text[64];
  res.status = status;
  res.superseded = error == SUPERSEDED;
  res.sent_at = q->sent_at;
  res.attempts = q->attempts;
  const rbuf *b = q->at ? &q->at->resp : NULL;
  bool has_body = status != 0 && b && b->p && !b->toobig;
  res.body = has_body ? b->p : "";
  res.len = has_body ? b->len : 0;
  if (status >= 400 && has_body) {
    json_t *j = body_json(q);
    json_t *code = j ? json_object_get(j, "code") : NULL;
    if (json_is_integer(code)) {
      json_int_t c = json_integer_value(code);
      if (c > 0 && c <= INT32_MAX)
        res.discord_code = (int)c;
    }
    json_decref(j);
  }
  if (error) {
    res.error = error;
  } else if (status >= 400) {
    if (res.discord_code)
      snprintf(text, sizeof text, "HTTP %d, Discord code %d", status,
               res.discord_code);
    else
      snprintf(text, sizeof text, "HTTP %d", status);
    res.error = text;
  } else if (status == 0) {
    res.error = "no answer";
  }
  if (q->done)
    q->done(q->ctx, &res);
  req_free_in(r, q);
}

static size_t on_body(char *data, size_t size, size_t nmemb, void *ud) {
  attempt *a = ud;
  size_t n = size * nmemb;
  rbuf *b = &a->resp;
  if (n > BODY_CAP - b->len) {
    b->toobig = true;
    return 0; /* aborts the transfer */
  }
  if (b->len + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 1024;
    while (cap < b->len + n + 1)
      cap *= 2;
    if (cap > BODY_CAP + 1)
      cap = BODY_CAP + 1;
    char *p = realloc(b->p, cap);
    if (!p)
      return 0;
    b->p = p;
    b->cap = cap;
  }
  memcpy(b->p + b->len, data, n);
  b->len += n;
  b->p[b->len] = '\0';
  return n;
}

static size_t on_header(char *data, size_t size, size_t nitems, void *ud) {
  attempt *a = ud;
  size_t n = size * nitems;
  rl_hdrs *h = &a->hdr;
  if (n >= 5 && memcmp(data, "HTTP/", 5) == 0) {
    memset(h, 0, sizeof *h); /* a new answer (after 1xx) starts */
    return n;
  }
  const char *colon = memchr(data, ':', n);
  if (!colon)
    return n;
  size_t nlen = (size_t)(colon - data);
  const char *v = colon + 1;
  size_t vlen = n - nlen - 1;
  while (vlen && (*v == ' ' || *v == '\t'))
    v++, vlen--;
  while (vlen && isspace((unsigned char)v[vlen - 1]))
    vlen--;
  char val[96];
  if (vlen >= sizeof val)
    return n; /* no header we read is this long */
  memcpy(val, v, vlen);
  val[vlen] = '\0';
#define IS(name) (nlen == strlen(name) && strncasecmp(data, name, nlen) == 0)
  if (nlen > 12 && strncasecmp(data, "x-ratelimit-", 12) == 0)
    h->any = true;
  if (IS("x-ratelimit-bucket")) {
    if (vlen > 0 && vlen < sizeof h->bucket) {
      memcpy(h->bucket, val, vlen + 1);
      h->has_bucket = true;
    }
  } else if (IS("x-ratelimit-remaining")) {
    h->has_remaining = parse_long(val, &h->remaining) && h->remaining >= 0;
  } else if (IS("x-ratelimit-reset-after")) {
    h->has_reset_after =
        parse_double(val, &h->reset_after) && h->reset_after >= 0;
  } else if (IS("x-ratelimit-global")) {
    h->global = strcasecmp(val, "true") == 0;
  } else if (IS("x-ratelimit-scope")) {
    if (vlen < sizeof h->scope)
      memcpy(h->scope, val, vlen + 1);
  } else if (IS("retry-after")) {
    h->has_retry_after =
        parse_double(val, &h->retry_after) && h->retry_after >= 0;
  }
#undef IS
  return n;
}

/* ---- sending ---------------------------------------------------------- */

static void inflight_add(bot_rest *r, req *q) {
  q->at->prev = NULL;
  q->next = r->inflight;
  if (r->inflight)
    r->inflight->at->prev = q;
  r->inflight = q;
}

static void inflight_remove(bot_rest *r, req *q) {
  if (q->at->prev)
    q->at->prev->next = q->next;
  else
    r->inflight = q->next;
  if (q->next)
    q->next->at->prev = q->at->prev;
  q->next = q->at->prev = NULL;
}

/* Sets up the transfer of q's attempt a on e; false when curl refused. */
static bool setup(bot_rest *r, req *q, attempt *a, CURL *e) {
  /* curl keeps its own copy of the URL. */
  const char *path = req_path(q);
  size_t ulen = strlen(r->api_base) + strlen(path) + 1;
  char *url = malloc(ulen);
  if (!url)
    return false;
  snprintf(url, ulen, "%s%s", r->api_base, path);
  bool ok = true;
#define SET(opt, val) ok = ok && curl_easy_setopt(e, opt, val) == CURLE_OK
  SET(CURLOPT_URL, url);
  SET(CURLOPT_CUSTOMREQUEST, req_method(q));
  SET(CURLOPT_USERAGENT, r->user_agent);
  SET(CURLOPT_NOSIGNAL, 1L);
  SET(CURLOPT_TIMEOUT_MS, (long)r->timeout_ms);
  SET(CURLOPT_WRITEFUNCTION, on_body);
  SET(CURLOPT_WRITEDATA, a);
  SET(CURLOPT_HEADERFUNCTION, on_header);
  SET(CURLOPT_HEADERDATA, a);
  SET(CURLOPT_PRIVATE, q);
  SET(CURLOPT_PROTOCOLS_STR, "http,https");
  SET(CURLOPT_BUFFERSIZE, (long)RECV_BUFFER);
  free(url);
  const char *body = a->body ? a->body : req_text(q);
  if (q->file) {
    /* Discord's file upload: multipart/form-data with the message as
     * payload_json and the files as files[0], files[1]... (the message's
     * "attachments" give each its id, its index). */
    a->form = bot_rest_multipart_new(r->boundary, body ? body : "{}", q->file,
                                     bot_rest_file_type);
    ok = ok && a->form;
    SET(CURLOPT_HTTPHEADER, r->hdr_mime);
    SET(CURLOPT_POST, 1L);
    SET(CURLOPT_POSTFIELDSIZE_LARGE,
        (curl_off_t)(a->form ? a->form->total : 0));
    SET(CURLOPT_READFUNCTION, bot_rest_multipart_read);
    SET(CURLOPT_READDATA, a->form);
    SET(CURLOPT_SEEKFUNCTION, bot_rest_multipart_seek);
    SET(CURLOPT_SEEKDATA, a->form);
  } else if (body) {
    /* Not copied by curl: body lives as long as the attempt. */
    SET(CURLOPT_HTTPHEADER, r->hdr_json);
    SET(CURLOPT_POSTFIELDS, body);
    SET(CURLOPT_POSTFIELDSIZE, (long)strlen(body));
  } else {
    SET(CURLOPT_HTTPHEADER, r->hdr_plain);
    if (strcmp(req_method(q), "GET") != 0 &&
        strcmp(req_method(q), "DELETE") != 0) {
      /* An empty body still gets Content-Length: 0, which Discord
       * expects on POST, PUT and PATCH; hdr_plain removes curl's form
       * Content-Type. */
      SET(CURLOPT_POSTFIELDS, "");
      SET(CURLOPT_POSTFIELDSIZE, 0L);
    }
  }
#undef SET
  return ok;
}

/* Starts one attempt of q; on failure finishes q. */
static void start(bot_rest *r, req *q) {
  attempt *a = calloc(1, sizeof *a);
  if (!a || (q->packed && !(a->body = bot_unpack(q->packed)))) {
    free(a);
    finish(r, q, 0, "out of memory");
    return;
  }
  q->at = a;
  a->easy = curl_easy_init();
  if (!a->easy) {
    finish(r, q, 0, "out of memory");
    return;
  }
  if (!setup(r, q, a, a->easy) ||
      curl_multi_add_handle(r->multi, a->easy) != CURLM_OK) {
    finish(r, q, 0, "could not start the request");
    return;
  }
  q->attempts++;
  a->started = now_s();
  inflight_add(r, q);
  if (q->route) {
    bucket *b = q->route->bucket;
    b->busy = true;
    if (b->known && b->remaining > 0)
      b->remaining--;
    q->route->inflight++;
    q->route->last_used = now_ms();
  }
  STAT_ADD(r, sent, 1);
}

/* Puts q back for another attempt at q->not_before; what the last one
 * held is freed while it waits. */
static void requeue(bot_rest *r, req *q) {
  attempt_free(q);
  if (q->route)
    bot_rest_route_push_front(r, q->route, q);
  else
    bot_rest_ilane_push(r, q);
}

static void retry_later(bot_rest *r, req *q, int64_t now, int status,
                        const char *error) {
  if (q->n5xx >= r->max_5xx) {
    finish(r, q, status, error);
    return;
  }
  q->n5xx++;
  int64_t d = (int64_t)BACKOFF_BASE_MS << (q->n5xx - 1 < 10 ? q->n5xx - 1 : 10);
  if (d > BACKOFF_MAX_MS)
    d = BACKOFF_MAX_MS;
  d += (int64_t)(next_rand(r) % (uint64_t)(d / 2 + 1));
  q->not_before = now + d;
  STAT_ADD(r, retried_5xx, 1);
  requeue(r, q);
}

static void on_429(bot_rest *r, req *q, int64_t now) {
  const rl_hdrs *h = &q->at->hdr;
  STAT_ADD(r, got_429, 1);
  json_t *j = body_json(q);
  double ra = -1;
  bool global = h->global || strcmp(h->scope, "global") == 0;
  if (j) {
    json_t *v = json_object_get(j, "retry_after");
    if (json_is_number(v))
      ra = json_number_value(v);
    if (json_is_true(json_object_get(j, "global")))
      global = true;
  }
  /* Cloudflare answers with HTML and none of Discord's headers: the whole
   * IP is blocked for Retry-After, interaction callbacks included. */
  bool cloudflare = !h->any && !j;
  json_decref(j);
  if (!(ra >= 0) && h->has_retry_after)
    ra = h->retry_after;
  if (!(ra >= 0) && h->has_reset_after)
    ra = h->reset_after;
  int64_t wait = ra >= 0 ? wait_ms(ra) : RETRY_AFTER_DEFAULT_MS;
  if (strcmp(h->scope, "shared") != 0)
    bot_rest_inv_push(r, now);
  if (cloudflare) {
    if (now + wait > r->cf_until)
      fprintf(stderr,
              "lair rest: blocked by Cloudflare (HTTP 429), pausing all "
              "requests for %.1f s\n",
              (double)wait / 1000.0);
    r->cf_until = max64(r->cf_until, now + wait);
  } else if (global) {
    if (now + wait > r->global_until)
      fprintf(stderr, "lair rest: global rate limit hit, pausing for %.1f s\n",
              (double)wait / 1000.0);
    r->global_until = max64(r->global_until, now + wait);
  } else if (q->route) {
    bucket *b = q->route->bucket;
    b->reset_at = max64(b->known ? b->reset_at : 0, now + wait);
    b->known = true;
    b->remaining = 0;
  }
  if (q->n429 >= MAX_429_RETRIES) {
    finish(r, q, 429, "rate limited (HTTP 429), gave up");
    return;
  }
  q->n429++;
  q->not_before = now + wait;
  requeue(r, q);
}

/* Handles one finished attempt. */
static void complete(bot_rest *r, req *q, CURLcode cc) {
  int64_t now = now_ms();
  long status = 0;
  attempt *a = q->at;
  inflight_remove(r, q);
  if (cc == CURLE_OK) {
    curl_off_t pre = 0;
    curl_easy_getinfo(a->easy, CURLINFO_RESPONSE_CODE, &status);
    if (curl_easy_getinfo(a->easy, CURLINFO_PRETRANSFER_TIME_T, &pre) ==
        CURLE_OK)
      q->sent_at = a->started + (double)pre / 1e6;
  }
  curl_multi_remove_handle(r->multi, a->easy);
  curl_easy_cleanup(a->easy);
  a->easy = NULL;
  free(a->form);
  a->form = NULL;
  free(a->body);
  a->body = NULL;
  if (q->route) {
    q->route->bucket->busy = false;
    q->route->inflight--;
    q->route->last_used = now;
    if (cc == CURLE_OK)
      bot_rest_learn(r, q->route, &a->hdr, now);
  }
  if (a->resp.toobig) {
    finish(r, q, 0, "response too large");
    return;
  }
  if (cc != CURLE_OK) {
    /* Timeouts and network errors are retried like a 5xx. */
    retry_later(r, q, now, 0, curl_easy_strerror(cc));
    return;
  }
  if (status == 429) {
    on_429(r, q, now);
    return;
  }
  if (status >= 500 && status <= 599) {
    retry_later(r, q, now, (int)status, NULL);
    return;
  }
  if (status == 401 || status == 403)
    bot_rest_inv_push(r, now);
  finish(r, q, (int)status, NULL);
}

/* ---- the loop --------------------------------------------------------- */

/* Drops the requests waiting on rt that q makes pointless (q goes on rt
 * next, so rt stays active). */
static void drop_superseded(bot_rest *r, route *rt, const req *q) {
  req *prev = NULL, *p = rt->head;
  while (p) {
    req *next = p->next;
    if (p->latest_at && p->gen < q->gen &&
        strcmp(req_latest(p), req_latest(q)) == 0) {
      if (prev)
        prev->next = next;
      else
        rt->head = next;
      if (rt->tail == p)
        rt->tail = prev;
      p->next = NULL;
      STAT_ADD(r, superseded, 1);
      finish(r, p, 0, SUPERSEDED);
    } else {
      prev = p;
    }
    p = next;
  }
}

/* The route of q (its key made here, and forgotten once the route has
 * it); NULL when out of memory. */
static route *route_of(bot_rest *r, const req *q) {
  char stack[512], *key = stack;
  size_t half = sizeof stack / 2, mb, me;
  size_t n =
      bot_rest_route_key(req_method(q), req_path(q), key, half, &mb, &me);
  if (n >= half) {
    if (!(key = malloc(2 * (n + 1))))
      return NULL;
    bot_rest_route_key(req_method(q), req_path(q), key, n + 1, &mb, &me);
  }
  /* The key, then its major parameter. */
  char *major = key + (n >= half ? n + 1 : half);
  memcpy(major, key + mb, me - mb);
  major[me - mb] = '\0';
  route *rt = bot_rest_route_get(r, key, major);
  if (key != stack)
    free(key);
  return rt;
}

/* Moves the inbox into the lanes; returns whether the client stops. */
static bool intake(bot_rest *r) {
  pthread_mutex_lock(&r->lock);
  req *list = r->in_head;
  r->in_head = r->in_tail = NULL;
  bool stop = r->stopping;
  pthread_mutex_unlock(&r->lock);
  while (list) {
    req *q = list;
    list = q->next;
    q->next = NULL;
    if (q->interaction) {
      bot_rest_ilane_push(r, q);
      continue;
    }
    route *rt = route_of(r, q);
    if (!rt) {
      finish(r, q, 0, "out of memory");
      continue;
    }
    q->route = rt;
    rt->last_used = now_ms();
    if (q->latest_at)
      drop_superseded(r, rt, q);
    bot_rest_route_push_back(r, rt, q);
  }
  return stop;
}

static void drop_over_budget(bot_rest *r, int count) {
  if (!r->budget_logged) {
    fprintf(stderr,
            "lair rest: %d invalid requests in 10 minutes (budget %d); "
            "only interaction callbacks are sent until it drops\n",
            count, r->budget);
    r->budget_logged = true;
  }
  while (r->active) {
    route *rt = r->active;
    while (rt->head && rt->active) {
      req *q = bot_rest_route_pop(r, rt);
      STAT_ADD(r, dropped_budget, 1);
      finish(r, q, 0, "invalid request budget exhausted");
    }
  }
}

/* Starts whatever may go now; returns when something next may. */
static int64_t pump(bot_rest *r, int64_t now) {
  int64_t next = INT64_MAX;
  if (now < r->cf_until)
    return r->cf_until;

  /* The interaction lane: nothing but its own retries' waits. */
  req **pp = &r->ilane_head;
  req *last = NULL;
  while (*pp) {
    req *q = *pp;
    if (q->not_before > now) {
      next = min64(next, q->not_before);
      last = q;
      pp = &q->next;
      continue;
    }
    *pp = q->next;
    q->next = NULL;
    start(r, q);
  }
  r->ilane_tail = last;

  int invalid = bot_rest_inv_count(r, now);
  if (invalid >= r->budget) {
    drop_over_budget(r, invalid);
    return next;
  }
  r->budget_logged = false;
  if (now < r->global_until)
    return min64(next, r->global_until);

  r->tokens += (double)(now - r->tokens_at) * GLOBAL_PER_SEC / 1000.0;
  if (r->tokens > GLOBAL_PER_SEC)
    r->tokens = GLOBAL_PER_SEC;
  r->tokens_at = now;
  route *rt = r->active;
  while (rt) {
    route *nx = rt->act_next;
    req *q = rt->head;
    bucket *b = rt->bucket;
    if (q->not_before > now) {
      next = min64(next, q->not_before);
    } else if (b->busy) {
      /* its answer wakes the loop */
    } else if (b->known && b->remaining <= 0 && b->reset_at > now) {
      next = min64(next, b->reset_at);
    } else if (r->tokens < 1.0) {
      int64_t d = ceil64((1.0 - r->tokens) * 1000.0 / GLOBAL_PER_SEC);
      return min64(next, now + (d > 0 ? d : 1));
    } else {
      if (b->known && b->reset_at <= now)
        b->known = false; /* a new window: remaining is unknown again */
      r->tokens -= 1.0;
      start(r, bot_rest_route_pop(r, rt));
      if (rt->active && rt->act_next) {
        /* Round robin: a busy route goes behind the others. */
        bot_rest_route_deactivate(r, rt);
        bot_rest_route_activate(r, rt);
      }
    }
    rt = nx;
  }
  return next;
}

static void reap(bot_rest *r) {
  CURLMsg *m;
  int left;
  while ((m = curl_multi_info_read(r->multi, &left))) {
    if (m->msg != CURLMSG_DONE)
      continue;
    char *priv = NULL;
    curl_easy_getinfo(m->easy_handle, CURLINFO_PRIVATE, &priv);
    CURLcode cc = m->data.result;
    if (priv)
      complete(r, (req *)priv, cc);
  }
}

/* Ends every request still held, with status 0. */
static void fail_all(bot_rest *r) {
  while (r->inflight) {
    req *q = r->inflight;
    inflight_remove(r, q);
    curl_multi_remove_handle(r->multi, q->at->easy);
    if (q->route) {
      q->route->bucket->busy = false;
      q->route->inflight--;
    }
    finish(r, q, 0, "shutting down");
  }
  while (r->ilane_head) {
    req *q = r->ilane_head;
    r->ilane_head = q->next;
    finish(r, q, 0, "shutting down");
  }
  r->ilane_tail = NULL;
  while (r->active) {
    route *rt = r->active;
    while (rt->active)
      finish(r, bot_rest_route_pop(r, rt), 0, "shutting down");
  }
}

static void *loop_main(void *arg) {
  bot_rest *r = arg;
  int64_t next_sweep = now_ms() + SWEEP_MS;
  for (;;) {
    if (intake(r))
      break;
    int running = 0;
    curl_multi_perform(r->multi, &running);
    reap(r);
    int64_t now = now_ms();
    int64_t wake = pump(r, now);
    if (now >= next_sweep) {
      bot_rest_sweep(r, now);
      next_sweep = now + SWEEP_MS;
    }
    int64_t t = wake == INT64_MAX ? POLL_MAX_MS : wake - now;
    if (t < 0)
      t = 0;
    if (t > POLL_MAX_MS)
      t = POLL_MAX_MS;
    if (curl_multi_poll(r->multi, NULL, 0, (int)t, NULL) != CURLM_OK) {
      struct timespec ts = {0, 10 * 1000000};
      nanosleep(&ts, NULL); /* never spin on a broken poll */
    }
  }
  fail_all(r);
  return NULL;
}

/* ---- public API ------------------------------------------------------- */

static pthread_once_t curl_once = PTHREAD_ONCE_INIT;
static bool curl_ok;
static void curl_init_once(void) {
  curl_ok = curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK;
}

static bool header_safe(const char *s) { return s && !strpbrk(s, "\r\n"); }

/* Frees a header list, wiping the Authorization line first (which
 * curl_slist_free_all cannot do). */
static void free_headers(struct curl_slist *list) {
  for (struct curl_slist *l = list; l; l = l->next)
    if (l->data && strncmp(l->data, "Authorization", 13) == 0)
      memset(l->data, 0, strlen(l->data));
  curl_slist_free_all(list);
}

static void client_free(bot_rest *r) {
  if (r->multi)
    curl_multi_cleanup(r->multi);
  free_headers(r->hdr_json);
  free_headers(r->hdr_plain);
  free_headers(r->hdr_mime);
  for (int i = 0; i < TABLE_SLOTS; i++) {
    while (r->routes[i]) {
      route *rt = r->routes[i];
      r->routes[i] = rt->next;
      free(rt);
    }
    while (r->buckets[i]) {
      bucket *b = r->buckets[i];
      r->buckets[i] = b->next;
      free(b);
    }
  }
  free(r->api_base);
  free(r->user_agent);
  free(r->inv);
  pthread_mutex_destroy(&r->lock);
  free(r);
}

static struct curl_slist *build_headers(const char *auth,
                                        const char *content_type) {
  struct curl_slist *l = NULL, *t;
  const char *lines[] = {auth, content_type, "Expect:"};
  for (size_t i = 0; i < sizeof lines / sizeof *lines; i++) {
    t = curl_slist_append(l, lines[i]);
    if (!t) {
      curl_slist_free_all(l);
      return NULL;
    }
    l = t;
  }
  return l;
}

bot_rest *bot_rest_new(const bot_rest_config *cfg) {
  if (!cfg || !cfg->api_base || !header_safe(cfg->token) || !cfg->token[0] ||
      (cfg->user_agent && !header_safe(cfg->user_agent)))
    return NULL;
  pthread_once(&curl_once, curl_init_once);
  if (!curl_ok)
    return NULL;
  bot_rest *r = calloc(1, sizeof *r);
  if (!r)
    return NULL;
  if (pthread_mutex_init(&r->lock, NULL) != 0) {
    free(r);
    return NULL;
  }
  r->max_5xx = cfg->max_5xx_retries > 0 ? cfg->max_5xx_retries : 3;
  if (r->max_5xx > 10)
    r->max_5xx = 10;
  r->timeout_ms = cfg->timeout_ms > 0 ? cfg->timeout_ms : 10000;
  r->budget = cfg->invalid_budget > 0 ? cfg->invalid_budget : 1000;
  if (r->budget > INVALID_BUDGET_MAX)
    r->budget = INVALID_BUDGET_MAX;
  r->inv_cap = r->budget;
  r->inv = calloc((size_t)r->inv_cap, sizeof *r->inv);
  r->api_base = strdup(cfg->api_base);
  r->user_agent = strdup(cfg->user_agent ? cfg->user_agent : DEFAULT_UA);
  size_t alen = strlen(cfg->token) + 32;
  char *auth = malloc(alen);
  if (auth) {
    snprintf(auth, alen, "Authorization: Bot %s", cfg->token);
    r->hdr_json = build_headers(auth, "Content-Type: application/json");
    r->hdr_plain = build_headers(auth, "Content-Type:");
    char mime[96];
    if (bot_rest_boundary(r->boundary) == 0) {
      snprintf(mime, sizeof mime,
               "Content-Type: multipart/form-data; boundary=%s", r->boundary);
      r->hdr_mime = build_headers(auth, mime);
    }
    free_secret(auth);
  }
  r->multi = curl_multi_init();
  r->tokens = GLOBAL_PER_SEC;
  r->tokens_at = now_ms();
  r->rng = (uint64_t)now_ms() * 0x9E3779B97F4A7C15ull ^ (uintptr_t)r;
  if (!r->rng)
    r->rng = 1;
  if (!r->inv || !r->api_base || !r->user_agent || !r->hdr_json ||
      !r->hdr_plain || !r->hdr_mime || !r->multi) {
    client_free(r);
    return NULL;
  }
  if (pthread_create(&r->thread, NULL, loop_main, r) != 0) {
    client_free(r);
    return NULL;
  }
  return r;
}

void bot_rest_free(bot_rest *r) {
  if (!r)
    return;
  pthread_mutex_lock(&r->lock);
  r->stopping = true;
  curl_multi_wakeup(r->multi);
  pthread_mutex_unlock(&r->lock);
  pthread_join(r->thread, NULL);
  /* Requests queued by callbacks during shutdown were refused (stopping),
   * so the inbox is empty. */
  client_free(r);
}

static bool method_ok(const char *m) {
  size_t n = m ? strlen(m) : 0;
  if (n == 0 || n > 10)
    return false;
  for (size_t i = 0; i < n; i++)
    if (m[i] < 'A' || m[i] > 'Z')
      return false;
  return true;
}

static bool path_ok(const char *p) {
  if (!p || p[0] != '/')
    return false;
  for (; *p; p++)
    if ((unsigned char)*p <= ' ' || *p == 0x7f)
      return false;
  return true;
}

static bool is_interaction_callback(const char *path) {
  static const char pre[] = "/interactions/", suf[] = "/callback";
  size_t n = strcspn(path, "?#");
  return n > sizeof pre - 1 + sizeof suf - 1 &&
         strncmp(path, pre, sizeof pre - 1) == 0 &&
         strncmp(path + n - (sizeof suf - 1), suf, sizeof suf - 1) == 0;
}

/* What a request carries besides its method, path and body. */
typedef struct extras {
  const bot_rest_file *files;
  int n_files;
  const char *latest;
  uint64_t gen;
} extras;

/* Whether a file's name can stand in a part's header as it is. */
static bool file_name_ok(const char *name) {
  size_t n = name ? strlen(name) : 0;
  if (n == 0 || n > 100)
    return false;
  for (const char *p = name; *p; p++)
    if ((unsigned char)*p < ' ' || *p == '"' || *p == '\\' || *p == 0x7f)
      return false;
  return true;
}

static int enqueue(bot_rest *r, const char *method, const char *path,
                   const char *json_body, const extras *x, unsigned flags,
                   bot_rest_done done, void *ctx);

int bot_rest_send(bot_rest *r, const char *method, const char *path,
                  const char *json_body, unsigned flags, bot_rest_done done,
                  void *ctx) {
  return enqueue(r, method, path, json_body, &(extras){0}, flags, done, ctx);
}

int bot_rest_send_file(bot_rest *r, const char *method, const char *path,
                       const char *json_body, const char *file_name,
                       const char *data, size_t len, unsigned flags,
                       bot_rest_done done, void *ctx) {
  bot_rest_file f = {.name = file_name, .data = data, .len = len};
  return bot_rest_send_files(r, method, path, json_body, &f, 1, NULL, 0, flags,
                             done, ctx);
}

int bot_rest_send_files(bot_rest *r, const char *method, const char *path,
                        const char *json_body, const bot_rest_file *files,
                        int n, const char *latest, uint64_t gen, unsigned flags,
                        bot_rest_done done, void *ctx) {
  if (!files || n < 1 || n > BOT_REST_FILES_MAX || (latest && !*latest))
    return -1;
  for (int i = 0; i < n; i++)
    if (!file_name_ok(files[i].name) || (!files[i].data && files[i].len))
      return -1;
  extras x = {.files = files, .n_files = n, .latest = latest, .gen = gen};
  return enqueue(r, method, path, json_body, &x, flags, done, ctx);
}

int bot_rest_send_latest(bot_rest *r, const char *method, const char *path,
                         const char *json_body, const char *latest,
                         uint64_t gen, bot_rest_done done, void *ctx) {
  if (!latest || !*latest)
    return -1;
  extras x = {.latest = latest, .gen = gen};
  return enqueue(r, method, path, json_body, &x, 0, done, ctx);
}

static int enqueue(bot_rest *r, const char *method, const char *path,
                   const char *json_body, const extras *x, unsigned flags,
                   bot_rest_done done, void *ctx) {
  if (!r || !method_ok(method) || !path_ok(path))
    return -1;
  bool interaction =
      (flags & BOT_REST_INTERACTION) || is_interaction_callback(path);
  /* An interaction callback goes at once and keeps its JSON as text;
   * another request's waits packed. */
  const char *text = interaction ? json_body : NULL;
  size_t mlen = strlen(method) + 1, plen = strlen(path) + 1;
  size_t llen = x->latest ? strlen(x->latest) + 1 : 0;
  size_t tlen = text ? strlen(text) + 1 : 0;
  size_t slen = mlen + plen + llen + tlen;
  if (slen > UINT32_MAX)
    return -1;
  req *q = calloc(1, sizeof *q + slen);
  if (!q)
    return -1;
  memcpy(q->s, method, mlen);
  q->path_at = (uint32_t)mlen;
  memcpy(q->s + q->path_at, path, plen);
  if (x->latest) {
    q->latest_at = (uint32_t)(mlen + plen);
    memcpy(q->s + q->latest_at, x->latest, llen);
    q->gen = x->gen;
  }
  if (text) {
    q->text_at = (uint32_t)(mlen + plen + llen);
    memcpy(q->s + q->text_at, text, tlen);
  }
  q->interaction = interaction;
  q->done = done;
  q->ctx = ctx;
  if (json_body && !text && !(q->packed = bot_pack(json_body))) {
    req_free_in(NULL, q);
    return -1;
  }
  req_file **tail = &q->file;
  for (int i = 0; i < x->n_files; i++) {
    const bot_rest_file *f = &x->files[i];
    size_t nlen = strlen(f->name) + 1;
    req_file *k = f->len > SIZE_MAX - sizeof *k - nlen
                      ? NULL
                      : malloc(sizeof *k + f->len + nlen);
    if (!k) {
      req_free_in(NULL, q);
      return -1;
    }
    k->next = NULL;
    k->len = f->len;
    if (f->len)
      memcpy(k->data, f->data, f->len);
    memcpy(k->data + f->len, f->name, nlen);
    k->name = k->data + f->len;
    *tail = k;
    tail = &k->next;
  }
  size_t bytes = 0;
  for (const req_file *f = q->file; f; f = f->next)
    bytes += f->len;
  /* Counted before the client can see q, so never less than it holds. */
  __atomic_add_fetch(&r->file_bytes, bytes, __ATOMIC_RELAXED);
  pthread_mutex_lock(&r->lock);
  if (r->stopping) {
    pthread_mutex_unlock(&r->lock);
    req_free_in(r, q);
    return -1;
  }
  if (r->in_tail)
    r->in_tail->next = q;
  else
    r->in_head = q;
  r->in_tail = q;
  /* Under the lock, so bot_rest_free cannot free the multi meanwhile. */
  curl_multi_wakeup(r->multi);
  pthread_mutex_unlock(&r->lock);
  return 0;
}

typedef struct sync_call {
  pthread_mutex_t mu;
  pthread_cond_t cv;
  bool done;
  int status;
  char *body;
} sync_call;

static void sync_done(void *ctx, const bot_rest_result *res) {
  sync_call *s = ctx;
  char *copy = malloc(res->len + 1);
  if (copy) {
    memcpy(copy, res->body, res->len);
    copy[res->len] = '\0';
  }
  pthread_mutex_lock(&s->mu);
  s->status = res->status;
  s->body = copy;
  s->done = true;
  pthread_cond_signal(&s->cv);
  pthread_mutex_unlock(&s->mu);
}

int bot_rest_call(bot_rest *r, const char *method, const char *path,
                  const char *json_body, char **body) {
  if (body)
    *body = NULL;
  /* On the client's own thread the answer could never come. */
  if (!r || pthread_equal(pthread_self(), r->thread))
    return 0;
  sync_call s = {.done = false};
  if (pthread_mutex_init(&s.mu, NULL) != 0)
    return 0;
  if (pthread_cond_init(&s.cv, NULL) != 0) {
    pthread_mutex_destroy(&s.mu);
    return 0;
  }
  int rc = bot_rest_send(r, method, path, json_body, 0, sync_done, &s);
  if (rc == 0) {
    pthread_mutex_lock(&s.mu);
    while (!s.done)
      pthread_cond_wait(&s.cv, &s.mu);
    pthread_mutex_unlock(&s.mu);
  }
  pthread_cond_destroy(&s.cv);
  pthread_mutex_destroy(&s.mu);
  if (body)
    *body = s.body;
  else
    free(s.body);
  return rc == 0 ? s.status : 0;
}

size_t bot_rest_file_bytes(bot_rest *r) {
  return r ? __atomic_load_n(&r->file_bytes, __ATOMIC_RELAXED) : 0;
}

void bot_rest_get_stats(bot_rest *r, bot_rest_stats *out) {
  if (!out)
    return;
  memset(out, 0, sizeof *out);
  if (!r)
    return;
  int64_t now = now_ms();
  pthread_mutex_lock(&r->lock);
  *out = r->stats;
  bot_rest_inv_expire(r, now);
  out->invalid_10min = (uint64_t)r->inv_n;
  pthread_mutex_unlock(&r->lock);
}
