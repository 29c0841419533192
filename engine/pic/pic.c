/*
 * pic.c: which games have pictures, and the entry point that draws one.
 */
#include "pic.h"
#include "pic_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
  const char *id;
  pic_draw_fn draw;
} games[] = {
    {"supervillain", pic_supervillain},
    {"galactic", pic_galactic},
};

static pic_draw_fn find(const char *id) {
  for (size_t i = 0; id && i < sizeof games / sizeof games[0]; i++)
    if (strcmp(games[i].id, id) == 0)
      return games[i].draw;
  return NULL;
}

bool pic_has(const char *ruleset_id) { return find(ruleset_id) != NULL; }

int pic_draw(const char *ruleset_id, const json_t *view, pic_png *out,
             char *err, size_t cap) {
  out->data = NULL;
  out->len = 0;
  pic_draw_fn draw = find(ruleset_id);
  if (!draw) {
    snprintf(err, cap, "Lair draws no picture of %s games.",
             ruleset_id ? ruleset_id : "these");
    return -1;
  }
  if (!json_is_object(view)) {
    snprintf(err, cap, "The view to draw is not a game's view.");
    return -1;
  }
  return draw(view, out, err, cap);
}

void pic_png_free(pic_png *p) {
  if (!p)
    return;
  free(p->data);
  p->data = NULL;
  p->len = 0;
}
