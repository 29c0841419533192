/*
 * dis_text.c: Disorder of the Villains for people: the table, one
 * player's area, the middle of the table (turn, chain, window) and a
 * hand, as Markdown. (What an answer did is told by the rules themselves,
 * in dis.c.)
 *
 * The renderers read only a view (dis_view's JSON), never the state, so
 * they cannot show what the viewer may not see; a window reads the same
 * whatever its player holds. Seats are written "Villain N" (1-based); the
 * commands layer puts player names in.
 */
#include "dis.h"

#include "../../rsutil.h"

#include <stdio.h>
#include <string.h>

static const char *plural(long n) { return n == 1 ? "" : "s"; }

/* Seat s as "Villain N"; JSON null (nobody) as "nobody". */
static long seat_no(const json_t *seat) {
  return json_is_integer(seat) ? (long)json_integer_value(seat) + 1 : 0;
}

/* "Cinder Whelp (A, Red)", then what the table must see about it: its
 * trait used, put into play this turn, owned by the other player than
 * the one whose area it is in (side; -1: no area). */
static void card(eng_text *o, const json_t *c, long side) {
  eng_put(o, "%s (%s, %s)", eng_jstr(c, "name"), eng_jstr(c, "dna"),
          eng_jstr(c, "colour"));
  if (json_is_true(json_object_get(c, "used")))
    eng_put(o, " (used)");
  if (json_is_true(json_object_get(c, "new")))
    eng_put(o, " (new)");
  if (side >= 0 && json_object_get(c, "owner") && eng_jnum(c, "owner") != side)
    eng_put(o, " (Villain %ld's)", eng_jnum(c, "owner") + 1);
}

/* The cards of a JSON array, comma-separated; `none` when empty. */
static void cards(eng_text *o, const json_t *a, long side, const char *none) {
  size_t k;
  json_t *c;
  if (json_array_size(a) == 0)
    eng_put(o, "%s", none);
  json_array_foreach(a, k, c) {
    eng_put(o, "%s", k ? ", " : "");
    card(o, c, side);
  }
}

static bool is_phase(const json_t *v, const char *phase) {
  return strcmp(eng_jstr(v, "phase"), phase) == 0;
}

/* The end: who won and why. */
static void ending(const json_t *v, eng_text *o) {
  const char *reason = eng_jstr(v, "reason");
  long w = seat_no(json_object_get(v, "winner"));
  if (strcmp(reason, "minted_two") == 0)
    eng_put(o, "**Villain %ld wins**: two Villains minted.\n", w);
  else if (w)
    eng_put(o,
            "**Villain %ld wins** with more minted Villains when the last "
            "turns ran out.\n",
            w);
  else
    eng_put(o, "**The game is a draw**: as many minted Villains each when "
               "the last turns ran out.\n");
}

/* The draft: the designs to choose from, or the Villains still free. */
static void draft(const json_t *v, eng_text *o) {
  const json_t *d = json_object_get(v, "draft");
  size_t k;
  json_t *x;
  if (json_object_get(d, "designs")) {
    eng_put(o, "Deck designs:\n");
    json_array_foreach(json_object_get(d, "designs"), k, x)
        eng_put(o, "- **%s**: %s\n", eng_jstr(x, "name"), eng_jstr(x, "guide"));
    return;
  }
  eng_put(o, "Villains still free: ");
  json_array_foreach(json_object_get(d, "pool"), k, x)
      eng_put(o, "%s%s (%s, %s)", k ? ", " : "", eng_jstr(x, "name"),
              eng_jstr(x, "dna"), eng_jstr(x, "colour"));
  eng_put(o, "\n");
}

/* The chain, newest first, each entry with its controller. */
static void chain(const json_t *v, eng_text *o) {
  const json_t *a = json_object_get(v, "chain");
  size_t n = json_array_size(a);
  if (n == 0)
    return;
  eng_put(o, "Chain, newest first:\n");
  for (size_t k = n; k-- > 0;) {
    const json_t *e = json_array_get(a, k);
    const json_t *c = json_object_get(e, "card");
    const json_t *subject = json_object_get(e, "subject");
    eng_put(o, "%zu. Villain %ld's %s: %s", k + 1, eng_jnum(e, "ctrl") + 1,
            eng_jstr(c, "name"), eng_jstr(e, "trait"));
    /* "it" is named when it is another card than the trait's own. */
    if (json_is_object(subject) && eng_jnum(subject, "i") != eng_jnum(c, "i"))
      eng_put(o, " (it: %s)", eng_jstr(subject, "name"));
    eng_put(o, "\n");
  }
}

/* Who the game waits for, and for what. A window reads the same whatever
 * its player holds. */
static void waiting(const json_t *v, eng_text *o) {
  const json_t *w = json_object_get(v, "window");
  long seat = seat_no(json_object_get(v, "waiting"));
  if (w) {
    eng_put(o, "Villain %ld %s.\n", eng_jnum(v, "active") + 1,
            eng_jstr(w, "what"));
    eng_put(o, "Waiting for Villain %ld (interrupt window).\n",
            eng_jnum(w, "seat") + 1);
    return;
  }
  if (!seat)
    return;
  const json_t *room = json_object_get(v, "room");
  if (room) {
    eng_put(o,
            "Villain %ld's row is full: waiting for them to discard a "
            "card to make room for ",
            seat);
    card(o, json_object_get(room, "card"), -1);
    eng_put(o, ".\n");
  } else if (is_phase(v, "design"))
    eng_put(o, "Waiting for Villain %ld to choose a deck design.\n", seat);
  else if (is_phase(v, "draft"))
    eng_put(o,
            "Waiting for Villain %ld to draft a Villain (pick %ld of "
            "8).\n",
            seat, eng_jnum(json_object_get(v, "draft"), "pick"));
  else if (is_phase(v, "rps"))
    eng_put(o,
            "Villain %ld won Rock-Paper-Scissors: waiting for them to "
            "start or defer.\n",
            seat);
  else if (is_phase(v, "pick"))
    eng_put(o, "Waiting for Villain %ld to choose a card.\n", seat);
  else if (is_phase(v, "copy"))
    eng_put(o, "Waiting for Villain %ld to choose a trait to COPY.\n", seat);
  else if (is_phase(v, "discard"))
    eng_put(o, "Waiting for Villain %ld to discard from their hand.\n", seat);
  else
    eng_put(o, "Villain %ld has priority.\n", seat);
}

