/*
 * fuzz_villains.c: libFuzzer target for a Villainous villain file
 * (engine/games/villainous/vl_cards.c: vl_data_parse). The input is one
 * villain's JSON, parsed in each profile beside a shipped villain of
 * that profile (the game needs two; Marvel also its common fate part).
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

/* The first shipped blob under dir/ whose name does (common) or does not
 * end in common.json. */
static const char *shipped(const char *dir, int common) {
  size_t len = strlen(dir);
  for (size_t i = 0; i < eng_n_blobs; i++) {
    const char *name = eng_blobs[i].name;
    if (strncmp(name, dir, len) == 0 && name[len] == '/' &&
        (strcmp(name + len + 1, "common.json") == 0) == (common != 0))
      return eng_blobs[i].text;
  }
  abort();
}

/* Parses text beside one shipped villain of profile (and, for Marvel,
 * the shipped common fate part). */
static void parse(int profile, const char *text, vl_data *d) {
  const char *dir = vl_profiles[profile].data_dir;
  const char *texts[3] = {text, shipped(dir, 0), NULL};
  const char *names[3] = {"fuzz.json", "shipped.json", "common.json"};
  int n = 2;
  if (profile == VL_PROFILE_MARVEL)
    texts[n++] = shipped(dir, 1);
  memset(d, 0, sizeof *d);
  if (vl_data_parse(profile, texts, names, n, d, ignore, NULL) == 0) {
    json_decref(vl_cards_json(d));
    free(vl_cards_markdown(d));
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *buf = malloc(size + 1);
  vl_data *d = calloc(1, sizeof *d);
  if (!buf || !d)
    abort();
  memcpy(buf, data, size);
  buf[size] = '\0';
  /* Both rulebooks' profiles read the same input. */
  for (int profile = 0; profile < VL_PROFILE_COUNT; profile++)
    parse(profile, buf, d);
  free(d);
  free(buf);
  return 0;
}
