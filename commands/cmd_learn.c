/*
 * cmd_learn.c: learning a game with Lair: /game help and /game learn.
 *
 * /game help shows a game's rules summary, docs/rules/<game>.md, as the
 * build embedded it (commands/cmd_docs.h): one topic per "## " heading
 * (the text before the first is the "Overview"), in pages that fit a
 * Discord message. The generated card lists (between the cards:begin and
 * cards:end marks) are left out except in the topic that holds them.
 *
 * /game learn starts a tutorial game at once: the requester against the
 * heuristic AI at the smallest table the game allows, its config carrying
 * "learn": true. Its prompts come with a hint (cmd_hint, docs/learn.md),
 * and ratings leave such games out.
 */
#include "cmd_docs.h"
#include "cmd_int.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define HELP_PAGE 1400 /* bytes of rules text a page; the rest is header */
#define HELP_TOPICS 40
#define CARDS_BEGIN "<!-- cards:begin -->"
#define CARDS_END "<!-- cards:end -->"

typedef struct topic {
  char title[80];
  const char *text; /* from its heading line on (the doc's own bytes) */
  size_t len;
} topic;

static const cmd_doc *doc_of(const char *id) {
  for (size_t i = 0; i < cmd_rules_docs_n; i++)
    if (strcmp(cmd_rules_docs[i].id, id) == 0)
      return &cmd_rules_docs[i];
  return NULL;
}

/* Splits d into its topics; returns how many (at most max). */
static int doc_topics(const cmd_doc *d, topic *out, int max) {
  int n = 0;
  const char *p = d->text, *end = d->text + d->len;
  snprintf(out[0].title, sizeof out[0].title, "Overview");
  out[0].text = p;
  n = 1;
  bool fenced = false;
  while (p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *eol = nl ? nl : end;
    if (strncmp(p, "```", 3) == 0)
      fenced = !fenced;
    else if (!fenced && eol - p > 3 && strncmp(p, "## ", 3) == 0 && n < max) {
      out[n - 1].len = (size_t)(p - out[n - 1].text);
      int tl = (int)(eol - p - 3);
      snprintf(out[n].title, sizeof out[n].title, "%.*s", tl, p + 3);
      out[n].text = p;
      n++;
    }
    p = nl ? nl + 1 : end;
  }
  out[n - 1].len = (size_t)(end - out[n - 1].text);
  return n;
}

/* Copies t's text into a new string (the caller frees it; NULL when out
 * of memory), without its card lists unless cards is true. */
static char *topic_text(const topic *t, bool cards) {
  char *buf = malloc(t->len + 1);
  if (!buf)
    return NULL;
  size_t o = 0;
  const char *p = t->text, *end = t->text + t->len;
  while (p < end) {
    const char *b = cards ? NULL : strstr(p, CARDS_BEGIN);
    if (!b || b >= end) {
      memcpy(buf + o, p, (size_t)(end - p));
      o += (size_t)(end - p);
      break;
    }
    memcpy(buf + o, p, (size_t)(b - p));
    o += (size_t)(b - p);
    const char *e = strstr(b, CARDS_END);
    p = e && e < end ? e + strlen(CARDS_END) : end;
  }
  /* No trailing blank lines: a page ends with its text. */
  while (o > 0 && (buf[o - 1] == '\n' || buf[o - 1] == ' '))
    o--;
  buf[o] = '\0';
  return buf;
}

/* The length of the page that starts at text (len bytes left): all of
 * it when it fits, else up to a paragraph's end, else a line's, else a
 * UTF-8 boundary, within HELP_PAGE bytes. */
static size_t page_len(const char *text, size_t len) {
  if (len <= HELP_PAGE)
    return len;
  size_t cut = 0;
  for (size_t k = HELP_PAGE / 2; k + 1 < HELP_PAGE; k++)
    if (text[k] == '\n' && text[k + 1] == '\n')
      cut = k + 2;
  for (size_t k = HELP_PAGE / 2; !cut && k < HELP_PAGE; k++)
    if (text[k] == '\n')
      cut = k + 1;
  if (!cut) {
    cut = HELP_PAGE;
    while (cut > 0 && ((unsigned char)text[cut] & 0xC0) == 0x80)
      cut--;
  }
  return cut;
}

