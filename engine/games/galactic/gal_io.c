/*
 * gal_io.c: Galactic Domination's state as JSON (the save, read back
 * strictly), the view (the whole board: the game hides nothing), the
 * invariants a random playout checks after every answer, and the design
 * tables (`lair cards galactic`, the docs).
 */
#include "gal.h"

#include "../../rsutil.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const phase_names[] = {"placement", "landing", "collision",
                                          "orders",    "ship",    "over"};
static const char *const charge_names[] = {"none", "jump", "black_hole"};
static const char *const why_names[] = {"", "fleet_destroyed", "round_limit"};
static const char *const range_names[] = {
    "none", "its own sector", "its own and the adjacent sectors",
    "its own zone", "the zones adjacent to its sector (not its own)"};

const char *gal_phase_name(int phase) {
  return phase >= 0 && phase <= GAL_PH_OVER ? phase_names[phase] : "?";
}

static json_t *sector_ref(int x) {
  return x < GAL_SECTORS ? json_string(gal_sectors[x].id) : json_null();
}

static json_t *seat_or(int x) {
  return json_integer(x == GAL_DRAW ? -2 : x == GAL_NONE ? -1 : x);
}

static bool ok_set(json_t *o, const char *k, json_t *v) {
  return v && json_object_set_new(o, k, v) == 0;
}

static bool ok_push(json_t *a, json_t *v) {
  return v && json_array_append_new(a, v) == 0;
}

/* The JSON array of n numbers, each got(v, i); NULL when out of memory. */
static json_t *numbers(const void *v, int n, long (*got)(const void *, int)) {
  json_t *a = json_array();
  for (int i = 0; a && i < n; i++)
    if (!ok_push(a, json_integer(got(v, i)))) {
      json_decref(a);
      return NULL;
    }
  return a;
}

static long int_at(const void *v, int i) { return ((const int32_t *)v)[i]; }
static long byte_at(const void *v, int i) { return ((const uint8_t *)v)[i]; }
static json_t *ints(const int32_t *v, int n) { return numbers(v, n, int_at); }
static json_t *bytes(const uint8_t *v, int n) { return numbers(v, n, byte_at); }

/* ---- the view --------------------------------------------------------------
 */

static json_t *unit_view(const gal_state *s, int i) {
  const gal_unit *u = &s->u[i];
  const gal_type *t = &gal_types[u->type];
  char n[32];
  gal_unit_name(s, i, n, sizeof n);
  return json_pack(
      "{s:i, s:s, s:i, s:s, s:o, s:i, s:i, s:i, s:i, s:i, s:i, s:b, s:s, "
      "s:o, s:b}",
      "id", i, "name", n, "owner", u->owner, "type", t->id, "sector",
      sector_ref(u->sector), "shields", u->shields, "max_shields", t->shields,
      "hull", u->hull, "max_hull", t->hull, "ap", u->ap, "max_ap", t->ap,
      "attached", u->attached != 0, "charge", charge_names[u->charge], "aim",
      sector_ref(u->aim), "acted", u->acted != 0);
}

static json_t *zones_view(const gal_state *s) {
  json_t *a = json_array();
  for (int z = 0; a && z < GAL_ZONES; z++) {
    char colour[8];
    snprintf(colour, sizeof colour, "#%06x", (unsigned)gal_zones[z].colour);
    int start = -1;
    for (int p = 0; p < GAL_SEATS; p++)
      if (gal_start_zone(gal_player_no(s, p)) == z)
        start = p;
    json_t *adj = json_array();
    for (int y = 0; adj && y < GAL_ZONES; y++)
      if (gal_zones_adjacent(z, y) &&
          !ok_push(adj, json_string(gal_zones[y].id)))
        break;
    if (!ok_push(a,
                 json_pack("{s:s, s:s, s:s, s:i, s:o*}", "id", gal_zones[z].id,
                           "name", gal_zones[z].name, "colour", colour,
                           "start_of", start, "adjacent", adj))) {
      json_decref(a);
      return NULL;
    }
  }
  return a;
}

