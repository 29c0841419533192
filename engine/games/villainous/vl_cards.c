/*
 * vl_cards.c: loads and validates the Villainous villains.
 *
 * Every data file villainous/VILLAIN.json built into the binary is one
 * villain (README.md beside this file is the format). They are parsed
 * once per process into a read-only table sorted by villain id.
 * Validation reports every problem it finds (an unknown key or op, a
 * deck of the wrong size, a realm outside the rulebook's calibration...)
 * before it fails, so one run shows all that is wrong with an edited
 * file. The card list is also given as JSON (`lair cards villainous`)
 * and as the Markdown that docs/rules/villainous.md embeds.
 */
#include "vl.h"

#include "../../blob.h"
#include "../../rsutil.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>

#define NAMES(e, s) s,
static const char *const kind_names[] = {VL_KINDS(NAMES)};
static const char *const action_names[] = {VL_ACTIONS(NAMES)};
static const char *const when_names[] = {VL_WHENS(NAMES)};
static const char *const trigger_names[] = {VL_TRIGGERS(NAMES)};
#define OP_NAME(e, s, chooses, nothing) s,
static const char *const op_names[] = {VL_OPS(OP_NAME)};
#undef OP_NAME
static const char *const mod_names[] = {VL_MODS(NAMES)};
static const char *const who_names[] = {VL_WHOS(NAMES)};
static const char *const objective_names[] = {VL_OBJECTIVES(NAMES)};
static const char *const count_names[] = {VL_COUNTS(NAMES)};
static const char *const hook_names[] = {VL_HOOKS(NAMES)};
#undef NAMES

#define NAME_OF(arr, count, i) ((i) >= 0 && (i) < (count) ? arr[i] : "?")
const char *vl_kind_name(int i) { return NAME_OF(kind_names, VL_K_COUNT, i); }
const char *vl_op_name(int i) { return NAME_OF(op_names, VL_OP_COUNT, i); }

/* ---- the loader --------------------------------------------------------- */

typedef struct loader {
  eng_loader e;
  bool marvel; /* the Marvel profile's rules and calibration */
} loader;

/* Reads the integer member key of o into *out when present (else dflt);
 * reports a value outside [lo, hi] or a missing required one. */
static bool get_int(loader *l, const char *where, const json_t *o,
                    const char *key, int lo, int hi, int dflt, bool required,
                    int *out) {
  json_t *v = json_object_get(o, key);
  *out = dflt;
  if (!v) {
    if (required)
      eng_load_err(&l->e, "%s: '%s' is missing", where, key);
    return !required;
  }
  if (!json_is_integer(v) || json_integer_value(v) < lo ||
      json_integer_value(v) > hi) {
    eng_load_err(&l->e, "%s: '%s' must be an integer from %d to %d", where, key,
                 lo, hi);
    return false;
  }
  *out = (int)json_integer_value(v);
  return true;
}

static bool id_ok(const char *s) {
  if (!s[0])
    return false;
  for (const char *p = s; *p; p++)
    if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_'))
      return false;
  return true;
}

/* A kind filter: "ally", "item", ..., or "any". */
static int kind_filter(loader *l, const char *where, const json_t *o,
                       const char *key, bool required) {
  const char *s = json_string_value(json_object_get(o, key));
  if (!s) {
    if (required)
      eng_load_err(&l->e, "%s: '%s' (a card kind or any) is missing", where,
                   key);
    return VL_ANY;
  }
  if (strcmp(s, "any") == 0)
    return VL_ANY;
  int k = eng_lookup(kind_names, VL_K_COUNT, s);
  if (k < 0)
    eng_load_err(&l->e, "%s: unknown card kind '%s'", where, s);
  return k < 0 ? VL_ANY : k;
}

/* Finds the def called id among v's defs; -1 when none. */
static int def_index(const vl_villain *v, const char *id) {
  for (int i = 0; i < v->n_defs; i++)
    if (strcmp(v->defs[i].id, id) == 0)
      return i;
  return -1;
}

/* The def named by member key of o; reports a missing or unknown one. */
static int card_ref(loader *l, const char *where, const vl_villain *v,
                    const json_t *o, const char *key, bool required) {
  const char *s = json_string_value(json_object_get(o, key));
  if (!s) {
    if (required)
      eng_load_err(&l->e, "%s: '%s' (a card id of this villain) is missing",
                   where, key);
    return -1;
  }
  int d = def_index(v, s);
  if (d < 0)
    eng_load_err(&l->e, "%s: '%s' names '%s', which is no card of this villain",
                 where, key, s);
  return d;
}

static const char *const effect_keys[] = {
    "op", "n", "may", "scope", "where", "kind", "per", "card", "hook", NULL};

