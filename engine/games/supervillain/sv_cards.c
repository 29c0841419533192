/*
 * sv_cards.c: loads and validates Supervillain's card data.
 *
 * The two data files are parsed once per process into a read-only deck
 * table. Validation reports every problem it finds (unknown op, missing
 * text, wrong deck size...) before it fails, so one run of the tests shows
 * all that is wrong with an edited file.
 */
#include "sv.h"

#include "../../blob.h"
#include "../../rsutil.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>

static const char *const op_names[] = {
#define SV_OP_NAME(e, s) s,
    SV_OPS(SV_OP_NAME)
#undef SV_OP_NAME
};
static const char *const kind_names[] = {
#define SV_KIND_NAME(e, s) s,
    SV_KINDS(SV_KIND_NAME)
#undef SV_KIND_NAME
};
static const char *const trigger_names[] = {
#define SV_TRIG_NAME(e, s) s,
    SV_TRIGGERS(SV_TRIG_NAME)
#undef SV_TRIG_NAME
};

const char *sv_op_name(int op) {
  return op >= 0 && op < SV_OP_COUNT ? op_names[op] : "?";
}
const char *sv_kind_name(int kind) {
  return kind >= 0 && kind < SV_KIND_COUNT ? kind_names[kind] : "?";
}
const char *sv_trigger_name(int t) {
  return t >= 0 && t < SV_TRIG_COUNT ? trigger_names[t] : "?";
}

void sv_format_power(int m, char *buf, size_t cap) {
  if (m >= 1000)
    snprintf(buf, cap, "%d,%03dm", m / 1000, m % 1000);
  else
    snprintf(buf, cap, "%dm", m);
}

typedef struct loader {
  void (*report)(void *ctx, const char *msg);
  void *ctx;
  int errors;
} loader;

static void err(loader *l, const char *fmt, ...) {
  char msg[300];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  l->errors++;
  if (l->report)
    l->report(l->ctx, msg);
}

/* Whether op takes a count n (1..3) and which scopes it accepts. */
static bool op_has_n(int op) {
  switch ((sv_op)op) {
  case SV_OP_DRAW_MINION:
  case SV_OP_DISCARD_MINION:
  case SV_OP_EACH_OTHER_DISCARDS:
  case SV_OP_LAUNCH_ASTEROID:
  case SV_OP_DRAW_PROJECT:
  case SV_OP_TAKE_DISCARD_MINION:
  case SV_OP_PUT_MOB_FROM_HAND:
  case SV_OP_EXTRA_MOB:
  case SV_OP_EXTRA_OPS:
    return true;
  case SV_OP_DESTROY_OWN_PROJECT:
  case SV_OP_TAKE_DISCARD_PROJECT:
  case SV_OP_PUT_MOB_FROM_DISCARD:
  case SV_OP_STEAL_MOB:
  case SV_OP_SWAP_MOBS:
  case SV_OP_DESTROY_MOB:
  case SV_OP_DESTROY_PROJECT:
  case SV_OP_DESTROY_FACILITY:
  case SV_OP_DESTROY_ALL_MOBS:
  case SV_OP_CHARGE_ASTEROID:
  case SV_OP_SHOOT_DOWN:
  case SV_OP_RETARGET:
  case SV_OP_ADD_PROOF:
  case SV_OP_REMOVE_PROOF:
  case SV_OP_REVERT_FACILITY:
  case SV_OP_COUNT:
    return false;
  }
  return false;
}