static json_t *sectors_view(const gal_state *s) {
  json_t *a = json_array();
  for (int x = 0; a && x < GAL_SECTORS; x++) {
    const gal_sector *g = &gal_sectors[x];
    json_t *adj = json_array();
    for (int y = 0; adj && y < GAL_SECTORS; y++)
      if (gal_adjacent(x, y) && !ok_push(adj, json_string(gal_sectors[y].id)))
        break;
    int miners = 0;
    for (int k = 0; k < GAL_UNITS; k++)
      miners += s->u[k].alive && s->u[k].sector == x && s->u[k].attached;
    if (!ok_push(a,
                 json_pack("{s:s, s:s, s:i, s:i, s:o*, s:b, s:i}", "id", g->id,
                           "zone", gal_zones[g->zone].id, "col", g->col, "row",
                           g->row, "adjacent", adj, "black_hole",
                           s->black[x] != 0, "miners", miners))) {
      json_decref(a);
      return NULL;
    }
  }
  return a;
}

static json_t *players_view(const gal_state *s) {
  json_t *a = json_array();
  for (int p = 0; a && p < GAL_SEATS; p++) {
    int deep = 0;
    for (int k = 0; k < GAL_UNITS; k++)
      deep += s->u[k].alive && s->u[k].owner == p && s->u[k].sector == GAL_DEEP;
    json_t *tp = json_object();
    for (int t = 0; tp && t < GAL_TYPES; t++)
      if (!ok_set(tp, gal_types[t].id, json_integer(s->to_place[p][t]))) {
        json_decref(tp);
        tp = NULL;
      }
    int no = gal_player_no(s, p);
    if (!ok_push(a, json_pack("{s:i, s:i, s:s, s:i, s:i, s:i, s:i, s:o*, "
                              "s:i}",
                              "seat", p, "player", no, "zone",
                              gal_zones[gal_start_zone(no)].id, "minerals",
                              s->minerals[p], "dark_matter", s->dark[p],
                              "on_board", gal_on_board(s, p), "in_deep_space",
                              deep, "to_place", tp, "roll", s->roll[p]))) {
      json_decref(a);
      return NULL;
    }
  }
  return a;
}

json_t *gal_view(const void *st, int viewer) {
  const gal_state *s = st;
  json_t *units = json_array();
  for (int k = 0; units && k < GAL_UNITS; k++)
    if (s->u[k].alive && !ok_push(units, unit_view(s, k))) {
      json_decref(units);
      units = NULL;
    }
  bool over = s->phase == GAL_PH_OVER;
  json_t *v = json_pack(
      "{s:s, s:i, s:i, s:s, s:i, s:i, s:o, s:s, s:o*, s:o*, s:o*, s:o*, "
      "s:o, s:o, s:[ii], s:i}",
      "game", "galactic", "turn", s->turn, "round", (s->play + 1) / 2, "phase",
      phase_names[s->phase], "active", over ? -1 : s->active, "first", s->first,
      "winner", seat_or(s->winner), "reason", why_names[s->why], "zones",
      zones_view(s), "sectors", sectors_view(s), "players", players_view(s),
      "units", units, "acting",
      s->phase == GAL_PH_SHIP ? json_integer(s->acting) : json_null(),
      "landing",
      s->phase == GAL_PH_ENTRY || s->phase == GAL_PH_COLLIDE
          ? json_pack("{s:i, s:s}", "unit", s->entering, "sector",
                      s->phase == GAL_PH_COLLIDE
                          ? gal_sectors[s->landing].id
                          : gal_zones[gal_sectors[s->landing].zone].id)
          : json_null(),
      "dice", s->dice[0], s->dice[1], "viewer", viewer);
  return v;
}

/* ---- the save -------------------------------------------------------------
 */