/* Finds page (1-based) of text: *at and *n receive where it starts and
 * its length. Returns the number of pages (at least 1). */
static int find_page(const char *text, int page, size_t *at, size_t *n) {
  size_t len = strlen(text), o = 0;
  int count = 0;
  *at = 0;
  *n = 0;
  do {
    size_t k = page_len(text + o, len - o);
    count++;
    if (count == page) {
      *at = o;
      *n = k;
    }
    o += k;
    while (o < len && text[o] == '\n') /* a page starts with its text */
      o++;
  } while (o < len);
  return count;
}

static bool contains_ci(const char *s, const char *part) {
  size_t n = strlen(part);
  for (; *s; s++)
    if (strncasecmp(s, part, n) == 0)
      return true;
  return n == 0;
}

/* The ruleset a /game help request means: kind:, else the game of the
 * channel or requester (without replying when there is none), else NULL
 * with *given telling whether kind: named an unknown game. */
static const eng_ruleset *help_ruleset(cmd_ctx *c, const cmd_request *r,
                                       bool *bad_kind) {
  *bad_kind = false;
  const char *kind = cmd_arg_get(r, "kind");
  if (kind) {
    const eng_ruleset *rs = eng_find(kind);
    size_t n;
    const eng_ruleset *const *all = eng_rulesets(&n);
    for (size_t i = 0; !rs && i < n; i++)
      if (strcasecmp(all[i]->id, kind) == 0 ||
          strcasecmp(all[i]->name, kind) == 0)
        rs = all[i];
    *bad_kind = !rs;
    return rs;
  }
  int64_t ids[2];
  int ranks[2], n = 0;
  unsigned any = (1u << STO_LOBBY) | (1u << STO_RUNNING) | (1u << STO_FINISHED);
  if (sto_game_pick(c->cfg.db, r->in_dm ? NULL : r->channel, r->user, any, ids,
                    ranks, &n) ||
      n == 0)
    return NULL;
  sto_game g;
  if (sto_game_get(c->cfg.db, ids[0], &g))
    return NULL;
  return eng_find(g.ruleset);
}

/* The registered games, "supervillain (Supervillain: ...), ..." */
static void game_list(char *buf, size_t cap) {
  size_t n, o = 0;
  const eng_ruleset *const *all = eng_rulesets(&n);
  buf[0] = '\0';
  for (size_t i = 0; i < n && o < cap; i++)
    o += (size_t)snprintf(buf + o, cap - o, "\n- `%s` %s", all[i]->id,
                          all[i]->name);
}

static void topic_list(const topic *t, int n, char *buf, size_t cap) {
  size_t o = 0;
  buf[0] = '\0';
  for (int i = 0; i < n && o < cap; i++)
    o += (size_t)snprintf(buf + o, cap - o, "%s%s", i ? ", " : "", t[i].title);
}

