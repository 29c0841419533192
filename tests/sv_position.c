/*
 * sv_position.c: test-only builder of Supervillain states from positions
 * (see sv_position.h for the format).
 *
 * The ruleset's own setup() is run first, so players, mode, target points
 * and team flags are exactly what a real game of that configuration has;
 * then every card is taken off the table and dealt again as the position
 * says. Strictness is the point: an unknown key, a misspelt card id or one
 * copy too many fails the test with a message naming it, rather than
 * silently testing some other position.
 */
#include "sv_position.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "position_util.h"

typedef struct builder {
  sv_state *s;
  bool placed[SV_N];
  char *err;
  size_t cap;
} builder;

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

static int bool_key(builder *b, const json_t *obj, const char *key,
                    const char *where, bool *out) {
  json_t *v = json_object_get(obj, key);
  *out = false;
  if (!v)
    return 0;
  if (!json_is_boolean(v))
    return bad(b, "%s: \"%s\" must be true or false", where, key);
  *out = json_is_true(v);
  return 0;
}

/* Finds the lowest free instance of card id in the wanted deck. */
static int take(builder *b, const json_t *idv, bool domination,
                const char *where, int *out) {
  const char *id = json_string_value(idv);
  if (!id)
    return bad(b, "%s: a card must be given by its id (a string)", where);
  int lo = domination ? SV_N_MINION : 0, hi = domination ? SV_N : SV_N_MINION;
  bool known = false, other_deck = false;
  for (int i = 0; i < SV_N; i++) {
    if (strcmp(sv_card_of(i)->id, id) != 0)
      continue;
    if (i < lo || i >= hi) {
      other_deck = true;
      continue;
    }
    known = true;
    if (!b->placed[i]) {
      b->placed[i] = true;
      *out = i;
      return 0;
    }
  }
  if (other_deck)
    return bad(b, "%s: '%s' is a %s card, not a %s card", where, id,
               domination ? "Minion" : "Domination",
               domination ? "Domination" : "Minion");
  if (!known)
    return bad(b, "%s: no card has the id '%s'", where, id);
  int count = 0;
  for (int i = lo; i < hi; i++)
    count += strcmp(sv_card_of(i)->id, id) == 0;
  return bad(b, "%s: no free instance of '%s' is left (the deck has %d)", where,
             id, count);
}

static void put(builder *b, int i, int zone, int owner) {
  sv_where w = {.zone = (uint8_t)zone, .owner = (uint8_t)owner};
  b->s->w[i] = w;
  b->placed[i] = true;
}

static int seat_key(builder *b, const json_t *obj, const char *key,
                    const char *where, int *out) {
  if (!json_object_get(obj, key))
    return bad(b, "%s: \"%s\" is required", where, key);
  return int_key(b, obj, key, 0, b->s->players - 1, 0, where, out);
}

static int hands(builder *b, const json_t *h) {
  if (!h)
    return 0;
  if (!json_is_array(h) || json_array_size(h) > b->s->players)
    return bad(b, "hands: one array of card ids per seat");
  size_t seat, k;
  json_t *cards, *c;
  json_array_foreach(h, seat, cards) {
    char where[32];
    snprintf(where, sizeof where, "hands[%zu]", seat);
    if (!json_is_array(cards))
      return bad(b, "%s: expected an array of card ids", where);
    json_array_foreach(cards, k, c) {
      int i = 0;
      if (take(b, c, false, where, &i))
        return 1;
      put(b, i, SV_Z_HAND, (int)seat);
    }
  }
  return 0;
}

