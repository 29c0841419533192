/*
 * vl_table.h: the table the Villainous rule tests play on (test_vl_rules
 * for the Disney rulebook, test_mv_rules for the Marvel one): a state
 * built from a position (vl_position.h) or a real setup, its prompt, and
 * what the last answer told. Every answer goes through the ruleset's
 * interface by option id and is followed by the state checks.
 */
#ifndef LAIR_TESTS_VL_TABLE_H
#define LAIR_TESTS_VL_TABLE_H

#include <stdbool.h>

#include "eng.h"
#include "games/villainous/vl.h"

typedef struct vl_table {
  const eng_ruleset *rs; /* vl_ruleset or vl_marvel_ruleset */
  vl_state s;
  eng_prompt p;
  unsigned flags;
  eng_events ev; /* what the last answer told */
} vl_table;

/* Asks for the prompt again and checks the state (fails the test). */
void vt_refresh(vl_table *t);
/* Loads the position dir/NAME.json into *t for rs and refreshes it;
 * fails the test when it does not build. */
void vt_load(vl_table *t, const eng_ruleset *rs, const char *dir,
             const char *name);
/* Whether the option with the id (printf format) is offered. */
bool vt_offered(const vl_table *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Answers the current prompt as seat with the option id; fails when the
 * prompt is someone else's, the option is not offered, or the answer
 * breaks a check. */
void vt_answer(vl_table *t, int seat, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Whether some line of the last answer for seat (-1: public) holds text. */
bool vt_told(const vl_table *t, int seat, const char *text);
/* The lowest instance of card id of seat's villain (Marvel's
 * VL_POSITION_COMMON: of the common part) in zone (-1: any); fails the
 * test when there is none. */
int vt_card(const vl_table *t, int seat, const char *id, int zone);
/* How many options of the prompt have an id starting with the prefix. */
int vt_count_prefix(const vl_table *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The label of the option with the id (fails when it is not offered); a
 * static buffer. */
const char *vt_label_of(const vl_table *t, const char *id);

#endif
