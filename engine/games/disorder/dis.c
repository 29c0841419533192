/*
 * dis.c: the rules of Disorder of the Villains (docs/rules/disorder.md):
 * the draft, the turn, the chain of triggered traits, the windows, the
 * keywords, minting and the end.
 *
 * Every answer is applied by do_option(); then settle() carries out what
 * the rules do by themselves (the start of a turn's traits, the draw) and
 * takes every decision that has exactly one possible answer, so the state
 * at rest always waits for a real choice (a window is always a choice: it
 * is asked whatever its player holds).
 */
#include "dis.h"

#include "../../rsutil.h"

#include <stdio.h>
#include <string.h>

static const dis_data *D(void) { return dis_data_get(); }

/* The draft order 1-2-2-1-1-2-2-1, as seats. */
static const uint8_t draft_seat[8] = {0, 1, 1, 0, 0, 1, 1, 0};

#define SAY(...) eng_event_add(ev, __VA_ARGS__)

/* ---- small facts --------------------------------------------------------- */

static const dis_trait *trait_of(const dis_state *s, int i, int t) {
  return &dis_def(s, i)->t[t];
}

/* The index of card i's trait of timing, or -1. */
static int trait_with(const dis_state *s, int i, int timing) {
  const dis_card *c = dis_def(s, i);
  for (int t = 0; t < c->n_traits; t++)
    if (c->t[t].timing == timing)
      return t;
  return -1;
}

static bool marked_timing(int timing) {
  return timing == DIS_T_TIMED || timing == DIS_T_INTERRUPT ||
         timing == DIS_T_AFTER_MINT;
}

/* Whether card i's trait t may trigger now by the "once while in play"
 * and "not the turn it was put into play" rules. */
static bool trait_ready(const dis_state *s, int i) {
  return !s->used[i] && s->entered[i] != s->turn;
}

bool dis_in_play(const dis_state *s, int i) {
  return s->zone[i] == DIS_Z_VROW || s->zone[i] == DIS_Z_MROW;
}

bool dis_in_area(const dis_state *s, int i) {
  return dis_in_play(s, i) || s->zone[i] == DIS_Z_MINTED;
}

/* "Cinder Whelp (A, Red)" / "The Hollow Regent (AAxx, Red)". */
static void card_desc(const dis_state *s, int i, char *buf, size_t cap) {
  const dis_card *c = dis_def(s, i);
  snprintf(buf, cap, "%s (%s, %s)", c->name,
           c->kind == DIS_KIND_MONSTER ? (char[]){(char)('A' + c->letter), 0}
                                       : c->seq,
           dis_colour_name(c->colour));
}

static const char *name_of(const dis_state *s, int i) {
  return dis_def(s, i)->name;
}

/* "Cinder Whelp's !!! BURN". */
static void trait_desc(const dis_state *s, int i, int t, char *buf,
                       size_t cap) {
  const dis_trait *tr = trait_of(s, i, t);
  snprintf(buf, cap, "%s's %s %s", name_of(s, i), dis_timing_symbol(tr->timing),
           dis_op_name(tr->op));
}

/* ---- places -------------------------------------------------------------- */

uint8_t *dis_place(dis_state *s, int zone, int seat, uint8_t **n) {
  switch (zone) {
  case DIS_Z_DECK:
    *n = &s->n_deck[seat];
    return s->deck[seat];
  case DIS_Z_HAND:
    *n = &s->n_hand[seat];
    return s->hand[seat];
  case DIS_Z_VROW:
    *n = &s->n_vrow[seat];
    return s->vrow[seat];
  case DIS_Z_MROW:
    *n = &s->n_mrow[seat];
    return s->mrow[seat];
  case DIS_Z_MINTED:
    *n = &s->n_minted[seat];
    return s->minted[seat];
  case DIS_Z_DISCARD:
    *n = &s->n_discard[seat];
    return s->discard[seat];
  default:
    *n = NULL;
    return NULL;
  }
}

/* Takes instance i out of wherever it is (order kept). */
static void take_out(dis_state *s, int i) {
  uint8_t *n;
  uint8_t *a = dis_place(s, s->zone[i], s->side[i], &n);
  if (!a)
    return;
  for (int k = 0; k < *n; k++)
    if (a[k] == i) {
      memmove(a + k, a + k + 1, (size_t)(*n - k - 1));
      (*n)--;
      break;
    }
  s->zone[i] = DIS_Z_NONE;
}

/* Puts instance i on top of (at the end of) zone of seat. */
static void put(dis_state *s, int i, int zone, int seat) {
  uint8_t *n;
  uint8_t *a = dis_place(s, zone, seat, &n);
  a[(*n)++] = (uint8_t)i;
  s->zone[i] = (uint8_t)zone;
  s->side[i] = (uint8_t)seat;
}

/* Card i leaves its play area for its owner's hand or discard pile; its
 * used mark is cleared ("placed upright"). */
static void leave(dis_state *s, int i, int zone) {
  take_out(s, i);
  s->used[i] = 0;
  s->entered[i] = 0;
  put(s, i, zone, dis_owner(i));
}

/* Draws up to n cards for seat; the drawer is told their names. */
static void draw(dis_state *s, int seat, int n, unsigned *flags,
                 eng_events *ev) {
  int got = 0;
  for (; got < n && s->n_deck[seat] > 0; got++) {
    int i = s->deck[seat][s->n_deck[seat] - 1];
    take_out(s, i);
    put(s, i, DIS_Z_HAND, seat);
    if (ev) {
      char d[96];
      card_desc(s, i, d, sizeof d);
      SAY(seat, "You draw %s.", d);
    }
  }
  if (got)
    *flags |= ENG_REVEALED;
  if (got == n)
    SAY(-1, "Villain %d draws %d card%s.", seat + 1, got, got == 1 ? "" : "s");
  else if (got)
    SAY(-1, "Villain %d draws %d card%s; their deck is empty.", seat + 1, got,
        got == 1 ? "" : "s");
  else
    SAY(-1, "Villain %d's deck is empty: no card to draw.", seat + 1);
}

/* ---- filters and wards --------------------------------------------------- */

bool dis_fits(const dis_state *s, const dis_filter *f, int ctrl, int self,
              int subj, int i, int side) {
  if (f->subject)
    return i == subj;
  const dis_card *c = dis_def(s, i);
  if (f->side == DIS_SIDE_OWN && side != ctrl)
    return false;
  if (f->side == DIS_SIDE_OPP && side == ctrl)
    return false;
  if (f->kind != DIS_KIND_CARD && c->kind != f->kind)
    return false;
  if (f->dna && (c->kind != DIS_KIND_MONSTER || !(f->dna & (1u << c->letter))))
    return false;
  if (f->colour && !(f->colour & (1u << c->colour)))
    return false;
  if (f->other && i == self)
    return false;
  if (f->n_names) {
    bool any = false;
    for (int k = 0; k < f->n_names; k++)
      any = any || f->names[k] == s->def[i];
    if (!any)
      return false;
  }
  return true;
}

