/*
 * dis_io.c: the Disorder state as JSON (saves), each viewer's view, the
 * invariants the simulator checks after every answer, and the result.
 *
 * The full state (to_json) holds everything, deck orders and hands
 * included, and never leaves the engine except into storage. It names
 * cards and deck designs by their ids, so a save outlives a reordering of
 * the data files. A view holds exactly what its viewer may see ("Open and
 * hidden information" in docs/rules/disorder.md): both decks' lists, the
 * play and minted areas, the chain, the discard piles, hand and deck
 * sizes, and the viewer's own hand. dis_check builds every view and walks
 * it, so what it proves is what players receive.
 */
#include "dis.h"

#include "../../rsutil.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *const phase_names[] = {"design",  "draft", "rps",  "main",
                                          "window",  "room",  "pick", "copy",
                                          "discard", "over"};
static const char *const zone_names[] = {
    "none", "deck", "hand", "villain_row", "monster_row", "minted", "discard"};
static const char *const mode_names[] = {"standard", "random"};
#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))
_Static_assert(COUNT(phase_names) == DIS_PHASES, "a name per phase");
_Static_assert(COUNT(zone_names) == DIS_ZONES, "a name per zone");

#define DECK_VILLAINS 4 /* a deck's Villains: instances 0-3 of its block */
#define MINTED_MAX 2    /* the second mint ends the game */

const char *dis_phase_name(int phase) {
  return phase >= 0 && phase < DIS_PHASES ? phase_names[phase] : "?";
}

const char *dis_zone_name(int zone) {
  return zone >= 0 && zone < DIS_ZONES ? zone_names[zone] : "?";
}

const dis_card *dis_def(const dis_state *s, int i) {
  return &dis_data_get()->cards[s->def[i]];
}

/* dis_in_play is dis.c's (the rules use it most). */

/* ---- facts the three parts share ----------------------------------------- */

static bool drafting(const dis_state *s) {
  return s->phase == DIS_PH_DESIGN || s->phase == DIS_PH_DRAFT;
}

/* How many of seat's Villain instances hold a Villain: those drafted so
 * far while the draft runs (each seat's picks fill its block in draft
 * order), all four after it. */
static int villains_of(const dis_state *s, int seat) {
  if (!drafting(s))
    return DECK_VILLAINS;
  return dis_picks_of(s->drafted, seat);
}


/* The ordered place zone (DIS_Z_DECK..DIS_Z_DISCARD) of seat: its cards,
 * *n their number, *limit the most it may hold. */
static uint8_t *place(dis_state *s, int zone, int seat, uint8_t **n,
                      int *limit) {
  *limit = zone == DIS_Z_VROW || zone == DIS_Z_MROW ? DIS_ROW
           : zone == DIS_Z_MINTED                   ? MINTED_MAX
                                                    : DIS_DECK;
  return dis_place(s, zone, seat, n);
}

static const uint8_t *cplace(const dis_state *s, int zone, int seat, int *n,
                             int *limit) {
  uint8_t *count;
  const uint8_t *c = place((dis_state *)s, zone, seat, &count, limit);
  *n = *count;
  return c;
}

/* The words of card c's trait t: its part of the card text, from its
 * timing's symbol to the other trait's; the whole text when the symbol
 * is not found. */
static void trait_text(const dis_card *c, int t, char *buf, size_t cap) {
  const char *start = t < c->n_traits
                          ? strstr(c->text, dis_timing_symbol(c->t[t].timing))
                          : NULL;
  if (!start || c->n_traits < 2) {
    snprintf(buf, cap, "%s", c->text);
    return;
  }
  const char *end = c->text + strlen(c->text);
  const char *other = strstr(c->text, dis_timing_symbol(c->t[1 - t].timing));
  if (other && other > start)
    end = other;
  while (end > start && end[-1] == ' ')
    end--;
  snprintf(buf, cap, "%.*s", (int)(end - start), start);
}

/* Whether instance i has been dealt no card yet (a save writes its card
 * as null): during the draft, a Villain instance not yet drafted or a
 * Monster instance not yet filled from its design, whose def is still 0. */
static bool undealt(const dis_state *s, const dis_data *d, int i) {
  if (s->zone[i] != DIS_Z_NONE || s->def[i] != 0)
    return false;
  int seat = dis_owner(i), k = i % DIS_DECK;
  if (k < DECK_VILLAINS)
    return k >= villains_of(s, seat);
  return s->design[seat] < 0 ||
         d->designs[s->design[seat]].monsters[k - DECK_VILLAINS] != 0;
}

/* ---- building JSON ---------------------------------------------------------
 * Every setter takes ownership of v; a NULL v or a failed set (out of
 * memory) clears *ok, and the builder then returns NULL. */

static void set(json_t *o, const char *key, json_t *v, bool *ok) {
  if (!v || json_object_set_new(o, key, v))
    *ok = false;
}

static void push(json_t *a, json_t *v, bool *ok) {
  if (!v || json_array_append_new(a, v))
    *ok = false;
}

/* A card or seat reference: the number, or null for DIS_NONE. */
static json_t *ref(uint8_t x) {
  return x == DIS_NONE ? json_null() : json_integer(x);
}

static json_t *done(json_t *j, bool ok) {
  if (ok)
    return j;
  json_decref(j);
  return NULL;
}

/* ---- the view --------------------------------------------------------------
 */

/* A card's public facts: id, name, kind, DNA (a Monster's letter, a
 * Villain's Sequence), colour, text. */
static json_t *card_facts(const dis_card *c, bool *ok) {
  char dna[DIS_SEQ + 1] = {0};
  if (c->kind == DIS_KIND_MONSTER && c->letter >= 0 && c->letter < 4)
    dna[0] = (char)('A' + c->letter);
  else
    snprintf(dna, sizeof dna, "%s", c->seq);
  json_t *o = json_object();
  set(o, "id", json_string(c->id), ok);
  set(o, "name", json_string(c->name), ok);
  set(o, "kind",
      json_string(c->kind == DIS_KIND_MONSTER ? "Monster" : "Villain"), ok);
  set(o, "dna", json_string(dna), ok);
  set(o, "colour", json_string(dis_colour_name(c->colour)), ok);
  set(o, "text", json_string(c->text), ok);
  return o;
}

/* Instance i as the table sees it: its facts, "i" (so that
 * eng_view_cards finds it), its owner, its used mark and whether it was
 * put into play this turn. */
