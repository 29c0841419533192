/*
 * cmd_history.c: what happened in a game and what comes after it: the
 * paged public log, game records exported as files (with the checksums
 * that `lair replay` checks), rematches, and the moderators' views of a
 * server (its audit log, every game in every channel).
 *
 * A rematch is a lobby that invites the game's people back (storage's
 * invitations): it cannot start until each has joined or declined.
 *
 * The log and an export's transcript read the lines stored with each
 * move (what it did, in words); a record is rebuilt from the stored
 * moves, not taken from the cached game: an aborted game has no cached
 * engine, and an export that replays every stored move proves the record
 * it writes.
 *
 * A record's checksums are 64-bit FNV-1a (offset basis
 * 0xcbf29ce484222325, prime 0x100000001b3) written as 16 lowercase hex
 * digits. They catch a changed or damaged file; they are not a signature
 * (anyone with Lair can recompute them), which is why `lair replay` also
 * replays every answer against the rules.
 */
#include "cmd_int.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MASK(s) (1u << (s))
#define ACTIVE (MASK(STO_LOBBY) | MASK(STO_RUNNING))
#define ENDED (MASK(STO_FINISHED) | MASK(STO_ABORTED))
#define ANY (ACTIVE | ENDED)
#define PAGE 20       /* audit entries per page */
#define LIST_LINES 40 /* games shown by /gamemod list */

/* ---- checksums and records ------------------------------------------- */

uint64_t cmd_fnv1a64(const void *data, size_t len) {
  const unsigned char *p = data;
  uint64_t h = 0xcbf29ce484222325ULL;
  for (size_t i = 0; i < len; i++) {
    h ^= p[i];
    h *= 0x100000001b3ULL;
  }
  return h;
}

static void hex64(uint64_t v, char hex[17]) {
  snprintf(hex, 17, "%016" PRIx64, v);
}

bool cmd_state_checksum(const eng_game *g, char hex[17]) {
  char *text = eng_game_state_text(g);
  if (!text)
    return false;
  hex64(cmd_fnv1a64(text, strlen(text)), hex);
  free(text);
  return true;
}

bool cmd_record_checksum(const json_t *rec, char hex[17]) {
  json_t *copy = json_deep_copy(rec);
  if (!copy || !json_is_object(copy)) {
    json_decref(copy);
    return false;
  }
  json_object_del(copy, "record_fnv1a64");
  char *text = json_dumps(copy, JSON_COMPACT | JSON_SORT_KEYS);
  json_decref(copy);
  if (!text)
    return false;
  hex64(cmd_fnv1a64(text, strlen(text)), hex);
  free(text);
  return true;
}

json_t *cmd_result_json(const eng_game *g) {
  eng_result res;
  eng_game_result(g, &res);
  if (!res.over)
    return json_null();
  json_t *winners = json_array();
  for (int s = 0; winners && s < g->cfg.players && s < ENG_MAX_SEATS; s++)
    if (res.winners & (1u << s))
      json_array_append_new(winners, json_integer(s));
  return winners
             ? json_pack("{s:o, s:s}", "winners", winners, "reason", res.reason)
             : NULL;
}

/* ---- finding the game a history command means --------------------------- */

/* Whether a game ever started (an aborted one may have ended in its
 * lobby): its config gains "players" at the start. */
static bool row_started(const sto_game *g) {
  eng_config cfg;
  int seats;
  return g->status == STO_RUNNING || g->status == STO_FINISHED ||
         (g->status == STO_ABORTED &&
          cmd_parse_config(g->config, &cfg, &seats) && cfg.players > 0);
}

typedef struct pick_ctx {
  sto *db;
  const char *user;
  bool prefer_running;
  int64_t best;
  int best_rank, seen;
} pick_ctx;

static int rank_game(void *ctx, const sto_game *g) {
  pick_ctx *p = ctx;
  sto_seat seats[ENG_MAX_SEATS];
  int n = 0;
  bool seated = false;
  sto_rc rc = sto_seat_list(p->db, g->id, seats, ENG_MAX_SEATS, &n);
  for (int i = 0; (rc == STO_OK || rc == STO_TOO_BIG) && i < n; i++)
    seated |= strcmp(seats[i].user, p->user) == 0;
  bool running = g->status == STO_RUNNING;
  int rank = p->prefer_running ? running * 4 + seated * 2 + row_started(g)
                               : seated * 4 + row_started(g) * 2 + running;
  if (rank > p->best_rank) { /* newest first: a tie keeps the newer */
    p->best = g->id;
    p->best_rank = rank;
  }
  return ++p->seen >= 50 || p->best_rank == 7;
}

/* The game r means: its game option (any status; the caller checks), or
 * else among this channel's games with a status in `statuses` (a DM's:
 * the user's games) the newest one the user sits in, preferring a running
 * one when prefer_running, and a started one over a closed lobby. Replies
 * `none` (or why the game cannot be used) and returns NULL when there is
 * none. */
static live *history_game(cmd_ctx *c, const cmd_request *r, unsigned statuses,
                          bool prefer_running, const char *none) {
  if (cmd_arg_get(r, "game"))
    return cmd_find_game(c, r, ANY);
  pick_ctx p = {.db = c->cfg.db,
                .user = r->user,
                .prefer_running = prefer_running,
                .best_rank = -1};
  sto_rc rc =
      r->in_dm ? sto_game_list_user(c->cfg.db, r->user, statuses, rank_game, &p)
               : sto_game_list(c->cfg.db, r->channel, statuses, rank_game, &p);
  if (rc) {
    cmd_reply(c, r, NULL, "The games of this channel could not be read.");
    return NULL;
  }
  char why[200];
  if (p.best_rank < 0) {
    /* Where the channel's game stands instead, if it has one. */
    int64_t ids[2];
    int ranks[2], n = 0;
    if (!sto_game_pick(c->cfg.db, r->in_dm ? NULL : r->channel, r->user, ANY,
                       ids, ranks, &n) &&
        n > 0) {
      live *A = cmd_load(c, ids[0], why, sizeof why);
      if (A) {
        cmd_reply_state(c, r, A, none, NULL);
        return NULL;
      }
    }
    cmd_reply(c, r, NULL,
              "%s There is no game in this channel. Open one "
              "with /game new kind:<game>.",
              none);
    return NULL;
  }
  live *L = cmd_load(c, p.best, why, sizeof why);
  if (!L)
    cmd_reply(c, r, NULL, "Game #%" PRId64 " cannot be used: %s.", p.best, why);
  return L;
}

