/*
 * test_vl_rules.c: the rules of Villainous (the Disney rulebook's
 * profile), one cmocka test per rulebook passage.
 *
 * Each test names the passage it checks (section and a short German quote
 * of the rulebook, Lair's English beside it) and starts from a position
 * (tests/data/villainous/NAME.json, built by tests/vl_position.c, its
 * "rule" field quoting the same passage) or from a real setup. The game
 * is driven only through the ruleset interface: vl_ruleset.prompt and
 * .option find an answer by its id ("play.c12", "loc.2", "pass"...),
 * vl_apply_traced makes it. After every answer the state must pass
 * vl_check, every view (public and each seat's) must show only what its
 * viewer may see, and the lines told must pass vl_told_check (a public
 * line at least, no card named to a reader who may not see it). Card
 * instances are looked up by card id and zone, never hard-coded.
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
#include "games/villainous/vl.h"
#include "prompt_util.h"
#include "vl_position.h"
#include "vl_table.h"

#ifndef VL_TEST_DATA
#error "VL_TEST_DATA must name tests/data/villainous (see tests.cmake)"
#endif

/* ---- the table: a state, its prompt, the last answer's lines ---------- */

typedef vl_table table;

/* Loads tests/data/villainous/NAME.json into a fresh table. */
static table *load(const char *name) {
  static table t;
  vt_load(&t, &vl_ruleset, VL_TEST_DATA, name);
  return &t;
}

/* A real game's setup: players, mode ("" or "random"), first seat. */
static table *setup(int players, const char *mode, int first, uint64_t seed) {
  static table t;
  eng_config cfg = {.players = players, .first = first};
  memset(&t, 0, sizeof t);
  t.rs = &vl_ruleset;
  snprintf(cfg.mode, sizeof cfg.mode, "%s", mode);
  assert_int_equal(vl_ruleset.setup(&t.s, &cfg, seed), ENG_OK);
  vt_refresh(&t);
  return &t;
}

static void option_id(const table *t, int i, char id[ENG_ID_MAX + 1]) {
  char label[ENG_LABEL_MAX + 1];
  vl_ruleset.option(&t->s, &t->p, i, id, label);
}

static void assert_zone(const table *t, int i, int zone) {
  if (t->s.w[i].zone != zone)
    fail_msg("card %d (%s) is in %s, expected %s", i, vl_card_of(&t->s, i)->id,
             vl_zone_name(t->s.w[i].zone), vl_zone_name(zone));
}

static int hand(const table *t, int seat) {
  int n = 0;
  for (int i = seat * VL_BLOCK; i < seat * VL_BLOCK + VL_VDECK; i++)
    n += t->s.w[i].zone == VL_Z_HAND;
  return n;
}

/* ---- more of the harness ------------------------------------------------ */

/* The question of the current prompt. */
static const char *question(const table *t) {
  static char q[ENG_QUESTION_MAX];
  vl_ruleset.question(&t->s, &t->p, q, sizeof q);
  return q;
}

/* The instance of card id of seat's villain in zone at location loc. */
static int card_at(const table *t, int seat, const char *id, int zone,
                   int loc) {
  for (int i = seat * VL_BLOCK; i < (seat + 1) * VL_BLOCK; i++)
    if (t->s.w[i].zone == zone && t->s.w[i].loc == loc &&
        (i % VL_BLOCK) < VL_VDECK + vl_villain_of(&t->s, seat)->n_fate &&
        strcmp(vl_card_of(&t->s, i)->id, id) == 0)
      return i;
  fail_msg("no '%s' of seat %d in zone %s at location %d", id, seat,
           vl_zone_name(zone), loc + 1);
  return -1;
}

/* The n-th (from 0) instance of card id of seat's villain in zone. */
static int card_nth(const table *t, int seat, const char *id, int zone, int n) {
  for (int i = seat * VL_BLOCK; i < (seat + 1) * VL_BLOCK; i++)
    if (t->s.w[i].zone == zone &&
        (i % VL_BLOCK) < VL_VDECK + vl_villain_of(&t->s, seat)->n_fate &&
        strcmp(vl_card_of(&t->s, i)->id, id) == 0 && n-- == 0)
      return i;
  fail_msg("no more '%s' of seat %d in zone %s", id, seat, vl_zone_name(zone));
  return -1;
}

/* The n of the first effect op of card id of seat's villain (its data:
 * "lose 2 Power" gives 2), so that a test follows tuned content. */
static int effect_n(const table *t, int seat, const char *id, int op) {
  const vl_card *c = vl_card_of(&t->s, vl_position_find(&t->s, seat, id, -1));
  for (int a = 0; a < c->n_ab; a++)
    for (int k = 0; k < c->ab[a].n_eff; k++)
      if (c->ab[a].eff[k].op == op)
        return c->ab[a].eff[k].n;
  fail_msg("'%s' has no effect %s", id, vl_op_name(op));
  return 0;
}

/* Answers option i of the current prompt, whatever it is, as its seat. */
static void answer_nth(table *t, int i) {
  char id[ENG_ID_MAX + 1];
  option_id(t, i, id);
  vt_answer(t, t->p.player, "%s", id);
}

static int power_of(const table *t, int seat) { return t->s.seat[seat].power; }

/* The number of entries of the array under key in seat's view (-1:
 * public); -1 when the view has no such key. */
static int view_count(const table *t, int seat, const char *key) {
  json_t *v = vl_view(&t->s, seat);
  json_t *a = json_object_get(v, key);
  int n = json_is_array(a) ? (int)json_array_size(a) : -1;
  json_decref(v);
  return n;
}

/* Whether the array under key in seat's view names a card called name. */
static bool view_names(const table *t, int seat, const char *key,
                       const char *name) {
  json_t *v = vl_view(&t->s, seat);
  json_t *a = json_object_get(v, key), *c;
  size_t k;
  bool found = false;
  json_array_foreach(a, k, c) {
    const char *n = json_string_value(json_object_get(c, "name"));
    found |= n && strcmp(n, name) == 0;
  }
  json_decref(v);
  return found;
}

/* The full state as compact JSON text with sorted keys (malloc'd). */
static char *state_text(const vl_state *s) {
  json_t *j = vl_to_json(s);
  assert_non_null(j);
  char *text = json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS);
  json_decref(j);
  assert_non_null(text);
  return text;
}

/* ======================================================================
 * Setup (Vorbereitung)
 * ====================================================================*/

/* Vorbereitung 8: "Der Startspieler erhält zu Spielbeginn keine
 * Machtchips. Der zweite Spieler nimmt sich einen Machtchip ... Spieler 3
 * und 4 erhalten je zwei Machtchips und Spieler 5 und 6 je drei." Steps
 * 2, 3 and 5: movers on the leftmost location, a lock token where the
 * rightmost location shows the lock, four cards in every hand. */
static void test_setup_power_movers_locks_hands(void **unused) {
  (void)unused;
  static const int power[6] = {0, 1, 2, 2, 3, 3};
  for (int players = 2; players <= 6; players++) {
    int first = players - 1; /* the last seat starts: order wraps */
    table *t = setup(players, "random", first, 40 + (uint64_t)players);
    assert_int_equal(t->s.current, first);
    assert_int_equal(t->s.phase, VL_PH_MOVE);
    for (int p = 0; p < players; p++) {
      int pos = (p - first + players) % players;
      const vl_villain *v = vl_villain_of(&t->s, p);
      assert_non_null(v);
      assert_int_equal(t->s.seat[p].power, power[pos]);
      assert_int_equal(t->s.seat[p].mover, 0);
      assert_int_equal(t->s.seat[p].locked, v->loc[3].locked ? 8 : 0);
      assert_int_equal(hand(t, p), 4);
      assert_int_equal(t->s.vdeck[p].n, VL_VDECK - 4);
      assert_int_equal(t->s.fdeck[p].n, v->n_fate);
      for (int q = 0; q < p; q++)
        assert_int_not_equal(t->s.seat[q].villain, t->s.seat[p].villain);
    }
  }
}

/* Vorbereitung 1: "Jeder Spieler wählt einen Bösewicht aus". Lair asks
 * the seats in order, each choosing among the villains nobody took. */
static void test_setup_villains_chosen_in_seat_order(void **unused) {
  (void)unused;
  table *t = setup(3, "", 0, 5);
  assert_int_equal(t->s.phase, VL_PH_CHOOSE);
  assert_int_equal(t->p.player, 0);
  assert_int_equal(t->p.n, vl_loaded[VL_PROFILE_DISNEY].n);
  vt_answer(t, 0, "villain.hive_queen");
  assert_true(vt_told(t, -1, "Villain 1 chose The Hive Queen"));
  assert_int_equal(t->p.player, 1);
  assert_false(vt_offered(t, "villain.hive_queen"));
  assert_int_equal(t->p.n, vl_loaded[VL_PROFILE_DISNEY].n - 1);
  vt_answer(t, 1, "villain.bog_witch");
  vt_answer(t, 2, "villain.gilded_baron");
  /* All chosen: the game is dealt and the first player moves. */
  assert_int_equal(t->s.phase, VL_PH_MOVE);
  assert_int_equal(t->p.player, 0);
  for (int p = 0; p < 3; p++)
    assert_int_equal(hand(t, p), 4);
  assert_true(t->flags & ENG_REVEALED); /* the draws: no takeback past it */
}

/* Lair's decision 3 ("der Spieler mit dem bösesten Blick beginnt"
 * cannot be checked): the first player is random from the game's seed,
 * the same seed always giving the same one, unless the host picks one. */
static void test_setup_first_player_from_seed_or_host(void **unused) {
  (void)unused;
  int seen = 0;
  for (uint64_t seed = 1; seed <= 16; seed++) {
    int first = setup(3, "random", -1, seed)->s.first;
    assert_int_equal(setup(3, "random", -1, seed)->s.first, first);
    assert_int_equal(setup(3, "random", -1, seed)->s.current, first);
    seen |= 1 << first;
  }
  assert_true(seen != 1 && seen != 2 && seen != 4); /* not always one */
  table *t = setup(3, "random", 2, 9);
  assert_int_equal(t->s.first, 2);
  assert_int_equal(t->p.player, 2);
  /* Power to start follows the chosen first player. */
  assert_int_equal(power_of(t, 2), 0);
  assert_int_equal(power_of(t, 0), 1);
  assert_int_equal(power_of(t, 1), 2);
}

/* Lair's decision 1: the villains are Lair's own, "6 Bösewicht-Kartensätze
 * (30 Karten pro Kartensatz), 6 Schicksal-Kartensätze (15 Karten pro
 * Kartensatz)", kept within the published game's calibration, which the
 * validator enforces on every shipped villain: costs 0-4, Ally Strength
 * 1-4, Hero Strength 2-6 (8 to 10 Heroes), 3-5 actions per location (1-2
 * on top), one Gain 3 Power, two Fate actions at different locations, a
 * location with two Play a Card, every other action somewhere, two
 * Conditions of two copies each, a lock only on the rightmost location,
 * and a bottom Gain action at a location that starts open. */
static void test_decision_villains_calibrated(void **unused) {
  (void)unused;
  assert_non_null(vl_data_get(VL_PROFILE_DISNEY));
  assert_true(vl_loaded[VL_PROFILE_DISNEY].n >=
              VL_SEATS); /* six villains for six players */
  for (int a = 0; a < vl_loaded[VL_PROFILE_DISNEY].n; a++) {
    const vl_villain *v = &vl_loaded[VL_PROFILE_DISNEY].v[a];
    int deck = 0, fate = 0, heroes = 0, cond_defs = 0, cond_cards = 0;
    for (int d = 0; d < v->n_defs; d++) {
      const vl_card *c = &v->defs[d];
      if (c->deck == VL_DECK_VILLAIN) {
        deck += c->count;
        assert_in_range(c->cost, 0, 4);
        if (c->kind == VL_K_ALLY)
          assert_in_range(c->strength, 1, 4);
        if (c->kind == VL_K_CONDITION) {
          cond_defs++;
          cond_cards += c->count;
          assert_int_equal(c->count, 2);
        }
      } else {
        fate += c->count;
        if (c->kind == VL_K_HERO) {
          heroes += c->count;
          assert_in_range(c->strength, 2, 6);
        }
      }
    }
    if (deck != 30 || fate != 15)
      fail_msg("%s: %d villain and %d fate cards", v->id, deck, fate);
    assert_in_range(heroes, 8, 10);
    assert_int_equal(cond_defs, 2);
    assert_int_equal(cond_cards, 4);
    int count[VL_A_COUNT] = {0}, fate_locs = 0, two_play = 0, open_gain = 0;
    for (int l = 0; l < VL_LOCS; l++) {
      const vl_location *loc = &v->loc[l];
      int plays = 0, fates = 0;
      assert_in_range(loc->n, 3, 5);
      assert_in_range(loc->n_top, 1, 2);
      assert_true(!loc->locked || l == VL_LOCS - 1);
      for (int k = 0; k < loc->n; k++) {
        int kind = loc->a[k].kind;
        count[kind]++;
        plays += kind == VL_A_PLAY;
        fates += kind == VL_A_FATE;
        if (k >= loc->n_top && !loc->locked &&
            (kind == VL_A_GAIN_1 || kind == VL_A_GAIN_2 || kind == VL_A_GAIN_3))
          open_gain++;
      }
      fate_locs += fates > 0;
      two_play += plays >= 2;
    }
    if (count[VL_A_GAIN_3] != 1 || count[VL_A_FATE] != 2 || fate_locs != 2 ||
        two_play < 1 || !count[VL_A_VANQUISH] || !count[VL_A_MOVE_HERO] ||
        !count[VL_A_MOVE_ALLY] || !count[VL_A_DISCARD] || open_gain < 1)
      fail_msg("%s: its realm is off the calibration", v->id);
  }
}

/* ======================================================================
 * A turn (Dein Spielzug)
 * ====================================================================*/

/* 1 Bösewicht-Spielfigur bewegen: "Du kannst sie zu allen Orten in
 * deinem Reich bewegen, sofern dort kein Schlosschip liegt. Stehen
 * bleiben ist nicht erlaubt." */
static void test_move_elsewhere_never_to_a_lock(void **unused) {
  (void)unused;
  table *t = load("move_elsewhere");
  /* The Drowned Captain at Gallows Reef (2), the Lighthouse (4) locked. */
  assert_int_equal(t->p.player, 0);
  assert_false(vt_offered(t, "move.2"));
  assert_false(vt_offered(t, "move.4"));
  assert_true(vt_offered(t, "move.1") && vt_offered(t, "move.3"));
  assert_int_equal(t->p.n, 2);
  vt_answer(t, 0, "move.3");
  assert_int_equal(t->s.seat[0].mover, 2);
  assert_true(vt_told(t, -1, "moved to Brinewater Undercroft"));
}

/* Dein Spielzug, Beispiel: "Bewegst du dich an diesen Ort, darfst du
 * beliebig viele dieser vier Aktionen ausführen. ... Bewegst du dich an
 * diesen Ort, kannst du maximal diese beiden Aktionen ausführen." The
 * move's options say what each place offers, a covered top left out. */
static void test_turn_example_actions_of_a_location(void **unused) {
  (void)unused;
  table *t = load("turn_example");
  assert_string_equal(vt_label_of(t, "move.1"),
                      "Move to Crooked Stilt-Hut: Gain 2, Play, Play, Discard");
  assert_string_equal(vt_label_of(t, "move.2"),
                      "Move to Sinkmoss Flats: Fate, Vanquish (top covered)");
  assert_false(vt_offered(t, "move.3")); /* where the mover stands */
  vt_answer(t, 0, "move.2");
  assert_true(vt_told(t, -1,
                      "Gain 3 Power (covered), Move an Item or Ally "
                      "(covered), Fate, Vanquish"));
  assert_int_equal(vt_count_prefix(t, "gain."), 0);
  assert_true(vt_offered(t, "fate.2"));
}

/* Dein Spielzug, 2 Aktionen ausführen: "Du darfst alle diese Aktionen
 * in beliebiger Reihenfolge ausführen; jede Aktion aber nur einmal."
 * Eine Karte ausspielen: "Spiele für jedes entsprechende Symbol an
 * deinem Ort genau eine Handkarte aus." A turn with nothing left but its
 * end ends by itself. */
