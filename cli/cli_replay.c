/*
 * cli_replay.c: `lair replay FILE`, checking a game record that
 * /game export wrote (the format is described in commands/cmd.h).
 *
 * It reads the record, checks its own checksum (record_fnv1a64), rebuilds
 * the game with eng_game_from_record so that every answer must be legal
 * where it stands, and compares the final state's checksum, the result
 * and the status with what the file says. Success prints one JSON object
 * on one line. Any disagreement is one line on stderr and exit status 1;
 * a file that cannot be read, is not JSON or is not a Lair record is exit
 * status 2. The checksums catch edits and damage; they are no signature,
 * which is why the answers are replayed as well.
 */
#include "cli.h"
#include "cmd.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define REPLAY_MAX_BYTES (64u << 20) /* a record file we agree to read */

void bot_usage_replay(FILE *f) {
  fputs("  lair replay FILE\n"
        "                 Check a game record from /game export (FILE, or -\n"
        "                 for stdin): its checksum, every answer against the\n"
        "                 rules, the final state and the result. Prints one\n"
        "                 JSON object; exits 1 when the record does not hold\n"
        "                 up, 2 when FILE cannot be read or is not a record.\n",
        f);
}

/* Reads all of f (at most REPLAY_MAX_BYTES) into a malloc'd buffer;
 * NULL with errno set (EFBIG when too large). */
static char *read_all(FILE *f, size_t *len) {
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap);
  while (buf) {
    if (n == cap) {
      if (cap >= REPLAY_MAX_BYTES) {
        free(buf);
        errno = EFBIG;
        return NULL;
      }
      char *p = realloc(buf, cap * 2);
      if (!p)
        break;
      buf = p;
      cap *= 2;
    }
    size_t got = fread(buf + n, 1, cap - n, f);
    n += got;
    if (got == 0) {
      if (ferror(f)) {
        int e = errno ? errno : EIO;
        free(buf);
        errno = e;
        return NULL;
      }
      *len = n;
      return buf;
    }
  }
  free(buf);
  errno = ENOMEM;
  return NULL;
}

static bool is_hex16(const json_t *j) {
  const char *s = json_string_value(j);
  if (!s || strlen(s) != 16)
    return false;
  for (const char *p = s; *p; p++)
    if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f')))
      return false;
  return true;
}

/* Checks the record's shape; on a problem writes what is wrong into why
 * and returns false. */
static bool well_formed(const json_t *rec, char *why, size_t cap) {
  static const char *const text_fields[] = {"ruleset", "mode", "seed",
                                            "status"};
  static const char *const int_fields[] = {"version", "players", "first",
                                           "game"};
  json_t *v = json_object_get(rec, "lair_record");
  if (!json_is_integer(v)) {
    snprintf(why, cap,
             "'lair_record' is missing (records come from /game "
             "export)");
    return false;
  }
  if (json_integer_value(v) != CMD_RECORD_VERSION) {
    snprintf(why, cap,
             "it is a record of format %" JSON_INTEGER_FORMAT
             ", and this Lair reads format %d",
             json_integer_value(v), CMD_RECORD_VERSION);
    return false;
  }
  for (size_t i = 0; i < sizeof text_fields / sizeof *text_fields; i++)
    if (!json_is_string(json_object_get(rec, text_fields[i]))) {
      snprintf(why, cap, "'%s' is missing or not a string", text_fields[i]);
      return false;
    }
  for (size_t i = 0; i < sizeof int_fields / sizeof *int_fields; i++)
    if (!json_is_integer(json_object_get(rec, int_fields[i]))) {
      snprintf(why, cap, "'%s' is missing or not a whole number",
               int_fields[i]);
      return false;
    }
  const char *hashes[] = {"state_fnv1a64", "record_fnv1a64"};
  for (size_t i = 0; i < 2; i++)
    if (!is_hex16(json_object_get(rec, hashes[i]))) {
      snprintf(why, cap, "'%s' is missing or not 16 hex digits", hashes[i]);
      return false;
    }
  const char *status = json_string_value(json_object_get(rec, "status"));
  if (strcmp(status, "finished") != 0 && strcmp(status, "aborted") != 0) {
    snprintf(why, cap, "'status' is '%.20s', not finished or aborted", status);
    return false;
  }
  json_int_t players = json_integer_value(json_object_get(rec, "players"));
  json_t *seats = json_object_get(rec, "seats");
  bool names =
      json_is_array(seats) && (json_int_t)json_array_size(seats) == players;
  size_t i;
  json_array_foreach(seats, i, v) names = names && json_is_string(v);
  if (!names) {
    snprintf(why, cap,
             "'seats' is not a list of %" JSON_INTEGER_FORMAT " names",
             players);
    return false;
  }
  json_t *answers = json_object_get(rec, "answers");
  if (!json_is_array(answers)) {
    snprintf(why, cap, "'answers' is missing or not a list");
    return false;
  }
  json_array_foreach(answers, i, v) {
    if (!json_is_array(v) || json_array_size(v) != 2 ||
        !json_is_integer(json_array_get(v, 0)) ||
        !json_is_string(json_array_get(v, 1))) {
      snprintf(why, cap, "answer %zu is not [seat, option id]", i + 1);
      return false;
    }
  }
  json_t *result = json_object_get(rec, "result");
  if (!result || (!json_is_null(result) &&
                  (!json_is_object(result) ||
                   !json_is_array(json_object_get(result, "winners")) ||
                   !json_is_string(json_object_get(result, "reason"))))) {
    snprintf(why, cap,
             "'result' is missing, or neither null nor "
             "{winners, reason}");
    return false;
  }
  return true;
}

