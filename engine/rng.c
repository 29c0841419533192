/*
 * rng.c: the seeded PRNG every ruleset keeps inside its state.
 *
 * PCG32 (XSH-RR) by M. O'Neill: 128 bits of state, good statistical
 * quality, cheap, and trivially serialised. Seeds pass through splitmix64
 * first so that neighbouring seeds (1, 2, 3...) start far apart.
 */
#include "eng.h"

#include <stdio.h>
#include <string.h>

#define PCG_MULT 6364136223846793005ULL

uint64_t eng_mix64(uint64_t x) {
  uint64_t z = x + 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

uint32_t eng_rng_u32(eng_rng *r) {
  uint64_t old = r->state;
  r->state = old * PCG_MULT + r->inc;
  uint32_t xorshifted = (uint32_t)(((old >> 18) ^ old) >> 27);
  uint32_t rot = (uint32_t)(old >> 59);
  return (xorshifted >> rot) | (xorshifted << ((-rot) & 31));
}

void eng_rng_seed(eng_rng *r, uint64_t seed, uint64_t stream) {
  r->state = 0;
  r->inc = (stream << 1) | 1u;
  (void)eng_rng_u32(r);
  r->state += eng_mix64(seed);
  (void)eng_rng_u32(r);
}

uint32_t eng_rng_below(eng_rng *r, uint32_t n) {
  if (n == 0)
    return 0;
  /* Lemire: multiply-shift with rejection of the biased low zone. */
  uint64_t m = (uint64_t)eng_rng_u32(r) * n;
  uint32_t low = (uint32_t)m;
  if (low < n) {
    uint32_t threshold = (uint32_t)(-n) % n;
    while (low < threshold) {
      m = (uint64_t)eng_rng_u32(r) * n;
      low = (uint32_t)m;
    }
  }
  return (uint32_t)(m >> 32);
}

static void hex64(uint64_t v, char out[17]) {
  static const char digits[] = "0123456789abcdef";
  for (int i = 15; i >= 0; i--) {
    out[i] = digits[v & 15];
    v >>= 4;
  }
  out[16] = '\0';
}

static bool unhex64(const char *s, uint64_t *v) {
  if (!s || strlen(s) != 16)
    return false;
  uint64_t x = 0;
  for (int i = 0; i < 16; i++) {
    char c = s[i];
    unsigned d;
    if (c >= '0' && c <= '9')
      d = (unsigned)(c - '0');
    else if (c >= 'a' && c <= 'f')
      d = (unsigned)(c - 'a' + 10);
    else
      return false;
    x = (x << 4) | d;
  }
  *v = x;
  return true;
}

json_t *eng_rng_to_json(const eng_rng *r) {
  char a[17], b[17];
  hex64(r->state, a);
  hex64(r->inc, b);
  return json_pack("[ss]", a, b);
}

eng_rc eng_rng_from_json(eng_rng *r, const json_t *j) {
  uint64_t s, inc;
  if (!json_is_array(j) || json_array_size(j) != 2 ||
      !unhex64(json_string_value(json_array_get(j, 0)), &s) ||
      !unhex64(json_string_value(json_array_get(j, 1)), &inc) ||
      (inc & 1u) == 0)
    return ENG_BAD_STATE;
  r->state = s;
  r->inc = inc;
  return ENG_OK;
}
