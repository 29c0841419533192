/*
 * gal.c: the rules of Galactic Domination: the placement, the start of a
 * turn (shields, mining, explorers' re-entry), a ship's actions taken
 * together, building, the special abilities and the end.
 *
 * The game asks only what a player decides: which ship acts and what it
 * does, what to build, where a returning explorer lands beside its
 * command ship, which ship a collision takes. Everything else (recharge,
 * mining, dice, the spinner, a charge fading) happens in apply() between
 * two decisions and is told as it happens.
 */
#include "gal.h"

#include "../../rsutil.h"

#include <stdio.h>
#include <string.h>

#define SAY(ev, ...) eng_event_add((ev), -1, __VA_ARGS__)

static const char *plural(int n) { return n == 1 ? "" : "s"; }

int gal_player_no(const gal_state *s, int seat) {
  return seat == s->first ? 1 : 2;
}

static int start_zone(const gal_state *s, int seat) {
  return gal_start_zone(gal_player_no(s, seat));
}

static bool on_board(const gal_unit *u) {
  return u->alive && u->sector < GAL_SECTORS;
}

int gal_on_board(const gal_state *s, int seat) {
  int n = 0;
  for (int i = 0; i < GAL_UNITS; i++)
    n += on_board(&s->u[i]) && s->u[i].owner == seat;
  return n;
}

int gal_crowd(const gal_state *s, int sector) {
  int n = 0;
  for (int i = 0; i < GAL_UNITS; i++)
    n += on_board(&s->u[i]) && s->u[i].sector == sector &&
         s->u[i].type != GAL_MINER;
  return n;
}

static int count_type(const gal_state *s, int seat, int type) {
  int n = 0;
  for (int i = 0; i < GAL_UNITS; i++)
    n += s->u[i].alive && s->u[i].owner == seat && s->u[i].type == type;
  return n;
}

static int count_units(const gal_state *s, int seat) {
  int n = 0;
  for (int i = 0; i < GAL_UNITS; i++)
    n += s->u[i].alive && s->u[i].owner == seat;
  return n;
}

void gal_unit_name(const gal_state *s, int i, char *buf, size_t cap) {
  const gal_unit *u = &s->u[i];
  snprintf(buf, cap, "%s %d", gal_types[u->type].short_name, u->serial);
}

/* "Villain 1's Raider 3" into buf: the transports put names in. */
static const char *who_name(const gal_state *s, int i, char *buf, size_t cap) {
  char n[32];
  gal_unit_name(s, i, n, sizeof n);
  snprintf(buf, cap, "Villain %d's %s", s->u[i].owner + 1, n);
  return buf;
}

static bool room_for(const gal_state *s, int type, int sector) {
  return !s->black[sector] &&
         (type == GAL_MINER || gal_crowd(s, sector) < GAL_CAPACITY);
}

bool gal_in_range(const gal_state *s, int a, int t) {
  const gal_unit *x = &s->u[a], *y = &s->u[t];
  if (!on_board(x) || !on_board(y))
    return false;
  return gal_reaches(x->type, x->sector, y->sector);
}

static bool can_build(const gal_state *s, int seat, int type) {
  return s->minerals[seat] >= gal_types[type].cost &&
         count_units(s, seat) < GAL_TEAM &&
         count_type(s, seat, type) < gal_types[type].limit;
}

static int free_slot(const gal_state *s) {
  for (int i = 0; i < GAL_UNITS; i++)
    if (!s->u[i].alive)
      return i;
  return -1;
}

static int new_unit(gal_state *s, int seat, int type, int sector) {
  int i = free_slot(s);
  if (i < 0)
    return -1;
  const gal_type *t = &gal_types[type];
  gal_unit *u = &s->u[i];
  memset(u, 0, sizeof *u);
  u->alive = 1;
  u->owner = (uint8_t)seat;
  u->type = (uint8_t)type;
  u->serial = ++s->serials[seat][type];
  u->sector = (uint8_t)sector;
  u->shields = (uint8_t)t->shields;
  u->hull = (uint8_t)t->hull;
  u->ap = (uint8_t)t->ap;
  u->aim = GAL_NONE;
  u->charged = -1;
  return i;
}

int gal_markers_used(const gal_state *s) {
  int n = 0;
  for (int x = 0; x < GAL_SECTORS; x++)
    n += s->black[x] != 0;
  for (int k = 0; k < GAL_UNITS; k++)
    n += s->u[k].alive && s->u[k].charge == GAL_CH_SHOT;
  return n;
}

/* A charge made in an earlier turn: it fires or jumps this turn. */
static bool ready(const gal_state *s, const gal_unit *u) {
  return u->charge != GAL_CH_NONE && u->charged < s->turn;
}

/* ---- the prompt ------------------------------------------------------------
 */

static void add(eng_prompt *p, uint32_t code) {
  if (p->n < ENG_OPTIONS_MAX)
    p->code[p->n++] = code;
}

/* The actions unit i can take now, when acting; returns how many (into p
 * when not NULL). */
