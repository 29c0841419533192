/*
 * test_sv_events.c: what Supervillain tells the table after each answer
 * (eng_events): every answer says what it did, to the right readers.
 *
 * Two kinds of test. Seeded random games in every mode and player count
 * check every answer of every game: at least one public line, every line
 * one sentence naming only cards its reader may see (tests/sv_told.c),
 * every effect op and every option type told whenever it occurs, and
 * every question naming the card that asks it. Then exact texts from
 * positions (tests/data/supervillain/, built by tests/sv_position.c),
 * each naming the rulebook passage (the English rulebook of Supervillain: This Galaxy Is Mine!)
 * whose event it tells.
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

#include "eng.h"
#include "games/supervillain/sv.h"
#include "sv_position.h"
#include "sv_told.h"

#ifndef SV_TEST_DATA
#error "SV_TEST_DATA must name tests/data/supervillain (see tests.cmake)"
#endif

/* ---- random games ---------------------------------------------------- */

#define N_TYPES 12 /* option types are 1..OPT_STOP */
#define N_KINDS 9  /* SV_F_* and "no frame" */

typedef struct tallies {
  sv_trace ops;
  long answers[N_TYPES][N_KINDS][SV_OP_COUNT + 1];
  long max_lines;
} tallies;

static const char *type_name(int type) {
  static const char *const names[N_TYPES] = {
      "?",   "project", "launch", "mob",  "ops",  "shoot",
      "use", "charge",  "end",    "pick", "seat", "stop"};
  return type >= 0 && type < N_TYPES ? names[type] : "?";
}

/* The question of the prompt must end in '?' (or be the game's end) and,
 * when an effect asks it, begin with the name of its card. */
static void check_question(const sv_state *s, const eng_prompt *p) {
  char q[ENG_QUESTION_MAX];
  sv_ruleset.question(s, p, q, sizeof q);
  size_t len = strlen(q);
  if (len == 0 || len + 1 >= sizeof q || q[len - 1] != '?')
    fail_msg("a bad question: '%s'", q);
  if (s->sp > 0) {
    const sv_frame *f = &s->stack[s->sp - 1];
    bool by_card = f->kind == SV_F_EFFECT || f->kind == SV_F_LAUNCH ||
                   (f->kind == SV_F_DISCARD &&
                    (f->b == SV_WHY_COST || f->b == SV_WHY_EFFECT)) ||
                   (f->kind == SV_F_PLACE && f->b != 0);
    if (by_card && !strstr(q, sv_card_of(f->src)->name))
      fail_msg("the question '%s' does not name %s, whose ability asks it", q,
               sv_card_of(f->src)->name);
  }
}

static void play_games(int players, const char *mode, int games, tallies *out) {
  static sv_state s, before;
  static eng_events ev;
  eng_prompt p;
  char msg[600];
  for (int g = 0; g < games; g++) {
    eng_config cfg = {.players = players, .first = -1};
    snprintf(cfg.mode, sizeof cfg.mode, "%s", mode);
    uint64_t seed = eng_mix64(0xE7E17 + (uint64_t)g * 131 + (uint64_t)players);
    assert_int_equal(sv_ruleset.setup(&s, &cfg, seed), ENG_OK);
    eng_rng pick;
    eng_rng_seed(&pick, seed, 1);
    for (long k = 0; k < 100000; k++) {
      sv_ruleset.prompt(&s, &p);
      if (p.player < 0)
        break;
      check_question(&s, &p);
      uint32_t code = p.code[eng_rng_below(&pick, (uint32_t)p.n)];
      int type = OPT_TYPE(code);
      const sv_frame *f = s.sp > 0 ? &s.stack[s.sp - 1] : NULL;
      int kind = f ? f->kind : N_KINDS - 1;
      int op = f && f->kind == SV_F_EFFECT ? f->op : SV_OP_COUNT;
      before = s;
      eng_events_clear(&ev);
      memset(out->ops.shown, 0, sizeof out->ops.shown);
      unsigned flags = 0;
      assert_int_equal(sv_apply_traced(&s, code, &flags, &ev, &out->ops),
                       ENG_OK);
      if (ev.truncated)
        fail_msg("%s, %d players: an answer (%s) told more than %d lines", mode,
                 players, type_name(type), ENG_EVENTS_MAX);
      if (sv_told_check(&before, &s, &ev, out->ops.shown, msg, sizeof msg))
        fail_msg("%s, %d players, game %d, answer %ld (%s): %s", mode, players,
                 g, k, type_name(type), msg);
      if (type > 0 && type < N_TYPES)
        out->answers[type][kind][op]++;
      if (ev.n > out->max_lines)
        out->max_lines = ev.n;
    }
    assert_true(s.over);
  }
}

