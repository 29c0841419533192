/*
 * sv_ai.c: a heuristic Supervillain player, the ruleset's ai hook.
 *
 * A greedy one-step player: it gives every option of the prompt a score
 * and answers with the best (ties broken by the caller's rng). Scores
 * are in hundredths of a Minion card in hand (CARD), the game's basic
 * currency; a Domination point is worth POINT. What it weighs:
 *
 * - Act III: a Project is worth its points, discounted by the turns its
 *   cost will take with the cards in hand and by the Projects already
 *   waiting; an Asteroid is worth the card it brings plus the Mob it
 *   destroys, aimed at the leader.
 * - Day: a Mob is worth its share of the Project it builds (more on a
 *   Project near completion, a completion bonus, the whole game when it
 *   wins); Minion Ops and abilities are worth what their effects do now
 *   minus the cards they cost; shooting down is worth what the Asteroid
 *   would destroy; every option that spends cards pays for a shot it
 *   would make impossible. The Day ends when nothing scores above zero.
 * - Inside effects: targets that hurt the leader or help itself most;
 *   discards: the card least worth keeping; Asteroid hits: the most
 *   valuable thing (a Facility's points, the Mob nearest completion).
 *
 * Harm to another Villain counts in full against the leader (the
 * opponent with most points, then most Mobs on Projects), half against
 * the others, and against a partner it counts as a loss. It reads only
 * what its seat may see: the table, the discard piles, hand sizes, its
 * own hand; never another hand or a deck's order.
 */
#include "sv.h"

#include <stdio.h>
#include <string.h>

#define MIN_LO 0
#define DOM_LO SV_N_MINION
#define C(i) sv_card_of(i)

enum {
  CARD = 100,    /* one Minion card in hand */
  POINT = 400,   /* one Domination point */
  TOKEN = 30,    /* an Asteroid-proof token */
  WIN = 1000000, /* this option wins the game now */
  THREAT = 2000, /* a Project that would win its owner the game */
};

typedef struct ai {
  const sv_state *s;
  int me;
  int power[SV_N]; /* Project instance -> Minion Power of its Mobs */
  int hand[SV_N_MINION], n_hand;
  int hand_size[4];
  int weight[4]; /* percent: what seat t losing 1 is worth to me */
  int leader;
} ai;

/* ---- the table as the seat sees it ------------------------------------ */

static bool ally(const ai *a, int t) {
  return t == a->me || (a->s->team && (t % 2) == (a->me % 2));
}

static int standing(const ai *a, int t) {
  const sv_state *s = a->s;
  int v = sv_team_points(s, t) * POINT;
  for (int i = DOM_LO; i < SV_N; i++)
    if (s->w[i].zone == SV_Z_PROJECT && s->w[i].owner == t)
      v += C(i)->points * POINT * a->power[i] / C(i)->cost;
  return v;
}

static void ai_init(ai *a, const sv_state *s, int me) {
  memset(a, 0, sizeof *a);
  a->s = s;
  a->me = me;
  for (int i = MIN_LO; i < DOM_LO; i++) {
    const sv_where *w = &s->w[i];
    if (w->zone == SV_Z_MOB)
      a->power[w->host] += C(i)->power;
    else if (w->zone == SV_Z_HAND) {
      a->hand_size[w->owner]++;
      if (w->owner == me)
        a->hand[a->n_hand++] = i;
    }
  }
  /* The leader: most points, then most built; ties go to the next seat
   * in turn order, the one who plays soonest. */
  int best = -1;
  a->leader = -1;
  for (int k = 1; k < s->players; k++) {
    int t = (me + k) % s->players;
    if (ally(a, t))
      continue;
    int v = standing(a, t);
    if (v > best) {
      best = v;
      a->leader = t;
    }
  }
  int opponents = 0;
  for (int t = 0; t < s->players; t++)
    opponents += !ally(a, t);
  for (int t = 0; t < s->players; t++) {
    if (t == me)
      a->weight[t] = -100;
    else if (ally(a, t))
      a->weight[t] = -60;
    else if (opponents == 1 || t == a->leader)
      a->weight[t] = 100;
    else
      a->weight[t] = 50;
    /* Anyone two points from winning must be stopped. */
    if (!ally(a, t) && sv_team_points(s, t) + 2 >= s->target)
      a->weight[t] = a->weight[t] * 3 / 2;
  }
}

/* What seat t losing v is worth to me (negative for me and my partner). */
static int harm(const ai *a, int t, int v) { return v * a->weight[t] / 100; }