static int ship_options(const gal_state *s, int i, eng_prompt *p) {
  const gal_unit *u = &s->u[i];
  const gal_type *t = &gal_types[u->type];
  int n = 0;
#define OPT(code)                                                              \
  do {                                                                         \
    n++;                                                                       \
    if (p)                                                                     \
      add(p, (code));                                                          \
  } while (0)
  if (!on_board(u) || u->ap == 0 || u->acted)
    return 0;
  if (u->charge != GAL_CH_NONE) {
    if (!ready(s, u))
      return 0;
    if (u->charge == GAL_CH_SHOT)
      OPT(GAL_CODE(GAL_O_FIRE, 0, 0));
    else {
      int group = 0;
      for (int k = 0; k < GAL_UNITS; k++)
        if ((u->with >> k & 1) && on_board(&s->u[k]) &&
            s->u[k].sector == u->sector && s->u[k].type != GAL_MINER)
          group++;
      group += 1;
      for (int x = 0; x < GAL_SECTORS; x++)
        if (x != u->sector && !s->black[x] &&
            gal_distance(u->sector, x) <= GAL_JUMP_RANGE &&
            gal_crowd(s, x) + group <= GAL_CAPACITY)
          OPT(GAL_CODE(GAL_O_JUMP, x, 0));
    }
    return n;
  }
  for (int x = 0; x < GAL_SECTORS; x++)
    if (gal_adjacent(u->sector, x) && room_for(s, u->type, x))
      OPT(GAL_CODE(GAL_O_MOVE, x, 0));
  if (t->damage > 0)
    for (int k = 0; k < GAL_UNITS; k++)
      if (s->u[k].alive && s->u[k].owner != u->owner && gal_in_range(s, i, k))
        OPT(GAL_CODE(GAL_O_ATTACK, k, 0));
  if (u->type == GAL_MINER && !u->attached)
    OPT(GAL_CODE(GAL_O_ATTACH, 0, 0));
  if (u->type == GAL_EXPLORER && s->minerals[u->owner] >= GAL_WARP_COST)
    OPT(GAL_CODE(GAL_O_WARP, 0, 0));
  if (u->type == GAL_COMMAND && s->minerals[u->owner] >= GAL_JUMP_COST)
    OPT(GAL_CODE(GAL_O_CHARGE_JUMP, 0, 0));
  if (u->type == GAL_DESTROYER && s->minerals[u->owner] >= GAL_SHOT_COST &&
      s->dark[u->owner] >= GAL_SHOT_DARK && gal_markers_used(s) < GAL_MARKERS)
    for (int x = 0; x < GAL_SECTORS; x++)
      if (!s->black[x] && gal_zone_near(u->sector, gal_sectors[x].zone))
        OPT(GAL_CODE(GAL_O_CHARGE_SHOT, x, 0));
#undef OPT
  return n;
}

/* The sectors a returning explorer may choose in zone z. */
static int landing_options(const gal_state *s, int z, eng_prompt *p) {
  int n = 0;
  for (int x = 0; x < GAL_SECTORS; x++)
    if (gal_sectors[x].zone == z && !s->black[x]) {
      n++;
      if (p)
        add(p, GAL_CODE(GAL_O_LAND, x, 0));
    }
  return n;
}

/* The ships a collision in sector x may take (never a miner). */
static int victims(const gal_state *s, int x, int except, eng_prompt *p) {
  int n = 0;
  for (int k = 0; k < GAL_UNITS; k++)
    if (k != except && on_board(&s->u[k]) && s->u[k].sector == x &&
        s->u[k].type != GAL_MINER) {
      n++;
      if (p)
        add(p, GAL_CODE(GAL_O_VICTIM, k, 0));
    }
  return n;
}

void gal_prompt(const void *st, eng_prompt *p) {
  const gal_state *s = st;
  p->n = 0;
  p->turn = s->turn;
  p->player = s->active;
  switch (s->phase) {
  case GAL_PH_OVER:
    p->player = -1;
    return;
  case GAL_PH_PLACE: {
    int z = start_zone(s, s->active);
    for (int t = 0; t < GAL_TYPES; t++)
      if (s->to_place[s->active][t])
        for (int x = 0; x < GAL_SECTORS; x++)
          if (gal_sectors[x].zone == z && room_for(s, t, x))
            add(p, GAL_CODE(GAL_O_PLACE, t, x));
    return;
  }
  case GAL_PH_ENTRY:
    landing_options(s, gal_sectors[s->landing].zone, p);
    return;
  case GAL_PH_COLLIDE:
    p->player = 1 - s->active;
    victims(s, s->landing, s->entering, p);
    return;
  case GAL_PH_SHIP:
    ship_options(s, s->acting, p);
    add(p, GAL_CODE(GAL_O_DONE, 0, 0));
    return;
  default:
    break;
  }
  for (int i = 0; i < GAL_UNITS; i++)
    if (s->u[i].alive && s->u[i].owner == s->active &&
        ship_options(s, i, NULL) > 0)
      add(p, GAL_CODE(GAL_O_SHIP, i, 0));
  int z = start_zone(s, s->active);
  for (int t = 0; t < GAL_TYPES; t++)
    if (can_build(s, s->active, t))
      for (int x = 0; x < GAL_SECTORS; x++)
        if (gal_sectors[x].zone == z && room_for(s, t, x))
          add(p, GAL_CODE(GAL_O_BUILD, t, x));
  add(p, GAL_CODE(GAL_O_END, 0, 0));
}

