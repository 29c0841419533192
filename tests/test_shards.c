/*
 * test_shards.c: gateway sharding without sockets: LAIR_SHARDS and
 * LAIR_SHARD_IDS as bot_discord_config_from_env reads them (every kind
 * of bad value with its exact message), bot_discord_shard_ids, the
 * Identify plan of the max_concurrency buckets (bot_gw_identify_plan:
 * order and times), and the shard lists bot_gw_new refuses.
 */
#include "cli.h"
#include "discord.h"
#include "gateway.h"
#include "gateway_internal.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

/* The transport's start-up, which shares discord.c with the
 * configuration, names its health file through the command line's
 * cli/cli_health.c; never called here. */
bool bot_health_path(const char *db, char *out, size_t cap) {
  (void)db;
  (void)out;
  (void)cap;
  return false;
}

static const char *const bot_vars[] = {
    "DISCORD_TOKEN",  "LAIR_DISCORD_API_URL", "LAIR_GUILD_ID", "LAIR_MOD_ROLE",
    "LAIR_LOG_LEVEL", "LAIR_PICTURE_MS",      "LAIR_SHARDS",   "LAIR_SHARD_IDS",
};

/* The environment of a bot with a token and the two sharding variables
 * (NULL: unset). */
static void env(const char *shards, const char *ids) {
  for (size_t i = 0; i < sizeof bot_vars / sizeof bot_vars[0]; i++)
    unsetenv(bot_vars[i]);
  setenv("DISCORD_TOKEN", "test-token", 1);
  if (shards)
    setenv("LAIR_SHARDS", shards, 1);
  if (ids)
    setenv("LAIR_SHARD_IDS", ids, 1);
}

/* Reads the configuration, which must be refused with exactly want. */
static void refused(const char *shards, const char *ids, const char *want) {
  bot_discord_config c;
  char err[300] = "";
  env(shards, ids);
  if (bot_discord_config_from_env(&c, err, sizeof err))
    fail_msg("LAIR_SHARDS=%s LAIR_SHARD_IDS=%s was accepted",
             shards ? shards : "(unset)", ids ? ids : "(unset)");
  assert_string_equal(err, want);
}

static bot_discord_config accepted(const char *shards, const char *ids) {
  bot_discord_config c;
  char err[300] = "";
  env(shards, ids);
  if (!bot_discord_config_from_env(&c, err, sizeof err))
    fail_msg("LAIR_SHARDS=%s LAIR_SHARD_IDS=%s: %s", shards ? shards : "",
             ids ? ids : "", err);
  return c;
}

static void test_shards_good(void **state) {
  (void)state;
  bot_discord_config c = accepted(NULL, NULL);
  assert_int_equal(c.shards, 0); /* one session, unsharded */
  assert_string_equal(c.shard_ids, "");
  assert_int_equal(accepted("", NULL).shards, 0);
  assert_int_equal(accepted("1", NULL).shards, 1);
  assert_int_equal(accepted("4", NULL).shards, 4);
  assert_int_equal(accepted("4096", NULL).shards, 4096);
  assert_int_equal(accepted("auto", NULL).shards, BOT_DC_SHARDS_AUTO);
  c = accepted("8", "4-7");
  assert_int_equal(c.shards, 8);
  assert_string_equal(c.shard_ids, "4-7");
  assert_string_equal(accepted("8", "0,2,5").shard_ids, "0,2,5");
  assert_string_equal(accepted("auto", "0-3").shard_ids, "0-3");
  assert_string_equal(accepted("4", "").shard_ids, ""); /* all of them */
}

