/*
 * pile.c: ordered card piles (decks, discard piles, hands) of fixed
 * capacity, with the shuffle and draw-with-reshuffle every card game needs.
 */
#include "eng.h"

#include <string.h>

bool eng_pile_push(eng_pile *p, uint16_t card) {
  if (p->n >= ENG_PILE_MAX)
    return false;
  p->c[p->n++] = card;
  return true;
}

bool eng_pile_pop(eng_pile *p, uint16_t *card) {
  if (p->n == 0)
    return false;
  *card = p->c[--p->n];
  return true;
}

int eng_pile_find(const eng_pile *p, uint16_t card) {
  for (int i = 0; i < p->n; i++)
    if (p->c[i] == card)
      return i;
  return -1;
}

bool eng_pile_remove(eng_pile *p, uint16_t card) {
  int i = eng_pile_find(p, card);
  if (i < 0)
    return false;
  memmove(&p->c[i], &p->c[i + 1], (size_t)(p->n - i - 1) * sizeof p->c[0]);
  p->n--;
  return true;
}

void eng_pile_shuffle(eng_pile *p, eng_rng *r) {
  for (int i = p->n - 1; i > 0; i--) {
    uint32_t j = eng_rng_below(r, (uint32_t)i + 1);
    uint16_t t = p->c[i];
    p->c[i] = p->c[j];
    p->c[j] = t;
  }
}

bool eng_pile_draw(eng_pile *deck, eng_pile *discard, eng_rng *r,
                   uint16_t *card, bool *reshuffled) {
  if (deck->n == 0) {
    if (discard->n == 0)
      return false;
    memcpy(deck->c, discard->c, (size_t)discard->n * sizeof deck->c[0]);
    deck->n = discard->n;
    discard->n = 0;
    eng_pile_shuffle(deck, r);
    if (reshuffled)
      *reshuffled = true;
  }
  return eng_pile_pop(deck, card);
}

json_t *eng_pile_to_json(const eng_pile *p) {
  json_t *a = json_array();
  if (!a)
    return NULL;
  for (int i = 0; i < p->n; i++)
    if (json_array_append_new(a, json_integer(p->c[i]))) {
      json_decref(a);
      return NULL;
    }
  return a;
}

eng_rc eng_pile_from_json(eng_pile *p, const json_t *j, uint16_t limit) {
  if (!json_is_array(j) || json_array_size(j) > ENG_PILE_MAX)
    return ENG_BAD_STATE;
  eng_pile tmp = {0};
  size_t i;
  json_t *v;
  json_array_foreach(j, i, v) {
    if (!json_is_integer(v))
      return ENG_BAD_STATE;
    json_int_t c = json_integer_value(v);
    if (c < 0 || c >= limit)
      return ENG_BAD_STATE;
    tmp.c[tmp.n++] = (uint16_t)c;
  }
  *p = tmp;
  return ENG_OK;
}
