/*
 * test_cmd_fields.c: a table's fields cut to Discord's embed limits
 * (cmd_fit_fields, commands/cmd_core.c), which a turn's channel message
 * goes through before any transport sees it: at most 25 fields, names of
 * one line within 256 bytes, values within 1024 and never empty, the
 * whole embed within 6000; values lose whole lines, the longest first,
 * and say so (in the reader's language); the text gives way only when
 * the values cannot.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cmd_int.h"

static cmd_fitted fit; /* 32 KB: not on the stack */

/* What the embed of title, text and fit takes, in bytes. */
static size_t embed_len(const char *title, const char *text) {
  size_t n = strlen(title) + strlen(text);
  for (int i = 0; i < fit.n; i++)
    n += strlen(fit.f[i].name) + strlen(fit.f[i].value);
  return n;
}

/* Every field within Discord's limits, valid UTF-8, nothing empty. */
static void check_limits(const char *title, const char *text) {
  assert_true(fit.n <= CMD_FIELDS_MAX);
  for (int i = 0; i < fit.n; i++) {
    size_t a = strlen(fit.f[i].name), b = strlen(fit.f[i].value);
    assert_true(a >= 1 && a <= CMD_FIELD_NAME_MAX);
    assert_true(b >= 1 && b <= CMD_FIELD_VALUE_MAX);
    assert_null(strchr(fit.f[i].name, '\n'));
    assert_true(cmd_utf8_valid(fit.f[i].name, a));
    assert_true(cmd_utf8_valid(fit.f[i].value, b));
  }
  assert_true(embed_len(title, text) <= CMD_EMBED_MAX);
}

/* Whether every line of got but a last CMD_FIELD_CUT is a line of want,
 * in order from its first. */
static bool whole_lines_of(const char *got, const char *want) {
  size_t n = strlen(got);
  const char *cut = strstr(got, CMD_FIELD_CUT);
  if (cut) {
    if (cut[strlen(CMD_FIELD_CUT)] != '\0')
      return false;
    n = (size_t)(cut - got);
    if (n == 0)
      return true;
    if (got[n - 1] != '\n')
      return false;
    n--;
  }
  return strncmp(got, want, n) == 0 && (want[n] == '\n' || want[n] == '\0');
}

/* A small table goes through as it is; an empty value becomes a dash. */
static void test_small_table_unchanged(void **unused) {
  (void)unused;
  char text[] = "bob played Jetpack Couriers.\nWaiting for carol.";
  cmd_field f[] = {
      {"alice: 1 point, 3 cards in hand",
       "- Project Wormhole: 200m of 900m\n- Secret Facility Overtime HQ"},
      {"bob: 0 points, 4 cards in hand", ""},
  };
  cmd_fit_fields(&fit, CMD_LANG_EN, f, 2, "Supervillain - game #1, turn 3",
                 text);
  assert_int_equal(fit.n, 2);
  assert_string_equal(fit.f[0].name, f[0].name);
  assert_string_equal(fit.f[0].value, f[0].value);
  assert_string_equal(fit.f[1].name, f[1].name);
  assert_string_equal(fit.f[1].value, "-");
  assert_string_equal(text, "bob played Jetpack Couriers.\nWaiting for carol.");
}

/* Names: one line, at most 256 bytes, cut between characters. */
static void test_names(void **unused) {
  (void)unused;
  char text[] = "";
  char long_name[600];
  memset(long_name, 0, sizeof long_name);
  for (size_t o = 0; o + 3 < sizeof long_name; o += 3)
    memcpy(long_name + o, "\xc3\xa9x", 3); /* "éx" */
  cmd_field f[] = {{"two\nlines", "v"}, {long_name, "v"}, {"", "v"}};
  cmd_fit_fields(&fit, CMD_LANG_EN, f, 3, "t", text);
  assert_string_equal(fit.f[0].name, "two lines");
  assert_true(strlen(fit.f[1].name) <= CMD_FIELD_NAME_MAX);
  assert_true(strlen(fit.f[1].name) >= CMD_FIELD_NAME_MAX - 3);
  assert_string_equal(fit.f[2].name, "-");
  check_limits("t", text);
}

