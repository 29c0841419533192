/*
 * sv_text.c: Supervillain for people: the table, one seat's area, what
 * lies between the seats, and a hand, as Markdown.
 * (What an answer did is told by the rules themselves, in sv.c, as they
 * apply it.)
 *
 * The renderers read only a view (sv_view's JSON), never the state, so
 * they cannot show what the viewer may not see. Seats are written
 * "Villain N" (1-based); the commands layer puts player names in.
 */
#include "sv.h"

#include "../../rsutil.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void power(eng_text *o, long m) {
  char b[16];
  sv_format_power((int)m, b, sizeof b);
  eng_put(o, "%s", b);
}

const char *sv_phase_text(const char *phase) {
  if (strcmp(phase, "act3") == 0)
    return "morning, Act III";
  if (strcmp(phase, "day") == 0)
    return "day";
  if (strcmp(phase, "evening") == 0)
    return "evening";
  if (strcmp(phase, "over") == 0)
    return "game over";
  return "morning";
}

/* Lists up to `last` cards of a pile, newest last. */
static void pile(eng_text *o, const json_t *a, size_t last) {
  size_t n = json_array_size(a);
  if (n == 0) {
    eng_put(o, "empty");
    return;
  }
  size_t from = n > last ? n - last : 0;
  if (from)
    eng_put(o, "%zu cards, on top: ", n);
  for (size_t k = from; k < n; k++)
    eng_put(o, "%s%s", k > from ? ", " : "",
            eng_jstr(json_array_get(a, k), "name"));
}

/* The first line of the table: the game, the turn and whose phase. */
static void head(const json_t *v, eng_text *o) {
  eng_put(o,
          "**Supervillain** (%s, %ld points to win) - turn %ld, Villain %ld's "
          "%s\n",
          eng_jstr(v, "mode"), eng_jnum(v, "target_points"),
          eng_jnum(v, "turn"), eng_jnum(v, "current") + 1,
          sv_phase_text(eng_jstr(v, "phase")));
  json_t *winners = json_object_get(v, "winners");
  if (winners) {
    if (json_array_size(winners) == 0)
      eng_put(o, "The game is over: no winner. The world is saved!\n");
    size_t k;
    json_t *w;
    json_array_foreach(winners, k, w)
        eng_put(o, "%sVillain %ld", k ? " and " : "The Supervillain is ",
                (long)json_integer_value(w) + 1);
    if (json_array_size(winners))
      eng_put(o, "!\n");
  }
  eng_put(o, "Decks: Minion %ld, Domination %ld", eng_jnum(v, "minion_deck"),
          eng_jnum(v, "domination_deck"));
  json_t *drawn = json_object_get(v, "drawn");
  if (json_is_object(drawn))
    eng_put(o, ". Drawn, awaiting a decision: %s", eng_jstr(drawn, "name"));
  eng_put(o, "\n");
}

/* A player's summary: points, cards in hand and team, without a line
 * end. */
static void summary(const json_t *p, eng_text *o) {
  eng_put(o, "%ld point%s, %ld card%s in hand", eng_jnum(p, "points"),
          eng_jnum(p, "points") == 1 ? "" : "s", eng_jnum(p, "hand"),
          eng_jnum(p, "hand") == 1 ? "" : "s");
  if (json_object_get(p, "team"))
    eng_put(o, ", team %ld", eng_jnum(p, "team") + 1);
}

/* A player's Projects (with their Mobs) and Secret Facilities, one line
 * each, every line starting with indent. */
static void area(const json_t *p, const char *indent, eng_text *o) {
  size_t k;
  json_t *x;
  json_array_foreach(json_object_get(p, "projects"), k, x) {
    eng_put(o, "%s- Project %s: ", indent, eng_jstr(x, "name"));
    power(o, eng_jnum(x, "power"));
    eng_put(o, " of ");
    power(o, eng_jnum(x, "cost"));
    size_t m;
    json_t *mob;
    json_array_foreach(json_object_get(x, "mobs"), m, mob) {
      eng_put(o, "%s%s ", m ? ", " : " (Mobs: ", eng_jstr(mob, "name"));
      power(o, eng_jnum(mob, "power"));
      if (json_is_true(json_object_get(mob, "proof")))
        eng_put(o, " [proof]");
    }
    eng_put(o, "%s\n", json_array_size(json_object_get(x, "mobs")) ? ")" : "");
  }
  json_array_foreach(json_object_get(p, "facilities"), k, x) {
    eng_put(o, "%s- Secret Facility %s (%ld pt%s)%s\n", indent,
            eng_jstr(x, "name"), eng_jnum(x, "points"),
            eng_jnum(x, "points") == 1 ? "" : "s",
            json_is_true(json_object_get(x, "proof")) ? " [proof]" : "");
  }
}

