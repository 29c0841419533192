/*
 * gal_position.c: test-only builder of Galactic Domination positions (see
 * gal_position.h). It rewrites a real game's gal_state and proves the
 * result with gal_check, so a test never starts from a state the engine
 * could not reach by its own invariants.
 */
#include "gal_position.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "prompt_util.h"

void gp_new(gal_pos *p, uint64_t seed) {
  memset(p, 0, sizeof *p);
  eng_config cfg = {.players = GAL_SEATS, .mode = "", .first = 0};
  assert_int_equal(eng_game_new(eng_find("galactic"), &cfg, seed, &p->g),
                   ENG_OK);
  gal_state *s = p->s = p->g->state;
  for (int k = 0; k < GAL_UNITS; k++) {
    memset(&s->u[k], 0, sizeof s->u[k]);
    s->u[k].sector = GAL_NONE;
    s->u[k].aim = GAL_NONE;
    s->u[k].charged = -1;
  }
  memset(s->to_place, 0, sizeof s->to_place);
  memset(s->serials, 0, sizeof s->serials);
  memset(s->black, 0, sizeof s->black);
  for (int q = 0; q < GAL_SEATS; q++) {
    s->minerals[q] = s->dark[q] = 0;
    s->gathered[q] = s->found[q] = s->spent[q] = 0;
    s->dark_found[q] = s->dark_spent[q] = 0;
  }
  s->winner = GAL_NONE;
  s->why = 0;
  s->entering = s->landing = GAL_NONE;
  s->dice[0] = s->dice[1] = 0;
  gp_turn(p, 0, 1);
}

int gp_sector(const char *id) {
  int x = gal_sector_of(id);
  if (x < 0)
    fail_msg("no sector '%s'", id);
  return x;
}

int gp_unit(gal_pos *p, int owner, int type, const char *sector) {
  gal_state *s = p->s;
  int x = strcmp(sector, "deep") == 0 ? GAL_DEEP : gp_sector(sector);
  for (int k = 0; k < GAL_UNITS; k++) {
    gal_unit *u = &s->u[k];
    if (u->alive)
      continue;
    const gal_type *t = &gal_types[type];
    memset(u, 0, sizeof *u);
    u->alive = 1;
    u->owner = (uint8_t)owner;
    u->type = (uint8_t)type;
    u->serial = ++s->serials[owner][type];
    u->sector = (uint8_t)x;
    u->shields = (uint8_t)t->shields;
    u->hull = (uint8_t)t->hull;
    u->ap = (uint8_t)t->ap;
    u->aim = GAL_NONE;
    u->charged = -1;
    return k;
  }
  fail_msg("no free slot for another unit");
  return -1;
}

void gp_set(gal_pos *p, int i, int shields, int hull, int ap) {
  gal_unit *u = &p->s->u[i];
  u->shields = (uint8_t)shields;
  u->hull = (uint8_t)hull;
  u->ap = (uint8_t)ap;
}

void gp_funds(gal_pos *p, int seat, int minerals, int dark) {
  gal_state *s = p->s;
  s->minerals[seat] = minerals;
  s->found[seat] = minerals - s->gathered[seat] + s->spent[seat];
  s->dark[seat] = dark;
  s->dark_found[seat] = dark + s->dark_spent[seat];
}

void gp_turn(gal_pos *p, int active, int play) {
  gal_state *s = p->s;
  s->phase = GAL_PH_ACT;
  s->active = (uint8_t)active;
  s->acting = GAL_NONE;
  s->play = (int16_t)play;
  s->turn = (int16_t)(20 + play);
}

void gp_rig(gal_pos *p, const uint32_t *below, const uint32_t *want, int n) {
  for (uint64_t seed = 1; seed <= 1000000; seed++) {
    eng_rng r, try;
    eng_rng_seed(&r, seed, 7);
    try = r;
    int k = 0;
    while (k < n && eng_rng_below(&try, below[k]) == want[k])
      k++;
    if (k == n) {
      p->s->rng = r;
      return;
    }
  }
  fail_msg("no generator gives the %d draws asked for", n);
}

void gp_refresh(gal_pos *p) {
  char msg[256];
  p->g->rs->prompt(p->s, &p->g->prompt);
  if (gal_check(p->s, msg, sizeof msg))
    fail_msg("the position fails gal_check: %s", msg);
}

bool gp_offered(const gal_pos *p, const char *fmt, ...) {
  char id[ENG_ID_MAX + 1];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(id, sizeof id, fmt, ap);
  va_end(ap);
  return pu_find(&gal_ruleset, p->s, &p->g->prompt, id) >= 0;
}

int gp_count(const gal_pos *p, const char *prefix) {
  char id[ENG_ID_MAX + 1], label[ENG_LABEL_MAX + 1];
  int n = 0;
  for (int i = 0; i < p->g->prompt.n; i++) {
    gal_ruleset.option(p->s, &p->g->prompt, i, id, label);
    n += strncmp(id, prefix, strlen(prefix)) == 0;
  }
  return n;
}

void gp_answer(gal_pos *p, int seat, const char *fmt, ...) {
  char id[ENG_ID_MAX + 1], msg[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(id, sizeof id, fmt, ap);
  va_end(ap);
  pu_expect(&gal_ruleset, p->s, &p->g->prompt, seat, id);
  eng_rc rc = eng_game_answer(p->g, seat, id, &p->ev);
  if (rc)
    fail_msg("answering %s as seat %d: %s", id, seat, eng_rcname(rc));
  if (gal_check(p->s, msg, sizeof msg))
    fail_msg("after %s: gal_check: %s", id, msg);
  if (pu_told_form(&p->ev, GAL_SEATS, msg, sizeof msg))
    fail_msg("after %s: the lines told: %s", id, msg);
}

int gp_told(const gal_pos *p, const char *text) {
  for (int k = 0; k < p->ev.n; k++)
    if (p->ev.ev[k].seat < 0 && strstr(p->ev.ev[k].text, text))
      return k;
  return -1;
}

int gp_expect_told(const gal_pos *p, const char *text) {
  int k = gp_told(p, text);
  if (k < 0) {
    for (int j = 0; j < p->ev.n; j++)
      print_message("  [%d] %s\n", p->ev.ev[j].seat, p->ev.ev[j].text);
    fail_msg("no public line says '%s'", text);
  }
  return k;
}

void gp_free(gal_pos *p) {
  eng_game_free(p->g);
  p->g = NULL;
  p->s = NULL;
}