static void test_shards_bad(void **state) {
  (void)state;
  static const char *const bad[] = {"0",
                                    "4097",
                                    "-1",
                                    "+4",
                                    " 4",
                                    "4 ",
                                    "four",
                                    "4.0",
                                    "0x4",
                                    "Auto",
                                    "4a",
                                    "1e3",
                                    "99999999999999999999"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    refused(bad[i], NULL,
            "LAIR_SHARDS must be the total shard count, from 1 to 4096, or "
            "auto (Discord's recommendation)");
  refused(NULL, "0-3",
          "LAIR_SHARD_IDS needs LAIR_SHARDS, the total shard count of every "
          "process");
  char longest[1100];
  memset(longest, '0', sizeof longest - 1);
  longest[sizeof longest - 1] = '\0';
  refused("4", longest,
          "LAIR_SHARD_IDS is too long (at most 1023 characters; ranges like "
          "0-99 are shorter)");
}

static void test_shard_ids_bad(void **state) {
  (void)state;
  static const char *const malformed[] = {
      "0-",  "-1",  "0,,2", "0,", ",0",   "a",  "0-3-5", "0 ,1", "0, 1",
      "1-a", "0;1", "0-3,", "--", "0--3", "+1", " 0",    "0 "};
  char want[300];
  for (size_t i = 0; i < sizeof malformed / sizeof malformed[0]; i++) {
    snprintf(want, sizeof want,
             "LAIR_SHARD_IDS must list shard ids and ranges like 0-3 or "
             "0,2,5 (got '%s')",
             malformed[i]);
    refused("8", malformed[i], want);
  }
  refused("8", "3-1",
          "LAIR_SHARD_IDS: the range 3-1 is empty (write it low to high)");
  refused("8", "0-3,2", "LAIR_SHARD_IDS lists shard 2 twice");
  refused("8", "1,1", "LAIR_SHARD_IDS lists shard 1 twice");
  refused("8", "4-7,0-4", "LAIR_SHARD_IDS lists shard 4 twice");
  refused("8", "8",
          "LAIR_SHARD_IDS: shard 8 is not below the shard count 8 (ids run "
          "from 0 to 7)");
  refused("8", "0-99999999999",
          "LAIR_SHARD_IDS: shard 99999 is not below the shard count 8 (ids "
          "run from 0 to 7)");
  refused("1", "1",
          "LAIR_SHARD_IDS: shard 1 is not below the shard count 1 (ids run "
          "from 0 to 0)");
  /* auto: the count is not known yet, only Discord's greatest. */
  refused("auto", "4096",
          "LAIR_SHARD_IDS: shard 4096 is not below the shard count 4096 (ids "
          "run from 0 to 4095)");
  refused("auto", "2-1",
          "LAIR_SHARD_IDS: the range 2-1 is empty (write it low to high)");
}

static void test_shard_ids_parse(void **state) {
  (void)state;
  int ids[4096];
  char err[300] = "";
  assert_int_equal(bot_discord_shard_ids("5,0-1,3", 8, ids, err, sizeof err),
                   4);
  assert_int_equal(ids[0], 0); /* ascending, whatever the order given */
  assert_int_equal(ids[1], 1);
  assert_int_equal(ids[2], 3);
  assert_int_equal(ids[3], 5);
  assert_int_equal(bot_discord_shard_ids("0-4095", 4096, ids, err, sizeof err),
                   4096);
  assert_int_equal(ids[4095], 4095);
  assert_int_equal(bot_discord_shard_ids("7", 8, ids, err, sizeof err), 1);
  assert_int_equal(ids[0], 7);
  /* LAIR_SHARDS=auto, once GET /gateway/bot said 4. */
  assert_int_equal(bot_discord_shard_ids("0-9", 4, ids, err, sizeof err), -1);
  assert_string_equal(err, "LAIR_SHARD_IDS: shard 9 is not below the shard "
                           "count 4 (ids run from 0 to 3)");
}

/* ---- the Identify plan -------------------------------------------------- */

static void plan(int mc, const int *ids, int n, const int64_t *free_at,
                 int64_t now, const int64_t *want) {
  int64_t at[64];
  for (int i = 0; i < n; i++)
    at[i] = -12345;
  bot_gw_identify_plan(mc, ids, n, free_at, 5000, now, at);
  for (int i = 0; i < n; i++)
    if (at[i] != want[i])
      fail_msg("max_concurrency %d: shard %d at %lld, not %lld", mc, ids[i],
               (long long)at[i], (long long)want[i]);
}

static void test_plan(void **state) {
  (void)state;
  static const int four[] = {0, 1, 2, 3};
  int64_t free_at[16] = {0};
  /* Two buckets side by side, each in ascending order 5 s apart. */
  plan(2, four, 4, free_at, 1000, (int64_t[]){1000, 1000, 6000, 6000});
  /* One bucket: one after the other. */
  plan(1, four, 4, free_at, 1000, (int64_t[]){1000, 6000, 11000, 16000});
  /* As many buckets as shards: all at once. */
  plan(4, four, 4, free_at, 1000, (int64_t[]){1000, 1000, 1000, 1000});
  /* Bucket 0 identified 2 s ago: it waits 3 s more, bucket 1 does not. */
  free_at[0] = 4000;
  plan(2, four, 4, free_at, 2000, (int64_t[]){4000, 2000, 9000, 7000});
  /* A re-identify (shard 2 alone) waits for its bucket too. */
  plan(2, (int[]){2}, 1, free_at, 2000, (int64_t[]){4000});
  plan(2, (int[]){3}, 1, free_at, 2000, (int64_t[]){2000});
  /* A free bucket's old time changes nothing. */
  free_at[0] = -50000;
  plan(2, (int[]){2}, 1, free_at, 2000, (int64_t[]){2000});
  /* Some of the shards (LAIR_SHARD_IDS=2,5,7, max_concurrency 3:
   * buckets 2, 2, 1). */
  memset(free_at, 0, sizeof free_at);
  plan(3, (int[]){2, 5, 7}, 3, free_at, 100, (int64_t[]){100, 5100, 100});
  /* Nobody waits: nothing is written. */
  plan(2, four, 0, free_at, 100, NULL);
}

static void test_plan_many(void **state) {
  (void)state;
  enum { N = 4096, MC = 16 };
  static int ids[N];
  static int64_t at[N], free_at[MC];
  for (int i = 0; i < N; i++)
    ids[i] = i;
  bot_gw_identify_plan(MC, ids, N, free_at, 5000, 7, at);
  for (int i = 0; i < N; i++)
    assert_int_equal(at[i], 7 + (int64_t)(i / MC) * 5000);
}

/* ---- what bot_gw_new refuses -------------------------------------------- */

static bot_gw *gw_with(int count, const int *ids, int n) {
  bot_gw_config cfg = {.url = "ws://127.0.0.1:9",
                       .token = "test-token",
                       .intents = 1,
                       .shard_count = count,
                       .shard_ids = ids,
                       .n_shard_ids = n,
                       .max_concurrency = 1000000};
  return bot_gw_new(&cfg);
}

static void test_gw_new_shards(void **state) {
  (void)state;
  bot_gw *g = gw_with(4, (int[]){1, 3}, 2);
  assert_non_null(g);
  bot_gw_free(g);
  g = gw_with(4, NULL, 0);
  assert_non_null(g);
  bot_gw_free(g);
  g = gw_with(0, NULL, 0); /* unsharded */
  assert_non_null(g);
  bot_gw_free(g);
  assert_null(gw_with(4, (int[]){3, 1}, 2)); /* not ascending */
  assert_null(gw_with(4, (int[]){1, 1}, 2)); /* twice */
  assert_null(gw_with(4, (int[]){4}, 1));    /* not below the count */
  assert_null(gw_with(4, (int[]){-1}, 1));
  assert_null(gw_with(4, (int[]){0}, 0)); /* an empty list */
  assert_null(gw_with(0, (int[]){0}, 1)); /* ids without a count */
  assert_null(gw_with(4097, NULL, 0));
  assert_null(gw_with(-1, NULL, 0));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_shards_good),
      cmocka_unit_test(test_shards_bad),
      cmocka_unit_test(test_shard_ids_bad),
      cmocka_unit_test(test_shard_ids_parse),
      cmocka_unit_test(test_plan),
      cmocka_unit_test(test_plan_many),
      cmocka_unit_test(test_gw_new_shards),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