/* What lies between the players: Asteroids in flight and the discard
 * piles' tops. */
static void tail(const json_t *v, eng_text *o) {
  json_t *ast = json_object_get(v, "asteroids");
  if (json_array_size(ast)) {
    eng_put(o, "Asteroids in flight:\n");
    size_t i;
    json_t *a;
    json_array_foreach(ast, i, a)
        eng_put(o, "- %s%s: Villain %ld -> Villain %ld\n",
                json_is_true(json_object_get(a, "charged")) ? "charged " : "",
                eng_jstr(a, "name"), eng_jnum(a, "owner") + 1,
                eng_jnum(a, "target") + 1);
  }
  eng_put(o, "Minion discard: ");
  pile(o, json_object_get(v, "minion_discard"), 5);
  eng_put(o, "\nDomination discard: ");
  pile(o, json_object_get(v, "domination_discard"), 5);
  eng_put(o, "\n");
}

static void render_table(const json_t *v, eng_text *o) {
  head(v, o);
  size_t i;
  json_t *p;
  json_array_foreach(json_object_get(v, "players"), i, p) {
    eng_put(o, "- **Villain %ld**: ", eng_jnum(p, "seat") + 1);
    summary(p, o);
    eng_put(o, "\n");
    area(p, "  ", o);
  }
  tail(v, o);
}

/* One seat's area, alone: its summary line, then its details. A seat
 * the view does not hold renders as nothing. */
static void render_seat(const json_t *v, long seat, eng_text *o) {
  size_t i;
  json_t *p;
  json_array_foreach(json_object_get(v, "players"), i, p) {
    if (eng_jnum(p, "seat") != seat)
      continue;
    eng_put(o, "Villain %ld: ", seat + 1);
    summary(p, o);
    eng_put(o, "\n");
    area(p, "", o);
    return;
  }
}

static void render_hand(const json_t *v, eng_text *o) {
  json_t *hand = json_object_get(v, "hand");
  const sv_deck *d = sv_cards();
  eng_put(o, "**Your hand** (Villain %ld, %zu card%s):\n",
          eng_jnum(v, "you") + 1, json_array_size(hand),
          json_array_size(hand) == 1 ? "" : "s");
  size_t i;
  json_t *c;
  json_array_foreach(hand, i, c) {
    long inst = eng_jnum(c, "i");
    const sv_card *card =
        d && inst >= 0 && inst < SV_N_MINION ? sv_card_of((int)inst) : NULL;
    eng_put(o, "- **%s**: Mob ", eng_jstr(c, "name"));
    power(o, eng_jnum(c, "power"));
    if (card) {
      eng_put(o, "%s%s; %sOps: %s", card->proof ? " [proof]" : "",
              card->boosted ? " (Boosted)" : "", card->swift ? "Swift " : "",
              card->ops.text);
    }
    eng_put(o, "\n");
  }
}

void sv_render(const json_t *view, int what, char *buf, size_t cap) {
  if (cap == 0)
    return;
  eng_text o = {.buf = buf, .cap = cap};
  buf[0] = '\0';
  if (what == ENG_RENDER_HAND)
    render_hand(view, &o);
  else if (what == ENG_RENDER_COMMON) {
    head(view, &o);
    tail(view, &o);
  } else if (what >= ENG_RENDER_SEAT(0) &&
             what < ENG_RENDER_SEAT(ENG_MAX_SEATS))
    render_seat(view, what - ENG_RENDER_SEAT(0), &o);
  else
    render_table(view, &o);
}