static bool fits(const dis_state *s, const dis_filter *f, int ctrl, int self,
                 int subj, int i) {
  return dis_fits(s, f, ctrl, self, subj, i, s->side[i]);
}

/* Whether card i (in a play area) is protected by a ward of its side
 * against op of the other player. */
static bool warded(const dis_state *s, int i, int ctrl, int op) {
  int seat = s->side[i];
  if (!dis_in_play(s, i) || seat == ctrl)
    return false;
  for (int w = 0; w < DIS_CARDS; w++) {
    if (!dis_in_area(s, w) || s->side[w] != seat)
      continue;
    int t = trait_with(s, w, DIS_T_ALWAYS);
    if (t < 0)
      continue;
    const dis_trait *tr = trait_of(s, w, t);
    if (tr->mod == DIS_MOD_WARD && (tr->against & (1u << op)) &&
        fits(s, &tr->target, seat, w, DIS_NONE, i))
      return true;
  }
  return false;
}

/* The cards of seat's play and minted areas, Villain row, Monster row,
 * minted area, each from the first in. */
static int area_cards(const dis_state *s, int seat, uint8_t *out) {
  int n = 0;
  for (int k = 0; k < s->n_vrow[seat]; k++)
    out[n++] = s->vrow[seat][k];
  for (int k = 0; k < s->n_mrow[seat]; k++)
    out[n++] = s->mrow[seat][k];
  for (int k = 0; k < s->n_minted[seat]; k++)
    out[n++] = s->minted[seat][k];
  return n;
}

/* ---- minting ------------------------------------------------------------- */

bool dis_can_mint(const dis_state *s, int seat, int v) {
  if (s->zone[v] != DIS_Z_VROW || s->side[v] != seat ||
      s->n_mrow[seat] != DIS_ROW)
    return false;
  int8_t own[DIS_SEQ], alias[DIS_SEQ];
  for (int k = 0; k < DIS_SEQ; k++) {
    int m = s->mrow[seat][k];
    own[k] = dis_def(s, m)->letter;
    alias[k] = -1;
    int t = trait_with(s, m, DIS_T_ALWAYS);
    if (t >= 0 && trait_of(s, m, t)->mod == DIS_MOD_ALIAS)
      alias[k] = trait_of(s, m, t)->letter;
  }
  return dis_dna_match(dis_def(s, v)->seq, own, alias);
}

/* ---- the chain ----------------------------------------------------------- */

/* Puts card i's trait t on the chain for ctrl; marks the trait used when
 * the card is in play or minted (a Monster discarded to mint is not). */
static void push(dis_state *s, int i, int t, int ctrl, int subject,
                 int ans_card, int ans_trait, eng_events *ev) {
  if (s->n_chain >= DIS_CHAIN)
    return; /* cannot happen: every entry spends a once-in-play trait */
  dis_entry *e = &s->chain[s->n_chain++];
  e->card = (uint8_t)i;
  e->trait = (uint8_t)t;
  e->ctrl = (uint8_t)ctrl;
  e->subject = (uint8_t)subject;
  e->ans_card = (uint8_t)ans_card;
  e->ans_trait = (uint8_t)ans_trait;
  if (marked_timing(trait_of(s, i, t)->timing) && dis_in_area(s, i))
    s->used[i] = 1;
  if (ev) {
    char d[96];
    trait_desc(s, i, t, d, sizeof d);
    SAY(-1, "Villain %d triggers %s: \"%s\" (chain: %d).", ctrl + 1, d,
        dis_def(s, i)->text, s->n_chain);
  }
}

/* Opens the other player's window after a step of the active player. */
static void window(dis_state *s, int enter, bool trait, const char *what) {
  s->phase = DIS_PH_WINDOW;
  s->win_enter = (uint8_t)enter;
  s->win_trait =
      trait && s->n_chain > 0 && s->chain[s->n_chain - 1].ctrl == s->active;
  snprintf(s->win_what, sizeof s->win_what, "%s", what);
}

/* The active player's priority again. */
static void to_main(dis_state *s) {
  s->phase = DIS_PH_MAIN;
  s->win_enter = DIS_NONE;
  s->win_trait = false;
  s->win_what[0] = '\0';
}

/* Whether the 🧠 trait t of card i fits the current window. */
static bool fits_window(const dis_state *s, int i, int t) {
  const dis_trait *tr = trait_of(s, i, t);
  int me = s->side[i];
  if (tr->answers == DIS_AN_ENTER) {
    int c = s->win_enter;
    return c != DIS_NONE && dis_in_play(s, c) && s->side[c] != me &&
           (!tr->has_on || fits(s, &tr->on, me, i, c, c));
  }
  if (tr->answers == DIS_AN_TRAIT) {
    if (!s->win_trait || !s->n_chain)
      return false;
    int c = s->chain[s->n_chain - 1].card;
    return !tr->has_on || fits(s, &tr->on, me, i, c, c);
  }
  return false;
}

/* ---- prompts ------------------------------------------------------------- */

static void add(eng_prompt *p, int kind, int a, int b) {
  if (p->n < ENG_OPTIONS_MAX)
    p->code[p->n++] = DIS_CODE(kind, a, b);
}

int dis_picks_of(int picks, int seat) {
  int n = 0;
  for (int p = 0; p < picks && p < 8; p++)
    n += draft_seat[p] == seat;
  return n;
}

static bool pool_taken(const dis_state *s, int k) {
  for (int seat = 0; seat < DIS_PLAYERS; seat++)
    for (int n = 0; n < dis_picks_of(s->drafted, seat); n++)
      if (s->def[seat * DIS_DECK + n] == D()->pool[k])
        return true;
  return false;
}

/* Candidates of the resolving trait's current choice. */
static int res_subject(const dis_state *s) {
  if (s->res.copied && s->res.e.ans_card != DIS_NONE)
    return s->res.e.ans_card;
  return s->res.e.subject;
}

static const dis_trait *res_trait(const dis_state *s) {
  return trait_of(s, s->res.card, s->res.trait);
}

static int candidates(const dis_state *s, uint8_t *out) {
  const dis_res *r = &s->res;
  const dis_trait *tr = res_trait(s);
  int ctrl = r->e.ctrl, self = r->e.card, subj = res_subject(s);
  int n = 0;
  switch (r->op) {
  case DIS_OP_BOUNCE:
  case DIS_OP_BURN:
  case DIS_OP_READY:
    for (int i = 0; i < DIS_CARDS; i++)
      if (dis_in_play(s, i) && fits(s, &tr->target, ctrl, self, subj, i) &&
          (r->op == DIS_OP_READY ? s->used[i] != 0
                                 : !warded(s, i, ctrl, r->op)))
        out[n++] = (uint8_t)i;
    break;
  case DIS_OP_FLIP:
    if (r->step == 0) {
      for (int k = 0; k < s->n_mrow[1 - ctrl]; k++) {
        int i = s->mrow[1 - ctrl][k];
        if (fits(s, &tr->target, ctrl, self, subj, i) &&
            !warded(s, i, ctrl, DIS_OP_FLIP))
          out[n++] = (uint8_t)i;
      }
    } else {
      for (int k = 0; k < s->n_mrow[ctrl]; k++)
        if (s->mrow[ctrl][k] != r->taken)
          out[n++] = s->mrow[ctrl][k];
    }
    break;
  case DIS_OP_DROP:
    for (int k = 0; k < s->n_hand[ctrl]; k++) {
      int i = s->hand[ctrl][k];
      if (fits(s, &tr->target, ctrl, self, DIS_NONE, i))
        out[n++] = (uint8_t)i;
    }
    break;
  case DIS_OP_DISCARD:
    for (int k = 0; k < s->n_hand[r->chooser]; k++)
      out[n++] = s->hand[r->chooser][k];
    break;
  default:
    break;
  }
  return n;
}