/* Every mode and player count: every answer tells at least one public
 * line, each line is one sentence naming only what its reader may see,
 * every option type and every effect op that occurs is told, and all of
 * them occur. */
static void test_random_games_tell_everything(void **unused) {
  (void)unused;
  static const struct {
    int players;
    const char *mode;
  } runs[] = {
      {2, "standard"},
      {3, "standard"},
      {4, "standard"},
      {2, "blitz"},
      {3, "slow"},
      {4, "team"},
      {2, "annihilation"},
      {3, "blitz+annihilation"},
      {4, "team+annihilation"},
  };
  static tallies t;
  memset(&t, 0, sizeof t);
  for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++)
    play_games(runs[r].players, runs[r].mode, 6, &t);

  for (int op = 0; op < SV_OP_COUNT; op++) {
    if (t.ops.acted[op] == 0)
      fail_msg("no random game used the op %s", sv_op_name(op));
    if (t.ops.told[op] < t.ops.acted[op])
      fail_msg("the op %s acted %ld times but told only %ld public lines",
               sv_op_name(op), t.ops.acted[op], t.ops.told[op]);
  }
  for (int type = 1; type < N_TYPES; type++) {
    long n = 0;
    for (int k = 0; k < N_KINDS; k++)
      for (int op = 0; op <= SV_OP_COUNT; op++)
        n += t.answers[type][k][op];
    if (n == 0)
      fail_msg("no random game answered a %s option", type_name(type));
  }
  /* Every decision an effect asks was met (pick, seat or stop). */
  for (int op = 0; op < SV_OP_COUNT; op++) {
    bool asks = false, asked = false;
    switch ((sv_op)op) {
    case SV_OP_DRAW_MINION:
    case SV_OP_DISCARD_MINION:
    case SV_OP_EACH_OTHER_DISCARDS:
    case SV_OP_LAUNCH_ASTEROID:
    case SV_OP_DRAW_PROJECT:
    case SV_OP_DESTROY_ALL_MOBS:
    case SV_OP_EXTRA_MOB:
    case SV_OP_EXTRA_OPS:
    case SV_OP_COUNT:
      break;
    case SV_OP_DESTROY_OWN_PROJECT:
    case SV_OP_TAKE_DISCARD_PROJECT:
    case SV_OP_TAKE_DISCARD_MINION:
    case SV_OP_PUT_MOB_FROM_HAND:
    case SV_OP_PUT_MOB_FROM_DISCARD:
    case SV_OP_STEAL_MOB:
    case SV_OP_SWAP_MOBS:
    case SV_OP_DESTROY_MOB:
    case SV_OP_DESTROY_PROJECT:
    case SV_OP_DESTROY_FACILITY:
    case SV_OP_CHARGE_ASTEROID:
    case SV_OP_SHOOT_DOWN:
    case SV_OP_RETARGET:
    case SV_OP_ADD_PROOF:
    case SV_OP_REMOVE_PROOF:
    case SV_OP_REVERT_FACILITY:
      asks = true;
      break;
    }
    for (int type = 1; type < N_TYPES; type++)
      asked |= t.answers[type][SV_F_EFFECT][op] > 0;
    if (asks && !asked)
      fail_msg("no random game answered a question of the op %s",
               sv_op_name(op));
  }
  /* Room to spare: the busiest answer stays well inside the list. */
  assert_true(t.max_lines < ENG_EVENTS_MAX);
}

/* ---- exact texts from positions -------------------------------------- */

typedef struct table {
  sv_state s;
  eng_prompt p;
  eng_events ev;
} table;

static void load(table *t, const char *name) {
  char path[512], err[400];
  snprintf(path, sizeof path, "%s/%s.json", SV_TEST_DATA, name);
  memset(t, 0, sizeof *t);
  if (sv_position_load(&t->s, path, err, sizeof err))
    fail_msg("position %s: %s", name, err);
  sv_ruleset.prompt(&t->s, &t->p);
}

