/*
 * test_gal_rules.c: the rules of Galactic Domination (rulebook 003) as
 * docs/rules/galactic.md specifies them for the `galactic` ruleset, one
 * cmocka test per rule.
 *
 * Each test names in its comment the rulebook passage it checks (003
 * "Heading": a few of its words) or, for what the rulebook leaves to
 * Lair, the section of docs/rules/galactic.md. A test starts from a real
 * setup or from a small position built by tests/gal_position.c (a real
 * game whose state is rewritten, then proven by gal_check), and drives
 * the game only through eng_game_answer by option id ("ship.u3",
 * "move.Y2", "end"...); after every answer the state must pass gal_check
 * and every line told must be one whole sentence. What is random (the
 * D10 and D6 of a re-entry, the spinner) is rigged with gp_rig, in the
 * order the engine draws: the D10, the D6 unless a Command Ship guides
 * the explorer in, then the spinner.
 *
 * The board is written out here as the docs draw it, not read from
 * gal_data.c, so that a change of the data shows as a failing test:
 *
 *           B1  B2  B3
 *       R1              P1
 *       R2  Y1  Y2  Y3  P2
 *       R3              P3
 *           G1  G2  G3
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
#include "gal_position.h"
#include "games/galactic/gal.h"
#include "prompt_util.h"

enum { P1 = 0, P2 = 1 }; /* seats; a position's seat 0 is player 1 (Red) */

/* Every sector's neighbours (docs/rules/galactic.md "The board"). */
static const struct {
  const char *id, *near;
} board[GAL_SECTORS] = {
    {"R1", "R2 B1"}, {"R2", "R1 R3 Y1"},    {"R3", "R2 G1"},
    {"B1", "B2 R1"}, {"B2", "B1 B3 Y2"},    {"B3", "B2 P1"},
    {"Y1", "Y2 R2"}, {"Y2", "Y1 Y3 B2 G2"}, {"Y3", "Y2 P2"},
    {"G1", "G2 R3"}, {"G2", "G1 G3 Y2"},    {"G3", "G2 P3"},
    {"P1", "P2 B3"}, {"P2", "P1 P3 Y3"},    {"P3", "P2 G3"},
};

/* ---- helpers --------------------------------------------------------- */

/* Appends " id" (or "id" at the start) to the list buf of cap bytes. */
static void add_id(char *buf, size_t cap, const char *prefix, const char *id,
                   size_t idlen) {
  size_t len = strlen(buf);
  snprintf(buf + len, cap - len, "%s%s%.*s", len ? " " : "", prefix, (int)idlen,
           id);
}

/* The board row of sector id. */
static int row_of(const char *id) {
  for (int k = 0; k < GAL_SECTORS; k++)
    if (strcmp(board[k].id, id) == 0)
      return k;
  fail_msg("no sector '%s' on the test's board", id);
  return -1;
}

/* Whether the test's board says sectors a and b (ids) border. */
static bool borders(const char *a, const char *b) {
  const char *near = board[row_of(a)].near;
  for (const char *at = near; *at;) {
    size_t len = strcspn(at, " ");
    if (len == strlen(b) && strncmp(at, b, len) == 0)
      return true;
    at += len;
    at += strspn(at, " ");
  }
  return false;
}

static bool same_zone(const char *a, const char *b) { return a[0] == b[0]; }

/* Steps from a to b over the test's board. */
static int steps(const char *a, const char *b) {
  int dist[GAL_SECTORS], queue[GAL_SECTORS], head = 0, tail = 0;
  for (int k = 0; k < GAL_SECTORS; k++)
    dist[k] = -1;
  dist[row_of(a)] = 0;
  queue[tail++] = row_of(a);
  while (head < tail) {
    int x = queue[head++];
    for (int y = 0; y < GAL_SECTORS; y++)
      if (dist[y] < 0 && borders(board[x].id, board[y].id)) {
        dist[y] = dist[x] + 1;
        queue[tail++] = y;
      }
  }
  return dist[row_of(b)];
}

/* The id of the sector a unit is in ("deep", "none"). */
static const char *where(const gal_pos *p, int i) {
  int x = p->s->u[i].sector;
  return x < GAL_SECTORS ? gal_sectors[x].id : x == GAL_DEEP ? "deep" : "none";
}

static void expect_in(const gal_pos *p, int i, const char *id) {
  if (!p->s->u[i].alive || strcmp(where(p, i), id) != 0)
    fail_msg("unit %d is %s in %s, expected alive in %s", i,
             p->s->u[i].alive ? "alive" : "dead", where(p, i), id);
}

/* Fails unless the prompt is seat's and offers exactly the options
 * starting with prefix that want lists (space-separated, any order). */
static void expect_set(const gal_pos *p, int seat, const char *prefix,
                       const char *want) {
  int n = 0;
  bool ok = p->g->prompt.player == seat;
  for (const char *at = want; ok && *at;) {
    size_t len = strcspn(at, " ");
    char id[ENG_ID_MAX + 1];
    snprintf(id, sizeof id, "%.*s", (int)len, at);
    ok = gp_offered(p, "%s", id);
    n++;
    at += len;
    at += strspn(at, " ");
  }
  if (!ok || n != gp_count(p, prefix))
    fail_msg("expected seat %d to have exactly '%s' among its '%s' options; "
             "seat %d has '%s'",
             seat, want, prefix, p->g->prompt.player,
             pu_ids(&gal_ruleset, p->s, &p->g->prompt));
}

/* Rigs the next re-entry: a D10 of d10 (1-10), a D6 of d6 (1-6; 0 when
 * a Command Ship guides it in and no D6 is rolled), then slice prize of
 * the spinner. */
static void rig_entry(gal_pos *p, int d10, int d6, int prize) {
  uint32_t below[3], want[3];
  int n = 0;
  below[n] = 10, want[n++] = (uint32_t)(d10 - 1);
  if (d6 > 0)
    below[n] = 6, want[n++] = (uint32_t)(d6 - 1);
  below[n] = 8, want[n++] = (uint32_t)prize;
  gp_rig(p, below, want, n);
}

/* Seat 1 ends its turn, so that seat 0's begins (its start: recharge,
 * mining, re-entry). */
static void next_turn_of_p1(gal_pos *p) {
  gp_turn(p, P2, 2);
  gp_refresh(p);
  gp_answer(p, P2, "end");
}

/* ---- Starting the Game ------------------------------------------------- */

/* 003 "Starting the Game": "Each team starts with a fleet of 10 ships (2
 * of each unit type). These units are placed one at a time in
 * alternating order, starting with player 1. So player 1 places a ship in
 * their zone, then player 2 places a ship in their zone ... Each player
 * starts with 0 minerals." and 003 "Player Starting Zones": "Player 1
 * starting zone is Red and Player 2 starting zone is Purple." Seat 1 is
 * made player 1 here, so the order is seen to follow the player number,
 * not the seat. */
static void test_start_ten_ships_placed_alternately(void **unused) {
  (void)unused;
  eng_config cfg = {.players = 2, .mode = "", .first = 1};
  eng_game *g;
  assert_int_equal(eng_game_new(eng_find("galactic"), &cfg, 5, &g), ENG_OK);
  gal_state *s = g->state;
  assert_int_equal(s->phase, GAL_PH_PLACE);
  assert_int_equal(gal_player_no(s, 1), 1);
  assert_int_equal(gal_player_no(s, 0), 2);
  eng_rng pick;
  eng_rng_seed(&pick, 77, 1);
  for (int k = 0; k < 20; k++) {
    int seat = k % 2 == 0 ? 1 : 0; /* player 1 (seat 1) first */
    assert_int_equal(g->prompt.player, seat);
    assert_int_equal(s->minerals[0] + s->minerals[1], 0);
    char zone = seat == 1 ? 'R' : 'P';
    for (int i = 0; i < g->prompt.n; i++) {
      char id[ENG_ID_MAX + 1], label[ENG_LABEL_MAX + 1];
      eng_game_option(g, i, id, label);
      /* place.TYPE.SECTOR, always in the seat's own starting zone */
      assert_true(strncmp(id, "place.", 6) == 0);
      const char *sec = strrchr(id, '.') + 1;
      if (sec[0] != zone)
        fail_msg("seat %d is offered %s outside its zone", seat, id);
    }
    eng_events ev;
    assert_int_equal(
        eng_game_answer_index(
            g, (int)eng_rng_below(&pick, (uint32_t)g->prompt.n), &ev),
        ENG_OK);
    char msg[256];
    if (gal_check(s, msg, sizeof msg))
      fail_msg("after placement %d: %s", k + 1, msg);
  }
  /* 2 of each type each, on the board in the own zone, 0 minerals */
  for (int seat = 0; seat < 2; seat++) {
    int types[GAL_TYPES] = {0}, n = 0;
    for (int i = 0; i < GAL_UNITS; i++) {
      const gal_unit *u = &s->u[i];
      if (!u->alive || u->owner != seat)
        continue;
      n++;
      types[u->type]++;
      assert_true(u->sector < GAL_SECTORS);
      assert_int_equal(gal_sectors[u->sector].zone,
                       gal_start_zone(gal_player_no(s, seat)));
      assert_int_equal(u->shields, gal_types[u->type].shields);
      assert_int_equal(u->hull, gal_types[u->type].hull);
    }
    assert_int_equal(n, 10);
    for (int t = 0; t < GAL_TYPES; t++)
      assert_int_equal(types[t], 2);
    assert_int_equal(s->minerals[seat], 0);
    assert_int_equal(s->dark[seat], 0);
  }
  assert_int_equal(gal_zones[gal_start_zone(1)].name[0], 'R');
  assert_int_equal(gal_zones[gal_start_zone(2)].name[0], 'P');
  /* then player 1's first turn of play */
  assert_int_equal(s->phase, GAL_PH_ACT);
  assert_int_equal(g->prompt.player, 1);
  assert_int_equal(s->roll[0] + s->roll[1], 0); /* no roll-off was made */
  eng_game_free(g);
}

/* 003 "Starting the Game": "roll the 10 sided die (D10) that came with
 * the game. The player to get the highest roll (0 counts as a 10) is
 * player 1." Lair rolls it whenever no first player is configured, and
 * rolls equal dice again (docs/rules/galactic.md "Setup"). A roll is
 * kept as 1-10, 10 being the die's 0. */