static int projects(builder *b, const json_t *list) {
  static const char *const keys[] = {"seat", "card", "mobs", "used", NULL};
  static const char *const mob_keys[] = {"card", "proof", NULL};
  if (!list)
    return 0;
  if (!json_is_array(list))
    return bad(b, "projects: expected an array");
  size_t k, m;
  json_t *p, *mob;
  json_array_foreach(list, k, p) {
    char where[64];
    int seat = 0, pr = 0;
    bool used;
    snprintf(where, sizeof where, "projects[%zu]", k);
    if (keys_ok(b, p, where, keys) || seat_key(b, p, "seat", where, &seat) ||
        bool_key(b, p, "used", where, &used) ||
        take(b, json_object_get(p, "card"), true, where, &pr))
      return 1;
    put(b, pr, SV_Z_PROJECT, seat);
    b->s->w[pr].used = used;
    json_t *mobs = json_object_get(p, "mobs");
    if (mobs && !json_is_array(mobs))
      return bad(b, "%s: \"mobs\" must be an array", where);
    int power = 0;
    json_array_foreach(mobs, m, mob) {
      char mw[96];
      int i = 0;
      bool proof;
      snprintf(mw, sizeof mw, "%s.mobs[%zu]", where, m);
      if (keys_ok(b, mob, mw, mob_keys) ||
          bool_key(b, mob, "proof", mw, &proof) ||
          take(b, json_object_get(mob, "card"), false, mw, &i))
        return 1;
      put(b, i, SV_Z_MOB, seat);
      b->s->w[i].host = (uint8_t)pr;
      b->s->w[i].proof = proof;
      power += sv_card_of(i)->power;
    }
    if (power >= sv_card_of(pr)->cost)
      return bad(b,
                 "%s: its Mobs (%dm) already reach its cost (%dm); it "
                 "would be complete",
                 where, power, sv_card_of(pr)->cost);
  }
  return 0;
}

static int facilities(builder *b, const json_t *list) {
  static const char *const keys[] = {"seat", "card", "proof", "used", NULL};
  if (!list)
    return 0;
  if (!json_is_array(list))
    return bad(b, "facilities: expected an array");
  size_t k;
  json_t *f;
  json_array_foreach(list, k, f) {
    char where[64];
    int seat = 0, i = 0;
    bool proof, used;
    snprintf(where, sizeof where, "facilities[%zu]", k);
    if (keys_ok(b, f, where, keys) || seat_key(b, f, "seat", where, &seat) ||
        bool_key(b, f, "proof", where, &proof) ||
        bool_key(b, f, "used", where, &used) ||
        take(b, json_object_get(f, "card"), true, where, &i))
      return 1;
    put(b, i, SV_Z_FACILITY, seat);
    b->s->w[i].proof = proof;
    b->s->w[i].used = used;
  }
  return 0;
}

static int asteroids(builder *b, const json_t *list) {
  static const char *const keys[] = {"owner", "target", "card", "charged",
                                     NULL};
  if (!list)
    return 0;
  if (!json_is_array(list))
    return bad(b, "asteroids: expected an array");
  size_t k;
  json_t *a;
  json_array_foreach(list, k, a) {
    char where[64];
    int owner = 0, target = 0, i = 0;
    bool charged;
    snprintf(where, sizeof where, "asteroids[%zu]", k);
    if (keys_ok(b, a, where, keys) || seat_key(b, a, "owner", where, &owner) ||
        seat_key(b, a, "target", where, &target) ||
        bool_key(b, a, "charged", where, &charged) ||
        take(b, json_object_get(a, "card"), true, where, &i))
      return 1;
    if (target == owner)
      return bad(b, "%s: an Asteroid cannot target its owner", where);
    put(b, i, SV_Z_ASTEROID, owner);
    b->s->w[i].target = (uint8_t)target;
    b->s->w[i].charged = charged;
  }
  return 0;
}

/* Takes the listed cards (bottom first) of one deck into list[]. */
static int card_list(builder *b, const json_t *j, const char *key,
                     bool domination, uint16_t *list, int *n) {
  *n = 0;
  if (!j)
    return 0;
  if (!json_is_array(j))
    return bad(b, "%s: expected an array of card ids", key);
  size_t k;
  json_t *c;
  json_array_foreach(j, k, c) {
    int i = 0;
    if (take(b, c, domination, key, &i))
      return 1;
    list[(*n)++] = (uint16_t)i;
  }
  return 0;
}

