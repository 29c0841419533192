/*
 * sv.c: the rules of Supervillain: This Galaxy Is Mine!
 *
 * The turn (Morning Acts I-III, Day, Evening) is a phase machine; every
 * ability and multi-step action is a frame on a small stack. run() does
 * all the automatic work (draws, Asteroid hits, completions, triggered
 * abilities) until somebody has to decide something; prompt() turns that
 * decision into options; apply() performs the chosen one and runs on.
 * Decisions inside an effect that leave exactly one choice are taken
 * automatically, so players are only asked real questions.
 *
 * The rulebook is shared/rules/000_4b034f0415a08eba.txt; where it leaves
 * something open, docs/rules/supervillain.md records Lair's decision.
 */
#include "sv.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* How a Mob reaches a Project (SV_F_PLACE's b). */
enum { PLACE_PLAY, PLACE_HAND, PLACE_DISCARD, PLACE_STEAL };

#define MIN_LO 0
#define DOM_LO SV_N_MINION

#define C(i) sv_card_of(i)

/* ---- zone sets ------------------------------------------------------
 * A set of instances as two words; walking one gives its instances in
 * ascending order, the order the rules always list cards in. */
typedef struct zset {
  uint64_t m[2];
} zset;

static inline zset zone(const sv_state *s, int z) {
  zset r = {{s->zbits[z][0], s->zbits[z][1]}};
  return r;
}

static inline zset zone2(const sv_state *s, int a, int b) {
  zset r = {{s->zbits[a][0] | s->zbits[b][0], s->zbits[a][1] | s->zbits[b][1]}};
  return r;
}

/* The next instance of x (removed from it), or -1 when x is empty. */
static inline int next(zset *x) {
  for (int h = 0; h < 2; h++)
    if (x->m[h]) {
      int i = __builtin_ctzll(x->m[h]);
      x->m[h] &= x->m[h] - 1;
      return h * 64 + i;
    }
  return -1;
}

void sv_zbits_rebuild(sv_state *s) {
  memset(s->zbits, 0, sizeof s->zbits);
  for (int i = 0; i < SV_N; i++)
    if (s->w[i].zone < SV_Z_COUNT)
      s->zbits[s->w[i].zone][i / 64] |= (uint64_t)1 << (i % 64);
}

static int hand_size(const sv_state *s, int p) {
  int n = 0;
  zset h = zone(s, SV_Z_HAND);
  for (int i; (i = next(&h)) >= 0;)
    n += s->w[i].owner == p;
  return n;
}

static bool partners(const sv_state *s, int a, int b) {
  return s->team && a != b && (a % 2) == (b % 2);
}

static bool can_target(const sv_state *s, int from, int to) {
  return to != from && to >= 0 && to < s->players && !partners(s, from, to);
}

int sv_points(const sv_state *s, int seat) {
  int pts = 0;
  for (int i = DOM_LO; i < SV_N; i++)
    if (s->w[i].zone == SV_Z_FACILITY && s->w[i].owner == seat)
      pts += C(i)->points;
  return pts;
}

int sv_team_points(const sv_state *s, int seat) {
  int pts = sv_points(s, seat);
  if (s->team)
    pts += sv_points(s, (seat + 2) % 4);
  return pts;
}

bool sv_win_blocked(const sv_state *s, int seat) {
  bool emitter = false;
  for (int i = DOM_LO; i < SV_N && !emitter; i++)
    emitter = s->w[i].zone == SV_Z_FACILITY &&
              C(i)->facility.kind == SV_KIND_WIN_BLOCK;
  if (!emitter)
    return false;
  for (int i = DOM_LO; i < SV_N; i++)
    if (s->w[i].zone == SV_Z_ASTEROID && s->w[i].charged &&
        (s->w[i].target == seat || partners(s, s->w[i].target, seat)))
      return true;
  return false;
}

/* ---- moving cards -------------------------------------------------- */

static void put(sv_state *s, int i, int to, int owner) {
  /* Victory can only change when a Facility or an Asteroid comes or goes
   * (points, Bad Luck Emitter's block): only then is it checked again. */
  int old = s->w[i].zone;
  if (old == SV_Z_FACILITY || old == SV_Z_ASTEROID || to == SV_Z_FACILITY ||
      to == SV_Z_ASTEROID)
    s->recheck = 1;
  sv_where w = {.zone = (uint8_t)to, .owner = (uint8_t)owner};
  s->w[i] = w;
  s->zbits[old][i / 64] &= ~((uint64_t)1 << (i % 64));
  s->zbits[to][i / 64] |= (uint64_t)1 << (i % 64);
}

static void to_mdisc(sv_state *s, int i) {
  put(s, i, SV_Z_MDISC, 0);
  eng_pile_push(&s->mdisc, (uint16_t)i);
}

static void to_ddisc(sv_state *s, int i) {
  put(s, i, SV_Z_DDISC, 0);
  eng_pile_push(&s->ddisc, (uint16_t)i);
}

/* After a reshuffle the former discard pile's cards are deck cards. */
static void rezone(sv_state *s, const eng_pile *deck, int zone) {
  for (int k = 0; k < deck->n; k++)
    put(s, deck->c[k], zone, 0);
}

static void draw_minion(sv_state *s, int p, unsigned *fl) {
  uint16_t c;
  bool resh = false;
  if (eng_pile_draw(&s->mdeck, &s->mdisc, &s->rng, &c, &resh))
    put(s, c, SV_Z_HAND, p);
  if (resh)
    rezone(s, &s->mdeck, SV_Z_MDECK);
  *fl |= ENG_REVEALED; /* even "no card" tells that both piles are empty */
}

static void end_game(sv_state *s, int reason) {
  s->over = 1;
  s->phase = SV_PH_OVER;
  s->reason = (uint8_t)reason;
  s->sp = 0;
  s->winners = 0;
  if (reason == SV_END_EXHAUSTED) {
    int best = -1, who = -1, ties = 0;
    for (int p = 0; p < s->players; p++) {
      int pts = sv_team_points(s, p);
      if (pts > best) {
        best = pts;
        who = p;
        ties = 0;
      } else if (pts == best && !partners(s, p, who)) {
        ties++;
      }
    }
    if (ties == 0)
      s->winners = (uint8_t)(1u << who);
  }
  for (int p = 0; p < s->players; p++)
    if (s->winners & (1u << p) && s->team)
      s->winners |= (uint8_t)(1u << ((p + 2) % 4));
}

/* Draws the top Domination card (reshuffling the discard pile if need
 * be); returns -1 and ends the game when both are empty. */
static int draw_domination(sv_state *s, unsigned *fl) {
  uint16_t c;
  bool resh = false;
  *fl |= ENG_REVEALED;
  if (!eng_pile_draw(&s->ddeck, &s->ddisc, &s->rng, &c, &resh)) {
    end_game(s, SV_END_EXHAUSTED);
    return -1;
  }
  if (resh)
    rezone(s, &s->ddeck, SV_Z_DDECK);
  return c;
}