json_t *gal_to_json(const void *st) {
  const gal_state *s = st;
  json_t *units = json_array();
  for (int k = 0; units && k < GAL_UNITS; k++) {
    const gal_unit *u = &s->u[k];
    if (!u->alive)
      continue;
    json_t *with = json_array();
    for (int j = 0; with && j < GAL_UNITS; j++)
      if ((u->with >> j & 1) && !ok_push(with, json_integer(j))) {
        json_decref(with);
        with = NULL;
      }
    json_t *o = json_pack(
        "{s:i, s:i, s:s, s:i, s:o, s:i, s:i, s:i, s:b, s:b, s:s, s:o, "
        "s:i, s:o*}",
        "slot", k, "owner", u->owner, "type", gal_types[u->type].id, "serial",
        u->serial, "sector",
        u->sector == GAL_DEEP ? json_string("deep") : sector_ref(u->sector),
        "shields", u->shields, "hull", u->hull, "ap", u->ap, "attached",
        u->attached != 0, "acted", u->acted != 0, "charge",
        charge_names[u->charge], "aim", sector_ref(u->aim), "charged",
        u->charged, "with", with);
    if (!ok_push(units, o)) {
      json_decref(units);
      units = NULL;
    }
  }
  json_t *place = json_array(), *serials = json_array();
  for (int p = 0; p < GAL_SEATS; p++) {
    if (place && !ok_push(place, bytes(s->to_place[p], GAL_TYPES))) {
      json_decref(place);
      place = NULL;
    }
    if (serials && !ok_push(serials, bytes(s->serials[p], GAL_TYPES))) {
      json_decref(serials);
      serials = NULL;
    }
  }
  return json_pack(
      "{s:o*, s:s, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:o*, s:o*, s:i, s:i, "
      "s:o*, s:o*, s:o*, s:o*, s:o*, s:o*, s:o*, s:o*, s:o*, s:o*, s:o*}",
      "rng", eng_rng_to_json(&s->rng), "phase", phase_names[s->phase], "first",
      s->first, "active", s->active, "winner", s->winner, "why", s->why,
      "acting", s->acting, "entering", s->entering, "landing", s->landing,
      "roll", bytes(s->roll, 2), "dice", bytes(s->dice, 2), "turn", s->turn,
      "play", s->play, "to_place", place, "serials", serials, "black",
      bytes(s->black, GAL_SECTORS), "minerals", ints(s->minerals, 2), "dark",
      ints(s->dark, 2), "gathered", ints(s->gathered, 2), "found",
      ints(s->found, 2), "spent", ints(s->spent, 2), "dark_found",
      ints(s->dark_found, 2), "dark_spent", ints(s->dark_spent, 2), "units",
      units);
}

/* Reading: every member must be there, of its type and in its range. */
typedef struct rd {
  const json_t *o;
  bool bad;
} rd;

static long rd_int(rd *r, const char *key, long lo, long hi) {
  long v = 0;
  if (!eng_jint(json_object_get(r->o, key), lo, hi, &v))
    r->bad = true;
  return v;
}

static void rd_bytes(rd *r, const char *key, uint8_t *dst, int n, long lo,
                     long hi) {
  const json_t *a = json_object_get(r->o, key);
  if (!json_is_array(a) || (int)json_array_size(a) != n) {
    r->bad = true;
    return;
  }
  for (int i = 0; i < n; i++) {
    long v = 0;
    if (!eng_jint(json_array_get(a, (size_t)i), lo, hi, &v))
      r->bad = true;
    dst[i] = (uint8_t)v;
  }
}

static void rd_ints(rd *r, const char *key, int32_t *dst) {
  const json_t *a = json_object_get(r->o, key);
  if (!json_is_array(a) || json_array_size(a) != GAL_SEATS) {
    r->bad = true;
    return;
  }
  for (int i = 0; i < GAL_SEATS; i++) {
    long v = 0;
    if (!eng_jint(json_array_get(a, (size_t)i), 0, 1000000, &v))
      r->bad = true;
    dst[i] = (int32_t)v;
  }
}

static int rd_name(rd *r, const char *key, const char *const *names, int n) {
  int i = eng_lookup(names, n, eng_jstr(r->o, key));
  if (i < 0)
    r->bad = true;
  return i < 0 ? 0 : i;
}

static int rd_sector(rd *r, const char *key, bool deep) {
  const json_t *v = json_object_get(r->o, key);
  if (json_is_null(v))
    return GAL_NONE;
  if (deep && json_is_string(v) && strcmp(json_string_value(v), "deep") == 0)
    return GAL_DEEP;
  int x = gal_sector_of(json_string_value(v));
  if (x < 0)
    r->bad = true;
  return x < 0 ? GAL_NONE : x;
}

static const char *const save_keys[] = {
    "rng",   "phase",      "first",      "active",   "winner",
    "why",   "acting",     "entering",   "landing",  "roll",
    "dice",  "turn",       "play",       "to_place", "serials",
    "black", "minerals",   "dark",       "gathered", "found",
    "spent", "dark_found", "dark_spent", "units",    NULL};
