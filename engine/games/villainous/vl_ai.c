/*
 * vl_ai.c: a heuristic Villainous player, the ruleset's ai hook.
 *
 * A greedy one-step player: it scores every option of the prompt and
 * answers with the best (ties broken by the caller's rng). Scores are in
 * points, about one point per Power for an ordinary villain. What it
 * weighs:
 *
 * - Its own objective first: every objective kind has its own sense of
 *   progress (Power hoarded, Broods spread, Items gathered at a place, a
 *   track or a count, the nemesis Hero brought to its place and
 *   vanquished there), and the cards that serve it rank highest (the
 *   data's "ai" priority, 1-5, says how much a card serves its villain).
 * - Where to move: what the actions there are worth now, with the hand
 *   it holds and the Power it would have.
 * - Heroes: vanquished when they cover something worth having or count
 *   for the objective, with the Allies it can spare most easily.
 * - Fate: against the opponent nearest to their objective (public
 *   progress), playing the revealed card that hurts them most where it
 *   hurts most.
 * - Conditions: played whenever one fits.
 *
 * It reads only what its seat may see: every realm, Power, lock and
 * discard pile, hand and deck sizes, its own hand and the fate cards it
 * looked at; never another hand or a deck's order.
 */
#include "vl.h"

#include <stdio.h>
#include <string.h>

#define C(s, i) vl_card_of((s), (i))
#define BLK(seat) ((seat)*VL_BLOCK)
#define SHARED_AI(s) vl_shared(s)
/* Where the Heroes of seat's realm may come from: its own fate block
 * (Disney), any card (Marvel's shared fate deck). */
#define HERO_LO(s, seat) (SHARED_AI(s) ? 0 : BLK(seat) + VL_VDECK)
#define HERO_HI(s, seat) vl_span_hi((s), (seat))
#define WIN 100000
#define NEVER (-100000)

typedef struct ai {
  const vl_state *s;
  int me;
  const vl_villain *v;
  const vl_objective *o;
  int pw;     /* what one Power is worth */
  int spend;  /* what spending one Power costs */
  int leader; /* the opponent nearest to their objective */
  int prog[VL_SEATS];
} ai;

static bool hero_at(const vl_state *s, int i) {
  return s->w[i].zone == VL_Z_TOP && C(s, i)->kind == VL_K_HERO;
}

static int dist(int a, int b) { return a > b ? a - b : b - a; }

/* ---- what things are worth ------------------------------------------------
 */

static int action_weight(int kind) {
  static const int w[VL_A_COUNT] = {4, 8, 12, 10, 5, 3, 4, 6, 6, 2};
  return kind >= 0 && kind < VL_A_COUNT ? w[kind] : 0;
}

/* What the top actions of loc in seat's realm are worth to seat. */
static int top_value(const vl_state *s, int seat, int loc) {
  const vl_location *l = &vl_villain_of(s, seat)->loc[loc];
  int v = 0;
  for (int k = 0; k < l->n_top; k++)
    v += action_weight(l->a[k].kind);
  if (seat == s->current && s->seat[seat].mover == loc)
    v += 4;
  return v;
}

static int heroes_here(const vl_state *s, int seat, int loc) {
  int n = 0;
  for (int i = vl_span_lo(s, seat); i < vl_span_hi(s, seat); i++)
    n += vl_in_realm(s, i, seat) && hero_at(s, i) && s->w[i].loc == loc;
  return n;
}

/* The objective's nemesis Hero in seat's realm, or -1. */
static int nemesis(const vl_state *s, int seat) {
  const vl_villain *v = vl_villain_of(s, seat);
  if (v->obj.kind != VL_O_DEFEAT_HERO_AT)
    return -1;
  for (int i = HERO_LO(s, seat); i < HERO_HI(s, seat); i++)
    if (vl_in_realm(s, i, seat) && hero_at(s, i) &&
        vl_def_of(s, i) == v->obj.hero)
      return i;
  return -1;
}

static bool objective_item(const vl_state *s, int seat, int i) {
  const vl_objective *o = &vl_villain_of(s, seat)->obj;
  if (o->kind != VL_O_ITEMS_TOGETHER || vl_is_fate_card(s, i))
    return false;
  for (int k = 0; k < o->n_items; k++)
    if (vl_def_of(s, i) == o->items[k])
      return true;
  return false;
}

/* How many locations of seat's realm lack a card the card_everywhere
 * objective wants. */
static int missing_everywhere(const vl_state *s, int seat, int *first) {
  const vl_objective *o = &vl_villain_of(s, seat)->obj;
  int n = 0;
  *first = -1;
  for (int l = 0; l < VL_LOCS; l++) {
    bool here = false;
    for (int i = BLK(seat); i < BLK(seat) + VL_VDECK; i++)
      if (vl_in_realm(s, i, seat) && s->w[i].loc == l &&
          (o->card >= 0 ? vl_def_of(s, i) == o->card
                        : C(s, i)->kind == o->kind_of))
        here = true;
    if (!here) {
      n++;
      if (*first < 0)
        *first = l;
    }
  }
  return n;
}

/* Whether a card in my realm carries an objective Item. */
static bool carries(const ai *a, int i) {
  for (int j = BLK(a->me); j < BLK(a->me) + VL_VDECK; j++)
    if (vl_in_realm(a->s, j, a->me) && a->s->w[j].host == i &&
        objective_item(a->s, a->me, j))
      return true;
  return false;
}

/* What keeping card i of my realm is worth (what losing it costs). */
static int keep_value(const ai *a, int i) {
  const vl_card *c = C(a->s, i);
  int v = 4 * c->ai + 2 * vl_strength(a->s, i);
  if (carries(a, i))
    v += 300;
  if (objective_item(a->s, a->me, i))
    v += 300;
  if (a->o->kind == VL_O_CARD_EVERYWHERE && c->kind == a->o->kind_of)
    v += 60;
  return v;
}

