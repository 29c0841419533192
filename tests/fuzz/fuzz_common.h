/*
 * fuzz_common.h: what Lair's fuzz targets share: a command context over a
 * scratch database, whose sink checks every message a user would read
 * (valid UTF-8, within Discord's 2000 characters, its fields within an
 * embed's limits) and aborts otherwise.
 */
#ifndef LAIR_FUZZ_COMMON_H
#define LAIR_FUZZ_COMMON_H

#include "cmd.h"
#include "sto.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void fuzz_check_msg(void *ctx, const cmd_msg *m) {
  (void)ctx;
  size_t n = strlen(m->text);
  if (n > CMD_TEXT_MAX || !cmd_utf8_valid(m->text, n)) {
    fprintf(stderr, "a message a user would read is not valid: %zu bytes\n", n);
    abort();
  }
  /* A table's fields: within Discord's embed limits, never empty. */
  size_t total = n + (m->title ? strlen(m->title) : 0);
  for (int i = 0; i < m->n_fields; i++) {
    size_t a = strlen(m->fields[i].name), b = strlen(m->fields[i].value);
    total += a + b;
    if (m->n_fields > CMD_FIELDS_MAX || !a || a > CMD_FIELD_NAME_MAX || !b ||
        b > CMD_FIELD_VALUE_MAX || !cmd_utf8_valid(m->fields[i].name, a) ||
        !cmd_utf8_valid(m->fields[i].value, b) || total > CMD_EMBED_MAX) {
      fprintf(stderr, "a message's field %d is not valid\n", i);
      abort();
    }
  }
}

/* A scratch database in a directory of its own; path receives it. */
static sto *fuzz_scratch_db(char *path, size_t cap) {
  char dir[64] = "/tmp/lair-fuzz-XXXXXX";
  if (!mkdtemp(dir))
    abort();
  snprintf(path, cap, "%s/fuzz.db", dir);
  sto *db = NULL;
  char err[300];
  if (sto_open(path, &db, err, sizeof err)) {
    fprintf(stderr, "fuzz: %s\n", err);
    abort();
  }
  return db;
}

/* A command context on db whose messages go to fuzz_check_msg, with a
 * game of two players started in channel "1" (ids as Discord's). */
static cmd_ctx *fuzz_cmd(sto *db) {
  cmd_config cfg = {.db = db, .sink = {fuzz_check_msg, NULL}};
  cmd_ctx *c = cmd_new(&cfg);
  if (!c)
    abort();
  cmd_set_now(c, 1700000000);
  const char *who[] = {"100000000000000001", "100000000000000002"};
  const char *cmds[] = {"new", "join", "start"};
  for (int i = 0; i < 3; i++) {
    char id[32];
    snprintf(id, sizeof id, "setup-%d", i);
    cmd_request r = {.request_id = id,
                     .guild = "",
                     .channel = "1",
                     .user = who[i == 1],
                     .user_name = i == 1 ? "bob" : "alice",
                     .command = cmds[i]};
    if (i == 0) {
      r.n_args = 1;
      r.args[0].name = "game";
      r.args[0].value = "supervillain";
    }
    cmd_handle(c, &r);
  }
  return c;
}

#endif
