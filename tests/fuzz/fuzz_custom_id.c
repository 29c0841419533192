/*
 * fuzz_custom_id.c: libFuzzer target for the custom_id of Lair's buttons
 * and menus (bot/discord_ix.c, bot_dc_parse_custom): any text a click may
 * carry. What it accepts must format back to what it read.
 */
#include "discord_int.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *id = malloc(size + 1);
  if (!id)
    return 0;
  memcpy(id, data, size);
  id[size] = '\0';
  char kind;
  int64_t game, version;
  const char *rest;
  if (bot_dc_parse_custom(id, &kind, &game, &version, &rest)) {
    /* Only the closed-DM notice's button (h), a lobby's (j, l, b, a)
     * and the end summary's Rematch and Export (r, x) carry no version. */
    bool unversioned = strchr("hjlbarx", kind) != NULL;
    if (game <= 0 || version < -1 || (version < 0 && !unversioned) ||
        strlen(rest) > size)
      abort(); /* accepted something it should not have */
  }
  free(id);
  return 0;
}
