/*
 * vl.c: the rules of Villainous (the Disney rulebook's profile).
 *
 * A game is a phase machine (villains chosen, then turns: start, move,
 * actions, end) and a small stack of frames for everything that takes
 * more than one decision: playing a card to a place, vanquishing with
 * chosen Allies, a Fate action, discarding, an effect that picks a card,
 * a Condition window. run() does the automatic work (draws, triggered
 * abilities, objectives, windows) until somebody must decide; prompt()
 * turns that decision into options; apply() performs the chosen one and
 * runs on. A decision with one option is taken at once, except a
 * Condition window, which is always asked (see open_windows).
 *
 * While it works apply() tells what happens (eng_events) through the say
 * helpers, at the moment it happens; when nobody reads the lines (random
 * playouts) nothing is formatted.
 *
 * The rulebook is the German Disney Villainous rulebook (the publisher's,
 * not shipped with Lair); docs/rules/villainous.md records where Lair
 * decided what it leaves open.
 */
#include "vl.h"

#include "../../rsutil.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const vl_profile vl_profiles[VL_PROFILE_COUNT] = {
    [VL_PROFILE_DISNEY] = {.id = "villainous",
                           .data_dir = "villainous",
                           .fate_mode = VL_FATE_OWN_TWO,
                           .move_any = 0,
                           .conditions = 1,
                           .fate_token = 5,
                           .min_players = 2,
                           .max_players = 6,
                           .start_power = {0, 1, 2, 2, 3, 3}},
    [VL_PROFILE_MARVEL] = {.id = "marvel-villainous",
                           .data_dir = "marvel-villainous",
                           .fate_mode = VL_FATE_SHARED_ONE,
                           .move_any = 1,
                           .conditions = 0,
                           .fate_token = 0,
                           .min_players = 2,
                           .max_players = 4,
                           .events = 1,
                           .zero_ally = 1,
                           .portrait = 1,
                           .start_power = {0, 1, 2, 2}},
};

#define PROF(s) (&vl_profiles[(s)->profile])
/* What the rulebook calls a villain's play area: the Disney page's realm
 * (Reich), the Marvel rulebook's domain. */
#define REALM(s) (SHARED(s) ? "domain" : "realm")
#define SHARED(s) vl_shared(s)
/* The index of the fate piles seat's fate cards use: its own, or the one
 * shared deck's (index 0). */
#define FP(s, seat) (SHARED(s) ? 0 : (seat))
#define C(s, i) vl_card_of((s), (i))
#define BLK(seat) ((seat)*VL_BLOCK)

/* ---- telling ---------------------------------------------------------- */

typedef struct told {
  unsigned fl;
  eng_events *ev;
  uint8_t *shown; /* tests only (vl_apply_traced): hidden cards shown */
} told;

/* A hidden card is shown to everyone (a search's find named by its card). */
static void show(told *t, int i) {
  if (t->shown)
    t->shown[i] = 1;
}

/* Tells a line for seat (-1: everyone); the arguments are evaluated only
 * when somebody listens. */
#define SAY(t, seat, ...)                                                      \
  do {                                                                         \
    if ((t)->ev)                                                               \
      eng_event_add((t)->ev, (seat), __VA_ARGS__);                             \
  } while (0)
#define TELLING(t) ((t)->ev != NULL)

static const char *nm(const vl_state *s, int i) { return C(s, i)->name; }
static const char *loc_nm(const vl_state *s, int seat, int loc) {
  return vl_villain_of(s, seat)->loc[loc].name;
}

/* Where card i is, for a line: a location's name, "the Specialty area",
 * "the Event X", or "" for a card elsewhere. */
static const char *place_nm(const vl_state *s, int i) {
  const vl_where *w = &s->w[i];
  if (w->zone == VL_Z_SPECIALTY)
    return "the Specialty area";
  if (w->zone == VL_Z_EVENT) {
    /* An Item at an Event hangs on its Ally there, the Ally on the Event. */
    int e = w->host;
    if (e != (int)VL_NONE && s->w[e].zone == VL_Z_EVENT)
      e = s->w[e].host;
    return e != (int)VL_NONE ? vl_card_of(s, e)->name : "an Event";
  }
  if (w->zone == VL_Z_REALM || w->zone == VL_Z_TOP)
    return loc_nm(s, w->seat, w->loc);
  return "";
}

/* A destination (a location of seat's realm, or a VL_DEST_* code) for an
 * option's label. */
static void dest_nm(const vl_state *s, int seat, int dest, char *buf,
                    size_t cap) {
  if (dest >= VL_DEST_EVENT)
    snprintf(buf, cap, "the Event %s", vl_card_of(s, dest - VL_DEST_EVENT)->name);
  else if (dest >= VL_DEST_OTHER)
    snprintf(buf, cap, "Villain %d's %s (top)",
             (dest - VL_DEST_OTHER) / VL_LOCS + 1,
             loc_nm(s, (dest - VL_DEST_OTHER) / VL_LOCS,
                    (dest - VL_DEST_OTHER) % VL_LOCS));
  else
    snprintf(buf, cap, "%s", loc_nm(s, seat, dest));
}

/* "A", "A and B", "A, B and C" of the cards' names, within cap. */
static void name_list(const vl_state *s, const int *cards, int n, char *buf,
                      size_t cap) {
  size_t o = 0;
  buf[0] = '\0';
  for (int k = 0; k < n && o < cap; k++) {
    const char *sep = k == 0 ? "" : k == n - 1 ? " and " : ", ";
    size_t need = strlen(sep) + strlen(nm(s, cards[k]));
    if (o + need + 14 >= cap && k < n - 1) {
      snprintf(buf + o, cap - o, " and %d more", n - k);
      return;
    }
    o += (size_t)snprintf(buf + o, cap - o, "%s%s", sep, nm(s, cards[k]));
  }
}

/* ---- zones and piles ---------------------------------------------------- */

bool vl_zone_public(int zone) {
  return zone == VL_Z_VDISC || zone == VL_Z_REALM || zone == VL_Z_TOP ||
         zone == VL_Z_FDISC || zone == VL_Z_REVEALED || zone == VL_Z_PLAYING ||
         zone == VL_Z_EVENT || zone == VL_Z_SPECIALTY || zone == VL_Z_CENTRE;
}

bool vl_villain_taken(const vl_state *s, int v) {
  for (int k = 0; k < s->players; k++)
    if (s->seat[k].villain == v)
      return true;
  return false;
}

const char *vl_end_name(const vl_state *s) {
  return !s->over                        ? ""
         : s->reason == VL_END_OBJECTIVE ? "objective"
                                         : "round_limit";
}

/* Whether card i is in seat's realm (the Marvel rulebook's domain: its
 * locations, their tops and its Specialty area). */
static bool in_realm(const vl_state *s, int i, int seat) {
  return (s->w[i].zone == VL_Z_REALM || s->w[i].zone == VL_Z_TOP ||
          s->w[i].zone == VL_Z_SPECIALTY) &&
         s->w[i].seat == seat;
}

static bool is_fate_card(const vl_state *s, int i) {
  return vl_is_common(s, i) ? !vl_is_stone(s, i) : i % VL_BLOCK >= VL_VDECK;
}

/* Moves instance i to a zone (piles are kept by the callers). A card
 * coming to a realm gets the next placement number. */
static void put(vl_state *s, int i, int zone, int seat, int loc) {
  vl_where *w = &s->w[i];
  w->zone = (uint8_t)zone;
  w->seat = (uint8_t)seat;
  w->loc = (uint8_t)loc;
  w->host = VL_NONE;
  w->known = 0;
  bool in_play = zone == VL_Z_REALM || zone == VL_Z_TOP ||
                 zone == VL_Z_SPECIALTY || zone == VL_Z_EVENT;
  if (in_play)
    w->order = ++s->seq;
  else
    w->order = 0;
  if (!in_play)
    s->tok[i] = 0; /* a Strength token stays only while the card does */
}

/* The discard pile an instance goes to: its own seat's, by deck. */
static void to_discard(vl_state *s, int i) {
  int seat = vl_inst_seat(i);
  if (is_fate_card(s, i)) {
    seat = SHARED(s) ? 0 : seat;
    put(s, i, VL_Z_FDISC, seat, 0);
    eng_pile_push(&s->fdisc[seat], (uint16_t)i);
  } else {
    put(s, i, VL_Z_VDISC, seat, 0);
    eng_pile_push(&s->vdisc[seat], (uint16_t)i);
  }
}

/* Shuffles a deck pile after a search through it: nobody knows its order
 * any more, so every secret look at its cards is forgotten. */
static void shuffle_searched(vl_state *s, told *t, eng_pile *deck) {
  eng_pile_shuffle(deck, &s->rng);
  for (int k = 0; k < deck->n; k++)
    s->w[deck->c[k]].known = 0;
  t->fl |= ENG_REVEALED;
}

/* After a reshuffle every card of a deck pile lies in that deck. */
static void rezone(vl_state *s, const eng_pile *p, int zone, int seat) {
  for (int k = 0; k < p->n; k++)
    put(s, p->c[k], zone, seat, 0);
}

static int hand_size(const vl_state *s, int seat) {
  int n = 0;
  for (int i = BLK(seat); i < BLK(seat) + VL_VDECK; i++)
    n += s->w[i].zone == VL_Z_HAND;
  return n;
}

/* Draws n villain cards for seat (fewer when deck and discard run out)
 * and tells it: the count to everyone, the cards to seat. */
static void draw_cards(vl_state *s, told *t, int seat, int n) {
  int got[VL_VDECK], k = 0;
  for (int j = 0; j < n; j++) {
    uint16_t c;
    bool resh = false;
    if (eng_pile_draw(&s->vdeck[seat], &s->vdisc[seat], &s->rng, &c, &resh)) {
      put(s, c, VL_Z_HAND, seat, 0);
      got[k++] = c;
    }
    if (resh) {
      rezone(s, &s->vdeck[seat], VL_Z_VDECK, seat);
      SAY(t, -1,
          "Villain %d shuffled their villain discard pile (%d cards) into a "
          "new villain deck.",
          seat + 1, s->vdeck[seat].n + 1);
    }
    t->fl |= ENG_REVEALED;
  }
  if (!TELLING(t) || n == 0)
    return;
  if (k == n)
    SAY(t, -1, "Villain %d drew %d card%s.", seat + 1, n, n == 1 ? "" : "s");
  else
    SAY(t, -1,
        "Villain %d drew %d of %d cards: their villain deck and discard pile "
        "ran out.",
        seat + 1, k, n);
  if (k > 0) {
    char list[200];
    name_list(s, got, k, list, sizeof list);
    SAY(t, seat, "You drew %s.", list);
  }
}

/* Whose fate piles seat's are, for a sentence: "Villain 2's" (Disney:
 * each villain's own) or "the" ("The" to open one; Marvel: the one shared
 * pile). */
static void fate_owner(const vl_state *s, int seat, bool opening, char *buf,
                       size_t cap) {
  if (SHARED(s))
    snprintf(buf, cap, "%s", opening ? "The" : "the");
  else
    snprintf(buf, cap, "Villain %d's", seat + 1);
}

/* Turns the top card of seat's fate deck face up (reshuffling the fate
 * discard pile when the deck is empty); returns it, or -1 when both are
 * empty. The caller tells what it is. */
static int reveal_fate(vl_state *s, told *t, int seat) {
  uint16_t c;
  bool resh = false;
  int fp = FP(s, seat);
  t->fl |= ENG_REVEALED;
  if (!eng_pile_draw(&s->fdeck[fp], &s->fdisc[fp], &s->rng, &c, &resh))
    return -1;
  if (resh) {
    rezone(s, &s->fdeck[fp], VL_Z_FDECK, fp);
    char whose[24];
    fate_owner(s, seat, true, whose, sizeof whose);
    SAY(t, -1,
        "%s fate discard pile (%d cards) was shuffled into a new fate deck.",
        whose, s->fdeck[fp].n + 1);
  }
  put(s, c, VL_Z_REVEALED, fp, 0);
  return c;
}

/* ---- what cards make of the rules -----------------------------------------
 * Static modifiers are read when needed: a realm holds few cards, and
 * nothing is cached that could go stale. */

/* The location a realm card counts at (an attached Item: its host's). */
static int loc_of(const vl_state *s, int i) {
  return s->w[i].zone == VL_Z_SPECIALTY ? -1 : s->w[i].loc;
}

/* Every card in seat's realm (vl_span_lo). */
#define FOR_REALM(s, seat, i)                                                  \
  for (int i = vl_span_lo((s), (seat)); i < vl_span_hi((s), (seat)); i++)     \
    if (in_realm((s), i, (seat)))

/* Calls back for every static modifier of the realm of seat. */
#define FOR_MODS(s, seat, src, m)                                              \
  FOR_REALM(s, seat, src)                                                      \
  for (int ab_ = 0; ab_ < C(s, src)->n_ab; ab_++)                              \
    if (C(s, src)->ab[ab_].when == VL_W_STATIC)                                \
      for (const vl_mod *m = C(s, src)->ab[ab_].mod;                           \
           m < C(s, src)->ab[ab_].mod + C(s, src)->ab[ab_].n_mod; m++)

static int stones_home(const vl_state *s, int seat);

static bool is_kind(const vl_state *s, int i, int kind) {
  return C(s, i)->kind == kind;
}

/* Whether Event e (in play) penalises seat: a Global Event everyone, a
 * Targeted Event its target. */
static bool event_hits(const vl_state *s, int e, int seat) {
  return s->w[e].zone == VL_Z_EVENT && is_kind(s, e, VL_K_EVENT) &&
         (s->w[e].loc == 0 || s->w[e].seat == seat);
}

/* Calls back for every penalty modifier of the Events that hit seat. */
#define FOR_EVENT_MODS(s, seat, ev, m)                                         \
  for (int ev = 0; SHARED(s) && ev < vl_n_inst(s); ev++)                      \
    if (event_hits((s), ev, (seat)))                                           \
      for (int ab_ = 0; ab_ < C(s, ev)->n_ab; ab_++)                           \
        if (C(s, ev)->ab[ab_].when == VL_W_STATIC)                             \
          for (const vl_mod *m = C(s, ev)->ab[ab_].mod;                        \
               m < C(s, ev)->ab[ab_].mod + C(s, ev)->ab[ab_].n_mod; m++)

/* The Strength an Event's penalty gives character i of seat's realm. */
static int event_strength(const vl_state *s, int seat, int i, bool ally,
                          bool hero) {
  int n = 0;
  FOR_EVENT_MODS(s, seat, e, m) {
    if (m->mod == VL_M_STRENGTH && ((m->who == VL_WHO_ALLIES && ally) ||
                                    (m->who == VL_WHO_HEROES && hero)))
      n += m->n;
  }
  (void)i;
  return n;
}

int vl_strength(const vl_state *s, int i) {
  const vl_card *c = C(s, i);
  int str = c->strength + s->tok[i];
  int seat = s->w[i].seat;
  if (!in_realm(s, i, seat))
    return str < 0 ? 0 : str;
  /* An opponent's Ally in this realm is no Ally of its villain's. */
  bool ally = c->kind == VL_K_ALLY && vl_owner(s, i) == seat,
       hero = c->kind == VL_K_HERO;
  if (SHARED(s))
    str += event_strength(s, seat, i, ally, hero);
  FOR_MODS(s, seat, j, m) {
    if (m->mod != VL_M_STRENGTH)
      continue;
    bool hit = false;
    switch ((vl_who)m->who) {
    case VL_WHO_SELF:
      hit = j == i;
      break;
    case VL_WHO_HOST:
      hit = s->w[j].host == i;
      break;
    case VL_WHO_ALLIES_HERE:
      hit = ally && loc_of(s, j) == loc_of(s, i);
      break;
    case VL_WHO_HEROES_HERE:
      hit = hero && loc_of(s, j) == loc_of(s, i);
      break;
    case VL_WHO_ALLIES:
      hit = ally;
      break;
    case VL_WHO_HEROES:
      hit = hero;
      break;
    case VL_WHO_COUNT:
      break;
    }
    if (hit)
      str += m->n;
  }
  return str < 0 ? 0 : str;
}

int vl_cost(const vl_state *s, int seat, int i) {
  const vl_card *c = C(s, i);
  int cost = c->cost;
  FOR_MODS(s, seat, j, m) {
    if (m->mod == VL_M_COST && (m->kind == VL_ANY || m->kind == c->kind))
      cost += m->n;
  }
  FOR_EVENT_MODS(s, seat, e, m) {
    if (m->mod == VL_M_COST && (m->kind == VL_ANY || m->kind == c->kind))
      cost += m->n;
  }
  return cost < 0 ? 0 : cost;
}

/* Whether some card of seat's realm at loc has modifier mod. */
static bool mod_at(const vl_state *s, int seat, int loc, int mod) {
  FOR_MODS(s, seat, j, m) {
    if (m->mod == mod && loc_of(s, j) == loc)
      return true;
  }
  return false;
}

/* What a Gain Power action of n at loc gives seat. */
static int gain_amount(const vl_state *s, int seat, int loc, int n) {
  FOR_MODS(s, seat, j, m) {
    if (m->mod == VL_M_GAIN && loc_of(s, j) == loc)
      n += m->n;
  }
  FOR_EVENT_MODS(s, seat, e, m) {
    if (m->mod == VL_M_GAIN)
      n += m->n;
  }
  return n < 0 ? 0 : n;
}

/* Whether i stands on the top of seat's realm as a character that covers
 * actions: a Hero, or (Marvel) an opponent's Ally played or relocated
 * there. */
static bool top_character(const vl_state *s, int seat, int i) {
  if (!in_realm(s, i, seat) || s->w[i].zone != VL_Z_TOP)
    return false;
  int k = C(s, i)->kind;
  return k == VL_K_HERO || (k == VL_K_ALLY && vl_owner(s, i) != seat);
}

bool vl_covered(const vl_state *s, int seat, int loc) {
  FOR_REALM(s, seat, i) {
    if (s->w[i].loc == loc && top_character(s, seat, i))
      return true;
  }
  return false;
}

static bool locked(const vl_state *s, int seat, int loc) {
  return s->seat[seat].locked & (1u << loc);
}

/* Whether a card may be played or moved to loc of seat's realm: no lock
 * (and for a Hero no modifier that keeps Heroes out). */
static bool open_for(const vl_state *s, int seat, int loc, bool hero) {
  return !locked(s, seat, loc) &&
         !(hero && mod_at(s, seat, loc, VL_M_NO_HEROES));
}

static bool adjacent(int a, int b) { return a - b == 1 || b - a == 1; }

/* Where seat's mover stands; location 0 while it is on the portrait
 * (where a Stone with no carrier is put). */
static int mover_loc(const vl_state *s, int seat) {
  return s->seat[seat].mover < VL_LOCS ? s->seat[seat].mover : 0;
}

/* Whether a card at from may go to to under a move's scope. */
static bool reach(const vl_state *s, int seat, int from, int to, int scope) {
  if (from == to)
    return false;
  switch (scope) {
  case VL_SC_ANY:
    return true;
  case VL_SC_MOVER:
    return to == s->seat[seat].mover;
  default:
    return adjacent(from, to) || PROF(s)->move_any;
  }
}

void vl_sort_by_order(const vl_state *s, int *cards, int n) {
  for (int a = 1; a < n; a++)
    for (int b = a; b > 0 && s->w[cards[b - 1]].order > s->w[cards[b]].order;
         b--) {
      int tmp = cards[b];
      cards[b] = cards[b - 1];
      cards[b - 1] = tmp;
    }
}

/* Heroes in seat's realm that cover or wait at loc, in placement order. */
static int heroes_at(const vl_state *s, int seat, int loc, int *out) {
  int n = 0;
  FOR_REALM(s, seat, i) {
    if (s->w[i].zone == VL_Z_TOP && s->w[i].loc == loc &&
        is_kind(s, i, VL_K_HERO))
      out[n++] = i;
  }
  vl_sort_by_order(s, out, n);
  return n;
}

/* The Allies of seat at loc that can help a vanquish (Strength above 0). */
static int allies_at(const vl_state *s, int seat, int loc, int *out) {
  int n = 0;
  FOR_REALM(s, seat, i) {
    if (s->w[i].zone == VL_Z_REALM && s->w[i].loc == loc &&
        is_kind(s, i, VL_K_ALLY) && vl_owner(s, i) == seat &&
        vl_strength(s, i) > 0)
      out[n++] = i;
  }
  return n;
}

/* Whether Hero h waits behind a Protector: another Hero with the
 * Protector ability at its location, while h has none (the Marvel
 * rulebook: the Protector is defeated first). */
static bool protected_hero(const vl_state *s, int seat, int h) {
  if (!is_kind(s, h, VL_K_HERO) || C(s, h)->protector)
    return false;
  FOR_REALM(s, seat, g) {
    if (g != h && s->w[g].zone == VL_Z_TOP && s->w[g].loc == s->w[h].loc &&
        is_kind(s, g, VL_K_HERO) && C(s, g)->protector)
      return true;
  }
  return false;
}

