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

#include "../../rsutil.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *plural(long n) { return n == 1 ? "" : "s"; }

/* "A, B and C" of the names in a JSON array of card references. */
static void names(eng_text *o, const json_t *a) {
  size_t n = json_array_size(a);
  for (size_t k = 0; k < n; k++)
    eng_put(o, "%s%s",
            k == 0       ? ""
            : k == n - 1 ? " and "
                         : ", ",
            eng_jstr(json_array_get(a, k), "name"));
}

/* A discard pile: its size and top card. */
static void pile(eng_text *o, const char *what, const json_t *a) {
  size_t n = json_array_size(a);
  if (n == 0)
    eng_put(o, "%s: empty", what);
  else
    eng_put(o, "%s: %zu, top %s", what, n,
            eng_jstr(json_array_get(a, n - 1), "name"));
}

/* The game's first lines: whose turn and phase, the winners, the Fate
 * token, the cards face up between the realms. */
/* The game's name for the head line. */
static const char *title(const json_t *v) {
  return strcmp(eng_jstr(v, "game"), "marvel-villainous") == 0
             ? "Marvel Villainous"
             : "Villainous";
}

/* The Marvel table's middle: the Events in play with their Allies, the
 * Stones left in the centre, the one fate deck. */
static void middle(const json_t *v, eng_text *o) {
  json_t *events = json_object_get(v, "events");
  if (!events)
    return;
  size_t k;
  json_t *e;
  json_array_foreach(events, k, e) {
    json_t *target = json_object_get(e, "target");
    if (json_is_integer(target))
      eng_put(o, "Targeted Event against Villain %ld: ",
              (long)json_integer_value(target) + 1);
    else
      eng_put(o, "Global Event: ");
    eng_put(o, "**%s**, %ld of %ld Strength", eng_jstr(e, "name"),
            eng_jnum(e, "strength"), eng_jnum(e, "needed"));
    json_t *allies = json_object_get(e, "allies");
    if (json_array_size(allies)) {
      eng_put(o, " (");
      size_t j;
      json_t *a;
      json_array_foreach(allies, j, a) eng_put(
          o, "%s%s of Villain %ld, %ld", j ? ", " : "", eng_jstr(a, "name"),
          eng_jnum(a, "owner") + 1, eng_jnum(a, "strength"));
      eng_put(o, ")");
    }
    eng_put(o, ": %s\n", eng_jstr(e, "text"));
  }
  eng_put(o, "Fate deck: %ld cards; ", eng_jnum(v, "fate_deck"));
  pile(o, "fate discard", json_object_get(v, "fate_discard"));
  json_t *centre = json_object_get(v, "stones_centre");
  eng_put(o, "; Stones in the centre: %zu\n", json_array_size(centre));
}

