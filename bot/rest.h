/*
 * rest.h: Lair's client for Discord's HTTP API, on libcurl.
 *
 * One background thread drives a curl multi handle. Requests are queued
 * from any thread and answered through a callback on that thread. The
 * client keeps Discord's rate limits: buckets learned from
 * X-RateLimit-Bucket per route and major parameter (channel, guild,
 * webhook id + token), the global limit (50 requests a second), and 429s
 * with retry_after (body or Retry-After header; bucket, global or
 * Cloudflare-style without Discord's headers). 5xx answers are retried
 * with exponential backoff up to a cap; other 4xx answers are never
 * retried. Invalid requests (401, 403, 429) are counted over ten minutes,
 * and past a budget far below Discord's ban threshold (10,000) only
 * interaction callbacks are still sent. Interaction callbacks travel in a
 * lane of their own that never waits behind other traffic. Every request
 * carries Authorization and User-Agent, and Content-Type when it has a
 * body; the token never appears in a log line or an error text.
 */
#ifndef LAIR_BOT_REST_H
#define LAIR_BOT_REST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct bot_rest bot_rest;

typedef struct bot_rest_config {
  const char *api_base;   /* e.g. "https://discord.com/api/v10" (no slash) */
  const char *token;      /* the bot token (sent as "Bot <token>") */
  const char *user_agent; /* "DiscordBot (https://..., 0.1.0)" */
  int max_5xx_retries;    /* 0 = 3 */
  int timeout_ms;         /* per attempt; 0 = 10000 */
  int invalid_budget;     /* invalid requests per 10 min; 0 = 1000 */
} bot_rest_config;

/* The outcome of one request, valid during the callback only. */
typedef struct bot_rest_result {
  int status;       /* HTTP status, or 0 when no answer came (network) */
  int discord_code; /* the JSON error body's "code" (e.g. 50007), or 0 */
  const char *body; /* response body, NUL-terminated ("" if none) */
  size_t len;
  int attempts;      /* how many times it was sent */
  const char *error; /* a short reason when status is 0 or >= 400 */
  bool superseded;   /* never sent: a later message took its place */
  double sent_at;    /* CLOCK_MONOTONIC seconds when the last attempt's
                        request went out, or 0 */
} bot_rest_result;

typedef void (*bot_rest_done)(void *ctx, const bot_rest_result *r);

/* Flags of a request. */
enum {
  BOT_REST_INTERACTION = 1 << 0, /* an interaction callback: its own lane */
};

/* Creates the client and starts its thread; NULL on failure (no thread
 * left running). Strings in cfg are copied. */
bot_rest *bot_rest_new(const bot_rest_config *cfg);
/* Stops the thread (pending requests finish with status 0, error
 * "shutting down"), then frees everything; NULL is fine. */
void bot_rest_free(bot_rest *r);

/* Queues METHOD path (path starts with '/', relative to api_base) with an
 * optional JSON body (copied). done (may be NULL) runs on the client's
 * thread when the request has finished, after any retries. Returns 0, or
 * -1 when the client is shutting down, out of memory, or method (upper
 * case letters) or path (no spaces or control characters) is malformed
 * (done not called). */
int bot_rest_send(bot_rest *r, const char *method, const char *path,
                  const char *json_body, unsigned flags, bot_rest_done done,
                  void *ctx);

/* Like bot_rest_send, with a file attached: the request goes as
 * multipart/form-data, the JSON as payload_json and the file (copied) as
 * files[0] named file_name. */
int bot_rest_send_file(bot_rest *r, const char *method, const char *path,
                       const char *json_body, const char *file_name,
                       const char *data, size_t len, unsigned flags,
                       bot_rest_done done, void *ctx);

/* A file to send with a request. */
#define BOT_REST_FILES_MAX 10 /* Discord's files per message */
typedef struct bot_rest_file {
  const char *name; /* its file name, 1-100 bytes, no quotes or controls */
  const void *data;
  size_t len;
} bot_rest_file;

/* Like bot_rest_send, with n files attached (copied, 1 to
 * BOT_REST_FILES_MAX): multipart/form-data, the JSON as payload_json and
 * files[i] named files[i].name, typed by its name's ending (.png
 * image/png, .json application/json, .md text/markdown, else
 * application/octet-stream). With latest (not NULL) it replaces unsent
 * predecessors as bot_rest_send_latest does, their files with them, so a
 * backlog holds only the newest picture of a message. */
int bot_rest_send_files(bot_rest *r, const char *method, const char *path,
                        const char *json_body, const bot_rest_file *files,
                        int n, const char *latest, uint64_t gen, unsigned flags,
                        bot_rest_done done, void *ctx);

/* Like bot_rest_send, for a message that a later one makes pointless (a
 * player's hand, a turn's prompt), so that a backlog behind rate limits
 * holds only what is still worth reading. latest names what it shows
 * (e.g. "hand:12"); gen grows with every message (the pieces of one
 * message share it). When it is queued, every request on the same route
 * with the same latest and a lower gen that has not been sent yet is
 * dropped: its done runs with status 0 and superseded set. */
int bot_rest_send_latest(bot_rest *r, const char *method, const char *path,
                         const char *json_body, const char *latest,
                         uint64_t gen, bot_rest_done done, void *ctx);

/* Sends a request and waits for its outcome (for start-up work). Returns
 * the HTTP status (0 when no answer came); *body receives the malloc'd
 * body (caller frees) when body is not NULL. Not from a done callback:
 * there it returns 0 at once. */
int bot_rest_call(bot_rest *r, const char *method, const char *path,
                  const char *json_body, char **body);

/* A text kept deflated while it waits (rest_pack.c): message bodies held
 * behind rate limits take about a fifth, once the first ones packed have
 * taught the packer what messages look like. One block: free() frees it;
 * any thread may unpack it. */
typedef struct bot_packed bot_packed;
/* Packs text (NUL-terminated); NULL when out of memory. */
bot_packed *bot_pack(const char *text);
/* The text p holds, malloc'd and NUL-terminated (caller frees); NULL when
 * out of memory. */
char *bot_unpack(const bot_packed *p);

/* Counters for logs, tests and benchmarks. */
typedef struct bot_rest_stats {
  uint64_t sent, retried_5xx, got_429, invalid_10min, dropped_budget,
      superseded;
} bot_rest_stats;
void bot_rest_get_stats(bot_rest *r, bot_rest_stats *out);

/* The bytes of the files (bot_rest_send_files) that the client holds now,
 * waiting behind rate limits or on their way; any thread. */
size_t bot_rest_file_bytes(bot_rest *r);

/* The rate-limit route key of METHOD path (exposed for tests):
 * e.g. "POST /channels/123/messages" for a message, ids other than the
 * major parameter replaced by "{id}", and interaction tokens kept. */
void bot_rest_route(const char *method, const char *path, char *out,
                    size_t cap);

#endif