static void check_victory(sv_state *s) {
  if (s->over || !s->recheck)
    return;
  s->recheck = 0;
  int pts[4] = {0, 0, 0, 0};
  bool any = false;
  zset fac = zone(s, SV_Z_FACILITY);
  for (int i; (i = next(&fac)) >= 0;) {
    pts[s->w[i].owner] += C(i)->points;
    any = true;
  }
  if (!any)
    return;
  for (int k = 0; k < s->players; k++) {
    int p = (s->current + k) % s->players;
    int total = pts[p] + (s->team ? pts[(p + 2) % 4] : 0);
    if (total >= s->target && !sv_win_blocked(s, p)) {
      end_game(s, SV_END_POINTS);
      s->winners = (uint8_t)(1u << p);
      if (s->team)
        s->winners |= (uint8_t)(1u << ((p + 2) % 4));
      return;
    }
  }
}

/* ---- the frame stack ---------------------------------------------- */

static sv_frame *push(sv_state *s, int kind, int player) {
  if (s->sp >= SV_STACK) {
    s->overflow = 1; /* apply() reports it and the core restores the state */
    return NULL;
  }
  sv_frame *f = &s->stack[s->sp++];
  memset(f, 0, sizeof *f);
  f->kind = (uint8_t)kind;
  f->player = (uint8_t)player;
  return f;
}

static void pop(sv_state *s) { s->sp--; }

static sv_frame *top(sv_state *s) { return &s->stack[s->sp - 1]; }

/* Pushes an ability's effects so the first one resolves first. */
static bool push_effects(sv_state *s, const sv_ability *a, int player,
                         int src) {
  for (int k = a->n_effects - 1; k >= 0; k--) {
    sv_frame *f = push(s, SV_F_EFFECT, player);
    if (!f)
      return false;
    f->op = a->eff[k].op;
    f->n = a->eff[k].n;
    f->scope = a->eff[k].scope;
    f->src = (uint8_t)src;
  }
  return true;
}

static void push_discard(sv_state *s, int player, int n) {
  sv_frame *f = push(s, SV_F_DISCARD, player);
  if (f)
    f->n = (uint8_t)n;
}

/* Collects the abilities of seat's cards that trigger on t (for
 * MOB_PUT_HERE only those of Project `here`), to be ordered by
 * controller. */
static void fire(sv_state *s, int t, int seat, int here, int controller) {
  uint8_t list[SV_TRIG_MAX], owner[SV_TRIG_MAX];
  int n = 0;
  /* Only the cards that have such an ability, in instance order. */
  const uint8_t *cand = sv_loaded.whenever[t];
  for (int k = 0; k < sv_loaded.n_whenever[t] && n < SV_TRIG_MAX; k++) {
    int i = cand[k];
    const sv_where *w = &s->w[i];
    if (w->owner != seat)
      continue;
    const sv_ability *a = w->zone == SV_Z_FACILITY  ? &C(i)->facility
                          : w->zone == SV_Z_PROJECT ? &C(i)->project
                                                    : NULL;
    if (!a || a->kind != SV_KIND_WHENEVER || a->trigger != t)
      continue;
    if (t == SV_TRIG_MOB_PUT_HERE && i != here)
      continue;
    list[n] = (uint8_t)i;
    /* Remember the side that triggered: if the card turns over before
     * its turn comes, the ability is gone. */
    owner[n++] = (uint8_t)(seat | (w->zone == SV_Z_FACILITY ? 0x40 : 0));
  }
  if (n == 0)
    return;
  sv_frame *f = push(s, SV_F_TRIGGERS, controller);
  if (!f)
    return;
  f->n_list = (uint8_t)n;
  memcpy(f->list, list, (size_t)n);
  memcpy(f->owner, owner, (size_t)n);
}

static void destroy_mob(sv_state *s, int m, int controller) {
  int owner = s->w[m].owner;
  to_mdisc(s, m);
  fire(s, SV_TRIG_YOUR_MOB_DESTROYED, owner, -1, controller);
}

static void destroy_project(sv_state *s, int p, int controller) {
  zset mobs = zone(s, SV_Z_MOB);
  for (int m; (m = next(&mobs)) >= 0;)
    if (s->w[m].zone == SV_Z_MOB && s->w[m].host == p)
      destroy_mob(s, m, controller);
  to_ddisc(s, p);
}

static void destroy_facility(sv_state *s, int f, int controller) {
  int owner = s->w[f].owner;
  to_ddisc(s, f);
  if (C(f)->facility.kind == SV_KIND_IF_DESTROYED) {
    sv_frame *t = push(s, SV_F_TRIGGERS, controller);
    if (t) {
      t->n_list = 1;
      t->list[0] = (uint8_t)f;
      t->owner[0] = (uint8_t)(owner | 0x80);
    }
  }
}

static int mob_power(const sv_state *s, int p) {
  int sum = 0;
  zset mobs = zone(s, SV_Z_MOB);
  for (int m; (m = next(&mobs)) >= 0;)
    if (s->w[m].host == p)
      sum += C(m)->power;
  return sum;
}

/* A Project completes the moment its Mobs' power reaches its cost. */
static void check_complete(sv_state *s, int p) {
  if (s->w[p].zone != SV_Z_PROJECT || mob_power(s, p) < C(p)->cost)
    return;
  sv_frame *f = push(s, SV_F_COMPLETE, s->w[p].owner);
  if (f)
    f->a = (uint8_t)p;
}

static void place_mob(sv_state *s, int card, int project, int how) {
  int player = s->w[project].owner;
  uint8_t proof = how == PLACE_STEAL ? s->w[card].proof : C(card)->proof;
  if (how == PLACE_DISCARD)
    eng_pile_remove(&s->mdisc, (uint16_t)card);
  if (how == PLACE_PLAY && !C(card)->boosted && s->mobs_left > 0)
    s->mobs_left--;
  put(s, card, SV_Z_MOB, player);
  s->w[card].host = (uint8_t)project;
  s->w[card].proof = proof;
  if (mob_power(s, project) >= C(project)->cost)
    check_complete(s, project);
  else
    fire(s, SV_TRIG_MOB_PUT_HERE, player, project, player);
}

/* ---- choices ------------------------------------------------------- */

static void add(eng_prompt *p, uint32_t code) {
  if (p->n < ENG_OPTIONS_MAX)
    p->code[p->n++] = code;
}

/* Adds one option per distinct card in seat's hand. */
static void add_hand(const sv_state *s, eng_prompt *p, int seat, int type) {
  uint8_t seen[SV_N] = {0};
  zset h = zone(s, SV_Z_HAND);
  for (int i; (i = next(&h)) >= 0;) {
    if (s->w[i].owner != seat)
      continue;
    int card = sv_card_index(i);
    if (!seen[card]++)
      add(p, CODE(type, i));
  }
}

/* Adds one option per distinct card in a discard pile. */
static void add_pile(const eng_pile *pile, eng_prompt *p) {
  uint8_t seen[SV_N] = {0};
  for (int k = 0; k < pile->n; k++)
    if (!seen[sv_card_index(pile->c[k])]++)
      add(p, CODE(OPT_PICK, pile->c[k]));
}

static bool has(const sv_state *s, int z, int owner) {
  zset in = zone(s, z);
  for (int i; (i = next(&in)) >= 0;)
    if (s->w[i].owner == owner)
      return true;
  return false;
}

