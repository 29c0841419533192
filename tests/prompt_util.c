/*
 * prompt_util.c: test-only prompt helpers (see prompt_util.h).
 */
#include "prompt_util.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

int pu_find(const eng_ruleset *rs, const void *st, const eng_prompt *p,
            const char *id) {
  char oid[ENG_ID_MAX + 1], label[ENG_LABEL_MAX + 1];
  for (int i = 0; i < p->n; i++) {
    rs->option(st, p, i, oid, label);
    if (strcmp(oid, id) == 0)
      return i;
  }
  return -1;
}

const char *pu_ids(const eng_ruleset *rs, const void *st, const eng_prompt *p) {
  static char buf[4096];
  size_t len = 0;
  buf[0] = '\0';
  for (int i = 0; i < p->n && len + ENG_ID_MAX + 2 < sizeof buf; i++) {
    char id[ENG_ID_MAX + 1], label[ENG_LABEL_MAX + 1];
    rs->option(st, p, i, id, label);
    len +=
        (size_t)snprintf(buf + len, sizeof buf - len, "%s%s", i ? " " : "", id);
  }
  return buf;
}

int pu_expect(const eng_ruleset *rs, const void *st, const eng_prompt *p,
              int seat, const char *id) {
  if (p->player != seat)
    fail_msg("seat %d should answer %s, but the prompt is for seat %d "
             "(options: %s)",
             seat, id, p->player, pu_ids(rs, st, p));
  int i = pu_find(rs, st, p, id);
  if (i < 0)
    fail_msg("%s is not offered to seat %d; the options are: %s", id, seat,
             pu_ids(rs, st, p));
  return i;
}

void pu_answer(const eng_ruleset *rs, void *st, const char *id) {
  eng_prompt p;
  unsigned flags = 0;
  rs->prompt(st, &p);
  int i = pu_find(rs, st, &p, id);
  if (i < 0)
    fail_msg("no option '%s'; the options are: %s", id, pu_ids(rs, st, &p));
  assert_int_equal(rs->apply(st, p.code[i], &flags, NULL), ENG_OK);
}

void pu_ai_id(const eng_ruleset *rs, const void *st, char id[ENG_ID_MAX + 1]) {
  eng_prompt p;
  char label[ENG_LABEL_MAX + 1];
  eng_rng rng;
  eng_rng_seed(&rng, 1, 1);
  rs->prompt(st, &p);
  int i = eng_ai_choose(rs, st, &p, ENG_AI_HEURISTIC, &rng);
  assert_true(i >= 0 && i < p.n);
  rs->option(st, &p, i, id, label);
}

int pu_told_form(const eng_events *ev, int players, char *msg, size_t cap) {
  int public_lines = 0;
  for (int k = 0; k < ev->n; k++) {
    const eng_event *e = &ev->ev[k];
    size_t len = strlen(e->text);
    if (e->seat < -1 || e->seat >= players) {
      snprintf(msg, cap, "a line for seat %d: '%s'", e->seat, e->text);
      return 1;
    }
    public_lines += e->seat < 0;
    if (len == 0 || !strchr(".!?", e->text[len - 1]) ||
        (len >= 3 && strcmp(e->text + len - 3, "...") == 0)) {
      snprintf(msg, cap, "not one whole sentence: '%s'", e->text);
      return 1;
    }
    if (strstr(e->text, "**") || strstr(e->text, "(null)")) {
      snprintf(msg, cap, "Markdown or a missing text: '%s'", e->text);
      return 1;
    }
    for (const char *p = strstr(e->text, "Villain "); p;
         p = strstr(p + 1, "Villain ")) {
      char d = p[8];
      if (d >= '0' && d <= '9' && (d - '0' < 1 || d - '0' > players)) {
        snprintf(msg, cap, "names a seat past the table: '%s'", e->text);
        return 1;
      }
    }
  }
  if (public_lines == 0) {
    snprintf(msg, cap, "no public line");
    return 1;
  }
  return 0;
}

double pu_heuristic_share(const eng_ruleset *rs, int players, const char *mode,
                          uint64_t seed, long games_per_seat) {
  long won = 0, games = 0;
  for (int seat = 0; seat < players; seat++) {
    eng_config cfg = {.players = players, .first = 0};
    int levels[ENG_MAX_SEATS] = {0};
    eng_sim_stats st;
    snprintf(cfg.mode, sizeof cfg.mode, "%s", mode);
    levels[seat] = ENG_AI_HEURISTIC;
    assert_int_equal(eng_simulate_ai(rs, &cfg, seed + (uint64_t)seat,
                                     games_per_seat, true, 100000, levels, &st),
                     ENG_OK);
    if (st.violations)
      fail_msg("violation: %s", st.first_violation);
    won += st.wins_by_seat[seat];
    games += st.games;
  }
  return 100.0 * (double)won / (double)games;
}