static void parse_effect(loader *l, const char *where, const vl_villain *v,
                         const json_t *o, bool in_condition, vl_effect *e) {
  memset(e, 0, sizeof *e);
  e->card = -1;
  e->kind = VL_ANY;
  e->where = VL_SC_REALM;
  if (!json_is_object(o)) {
    eng_load_err(&l->e, "%s: an effect must be an object", where);
    return;
  }
  eng_load_keys(&l->e, where, o, effect_keys);
  /* Read before the op, so that an unknown op is the only error told. */
  json_t *may = json_object_get(o, "may");
  if (may && !json_is_boolean(may))
    eng_load_err(&l->e, "%s: 'may' must be true or false", where);
  e->may = json_is_true(may);
  const char *opname = json_string_value(json_object_get(o, "op"));
  int op = eng_lookup(op_names, VL_OP_COUNT, opname);
  if (op < 0) {
    eng_load_err(&l->e, "%s: unknown effect op '%s'", where,
                 opname ? opname : "(none)");
    return;
  }
  e->op = (uint8_t)op;
  int n = 0;
  const char *scope = json_string_value(json_object_get(o, "scope"));
  const char *wh = json_string_value(json_object_get(o, "where"));
  if (wh) {
    if (strcmp(wh, "here") == 0)
      e->where = VL_SC_HERE;
    else if (strcmp(wh, "realm") != 0)
      eng_load_err(&l->e, "%s: 'where' must be realm or here", where);
  }
  /* Which fields each op takes; everything else must be absent. */
  bool takes_n = false, takes_scope = false, takes_where = false;
  bool takes_kind = false, takes_card = false;
  switch ((vl_op)op) {
  case VL_OP_GAIN_POWER:
  case VL_OP_LOSE_POWER:
    takes_n = get_int(l, where, o, "n", 1, 5, 1, true, &n);
    break;
  case VL_OP_DRAW:
  case VL_OP_DISCARD_CARDS:
  case VL_OP_LOOK_FATE:
    takes_n = get_int(l, where, o, "n", 1, 3, 1, true, &n);
    break;
  case VL_OP_TRACK:
    takes_n = get_int(l, where, o, "n", -2, 3, 1, true, &n);
    if (n == 0)
      eng_load_err(&l->e, "%s: track needs n other than 0", where);
    if (!v->track_name[0])
      eng_load_err(&l->e, "%s: track, but this villain has no track", where);
    break;
  case VL_OP_PLAY_FREE:
    takes_n = get_int(l, where, o, "n", 0, 4, 0, false, &n);
    takes_kind = true;
    e->kind = (uint8_t)kind_filter(l, where, o, "kind", true);
    break;
  case VL_OP_PLAY_DISCARD:
  case VL_OP_TAKE_DISCARD:
    takes_kind = true;
    e->kind = (uint8_t)kind_filter(l, where, o, "kind", true);
    break;
  case VL_OP_SEARCH:
    takes_kind = takes_card = true;
    e->card = (int8_t)card_ref(l, where, v, o, "card", false);
    if (json_object_get(o, "kind"))
      e->kind = (uint8_t)kind_filter(l, where, o, "kind", false);
    if (!json_object_get(o, "card") && !json_object_get(o, "kind"))
      eng_load_err(&l->e, "%s: search needs a card or a kind", where);
    if (e->card >= 0 && v->defs[e->card].deck != VL_DECK_VILLAIN)
      eng_load_err(&l->e, "%s: search finds villain cards only", where);
    break;
  case VL_OP_MOVE_HERO:
  case VL_OP_MOVE_ALLY:
    takes_scope = true;
    takes_where = op == VL_OP_MOVE_HERO;
    e->scope = VL_SC_ADJACENT;
    if (scope && strcmp(scope, "any") == 0)
      e->scope = VL_SC_ANY;
    else if (scope && strcmp(scope, "mover") == 0 && op == VL_OP_MOVE_HERO)
      e->scope = VL_SC_MOVER;
    else if (scope && strcmp(scope, "adjacent") != 0)
      eng_load_err(&l->e, "%s: %s takes scope adjacent, any%s", where, opname,
                   op == VL_OP_MOVE_HERO ? " or mover" : "");
    break;
  case VL_OP_DEFEAT_HERO:
  case VL_OP_REMOVE_ALLY:
    takes_n = get_int(l, where, o, "n", 0, 6, 0, false, &n);
    takes_where = true;
    break;
  case VL_OP_REMOVE_CARD: {
    takes_kind = takes_where = true;
    e->kind = (uint8_t)kind_filter(l, where, o, "kind", true);
    if (e->kind != VL_ANY && e->kind != VL_K_ITEM && e->kind != VL_K_SPECIAL)
      eng_load_err(&l->e, "%s: remove_card takes kind item, special or any",
                   where);
    break;
  }
  case VL_OP_GAIN_PER:
    takes_n = get_int(l, where, o, "n", 1, 2, 1, true, &n);
    {
      const char *per = json_string_value(json_object_get(o, "per"));
      int k = eng_lookup(kind_names, VL_K_COUNT, per);
      if (k < 0)
        eng_load_err(&l->e, "%s: gain_per needs 'per', a card kind", where);
      e->kind = k < 0 ? VL_K_ALLY : (uint8_t)k;
    }
    break;
  case VL_OP_FATE:
    takes_scope = true;
    if (scope && strcmp(scope, "active") == 0) {
      if (!in_condition)
        eng_load_err(&l->e, "%s: fate with scope active is for Conditions only",
                     where);
      e->scope = VL_SC_ACTIVE;
    } else if (scope && strcmp(scope, "any") != 0) {
      eng_load_err(&l->e, "%s: fate takes scope any or active", where);
    }
    break;
  case VL_OP_FIND_HERO:
    takes_card = true;
    e->card = (int8_t)card_ref(l, where, v, o, "card", true);
    if (e->card >= 0 && v->defs[e->card].kind != VL_K_HERO)
      eng_load_err(&l->e,
                   "%s: find_hero must name a Hero of this villain's fate deck",
                   where);
    break;
  case VL_OP_HOOK: {
    const char *h = json_string_value(json_object_get(o, "hook"));
    int k = eng_lookup(hook_names, VL_H_COUNT, h);
    if (k < 0)
      eng_load_err(&l->e, "%s: unknown hook '%s'", where, h ? h : "(none)");
    e->hook = k < 0 ? 0 : (uint8_t)k;
    break;
  }
  case VL_OP_UNLOCK: {
    bool locked = false;
    for (int i = 0; i < VL_LOCS; i++)
      locked |= v->loc[i].locked;
    if (!locked)
      eng_load_err(&l->e,
                   "%s: unlock, but no location of this villain is locked",
                   where);
    if (l->marvel)
      eng_load_err(&l->e, "%s: the Marvel rules have no lock tokens", where);
    break;
  }
  case VL_OP_TOKEN:
    takes_n = get_int(l, where, o, "n", -2, 2, 1, true, &n);
    if (n == 0)
      eng_load_err(&l->e, "%s: token needs n other than 0", where);
    takes_kind = takes_where = true;
    e->kind = (uint8_t)kind_filter(l, where, o, "kind", true);
    if (e->kind != VL_K_HERO && e->kind != VL_K_ALLY)
      eng_load_err(&l->e, "%s: token takes kind hero or ally", where);
    break;
  case VL_OP_STONE:
  case VL_OP_GIVE_STONE:
    if (!l->marvel)
      eng_load_err(&l->e, "%s: %s belongs to the Marvel rules", where, opname);
    break;
  case VL_OP_VANQUISH:
  case VL_OP_RETURN_ALLY:
  case VL_OP_PLAY_FATE_TOP:
  case VL_OP_COUNT:
    break;
  }
  e->n = (int8_t)n;
  if (!takes_n && json_object_get(o, "n"))
    eng_load_err(&l->e, "%s: %s takes no n", where, opname);
  if (!takes_scope && scope)
    eng_load_err(&l->e, "%s: %s takes no scope", where, opname);
  if (!takes_where && wh)
    eng_load_err(&l->e, "%s: %s takes no where", where, opname);
  if (!takes_kind && op != VL_OP_GAIN_PER && json_object_get(o, "kind"))
    eng_load_err(&l->e, "%s: %s takes no kind", where, opname);
  if (op != VL_OP_GAIN_PER && json_object_get(o, "per"))
    eng_load_err(&l->e, "%s: %s takes no per", where, opname);
  if (!takes_card && json_object_get(o, "card"))
    eng_load_err(&l->e, "%s: %s takes no card", where, opname);
  if (op != VL_OP_HOOK && json_object_get(o, "hook"))
    eng_load_err(&l->e, "%s: %s takes no hook", where, opname);
}

static const char *const mod_keys[] = {"mod", "n", "who", "kind", NULL};

static void parse_mod(loader *l, const char *where, const json_t *o,
                      vl_mod *m) {
  memset(m, 0, sizeof *m);
  m->kind = VL_ANY;
  if (!json_is_object(o)) {
    eng_load_err(&l->e, "%s: a modifier must be an object", where);
    return;
  }
  eng_load_keys(&l->e, where, o, mod_keys);
  const char *name = json_string_value(json_object_get(o, "mod"));
  int mod = eng_lookup(mod_names, VL_M_COUNT, name);
  if (mod < 0) {
    eng_load_err(&l->e, "%s: unknown modifier '%s'", where,
                 name ? name : "(none)");
    return;
  }
  m->mod = (uint8_t)mod;
  int n = 0;
  bool takes_who = false, takes_kind = false;
  switch ((vl_mod_kind)mod) {
  case VL_M_STRENGTH: {
    get_int(l, where, o, "n", -3, 3, 0, true, &n);
    takes_who = true;
    const char *who = json_string_value(json_object_get(o, "who"));
    int w = eng_lookup(who_names, VL_WHO_COUNT, who);
    if (w < 0)
      eng_load_err(&l->e, "%s: strength needs 'who' (%s)", where,
                   "self, host, allies_here, heroes_here, allies or heroes");
    m->who = w < 0 ? 0 : (uint8_t)w;
    break;
  }
  case VL_M_COST:
    get_int(l, where, o, "n", -2, 2, 0, true, &n);
    takes_kind = true;
    m->kind = (uint8_t)kind_filter(l, where, o, "kind", true);
    break;
  case VL_M_GAIN:
    get_int(l, where, o, "n", -2, 2, 0, true, &n);
    break;
  case VL_M_NO_ACTIVATE:
  case VL_M_NO_MOVE:
  case VL_M_NO_HEROES:
  case VL_M_COUNT:
    if (json_object_get(o, "n"))
      eng_load_err(&l->e, "%s: %s takes no n", where, name);
    break;
  }
  if ((mod == VL_M_STRENGTH || mod == VL_M_COST || mod == VL_M_GAIN) && n == 0)
    eng_load_err(&l->e, "%s: %s needs n other than 0", where, name);
  m->n = (int8_t)n;
  if (!takes_who && json_object_get(o, "who"))
    eng_load_err(&l->e, "%s: %s takes no who", where, name);
  if (!takes_kind && json_object_get(o, "kind"))
    eng_load_err(&l->e, "%s: %s takes no kind", where, name);
}

static const char *const ability_keys[] = {"when",    "trigger", "n", "cost",
                                           "effects", "mods",    NULL};

/* Which abilities each kind of card may have. */
static bool when_allowed(int kind, int deck, int when) {
  switch ((vl_kind)kind) {
  case VL_K_ALLY:
  case VL_K_SPECIAL:
    return when != VL_W_CONDITION && when != VL_W_RESOLVED;
  case VL_K_ITEM:
    if (deck == VL_DECK_FATE)
      return when == VL_W_STATIC || when == VL_W_PLAYED;
    return when != VL_W_CONDITION && when != VL_W_RESOLVED;
  case VL_K_EFFECT:
    return when == VL_W_PLAYED;
  case VL_K_CONDITION:
    return when == VL_W_CONDITION;
  case VL_K_HERO:
    return when == VL_W_STATIC || when == VL_W_PLAYED;
  case VL_K_EVENT:
    return when == VL_W_STATIC || when == VL_W_RESOLVED;
  case VL_K_SPECIALTY:
    return when != VL_W_CONDITION && when != VL_W_RESOLVED &&
           when != VL_W_DISCARDED;
  case VL_K_COUNT:
    break;
  }
  return false;
}