static void parse_effect(loader *l, const char *where, json_t *e,
                         sv_effect *out) {
  const char *opname = json_string_value(json_object_get(e, "op"));
  int op = eng_lookup(op_names, SV_OP_COUNT, opname);
  if (op < 0) {
    err(l, "%s: unknown effect op '%s'", where, opname ? opname : "(none)");
    return;
  }
  out->op = (uint8_t)op;
  out->n = 1;
  json_t *n = json_object_get(e, "n");
  if (op_has_n(op)) {
    if (!json_is_integer(n) || json_integer_value(n) < 1 ||
        json_integer_value(n) > 3)
      err(l, "%s: %s needs n from 1 to 3", where, opname);
    else
      out->n = (uint8_t)json_integer_value(n);
  } else if (n) {
    err(l, "%s: %s takes no n", where, opname);
  }
  const char *scope = json_string_value(json_object_get(e, "scope"));
  const char *target = json_string_value(json_object_get(e, "target"));
  out->scope = SV_SCOPE_DEFAULT;
  if (op == SV_OP_CHARGE_ASTEROID) {
    if (scope && strcmp(scope, "any") == 0)
      out->scope = SV_SCOPE_ANY;
    else if (!scope || strcmp(scope, "own") != 0)
      err(l, "%s: charge_asteroid needs scope own or any", where);
  } else if (op == SV_OP_SHOOT_DOWN) {
    if (scope && strcmp(scope, "any") == 0)
      out->scope = SV_SCOPE_ANY;
    else if (!scope || strcmp(scope, "incoming") != 0)
      err(l, "%s: shoot_down needs scope incoming or any", where);
  } else if (op == SV_OP_ADD_PROOF) {
    if (target && strcmp(target, "any") == 0)
      out->scope = SV_SCOPE_ANY;
    else if (target && strcmp(target, "facility") == 0)
      out->scope = SV_SCOPE_FACILITY;
    else if (!target || strcmp(target, "mob") != 0)
      err(l, "%s: add_proof needs target mob, facility or any", where);
  } else if (scope || target) {
    err(l, "%s: %s takes no scope or target", where, opname);
  }
}

static void parse_ability(loader *l, const char *card, const char *half,
                          json_t *a, sv_ability *out, const int *kinds) {
  char where[80];
  snprintf(where, sizeof where, "card '%s' %s", card, half);
  memset(out, 0, sizeof *out);
  if (!json_is_object(a)) {
    err(l, "%s: missing ability object", where);
    return;
  }
  const char *kind = json_string_value(json_object_get(a, "kind"));
  int k = half[0] == 'o' ? SV_KIND_NONE
                         : eng_lookup(kind_names, SV_KIND_COUNT, kind);
  if (half[0] != 'o') {
    bool allowed = false;
    for (const int *p = kinds; *p >= 0; p++)
      allowed |= *p == k;
    if (k < 0 || !allowed)
      err(l, "%s: kind '%s' is not allowed here", where, kind ? kind : "");
    else
      out->kind = (uint8_t)k;
  }
  const char *text = json_string_value(json_object_get(a, "text"));
  if (!text || !*text || strlen(text) >= sizeof out->text)
    err(l, "%s: text missing or longer than %zu", where, sizeof out->text - 1);
  else
    memcpy(out->text, text, strlen(text) + 1);
  const char *trig = json_string_value(json_object_get(a, "trigger"));
  if (k == SV_KIND_WHENEVER) {
    int t = eng_lookup(trigger_names, SV_TRIG_COUNT, trig);
    if (t <= 0)
      err(l, "%s: whenever needs a known trigger", where);
    else if (t == SV_TRIG_MOB_PUT_HERE && half[0] != 'p')
      err(l, "%s: mob_put_here is for Projects only", where);
    else
      out->trigger = (uint8_t)t;
  } else if (trig) {
    err(l, "%s: only whenever abilities have a trigger", where);
  }
  json_t *cost = json_object_get(a, "cost");
  if (cost) {
    json_t *d = json_object_get(cost, "discard");
    if (k != SV_KIND_ONCE_PER_TURN && k != SV_KIND_DESTROY_THIS)
      err(l, "%s: only abilities used at will may have a cost", where);
    else if (!json_is_integer(d) || json_integer_value(d) < 1 ||
             json_integer_value(d) > 3)
      err(l, "%s: cost.discard must be 1 to 3", where);
    else
      out->cost = (uint8_t)json_integer_value(d);
  }
  json_t *effects = json_object_get(a, "effects");
  if (!json_is_array(effects) || json_array_size(effects) > SV_MAX_EFFECTS) {
    err(l, "%s: effects must be an array of at most %d", where, SV_MAX_EFFECTS);
    return;
  }
  if (json_array_size(effects) == 0 && k != SV_KIND_WIN_BLOCK)
    err(l, "%s: no effects", where);
  if (json_array_size(effects) > 0 && k == SV_KIND_WIN_BLOCK)
    err(l, "%s: win_block has no effects", where);
  size_t i;
  json_t *e;
  json_array_foreach(effects, i, e)
      parse_effect(l, where, e, &out->eff[out->n_effects++]);
}

