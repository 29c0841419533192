/*
 * gal_data.c: Lair's design of what rulebook 003 leaves open: the board,
 * the unit table, the spinner's prizes, the special actions' costs and
 * the miners' yield. docs/rules/galactic.md explains every number; its
 * tables are generated from these (lair cards galactic).
 */
#include "gal.h"

#include <string.h>

/* The rulebook gives each type's range and abilities, and no numbers.
 * Ours make the Raider the cheap brawler that must close in, the
 * Destroyer the artillery that cannot defend its own zone, the Command
 * Ship the strongest and dearest, the Explorer a scout, and the Miner
 * the economy that every attacker wants to hit. */
const gal_type gal_types[GAL_TYPES] = {
    [GAL_COMMAND] = {"command", "Command Ship", "Command", 3, 2, GAL_R_NEAR, 3,
                     6, 14, GAL_PER_TYPE,
                     "Fleet Jump: charge (1 AP, 4 minerals, shields down); "
                     "next turn jump (1 AP) with the ships beside it up to "
                     "4 sectors."},
    [GAL_EXPLORER] = {"explorer", "Deep Space Explorer", "Explorer", 3, 1,
                      GAL_R_ZONE, 2, 3, 8, GAL_PER_TYPE,
                      "Warp (1 AP, 2 minerals): into Deep Space; back next "
                      "turn by the dice, with a spin of the spinner."},
    [GAL_MINER] = {"miner", "Miner Ship", "Miner", 2, 0, GAL_R_NONE, 1, 2, 4,
                   GAL_MINERS,
                   "Attach (1 AP) to its sector's planet: gathers minerals "
                   "at the start of each of its owner's turns."},
    [GAL_DESTROYER] = {"destroyer", "Long Range Destroyer", "Destroyer", 2, 2,
                       GAL_R_FAR, 2, 4, 10, GAL_PER_TYPE,
                       "Black hole shot: charge (1 AP, 5 minerals, 1 Dark "
                       "Matter, shields down) aimed at a sector; next turn "
                       "fire (1 AP)."},
    [GAL_RAIDER] = {"raider", "Raider Ship", "Raider", 4, 2, GAL_R_SECTOR, 1, 3,
                    6, GAL_PER_TYPE, "None."},
};

const gal_zone gal_zones[GAL_ZONES] = {
    {"red", "Red", 0xd64545},       {"blue", "Blue", 0x3f7fd8},
    {"yellow", "Yellow", 0xd8b23f}, {"green", "Green", 0x3fa85a},
    {"purple", "Purple", 0x9050c8},
};

/* A plus-shaped board on a 5 x 5 grid: Red on the left, Purple on the
 * right, Blue above, Green below, Yellow in the middle. */
enum { RED, BLUE, YELLOW, GREEN, PURPLE };
const gal_sector gal_sectors[GAL_SECTORS] = {
    {"R1", RED, 0, 1},    {"R2", RED, 0, 2},    {"R3", RED, 0, 3},
    {"B1", BLUE, 1, 0},   {"B2", BLUE, 2, 0},   {"B3", BLUE, 3, 0},
    {"Y1", YELLOW, 1, 2}, {"Y2", YELLOW, 2, 2}, {"Y3", YELLOW, 3, 2},
    {"G1", GREEN, 1, 4},  {"G2", GREEN, 2, 4},  {"G3", GREEN, 3, 4},
    {"P1", PURPLE, 4, 1}, {"P2", PURPLE, 4, 2}, {"P3", PURPLE, 4, 3},
};

/* The borders between zones; within a zone, sector n borders n + 1. */
static const uint8_t links[][2] = {
    {0, 3},   /* R1 B1 */
    {1, 6},   /* R2 Y1 */
    {2, 9},   /* R3 G1 */
    {12, 5},  /* P1 B3 */
    {13, 8},  /* P2 Y3 */
    {14, 11}, /* P3 G3 */
    {4, 7},   /* B2 Y2 */
    {10, 7},  /* G2 Y2 */
};

/* Eight equal slices. Dark Matter is found only in deep space (three
 * slices in eight), so a black hole shot needs an explorer's voyage. */
const gal_prize gal_prizes[GAL_PRIZES] = {
    {GAL_P_NOTHING, 0, 0, "Empty space"},
    {GAL_P_MINERALS, 2, 0, "A mineral drift"},
    {GAL_P_MINERALS, 3, 0, "An ore comet"},
    {GAL_P_MINERALS, 4, 0, "A derelict freighter"},
    {GAL_P_MINERALS, 6, 0, "A rich asteroid"},
    {GAL_P_DARK, 0, 1, "A Dark Matter pocket"},
    {GAL_P_DARK, 0, 1, "A Dark Matter pocket"},
    {GAL_P_BOTH, 2, 1, "A Dark Matter reef"},
};

int gal_yield(int k) { return k <= 0 ? 0 : k == 1 ? 3 : k == 2 ? 2 : 1; }

bool gal_adjacent(int a, int b) {
  if (a == b || a < 0 || b < 0 || a >= GAL_SECTORS || b >= GAL_SECTORS)
    return false;
  if (gal_sectors[a].zone == gal_sectors[b].zone)
    return a == b + 1 || b == a + 1;
  for (size_t i = 0; i < sizeof links / sizeof links[0]; i++)
    if ((links[i][0] == a && links[i][1] == b) ||
        (links[i][0] == b && links[i][1] == a))
      return true;
  return false;
}

bool gal_zones_adjacent(int a, int b) {
  if (a == b)
    return false;
  for (int x = 0; x < GAL_SECTORS; x++)
    for (int y = 0; y < GAL_SECTORS; y++)
      if (gal_sectors[x].zone == a && gal_sectors[y].zone == b &&
          gal_adjacent(x, y))
        return true;
  return false;
}

bool gal_zone_near(int x, int z) {
  if (gal_sectors[x].zone == z)
    return false;
  for (int y = 0; y < GAL_SECTORS; y++)
    if (gal_sectors[y].zone == z && gal_adjacent(x, y))
      return true;
  return false;
}

bool gal_reaches(int type, int x, int y) {
  switch (gal_types[type].range) {
  case GAL_R_SECTOR:
    return x == y;
  case GAL_R_NEAR:
    return x == y || gal_adjacent(x, y);
  case GAL_R_ZONE:
    return gal_sectors[x].zone == gal_sectors[y].zone;
  case GAL_R_FAR: /* "zones adjacent to its sector" */
    return gal_zone_near(x, gal_sectors[y].zone);
  default:
    return false;
  }
}

int gal_distance(int a, int b) {
  int dist[GAL_SECTORS], queue[GAL_SECTORS], head = 0, tail = 0;
  for (int i = 0; i < GAL_SECTORS; i++)
    dist[i] = -1;
  dist[a] = 0;
  queue[tail++] = a;
  while (head < tail) {
    int x = queue[head++];
    if (x == b)
      return dist[x];
    for (int y = 0; y < GAL_SECTORS; y++)
      if (dist[y] < 0 && gal_adjacent(x, y)) {
        dist[y] = dist[x] + 1;
        queue[tail++] = y;
      }
  }
  return 99;
}

int gal_sector_of(const char *id) {
  for (int i = 0; id && i < GAL_SECTORS; i++)
    if (strcmp(gal_sectors[i].id, id) == 0)
      return i;
  return -1;
}

int gal_start_zone(int player_no) { return player_no == 1 ? RED : PURPLE; }