static void test_turn_each_action_once_in_any_order(void **unused) {
  (void)unused;
  table *t = load("turn_actions");
  /* Gallows Reef: Play a Card, Move a Hero | Gain 1, Play a Card,
   * Vanquish. */
  int deck = vt_card(t, 0, "drowned_deckhand", VL_Z_HAND);
  int wraith = vt_card(t, 0, "anchor_wraith", VL_Z_HAND);
  int nell = vt_card(t, 0, "nell_fathom", VL_Z_TOP);
  assert_true(vt_offered(t, "gain.3"));
  assert_true(vt_offered(t, "hero.c%d.2", nell));
  assert_int_equal(vt_count_prefix(t, "vanq."), 0); /* no Ally with Nell */
  vt_answer(t, 0, "play.c%d", deck);
  vt_answer(t, 0, "loc.3");
  assert_int_equal(power_of(t, 0), 2);
  /* The second Play symbol plays another card. */
  int deck2 = vt_card(t, 0, "drowned_deckhand", VL_Z_HAND);
  assert_true(vt_offered(t, "play.c%d", deck2));
  /* A bottom action before the top Move a Hero: any order. */
  vt_answer(t, 0, "vanq.c%d", nell);
  assert_zone(t, nell, VL_Z_FDISC);
  vt_answer(t, 0, "gain.3");
  assert_int_equal(power_of(t, 0), 3);
  assert_false(vt_offered(t, "gain.3")); /* once */
  vt_answer(t, 0, "play.c%d", wraith);
  vt_answer(t, 0, "loc.3");
  /* Both Play symbols used, one card each; nothing else to do: the turn
   * ended and the next villain moves. */
  assert_zone(t, deck2, VL_Z_HAND);
  assert_zone(t, vt_card(t, 0, "undertow", -1), VL_Z_HAND);
  assert_true(vt_told(t, -1, "Villain 1 ended their turn."));
  assert_int_equal(t->s.current, 1);
  assert_int_equal(t->p.player, 1);
}

/* Dein Spielzug: "Aktionen, die von einer Schicksal-Karte verdeckt
 * werden, kannst du nicht ausführen." A Hero at the mover's location
 * covers its top actions. */
static void test_turn_covered_top_actions_not_offered(void **unused) {
  (void)unused;
  table *t = load("covered_top");
  /* Sinkmoss Flats: Gain 3 Power, Move an Item or Ally | Fate, Vanquish;
   * Hob Kettering stands on it. */
  int hob = vt_card(t, 0, "hob_kettering", VL_Z_TOP);
  assert_true(vl_covered(&t->s, 0, 1));
  assert_false(vt_offered(t, "gain.1"));
  assert_int_equal(vt_count_prefix(t, "ally."), 0);
  assert_true(vt_offered(t, "fate.2"));
  assert_true(vt_offered(t, "vanq.c%d", hob));
}

/* Häufige Fragen: "Ich besiege in meinem Zug einen Helden, und dadurch
 * werden an dem Ort, an dem meine Bösewicht-Spielfigur steht,
 * Aktionssymbole aufgedeckt. Darf ich diese Aktionen noch im gleichen
 * Zug ausführen? Ja. Wird während deines Zugs ein Aktionssymbol wieder
 * sichtbar, kannst du die Aktion sofort ausführen." */
static void test_faq_uncovered_by_vanquish_usable_at_once(void **unused) {
  (void)unused;
  table *t = load("covered_top");
  int hob = vt_card(t, 0, "hob_kettering", VL_Z_TOP);
  int mud = vt_card(t, 0, "mudling", VL_Z_REALM);
  vt_answer(t, 0, "vanq.c%d", hob); /* Sedge Ogre, the only Ally there */
  assert_zone(t, hob, VL_Z_FDISC);
  assert_false(vl_covered(&t->s, 0, 1));
  assert_true(vt_offered(t, "gain.1"));
  assert_true(vt_offered(t, "ally.c%d.2", mud));
  vt_answer(t, 0, "gain.1");
  assert_int_equal(power_of(t, 0), 3);
}

/* Dein Spielzug: "Verdeckte Aktionen kannst du nicht ausführen, bis du
 * die Schicksal-Karte wieder losgeworden bist. Gelingt es dir, während
 * deine Bösewicht-Spielfigur an diesem Ort steht, darfst du die wieder
 * freigewordenen Aktionen noch im selben Zug ausführen." Here the Hero
 * is moved away. */
static void test_turn_uncovered_by_moving_the_hero_away(void **unused) {
  (void)unused;
  table *t = load("uncover_by_move");
  /* Heron Mere: Play a Card, Activate | Gain 1, Move a Hero, Move an
   * Item or Ally; Tobiah Lantry covers the top. */
  int tobiah = vt_card(t, 0, "tobiah_lantry", VL_Z_TOP);
  int mud = vt_card(t, 0, "mudling", VL_Z_HAND);
  int cauldron = vt_card(t, 0, "black_iron_cauldron", VL_Z_REALM);
  int ring = vt_card(t, 0, "toadstool_ring", VL_Z_VDISC);
  assert_false(vt_offered(t, "play.c%d", mud));
  assert_int_equal(vt_count_prefix(t, "act."), 0);
  vt_answer(t, 0, "hero.c%d.2", tobiah);
  assert_zone(t, tobiah, VL_Z_TOP);
  assert_true(vt_offered(t, "play.c%d", mud));
  vt_answer(t, 0, "act.c%d", cauldron);
  assert_zone(t, ring, VL_Z_HAND); /* the only Item in the discard pile */
  assert_int_equal(power_of(t, 0), 0);
}

/* Häufige Fragen: "Umgekehrt gilt ebenso: Wird ein Aktionssymbol
 * abgedeckt, bevor du diese Aktion in deinem Zug ausgeführt hast, kannst
 * du diese Aktion nicht mehr ausführen." The Iron Warlord calls a Hero
 * onto her own mover's location. */
static void test_faq_covered_before_use_is_lost(void **unused) {
  (void)unused;
  table *t = load("covered_mid_turn");
  /* Anvil Keep: Gain 2 Power, Play a Card | Play a Card, Move. */
  int call = vt_card(t, 0, "iw_call_out_champion", VL_Z_HAND);
  int levy = vt_card(t, 0, "iw_war_levy", VL_Z_HAND);
  int corbin = vt_card(t, 0, "iw_corbin_tallow", VL_Z_FDECK);
  assert_true(vt_offered(t, "gain.1"));
  vt_answer(t, 0, "play.c%d", call);
  assert_true(t->flags & ENG_REVEALED);
  assert_true(vt_told(t, -1, "turned up Corbin Tallow, Deserter"));
  assert_int_equal(t->p.player, 0); /* she places it */
  vt_answer(t, 0, "loc.1");
  assert_zone(t, corbin, VL_Z_TOP);
  assert_int_equal(t->s.w[corbin].loc, 0);
  assert_int_equal(power_of(t, 0), 1);
  assert_false(vt_offered(t, "gain.1"));        /* covered before it was used */
  assert_true(vt_offered(t, "play.c%d", levy)); /* the bottom Play stays */
}

/* 3 Karten ziehen: "Ziehe am Ende deines Zugs so viele Bösewicht-Karten
 * nach, bis du wieder vier Karten auf der Hand hältst." Hinweis: "Dies
 * gilt auch, wenn du zu Beginn deines Zugs weniger als vier Karten auf
 * der Hand halten solltest." 8: "Gespielt wird im Uhrzeigersinn." A hand
 * of more than four draws nothing. */
static void test_turn_draw_up_to_four_at_the_end(void **unused) {
  (void)unused;
  table *t = load("draw_end");
  assert_int_equal(hand(t, 0), 1); /* fewer than four at the start */
  vt_answer(t, 0, "move.2");
  vt_answer(t, 0, "end");
  assert_int_equal(hand(t, 0), 4);
  assert_true(vt_told(t, -1, "Villain 1 drew 3 cards."));
  assert_true(t->flags & ENG_REVEALED);
  assert_int_equal(t->s.current, 1);
  assert_int_equal(hand(t, 1), 5);
  vt_answer(t, 1, "move.2");
  vt_answer(t, 1, "end");
  assert_int_equal(hand(t, 1), 5);
  assert_false(vt_told(t, -1, "Villain 2 drew"));
  assert_false(t->flags & ENG_REVEALED);
  assert_int_equal(t->s.current, 0);
  assert_int_equal(t->s.round, 2);
  /* Exactly four: nothing either. */
  vt_answer(t, 0, "move.1");
  vt_answer(t, 0, "end");
  assert_int_equal(hand(t, 0), 4);
  assert_false(vt_told(t, -1, "Villain 1 drew"));
}

/* 3 Karten ziehen: "Ist dein Bösewicht-Kartenstapel aufgebraucht? Dann
 * mische deinen Ablagestapel gut durch und bilde einen neuen
 * Bösewicht-Kartenstapel." */
static void test_turn_empty_deck_refilled_from_discard(void **unused) {
  (void)unused;
  table *t = load("deck_empty");
  int recital = vt_card(t, 0, "la_black_recital", VL_Z_VDECK);
  assert_int_equal(t->s.vdeck[0].n, 1);
  assert_int_equal(t->s.vdisc[0].n, 27);
  vt_answer(t, 0, "end");
  assert_int_equal(hand(t, 0), 4);
  assert_zone(t, recital, VL_Z_HAND); /* the last card of the old deck */
  assert_true(vt_told(t, -1,
                      "Villain 1 shuffled their villain discard pile "
                      "(27 cards) into a new villain deck."));
  assert_int_equal(t->s.vdeck[0].n, 26);
  assert_int_equal(t->s.vdisc[0].n, 0);
}
/* ======================================================================
 * Actions (Übersicht der Aktionen)
 * ====================================================================*/

/* Machtchips erhalten: "Nimm dir so viele Machtchips aus dem Kessel, wie
 * die Zahl im Symbol angibt." Beispiel: "Nimm dir zwei Machtchips." A
 * card at the location changes it (Counting Table, +1); a card at
 * another location does not (Inspector Wendel Marsh, -1). */
static void test_action_gain_power_with_modifiers(void **unused) {
  (void)unused;
  table *t = load("gain_modifiers");
  assert_string_equal(vt_label_of(t, "gain.1"), "Gain 3 Power (to 3)");
  vt_answer(t, 0, "gain.1");
  assert_int_equal(power_of(t, 0), 3);
  assert_true(vt_told(t, -1, "Villain 1 gained 3 Power (now 3)."));
  assert_false(t->flags & ENG_REVEALED);
  /* Gain 1, +1, -2 (Elias Thorne): never below 0. */
  t = load("gain_floor");
  vt_answer(t, 0, "gain.3");
  assert_int_equal(power_of(t, 0), 4);
  assert_true(vt_told(t, -1, "Villain 1 gained 0 Power (now 4)."));
}

/* Eine Karte ausspielen: "Die meisten Karten kosten Machtchips. Um die
 * Karte auszuspielen, musst du so viele Machtchips bezahlen ... Hast du
 * nicht genügend Machtchips, um eine Karte zu bezahlen, kannst du diese
 * nicht ausspielen." Judge Honora Blythe makes Allies cost 1 more. */
static void test_action_play_pays_cost_unaffordable_not_offered(void **unused) {
  (void)unused;
  table *t = load("play_cost");
  int hurlock = vt_card(t, 0, "gb_bastion_hurlock", VL_Z_HAND);
  int cudgel = vt_card(t, 0, "gb_hired_cudgel", VL_Z_HAND);
  int tbl = vt_card(t, 0, "gb_counting_table", VL_Z_HAND);
  int clerk = vt_card(t, 0, "gb_coin_clerk", VL_Z_HAND);
  assert_int_equal(vl_cost(&t->s, 0, cudgel), 3);
  assert_int_equal(vl_cost(&t->s, 0, clerk), 2);
  assert_false(vt_offered(t, "play.c%d", hurlock));
  assert_false(vt_offered(t, "play.c%d", cudgel));
  assert_true(vt_offered(t, "play.c%d", tbl));
  assert_true(vt_offered(t, "play.c%d", clerk));
  vt_answer(t, 0, "play.c%d", tbl);
  assert_true(vt_told(t, -1, "Villain 1 is playing a card from their hand."));
  assert_true(vt_told(t, 0, "You are playing Counting Table."));
  vt_answer(t, 0, "loc.3");
  assert_zone(t, tbl, VL_Z_REALM);
  assert_int_equal(t->s.w[tbl].loc, 2);
  assert_int_equal(power_of(t, 0), 0);
  assert_true(vt_told(t, -1,
                      "Villain 1 played the Item Counting Table at The "
                      "Tollgate, paying 2 Power (0 left)."));
  assert_false(vt_offered(t, "play.c%d", clerk)); /* nothing left to pay */
}

/* Häufige Fragen: "Was geschieht, wenn sich Kartentext und Spielregeln
 * widersprechen? Falls die Fähigkeit einer Karte der Anleitung
 * widerspricht, hat die Karte stets Vorrang." Birthing Chamber makes
 * Broods cost 1 less; Undertow moves a Hero to any location, where the
 * Move a Hero action reaches only an adjacent one. */
static void test_faq_card_beats_the_rulebook(void **unused) {
  (void)unused;
  table *t = load("cost_reduced");
  int guard = vt_card(t, 0, "hq_guard_brood", VL_Z_HAND);
  int nectar = vt_card(t, 0, "hq_nectar_brood", VL_Z_HAND);
  int soldier = vt_card(t, 0, "hq_soldier_drone", VL_Z_HAND);
  assert_int_equal(vl_cost(&t->s, 0, guard), 1);
  assert_int_equal(vl_cost(&t->s, 0, nectar), 0); /* never below 0 */
  assert_true(vt_offered(t, "play.c%d", guard));
  assert_false(vt_offered(t, "play.c%d", soldier));
  vt_answer(t, 0, "play.c%d", guard);
  vt_answer(t, 0, "loc.3");
  assert_int_equal(power_of(t, 0), 0);

  t = load("card_beats_rule_move");
  int tamsin = vt_card(t, 0, "tamsin_reed", VL_Z_TOP);
  vt_answer(t, 0, "play.c%d", vt_card(t, 0, "undertow", VL_Z_HAND));
  assert_true(vt_offered(t, "loc.3"));  /* two locations away */
  assert_false(vt_offered(t, "loc.4")); /* still never to a lock */
  vt_answer(t, 0, "loc.3");
  assert_zone(t, tamsin, VL_Z_TOP);
  assert_int_equal(t->s.w[tamsin].loc, 2);
}

/* Handlanger: "Lege dann den Handlanger an einen beliebigen Ort (ohne
 * Schlosschip) im unteren Bereich deiner Spielertafel an." */
static void test_action_play_never_to_a_lock(void **unused) {
  (void)unused;
  table *t = load("turn_actions");
  int deck = vt_card(t, 0, "drowned_deckhand", VL_Z_HAND);
  vt_answer(t, 0, "play.c%d", deck);
  assert_true(vt_offered(t, "loc.1") && vt_offered(t, "loc.2") &&
              vt_offered(t, "loc.3"));
  assert_false(vt_offered(t, "loc.4")); /* Hollow Lighthouse, locked */
  vt_answer(t, 0, "loc.1");
  assert_zone(t, deck, VL_Z_REALM);
  assert_int_equal(t->s.w[deck].loc, 0);
  assert_false(t->flags & ENG_REVEALED);
}

/* Eine Karte ausspielen, Beispiel: "Bezahle drei Machtchips und lege den
 * Gegenstand im unteren Bereich an einem Ort deiner Wahl an." */