static int int_field(loader *l, const char *card, json_t *c, const char *key,
                     int lo, int hi) {
  json_t *v = json_object_get(c, key);
  if (!json_is_integer(v) || json_integer_value(v) < lo ||
      json_integer_value(v) > hi) {
    err(l, "card '%s': %s must be an integer from %d to %d", card, key, lo, hi);
    return lo;
  }
  return (int)json_integer_value(v);
}

static bool bool_field(loader *l, const char *card, json_t *c,
                       const char *key) {
  json_t *v = json_object_get(c, key);
  if (!json_is_boolean(v)) {
    err(l, "card '%s': %s must be true or false", card, key);
    return false;
  }
  return json_is_true(v);
}

static bool id_ok(const char *id) {
  size_t n = strlen(id);
  if (n == 0 || n > 24)
    return false;
  for (size_t i = 0; i < n; i++)
    if (!((id[i] >= 'a' && id[i] <= 'z') || (id[i] >= '0' && id[i] <= '9') ||
          id[i] == '_'))
      return false;
  return true;
}

static const int project_kinds[] = {SV_KIND_WHEN_COMPLETE, SV_KIND_DESTROY_THIS,
                                    SV_KIND_ONCE_PER_TURN, SV_KIND_WHENEVER,
                                    -1};
static const int facility_kinds[] = {
    SV_KIND_ONCE_PER_TURN, SV_KIND_DESTROY_THIS, SV_KIND_WHENEVER,
    SV_KIND_IF_DESTROYED,  SV_KIND_WIN_BLOCK,    -1};

static int parse_file(loader *l, const char *text, bool domination, sv_deck *d,
                      int *instances) {
  const char *deck = domination ? "domination" : "minion";
  json_error_t je;
  json_t *root = json_loads(text, 0, &je);
  if (!root) {
    err(l, "%s.json line %d: %s", deck, je.line, je.text);
    return 0;
  }
  int total = 0;
  const char *decl = json_string_value(json_object_get(root, "deck"));
  if (!decl || strcmp(decl, deck) != 0)
    err(l, "%s.json: \"deck\" must be \"%s\"", deck, deck);
  json_t *cards = json_object_get(root, "cards");
  if (!json_is_array(cards))
    err(l, "%s.json: \"cards\" must be an array", deck);
  size_t i;
  json_t *c;
  json_array_foreach(cards, i, c) {
    if (d->n_cards >= SV_N) {
      err(l, "%s.json: too many cards", deck);
      break;
    }
    sv_card *card = &d->cards[d->n_cards];
    memset(card, 0, sizeof *card);
    const char *id = json_string_value(json_object_get(c, "id"));
    const char *name = json_string_value(json_object_get(c, "name"));
    if (!id || !id_ok(id)) {
      err(l, "%s.json card %zu: id must be 1-24 of [a-z0-9_]", deck, i);
      continue;
    }
    memcpy(card->id, id, strlen(id) + 1);
    for (int k = 0; k < d->n_cards; k++)
      if (strcmp(d->cards[k].id, id) == 0)
        err(l, "card '%s': id used twice", id);
    if (!name || !*name || strlen(name) >= sizeof card->name)
      err(l, "card '%s': name missing or longer than %zu", id,
          sizeof card->name - 1);
    else
      memcpy(card->name, name, strlen(name) + 1);
    card->domination = domination;
    card->count = int_field(l, id, c, "count", 1, 6);
    if (domination) {
      card->cost = int_field(l, id, c, "cost", 100, 3000);
      card->points = int_field(l, id, c, "points", 0, 2);
      parse_ability(l, id, "project", json_object_get(c, "project"),
                    &card->project, project_kinds);
      parse_ability(l, id, "facility", json_object_get(c, "facility"),
                    &card->facility, facility_kinds);
    } else {
      card->power = int_field(l, id, c, "power", 100, 2000);
      card->proof = bool_field(l, id, c, "proof");
      card->boosted = bool_field(l, id, c, "boosted");
      card->swift = bool_field(l, id, c, "swift");
      parse_ability(l, id, "ops", json_object_get(c, "ops"), &card->ops, NULL);
    }
    for (int k = 0; k < card->count && *instances < SV_N; k++)
      d->inst[(*instances)++] = (uint8_t)d->n_cards;
    total += card->count;
    d->n_cards++;
  }
  json_decref(root);
  return total;
}