static void test_start_d10_roll_off(void **unused) {
  (void)unused;
  bool saw_ten = false, saw_tie = false;
  for (uint64_t seed = 1; seed <= 400; seed++) {
    eng_config cfg = {.players = 2, .mode = "", .first = -1};
    eng_game *g;
    assert_int_equal(eng_game_new(eng_find("galactic"), &cfg, seed, &g),
                     ENG_OK);
    const gal_state *s = g->state;
    assert_true(s->roll[0] >= 1 && s->roll[0] <= 10);
    assert_true(s->roll[1] >= 1 && s->roll[1] <= 10);
    assert_int_not_equal(s->roll[0], s->roll[1]);
    int higher = s->roll[0] > s->roll[1] ? 0 : 1;
    assert_int_equal(s->first, higher);
    assert_int_equal(gal_player_no(s, higher), 1);
    assert_int_equal(g->prompt.player, higher); /* player 1 places first */
    if (s->roll[higher] == 10)
      saw_ten = true; /* a 0 on the die beats every other roll */
    /* the game's own generator: the first pair it draws */
    eng_rng r;
    eng_rng_seed(&r, seed, 0);
    uint32_t a = eng_rng_below(&r, 10) + 1, b = eng_rng_below(&r, 10) + 1;
    if (a == b) {
      saw_tie = true; /* rolled again: the kept pair is the next one */
      uint32_t c = eng_rng_below(&r, 10) + 1, d = eng_rng_below(&r, 10) + 1;
      if (c != d) {
        assert_int_equal(s->roll[0], c);
        assert_int_equal(s->roll[1], d);
      }
    } else {
      assert_int_equal(s->roll[0], a);
      assert_int_equal(s->roll[1], b);
    }
    /* the view shows the rolls */
    json_t *v = gal_ruleset.view(g->state, -1);
    json_t *pl = json_object_get(v, "players");
    assert_int_equal(
        json_integer_value(json_object_get(json_array_get(pl, 0), "roll")),
        s->roll[0]);
    json_decref(v);
    eng_game_free(g);
  }
  assert_true(saw_ten);
  assert_true(saw_tie);
}

/* ---- Sector Capacity ----------------------------------------------------- */

/* 003 "Sector Capacity": "If a sector is at maximum capacity a ship may
 * not willingly move into that sector. The only ship that does not count
 * towards sector capacity is the Miner Ship ... Every sector has a
 * maximum capacity of 3 ships." */
static void test_capacity_move_refused_into_a_full_sector(void **unused) {
  (void)unused;
  gal_pos p;
  gp_new(&p, 1);
  int r = gp_unit(&p, P1, GAL_RAIDER, "Y1");
  int m = gp_unit(&p, P1, GAL_MINER, "Y1");
  /* Y2 full: three ships of both sides and two miners besides */
  gp_unit(&p, P2, GAL_RAIDER, "Y2");
  gp_unit(&p, P2, GAL_DESTROYER, "Y2");
  gp_unit(&p, P1, GAL_COMMAND, "Y2");
  gp_unit(&p, P2, GAL_MINER, "Y2");
  gp_unit(&p, P1, GAL_MINER, "Y2");
  /* R2: two ships and three miners, not full */
  gp_unit(&p, P2, GAL_RAIDER, "R2");
  gp_unit(&p, P2, GAL_RAIDER, "R2");
  for (int k = 0; k < 3; k++)
    gp_unit(&p, P2, GAL_MINER, "R2");
  gp_refresh(&p);
  assert_int_equal(gal_crowd(p.s, gp_sector("Y2")), 3);
  assert_int_equal(gal_crowd(p.s, gp_sector("R2")), 2);
  gp_answer(&p, P1, "ship.u%d", r);
  expect_set(&p, P1, "move.", "move.R2"); /* not Y2 */
  gp_answer(&p, P1, "done");
  gp_answer(&p, P1, "ship.u%d", m);
  expect_set(&p, P1, "move.", "move.R2 move.Y2"); /* a miner fits */
  gp_answer(&p, P1, "move.Y2");
  expect_in(&p, m, "Y2");
  gp_free(&p);
}

/* 003 "Player Starting Zones": "Whenever a player builds a unit it
 * appears in a sector (chosen by the player, as long as that sector is
 * not full) in the players starting zone." and 003 "Sector Capacity":
 * miners do not count. */
static void test_capacity_build_refused_into_a_full_sector(void **unused) {
  (void)unused;
  gal_pos p;
  gp_new(&p, 1);
  for (int k = 0; k < 3; k++)
    gp_unit(&p, P1, GAL_RAIDER, "R1");
  gp_unit(&p, P1, GAL_MINER, "R2");
  gp_unit(&p, P2, GAL_MINER, "P1");
  gp_funds(&p, P1, 40, 0);
  gp_refresh(&p);
  expect_set(&p, P1, "build.raider.", "build.raider.R2 build.raider.R3");
  expect_set(&p, P1, "build.command.", "build.command.R2 build.command.R3");
  expect_set(&p, P1, "build.miner.",
             "build.miner.R1 build.miner.R2 build.miner.R3");
  /* nowhere but the starting zone */
  assert_int_equal(gp_count(&p, "build.") - gp_count(&p, "build.miner."),
                   4 * 2);
  gp_free(&p);
}

/* 003 "Starting the Game" with 003 "Sector Capacity": the placement is
 * refused in a full sector too; miners still fit. */
static void test_capacity_placement_refused_into_a_full_sector(void **unused) {
  (void)unused;
  eng_config cfg = {.players = 2, .mode = "", .first = 0};
  eng_game *g;
  assert_int_equal(eng_game_new(eng_find("galactic"), &cfg, 3, &g), ENG_OK);
  eng_events ev;
  const char *mine[] = {"place.raider.R1", "place.destroyer.R1",
                        "place.command.R1"};
  const char *theirs[] = {"place.raider.P1", "place.raider.P2",
                          "place.miner.P3"};
  for (int k = 0; k < 3; k++) {
    assert_int_equal(eng_game_answer(g, 0, mine[k], &ev), ENG_OK);
    assert_int_equal(eng_game_answer(g, 1, theirs[k], &ev), ENG_OK);
  }
  assert_int_equal(g->prompt.player, 0);
  assert_true(eng_game_find_option(g, "place.raider.R1") < 0);
  assert_true(eng_game_find_option(g, "place.explorer.R1") < 0);
  assert_true(eng_game_find_option(g, "place.command.R1") < 0);
  assert_true(eng_game_find_option(g, "place.raider.R2") >= 0);
  assert_true(eng_game_find_option(g, "place.miner.R1") >= 0);
  assert_int_equal(eng_game_answer(g, 0, "place.command.R1", &ev),
                   ENG_BAD_OPTION);
  eng_game_free(g);
}

/* ---- Team Size ----------------------------------------------------------- */

/* 003 "Team Size": "Each team has a maximum size of 25 units. Each player
 * may only have up to 5 of each type of unit except for the Miner Ship. A
 * player may have up to 15 Miner Ships." The limits count every unit,
 * the explorers in deep space included: building beyond them is not
 * offered. */
static void test_team_size_limits(void **unused) {
  (void)unused;
  gal_pos p;
  gp_new(&p, 1);
  const char *far[] = {"B1", "B2", "B3", "Y1", "Y2"};
  for (int k = 0; k < 5; k++)
    gp_unit(&p, P1, GAL_RAIDER, far[k]);
  gp_unit(&p, P2, GAL_MINER, "P1");
  gp_funds(&p, P1, 100, 0);
  gp_refresh(&p);
  assert_int_equal(gp_count(&p, "build.raider."), 0); /* 5 Raiders */
  assert_int_equal(gp_count(&p, "build.command."), 3);
  gp_free(&p);

  gp_new(&p, 1);
  for (int k = 0; k < 15; k++)
    gp_unit(&p, P1, GAL_MINER, gal_sectors[k].id);
  gp_unit(&p, P2, GAL_MINER, "P1");
  gp_funds(&p, P1, 100, 0);
  gp_refresh(&p);
  assert_int_equal(gp_count(&p, "build.miner."), 0); /* 15 Miners */
  assert_int_equal(gp_count(&p, "build.raider."), 3);
  gp_free(&p);

  /* 25 units: 15 miners, 4 raiders, 5 destroyers and an explorer in deep
   * space; nothing may be built, not even a fifth Raider */
  gp_new(&p, 1);
  for (int k = 0; k < 15; k++)
    gp_unit(&p, P1, GAL_MINER, gal_sectors[k].id);
  const char *spots[] = {"B1", "B2", "B3", "Y1", "Y2", "Y3", "G1", "G2", "G3"};
  for (int k = 0; k < 4; k++)
    gp_unit(&p, P1, GAL_RAIDER, spots[k]);
  for (int k = 4; k < 9; k++)
    gp_unit(&p, P1, GAL_DESTROYER, spots[k]);
  gp_unit(&p, P1, GAL_EXPLORER, "deep");
  gp_unit(&p, P2, GAL_MINER, "P1");
  gp_funds(&p, P1, 100, 0);
  gp_refresh(&p);
  assert_int_equal(gp_count(&p, "build."), 0);
  gp_free(&p);

  /* 24: the 25th is offered */
  gp_new(&p, 1);
  for (int k = 0; k < 15; k++)
    gp_unit(&p, P1, GAL_MINER, gal_sectors[k].id);
  for (int k = 0; k < 4; k++)
    gp_unit(&p, P1, GAL_RAIDER, spots[k]);
  for (int k = 4; k < 9; k++)
    gp_unit(&p, P1, GAL_DESTROYER, spots[k]);
  gp_unit(&p, P2, GAL_MINER, "P1");
  gp_funds(&p, P1, 100, 0);
  gp_refresh(&p);
  assert_int_equal(gp_count(&p, "build.raider."), 3);
  assert_int_equal(gp_count(&p, "build.destroyer."), 0);
  gp_answer(&p, P1, "build.raider.R1");
  assert_int_equal(gp_count(&p, "build."), 0);
  gp_free(&p);
}

/* ---- Movement ---------------------------------------------------------- */

/* 003 "Movement": "Units may move from one sector to another." and 003
 * "Zones and Sectors": "A zone ... consists of 3 sectors"; the board is
 * Lair's (docs/rules/galactic.md "The board"): a ship moves to exactly
 * the sectors bordering its own. */