static json_t *card_ref(const dis_state *s, int i, bool *ok) {
  json_t *o = card_facts(dis_def(s, i), ok);
  set(o, "i", json_integer(i), ok);
  set(o, "owner", json_integer(dis_owner(i)), ok);
  set(o, "used", json_boolean(s->used[i]), ok);
  set(o, "new", json_boolean(dis_in_play(s, i) && s->entered[i] == s->turn),
      ok);
  return o;
}

static json_t *card_list(const dis_state *s, const uint8_t *c, int n,
                         bool *ok) {
  json_t *a = json_array();
  for (int k = 0; k < n; k++)
    push(a, card_ref(s, c[k], ok), ok);
  return a;
}

static json_t *opt_card(const dis_state *s, uint8_t i, bool *ok) {
  return i < DIS_CARDS ? card_ref(s, i, ok) : json_null();
}

static json_t *design_json(const dis_data *d, int g, bool *ok) {
  if (g < 0)
    return json_null();
  json_t *o = json_object();
  set(o, "id", json_string(d->designs[g].id), ok);
  set(o, "name", json_string(d->designs[g].name), ok);
  set(o, "guide", json_string(d->designs[g].guide), ok);
  return o;
}

static json_t *player_json(const dis_state *s, const dis_data *d, int p,
                           bool *ok) {
  json_t *o = json_object(), *villains = json_array();
  for (int k = 0; k < villains_of(s, p); k++)
    push(villains, card_facts(dis_def(s, p * DIS_DECK + k), ok), ok);
  set(o, "seat", json_integer(p), ok);
  set(o, "design", design_json(d, s->design[p], ok), ok);
  set(o, "villains", villains, ok);
  set(o, "deck", json_integer(s->n_deck[p]), ok);
  set(o, "hand", json_integer(s->n_hand[p]), ok);
  set(o, "villain_row", card_list(s, s->vrow[p], s->n_vrow[p], ok), ok);
  set(o, "monster_row", card_list(s, s->mrow[p], s->n_mrow[p], ok), ok);
  set(o, "minted", card_list(s, s->minted[p], s->n_minted[p], ok), ok);
  return o;
}

/* The chain, oldest first: each entry's card, the words of its trait, its
 * controller and its subject ("it"). */
static json_t *chain_json(const dis_state *s, bool *ok) {
  json_t *a = json_array();
  for (int k = 0; k < s->n_chain; k++) {
    const dis_entry *e = &s->chain[k];
    const dis_card *c = dis_def(s, e->card);
    char words[DIS_TEXT_MAX + 1];
    trait_text(c, e->trait, words, sizeof words);
    json_t *o = json_object();
    set(o, "card", card_ref(s, e->card, ok), ok);
    set(o, "trait", json_string(words), ok);
    set(o, "op", json_string(dis_op_name(c->t[e->trait].op)), ok);
    set(o, "ctrl", json_integer(e->ctrl), ok);
    set(o, "subject", opt_card(s, e->subject, ok), ok);
    push(a, o, ok);
  }
  return a;
}

/* The draft: whose choice, the designs (while they are chosen), the pool's
 * Villains nobody has drafted yet. */
static json_t *draft_json(const dis_state *s, const dis_data *d, int seat,
                          bool *ok) {
  json_t *o = json_object(), *pool = json_array();
  for (int k = 0; k < d->n_pool; k++) {
    bool taken = false;
    for (int p = 0; p < DIS_PLAYERS; p++)
      for (int v = 0; v < villains_of(s, p); v++)
        taken = taken || s->def[p * DIS_DECK + v] == d->pool[k];
    if (!taken)
      push(pool, card_facts(&d->cards[d->pool[k]], ok), ok);
  }
  set(o, "seat", seat >= 0 ? json_integer(seat) : json_null(), ok);
  if (s->phase == DIS_PH_DESIGN) {
    json_t *designs = json_array();
    for (int g = 0; g < d->n_designs; g++)
      push(designs, design_json(d, g, ok), ok);
    set(o, "designs", designs, ok);
  } else {
    set(o, "pick", json_integer(s->drafted + 1), ok);
  }
  set(o, "pool", pool, ok);
  return o;
}

json_t *dis_view(const void *st, int viewer) {
  const dis_state *s = st;
  const dis_data *d = dis_data_get();
  if (!d)
    return NULL;
  bool ok = true;
  eng_prompt p;
  dis_prompt(s, &p);
  json_t *v = json_object();
  set(v, "ruleset", json_string("disorder"), &ok);
  set(v, "mode", json_string(mode_names[s->mode_random ? 1 : 0]), &ok);
  set(v, "turn", json_integer(s->turn), &ok);
  set(v, "phase", json_string(dis_phase_name(s->phase)), &ok);
  set(v, "active", json_integer(s->active), &ok);
  set(v, "first", ref(s->first), &ok);
  set(v, "rps", ref(s->rps), &ok);
  set(v, "waiting", p.player >= 0 ? json_integer(p.player) : json_null(), &ok);
  set(v, "last_turns",
      s->last_left >= 0 ? json_integer(s->last_left) : json_null(), &ok);
  set(v, "over", json_boolean(s->phase == DIS_PH_OVER), &ok);
  set(v, "winner", ref(s->winner), &ok);
  set(v, "reason", json_string(s->reason), &ok);
  json_t *players = json_array();
  for (int q = 0; q < DIS_PLAYERS; q++) {
    char key[16];
    push(players, player_json(s, d, q, &ok), &ok);
    snprintf(key, sizeof key, "discard_%d", q + 1);
    set(v, key, card_list(s, s->discard[q], s->n_discard[q], &ok), &ok);
  }
  set(v, "players", players, &ok);
  set(v, "chain", chain_json(s, &ok), &ok);
  if (s->phase == DIS_PH_WINDOW) {
    json_t *w = json_object();
    set(w, "seat", json_integer(1 - s->active), &ok);
    set(w, "what", json_string(s->win_what), &ok);
    set(w, "enter", opt_card(s, s->win_enter, &ok), &ok);
    set(w, "answers_trait", json_boolean(s->win_trait), &ok);
    set(v, "window", w, &ok);
  }
  if (s->phase == DIS_PH_ROOM) {
    json_t *r = json_object();
    set(r, "seat", json_integer(s->enter.seat), &ok);
    set(r, "card", card_ref(s, s->enter.card, &ok), &ok);
    set(r, "play", json_boolean(s->enter.play), &ok);
    set(v, "room", r, &ok);
  }
  if (s->res.on) {
    const dis_res *r = &s->res;
    char words[DIS_TEXT_MAX + 1];
    trait_text(dis_def(s, r->card), r->trait, words, sizeof words);
    json_t *o = json_object();
    set(o, "card", card_ref(s, r->e.card, &ok), &ok);
    set(o, "op", json_string(dis_op_name(r->op)), &ok);
    set(o, "trait", json_string(words), &ok);
    set(o, "ctrl", json_integer(r->e.ctrl), &ok);
    set(o, "copied", json_boolean(r->copied), &ok);
    if (r->copied)
      set(o, "from", card_ref(s, r->card, &ok), &ok);
    set(v, "resolving", o, &ok);
  }
  if (drafting(s))
    set(v, "draft", draft_json(s, d, p.player, &ok), &ok);
  if (viewer >= 0 && viewer < DIS_PLAYERS) {
    set(v, "you", json_integer(viewer), &ok);
    set(v, "hand", card_list(s, s->hand[viewer], s->n_hand[viewer], &ok), &ok);
  }
  return done(v, ok);
}

