/*
 * gateway.h: Lair's Discord gateway client (v10, JSON) on libwebsockets.
 *
 * One client runs every gateway shard of this process on one thread and
 * one lws context: Hello, heartbeats (the first after interval *
 * random[0,1), then every interval; lws timers, so they never wait
 * behind REST calls or game work, which happen on other threads), zombie
 * detection (no ACK between two beats: close with 4000 and resume),
 * Identify with minimal intents, Ready (session_id, resume_gateway_url),
 * Resume and RESUMED, op 7 at any moment (even before Hello), op 9
 * (d=true resume, d=false identify again), close codes (reconnect on
 * 4000-4003, 4005, 4007, 4008, 4009 and on dropped connections;
 * 4007/4009 with a new session; stop on 4004 and 4010-4014), reconnects
 * with exponential backoff and jitter, fragment reassembly with a size
 * cap, and at most 120 payloads per 60 s, each at most 4096 bytes.
 * Dispatches reach the application through on_event on the gateway's
 * thread; it must hand work to another thread quickly.
 *
 * Sharding. Discord splits a bot's servers into N shards (guild_id >> 22)
 * % N, DMs on shard 0; each shard is a session of its own, identified
 * with "shard": [id, N]. With shard_count 0 the client runs one session
 * without a "shard" field, as a bot under 2,500 servers may. Otherwise it
 * runs the shards shard_ids lists (all N by default), each with its own
 * connection, Hello and heartbeat, session_id, resume URL, sequence
 * number, backoff and 120-per-minute budget; a shard resumes or starts
 * again on its own, the others carry on. Only a fatal close (4004,
 * 4010-4014: the token or the configuration is wrong) ends them all.
 * One thread and one lws context for all of them: a shard costs a
 * connection, its buffers (a few KB) and two timers, not a thread.
 *
 * Identify. Discord lets a bot start max_concurrency sessions per 5 s:
 * shard id belongs to bucket id % max_concurrency, and each bucket
 * identifies at most once per identify_gap_ms (5 s), buckets side by
 * side. Shards start in ascending id order within their bucket; a shard
 * that must identify again (op 9 d=false, 4007, 4009) waits for its
 * bucket's turn the same way, and for a new session its connection is
 * only opened when its bucket is free. Identify is never sent in a loop.
 * The buckets are this process's: processes sharing a token do not
 * coordinate, so give them shards of different buckets or start them
 * identify_gap_ms apart (an Identify refused by Discord comes back as
 * op 9 d=false and is retried after a random wait). start_delay_ms holds
 * every first Identify back, for a session_start_limit that is used up.
 */
#ifndef LAIR_BOT_GATEWAY_H
#define LAIR_BOT_GATEWAY_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

enum { BOT_GW_MAX_SHARDS = 4096 };

typedef struct bot_gw bot_gw;

typedef struct bot_gw_config {
  const char *url;   /* "wss://gateway.discord.gg" or "ws://127.0.0.1:P";
                        "?v=10&encoding=json" is added */
  const char *token; /* never logged */
  int intents;       /* 1 (GUILDS) for a slash-command bot */
  /* A dispatch (op 0) on shard `shard` (0 when unsharded): t and d
   * (borrowed; incref to keep). Runs on the gateway thread. */
  void (*on_event)(void *ctx, int shard, const char *type, json_t *d);
  /* A fatal close (4004, 4010-4014) on any shard, or a stop: code 0 for
   * bot_gw_stop. Called once, when every shard has ended. */
  void (*on_stop)(void *ctx, int close_code, const char *why);
  void *ctx;
  /* Sharding (see above). */
  int shard_count;      /* N, 1..BOT_GW_MAX_SHARDS; 0 = unsharded */
  const int *shard_ids; /* ascending, each < N; NULL = all N (copied) */
  int n_shard_ids;
  int max_concurrency; /* session_start_limit.max_concurrency; 0 = 1 */
  int start_delay_ms;  /* no Identify before this (a used-up
                          session_start_limit's reset_after) */
  /* Test knobs (0 = Discord's behaviour). */
  int max_payload;     /* reassembly cap, default 4 MiB */
  int backoff_base_ms; /* first reconnect delay, default 1000 */
  int backoff_max_ms;  /* default 60000 */
  int identify_gap_ms; /* least time between two Identifys of a bucket,
                          default 5000; after op 9 d=false the wait is
                          in [gap/5, gap] */
} bot_gw_config;

/* Creates a client; NULL (logged) on failure, e.g. shard ids that do not
 * ascend or are not below shard_count. Strings and ids are copied. */
bot_gw *bot_gw_new(const bot_gw_config *cfg);
/* Runs the shards' sessions until a fatal close or bot_gw_stop; returns
 * the close code that ended them (0 after bot_gw_stop). Call from one
 * thread only. */
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
/* A snapshot of the counters, summed over the shards; last_seq is the
 * last sequence number any shard received (safe from any thread). */
void bot_gw_get_stats(bot_gw *g, bot_gw_stats *out);

#endif
