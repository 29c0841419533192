/*
 * cmd_glicko.h: the Glicko-2 rating system as pure functions (Glickman,
 * "Example of the Glicko-2 system"). cmd_rating.c applies it to finished
 * games; nothing here touches storage or the engine.
 */
#ifndef LAIR_CMD_GLICKO_H
#define LAIR_CMD_GLICKO_H

#include "eng.h"

/* A new player's rating, deviation and volatility, and the system
 * constant tau that limits how fast the volatility moves. */
#define CMD_GLICKO_RATING 1500.0
#define CMD_GLICKO_RD 200.0
#define CMD_GLICKO_VOLATILITY 0.06
#define CMD_GLICKO_TAU 0.5

/* A rating on the Glicko scale (1500 for a new player). */
typedef struct cmd_glicko {
  double rating, rd, volatility;
} cmd_glicko;

/* One result in a rating period: the opponent's rating and deviation
 * before the period, and the score (1 win, 0.5 draw, 0 loss). */
typedef struct cmd_glicko_result {
  double rating, rd;
  double score;
} cmd_glicko_result;

/* The rating of a player who held me before a rating period and played
 * the n results res in it (n == 0: no games, only the deviation grows).
 * tau > 0 (CMD_GLICKO_TAU). Cannot fail. */
cmd_glicko cmd_glicko_update(cmd_glicko me, const cmd_glicko_result *res, int n,
                             double tau);

/* Seat i's score against seat j in a finished game's result (1, 0.5 or
 * 0), or -1 when the two are not paired: both won (team mates, or
 * winners together, share a placement). Seats that both lost place by
 * score, equal scores drawing, unless nobody won: a draw, every pair 0.5
 * (docs/ratings.md). */
double cmd_glicko_pair(const eng_result *res, int i, int j);

#endif
