/*
 * sv_told.c: test-only checks of Supervillain's told lines (see
 * sv_told.h).
 *
 * Card names are matched as text, so a card is "seen" by its name: a line
 * naming Wormhole is fine for a reader who sees any Wormhole. No card
 * name holds another, so a match is never part of a longer name.
 */
#include "sv_told.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "prompt_util.h"

/* Marks in names[] the cards (by definition index) viewer may name. */
static void readable(const sv_state *before, const sv_state *after,
                     const uint8_t *shown, int viewer, bool names[SV_N]) {
  uint8_t b[SV_N], a[SV_N];
  sv_view_cards(before, viewer, b);
  sv_view_cards(after, viewer, a);
  memset(names, 0, SV_N * sizeof names[0]);
  for (int i = 0; i < SV_N; i++) {
    int z = after->w[i].zone;
    bool into_deck =
        (z == SV_Z_MDECK || z == SV_Z_DDECK) && before->w[i].zone != z;
    if (b[i] || a[i] || into_deck || (shown && shown[i]))
      names[sv_card_index(i)] = true;
  }
}

int sv_told_check(const sv_state *before, const sv_state *after,
                  const eng_events *ev, const uint8_t *shown, char *msg,
                  size_t cap) {
  static bool names[SV_N + 1][SV_N]; /* viewer + 1 */
  int players = before->players;
  for (int v = -1; v < players; v++)
    readable(before, after, shown, v, names[v + 1]);
  if (pu_told_form(ev, players, msg, cap))
    return 1;
  for (int k = 0; k < ev->n; k++) {
    const eng_event *e = &ev->ev[k];
    const bool *may = names[e->seat + 1];
    for (int c = 0; c < sv_loaded.n_cards; c++)
      if (!may[c] && strstr(e->text, sv_loaded.cards[c].name)) {
        char who[16];
        if (e->seat < 0)
          snprintf(who, sizeof who, "everyone");
        else
          snprintf(who, sizeof who, "seat %d", e->seat);
        snprintf(msg, cap,
                 "the line for %s names %s, which it may not see: "
                 "'%s'",
                 who, sv_loaded.cards[c].name, e->text);
        return 1;
      }
  }
  return 0;
}