void cmd_h_help(cmd_ctx *c, const cmd_request *r) {
  bool bad_kind;
  const eng_ruleset *rs = help_ruleset(c, r, &bad_kind);
  char games[600];
  game_list(games, sizeof games);
  if (!rs) {
    if (bad_kind)
      cmd_reply(c, r, NULL,
                "Lair has no game called '%.40s'; nothing is shown. Ask "
                "with /game help kind:<game>, one of:%s",
                cmd_arg_get(r, "kind"), games);
    else
      cmd_reply(c, r, NULL,
                "There is no game here to explain, so here are Lair's "
                "games. Read one's rules with /game help kind:<game>, or "
                "learn it by playing against the AI with /game learn "
                "kind:<game>:%s",
                games);
    return;
  }
  const cmd_doc *d = doc_of(rs->id);
  if (!d) {
    cmd_reply(c, r, NULL, "Lair has no rules summary for %s.", rs->name);
    return;
  }
  topic t[HELP_TOPICS];
  int n = doc_topics(d, t, HELP_TOPICS);
  char topics[800];
  topic_list(t, n, topics, sizeof topics);
  const char *want = cmd_arg_get(r, "topic");
  int k = 0;
  if (want) {
    int fits = 0;
    k = -1;
    for (int i = 0; i < n && k < 0; i++)
      if (strcasecmp(t[i].title, want) == 0)
        k = i;
    for (int i = 0; i < n && k < 0 && fits >= 0; i++) /* a unique part */
      if (contains_ci(t[i].title, want))
        fits++;
    for (int i = 0; i < n && k < 0 && fits == 1; i++)
      if (contains_ci(t[i].title, want))
        k = i;
    if (k < 0)
      k = fits > 1 ? -2 : -1;
    if (k < 0) {
      cmd_reply(c, r, NULL,
                k == -1 ? "%s's rules have no topic '%.60s'; nothing is "
                          "shown. Ask with /game help topic:<topic>, one of: "
                          "%s."
                        : "%s's rules have more than one topic '%.60s'; "
                          "nothing is shown. Ask with /game help "
                          "topic:<topic>, one of: %s.",
                rs->name, want, topics);
      return;
    }
  }
  long page = 1;
  if (cmd_arg_get(r, "page"))
    cmd_parse_int(cmd_arg_get(r, "page"), 1, 1000, &page);
  bool cards = strstr(t[k].text, CARDS_BEGIN) &&
               (size_t)(strstr(t[k].text, CARDS_BEGIN) - t[k].text) < t[k].len;
  char *text = topic_text(&t[k], want && cards);
  if (!text) {
    cmd_fail(c, "Lair ran out of memory showing the rules; try again.");
    return;
  }
  size_t at, len;
  int pages = find_page(text, (int)page, &at, &len);
  if (page > pages) {
    cmd_reply(c, r, NULL,
              pages == 1 ? "%s's topic '%s' has %d page, not %ld; nothing is "
                           "shown. Ask for page:1 to page:%d."
                         : "%s's topic '%s' has %d pages, not %ld; nothing is "
                           "shown. Ask for page:1 to page:%d.",
              rs->name, t[k].title, pages, page, pages);
    free(text);
    return;
  }
  char head[700] = "";
  if (!want)
    snprintf(head, sizeof head,
             T(c->lang,
               "**%s rules.** Topics (/game help topic:<topic>): %.560s\n\n"),
             rs->name, topics);
  char more[120] = "";
  if (pages > 1 && page < pages)
    snprintf(more, sizeof more,
             T(c->lang, "\n\n(page %ld of %d; next: /game help "
                        "topic:%.40s page:%ld)"),
             page, pages, t[k].title, page + 1);
  else if (pages > 1)
    snprintf(more, sizeof more, T(c->lang, "\n\n(page %ld of %d)"), page,
             pages);
  if (want && cards)
    cmd_reply(c, r, NULL, "%s%.*s%s", head, (int)len, text + at, more);
  else
    cmd_reply(c, r, NULL, "%s%.*s%s%s", head, (int)len, text + at,
              cards && page == pages
                  ? T(c->lang, "\n\n(The card list: /game help "
                               "topic:<this topic>.)")
                  : "",
              more);
  free(text);
}

int cmd_help_topics(cmd_ctx *c, const cmd_request *r, const char *partial,
                    cmd_choice *out, int max) {
  bool bad_kind;
  const eng_ruleset *rs = help_ruleset(c, r, &bad_kind);
  const cmd_doc *d = rs ? doc_of(rs->id) : NULL;
  if (!d)
    return 0;
  topic t[HELP_TOPICS];
  int n = doc_topics(d, t, HELP_TOPICS), k = 0;
  for (int i = 0; i < n && k < max; i++)
    if (!partial || contains_ci(t[i].title, partial)) {
      cmd_copy(out[k].id, sizeof out[k].id, t[i].title);
      cmd_copy(out[k].label, sizeof out[k].label, t[i].title);
      k++;
    }
  return k;
}

/* ---- /game learn -------------------------------------------------------- */