static void test_action_play_item_example(void **unused) {
  (void)unused;
  table *t = load("item_example");
  int index = vt_card(t, 0, "la_index_damned", VL_Z_HAND);
  vt_answer(t, 0, "play.c%d", index);
  assert_true(vt_offered(t, "loc.1") && vt_offered(t, "loc.2") &&
              vt_offered(t, "loc.3"));
  assert_false(vt_offered(t, "loc.4")); /* The Sealed Stacks, locked */
  vt_answer(t, 0, "loc.2");
  assert_zone(t, index, VL_Z_REALM);
  assert_int_equal(t->s.w[index].loc, 1);
  assert_int_equal(power_of(t, 0), 0);
}

/* Gegenstände, Achtung: "Manche Gegenstände müssen einem Handlanger
 * ausgerüstet werden. Ist dies der Fall, lege den Gegenstand unter einen
 * Handlanger an einem Ort (ohne Schlosschip) an. Hast du keinen
 * geeigneten Handlanger in deinem Reich, kannst du den Gegenstand nicht
 * ausspielen." Beispiel: "Rüste den Handlanger mit dem Gegenstand aus,
 * indem du ihn darunter schiebst." */
static void test_action_play_attached_item_needs_an_ally(void **unused) {
  (void)unused;
  table *t = load("attach_no_ally");
  int cutlass = vt_card(t, 0, "boarding_cutlass", VL_Z_HAND);
  int deck = vt_card(t, 0, "drowned_deckhand", VL_Z_HAND);
  assert_false(vt_offered(t, "play.c%d", cutlass));
  vt_answer(t, 0, "play.c%d", deck);
  vt_answer(t, 0, "loc.3");
  assert_true(vt_offered(t, "play.c%d", cutlass));
  vt_answer(t, 0, "play.c%d", cutlass); /* the one Ally: taken at once */
  assert_zone(t, cutlass, VL_Z_REALM);
  assert_int_equal(t->s.w[cutlass].host, deck);
  assert_int_equal(t->s.w[cutlass].loc, 2);
  assert_int_equal(vl_strength(&t->s, deck), 3);
  assert_true(vt_told(t, -1,
                      "played the Item Boarding Cutlass on Drowned "
                      "Deckhand at Brinewater Undercroft"));
}

/* Gegenstände: "Es gibt kein Limit für die Anzahl an Gegenständen, die
 * einem Handlanger ausgerüstet werden können." */
static void test_action_no_limit_of_items_on_an_ally(void **unused) {
  (void)unused;
  table *t = load("items_on_ally");
  int cutlass = vt_card(t, 0, "boarding_cutlass", VL_Z_HAND);
  int deck = vt_card(t, 0, "drowned_deckhand", VL_Z_REALM);
  int bosun = vt_card(t, 0, "barnacle_bosun", VL_Z_REALM);
  vt_answer(t, 0, "play.c%d", cutlass);
  assert_true(vt_offered(t, "pick.c%d", bosun));
  vt_answer(t, 0, "pick.c%d", deck);
  int on = 0;
  for (int i = 0; i < VL_BLOCK; i++)
    on += t->s.w[i].zone == VL_Z_REALM && t->s.w[i].host == deck;
  assert_int_equal(on, 2);
  assert_int_equal(vl_strength(&t->s, deck), 4);
}

/* Bedingungen: "Ihr könnt sie nicht durch die Aktion 'Eine Karte
 * ausspielen' ausspielen." */
static void test_action_play_never_a_condition(void **unused) {
  (void)unused;
  table *t = load("attach_no_ally");
  int riptide = vt_card(t, 0, "riptide", VL_Z_HAND);
  assert_false(vt_offered(t, "play.c%d", riptide));
  assert_true(
      vt_offered(t, "play.c%d", vt_card(t, 0, "drowned_deckhand", VL_Z_HAND)));
  /* Nor in the villain's own turn by any other way. */
  assert_int_equal(vt_count_prefix(t, "cond."), 0);
}

/* Häufige Fragen: "Darf ich eine Karte auch dann ausspielen, wenn ich
 * nicht ausführen kann, was der Kartentext besagt? Nein. Spielst du eine
 * Karte aus, musst du ihre Fähigkeit ausführen. Wenn du das nicht kannst,
 * darfst du die Karte nicht ausspielen." Ereignisse: "Kannst du das
 * Ereignis nicht ausführen, darfst du die Karte nicht ausspielen." */
static void test_faq_effect_only_if_it_can_be_done(void **unused) {
  (void)unused;
  table *t = load("effect_unplayable");
  /* Harbourmaster Ide Quell (Strength 4) is the only Hero, and nothing is
   * locked. */
  assert_true(vt_offered(t, "play.c%d", vt_card(t, 0, "undertow", VL_Z_HAND)));
  assert_false(vt_offered(t, "play.c%d",
                          vt_card(t, 0, "the_sea_takes_its_due", VL_Z_HAND)));
  assert_false(vt_offered(t, "play.c%d",
                          vt_card(t, 0, "force_the_lamp_door", VL_Z_HAND)));
  assert_false(
      vt_offered(t, "play.c%d", vt_card(t, 0, "turn_of_the_tide", VL_Z_HAND)));
}

/* Häufige Fragen: "Ist im Kartentext von 'dürfen' die Rede, ist das, was
 * folgt, optional. Spielt Prinz John beispielsweise EINE FALLE STELLEN,
 * ist die Bewegung des Handlangers optional, das anschließende Ausführen
 * der Aktion 'Einen Helden besiegen' jedoch verpflichtend." Lair's Drag
 * Below: the move is mandatory (no skip), the Vanquish optional (skip). */
static void test_faq_optional_effect_offers_skip(void **unused) {
  (void)unused;
  table *t = load("drag_below");
  int drag = vt_card(t, 0, "drag_below", VL_Z_HAND);
  int tamsin = vt_card(t, 0, "tamsin_reed", VL_Z_TOP);
  int anselm = vt_card(t, 0, "brother_anselm", VL_Z_TOP);
  vt_answer(t, 0, "play.c%d", drag);
  assert_true(vt_offered(t, "pick.c%d", anselm));
  assert_false(vt_offered(t, "skip"));
  vt_answer(t, 0, "pick.c%d", tamsin); /* to the mover: one place */
  assert_int_equal(t->s.w[tamsin].loc, 1);
  assert_true(strstr(question(t), "(optional)") != NULL);
  assert_true(vt_offered(t, "done") && vt_offered(t, "skip"));
  vt_answer(t, 0, "skip");
  assert_zone(t, tamsin, VL_Z_TOP);
  assert_zone(t, drag, VL_Z_VDISC);
  assert_zone(t, vt_card(t, 0, "anchor_wraith", -1), VL_Z_REALM);
  assert_int_equal(t->p.player, 0);
}

/* Ereignisse, Beispiel: "Zahle einen Machtchip, um das Ereignis
 * auszuspielen. Anschließend legst du es offen auf deinen
 * Ablagestapel." "Führe das Ereignis sofort einmalig aus!" */
static void test_action_effect_example(void **unused) {
  (void)unused;
  table *t = load("effect_example");
  int unseal = vt_card(t, 0, "la_unseal_stacks", VL_Z_HAND);
  vt_answer(t, 0, "play.c%d", unseal);
  assert_int_equal(power_of(t, 0), 0);
  assert_int_equal(t->s.seat[0].locked, 0);
  assert_int_equal(t->s.seat[0].track, 1);
  assert_zone(t, unseal, VL_Z_VDISC);
  assert_true(view_names(t, -1, "discard_1", "Unseal the Stacks"));
  assert_true(vt_told(t, -1,
                      "Villain 1 played the Effect Unseal the Stacks, "
                      "paying 1 Power (0 left)"));
}

/* Eine Fähigkeit aktivieren, Beispiel: "Bezahle einen Machtchip, um die
 * Fähigkeit dieser Karte zu aktivieren." Häufige Fragen: "Muss ich eine
 * Karte auf den Ablagestapel legen, nachdem ich ihre aktivierbare
 * Fähigkeit genutzt habe? Nein. Die Karte bleibt in deinem Reich. Du
 * kannst die Fähigkeit einer solchen Karte beliebig oft aktivieren,
 * sofern du dafür jedes Mal die Aktion 'Eine Fähigkeit aktivieren'
 * nutzt und gegebenenfalls die Aktivierungskosten zahlst." */
static void test_faq_activate_card_stays_and_again(void **unused) {
  (void)unused;
  table *t = load("activate_twice");
  /* The Sealed Stacks (unlocked): Activate, Play | Activate, Gain 1. */
  int ink = vt_card(t, 0, "la_marrow_inkwell", VL_Z_REALM);
  int index = vt_card(t, 0, "la_index_damned", VL_Z_REALM);
  vt_answer(t, 0, "act.c%d", ink);
  assert_int_equal(power_of(t, 0), 2);
  assert_int_equal(t->s.seat[0].track, 1);
  assert_zone(t, ink, VL_Z_REALM);
  assert_true(vt_told(t, -1,
                      "Villain 1 activated Marrow Inkwell at Ossuary "
                      "Lectern, paying 1 Power (2 left)."));
  assert_true(vt_offered(t, "act.c%d", index));
  assert_true(vt_offered(t, "act.c%d", ink)); /* the second Activate symbol */
  vt_answer(t, 0, "act.c%d", ink);
  assert_int_equal(power_of(t, 0), 1);
  assert_int_equal(t->s.seat[0].track, 2);
  assert_int_equal(vt_count_prefix(t, "act."), 0); /* both symbols used */
}

/* Eine Fähigkeit aktivieren: "Zahle die Aktivierungskosten und nutze
 * anschließend die Fähigkeit dieser Karte." An activation that cannot be
 * paid is not offered; nor a card at Sister Corisande Vey's location
 * ("No card at her location can be activated"). */
static void test_action_activate_cost_and_no_activate(void **unused) {
  (void)unused;
  table *t = load("activate_blocked");
  int ink_a = card_at(t, 0, "la_marrow_inkwell", VL_Z_REALM, 0);
  int ink_b = card_at(t, 0, "la_marrow_inkwell", VL_Z_REALM, 2);
  int index = vt_card(t, 0, "la_index_damned", VL_Z_REALM);
  assert_true(vt_offered(t, "act.c%d", ink_b));
  assert_false(vt_offered(t, "act.c%d", ink_a)); /* beside Corisande */
  assert_false(vt_offered(t, "act.c%d", index)); /* 2 Power, 1 held */
}

/* Einen Gegenstand oder Handlanger zu einem anderen Ort ziehen: "Ziehe
 * eine Karte des Typs Gegenstand oder Handlanger von einem beliebigen Ort
 * in deinem Reich zu einem benachbarten Ort deiner Wahl. Liegt auf einem
 * Ort ein Schlosschip, kannst du dort weder Karten hin-, noch von dort
 * wegziehen. Gegenstände, mit denen ein Handlanger ... ausgerüstet wurde,
 * können nicht separat weggezogen werden, sondern werden mit dem
 * Handlanger ... gezogen." Beispiel: "Ziehe einen Handlanger von einem
 * Ort ohne Schlosschip zu einem benachbarten Ort ohne Schlosschip." Nell
 * Fathom lets no Ally or Item leave her location. */
static void test_action_move_item_or_ally(void **unused) {
  (void)unused;
  table *t = load("move_ally");
  int deck = vt_card(t, 0, "drowned_deckhand", VL_Z_REALM);
  int cutlass = vt_card(t, 0, "boarding_cutlass", VL_Z_REALM);
  int lantern = vt_card(t, 0, "corpse_light_lantern", VL_Z_REALM);
  int wraith = vt_card(t, 0, "anchor_wraith", VL_Z_REALM);
  assert_true(vt_offered(t, "ally.c%d.2", deck));
  assert_false(vt_offered(t, "ally.c%d.4", deck)); /* the Lighthouse: lock */
  assert_false(vt_offered(t, "ally.c%d.1", deck)); /* not adjacent */
  assert_int_equal(vt_count_prefix(t, "ally.c%d.", cutlass), 0);
  assert_true(vt_offered(t, "ally.c%d.2", lantern)); /* an Item alone */
  assert_false(vt_offered(t, "ally.c%d.3", lantern));
  assert_int_equal(vt_count_prefix(t, "ally.c%d.", wraith), 0); /* Nell */
  vt_answer(t, 0, "ally.c%d.2", deck);
  assert_int_equal(t->s.w[deck].loc, 1);
  assert_int_equal(t->s.w[cutlass].loc, 1);
  assert_int_equal(t->s.w[cutlass].host, deck);
  assert_false(t->flags & ENG_REVEALED);
  assert_int_equal(vt_count_prefix(t, "ally."), 0); /* the one symbol used */
}

/* Einen Helden zu einem anderen Ort ziehen: "Ziehe eine Karte des Typs
 * Held von einem beliebigen Ort in deinem Reich zu einem benachbarten Ort
 * deiner Wahl. Liegt auf einem Ort ein Schlosschip, kannst du Helden dort
 * weder hin-, noch von dort wegziehen." And Wax Bulwark: "No Hero can be
 * played or moved to Wax Bulwark's location." */
static void test_action_move_hero(void **unused) {
  (void)unused;
  table *t = load("move_hero_lock");
  int anselm = vt_card(t, 0, "brother_anselm", VL_Z_TOP);
  int ide = vt_card(t, 0, "ide_quell", VL_Z_TOP);
  assert_true(vt_offered(t, "hero.c%d.2", anselm));
  assert_false(vt_offered(t, "hero.c%d.4", anselm)); /* lock */
  assert_false(vt_offered(t, "hero.c%d.1", anselm)); /* not adjacent */
  assert_true(vt_offered(t, "hero.c%d.2", ide));
  vt_answer(t, 0, "hero.c%d.2", anselm);
  assert_zone(t, anselm, VL_Z_TOP);
  assert_int_equal(t->s.w[anselm].loc, 1);
  assert_true(vt_told(t, -1,
                      "Villain 1 moved Brother Anselm, Bellringer from "
                      "Brinewater Undercroft to Gallows Reef."));
  assert_false(t->flags & ENG_REVEALED);

  t = load("move_hero_no_heroes");
  int bram = vt_card(t, 0, "hq_bram_netcaster", VL_Z_TOP);
  int hedda = vt_card(t, 0, "hq_hedda_ashgrove", VL_Z_TOP);
  assert_true(vt_offered(t, "hero.c%d.4", bram));
  assert_false(vt_offered(t, "hero.c%d.2", bram)); /* Wax Bulwark */
  assert_int_equal(vt_count_prefix(t, "hero.c%d.", hedda), 0);
}

/* Häufige Fragen: "Es befinden sich mehrere Helden an einem Ort. Muss ich
 * sie in einer bestimmten Reihenfolge besiegen? Nein. Befinden sich
 * mehrere Helden an einem Ort, darfst du selbst entscheiden, welchen
 * Helden du zuerst besiegen möchtest." Beliebig viele Handlanger may go,
 * more than needed. */
static void test_faq_several_heroes_any_order(void **unused) {
  (void)unused;
  table *t = load("vanquish_order");
  int hob = vt_card(t, 0, "hob_kettering", VL_Z_TOP); /* placed first */
  int tobiah = vt_card(t, 0, "tobiah_lantry", VL_Z_TOP);
  int ogre = vt_card(t, 0, "sedge_ogre", VL_Z_REALM);
  int mud1 = card_nth(t, 0, "mudling", VL_Z_REALM, 0);
  int mud2 = card_nth(t, 0, "mudling", VL_Z_REALM, 1);
  assert_true(vt_offered(t, "vanq.c%d", hob));
  assert_true(vt_offered(t, "vanq.c%d", tobiah));
  vt_answer(t, 0, "vanq.c%d", tobiah);
  vt_answer(t, 0, "pick.c%d", mud1);
  assert_false(vt_offered(t, "done"));
  vt_answer(t, 0, "pick.c%d", mud2);
  assert_true(vt_offered(t, "done") && vt_offered(t, "pick.c%d", ogre));
  vt_answer(t, 0, "done");
  assert_zone(t, tobiah, VL_Z_FDISC);
  assert_zone(t, hob, VL_Z_TOP);
  assert_zone(t, ogre, VL_Z_REALM);
}

/* Helden: "Befinden sich an einem Ort mehrere Helden, und der Held, der
 * die Aktionssymbole überdeckt, wird besiegt oder weggezogen, schiebt
 * ihr die anderen Helden nach unten, sodass einer von ihnen wiederum die
 * Symbole überdeckt." */
