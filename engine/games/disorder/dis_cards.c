/*
 * dis_cards.c: loads and validates the Disorder of the Villains content.
 *
 * The data files disorder/NAME.json built into the binary are one pool of
 * Villains (villains.json) and one file per deck design of 16 Monsters
 * (docs/rules/disorder.md, "Data format", is the format). They are
 * parsed once per process into a read-only dis_data: the pool's Villains
 * first, then each design's Monsters, designs sorted by id. A filter may
 * name a card of any file, so every card's head (id, name, DNA...) is
 * read before any card's traits. Validation reports every problem it
 * finds, each naming its file and card, before it fails, so one run
 * shows all that is wrong with an edited file. The card list is also
 * given as JSON (`lair cards disorder`) and as the Markdown that
 * docs/rules/disorder.md embeds.
 */
#include "dis.h"

#include "../../blob.h"
#include "../../rsutil.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>

/* The vocabularies, in the order of dis.h's enums (index 0 of those
 * with a DIS_x_NONE is never a data value). */
#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))
static const char *const colour_ids[] = {"red", "gold", "blue", "green",
                                         "violet"};
static const char *const colour_names[] = {"Red", "Gold", "Blue", "Green",
                                           "Violet"};
static const char *const timing_ids[] = {"immediate", "timed", "always",
                                         "after_mint", "interrupt"};
static const char *const timing_symbols[] = {"!!!", "⏳", "♾", "👤", "🧠"};
static const char *const op_ids[] = {"none",    "bounce", "burn", "flip",
                                     "copy",    "negate", "drop", "draw",
                                     "discard", "ready"};
static const char *const op_names[] = {"-",       "BOUNCE", "BURN", "FLIP",
                                       "COPY",    "NEGATE", "DROP", "DRAW",
                                       "discard", "READY"};
static const char *const trigger_ids[] = {"none", "own_turn", "turn_start",
                                          "opp_play", "opp_mint"};
static const char *const answer_ids[] = {"none", "enter", "trait"};
static const char *const mod_ids[] = {"none", "ward", "dna_alias"};
static const char *const side_ids[] = {"none", "own", "opp", "any"};
static const char *const kind_ids[] = {"monster", "villain", "card"};
_Static_assert(COUNT(colour_ids) == DIS_COLOURS, "a name per colour");
_Static_assert(COUNT(colour_names) == DIS_COLOURS, "a name per colour");
_Static_assert(COUNT(timing_ids) == DIS_TIMINGS, "a name per timing");
_Static_assert(COUNT(timing_symbols) == DIS_TIMINGS, "a symbol per timing");
_Static_assert(COUNT(op_ids) == DIS_OPS, "a name per op");
_Static_assert(COUNT(op_names) == DIS_OPS, "a name per op");
_Static_assert(COUNT(trigger_ids) == DIS_TR_OPP_MINT + 1, "a trigger name");
_Static_assert(COUNT(answer_ids) == DIS_AN_TRAIT + 1, "an answers name");
_Static_assert(COUNT(mod_ids) == DIS_MOD_ALIAS + 1, "a mod name");
_Static_assert(COUNT(side_ids) == DIS_SIDE_ANY + 1, "a side name");
_Static_assert(COUNT(kind_ids) == DIS_KIND_CARD + 1, "a kind name");

#define NAME_OF(arr, i) ((i) >= 0 && (i) < COUNT(arr) ? (arr)[i] : "?")
const char *dis_colour_id(int colour) { return NAME_OF(colour_ids, colour); }
const char *dis_colour_name(int colour) {
  return NAME_OF(colour_names, colour);
}
const char *dis_op_name(int op) { return NAME_OF(op_names, op); }
const char *dis_op_id(int op) { return NAME_OF(op_ids, op); }
const char *dis_timing_id(int timing) { return NAME_OF(timing_ids, timing); }
const char *dis_timing_symbol(int timing) {
  return NAME_OF(timing_symbols, timing);
}

/* The index of s among names[1..n) (names[0] is the enum's NONE, which
 * data never names), or -1. */
static int lookup_some(const char *const *names, int n, const char *s) {
  int k = eng_lookup(names + 1, n - 1, s);
  return k < 0 ? -1 : k + 1;
}

/* The keyword ops every design holds and every one of them is on three
 * cards of the whole content. */
static const int keyword_ops[] = {DIS_OP_BOUNCE, DIS_OP_BURN,   DIS_OP_FLIP,
                                  DIS_OP_COPY,   DIS_OP_NEGATE, DIS_OP_DROP};

/* ---- the loader ---------------------------------------------------------- */

typedef eng_loader loader;

static bool id_ok(const char *s) {
  for (const char *p = s; *p; p++)
    if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_'))
      return false;
  return s[0] != '\0';
}

/* Reads the id member of o into dst, reporting one that is not
 * [a-z0-9_]. */
static void get_id(loader *l, const char *where, const json_t *o, char *dst,
                   size_t cap) {
  if (eng_load_str(l, where, o, "id", dst, cap, true) && !id_ok(dst)) {
    eng_load_err(l,
                 "%s: the id '%s' must be lower case letters, digits and '_'.",
                 where, dst);
    dst[0] = '\0';
  }
}

/* The value of member key of o, one of names[first..n), as its index;
 * -1 (reported: what it must be) when absent (and required) or not one
 * of them. */
static int get_word(loader *l, const char *where, const json_t *o,
                    const char *key, const char *const *names, int first, int n,
                    bool required) {
  json_t *v = json_object_get(o, key);
  if (!v && !required)
    return -1;
  int k = first ? lookup_some(names, n, json_string_value(v))
                : eng_lookup(names, n, json_string_value(v));
  if (k >= 0)
    return k;
  char list[160];
  size_t len = 0;
  list[0] = '\0';
  for (int i = first; i < n && len < sizeof list; i++)
    len += (size_t)snprintf(list + len, sizeof list - len, "%s%s",
                            i == first   ? ""
                            : i == n - 1 ? " or "
                                         : ", ",
                            names[i]);
  if (!v)
    eng_load_err(l, "%s: '%s' is missing (%s).", where, key, list);
  else
    eng_load_err(l, "%s: '%s' must be %s.", where, key, list);
  return -1;
}