static const char *const unit_keys[] = {
    "slot",     "owner", "type",   "serial", "sector",  "shields", "hull", "ap",
    "attached", "acted", "charge", "aim",    "charged", "with",    NULL};

static bool only_keys(const json_t *o, const char *const *keys) {
  const char *k;
  json_t *v;
  json_object_foreach((json_t *)o, k, v) {
    int i = 0;
    while (keys[i] && strcmp(keys[i], k) != 0)
      i++;
    if (!keys[i])
      return false;
  }
  (void)v;
  return true;
}

static bool unit_from(gal_state *s, const json_t *o) {
  rd r = {o, false};
  if (!json_is_object(o) || !only_keys(o, unit_keys))
    return false;
  long k = rd_int(&r, "slot", 0, GAL_UNITS - 1);
  if (r.bad || s->u[k].alive)
    return false;
  gal_unit *u = &s->u[k];
  const char *type_ids[GAL_TYPES];
  for (int t = 0; t < GAL_TYPES; t++)
    type_ids[t] = gal_types[t].id;
  u->alive = 1;
  u->owner = (uint8_t)rd_int(&r, "owner", 0, GAL_SEATS - 1);
  u->type = (uint8_t)rd_name(&r, "type", type_ids, GAL_TYPES);
  u->serial = (uint8_t)rd_int(&r, "serial", 1, 255);
  u->sector = (uint8_t)rd_sector(&r, "sector", true);
  u->shields = (uint8_t)rd_int(&r, "shields", 0, 255);
  u->hull = (uint8_t)rd_int(&r, "hull", 1, 255);
  u->ap = (uint8_t)rd_int(&r, "ap", 0, 255);
  const json_t *att = json_object_get(o, "attached"),
               *act = json_object_get(o, "acted");
  if (!json_is_boolean(att) || !json_is_boolean(act))
    return false;
  u->attached = json_is_true(att);
  u->acted = json_is_true(act);
  u->charge = (uint8_t)rd_name(&r, "charge", charge_names, 3);
  u->aim = (uint8_t)rd_sector(&r, "aim", false);
  u->charged = (int16_t)rd_int(&r, "charged", -1, 30000);
  const json_t *with = json_object_get(o, "with");
  size_t i;
  json_t *w;
  if (!json_is_array(with))
    return false;
  json_array_foreach(with, i, w) {
    long j = 0;
    if (!eng_jint(w, 0, GAL_UNITS - 1, &j))
      return false;
    u->with |= (uint64_t)1 << j;
  }
  return !r.bad && u->sector != GAL_NONE;
}

eng_rc gal_from_json(void *st, const json_t *j) {
  gal_state *s = st;
  memset(s, 0, sizeof *s);
  if (!json_is_object(j) || !only_keys(j, save_keys))
    return ENG_BAD_STATE;
  rd r = {j, false};
  if (eng_rng_from_json(&s->rng, json_object_get(j, "rng")) != ENG_OK)
    return ENG_BAD_STATE;
  s->phase = (uint8_t)rd_name(&r, "phase", phase_names, GAL_PH_OVER + 1);
  s->first = (uint8_t)rd_int(&r, "first", 0, GAL_SEATS - 1);
  s->active = (uint8_t)rd_int(&r, "active", 0, GAL_SEATS - 1);
  s->winner = (uint8_t)rd_int(&r, "winner", 0, 255);
  s->why = (uint8_t)rd_int(&r, "why", 0, GAL_WHY_ROUNDS);
  s->acting = (uint8_t)rd_int(&r, "acting", 0, 255);
  s->entering = (uint8_t)rd_int(&r, "entering", 0, 255);
  s->landing = (uint8_t)rd_int(&r, "landing", 0, 255);
  rd_bytes(&r, "roll", s->roll, 2, 0, 10);
  rd_bytes(&r, "dice", s->dice, 2, 0, 10);
  s->turn = (int16_t)rd_int(&r, "turn", 1, 30000);
  s->play = (int16_t)rd_int(&r, "play", 0, 2 * GAL_ROUNDS);
  const json_t *tp = json_object_get(j, "to_place"),
               *se = json_object_get(j, "serials");
  if (!json_is_array(tp) || json_array_size(tp) != GAL_SEATS ||
      !json_is_array(se) || json_array_size(se) != GAL_SEATS)
    return ENG_BAD_STATE;
  for (int p = 0; p < GAL_SEATS; p++) {
    json_t *wrap = json_pack("{s:O, s:O}", "t", json_array_get(tp, (size_t)p),
                             "s", json_array_get(se, (size_t)p));
    if (!wrap)
      return ENG_BAD_STATE;
    rd w = {wrap, false};
    rd_bytes(&w, "t", s->to_place[p], GAL_TYPES, 0, GAL_START_EACH);
    rd_bytes(&w, "s", s->serials[p], GAL_TYPES, 0, 255);
    json_decref(wrap);
    if (w.bad)
      return ENG_BAD_STATE;
  }
  rd_bytes(&r, "black", s->black, GAL_SECTORS, 0, 1);
  rd_ints(&r, "minerals", s->minerals);
  rd_ints(&r, "dark", s->dark);
  rd_ints(&r, "gathered", s->gathered);
  rd_ints(&r, "found", s->found);
  rd_ints(&r, "spent", s->spent);
  rd_ints(&r, "dark_found", s->dark_found);
  rd_ints(&r, "dark_spent", s->dark_spent);
  if (r.bad)
    return ENG_BAD_STATE;
  for (int k = 0; k < GAL_UNITS; k++) {
    s->u[k].sector = GAL_NONE;
    s->u[k].aim = GAL_NONE;
    s->u[k].charged = -1;
  }
  const json_t *units = json_object_get(j, "units");
  size_t i;
  json_t *o;
  if (!json_is_array(units) || json_array_size(units) > GAL_UNITS)
    return ENG_BAD_STATE;
  json_array_foreach(units, i, o) {
    if (!unit_from(s, o))
      return ENG_BAD_STATE;
  }
  char msg[200];
  if (gal_check(s, msg, sizeof msg))
    return ENG_BAD_STATE;
  return ENG_OK;
}