static int facility_bonus(int i) {
  switch ((sv_kind)C(i)->facility.kind) {
  case SV_KIND_ONCE_PER_TURN:
    return 120;
  case SV_KIND_WHENEVER:
  case SV_KIND_DESTROY_THIS:
    return 80;
  case SV_KIND_IF_DESTROYED:
  case SV_KIND_WIN_BLOCK:
    return 50;
  case SV_KIND_NONE:
  case SV_KIND_WHEN_COMPLETE:
  case SV_KIND_COUNT:
    break;
  }
  return 0;
}

/* Does completing Project (card) i win the game for seat owner? */
static bool completes_win(const ai *a, int i, int owner) {
  return C(i)->points > 0 &&
         sv_team_points(a->s, owner) + C(i)->points >= a->s->target &&
         !sv_win_blocked(a->s, owner);
}

/* What Project i is worth to its owner once complete. */
static int project_value(const ai *a, int i) {
  int v = C(i)->points * POINT + facility_bonus(i);
  if (completes_win(a, i, a->s->w[i].owner))
    v += THREAT;
  return v;
}

/* What the owner of Mob m loses with it: its share of the Project, more
 * the nearer the Project is to completion, and the card. */
static int mob_stake(const ai *a, int m) {
  int h = a->s->w[m].host, cost = C(h)->cost, pw = C(m)->power;
  int near = 100 + 50 * a->power[h] / cost;
  return project_value(a, h) * pw / cost * near / 100 + CARD / 2;
}

static int project_stake(const ai *a, int h) {
  int v = project_value(a, h) / 4 + 20;
  for (int m = MIN_LO; m < DOM_LO; m++)
    if (a->s->w[m].zone == SV_Z_MOB && a->s->w[m].host == h)
      v += mob_stake(a, m);
  return v;
}

static int facility_stake(int f) {
  return C(f)->points * POINT + facility_bonus(f);
}

/* What an Asteroid hitting thing i takes from its owner. */
static int hit_stake(const ai *a, int i, bool charged) {
  const sv_where *w = &a->s->w[i];
  if (w->zone == SV_Z_MOB)
    return w->proof && !charged ? TOKEN : mob_stake(a, i);
  if (w->zone == SV_Z_PROJECT)
    return project_stake(a, i);
  return w->proof ? TOKEN : facility_stake(i);
}

/* Can an Asteroid (charged or not) hit thing i? */
static bool hittable(const ai *a, int i, bool charged) {
  const sv_where *w = &a->s->w[i];
  if (w->zone == SV_Z_MOB)
    return true;
  if (!charged)
    return false;
  return w->zone == SV_Z_FACILITY ||
         (w->zone == SV_Z_PROJECT && a->power[i] == 0);
}

/* The most an Asteroid hitting seat t can take. */
static int hit_value(const ai *a, int t, bool charged) {
  int best = 0;
  for (int i = 0; i < SV_N; i++) {
    const sv_where *w = &a->s->w[i];
    if (w->owner != t || !hittable(a, i, charged))
      continue;
    int v = hit_stake(a, i, charged);
    if (v > best)
      best = v;
  }
  return best;
}

/* Is Asteroid i all that keeps my team from winning (Bad Luck Emitter)? */
static bool only_block(const ai *a, int i) {
  const sv_state *s = a->s;
  if (!s->w[i].charged || !ally(a, s->w[i].target) ||
      sv_team_points(s, a->me) < s->target)
    return false;
  for (int k = DOM_LO; k < SV_N; k++)
    if (k != i && s->w[k].zone == SV_Z_ASTEROID && s->w[k].charged &&
        ally(a, s->w[k].target))
      return false;
  return sv_win_blocked(s, a->me);
}

/* What shooting down Asteroid i (not mine) is worth to me, before the
 * cards it costs: what it would take from its target, the card its owner
 * would draw, and a blocked win that it frees. */
static int shoot_value(const ai *a, int i) {
  const sv_where *w = &a->s->w[i];
  int v = -harm(a, w->target, hit_value(a, w->target, w->charged));
  if (w->target == a->me && !w->charged && hit_value(a, a->me, false) == 0)
    v += CARD / 3; /* the next Mob I play would be its target */
  v += harm(a, w->owner, CARD);
  if (only_block(a, i))
    v += WIN;
  return v;
}

/* What a new uncharged Asteroid at seat t is worth to me. */
static int launch_value(const ai *a, int t) {
  return CARD * 4 / 5 + harm(a, t, hit_value(a, t, false) + 40);
}

static int best_launch(const ai *a) {
  int best = 0;
  for (int t = 0; t < a->s->players; t++)
    if (!ally(a, t)) {
      int v = launch_value(a, t);
      if (v > best)
        best = v;
    }
  return best;
}