static void head(const json_t *v, eng_text *o) {
  const char *phase = eng_jstr(v, "phase");
  long cur = eng_jnum(v, "current");
  if (strcmp(phase, "choose") == 0) {
    eng_put(o, "**%s** - choosing villains: Villain %ld chooses.\n", title(v),
            eng_jnum(v, "chooser") + 1);
    eng_put(o, "Villains still free:");
    size_t k;
    json_t *x;
    json_array_foreach(json_object_get(v, "villains_left"), k, x) eng_put(
        o, "\n- **%s**: %s", eng_jstr(x, "name"), eng_jstr(x, "objective"));
    eng_put(o, "\n");
    return;
  }
  const json_t *p = eng_view_player(v, cur);
  const char *where = "";
  if (p) {
    json_t *loc = json_array_get(json_object_get(p, "locations"),
                                 (size_t)eng_jnum(p, "mover"));
    where = eng_jstr(loc, "name");
  }
  eng_put(o,
          "**%s** (%s) - turn %ld, round %ld of at most %ld: Villain "
          "%ld's turn",
          title(v), eng_jstr(v, "mode"), eng_jnum(v, "turn"),
          eng_jnum(v, "round"), eng_jnum(v, "round_limit"), cur + 1);
  if (strcmp(phase, "actions") == 0)
    eng_put(o, ", at %s", where);
  eng_put(o, "\n");
  json_t *winners = json_object_get(v, "winners");
  if (winners) {
    if (json_array_size(winners) == 0)
      eng_put(o, "The game is over: no villain achieved their objective.\n");
    size_t k;
    json_t *w;
    json_array_foreach(winners, k, w) {
      const json_t *wp = eng_view_player(v, (long)json_integer_value(w));
      eng_put(o, "Villain %ld, %s, has won!\n", (long)json_integer_value(w) + 1,
              wp ? eng_jstr(json_object_get(wp, "villain"), "name") : "");
    }
  }
  json_t *token = json_object_get(v, "fate_token");
  if (json_is_integer(token))
    eng_put(o,
            "Fate token: Villain %ld (no one else may target them with "
            "Fate).\n",
            (long)json_integer_value(token) + 1);
  if (json_array_size(json_object_get(v, "revealed"))) {
    eng_put(o, "Revealed by Fate: ");
    names(o, json_object_get(v, "revealed"));
    eng_put(o, "\n");
  }
  if (json_array_size(json_object_get(v, "playing"))) {
    eng_put(o, "Resolving: ");
    names(o, json_object_get(v, "playing"));
    eng_put(o, "\n");
  }
  middle(v, o);
}

/* A villain's summary, without a line end: "The Hive Queen, 7 Power, 4
 * cards in hand". */
static void summary(const json_t *p, eng_text *o) {
  eng_put(o, "%s, %ld Power, %ld card%s in hand",
          eng_jstr(json_object_get(p, "villain"), "name"), eng_jnum(p, "power"),
          eng_jnum(p, "hand"), plural(eng_jnum(p, "hand")));
}

/* The cards at one location of a realm, on one line. */
static void location(const json_t *loc, long index, eng_text *o) {
  eng_put(o, "%ld. %s%s%s: ", index + 1, eng_jstr(loc, "name"),
          json_is_true(json_object_get(loc, "mover")) ? " [mover]" : "",
          json_is_true(json_object_get(loc, "locked")) ? " [locked]" : "");
  bool covered = json_is_true(json_object_get(loc, "covered"));
  size_t k;
  json_t *a;
  json_array_foreach(json_object_get(loc, "top"), k, a) eng_put(
      o, "%s%s%s", k ? ", " : "", covered ? "~~" : "", json_string_value(a));
  if (covered)
    eng_put(o, "~~");
  eng_put(o, " | ");
  json_array_foreach(json_object_get(loc, "bottom"), k, a)
      eng_put(o, "%s%s", k ? ", " : "", json_string_value(a));
  static const char *const parts[] = {"heroes", "cards"};
  for (int part = 0; part < 2; part++) {
    json_t *list = json_object_get(loc, parts[part]);
    if (json_array_size(list) == 0)
      continue;
    eng_put(o, part ? "; here: " : "; Heroes: ");
    json_t *c;
    json_array_foreach(list, k, c) {
      eng_put(o, "%s%s", k ? ", " : "", eng_jstr(c, "name"));
      if (json_object_get(c, "owner"))
        eng_put(o, " (Villain %ld's Ally, %ld)", eng_jnum(c, "owner") + 1,
                eng_jnum(c, "strength"));
      else if (json_object_get(c, "strength"))
        eng_put(o, " (%ld)", eng_jnum(c, "strength"));
      else
        eng_put(o, " (%s)", eng_jstr(c, "kind"));
      json_t *items = json_object_get(c, "items");
      if (json_array_size(items)) {
        eng_put(o, " with ");
        names(o, items);
      }
    }
  }
  eng_put(o, "\n");
}

