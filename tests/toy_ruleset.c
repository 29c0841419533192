/*
 * toy_ruleset.c: the test-only "toy" game (rules in toy_ruleset.h).
 *
 * A complete eng_ruleset in a few hundred lines: a flat state with a
 * shuffled deck and the rng inside, private hands, a draw that reveals, an
 * out-of-turn "challenge or pass" prompt, told lines for every answer
 * (the face-down card named only to its player), a strict from_json and a
 * check() that tests card conservation and what view() lets each seat
 * see. The core tests drive it through eng_game_* and eng_simulate.
 */
#include "toy_ruleset.h"

#include <stdio.h>
#include <string.h>

#define CODE(kind, card) ((uint32_t)(kind) << 8 | (uint32_t)(card))
#define KIND(code) ((int)((code) >> 8))
#define CARD(code) ((uint16_t)((code)&0xffu))

static const char *const phase_names[] = {"play", "claim", "respond", "over"};
static const char *const claim_names[] = {"none", "high", "low"};
static const char *const reason_names[] = {"", "points", "exhausted"};

int toy_rank(uint16_t card) { return card / 2 + 1; }

static int responder(const toy_state *s) {
  return (s->current + 1) % s->players;
}

static bool can_draw(const toy_state *s) {
  return !s->drawn && s->hand[s->current].n < TOY_HAND_MAX &&
         s->deck.n + s->discard.n > 0;
}

/* Sets winners to every seat holding the best score, and tells it. */
static void finish(toy_state *s, int reason, eng_events *ev) {
  int best = 0;

  for (int i = 0; i < s->players; i++)
    if (s->score[i] > best)
      best = s->score[i];
  s->winners = 0;
  for (int i = 0; i < s->players; i++)
    if (s->score[i] == best)
      s->winners |= (uint8_t)(1u << i);
  s->phase = TOY_OVER;
  s->reason = (int8_t)reason;
  if (!ev)
    return;
  for (int i = 0; i < s->players; i++)
    if (s->winners & (1u << i))
      eng_event_add(ev, -1, "Seat %d wins with %d points!", i + 1, best);
}

static void end_turn(toy_state *s, eng_events *ev) {
  s->table = -1;
  s->claim = TOY_CLAIM_NONE;
  s->drawn = 0;
  for (int i = 0; i < s->players; i++) {
    if (s->score[i] >= s->target) {
      finish(s, TOY_REASON_POINTS, ev);
      return;
    }
  }
  s->current = (int8_t)responder(s);
  s->turn++;
  s->phase = TOY_PLAY;
  if (s->hand[s->current].n == 0 && !can_draw(s))
    finish(s, TOY_REASON_EXHAUSTED, ev);
}

static eng_rc toy_setup(void *st, const eng_config *cfg, uint64_t seed) {
  toy_state *s = st;
  int target;

  if (cfg->players < 2 || cfg->players > TOY_SEATS)
    return ENG_BAD_PLAYERS;
  if (cfg->mode[0] == '\0' || strcmp(cfg->mode, "standard") == 0)
    target = 5;
  else if (strcmp(cfg->mode, "short") == 0)
    target = 3;
  else
    return ENG_BAD_MODE;
  if (cfg->first < -1 || cfg->first >= cfg->players)
    return ENG_BAD_SEAT;

  memset(s, 0, sizeof *s);
  eng_rng_seed(&s->rng, seed, 0);
  s->players = (int8_t)cfg->players;
  s->target = (int8_t)target;
  s->turn = 1;
  s->table = -1;
  for (uint16_t c = 0; c < TOY_CARDS; c++)
    eng_pile_push(&s->deck, c);
  eng_pile_shuffle(&s->deck, &s->rng);
  for (int k = 0; k < TOY_DEAL; k++) {
    for (int i = 0; i < s->players; i++) {
      uint16_t c;
      eng_pile_pop(&s->deck, &c);
      eng_pile_push(&s->hand[i], c);
    }
  }
  s->current =
      (int8_t)(cfg->first >= 0
                   ? cfg->first
                   : (int)eng_rng_below(&s->rng, (uint32_t)s->players));
  s->phase = TOY_PLAY;
  return ENG_OK;
}