/* ---- questions and options
 * --------------------------------------------------- */

static void gal_question(const void *st, const eng_prompt *p, char *buf,
                         size_t cap) {
  const gal_state *s = st;
  char n[32];
  switch (s->phase) {
  case GAL_PH_PLACE: {
    int left = 0;
    for (int t = 0; t < GAL_TYPES; t++)
      left += s->to_place[s->active][t];
    snprintf(buf, cap,
             "Place a ship in your starting zone (%s): %d left to place.",
             gal_zones[start_zone(s, s->active)].name, left);
    return;
  }
  case GAL_PH_ENTRY:
    gal_unit_name(s, s->entering, n, sizeof n);
    snprintf(buf, cap,
             "Your %s returns to the %s zone beside your Command Ship: "
             "which sector does it come out in?",
             n, gal_zones[gal_sectors[s->landing].zone].name);
    return;
  case GAL_PH_COLLIDE:
    gal_unit_name(s, s->entering, n, sizeof n);
    snprintf(buf, cap,
             "Villain %d's %s comes out of deep space into the full sector "
             "%s: which ship does the collision destroy with it?",
             s->active + 1, n, gal_sectors[s->landing].id);
    return;
  case GAL_PH_SHIP:
    gal_unit_name(s, s->acting, n, sizeof n);
    snprintf(buf, cap, "What does your %s in %s do (%d AP left)?", n,
             gal_sectors[s->u[s->acting].sector].id, s->u[s->acting].ap);
    return;
  default:
    snprintf(buf, cap,
             "Round %d: which ship acts next, or what do you build (%d "
             "minerals)?",
             (s->play + 1) / 2, s->minerals[s->active]);
  }
  (void)p;
}

static void gal_option(const void *st, const eng_prompt *p, int i,
                       char id[ENG_ID_MAX + 1], char label[ENG_LABEL_MAX + 1]) {
  const gal_state *s = st;
  uint32_t c = p->code[i];
  int a = GAL_A(c), b = GAL_B(c);
  char n[32];
  /* The acting ship: only a ship's own options read it, and only while
   * one acts (acting is GAL_NONE otherwise). */
  const gal_unit *u = &s->u[s->acting < GAL_UNITS ? s->acting : 0];
  switch (GAL_KIND(c)) {
  case GAL_O_PLACE:
    snprintf(id, ENG_ID_MAX + 1, "place.%s.%s", gal_types[a].id,
             gal_sectors[b].id);
    eng_label(label, "Place a %s in %s", gal_types[a].name, gal_sectors[b].id);
    return;
  case GAL_O_LAND:
    snprintf(id, ENG_ID_MAX + 1, "land.%s", gal_sectors[a].id);
    eng_label(label, "Come out in %s%s", gal_sectors[a].id,
              gal_crowd(s, a) >= GAL_CAPACITY ? " (full: a collision)" : "");
    return;
  case GAL_O_VICTIM:
    gal_unit_name(s, a, n, sizeof n);
    snprintf(id, ENG_ID_MAX + 1, "lose.u%d", a);
    eng_label(label, "Destroy Villain %d's %s", s->u[a].owner + 1, n);
    return;
  case GAL_O_SHIP:
    gal_unit_name(s, a, n, sizeof n);
    snprintf(id, ENG_ID_MAX + 1, "ship.u%d", a);
    eng_label(label, "Act with %s in %s (%d AP)", n,
              gal_sectors[s->u[a].sector].id, s->u[a].ap);
    return;
  case GAL_O_BUILD:
    snprintf(id, ENG_ID_MAX + 1, "build.%s.%s", gal_types[a].id,
             gal_sectors[b].id);
    eng_label(label, "Build a %s in %s (%d minerals)", gal_types[a].name,
              gal_sectors[b].id, gal_types[a].cost);
    return;
  case GAL_O_END:
    snprintf(id, ENG_ID_MAX + 1, "end");
    eng_label(label, "End your turn");
    return;
  case GAL_O_MOVE:
    snprintf(id, ENG_ID_MAX + 1, "move.%s", gal_sectors[a].id);
    eng_label(label, "Move to %s", gal_sectors[a].id);
    return;
  case GAL_O_ATTACK: {
    gal_unit_name(s, a, n, sizeof n);
    snprintf(id, ENG_ID_MAX + 1, "attack.u%d", a);
    eng_label(label, "Attack %s in %s (%d damage)", n,
              gal_sectors[s->u[a].sector].id, gal_types[u->type].damage);
    return;
  }
  case GAL_O_ATTACH:
    snprintf(id, ENG_ID_MAX + 1, "attach");
    eng_label(label, "Attach to the planet of %s", gal_sectors[u->sector].id);
    return;
  case GAL_O_WARP:
    snprintf(id, ENG_ID_MAX + 1, "warp");
    eng_label(label, "Warp into deep space (%d minerals)", GAL_WARP_COST);
    return;
  case GAL_O_CHARGE_JUMP:
    snprintf(id, ENG_ID_MAX + 1, "charge.jump");
    eng_label(label, "Charge a fleet jump (%d minerals, shields down)",
              GAL_JUMP_COST);
    return;
  case GAL_O_CHARGE_SHOT:
    snprintf(id, ENG_ID_MAX + 1, "charge.shot.%s", gal_sectors[a].id);
    eng_label(label,
              "Charge a black hole shot at %s (%d minerals, 1 Dark Matter)",
              gal_sectors[a].id, GAL_SHOT_COST);
    return;
  case GAL_O_FIRE:
    snprintf(id, ENG_ID_MAX + 1, "fire");
    eng_label(label, "Fire the black hole shot at %s",
              u->aim < GAL_SECTORS ? gal_sectors[u->aim].id : "?");
    return;
  case GAL_O_JUMP:
    snprintf(id, ENG_ID_MAX + 1, "jump.%s", gal_sectors[a].id);
    eng_label(label, "Fleet jump to %s", gal_sectors[a].id);
    return;
  case GAL_O_DONE:
  default:
    snprintf(id, ENG_ID_MAX + 1, "done");
    gal_unit_name(s, s->acting, n, sizeof n);
    eng_label(label, "%s is done", n);
    return;
  }
  (void)b;
}

