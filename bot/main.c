/*
 * main.c: the `lair` process's entry point and command line.
 *
 * Plain `lair` runs the bot: on Discord when DISCORD_TOKEN is set
 * (discord.c), otherwise the console table (`lair local`).
 * The other subcommands are tools: `lair simulate` (random playouts with
 * invariant checks), `lair cards` (the built-in card data) and
 * `lair replay` (checking an exported game record). Options are parsed
 * with getopt_long; the global options stop at the first word that is
 * not an option, which names the subcommand.
 */
#include "cli.h"
#include "cmd.h"
#include "discord.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#ifndef LAIR_VERSION
#define LAIR_VERSION "0.0.0"
#endif

static void usage(FILE *f) {
  fputs("Usage: lair [--help] [--version] [COMMAND ...]\n"
        "\n"
        "Lair hosts tabletop card games in Discord text channels.\n"
        "\n"
        "Commands:\n"
        "  lair           Run the bot: on Discord when DISCORD_TOKEN is set,\n"
        "                 otherwise the console table (lair local).\n",
        f);
  bot_usage_local(f);
  bot_usage_simulate(f);
  bot_usage_cards(f);
  bot_usage_replay(f);
  bot_usage_health(f);
  bot_usage_check(f);
  fputs("  lair --help    Show this help.\n"
        "  lair --version Show the version.\n"
        "\n"
        "Games:\n",
        f);
  bot_list_games(f);
  fputs("\n"
        "Environment:\n"
        "  DISCORD_TOKEN  Discord bot token; when unset or empty, plain\n"
        "                 `lair` uses the console table.\n"
        "  LAIR_DISCORD_API_URL  Discord's API base (default\n"
        "                 https://discord.com/api/v10).\n"
        "  LAIR_GUILD_ID  Register the commands in this server only.\n"
        "  LAIR_MOD_ROLE  A role id whose members are moderators.\n"
        "  LAIR_LOG_LEVEL error, warn, info (default) or debug.\n"
        "  LAIR_SHARDS    The bot's total gateway shard count (1-4096) or\n"
        "                 auto; unset: one session, no sharding.\n"
        "  LAIR_SHARD_IDS The shards this process runs (0-3, 0,2,5);\n"
        "                 unset: all of them.\n"
        "  LAIR_HTTP_PORT Receive interactions over HTTP on this port (with\n"
        "                 LAIR_PUBLIC_KEY; LAIR_HTTP_ADDR, LAIR_HTTP_PATH).\n"
        "  LAIR_DB        The SQLite database (default\n"
        "                 ~/.local/share/lair/lair.db), or a PostgreSQL\n"
        "                 URL postgresql://USER@HOST/DB (libpq's form, also\n"
        "                 ?host=/socket/dir&port=N) for several processes\n"
        "                 sharing one database.\n"
        "\n"
        "Exit status: 0 success, 1 failure (e.g. invariant violations, a\n"
        "record that does not replay), 2 usage error (or a file that\n"
        "cannot be read).\n",
        f);
}

/* Plain `lair`: pick the transport from the environment. */
static int run_bot(void) {
  const char *token = getenv("DISCORD_TOKEN");

  if (token && token[0]) {
    bot_discord_config cfg;
    char err[200], db[1024];
    if (!bot_discord_config_from_env(&cfg, err, sizeof err)) {
      fprintf(stderr, "lair: %s\n", err);
      return BOT_EXIT_USAGE;
    }
    if (!bot_http_config_from_env(&cfg.http, err, sizeof err)) {
      fprintf(stderr, "lair: %s\n", err);
      return BOT_EXIT_USAGE;
    }
    if (cfg.http.port && cfg.shards) {
      /* A process that takes interactions over HTTP opens no gateway
       * session, so its shards would be silently ignored. */
      fputs("lair: LAIR_SHARDS is set but LAIR_HTTP_PORT makes this "
            "process take interactions over HTTP, without the gateway: "
            "unset one of them\n",
            stderr);
      return BOT_EXIT_USAGE;
    }
    if (!bot_default_db(db, sizeof db)) {
      fputs("lair: no database path: set LAIR_DB or HOME\n", stderr);
      return BOT_EXIT_USAGE;
    }
    return bot_discord_run(&cfg, db);
  }
  char *argv[] = {"local", NULL};
  return bot_cmd_local(1, argv);
}

int main(int argc, char **argv) {
  static const struct option opts[] = {
      {"help", no_argument, NULL, 'h'},
      {"version", no_argument, NULL, 'V'},
      {NULL, 0, NULL, 0},
  };
  const char *cmd;
  int c;

  cmd_tz_init(); /* before any thread: see commands/cmd_async.c */
  opterr = 0;
  /* '+': stop at the subcommand, whose options are its own. */
  while ((c = getopt_long(argc, argv, "+:hV", opts, NULL)) != -1) {
    switch (c) {
    case 'h':
      usage(stdout);
      return BOT_EXIT_OK;
    case 'V':
      printf("lair %s\n", LAIR_VERSION);
      return BOT_EXIT_OK;
    default:
      bot_option_error("", c, argv);
      return BOT_EXIT_USAGE;
    }
  }
  if (optind >= argc)
    return run_bot();

  cmd = argv[optind];
  if (strcmp(cmd, "simulate") == 0)
    return bot_cmd_simulate(argc - optind, argv + optind);
  if (strcmp(cmd, "local") == 0)
    return bot_cmd_local(argc - optind, argv + optind);
  if (strcmp(cmd, "cards") == 0)
    return bot_cmd_cards(argc - optind, argv + optind);
  if (strcmp(cmd, "replay") == 0)
    return bot_cmd_replay(argc - optind, argv + optind);
  if (strcmp(cmd, "health") == 0)
    return bot_cmd_health(argc - optind, argv + optind);
  if (strcmp(cmd, "check") == 0)
    return bot_cmd_check(argc - optind, argv + optind);
  if (strcmp(cmd, "help") == 0) {
    usage(stdout);
    return BOT_EXIT_OK;
  }
  fprintf(stderr, "lair: unknown command '%.40s' (see 'lair --help')\n", cmd);
  return BOT_EXIT_USAGE;
}