static int hero_move_value(const ai *a, int h, int to);
static int ally_move_value(const ai *a, int i, int to);
static int dest_value(const ai *a, int i, int dest, bool played);
static int fate_value(const ai *a, int t);

/* The best move of a Hero of my realm within scope (VL_SC_*). */
static int best_hero_move(const ai *a, int scope) {
  const vl_state *s = a->s;
  int best = 0;
  for (int h = HERO_LO(s, a->me); h < HERO_HI(s, a->me); h++) {
    if (!vl_in_realm(s, h, a->me) || !hero_at(s, h) ||
        vl_locked(s, a->me, s->w[h].loc))
      continue;
    for (int d = 0; d < VL_LOCS; d++) {
      int from = s->w[h].loc;
      bool ok = d != from && vl_open_for(s, a->me, d, true) &&
                (scope == VL_SC_ANY ||
                 (scope == VL_SC_MOVER && d == s->seat[a->me].mover) ||
                 (scope == VL_SC_ADJACENT && dist(d, from) == 1));
      if (ok) {
        int x = hero_move_value(a, h, d);
        best = x > best ? x : best;
      }
    }
  }
  return best;
}

/* The best trade of places between two Heroes of my realm. */
static int best_swap(const ai *a) {
  const vl_state *s = a->s;
  int best = 0;
  for (int h = HERO_LO(s, a->me); h < HERO_HI(s, a->me); h++)
    for (int g = h + 1; g < HERO_HI(s, a->me); g++) {
      if (!vl_in_realm(s, h, a->me) || !hero_at(s, h) ||
          !vl_in_realm(s, g, a->me) || !hero_at(s, g) ||
          s->w[h].loc == s->w[g].loc || vl_locked(s, a->me, s->w[h].loc) ||
          vl_locked(s, a->me, s->w[g].loc))
        continue;
      int x = hero_move_value(a, h, s->w[g].loc) +
              hero_move_value(a, g, s->w[h].loc);
      best = x > best ? x : best;
    }
  return best;
}

/* The best move of one of my Allies within scope. */
static int best_ally_move(const ai *a, int scope) {
  const vl_state *s = a->s;
  int best = 0;
  for (int i = BLK(a->me); i < BLK(a->me) + VL_VDECK; i++) {
    if (scope == VL_SC_ANY && s->w[i].zone == VL_Z_TOP &&
        s->w[i].seat != a->me && C(s, i)->kind == VL_K_ALLY) {
      /* Called home from another domain (Marvel). */
      for (int d = 0; d < VL_LOCS; d++)
        if (vl_open_for(s, a->me, d, false)) {
          int x = dest_value(a, i, d, false);
          best = x > best ? x : best;
        }
      continue;
    }
    if (!vl_in_realm(s, i, a->me) || C(s, i)->kind != VL_K_ALLY ||
        vl_locked(s, a->me, s->w[i].loc))
      continue;
    for (int d = 0; d < VL_LOCS; d++)
      if (d != s->w[i].loc && vl_open_for(s, a->me, d, false) &&
          (scope == VL_SC_ANY || dist(d, s->w[i].loc) == 1)) {
        int x = ally_move_value(a, i, d);
        best = x > best ? x : best;
      }
  }
  return best;
}

/* What effect e does for me, played in my realm now (src: its card). */
static int effect_value(const ai *a, const vl_effect *e) {
  const vl_state *s = a->s;
  int me = a->me, v = 0;
  switch ((vl_op)e->op) {
  case VL_OP_GAIN_POWER:
    v = e->n * a->pw;
    break;
  case VL_OP_LOSE_POWER:
    v = -e->n * a->pw;
    break;
  case VL_OP_DRAW:
    v = 7 * e->n;
    break;
  case VL_OP_DISCARD_CARDS:
    v = -5 * e->n;
    break;
  case VL_OP_PLAY_FREE:
  case VL_OP_PLAY_DISCARD:
    v = 16;
    break;
  case VL_OP_TAKE_DISCARD:
  case VL_OP_SEARCH:
    v = 10;
    if (a->o->kind == VL_O_ITEMS_TOGETHER)
      v += 25;
    break;
  case VL_OP_MOVE_HERO:
    v = best_hero_move(a, e->scope);
    break;
  case VL_OP_MOVE_ALLY:
    v = best_ally_move(a, e->scope);
    break;
  case VL_OP_DEFEAT_HERO: {
    v = 20;
    if (a->o->kind == VL_O_REACH && a->o->count == VL_C_DEFEATED)
      v += 60;
    int n = nemesis(s, me);
    if (n >= 0 && s->w[n].loc == a->o->loc &&
        (e->n == 0 || vl_strength(s, n) <= e->n))
      v = WIN / 10;
    break;
  }
  case VL_OP_VANQUISH:
    v = 15;
    if (a->o->kind == VL_O_REACH && a->o->count == VL_C_DEFEATED)
      v += 50;
    break;
  case VL_OP_FATE:
    v = fate_value(a, a->leader);
    break;
  case VL_OP_UNLOCK:
    v = s->seat[me].locked ? 60 : 0;
    break;
  case VL_OP_LOOK_FATE:
    v = 5 * e->n;
    break;
  case VL_OP_RETURN_ALLY:
    v = -6;
    break;
  case VL_OP_GAIN_PER: {
    int n = 0;
    for (int i = BLK(me); i < BLK(me) + VL_VDECK; i++)
      n += vl_in_realm(s, i, me) && C(s, i)->kind == e->kind;
    v = n * e->n * a->pw;
    break;
  }
  case VL_OP_TRACK:
    v = e->n * (a->o->kind == VL_O_REACH && a->o->count == VL_C_TRACK ? 45 : 3);
    break;
  case VL_OP_REMOVE_ALLY:
  case VL_OP_REMOVE_CARD:
    v = -12;
    break;
  case VL_OP_FIND_HERO:
    v = a->o->kind == VL_O_DEFEAT_HERO_AT && !vl_locked(s, me, a->o->loc)
            ? (nemesis(s, me) >= 0 && s->w[nemesis(s, me)].loc == a->o->loc
                   ? 0
                   : 70)
            : 0;
    break;
  case VL_OP_PLAY_FATE_TOP:
    v = a->o->kind == VL_O_REACH && a->o->count == VL_C_DEFEATED ? 25 : -15;
    break;
  case VL_OP_HOOK:
    v = best_swap(a);
    break;
  case VL_OP_TOKEN:
    v = e->kind == VL_K_HERO ? -6 * e->n : 6 * e->n;
    if (a->o->kind == VL_O_REACH && a->o->count == VL_C_DEFEATED &&
        e->kind == VL_K_HERO)
      v *= 3;
    break;
  case VL_OP_STONE:
    v = a->v->collector ? 150 : 8;
    break;
  case VL_OP_GIVE_STONE:
    v = a->v->collector ? 40 : -20;
    break;
  case VL_OP_COUNT:
    break;
  }
  return v;
}