/* ---- the invariants --------------------------------------------------------
 */

static int fail(char *msg, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(char *msg, size_t cap, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, cap, fmt, ap);
  va_end(ap);
  return 1;
}

int gal_check(const void *st, char *msg, size_t cap) {
  const gal_state *s = st;
  if (s->phase > GAL_PH_OVER || s->first >= GAL_SEATS || s->active >= GAL_SEATS)
    return fail(msg, cap, "phase, first or active out of range");
  if ((s->phase == GAL_PH_OVER) != (s->winner != GAL_NONE))
    return fail(msg, cap, "a winner without the end, or the end without one");
  if (s->winner != GAL_NONE && s->winner != GAL_DRAW && s->winner >= GAL_SEATS)
    return fail(msg, cap, "the winner is no seat");
  int units[GAL_SEATS] = {0}, types[GAL_SEATS][GAL_TYPES] = {{0}};
  int crowd[GAL_SECTORS] = {0};
  for (int k = 0; k < GAL_UNITS; k++) {
    const gal_unit *u = &s->u[k];
    if (!u->alive)
      continue;
    const gal_type *t = &gal_types[u->type];
    if (u->owner >= GAL_SEATS || u->type >= GAL_TYPES)
      return fail(msg, cap, "unit %d: owner or type out of range", k);
    units[u->owner]++;
    types[u->owner][u->type]++;
    if (u->serial == 0 || u->serial > s->serials[u->owner][u->type])
      return fail(msg, cap, "unit %d: serial %d never made", k, u->serial);
    if (u->shields > t->shields || u->hull == 0 || u->hull > t->hull ||
        u->ap > t->ap)
      return fail(msg, cap,
                  "unit %d: shields %d, hull %d or AP %d out of "
                  "its type's range",
                  k, u->shields, u->hull, u->ap);
    if (u->sector == GAL_DEEP) {
      if (u->type != GAL_EXPLORER)
        return fail(msg, cap, "unit %d in deep space is no explorer", k);
    } else if (u->sector >= GAL_SECTORS) {
      return fail(msg, cap, "unit %d is nowhere", k);
    } else {
      if (s->black[u->sector])
        return fail(msg, cap, "unit %d is in the black hole of %s", k,
                    gal_sectors[u->sector].id);
      if (u->type != GAL_MINER)
        crowd[u->sector]++;
    }
    if (u->attached && (u->type != GAL_MINER || u->sector >= GAL_SECTORS))
      return fail(msg, cap, "unit %d is attached but no miner on a planet", k);
    if (u->charge > GAL_CH_SHOT ||
        (u->charge == GAL_CH_JUMP && u->type != GAL_COMMAND) ||
        (u->charge == GAL_CH_SHOT &&
         (u->type != GAL_DESTROYER || u->aim >= GAL_SECTORS)) ||
        (u->charge != GAL_CH_NONE &&
         (u->shields != 0 || u->charged < 0 || u->charged > s->turn)) ||
        (u->charge == GAL_CH_NONE && (u->aim != GAL_NONE || u->with)))
      return fail(msg, cap, "unit %d: a charge out of its rules", k);
    for (int j = 0; j < GAL_UNITS; j++)
      if ((u->with >> j & 1) &&
          (j == k || !s->u[j].alive || s->u[j].owner != u->owner))
        return fail(msg, cap, "unit %d jumps with unit %d, no ally", k, j);
  }
  for (int p = 0; p < GAL_SEATS; p++) {
    if (units[p] > GAL_TEAM)
      return fail(msg, cap, "Villain %d has %d units, more than %d", p + 1,
                  units[p], GAL_TEAM);
    for (int t = 0; t < GAL_TYPES; t++)
      if (types[p][t] > gal_types[t].limit)
        return fail(msg, cap, "Villain %d has %d %s, more than %d", p + 1,
                    types[p][t], gal_types[t].name, gal_types[t].limit);
    if (s->minerals[p] < 0 || s->dark[p] < 0 ||
        s->minerals[p] != s->gathered[p] + s->found[p] - s->spent[p] ||
        s->dark[p] != s->dark_found[p] - s->dark_spent[p])
      return fail(msg, cap,
                  "Villain %d's minerals (%d) or Dark Matter (%d) "
                  "are not what was gathered, found and spent",
                  p + 1, s->minerals[p], s->dark[p]);
    int placed = 0;
    for (int t = 0; t < GAL_TYPES; t++)
      placed += GAL_START_EACH - s->to_place[p][t];
    if (s->phase == GAL_PH_PLACE && units[p] != placed)
      return fail(msg, cap, "Villain %d placed %d ships but has %d", p + 1,
                  placed, units[p]);
  }
  for (int x = 0; x < GAL_SECTORS; x++)
    if (crowd[x] > GAL_CAPACITY)
      return fail(msg, cap, "sector %s holds %d ships, more than %d",
                  gal_sectors[x].id, crowd[x], GAL_CAPACITY);
  int markers = gal_markers_used(s);
  if (markers > GAL_MARKERS)
    return fail(msg, cap,
                "%d black holes and shots charged, more than the %d "
                "markers",
                markers, GAL_MARKERS);
  if (s->phase != GAL_PH_SHIP && s->phase != GAL_PH_OVER &&
      s->acting != GAL_NONE)
    return fail(msg, cap, "a ship acts outside a ship's actions");
  if (s->phase != GAL_PH_ENTRY && s->phase != GAL_PH_COLLIDE &&
      s->phase != GAL_PH_OVER && s->entering != GAL_NONE)
    return fail(msg, cap, "an explorer comes back outside its re-entry");
  if (s->phase == GAL_PH_SHIP &&
      (s->acting >= GAL_UNITS || !s->u[s->acting].alive ||
       s->u[s->acting].owner != s->active))
    return fail(msg, cap, "the acting ship is not the active player's");
  if ((s->phase == GAL_PH_ENTRY || s->phase == GAL_PH_COLLIDE) &&
      (s->entering >= GAL_UNITS || !s->u[s->entering].alive ||
       s->u[s->entering].sector != GAL_DEEP || s->landing >= GAL_SECTORS))
    return fail(msg, cap, "the explorer coming back is not in deep space");
  if (s->phase != GAL_PH_PLACE && s->phase != GAL_PH_OVER &&
      (!gal_on_board(s, 0) || !gal_on_board(s, 1)))
    return fail(msg, cap,
                "a fleet has no ship on the board, yet the game "
                "goes on");
  /* The view shows the whole board and no more: it holds every living
   * unit, and nothing of the random generator. */
  json_t *v = gal_view(s, -1);
  if (!v)
    return 0; /* out of memory: nothing to check */
  size_t n = json_array_size(json_object_get(v, "units"));
  bool rng = json_object_get(v, "rng") != NULL;
  json_decref(v);
  if ((int)n != units[0] + units[1] || rng)
    return fail(msg, cap, "the view does not show exactly the living units");
  return 0;
}