/* Whether seat can vanquish character h (a Hero, or an opponent's Ally
 * on the top of seat's realm) now. A 0-Strength character needs no
 * Ally under the Disney rulebook's ruling, one that stays under the
 * Marvel rulebook's. */
static bool vanquishable(const vl_state *s, int seat, int h) {
  if (!top_character(s, seat, h) || protected_hero(s, seat, h))
    return false;
  int need = vl_strength(s, h), allies[VL_N], sum = 0;
  int n = allies_at(s, seat, s->w[h].loc, allies);
  for (int k = 0; k < n; k++)
    sum += vl_strength(s, allies[k]);
  if (need == 0 && PROF(s)->zero_ally)
    return n > 0;
  return sum >= need;
}

static int count_kind(const vl_state *s, int seat, int kind) {
  int n = 0;
  FOR_REALM(s, seat, i) { n += is_kind(s, i, kind); }
  return n;
}

/* ---- objectives -----------------------------------------------------------
 */

/* How many of the objective's Items lie in seat's realm: at loc, or
 * anywhere when loc < 0. */
static int items_at(const vl_state *s, int seat, const vl_objective *o,
                    int loc) {
  int n = 0;
  for (int k = 0; k < o->n_items; k++) {
    bool here = false;
    FOR_REALM(s, seat, i) {
      if (vl_owner(s, i) == seat && vl_def_of(s, i) == o->items[k] &&
          (loc < 0 || loc_of(s, i) == loc))
        here = true;
    }
    n += here;
  }
  return n;
}

/* Whether seat's Items of the objective lie together (at the objective's
 * location, or at any one location when it names none). */
static bool items_together(const vl_state *s, int seat, const vl_objective *o) {
  for (int loc = 0; loc < VL_LOCS; loc++)
    if ((o->loc < 0 || loc == o->loc) &&
        items_at(s, seat, o, loc) == o->n_items)
      return true;
  return false;
}

/* The defeat_hero_at objective's Hero in seat's realm, or -1. */
static int objective_hero(const vl_state *s, int seat, const vl_objective *o) {
  int hero = -1;
  FOR_REALM(s, seat, i) {
    if (vl_owner(s, i) == seat && vl_def_of(s, i) == o->hero &&
        is_kind(s, i, VL_K_HERO))
      hero = i;
  }
  return hero;
}

/* How many of the four locations hold a card the card_everywhere
 * objective asks for. */
static int everywhere_count(const vl_state *s, int seat,
                            const vl_objective *o) {
  int n = 0;
  for (int loc = 0; loc < VL_LOCS; loc++) {
    bool here = false;
    FOR_REALM(s, seat, i) {
      if (loc_of(s, i) == loc && s->w[i].zone == VL_Z_REALM &&
          vl_owner(s, i) == seat &&
          (o->card >= 0 ? vl_def_of(s, i) == o->card
                        : C(s, i)->kind == o->kind_of))
        here = true;
    }
    n += here;
  }
  return n;
}

static int reach_value(const vl_state *s, int seat, const vl_objective *o) {
  switch ((vl_count)o->count) {
  case VL_C_TRACK:
    return s->seat[seat].track;
  case VL_C_DEFEATED:
    return s->seat[seat].defeated;
  case VL_C_ALLIES: {
    int n = 0;
    FOR_REALM(s, seat, i) {
      n += is_kind(s, i, VL_K_ALLY) && vl_owner(s, i) == seat;
    }
    return n;
  }
  case VL_C_STONES:
    return stones_home(s, seat);
  case VL_C_COUNT:
    break;
  }
  return 0;
}

/* Whether seat's objective holds now (at_start: the start-of-turn check;
 * else the check after every change). defeat_hero_at holds only at the
 * moment of the defeat (s->hit). */
static bool objective_met(const vl_state *s, int seat, bool at_start) {
  const vl_villain *v = vl_villain_of(s, seat);
  if (!v || (bool)v->obj.at_start != at_start)
    return false;
  const vl_objective *o = &v->obj;
  switch ((vl_objective_kind)o->kind) {
  case VL_O_DEFEAT_HERO_AT:
    return s->hit & (1u << seat);
  case VL_O_START_POWER:
    return s->seat[seat].power >= o->n;
  case VL_O_CARD_EVERYWHERE:
    return everywhere_count(s, seat, o) == VL_LOCS;
  case VL_O_ITEMS_TOGETHER:
    return items_together(s, seat, o);
  case VL_O_REACH:
    return reach_value(s, seat, o) >= o->n;
  case VL_O_COUNT:
    break;
  }
  return false;
}

int vl_progress(const vl_state *s, int seat) {
  const vl_villain *v = vl_villain_of(s, seat);
  if (!v)
    return 0;
  const vl_objective *o = &v->obj;
  int p = 0;
  switch ((vl_objective_kind)o->kind) {
  case VL_O_DEFEAT_HERO_AT: {
    /* The Hero in the realm is half the way; at the place, more. */
    int h = objective_hero(s, seat, o);
    if (h >= 0) {
      p = s->w[h].loc == o->loc ? 70 : 45;
      if (p == 70 && !locked(s, seat, o->loc) && vanquishable(s, seat, h))
        p = 90;
    } else if (!locked(s, seat, o->loc)) {
      p = 20;
    }
    break;
  }
  /* Power and cards spread over the realm are easily lost, and the last
   * steps are the hardest: progress grows with the square. */
  case VL_O_START_POWER: {
    int x = s->seat[seat].power > o->n ? o->n : s->seat[seat].power;
    p = 100 * x * x / (o->n ? o->n * o->n : 1);
    break;
  }
  case VL_O_CARD_EVERYWHERE: {
    int n = everywhere_count(s, seat, o);
    p = 100 * n * n / (VL_LOCS * VL_LOCS);
    break;
  }
  case VL_O_ITEMS_TOGETHER: {
    int best = 0;
    for (int loc = 0; loc < VL_LOCS; loc++) {
      int n = items_at(s, seat, o, loc);
      best = n > best ? n : best;
    }
    p = (60 * best + 30 * items_at(s, seat, o, -1)) /
        (o->n_items ? o->n_items : 1);
    break;
  }
  case VL_O_REACH:
    p = 100 * reach_value(s, seat, o) / (o->n ? o->n : 1);
    break;
  case VL_O_COUNT:
    break;
  }
  return p < 0 ? 0 : p > 100 ? 100 : p;
}

void vl_progress_text(const vl_state *s, int seat, char *buf, size_t cap) {
  const vl_villain *v = vl_villain_of(s, seat);
  buf[0] = '\0';
  if (!v)
    return;
  const vl_objective *o = &v->obj;
  switch ((vl_objective_kind)o->kind) {
  case VL_O_DEFEAT_HERO_AT: {
    int hero = objective_hero(s, seat, o);
    if (hero >= 0)
      snprintf(buf, cap, "%s is at %s", nm(s, hero),
               loc_nm(s, seat, s->w[hero].loc));
    else
      snprintf(buf, cap, "%s is not in the realm", v->defs[o->hero].name);
    break;
  }
  case VL_O_START_POWER:
    snprintf(buf, cap, "%d of %d Power", s->seat[seat].power, o->n);
    break;
  case VL_O_CARD_EVERYWHERE: {
    char what[48];
    snprintf(what, sizeof what, "%s",
             o->card >= 0 ? v->defs[o->card].name : "");
    if (o->card < 0)
      for (int i = 0; i < v->n_defs; i++)
        if (v->defs[i].kind == o->kind_of)
          snprintf(what, sizeof what, "%s", v->defs[i].kind_name);
    snprintf(buf, cap, "a %s at %d of %d locations", what,
             everywhere_count(s, seat, o), VL_LOCS);
    break;
  }
  case VL_O_ITEMS_TOGETHER: {
    int in = items_at(s, seat, o, -1);
    snprintf(buf, cap, "%d of %d Items in the realm%s", in, o->n_items,
             in == o->n_items ? ", not yet together" : "");
    break;
  }
  case VL_O_REACH: {
    static const char *const what[] = {"", "Heroes defeated", "Allies",
                                       "Stones"};
    if (o->count == VL_C_TRACK)
      snprintf(buf, cap, "%d of %d %s", reach_value(s, seat, o), o->n,
               v->track_name);
    else
      snprintf(buf, cap, "%d of %d %s", reach_value(s, seat, o), o->n,
               what[o->count < VL_C_COUNT ? o->count : 0]);
    break;
  }
  case VL_O_COUNT:
    break;
  }
}

/* Tells the game's end (s->reason, s->winners set). */
static void tell_end(const vl_state *s, told *t) {
  if (!TELLING(t))
    return;
  for (int p = 0; p < s->players; p++)
    if (s->winners & (1u << p)) {
      const vl_villain *v = vl_villain_of(s, p);
      SAY(t, -1,
          "Villain %d, %s, has achieved their objective (%s) and wins "
          "the game!",
          p + 1, v->name, v->obj.text);
      return;
    }
  SAY(t, -1,
      "After %d rounds no villain has achieved their objective: the game "
      "ends without a winner, and the heroes prevail.",
      VL_ROUND_LIMIT);
}

static void end_game(vl_state *s, told *t, int reason, unsigned winners) {
  /* Cards face up in the middle go where they were going. */
  for (int i = 0; i < vl_n_inst(s); i++)
    if (s->w[i].zone == VL_Z_PLAYING || s->w[i].zone == VL_Z_REVEALED)
      to_discard(s, i);
  s->over = 1;
  s->phase = VL_PH_OVER;
  s->reason = (uint8_t)reason;
  s->winners = (uint8_t)winners;
  s->sp = 0;
  tell_end(s, t);
}

/* Checks every objective that holds "the moment" it does, the player
 * whose turn it is first, then clockwise. */
static void check_objectives(vl_state *s, told *t) {
  if (s->over || s->phase == VL_PH_CHOOSE)
    return;
  for (int k = 0; k < s->players; k++) {
    int p = (s->current + k) % s->players;
    if (objective_met(s, p, false)) {
      end_game(s, t, VL_END_OBJECTIVE, 1u << p);
      return;
    }
  }
  s->hit = 0;
}

/* ---- the frame stack ------------------------------------------------------
 */

static vl_frame *push(vl_state *s, int kind, int player, int realm) {
  if (s->sp >= VL_STACK) {
    s->overflow = 1; /* apply() reports it; the core restores the state */
    return NULL;
  }
  vl_frame *f = &s->stack[s->sp++];
  memset(f, 0, sizeof *f);
  f->kind = (uint8_t)kind;
  f->player = (uint8_t)player;
  f->realm = (uint8_t)realm;
  f->src = f->a = f->b = VL_NONE;
  return f;
}

static void pop(vl_state *s) { s->sp--; }
static vl_frame *top(vl_state *s) { return &s->stack[s->sp - 1]; }

/* Pushes the effects of ability ab of card src so the first resolves
 * first: player chooses, realm is whose realm they work in. */
static void push_ability(vl_state *s, int src, const vl_ability *ab, int player,
                         int realm) {
  for (int k = ab->n_eff - 1; k >= 0; k--) {
    int op = ab->eff[k].op;
    /* Choices among a hand or a deck are its holder's. */
    bool own = op == VL_OP_DISCARD_CARDS || op == VL_OP_PLAY_FREE ||
               op == VL_OP_SEARCH || op == VL_OP_LOOK_FATE ||
               op == VL_OP_STONE;
    vl_frame *f = push(s, VL_F_EFFECT, own ? realm : player, realm);
    if (!f)
      return;
    f->e = ab->eff[k];
    f->src = (uint16_t)src;
  }
}

/* Pushes every ability of card i with `when` (its effects). */
static void push_when(vl_state *s, int i, int when, int player, int realm) {
  const vl_card *c = C(s, i);
  for (int a = c->n_ab - 1; a >= 0; a--)
    if (c->ab[a].when == when)
      push_ability(s, i, &c->ab[a], player, realm);
}

/* Fires `when` for every villain card of seat's realm it fits (at loc,
 * or anywhere when loc < 0), in placement order. */
static void fire_realm(vl_state *s, int seat, int when, int loc) {
  int list[VL_N], n = 0;
  FOR_REALM(s, seat, i) {
    if (is_fate_card(s, i) || vl_owner(s, i) != seat ||
        (loc >= 0 && loc_of(s, i) != loc))
      continue;
    for (int a = 0; a < C(s, i)->n_ab; a++)
      if (C(s, i)->ab[a].when == when) {
        list[n++] = i;
        break;
      }
  }
  /* Pushed last first, so the first placed resolves first. */
  vl_sort_by_order(s, list, n);
  for (int k = n - 1; k >= 0; k--)
    push_when(s, list[k], when, seat, seat);
}

/* Records what the current player's action did, for Conditions. */
static void fired(vl_state *s, int trigger) {
  if (s->acting)
    s->fired |= 1u << trigger;
}

/* ---- cards coming and going -----------------------------------------------
 */

/* Moves realm card i (and what is attached to it) to loc. */
static void relocate(vl_state *s, int i, int loc) {
  s->w[i].loc = (uint8_t)loc;
  s->w[i].order = ++s->seq;
  int seat = s->w[i].seat;
  FOR_REALM(s, seat, j) {
    if (s->w[j].host == i)
      s->w[j].loc = (uint8_t)loc;
  }
}

static void leave_realm(vl_state *s, int i);

/* The Items attached to realm card i leave the realm, each with its
 * "discarded" abilities. */
static void drop_attached(vl_state *s, int i) {
  int seat = s->w[i].seat;
  FOR_REALM(s, seat, j) {
    if (s->w[j].host != i)
      continue;
    if (vl_is_stone(s, j)) {
      /* A Stone is never discarded: it stays at the location, loose. */
      put(s, j, VL_Z_REALM, seat, s->w[i].loc);
      continue;
    }
    leave_realm(s, j);
  }
}

/* Card i leaves seat's realm for its discard pile, with everything
 * attached to it; a villain card's "discarded" abilities fire. */
static void leave_realm(vl_state *s, int i) {
  int seat = s->w[i].seat;
  drop_attached(s, i);
  bool villain = !is_fate_card(s, i);
  to_discard(s, i);
  if (villain)
    push_when(s, i, VL_W_DISCARDED, seat, seat);
}

/* Hero h of seat's realm is defeated by its owner: it goes to the fate
 * discard pile with its Items; the Allies in used (n) go to the villain
 * discard pile. Tells it, counts it, fires what it triggers. */
static void defeat_hero(vl_state *s, told *t, int h, const int *used, int n,
                        const char *how) {
  int seat = s->w[h].seat, loc = s->w[h].loc;
  const vl_villain *v = vl_villain_of(s, seat);
  if (is_kind(s, h, VL_K_ALLY)) {
    /* An opponent's Ally on this realm's top: vanquished like a Hero, but
     * no Hero defeated. */
    if (TELLING(t)) {
      char list[240] = "";
      if (n > 0) {
        char names[180];
        name_list(s, used, n, names, sizeof names);
        snprintf(list, sizeof list, " with %s, who go%s to the discard pile",
                 names, n == 1 ? "es" : "");
      }
      SAY(t, -1,
          "Villain %d %s Villain %d's Ally %s (Strength %d) at %s%s; it goes "
          "to its owner's discard pile.",
          seat + 1, how, vl_owner(s, h) + 1, nm(s, h), vl_strength(s, h),
          loc_nm(s, seat, loc), list);
    }
    leave_realm(s, h);
    for (int k = 0; k < n; k++)
      if (in_realm(s, used[k], seat))
        leave_realm(s, used[k]);
    return;
  }
  if (TELLING(t)) {
    char list[240] = "";
    if (n > 0) {
      char names[180];
      name_list(s, used, n, names, sizeof names);
      snprintf(list, sizeof list, " with %s, who go%s to the discard pile",
               names, n == 1 ? "es" : "");
    }
    SAY(t, -1, "Villain %d %s %s (Strength %d) at %s%s.", seat + 1, how,
        nm(s, h), vl_strength(s, h), loc_nm(s, seat, loc), list);
  }
  if (v->obj.kind == VL_O_DEFEAT_HERO_AT && vl_owner(s, h) == seat &&
      vl_def_of(s, h) == v->obj.hero && loc == v->obj.loc)
    s->hit |= (uint8_t)(1u << seat);
  s->seat[seat].defeated++;
  fired(s, VL_T_OPP_DEFEAT);
  leave_realm(s, h);
  for (int k = 0; k < n; k++)
    if (in_realm(s, used[k], seat))
      leave_realm(s, used[k]);
  /* The cards still in the realm answer the defeat, before the discarded
   * Allies' own abilities (pushed above). */
  fire_realm(s, seat, VL_W_DEFEAT, -1);
}

/* A Hero came to loc of seat's realm (played or moved): the cards there
 * with "hero_arrives" abilities fire. */
static void hero_arrived(vl_state *s, int seat, int loc) {
  fire_realm(s, seat, VL_W_HERO_ARRIVES, loc);
}

/* Places card i (from wherever it is, its pile updated by the caller)
 * into seat's realm at loc: the top for Heroes and the Items on them. */
static void place(vl_state *s, int i, int seat, int loc, int host) {
  bool top = is_kind(s, i, VL_K_HERO) ||
             (host != (int)VL_NONE && s->w[host].zone == VL_Z_TOP) ||
             (is_kind(s, i, VL_K_ALLY) && vl_owner(s, i) != seat);
  int zone = is_kind(s, i, VL_K_SPECIALTY) ? VL_Z_SPECIALTY
             : top                         ? VL_Z_TOP
                                           : VL_Z_REALM;
  put(s, i, zone, seat, zone == VL_Z_SPECIALTY ? 0 : loc);
  s->w[i].host = (uint16_t)host;
}

/* Takes card i out of the pile of the zone it is in (hand: nothing). */
static void unpile(vl_state *s, int i) {
  int seat = s->w[i].seat;
  switch ((vl_zone)s->w[i].zone) {
  case VL_Z_VDECK:
    eng_pile_remove(&s->vdeck[seat], (uint16_t)i);
    break;
  case VL_Z_VDISC:
    eng_pile_remove(&s->vdisc[seat], (uint16_t)i);
    break;
  case VL_Z_FDECK:
    eng_pile_remove(&s->fdeck[seat], (uint16_t)i);
    break;
  case VL_Z_FDISC:
    eng_pile_remove(&s->fdisc[seat], (uint16_t)i);
    break;
  case VL_Z_NONE:
  case VL_Z_HAND:
  case VL_Z_REALM:
  case VL_Z_TOP:
  case VL_Z_REVEALED:
  case VL_Z_PLAYING:
  case VL_Z_EVENT:
  case VL_Z_SPECIALTY:
  case VL_Z_CENTRE:
  case VL_Z_COUNT:
    break;
  }
}


/* ---- Marvel: Events, Stones, the domains' borders -------------------------
 */

/* Where a card may go, as one option operand: a location 0-3 of the
 * mover's own realm, a location of another domain, or an Event. */
#define DEST_OTHER VL_DEST_OTHER
#define DEST_EVENT VL_DEST_EVENT

static vl_frame *push(vl_state *s, int kind, int player, int realm);
static void push_when(vl_state *s, int i, int when, int player, int realm);

static bool is_collector(const vl_state *s, int seat) {
  if (seat < 0)
    return false;
  const vl_villain *v = vl_villain_of(s, seat);
  return v && v->collector;
}

/* The Allies (with their Items) at Event e, and their Strength. */
int vl_event_strength(const vl_state *s, int e) {
  int sum = 0;
  for (int i = 0; i < vl_common_base(s); i++)
    if (s->w[i].zone == VL_Z_EVENT && s->w[i].host == e &&
        is_kind(s, i, VL_K_ALLY))
      sum += vl_strength(s, i);
  return sum;
}

/* Whether seat may send Allies to Event e: a Global Event, or its own
 * Targeted Event. */
static bool may_join(const vl_state *s, int seat, int e) {
  return s->w[e].zone == VL_Z_EVENT && is_kind(s, e, VL_K_EVENT) &&
         (s->w[e].loc == 0 || s->w[e].seat == seat);
}

/* Whether card i carries a Stone. */
bool vl_carries_stone(const vl_state *s, int i) {
  for (int j = vl_common_base(s); j < vl_n_inst(s); j++)
    if (vl_is_stone(s, j) && s->w[j].host == i &&
        s->w[j].zone != VL_Z_CENTRE)
      return true;
  return false;
}

/* How many Stones lie on their Specialty side in seat's domain. */
static int stones_home(const vl_state *s, int seat) {
  int n = 0;
  for (int j = vl_common_base(s); SHARED(s) && j < vl_n_inst(s); j++)
    n += vl_is_stone(s, j) && s->w[j].zone == VL_Z_SPECIALTY &&
         s->w[j].seat == seat;
  return n;
}

/* Stone st comes into the collector's domain: it turns to its Specialty
 * side. */
