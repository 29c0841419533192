/*
 * sv_io.c: Supervillain's state as JSON (saves), per-viewer views, and
 * the invariants the simulator checks after every answer.
 *
 * The full state (to_json) holds everything, deck order and hands
 * included, and never leaves the engine except into storage. A view holds
 * exactly what its viewer may see: the open information the rulebook
 * lists (hand sizes, the front of every Asteroid, discard piles, the
 * table) plus the viewer's own hand. sv_check proves that for every view
 * it builds.
 */
#include "sv.h"

#include "../../rsutil.h"

#include <stdio.h>
#include <string.h>

static const char *const phase_names[] = {"start", "asteroids", "act2", "act3",
                                          "day",   "evening",   "over"};
static const char *const zone_names[] = {
    "minion_deck", "minion_discard",  "hand",
    "mob",         "domination_deck", "domination_discard",
    "project",     "facility",        "asteroid",
    "drawn"};

const char *sv_phase_name(int phase) {
  return phase >= 0 && phase <= SV_PH_OVER ? phase_names[phase] : "?";
}
const char *sv_zone_name(int zone) {
  return zone >= 0 && zone < SV_Z_COUNT ? zone_names[zone] : "?";
}

bool sv_zone_public(int zone) {
  return zone == SV_Z_MDISC || zone == SV_Z_MOB || zone == SV_Z_DDISC ||
         zone == SV_Z_PROJECT || zone == SV_Z_FACILITY ||
         zone == SV_Z_ASTEROID || zone == SV_Z_LIMBO;
}

/* A view is built once, either as JSON or, for the simulator's privacy
 * check, as the set of cards it would show: the same code decides both,
 * so what the check proves is what players receive. In collecting mode
 * every JSON value is NULL and jansson's setters ignore it. */
typedef struct vb {
  bool json;
  uint8_t *seen; /* collecting mode: seen[i] set for every card shown */
} vb;

#define J(b, expr) ((b)->json ? (expr) : NULL)

static json_t *ref(vb *b, int i) {
  if (!b->json) {
    b->seen[i] = 1;
    return NULL;
  }
  const sv_card *c = sv_card_of(i);
  return json_pack("{sissss}", "i", i, "id", c->id, "name", c->name);
}

static json_t *pile_refs(vb *b, const eng_pile *p) {
  json_t *a = J(b, json_array());
  for (int k = 0; k < p->n; k++)
    json_array_append_new(a, ref(b, p->c[k]));
  return a;
}