/* ---- the account of a game ---------------------------------------------
 * What each move did, in words: the lines stored with it (cmd_commit),
 * for everyone (seat -1). /game log pages through it by turn, and an
 * export carries it whole as a Markdown transcript. A move recorded
 * before Lair kept lines has none: its public line is rebuilt by
 * replaying the game (walk_game). */

typedef struct entry {
  int64_t seq;
  int turn, mover;
  int64_t time;
  bool for_person; /* the AI answered for a person on a deadline */
  bool first;      /* the move's first line */
  char *text;      /* "Villain N" for seat N-1 */
} entry;

typedef struct account {
  entry *e;
  size_t n, cap;
  bool nomem;
} account;

static void account_free(account *a) {
  for (size_t i = 0; i < a->n; i++)
    free(a->e[i].text);
  free(a->e);
  memset(a, 0, sizeof *a);
}

static bool is_for_person(const char *request) {
  size_t n = strlen(request), k = strlen(CMD_AI_FOR);
  return strncmp(request, "ai:", 3) == 0 && n > k &&
         strcmp(request + n - k, CMD_AI_FOR) == 0;
}

/* Room for one more of n items of size bytes at p (*cap allocated), and
 * a copy of text in *copy (NULL when out of memory): returns the array
 * (p itself, or where it moved), or NULL when it could not grow (then p
 * is still valid and nothing was copied). */
static void *grow_with(void *p, size_t n, size_t *cap, size_t size,
                       const char *text, char **copy) {
  *copy = NULL;
  if (n == *cap) {
    size_t more = *cap ? *cap * 2 : 64;
    void *q = realloc(p, more * size);
    if (!q)
      return NULL;
    p = q;
    *cap = more;
  }
  *copy = strdup(text);
  return p;
}

static void account_add(account *a, int64_t seq, int turn, int mover,
                        int64_t time, const char *request, const char *text) {
  char *t = NULL;
  entry *e =
      a->nomem ? NULL : grow_with(a->e, a->n, &a->cap, sizeof *e, text, &t);
  if (e)
    a->e = e;
  if (!e || !t) {
    a->nomem = true;
    return;
  }
  bool first = a->n == 0 || a->e[a->n - 1].seq != seq;
  a->e[a->n++] = (entry){.seq = seq,
                         .turn = turn,
                         .mover = mover,
                         .time = time,
                         .for_person = is_for_person(request),
                         .first = first,
                         .text = t};
}

static int add_line(void *ctx, const sto_line *l) {
  account_add(ctx, l->seq, l->turn, l->mover, l->time, l->request, l->text);
  return 0;
}

/* ---- rebuilding a game from its stored moves ---------------------------- */

typedef struct walk {
  eng_game *g;
  const live *L;
  account *told;            /* receives the public line of each move... */
  const unsigned char *has; /* ...that has no stored lines (has[seq] 0) */
  int64_t n_has;            /* moves has covers */
  int64_t applied;          /* stored moves replayed */
  int64_t bad;              /* the first stored move that did not fit, or -1 */
} walk;

static int walk_move(void *ctx, const sto_move *m) {
  walk *w = ctx;
  int64_t k = w->applied;
  bool want = w->told && w->has && k < w->n_has && !w->has[k];
  char line[STO_LINE_MAX + 1] = "";
  if (m->kind == STO_MOVE_TAKEBACK) {
    if (eng_game_takeback(w->g, m->seat)) {
      w->bad = k;
      return 1;
    }
    /* in the words of the stored lines it stands for, which every reader
       shares, as the engine's */
    snprintf(line, sizeof line, K_("Villain %d took back an answer."),
             m->seat + 1);
  } else if (!want) {
    if (eng_game_answer(w->g, m->seat, m->option, NULL)) {
      w->bad = k;
      return 1;
    }
  } else {
    eng_game *g = w->g;
    char id[ENG_ID_MAX + 1], label[ENG_LABEL_MAX + 1];
    int i = -1;
    for (int o = 0; o < g->prompt.n && i < 0; o++) {
      eng_game_option(g, o, id, label);
      if (strcmp(id, m->option) == 0)
        i = o;
    }
    if (i < 0 || g->prompt.player != m->seat) {
      w->bad = k;
      return 1;
    }
    eng_events ev;
    if (eng_game_answer_index(g, i, &ev)) {
      w->bad = k;
      return 1;
    }
    eng_events_join(&ev, -1, line, sizeof line);
  }
  w->applied++;
  if (want)
    account_add(w->told, m->seq, m->turn, m->seat, m->time, m->request, line);
  return 0;
}

/* Replays every stored move of L into a new game w->g (the caller frees
 * it), telling w->told the moves w->has lacks. A move that no longer fits
 * stops the replay with w->bad set; false (why filled) when the game
 * cannot be set up or its moves cannot be read. */
static bool walk_game(cmd_ctx *c, const live *L, walk *w, char *why,
                      size_t cap) {
  const eng_ruleset *rs = eng_find(L->row.ruleset);
  eng_config cfg;
  int seats;
  w->g = NULL;
  w->L = L;
  w->bad = -1;
  if (!rs || rs->version != L->row.ruleset_version) {
    snprintf(
        why, cap,
        T(c->lang, "it was played with rules this Lair does not have (%s v%d)"),
        L->row.ruleset, L->row.ruleset_version);
    return false;
  }
  if (!cmd_parse_config(L->row.config, &cfg, &seats) ||
      eng_game_new(rs, &cfg, L->row.seed, &w->g)) {
    cmd_copy(why, cap, T(c->lang, "its stored settings are malformed"));
    return false;
  }
  if (sto_move_list(c->cfg.db, L->row.id, 0, walk_move, w)) {
    eng_game_free(w->g);
    w->g = NULL;
    cmd_copy(why, cap, T(c->lang, "its moves could not be read"));
    return false;
  }
  return true;
}

static int by_seq(const void *a, const void *b) {
  const entry *x = a, *y = b;
  if (x->seq != y->seq)
    return x->seq < y->seq ? -1 : 1;
  return x < y ? -1 : x > y; /* a move's lines keep their order */
}

