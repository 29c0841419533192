/*
 * dis_ai.c: the heuristic Disorder player. It mints whenever it can,
 * Plays and DROPs the Monsters that bring its Villains' Sequences
 * closest, aims BURN, BOUNCE and FLIP at the opponent's most useful
 * Monsters, NEGATEs what would hurt it, and passes the rest.
 *
 * It reads only what its seat may see: both play areas, the chain and
 * its own hand, never the opponent's hand or any deck.
 */
#include "dis.h"

#include <string.h>

/* How many of the letters in have[] (counts per letter) a concrete match
 * of seq could use: the best over every reading of its x and y. */
static int seq_overlap(const char *seq, const int have[DIS_LETTERS]) {
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
  int best = 0;
  for (int x = 0; x < DIS_LETTERS; x++) {
    if (nx && listed[x])
      continue;
    for (int y = 0; y < DIS_LETTERS; y++) {
      if (ny && (listed[y] || y == x))
        continue;
      int want[DIS_LETTERS];
      memcpy(want, listed, sizeof want);
      if (nx)
        want[x] += nx;
      if (ny)
        want[y] += ny;
      int o = 0;
      for (int l = 0; l < DIS_LETTERS; l++)
        o += have[l] < want[l] ? have[l] : want[l];
      if (o > best)
        best = o;
      if (!ny)
        break;
    }
    if (!nx)
      break;
  }
  return best;
}

/* The Villains seat aims at: un-minted ones in its Villain row, and (for
 * its own seat) those in its hand. */
static int targets(const dis_state *s, int seat, bool own, int *out) {
  int n = 0;
  for (int k = 0; k < s->n_vrow[seat]; k++)
    out[n++] = s->vrow[seat][k];
  if (own)
    for (int k = 0; k < s->n_hand[seat]; k++)
      if (dis_def(s, s->hand[seat][k])->kind == DIS_KIND_VILLAIN)
        out[n++] = s->hand[seat][k];
  return n;
}

/* seat's progress with the letters of row[] (n Monsters): the best
 * overlap of any Villain it aims at, Villains in play weighing more. */
static double progress(const dis_state *s, int seat, bool own,
                       const uint8_t *row, int n) {
  int have[DIS_LETTERS] = {0}, more[DIS_LETTERS] = {0};
  for (int k = 0; k < n; k++)
    have[dis_def(s, row[k])->letter]++;
  /* With its own hand's Monsters a seat can get further still. */
  memcpy(more, have, sizeof more);
  for (int k = 0; own && k < s->n_hand[seat]; k++) {
    const dis_card *c = dis_def(s, s->hand[seat][k]);
    if (c->kind == DIS_KIND_MONSTER)
      more[c->letter]++;
  }
  int v[DIS_CARDS];
  int nv = targets(s, seat, own, v);
  double best = 0, second = 0;
  for (int k = 0; k < nv; k++) {
    const char *seq = dis_def(s, v[k])->seq;
    int o4 = seq_overlap(seq, have);
    double o = o4 + 0.25 * (seq_overlap(seq, more) - o4);
    if (s->zone[v[k]] != DIS_Z_VROW)
      o -= 0.5;
    if (o > best) {
      second = best;
      best = o;
    } else if (o > second) {
      second = o;
    }
  }
  return best + 0.2 * second;
}

static double row_progress(const dis_state *s, int seat, bool own) {
  return progress(s, seat, own, s->mrow[seat], s->n_mrow[seat]);
}

/* The best progress after Monster m joins seat's row (replacing the
 * least useful one when the row is full). */
static double with_monster(const dis_state *s, int seat, int m) {
  uint8_t row[DIS_ROW + 1];
  int n = s->n_mrow[seat];
  memcpy(row, s->mrow[seat], (size_t)n);
  if (n < DIS_ROW) {
    row[n] = (uint8_t)m;
    return progress(s, seat, true, row, n + 1);
  }
  double best = 0;
  for (int k = 0; k < n; k++) {
    uint8_t r2[DIS_ROW];
    memcpy(r2, row, (size_t)n);
    r2[k] = (uint8_t)m;
    double p = progress(s, seat, true, r2, n);
    if (p > best)
      best = p;
  }
  return best;
}

/* How much seat's row needs Monster m (its progress without it lost). */
static double usefulness(const dis_state *s, int seat, int m, bool own) {
  uint8_t row[DIS_ROW];
  int n = 0;
  for (int k = 0; k < s->n_mrow[seat]; k++)
    if (s->mrow[seat][k] != m)
      row[n++] = s->mrow[seat][k];
  return row_progress(s, seat, own) - progress(s, seat, own, row, n);
}