static json_t *build_view(const sv_state *s, int viewer, vb *b) {
  json_t *v = J(b, json_object());
  if (b->json && !v)
    return NULL;
  json_object_set_new(v, "game", J(b, json_string("supervillain")));
  json_object_set_new(v, "mode", J(b, json_string(s->mode)));
  json_object_set_new(v, "target_points", J(b, json_integer(s->target)));
  json_object_set_new(v, "turn", J(b, json_integer(s->turn)));
  json_object_set_new(v, "current", J(b, json_integer(s->current)));
  json_object_set_new(v, "phase", J(b, json_string(sv_phase_name(s->phase))));
  json_object_set_new(v, "minion_deck", J(b, json_integer(s->mdeck.n)));
  json_object_set_new(v, "domination_deck", J(b, json_integer(s->ddeck.n)));
  json_object_set_new(v, "minion_discard", pile_refs(b, &s->mdisc));
  json_object_set_new(v, "domination_discard", pile_refs(b, &s->ddisc));
  json_t *drawn = NULL;
  for (int i = SV_N_MINION; i < SV_N; i++)
    if (s->w[i].zone == SV_Z_LIMBO)
      drawn = ref(b, i);
  json_object_set_new(v, "drawn", drawn ? drawn : J(b, json_null()));

  json_t *players = J(b, json_array());
  for (int p = 0; p < s->players; p++) {
    int hand = 0;
    for (int i = 0; i < SV_N_MINION; i++)
      hand += s->w[i].zone == SV_Z_HAND && s->w[i].owner == p;
    json_t *projects = J(b, json_array()), *facilities = J(b, json_array());
    for (int i = SV_N_MINION; i < SV_N; i++) {
      const sv_where *w = &s->w[i];
      if (w->owner != p)
        continue;
      if (w->zone == SV_Z_PROJECT) {
        json_t *mobs = J(b, json_array());
        int power = 0;
        for (int m = 0; m < SV_N_MINION; m++)
          if (s->w[m].zone == SV_Z_MOB && s->w[m].host == i) {
            json_t *mob = ref(b, m);
            json_object_set_new(mob, "power",
                                J(b, json_integer(sv_card_of(m)->power)));
            json_object_set_new(mob, "proof",
                                J(b, json_boolean(s->w[m].proof)));
            json_array_append_new(mobs, mob);
            power += sv_card_of(m)->power;
          }
        json_t *pr = ref(b, i);
        json_object_set_new(pr, "cost",
                            J(b, json_integer(sv_card_of(i)->cost)));
        json_object_set_new(pr, "power", J(b, json_integer(power)));
        json_object_set_new(pr, "used", J(b, json_boolean(w->used)));
        json_object_set_new(pr, "mobs", mobs);
        json_array_append_new(projects, pr);
      } else if (w->zone == SV_Z_FACILITY) {
        json_t *f = ref(b, i);
        json_object_set_new(f, "points",
                            J(b, json_integer(sv_card_of(i)->points)));
        json_object_set_new(f, "proof", J(b, json_boolean(w->proof)));
        json_object_set_new(f, "used", J(b, json_boolean(w->used)));
        json_array_append_new(facilities, f);
      }
    }
    json_t *po = J(b, json_pack("{si si si so so}", "seat", p, "hand", hand,
                                "points", sv_points(s, p), "projects", projects,
                                "facilities", facilities));
    if (s->team)
      json_object_set_new(po, "team", J(b, json_integer(p % 2)));
    json_array_append_new(players, po);
  }
  json_object_set_new(v, "players", players);

  json_t *asteroids = J(b, json_array());
  for (int i = SV_N_MINION; i < SV_N; i++)
    if (s->w[i].zone == SV_Z_ASTEROID) {
      json_t *a = ref(b, i);
      json_object_set_new(a, "owner", J(b, json_integer(s->w[i].owner)));
      json_object_set_new(a, "target", J(b, json_integer(s->w[i].target)));
      json_object_set_new(a, "charged", J(b, json_boolean(s->w[i].charged)));
      json_array_append_new(asteroids, a);
    }
  json_object_set_new(v, "asteroids", asteroids);

  if (viewer >= 0 && viewer < s->players) {
    json_t *hand = J(b, json_array());
    for (int i = 0; i < SV_N_MINION; i++)
      if (s->w[i].zone == SV_Z_HAND && s->w[i].owner == viewer) {
        json_t *c = ref(b, i);
        json_object_set_new(c, "power",
                            J(b, json_integer(sv_card_of(i)->power)));
        json_array_append_new(hand, c);
      }
    json_object_set_new(v, "you", J(b, json_integer(viewer)));
    json_object_set_new(v, "hand", hand);
  }
  if (s->over) {
    json_t *winners = J(b, json_array());
    for (int p = 0; p < s->players; p++)
      if (s->winners & (1u << p))
        json_array_append_new(winners, J(b, json_integer(p)));
    json_object_set_new(v, "winners", winners);
  }
  return v;
}

json_t *sv_view(const void *st, int viewer) {
  vb b = {.json = true};
  return build_view(st, viewer, &b);
}

void sv_view_cards(const sv_state *s, int viewer, uint8_t seen[SV_N]) {
  memset(seen, 0, SV_N);
  vb b = {.json = false, .seen = seen};
  build_view(s, viewer, &b);
}

/* ---- full state ------------------------------------------------------ */

