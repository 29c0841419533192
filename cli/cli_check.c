/*
 * cli_check.c: `lair check [--db PATH]`, the full check of a database
 * that start-up leaves out so that it stays fast whatever the file's
 * size: SQLite's integrity check, foreign keys and Lair's own rules on
 * its rows (storage/sto.h, sto_check; on a PostgreSQL URL, Lair's rules
 * only). Read-only: it may run beside the
 * bot, e.g. nightly from cron or `docker compose exec`.
 */
#include "cli.h"
#include "sto.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

void bot_usage_check(FILE *f) {
  fputs("  lair check [--db PATH]\n"
        "                 Check the whole database (default $LAIR_DB), read\n"
        "                 only: exit 0 when it is sound, 1 when problems\n"
        "                 were found (each on a line) or it cannot be read.\n"
        "                 PATH may be a PostgreSQL URL (postgresql://...).\n",
        f);
}

static void print_problem(void *ctx, const char *problem) {
  (void)ctx;
  printf("lair check: %s\n", problem);
}

int bot_cmd_check(int argc, char **argv) {
  static const struct option opts[] = {
      {"help", no_argument, NULL, 'h'},
      {"db", required_argument, NULL, 'd'},
      {NULL, 0, NULL, 0},
  };
  char db[1024] = "";
  int c;

  optind = 0;
  opterr = 0;
  while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
    switch (c) {
    case 'h':
      return bot_print_usage(bot_usage_check);
    case 'd':
      if (!optarg[0] || strlen(optarg) >= sizeof db) {
        fputs("lair check: --db needs a path (at most 1023 bytes)\n", stderr);
        return BOT_EXIT_USAGE;
      }
      snprintf(db, sizeof db, "%s", optarg);
      break;
    default:
      bot_option_error("check", c, argv);
      return BOT_EXIT_USAGE;
    }
  }
  if (optind < argc) {
    fprintf(stderr, "lair check: unexpected argument '%.40s'\n", argv[optind]);
    return BOT_EXIT_USAGE;
  }
  if (!db[0] && !bot_default_db(db, sizeof db)) {
    fputs("lair check: no database path: give --db PATH, or set LAIR_DB or "
          "HOME\n",
          stderr);
    return BOT_EXIT_USAGE;
  }
  long problems = 0;
  char err[512], name[1024];
  sto_redact(db, name, sizeof name); /* a URL's password is not shown */
  sto_rc rc = sto_check(db, print_problem, NULL, &problems, err, sizeof err);
  if (rc) {
    printf("lair check: %s\n", err[0] ? err : sto_strerror(rc));
    return BOT_EXIT_FAIL;
  }
  if (problems) {
    printf("lair check: %s: %ld problem%s found\n", name, problems,
           problems == 1 ? "" : "s");
    return BOT_EXIT_FAIL;
  }
  printf("lair check: %s: sound\n", name);
  return BOT_EXIT_OK;
}