static void test_vanquish_next_hero_covers(void **unused) {
  (void)unused;
  table *t = load("vanquish_order");
  int hob = vt_card(t, 0, "hob_kettering", VL_Z_TOP);
  int tobiah = vt_card(t, 0, "tobiah_lantry", VL_Z_TOP);
  int ogre = vt_card(t, 0, "sedge_ogre", VL_Z_REALM);
  vt_answer(t, 0, "vanq.c%d", hob);
  vt_answer(t, 0, "pick.c%d", ogre);
  vt_answer(t, 0, "done");
  assert_zone(t, hob, VL_Z_FDISC);
  assert_zone(t, tobiah, VL_Z_TOP);
  assert_true(vl_covered(&t->s, 0, 2));
}

/* Einen Helden besiegen: "Besiege einen Helden an einem beliebigen Ort in
 * deinem Reich mit Hilfe von einem oder mehreren Handlangern, die sich
 * bereits am selben Ort befinden." Gegenstände: "Wird ein Handlanger mit
 * ausgerüsteten Gegenständen ... kommt auf den Ablagestapel, ziehst du
 * ... oder legst sie ebenfalls ab." "Den besiegten Helden legst du auf
 * deinen Schicksal-Ablagestapel" (with its Item). */
static void test_vanquish_same_location_items_go_along(void **unused) {
  (void)unused;
  table *t = load("vanquish_items");
  int tamsin = vt_card(t, 0, "tamsin_reed", VL_Z_TOP);
  int belt = vt_card(t, 0, "cork_lifebelt", VL_Z_TOP);
  int deck1 = vt_card(t, 0, "drowned_deckhand", VL_Z_REALM); /* with cutlass */
  int cutlass = vt_card(t, 0, "boarding_cutlass", VL_Z_REALM);
  int wraith = vt_card(t, 0, "anchor_wraith", VL_Z_REALM);
  assert_int_equal(t->s.w[cutlass].host, deck1);
  assert_int_equal(vl_strength(&t->s, tamsin), 4);
  vt_answer(t, 0, "vanq.c%d", tamsin);
  assert_false(vt_offered(t, "pick.c%d", wraith)); /* elsewhere: no help */
  vt_answer(t, 0, "pick.c%d", deck1); /* 3; the other Deckhand follows */
  assert_zone(t, tamsin, VL_Z_FDISC);
  assert_zone(t, belt, VL_Z_FDISC);
  assert_zone(t, deck1, VL_Z_VDISC);
  assert_zone(t, cutlass, VL_Z_VDISC);
  assert_int_equal(t->s.vdisc[0].n, 3);
  assert_zone(t, wraith, VL_Z_REALM);
}

/* Einen Helden besiegen: "Erreiche mit deinen Handlangern mindestens die
 * Stärke des Helden." Lair: an Ally whose Strength is 0 (Worker Drone
 * beside Bram Netcaster, -1) adds nothing and cannot be sent. */
static void test_vanquish_zero_strength_ally_cannot_help(void **unused) {
  (void)unused;
  table *t = load("vanquish_zero_ally");
  int bram = vt_card(t, 0, "hq_bram_netcaster", VL_Z_TOP);
  int worker = vt_card(t, 0, "hq_worker_drone", VL_Z_REALM);
  int soldier = vt_card(t, 0, "hq_soldier_drone", VL_Z_REALM);
  assert_int_equal(vl_strength(&t->s, worker), 0);
  vt_answer(t, 0, "vanq.c%d", bram);
  assert_false(vt_offered(t, "pick.c%d", worker));
  vt_answer(t, 0, "pick.c%d", soldier);
  assert_zone(t, bram, VL_Z_FDISC);
  assert_zone(t, worker, VL_Z_REALM);
}

/* Lair's decision 9: "Defeat" abilities of Allies spent in a Vanquish do
 * not work (they are in the discard pile by then); their "discarded"
 * abilities do. Einen Helden besiegen: "Die eingesetzten Handlanger
 * legst du auf deinen Bösewicht-Ablagestapel." */
static void test_vanquish_spent_allies_abilities(void **unused) {
  (void)unused;
  table *t = load("spent_allies");
  int corbin = vt_card(t, 0, "iw_corbin_tallow", VL_Z_TOP);
  int leg_here = card_at(t, 0, "iw_iron_legionnaire", VL_Z_REALM, 2);
  int leg_away = card_at(t, 0, "iw_iron_legionnaire", VL_Z_REALM, 0);
  vt_answer(t, 0, "vanq.c%d", corbin);
  vt_answer(t, 0, "pick.c%d", leg_here); /* the Thrall follows */
  assert_zone(t, corbin, VL_Z_FDISC);
  assert_zone(t, leg_here, VL_Z_VDISC);
  assert_zone(t, leg_away, VL_Z_REALM);
  /* +1 from the Legionnaire that stayed, +1 from the discarded Thrall. */
  assert_int_equal(power_of(t, 0), 2);
}

/* Karten abwerfen: "Wirf beliebig viele Handkarten ab und lege sie offen
 * auf deinen Bösewicht-Ablagestapel. ... Denke daran: Du ziehst erst am
 * Ende deines Zugs auf vier Handkarten nach!" */
static void test_action_discard_cards(void **unused) {
  (void)unused;
  table *t = load("discard");
  int scribe = vt_card(t, 0, "la_bone_scribe", VL_Z_HAND);
  vt_answer(t, 0, "discard");
  assert_int_equal(vt_count_prefix(t, "pick."), 3); /* copies offered once */
  assert_true(vt_offered(t, "done"));
  vt_answer(t, 0, "pick.c%d", scribe);
  assert_true(vt_told(t, -1, "Villain 1 discarded Bone Scribe."));
  assert_zone(t, scribe, VL_Z_VDISC);
  vt_answer(t, 0, "pick.c%d", vt_card(t, 0, "la_bone_scribe", VL_Z_HAND));
  vt_answer(t, 0, "done");
  assert_true(vt_told(t, -1, "Villain 1 is done discarding (2 cards)."));
  assert_int_equal(hand(t, 0), 2); /* nothing drawn yet */
  assert_false(t->flags & ENG_REVEALED);
  assert_false(vt_offered(t, "discard")); /* the one symbol used */
  vt_answer(t, 0, "end");
  assert_int_equal(hand(t, 0), 4);
}

/* ======================================================================
 * Vanquish (Einen Helden besiegen)
 * ====================================================================*/

/* Einen Helden besiegen, Beispiel: "Du hast drei Handlanger an dem Ort
 * ..., an dem sich auch ein Held mit der Stärke 5 befindet. Mit zwei
 * deiner Handlanger erreichst du bereits die Stärke 5 (4 + 1) ... Lege
 * den besiegten Helden und die beiden eingesetzten Handlanger auf die
 * entsprechenden Ablagestapel; der dritte Handlanger bleibt an diesem Ort
 * liegen." */
static void test_vanquish_worked_example(void **unused) {
  (void)unused;
  table *t = load("vanquish_example");
  int hero = vt_card(t, 0, "odile_vance", VL_Z_TOP);
  int ogre = vt_card(t, 0, "sedge_ogre", VL_Z_REALM);
  int mud1 = vt_card(t, 0, "mudling", VL_Z_REALM);
  assert_int_equal(vl_strength(&t->s, hero), 5);
  vt_answer(t, 0, "vanq.c%d", hero);
  /* Not enough yet: no "done" until 5 is reached. */
  assert_false(vt_offered(t, "done"));
  vt_answer(t, 0, "pick.c%d", ogre);
  assert_false(vt_offered(t, "done"));
  vt_answer(t, 0, "pick.c%d", mud1);
  assert_true(vt_offered(t, "done"));
  vt_answer(t, 0, "done");
  assert_zone(t, hero, VL_Z_FDISC);
  assert_zone(t, ogre, VL_Z_VDISC);
  assert_zone(t, mud1, VL_Z_VDISC);
  /* The third Ally stays. */
  int mud2 = vt_card(t, 0, "mudling", VL_Z_REALM);
  assert_int_equal(t->s.w[mud2].loc, 1);
  assert_int_equal(t->s.seat[0].defeated, 1);
  assert_true(vt_told(t, -1, "vanquished Magistrate Odile Vance (Strength 5)"));
}

/* Häufige Fragen: "Die Stärke eines Helden wird durch die Fähigkeit einer
 * anderen Karte auf 0 reduziert ... Du musst trotzdem die Aktion 'Einen
 * Helden besiegen' ausführen. In diesem Fall musst du allerdings keine
 * Handlanger einsetzen und somit auch nicht abwerfen. Du kannst den
 * Helden sogar besiegen, wenn du keine Handlanger am Ort des Helden
 * hast." */
static void test_vanquish_zero_strength_hero(void **unused) {
  (void)unused;
  table *t = load("zero_strength_hero");
  int nell = vt_card(t, 0, "nell_fathom", VL_Z_TOP);
  int deckhand = vt_card(t, 0, "drowned_deckhand", VL_Z_REALM);
  /* The Sunken Bell takes 2 from Nell Fathom's 2. */
  assert_int_equal(vl_strength(&t->s, nell), 0);
  /* Still never simply removed: it takes the Vanquish action. */
  assert_zone(t, nell, VL_Z_TOP);
  vt_answer(t, 0, "vanq.c%d", nell);
  assert_zone(t, nell, VL_Z_FDISC);
  assert_zone(t, deckhand, VL_Z_REALM); /* no Ally spent */
}

/* Häufige Fragen: "Bezieht sich das nur auf die Stärke, die auf dem
 * Helden angegeben ist, oder berücksichtige ich auch andere
 * Kartenfähigkeiten? Immer wenn von der Stärke eines Helden (oder
 * Handlangers) die Rede ist, werden alle anderen Kartenfähigkeiten mit
 * einbezogen, die in deinem Reich in Kraft sind." */
static void test_strength_counts_every_card_of_the_realm(void **unused) {
  (void)unused;
  table *t = load("zero_strength_hero");
  int maren = vt_card(t, 0, "maren_holt", VL_Z_TOP);
  /* Maren Holt (printed 6) at the Sunken Bell's location (-2): 4. */
  assert_int_equal(vl_strength(&t->s, maren),
                   vl_card_of(&t->s, maren)->strength - 2);
  /* A card never affects another realm: the Bell is the Captain's. */
  int hero1 = vt_card(t, 1, "pell_ashby", VL_Z_TOP);
  assert_int_equal(vl_strength(&t->s, hero1), 4);
}

/* ======================================================================
 * Fate (Schicksal)
 * ====================================================================*/

/* Schicksal: "Decke die obersten beiden Karten von dessen
 * Schicksal-Kartenstapel auf. Wähle eine dieser beiden Karten und wirf
 * die andere auf den Schicksal-Ablagestapel des Mitstreiters." A Hero
 * goes "im oberen Bereich der Mitstreiter-Spielertafel an, so dass er die
 * beiden oberen Aktionen abdeckt", never to a location with a lock. */
static void test_fate_reveals_two_plays_one(void **unused) {
  (void)unused;
  table *t = load("fate_two");
  int maren = vt_card(t, 1, "maren_holt", VL_Z_FDECK);
  int belt = vt_card(t, 1, "cork_lifebelt", VL_Z_FDECK);
  vt_answer(t, 0, "fate.2");
  assert_true(t->flags & ENG_REVEALED);
  assert_zone(t, maren, VL_Z_REVEALED);
  assert_zone(t, belt, VL_Z_REVEALED);
  assert_true(vt_told(t, -1, "revealed Maren Holt, the Lightkeeper"));
  assert_int_equal(t->p.player, 0); /* the fating player chooses */
  vt_answer(t, 0, "pick.c%d", maren);
  assert_zone(t, belt, VL_Z_FDISC);
  /* The Captain's Lighthouse (4) is locked: not offered. */
  assert_false(vt_offered(t, "loc.4"));
  vt_answer(t, 0, "loc.2");
  assert_zone(t, maren, VL_Z_TOP);
  assert_int_equal(t->s.w[maren].loc, 1);
  assert_true(vl_covered(&t->s, 1, 1));
}

/* Häufige Fragen: "Falls eine Schicksal-Karte nicht gespielt werden kann
 * (Beispiel: Du deckst einen Gegenstand auf, doch im Reich deines
 * Mitstreiters gibt es keinen Helden, den du damit ausrüsten könntest),
 * musst du sie wirkungslos auf den Ablagestapel legen. Wenn du ... keine
 * der beiden Karten ausspielen kannst, musst du beide ohne Wirkung auf
 * den Ablagestapel legen." */
static void test_fate_unplayable_cards_go_without_effect(void **unused) {
  (void)unused;
  table *t = load("fate_unplayable");
  int lens = vt_card(t, 1, "keepers_great_lens", VL_Z_FDECK);
  int salvage = vt_card(t, 1, "salvage_claim", VL_Z_FDECK);
  vt_answer(t, 0, "fate.2");
  /* No Hero to carry the Lens, no Item for Salvage Claim to discard. */
  vt_answer(t, 0, "pick.c%d", lens);
  assert_zone(t, lens, VL_Z_FDISC);
  assert_zone(t, salvage, VL_Z_FDISC);
  assert_true(vt_told(t, -1, "without effect"));
  assert_int_equal(t->p.player, 0); /* the turn goes on */
}

/* Schicksal: "Suche dir einen Mitstreiter aus ... Decke die obersten
 * beiden Karten von dessen Schicksal-Kartenstapel auf." Partie mit 5-6
 * Spielern: "Wählt dich ein Mitstreiter als Ziel der Aktion 'Schicksal'
 * aus, erhältst du im Anschluss den Schicksalchip ... Solange der Chip
 * vor dir liegt, darf dich kein anderer Mitstreiter als Ziel einer
 * weiteren Schicksal-Aktion auswählen." */
static void test_fate_token_five_players(void **unused) {
  (void)unused;
  table *t = load("fate_token5");
  assert_true(vt_offered(t, "fate.2") && vt_offered(t, "fate.4") &&
              vt_offered(t, "fate.5"));
  assert_false(vt_offered(t, "fate.3")); /* Villain 3 holds the token */
  assert_false(vt_offered(t, "fate.1")); /* never oneself */
  vt_answer(t, 0, "fate.2");
  assert_int_equal(t->s.fate_token, 1);
  assert_true(vt_told(t, -1, "Villain 2 takes the Fate token"));
  /* The target's own fate deck: two cards off it, none off the Lich's. */
  assert_int_equal(t->s.fdeck[1].n, 13);
  assert_int_equal(t->s.fdeck[0].n, 15);
  vt_answer(t, 0, "pick.c%d", vt_card(t, 1, "aldith_carrow", VL_Z_REVEALED));
  vt_answer(t, 0, "loc.1");
  assert_int_equal(t->s.fate_token, 1);
}

/* Schicksal: "Partie mit 5-6 Spielern: Hierbei benötigt ihr den
 * Schicksalchip." With four players there is none. */
static void test_fate_no_token_four_players(void **unused) {
  (void)unused;
  table *t = load("fate_token4");
  assert_true(vt_offered(t, "fate.2") && vt_offered(t, "fate.3") &&
              vt_offered(t, "fate.4"));
  vt_answer(t, 0, "fate.2");
  assert_int_equal(t->s.fate_token, 0xff);
  assert_false(vt_told(t, -1, "Fate token"));
}

/* Schicksal: "Ist der Schicksal-Kartenstapel des gewählten Mitstreiters
 * aufgebraucht? Dann mischt dieser seinen Ablagestapel gut durch und
 * bildet einen neuen Schicksal-Kartenstapel." */