/* COPY's choices: (card, trait) pairs as codes. */
static int copy_choices(const dis_state *s, uint32_t *out) {
  const dis_trait *tr = res_trait(s);
  int ctrl = s->res.e.ctrl, self = s->res.e.card;
  int n = 0;
  for (int i = 0; i < DIS_CARDS; i++) {
    if (!dis_in_play(s, i) || !fits(s, &tr->target, ctrl, self, DIS_NONE, i))
      continue;
    const dis_card *c = dis_def(s, i);
    for (int t = 0; t < c->n_traits; t++)
      if (c->t[t].timing != DIS_T_ALWAYS && c->t[t].op != DIS_OP_COPY)
        out[n++] = DIS_CODE(DIS_O_COPY, i, t);
  }
  return n;
}

static int ask_seat(const dis_state *s) {
  switch (s->phase) {
  case DIS_PH_DESIGN:
    return s->pick_seat;
  case DIS_PH_DRAFT:
    return draft_seat[s->drafted];
  case DIS_PH_RPS:
    return s->rps;
  case DIS_PH_MAIN:
    return s->active;
  case DIS_PH_WINDOW:
    return 1 - s->active;
  case DIS_PH_ROOM:
    return s->enter.seat;
  case DIS_PH_PICK:
  case DIS_PH_DISCARD:
    return s->res.chooser;
  case DIS_PH_COPY:
    return s->res.e.ctrl;
  default:
    return -1;
  }
}

void dis_prompt(const void *st, eng_prompt *p) {
  const dis_state *s = st;
  p->n = 0;
  p->turn = s->turn;
  p->player = ask_seat(s);
  if (p->player < 0)
    return;
  int me = p->player;
  uint8_t c[DIS_CARDS];
  switch (s->phase) {
  case DIS_PH_DESIGN:
    for (int d = 0; d < D()->n_designs; d++)
      add(p, DIS_O_DESIGN, d, 0);
    break;
  case DIS_PH_DRAFT:
    for (int k = 0; k < D()->n_pool; k++)
      if (!pool_taken(s, k))
        add(p, DIS_O_VILLAIN, k, 0);
    break;
  case DIS_PH_RPS:
    add(p, DIS_O_START, 0, 0);
    add(p, DIS_O_DEFER, 0, 0);
    break;
  case DIS_PH_MAIN: {
    if (!s->n_chain && !s->played)
      for (int k = 0; k < s->n_hand[me]; k++)
        add(p, DIS_O_PLAY, s->hand[me][k], 0);
    int n = area_cards(s, me, c);
    for (int k = 0; k < n; k++) {
      int t = trait_with(s, c[k], DIS_T_TIMED);
      if (t >= 0 && trait_of(s, c[k], t)->trigger == DIS_TR_OWN_TURN &&
          trait_ready(s, c[k]) &&
          (trait_of(s, c[k], t)->op != DIS_OP_NEGATE || s->n_chain))
        add(p, DIS_O_TRAIT, c[k], 0);
    }
    for (int k = 0; k < s->n_vrow[me]; k++)
      if (dis_can_mint(s, me, s->vrow[me][k]))
        add(p, DIS_O_MINT, s->vrow[me][k], 0);
    if (s->n_chain)
      add(p, DIS_O_RESOLVE, 0, 0);
    else if (s->played || !s->n_hand[me])
      add(p, DIS_O_END, 0, 0);
    break;
  }
  case DIS_PH_WINDOW: {
    int n = area_cards(s, me, c);
    for (int k = 0; k < n; k++) {
      int t = trait_with(s, c[k], DIS_T_INTERRUPT);
      if (t >= 0 && trait_ready(s, c[k]) && fits_window(s, c[k], t))
        add(p, DIS_O_INT, c[k], 0);
    }
    add(p, DIS_O_PASS, 0, 0);
    break;
  }
  case DIS_PH_ROOM: {
    const uint8_t *row = dis_def(s, s->enter.card)->kind == DIS_KIND_VILLAIN
                             ? s->vrow[me]
                             : s->mrow[me];
    for (int k = 0; k < DIS_ROW; k++)
      add(p, DIS_O_ROOM, row[k], 0);
    break;
  }
  case DIS_PH_PICK:
  case DIS_PH_DISCARD: {
    int n = candidates(s, c);
    for (int k = 0; k < n; k++)
      add(p, DIS_O_PICK, c[k], 0);
    break;
  }
  case DIS_PH_COPY: {
    uint32_t codes[ENG_OPTIONS_MAX];
    int n = copy_choices(s, codes);
    for (int k = 0; k < n && p->n < ENG_OPTIONS_MAX; k++)
      p->code[p->n++] = codes[k];
    break;
  }
  default:
    break;
  }
  if (p->n == 0) /* never at rest: settle() takes such a state on */
    p->player = -1;
}

int dis_pass_option(const void *st, const eng_prompt *p) {
  const dis_state *s = st;
  if (s->phase != DIS_PH_WINDOW)
    return -1;
  for (int k = 0; k < p->n; k++)
    if (DIS_CODE_KIND(p->code[k]) == DIS_O_PASS)
      return k;
  return -1;
}

/* ---- resolving ----------------------------------------------------------- */

static void res_continue(dis_state *s, unsigned *flags, eng_events *ev);

/* The trait under way is carried out in full: the active player has
 * priority again (unless a window or the end came first). */
static void res_done(dis_state *s) {
  s->res.on = false;
  if (s->phase != DIS_PH_WINDOW && s->phase != DIS_PH_OVER &&
      s->phase != DIS_PH_ROOM)
    to_main(s);
}

static void res_nothing(dis_state *s, eng_events *ev, const char *why) {
  if (ev) {
    char d[96];
    trait_desc(s, s->res.card, s->res.trait, d, sizeof d);
    SAY(-1, "%s%s %s.", s->res.copied ? "The copy of " : "", d, why);
  }
  res_done(s);
}

/* Card i enters seat's play area (room made); a Play triggers. */
static void enter_row(dis_state *s, int i, int seat, bool play, unsigned *flags,
                      eng_events *ev);

/* Card i is to enter seat's play area: first makes room when its row is
 * full. */