/* ---- the save --------------------------------------------------------------
 */

static json_t *entry_json(const dis_entry *e, bool *ok) {
  json_t *o = json_object();
  set(o, "card", json_integer(e->card), ok);
  set(o, "trait", json_integer(e->trait), ok);
  set(o, "ctrl", json_integer(e->ctrl), ok);
  set(o, "subject", ref(e->subject), ok);
  set(o, "ans_card", ref(e->ans_card), ok);
  set(o, "ans_trait", ref(e->ans_trait), ok);
  return o;
}

json_t *dis_to_json(const void *st) {
  const dis_state *s = st;
  const dis_data *d = dis_data_get();
  if (!d)
    return NULL;
  bool ok = true;
  json_t *j = json_object();
  set(j, "ruleset", json_string("disorder"), &ok);
  set(j, "version", json_integer(dis_ruleset.version), &ok);
  set(j, "rng", eng_rng_to_json(&s->rng), &ok);
  set(j, "mode", json_string(mode_names[s->mode_random ? 1 : 0]), &ok);
  set(j, "phase", json_string(dis_phase_name(s->phase)), &ok);
  set(j, "turn", json_integer(s->turn), &ok);
  set(j, "active", json_integer(s->active), &ok);
  set(j, "first", ref(s->first), &ok);
  set(j, "rps", ref(s->rps), &ok);
  set(j, "pick_seat", json_integer(s->pick_seat), &ok);
  set(j, "drafted", json_integer(s->drafted), &ok);
  json_t *designs = json_array();
  for (int p = 0; p < DIS_PLAYERS; p++)
    push(designs,
         s->design[p] >= 0 ? json_string(d->designs[s->design[p]].id)
                           : json_null(),
         &ok);
  set(j, "designs", designs, &ok);
  /* Per instance: its card by id, zone by name, side, used mark, the turn
   * it was put into play. */
  json_t *def = json_array(), *zone = json_array(), *side = json_array(),
         *used = json_array(), *entered = json_array();
  for (int i = 0; i < DIS_CARDS; i++) {
    push(def, undealt(s, d, i) ? json_null() : json_string(dis_def(s, i)->id),
         &ok);
    push(zone, json_string(dis_zone_name(s->zone[i])), &ok);
    push(side, json_integer(s->side[i]), &ok);
    push(used, json_boolean(s->used[i]), &ok);
    push(entered, json_integer(s->entered[i]), &ok);
  }
  set(j, "def", def, &ok);
  set(j, "zone", zone, &ok);
  set(j, "side", side, &ok);
  set(j, "used", used, &ok);
  set(j, "entered", entered, &ok);
  /* The ordered places, each [seat 1's, seat 2's], bottom (or first in)
   * first. */
  for (int z = DIS_Z_DECK; z < DIS_ZONES; z++) {
    json_t *both = json_array();
    for (int p = 0; p < DIS_PLAYERS; p++) {
      int n, limit;
      const uint8_t *c = cplace(s, z, p, &n, &limit);
      json_t *a = json_array();
      for (int k = 0; k < n; k++)
        push(a, json_integer(c[k]), &ok);
      push(both, a, &ok);
    }
    set(j, zone_names[z], both, &ok);
  }
  set(j, "drawn", json_boolean(s->drawn), &ok);
  set(j, "played", json_boolean(s->played), &ok);
  set(j, "started", json_boolean(s->started), &ok);
  set(j, "last_left", json_integer(s->last_left), &ok);
  json_t *chain = json_array();
  for (int k = 0; k < s->n_chain; k++)
    push(chain, entry_json(&s->chain[k], &ok), &ok);
  set(j, "chain", chain, &ok);
  set(j, "win_enter", ref(s->win_enter), &ok);
  set(j, "win_trait", json_boolean(s->win_trait), &ok);
  set(j, "win_what", json_string(s->win_what), &ok);
  const dis_res *r = &s->res;
  json_t *res = json_object();
  set(res, "on", json_boolean(r->on), &ok);
  set(res, "entry", entry_json(&r->e, &ok), &ok);
  set(res, "op", json_string(dis_op_id(r->op)), &ok);
  set(res, "card", json_integer(r->card), &ok);
  set(res, "trait", json_integer(r->trait), &ok);
  set(res, "step", json_integer(r->step), &ok);
  set(res, "chooser", json_integer(r->chooser), &ok);
  set(res, "left", json_integer(r->left), &ok);
  set(res, "taken", ref(r->taken), &ok);
  set(res, "copied", json_boolean(r->copied), &ok);
  set(j, "res", res, &ok);
  json_t *enter = json_object();
  set(enter, "card", json_integer(s->enter.card), &ok);
  set(enter, "seat", json_integer(s->enter.seat), &ok);
  set(enter, "play", json_boolean(s->enter.play), &ok);
  set(j, "enter", enter, &ok);
  set(j, "room_back", json_string(dis_phase_name(s->room_back)), &ok);
  set(j, "winner", ref(s->winner), &ok);
  set(j, "reason", json_string(s->reason), &ok);
  return done(j, ok);
}

/* A reader of one JSON object of a save: every read counts the member,
 * any missing or malformed one marks the reader bad, and rd_done accepts
 * the object only when it held exactly the members read. */
typedef struct rd {
  const json_t *o;
  size_t used;
  bool bad;
} rd;

static const json_t *rd_get(rd *r, const char *key) {
  const json_t *v = json_object_get(r->o, key);
  if (v)
    r->used++;
  else
    r->bad = true;
  return v;
}