json_t *sv_to_json(const void *st) {
  const sv_state *s = st;
  json_t *where = json_array(), *stack = json_array();
  for (int i = 0; i < SV_N; i++) {
    const sv_where *w = &s->w[i];
    json_array_append_new(where, json_pack("[iiiiiiii]", w->zone, w->owner,
                                           w->host, w->target, w->proof,
                                           w->charged, w->used, w->due));
  }
  for (int k = 0; k < s->sp; k++) {
    const sv_frame *f = &s->stack[k];
    json_t *list = json_array();
    for (int t = 0; t < f->n_list; t++)
      json_array_append_new(list, json_pack("[ii]", f->list[t], f->owner[t]));
    json_array_append_new(stack, json_pack("[iiiiiiiiio]", f->kind, f->player,
                                           f->op, f->n, f->scope, f->step, f->a,
                                           f->b, f->src, list));
  }
  json_t *j = json_pack(
      "{ss si so si ss si si si si si si si si si si si si}", "ruleset",
      "supervillain", "version", sv_ruleset.version, "rng",
      eng_rng_to_json(&s->rng), "players", s->players, "mode", s->mode, "team",
      s->team, "annihilation", s->annihilation, "target", s->target, "current",
      s->current, "phase", s->phase, "mobs_left", s->mobs_left, "ops_left",
      s->ops_left, "turn", s->turn, "over", s->over, "winners", s->winners,
      "reason", s->reason, "sp", s->sp);
  if (!j)
    return NULL;
  json_object_set_new(j, "minion_deck", eng_pile_to_json(&s->mdeck));
  json_object_set_new(j, "minion_discard", eng_pile_to_json(&s->mdisc));
  json_object_set_new(j, "domination_deck", eng_pile_to_json(&s->ddeck));
  json_object_set_new(j, "domination_discard", eng_pile_to_json(&s->ddisc));
  json_object_set_new(j, "where", where);
  json_object_set_new(j, "stack", stack);
  return j;
}

/* eng_jint for the int fields of a save. */
static bool small(const json_t *v, int lo, int hi, int *out) {
  long x;
  if (!eng_jint(v, lo, hi, &x))
    return false;
  *out = (int)x;
  return true;
}

#define FIELD(name, lo, hi, dst)                                               \
  do {                                                                         \
    int tmp_;                                                                  \
    if (!small(json_object_get(j, name), lo, hi, &tmp_))                       \
      return ENG_BAD_STATE;                                                    \
    dst = tmp_;                                                                \
  } while (0)

