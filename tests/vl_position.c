/*
 * vl_position.c: test-only builder of Villainous states from positions,
 * and the check of what an answer tells (see vl_position.h).
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

/* Takes the lowest free instance of card id of seat's villain from the
 * given deck (VL_DECK_*) into *out. */
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

/* Puts instance i into zone of seat at loc. */
static void place(builder *b, int i, int zone, int seat, int loc, int host) {
  vl_where *w = &b->s->w[i];
  w->zone = (uint8_t)zone;
  w->seat = (uint8_t)seat;
  w->loc = (uint8_t)loc;
  w->known = 0;
  w->host = host < 0 ? VL_NONE : (uint16_t)host;
  w->order = zone == VL_Z_REALM || zone == VL_Z_TOP ? ++b->s->seq : 0;
}

static int list(builder *b, int seat, const json_t *seatobj, const char *key,
                int deck, int zone, eng_pile *pile) {
  json_t *a = json_object_get(seatobj, key);
  if (!a)
    return 0;
  if (!json_is_array(a))
    return bad(b, "seat %d: \"%s\" must be a list of card ids", seat, key);
  size_t k;
  json_t *c;
  json_array_foreach(a, k, c) {
    int i;
    if (take(b, seat, c, deck, &i))
      return 1;
    place(b, i, zone, seat, 0, -1);
    if (pile)
      eng_pile_push(pile, (uint16_t)i);
  }
  return 0;
}

/* Realm cards: {"card", "loc", "items"}; top says Heroes. */
static int realm(builder *b, int seat, const json_t *seatobj, const char *key,
                 bool top) {
  json_t *a = json_object_get(seatobj, key);
  static const char *const allowed[] = {"card", "loc", "items", NULL};
  if (!a)
    return 0;
  if (!json_is_array(a))
    return bad(b, "seat %d: \"%s\" must be a list", seat, key);
  size_t k;
  json_t *o;
  json_array_foreach(a, k, o) {
    int i, loc;
    if (keys_ok(b, o, key, allowed) ||
        int_key(b, o, "loc", 0, VL_LOCS - 1, 0, key, &loc) ||
        take(b, seat, json_object_get(o, "card"),
             top ? VL_DECK_FATE : VL_DECK_VILLAIN, &i))
      return 1;
    place(b, i, top ? VL_Z_TOP : VL_Z_REALM, seat, loc, -1);
    json_t *items = json_object_get(o, "items");
    size_t n;
    json_t *c;
    json_array_foreach(items, n, c) {
      int it;
      if (take(b, seat, c, top ? VL_DECK_FATE : VL_DECK_VILLAIN, &it))
        return 1;
      place(b, it, top ? VL_Z_TOP : VL_Z_REALM, seat, loc, i);
    }
  }
  return 0;
}

static int build_seat(builder *b, int seat, const json_t *o) {
  static const char *const allowed[] = {
      "power",    "mover",    "track",  "defeated", "locked",
      "hand",     "realm",    "heroes", "discard",  "fate_discard",
      "deck_top", "fate_top", "looked", NULL};
  vl_state *s = b->s;
  vl_seat *q = &s->seat[seat];
  char where[24];
  snprintf(where, sizeof where, "seat %d", seat);
  int power, mover, track, defeated;
  if (keys_ok(b, o, where, allowed) ||
      int_key(b, o, "power", 0, 999, 0, where, &power) ||
      int_key(b, o, "mover", 0, VL_LOCS - 1, 0, where, &mover) ||
      int_key(b, o, "track", 0, 30, 0, where, &track) ||
      int_key(b, o, "defeated", 0, 99, 0, where, &defeated))
    return 1;
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
  if (list(b, seat, o, "hand", VL_DECK_VILLAIN, VL_Z_HAND, NULL) ||
      realm(b, seat, o, "realm", false) || realm(b, seat, o, "heroes", true) ||
      list(b, seat, o, "discard", VL_DECK_VILLAIN, VL_Z_VDISC,
           &s->vdisc[seat]) ||
      list(b, seat, o, "fate_discard", VL_DECK_FATE, VL_Z_FDISC,
           &s->fdisc[seat]))
    return 1;
  /* Decks: the rest shuffled, then the named top cards, drawn first. */
  int tops[2][VL_BLOCK], n_top[2] = {0, 0};
  static const char *const top_keys[2] = {"deck_top", "fate_top"};
  for (int d = 0; d < 2; d++) {
    json_t *a = json_object_get(o, top_keys[d]);
    size_t k;
    json_t *c;
    json_array_foreach(a, k, c) {
      if (take(b, seat, c, d, &tops[d][n_top[d]]))
        return 1;
      n_top[d]++;
    }
  }
  const vl_villain *v = vl_villain_of(s, seat);
  eng_pile *decks[2] = {&s->vdeck[seat], &s->fdeck[seat]};
  for (int d = 0; d < 2; d++) {
    int lo = seat * VL_BLOCK + (d ? VL_VDECK : 0);
    int hi = d ? lo + v->n_fate : lo + VL_VDECK;
    for (int i = lo; i < hi; i++)
      if (!b->placed[i]) {
        b->placed[i] = true;
        place(b, i, d ? VL_Z_FDECK : VL_Z_VDECK, seat, 0, -1);
        eng_pile_push(decks[d], (uint16_t)i);
      }
    eng_pile_shuffle(decks[d], &s->rng);
    for (int k = n_top[d] - 1; k >= 0; k--) {
      place(b, tops[d][k], d ? VL_Z_FDECK : VL_Z_VDECK, seat, 0, -1);
      eng_pile_push(decks[d], (uint16_t)tops[d][k]);
    }
  }
  json_t *looked = json_object_get(o, "looked");
  size_t k;
  json_t *c;
  json_array_foreach(looked, k, c) {
    int i = vl_position_find(s, seat, json_string_value(c), VL_Z_FDECK);
    if (i < 0)
      return bad(b, "%s: looked at '%s', which is not on the fate deck", where,
                 json_string_value(c) ? json_string_value(c) : "?");
    s->w[i].known |= (uint8_t)(1u << seat);
  }
  return 0;
}

