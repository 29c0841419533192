/*
 * rest_int.h: inside the Discord HTTP client, shared by rest.c (requests,
 * sending, the client's loop and the public API), rest_route.c (route
 * keys, rate-limit buckets and the invalid-request window) and
 * rest_multipart.c (a body with files). Not for other layers.
 */
#ifndef LAIR_REST_INT_H
#define LAIR_REST_INT_H

#include "rest.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include <curl/curl.h>
#include <jansson.h>

#define BODY_CAP ((size_t)8 << 20) /* a larger answer is an error */
#define MAX_429_RETRIES 3          /* then the 429 is the outcome */
#define GLOBAL_PER_SEC 50          /* Discord's global limit */
#define INVALID_WINDOW_MS (10 * 60 * 1000)
#define INVALID_BUDGET_MAX 9000 /* well below the ban at 10,000 */
#define BACKOFF_BASE_MS 250     /* 5xx: 250, 500, 1000 ms ... */
#define BACKOFF_MAX_MS 8000
#define RETRY_AFTER_MIN_MS 50 /* a 429 is never retried at once */
#define RETRY_AFTER_DEFAULT_MS 1000
#define RETRY_AFTER_MAX_MS (3600 * 1000)
#define POLL_MAX_MS 1000
#define SWEEP_MS 60000            /* how often idle routes are freed */
#define ROUTE_IDLE_MS (5 * 60000) /* idle this long: forgotten */
#define TABLE_SLOTS 512
#define DEFAULT_UA "DiscordBot (https://github.com/lair, 0.1.0)"
/* curl's receive buffer per transfer (16 KB by default): Discord's
 * answers are a few KB at most, and when the other side stalls a hundred
 * callbacks may be in flight at once. */
#define RECV_BUFFER 4096

/* ---- data ------------------------------------------------------------- */

typedef struct rbuf {
  char *p;
  size_t len, cap;
  bool toobig;
} rbuf;

/* What one answer's headers said about rate limits. */
typedef struct rl_hdrs {
  bool any; /* some X-RateLimit-* header came */
  bool has_bucket, has_remaining, has_reset_after, has_retry_after;
  bool global;
  char bucket[80];
  char scope[16];
  long remaining;
  double reset_after, retry_after; /* seconds */
} rl_hdrs;

/* A bucket and a route are each one block with their strings inside: a
 * bot in a thousand channels keeps a thousand of each. */
typedef struct bucket {
  struct bucket *next; /* hash chain */
  int refs;            /* routes pointing here */
  bool busy;           /* a request of this bucket is in flight */
  bool known;          /* remaining and reset_at describe the window */
  long remaining;
  int64_t reset_at;
  char key[]; /* "?route" (provisional) or "hash major" */
} bucket;

typedef struct route route;

/* A multipart/form-data body (rest_multipart.c): its parts' framing in
 * text, between which the request's own files are read in place. */
#define BOT_REST_BOUNDARY_LEN 37 /* "lair-" and 32 hex digits */
typedef struct rest_multipart {
  struct {
    const void *p;
    size_t n;
  } seg[2 * BOT_REST_FILES_MAX + 1];
  int n_seg, at; /* the segments, and the one being read */
  size_t off;    /* read of seg[at] */
  uint64_t total;
  char text[];
} rest_multipart;

/* One attempt of a request, from its start until its answer is handled:
 * the transfer and what came back. Only requests in flight have one, so
 * the many that wait behind rate limits do not carry it. */
typedef struct attempt {
  struct req *prev; /* the in-flight list (req.next the other way) */
  CURL *easy;
  rest_multipart *form; /* a multipart body */
  char *body;           /* the JSON unpacked for this attempt, or NULL */
  double started;       /* CLOCK_MONOTONIC s */
  rbuf resp;
  rl_hdrs hdr;
} attempt;

/* A file sent with a request's JSON (multipart, files[i] for the ith of
 * the list): the data, then its name, in one block. */
typedef struct req_file {
  struct req_file *next;
  size_t len;
  const char *name; /* in data, after the file's bytes */
  char data[];
} req_file;

/* A request: what it takes to send it and to report its outcome. Under
 * load a thousand may wait behind Discord's limits, so it is one block
 * with its strings inside; the URL and the route key are made when they
 * are needed, and what a transfer needs waits in at. */
typedef struct req {
  struct req *next; /* a queue, or the in-flight list */
  route *route;     /* NULL in the interaction lane and until intake */
  attempt *at;      /* while in flight and until its answer is handled */
  bot_rest_done done;
  void *ctx;
  /* The JSON body of a request other than an interaction callback: it may
   * wait a while behind rate limits, so it waits packed and is unpacked
   * for each attempt only. NULL when there is none. */
  bot_packed *packed;
  req_file *file;     /* the first file, NULL when none */
  uint64_t gen;       /* bot_rest_send_latest's */
  int64_t not_before; /* a retry waits until then */
  double sent_at;     /* CLOCK_MONOTONIC s: the last attempt went out */
  /* Where in s the path, bot_rest_send_latest's key and an interaction
   * callback's JSON start (the method is at 0); 0 when absent. */
  uint32_t path_at, latest_at, text_at;
  uint8_t attempts, n429, n5xx; /* at most 1 + 10 5xx + 3 429s */
  bool interaction;
  char s[]; /* method, path, latest, text; each NUL-terminated */
} req;