static void parse_ability(loader *l, const char *where, const vl_villain *v,
                          const vl_card *c, const json_t *o, vl_ability *a) {
  memset(a, 0, sizeof *a);
  if (!json_is_object(o)) {
    eng_load_err(&l->e, "%s: an ability must be an object", where);
    return;
  }
  eng_load_keys(&l->e, where, o, ability_keys);
  const char *when = json_string_value(json_object_get(o, "when"));
  int w = eng_lookup(when_names, VL_W_COUNT, when);
  if (w < 0) {
    eng_load_err(&l->e, "%s: unknown 'when' '%s'", where,
                 when ? when : "(none)");
    return;
  }
  a->when = (uint8_t)w;
  if (!when_allowed(c->kind, c->deck, w))
    eng_load_err(&l->e, "%s: a %s %s cannot have a '%s' ability", where,
                 c->deck == VL_DECK_FATE ? "fate" : "villain",
                 kind_names[c->kind], when);
  if (w == VL_W_CONDITION) {
    const char *t = json_string_value(json_object_get(o, "trigger"));
    int trig = eng_lookup(trigger_names, VL_T_COUNT, t);
    if (trig < 0)
      eng_load_err(&l->e, "%s: unknown trigger '%s'", where, t ? t : "(none)");
    a->trigger = trig < 0 ? 0 : (uint8_t)trig;
    int tn = 0;
    bool thresh = trig == VL_T_OPP_ALLY || trig == VL_T_OPP_POWER ||
                  trig == VL_T_OPP_DISCARD;
    if (thresh)
      get_int(l, where, o, "n", trig == VL_T_OPP_ALLY ? 0 : 1,
              trig == VL_T_OPP_POWER ? 30 : 6, 0, trig != VL_T_OPP_ALLY, &tn);
    else if (json_object_get(o, "n"))
      eng_load_err(&l->e, "%s: trigger %s takes no n", where, t);
    a->tn = (int8_t)tn;
  } else {
    if (json_object_get(o, "trigger"))
      eng_load_err(&l->e, "%s: only a condition has a trigger", where);
    if (json_object_get(o, "n"))
      eng_load_err(&l->e, "%s: 'n' belongs in an effect or a trigger", where);
  }
  int cost = 0;
  if (w == VL_W_ACTIVATE)
    get_int(l, where, o, "cost", 0, 3, 0, true, &cost);
  else if (json_object_get(o, "cost"))
    eng_load_err(&l->e, "%s: only an activate ability has a cost", where);
  a->cost = (uint8_t)cost;
  json_t *effects = json_object_get(o, "effects");
  json_t *mods = json_object_get(o, "mods");
  if (w == VL_W_STATIC) {
    if (effects)
      eng_load_err(&l->e, "%s: a static ability has mods, not effects", where);
    if (!json_is_array(mods) || json_array_size(mods) < 1 ||
        json_array_size(mods) > VL_MAX_EFFECTS) {
      eng_load_err(&l->e, "%s: a static ability needs 1 to %d mods", where,
                   VL_MAX_EFFECTS);
      return;
    }
    size_t k;
    json_t *m;
    json_array_foreach(mods, k, m) parse_mod(l, where, m, &a->mod[a->n_mod++]);
    return;
  }
  if (mods)
    eng_load_err(&l->e, "%s: only a static ability has mods", where);
  if (!json_is_array(effects) || json_array_size(effects) < 1 ||
      json_array_size(effects) > VL_MAX_EFFECTS) {
    eng_load_err(&l->e, "%s: the ability needs 1 to %d effects", where,
                 VL_MAX_EFFECTS);
    return;
  }
  size_t k;
  json_t *e;
  json_array_foreach(effects, k, e) {
    parse_effect(l, where, v, e, w == VL_W_CONDITION, &a->eff[a->n_eff]);
    a->n_eff++;
  }
}

static const char *const card_keys[] = {
    "id",       "name",      "kind",   "count",     "cost",
    "strength", "text",      "attach", "kind_name", "abilities",
    "ai",       "protector", "invade", NULL};

/* Reads the boolean member key of o (false when absent). */
static bool get_flag(loader *l, const char *where, const json_t *o,
                     const char *key) {
  json_t *v = json_object_get(o, key);
  if (v && !json_is_boolean(v))
    eng_load_err(&l->e, "%s: '%s' must be true or false", where, key);
  return json_is_true(v);
}

/* First pass over a card: what its abilities' references need (id, name,
 * kind, deck). The abilities come in the second pass. */
static void parse_card_head(loader *l, const json_t *o, int deck, vl_card *c) {
  memset(c, 0, sizeof *c);
  c->deck = (uint8_t)deck;
  if (!json_is_object(o)) {
    eng_load_err(&l->e, "a card must be an object");
    return;
  }
  eng_load_keys(&l->e, "a card", o, card_keys);
  eng_load_str(&l->e, "a card", o, "id", c->id, sizeof c->id, true);
  char where[64];
  snprintf(where, sizeof where, "card '%s'", c->id);
  if (c->id[0] && !id_ok(c->id))
    eng_load_err(&l->e, "%s: an id is lower case letters, digits and '_'",
                 where);
  eng_load_str(&l->e, where, o, "name", c->name, sizeof c->name, true);
  eng_load_str(&l->e, where, o, "text", c->text, sizeof c->text, true);
  const char *kind = json_string_value(json_object_get(o, "kind"));
  int k = eng_lookup(kind_names, VL_K_COUNT, kind);
  if (k < 0)
    eng_load_err(&l->e, "%s: unknown kind '%s'", where, kind ? kind : "(none)");
  c->kind = k < 0 ? VL_K_EFFECT : (uint8_t)k;
  bool villain = deck == VL_DECK_VILLAIN;
  if (k >= 0 && villain && (k == VL_K_HERO || k == VL_K_EVENT))
    eng_load_err(&l->e, "%s: %ss belong in the fate deck", where,
                 kind_names[k]);
  if (k >= 0 && !villain && k != VL_K_HERO && k != VL_K_ITEM &&
      k != VL_K_EFFECT && !(l->marvel && k == VL_K_EVENT))
    eng_load_err(&l->e,
                 "%s: a fate deck holds Heroes, Items and Effects only%s",
                 where, l->marvel ? " (and an Event)" : "");
  if (k >= 0 && l->marvel && k == VL_K_CONDITION)
    eng_load_err(&l->e, "%s: the Marvel rules have no Conditions", where);
  if (k >= 0 && !l->marvel && (k == VL_K_EVENT || k == VL_K_SPECIALTY))
    eng_load_err(&l->e, "%s: %s cards belong to the Marvel rules", where,
                 kind_names[k]);
  c->protector = get_flag(l, where, o, "protector");
  c->invade = get_flag(l, where, o, "invade");
  if (c->protector && (k != VL_K_HERO || !l->marvel))
    eng_load_err(&l->e, "%s: only a Marvel Hero can be a protector", where);
  if (c->invade && (k != VL_K_ALLY || !l->marvel))
    eng_load_err(&l->e, "%s: only a Marvel Ally can invade", where);
  int count = 1, cost = 0, strength = 0;
  get_int(l, where, o, "count", 1, 3, 1, true, &count);
  c->count = (uint8_t)count;
  int ai = 3;
  get_int(l, where, o, "ai", 1, 5, 3, false, &ai);
  c->ai = (uint8_t)ai;
  if (villain && c->kind != VL_K_CONDITION)
    get_int(l, where, o, "cost", 0,
            !l->marvel               ? 4
            : c->kind == VL_K_ALLY   ? 6
            : c->kind == VL_K_EFFECT ? 3
                                     : 4,
            0, true, &cost);
  else if (json_object_get(o, "cost") &&
           json_integer_value(json_object_get(o, "cost")) != 0)
    eng_load_err(&l->e, "%s: %s cost nothing", where,
                 villain ? "Conditions" : "fate cards");
  c->cost = (uint8_t)cost;
  if (c->kind == VL_K_ALLY)
    get_int(l, where, o, "strength", 1, l->marvel ? 6 : 4, 1, true, &strength);
  else if (c->kind == VL_K_HERO)
    get_int(l, where, o, "strength", l->marvel ? 1 : 2, l->marvel ? 8 : 6, 2,
            true, &strength);
  else if (c->kind == VL_K_EVENT)
    get_int(l, where, o, "strength", 5, 10, 5, true, &strength);
  else if (json_object_get(o, "strength"))
    eng_load_err(&l->e, "%s: only Allies and Heroes have a Strength", where);
  c->strength = (int8_t)strength;
  const char *attach = json_string_value(json_object_get(o, "attach"));
  if (attach) {
    if (c->kind != VL_K_ITEM || !villain || strcmp(attach, "ally") != 0)
      eng_load_err(&l->e, "%s: only a villain Item takes \"attach\": \"ally\"",
                   where);
    else
      c->attach = VL_AT_ALLY;
  }
  if (c->kind == VL_K_ITEM && !villain)
    c->attach = VL_AT_HERO;
  if (c->kind == VL_K_SPECIAL) {
    eng_load_str(&l->e, where, o, "kind_name", c->kind_name,
                 sizeof c->kind_name, true);
  } else {
    if (json_object_get(o, "kind_name"))
      eng_load_err(&l->e, "%s: only a special card has a kind_name", where);
    static const char *const pretty[] = {"Ally",      "Item",     "Effect",
                                         "Condition", "Special",  "Hero",
                                         "Event",     "Specialty"};
    snprintf(c->kind_name, sizeof c->kind_name, "%s", pretty[c->kind]);
  }
}

