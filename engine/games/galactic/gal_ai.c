/*
 * gal_ai.c: the heuristic player of Galactic Domination.
 *
 * It scores each option and takes the best (ties by rng): build first
 * (miners until four mine, then fighting ships), then each ship in turn
 * does its best action (a hit that destroys, any hit, a black hole shot
 * at more enemies than friends, a move that brings an enemy into range or
 * closer, a miner onto a free planet), and the turn ends when no ship
 * has a useful action left. It sees what every player sees: the whole
 * board, never the random generator.
 */
#include "gal.h"

#include <stdio.h>
#include <string.h>

typedef struct ai {
  const gal_state *s;
  int me;
  int dist[GAL_SECTORS][GAL_SECTORS];
  int threat[GAL_SECTORS]; /* damage the enemy can bring there next turn */
  bool stronger;           /* our fleet outweighs theirs: press on */
} ai;

static bool alive_on(const gal_unit *u) {
  return u->alive && u->sector < GAL_SECTORS;
}

/* How good sector x is for a fighting unit of type: an enemy in reach
 * from there, else closer to the nearest enemy. */
static int spot(const ai *a, int type, int x) {
  int best = 99, targets = 0;
  for (int k = 0; k < GAL_UNITS; k++) {
    const gal_unit *e = &a->s->u[k];
    if (!alive_on(e) || e->owner == a->me)
      continue;
    if (gal_reaches(type, x, e->sector))
      targets++;
    if (a->dist[x][e->sector] < best)
      best = a->dist[x][e->sector];
  }
  return (targets ? 20 + targets : 0) - best;
}

/* Enemy ships minus twice our own in sector x. */
static int net_in(const ai *a, int x) {
  int n = 0;
  for (int k = 0; k < GAL_UNITS; k++) {
    const gal_unit *u = &a->s->u[k];
    if (alive_on(u) && u->sector == x)
      n += u->owner == a->me ? -2 : 1;
  }
  return n;
}

static int value(int type) { return gal_types[type].cost; }

static int miners_of(const ai *a) {
  int n = 0;
  for (int k = 0; k < GAL_UNITS; k++)
    n += a->s->u[k].alive && a->s->u[k].owner == a->me &&
         a->s->u[k].type == GAL_MINER;
  return n;
}

static int attached_at(const ai *a, int x) {
  int n = 0;
  for (int k = 0; k < GAL_UNITS; k++)
    n += alive_on(&a->s->u[k]) && a->s->u[k].sector == x && a->s->u[k].attached;
  return n;
}

/* A fighting ship's move to x: towards a target it can hit this turn,
 * or closer while the enemy cannot make it pay, or anywhere when our
 * fleet is the stronger. */
static int move_score(const ai *a, const gal_unit *u, int x) {
  int gain = spot(a, u->type, x) - spot(a, u->type, u->sector);
  if (gain <= 0)
    return -1;
  bool strike = u->ap >= 2 && spot(a, u->type, x) >= 20;
  int toughness = u->shields + u->hull;
  if (!strike && !a->stronger && a->threat[x] >= toughness &&
      a->threat[x] > a->threat[u->sector])
    return -1;
  return 20 + 10 * gain + (strike ? 40 : 0);
}

/* The score of option c for the acting ship i. */
static int ship_score(const ai *a, int i, uint32_t c) {
  const gal_state *s = a->s;
  const gal_unit *u = &s->u[i];
  int x = GAL_A(c);
  switch (GAL_KIND(c)) {
  case GAL_O_ATTACK: {
    const gal_unit *t = &s->u[x];
    int d = gal_types[u->type].damage;
    bool kills = d >= t->shields + t->hull;
    return 100 + (kills ? 60 : 0) + value(t->type) - t->hull;
  }
  case GAL_O_FIRE:
    return u->aim < GAL_SECTORS && net_in(a, u->aim) > 0 ? 300 : 1;
  case GAL_O_CHARGE_SHOT: {
    int net = net_in(a, x);
    return net >= 2 ? 80 + 20 * net : -1;
  }
  case GAL_O_JUMP:
    return 30 + spot(a, u->type, x) - spot(a, u->type, u->sector);
  case GAL_O_CHARGE_JUMP:
    return spot(a, u->type, u->sector) <= -5 ? 25 : -1;
  case GAL_O_MOVE:
    if (u->type == GAL_MINER) {
      if (u->attached && attached_at(a, u->sector) == 1)
        return -1;
      int here = attached_at(a, u->sector) - (u->attached ? 1 : 0);
      return attached_at(a, x) < here ? 30 - a->dist[x][u->sector] : -1;
    }
    return move_score(a, u, x);
  case GAL_O_ATTACH:
    return attached_at(a, u->sector) == 0 ? 60 : 10;
  case GAL_O_WARP: {
    int here = spot(a, u->type, u->sector);
    return here < 20 && s->minerals[a->me] >= GAL_WARP_COST + 4 ? 15 : -1;
  }
  default:
    return 0; /* done */
  }
}

static int best_of_ship(const ai *a, int i) {
  gal_state copy = *a->s;
  copy.phase = GAL_PH_SHIP;
  copy.acting = (uint8_t)i;
  eng_prompt p;
  gal_prompt(&copy, &p);
  int best = 0;
  for (int k = 0; k < p.n; k++) {
    int v = ship_score(a, i, p.code[k]);
    if (v > best)
      best = v;
  }
  return best;
}