static void stone_home(vl_state *s, told *t, int st, int seat) {
  put(s, st, VL_Z_SPECIALTY, seat, 0);
  SAY(t, -1,
      "The Stone %s is in Villain %d's domain and turns to its Specialty "
      "side (%d of %d Stones).",
      nm(s, st), seat + 1, stones_home(s, seat), VL_STONES);
}

/* The collector's Ally i came home: the Stones it carries turn. */
static void bring_home(vl_state *s, told *t, int i) {
  int seat = vl_owner(s, i);
  for (int j = vl_common_base(s); j < vl_n_inst(s); j++)
    if (vl_is_stone(s, j) && s->w[j].host == i && s->w[j].zone != VL_Z_CENTRE)
      stone_home(s, t, j, seat);
}

/* The collector's Ally i stands in another domain: it takes up the
 * Stones at its location. */
static void pick_up(vl_state *s, told *t, int i) {
  int seat = s->w[i].seat, loc = s->w[i].loc;
  if (!is_collector(s, vl_owner(s, i)) || seat == vl_owner(s, i))
    return;
  /* The Stone may lie loose or on one of that villain's Allies: only
   * vanquishing the collector's Ally keeps it (docs/rules). */
  for (int j = vl_common_base(s); j < vl_n_inst(s); j++)
    if (vl_is_stone(s, j) && s->w[j].zone == VL_Z_REALM &&
        s->w[j].seat == seat && s->w[j].loc == loc) {
      put(s, j, VL_Z_TOP, seat, loc);
      s->w[j].host = (uint16_t)i;
      SAY(t, -1,
          "%s took up the Stone %s at %s: it must bring it home to "
          "Villain %d's domain.",
          nm(s, i), nm(s, j), loc_nm(s, seat, loc), vl_owner(s, i) + 1);
    }
}

/* Event e is resolved: every villain with an Ally there gets its reward
 * (clockwise from the player whose turn it is), the Event goes to the
 * fate discard pile and the Allies to their discard piles. */
static void resolve_event(vl_state *s, told *t, int e) {
  unsigned seats = 0;
  SAY(t, -1,
      "The Event %s is resolved: its Allies bring %d Strength, %d needed.",
      nm(s, e), vl_event_strength(s, e), vl_strength(s, e));
  for (int i = 0; i < vl_common_base(s); i++)
    if (s->w[i].zone == VL_Z_EVENT && s->w[i].host == e &&
        is_kind(s, i, VL_K_ALLY)) {
      seats |= 1u << vl_owner(s, i);
      for (int j = 0; j < vl_common_base(s); j++)
        if (s->w[j].zone == VL_Z_EVENT && s->w[j].host == i)
          to_discard(s, j);
      to_discard(s, i);
    }
  to_discard(s, e);
  for (int k = 0; k < s->players; k++) {
    int seat = (s->current + k) % s->players;
    if (seats & (1u << seat))
      SAY(t, -1, "Villain %d had Allies at %s and gets its reward.", seat + 1,
          nm(s, e));
  }
  /* Pushed last first: the first villain clockwise resolves first. */
  for (int k = s->players - 1; k >= 0; k--) {
    int seat = (s->current + k) % s->players;
    if (seats & (1u << seat))
      push_when(s, e, VL_W_RESOLVED, seat, seat);
  }
}

/* Ally i (with its Items) goes to Event e; the Event resolves when its
 * Allies reach its Strength requirement. */
static void to_event(vl_state *s, told *t, int i, int e) {
  int seat = vl_owner(s, i);
  put(s, i, VL_Z_EVENT, seat, 0);
  s->w[i].host = (uint16_t)e;
  for (int j = 0; j < vl_common_base(s); j++)
    if (j != i && s->w[j].host == i && s->w[j].zone != VL_Z_NONE) {
      put(s, j, VL_Z_EVENT, seat, 0);
      s->w[j].host = (uint16_t)i;
    }
  SAY(t, -1, "%s (Strength %d) is at the Event %s: %d of %d Strength.",
      nm(s, i), vl_strength(s, i), nm(s, e), vl_event_strength(s, e),
      vl_strength(s, e));
  if (vl_event_strength(s, e) >= vl_strength(s, e))
    resolve_event(s, t, e);
}

/* Card i of its owner goes to dest (DEST_*): a location of its owner's
 * domain, another domain's top, or an Event. Items attached go along. */
static void send_to(vl_state *s, told *t, int i, int dest) {
  /* A Stone moves only within the domain it lies in. */
  int owner = vl_is_stone(s, i) ? s->w[i].seat : vl_owner(s, i);
  if (dest >= DEST_EVENT) {
    to_event(s, t, i, dest - DEST_EVENT);
    return;
  }
  int seat = owner, loc = dest, zone = VL_Z_REALM;
  if (dest >= DEST_OTHER) {
    seat = (dest - DEST_OTHER) / VL_LOCS;
    loc = (dest - DEST_OTHER) % VL_LOCS;
    zone = VL_Z_TOP;
  }
  if (s->w[i].seat == seat && s->w[i].zone == zone) {
    relocate(s, i, loc);
  } else {
    int from = s->w[i].seat;
    put(s, i, zone, seat, loc);
    for (int j = 0; j < vl_n_inst(s); j++)
      if (j != i && s->w[j].host == i && s->w[j].zone != VL_Z_CENTRE &&
          in_realm(s, j, from)) {
        put(s, j, zone, seat, loc);
        s->w[j].host = (uint16_t)i;
      }
  }
  if (vl_is_stone(s, i))
    return;
  if (seat == owner && is_collector(s, owner))
    bring_home(s, t, i);
  else
    pick_up(s, t, i);
}

/* A Stone from the centre, picked at random; -1 when none is left. */
static int random_stone(vl_state *s) {
  int free[VL_STONES], n = 0;
  for (int j = vl_common_base(s); SHARED(s) && j < vl_n_inst(s); j++)
    if (vl_is_stone(s, j) && s->w[j].zone == VL_Z_CENTRE && n < VL_STONES)
      free[n++] = j;
  return n == 0 ? -1 : free[eng_rng_below(&s->rng, (uint32_t)n)];
}

static bool stone_left(const vl_state *s) {
  for (int j = vl_common_base(s); SHARED(s) && j < vl_n_inst(s); j++)
    if (vl_is_stone(s, j) && s->w[j].zone == VL_Z_CENTRE)
      return true;
  return false;
}

/* A Stone enters seat's domain: attached to Ally host, or loose at loc
 * when host is VL_NONE. */
static void stone_enters(vl_state *s, told *t, int seat, int host, int loc) {
  int st = random_stone(s);
  if (st < 0)
    return;
  if (is_collector(s, seat)) {
    SAY(t, -1, "Villain %d drew the Stone %s at random from the centre.",
        seat + 1, nm(s, st));
    stone_home(s, t, st, seat);
    return;
  }
  if (host != (int)VL_NONE) {
    put(s, st, s->w[host].zone, seat, s->w[host].loc);
    s->w[st].host = (uint16_t)host;
    SAY(t, -1,
        "Villain %d drew the Stone %s at random from the centre and "
        "attached it to %s at %s: %s",
        seat + 1, nm(s, st), nm(s, host), loc_nm(s, seat, s->w[host].loc),
        C(s, st)->text);
  } else {
    put(s, st, VL_Z_REALM, seat, loc);
    SAY(t, -1,
        "Villain %d drew the Stone %s at random from the centre; with no "
        "Ally to carry it, it lies loose at %s: %s",
        seat + 1, nm(s, st), loc_nm(s, seat, loc), C(s, st)->text);
  }
}

/* ---- choices ----------------------------------------------------------------
 */

static void add(eng_prompt *p, uint32_t code) {
  if (p->n < ENG_OPTIONS_MAX)
    p->code[p->n++] = code;
}

#define OPT(t, a, b) VL_CODE((t), (a), (b))

/* Whether slot k of the current player's location may be used now. */
static bool slot_open(const vl_state *s, int k) {
  int me = s->current, loc = s->seat[me].mover;
  const vl_location *l = &vl_villain_of(s, me)->loc[loc];
  if (k >= l->n || (s->used & (1u << k)))
    return false;
  return k >= l->n_top || !vl_covered(s, me, loc);
}

/* The first open slot of action kind at the current location, or -1. */
static int open_slot(const vl_state *s, int kind) {
  const vl_location *l =
      &vl_villain_of(s, s->current)->loc[s->seat[s->current].mover];
  for (int k = 0; k < l->n; k++)
    if (l->a[k].kind == kind && slot_open(s, k))
      return k;
  return -1;
}

static bool kind_fits(int filter, int kind) {
  return filter == VL_ANY || filter == kind;
}

/* Whether seat owns Ally i at an open location (Items go on it). */
static bool ally_host(const vl_state *s, int seat, int i) {
  return in_realm(s, i, seat) && s->w[i].zone == VL_Z_REALM &&
         is_kind(s, i, VL_K_ALLY) && !locked(s, seat, s->w[i].loc);
}

/* Whether Hero h stands in seat's realm at an open location (fate Items
 * go on it). */
static bool hero_host(const vl_state *s, int seat, int h) {
  return in_realm(s, h, seat) && s->w[h].zone == VL_Z_TOP &&
         is_kind(s, h, VL_K_HERO) && !locked(s, seat, s->w[h].loc);
}

static bool any_open_loc(const vl_state *s, int seat, bool hero) {
  for (int l = 0; l < VL_LOCS; l++)
    if (open_for(s, seat, l, hero))
      return true;
  return false;
}

static bool ability_possible(const vl_state *s, const vl_ability *ab,
                             int player, int realm, int src);

/* Whether seat can play card i (in hand or discard pile) into its realm
 * now, paying its cost unless free. */
static bool playable(const vl_state *s, int seat, int i, bool free) {
  const vl_card *c = C(s, i);
  if (!free && vl_cost(s, seat, i) > s->seat[seat].power)
    return false;
  switch ((vl_kind)c->kind) {
  case VL_K_ALLY:
    if (SHARED(s)) { /* an Event or (invading) another domain will do */
      for (int e = 0; e < vl_n_inst(s); e++)
        if (may_join(s, seat, e))
          return true;
      if (c->invade)
        return true;
    }
    return any_open_loc(s, seat, false);
  case VL_K_SPECIAL:
    return any_open_loc(s, seat, false);
  case VL_K_SPECIALTY:
    return true;
  case VL_K_ITEM:
    if (c->attach == VL_AT_ALLY) {
      FOR_REALM(s, seat, j) {
        if (ally_host(s, seat, j))
          return true;
      }
      return false;
    }
    return any_open_loc(s, seat, false);
  case VL_K_EFFECT:
    return ability_possible(s, &c->ab[0], seat, seat, i);
  case VL_K_CONDITION:
  case VL_K_HERO:
  case VL_K_EVENT:
  case VL_K_COUNT:
    break;
  }
  return false;
}

/* Where the Marvel relocate action may send seat's card i (DEST_*
 * codes), into out; returns how many. Within the domain anywhere; an
 * Ally to an Event it may join (not while it carries a Stone); an Ally
 * in another domain home; the collector's Ally into another domain. */
static int relocate_dests(const vl_state *s, int seat, int i, int *out) {
  int n = 0;
  const vl_card *c = C(s, i);
  bool ally = c->kind == VL_K_ALLY;
  bool mine = vl_owner(s, i) == seat || (vl_is_stone(s, i) &&
                                         in_realm(s, i, seat));
  if (!mine || s->w[i].host != VL_NONE ||
      (!ally && c->kind != VL_K_ITEM))
    return 0;
  if (s->w[i].zone == VL_Z_TOP && s->w[i].seat != seat && ally) {
    /* An invader is held by its host domain's "no Ally can leave". */
    if (mod_at(s, s->w[i].seat, s->w[i].loc, VL_M_NO_MOVE))
      return 0;
    for (int l = 0; l < VL_LOCS; l++)
      if (open_for(s, seat, l, false))
        out[n++] = l;
    return n;
  }
  if (!in_realm(s, i, seat) || s->w[i].zone != VL_Z_REALM)
    return 0;
  int from = s->w[i].loc;
  if (mod_at(s, seat, from, VL_M_NO_MOVE))
    return 0;
  for (int l = 0; l < VL_LOCS; l++)
    if (l != from && open_for(s, seat, l, false))
      out[n++] = l;
  if (!ally)
    return n;
  if (!vl_carries_stone(s, i))
    for (int e = 0; e < vl_n_inst(s); e++)
      if (may_join(s, seat, e))
        out[n++] = DEST_EVENT + e;
  if (is_collector(s, seat) && !vl_carries_stone(s, i))
    for (int p = 0; p < s->players; p++)
      for (int l = 0; p != seat && l < VL_LOCS; l++)
        out[n++] = DEST_OTHER + p * VL_LOCS + l;
  return n;
}

/* Whether the def of instance i was already offered (one option per
 * distinct card of a hand or pile). */
static bool seen_def(const vl_state *s, uint64_t seen[], int i) {
  int d = vl_def_of(s, i);
  bool was = seen[d / 64] & ((uint64_t)1 << (d % 64));
  seen[d / 64] |= (uint64_t)1 << (d % 64);
  return was;
}

/* Whether card i of realm seat is where an effect with `where` may pick
 * it: anywhere, or ("here") at the location of src, the card whose
 * ability it is. */
static bool here_ok(const vl_state *s, int seat, int i, int where, int src) {
  return where != VL_SC_HERE ||
         (src != (int)VL_NONE && in_realm(s, src, seat) &&
          loc_of(s, src) == loc_of(s, i));
}

/* A Hero of realm seat that a frame may pick: on the top of the realm,
 * at the source's location when the effect says "here". */
static bool hero_ok(const vl_state *s, int seat, int h, int where, int src) {
  return in_realm(s, h, seat) && is_kind(s, h, VL_K_HERO) &&
         s->w[h].zone == VL_Z_TOP && here_ok(s, seat, h, where, src);
}

/* Where Hero h may be moved by a move with scope (VL_SC_*). */
static int hero_dests(const vl_state *s, int seat, int h, int scope, int *out) {
  int n = 0, from = s->w[h].loc;
  if (locked(s, seat, from))
    return 0;
  for (int l = 0; l < VL_LOCS; l++)
    if (reach(s, seat, from, l, scope) && open_for(s, seat, l, true))
      out[n++] = l;
  return n;
}

/* Where seat's Ally or Item i may be moved. */
static int ally_dests(const vl_state *s, int seat, int i, int scope, int *out) {
  int n = 0, from = s->w[i].loc;
  if (locked(s, seat, from) || mod_at(s, seat, from, VL_M_NO_MOVE))
    return 0;
  for (int l = 0; l < VL_LOCS; l++)
    if (reach(s, seat, from, l, scope) && open_for(s, seat, l, false))
      out[n++] = l;
  return n;
}

/* Whether i is seat's Ally standing in another villain's domain (an
 * invader, Marvel). */
static bool away_ally(const vl_state *s, int seat, int i) {
  return s->w[i].zone == VL_Z_TOP && s->w[i].seat != seat &&
         vl_owner(s, i) == seat && is_kind(s, i, VL_K_ALLY) &&
         s->w[i].host == VL_NONE;
}

/* Where card i may be moved: as a Hero or as one of seat's own cards. An
 * Ally of seat's in another domain may come home to any open location
 * when the move goes anywhere ("Relocate ... to any location in your
 * domain"). */
static int mover_dests(const vl_state *s, int seat, int i, bool hero, int scope,
                       int *out) {
  if (!hero && away_ally(s, seat, i)) {
    int n = 0;
    if (mod_at(s, s->w[i].seat, s->w[i].loc, VL_M_NO_MOVE))
      return 0;
    for (int l = 0; scope == VL_SC_ANY && l < VL_LOCS; l++)
      if (open_for(s, seat, l, false))
        out[n++] = l;
    return n;
  }
  return hero ? hero_dests(s, seat, i, scope, out)
              : ally_dests(s, seat, i, scope, out);
}

/* Whether seat may target t with a Fate action. */
static bool fate_target(const vl_state *s, int seat, int t) {
  if (t == seat || t < 0 || t >= s->players)
    return false;
  const vl_profile *pr = PROF(s);
  return !(pr->fate_token && s->players >= pr->fate_token &&
           s->fate_token == t);
}

/* A Hero of seat's realm wherever it is findable: the realm, the fate
 * discard pile, the fate deck (the rulebook's order); -1 when none. */
static int find_hero_inst(const vl_state *s, int seat, int def) {
  static const int order[] = {VL_Z_TOP, VL_Z_FDISC, VL_Z_FDECK};
  for (size_t k = 0; k < sizeof order / sizeof order[0]; k++)
    for (int i = BLK(seat) + VL_VDECK; i < BLK(seat) + VL_BLOCK; i++)
      if (s->w[i].zone == order[k] && s->w[i].seat == seat &&
          vl_def_of(s, i) == def)
        return i;
  return -1;
}

/* The choices of effect frame f (none: nothing to choose, or an op that
 * needs no choice). */
