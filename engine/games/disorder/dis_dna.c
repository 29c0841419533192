/*
 * dis_dna.c: matching four Monsters' DNA letters against a Villain's
 * DNA Sequence (dis_dna.h). Everything is small: four Monsters, each
 * with at most two letters to count as, and four letters to try for
 * each wildcard, so every combination is simply tried.
 */
#include "games/disorder/dis_dna.h"

#include <stdio.h>
#include <string.h>

int dis_dna_letter(char c) {
  return c >= 'A' && c <= 'D' ? c - 'A' : -1;
}

/* The Sequence's listed letters counted into listed[], and its x's and
 * y's; false when a symbol is none of A-D, x, y. */
static bool read_seq(const char *seq, int listed[DIS_LETTERS], int *nx,
                     int *ny) {
  memset(listed, 0, DIS_LETTERS * sizeof listed[0]);
  *nx = *ny = 0;
  for (int k = 0; k < DIS_SEQ; k++) {
    int l = dis_dna_letter(seq[k]);
    if (l >= 0)
      listed[l]++;
    else if (seq[k] == 'x')
      ++*nx;
    else if (seq[k] == 'y')
      ++*ny;
    else
      return false;
  }
  return true;
}

bool dis_dna_valid(const char *seq, char *why, size_t cap) {
  int listed[DIS_LETTERS], nx, ny;
  if (strlen(seq) != DIS_SEQ || !read_seq(seq, listed, &nx, &ny)) {
    snprintf(why, cap,
             "'%s' is not four symbols from A, B, C, D, x and y.", seq);
    return false;
  }
  /* (Four symbols never need more than the four letters.) */
  for (int l = 0; l < DIS_LETTERS; l++)
    if (listed[l] > 2) {
      snprintf(why, cap, "'%s' lists %c %d times; at most twice.", seq,
               'A' + l, listed[l]);
      return false;
    }
  if (ny > 0 && nx == 0) {
    snprintf(why, cap, "'%s' has a y without an x.", seq);
    return false;
  }
  return true;
}

/* Whether the letter counts have[] are the Sequence's with some x and y
 * letter. */
static bool counts_match(const int have[DIS_LETTERS],
                         const int listed[DIS_LETTERS], int nx, int ny) {
  for (int x = nx ? 0 : -1; x < (nx ? DIS_LETTERS : 0); x++) {
    if (x >= 0 && listed[x])
      continue;
    for (int y = ny ? 0 : -1; y < (ny ? DIS_LETTERS : 0); y++) {
      if (y >= 0 && (listed[y] || y == x))
        continue;
      bool same = true;
      for (int l = 0; l < DIS_LETTERS && same; l++)
        same = have[l] == listed[l] + (l == x ? nx : 0) + (l == y ? ny : 0);
      if (same)
        return true;
    }
  }
  return false;
}

bool dis_dna_match(const char *seq, const int8_t own[DIS_SEQ],
                   const int8_t alias[DIS_SEQ]) {
  int listed[DIS_LETTERS], nx, ny;
  if (!read_seq(seq, listed, &nx, &ny))
    return false;
  /* Each Monster counts as its own letter or (bit k set) its alias. */
  for (unsigned pick = 0; pick < 1u << DIS_SEQ; pick++) {
    int have[DIS_LETTERS] = {0};
    bool ok = true;
    for (int k = 0; k < DIS_SEQ && ok; k++) {
      int l = (pick >> k) & 1u ? alias[k] : own[k];
      ok = l >= 0 && l < DIS_LETTERS;
      if (ok)
        have[l]++;
    }
    if (ok && counts_match(have, listed, nx, ny))
      return true;
  }
  return false;
}