static int opp_monsters(const dis_state *s, int me) {
  return s->n_mrow[1 - me];
}

/* How close the opponent is to a mint, as a bonus for hitting their
 * Monsters: nothing until they have two of a Sequence in play. */
static double threat(const dis_state *s, int me) {
  double p = row_progress(s, 1 - me, false);
  return p > 2 ? 0.6 * (p - 2) : 0;
}

/* What carrying out op (of a trait whose target filter is f) is worth to
 * me, roughly. */
static double op_value(const dis_state *s, int me, const dis_trait *tr) {
  switch (tr->op) {
  case DIS_OP_BURN:
  case DIS_OP_BOUNCE:
    if (tr->target.subject)
      return 1.0;
    if (tr->target.side == DIS_SIDE_OPP)
      return tr->target.kind == DIS_KIND_VILLAIN
                 ? (s->n_vrow[1 - me] ? 1.0 : 0)
                 : (opp_monsters(s, me) ? 1.0 + threat(s, me) : 0);
    return opp_monsters(s, me) ? 0.6 + threat(s, me) : -1.5;
  case DIS_OP_FLIP:
    return opp_monsters(s, me) && s->n_mrow[me] ? 0.6 + threat(s, me) : 0;
  case DIS_OP_DRAW:
    return 0.8 * (tr->n ? tr->n : 1);
  case DIS_OP_DISCARD:
    return s->n_hand[1 - me] ? 0.6 : 0;
  case DIS_OP_DROP: {
    double base = row_progress(s, me, true), best = -1;
    for (int k = 0; k < s->n_hand[me]; k++) {
      int c = s->hand[me][k];
      if (dis_def(s, c)->kind == DIS_KIND_MONSTER) {
        double g = with_monster(s, me, c) - base;
        if (g > best)
          best = g;
      }
    }
    return best < 0 ? 0 : 0.5 + best;
  }
  case DIS_OP_READY:
    return 0.4;
  case DIS_OP_COPY:
    return 0.5;
  case DIS_OP_NEGATE:
    return 0;
  default:
    return 0;
  }
}

/* What the entry on top of the chain does to me if it resolves. */
static double entry_harm(const dis_state *s, int me) {
  if (!s->n_chain)
    return 0;
  const dis_entry *e = &s->chain[s->n_chain - 1];
  if (e->ctrl == me)
    return -2; /* my own: never NEGATE it */
  const dis_trait *tr = &dis_def(s, e->card)->t[e->trait];
  switch (tr->op) {
  case DIS_OP_BURN:
  case DIS_OP_BOUNCE:
  case DIS_OP_FLIP:
    return s->n_mrow[me] || tr->target.kind == DIS_KIND_VILLAIN ? 2.5 : 0.3;
  case DIS_OP_DISCARD:
    return s->n_hand[me] ? 1.5 : 0;
  case DIS_OP_NEGATE:
    /* it cancels the entry beneath: mine, then worth stopping */
    return s->n_chain >= 2 && s->chain[s->n_chain - 2].ctrl == me ? 2.0 : 0;
  case DIS_OP_DRAW:
  case DIS_OP_DROP:
    return 0.4; /* not worth a NEGATE that a BURN may need later */
  default:
    return 0.3;
  }
}

static double pick_value(const dis_state *s, int me, int c) {
  const dis_res *r = &s->res;
  if (s->phase == DIS_PH_DISCARD) {
    if (dis_def(s, c)->kind == DIS_KIND_VILLAIN)
      return -1.0;
    return -(with_monster(s, me, c) - row_progress(s, me, true));
  }
  bool theirs = s->side[c] != me;
  double u = dis_def(s, c)->kind == DIS_KIND_MONSTER
                 ? usefulness(s, s->side[c], c, !theirs)
                 : 0.5;
  switch (r->op) {
  case DIS_OP_BURN:
  case DIS_OP_BOUNCE:
    return theirs ? 1 + u : -1 - u;
  case DIS_OP_READY:
    return theirs ? -1 : 1;
  case DIS_OP_FLIP:
    if (r->step == 0)
      return u + with_monster(s, me, c) - row_progress(s, me, true);
    return -u;
  case DIS_OP_DROP:
    return dis_def(s, c)->kind == DIS_KIND_MONSTER
               ? with_monster(s, me, c) - row_progress(s, me, true)
               : 0.5;
  default:
    return 0;
  }
}