eng_rc sv_from_json(void *st, const json_t *j) {
  sv_state *s = st;
  if (!sv_cards())
    return ENG_INTERNAL;
  memset(s, 0, sizeof *s);
  const char *rs = json_string_value(json_object_get(j, "ruleset"));
  const char *mode = json_string_value(json_object_get(j, "mode"));
  int version;
  if (!json_is_object(j) || !rs || strcmp(rs, "supervillain") != 0 || !mode ||
      strlen(mode) >= sizeof s->mode)
    return ENG_BAD_STATE;
  FIELD("version", 1, 1000, version);
  if (version != sv_ruleset.version)
    return ENG_BAD_STATE;
  memcpy(s->mode, mode, strlen(mode) + 1);
  if (eng_rng_from_json(&s->rng, json_object_get(j, "rng")))
    return ENG_BAD_STATE;
  FIELD("players", 2, 4, s->players);
  FIELD("team", 0, 1, s->team);
  FIELD("annihilation", 0, 1, s->annihilation);
  FIELD("target", 1, 20, s->target);
  FIELD("current", 0, s->players - 1, s->current);
  FIELD("phase", 0, SV_PH_OVER, s->phase);
  FIELD("mobs_left", 0, 255, s->mobs_left);
  FIELD("ops_left", 0, 255, s->ops_left);
  FIELD("turn", 1, 1000000000, s->turn);
  FIELD("over", 0, 1, s->over);
  FIELD("winners", 0, 15, s->winners);
  FIELD("reason", 0, SV_END_EXHAUSTED, s->reason);
  if (s->team && s->players != 4)
    return ENG_BAD_STATE;
  if (eng_pile_from_json(&s->mdeck, json_object_get(j, "minion_deck"), SV_N) ||
      eng_pile_from_json(&s->mdisc, json_object_get(j, "minion_discard"),
                         SV_N) ||
      eng_pile_from_json(&s->ddeck, json_object_get(j, "domination_deck"),
                         SV_N) ||
      eng_pile_from_json(&s->ddisc, json_object_get(j, "domination_discard"),
                         SV_N))
    return ENG_BAD_STATE;
  json_t *where = json_object_get(j, "where");
  if (!json_is_array(where) || json_array_size(where) != SV_N)
    return ENG_BAD_STATE;
  for (int i = 0; i < SV_N; i++) {
    json_t *w = json_array_get(where, (size_t)i);
    int f[8];
    static const int hi[8] = {SV_Z_COUNT - 1, 3, SV_N - 1, 3, 1, 1, 1, 1};
    if (!json_is_array(w) || json_array_size(w) != 8)
      return ENG_BAD_STATE;
    for (int k = 0; k < 8; k++)
      if (!small(json_array_get(w, (size_t)k), 0, hi[k], &f[k]))
        return ENG_BAD_STATE;
    sv_where x = {(uint8_t)f[0], (uint8_t)f[1], (uint8_t)f[2], (uint8_t)f[3],
                  (uint8_t)f[4], (uint8_t)f[5], (uint8_t)f[6], (uint8_t)f[7]};
    s->w[i] = x;
  }
  sv_zbits_rebuild(s);
  json_t *stack = json_object_get(j, "stack");
  if (!json_is_array(stack) || json_array_size(stack) > SV_STACK)
    return ENG_BAD_STATE;
  size_t k;
  json_t *fr;
  json_array_foreach(stack, k, fr) {
    sv_frame *f = &s->stack[s->sp++];
    int v[9];
    static const int hi[9] = {SV_F_LAUNCH, 3,   SV_OP_COUNT - 1, 255, 2, 255,
                              SV_N - 1,    255, SV_N - 1};
    json_t *list = json_array_get(fr, 9);
    if (!json_is_array(fr) || json_array_size(fr) != 10 ||
        !json_is_array(list) || json_array_size(list) > SV_TRIG_MAX)
      return ENG_BAD_STATE;
    for (int t = 0; t < 9; t++)
      if (!small(json_array_get(fr, (size_t)t), 0, hi[t], &v[t]))
        return ENG_BAD_STATE;
    f->kind = (uint8_t)v[0];
    f->player = (uint8_t)v[1];
    f->op = (uint8_t)v[2];
    f->n = (uint8_t)v[3];
    f->scope = (uint8_t)v[4];
    f->step = (uint8_t)v[5];
    f->a = (uint8_t)v[6];
    f->b = (uint8_t)v[7];
    f->src = (uint8_t)v[8];
    size_t t;
    json_t *e;
    json_array_foreach(list, t, e) {
      int src, owner;
      if (!json_is_array(e) ||
          !small(json_array_get(e, 0), 0, SV_N - 1, &src) ||
          !small(json_array_get(e, 1), 0, 0xff, &owner) ||
          (owner & 0x3f) >= s->players)
        return ENG_BAD_STATE;
      f->list[f->n_list] = (uint8_t)src;
      f->owner[f->n_list++] = (uint8_t)owner;
    }
    if (f->player >= s->players)
      return ENG_BAD_STATE;
  }
  int sp;
  FIELD("sp", 0, SV_STACK, sp);
  if (sp != s->sp)
    return ENG_BAD_STATE;
  char msg[200];
  if (sv_check(s, msg, sizeof msg))
    return ENG_BAD_STATE;
  return ENG_OK;
}

/* ---- invariants ------------------------------------------------------ */

static int fail(char *msg, size_t cap, const char *what, int i) {
  snprintf(msg, cap, "%s (card %d)", what, i);
  return 1;
}

static int check_pile(const sv_state *s, const eng_pile *p, int zone, char *msg,
                      size_t cap) {
  int in_zone = 0;
  for (int i = 0; i < SV_N; i++)
    in_zone += s->w[i].zone == zone;
  if (in_zone != p->n)
    return fail(msg, cap, "a pile and its cards' zones disagree", zone);
  uint8_t twice[SV_N] = {0};
  for (int k = 0; k < p->n; k++) {
    if (p->c[k] >= SV_N || s->w[p->c[k]].zone != zone)
      return fail(msg, cap, "a pile holds a card from elsewhere", p->c[k]);
    if (twice[p->c[k]]++)
      return fail(msg, cap, "a card lies twice in one pile", p->c[k]);
  }
  return 0;
}

