/*
 * dis_position.c: test-only builder of Disorder positions (see
 * dis_position.h). It rewrites a real game's dis_state and proves the
 * result with dis_check, so a test never starts from a state the engine
 * could not reach by its own invariants.
 */
#include "dis_position.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

static const dis_data *data(void) {
  const dis_data *d = dis_data_get();
  if (!d)
    fail_msg("the Disorder card data did not load");
  return d;
}

static int design_of(const char *id) {
  const dis_data *d = data();
  for (int k = 0; k < d->n_designs; k++)
    if (strcmp(d->designs[k].id, id) == 0)
      return k;
  fail_msg("no deck design '%s'", id);
  return -1;
}

/* Whether pool Villain card v is among the first n Villains of either
 * block. */
static bool taken(const dis_state *s, const int n[DIS_PLAYERS], int v) {
  for (int q = 0; q < DIS_PLAYERS; q++)
    for (int k = 0; k < n[q]; k++)
      if (s->def[q * DIS_DECK + k] == v)
        return true;
  return false;
}

/* Reads the space-separated Villain ids of list into seat's block; *n
 * receives how many. */
static void name_villains(dis_state *s, int seat, const char *list,
                          const int n_before[DIS_PLAYERS], int *n) {
  const dis_data *d = data();
  int got = 0;
  for (const char *at = list; *at;) {
    size_t len = strcspn(at, " ");
    char w[DIS_ID_MAX + 2];
    snprintf(w, sizeof w, "%.*s", (int)(len < sizeof w ? len : sizeof w - 1),
             at);
    at += len;
    at += strspn(at, " ");
    int v = dis_card_find(d, w);
    if (v < 0 || d->cards[v].kind != DIS_KIND_VILLAIN)
      fail_msg("'%s' is no pool Villain", w);
    if (got >= 4)
      fail_msg("seat %d is given more than 4 Villains", seat);
    int counts[DIS_PLAYERS] = {n_before[0], n_before[1]};
    counts[seat] = got;
    if (taken(s, counts, v))
      fail_msg("the Villain '%s' is named twice", w);
    s->def[seat * DIS_DECK + got++] = (uint16_t)v;
  }
  if (got < 1)
    fail_msg("seat %d is given no Villain", seat);
  *n = got;
}

void dp_new(dis_pos *p, uint64_t seed, const char *design0,
            const char *villains0, const char *design1, const char *villains1) {
  const dis_data *d = data();
  memset(p, 0, sizeof *p);
  eng_config cfg = {.players = 2, .mode = "random", .first = 0};
  assert_int_equal(eng_game_new(eng_find("disorder"), &cfg, seed, &p->g),
                   ENG_OK);
  dis_state *s = p->s = p->g->state;
  s->design[0] = (int8_t)design_of(design0);
  s->design[1] = (int8_t)design_of(design1);
  int n[DIS_PLAYERS] = {0, 0};
  name_villains(s, 0, villains0, n, &n[0]);
  name_villains(s, 1, villains1, n, &n[1]);
  for (int seat = 0; seat < DIS_PLAYERS; seat++)
    for (int k = 0; k < d->n_pool && n[seat] < 4; k++)
      if (!taken(s, n, d->pool[k]))
        s->def[seat * DIS_DECK + n[seat]++] = d->pool[k];
  for (int seat = 0; seat < DIS_PLAYERS; seat++) {
    for (int k = 0; k < 16; k++)
      s->def[seat * DIS_DECK + 4 + k] = d->designs[s->design[seat]].monsters[k];
    s->n_deck[seat] = s->n_hand[seat] = s->n_vrow[seat] = 0;
    s->n_mrow[seat] = s->n_minted[seat] = s->n_discard[seat] = 0;
  }
  for (int i = 0; i < DIS_CARDS; i++) {
    s->zone[i] = DIS_Z_NONE;
    s->side[i] = (uint8_t)dis_owner(i);
    s->used[i] = 0;
    s->entered[i] = -1;
  }
}

