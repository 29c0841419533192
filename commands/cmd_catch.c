/*
 * cmd_catch.c: what brings a player of a slow game back up to date: the
 * header that names the game in each of its DMs, the "since your last
 * turn" summary that opens a turn's DM, and the summary of a game that
 * has ended.
 *
 * All of it is read from the lines stored with each move (cmd_commit)
 * as the recipient may read them (public lines and their own seat's,
 * never another seat's) and from the game's public view, so it is the
 * same for every ruleset.
 *
 * "Concerns you": a line of another seat's answer that names the
 * player's seat (stored lines say "Villain N" for seat N-1 before names
 * are put in), such as an attack at them or a card taken from them.
 *
 * A seat's biggest moment, in the end summary: its own answer after which
 * its score (eng_result.score: points, progress, whatever the
 * ruleset counts) rose the most, found by replaying the stored moves
 * through the engine (the earliest of equals); for a seat whose score
 * never rose, its own answer that did the most, counted as the public
 * lines it produced. Only the answer's number and first public line are
 * shown, never a score a ruleset might draw from hidden cards.
 */
#include "cmd_int.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- the header of a game's DMs ---------------------------------------- */

void cmd_dm_header(cmd_lang lang, const live *L, char *out, size_t cap) {
  if (L->row.guild[0])
    snprintf(out, cap, T(lang, "_Game #%" PRId64 " (%s) in <#%s>_"), L->row.id,
             cmd_game_name(L), L->row.channel);
  else
    snprintf(out, cap, T(lang, "_Game #%" PRId64 " (%s) in channel %s_"),
             L->row.id, cmd_game_name(L), L->row.channel);
}

bool cmd_table_key(const live *L, char *out, size_t cap) {
  if (!L->g || (L->row.status != STO_RUNNING && L->row.status != STO_FINISHED))
    return false;
  snprintf(out, cap, "turn:%d", L->g->prompt.turn);
  return true;
}

/* ---- reading the lines --------------------------------------------------- */

/* Whether text names seat s ("Villain N", N not followed by a digit). */
static bool names_seat(const char *text, int s) {
  char who[24];
  int n = snprintf(who, sizeof who, "Villain %d", s + 1);
  for (const char *p = strstr(text, who); p; p = strstr(p + 1, who))
    if (p[n] < '0' || p[n] > '9')
      return true;
  return false;
}

typedef struct since_ctx {
  int seat;
  int64_t last; /* the seat's last answer, -1 before any */
  int answers[ENG_MAX_SEATS];
  int64_t answer_seq[ENG_MAX_SEATS];  /* the last move counted per seat */
  char last_line[ENG_MAX_SEATS][160]; /* the first line of its last move */
  char about[2][200]; /* the first lines that concern the seat */
  int n_about;
  bool collect;
} since_ctx;

static void cut_copy(char *dst, size_t cap, const char *src) {
  snprintf(dst, cap, "%s", src);
  if (strlen(src) >= cap && cap > 4)
    memcpy(dst + cap - 4, "...", 4);
}

/* cut_copy at a word's end, so that no name ("Villain 2", which
 * cmd_names replaces) is cut. */
static void cut_words(char *dst, size_t cap, const char *src) {
  snprintf(dst, cap, "%s", src);
  if (strlen(src) < cap || cap < 8)
    return;
  char *sp = dst + cap - 4;
  for (int words = 0; words < 2; words++) {
    while (sp > dst && *sp != ' ')
      sp--;
    if (sp - dst < 8 || strncmp(sp - 8, " Villain", 8) != 0)
      break;
    sp -= 8; /* "Villain" without its number */
  }
  if (sp == dst)
    sp = dst + cap - 4;
  memcpy(sp, "...", 4);
}

/* Lines come in order: each of the seat's own answers starts the count
 * again, and what comes before its first counts for nothing. */
static int collect_since(void *ctx, const sto_line *l) {
  since_ctx *x = ctx;
  if (l->mover == x->seat) {
    int seat = x->seat;
    memset(x, 0, sizeof *x);
    x->seat = seat;
    x->last = l->seq;
    for (int s = 0; s < ENG_MAX_SEATS; s++)
      x->answer_seq[s] = -1;
    return 0;
  }
  if (x->last < 0 || l->mover < 0 || l->mover >= ENG_MAX_SEATS)
    return 0;
  if (x->answer_seq[l->mover] != l->seq) { /* a move's first line */
    x->answer_seq[l->mover] = l->seq;
    x->answers[l->mover]++;
    cut_copy(x->last_line[l->mover], sizeof x->last_line[0], l->text);
    size_t n = strlen(x->last_line[l->mover]);
    if (n > 0 && x->last_line[l->mover][n - 1] == '.')
      x->last_line[l->mover][n - 1] = '\0'; /* the list goes on */
  }
  if (names_seat(l->text, x->seat)) {
    if (x->n_about < 2)
      cut_copy(x->about[x->n_about], sizeof x->about[0], l->text);
    x->n_about++;
  }
  return 0;
}