static long rd_int(rd *r, const char *key, long lo, long hi) {
  long x = lo;
  if (!eng_jint(rd_get(r, key), lo, hi, &x))
    r->bad = true;
  return x;
}

static bool rd_bool(rd *r, const char *key) {
  const json_t *v = rd_get(r, key);
  if (!json_is_boolean(v))
    r->bad = true;
  return json_is_true(v);
}

/* A number in [0, hi] or null (DIS_NONE). */
static uint8_t rd_ref(rd *r, const char *key, long hi) {
  const json_t *v = rd_get(r, key);
  long x = 0;
  if (json_is_null(v))
    return DIS_NONE;
  if (!eng_jint(v, 0, hi, &x))
    r->bad = true;
  return (uint8_t)x;
}

/* A string without NUL bytes shorter than cap, or NULL (r marked bad). */
static const char *str_of(rd *r, const json_t *v, size_t cap) {
  const char *t = json_string_value(v);
  if (!t || strlen(t) != json_string_length(v) || strlen(t) >= cap) {
    r->bad = true;
    return NULL;
  }
  return t;
}

static void rd_str(rd *r, const char *key, char *dst, size_t cap) {
  const char *t = str_of(r, rd_get(r, key), cap);
  if (t)
    memcpy(dst, t, strlen(t) + 1);
}

static int rd_name(rd *r, const char *key, const char *const *names, int n) {
  const json_t *v = rd_get(r, key);
  int k = eng_lookup(names, n, json_string_value(v));
  if (k < 0)
    r->bad = true;
  return k < 0 ? 0 : k;
}

static bool rd_done(const rd *r) {
  return !r->bad && json_is_object(r->o) && json_object_size(r->o) == r->used;
}

/* An array member of exactly n elements (n < 0: any size), or NULL. */
static const json_t *rd_array(rd *r, const char *key, long n) {
  const json_t *a = rd_get(r, key);
  if (!json_is_array(a) || (n >= 0 && (long)json_array_size(a) != n)) {
    r->bad = true;
    return NULL;
  }
  return a;
}

static bool entry_from(const json_t *o, dis_entry *e) {
  rd r = {o, 0, false};
  e->card = (uint8_t)rd_int(&r, "card", 0, DIS_CARDS - 1);
  e->trait = (uint8_t)rd_int(&r, "trait", 0, 1);
  e->ctrl = (uint8_t)rd_int(&r, "ctrl", 0, DIS_PLAYERS - 1);
  e->subject = rd_ref(&r, "subject", DIS_CARDS - 1);
  e->ans_card = rd_ref(&r, "ans_card", DIS_CARDS - 1);
  e->ans_trait = rd_ref(&r, "ans_trait", 1);
  return rd_done(&r);
}

static bool res_from(const json_t *o, dis_res *res) {
  rd r = {o, 0, false};
  const char *ops[DIS_OPS];
  for (int k = 0; k < DIS_OPS; k++)
    ops[k] = dis_op_id(k);
  res->on = rd_bool(&r, "on");
  if (!entry_from(rd_get(&r, "entry"), &res->e))
    return false;
  res->op = (uint8_t)rd_name(&r, "op", ops, DIS_OPS);
  res->card = (uint8_t)rd_int(&r, "card", 0, DIS_CARDS - 1);
  res->trait = (uint8_t)rd_int(&r, "trait", 0, 1);
  res->step = (uint8_t)rd_int(&r, "step", 0, 1);
  res->chooser = (uint8_t)rd_int(&r, "chooser", 0, DIS_PLAYERS - 1);
  res->left = (uint8_t)rd_int(&r, "left", 0, 2);
  res->taken = rd_ref(&r, "taken", DIS_CARDS - 1);
  res->copied = rd_bool(&r, "copied");
  return rd_done(&r);
}

/* The instance arrays: cards by id (null: undealt, *was_null), zones by
 * name, sides, used marks, turns put into play. */
static bool instances_from(rd *r, const dis_data *d, dis_state *s,
                           bool was_null[DIS_CARDS]) {
  const json_t *def = rd_array(r, "def", DIS_CARDS),
               *zone = rd_array(r, "zone", DIS_CARDS),
               *side = rd_array(r, "side", DIS_CARDS),
               *used = rd_array(r, "used", DIS_CARDS),
               *entered = rd_array(r, "entered", DIS_CARDS);
  if (r->bad)
    return false;
  for (int i = 0; i < DIS_CARDS; i++) {
    const json_t *id = json_array_get(def, (size_t)i);
    const json_t *u = json_array_get(used, (size_t)i);
    int z = eng_lookup(zone_names, DIS_ZONES,
                       json_string_value(json_array_get(zone, (size_t)i)));
    long sd, en;
    was_null[i] = json_is_null(id);
    int c = was_null[i] ? 0 : dis_card_find(d, json_string_value(id));
    if (c < 0 || z < 0 || !json_is_boolean(u) ||
        !eng_jint(json_array_get(side, (size_t)i), 0, DIS_PLAYERS - 1, &sd) ||
        !eng_jint(json_array_get(entered, (size_t)i), -1, INT16_MAX, &en))
      return false;
    s->def[i] = (uint16_t)c;
    s->zone[i] = (uint8_t)z;
    s->side[i] = (uint8_t)sd;
    s->used[i] = json_is_true(u);
    s->entered[i] = (int16_t)en;
  }
  return true;
}

/* The ordered places: per zone, [seat 1's, seat 2's], each within the
 * place's limit. Where the cards belong is dis_check's to prove. */
static bool places_from(rd *r, dis_state *s) {
  for (int z = DIS_Z_DECK; z < DIS_ZONES; z++) {
    const json_t *both = rd_array(r, zone_names[z], DIS_PLAYERS);
    if (!both)
      return false;
    for (int p = 0; p < DIS_PLAYERS; p++) {
      const json_t *a = json_array_get(both, (size_t)p);
      uint8_t *n;
      int limit;
      uint8_t *c = place(s, z, p, &n, &limit);
      if (!json_is_array(a) || json_array_size(a) > (size_t)limit)
        return false;
      size_t k;
      const json_t *x;
      json_array_foreach(a, k, x) {
        long i;
        if (!eng_jint(x, 0, DIS_CARDS - 1, &i))
          return false;
        c[(*n)++] = (uint8_t)i;
      }
    }
  }
  return true;
}