struct route {
  route *next;                /* hash chain */
  route *act_next, *act_prev; /* the list of routes with queued requests */
  bool active;
  const char *major; /* in key, after the key's NUL */
  bucket *bucket;
  req *head, *tail;
  int inflight;
  int64_t last_used;
  char key[]; /* the route key, then the major parameter */
};

struct bot_rest {
  /* Shared with callers, under lock. */
  pthread_mutex_t lock;
  req *in_head, *in_tail;
  bool stopping;
  bot_rest_stats stats;
  size_t file_bytes; /* bot_rest_file_bytes (atomic, not under lock) */
  int64_t *inv;      /* ring of invalid answers' times */
  int inv_cap, inv_head, inv_n;

  /* Fixed after bot_rest_new. */
  pthread_t thread;
  CURLM *multi;
  char *api_base, *user_agent;
  struct curl_slist *hdr_json, *hdr_plain, *hdr_mime;
  char boundary[BOT_REST_BOUNDARY_LEN + 1]; /* of every multipart body */
  int max_5xx, timeout_ms, budget;

  /* The client's thread only. */
  req *ilane_head, *ilane_tail; /* interaction callbacks waiting */
  req *inflight;
  route *active, *active_tail; /* routes with queued requests, FIFO */
  route *routes[TABLE_SLOTS];
  bucket *buckets[TABLE_SLOTS];
  double tokens; /* the global token bucket */
  int64_t tokens_at;
  int64_t global_until, cf_until;
  bool budget_logged;
  uint64_t rng;
};

/* ---- small helpers ---------------------------------------------------- */

static inline int64_t now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static inline int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static inline int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }
/* Rounds a non-negative, bounded x up (no libm needed). */
static inline int64_t ceil64(double x) {
  int64_t i = (int64_t)x;
  return (double)i < x ? i + 1 : i;
}

/* ---- rest_route.c ---- */
/* Invalid answers (401, 403, most 429s) in the sliding window, under the
 * client's lock: forgets the old ones, counts one, counts them. */
void bot_rest_inv_expire(bot_rest *r, int64_t now);
void bot_rest_inv_push(bot_rest *r, int64_t now);
int bot_rest_inv_count(bot_rest *r, int64_t now);
/* The route of key (created with its provisional bucket); NULL when out
 * of memory. */
route *bot_rest_route_get(bot_rest *r, const char *key, const char *major);
/* Drops a route's reference to bucket b, freeing it with the last. */
void bot_rest_bucket_unref(bot_rest *r, bucket *b);
/* The list of routes with queued requests: joining and leaving it. */
void bot_rest_route_activate(bot_rest *r, route *rt);
void bot_rest_route_deactivate(bot_rest *r, route *rt);
/* A route's queue: in order, a retry at the head, the next to send. */
void bot_rest_route_push_back(bot_rest *r, route *rt, req *q);
void bot_rest_route_push_front(bot_rest *r, route *rt, req *q);
req *bot_rest_route_pop(bot_rest *r, route *rt);
/* Queues an interaction callback in its own lane. */
void bot_rest_ilane_push(bot_rest *r, req *q);
/* Learns a route's bucket and window from an answer's headers. */
void bot_rest_learn(bot_rest *r, route *rt, const rl_hdrs *h, int64_t now);
/* Frees routes idle for ROUTE_IDLE_MS. */
void bot_rest_sweep(bot_rest *r, int64_t now);
/* Writes the rate-limit key of method and path into out (cap bytes) and
 * where its major parameter lies ([*mbeg, *mend) of out); returns the
 * key's length. */
size_t bot_rest_route_key(const char *method, const char *path, char *out,
                          size_t cap, size_t *mbeg, size_t *mend);
/* The Content-Type of a file part, by its name's ending. */
const char *bot_rest_file_type(const char *name);
/* A client's boundary, drawn from the kernel's random source; -1 when
 * it gave none. */
int bot_rest_boundary(char out[BOT_REST_BOUNDARY_LEN + 1]);
/* The body of json and files framed by boundary (type_of names a file's
 * Content-Type), reading files' data in place; NULL when out of memory,
 * when a part holds the boundary or a file's name cannot be quoted. */
rest_multipart *bot_rest_multipart_new(const char *boundary, const char *json,
                                       const req_file *files,
                                       const char *(*type_of)(const char *));
/* curl's CURLOPT_READFUNCTION and CURLOPT_SEEKFUNCTION over such a body. */
size_t bot_rest_multipart_read(char *buf, size_t size, size_t nitems,
                               void *arg);
int bot_rest_multipart_seek(void *arg, curl_off_t offset, int origin);

#endif