/* ---- the design tables ------------------------------------------------------
 */

json_t *gal_cards(void) {
  json_t *a = json_array();
  for (int t = 0; a && t < GAL_TYPES; t++) {
    const gal_type *g = &gal_types[t];
    if (!ok_push(a, json_pack("{s:s, s:s, s:s, s:i, s:i, s:s, s:i, s:i, "
                              "s:i, s:i, s:s}",
                              "deck", "units", "id", g->id, "name", g->name,
                              "count", g->limit, "ap", g->ap, "range",
                              range_names[g->range], "damage", g->damage,
                              "shields", g->shields, "hull", g->hull, "cost",
                              g->cost, "ability", g->ability))) {
      json_decref(a);
      return NULL;
    }
  }
  return a;
}

char *gal_cards_md(void) {
  eng_md m = {0};
  eng_md_str(&m, "### Units\n\n| Unit | AP | Damage | Range | Shields | "
                 "Hull | Cost | Limit | Ability |\n|---|---|---|---|---|---|"
                 "---|---|---|\n");
  for (int t = 0; t < GAL_TYPES; t++) {
    const gal_type *g = &gal_types[t];
    eng_md_printf(&m, "| %s | %d | %d | %s | %d | %d | %d | %d | ", g->name,
                  g->ap, g->damage, range_names[g->range], g->shields, g->hull,
                  g->cost, g->limit);
    eng_md_cell(&m, g->ability);
    eng_md_str(&m, " |\n");
  }
  eng_md_str(&m, "\n### The board\n\n| Zone | Sectors | Borders |\n"
                 "|---|---|---|\n");
  for (int z = 0; z < GAL_ZONES; z++) {
    eng_md_printf(&m, "| %s%s | ", gal_zones[z].name,
                  z == gal_start_zone(1)   ? " (player 1 starts)"
                  : z == gal_start_zone(2) ? " (player 2 starts)"
                                           : "");
    int k = 0;
    for (int x = 0; x < GAL_SECTORS; x++)
      if (gal_sectors[x].zone == z)
        eng_md_printf(&m, "%s%s", k++ ? ", " : "", gal_sectors[x].id);
    eng_md_str(&m, " | ");
    k = 0;
    for (int x = 0; x < GAL_SECTORS; x++)
      for (int y = 0; y < GAL_SECTORS; y++)
        if (gal_sectors[x].zone == z && gal_sectors[y].zone != z &&
            gal_adjacent(x, y))
          eng_md_printf(&m, "%s%s-%s", k++ ? ", " : "", gal_sectors[x].id,
                        gal_sectors[y].id);
    eng_md_str(&m, " |\n");
  }
  eng_md_str(&m, "\nWithin a zone, sector 1 borders 2 and 2 borders 3.\n"
                 "\n### The Deep Space spinner\n\n| Slice | Prize |\n"
                 "|---|---|\n");
  for (int i = 0; i < GAL_PRIZES; i++) {
    const gal_prize *z = &gal_prizes[i];
    eng_md_printf(&m, "| %d | %s: ", i + 1, z->name);
    if (z->kind == GAL_P_NOTHING)
      eng_md_str(&m, "nothing");
    if (z->minerals)
      eng_md_printf(&m, "%d minerals", z->minerals);
    if (z->dark)
      eng_md_printf(&m, "%s1 Dark Matter", z->minerals ? " and " : "");
    eng_md_str(&m, " |\n");
  }
  eng_md_printf(&m,
                "\n### Costs and yields\n\n| What | Cost |\n|---|---|\n"
                "| Warp (explorer) | %d minerals |\n"
                "| Fleet jump charge (command ship) | %d minerals |\n"
                "| Black hole shot charge (destroyer) | %d minerals and "
                "%d Dark Matter |\n\n"
                "An attached miner gathers %d minerals alone on its "
                "planet, %d when two miners share it, %d when three or "
                "more do. A game has at most %d black holes (the box's "
                "markers), the shots charged counted.\n",
                GAL_WARP_COST, GAL_JUMP_COST, GAL_SHOT_COST, GAL_SHOT_DARK,
                gal_yield(1), gal_yield(2), gal_yield(3), GAL_MARKERS);
  return eng_md_take(&m);
}