eng_rc dis_from_json(void *st, const json_t *j) {
  dis_state *s = st;
  memset(s, 0, sizeof *s);
  const dis_data *d = dis_data_get();
  if (!d || !json_is_object(j))
    return ENG_BAD_STATE;
  rd r = {j, 0, false};
  const char *rs = json_string_value(rd_get(&r, "ruleset"));
  if (!rs || strcmp(rs, "disorder") != 0 ||
      rd_int(&r, "version", 0, 1000) != dis_ruleset.version ||
      eng_rng_from_json(&s->rng, rd_get(&r, "rng")))
    return ENG_BAD_STATE;
  s->mode_random = (uint8_t)rd_name(&r, "mode", mode_names, 2);
  s->phase = (uint8_t)rd_name(&r, "phase", phase_names, DIS_PHASES);
  s->turn = (int16_t)rd_int(&r, "turn", 0, INT16_MAX);
  s->active = (uint8_t)rd_int(&r, "active", 0, DIS_PLAYERS - 1);
  s->first = rd_ref(&r, "first", DIS_PLAYERS - 1);
  s->rps = rd_ref(&r, "rps", DIS_PLAYERS - 1);
  s->pick_seat = (uint8_t)rd_int(&r, "pick_seat", 0, DIS_PLAYERS - 1);
  s->drafted = (uint8_t)rd_int(&r, "drafted", 0, 8);
  const json_t *designs = rd_array(&r, "designs", DIS_PLAYERS);
  for (int p = 0; designs && p < DIS_PLAYERS; p++) {
    const json_t *g = json_array_get(designs, (size_t)p);
    s->design[p] = -1;
    for (int k = 0; k < d->n_designs && json_is_string(g); k++)
      if (strcmp(d->designs[k].id, json_string_value(g)) == 0)
        s->design[p] = (int8_t)k;
    if (!json_is_null(g) && s->design[p] < 0)
      return ENG_BAD_STATE; /* a design Lair no longer has */
  }
  bool was_null[DIS_CARDS];
  if (r.bad || !instances_from(&r, d, s, was_null) || !places_from(&r, s))
    return ENG_BAD_STATE;
  s->drawn = rd_bool(&r, "drawn");
  s->played = rd_bool(&r, "played");
  s->started = rd_bool(&r, "started");
  s->last_left = (int8_t)rd_int(&r, "last_left", -1, 4);
  const json_t *chain = rd_array(&r, "chain", -1);
  if (!chain || json_array_size(chain) > DIS_CHAIN)
    return ENG_BAD_STATE;
  size_t k;
  const json_t *e;
  json_array_foreach(chain, k, e) {
    if (!entry_from(e, &s->chain[s->n_chain++]))
      return ENG_BAD_STATE;
  }
  s->win_enter = rd_ref(&r, "win_enter", DIS_CARDS - 1);
  s->win_trait = rd_bool(&r, "win_trait");
  rd_str(&r, "win_what", s->win_what, sizeof s->win_what);
  if (r.bad || !res_from(rd_get(&r, "res"), &s->res))
    return ENG_BAD_STATE;
  rd en = {rd_get(&r, "enter"), 0, false};
  s->enter.card = (uint8_t)rd_int(&en, "card", 0, DIS_CARDS - 1);
  s->enter.seat = (uint8_t)rd_int(&en, "seat", 0, DIS_PLAYERS - 1);
  s->enter.play = rd_bool(&en, "play");
  s->room_back = (uint8_t)rd_name(&r, "room_back", phase_names, DIS_PHASES);
  s->winner = rd_ref(&r, "winner", DIS_PLAYERS - 1);
  rd_str(&r, "reason", s->reason, sizeof s->reason);
  if (!rd_done(&r) || !rd_done(&en))
    return ENG_BAD_STATE;
  /* null stands for an undealt instance and nothing else, so the save
   * reads back as itself. */
  for (int i = 0; i < DIS_CARDS; i++)
    if (was_null[i] != undealt(s, d, i))
      return ENG_BAD_STATE;
  char msg[200];
  return dis_check(s, msg, sizeof msg) ? ENG_BAD_STATE : ENG_OK;
}

/* ---- the invariants --------------------------------------------------------
 */

