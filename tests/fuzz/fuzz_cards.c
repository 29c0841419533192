/*
 * fuzz_cards.c: libFuzzer target for the card data files (Supervillain's
 * minion and domination JSON, engine/games/supervillain/sv_cards.c:
 * sv_cards_parse). The input is both files, split at the first NUL byte
 * (no NUL: the minion file, with the shipped domination file's stand-in
 * of an empty list). Every error is reported, never a crash.
 */
#include "sv.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void ignore(void *ctx, const char *msg) {
  (void)ctx;
  (void)msg;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *buf = malloc(size + 2);
  if (!buf)
    abort();
  memcpy(buf, data, size);
  buf[size] = '\0';
  buf[size + 1] = '\0';
  const char *minion = buf;
  const char *nul = memchr(buf, '\0', size);
  const char *domination = nul && nul < buf + size ? nul + 1 : "[]";
  sv_deck *deck = calloc(1, sizeof *deck);
  if (!deck)
    abort();
  sv_cards_parse(minion, domination, deck, ignore, NULL);
  free(deck);
  free(buf);
  return 0;
}