static void test_movement_adjacency_table(void **unused) {
  (void)unused;
  for (int k = 0; k < GAL_SECTORS; k++) {
    const char *x = board[k].id;
    assert_string_equal(gal_sectors[k].id, x);
    for (int y = 0; y < GAL_SECTORS; y++) {
      bool want = borders(x, board[y].id);
      assert_int_equal(gal_adjacent(k, y), want);
      assert_int_equal(borders(board[y].id, x), want); /* symmetric */
    }
    gal_pos p;
    gp_new(&p, 1);
    int r = gp_unit(&p, P1, GAL_RAIDER, x);
    gp_unit(&p, P2, GAL_MINER, strcmp(x, "G3") ? "G3" : "G1");
    gp_refresh(&p);
    gp_answer(&p, P1, "ship.u%d", r);
    char want[64] = "";
    for (const char *at = board[k].near; *at;) {
      size_t len = strcspn(at, " ");
      add_id(want, sizeof want, "move.", at, len);
      at += len;
      at += strspn(at, " ");
    }
    expect_set(&p, P1, "move.", want);
    gp_free(&p);
  }
  /* five zones of three sectors */
  for (int z = 0; z < GAL_ZONES; z++) {
    int n = 0;
    for (int k = 0; k < GAL_SECTORS; k++)
      n += gal_sectors[k].zone == z;
    assert_int_equal(n, 3);
  }
}

/* 003 "Movement (AP)": "Each movement that is taken requires 1 AP." and
 * 003 "Action Points": "A player may have a ship take action as long as
 * that ship has enough action points left that turn". */
static void test_movement_costs_one_ap(void **unused) {
  (void)unused;
  gal_pos p;
  gp_new(&p, 1);
  int r = gp_unit(&p, P1, GAL_RAIDER, "R1");
  gp_unit(&p, P2, GAL_MINER, "P3");
  gp_refresh(&p);
  assert_int_equal(gal_types[GAL_RAIDER].ap, 4);
  gp_answer(&p, P1, "ship.u%d", r);
  const char *path[] = {"B1", "B2", "Y2", "Y3"};
  for (int k = 0; k < 4; k++) {
    gp_answer(&p, P1, "move.%s", path[k]);
    gp_expect_told(&p, "moves from");
    assert_int_equal(p.s->u[r].ap, 3 - k);
  }
  expect_in(&p, r, "Y3");
  /* its AP are spent: its actions are over, it is offered no more */
  gp_expect_told(&p, "actions are over");
  assert_int_equal(p.s->phase, GAL_PH_ACT);
  assert_false(gp_offered(&p, "ship.u%d", r));
  gp_free(&p);
}

/* ---- Range ------------------------------------------------------------- */

/* Whether the rulebook's range of type reaches from sector x to y (ids),
 * worded as the Ship Specifications word it. */
static bool rule_range(int type, const char *x, const char *y) {
  switch (type) {
  case GAL_RAIDER: /* "only ... in the same sector as themselves" */
    return strcmp(x, y) == 0;
  case GAL_COMMAND: /* "in their own or any adjacent sector" */
    return strcmp(x, y) == 0 || borders(x, y);
  case GAL_EXPLORER: /* "anything in the same zone as itself" */
    return same_zone(x, y);
  case GAL_DESTROYER: /* "zones adjacent to its sector", "not ... own zone" */
    if (same_zone(x, y))
      return false;
    for (int k = 0; k < GAL_SECTORS; k++)
      if (same_zone(board[k].id, y) && borders(x, board[k].id))
        return true;
    return false;
  default: /* the miner "may not attack any other ships" */
    return false;
  }
}

/* For each sector, a ship of type there with an enemy miner in every
 * sector: the attacks offered are exactly the rulebook's range. */
static void check_range(int type) {
  for (int k = 0; k < GAL_SECTORS; k++) {
    gal_pos p;
    gp_new(&p, 1);
    int a = gp_unit(&p, P1, type, board[k].id);
    int target[GAL_SECTORS];
    for (int y = 0; y < GAL_SECTORS; y++)
      target[y] = gp_unit(&p, P2, GAL_MINER, board[y].id);
    gp_refresh(&p);
    gp_answer(&p, P1, "ship.u%d", a);
    int want = 0;
    for (int y = 0; y < GAL_SECTORS; y++) {
      bool in = rule_range(type, board[k].id, board[y].id);
      want += in;
      if (gp_offered(&p, "attack.u%d", target[y]) != in)
        fail_msg("a %s in %s %s attack a ship in %s", gal_types[type].name,
                 board[k].id, in ? "may" : "may not", board[y].id);
      assert_int_equal(gal_in_range(p.s, a, target[y]), in);
    }
    assert_int_equal(gp_count(&p, "attack."), want);
    gp_free(&p);
  }
}

/* 003 "Ship Model: Raider Ship": "Raiders may only attack ships that are
 * in the same sector as themselves." */
static void test_range_raider_same_sector(void **unused) {
  (void)unused;
  check_range(GAL_RAIDER);
}

/* 003 "Ship Model: Command Ship": "Command Ships may attack units in
 * their own or any adjacent sector." */
static void test_range_command_own_or_adjacent_sector(void **unused) {
  (void)unused;
  check_range(GAL_COMMAND);
}

/* 003 "Ship Model: Deep Space Explorer": "Explorers may shoot at anything
 * in the same zone as itself." */
static void test_range_explorer_same_zone(void **unused) {
  (void)unused;
  check_range(GAL_EXPLORER);
}

/* 003 "Ship Model: Long Range Destroyer": "The Destroyer may attack units
 * located in zones adjacent to its sector. Destroyers may not attack
 * units in their own zone." Two cases spelt out: from R2 (bordering Y1)
 * only Yellow; from Y2 (bordering B2 and G2) Blue and Green, not Red,
 * Purple or Yellow. */
static void test_range_destroyer_adjacent_zones_not_its_own(void **unused) {
  (void)unused;
  check_range(GAL_DESTROYER);
  assert_true(rule_range(GAL_DESTROYER, "R2", "Y3"));
  assert_false(rule_range(GAL_DESTROYER, "R2", "R1"));
  assert_false(rule_range(GAL_DESTROYER, "R2", "B1"));
  assert_true(rule_range(GAL_DESTROYER, "Y2", "B1"));
  assert_true(rule_range(GAL_DESTROYER, "Y2", "G3"));
  assert_false(rule_range(GAL_DESTROYER, "Y2", "Y1"));
  assert_false(rule_range(GAL_DESTROYER, "Y2", "P2"));
}

/* 003 "Ship Model: Miner Ship": "The miner ship is not armed and may not
 * attack any other ships." */
static void test_range_miner_cannot_attack(void **unused) {
  (void)unused;
  check_range(GAL_MINER);
  assert_int_equal(gal_types[GAL_MINER].damage, 0);
}

/* ---- Combat ------------------------------------------------------------- */

/* 003 "Weapon Damage": "The damage is first applied to a ships shields
 * and, if the ships shields are down (depleted), the damage is applied to
 * the ships hull." and 003 "Attacks (AP)": "Each attack requires 1 AP."
 * Damage beyond the shields left goes on to the hull in the same hit
 * (docs/rules/galactic.md "Combat"). */
static void test_combat_shields_first_then_hull(void **unused) {
  (void)unused;
  gal_pos p;
  gp_new(&p, 1);
  int c = gp_unit(&p, P1, GAL_COMMAND, "Y1");   /* 2 damage, 3 AP */
  int d = gp_unit(&p, P2, GAL_DESTROYER, "Y2"); /* shields 2, hull 4 */
  int e = gp_unit(&p, P2, GAL_EXPLORER, "Y1");  /* shields 2, hull 3 */
  gp_refresh(&p);
  assert_int_equal(p.s->u[d].shields, 2);
  gp_answer(&p, P1, "ship.u%d", c);
  gp_answer(&p, P1, "attack.u%d", d);
  assert_int_equal(p.s->u[c].ap, 2);
  assert_int_equal(p.s->u[d].shields, 0); /* the shields took it all */
  assert_int_equal(p.s->u[d].hull, 4);
  gp_expect_told(&p, "shields 0/2, hull 4/4");
  gp_answer(&p, P1, "attack.u%d", d);
  assert_int_equal(p.s->u[d].hull, 2); /* shields down: the hull */
  gp_expect_told(&p, "shields 0/2, hull 2/4");
  /* overflow: 1 shield left, 2 damage: 1 to the shield, 1 to the hull */
  gp_set(&p, e, 1, 3, gal_types[GAL_EXPLORER].ap);
  gp_refresh(&p);
  gp_answer(&p, P1, "attack.u%d", e);
  assert_int_equal(p.s->u[e].shields, 0);
  assert_int_equal(p.s->u[e].hull, 2);
  gp_free(&p);
}

/* 003 "Hull Strength": "Once a ships Hull Strength has been depleted the
 * ship is destroyed and removed from the board and the players current
 * fleet." */
static void test_combat_hull_zero_destroys(void **unused) {
  (void)unused;
  gal_pos p;
  gp_new(&p, 1);
  int r = gp_unit(&p, P1, GAL_RAIDER, "Y2");
  int t = gp_unit(&p, P2, GAL_RAIDER, "Y2");
  gp_unit(&p, P2, GAL_MINER, "P1");
  gp_set(&p, t, 0, 2, 4); /* exactly 2 hull left: a 2-damage hit ends it */
  gp_refresh(&p);
  gp_answer(&p, P1, "ship.u%d", r);
  gp_answer(&p, P1, "attack.u%d", t);
  assert_false(p.s->u[t].alive);
  gp_expect_told(&p, "its hull breaks");
  gp_expect_told(&p, "is destroyed");
  assert_int_equal(gal_crowd(p.s, gp_sector("Y2")), 1);
  assert_int_equal(gal_on_board(p.s, P2), 1);
  /* no target left for it */
  assert_false(gp_offered(&p, "attack.u%d", t));
  gp_free(&p);
}

/* 003 "Recharging Shields": "At the beginning of a players turn (the
 * active player) all of that players units gain one shield, up to their
 * maximum shield size." and 003 "Weapon Damage": "Shields recharge for a
 * value of 1 each turn while Hulls do not regain strength." Not while a
 * charge holds them down (003 "Long Range Destroyer": "must power down
 * its shields"); an explorer in deep space is one of "all of that
 * players units" too. */
