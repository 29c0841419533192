/*
 * fuzz_interaction.c: libFuzzer target for an INTERACTION_CREATE's
 * payload as the Discord transport reads it (bot/discord_ix.c:
 * bot_dc_read_interaction, bot_dc_command_request, bot_dc_parse_custom),
 * and the request that comes of it run through the command layer
 * (validation, handlers, storage) against a running game, as the worker
 * would. Every message a user would read must be valid UTF-8 within
 * Discord's limit (fuzz_common.h).
 */
#include "discord_int.h"
#include "fuzz_common.h"

#include <jansson.h>
#include <stdint.h>

static cmd_ctx *cmd;
static long runs;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  char path[128];
  sto *db = fuzz_scratch_db(path, sizeof path);
  cmd = fuzz_cmd(db);
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  json_error_t err;
  json_t *d = json_loadb((const char *)data, size, 0, &err);
  if (!d)
    return 0;
  ix x = {.received = 0};
  if (bot_dc_read_interaction(d, &x)) {
    char vals[CMD_MAX_ARGS][24];
    const char *focused = NULL;
    if (x.type == 2 || x.type == 4) {
      cmd_request r = bot_dc_command_request(&x, vals, &focused);
      /* A fresh request id each run, so that commands apply. */
      char rid[32];
      snprintf(rid, sizeof rid, "%ld", ++runs);
      r.request_id = rid;
      if (x.type == 4 && focused) {
        cmd_choice choices[25];
        const char *partial = "";
        for (int i = 0; i < r.n_args; i++)
          if (strcmp(r.args[i].name, focused) == 0)
            partial = r.args[i].value;
        cmd_autocomplete(cmd, &r, focused, partial, choices, 25);
      } else if (x.type == 2) {
        cmd_handle(cmd, &r);
      }
    } else if (x.type == 3) {
      char kind;
      int64_t game, version;
      const char *rest;
      bot_dc_parse_custom(
          json_string_value(json_object_get(x.data, "custom_id")), &kind, &game,
          &version, &rest);
    }
  }
  json_decref(d);
  return 0;
}