/* The lowest instance of card id in zone of owner (-1: anyone's). */
static int card(const table *t, const char *id, int zone, int owner) {
  int i = sv_position_find(&t->s, id, zone, owner);
  if (i < 0)
    fail_msg("no '%s' in zone %s of seat %d", id, sv_zone_name(zone), owner);
  return i;
}

/* Answers as seat with the option id (printf-style); the lines it told
 * land in t->ev and must pass sv_told_check. */
static void answer(table *t, int seat, const char *fmt, ...) {
  char id[64], oid[ENG_ID_MAX + 1], label[ENG_LABEL_MAX + 1], msg[600];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(id, sizeof id, fmt, ap);
  va_end(ap);
  assert_int_equal(t->p.player, seat);
  int found = -1;
  for (int i = 0; i < t->p.n && found < 0; i++) {
    sv_ruleset.option(&t->s, &t->p, i, oid, label);
    if (strcmp(oid, id) == 0)
      found = i;
  }
  if (found < 0)
    fail_msg("%s is not offered to seat %d", id, seat);
  static sv_state before;
  static sv_trace trace;
  before = t->s;
  memset(&trace, 0, sizeof trace);
  unsigned flags = 0;
  eng_events_clear(&t->ev);
  assert_int_equal(
      sv_apply_traced(&t->s, t->p.code[found], &flags, &t->ev, &trace), ENG_OK);
  if (sv_told_check(&before, &t->s, &t->ev, trace.shown, msg, sizeof msg))
    fail_msg("%s: %s", id, msg);
  sv_ruleset.prompt(&t->s, &t->p);
}

/* All lines for seat (-1: the public ones), one per line, for messages. */
static const char *lines(const table *t, int seat) {
  static char buf[ENG_EVENTS_MAX * (ENG_EVENT_TEXT_MAX + 2)];
  size_t o = 0;
  buf[0] = '\0';
  for (int k = 0; k < t->ev.n; k++)
    if (t->ev.ev[k].seat == seat)
      o +=
          (size_t)snprintf(buf + o, sizeof buf - o, "\n  %s", t->ev.ev[k].text);
  return buf;
}

/* Asserts the lines for seat are exactly the given ones, in order
 * (NULL-terminated list). */
static void expect_lines(const table *t, int seat, ...) {
  va_list ap;
  va_start(ap, seat);
  int k = 0;
  for (const char *want; (want = va_arg(ap, const char *)) != NULL;) {
    while (k < t->ev.n && t->ev.ev[k].seat != seat)
      k++;
    if (k >= t->ev.n)
      fail_msg("seat %d should hear '%s'; it heard:%s", seat, want,
               lines(t, seat));
    if (strcmp(t->ev.ev[k].text, want) != 0)
      fail_msg("seat %d should hear '%s', not '%s'; it heard:%s", seat, want,
               t->ev.ev[k].text, lines(t, seat));
    k++;
  }
  va_end(ap);
  while (k < t->ev.n && t->ev.ev[k].seat != seat)
    k++;
  if (k < t->ev.n)
    fail_msg("seat %d heard more than expected:%s", seat, lines(t, seat));
}

static void question(const table *t, const char *want) {
  char q[ENG_QUESTION_MAX];
  sv_ruleset.question(&t->s, &t->p, q, sizeof q);
  assert_string_equal(q, want);
}

/* Retarget an Asteroid - "You become the new owner of this Asteroid.
 * Rotate its tail to yourself and point the Asteroid at any other
 * Villain." The table hears which Asteroid turned, and at whom. */
static void test_retarget_told(void **unused) {
  (void)unused;
  table t;
  load(&t, "events_retarget");
  answer(&t, 1, "ops.c%d", card(&t, "tractor_beam_techs", SV_Z_HAND, 1));
  expect_lines(&t, -1, "Villain 2 played Tractor Beam Techs as Minion Ops.",
               "Villain 2 took over Villain 1's Asteroid Wormhole: it flew at "
               "Villain 2 and now flies at Villain 1.",
               NULL);
  expect_lines(&t, 0, NULL);
  expect_lines(&t, 1, NULL);

  /* With a choice of Villains the question names the card and the
   * Asteroid, and the choice is told once made. */
  load(&t, "retarget");
  answer(&t, 0, "ops.c%d", card(&t, "tractor_beam_techs", SV_Z_HAND, 0));
  expect_lines(&t, -1, "Villain 1 played Tractor Beam Techs as Minion Ops.",
               "Villain 1 is taking over Villain 2's Asteroid Wormhole (at "
               "Villain 1).",
               NULL);
  question(&t, "Tractor Beam Techs' Ops: point the Asteroid Wormhole at "
               "which Villain?");
  answer(&t, 0, "seat.3");
  expect_lines(&t, -1,
               "Villain 1 took over Villain 2's Asteroid Wormhole: it flew at "
               "Villain 1 and now flies at Villain 3.",
               NULL);
}