static void effect_options(const vl_state *s, const vl_frame *f,
                           eng_prompt *p) {
  int r = f->realm;
  const vl_effect *e = &f->e;
  uint64_t seen[2] = {0, 0};
  int dests[VL_LOCS];
  switch ((vl_op)e->op) {
  case VL_OP_DISCARD_CARDS:
    for (int i = BLK(r); i < BLK(r) + VL_VDECK; i++)
      if (s->w[i].zone == VL_Z_HAND && i != f->src && !seen_def(s, seen, i))
        add(p, OPT(VL_OPT_PICK, i, 0));
    break;
  case VL_OP_PLAY_FREE:
    for (int i = BLK(r); i < BLK(r) + VL_VDECK; i++)
      if (s->w[i].zone == VL_Z_HAND && i != f->src &&
          kind_fits(e->kind, C(s, i)->kind) &&
          (e->n == 0 || C(s, i)->cost <= e->n) && playable(s, r, i, true) &&
          !seen_def(s, seen, i))
        add(p, OPT(VL_OPT_PICK, i, 0));
    break;
  case VL_OP_PLAY_DISCARD:
  case VL_OP_TAKE_DISCARD:
    for (int k = 0; k < s->vdisc[r].n; k++) {
      int i = s->vdisc[r].c[k];
      if (kind_fits(e->kind, C(s, i)->kind) &&
          (e->op == VL_OP_TAKE_DISCARD || playable(s, r, i, true)) &&
          !seen_def(s, seen, i))
        add(p, OPT(VL_OPT_PICK, i, 0));
    }
    break;
  case VL_OP_SEARCH: {
    /* The deck first; the discard pile only when the deck has none. Cards
     * in instance order, so that the options never depend on the deck's
     * (hidden) order. */
    for (int pass = 0; pass < 2 && p->n == 0; pass++) {
      int zone = pass == 0 ? VL_Z_VDECK : VL_Z_VDISC;
      for (int i = BLK(r); i < BLK(r) + VL_VDECK; i++) {
        if (s->w[i].zone != zone)
          continue;
        bool fits = e->card >= 0 ? vl_def_of(s, i) == e->card
                                 : kind_fits(e->kind, C(s, i)->kind);
        if (fits && !seen_def(s, seen, i))
          add(p, OPT(VL_OPT_PICK, i, 0));
      }
    }
    break;
  }
  case VL_OP_MOVE_HERO:
  case VL_OP_MOVE_ALLY: {
    bool hero = e->op == VL_OP_MOVE_HERO;
    if (f->step == 0) {
      FOR_REALM(s, r, i) {
        bool ok = hero ? hero_ok(s, r, i, e->where, f->src)
                       : s->w[i].zone == VL_Z_REALM && is_kind(s, i, VL_K_ALLY);
        if (ok && mover_dests(s, r, i, hero, e->scope, dests) > 0)
          add(p, OPT(VL_OPT_PICK, i, 0));
      }
      /* Marvel: r's Allies in other domains may be called home. */
      for (int i = BLK(r); !hero && SHARED(s) && i < BLK(r) + VL_VDECK; i++)
        if (away_ally(s, r, i) && mover_dests(s, r, i, false, e->scope, dests))
          add(p, OPT(VL_OPT_PICK, i, 0));
    } else {
      int n = mover_dests(s, r, f->a, hero, e->scope, dests);
      for (int k = 0; k < n; k++)
        add(p, OPT(VL_OPT_LOC, dests[k], 0));
    }
    break;
  }
  case VL_OP_DEFEAT_HERO:
    FOR_REALM(s, r, h) {
      if (hero_ok(s, r, h, e->where, f->src) && !protected_hero(s, r, h) &&
          (e->n == 0 || vl_strength(s, h) <= e->n))
        add(p, OPT(VL_OPT_PICK, h, 0));
    }
    break;
  case VL_OP_FATE:
    if (SHARED(s)) { /* the target is chosen after the reveal */
      add(p, OPT(VL_OPT_DONE, 0, 0));
      break;
    }
    if (e->scope == VL_SC_ACTIVE) {
      if (fate_target(s, r, s->current))
        add(p, OPT(VL_OPT_SEAT, s->current, 0));
    } else {
      for (int t = 0; t < s->players; t++)
        if (fate_target(s, r, t))
          add(p, OPT(VL_OPT_SEAT, t, 0));
    }
    break;
  case VL_OP_LOOK_FATE:
    if (f->step == 1) {
      for (int k = 0; k < f->n_list; k++)
        add(p, OPT(VL_OPT_PICK, f->list[k], 0));
      add(p, OPT(VL_OPT_DONE, 0, 0));
    }
    break;
  case VL_OP_RETURN_ALLY:
  case VL_OP_REMOVE_ALLY:
    FOR_REALM(s, r, i) {
      if (s->w[i].zone == VL_Z_REALM && is_kind(s, i, VL_K_ALLY) &&
          !is_fate_card(s, i) &&
          (e->op == VL_OP_RETURN_ALLY || e->n == 0 ||
           vl_strength(s, i) <= e->n) &&
          here_ok(s, r, i, e->where, f->src))
        add(p, OPT(VL_OPT_PICK, i, 0));
    }
    break;
  case VL_OP_REMOVE_CARD:
    FOR_REALM(s, r, i) {
      int k = C(s, i)->kind;
      if (!is_fate_card(s, i) && !vl_is_stone(s, i) &&
          (k == VL_K_ITEM || k == VL_K_SPECIAL) &&
          kind_fits(e->kind, k) && here_ok(s, r, i, e->where, f->src))
        add(p, OPT(VL_OPT_PICK, i, 0));
    }
    break;
  case VL_OP_FIND_HERO:
    if (find_hero_inst(s, r, e->card) >= 0)
      for (int l = 0; l < VL_LOCS; l++)
        if (open_for(s, r, l, true))
          add(p, OPT(VL_OPT_LOC, l, 0));
    break;
  case VL_OP_HOOK:
    switch ((vl_hook)e->hook) {
    case VL_H_SWAP_HEROES:
      FOR_REALM(s, r, h) {
        if (!hero_ok(s, r, h, VL_SC_REALM, VL_NONE) ||
            locked(s, r, s->w[h].loc) ||
            (f->step == 1 && s->w[h].loc == s->w[f->a].loc))
          continue;
        bool other = f->step == 1;
        FOR_REALM(s, r, g) {
          if (!other && hero_ok(s, r, g, VL_SC_REALM, VL_NONE) &&
              s->w[g].loc != s->w[h].loc && !locked(s, r, s->w[g].loc))
            other = true;
        }
        if (other)
          add(p, OPT(VL_OPT_PICK, h, 0));
      }
      break;
    case VL_H_COUNT:
      break;
    }
    break;
  case VL_OP_TOKEN:
    FOR_REALM(s, r, i) {
      bool ok = e->kind == VL_K_HERO
                    ? hero_ok(s, r, i, e->where, f->src)
                    : s->w[i].zone == VL_Z_REALM && is_kind(s, i, VL_K_ALLY) &&
                          vl_owner(s, i) == r &&
                          here_ok(s, r, i, e->where, f->src);
      if (ok)
        add(p, OPT(VL_OPT_PICK, i, 0));
    }
    break;
  case VL_OP_STONE:
    /* step 0: an Ally of the domain carries it; else one from the hand
     * comes into play for free (the rulebook), then carries it. */
    if (f->step != 0 || !stone_left(s))
      break;
    FOR_REALM(s, r, i) {
      if (s->w[i].zone == VL_Z_REALM && is_kind(s, i, VL_K_ALLY) &&
          vl_owner(s, i) == r)
        add(p, OPT(VL_OPT_PICK, i, 0));
    }
    if (p->n == 0)
      for (int i = BLK(r); i < BLK(r) + VL_VDECK; i++)
        if (s->w[i].zone == VL_Z_HAND && is_kind(s, i, VL_K_ALLY) &&
            any_open_loc(s, r, false) && !seen_def(s, seen, i))
          add(p, OPT(VL_OPT_PICK, i, 0));
    break;
  case VL_OP_GIVE_STONE:
    for (int o = 0; o < s->players && stone_left(s); o++)
      if (o != r)
        add(p, OPT(VL_OPT_SEAT, o, 0));
    break;
  case VL_OP_GAIN_POWER:
  case VL_OP_LOSE_POWER:
  case VL_OP_DRAW:
  case VL_OP_VANQUISH:
  case VL_OP_UNLOCK:
  case VL_OP_GAIN_PER:
  case VL_OP_TRACK:
  case VL_OP_PLAY_FATE_TOP:
  case VL_OP_COUNT:
    break;
  }
}

/* Whether op of e picks something (then it needs an option to be done). */
static bool op_chooses(int op) {
  static const bool chooses[] = {
#define X(e, s, chooses, nothing) chooses,
      VL_OPS(X)
#undef X
  };
  return op >= 0 && op < VL_OP_COUNT && chooses[op];
}

static bool any_vanquishable(const vl_state *s, int seat) {
  FOR_REALM(s, seat, h) {
    if (vanquishable(s, seat, h))
      return true;
  }
  return false;
}

/* Whether effect frame f has something to work on: an option to choose,
 * a lock token to remove, a Hero to vanquish (other ops always have). */
static bool effect_can(const vl_state *s, const vl_frame *f) {
  if (f->e.op == VL_OP_VANQUISH)
    return any_vanquishable(s, f->realm);
  if (f->e.op == VL_OP_UNLOCK)
    return s->seat[f->realm].locked != 0;
  if (f->e.op == VL_OP_STONE)
    return stone_left(s);
  if (!op_chooses(f->e.op))
    return true;
  eng_prompt p;
  p.n = 0;
  effect_options(s, f, &p);
  return p.n > 0;
}

/* Whether every effect of ab that is not optional can be done, were it
 * played now by player in realm (src: the card, still in its place).
 * Cards an earlier effect draws count for a later discard. */
static bool ability_possible(const vl_state *s, const vl_ability *ab,
                             int player, int realm, int src) {
  int drawn = 0;
  for (int k = 0; k < ab->n_eff; k++) {
    const vl_effect *e = &ab->eff[k];
    if (e->op == VL_OP_DRAW)
      drawn += e->n;
    if (e->may)
      continue;
    bool ok;
    vl_frame f;
    memset(&f, 0, sizeof f);
    f.kind = VL_F_EFFECT;
    f.player = (uint8_t)player;
    f.realm = (uint8_t)realm;
    f.e = *e;
    f.src = (uint16_t)src;
    f.a = f.b = VL_NONE;
    if (e->op == VL_OP_DISCARD_CARDS) {
      int hand = hand_size(s, realm) + drawn;
      if (src != (int)VL_NONE && s->w[src].zone == VL_Z_HAND &&
          s->w[src].seat == realm)
        hand--;
      ok = hand >= e->n;
    } else {
      ok = effect_can(s, &f);
    }
    if (!ok)
      return false;
  }
  return true;
}

/* Whether Condition i's trigger fits what the current action did. */
static bool trigger_fits(const vl_state *s, int owner, int trigger, int tn) {
  switch ((vl_trigger)trigger) {
  case VL_T_OPP_ALLY:
    return (s->fired & (1u << trigger)) && s->fired_ally >= tn;
  case VL_T_OPP_POWER:
    return s->power_before < tn && s->power_after >= tn;
  case VL_T_OPP_FATE:
    return s->fated & (1u << owner);
  case VL_T_OPP_DISCARD:
    return s->discarded >= tn && tn > 0;
  case VL_T_OPP_ITEM:
  case VL_T_OPP_EFFECT:
  case VL_T_OPP_DEFEAT:
  case VL_T_OPP_ACTIVATE:
  case VL_T_OPP_MOVE_HERO:
    return s->fired & (1u << trigger);
  case VL_T_COUNT:
    break;
  }
  return false;
}

/* Whether seat's villain has a Condition that the current action's
 * deeds fit: public knowledge (every villain's deck list is), so a window
 * that opens on it tells nothing about any hand. */
static bool window_for(const vl_state *s, int seat) {
  const vl_villain *v = vl_villain_of(s, seat);
  if (seat == s->current || !v)
    return false;
  for (int k = 0; k < v->n_cond; k++)
    if (trigger_fits(s, seat, v->cond[k].trigger, v->cond[k].tn))
      return true;
  return false;
}

/* Condition i in seat's hand can be played in the open window. */
static bool condition_playable(const vl_state *s, int seat, int i) {
  const vl_card *c = C(s, i);
  return c->kind == VL_K_CONDITION && s->w[i].zone == VL_Z_HAND &&
         trigger_fits(s, seat, c->ab[0].trigger, c->ab[0].tn) &&
         ability_possible(s, &c->ab[0], seat, seat, i);
}

/* The first activate ability of card i that seat can use now (its Power
 * pays for it and it can be done), or NULL. */
static const vl_ability *activation(const vl_state *s, int seat, int i) {
  const vl_card *c = C(s, i);
  for (int k = 0; k < c->n_ab; k++)
    if (c->ab[k].when == VL_W_ACTIVATE &&
        c->ab[k].cost <= s->seat[seat].power &&
        ability_possible(s, &c->ab[k], seat, seat, i))
      return &c->ab[k];
  return NULL;
}

/* The bit of card i in vl_state.once (Specialties and Stones are
 * activated at most once a turn), or 0 for any other card. */
static uint64_t once_bit(const vl_state *s, int i) {
  if (vl_is_stone(s, i))
    return (uint64_t)1 << (32 + i - vl_common_base(s) -
                           vl_data_of(s)->n_common_fate);
  if (is_kind(s, i, VL_K_SPECIALTY))
    return (uint64_t)1 << (i % VL_BLOCK);
  return 0;
}

/* Whether card i can be activated by seat now: a card of seat's realm,
 * or (Marvel) seat's own Ally or Item in another domain or at an Event. */
static bool activatable(const vl_state *s, int seat, int i) {
  if (is_fate_card(s, i) || (s->once & once_bit(s, i)))
    return false;
  if (!in_realm(s, i, seat)) {
    bool away = SHARED(s) && vl_owner(s, i) == seat &&
                (s->w[i].zone == VL_Z_TOP || s->w[i].zone == VL_Z_EVENT);
    /* In another domain, that domain's "no card here can be activated"
     * binds it too. */
    if (away && s->w[i].zone == VL_Z_TOP &&
        (locked(s, s->w[i].seat, s->w[i].loc) ||
         mod_at(s, s->w[i].seat, s->w[i].loc, VL_M_NO_ACTIVATE)))
      return false;
    return away && activation(s, seat, i) != NULL;
  }
  if (SHARED(s) && vl_owner(s, i) != seat && !vl_is_stone(s, i))
    return false; /* an opponent's Ally on this realm's top */
  int loc = loc_of(s, i);
  if (loc < 0) /* the Specialty area */
    return activation(s, seat, i) != NULL;
  return !locked(s, seat, loc) && !mod_at(s, seat, loc, VL_M_NO_ACTIVATE) &&
         activation(s, seat, i) != NULL;
}

/* The current player's actions at their mover's location. */
static void action_options(const vl_state *s, eng_prompt *p) {
  int me = s->current, loc = s->seat[me].mover;
  const vl_location *l = &vl_villain_of(s, me)->loc[loc];
  bool done[VL_A_COUNT] = {false};
  int dests[VL_LOCS];
  for (int k = 0; k < l->n; k++) {
    int kind = l->a[k].kind;
    if (!slot_open(s, k))
      continue;
    if (kind == VL_A_GAIN_1 || kind == VL_A_GAIN_2 || kind == VL_A_GAIN_3) {
      add(p, OPT(VL_OPT_GAIN, k, 0));
      continue;
    }
    if (done[kind])
      continue;
    done[kind] = true;
    switch ((vl_action_kind)kind) {
    case VL_A_PLAY: {
      uint64_t seen[2] = {0, 0};
      for (int i = BLK(me); i < BLK(me) + VL_VDECK; i++)
        if (s->w[i].zone == VL_Z_HAND && playable(s, me, i, false) &&
            !seen_def(s, seen, i))
          add(p, OPT(VL_OPT_PLAY, i, 0));
      break;
    }
    case VL_A_ACTIVATE:
      if (SHARED(s)) {
        for (int i = 0; i < vl_n_inst(s); i++)
          if (activatable(s, me, i))
            add(p, OPT(VL_OPT_ACTIVATE, i, 0));
        break;
      }
      FOR_REALM(s, me, i) {
        if (activatable(s, me, i))
          add(p, OPT(VL_OPT_ACTIVATE, i, 0));
      }
      break;
    case VL_A_MOVE_ALLY:
      if (SHARED(s)) {
        int to[VL_LOCS * VL_SEATS + VL_N];
        for (int i = 0; i < vl_n_inst(s); i++) {
          int n = relocate_dests(s, me, i, to);
          for (int d = 0; d < n; d++)
            add(p, OPT(VL_OPT_MOVE_ALLY, i, to[d]));
        }
        break;
      }
      FOR_REALM(s, me, i) {
        const vl_card *c = C(s, i);
        if (is_fate_card(s, i) || s->w[i].host != VL_NONE ||
            (c->kind != VL_K_ALLY && c->kind != VL_K_ITEM))
          continue;
        int n = ally_dests(s, me, i, VL_SC_ADJACENT, dests);
        for (int d = 0; d < n; d++)
          add(p, OPT(VL_OPT_MOVE_ALLY, i, dests[d]));
      }
      break;
    case VL_A_MOVE_HERO:
      FOR_REALM(s, me, h) {
        if (s->w[h].zone != VL_Z_TOP || !is_kind(s, h, VL_K_HERO))
          continue;
        int n = hero_dests(s, me, h, VL_SC_ADJACENT, dests);
        for (int d = 0; d < n; d++)
          add(p, OPT(VL_OPT_MOVE_HERO, h, dests[d]));
      }
      break;
    case VL_A_VANQUISH:
      FOR_REALM(s, me, h) {
        if (vanquishable(s, me, h))
          add(p, OPT(VL_OPT_VANQUISH, h, 0));
      }
      break;
    case VL_A_FATE:
      if (SHARED(s)) { /* the target is chosen after the reveal */
        add(p, OPT(VL_OPT_FATE, me, 0));
        break;
      }
      for (int t = 0; t < s->players; t++)
        if (fate_target(s, me, t))
          add(p, OPT(VL_OPT_FATE, t, 0));
      break;
    case VL_A_DISCARD:
      if (hand_size(s, me) > 0)
        add(p, OPT(VL_OPT_DISCARD, 0, 0));
      break;
    case VL_A_GAIN_1:
    case VL_A_GAIN_2:
    case VL_A_GAIN_3:
    case VL_A_COUNT:
      break;
    }
  }
  add(p, OPT(VL_OPT_END, 0, 0));
}

/* The Strength of the Allies chosen so far in a VANQUISH frame. */
static int chosen_strength(const vl_state *s, const vl_frame *f) {
  int sum = 0;
  for (int k = 0; k < f->n_list; k++)
    sum += vl_strength(s, f->list[k]);
  return sum;
}

/* The options of frame f. */
static void frame_options(const vl_state *s, const vl_frame *f, eng_prompt *p) {
  int r = f->realm;
  switch ((vl_frame_kind)f->kind) {
  case VL_F_EFFECT:
    if (f->e.may && !f->asked) {
      if (op_chooses(f->e.op)) {
        effect_options(s, f, p);
        if (p->n == 0)
          break; /* nothing to do: frame_auto skips it */
      } else {
        add(p, OPT(VL_OPT_DONE, 0, 0));
      }
      add(p, OPT(VL_OPT_SKIP, 0, 0));
      break;
    }
    effect_options(s, f, p);
    break;
  case VL_F_PLACE: {
    const vl_card *c = C(s, f->a);
    if (c->kind == VL_K_HERO) {
      for (int l = 0; l < VL_LOCS; l++)
        if (open_for(s, r, l, true))
          add(p, OPT(VL_OPT_LOC, l, 0));
    } else if (c->attach == VL_AT_HERO) {
      FOR_REALM(s, r, h) {
        if (hero_host(s, r, h))
          add(p, OPT(VL_OPT_PICK, h, 0));
      }
    } else if (c->attach == VL_AT_ALLY) {
      FOR_REALM(s, r, i) {
        if (ally_host(s, r, i))
          add(p, OPT(VL_OPT_PICK, i, 0));
      }
    } else if (c->kind == VL_K_SPECIALTY) {
      add(p, OPT(VL_OPT_LOC, 0, 0)); /* the Specialty area */
    } else {
      for (int l = 0; l < VL_LOCS; l++)
        if (open_for(s, r, l, false))
          add(p, OPT(VL_OPT_LOC, l, 0));
      if (SHARED(s) && c->kind == VL_K_ALLY && !is_fate_card(s, f->a) &&
          f->b != 1) {
        for (int e = 0; e < vl_n_inst(s); e++)
          if (may_join(s, r, e))
            add(p, OPT(VL_OPT_LOC, DEST_EVENT + e, 0));
        for (int o = 0; c->invade && o < s->players; o++)
          for (int l = 0; o != r && l < VL_LOCS; l++)
            add(p, OPT(VL_OPT_LOC, DEST_OTHER + o * VL_LOCS + l, 0));
      }
    }
    break;
  }
  case VL_F_VANQUISH:
    if (f->a == VL_NONE) {
      FOR_REALM(s, r, h) {
        if (vanquishable(s, r, h))
          add(p, OPT(VL_OPT_PICK, h, 0));
      }
    } else {
      int allies[VL_N];
      int n = allies_at(s, r, s->w[f->a].loc, allies);
      for (int k = 0; k < n; k++) {
        bool chosen = false;
        for (int j = 0; j < f->n_list; j++)
          chosen |= f->list[j] == allies[k];
        if (!chosen && f->n_list < VL_LIST)
          add(p, OPT(VL_OPT_PICK, allies[k], 0));
      }
      if (chosen_strength(s, f) >= vl_strength(s, f->a))
        add(p, OPT(VL_OPT_DONE, 0, 0));
    }
    break;
  case VL_F_FATE:
    if (f->step == 1 && SHARED(s)) {
      for (int o = 0; o < s->players; o++)
        if (o != f->player)
          add(p, OPT(VL_OPT_SEAT, o, 0));
    } else if (f->step == 1) {
      for (int k = 0; k < f->n_list; k++)
        add(p, OPT(VL_OPT_PICK, f->list[k], 0));
    }
    break;
  case VL_F_DISCARD: {
    uint64_t seen[2] = {0, 0};
    for (int i = BLK(f->player); i < BLK(f->player) + VL_VDECK; i++)
      if (s->w[i].zone == VL_Z_HAND && !seen_def(s, seen, i))
        add(p, OPT(VL_OPT_PICK, i, 0));
    add(p, OPT(VL_OPT_DONE, 0, 0));
    break;
  }
  case VL_F_WINDOW: {
    uint64_t seen[2] = {0, 0};
    for (int i = BLK(f->player); i < BLK(f->player) + VL_VDECK; i++)
      if (condition_playable(s, f->player, i) && !seen_def(s, seen, i))
        add(p, OPT(VL_OPT_COND, i, 0));
    add(p, OPT(VL_OPT_PASS, 0, 0));
    break;
  }
  case VL_F_FINISH:
  case VL_F_COUNT:
    break;
  }
}

/* Fills p with the decision now pending. Returns true when it may be
 * taken automatically if it has exactly one option: a frame's choice, a
 * mover with one place to go, a turn with nothing left but its end. A
 * Condition window never is. */
static bool options(const vl_state *s, eng_prompt *p) {
  p->n = 0;
  p->turn = s->turn;
  p->player = -1;
  if (s->over)
    return false;
  if (s->sp > 0) {
    const vl_frame *f = &s->stack[s->sp - 1];
    frame_options(s, f, p);
    p->player = p->n ? f->player : -1;
    return f->kind != VL_F_WINDOW;
  }
  switch ((vl_phase)s->phase) {
  case VL_PH_CHOOSE:
    for (int v = 0; v < vl_data_of(s)->n; v++)
      if (!vl_villain_taken(s, v))
        add(p, OPT(VL_OPT_VILLAIN, v, 0));
    p->player = s->chooser;
    return true;
  case VL_PH_MOVE: {
    int me = s->current;
    for (int l = 0; l < VL_LOCS; l++)
      if (l != s->seat[me].mover && !locked(s, me, l))
        add(p, OPT(VL_OPT_MOVE, l, 0));
    p->player = me;
    return true;
  }
  case VL_PH_ACTIONS:
    action_options(s, p);
    p->player = s->current;
    return true;
  case VL_PH_START:
  case VL_PH_END:
  case VL_PH_OVER:
    break;
  }
  return false;
}

/* ---- playing cards --------------------------------------------------------
 */

/* The top actions of loc, written out for a line ("Gain 2 Power and Play
 * a Card"). */