/* The JSON object of a data file's text (new reference), or NULL with
 * the error told through l. */
static json_t *parse_object(loader *l, const char *text) {
  json_error_t je;
  json_t *root = json_loads(text, JSON_REJECT_DUPLICATES, &je);
  if (json_is_object(root))
    return root;
  eng_load_err(l, "not a JSON object (line %d: %s).", je.line, je.text);
  json_decref(root);
  return NULL;
}

/* ---- filters ------------------------------------------------------------- */

/* What a filter is for: the rules for its keys differ. */
enum { F_ON, F_WARD, F_TARGET };

static const char *const filter_keys[] = {"side", "kind",  "dna",     "colour",
                                          "name", "other", "subject", NULL};

/* Whether the trait has a subject its target may be ("it"): a BOUNCE or
 * BURN answering a card put into play, a COPY answering a trait. */
static bool subject_allowed(const dis_trait *t) {
  if (t->op == DIS_OP_BOUNCE || t->op == DIS_OP_BURN)
    return t->answers == DIS_AN_ENTER || t->trigger == DIS_TR_OPP_PLAY;
  return t->op == DIS_OP_COPY && t->answers == DIS_AN_TRAIT;
}

/* Reads a list of words from names[0..n) into a bit mask; reports a
 * value that is not a non-empty list of them. */
static uint8_t get_mask(loader *l, const char *where, const json_t *v,
                        const char *key, const char *const *names, int n,
                        const char *what) {
  if (!json_is_array(v) || json_array_size(v) == 0) {
    eng_load_err(l, "%s: '%s' must be a non-empty list of %s.", where, key,
                 what);
    return 0;
  }
  uint8_t mask = 0;
  size_t i;
  json_t *e;
  json_array_foreach(v, i, e) {
    int k = eng_lookup(names, n, json_string_value(e));
    if (k < 0)
      eng_load_err(l, "%s: '%s' holds something that is not %s.", where, key,
                   what);
    else
      mask |= (uint8_t)(1u << k);
  }
  return mask;
}

/* Parses filter o of trait t into *f. d holds every card's
 * head, so that `name` can name a card of any file. */
static void parse_filter(loader *l, const char *where, const json_t *o,
                         int role, const dis_data *d, const dis_trait *t,
                         dis_filter *f) {
  memset(f, 0, sizeof *f);
  f->kind = DIS_KIND_CARD;
  if (!json_is_object(o)) {
    eng_load_err(l, "%s: a filter must be an object.", where);
    return;
  }
  eng_load_keys(l, where, o, filter_keys);
  /* `on` and a ward's filter pick cards by what they are only. */
  if (role != F_TARGET) {
    static const char *const picking[] = {"side", "other", "subject"};
    for (int k = 0; k < COUNT(picking); k++)
      if (json_object_get(o, picking[k]))
        eng_load_err(l, "%s: '%s' is not for %s.", where, picking[k],
                     role == F_ON ? "an 'on' filter" : "a ward's filter");
  }
  json_t *subject = json_object_get(o, "subject");
  if (subject && role == F_TARGET) {
    if (!json_is_true(subject))
      eng_load_err(l, "%s: 'subject' is true or absent.", where);
    else if (json_object_size(o) != 1)
      eng_load_err(l, "%s: 'subject' stands alone in its filter.", where);
    else if (!subject_allowed(t))
      eng_load_err(
          l,
          "%s: 'subject' only where the trait has a subject: a BOUNCE or "
          "BURN answering 'enter' or triggered by 'opp_play', a COPY "
          "answering 'trait'.",
          where);
    f->subject = json_is_true(subject);
    return;
  }

  /* side */
  bool takes_side = role == F_TARGET && t->op != DIS_OP_DROP;
  bool needs_side =
      role == F_TARGET &&
      (t->op == DIS_OP_BOUNCE || t->op == DIS_OP_BURN ||
       t->op == DIS_OP_READY || t->op == DIS_OP_COPY || t->op == DIS_OP_FLIP);
  json_t *side = json_object_get(o, "side");
  if (side && role == F_TARGET && !takes_side)
    eng_load_err(
        l, "%s: a DROP's target takes no 'side' (the card is in your hand).",
        where);
  else if (role == F_TARGET && (side || needs_side)) {
    int s = get_word(l, where, o, "side", side_ids, 1, COUNT(side_ids), true);
    f->side = s < 0 ? DIS_SIDE_NONE : (uint8_t)s;
    if (t->op == DIS_OP_FLIP && s >= 0 && s != DIS_SIDE_OPP)
      eng_load_err(
          l,
          "%s: a FLIP takes one of your opponent's Monsters: 'side' must "
          "be opp.",
          where);
  }

  /* kind */
  json_t *kind = json_object_get(o, "kind");
  if (kind) {
    int k = get_word(l, where, o, "kind", kind_ids, 0, COUNT(kind_ids), true);
    f->kind = k < 0 ? DIS_KIND_CARD : (uint8_t)k;
  }
  if (role == F_TARGET && t->op == DIS_OP_FLIP && f->kind != DIS_KIND_MONSTER)
    eng_load_err(l, "%s: a FLIP takes Monsters: 'kind' must be monster.",
                 where);

  /* dna, colour */
  json_t *dna = json_object_get(o, "dna");
  if (dna) {
    static const char *const letters[] = {"A", "B", "C", "D"};
    f->dna =
        get_mask(l, where, dna, "dna", letters, DIS_LETTERS, "letters A-D");
    if (f->kind == DIS_KIND_VILLAIN)
      eng_load_err(l, "%s: 'dna' fits only Monsters, and 'kind' is villain.",
                   where);
  }
  json_t *colour = json_object_get(o, "colour");
  if (colour)
    f->colour = get_mask(l, where, colour, "colour", colour_ids, DIS_COLOURS,
                         "colours (red, gold, blue, green, violet)");

  /* name: card ids of any file */
  json_t *names = json_object_get(o, "name");
  if (names) {
    if (!json_is_array(names) || json_array_size(names) == 0 ||
        json_array_size(names) > DIS_FILTER_NAMES)
      eng_load_err(l, "%s: 'name' must be a list of 1 to %d card ids.", where,
                   DIS_FILTER_NAMES);
    else {
      size_t i;
      json_t *e;
      json_array_foreach(names, i, e) {
        const char *id = json_string_value(e);
        int n = dis_card_find(d, id ? id : "");
        if (n < 0)
          eng_load_err(l, "%s: 'name' names '%s', which is no card.", where,
                       id ? id : "(not a string)");
        else
          f->names[f->n_names++] = (uint16_t)n;
      }
    }
  }

  /* other */
  json_t *other = json_object_get(o, "other");
  if (other && role == F_TARGET) {
    if (!json_is_true(other))
      eng_load_err(l, "%s: 'other' is true or absent.", where);
    f->other = json_is_true(other);
  }
}