/* The middle of the table: the turn, the end, the last turns, the draft,
 * the chain, the trait resolving, who the game waits for. */
static void head(const json_t *v, eng_text *o) {
  eng_put(o, "**Disorder of the Villains** (%s)", eng_jstr(v, "mode"));
  if (json_object_get(v, "draft"))
    eng_put(o, " - choosing decks\n");
  else if (is_phase(v, "rps"))
    eng_put(o, " - who starts\n");
  else
    eng_put(o, " - turn %ld: Villain %ld's turn\n", eng_jnum(v, "turn"),
            eng_jnum(v, "active") + 1);
  if (json_is_true(json_object_get(v, "over")))
    ending(v, o);
  const json_t *last = json_object_get(v, "last_turns");
  if (json_is_integer(last) && !json_is_true(json_object_get(v, "over")))
    eng_put(o,
            "Both decks are empty: %ld last turn%s left, this one "
            "included.\n",
            (long)json_integer_value(last),
            plural((long)json_integer_value(last)));
  if (json_object_get(v, "draft"))
    draft(v, o);
  chain(v, o);
  const json_t *r = json_object_get(v, "resolving");
  if (r) {
    eng_put(o, "Resolving: Villain %ld's %s", eng_jnum(r, "ctrl") + 1,
            eng_jstr(json_object_get(r, "card"), "name"));
    if (json_is_true(json_object_get(r, "copied")))
      eng_put(o, ", copying %s", eng_jstr(json_object_get(r, "from"), "name"));
    eng_put(o, ": %s\n", eng_jstr(r, "trait"));
  }
  waiting(v, o);
}

/* A player's summary, without a line end: "The Emberwick Menagerie, 1
 * minted, 3 cards in hand, 12 in deck". */
static void summary(const json_t *v, const json_t *p, eng_text *o) {
  const json_t *design = json_object_get(p, "design");
  eng_put(o, "%s",
          json_is_object(design) ? eng_jstr(design, "name")
                                 : "no deck design yet");
  if (json_object_get(v, "draft")) {
    long n = (long)json_array_size(json_object_get(p, "villains"));
    eng_put(o, ", %ld Villain%s drafted", n, plural(n));
    return;
  }
  long hand = eng_jnum(p, "hand");
  eng_put(o, ", %zu of 2 Villains minted, %ld card%s in hand, %ld in deck",
          json_array_size(json_object_get(p, "minted")), hand, plural(hand),
          eng_jnum(p, "deck"));
}

/* One player's area: summary, Villains, minted area, rows, discard pile. */
static void seat_part(const json_t *v, const json_t *p, bool bold,
                      eng_text *o) {
  if (!p)
    return;
  long seat = eng_jnum(p, "seat");
  eng_put(o, bold ? "**Villain %ld**: " : "Villain %ld: ", seat + 1);
  summary(v, p, o);
  eng_put(o, "\n");
  const json_t *villains = json_object_get(p, "villains");
  if (json_array_size(villains)) {
    size_t k;
    json_t *x;
    eng_put(o, "Villains: ");
    json_array_foreach(villains, k, x) eng_put(
        o, "%s%s (%s)", k ? ", " : "", eng_jstr(x, "name"), eng_jstr(x, "dna"));
    eng_put(o, "\n");
  }
  if (json_object_get(v, "draft"))
    return;
  eng_put(o, "Minted: ");
  cards(o, json_object_get(p, "minted"), seat, "none");
  eng_put(o, "\nVillain row: ");
  cards(o, json_object_get(p, "villain_row"), seat, "empty");
  eng_put(o, "\nMonster row: ");
  cards(o, json_object_get(p, "monster_row"), seat, "empty");
  char key[32];
  snprintf(key, sizeof key, "discard_%ld", seat + 1);
  const json_t *pile = json_object_get(v, key);
  size_t n = json_array_size(pile);
  if (n)
    eng_put(o, "\nDiscard pile: %zu, top %s\n", n,
            eng_jstr(json_array_get(pile, n - 1), "name"));
  else
    eng_put(o, "\nDiscard pile: empty\n");
}

static void render_table(const json_t *v, eng_text *o) {
  head(v, o);
  size_t i;
  json_t *p;
  json_array_foreach(json_object_get(v, "players"), i, p)
      seat_part(v, p, true, o);
}

static void render_hand(const json_t *v, eng_text *o) {
  const json_t *hand = json_object_get(v, "hand");
  if (!hand) {
    eng_put(o, "No hand to show: this is the table's view.\n");
    return;
  }
  long n = (long)json_array_size(hand);
  eng_put(o, "**Your hand** (Villain %ld, %ld card%s)%s\n",
          eng_jnum(v, "you") + 1, n, plural(n), n ? ":" : ".");
  size_t k;
  json_t *c;
  json_array_foreach(hand, k, c)
      eng_put(o, "- **%s** (%s, %s): %s\n", eng_jstr(c, "name"),
              eng_jstr(c, "dna"), eng_jstr(c, "colour"), eng_jstr(c, "text"));
}

void dis_render(const json_t *view, int what, char *buf, size_t cap) {
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
