/*
 * toy_ruleset.h: "toy", a tiny bluffing card game used only by the tests.
 *
 * It is not registered with eng_find: it exists to exercise what the
 * engine core must support for real games, with rules small enough to
 * reason about in a test:
 *
 * - 16 cards, numbered 0..15, rank card / 2 + 1 (1..8, two copies each),
 *   shuffled into a deck; each of 2-4 players is dealt 3 (private hands).
 * - On your turn you may first draw one card (hand below 5, a card left in
 *   deck or discard; an empty deck is refilled from the shuffled discard).
 *   Drawing reveals a card to you: ENG_REVEALED.
 * - Then you play a card face down and claim "high" (5-8) or "low" (1-4).
 * - The next seat answers out of turn: pass (you score 1, the card goes to
 *   your private bank) or challenge (the card is shown, ENG_REVEALED, and
 *   goes to the face-up discard pile; a true claim scores you 2, a false
 *   one scores the challenger 2).
 * - The game ends when a score reaches the target (5; 3 in mode "short"),
 *   reason "points", or when the next player could neither draw nor play,
 *   reason "exhausted". The highest scores win.
 *
 * Every turn scores at least one point, so every game ends.
 */
#ifndef LAIR_TESTS_TOY_RULESET_H
#define LAIR_TESTS_TOY_RULESET_H

#include "eng.h"

#define TOY_SEATS 4
#define TOY_CARDS 16
#define TOY_HAND_MAX 5
#define TOY_DEAL 3

enum toy_phase { TOY_PLAY, TOY_CLAIM, TOY_RESPOND, TOY_OVER };
enum toy_claim { TOY_CLAIM_NONE, TOY_CLAIM_HIGH, TOY_CLAIM_LOW };
enum toy_reason { TOY_REASON_NONE, TOY_REASON_POINTS, TOY_REASON_EXHAUSTED };

/* Option codes: kind << 8 | card. */
enum toy_kind {
  TOY_OPT_PLAY = 1,
  TOY_OPT_DRAW,
  TOY_OPT_HIGH,
  TOY_OPT_LOW,
  TOY_OPT_CHALLENGE,
  TOY_OPT_PASS
};

typedef struct toy_state {
  eng_rng rng;
  int32_t turn;
  int8_t players;
  int8_t current; /* whose turn it is */
  int8_t phase;   /* enum toy_phase */
  int8_t target;  /* score that ends the game */
  int8_t drawn;   /* the current player drew this turn */
  int8_t claim;   /* enum toy_claim, while responding */
  int8_t reason;  /* enum toy_reason, once over */
  uint8_t winners;
  int16_t table; /* the card played this turn, or -1 */
  int16_t score[TOY_SEATS];
  eng_pile deck;
  eng_pile discard; /* face up */
  eng_pile hand[TOY_SEATS];
  eng_pile bank[TOY_SEATS]; /* face down, seen by its owner */
} toy_state;

extern const eng_ruleset toy_ruleset;

/* Returns the rank (1..8) of card. */
int toy_rank(uint16_t card);

#endif