/* ---- traits -------------------------------------------------------------- */

static const char *const trait_keys[] = {"timing",  "trigger", "answers", "on",
                                         "op",      "n",       "target",  "mod",
                                         "against", "letter",  NULL};

/* Whether the op acts on a card its target picks. */
static bool op_has_target(int op) {
  return op == DIS_OP_BOUNCE || op == DIS_OP_BURN || op == DIS_OP_FLIP ||
         op == DIS_OP_COPY || op == DIS_OP_NEGATE || op == DIS_OP_DROP ||
         op == DIS_OP_READY;
}

/* Parses trait o of card c into *t. Returns whether its timing was
 * read (what the card's checks count). */
static bool parse_trait(loader *l, const char *where, const json_t *o,
                        const dis_data *d, const dis_card *c, dis_trait *t) {
  memset(t, 0, sizeof *t);
  t->letter = -1;
  t->on.kind = t->target.kind = DIS_KIND_CARD;
  if (!json_is_object(o)) {
    eng_load_err(l, "%s: a trait must be an object.", where);
    return false;
  }
  eng_load_keys(l, where, o, trait_keys);
  int timing =
      get_word(l, where, o, "timing", timing_ids, 0, COUNT(timing_ids), true);
  if (timing < 0)
    return false;
  t->timing = (uint8_t)timing;

  /* When: trigger (timed), answers (interrupt), on (what they look at). */
  if (timing == DIS_T_TIMED) {
    int tr = get_word(l, where, o, "trigger", trigger_ids, 1,
                      COUNT(trigger_ids), true);
    t->trigger = tr < 0 ? DIS_TR_NONE : (uint8_t)tr;
  } else if (json_object_get(o, "trigger")) {
    eng_load_err(l, "%s: 'trigger' is for timed traits only.", where);
  }
  if (timing == DIS_T_INTERRUPT) {
    int an = get_word(l, where, o, "answers", answer_ids, 1, COUNT(answer_ids),
                      true);
    t->answers = an < 0 ? DIS_AN_NONE : (uint8_t)an;
  } else if (json_object_get(o, "answers")) {
    eng_load_err(l, "%s: 'answers' is for interrupt traits only.", where);
  }

  /* What: op (and n, target), or mod (and against, letter, target). */
  bool always = timing == DIS_T_ALWAYS;
  if (always) {
    if (json_object_get(o, "op"))
      eng_load_err(l, "%s: an always trait has a 'mod', not an 'op'.", where);
    int m = get_word(l, where, o, "mod", mod_ids, 1, COUNT(mod_ids), true);
    t->mod = m < 0 ? DIS_MOD_NONE : (uint8_t)m;
  } else {
    if (json_object_get(o, "mod"))
      eng_load_err(l, "%s: 'mod' is for always traits only.", where);
    int op = get_word(l, where, o, "op", op_ids, 1, COUNT(op_ids), true);
    t->op = op < 0 ? DIS_OP_NONE : (uint8_t)op;
  }
  json_t *n = json_object_get(o, "n");
  if (t->op == DIS_OP_DRAW || t->op == DIS_OP_DISCARD) {
    if (!json_is_integer(n) || json_integer_value(n) < 1 ||
        json_integer_value(n) > 2)
      eng_load_err(l, "%s: a %s needs 'n', 1 or 2.", where, op_ids[t->op]);
    else
      t->n = (uint8_t)json_integer_value(n);
  } else if (n) {
    eng_load_err(l, "%s: only draw and discard take 'n'.", where);
  }
  json_t *against = json_object_get(o, "against");
  if (t->mod == DIS_MOD_WARD) {
    static const char *const wardable[] = {"burn", "bounce", "flip", "negate"};
    uint8_t bits =
        get_mask(l, where, against ? against : json_null(), "against", wardable,
                 COUNT(wardable), "burn, bounce, flip and negate");
    static const int ops[] = {DIS_OP_BURN, DIS_OP_BOUNCE, DIS_OP_FLIP,
                              DIS_OP_NEGATE};
    for (int k = 0; k < COUNT(ops); k++)
      if (bits & 1u << k)
        t->against |= (uint8_t)(1u << ops[k]);
  } else if (against) {
    eng_load_err(l, "%s: 'against' is for a ward only.", where);
  }
  json_t *letter = json_object_get(o, "letter");
  if (t->mod == DIS_MOD_ALIAS) {
    const char *s = json_string_value(letter);
    int k = s && strlen(s) == 1 ? dis_dna_letter(s[0]) : -1;
    if (c->kind != DIS_KIND_MONSTER)
      eng_load_err(l, "%s: dna_alias is for Monsters only.", where);
    else if (k < 0)
      eng_load_err(l, "%s: a dna_alias needs 'letter', one of A-D.", where);
    else if (k == c->letter)
      eng_load_err(l, "%s: the alias letter %c is the card's own.", where,
                   'A' + k);
    else
      t->letter = (int8_t)k;
  } else if (letter) {
    eng_load_err(l, "%s: 'letter' is for a dna_alias only.", where);
  }

  /* The filters. */
  char sub[128];
  json_t *on = json_object_get(o, "on");
  if (on) {
    snprintf(sub, sizeof sub, "%s, on", where);
    if (t->trigger == DIS_TR_OPP_PLAY || timing == DIS_T_INTERRUPT) {
      t->has_on = true;
      parse_filter(l, sub, on, F_ON, d, t, &t->on);
    } else {
      eng_load_err(l, "%s: 'on' is for opp_play and interrupt traits only.",
                   where);
    }
  }
  json_t *target = json_object_get(o, "target");
  snprintf(sub, sizeof sub, "%s, target", where);
  if (t->mod == DIS_MOD_WARD) {
    if (!target)
      eng_load_err(l, "%s: a ward needs 'target', the cards it protects.",
                   where);
    else
      parse_filter(l, sub, target, F_WARD, d, t, &t->target);
  } else if (op_has_target(t->op)) {
    if (target)
      parse_filter(l, sub, target, F_TARGET, d, t, &t->target);
    else if (t->op != DIS_OP_NEGATE)
      eng_load_err(l, "%s: a %s needs 'target'.", where, op_names[t->op]);
  } else if (target && (t->op != DIS_OP_NONE || t->mod != DIS_MOD_NONE)) {
    eng_load_err(l, "%s: a %s takes no 'target'.", where,
                 always ? mod_ids[t->mod] : op_ids[t->op]);
  }

  /* NEGATE cancels the entry beneath it: there is one only when its
   * controller adds it on their turn or it answers an entry. */
  if (t->op == DIS_OP_NEGATE && t->trigger != DIS_TR_OWN_TURN &&
      t->answers != DIS_AN_TRAIT)
    eng_load_err(l, "%s: NEGATE only with trigger own_turn or answers trait.",
                 where);
  return true;
}

