/*
 * fuzz_gateway.c: libFuzzer target for the gateway client's handling of
 * one received message (bot/gateway.c, bot_gw_on_message): any bytes, as
 * a gateway or anything between may send them. The client is made once
 * and never connects; dispatches reach an on_event that reads them as the
 * Discord transport would.
 */
#include "gateway_internal.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

static bot_gw *gw;

static void on_event(void *ctx, int shard, const char *type, json_t *d) {
  (void)shard;
  (void)ctx;
  /* What discord.c reads of every event. */
  (void)type;
  json_t *app = json_object_get(d, "application");
  (void)json_string_value(json_object_get(app, "id"));
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  bot_gw_config cfg = {.url = "ws://127.0.0.1:9/",
                       .token = "fuzz-token",
                       .intents = 1,
                       .on_event = on_event};
  gw = bot_gw_new(&cfg);
  if (!gw)
    abort();
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  bot_gw_on_message(gw, (const char *)data, size);
  return 0;
}