static int ability_value(const ai *a, const vl_ability *ab) {
  int v = 0;
  for (int k = 0; k < ab->n_eff; k++) {
    int x = effect_value(a, &ab->eff[k]);
    v += ab->eff[k].may && x < 0 ? 0 : x;
  }
  return v;
}

/* What playing villain card i from my hand is worth, before its cost. */
static int card_value(const ai *a, int i) {
  const vl_state *s = a->s;
  const vl_card *c = C(s, i);
  int v = 6 * c->ai;
  for (int k = 0; k < c->n_ab; k++) {
    const vl_ability *ab = &c->ab[k];
    if (ab->when == VL_W_PLAYED)
      v += ability_value(a, ab);
    else if (ab->when == VL_W_ACTIVATE || ab->when == VL_W_TURN_START ||
             ab->when == VL_W_STATIC)
      v += 4;
  }
  switch ((vl_kind)c->kind) {
  case VL_K_ALLY: {
    v += 3 * c->strength;
    bool heroes = false;
    for (int h = vl_span_lo(s, a->me); h < vl_span_hi(s, a->me); h++)
      heroes |= vl_in_realm(s, h, a->me) && hero_at(s, h);
    if (heroes)
      v += 2 * c->strength;
    if (a->o->kind == VL_O_REACH && a->o->count == VL_C_ALLIES)
      v += 40;
    if (a->o->kind == VL_O_ITEMS_TOGETHER)
      v += 6;
    break;
  }
  case VL_K_ITEM:
    if (objective_item(s, a->me, i)) {
      bool in = false; /* one copy each: is it already out? */
      for (int j = BLK(a->me); j < BLK(a->me) + VL_VDECK; j++)
        in |= vl_in_realm(s, j, a->me) && vl_def_of(s, j) == vl_def_of(s, i);
      v += in ? 0 : 120;
    }
    break;
  case VL_K_SPECIAL:
    if (a->o->kind == VL_O_CARD_EVERYWHERE) {
      int first;
      v += missing_everywhere(s, a->me, &first) > 0 ? 90 : 5;
    }
    break;
  case VL_K_SPECIALTY:
    v += 12;
    break;
  case VL_K_EFFECT:
  case VL_K_CONDITION:
  case VL_K_HERO:
  case VL_K_EVENT:
  case VL_K_COUNT:
    break;
  }
  return v;
}

/* What my Allies at loc add up to, and the most a Hero there may have
 * for them to vanquish it. */
static int strength_at(const vl_state *s, int seat, int loc) {
  int sum = 0;
  for (int i = BLK(seat); i < BLK(seat) + VL_VDECK; i++)
    if (vl_in_realm(s, i, seat) && s->w[i].zone == VL_Z_REALM &&
        s->w[i].loc == loc && C(s, i)->kind == VL_K_ALLY)
      sum += vl_strength(s, i);
  return sum;
}

/* What vanquishing Hero h of my realm is worth (allies spent counted). */
static int vanquish_value(const ai *a, int h) {
  const vl_state *s = a->s;
  int me = a->me, loc = s->w[h].loc, str = vl_strength(s, h);
  int v = 12 + 2 * str;
  if (heroes_here(s, me, loc) == 1)
    v += 2 * top_value(s, me, loc);
  if (a->o->kind == VL_O_REACH && a->o->count == VL_C_DEFEATED)
    v += 80;
  if (h == nemesis(s, me))
    v = loc == a->o->loc ? WIN : NEVER;
  /* The Allies it takes: the cheapest set, roughly. */
  int cost = 0, need = str;
  int used[VL_BLOCK], n = 0;
  for (int i = BLK(me); i < BLK(me) + VL_VDECK; i++)
    if (vl_in_realm(s, i, me) && s->w[i].zone == VL_Z_REALM &&
        s->w[i].loc == loc && C(s, i)->kind == VL_K_ALLY &&
        vl_strength(s, i) > 0)
      used[n++] = i;
  while (need > 0 && n > 0) {
    int best = -1, bestv = 1 << 30;
    for (int k = 0; k < n; k++) {
      int kv =
          keep_value(a, used[k]) - (vl_strength(s, used[k]) >= need ? 50 : 0);
      if (kv < bestv) {
        bestv = kv;
        best = k;
      }
    }
    need -= vl_strength(s, used[best]);
    cost += keep_value(a, used[best]);
    used[best] = used[--n];
  }
  return v == WIN ? WIN : v - cost / 2;
}

