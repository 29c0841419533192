/*
 * dis_ai.c: the heuristic Disorder player (the ruleset's ai hook).
 *
 * It measures a seat's standing by its plan: how many Plays it still
 * needs to mint two Villains. For every pair of its Villains and every
 * reading of their Sequences it counts the Monsters its row already
 * holds, those still to come from its hand (ready now) or its deck (later,
 * the rarer the letter the later), what bringing each Villain into its row
 * costs, and whether the Monsters left after the first mint can still
 * complete the second. The opponent is measured the same way from what
 * the table shows: their rows, and their cards nobody sees, hand and deck
 * as one set. Every option is scored by how it changes my plan against
 * theirs: a Play by the row and hand it leaves and the !!! it sets off, a
 * BURN by what the card meant to its owner, a NEGATE by what the trait
 * beneath it would have done. Traits that are used once while in play
 * keep a reserve, so that they are not spent on nothing.
 *
 * It reads only what its seat may see: both play areas and minted areas,
 * the chain, its own hand, the sizes of hands and decks, and which cards
 * of each deck list are nowhere in sight (its own deck as a set; the
 * opponent's hand and deck as one set). It never looks at the order of a
 * deck, at the opponent's hand or at the game's generator; it copies no
 * game state, allocates nothing, and takes its tie-breaks from the rng it
 * is given.
 */
#include "dis.h"

#include <stdio.h>
#include <string.h>

/* Weights, in Plays: one turn's Play is 1. They were tuned on playouts
 * against random seats (both modes, both seats, 8,000 games each). */
#define LAMBDA 0.6         /* a Play of the opponent's against one of mine */
#define URGENT 1.0         /* the opponent one Play from a mint, or at it */
#define WIN 50.0           /* a winning mint at hand */
#define MINT_NOW 1.0       /* a first mint at hand */
#define NO_MORE 10.0       /* a mint its Monsters can no longer complete */
#define FAR_K 0.2          /* waiting for a deck's Monster, per deck card */
#define FAR_MAX 2.5        /* ... at most */
#define SECOND_FAR 0.5     /* the same for the second mint (drawn meanwhile) */
#define VHAND 1.4          /* a Villain in the hand: a Play, and late */
#define VFAR_K 0.7         /* waiting for a deck's Villain, per deck card */
#define VFAR_MAX 8.0       /* ... at most */
#define VFAR2 0.3          /* the same for the second mint (drawn meanwhile) */
#define OPP_FAR 0.3        /* one of the opponent's unseen Monsters */
#define OPP_VILLAIN 0.5    /* one of the opponent's unseen Villains */
#define ENGINE 0.3         /* a ready ⏳ DROP in play, and a Monster for it */
#define DRAW_VALUE 0.35    /* a card drawn */
#define DISCARD_VALUE 0.3  /* a card the opponent discards */
#define RESERVE_HIT 0.25   /* keeping a once-in-play BURN, BOUNCE, FLIP */
#define RESERVE_NEGATE 0.4 /* keeping a NEGATE */
#define RESERVE_COPY 0.2   /* keeping a COPY */
#define ENTER_RISK 0.5     /* that the opponent's 🧠 answers what enters */
#define BIG 1e9            /* more than any plan costs */

enum { NVIL = 4, NREAD = 12, NFX = 4 }; /* Villains, readings, aliases */
/* Where one of a seat's Villains is. */
enum { W_ROW, W_HAND, W_HIDDEN, W_GONE };
/* The two sides of a position, as the AI sees them. */
enum { ME, OPP };

/* Letter counts, packed one byte a letter (A lowest) so that a whole
 * multiset is compared or subtracted at once; no count exceeds 40. */
typedef uint32_t letters;
#define LANES_HI 0x80808080u

static letters pack(const int v[DIS_LETTERS]) {
  return (letters)v[0] | (letters)v[1] << 8 | (letters)v[2] << 16 |
         (letters)v[3] << 24;
}

static int lane(letters a, int l) { return (int)(a >> (8 * l) & 0xFFu); }

/* Whether every count of a is at most b's. */
static bool fits_in(letters a, letters b) {
  return (((b | LANES_HI) - a) & LANES_HI) == LANES_HI;
}

/* The smaller count of each letter. */
static letters lmin(letters a, letters b) {
  letters ge = ((a | LANES_HI) - b) & LANES_HI; /* letters where a >= b */
  letters m = (ge >> 7) * 0xFFu;
  return (b & m) | (a & ~m);
}

static int total(letters a) { return (int)((a * 0x01010101u) >> 24); }

/* The distinct letter multisets that match a Sequence. */
typedef struct reads {
  int n;
  letters w[NREAD];
} reads;

/* One seat as the AI sees it, and as an option would leave it. */
typedef struct side {
  int seat;
  bool own; /* the AI's seat: its hand is known */
  int minted;
  int nv; /* its Villains neither minted nor discarded */
  uint8_t v[NVIL];
  uint8_t vw[NVIL]; /* W_* */
  reads vr[NVIL];
  int n_row;
  uint8_t row[DIS_ROW]; /* the Monster row */
  int n_hand;
  uint8_t hand[DIS_CARDS]; /* own seat: the hand */
  int far[DIS_LETTERS];    /* Monsters still to come: own deck, or the
                              opponent's hand and deck together */
  int n_fx;                /* far Monsters that may also count as fx_b */
  int8_t fx_a[NFX], fx_b[NFX];
  double fp[DIS_LETTERS]; /* what waiting for one far Monster costs */
  double vfar;            /* what waiting for an unseen Villain costs */
  /* The plan, once measured (cost < 0: not yet). */
  double cost, c1;
  int drops;    /* drops(), measured with it */
  letters need; /* the Monsters its first mint still needs */
} side;