static void test_shields_recharge_hull_never(void **unused) {
  (void)unused;
  gal_pos p;
  gp_new(&p, 1);
  int c = gp_unit(&p, P1, GAL_COMMAND, "R1");      /* max 3 */
  int r = gp_unit(&p, P1, GAL_RAIDER, "R2");       /* max 1 */
  int full = gp_unit(&p, P1, GAL_DESTROYER, "R3"); /* max 2 */
  int ch = gp_unit(&p, P1, GAL_DESTROYER, "Y1");
  int e = gp_unit(&p, P1, GAL_EXPLORER, "deep");
  int foe = gp_unit(&p, P2, GAL_RAIDER, "P1");
  gp_set(&p, c, 0, 2, 3);
  gp_set(&p, r, 0, 1, 4);
  gp_set(&p, e, 0, 3, 3);
  gp_set(&p, foe, 0, 3, 4);
  gp_set(&p, ch, 0, 4, 2);
  p.s->u[ch].charge = GAL_CH_SHOT;
  p.s->u[ch].aim = (uint8_t)gp_sector("R2");
  p.s->u[ch].charged = 21;
  rig_entry(&p, 5, 1, 0); /* the explorer comes back to Y1, finds nothing */
  next_turn_of_p1(&p);
  assert_int_equal(p.s->active, P1);
  gp_expect_told(&p, "recharge their shields");
  assert_int_equal(p.s->u[c].shields, 1); /* one, not all three */
  assert_int_equal(p.s->u[c].hull, 2);    /* never the hull */
  assert_int_equal(p.s->u[r].shields, 1);
  assert_int_equal(p.s->u[r].hull, 1);
  assert_int_equal(p.s->u[full].shields, 2); /* not beyond the maximum */
  assert_int_equal(p.s->u[ch].shields, 0);   /* charging: down */
  assert_int_equal(p.s->u[e].shields, 1);    /* recharged in deep space */
  assert_int_equal(p.s->u[foe].shields, 0);  /* not the other player's */
  /* the next turn of the same player: one more */
  gp_answer(&p, P1, "end");
  gp_answer(&p, P2, "end");
  assert_int_equal(p.s->u[c].shields, 2);
  assert_int_equal(p.s->u[c].hull, 2);
  assert_int_equal(p.s->u[foe].shields, 1); /* its own turn came between */
  gp_free(&p);
}

/* ---- Spending Action Points ------------------------------------------- */

/* 003 "Spending Action Points": "may not use an action point from one
 * ship, then use another ship, then use a second action point from the
 * original ship. All actions taken by a ship must be performed at once."
 */
static void test_actions_of_a_ship_taken_together(void **unused) {
  (void)unused;
  gal_pos p;
  gp_new(&p, 1);
  int a = gp_unit(&p, P1, GAL_RAIDER, "Y1");
  int b = gp_unit(&p, P1, GAL_RAIDER, "Y1");
  gp_unit(&p, P2, GAL_MINER, "P3");
  gp_refresh(&p);
  gp_answer(&p, P1, "ship.u%d", a);
  /* while a acts, no other ship is offered */
  assert_int_equal(gp_count(&p, "ship."), 0);
  assert_int_equal(gp_count(&p, "build."), 0);
  gp_answer(&p, P1, "move.Y2");
  assert_int_equal(p.s->u[a].ap, 3);
  gp_answer(&p, P1, "done");
  gp_expect_told(&p, "actions are over");
  gp_answer(&p, P1, "ship.u%d", b);
  gp_answer(&p, P1, "move.R2");
  gp_answer(&p, P1, "done");
  /* a still has 3 AP, but its turn of actions is over */
  assert_int_equal(p.s->u[a].ap, 3);
  assert_false(gp_offered(&p, "ship.u%d", a));
  assert_false(gp_offered(&p, "ship.u%d", b));
  expect_set(&p, P1, "ship.", "");
  /* its next turn it acts again */
  gp_answer(&p, P1, "end");
  gp_answer(&p, P2, "end");
  assert_true(gp_offered(&p, "ship.u%d", a));
  assert_int_equal(p.s->u[a].ap, 4);
  gp_free(&p);
}

/* ---- Building Units --------------------------------------------------- */

/* 003 "Building Units": "A unit may spend action points the turn it
 * comes into play." */
static void test_build_acts_the_same_turn(void **unused) {
  (void)unused;
  gal_pos p;
  gp_new(&p, 1);
  gp_unit(&p, P1, GAL_MINER, "R3");
  gp_unit(&p, P2, GAL_MINER, "P3");
  gp_funds(&p, P1, gal_types[GAL_RAIDER].cost, 0);
  gp_refresh(&p);
  gp_answer(&p, P1, "build.raider.R1");
  gp_expect_told(&p, "builds Raider 1 in R1");
  int n = -1;
  for (int k = 0; k < GAL_UNITS; k++)
    if (p.s->u[k].alive && p.s->u[k].type == GAL_RAIDER)
      n = k;
  assert_true(n >= 0);
  assert_int_equal(p.s->u[n].ap, gal_types[GAL_RAIDER].ap);
  gp_answer(&p, P1, "ship.u%d", n);
  gp_answer(&p, P1, "move.B1");
  expect_in(&p, n, "B1");
  gp_free(&p);
}

/* 003 "Building Units": "When a unit is built the player needs to
 * subtract the amount of minerals required ... Players may not go into
 * negative minerals owned, if a player does not have enough minerals to
 * buy a ship and stay positive, then that player cannot build that
 * ship." Spending down to exactly 0 is allowed. */
static void test_build_needs_enough_minerals(void **unused) {
  (void)unused;
  gal_pos p;
  gp_new(&p, 1);
  gp_unit(&p, P1, GAL_MINER, "R3");
  gp_unit(&p, P2, GAL_MINER, "P3");
  gp_funds(&p, P1, gal_types[GAL_RAIDER].cost - 1, 0);
  gp_refresh(&p);
  for (int t = 0; t < GAL_TYPES; t++) {
    int offered = 0;
    char prefix[32];
    snprintf(prefix, sizeof prefix, "build.%s.", gal_types[t].id);
    offered = gp_count(&p, prefix);
    assert_int_equal(offered > 0,
                     gal_types[t].cost <= gal_types[GAL_RAIDER].cost - 1);
  }
  gp_funds(&p, P1, gal_types[GAL_RAIDER].cost, 0);
  gp_refresh(&p);
  gp_answer(&p, P1, "build.raider.R2");
  assert_int_equal(p.s->minerals[P1], 0);
  assert_int_equal(p.s->spent[P1], gal_types[GAL_RAIDER].cost);
  assert_int_equal(gp_count(&p, "build."), 0); /* nothing costs 0 */
  gp_free(&p);
}

/* ---- Mining ------------------------------------------------------------- */

/* 003 "Ship Model: Miner Ship": "The miner ship may attach itself to a
 * planet for 1 AP. Allowing it to gather resources during the beginning
 * of each of its controllers turns." and 003 "Gather Resources": "After
 * shields are recharged the active player collects resources from all of
 * their attached Miner ships." */
static void test_mining_attach_then_gather(void **unused) {
  (void)unused;
  gal_pos p;
  gp_new(&p, 1);
  int m = gp_unit(&p, P1, GAL_MINER, "Y2");
  gp_set(&p, gp_unit(&p, P1, GAL_RAIDER, "R1"), 0, 3, 4); /* to recharge */
  gp_unit(&p, P2, GAL_RAIDER, "P1");
  gp_refresh(&p);
  gp_answer(&p, P1, "ship.u%d", m);
  gp_answer(&p, P1, "attach");
  gp_expect_told(&p, "attaches to the planet of Y2");
  assert_true(p.s->u[m].attached);
  assert_int_equal(p.s->u[m].ap, gal_types[GAL_MINER].ap - 1);
  assert_false(gp_offered(&p, "attach")); /* attached already */
  gp_answer(&p, P1, "done");
  assert_int_equal(p.s->minerals[P1], 0); /* nothing yet this turn */
  gp_answer(&p, P1, "end");
  assert_int_equal(p.s->minerals[P1], 0); /* not at the other's turn */
  gp_answer(&p, P2, "end");
  assert_int_equal(p.s->minerals[P1], 3);
  assert_int_equal(p.s->gathered[P1], 3);
  /* recharge first, then the gathering */
  int rech = gp_expect_told(&p, "recharge"), got = gp_expect_told(&p, "gather");
  assert_true(rech < got);
  gp_expect_told(&p, "gather 3 minerals (3 now)");
  gp_answer(&p, P1, "end");
  gp_answer(&p, P2, "end");
  assert_int_equal(p.s->minerals[P1], 6); /* each of its turns */
  gp_free(&p);
}

/* Seat 0's minerals gathered at the start of its turn with n0 of its own
 * and n1 of the other's miners attached to Y2. */
static int gathered_with(int n0, int n1) {
  gal_pos p;
  gp_new(&p, 1);
  gp_unit(&p, P1, GAL_RAIDER, "R1");
  gp_unit(&p, P2, GAL_RAIDER, "P1");
  for (int k = 0; k < n0 + n1; k++)
    p.s->u[gp_unit(&p, k < n0 ? P1 : P2, GAL_MINER, "Y2")].attached = 1;
  next_turn_of_p1(&p);
  int got = p.s->minerals[P1];
  gp_free(&p);
  return got;
}

/* 003 "Ship Model: Miner Ship": "The amount of resources gathered is
 * listed on the unit list above and depends on the number of ships
 * attached to a planet." Lair's list (docs/rules/galactic.md "Costs and
 * yields"): 3 for a miner alone on its planet, 2 each for two, 1 each
 * for three or more, whoever owns the others. */
static void test_mining_yield_by_miners_sharing_a_planet(void **unused) {
  (void)unused;
  assert_int_equal(gal_yield(1), 3);
  assert_int_equal(gal_yield(2), 2);
  assert_int_equal(gal_yield(3), 1);
  assert_int_equal(gathered_with(1, 0), 3);
  assert_int_equal(gathered_with(2, 0), 4);
  assert_int_equal(gathered_with(1, 1), 2); /* an enemy miner shares it */
  assert_int_equal(gathered_with(3, 0), 3);
  assert_int_equal(gathered_with(2, 2), 2);
  assert_int_equal(gathered_with(5, 0), 5);
}

/* Lair's reading of "attach itself to a planet" (docs/rules/galactic.md
 * "Mining"): the planet is its sector's; a miner that moves leaves it and
 * gathers nothing until it attaches again. */
static void test_mining_moving_detaches(void **unused) {
  (void)unused;
  gal_pos p;
  gp_new(&p, 1);
  int m = gp_unit(&p, P1, GAL_MINER, "Y2");
  p.s->u[m].attached = 1;
  gp_unit(&p, P2, GAL_RAIDER, "P1");
  gp_refresh(&p);
  gp_answer(&p, P1, "ship.u%d", m);
  gp_answer(&p, P1, "move.Y1");
  assert_false(p.s->u[m].attached);
  gp_answer(&p, P1, "move.Y2"); /* back: still not attached */
  assert_false(p.s->u[m].attached);
  gp_answer(&p, P1, "end");
  gp_answer(&p, P2, "end");
  assert_int_equal(p.s->minerals[P1], 0);
  assert_int_equal(gp_told(&p, "gather"), -1);
  gp_free(&p);
}

/* ---- Deep Space Explorer ------------------------------------------------ */