/* What playing or putting a Mob of power pw onto my Project h is worth. */
static int place_gain(const ai *a, int pw, int h) {
  int cost = C(h)->cost, have = a->power[h], rem = cost - have;
  if (rem <= 0)
    return 0;
  if (pw >= rem) {
    if (completes_win(a, h, a->me))
      return WIN;
    return project_value(a, h) * rem / cost + CARD;
  }
  int near = 100 + 50 * (have + pw) / cost;
  return project_value(a, h) * pw / cost * near / 100;
}

/* The best Project of mine for a Mob of power pw (-1: I have none). */
static int best_place(const ai *a, int pw, int *where) {
  int best = -1;
  *where = -1;
  for (int h = DOM_LO; h < SV_N; h++)
    if (a->s->w[h].zone == SV_Z_PROJECT && a->s->w[h].owner == a->me) {
      int v = place_gain(a, pw, h);
      if (*where < 0 || v > best) {
        best = v;
        *where = h;
      }
    }
  return best;
}

static int count_zone(const ai *a, int zone, int owner) {
  int n = 0;
  for (int i = 0; i < SV_N; i++)
    n += a->s->w[i].zone == zone && a->s->w[i].owner == owner;
  return n;
}

/* ---- what effects are worth -------------------------------------------- */

static int eff_value(const ai *a, const sv_effect *e, int src, int depth);
static int keep_value(const ai *a, int c);

/* The sum of the best `upto` of the k gains minus the best `skip` (taken
 * in turn, best first); reorders gains. */
static int best_gains(int *gains, int k, int skip, int upto) {
  int total = 0;
  for (int r = 0; r < upto && k > 0; r++) {
    int bi = 0;
    for (int j = 1; j < k; j++)
      if (gains[j] > gains[bi])
        bi = j;
    if (r >= skip)
      total += gains[bi];
    gains[bi] = gains[--k];
  }
  return total;
}

/* What Mobs played or put beyond the allowance are worth: the best
 * `upto` of my hand's Mobs (not src) minus the best `skip`, which the
 * allowance covers anyway. Boosted cards never need an allowance, so
 * they do not count. */
static int mobs_from_hand(const ai *a, int skip, int upto, int src) {
  int gains[SV_N_MINION], k = 0, h;
  for (int j = 0; j < a->n_hand; j++) {
    int c = a->hand[j];
    if (c == src || C(c)->boosted)
      continue;
    int g = best_place(a, C(c)->power, &h) - CARD / 2;
    if (h >= 0 && g > 0)
      gains[k++] = g;
  }
  return best_gains(gains, k, skip, upto);
}

static int ability_value(const ai *a, const sv_ability *ab, int src, int depth);

/* The same for Minion Ops beyond the allowance: Swift ones never need
 * it, and each is valued without looking further into the hand. */
static int ops_from_hand(const ai *a, int skip, int upto, int src) {
  int gains[SV_N_MINION], k = 0;
  for (int j = 0; j < a->n_hand; j++) {
    int c = a->hand[j];
    if (c == src || C(c)->swift)
      continue;
    int g = ability_value(a, &C(c)->ops, c, 1) - CARD;
    if (g > 0)
      gains[k++] = g;
  }
  return best_gains(gains, k, skip, upto);
}

/* What swapping Mobs m1 and m2 is worth to me. */
static int swap_value(const ai *a, int m1, int m2) {
  const sv_state *s = a->s;
  int h[2] = {s->w[m1].host, s->w[m2].host};
  int delta[2] = {C(m2)->power - C(m1)->power, C(m1)->power - C(m2)->power};
  int v = 0;
  for (int k = 0; k < 2; k++) {
    int pr = h[k], owner = s->w[pr].owner, cost = C(pr)->cost;
    int before = a->power[pr], after = before + delta[k];
    int worth = project_value(a, pr);
    int change =
        worth *
        ((after < cost ? after : cost) - (before < cost ? before : cost)) /
        cost;
    if (after >= cost && before < cost) {
      change += CARD;
      if (ally(a, owner) && completes_win(a, pr, owner))
        return WIN;
    }
    v -= harm(a, owner, change);
  }
  return v;
}

static int best_swap(const ai *a, int first, int *pick) {
  const sv_state *s = a->s;
  int best = -WIN;
  *pick = -1;
  for (int m1 = MIN_LO; m1 < DOM_LO; m1++) {
    if (s->w[m1].zone != SV_Z_MOB || (first >= 0 && m1 != first))
      continue;
    for (int m2 = MIN_LO; m2 < DOM_LO; m2++)
      if (s->w[m2].zone == SV_Z_MOB && s->w[m2].host != s->w[m1].host) {
        int v = swap_value(a, m1, m2);
        if (v > best) {
          best = v;
          *pick = first >= 0 ? m2 : m1;
        }
      }
  }
  return *pick < 0 ? 0 : best;
}

