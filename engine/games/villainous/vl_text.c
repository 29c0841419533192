/*
 * vl_text.c: Villainous for people: the table, one villain's realm, what
 * lies between the realms, and a hand, as Markdown.
 * (What an answer did is told by the rules themselves, in vl.c.)
 *
 * The renderers read only a view (vl_view's JSON), never the state, so
 * they cannot show what the viewer may not see. Seats are written
 * "Villain N" (1-based); the commands layer puts player names in.
 */
#include "vl.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

typedef struct out {
  char *buf;
  size_t cap, len;
} out;

static void put(out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
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

static const char *plural(long n) { return n == 1 ? "" : "s"; }

/* "A, B and C" of the names in a JSON array of card references. */
static void names(out *o, const json_t *a) {
  size_t n = json_array_size(a);
  for (size_t k = 0; k < n; k++)
    put(o, "%s%s", k == 0 ? "" : k == n - 1 ? " and " : ", ",
        str(json_array_get(a, k), "name"));
}

/* A discard pile: its size and top card. */
static void pile(out *o, const char *what, const json_t *a) {
  size_t n = json_array_size(a);
  if (n == 0)
    put(o, "%s: empty", what);
  else
    put(o, "%s: %zu, top %s", what, n, str(json_array_get(a, n - 1), "name"));
}

static const json_t *player_of(const json_t *v, long seat) {
  size_t i;
  json_t *p;
  json_array_foreach(json_object_get(v, "players"), i, p) {
    if (num(p, "seat") == seat)
      return p;
  }
  return NULL;
}

/* The game's first lines: whose turn and phase, the winners, the Fate
 * token, the cards face up between the realms. */
static void head(const json_t *v, out *o) {
  const char *phase = str(v, "phase");
  long cur = num(v, "current");
  if (strcmp(phase, "choose") == 0) {
    put(o, "**Villainous** - choosing villains: Villain %ld chooses.\n",
        num(v, "chooser") + 1);
    put(o, "Villains still free:");
    size_t k;
    json_t *x;
    json_array_foreach(json_object_get(v, "villains_left"), k, x)
        put(o, "\n- **%s**: %s", str(x, "name"), str(x, "objective"));
    put(o, "\n");
    return;
  }
  const json_t *p = player_of(v, cur);
  const char *where = "";
  if (p) {
    json_t *loc = json_array_get(json_object_get(p, "locations"),
                                 (size_t)num(p, "mover"));
    where = str(loc, "name");
  }
  put(o, "**Villainous** (%s) - turn %ld, round %ld of at most %ld: Villain "
         "%ld's turn",
      str(v, "mode"), num(v, "turn"), num(v, "round"), num(v, "round_limit"),
      cur + 1);
  if (strcmp(phase, "actions") == 0)
    put(o, ", at %s", where);
  put(o, "\n");
  json_t *winners = json_object_get(v, "winners");
  if (winners) {
    if (json_array_size(winners) == 0)
      put(o, "The game is over: no villain achieved their objective.\n");
    size_t k;
    json_t *w;
    json_array_foreach(winners, k, w) {
      const json_t *wp = player_of(v, (long)json_integer_value(w));
      put(o, "Villain %ld, %s, has won!\n", (long)json_integer_value(w) + 1,
          wp ? str(json_object_get(wp, "villain"), "name") : "");
    }
  }
  json_t *token = json_object_get(v, "fate_token");
  if (json_is_integer(token))
    put(o, "Fate token: Villain %ld (no one else may target them with "
           "Fate).\n",
        (long)json_integer_value(token) + 1);
  if (json_array_size(json_object_get(v, "revealed"))) {
    put(o, "Revealed by Fate: ");
    names(o, json_object_get(v, "revealed"));
    put(o, "\n");
  }
  if (json_array_size(json_object_get(v, "playing"))) {
    put(o, "Resolving: ");
    names(o, json_object_get(v, "playing"));
    put(o, "\n");
  }
}

/* A villain's summary, without a line end: "The Hive Queen, 7 Power, 4
 * cards in hand". */
static void summary(const json_t *p, out *o) {
  put(o, "%s, %ld Power, %ld card%s in hand",
      str(json_object_get(p, "villain"), "name"), num(p, "power"),
      num(p, "hand"), plural(num(p, "hand")));
}

/* The cards at one location of a realm, on one line. */
static void location(const json_t *loc, long index, out *o) {
  put(o, "%ld. %s%s%s: ", index + 1, str(loc, "name"),
      json_is_true(json_object_get(loc, "mover")) ? " [mover]" : "",
      json_is_true(json_object_get(loc, "locked")) ? " [locked]" : "");
  bool covered = json_is_true(json_object_get(loc, "covered"));
  size_t k;
  json_t *a;
  json_array_foreach(json_object_get(loc, "top"), k, a)
      put(o, "%s%s%s", k ? ", " : "", covered ? "~~" : "",
          json_string_value(a));
  if (covered)
    put(o, "~~");
  put(o, " | ");
  json_array_foreach(json_object_get(loc, "bottom"), k, a)
      put(o, "%s%s", k ? ", " : "", json_string_value(a));
  static const char *const parts[] = {"heroes", "cards"};
  for (int part = 0; part < 2; part++) {
    json_t *list = json_object_get(loc, parts[part]);
    if (json_array_size(list) == 0)
      continue;
    put(o, part ? "; here: " : "; Heroes: ");
    json_t *c;
    json_array_foreach(list, k, c) {
      put(o, "%s%s", k ? ", " : "", str(c, "name"));
      if (json_object_get(c, "strength"))
        put(o, " (%s%ld)", part ? "" : "", num(c, "strength"));
      else
        put(o, " (%s)", str(c, "kind"));
      json_t *items = json_object_get(c, "items");
      if (json_array_size(items)) {
        put(o, " with ");
        names(o, items);
      }
    }
  }
  put(o, "\n");
}

/* A realm's lines after its summary: objective, locations, piles. */
static void area(const json_t *p, const char *indent, out *o) {
  const json_t *vil = json_object_get(p, "villain");
  if (!vil)
    return;
  put(o, "%sObjective: %s (%s)\n", indent, str(vil, "objective"),
      str(p, "progress"));
  size_t k;
  json_t *loc;
  json_array_foreach(json_object_get(p, "locations"), k, loc) {
    put(o, "%s", indent);
    location(loc, (long)k, o);
  }
  json_t *track = json_object_get(p, "track");
  put(o, "%sDecks: villain %ld, fate %ld", indent, num(p, "deck"),
      num(p, "fate_deck"));
  if (track)
    put(o, "; %s %ld of %ld", str(track, "name"), num(track, "value"),
        num(track, "max"));
  if (num(p, "defeated"))
    put(o, "; %ld Hero%s defeated", num(p, "defeated"),
        num(p, "defeated") == 1 ? "" : "es");
  put(o, "\n");
}

static void piles_line(const json_t *v, long seat, const char *indent,
                       out *o) {
  char key[48];
  put(o, "%s", indent);
  snprintf(key, sizeof key, "discard_%ld", seat + 1);
  pile(o, "Discard", json_object_get(v, key));
  put(o, "; ");
  snprintf(key, sizeof key, "fate_discard_%ld", seat + 1);
  pile(o, "fate discard", json_object_get(v, key));
  put(o, "\n");
}

static void render_table(const json_t *v, out *o) {
  head(v, o);
  size_t i;
  json_t *p;
  json_array_foreach(json_object_get(v, "players"), i, p) {
    if (!json_object_get(p, "villain"))
      continue;
    put(o, "**Villain %ld**: ", num(p, "seat") + 1);
    summary(p, o);
    put(o, "\n");
    area(p, "", o);
    piles_line(v, num(p, "seat"), "", o);
  }
}

static void render_seat(const json_t *v, long seat, out *o) {
  const json_t *p = player_of(v, seat);
  if (!p || !json_object_get(p, "villain"))
    return;
  put(o, "Villain %ld: ", seat + 1);
  summary(p, o);
  put(o, "\n");
  area(p, "", o);
  piles_line(v, seat, "", o);
}

static void render_hand(const json_t *v, out *o) {
  json_t *hand = json_object_get(v, "hand");
  put(o, "**Your hand** (Villain %ld, %zu card%s):\n", num(v, "you") + 1,
      json_array_size(hand), plural((long)json_array_size(hand)));
  size_t i;
  json_t *c;
  json_array_foreach(hand, i, c) {
    put(o, "- **%s** (%s", str(c, "name"), str(c, "summary"));
    if (json_object_get(c, "cost"))
      put(o, "; costs you %ld now", num(c, "cost"));
    put(o, "): %s\n", str(c, "text"));
  }
  json_t *looked = json_object_get(v, "looked");
  if (json_array_size(looked)) {
    put(o, "On top of your fate deck (you looked): ");
    names(o, looked);
    put(o, "\n");
  }
}

void vl_render(const json_t *view, int what, char *buf, size_t cap) {
  if (cap == 0)
    return;
  out o = {buf, cap, 0};
  buf[0] = '\0';
  if (what == ENG_RENDER_HAND)
    render_hand(view, &o);
  else if (what == ENG_RENDER_COMMON)
    head(view, &o);
  else if (what >= ENG_RENDER_SEAT(0) && what < ENG_RENDER_SEAT(ENG_MAX_SEATS))
    render_seat(view, what - ENG_RENDER_SEAT(0), &o);
  else
    render_table(view, &o);
}
