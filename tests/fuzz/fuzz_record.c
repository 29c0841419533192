/*
 * fuzz_record.c: libFuzzer target for stored answers: a game record (what
 * /game export writes and `lair replay` reads: the ruleset, config, seed
 * and the answers in order), rebuilt by replaying every answer against
 * the rules (engine: eng_game_from_record). A record that replays must
 * give a game whose own record replays to the same state.
 */
#include "eng.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  json_error_t err;
  json_t *rec = json_loadb((const char *)data, size, 0, &err);
  if (!rec)
    return 0;
  eng_game *g = NULL;
  if (eng_game_from_record(rec, &g) == ENG_OK) {
    json_t *again = eng_game_record(g);
    eng_game *h = NULL;
    if (!again || eng_game_from_record(again, &h) != ENG_OK)
      abort();
    char *a = eng_game_state_text(g), *b = eng_game_state_text(h);
    if (!a || !b || strcmp(a, b) != 0)
      abort(); /* the same answers gave another state */
    free(a);
    free(b);
    eng_game_free(h);
    json_decref(again);
  }
  eng_game_free(g);
  json_decref(rec);
  return 0;
}