typedef struct ctx {
  const dis_state *s;
  int me;
  const dis_card *card[DIS_CARDS];       /* each instance's definition */
  int8_t let[DIS_CARDS], ali[DIS_CARDS]; /* a Monster's letters; -1 */
  bool drop[DIS_CARDS]; /* has a ⏳ DROP of its controller's turn */
  side sd[2];           /* [ME], [OPP] as they are */
  double u0;            /* their standing */
} ctx;

/* A trait to be carried out, as the AI weighs it. */
typedef struct act {
  int who; /* ME or OPP: whose trait it is (they make its choices) */
  const dis_trait *tr;
  int self, subj;          /* its card; "it" (DIS_NONE: none) */
  int ans_card, ans_trait; /* a 🧠 COPY's answered trait (DIS_NONE) */
  int below;               /* the chain entry a NEGATE cancels (-1: none) */
} act;

/* ---- cards --------------------------------------------------------------- */

static int trait_with(const ctx *k, int i, int timing) {
  const dis_card *c = k->card[i];
  for (int t = 0; t < c->n_traits; t++)
    if (c->t[t].timing == timing)
      return t;
  return -1;
}

/* The letter Monster i may also count as, or -1. */
static int alias_of(const ctx *k, int i) {
  const dis_card *c = k->card[i];
  for (int t = 0; t < c->n_traits; t++)
    if (c->t[t].timing == DIS_T_ALWAYS && c->t[t].mod == DIS_MOD_ALIAS)
      return c->t[t].letter;
  return -1;
}

/* Card i's trait that is marked when used (⏳, 🧠, 👤), or -1. */
static int marked_trait(const ctx *k, int i) {
  const dis_card *c = k->card[i];
  for (int t = 0; t < c->n_traits; t++)
    if (c->t[t].timing == DIS_T_TIMED || c->t[t].timing == DIS_T_INTERRUPT ||
        c->t[t].timing == DIS_T_AFTER_MINT)
      return t;
  return -1;
}

/* As the rules' trait_ready: unused and not put into play this turn. */
static bool ready_now(const dis_state *s, int i) {
  return !s->used[i] && s->entered[i] != s->turn;
}

static void seq_reads(const char *seq, reads *r) {
  int listed[DIS_LETTERS] = {0}, nx = 0, ny = 0;
  for (int k = 0; k < DIS_SEQ && seq[k]; k++) {
    int l = dis_dna_letter(seq[k]);
    if (l >= 0)
      listed[l]++;
    else if (seq[k] == 'x')
      nx++;
    else if (seq[k] == 'y')
      ny++;
  }
  letters base = pack(listed);
  r->n = 0;
  /* As many x's as y's: x and y swapped give the same letters. */
  for (int x = nx ? 0 : -1; x < (nx ? DIS_LETTERS : 0); x++) {
    if (x >= 0 && listed[x])
      continue;
    for (int y = ny ? (nx == ny ? x + 1 : 0) : -1; y < (ny ? DIS_LETTERS : 0);
         y++) {
      if (y >= 0 && (listed[y] || y == x))
        continue;
      if (r->n < NREAD)
        r->w[r->n++] = base + (x >= 0 ? (letters)nx << (8 * x) : 0) +
                       (y >= 0 ? (letters)ny << (8 * y) : 0);
    }
  }
}

/* Whether card x (on seat xseat's side) fits f for a trait of controller
 * ctrl whose card is self and subject subj: the rules' filter. */
static bool fits_f(const ctx *k, const dis_filter *f, int ctrl, int self,
                   int subj, int x, int xseat) {
  return dis_fits(k->s, f, ctrl, self, subj, x, xseat);
}

/* ---- the plan ------------------------------------------------------------ */

/* Seat as it stands, seen by the AI (own: its own seat). */
static void side_build(const ctx *k, int seat, bool own, side *S) {
  const dis_state *s = k->s;
  memset(S, 0, sizeof *S);
  S->seat = seat;
  S->own = own;
  S->minted = s->n_minted[seat];
  S->cost = -1;
  for (int i = seat * DIS_DECK; i < (seat + 1) * DIS_DECK; i++) {
    const dis_card *c = k->card[i];
    int z = s->zone[i];
    bool hidden = z == DIS_Z_DECK || (z == DIS_Z_HAND && !own);
    if (own && z == DIS_Z_HAND)
      S->hand[S->n_hand++] = (uint8_t)i;
    if (c->kind == DIS_KIND_VILLAIN) {
      if ((z == DIS_Z_VROW || z == DIS_Z_HAND || z == DIS_Z_DECK) &&
          S->nv < NVIL) {
        int k = S->nv++;
        S->v[k] = (uint8_t)i;
        S->vw[k] = z == DIS_Z_VROW ? W_ROW : hidden ? W_HIDDEN : W_HAND;
        seq_reads(c->seq, &S->vr[k]);
      }
    } else if (hidden) {
      S->far[c->letter]++;
      int a = alias_of(k, i);
      if (a >= 0 && S->n_fx < NFX) {
        S->fx_a[S->n_fx] = c->letter;
        S->fx_b[S->n_fx++] = (int8_t)a;
      }
    }
  }
  for (int k = 0; k < s->n_mrow[seat]; k++)
    S->row[S->n_row++] = s->mrow[seat][k];
  if (own) {
    double n = s->n_deck[seat] + 1;
    for (int l = 0; l < DIS_LETTERS; l++) {
      double f = FAR_K * n / (S->far[l] + 1);
      S->fp[l] = f < FAR_MAX ? f : FAR_MAX;
    }
    S->vfar = VFAR_K * n < VFAR_MAX ? VFAR_K * n : VFAR_MAX;
  } else {
    for (int l = 0; l < DIS_LETTERS; l++)
      S->fp[l] = OPP_FAR;
    S->vfar = OPP_VILLAIN;
  }
}