/* Case-insensitive strstr within text[0..len). */
static bool says(const char *text, size_t len, const char *word) {
  size_t w = strlen(word);
  for (size_t i = 0; i + w <= len; i++) {
    size_t k = 0;
    while (k < w && (text[i + k] | 0x20) == (word[k] | 0x20))
      k++;
    if (k == w)
      return true;
  }
  return false;
}

/* Checks that c's text is its traits in order, each beginning with its
 * symbol (the first at the start), and that each trait's part of the
 * text names what it does (its keyword, a ward's ops, an alias's
 * letter). */
static void check_text(loader *l, const char *where, const dis_card *c) {
  int found[8], n = 0;
  size_t at[8];
  for (size_t i = 0; c->text[i] && n < 8;) {
    int s = -1;
    for (int k = 0; k < DIS_TIMINGS && s < 0; k++)
      if (strncmp(c->text + i, timing_symbols[k], strlen(timing_symbols[k])) ==
          0)
        s = k;
    if (s < 0) {
      i++;
      continue;
    }
    at[n] = i;
    found[n++] = s;
    i += strlen(timing_symbols[s]);
  }
  bool same = n == c->n_traits && (n == 0 || at[0] == 0);
  for (int k = 0; k < n && same; k++)
    same = found[k] == c->t[k].timing;
  if (!same) {
    char want[32] = "";
    for (int k = 0; k < c->n_traits; k++)
      snprintf(want + strlen(want), sizeof want - strlen(want), "%s%s",
               k ? " then " : "", timing_symbols[c->t[k].timing]);
    eng_load_err(
        l,
        "%s: the text must be its traits in order, each beginning with its "
        "symbol (%s).",
        where, want);
    return;
  }
  for (int k = 0; k < n; k++) {
    const dis_trait *t = &c->t[k];
    const char *part = c->text + at[k];
    size_t len = (k + 1 < n ? at[k + 1] : strlen(c->text)) - at[k];
    if (t->op != DIS_OP_NONE && !says(part, len, op_names[t->op]))
      eng_load_err(l, "%s: the text of trait %d does not say %s.", where, k + 1,
                   op_names[t->op]);
    for (int op = 0; op < DIS_OPS; op++)
      if (t->against & 1u << op && !says(part, len, op_names[op]))
        eng_load_err(l,
                     "%s: the text of trait %d does not say that it stops %s.",
                     where, k + 1, op_names[op]);
    char dna[8];
    snprintf(dna, sizeof dna, "DNA %c", 'A' + (t->letter < 0 ? 0 : t->letter));
    if (t->mod == DIS_MOD_ALIAS && t->letter >= 0 && !says(part, len, dna))
      eng_load_err(l, "%s: the text of trait %d does not say '%s'.", where,
                   k + 1, dna);
  }
}

static const char *const card_keys[] = {"id",     "name", "kind",   "dna",
                                        "colour", "text", "traits", NULL};

/* "card 'id'", or "card N" (1-based, in its file) before the id is
 * known. */
static void card_where(char *where, size_t cap, const dis_card *c, int k) {
  if (c->id[0])
    snprintf(where, cap, "card '%s'", c->id);
  else
    snprintf(where, cap, "card %d", k + 1);
}

/* First pass over card k of its file: what filters and the checks need
 * (id, name, kind, DNA, colour, text). kind is what the file holds. */
