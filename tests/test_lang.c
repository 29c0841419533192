/*
 * test_lang: the message catalogue (commands/cmd_lang.c) and the
 * languages of Discord's locales.
 *
 * - the embedded catalogues are sound (cmd_lang_check), and a German
 *   text is found by its English one, an unknown text is itself;
 * - two formats take the same arguments exactly when their conversions
 *   agree, positions ("%2$s") included: the guard that keeps a faulty
 *   translation from ever reaching printf;
 * - Discord's locales map to their language ("de", "de-AT"; "en-US" and
 *   anything else English);
 * - every description of the command table has its German form within
 *   Discord's 100 characters, since the slash commands carry them as
 *   description_localizations.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "cmd.h"
#include "eng.h"

#include <string.h>

static void catalogue_sound(void **state) {
  (void)state;
  const char *why = cmd_lang_check();
  if (why)
    fail_msg("%s", why);
  const char *en = eng_strerror(ENG_NOT_PLAYING);
  const char *de = cmd_tr(CMD_LANG_DE, en);
  assert_string_not_equal(de, en);
  assert_true(cmd_lang_has(CMD_LANG_DE, en));
  assert_ptr_equal(cmd_tr(CMD_LANG_EN, en), en);
  const char *unknown = "A text no catalogue has.";
  assert_ptr_equal(cmd_tr(CMD_LANG_DE, unknown), unknown);
  assert_false(cmd_lang_has(CMD_LANG_DE, unknown));
  assert_null(cmd_tr(CMD_LANG_DE, NULL));
  /* Every engine error has its German form. */
  for (int rc = 0; rc < ENG_RC_COUNT; rc++)
    assert_true(cmd_lang_has(CMD_LANG_DE, eng_strerror((eng_rc)rc)));
}

static void same_args(void **state) {
  (void)state;
  assert_true(cmd_lang_same_args("Game #%ld of %s", "Spiel #%ld von %s"));
  assert_true(cmd_lang_same_args("%s beat %s", "%2$s verlor gegen %1$s"));
  assert_true(cmd_lang_same_args("100%% sure, %d", "%i, 100%% sicher"));
  assert_true(cmd_lang_same_args("%.40s", "%.60s")); /* precision: no arg */
  assert_false(cmd_lang_same_args("%s", "%d"));
  assert_false(cmd_lang_same_args("%s and %s", "%s"));
  assert_false(cmd_lang_same_args("%s", "%s %s"));
  assert_false(cmd_lang_same_args("%ld", "%d"));
  assert_false(cmd_lang_same_args("%s %d", "%d %s"));
  assert_false(cmd_lang_same_args("%s %s", "%1$s %s"));  /* mixed */
  assert_false(cmd_lang_same_args("%s %s", "%1$s %1$s")); /* one twice */
  assert_false(cmd_lang_same_args("%*d", "%*d"));         /* no '*' */
  assert_false(cmd_lang_same_args("%s", "%n"));
}

static void locales(void **state) {
  (void)state;
  assert_int_equal(cmd_lang_of_locale("de"), CMD_LANG_DE);
  assert_int_equal(cmd_lang_of_locale("de-AT"), CMD_LANG_DE);
  assert_int_equal(cmd_lang_of_locale("de_DE"), CMD_LANG_DE);
  assert_int_equal(cmd_lang_of_locale("en-US"), CMD_LANG_EN);
  assert_int_equal(cmd_lang_of_locale("fr"), CMD_LANG_EN);
  assert_int_equal(cmd_lang_of_locale("dex"), CMD_LANG_EN);
  assert_int_equal(cmd_lang_of_locale(""), CMD_LANG_EN);
  assert_int_equal(cmd_lang_of_locale(NULL), CMD_LANG_EN);
  assert_string_equal(cmd_lang_code(CMD_LANG_DE), "de");
  assert_string_equal(cmd_lang_code(CMD_LANG_EN), "en");
}

/* Discord's limit, in characters (UTF-8 sequences). */
static size_t chars(const char *s) {
  size_t n = 0;
  for (; *s; s++)
    n += ((unsigned char)*s & 0xC0) != 0x80;
  return n;
}

static void check_description(const char *what, const char *en) {
  if (!cmd_lang_has(CMD_LANG_DE, en))
    fail_msg("%s: no German description for \"%s\"", what, en);
  size_t n = chars(cmd_tr(CMD_LANG_DE, en));
  if (n < 1 || n > 100)
    fail_msg("%s: the German description has %zu characters", what, n);
}

static void descriptions(void **state) {
  (void)state;
  for (size_t g = 0; g < cmd_groups_n; g++)
    check_description(cmd_groups[g].name, cmd_groups[g].description);
  for (size_t i = 0; i < cmd_table_n; i++) {
    const cmd_def *d = &cmd_table[i];
    check_description(d->name, d->description);
    for (int k = 0; k < d->n_options; k++)
      check_description(d->options[k].name, d->options[k].description);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(catalogue_sound),
      cmocka_unit_test(same_args),
      cmocka_unit_test(locales),
      cmocka_unit_test(descriptions),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