/* Fills a with the account of L's moves as seat viewer sees it (-1: the
 * public account; a seat: the public lines and that seat's own): their
 * stored lines, and for moves stored without any, the public lines a
 * replay tells. false (why filled) when it cannot be read. */
static bool read_account(cmd_ctx *c, const live *L, int viewer, account *a,
                         char *why, size_t cap) {
  memset(a, 0, sizeof *a);
  int64_t moves = L->row.moves;
  if (sto_line_list(c->cfg.db, L->row.id, INT_MIN, INT_MAX, viewer, add_line,
                    a)) {
    cmd_copy(why, cap, T(c->lang, "its account could not be read"));
    account_free(a);
    return false;
  }
  unsigned char *has = calloc((size_t)moves + 1, 1);
  bool missing = false;
  for (size_t i = 0; has && i < a->n; i++)
    if (a->e[i].seq >= 0 && a->e[i].seq < moves)
      has[a->e[i].seq] = 1;
  for (int64_t k = 0; has && k < moves; k++)
    missing = missing || !has[k];
  bool ok = has && !a->nomem;
  if (ok && missing) {
    walk w = {.told = a, .has = has, .n_has = moves};
    size_t before = a->n;
    ok = walk_game(c, L, &w, why, cap);
    eng_game_free(w.g);
    if (ok && a->n > before) /* the replayed lines fall into place */
      qsort(a->e, a->n, sizeof *a->e, by_seq);
    for (size_t i = 0; i < a->n; i++)
      a->e[i].first = i == 0 || a->e[i - 1].seq != a->e[i].seq;
  } else if (!ok) {
    cmd_copy(why, cap, T(c->lang, "out of memory"));
  }
  free(has);
  ok = ok && !a->nomem;
  if (!ok)
    account_free(a);
  return ok;
}

/* "2026-11-24 14:02 UTC"; with since (not 0) on the same day, "14:02". */
static void log_time(int64_t t, int64_t since, char *buf, size_t cap) {
  time_t tt = (time_t)t, ts = (time_t)since;
  struct tm tm, sm;
  bool same_day = since && gmtime_r(&ts, &sm) && gmtime_r(&tt, &tm) &&
                  sm.tm_year == tm.tm_year && sm.tm_yday == tm.tm_yday;
  if (!gmtime_r(&tt, &tm) ||
      strftime(buf, cap, same_day ? "%H:%M" : "%Y-%m-%d %H:%M UTC", &tm) == 0)
    snprintf(buf, cap, "%" PRId64, t);
}

/* The account as text rows: a heading per turn ("**Turn 4** - bob,
 * 2026-11-24 14:02 UTC", as a Markdown heading when md), then each move's
 * lines, its first numbered. Texts are malloc'd. */
typedef struct row {
  char *text;
  bool heading;
} row;

typedef struct rows {
  row *at;
  size_t n, cap;
  bool nomem;
} rows;

static void rows_free(rows *r) {
  for (size_t i = 0; i < r->n; i++)
    free(r->at[i].text);
  free(r->at);
  memset(r, 0, sizeof *r);
}

static void rows_add(rows *r, bool heading, const char *text) {
  char *t = NULL;
  row *at =
      r->nomem ? NULL : grow_with(r->at, r->n, &r->cap, sizeof *at, text, &t);
  if (at)
    r->at = at;
  if (!at || !t) {
    r->nomem = true;
    return;
  }
  r->at[r->n++] = (row){.text = t, .heading = heading};
}

/* The name of the person who held seat (for "AI for bob"). */
static const char *person_of(cmd_ctx *c, const live *L, int seat,
                             sto_seat *buf) {
  if (seat < 0 || seat >= L->n_seats)
    return T(c->lang, "a player");
  if (!cmd_is_ai(L->seats[seat].user) || !cmd_seat_human(c, L, seat, buf))
    return L->seats[seat].name;
  return buf->name;
}

/* compact: one row per move, its lines (sentences) joined (the catch-up of
 * /game log since:me). In the requester's language: the log and an export
 * are theirs. */
static bool account_rows(cmd_ctx *c, const live *L, const account *a, bool md,
                         bool compact, rows *out) {
  memset(out, 0, sizeof *out);
  for (size_t i = 0; i < a->n; i++) {
    const entry *e = &a->e[i];
    char buf[STO_LINE_MAX + 200], named[sizeof buf + 200];
    if (i == 0 || a->e[i - 1].turn != e->turn) {
      size_t j = i;
      while (j + 1 < a->n && a->e[j + 1].turn == e->turn)
        j++;
      char from[40], to[48] = "";
      log_time(e->time, 0, from, sizeof from);
      if (a->e[j].time / 60 != e->time / 60) {
        char t[40];
        log_time(a->e[j].time, e->time, t, sizeof t);
        snprintf(to, sizeof to, T(c->lang, " to %s"), t);
      }
      snprintf(buf, sizeof buf,
               T(c->lang, md ? "## Turn %d - Villain %d, %s%s"
                             : "**Turn %d** - Villain %d, %s%s"),
               e->turn, e->mover + 1, from, to);
      cmd_names(L, buf, named, sizeof named);
      rows_add(out, true, named);
    }
    char who[120] = "";
    if (e->first && e->for_person) {
      sto_seat h;
      snprintf(who, sizeof who, T(c->lang, " _(AI for %s, deadline)_"),
               person_of(c, L, e->mover, &h));
    }
    if (compact && !e->first)
      continue; /* joined to its move's first line below */
    if (e->first) {
      size_t o = (size_t)snprintf(buf, sizeof buf, "%" PRId64 ". %s",
                                  e->seq + 1, e->text);
      for (size_t j = i + 1;
           compact && j < a->n && !a->e[j].first && o < sizeof buf; j++)
        o += (size_t)snprintf(buf + o, sizeof buf - o, " %s", a->e[j].text);
      if (o < sizeof buf)
        snprintf(buf + o, sizeof buf - o, "%s", who);
    } else
      snprintf(buf, sizeof buf, "   - %s", e->text);
    cmd_names(L, buf, named, sizeof named);
    rows_add(out, false, named);
  }
  return !out->nomem;
}

/* ---- /game log ----------------------------------------------------------- */

/* Pages hold whole rows, and whole turns where they fit: a page breaks
 * before a turn's heading once the page would pass LOG_BUDGET bytes, and
 * inside a turn only when the turn alone passes it. */