/* ---- what happens ---------------------------------------------------------
 */

static void check_end(gal_state *s, eng_events *ev) {
  if (s->phase == GAL_PH_OVER || s->phase == GAL_PH_PLACE)
    return;
  int a = gal_on_board(s, 0), b = gal_on_board(s, 1);
  if (a && b)
    return;
  s->phase = GAL_PH_OVER;
  s->why = GAL_WHY_FLEET;
  if (!a && !b) {
    s->winner = GAL_DRAW;
    SAY(ev, "Neither fleet has a ship left on the board: the game is a "
            "draw.");
  } else {
    s->winner = a ? 0 : 1;
    SAY(ev, "Villain %d has no ship left on the board: Villain %d wins.",
        (a ? 1 : 0) + 1, s->winner + 1);
  }
}

static void destroy(gal_state *s, int i, eng_events *ev, const char *how) {
  char n[64];
  if (ev)
    SAY(ev, "%s %s.", who_name(s, i, n, sizeof n), how);
  s->u[i].alive = 0;
  s->u[i].sector = GAL_NONE;
  for (int k = 0; k < GAL_UNITS; k++)
    s->u[k].with &= ~((uint64_t)1 << i);
}

static void hit(gal_state *s, int a, int t, eng_events *ev) {
  int d = gal_types[s->u[a].type].damage;
  gal_unit *y = &s->u[t];
  int to_shields = d < y->shields ? d : y->shields;
  y->shields = (uint8_t)(y->shields - to_shields);
  int to_hull = d - to_shields;
  char an[64], tn[64];
  if (ev) {
    who_name(s, a, an, sizeof an);
    who_name(s, t, tn, sizeof tn);
  }
  if (to_hull >= y->hull) {
    if (ev)
      SAY(ev, "%s hits %s in %s for %d: its hull breaks.", an, tn,
          gal_sectors[y->sector].id, d);
    destroy(s, t, ev, "is destroyed");
    return;
  }
  y->hull = (uint8_t)(y->hull - to_hull);
  if (ev)
    SAY(ev, "%s hits %s in %s for %d: shields %d/%d, hull %d/%d.", an, tn,
        gal_sectors[y->sector].id, d, y->shields, gal_types[y->type].shields,
        y->hull, gal_types[y->type].hull);
}

static void spin(gal_state *s, int seat, eng_events *ev) {
  const gal_prize *z = &gal_prizes[eng_rng_below(&s->rng, GAL_PRIZES)];
  s->minerals[seat] += z->minerals;
  s->found[seat] += z->minerals;
  s->dark[seat] += z->dark;
  s->dark_found[seat] += z->dark;
  if (!ev)
    return;
  if (z->kind == GAL_P_NOTHING)
    SAY(ev, "The spinner: %s; Villain %d finds nothing.", z->name, seat + 1);
  else if (z->kind == GAL_P_MINERALS)
    SAY(ev, "The spinner: %s; Villain %d gains %d minerals.", z->name, seat + 1,
        z->minerals);
  else if (z->kind == GAL_P_DARK)
    SAY(ev, "The spinner: %s; Villain %d gains 1 Dark Matter.", z->name,
        seat + 1);
  else
    SAY(ev,
        "The spinner: %s; Villain %d gains 1 Dark Matter and %d "
        "minerals.",
        z->name, seat + 1, z->minerals);
}