/* What charging Asteroid i is worth to me. */
static int charge_value(const ai *a, int i) {
  int t = a->s->w[i].target;
  return harm(a, t, hit_value(a, t, true) - hit_value(a, t, false));
}

/* What retargeting Asteroid i (another's) at seat t is worth to me. */
static int retarget_value(const ai *a, int i, int t) {
  const sv_where *w = &a->s->w[i];
  /* Left alone it hits its target and its owner draws; taken over it
   * hits t and I draw. */
  int left = harm(a, w->target, hit_value(a, w->target, w->charged)) -
             harm(a, w->owner, CARD);
  int taken = harm(a, t, hit_value(a, t, w->charged) + 40) + CARD * 4 / 5;
  return taken - left;
}

static int best_retarget_seat(const ai *a, int i, int *seat) {
  int best = -WIN;
  *seat = -1;
  for (int t = 0; t < a->s->players; t++)
    if (t != a->me && !(a->s->team && ally(a, t))) {
      int v = retarget_value(a, i, t);
      if (v > best) {
        best = v;
        *seat = t;
      }
    }
  return best;
}

/* What an Asteroid-proof token on my Mob or Facility i is worth. */
static int proof_value(const ai *a, int i) {
  const sv_state *s = a->s;
  bool incoming = false, charged = false;
  for (int k = DOM_LO; k < SV_N; k++)
    if (s->w[k].zone == SV_Z_ASTEROID && s->w[k].target == a->me) {
      incoming = true;
      charged |= s->w[k].charged;
    }
  if (s->w[i].zone == SV_Z_MOB)
    return mob_stake(a, i) / (incoming && !charged ? 2 : 5);
  return facility_stake(i) / (charged ? 2 : 6);
}

/* What resolving effect e of card src now is worth to me; for a choice,
 * its best option among those sv.c would offer. At depth > 0 (valuing a
 * card inside another valuation) effects that would look at the other
 * cards in hand take a flat estimate instead, so nothing recurses. */