/* Questions of General Interest - "If a Mob with Asteroid-proof token is
 * stolen from another Villain and put on your own Project, does it retain
 * the Asteroid-proof token? Sure." The steal is told with whose Mob it
 * was, where it went and the token it keeps. */
static void test_steal_told(void **unused) {
  (void)unused;
  table t;
  load(&t, "steal");
  int flak = card(&t, "flak_gnomes", SV_Z_MOB, 1);
  answer(&t, 0, "ops.c%d", card(&t, "poaching_recruiters", SV_Z_HAND, 0));
  expect_lines(&t, -1, "Villain 1 played Poaching Recruiters as Minion Ops.",
               NULL);
  question(&t, "Poaching Recruiters' Ops: steal which Mob?");
  answer(&t, 0, "pick.c%d", flak);
  expect_lines(&t, -1,
               "Villain 1 stole Villain 2's Mob Flak Gnomes (300m, with its "
               "Asteroid-proof token) from Sun Magnifying Glass and put it on "
               "Doomsday Clock Tower: 300m of 1,300m.",
               NULL);
}

/* Completing a Project - "Discard all Mobs from this Project." "Rotate
 * the Project card. From now on, this card is your Secret Facility."
 * Domination points - "you get Domination points". The Mob played is
 * named only once it is on the table; the completion, the discarded Mobs
 * and the new score are told. */
static void test_completion_told(void **unused) {
  (void)unused;
  table t;
  load(&t, "complete_discards_mobs");
  int sling = card(&t, "asteroid_slingshot", SV_Z_PROJECT, 0);
  answer(&t, 0, "mob.c%d", card(&t, "launch_chimps", SV_Z_HAND, 0));
  /* Two Projects: the card stays in the hand until one is chosen. */
  expect_lines(&t, -1, "Villain 1 is playing a Minion card as a Mob.", NULL);
  expect_lines(&t, 0, "You are playing Launch Chimps as a Mob.", NULL);
  question(&t, "Play Launch Chimps as a Mob onto which of your Projects?");
  answer(&t, 0, "pick.c%d", sling);
  expect_lines(&t, -1,
               "Villain 1 played Launch Chimps (400m) as a Mob on Asteroid "
               "Slingshot: 900m of 800m.",
               "Villain 1 completed the Project Asteroid Slingshot (900m of "
               "800m): its Mobs Tractor Beam Techs and Launch Chimps go to "
               "the Minion discard pile.",
               "Asteroid Slingshot is now Villain 1's Secret Facility, worth 1 "
               "point: Villain 1 now has 1 of 5 points.",
               NULL);
}

/* Act II - "Draw a Card from the Minion Deck"; Act III - "Draw a card
 * from the Domination deck and place it on the table face up."; Questions
 * of General Interest: the number of cards in a hand is open, the cards
 * are not. Everyone hears how many were drawn, only the drawer which. */
static void test_draw_told(void **unused) {
  (void)unused;
  table t;
  load(&t, "events_draw");
  answer(&t, 0, "ops.c%d", card(&t, "clone_vat_interns", SV_Z_HAND, 0));
  expect_lines(&t, -1, "Villain 1 played Clone Vat Interns as Minion Ops.",
               "Villain 1 drew 2 Minion cards.", NULL);
  expect_lines(&t, 0, "You drew Colossal Clone and Jetpack Couriers.", NULL);
  expect_lines(&t, 1, NULL);

  /* The next turn's draws: Act II privately, Act III face up. */
  load(&t, "act2_draw");
  answer(&t, 1, "end");
  expect_lines(&t, -1, "Villain 2 ended their Day.",
               "Villain 1's turn begins (turn 2).",
               "Villain 1 drew 1 Minion card.",
               "Villain 1 turned up Doomsday Clock Tower (1,300m, 2 points) "
               "from the Domination deck.",
               NULL);
  expect_lines(&t, 0, "You drew Colossal Clone.", NULL);
  expect_lines(&t, 1, NULL);
  question(&t, "Start Doomsday Clock Tower as a Project, or launch it as an "
               "Asteroid?");
}