static void enter_card(dis_state *s, int i, int seat, bool play,
                       unsigned *flags, eng_events *ev) {
  bool villain = dis_def(s, i)->kind == DIS_KIND_VILLAIN;
  int n = villain ? s->n_vrow[seat] : s->n_mrow[seat];
  if (n >= DIS_ROW) {
    s->enter.card = (uint8_t)i;
    s->enter.seat = (uint8_t)seat;
    s->enter.play = play;
    s->room_back = s->phase;
    s->phase = DIS_PH_ROOM;
    *flags |= ENG_REVEALED; /* the card is named: it came out of the hand */
    if (ev) {
      char d[96];
      card_desc(s, i, d, sizeof d);
      SAY(-1,
          "Villain %d's %s row is full: they discard a card to make "
          "room for %s.",
          seat + 1, villain ? "Villain" : "Monster", d);
    }
    return;
  }
  enter_row(s, i, seat, play, flags, ev);
}

static void enter_row(dis_state *s, int i, int seat, bool play, unsigned *flags,
                      eng_events *ev) {
  bool villain = dis_def(s, i)->kind == DIS_KIND_VILLAIN;
  take_out(s, i);
  put(s, i, villain ? DIS_Z_VROW : DIS_Z_MROW, seat);
  s->used[i] = 0;
  s->entered[i] = s->turn;
  *flags |= ENG_REVEALED;
  char d[96], what[64];
  card_desc(s, i, d, sizeof d);
  if (!play) {
    SAY(-1, "Villain %d DROPs %s into their play area.", seat + 1, d);
    snprintf(what, sizeof what, "DROPped %s", name_of(s, i));
    res_done(s);
    if (seat == s->active && s->phase != DIS_PH_OVER)
      window(s, i, false, what);
    return;
  }
  s->played = true;
  SAY(-1, "Villain %d Plays %s.", seat + 1, d);
  /* The opponent's "when your opponent Plays" traits first, then the
   * card's own !!! (not at the game's first Play) on top. */
  int opp = 1 - seat;
  uint8_t c[DIS_CARDS];
  int n = area_cards(s, opp, c);
  for (int k = 0; k < n; k++) {
    int t = trait_with(s, c[k], DIS_T_TIMED);
    if (t < 0 || !trait_ready(s, c[k]))
      continue;
    const dis_trait *tr = trait_of(s, c[k], t);
    if (tr->trigger == DIS_TR_OPP_PLAY &&
        (!tr->has_on || fits(s, &tr->on, opp, c[k], i, i)))
      push(s, c[k], t, opp, i, DIS_NONE, DIS_NONE, ev);
  }
  int t = trait_with(s, i, DIS_T_IMMEDIATE);
  bool own = false;
  if (t >= 0 && s->turn == 1) {
    SAY(-1, "The game's first Play does not trigger %s's !!! trait.",
        name_of(s, i));
  } else if (t >= 0) {
    /* No subject: a !!! trait answers nothing, so a "BURN it" it COPYs
     * has no "it" (docs, Keywords: COPY). */
    push(s, i, t, seat, DIS_NONE, DIS_NONE, DIS_NONE, ev);
    own = true;
  }
  snprintf(what, sizeof what, "Played %s", name_of(s, i));
  window(s, i, own, what);
}

/* Carries out the resolving trait's op with card c chosen (or DIS_NONE
 * when the op needs no choice). */
static void carry_out(dis_state *s, int c, unsigned *flags, eng_events *ev) {
  dis_res *r = &s->res;
  int ctrl = r->e.ctrl;
  char d[96];
  if (c != DIS_NONE)
    card_desc(s, c, d, sizeof d);
  switch (r->op) {
  case DIS_OP_BOUNCE:
    SAY(-1, "Villain %d BOUNCEs %s back to Villain %d's hand.", ctrl + 1, d,
        dis_owner(c) + 1);
    leave(s, c, DIS_Z_HAND);
    res_done(s);
    return;
  case DIS_OP_BURN:
    SAY(-1, "Villain %d BURNs %s: it goes to Villain %d's discard pile.",
        ctrl + 1, d, dis_owner(c) + 1);
    leave(s, c, DIS_Z_DISCARD);
    res_done(s);
    return;
  case DIS_OP_READY:
    SAY(-1, "Villain %d READYs %s: its trait can be used again.", ctrl + 1, d);
    s->used[c] = 0;
    res_done(s);
    return;
  case DIS_OP_FLIP:
    if (r->step == 0) {
      SAY(-1,
          "Villain %d's FLIP takes %s; they choose which Monster to "
          "give.",
          ctrl + 1, d);
      r->taken = (uint8_t)c;
      r->step = 1;
      res_continue(s, flags, ev);
      return;
    } else {
      int a = r->taken, b = c;
      int ka = 0, kb = 0;
      while (s->mrow[1 - ctrl][ka] != a)
        ka++;
      while (s->mrow[ctrl][kb] != b)
        kb++;
      s->mrow[1 - ctrl][ka] = (uint8_t)b;
      s->mrow[ctrl][kb] = (uint8_t)a;
      s->side[a] = (uint8_t)ctrl;
      s->side[b] = (uint8_t)(1 - ctrl);
      if (ev) {
        char da[96];
        card_desc(s, a, da, sizeof da);
        SAY(-1, "Villain %d FLIPs: they take %s and give Villain %d %s.",
            ctrl + 1, da, 2 - ctrl, d);
      }
      res_done(s);
      return;
    }
  case DIS_OP_DROP:
    enter_card(s, c, ctrl, false, flags, ev);
    return;
  case DIS_OP_DISCARD: {
    int seat = r->chooser;
    SAY(-1, "Villain %d discards %s from their hand.", seat + 1, d);
    take_out(s, c);
    put(s, c, DIS_Z_DISCARD, seat);
    *flags |= ENG_REVEALED;
    if (--r->left > 0 && s->n_hand[seat] > 0) {
      res_continue(s, flags, ev);
      return;
    }
    res_done(s);
    return;
  }
  default:
    res_done(s);
    return;
  }
}

/* Goes on with the resolving trait: carries out what needs no choice,
 * or sets the phase that asks for it. */
