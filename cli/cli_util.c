/*
 * cli_util.c: helpers shared by the subcommands in cli/: checked number
 * parsing (no atoi: a typo must be an error, not a zero), game lookup with
 * a helpful message, getopt error reporting and JSON output.
 */
#include "cli.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

bool bot_parse_long(const char *what, const char *text, long min, long max,
                    long *out) {
  const char *digits = text[0] == '-' ? text + 1 : text;
  char *end = NULL;
  long v;

  /* strtol would skip blanks and accept "+"; a number here is digits. */
  if (!isdigit((unsigned char)digits[0]))
    goto bad;
  errno = 0;
  v = strtol(text, &end, 10);
  if (errno != 0 || *end != '\0' || v < min || v > max)
    goto bad;
  *out = v;
  return true;
bad:
  fprintf(stderr,
          "lair: %s must be a whole number from %ld to %ld, not "
          "'%.40s'\n",
          what, min, max, text);
  return false;
}

bool bot_parse_u64(const char *what, const char *text, uint64_t max,
                   uint64_t *out) {
  char *end = NULL;
  unsigned long long v;

  /* strtoull accepts "-1" and returns a huge value: refuse any sign. */
  if (!isdigit((unsigned char)text[0]))
    goto bad;
  errno = 0;
  v = strtoull(text, &end, 10);
  if (errno != 0 || *end != '\0' || v > max)
    goto bad;
  *out = (uint64_t)v;
  return true;
bad:
  fprintf(stderr,
          "lair: %s must be a whole number from 0 to %llu, not '%.40s'\n", what,
          (unsigned long long)max, text);
  return false;
}

const eng_ruleset *bot_find_game(const char *id) {
  const eng_ruleset *rs = eng_find(id);
  const eng_ruleset *const *all;
  size_t n;

  if (rs)
    return rs;
  all = eng_rulesets(&n);
  fprintf(stderr, "lair: unknown game '%.60s' (known: ", id);
  if (n == 0)
    fputs("none", stderr);
  for (size_t i = 0; i < n; i++)
    fprintf(stderr, "%s%s", i ? ", " : "", all[i]->id);
  fputs(")\n", stderr);
  return NULL;
}

void bot_list_games(FILE *f) {
  size_t n;
  const eng_ruleset *const *all = eng_rulesets(&n);

  if (n == 0)
    fputs("  (none yet)\n", f);
  for (size_t i = 0; i < n; i++) {
    const eng_ruleset *rs = all[i];
    fprintf(f, "  %-14s %s, %d-%d players", rs->id, rs->name, rs->min_players,
            rs->max_players);
    if (rs->modes_help && rs->modes_help[0])
      fprintf(f, "; modes: %s", rs->modes_help);
    fputc('\n', f);
  }
}

void bot_option_error(const char *cmd, int c, char **argv) {
  /* After an error getopt has advanced optind past the offending word. */
  const char *word = optind > 0 ? argv[optind - 1] : "?";
  const char *sp = cmd[0] ? " " : "";

  if (c == ':')
    fprintf(stderr,
            "lair%s%s: option '%.40s' needs a value (see 'lair "
            "--help')\n",
            sp, cmd, word);
  else if (optopt)
    fprintf(stderr, "lair%s%s: unknown option '-%c' (see 'lair --help')\n", sp,
            cmd, optopt);
  else
    fprintf(stderr, "lair%s%s: unknown option '%.40s' (see 'lair --help')\n",
            sp, cmd, word);
}

int bot_print_json(const json_t *j, size_t flags) {
  char *text = json_dumps(j, flags);

  if (!text) {
    fputs("lair: out of memory\n", stderr);
    return BOT_EXIT_FAIL;
  }
  fputs(text, stdout);
  fputc('\n', stdout);
  free(text);
  if (fflush(stdout) != 0 || ferror(stdout)) {
    fprintf(stderr, "lair: cannot write output: %s\n", strerror(errno));
    return BOT_EXIT_FAIL;
  }
  return BOT_EXIT_OK;
}

const char *bot_one_operand(const char *cmd, const char *what, int argc,
                            char **argv) {
  if (optind >= argc) {
    fprintf(stderr, "lair %s: which %s? (see 'lair --help')\n", cmd, what);
    return NULL;
  }
  if (optind + 1 < argc) {
    fprintf(stderr, "lair %s: unexpected argument '%.40s'\n", cmd,
            argv[optind + 1]);
    return NULL;
  }
  return argv[optind];
}

int bot_print_usage(void (*usage)(FILE *f)) {
  fputs("Usage:\n", stdout);
  usage(stdout);
  return BOT_EXIT_OK;
}
