/*
 * discord_http.h: the HTTP interactions endpoint (discord_http.c), used
 * by the Discord transport (discord.c, discord_ix.c) instead of the
 * gateway when LAIR_HTTP_PORT is set. Not for other layers.
 */
#ifndef LAIR_DISCORD_HTTP_H
#define LAIR_DISCORD_HTTP_H

#include "discord.h"
#include "rest.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The largest request body taken; a bigger one gets 413. Discord's
 * interactions are a few KB (a component's message included). */
#define BOT_HTTP_BODY_MAX ((size_t)64 << 10)
/* Seconds between a request's signing time and now past which it is
 * refused as a replay. */
#define BOT_HTTP_MAX_SKEW 300
/* Seconds after its arrival at which an interaction still unanswered is
 * deferred by the endpoint itself: Discord waits 3 s. */
#define BOT_HTTP_DEFER_AFTER 2.5

/* Decodes exactly 2 * n hex digits (either case) of hex into out; false
 * (out undefined) when hex is NULL, of another length, or not hex. */
bool bot_http_hex(const char *hex, unsigned char *out, size_t n);
/* Whether sig_hex (128 hex digits) is a valid Ed25519 signature by the
 * public key pk of timestamp followed by the len bytes of body. False for
 * a NULL, malformed or wrong signature or timestamp, or when out of
 * memory. */
bool bot_http_signature_ok(const unsigned char pk[32], const char *sig_hex,
                           const char *timestamp, const unsigned char *body,
                           size_t len);
/* Whether timestamp (decimal seconds since the epoch, as Discord's
 * X-Signature-Timestamp) is within BOT_HTTP_MAX_SKEW seconds of now. */
bool bot_http_timestamp_ok(const char *timestamp, int64_t now);

typedef struct bot_http bot_http;

typedef struct bot_http_hooks {
  /* The answer to give interaction d (a verified request's JSON, not a
   * PING) if the worker has none by BOT_HTTP_DEFER_AFTER, as malloc'd
   * JSON text (the caller frees it); NULL when Lair does not answer
   * interactions of its kind (the request gets 400). lws thread. */
  char *(*deferral)(void *ctx, json_t *d);
  /* Hands interaction d (a new reference, taken over) to the worker,
   * with its handle for bot_http_respond and its arrival time
   * (bot_dc_now). lws thread. */
  void (*deliver)(void *ctx, json_t *d, uint64_t handle, double received);
  void *ctx;
  int log_level; /* LOG_* (discord_int.h) */
} bot_http_hooks;

/* Listens on cfg's address and port. Returns NULL, with a line on
 * stderr naming LAIR_HTTP_ADDR or LAIR_HTTP_PORT, when it cannot.
 * Free with bot_http_free. */
bot_http *bot_http_new(const bot_http_config *cfg, const bot_http_hooks *hk);
/* Serves requests on this thread until bot_http_stop. Returns 0, or -1
 * when the event loop failed. */
int bot_http_run(bot_http *h);
/* Makes bot_http_run return (any thread; h may be NULL). */
void bot_http_stop(bot_http *h);
/* Closes the open requests and frees h (NULL is fine). */
void bot_http_free(bot_http *h);
/* Counts the event loop's beats (one every 2 s while it runs) and the
 * requests it verified: it changes while the endpoint serves. */
uint64_t bot_http_heard(bot_http *h);

/* What bot_http_respond did with an interaction's first answer. */
typedef enum {
  BOT_HTTP_BODY,     /* it becomes the HTTP response */
  BOT_HTTP_REST,     /* the caller sends it to the callback endpoint and
                        then calls bot_http_rest_done */
  BOT_HTTP_DEFERRED, /* the endpoint deferred already: *deferred says how
                        (5 or 6, or 8 for an autocomplete's empty list) */
  BOT_HTTP_GONE      /* no HTTP request waits for it (its connection
                        closed, or another answer was given) */
} bot_http_answer;

/* The worker's first answer to interaction `handle`: text, an
 * interaction response as JSON, or NULL when it carries files (then it
 * goes to the callback endpoint and the request is answered 202). done
 * (ctx), when not NULL, runs once (any thread) with status 200 when a
 * BOT_HTTP_BODY or BOT_HTTP_DEFERRED response was written, 0 when the
 * connection went first; for BOT_HTTP_REST and BOT_HTTP_GONE it is not
 * kept. */
bot_http_answer bot_http_respond(bot_http *h, uint64_t handle, const char *text,
                                 int *deferred, bot_rest_done done, void *ctx);
/* The REST callback of a BOT_HTTP_REST answer finished: the request is
 * answered 202 without a body. */
void bot_http_rest_done(bot_http *h, uint64_t handle);
/* The worker is done with interaction `handle`: if it gave no answer,
 * the request is answered with status (202: answered elsewhere, e.g. a
 * duplicate; 400: malformed) and no body. */
void bot_http_finish(bot_http *h, uint64_t handle, int status);

#endif