/* Whether the Monsters T (and the aliases fa -> fb among them) can
 * supply need. */
static bool supply_ok(letters need, letters T, const int8_t *fa,
                      const int8_t *fb, int nf) {
  if (fits_in(need, T))
    return true;
  int d[DIS_LETTERS];
  for (int l = 0; l < DIS_LETTERS; l++)
    d[l] = lane(need, l) - lane(T, l);
  for (int f = 0; f < nf; f++)
    if (d[fb[f]] > 0 && d[fa[f]] < 0) {
      d[fb[f]]--;
      d[fa[f]]++;
    }
  for (int l = 0; l < DIS_LETTERS; l++)
    if (d[l] > 0)
      return false;
  return true;
}

/* What waiting for the Monsters `more` costs, at fp[l] each. */
static double waiting(letters more, const double fp[DIS_LETTERS]) {
  double c = 0;
  for (int l = 0; more && l < DIS_LETTERS; l++, more >>= 8)
    c += (more & 0xFFu) * fp[l];
  return c;
}

/* What having S's Villain k in its Villain row costs. */
static double villain_cost(const side *S, int k) {
  switch (S->vw[k]) {
  case W_ROW:
    return 0;
  case W_HAND:
    return VHAND;
  default:
    return VHAND + S->vfar;
  }
}

/* The extra Monsters seat S can put into play on its turns: its ready
 * ⏳ DROP traits in play, as far as its hand can feed them. */
static int drops(const ctx *k, const side *S) {
  const dis_state *s = k->s;
  int n = 0, held = 0;
  for (int q = 0; q < S->nv + S->n_row; q++) {
    int x = q < S->nv ? S->v[q] : S->row[q - S->nv];
    if (k->drop[x] && (q >= S->nv || S->vw[q] == W_ROW) &&
        !(s->used[x] && s->side[x] == S->seat && dis_in_play(s, x)))
      n++;
  }
  if (!n)
    return 0;
  if (S->own) {
    for (int j = 0; j < S->n_hand; j++)
      held += k->let[S->hand[j]] >= 0;
  } else {
    held = s->n_hand[S->seat];
  }
  return n < held ? n : held;
}

/* The Plays seat S still needs to mint two Villains (one, when it has
 * minted one); S->c1 and S->need receive its nearest mint's cost and
 * the Monsters that one still needs. */
static double plan_cost(const ctx *k, side *S) {
  if (S->cost >= 0)
    return S->cost;
  int nearv[DIS_LETTERS] = {0};
  int8_t fa[2 * NFX], fb[2 * NFX];
  int nf = 0;
  for (int f = 0; f < S->n_fx; f++) {
    fa[nf] = S->fx_a[f];
    fb[nf++] = S->fx_b[f];
  }
  for (int j = 0; j < S->n_hand; j++) {
    int x = S->hand[j];
    if (k->let[x] < 0)
      continue;
    nearv[k->let[x]]++;
    if (k->ali[x] >= 0 && nf < 2 * NFX) {
      fa[nf] = k->let[x];
      fb[nf++] = k->ali[x];
    }
  }
  letters near = pack(nearv), T = near + pack(S->far);
  /* The row's letters, every way its aliases can count. */
  letters cnt[1 << DIS_ROW];
  int nc = 1;
  cnt[0] = 0;
  for (int j = 0; j < S->n_row; j++) {
    int x = S->row[j], a = k->ali[x];
    for (int c = 0, n = nc; a >= 0 && c < n; c++)
      cnt[nc++] = cnt[c] + ((letters)1 << (8 * a));
    for (int c = 0; c < (a >= 0 ? nc / 2 : nc); c++)
      cnt[c] += (letters)1 << (8 * k->let[x]);
  }
  /* The first mints its Monsters can complete, cheapest first. */
  struct first {
    double c1;
    int vi;
    letters need; /* the Monsters it still needs */
  } fm[NVIL * NREAD];
  int n_fm = 0;
  double vc[NVIL];
  for (int i = 0; i < S->nv; i++) {
    vc[i] = villain_cost(S, i);
    if (S->vw[i] == W_GONE)
      continue;
    for (int r = 0; r < S->vr[i].n; r++) {
      letters w = S->vr[i].w[r];
      struct first e = {.c1 = BIG, .vi = i};
      for (int c = 0; c < nc; c++) {
        letters need = w - lmin(cnt[c], w);
        if (!fits_in(need, T) && !supply_ok(need, T, fa, fb, nf))
          continue;
        letters more = need - lmin(need, near);
        double c1 = vc[i] + total(need) + (more ? waiting(more, S->fp) : 0);
        if (c1 < e.c1) {
          e.c1 = c1;
          e.need = need;
        }
      }
      if (e.c1 >= BIG)
        continue;
      if (e.c1 > NO_MORE)
        e.c1 = NO_MORE;
      int at = n_fm++;
      while (at > 0 && fm[at - 1].c1 > e.c1) {
        fm[at] = fm[at - 1];
        at--;
      }
      fm[at] = e;
    }
  }
  /* The second mints, cheapest first (waiting counted against the hand
   * as it is now: the first mint's Plays bring in more meanwhile). */
  struct second {
    double c;
    int vi;
    letters w;
  } sm[NVIL * NREAD];
  int n_sm = 0;
  for (int j = 0; j < S->nv && !S->minted && n_fm; j++) {
    if (S->vw[j] == W_GONE)
      continue;
    double vj =
        DIS_SEQ + (S->vw[j] == W_HIDDEN ? VHAND + VFAR2 * S->vfar : vc[j]);
    for (int r = 0; r < S->vr[j].n; r++) {
      letters w = S->vr[j].w[r];
      struct second e = {vj + SECOND_FAR * waiting(w - lmin(w, near), S->fp), j,
                         w};
      int at = n_sm++;
      while (at > 0 && sm[at - 1].c > e.c) {
        sm[at] = sm[at - 1];
        at--;
      }
      sm[at] = e;
    }
  }
  double best = S->minted ? NO_MORE : 2 * NO_MORE;
  for (int f = 0; f < n_fm; f++) {
    const struct first *e = &fm[f];
    if (e->c1 >= best)
      break;
    double c2 = 0;
    if (!S->minted) {
      c2 = NO_MORE;
      letters rem = T - lmin(T, e->need);
      for (int j = 0; j < n_sm && sm[j].c < c2 && e->c1 + sm[j].c < best; j++)
        if (sm[j].vi != e->vi &&
            (fits_in(sm[j].w, rem) || supply_ok(sm[j].w, rem, fa, fb, nf)))
          c2 = sm[j].c;
    }
    if (e->c1 + c2 < best)
      best = e->c1 + c2;
  }
  S->cost = best;
  S->drops = drops(k, S);
  S->c1 = n_fm ? fm[0].c1 : NO_MORE;
  S->need = n_fm ? fm[0].need : 0;
  return best;
}