/* Whether word (lower case) occurs in text as a whole word, any case. */
static bool has_word(const char *text, const char *word) {
  size_t n = strlen(word);
  for (const char *p = text; *p; p++) {
    if (p != text && ((p[-1] | 32) >= 'a' && (p[-1] | 32) <= 'z'))
      continue;
    size_t k = 0;
    while (k < n && p[k] && (p[k] | 32) == word[k])
      k++;
    if (k == n && !((p[n] | 32) >= 'a' && (p[n] | 32) <= 'z'))
      return true;
  }
  return false;
}

static void parse_card_body(loader *l, const json_t *o, const vl_villain *v,
                            vl_card *c) {
  char where[64];
  snprintf(where, sizeof where, "card '%s'", c->id);
  json_t *abs = json_object_get(o, "abilities");
  if (abs && (!json_is_array(abs) || json_array_size(abs) > VL_MAX_ABILITIES)) {
    eng_load_err(&l->e, "%s: 'abilities' must be a list of at most %d", where,
                 VL_MAX_ABILITIES);
    return;
  }
  size_t k;
  json_t *a;
  json_array_foreach(abs, k, a)
      parse_ability(l, where, v, c, a, &c->ab[c->n_ab++]);
  int played = 0, conds = 0;
  bool optional = false;
  for (int i = 0; i < c->n_ab; i++) {
    played += c->ab[i].when == VL_W_PLAYED;
    conds += c->ab[i].when == VL_W_CONDITION;
    for (int e = 0; e < c->ab[i].n_eff; e++)
      optional |= c->ab[i].eff[e].may;
  }
  if (c->kind == VL_K_EFFECT && (c->n_ab != 1 || played != 1))
    eng_load_err(&l->e, "%s: an Effect has exactly one 'played' ability",
                 where);
  if (c->kind == VL_K_CONDITION && (c->n_ab != 1 || conds != 1))
    eng_load_err(&l->e, "%s: a Condition has exactly one 'condition' ability",
                 where);
  bool says = has_word(c->text, "may") || strstr(c->text, "up to");
  if (optional && !says)
    eng_load_err(&l->e,
                 "%s: an optional effect, but the text says neither 'may' nor "
                 "'up to'",
                 where);
  if (!optional && says && c->kind != VL_K_CONDITION)
    eng_load_err(
        &l->e, "%s: the text says 'may' or 'up to', but no effect is optional",
        where);
  if (c->kind == VL_K_EVENT) {
    int resolved = 0;
    for (int i = 0; i < c->n_ab; i++) {
      resolved += c->ab[i].when == VL_W_RESOLVED;
      for (int m = 0; m < c->ab[i].n_mod; m++) {
        const vl_mod *x = &c->ab[i].mod[m];
        bool ok = x->mod == VL_M_COST || x->mod == VL_M_GAIN ||
                  (x->mod == VL_M_STRENGTH &&
                   (x->who == VL_WHO_ALLIES || x->who == VL_WHO_HEROES));
        if (!ok)
          eng_load_err(
              &l->e,
              "%s: an Event's penalty is a cost, gain or strength (allies or "
              "heroes) modifier",
              where);
      }
    }
    if (resolved != 1)
      eng_load_err(&l->e, "%s: an Event has exactly one 'resolved' ability",
                   where);
  }
}

static const char *const location_keys[] = {"name", "top", "bottom", "locked",
                                            NULL};

static void parse_actions(loader *l, const char *where, const json_t *a, int lo,
                          int hi, vl_location *loc) {
  if (!json_is_array(a) || (int)json_array_size(a) < lo ||
      (int)json_array_size(a) > hi) {
    eng_load_err(&l->e, "%s: needs %d to %d actions", where, lo, hi);
    return;
  }
  size_t k;
  json_t *x;
  json_array_foreach(a, k, x) {
    int act = eng_lookup(action_names, VL_A_COUNT, json_string_value(x));
    if (act < 0)
      eng_load_err(&l->e, "%s: unknown action '%s'", where,
                   json_string_value(x) ? json_string_value(x)
                                        : "(not a string)");
    else if (loc->n < VL_MAX_ACTIONS)
      loc->a[loc->n++].kind = (uint8_t)act;
  }
}

static void parse_locations(loader *l, const json_t *a, vl_villain *v) {
  if (!json_is_array(a) || json_array_size(a) != VL_LOCS) {
    eng_load_err(&l->e, "'locations' must list exactly %d locations", VL_LOCS);
    return;
  }
  int gain3 = 0, fates = 0, fate_locs = 0, double_play = 0;
  int have[VL_A_COUNT] = {0};
  for (int i = 0; i < VL_LOCS; i++) {
    json_t *o = json_array_get(a, (size_t)i);
    vl_location *loc = &v->loc[i];
    char where[48];
    snprintf(where, sizeof where, "location %d", i + 1);
    if (!json_is_object(o)) {
      eng_load_err(&l->e, "%s must be an object", where);
      continue;
    }
    eng_load_keys(&l->e, where, o, location_keys);
    eng_load_str(&l->e, where, o, "name", loc->name, sizeof loc->name, true);
    parse_actions(l, where, json_object_get(o, "top"), 1, 2, loc);
    loc->n_top = loc->n;
    parse_actions(l, where, json_object_get(o, "bottom"), 1, 3, loc);
    if (loc->n < 3 || loc->n > 5)
      eng_load_err(&l->e, "%s: has %d actions, not 3 to 5", where, loc->n);
    json_t *locked = json_object_get(o, "locked");
    if (locked && !json_is_boolean(locked))
      eng_load_err(&l->e, "%s: 'locked' must be true or false", where);
    if (locked && l->marvel)
      eng_load_err(&l->e, "%s: the Marvel rules have no lock tokens", where);
    loc->locked = json_is_true(locked);
    if (loc->locked && i != VL_LOCS - 1)
      eng_load_err(&l->e, "%s: only the last location may start locked", where);
    int plays = 0, here_fate = 0;
    for (int k = 0; k < loc->n; k++) {
      have[loc->a[k].kind]++;
      gain3 += loc->a[k].kind == VL_A_GAIN_3;
      plays += loc->a[k].kind == VL_A_PLAY;
      here_fate += loc->a[k].kind == VL_A_FATE;
    }
    fates += here_fate;
    fate_locs += here_fate > 0;
    double_play += plays >= 2;
  }
  if (gain3 != 1)
    eng_load_err(&l->e, "the realm has %d gain_3 actions, not exactly 1",
                 gain3);
  if (fates != 2 || fate_locs != 2)
    eng_load_err(
        &l->e,
        "the realm needs exactly two fate actions at different locations");
  if (!double_play)
    eng_load_err(&l->e, "no location has two play actions");
  /* Heroes cover only tops: a Gain action in a bottom part of a location
   * that starts open keeps a realm from being cut off from Power, which
   * would leave its villain nothing to do for the rest of the game. */
  bool bottom_gain = false;
  for (int i = 0; i < VL_LOCS; i++)
    for (int k = v->loc[i].n_top; k < v->loc[i].n && !v->loc[i].locked; k++)
      bottom_gain |= v->loc[i].a[k].kind <= VL_A_GAIN_3;
  if (!bottom_gain)
    eng_load_err(&l->e,
                 "no open location has a Gain action in its bottom part");
  static const int needed[] = {VL_A_VANQUISH, VL_A_MOVE_ALLY, VL_A_DISCARD,
                               VL_A_MOVE_HERO};
  /* The Marvel rulebook has no Move a Hero action. */
  size_t n_needed = sizeof needed / sizeof needed[0] - (l->marvel ? 1 : 0);
  for (size_t k = 0; k < n_needed; k++)
    if (!have[needed[k]])
      eng_load_err(&l->e, "the realm has no %s action",
                   action_names[needed[k]]);
  if (l->marvel && have[VL_A_MOVE_HERO])
    eng_load_err(&l->e, "the Marvel rules have no move_hero action");
}