/* After eng_game_from_record failed with rc: replays the answers one by
 * one (a copy of the record without answers sets the game up) and says
 * on stderr which answer is not legal, or why the game cannot be set up.
 */
static void explain(const json_t *rec, eng_rc rc) {
  json_t *empty = json_deep_copy(rec);
  eng_game *g = NULL;
  eng_rc setup = !empty || json_object_set_new(empty, "answers", json_array())
                     ? ENG_NOMEM
                     : eng_game_from_record(empty, &g);
  json_decref(empty);
  if (setup != ENG_OK) {
    fprintf(stderr, "lair replay: the game cannot be set up as recorded: %s\n",
            eng_strerror(setup));
    return;
  }
  size_t k;
  json_t *a;
  json_array_foreach(json_object_get(rec, "answers"), k, a) {
    json_int_t seat = json_integer_value(json_array_get(a, 0));
    const char *id = json_string_value(json_array_get(a, 1));
    int before = g->prompt.player;
    eng_rc arc = seat < 0 || seat >= g->cfg.players
                     ? ENG_NOT_PLAYING
                     : eng_game_answer(g, (int)seat, id, NULL);
    if (arc == ENG_OK)
      continue;
    char why[80];
    if (arc == ENG_GAME_OVER)
      snprintf(why, sizeof why, "the game was already over");
    else if (arc == ENG_NOT_PLAYING)
      snprintf(why, sizeof why, "there is no such seat");
    else if (arc == ENG_NOT_YOUR_TURN)
      snprintf(why, sizeof why, "seat %d was to decide", before);
    else if (arc == ENG_BAD_OPTION)
      snprintf(why, sizeof why, "it is not one of the options");
    else
      snprintf(why, sizeof why, "%s", eng_strerror(arc));
    fprintf(stderr,
            "lair replay: answer %zu (%.40s by seat %" JSON_INTEGER_FORMAT
            ") is not legal at that point: %s\n",
            k + 1, id, seat, why);
    eng_game_free(g);
    return;
  }
  eng_game_free(g);
  fprintf(stderr, "lair replay: the record cannot be replayed: %s\n",
          eng_strerror(rc));
}