typedef struct view_check {
  const sv_state *s;
  int viewer;
  char *msg;
  size_t cap;
} view_check;

/* A card reference of a view must be public or in the viewer's hand. */
static int check_ref(void *ctx, json_int_t c) {
  const view_check *v = ctx;
  if (c < 0 || c >= SV_N)
    return fail(v->msg, v->cap, "a view names a card that does not exist",
                (int)c);
  const sv_where *w = &v->s->w[c];
  if (!sv_zone_public(w->zone) &&
      !(w->zone == SV_Z_HAND && w->owner == v->viewer)) {
    snprintf(v->msg, v->cap, "the view of seat %d shows card %d from %s",
             v->viewer, (int)c, sv_zone_name(w->zone));
    return 1;
  }
  return 0;
}

int sv_check_view_json(const sv_state *s, const json_t *v, int viewer,
                       char *msg, size_t cap) {
  view_check c = {s, viewer, msg, cap};
  return eng_view_cards(v, check_ref, &c);
}

int sv_check(const void *st, char *msg, size_t cap) {
  const sv_state *s = st;
  int limbo = 0;
  for (int i = 0; i < SV_N; i++)
    for (int z = 0; z < SV_Z_COUNT; z++)
      if (((s->zbits[z][i / 64] >> (i % 64)) & 1u) != (s->w[i].zone == z))
        return fail(msg, cap, "the zone sets disagree with card", i);
  for (int i = 0; i < SV_N; i++) {
    const sv_where *w = &s->w[i];
    bool minion = i < SV_N_MINION;
    bool ok = minion ? (w->zone == SV_Z_MDECK || w->zone == SV_Z_MDISC ||
                        w->zone == SV_Z_HAND || w->zone == SV_Z_MOB)
                     : (w->zone >= SV_Z_DDECK && w->zone < SV_Z_COUNT);
    if (!ok)
      return fail(msg, cap, "a card is in a zone of the other deck", i);
    if (w->owner >= s->players)
      return fail(msg, cap, "a card belongs to a seat that does not exist", i);
    if (w->proof && w->zone != SV_Z_MOB && w->zone != SV_Z_FACILITY)
      return fail(msg, cap, "an Asteroid-proof token off a Mob or Facility", i);
    if (w->charged && w->zone != SV_Z_ASTEROID)
      return fail(msg, cap, "a charge token off an Asteroid", i);
    if (w->zone == SV_Z_MOB &&
        (w->host < SV_N_MINION || s->w[w->host].zone != SV_Z_PROJECT ||
         s->w[w->host].owner != w->owner))
      return fail(msg, cap, "a Mob that lies on no Project of its owner", i);
    if (w->zone == SV_Z_ASTEROID &&
        (w->target >= s->players || w->target == w->owner ||
         (s->team && w->target % 2 == w->owner % 2)))
      return fail(msg, cap, "an Asteroid aimed at its owner or a partner", i);
    limbo += w->zone == SV_Z_LIMBO;
  }
  if (limbo > 1)
    return fail(msg, cap, "more than one drawn Domination card", limbo);
  if (check_pile(s, &s->mdeck, SV_Z_MDECK, msg, cap) ||
      check_pile(s, &s->mdisc, SV_Z_MDISC, msg, cap) ||
      check_pile(s, &s->ddeck, SV_Z_DDECK, msg, cap) ||
      check_pile(s, &s->ddisc, SV_Z_DDISC, msg, cap))
    return 1;
  uint8_t seen[SV_N];
  for (int viewer = -1; viewer < s->players; viewer++) {
    sv_view_cards(s, viewer, seen);
    for (int i = 0; i < SV_N; i++)
      if (seen[i] && !sv_zone_public(s->w[i].zone) &&
          !(s->w[i].zone == SV_Z_HAND && s->w[i].owner == viewer)) {
        snprintf(msg, cap, "the view of seat %d shows card %d from %s", viewer,
                 i, sv_zone_name(s->w[i].zone));
        return 1;
      }
  }
  return 0;
}