static void toy_prompt(const void *st, eng_prompt *p) {
  const toy_state *s = st;
  const eng_pile *h = &s->hand[s->current];

  p->turn = s->turn;
  p->n = 0;
  switch ((enum toy_phase)s->phase) {
  case TOY_PLAY:
    p->player = s->current;
    for (int i = 0; i < h->n; i++)
      p->code[p->n++] = CODE(TOY_OPT_PLAY, h->c[i]);
    if (can_draw(s))
      p->code[p->n++] = CODE(TOY_OPT_DRAW, 0);
    return;
  case TOY_CLAIM:
    p->player = s->current;
    p->code[p->n++] = CODE(TOY_OPT_HIGH, 0);
    p->code[p->n++] = CODE(TOY_OPT_LOW, 0);
    return;
  case TOY_RESPOND:
    p->player = responder(s);
    p->code[p->n++] = CODE(TOY_OPT_CHALLENGE, 0);
    p->code[p->n++] = CODE(TOY_OPT_PASS, 0);
    return;
  case TOY_OVER:
    p->player = -1;
    return;
  }
}

static void toy_question(const void *st, const eng_prompt *p, char *buf,
                         size_t cap) {
  const toy_state *s = st;

  (void)p;
  switch ((enum toy_phase)s->phase) {
  case TOY_PLAY:
    snprintf(buf, cap, "%s",
             can_draw(s) ? "Play which card, or draw first?"
                         : "Play which card?");
    return;
  case TOY_CLAIM:
    snprintf(buf, cap, "Claim your card is high (5-8) or low (1-4)?");
    return;
  case TOY_RESPOND:
    snprintf(buf, cap, "Seat %d claims a %s card. Challenge or pass?",
             s->current + 1, claim_names[s->claim]);
    return;
  case TOY_OVER:
    snprintf(buf, cap, "The game is over.");
    return;
  }
}

static void toy_option(const void *st, const eng_prompt *p, int i,
                       char id[ENG_ID_MAX + 1], char label[ENG_LABEL_MAX + 1]) {
  uint32_t code = p->code[i];

  (void)st;
  id[0] = label[0] = '\0';
  switch ((enum toy_kind)KIND(code)) {
  case TOY_OPT_PLAY:
    snprintf(id, ENG_ID_MAX + 1, "play-%u", (unsigned)CARD(code));
    snprintf(label, ENG_LABEL_MAX + 1, "Play %d", toy_rank(CARD(code)));
    return;
  case TOY_OPT_DRAW:
    snprintf(id, ENG_ID_MAX + 1, "draw");
    snprintf(label, ENG_LABEL_MAX + 1, "Draw a card");
    return;
  case TOY_OPT_HIGH:
    snprintf(id, ENG_ID_MAX + 1, "high");
    snprintf(label, ENG_LABEL_MAX + 1, "Claim high");
    return;
  case TOY_OPT_LOW:
    snprintf(id, ENG_ID_MAX + 1, "low");
    snprintf(label, ENG_LABEL_MAX + 1, "Claim low");
    return;
  case TOY_OPT_CHALLENGE:
    snprintf(id, ENG_ID_MAX + 1, "challenge");
    snprintf(label, ENG_LABEL_MAX + 1, "Challenge");
    return;
  case TOY_OPT_PASS:
    snprintf(id, ENG_ID_MAX + 1, "pass");
    snprintf(label, ENG_LABEL_MAX + 1, "Pass");
    return;
  }
}

/* Tells every answer: the played card stays face down (only its player
 * hears which it is) until a challenge turns it up. */