/* The explorer s->entering comes out in sector x. */
static void land(gal_state *s, int x, eng_events *ev) {
  int e = s->entering;
  char n[64];
  if (ev)
    who_name(s, e, n, sizeof n);
  if (s->black[x]) {
    if (ev)
      SAY(ev, "%s comes out in %s, into the black hole.", n, gal_sectors[x].id);
    destroy(s, e, ev, "is swallowed by the black hole");
    spin(s, s->active, ev);
    s->entering = GAL_NONE;
    return;
  }
  if (gal_crowd(s, x) >= GAL_CAPACITY) {
    s->landing = (uint8_t)x;
    if (ev)
      SAY(ev, "%s comes out in the full sector %s and collides.", n,
          gal_sectors[x].id);
    s->phase = GAL_PH_COLLIDE;
    return;
  }
  s->u[e].sector = (uint8_t)x;
  if (ev)
    SAY(ev, "%s comes out of deep space in %s.", n, gal_sectors[x].id);
  spin(s, s->active, ev);
  s->entering = GAL_NONE;
}

/* The collision in s->landing takes unit v and the explorer. */
static void collide(gal_state *s, int v, eng_events *ev) {
  destroy(s, v, ev, "is destroyed in the collision");
  destroy(s, s->entering, ev, "is destroyed in the collision");
  spin(s, s->active, ev);
  s->entering = GAL_NONE;
  s->phase = GAL_PH_ACT;
}

/* A collision where only one ship may be lost needs no decision. */
static void collide_if_forced(gal_state *s, eng_events *ev) {
  if (s->phase != GAL_PH_COLLIDE ||
      victims(s, s->landing, s->entering, NULL) != 1)
    return;
  eng_prompt p = {0};
  victims(s, s->landing, s->entering, &p);
  collide(s, GAL_A(p.code[0]), ev);
}

/* Rolls the re-entry of explorer e: sets s->landing's zone and either
 * lands it, or asks (ENTRY) when a command ship of its owner is there. */
static void reenter(gal_state *s, int e, eng_events *ev) {
  s->entering = (uint8_t)e;
  int d10 = (int)eng_rng_below(&s->rng, 10) + 1; /* 0 counts as 10 */
  int zone = (d10 + 1) / 2 - 1;
  s->dice[0] = (uint8_t)d10;
  s->dice[1] = 0;
  bool command = false;
  for (int k = 0; k < GAL_UNITS; k++)
    if (on_board(&s->u[k]) && s->u[k].owner == s->active &&
        s->u[k].type == GAL_COMMAND && gal_sectors[s->u[k].sector].zone == zone)
      command = true;
  char n[64];
  if (ev)
    who_name(s, e, n, sizeof n);
  int first = zone * GAL_PER_ZONE;
  if (command && landing_options(s, zone, NULL) > 0) {
    if (ev)
      SAY(ev,
          "%s returns from deep space: the D10 shows %d, the %s zone, "
          "where its Command Ship guides it in.",
          n, d10 % 10, gal_zones[zone].name);
    s->landing = (uint8_t)first;
    if (landing_options(s, zone, NULL) == 1) {
      eng_prompt p = {0};
      landing_options(s, zone, &p);
      land(s, GAL_A(p.code[0]), ev);
      return;
    }
    s->phase = GAL_PH_ENTRY;
    return;
  }
  int d6 = (int)eng_rng_below(&s->rng, 6) + 1;
  s->dice[1] = (uint8_t)d6;
  int x = first + (d6 + 1) / 2 - 1;
  if (ev)
    SAY(ev,
        "%s returns from deep space: the D10 shows %d and the D6 %d, "
        "sector %s.",
        n, d10 % 10, d6, gal_sectors[x].id);
  land(s, x, ev);
}

/* Goes on with the start of the turn: the explorers still in deep space
 * come back one by one; then the actions. */
static void resume_start(gal_state *s, eng_events *ev) {
  while (s->phase == GAL_PH_ACT && s->entering == GAL_NONE) {
    int e = -1;
    for (int k = 0; k < GAL_UNITS && e < 0; k++)
      if (s->u[k].alive && s->u[k].owner == s->active &&
          s->u[k].sector == GAL_DEEP)
        e = k;
    if (e < 0)
      break;
    reenter(s, e, ev);
    collide_if_forced(s, ev);
    check_end(s, ev);
  }
}