static int eff_value(const ai *a, const sv_effect *e, int src, int depth) {
  const sv_state *s = a->s;
  int me = a->me, n = e->n, best = 0, h;
  switch ((sv_op)e->op) {
  case SV_OP_DRAW_MINION:
    return n * CARD + 5;
  case SV_OP_DISCARD_MINION:
    return -n * CARD * 3 / 5;
  case SV_OP_EACH_OTHER_DISCARDS: {
    int v = 0;
    for (int t = 0; t < s->players; t++)
      if (t != me)
        v += harm(a, t, (a->hand_size[t] < n ? a->hand_size[t] : n) * 70);
    return v;
  }
  case SV_OP_LAUNCH_ASTEROID:
    return n * best_launch(a);
  case SV_OP_DRAW_PROJECT:
    return n * 150;
  case SV_OP_DESTROY_OWN_PROJECT:
    best = -WIN;
    for (int i = DOM_LO; i < SV_N; i++)
      if (s->w[i].zone == SV_Z_PROJECT && s->w[i].owner == me &&
          -project_stake(a, i) > best)
        best = -project_stake(a, i);
    return best == -WIN ? 0 : best;
  case SV_OP_TAKE_DISCARD_PROJECT:
    for (int k = 0; k < s->ddisc.n; k++) {
      int v = project_value(a, s->ddisc.c[k]) / 3;
      if (v > best)
        best = v;
    }
    return best;
  case SV_OP_TAKE_DISCARD_MINION:
    if (depth > 0)
      return (s->mdisc.n < n ? s->mdisc.n : n) * CARD * 3 / 4;
    /* Never the card's own kind: a Swift card taking itself back would
     * be played again forever. */
    for (int k = 0; k < s->mdisc.n; k++) {
      int c = s->mdisc.c[k];
      if (sv_card_index(c) != sv_card_index(src) && keep_value(a, c) > best)
        best = keep_value(a, c);
    }
    return (s->mdisc.n < n ? s->mdisc.n : n) * (CARD / 2 + best / 2);
  case SV_OP_PUT_MOB_FROM_HAND: /* as extra_mob: beyond the allowance */
    if (depth > 0)
      return n * CARD / 2;
    return mobs_from_hand(a, s->mobs_left, s->mobs_left + n, src);
  case SV_OP_PUT_MOB_FROM_DISCARD:
    for (int k = 0; k < s->mdisc.n; k++) {
      int v = best_place(a, C(s->mdisc.c[k])->power, &h);
      if (v > best)
        best = v;
    }
    return best;
  case SV_OP_STEAL_MOB:
    if (!count_zone(a, SV_Z_PROJECT, me))
      return 0;
    best = -WIN;
    for (int m = MIN_LO; m < DOM_LO; m++)
      if (s->w[m].zone == SV_Z_MOB && s->w[m].owner != me) {
        int v = best_place(a, C(m)->power, &h) +
                harm(a, s->w[m].owner, mob_stake(a, m));
        if (v > best)
          best = v;
      }
    return best == -WIN ? 0 : best;
  case SV_OP_SWAP_MOBS:
    return best_swap(a, -1, &h);
  case SV_OP_DESTROY_MOB:
    best = -WIN;
    for (int m = MIN_LO; m < DOM_LO; m++)
      if (s->w[m].zone == SV_Z_MOB && s->w[m].owner != me) {
        int v = harm(a, s->w[m].owner, mob_stake(a, m));
        if (v > best)
          best = v;
      }
    return best == -WIN ? 0 : best;
  case SV_OP_DESTROY_PROJECT:
    for (int i = DOM_LO; i < SV_N; i++)
      if (s->w[i].zone == SV_Z_PROJECT && s->w[i].owner != me &&
          a->power[i] == 0) {
        int v = harm(a, s->w[i].owner, project_stake(a, i));
        if (v > best)
          best = v;
      }
    return best;
  case SV_OP_DESTROY_FACILITY:
  case SV_OP_REVERT_FACILITY:
    for (int i = DOM_LO; i < SV_N; i++)
      if (s->w[i].zone == SV_Z_FACILITY && s->w[i].owner != me) {
        int lost = e->op == SV_OP_DESTROY_FACILITY && s->w[i].proof
                       ? TOKEN
                       : facility_stake(i);
        int v = harm(a, s->w[i].owner, lost);
        if (v > best)
          best = v;
      }
    return best;
  case SV_OP_DESTROY_ALL_MOBS: {
    int v = 0;
    for (int m = MIN_LO; m < DOM_LO; m++)
      if (s->w[m].zone == SV_Z_MOB && s->w[m].owner != me)
        v += harm(a, s->w[m].owner, mob_stake(a, m));
    return v;
  }
  case SV_OP_CHARGE_ASTEROID:
    for (int i = DOM_LO; i < SV_N; i++)
      if (s->w[i].zone == SV_Z_ASTEROID && !s->w[i].charged &&
          (e->scope == SV_SCOPE_ANY || s->w[i].owner == me)) {
        int v = charge_value(a, i);
        if (v > best)
          best = v;
      }
    return best;
  case SV_OP_SHOOT_DOWN:
    best = -WIN;
    for (int i = DOM_LO; i < SV_N; i++)
      if (s->w[i].zone == SV_Z_ASTEROID && s->w[i].owner != me &&
          (e->scope == SV_SCOPE_ANY || s->w[i].target == me)) {
        int v = shoot_value(a, i);
        if (v > best)
          best = v;
      }
    return best == -WIN ? 0 : best;
  case SV_OP_RETARGET:
    best = -WIN;
    for (int i = DOM_LO; i < SV_N; i++)
      if (s->w[i].zone == SV_Z_ASTEROID && s->w[i].owner != me) {
        int seat, v = best_retarget_seat(a, i, &seat);
        if (seat >= 0 && v > best)
          best = v;
      }
    return best == -WIN ? 0 : best;
  case SV_OP_ADD_PROOF:
    for (int i = 0; i < SV_N; i++) {
      const sv_where *w = &s->w[i];
      if (w->owner != me || w->proof)
        continue;
      if ((w->zone == SV_Z_MOB && e->scope != SV_SCOPE_FACILITY) ||
          (w->zone == SV_Z_FACILITY && e->scope != SV_SCOPE_DEFAULT)) {
        int v = proof_value(a, i);
        if (v > best)
          best = v;
      }
    }
    return best;
  case SV_OP_REMOVE_PROOF:
    best = -WIN;
    for (int i = 0; i < SV_N; i++) {
      const sv_where *w = &s->w[i];
      if ((w->zone == SV_Z_MOB || w->zone == SV_Z_FACILITY) && w->owner != me &&
          w->proof) {
        int v = harm(a, w->owner, TOKEN);
        if (v > best)
          best = v;
      }
    }
    return best == -WIN ? 0 : best;
  case SV_OP_EXTRA_MOB: /* worth the Mobs the allowance did not cover */
    if (depth > 0)
      return n * CARD / 2;
    return mobs_from_hand(a, s->mobs_left, s->mobs_left + n, src);
  case SV_OP_EXTRA_OPS: { /* worth the Ops the allowance did not cover */
    if (depth > 0)
      return n * CARD / 4;
    int left = s->ops_left; /* after src, if it is Ops that count */
    if (src < DOM_LO && !C(src)->swift && left > 0)
      left--;
    return ops_from_hand(a, left, left + n, src);
  }
  case SV_OP_COUNT:
    break;
  }
  return 0;
}