static void test_fate_deck_refilled_from_discard(void **unused) {
  (void)unused;
  table *t = load("fate_refill");
  int maren = vt_card(t, 1, "maren_holt", VL_Z_FDECK);
  assert_int_equal(t->s.fdeck[1].n, 1);
  vt_answer(t, 0, "fate.2");
  assert_true(vt_told(t, -1,
                      "Villain 2's fate discard pile (14 cards) was "
                      "shuffled into a new fate deck."));
  assert_zone(t, maren, VL_Z_REVEALED);
  int revealed = 0;
  for (int i = VL_BLOCK; i < 2 * VL_BLOCK; i++)
    revealed += t->s.w[i].zone == VL_Z_REVEALED;
  assert_int_equal(revealed, 2);
  assert_int_equal(t->s.fdeck[1].n, 13);
  assert_int_equal(t->s.fdisc[1].n, 0);
  vt_answer(t, 0, "pick.c%d", maren);
  vt_answer(t, 0, "loc.2");
  assert_zone(t, maren, VL_Z_TOP);
  assert_int_equal(t->s.fdisc[1].n, 1);
}

/* Gegenstände: "Alle Gegenstände aus dem Schicksal-Kartenstapel müssen
 * einem Helden ausgerüstet werden! Lege sie unter einen Helden im Reich
 * des entsprechenden Mitstreiters." */
static void test_fate_item_attached_to_a_hero(void **unused) {
  (void)unused;
  table *t = load("fate_item");
  int belt = vt_card(t, 1, "cork_lifebelt", VL_Z_FDECK);
  int lens = vt_card(t, 1, "keepers_great_lens", VL_Z_FDECK);
  int anselm = vt_card(t, 1, "brother_anselm", VL_Z_TOP);
  assert_int_equal(vl_strength(&t->s, anselm), 4);
  vt_answer(t, 0, "fate.2");
  vt_answer(t, 0, "pick.c%d", belt); /* the one Hero carries it */
  assert_zone(t, belt, VL_Z_TOP);
  assert_int_equal(t->s.w[belt].host, anselm);
  assert_int_equal(t->s.w[belt].loc, 0);
  assert_zone(t, lens, VL_Z_FDISC);
  assert_int_equal(vl_strength(&t->s, anselm), 5);
  assert_true(vt_told(t, -1, "played the Item Cork Lifebelt"));
}

/* Häufige Fragen: "Ich decke eine Schicksal-Karte auf, die nicht
 * ausgespielt werden kann. Darf ich dann eine neue Schicksal-Karte
 * aufdecken? Nein. Falls eine Schicksal-Karte nicht gespielt werden
 * kann ..., musst du sie wirkungslos auf den Ablagestapel legen." The
 * fating player may still choose it over a playable one. */
static void test_faq_unplayable_fate_card_no_new_reveal(void **unused) {
  (void)unused;
  table *t = load("fate_choose_unplayable");
  int belt = vt_card(t, 1, "cork_lifebelt", VL_Z_FDECK);
  int aldith = vt_card(t, 1, "aldith_carrow", VL_Z_FDECK);
  vt_answer(t, 0, "fate.2");
  assert_true(vt_offered(t, "pick.c%d", belt));
  vt_answer(t, 0, "pick.c%d", belt);
  assert_zone(t, belt, VL_Z_FDISC);
  assert_zone(t, aldith, VL_Z_FDISC);
  assert_true(vt_told(t, -1, "without effect"));
  assert_int_equal(power_of(t, 1), 3);   /* Aldith did nothing */
  assert_int_equal(t->s.fdeck[1].n, 13); /* no third card */
  assert_int_equal(t->p.player, 0);
}

/* Lair's decision 7 (Schicksal: "Spiele deine gewählte Schicksal-Karte
 * dann gleich aus"): the opponent who plays a fate card makes its
 * choices in the target's realm (Torchlight Search: which Ally, where).
 * Glossar: "Ereignisse gelten im Moment des Ausspielens ebenfalls als
 * Bestandteil deines Reichs." */
static void test_fate_effect_choices_are_the_fating_players(void **unused) {
  (void)unused;
  table *t = load("fate_effect_choices");
  int torch = vt_card(t, 1, "torchlight_search", VL_Z_FDECK);
  int mud = vt_card(t, 1, "mudling", VL_Z_REALM);
  int wisp = vt_card(t, 1, "marsh_wisp", VL_Z_REALM);
  vt_answer(t, 0, "fate.2");
  vt_answer(t, 0, "pick.c%d", torch);
  assert_true(vt_told(t, -1,
                      "Villain 1 played the fate Effect Torchlight "
                      "Search in Villain 2's realm"));
  assert_int_equal(t->p.player, 0);
  assert_true(vt_offered(t, "pick.c%d", wisp));
  vt_answer(t, 0, "pick.c%d", mud);
  assert_true(vt_offered(t, "loc.2") && vt_offered(t, "loc.3"));
  vt_answer(t, 0, "loc.4"); /* any other location */
  assert_int_equal(t->s.w[mud].loc, 3);
  assert_zone(t, torch, VL_Z_FDISC);
  assert_int_equal(t->p.player, 0);
}

/* Lair's decision 7: choices among the target's own hand are the
 * target's (Cold Snap: "Discard 2 cards from your hand"). */
static void test_fate_effect_hand_choices_are_the_targets(void **unused) {
  (void)unused;
  table *t = load("fate_effect_hand");
  int snap = vt_card(t, 1, "hq_cold_snap", VL_Z_FDECK);
  int worker = vt_card(t, 1, "hq_worker_drone", VL_Z_HAND);
  int soldier = vt_card(t, 1, "hq_soldier_drone", VL_Z_HAND);
  vt_answer(t, 0, "fate.2");
  vt_answer(t, 0, "pick.c%d", snap);
  assert_int_equal(t->p.player, 1);
  assert_int_equal(vt_count_prefix(t, "pick."), 4);
  vt_answer(t, 1, "pick.c%d", worker);
  vt_answer(t, 1, "pick.c%d", soldier);
  assert_zone(t, worker, VL_Z_VDISC);
  assert_zone(t, soldier, VL_Z_VDISC);
  assert_int_equal(hand(t, 1), 2);
  /* The Hive Queen's Angry Swarm fits a Fate against her: her window. */
  assert_int_equal(t->p.player, 1);
  vt_answer(t, 1, "pass");
  assert_int_equal(t->p.player, 0);
}

/* Häufige Fragen: "Kann ich einen Helden im unteren Bereich einer
 * Spielertafel anlegen oder dorthin ziehen? Nein. Schicksal-Karten
 * werden immer im oberen Bereich einer Spielertafel angelegt und auch
 * nur dort gezogen". */
static void test_faq_heroes_only_at_the_top(void **unused) {
  (void)unused;
  table *t = load("fate_two");
  int maren = vt_card(t, 1, "maren_holt", VL_Z_FDECK);
  vt_answer(t, 0, "fate.2");
  vt_answer(t, 0, "pick.c%d", maren);
  /* Where the Hero goes is a location, always its top. */
  assert_int_equal(vt_count_prefix(t, "loc."), t->p.n);
  vt_answer(t, 0, "loc.3");
  assert_zone(t, maren, VL_Z_TOP);
  assert_int_equal(t->s.w[maren].host, VL_NONE);
  assert_true(vl_covered(&t->s, 1, 2));
  /* Moved, it stays at the top. */
  t = load("move_hero_lock");
  int anselm = vt_card(t, 0, "brother_anselm", VL_Z_TOP);
  vt_answer(t, 0, "hero.c%d.2", anselm);
  assert_zone(t, anselm, VL_Z_TOP);
  assert_true(vl_covered(&t->s, 0, 1));
}

/* Helden: "Außerdem haben die meisten Helden eine Fähigkeit, die es
 * deinen Mitstreitern erschwert, ihr Ziel zu erreichen." Maren Holt,
 * when played: defeat an Ally with Strength 2 or less at her location,
 * chosen by the villain who played her. */
static void test_fate_hero_when_played(void **unused) {
  (void)unused;
  table *t = load("hero_when_played");
  int maren = vt_card(t, 1, "maren_holt", VL_Z_FDECK);
  int d1 = card_at(t, 1, "drowned_deckhand", VL_Z_REALM, 1);
  int wraith = vt_card(t, 1, "anchor_wraith", VL_Z_REALM);
  int d0 = card_at(t, 1, "drowned_deckhand", VL_Z_REALM, 0);
  vt_answer(t, 0, "fate.2");
  vt_answer(t, 0, "pick.c%d", maren);
  vt_answer(t, 0, "loc.2");
  assert_int_equal(t->p.player, 0);
  assert_true(vt_offered(t, "pick.c%d", d1));
  assert_false(vt_offered(t, "pick.c%d", wraith)); /* Strength 3 */
  assert_false(vt_offered(t, "pick.c%d", d0));     /* elsewhere */
  vt_answer(t, 0, "pick.c%d", d1);
  assert_zone(t, d1, VL_Z_VDISC);
  assert_zone(t, maren, VL_Z_TOP);
}

/* Lair's decision 8: a Hero's "when played" ability does as much as it
 * can (Widow Aldith Carrow: lose 2 Power, from a villain with 1). */
static void test_fate_hero_ability_does_what_it_can(void **unused) {
  (void)unused;
  table *t = load("hero_when_played_short");
  int aldith = vt_card(t, 1, "aldith_carrow", VL_Z_FDECK);
  vt_answer(t, 0, "fate.2");
  vt_answer(t, 0, "pick.c%d", aldith);
  vt_answer(t, 0, "loc.1");
  assert_zone(t, aldith, VL_Z_TOP);
  assert_int_equal(power_of(t, 1), 0);
  assert_true(vt_told(t, -1, "Villain 2 lost 1 Power"));
}

/* ======================================================================
 * Conditions (Bedingungen)
 * ====================================================================*/

/* The window after an action: the same prompt, the same question, the
 * same public lines and the same public view whether the asked villain
 * holds a fitting Condition or not. */
static void window_run(table *t, bool holder, char *question, size_t qcap,
                       json_t **view_after_pass, char *lines, size_t lcap) {
  int hero = vt_card(t, 0, "la_wren_tinderhand", VL_Z_TOP);
  /* The Lich moves a Hero: the Captain's Riptide fits. */
  vt_answer(t, 0, "hero.c%d.2", hero);
  assert_int_equal(t->p.player, 1);
  assert_true(vt_offered(t, "pass"));
  assert_int_equal(vl_ruleset.pass_option(&t->s, &t->p) >= 0, 1);
  assert_int_equal(vt_offered(t, "cond.c%d",
                              vl_position_find(&t->s, 1, "riptide", VL_Z_HAND)),
                   holder);
  vl_ruleset.question(&t->s, &t->p, question, qcap);
  vt_answer(t, 1, "pass");
  eng_events_join(&t->ev, -1, lines, lcap);
  *view_after_pass = vl_view(&t->s, -1);
}

/* Bedingungen: "Hast du eine Bedingung auf der Hand, die im Zug eines
 * Mitstreiters erfüllt ist, darfst du sie sofort ausspielen." Lair asks
 * every villain whose deck holds a fitting Condition, holding one or not,
 * so the wait tells nothing. */
static void test_condition_window_same_for_holder_and_not(void **unused) {
  (void)unused;
  char q1[ENG_QUESTION_MAX], q2[ENG_QUESTION_MAX];
  char l1[1024], l2[1024];
  json_t *v1, *v2;
  table *t = load("window_holder");
  json_t *before1 = vl_view(&t->s, -1);
  window_run(t, true, q1, sizeof q1, &v1, l1, sizeof l1);
  t = load("window_not_holder");
  json_t *before2 = vl_view(&t->s, -1);
  window_run(t, false, q2, sizeof q2, &v2, l2, sizeof l2);
  assert_true(json_equal(before1, before2));
  assert_string_equal(q1, q2);
  assert_string_equal(l1, l2);
  assert_true(json_equal(v1, v2));
  json_decref(before1);
  json_decref(before2);
  json_decref(v1);
  json_decref(v2);
}

/* Bedingungen: "Befolge den Text auf der Karte und lege sie anschließend
 * offen auf deinen Bösewicht-Ablagestapel. ... Du ziehst keine neue Karte
 * nach." */
static void test_condition_played_in_opponents_turn(void **unused) {
  (void)unused;
  table *t = load("window_holder");
  int hero = vt_card(t, 0, "la_wren_tinderhand", VL_Z_TOP);
  int riptide = vt_card(t, 1, "riptide", VL_Z_HAND);
  int before = hand(t, 1);
  vt_answer(t, 0, "hero.c%d.2", hero);
  vt_answer(t, 1, "cond.c%d", riptide);
  assert_true(vt_told(t, -1, "Villain 2 played the Condition Riptide"));
  /* Its optional move: skipped; then its draw. */
  vt_answer(t, 1, "skip");
  assert_zone(t, riptide, VL_Z_VDISC);
  /* It drew the card Riptide gives, and nothing to refill the hand. */
  assert_int_equal(hand(t, 1), before - 1 + 1);
  assert_int_equal(t->p.player, 0); /* back to the Lich's turn */
}

/* Bedingungen: "Hast du eine Bedingung auf der Hand, die im Zug eines
 * Mitstreiters erfüllt ist, darfst du sie sofort ausspielen." Only an
 * action that fits a Condition of a villain's deck opens a window for
 * them: Gain Power fits none of the Captain's. */
static void test_condition_no_window_without_a_fitting_action(void **unused) {
  (void)unused;
  table *t = load("window_holder");
  vt_answer(t, 0, "gain.1");
  assert_int_equal(t->p.player, 0);
  assert_int_equal(power_of(t, 0), 3);
  assert_false(vt_told(t, -1, "played no Condition"));
}

/* Bedingungen: "Hast du eine Bedingung auf der Hand, die im Zug eines
 * Mitstreiters erfüllt ist, darfst du sie sofort ausspielen. Befolge den
 * Text auf der Karte ... Nachdem die Bedingung abgehandelt wurde, setzt
 * dein Mitstreiter seinen Zug fort." Lair's decision 6: the villains are
 * asked clockwise from the player whose turn it is, one Condition each,
 * each resolved before the next is asked; a villain whose deck has no
 * fitting Condition is not asked. */
static void test_condition_windows_clockwise_one_each(void **unused) {
  (void)unused;
  table *t = load("windows_clockwise");
  int wraith = vt_card(t, 1, "anchor_wraith", VL_Z_HAND);
  int covet = vt_card(t, 2, "iw_covet_soldiers", VL_Z_HAND);
  int brew = vt_card(t, 0, "bitter_brew", VL_Z_HAND);
  /* The Captain plays an Ally of Strength 3: the Warlord's Covet Their
   * Soldiers and the Witch's Bitter Brew fit, the Baron has none. */
  vt_answer(t, 1, "play.c%d", wraith);
  vt_answer(t, 1, "loc.1");
  /* Villain 3 (the Warlord) first, clockwise from Villain 2. */
  assert_int_equal(t->p.player, 2);
  assert_int_equal(vt_count_prefix(t, "cond."), 1); /* copies offered once */
  vt_answer(t, 2, "cond.c%d", covet);
  assert_true(vt_told(t, -1,
                      "Villain 3 played the Condition Covet Their "
                      "Soldiers"));
  /* Resolved before anyone else is asked; Villain 3 asked no more;
   * Villain 4 (no Condition for an Ally) skipped. */
  assert_zone(t, covet, VL_Z_VDISC);
  assert_int_equal(power_of(t, 2),
                   effect_n(t, 2, "iw_covet_soldiers", VL_OP_GAIN_POWER));
  assert_int_equal(t->p.player, 0);
  vt_answer(t, 0, "cond.c%d", brew);
  assert_zone(t, brew, VL_Z_VDISC);
  assert_int_equal(power_of(t, 0), 1);
  assert_int_equal(hand(t, 0), 4);  /* Bitter Brew's draw, no refill */
  assert_int_equal(t->p.player, 1); /* the Captain's turn goes on */
  assert_int_equal(t->s.current, 1);
}

/* Lair's decision 5: a threshold Condition ("Play when an opponent
 * reaches 7 Power or more") fits an action that took the player from
 * below 7 to 7 or more, not every action while they hold 7 or more. */