#define LOG_BUDGET (CMD_TEXT_MAX - 300)

static size_t turn_size(const rows *r, size_t i) {
  size_t n = strlen(r->at[i].text) + 1;
  for (size_t j = i + 1; j < r->n && !r->at[j].heading; j++)
    n += strlen(r->at[j].text) + 1;
  return n;
}

/* The first row of each page into starts (at most max); returns how many
 * pages. */
static long paginate(const rows *r, size_t *starts, long max) {
  long pages = 0;
  size_t used = 0;
  for (size_t i = 0; i < r->n; i++) {
    size_t n = r->at[i].heading ? turn_size(r, i) : strlen(r->at[i].text) + 1;
    size_t one = strlen(r->at[i].text) + 1;
    bool fits =
        used + (r->at[i].heading && n <= LOG_BUDGET ? n : one) <= LOG_BUDGET;
    if (pages == 0 || (!fits && used > 0)) {
      if (pages < max)
        starts[pages] = i;
      pages++;
      used = 0;
    }
    used += one;
  }
  return pages;
}

/* Drops the moves of a up to and including seq last (a catch-up shows
 * what came after). */
static void account_after(account *a, int64_t last) {
  size_t k = 0;
  for (size_t i = 0; i < a->n; i++) {
    if (a->e[i].seq <= last)
      free(a->e[i].text);
    else
      a->e[k++] = a->e[i];
  }
  a->n = k;
}

/* /game log: by default, for a player of the game, the catch-up (since:me):
 * every answer after the player's own last one, as that player sees it
 * (the public lines and their own seat's), one row per answer, from its
 * first page; for anyone else, or with since:start, the whole public
 * account from its latest page. */
void cmd_h_log(cmd_ctx *c, const cmd_request *r) {
  live *L = history_game(c, r, MASK(STO_RUNNING) | ENDED, true,
                         T(c->lang, "No game has been played in this channel "
                                    "yet. Start one with /game new."));
  if (!L)
    return;
  if (!row_started(&L->row)) {
    cmd_reply_state(c, r, L, T(c->lang, "It has no moves yet."), NULL);
    return;
  }
  const char *since = cmd_arg_get(r, "since");
  int seat = cmd_seat_of(L, r->user);
  if (since && strcmp(since, "me") == 0 && seat < 0) {
    cmd_reply(c, r, L,
              "You do not play in game #%" PRId64 ", so there is no answer "
              "of yours to catch up from. Its whole account: /game log "
              "since:start.",
              L->row.id);
    return;
  }
  bool mine = seat >= 0 && !(since && strcmp(since, "start") == 0);
  int viewer = mine ? seat : -1;
  account a;
  rows rw = {0};
  char why[200];
  cmd_copy(why, sizeof why, T(c->lang, "out of memory"));
  bool ok = read_account(c, L, viewer, &a, why, sizeof why);
  int64_t last = -1; /* the viewer's last answer */
  for (size_t i = 0; ok && mine && i < a.n; i++)
    if (a.e[i].mover == seat && a.e[i].seq > last)
      last = a.e[i].seq;
  if (ok && mine)
    account_after(&a, last);
  ok = ok && account_rows(c, L, &a, false, mine, &rw);
  int64_t shown = 0;
  for (size_t i = 0; ok && i < a.n; i++)
    shown += a.e[i].first;
  account_free(&a); /* read_account left it empty when it failed */
  if (!ok) {
    rows_free(&rw);
    cmd_reply(c, r, L,
              "The history of game #%" PRId64 " could not be rebuilt: %s.",
              L->row.id, why);
    return;
  }
  int64_t total = L->row.moves;
  if (mine && rw.n == 0) {
    cmd_reply(c, r, L,
              "Game #%" PRId64 ": nothing has happened since your last "
              "answer (move %" PRId64 " of %" PRId64 "). Its whole "
              "account: /game log since:start.",
              L->row.id, last + 1, total);
    rows_free(&rw);
    return;
  }
  size_t *starts = malloc((rw.n + 1) * sizeof *starts);
  long pages = starts ? paginate(&rw, starts, (long)rw.n + 1) : 0;
  if (!starts) {
    rows_free(&rw);
    cmd_reply(c, r, L,
              "The history of game #%" PRId64 " could not be "
              "rebuilt: out of memory.",
              L->row.id);
    return;
  }
  if (pages < 1)
    pages = 1;
  long page = mine ? 1 : pages;
  if (cmd_arg_get(r, "page"))
    cmd_parse_int(cmd_arg_get(r, "page"), 1, LONG_MAX, &page);
  if (page > pages) {
    bool one = pages == 1;
    cmd_reply(c, r, L,
              mine && one ? "The catch-up of game #%" PRId64 " has %ld page "
                            "(whole turns, about %d characters a page); "
                            "there is no page %ld."
              : mine      ? "The catch-up of game #%" PRId64 " has %ld pages "
                            "(whole turns, about %d characters a page); "
                            "there is no page %ld."
              : one       ? "The history of game #%" PRId64 " has %ld page "
                            "(whole turns, about %d characters a page); "
                            "there is no page %ld."
                          : "The history of game #%" PRId64 " has %ld pages "
                            "(whole turns, about %d characters a page); "
                            "there is no page %ld.",
              L->row.id, pages, LOG_BUDGET, page);
    free(starts);
    rows_free(&rw);
    return;
  }
  char text[CMD_TEXT_MAX + 1];
  size_t o;
  if (mine) {
    char range[64];
    if (last + 2 >= total)
      snprintf(range, sizeof range, T(c->lang, "move %" PRId64), total);
    else
      snprintf(range, sizeof range, T(c->lang, "moves %" PRId64 "-%" PRId64),
               last + 2, total);
    o = (size_t)snprintf(
        text, sizeof text,
        cmd_trn(c->lang, shown,
                "**Game #%" PRId64 "**, since %s: %s of %" PRId64 " (%" PRId64
                " answer), as you see them, page %ld of %ld:\n",
                "**Game #%" PRId64 "**, since %s: %s of %" PRId64 " (%" PRId64
                " answers), as you see them, page %ld of %ld:\n"),
        L->row.id,
        last < 0 ? T(c->lang, "the start (you have not answered yet)")
                 : T(c->lang, "your last answer"),
        range, total, shown, page, pages);
  } else
    o = (size_t)snprintf(
        text, sizeof text,
        cmd_trn(c->lang, total,
                "**Game #%" PRId64 "**, %" PRId64 " move, page %ld of %ld:\n",
                "**Game #%" PRId64 "**, %" PRId64 " moves, page %ld of %ld:\n"),
        L->row.id, total, page, pages);
  size_t from = rw.n ? starts[page - 1] : 0;
  size_t to = page < pages ? starts[page] : rw.n;
  if (from < to && !rw.at[from].heading && o < sizeof text) {
    /* a turn cut across pages: say whose it is */
    size_t h = from;
    while (h > 0 && !rw.at[h].heading)
      h--;
    o += (size_t)snprintf(text + o, sizeof text - o,
                          T(c->lang, "%s (continued)\n"), rw.at[h].text);
  }
  for (size_t i = from; i < to && o < sizeof text; i++)
    o += (size_t)snprintf(text + o, sizeof text - o, "%s\n", rw.at[i].text);
  if (mine && page < pages && o < sizeof text)
    o += (size_t)snprintf(
        text + o, sizeof text - o,
        T(c->lang, "Later answers: /game log since:me page:%ld\n"), page + 1);
  if (mine && o < sizeof text)
    snprintf(text + o, sizeof text - o, "%s",
             T(c->lang, "The whole public account: /game log since:start"));
  else if (page > 1 && o < sizeof text)
    snprintf(text + o, sizeof text - o,
             T(c->lang, "Earlier turns: /game log %spage:%ld"),
             seat >= 0 ? "since:start " : "", page - 1);
  free(starts);
  rows_free(&rw);
  cmd_send(c, r, CMD_TO_EPHEMERAL, r->user, r->user_name, L, text, NULL, 0);
}