static int ability_value(const ai *a, const sv_ability *ab, int src,
                         int depth) {
  int v = -(int)ab->cost * CARD * 3 / 5;
  for (int k = 0; k < ab->n_effects; k++)
    v += eff_value(a, &ab->eff[k], src, depth);
  return v;
}

/* What card c (in my hand, or one I might take) is worth keeping. */
static int keep_value(const ai *a, int c) {
  int h, mob = best_place(a, C(c)->power, &h);
  if (h < 0)
    mob = C(c)->power / 10;
  int ops = ability_value(a, &C(c)->ops, c, 1);
  int v = mob > ops ? mob : ops;
  if (v < 0)
    v = 0;
  return v + C(c)->power / 20 + (C(c)->boosted || C(c)->swift ? 10 : 0);
}

/* What discarding n cards from my hand costs: the n least worth
 * keeping. -1 when the hand is too small. */
static int discard_cost(const ai *a, int n) {
  int vals[SV_N_MINION], k = 0;
  for (int j = 0; j < a->n_hand; j++)
    vals[k++] = keep_value(a, a->hand[j]);
  if (k < n)
    return -1;
  int total = 0;
  for (int r = 0; r < n; r++) {
    int bi = 0;
    for (int j = 1; j < k; j++)
      if (vals[j] < vals[bi])
        bi = j;
    total += vals[bi];
    vals[bi] = vals[--k];
  }
  return total;
}

/* ---- the decisions ----------------------------------------------------- */

static int drawn_card(const sv_state *s) {
  for (int i = DOM_LO; i < SV_N; i++)
    if (s->w[i].zone == SV_Z_LIMBO)
      return i;
  return -1;
}

/* Act III: what starting card d as a Project is worth. */
static int project_choice(const ai *a, int d) {
  const sv_state *s = a->s;
  int cost = C(d)->cost;
  /* The Mob power I could put on it this turn: my strongest card plus
   * every Boosted one. */
  int strongest = 0, boosted = 0, total = 0;
  for (int j = 0; j < a->n_hand; j++) {
    const sv_card *c = C(a->hand[j]);
    total += c->power;
    if (c->boosted)
      boosted += c->power;
    else if (c->power > strongest)
      strongest = c->power;
  }
  int now = strongest + boosted;
  if (now >= cost && completes_win(a, d, a->me) && s->mobs_left > 0)
    return WIN;
  int value = C(d)->points * POINT + facility_bonus(d);
  /* Turns to build it: what the hand covers now, then ~450m a turn. */
  int rest = cost - (now < cost ? now : cost);
  int turns = 1 + (rest + 449) / 450;
  if (total < cost / 2)
    turns++;
  value = value * 100 / (100 + 35 * (turns - 1));
  if (now >= cost)
    value += CARD;
  /* Projects already waiting compete for the same Mobs. */
  int waiting = 0;
  for (int i = DOM_LO; i < SV_N; i++)
    if (s->w[i].zone == SV_Z_PROJECT && s->w[i].owner == a->me &&
        C(i)->points > 0)
      waiting++;
  value = value / (1 + waiting);
  if (!count_zone(a, SV_Z_PROJECT, a->me))
    value += CARD / 2; /* somewhere to put Mobs at all */
  /* A "Destroy this" Project pays off at once if its effect is good. */
  if (C(d)->project.kind == SV_KIND_DESTROY_THIS) {
    int now_value = ability_value(a, &C(d)->project, d, 0);
    if (now_value > value)
      value = now_value;
  }
  return value;
}

/* Cards an option takes from my hand (for the shooting reserve). */
static int cards_spent(const ai *a, uint32_t code) {
  int i = OPT_A(code);
  switch (OPT_TYPE(code)) {
  case OPT_MOB:
  case OPT_OPS:
    return 1;
  case OPT_USE:
    return a->s->w[i].zone == SV_Z_FACILITY ? C(i)->facility.cost
                                            : C(i)->project.cost;
  case OPT_CHARGE:
    return 3;
  default:
    return 0;
  }
}