void cmd_h_learn(cmd_ctx *c, const cmd_request *r) {
  const char *kind = cmd_arg_get(r, "kind");
  char games[600];
  game_list(games, sizeof games);
  const eng_ruleset *rs = eng_find(kind);
  if (!rs) {
    cmd_reply(c, r, NULL,
              "Lair has no game called '%.40s'; no tutorial was started. "
              "Choose one with /game learn kind:<game>:%s",
              kind, games);
    return;
  }
  if (r->in_dm) {
    cmd_reply(c, r, NULL,
              "A tutorial game is played in a server channel, where its "
              "table is posted; start it there with /game learn kind:%s. "
              "Your hand and hints then come here.",
              rs->id);
    return;
  }
  int players = rs->min_players;
  eng_config cfg = {.players = players, .first = -1};
  uint64_t seed = cmd_new_seed(c);
  eng_game *probe;
  eng_rc erc = eng_game_new(rs, &cfg, seed, &probe);
  if (erc) {
    cmd_reply(c, r, NULL, "A tutorial of %s cannot start: %s", rs->name,
              T(c->lang, eng_strerror(erc)));
    return;
  }
  eng_game_free(probe);
  if (!cmd_member_has_room(c, r, NULL) || !cmd_channel_has_room(c, r))
    return;
  /* Its seats are fixed at once, as /game start fixes them; "learn"
     marks it as a tutorial: hints on, no ratings. */
  json_t *conf = json_pack("{sisssisisb}", "players", players, "mode", "",
                           "first", -1, "seats", players, "learn", 1);
  char *text = conf ? json_dumps(conf, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
  json_decref(conf);
  if (!text) {
    cmd_fail(c, "Lair ran out of memory; no tutorial was started.");
    return;
  }
  sto_game g = {.ruleset_version = rs->version,
                .status = STO_RUNNING,
                .seed = seed,
                .created = c->now,
                .updated = c->now};
  snprintf(g.ruleset, sizeof g.ruleset, "%s", rs->id);
  snprintf(g.config, sizeof g.config, "%s", text);
  free(text);
  /* Where the server plays each game in a thread of its own, a tutorial
     is no exception (the threads setting, as /game new reads it). */
  char name[100]; /* the thread's, read in the server's language */
  snprintf(
      name, sizeof name,
      T(cmd_lang_guild(c, r->guild ? r->guild : ""), "%s tutorial (%.40s)"),
      rs->name, r->user_name);
  int64_t gid;
  bool threaded;
  if (!cmd_place_game(c, r, &g, name, T(c->lang, "tutorial game"), &gid,
                      &threaded))
    return;
  sto_rc rc = STO_OK;
  for (int s = 1; !rc && s < players; s++) {
    sto_seat bot;
    cmd_ai_seat(s, ENG_AI_HEURISTIC, &bot);
    rc = sto_seat_set(c->cfg.db, gid, &bot);
  }
  if (rc) {
    cmd_fail(c, "The tutorial game could not be created: %s", sto_strerror(rc));
    return;
  }
  char why[200];
  live *L = cmd_load(c, gid, why, sizeof why);
  if (!L || !L->g) {
    cmd_fail(c, "The tutorial game could not be started: %s",
             L ? T(c->lang, "its rules could not be set up") : why);
    return;
  }
  if (threaded)
    cmd_announce(c, r, NULL, "%s started tutorial game #%" PRId64 " in <#%s>.",
                 r->user_name, gid, g.channel);
  cmd_announce(c, r, L,
               players == 1
                   ? "%s started tutorial game #%" PRId64
                     " (%s) against the AI: %d seat, %s to begin. Each of "
                     "%s's turn messages comes with a hint: what the AI "
                     "would choose and why. Tutorial games are not rated; "
                     "/game help explains the rules."
                   : "%s started tutorial game #%" PRId64
                     " (%s) against the AI: %d seats, %s to begin. Each of "
                     "%s's turn messages comes with a hint: what the AI "
                     "would choose and why. Tutorial games are not rated; "
                     "/game help explains the rules.",
               r->user_name, gid, rs->name, players,
               L->seats[L->g->prompt.player].name, r->user_name);
  cmd_after_change(c, r, L, L->g->prompt.turn, -1, NULL);
}