static eng_rc toy_apply(void *st, uint32_t code, unsigned *flags,
                        eng_events *ev) {
  toy_state *s = st;
  uint16_t card = CARD(code);
  int kind = KIND(code);
  bool resh = false, truth;

  /* The core only passes codes of the current prompt; anything else is
   * the core's bug, refused without change. */
  switch ((enum toy_kind)kind) {
  case TOY_OPT_PLAY:
    if (s->phase != TOY_PLAY || !eng_pile_remove(&s->hand[s->current], card))
      return ENG_INTERNAL;
    s->table = (int16_t)card;
    s->phase = TOY_CLAIM;
    eng_event_add(ev, -1, "Seat %d plays a card face down.", s->current + 1);
    eng_event_add(ev, s->current, "You play a %d.", toy_rank(card));
    return ENG_OK;
  case TOY_OPT_DRAW:
    if (s->phase != TOY_PLAY || !can_draw(s) ||
        !eng_pile_draw(&s->deck, &s->discard, &s->rng, &card, &resh))
      return ENG_INTERNAL;
    eng_pile_push(&s->hand[s->current], card);
    s->drawn = 1;
    *flags |= ENG_REVEALED;
    eng_event_add(ev, -1, "Seat %d draws a card.", s->current + 1);
    eng_event_add(ev, s->current, "You draw a %d.", toy_rank(card));
    return ENG_OK;
  case TOY_OPT_HIGH:
  case TOY_OPT_LOW:
    if (s->phase != TOY_CLAIM)
      return ENG_INTERNAL;
    s->claim = kind == TOY_OPT_HIGH ? TOY_CLAIM_HIGH : TOY_CLAIM_LOW;
    s->phase = TOY_RESPOND;
    eng_event_add(ev, -1, "Seat %d claims the card is %s.", s->current + 1,
                  claim_names[s->claim]);
    return ENG_OK;
  case TOY_OPT_CHALLENGE:
    if (s->phase != TOY_RESPOND)
      return ENG_INTERNAL;
    truth = (s->claim == TOY_CLAIM_HIGH) == (toy_rank((uint16_t)s->table) >= 5);
    s->score[truth ? s->current : responder(s)] += 2;
    eng_pile_push(&s->discard, (uint16_t)s->table);
    *flags |= ENG_REVEALED;
    eng_event_add(ev, -1,
                  "Seat %d challenges: the card is a %d, so Seat %d scores 2.",
                  responder(s) + 1, toy_rank((uint16_t)s->table),
                  (truth ? s->current : responder(s)) + 1);
    end_turn(s, ev);
    return ENG_OK;
  case TOY_OPT_PASS:
    if (s->phase != TOY_RESPOND)
      return ENG_INTERNAL;
    s->score[s->current] += 1;
    eng_pile_push(&s->bank[s->current], (uint16_t)s->table);
    eng_event_add(ev, -1,
                  "Seat %d passes: Seat %d banks the card and scores 1.",
                  responder(s) + 1, s->current + 1);
    end_turn(s, ev);
    return ENG_OK;
  }
  return ENG_INTERNAL;
}

/* ---- JSON ---------------------------------------------------------------*/

static json_t *int_array(const int16_t *v, int n) {
  json_t *a = json_array();

  for (int i = 0; a && i < n; i++) {
    if (json_array_append_new(a, json_integer(v[i]))) {
      json_decref(a);
      return NULL;
    }
  }
  return a;
}

/* Array of per-seat piles, or of their sizes when counts is true. */
static json_t *pile_array(const eng_pile *piles, int n, int show) {
  json_t *a = json_array();

  for (int i = 0; a && i < n; i++) {
    json_t *v = (show < 0 || show == i) ? eng_pile_to_json(&piles[i])
                                        : json_integer(piles[i].n);
    if (json_array_append_new(a, v)) {
      json_decref(a);
      return NULL;
    }
  }
  return a;
}

