/*
 * cmd_lang.c: the languages Lair answers in, and its message catalogue.
 *
 * Every fixed text of the command layer is written in English in the
 * code, marked where it is shown (cmd_tr, T(); N_() where a table holds
 * it), and looked up by that English text in the catalogue of the
 * reader's language: commands/locale/LANG/NAME.json, each a JSON object
 * {"English text": "its translation"}, embedded at build time
 * (cmake/embed.cmake). The catalogue is our own rather than
 * gettext's: gettext picks the language from the process's locale
 * (setlocale/uselocale, and a de_DE locale installed on the host), while
 * one Lair process answers each user in their own language, message by
 * message, and must run the same on a bare server or in a container.
 * tests/lang_check.py fails when a marked text has no German form or a
 * translation's printf conversions differ from its English text's; the
 * catalogue is checked again when it is loaded (cmd_lang_check), and an
 * entry whose conversions differ is never used.
 *
 * Which language: a user's /prefs language (en, de, or auto: the locale
 * of their Discord client, as their latest command carried it); a
 * server's channels, its /gamemod settings language (auto: the server's
 * own Discord locale, as the latest command there carried it). What
 * "auto" found is kept in the settings table under "locale" so that a
 * DM or a channel message that no command of theirs caused (another
 * player's move, a timer) speaks the same language.
 */
#include "cmd_docs.h"
#include "cmd_int.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>

typedef struct entry {
  const char *en, *text;
} entry;

static struct {
  entry *entries[CMD_LANG_N];
  size_t n[CMD_LANG_N];
  json_t *roots; /* keeps the strings alive */
  char why[300];
} cat;
static once_flag cat_once = ONCE_FLAG_INIT;

static const char *const codes[CMD_LANG_N] = {"en", "de"};

const char *cmd_lang_code(cmd_lang lang) {
  return lang >= 0 && lang < CMD_LANG_N ? codes[lang] : "en";
}

cmd_lang cmd_lang_of_locale(const char *locale) {
  if (!locale)
    return CMD_LANG_EN;
  for (int l = 1; l < CMD_LANG_N; l++) {
    size_t k = strlen(codes[l]);
    if (strncmp(locale, codes[l], k) == 0 &&
        (locale[k] == '\0' || locale[k] == '-' || locale[k] == '_'))
      return (cmd_lang)l;
  }
  return CMD_LANG_EN;
}

/* The printf conversions of fmt as a string, one "N:type;" per argument
 * (N its position, 1 first; "%%" none), so that two texts take the same
 * arguments exactly when their signatures are equal; false if fmt is not
 * a format this code accepts (a '*' width, positions mixed with none). */
static bool conversions(const char *fmt, char *out, size_t cap) {
  size_t o = 0;
  int next = 1, positional = -1;
  struct {
    int pos;
    char type[8];
  } conv[32];
  int n = 0;
  for (const char *p = fmt; *p; p++) {
    if (*p != '%')
      continue;
    p++;
    if (*p == '%')
      continue;
    int pos = 0;
    const char *q = p;
    while (*q >= '0' && *q <= '9')
      pos = pos * 10 + (*q++ - '0');
    bool has_pos = *q == '$' && q > p;
    if (has_pos)
      p = q + 1;
    if (positional >= 0 && positional != has_pos)
      return false;
    positional = has_pos;
    while (*p && strchr("-+ #0'", *p))
      p++;
    while (*p >= '0' && *p <= '9')
      p++;
    if (*p == '.') {
      p++;
      while (*p >= '0' && *p <= '9')
        p++;
    }
    if (*p == '*')
      return false;
    char type[8];
    size_t t = 0;
    while (*p && strchr("hljztL", *p) && t < sizeof type - 2)
      type[t++] = *p++;
    if (!*p || !strchr("diouxXeEfgGcspaA", *p) || n == 32)
      return false;
    type[t++] = *p == 'i' ? 'd' : *p; /* %i and %d take the same */
    type[t] = '\0';
    conv[n].pos = has_pos ? pos : next++;
    memcpy(conv[n].type, type, t + 1);
    n++;
  }
  for (int pos = 1; pos <= n; pos++) {
    int found = -1;
    for (int i = 0; i < n; i++)
      if (conv[i].pos == pos) {
        if (found >= 0)
          return false; /* one argument twice */
        found = i;
      }
    if (found < 0)
      return false; /* an argument left out */
    int w = snprintf(out + o, cap - o, "%d:%s;", pos, conv[found].type);
    if (w < 0 || (size_t)w >= cap - o)
      return false;
    o += (size_t)w;
  }
  out[o] = '\0';
  return true;
}