static void begin_turn(gal_state *s, eng_events *ev) {
  s->turn++;
  s->play++;
  s->phase = GAL_PH_ACT;
  s->entering = GAL_NONE;
  s->acting = GAL_NONE;
  int me = s->active;
  if (ev)
    SAY(ev, "Round %d: Villain %d's turn begins.", (s->play + 1) / 2, me + 1);
  int recharged = 0;
  for (int k = 0; k < GAL_UNITS; k++) {
    gal_unit *u = &s->u[k];
    if (!u->alive || u->owner != me)
      continue;
    u->ap = (uint8_t)gal_types[u->type].ap;
    u->acted = 0;
    /* "all of that players units": an explorer in deep space too */
    if (u->charge == GAL_CH_NONE && u->shields < gal_types[u->type].shields) {
      u->shields++;
      recharged++;
    }
    u->with = 0;
    if (u->charge == GAL_CH_JUMP && on_board(u))
      for (int j = 0; j < GAL_UNITS; j++)
        if (j != k && on_board(&s->u[j]) && s->u[j].owner == me &&
            s->u[j].sector == u->sector)
          u->with |= (uint64_t)1 << j;
  }
  if (ev && recharged)
    SAY(ev, "%d ship%s of Villain %d recharge their shields.", recharged,
        plural(recharged), me + 1);
  int got = 0, miners = 0;
  for (int k = 0; k < GAL_UNITS; k++) {
    const gal_unit *u = &s->u[k];
    if (!on_board(u) || u->owner != me || !u->attached)
      continue;
    int share = 0;
    for (int j = 0; j < GAL_UNITS; j++)
      share +=
          on_board(&s->u[j]) && s->u[j].attached && s->u[j].sector == u->sector;
    got += gal_yield(share);
    miners++;
  }
  s->minerals[me] += got;
  s->gathered[me] += got;
  if (ev && miners)
    SAY(ev,
        "Villain %d's %d attached miner%s gather %d mineral%s (%d "
        "now).",
        me + 1, miners, plural(miners), got, plural(got), s->minerals[me]);
  resume_start(s, ev);
}

static int score_of(const gal_state *s, int seat) {
  int n = 0;
  for (int k = 0; k < GAL_UNITS; k++)
    if (on_board(&s->u[k]) && s->u[k].owner == seat)
      n += s->u[k].hull;
  return n;
}

static void end_turn(gal_state *s, eng_events *ev) {
  char n[64];
  for (int k = 0; k < GAL_UNITS; k++) {
    gal_unit *u = &s->u[k];
    if (u->alive && u->owner == s->active && ready(s, u)) {
      if (ev)
        SAY(ev, "%s's charge fades unused.", who_name(s, k, n, sizeof n));
      u->charge = GAL_CH_NONE;
      u->aim = GAL_NONE;
      u->charged = -1;
      u->with = 0;
    }
  }
  if (ev)
    SAY(ev, "Villain %d ends their turn.", s->active + 1);
  if (s->play >= 2 * GAL_ROUNDS) {
    int a = gal_on_board(s, 0), b = gal_on_board(s, 1);
    if (a == b) {
      a = score_of(s, 0);
      b = score_of(s, 1);
    }
    s->phase = GAL_PH_OVER;
    s->why = GAL_WHY_ROUNDS;
    s->winner = a == b ? GAL_DRAW : a > b ? 0 : 1;
    if (s->winner == GAL_DRAW)
      SAY(ev,
          "Round %d is over, the last: both fleets are equal, and the "
          "game is a draw.",
          GAL_ROUNDS);
    else
      SAY(ev,
          "Round %d is over, the last: Villain %d holds the larger "
          "fleet on the board and wins.",
          GAL_ROUNDS, s->winner + 1);
    return;
  }
  s->active = (uint8_t)(1 - s->active);
  begin_turn(s, ev);
}

static void finish_ship(gal_state *s) {
  if (s->acting < GAL_UNITS)
    s->u[s->acting].acted = 1;
  s->acting = GAL_NONE;
  s->phase = GAL_PH_ACT;
}

static void pay(gal_state *s, int seat, int minerals, int dark) {
  s->minerals[seat] -= minerals;
  s->spent[seat] += minerals;
  s->dark[seat] -= dark;
  s->dark_spent[seat] += dark;
}

static void place(gal_state *s, int type, int x, eng_events *ev) {
  int seat = s->active;
  int i = new_unit(s, seat, type, x);
  s->to_place[seat][type]--;
  char n[64];
  if (ev)
    SAY(ev, "%s is placed in %s.", who_name(s, i, n, sizeof n),
        gal_sectors[x].id);
  int left[GAL_SEATS] = {0};
  for (int p = 0; p < GAL_SEATS; p++)
    for (int t = 0; t < GAL_TYPES; t++)
      left[p] += s->to_place[p][t];
  if (left[0] + left[1] == 0) {
    if (ev)
      SAY(ev, "Both fleets are placed; the battle begins.");
    s->active = s->first;
    begin_turn(s, ev);
    return;
  }
  /* The whole placement is turn 1: one table message in the channel,
   * edited as the ships go down (a takeback still undoes only a
   * player's own last placement). */
  if (left[1 - seat])
    s->active = (uint8_t)(1 - seat);
}

