/*
 * test_sv_markdown.c: Supervillain's card list as Markdown
 * (sv_cards_markdown, the ruleset's cards_markdown). The docs_cards test
 * compares docs/rules/supervillain.md with this text; here the text
 * itself is checked: both tables, one row per distinct card with the
 * right number of cells, totals equal to the rulebook's deck sizes, and
 * cell text that cannot break a table.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "eng.h"
#include "games/supervillain/sv.h"

/* Number of cell separators in a table row: '|' not escaped by '\'. */
static int separators(const char *line, size_t len) {
  int n = 0;
  for (size_t i = 0; i < len; i++)
    if (line[i] == '|' && (i == 0 || line[i - 1] != '\\'))
      n++;
  return n;
}

/* Counts the rows of the table under heading, checking each has cols
 * columns; the header and the alignment row are not counted. */
static int table_rows(const char *md, const char *heading, int cols) {
  const char *p = strstr(md, heading);
  int rows = 0, lines = 0;
  assert_non_null(p);
  p = strstr(p, "\n| ");
  assert_non_null(p);
  p++;
  while (*p == '|') {
    const char *end = strchr(p, '\n');
    assert_non_null(end);
    assert_int_equal(separators(p, (size_t)(end - p)), cols + 1);
    if (lines++ >= 2)
      rows++;
    p = end + 1;
  }
  return rows;
}

static void test_tables(void **unused) {
  const sv_deck *d = sv_cards();
  int minion = 0, domination = 0;
  char row[128];

  (void)unused;
  assert_non_null(d);
  char *md = sv_cards_markdown(d);
  assert_non_null(md);
  for (int i = 0; i < d->n_cards; i++) {
    const sv_card *c = &d->cards[i];
    char power[16];
    sv_format_power(c->domination ? c->cost : c->power, power, sizeof power);
    snprintf(row, sizeof row, "\n| %s | %d | %s |", c->name, c->count, power);
    assert_non_null(strstr(md, row));
    if (c->domination)
      domination++;
    else
      minion++;
  }
  assert_int_equal(table_rows(md, "### Minion cards", 7), minion);
  assert_int_equal(table_rows(md, "### Domination cards", 6), domination);
  assert_non_null(strstr(md, "Total: 43 Minion cards"));
  assert_non_null(strstr(md, "Total: 44 Domination cards"));
  assert_non_null(strstr(md, "| Adrenaline Shot | 2 | 100m |  | yes |  |"));
  assert_non_null(strstr(md,
                         "| Transgalactic Bank | 1 | 1,200m | 2 | `whenever` "
                         "(`mob_put_here`): "));
  free(md);
}

static void test_ruleset_member(void **unused) {
  const eng_ruleset *rs = eng_find("supervillain");

  (void)unused;
  assert_non_null(rs);
  assert_non_null(rs->cards_markdown);
  char *a = rs->cards_markdown();
  char *b = sv_cards_markdown(sv_cards());
  assert_non_null(a);
  assert_non_null(b);
  assert_string_equal(a, b);
  free(a);
  free(b);
}

static void test_cell_escaping(void **unused) {
  sv_deck *d = malloc(sizeof *d);

  (void)unused;
  assert_non_null(d);
  memcpy(d, sv_cards(), sizeof *d);
  assert_false(d->cards[0].domination);
  snprintf(d->cards[0].name, sizeof d->cards[0].name, "Pipe|Crew");
  snprintf(d->cards[0].ops.text, sizeof d->cards[0].ops.text,
           "First line\nsecond | third\r");
  char *md = sv_cards_markdown(d);
  assert_non_null(md);
  assert_non_null(strstr(md, "\n| Pipe\\|Crew | "));
  assert_non_null(strstr(md, "First line second \\| third  |\n"));
  /* The rows still have their 7 and 6 columns. */
  table_rows(md, "### Minion cards", 7);
  table_rows(md, "### Domination cards", 6);
  free(md);
  free(d);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_tables),
      cmocka_unit_test(test_ruleset_member),
      cmocka_unit_test(test_cell_escaping),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