/* My standing: my plan against the opponent's. */
static double standing(const ctx *k, side sd[2]) {
  double u = -plan_cost(k, &sd[ME]) + LAMBDA * plan_cost(k, &sd[OPP]);
  u += ENGINE * (sd[ME].drops - LAMBDA * sd[OPP].drops);
  if (sd[OPP].c1 < 2)
    u -= URGENT * (2 - sd[OPP].c1) / 2;
  /* A mint at hand: mine is made this turn and cannot be answered; the
   * opponent's, if it is their second, ends the game unless stopped. */
  if (sd[ME].c1 <= 0)
    u += sd[ME].minted ? WIN : MINT_NOW;
  if (sd[OPP].c1 <= 0 && sd[OPP].minted)
    u -= LAMBDA * WIN;
  return u;
}

/* ---- positions an option leaves ------------------------------------------ */

static void hand_take(side *S, int x) {
  for (int k = 0; k < S->n_hand; k++)
    if (S->hand[k] == x) {
      memmove(S->hand + k, S->hand + k + 1, (size_t)(S->n_hand - k - 1));
      S->n_hand--;
      S->cost = -1;
      return;
    }
}

static int villain_index(const side *S, int x) {
  for (int k = 0; k < S->nv; k++)
    if (S->v[k] == x)
      return k;
  return -1;
}

/* Card x goes back to its owner (seat): to the hand, or out of sight. */
static void to_owner_hand(const ctx *k, side sd[2], int x) {
  side *O = sd[ME].seat == dis_owner(x) ? &sd[ME] : &sd[OPP];
  O->cost = -1;
  int v = villain_index(O, x);
  if (v >= 0) {
    O->vw[v] = O->own ? W_HAND : W_HIDDEN;
    return;
  }
  if (O->own) {
    if (O->n_hand < DIS_CARDS)
      O->hand[O->n_hand++] = (uint8_t)x;
    return;
  }
  int l = k->card[x]->letter, a = alias_of(k, x);
  O->far[l]++;
  if (a >= 0 && O->n_fx < NFX) {
    O->fx_a[O->n_fx] = (int8_t)l;
    O->fx_b[O->n_fx++] = (int8_t)a;
  }
}

/* Card x leaves the play area it is in: to its owner's hand (a BOUNCE)
 * or for good. */
static void leave_area(const ctx *k, side sd[2], int x, bool to_hand) {
  for (int q = 0; q < 2; q++) {
    side *S = &sd[q];
    for (int j = 0; j < S->n_row; j++)
      if (S->row[j] == x) {
        memmove(S->row + j, S->row + j + 1, (size_t)(S->n_row - j - 1));
        S->n_row--;
        S->cost = -1;
        if (to_hand)
          to_owner_hand(k, sd, x);
        return;
      }
    int v = villain_index(S, x);
    if (v >= 0 && S->vw[v] == W_ROW) {
      S->vw[v] = W_GONE;
      S->cost = -1;
      if (to_hand)
        to_owner_hand(k, sd, x);
      return;
    }
  }
}

/* Whether a Monster before row[j] counts for the plan exactly as row[j]
 * does (letters, and a ready ⏳ DROP). */
static bool same_before(const ctx *k, const uint8_t *row, int j) {
  int x = row[j];
  bool dx = k->drop[x] && !k->s->used[x];
  for (int i = 0; i < j; i++) {
    int y = row[i];
    if (k->let[y] == k->let[x] && k->ali[y] == k->ali[x] &&
        (k->drop[y] && !k->s->used[y]) == dx)
      return true;
  }
  return false;
}

/* The best standing once card x (from my hand) enters my play area,
 * making room the best way; sd becomes that position. */
static double enter_mine(const ctx *k, side sd[2], int x) {
  side *S = &sd[ME];
  hand_take(S, x);
  if (k->card[x]->kind == DIS_KIND_VILLAIN) {
    int v = villain_index(S, x);
    if (v >= 0)
      S->vw[v] = W_ROW;
    S->cost = -1;
    return standing(k, sd);
  }
  if (S->n_row < DIS_ROW) {
    S->row[S->n_row++] = (uint8_t)x;
    S->cost = -1;
    return standing(k, sd);
  }
  double best = -BIG;
  side keep[2];
  for (int j = 0; j < DIS_ROW; j++) {
    if (same_before(k, S->row, j))
      continue; /* as good as discarding that one */
    side t[2] = {sd[0], sd[1]};
    t[ME].row[j] = (uint8_t)x;
    t[ME].cost = -1;
    double u = standing(k, t);
    if (u > best) {
      best = u;
      keep[0] = t[0];
      keep[1] = t[1];
    }
  }
  sd[0] = keep[0];
  sd[1] = keep[1];
  return best;
}