static void test_condition_threshold_only_when_crossed(void **unused) {
  (void)unused;
  table *t = load("window_threshold");
  int skim = vt_card(t, 1, "gb_skim_off_the_top", VL_Z_HAND);
  vt_answer(t, 0, "gain.2");
  assert_int_equal(power_of(t, 0), 7);
  assert_int_equal(t->p.player, 1);
  assert_true(vt_offered(t, "cond.c%d", skim));
  assert_non_null(strstr(question(t), "went from 5 to 7 Power"));
  vt_answer(t, 1, "pass");
  assert_int_equal(t->p.player, 0);
  vt_answer(t, 0, "play.c%d", vt_card(t, 0, "la_grave_tithe", VL_Z_HAND));
  assert_int_equal(power_of(t, 0), 9);
  assert_int_equal(t->p.player, 0); /* 7 to 9: no window */
}

/* Lair's decision 4: a window opens after the move and after the
 * start-of-turn abilities too (both are the player's, like an action). */
static void test_condition_window_after_move_and_start(void **unused) {
  (void)unused;
  table *t = load("window_after_move");
  vt_answer(t, 0, "move.2"); /* Waterlogged Strongbox: +1 */
  assert_int_equal(power_of(t, 0), 7);
  assert_int_equal(t->p.player, 1);
  vt_answer(t, 1, "cond.c%d", vt_card(t, 1, "gb_skim_off_the_top", VL_Z_HAND));
  assert_int_equal(power_of(t, 1), 2);
  assert_int_equal(t->p.player, 0);
  assert_int_equal(t->s.phase, VL_PH_ACTIONS);

  t = load("window_after_start"); /* Grave Librarian: +1 at the start */
  assert_int_equal(power_of(t, 0), 7);
  assert_int_equal(t->p.player, 1);
  assert_int_equal(t->s.phase, VL_PH_MOVE);
  assert_non_null(strstr(question(t), "went from 6 to 7 Power"));
  vt_answer(t, 1, "pass");
  assert_int_equal(t->p.player, 0);
}

/* Bedingungen: "Befolge den Text auf der Karte": Angry Swarm, "Perform a
 * Fate action against that opponent", a Fate by a Condition against the
 * player whose turn it is, its choices the Condition's owner's. */
static void test_condition_fate_against_the_current_player(void **unused) {
  (void)unused;
  table *t = load("condition_fate");
  int swarm = vt_card(t, 1, "hq_angry_swarm", VL_Z_HAND);
  int cantor = vt_card(t, 0, "la_cantor_ebb", VL_Z_FDECK);
  vt_answer(t, 0, "fate.2");
  vt_answer(t, 0, "pick.c%d",
            vt_card(t, 1, "hq_hedda_ashgrove", VL_Z_REVEALED));
  vt_answer(t, 0, "loc.1");
  assert_int_equal(power_of(t, 1), 1); /* Hedda Ashgrove: lose 1 */
  assert_int_equal(t->p.player, 1);
  vt_answer(t, 1, "cond.c%d", swarm);
  assert_true(vt_told(t, -1,
                      "Villain 2 performs a Fate action against "
                      "Villain 1."));
  assert_true(t->flags & ENG_REVEALED);
  assert_zone(t, cantor, VL_Z_REVEALED);
  assert_int_equal(t->p.player, 1); /* the Hive Queen chooses */
  vt_answer(t, 1, "pick.c%d", cantor);
  assert_false(vt_offered(t, "loc.4")); /* the Lich's lock */
  vt_answer(t, 1, "loc.3");
  assert_zone(t, cantor, VL_Z_TOP);
  assert_int_equal(t->s.w[cantor].loc, 2);
  assert_int_equal(power_of(t, 0), 1); /* Cantor Ebb: lose 2 */
  assert_zone(t, swarm, VL_Z_VDISC);
  /* Back to the Lich, whose Gain 3 Power is now covered. */
  assert_int_equal(t->p.player, 0);
  assert_false(vt_offered(t, "gain.1"));
}

/* ======================================================================
 * Glossary (Glossar)
 * ====================================================================*/

/* Glossar, Dein Reich: "Eine Karte hat immer nur Auswirkungen auf andere
 * Karten im selben Reich. Eine Karte in deinem Reich beeinflusst niemals
 * eine Karte im Reich deines Mitspielers." Hettie Coalridge (Items cost
 * 1 more) and Counting Table (Gain +1) in the Baron's realm leave the
 * Lich alone. */
static void test_glossary_a_card_affects_its_own_realm(void **unused) {
  (void)unused;
  table *t = load("realm_only");
  int ink = vt_card(t, 0, "la_marrow_inkwell", VL_Z_HAND);
  assert_int_equal(vl_cost(&t->s, 0, ink), 1);
  assert_string_equal(vt_label_of(t, "gain.2"), "Gain 2 Power (to 3)");
  vt_answer(t, 0, "play.c%d", ink);
  vt_answer(t, 0, "loc.2");
  assert_int_equal(power_of(t, 0), 0);
}

/* Glossar, Orte mit Schlosschip: "Bei manchen Bösewichten liegt zu
 * Spielbeginn auf einem Ort ein Schlosschip. Diesen gilt es im Lauf des
 * Spiels zu beseitigen." Once removed, cards may be played there. */
static void test_glossary_lock_removed(void **unused) {
  (void)unused;
  table *t = load("unlock");
  vt_answer(t, 0, "play.c%d", vt_card(t, 0, "force_the_lamp_door", VL_Z_HAND));
  assert_int_equal(t->s.seat[0].locked, 0);
  assert_int_equal(power_of(t, 0), 1);
  assert_true(vt_told(t, -1,
                      "Villain 1 removed the lock token from Hollow "
                      "Lighthouse."));
  int deck = vt_card(t, 0, "drowned_deckhand", VL_Z_HAND);
  vt_answer(t, 0, "play.c%d", deck);
  vt_answer(t, 0, "loc.4");
  assert_zone(t, deck, VL_Z_REALM);
  assert_int_equal(t->s.w[deck].loc, 3);
}

/* Glossar, Orte mit Schlosschip: "Du kannst deine Spielfigur nicht an
 * einen Ort mit Schlosschip bewegen. Es ist außerdem nicht möglich,
 * Karten an einen solchen Ort anzulegen, dorthin oder von dort weg zu
 * ziehen. Auch die Aktion 'Eine Fähigkeit aktivieren' kann nicht
 * ausgeführt werden, um eine Karte an einem Ort mit Schlosschip zu
 * aktivieren." The mover, plays, moves and Heroes are checked in their
 * tests; since no card can come to a locked location and no card of
 * Lair's locks one after setup, a card never lies at one ("Befindet sich
 * eine Karte an einem Ort, auf den im Spielverlauf ein Schlosschip
 * gelegt wird ..." cannot happen), and a state with one is refused. */
static void test_glossary_no_card_at_a_locked_location(void **unused) {
  (void)unused;
  static vl_state s;
  char path[512], err[400];
  snprintf(path, sizeof path, "%s/lock_card_refused.json", VL_TEST_DATA);
  assert_int_equal(vl_position_load(&s, path, err, sizeof err), 1);
  assert_non_null(strstr(err, "a card lies at a locked location"));
  /* Every lock of the shipped villains is Lair's kind of lock. */
  table *t = load("move_hero_lock");
  assert_int_equal(t->s.seat[0].locked, 8);
  assert_false(
      vt_offered(t, "hero.c%d.4", vt_card(t, 0, "brother_anselm", VL_Z_TOP)));
}

/* Glossar, Karten "ausspielen" und "zu einem Ort ziehen": "Wird die
 * Fähigkeit einer Karte ausgelöst, wenn sie (oder eine andere Karte)
 * ausgespielt wird, passiert das nicht, wenn die Karte nur zu einem
 * anderen Ort gezogen wird." Jory Quickfingers (when played: lose 2
 * Power) and Worker Drone (when played: gain 1 Power) are moved. */
static void test_glossary_moved_is_not_played(void **unused) {
  (void)unused;
  table *t = load("played_vs_moved");
  int jory = vt_card(t, 0, "gb_jory_quickfingers", VL_Z_TOP);
  vt_answer(t, 0, "hero.c%d.3", jory);
  assert_int_equal(t->s.w[jory].loc, 2);
  assert_int_equal(power_of(t, 0), 6); /* Toll Chain's +1; no loss */
  assert_false(vt_told(t, -1, "lost"));

  t = load("ally_moved");
  int worker = vt_card(t, 0, "hq_worker_drone", VL_Z_REALM);
  /* A Brood, the Hive Queen's own kind, is never moved (Lair). */
  assert_int_equal(
      vt_count_prefix(t, "ally.c%d.",
                      vt_card(t, 0, "hq_nectar_brood", VL_Z_REALM)),
      0);
  vt_answer(t, 0, "ally.c%d.2", worker);
  assert_int_equal(t->s.w[worker].loc, 1);
  assert_int_equal(power_of(t, 0), 0);
}

/* Glossar, Karten "ausspielen" und "zu einem Ort ziehen": Lair's "When a
 * Hero is played or moved to this location" (hero_arrives) says both and
 * works for both: Toll Chain sees Jory Quickfingers moved to it (above),
 * and Toll Chain and Bailiff Crane see a Hero played by Fate. */
static void test_glossary_hero_arrives_on_play_and_move(void **unused) {
  (void)unused;
  table *t = load("played_vs_moved");
  vt_answer(t, 0, "hero.c%d.3",
            vt_card(t, 0, "gb_jory_quickfingers", VL_Z_TOP));
  assert_true(vt_told(t, -1,
                      "Villain 1 gained 1 Power from Toll Chain's "
                      "ability (now 6)."));

  t = load("hero_arrives_on_play");
  vt_answer(t, 0, "fate.2");
  vt_answer(t, 0, "pick.c%d", vt_card(t, 1, "gb_wendel_marsh", VL_Z_REVEALED));
  vt_answer(t, 0, "loc.1");
  assert_int_equal(power_of(t, 1), 2);
}

/* Glossar, Karten "aufdecken" und Karten "anschauen": "Fordert eine
 * Karte, dass du dir Karten anschaust ..., schaust du sie dir geheim an,
 * sodass deine Mitstreiter sie nicht sehen können." Read the Omens: the
 * table hears how many, the looker which; the looked cards are in the
 * looker's view alone, and vl_check accepts no other knowledge. */
static void test_glossary_look_is_secret(void **unused) {
  (void)unused;
  table *t = load("look_fate");
  int omens = vt_card(t, 0, "la_read_omens", VL_Z_HAND);
  int cor = vt_card(t, 0, "la_corisande_vey", VL_Z_FDECK);
  int pyre = vt_card(t, 0, "la_pages_to_pyre", VL_Z_FDECK);
  int tobin = vt_card(t, 0, "la_tobin_emberlay", VL_Z_FDECK);
  vt_answer(t, 0, "play.c%d", omens);
  assert_true(t->flags & ENG_REVEALED);
  assert_true(vt_told(t, -1,
                      "Villain 1 looked at the top 2 cards of their "
                      "fate deck."));
  assert_false(vt_told(t, -1, "Sister Corisande Vey"));
  assert_false(vt_told(t, 1, "Sister Corisande Vey"));
  assert_true(vt_told(t, 0,
                      "You looked at Sister Corisande Vey and Pages to "
                      "the Pyre (the top card first)."));
  assert_int_equal(t->p.player, 0);
  assert_true(vt_offered(t, "pick.c%d", cor) &&
              vt_offered(t, "pick.c%d", pyre));
  assert_false(vt_offered(t, "pick.c%d", tobin));
  assert_int_equal(view_count(t, 0, "looked"), 2);
  assert_int_equal(view_count(t, 1, "looked"), 0);
  assert_int_equal(view_count(t, -1, "looked"), -1);
  assert_int_equal(t->s.w[cor].known, 1);
  assert_int_equal(t->s.w[tobin].known, 0);
  /* Knowledge by anyone else, or of a card not hidden, is refused. */
  static vl_state bad;
  char msg[256];
  bad = t->s;
  bad.w[cor].known |= 2;
  assert_int_not_equal(vl_check(&bad, msg, sizeof msg), 0);
  bad = t->s;
  bad.w[omens].known = 1; /* resolving, face up */
  assert_int_not_equal(vl_check(&bad, msg, sizeof msg), 0);
  /* Discarded, the card is public; the other stays on top, known. */
  vt_answer(t, 0, "pick.c%d", pyre);
  assert_zone(t, pyre, VL_Z_FDISC);
  assert_true(vt_told(t, -1,
                      "Villain 1 discarded Pages to the Pyre from the "
                      "top of their fate deck."));
  vt_answer(t, 0, "done");
  assert_zone(t, cor, VL_Z_FDECK);
  assert_int_equal(t->s.fdeck[0].c[t->s.fdeck[0].n - 1], cor);
  assert_true(view_names(t, 0, "looked", "Sister Corisande Vey"));
  assert_int_equal(view_count(t, 1, "looked"), 0);
  assert_int_equal(power_of(t, 0), 1);
}

/* Glossar, Karten "aufdecken" und Karten "anschauen": "Falls du Karten
 * von einem aufgebrauchten Stapel aufdecken oder anschauen sollst,
 * mischst du den entsprechenden Ablagestapel und legst ihn als neuen
 * Nachziehstapel bereit." (Lair's decision 14.) */
static void test_glossary_look_at_an_empty_deck(void **unused) {
  (void)unused;
  table *t = load("look_empty");
  assert_int_equal(t->s.fdeck[0].n, 0);
  vt_answer(t, 0, "play.c%d", vt_card(t, 0, "la_read_omens", VL_Z_HAND));
  assert_true(vt_told(t, -1,
                      "Villain 1's fate discard pile was shuffled into "
                      "a new fate deck."));
  assert_int_equal(t->s.fdeck[0].n, 15);
  assert_int_equal(t->s.fdisc[0].n, 0);
  assert_int_equal(vt_count_prefix(t, "pick."), 2);
  assert_int_equal(view_count(t, 0, "looked"), 2);
}

/* Glossar, Karten "aufdecken" und Karten "anschauen": "Falls du Karten
 * von einem aufgebrauchten Stapel aufdecken oder anschauen sollst,
 * mischst du den entsprechenden Ablagestapel und legst ihn als neuen
 * Nachziehstapel bereit." Here the deck runs out during the look: a fate
 * deck of one card, a look at two. The second card is looked at from the
 * deck the shuffled discard pile makes, as a Fate reveal does it. */
static void test_glossary_look_refills_when_the_deck_runs_out(void **unused) {
  (void)unused;
  table *t = load("look_midway");
  vt_answer(t, 0, "play.c%d", vt_card(t, 0, "la_read_omens", VL_Z_HAND));
  assert_true(vt_told(t, -1,
                      "Villain 1 looked at the top 2 cards of their "
                      "fate deck."));
  assert_int_equal(vt_count_prefix(t, "pick."), 2);
  assert_int_equal(view_count(t, 0, "looked"), 2);
}

/* Glossar, Einen Helden "suchen": "Bei der Suche nach einem Helden
 * schaust du zuerst nach, ob er sich bereits an einem Ort des Reichs
 * befindet. Ist dies der Fall, nimmst du ihn dort weg, wirfst
 * ausgerüstete Gegenstände ab und ziehst den Helden zum angegebenen
 * Ort." Lair's decision 10: moved, not played, so Maren Holt's "when
 * played" does not resolve again. */
static void test_glossary_find_hero_in_the_realm(void **unused) {
  (void)unused;
  table *t = load("find_hero_realm");
  int maren = vt_card(t, 0, "maren_holt", VL_Z_TOP);
  int belt = vt_card(t, 0, "cork_lifebelt", VL_Z_TOP);
  int deck = vt_card(t, 0, "drowned_deckhand", VL_Z_REALM);
  vt_answer(t, 0, "play.c%d",
            vt_card(t, 0, "beacon_of_the_drowned", VL_Z_HAND));
  assert_true(vt_offered(t, "loc.1") && vt_offered(t, "loc.2"));
  assert_false(vt_offered(t, "loc.4")); /* locked */
  vt_answer(t, 0, "loc.3");
  assert_zone(t, maren, VL_Z_TOP);
  assert_int_equal(t->s.w[maren].loc, 2);
  assert_zone(t, belt, VL_Z_FDISC);
  assert_zone(t, deck, VL_Z_REALM); /* no "when played" */
  assert_true(vt_told(t, -1,
                      "Villain 1 found Maren Holt, the Lightkeeper at "
                      "Wreck of the Ninefold and moved them to "
                      "Brinewater Undercroft."));
  assert_false(t->flags & ENG_REVEALED);
}

