/*
 * cli_cards.c: `lair cards GAME`, the card data built into the binary.
 *
 * Each data file engine/games/GAME/data/FILE.json is embedded as the blob
 * "GAME/FILE.json". A card file is an object {"deck": ..., "cards": [...]}
 * (a bare array of cards is accepted too, its deck named after the file);
 * files without a "cards" array hold other data and are skipped. The output
 * is one JSON array: every card object with a leading "deck" field.
 */
#include "blob.h"
#include "cli.h"

#include <getopt.h>
#include <string.h>

void bot_usage_cards(FILE *f) {
  fputs("  lair cards GAME\n"
        "                 Print GAME's cards as one JSON array, each card\n"
        "                 with the deck it belongs to.\n",
        f);
}

/* "GAME/FILE.json" -> json string "FILE"; new reference or NULL. */
static json_t *file_stem(const char *name) {
  const char *base = strrchr(name, '/');
  const char *dot;

  base = base ? base + 1 : name;
  dot = strrchr(base, '.');
  return json_stringn(base, dot ? (size_t)(dot - base) : strlen(base));
}

/* Appends the cards of blob b to out. Returns 0, or 1 after a message. */
static int add_cards(json_t *out, const eng_blob *b) {
  json_error_t err;
  json_t *root = json_loadb(b->text, b->len, 0, &err);
  json_t *cards, *deck;
  int bad = 0;

  if (!root) {
    fprintf(stderr, "lair: data file %s, line %d: %s\n", b->name, err.line,
            err.text);
    return 1;
  }
  if (json_is_array(root)) {
    cards = root;
    deck = file_stem(b->name);
  } else {
    cards = json_object_get(root, "cards");
    deck = json_object_get(root, "deck");
    deck = deck ? json_incref(deck) : file_stem(b->name);
  }
  if (!json_is_array(cards)) {
    /* Not a card file. */
    json_decref(deck);
    json_decref(root);
    return 0;
  }
  for (size_t i = 0; !bad && i < json_array_size(cards); i++) {
    json_t *card = json_array_get(cards, i), *o, *v;
    const char *key;

    if (!json_is_object(card)) {
      fprintf(stderr, "lair: data file %s: card %zu is not an object\n",
              b->name, i);
      bad = 1;
      break;
    }
    o = json_object();
    bad |= json_object_set(o, "deck", deck);
    json_object_foreach(card, key, v) {
      if (strcmp(key, "deck") != 0)
        bad |= json_object_set(o, key, v);
    }
    bad |= json_array_append_new(out, o);
    if (bad)
      fputs("lair: out of memory\n", stderr);
  }
  json_decref(deck);
  json_decref(root);
  return bad;
}

int bot_cmd_cards(int argc, char **argv) {
  static const struct option opts[] = {
      {"help", no_argument, NULL, 'h'},
      {NULL, 0, NULL, 0},
  };
  const eng_ruleset *rs;
  char prefix[128];
  size_t plen;
  json_t *out;
  int c, status;

  optind = 0;
  opterr = 0;
  while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
    switch (c) {
    case 'h':
      fputs("Usage:\n", stdout);
      bot_usage_cards(stdout);
      return BOT_EXIT_OK;
    default:
      bot_option_error("cards", c, argv);
      return BOT_EXIT_USAGE;
    }
  }
  if (optind >= argc) {
    fputs("lair cards: which game? (see 'lair --help')\n", stderr);
    return BOT_EXIT_USAGE;
  }
  if (optind + 1 < argc) {
    fprintf(stderr, "lair cards: unexpected argument '%.40s'\n",
            argv[optind + 1]);
    return BOT_EXIT_USAGE;
  }
  rs = bot_find_game(argv[optind]);
  if (!rs)
    return BOT_EXIT_USAGE;

  c = snprintf(prefix, sizeof prefix, "%s/", rs->id);
  if (c < 0 || (size_t)c >= sizeof prefix) {
    fputs("lair: game id too long\n", stderr);
    return BOT_EXIT_FAIL;
  }
  plen = (size_t)c;
  out = json_array();
  if (!out) {
    fputs("lair: out of memory\n", stderr);
    return BOT_EXIT_FAIL;
  }
  for (size_t i = 0; i < eng_n_blobs; i++) {
    if (strncmp(eng_blobs[i].name, prefix, plen) == 0 &&
        add_cards(out, &eng_blobs[i]) != 0) {
      json_decref(out);
      return BOT_EXIT_FAIL;
    }
  }
  status = bot_print_json(out, JSON_INDENT(2));
  json_decref(out);
  return status;
}
