/*
 * gateway_internal.h: the parts of gateway.c that its tests reach
 * directly (tests/test_gateway.c, tests/fuzz/): the send budget, the URL
 * parser, the backoff delay, the Identify plan, a raw send and the
 * handling of one received message. Not for the rest of the bot.
 */
#ifndef LAIR_BOT_GATEWAY_INTERNAL_H
#define LAIR_BOT_GATEWAY_INTERNAL_H

#include "gateway.h"

#include <stdbool.h>
#include <stdint.h>

/* Discord's client limits: 120 payloads per 60 s, 4096 bytes each. A few
 * of the 120 are kept for heartbeats, so other traffic can never starve
 * them. */
enum {
  BOT_GW_BUDGET_LIMIT = 120,
  BOT_GW_BUDGET_WINDOW_MS = 60000,
  BOT_GW_BUDGET_HB_RESERVE = 5,
  BOT_GW_MAX_SEND = 4096,
};

/* A sliding window of the times of the payloads sent. */
typedef struct bot_gw_budget {
  int64_t at[BOT_GW_BUDGET_LIMIT]; /* ring of send times, oldest at head */
  int head, count;
} bot_gw_budget;

/* Empties the window. */
void bot_gw_budget_init(bot_gw_budget *b);
/* Takes one slot at now_ms (a monotonic clock) and returns true, or
 * returns false and changes nothing when the window is full: 120 slots
 * for a heartbeat, 120 - BOT_GW_BUDGET_HB_RESERVE for anything else. */
bool bot_gw_budget_take(bot_gw_budget *b, int64_t now_ms, bool heartbeat);

/* A parsed gateway URL. path holds the path and "?v=10&encoding=json". */
typedef struct bot_gw_url {
  bool tls;
  int port;
  char host[256];
  char path[512];
} bot_gw_url;

/* Parses "ws://host[:port][/path]" or "wss://..." into out; 0 on success,
 * -1 (out unspecified) on anything else: another scheme, an empty or
 * over-long host, a bad port, user info, an IPv6 literal. */
int bot_gw_parse_url(const char *url, bot_gw_url *out);

/* The delay before reconnect attempt `attempt` (0 = the first after a
 * working session): base * 2^attempt capped at max, then a random point
 * in its upper half picked by r in [0, 1). */
int bot_gw_backoff_ms(int base_ms, int max_ms, int attempt, double r);

/* The Identify plan of one process (Discord's max_concurrency rule): the
 * n shards ids[] (ascending) want to identify at now_ms or later. Shard
 * id is in bucket id % max_concurrency (> 0); a bucket identifies at
 * most once per gap_ms, buckets side by side. free_at[b] is when bucket
 * b may identify next (its last Identify + gap_ms; anything <= now_ms
 * when it is free). Writes to at[i] when ids[i] may identify: within a
 * bucket in ascending id order, gap_ms apart, from max(now_ms,
 * free_at[b]). Touches nothing else. */
void bot_gw_identify_plan(int max_concurrency, const int *ids, int n,
                          const int64_t *free_at, int64_t gap_ms,
                          int64_t now_ms, int64_t *at);

/* What bot_gw_send did. */
typedef enum bot_gw_send_result {
  BOT_GW_SEND_OK = 0,     /* queued; written on the next WRITEABLE */
  BOT_GW_SEND_CLOSED,     /* no open, identified connection */
  BOT_GW_SEND_TOO_BIG,    /* over BOT_GW_MAX_SEND bytes: not sent */
  BOT_GW_SEND_BUDGET,     /* the 60 s window is full: not sent */
  BOT_GW_SEND_QUEUE_FULL, /* the send queue is full: not sent */
  BOT_GW_SEND_NOMEM,
} bot_gw_send_result;

/* Serialises payload (borrowed) and queues it on the first shard's current
 * connection (the only one when unsharded). Gateway thread only (e.g. from
 * on_event). Refusals are logged once and counted in stats.dropped_by_budget
 * (size and window alike). */
bot_gw_send_result bot_gw_send(bot_gw *g, json_t *payload);

/* Handles one complete message received from the gateway on the first
 * shard (len bytes of text, not NUL-terminated): any bytes at all, as Discord
 * or anything between may send them. Gateway thread only. */
void bot_gw_on_message(bot_gw *g, const char *text, size_t len);

#endif
