/*
 * fuzz_state.c: libFuzzer target for a stored snapshot (engine:
 * eng_game_restore, the state text a game is reloaded from), of any
 * registered game. Refused or
 * accepted; an accepted state must render for every viewer, write itself
 * back out, and play on with legal answers, each told (events).
 */
#include "eng.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = malloc(size + 1);
  if (!text)
    abort();
  memcpy(text, data, size);
  text[size] = '\0';
  eng_config cfg;
  memset(&cfg, 0, sizeof cfg);
  cfg.first = -1;
  eng_game *g = NULL;
  /* A state fits one game and one player count: each is tried. */
  size_t n;
  const eng_ruleset *const *all = eng_rulesets(&n), *rs = NULL;
  for (size_t k = 0; k < n && !g; k++) {
    rs = all[k];
    for (cfg.players = rs->min_players; !g && cfg.players <= rs->max_players;
         cfg.players++)
      if (eng_game_restore(rs, &cfg, 42, NULL, 0, text, &g) != ENG_OK)
        g = NULL;
  }
  cfg.players--;
  if (g) {
    char out[8192];
    for (int v = -1; v < cfg.players; v++) {
      json_t *view = rs->view(g->state, v);
      if (view) {
        rs->render(view, ENG_RENDER_TABLE, out, sizeof out);
        rs->render(view, ENG_RENDER_HAND, out, sizeof out);
      }
      json_decref(view);
    }
    free(eng_game_state_text(g));
    static eng_events ev;
    for (int k = 0; size && k < 8 && g->prompt.player >= 0 && g->prompt.n > 0;
         k++)
      if (eng_game_answer_index(g, (int)(data[k % size] % g->prompt.n), &ev))
        abort(); /* an option of its own prompt must be accepted, and told */
  }
  eng_game_free(g);
  free(text);
  return 0;
}