static void parse_card_head(loader *l, const json_t *o, int kind, int deck,
                            int k, dis_card *c) {
  memset(c, 0, sizeof *c);
  c->kind = (uint8_t)kind;
  c->deck = (int8_t)deck;
  c->letter = -1;
  char where[64];
  card_where(where, sizeof where, c, k);
  if (!json_is_object(o)) {
    eng_load_err(l, "%s: a card must be an object.", where);
    return;
  }
  get_id(l, where, o, c->id, sizeof c->id);
  card_where(where, sizeof where, c, k);
  eng_load_keys(l, where, o, card_keys);
  eng_load_str(l, where, o, "name", c->name, sizeof c->name, true);
  eng_load_str(l, where, o, "text", c->text, sizeof c->text, true);
  const char *ks = json_string_value(json_object_get(o, "kind"));
  if (!ks || strcmp(ks, kind_ids[kind]) != 0)
    eng_load_err(l, "%s: 'kind' must be %s in a %s.", where, kind_ids[kind],
                 kind == DIS_KIND_VILLAIN ? "villain pool" : "deck design");
  int colour =
      get_word(l, where, o, "colour", colour_ids, 0, COUNT(colour_ids), true);
  c->colour = colour < 0 ? 0 : (uint8_t)colour;
  const char *dna = json_string_value(json_object_get(o, "dna"));
  if (!dna) {
    eng_load_err(l, "%s: 'dna' is missing (%s).", where,
                 kind == DIS_KIND_MONSTER ? "one of A-D" : "a DNA Sequence");
  } else if (kind == DIS_KIND_MONSTER) {
    c->letter = (int8_t)(strlen(dna) == 1 ? dis_dna_letter(dna[0]) : -1);
    if (c->letter < 0)
      eng_load_err(l, "%s: a Monster's 'dna' is one of A-D, not '%s'.", where,
                   dna);
  } else {
    /* dis_dna_valid is the format's rule; its last part (at most four
     * letters needed) holds for any four symbols. */
    char why[120];
    if (!dis_dna_valid(dna, why, sizeof why))
      eng_load_err(l, "%s: the Sequence %s", where, why);
    else
      memcpy(c->seq, dna, DIS_SEQ + 1);
  }
}

/* Second pass: card c's traits (d holds every card's head). */
static void parse_card_traits(loader *l, const json_t *o, const dis_data *d,
                              int k, dis_card *c) {
  char where[64], sub[96];
  card_where(where, sizeof where, c, k);
  if (!json_is_object(o))
    return; /* told by the first pass */
  json_t *a = json_object_get(o, "traits");
  if (!json_is_array(a) || json_array_size(a) < 1 || json_array_size(a) > 2) {
    eng_load_err(l, "%s: 'traits' must be a list of 1 or 2 traits.", where);
    return;
  }
  int per[DIS_TIMINGS] = {0};
  size_t i;
  json_t *t;
  json_array_foreach(a, i, t) {
    snprintf(sub, sizeof sub, "%s, trait %d", where, (int)i + 1);
    if (parse_trait(l, sub, t, d, c, &c->t[i]))
      per[c->t[i].timing]++;
    c->n_traits = (uint8_t)(i + 1);
  }
  int marked = per[DIS_T_TIMED] + per[DIS_T_INTERRUPT] + per[DIS_T_AFTER_MINT];
  if (per[DIS_T_IMMEDIATE] > 1)
    eng_load_err(l, "%s: two immediate traits; a card has at most one.", where);
  if (per[DIS_T_ALWAYS] > 1)
    eng_load_err(l, "%s: two always traits; a card has at most one.", where);
  if (marked > 1)
    eng_load_err(
        l,
        "%s: two traits marked when used (timed, interrupt, after_mint); a "
        "card has at most one.",
        where);
  if (c->text[0])
    check_text(l, where, c);
}

/* ---- the files ----------------------------------------------------------- */

static const char *const pool_keys[] = {"type", "villains", NULL};
static const char *const design_keys[] = {"type",  "id",       "name",
                                          "guide", "monsters", NULL};

/* Reads a design file's own keys (not its Monsters) into *g. */
static void parse_design_head(loader *l, const json_t *root, dis_design *g) {
  memset(g, 0, sizeof *g);
  eng_load_keys(l, "the design", root, design_keys);
  get_id(l, "the design", root, g->id, sizeof g->id);
  eng_load_str(l, "the design", root, "name", g->name, sizeof g->name, true);
  eng_load_str(l, "the design", root, "guide", g->guide, sizeof g->guide, true);
}

/* Whether four Monsters of each letter hold two disjoint sets of four
 * that mint Sequences a and b. Sets are tried as sorted letters, so
 * each multiset once. */
static bool mintable_together(const char *a, const char *b) {
  static const int8_t plain[DIS_SEQ] = {-1, -1, -1, -1};
  for (int x = 0; x < 256; x++) {
    int8_t sa[DIS_SEQ] = {(int8_t)(x & 3), (int8_t)(x >> 2 & 3),
                          (int8_t)(x >> 4 & 3), (int8_t)(x >> 6 & 3)};
    if (sa[0] > sa[1] || sa[1] > sa[2] || sa[2] > sa[3] ||
        !dis_dna_match(a, sa, plain))
      continue;
    for (int y = 0; y < 256; y++) {
      int8_t sb[DIS_SEQ] = {(int8_t)(y & 3), (int8_t)(y >> 2 & 3),
                            (int8_t)(y >> 4 & 3), (int8_t)(y >> 6 & 3)};
      if (sb[0] > sb[1] || sb[1] > sb[2] || sb[2] > sb[3])
        continue;
      int used[DIS_LETTERS] = {0};
      for (int k = 0; k < DIS_SEQ; k++)
        used[sa[k]]++, used[sb[k]]++;
      bool fits = true;
      for (int k = 0; k < DIS_LETTERS; k++)
        fits = fits && used[k] <= 4;
      if (fits && dis_dna_match(b, sb, plain))
        return true;
    }
  }
  return false;
}

/* Whether card c has a trait of op (or, op < 0, of timing). */
static bool card_has(const dis_card *c, int op, int timing) {
  for (int k = 0; k < c->n_traits; k++)
    if (op >= 0 ? c->t[k].op == op : c->t[k].timing == timing)
      return true;
  return false;
}

/* The keyword ops and timings of cards [first, first + n): each design
 * holds every one; the whole content has each on three cards. Reports
 * each one on fewer than `least` cards, as `what` ("the design
 * 'emberwick'"). */
static void check_coverage(loader *l, const dis_data *d, int first, int n,
                           int least, const char *what) {
  for (int k = 0; k < COUNT(keyword_ops); k++) {
    int have = 0;
    for (int i = first; i < first + n; i++)
      have += card_has(&d->cards[i], keyword_ops[k], -1);
    if (have < least)
      eng_load_err(l, "%s has %s on %d card%s; it needs at least %d.", what,
                   op_names[keyword_ops[k]], have, have == 1 ? "" : "s", least);
  }
  for (int tm = 0; tm < DIS_TIMINGS; tm++) {
    int have = 0;
    for (int i = first; i < first + n; i++)
      have += card_has(&d->cards[i], -1, tm);
    if (have < least)
      eng_load_err(l,
                   "%s has %s (%s) traits on %d card%s; it needs at least %d.",
                   what, timing_symbols[tm], timing_ids[tm], have,
                   have == 1 ? "" : "s", least);
  }
}