static int day_score(const ai *a, uint32_t code) {
  const sv_state *s = a->s;
  int i = OPT_A(code), h;
  switch (OPT_TYPE(code)) {
  case OPT_MOB: {
    int v = best_place(a, C(i)->power, &h);
    if (v >= WIN)
      return WIN;
    v -= CARD / 2 + keep_value(a, i) / 4;
    if (C(i)->boosted && s->mobs_left > 0)
      v += 5; /* leaves the one regular Mob for another card */
    return v;
  }
  case OPT_OPS: {
    int v = ability_value(a, &C(i)->ops, i, 0) - CARD;
    if (!C(i)->swift)
      v -= 10;
    return v;
  }
  case OPT_SHOOT: {
    int cost = discard_cost(a, s->w[i].charged ? 3 : 2);
    return cost < 0 ? -WIN : shoot_value(a, i) - cost;
  }
  case OPT_USE: {
    bool facility = s->w[i].zone == SV_Z_FACILITY;
    const sv_ability *ab = facility ? &C(i)->facility : &C(i)->project;
    int v = ability_value(a, ab, i, 0);
    v += ab->cost * CARD * 3 / 5; /* priced below with the real cards */
    int cost = discard_cost(a, ab->cost);
    if (cost < 0)
      return -WIN;
    v -= cost;
    if (ab->kind == SV_KIND_DESTROY_THIS)
      v -= facility ? facility_stake(i) : project_stake(a, i);
    return v;
  }
  case OPT_CHARGE: {
    int cost = discard_cost(a, 3);
    return cost < 0 ? -WIN : charge_value(a, i) - cost;
  }
  case OPT_END:
    return 0;
  default:
    return -WIN;
  }
}

/* Scores option code of the choice an effect frame waits for. */
static int effect_score(const ai *a, const sv_frame *f, uint32_t code) {
  const sv_state *s = a->s;
  int i = OPT_A(code), h, pick;
  switch ((sv_op)f->op) {
  case SV_OP_DESTROY_OWN_PROJECT:
    return -project_stake(a, i);
  case SV_OP_TAKE_DISCARD_PROJECT:
    return project_value(a, i) * 1000 / C(i)->cost;
  case SV_OP_TAKE_DISCARD_MINION:
    return sv_card_index(i) == sv_card_index(f->src) ? -1 : keep_value(a, i);
  case SV_OP_PUT_MOB_FROM_HAND:
    if (OPT_TYPE(code) == OPT_STOP)
      return 0;
    return best_place(a, C(i)->power, &h) - CARD / 2;
  case SV_OP_PUT_MOB_FROM_DISCARD:
    return best_place(a, C(i)->power, &h);
  case SV_OP_STEAL_MOB:
    return best_place(a, C(i)->power, &h) +
           harm(a, s->w[i].owner, mob_stake(a, i));
  case SV_OP_SWAP_MOBS:
    if (f->step == 1)
      return swap_value(a, f->a, i);
    return best_swap(a, i, &pick);
  case SV_OP_DESTROY_MOB:
    return harm(a, s->w[i].owner, mob_stake(a, i));
  case SV_OP_DESTROY_PROJECT:
    return harm(a, s->w[i].owner, project_stake(a, i));
  case SV_OP_DESTROY_FACILITY:
    return harm(a, s->w[i].owner, s->w[i].proof ? TOKEN : facility_stake(i));
  case SV_OP_REVERT_FACILITY:
    return harm(a, s->w[i].owner, facility_stake(i));
  case SV_OP_CHARGE_ASTEROID:
    return charge_value(a, i);
  case SV_OP_SHOOT_DOWN:
    return shoot_value(a, i);
  case SV_OP_RETARGET:
    if (f->step == 1)
      return retarget_value(a, f->a, i);
    return best_retarget_seat(a, i, &pick);
  case SV_OP_ADD_PROOF:
    return proof_value(a, i);
  case SV_OP_REMOVE_PROOF: {
    int v = harm(a, s->w[i].owner, TOKEN);
    for (int k = DOM_LO; k < SV_N; k++) /* my Asteroid will hit it */
      if (s->w[k].zone == SV_Z_ASTEROID && s->w[k].owner == a->me &&
          s->w[k].target == s->w[i].owner)
        v += harm(a, s->w[i].owner, hit_stake(a, i, true) / 2);
    return v;
  }
  case SV_OP_DRAW_MINION:
  case SV_OP_DISCARD_MINION:
  case SV_OP_EACH_OTHER_DISCARDS:
  case SV_OP_LAUNCH_ASTEROID:
  case SV_OP_DRAW_PROJECT:
  case SV_OP_DESTROY_ALL_MOBS:
  case SV_OP_EXTRA_MOB:
  case SV_OP_EXTRA_OPS:
  case SV_OP_COUNT:
    break;
  }
  return 0;
}

/* Scores option code of the decision st is waiting for. */
static int score(const ai *a, uint32_t code) {
  const sv_state *s = a->s;
  int i = OPT_A(code);
  if (s->sp == 0) {
    switch (OPT_TYPE(code)) {
    case OPT_PROJECT: {
      int d = drawn_card(s);
      return d < 0 ? 0 : project_choice(a, d);
    }
    case OPT_LAUNCH:
      return launch_value(a, i);
    default:
      return day_score(a, code);
    }
  }
  const sv_frame *f = &s->stack[s->sp - 1];
  switch ((sv_frame_kind)f->kind) {
  case SV_F_EFFECT:
    return effect_score(a, f, code);
  case SV_F_DISCARD:
    return -keep_value(a, i);
  case SV_F_PLACE:
    return place_gain(a, C(f->a)->power, i);
  case SV_F_HIT:
    return hit_stake(a, i, s->w[f->a].charged);
  case SV_F_LAUNCH:
    return launch_value(a, i);
  case SV_F_TRIGGERS: /* the order rarely matters: draws first */
    return s->w[i].zone == SV_Z_FACILITY && C(i)->facility.n_effects > 0 &&
           C(i)->facility.eff[0].op == SV_OP_DRAW_MINION;
  case SV_F_COMPLETE:
  case SV_F_SHOOT:
    break;
  }
  return 0;
}