/* Glossar, Einen Helden "suchen": "Befindet sich der Held nicht im Reich,
 * schaust du im Schicksal-Ablagestapel und spielst ihn daraus aus." */
static void test_glossary_find_hero_in_the_fate_discard(void **unused) {
  (void)unused;
  table *t = load("find_hero_discard");
  int maren = vt_card(t, 0, "maren_holt", VL_Z_FDISC);
  int deck = vt_card(t, 0, "drowned_deckhand", VL_Z_REALM);
  vt_answer(t, 0, "play.c%d",
            vt_card(t, 0, "beacon_of_the_drowned", VL_Z_HAND));
  vt_answer(t, 0, "loc.3");
  assert_zone(t, maren, VL_Z_TOP);
  assert_int_equal(t->s.w[maren].loc, 2);
  assert_int_equal(t->s.fdisc[0].n, 1); /* the Lifebelt stays */
  assert_zone(t, deck, VL_Z_VDISC);     /* played: her ability works */
  assert_true(vt_told(t, -1,
                      "Villain 1 found Maren Holt, the Lightkeeper in "
                      "Villain 1's fate discard pile and played them at "
                      "Brinewater Undercroft."));
}

/* Glossar, Einen Helden "suchen": "Befindet sich der Held auch nicht im
 * Schicksal-Ablagestapel, durchsuchst du den Schicksal-Kartenstapel,
 * spielst die Karte aus und mischst im Anschluss den
 * Schicksal-Kartenstapel." */
static void test_glossary_find_hero_in_the_fate_deck(void **unused) {
  (void)unused;
  table *t = load("find_hero_deck");
  int maren = vt_card(t, 0, "maren_holt", VL_Z_FDECK);
  int deck = vt_card(t, 0, "drowned_deckhand", VL_Z_REALM);
  assert_int_equal(t->s.fdeck[0].n, 15);
  vt_answer(t, 0, "play.c%d",
            vt_card(t, 0, "beacon_of_the_drowned", VL_Z_HAND));
  vt_answer(t, 0, "loc.3");
  assert_zone(t, maren, VL_Z_TOP);
  assert_int_equal(t->s.fdeck[0].n, 14);
  assert_zone(t, deck, VL_Z_VDISC);
  assert_true(vt_told(t, -1, "(the fate deck was shuffled)"));
  assert_true(t->flags & ENG_REVEALED);
}

/* Glossar, Einen Helden "besiegen": "Erlaubt dir eine Karte einen Helden
 * direkt zu besiegen, musst du dafür nicht die Aktion ausführen und auch
 * keine Handlanger einsetzen." The Sea Takes Its Due, at a location
 * without a Vanquish action, with no Ally in the realm. */
static void test_glossary_defeat_by_a_card(void **unused) {
  (void)unused;
  table *t = load("defeat_by_card");
  int tamsin = vt_card(t, 0, "tamsin_reed", VL_Z_TOP);
  assert_int_equal(vt_count_prefix(t, "vanq."), 0);
  vt_answer(t, 0, "play.c%d",
            vt_card(t, 0, "the_sea_takes_its_due", VL_Z_HAND));
  assert_zone(t, tamsin, VL_Z_FDISC);
  assert_int_equal(t->s.seat[0].defeated, 1);
  assert_true(vt_told(t, -1,
                      "defeated, with The Sea Takes Its Due's ability, "
                      "Tamsin Reed, Salvage Diver"));
}

/* Häufige Fragen: "Ich habe eine Karte, die es mir erlaubt, einen Helden
 * mit einer Stärke von 4 oder weniger zu besiegen. ... Hat ein Held
 * beispielsweise auf seiner Karte eine Stärke von 5 aufgedruckt, doch
 * eine andere Karte im Reich verringert die Stärke um 1, gilt die Stärke
 * dieses Helden als 4." Execution at Dawn, Skull War-Drum, Sir Garrick
 * Penhallow (5). */
static void test_faq_defeat_up_to_strength_counts_modifiers(void **unused) {
  (void)unused;
  table *t = load("defeat_printed_strength");
  int exec = vt_card(t, 0, "iw_execution_at_dawn", VL_Z_HAND);
  int garrick = vt_card(t, 0, "iw_garrick_penhallow", VL_Z_TOP);
  assert_int_equal(vl_strength(&t->s, garrick), 5);
  assert_false(vt_offered(t, "play.c%d", exec));

  t = load("defeat_reduced_strength");
  exec = vt_card(t, 0, "iw_execution_at_dawn", VL_Z_HAND);
  garrick = vt_card(t, 0, "iw_garrick_penhallow", VL_Z_TOP);
  assert_int_equal(vl_strength(&t->s, garrick), 4);
  vt_answer(t, 0, "play.c%d", exec);
  assert_zone(t, garrick, VL_Z_FDISC);
  assert_int_equal(t->s.seat[0].defeated, 1);
}

/* Handlanger: "Jeder Handlanger hat eine Stärke ..., die jedoch durch
 * andere Karten im Reich beeinflusst werden kann." Lair's decision 11:
 * "at this location" includes the card itself (Bastion Hurlock, Allies
 * here +1: 5); a card meaning "every other Ally" takes its point back
 * (Barnacle Bosun stays 3, its neighbour gets +1). */
static void test_strength_at_this_location_includes_itself(void **unused) {
  (void)unused;
  table *t = load("strength_here");
  assert_int_equal(
      vl_strength(&t->s, vt_card(t, 0, "gb_bastion_hurlock", VL_Z_REALM)), 5);
  assert_int_equal(
      vl_strength(&t->s, vt_card(t, 0, "gb_coin_clerk", VL_Z_REALM)), 2);
  assert_int_equal(
      vl_strength(&t->s, card_at(t, 1, "barnacle_bosun", VL_Z_REALM, 0)), 3);
  assert_int_equal(
      vl_strength(&t->s, card_at(t, 1, "barnacle_bosun", VL_Z_REALM, 1)), 3);
  assert_int_equal(
      vl_strength(&t->s, vt_card(t, 1, "drowned_deckhand", VL_Z_REALM)), 3);
}

/* Kartentypen: "Solange eine Karte in deinem Reich liegt, wirkt auch
 * ihre Fähigkeit." Judge Honora Blythe (Allies cost 1 more) vanquished:
 * the Ally costs 2 again. */
static void test_static_ability_ends_with_the_card(void **unused) {
  (void)unused;
  table *t = load("static_ends");
  int cudgel = vt_card(t, 0, "gb_hired_cudgel", VL_Z_HAND);
  int honora = vt_card(t, 0, "gb_honora_blythe", VL_Z_TOP);
  assert_false(vt_offered(t, "play.c%d", cudgel));
  vt_answer(t, 0, "vanq.c%d", honora);
  vt_answer(t, 0, "pick.c%d", vt_card(t, 0, "gb_hired_cudgel", VL_Z_REALM));
  assert_zone(t, honora, VL_Z_FDISC);
  assert_int_equal(vl_cost(&t->s, 0, cudgel), 2);
  assert_true(vt_offered(t, "play.c%d", cudgel));
}

/* Lair's decision 12: play_free's price limit is the printed cost (Nurse
 * Drone: "a Brood that costs 2 or less"; Mirela Dunmore makes a Guard
 * Brood, printed 2, cost 3). */
static void test_play_free_limit_is_the_printed_cost(void **unused) {
  (void)unused;
  table *t = load("play_free_printed");
  int nurse = vt_card(t, 0, "hq_nurse_drone", VL_Z_HAND);
  int guard = vt_card(t, 0, "hq_guard_brood", VL_Z_HAND);
  assert_int_equal(vl_cost(&t->s, 0, guard), 3);
  vt_answer(t, 0, "play.c%d", nurse);
  vt_answer(t, 0, "loc.2");
  assert_int_equal(power_of(t, 0), 0);
  assert_true(vt_offered(t, "pick.c%d", guard) && vt_offered(t, "skip"));
  vt_answer(t, 0, "pick.c%d", guard);
  vt_answer(t, 0, "loc.2");
  assert_zone(t, guard, VL_Z_REALM);
  assert_int_equal(power_of(t, 0), 0);
  assert_true(vt_told(t, -1,
                      "Villain 1 played the Brood Guard Brood at "
                      "Humming Galleries for free."));
}

/* Häufige Fragen: "Darf ich mir die Karten meiner Ablagestapel anschauen?
 * Und wie sieht es mit den Ablagestapeln meiner Mitstreiter aus? Ja.
 * Alle Ablagestapel sind 'öffentlich'". */
static void test_faq_discard_piles_are_public(void **unused) {
  (void)unused;
  table *t = load("discard");
  vt_answer(t, 0, "discard");
  vt_answer(t, 0, "pick.c%d", vt_card(t, 0, "la_bone_scribe", VL_Z_HAND));
  vt_answer(t, 0, "done");
  for (int v = -1; v < 2; v++)
    assert_true(view_names(t, v, "discard_1", "Bone Scribe"));
  t = load("fate_unplayable");
  vt_answer(t, 0, "fate.2");
  vt_answer(t, 0, "pick.c%d",
            vt_card(t, 1, "keepers_great_lens", VL_Z_REVEALED));
  for (int v = -1; v < 2; v++)
    assert_true(view_names(t, v, "fate_discard_2", "Salvage Claim"));
  /* and the ruleset lists them as open piles for /game pile */
  int n = 0;
  for (const char *const *k = vl_ruleset.open_piles; *k; k++)
    n += strcmp(*k, "discard_1") == 0 || strcmp(*k, "fate_discard_6") == 0;
  assert_int_equal(n, 2);
}

/* ======================================================================
 * Objectives and the end (Spielende)
 * ====================================================================*/

/* Spielende: "Sobald du das Ziel deines Bösewichts erreicht hast, endet
 * das Spiel sofort und du hast gewonnen! Dabei spielt es keine Rolle, an
 * welchem Ort deine Bösewicht-Spielfigur steht und welche Helden sich
 * noch in deinem Reich befinden." The Drowned Captain: Maren Holt
 * defeated at the Hollow Lighthouse (from Gallows Reef, Harbourmaster Ide
 * Quell still in the realm); elsewhere it is no win. */
static void test_objective_defeat_hero_at(void **unused) {
  (void)unused;
  table *t = load("objective_defeat_elsewhere");
  int maren = vt_card(t, 0, "maren_holt", VL_Z_TOP);
  vt_answer(t, 0, "vanq.c%d", maren);
  vt_answer(t, 0, "pick.c%d", vt_card(t, 0, "anchor_wraith", VL_Z_REALM));
  assert_zone(t, maren, VL_Z_FDISC);
  assert_false(t->s.over);
  assert_int_equal(t->p.player, 0);

  t = load("objective_defeat_at");
  maren = vt_card(t, 0, "maren_holt", VL_Z_TOP);
  vt_answer(t, 0, "vanq.c%d", maren);
  vt_answer(t, 0, "pick.c%d", vt_card(t, 0, "anchor_wraith", VL_Z_REALM));
  assert_true(t->s.over);
  assert_int_equal(t->s.winners, 1);
  assert_int_equal(t->s.reason, VL_END_OBJECTIVE);
  assert_true(vt_told(t, -1,
                      "Villain 1, The Drowned Captain, has achieved "
                      "their objective"));
  assert_zone(t, vt_card(t, 0, "ide_quell", -1), VL_Z_TOP);
  assert_int_equal(t->s.seat[0].mover, 1);
  /* At once: the Wraiths' "discarded" Power never came. */
  assert_int_equal(power_of(t, 0), 0);
  assert_int_equal(t->p.player, -1);
}

/* Spielende, Hinweis: "Manche Bösewichte können nur zu Beginn ihres
 * Spielzugs gewinnen." The Gilded Baron starts his turn with 20 Power:
 * he wins before his mover moves (the rulebook's ruling). */
static void test_objective_start_power(void **unused) {
  (void)unused;
  table *t = load("objective_start_power");
  assert_true(t->s.over);
  assert_int_equal(t->s.winners, 1);
  assert_int_equal(t->s.seat[0].mover, 2); /* it never moved */
  assert_int_equal(t->s.phase, VL_PH_OVER);
}

/* Spielende, Hinweis: "Das heißt, sie müssen ihre Siegbedingungen für
 * eine Runde lang halten." 19 Power and Interest Ledger (+1 at the start
 * of the turn, after the check): 20 held through a round wins at the next
 * start; 20 lost in the round (Tax Revolt, by Fate) does not. */
static void test_objective_held_through_a_round(void **unused) {
  (void)unused;
  for (int revolt = 0; revolt < 2; revolt++) {
    table *t = load("objective_start_power_held");
    assert_false(t->s.over);
    assert_int_equal(power_of(t, 0), 20);
    assert_int_equal(t->s.phase, VL_PH_MOVE);
    vt_answer(t, 0, "move.2");
    vt_answer(t, 0, "end");
    assert_false(t->s.over); /* 20 in his own turn: not yet */
    assert_int_equal(t->p.player, 1);
    vt_answer(t, 1, "move.2"); /* Hall of Whispers: Fate */
    if (revolt) {
      vt_answer(t, 1, "fate.1");
      vt_answer(t, 1, "pick.c%d",
                vt_card(t, 0, "gb_tax_revolt", VL_Z_REVEALED));
      assert_int_equal(power_of(t, 0),
                       20 - effect_n(t, 0, "gb_tax_revolt", VL_OP_LOSE_POWER));
    }
    vt_answer(t, 1, "end");
    assert_int_equal(t->s.over, !revolt);
    if (!revolt)
      assert_int_equal(t->s.winners, 1);
    else /* the Ledger's +1 comes after the check */
      assert_int_equal(power_of(t, 0),
                       21 - effect_n(t, 0, "gb_tax_revolt", VL_OP_LOSE_POWER));
  }
}

/* Spielende, Hinweis: "Manche Bösewichte können nur zu Beginn ihres
 * Spielzugs gewinnen." The Hive Queen: a Brood at each location at the
 * start of her turn (a Hero in her realm does not matter); the fourth
 * Brood played in her turn does not win then. */
static void test_objective_card_everywhere(void **unused) {
  (void)unused;
  table *t = load("objective_broods");
  assert_true(t->s.over);
  assert_int_equal(t->s.winners, 1);

  t = load("objective_broods_mid_turn");
  vt_answer(t, 0, "play.c%d", vt_card(t, 0, "hq_nectar_brood", VL_Z_HAND));
  vt_answer(t, 0, "loc.1");
  assert_false(t->s.over);
  assert_int_equal(t->s.phase, VL_PH_ACTIONS);
}

/* Spielende: "Sobald du das Ziel deines Bösewichts erreicht hast, endet
 * das Spiel sofort und du hast gewonnen!" The Bog Witch: the third
 * ingredient joins the others at Cauldron Glade, in the middle of her
 * turn. */
static void test_objective_items_together(void **unused) {
  (void)unused;
  table *t = load("objective_items");
  vt_answer(t, 0, "play.c%d", vt_card(t, 0, "peat_amber_eye", VL_Z_HAND));
  assert_true(t->s.over);
  assert_int_equal(t->s.winners, 1);
  assert_int_equal(t->s.seat[0].mover, 0);
}

/* Spielende: "endet das Spiel sofort": the Iron Warlord's third defeated
 * Hero ("Defeat 3 Heroes"). */
static void test_objective_count_defeated(void **unused) {
  (void)unused;
  table *t = load("objective_defeated");
  vt_answer(t, 0, "vanq.c%d", vt_card(t, 0, "iw_corbin_tallow", VL_Z_TOP));
  assert_true(t->s.over);
  assert_int_equal(t->s.winners, 1);
  assert_int_equal(t->s.seat[0].defeated, 3);
  assert_int_equal(vl_villain_of(&t->s, 0)->obj.n, 3);
}