/* Whether card x, on side X, is warded against op of seat ctrl. */
static bool warded_f(const ctx *k, const side *X, int x, int ctrl, int op) {
  const dis_state *s = k->s;
  if (X->seat == ctrl)
    return false;
  uint8_t area[NVIL + DIS_ROW + DIS_ROW];
  int n = 0;
  for (int j = 0; j < X->nv; j++)
    if (X->vw[j] == W_ROW)
      area[n++] = X->v[j];
  for (int j = 0; j < X->n_row; j++)
    area[n++] = X->row[j];
  for (int j = 0; j < s->n_minted[X->seat] && j < DIS_ROW; j++)
    area[n++] = s->minted[X->seat][j];
  for (int j = 0; j < n; j++) {
    int t = trait_with(k, area[j], DIS_T_ALWAYS);
    if (t < 0)
      continue;
    const dis_trait *tr = &k->card[area[j]]->t[t];
    if (tr->mod == DIS_MOD_WARD && (tr->against & (1u << op)) &&
        fits_f(k, &tr->target, X->seat, area[j], DIS_NONE, x, X->seat))
      return true;
  }
  return false;
}

/* The cards in S's play area: its Villain row, then its Monster row. */
static int area_of(const side *S, uint8_t *out) {
  int n = 0;
  for (int k = 0; k < S->nv; k++)
    if (S->vw[k] == W_ROW)
      out[n++] = S->v[k];
  for (int k = 0; k < S->n_row; k++)
    out[n++] = S->row[k];
  return n;
}

/* What READYing card x is worth to its controller. */
static double ready_value(const ctx *k, int x) {
  int t = marked_trait(k, x);
  if (t < 0)
    return 0;
  const dis_trait *tr = &k->card[x]->t[t];
  if (tr->op == DIS_OP_COPY || tr->op == DIS_OP_READY)
    return -50; /* a COPY that READYs a COPY would never end the turn */
  if (tr->timing == DIS_T_INTERRUPT ||
      (tr->timing == DIS_T_TIMED && tr->trigger == DIS_TR_OWN_TURN))
    return 0.4;
  return 0.25;
}

/* ---- what a trait does --------------------------------------------------- */

static double eff(const ctx *k, side sd[2], const act *a, int depth);

/* What chain entry idx does to me if it resolves. */
static double entry_value(const ctx *k, side sd[2], int idx, int depth) {
  const dis_state *s = k->s;
  const dis_entry *e = &s->chain[idx];
  act a = {.who = e->ctrl == k->me ? ME : OPP,
           .tr = &k->card[e->card]->t[e->trait],
           .self = e->card,
           .subj = e->subject,
           .ans_card = e->ans_card,
           .ans_trait = e->ans_trait,
           .below = idx - 1};
  return eff(k, sd, &a, depth);
}

static bool better(int who, bool any, double best, double v) {
  return !any || (who == ME ? v > best : v < best);
}

/* The opponent DROPs a card of their hand, unseen: what it costs me if
 * it is a Monster their nearest mint needs, times the chance that their
 * hand holds one. */
static double opp_drop(const ctx *k, side sd[2]) {
  const dis_state *s = k->s;
  side *O = &sd[OPP];
  int held = s->n_hand[O->seat], hidden = 0, good = 0, pick = -1;
  double u = standing(k, sd);
  for (int l = 0; l < DIS_LETTERS; l++) {
    hidden += O->far[l];
    if (lane(O->need, l) > 0)
      good += O->far[l];
  }
  /* Any of their unseen Monsters of such a letter stands for it. */
  for (int i = O->seat * DIS_DECK; i < (O->seat + 1) * DIS_DECK; i++)
    if (pick < 0 && (s->zone[i] == DIS_Z_HAND || s->zone[i] == DIS_Z_DECK) &&
        k->let[i] >= 0 && lane(O->need, k->let[i]) > 0 && O->far[k->let[i]] > 0)
      pick = i;
  if (!held || !good || pick < 0)
    return 0;
  double worst = 0;
  for (int j = 0; j < (O->n_row < DIS_ROW ? 1 : DIS_ROW); j++) {
    side t[2] = {sd[0], sd[1]};
    t[OPP].row[O->n_row < DIS_ROW ? t[OPP].n_row++ : j] = (uint8_t)pick;
    t[OPP].far[k->let[pick]]--;
    t[OPP].cost = -1;
    double d = standing(k, t) - u;
    if (j == 0 || d < worst)
      worst = d;
  }
  double miss = 1;
  for (int h = 0; h < held; h++)
    miss *= 1 - (double)good / hidden;
  return (1 - miss) * worst;
}

/* The change in my standing when a's trait is carried out on sd, its
 * controller choosing as suits them. */