int sv_cards_parse(const char *minion_json, const char *domination_json,
                   sv_deck *out, void (*report)(void *ctx, const char *msg),
                   void *ctx) {
  loader l = {report, ctx, 0};
  memset(out, 0, sizeof *out);
  int inst = 0;
  int m = parse_file(&l, minion_json, false, out, &inst);
  if (m != SV_N_MINION)
    err(&l, "minion.json holds %d cards; the rulebook's deck has %d", m,
        SV_N_MINION);
  inst = SV_N_MINION;
  int d = parse_file(&l, domination_json, true, out, &inst);
  if (d != SV_N_DOMINATION)
    err(&l, "domination.json holds %d cards; the rulebook's deck has %d", d,
        SV_N_DOMINATION);
  for (int i = SV_N_MINION; i < inst && i < SV_N; i++) {
    const sv_card *c = &out->cards[out->inst[i]];
    for (int t = 0; t < SV_TRIG_COUNT; t++)
      if ((c->project.kind == SV_KIND_WHENEVER && c->project.trigger == t) ||
          (c->facility.kind == SV_KIND_WHENEVER && c->facility.trigger == t))
        out->whenever[t][out->n_whenever[t]++] = (uint8_t)i;
  }
  return l.errors;
}

sv_deck sv_loaded;
static bool loaded_ok;
static once_flag load_once = ONCE_FLAG_INIT;

static void report_stderr(void *ctx, const char *msg) {
  (void)ctx;
  fprintf(stderr, "supervillain card data: %s\n", msg);
}

static void load(void) {
  const eng_blob *m = eng_blob_find("supervillain/minion.json");
  const eng_blob *d = eng_blob_find("supervillain/domination.json");
  if (!m || !d) {
    report_stderr(NULL, "data files missing from the build");
    return;
  }
  loaded_ok =
      sv_cards_parse(m->text, d->text, &sv_loaded, report_stderr, NULL) == 0;
}

const sv_deck *sv_cards(void) {
  call_once(&load_once, load);
  return loaded_ok ? &sv_loaded : NULL;
}

static json_t *ability_json(const sv_ability *a, bool with_kind) {
  json_t *o = json_pack("{ss}", "text", a->text);
  if (with_kind) {
    json_object_set_new(o, "kind", json_string(sv_kind_name(a->kind)));
    if (a->trigger)
      json_object_set_new(o, "trigger",
                          json_string(sv_trigger_name(a->trigger)));
  }
  if (a->cost)
    json_object_set_new(o, "cost", json_pack("{si}", "discard", a->cost));
  json_t *effects = json_array();
  for (int i = 0; i < a->n_effects; i++) {
    const sv_effect *e = &a->eff[i];
    json_t *eo = json_pack("{ss}", "op", sv_op_name(e->op));
    if (op_has_n(e->op))
      json_object_set_new(eo, "n", json_integer(e->n));
    if (e->op == SV_OP_CHARGE_ASTEROID)
      json_object_set_new(eo, "scope", json_string(e->scope ? "any" : "own"));
    if (e->op == SV_OP_SHOOT_DOWN)
      json_object_set_new(eo, "scope",
                          json_string(e->scope ? "any" : "incoming"));
    if (e->op == SV_OP_ADD_PROOF)
      json_object_set_new(eo, "target",
                          json_string(e->scope == SV_SCOPE_ANY ? "any"
                                      : e->scope == SV_SCOPE_FACILITY
                                          ? "facility"
                                          : "mob"));
    json_array_append_new(effects, eo);
  }
  json_object_set_new(o, "effects", effects);
  return o;
}

