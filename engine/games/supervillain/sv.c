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
 * While it works, apply() tells what happens (eng_events): the code that
 * moves a card, turns an Asteroid, scores or ends the game says so at
 * that moment, through the say helpers below, so a change cannot happen
 * untold. When nobody reads the lines (random playouts) nothing is
 * formatted: every say is behind a test of the events pointer.
 *
 * The rulebook is the English one of Supervillain: This Galaxy Is Mine!
 * (the publisher's, not shipped with Lair); where it leaves
 * something open, docs/rules/supervillain.md records Lair's decision.
 */
#include "sv.h"

#include "../../rsutil.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* How a Mob reaches a Project (SV_F_PLACE's b). */
enum { PLACE_PLAY, PLACE_HAND, PLACE_DISCARD, PLACE_STEAL };

#define MIN_LO 0
#define DOM_LO SV_N_MINION

#define C(i) sv_card_of(i)

/* ---- telling --------------------------------------------------------
 * What one answer produces besides the new state: the core's flags and,
 * when somebody reads them, the lines that say what happened. ev NULL
 * means nobody does, and then no text is formatted at all. */
typedef struct told {
  unsigned fl;
  eng_events *ev;
  sv_trace *trace; /* tests only (sv_apply_traced) */
  int op;          /* the effect op whose work is being told, or -1 */
} told;

static void say_(told *t, int seat, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void say_(told *t, int seat, const char *fmt, ...) {
  char buf[2 * ENG_EVENT_TEXT_MAX];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  eng_event_add(t->ev, seat, "%s", buf);
  if (seat < 0 && t->trace && t->op >= 0 && t->op < SV_OP_COUNT)
    t->trace->told[t->op]++;
}

/* Tells a line for seat (-1: everyone); arguments are only evaluated when
 * somebody listens. */
#define SAY(t, seat, ...)                                                      \
  do {                                                                         \
    if ((t)->ev)                                                               \
      say_((t), (seat), __VA_ARGS__);                                          \
  } while (0)

/* Whether anybody listens: the guard around text built in several steps. */
#define TELLING(t) ((t)->ev != NULL)

/* An op finished its work, or found nothing to do (tests count them). */
static void acted(told *t, int op) {
  if (t->trace && op >= 0 && op < SV_OP_COUNT)
    t->trace->acted[op]++;
}

static const char *nm(int i) { return C(i)->name; }

/* The name of a card after the word "Asteroid" in a text: "Asteroid
 * Slingshot" is written once, not "Asteroid Asteroid Slingshot". */
static const char *ast_nm(int i) {
  const char *n = nm(i);
  return strncmp(n, "Asteroid ", 9) == 0 ? n + 9 : n;
}

/* "Jetpack Couriers'" or "Wormhole's". */
static void possessive(const char *name, char *buf, size_t cap) {
  size_t n = strlen(name);
  snprintf(buf, cap, "%.31s'%s", name, n && name[n - 1] == 's' ? "" : "s");
}

/* The ability an effect comes from: "Jetpack Couriers' Ops",
 * "Chronosphere (when complete)", "Giant Flyswatter (Secret Facility)". */
static void source_text(int src, int ab, char *buf, size_t cap) {
  if (src < DOM_LO) {
    char p[48];
    possessive(nm(src), p, sizeof p);
    snprintf(buf, cap, "%s Ops", p);
    return;
  }
  const char *what = "";
  switch (SV_AB_KIND(ab)) {
  case SV_KIND_WHEN_COMPLETE:
    what = " (when complete)";
    break;
  case SV_KIND_DESTROY_THIS:
    what = " (destroy this)";
    break;
  case SV_KIND_IF_DESTROYED:
    what = " (if destroyed)";
    break;
  default:
    what = SV_AB_SIDE(ab) == SV_AB_FACILITY  ? " (Secret Facility)"
           : SV_AB_SIDE(ab) == SV_AB_PROJECT ? " (Project)"
                                             : "";
  }
  snprintf(buf, cap, "%s%s", nm(src), what);
}

/* "A", "A and B", "A, B and C" of the cards' names; when they do not
 * all fit in 150 bytes, "A, B, C and 5 more", so that a line stays one
 * whole sentence. */
static void name_list(const int *cards, int n, char *buf, size_t cap) {
  enum { BUDGET = 150 };
  size_t o = 0, budget = cap < BUDGET ? cap : BUDGET;
  buf[0] = '\0';
  for (int k = 0; k < n; k++) {
    const char *sep = k == 0 ? "" : k == n - 1 ? " and " : ", ";
    size_t need = strlen(sep) + strlen(nm(cards[k]));
    /* Room for this name and, unless it is the last, " and 99 more". */
    if (o + need + (k == n - 1 ? 0 : 12) >= budget) {
      snprintf(buf + o, cap - o, " and %d more", n - k);
      return;
    }
    o += (size_t)snprintf(buf + o, cap - o, "%s%s", sep, nm(cards[k]));
  }
}

static void power_text(int millions, char *buf, size_t cap) {
  sv_format_power(millions, buf, cap);
}

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

/* ---- moving cards --------------------------------------------------
 * put() is the one primitive; the functions after it are the moves the
 * rules make (draw, discard, destroy, place), and each tells what it did
 * when somebody listens. */

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

static void to_mdisc(sv_state *s, told *t, int i) {
  put(s, i, SV_Z_MDISC, 0);
  eng_pile_push(&s->mdisc, (uint16_t)i);
  if (t->trace) /* face up now, even if it leaves again in this answer */
    t->trace->shown[i] = 1;
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

static int mob_power(const sv_state *s, int p) {
  int sum = 0;
  zset mobs = zone(s, SV_Z_MOB);
  for (int m; (m = next(&mobs)) >= 0;)
    if (s->w[m].host == p)
      sum += C(m)->power;
  return sum;
}

/* "Villain 2 now has 3 of 5 points" (Team Battle: "Villain 2 now has 3
 * points, 6 of 8 with Villain 4"). */
static void points_text(const sv_state *s, int seat, char *buf, size_t cap) {
  int own = sv_points(s, seat);
  if (s->team)
    snprintf(buf, cap,
             "Villain %d now has %d point%s, %d of %d with Villain %d",
             seat + 1, own, own == 1 ? "" : "s", sv_team_points(s, seat),
             s->target, (seat + 2) % 4 + 1);
  else
    snprintf(buf, cap, "Villain %d now has %d of %d points", seat + 1, own,
             s->target);
}

/* "their own" when the actor owns the card, else "Villain N's". */
static void whose(int owner, int actor, char *buf, size_t cap) {
  if (owner == actor)
    snprintf(buf, cap, "their own");
  else
    snprintf(buf, cap, "Villain %d's", owner + 1);
}

/* Draws n Minion cards into p's hand, fewer when both piles run out, and
 * tells it: how many to everyone, which ones to p alone. */
static void draw_minions(sv_state *s, told *t, int p, int n) {
  int got[SV_N_MINION], k = 0;
  for (int j = 0; j < n; j++) {
    uint16_t c;
    bool resh = false;
    if (eng_pile_draw(&s->mdeck, &s->mdisc, &s->rng, &c, &resh)) {
      put(s, c, SV_Z_HAND, p);
      got[k++] = c;
    }
    if (resh) {
      rezone(s, &s->mdeck, SV_Z_MDECK);
      SAY(t, -1,
          "The Minion discard pile (%d cards) was shuffled into a new "
          "Minion deck.",
          s->mdeck.n + 1);
    }
    t->fl |= ENG_REVEALED; /* even "no card" tells both piles are empty */
  }
  if (!TELLING(t))
    return;
  if (k == n)
    SAY(t, -1, "Villain %d drew %d Minion card%s.", p + 1, n,
        n == 1 ? "" : "s");
  else if (k == 0)
    SAY(t, -1,
        "Villain %d could not draw: the Minion deck and its discard pile "
        "are empty.",
        p + 1);
  else
    SAY(t, -1,
        "Villain %d drew only %d of %d Minion cards: the Minion deck and "
        "its discard pile ran out.",
        p + 1, k, n);
  if (k > 0) {
    char list[8 * 32];
    name_list(got, k, list, sizeof list);
    SAY(t, p, "You drew %s.", list);
  }
}

/* Tells how the game ended and who won (s->reason and s->winners set). */
static void tell_end(const sv_state *s, told *t) {
  if (!TELLING(t))
    return;
  t->op = -1; /* the game's end is no effect's work */
  char who[64] = "";
  size_t o = 0;
  int n = 0, first = -1;
  for (int p = 0; p < s->players; p++)
    if (s->winners & (1u << p)) {
      o += (size_t)snprintf(who + o, sizeof who - o, "%sVillain %d",
                            n ? " and " : "", p + 1);
      n++;
      if (first < 0)
        first = p;
    }
  if (s->reason == SV_END_POINTS) {
    int pts = sv_team_points(s, first);
    if (n > 1)
      SAY(t, -1, "%s reach %d points together and win the game!", who, pts);
    else
      SAY(t, -1, "%s reaches %d points and wins the game!", who, pts);
    return;
  }
  SAY(t, -1,
      "The Domination deck and its discard pile are both empty: the game "
      "ends, and the most points win.");
  if (n > 0) {
    int pts = sv_team_points(s, first);
    if (n > 1)
      SAY(t, -1, "%s win with %d points together!", who, pts);
    else
      SAY(t, -1, "%s wins with %d point%s!", who, pts, pts == 1 ? "" : "s");
    return;
  }
  int best = 0;
  for (int p = 0; p < s->players; p++)
    if (sv_team_points(s, p) > best)
      best = sv_team_points(s, p);
  char tied[96] = "";
  o = 0;
  n = 0;
  int count = 0;
  for (int p = 0; p < s->players; p++)
    count += sv_team_points(s, p) == best;
  for (int p = 0; p < s->players; p++)
    if (sv_team_points(s, p) == best) {
      n++;
      o += (size_t)snprintf(tied + o, sizeof tied - o, "%sVillain %d",
                            n == 1       ? ""
                            : n == count ? " and "
                                         : ", ",
                            p + 1);
    }
  SAY(t, -1,
      "Nobody wins, since %s are tied with %d point%s: the galaxy is saved!",
      tied, best, best == 1 ? "" : "s");
}

static void end_game(sv_state *s, told *t, int reason) {
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
  if (reason == SV_END_EXHAUSTED)
    tell_end(s, t);
}

/* Draws the top Domination card (reshuffling the discard pile if need
 * be); returns -1 and ends the game when both are empty. The caller
 * tells what the card becomes. */
static int draw_domination(sv_state *s, told *t) {
  uint16_t c;
  bool resh = false;
  t->fl |= ENG_REVEALED;
  if (!eng_pile_draw(&s->ddeck, &s->ddisc, &s->rng, &c, &resh)) {
    end_game(s, t, SV_END_EXHAUSTED);
    return -1;
  }
  if (resh) {
    rezone(s, &s->ddeck, SV_Z_DDECK);
    SAY(t, -1,
        "The Domination discard pile (%d cards) was shuffled into a new "
        "Domination deck.",
        s->ddeck.n + 1);
  }
  return c;
}

static void check_victory(sv_state *s, told *t) {
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
      end_game(s, t, SV_END_POINTS);
      s->winners = (uint8_t)(1u << p);
      if (s->team)
        s->winners |= (uint8_t)(1u << ((p + 2) % 4));
      tell_end(s, t);
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

/* Pushes an ability's effects so the first one resolves first; ab says
 * which ability of src it is (SV_AB_*). */
static bool push_effects(sv_state *s, const sv_ability *a, int player, int src,
                         int ab) {
  for (int k = a->n_effects - 1; k >= 0; k--) {
    sv_frame *f = push(s, SV_F_EFFECT, player);
    if (!f)
      return false;
    f->op = a->eff[k].op;
    f->n = a->eff[k].n;
    f->scope = a->eff[k].scope;
    f->src = (uint8_t)src;
    f->b = (uint8_t)ab;
  }
  return true;
}

/* player must discard n Minion cards; why (SV_WHY_*), src and ab (what
 * demands it) and by (whose effect) only serve the question. */
static void push_discard(sv_state *s, int player, int n, int why, int src,
                         int ab, int by) {
  sv_frame *f = push(s, SV_F_DISCARD, player);
  if (!f)
    return;
  f->n = (uint8_t)n;
  f->b = (uint8_t)why;
  f->src = (uint8_t)src;
  f->step = (uint8_t)ab;
  f->a = (uint8_t)by;
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

/* The destroying functions tell "<by> destroyed <whose> ..." when by is
 * not NULL (by: "Villain 1", "The Asteroid Wormhole"; actor: the seat
 * that reads as "their own", or -1). */
static void destroy_mob(sv_state *s, told *t, int m, int controller,
                        const char *by, int actor) {
  int owner = s->w[m].owner;
  if (by && TELLING(t)) {
    char w[24];
    whose(owner, actor, w, sizeof w);
    SAY(t, -1, "%s destroyed %s Mob %s on %s.", by, w, nm(m), nm(s->w[m].host));
  }
  to_mdisc(s, t, m);
  fire(s, SV_TRIG_YOUR_MOB_DESTROYED, owner, -1, controller);
}

/* why: said after the card ("" or " for its ability"). */
static void destroy_project(sv_state *s, told *t, int p, int controller,
                            const char *by, int actor, const char *why) {
  if (by && TELLING(t)) {
    int mobs[SV_N_MINION], k = 0;
    zset z = zone(s, SV_Z_MOB);
    for (int m; (m = next(&z)) >= 0;)
      if (s->w[m].host == p)
        mobs[k++] = m;
    char w[24], list[300] = "", with[320] = "";
    whose(s->w[p].owner, actor, w, sizeof w);
    if (k) {
      name_list(mobs, k, list, sizeof list);
      snprintf(with, sizeof with, " and its Mob%s %s", k > 1 ? "s" : "", list);
    }
    SAY(t, -1, "%s destroyed %s Project %s%s%s.", by, w, nm(p), with, why);
  }
  zset mobs = zone(s, SV_Z_MOB);
  for (int m; (m = next(&mobs)) >= 0;)
    if (s->w[m].zone == SV_Z_MOB && s->w[m].host == p)
      destroy_mob(s, t, m, controller, NULL, actor);
  to_ddisc(s, p);
}

static void destroy_facility(sv_state *s, told *t, int f, int controller,
                             const char *by, int actor) {
  int owner = s->w[f].owner;
  to_ddisc(s, f);
  if (by && TELLING(t)) {
    char w[24], pts[96];
    whose(owner, actor, w, sizeof w);
    points_text(s, owner, pts, sizeof pts);
    SAY(t, -1, "%s destroyed %s Secret Facility %s: %s.", by, w, nm(f), pts);
  }
  if (C(f)->facility.kind == SV_KIND_IF_DESTROYED) {
    sv_frame *tr = push(s, SV_F_TRIGGERS, controller);
    if (tr) {
      tr->n_list = 1;
      tr->list[0] = (uint8_t)f;
      tr->owner[0] = (uint8_t)(owner | 0x80);
    }
  }
}

/* A Project completes the moment its Mobs' power reaches its cost. */
static void check_complete(sv_state *s, int p) {
  if (s->w[p].zone != SV_Z_PROJECT || mob_power(s, p) < C(p)->cost)
    return;
  sv_frame *f = push(s, SV_F_COMPLETE, s->w[p].owner);
  if (f)
    f->a = (uint8_t)p;
}

/* Tells a Mob's arrival on a Project (from_owner/from_host: where a
 * stolen Mob came from). */
static void tell_place(const sv_state *s, told *t, int card, int project,
                       int how, int from_owner, int from_host) {
  char pw[16], have[16], cost[16], tok[48] = "";
  int me = s->w[project].owner;
  power_text(C(card)->power, pw, sizeof pw);
  power_text(mob_power(s, project), have, sizeof have);
  power_text(C(project)->cost, cost, sizeof cost);
  if (s->w[card].proof)
    snprintf(tok, sizeof tok, ", with %s Asteroid-proof token",
             how == PLACE_STEAL ? "its" : "an");
  if (how == PLACE_PLAY)
    SAY(t, -1, "Villain %d played %s (%s%s) as a Mob on %s: %s of %s.", me + 1,
        nm(card), pw, tok, nm(project), have, cost);
  else if (how == PLACE_HAND)
    SAY(t, -1,
        "Villain %d put %s (%s%s) from their hand as a Mob on %s: %s of %s.",
        me + 1, nm(card), pw, tok, nm(project), have, cost);
  else if (how == PLACE_DISCARD)
    SAY(t, -1,
        "Villain %d put %s (%s%s) from the Minion discard pile as a Mob on "
        "%s: %s of %s.",
        me + 1, nm(card), pw, tok, nm(project), have, cost);
  else
    SAY(t, -1,
        "Villain %d stole Villain %d's Mob %s (%s%s) from %s and put it on "
        "%s: %s of %s.",
        me + 1, from_owner + 1, nm(card), pw, tok, nm(from_host), nm(project),
        have, cost);
}

static void place_mob(sv_state *s, told *t, int card, int project, int how) {
  int player = s->w[project].owner;
  int from_owner = s->w[card].owner, from_host = s->w[card].host;
  uint8_t proof = how == PLACE_STEAL ? s->w[card].proof : C(card)->proof;
  if (how == PLACE_DISCARD)
    eng_pile_remove(&s->mdisc, (uint16_t)card);
  if (how == PLACE_PLAY && !C(card)->boosted && s->mobs_left > 0)
    s->mobs_left--;
  put(s, card, SV_Z_MOB, player);
  s->w[card].host = (uint8_t)project;
  s->w[card].proof = proof;
  if (TELLING(t))
    tell_place(s, t, card, project, how, from_owner, from_host);
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

/* The op a frame works for, for the tests' trace: an effect, or the Mob
 * placement, launch or discard an effect asked for; -1 for the rules'
 * own work (hits, completions, triggers, costs, the Evening). */
static int frame_op(const sv_frame *f) {
  switch ((sv_frame_kind)f->kind) {
  case SV_F_EFFECT:
    return f->op;
  case SV_F_PLACE:
    return f->b == PLACE_HAND      ? SV_OP_PUT_MOB_FROM_HAND
           : f->b == PLACE_DISCARD ? SV_OP_PUT_MOB_FROM_DISCARD
           : f->b == PLACE_STEAL   ? SV_OP_STEAL_MOB
                                   : -1;
  case SV_F_LAUNCH:
    return SV_OP_LAUNCH_ASTEROID;
  case SV_F_DISCARD:
    if (f->b != SV_WHY_EFFECT)
      return -1;
    return f->a == f->player ? SV_OP_DISCARD_MINION : SV_OP_EACH_OTHER_DISCARDS;
  case SV_F_HIT:
  case SV_F_COMPLETE:
  case SV_F_SHOOT:
  case SV_F_TRIGGERS:
    return -1;
  }
  return -1;
}

/* "Villain N" as the subject of a line, or NULL when nobody listens. */
static const char *villain(const told *t, int seat, char buf[24]) {
  if (!TELLING(t))
    return NULL;
  snprintf(buf, 24, "Villain %d", seat + 1);
  return buf;
}

static int count_in(const sv_state *s, int z, int owner) {
  int n = 0;
  zset in = zone(s, z);
  for (int i; (i = next(&in)) >= 0;)
    n += s->w[i].owner == owner;
  return n;
}

/* Resolves trigger k of a TRIGGERS frame. */
static void resolve_trigger(sv_state *s, told *t, sv_frame *f, int k) {
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
  if (!a || !(if_destroyed || a->kind == SV_KIND_WHENEVER)) {
    /* gone or changed: it fizzles */
    SAY(t, -1,
        "Villain %d's %s no longer shows the ability that triggered, so "
        "nothing happens.",
        owner + 1, nm(src));
    return;
  }
  int ab =
      (if_destroyed || side == SV_Z_FACILITY ? SV_AB_FACILITY : SV_AB_PROJECT) |
      a->kind;
  if (if_destroyed)
    SAY(t, -1, "Villain %d's destroyed Secret Facility %s triggers.", owner + 1,
        nm(src));
  else
    SAY(t, -1, "Villain %d's %s %s triggers.", owner + 1,
        side == SV_Z_FACILITY ? "Secret Facility" : "Project", nm(src));
  push_effects(s, a, owner, src, ab);
}

/* Tells that an effect found nothing to act on. */
static void tell_fizzle(const sv_state *s, told *t, const sv_frame *f) {
  if (!TELLING(t))
    return;
  char src[64], why[96];
  int me = f->player + 1;
  bool projects = has(s, SV_Z_PROJECT, f->player);
  source_text(f->src, f->b, src, sizeof src);
  switch ((sv_op)f->op) {
  case SV_OP_DESTROY_OWN_PROJECT:
    snprintf(why, sizeof why, "Villain %d has no Project to destroy", me);
    break;
  case SV_OP_TAKE_DISCARD_PROJECT:
    snprintf(why, sizeof why, "the Domination discard pile is empty");
    break;
  case SV_OP_TAKE_DISCARD_MINION:
    snprintf(why, sizeof why, "the Minion discard pile is empty");
    break;
  case SV_OP_PUT_MOB_FROM_HAND:
    if (projects)
      snprintf(why, sizeof why, "Villain %d has no Minion card in hand", me);
    else
      snprintf(why, sizeof why, "Villain %d has no Project to put a Mob on",
               me);
    break;
  case SV_OP_PUT_MOB_FROM_DISCARD:
    if (projects)
      snprintf(why, sizeof why, "the Minion discard pile is empty");
    else
      snprintf(why, sizeof why, "Villain %d has no Project to put a Mob on",
               me);
    break;
  case SV_OP_STEAL_MOB:
    if (projects)
      snprintf(why, sizeof why, "no other Villain has a Mob");
    else
      snprintf(why, sizeof why,
               "Villain %d has no Project to put a stolen Mob on", me);
    break;
  case SV_OP_SWAP_MOBS:
    snprintf(why, sizeof why, "there are no two Mobs on different Projects");
    break;
  case SV_OP_DESTROY_MOB:
    snprintf(why, sizeof why, "no other Villain has a Mob");
    break;
  case SV_OP_DESTROY_PROJECT:
    snprintf(why, sizeof why, "no other Villain has a Project without Mobs");
    break;
  case SV_OP_DESTROY_FACILITY:
  case SV_OP_REVERT_FACILITY:
    snprintf(why, sizeof why, "no other Villain has a Secret Facility");
    break;
  case SV_OP_CHARGE_ASTEROID:
    if (f->scope == SV_SCOPE_ANY)
      snprintf(why, sizeof why, "there is no uncharged Asteroid");
    else
      snprintf(why, sizeof why, "Villain %d has no uncharged Asteroid", me);
    break;
  case SV_OP_SHOOT_DOWN:
    if (f->scope == SV_SCOPE_ANY)
      snprintf(why, sizeof why, "no other Villain has an Asteroid in flight");
    else
      snprintf(why, sizeof why, "no Asteroid flies at Villain %d", me);
    break;
  case SV_OP_RETARGET:
    snprintf(why, sizeof why, "no other Villain has an Asteroid in flight");
    break;
  case SV_OP_ADD_PROOF:
    snprintf(why, sizeof why, "Villain %d has no %s without a token", me,
             f->scope == SV_SCOPE_DEFAULT    ? "Mob"
             : f->scope == SV_SCOPE_FACILITY ? "Secret Facility"
                                             : "Mob or Secret Facility");
    break;
  case SV_OP_REMOVE_PROOF:
    snprintf(why, sizeof why,
             "no other Villain's Mob or Secret Facility has a token");
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
    snprintf(why, sizeof why, "there is nothing to do");
    break;
  }
  SAY(t, -1, "%s: nothing happens, since %s.", src, why);
}

/* "Villain 2", "Villain 2 and Villain 3", ...: every seat but me, going
 * round from me's left. */
static void others_text(const sv_state *s, int me, char *buf, size_t cap) {
  size_t o = 0;
  buf[0] = '\0';
  for (int k = 1; k < s->players && o < cap; k++)
    o += (size_t)snprintf(buf + o, cap - o, "%sVillain %d",
                          k == 1                ? ""
                          : k == s->players - 1 ? " and "
                                                : ", ",
                          (me + k) % s->players + 1);
}

/* Does the automatic part of an effect frame. Returns false when the
 * frame waits for a decision. */
static bool effect_auto(sv_state *s, told *t) {
  sv_frame *f = top(s);
  int me = f->player, op = f->op;
  switch ((sv_op)f->op) {
  case SV_OP_DRAW_MINION: {
    int n = f->n;
    pop(s);
    acted(t, op);
    draw_minions(s, t, me, n);
    return true;
  }
  case SV_OP_DISCARD_MINION: {
    int n = f->n, src = f->src, ab = f->b;
    pop(s);
    acted(t, op);
    SAY(t, -1, "Villain %d must discard %d Minion card%s.", me + 1, n,
        n == 1 ? "" : "s");
    push_discard(s, me, n, SV_WHY_EFFECT, src, ab, me);
    return true;
  }
  case SV_OP_EACH_OTHER_DISCARDS: {
    int n = f->n, src = f->src, ab = f->b;
    pop(s);
    acted(t, op);
    if (TELLING(t)) {
      char who[64];
      others_text(s, me, who, sizeof who);
      SAY(t, -1, "%s must %sdiscard %d Minion card%s.", who,
          s->players > 2 ? "each " : "", n, n == 1 ? "" : "s");
    }
    for (int k = s->players - 1; k >= 1; k--)
      push_discard(s, (me + k) % s->players, n, SV_WHY_EFFECT, src, ab, me);
    return true;
  }
  case SV_OP_LAUNCH_ASTEROID: {
    if (f->n == 0) {
      pop(s);
      acted(t, op);
      return true;
    }
    f->n--;
    int src = f->src, ab = f->b;
    int c = draw_domination(s, t);
    if (c < 0)
      return true;
    put(s, c, SV_Z_LIMBO, me);
    SAY(t, -1,
        "Villain %d turned up %s from the Domination deck, to launch as an "
        "Asteroid.",
        me + 1, nm(c));
    sv_frame *l = push(s, SV_F_LAUNCH, me);
    if (l) {
      l->a = (uint8_t)c;
      l->src = (uint8_t)src;
      l->b = (uint8_t)ab;
    }
    return true;
  }
  case SV_OP_DRAW_PROJECT: {
    int n = f->n;
    pop(s);
    acted(t, op);
    for (int k = 0; k < n; k++) {
      int c = draw_domination(s, t);
      if (c < 0)
        return true;
      put(s, c, SV_Z_PROJECT, me);
      if (TELLING(t)) {
        char cost[16];
        power_text(C(c)->cost, cost, sizeof cost);
        SAY(t, -1,
            "Villain %d took %s from the Domination deck as a Project (it "
            "needs %s).",
            me + 1, nm(c), cost);
      }
    }
    return true;
  }
  case SV_OP_DESTROY_ALL_MOBS: {
    pop(s);
    acted(t, op);
    if (TELLING(t)) { /* one line per Villain who loses Mobs */
      int total = 0;
      for (int k = 1; k < s->players; k++) {
        int victim = (me + k) % s->players, mobs[SV_N_MINION], n = 0;
        for (int m = MIN_LO; m < DOM_LO; m++)
          if (s->w[m].zone == SV_Z_MOB && s->w[m].owner == victim)
            mobs[n++] = m;
        if (n == 0)
          continue;
        char list[200];
        name_list(mobs, n, list, sizeof list);
        SAY(t, -1, "Villain %d destroyed all of Villain %d's Mobs: %s.", me + 1,
            victim + 1, list);
        total += n;
      }
      if (total == 0)
        SAY(t, -1,
            "Villain %d would destroy every Mob on other Villains' Projects, "
            "but there is none.",
            me + 1);
    }
    for (int k = 1; k < s->players; k++) {
      int victim = (me + k) % s->players;
      for (int m = MIN_LO; m < DOM_LO; m++)
        if (s->w[m].zone == SV_Z_MOB && s->w[m].owner == victim)
          destroy_mob(s, t, m, me, NULL, me);
    }
    return true;
  }
  case SV_OP_EXTRA_MOB:
    s->mobs_left = (uint8_t)(s->mobs_left + f->n);
    SAY(t, -1, "Villain %d may play %d more Mob%s this turn.", me + 1, f->n,
        f->n == 1 ? "" : "s");
    pop(s);
    acted(t, op);
    return true;
  case SV_OP_EXTRA_OPS:
    s->ops_left = (uint8_t)(s->ops_left + f->n);
    SAY(t, -1, "Villain %d may play %d more Minion Ops this turn.", me + 1,
        f->n);
    pop(s);
    acted(t, op);
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
  if (p.n == 0) {     /* nothing (left) to choose from */
    if (f->step == 0) /* it never acted: the effect does nothing */
      tell_fizzle(s, t, f);
    pop(s);
    acted(t, op);
    return true;
  }
  return false;
}

/* Advances the top frame; false when it waits for a decision. */
static bool frame_auto(sv_state *s, told *t) {
  sv_frame *f = top(s);
  switch ((sv_frame_kind)f->kind) {
  case SV_F_EFFECT:
    return effect_auto(s, t);
  case SV_F_DISCARD:
    if (f->n == 0 || hand_size(s, f->player) == 0) {
      if (f->n > 0)
        SAY(t, -1, "Villain %d has no Minion card left to discard.",
            f->player + 1);
      pop(s);
      return true;
    }
    return false;
  case SV_F_PLACE:
    if (!has(s, SV_Z_PROJECT, f->player)) {
      SAY(t, -1, "Villain %d has no Project left to put a Mob on.",
          f->player + 1);
      pop(s);
      return true;
    }
    return false;
  case SV_F_HIT: {
    int ast = f->a;
    if (f->step == 0) { /* 1. the owner draws a Minion card, hit or miss */
      f->step = 1;
      SAY(t, -1, "Villain %d's %sAsteroid %s hits Villain %d.", f->player + 1,
          s->w[ast].charged ? "charged " : "", ast_nm(ast),
          s->w[ast].target + 1);
      draw_minions(s, t, f->player, 1);
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
      if (s->w[ast].zone == SV_Z_ASTEROID)
        SAY(t, -1, "The Asteroid %s finds nothing of Villain %d's to destroy.",
            ast_nm(ast), s->w[ast].target + 1);
      return true;
    }
    if (f->step == 2) { /* the target's "an Asteroid hits you" abilities */
      f->step = 3;
      if (s->w[ast].zone == SV_Z_ASTEROID)
        fire(s, SV_TRIG_ASTEROID_HITS_YOU, s->w[ast].target, -1, f->player);
      return true;
    }
    pop(s); /* 4. the Asteroid goes to the discard pile */
    if (s->w[ast].zone == SV_Z_ASTEROID) {
      to_ddisc(s, ast);
      SAY(t, -1, "The Asteroid %s goes to the Domination discard pile.",
          ast_nm(ast));
    }
    return true;
  }
  case SV_F_COMPLETE: {
    int pr = f->a, owner = f->player;
    if (f->step == 0) {
      /* Discard the Mobs (discarded, not destroyed), then "When complete"
       * while the card is still a Project. */
      f->step = 1;
      if (TELLING(t)) {
        int mobs[SV_N_MINION], k = 0;
        for (int m = MIN_LO; m < DOM_LO; m++)
          if (s->w[m].zone == SV_Z_MOB && s->w[m].host == pr)
            mobs[k++] = m;
        char have[16], cost[16], list[300];
        power_text(mob_power(s, pr), have, sizeof have);
        power_text(C(pr)->cost, cost, sizeof cost);
        name_list(mobs, k, list, sizeof list);
        SAY(t, -1,
            "Villain %d completed the Project %s (%s of %s): its Mob%s %s "
            "go%s to the Minion discard pile.",
            owner + 1, nm(pr), have, cost, k == 1 ? "" : "s", list,
            k == 1 ? "es" : "");
      }
      for (int m = MIN_LO; m < DOM_LO; m++)
        if (s->w[m].zone == SV_Z_MOB && s->w[m].host == pr)
          to_mdisc(s, t, m);
      if (s->w[pr].zone == SV_Z_PROJECT &&
          C(pr)->project.kind == SV_KIND_WHEN_COMPLETE)
        push_effects(s, &C(pr)->project, owner, pr,
                     SV_AB_PROJECT | SV_KIND_WHEN_COMPLETE);
      return true;
    }
    pop(s);
    if (s->w[pr].zone != SV_Z_PROJECT || s->w[pr].owner != owner) {
      SAY(t, -1,
          "%s is no longer Villain %d's Project, so it does not become a "
          "Secret Facility.",
          nm(pr), owner + 1);
      return true;
    }
    put(s, pr, SV_Z_FACILITY, owner); /* rotate: now a Secret Facility */
    if (TELLING(t)) {
      char pts[96];
      points_text(s, owner, pts, sizeof pts);
      SAY(t, -1,
          "%s is now Villain %d's Secret Facility, worth %d point%s: %s.",
          nm(pr), owner + 1, C(pr)->points, C(pr)->points == 1 ? "" : "s", pts);
    }
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
      push_discard(s, me, s->w[ast].charged ? 3 : 2, SV_WHY_SHOOT, ast, 0, me);
      return true;
    }
    pop(s);
    if (s->w[ast].zone == SV_Z_ASTEROID) {
      SAY(t, -1, "Villain %d shot down Villain %d's Asteroid %s.", me + 1,
          s->w[ast].owner + 1, ast_nm(ast));
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
      resolve_trigger(s, t, f, 0);
      return true;
    }
    return false;
  case SV_F_LAUNCH:
    return false;
  }
  return true;
}

/* Advances the phase machine; false when the current player decides. */
static bool phase_auto(sv_state *s, told *t) {
  int me = s->current;
  switch ((sv_phase)s->phase) {
  case SV_PH_START:
    SAY(t, -1, "Villain %d's turn begins (turn %d).", me + 1, (int)s->turn);
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
    draw_minions(s, t, me, 1);
    s->phase = SV_PH_ACT3;
    return true;
  case SV_PH_ACT3:
    for (int i = DOM_LO; i < SV_N; i++)
      if (s->w[i].zone == SV_Z_LIMBO)
        return false;
    {
      int c = draw_domination(s, t);
      if (c >= 0) {
        put(s, c, SV_Z_LIMBO, me);
        if (TELLING(t)) {
          char cost[16];
          power_text(C(c)->cost, cost, sizeof cost);
          SAY(t, -1,
              "Villain %d turned up %s (%s, %d point%s) from the Domination "
              "deck.",
              me + 1, nm(c), cost, C(c)->points, C(c)->points == 1 ? "" : "s");
        }
      }
    }
    return true;
  case SV_PH_DAY:
    return false;
  case SV_PH_EVENING: {
    int extra = hand_size(s, me) - SV_HAND_LIMIT;
    if (extra > 0) {
      SAY(t, -1,
          "Villain %d holds %d Minion cards and must discard %d, down to %d.",
          me + 1, hand_size(s, me), extra, SV_HAND_LIMIT);
      push_discard(s, me, extra, SV_WHY_EVENING, 0, 0, me);
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

static void do_answer(sv_state *s, uint32_t code, told *t);

/* Runs automatic work until a decision is needed or the game ends. */
static void run(sv_state *s, told *t) {
  const bool tracing = t->trace != NULL; /* read once: the loop is hot */
  for (int guard = 0; guard < 100000; guard++) {
    if (tracing) /* whose lines these are (tell_end: the rules' own) */
      t->op = s->sp > 0 ? frame_op(top(s)) : -1;
    check_victory(s, t);
    if (s->over)
      return;
    if (s->sp > 0) {
      if (frame_auto(s, t))
        continue;
      eng_prompt p;
      options(s, &p);
      if (p.n == 1) {
        do_answer(s, p.code[0], t);
        continue;
      }
      return;
    }
    if (!phase_auto(s, t))
      return;
  }
}

/* ---- answers -------------------------------------------------------- */

static void effect_answer(sv_state *s, told *t, sv_frame *f, uint32_t code) {
  int me = f->player, a = OPT_A(code), op = f->op;
  char by[24];
  switch ((sv_op)f->op) {
  case SV_OP_DESTROY_OWN_PROJECT:
    pop(s);
    acted(t, op);
    destroy_project(s, t, a, me, villain(t, me, by), me, "");
    return;
  case SV_OP_TAKE_DISCARD_PROJECT:
    pop(s);
    acted(t, op);
    eng_pile_remove(&s->ddisc, (uint16_t)a);
    put(s, a, SV_Z_PROJECT, me);
    if (TELLING(t)) {
      char cost[16];
      power_text(C(a)->cost, cost, sizeof cost);
      SAY(t, -1,
          "Villain %d took %s from the Domination discard pile as a Project "
          "(it needs %s).",
          me + 1, nm(a), cost);
    }
    return;
  case SV_OP_TAKE_DISCARD_MINION:
    f->n--;
    f->step = 1; /* it acted: running out of cards later is no fizzle */
    eng_pile_remove(&s->mdisc, (uint16_t)a);
    put(s, a, SV_Z_HAND, me);
    SAY(t, -1,
        "Villain %d took %s from the Minion discard pile into their hand.",
        me + 1, nm(a));
    return;
  case SV_OP_PUT_MOB_FROM_HAND: {
    if (OPT_TYPE(code) == OPT_STOP) {
      pop(s);
      acted(t, op);
      SAY(t, -1, "Villain %d put no more Mobs from their hand.", me + 1);
      return;
    }
    f->n--;
    f->step = 1;
    int src = f->src, ab = f->b;
    sv_frame *pl = push(s, SV_F_PLACE, me);
    if (pl) {
      pl->a = (uint8_t)a;
      pl->b = PLACE_HAND;
      pl->src = (uint8_t)src;
      pl->n = (uint8_t)ab;
    }
    if (TELLING(t) && count_in(s, SV_Z_PROJECT, me) > 1) {
      SAY(t, -1,
          "Villain %d is putting a Minion card from their hand as a Mob.",
          me + 1);
      SAY(t, me, "You are putting %s from your hand as a Mob.", nm(a));
    }
    return;
  }
  case SV_OP_PUT_MOB_FROM_DISCARD:
  case SV_OP_STEAL_MOB: {
    int how = f->op == SV_OP_STEAL_MOB ? PLACE_STEAL : PLACE_DISCARD;
    int src = f->src, ab = f->b;
    pop(s);
    acted(t, op);
    sv_frame *pl = push(s, SV_F_PLACE, me);
    if (pl) {
      pl->a = (uint8_t)a;
      pl->b = (uint8_t)how;
      pl->src = (uint8_t)src;
      pl->n = (uint8_t)ab;
    }
    if (TELLING(t) && count_in(s, SV_Z_PROJECT, me) > 1) {
      if (how == PLACE_DISCARD)
        SAY(t, -1,
            "Villain %d is putting %s from the Minion discard pile as a Mob.",
            me + 1, nm(a));
      else
        SAY(t, -1, "Villain %d is stealing Villain %d's Mob %s from %s.",
            me + 1, s->w[a].owner + 1, nm(a), nm(s->w[a].host));
    }
    return;
  }
  case SV_OP_SWAP_MOBS:
    if (f->step == 0) {
      f->step = 1;
      f->a = (uint8_t)a;
      if (TELLING(t)) {
        eng_prompt p;
        p.n = 0;
        effect_options(s, f, &p);
        if (p.n > 1)
          SAY(t, -1,
              "Villain %d is swapping Villain %d's Mob %s (on %s) with "
              "another Mob.",
              me + 1, s->w[a].owner + 1, nm(a), nm(s->w[a].host));
      }
      return;
    } else {
      int m1 = f->a, m2 = a;
      pop(s);
      acted(t, op);
      sv_where w1 = s->w[m1], w2 = s->w[m2];
      SAY(t, -1,
          "Villain %d swapped Villain %d's Mob %s (on %s) with Villain %d's "
          "Mob %s (on %s).",
          me + 1, w1.owner + 1, nm(m1), nm(w1.host), w2.owner + 1, nm(m2),
          nm(w2.host));
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
    acted(t, op);
    destroy_mob(s, t, a, me, villain(t, me, by), me);
    return;
  case SV_OP_DESTROY_PROJECT:
    pop(s);
    acted(t, op);
    destroy_project(s, t, a, me, villain(t, me, by), me, "");
    return;
  case SV_OP_DESTROY_FACILITY:
    pop(s);
    acted(t, op);
    if (s->w[a].proof) {
      s->w[a].proof = 0; /* the token is discarded instead */
      SAY(t, -1,
          "Villain %d's attack only discarded the Asteroid-proof token of "
          "Villain %d's Secret Facility %s.",
          me + 1, s->w[a].owner + 1, nm(a));
    } else {
      destroy_facility(s, t, a, me, villain(t, me, by), me);
    }
    return;
  case SV_OP_REVERT_FACILITY: {
    pop(s);
    acted(t, op);
    int owner = s->w[a].owner;
    bool token = s->w[a].proof;
    put(s, a, SV_Z_PROJECT, owner); /* token discarded, ability switches */
    if (TELLING(t)) {
      char pts[96];
      points_text(s, owner, pts, sizeof pts);
      SAY(t, -1,
          "Villain %d turned Villain %d's Secret Facility %s back into a "
          "Project%s: %s.",
          me + 1, owner + 1, nm(a),
          token ? " (its Asteroid-proof token is discarded)" : "", pts);
    }
    return;
  }
  case SV_OP_CHARGE_ASTEROID:
    pop(s);
    acted(t, op);
    s->w[a].charged = 1;
    s->recheck = 1;
    if (TELLING(t)) {
      char w[24];
      if (s->w[a].owner == me)
        snprintf(w, sizeof w, "their");
      else
        snprintf(w, sizeof w, "Villain %d's", s->w[a].owner + 1);
      SAY(t, -1,
          "Villain %d put a Charge token on %s Asteroid %s (at Villain %d).",
          me + 1, w, ast_nm(a), s->w[a].target + 1);
    }
    return;
  case SV_OP_SHOOT_DOWN:
    pop(s);
    acted(t, op);
    SAY(t, -1,
        "Villain %d shot down Villain %d's %sAsteroid %s (it flew at Villain "
        "%d).",
        me + 1, s->w[a].owner + 1, s->w[a].charged ? "charged " : "", ast_nm(a),
        s->w[a].target + 1);
    to_ddisc(s, a);
    fire(s, SV_TRIG_YOU_SHOOT_DOWN, me, -1, me);
    return;
  case SV_OP_RETARGET:
    if (f->step == 0) {
      f->step = 1;
      f->a = (uint8_t)a;
      if (TELLING(t)) {
        int seats = 0;
        for (int x = 0; x < s->players; x++)
          seats += can_target(s, me, x);
        if (seats > 1)
          SAY(t, -1,
              "Villain %d is taking over Villain %d's Asteroid %s (at "
              "Villain %d).",
              me + 1, s->w[a].owner + 1, ast_nm(a), s->w[a].target + 1);
      }
    } else {
      int ast = f->a;
      pop(s);
      acted(t, op);
      int was_owner = s->w[ast].owner, was_target = s->w[ast].target;
      s->w[ast].owner = (uint8_t)me;
      s->w[ast].target = (uint8_t)a;
      s->w[ast].due = 0;
      s->recheck = 1;
      if (was_target == a)
        SAY(t, -1,
            "Villain %d took over Villain %d's %sAsteroid %s: it still flies "
            "at Villain %d.",
            me + 1, was_owner + 1, s->w[ast].charged ? "charged " : "",
            ast_nm(ast), a + 1);
      else
        SAY(t, -1,
            "Villain %d took over Villain %d's %sAsteroid %s: it flew at "
            "Villain %d and now flies at Villain %d.",
            me + 1, was_owner + 1, s->w[ast].charged ? "charged " : "",
            ast_nm(ast), was_target + 1, a + 1);
    }
    return;
  case SV_OP_ADD_PROOF:
    pop(s);
    acted(t, op);
    s->w[a].proof = 1;
    if (s->w[a].zone == SV_Z_MOB)
      SAY(t, -1,
          "Villain %d put an Asteroid-proof token on their Mob %s (on %s).",
          me + 1, nm(a), nm(s->w[a].host));
    else
      SAY(t, -1,
          "Villain %d put an Asteroid-proof token on their Secret Facility %s.",
          me + 1, nm(a));
    return;
  case SV_OP_REMOVE_PROOF:
    pop(s);
    acted(t, op);
    s->w[a].proof = 0;
    if (s->w[a].zone == SV_Z_MOB)
      SAY(t, -1,
          "Villain %d discarded the Asteroid-proof token of Villain %d's Mob "
          "%s (on %s).",
          me + 1, s->w[a].owner + 1, nm(a), nm(s->w[a].host));
    else
      SAY(t, -1,
          "Villain %d discarded the Asteroid-proof token of Villain %d's "
          "Secret Facility %s.",
          me + 1, s->w[a].owner + 1, nm(a));
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

static void frame_answer(sv_state *s, told *t, uint32_t code) {
  sv_frame *f = top(s);
  int a = OPT_A(code);
  switch ((sv_frame_kind)f->kind) {
  case SV_F_EFFECT:
    effect_answer(s, t, f, code);
    return;
  case SV_F_DISCARD:
    f->n--;
    to_mdisc(s, t, a);
    SAY(t, -1, "Villain %d discarded %s.", f->player + 1, nm(a));
    return;
  case SV_F_PLACE: {
    int card = f->a, how = f->b;
    pop(s);
    place_mob(s, t, card, a, how);
    return;
  }
  case SV_F_HIT: {
    int me = f->player, ast = f->a;
    char by[48] = "";
    if (TELLING(t))
      snprintf(by, sizeof by, "The Asteroid %s", ast_nm(ast));
    f->step = 2;
    if (s->w[a].zone == SV_Z_MOB) {
      if (s->w[a].proof && !s->w[ast].charged) {
        s->w[a].proof = 0; /* the token absorbs an uncharged hit */
        SAY(t, -1,
            "%s knocked the Asteroid-proof token off Villain %d's Mob %s (on "
            "%s), and the Mob survives.",
            by, s->w[a].owner + 1, nm(a), nm(s->w[a].host));
      } else {
        destroy_mob(s, t, a, me, TELLING(t) ? by : NULL, -1);
      }
    } else if (s->w[a].zone == SV_Z_PROJECT) {
      destroy_project(s, t, a, me, TELLING(t) ? by : NULL, -1, "");
    } else if (s->w[a].proof) {
      s->w[a].proof = 0; /* a Facility's token absorbs a charged hit */
      SAY(t, -1,
          "%s knocked the Asteroid-proof token off Villain %d's Secret "
          "Facility %s, and the Facility survives.",
          by, s->w[a].owner + 1, nm(a));
    } else {
      destroy_facility(s, t, a, me, TELLING(t) ? by : NULL, -1);
    }
    return;
  }
  case SV_F_TRIGGERS:
    for (int k = 0; k < f->n_list; k++)
      if (f->list[k] == a) {
        resolve_trigger(s, t, f, k);
        return;
      }
    return;
  case SV_F_LAUNCH: {
    int c = f->a, me = f->player;
    pop(s);
    put(s, c, SV_Z_ASTEROID, me);
    s->w[c].target = (uint8_t)a;
    SAY(t, -1, "Villain %d launched %s as an Asteroid at Villain %d.", me + 1,
        nm(c), a + 1);
    return;
  }
  case SV_F_COMPLETE:
  case SV_F_SHOOT:
    return;
  }
}

static void use_ability(sv_state *s, told *t, int i) {
  int me = s->current;
  bool facility = s->w[i].zone == SV_Z_FACILITY;
  const sv_ability *a = facility ? &C(i)->facility : &C(i)->project;
  int ab = (facility ? SV_AB_FACILITY : SV_AB_PROJECT) | a->kind;
  char cost[48] = "";
  if (TELLING(t) && a->cost)
    snprintf(cost, sizeof cost, ", paying %d Minion card%s", a->cost,
             a->cost == 1 ? "" : "s");
  if (a->kind == SV_KIND_ONCE_PER_TURN) {
    SAY(t, -1, "Villain %d used their %s %s%s.", me + 1,
        facility ? "Secret Facility" : "Project", nm(i), cost);
    s->w[i].used = 1;
    push_effects(s, a, me, i, ab);
  } else { /* "Destroy this": the card goes first, then its ability */
    push_effects(s, a, me, i, ab);
    if (facility) {
      to_ddisc(s, i); /* your own choice: "If destroyed" does not apply */
      if (TELLING(t)) {
        char pts[96];
        points_text(s, me, pts, sizeof pts);
        SAY(t, -1,
            "Villain %d destroyed their own Secret Facility %s for its "
            "ability%s: %s.",
            me + 1, nm(i), cost, pts);
      }
    } else {
      char by[24], why[64] = "";
      if (TELLING(t))
        snprintf(why, sizeof why, " for its ability%s", cost);
      destroy_project(s, t, i, me, villain(t, me, by), me, why);
    }
  }
  if (a->cost)
    push_discard(s, me, a->cost, SV_WHY_COST, i, ab, me);
}

static void do_answer(sv_state *s, uint32_t code, told *t) {
  int a = OPT_A(code);
  if (s->sp > 0) {
    frame_answer(s, t, code);
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
          if (TELLING(t)) {
            char cost[16];
            power_text(C(i)->cost, cost, sizeof cost);
            SAY(t, -1, "Villain %d started %s as a Project (it needs %s).",
                me + 1, nm(i), cost);
          }
        } else {
          put(s, i, SV_Z_ASTEROID, me);
          s->w[i].target = (uint8_t)a;
          SAY(t, -1, "Villain %d launched %s as an Asteroid at Villain %d.",
              me + 1, nm(i), a + 1);
        }
      }
    s->phase = SV_PH_DAY;
    return;
  case OPT_MOB: {
    sv_frame *f = push(s, SV_F_PLACE, me);
    if (f) {
      f->a = (uint8_t)a;
      f->b = PLACE_PLAY;
      f->src = (uint8_t)a;
    }
    /* The card stays in the hand until its Project is chosen: until then
     * only its player may know which it is. */
    if (TELLING(t) && count_in(s, SV_Z_PROJECT, me) > 1) {
      SAY(t, -1, "Villain %d is playing a Minion card as a Mob.", me + 1);
      SAY(t, me, "You are playing %s as a Mob.", nm(a));
    }
    return;
  }
  case OPT_OPS:
    if (!C(a)->swift && s->ops_left > 0)
      s->ops_left--;
    to_mdisc(s, t, a);
    SAY(t, -1, "Villain %d played %s as %sMinion Ops.", me + 1, nm(a),
        C(a)->swift ? "Swift " : "");
    push_effects(s, &C(a)->ops, me, a, SV_AB_OPS);
    return;
  case OPT_SHOOT: {
    sv_frame *f = push(s, SV_F_SHOOT, me);
    if (f)
      f->a = (uint8_t)a;
    SAY(t, -1,
        "Villain %d is shooting down Villain %d's %sAsteroid %s, discarding "
        "%d Minion cards.",
        me + 1, s->w[a].owner + 1, s->w[a].charged ? "charged " : "", ast_nm(a),
        s->w[a].charged ? 3 : 2);
    return;
  }
  case OPT_USE:
    use_ability(s, t, a);
    return;
  case OPT_CHARGE:
    s->w[a].charged = 1;
    s->recheck = 1;
    SAY(t, -1,
        "Villain %d charged their Asteroid %s (at Villain %d), discarding 3 "
        "Minion cards.",
        me + 1, ast_nm(a), s->w[a].target + 1);
    push_discard(s, me, 3, SV_WHY_CHARGE, a, 0, me);
    return;
  case OPT_END:
    SAY(t, -1, "Villain %d ended their Day.", me + 1);
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
  told t = {.op = -1}; /* nobody listens to the setup */
  for (int p = 0; p < s->players; p++)
    draw_minions(s, &t, p, 2);
  s->current =
      (uint8_t)(cfg->first >= 0 ? cfg->first
                                : (int)eng_rng_below(&s->rng, s->players));
  s->turn = 1;
  s->mobs_left = s->ops_left = 1;
  s->phase = SV_PH_START;
  run(s, &t);
  return ENG_OK;
}

static void sv_prompt(const void *st, eng_prompt *p) { options(st, p); }

/* The core hands apply() only codes of the current prompt (see eng.h), so
 * the options are not rebuilt here: that would double the cost of every
 * answer in random playouts. */
/* apply() and the tests' sv_apply_traced: one body, inlined into each so
 * that random playouts pay nothing for the trace. */
static inline eng_rc apply_told(void *st, uint32_t code, unsigned *flags,
                                eng_events *ev, sv_trace *trace) {
  sv_state *s = st;
  if (s->over)
    return ENG_GAME_OVER;
  told t = {.ev = ev, .trace = trace};
  t.op = trace && s->sp > 0 ? frame_op(top(s)) : -1;
  do_answer(s, code, &t);
  run(s, &t);
  *flags |= t.fl;
  return s->overflow ? ENG_INTERNAL : ENG_OK;
}

eng_rc sv_apply_traced(void *st, uint32_t code, unsigned *flags, eng_events *ev,
                       sv_trace *trace) {
  return apply_told(st, code, flags, ev, trace);
}

static eng_rc sv_apply(void *st, uint32_t code, unsigned *flags,
                       eng_events *ev) {
  return apply_told(st, code, flags, ev, NULL);
}

static void seat_name(int seat, char *buf, size_t cap) {
  snprintf(buf, cap, "Villain %d", seat + 1);
}

static void power_of(int i, char *buf, size_t cap) {
  sv_format_power(i < DOM_LO ? C(i)->power : C(i)->cost, buf, cap);
}

/* Whether a Mob placement's or a launch's frame knows its source: frames
 * saved before the source was kept hold src 0, and a card whose Ops
 * cannot cause op is no source. */
static bool source_known(int src, int op) {
  if (src >= DOM_LO)
    return true;
  const sv_ability *a = &C(src)->ops;
  for (int k = 0; k < a->n_effects; k++)
    if (a->eff[k].op == op)
      return true;
  return false;
}

/* The question of the decision on top of the stack, naming the card whose
 * ability or rule asks it. */
static void frame_question(const sv_state *s, const sv_frame *f, char *buf,
                           size_t cap) {
  char src[64];
  switch ((sv_frame_kind)f->kind) {
  case SV_F_DISCARD: {
    char left[24] = "";
    if (f->n > 1)
      snprintf(left, sizeof left, " (%d to go)", f->n);
    switch (f->b) {
    case SV_WHY_COST: {
      const sv_ability *a = SV_AB_SIDE(f->step) == SV_AB_FACILITY
                                ? &C(f->src)->facility
                                : &C(f->src)->project;
      source_text(f->src, f->step, src, sizeof src);
      if (f->src >= DOM_LO && SV_AB_SIDE(f->step) && a->cost)
        snprintf(buf, cap, "%s costs %d Minion card%s: discard which%s?", src,
                 a->cost, a->cost == 1 ? "" : "s", left);
      else
        snprintf(buf, cap, "%s: discard which Minion card%s?", src, left);
      return;
    }
    case SV_WHY_SHOOT:
      snprintf(buf, cap,
               "Shooting down the Asteroid %s: discard which Minion card%s?",
               ast_nm(f->src), left);
      return;
    case SV_WHY_CHARGE:
      snprintf(buf, cap,
               "Charging the Asteroid %s: discard which Minion card%s?",
               ast_nm(f->src), left);
      return;
    case SV_WHY_EVENING:
      snprintf(buf, cap,
               "Evening, down to %d cards: discard which Minion card%s?",
               SV_HAND_LIMIT, left);
      return;
    case SV_WHY_EFFECT:
      source_text(f->src, f->step, src, sizeof src);
      if (f->a != f->player)
        snprintf(buf, cap, "Villain %d's %s: discard which Minion card%s?",
                 f->a + 1, src, left);
      else
        snprintf(buf, cap, "%s: discard which Minion card%s?", src, left);
      return;
    default:
      snprintf(buf, cap, "Discard which Minion card%s?", left);
      return;
    }
  }
  case SV_F_PLACE:
    if (f->b == PLACE_PLAY) {
      snprintf(buf, cap, "Play %s as a Mob onto which of your Projects?",
               nm(f->a));
      return;
    }
    if (!source_known(f->src, frame_op(f))) {
      snprintf(buf, cap, "Put %s onto which of your Projects?", nm(f->a));
      return;
    }
    source_text(f->src, f->n, src, sizeof src);
    snprintf(buf, cap, "%s: put %s onto which of your Projects?", src,
             nm(f->a));
    return;
  case SV_F_HIT:
    snprintf(buf, cap, "Your Asteroid %s hits Villain %d: destroy what?",
             ast_nm(f->a), s->w[f->a].target + 1);
    return;
  case SV_F_TRIGGERS:
    snprintf(buf, cap,
             "Several abilities trigger at once: which resolves "
             "first?");
    return;
  case SV_F_LAUNCH:
    if (!source_known(f->src, SV_OP_LAUNCH_ASTEROID)) {
      snprintf(buf, cap, "Launch %s as an Asteroid at which Villain?",
               nm(f->a));
      return;
    }
    source_text(f->src, f->b, src, sizeof src);
    snprintf(buf, cap, "%s: launch %s as an Asteroid at which Villain?", src,
             nm(f->a));
    return;
  case SV_F_COMPLETE:
  case SV_F_SHOOT:
    buf[0] = '\0';
    return;
  case SV_F_EFFECT:
    break;
  }
  const char *q = "choose";
  char what[96];
  switch ((sv_op)f->op) {
  case SV_OP_DESTROY_OWN_PROJECT:
    q = "destroy which of your Projects";
    break;
  case SV_OP_TAKE_DISCARD_PROJECT:
    q = "take which Domination card from the discard pile as your Project";
    break;
  case SV_OP_TAKE_DISCARD_MINION:
    if (f->n > 1) {
      snprintf(what, sizeof what,
               "take which Minion card from the discard pile (%d to go)", f->n);
      q = what;
    } else {
      q = "take which Minion card from the discard pile";
    }
    break;
  case SV_OP_PUT_MOB_FROM_HAND:
    q = "put which Minion card from your hand as a Mob";
    break;
  case SV_OP_PUT_MOB_FROM_DISCARD:
    q = "put which Minion card from the discard pile as a Mob";
    break;
  case SV_OP_STEAL_MOB:
    q = "steal which Mob";
    break;
  case SV_OP_SWAP_MOBS:
    if (f->step) {
      snprintf(what, sizeof what, "swap %s with which Mob", nm(f->a));
      q = what;
    } else {
      q = "swap which Mob";
    }
    break;
  case SV_OP_DESTROY_MOB:
    q = "destroy which Mob";
    break;
  case SV_OP_DESTROY_PROJECT:
    q = "destroy which Project";
    break;
  case SV_OP_DESTROY_FACILITY:
    q = "destroy which Secret Facility";
    break;
  case SV_OP_REVERT_FACILITY:
    q = "turn which Secret Facility back into a Project";
    break;
  case SV_OP_CHARGE_ASTEROID:
    q = "put a Charge token on which Asteroid";
    break;
  case SV_OP_SHOOT_DOWN:
    q = "shoot down which Asteroid";
    break;
  case SV_OP_RETARGET:
    if (f->step) {
      snprintf(what, sizeof what, "point the Asteroid %s at which Villain",
               ast_nm(f->a));
      q = what;
    } else {
      q = "retarget which Asteroid";
    }
    break;
  case SV_OP_ADD_PROOF:
    q = f->scope == SV_SCOPE_DEFAULT
            ? "put an Asteroid-proof token on which Mob"
        : f->scope == SV_SCOPE_FACILITY
            ? "put an Asteroid-proof token on which Secret Facility"
            : "put an Asteroid-proof token on which Mob or Secret Facility";
    break;
  case SV_OP_REMOVE_PROOF:
    q = "discard which Asteroid-proof token";
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
  source_text(f->src, f->b, src, sizeof src);
  snprintf(buf, cap, "%s: %s?", src, q);
}

static void sv_question(const void *st, const eng_prompt *p, char *buf,
                        size_t cap) {
  const sv_state *s = st;
  (void)p;
  if (cap == 0)
    return;
  if (s->over) {
    snprintf(buf, cap, "The game is over.");
  } else if (s->sp > 0) {
    frame_question(s, &s->stack[s->sp - 1], buf, cap);
  } else if (s->phase == SV_PH_ACT3) {
    int drawn = -1;
    for (int i = DOM_LO; i < SV_N; i++)
      if (s->w[i].zone == SV_Z_LIMBO)
        drawn = i;
    snprintf(buf, cap, "Start %s as a Project, or launch it as an Asteroid?",
             drawn >= 0 ? nm(drawn) : "the drawn card");
  } else {
    snprintf(buf, cap, "Your Day: what next?");
  }
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
      eng_label(label, "Start %s as a Project", d);
    } else {
      seat_name(a, who, sizeof who);
      snprintf(id, ENG_ID_MAX + 1, "launch.%d", a + 1);
      eng_label(label, "Launch %s as an Asteroid at %s",
                drawn >= 0 ? C(drawn)->name : "it", who);
    }
    return;
  }
  case OPT_MOB:
    power_of(a, pw, sizeof pw);
    snprintf(id, ENG_ID_MAX + 1, "mob.c%d", a);
    eng_label(label, "Play %s as a Mob (%s%s)", C(a)->name, pw,
              C(a)->boosted ? ", Boosted" : "");
    return;
  case OPT_OPS:
    snprintf(id, ENG_ID_MAX + 1, "ops.c%d", a);
    eng_label(label, "Play %s as %sMinion Ops", C(a)->name,
              C(a)->swift ? "Swift " : "");
    return;
  case OPT_SHOOT:
    describe(s, a, d, sizeof d);
    snprintf(id, ENG_ID_MAX + 1, "shoot.c%d", a);
    eng_label(label, "Shoot down %s (discard %d)", d, s->w[a].charged ? 3 : 2);
    return;
  case OPT_USE:
    snprintf(id, ENG_ID_MAX + 1, "use.c%d", a);
    eng_label(label, "Use %s: %s", C(a)->name,
              s->w[a].zone == SV_Z_FACILITY ? C(a)->facility.text
                                            : C(a)->project.text);
    return;
  case OPT_CHARGE:
    describe(s, a, d, sizeof d);
    snprintf(id, ENG_ID_MAX + 1, "charge.c%d", a);
    eng_label(label, "Charge %s (discard 3)", d);
    return;
  case OPT_END:
    snprintf(id, ENG_ID_MAX + 1, "end");
    eng_label(label, "End your day");
    return;
  case OPT_STOP:
    snprintf(id, ENG_ID_MAX + 1, "stop");
    eng_label(label, "Stop");
    return;
  case OPT_SEAT:
    seat_name(a, who, sizeof who);
    snprintf(id, ENG_ID_MAX + 1, "seat.%d", a + 1);
    eng_label(label, "%s", who);
    return;
  case OPT_PICK:
  default:
    describe(s, a, d, sizeof d);
    snprintf(id, ENG_ID_MAX + 1, "pick.c%d", a);
    if (s->sp > 0 && s->stack[s->sp - 1].kind == SV_F_DISCARD)
      eng_label(label, "Discard %s", d);
    else
      eng_label(label, "%s", d);
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
    .colour = 0x8e1b2f, /* a villain's cape: deep crimson */
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
    .ai = sv_ai_choose,
    .ai_why = sv_ai_why,
};