bool cmd_lang_same_args(const char *a, const char *b) {
  char sa[400], sb[400];
  return conversions(a, sa, sizeof sa) && conversions(b, sb, sizeof sb) &&
         strcmp(sa, sb) == 0;
}

static int by_en(const void *a, const void *b) {
  return strcmp(((const entry *)a)->en, ((const entry *)b)->en);
}

__attribute__((format(printf, 1, 0))) static void
fail(const char *fmt, const char *a, const char *b) {
  if (!cat.why[0])
    snprintf(cat.why, sizeof cat.why, fmt, a, b);
}

static void load(void) {
  cat.roots = json_array();
  size_t cap[CMD_LANG_N] = {0};
  for (size_t i = 0; cat.roots && i < cmd_locale_docs_n; i++) {
    const cmd_doc *d = &cmd_locale_docs[i];
    const char *slash = strchr(d->id, '/');
    cmd_lang lang = CMD_LANG_EN;
    for (int l = 1; slash && l < CMD_LANG_N; l++)
      if ((size_t)(slash - d->id) == strlen(codes[l]) &&
          strncmp(d->id, codes[l], strlen(codes[l])) == 0)
        lang = (cmd_lang)l;
    if (lang == CMD_LANG_EN) {
      fail(K_("catalogue %s: no such language"), d->id, "");
      continue;
    }
    json_error_t err;
    json_t *root = json_loadb(d->text, d->len, JSON_REJECT_DUPLICATES, &err);
    if (!json_is_object(root)) {
      fail(K_("catalogue %s is not a JSON object: %s"), d->id, err.text);
      json_decref(root);
      continue;
    }
    json_array_append_new(cat.roots, root);
    const char *en;
    json_t *v;
    json_object_foreach(root, en, v) {
      const char *text = json_string_value(v);
      if (!text || !text[0]) {
        fail(K_("catalogue %s: the text for \"%.200s\" is not a string"), d->id,
             en);
        continue;
      }
      if (!cmd_lang_same_args(en, text)) {
        fail(K_("catalogue %s: \"%.200s\" takes other arguments than its "
                "English text"),
             d->id, text);
        continue;
      }
      if (cat.n[lang] == cap[lang]) {
        cap[lang] = cap[lang] ? cap[lang] * 2 : 512;
        entry *e = realloc(cat.entries[lang], cap[lang] * sizeof *e);
        if (!e) {
          fail(K_("catalogue %s: out of memory%s"), d->id, "");
          return;
        }
        cat.entries[lang] = e;
      }
      cat.entries[lang][cat.n[lang]++] = (entry){en, text};
    }
  }
  for (int l = 1; l < CMD_LANG_N; l++) {
    if (!cat.n[l])
      continue;
    qsort(cat.entries[l], cat.n[l], sizeof(entry), by_en);
    /* One English text translated twice (in two files): the same
     * translation is fine, two different ones are a mistake. */
    size_t k = 0;
    for (size_t i = 0; i < cat.n[l]; i++) {
      if (k && strcmp(cat.entries[l][k - 1].en, cat.entries[l][i].en) == 0) {
        if (strcmp(cat.entries[l][k - 1].text, cat.entries[l][i].text) != 0)
          fail(K_("catalogue %s: \"%.200s\" is translated in two ways"),
               codes[l], cat.entries[l][i].en);
        continue;
      }
      cat.entries[l][k++] = cat.entries[l][i];
    }
    cat.n[l] = k;
  }
}

const char *cmd_lang_check(void) {
  call_once(&cat_once, load);
  return cat.why[0] ? cat.why : NULL;
}

const char *cmd_tr(cmd_lang lang, const char *english) {
  if (lang <= CMD_LANG_EN || lang >= CMD_LANG_N || !english)
    return english;
  call_once(&cat_once, load);
  entry key = {english, NULL};
  const entry *e = cat.n[lang] ? bsearch(&key, cat.entries[lang], cat.n[lang],
                                         sizeof key, by_en)
                               : NULL;
  return e ? e->text : english;
}