static void top_text(const vl_state *s, int seat, int loc, char *buf,
                     size_t cap) {
  const vl_location *l = &vl_villain_of(s, seat)->loc[loc];
  size_t o = 0;
  buf[0] = '\0';
  for (int k = 0; k < l->n_top && o < cap; k++)
    o += (size_t)snprintf(buf + o, cap - o, "%s%s",
                          k == 0              ? ""
                          : k == l->n_top - 1 ? " and "
                                              : ", ",
                          vl_action_label(l->a[k].kind));
}

/* The card's own text, for a line: "X: text" without its final stop. */
static const char *text_of(const vl_state *s, int i) { return C(s, i)->text; }

/* seat starts playing card i (from its hand, or from its discard pile
 * when from is VL_Z_VDISC), paying its cost unless free. An Effect
 * resolves at once; any other card waits for its place. */
static void play_card(vl_state *s, told *t, int seat, int i, bool free,
                      int from) {
  const vl_card *c = C(s, i);
  if (c->kind == VL_K_EFFECT) {
    int cost = free ? 0 : vl_cost(s, seat, i);
    s->seat[seat].power = (int16_t)(s->seat[seat].power - cost);
    unpile(s, i);
    put(s, i, VL_Z_PLAYING, seat, 0);
    if (TELLING(t)) {
      char paid[48] = " for free";
      if (!free)
        snprintf(paid, sizeof paid, ", paying %d Power (%d left)", cost,
                 s->seat[seat].power);
      SAY(t, -1, "Villain %d played the Effect %s%s%s: %s", seat + 1, nm(s, i),
          from == VL_Z_VDISC ? " from their discard pile" : "", paid,
          text_of(s, i));
    }
    fired(s, VL_T_OPP_EFFECT);
    vl_frame *f = push(s, VL_F_FINISH, seat, seat);
    if (f)
      f->a = (uint16_t)i;
    push_ability(s, i, &c->ab[0], seat, seat);
    return;
  }
  vl_frame *f = push(s, VL_F_PLACE, seat, seat);
  if (!f)
    return;
  f->a = (uint16_t)i;
  f->free = free;
  f->from = (uint8_t)from;
  if (from == VL_Z_HAND) {
    /* Named only once it is placed: until then a takeback could return
     * it to the hand unseen. */
    SAY(t, -1, "Villain %d is playing a card from their hand.", seat + 1);
    SAY(t, seat, "You are playing %s.", nm(s, i));
  } else {
    SAY(t, -1, "Villain %d is playing %s from their discard pile.", seat + 1,
        nm(s, i));
  }
}

/* Puts the card of PLACE frame f at loc (host: the character it is
 * attached to, or VL_NONE), pays, tells, and fires what it triggers. */
static void place_card(vl_state *s, told *t, const vl_frame *f, int loc,
                       int host) {
  int i = f->a, r = f->realm, player = f->player;
  const vl_card *c = C(s, i);
  int cost = 0;
  if (!is_fate_card(s, i) && !f->free) {
    cost = vl_cost(s, r, i);
    s->seat[r].power = (int16_t)(s->seat[r].power - cost);
  }
  unpile(s, i);
  if (loc >= DEST_OTHER) { /* Marvel: an Event, or another domain */
    char paid[48] = " for free";
    if (!f->free)
      snprintf(paid, sizeof paid, ", paying %d Power (%d left)", cost,
               s->seat[r].power);
    if (loc >= DEST_EVENT) {
      SAY(t, -1, "Villain %d played the Ally %s to the Event %s%s.", r + 1,
          nm(s, i), nm(s, loc - DEST_EVENT), paid);
      send_to(s, t, i, loc);
    } else {
      int o = (loc - DEST_OTHER) / VL_LOCS, l = (loc - DEST_OTHER) % VL_LOCS;
      place(s, i, o, l, VL_NONE);
      SAY(t, -1,
          "Villain %d played the Ally %s (Strength %d) to the top of Villain "
          "%d's domain at %s%s: it covers the actions there.",
          r + 1, nm(s, i), vl_strength(s, i), o + 1, loc_nm(s, o, l), paid);
      pick_up(s, t, i);
    }
    fired(s, VL_T_OPP_ALLY);
    push_when(s, i, VL_W_PLAYED, player, r);
    return;
  }
  place(s, i, r, loc, host);
  if (c->kind == VL_K_SPECIALTY) {
    char paid[48] = " for free";
    if (!f->free)
      snprintf(paid, sizeof paid, ", paying %d Power (%d left)", cost,
               s->seat[r].power);
    SAY(t, -1, "Villain %d played the Specialty %s to their Specialty area%s.",
        r + 1, nm(s, i), paid);
    push_when(s, i, VL_W_PLAYED, player, r);
    return;
  }
  if (TELLING(t)) {
    char where[160], paid[48] = "";
    if (host != (int)VL_NONE)
      snprintf(where, sizeof where, "on %s at %s", nm(s, host),
               loc_nm(s, r, loc));
    else
      snprintf(where, sizeof where, "at %s", loc_nm(s, r, loc));
    if (is_fate_card(s, i)) {
      char covers[96] = "";
      if (c->kind == VL_K_HERO) {
        int hs[VL_N];
        char tops[80];
        top_text(s, r, loc, tops, sizeof tops);
        if (heroes_at(s, r, loc, hs) == 1 && tops[0])
          snprintf(covers, sizeof covers, ", covering %s", tops);
      }
      if (c->kind == VL_K_HERO)
        SAY(t, -1,
            "Villain %d played the Hero %s (Strength %d) %s in "
            "Villain %d's %s%s.",
            player + 1, nm(s, i), vl_strength(s, i), where, r + 1, REALM(s),
            covers);
      else
        SAY(t, -1, "Villain %d played the Item %s %s in Villain %d's %s.",
            player + 1, nm(s, i), where, r + 1, REALM(s));
    } else {
      if (f->free)
        snprintf(paid, sizeof paid, " for free");
      else if (cost)
        snprintf(paid, sizeof paid, ", paying %d Power (%d left)", cost,
                 s->seat[r].power);
      char what[80];
      if (c->kind == VL_K_ALLY)
        snprintf(what, sizeof what, "Ally %s (Strength %d)", nm(s, i),
                 vl_strength(s, i));
      else
        snprintf(what, sizeof what, "%s %s", c->kind_name, nm(s, i));
      SAY(t, -1, "Villain %d played the %s%s %s%s.", r + 1, what,
          f->from == VL_Z_VDISC ? " from their discard pile" : "", where, paid);
    }
  }
  if (c->kind == VL_K_ALLY) {
    fired(s, VL_T_OPP_ALLY);
    int str = vl_strength(s, i);
    if (s->acting && str > s->fired_ally)
      s->fired_ally = (int8_t)str;
  } else if (c->kind == VL_K_ITEM && !is_fate_card(s, i)) {
    fired(s, VL_T_OPP_ITEM);
  }
  if (c->kind == VL_K_HERO)
    hero_arrived(s, r, loc);
  push_when(s, i, VL_W_PLAYED, player, r);
}

/* actor plays fate card i (revealed) into target's realm; a card that
 * cannot be played goes to the fate discard pile without effect (the
 * rulebook's FAQ). */
static void play_fate_card(vl_state *s, told *t, int actor, int target, int i) {
  const vl_card *c = C(s, i);
  bool ok = false;
  const char *why = "";
  if (c->kind == VL_K_HERO) {
    ok = any_open_loc(s, target, true);
    why = "no location can take a Hero";
  } else if (c->kind == VL_K_ITEM) {
    FOR_REALM(s, target, h) {
      if (hero_host(s, target, h))
        ok = true;
    }
    why = "there is no Hero to carry it";
  } else {
    ok = ability_possible(s, &c->ab[0], actor, target, i);
    why = "it cannot be done in full";
  }
  if (!ok) {
    to_discard(s, i);
    char whose[24];
    fate_owner(s, target, false, whose, sizeof whose);
    SAY(t, -1,
        "%s cannot be played (%s): it goes to %s fate discard pile without "
        "effect.",
        nm(s, i), why, whose);
    return;
  }
  if (c->kind == VL_K_EFFECT) {
    put(s, i, VL_Z_PLAYING, target, 0);
    SAY(t, -1,
        "Villain %d played the fate Effect %s in Villain %d's %s: %s",
        actor + 1, nm(s, i), target + 1, REALM(s), text_of(s, i));
    vl_frame *f = push(s, VL_F_FINISH, actor, target);
    if (f)
      f->a = (uint16_t)i;
    push_ability(s, i, &c->ab[0], actor, target);
    return;
  }
  vl_frame *f = push(s, VL_F_PLACE, actor, target);
  if (f) {
    f->a = (uint16_t)i;
    f->free = 1;
    f->from = VL_Z_REVEALED;
  }
}

/* A revealed Event comes into play: a Targeted Event against its
 * villain (unless that villain revealed it), a Global Event in the middle
 * (unless the mode allows only one and one is in play). */
static void event_revealed(vl_state *s, told *t, int actor, int e) {
  int target = vl_owner(s, e);
  const char *text = text_of(s, e);
  if (target >= 0) {
    if (target == actor) {
      to_discard(s, e);
      SAY(t, -1,
          "%s is Villain %d's own Targeted Event: it goes to the fate discard "
          "pile without effect.",
          nm(s, e), actor + 1);
      return;
    }
    put(s, e, VL_Z_EVENT, target, 1);
    SAY(t, -1,
        "The Targeted Event %s is played above Villain %d's domain "
        "(resolved by their Allies, Strength %d): %s",
        nm(s, e), target + 1, vl_strength(s, e), text);
    return;
  }
  if (s->events == VL_EV_ONE)
    for (int g = 0; g < vl_n_inst(s); g++)
      if (s->w[g].zone == VL_Z_EVENT && is_kind(s, g, VL_K_EVENT) &&
          s->w[g].loc == 0) {
        to_discard(s, e);
        SAY(t, -1,
            "The Global Event %s is already in play: %s goes to the fate "
            "discard pile.",
            nm(s, g), nm(s, e));
        return;
      }
  put(s, e, VL_Z_EVENT, 0, 0);
  SAY(t, -1,
      "The Global Event %s is in play (resolved by Allies of any villain, "
      "Strength %d): %s",
      nm(s, e), vl_strength(s, e), text);
}

/* actor performs a Fate action against target (Marvel: the target is
 * chosen once the card is revealed). */
static void start_fate(vl_state *s, told *t, int actor, int target) {
  const vl_profile *pr = PROF(s);
  if (SHARED(s)) {
    SAY(t, -1, "Villain %d performs a Fate action.", actor + 1);
    push(s, VL_F_FATE, actor, actor);
    return;
  }
  if (s->acting && actor == s->current)
    s->fated |= (uint8_t)(1u << target);
  SAY(t, -1, "Villain %d performs a Fate action against Villain %d.", actor + 1,
      target + 1);
  if (pr->fate_token && s->players >= pr->fate_token &&
      s->fate_token != target) {
    s->fate_token = (uint8_t)target;
    SAY(t, -1,
        "Villain %d takes the Fate token: no one else may target them with "
        "Fate until another villain is targeted.",
        target + 1);
  }
  push(s, VL_F_FATE, actor, target);
}

/* ---- automatic work --------------------------------------------------------
 */

/* "Drone Swarm's" for a line about what a card's ability did. */
static void src_text(const vl_state *s, int src, char *buf, size_t cap) {
  if (src == (int)VL_NONE) {
    snprintf(buf, cap, "the rules'");
    return;
  }
  const char *n = nm(s, src);
  size_t len = strlen(n);
  snprintf(buf, cap, "%s'%s", n, len && n[len - 1] == 's' ? "" : "s");
}

/* Looks at the top cards of realm r's fate deck for LOOK_FATE frame f:
 * they stay in the deck, listed in the frame, known to r alone. */
static void look_fate(vl_state *s, told *t, vl_frame *f) {
  int r = f->realm, fp = FP(s, r);
  eng_pile *deck = &s->fdeck[fp], *disc = &s->fdisc[fp];
  if (deck->n < f->e.n && disc->n > 0) {
    /* The deck runs out before the look is done: its discard pile,
     * shuffled, becomes the rest of the deck, under the cards left. */
    int left = deck->n;
    eng_pile rest = *disc;
    disc->n = 0;
    eng_pile_shuffle(&rest, &s->rng);
    rezone(s, &rest, VL_Z_FDECK, fp);
    for (int k = 0; k < deck->n; k++)
      eng_pile_push(&rest, deck->c[k]);
    *deck = rest;
    char whose[24];
    fate_owner(s, r, true, whose, sizeof whose);
    if (left == 0)
      SAY(t, -1, "%s fate discard pile was shuffled into a new fate deck.",
          whose);
    else
      SAY(t, -1,
          "%s fate discard pile was shuffled into the fate deck, under "
          "the %d card%s left on it.",
          whose, left, left == 1 ? "" : "s");
  }
  int n = f->e.n < deck->n ? f->e.n : deck->n;
  int seen[VL_LIST];
  f->n_list = 0;
  for (int k = 0; k < n; k++) {
    int i = deck->c[deck->n - 1 - k];
    f->list[f->n_list++] = (uint16_t)i;
    s->w[i].known |= (uint8_t)(1u << r);
    seen[k] = i;
  }
  t->fl |= ENG_REVEALED;
  f->step = 1;
  SAY(t, -1, "Villain %d looked at the top %d card%s of their fate deck.",
      r + 1, n, n == 1 ? "" : "s");
  if (n > 0 && TELLING(t)) {
    char list[200];
    name_list(s, seen, n, list, sizeof list);
    SAY(t, r, "You looked at %s (the top card first).", list);
  }
}

/* Does an effect that needs no choice (or whose choice is made). */
static void effect_do(vl_state *s, told *t, vl_frame *f) {
  int r = f->realm;
  const vl_effect *e = &f->e;
  char src[64];
  if (TELLING(t))
    src_text(s, f->src, src, sizeof src);
  switch ((vl_op)e->op) {
  case VL_OP_GAIN_POWER:
    s->seat[r].power = (int16_t)(s->seat[r].power + e->n);
    SAY(t, -1, "Villain %d gained %d Power from %s ability (now %d).", r + 1,
        e->n, src, s->seat[r].power);
    break;
  case VL_OP_LOSE_POWER: {
    int lost = e->n < s->seat[r].power ? e->n : s->seat[r].power;
    s->seat[r].power = (int16_t)(s->seat[r].power - lost);
    SAY(t, -1, "Villain %d lost %d Power to %s ability (now %d).", r + 1, lost,
        src, s->seat[r].power);
    break;
  }
  case VL_OP_DRAW:
    draw_cards(s, t, r, e->n);
    break;
  case VL_OP_UNLOCK:
    if (!s->seat[r].locked)
      SAY(t, -1, "Villain %d has no lock token left to remove.", r + 1);
    for (int l = 0; l < VL_LOCS; l++)
      if (locked(s, r, l))
        SAY(t, -1, "Villain %d removed the lock token from %s.", r + 1,
            loc_nm(s, r, l));
    s->seat[r].locked = 0;
    break;
  case VL_OP_GAIN_PER: {
    int n = count_kind(s, r, e->kind) * e->n;
    s->seat[r].power = (int16_t)(s->seat[r].power + n);
    SAY(t, -1, "Villain %d gained %d Power from %s ability (now %d).", r + 1, n,
        src, s->seat[r].power);
    break;
  }
  case VL_OP_TRACK: {
    const vl_villain *v = vl_villain_of(s, r);
    int x = s->seat[r].track + e->n;
    x = x < 0 ? 0 : x > v->track_max ? v->track_max : x;
    s->seat[r].track = (uint8_t)x;
    SAY(t, -1, "%s ability moved Villain %d's %s track to %d of %d.", src,
        r + 1, v->track_name, x, v->track_max);
    if (TELLING(t) && t->ev->n > 0) /* "Drone's ability" opens a sentence */
      t->ev->ev[t->ev->n - 1].text[0] =
          (char)(t->ev->ev[t->ev->n - 1].text[0] & ~0x20);
    break;
  }
  case VL_OP_PLAY_FATE_TOP: {
    int c = reveal_fate(s, t, r);
    if (c < 0) {
      SAY(t, -1,
          "Villain %d's fate deck and discard pile are empty: "
          "nothing to play.",
          r + 1);
      break;
    }
    SAY(t, -1,
        "Villain %d turned up %s (%s) from the top of %s fate deck.", r + 1,
        nm(s, c), C(s, c)->kind_name, SHARED(s) ? "the" : "their");
    if (is_kind(s, c, VL_K_EVENT))
      event_revealed(s, t, f->player, c);
    else
      play_fate_card(s, t, f->player, r, c);
    break;
  }
  case VL_OP_DISCARD_CARDS:
  case VL_OP_PLAY_FREE:
  case VL_OP_PLAY_DISCARD:
  case VL_OP_TAKE_DISCARD:
  case VL_OP_SEARCH:
  case VL_OP_MOVE_HERO:
  case VL_OP_MOVE_ALLY:
  case VL_OP_DEFEAT_HERO:
  case VL_OP_VANQUISH:
  case VL_OP_FATE:
  case VL_OP_LOOK_FATE:
  case VL_OP_RETURN_ALLY:
  case VL_OP_REMOVE_ALLY:
  case VL_OP_REMOVE_CARD:
  case VL_OP_FIND_HERO:
  case VL_OP_HOOK:
  case VL_OP_TOKEN:
  case VL_OP_STONE:
  case VL_OP_GIVE_STONE:
  case VL_OP_COUNT:
    break;
  }
}

/* Tells that an effect found nothing to work on. */
static void tell_nothing(const vl_state *s, told *t, const vl_frame *f) {
  static const char *const nothing[] = {
#define X(e, s, chooses, nothing) nothing,
      VL_OPS(X)
#undef X
  };
  if (!TELLING(t))
    return;
  char src[64];
  src_text(s, f->src, src, sizeof src);
  src[0] = (char)(src[0] & ~0x20);
  const char *what = f->e.op < VL_OP_COUNT ? nothing[f->e.op] : NULL;
  SAY(t, -1, "%s ability finds %s.", src, what ? what : "nothing to act on");
}

/* Turns up the cards of pile from its top, each shown to the table, until
 * an Ally of r's that can come into play; returns it, or -1. The names of
 * the others are appended to list ("A, B"), *shown counts every card
 * turned up. */
static int reveal_for_ally(const vl_state *s, told *t, const eng_pile *pile,
                           int r, char *list, size_t cap, int *shown) {
  for (int k = pile->n - 1; k >= 0; k--) {
    int c = pile->c[k];
    ++*shown;
    show(t, c);
    if (is_kind(s, c, VL_K_ALLY) && any_open_loc(s, r, false))
      return c;
    size_t o = strlen(list);
    snprintf(list + o, cap - o, "%s%s", o ? ", " : "", nm(s, c));
  }
  return -1;
}

/* Tells the table the cards of list ("A, B, ...") that seat turned up,
 * in sentences that fit a told line. */
static void tell_turned_up(told *t, int seat, const char *list) {
  enum { CHUNK = 180 };
  while (TELLING(t) && *list) {
    size_t len = strlen(list);
    if (len > CHUNK) { /* cut after the last whole name that fits */
      len = CHUNK;
      while (len > 0 && strncmp(list + len, ", ", 2) != 0)
        len--;
      if (len == 0)
        len = strcspn(list, ",");
    }
    SAY(t, -1, "Villain %d turned up %.*s.", seat + 1, (int)len, list);
    list += len;
    if (strncmp(list, ", ", 2) == 0)
      list += 2;
  }
}

/* The automatic part of a STONE effect (Marvel): a Stone from the
 * centre for realm r, carried by an Ally of r's (chosen, or brought into
 * play for free from the hand or, revealed, from the villain deck). */