static void fire(gal_state *s, int i, eng_events *ev) {
  gal_unit *u = &s->u[i];
  int x = u->aim;
  char n[64];
  u->ap--;
  u->charge = GAL_CH_NONE;
  u->aim = GAL_NONE;
  u->charged = -1;
  if (ev)
    who_name(s, i, n, sizeof n);
  if (x >= GAL_SECTORS || s->black[x]) {
    if (ev)
      SAY(ev, "%s fires, but %s is a black hole already.", n,
          x < GAL_SECTORS ? gal_sectors[x].id : "its target");
    return;
  }
  if (ev)
    SAY(ev,
        "%s fires its black hole shot: the planet of %s collapses into "
        "a black hole.",
        n, gal_sectors[x].id);
  s->black[x] = 1;
  for (int k = 0; k < GAL_UNITS; k++)
    if (on_board(&s->u[k]) && s->u[k].sector == x)
      destroy(s, k, ev, "is swallowed by the black hole");
}

static void jump(gal_state *s, int i, int x, eng_events *ev) {
  gal_unit *u = &s->u[i];
  int from = u->sector, moved = 0;
  for (int k = 0; k < GAL_UNITS; k++)
    if ((u->with >> k & 1) && on_board(&s->u[k]) && s->u[k].sector == from) {
      s->u[k].sector = (uint8_t)x;
      s->u[k].attached = 0;
      moved++;
    }
  u->sector = (uint8_t)x;
  u->ap--;
  u->charge = GAL_CH_NONE;
  u->charged = -1;
  u->with = 0;
  char n[64];
  if (ev)
    SAY(ev, "%s fleet-jumps from %s to %s with %d ship%s.",
        who_name(s, i, n, sizeof n), gal_sectors[from].id, gal_sectors[x].id,
        moved, plural(moved));
}

static void act(gal_state *s, uint32_t c, eng_events *ev) {
  int i = s->acting, a = GAL_A(c);
  gal_unit *u = &s->u[i];
  char n[64];
  if (ev)
    who_name(s, i, n, sizeof n);
  switch (GAL_KIND(c)) {
  case GAL_O_MOVE:
    if (ev)
      SAY(ev, "%s moves from %s to %s.", n, gal_sectors[u->sector].id,
          gal_sectors[a].id);
    u->sector = (uint8_t)a;
    u->attached = 0;
    u->ap--;
    break;
  case GAL_O_ATTACK:
    u->ap--;
    hit(s, i, a, ev);
    break;
  case GAL_O_ATTACH:
    u->attached = 1;
    u->ap--;
    if (ev)
      SAY(ev, "%s attaches to the planet of %s.", n, gal_sectors[u->sector].id);
    break;
  case GAL_O_WARP:
    pay(s, u->owner, GAL_WARP_COST, 0);
    if (ev)
      SAY(ev, "%s warps from %s into deep space (%d minerals).", n,
          gal_sectors[u->sector].id, GAL_WARP_COST);
    u->sector = GAL_DEEP;
    u->ap--;
    finish_ship(s);
    return;
  case GAL_O_CHARGE_JUMP:
  case GAL_O_CHARGE_SHOT:
    if (GAL_KIND(c) == GAL_O_CHARGE_JUMP) {
      pay(s, u->owner, GAL_JUMP_COST, 0);
      u->charge = GAL_CH_JUMP;
      if (ev)
        SAY(ev,
            "%s charges a fleet jump (%d minerals): its shields are "
            "down until it jumps next turn.",
            n, GAL_JUMP_COST);
    } else {
      pay(s, u->owner, GAL_SHOT_COST, GAL_SHOT_DARK);
      u->charge = GAL_CH_SHOT;
      u->aim = (uint8_t)a;
      if (ev)
        SAY(ev,
            "%s charges a black hole shot aimed at %s (%d minerals, 1 "
            "Dark Matter): its shields are down until it fires next "
            "turn.",
            n, gal_sectors[a].id, GAL_SHOT_COST);
    }
    u->charged = s->turn;
    u->shields = 0;
    u->ap--;
    finish_ship(s);
    return;
  case GAL_O_FIRE:
    fire(s, i, ev);
    break;
  case GAL_O_JUMP:
    jump(s, i, a, ev);
    break;
  default:
    break;
  }
  if (!s->u[i].alive || s->u[i].ap == 0 || ship_options(s, i, NULL) == 0) {
    if (ev && s->u[i].alive)
      SAY(ev, "%s's actions are over for this turn.", n);
    finish_ship(s);
  }
}