static void res_continue(dis_state *s, unsigned *flags, eng_events *ev) {
  dis_res *r = &s->res;
  const dis_trait *tr = res_trait(s);
  int ctrl = r->e.ctrl;
  uint8_t c[DIS_CARDS];
  switch (r->op) {
  case DIS_OP_NEGATE: {
    if (!s->n_chain) {
      res_nothing(s, ev, "finds no trait beneath it to NEGATE");
      return;
    }
    const dis_entry *b = &s->chain[s->n_chain - 1];
    if (tr->target.n_names || tr->target.kind != DIS_KIND_CARD ||
        tr->target.colour || tr->target.dna) {
      if (!fits(s, &tr->target, ctrl, r->e.card, b->card, b->card)) {
        res_nothing(s, ev, "cannot NEGATE the trait beneath it");
        return;
      }
    }
    if (b->ctrl != ctrl && dis_in_play(s, b->card) &&
        warded(s, b->card, ctrl, DIS_OP_NEGATE)) {
      res_nothing(s, ev, "cannot NEGATE a warded card's trait");
      return;
    }
    if (ev) {
      char bd[96];
      trait_desc(s, b->card, b->trait, bd, sizeof bd);
      if (r->copied)
        SAY(-1, "Villain %d's copied NEGATE cancels Villain %d's %s.", ctrl + 1,
            b->ctrl + 1, bd);
      else
        SAY(-1, "Villain %d's %s NEGATEs Villain %d's %s: it is cancelled.",
            ctrl + 1, name_of(s, r->card), b->ctrl + 1, bd);
    }
    s->n_chain--;
    res_done(s);
    return;
  }
  case DIS_OP_DRAW:
    draw(s, ctrl, tr->n ? tr->n : 1, flags, ev);
    res_done(s);
    return;
  case DIS_OP_DISCARD: {
    int seat = 1 - ctrl;
    if (r->step == 0) {
      r->step = 1;
      r->chooser = (uint8_t)seat;
      r->left = tr->n ? tr->n : 1;
    }
    if (!s->n_hand[seat]) {
      SAY(-1, "Villain %d has no card in hand to discard.", seat + 1);
      res_done(s);
      return;
    }
    if (s->n_hand[seat] <= r->left) {
      carry_out(s, s->hand[seat][0], flags, ev);
      return;
    }
    s->phase = DIS_PH_DISCARD;
    return;
  }
  case DIS_OP_COPY: {
    if (tr->target.subject) {
      int ac = r->e.ans_card, at = r->e.ans_trait;
      if (ac == DIS_NONE) {
        res_nothing(s, ev, "finds no trait to COPY");
        return;
      }
      const dis_trait *ct = trait_of(s, ac, at);
      if (ct->op == DIS_OP_COPY || ct->timing == DIS_T_ALWAYS) {
        res_nothing(s, ev, "cannot COPY a COPY");
        return;
      }
      r->card = (uint8_t)ac;
      r->trait = (uint8_t)at;
      r->op = ct->op;
      r->copied = true;
      r->step = 0;
      if (ev) {
        char d[96];
        trait_desc(s, ac, at, d, sizeof d);
        SAY(-1, "Villain %d COPYs %s.", ctrl + 1, d);
      }
      res_continue(s, flags, ev);
      return;
    }
    uint32_t codes[ENG_OPTIONS_MAX];
    int n = copy_choices(s, codes);
    if (!n) {
      res_nothing(s, ev, "finds no trait to COPY");
      return;
    }
    s->phase = DIS_PH_COPY;
    return;
  }
  case DIS_OP_BOUNCE:
  case DIS_OP_BURN:
  case DIS_OP_READY:
  case DIS_OP_FLIP:
  case DIS_OP_DROP: {
    r->chooser = (uint8_t)ctrl;
    int n = candidates(s, c);
    if (r->op == DIS_OP_FLIP && r->step == 0 && n && !s->n_mrow[ctrl]) {
      res_nothing(s, ev, "finds no Monster of its controller's to give");
      return;
    }
    if (!n) {
      res_nothing(s, ev,
                  r->op == DIS_OP_DROP    ? "finds no card in hand to DROP"
                  : r->op == DIS_OP_READY ? "finds no used card to READY"
                                          : "finds no card it can act on");
      return;
    }
    s->phase = DIS_PH_PICK;
    return;
  }
  default:
    res_nothing(s, ev, "does nothing");
    return;
  }
}

/* ---- turns --------------------------------------------------------------- */

static void begin_turn(dis_state *s, int seat, eng_events *ev) {
  s->turn++;
  s->active = (uint8_t)seat;
  s->drawn = s->played = s->started = false;
  to_main(s);
  if (s->last_left > 0)
    SAY(-1,
        "Turn %d: Villain %d's turn (%d last turn%s left, this one "
        "included).",
        s->turn, seat + 1, s->last_left, s->last_left == 1 ? "" : "s");
  else
    SAY(-1, "Turn %d: Villain %d's turn.", s->turn, seat + 1);
}

static void game_over(dis_state *s, int winner, const char *reason,
                      eng_events *ev) {
  s->phase = DIS_PH_OVER;
  s->winner = (uint8_t)winner;
  snprintf(s->reason, sizeof s->reason, "%s", reason);
  s->n_chain = 0;
  s->res.on = false;
  if (winner == DIS_NONE)
    SAY(-1, "The game is over: a draw, %d minted Villain%s each.",
        s->n_minted[0], s->n_minted[0] == 1 ? "" : "s");
  else
    SAY(-1, "The game is over: Villain %d wins with %d minted Villain%s.",
        winner + 1, s->n_minted[winner], s->n_minted[winner] == 1 ? "" : "s");
}

static void end_turn(dis_state *s, eng_events *ev) {
  SAY(-1, "Villain %d ends their turn.", s->active + 1);
  if (s->last_left > 0) {
    s->last_left--;
    if (s->last_left == 0) {
      int a = s->n_minted[0], b = s->n_minted[1];
      SAY(-1, "Both decks are empty and the last turns are played.");
      if (a == b)
        game_over(s, DIS_NONE, "exhausted_draw", ev);
      else
        game_over(s, a > b ? 0 : 1, "exhausted", ev);
      return;
    }
  } else if (s->last_left < 0 && !s->n_deck[0] && !s->n_deck[1]) {
    s->last_left = 4;
    SAY(-1, "Both decks are empty: each player has two more turns, then the "
            "player with more minted Villains wins.");
  }
  begin_turn(s, 1 - s->active, ev);
}

static void mint(dis_state *s, int v, unsigned *flags, eng_events *ev) {
  int me = s->active, opp = 1 - me;
  uint8_t gone[DIS_ROW];
  memcpy(gone, s->mrow[me], DIS_ROW);
  if (ev) {
    char names[4][DIS_NAME_MAX + 1];
    for (int k = 0; k < DIS_ROW; k++)
      snprintf(names[k], sizeof names[k], "%s", name_of(s, gone[k]));
    SAY(-1, "Villain %d MINTs %s (%s), discarding %s, %s, %s and %s.", me + 1,
        name_of(s, v), dis_def(s, v)->seq, names[0], names[1], names[2],
        names[3]);
  }
  for (int k = 0; k < DIS_ROW; k++)
    leave(s, gone[k], DIS_Z_DISCARD);
  take_out(s, v);
  put(s, v, DIS_Z_MINTED, me);
  *flags |= ENG_REVEALED;
  if (s->n_minted[me] >= 2) {
    game_over(s, me, "minted_two", ev);
    return;
  }
  /* The opponent's "when your opponent mints" first, then the minter's
   * 👤 traits on top. */
  uint8_t c[DIS_CARDS];
  int n = area_cards(s, opp, c);
  for (int k = 0; k < n; k++) {
    int t = trait_with(s, c[k], DIS_T_TIMED);
    if (t >= 0 && trait_ready(s, c[k]) &&
        trait_of(s, c[k], t)->trigger == DIS_TR_OPP_MINT)
      push(s, c[k], t, opp, DIS_NONE, DIS_NONE, DIS_NONE, ev);
  }
  bool own = false;
  n = area_cards(s, me, c);
  for (int k = 0; k < n; k++) {
    int t = trait_with(s, c[k], DIS_T_AFTER_MINT);
    if (c[k] != v && t >= 0 && !s->used[c[k]]) {
      push(s, c[k], t, me, DIS_NONE, DIS_NONE, DIS_NONE, ev);
      own = true;
    }
  }
  for (int k = 0; k < DIS_ROW; k++) {
    int t = trait_with(s, gone[k], DIS_T_AFTER_MINT);
    if (t >= 0) {
      push(s, gone[k], t, me, DIS_NONE, DIS_NONE, DIS_NONE, ev);
      own = true;
    }
  }
  int t = trait_with(s, v, DIS_T_AFTER_MINT);
  if (t >= 0 && !s->used[v]) {
    push(s, v, t, me, DIS_NONE, DIS_NONE, DIS_NONE, ev);
    own = true;
  }
  char what[64];
  snprintf(what, sizeof what, "minted %s", name_of(s, v));
  window(s, DIS_NONE, own, what);
}

