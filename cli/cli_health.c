/*
 * cli_health.c: `lair health [--max-age SECONDS]`, for a container's
 * health check.
 *
 * While it hears from Discord's gateway (heartbeat acknowledgements and
 * events), the running bot touches a file beside its database, DB-alive
 * (./lair-alive for a PostgreSQL URL), on its 5-second tick
 * (bot/discord.c); it removes the file when it
 * starts. This command, run beside it with the same LAIR_DB, reports
 * whether that file was touched recently: exit 0 when it was, 1 when the
 * bot has not reached Discord yet or has heard nothing for too long.
 */
#include "cli.h"
#include "sto.h"

#include <errno.h>
#include <getopt.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#define DEFAULT_MAX_AGE 120 /* s: about three of Discord's heartbeats */

void bot_usage_health(FILE *f) {
  fputs("  lair health [--max-age SECONDS]\n"
        "                 Exit 0 when the bot using $LAIR_DB heard from\n"
        "                 Discord within SECONDS (default 120), else 1\n"
        "                 (for a container's health check). The bot touches\n"
        "                 $LAIR_DB-alive, or ./lair-alive when $LAIR_DB is\n"
        "                 a PostgreSQL URL.\n",
        f);
}

bool bot_health_path(const char *db, char *out, size_t cap) {
  /* A PostgreSQL URL is no file to put a file beside: the bot and `lair
   * health` then share lair-alive in their working directory. */
  int n = sto_is_url(db) ? snprintf(out, cap, "lair-alive")
                         : snprintf(out, cap, "%s-alive", db);
  return n > 0 && (size_t)n < cap;
}

int bot_cmd_health(int argc, char **argv) {
  static const struct option opts[] = {
      {"help", no_argument, NULL, 'h'},
      {"max-age", required_argument, NULL, 'a'},
      {NULL, 0, NULL, 0},
  };
  long max_age = DEFAULT_MAX_AGE;
  int c;

  optind = 0;
  opterr = 0;
  while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
    switch (c) {
    case 'h':
      return bot_print_usage(bot_usage_health);
    case 'a':
      if (!bot_parse_long("--max-age", optarg, 1, 86400, &max_age))
        return BOT_EXIT_USAGE;
      break;
    default:
      bot_option_error("health", c, argv);
      return BOT_EXIT_USAGE;
    }
  }
  if (optind < argc) {
    fprintf(stderr, "lair health: unexpected argument '%.40s'\n", argv[optind]);
    return BOT_EXIT_USAGE;
  }
  char db[1024], path[1100];
  if (!bot_default_db(db, sizeof db) ||
      !bot_health_path(db, path, sizeof path)) {
    fputs("lair health: no database path: set LAIR_DB or HOME\n", stderr);
    return BOT_EXIT_USAGE;
  }
  struct stat st;
  if (stat(path, &st) != 0) {
    if (errno == ENOENT)
      printf("lair health: the bot has not reached Discord (no %s)\n", path);
    else
      printf("lair health: cannot read %s: %s\n", path, strerror(errno));
    return BOT_EXIT_FAIL;
  }
  struct timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  double age = (double)(now.tv_sec - st.st_mtim.tv_sec) +
               (double)(now.tv_nsec - st.st_mtim.tv_nsec) / 1e9;
  if (age < 0)
    age = 0;
  if (age > (double)max_age) {
    printf("lair health: nothing heard from Discord for %.0f s\n", age);
    return BOT_EXIT_FAIL;
  }
  printf("lair health: ok, Discord heard from %.0f s ago\n", age);
  return BOT_EXIT_OK;
}