/* VICTORY - "A Villain who has acquired 5 Domination points immediately
 * wins the game and is proclaimed the Supervillain." and "the Villain
 * having the maximum number of Domination points wins" when the
 * Domination deck runs out; "If two or more Villains are tied, there is
 * no winner in this game. The world is saved!" */
static void test_game_end_told(void **unused) {
  (void)unused;
  table t;
  load(&t, "victory_standard");
  int sling = card(&t, "asteroid_slingshot", SV_Z_PROJECT, 0);
  answer(&t, 0, "mob.c%d", card(&t, "adrenaline_shot", SV_Z_HAND, 0));
  answer(&t, 0, "pick.c%d", sling);
  answer(&t, 0, "mob.c%d", card(&t, "adrenaline_shot", SV_Z_HAND, 0));
  expect_lines(&t, -1,
               "Villain 1 played Adrenaline Shot (100m) as a Mob on Asteroid "
               "Slingshot: 800m of 800m.",
               "Villain 1 completed the Project Asteroid Slingshot (800m of "
               "800m): its Mobs Adrenaline Shot and Middle Management go to "
               "the Minion discard pile.",
               "Asteroid Slingshot is now Villain 1's Secret Facility, worth 1 "
               "point: Villain 1 now has 5 of 5 points.",
               "Villain 1 reaches 5 points and wins the game!", NULL);

  load(&t, "victory_team");
  sling = card(&t, "asteroid_slingshot", SV_Z_PROJECT, 0);
  answer(&t, 0, "mob.c%d", card(&t, "adrenaline_shot", SV_Z_HAND, 0));
  answer(&t, 0, "pick.c%d", sling);
  answer(&t, 0, "mob.c%d", card(&t, "adrenaline_shot", SV_Z_HAND, 0));
  assert_true(t.s.over);
  assert_string_equal(t.ev.ev[t.ev.n - 1].text,
                      "Villain 1 and Villain 3 reach 8 points together and "
                      "win the game!");

  load(&t, "domination_exhausted");
  answer(&t, 1, "end");
  expect_lines(&t, -1, "Villain 2 ended their Day.",
               "Villain 1's turn begins (turn 2).",
               "Villain 1 drew 1 Minion card.",
               "The Domination deck and its discard pile are both empty: the "
               "game ends, and the most points win.",
               "Villain 1 wins with 2 points!", NULL);

  load(&t, "domination_exhausted_tie");
  answer(&t, 1, "end");
  assert_string_equal(t.ev.ev[t.ev.n - 1].text,
                      "Nobody wins, since Villain 1 and Villain 2 are tied "
                      "with 2 points: the galaxy is saved!");
}

/* Asteroids Hit Targets - "1. Draw a Minion card." "2.1. Uncharged
 * Asteroid: destroy one Mob" and Asteroid-proof tokens - "the token is
 * discarded, while the Mob is not affected." The hit, what it destroyed
 * and the Asteroid's end are told. */
static void test_asteroid_hit_told(void **unused) {
  (void)unused;
  table t;
  load(&t, "act1_uncharged");
  int flak = card(&t, "flak_gnomes", SV_Z_MOB, 1);
  answer(&t, 1, "end");
  question(&t, "Your Asteroid Wormhole hits Villain 2: destroy what?");
  answer(&t, 0, "pick.c%d", flak);
  expect_lines(&t, -1,
               "The Asteroid Wormhole knocked the Asteroid-proof token off "
               "Villain 2's Mob Flak Gnomes (on Doomsday Clock Tower), and "
               "the Mob survives.",
               "The Asteroid Wormhole goes to the Domination discard pile.",
               "Villain 1 drew 1 Minion card.",
               "Villain 1 turned up Chronosphere (1,000m, 1 point) from the "
               "Domination deck.",
               NULL);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_retarget_told),
      cmocka_unit_test(test_steal_told),
      cmocka_unit_test(test_completion_told),
      cmocka_unit_test(test_draw_told),
      cmocka_unit_test(test_game_end_told),
      cmocka_unit_test(test_asteroid_hit_told),
      cmocka_unit_test(test_random_games_tell_everything),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
