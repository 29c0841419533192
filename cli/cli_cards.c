/*
 * cli_cards.c: `lair cards GAME [--markdown]`, the card data built into
 * the binary.
 *
 * The list comes from the ruleset, so it shows the cards as the engine
 * validated and understood them: by default one JSON object per distinct
 * card with its deck and count; with --markdown the tables that the
 * game's docs/rules page embeds (tools/gen_docs.sh copies them there and
 * a test checks that the page still matches).
 */
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

void bot_usage_cards(FILE *f) {
  fputs("  lair cards GAME [--markdown]\n"
        "                 Print GAME's cards as one JSON array, each card\n"
        "                 with the deck it belongs to; with --markdown as\n"
        "                 the Markdown tables of docs/rules/GAME.md.\n",
        f);
}

/* Prints rs's Markdown card list; returns the exit status. */
static int print_markdown(const eng_ruleset *rs) {
  char *text;

  if (!rs->cards_markdown) {
    fprintf(stderr, "lair: %s has no Markdown card list\n", rs->id);
    return BOT_EXIT_FAIL;
  }
  text = rs->cards_markdown();
  if (!text) {
    fprintf(stderr, "lair: %s has no valid card list (or out of memory)\n",
            rs->id);
    return BOT_EXIT_FAIL;
  }
  fputs(text, stdout);
  free(text);
  if (fflush(stdout) != 0 || ferror(stdout)) {
    fprintf(stderr, "lair: cannot write output: %s\n", strerror(errno));
    return BOT_EXIT_FAIL;
  }
  return BOT_EXIT_OK;
}

int bot_cmd_cards(int argc, char **argv) {
  static const struct option opts[] = {
      {"help", no_argument, NULL, 'h'},
      {"markdown", no_argument, NULL, 'm'},
      {NULL, 0, NULL, 0},
  };
  const eng_ruleset *rs;
  json_t *out;
  bool markdown = false;
  int c, status;

  optind = 0;
  opterr = 0;
  while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
    switch (c) {
    case 'h':
      return bot_print_usage(bot_usage_cards);
    case 'm':
      markdown = true;
      break;
    default:
      bot_option_error("cards", c, argv);
      return BOT_EXIT_USAGE;
    }
  }
  const char *operand = bot_one_operand("cards", "game", argc, argv);
  if (!operand)
    return BOT_EXIT_USAGE;
  rs = bot_find_game(operand);
  if (!rs)
    return BOT_EXIT_USAGE;
  if (markdown)
    return print_markdown(rs);

  out = rs->cards ? rs->cards() : NULL;
  if (!out) {
    fprintf(stderr, "lair: %s has no valid card list\n", rs->id);
    return BOT_EXIT_FAIL;
  }
  status = bot_print_json(out, JSON_INDENT(2));
  json_decref(out);
  return status;
}