/* ---- /game export -------------------------------------------------------- */

/* The record of L replayed into g (see cmd.h); new reference, NULL when
 * out of memory. */
static json_t *make_record(const live *L, const eng_game *g) {
  json_t *rec = eng_game_record(g), *seats = json_array();
  json_t *result = cmd_result_json(g);
  char state[17], sum[17];
  bool ok = rec && seats && result && cmd_state_checksum(g, state);
  for (int s = 0; ok && s < g->cfg.players; s++) {
    char name[24];
    snprintf(name, sizeof name, K_("Villain %d"), s + 1); /* a file format */
    ok = !json_array_append_new(
        seats, json_string(s < L->n_seats ? L->seats[s].name : name));
  }
  if (ok)
    ok = !json_object_set_new(rec, "lair_record",
                              json_integer(CMD_RECORD_VERSION)) &&
         !json_object_set_new(rec, "game", json_integer(L->row.id)) &&
         !json_object_set(rec, "seats", seats) &&
         !json_object_set_new(rec, "status",
                              json_string(L->row.status == STO_FINISHED
                                              ? "finished"
                                              : "aborted")) &&
         !json_object_set(rec, "result", result) &&
         !json_object_set_new(rec, "state_fnv1a64", json_string(state)) &&
         cmd_record_checksum(rec, sum) &&
         !json_object_set_new(rec, "record_fnv1a64", json_string(sum));
  json_decref(seats);
  json_decref(result);
  if (!ok) {
    json_decref(rec);
    return NULL;
  }
  return rec;
}

/* The readable account of L (who played, how it ended: how), turn by
 * turn as Markdown; malloc'd (*len bytes), NULL when it cannot be read
 * (why filled). */
static char *transcript(cmd_ctx *c, const live *L, const char *how, size_t *len,
                        char *why, size_t cap) {
  account a;
  rows rw = {0};
  bool ok = read_account(c, L, -1, &a, why, cap) &&
            account_rows(c, L, &a, true, false, &rw);
  account_free(&a);
  size_t size = 1024;
  for (size_t i = 0; ok && i < rw.n; i++)
    size += strlen(rw.at[i].text) + 2;
  char *t = ok ? malloc(size) : NULL;
  if (!t) {
    if (ok)
      cmd_copy(why, cap, T(c->lang, "out of memory"));
    rows_free(&rw);
    return NULL;
  }
  char players[400] = "";
  size_t p = 0;
  for (int s = 0; s < L->n_seats && p < sizeof players; s++)
    p += (size_t)snprintf(players + p, sizeof players - p, "%s%s%s",
                          s ? ", " : "", L->seats[s].name,
                          cmd_is_ai(L->seats[s].user) ? T(c->lang, " (AI)")
                                                      : "");
  char started[40], ended[40];
  log_time(L->row.created, 0, started, sizeof started);
  log_time(L->row.updated, 0, ended, sizeof ended);
  size_t o = (size_t)snprintf(
      t, size,
      T(c->lang, "# Game #%" PRId64 ": %s\n\n- Players, in seat order: %s\n"
                 "- Result: %s\n"),
      L->row.id, cmd_game_name(L), players, how);
  if (o < size)
    o += (size_t)snprintf(t + o, size - o,
                          cmd_trn(c->lang, L->row.moves,
                                  "- %" PRId64 " move, from %s to %s\n",
                                  "- %" PRId64 " moves, from %s to %s\n"),
                          L->row.moves, started, ended);
  for (size_t i = 0; i < rw.n && o < size; i++)
    o += (size_t)snprintf(t + o, size - o, "%s%s\n",
                          rw.at[i].heading ? "\n" : "", rw.at[i].text);
  rows_free(&rw);
  *len = o < size ? o : size - 1;
  return t;
}

