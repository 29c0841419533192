/*
 * vl_position.c: test-only builder of Villainous states from positions
 * (either rulebook's profile), the check of what an answer tells, and
 * the checked answer the rule tests drive a state with (see
 * vl_position.h).
 *
 * Strictness is the point: an unknown key, a misspelt card id or one copy
 * too many fails the test with a message naming it, rather than silently
 * testing some other position.
 */
#include "vl_position.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "position_util.h"
#include "prompt_util.h"

typedef struct builder {
  vl_state *s;
  bool marvel; /* the Marvel profile: one fate deck, Events, Stones */
  bool placed[VL_N];
  char *err;
  size_t cap;
} builder;

static int bad(builder *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static int bad(builder *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(b->err, b->cap, fmt, ap);
  va_end(ap);
  return 1;
}

/* pos_keys_ok and pos_int_key, reporting into the builder. */
static int keys_ok(builder *b, const json_t *obj, const char *where,
                   const char *const *allowed) {
  return pos_keys_ok(obj, where, allowed, b->err, b->cap);
}

static int int_key(builder *b, const json_t *obj, const char *key, int lo,
                   int hi, int def, const char *where, int *out) {
  return pos_int_key(obj, key, lo, hi, def, where, out, b->err, b->cap);
}

/* Whether instance slot i holds a card of the table: a common card, or
 * one of its seat's villain deck or fate part. */
static bool slot_used(const vl_state *s, int i) {
  if (vl_is_common(s, i))
    return i < vl_n_inst(s);
  return i % VL_BLOCK < VL_VDECK + vl_villain_of(s, i / VL_BLOCK)->n_fate;
}

/* Takes the lowest free instance of card id of seat's villain from the
 * given deck (VL_DECK_*) into *out (Disney). */
static int take(builder *b, int seat, const json_t *idv, int deck, int *out) {
  const char *id = json_string_value(idv);
  const vl_villain *v = vl_villain_of(b->s, seat);
  if (!id)
    return bad(b, "seat %d: a card must be given by its id", seat);
  int lo = seat * VL_BLOCK + (deck == VL_DECK_FATE ? VL_VDECK : 0);
  int hi = deck == VL_DECK_FATE ? lo + v->n_fate : lo + VL_VDECK;
  bool known = false;
  for (int i = lo; i < hi; i++) {
    if (strcmp(vl_card_of(b->s, i)->id, id) != 0)
      continue;
    known = true;
    if (!b->placed[i]) {
      b->placed[i] = true;
      *out = i;
      return 0;
    }
  }
  return bad(b, "seat %d (%s): %s", seat, v->id,
             known ? "no copy of that card is left"
                   : "no such card in that deck");
}

/* What a Marvel list may hold (bits): one of the seat's own villain
 * cards, a fate card, a Stone, another villain's Ally, anyone's Ally. */
enum { W_OWN = 1, W_FATE = 2, W_STONE = 4, W_AWAY = 8, W_ALLY = 16 };

/* Whether Marvel instance i is what want allows for seat. */
static bool fits(const vl_state *s, int i, unsigned want, int seat) {
  bool villain = !vl_is_common(s, i) && i % VL_BLOCK < VL_VDECK;
  bool ally = villain && vl_card_of(s, i)->kind == VL_K_ALLY;
  return ((want & W_OWN) && villain && vl_owner(s, i) == seat) ||
         ((want & W_FATE) && vl_is_fate_card(s, i)) ||
         ((want & W_STONE) && vl_is_stone(s, i)) ||
         ((want & W_AWAY) && ally && vl_owner(s, i) != seat) ||
         ((want & W_ALLY) && ally);
}

/* Takes the lowest free instance of card id into *out: Disney, of seat's
 * villain, from its fate deck when want has W_FATE, else from its villain
 * deck; Marvel, wherever the card's data is (ids are unique across the
 * villains and the common part), when it is what want allows. where names
 * the list for messages. */
static int take_card(builder *b, int seat, const json_t *idv, unsigned want,
                     const char *where, int *out) {
  if (!b->marvel)
    return take(b, seat, idv, want & W_FATE ? VL_DECK_FATE : VL_DECK_VILLAIN,
                out);
  const vl_state *s = b->s;
  const char *id = json_string_value(idv);
  if (!id)
    return bad(b, "%s: a card must be given by its id", where);
  bool known = false;
  for (int i = 0; i < vl_n_inst(s); i++) {
    if (!slot_used(s, i) || strcmp(vl_card_of(s, i)->id, id) != 0)
      continue;
    known = true;
    if (b->placed[i])
      continue;
    if (!fits(s, i, want, seat))
      return bad(b, "%s: '%s' cannot lie there", where, id);
    if (vl_card_of(s, i)->kind == VL_K_EVENT && s->events == VL_EV_NONE)
      return bad(b,
                 "%s: '%s' is an Event, and omnipotent leaves them in "
                 "the box",
                 where, id);
    b->placed[i] = true;
    *out = i;
    return 0;
  }
  return bad(b, "%s: %s '%s'", where,
             known ? "no copy is left of" : "no card at this table is called",
             id);
}

/* Puts instance i into zone of seat at loc, attached to host (-1: none);
 * a card in play gets the next placement number. */
static void put_at(builder *b, int i, int zone, int seat, int loc, int host) {
  vl_where *w = &b->s->w[i];
  bool in_play = zone == VL_Z_REALM || zone == VL_Z_TOP || zone == VL_Z_EVENT ||
                 zone == VL_Z_SPECIALTY;
  w->zone = (uint8_t)zone;
  w->seat = (uint8_t)seat;
  w->loc = (uint8_t)loc;
  w->known = 0;
  w->host = host < 0 ? VL_NONE : (uint16_t)host;
  w->order = in_play ? ++b->s->seq : 0;
}

/* A list of card ids (a may be NULL: none) into zone of seat, pushed on
 * pile when it is one. */
static int list(builder *b, const char *where, int seat, const json_t *a,
                unsigned want, int zone, eng_pile *pile) {
  if (!a)
    return 0;
  if (!json_is_array(a))
    return bad(b, "%s must be a list of card ids", where);
  size_t k;
  json_t *c;
  json_array_foreach(a, k, c) {
    int i;
    if (take_card(b, seat, c, want, where, &i))
      return 1;
    put_at(b, i, zone, seat, 0, -1);
    if (pile)
      eng_pile_push(pile, (uint16_t)i);
  }
  return 0;
}

/* The cards a card in play carries ("items" of an entry): i's own deck's
 * (Disney); its owner's Items or Stones, a fate card's fate Items
 * (Marvel). */
static int items(builder *b, const char *where, const json_t *o, int i,
                 int zone, int seat, int loc) {
  bool fate = vl_is_fate_card(b->s, i);
  int owner = b->marvel && !fate ? vl_owner(b->s, i) : seat;
  size_t n;
  json_t *c;
  json_array_foreach(json_object_get(o, "items"), n, c) {
    int it;
    if (take_card(b, owner, c, fate ? W_FATE : W_OWN | W_STONE, where, &it))
      return 1;
    put_at(b, it, zone, seat, loc, i);
  }
  return 0;
}

/* Cards in play at seat's locations, each {"card", "loc", "items"} (and
 * Marvel's "tok"): the bottom (zone VL_Z_REALM) or the top (VL_Z_TOP),
 * each card what want allows. */
static int entries(builder *b, int seat, const json_t *seatobj, const char *key,
                   int zone, unsigned want) {
  static const char *const disney[] = {"card", "loc", "items", NULL};
  static const char *const marvel[] = {"card", "loc", "items", "tok", NULL};
  json_t *a = json_object_get(seatobj, key);
  char where[48];
  snprintf(where, sizeof where, "seat %d \"%s\"", seat, key);
  if (!a)
    return 0;
  if (!json_is_array(a))
    return bad(b, "%s must be a list", where);
  size_t k;
  json_t *o;
  json_array_foreach(a, k, o) {
    int i, loc, tok;
    if (keys_ok(b, o, where, b->marvel ? marvel : disney) ||
        int_key(b, o, "loc", 0, VL_LOCS - 1, 0, where, &loc) ||
        int_key(b, o, "tok", -3, 3, 0, where, &tok) ||
        take_card(b, seat, json_object_get(o, "card"), want, where, &i))
      return 1;
    put_at(b, i, zone, seat, loc, -1);
    b->s->tok[i] = (int8_t)tok;
    if (items(b, where, o, i, zone, seat, loc))
      return 1;
  }
  return 0;
}

/* The list under key of seat's object, as list() does. */
static int seat_list(builder *b, int seat, const json_t *o, const char *key,
                     unsigned want, int zone, eng_pile *pile) {
  char where[48];
  snprintf(where, sizeof where, "seat %d \"%s\"", seat, key);
  return list(b, where, seat, json_object_get(o, key), want, zone, pile);
}

/* A seat's numbers and the cards it places (its decks are dealt by
 * deal_seat once every card of the table is placed). */
static int build_seat(builder *b, int seat, const json_t *o) {
  static const char *const disney[] = {
      "power",    "mover",    "track",  "defeated", "locked",
      "hand",     "realm",    "heroes", "discard",  "fate_discard",
      "deck_top", "fate_top", "looked", NULL};
  static const char *const marvel[] = {
      "power",  "mover",    "track",     "defeated", "hand",     "realm",
      "heroes", "invaders", "specialty", "discard",  "deck_top", NULL};
  vl_state *s = b->s;
  vl_seat *q = &s->seat[seat];
  char where[40];
  snprintf(where, sizeof where, "seat %d", seat);
  int power, mover = VL_PORTRAIT, track, defeated;
  const char *portrait = json_string_value(json_object_get(o, "mover"));
  if (keys_ok(b, o, where, b->marvel ? marvel : disney) ||
      int_key(b, o, "power", 0, 999, 0, where, &power) ||
      (!portrait && int_key(b, o, "mover", 0, VL_LOCS - 1, 0, where, &mover)) ||
      int_key(b, o, "track", 0, 30, 0, where, &track) ||
      int_key(b, o, "defeated", 0, 99, 0, where, &defeated))
    return 1;
  if (portrait && (!b->marvel || strcmp(portrait, "portrait") != 0))
    return bad(b, "%s: \"mover\" is a location 0-3%s", where,
               b->marvel ? " or \"portrait\"" : "");
  q->power = (int16_t)power;
  q->mover = (uint8_t)mover;
  q->track = (uint8_t)track;
  q->defeated = (uint8_t)defeated;
  json_t *locked = json_object_get(o, "locked");
  if (locked) {
    q->locked = 0;
    size_t k;
    json_t *l;
    json_array_foreach(locked, k, l) {
      if (!json_is_integer(l) || json_integer_value(l) < 0 ||
          json_integer_value(l) >= VL_LOCS)
        return bad(b, "%s: \"locked\" lists locations 0-3", where);
      q->locked |= (uint8_t)(1u << json_integer_value(l));
    }
  }
  return seat_list(b, seat, o, "hand", W_OWN, VL_Z_HAND, NULL) ||
         entries(b, seat, o, "realm", VL_Z_REALM, W_OWN | W_STONE) ||
         entries(b, seat, o, "heroes", VL_Z_TOP, W_FATE) ||
         entries(b, seat, o, "invaders", VL_Z_TOP, W_AWAY) ||
         seat_list(b, seat, o, "specialty", W_OWN | W_STONE, VL_Z_SPECIALTY,
                   NULL) ||
         seat_list(b, seat, o, "discard", W_OWN, VL_Z_VDISC, &s->vdisc[seat]) ||
         seat_list(b, seat, o, "fate_discard", W_FATE, VL_Z_FDISC,
                   &s->fdisc[seat]);
}

/* Deals a deck pile: the free cards of [lo, hi) of its kind (fate: fate
 * cards; an Event in omnipotent mode stays in the box), shuffled, then
 * the top cards (n_top of them, tops[0] drawn first). */
static void deal(builder *b, eng_pile *deck, int zone, int seat, int lo, int hi,
                 bool fate, const int *tops, int n_top) {
  vl_state *s = b->s;
  for (int i = lo; i < hi; i++) {
    if (b->placed[i] || !slot_used(s, i) ||
        (b->marvel && vl_is_fate_card(s, i) != fate) || vl_is_stone(s, i))
      continue;
    b->placed[i] = true;
    if (fate && vl_card_of(s, i)->kind == VL_K_EVENT && s->events == VL_EV_NONE)
      continue; /* omnipotent: in the box */
    put_at(b, i, zone, seat, 0, -1);
    eng_pile_push(deck, (uint16_t)i);
  }
  eng_pile_shuffle(deck, &s->rng);
  for (int k = n_top - 1; k >= 0; k--) {
    put_at(b, tops[k], zone, seat, 0, -1);
    eng_pile_push(deck, (uint16_t)tops[k]);
  }
}

/* Takes the top cards listed in a (NULL: none) into tops. */
static int top_cards(builder *b, const char *where, int seat, const json_t *a,
                     unsigned want, int *tops, int *n_top) {
  size_t k;
  json_t *c;
  *n_top = 0;
  if (a && !json_is_array(a))
    return bad(b, "%s must be a list of card ids", where);
  json_array_foreach(a, k, c) {
    if (take_card(b, seat, c, want, where, &tops[*n_top]))
      return 1;
    (*n_top)++;
  }
  return 0;
}

/* Deals seat's unplaced cards: its villain deck (and, Disney, its own
 * fate deck), shuffled, under its listed top cards. */
static int deal_seat(builder *b, int seat, const json_t *o) {
  vl_state *s = b->s;
  const vl_villain *v = vl_villain_of(s, seat);
  int tops[VL_BLOCK], n_top;
  char where[48];
  static const char *const top_keys[2] = {"deck_top", "fate_top"};
  eng_pile *decks[2] = {&s->vdeck[seat], &s->fdeck[seat]};
  for (int d = 0; d < (b->marvel ? 1 : 2); d++) {
    int lo = seat * VL_BLOCK + (d ? VL_VDECK : 0);
    int hi = d ? lo + v->n_fate : lo + VL_VDECK;
    snprintf(where, sizeof where, "seat %d \"%s\"", seat, top_keys[d]);
    if (top_cards(b, where, seat, json_object_get(o, top_keys[d]),
                  d ? W_FATE : W_OWN, tops, &n_top))
      return 1;
    deal(b, decks[d], d ? VL_Z_FDECK : VL_Z_VDECK, seat, lo, hi, d == 1, tops,
         n_top);
  }
  json_t *looked = json_object_get(o, "looked");
  size_t k;
  json_t *c;
  json_array_foreach(looked, k, c) {
    int i = vl_position_find(s, seat, json_string_value(c), VL_Z_FDECK);
    if (i < 0)
      return bad(b, "seat %d: looked at '%s', which is not on the fate deck",
                 seat, json_string_value(c) ? json_string_value(c) : "?");
    s->w[i].known |= (uint8_t)(1u << seat);
  }
  return 0;
}

/* Marvel: the Events in play and the Allies (with their Items) there. */
static int build_events(builder *b, const json_t *pos) {
  static const char *const ev_keys[] = {"card", "allies", NULL};
  static const char *const ally_keys[] = {"card", "items", "tok", NULL};
  vl_state *s = b->s;
  json_t *a = json_object_get(pos, "events");
  int globals = 0;
  if (a && !json_is_array(a))
    return bad(b, "position: \"events\" must be a list");
  size_t k;
  json_t *o;
  json_array_foreach(a, k, o) {
    int e;
    if (keys_ok(b, o, "events", ev_keys) ||
        take_card(b, 0, json_object_get(o, "card"), W_FATE, "events", &e))
      return 1;
    const vl_card *c = vl_card_of(s, e);
    if (c->kind != VL_K_EVENT)
      return bad(b, "events: '%s' is no Event", c->id);
    int target = vl_owner(s, e); /* -1: a common, Global Event */
    if (target < 0 && s->events == VL_EV_ONE && globals++ > 0)
      return bad(b, "events: inevitable has one Global Event in play at most");
    put_at(b, e, VL_Z_EVENT, target < 0 ? 0 : target, target < 0 ? 0 : 1, -1);
    size_t n;
    json_t *al;
    json_array_foreach(json_object_get(o, "allies"), n, al) {
      int i, tok;
      if (keys_ok(b, al, "event allies", ally_keys) ||
          int_key(b, al, "tok", -3, 3, 0, "event allies", &tok) ||
          take_card(b, 0, json_object_get(al, "card"), W_ALLY, "event allies",
                    &i))
        return 1;
      int owner = vl_owner(s, i);
      if (target >= 0 && owner != target)
        return bad(b, "events: only its villain sends Allies to %s", c->id);
      put_at(b, i, VL_Z_EVENT, owner, 0, e);
      s->tok[i] = (int8_t)tok;
      if (items(b, "event allies", al, i, VL_Z_EVENT, owner, 0))
        return 1;
    }
    if (vl_event_strength(s, e) >= vl_strength(s, e))
      return bad(b, "events: the Allies at %s already meet its requirement",
                 c->id);
  }
  return 0;
}

/* Marvel: the one fate deck and its discard pile (every fate card not
 * placed elsewhere, shuffled under "fate_top"), and the Stones left in
 * the centre. */
static int deal_shared(builder *b, const json_t *pos) {
  vl_state *s = b->s;
  int tops[VL_N], n_top;
  if (list(b, "\"fate_discard\"", 0, json_object_get(pos, "fate_discard"),
           W_FATE, VL_Z_FDISC, &s->fdisc[0]) ||
      top_cards(b, "\"fate_top\"", 0, json_object_get(pos, "fate_top"), W_FATE,
                tops, &n_top))
    return 1;
  deal(b, &s->fdeck[0], VL_Z_FDECK, 0, 0, vl_n_inst(s), true, tops, n_top);
  for (int i = vl_common_base(s); i < vl_n_inst(s); i++)
    if (vl_is_stone(s, i) && !b->placed[i]) {
      b->placed[i] = true;
      put_at(b, i, VL_Z_CENTRE, 0, 0, -1);
    }
  return 0;
}

/* Marvel: the current villain's Specialties and Stones activated this
 * turn (vl_state.once: a bit per villain deck slot, 32 + k for Stone k). */
static int build_once(builder *b, const json_t *pos) {
  vl_state *s = b->s;
  size_t k;
  json_t *c;
  json_array_foreach(json_object_get(pos, "once"), k, c) {
    const char *id = json_string_value(c);
    uint64_t bit = 0;
    for (int i = 0; id && i < vl_n_inst(s) && !bit; i++) {
      if (s->w[i].zone == VL_Z_NONE || !vl_in_realm(s, i, s->current) ||
          strcmp(vl_card_of(s, i)->id, id) != 0)
        continue;
      if (vl_is_stone(s, i))
        bit = (uint64_t)1 << (32 + i - vl_common_base(s) -
                              vl_data_of(s)->n_common_fate);
      else if (vl_card_of(s, i)->kind == VL_K_SPECIALTY)
        bit = (uint64_t)1 << (i % VL_BLOCK);
    }
    if (!bit)
      return bad(b,
                 "position: \"once\" names '%s', no Specialty or Stone in the "
                 "current villain's domain",
                 id ? id : "?");
    s->once |= bit;
  }
  return 0;
}

/* The Marvel mode: how many Global Events may be in play. */
static int marvel_mode(builder *b, const json_t *pos) {
  static const struct {
    const char *name;
    uint8_t events;
  } modes[] = {{"inevitable", VL_EV_ONE},
               {"omnipotent", VL_EV_NONE},
               {"undying", VL_EV_MANY}};
  json_t *m = json_object_get(pos, "mode");
  const char *mode = m ? json_string_value(m) : "inevitable";
  for (size_t k = 0; mode && k < sizeof modes / sizeof modes[0]; k++)
    if (strcmp(mode, modes[k].name) == 0) {
      b->s->events = modes[k].events;
      snprintf(b->s->mode, sizeof b->s->mode, "%s", mode);
      return 0;
    }
  return bad(b, "position: \"mode\" is inevitable, omnipotent or undying");
}

int vl_position_build(vl_state *s, const json_t *pos, char *err, size_t cap) {
  static const char *const disney[] = {
      "rule",  "game",  "villains", "seed",  "first",      "current", "turn",
      "round", "phase", "used",     "seats", "fate_token", NULL};
  static const char *const marvel[] = {
      "rule",   "game",     "villains",     "seed", "first", "current",
      "turn",   "round",    "phase",        "used", "seats", "mode",
      "events", "fate_top", "fate_discard", "once", NULL};
  builder b = {.s = s, .err = err, .cap = cap};
  json_t *gamev = json_object_get(pos, "game");
  const char *game = gamev ? json_string_value(gamev) : "villainous";
  if (!game || (strcmp(game, "villainous") != 0 &&
                strcmp(game, "marvel-villainous") != 0))
    return bad(&b, "position: \"game\" is villainous or marvel-villainous");
  b.marvel = strcmp(game, "marvel-villainous") == 0;
  int profile = b.marvel ? VL_PROFILE_MARVEL : VL_PROFILE_DISNEY;
  const vl_profile *pr = &vl_profiles[profile];
  if (!vl_data_get(profile))
    return bad(&b, "the villain data does not load");
  if (keys_ok(&b, pos, "position", b.marvel ? marvel : disney))
    return 1;
  if (!json_is_string(json_object_get(pos, "rule")))
    return bad(&b, "position: \"rule\" (the rulebook passage) is required");
  json_t *vils = json_object_get(pos, "villains");
  if (!json_is_array(vils) || json_array_size(vils) < pr->min_players ||
      json_array_size(vils) > pr->max_players)
    return bad(&b, "position: \"villains\" lists %d to %d villain ids",
               pr->min_players, pr->max_players);
  int players = (int)json_array_size(vils);
  int seed, first, current, turn, round, token;
  if (int_key(&b, pos, "seed", 0, 1 << 30, 1, "position", &seed) ||
      int_key(&b, pos, "first", 0, players - 1, 0, "position", &first) ||
      int_key(&b, pos, "current", 0, players - 1, 0, "position", &current) ||
      int_key(&b, pos, "turn", 1, 100000, 1, "position", &turn) ||
      int_key(&b, pos, "round", 1, 1000, 1, "position", &round) ||
      int_key(&b, pos, "fate_token", -1, players - 1, -1, "position", &token))
    return 1;
  memset(s, 0, sizeof *s);
  s->profile = (uint8_t)profile;
  s->players = (uint8_t)players;
  snprintf(s->mode, sizeof s->mode, "choose");
  if (b.marvel && marvel_mode(&b, pos))
    return 1;
  eng_rng_seed(&s->rng, (uint64_t)seed, 0);
  s->first = (uint8_t)first;
  s->current = (uint8_t)current;
  s->turn = turn;
  s->round = (uint16_t)round;
  s->chooser = (uint8_t)players;
  s->fate_token = token < 0 ? 0xff : (uint8_t)token;
  for (int i = 0; i < VL_N; i++)
    s->w[i].host = VL_NONE;
  for (int p = 0; p < VL_SEATS; p++)
    s->seat[p].villain = -1;
  const vl_data *d = &vl_loaded[profile];
  for (int p = 0; p < players; p++) {
    const char *id = json_string_value(json_array_get(vils, (size_t)p));
    for (int k = 0; id && k < d->n; k++)
      if (strcmp(d->v[k].id, id) == 0 && !vl_villain_taken(s, k))
        s->seat[p].villain = (int8_t)k;
    if (s->seat[p].villain < 0)
      return bad(&b, "position: no villain '%s' (or it is taken twice)",
                 id ? id : "?");
    s->seat[p].pos = (uint8_t)((p - first + players) % players);
    for (int l = 0; l < VL_LOCS; l++)
      if (d->v[s->seat[p].villain].loc[l].locked)
        s->seat[p].locked |= (uint8_t)(1u << l);
  }
  const char *phase = json_string_value(json_object_get(pos, "phase"));
  if (!phase || strcmp(phase, "actions") == 0)
    s->phase = VL_PH_ACTIONS;
  else if (strcmp(phase, "move") == 0)
    s->phase = VL_PH_MOVE;
  else if (strcmp(phase, "start") == 0)
    s->phase = VL_PH_START;
  else
    return bad(&b, "position: \"phase\" is start, move or actions");
  json_t *used = json_object_get(pos, "used");
  size_t k;
  json_t *u;
  json_array_foreach(used, k, u) {
    if (!json_is_integer(u) || json_integer_value(u) < 0 ||
        json_integer_value(u) >= VL_MAX_ACTIONS)
      return bad(&b, "position: \"used\" lists action slots 0-4");
    s->used |= (uint8_t)(1u << json_integer_value(u));
  }
  json_t *seats = json_object_get(pos, "seats");
  if (seats && (!json_is_array(seats) || (int)json_array_size(seats) > players))
    return bad(&b, "position: \"seats\" has one object per seat at most");
  json_t *empty = json_object();
  int rc = 0;
  /* Disney deals each seat's decks in turn; Marvel places every card of
   * the table first (another seat's Allies may stand in a domain or at an
   * Event), then deals the villain decks and the one fate deck. */
  for (int p = 0; p < players && !rc; p++) {
    json_t *o = json_array_get(seats, (size_t)p);
    rc = build_seat(&b, p, o ? o : empty) ||
         (!b.marvel && deal_seat(&b, p, o ? o : empty));
  }
  if (b.marvel && !rc) {
    rc = build_events(&b, pos);
    for (int p = 0; p < players && !rc; p++) {
      json_t *o = json_array_get(seats, (size_t)p);
      rc = deal_seat(&b, p, o ? o : empty);
    }
    rc = rc || deal_shared(&b, pos) || build_once(&b, pos);
  }
  json_decref(empty);
  if (rc)
    return 1;
  char msg[300];
  if (vl_check(s, msg, sizeof msg))
    return bad(&b, "the position breaks an invariant: %s", msg);
  if (vl_resume(s, NULL, NULL))
    return bad(&b, "the rules failed running the position's automatic work");
  return 0;
}

int vl_position_load(vl_state *s, const char *path, char *err, size_t cap) {
  json_error_t je;
  json_t *j = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
  if (!j) {
    snprintf(err, cap, "%s:%d: %s", path, je.line, je.text);
    return 1;
  }
  int rc = vl_position_build(s, j, err, cap);
  json_decref(j);
  return rc;
}

int vl_position_find(const vl_state *s, int seat, const char *id, int zone) {
  if (!id || seat < VL_POSITION_COMMON || seat >= s->players ||
      (seat >= 0 && !vl_villain_of(s, seat)))
    return -1;
  int lo = seat < 0 ? vl_common_base(s) : seat * VL_BLOCK;
  int hi = seat < 0 ? vl_n_inst(s) : (seat + 1) * VL_BLOCK;
  for (int i = lo; i < hi; i++)
    if (slot_used(s, i) && strcmp(vl_card_of(s, i)->id, id) == 0 &&
        (zone < 0 || s->w[i].zone == zone))
      return i;
  return -1;
}

/* ---- what an answer tells -------------------------------------------- */

/* Whether a card named name is one viewer may see in s. */
static bool seen_by(const vl_state *s, const char *name, int viewer) {
  for (int i = 0; i < vl_n_inst(s); i++)
    if (s->w[i].zone != VL_Z_NONE &&
        strcmp(vl_card_of(s, i)->name, name) == 0 && vl_visible(s, i, viewer))
      return true;
  return false;
}

/* Whether a card named name went into a deck during the answer. */
static bool into_deck(const vl_state *a, const vl_state *b, const char *name) {
  for (int i = 0; i < vl_n_inst(b); i++) {
    int z = b->w[i].zone;
    if ((z == VL_Z_VDECK || z == VL_Z_FDECK || z == VL_Z_HAND) &&
        a->w[i].zone != z && a->w[i].zone != VL_Z_VDECK &&
        a->w[i].zone != VL_Z_FDECK && a->w[i].zone != VL_Z_HAND &&
        strcmp(vl_card_of(b, i)->name, name) == 0)
      return true;
  }
  return false;
}

/* Whether a card named name was shown during the answer. */
static bool shown_named(const vl_state *s, const uint8_t *shown,
                        const char *name) {
  for (int i = 0; i < vl_n_inst(s); i++)
    if (shown[i] && strcmp(vl_card_of(s, i)->name, name) == 0)
      return true;
  return false;
}

/* Blanks out of line every text of a card its reader may see before or
 * after the answer: a card's text may name another card ("Find Maren
 * Holt ... and play her") without telling where that card is. */
static void scrub_texts(const vl_state *a, const vl_state *b, int seat,
                        char *line) {
  for (int i = 0; i < vl_n_inst(b); i++) {
    if (b->w[i].zone == VL_Z_NONE ||
        (!vl_visible(a, i, seat) && !vl_visible(b, i, seat)))
      continue;
    const char *text = vl_card_of(b, i)->text;
    size_t n = strlen(text);
    for (char *p = n ? strstr(line, text) : NULL; p; p = strstr(p + n, text))
      memset(p, ' ', n);
  }
}

int vl_told_check(const vl_state *before, const vl_state *after,
                  const eng_events *ev, const uint8_t *shown, char *msg,
                  size_t cap) {
  int players = after->players;
  if (pu_told_form(ev, players, msg, cap))
    return 1;
  for (int k = 0; k < ev->n; k++) {
    const eng_event *e = &ev->ev[k];
    /* Every card name of the table's villains (and of the common part)
     * the line holds, outside the texts of cards its reader sees. */
    char line[sizeof e->text];
    memcpy(line, e->text, sizeof line);
    scrub_texts(before, after, e->seat, line);
    for (int i = 0; i < vl_n_inst(after); i++) {
      if (after->w[i].zone == VL_Z_NONE)
        continue;
      const char *name = vl_card_of(after, i)->name;
      if (!strstr(line, name))
        continue;
      if (seen_by(before, name, e->seat) || seen_by(after, name, e->seat) ||
          into_deck(before, after, name) ||
          (shown && shown_named(after, shown, name)))
        continue;
      snprintf(msg, cap,
               "the line for %s%d names %s, which it may not see: "
               "'%s'",
               e->seat < 0 ? "everyone " : "seat ", e->seat, name, e->text);
      return 1;
    }
  }
  return 0;
}

/* ---- driving a state ------------------------------------------------- */

int vl_position_check_state(const vl_state *s, char *msg, size_t cap) {
  char why[256];
  if (vl_check(s, why, sizeof why)) {
    snprintf(msg, cap, "vl_check: %s", why);
    return 1;
  }
  for (int v = -1; v < s->players; v++) {
    json_t *j = vl_view(s, v);
    if (!j)
      snprintf(why, sizeof why, "no view");
    int bad_view = !j || vl_check_view_json(s, j, v, why, sizeof why);
    json_decref(j);
    if (bad_view) {
      snprintf(msg, cap, "view of seat %d: %s", v, why);
      return 1;
    }
  }
  return 0;
}

int vl_position_apply(vl_state *s, uint32_t code, unsigned *flags,
                      eng_events *ev, char *msg, size_t cap) {
  /* Static: a state is too big for a test's stack many times over. */
  static vl_state before;
  static uint8_t shown[VL_N];
  before = *s;
  memset(shown, 0, sizeof shown);
  *flags = 0;
  eng_events_clear(ev);
  eng_rc rc = vl_apply_traced(s, code, flags, ev, shown);
  if (rc) {
    snprintf(msg, cap, "the answer was refused: %s", eng_rcname(rc));
    return 1;
  }
  char why[600];
  if (vl_told_check(&before, s, ev, shown, why, sizeof why)) {
    snprintf(msg, cap, "told wrongly: %s", why);
    return 1;
  }
  return 0;
}