/* 003 "Ship Model: Deep Space Explorer": "Explorers may warp into Deep
 * Space. This takes 1 AP. When this happens the Explorer is removed from
 * the board and placed in the Deep Space Zone", and 003 "Spending Action
 * Points": "If a player does not have enough minerals to perform a
 * special action, then that action cannot be performed." The warp's 2
 * minerals are Lair's (docs/rules/galactic.md "Costs and yields"). */
static void test_warp_costs_ap_and_minerals(void **unused) {
  (void)unused;
  gal_pos p;
  gp_new(&p, 1);
  int e = gp_unit(&p, P1, GAL_EXPLORER, "Y1");
  gp_unit(&p, P1, GAL_MINER, "R1");
  gp_unit(&p, P2, GAL_RAIDER, "P1");
  gp_funds(&p, P1, GAL_WARP_COST - 1, 0);
  gp_refresh(&p);
  gp_answer(&p, P1, "ship.u%d", e);
  assert_false(gp_offered(&p, "warp"));
  gp_answer(&p, P1, "done");
  gp_free(&p);

  gp_new(&p, 1);
  e = gp_unit(&p, P1, GAL_EXPLORER, "Y1");
  gp_unit(&p, P1, GAL_MINER, "R1");
  gp_unit(&p, P2, GAL_RAIDER, "P1");
  gp_funds(&p, P1, GAL_WARP_COST, 0);
  gp_refresh(&p);
  gp_answer(&p, P1, "ship.u%d", e);
  gp_answer(&p, P1, "warp");
  gp_expect_told(&p, "warps from Y1 into deep space");
  expect_in(&p, e, "deep");
  assert_int_equal(p.s->u[e].ap, gal_types[GAL_EXPLORER].ap - 1);
  assert_int_equal(p.s->minerals[P1], 0);
  assert_int_equal(gal_on_board(p.s, P1), 1); /* the miner only */
  assert_false(gp_offered(&p, "ship.u%d", e));
  /* not back at the other player's turn */
  gp_answer(&p, P1, "end");
  expect_in(&p, e, "deep");
  gp_free(&p);
}

/* 003 "Ship Model: Deep Space Explorer": "The next turn the deep space
 * explorer will show up in a random zone, in a random sector ... A D10 is
 * rolled (divided by 2) to determine which zone to arrive in, and a D6 is
 * rolled (divided by 2) to determine which Sector." and 003 "Explorer
 * Ship Return Warping": "Next any Active Player Explorer ships warp back
 * onto the board". Halves round up; the zones are numbered Red 1, Blue
 * 2, Yellow 3, Green 4, Purple 5 and a zone's sectors 1-3
 * (docs/rules/galactic.md "Deep space"). Every D10 and D6 is tried. */
static void test_warp_return_by_d10_and_d6(void **unused) {
  (void)unused;
  const char zones[] = "RBYGP";
  for (int d10 = 1; d10 <= 10; d10++)
    for (int d6 = 1; d6 <= 6; d6++) {
      gal_pos p;
      gp_new(&p, 1);
      int e = gp_unit(&p, P1, GAL_EXPLORER, "deep");
      gp_unit(&p, P1, GAL_MINER, "R1");
      gp_unit(&p, P2, GAL_MINER, "P3");
      rig_entry(&p, d10, d6, 0);
      next_turn_of_p1(&p);
      char want[4];
      snprintf(want, sizeof want, "%c%d", zones[(d10 + 1) / 2 - 1],
               (d6 + 1) / 2);
      expect_in(&p, e, want);
      assert_int_equal(p.s->dice[0], d10);
      assert_int_equal(p.s->dice[1], d6);
      char line[64];
      snprintf(line, sizeof line, "the D10 shows %d and the D6 %d", d10 % 10,
               d6);
      gp_expect_told(&p, line);
      /* the turn begins (recharge, gathering), then the return */
      int back = gp_expect_told(&p, "returns from deep space");
      assert_true(gp_expect_told(&p, "turn begins") < back);
      gp_expect_told(&p, "The spinner");
      /* it acts this very turn */
      assert_true(gp_offered(&p, "ship.u%d", e));
      gp_free(&p);
    }
}

/* 003 "Ship Model: Deep Space Explorer": "If an ally Command Ship is in
 * the zone where the Explorer is going to appear, then the Explorer may
 * appear in whatever sector they want to instead of rolling the D6". */
static void test_warp_return_beside_a_command_ship(void **unused) {
  (void)unused;
  gal_pos p;
  gp_new(&p, 1);
  int e = gp_unit(&p, P1, GAL_EXPLORER, "deep");
  gp_unit(&p, P1, GAL_COMMAND, "G2");
  gp_unit(&p, P2, GAL_MINER, "P3");
  rig_entry(&p, 7, 0, 5); /* Green; no D6; Dark Matter */
  next_turn_of_p1(&p);
  gp_expect_told(&p, "its Command Ship guides it in");
  assert_int_equal(p.s->phase, GAL_PH_ENTRY);
  expect_set(&p, P1, "land.", "land.G1 land.G2 land.G3");
  assert_int_equal(p.s->dice[1], 0); /* no D6 */
  gp_answer(&p, P1, "land.G3");
  expect_in(&p, e, "G3");
  assert_int_equal(p.s->dark[P1], 1);
  gp_expect_told(&p, "gains 1 Dark Matter");
  gp_free(&p);

  /* an enemy Command Ship does not guide it: the D6 decides */
  gp_new(&p, 1);
  e = gp_unit(&p, P1, GAL_EXPLORER, "deep");
  gp_unit(&p, P1, GAL_MINER, "R1");
  gp_unit(&p, P2, GAL_COMMAND, "G2");
  rig_entry(&p, 8, 6, 0);
  next_turn_of_p1(&p);
  expect_in(&p, e, "G3");
  gp_free(&p);
}

/* 003 "Ship Model: Deep Space Explorer": "If an Explorer would show up in
 * a sector that is at full capacity then the Explorer shows up colliding
 * with a ship in that sector. The Explorer and a ship chosen by the
 * defender (this ship may not be a miner ship) are both destroyed and
 * removed from the board. ... These treasures are received whether the
 * explorer come in colliding with another ship or not." The defender is
 * the explorer owner's opponent, choosing among every ship but miners in
 * that sector, its own and the explorer owner's alike
 * (docs/rules/galactic.md "Collisions"). */
static void test_collision_the_defender_chooses(void **unused) {
  (void)unused;
  gal_pos p;
  gp_new(&p, 1);
  int e = gp_unit(&p, P1, GAL_EXPLORER, "deep");
  gp_unit(&p, P1, GAL_MINER, "R1");
  int mine = gp_unit(&p, P1, GAL_RAIDER, "Y2");
  int r = gp_unit(&p, P2, GAL_RAIDER, "Y2");
  int d = gp_unit(&p, P2, GAL_DESTROYER, "Y2");
  int m = gp_unit(&p, P2, GAL_MINER, "Y2");
  rig_entry(&p, 5, 4, 4); /* Yellow, sector 2; a rich asteroid */
  next_turn_of_p1(&p);
  gp_expect_told(&p, "comes out in the full sector Y2 and collides");
  assert_int_equal(p.s->phase, GAL_PH_COLLIDE);
  char want[64];
  snprintf(want, sizeof want, "lose.u%d lose.u%d lose.u%d", mine, r, d);
  expect_set(&p, P2, "lose.", want);
  assert_false(gp_offered(&p, "lose.u%d", m)); /* never a miner */
  gp_answer(&p, P2, "lose.u%d", mine);
  gp_expect_told(&p, "destroyed in the collision");
  assert_false(p.s->u[e].alive);
  assert_false(p.s->u[mine].alive);
  expect_in(&p, r, "Y2");
  expect_in(&p, d, "Y2");
  expect_in(&p, m, "Y2");
  /* the treasure all the same */
  assert_int_equal(p.s->minerals[P1], gal_prizes[4].minerals);
  gp_expect_told(&p, "The spinner");
  assert_int_equal(p.g->prompt.player, P1);
  gp_free(&p);
}

/* 003 "Black Hole Markers": "If any game object (such as a Deep Space
 * Explorer) enters the sector with the black hole, the game object is
 * immediately destroyed and removed from the board." and 003 "Ship Model:
 * Deep Space Explorer": the treasure is received all the same. */
static void test_landing_in_a_black_hole_destroys(void **unused) {
  (void)unused;
  gal_pos p;
  gp_new(&p, 1);
  int e = gp_unit(&p, P1, GAL_EXPLORER, "deep");
  gp_unit(&p, P1, GAL_MINER, "R1");
  gp_unit(&p, P2, GAL_MINER, "P3");
  p.s->black[gp_sector("Y2")] = 1;
  rig_entry(&p, 6, 3, 1); /* Yellow, sector 2: the black hole */
  next_turn_of_p1(&p);
  assert_false(p.s->u[e].alive);
  gp_expect_told(&p, "into the black hole");
  gp_expect_told(&p, "swallowed by the black hole");
  assert_int_equal(p.s->minerals[P1], gal_prizes[1].minerals);
  gp_free(&p);
}

/* 003 "Deep Space Exploration Spinner": "When a Deep Space Explorer
 * returns from deep space the controller spins this spinner and receives
 * any items/bonuses that is indicated by the spinner." Lair's eight
 * slices (docs/rules/galactic.md "The Deep Space spinner"): the only
 * source of Dark Matter. */
static void test_spinner_every_slice(void **unused) {
  (void)unused;
  int dark_slices = 0;
  for (int k = 0; k < GAL_PRIZES; k++) {
    gal_pos p;
    gp_new(&p, 1);
    gp_unit(&p, P1, GAL_EXPLORER, "deep");
    gp_unit(&p, P1, GAL_MINER, "R1");
    gp_unit(&p, P2, GAL_MINER, "P3");
    rig_entry(&p, 3, 1, k);
    next_turn_of_p1(&p);
    assert_int_equal(p.s->minerals[P1], gal_prizes[k].minerals);
    assert_int_equal(p.s->found[P1], gal_prizes[k].minerals);
    assert_int_equal(p.s->dark[P1], gal_prizes[k].dark);
    assert_int_equal(p.s->dark_found[P1], gal_prizes[k].dark);
    assert_int_equal(p.s->minerals[P2] + p.s->dark[P2], 0);
    char line[80];
    snprintf(line, sizeof line, "The spinner: %s", gal_prizes[k].name);
    gp_expect_told(&p, line);
    dark_slices += gal_prizes[k].dark > 0;
    gp_free(&p);
  }
  assert_int_equal(dark_slices, 3);
}

/* ---- Black hole shot ------------------------------------------------------
 */