/* What moving Hero h of my realm to loc is worth to me. */
static int hero_move_value(const ai *a, int h, int to) {
  const vl_state *s = a->s;
  int me = a->me, from = s->w[h].loc, v = 0;
  if (heroes_here(s, me, from) == 1)
    v += top_value(s, me, from);
  if (heroes_here(s, me, to) == 0)
    v -= top_value(s, me, to);
  if (h == nemesis(s, me))
    v += 40 * (dist(from, a->o->loc) - dist(to, a->o->loc));
  if (strength_at(s, me, to) >= vl_strength(s, h) &&
      strength_at(s, me, from) < vl_strength(s, h))
    v += a->o->kind == VL_O_REACH && a->o->count == VL_C_DEFEATED ? 40 : 8;
  return v;
}

/* What moving my Ally or Item i to loc is worth to me. */
static int ally_move_value(const ai *a, int i, int to) {
  const vl_state *s = a->s;
  int from = s->w[i].loc, v = -1;
  if (a->o->kind == VL_O_ITEMS_TOGETHER) {
    int goal = a->o->loc >= 0 ? a->o->loc : 0;
    if (carries(a, i))
      v += 60 * (dist(from, goal) - dist(to, goal));
  }
  if (a->o->kind == VL_O_DEFEAT_HERO_AT)
    v += 12 * (dist(from, a->o->loc) - dist(to, a->o->loc));
  if (C(s, i)->kind == VL_K_ALLY) {
    /* Toward Heroes it would help to vanquish. */
    for (int h = HERO_LO(s, a->me); h < HERO_HI(s, a->me); h++) {
      if (!vl_in_realm(s, h, a->me) || !hero_at(s, h))
        continue;
      int need = vl_strength(s, h);
      if (s->w[h].loc == to && strength_at(s, a->me, to) < need &&
          strength_at(s, a->me, to) + vl_strength(s, i) >= need)
        v += 15;
    }
  }
  return v;
}

/* What Fate against seat t is worth. */
static int fate_value(const ai *a, int t) {
  /* Worth more the nearer the target is to winning. */
  int v = 3 + a->prog[t] * a->prog[t] / 600;
  if (t == a->leader)
    v += 4;
  return v;
}

/* ---- Marvel: Events, other domains, Stones ------------------------------ */

static bool stone_at(const vl_state *s, int seat, int loc) {
  for (int j = vl_common_base(s); j < vl_n_inst(s); j++)
    if (vl_is_stone(s, j) && s->w[j].zone == VL_Z_REALM &&
        s->w[j].seat == seat && s->w[j].loc == loc)
      return true;
  return false;
}

/* What sending my Ally (or Item) i to dest (a VL_DEST_* code, or a
 * location of my own domain) is worth to me. */
static int dest_value(const ai *a, int i, int dest, bool played) {
  const vl_state *s = a->s;
  int str = vl_strength(s, i);
  if (dest >= VL_DEST_EVENT) {
    int e = dest - VL_DEST_EVENT, need = vl_strength(s, e);
    int have = vl_event_strength(s, e);
    /* Resolving it ends its penalty on me and brings its reward. */
    int v = have + str >= need ? 40 : (have + str) * 25 / need - 15;
    if (s->w[e].loc == 1) /* my own Targeted Event */
      v += 15;
    return v - (played ? 0 : C(s, i)->ai * 3);
  }
  if (dest >= VL_DEST_OTHER) {
    int o = (dest - VL_DEST_OTHER) / VL_LOCS, l = (dest - VL_DEST_OTHER) % VL_LOCS;
    int v = 0;
    if (a->v->collector && stone_at(s, o, l))
      v += 220;
    /* Blocking the leader's best actions is worth a little. */
    const vl_location *x = &vl_villain_of(s, o)->loc[l];
    for (int k = 0; k < x->n_top; k++)
      v += 2;
    if (o == a->leader)
      v += 6;
    return v - 8;
  }
  if (s->w[i].zone == VL_Z_TOP && s->w[i].seat != a->me)
    return vl_carries_stone(s, i) ? 400 : stone_at(s, s->w[i].seat, s->w[i].loc)
                                           ? -50
                                           : 4;
  if (played)
    return 0;
  return ally_move_value(a, i, dest);
}

/* ---- the hand
 * ----------------------------------------------------------------- */

/* Whether card i of my hand is dead weight: it could not be played now
 * even for free (nothing for it to act on), or costs far more than I
 * have. Conditions wait for their moment and are never dead. */
static bool dead(const ai *a, int i) {
  const vl_state *s = a->s;
  const vl_card *c = C(s, i);
  if (c->kind == VL_K_CONDITION)
    return false;
  if (!vl_playable(s, a->me, i, true))
    return true;
  return vl_cost(s, a->me, i) > s->seat[a->me].power + 4;
}

static int dead_cards(const ai *a) {
  int n = 0;
  for (int i = BLK(a->me); i < BLK(a->me) + VL_VDECK; i++)
    n += a->s->w[i].zone == VL_Z_HAND && dead(a, i);
  return n;
}

/* The best cards playable with `power` (up to `plays` of them): their
 * value minus what they cost. */