/* ---- setup --------------------------------------------------------------- */

/* Deals seat's deck once its design and Villains are known: the starting
 * Villain into play, the other 19 shuffled, two drawn. */
static void deal(dis_state *s, int seat, unsigned *flags, eng_events *ev) {
  const dis_design *g = &D()->designs[s->design[seat]];
  int base = seat * DIS_DECK;
  for (int k = 0; k < 16; k++)
    s->def[base + 4 + k] = g->monsters[k];
  for (int k = 0; k < DIS_DECK; k++) {
    s->used[base + k] = 0;
    s->entered[base + k] = -1;
  }
  int start = base + (int)eng_rng_below(&s->rng, 4);
  put(s, start, DIS_Z_VROW, seat);
  for (int k = 0; k < DIS_DECK; k++)
    if (base + k != start)
      put(s, base + k, DIS_Z_DECK, seat);
  for (int k = s->n_deck[seat] - 1; k > 0; k--) {
    int j = (int)eng_rng_below(&s->rng, (uint32_t)k + 1);
    uint8_t tmp = s->deck[seat][k];
    s->deck[seat][k] = s->deck[seat][j];
    s->deck[seat][j] = tmp;
  }
  if (ev) {
    char d[96];
    card_desc(s, start, d, sizeof d);
    SAY(-1, "Villain %d's starting Villain is %s.", seat + 1, d);
  }
  draw(s, seat, 2, flags, ev);
}

static void after_draft(dis_state *s, int first, unsigned *flags,
                        eng_events *ev) {
  deal(s, 0, flags, ev);
  deal(s, 1, flags, ev);
  if (first >= 0) {
    s->first = (uint8_t)first;
    begin_turn(s, first, ev);
    return;
  }
  s->rps = (uint8_t)eng_rng_below(&s->rng, 2);
  s->phase = DIS_PH_RPS;
  SAY(-1, "Villain %d wins Rock-Paper-Scissors and chooses who starts.",
      s->rps + 1);
}

/* The configured first seat, kept until the draft ends (-1: none). */
static int cfg_first(const dis_state *s) {
  return s->first == DIS_NONE ? -1 : s->first;
}

static eng_rc dis_setup(void *st, const eng_config *cfg, uint64_t seed) {
  dis_state *s = st;
  const dis_data *d = D();
  if (!d)
    return ENG_INTERNAL;
  if (cfg->players != DIS_PLAYERS)
    return ENG_BAD_PLAYERS;
  if (cfg->mode[0] && strcmp(cfg->mode, "standard") != 0 &&
      strcmp(cfg->mode, "random") != 0)
    return ENG_BAD_MODE;
  if (cfg->first >= DIS_PLAYERS)
    return ENG_BAD_SEAT;
  memset(s, 0, sizeof *s);
  eng_rng_seed(&s->rng, seed, 0);
  s->mode_random = strcmp(cfg->mode, "random") == 0;
  s->first = cfg->first >= 0 ? (uint8_t)cfg->first : DIS_NONE;
  s->rps = DIS_NONE;
  s->winner = DIS_NONE;
  s->last_left = -1;
  s->design[0] = s->design[1] = -1;
  s->win_enter = DIS_NONE;
  for (int i = 0; i < DIS_CARDS; i++) {
    s->side[i] = (uint8_t)dis_owner(i);
    s->entered[i] = -1;
  }
  if (!s->mode_random) {
    s->phase = DIS_PH_DESIGN;
    s->pick_seat = 0;
    return ENG_OK;
  }
  unsigned flags = 0;
  for (int seat = 0; seat < DIS_PLAYERS; seat++)
    s->design[seat] = (int8_t)eng_rng_below(&s->rng, (uint32_t)d->n_designs);
  int order[DIS_MAX_POOL];
  for (int k = 0; k < d->n_pool; k++)
    order[k] = k;
  for (int k = d->n_pool - 1; k > 0; k--) {
    int j = (int)eng_rng_below(&s->rng, (uint32_t)k + 1);
    int tmp = order[k];
    order[k] = order[j];
    order[j] = tmp;
  }
  for (int k = 0; k < 8; k++)
    s->def[(k / 4) * DIS_DECK + k % 4] = d->pool[order[k]];
  s->drafted = 8;
  int first = cfg_first(s);
  s->first = 0;
  after_draft(s, first, &flags, NULL);
  return ENG_OK;
}

/* ---- answers ------------------------------------------------------------- */