static double score(const dis_state *s, int me, uint32_t code) {
  int a = DIS_CODE_A(code), b = DIS_CODE_B(code);
  const dis_data *d = dis_data_get();
  switch (DIS_CODE_KIND(code)) {
  case DIS_O_VILLAIN: {
    const char *seq = d->cards[d->pool[a]].seq;
    int all[DIS_LETTERS] = {4, 4, 4, 4}, nx = 0;
    for (int k = 0; k < DIS_SEQ; k++)
      nx += seq[k] == 'x' || seq[k] == 'y';
    return seq_overlap(seq, all) + 0.3 * nx;
  }
  case DIS_O_START:
    return 1;
  case DIS_O_MINT:
    return 1000;
  case DIS_O_PLAY: {
    const dis_card *c = dis_def(s, a);
    int t = -1;
    for (int k = 0; k < c->n_traits; k++)
      if (c->t[k].timing == DIS_T_IMMEDIATE)
        t = k;
    double v = t >= 0 && s->turn > 1 ? op_value(s, me, &c->t[t]) : 0;
    if (c->kind == DIS_KIND_MONSTER)
      return v + 2 * (with_monster(s, me, a) - row_progress(s, me, true));
    if (s->n_vrow[me] >= DIS_ROW)
      return v - 1;
    /* A Villain the Monsters in play already suit is worth a turn. */
    int have[DIS_LETTERS] = {0}, best = 0;
    for (int k = 0; k < s->n_mrow[me]; k++)
      have[dis_def(s, s->mrow[me][k])->letter]++;
    for (int k = 0; k < s->n_vrow[me]; k++) {
      int o = seq_overlap(dis_def(s, s->vrow[me][k])->seq, have);
      best = o > best ? o : best;
    }
    int o = seq_overlap(c->seq, have);
    return v + 1 + (o > best ? o - best : 0) + (o == DIS_SEQ ? 5 : 0);
  }
  case DIS_O_ROOM: {
    uint8_t row[DIS_ROW];
    int n = 0;
    for (int k = 0; k < s->n_mrow[me]; k++)
      if (s->mrow[me][k] != a)
        row[n++] = s->mrow[me][k];
    if (dis_def(s, s->enter.card)->kind == DIS_KIND_MONSTER)
      row[n++] = s->enter.card;
    return progress(s, me, true, row, n);
  }
  case DIS_O_TRAIT: {
    const dis_card *c = dis_def(s, a);
    for (int k = 0; k < c->n_traits; k++)
      if (c->t[k].timing == DIS_T_TIMED) {
        if (c->t[k].op == DIS_OP_NEGATE)
          return entry_harm(s, me) - 0.5;
        return op_value(s, me, &c->t[k]) - 0.2;
      }
    return 0;
  }
  case DIS_O_RESOLVE:
    return 0.3;
  case DIS_O_END:
    return 0;
  case DIS_O_PASS:
    return 0.5;
  case DIS_O_INT: {
    const dis_card *c = dis_def(s, a);
    for (int k = 0; k < c->n_traits; k++) {
      const dis_trait *tr = &c->t[k];
      if (tr->timing != DIS_T_INTERRUPT)
        continue;
      if (tr->op == DIS_OP_NEGATE)
        return entry_harm(s, me);
      if (tr->op == DIS_OP_COPY && s->n_chain) {
        const dis_entry *e = &s->chain[s->n_chain - 1];
        const dis_trait *ct = &dis_def(s, e->card)->t[e->trait];
        return ct->op == DIS_OP_COPY || ct->op == DIS_OP_NEGATE
                   ? 0
                   : op_value(s, me, ct);
      }
      if (tr->answers == DIS_AN_ENTER && s->win_enter != DIS_NONE) {
        int e = s->win_enter;
        if (dis_def(s, e)->kind == DIS_KIND_MONSTER)
          return 0.3 + 2 * usefulness(s, s->side[e], e, false);
        return 1.2;
      }
      return 1.0;
    }
    return 0;
  }
  case DIS_O_PICK:
    return pick_value(s, me, a);
  case DIS_O_COPY: {
    const dis_trait *tr = &dis_def(s, a)->t[b];
    if (tr->op == DIS_OP_NEGATE)
      return entry_harm(s, me);
    return op_value(s, me, tr);
  }
  default:
    return 0;
  }
}

int dis_ai(const void *st, const eng_prompt *p, eng_rng *rng) {
  const dis_state *s = st;
  int best = 0;
  double best_v = -1e9;
  for (int k = 0; k < p->n; k++) {
    double v = score(s, p->player, p->code[k]) +
               (double)eng_rng_below(rng, 1000) * 1e-5;
    if (v > best_v) {
      best_v = v;
      best = k;
    }
  }
  return best;
}