static bool stone_auto(vl_state *s, told *t, vl_frame *f) {
  int r = f->realm;
  if (f->step == 1) { /* the Ally brought into play carries it */
    int a = f->a;
    pop(s);
    if (in_realm(s, a, r) && s->w[a].zone == VL_Z_REALM)
      stone_enters(s, t, r, a, 0);
    else
      stone_enters(s, t, r, VL_NONE, mover_loc(s, r));
    return true;
  }
  if (!stone_left(s)) {
    SAY(t, -1, "No Stone is left in the centre.");
    pop(s);
    return true;
  }
  if (is_collector(s, r)) {
    pop(s);
    stone_enters(s, t, r, VL_NONE, 0);
    return true;
  }
  eng_prompt p;
  p.n = 0;
  effect_options(s, f, &p);
  if (p.n > 0)
    return false;
  /* No Ally in play or in hand: the villain deck is revealed from the top
   * until an Ally turns up; the other revealed cards are shuffled back.
   * A deck revealed to its end is followed by its discard pile, shuffled
   * into a new deck ("If you ever need to reveal a card from a Villain
   * ... deck when it's empty, shuffle its discard pile to form a new
   * deck"). */
  eng_pile *deck = &s->vdeck[r], *disc = &s->vdisc[r];
  char seen[1024] = "";
  int shown = 0, found = reveal_for_ally(s, t, deck, r, seen, sizeof seen,
                                         &shown);
  tell_turned_up(t, r, seen);
  seen[0] = '\0';
  if (found < 0 && disc->n > 0) {
    SAY(t, -1,
        "Villain %d revealed their whole villain deck (%d cards) without an "
        "Ally and shuffled their villain discard pile (%d cards) into a new "
        "deck to go on.",
        r + 1, shown, disc->n);
    int before = shown;
    eng_pile_shuffle(disc, &s->rng);
    found = reveal_for_ally(s, t, disc, r, seen, sizeof seen, &shown);
    shown -= before;
    tell_turned_up(t, r, seen);
    uint16_t c;
    while (eng_pile_pop(disc, &c))
      eng_pile_push(deck, c);
    rezone(s, deck, VL_Z_VDECK, r);
  }
  shuffle_searched(s, t, deck);
  if (found < 0) {
    pop(s);
    SAY(t, -1,
        "Villain %d has no Ally in play, in hand, in their villain deck or "
        "in its discard pile to carry the Stone.",
        r + 1);
    stone_enters(s, t, r, VL_NONE, mover_loc(s, r));
    return true;
  }
  eng_pile_remove(deck, (uint16_t)found);
  put(s, found, VL_Z_REVEALED, r, 0);
  if (shown > 1)
    SAY(t, -1,
        "Villain %d revealed %d cards from the top of their villain deck to "
        "find the Ally %s, which comes into play for free to carry the "
        "Stone; the other revealed cards were shuffled back.",
        r + 1, shown, nm(s, found));
  else
    SAY(t, -1,
        "Villain %d revealed the top card of their villain deck, the Ally "
        "%s, which comes into play for free to carry the Stone.",
        r + 1, nm(s, found));
  f->step = 1;
  f->a = (uint16_t)found;
  vl_frame *pl = push(s, VL_F_PLACE, r, r);
  if (pl) {
    pl->a = (uint16_t)found;
    pl->free = 1;
    pl->from = VL_Z_REVEALED;
    pl->b = 1; /* to a location of its own domain */
  }
  return true;
}

/* The automatic part of the frame on top; true when it changed
 * something (then run() looks again), false when a decision is due. */
static bool frame_auto(vl_state *s, told *t) {
  vl_frame *f = top(s);
  eng_prompt p;
  p.n = 0;
  switch ((vl_frame_kind)f->kind) {
  case VL_F_EFFECT: {
    int op = f->e.op;
    if (f->e.may && !f->asked) {
      if (!effect_can(s, f)) {
        pop(s); /* an optional effect with nothing to do: skipped */
        return true;
      }
      return false;
    }
    if (op == VL_OP_FATE && SHARED(s)) {
      int r = f->realm;
      pop(s);
      start_fate(s, t, r, -1);
      return true;
    }
    if (op == VL_OP_STONE)
      return stone_auto(s, t, f);
    if (op == VL_OP_VANQUISH) {
      int player = f->player, realm = f->realm;
      pop(s);
      if (!any_vanquishable(s, realm)) {
        SAY(t, -1, "Villain %d has no Hero to vanquish.", realm + 1);
        return true;
      }
      push(s, VL_F_VANQUISH, player, realm);
      return true;
    }
    if (op == VL_OP_LOOK_FATE && f->step == 0) {
      look_fate(s, t, f);
      if (f->n_list == 0)
        pop(s);
      return true;
    }
    if (op == VL_OP_SEARCH && f->e.card >= 0) {
      effect_options(s, f, &p);
      if (p.n == 0) {
        tell_nothing(s, t, f);
        pop(s);
        return true;
      }
      return false; /* one option: run() takes it */
    }
    if (!op_chooses(op) && op != VL_OP_LOOK_FATE) {
      vl_frame copy = *f;
      pop(s);
      effect_do(s, t, &copy);
      return true;
    }
    frame_options(s, f, &p);
    if (p.n == 0) {
      if (op != VL_OP_LOOK_FATE)
        tell_nothing(s, t, f);
      pop(s);
      return true;
    }
    return false;
  }
  case VL_F_FATE:
    if (f->step == 0 && SHARED(s)) {
      int c = reveal_fate(s, t, f->player);
      if (c < 0) {
        SAY(t, -1,
            "The fate deck and its discard pile are empty: the Fate action "
            "reveals nothing.");
        pop(s);
        return true;
      }
      f->list[0] = (uint16_t)c;
      f->n_list = 1;
      f->step = 1;
      if (TELLING(t)) {
        char sum[96];
        vl_card_summary(C(s, c), sum, sizeof sum);
        SAY(t, -1, "Villain %d revealed %s (%s) from the fate deck.",
            f->player + 1, nm(s, c), sum);
      }
      if (is_kind(s, c, VL_K_EVENT)) {
        int actor = f->player;
        pop(s);
        event_revealed(s, t, actor, c);
      }
      return true;
    }
    if (f->step == 0) {
      int n = PROF(s)->fate_mode == VL_FATE_OWN_TWO ? 2 : 1;
      int got[2], k = 0;
      for (int j = 0; j < n; j++) {
        int c = reveal_fate(s, t, f->realm);
        if (c >= 0) {
          got[k++] = c;
          f->list[f->n_list++] = (uint16_t)c;
        }
      }
      f->step = 1;
      if (k == 0) {
        SAY(t, -1,
            "Villain %d's fate deck and discard pile are empty: the "
            "Fate action reveals nothing.",
            f->realm + 1);
        pop(s);
      } else if (TELLING(t)) {
        char a[96], b[200] = "";
        vl_card_summary(C(s, got[0]), a, sizeof a);
        if (k > 1) {
          char sum[80];
          vl_card_summary(C(s, got[1]), sum, sizeof sum);
          snprintf(b, sizeof b, " and %s (%s)", nm(s, got[1]), sum);
        }
        SAY(t, -1,
            "Villain %d revealed %s (%s)%s from Villain %d's fate "
            "deck.",
            f->player + 1, nm(s, got[0]), a, b, f->realm + 1);
      }
      return true;
    }
    return false;
  case VL_F_FINISH: {
    int i = f->a;
    pop(s);
    if (s->w[i].zone == VL_Z_PLAYING)
      to_discard(s, i);
    return true;
  }
  case VL_F_PLACE:
  case VL_F_VANQUISH:
  case VL_F_DISCARD:
  case VL_F_WINDOW:
  case VL_F_COUNT:
    break;
  }
  frame_options(s, f, &p);
  if (p.n == 0) { /* nothing left to choose (a rules slip): drop it */
    pop(s);
    return true;
  }
  return false;
}

/* Opens the next Condition window after the current player's action,
 * with the first villain clockwise after `after` whose deck holds a
 * Condition that fits. A window depends only on what the action did and
 * on the deck lists, never on a hand, so holding a Condition and not
 * holding one look and wait alike. Returns true when one opened. */
static bool next_window(vl_state *s, int after) {
  if (!PROF(s)->conditions)
    return false;
  for (int k = 1; k < s->players; k++) {
    int seat = (after + k) % s->players;
    if (seat == s->current)
      break;
    if (window_for(s, seat)) {
      push(s, VL_F_WINDOW, seat, seat);
      return true;
    }
  }
  return false;
}

/* Begins an action of the current player: what it does is recorded anew
 * for the Conditions that may answer it. */
static void begin_action(vl_state *s) {
  s->acting = 1;
  s->fired = 0;
  s->fired_ally = 0;
  s->fated = 0;
  s->discarded = 0;
  s->power_before = s->seat[s->current].power;
}

static void begin_game(vl_state *s, told *t);

static bool phase_auto(vl_state *s, told *t) {
  int me = s->current;
  switch ((vl_phase)s->phase) {
  case VL_PH_START:
    SAY(t, -1, "Villain %d's turn begins (turn %d, round %d).", me + 1,
        (int)s->turn, s->round);
    if (objective_met(s, me, true)) {
      end_game(s, t, VL_END_OBJECTIVE, 1u << me);
      return true;
    }
    if (s->round > VL_ROUND_LIMIT) {
      end_game(s, t, VL_END_ROUNDS, 0);
      return true;
    }
    s->used = 0;
    s->once = 0;
    s->phase = VL_PH_MOVE;
    begin_action(s);
    fire_realm(s, me, VL_W_TURN_START, -1);
    return true;
  case VL_PH_END: {
    int need = VL_HAND - hand_size(s, me);
    if (need > 0)
      draw_cards(s, t, me, need);
    s->current = (uint8_t)((me + 1) % s->players);
    s->turn++;
    if (s->current == s->first)
      s->round++;
    s->used = 0;
    s->phase = VL_PH_START;
    return true;
  }
  case VL_PH_CHOOSE:
  case VL_PH_MOVE:
  case VL_PH_ACTIONS:
  case VL_PH_OVER:
    break;
  }
  return false;
}

static void do_answer(vl_state *s, told *t, uint32_t code);

/* Runs the automatic work until a decision is due or the game ends. */
static void run(vl_state *s, told *t) {
  for (int guard = 0; guard < 10000 && !s->overflow; guard++) {
    check_objectives(s, t);
    if (s->over)
      return;
    if (s->sp > 0) {
      if (frame_auto(s, t))
        continue;
      eng_prompt p;
      bool autom = options(s, &p);
      if (autom && p.n == 1) {
        do_answer(s, t, p.code[0]);
        continue;
      }
      return;
    }
    if (s->acting) { /* the action is done: Conditions may answer it */
      s->acting = 0;
      s->power_after = s->seat[s->current].power;
      if (next_window(s, s->current))
        continue;
    }
    if (phase_auto(s, t))
      continue;
    eng_prompt p;
    bool autom = options(s, &p);
    if (autom && p.n == 1 && s->phase != VL_PH_CHOOSE) {
      do_answer(s, t, p.code[0]);
      continue;
    }
    return;
  }
  s->overflow = 1; /* a loop without a decision: a rules bug */
}

/* ---- answers ----------------------------------------------------------------
 */

/* Discards card i from seat's hand, face up, and tells it. */
static void discard_from_hand(vl_state *s, told *t, int seat, int i,
                              const char *why) {
  to_discard(s, i);
  SAY(t, -1, "Villain %d discarded %s%s.", seat + 1, nm(s, i), why);
}

static void effect_answer(vl_state *s, told *t, vl_frame *f, uint32_t code) {
  int type = VL_OPT_TYPE(code), a = VL_OPT_A(code);
  int r = f->realm, player = f->player;
  const vl_effect *e = &f->e;
  char src[64] = "";
  if (TELLING(t))
    src_text(s, f->src, src, sizeof src);
  if (type == VL_OPT_SKIP) {
    SAY(t, -1, "Villain %d chose not to use %s optional effect.", player + 1,
        src);
    pop(s);
    return;
  }
  if (e->may && !f->asked) {
    f->asked = 1;
    if (type == VL_OPT_DONE) {
      SAY(t, -1, "Villain %d chose to use %s optional effect.", player + 1,
          src);
      return; /* frame_auto does it */
    }
  }
  switch ((vl_op)e->op) {
  case VL_OP_DISCARD_CARDS:
    discard_from_hand(s, t, r, a, "");
    f->step++;
    if (f->step >= e->n || hand_size(s, r) == 0)
      pop(s);
    return;
  case VL_OP_PLAY_FREE:
  case VL_OP_PLAY_DISCARD:
    pop(s);
    play_card(s, t, r, a, true,
              e->op == VL_OP_PLAY_FREE ? VL_Z_HAND : VL_Z_VDISC);
    return;
  case VL_OP_TAKE_DISCARD:
    pop(s);
    unpile(s, a);
    put(s, a, VL_Z_HAND, r, 0);
    SAY(t, -1, "Villain %d took %s from their discard pile into their hand.",
        r + 1, nm(s, a));
    return;
  case VL_OP_SEARCH: {
    pop(s);
    bool deck = s->w[a].zone == VL_Z_VDECK;
    unpile(s, a);
    put(s, a, VL_Z_HAND, r, 0);
    shuffle_searched(s, t, &s->vdeck[r]);
    /* A card the effect names, or one from the open discard pile, is no
     * secret; one of a kind found in the deck is its finder's. */
    if (!deck || e->card >= 0) {
      if (deck)
        show(t, a);
      SAY(t, -1,
          "Villain %d searched their %s and took %s into their "
          "hand; the villain deck was shuffled.",
          r + 1, deck ? "villain deck" : "discard pile", nm(s, a));
    } else {
      SAY(t, -1,
          "Villain %d searched their villain deck for a card of "
          "the kind %s, took one into their hand and shuffled the "
          "deck.",
          r + 1, C(s, a)->kind_name);
      SAY(t, r, "You took %s.", nm(s, a));
    }
    return;
  }
  case VL_OP_MOVE_HERO:
  case VL_OP_MOVE_ALLY:
    if (f->step == 0) {
      f->a = (uint16_t)a;
      f->step = 1;
      SAY(t, -1, "Villain %d is moving %s with %s ability.", player + 1,
          nm(s, a), src);
      return;
    }
    {
      int card = f->a, from = s->w[card].loc;
      bool hero = e->op == VL_OP_MOVE_HERO;
      pop(s);
      if (!hero && away_ally(s, r, card)) {
        int host = s->w[card].seat;
        SAY(t, -1, "Villain %d called %s home from %s in Villain %d's domain "
            "to %s.", player + 1, nm(s, card), loc_nm(s, host, from),
            host + 1, loc_nm(s, r, a));
        send_to(s, t, card, a);
        return;
      }
      relocate(s, card, a);
      SAY(t, -1, "Villain %d moved %s from %s to %s.", player + 1, nm(s, card),
          loc_nm(s, r, from), loc_nm(s, r, a));
      if (hero) {
        if (player == s->current && r == s->current)
          fired(s, VL_T_OPP_MOVE_HERO);
        hero_arrived(s, r, a);
      }
    }
    return;
  case VL_OP_DEFEAT_HERO: {
    pop(s);
    char how[120];
    snprintf(how, sizeof how, "defeated, with %s ability,", src);
    defeat_hero(s, t, a, NULL, 0, how);
    return;
  }
  case VL_OP_FATE:
    pop(s);
    start_fate(s, t, r, a);
    return;
  case VL_OP_LOOK_FATE:
    if (type == VL_OPT_DONE) {
      SAY(t, -1,
          "Villain %d put the other looked-at cards back on %s fate deck.",
          r + 1, SHARED(s) ? "the" : "their");
      pop(s);
      return;
    }
    eng_pile_remove(&s->fdeck[FP(s, r)], (uint16_t)a);
    to_discard(s, a);
    SAY(t, -1, "Villain %d discarded %s from the top of %s fate deck.", r + 1,
        nm(s, a), SHARED(s) ? "the" : "their");
    for (int k = 0; k < f->n_list; k++)
      if (f->list[k] == a) {
        f->list[k] = f->list[--f->n_list];
        break;
      }
    if (f->n_list == 0)
      pop(s);
    return;
  case VL_OP_RETURN_ALLY: {
    pop(s);
    drop_attached(s, a);
    put(s, a, VL_Z_HAND, r, 0);
    SAY(t, -1, "Villain %d returned %s to their hand.", r + 1, nm(s, a));
    return;
  }
  case VL_OP_REMOVE_ALLY:
  case VL_OP_REMOVE_CARD:
    pop(s);
    SAY(t, -1,
        "%s from Villain %d's %s went to the discard pile (%s ability).",
        nm(s, a), r + 1, REALM(s), src);
    leave_realm(s, a);
    return;
  case VL_OP_FIND_HERO: {
    pop(s);
    int h = find_hero_inst(s, r, e->card);
    if (h < 0)
      return;
    if (s->w[h].zone == VL_Z_TOP) {
      int from = s->w[h].loc;
      drop_attached(s, h);
      relocate(s, h, a);
      SAY(t, -1, "Villain %d found %s at %s and moved them to %s.", player + 1,
          nm(s, h), loc_nm(s, r, from), loc_nm(s, r, a));
      hero_arrived(s, r, a);
      return;
    }
    bool deck = s->w[h].zone == VL_Z_FDECK;
    unpile(s, h);
    if (deck)
      shuffle_searched(s, t, &s->fdeck[FP(s, r)]);
    place(s, h, r, a, VL_NONE);
    SAY(t, -1,
        "Villain %d found %s in Villain %d's fate %s and played them "
        "at %s%s.",
        player + 1, nm(s, h), r + 1, deck ? "deck" : "discard pile",
        loc_nm(s, r, a), deck ? " (the fate deck was shuffled)" : "");
    hero_arrived(s, r, a);
    push_when(s, h, VL_W_PLAYED, player, r);
    return;
  }
  case VL_OP_HOOK:
    switch ((vl_hook)e->hook) {
    case VL_H_SWAP_HEROES:
      if (f->step == 0) {
        f->a = (uint16_t)a;
        f->step = 1;
        SAY(t, -1, "Villain %d chose %s to trade places with another Hero.",
            player + 1, nm(s, a));
        return;
      }
      {
        int x = f->a, lx = s->w[x].loc, ly = s->w[a].loc;
        pop(s);
        relocate(s, x, ly);
        relocate(s, a, lx);
        SAY(t, -1, "%s and %s traded places: %s is now at %s, %s at %s.",
            nm(s, x), nm(s, a), nm(s, x), loc_nm(s, r, ly), nm(s, a),
            loc_nm(s, r, lx));
        hero_arrived(s, r, lx);
        hero_arrived(s, r, ly);
      }
      return;
    case VL_H_COUNT:
      break;
    }
    pop(s);
    return;
  case VL_OP_TOKEN:
    pop(s);
    s->tok[a] = (int8_t)(s->tok[a] + e->n);
    SAY(t, -1,
        "Villain %d put a %+d Strength token on %s with %s ability "
        "(Strength now %d).",
        player + 1, e->n, nm(s, a), src, vl_strength(s, a));
    return;
  case VL_OP_STONE:
    if (in_realm(s, a, r)) {
      pop(s);
      stone_enters(s, t, r, a, 0);
      return;
    }
    /* An Ally from the hand comes into play for free to carry it. */
    f->step = 1;
    f->a = (uint16_t)a;
    SAY(t, -1,
        "Villain %d has no Ally in play to carry the Stone and plays one "
        "from their hand for free.",
        r + 1);
    {
      vl_frame *pl = push(s, VL_F_PLACE, r, r);
      if (pl) {
        pl->a = (uint16_t)a;
        pl->free = 1;
        pl->from = VL_Z_HAND;
        pl->b = 1;
      }
    }
    return;
  case VL_OP_GIVE_STONE: {
    vl_effect take = *e;
    int src_card = f->src;
    pop(s);
    SAY(t, -1, "Villain %d gives Villain %d a Stone with %s ability.",
        player + 1, a + 1, src);
    take.op = VL_OP_STONE;
    vl_frame *g = push(s, VL_F_EFFECT, a, a);
    if (g) {
      g->e = take;
      g->src = (uint16_t)src_card;
    }
    return;
  }
  case VL_OP_GAIN_POWER:
  case VL_OP_LOSE_POWER:
  case VL_OP_DRAW:
  case VL_OP_VANQUISH:
  case VL_OP_UNLOCK:
  case VL_OP_GAIN_PER:
  case VL_OP_TRACK:
  case VL_OP_PLAY_FATE_TOP:
  case VL_OP_COUNT:
    break;
  }
}