static const char *const objective_keys[] = {
    "kind", "text",  "hero", "location", "n", "special",
    "card", "cards", "what", "when",     NULL};

static void parse_objective(loader *l, const json_t *o, vl_villain *v) {
  vl_objective *ob = &v->obj;
  memset(ob, 0, sizeof *ob);
  ob->hero = ob->card = ob->loc = -1;
  if (!json_is_object(o)) {
    eng_load_err(&l->e, "'objective' must be an object");
    return;
  }
  eng_load_keys(&l->e, "objective", o, objective_keys);
  eng_load_str(&l->e, "objective", o, "text", ob->text, sizeof ob->text, true);
  const char *kind = json_string_value(json_object_get(o, "kind"));
  int k = eng_lookup(objective_names, VL_O_COUNT, kind);
  if (k < 0) {
    eng_load_err(&l->e, "objective: unknown kind '%s'", kind ? kind : "(none)");
    return;
  }
  ob->kind = (uint8_t)k;
  const char *when = json_string_value(json_object_get(o, "when"));
  if (when && strcmp(when, "now") != 0 && strcmp(when, "turn_start") != 0)
    eng_load_err(&l->e, "objective: 'when' must be now or turn_start");
  ob->at_start = when && strcmp(when, "turn_start") == 0;
  int x = 0;
  switch ((vl_objective_kind)k) {
  case VL_O_DEFEAT_HERO_AT:
    ob->hero = (int8_t)card_ref(l, "objective", v, o, "hero", true);
    if (ob->hero >= 0 && v->defs[ob->hero].kind != VL_K_HERO)
      eng_load_err(
          &l->e,
          "objective: 'hero' must be a Hero of this villain's fate deck");
    get_int(l, "objective", o, "location", 0, VL_LOCS - 1, 0, true, &x);
    ob->loc = (int8_t)x;
    break;
  case VL_O_START_POWER:
    get_int(l, "objective", o, "n", 5, 40, 20, true, &x);
    ob->n = (int16_t)x;
    ob->at_start = 1;
    break;
  case VL_O_CARD_EVERYWHERE: {
    ob->at_start = 1;
    char special[20];
    ob->card = (int8_t)card_ref(l, "objective", v, o, "card", false);
    if (eng_load_str(&l->e, "objective", o, "special", special, sizeof special,
                     false)) {
      bool found = false;
      for (int i = 0; i < v->n_defs; i++)
        found |= v->defs[i].kind == VL_K_SPECIAL &&
                 strcmp(v->defs[i].kind_name, special) == 0;
      if (!found)
        eng_load_err(&l->e, "objective: no special card of kind '%s'", special);
      ob->kind_of = VL_K_SPECIAL;
    } else if (ob->card < 0) {
      eng_load_err(&l->e,
                   "objective: card_everywhere needs 'special' or 'card'");
    } else {
      ob->kind_of = v->defs[ob->card].kind;
    }
    break;
  }
  case VL_O_ITEMS_TOGETHER: {
    json_t *cards = json_object_get(o, "cards");
    if (!json_is_array(cards) || json_array_size(cards) < 2 ||
        json_array_size(cards) > VL_MAX_ITEMS) {
      eng_load_err(&l->e, "objective: 'cards' must list 2 to %d Items",
                   VL_MAX_ITEMS);
      break;
    }
    size_t i;
    json_t *c;
    json_array_foreach(cards, i, c) {
      int d = json_is_string(c) ? def_index(v, json_string_value(c)) : -1;
      if (d < 0 || v->defs[d].kind != VL_K_ITEM ||
          v->defs[d].deck != VL_DECK_VILLAIN)
        eng_load_err(&l->e, "objective: '%s' is no Item of this villain's deck",
                     json_is_string(c) ? json_string_value(c)
                                       : "(not a string)");
      ob->items[ob->n_items++] = (int8_t)d;
    }
    get_int(l, "objective", o, "location", -1, VL_LOCS - 1, -1, false, &x);
    ob->loc = (int8_t)x;
    break;
  }
  case VL_O_REACH: {
    const char *what = json_string_value(json_object_get(o, "what"));
    int c = eng_lookup(count_names, VL_C_COUNT, what);
    if (c < 0)
      eng_load_err(&l->e,
                   "objective: count needs 'what' (track, defeated or allies)");
    ob->count = c < 0 ? 0 : (uint8_t)c;
    get_int(l, "objective", o, "n", 1, 30, 1, true, &x);
    ob->n = (int16_t)x;
    if (c == VL_C_TRACK && (!v->track_name[0] || x > v->track_max))
      eng_load_err(
          &l->e,
          "objective: counts a track this villain lacks or past its max");
    if (c == VL_C_STONES && (!v->collector || x > VL_STONES))
      eng_load_err(&l->e,
                   "objective: only the collector counts Stones (at most %d)",
                   VL_STONES);
    break;
  }
  case VL_O_COUNT:
    break;
  }
}

static const char *const villain_keys[] = {
    "id",        "name", "colour", "guide",     "track", "objective",
    "locations", "deck", "fate",   "collector", NULL};

/* The JSON object of a data file's text (new reference), or NULL with
 * the error told through l. */
static json_t *parse_object(loader *l, const char *text) {
  json_error_t je;
  json_t *root = json_loads(text, JSON_REJECT_DUPLICATES, &je);
  if (json_is_object(root))
    return root;
  eng_load_err(&l->e, "not a JSON object (line %d: %s)", je.line, je.text);
  json_decref(root);
  return NULL;
}