/* 003 "Ship Model: Long Range Destroyer": "To make a black hole shot the
 * player must have Dark Matter, Resources to Charge the shot, and declare
 * where they are aiming the shot. This shot is a charged shot, meaning
 * that the Destroyer must power down its shields for one turn. On the
 * next turn the Destroyer shoots into a Sector in a Zone creating a black
 * hole where that sectors planet was located. The charging takes 1 AP and
 * the shot takes 1 AP" and 003 "Black Hole Markers": "When a black hole
 * is created anything that is currently in the same sector as the black
 * hole is destroyed" ... "may not be occupied". Lair's cost: 5 minerals
 * and 1 Dark Matter; the aim is a sector of a zone in the Destroyer's
 * range (docs/rules/galactic.md "The black hole shot"). */
static void test_black_hole_shot_sequence(void **unused) {
  (void)unused;
  gal_pos p;
  gp_new(&p, 1);
  int d = gp_unit(&p, P1, GAL_DESTROYER, "Y3"); /* borders P2: Purple */
  int m0 = gp_unit(&p, P1, GAL_MINER, "P2");
  int r = gp_unit(&p, P2, GAL_RAIDER, "P2");
  int m1 = gp_unit(&p, P2, GAL_MINER, "P2");
  int c = gp_unit(&p, P2, GAL_COMMAND, "P1");
  int foe = gp_unit(&p, P2, GAL_RAIDER, "Y3");
  p.s->u[m1].attached = 1;
  /* without Dark Matter, or short of minerals: no charge */
  gp_funds(&p, P1, 100, 0);
  gp_refresh(&p);
  gp_answer(&p, P1, "ship.u%d", d);
  assert_int_equal(gp_count(&p, "charge.shot."), 0);
  gp_answer(&p, P1, "done");
  gp_turn(&p, P1, 3);
  for (int k = 0; k < GAL_UNITS; k++)
    p.s->u[k].acted = 0;
  gp_funds(&p, P1, GAL_SHOT_COST - 1, 1);
  gp_refresh(&p);
  gp_answer(&p, P1, "ship.u%d", d);
  assert_int_equal(gp_count(&p, "charge.shot."), 0);
  gp_answer(&p, P1, "done");
  gp_turn(&p, P1, 3);
  for (int k = 0; k < GAL_UNITS; k++)
    p.s->u[k].acted = 0;
  gp_funds(&p, P1, GAL_SHOT_COST, 1);
  gp_refresh(&p);
  gp_answer(&p, P1, "ship.u%d", d);
  /* the aim: a sector of a zone in its range (Purple from Y3) */
  expect_set(&p, P1, "charge.shot.",
             "charge.shot.P1 charge.shot.P2 charge.shot.P3");
  gp_answer(&p, P1, "charge.shot.P2");
  gp_expect_told(&p, "charges a black hole shot aimed at P2");
  assert_int_equal(p.s->u[d].shields, 0);
  assert_int_equal(p.s->u[d].ap, gal_types[GAL_DESTROYER].ap - 1);
  assert_int_equal(p.s->minerals[P1], 0);
  assert_int_equal(p.s->dark[P1], 0);
  assert_int_equal(p.s->dark_spent[P1], 1);
  assert_false(gp_offered(&p, "ship.u%d", d)); /* its actions are over */
  gp_answer(&p, P1, "end");
  /* its shields are down: the enemy's hit goes to the hull */
  gp_answer(&p, P2, "ship.u%d", foe);
  gp_answer(&p, P2, "attack.u%d", d);
  assert_int_equal(p.s->u[d].hull, gal_types[GAL_DESTROYER].hull - 2);
  gp_answer(&p, P2, "done");
  gp_answer(&p, P2, "end");
  /* the next turn: still down, and it can only fire */
  assert_int_equal(p.s->u[d].shields, 0);
  gp_answer(&p, P1, "ship.u%d", d);
  expect_set(&p, P1, "", "fire done");
  gp_answer(&p, P1, "fire");
  gp_expect_told(&p, "collapses into a black hole");
  gp_expect_told(&p, "swallowed by the black hole");
  assert_true(p.s->black[gp_sector("P2")]);
  assert_false(p.s->u[r].alive);
  assert_false(p.s->u[m1].alive);
  assert_false(p.s->u[m0].alive); /* its own miner too: "anything" */
  expect_in(&p, c, "P1");
  assert_int_equal(p.s->u[d].ap, gal_types[GAL_DESTROYER].ap - 1);
  assert_int_equal(p.s->u[d].charge, GAL_CH_NONE);
  gp_answer(&p, P1, "done");
  gp_answer(&p, P1, "end");
  /* nothing may go there: no move, no build */
  gp_funds(&p, P2, 50, 0);
  gp_refresh(&p);
  expect_set(&p, P2, "build.raider.", "build.raider.P1 build.raider.P3");
  assert_int_equal(gp_count(&p, "build.miner.P2"), 0);
  gp_answer(&p, P2, "ship.u%d", c);
  assert_false(gp_offered(&p, "move.P2"));
  assert_true(gp_offered(&p, "move.B3"));
  gp_free(&p);

  /* nor is a ship placed there: a placement with a black hole in R2 (no
   * game has one that early, but the rule is the same) */
  gp_new(&p, 1);
  memset(p.s->to_place, GAL_START_EACH, sizeof p.s->to_place);
  p.s->phase = GAL_PH_PLACE;
  p.s->turn = 1;
  p.s->play = 0;
  p.s->black[gp_sector("R2")] = 1;
  gp_refresh(&p);
  assert_int_equal(gp_count(&p, "place."), GAL_TYPES * 2);
  assert_false(gp_offered(&p, "place.miner.R2"));
  gp_answer(&p, P1, "place.raider.R1");
  gp_free(&p);
}

/* 003 "Ship Model: Long Range Destroyer": "On the next turn the Destroyer
 * shoots": a charge not fired on the next turn fades, its price spent
 * (docs/rules/galactic.md "The black hole shot"), and the shields come
 * back from the turn after. */
static void test_black_hole_charge_fades(void **unused) {
  (void)unused;
  gal_pos p;
  gp_new(&p, 1);
  int d = gp_unit(&p, P1, GAL_DESTROYER, "Y3");
  gp_unit(&p, P2, GAL_RAIDER, "P2");
  gp_funds(&p, P1, GAL_SHOT_COST, 1);
  gp_refresh(&p);
  gp_answer(&p, P1, "ship.u%d", d);
  gp_answer(&p, P1, "charge.shot.P2");
  gp_answer(&p, P1, "end");
  gp_answer(&p, P2, "end");
  assert_int_equal(p.s->u[d].charge, GAL_CH_SHOT);
  gp_answer(&p, P1, "end"); /* not fired */
  gp_expect_told(&p, "charge fades unused");
  assert_int_equal(p.s->u[d].charge, GAL_CH_NONE);
  assert_int_equal(p.s->u[d].shields, 0);
  assert_false(p.s->black[gp_sector("P2")]);
  assert_int_equal(p.s->minerals[P1] + p.s->dark[P1], 0); /* spent */
  gp_answer(&p, P2, "end");
  assert_int_equal(p.s->u[d].shields, 1);
  gp_answer(&p, P1, "ship.u%d", d);
  assert_false(gp_offered(&p, "fire"));
  gp_free(&p);
}

/* A position with black holes in the first `holes` sectors of Blue and
 * Green (none in Yellow, Red or Purple), a Destroyer of seat 0 in Y3 with
 * the price of a shot, and `charged` more Destroyers of seat 1 with a
 * shot charged. Returns whether seat 0's Destroyer may charge. */
static bool may_charge_with(int holes, int charged) {
  const char *at[] = {"B1", "B2", "B3", "G1", "G2", "G3"};
  gal_pos p;
  gp_new(&p, 1);
  int d = gp_unit(&p, P1, GAL_DESTROYER, "Y3");
  gp_unit(&p, P2, GAL_MINER, "P3");
  for (int k = 0; k < holes; k++)
    p.s->black[gp_sector(at[k])] = 1;
  for (int k = 0; k < charged; k++) {
    int c = gp_unit(&p, P2, GAL_DESTROYER, k ? "R3" : "R2");
    p.s->u[c].charge = GAL_CH_SHOT;
    p.s->u[c].aim = (uint8_t)gp_sector("Y1");
    p.s->u[c].charged = 20;
    p.s->u[c].shields = 0;
  }
  gp_funds(&p, P1, GAL_SHOT_COST, GAL_SHOT_DARK);
  gp_refresh(&p);
  gp_answer(&p, P1, "ship.u%d", d);
  bool may = gp_count(&p, "charge.shot.") > 0;
  gp_free(&p);
  return may;
}

/* 003 "Game Contains": "5 Black Hole Markers". The box's count is kept
 * (docs/rules/galactic.md "The black hole shot"): no shot is charged once
 * the black holes and the shots already charged hold all five markers. */
static void test_black_hole_markers_five(void **unused) {
  (void)unused;
  assert_int_equal(GAL_MARKERS, 5);
  assert_true(may_charge_with(0, 0));
  assert_true(may_charge_with(4, 0));
  assert_false(may_charge_with(5, 0));
  assert_true(may_charge_with(3, 1));
  assert_false(may_charge_with(3, 2));
  assert_false(may_charge_with(4, 1));
}

/* ---- Fleet jump ---------------------------------------------------------- */

/* 003 "Ship Model: Command Ship": "A Command Ship may charge for a turn
 * (powering down shields while charging) and the following turn Jump
 * itself and any friendly units in the same sector to a location up to 4
 * sectors away. The friendly ships need to be in the same sector at the
 * beginning of the turn when the Command Ship jumps. They do not have to
 * be present when the Command Ship is charging." The charge costs 4
 * minerals; the jump respects the capacity of where it lands and never
 * ends in a black hole (docs/rules/galactic.md "The fleet jump"). */