void cmd_h_export(cmd_ctx *c, const cmd_request *r) {
  live *L = history_game(c, r, ENDED, false,
                         T(c->lang, "There is no finished or aborted game in "
                                    "this channel to export. A running game "
                                    "can be exported once it ends."));
  if (!L)
    return;
  if (L->row.status == STO_RUNNING) {
    /* The record holds the seed and every answer: while the game runs it
       would show everyone every hidden card. */
    cmd_reply(c, r, L,
              "Game #%" PRId64 " is still running. It can be exported once "
              "it ends: its record holds the seed, which would reveal every "
              "hidden card.",
              L->row.id);
    return;
  }
  if (!row_started(&L->row)) {
    cmd_reply(c, r, L,
              "Game #%" PRId64 " never started; there is nothing to export.",
              L->row.id);
    return;
  }
  walk *w = calloc(1, sizeof *w);
  char why[200];
  cmd_copy(why, sizeof why, T(c->lang, "out of memory"));
  bool ok = w && walk_game(c, L, w, why, sizeof why);
  if (ok && w->bad >= 0) {
    snprintf(why, sizeof why,
             T(c->lang, "its move %" PRId64 " no longer fits the rules"),
             w->bad + 1);
    ok = false;
  }
  if (!ok) {
    if (w)
      eng_game_free(w->g);
    free(w);
    cmd_reply(c, r, L, "Game #%" PRId64 " cannot be exported: %s.", L->row.id,
              why);
    return;
  }
  json_t *rec = make_record(L, w->g);
  char *text = rec ? json_dumps(rec, JSON_INDENT(2) | JSON_SORT_KEYS) : NULL;
  size_t len = text ? strlen(text) : 0;
  char *file = text ? malloc(len + 2) : NULL;
  if (file) {
    memcpy(file, text, len);
    file[len++] = '\n';
    file[len] = '\0';
  }
  free(text);
  if (!file || len > CMD_FILE_MAX) {
    cmd_reply(c, r, L,
              !file ? "Game #%" PRId64 " could not be exported: out of "
                      "memory."
                    : "Game #%" PRId64 "'s record is too large to send.",
              L->row.id);
  } else {
    char name[40], how[300], text_msg[600];
    snprintf(name, sizeof name, K_("game-%" PRId64 ".json"), L->row.id);
    eng_result res;
    eng_game_result(w->g, &res);
    if (res.over) {
      size_t o = cmd_winners(c->lang, L, &res, T(c->lang, "nobody wins"), how,
                             sizeof how);
      snprintf(how + o, sizeof how - o, " (%s)", res.reason);
    } else {
      cmd_copy(how, sizeof how, T(c->lang, "aborted before the end"));
    }
    snprintf(text_msg, sizeof text_msg,
             T(c->lang, "The record of game #%" PRId64 " (%s, %zu answers; "
                        "%s). Check it with `lair replay %s`."),
             L->row.id, cmd_game_name(L), w->g->n_answers, how, name);
    cmd_reply_file(c, r, L, text_msg, name, file, len);
    size_t tlen = 0;
    char *md = transcript(c, L, how, &tlen, why, sizeof why);
    snprintf(name, sizeof name, K_("game-%" PRId64 ".md"), L->row.id);
    if (md && tlen <= CMD_FILE_MAX) {
      snprintf(
          text_msg, sizeof text_msg,
          T(c->lang, "What happened in game #%" PRId64 ", turn by turn (%s)."),
          L->row.id, name);
      cmd_reply_file(c, r, L, text_msg, name, md, tlen);
    } else {
      cmd_reply(c, r, L,
                "The readable account of game #%" PRId64 " could not be "
                "written: %s.",
                L->row.id, md ? T(c->lang, "it is too large to send") : why);
    }
    free(md);
  }
  free(file);
  json_decref(rec);
  eng_game_free(w->g);
  free(w);
}

/* ---- /game rematch ------------------------------------------------------- */