/* 40 lines of 60 bytes: more than a field holds. */
static void long_value(char *value, size_t cap) {
  value[0] = '\0';
  for (int i = 0; i < 40; i++)
    snprintf(value + strlen(value), cap - strlen(value),
             "%s- Project number %02d: 100m of 900m (Mobs: Flak Gnomes)",
             i ? "\n" : "", i);
}

/* A value longer than a field holds loses whole lines from its end. */
static void test_long_value(void **unused) {
  (void)unused;
  char value[3000], text[] = "Waiting for bob.";
  long_value(value, sizeof value);
  cmd_field f[] = {{"alice: 0 points", value}};
  cmd_fit_fields(&fit, CMD_LANG_EN, f, 1, "t", text);
  assert_true(fit.cut[0]);
  assert_true(whole_lines_of(fit.f[0].value, value));
  assert_non_null(strstr(fit.f[0].value, "number 15"));
  check_limits("t", text);
}

/* A value cut for a German reader says so in German, in the same room. */
static void test_long_value_german(void **unused) {
  (void)unused;
  char value[3000], text[] = "Warten auf bob.";
  long_value(value, sizeof value);
  cmd_field f[] = {{"alice: 0 points", value}};
  cmd_fit_fields(&fit, CMD_LANG_DE, f, 1, "t", text);
  assert_true(fit.cut[0]);
  const char *end = strrchr(fit.f[0].value, '\n');
  assert_non_null(end);
  assert_string_equal(end + 1, "(mehr: /game status)");
  assert_null(strstr(fit.f[0].value, CMD_FIELD_CUT));
  check_limits("t", text);
}

/* Eight big areas and a long text: the values give way, the longest
 * first, and the text is kept whole. */
static void test_embed_total(void **unused) {
  (void)unused;
  static char values[8][1100], names[8][40];
  char text[CMD_EDIT_MAX + 1] = "";
  for (size_t o = 0; o + 80 < CMD_EDIT_MAX - 400;)
    o += (size_t)snprintf(text + o, sizeof text - o, "%s",
                          "alice played a Mob on a Project: a long story.\n");
  char kept[sizeof text];
  snprintf(kept, sizeof kept, "%s", text);
  cmd_field f[8];
  for (int s = 0; s < 8; s++) {
    for (int l = 0; l < 4 + 2 * s; l++)
      snprintf(values[s] + strlen(values[s]),
               sizeof values[s] - strlen(values[s]),
               "%s- Project %d.%d: 300m of 1,100m (Mobs: Lead-Lined Grunts)",
               l ? "\n" : "", s, l);
    snprintf(names[s], sizeof names[s], "player%d: %d points", s, s);
    f[s].name = names[s];
    f[s].value = values[s];
  }
  cmd_fit_fields(&fit, CMD_LANG_EN, f, 8, "Supervillain - game #9, turn 99",
                 text);
  assert_int_equal(fit.n, 8);
  assert_string_equal(text, kept);
  check_limits("Supervillain - game #9, turn 99", text);
  for (int s = 0; s < 8; s++) {
    assert_string_equal(fit.f[s].name, names[s]);
    assert_true(whole_lines_of(fit.f[s].value, values[s]));
  }
  assert_false(fit.cut[0]); /* the short areas are whole */
  assert_true(fit.cut[7]);  /* the longest gave way */
}

/* More fields than Discord shows, with names too long to fit together:
 * 25 at most, and the text and last fields give way. */
static void test_too_many(void **unused) {
  (void)unused;
  static char name[CMD_FIELD_NAME_MAX + 1];
  char text[] = "one\ntwo\nthree";
  memset(name, 'n', CMD_FIELD_NAME_MAX);
  cmd_field f[30];
  for (int i = 0; i < 30; i++)
    f[i] = (cmd_field){name, "a value that has no line to give away"};
  cmd_fit_fields(&fit, CMD_LANG_EN, f, 30, "t", text);
  assert_true(fit.n <= CMD_FIELDS_MAX && fit.n >= 20);
  check_limits("t", text);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_small_table_unchanged),
      cmocka_unit_test(test_names),
      cmocka_unit_test(test_long_value),
      cmocka_unit_test(test_long_value_german),
      cmocka_unit_test(test_embed_total),
      cmocka_unit_test(test_too_many),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