/* Spielende: "Sobald du das Ziel deines Bösewichts erreicht hast, endet
 * das Spiel sofort" — also in another player's turn: the Lich's eighth
 * Page comes from Marginal Note, a Condition played in the Captain's
 * turn. */
static void test_objective_now_in_another_players_turn(void **unused) {
  (void)unused;
  table *t = load("objective_other_turn");
  vt_answer(t, 0, "play.c%d", vt_card(t, 0, "force_the_lamp_door", VL_Z_HAND));
  assert_int_equal(t->p.player, 1);
  vt_answer(t, 1, "cond.c%d", vt_card(t, 1, "la_marginal_note", VL_Z_HAND));
  assert_true(t->s.over);
  assert_int_equal(t->s.winners, 2);
  assert_int_equal(t->s.current, 0);
  assert_true(vt_told(t, -1,
                      "Villain 2, The Lich Archivist, has achieved "
                      "their objective"));
}

/* Spielende: "endet das Spiel sofort". Lair: objectives that hold at the
 * same moment are checked from the player whose turn it is, then
 * clockwise; the first one wins. */
static void test_objective_current_player_first(void **unused) {
  (void)unused;
  table *t = load("objective_order_current"); /* Villain 2's turn */
  assert_true(t->s.over);
  assert_int_equal(t->s.winners, 2);
  t = load("objective_order_clockwise"); /* Villain 3's: then 1, then 2 */
  assert_true(t->s.over);
  assert_int_equal(t->s.winners, 1);
}

/* Lair's decision 13: the game ends after 60 rounds without a winner
 * (the rulebook ends only by an objective; a hosted game must end). */
static void test_end_after_sixty_rounds(void **unused) {
  (void)unused;
  table *t = load("round_limit");
  assert_int_equal(VL_ROUND_LIMIT, 60);
  vt_answer(t, 1, "end");
  assert_true(t->s.over);
  assert_int_equal(t->s.winners, 0);
  assert_int_equal(t->s.reason, VL_END_ROUNDS);
  assert_true(vt_told(t, -1,
                      "After 60 rounds no villain has achieved their "
                      "objective: the game ends without a winner, and "
                      "the heroes prevail."));
  eng_result r;
  vl_ruleset.result(&t->s, &r);
  assert_true(r.over);
  assert_int_equal(r.winners, 0);
  assert_string_equal(r.reason, "round_limit");
}

/* Spielende: "endet das Spiel sofort": a game that is over asks nobody
 * anything and refuses every answer. */
static void test_end_game_over_offers_nothing(void **unused) {
  (void)unused;
  table *t = load("objective_start_power");
  assert_true(t->s.over);
  assert_int_equal(t->p.n, 0);
  assert_int_equal(t->p.player, -1);
  assert_string_equal(question(t), "The game is over.");
  assert_int_equal(vl_ruleset.pass_option(&t->s, &t->p), -1);
  static const uint32_t codes[] = {
      VL_CODE(VL_OPT_END, 0, 0), VL_CODE(VL_OPT_MOVE, 1, 0),
      VL_CODE(VL_OPT_GAIN, 0, 0), VL_CODE(VL_OPT_PASS, 0, 0)};
  for (size_t k = 0; k < sizeof codes / sizeof codes[0]; k++) {
    unsigned flags = 0;
    eng_events_clear(&t->ev);
    assert_int_equal(vl_ruleset.apply(&t->s, codes[k], &flags, &t->ev),
                     ENG_GAME_OVER);
    assert_int_equal(t->ev.n, 0);
  }
  eng_result r;
  vl_ruleset.result(&t->s, &r);
  assert_true(r.over);
  assert_string_equal(r.reason, "objective");
  assert_string_equal(r.side[0], "gilded_baron");
}

/* ======================================================================
 * Takeback (what reveals information)
 * ====================================================================*/

/* Glossar, Karten "aufdecken" und Karten "anschauen"; Lair's takeback:
 * an answer that draws, reveals, looks or searches brings out something
 * new (ENG_REVEALED: no takeback past it); moving, playing, gaining and
 * vanquishing do not. (Fate reveals and looks: their tests.) */
static void test_takeback_flags(void **unused) {
  (void)unused;
  table *t = load("takeback_flags");
  int deck = vt_card(t, 0, "drowned_deckhand", VL_Z_HAND);
  int pilot = vt_card(t, 0, "wreckers_pilot", VL_Z_HAND);
  int tamsin = vt_card(t, 0, "tamsin_reed", VL_Z_TOP);
  vt_answer(t, 0, "move.2");
  assert_false(t->flags & ENG_REVEALED);
  vt_answer(t, 0, "play.c%d", deck);
  assert_false(t->flags & ENG_REVEALED);
  vt_answer(t, 0, "loc.2");
  assert_false(t->flags & ENG_REVEALED);
  vt_answer(t, 0, "hero.c%d.2", tamsin);
  assert_false(t->flags & ENG_REVEALED);
  vt_answer(t, 0, "play.c%d", pilot);
  vt_answer(t, 0, "loc.2");
  assert_false(t->flags & ENG_REVEALED);
  /* Wrecker's Pilot may find Force the Lamp Door: one option per card. */
  assert_int_equal(vt_count_prefix(t, "pick."), 1);
  assert_true(vt_offered(t, "skip"));
  answer_nth(t, 0);
  assert_true(t->flags & ENG_REVEALED);
  assert_true(vt_told(t, -1,
                      "Villain 1 searched their villain deck and took "
                      "Force the Lamp Door into their hand"));
  assert_zone(t, vt_card(t, 0, "force_the_lamp_door", VL_Z_HAND), VL_Z_HAND);
  vt_answer(t, 0, "vanq.c%d", tamsin);
  vt_answer(t, 0, "pick.c%d", deck);
  assert_zone(t, tamsin, VL_Z_FDISC);
  assert_false(t->flags & ENG_REVEALED);
  assert_true(vt_offered(t, "gain.3")); /* so the turn has not ended */
  vt_answer(t, 0, "end");
  assert_true(t->flags & ENG_REVEALED); /* the draw */
}

/* ======================================================================
 * Determinism and saves
 * ====================================================================*/

/* Plays a real game (setup, seed) for up to n answers chosen by the
 * heuristic player, every answer through the harness. After every answer
 * the state must come back from its own save unchanged, prompt included.
 * Returns the final state's text and a digest of every state's. */
static char *played_game(uint64_t seed, int n, uint64_t *digest) {
  static vl_state back;
  table *t = setup(3, "random", -1, seed);
  eng_rng rng;
  eng_rng_seed(&rng, seed, 7);
  uint64_t h = 1469598103934665603ull;
  for (int k = 0; k < n && !t->s.over; k++) {
    int i = vl_ruleset.ai(&t->s, &t->p, &rng);
    assert_in_range(i, 0, t->p.n - 1);
    answer_nth(t, i);
    char *text = state_text(&t->s);
    for (const char *c = text; *c; c++)
      h = (h ^ (uint8_t)*c) * 1099511628211ull;
    json_t *j = vl_to_json(&t->s);
    memset(&back, 0xa5, sizeof back);
    assert_int_equal(vl_from_json(&back, j), ENG_OK);
    json_decref(j);
    char *again = state_text(&back);
    assert_string_equal(text, again);
    eng_prompt p;
    vl_ruleset.prompt(&back, &p);
    assert_int_equal(p.player, t->p.player);
    assert_int_equal(p.n, t->p.n);
    assert_memory_equal(p.code, t->p.code, sizeof p.code[0] * (size_t)p.n);
    free(again);
    free(text);
  }
  *digest = h;
  return state_text(&t->s);
}

/* Vorbereitung 4 and 6: "Mische deine Bösewicht-Karten ... Mische deine
 * Schicksal-Karten". Lair shuffles with the game's own generator (PCG32
 * from the seed), so the same setup, seed and answers give the same game,
 * byte for byte; and every state survives vl_to_json/vl_from_json
 * unchanged. */
static void test_determinism_same_seed_same_game(void **unused) {
  (void)unused;
  uint64_t d1, d2, d3;
  char *a = played_game(11, 260, &d1);
  char *b = played_game(11, 260, &d2);
  char *c = played_game(12, 260, &d3);
  assert_string_equal(a, b);
  assert_true(d1 == d2);
  assert_true(d1 != d3);
  free(a);
  free(b);
  free(c);
}

/* Lair's saves (no rulebook passage): a save that does not describe a
 * game Lair can continue is refused with ENG_BAD_STATE: a card in two
 * places, a pile disagreeing with the cards' zones, a villain Lair lacks,
 * a card list that changed. */
static void test_saves_damaged_are_refused(void **unused) {
  (void)unused;
  static vl_state back;
  table *t = load("window_holder"); /* hands, realms, piles, a lock */
  json_t *good = vl_to_json(&t->s);
  assert_int_equal(vl_from_json(&back, good), ENG_OK);
  int riptide = vt_card(t, 1, "riptide", VL_Z_HAND);
  for (int k = 0; k < 5; k++) {
    json_t *j = json_deep_copy(good);
    json_t *piles = json_object_get(j, "piles");
    json_t *seats = json_object_get(j, "seats");
    switch (k) {
    case 0: /* Riptide in the hand and in the villain deck */
      json_array_append_new(
          json_array_get(json_object_get(piles, "villain_deck"), 1),
          json_integer(riptide));
      break;
    case 1: /* the deck pile lost a card still in the deck zone */
      json_array_remove(
          json_array_get(json_object_get(piles, "villain_deck"), 0), 0);
      break;
    case 2: /* the same card twice in the fate deck pile */
    {
      json_t *fd = json_array_get(json_object_get(piles, "fate_deck"), 0);
      json_array_set(fd, 0, json_array_get(fd, 1));
      break;
    }
    case 3:
      json_object_set_new(json_array_get(seats, 0), "villain",
                          json_string("the_lost_villain"));
      break;
    case 4: {
      json_t *fp = json_object_get(json_array_get(seats, 1), "fingerprint");
      json_integer_set(fp, json_integer_value(fp) ^ 1);
      break;
    }
    }
    if (vl_from_json(&back, j) != ENG_BAD_STATE)
      fail_msg("damaged save %d was accepted", k);
    json_decref(j);
  }
  json_decref(good);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_setup_power_movers_locks_hands),
      cmocka_unit_test(test_setup_villains_chosen_in_seat_order),
      cmocka_unit_test(test_setup_first_player_from_seed_or_host),
      cmocka_unit_test(test_decision_villains_calibrated),
      cmocka_unit_test(test_move_elsewhere_never_to_a_lock),
      cmocka_unit_test(test_turn_example_actions_of_a_location),
      cmocka_unit_test(test_turn_each_action_once_in_any_order),
      cmocka_unit_test(test_turn_covered_top_actions_not_offered),
      cmocka_unit_test(test_faq_uncovered_by_vanquish_usable_at_once),
      cmocka_unit_test(test_turn_uncovered_by_moving_the_hero_away),
      cmocka_unit_test(test_faq_covered_before_use_is_lost),
      cmocka_unit_test(test_turn_draw_up_to_four_at_the_end),
      cmocka_unit_test(test_turn_empty_deck_refilled_from_discard),
      cmocka_unit_test(test_action_gain_power_with_modifiers),
      cmocka_unit_test(test_action_play_pays_cost_unaffordable_not_offered),
      cmocka_unit_test(test_faq_card_beats_the_rulebook),
      cmocka_unit_test(test_action_play_never_to_a_lock),
      cmocka_unit_test(test_action_play_item_example),
      cmocka_unit_test(test_action_play_attached_item_needs_an_ally),
      cmocka_unit_test(test_action_no_limit_of_items_on_an_ally),
      cmocka_unit_test(test_action_play_never_a_condition),
      cmocka_unit_test(test_faq_effect_only_if_it_can_be_done),
      cmocka_unit_test(test_faq_optional_effect_offers_skip),
      cmocka_unit_test(test_action_effect_example),
      cmocka_unit_test(test_faq_activate_card_stays_and_again),
      cmocka_unit_test(test_action_activate_cost_and_no_activate),
      cmocka_unit_test(test_action_move_item_or_ally),
      cmocka_unit_test(test_action_move_hero),
      cmocka_unit_test(test_faq_several_heroes_any_order),
      cmocka_unit_test(test_vanquish_next_hero_covers),
      cmocka_unit_test(test_vanquish_same_location_items_go_along),
      cmocka_unit_test(test_vanquish_zero_strength_ally_cannot_help),
      cmocka_unit_test(test_vanquish_spent_allies_abilities),
      cmocka_unit_test(test_action_discard_cards),
      cmocka_unit_test(test_vanquish_worked_example),
      cmocka_unit_test(test_vanquish_zero_strength_hero),
      cmocka_unit_test(test_strength_counts_every_card_of_the_realm),
      cmocka_unit_test(test_fate_reveals_two_plays_one),
      cmocka_unit_test(test_fate_unplayable_cards_go_without_effect),
      cmocka_unit_test(test_fate_token_five_players),
      cmocka_unit_test(test_fate_no_token_four_players),
      cmocka_unit_test(test_fate_deck_refilled_from_discard),
      cmocka_unit_test(test_fate_item_attached_to_a_hero),
      cmocka_unit_test(test_faq_unplayable_fate_card_no_new_reveal),
      cmocka_unit_test(test_fate_effect_choices_are_the_fating_players),
      cmocka_unit_test(test_fate_effect_hand_choices_are_the_targets),
      cmocka_unit_test(test_faq_heroes_only_at_the_top),
      cmocka_unit_test(test_fate_hero_when_played),
      cmocka_unit_test(test_fate_hero_ability_does_what_it_can),
      cmocka_unit_test(test_condition_window_same_for_holder_and_not),
      cmocka_unit_test(test_condition_played_in_opponents_turn),
      cmocka_unit_test(test_condition_no_window_without_a_fitting_action),
      cmocka_unit_test(test_condition_windows_clockwise_one_each),
      cmocka_unit_test(test_condition_threshold_only_when_crossed),
      cmocka_unit_test(test_condition_window_after_move_and_start),
      cmocka_unit_test(test_condition_fate_against_the_current_player),
      cmocka_unit_test(test_glossary_a_card_affects_its_own_realm),
      cmocka_unit_test(test_glossary_lock_removed),
      cmocka_unit_test(test_glossary_no_card_at_a_locked_location),
      cmocka_unit_test(test_glossary_moved_is_not_played),
      cmocka_unit_test(test_glossary_hero_arrives_on_play_and_move),
      cmocka_unit_test(test_glossary_look_is_secret),
      cmocka_unit_test(test_glossary_look_at_an_empty_deck),
      cmocka_unit_test(test_glossary_find_hero_in_the_realm),
      cmocka_unit_test(test_glossary_find_hero_in_the_fate_discard),
      cmocka_unit_test(test_glossary_find_hero_in_the_fate_deck),
      cmocka_unit_test(test_glossary_defeat_by_a_card),
      cmocka_unit_test(test_faq_defeat_up_to_strength_counts_modifiers),
      cmocka_unit_test(test_strength_at_this_location_includes_itself),
      cmocka_unit_test(test_static_ability_ends_with_the_card),
      cmocka_unit_test(test_play_free_limit_is_the_printed_cost),
      cmocka_unit_test(test_faq_discard_piles_are_public),
      cmocka_unit_test(test_objective_defeat_hero_at),
      cmocka_unit_test(test_objective_start_power),
      cmocka_unit_test(test_objective_held_through_a_round),
      cmocka_unit_test(test_objective_card_everywhere),
      cmocka_unit_test(test_objective_items_together),
      cmocka_unit_test(test_objective_count_defeated),
      cmocka_unit_test(test_objective_now_in_another_players_turn),
      cmocka_unit_test(test_objective_current_player_first),
      cmocka_unit_test(test_end_after_sixty_rounds),
      cmocka_unit_test(test_end_game_over_offers_nothing),
      cmocka_unit_test(test_takeback_flags),
      cmocka_unit_test(test_determinism_same_seed_same_game),
      cmocka_unit_test(test_saves_damaged_are_refused),
      cmocka_unit_test(test_glossary_look_refills_when_the_deck_runs_out),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