void cmd_h_rematch(cmd_ctx *c, const cmd_request *r) {
  if (r->in_dm) {
    cmd_reply(c, r, NULL,
              "A rematch is opened in the game's channel, where "
              "everyone sees it.");
    return;
  }
  live *L = history_game(c, r, ENDED, false,
                         T(c->lang, "There is no finished or aborted game in "
                                    "this channel to play again."));
  if (!L)
    return;
  int64_t old = L->row.id;
  if (L->row.status == STO_RUNNING || L->row.status == STO_LOBBY) {
    cmd_reply_state(c, r, L, T(c->lang, "A rematch comes after a game ends."),
                    NULL);
    return;
  }
  if (strcmp(L->row.channel, r->channel) != 0) {
    cmd_reply(c, r, L,
              "Game #%" PRId64 " was played in another channel; ask for the "
              "rematch there.",
              old);
    return;
  }
  bool played = cmd_seat_of(L, r->user) >= 0;
  for (int s = 0; !played && s < L->n_seats; s++) {
    sto_seat was; /* a player the AI took over from played it too */
    played = cmd_seat_human(c, L, s, &was) && strcmp(was.user, r->user) == 0;
  }
  if (!played && !r->is_mod) {
    cmd_reply(c, r, L,
              "Only the players of game #%" PRId64 " or a moderator can ask "
              "for a rematch.",
              old);
    return;
  }
  const eng_ruleset *rs = eng_find(L->row.ruleset);
  eng_config cfg;
  int max_seats;
  if (!rs || !cmd_parse_config(L->row.config, &cfg, &max_seats)) {
    cmd_reply(c, r, L,
              "Game #%" PRId64 " cannot be played again: Lair no longer has "
              "its game or its settings are damaged.",
              old);
    return;
  }
  if (L->n_seats == 0) {
    cmd_reply(c, r, L,
              "Game #%" PRId64 " had nobody left in it; open a new game with "
              "/game new.",
              old);
    return;
  }
  if (!cmd_channel_has_room(c, r))
    return;
  /* Who is asked back: every person of the game, the ones the AI took
   * over from included (in their seat's order). AI seats of the game's
   * own (added in its lobby) come along; AI seats that stood in for a
   * person do not. The requester, if they played, sits down at once. */
  sto_seat asked[ENG_MAX_SEATS], bots[ENG_MAX_SEATS], me = {.seat = 0};
  int n_asked = 0, n_bots = 0;
  bool seated = false;
  for (int s = 0; s < L->n_seats; s++) {
    sto_seat who = L->seats[s];
    if (cmd_is_ai(who.user) && !cmd_seat_human(c, L, s, &who)) {
      bots[n_bots++] = who;
      continue;
    }
    bool twice = strcmp(who.user, r->user) == 0 && seated;
    for (int k = 0; k < n_asked; k++)
      twice |= strcmp(asked[k].user, who.user) == 0;
    if (twice)
      continue;
    who.seat = s;
    if (strcmp(who.user, r->user) == 0) {
      me = who;
      snprintf(me.name, sizeof me.name, "%s", r->user_name);
      seated = true;
    } else {
      asked[n_asked++] = who;
    }
  }
  if (seated && !cmd_member_has_room(c, r, L))
    return;
  sto_game g = {.ruleset_version = rs->version,
                .status = STO_LOBBY,
                .created = c->now,
                .updated = c->now};
  snprintf(g.ruleset, sizeof g.ruleset, "%s", rs->id);
  json_t *conf = json_pack("{sssi}", "mode", cfg.mode, "seats", max_seats);
  /* A tutorial's rematch is a tutorial too: hints, and no rating. */
  json_t *was = json_loads(L->row.config, 0, NULL);
  if (conf && json_is_true(json_object_get(was, "learn")))
    json_object_set_new(conf, "learn", json_true());
  json_decref(was);
  char *text = conf ? json_dumps(conf, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
  json_decref(conf);
  snprintf(g.config, sizeof g.config, "%s", text ? text : "{}");
  free(text);
  snprintf(g.guild, sizeof g.guild, "%s", L->row.guild);
  snprintf(g.channel, sizeof g.channel, "%s", L->row.channel);
  snprintf(g.creator, sizeof g.creator, "%s", r->user);
  int64_t gid = 0;
  int n_seats = 0;
  sto_rc rc = sto_game_create(c->cfg.db, &g, &gid);
  if (!rc && seated) {
    me.seat = n_seats++;
    rc = sto_seat_set(c->cfg.db, gid, &me);
  }
  for (int k = 0; !rc && k < n_bots; k++) {
    sto_seat bot;
    cmd_ai_seat(n_seats, cmd_ai_level(bots[k].user), &bot);
    bot.seat = n_seats++;
    rc = sto_seat_set(c->cfg.db, gid, &bot);
  }
  for (int k = 0; !rc && k < n_asked; k++)
    rc = sto_invite_set(c->cfg.db, gid, &asked[k]);
  if (rc) {
    cmd_fail(c, "The rematch could not be created: %s", sto_strerror(rc));
    return;
  }
  char why[200], list[400];
  live *N = cmd_load(c, gid, why, sizeof why);
  if (!N) {
    cmd_fail(c, "The rematch could not be created: %s.", why);
    return;
  }
  size_t o = 0;
  list[0] = '\0';
  for (int s = 0; s < N->n_seats && o < sizeof list; s++)
    o += (size_t)snprintf(list + o, sizeof list - o, "%s%s", s ? ", " : "",
                          N->seats[s].name);
  if (n_asked > 0) {
    /* Everyone asked back is pinged once, here, in the channel's
     * language. */
    cmd_lang lang = cmd_lang_game(c, N);
    char names[600] = "", ping[ENG_MAX_SEATS * (STO_ID_MAX + 1)] = "";
    size_t on = 0, op = 0;
    for (int k = 0; k < n_asked && on < sizeof names && op < sizeof ping; k++) {
      const char *sep = k == 0             ? ""
                        : k == n_asked - 1 ? T(lang, " and ")
                                           : ", ";
      on += (size_t)snprintf(names + on, sizeof names - on, "%s<@%s>", sep,
                             asked[k].user);
      op += (size_t)snprintf(ping + op, sizeof ping - op, "%s%s", k ? " " : "",
                             asked[k].user);
    }
    char msg[CMD_TEXT_MAX];
    snprintf(msg, sizeof msg,
             cmd_trn(lang, n_asked,
                     "%s asked for a rematch of game #%" PRId64
                     ": game #%" PRId64 " (%s, %s) is open, and %s is invited "
                     "back: join with /game join, or decline with /game "
                     "leave. It cannot start before everyone invited has "
                     "answered.%s%s%s",
                     "%s asked for a rematch of game #%" PRId64
                     ": game #%" PRId64 " (%s, %s) is open, and %s are "
                     "invited back: join with /game join, or decline with "
                     "/game leave. It cannot start before everyone invited "
                     "has answered.%s%s%s"),
             r->user_name, old, gid, rs->name, eng_mode_name(rs, cfg.mode),
             names, N->n_seats ? T(lang, " Seated: ") : "",
             N->n_seats ? list : "", N->n_seats ? "." : "");
    cmd_send_to(c, r, CMD_TO_CHANNEL, NULL, NULL, N, msg, ping, NULL);
    cmd_arm_lobby(c, N);
    return;
  }
  bool start = N->n_seats >= rs->min_players;
  cmd_announce(c, r, N,
               "%s asked for a rematch of game #%" PRId64 ": game #%" PRId64
               " (%s, %s) with %s.%s",
               r->user_name, old, gid, rs->name, eng_mode_name(rs, cfg.mode),
               list,
               start ? ""
                     : T(cmd_lang_game(c, N), " Join with /game join; start "
                                              "it with /game start."));
  if (!start) {
    cmd_arm_lobby(c, N);
    return;
  }
  /* Nobody to wait for: it starts through /game start itself, exactly as
     any game does (seed, table, hands, prompt, timers). */
  char id_text[24];
  snprintf(id_text, sizeof id_text, "%" PRId64, gid);
  cmd_request st = *r;
  st.command = "start";
  st.n_args = 1;
  st.args[0].name = "game";
  st.args[0].value = id_text;
  cmd_h_start(c, &st);
}

/* ---- /gamemod audit ---------------------------------------------------------
 */

static void iso_time(int64_t t, char *buf, size_t cap) {
  time_t tt = (time_t)t;
  struct tm tm;
  if (!gmtime_r(&tt, &tm) || strftime(buf, cap, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
    snprintf(buf, cap, "%" PRId64, t);
}

typedef struct audit_page {
  cmd_lang lang; /* the moderator's who asks */
  long from, to, total;
  char text[PAGE * 460];
  size_t len;
} audit_page;

static int audit_row(void *ctx, const sto_audit *a) {
  audit_page *p = ctx;
  if (p->total >= p->from && p->total < p->to && p->len < sizeof p->text) {
    char when[40], game[32] = "";
    iso_time(a->time, when, sizeof when);
    if (a->game > 0)
      snprintf(game, sizeof game, T(p->lang, ", game #%" PRId64), a->game);
    p->len += (size_t)snprintf(
        p->text + p->len, sizeof p->text - p->len, "\n- `%s` %s: **%s**%s%s%s",
        when, a->actor, a->action, game, a->detail[0] ? ": " : "", a->detail);
  }
  p->total++;
  return 0;
}

void cmd_h_audit(cmd_ctx *c, const cmd_request *r) {
  char scope[64];
  cmd_guild_scope(r->guild, scope, sizeof scope);
  long page = 1;
  if (cmd_arg_get(r, "page"))
    cmd_parse_int(cmd_arg_get(r, "page"), 1, LONG_MAX, &page);
  audit_page *p = calloc(1, sizeof *p);
  if (!p) {
    cmd_reply(c, r, NULL, "The audit log could not be read: out of memory.");
    return;
  }
  p->lang = c->lang;
  p->from = (page - 1) * PAGE;
  p->to = p->from + PAGE;
  sto_rc rc = sto_audit_list(c->cfg.db, scope, INT_MAX, audit_row, p);
  long pages = p->total > 0 ? (p->total + PAGE - 1) / PAGE : 1;
  if (rc)
    cmd_reply(c, r, NULL, "The audit log could not be read: %s",
              sto_strerror(rc));
  else if (p->total == 0)
    cmd_reply(c, r, NULL, "The audit log of this server is empty.");
  else if (page > pages)
    cmd_reply(c, r, NULL,
              pages == 1 ? "The audit log has %ld page (%d entries a page); "
                           "there is no page %ld."
                         : "The audit log has %ld pages (%d entries a page); "
                           "there is no page %ld.",
              pages, PAGE, page);
  else {
    char text[sizeof p->text + 200];
    size_t o = (size_t)snprintf(
        text, sizeof text,
        cmd_trn(c->lang, p->total,
                "**Audit log** of this server, %ld entry, page %ld of %ld "
                "(newest first):%s",
                "**Audit log** of this server, %ld entries, page %ld of %ld "
                "(newest first):%s"),
        p->total, page, pages, p->text);
    if (page < pages && o < sizeof text)
      snprintf(text + o, sizeof text - o,
               T(c->lang, "\nOlder entries: /gamemod audit page:%ld"),
               page + 1);
    cmd_send(c, r, CMD_TO_EPHEMERAL, r->user, r->user_name, NULL, text, NULL,
             0);
  }
  free(p);
}

/* ---- /gamemod list -------------------------------------------------- */

static void span(cmd_lang lang, int64_t secs, char *buf, size_t cap) {
  if (secs < 0)
    secs = 0;
  int64_t d = secs / 86400, h = secs % 86400 / 3600, m = secs % 3600 / 60;
  if (d > 0)
    snprintf(buf, cap, T(lang, "%" PRId64 "d %" PRId64 "h"), d, h);
  else if (h > 0)
    snprintf(buf, cap, T(lang, "%" PRId64 "h %" PRId64 "m"), h, m);
  else
    snprintf(buf, cap, T(lang, "%" PRId64 "m"), m);
}

typedef struct server_list {
  cmd_ctx *c;
  bool discord; /* channels shown as mentions */
  int shown, total;
  char text[CMD_TEXT_MAX * 12];
  size_t len;
} server_list;

static int list_row(void *ctx, const sto_game *g) {
  server_list *l = ctx;
  l->total++;
  if (l->shown >= LIST_LINES || l->len >= sizeof l->text)
    return 0;
  l->shown++;
  const eng_ruleset *rs = eng_find(g->ruleset);
  char idle[32], players[300] = "";
  cmd_lang lang = l->c->lang; /* the moderator's who asks */
  span(lang, l->c->now - g->updated, idle, sizeof idle);
  sto_seat seats[ENG_MAX_SEATS];
  int n = 0;
  sto_rc rc = sto_seat_list(l->c->cfg.db, g->id, seats, ENG_MAX_SEATS, &n);
  size_t o = 0;
  for (int i = 0;
       (rc == STO_OK || rc == STO_TOO_BIG) && i < n && o < sizeof players; i++)
    o += (size_t)snprintf(players + o, sizeof players - o, "%s%s",
                          i ? ", " : "; ", seats[i].name);
  l->len += (size_t)snprintf(
      l->text + l->len, sizeof l->text - l->len,
      cmd_trn(lang, g->moves,
              "\n- #%" PRId64 " %s: %s in %s%s%s, %" PRId64 " move, idle %s%s",
              "\n- #%" PRId64 " %s: %s in %s%s%s, %" PRId64
              " moves, idle %s%s"),
      g->id, rs ? rs->name : g->ruleset,
      g->status == STO_ABORTED ? T(lang, "aborted")
                               : cmd_status_name(lang, g->status),
      l->discord ? "<#" : "#", g->channel, l->discord ? ">" : "", g->moves,
      idle, players);
  return 0;
}

void cmd_h_list_server(cmd_ctx *c, const cmd_request *r) {
  if (r->in_dm) {
    cmd_reply(c, r, NULL,
              "Use /gamemod list in a channel of the server whose games "
              "you mean.");
    return;
  }
  server_list *l = calloc(1, sizeof *l);
  if (!l) {
    cmd_reply(c, r, NULL, "The games could not be read: out of memory.");
    return;
  }
  l->c = c;
  l->discord = r->guild && *r->guild;
  const char *guild = r->guild ? r->guild : "";
  /* Open games first, then the ended ones, each newest first. */
  sto_rc rc = sto_game_list_guild(c->cfg.db, guild, ACTIVE, list_row, l);
  int open = l->total;
  if (!rc)
    rc = sto_game_list_guild(c->cfg.db, guild, ENDED, list_row, l);
  if (rc)
    cmd_reply(c, r, NULL, "The games could not be read: %s", sto_strerror(rc));
  else if (l->total == 0)
    cmd_reply(c, r, NULL, "This server has no games yet.");
  else {
    char head[200];
    snprintf(head, sizeof head,
             T(c->lang, "Every game of this server: %d open, %d ended%s"), open,
             l->total - open,
             l->shown < l->total ? T(c->lang, " (the first shown)") : "");
    char *text = malloc(strlen(head) + l->len + 80);
    if (text) {
      size_t o = (size_t)snprintf(text, strlen(head) + l->len + 80, "%s%s",
                                  head, l->text);
      if (l->shown < l->total)
        snprintf(text + o, 80, T(c->lang, "\n(and %d more)"),
                 l->total - l->shown);
      cmd_send(c, r, CMD_TO_EPHEMERAL, r->user, r->user_name, NULL, text, NULL,
               0);
    }
    free(text);
  }
  free(l);
}