static void test_fleet_jump(void **unused) {
  (void)unused;
  gal_pos p;
  gp_new(&p, 1);
  int c = gp_unit(&p, P1, GAL_COMMAND, "R2");
  int left = gp_unit(&p, P1, GAL_RAIDER, "R2"); /* leaves after the charge */
  int came = gp_unit(&p, P1, GAL_RAIDER, "R1"); /* comes after the charge */
  int late = gp_unit(&p, P1, GAL_RAIDER, "R3"); /* comes in the jump turn */
  int m = gp_unit(&p, P1, GAL_MINER, "R2");
  p.s->u[m].attached = 1;
  gp_unit(&p, P2, GAL_RAIDER, "Y2"); /* Y2: 2 ships, no room for 2 more */
  gp_unit(&p, P2, GAL_RAIDER, "Y2");
  gp_unit(&p, P2, GAL_RAIDER, "Y3"); /* Y3: 1 ship, room for 2 */
  p.s->black[gp_sector("B2")] = 1;
  gp_funds(&p, P1, GAL_JUMP_COST, 0);
  gp_refresh(&p);
  gp_answer(&p, P1, "ship.u%d", c);
  gp_answer(&p, P1, "charge.jump");
  gp_expect_told(&p, "charges a fleet jump");
  assert_int_equal(p.s->u[c].shields, 0);
  assert_int_equal(p.s->minerals[P1], 0);
  gp_answer(&p, P1, "ship.u%d", left);
  gp_answer(&p, P1, "move.R3");
  gp_answer(&p, P1, "done");
  gp_answer(&p, P1, "ship.u%d", came);
  gp_answer(&p, P1, "move.R2");
  gp_answer(&p, P1, "done");
  gp_answer(&p, P1, "end");
  gp_answer(&p, P2, "end");
  /* the jump turn: shields still down; a third raider comes to R2 */
  assert_int_equal(p.s->u[c].shields, 0);
  gp_answer(&p, P1, "ship.u%d", late);
  gp_answer(&p, P1, "move.R2"); /* R2 now: command, came, late */
  gp_answer(&p, P1, "done");
  gp_answer(&p, P1, "ship.u%d", c);
  /* up to 4 sectors, room for the command and `came` (2 ships), no black
   * hole, not where it is */
  char want[256] = "";
  for (int k = 0; k < GAL_SECTORS; k++) {
    const char *x = board[k].id;
    int crowd = gal_crowd(p.s, gp_sector(x));
    if (strcmp(x, "R2") == 0 || strcmp(x, "B2") == 0 || steps("R2", x) > 4 ||
        crowd + 2 > GAL_CAPACITY)
      continue;
    add_id(want, sizeof want, "jump.", x, strlen(x));
  }
  expect_set(&p, P1, "jump.", want);
  assert_false(gp_offered(&p, "jump.Y2")); /* full for two more */
  assert_false(gp_offered(&p, "jump.P1")); /* 5 sectors away */
  assert_true(gp_offered(&p, "jump.P2"));  /* 4 */
  assert_false(gp_offered(&p, "move.R1")); /* charged: jump or nothing */
  gp_answer(&p, P1, "jump.Y3");
  gp_expect_told(&p, "fleet-jumps from R2 to Y3");
  expect_in(&p, c, "Y3");
  expect_in(&p, came, "Y3");
  expect_in(&p, m, "Y3"); /* "any friendly units": its miner too */
  assert_false(p.s->u[m].attached);
  expect_in(&p, late, "R2");
  expect_in(&p, left, "R3");
  assert_int_equal(p.s->u[c].charge, GAL_CH_NONE);
  assert_int_equal(p.s->u[c].ap, gal_types[GAL_COMMAND].ap - 1);
  gp_free(&p);
}

/* ---- Objective --------------------------------------------------------- */

/* 003 "Objective": "This happens when the other players fleet has no
 * ships left on the board (even if all of their units are in deep space).
 * The player with ships still on the board wins the game." */
static void test_victory_no_ship_on_the_board(void **unused) {
  (void)unused;
  gal_pos p;
  gp_new(&p, 1);
  int r = gp_unit(&p, P1, GAL_RAIDER, "Y1");
  int t = gp_unit(&p, P2, GAL_RAIDER, "Y1");
  gp_unit(&p, P2, GAL_EXPLORER, "deep");
  gp_set(&p, t, 0, 1, 4);
  gp_refresh(&p);
  gp_answer(&p, P1, "ship.u%d", r);
  gp_answer(&p, P1, "attack.u%d", t);
  gp_expect_told(&p, "Villain 2 has no ship left on the board: Villain 1 "
                     "wins.");
  eng_result res;
  eng_game_result(p.g, &res);
  assert_true(res.over);
  assert_int_equal(res.winners, 1u << P1);
  assert_string_equal(res.reason, "fleet_destroyed");
  assert_int_equal(p.g->prompt.player, -1);
  gp_free(&p);
}

/* 003 "Objective": "(even if all of their units are in deep space)": an
 * explorer that warps away the last ship its player had on the board
 * loses the game for them. */
static void test_victory_warping_the_last_ship_loses(void **unused) {
  (void)unused;
  gal_pos p;
  gp_new(&p, 1);
  int e = gp_unit(&p, P1, GAL_EXPLORER, "Y1");
  gp_unit(&p, P2, GAL_RAIDER, "P2");
  gp_funds(&p, P1, GAL_WARP_COST, 0);
  gp_refresh(&p);
  gp_answer(&p, P1, "ship.u%d", e);
  gp_answer(&p, P1, "warp");
  gp_expect_told(&p, "Villain 1 has no ship left on the board: Villain 2 "
                     "wins.");
  eng_result res;
  eng_game_result(p.g, &res);
  assert_true(res.over);
  assert_int_equal(res.winners, 1u << P2);
  gp_free(&p);
}

/* docs/rules/galactic.md "The end": Lair's round limit. After round 40
 * (player 2's 40th turn) the game ends: the larger fleet on the board
 * wins, then the greater total hull, else it is a draw. */
static void test_round_limit(void **unused) {
  (void)unused;
  gal_pos p;
  /* before the last turn nothing ends */
  gp_new(&p, 1);
  gp_unit(&p, P1, GAL_RAIDER, "R1");
  gp_unit(&p, P2, GAL_RAIDER, "P1");
  gp_turn(&p, P1, 2 * GAL_ROUNDS - 1);
  gp_refresh(&p);
  gp_answer(&p, P1, "end");
  assert_int_equal(p.s->phase, GAL_PH_ACT);
  assert_int_equal(p.s->play, 2 * GAL_ROUNDS);
  gp_expect_told(&p, "Round 40: Villain 2's turn begins.");
  /* the larger fleet on the board wins, in deep space not counted */
  gp_unit(&p, P1, GAL_MINER, "R2");
  gp_unit(&p, P2, GAL_EXPLORER, "deep");
  gp_unit(&p, P2, GAL_EXPLORER, "deep");
  gp_refresh(&p);
  gp_answer(&p, P2, "end");
  gp_expect_told(&p, "Round 40 is over, the last");
  eng_result res;
  eng_game_result(p.g, &res);
  assert_true(res.over);
  assert_int_equal(res.winners, 1u << P1);
  assert_string_equal(res.reason, "round_limit");
  gp_free(&p);

  /* equal fleets: the greater total hull */
  gp_new(&p, 1);
  gp_unit(&p, P1, GAL_RAIDER, "R1");
  gp_set(&p, gp_unit(&p, P2, GAL_RAIDER, "P1"), 1, 2, 4);
  gp_turn(&p, P2, 2 * GAL_ROUNDS);
  gp_refresh(&p);
  gp_answer(&p, P2, "end");
  eng_game_result(p.g, &res);
  assert_true(res.over);
  assert_int_equal(res.winners, 1u << P1);
  gp_free(&p);

  /* equal in both: a draw */
  gp_new(&p, 1);
  gp_unit(&p, P1, GAL_RAIDER, "R1");
  gp_unit(&p, P2, GAL_RAIDER, "P1");
  gp_turn(&p, P2, 2 * GAL_ROUNDS);
  gp_refresh(&p);
  gp_answer(&p, P2, "end");
  gp_expect_told(&p, "the game is a draw");
  eng_game_result(p.g, &res);
  assert_true(res.over);
  assert_int_equal(res.winners, 0);
  gp_free(&p);
}

/* ---- Saves, replays, views, lines --------------------------------------- */

static char *state_text(const void *st) {
  json_t *j = gal_ruleset.to_json(st);
  assert_non_null(j);
  char *t = json_dumps(j, JSON_SORT_KEYS | JSON_COMPACT);
  json_decref(j);
  assert_non_null(t);
  return t;
}

/* Whether j holds the key anywhere, at any depth. */
static bool has_key(const json_t *j, const char *key) {
  if (json_is_object(j)) {
    const char *k;
    json_t *v;
    json_object_foreach((json_t *)j, k, v) {
      if (strcmp(k, key) == 0 || has_key(v, key))
        return true;
    }
  } else if (json_is_array(j)) {
    size_t i;
    json_t *v;
    json_array_foreach(j, i, v) {
      if (has_key(v, key))
        return true;
    }
  }
  return false;
}

/* The view (docs/rules/galactic.md "What everyone sees"): the whole
 * board, every living unit with its strength, the same for every viewer,
 * and nothing of the random generator. */
static void check_view(const gal_state *s) {
  json_t *v[3];
  for (int k = 0; k < 3; k++) {
    v[k] = gal_ruleset.view(s, k - 1);
    assert_non_null(v[k]);
    assert_false(has_key(v[k], "rng"));
  }
  int living = 0;
  for (int i = 0; i < GAL_UNITS; i++)
    living += s->u[i].alive;
  json_t *units = json_object_get(v[0], "units");
  assert_int_equal((int)json_array_size(units), living);
  size_t i;
  json_t *u;
  json_array_foreach(units, i, u) {
    long id = (long)json_integer_value(json_object_get(u, "id"));
    assert_true(id >= 0 && id < GAL_UNITS && s->u[id].alive);
    assert_int_equal(json_integer_value(json_object_get(u, "hull")),
                     s->u[id].hull);
    assert_int_equal(json_integer_value(json_object_get(u, "shields")),
                     s->u[id].shields);
  }
  for (int k = 1; k < 3; k++) {
    json_object_del(v[k], "viewer");
    json_object_del(v[0], "viewer");
    assert_true(json_equal(v[0], v[k]));
  }
  for (int k = 0; k < 3; k++)
    json_decref(v[k]);
}

/* Plays seed's game with random answers (picked by pick), checking after
 * every answer: the lines told (every line a whole sentence ending in
 * '.', '!' or '?', a public one at least), gal_check, the view, and that
 * the save reads back to the same text. Returns the answers' ids, space-
 * separated (malloc'd). */