static double eff(const ctx *k, side sd[2], const act *a, int depth) {
  const dis_state *s = k->s;
  const dis_trait *tr = a->tr;
  int ctrl = sd[a->who].seat;
  if (depth > 3)
    return 0;
  switch (tr->op) {
  case DIS_OP_BURN:
  case DIS_OP_BOUNCE: {
    double u = standing(k, sd), best = 0;
    bool any = false;
    for (int q = 0; q < 2; q++) {
      uint8_t c[NVIL + DIS_ROW];
      int n = area_of(&sd[q], c);
      for (int j = 0; j < n; j++) {
        if (!fits_f(k, &tr->target, ctrl, a->self, a->subj, c[j], sd[q].seat) ||
            warded_f(k, &sd[q], c[j], ctrl, tr->op))
          continue;
        side t[2] = {sd[0], sd[1]};
        leave_area(k, t, c[j], tr->op == DIS_OP_BOUNCE);
        double d = standing(k, t) - u;
        if (better(a->who, any, best, d))
          best = d;
        any = true;
      }
    }
    return best;
  }
  case DIS_OP_READY: {
    double best = 0;
    bool any = false;
    for (int q = 0; q < 2; q++) {
      uint8_t c[NVIL + DIS_ROW];
      int n = area_of(&sd[q], c);
      for (int j = 0; j < n; j++) {
        if (!s->used[c[j]] ||
            !fits_f(k, &tr->target, ctrl, a->self, a->subj, c[j], sd[q].seat))
          continue;
        double v = ready_value(k, c[j]);
        double d = q == ME ? v : -LAMBDA * (v > 0 ? v : 0);
        if (better(a->who, any, best, d))
          best = d;
        any = true;
      }
    }
    return best;
  }
  case DIS_OP_FLIP: {
    side *C = &sd[a->who], *O = &sd[1 - a->who];
    if (!C->n_row)
      return 0;
    double u = standing(k, sd), best = 0;
    bool any = false;
    for (int j = 0; j < O->n_row; j++) {
      int x = O->row[j];
      if (!fits_f(k, &tr->target, ctrl, a->self, a->subj, x, O->seat) ||
          warded_f(k, O, x, ctrl, DIS_OP_FLIP))
        continue;
      for (int g = 0; g < C->n_row; g++) {
        side t[2] = {sd[0], sd[1]};
        t[a->who].row[g] = (uint8_t)x;
        t[1 - a->who].row[j] = C->row[g];
        t[0].cost = t[1].cost = -1;
        double d = standing(k, t) - u;
        if (better(a->who, any, best, d))
          best = d;
        any = true;
      }
    }
    return best;
  }
  case DIS_OP_DROP: {
    if (a->who == OPP)
      return opp_drop(k, sd);
    double u = standing(k, sd), best = 0;
    bool any = false;
    for (int j = 0; j < sd[ME].n_hand; j++) {
      int x = sd[ME].hand[j];
      if (!fits_f(k, &tr->target, ctrl, a->self, DIS_NONE, x, ctrl))
        continue;
      side t[2] = {sd[0], sd[1]};
      double d = enter_mine(k, t, x) - u;
      if (better(ME, any, best, d))
        best = d;
      any = true;
    }
    return best;
  }
  case DIS_OP_DRAW: {
    int n = tr->n ? tr->n : 1, left = s->n_deck[ctrl];
    n = n < left ? n : left;
    return a->who == ME ? DRAW_VALUE * n : -LAMBDA * DRAW_VALUE * n;
  }
  case DIS_OP_DISCARD: {
    int n = tr->n ? tr->n : 1;
    if (a->who == ME) {
      int held = s->n_hand[sd[OPP].seat];
      return LAMBDA * DISCARD_VALUE * (n < held ? n : held);
    }
    /* I discard what I miss least. */
    side t[2] = {sd[0], sd[1]};
    double u = standing(k, sd), now = u;
    for (int d = 0; d < n && t[ME].n_hand > 0; d++) {
      double best = -BIG;
      side keep[2];
      for (int j = 0; j < t[ME].n_hand; j++) {
        side w[2] = {t[0], t[1]};
        int x = t[ME].hand[j];
        hand_take(&w[ME], x);
        int v = villain_index(&w[ME], x);
        if (v >= 0)
          w[ME].vw[v] = W_GONE;
        double uu = standing(k, w);
        if (uu > best) {
          best = uu;
          keep[0] = w[0];
          keep[1] = w[1];
        }
      }
      t[0] = keep[0];
      t[1] = keep[1];
      now = best;
    }
    return now - u;
  }
  case DIS_OP_COPY: {
    if (tr->target.subject) {
      if (a->ans_card == DIS_NONE)
        return 0;
      const dis_trait *ct = &k->card[a->ans_card]->t[a->ans_trait];
      if (ct->op == DIS_OP_COPY || ct->timing == DIS_T_ALWAYS)
        return 0;
      act b = *a;
      b.tr = ct;
      b.subj = a->ans_card;
      b.ans_card = b.ans_trait = DIS_NONE;
      return eff(k, sd, &b, depth + 1);
    }
    double best = 0;
    bool any = false;
    for (int q = 0; q < 2; q++) {
      uint8_t c[NVIL + DIS_ROW];
      int n = area_of(&sd[q], c);
      for (int j = 0; j < n; j++) {
        if (!fits_f(k, &tr->target, ctrl, a->self, DIS_NONE, c[j], sd[q].seat))
          continue;
        const dis_card *cd = k->card[c[j]];
        for (int t = 0; t < cd->n_traits; t++) {
          if (cd->t[t].timing == DIS_T_ALWAYS || cd->t[t].op == DIS_OP_COPY)
            continue;
          act b = *a;
          b.tr = &cd->t[t];
          b.subj = b.ans_card = b.ans_trait = DIS_NONE;
          double d = eff(k, sd, &b, depth + 1);
          if (better(a->who, any, best, d))
            best = d;
          any = true;
        }
      }
    }
    return best;
  }
  case DIS_OP_NEGATE: {
    if (a->below < 0)
      return 0;
    const dis_entry *e = &s->chain[a->below];
    const dis_filter *f = &tr->target;
    if ((f->n_names || f->kind != DIS_KIND_CARD || f->colour || f->dna) &&
        !fits_f(k, f, ctrl, a->self, e->card, e->card, s->side[e->card]))
      return 0;
    if (e->ctrl != ctrl && dis_in_play(s, e->card)) {
      const side *X = sd[ME].seat == s->side[e->card] ? &sd[ME] : &sd[OPP];
      if (warded_f(k, X, e->card, ctrl, DIS_OP_NEGATE))
        return 0;
    }
    return -entry_value(k, sd, a->below, depth + 1);
  }
  default:
    return 0;
  }
}