/* The options of an effect frame's decision (none: nothing to decide). */
static void effect_options(const sv_state *s, const sv_frame *f,
                           eng_prompt *p) {
  int me = f->player;
  switch ((sv_op)f->op) {
  case SV_OP_DESTROY_OWN_PROJECT:
    for (int i = DOM_LO; i < SV_N; i++)
      if (s->w[i].zone == SV_Z_PROJECT && s->w[i].owner == me)
        add(p, CODE(OPT_PICK, i));
    break;
  case SV_OP_TAKE_DISCARD_PROJECT:
    add_pile(&s->ddisc, p);
    break;
  case SV_OP_TAKE_DISCARD_MINION:
    if (f->n > 0)
      add_pile(&s->mdisc, p);
    break;
  case SV_OP_PUT_MOB_FROM_HAND:
    if (f->n > 0 && has(s, SV_Z_PROJECT, me) && has(s, SV_Z_HAND, me)) {
      add_hand(s, p, me, OPT_PICK);
      add(p, CODE(OPT_STOP, 0));
    }
    break;
  case SV_OP_PUT_MOB_FROM_DISCARD:
    if (has(s, SV_Z_PROJECT, me))
      add_pile(&s->mdisc, p);
    break;
  case SV_OP_STEAL_MOB:
  case SV_OP_DESTROY_MOB:
    if (f->op == SV_OP_STEAL_MOB && !has(s, SV_Z_PROJECT, me))
      break;
    for (int i = MIN_LO; i < DOM_LO; i++)
      if (s->w[i].zone == SV_Z_MOB && s->w[i].owner != me)
        add(p, CODE(OPT_PICK, i));
    break;
  case SV_OP_SWAP_MOBS:
    for (int i = MIN_LO; i < DOM_LO; i++) {
      if (s->w[i].zone != SV_Z_MOB)
        continue;
      if (f->step == 1) {
        if (s->w[i].host != s->w[f->a].host)
          add(p, CODE(OPT_PICK, i));
        continue;
      }
      bool other = false; /* a Mob on a different Project to swap with */
      for (int j = MIN_LO; j < DOM_LO && !other; j++)
        other = s->w[j].zone == SV_Z_MOB && s->w[j].host != s->w[i].host;
      if (other)
        add(p, CODE(OPT_PICK, i));
    }
    break;
  case SV_OP_DESTROY_PROJECT:
    for (int i = DOM_LO; i < SV_N; i++)
      if (s->w[i].zone == SV_Z_PROJECT && s->w[i].owner != me &&
          mob_power(s, i) == 0)
        add(p, CODE(OPT_PICK, i));
    break;
  case SV_OP_DESTROY_FACILITY:
  case SV_OP_REVERT_FACILITY:
    for (int i = DOM_LO; i < SV_N; i++)
      if (s->w[i].zone == SV_Z_FACILITY && s->w[i].owner != me)
        add(p, CODE(OPT_PICK, i));
    break;
  case SV_OP_CHARGE_ASTEROID:
    for (int i = DOM_LO; i < SV_N; i++)
      if (s->w[i].zone == SV_Z_ASTEROID && !s->w[i].charged &&
          (f->scope == SV_SCOPE_ANY || s->w[i].owner == me))
        add(p, CODE(OPT_PICK, i));
    break;
  case SV_OP_SHOOT_DOWN:
  case SV_OP_RETARGET:
    if (f->op == SV_OP_RETARGET && f->step == 1) {
      for (int t = 0; t < s->players; t++)
        if (can_target(s, me, t))
          add(p, CODE(OPT_SEAT, t));
      break;
    }
    for (int i = DOM_LO; i < SV_N; i++)
      if (s->w[i].zone == SV_Z_ASTEROID && s->w[i].owner != me &&
          (f->op == SV_OP_RETARGET || f->scope == SV_SCOPE_ANY ||
           s->w[i].target == me))
        add(p, CODE(OPT_PICK, i));
    break;
  case SV_OP_ADD_PROOF:
    if (f->scope != SV_SCOPE_FACILITY)
      for (int i = MIN_LO; i < DOM_LO; i++)
        if (s->w[i].zone == SV_Z_MOB && s->w[i].owner == me && !s->w[i].proof)
          add(p, CODE(OPT_PICK, i));
    if (f->scope != SV_SCOPE_DEFAULT)
      for (int i = DOM_LO; i < SV_N; i++)
        if (s->w[i].zone == SV_Z_FACILITY && s->w[i].owner == me &&
            !s->w[i].proof)
          add(p, CODE(OPT_PICK, i));
    break;
  case SV_OP_REMOVE_PROOF:
    for (int i = 0; i < SV_N; i++)
      if ((s->w[i].zone == SV_Z_MOB || s->w[i].zone == SV_Z_FACILITY) &&
          s->w[i].owner != me && s->w[i].proof)
        add(p, CODE(OPT_PICK, i));
    break;
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
}

/* Legal targets of an Asteroid hitting `target`. */
static void hit_options(const sv_state *s, int ast, eng_prompt *p) {
  int target = s->w[ast].target;
  bool charged = s->w[ast].charged;
  zset mobs = zone(s, SV_Z_MOB);
  for (int i; (i = next(&mobs)) >= 0;)
    if (s->w[i].owner == target)
      add(p, CODE(OPT_PICK, i));
  if (!charged)
    return;
  zset table = zone2(s, SV_Z_PROJECT, SV_Z_FACILITY);
  for (int i; (i = next(&table)) >= 0;)
    if (s->w[i].owner == target &&
        ((s->w[i].zone == SV_Z_PROJECT && mob_power(s, i) == 0) ||
         s->w[i].zone == SV_Z_FACILITY))
      add(p, CODE(OPT_PICK, i));
}

static bool usable(const sv_state *s, int i, int me, int hand) {
  const sv_where *w = &s->w[i];
  if (w->owner != me)
    return false;
  const sv_ability *a = w->zone == SV_Z_PROJECT    ? &C(i)->project
                        : w->zone == SV_Z_FACILITY ? &C(i)->facility
                                                   : NULL;
  if (!a)
    return false;
  if (a->kind == SV_KIND_ONCE_PER_TURN && w->used)
    return false;
  if (a->kind != SV_KIND_ONCE_PER_TURN && a->kind != SV_KIND_DESTROY_THIS)
    return false;
  return hand >= a->cost;
}

static void day_options(const sv_state *s, eng_prompt *p) {
  int me = s->current;
  int hand = 0; /* counted on the way: the Domination cards need it */
  bool projects = has(s, SV_Z_PROJECT, me);
  uint8_t seen[SV_N] = {0};
  zset h = zone(s, SV_Z_HAND);
  for (int i; (i = next(&h)) >= 0;) {
    if (s->w[i].owner != me)
      continue;
    hand++;
    if (seen[sv_card_index(i)]++)
      continue;
    if (projects && (s->mobs_left > 0 || C(i)->boosted))
      add(p, CODE(OPT_MOB, i));
    if (s->ops_left > 0 || C(i)->swift)
      add(p, CODE(OPT_OPS, i));
  }
  zset table = zone2(s, SV_Z_ASTEROID, SV_Z_PROJECT);
  zset fac = zone(s, SV_Z_FACILITY);
  table.m[0] |= fac.m[0];
  table.m[1] |= fac.m[1];
  for (int i; (i = next(&table)) >= 0;) {
    const sv_where *w = &s->w[i];
    if (w->zone == SV_Z_ASTEROID) {
      if (w->target == me && w->owner != me && hand >= (w->charged ? 3 : 2))
        add(p, CODE(OPT_SHOOT, i));
      if (s->annihilation && w->owner == me && !w->charged && hand >= 3)
        add(p, CODE(OPT_CHARGE, i));
    } else if (w->zone == SV_Z_PROJECT || w->zone == SV_Z_FACILITY) {
      if (usable(s, i, me, hand))
        add(p, CODE(OPT_USE, i));
    }
  }
  add(p, CODE(OPT_END, 0));
}

/* Fills p with the options of the decision now pending. Returns true for
 * a decision inside a frame (taken automatically when it has one
 * option), false for a phase decision or none. */
static bool options(const sv_state *s, eng_prompt *p) {
  p->n = 0;
  p->turn = s->turn;
  p->player = -1;
  if (s->over)
    return false;
  if (s->sp == 0) {
    p->player = s->current;
    if (s->phase == SV_PH_ACT3) {
      add(p, CODE(OPT_PROJECT, 0));
      for (int t = 0; t < s->players; t++)
        if (can_target(s, s->current, t))
          add(p, CODE(OPT_LAUNCH, t));
    } else if (s->phase == SV_PH_DAY) {
      day_options(s, p);
    }
    if (p->n == 0)
      p->player = -1;
    return false;
  }
  const sv_frame *f = &s->stack[s->sp - 1];
  p->player = f->player;
  switch ((sv_frame_kind)f->kind) {
  case SV_F_EFFECT:
    effect_options(s, f, p);
    break;
  case SV_F_DISCARD:
    if (f->n > 0)
      add_hand(s, p, f->player, OPT_PICK);
    break;
  case SV_F_PLACE:
    for (int i = DOM_LO; i < SV_N; i++)
      if (s->w[i].zone == SV_Z_PROJECT && s->w[i].owner == f->player)
        add(p, CODE(OPT_PICK, i));
    break;
  case SV_F_HIT:
    if (f->step == 1)
      hit_options(s, f->a, p);
    break;
  case SV_F_TRIGGERS:
    if (f->n_list > 1)
      for (int k = 0; k < f->n_list; k++)
        add(p, CODE(OPT_PICK, f->list[k]));
    break;
  case SV_F_LAUNCH:
    for (int t = 0; t < s->players; t++)
      if (can_target(s, f->player, t))
        add(p, CODE(OPT_SEAT, t));
    break;
  case SV_F_COMPLETE:
  case SV_F_SHOOT:
    break;
  }
  if (p->n == 0)
    p->player = -1;
  return true;
}

/* ---- automatic work ------------------------------------------------ */

/* Resolves trigger k of a TRIGGERS frame. */
static void resolve_trigger(sv_state *s, sv_frame *f, int k) {
  int src = f->list[k];
  int owner = f->owner[k] & 0x3f;
  bool if_destroyed = f->owner[k] & 0x80;
  int side = f->owner[k] & 0x40 ? SV_Z_FACILITY : SV_Z_PROJECT;
  f->n_list--;
  memmove(&f->list[k], &f->list[k + 1], (size_t)(f->n_list - k));
  memmove(&f->owner[k], &f->owner[k + 1], (size_t)(f->n_list - k));
  const sv_where *w = &s->w[src];
  const sv_ability *a = NULL;
  if (if_destroyed)
    a = &C(src)->facility;
  else if (w->zone == side && w->owner == owner)
    a = side == SV_Z_FACILITY ? &C(src)->facility : &C(src)->project;
  if (a && (if_destroyed || a->kind == SV_KIND_WHENEVER))
    push_effects(s, a, owner, src); /* gone or changed: it fizzles */
}

/* Does the automatic part of an effect frame. Returns false when the
 * frame waits for a decision. */
static bool effect_auto(sv_state *s, unsigned *fl) {
  sv_frame *f = top(s);
  int me = f->player;
  switch ((sv_op)f->op) {
  case SV_OP_DRAW_MINION: {
    int n = f->n;
    pop(s);
    for (int k = 0; k < n; k++)
      draw_minion(s, me, fl);
    return true;
  }
  case SV_OP_DISCARD_MINION: {
    int n = f->n;
    pop(s);
    push_discard(s, me, n);
    return true;
  }
  case SV_OP_EACH_OTHER_DISCARDS: {
    int n = f->n;
    pop(s);
    for (int k = s->players - 1; k >= 1; k--)
      push_discard(s, (me + k) % s->players, n);
    return true;
  }
  case SV_OP_LAUNCH_ASTEROID: {
    if (f->n == 0) {
      pop(s);
      return true;
    }
    f->n--;
    int c = draw_domination(s, fl);
    if (c < 0)
      return true;
    put(s, c, SV_Z_LIMBO, me);
    sv_frame *l = push(s, SV_F_LAUNCH, me);
    if (l)
      l->a = (uint8_t)c;
    return true;
  }
  case SV_OP_DRAW_PROJECT: {
    int n = f->n;
    pop(s);
    for (int k = 0; k < n; k++) {
      int c = draw_domination(s, fl);
      if (c < 0)
        return true;
      put(s, c, SV_Z_PROJECT, me);
    }
    return true;
  }
  case SV_OP_DESTROY_ALL_MOBS: {
    pop(s);
    for (int k = 1; k < s->players; k++) {
      int victim = (me + k) % s->players;
      for (int m = MIN_LO; m < DOM_LO; m++)
        if (s->w[m].zone == SV_Z_MOB && s->w[m].owner == victim)
          destroy_mob(s, m, me);
    }
    return true;
  }
  case SV_OP_EXTRA_MOB:
    s->mobs_left = (uint8_t)(s->mobs_left + f->n);
    pop(s);
    return true;
  case SV_OP_EXTRA_OPS:
    s->ops_left = (uint8_t)(s->ops_left + f->n);
    pop(s);
    return true;
  case SV_OP_DESTROY_OWN_PROJECT:
  case SV_OP_TAKE_DISCARD_PROJECT:
  case SV_OP_TAKE_DISCARD_MINION:
  case SV_OP_PUT_MOB_FROM_HAND:
  case SV_OP_PUT_MOB_FROM_DISCARD:
  case SV_OP_STEAL_MOB:
  case SV_OP_SWAP_MOBS:
  case SV_OP_DESTROY_MOB:
  case SV_OP_DESTROY_PROJECT:
  case SV_OP_DESTROY_FACILITY:
  case SV_OP_CHARGE_ASTEROID:
  case SV_OP_SHOOT_DOWN:
  case SV_OP_RETARGET:
  case SV_OP_ADD_PROOF:
  case SV_OP_REMOVE_PROOF:
  case SV_OP_REVERT_FACILITY:
  case SV_OP_COUNT:
    break;
  }
  eng_prompt p;
  p.n = 0;
  effect_options(s, f, &p);
  if (p.n == 0) { /* nothing to choose from: the effect does nothing */
    pop(s);
    return true;
  }
  return false;
}

/* Advances the top frame; false when it waits for a decision. */
static bool frame_auto(sv_state *s, unsigned *fl) {
  sv_frame *f = top(s);
  switch ((sv_frame_kind)f->kind) {
  case SV_F_EFFECT:
    return effect_auto(s, fl);
  case SV_F_DISCARD:
    if (f->n == 0 || hand_size(s, f->player) == 0) {
      pop(s);
      return true;
    }
    return false;
  case SV_F_PLACE:
    if (!has(s, SV_Z_PROJECT, f->player)) {
      pop(s);
      return true;
    }
    return false;
  case SV_F_HIT: {
    int ast = f->a;
    if (f->step == 0) { /* 1. the owner draws a Minion card, hit or miss */
      f->step = 1;
      draw_minion(s, f->player, fl);
      return true;
    }
    if (f->step == 1) { /* 2. destroy something, if possible */
      eng_prompt p;
      p.n = 0;
      if (s->w[ast].zone == SV_Z_ASTEROID)
        hit_options(s, ast, &p);
      if (p.n > 0)
        return false;
      f->step = 2;
      return true;
    }
    if (f->step == 2) { /* the target's "an Asteroid hits you" abilities */
      f->step = 3;
      if (s->w[ast].zone == SV_Z_ASTEROID)
        fire(s, SV_TRIG_ASTEROID_HITS_YOU, s->w[ast].target, -1, f->player);
      return true;
    }
    pop(s); /* 4. the Asteroid goes to the discard pile */
    if (s->w[ast].zone == SV_Z_ASTEROID)
      to_ddisc(s, ast);
    return true;
  }
  case SV_F_COMPLETE: {
    int pr = f->a, owner = f->player;
    if (f->step == 0) {
      /* Discard the Mobs (discarded, not destroyed), then "When complete"
       * while the card is still a Project. */
      f->step = 1;
      for (int m = MIN_LO; m < DOM_LO; m++)
        if (s->w[m].zone == SV_Z_MOB && s->w[m].host == pr)
          to_mdisc(s, m);
      if (s->w[pr].zone == SV_Z_PROJECT &&
          C(pr)->project.kind == SV_KIND_WHEN_COMPLETE)
        push_effects(s, &C(pr)->project, owner, pr);
      return true;
    }
    pop(s);
    if (s->w[pr].zone != SV_Z_PROJECT || s->w[pr].owner != owner)
      return true;
    put(s, pr, SV_Z_FACILITY, owner); /* rotate: now a Secret Facility */
    for (int k = s->players - 1; k >= 1; k--) {
      int other = (owner + k) % s->players;
      fire(s, SV_TRIG_OTHER_COMPLETES_PROJECT, other, -1, other);
    }
    fire(s, SV_TRIG_YOU_COMPLETE_PROJECT, owner, -1, owner);
    return true;
  }
  case SV_F_SHOOT: {
    int ast = f->a, me = f->player;
    if (f->step == 0) {
      f->step = 1;
      push_discard(s, me, s->w[ast].charged ? 3 : 2);
      return true;
    }
    pop(s);
    if (s->w[ast].zone == SV_Z_ASTEROID) {
      to_ddisc(s, ast);
      fire(s, SV_TRIG_YOU_SHOOT_DOWN, me, -1, me);
    }
    return true;
  }
  case SV_F_TRIGGERS:
    if (f->n_list == 0) {
      pop(s);
      return true;
    }
    if (f->n_list == 1) {
      resolve_trigger(s, f, 0);
      return true;
    }
    return false;
  case SV_F_LAUNCH:
    return false;
  }
  return true;
}

/* Advances the phase machine; false when the current player decides. */
static bool phase_auto(sv_state *s, unsigned *fl) {
  int me = s->current;
  switch ((sv_phase)s->phase) {
  case SV_PH_START:
    for (int i = DOM_LO; i < SV_N; i++)
      if (s->w[i].zone == SV_Z_ASTEROID && s->w[i].owner == me)
        s->w[i].due = 1;
    s->phase = SV_PH_ASTEROIDS;
    fire(s, SV_TRIG_TURN_START, me, -1, me);
    return true;
  case SV_PH_ASTEROIDS:
    for (int i = DOM_LO; i < SV_N; i++)
      if (s->w[i].zone == SV_Z_ASTEROID && s->w[i].owner == me && s->w[i].due) {
        s->w[i].due = 0;
        sv_frame *f = push(s, SV_F_HIT, me);
        if (f)
          f->a = (uint8_t)i;
        return true;
      }
    s->phase = SV_PH_ACT2;
    return true;
  case SV_PH_ACT2:
    draw_minion(s, me, fl);
    s->phase = SV_PH_ACT3;
    return true;
  case SV_PH_ACT3:
    for (int i = DOM_LO; i < SV_N; i++)
      if (s->w[i].zone == SV_Z_LIMBO)
        return false;
    {
      int c = draw_domination(s, fl);
      if (c >= 0)
        put(s, c, SV_Z_LIMBO, me);
    }
    return true;
  case SV_PH_DAY:
    return false;
  case SV_PH_EVENING: {
    int extra = hand_size(s, me) - SV_HAND_LIMIT;
    if (extra > 0) {
      push_discard(s, me, extra);
      return true;
    }
    for (int i = 0; i < SV_N; i++)
      s->w[i].used = 0;
    s->current = (uint8_t)((me + 1) % s->players);
    s->turn++;
    s->mobs_left = s->ops_left = 1;
    s->phase = SV_PH_START;
    return true;
  }
  case SV_PH_OVER:
    return false;
  }
  return false;
}

static void do_answer(sv_state *s, uint32_t code, unsigned *fl);

/* Runs automatic work until a decision is needed or the game ends. */
static void run(sv_state *s, unsigned *fl) {
  for (int guard = 0; guard < 100000; guard++) {
    check_victory(s);
    if (s->over)
      return;
    if (s->sp > 0) {
      if (frame_auto(s, fl))
        continue;
      eng_prompt p;
      options(s, &p);
      if (p.n == 1) {
        do_answer(s, p.code[0], fl);
        continue;
      }
      return;
    }
    if (!phase_auto(s, fl))
      return;
  }
}

/* ---- answers -------------------------------------------------------- */

static void effect_answer(sv_state *s, sv_frame *f, uint32_t code) {
  int me = f->player, a = OPT_A(code);
  switch ((sv_op)f->op) {
  case SV_OP_DESTROY_OWN_PROJECT:
    pop(s);
    destroy_project(s, a, me);
    return;
  case SV_OP_TAKE_DISCARD_PROJECT:
    pop(s);
    eng_pile_remove(&s->ddisc, (uint16_t)a);
    put(s, a, SV_Z_PROJECT, me);
    return;
  case SV_OP_TAKE_DISCARD_MINION:
    f->n--;
    eng_pile_remove(&s->mdisc, (uint16_t)a);
    put(s, a, SV_Z_HAND, me);
    return;
  case SV_OP_PUT_MOB_FROM_HAND: {
    if (OPT_TYPE(code) == OPT_STOP) {
      pop(s);
      return;
    }
    f->n--;
    sv_frame *pl = push(s, SV_F_PLACE, me);
    if (pl) {
      pl->a = (uint8_t)a;
      pl->b = PLACE_HAND;
    }
    return;
  }
  case SV_OP_PUT_MOB_FROM_DISCARD:
  case SV_OP_STEAL_MOB: {
    int how = f->op == SV_OP_STEAL_MOB ? PLACE_STEAL : PLACE_DISCARD;
    pop(s);
    sv_frame *pl = push(s, SV_F_PLACE, me);
    if (pl) {
      pl->a = (uint8_t)a;
      pl->b = (uint8_t)how;
    }
    return;
  }
  case SV_OP_SWAP_MOBS:
    if (f->step == 0) {
      f->step = 1;
      f->a = (uint8_t)a;
      return;
    } else {
      int m1 = f->a, m2 = a;
      pop(s);
      sv_where w1 = s->w[m1], w2 = s->w[m2];
      /* Each Mob takes the other's place and keeps its own token. */
      s->w[m1].host = w2.host;
      s->w[m1].owner = w2.owner;
      s->w[m2].host = w1.host;
      s->w[m2].owner = w1.owner;
      check_complete(s, w1.host);
      check_complete(s, w2.host);
      return;
    }
  case SV_OP_DESTROY_MOB:
    pop(s);
    destroy_mob(s, a, me);
    return;
  case SV_OP_DESTROY_PROJECT:
    pop(s);
    destroy_project(s, a, me);
    return;
  case SV_OP_DESTROY_FACILITY:
    pop(s);
    if (s->w[a].proof)
      s->w[a].proof = 0; /* the token is discarded instead */
    else
      destroy_facility(s, a, me);
    return;
  case SV_OP_REVERT_FACILITY: {
    pop(s);
    int owner = s->w[a].owner;
    put(s, a, SV_Z_PROJECT, owner); /* token discarded, ability switches */
    return;
  }
  case SV_OP_CHARGE_ASTEROID:
    pop(s);
    s->w[a].charged = 1;
    s->recheck = 1;
    return;
  case SV_OP_SHOOT_DOWN:
    pop(s);
    to_ddisc(s, a);
    fire(s, SV_TRIG_YOU_SHOOT_DOWN, me, -1, me);
    return;
  case SV_OP_RETARGET:
    if (f->step == 0) {
      f->step = 1;
      f->a = (uint8_t)a;
    } else {
      int ast = f->a;
      pop(s);
      s->w[ast].owner = (uint8_t)me;
      s->w[ast].target = (uint8_t)a;
      s->w[ast].due = 0;
      s->recheck = 1;
    }
    return;
  case SV_OP_ADD_PROOF:
    pop(s);
    s->w[a].proof = 1;
    return;
  case SV_OP_REMOVE_PROOF:
    pop(s);
    s->w[a].proof = 0;
    return;
  case SV_OP_DRAW_MINION:
  case SV_OP_DISCARD_MINION:
  case SV_OP_EACH_OTHER_DISCARDS:
  case SV_OP_LAUNCH_ASTEROID:
  case SV_OP_DRAW_PROJECT:
  case SV_OP_DESTROY_ALL_MOBS:
  case SV_OP_EXTRA_MOB:
  case SV_OP_EXTRA_OPS:
  case SV_OP_COUNT:
    return;
  }
}

static void frame_answer(sv_state *s, uint32_t code) {
  sv_frame *f = top(s);
  int a = OPT_A(code);
  switch ((sv_frame_kind)f->kind) {
  case SV_F_EFFECT:
    effect_answer(s, f, code);
    return;
  case SV_F_DISCARD:
    f->n--;
    to_mdisc(s, a);
    return;
  case SV_F_PLACE: {
    int card = f->a, how = f->b;
    pop(s);
    place_mob(s, card, a, how);
    return;
  }
  case SV_F_HIT: {
    int me = f->player;
    f->step = 2;
    if (s->w[a].zone == SV_Z_MOB) {
      if (s->w[a].proof && !s->w[f->a].charged)
        s->w[a].proof = 0; /* the token absorbs an uncharged hit */
      else
        destroy_mob(s, a, me);
    } else if (s->w[a].zone == SV_Z_PROJECT) {
      destroy_project(s, a, me);
    } else if (s->w[a].proof) {
      s->w[a].proof = 0; /* a Facility's token absorbs a charged hit */
    } else {
      destroy_facility(s, a, me);
    }
    return;
  }
  case SV_F_TRIGGERS:
    for (int k = 0; k < f->n_list; k++)
      if (f->list[k] == a) {
        resolve_trigger(s, f, k);
        return;
      }
    return;
  case SV_F_LAUNCH: {
    int c = f->a, me = f->player;
    pop(s);
    put(s, c, SV_Z_ASTEROID, me);
    s->w[c].target = (uint8_t)a;
    return;
  }
  case SV_F_COMPLETE:
  case SV_F_SHOOT:
    return;
  }
}

static void use_ability(sv_state *s, int i) {
  int me = s->current;
  bool facility = s->w[i].zone == SV_Z_FACILITY;
  const sv_ability *a = facility ? &C(i)->facility : &C(i)->project;
  if (a->kind == SV_KIND_ONCE_PER_TURN) {
    s->w[i].used = 1;
    push_effects(s, a, me, i);
  } else { /* "Destroy this": the card goes first, then its ability */
    push_effects(s, a, me, i);
    if (facility)
      to_ddisc(s, i); /* your own choice: "If destroyed" does not apply */
    else
      destroy_project(s, i, me);
  }
  if (a->cost)
    push_discard(s, me, a->cost);
}

static void do_answer(sv_state *s, uint32_t code, unsigned *fl) {
  (void)fl;
  int a = OPT_A(code);
  if (s->sp > 0) {
    frame_answer(s, code);
    return;
  }
  int me = s->current;
  switch (OPT_TYPE(code)) {
  case OPT_PROJECT:
  case OPT_LAUNCH:
    for (int i = DOM_LO; i < SV_N; i++)
      if (s->w[i].zone == SV_Z_LIMBO) {
        if (OPT_TYPE(code) == OPT_PROJECT) {
          put(s, i, SV_Z_PROJECT, me);
        } else {
          put(s, i, SV_Z_ASTEROID, me);
          s->w[i].target = (uint8_t)a;
        }
      }
    s->phase = SV_PH_DAY;
    return;
  case OPT_MOB: {
    sv_frame *f = push(s, SV_F_PLACE, me);
    if (f) {
      f->a = (uint8_t)a;
      f->b = PLACE_PLAY;
    }
    return;
  }
  case OPT_OPS:
    if (!C(a)->swift && s->ops_left > 0)
      s->ops_left--;
    to_mdisc(s, a);
    push_effects(s, &C(a)->ops, me, a);
    return;
  case OPT_SHOOT: {
    sv_frame *f = push(s, SV_F_SHOOT, me);
    if (f)
      f->a = (uint8_t)a;
    return;
  }
  case OPT_USE:
    use_ability(s, a);
    return;
  case OPT_CHARGE:
    s->w[a].charged = 1;
    s->recheck = 1;
    push_discard(s, me, 3);
    return;
  case OPT_END:
    s->phase = SV_PH_EVENING;
    return;
  default:
    return;
  }
}

/* ---- the ruleset interface ----------------------------------------- */

static eng_rc parse_mode(sv_state *s, const char *mode, int players) {
  s->target = 5;
  if (!mode[0] || strcmp(mode, "standard") == 0)
    return ENG_OK;
  char buf[64];
  snprintf(buf, sizeof buf, "%s", mode);
  int targets = 0;
  char *save = NULL;
  for (char *tok = strtok_r(buf, "+", &save); tok;
       tok = strtok_r(NULL, "+", &save)) {
    if (strcmp(tok, "blitz") == 0) {
      s->target = 4;
      targets++;
    } else if (strcmp(tok, "slow") == 0) {
      s->target = 7;
      targets++;
    } else if (strcmp(tok, "team") == 0) {
      if (players != 4)
        return ENG_BAD_PLAYERS;
      s->team = 1;
      s->target = 8;
      targets++;
    } else if (strcmp(tok, "annihilation") == 0) {
      if (s->annihilation)
        return ENG_BAD_MODE;
      s->annihilation = 1;
    } else if (strcmp(tok, "standard") != 0) {
      return ENG_BAD_MODE;
    }
  }
  return targets > 1 ? ENG_BAD_MODE : ENG_OK;
}

static eng_rc sv_setup(void *st, const eng_config *cfg, uint64_t seed) {
  sv_state *s = st;
  if (!sv_cards())
    return ENG_INTERNAL;
  memset(s, 0, sizeof *s);
  s->players = (uint8_t)cfg->players;
  eng_rc rc = parse_mode(s, cfg->mode, cfg->players);
  if (rc)
    return rc;
  snprintf(s->mode, sizeof s->mode, "%s",
           cfg->mode[0] ? cfg->mode : "standard");
  eng_rng_seed(&s->rng, seed, 0);
  for (int i = MIN_LO; i < DOM_LO; i++) {
    put(s, i, SV_Z_MDECK, 0);
    eng_pile_push(&s->mdeck, (uint16_t)i);
  }
  for (int i = DOM_LO; i < SV_N; i++) {
    put(s, i, SV_Z_DDECK, 0);
    eng_pile_push(&s->ddeck, (uint16_t)i);
  }
  eng_pile_shuffle(&s->mdeck, &s->rng);
  eng_pile_shuffle(&s->ddeck, &s->rng);
  unsigned fl = 0;
  for (int p = 0; p < s->players; p++)
    for (int k = 0; k < 2; k++)
      draw_minion(s, p, &fl);
  s->current =
      (uint8_t)(cfg->first >= 0 ? cfg->first
                                : (int)eng_rng_below(&s->rng, s->players));
  s->turn = 1;
  s->mobs_left = s->ops_left = 1;
  s->phase = SV_PH_START;
  run(s, &fl);
  return ENG_OK;
}

static void sv_prompt(const void *st, eng_prompt *p) { options(st, p); }

/* The core hands apply() only codes of the current prompt (see eng.h), so
 * the options are not rebuilt here: that would double the cost of every
 * answer in random playouts. */
static eng_rc sv_apply(void *st, uint32_t code, unsigned *flags) {
  sv_state *s = st;
  if (s->over)
    return ENG_GAME_OVER;
  do_answer(s, code, flags);
  run(s, flags);
  return s->overflow ? ENG_INTERNAL : ENG_OK;
}

static void seat_name(int seat, char *buf, size_t cap) {
  snprintf(buf, cap, "Villain %d", seat + 1);
}

static void power_of(int i, char *buf, size_t cap) {
  sv_format_power(i < DOM_LO ? C(i)->power : C(i)->cost, buf, cap);
}

static const char *frame_question(const sv_state *s, const sv_frame *f) {
  switch ((sv_frame_kind)f->kind) {
  case SV_F_DISCARD:
    return "Discard which Minion card?";
  case SV_F_PLACE:
    return "Onto which of your Projects?";
  case SV_F_HIT:
    return "Your Asteroid hits: destroy what?";
  case SV_F_TRIGGERS:
    return "Several abilities trigger: which resolves first?";
  case SV_F_LAUNCH:
    return "Launch the Asteroid at which Villain?";
  case SV_F_COMPLETE:
  case SV_F_SHOOT:
    return "";
  case SV_F_EFFECT:
    break;
  }
  switch ((sv_op)f->op) {
  case SV_OP_DESTROY_OWN_PROJECT:
    return "Destroy which of your Projects?";
  case SV_OP_TAKE_DISCARD_PROJECT:
    return "Take which Domination card from the discard pile as a Project?";
  case SV_OP_TAKE_DISCARD_MINION:
    return "Take which Minion card from the discard pile?";
  case SV_OP_PUT_MOB_FROM_HAND:
    return "Put which Minion card from your hand as a Mob?";
  case SV_OP_PUT_MOB_FROM_DISCARD:
    return "Put which Minion card from the discard pile as a Mob?";
  case SV_OP_STEAL_MOB:
    return "Steal which Mob?";
  case SV_OP_SWAP_MOBS:
    return f->step ? "Swap it with which Mob?" : "Swap which Mob?";
  case SV_OP_DESTROY_MOB:
    return "Destroy which Mob?";
  case SV_OP_DESTROY_PROJECT:
    return "Destroy which Project?";
  case SV_OP_DESTROY_FACILITY:
    return "Destroy which Secret Facility?";
  case SV_OP_REVERT_FACILITY:
    return "Turn which Secret Facility back into a Project?";
  case SV_OP_CHARGE_ASTEROID:
    return "Charge which Asteroid?";
  case SV_OP_SHOOT_DOWN:
    return "Shoot down which Asteroid?";
  case SV_OP_RETARGET:
    return f->step ? "Point it at which Villain?" : "Retarget which Asteroid?";
  case SV_OP_ADD_PROOF:
    return "Put an Asteroid-proof token on what?";
  case SV_OP_REMOVE_PROOF:
    return "Discard which Asteroid-proof token?";
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
  (void)s;
  return "Choose.";
}

static void sv_question(const void *st, const eng_prompt *p, char *buf,
                        size_t cap) {
  const sv_state *s = st;
  (void)p;
  if (s->over)
    snprintf(buf, cap, "The game is over.");
  else if (s->sp > 0)
    snprintf(buf, cap, "%s", frame_question(s, &s->stack[s->sp - 1]));
  else if (s->phase == SV_PH_ACT3)
    snprintf(buf, cap,
             "Start the drawn card as a Project, or launch it as "
             "an Asteroid?");
  else
    snprintf(buf, cap, "Your day: what next?");
}

/* Describes a card on the table for an option label. */
static void describe(const sv_state *s, int i, char *buf, size_t cap) {
  const sv_where *w = &s->w[i];
  char who[16], pw[16];
  seat_name(w->owner, who, sizeof who);
  power_of(i, pw, sizeof pw);
  switch (w->zone) {
  case SV_Z_MOB:
    snprintf(buf, cap, "Mob %s (%s%s) on %s, %s", C(i)->name, pw,
             w->proof ? ", token" : "", C(w->host)->name, who);
    break;
  case SV_Z_PROJECT:
    snprintf(buf, cap, "Project %s (%s), %s", C(i)->name, pw, who);
    break;
  case SV_Z_FACILITY:
    snprintf(buf, cap, "Facility %s (%d pt%s%s), %s", C(i)->name, C(i)->points,
             C(i)->points == 1 ? "" : "s", w->proof ? ", token" : "", who);
    break;
  case SV_Z_ASTEROID: {
    char at[16];
    seat_name(w->target, at, sizeof at);
    snprintf(buf, cap, "%sAsteroid %s, %s at %s", w->charged ? "charged " : "",
             C(i)->name, who, at);
    break;
  }
  default:
    if (i < DOM_LO)
      snprintf(buf, cap, "%s (%s)", C(i)->name, pw);
    else
      snprintf(buf, cap, "%s (%s, %d pt%s)", C(i)->name, pw, C(i)->points,
               C(i)->points == 1 ? "" : "s");
  }
}

/* Formats an option label, cut to Discord's limit (on a UTF-8 boundary,
 * ending in "..." when cut). */
static void label_set(char *label, const char *fmt, ...) {
  char buf[400];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  if (n > ENG_LABEL_MAX) {
    int cut = ENG_LABEL_MAX - 3;
    while (cut > 0 && ((unsigned char)buf[cut] & 0xC0) == 0x80)
      cut--;
    memcpy(buf + cut, "...", 4);
  }
  memcpy(label, buf, strlen(buf) + 1);
}

static void sv_option(const void *st, const eng_prompt *p, int i,
                      char id[ENG_ID_MAX + 1], char label[ENG_LABEL_MAX + 1]) {
  const sv_state *s = st;
  uint32_t code = p->code[i];
  int a = OPT_A(code);
  char d[120], pw[16], who[16];
  switch (OPT_TYPE(code)) {
  case OPT_PROJECT:
  case OPT_LAUNCH: {
    int drawn = -1; /* the card drawn in Act III lies face up */
    for (int k = DOM_LO; k < SV_N; k++)
      if (s->w[k].zone == SV_Z_LIMBO)
        drawn = k;
    if (drawn >= 0)
      describe(s, drawn, d, sizeof d);
    else
      snprintf(d, sizeof d, "it");
    if (OPT_TYPE(code) == OPT_PROJECT) {
      snprintf(id, ENG_ID_MAX + 1, "project");
      label_set(label, "Start %s as a Project", d);
    } else {
      seat_name(a, who, sizeof who);
      snprintf(id, ENG_ID_MAX + 1, "launch.%d", a + 1);
      label_set(label, "Launch %s as an Asteroid at %s",
                drawn >= 0 ? C(drawn)->name : "it", who);
    }
    return;
  }
  case OPT_MOB:
    power_of(a, pw, sizeof pw);
    snprintf(id, ENG_ID_MAX + 1, "mob.c%d", a);
    label_set(label, "Play %s as a Mob (%s%s)", C(a)->name, pw,
              C(a)->boosted ? ", Boosted" : "");
    return;
  case OPT_OPS:
    snprintf(id, ENG_ID_MAX + 1, "ops.c%d", a);
    label_set(label, "Play %s as %sMinion Ops", C(a)->name,
              C(a)->swift ? "Swift " : "");
    return;
  case OPT_SHOOT:
    describe(s, a, d, sizeof d);
    snprintf(id, ENG_ID_MAX + 1, "shoot.c%d", a);
    label_set(label, "Shoot down %s (discard %d)", d, s->w[a].charged ? 3 : 2);
    return;
  case OPT_USE:
    snprintf(id, ENG_ID_MAX + 1, "use.c%d", a);
    label_set(label, "Use %s: %s", C(a)->name,
              s->w[a].zone == SV_Z_FACILITY ? C(a)->facility.text
                                            : C(a)->project.text);
    return;
  case OPT_CHARGE:
    describe(s, a, d, sizeof d);
    snprintf(id, ENG_ID_MAX + 1, "charge.c%d", a);
    label_set(label, "Charge %s (discard 3)", d);
    return;
  case OPT_END:
    snprintf(id, ENG_ID_MAX + 1, "end");
    label_set(label, "End your day");
    return;
  case OPT_STOP:
    snprintf(id, ENG_ID_MAX + 1, "stop");
    label_set(label, "Stop");
    return;
  case OPT_SEAT:
    seat_name(a, who, sizeof who);
    snprintf(id, ENG_ID_MAX + 1, "seat.%d", a + 1);
    label_set(label, "%s", who);
    return;
  case OPT_PICK:
  default:
    describe(s, a, d, sizeof d);
    snprintf(id, ENG_ID_MAX + 1, "pick.c%d", a);
    if (s->sp > 0 && s->stack[s->sp - 1].kind == SV_F_DISCARD)
      label_set(label, "Discard %s", d);
    else
      label_set(label, "%s", d);
    return;
  }
}

static json_t *sv_cards_list(void) {
  const sv_deck *d = sv_cards();
  return d ? sv_cards_json(d) : NULL;
}

static void sv_result(const void *st, eng_result *r) {
  const sv_state *s = st;
  memset(r, 0, sizeof *r);
  r->over = s->over;
  r->winners = s->winners;
  for (int p = 0; p < s->players; p++)
    r->score[p] = sv_points(s, p);
  const char *reason = !s->over                     ? ""
                       : s->reason == SV_END_POINTS ? "points"
                       : s->winners                 ? "decks_exhausted"
                                                    : "decks_exhausted_tie";
  snprintf(r->reason, sizeof r->reason, "%s", reason);
}

static const char *const sv_modes[] = {"standard", "blitz",        "slow",
                                       "team",     "annihilation", NULL};

/* The rulebook's discard piles are open: anyone may look through them
 * (and Chronosphere, Undead Labor Union... take from them). */
static const char *const sv_open_piles[] = {"minion_discard",
                                            "domination_discard", NULL};

const eng_ruleset sv_ruleset = {
    .id = "supervillain",
    .name = "Supervillain: This Galaxy Is Mine!",
    .version = 1,
    .min_players = 2,
    .max_players = 4,
    .modes_help = "standard (5 points), blitz (4), slow (7), team (2x2, 8 "
                  "together, 4 players); add +annihilation to any",
    .modes = sv_modes,
    .open_piles = sv_open_piles,
    .state_size = sizeof(sv_state),
    .setup = sv_setup,
    .prompt = sv_prompt,
    .question = sv_question,
    .option = sv_option,
    .apply = sv_apply,
    .view = sv_view,
    .to_json = sv_to_json,
    .from_json = sv_from_json,
    .result = sv_result,
    .check = sv_check,
    .cards = sv_cards_list,
    .cards_markdown = sv_cards_markdown_list,
    .render = sv_render,
    .public_answer = sv_public_answer,
    .ai = sv_ai_choose,
};
