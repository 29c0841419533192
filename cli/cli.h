/*
 * cli.h: the subcommands of Lair's command line and the small helpers they
 * share (cli/), and the exit statuses the transports return too.
 * bot/main.c dispatches to them; each returns the process's exit status:
 * 0 success, 1 failure (e.g. invariant violations, write errors), 2 usage
 * errors (unknown game, bad number, unknown option).
 */
#ifndef LAIR_CLI_H
#define LAIR_CLI_H

#include "eng.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

enum { BOT_EXIT_OK = 0, BOT_EXIT_FAIL = 1, BOT_EXIT_USAGE = 2 };

/* `lair simulate ...`; argv[0] is "simulate". Returns the exit status. */
int bot_cmd_simulate(int argc, char **argv);
/* `lair local ...`: the console table; argv[0] is "local". */
int bot_cmd_local(int argc, char **argv);
void bot_usage_local(FILE *f);
/* The default database path: $LAIR_DB (a file or a PostgreSQL URL, used
 * as given), else $XDG_DATA_HOME/lair/lair.db, else
 * ~/.local/share/lair/lair.db (directories created). False when
 * there is no HOME to put it in. */
bool bot_default_db(char *out, size_t cap);
/* `lair cards ...`; argv[0] is "cards". Returns the exit status. */
int bot_cmd_cards(int argc, char **argv);
/* `lair replay FILE`: checks a game record; argv[0] is "replay". */
int bot_cmd_replay(int argc, char **argv);

/* `lair health`: whether the bot heard from Discord lately (exit 0/1). */
int bot_cmd_health(int argc, char **argv);
/* The file the running bot touches while it hears from Discord: db
 * followed by "-alive" (lair-alive in the working directory when db is a
 * PostgreSQL URL). False when it does not fit in cap. */
bool bot_health_path(const char *db, char *out, size_t cap);

/* `lair check [--db PATH]`: the full check of a database (exit 0/1). */
int bot_cmd_check(int argc, char **argv);

/* A subcommand's --help: "Usage:" and its usage text on stdout; returns
 * BOT_EXIT_OK. */
int bot_print_usage(void (*usage)(FILE *f));

/* Write the usage text of one subcommand to f. */
void bot_usage_simulate(FILE *f);
void bot_usage_cards(FILE *f);
void bot_usage_replay(FILE *f);
void bot_usage_health(FILE *f);
void bot_usage_check(FILE *f);
/* Writes the registered games, one per line, to f. */
void bot_list_games(FILE *f);

/* Parses text as a decimal integer in [min, max] into *out. On failure
 * prints one line naming `what` to stderr, leaves *out alone and returns
 * false. */
bool bot_parse_long(const char *what, const char *text, long min, long max,
                    long *out);
/* The same for unsigned 64-bit values in [0, max]; a sign is refused. */
bool bot_parse_u64(const char *what, const char *text, uint64_t max,
                   uint64_t *out);

/* The one operand after the options of `lair cmd` (optind set by
 * getopt_long); NULL after a one-line message on stderr when it is
 * missing ("which what?") or followed by another. */
const char *bot_one_operand(const char *cmd, const char *what, int argc,
                            char **argv);

/* Returns the ruleset called id, or NULL after printing
 * "lair: unknown game 'ID' (known: a, b)" to stderr. */
const eng_ruleset *bot_find_game(const char *id);

/* Reports a getopt error (opterr is 0, optstring starts with ':') for the
 * command cmd ("" for the top level) as one line on stderr. */
void bot_option_error(const char *cmd, int c, char **argv);

/* Prints j with json_dumps flags and a newline to stdout and flushes.
 * Does not take the reference. Returns BOT_EXIT_OK, or BOT_EXIT_FAIL after
 * a message when out of memory or stdout cannot be written. */
int bot_print_json(const json_t *j, size_t flags);

#endif