/* The files being read: their JSON, which is the pool, and the designs'
 * files in the order of out->designs. */
typedef struct files {
  json_t *roots[DIS_MAX_DESIGNS + 1];
  int pool;                    /* -1: none */
  int design[DIS_MAX_DESIGNS]; /* file of out->designs[g] */
} files;

/* One file's cards: its list in the JSON, and where they went in
 * out->cards. */
typedef struct file_cards {
  const char *name;
  const json_t *list; /* villains or monsters */
  bool pool;
  int first, n;
} file_cards;

/* Parses each text, tells the pool from the designs, reads the designs'
 * own keys into out->designs and sorts them by id (a design's number is
 * stable whatever the file order). */
static void read_files(loader *l, const char *const *texts,
                       const char *const *names, int n, dis_data *out,
                       files *fs) {
  fs->pool = -1;
  for (int i = 0; i < n; i++) {
    l->file = names[i];
    fs->roots[i] = parse_object(l, texts[i]);
    if (!fs->roots[i])
      continue;
    const char *type = json_string_value(json_object_get(fs->roots[i], "type"));
    if (type && strcmp(type, "villain_pool") == 0) {
      if (fs->pool >= 0)
        eng_load_err(l, "a second villain pool (the first is %s).",
                     names[fs->pool]);
      else
        fs->pool = i;
    } else if (type && strcmp(type, "deck_design") == 0) {
      if (out->n_designs < DIS_MAX_DESIGNS) {
        parse_design_head(l, fs->roots[i], &out->designs[out->n_designs]);
        fs->design[out->n_designs++] = i;
      } else {
        eng_load_err(l, "more than %d deck designs.", DIS_MAX_DESIGNS);
      }
    } else {
      eng_load_err(l, "'type' must be villain_pool or deck_design.");
    }
  }
  l->file = NULL;
  if (fs->pool < 0)
    eng_load_err(l, "no villain pool (a file of type villain_pool).");
  if (out->n_designs == 0)
    eng_load_err(l, "no deck design (a file of type deck_design).");
  dis_design *g = out->designs;
  for (int i = 1; i < out->n_designs; i++)
    for (int k = i; k > 0 && strcmp(g[k - 1].id, g[k].id) > 0; k--) {
      dis_design t = g[k];
      g[k] = g[k - 1];
      g[k - 1] = t;
      int f = fs->design[k];
      fs->design[k] = fs->design[k - 1];
      fs->design[k - 1] = f;
    }
  for (int i = 1; i < out->n_designs; i++) {
    l->file = names[fs->design[i]];
    if (g[i].id[0] && strcmp(g[i].id, g[i - 1].id) == 0)
      eng_load_err(l, "the design id '%s' is also %s's.", g[i].id,
                   names[fs->design[i - 1]]);
    for (int k = 0; k < i; k++)
      if (g[i].name[0] && strcmp(g[i].name, g[k].name) == 0)
        eng_load_err(l, "the design name '%s' is also %s's.", g[i].name,
                     names[fs->design[k]]);
  }
}

/* Reads the head of every card of fc[0..n) into out->cards, in order. */
static void read_heads(loader *l, file_cards *fc, int n, dis_data *out) {
  bool full = false;
  for (int f = 0; f < n; f++) {
    l->file = fc[f].name;
    fc[f].first = out->n_cards;
    if (!json_is_array(fc[f].list)) {
      eng_load_err(l, "'%s' must be a list of cards.",
                   fc[f].pool ? "villains" : "monsters");
      continue;
    }
    int deck = fc[f].pool ? -1 : f - (fc[0].pool ? 1 : 0);
    size_t k;
    json_t *c;
    json_array_foreach(fc[f].list, k, c) {
      if (out->n_cards >= DIS_MAX_CARDS) {
        if (!full)
          eng_load_err(l, "more than %d cards in all.", DIS_MAX_CARDS);
        full = true;
        break;
      }
      parse_card_head(l, c, fc[f].pool ? DIS_KIND_VILLAIN : DIS_KIND_MONSTER,
                      deck, (int)k, &out->cards[out->n_cards++]);
      fc[f].n++;
    }
  }
}

/* Ids and names are unique among all cards: saves hold ids, and filters
 * and people name cards. Each repeat is told in the later card's file. */
static void check_unique(loader *l, const file_cards *fc, int n,
                         const dis_data *d) {
  for (int f = 0; f < n; f++)
    for (int i = fc[f].first; i < fc[f].first + fc[f].n; i++) {
      const dis_card *c = &d->cards[i];
      l->file = fc[f].name;
      for (int g = 0; g <= f; g++)
        for (int k = fc[g].first; k < i && k < fc[g].first + fc[g].n; k++) {
          const dis_card *e = &d->cards[k];
          if (c->id[0] && strcmp(c->id, e->id) == 0)
            eng_load_err(l, "card '%s': the id is taken by a card of %s.",
                         c->id, fc[g].name);
          if (c->name[0] && strcmp(c->name, e->name) == 0)
            eng_load_err(
                l, "card '%s': the name '%s' is taken by card '%s' of %s.",
                c->id, c->name, e->id, fc[g].name);
        }
    }
}

/* The pool: at least 10 Villains (at most DIS_MAX_POOL), any two minted
 * together; fills out->pool. */