static void do_option(dis_state *s, uint32_t code, unsigned *flags,
                      eng_events *ev) {
  int a = DIS_CODE_A(code), b = DIS_CODE_B(code);
  int me = ask_seat(s);
  char d[96];
  switch (DIS_CODE_KIND(code)) {
  case DIS_O_DESIGN:
    s->design[me] = (int8_t)a;
    SAY(-1, "Villain %d chooses the deck design %s.", me + 1,
        D()->designs[a].name);
    if (me == 0) {
      s->pick_seat = 1;
    } else {
      s->phase = DIS_PH_DRAFT;
      s->drafted = 0;
    }
    return;
  case DIS_O_VILLAIN: {
    s->def[me * DIS_DECK + dis_picks_of(s->drafted, me)] = D()->pool[a];
    s->drafted++;
    const dis_card *c = &D()->cards[D()->pool[a]];
    SAY(-1, "Villain %d drafts %s (%s).", me + 1, c->name, c->seq);
    if (s->drafted == 8) {
      int first = cfg_first(s);
      s->first = 0;
      after_draft(s, first, flags, ev);
    }
    return;
  }
  case DIS_O_START:
  case DIS_O_DEFER: {
    int first = DIS_CODE_KIND(code) == DIS_O_START ? me : 1 - me;
    SAY(-1, "Villain %d %s.", me + 1,
        first == me ? "takes the first turn" : "lets their opponent start");
    s->first = (uint8_t)first;
    begin_turn(s, first, ev);
    return;
  }
  case DIS_O_PLAY:
    enter_card(s, a, me, true, flags, ev);
    return;
  case DIS_O_ROOM: {
    card_desc(s, a, d, sizeof d);
    SAY(-1, "Villain %d discards %s to make room.", me + 1, d);
    leave(s, a, DIS_Z_DISCARD);
    s->phase = s->room_back;
    enter_row(s, s->enter.card, s->enter.seat, s->enter.play, flags, ev);
    return;
  }
  case DIS_O_TRAIT: {
    int t = trait_with(s, a, DIS_T_TIMED);
    push(s, a, t, me, DIS_NONE, DIS_NONE, DIS_NONE, ev);
    char what[64];
    snprintf(what, sizeof what, "used %s's ⏳ %s", name_of(s, a),
             dis_op_name(trait_of(s, a, t)->op));
    window(s, DIS_NONE, true, what);
    return;
  }
  case DIS_O_MINT:
    mint(s, a, flags, ev);
    return;
  case DIS_O_RESOLVE: {
    dis_res *r = &s->res;
    memset(r, 0, sizeof *r);
    r->on = true;
    r->e = s->chain[--s->n_chain];
    r->card = r->e.card;
    r->trait = r->e.trait;
    r->op = trait_of(s, r->card, r->trait)->op;
    r->taken = DIS_NONE;
    r->chooser = r->e.ctrl;
    if (ev) {
      trait_desc(s, r->card, r->trait, d, sizeof d);
      SAY(-1, "Villain %d's %s resolves.", r->e.ctrl + 1, d);
    }
    res_continue(s, flags, ev);
    return;
  }
  case DIS_O_END:
    end_turn(s, ev);
    return;
  case DIS_O_PASS:
    SAY(-1, "Villain %d passed.", me + 1);
    to_main(s);
    return;
  case DIS_O_INT: {
    int t = trait_with(s, a, DIS_T_INTERRUPT);
    const dis_trait *tr = trait_of(s, a, t);
    int subject = DIS_NONE, ac = DIS_NONE, at = DIS_NONE;
    if (tr->answers == DIS_AN_ENTER) {
      subject = s->win_enter;
    } else {
      const dis_entry *top = &s->chain[s->n_chain - 1];
      subject = top->card;
      ac = top->card;
      at = top->trait;
    }
    push(s, a, t, me, subject, ac, at, ev);
    to_main(s);
    return;
  }
  case DIS_O_PICK:
    carry_out(s, a, flags, ev);
    return;
  case DIS_O_COPY: {
    dis_res *r = &s->res;
    if (ev) {
      trait_desc(s, a, b, d, sizeof d);
      SAY(-1, "Villain %d COPYs %s.", r->e.ctrl + 1, d);
    }
    r->card = (uint8_t)a;
    r->trait = (uint8_t)b;
    r->op = trait_of(s, a, b)->op;
    r->copied = true;
    r->step = 0;
    s->phase = DIS_PH_MAIN;
    res_continue(s, flags, ev);
    return;
  }
  default:
    return;
  }
}

/* Carries out what the rules do by themselves and every decision with
 * one possible answer, until a real choice or the end. */
static eng_rc settle(dis_state *s, unsigned *flags, eng_events *ev) {
  for (int guard = 0; guard < 1000; guard++) {
    if (s->phase == DIS_PH_OVER)
      return ENG_OK;
    if (s->phase == DIS_PH_MAIN && !s->res.on) {
      if (!s->started) {
        s->started = true;
        uint8_t c[DIS_CARDS];
        int n = area_cards(s, s->active, c);
        bool any = false;
        for (int k = 0; k < n; k++) {
          int t = trait_with(s, c[k], DIS_T_TIMED);
          if (t >= 0 && trait_ready(s, c[k]) &&
              trait_of(s, c[k], t)->trigger == DIS_TR_TURN_START) {
            push(s, c[k], t, s->active, DIS_NONE, DIS_NONE, DIS_NONE, ev);
            any = true;
          }
        }
        if (any) {
          window(s, DIS_NONE, true,
                 "put their start-of-turn traits on the "
                 "chain");
          return ENG_OK;
        }
        continue;
      }
      if (!s->n_chain && !s->drawn) {
        s->drawn = true;
        draw(s, s->active, 1, flags, ev);
        continue;
      }
    }
    eng_prompt p;
    dis_prompt(s, &p);
    if (p.player < 0)
      return s->phase == DIS_PH_OVER ? ENG_OK : ENG_INTERNAL;
    if (p.n > 1 || s->phase == DIS_PH_WINDOW)
      return ENG_OK;
    do_option(s, p.code[0], flags, ev);
  }
  return ENG_INTERNAL;
}

eng_rc dis_apply(void *st, uint32_t code, unsigned *flags, eng_events *ev) {
  dis_state *s = st;
  if (s->phase == DIS_PH_OVER)
    return ENG_INTERNAL;
  do_option(s, code, flags, ev);
  return settle(s, flags, ev);
}

static eng_rc dis_setup_settled(void *st, const eng_config *cfg,
                                uint64_t seed) {
  eng_rc rc = dis_setup(st, cfg, seed);
  unsigned flags = 0;
  return rc ? rc : settle(st, &flags, NULL);
}

/* ---- questions and labels ------------------------------------------------ */

void dis_question(const void *st, const eng_prompt *p, char *buf, size_t cap) {
  const dis_state *s = st;
  char d[96];
  switch (s->phase) {
  case DIS_PH_DESIGN:
    snprintf(buf, cap, "Choose your deck design (its 16 Monsters).");
    return;
  case DIS_PH_DRAFT:
    snprintf(buf, cap,
             "Draft a Villain for your deck (pick %d of 8; you will hold 4).",
             s->drafted + 1);
    return;
  case DIS_PH_RPS:
    snprintf(buf, cap,
             "You won Rock-Paper-Scissors: take the first turn, "
             "or let your opponent start?");
    return;
  case DIS_PH_MAIN:
    if (s->n_chain) {
      const dis_entry *e = &s->chain[s->n_chain - 1];
      trait_desc(s, e->card, e->trait, d, sizeof d);
      snprintf(buf, cap,
               "%d trait%s wait%s on the chain (newest: Villain %d's %s). "
               "Resolve it, or answer with a ⏳ trait or a MINT?",
               s->n_chain, s->n_chain == 1 ? "" : "s",
               s->n_chain == 1 ? "s" : "", e->ctrl + 1, d);
    } else if (!s->played && s->n_hand[s->active]) {
      snprintf(buf, cap,
               "Your turn: Play a card (or first use a ⏳ trait "
               "or MINT).");
    } else {
      snprintf(buf, cap, "Use a ⏳ trait, MINT, or end your turn?");
    }
    return;
  case DIS_PH_WINDOW:
    snprintf(buf, cap, "Villain %d %s. Interrupt with a 🧠 trait, or pass?",
             s->active + 1, s->win_what);
    return;
  case DIS_PH_ROOM:
    card_desc(s, s->enter.card, d, sizeof d);
    snprintf(buf, cap,
             "Your row is full: discard which card to make room "
             "for %s?",
             d);
    return;
  case DIS_PH_PICK:
  case DIS_PH_DISCARD:
  case DIS_PH_COPY: {
    const char *what =
        s->phase == DIS_PH_COPY      ? "COPY which trait?"
        : s->phase == DIS_PH_DISCARD ? "discard which card from your hand?"
        : s->res.op == DIS_OP_FLIP && s->res.step == 0 ? "take which Monster?"
        : s->res.op == DIS_OP_FLIP   ? "give which of your Monsters?"
        : s->res.op == DIS_OP_DROP   ? "DROP which card from your hand?"
        : s->res.op == DIS_OP_BOUNCE ? "BOUNCE which card?"
        : s->res.op == DIS_OP_BURN   ? "BURN which card?"
                                     : "READY which card?";
    snprintf(buf, cap, "%s's %s: %s", name_of(s, s->res.e.card),
             dis_op_name(trait_of(s, s->res.e.card, s->res.e.trait)->op), what);
    return;
  }
  default:
    snprintf(buf, cap, "The game is over.");
    (void)p;
    return;
  }
}

