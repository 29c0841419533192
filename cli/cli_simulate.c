/*
 * cli_simulate.c: `lair simulate GAME`, random playouts from the command
 * line. It parses the options, runs eng_simulate_ai on the monotonic
 * clock (every seat random unless --ai says otherwise) and prints one
 * JSON object of statistics on one line, so scripts and CI can read it.
 * Exit status 1 when any invariant was violated.
 */
#include "cli.h"

#include <getopt.h>
#include <math.h>
#include <string.h>
#include <time.h>

/* Beyond this a game is assumed to loop forever (a violation). */
#define SIM_MAX_ANSWERS 100000L
#define SIM_MAX_GAMES 1000000000L
/* JSON consumers read integers as signed 64-bit at best. */
#define SIM_MAX_SEED ((uint64_t)INT64_MAX)

void bot_usage_simulate(FILE *f) {
  fputs("  lair simulate GAME [--games N] [--players P] [--seed S]\n"
        "                [--mode M] [--ai SPEC] [--no-check]\n"
        "                 Play N games (default 100) with random legal\n"
        "                 answers, seat 0 first, checking the rules'\n"
        "                 invariants after every move (unless --no-check).\n"
        "                 P defaults to the game's minimum, S (0 to 2^63-1)\n"
        "                 to 1, M to the standard rules. SPEC gives each\n"
        "                 seat's AI level, comma-separated, one per player\n"
        "                 (random or heuristic), e.g. heuristic,random;\n"
        "                 default all random. Prints one JSON object of\n"
        "                 statistics; exits 1 on any violation.\n",
        f);
}

static double round_to(double x, double unit) { return round(x / unit) * unit; }

/* Parses --ai's SPEC, "LEVEL,LEVEL,..." with one level per seat, into
 * levels[0..players). On failure prints one line to stderr and returns
 * false. */
static bool parse_ai(const char *spec, int players, int *levels) {
  const char *p = spec;
  int n = 0;
  for (;;) {
    const char *comma = strchr(p, ',');
    size_t len = comma ? (size_t)(comma - p) : strlen(p);
    char name[16];
    int level = -1;
    if (len < sizeof name) {
      memcpy(name, p, len);
      name[len] = '\0';
      level = eng_ai_find(name);
    }
    if (level < 0) {
      fprintf(stderr, "lair: --ai: unknown level '%.*s' (known:",
              (int)(len < 40 ? len : 40), p);
      for (int i = 0; i < ENG_AI_COUNT; i++)
        fprintf(stderr, "%s %s", i ? "," : "", eng_ai_name(i));
      fputs(")\n", stderr);
      return false;
    }
    if (n < players)
      levels[n] = level;
    n++;
    if (!comma)
      break;
    p = comma + 1;
  }
  if (n != players) {
    fprintf(stderr, "lair: --ai gives %d level%s for %d players\n", n,
            n == 1 ? "" : "s", players);
    return false;
  }
  return true;
}

/* Builds the statistics object; NULL when out of memory. */
static json_t *stats_json(const eng_ruleset *rs, const eng_config *cfg,
                          uint64_t seed, const int *levels,
                          const eng_sim_stats *st, double seconds) {
  json_t *o = json_object(), *wins = json_array(), *reasons = json_object();
  json_t *ai = json_array();
  double games = st->games > 0 ? (double)st->games : 1.0;
  int bad = !o || !wins || !reasons || !ai;

  for (int i = 0; !bad && i < cfg->players && i < ENG_MAX_SEATS; i++) {
    bad |= json_array_append_new(wins, json_integer(st->wins_by_seat[i]));
    bad |= json_array_append_new(ai, json_string(eng_ai_name(levels[i])));
  }
  for (int i = 0; !bad && i < st->n_reasons && i < ENG_SIM_REASONS; i++)
    bad |= json_object_set_new(reasons, st->reason[i],
                               json_integer(st->reason_count[i]));
  if (bad) {
    json_decref(o);
    json_decref(wins);
    json_decref(reasons);
    json_decref(ai);
    return NULL;
  }
  bad |= json_object_set_new(o, "game", json_string(rs->id));
  bad |= json_object_set_new(o, "games", json_integer(st->games));
  bad |= json_object_set_new(o, "players", json_integer(cfg->players));
  bad |=
      json_object_set_new(o, "mode", json_string(eng_mode_name(rs, cfg->mode)));
  bad |= json_object_set_new(o, "seed", json_integer((json_int_t)seed));
  bad |= json_object_set_new(o, "ai", ai);
  bad |= json_object_set_new(o, "moves", json_integer(st->moves));
  bad |= json_object_set_new(
      o, "avg_turns", json_real(round_to((double)st->turns / games, 0.01)));
  bad |= json_object_set_new(
      o, "avg_moves", json_real(round_to((double)st->moves / games, 0.01)));
  bad |= json_object_set_new(o, "wins_by_seat", wins);
  bad |= json_object_set_new(o, "end_reasons", reasons);
  if (st->n_sides > 0) {
    json_t *sides = json_object();
    bad |= !sides;
    for (int i = 0; !bad && i < st->n_sides; i++) {
      double rate = st->side_games[i] > 0
                        ? (double)st->side_wins[i] / (double)st->side_games[i]
                        : 0.0;
      bad |= json_object_set_new(sides, st->side[i],
                                 json_pack("{sIsIsf}", "games",
                                           (json_int_t)st->side_games[i],
                                           "wins", (json_int_t)st->side_wins[i],
                                           "win_rate", round_to(rate, 0.001)));
    }
    bad |= json_object_set_new(o, "wins_by_side", sides);
  }
  bad |= json_object_set_new(o, "violations", json_integer(st->violations));
  bad |= json_object_set_new(
      o, "first_violation",
      st->violations > 0 ? json_string(st->first_violation) : json_null());
  bad |= json_object_set_new(
      o, "games_per_second",
      json_real(seconds > 0 ? round_to((double)st->games / seconds, 0.1)
                            : 0.0));
  if (bad) {
    json_decref(o);
    return NULL;
  }
  return o;
}