static char *random_game(uint64_t seed, int first, uint64_t pick_seed,
                         bool heavy) {
  eng_config cfg = {.players = 2, .mode = "", .first = first};
  eng_game *g;
  assert_int_equal(eng_game_new(eng_find("galactic"), &cfg, seed, &g), ENG_OK);
  eng_rng pick;
  eng_rng_seed(&pick, pick_seed, 3);
  size_t cap = 1 << 16, len = 0;
  char *ids = malloc(cap);
  assert_non_null(ids);
  ids[0] = '\0';
  static eng_events ev;
  for (int k = 0; k < 20000 && g->prompt.player >= 0; k++) {
    int i = (int)eng_rng_below(&pick, (uint32_t)g->prompt.n);
    char id[ENG_ID_MAX + 1], label[ENG_LABEL_MAX + 1];
    eng_game_option(g, i, id, label);
    if (len + strlen(id) + 2 > cap) {
      cap *= 2;
      ids = realloc(ids, cap);
      assert_non_null(ids);
    }
    len += (size_t)snprintf(ids + len, cap - len, "%s%s", len ? " " : "", id);
    assert_int_equal(eng_game_answer(g, g->prompt.player, id, &ev), ENG_OK);
    char msg[256];
    if (gal_check(g->state, msg, sizeof msg))
      fail_msg("seed %d, answer %d (%s): %s", (int)seed, k, id, msg);
    if (pu_told_form(&ev, 2, msg, sizeof msg))
      fail_msg("seed %d, answer %d (%s): %s", (int)seed, k, id, msg);
    for (int e = 0; e < ev.n; e++) {
      size_t n = strlen(ev.ev[e].text);
      assert_true(n > 0 && strchr(".!?", ev.ev[e].text[n - 1]));
    }
    assert_false(ev.truncated);
    if (heavy || k % 50 == 0) {
      check_view(g->state);
      char *a = state_text(g->state);
      void *copy = calloc(1, gal_ruleset.state_size);
      assert_non_null(copy);
      json_t *j = json_loads(a, 0, NULL);
      assert_int_equal(gal_ruleset.from_json(copy, j), ENG_OK);
      char *b = state_text(copy);
      assert_string_equal(a, b);
      json_decref(j);
      free(copy);
      free(a);
      free(b);
    }
  }
  eng_result r;
  eng_game_result(g, &r);
  assert_true(r.over);
  eng_game_free(g);
  return ids;
}

/* Replays the answers ids (space-separated) on a new game of seed and
 * returns its state text (malloc'd). */
static char *replayed(uint64_t seed, int first, const char *ids) {
  eng_config cfg = {.players = 2, .mode = "", .first = first};
  eng_game *g;
  assert_int_equal(eng_game_new(eng_find("galactic"), &cfg, seed, &g), ENG_OK);
  for (const char *at = ids; *at;) {
    size_t len = strcspn(at, " ");
    char id[ENG_ID_MAX + 1];
    snprintf(id, sizeof id, "%.*s", (int)len, at);
    assert_int_equal(eng_game_answer(g, g->prompt.player, id, NULL), ENG_OK);
    at += len;
    at += strspn(at, " ");
  }
  char *t = state_text(g->state);
  eng_game_free(g);
  return t;
}

/* docs/rules/galactic.md "Randomness": the dice and the spinner come from
 * the state's generator, so the same seed and answers give the very same
 * state, byte for byte, with the roll-off or without. Every line told on
 * the way is a whole sentence ending in '.', '!' or '?'. */
static void test_determinism_same_seed_same_answers(void **unused) {
  (void)unused;
  for (uint64_t seed = 1; seed <= 4; seed++) {
    int first = seed % 2 ? -1 : 1;
    char *ids = random_game(seed, first, seed * 11, false);
    char *a = replayed(seed, first, ids);
    char *b = replayed(seed, first, ids);
    assert_string_equal(a, b);
    free(a);
    free(b);
    free(ids);
  }
}

/* docs/rules/galactic.md "Saves": a save reads back to the same state
 * (to_json, from_json, to_json give the same text) at every answer of a
 * whole game; the view shows every living unit and no generator. */
static void test_save_round_trip_and_view(void **unused) {
  (void)unused;
  free(random_game(21, 0, 5, true));
  free(random_game(22, -1, 6, true));
}

/* Reads text (a save with one change) and expects ENG_BAD_STATE, both
 * from the ruleset and through eng_game_restore. */
static void expect_refused(json_t *save, const char *what) {
  void *st = calloc(1, gal_ruleset.state_size);
  assert_non_null(st);
  if (gal_ruleset.from_json(st, save) != ENG_BAD_STATE)
    fail_msg("a save with %s was accepted", what);
  free(st);
  char *text = json_dumps(save, JSON_SORT_KEYS | JSON_COMPACT);
  eng_config cfg = {.players = 2, .mode = "", .first = 0};
  eng_game *g = NULL;
  assert_int_equal(
      eng_game_restore(eng_find("galactic"), &cfg, 1, NULL, 0, text, &g),
      ENG_BAD_STATE);
  assert_null(g);
  free(text);
  json_decref(save);
}

/* The unit object of slot in save j. */
static json_t *unit_at(json_t *j, int slot) {
  size_t i;
  json_t *u;
  json_array_foreach(json_object_get(j, "units"), i, u) {
    if (json_integer_value(json_object_get(u, "slot")) == slot)
      return u;
  }
  fail_msg("no unit in slot %d", slot);
  return NULL;
}

/* docs/rules/galactic.md "Saves": a damaged save is refused with
 * ENG_BAD_STATE: an unknown sector, a unit beyond its type's hull, two
 * units in one slot, minerals that are not what was gathered, found and
 * spent, a unit in a black hole, a sector over its capacity, more black
 * holes than the box's markers. */
static void test_from_json_refuses_corrupt_saves(void **unused) {
  (void)unused;
  gal_pos p;
  gp_new(&p, 1);
  int a = gp_unit(&p, P1, GAL_RAIDER, "Y1");
  int b = gp_unit(&p, P1, GAL_RAIDER, "Y2");
  gp_unit(&p, P1, GAL_COMMAND, "Y2");
  gp_unit(&p, P2, GAL_DESTROYER, "Y2");
  gp_unit(&p, P2, GAL_MINER, "P1");
  gp_funds(&p, P1, 7, 1);
  gp_refresh(&p);
  json_t *good = gal_ruleset.to_json(p.s);
  assert_non_null(good);
  {
    void *st = calloc(1, gal_ruleset.state_size);
    assert_int_equal(gal_ruleset.from_json(st, good), ENG_OK);
    free(st);
  }
  json_t *j = json_deep_copy(good);
  json_object_set_new(unit_at(j, a), "sector", json_string("Q7"));
  expect_refused(j, "a bad sector id");

  j = json_deep_copy(good);
  json_object_set_new(unit_at(j, a), "sector", json_string("deep"));
  expect_refused(j, "a raider in deep space");

  j = json_deep_copy(good);
  json_object_set_new(unit_at(j, a), "hull",
                      json_integer(gal_types[GAL_RAIDER].hull + 1));
  expect_refused(j, "a unit over its maximum hull");

  j = json_deep_copy(good);
  json_object_set_new(unit_at(j, a), "shields",
                      json_integer(gal_types[GAL_RAIDER].shields + 1));
  expect_refused(j, "a unit over its maximum shields");

  j = json_deep_copy(good);
  json_object_set_new(unit_at(j, b), "slot", json_integer(a));
  expect_refused(j, "two units in one slot");

  j = json_deep_copy(good);
  json_array_set_new(json_object_get(j, "minerals"), 0, json_integer(8));
  expect_refused(j, "minerals not conserved");

  j = json_deep_copy(good);
  json_array_set_new(json_object_get(j, "dark"), 0, json_integer(2));
  expect_refused(j, "Dark Matter not conserved");

  j = json_deep_copy(good);
  json_array_set_new(json_object_get(j, "black"), (size_t)gp_sector("Y1"),
                     json_integer(1));
  expect_refused(j, "a unit in a black hole");

  j = json_deep_copy(good);
  json_object_set_new(unit_at(j, a), "sector", json_string("Y2"));
  expect_refused(j, "four ships in a sector");

  j = json_deep_copy(good);
  for (int k = 0; k < 6; k++) /* the six sectors of Blue and Green */
    json_array_set_new(json_object_get(j, "black"),
                       (size_t)(3 + k + (k > 2) * 3), json_integer(1));
  expect_refused(j, "six black holes");

  j = json_deep_copy(good);
  json_object_set_new(j, "phase", json_string("teatime"));
  expect_refused(j, "an unknown phase");

  json_decref(good);
  gp_free(&p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_start_ten_ships_placed_alternately),
      cmocka_unit_test(test_start_d10_roll_off),
      cmocka_unit_test(test_capacity_move_refused_into_a_full_sector),
      cmocka_unit_test(test_capacity_build_refused_into_a_full_sector),
      cmocka_unit_test(test_capacity_placement_refused_into_a_full_sector),
      cmocka_unit_test(test_team_size_limits),
      cmocka_unit_test(test_movement_adjacency_table),
      cmocka_unit_test(test_movement_costs_one_ap),
      cmocka_unit_test(test_range_raider_same_sector),
      cmocka_unit_test(test_range_command_own_or_adjacent_sector),
      cmocka_unit_test(test_range_explorer_same_zone),
      cmocka_unit_test(test_range_destroyer_adjacent_zones_not_its_own),
      cmocka_unit_test(test_range_miner_cannot_attack),
      cmocka_unit_test(test_combat_shields_first_then_hull),
      cmocka_unit_test(test_combat_hull_zero_destroys),
      cmocka_unit_test(test_shields_recharge_hull_never),
      cmocka_unit_test(test_actions_of_a_ship_taken_together),
      cmocka_unit_test(test_build_acts_the_same_turn),
      cmocka_unit_test(test_build_needs_enough_minerals),
      cmocka_unit_test(test_mining_attach_then_gather),
      cmocka_unit_test(test_mining_yield_by_miners_sharing_a_planet),
      cmocka_unit_test(test_mining_moving_detaches),
      cmocka_unit_test(test_warp_costs_ap_and_minerals),
      cmocka_unit_test(test_warp_return_by_d10_and_d6),
      cmocka_unit_test(test_warp_return_beside_a_command_ship),
      cmocka_unit_test(test_collision_the_defender_chooses),
      cmocka_unit_test(test_landing_in_a_black_hole_destroys),
      cmocka_unit_test(test_spinner_every_slice),
      cmocka_unit_test(test_black_hole_shot_sequence),
      cmocka_unit_test(test_black_hole_charge_fades),
      cmocka_unit_test(test_black_hole_markers_five),
      cmocka_unit_test(test_fleet_jump),
      cmocka_unit_test(test_victory_no_ship_on_the_board),
      cmocka_unit_test(test_victory_warping_the_last_ship_loses),
      cmocka_unit_test(test_round_limit),
      cmocka_unit_test(test_determinism_same_seed_same_answers),
      cmocka_unit_test(test_save_round_trip_and_view),
      cmocka_unit_test(test_from_json_refuses_corrupt_saves),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