/* Parses one villain file into *v; errors through l. */
static void parse_villain(loader *l, const char *text, vl_villain *v) {
  memset(v, 0, sizeof *v);
  json_t *root = parse_object(l, text);
  if (!root)
    return;
  eng_load_keys(&l->e, "the villain", root, villain_keys);
  eng_load_str(&l->e, "the villain", root, "id", v->id, sizeof v->id, true);
  if (v->id[0] && !id_ok(v->id))
    eng_load_err(&l->e,
                 "the villain's id is lower case letters, digits and '_'");
  eng_load_str(&l->e, "the villain", root, "name", v->name, sizeof v->name,
               true);
  eng_load_str(&l->e, "the villain", root, "guide", v->guide, sizeof v->guide,
               true);
  char colour[16];
  v->colour = 0x4b0082;
  if (eng_load_str(&l->e, "the villain", root, "colour", colour, sizeof colour,
                   false)) {
    char *end = NULL;
    unsigned long c = colour[0] == '#' ? strtoul(colour + 1, &end, 16) : 0;
    if (colour[0] != '#' || strlen(colour) != 7 || !end || *end)
      eng_load_err(&l->e, "'colour' must be #rrggbb");
    else
      v->colour = (uint32_t)c;
  }
  json_t *track = json_object_get(root, "track");
  if (track) {
    int max = 0;
    eng_load_str(&l->e, "track", track, "name", v->track_name,
                 sizeof v->track_name, true);
    get_int(l, "track", track, "max", 1, 30, 10, true, &max);
    v->track_max = (uint8_t)max;
    static const char *const track_keys[] = {"name", "max", NULL};
    eng_load_keys(&l->e, "track", track, track_keys);
  }
  v->collector = get_flag(l, "the villain", root, "collector");
  if (v->collector && !l->marvel)
    eng_load_err(&l->e, "the villain: only the Marvel rules have a collector");
  parse_locations(l, json_object_get(root, "locations"), v);
  /* Cards: every head first (ids for references), then the bodies. */
  json_t *decks[2] = {json_object_get(root, "deck"),
                      json_object_get(root, "fate")};
  static const char *const deck_key[2] = {"deck", "fate"};
  int first[2] = {0, 0};
  for (int d = 0; d < 2; d++) {
    first[d] = v->n_defs;
    if (!json_is_array(decks[d])) {
      eng_load_err(&l->e, "'%s' must be a list of cards", deck_key[d]);
      continue;
    }
    size_t k;
    json_t *c;
    json_array_foreach(decks[d], k, c) {
      if (v->n_defs >= VL_MAX_DEFS) {
        eng_load_err(&l->e, "more than %d different cards", VL_MAX_DEFS);
        break;
      }
      parse_card_head(l, c, d, &v->defs[v->n_defs]);
      for (int i = 0; i < v->n_defs; i++)
        if (v->defs[v->n_defs].id[0] &&
            strcmp(v->defs[i].id, v->defs[v->n_defs].id) == 0)
          eng_load_err(&l->e, "card id '%s' twice", v->defs[i].id);
      v->n_defs++;
    }
  }
  parse_objective(l, json_object_get(root, "objective"), v);
  for (int d = 0; d < 2; d++) {
    size_t k;
    json_t *c;
    json_array_foreach(decks[d], k, c) {
      int i = first[d] + (int)k;
      if (i < v->n_defs)
        parse_card_body(l, c, v, &v->defs[i]);
    }
  }
  json_decref(root);

  /* The decks as the rulebook's calibration wants them. */
  int n_v = 0, n_f = 0, allies = 0, conds = 0, cond_defs = 0, heroes = 0;
  int events = 0, specialties = 0;
  bool activates = false, unlocks = false, locked = v->loc[VL_LOCS - 1].locked;
  char special[20] = "";
  for (int i = 0; i < v->n_defs; i++) {
    const vl_card *c = &v->defs[i];
    int *n = c->deck == VL_DECK_VILLAIN ? &n_v : &n_f;
    for (int k = 0; k < c->count; k++) {
      if (c->deck == VL_DECK_VILLAIN && n_v < VL_VDECK)
        v->vinst[n_v] = (uint8_t)i;
      if (c->deck == VL_DECK_FATE && n_f < VL_FDECK_MAX)
        v->finst[n_f] = (uint8_t)i;
      (*n)++;
    }
    allies += c->kind == VL_K_ALLY ? c->count : 0;
    heroes += c->kind == VL_K_HERO ? c->count : 0;
    events += c->kind == VL_K_EVENT ? c->count : 0;
    specialties += c->kind == VL_K_SPECIALTY ? c->count : 0;
    if (c->kind == VL_K_CONDITION) {
      conds += c->count;
      cond_defs++;
      if (c->count != 2)
        eng_load_err(&l->e, "card '%s': a Condition comes in two copies",
                     c->id);
      if (c->n_ab == 1 && v->n_cond < 4) {
        v->cond[v->n_cond].trigger = c->ab[0].trigger;
        v->cond[v->n_cond++].tn = c->ab[0].tn;
      }
    }
    if (c->kind == VL_K_SPECIAL) {
      if (special[0] && strcmp(special, c->kind_name) != 0)
        eng_load_err(&l->e,
                     "card '%s': a villain has one special kind ('%s' already)",
                     c->id, special);
      snprintf(special, sizeof special, "%s", c->kind_name);
    }
    for (int a = 0; a < c->n_ab; a++) {
      activates |= c->ab[a].when == VL_W_ACTIVATE;
      for (int e = 0; e < c->ab[a].n_eff; e++) {
        unlocks |= c->ab[a].eff[e].op == VL_OP_UNLOCK;
        /* A fate card's effects are the target's; it never unlocks. */
        if (c->deck == VL_DECK_FATE && (c->ab[a].eff[e].op == VL_OP_UNLOCK ||
                                        c->ab[a].eff[e].scope == VL_SC_ACTIVE))
          eng_load_err(&l->e, "card '%s': a fate card cannot %s", c->id,
                       op_names[c->ab[a].eff[e].op]);
      }
    }
  }
  if (n_v != VL_VDECK)
    eng_load_err(&l->e, "the villain deck has %d cards, not %d", n_v, VL_VDECK);
  int fate_size = l->marvel ? 11 : 15;
  if (n_f != fate_size)
    eng_load_err(&l->e, "the fate %s has %d cards, not %d",
                 l->marvel ? "part" : "deck", n_f, fate_size);
  v->n_fate = (uint8_t)(n_f > VL_FDECK_MAX ? VL_FDECK_MAX : n_f);
  if (allies < 8 || allies > 12)
    eng_load_err(&l->e, "the villain deck has %d Allies, not 8 to 12", allies);
  if (l->marvel) {
    if (heroes < 4 || heroes > 8)
      eng_load_err(&l->e, "the fate part has %d Heroes, not 4 to 8", heroes);
    if (events != 1)
      eng_load_err(&l->e, "the fate part has %d Events, not exactly 1", events);
    if (specialties > 4)
      eng_load_err(&l->e, "the villain deck has %d Specialties, not at most 4",
                   specialties);
  } else {
    if (conds != 4 || cond_defs != 2)
      eng_load_err(
          &l->e, "the villain deck needs two different Conditions, two copies "
                 "each");
    if (heroes < 8 || heroes > 10)
      eng_load_err(&l->e, "the fate deck has %d Heroes, not 8 to 10", heroes);
  }
  if (locked && !unlocks)
    eng_load_err(&l->e, "a location starts locked, but no card unlocks it");
  if (activates) {
    bool symbol = false;
    for (int i = 0; i < VL_LOCS; i++)
      for (int k = 0; k < v->loc[i].n; k++)
        symbol |= v->loc[i].a[k].kind == VL_A_ACTIVATE;
    if (!symbol)
      eng_load_err(
          &l->e,
          "cards can be activated, but the realm has no activate action");
  }
}

static const char *const common_keys[] = {"fate", "stones", NULL};
static const char *const stone_keys[] = {"id",        "name", "text",
                                         "abilities", "ai",   NULL};

/* Parses the common part of a shared fate deck (Marvel's common.json):
 * 11 Heroes and 4 Global Events, and the six Stones. */
