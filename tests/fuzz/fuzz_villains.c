/*
 * fuzz_villains.c: libFuzzer target for a Villainous villain file
 * (engine/games/villainous/vl_cards.c: vl_data_parse). The input is one
 * villain's JSON, parsed beside a shipped villain (the game needs two).
 * Every error is reported, never a crash; what parses must list as JSON
 * and Markdown.
 */
#include "blob.h"
#include "games/villainous/vl.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void ignore(void *ctx, const char *msg) {
  (void)ctx;
  (void)msg;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *buf = malloc(size + 1);
  vl_data *d = calloc(1, sizeof *d);
  if (!buf || !d)
    abort();
  memcpy(buf, data, size);
  buf[size] = '\0';
  const char *other = NULL;
  for (size_t i = 0; i < eng_n_blobs && !other; i++)
    if (strncmp(eng_blobs[i].name, "villainous/", 11) == 0)
      other = eng_blobs[i].text;
  if (!other)
    abort();
  const char *texts[2] = {buf, other};
  const char *names[2] = {"fuzz.json", "shipped.json"};
  if (vl_data_parse(texts, names, 2, d, ignore, NULL) == 0) {
    json_decref(vl_cards_json(d));
    free(vl_cards_markdown(d));
  }
  free(d);
  free(buf);
  return 0;
}