static int build_score(const ai *a, int type, int x) {
  int v;
  switch (type) {
  case GAL_MINER:
    v = miners_of(a) < 4 ? 90 : miners_of(a) < 6 ? 30 : -1;
    break;
  case GAL_RAIDER:
    v = 70;
    break;
  case GAL_DESTROYER:
    v = 65;
    break;
  case GAL_COMMAND:
    v = 60;
    break;
  default:
    v = 20;
  }
  return v < 0 ? v : v + spot(a, type, x);
}

static int score(const ai *a, const eng_prompt *p, int k) {
  const gal_state *s = a->s;
  uint32_t c = p->code[k];
  int x = GAL_A(c), y = GAL_B(c);
  switch (GAL_KIND(c)) {
  case GAL_O_PLACE: /* spread out, nearer the middle first */
    return 10 - 3 * gal_crowd(s, y) - a->dist[y][7] + (x == GAL_MINER ? 0 : 1);
  case GAL_O_LAND:
    return gal_crowd(s, x) >= GAL_CAPACITY ? -10 : spot(a, GAL_EXPLORER, x);
  case GAL_O_VICTIM: /* the defender: the other's dearest, else our cheapest */
    return s->u[x].owner == a->me ? -value(s->u[x].type)
                                  : 100 + value(s->u[x].type);
  case GAL_O_SHIP:
    return best_of_ship(a, x) > 0 ? 10 + best_of_ship(a, x) : -1;
  case GAL_O_BUILD:
    return build_score(a, x, y) > 0 ? 500 + build_score(a, x, y) : -1;
  case GAL_O_END:
    return 0;
  default:
    return s->phase == GAL_PH_SHIP ? ship_score(a, s->acting, c) : 0;
  }
}

int gal_ai(const void *st, const eng_prompt *p, eng_rng *rng) {
  ai a = {.s = st, .me = p->player};
  for (int x = 0; x < GAL_SECTORS; x++)
    for (int y = 0; y < GAL_SECTORS; y++)
      a.dist[x][y] = x == y ? 0 : gal_adjacent(x, y) ? 1 : 99;
  for (int k = 0; k < GAL_SECTORS; k++)
    for (int x = 0; x < GAL_SECTORS; x++)
      for (int y = 0; y < GAL_SECTORS; y++)
        if (a.dist[x][k] + a.dist[k][y] < a.dist[x][y])
          a.dist[x][y] = a.dist[x][k] + a.dist[k][y];
  int mine = 0, theirs = 0;
  for (int k = 0; k < GAL_UNITS; k++) {
    const gal_unit *e = &a.s->u[k];
    if (!alive_on(e))
      continue;
    int w = e->type == GAL_MINER ? 0 : e->shields + e->hull;
    if (e->owner == a.me) {
      mine += w;
      continue;
    }
    theirs += w;
    int moves = gal_types[e->type].ap - 1;
    for (int x = 0; x < GAL_SECTORS; x++) {
      bool hits = false;
      for (int y = 0; y < GAL_SECTORS && !hits; y++)
        hits = a.dist[e->sector][y] <= moves && !a.s->black[y] &&
               gal_reaches(e->type, y, x);
      if (hits)
        a.threat[x] += gal_types[e->type].damage *
                       (gal_types[e->type].ap - (e->sector == x ? 0 : 1));
    }
  }
  a.stronger = mine * 4 >= theirs * 5;
  int best = 0, best_v = 0, ties = 0;
  for (int k = 0; k < p->n; k++) {
    int v = score(&a, p, k);
    if (k == 0 || v > best_v) {
      best = k;
      best_v = v;
      ties = 1;
    } else if (v == best_v && eng_rng_below(rng, (uint32_t)++ties) == 0) {
      best = k;
    }
  }
  return best;
}

/* The ruleset's ai_why hook (eng.h): why option i is the AI's pick, in
 * words from the option's kind. Galactic Domination hides nothing. */
void gal_ai_why(const void *st, const eng_prompt *p, int i, char *buf,
                size_t cap) {
  (void)st;
  if (cap == 0 || i < 0 || i >= p->n)
    return;
  const char *what;
  switch (GAL_KIND(p->code[i])) {
  case GAL_O_PLACE:
    what = "it spreads your units out, nearer the middle";
    break;
  case GAL_O_LAND:
    what = "it is the safest sector to land in";
    break;
  case GAL_O_VICTIM:
    what = "it loses the unit that costs you least";
    break;
  case GAL_O_SHIP:
    what = "that unit has the best move this turn";
    break;
  case GAL_O_BUILD:
    what = "a new unit there adds most strength for its minerals";
    break;
  case GAL_O_END:
    what = "nothing left is worth doing this turn";
    break;
  case GAL_O_ATTACK:
    what = "it attacks the unit it can hurt most";
    break;
  case GAL_O_ATTACH:
    what = "a miner on its planet earns minerals";
    break;
  case GAL_O_MOVE:
    what = "that sector is the best reachable spot";
    break;
  default:
    what = "it scores best of your options by the AI's count";
    break;
  }
  snprintf(buf, cap, "%s", what);
}