const char *cmd_trn(cmd_lang lang, long n, const char *one, const char *many) {
  return cmd_tr(lang, n == 1 ? one : many);
}

bool cmd_lang_has(cmd_lang lang, const char *english) {
  return lang == CMD_LANG_EN || cmd_tr(lang, english) != english;
}

/* ---- who reads which language ------------------------------------------ */

/* The language stored in scope: key's value there ("auto", "en", "de"),
 * or -1 when none is (or "auto"). */
static int stored(cmd_ctx *c, const char *scope, const char *key) {
  char v[16];
  if (sto_setting_get(c->cfg.db, scope, key, v, sizeof v) != STO_OK)
    return -1;
  for (int l = 0; l < CMD_LANG_N; l++)
    if (strcmp(v, codes[l]) == 0)
      return l;
  return -1;
}

void cmd_lang_forget(cmd_ctx *c) { c->n_langs = 0; }

/* The language scope chose ("language"), else the one "auto" found
 * there ("locale"), else English; read once a command (cmd_ctx.langs). */
static cmd_lang scope_lang(cmd_ctx *c, const char *scope) {
  int n = c->n_langs < 8 ? c->n_langs : 8;
  for (int i = 0; i < n; i++)
    if (strcmp(c->langs[i].scope, scope) == 0)
      return c->langs[i].lang;
  int l = stored(c, scope, "language");
  if (l < 0)
    l = stored(c, scope, "locale");
  cmd_lang lang = l < 0 ? CMD_LANG_EN : (cmd_lang)l;
  int k = c->n_langs++ % 8; /* the oldest make room */
  snprintf(c->langs[k].scope, sizeof c->langs[k].scope, "%s", scope);
  c->langs[k].lang = lang;
  return lang;
}

cmd_lang cmd_lang_user(cmd_ctx *c, const char *user) {
  if (!user || !user[0])
    return CMD_LANG_EN;
  char scope[64];
  cmd_user_scope(user, scope, sizeof scope);
  return scope_lang(c, scope);
}

cmd_lang cmd_lang_guild(cmd_ctx *c, const char *guild) {
  char scope[64];
  cmd_guild_scope(guild, scope, sizeof scope);
  return scope_lang(c, scope);
}

cmd_lang cmd_lang_game(cmd_ctx *c, const live *L) {
  return cmd_lang_guild(c, L ? L->row.guild : "");
}

/* Keeps locale's language in scope's "locale" when it differs from what
 * is kept there (nothing kept reads as English, so English users write
 * nothing). */
static void note(cmd_ctx *c, const char *scope, const char *locale) {
  if (!locale || !locale[0])
    return;
  int l = (int)cmd_lang_of_locale(locale);
  int was = stored(c, scope, "locale");
  if (l == (was < 0 ? CMD_LANG_EN : was))
    return;
  sto_rc rc = sto_setting_set(c->cfg.db, scope, "locale", codes[l]);
  cmd_lang_forget(c);
  if (rc)
    cmd_fail(c,
             "Lair could not save your language (%s). Nothing changed; "
             "send the command again.",
             sto_strerror(rc));
}

void cmd_lang_note(cmd_ctx *c, const cmd_request *r) {
  char scope[64];
  if (r->user && r->user[0] && r->locale) {
    cmd_user_scope(r->user, scope, sizeof scope);
    note(c, scope, r->locale);
  }
  if (r->guild_locale && !r->in_dm) {
    cmd_guild_scope(r->guild, scope, sizeof scope);
    note(c, scope, r->guild_locale);
  }
}

cmd_lang cmd_lang_request(cmd_ctx *c, const cmd_request *r) {
  cmd_lang_forget(c); /* a request begins: read afresh */
  if (!r->user || !r->user[0])
    return CMD_LANG_EN;
  char scope[64];
  cmd_user_scope(r->user, scope, sizeof scope);
  int l = stored(c, scope, "language");
  if (l >= 0)
    return (cmd_lang)l;
  if (r->locale && r->locale[0])
    return cmd_lang_of_locale(r->locale);
  l = stored(c, scope, "locale");
  return l < 0 ? CMD_LANG_EN : (cmd_lang)l;
}