int vl_position_build(vl_state *s, const json_t *pos, char *err, size_t cap) {
  static const char *const allowed[] = {
      "rule",  "villains", "seed", "first",      "current", "turn",
      "round", "phase",    "used", "fate_token", "seats",   NULL};
  builder b = {.s = s, .err = err, .cap = cap};
  if (!vl_data_get(VL_PROFILE_DISNEY))
    return bad(&b, "the villain data does not load");
  if (keys_ok(&b, pos, "position", allowed))
    return 1;
  if (!json_is_string(json_object_get(pos, "rule")))
    return bad(&b, "position: \"rule\" (the rulebook passage) is required");
  json_t *vils = json_object_get(pos, "villains");
  if (!json_is_array(vils) || json_array_size(vils) < 2 ||
      json_array_size(vils) > VL_SEATS)
    return bad(&b, "position: \"villains\" lists 2 to 6 villain ids");
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
  s->profile = VL_PROFILE_DISNEY;
  s->players = (uint8_t)players;
  snprintf(s->mode, sizeof s->mode, "choose");
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
  for (int p = 0; p < players; p++) {
    const char *id = json_string_value(json_array_get(vils, (size_t)p));
    for (int k = 0; id && k < vl_loaded[VL_PROFILE_DISNEY].n; k++)
      if (strcmp(vl_loaded[VL_PROFILE_DISNEY].v[k].id, id) == 0)
        s->seat[p].villain = (int8_t)k;
    if (s->seat[p].villain < 0)
      return bad(&b, "position: no villain '%s'", id ? id : "?");
    s->seat[p].pos = (uint8_t)((p - first + players) % players);
    for (int l = 0; l < VL_LOCS; l++)
      if (vl_loaded[VL_PROFILE_DISNEY].v[s->seat[p].villain].loc[l].locked)
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
  for (int p = 0; p < players; p++) {
    json_t *o = json_array_get(seats, (size_t)p);
    if (build_seat(&b, p, o ? o : empty)) {
      json_decref(empty);
      return 1;
    }
  }
  json_decref(empty);
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
  if (!id || seat < 0 || seat >= s->players || !vl_villain_of(s, seat))
    return -1;
  for (int i = seat * VL_BLOCK; i < (seat + 1) * VL_BLOCK; i++) {
    int k = i % VL_BLOCK;
    if (k >= VL_VDECK + vl_villain_of(s, seat)->n_fate)
      continue;
    if (strcmp(vl_card_of(s, i)->id, id) == 0 &&
        (zone < 0 || s->w[i].zone == zone))
      return i;
  }
  return -1;
}

/* ---- what an answer tells -------------------------------------------- */

/* Whether a card named name is one viewer may see in s. */
static bool seen_by(const vl_state *s, const char *name, int viewer) {
  for (int i = 0; i < s->players * VL_BLOCK; i++)
    if (s->w[i].zone != VL_Z_NONE &&
        strcmp(vl_card_of(s, i)->name, name) == 0 && vl_visible(s, i, viewer))
      return true;
  return false;
}

/* Whether a card named name went into a deck during the answer. */
static bool into_deck(const vl_state *a, const vl_state *b, const char *name) {
  for (int i = 0; i < b->players * VL_BLOCK; i++) {
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
  for (int i = 0; i < s->players * VL_BLOCK; i++)
    if (shown[i] && strcmp(vl_card_of(s, i)->name, name) == 0)
      return true;
  return false;
}

/* Blanks out of line every text of a card its reader may see before or
 * after the answer: a card's text may name another card ("Find Maren
 * Holt ... and play her") without telling where that card is. */
static void scrub_texts(const vl_state *a, const vl_state *b, int seat,
                        char *line) {
  for (int i = 0; i < b->players * VL_BLOCK; i++) {
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
    /* Every card name of the table's villains the line holds, outside
     * the texts of cards its reader sees. */
    char line[sizeof e->text];
    memcpy(line, e->text, sizeof line);
    scrub_texts(before, after, e->seat, line);
    for (int i = 0; i < players * VL_BLOCK; i++) {
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