static void frame_answer(vl_state *s, told *t, uint32_t code) {
  vl_frame *f = top(s);
  int type = VL_OPT_TYPE(code), a = VL_OPT_A(code);
  switch ((vl_frame_kind)f->kind) {
  case VL_F_EFFECT:
    effect_answer(s, t, f, code);
    return;
  case VL_F_PLACE: {
    vl_frame copy = *f;
    pop(s);
    if (type == VL_OPT_PICK)
      place_card(s, t, &copy, s->w[a].loc, a);
    else
      place_card(s, t, &copy, a, VL_NONE);
    return;
  }
  case VL_F_VANQUISH:
    if (f->a == VL_NONE) {
      f->a = (uint16_t)a;
      SAY(t, -1, "Villain %d will vanquish %s (Strength %d) at %s.",
          f->realm + 1, nm(s, a), vl_strength(s, a),
          loc_nm(s, f->realm, s->w[a].loc));
      if (vl_strength(s, a) == 0) { /* no Ally needed, none discarded */
        int h = f->a;
        pop(s);
        defeat_hero(s, t, h, NULL, 0, "vanquished");
      }
      return;
    }
    if (type == VL_OPT_PICK) {
      f->list[f->n_list++] = (uint16_t)a;
      SAY(t, -1, "Villain %d sends %s (Strength %d) against %s: %d of %d.",
          f->realm + 1, nm(s, a), vl_strength(s, a), nm(s, f->a),
          chosen_strength(s, f), vl_strength(s, f->a));
      return;
    }
    {
      vl_frame copy = *f;
      int used[VL_LIST];
      for (int k = 0; k < copy.n_list; k++)
        used[k] = copy.list[k];
      pop(s);
      defeat_hero(s, t, copy.a, used, copy.n_list, "vanquished");
    }
    return;
  case VL_F_FATE: {
    int actor = f->player, target = f->realm;
    if (SHARED(s)) {
      int c = f->list[0];
      pop(s);
      SAY(t, -1, "Villain %d plays %s against Villain %d.", actor + 1,
          nm(s, c), a + 1);
      play_fate_card(s, t, actor, a, c);
      return;
    }
    for (int k = 0; k < f->n_list; k++)
      if (f->list[k] != a) {
        to_discard(s, f->list[k]);
        SAY(t, -1, "Villain %d put %s on Villain %d's fate discard pile.",
            actor + 1, nm(s, f->list[k]), target + 1);
      }
    if (f->n_list < 2)
      SAY(t, -1, "Villain %d plays %s.", actor + 1, nm(s, a));
    pop(s);
    play_fate_card(s, t, actor, target, a);
    return;
  }
  case VL_F_DISCARD:
    if (type == VL_OPT_DONE) {
      if (f->step == 0)
        SAY(t, -1, "Villain %d discarded no card.", f->player + 1);
      else
        SAY(t, -1, "Villain %d is done discarding (%d card%s).", f->player + 1,
            f->step, f->step == 1 ? "" : "s");
      s->discarded = f->step;
      if (f->step > 0)
        fired(s, VL_T_OPP_DISCARD);
      pop(s);
      return;
    }
    discard_from_hand(s, t, f->player, a, "");
    f->step++;
    return;
  case VL_F_WINDOW: {
    int seat = f->player;
    pop(s);
    if (type == VL_OPT_PASS) {
      SAY(t, -1, "Villain %d played no Condition.", seat + 1);
      next_window(s, seat);
      return;
    }
    next_window(s, seat);
    put(s, a, VL_Z_PLAYING, seat, 0);
    SAY(t, -1, "Villain %d played the Condition %s: %s", seat + 1, nm(s, a),
        text_of(s, a));
    vl_frame *fin = push(s, VL_F_FINISH, seat, seat);
    if (fin)
      fin->a = (uint16_t)a;
    push_ability(s, a, &C(s, a)->ab[0], seat, seat);
    return;
  }
  case VL_F_FINISH:
  case VL_F_COUNT:
    return;
  }
}

/* "Gain 2 Power, Play a Card (covered), ..." for the mover's new place. */
static void actions_text(const vl_state *s, int seat, int loc, char *buf,
                         size_t cap) {
  const vl_location *l = &vl_villain_of(s, seat)->loc[loc];
  bool covered = vl_covered(s, seat, loc);
  size_t o = 0;
  buf[0] = '\0';
  for (int k = 0; k < l->n && o < cap; k++)
    o += (size_t)snprintf(buf + o, cap - o, "%s%s%s", k ? ", " : "",
                          vl_action_label(l->a[k].kind),
                          covered && k < l->n_top ? " (covered)" : "");
}

static void do_answer(vl_state *s, told *t, uint32_t code) {
  if (s->sp > 0) {
    frame_answer(s, t, code);
    return;
  }
  int me = s->current, a = VL_OPT_A(code), b = VL_OPT_B(code);
  switch (VL_OPT_TYPE(code)) {
  case VL_OPT_VILLAIN: {
    int seat = s->chooser;
    s->seat[seat].villain = (int8_t)a;
    const vl_villain *v = &vl_data_of(s)->v[a];
    SAY(t, -1, "Villain %d chose %s. Objective: %s", seat + 1, v->name,
        v->obj.text);
    s->chooser++;
    if (s->chooser >= s->players)
      begin_game(s, t);
    return;
  }
  case VL_OPT_MOVE: {
    s->seat[me].mover = (uint8_t)a;
    s->used = 0;
    s->phase = VL_PH_ACTIONS;
    begin_action(s);
    if (TELLING(t)) {
      char acts[200];
      actions_text(s, me, a, acts, sizeof acts);
      SAY(t, -1, "Villain %d moved to %s: %s.", me + 1, loc_nm(s, me, a), acts);
    }
    fire_realm(s, me, VL_W_ARRIVE, a);
    return;
  }
  case VL_OPT_END:
    SAY(t, -1, "Villain %d ended their turn.", me + 1);
    s->phase = VL_PH_END;
    return;
  default:
    break;
  }
  /* Every other answer is an action at the mover's location. */
  begin_action(s);
  const vl_location *l = &vl_villain_of(s, me)->loc[s->seat[me].mover];
  switch (VL_OPT_TYPE(code)) {
  case VL_OPT_GAIN: {
    s->used |= (uint8_t)(1u << a);
    int n =
        gain_amount(s, me, s->seat[me].mover, l->a[a].kind - VL_A_GAIN_1 + 1);
    s->seat[me].power = (int16_t)(s->seat[me].power + n);
    SAY(t, -1, "Villain %d gained %d Power (now %d).", me + 1, n,
        s->seat[me].power);
    return;
  }
  case VL_OPT_PLAY:
    s->used |= (uint8_t)(1u << open_slot(s, VL_A_PLAY));
    play_card(s, t, me, a, false, VL_Z_HAND);
    return;
  case VL_OPT_ACTIVATE: {
    s->used |= (uint8_t)(1u << open_slot(s, VL_A_ACTIVATE));
    const vl_ability *ab = activation(s, me, a);
    if (!ab)
      return;
    s->once |= once_bit(s, a);
    s->seat[me].power = (int16_t)(s->seat[me].power - ab->cost);
    if (TELLING(t)) {
      char paid[48] = "";
      if (ab->cost)
        snprintf(paid, sizeof paid, ", paying %d Power (%d left)", ab->cost,
                 s->seat[me].power);
      SAY(t, -1, "Villain %d activated %s at %s%s.", me + 1, nm(s, a),
          place_nm(s, a), paid);
    }
    fired(s, VL_T_OPP_ACTIVATE);
    push_ability(s, a, ab, me, me);
    return;
  }
  case VL_OPT_MOVE_ALLY:
  case VL_OPT_MOVE_HERO: {
    bool hero = VL_OPT_TYPE(code) == VL_OPT_MOVE_HERO;
    s->used |=
        (uint8_t)(1u << open_slot(s, hero ? VL_A_MOVE_HERO : VL_A_MOVE_ALLY));
    if (SHARED(s) && !hero) {
      char from[48];
      snprintf(from, sizeof from, "%s", place_nm(s, a));
      int fseat = s->w[a].seat;
      if (b >= DEST_EVENT)
        SAY(t, -1, "Villain %d relocated %s from %s to the Event %s.", me + 1,
            nm(s, a), from, nm(s, b - DEST_EVENT));
      else if (b >= DEST_OTHER)
        SAY(t, -1,
            "Villain %d relocated %s from %s to the top of Villain %d's "
            "domain at %s: it covers the actions there.",
            me + 1, nm(s, a), from, (b - DEST_OTHER) / VL_LOCS + 1,
            loc_nm(s, (b - DEST_OTHER) / VL_LOCS, (b - DEST_OTHER) % VL_LOCS));
      else if (fseat != me)
        SAY(t, -1,
            "Villain %d relocated %s from Villain %d's domain (%s) home to "
            "%s.",
            me + 1, nm(s, a), fseat + 1, from, loc_nm(s, me, b));
      else
        SAY(t, -1, "Villain %d relocated %s from %s to %s.", me + 1, nm(s, a),
            from, loc_nm(s, me, b));
      send_to(s, t, a, b);
      return;
    }
    int from = s->w[a].loc;
    relocate(s, a, b);
    SAY(t, -1, "Villain %d moved %s from %s to %s.", me + 1, nm(s, a),
        loc_nm(s, me, from), loc_nm(s, me, b));
    if (hero) {
      fired(s, VL_T_OPP_MOVE_HERO);
      hero_arrived(s, me, b);
    }
    return;
  }
  case VL_OPT_VANQUISH: {
    s->used |= (uint8_t)(1u << open_slot(s, VL_A_VANQUISH));
    vl_frame *f = push(s, VL_F_VANQUISH, me, me);
    if (!f)
      return;
    f->a = (uint16_t)a;
    SAY(t, -1, "Villain %d sets out to vanquish %s (Strength %d) at %s.",
        me + 1, nm(s, a), vl_strength(s, a), loc_nm(s, me, s->w[a].loc));
    if (vl_strength(s, a) == 0) {
      pop(s);
      defeat_hero(s, t, a, NULL, 0, "vanquished");
    }
    return;
  }
  case VL_OPT_FATE:
    s->used |= (uint8_t)(1u << open_slot(s, VL_A_FATE));
    start_fate(s, t, me, a);
    return;
  case VL_OPT_DISCARD:
    s->used |= (uint8_t)(1u << open_slot(s, VL_A_DISCARD));
    SAY(t, -1, "Villain %d is discarding cards.", me + 1);
    push(s, VL_F_DISCARD, me, me);
    return;
  default:
    return;
  }
}

/* ---- setting up ------------------------------------------------------------
 */

/* Every villain chosen: decks shuffled, locks, movers, hands, Power. */
static void begin_game(vl_state *s, told *t) {
  const vl_profile *pr = PROF(s);
  for (int p = 0; p < s->players; p++) {
    const vl_villain *v = vl_villain_of(s, p);
    for (int k = 0; k < VL_VDECK; k++) {
      put(s, BLK(p) + k, VL_Z_VDECK, p, 0);
      eng_pile_push(&s->vdeck[p], (uint16_t)(BLK(p) + k));
    }
    for (int k = 0; k < v->n_fate; k++) {
      int i = BLK(p) + VL_VDECK + k;
      if (SHARED(s) && is_kind(s, i, VL_K_EVENT) && s->events == VL_EV_NONE)
        continue; /* Omnipotent: Events stay in the box */
      put(s, i, VL_Z_FDECK, FP(s, p), 0);
      eng_pile_push(&s->fdeck[FP(s, p)], (uint16_t)i);
    }
    eng_pile_shuffle(&s->vdeck[p], &s->rng);
    if (!SHARED(s))
      eng_pile_shuffle(&s->fdeck[p], &s->rng);
    s->seat[p].locked = 0;
    for (int l = 0; l < VL_LOCS; l++)
      if (v->loc[l].locked)
        s->seat[p].locked |= (uint8_t)(1u << l);
    s->seat[p].mover = PROF(s)->portrait ? VL_PORTRAIT : 0;
    s->seat[p].pos = (uint8_t)((p - s->first + s->players) % s->players);
    s->seat[p].power = pr->start_power[s->seat[p].pos];
  }
  if (SHARED(s)) {
    /* One fate deck: every villain's part and the common part; the
     * Stones wait in the centre. */
    const vl_data *d = vl_data_of(s);
    for (int k = 0; k < d->n_common; k++) {
      int i = vl_common_base(s) + k;
      if (vl_is_stone(s, i)) {
        put(s, i, VL_Z_CENTRE, 0, 0);
      } else if (!(is_kind(s, i, VL_K_EVENT) && s->events == VL_EV_NONE)) {
        put(s, i, VL_Z_FDECK, 0, 0);
        eng_pile_push(&s->fdeck[0], (uint16_t)i);
      }
    }
    eng_pile_shuffle(&s->fdeck[0], &s->rng);
    SAY(t, -1,
        "Every villain shuffles their villain deck and draws 4 cards; their "
        "fate parts and the common part make one fate deck of %d cards%s. "
        "Villain %d goes first; Power to start: 0 for the first player, then "
        "1, 2, 2 in turn order.",
        s->fdeck[0].n,
        s->events == VL_EV_NONE ? " (Omnipotent: without Events)" : "",
        s->first + 1);
  } else {
    SAY(t, -1,
        "Every villain shuffles their decks and draws 4 cards. Villain "
        "%d goes first; Power to start: 0 for the first player, then "
        "1, 2, 2, 3, 3 in turn order.",
        s->first + 1);
  }
  for (int p = 0; p < s->players; p++) {
    int k = (s->first + p) % s->players;
    draw_cards(s, t, k, VL_HAND);
  }
  s->current = s->first;
  s->turn = 1;
  s->round = 1;
  s->phase = VL_PH_START;
}

/* The Marvel modes: how Events are played, each with "-random" for
 * villains dealt at random. */
static const char *const marvel_modes[] = {
    "inevitable",        "omnipotent",        "undying",
    "inevitable-random", "omnipotent-random", "undying-random",
    "random",            NULL};

static eng_rc parse_mode(vl_state *s, const char *mode) {
  if (SHARED(s)) {
    s->events = VL_EV_ONE;
    if (!mode[0])
      return ENG_OK;
    for (int k = 0; marvel_modes[k]; k++)
      if (strcmp(mode, marvel_modes[k]) == 0) {
        s->random_deal = strstr(mode, "random") != NULL;
        s->events = strncmp(mode, "omnipotent", 10) == 0 ? VL_EV_NONE
                    : strncmp(mode, "undying", 7) == 0   ? VL_EV_MANY
                                                         : VL_EV_ONE;
        return ENG_OK;
      }
    return ENG_BAD_MODE;
  }
  if (!mode[0] || strcmp(mode, "choose") == 0)
    return ENG_OK;
  if (strcmp(mode, "random") == 0) {
    s->random_deal = 1;
    return ENG_OK;
  }
  return ENG_BAD_MODE;
}

static eng_rc setup_profile(void *st, const eng_config *cfg, uint64_t seed,
                            int profile) {
  vl_state *s = st;
  if (!vl_data_get(profile))
    return ENG_INTERNAL;
  memset(s, 0, sizeof *s);
  s->profile = (uint8_t)profile;
  const vl_profile *pr = PROF(s);
  if (cfg->players < pr->min_players || cfg->players > pr->max_players ||
      cfg->players > vl_data_of(s)->n)
    return ENG_BAD_PLAYERS;
  s->players = (uint8_t)cfg->players;
  eng_rc rc = parse_mode(s, cfg->mode);
  if (rc)
    return rc;
  snprintf(s->mode, sizeof s->mode, "%s",
           cfg->mode[0]  ? cfg->mode
           : SHARED(s)   ? "inevitable"
                         : "choose");
  eng_rng_seed(&s->rng, seed, 0);
  for (int i = 0; i < VL_N; i++) {
    s->w[i].zone = VL_Z_NONE;
    s->w[i].host = VL_NONE;
  }
  for (int p = 0; p < VL_SEATS; p++)
    s->seat[p].villain = -1;
  s->fate_token = 0xff;
  s->first =
      (uint8_t)(cfg->first >= 0 ? cfg->first
                                : (int)eng_rng_below(&s->rng, s->players));
  told t = {0}; /* nobody listens to the setup */
  if (s->random_deal) {
    eng_pile order = {0};
    for (int v = 0; v < vl_data_of(s)->n; v++)
      eng_pile_push(&order, (uint16_t)v);
    eng_pile_shuffle(&order, &s->rng);
    for (int p = 0; p < s->players; p++)
      s->seat[p].villain = (int8_t)order.c[p];
    s->chooser = s->players;
    begin_game(s, &t);
  } else {
    /* Choosing villains belongs to the first turn: the table reads it as
     * the game's opening, not as a turn 0. */
    s->turn = 1;
    s->phase = VL_PH_CHOOSE;
    s->chooser = 0;
  }
  run(s, &t);
  return s->overflow ? ENG_INTERNAL : ENG_OK;
}

static eng_rc vl_setup(void *st, const eng_config *cfg, uint64_t seed) {
  return setup_profile(st, cfg, seed, VL_PROFILE_DISNEY);
}

static eng_rc mv_setup(void *st, const eng_config *cfg, uint64_t seed) {
  return setup_profile(st, cfg, seed, VL_PROFILE_MARVEL);
}

static void vl_prompt(const void *st, eng_prompt *p) { options(st, p); }

eng_rc vl_apply_traced(void *st, uint32_t code, unsigned *flags, eng_events *ev,
                       uint8_t *shown) {
  vl_state *s = st;
  if (s->over)
    return ENG_GAME_OVER;
  told t = {.ev = ev, .shown = shown};
  do_answer(s, &t, code);
  run(s, &t);
  *flags |= t.fl;
  return s->overflow ? ENG_INTERNAL : ENG_OK;
}

static eng_rc vl_apply(void *st, uint32_t code, unsigned *flags,
                       eng_events *ev) {
  return vl_apply_traced(st, code, flags, ev, NULL);
}

/* The index of the "pass" option when p is a Condition window. */
static int vl_pass_option(const void *st, const eng_prompt *p) {
  const vl_state *s = st;
  if (s->over || s->sp == 0 || s->stack[s->sp - 1].kind != VL_F_WINDOW)
    return -1;
  for (int i = 0; i < p->n; i++)
    if (VL_OPT_TYPE(p->code[i]) == VL_OPT_PASS)
      return i;
  return -1;
}

static void vl_result(const void *st, eng_result *r) {
  const vl_state *s = st;
  memset(r, 0, sizeof *r);
  r->over = s->over;
  r->winners = s->winners;
  for (int p = 0; p < s->players; p++) {
    r->score[p] = vl_progress(s, p);
    const vl_villain *v = vl_villain_of(s, p);
    if (v) {
      snprintf(r->side[p], sizeof r->side[p], "%s", v->id);
      snprintf(r->side_name[p], sizeof r->side_name[p], "%s", v->name);
    }
  }
  snprintf(r->reason, sizeof r->reason, "%s", vl_end_name(s));
}

static json_t *vl_cards_list(void) {
  const vl_data *d = vl_data_get(VL_PROFILE_DISNEY);
  return d ? vl_cards_json(d) : NULL;
}

static char *vl_cards_md(void) {
  const vl_data *d = vl_data_get(VL_PROFILE_DISNEY);
  return d ? vl_cards_markdown(d) : NULL;
}

static json_t *mv_cards_list(void) {
  const vl_data *d = vl_data_get(VL_PROFILE_MARVEL);
  return d ? vl_cards_json(d) : NULL;
}

static char *mv_cards_md(void) {
  const vl_data *d = vl_data_get(VL_PROFILE_MARVEL);
  return d ? vl_cards_markdown(d) : NULL;
}

/* ---- questions and options for people
 * ---------------------------------------- */

/* What an effect does, as a verb phrase ("gain 2 Power"). */
static void op_text(const vl_state *s, const vl_frame *f, char *buf,
                    size_t cap) {
  const vl_effect *e = &f->e;
  switch ((vl_op)e->op) {
  case VL_OP_GAIN_POWER:
    snprintf(buf, cap, "gain %d Power", e->n);
    return;
  case VL_OP_LOSE_POWER:
    snprintf(buf, cap, "lose %d Power", e->n);
    return;
  case VL_OP_DRAW:
    snprintf(buf, cap, "draw %d card%s", e->n, e->n == 1 ? "" : "s");
    return;
  case VL_OP_DISCARD_CARDS:
    snprintf(buf, cap, "discard a card (%d of %d)", f->step + 1, e->n);
    return;
  case VL_OP_PLAY_FREE:
    snprintf(buf, cap, "play a card from your hand for free");
    return;
  case VL_OP_PLAY_DISCARD:
    snprintf(buf, cap, "play a card from your discard pile for free");
    return;
  case VL_OP_TAKE_DISCARD:
    snprintf(buf, cap, "take a card from your discard pile into your hand");
    return;
  case VL_OP_SEARCH:
    snprintf(buf, cap, "take which card into your hand");
    return;
  case VL_OP_MOVE_HERO:
  case VL_OP_MOVE_ALLY:
    if (f->step == 1)
      snprintf(buf, cap, "move %s where", nm(s, f->a));
    else
      snprintf(buf, cap, "move which %s",
               e->op == VL_OP_MOVE_HERO ? "Hero" : "Ally");
    return;
  case VL_OP_DEFEAT_HERO:
    snprintf(buf, cap, "defeat which Hero");
    return;
  case VL_OP_VANQUISH:
    snprintf(buf, cap, "vanquish a Hero");
    return;
  case VL_OP_FATE:
    snprintf(buf, cap, "perform a Fate action against whom");
    return;
  case VL_OP_UNLOCK:
    snprintf(buf, cap, "remove your lock token");
    return;
  case VL_OP_LOOK_FATE:
    if (f->step == 1)
      snprintf(buf, cap,
               "discard any of the cards you looked at (Done "
               "keeps the rest on top)");
    else
      snprintf(buf, cap, "look at the top %d card%s of your fate deck", e->n,
               e->n == 1 ? "" : "s");
    return;
  case VL_OP_RETURN_ALLY:
    snprintf(buf, cap, "return which Ally to your hand");
    return;
  case VL_OP_GAIN_PER:
    snprintf(buf, cap, "gain %d Power for each %s in your realm", e->n,
             vl_kind_name(e->kind));
    return;
  case VL_OP_TRACK:
    snprintf(buf, cap, "move your track by %d", e->n);
    return;
  case VL_OP_REMOVE_ALLY:
    snprintf(buf, cap, "which Ally of Villain %d goes to the discard pile",
             f->realm + 1);
    return;
  case VL_OP_REMOVE_CARD:
    snprintf(buf, cap, "which card of Villain %d goes to the discard pile",
             f->realm + 1);
    return;
  case VL_OP_FIND_HERO:
    snprintf(buf, cap, "play %s at which location",
             vl_villain_of(s, f->realm)->defs[e->card].name);
    return;
  case VL_OP_PLAY_FATE_TOP:
    snprintf(buf, cap, "play the top card of your fate deck");
    return;
  case VL_OP_HOOK:
    snprintf(buf, cap, "%s",
             f->step == 1 ? "trade places with which Hero"
                          : "which Hero trades places with another");
    return;
  case VL_OP_TOKEN:
    snprintf(buf, cap, "put a %+d Strength token on which %s", e->n,
             e->kind == VL_K_HERO ? "Hero" : "Ally");
    return;
  case VL_OP_STONE:
    snprintf(buf, cap, "which of your Allies carries the Stone");
    return;
  case VL_OP_GIVE_STONE:
    snprintf(buf, cap, "which opponent takes a Stone");
    return;
  case VL_OP_COUNT:
    break;
  }
  snprintf(buf, cap, "decide");
}