/* Checks rec (well formed); prints the verdict; returns the exit status. */
static int check_record(const json_t *rec) {
  char sum[17], state[17];
  if (!cmd_record_checksum(rec, sum)) {
    fputs("lair replay: out of memory\n", stderr);
    return BOT_EXIT_FAIL;
  }
  if (strcmp(sum, json_string_value(json_object_get(rec, "record_fnv1a64"))) !=
      0) {
    fputs("lair replay: the record's checksum (record_fnv1a64) does not "
          "match its contents: the file was changed or damaged\n",
          stderr);
    return BOT_EXIT_FAIL;
  }
  const char *ruleset = json_string_value(json_object_get(rec, "ruleset"));
  json_int_t version = json_integer_value(json_object_get(rec, "version"));
  const eng_ruleset *rs = eng_find(ruleset);
  if (!rs || rs->version != version) {
    fprintf(stderr,
            "lair replay: the record was played with rules this Lair does "
            "not have (%.40s version %" JSON_INTEGER_FORMAT ")\n",
            ruleset, version);
    return BOT_EXIT_FAIL;
  }
  eng_game *g = NULL;
  eng_rc rc = eng_game_from_record(rec, &g);
  if (rc) {
    explain(rec, rc);
    return BOT_EXIT_FAIL;
  }
  json_t *result = cmd_result_json(g);
  bool ok = result && cmd_state_checksum(g, state);
  if (!ok) {
    json_decref(result);
    eng_game_free(g);
    fputs("lair replay: out of memory\n", stderr);
    return BOT_EXIT_FAIL;
  }
  int status = BOT_EXIT_FAIL;
  const char *said = json_string_value(json_object_get(rec, "status"));
  if (strcmp(state, json_string_value(json_object_get(rec, "state_fnv1a64"))) !=
      0) {
    fputs("lair replay: the final state does not match the record (tampered "
          "or from other rules)\n",
          stderr);
  } else if (!json_equal(result, json_object_get(rec, "result"))) {
    char *want = json_dumps(json_object_get(rec, "result"),
                            JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
    char *got =
        json_dumps(result, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
    fprintf(stderr,
            "lair replay: the result does not match the record: it says "
            "%.200s, the answers give %.200s\n",
            want ? want : "?", got ? got : "?");
    free(want);
    free(got);
  } else if ((strcmp(said, "finished") == 0) != json_is_object(result)) {
    fprintf(stderr,
            "lair replay: the record says the game was %s, but its answers "
            "%s\n",
            said, json_is_object(result) ? "finish it" : "do not finish it");
  } else {
    json_t *out = json_pack("{s:b, s:s, s:I, s:I, s:s, s:O, s:s}", "ok", 1,
                            "game", rs->id, "record",
                            json_integer_value(json_object_get(rec, "game")),
                            "moves", (json_int_t)g->n_answers, "status", said,
                            "result", result, "state_fnv1a64", state);
    status = out ? bot_print_json(out, JSON_COMPACT | JSON_SORT_KEYS)
                 : BOT_EXIT_FAIL;
    if (!out)
      fputs("lair replay: out of memory\n", stderr);
    json_decref(out);
  }
  json_decref(result);
  eng_game_free(g);
  return status;
}

int bot_cmd_replay(int argc, char **argv) {
  static const struct option opts[] = {
      {"help", no_argument, NULL, 'h'},
      {NULL, 0, NULL, 0},
  };
  int c;
  optind = 0;
  opterr = 0;
  while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
    switch (c) {
    case 'h':
      return bot_print_usage(bot_usage_replay);
    default:
      bot_option_error("replay", c, argv);
      return BOT_EXIT_USAGE;
    }
  }
  const char *path = bot_one_operand("replay", "file", argc, argv);
  if (!path)
    return BOT_EXIT_USAGE;
  bool std_in = strcmp(path, "-") == 0;
  FILE *f = std_in ? stdin : fopen(path, "rb");
  size_t len = 0;
  char *text = f ? read_all(f, &len) : NULL;
  int err = errno;
  if (f && !std_in)
    fclose(f);
  if (!text) {
    fprintf(stderr, "lair replay: cannot read %.200s: %s\n", path,
            err == EFBIG ? "larger than a game record can be" : strerror(err));
    return BOT_EXIT_USAGE;
  }
  json_error_t jerr;
  json_t *rec = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
  free(text);
  if (!rec) {
    fprintf(stderr, "lair replay: %.200s is not valid JSON (line %d: %s)\n",
            path, jerr.line, jerr.text);
    return BOT_EXIT_USAGE;
  }
  char why[200];
  int status;
  if (!json_is_object(rec)) {
    fprintf(stderr,
            "lair replay: %.200s is not a Lair game record: it is "
            "not a JSON object\n",
            path);
    status = BOT_EXIT_USAGE;
  } else if (!well_formed(rec, why, sizeof why)) {
    fprintf(stderr,
            "lair replay: %.200s is not a valid Lair game record: "
            "%s\n",
            path, why);
    status = BOT_EXIT_USAGE;
  } else {
    status = check_record(rec);
  }
  json_decref(rec);
  return status;
}
