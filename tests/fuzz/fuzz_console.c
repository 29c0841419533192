/*
 * fuzz_console.c: libFuzzer target for the console table's input (the
 * line reader and parser of bot/console.c, then the command layer and
 * storage), run as `lair local --json --script FILE` on a scratch
 * database that a game was started in. Any bytes: NULs, invalid UTF-8,
 * over-long lines, !controls, @ids.
 */
#include "cli.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[64] = "/tmp/lair-fuzz-XXXXXX";
static char db[128], script[128];

static int run_local(const char *file) {
  char *argv[] = {"local", "--json", "--seed",   "7",          "--mod", "mod",
                  "--db",  db,       "--script", (char *)file, NULL};
  return bot_cmd_local(10, argv);
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  if (!mkdtemp(dir) || !freopen("/dev/null", "w", stdout))
    abort();
  snprintf(db, sizeof db, "%s/fuzz.db", dir);
  snprintf(script, sizeof script, "%s/in.txt", dir);
  FILE *f = fopen(script, "w");
  if (!f)
    abort();
  fputs("alice> /game new kind:supervillain\nbob> /game join\n"
        "alice> /game start\n",
        f);
  fclose(f);
  if (run_local(script) != 0)
    abort();
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  FILE *f = fopen(script, "w");
  if (!f)
    abort();
  fwrite(data, 1, size, f);
  fclose(f);
  int rc = run_local(script);
  if (rc != 0 && rc != 1) /* 1: a !restart that could not reopen */
    abort();
  return 0;
}