static json_t *toy_view(const void *st, int viewer) {
  const toy_state *s = st;
  json_t *j = json_object();
  bool seat = viewer >= 0 && viewer < s->players;
  int show = seat ? viewer : TOY_SEATS; /* TOY_SEATS: nobody's */
  int bad = !j;

  if (bad)
    return NULL;
  bad |= json_object_set_new(j, "players", json_integer(s->players));
  bad |= json_object_set_new(j, "turn", json_integer(s->turn));
  bad |= json_object_set_new(j, "current", json_integer(s->current));
  bad |= json_object_set_new(j, "phase", json_string(phase_names[s->phase]));
  bad |= json_object_set_new(j, "target", json_integer(s->target));
  bad |= json_object_set_new(j, "drawn", json_boolean(s->drawn));
  bad |= json_object_set_new(j, "claim", json_string(claim_names[s->claim]));
  bad |= json_object_set_new(j, "scores", int_array(s->score, s->players));
  bad |= json_object_set_new(j, "deck", json_integer(s->deck.n));
  bad |= json_object_set_new(j, "discard", eng_pile_to_json(&s->discard));
  bad |= json_object_set_new(j, "hands", pile_array(s->hand, s->players, show));
  bad |= json_object_set_new(j, "banks", pile_array(s->bank, s->players, show));
  bad |= json_object_set_new(j, "table", json_boolean(s->table >= 0));
  if (seat && viewer == s->current && s->table >= 0)
    bad |= json_object_set_new(j, "table_card", json_integer(s->table));
  bad |= json_object_set_new(j, "winners", json_integer(s->winners));
  bad |= json_object_set_new(j, "reason", json_string(reason_names[s->reason]));
  if (bad) {
    json_decref(j);
    return NULL;
  }
  return j;
}

static json_t *toy_to_json(const void *st) {
  const toy_state *s = st;
  json_t *j = json_object();
  int bad = !j;

  if (bad)
    return NULL;
  bad |= json_object_set_new(j, "rng", eng_rng_to_json(&s->rng));
  bad |= json_object_set_new(j, "turn", json_integer(s->turn));
  bad |= json_object_set_new(j, "players", json_integer(s->players));
  bad |= json_object_set_new(j, "current", json_integer(s->current));
  bad |= json_object_set_new(j, "phase", json_integer(s->phase));
  bad |= json_object_set_new(j, "target", json_integer(s->target));
  bad |= json_object_set_new(j, "drawn", json_integer(s->drawn));
  bad |= json_object_set_new(j, "claim", json_integer(s->claim));
  bad |= json_object_set_new(j, "reason", json_integer(s->reason));
  bad |= json_object_set_new(j, "winners", json_integer(s->winners));
  bad |= json_object_set_new(j, "table", json_integer(s->table));
  bad |= json_object_set_new(j, "score", int_array(s->score, s->players));
  bad |= json_object_set_new(j, "deck", eng_pile_to_json(&s->deck));
  bad |= json_object_set_new(j, "discard", eng_pile_to_json(&s->discard));
  bad |= json_object_set_new(j, "hands", pile_array(s->hand, s->players, -1));
  bad |= json_object_set_new(j, "banks", pile_array(s->bank, s->players, -1));
  if (bad) {
    json_decref(j);
    return NULL;
  }
  return j;
}

/* Reads integer field key of j into *out if it lies in [min, max]. */
static bool get_int(const json_t *j, const char *key, long min, long max,
                    long *out) {
  const json_t *v = json_object_get(j, key);

  if (!json_is_integer(v) || json_integer_value(v) < min ||
      json_integer_value(v) > max)
    return false;
  *out = (long)json_integer_value(v);
  return true;
}

static int toy_check(const void *st, char *msg, size_t cap);