/* Deals one deck: discard pile, deck with its top cards, and the rest. */
static int deal(builder *b, const json_t *pos, bool domination) {
  const char *disc_key = domination ? "domination_discard" : "minion_discard";
  const char *top_key = domination ? "domination_deck_top" : "minion_deck_top";
  const char *rest_key = domination ? "domination_rest" : "minion_rest";
  int lo = domination ? SV_N_MINION : 0, hi = domination ? SV_N : SV_N_MINION;
  int deck_zone = domination ? SV_Z_DDECK : SV_Z_MDECK;
  int disc_zone = domination ? SV_Z_DDISC : SV_Z_MDISC;
  eng_pile *deck = domination ? &b->s->ddeck : &b->s->mdeck;
  eng_pile *disc = domination ? &b->s->ddisc : &b->s->mdisc;
  uint16_t listed_disc[SV_N], top[SV_N];
  int n_disc, n_top;
  if (card_list(b, json_object_get(pos, disc_key), disc_key, domination,
                listed_disc, &n_disc) ||
      card_list(b, json_object_get(pos, top_key), top_key, domination, top,
                &n_top))
    return 1;

  eng_pile rest = {0};
  for (int i = lo; i < hi; i++)
    if (!b->placed[i])
      eng_pile_push(&rest, (uint16_t)i);
  eng_pile_shuffle(&rest, &b->s->rng);

  const json_t *where = json_object_get(pos, rest_key);
  const char *word = json_string_value(where);
  int rest_zone = deck_zone, rest_seat = 0;
  if (!where || (word && strcmp(word, "deck") == 0)) {
    rest_zone = deck_zone;
  } else if (word && strcmp(word, "discard") == 0) {
    rest_zone = disc_zone;
  } else {
    const char *what = domination ? "projects" : "hand";
    static const char *const dom_keys[] = {"projects", NULL};
    static const char *const min_keys[] = {"hand", NULL};
    if (keys_ok(b, where, rest_key, domination ? dom_keys : min_keys))
      return 1;
    if (!json_object_get(where, what))
      return bad(b, "%s: \"deck\", \"discard\" or {\"%s\": seat}", rest_key,
                 what);
    if (seat_key(b, where, what, rest_key, &rest_seat))
      return 1;
    rest_zone = domination ? SV_Z_PROJECT : SV_Z_HAND;
  }

  for (int k = 0; k < rest.n; k++) {
    int i = rest.c[k];
    put(b, i, rest_zone,
        rest_zone == deck_zone || rest_zone == disc_zone ? 0 : rest_seat);
    if (rest_zone == deck_zone)
      eng_pile_push(deck, (uint16_t)i);
    else if (rest_zone == disc_zone)
      eng_pile_push(disc, (uint16_t)i);
  }
  for (int k = 0; k < n_disc; k++) {
    put(b, listed_disc[k], disc_zone, 0);
    eng_pile_push(disc, listed_disc[k]);
  }
  for (int k = n_top - 1; k >= 0; k--) { /* the first listed ends on top */
    put(b, top[k], deck_zone, 0);
    eng_pile_push(deck, top[k]);
  }
  return 0;
}

