/*
 * dis_dna.h: DNA sequences of Disorder of the Villains (rulebook 002,
 * MINTING A VILLAIN): which four Monsters mint which Villain.
 *
 * A Monster carries one DNA letter, A to D. A Villain's DNA Sequence is
 * four symbols: letters A-D, which stand for themselves, and the
 * wildcards x and y. Every x stands for one and the same letter that the
 * Sequence does not list; every y for one and the same letter that is
 * neither listed nor x's. Order never matters ("the order in which the
 * Monsters are presented ... has no importance"). The first piece of the
 * `disorder` ruleset; the engine built on it follows the specification
 * drafted for docs/rules/disorder.md.
 */
#ifndef LAIR_GAMES_DISORDER_DIS_DNA_H
#define LAIR_GAMES_DISORDER_DIS_DNA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { DIS_LETTERS = 4, DIS_SEQ = 4 };

/* The letter 'A'-'D' as 0-3; -1 for anything else. */
int dis_dna_letter(char c);

/* Whether seq (a NUL-terminated string) is a Sequence Lair accepts: four
 * symbols from A-D, x and y; no listed letter more than twice; a y only
 * beside an x. Returns true, or false with why (a sentence, cap bytes)
 * saying what is wrong. */
bool dis_dna_valid(const char *seq, char *why, size_t cap);

/* Whether four Monsters mint a Villain of the valid Sequence seq: own[k]
 * is Monster k's letter (0-3) and alias[k] a second letter it may count
 * as instead (0-3), or -1; the four match when some choice of letters
 * does. */
bool dis_dna_match(const char *seq, const int8_t own[DIS_SEQ],
                   const int8_t alias[DIS_SEQ]);

#endif