int sv_ai_choose(const void *st, const eng_prompt *p, eng_rng *rng) {
  const sv_state *s = st;
  if (p->n <= 1 || p->player < 0 || !sv_cards())
    return 0;
  ai a;
  ai_init(&a, s, p->player);
  int sc[ENG_OPTIONS_MAX];
  for (int k = 0; k < p->n; k++)
    sc[k] = score(&a, p->code[k]);

  /* The shooting reserve: an option that would leave too few cards to
   * shoot down the most worthwhile incoming Asteroid pays for it. */
  if (s->sp == 0 && s->phase == SV_PH_DAY) {
    int shoot = 0, need = 0;
    for (int k = 0; k < p->n; k++)
      if (OPT_TYPE(p->code[k]) == OPT_SHOOT && sc[k] > shoot) {
        shoot = sc[k];
        need = s->w[OPT_A(p->code[k])].charged ? 3 : 2;
      }
    for (int k = 0; shoot > 0 && k < p->n; k++) {
      int spent = cards_spent(&a, p->code[k]);
      if (spent > 0 && a.n_hand - spent < need && sc[k] < WIN)
        sc[k] -= shoot;
    }
  }

  int best = 0, ties = 1;
  for (int k = 1; k < p->n; k++) {
    if (sc[k] > sc[best]) {
      best = k;
      ties = 1;
    } else if (sc[k] == sc[best]) {
      ties++;
    }
  }
  if (ties == 1)
    return best;
  int pick = (int)eng_rng_below(rng, (uint32_t)ties);
  for (int k = 0; k < p->n; k++)
    if (sc[k] == sc[best] && pick-- == 0)
      return k;
  return best;
}

/* The ruleset's ai_why hook (eng.h): why option i is the AI's pick, in
 * words from the option's kind and its score, which reads only what the
 * seat may see (see the top of this file). Names no card. */
void sv_ai_why(const void *st, const eng_prompt *p, int i, char *buf,
               size_t cap) {
  const sv_state *s = st;
  if (cap == 0 || i < 0 || i >= p->n || p->player < 0 || !sv_cards())
    return;
  ai a;
  ai_init(&a, s, p->player);
  uint32_t code = p->code[i];
  int v = score(&a, code);
  const char *what;
  if (v >= WIN)
    what = "it wins the game now";
  else if (s->sp > 0) {
    switch ((sv_frame_kind)s->stack[s->sp - 1].kind) {
    case SV_F_DISCARD:
      what = "it is the card least worth keeping";
      break;
    case SV_F_HIT:
      what = "the Asteroid does most harm there";
      break;
    case SV_F_PLACE:
      what = "that Project gains most from the Mob";
      break;
    case SV_F_LAUNCH:
      what = "the Asteroid hurts the leader most there";
      break;
    case SV_F_EFFECT:
    case SV_F_TRIGGERS:
    case SV_F_COMPLETE:
    case SV_F_SHOOT:
    default:
      what = v > 0 ? "it helps you or hurts the leader most"
                   : "it costs you least";
      break;
    }
  } else {
    switch (OPT_TYPE(code)) {
    case OPT_PROJECT:
      what = "the card is worth more as a Project than as an Asteroid";
      break;
    case OPT_LAUNCH:
      if (a.leader == OPT_A(code)) {
        snprintf(buf, cap, "it attacks the leader, Villain %d",
                 OPT_A(code) + 1);
        return;
      }
      what = "it does most harm there";
      break;
    case OPT_MOB:
      what = "its Minion Power brings a Project nearest to completion";
      break;
    case OPT_OPS:
      what = "its Minion Ops do more now than a Mob would";
      break;
    case OPT_SHOOT:
      what = "the Asteroid would destroy more than the shot costs";
      break;
    case OPT_USE:
      what = "the ability is worth more than the cards it costs";
      break;
    case OPT_CHARGE:
      what = "a charged Asteroid hits harder";
      break;
    case OPT_END:
      what = "nothing else left scores above zero this Day";
      break;
    default:
      what = "it scores best of your options by the AI's count";
      break;
    }
  }
  snprintf(buf, cap, "%s", what);
}
