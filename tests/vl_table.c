/*
 * vl_table.c: the Villainous rule tests' table (vl_table.h), shared by
 * the Disney and the Marvel rule tests.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "prompt_util.h"
#include "vl_position.h"
#include "vl_table.h"

void vt_refresh(vl_table *t) {
  char msg[400];
  t->rs->prompt(&t->s, &t->p);
  if (vl_position_check_state(&t->s, msg, sizeof msg))
    fail_msg("%s", msg);
}

void vt_load(vl_table *t, const eng_ruleset *rs, const char *dir,
             const char *name) {
  char path[512], err[400];
  snprintf(path, sizeof path, "%s/%s.json", dir, name);
  memset(t, 0, sizeof *t);
  t->rs = rs;
  if (vl_position_load(&t->s, path, err, sizeof err))
    fail_msg("position %s: %s", name, err);
  if (strcmp(vl_profiles[t->s.profile].id, rs->id) != 0)
    fail_msg("position %s is not a %s one", name, rs->id);
  vt_refresh(t);
}

bool vt_offered(const vl_table *t, const char *fmt, ...) {
  char id[64];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(id, sizeof id, fmt, ap);
  va_end(ap);
  return pu_find(t->rs, &t->s, &t->p, id) >= 0;
}

void vt_answer(vl_table *t, int seat, const char *fmt, ...) {
  char id[64], msg[700];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(id, sizeof id, fmt, ap);
  va_end(ap);
  int i = pu_expect(t->rs, &t->s, &t->p, seat, id);
  if (vl_position_apply(&t->s, t->p.code[i], &t->flags, &t->ev, msg,
                        sizeof msg))
    fail_msg("answer %s: %s", id, msg);
  vt_refresh(t);
}

bool vt_told(const vl_table *t, int seat, const char *text) {
  for (int k = 0; k < t->ev.n; k++)
    if (t->ev.ev[k].seat == seat && strstr(t->ev.ev[k].text, text))
      return true;
  return false;
}

int vt_card(const vl_table *t, int seat, const char *id, int zone) {
  int i = vl_position_find(&t->s, seat, id, zone);
  if (i < 0)
    fail_msg("no '%s' of seat %d in zone %s", id, seat,
             zone < 0 ? "any" : vl_zone_name(zone));
  return i;
}

int vt_count_prefix(const vl_table *t, const char *fmt, ...) {
  char prefix[64], id[ENG_ID_MAX + 1], label[ENG_LABEL_MAX + 1];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(prefix, sizeof prefix, fmt, ap);
  va_end(ap);
  int n = 0;
  for (int i = 0; i < t->p.n; i++) {
    t->rs->option(&t->s, &t->p, i, id, label);
    n += strncmp(id, prefix, strlen(prefix)) == 0;
  }
  return n;
}

const char *vt_label_of(const vl_table *t, const char *id) {
  static char label[ENG_LABEL_MAX + 1];
  char oid[ENG_ID_MAX + 1];
  int i = pu_find(t->rs, &t->s, &t->p, id);
  if (i < 0)
    fail_msg("%s is not offered; the options are: %s", id,
             pu_ids(t->rs, &t->s, &t->p));
  t->rs->option(&t->s, &t->p, i, oid, label);
  return label;
}