static int plays_value(const ai *a, int power, int plays) {
  const vl_state *s = a->s;
  int val[VL_VDECK], cost[VL_VDECK], n = 0;
  for (int i = BLK(a->me); i < BLK(a->me) + VL_VDECK; i++) {
    if (s->w[i].zone != VL_Z_HAND || C(s, i)->kind == VL_K_CONDITION ||
        !vl_playable(s, a->me, i, true))
      continue;
    val[n] = card_value(a, i);
    cost[n] = vl_cost(s, a->me, i);
    n++;
  }
  int total = 0;
  for (int p = 0; p < plays; p++) {
    int best = -1, bestv = 0;
    for (int k = 0; k < n; k++)
      if (cost[k] <= power && val[k] - cost[k] * a->spend > bestv) {
        bestv = val[k] - cost[k] * a->spend;
        best = k;
      }
    if (best < 0)
      break;
    total += bestv;
    power -= cost[best];
    cost[best] = 0;
    val[best] = -1000; /* taken */
  }
  return total;
}

/* The best activation's value at power. */
static int activation_value(const ai *a, int power) {
  const vl_state *s = a->s;
  int best = 0;
  for (int i = BLK(a->me); i < BLK(a->me) + VL_VDECK; i++) {
    if (!vl_in_realm(s, i, a->me))
      continue;
    const vl_card *c = C(s, i);
    for (int k = 0; k < c->n_ab; k++)
      if (c->ab[k].when == VL_W_ACTIVATE && c->ab[k].cost <= power &&
          vl_activatable(s, a->me, i)) {
        int v = ability_value(a, &c->ab[k]) - c->ab[k].cost * a->spend;
        best = v > best ? v : best;
      }
  }
  return best;
}

/* What the actions at loc are worth, were my mover to go there now. */
static int location_value(const ai *a, int loc) {
  const vl_state *s = a->s;
  int me = a->me;
  const vl_location *l = &a->v->loc[loc];
  bool covered = vl_covered(s, me, loc);
  int v = 0, gains = 0, plays = 0;
  for (int k = 0; k < l->n; k++) {
    if (k < l->n_top && covered)
      continue;
    switch ((vl_action_kind)l->a[k].kind) {
    case VL_A_GAIN_1:
    case VL_A_GAIN_2:
    case VL_A_GAIN_3: {
      int g = vl_gain_amount(s, me, loc, l->a[k].kind - VL_A_GAIN_1 + 1);
      gains += g;
      v += g * a->pw;
      break;
    }
    case VL_A_PLAY:
      plays++;
      break;
    case VL_A_ACTIVATE:
      break; /* after the gains, below */
    case VL_A_VANQUISH: {
      int best = 0;
      for (int h = HERO_LO(s, me); h < HERO_HI(s, me); h++)
        if (vl_in_realm(s, h, me) && hero_at(s, h) &&
            vl_vanquishable(s, me, h)) {
          int x = vanquish_value(a, h);
          best = x > best ? x : best;
        }
      v += best;
      break;
    }
    case VL_A_FATE: {
      int best = 0;
      for (int t = 0; t < s->players; t++)
        if (t != me) {
          int x = fate_value(a, t);
          best = x > best ? x : best;
        }
      v += best;
      break;
    }
    case VL_A_MOVE_HERO:
      v += best_hero_move(a, VL_SC_ADJACENT);
      break;
    case VL_A_MOVE_ALLY: {
      int best = 0;
      for (int i = BLK(me); i < BLK(me) + VL_VDECK; i++) {
        if (!vl_in_realm(s, i, me) || s->w[i].host != VL_NONE ||
            (C(s, i)->kind != VL_K_ALLY && C(s, i)->kind != VL_K_ITEM) ||
            vl_locked(s, me, s->w[i].loc))
          continue;
        for (int d = s->w[i].loc - 1; d <= s->w[i].loc + 1; d += 2)
          if (d >= 0 && d < VL_LOCS && vl_open_for(s, me, d, false)) {
            int x = ally_move_value(a, i, d);
            best = x > best ? x : best;
          }
      }
      v += best;
      break;
    }
    case VL_A_DISCARD:
      v += 8 * dead_cards(a);
      break;
    case VL_A_COUNT:
      break;
    }
  }
  int power = s->seat[me].power + gains;
  for (int k = 0; k < l->n; k++)
    if (l->a[k].kind == VL_A_ACTIVATE && (k >= l->n_top || !covered))
      v += activation_value(a, power);
  v += plays_value(a, power, plays);
  return v;
}

/* ---- harm to an opponent
 * ------------------------------------------------------- */

/* What opponent t would lose with card i of their realm. */
static int their_value(const vl_state *s, int t, int i) {
  const vl_card *c = C(s, i);
  const vl_objective *o = &vl_villain_of(s, t)->obj;
  int v = 3 * c->ai + 3 * vl_strength(s, i);
  if (objective_item(s, t, i))
    v += 150;
  for (int j = BLK(t); j < BLK(t) + VL_VDECK; j++)
    if (vl_in_realm(s, j, t) && s->w[j].host == i && objective_item(s, t, j))
      v += 150;
  if (o->kind == VL_O_CARD_EVERYWHERE && c->kind == o->kind_of)
    v += 60;
  return v;
}

/* What a Hero of t's realm at loc costs t (for placing one there). */
static int cover_harm(const vl_state *s, int t, int loc) {
  int v = heroes_here(s, t, loc) == 0 ? 2 * top_value(s, t, loc) : 3;
  const vl_objective *o = &vl_villain_of(s, t)->obj;
  if (o->kind == VL_O_ITEMS_TOGETHER && (o->loc < 0 || o->loc == loc))
    v += 10;
  return v;
}