static eng_rc toy_from_json(void *st, const json_t *j) {
  toy_state *s = st;
  long v[10];
  const json_t *score, *hands, *banks;
  char msg[128];

  memset(s, 0, sizeof *s);
  if (!json_is_object(j) || json_object_size(j) != 16)
    return ENG_BAD_STATE;
  if (!get_int(j, "players", 2, TOY_SEATS, &v[0]) ||
      !get_int(j, "turn", 1, 1000000, &v[1]) ||
      !get_int(j, "current", 0, v[0] - 1, &v[2]) ||
      !get_int(j, "phase", TOY_PLAY, TOY_OVER, &v[3]) ||
      !get_int(j, "target", 1, 100, &v[4]) ||
      !get_int(j, "drawn", 0, 1, &v[5]) ||
      !get_int(j, "claim", TOY_CLAIM_NONE, TOY_CLAIM_LOW, &v[6]) ||
      !get_int(j, "reason", TOY_REASON_NONE, TOY_REASON_EXHAUSTED, &v[7]) ||
      !get_int(j, "winners", 0, (1 << v[0]) - 1, &v[8]) ||
      !get_int(j, "table", -1, TOY_CARDS - 1, &v[9]))
    return ENG_BAD_STATE;
  s->players = (int8_t)v[0];
  s->turn = (int32_t)v[1];
  s->current = (int8_t)v[2];
  s->phase = (int8_t)v[3];
  s->target = (int8_t)v[4];
  s->drawn = (int8_t)v[5];
  s->claim = (int8_t)v[6];
  s->reason = (int8_t)v[7];
  s->winners = (uint8_t)v[8];
  s->table = (int16_t)v[9];

  if (eng_rng_from_json(&s->rng, json_object_get(j, "rng")) ||
      eng_pile_from_json(&s->deck, json_object_get(j, "deck"), TOY_CARDS) ||
      eng_pile_from_json(&s->discard, json_object_get(j, "discard"), TOY_CARDS))
    return ENG_BAD_STATE;
  score = json_object_get(j, "score");
  hands = json_object_get(j, "hands");
  banks = json_object_get(j, "banks");
  if (json_array_size(score) != (size_t)s->players ||
      json_array_size(hands) != (size_t)s->players ||
      json_array_size(banks) != (size_t)s->players)
    return ENG_BAD_STATE;
  for (int i = 0; i < s->players; i++) {
    const json_t *sc = json_array_get(score, (size_t)i);
    if (!json_is_integer(sc) || json_integer_value(sc) < 0 ||
        json_integer_value(sc) > 1000)
      return ENG_BAD_STATE;
    s->score[i] = (int16_t)json_integer_value(sc);
    if (eng_pile_from_json(&s->hand[i], json_array_get(hands, (size_t)i),
                           TOY_CARDS) ||
        eng_pile_from_json(&s->bank[i], json_array_get(banks, (size_t)i),
                           TOY_CARDS))
      return ENG_BAD_STATE;
  }
  /* A save that breaks an invariant is as malformed as one that does not
   * parse. */
  return toy_check(s, msg, sizeof msg) ? ENG_BAD_STATE : ENG_OK;
}

static void toy_result(const void *st, eng_result *r) {
  const toy_state *s = st;

  memset(r, 0, sizeof *r);
  r->over = s->phase == TOY_OVER;
  r->winners = s->winners;
  snprintf(r->reason, sizeof r->reason, "%s", reason_names[s->reason]);
  for (int i = 0; i < s->players; i++)
    r->score[i] = s->score[i];
}

/* ---- invariants ---------------------------------------------------------*/

#define FAIL(...)                                                              \
  do {                                                                         \
    snprintf(msg, cap, __VA_ARGS__);                                           \
    return 1;                                                                  \
  } while (0)

static void count_pile(const eng_pile *p, int *seen) {
  for (int i = 0; i < p->n; i++)
    if (p->c[i] < TOY_CARDS)
      seen[p->c[i]]++;
}

/* view(viewer) must show the viewer's own hand and bank and only the
 * sizes of the others' and of the deck. */
static int check_view(const toy_state *s, int viewer, char *msg, size_t cap) {
  json_t *j = toy_view(s, viewer);
  int bad = 0;

  if (!j)
    FAIL("view(%d) failed", viewer);
  if (!json_is_integer(json_object_get(j, "deck")))
    bad = 1;
  for (int i = 0; i < s->players; i++) {
    json_t *h = json_array_get(json_object_get(j, "hands"), (size_t)i);
    json_t *b = json_array_get(json_object_get(j, "banks"), (size_t)i);
    bool own = i == viewer;
    if (own != json_is_array(h) || own != json_is_array(b))
      bad = 1;
  }
  if (json_object_get(j, "table_card") &&
      !(viewer == s->current && s->table >= 0))
    bad = 1;
  json_decref(j);
  if (bad)
    FAIL("view(%d) shows hidden information", viewer);
  return 0;
}

