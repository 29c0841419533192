/*
 * discord.h: the Discord transport (discord.c), what plain `lair` runs
 * when DISCORD_TOKEN is set.
 */
#ifndef LAIR_BOT_DISCORD_H
#define LAIR_BOT_DISCORD_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Interactions over HTTP (discord_http.c): Discord POSTs each one,
 * Ed25519-signed, to the application's Interactions Endpoint URL, and
 * the gateway carries none. */
typedef struct bot_http_config {
  int port;       /* LAIR_HTTP_PORT; 0: interactions come over the gateway */
  char addr[64];  /* LAIR_HTTP_ADDR: the interface, default 127.0.0.1 */
  char path[128]; /* LAIR_HTTP_PATH, default /interactions */
  unsigned char public_key[32]; /* LAIR_PUBLIC_KEY, the application's */
} bot_http_config;

typedef struct bot_discord_config {
  char token[200];   /* DISCORD_TOKEN; never logged */
  char api[256];     /* LAIR_DISCORD_API_URL, default Discord's v10 base */
  char guild[32];    /* LAIR_GUILD_ID: register commands there only */
  char mod_role[32]; /* LAIR_MOD_ROLE: a role id that makes moderators */
  int log_level;     /* LAIR_LOG_LEVEL: 0 error .. 3 debug */
  int picture_ms;    /* LAIR_PICTURE_MS: cmd_config.picture_ms; 0: none */
  int shards; /* LAIR_SHARDS: 1..4096, BOT_DC_SHARDS_AUTO, or 0 when unset
                 (one session, unsharded) */
  char shard_ids[1024]; /* LAIR_SHARD_IDS as given; "" = all the shards */
  /* LAIR_HTTP_*, LAIR_PUBLIC_KEY: bot_http_config_from_env's */
  bot_http_config http;
} bot_discord_config;

/* LAIR_SHARDS=auto: the count of GET /gateway/bot. */
enum { BOT_DC_SHARDS_AUTO = -1 };

typedef struct bot_discord bot_discord;

typedef struct bot_discord_stats {
  uint64_t interactions, callbacks, duplicates, dm_refused, dm_superseded;
  uint64_t dm_skipped; /* DMs not tried: the member's DMs were closed */
} bot_discord_stats;

/* Reads the configuration from the environment. Returns false with a
 * one-line reason in err (never the token) when a value is missing or
 * malformed. */
bool bot_discord_config_from_env(bot_discord_config *c, char *err, size_t cap);
/* Reads LAIR_SHARD_IDS (spec: ids and ranges like "0-3", "0,2,5",
 * "4-7,9") for a bot of n_shards shards into ids (room for n_shards),
 * ascending. Returns how many, or -1 with a one-line reason naming
 * LAIR_SHARD_IDS in err: a malformed item, an empty range (5-3), an id
 * listed twice, an id not below n_shards. */
int bot_discord_shard_ids(const char *spec, int n_shards, int *ids, char *err,
                          size_t cap);
/* Reads LAIR_HTTP_PORT, LAIR_HTTP_ADDR, LAIR_HTTP_PATH and
 * LAIR_PUBLIC_KEY into c (port 0 when LAIR_HTTP_PORT is unset). Returns
 * false with a one-line reason naming the variable in err when a value
 * is malformed, LAIR_PUBLIC_KEY is missing while LAIR_HTTP_PORT is set,
 * or another of them is set without LAIR_HTTP_PORT. */
bool bot_http_config_from_env(bot_http_config *c, char *err, size_t cap);
/* Runs the bot until SIGTERM/SIGINT or a fatal gateway close. Returns the
 * process exit status (0 after a signal, 1 on failure). */
int bot_discord_run(const bot_discord_config *cfg, const char *db_path);
/* Counters of a running transport (safe from any thread). */
void bot_discord_get_stats(bot_discord *b, bot_discord_stats *out);
/* The /game command in Discord's JSON, built from the command table;
 * new reference. */
json_t *bot_discord_commands_json(void);

#endif