static void check_pool(loader *l, const file_cards *fc, dis_data *out) {
  l->file = fc->name;
  if (fc->n < 10)
    eng_load_err(l, "the pool has %d Villains; it needs at least 10.", fc->n);
  if (fc->n > DIS_MAX_POOL)
    eng_load_err(l, "the pool has %d Villains; at most %d.", fc->n,
                 DIS_MAX_POOL);
  out->n_pool = fc->n > DIS_MAX_POOL ? DIS_MAX_POOL : fc->n;
  for (int i = 0; i < out->n_pool; i++)
    out->pool[i] = (uint16_t)(fc->first + i);
  for (int i = 0; i < out->n_pool; i++)
    for (int k = i + 1; k < out->n_pool; k++) {
      const dis_card *a = &out->cards[out->pool[i]];
      const dis_card *b = &out->cards[out->pool[k]];
      if (a->seq[0] && b->seq[0] && !mintable_together(a->seq, b->seq))
        eng_load_err(
            l,
            "Villains '%s' (%s) and '%s' (%s) cannot be minted together "
            "from four Monsters of each letter.",
            a->id, a->seq, b->id, b->seq);
    }
}

/* Design g: 16 Monsters, four of each letter, every keyword op and
 * every timing; fills its monsters[]. */
static void check_design(loader *l, const file_cards *fc, dis_data *out,
                         int g) {
  dis_design *dg = &out->designs[g];
  l->file = fc->name;
  char what[64];
  snprintf(what, sizeof what, "the design '%s'", dg->id);
  if (fc->n != 16)
    eng_load_err(l, "%s has %d Monsters, not 16.", what, fc->n);
  int letters[DIS_LETTERS] = {0};
  for (int k = 0; k < fc->n; k++) {
    const dis_card *c = &out->cards[fc->first + k];
    if (c->letter >= 0)
      letters[c->letter]++;
    if (k < 16)
      dg->monsters[k] = (uint16_t)(fc->first + k);
  }
  for (int x = 0; x < DIS_LETTERS; x++)
    if (letters[x] != 4)
      eng_load_err(l, "%s has %d Monsters of DNA %c, not 4.", what, letters[x],
                   'A' + x);
  check_coverage(l, out, fc->first, fc->n, 1, what);
}

int dis_data_parse(const char *const *texts, const char *const *names, int n,
                   dis_data *out, void (*report)(void *ctx, const char *msg),
                   void *ctx) {
  loader l = {.report = report, .ctx = ctx, .game = "disorder"};
  memset(out, 0, sizeof *out);
  if (n < 2 || n > DIS_MAX_DESIGNS + 1) {
    eng_load_err(
        &l,
        "%d data files; the game needs a villain pool and 1 to %d deck "
        "designs.",
        n, DIS_MAX_DESIGNS);
    return l.errors;
  }
  files fs = {0};
  read_files(&l, texts, names, n, out, &fs);

  /* The cards: the pool's first, then each design's in order. Every
   * card's head is read before any card's traits, which may name a
   * card of any file. */
  file_cards fc[DIS_MAX_DESIGNS + 1];
  int n_fc = 0;
  if (fs.pool >= 0) {
    l.file = names[fs.pool];
    eng_load_keys(&l, "the pool", fs.roots[fs.pool], pool_keys);
    fc[n_fc++] =
        (file_cards){.name = names[fs.pool],
                     .list = json_object_get(fs.roots[fs.pool], "villains"),
                     .pool = true};
  }
  for (int g = 0; g < out->n_designs; g++)
    fc[n_fc++] = (file_cards){
        .name = names[fs.design[g]],
        .list = json_object_get(fs.roots[fs.design[g]], "monsters")};
  read_heads(&l, fc, n_fc, out);
  check_unique(&l, fc, n_fc, out);
  for (int f = 0; f < n_fc; f++) {
    l.file = fc[f].name;
    for (int k = 0; k < fc[f].n; k++)
      parse_card_traits(&l, json_array_get(fc[f].list, (size_t)k), out, k,
                        &out->cards[fc[f].first + k]);
  }

  if (fs.pool >= 0)
    check_pool(&l, &fc[0], out);
  for (int g = 0; g < out->n_designs; g++)
    check_design(&l, &fc[g + (fs.pool >= 0)], out, g);
  l.file = NULL;
  check_coverage(&l, out, 0, out->n_cards, 3, "the whole content");

  for (int i = 0; i < n; i++)
    json_decref(fs.roots[i]);
  return l.errors;
}

int dis_card_find(const dis_data *d, const char *id) {
  for (int i = 0; d && id && i < d->n_cards; i++)
    if (strcmp(d->cards[i].id, id) == 0)
      return i;
  return -1;
}

/* ---- the built-in data --------------------------------------------------- */

static dis_data loaded;
static int load_errors = -1;
static once_flag load_once = ONCE_FLAG_INIT;

static void to_stderr(void *ctx, const char *msg) {
  (void)ctx;
  fprintf(stderr, "lair: disorder data: %s\n", msg);
}

/* Parses every blob "disorder/NAME.json". */
static void load(void) {
  enum { MAX = DIS_MAX_DESIGNS + 2 }; /* one more than allowed: refused */
  const char *texts[MAX], *names[MAX];
  int n = 0;
  for (size_t i = 0; i < eng_n_blobs && n < MAX; i++)
    if (strncmp(eng_blobs[i].name, "disorder/", 9) == 0) {
      texts[n] = eng_blobs[i].text;
      names[n++] = eng_blobs[i].name;
    }
  load_errors = dis_data_parse(texts, names, n, &loaded, to_stderr, NULL);
}

const dis_data *dis_data_get(void) {
  call_once(&load_once, load);
  return load_errors == 0 ? &loaded : NULL;
}

/* ---- the card list ------------------------------------------------------- */