/* ---- since your last turn ------------------------------------------------ */

/* "; points: Villain 2 +2 (5), Villain 1 -1 (3)" into out: the scores
 * that changed since L's first `moves` moves (the game as it stood then,
 * rebuilt; most often from the newest snapshot), or nothing when none
 * changed (a game without points). Returns its length. */
static size_t since_points(cmd_ctx *c, const live *L, int64_t moves,
                           cmd_lang lang, char *out, size_t cap) {
  if (!L->g || cap == 0)
    return 0;
  eng_result now, then;
  eng_game_result(L->g, &now);
  eng_game *g = cmd_game_at(c, L, moves);
  if (!g)
    return 0;
  eng_game_result(g, &then);
  eng_game_free(g);
  size_t o = 0;
  for (int s = 0; s < L->n_seats && s < ENG_MAX_SEATS && o < cap; s++) {
    int d = now.score[s] - then.score[s];
    if (d)
      o += (size_t)snprintf(out + o, cap - o,
                            o ? T(lang, ", Villain %d %+d (%d)")
                              : T(lang, "; points: Villain %d %+d (%d)"),
                            s + 1, d, now.score[s]);
  }
  return o < cap ? o : cap - 1;
}

void cmd_since_text(cmd_ctx *c, const live *L, int seat, char *out,
                    size_t cap) {
  out[0] = '\0';
  if (seat < 0 || seat >= L->n_seats || cap == 0)
    return;
  since_ctx *x = calloc(1, sizeof *x);
  if (!x)
    return;
  x->seat = seat;
  x->last = -1;
  for (int s = 0; s < ENG_MAX_SEATS; s++)
    x->answer_seq[s] = -1;
  /* a first decision has nothing to catch up on */
  if (sto_line_list(c->cfg.db, L->row.id, INT_MIN, INT_MAX, seat, collect_since,
                    x) ||
      x->last < 0) {
    free(x);
    return;
  }
  /* the opening of seat's turn DM: in the language its player reads */
  cmd_lang lang = cmd_lang_user(c, L->seats[seat].user);
  char raw[CMD_TEXT_MAX];
  size_t o = (size_t)snprintf(raw, sizeof raw, "%s",
                              T(lang, "**Since your last turn:** "));
  int total = 0;
  for (int s = 0; s < L->n_seats; s++)
    total += x->answers[s];
  if (total == 0) {
    free(x);
    return;
  }
  if (x->n_about == 0)
    o += (size_t)snprintf(raw + o, sizeof raw - o, "%s",
                          T(lang, "nothing aimed at you."));
  for (int i = 0; i < x->n_about && i < 2 && o < sizeof raw; i++)
    o += (size_t)snprintf(raw + o, sizeof raw - o, "%s%s", i ? " " : "",
                          x->about[i]);
  if (x->n_about > 2 && o < sizeof raw)
    o += (size_t)snprintf(raw + o, sizeof raw - o,
                          T(lang, " (%d more about you)"), x->n_about - 2);
  if (o < sizeof raw)
    o += (size_t)snprintf(raw + o, sizeof raw - o, "\n");
  bool first = true;
  for (int s = 0; s < L->n_seats && o < sizeof raw; s++) {
    if (!x->answers[s])
      continue;
    o += (size_t)snprintf(raw + o, sizeof raw - o, "%s", first ? "" : "; ");
    if (o < sizeof raw)
      o +=
          (size_t)snprintf(raw + o, sizeof raw - o,
                           cmd_trn(lang, x->answers[s], "Villain %d: %d answer",
                                   "Villain %d: %d answers"),
                           s + 1, x->answers[s]);
    if (x->last_line[s][0] && o < sizeof raw)
      o += (size_t)snprintf(raw + o, sizeof raw - o, T(lang, ", last: %s"),
                            x->last_line[s]);
    first = false;
  }
  if (o < sizeof raw)
    o += since_points(c, L, x->last + 1, lang, raw + o, sizeof raw - o);
  if (o < sizeof raw)
    snprintf(raw + o, sizeof raw - o, "%s",
             T(lang, ". All of it: /game log since:me"));
  cmd_names(L, raw, out, cap);
  free(x);
}