static int fail(char *msg, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(char *msg, size_t cap, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  if (cap)
    vsnprintf(msg, cap, fmt, ap);
  va_end(ap);
  return 1;
}

#define NAME(s, i) (dis_def(s, i)->name)

static bool terminated(const char *t, size_t cap) {
  return memchr(t, '\0', cap) != NULL;
}

/* Every field within its type's meaning, before anything is looked up
 * through one. */
static int check_ranges(const dis_state *s, const dis_data *d, char *msg,
                        size_t cap) {
  if (s->phase >= DIS_PHASES || s->mode_random > 1 || s->turn < 0 ||
      s->active >= DIS_PLAYERS || s->pick_seat >= DIS_PLAYERS ||
      s->drafted > 8 || (s->rps != DIS_NONE && s->rps >= DIS_PLAYERS) ||
      (s->first != DIS_NONE && s->first >= DIS_PLAYERS) ||
      (s->first == DIS_NONE && !drafting(s)))
    return fail(msg, cap,
                "the state's phase, mode, turn or seats are out of range");
  for (int p = 0; p < DIS_PLAYERS; p++)
    if (s->design[p] < -1 || s->design[p] >= d->n_designs)
      return fail(msg, cap, "Villain %d plays design %d, which does not exist",
                  p + 1, s->design[p]);
  for (int i = 0; i < DIS_CARDS; i++) {
    if (s->def[i] >= d->n_cards)
      return fail(msg, cap, "c%d is card %d, which does not exist", i,
                  s->def[i]);
    if (s->zone[i] >= DIS_ZONES || s->side[i] >= DIS_PLAYERS || s->used[i] > 1)
      return fail(msg, cap,
                  "c%d (%s): zone %d, side %d or used mark %d out "
                  "of range",
                  i, NAME(s, i), s->zone[i], s->side[i], s->used[i]);
    if (s->entered[i] < -1 || s->entered[i] > s->turn)
      return fail(msg, cap,
                  "c%d (%s) was put into play on turn %d, not yet "
                  "played (turn %d)",
                  i, NAME(s, i), s->entered[i], s->turn);
  }
  if (s->n_chain > DIS_CHAIN || s->last_left < -1 || s->last_left > 4 ||
      (s->win_enter != DIS_NONE && s->win_enter >= DIS_CARDS) ||
      (s->winner != DIS_NONE && s->winner >= DIS_PLAYERS) ||
      s->room_back >= DIS_PHASES ||
      !terminated(s->win_what, sizeof s->win_what) ||
      !terminated(s->reason, sizeof s->reason))
    return fail(msg, cap,
                "the chain, the last turns, the window or the end "
                "is out of range");
  return 0;
}

/* All 40 instances each in exactly one place, the place its zone and
 * side say, holding what that place may hold. */
static int check_places(const dis_state *s, char *msg, size_t cap) {
  uint8_t seen[DIS_CARDS] = {0};
  for (int z = DIS_Z_DECK; z < DIS_ZONES; z++)
    for (int p = 0; p < DIS_PLAYERS; p++) {
      int n, limit;
      const uint8_t *c = cplace(s, z, p, &n, &limit);
      if (n > limit)
        return fail(msg, cap, "Villain %d's %s holds %d cards, more than %d",
                    p + 1, zone_names[z], n, limit);
      for (int k = 0; k < n; k++) {
        int i = c[k];
        if (i >= DIS_CARDS)
          return fail(msg, cap,
                      "Villain %d's %s holds c%d, which does not "
                      "exist",
                      p + 1, zone_names[z], i);
        if (seen[i]++)
          return fail(msg, cap,
                      "c%d (%s) lies in two places (again in "
                      "Villain %d's %s)",
                      i, NAME(s, i), p + 1, zone_names[z]);
        if (s->zone[i] != z || s->side[i] != p)
          return fail(msg, cap,
                      "c%d (%s) lies in Villain %d's %s, but its "
                      "zone says %s of Villain %d",
                      i, NAME(s, i), p + 1, zone_names[z],
                      dis_zone_name(s->zone[i]), s->side[i] + 1);
        int kind = dis_def(s, i)->kind;
        bool own_pile =
            z == DIS_Z_DECK || z == DIS_Z_HAND || z == DIS_Z_DISCARD;
        if (own_pile && dis_owner(i) != p)
          return fail(msg, cap,
                      "c%d (%s), Villain %d's card, is in Villain "
                      "%d's %s",
                      i, NAME(s, i), dis_owner(i) + 1, p + 1, zone_names[z]);
        if ((z == DIS_Z_VROW || z == DIS_Z_MINTED) &&
            (kind != DIS_KIND_VILLAIN || dis_owner(i) != p))
          return fail(msg, cap,
                      "c%d (%s) in Villain %d's %s is not one of "
                      "their Villains",
                      i, NAME(s, i), p + 1, zone_names[z]);
        if (z == DIS_Z_MROW && kind != DIS_KIND_MONSTER)
          return fail(msg, cap,
                      "c%d (%s) in Villain %d's Monster row is not "
                      "a Monster",
                      i, NAME(s, i), p + 1);
      }
    }
  for (int i = 0; i < DIS_CARDS; i++)
    if (s->zone[i] != DIS_Z_NONE && !seen[i])
      return fail(msg, cap, "c%d (%s): its zone says %s, but no place holds it",
                  i, NAME(s, i), dis_zone_name(s->zone[i]));
  return 0;
}

/* Each block is its deck: four distinct pool Villains in draft order, then
 * the design's 16 Monsters in file order; dealt once the draft is over;
 * used marks only where a marked trait can be used. */
static int check_cards(const dis_state *s, const dis_data *d, char *msg,
                       size_t cap) {
  for (int p = 0; p < DIS_PLAYERS; p++) {
    if (!drafting(s) && s->design[p] < 0)
      return fail(msg, cap, "Villain %d plays without a deck design", p + 1);
    for (int k = 0; k < DIS_DECK; k++) {
      int i = p * DIS_DECK + k;
      const dis_card *c = dis_def(s, i);
      if (drafting(s) != (s->zone[i] == DIS_Z_NONE))
        return fail(msg, cap, "c%d (%s) is %s during the %s phase", i, c->name,
                    dis_zone_name(s->zone[i]), dis_phase_name(s->phase));
      if (k < villains_of(s, p)) {
        if (c->kind != DIS_KIND_VILLAIN || c->deck != -1)
          return fail(msg, cap, "c%d (%s) should be a drafted pool Villain", i,
                      c->name);
        for (int q = 0; q < DIS_PLAYERS; q++)
          for (int v = 0; v < villains_of(s, q); v++) {
            int o = q * DIS_DECK + v;
            if (o < i && s->def[o] == s->def[i])
              return fail(msg, cap, "%s is drafted twice (c%d and c%d)",
                          c->name, o, i);
          }
      } else if (k >= DECK_VILLAINS && !drafting(s) &&
                 s->def[i] !=
                     d->designs[s->design[p]].monsters[k - DECK_VILLAINS]) {
        return fail(msg, cap,
                    "c%d (%s) is not Monster %d of Villain %d's "
                    "design",
                    i, c->name, k - DECK_VILLAINS + 1, p + 1);
      }
      bool marked = false;
      for (int t = 0; t < c->n_traits && t < 2; t++)
        marked = marked || c->t[t].timing == DIS_T_TIMED ||
                 c->t[t].timing == DIS_T_INTERRUPT ||
                 c->t[t].timing == DIS_T_AFTER_MINT;
      if (s->used[i] && (!dis_in_area(s, i) || !marked))
        return fail(msg, cap, "c%d (%s) is marked used in the %s", i, c->name,
                    dis_zone_name(s->zone[i]));
    }
  }
  return 0;
}

/* A card an entry or a resolution names: it exists and has been seen in
 * play (never in a deck). */
static bool named_ok(const dis_state *s, uint8_t i) {
  return i < DIS_CARDS && s->zone[i] != DIS_Z_NONE && s->zone[i] != DIS_Z_DECK;
}

static int check_entry(const dis_state *s, const dis_entry *e, const char *what,
                       char *msg, size_t cap) {
  if (!named_ok(s, e->card))
    return fail(msg, cap,
                "%s names c%d, which is nowhere it could trigger "
                "from",
                what, e->card);
  const dis_card *c = dis_def(s, e->card);
  if (e->trait >= c->n_traits || c->t[e->trait].timing == DIS_T_ALWAYS)
    return fail(msg, cap,
                "%s names trait %d of c%d (%s), which cannot "
                "trigger",
                what, e->trait + 1, e->card, c->name);
  if (e->ctrl >= DIS_PLAYERS)
    return fail(msg, cap, "%s is controlled by seat %d", what, e->ctrl);
  if (e->subject != DIS_NONE && !named_ok(s, e->subject))
    return fail(msg, cap, "%s's subject c%d is nowhere it could be", what,
                e->subject);
  if ((e->ans_card == DIS_NONE) != (e->ans_trait == DIS_NONE))
    return fail(msg, cap,
                "%s answers a card without a trait or a trait "
                "without a card",
                what);
  if (e->ans_card != DIS_NONE &&
      (!named_ok(s, e->ans_card) ||
       e->ans_trait >= dis_def(s, e->ans_card)->n_traits))
    return fail(msg, cap, "%s answers trait %d of c%d, which does not exist",
                what, e->ans_trait + 1, e->ans_card);
  return 0;
}

/* The chain and the resolution under way. */
static int check_chain(const dis_state *s, char *msg, size_t cap) {
  char what[32];
  for (int k = 0; k < s->n_chain; k++) {
    snprintf(what, sizeof what, "chain entry %d", k + 1);
    if (check_entry(s, &s->chain[k], what, msg, cap))
      return 1;
  }
  if (s->n_chain && (drafting(s) || s->phase == DIS_PH_RPS))
    return fail(msg, cap, "the chain holds %d entries before the first turn",
                s->n_chain);
  const dis_res *r = &s->res;
  if (!r->on)
    return 0;
  if (check_entry(s, &r->e, "the resolving entry", msg, cap))
    return 1;
  if (!named_ok(s, r->card) || r->trait >= dis_def(s, r->card)->n_traits ||
      dis_def(s, r->card)->t[r->trait].op != r->op)
    return fail(msg, cap,
                "the resolution carries out trait %d of c%d as %s, "
                "which it is not",
                r->trait + 1, r->card, dis_op_id(r->op));
  if (!r->copied && (r->card != r->e.card || r->trait != r->e.trait))
    return fail(msg, cap,
                "the resolution carries out another trait than its "
                "entry's without a COPY");
  if (r->chooser >= DIS_PLAYERS || r->left > 2 || r->step > 1 ||
      (r->taken != DIS_NONE && r->taken >= DIS_CARDS))
    return fail(msg, cap,
                "the resolution's chooser, count, step or card is "
                "out of range");
  return 0;
}

/* What each phase waits on exists. */
static int check_phase(const dis_state *s, char *msg, size_t cap) {
  const dis_res *r = &s->res;
  bool before = drafting(s) || s->phase == DIS_PH_RPS;
  if (before != (s->turn == 0) && s->phase != DIS_PH_OVER)
    return fail(msg, cap, "turn %d in the %s phase", s->turn,
                dis_phase_name(s->phase));
  if (!drafting(s) && s->drafted != 8)
    return fail(msg, cap, "the game goes on with %d Villains drafted",
                s->drafted);
  bool res_phase = s->phase == DIS_PH_PICK || s->phase == DIS_PH_COPY ||
                   s->phase == DIS_PH_DISCARD ||
                   (s->phase == DIS_PH_ROOM && !s->enter.play);
  if (r->on != res_phase)
    return fail(msg, cap, "a resolution is %sunder way in the %s phase",
                r->on ? "" : "not ", dis_phase_name(s->phase));
  switch (s->phase) {
  case DIS_PH_DESIGN:
    if (s->drafted || s->design[s->pick_seat] >= 0 || s->design[1] >= 0 ||
        (s->pick_seat == 1 && s->design[0] < 0))
      return fail(msg, cap, "Villain %d chooses a design out of turn",
                  s->pick_seat + 1);
    return 0;
  case DIS_PH_DRAFT:
    if (s->design[0] < 0 || s->design[1] < 0 || s->drafted >= 8)
      return fail(msg, cap,
                  "the draft runs without designs or past its "
                  "eighth pick");
    return 0;
  case DIS_PH_RPS:
    if (s->rps >= DIS_PLAYERS)
      return fail(msg, cap, "nobody won Rock-Paper-Scissors");
    return 0;
  case DIS_PH_WINDOW:
    if (s->win_trait &&
        (!s->n_chain || s->chain[s->n_chain - 1].ctrl != s->active))
      return fail(msg, cap,
                  "the window answers a trait the active player "
                  "did not put on top of the chain");
    if (s->win_enter != DIS_NONE &&
        (!dis_in_play(s, s->win_enter) || s->side[s->win_enter] != s->active))
      return fail(msg, cap,
                  "the window answers c%d (%s) entering play, but "
                  "it is in the %s",
                  s->win_enter, NAME(s, s->win_enter),
                  dis_zone_name(s->zone[s->win_enter]));
    return 0;
  case DIS_PH_ROOM: {
    const dis_enter *e = &s->enter;
    if (e->card >= DIS_CARDS || e->seat >= DIS_PLAYERS ||
        s->zone[e->card] != DIS_Z_HAND || s->side[e->card] != e->seat)
      return fail(msg, cap,
                  "the card waiting for room is not in its "
                  "player's hand");
    bool villain = dis_def(s, e->card)->kind == DIS_KIND_VILLAIN;
    int n = villain ? s->n_vrow[e->seat] : s->n_mrow[e->seat];
    if (n != DIS_ROW)
      return fail(msg, cap, "room is made in a row of %d cards", n);
    if (s->room_back != (e->play ? DIS_PH_MAIN : DIS_PH_PICK) ||
        (!e->play && r->op != DIS_OP_DROP))
      return fail(msg, cap,
                  "after making room the game would go on in the "
                  "%s phase",
                  dis_phase_name(s->room_back));
    return 0;
  }
  case DIS_PH_PICK:
    if (r->op != DIS_OP_BOUNCE && r->op != DIS_OP_BURN &&
        r->op != DIS_OP_READY && r->op != DIS_OP_FLIP && r->op != DIS_OP_DROP)
      return fail(msg, cap, "a card is picked for %s, which picks none",
                  dis_op_name(r->op));
    if (r->chooser != r->e.ctrl)
      return fail(msg, cap, "Villain %d picks for Villain %d's trait",
                  r->chooser + 1, r->e.ctrl + 1);
    if (r->op == DIS_OP_FLIP && r->step == 1 &&
        (r->taken >= DIS_CARDS || s->zone[r->taken] != DIS_Z_MROW ||
         s->side[r->taken] == r->e.ctrl))
      return fail(msg, cap, "a FLIP gives a Monster for one it did not take");
    return 0;
  case DIS_PH_COPY:
    if (r->op != DIS_OP_COPY || r->copied)
      return fail(msg, cap, "a trait to COPY is chosen for %s",
                  dis_op_name(r->op));
    return 0;
  case DIS_PH_DISCARD:
    if (r->op != DIS_OP_DISCARD || r->chooser != 1 - r->e.ctrl || r->left < 1 ||
        s->n_hand[r->chooser] <= r->left)
      return fail(msg, cap, "Villain %d discards %d of %d cards by choice",
                  r->chooser + 1, r->left, s->n_hand[r->chooser]);
    return 0;
  case DIS_PH_MAIN:
  case DIS_PH_OVER:
    return 0;
  default:
    return fail(msg, cap, "phase %d does not exist", s->phase);
  }
}

/* At most 2 minted, the game over at 2; the winner and reason agree with
 * the minted areas; the last turns only once both decks are empty. */
static int check_end(const dis_state *s, char *msg, size_t cap) {
  int a = s->n_minted[0], b = s->n_minted[1];
  bool over = s->phase == DIS_PH_OVER;
  if (s->last_left >= 0 && (s->n_deck[0] || s->n_deck[1]))
    return fail(msg, cap,
                "%d last turns left with %d and %d cards in the "
                "decks",
                s->last_left, s->n_deck[0], s->n_deck[1]);
  if (!over) {
    if (a >= 2 || b >= 2 || s->winner != DIS_NONE || s->reason[0])
      return fail(msg, cap,
                  "the game goes on with %d and %d minted "
                  "Villains, or with a winner",
                  a, b);
    return 0;
  }
  int w = s->winner;
  if (strcmp(s->reason, "minted_two") == 0) {
    if (w == DIS_NONE || s->n_minted[w] != 2 || s->n_minted[1 - w] > 1)
      return fail(msg, cap, "a win by two mints with %d and %d minted", a, b);
  } else if (strcmp(s->reason, "exhausted") == 0) {
    if (w == DIS_NONE || s->n_minted[w] <= s->n_minted[1 - w] || a > 1 ||
        b > 1 || s->last_left != 0)
      return fail(msg, cap,
                  "a win after the last turns with %d and %d "
                  "minted",
                  a, b);
  } else if (strcmp(s->reason, "exhausted_draw") == 0) {
    if (w != DIS_NONE || a != b || a > 1 || s->last_left != 0)
      return fail(msg, cap,
                  "a draw after the last turns with %d and %d "
                  "minted",
                  a, b);
  } else {
    return fail(msg, cap, "the game ended for no known reason ('%s')",
                s->reason);
  }
  return 0;
}

/* The cards viewer may see: everything in a play, minted or discard area,
 * their own hand, and every card the chain, the resolution, the window or
 * the room names (each was seen entering play or being Played). */
static void visible_to(const dis_state *s, int viewer, bool vis[DIS_CARDS]) {
  for (int i = 0; i < DIS_CARDS; i++) {
    int z = s->zone[i];
    vis[i] = dis_in_area(s, i) || z == DIS_Z_DISCARD ||
             (z == DIS_Z_HAND && s->side[i] == viewer);
  }
  for (int k = 0; k < s->n_chain; k++) {
    vis[s->chain[k].card] = true;
    if (s->chain[k].subject < DIS_CARDS)
      vis[s->chain[k].subject] = true;
  }
  if (s->res.on)
    vis[s->res.e.card] = vis[s->res.card] = true;
  if (s->phase == DIS_PH_WINDOW && s->win_enter < DIS_CARDS)
    vis[s->win_enter] = true;
  if (s->phase == DIS_PH_ROOM)
    vis[s->enter.card] = true;
}

typedef struct view_check {
  const dis_state *s;
  int viewer;
  const bool *vis;
  char *msg;
  size_t cap;
} view_check;

static int view_ref(void *ctx, json_int_t i) {
  const view_check *c = ctx;
  if (i < 0 || i >= DIS_CARDS)
    return fail(c->msg, c->cap,
                "the view of seat %d shows c%lld, which does "
                "not exist",
                c->viewer, (long long)i);
  if (c->vis[i])
    return 0;
  return fail(c->msg, c->cap,
              "the view of seat %d shows c%d (%s) from "
              "Villain %d's %s",
              c->viewer, (int)i, NAME(c->s, (int)i), c->s->side[i] + 1,
              dis_zone_name(c->s->zone[i]));
}

/* Each view shows only what its viewer may see, and its viewer's hand
 * whole. */
static int check_views(const dis_state *s, char *msg, size_t cap) {
  for (int viewer = -1; viewer < DIS_PLAYERS; viewer++) {
    bool vis[DIS_CARDS];
    visible_to(s, viewer, vis);
    json_t *v = dis_view(s, viewer);
    if (!v)
      return fail(msg, cap, "the view of seat %d could not be built", viewer);
    view_check c = {s, viewer, vis, msg, cap};
    int rc = eng_view_cards(v, view_ref, &c);
    const json_t *hand = json_object_get(v, "hand");
    if (!rc && (viewer < 0 ? hand != NULL
                           : json_array_size(hand) != s->n_hand[viewer]))
      rc = fail(msg, cap, "the view of seat %d shows %s hand", viewer,
                viewer < 0 ? "a" : "not its whole");
    json_decref(v);
    if (rc)
      return 1;
  }
  return 0;
}

int dis_check(const void *st, char *msg, size_t cap) {
  const dis_state *s = st;
  const dis_data *d = dis_data_get();
  if (!d)
    return fail(msg, cap, "the Disorder card data did not load");
  return check_ranges(s, d, msg, cap) || check_places(s, msg, cap) ||
         check_cards(s, d, msg, cap) || check_chain(s, msg, cap) ||
         check_phase(s, msg, cap) || check_end(s, msg, cap) ||
         check_views(s, msg, cap);
}

/* ---- the result ------------------------------------------------------------
 */

void dis_result(const void *st, eng_result *r) {
  const dis_state *s = st;
  const dis_data *d = dis_data_get();
  memset(r, 0, sizeof *r);
  r->over = s->phase == DIS_PH_OVER;
  if (r->over && s->winner < DIS_PLAYERS)
    r->winners = 1u << s->winner;
  snprintf(r->reason, sizeof r->reason, "%s", s->reason);
  for (int p = 0; p < DIS_PLAYERS; p++) {
    r->score[p] = s->n_minted[p];
    if (d && s->design[p] >= 0 && s->design[p] < d->n_designs) {
      snprintf(r->side[p], sizeof r->side[p], "%s",
               d->designs[s->design[p]].id);
      snprintf(r->side_name[p], sizeof r->side_name[p], "%s",
               d->designs[s->design[p]].name);
    }
  }
}