/* What fate card i would do to target t (as its player). */
static int fate_harm(const vl_state *s, int t, int i) {
  const vl_card *c = C(s, i);
  int v = 0;
  if (c->kind == VL_K_HERO) {
    int best = 0;
    for (int l = 0; l < VL_LOCS; l++)
      if (vl_open_for(s, t, l, true)) {
        int x = cover_harm(s, t, l);
        best = x > best ? x : best;
      }
    v = 8 + 4 * c->strength + best;
  } else if (c->kind == VL_K_ITEM) {
    bool any = false;
    for (int h = HERO_LO(s, t); h < HERO_HI(s, t); h++)
      any |= vl_in_realm(s, h, t) && hero_at(s, h);
    if (!any)
      return -50;
    v = 10;
  } else {
    v = 6;
  }
  for (int k = 0; k < c->n_ab; k++)
    for (int e = 0; e < c->ab[k].n_eff; e++) {
      const vl_effect *x = &c->ab[k].eff[e];
      /* Only the ops that cost the target something score. */
      if (x->op == VL_OP_LOSE_POWER)
        v += 4 * (x->n < s->seat[t].power ? x->n : s->seat[t].power);
      else if (x->op == VL_OP_DISCARD_CARDS)
        v += 6 * x->n;
      else if (x->op == VL_OP_REMOVE_ALLY || x->op == VL_OP_REMOVE_CARD ||
               x->op == VL_OP_RETURN_ALLY)
        v += 18;
      else if (x->op == VL_OP_TRACK && x->n < 0)
        v += -25 * x->n;
      else if (x->op == VL_OP_MOVE_HERO || x->op == VL_OP_MOVE_ALLY)
        v += 6;
    }
  if (c->kind == VL_K_HERO) {
    const vl_objective *o = &vl_villain_of(s, t)->obj;
    if (o->kind == VL_O_DEFEAT_HERO_AT && vl_def_of(s, i) == o->hero)
      v -= 40; /* bringing the nemesis helps them */
    if (o->kind == VL_O_REACH && o->count == VL_C_DEFEATED)
      v -= 10;
  }
  return v;
}

/* ---- choosing
 * ------------------------------------------------------------------ */

static int score_move(const ai *a, int loc) { return location_value(a, loc); }

static int score_action(const ai *a, uint32_t code) {
  const vl_state *s = a->s;
  int me = a->me, x = VL_OPT_A(code), y = VL_OPT_B(code);
  switch (VL_OPT_TYPE(code)) {
  case VL_OPT_GAIN:
    return 1000;
  case VL_OPT_PLAY:
    return card_value(a, x) - vl_cost(s, me, x) * a->spend;
  case VL_OPT_ACTIVATE: {
    const vl_card *c = C(s, x);
    int best = NEVER;
    for (int k = 0; k < c->n_ab; k++)
      if (c->ab[k].when == VL_W_ACTIVATE &&
          c->ab[k].cost <= s->seat[me].power) {
        int v = ability_value(a, &c->ab[k]) - c->ab[k].cost * a->spend;
        best = v > best ? v : best;
      }
    return best;
  }
  case VL_OPT_MOVE_ALLY:
    if (SHARED_AI(s))
      return dest_value(a, x, y, false);
    return ally_move_value(a, x, y);
  case VL_OPT_MOVE_HERO:
    return hero_move_value(a, x, y);
  case VL_OPT_VANQUISH:
    return vanquish_value(a, x);
  case VL_OPT_FATE:
    if (SHARED_AI(s)) { /* the target comes after the reveal */
      int best = 0;
      for (int t = 0; t < s->players; t++)
        if (t != me && fate_value(a, t) > best)
          best = fate_value(a, t);
      return best;
    }
    return fate_value(a, x);
  case VL_OPT_DISCARD: {
    /* Worth it when a card in hand is dead weight: new cards come at the
     * end of the turn. */
    int n = dead_cards(a);
    return n ? 5 + 8 * n : -1;
  }
  case VL_OPT_END:
    return 0;
  default:
    return 0;
  }
}