/* What keeping a once-in-play trait of op for later is worth. */
static double reserve(int op) {
  switch (op) {
  case DIS_OP_BURN:
  case DIS_OP_BOUNCE:
  case DIS_OP_FLIP:
    return RESERVE_HIT;
  case DIS_OP_NEGATE:
    return RESERVE_NEGATE;
  case DIS_OP_COPY:
    return RESERVE_COPY;
  case DIS_OP_DROP:
    return 0.05;
  default:
    return 0.1;
  }
}

/* ---- options ------------------------------------------------------------- */

/* A Play of card x: the row and hand it leaves, the !!! it sets off, and
 * what the opponent's ready traits may answer it with. */
static double play_value(const ctx *k, int x) {
  const dis_state *s = k->s;
  side t[2] = {k->sd[0], k->sd[1]};
  double v = enter_mine(k, t, x) - k->u0;
  int me = k->me, opp = 1 - me;
  int ti = trait_with(k, x, DIS_T_IMMEDIATE);
  if (ti >= 0 && s->turn > 1) {
    act a = {.who = ME,
             .tr = &k->card[x]->t[ti],
             .self = x,
             .subj = DIS_NONE,
             .ans_card = DIS_NONE,
             .ans_trait = DIS_NONE,
             .below = -1};
    v += eff(k, t, &a, 0);
  }
  /* What the opponent's cards answer a Play with. */
  uint8_t c[NVIL + DIS_ROW + DIS_ROW];
  int n = area_of(&t[OPP], c);
  for (int j = 0; j < s->n_minted[opp] && j < DIS_ROW; j++)
    c[n++] = s->minted[opp][j];
  for (int j = 0; j < n; j++) {
    int i = c[j];
    if (!ready_now(s, i))
      continue;
    int tt = marked_trait(k, i);
    if (tt < 0)
      continue;
    const dis_trait *tr = &k->card[i]->t[tt];
    double w;
    if (tr->timing == DIS_T_TIMED && tr->trigger == DIS_TR_OPP_PLAY)
      w = 1;
    else if (tr->timing == DIS_T_INTERRUPT && tr->answers == DIS_AN_ENTER)
      w = ENTER_RISK;
    else
      continue;
    if (tr->has_on && !fits_f(k, &tr->on, opp, i, x, x, me))
      continue;
    act a = {.who = OPP,
             .tr = tr,
             .self = i,
             .subj = x,
             .ans_card = DIS_NONE,
             .ans_trait = DIS_NONE,
             .below = -1};
    double d = eff(k, t, &a, 0);
    v += w * (d < 0 ? d : 0);
  }
  return v;
}

/* A mint is always made (a second one wins); of two, the one that leaves
 * the better plan. */
static double mint_value(const ctx *k, int x) {
  if (k->sd[ME].minted >= 1)
    return 1e6; /* the second mint wins */
  side t[2] = {k->sd[0], k->sd[1]};
  t[ME].n_row = 0;
  t[ME].minted++;
  int v = villain_index(&t[ME], x);
  if (v >= 0)
    t[ME].vw[v] = W_GONE;
  t[ME].cost = -1;
  return 1000 + standing(k, t);
}

/* Making room by discarding x from my full row. */
static double room_value(const ctx *k, int x) {
  const dis_state *s = k->s;
  side t[2] = {k->sd[0], k->sd[1]};
  int e = s->enter.card;
  hand_take(&t[ME], e);
  if (k->card[e]->kind == DIS_KIND_VILLAIN) {
    int v = villain_index(&t[ME], x);
    if (v >= 0)
      t[ME].vw[v] = W_GONE;
    v = villain_index(&t[ME], e);
    if (v >= 0)
      t[ME].vw[v] = W_ROW;
  } else {
    for (int j = 0; j < t[ME].n_row; j++)
      if (t[ME].row[j] == x)
        t[ME].row[j] = (uint8_t)e;
  }
  t[ME].cost = -1;
  return standing(k, t);
}

/* Using card x's ⏳ (on my turn) or 🧠 (in a window) trait: what it does,
 * less the reserve for keeping it. */
static double trait_value(const ctx *k, int x, int timing) {
  const dis_state *s = k->s;
  int ti = trait_with(k, x, timing);
  if (ti < 0)
    return 0;
  const dis_trait *tr = &k->card[x]->t[ti];
  act a = {.who = ME,
           .tr = tr,
           .self = x,
           .subj = DIS_NONE,
           .ans_card = DIS_NONE,
           .ans_trait = DIS_NONE,
           .below = s->n_chain - 1};
  if (timing == DIS_T_INTERRUPT) {
    if (tr->answers == DIS_AN_ENTER) {
      a.subj = s->win_enter;
    } else if (s->n_chain) {
      const dis_entry *top = &s->chain[s->n_chain - 1];
      a.subj = a.ans_card = top->card;
      a.ans_trait = top->trait;
    }
  }
  side t[2] = {k->sd[0], k->sd[1]};
  return eff(k, t, &a, 0) - reserve(tr->op);
}