int bot_cmd_simulate(int argc, char **argv) {
  static const struct option opts[] = {
      {"games", required_argument, NULL, 'g'},
      {"players", required_argument, NULL, 'p'},
      {"seed", required_argument, NULL, 's'},
      {"mode", required_argument, NULL, 'm'},
      {"ai", required_argument, NULL, 'a'},
      {"no-check", no_argument, NULL, 'n'},
      {"help", no_argument, NULL, 'h'},
      {NULL, 0, NULL, 0},
  };
  const char *games_arg = NULL, *players_arg = NULL, *seed_arg = NULL;
  const char *mode = "", *ai_arg = NULL;
  int levels[ENG_MAX_SEATS];
  bool check = true;
  long games = 100, players = 0;
  uint64_t seed = 1;
  const eng_ruleset *rs;
  eng_config cfg;
  eng_sim_stats st;
  struct timespec t0, t1;
  double seconds;
  json_t *out;
  eng_rc rc;
  int c, status;

  /* optind 0 makes glibc and musl re-initialise getopt for this argv. */
  optind = 0;
  opterr = 0;
  while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
    switch (c) {
    case 'g':
      games_arg = optarg;
      break;
    case 'p':
      players_arg = optarg;
      break;
    case 's':
      seed_arg = optarg;
      break;
    case 'm':
      mode = optarg;
      break;
    case 'a':
      ai_arg = optarg;
      break;
    case 'n':
      check = false;
      break;
    case 'h':
      return bot_print_usage(bot_usage_simulate);
    default:
      bot_option_error("simulate", c, argv);
      return BOT_EXIT_USAGE;
    }
  }
  const char *operand = bot_one_operand("simulate", "game", argc, argv);
  if (!operand)
    return BOT_EXIT_USAGE;
  rs = bot_find_game(operand);
  if (!rs)
    return BOT_EXIT_USAGE;

  /* Check every option before doing any work. */
  if (games_arg &&
      !bot_parse_long("--games", games_arg, 1, SIM_MAX_GAMES, &games))
    return BOT_EXIT_USAGE;
  players = rs->min_players;
  if (players_arg &&
      !bot_parse_long("--players", players_arg, 1, ENG_MAX_SEATS, &players))
    return BOT_EXIT_USAGE;
  if (seed_arg && !bot_parse_u64("--seed", seed_arg, SIM_MAX_SEED, &seed))
    return BOT_EXIT_USAGE;
  for (int i = 0; i < ENG_MAX_SEATS; i++)
    levels[i] = ENG_AI_RANDOM;
  if (ai_arg && !parse_ai(ai_arg, (int)players, levels))
    return BOT_EXIT_USAGE;
  memset(&cfg, 0, sizeof cfg);
  if (strlen(mode) >= sizeof cfg.mode) {
    fprintf(stderr, "lair: --mode is longer than %zu characters\n",
            sizeof cfg.mode - 1);
    return BOT_EXIT_USAGE;
  }
  cfg.players = (int)players;
  memcpy(cfg.mode, mode, strlen(mode) + 1);
  cfg.first = 0;

  memset(&st, 0, sizeof st);
  clock_gettime(CLOCK_MONOTONIC, &t0);
  rc = eng_simulate_ai(rs, &cfg, seed, games, check, SIM_MAX_ANSWERS, levels,
                       &st);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  if (rc != ENG_OK) {
    fprintf(stderr, "lair: %s\n", eng_strerror(rc));
    return rc == ENG_NOMEM || rc == ENG_INTERNAL ? BOT_EXIT_FAIL
                                                 : BOT_EXIT_USAGE;
  }
  seconds =
      (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;

  out = stats_json(rs, &cfg, seed, levels, &st, seconds);
  if (!out) {
    fputs("lair: out of memory\n", stderr);
    return BOT_EXIT_FAIL;
  }
  /* 15 significant digits print the rounded averages without noise. */
  status = bot_print_json(out, JSON_REAL_PRECISION(15));
  json_decref(out);
  if (status != BOT_EXIT_OK)
    return status;
  return st.violations > 0 ? BOT_EXIT_FAIL : BOT_EXIT_OK;
}
