/*
 * test_events.c: the engine's told lines (eng_events in eng.h): adding,
 * counting, the caps on a line and on a list, and joining lines into one
 * text, all without allocating.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "eng.h"

static void test_add_count_clear(void **unused) {
  static eng_events ev;
  (void)unused;
  eng_events_clear(&ev);
  eng_event_add(&ev, -1, "Villain %d drew %d Minion cards.", 2, 3);
  eng_event_add(&ev, 1, "You drew %s.", "Wormhole");
  eng_event_add(&ev, -7, "Everyone hears this."); /* any negative: public */
  assert_int_equal(ev.n, 3);
  assert_false(ev.truncated);
  assert_int_equal(ev.ev[0].seat, -1);
  assert_string_equal(ev.ev[0].text, "Villain 2 drew 3 Minion cards.");
  assert_int_equal(ev.ev[1].seat, 1);
  assert_int_equal(ev.ev[2].seat, -1);
  assert_int_equal(eng_events_count(&ev, -1), 2);
  assert_int_equal(eng_events_count(&ev, 1), 1);
  assert_int_equal(eng_events_count(&ev, 0), 0);
  assert_int_equal(eng_events_count(NULL, -1), 0);
  eng_events_clear(&ev);
  assert_int_equal(ev.n, 0);
  /* NULL: nobody listens, nothing happens. */
  eng_event_add(NULL, -1, "Nobody hears %s.", "this");
  eng_events_clear(NULL);
}

/* A text longer than ENG_EVENT_TEXT_MAX is cut on a UTF-8 boundary and
 * still ends a sentence ("..."). */
static void test_long_line_cut(void **unused) {
  static eng_events ev;
  char text[600];
  (void)unused;
  size_t o = 0;
  while (o + 3 < sizeof text - 1) { /* "é" is two bytes, "€" three */
    memcpy(text + o, o % 5 ? "\xc3\xa9" : "\xe2\x82\xac", o % 5 ? 2 : 3);
    o += o % 5 ? 2 : 3;
  }
  text[o] = '\0';
  eng_events_clear(&ev);
  eng_event_add(&ev, -1, "%s", text);
  size_t len = strlen(ev.ev[0].text);
  assert_true(len <= ENG_EVENT_TEXT_MAX);
  assert_true(len >= ENG_EVENT_TEXT_MAX - 5);
  assert_string_equal(ev.ev[0].text + len - 3, "...");
  /* The bytes before "..." end a whole UTF-8 sequence. */
  size_t k = len - 3;
  size_t lead = k;
  while (lead > 0 && ((unsigned char)ev.ev[0].text[lead - 1] & 0xC0) == 0x80)
    lead--;
  unsigned char c = (unsigned char)ev.ev[0].text[lead - 1];
  size_t want = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
  assert_int_equal(k - (lead - 1), want);
  /* A text of exactly the limit is kept whole. */
  memset(text, 'a', ENG_EVENT_TEXT_MAX - 1);
  text[ENG_EVENT_TEXT_MAX - 1] = '.';
  text[ENG_EVENT_TEXT_MAX] = '\0';
  eng_event_add(&ev, -1, "%s", text);
  assert_string_equal(ev.ev[1].text, text);
}

static void test_list_cap(void **unused) {
  static eng_events ev;
  (void)unused;
  eng_events_clear(&ev);
  for (int i = 0; i < ENG_EVENTS_MAX + 5; i++)
    eng_event_add(&ev, -1, "Line %d.", i);
  assert_int_equal(ev.n, ENG_EVENTS_MAX);
  assert_true(ev.truncated);
  assert_string_equal(ev.ev[ENG_EVENTS_MAX - 1].text, "Line 47.");
  eng_events_clear(&ev);
  assert_false(ev.truncated);
}

static void test_join(void **unused) {
  static eng_events ev;
  char buf[64];
  (void)unused;
  eng_events_clear(&ev);
  eng_event_add(&ev, -1, "One.");
  eng_event_add(&ev, 0, "Secret.");
  eng_event_add(&ev, -1, "Two!");
  assert_int_equal(eng_events_join(&ev, -1, buf, sizeof buf), 9);
  assert_string_equal(buf, "One. Two!");
  eng_events_join(&ev, 0, buf, sizeof buf);
  assert_string_equal(buf, "Secret.");
  eng_events_join(&ev, 3, buf, sizeof buf);
  assert_string_equal(buf, "");
  eng_events_join(NULL, -1, buf, sizeof buf);
  assert_string_equal(buf, "");
  /* Too long: whole lines first, then the first that does not fit cut. */
  eng_event_add(&ev, -1, "Three is a much longer sentence than the rest.");
  size_t n = eng_events_join(&ev, -1, buf, 20);
  assert_int_equal(n, strlen(buf));
  assert_true(n < 20);
  assert_string_equal(buf, "One. Two! Three...");
  n = eng_events_join(&ev, -1, buf, 4);
  assert_string_equal(buf, "");
  assert_int_equal(eng_events_join(&ev, -1, buf, 0), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_add_count_clear),
      cmocka_unit_test(test_long_line_cut),
      cmocka_unit_test(test_list_cap),
      cmocka_unit_test(test_join),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