static int toy_check(const void *st, char *msg, size_t cap) {
  const toy_state *s = st;
  int seen[TOY_CARDS] = {0}, total = 0;

  if (s->players < 2 || s->players > TOY_SEATS)
    FAIL("players %d out of range", s->players);
  if (s->current < 0 || s->current >= s->players)
    FAIL("current seat %d out of range", s->current);
  if (s->phase < TOY_PLAY || s->phase > TOY_OVER)
    FAIL("bad phase %d", s->phase);
  if (s->claim < TOY_CLAIM_NONE || s->claim > TOY_CLAIM_LOW ||
      s->reason < TOY_REASON_NONE || s->reason > TOY_REASON_EXHAUSTED)
    FAIL("bad claim %d or reason %d", s->claim, s->reason);
  if (s->rng.inc % 2 == 0)
    FAIL("rng increment is even");

  count_pile(&s->deck, seen);
  count_pile(&s->discard, seen);
  total = s->deck.n + s->discard.n;
  for (int i = 0; i < s->players; i++) {
    count_pile(&s->hand[i], seen);
    count_pile(&s->bank[i], seen);
    total += s->hand[i].n + s->bank[i].n;
    if (s->hand[i].n > TOY_HAND_MAX)
      FAIL("seat %d holds %d cards", i, s->hand[i].n);
    if (s->score[i] < 0)
      FAIL("seat %d has a negative score", i);
  }
  for (int i = s->players; i < TOY_SEATS; i++)
    if (s->hand[i].n || s->bank[i].n || s->score[i])
      FAIL("empty seat %d holds something", i);
  if (s->table >= 0) {
    if (s->table >= TOY_CARDS)
      FAIL("table card %d out of range", s->table);
    seen[s->table]++;
    total++;
  }
  if (total != TOY_CARDS)
    FAIL("%d cards in play, expected %d", total, TOY_CARDS);
  for (int c = 0; c < TOY_CARDS; c++)
    if (seen[c] != 1)
      FAIL("card %d is in play %d times", c, seen[c]);

  if ((s->table >= 0) != (s->phase == TOY_CLAIM || s->phase == TOY_RESPOND))
    FAIL("table card %d in phase %s", s->table, phase_names[s->phase]);
  if ((s->claim != TOY_CLAIM_NONE) != (s->phase == TOY_RESPOND))
    FAIL("claim %d in phase %s", s->claim, phase_names[s->phase]);
  if ((s->phase == TOY_OVER) != (s->reason != TOY_REASON_NONE) ||
      (s->phase == TOY_OVER) != (s->winners != 0))
    FAIL("result does not match phase %s", phase_names[s->phase]);
  if (s->phase == TOY_PLAY && s->hand[s->current].n == 0 && !can_draw(s))
    FAIL("seat %d has no option", s->current);

  for (int v = -1; v < s->players; v++)
    if (check_view(s, v, msg, cap))
      return 1;
  return 0;
}

static const char *const toy_modes[] = {"standard", "short", NULL};

const eng_ruleset toy_ruleset = {
    .id = "toy",
    .name = "Toy",
    .version = 1,
    .min_players = 2,
    .max_players = TOY_SEATS,
    .modes_help = "standard (first to 5 points) or short (first to 3)",
    .modes = toy_modes,
    .state_size = sizeof(toy_state),
    .setup = toy_setup,
    .prompt = toy_prompt,
    .question = toy_question,
    .option = toy_option,
    .apply = toy_apply,
    .view = toy_view,
    .to_json = toy_to_json,
    .from_json = toy_from_json,
    .result = toy_result,
    .check = toy_check,
};