static eng_rc gal_apply(void *st, uint32_t c, unsigned *flags, eng_events *ev) {
  gal_state *s = st;
  char n[64];
  int a = GAL_A(c), b = GAL_B(c);
  eng_rng before = s->rng;
  switch (GAL_KIND(c)) {
  case GAL_O_PLACE:
    place(s, a, b, ev);
    break;
  case GAL_O_LAND:
    s->phase = GAL_PH_ACT;
    land(s, a, ev);
    collide_if_forced(s, ev);
    check_end(s, ev);
    resume_start(s, ev);
    break;
  case GAL_O_VICTIM:
    collide(s, a, ev);
    check_end(s, ev);
    resume_start(s, ev);
    break;
  case GAL_O_SHIP:
    s->acting = (uint8_t)a;
    s->phase = GAL_PH_SHIP;
    if (ev)
      SAY(ev, "Villain %d acts with %s.", s->active + 1,
          (gal_unit_name(s, a, n, sizeof n), n));
    break;
  case GAL_O_BUILD: {
    pay(s, s->active, gal_types[a].cost, 0);
    int i = new_unit(s, s->active, a, b);
    if (i < 0)
      return ENG_INTERNAL;
    if (ev)
      SAY(ev, "Villain %d builds %s in %s for %d minerals (%d left).",
          s->active + 1, (gal_unit_name(s, i, n, sizeof n), n),
          gal_sectors[b].id, gal_types[a].cost, s->minerals[s->active]);
    break;
  }
  case GAL_O_END:
    end_turn(s, ev);
    break;
  case GAL_O_DONE:
    if (ev)
      SAY(ev, "%s's actions are over for this turn.",
          who_name(s, s->acting, n, sizeof n));
    finish_ship(s);
    break;
  default:
    act(s, c, ev);
    check_end(s, ev);
    break;
  }
  /* Dice rolled or the spinner turned: what came out is final. */
  if (memcmp(&before, &s->rng, sizeof before) != 0)
    *flags |= ENG_REVEALED;
  return ENG_OK;
}

/* ---- setup and the result -------------------------------------------------
 */

static const char *const gal_modes[] = {"standard", NULL};

static eng_rc gal_setup(void *st, const eng_config *cfg, uint64_t seed) {
  gal_state *s = st;
  if (cfg->players != GAL_SEATS)
    return ENG_BAD_PLAYERS;
  if (cfg->mode[0] && strcmp(cfg->mode, "standard") != 0)
    return ENG_BAD_MODE;
  if (cfg->first >= GAL_SEATS)
    return ENG_BAD_SEAT;
  memset(s, 0, sizeof *s);
  eng_rng_seed(&s->rng, seed, 0);
  s->winner = GAL_NONE;
  s->acting = s->entering = s->landing = GAL_NONE;
  for (int k = 0; k < GAL_UNITS; k++) {
    s->u[k].sector = GAL_NONE;
    s->u[k].aim = GAL_NONE;
    s->u[k].charged = -1;
  }
  if (cfg->first >= 0) {
    s->first = (uint8_t)cfg->first;
  } else {
    /* The rulebook's roll-off: the higher D10 is player 1 (0 counts as
     * 10); equal rolls are rolled again. */
    do {
      s->roll[0] = (uint8_t)(eng_rng_below(&s->rng, 10) + 1);
      s->roll[1] = (uint8_t)(eng_rng_below(&s->rng, 10) + 1);
    } while (s->roll[0] == s->roll[1]);
    s->first = s->roll[0] > s->roll[1] ? 0 : 1;
  }
  for (int p = 0; p < GAL_SEATS; p++)
    for (int t = 0; t < GAL_TYPES; t++)
      s->to_place[p][t] = GAL_START_EACH;
  s->phase = GAL_PH_PLACE;
  s->active = s->first;
  s->turn = 1;
  return ENG_OK;
}

static void gal_result(const void *st, eng_result *r) {
  const gal_state *s = st;
  memset(r, 0, sizeof *r);
  r->over = s->phase == GAL_PH_OVER;
  for (int p = 0; p < GAL_SEATS; p++) {
    r->score[p] = gal_on_board(s, p);
    snprintf(r->side[p], sizeof r->side[p], "%s",
             gal_player_no(s, p) == 1 ? "red" : "purple");
    snprintf(r->side_name[p], sizeof r->side_name[p], "%s",
             gal_player_no(s, p) == 1 ? "Red" : "Purple");
  }
  if (!r->over)
    return;
  if (s->winner < GAL_SEATS)
    r->winners = 1u << s->winner;
  snprintf(r->reason, sizeof r->reason, "%s",
           s->why == GAL_WHY_ROUNDS ? "round_limit"
           : s->winner == GAL_DRAW  ? "fleets_destroyed"
                                    : "fleet_destroyed");
}

const eng_ruleset gal_ruleset = {
    .id = "galactic",
    .name = "Galactic Domination",
    .version = 1,
    .colour = 0x2c3e7a, /* deep space blue */
    .min_players = 2,
    .max_players = 2,
    .modes_help = "standard (the only mode; without a chosen first player "
                  "the rulebook's D10 roll-off decides who is player 1)",
    .modes = gal_modes,
    .open_piles = NULL,
    .state_size = sizeof(gal_state),
    .setup = gal_setup,
    .prompt = gal_prompt,
    .question = gal_question,
    .option = gal_option,
    .apply = gal_apply,
    .view = gal_view,
    .to_json = gal_to_json,
    .from_json = gal_from_json,
    .result = gal_result,
    .check = gal_check,
    .cards = gal_cards,
    .cards_markdown = gal_cards_md,
    .render = gal_render,
    .ai = gal_ai,
    .ai_why = gal_ai_why,
    .pass_option = NULL,
};