/* Scores a PICK, LOC or other answer inside effect frame f. */
static int score_effect(const ai *a, const vl_frame *f, uint32_t code) {
  const vl_state *s = a->s;
  int type = VL_OPT_TYPE(code), x = VL_OPT_A(code);
  bool mine = f->realm == a->me; /* in my own realm */
  if (type == VL_OPT_SKIP) {
    return 0;
  }
  if (type == VL_OPT_DONE && f->e.op != VL_OP_LOOK_FATE) {
    int v = mine ? effect_value(a, &f->e) : 5;
    return v > 0 ? v : -1;
  }
  switch ((vl_op)f->e.op) {
  case VL_OP_DISCARD_CARDS:
    return -card_value(a, x);
  case VL_OP_PLAY_FREE:
  case VL_OP_PLAY_DISCARD:
  case VL_OP_TAKE_DISCARD:
  case VL_OP_SEARCH:
    return 10 + card_value(a, x);
  case VL_OP_MOVE_HERO:
    if (f->step == 0) {
      int best = NEVER;
      for (int d = 0; d < VL_LOCS; d++)
        if (d != s->w[x].loc && vl_open_for(s, f->realm, d, true)) {
          int v = mine ? hero_move_value(a, x, d)
                       : cover_harm(s, f->realm, d) -
                             cover_harm(s, f->realm, s->w[x].loc);
          best = v > best ? v : best;
        }
      return best;
    }
    return mine ? hero_move_value(a, f->a, x) : cover_harm(s, f->realm, x);
  case VL_OP_MOVE_ALLY: {
    /* An Ally of mine in another domain comes home (Call Home). */
    bool away = mine && s->w[f->step == 0 ? x : f->a].seat != a->me;
    if (f->step == 0) {
      int best = NEVER;
      for (int d = 0; d < VL_LOCS; d++)
        if (away || d != s->w[x].loc) {
          int v = away   ? dest_value(a, x, d, false)
                  : mine ? ally_move_value(a, x, d)
                         : their_value(s, f->realm, x);
          best = v > best ? v : best;
        }
      return best;
    }
    if (away)
      return dest_value(a, f->a, x, false);
    if (mine)
      return ally_move_value(a, f->a, x);
    const vl_objective *o = &vl_villain_of(s, f->realm)->obj;
    return o->loc >= 0 ? dist(x, o->loc) : 0;
  }
  case VL_OP_DEFEAT_HERO:
    return mine ? vanquish_value(a, x) + 200 : -vl_strength(s, x);
  case VL_OP_FATE:
    return fate_value(a, x);
  case VL_OP_LOOK_FATE:
    if (type == VL_OPT_DONE)
      return 0;
    return fate_harm(s, f->realm, x) - 12;
  case VL_OP_RETURN_ALLY:
  case VL_OP_REMOVE_ALLY:
  case VL_OP_REMOVE_CARD:
    return mine ? -keep_value(a, x) : their_value(s, f->realm, x);
  case VL_OP_FIND_HERO:
    if (mine && a->o->kind == VL_O_DEFEAT_HERO_AT)
      return -20 * dist(x, a->o->loc);
    return mine ? -top_value(s, f->realm, x) : cover_harm(s, f->realm, x);
  case VL_OP_HOOK:
    if (f->step == 0) {
      if (x == nemesis(s, a->me))
        return 50;
      return mine ? top_value(s, f->realm, s->w[x].loc) : 0;
    }
    if (f->a == nemesis(s, a->me))
      return -30 * dist(s->w[x].loc, a->o->loc);
    return 0;
  case VL_OP_TOKEN: /* weaken the strongest Hero, strengthen my best */
    return vl_strength(s, x) * ((f->e.n < 0) == (C(s, x)->kind == VL_K_HERO)
                                    ? 1
                                    : -1);
  case VL_OP_STONE:
    return keep_value(a, x) / 4;
  case VL_OP_GIVE_STONE: /* where my Allies can fetch it back */
    return x == a->leader ? 5 : 10;
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
  return 0;
}

/* Scores an answer inside frame f. */
static int score_frame(const ai *a, const vl_frame *f, uint32_t code) {
  const vl_state *s = a->s;
  int type = VL_OPT_TYPE(code), x = VL_OPT_A(code);
  switch ((vl_frame_kind)f->kind) {
  case VL_F_EFFECT:
    return score_effect(a, f, code);
  case VL_F_PLACE: {
    const vl_card *c = C(s, f->a);
    bool mine = f->realm == a->me;
    if (c->kind == VL_K_HERO) {
      if (!mine)
        return cover_harm(s, f->realm, x) +
               (vl_villain_of(s, f->realm)->obj.kind == VL_O_DEFEAT_HERO_AT &&
                        vl_def_of(s, f->a) ==
                            vl_villain_of(s, f->realm)->obj.hero
                    ? 15 * dist(x, vl_villain_of(s, f->realm)->obj.loc)
                    : 0);
      /* A Hero I call into my own realm: where my Allies can take it. */
      int v = -cover_harm(s, a->me, x);
      if (strength_at(s, a->me, x) >= c->strength)
        v += 30;
      return v;
    }
    if (type == VL_OPT_PICK) { /* an Item on a character */
      if (!mine)
        return vl_strength(s, x) + cover_harm(s, f->realm, s->w[x].loc);
      int v = vl_strength(s, x) - keep_value(a, x) / 10;
      if (objective_item(s, a->me, f->a) && a->o->loc >= 0)
        v += 50 - 20 * dist(s->w[x].loc, a->o->loc);
      return v;
    }
    /* My card to a location. */
    int v = 0;
    if (x >= VL_DEST_OTHER)
      return dest_value(a, f->a, x, true);
    if (a->o->kind == VL_O_CARD_EVERYWHERE && c->kind == a->o->kind_of) {
      bool here = false;
      for (int i = BLK(a->me); i < BLK(a->me) + VL_VDECK; i++)
        here |= vl_in_realm(s, i, a->me) && s->w[i].loc == x &&
                C(s, i)->kind == a->o->kind_of;
      v += here ? -40 : 40;
      v -= 6 * heroes_here(s, a->me, x);
    }
    if (c->kind == VL_K_ALLY) {
      for (int h = HERO_LO(s, a->me); h < HERO_HI(s, a->me); h++)
        if (vl_in_realm(s, h, a->me) && hero_at(s, h) && s->w[h].loc == x) {
          int need = vl_strength(s, h) - strength_at(s, a->me, x);
          v += need > 0 && need <= c->strength ? 20 : 6;
        }
      if (a->o->kind == VL_O_DEFEAT_HERO_AT && x == a->o->loc)
        v += 25;
      if (a->o->kind == VL_O_ITEMS_TOGETHER && a->o->loc >= 0)
        v += 10 - 4 * dist(x, a->o->loc);
    }
    if (c->kind == VL_K_ITEM || c->kind == VL_K_SPECIAL) {
      /* Where its own abilities work best: near the mover's usual places
       * (an Activate or a Gain there), away from Heroes. */
      const vl_location *l = &a->v->loc[x];
      for (int k = 0; k < l->n; k++) {
        int kind = l->a[k].kind;
        bool act = kind == VL_A_ACTIVATE;
        bool gain = kind >= VL_A_GAIN_1 && kind <= VL_A_GAIN_3;
        for (int ab = 0; ab < c->n_ab; ab++) {
          if (act && c->ab[ab].when == VL_W_ACTIVATE)
            v += 8;
          for (int m = 0; gain && m < c->ab[ab].n_mod; m++)
            if (c->ab[ab].mod[m].mod == VL_M_GAIN)
              v += 6;
        }
      }
      v -= 4 * heroes_here(s, a->me, x);
    }
    return v;
  }
  case VL_F_VANQUISH: {
    if (f->a == VL_NONE)
      return vanquish_value(a, x);
    if (type == VL_OPT_DONE)
      return 1000;
    int have = 0;
    for (int k = 0; k < f->n_list; k++)
      have += vl_strength(s, f->list[k]);
    int need = vl_strength(s, f->a) - have;
    if (need <= 0)
      return -keep_value(a, x); /* below Done */
    int str = vl_strength(s, x);
    return (str >= need ? 100 - 5 * (str - need) : 20 + str) -
           keep_value(a, x) / 4;
  }
  case VL_F_FATE:
    if (SHARED_AI(s)) /* whom the revealed card goes against */
      return fate_harm(s, x, f->list[0]) + fate_value(a, x) * 2;
    return fate_harm(s, f->realm, x);
  case VL_F_DISCARD:
    if (type == VL_OPT_DONE)
      return 0;
    return dead(a, x) ? 10 : -1;
  case VL_F_WINDOW:
    return type == VL_OPT_PASS ? 0 : 50;
  case VL_F_FINISH:
  case VL_F_COUNT:
    break;
  }
  return 0;
}

int vl_ai_choose(const void *st, const eng_prompt *p, eng_rng *rng) {
  const vl_state *s = st;
  if (s->phase == VL_PH_CHOOSE || s->over)
    return (int)eng_rng_below(rng, (uint32_t)p->n);
  ai a = {.s = s, .me = p->player};
  a.v = vl_villain_of(s, a.me);
  a.o = &a.v->obj;
  /* Power is worth more to a villain who has little: without it no card
   * can be played, and the Heroes stay. Most of all when no card of the
   * hand worth playing can be paid for yet. */
  int power = s->seat[a.me].power, cheapest = 1000;
  a.pw = 4;
  a.spend = 2;
  a.leader = a.me;
  for (int i = BLK(a.me); i < BLK(a.me) + VL_VDECK; i++)
    if (s->w[i].zone == VL_Z_HAND && C(s, i)->kind != VL_K_CONDITION &&
        vl_cost(s, a.me, i) < cheapest && card_value(&a, i) > 12)
      cheapest = vl_cost(s, a.me, i);
  a.pw = cheapest < 1000 && power < cheapest ? 10
         : power < 3                         ? 8
         : power < 5                         ? 5
                                             : 4;
  if (a.o->kind == VL_O_START_POWER) {
    a.pw = 5;
    /* Spend early to build, hoard late. */
    a.spend = s->seat[a.me].power * 3 >= a.o->n * 2 ? 5 : 2;
  }
  a.leader = -1;
  for (int t = 0; t < s->players; t++) {
    a.prog[t] = vl_progress(s, t);
    if (t != a.me && (a.leader < 0 || a.prog[t] > a.prog[a.leader]))
      a.leader = t;
  }
  if (a.leader < 0)
    a.leader = a.me;
  const vl_frame *f = s->sp > 0 ? &s->stack[s->sp - 1] : NULL;
  int best = -1, bestv = 0, ties = 0;
  for (int i = 0; i < p->n; i++) {
    uint32_t code = p->code[i];
    int v;
    if (f)
      v = score_frame(&a, f, code);
    else if (VL_OPT_TYPE(code) == VL_OPT_MOVE)
      v = score_move(&a, VL_OPT_A(code));
    else
      v = score_action(&a, code);
    if (best < 0 || v > bestv) {
      best = i;
      bestv = v;
      ties = 1;
    } else if (v == bestv && eng_rng_below(rng, (uint32_t)++ties) == 0) {
      best = i;
    }
  }
  return best;
}

/* The ruleset's ai_why hook (eng.h): why option i is the AI's pick, in
 * words from the option's kind. Reads only the option and the public
 * objectives' progress, names no card. */
void vl_ai_why(const void *st, const eng_prompt *p, int i, char *buf,
               size_t cap) {
  const vl_state *s = st;
  if (cap == 0 || i < 0 || i >= p->n || p->player < 0)
    return;
  uint32_t code = p->code[i];
  const char *what;
  switch (VL_OPT_TYPE(code)) {
  case VL_OPT_VILLAIN:
    what = "any villain can win; this one is as good a start as any";
    break;
  case VL_OPT_MOVE:
    what = "that location's actions serve your objective best now";
    break;
  case VL_OPT_GAIN:
    what = "Power pays for every card you will play";
    break;
  case VL_OPT_PLAY:
    what = "the card does most for your objective for its cost";
    break;
  case VL_OPT_ACTIVATE:
    what = "the ability is worth more than the Power it costs";
    break;
  case VL_OPT_MOVE_ALLY:
  case VL_OPT_MOVE_HERO:
    what = "it puts your cards where they serve your objective";
    break;
  case VL_OPT_VANQUISH:
    what = "the Hero blocks actions or your objective";
    break;
  case VL_OPT_FATE:
    if (!vl_shared(s) && VL_OPT_A(code) != p->player) {
      snprintf(buf, cap, "Fate against Villain %d slows them most",
               VL_OPT_A(code) + 1);
      return;
    }
    what = "it slows the opponent nearest to their objective";
    break;
  case VL_OPT_DISCARD:
    what = "cards in your hand are dead weight; new ones come at the end "
           "of the turn";
    break;
  case VL_OPT_END:
    what = "no action left is worth taking";
    break;
  case VL_OPT_PASS:
    what = "the Condition is worth more kept for later";
    break;
  case VL_OPT_COND:
    what = "the Condition's effect is worth playing now";
    break;
  case VL_OPT_DONE:
    what = "what is chosen is enough";
    break;
  case VL_OPT_SKIP:
    what = "the effect would not help you here";
    break;
  default:
    what = s->sp > 0 && s->stack[s->sp - 1].realm != p->player
               ? "it does the opponent most harm"
               : "it serves your objective best";
    break;
  }
  snprintf(buf, cap, "%s", what);
}
