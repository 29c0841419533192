/*
 * gal.h: Galactic Domination (rulebook 003) as ruleset `galactic`.
 *
 * Two fleets on a board of 5 zones of 3 sectors; a player wins when the
 * other has no ship left on the board. The rulebook leaves the board, the
 * unit table, Dark Matter, the black hole shot's cost and the spinner to
 * us: docs/rules/galactic.md is the specification this engine follows,
 * and its tables are generated from gal_data.c.
 *
 * Files: gal_data.c (the board, the unit table, the spinner: Lair's own
 * design, as data), gal.c (the rules: setup, prompts, answers), gal_io.c
 * (saves, views, the invariants), gal_text.c (the Markdown render of a
 * view), gal_ai.c (the heuristic player).
 *
 * Galactic Domination has no hidden information: every view is the same
 * whole board. What is random (the D10 roll-off, the dice of an
 * explorer's re-entry, the spinner) comes from the state's generator at
 * the moment it happens, so a game replays exactly.
 */
#ifndef LAIR_GAMES_GALACTIC_GAL_H
#define LAIR_GAMES_GALACTIC_GAL_H

#include "../../eng.h"

#include <stdbool.h>
#include <stdint.h>

#define GAL_SEATS 2
#define GAL_ZONES 5
#define GAL_SECTORS 15
#define GAL_PER_ZONE 3
#define GAL_CAPACITY 3 /* ships in a sector, miners not counted */
#define GAL_TEAM 25    /* units of one player */
#define GAL_PER_TYPE 5 /* of each type but miners */
#define GAL_MINERS 15  /* miners of one player */
#define GAL_UNITS (GAL_SEATS * GAL_TEAM)
#define GAL_START_EACH 2 /* ships of each type placed at the start */
#define GAL_ROUNDS 40    /* Lair's limit: see docs/rules/galactic.md */
#define GAL_JUMP_RANGE 4 /* sectors a fleet jump may cover */
#define GAL_MARKERS 5    /* the box's Black Hole Markers (003's contents) */
#define GAL_NONE 255
#define GAL_DRAW 254
#define GAL_DEEP 254 /* a unit's sector while in deep space */

enum {
  GAL_COMMAND,
  GAL_EXPLORER,
  GAL_MINER,
  GAL_DESTROYER,
  GAL_RAIDER,
  GAL_TYPES
};
/* Where a unit's weapons reach. */
enum { GAL_R_NONE, GAL_R_SECTOR, GAL_R_NEAR, GAL_R_ZONE, GAL_R_FAR };
enum { GAL_CH_NONE, GAL_CH_JUMP, GAL_CH_SHOT };
enum {
  GAL_PH_PLACE,
  GAL_PH_ENTRY,
  GAL_PH_COLLIDE,
  GAL_PH_ACT,
  GAL_PH_SHIP,
  GAL_PH_OVER
};
enum { GAL_WHY_NONE, GAL_WHY_FLEET, GAL_WHY_ROUNDS };
/* The spinner's prizes. */
enum { GAL_P_NOTHING, GAL_P_MINERALS, GAL_P_DARK, GAL_P_BOTH };

/* ---- the design (gal_data.c) -------------------------------------------- */

typedef struct gal_type {
  const char *id;         /* "command": stable, in saves and option ids */
  const char *name;       /* "Command Ship" */
  const char *short_name; /* "Command": in a unit's name ("Command 2") */
  int ap, damage, range, shields, hull, cost, limit;
  const char *ability; /* one line for people */
} gal_type;

typedef struct gal_zone {
  const char *id, *name; /* "red", "Red" */
  uint32_t colour;       /* 0xRRGGBB */
} gal_zone;

typedef struct gal_sector {
  const char *id; /* "R1" */
  int zone, col, row;
} gal_sector;

typedef struct gal_prize {
  int kind, minerals, dark;
  const char *name; /* "A rich asteroid" */
} gal_prize;

extern const gal_type gal_types[GAL_TYPES];
extern const gal_zone gal_zones[GAL_ZONES];
extern const gal_sector gal_sectors[GAL_SECTORS];
#define GAL_PRIZES 8
extern const gal_prize gal_prizes[GAL_PRIZES];
/* What a special action costs in minerals (and Dark Matter). */
#define GAL_WARP_COST 2
#define GAL_JUMP_COST 4
#define GAL_SHOT_COST 5
#define GAL_SHOT_DARK 1
/* Minerals an attached miner gathers when k miners share its planet. */
int gal_yield(int k);
/* Whether sectors a and b border each other (a != b). */
bool gal_adjacent(int a, int b);
/* Whether zones a and b border each other (a != b): a sector of one
 * borders a sector of the other. */
bool gal_zones_adjacent(int a, int b);
/* Whether zone z is "adjacent to" sector x, as the Destroyer's range
 * reads: not x's own zone, and a sector of z borders x. */
bool gal_zone_near(int x, int z);
/* Whether a unit of type in sector x can hit a unit in sector y (both
 * on the board): its range in the unit table. */
bool gal_reaches(int type, int x, int y);
/* The number of steps from sector a to b over the sector graph. */
int gal_distance(int a, int b);
/* The sector numbered by id ("R1"), or -1. */
int gal_sector_of(const char *id);
/* The zone where seat's player starts: Red for player 1, Purple for 2. */
int gal_start_zone(int player_no);