/* Card x as the resolving trait's choice, or as the card I discard. */
static double pick_value(const ctx *k, int x) {
  const dis_state *s = k->s;
  side t[2] = {k->sd[0], k->sd[1]};
  if (s->phase == DIS_PH_DISCARD) {
    hand_take(&t[ME], x);
    int v = villain_index(&t[ME], x);
    if (v >= 0)
      t[ME].vw[v] = W_GONE;
    return standing(k, t);
  }
  const dis_res *r = &s->res;
  switch (r->op) {
  case DIS_OP_BURN:
  case DIS_OP_BOUNCE:
    leave_area(k, t, x, r->op == DIS_OP_BOUNCE);
    return standing(k, t);
  case DIS_OP_READY: {
    double v = ready_value(k, x);
    return s->side[x] == k->me ? v : -v;
  }
  case DIS_OP_FLIP: {
    int take = r->step == 0 ? x : r->taken;
    double best = -BIG;
    for (int g = 0; g < t[ME].n_row; g++) {
      if (r->step == 1 && t[ME].row[g] != x)
        continue;
      side w[2] = {t[0], t[1]};
      for (int j = 0; j < w[OPP].n_row; j++)
        if (w[OPP].row[j] == take)
          w[OPP].row[j] = t[ME].row[g];
      w[ME].row[g] = (uint8_t)take;
      w[0].cost = w[1].cost = -1;
      double u = standing(k, w);
      if (u > best)
        best = u;
    }
    return best;
  }
  case DIS_OP_DROP:
    return enter_mine(k, t, x);
  default:
    return 0;
  }
}

/* COPYing trait b of card x. */
static double copy_value(const ctx *k, int x, int b) {
  const dis_state *s = k->s;
  act a = {.who = ME,
           .tr = &k->card[x]->t[b],
           .self = s->res.e.card,
           .subj = s->res.e.subject,
           .ans_card = DIS_NONE,
           .ans_trait = DIS_NONE,
           .below = s->n_chain - 1};
  side t[2] = {k->sd[0], k->sd[1]};
  return eff(k, t, &a, 0);
}

/* A pool Villain for the draft: the more readings, the easier to mint. */
static double draft_value(int a) {
  const dis_data *d = dis_data_get();
  reads r;
  seq_reads(d->cards[d->pool[a]].seq, &r);
  return r.n;
}

/* The AI's score of option code; the highest is answered. */
static double score(const ctx *k, uint32_t code) {
  int a = DIS_CODE_A(code), b = DIS_CODE_B(code);
  switch (DIS_CODE_KIND(code)) {
  case DIS_O_VILLAIN:
    return draft_value(a);
  case DIS_O_START:
    return 1; /* the first player wins more often */
  case DIS_O_MINT:
    return mint_value(k, a);
  case DIS_O_PLAY:
    return play_value(k, a);
  case DIS_O_ROOM:
    return room_value(k, a);
  case DIS_O_TRAIT:
    return trait_value(k, a, DIS_T_TIMED);
  case DIS_O_INT:
    return trait_value(k, a, DIS_T_INTERRUPT);
  case DIS_O_RESOLVE:
    return 0.05;
  case DIS_O_PICK:
    return pick_value(k, a);
  case DIS_O_COPY:
    return copy_value(k, a, b);
  default: /* design, defer, end, pass */
    return 0;
  }
}

/* The ruleset's ai hook (eng.h): the index of the option with the best
 * score, ties broken by one draw of rng per option (none when there is
 * one option). Allocates nothing; cannot fail. */
int dis_ai(const void *st, const eng_prompt *p, eng_rng *rng) {
  const dis_state *s = st;
  if (p->n <= 1)
    return 0;
  ctx k;
  k.s = s;
  k.me = p->player;
  k.u0 = 0;
  bool game = s->phase != DIS_PH_DESIGN && s->phase != DIS_PH_DRAFT &&
              s->phase != DIS_PH_RPS;
  if (game) {
    const dis_data *d = dis_data_get();
    for (int i = 0; i < DIS_CARDS; i++)
      k.card[i] = &d->cards[s->def[i]];
    for (int i = 0; i < DIS_CARDS; i++) {
      const dis_card *c = k.card[i];
      k.let[i] = c->kind == DIS_KIND_MONSTER ? c->letter : -1;
      k.ali[i] = (int8_t)(k.let[i] >= 0 ? alias_of(&k, i) : -1);
      int t = trait_with(&k, i, DIS_T_TIMED);
      k.drop[i] = t >= 0 && c->t[t].op == DIS_OP_DROP &&
                  (c->t[t].trigger == DIS_TR_OWN_TURN ||
                   c->t[t].trigger == DIS_TR_TURN_START);
    }
    side_build(&k, k.me, true, &k.sd[ME]);
    side_build(&k, 1 - k.me, false, &k.sd[OPP]);
    k.u0 = standing(&k, k.sd);
  }
  int best = 0;
  double best_v = -BIG;
  for (int i = 0; i < p->n; i++) {
    double v = score(&k, p->code[i]) + (double)eng_rng_below(rng, 1000) * 1e-7;
    if (v > best_v) {
      best_v = v;
      best = i;
    }
  }
  return best;
}

/* The ruleset's ai_why hook (eng.h): why option i is the AI's pick, in
 * words from the option's kind. The score it stands for reads only what
 * the seat may see (see the top of this file); names no card. */
void dis_ai_why(const void *st, const eng_prompt *p, int i, char *buf,
                size_t cap) {
  (void)st;
  if (cap == 0 || i < 0 || i >= p->n)
    return;
  const char *what;
  switch (DIS_CODE_KIND(p->code[i])) {
  case DIS_O_VILLAIN:
    what = "that Villain's card reads the most";
    break;
  case DIS_O_START:
    what = "the first player wins more often";
    break;
  case DIS_O_MINT:
    what = "minting it gains most for the cards it costs";
    break;
  case DIS_O_PLAY:
    what = "it improves your position most of the cards you can play";
    break;
  case DIS_O_ROOM:
    what = "the room is worth more than keeping the card";
    break;
  case DIS_O_TRAIT:
  case DIS_O_INT:
    what = "the trait's effect is worth using now";
    break;
  case DIS_O_RESOLVE:
    what = "letting the chain resolve costs nothing";
    break;
  case DIS_O_PICK:
  case DIS_O_COPY:
    what = "it is the best target for the effect";
    break;
  default:
    what = "nothing else helps you more right now";
    break;
  }
  snprintf(buf, cap, "%s", what);
}