int sv_position_build(sv_state *s, const json_t *pos, char *err, size_t cap) {
  static const char *const keys[] = {"rule",
                                     "players",
                                     "mode",
                                     "seed",
                                     "current",
                                     "turn",
                                     "phase",
                                     "mobs_left",
                                     "ops_left",
                                     "drawn",
                                     "hands",
                                     "projects",
                                     "facilities",
                                     "asteroids",
                                     "minion_discard",
                                     "domination_discard",
                                     "minion_deck_top",
                                     "domination_deck_top",
                                     "minion_rest",
                                     "domination_rest",
                                     NULL};
  builder b = {.s = s, .err = err, .cap = cap};
  err[0] = '\0';
  if (!sv_cards())
    return bad(&b, "the Supervillain card data does not load");
  if (keys_ok(&b, pos, "position", keys))
    return 1;
  const char *rule = json_string_value(json_object_get(pos, "rule"));
  if (!rule || !*rule)
    return bad(&b, "position: \"rule\" must quote the rulebook passage");

  int players = 0, current = 0, turn = 0, mobs_left = 0, ops_left = 0, seed = 0;
  if (int_key(&b, pos, "players", 2, 4, 0, "position", &players) ||
      int_key(&b, pos, "seed", 0, 1 << 30, 1, "position", &seed))
    return 1;
  if (players == 0)
    return bad(&b, "position: \"players\" is required");
  const json_t *modev = json_object_get(pos, "mode");
  const char *mode = modev ? json_string_value(modev) : "standard";
  if (!mode)
    return bad(&b, "position: \"mode\" must be a string");
  eng_config cfg = {.players = players, .first = 0};
  if (strlen(mode) >= sizeof cfg.mode)
    return bad(&b, "position: \"mode\" is too long");
  memcpy(cfg.mode, mode, strlen(mode) + 1);

  /* setup() fixes players, mode, target and team exactly as a real game;
   * everything about the cards is then dealt again from the position. */
  memset(s, 0, sizeof *s);
  eng_rc rc = sv_ruleset.setup(s, &cfg, (uint64_t)seed);
  if (rc)
    return bad(&b, "position: setup refuses %d players in mode \"%s\": %s",
               players, mode, eng_rcname(rc));
  memset(s->w, 0, sizeof s->w);
  memset(&s->mdeck, 0, sizeof s->mdeck);
  memset(&s->mdisc, 0, sizeof s->mdisc);
  memset(&s->ddeck, 0, sizeof s->ddeck);
  memset(&s->ddisc, 0, sizeof s->ddisc);
  memset(s->stack, 0, sizeof s->stack);
  s->sp = 0;
  s->over = s->winners = s->reason = s->overflow = 0;
  eng_rng_seed(&s->rng, (uint64_t)seed, 0);

  if (int_key(&b, pos, "current", 0, players - 1, 0, "position", &current) ||
      int_key(&b, pos, "turn", 1, 1000000, 1, "position", &turn) ||
      int_key(&b, pos, "mobs_left", 0, 9, 1, "position", &mobs_left) ||
      int_key(&b, pos, "ops_left", 0, 9, 1, "position", &ops_left))
    return 1;
  s->current = (uint8_t)current;
  s->turn = turn;
  s->mobs_left = (uint8_t)mobs_left;
  s->ops_left = (uint8_t)ops_left;

  const char *phase = json_string_value(json_object_get(pos, "phase"));
  if (!phase || (strcmp(phase, "act3") != 0 && strcmp(phase, "day") != 0))
    return bad(&b, "position: \"phase\" must be \"act3\" or \"day\"");
  bool act3 = strcmp(phase, "act3") == 0;
  s->phase = act3 ? SV_PH_ACT3 : SV_PH_DAY;

  int drawn = -1;
  json_t *drawnv = json_object_get(pos, "drawn");
  if (drawnv && !act3)
    return bad(&b, "position: \"drawn\" belongs to phase \"act3\"");
  if (drawnv && take(&b, drawnv, true, "drawn", &drawn))
    return 1;
  if (drawn >= 0)
    put(&b, drawn, SV_Z_LIMBO, current);

  if (hands(&b, json_object_get(pos, "hands")) ||
      projects(&b, json_object_get(pos, "projects")) ||
      facilities(&b, json_object_get(pos, "facilities")) ||
      asteroids(&b, json_object_get(pos, "asteroids")) ||
      deal(&b, pos, false) || deal(&b, pos, true))
    return 1;

  if (act3 && drawn < 0) { /* Act III has drawn the deck's top card */
    uint16_t c;
    if (!eng_pile_pop(&s->ddeck, &c))
      return bad(&b, "position: phase act3 needs a card to draw");
    put(&b, c, SV_Z_LIMBO, current);
  }

  sv_zbits_rebuild(s); /* the cards were placed by hand */
  char msg[200];
  if (sv_check(s, msg, sizeof msg))
    return bad(&b, "position fails sv_check: %s", msg);
  return 0;
}

void sv_position_text(sv_state *s, const char *json) {
  json_error_t e;
  json_t *pos = json_loads(json, 0, &e);
  char err[400];
  if (!pos)
    fail_msg("position JSON, line %d: %s", e.line, e.text);
  memset(s, 0, sizeof *s);
  int bad = sv_position_build(s, pos, err, sizeof err);
  json_decref(pos);
  if (bad)
    fail_msg("%s", err);
}

int sv_position_load(sv_state *s, const char *path, char *err, size_t cap) {
  json_error_t je;
  json_t *pos = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
  if (!pos) {
    snprintf(err, cap, "%s:%d: %s", path, je.line, je.text);
    return 1;
  }
  int rc = sv_position_build(s, pos, err, cap);
  json_decref(pos);
  return rc;
}

int sv_position_find(const sv_state *s, const char *id, int zone, int owner) {
  for (int i = 0; i < SV_N; i++)
    if (s->w[i].zone == zone && (owner < 0 || s->w[i].owner == owner) &&
        strcmp(sv_card_of(i)->id, id) == 0)
      return i;
  return -1;
}