static void parse_common(loader *l, const char *text, vl_data *d) {
  vl_villain *v = &d->common;
  memset(v, 0, sizeof *v);
  snprintf(v->id, sizeof v->id, "common");
  snprintf(v->name, sizeof v->name, "the common fate part");
  json_t *root = parse_object(l, text);
  if (!root)
    return;
  eng_load_keys(&l->e, "the common part", root, common_keys);
  json_t *fate = json_object_get(root, "fate"),
         *stones = json_object_get(root, "stones");
  if (!json_is_array(fate) || !json_is_array(stones)) {
    eng_load_err(&l->e, "'fate' and 'stones' must be lists of cards");
    json_decref(root);
    return;
  }
  size_t k;
  json_t *c;
  json_array_foreach(fate, k, c) {
    if (v->n_defs < VL_MAX_DEFS)
      parse_card_head(l, c, VL_DECK_FATE, &v->defs[v->n_defs++]);
  }
  int first_stone = v->n_defs;
  json_array_foreach(stones, k, c) {
    if (v->n_defs >= VL_MAX_DEFS)
      break;
    vl_card *x = &v->defs[v->n_defs++];
    memset(x, 0, sizeof *x);
    char where[64] = "a Stone";
    if (!json_is_object(c)) {
      eng_load_err(&l->e, "a Stone must be an object");
      continue;
    }
    eng_load_keys(&l->e, where, c, stone_keys);
    eng_load_str(&l->e, where, c, "id", x->id, sizeof x->id, true);
    snprintf(where, sizeof where, "Stone '%s'", x->id);
    eng_load_str(&l->e, where, c, "name", x->name, sizeof x->name, true);
    eng_load_str(&l->e, where, c, "text", x->text, sizeof x->text, true);
    int ai = 3;
    get_int(l, where, c, "ai", 1, 5, 3, false, &ai);
    x->ai = (uint8_t)ai;
    x->kind = VL_K_ITEM;
    x->deck = VL_DECK_VILLAIN; /* an Item of whoever holds it */
    x->count = 1;
    snprintf(x->kind_name, sizeof x->kind_name, "Stone");
  }
  for (int i = 0; i < v->n_defs; i++)
    for (int j = 0; j < i; j++)
      if (strcmp(v->defs[i].id, v->defs[j].id) == 0)
        eng_load_err(&l->e, "card id '%s' twice", v->defs[i].id);
  int n_fate = 0, heroes = 0, events = 0;
  json_array_foreach(fate, k, c) {
    vl_card *x = &v->defs[k];
    parse_card_body(l, c, v, x);
    heroes += x->kind == VL_K_HERO ? x->count : 0;
    events += x->kind == VL_K_EVENT ? x->count : 0;
    for (int j = 0; j < x->count; j++)
      if (n_fate < VL_COMMON)
        d->cinst[n_fate++] = (uint8_t)k;
  }
  if (heroes != 11 || events != 4 || n_fate != 15)
    eng_load_err(
        &l->e,
        "the common part has %d cards (%d Heroes, %d Events), not 15 (11 "
        "Heroes and 4 Events)",
        n_fate, heroes, events);
  d->n_common_fate = (uint8_t)n_fate;
  int n_stones = 0;
  json_array_foreach(stones, k, c) {
    int i = first_stone + (int)k;
    if (i >= v->n_defs)
      break;
    vl_card *x = &v->defs[i];
    parse_card_body(l, c, v, x);
    int activates = 0;
    for (int a = 0; a < x->n_ab; a++)
      activates += x->ab[a].when == VL_W_ACTIVATE;
    if (x->n_ab != 1 || activates != 1)
      eng_load_err(&l->e,
                   "Stone '%s': a Stone has exactly one 'activate' ability",
                   x->id);
    if (n_fate + n_stones < VL_COMMON)
      d->cinst[n_fate + n_stones++] = (uint8_t)i;
  }
  if (n_stones != VL_STONES)
    eng_load_err(&l->e, "%d Stones, not %d", n_stones, VL_STONES);
  d->n_common = (uint8_t)(n_fate + n_stones);
  json_decref(root);
}

/* Whether a data file is a shared fate deck's common part. */
static bool is_common_file(const char *name) {
  size_t n = strlen(name);
  return n >= 11 && strcmp(name + n - 11, "common.json") == 0;
}

int vl_data_parse(int profile, const char *const *texts,
                  const char *const *names, int n, vl_data *out,
                  void (*report)(void *ctx, const char *msg), void *ctx) {
  loader l = {.e = {.report = report, .ctx = ctx, .game = "villainous"},
              .marvel = profile == VL_PROFILE_MARVEL};
  memset(out, 0, sizeof *out);
  int villains = 0, commons = 0;
  for (int i = 0; i < n; i++)
    commons += is_common_file(names[i]);
  if (commons != (l.marvel ? 1 : 0)) {
    eng_load_err(&l.e, "%d common.json files; the %s rules need %d", commons,
                 l.marvel ? "Marvel" : "Disney", l.marvel ? 1 : 0);
    return l.e.errors;
  }
  if (n - commons < 2 || n - commons > VL_MAX_VILLAINS) {
    eng_load_err(&l.e, "%d villains; the game needs 2 to %d", n - commons,
                 VL_MAX_VILLAINS);
    return l.e.errors;
  }
  for (int i = 0; i < n; i++) {
    l.e.file = names[i];
    if (is_common_file(names[i]))
      parse_common(&l, texts[i], out);
    else
      parse_villain(&l, texts[i], &out->v[villains++]);
  }
  l.e.file = NULL;
  n = villains;
  out->n = n;
  int collectors = 0;
  for (int a = 0; a < n; a++)
    collectors += out->v[a].collector;
  if (collectors > 1)
    eng_load_err(&l.e, "%d villains collect the Stones; at most one may",
                 collectors);
  /* Sorted by id: a villain's index is stable whatever the file order. */
  for (int i = 1; i < n; i++)
    for (int k = i; k > 0 && strcmp(out->v[k - 1].id, out->v[k].id) > 0; k--) {
      vl_villain tmp = out->v[k];
      out->v[k] = out->v[k - 1];
      out->v[k - 1] = tmp;
    }
  /* Ids and names are unique in the whole game: /game card finds a card
   * by either. */
  for (int a = 0; a < n; a++) {
    if (a > 0 && strcmp(out->v[a].id, out->v[a - 1].id) == 0)
      eng_load_err(&l.e, "two villains have the id '%s'", out->v[a].id);
    for (int i = 0; i < out->v[a].n_defs; i++)
      for (int b = a; b < n; b++)
        for (int k = b == a ? i + 1 : 0; k < out->v[b].n_defs; k++) {
          const vl_card *x = &out->v[a].defs[i], *y = &out->v[b].defs[k];
          /* (an id twice in one file was reported with that file) */
          if (b != a && strcmp(x->id, y->id) == 0)
            eng_load_err(&l.e, "card id '%s' in %s and %s", x->id, out->v[a].id,
                         out->v[b].id);
          if (strcmp(x->name, y->name) == 0)
            eng_load_err(&l.e, "card name '%s' in %s and %s", x->name,
                         out->v[a].id, out->v[b].id);
        }
  }
  for (int a = 0; a < n; a++)
    for (int i = 0; i < out->v[a].n_defs; i++)
      for (int k = 0; k < out->common.n_defs; k++) {
        const vl_card *x = &out->v[a].defs[i], *y = &out->common.defs[k];
        if (strcmp(x->id, y->id) == 0 || strcmp(x->name, y->name) == 0)
          eng_load_err(&l.e, "card '%s' (%s) in %s and in common.json", x->id,
                       x->name, out->v[a].id);
      }
  return l.e.errors;
}

/* ---- the built-in data -------------------------------------------------- */

vl_data vl_loaded[VL_PROFILE_COUNT];
static int load_errors[VL_PROFILE_COUNT] = {-1, -1};
static once_flag load_once = ONCE_FLAG_INIT;

static void to_stderr(void *ctx, const char *msg) {
  (void)ctx;
  fprintf(stderr, "lair: villainous data: %s\n", msg);
}

/* Loads every profile's villains (blobs "DIR/NAME.json" of the
 * profile's data_dir). */
static void load(void) {
  static vl_data parsed;
  for (int pr = 0; pr < VL_PROFILE_COUNT; pr++) {
    const char *texts[VL_MAX_VILLAINS + 2], *names[VL_MAX_VILLAINS + 2];
    const char *dir = vl_profiles[pr].data_dir;
    size_t len = strlen(dir);
    int n = 0;
    for (size_t i = 0; i < eng_n_blobs; i++)
      if (strncmp(eng_blobs[i].name, dir, len) == 0 &&
          eng_blobs[i].name[len] == '/') {
        if (n >= VL_MAX_VILLAINS + 2) {
          n++;
          continue;
        }
        texts[n] = eng_blobs[i].text;
        names[n] = eng_blobs[i].name;
        n++;
      }
    if (n > VL_MAX_VILLAINS + 2)
      n = VL_MAX_VILLAINS + 2; /* the parser reports too many */
    load_errors[pr] =
        vl_data_parse(pr, texts, names, n, &parsed, to_stderr, NULL);
    if (load_errors[pr] == 0)
      vl_loaded[pr] = parsed;
  }
}

const vl_data *vl_data_get(int profile) {
  call_once(&load_once, load);
  return profile >= 0 && profile < VL_PROFILE_COUNT && load_errors[profile] == 0
             ? &vl_loaded[profile]
             : NULL;
}

/* ---- the card list --------------------------------------------------------
 */

static const char *const action_labels[] = {
    "Gain 1 Power", "Gain 2 Power",         "Gain 3 Power", "Play a Card",
    "Activate",     "Move an Item or Ally", "Move a Hero",  "Vanquish",
    "Fate",         "Discard Cards"};

const char *vl_action_label(int action) {
  return NAME_OF(action_labels, VL_A_COUNT, action);
}