/* ---- the state ----------------------------------------------------------- */

typedef struct gal_unit {
  uint8_t alive;
  uint8_t owner;  /* seat */
  uint8_t type;   /* GAL_COMMAND.. */
  uint8_t serial; /* "Raider 3": the owner's third Raider */
  uint8_t sector; /* 0..14, or GAL_DEEP */
  uint8_t shields, hull, ap;
  uint8_t attached; /* a miner on its sector's planet */
  uint8_t acted;    /* its actions are over for this turn */
  uint8_t charge;   /* GAL_CH_* */
  uint8_t aim;      /* a charged shot's sector, else GAL_NONE */
  int16_t charged;  /* the turn it charged in */
  uint64_t with;    /* a ready command ship: the units beside it when its
                       owner's turn began (bit i: unit i) */
} gal_unit;

typedef struct gal_state {
  eng_rng rng;
  uint8_t phase;
  uint8_t first;           /* the seat that is player 1 (Red) */
  uint8_t active;          /* the seat whose turn it is */
  uint8_t winner;          /* a seat, GAL_DRAW, or GAL_NONE */
  uint8_t why;             /* GAL_WHY_* */
  uint8_t acting;          /* the ship acting (GAL_PH_SHIP) */
  uint8_t entering;        /* the explorer re-entering (ENTRY, COLLIDE) */
  uint8_t landing;         /* the sector it lands in (COLLIDE) */
  uint8_t roll[GAL_SEATS]; /* the D10 roll-off (0: none was made) */
  uint8_t dice[2];         /* the last re-entry's D10 and D6 (0: none) */
  int16_t turn; /* every answer's turn number: 1 the placement, then play */
  int16_t play; /* turns of play begun (rounds = (play + 1) / 2) */
  uint8_t to_place[GAL_SEATS][GAL_TYPES];
  uint8_t serials[GAL_SEATS][GAL_TYPES]; /* units of that type ever made */
  uint8_t black[GAL_SECTORS];
  int32_t minerals[GAL_SEATS], dark[GAL_SEATS];
  int32_t gathered[GAL_SEATS], found[GAL_SEATS], spent[GAL_SEATS];
  int32_t dark_found[GAL_SEATS], dark_spent[GAL_SEATS];
  gal_unit u[GAL_UNITS];
} gal_state;

/* ---- option codes -------------------------------------------------------- */

enum {
  GAL_O_PLACE = 1, /* a: type, b: sector */
  GAL_O_LAND,      /* a: sector (an explorer's re-entry, beside its command) */
  GAL_O_VICTIM,    /* a: unit (a collision's loss, the defender's choice) */
  GAL_O_SHIP,      /* a: unit to act with */
  GAL_O_BUILD,     /* a: type, b: sector */
  GAL_O_END,       /* end the turn */
  GAL_O_MOVE,      /* a: sector */
  GAL_O_ATTACK,    /* a: unit */
  GAL_O_ATTACH,    /* a miner onto its planet */
  GAL_O_WARP,      /* an explorer into deep space */
  GAL_O_CHARGE_JUMP,
  GAL_O_CHARGE_SHOT, /* a: the sector aimed at */
  GAL_O_FIRE,
  GAL_O_JUMP, /* a: sector */
  GAL_O_DONE  /* the acting ship's actions are over */
};
#define GAL_CODE(k, a, b) ((uint32_t)(k) << 16 | (uint32_t)(a) << 8 | (b))
#define GAL_KIND(c) ((int)((c) >> 16))
#define GAL_A(c) ((int)(((c) >> 8) & 0xff))
#define GAL_B(c) ((int)((c)&0xff))

/* ---- gal.c --------------------------------------------------------------- */

extern const eng_ruleset gal_ruleset;
/* Player number (1 or 2) of seat. */
int gal_player_no(const gal_state *s, int seat);
/* Ships of seat on the board (miners included; deep space not). */
int gal_on_board(const gal_state *s, int seat);
/* Ships in sector, miners not counted. */
int gal_crowd(const gal_state *s, int sector);
/* Whether unit a (on the board) can hit unit t from where they are. */
bool gal_in_range(const gal_state *s, int a, int t);
/* The Black Hole Markers in use: black holes on the board and shots
 * charged (the box holds GAL_MARKERS; no more black holes are made). */
int gal_markers_used(const gal_state *s);
/* The unit's name for people, "Raider 3", into buf. */
void gal_unit_name(const gal_state *s, int i, char *buf, size_t cap);
void gal_prompt(const void *st, eng_prompt *p);

/* ---- gal_io.c ------------------------------------------------------------ */

json_t *gal_view(const void *st, int viewer);
json_t *gal_to_json(const void *st);
eng_rc gal_from_json(void *st, const json_t *j);
int gal_check(const void *st, char *msg, size_t cap);
json_t *gal_cards(void);
char *gal_cards_md(void);
const char *gal_phase_name(int phase);

/* ---- gal_text.c, gal_ai.c ------------------------------------------------ */

void gal_render(const json_t *view, int what, char *buf, size_t cap);
int gal_ai(const void *st, const eng_prompt *p, eng_rng *rng);
void gal_ai_why(const void *st, const eng_prompt *p, int i, char *buf,
                size_t cap);

#endif