/* ---- the end of a game --------------------------------------------------- */

#define GAINS_MAX 3 /* the rises of a seat's score the summary names */

typedef struct gain {
  int64_t seq; /* the move after which it came */
  int points;
  char text[120]; /* the line that tells it */
} gain;

typedef struct rise_ctx {
  eng_game *g;
  int last[ENG_MAX_SEATS]; /* each seat's score so far */
  int best[ENG_MAX_SEATS]; /* its greatest rise after one answer */
  int64_t best_seq[ENG_MAX_SEATS];
  /* What scored: each seat's greatest rises, after anyone's move, with
   * that move's first public line (filled by count_moment). */
  int n_gains[ENG_MAX_SEATS];
  gain gains[ENG_MAX_SEATS][GAINS_MAX];
} rise_ctx;

/* Notes that seat s's score rose by d after move seq: kept if it is among
 * the seat's GAINS_MAX greatest. */
static void add_gain(rise_ctx *x, int s, int64_t seq, int d) {
  int n = x->n_gains[s], k = n;
  if (n == GAINS_MAX) {
    k = 0;
    for (int i = 1; i < n; i++)
      if (x->gains[s][i].points < x->gains[s][k].points)
        k = i;
    if (x->gains[s][k].points >= d)
      return;
  } else {
    x->n_gains[s]++;
  }
  x->gains[s][k].seq = seq;
  x->gains[s][k].points = d;
  x->gains[s][k].text[0] = '\0';
}

/* A takeback that lowered seat s's score by d: its latest rises go with
 * it, as far as they make up d. */
static void drop_gains(rise_ctx *x, int s, int d) {
  while (d > 0 && x->n_gains[s] > 0) {
    int k = 0;
    for (int i = 1; i < x->n_gains[s]; i++)
      if (x->gains[s][i].seq > x->gains[s][k].seq)
        k = i;
    d -= x->gains[s][k].points;
    x->gains[s][k] = x->gains[s][--x->n_gains[s]];
  }
}

static int rise_move(void *ctx, const sto_move *m) {
  rise_ctx *x = ctx;
  if (m->kind == STO_MOVE_TAKEBACK
          ? eng_game_takeback(x->g, m->seat) != 0
          : eng_game_answer(x->g, m->seat, m->option, NULL) != 0)
    return 1; /* a move that no longer fits: what was found so far */
  eng_result r;
  eng_game_result(x->g, &r);
  for (int s = 0; s < x->g->cfg.players && s < ENG_MAX_SEATS; s++) {
    int d = r.score[s] - x->last[s];
    if (m->kind != STO_MOVE_TAKEBACK && m->seat == s && d > x->best[s]) {
      x->best[s] = d;
      x->best_seq[s] = m->seq;
    }
    if (d > 0 && m->kind != STO_MOVE_TAKEBACK)
      add_gain(x, s, m->seq, d);
    else if (d < 0 && m->kind == STO_MOVE_TAKEBACK)
      drop_gains(x, s, -d);
    x->last[s] = r.score[s];
  }
  return 0;
}

/* Each seat's own answer after which its score rose most (rise_ctx), by
 * replaying L's stored moves; best_seq -1 where it never rose. */
static void score_rises(cmd_ctx *c, const live *L, rise_ctx *x) {
  for (int s = 0; s < ENG_MAX_SEATS; s++)
    x->best_seq[s] = -1;
  const eng_ruleset *rs = eng_find(L->row.ruleset);
  eng_config cfg;
  int seats;
  if (!rs || rs->version != L->row.ruleset_version ||
      !cmd_parse_config(L->row.config, &cfg, &seats) ||
      eng_game_new(rs, &cfg, L->row.seed, &x->g))
    return;
  eng_result r;
  eng_game_result(x->g, &r);
  for (int s = 0; s < ENG_MAX_SEATS; s++)
    x->last[s] = r.score[s];
  sto_move_list(c->cfg.db, L->row.id, 0, rise_move, x);
  eng_game_free(x->g);
  x->g = NULL;
}