int dp_card(const dis_pos *p, int owner, const char *id) {
  int c = dis_card_find(data(), id);
  for (int i = owner * DIS_DECK; c >= 0 && i < (owner + 1) * DIS_DECK; i++)
    if (p->s->def[i] == c)
      return i;
  fail_msg("seat %d's deck holds no '%s'", owner, id);
  return -1;
}


static void put_at(dis_pos *p, int i, int zone, int side) {
  uint8_t *n;
  uint8_t *a = dis_place(p->s, zone, side, &n);
  if (!a)
    fail_msg("zone %d is no place to put a card", zone);
  a[(*n)++] = (uint8_t)i;
  p->s->zone[i] = (uint8_t)zone;
  p->s->side[i] = (uint8_t)side;
  p->placed[i] = true;
}

int dp_put_side(dis_pos *p, int owner, const char *id, int zone, int side) {
  int i = dp_card(p, owner, id);
  if (p->placed[i])
    fail_msg("seat %d's '%s' (c%d) is placed twice", owner, id, i);
  put_at(p, i, zone, side);
  if (zone == DIS_Z_DECK)
    p->n_top[owner]++;
  return i;
}

int dp_put(dis_pos *p, int owner, const char *id, int zone) {
  return dp_put_side(p, owner, id, zone, owner);
}

void dp_rest(dis_pos *p, int seat, int zone) {
  for (int i = seat * DIS_DECK; i < (seat + 1) * DIS_DECK; i++)
    if (!p->placed[i]) {
      if (zone == DIS_Z_DECK) {
        /* under the cards put on top */
        dis_state *s = p->s;
        memmove(s->deck[seat] + 1, s->deck[seat], s->n_deck[seat]);
        s->deck[seat][0] = (uint8_t)i;
        s->n_deck[seat]++;
        s->zone[i] = DIS_Z_DECK;
        s->side[i] = (uint8_t)seat;
        p->placed[i] = true;
      } else {
        put_at(p, i, zone, seat);
      }
    }
}

void dp_refresh(dis_pos *p) {
  char msg[256];
  p->g->rs->prompt(p->s, &p->g->prompt);
  if (dis_check(p->s, msg, sizeof msg))
    fail_msg("the position fails dis_check: %s", msg);
}

void dp_finish(dis_pos *p, int turn, int active) {
  dis_state *s = p->s;
  for (int seat = 0; seat < DIS_PLAYERS; seat++) {
    /* unplaced cards under the top ones, lowest instance at the bottom */
    int before = s->n_deck[seat];
    uint8_t top[DIS_DECK];
    memcpy(top, s->deck[seat], (size_t)before);
    s->n_deck[seat] = 0;
    for (int i = seat * DIS_DECK; i < (seat + 1) * DIS_DECK; i++)
      if (!p->placed[i])
        put_at(p, i, DIS_Z_DECK, seat);
    memcpy(s->deck[seat] + s->n_deck[seat], top, (size_t)before);
    s->n_deck[seat] = (uint8_t)(s->n_deck[seat] + before);
  }
  s->phase = DIS_PH_MAIN;
  s->mode_random = 1;
  s->turn = (int16_t)turn;
  s->active = (uint8_t)active;
  s->first = 0;
  s->rps = DIS_NONE;
  s->drafted = 8;
  s->drawn = s->started = true;
  s->played = false;
  s->last_left = -1;
  s->n_chain = 0;
  s->win_enter = DIS_NONE;
  s->win_trait = false;
  s->win_what[0] = '\0';
  memset(&s->res, 0, sizeof s->res);
  s->winner = DIS_NONE;
  s->reason[0] = '\0';
  dp_refresh(p);
}

void dp_free(dis_pos *p) {
  eng_game_free(p->g);
  p->g = NULL;
  p->s = NULL;
}