json_t *sv_cards_json(const sv_deck *d) {
  json_t *a = json_array();
  for (int i = 0; i < d->n_cards; i++) {
    const sv_card *c = &d->cards[i];
    char power[16];
    json_t *o =
        json_pack("{sssssssi}", "id", c->id, "name", c->name, "deck",
                  c->domination ? "domination" : "minion", "count", c->count);
    if (c->domination) {
      sv_format_power(c->cost, power, sizeof power);
      json_object_set_new(o, "cost", json_integer(c->cost));
      json_object_set_new(o, "cost_text", json_string(power));
      json_object_set_new(o, "points", json_integer(c->points));
      json_object_set_new(o, "project", ability_json(&c->project, true));
      json_object_set_new(o, "facility", ability_json(&c->facility, true));
    } else {
      sv_format_power(c->power, power, sizeof power);
      json_object_set_new(o, "power", json_integer(c->power));
      json_object_set_new(o, "power_text", json_string(power));
      json_object_set_new(o, "proof", json_boolean(c->proof));
      json_object_set_new(o, "boosted", json_boolean(c->boosted));
      json_object_set_new(o, "swift", json_boolean(c->swift));
      json_object_set_new(o, "ops", ability_json(&c->ops, false));
    }
    json_array_append_new(a, o);
  }
  return a;
}

/* ---- the card list as Markdown ----------------------------------------
 * docs/rules/supervillain.md embeds this text between its cards markers
 * and a test compares the two, so the documented cards are the validated
 * ones. */

/* The generated list is about 20 KB; anything near the cap is a bug. */
/* "`kind` (`trigger`): text", the way the data files name them. */
static void md_ability(eng_md *b, const sv_ability *a) {
  eng_md_printf(b, "`%s`", sv_kind_name(a->kind));
  if (a->trigger)
    eng_md_printf(b, " (`%s`)", sv_trigger_name(a->trigger));
  eng_md_str(b, ": ");
  eng_md_cell(b, a->text);
}

char *sv_cards_markdown(const sv_deck *d) {
  eng_md b = {0};
  char power[16];
  int copies = 0, distinct = 0;

  eng_md_str(&b, "### Minion cards\n\n"
                 "Power is the Minion Power of the card played as a Mob. "
                 "Asteroid-proof: the Mob enters play with an Asteroid-proof "
                 "token. Boosted: the Mob ignores the one-Mob-per-turn limit. "
                 "Swift: the Minion Ops ignore the one-Ops-per-turn limit.\n\n"
                 "| Card | Count | Power | Asteroid-proof | Boosted | Swift "
                 "| Minion Ops |\n"
                 "| --- | ---: | ---: | :---: | :---: | :---: | --- |\n");
  for (int i = 0; i < d->n_cards; i++) {
    const sv_card *c = &d->cards[i];
    if (c->domination)
      continue;
    sv_format_power(c->power, power, sizeof power);
    eng_md_str(&b, "| ");
    eng_md_cell(&b, c->name);
    eng_md_printf(&b, " | %d | %s | %s | %s | %s | ", c->count, power,
                  c->proof ? "yes" : "", c->boosted ? "yes" : "",
                  c->swift ? "yes" : "");
    eng_md_cell(&b, c->ops.text);
    eng_md_str(&b, " |\n");
    copies += c->count;
    distinct++;
  }
  eng_md_printf(&b, "\nTotal: %d Minion cards (%d different).\n\n", copies,
                distinct);

  copies = distinct = 0;
  eng_md_str(&b, "### Domination cards\n\n"
                 "Cost is the Minion Power that completes the Project; points "
                 "are the Domination points of the Secret Facility. Each "
                 "ability shows its kind and, for `whenever`, its trigger.\n\n"
                 "| Card | Count | Cost | Points | Project ability "
                 "| Secret Facility ability |\n"
                 "| --- | ---: | ---: | ---: | --- | --- |\n");
  for (int i = 0; i < d->n_cards; i++) {
    const sv_card *c = &d->cards[i];
    if (!c->domination)
      continue;
    sv_format_power(c->cost, power, sizeof power);
    eng_md_str(&b, "| ");
    eng_md_cell(&b, c->name);
    eng_md_printf(&b, " | %d | %s | %d | ", c->count, power, c->points);
    md_ability(&b, &c->project);
    eng_md_str(&b, " | ");
    md_ability(&b, &c->facility);
    eng_md_str(&b, " |\n");
    copies += c->count;
    distinct++;
  }
  eng_md_printf(&b, "\nTotal: %d Domination cards (%d different).\n", copies,
                distinct);

  return eng_md_take(&b);
}

char *sv_cards_markdown_list(void) {
  const sv_deck *d = sv_cards();
  return d ? sv_cards_markdown(d) : NULL;
}
