/*
 * gateway.h: Lair's Discord gateway client (v10, JSON) on libwebsockets.
 *
 * It runs the whole session on one thread: Hello, heartbeats (the first
 * after interval * random[0,1), then every interval; lws timers, so they
 * never wait behind REST calls or game work, which happen on other
 * threads), zombie detection (no ACK between two beats: close with 4000
 * and resume), Identify with minimal intents, Ready (session_id,
 * resume_gateway_url), Resume and RESUMED, op 7 at any moment (even
 * before Hello), op 9 (d=true resume, d=false identify again), close
 * codes (reconnect on 4000-4003, 4005, 4007, 4008, 4009 and on dropped
 * connections; 4007/4009 with a new session; stop on 4004 and
 * 4010-4014), reconnects with exponential backoff and jitter, fragment
 * reassembly with a size cap, and at most 120 payloads per 60 s, each at
 * most 4096 bytes. Identify is never sent in a loop: a new session waits
 * out the backoff. Dispatches reach the application through on_event on
 * the gateway's thread; it must hand work to another thread quickly.
 */
#ifndef LAIR_BOT_GATEWAY_H
#define LAIR_BOT_GATEWAY_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct bot_gw bot_gw;

typedef struct bot_gw_config {
  const char *url;   /* "wss://gateway.discord.gg" or "ws://127.0.0.1:P";
                        "?v=10&encoding=json" is added */
  const char *token; /* never logged */
  int intents;       /* 1 (GUILDS) for a slash-command bot */
  /* A dispatch (op 0): t and d (borrowed; incref to keep). Runs on the
   * gateway thread. */
  void (*on_event)(void *ctx, const char *type, json_t *d);
  /* A fatal close (4004, 4010-4014) or a stop: code 0 for bot_gw_stop. */
  void (*on_stop)(void *ctx, int close_code, const char *why);
  void *ctx;
  /* Test knobs (0 = Discord's behaviour). */
  int max_payload;     /* reassembly cap, default 4 MiB */
  int backoff_base_ms; /* first reconnect delay, default 1000 */
  int backoff_max_ms;  /* default 60000 */
  int identify_gap_ms; /* least time between two Identifys, default 5000;
                          after op 9 d=false the wait is in [gap/5, gap] */
} bot_gw_config;

/* Creates a client; NULL on failure. Strings are copied. */
bot_gw *bot_gw_new(const bot_gw_config *cfg);
/* Runs the session until a fatal close or bot_gw_stop; returns the close
 * code that ended it (0 after bot_gw_stop). Call from one thread only. */
int bot_gw_run(bot_gw *g);
/* Asks a running bot_gw_run to end (safe from any thread). */
void bot_gw_stop(bot_gw *g);
/* Frees the client (after bot_gw_run returned); NULL is fine. */
void bot_gw_free(bot_gw *g);

typedef struct bot_gw_stats {
  uint64_t connects, identifies, resumes, heartbeats, acks, zombies, dispatches,
      sent, dropped_by_budget;
  int64_t last_seq;
} bot_gw_stats;
/* A snapshot of the counters (safe from any thread). */
void bot_gw_get_stats(bot_gw *g, bot_gw_stats *out);

#endif