typedef struct moment_ctx {
  int64_t seq;                  /* the move being counted */
  int mover, lines;             /* its seat and public lines so far */
  char first[STO_LINE_MAX + 1]; /* its first line */
  int best[ENG_MAX_SEATS];      /* each seat's most lines in one move */
  int64_t best_seq[ENG_MAX_SEATS];
  char best_text[ENG_MAX_SEATS][200];
  rise_ctx *rise;                     /* the moves scores rose after */
  char rise_text[ENG_MAX_SEATS][200]; /* their first public lines */
} moment_ctx;

static void moment_close(moment_ctx *x) {
  if (x->seq < 0 || x->mover < 0 || x->mover >= ENG_MAX_SEATS)
    return;
  if (x->lines > x->best[x->mover]) {
    x->best[x->mover] = x->lines;
    x->best_seq[x->mover] = x->seq;
    cut_copy(x->best_text[x->mover], sizeof x->best_text[0], x->first);
  }
}

static int count_moment(void *ctx, const sto_line *l) {
  moment_ctx *x = ctx;
  if (l->seq != x->seq) {
    moment_close(x);
    for (int s = 0; s < ENG_MAX_SEATS; s++) {
      if (x->rise->best_seq[s] == l->seq)
        cut_copy(x->rise_text[s], sizeof x->rise_text[0], l->text);
    }
    x->seq = l->seq;
    x->mover = l->mover;
    x->lines = 0;
    cmd_copy(x->first, sizeof x->first, l->text);
  }
  /* A gain is told by the move's last line that names its seat (where a
   * game says what scored: "... now has 3 of 5 points"), else its
   * first. */
  for (int s = 0; s < ENG_MAX_SEATS; s++)
    for (int k = 0; k < x->rise->n_gains[s]; k++) {
      gain *gn = &x->rise->gains[s][k];
      if (gn->seq == l->seq && (!gn->text[0] || names_seat(l->text, s)))
        cut_copy(gn->text, sizeof gn->text, l->text);
    }
  x->lines++;
  return 0;
}

/* Writes a section's heading at raw + o (up to cap) before its first
 * line (*head false), and notes it; returns the new length. */
static size_t heading_once(char *raw, size_t o, size_t cap, bool *head,
                           const char *text) {
  if (!*head && o < cap)
    o += (size_t)snprintf(raw + o, cap - o, "%s", text);
  *head = true;
  return o;
}

/* "3 days 4 hours", "2 hours 5 minutes", "12 minutes", in lang. */
static void duration(cmd_lang lang, int64_t secs, char *out, size_t cap) {
  if (secs < 0)
    secs = 0;
  int64_t d = secs / 86400, h = secs % 86400 / 3600, m = secs % 3600 / 60;
  char days[40], hours[40], minutes[40];
  snprintf(days, sizeof days,
           cmd_trn(lang, d, "%" PRId64 " day", "%" PRId64 " days"), d);
  snprintf(hours, sizeof hours,
           cmd_trn(lang, h, "%" PRId64 " hour", "%" PRId64 " hours"), h);
  snprintf(minutes, sizeof minutes,
           cmd_trn(lang, m, "%" PRId64 " minute", "%" PRId64 " minutes"), m);
  if (d)
    snprintf(out, cap, "%s %s", days, hours);
  else if (h)
    snprintf(out, cap, "%s %s", hours, minutes);
  else
    snprintf(out, cap, "%s", minutes);
}