/* What the current player's action did, for a Condition window's
 * question: the same words for every asked villain (seat: who is asked,
 * for "against you"), whatever they hold. */
static void deeds_text(const vl_state *s, int seat, char *buf, size_t cap) {
  size_t o = 0;
  buf[0] = '\0';
#define DEED(...)                                                              \
  do {                                                                         \
    if (o < cap)                                                               \
      o += (size_t)snprintf(buf + o, cap - o, "%s", o ? ", " : "");            \
    if (o < cap)                                                               \
      o += (size_t)snprintf(buf + o, cap - o, __VA_ARGS__);                    \
  } while (0)
  if (s->fired & (1u << VL_T_OPP_ALLY))
    DEED("played an Ally of Strength %d", s->fired_ally);
  if (s->fired & (1u << VL_T_OPP_ITEM))
    DEED("played an Item");
  if (s->fired & (1u << VL_T_OPP_EFFECT))
    DEED("played an Effect");
  if (s->fired & (1u << VL_T_OPP_DEFEAT))
    DEED("defeated a Hero");
  if (s->fired & (1u << VL_T_OPP_ACTIVATE))
    DEED("activated an ability");
  if (s->fired & (1u << VL_T_OPP_MOVE_HERO))
    DEED("moved a Hero");
  if (s->fated & (1u << seat))
    DEED("performed a Fate action against you");
  if (s->discarded)
    DEED("discarded %d card%s", s->discarded, s->discarded == 1 ? "" : "s");
  if (s->power_after > s->power_before)
    DEED("went from %d to %d Power", s->power_before, s->power_after);
#undef DEED
}

static void frame_question(const vl_state *s, const vl_frame *f, char *buf,
                           size_t cap) {
  switch ((vl_frame_kind)f->kind) {
  case VL_F_EFFECT: {
    char src[64], what[120];
    src_text(s, f->src, src, sizeof src);
    op_text(s, f, what, sizeof what);
    src[0] = (char)(src[0] & ~0x20);
    snprintf(buf, cap, "%s ability: %s%s", src, what,
             f->e.may && !f->asked ? " (optional)?" : "?");
    return;
  }
  case VL_F_PLACE: {
    const vl_card *c = C(s, f->a);
    if (c->kind == VL_K_HERO)
      snprintf(buf, cap, "Where does the Hero %s go in Villain %d's %s?",
               c->name, f->realm + 1, REALM(s));
    else if (c->attach == VL_AT_HERO)
      snprintf(buf, cap, "Which Hero in Villain %d's %s carries %s?",
               f->realm + 1, REALM(s), c->name);
    else if (c->attach == VL_AT_ALLY)
      snprintf(buf, cap, "Which of your Allies carries %s?", c->name);
    else
      snprintf(buf, cap, "Where do you play %s?", c->name);
    return;
  }
  case VL_F_VANQUISH:
    if (f->a == VL_NONE)
      snprintf(buf, cap, "Which Hero do you vanquish?");
    else
      snprintf(buf, cap,
               "Which Allies at %s vanquish %s (Strength %d)? Chosen so far: "
               "%d Strength.",
               loc_nm(s, f->realm, s->w[f->a].loc), nm(s, f->a),
               vl_strength(s, f->a), chosen_strength(s, f));
    return;
  case VL_F_FATE:
    snprintf(buf, cap,
             "Fate against Villain %d: which revealed card do you play? The "
             "other goes to their fate discard pile.",
             f->realm + 1);
    return;
  case VL_F_DISCARD:
    snprintf(buf, cap,
             "Discard which card? (%d discarded so far; Done when "
             "finished.)",
             f->step);
    return;
  case VL_F_WINDOW: {
    char deeds[200];
    deeds_text(s, f->player, deeds, sizeof deeds);
    snprintf(buf, cap,
             "Villain %d %s. Play a Condition now, or pass? (Asked of every "
             "villain whose deck has a Condition for this, whatever they "
             "hold.)",
             s->current + 1, deeds);
    return;
  }
  case VL_F_FINISH:
  case VL_F_COUNT:
    break;
  }
  snprintf(buf, cap, "What next?");
}

static void vl_question(const void *st, const eng_prompt *p, char *buf,
                        size_t cap) {
  const vl_state *s = st;
  if (s->over) {
    snprintf(buf, cap, "The game is over.");
    return;
  }
  if (s->sp > 0) {
    frame_question(s, &s->stack[s->sp - 1], buf, cap);
    return;
  }
  int me = s->current;
  switch ((vl_phase)s->phase) {
  case VL_PH_CHOOSE:
    snprintf(buf, cap,
             "Villain %d, choose your villain (every %s, "
             "objective and guide is public: /game card NAME).",
             p->player + 1, REALM(s));
    return;
  case VL_PH_MOVE:
    if (s->seat[me].mover == VL_PORTRAIT)
      snprintf(buf, cap,
               "Turn %d: where does your mover go? From your portrait it "
               "may go to any location.",
               (int)s->turn);
    else
      snprintf(buf, cap,
               "Turn %d: where does your mover go? It must leave %s.",
               (int)s->turn, loc_nm(s, me, s->seat[me].mover));
    return;
  case VL_PH_ACTIONS:
    snprintf(buf, cap, "At %s with %d Power: your next action?",
             loc_nm(s, me, s->seat[me].mover), s->seat[me].power);
    return;
  case VL_PH_START:
  case VL_PH_END:
  case VL_PH_OVER:
    break;
  }
  snprintf(buf, cap, "What next?");
}

/* Short names of the actions for a location's label. */
static const char *short_action(int kind) {
  static const char *const names[] = {
      "Gain 1",    "Gain 2",    "Gain 3",   "Play", "Activate",
      "Move Ally", "Move Hero", "Vanquish", "Fate", "Discard"};
  return kind >= 0 && kind < VL_A_COUNT ? names[kind] : "?";
}

static void pick_label(const vl_state *s, const vl_frame *f, int i,
                       char *label) {
  int r = s->w[i].seat;
  const char *where = (s->w[i].zone == VL_Z_REALM || s->w[i].zone == VL_Z_TOP)
                          ? loc_nm(s, r, s->w[i].loc)
                          : "";
  char sum[96];
  vl_card_summary(C(s, i), sum, sizeof sum);
  switch ((vl_frame_kind)f->kind) {
  case VL_F_PLACE:
    eng_label(label, "Put %s on %s (%s)", nm(s, f->a), nm(s, i), where);
    return;
  case VL_F_VANQUISH:
    if (f->a == VL_NONE)
      eng_label(label, "%s (Strength %d) at %s", nm(s, i), vl_strength(s, i),
                where);
    else
      eng_label(label, "Send %s (Strength %d)", nm(s, i), vl_strength(s, i));
    return;
  case VL_F_FATE: {
    eng_label(label, "Play %s (%s)", nm(s, i), sum);
    return;
  }
  case VL_F_DISCARD:
    eng_label(label, "Discard %s", nm(s, i));
    return;
  case VL_F_EFFECT: {
    int op = f->e.op;
    if (op == VL_OP_DISCARD_CARDS)
      eng_label(label, "Discard %s", nm(s, i));
    else if (op == VL_OP_PLAY_FREE || op == VL_OP_PLAY_DISCARD)
      eng_label(label, "Play %s (%s) for free", nm(s, i), sum);
    else if (op == VL_OP_TAKE_DISCARD || op == VL_OP_SEARCH)
      eng_label(label, "Take %s (%s)", nm(s, i), sum);
    else if (op == VL_OP_LOOK_FATE)
      eng_label(label, "Discard %s (%s)", nm(s, i), sum);
    else if (op == VL_OP_RETURN_ALLY)
      eng_label(label, "Return %s (at %s)", nm(s, i), where);
    else if (op == VL_OP_REMOVE_ALLY || op == VL_OP_REMOVE_CARD)
      eng_label(label, "Discard %s (at %s)", nm(s, i), where);
    else if (op == VL_OP_DEFEAT_HERO)
      eng_label(label, "Defeat %s (Strength %d) at %s", nm(s, i),
                vl_strength(s, i), where);
    else if (op == VL_OP_HOOK && f->step == 1)
      eng_label(label, "Trade places with %s (at %s)", nm(s, i), where);
    else
      eng_label(label, "%s (%s) at %s", nm(s, i), sum, where);
    return;
  }
  case VL_F_WINDOW:
  case VL_F_FINISH:
  case VL_F_COUNT:
    break;
  }
  eng_label(label, "%s", nm(s, i));
}

static void vl_option(const void *st, const eng_prompt *p, int i,
                      char id[ENG_ID_MAX + 1], char label[ENG_LABEL_MAX + 1]) {
  const vl_state *s = st;
  uint32_t code = p->code[i];
  int a = VL_OPT_A(code), b = VL_OPT_B(code), me = s->current;
  const vl_frame *f = s->sp > 0 ? &s->stack[s->sp - 1] : NULL;
  char sum[96];
  switch (VL_OPT_TYPE(code)) {
  case VL_OPT_VILLAIN: {
    const vl_villain *v = &vl_data_of(s)->v[a];
    snprintf(id, ENG_ID_MAX + 1, "villain.%s", v->id);
    eng_label(label, "%s: %s", v->name, v->obj.text);
    return;
  }
  case VL_OPT_MOVE: {
    const vl_location *l = &vl_villain_of(s, me)->loc[a];
    bool covered = vl_covered(s, me, a);
    char acts[160];
    size_t o = 0;
    acts[0] = '\0';
    for (int k = covered ? l->n_top : 0; k < l->n; k++)
      o += (size_t)snprintf(acts + o, sizeof acts - o, "%s%s", o ? ", " : "",
                            short_action(l->a[k].kind));
    snprintf(id, ENG_ID_MAX + 1, "move.%d", a + 1);
    eng_label(label, "Move to %s: %s%s", l->name, acts,
              covered ? " (top covered)" : "");
    return;
  }
  case VL_OPT_GAIN: {
    const vl_location *l = &vl_villain_of(s, me)->loc[s->seat[me].mover];
    int n =
        gain_amount(s, me, s->seat[me].mover, l->a[a].kind - VL_A_GAIN_1 + 1);
    snprintf(id, ENG_ID_MAX + 1, "gain.%d", a + 1);
    eng_label(label, "Gain %d Power (to %d)", n, s->seat[me].power + n);
    return;
  }
  case VL_OPT_PLAY:
    vl_card_summary(C(s, a), sum, sizeof sum);
    snprintf(id, ENG_ID_MAX + 1, "play.c%d", a);
    eng_label(label, "Play %s (%s)", nm(s, a), sum);
    return;
  case VL_OPT_ACTIVATE: {
    const vl_ability *ab = activation(s, me, a);
    snprintf(id, ENG_ID_MAX + 1, "act.c%d", a);
    eng_label(label, "Activate %s at %s (%d Power)", nm(s, a), place_nm(s, a),
              ab ? ab->cost : 0);
    return;
  }
  case VL_OPT_MOVE_ALLY:
  case VL_OPT_MOVE_HERO:
    snprintf(id, ENG_ID_MAX + 1, "%s.c%d.%d",
             VL_OPT_TYPE(code) == VL_OPT_MOVE_HERO ? "hero" : "ally", a, b + 1);
    if (SHARED(s)) {
      char to[80];
      dest_nm(s, me, b, to, sizeof to);
      eng_label(label, "Relocate %s from %s to %s", nm(s, a), place_nm(s, a),
                to);
      return;
    }
    eng_label(label, "Move %s from %s to %s", nm(s, a),
              loc_nm(s, me, s->w[a].loc), loc_nm(s, me, b));
    return;
  case VL_OPT_VANQUISH:
    snprintf(id, ENG_ID_MAX + 1, "vanq.c%d", a);
    eng_label(label, "Vanquish %s (Strength %d) at %s", nm(s, a),
              vl_strength(s, a), loc_nm(s, me, s->w[a].loc));
    return;
  case VL_OPT_FATE:
    snprintf(id, ENG_ID_MAX + 1, "fate.%d", a + 1);
    if (SHARED(s))
      eng_label(label, "Fate: reveal the top card of the fate deck, then "
                       "choose whom it hits");
    else
      eng_label(label, "Fate against Villain %d (%s)", a + 1,
                vl_villain_of(s, a)->name);
    return;
  case VL_OPT_DISCARD:
    snprintf(id, ENG_ID_MAX + 1, "discard");
    eng_label(label, "Discard cards from your hand");
    return;
  case VL_OPT_END:
    snprintf(id, ENG_ID_MAX + 1, "end");
    eng_label(label, "End your turn (draw up to %d)", VL_HAND);
    return;
  case VL_OPT_PICK:
    snprintf(id, ENG_ID_MAX + 1, "pick.c%d", a);
    if (f)
      pick_label(s, f, a, label);
    else
      eng_label(label, "%s", nm(s, a));
    return;
  case VL_OPT_LOC: {
    int r = f ? f->realm : me;
    snprintf(id, ENG_ID_MAX + 1, "loc.%d", a + 1);
    char to[80];
    if (f && f->kind == VL_F_PLACE && C(s, f->a)->kind == VL_K_SPECIALTY)
      eng_label(label, "Play %s to your Specialty area", nm(s, f->a));
    else if (f && f->kind == VL_F_PLACE && a >= VL_DEST_OTHER) {
      dest_nm(s, r, a, to, sizeof to);
      eng_label(label, "Play %s to %s", nm(s, f->a), to);
    } else if (f && f->kind == VL_F_PLACE)
      eng_label(label, "Play %s at %s", nm(s, f->a), loc_nm(s, r, a));
    else if (f && f->kind == VL_F_EFFECT && f->e.op == VL_OP_FIND_HERO)
      eng_label(label, "Play %s at %s",
                vl_villain_of(s, r)->defs[f->e.card].name, loc_nm(s, r, a));
    else if (f && f->kind == VL_F_EFFECT && f->a != VL_NONE)
      eng_label(label, "Move %s to %s", nm(s, f->a), loc_nm(s, r, a));
    else
      eng_label(label, "%s", loc_nm(s, r, a));
    return;
  }
  case VL_OPT_SEAT:
    snprintf(id, ENG_ID_MAX + 1, "seat.%d", a + 1);
    eng_label(label, "Villain %d (%s)", a + 1, vl_villain_of(s, a)->name);
    return;
  case VL_OPT_DONE:
    snprintf(id, ENG_ID_MAX + 1, "done");
    if (f && f->kind == VL_F_VANQUISH)
      eng_label(label, "Vanquish %s with the chosen Allies", nm(s, f->a));
    else if (f && f->kind == VL_F_DISCARD)
      eng_label(label, "Done discarding");
    else if (f && f->kind == VL_F_EFFECT && f->e.op == VL_OP_LOOK_FATE)
      eng_label(label, "Keep the rest on top of the fate deck");
    else if (f && f->kind == VL_F_EFFECT) {
      char what[120];
      op_text(s, f, what, sizeof what);
      eng_label(label, "Yes: %s", what);
    } else
      eng_label(label, "Done");
    return;
  case VL_OPT_SKIP:
    snprintf(id, ENG_ID_MAX + 1, "skip");
    eng_label(label, "Skip this optional effect");
    return;
  case VL_OPT_PASS:
    snprintf(id, ENG_ID_MAX + 1, "pass");
    eng_label(label, "Pass: play no Condition");
    return;
  case VL_OPT_COND:
    snprintf(id, ENG_ID_MAX + 1, "cond.c%d", a);
    eng_label(label, "Play %s: %s", nm(s, a), text_of(s, a));
    return;
  default:
    snprintf(id, ENG_ID_MAX + 1, "opt.%d", i);
    eng_label(label, "Option %d", i + 1);
    return;
  }
}

static const char *const vl_modes[] = {"choose", "random", NULL};

/* Every discard pile is open (the rulebook's FAQ): anyone may look
 * through any of them at any time. */
static const char *const vl_open_piles[] = {"discard_1",
                                            "discard_2",
                                            "discard_3",
                                            "discard_4",
                                            "discard_5",
                                            "discard_6",
                                            "fate_discard_1",
                                            "fate_discard_2",
                                            "fate_discard_3",
                                            "fate_discard_4",
                                            "fate_discard_5",
                                            "fate_discard_6",
                                            NULL};

const eng_ruleset vl_ruleset = {
    .id = "villainous",
    .name = "Villainous",
    .version = 1,
    .colour = 0x5b2a86, /* a deep villain's purple */
    .min_players = 2,
    .max_players = 6,
    .modes_help = "choose (each seat picks a villain in seat order, the "
                  "default) or random (villains dealt at random)",
    .modes = vl_modes,
    .open_piles = vl_open_piles,
    .state_size = sizeof(vl_state),
    .setup = vl_setup,
    .prompt = vl_prompt,
    .question = vl_question,
    .option = vl_option,
    .apply = vl_apply,
    .view = vl_view,
    .to_json = vl_to_json,
    .from_json = vl_from_json,
    .result = vl_result,
    .check = vl_check,
    .cards = vl_cards_list,
    .cards_markdown = vl_cards_md,
    .render = vl_render,
    .ai = vl_ai_choose,
    .ai_why = vl_ai_why,
    .pass_option = vl_pass_option,
};

/* The Marvel profile: villain discard piles and the one fate discard. */
static const char *const mv_open_piles[] = {
    "discard_1", "discard_2", "discard_3", "discard_4", "fate_discard", NULL};

const eng_ruleset vl_marvel_ruleset = {
    .id = "marvel-villainous",
    .name = "Marvel Villainous",
    .version = 1,
    .colour = 0x9b1c1c, /* a comic-book crimson */
    .min_players = 2,
    .max_players = 4,
    .modes_help = "inevitable (the default: one Global Event in play at a "
                  "time), omnipotent (no Events), undying (any number of "
                  "Global Events); each with -random for villains dealt at "
                  "random (random alone: inevitable-random)",
    .modes = marvel_modes,
    .open_piles = mv_open_piles,
    .state_size = sizeof(vl_state),
    .setup = mv_setup,
    .prompt = vl_prompt,
    .question = vl_question,
    .option = vl_option,
    .apply = vl_apply,
    .view = vl_view,
    .to_json = vl_to_json,
    .from_json = vl_from_json,
    .result = vl_result,
    .check = vl_check,
    .cards = mv_cards_list,
    .cards_markdown = mv_cards_md,
    .render = vl_render,
    .ai = vl_ai_choose,
    .ai_why = vl_ai_why,
    .pass_option = vl_pass_option,
};

/* ---- the rules' questions, for the heuristic player (vl_ai.c) -------------
 */

bool vl_in_realm(const vl_state *s, int i, int seat) {
  return in_realm(s, i, seat);
}
bool vl_is_fate_card(const vl_state *s, int i) { return is_fate_card(s, i); }
bool vl_locked(const vl_state *s, int seat, int loc) {
  return locked(s, seat, loc);
}
bool vl_open_for(const vl_state *s, int seat, int loc, bool hero) {
  return open_for(s, seat, loc, hero);
}
int vl_gain_amount(const vl_state *s, int seat, int loc, int n) {
  return gain_amount(s, seat, loc, n);
}
bool vl_vanquishable(const vl_state *s, int seat, int h) {
  return vanquishable(s, seat, h);
}
bool vl_playable(const vl_state *s, int seat, int i, bool free) {
  return playable(s, seat, i, free);
}
bool vl_activatable(const vl_state *s, int seat, int i) {
  return activatable(s, seat, i);
}
int vl_hand_size(const vl_state *s, int seat) { return hand_size(s, seat); }

eng_rc vl_resume(vl_state *s, eng_events *ev, unsigned *flags) {
  told t = {.ev = ev};
  run(s, &t);
  if (flags)
    *flags |= t.fl;
  return s->overflow ? ENG_INTERNAL : ENG_OK;
}