/* "Ally, cost 2, Strength 3" and the like. */
void vl_card_summary(const vl_card *c, char *buf, size_t cap) {
  size_t o = (size_t)snprintf(buf, cap, "%s", c->kind_name);
  if (c->deck == VL_DECK_FATE) {
    if (c->kind == VL_K_HERO)
      snprintf(buf + o, cap - o, ", Strength %d%s", c->strength,
               c->protector ? ", Protector" : "");
    else if (c->kind == VL_K_EVENT && o < cap)
      snprintf(buf + o, cap - o, ", resolved at Strength %d", c->strength);
    else if (c->kind == VL_K_ITEM && o < cap)
      snprintf(buf + o, cap - o, " (attached to a Hero)");
    return;
  }
  if (c->kind == VL_K_CONDITION)
    return;
  o += (size_t)snprintf(buf + o, o < cap ? cap - o : 0, ", cost %d", c->cost);
  if (c->kind == VL_K_ALLY && o < cap)
    o += (size_t)snprintf(buf + o, cap - o, ", Strength %d%s", c->strength,
                          c->invade ? ", Invade" : "");
  if (c->attach == VL_AT_ALLY && o < cap)
    snprintf(buf + o, cap - o, ", attached to an Ally");
}

/* "1. Royal Comb: Gain 2 Power, Play a Card | Fate, Discard Cards" for
 * each location, one line each. */
static void realm_text(const vl_villain *v, char *buf, size_t cap) {
  size_t o = 0;
  buf[0] = '\0';
  for (int l = 0; l < VL_LOCS && o < cap; l++) {
    const vl_location *loc = &v->loc[l];
    o +=
        (size_t)snprintf(buf + o, cap - o, "%s%d. %s%s: ", l ? "\n" : "", l + 1,
                         loc->name, loc->locked ? " (starts locked)" : "");
    for (int k = 0; k < loc->n && o < cap; k++)
      o += (size_t)snprintf(buf + o, cap - o, "%s%s",
                            k == 0            ? ""
                            : k == loc->n_top ? " | "
                                              : ", ",
                            vl_action_label(loc->a[k].kind));
  }
}

json_t *vl_cards_json(const vl_data *d) {
  json_t *out = json_array();
  for (int a = 0; out && a < d->n; a++) {
    const vl_villain *v = &d->v[a];
    /* The villain itself: realm, objective and guide are public. */
    char realm[600];
    realm_text(v, realm, sizeof realm);
    json_t *vo =
        json_pack("{ss ss ss ss ss ss ss ss ss si}", "villain", v->id,
                  "villain_name", v->name, "deck", "guide", "id", v->id, "name",
                  v->name, "kind", "villain", "objective", v->obj.text, "guide",
                  v->guide, "realm", realm, "count", 1);
    if (!vo || json_array_append_new(out, vo)) {
      json_decref(out);
      return NULL;
    }
    for (int i = 0; i < v->n_defs; i++) {
      const vl_card *c = &v->defs[i];
      char summary[96];
      vl_card_summary(c, summary, sizeof summary);
      json_t *o = json_pack(
          "{ss ss ss ss ss ss ss si ss ss}", "villain", v->id, "villain_name",
          v->name, "deck", c->deck == VL_DECK_FATE ? "fate" : "villain", "id",
          c->id, "name", c->name, "kind", kind_names[c->kind], "kind_name",
          c->kind_name, "count", c->count, "text", c->text, "summary", summary);
      if (!o) {
        json_decref(out);
        return NULL;
      }
      if (c->deck == VL_DECK_VILLAIN && c->kind != VL_K_CONDITION)
        json_object_set_new(o, "cost", json_integer(c->cost));
      if (c->kind == VL_K_ALLY || c->kind == VL_K_HERO)
        json_object_set_new(o, "strength", json_integer(c->strength));
      if (json_array_append_new(out, o)) {
        json_decref(out);
        return NULL;
      }
    }
  }
  /* A shared fate deck's common part and the Stones. */
  const vl_villain *v = &d->common;
  for (int i = 0; out && d->n_common && i < v->n_defs; i++) {
    const vl_card *c = &v->defs[i];
    bool stone = i >= d->cinst[d->n_common_fate];
    char summary[96];
    vl_card_summary(c, summary, sizeof summary);
    json_t *o = json_pack(
        "{ss ss ss ss ss ss ss si ss ss}", "villain", "common", "villain_name",
        "the common part", "deck", stone ? "stone" : "fate", "id", c->id,
        "name", c->name, "kind", stone ? "stone" : kind_names[c->kind],
        "kind_name", c->kind_name, "count", c->count, "text", c->text,
        "summary", summary);
    if (o && (c->kind == VL_K_HERO || c->kind == VL_K_EVENT))
      json_object_set_new(o, "strength", json_integer(c->strength));
    if (!o || json_array_append_new(out, o)) {
      json_decref(out);
      return NULL;
    }
  }
  return out;
}

static void deck_table(eng_md *m, const vl_villain *v, int deck) {
  int total = 0;
  for (int i = 0; i < v->n_defs; i++)
    total += v->defs[i].deck == deck ? v->defs[i].count : 0;
  eng_md_printf(m, "\n%s (%d cards):\n\n",
                deck == VL_DECK_VILLAIN ? "Villain deck" : "Fate deck", total);
  if (deck == VL_DECK_VILLAIN)
    eng_md_printf(m, "| Card | Kind | Cost | Strength | Count | Text |\n"
                     "|---|---|---|---|---|---|\n");
  else
    eng_md_printf(m, "| Card | Kind | Strength | Count | Text |\n"
                     "|---|---|---|---|---|\n");
  for (int i = 0; i < v->n_defs; i++) {
    const vl_card *c = &v->defs[i];
    if (c->deck != deck)
      continue;
    eng_md_printf(m, "| %s | %s", c->name, c->kind_name);
    if (c->attach == VL_AT_ALLY)
      eng_md_printf(m, " (on an Ally)");
    else if (c->attach == VL_AT_HERO)
      eng_md_printf(m, " (on a Hero)");
    if (deck == VL_DECK_VILLAIN) {
      if (c->kind == VL_K_CONDITION)
        eng_md_printf(m, " | -");
      else
        eng_md_printf(m, " | %d", c->cost);
    }
    if (c->kind == VL_K_ALLY || c->kind == VL_K_HERO || c->kind == VL_K_EVENT)
      eng_md_printf(m, " | %d", c->strength);
    else
      eng_md_printf(m, " | -");
    eng_md_printf(m, " | %d | ", c->count);
    eng_md_cell(m, c->text);
    eng_md_printf(m, " |\n");
  }
}

char *vl_cards_markdown(const vl_data *d) {
  eng_md m = {0};
  for (int a = 0; a < d->n; a++) {
    const vl_villain *v = &d->v[a];
    eng_md_printf(&m, "%s### %s (`%s`)\n\n**Objective:** ", a ? "\n" : "",
                  v->name, v->id);
    eng_md_cell(&m, v->obj.text);
    eng_md_printf(&m, "\n\n");
    eng_md_cell(&m, v->guide);
    eng_md_printf(&m, "\n\n| Location | Top (covered by a Hero) | Bottom |\n"
                      "|---|---|---|\n");
    for (int i = 0; i < VL_LOCS; i++) {
      const vl_location *l = &v->loc[i];
      eng_md_printf(&m, "| %d. %s%s | ", i + 1, l->name,
                    l->locked ? " (starts locked)" : "");
      for (int k = 0; k < l->n; k++)
        eng_md_printf(&m, "%s%s%s", k == 0 || k == l->n_top ? "" : ", ",
                      k == l->n_top ? " | " : "",
                      vl_action_label(l->a[k].kind));
      eng_md_printf(&m, " |\n");
    }
    if (v->track_name[0])
      eng_md_printf(&m, "\nTrack: %s, 0 to %d.\n", v->track_name, v->track_max);
    deck_table(&m, v, VL_DECK_VILLAIN);
    deck_table(&m, v, VL_DECK_FATE);
  }
  if (d->n_common) {
    const vl_villain *c = &d->common;
    eng_md_printf(&m, "\n### The common fate part (`common`)\n\n"
                      "Shuffled into the one fate deck with every villain's "
                      "part; an Event here is a Global Event (its Strength "
                      "is its requirement).\n");
    deck_table(&m, c, VL_DECK_FATE);
    eng_md_printf(&m, "\n### The Stones\n\n| Stone | Text |\n|---|---|\n");
    for (int k = d->n_common_fate; k < d->n_common; k++) {
      eng_md_printf(&m, "| %s | ", c->defs[d->cinst[k]].name);
      eng_md_cell(&m, c->defs[d->cinst[k]].text);
      eng_md_printf(&m, " |\n");
    }
  }
  return eng_md_take(&m);
}