/* A realm's lines after its summary: objective, locations, decks. */
static void area(const json_t *p, eng_text *o) {
  const json_t *vil = json_object_get(p, "villain");
  if (!vil)
    return;
  eng_put(o, "Objective: %s (%s)\n", eng_jstr(vil, "objective"),
          eng_jstr(p, "progress"));
  size_t k;
  json_t *loc;
  json_array_foreach(json_object_get(p, "locations"), k, loc)
      location(loc, (long)k, o);
  json_t *track = json_object_get(p, "track");
  json_t *spec = json_object_get(p, "specialties");
  if (json_array_size(spec)) {
    eng_put(o, "Specialty area: ");
    names(o, spec);
    eng_put(o, "\n");
  }
  if (json_object_get(p, "fate_deck"))
    eng_put(o, "Decks: villain %ld, fate %ld", eng_jnum(p, "deck"),
            eng_jnum(p, "fate_deck"));
  else
    eng_put(o, "Villain deck: %ld", eng_jnum(p, "deck"));
  if (track)
    eng_put(o, "; %s %ld of %ld", eng_jstr(track, "name"),
            eng_jnum(track, "value"), eng_jnum(track, "max"));
  if (eng_jnum(p, "defeated"))
    eng_put(o, "; %ld Hero%s defeated", eng_jnum(p, "defeated"),
            eng_jnum(p, "defeated") == 1 ? "" : "es");
  eng_put(o, "\n");
}

static void piles_line(const json_t *v, long seat, eng_text *o) {
  char key[48];
  snprintf(key, sizeof key, "discard_%ld", seat + 1);
  pile(o, "Discard", json_object_get(v, key));
  snprintf(key, sizeof key, "fate_discard_%ld", seat + 1);
  if (json_object_get(v, key)) {
    eng_put(o, "; ");
    pile(o, "fate discard", json_object_get(v, key));
  }
  eng_put(o, "\n");
}

/* One villain's part of the table: summary, realm, piles (bold: its
 * name in bold, as in the whole table). */
static void seat_part(const json_t *v, const json_t *p, bool bold,
                      eng_text *o) {
  if (!p || !json_object_get(p, "villain"))
    return;
  long seat = eng_jnum(p, "seat");
  eng_put(o, bold ? "**Villain %ld**: " : "Villain %ld: ", seat + 1);
  summary(p, o);
  eng_put(o, "\n");
  area(p, o);
  piles_line(v, seat, o);
}

static void render_table(const json_t *v, eng_text *o) {
  head(v, o);
  size_t i;
  json_t *p;
  json_array_foreach(json_object_get(v, "players"), i, p)
      seat_part(v, p, true, o);
}

static void render_hand(const json_t *v, eng_text *o) {
  json_t *hand = json_object_get(v, "hand");
  eng_put(o, "**Your hand** (Villain %ld, %zu card%s):\n",
          eng_jnum(v, "you") + 1, json_array_size(hand),
          plural((long)json_array_size(hand)));
  size_t i;
  json_t *c;
  json_array_foreach(hand, i, c) {
    eng_put(o, "- **%s** (%s", eng_jstr(c, "name"), eng_jstr(c, "summary"));
    if (json_object_get(c, "cost"))
      eng_put(o, "; costs you %ld now", eng_jnum(c, "cost"));
    eng_put(o, "): %s\n", eng_jstr(c, "text"));
  }
  json_t *looked = json_object_get(v, "looked");
  if (json_array_size(looked)) {
    eng_put(o, "On top of your fate deck (you looked): ");
    names(o, looked);
    eng_put(o, "\n");
  }
}

void vl_render(const json_t *view, int what, char *buf, size_t cap) {
  if (cap == 0)
    return;
  eng_text o = {.buf = buf, .cap = cap};
  buf[0] = '\0';
  if (what == ENG_RENDER_HAND)
    render_hand(view, &o);
  else if (what == ENG_RENDER_COMMON)
    head(view, &o);
  else if (what >= ENG_RENDER_SEAT(0) && what < ENG_RENDER_SEAT(ENG_MAX_SEATS))
    seat_part(view, eng_view_player(view, what - ENG_RENDER_SEAT(0)), false,
              &o);
  else
    render_table(view, &o);
}