void cmd_end_summary(cmd_ctx *c, const cmd_request *r, const live *L) {
  char *raw = malloc(CMD_TEXT_MAX * 2), *text = malloc(CMD_TEXT_MAX * 2);
  moment_ctx *x = calloc(1, sizeof *x);
  rise_ctx *rise = calloc(1, sizeof *rise);
  if (!raw || !text || !x || !rise) {
    free(raw);
    free(text);
    free(x);
    free(rise);
    return;
  }
  score_rises(c, L, rise);
  x->rise = rise;
  /* posted in the game's channel, and the same text in its players' DMs */
  cmd_lang lang = cmd_lang_game(c, L);
  size_t cap = CMD_TEXT_MAX - 100, o;
  char res[400], took[80];
  eng_result result;
  eng_game_result(L->g, &result);
  size_t w =
      cmd_winners(lang, L, &result, T(lang, "Nobody wins"), res, sizeof res);
  snprintf(res + w, sizeof res - w, T(lang, ", because %s."), result.reason);
  duration(lang, c->now - L->row.created, took, sizeof took);
  o = (size_t)snprintf(raw, cap,
                       T(lang, "**Summary of game #%" PRId64 " (%s)**\n%s\n"),
                       L->row.id, cmd_game_name(L), res);
  if (o < cap)
    o += (size_t)snprintf(
        raw + o, cap - o,
        cmd_trn(lang, L->g->prompt.turn, "%d turn, ", "%d turns, "),
        L->g->prompt.turn);
  if (o < cap)
    o += (size_t)snprintf(raw + o, cap - o,
                          cmd_trn(lang, L->row.moves, "%" PRId64 " answer",
                                  "%" PRId64 " answers"),
                          L->row.moves);
  if (o < cap)
    o += (size_t)snprintf(raw + o, cap - o, T(lang, ", in %s.\n"), took);
  /* The final table: each seat's summary line of the public view (its
   * points, where the game has them). */
  json_t *v = L->g->rs->view(L->g->state, -1);
  for (int s = 0; v && s < L->n_seats && o < cap; s++) {
    char seatbuf[CMD_FIELD_VALUE_MAX * 2];
    seatbuf[0] = '\0';
    L->g->rs->render(v, ENG_RENDER_SEAT(s), seatbuf, sizeof seatbuf);
    char *nl = strchr(seatbuf, '\n');
    if (nl)
      *nl = '\0';
    if (!seatbuf[0])
      break;
    if (s == 0)
      o += (size_t)snprintf(raw + o, cap - o, "%s",
                            T(lang, "**Final table:**\n"));
    if (o < cap)
      o += (size_t)snprintf(raw + o, cap - o, "- %s\n", seatbuf);
  }
  json_decref(v);
  x->seq = -1;
  x->mover = -1;
  for (int s = 0; s < ENG_MAX_SEATS; s++)
    x->best_seq[s] = -1;
  if (!sto_line_list(c->cfg.db, L->row.id, INT_MIN, INT_MAX, -1, count_moment,
                     x)) {
    moment_close(x);
    /* What scored: each seat's greatest rises, in the order they came,
     * while room is left for the moments below. */
    bool head = false;
    for (int s = 0; s < L->n_seats && s < ENG_MAX_SEATS && o + 600 < cap; s++) {
      int n = rise->n_gains[s], order[GAINS_MAX];
      for (int k = 0; k < n; k++) {
        int at = k;
        while (at > 0 &&
               rise->gains[s][order[at - 1]].seq > rise->gains[s][k].seq) {
          order[at] = order[at - 1];
          at--;
        }
        order[at] = k;
      }
      if (!n)
        continue;
      o = heading_once(raw, o, cap, &head,
                       T(lang, "**What scored** (each player's greatest "
                               "gains, and the move after which they "
                               "came):\n"));
      if (o < cap)
        o += (size_t)snprintf(raw + o, cap - o, "- Villain %d:", s + 1);
      for (int k = 0; k < n && o < cap; k++) {
        char what[80];
        cut_words(what, sizeof what, rise->gains[s][order[k]].text);
        o += (size_t)snprintf(raw + o, cap - o,
                              T(lang, "%s +%d at move %" PRId64 " (%s)"),
                              k ? ";" : "", rise->gains[s][order[k]].points,
                              rise->gains[s][order[k]].seq + 1, what);
      }
      if (o < cap)
        o += (size_t)snprintf(raw + o, cap - o, "\n");
    }
    head = false;
    for (int s = 0; s < L->n_seats && s < ENG_MAX_SEATS && o < cap; s++) {
      bool rose = rise->best_seq[s] >= 0 && x->rise_text[s][0];
      if (!rose && x->best_seq[s] < 0)
        continue;
      o = heading_once(raw, o, cap, &head,
                       T(lang, "**Biggest moments** (each player's answer "
                               "that raised their score most):\n"));
      if (o < cap)
        o += (size_t)snprintf(
            raw + o, cap - o, T(lang, "- Villain %d, move %" PRId64 "%s: %s\n"),
            s + 1, (rose ? rise->best_seq[s] : x->best_seq[s]) + 1,
            rose ? "" : T(lang, " (their answer that did most)"),
            rose ? x->rise_text[s] : x->best_text[s]);
    }
  }
  if (o < cap)
    snprintf(raw + o, cap - o,
             T(lang, "Play again: /game rematch game:%" PRId64
                     ". The record: /game export game:%" PRId64 "."),
             L->row.id, L->row.id);
  cmd_names(L, raw, text, CMD_TEXT_MAX);
  cmd_send_end(c, r, L, text);
  free(raw);
  free(text);
  free(x);
  free(rise);
}