/* A filter in the data's form (new reference, NULL when out of memory). */
static json_t *filter_json(const dis_data *d, const dis_filter *f) {
  json_t *o = json_object();
  if (!o)
    return NULL;
  if (f->subject) {
    json_object_set_new(o, "subject", json_true());
    return o;
  }
  if (f->side != DIS_SIDE_NONE)
    json_object_set_new(o, "side", json_string(NAME_OF(side_ids, f->side)));
  if (f->kind != DIS_KIND_CARD)
    json_object_set_new(o, "kind", json_string(NAME_OF(kind_ids, f->kind)));
  if (f->dna) {
    json_t *a = json_array();
    for (int k = 0; k < DIS_LETTERS; k++)
      if (f->dna & 1u << k)
        json_array_append_new(a, json_stringn(&"ABCD"[k], 1));
    json_object_set_new(o, "dna", a);
  }
  if (f->colour) {
    json_t *a = json_array();
    for (int k = 0; k < DIS_COLOURS; k++)
      if (f->colour & 1u << k)
        json_array_append_new(a, json_string(colour_ids[k]));
    json_object_set_new(o, "colour", a);
  }
  if (f->n_names) {
    json_t *a = json_array();
    for (int k = 0; k < f->n_names; k++)
      json_array_append_new(a, json_string(d->cards[f->names[k]].id));
    json_object_set_new(o, "name", a);
  }
  if (f->other)
    json_object_set_new(o, "other", json_true());
  return o;
}

/* Whether a filter holds anything (an optional target that is absent
 * reads as an empty one). */
static bool filter_given(const dis_filter *f) {
  return f->subject || f->side || f->kind != DIS_KIND_CARD || f->dna ||
         f->colour || f->n_names || f->other;
}

/* A trait in the data's form (new reference, NULL when out of memory). */
static json_t *trait_json(const dis_data *d, const dis_trait *t) {
  json_t *o = json_pack("{ss}", "timing", dis_timing_id(t->timing));
  if (!o)
    return NULL;
  if (t->timing == DIS_T_TIMED)
    json_object_set_new(o, "trigger",
                        json_string(NAME_OF(trigger_ids, t->trigger)));
  if (t->timing == DIS_T_INTERRUPT)
    json_object_set_new(o, "answers",
                        json_string(NAME_OF(answer_ids, t->answers)));
  if (t->has_on)
    json_object_set_new(o, "on", filter_json(d, &t->on));
  if (t->op != DIS_OP_NONE)
    json_object_set_new(o, "op", json_string(dis_op_id(t->op)));
  if (t->op == DIS_OP_DRAW || t->op == DIS_OP_DISCARD)
    json_object_set_new(o, "n", json_integer(t->n));
  if (t->mod != DIS_MOD_NONE)
    json_object_set_new(o, "mod", json_string(NAME_OF(mod_ids, t->mod)));
  if (t->mod == DIS_MOD_WARD) {
    json_t *a = json_array();
    for (int op = 0; op < DIS_OPS; op++)
      if (t->against & 1u << op)
        json_array_append_new(a, json_string(dis_op_id(op)));
    json_object_set_new(o, "against", a);
  }
  if (t->mod == DIS_MOD_ALIAS && t->letter >= 0)
    json_object_set_new(o, "letter", json_stringn(&"ABCD"[t->letter], 1));
  if (t->mod == DIS_MOD_WARD ||
      (op_has_target(t->op) &&
       (t->op != DIS_OP_NEGATE || filter_given(&t->target))))
    json_object_set_new(o, "target", filter_json(d, &t->target));
  return o;
}

/* Card i as the card list shows it (new reference, NULL when out of
 * memory). */
static json_t *card_json(const dis_data *d, int i) {
  const dis_card *c = &d->cards[i];
  char dna[DIS_SEQ + 1] = {0};
  if (c->kind == DIS_KIND_MONSTER && c->letter >= 0)
    dna[0] = (char)('A' + c->letter);
  else
    memcpy(dna, c->seq, sizeof dna);
  json_t *traits = json_array();
  for (int k = 0; traits && k < c->n_traits; k++)
    if (json_array_append_new(traits, trait_json(d, &c->t[k]))) {
      json_decref(traits);
      traits = NULL;
    }
  if (!traits)
    return NULL;
  return json_pack("{ss ss ss ss ss ss ss so}", "deck",
                   c->deck < 0 ? "pool" : d->designs[c->deck].id, "id", c->id,
                   "name", c->name, "kind", kind_ids[c->kind], "dna", dna,
                   "colour", dis_colour_id(c->colour), "text", c->text,
                   "traits", traits);
}

json_t *dis_cards_json(const dis_data *d) {
  json_t *out = json_array();
  for (int k = 0; out && k < d->n_pool; k++)
    if (json_array_append_new(out, card_json(d, d->pool[k]))) {
      json_decref(out);
      return NULL;
    }
  for (int g = 0; out && g < d->n_designs; g++)
    for (int k = 0; k < 16; k++)
      if (json_array_append_new(out, card_json(d, d->designs[g].monsters[k]))) {
        json_decref(out);
        return NULL;
      }
  return out;
}

/* A table row: name, DNA, colour, the text. */
static void card_row(eng_md *m, const dis_card *c) {
  eng_md_str(m, "| ");
  eng_md_cell(m, c->name);
  if (c->kind == DIS_KIND_MONSTER)
    eng_md_printf(m, " | %c", 'A' + (c->letter < 0 ? 0 : c->letter));
  else
    eng_md_printf(m, " | %s", c->seq);
  eng_md_printf(m, " | %s | ", dis_colour_name(c->colour));
  eng_md_cell(m, c->text);
  eng_md_str(m, " |\n");
}

char *dis_cards_markdown(const dis_data *d) {
  eng_md m = {0};
  eng_md_str(&m, "### The pool\n\n| Villain | Sequence | Colour | Traits |\n"
                 "|---|---|---|---|\n");
  for (int k = 0; k < d->n_pool; k++)
    card_row(&m, &d->cards[d->pool[k]]);
  for (int g = 0; g < d->n_designs; g++) {
    const dis_design *dg = &d->designs[g];
    eng_md_str(&m, "\n### ");
    eng_md_cell(&m, dg->name);
    eng_md_printf(&m, " (`%s`)\n\n", dg->id);
    eng_md_cell(&m, dg->guide);
    eng_md_str(&m, "\n\n| Monster | DNA | Colour | Traits |\n"
                   "|---|---|---|---|\n");
    for (int k = 0; k < 16; k++)
      card_row(&m, &d->cards[dg->monsters[k]]);
  }
  return eng_md_take(&m);
}