void dis_option(const void *st, const eng_prompt *p, int i,
                char id[ENG_ID_MAX + 1], char label[ENG_LABEL_MAX + 1]) {
  const dis_state *s = st;
  id[0] = label[0] = '\0';
  if (i < 0 || i >= p->n)
    return;
  uint32_t code = p->code[i];
  int a = DIS_CODE_A(code), b = DIS_CODE_B(code);
  char d[96];
  if (a < DIS_CARDS && DIS_CODE_KIND(code) >= DIS_O_PLAY &&
      DIS_CODE_KIND(code) != DIS_O_RESOLVE &&
      DIS_CODE_KIND(code) != DIS_O_END && DIS_CODE_KIND(code) != DIS_O_PASS)
    card_desc(s, a, d, sizeof d);
  switch (DIS_CODE_KIND(code)) {
  case DIS_O_DESIGN:
    snprintf(id, ENG_ID_MAX + 1, "design.%s", D()->designs[a].id);
    eng_label(label, "%s", D()->designs[a].name);
    return;
  case DIS_O_VILLAIN: {
    const dis_card *c = &D()->cards[D()->pool[a]];
    snprintf(id, ENG_ID_MAX + 1, "villain.%s", c->id);
    eng_label(label, "%s (%s, %s)", c->name, c->seq,
              dis_colour_name(c->colour));
    return;
  }
  case DIS_O_START:
    snprintf(id, ENG_ID_MAX + 1, "start");
    eng_label(label, "Take the first turn");
    return;
  case DIS_O_DEFER:
    snprintf(id, ENG_ID_MAX + 1, "defer");
    eng_label(label, "Let your opponent start");
    return;
  case DIS_O_PLAY:
    snprintf(id, ENG_ID_MAX + 1, "play.c%d", a);
    eng_label(label, "Play %s", d);
    return;
  case DIS_O_ROOM:
    snprintf(id, ENG_ID_MAX + 1, "room.c%d", a);
    eng_label(label, "Discard %s", d);
    return;
  case DIS_O_TRAIT: {
    int t = trait_with(s, a, DIS_T_TIMED);
    snprintf(id, ENG_ID_MAX + 1, "trait.c%d", a);
    eng_label(label, "Use %s's ⏳ %s", name_of(s, a),
              dis_op_name(trait_of(s, a, t)->op));
    return;
  }
  case DIS_O_MINT:
    snprintf(id, ENG_ID_MAX + 1, "mint.c%d", a);
    eng_label(label, "Mint %s (%s)", name_of(s, a), dis_def(s, a)->seq);
    return;
  case DIS_O_RESOLVE: {
    const dis_entry *e = &s->chain[s->n_chain - 1];
    snprintf(id, ENG_ID_MAX + 1, "resolve");
    trait_desc(s, e->card, e->trait, d, sizeof d);
    eng_label(label, "Resolve %s", d);
    return;
  }
  case DIS_O_END:
    snprintf(id, ENG_ID_MAX + 1, "end");
    eng_label(label, "End your turn");
    return;
  case DIS_O_INT: {
    int t = trait_with(s, a, DIS_T_INTERRUPT);
    snprintf(id, ENG_ID_MAX + 1, "int.c%d", a);
    eng_label(label, "Use %s's 🧠 %s", name_of(s, a),
              dis_op_name(trait_of(s, a, t)->op));
    return;
  }
  case DIS_O_PASS:
    snprintf(id, ENG_ID_MAX + 1, "pass");
    eng_label(label, "Pass");
    return;
  case DIS_O_PICK: {
    snprintf(id, ENG_ID_MAX + 1, "pick.c%d", a);
    int op = s->phase == DIS_PH_DISCARD ? DIS_OP_DISCARD : s->res.op;
    const char *verb = op == DIS_OP_FLIP      ? (s->res.step ? "Give" : "Take")
                       : op == DIS_OP_DISCARD ? "Discard"
                                              : dis_op_name(op);
    if (op == DIS_OP_BOUNCE || op == DIS_OP_BURN || op == DIS_OP_READY)
      eng_label(label, "%s %s (Villain %d's)", verb, d, s->side[a] + 1);
    else
      eng_label(label, "%s %s", verb, d);
    return;
  }
  case DIS_O_COPY: {
    snprintf(id, ENG_ID_MAX + 1, "copy.c%d.%d", a, b + 1);
    const dis_trait *tr = trait_of(s, a, b);
    eng_label(label, "COPY %s's %s %s", name_of(s, a),
              dis_timing_symbol(tr->timing), dis_op_name(tr->op));
    return;
  }
  default:
    return;
  }
}

/* ---- the ruleset --------------------------------------------------------- */

static json_t *dis_cards_list(void) {
  const dis_data *d = dis_data_get();
  return d ? dis_cards_json(d) : NULL;
}

static char *dis_cards_md(void) {
  const dis_data *d = dis_data_get();
  return d ? dis_cards_markdown(d) : NULL;
}

static const char *const dis_modes[] = {"standard", "random", NULL};
static const char *const dis_open_piles[] = {"discard_1", "discard_2", NULL};

const eng_ruleset dis_ruleset = {
    .id = "disorder",
    .name = "Disorder of the Villains",
    .version = 1,
    .colour = 0x2f7d5b, /* a laboratory green */
    .min_players = 2,
    .max_players = 2,
    .modes_help = "standard (the default: deck designs chosen and Villains "
                  "drafted) or random (both dealt at random)",
    .modes = dis_modes,
    .open_piles = dis_open_piles,
    .state_size = sizeof(dis_state),
    .setup = dis_setup_settled,
    .prompt = dis_prompt,
    .question = dis_question,
    .option = dis_option,
    .apply = dis_apply,
    .view = dis_view,
    .to_json = dis_to_json,
    .from_json = dis_from_json,
    .result = dis_result,
    .check = dis_check,
    .cards = dis_cards_list,
    .cards_markdown = dis_cards_md,
    .render = dis_render,
    .ai = dis_ai,
    .ai_why = dis_ai_why,
    .pass_option = dis_pass_option,
};
