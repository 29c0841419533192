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

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

typedef struct out {
  char *buf;
  size_t cap, len;
} out;

static void put(out *o, const char *fmt, ...) {
  if (o->len + 1 >= o->cap)
    return;
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(o->buf + o->len, o->cap - o->len, fmt, ap);
  va_end(ap);
  if (n < 0)
    return;
  o->len += (size_t)n;
  if (o->len >= o->cap)
    o->len = o->cap - 1;
}

static const char *str(const json_t *o, const char *key) {
  const char *s = json_string_value(json_object_get(o, key));
  return s ? s : "";
}

static long num(const json_t *o, const char *key) {
  return (long)json_integer_value(json_object_get(o, key));
}

static void power(out *o, long m) {
  char b[16];
  sv_format_power((int)m, b, sizeof b);
  put(o, "%s", b);
}

static const char *phase_text(const char *phase) {
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
static void pile(out *o, const json_t *a, size_t last) {
  size_t n = json_array_size(a);
  if (n == 0) {
    put(o, "empty");
    return;
  }
  size_t from = n > last ? n - last : 0;
  if (from)
    put(o, "%zu cards, on top: ", n);
  for (size_t k = from; k < n; k++)
    put(o, "%s%s", k > from ? ", " : "", str(json_array_get(a, k), "name"));
}

/* The first line of the table: the game, the turn and whose phase. */
static void head(const json_t *v, out *o) {
  put(o,
      "**Supervillain** (%s, %ld points to win) - turn %ld, Villain %ld's "
      "%s\n",
      str(v, "mode"), num(v, "target_points"), num(v, "turn"),
      num(v, "current") + 1, phase_text(str(v, "phase")));
  json_t *winners = json_object_get(v, "winners");
  if (winners) {
    if (json_array_size(winners) == 0)
      put(o, "The game is over: no winner. The world is saved!\n");
    size_t k;
    json_t *w;
    json_array_foreach(winners, k, w)
        put(o, "%sVillain %ld", k ? " and " : "The Supervillain is ",
            (long)json_integer_value(w) + 1);
    if (json_array_size(winners))
      put(o, "!\n");
  }
  put(o, "Decks: Minion %ld, Domination %ld", num(v, "minion_deck"),
      num(v, "domination_deck"));
  json_t *drawn = json_object_get(v, "drawn");
  if (json_is_object(drawn))
    put(o, ". Drawn, awaiting a decision: %s", str(drawn, "name"));
  put(o, "\n");
}

/* A player's summary: points, cards in hand and team, without a line
 * end. */
static void summary(const json_t *p, out *o) {
  put(o, "%ld point%s, %ld card%s in hand", num(p, "points"),
      num(p, "points") == 1 ? "" : "s", num(p, "hand"),
      num(p, "hand") == 1 ? "" : "s");
  if (json_object_get(p, "team"))
    put(o, ", team %ld", num(p, "team") + 1);
}

/* A player's Projects (with their Mobs) and Secret Facilities, one line
 * each, every line starting with indent. */
static void area(const json_t *p, const char *indent, out *o) {
  size_t k;
  json_t *x;
  json_array_foreach(json_object_get(p, "projects"), k, x) {
    put(o, "%s- Project %s: ", indent, str(x, "name"));
    power(o, num(x, "power"));
    put(o, " of ");
    power(o, num(x, "cost"));
    size_t m;
    json_t *mob;
    json_array_foreach(json_object_get(x, "mobs"), m, mob) {
      put(o, "%s%s ", m ? ", " : " (Mobs: ", str(mob, "name"));
      power(o, num(mob, "power"));
      if (json_is_true(json_object_get(mob, "proof")))
        put(o, " [proof]");
    }
    put(o, "%s\n", json_array_size(json_object_get(x, "mobs")) ? ")" : "");
  }
  json_array_foreach(json_object_get(p, "facilities"), k, x) {
    put(o, "%s- Secret Facility %s (%ld pt%s)%s\n", indent, str(x, "name"),
        num(x, "points"), num(x, "points") == 1 ? "" : "s",
        json_is_true(json_object_get(x, "proof")) ? " [proof]" : "");
  }
}

/* What lies between the players: Asteroids in flight and the discard
 * piles' tops. */
static void tail(const json_t *v, out *o) {
  json_t *ast = json_object_get(v, "asteroids");
  if (json_array_size(ast)) {
    put(o, "Asteroids in flight:\n");
    size_t i;
    json_t *a;
    json_array_foreach(ast, i, a)
        put(o, "- %s%s: Villain %ld -> Villain %ld\n",
            json_is_true(json_object_get(a, "charged")) ? "charged " : "",
            str(a, "name"), num(a, "owner") + 1, num(a, "target") + 1);
  }
  put(o, "Minion discard: ");
  pile(o, json_object_get(v, "minion_discard"), 5);
  put(o, "\nDomination discard: ");
  pile(o, json_object_get(v, "domination_discard"), 5);
  put(o, "\n");
}

static void render_table(const json_t *v, out *o) {
  head(v, o);
  size_t i;
  json_t *p;
  json_array_foreach(json_object_get(v, "players"), i, p) {
    put(o, "- **Villain %ld**: ", num(p, "seat") + 1);
    summary(p, o);
    put(o, "\n");
    area(p, "  ", o);
  }
  tail(v, o);
}

/* One seat's area, alone: its summary line, then its details. A seat
 * the view does not hold renders as nothing. */
static void render_seat(const json_t *v, long seat, out *o) {
  size_t i;
  json_t *p;
  json_array_foreach(json_object_get(v, "players"), i, p) {
    if (num(p, "seat") != seat)
      continue;
    put(o, "Villain %ld: ", seat + 1);
    summary(p, o);
    put(o, "\n");
    area(p, "", o);
    return;
  }
}

static void render_hand(const json_t *v, out *o) {
  json_t *hand = json_object_get(v, "hand");
  const sv_deck *d = sv_cards();
  put(o, "**Your hand** (Villain %ld, %zu card%s):\n", num(v, "you") + 1,
      json_array_size(hand), json_array_size(hand) == 1 ? "" : "s");
  size_t i;
  json_t *c;
  json_array_foreach(hand, i, c) {
    long inst = num(c, "i");
    const sv_card *card =
        d && inst >= 0 && inst < SV_N_MINION ? sv_card_of((int)inst) : NULL;
    put(o, "- **%s**: Mob ", str(c, "name"));
    power(o, num(c, "power"));
    if (card) {
      put(o, "%s%s; %sOps: %s", card->proof ? " [proof]" : "",
          card->boosted ? " (Boosted)" : "", card->swift ? "Swift " : "",
          card->ops.text);
    }
    put(o, "\n");
  }
}

void sv_render(const json_t *view, int what, char *buf, size_t cap) {
  if (cap == 0)
    return;
  out o = {buf, cap, 0};
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
