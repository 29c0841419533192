/*
 * pic_galactic.c: the picture of a Galactic Domination board, drawn from
 * a view (engine/games/galactic/gal_io.c, gal_view; every viewer's view
 * is the same whole board).
 *
 * Top to bottom: the game, the round and whose turn it is (or the
 * winner); the two players' purses and fleets (minerals, Dark Matter,
 * ships on the board and in deep space, ships still to place); the board
 * on its 5 x 5 grid; a legend of the ship shapes. Everything on the board
 * comes from the view: each zone's colour, each sector's place on the
 * grid and its neighbours (the lines between sectors), so the picture
 * follows the data if the board changes.
 *
 * A sector is a box in its zone's colour with its id, a planet (or a
 * black hole: a black disc in a bright ring) with the attached miners on
 * its orbit, one row per ship other than miners (its shape in its
 * owner's colour, its name, shields and hull as pips, a charge), and
 * the miners that are not attached as small discs below. A ship that has
 * acted this turn is drawn faded (the player whose turn it is: the
 * other's ships keep the mark of their last turn, which says nothing
 * now); the ship acting now is framed.
 */
#include "pic_int.h"

#include "rsutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A seat without a name in the view (galactic has no villains). */
#define WORD "Player"

#define WIDTH 1200
#define MARGIN 20
#define GRID 5
#define CELL_GAP 16
#define CELL_W ((WIDTH - 2 * MARGIN - (GRID - 1) * CELL_GAP) / GRID)
#define CELL_H 162
#define MAX_SECTORS (GRID * GRID)
#define MAX_ZONES 16
#define SEATS 2
#define PI 3.14159265358979323846

enum {
  BG = 0x10131f,
  SPACE = 0x1a1f33, /* a sector's inside */
  PANEL = 0x1f2540,
  EDGE = 0x3a4370,
  TEXT = 0xeef1fb,
  MUTED = 0x9aa3c7,
  GOLD = 0xf2c14e,
  SHIELD = 0x5fb8ff,
  HULL = 0x6fd17a,
  LOST = 0x5a2a33, /* a lost shield or hull point */
  CHARGE = 0xffd23f,
  MINERAL = 0x7fe0d8,
  DARK = 0x6b3fa0,
  LINK = 0xc8cde0, /* a border between zones */
  OUTLINE = 0xffffff,
};

/* The owners' colours by player number (1: Red's player, 2: Purple's):
 * brighter than the zones' colours, so a ship stands out from any
 * sector, and far apart in hue from each other. */
static const uint32_t player_colour[SEATS] = {0xff7a5c, 0xb98cff};

/* Ship types, as the view names them. */
enum { COMMAND, EXPLORER, MINER, DESTROYER, RAIDER, TYPES };
static const char *const type_ids[TYPES] = {"command", "explorer", "miner",
                                            "destroyer", "raider"};
static const char *const type_names[TYPES] = {"Command", "Explorer", "Miner",
                                              "Destroyer", "Raider"};

/* ---- small readers ------------------------------------------------------ */

static bool flag(const json_t *o, const char *key) {
  return json_is_true(json_object_get(o, key));
}

static int type_of(const json_t *u) {
  const char *t = eng_jstr(u, "type");
  for (int k = 0; k < TYPES; k++)
    if (strcmp(t, type_ids[k]) == 0)
      return k;
  return -1;
}

/* "#rrggbb" as 0xRRGGBB; grey for anything else. */
static uint32_t parse_colour(const char *s) {
  if (strlen(s) != 7 || s[0] != '#')
    return 0x808080;
  uint32_t v = 0;
  for (int k = 1; k < 7; k++) {
    char ch = s[k];
    int d = ch >= '0' && ch <= '9'   ? ch - '0'
            : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
            : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10
                                     : -1;
    if (d < 0)
      return 0x808080;
    v = v << 4 | (uint32_t)d;
  }
  return v;
}

/* What the drawing needs of the view, read once. */
typedef struct board {
  const json_t *view;
  size_t n_zones, n_sectors;
  struct {
    const char *id;
    uint32_t colour;
  } zone[MAX_ZONES];
  struct {
    const json_t *j;
    int col, row, zone; /* zone: index into zone[], or -1 */
  } sector[MAX_SECTORS];
  long player_no[SEATS]; /* a seat's player number, 1 or 2 */
} board;

/* Whether unit u has acted in the turn being played. */
static bool acted(const board *b, const json_t *u) {
  return flag(u, "acted") &&
         eng_jnum(u, "owner") == eng_jnum(b->view, "active") &&
         strcmp(eng_jstr(b->view, "phase"), "over") != 0;
}

static uint32_t owner_colour(const board *b, long seat) {
  if (seat < 0 || seat >= SEATS)
    return MUTED;
  long no = b->player_no[seat];
  return no >= 1 && no <= SEATS ? player_colour[no - 1] : player_colour[seat];
}

static int sector_index(const board *b, const char *id) {
  for (size_t k = 0; id && k < b->n_sectors; k++)
    if (strcmp(eng_jstr(b->sector[k].j, "id"), id) == 0)
      return (int)k;
  return -1;
}

static double cell_x(int col) { return MARGIN + col * (CELL_W + CELL_GAP); }

/* ---- shapes -------------------------------------------------------------- */

/* Fills the current path in rgb at alpha a and outlines it. */
static void fill_outline(cairo_t *cr, uint32_t rgb, double a) {
  pic_colour(cr, rgb, a);
  cairo_fill_preserve(cr);
  pic_colour(cr, OUTLINE, a);
  cairo_set_line_width(cr, 1.5);
  cairo_stroke(cr);
}

static void polygon(cairo_t *cr, double x, double y, const double *pts, int n) {
  for (int k = 0; k < n; k++)
    if (k == 0)
      cairo_move_to(cr, x + pts[0], y + pts[1]);
    else
      cairo_line_to(cr, x + pts[2 * k], y + pts[2 * k + 1]);
  cairo_close_path(cr);
}

/* Ship type t centred on (x, y), about 22 px across, in rgb at alpha a:
 * command a star, explorer a diamond, miner a disc with a pick,
 * destroyer a long triangle, raider a chevron. */
static void ship(cairo_t *cr, int t, double x, double y, uint32_t rgb,
                 double a) {
  switch (t) {
  case COMMAND:
    for (int k = 0; k < 10; k++) {
      double ang = -PI / 2 + k * PI / 5, r = k % 2 ? 5.0 : 11.5;
      if (k == 0)
        cairo_move_to(cr, x + r * cos(ang), y + r * sin(ang));
      else
        cairo_line_to(cr, x + r * cos(ang), y + r * sin(ang));
    }
    cairo_close_path(cr);
    break;
  case EXPLORER: {
    static const double d[] = {0, -11, 8, 0, 0, 11, -8, 0};
    polygon(cr, x, y, d, 4);
    break;
  }
  case MINER:
    cairo_arc(cr, x, y, 7, 0, 2 * PI);
    fill_outline(cr, rgb, a);
    /* The pick: a handle and a head across the disc. */
    pic_colour(cr, BG, a);
    cairo_set_line_width(cr, 1.8);
    cairo_move_to(cr, x - 3.5, y + 3.5);
    cairo_line_to(cr, x + 3, y - 3);
    cairo_stroke(cr);
    cairo_arc(cr, x + 3, y - 3, 3.5, PI * 0.75, PI * 1.75);
    cairo_stroke(cr);
    return;
  case DESTROYER: {
    static const double d[] = {-12, -6, 13, 0, -12, 6};
    polygon(cr, x, y, d, 3);
    break;
  }
  case RAIDER: {
    static const double d[] = {-9, -9, 10, 0, -9, 9, -4, 0};
    polygon(cr, x, y, d, 4);
    break;
  }
  default:
    cairo_rectangle(cr, x - 7, y - 7, 14, 14);
    break;
  }
  fill_outline(cr, rgb, a);
}

/* n pips of which the first `full` are filled in rgb, the rest hollow;
 * returns the width taken. */
static double pips(cairo_t *cr, double x, double y, long full, long n,
                   uint32_t rgb, double a) {
  if (n > 12)
    n = 12; /* no type has more; a view that says so is cut */
  for (long k = 0; k < n; k++) {
    cairo_rectangle(cr, x + k * 7.0, y, 5, 7);
    pic_colour(cr, k < full ? rgb : LOST, a);
    cairo_fill(cr);
  }
  return n * 7.0;
}

/* A planet, or a black hole, centred on (x, y). */
static void planet(cairo_t *cr, double x, double y, bool black_hole,
                   uint32_t zone) {
  if (black_hole) {
    pic_colour(cr, 0xff9d3f, 1);
    cairo_set_line_width(cr, 3);
    cairo_arc(cr, x, y, 14, 0, 2 * PI);
    cairo_stroke(cr);
    pic_colour(cr, 0xd070ff, 1);
    cairo_set_line_width(cr, 1.5);
    cairo_arc(cr, x, y, 17.5, 0, 2 * PI);
    cairo_stroke(cr);
    pic_colour(cr, 0x000000, 1);
    cairo_arc(cr, x, y, 12, 0, 2 * PI);
    cairo_fill(cr);
    return;
  }
  pic_colour(cr, zone, 1);
  cairo_arc(cr, x, y, 12, 0, 2 * PI);
  cairo_fill(cr);
  pic_colour(cr, OUTLINE, 0.35);
  cairo_arc(cr, x - 3, y - 3, 5, 0, 2 * PI);
  cairo_fill(cr);
  pic_colour(cr, OUTLINE, 0.6);
  cairo_set_line_width(cr, 1.2);
  cairo_arc(cr, x, y, 12, 0, 2 * PI);
  cairo_stroke(cr);
}

/* A lightning bolt: a ship charging a fleet jump. */
static void bolt(cairo_t *cr, double x, double y) {
  static const double d[] = {2, -7, -4, 1, 0, 1, -2, 7, 4, -1, 0, -1};
  polygon(cr, x, y, d, 6);
  pic_colour(cr, CHARGE, 1);
  cairo_fill(cr);
}

/* A mineral crystal and a Dark Matter orb for the purses. */
static void crystal(cairo_t *cr, double x, double y) {
  static const double d[] = {0, -9, 6, -2, 0, 9, -6, -2};
  polygon(cr, x, y, d, 4);
  pic_colour(cr, MINERAL, 1);
  cairo_fill(cr);
}

static void orb(cairo_t *cr, double x, double y) {
  pic_colour(cr, DARK, 1);
  cairo_arc(cr, x, y, 8, 0, 2 * PI);
  cairo_fill(cr);
  pic_colour(cr, 0xd9b8ff, 1);
  cairo_set_line_width(cr, 1.5);
  cairo_arc(cr, x, y, 8, 0, 2 * PI);
  cairo_stroke(cr);
}

/* ---- the parts ----------------------------------------------------------- */

enum {
  HEAD_H = 84,
  PLAYER_H = 78,  /* a player's panel without its third line */
  EXTRA_H = 28,   /* its third line: deep space, ships to place */
  ROW_H = 34,     /* a ship's row in a sector */
  SECTOR_TOP = 30 /* a sector's rows start under its id */
};

/* The unit whose id is id, or NULL. */
static const json_t *unit_by_id(const board *b, const json_t *id) {
  size_t k;
  json_t *u;
  if (!json_is_integer(id))
    return NULL;
  json_array_foreach(json_object_get(b->view, "units"), k, u) {
    if (json_equal(json_object_get(u, "id"), id))
      return u;
  }
  return NULL;
}

/* The line that says whose turn it is, into buf. */
static void status_line(const board *b, char *buf, size_t cap) {
  const json_t *v = b->view;
  const char *phase = eng_jstr(v, "phase");
  long active = eng_jnum(v, "active"), round = eng_jnum(v, "round");
  const json_t *acting = unit_by_id(b, json_object_get(v, "acting"));
  const json_t *landing = json_object_get(v, "landing");
  const json_t *lander = unit_by_id(b, json_object_get(landing, "unit"));
  char who[64];
  if (strcmp(phase, "over") == 0) {
    long w = eng_jnum(v, "winner");
    const char *why = strcmp(eng_jstr(v, "reason"), "round_limit") == 0
                          ? "the larger fleet after the last round"
                          : "no enemy ship left on the board";
    if (w == -2)
      snprintf(buf, cap, "Game over after round %ld: a draw (%s)", round, why);
    else
      snprintf(buf, cap, "Game over after round %ld: %s wins (%s)", round,
               pic_seat(v, w, WORD, who, sizeof who), why);
  } else if (strcmp(phase, "placement") == 0)
    snprintf(buf, cap, "Placement: %s places a ship",
             pic_seat(v, active, WORD, who, sizeof who));
  else if (lander)
    snprintf(buf, cap, "Round %ld: %s's %s comes out of deep space (%s)", round,
             pic_seat(v, eng_jnum(lander, "owner"), WORD, who, sizeof who),
             eng_jstr(lander, "name"), eng_jstr(landing, "sector"));
  else if (acting)
    snprintf(buf, cap, "Round %ld: %s's turn, %s acting", round,
             pic_seat(v, active, WORD, who, sizeof who),
             eng_jstr(acting, "name"));
  else
    snprintf(buf, cap, "Round %ld: %s's turn", round,
             pic_seat(v, active, WORD, who, sizeof who));
}

/* Seat's panel at (x, y), w x h. */
static void player_panel(pic_canvas *c, const board *b, const json_t *p,
                         double x, double y, double w, double h) {
  cairo_t *cr = c->cr;
  const json_t *v = b->view;
  long seat = eng_jnum(p, "seat");
  uint32_t oc = owner_colour(b, seat);
  bool active =
      eng_jnum(v, "active") == seat && strcmp(eng_jstr(v, "phase"), "over");
  char buf[128];

  pic_round_rect(cr, x, y, w, h, 12);
  pic_colour(cr, PANEL, 1);
  cairo_fill_preserve(cr);
  pic_colour(cr, active ? oc : EDGE, 1);
  cairo_set_line_width(cr, active ? 3 : 1);
  cairo_stroke(cr);

  ship(cr, COMMAND, x + 26, y + 24, oc, 1);
  pic_seat(v, seat, WORD, buf, sizeof buf);
  pic_text(c, x + 46, y + 11, 150, 21, true, oc, PIC_LEFT, buf);
  const char *zone = eng_jstr(p, "zone");
  snprintf(buf, sizeof buf, "player %ld, home %c%s", eng_jnum(p, "player"),
           zone[0] >= 'a' && zone[0] <= 'z' ? zone[0] - 'a' + 'A' : zone[0],
           zone[0] ? zone + 1 : "");
  pic_text(c, x + 170, y + 16, 200, 15, false, MUTED, PIC_LEFT, buf);
  if (active) {
    pic_round_rect(cr, x + w - 104, y + 14, 90, 22, 11);
    pic_colour(cr, oc, 1);
    cairo_fill(cr);
    pic_text(c, x + w - 59, y + 17, 0, 13, true, BG, PIC_CENTRE, "their turn");
  }

  /* The purse and the fleet's count, in four columns. */
  double ly = y + 47;
  long minerals = eng_jnum(p, "minerals");
  crystal(cr, x + 24, ly + 9);
  snprintf(buf, sizeof buf, "%ld mineral%s", minerals,
           minerals == 1 ? "" : "s");
  pic_text(c, x + 38, ly, 100, 15, false, TEXT, PIC_LEFT, buf);
  orb(cr, x + 152, ly + 9);
  snprintf(buf, sizeof buf, "%ld Dark Matter", eng_jnum(p, "dark_matter"));
  pic_text(c, x + 166, ly, 112, 15, false, TEXT, PIC_LEFT, buf);
  ship(cr, RAIDER, x + 294, ly + 9, oc, 1);
  snprintf(buf, sizeof buf, "%ld on board", eng_jnum(p, "on_board"));
  pic_text(c, x + 310, ly, 96, 15, false, TEXT, PIC_LEFT, buf);
  ship(cr, EXPLORER, x + 418, ly + 9, oc, 1);
  snprintf(buf, sizeof buf, "%ld in deep space", eng_jnum(p, "in_deep_space"));
  pic_text(c, x + 432, ly, w - 446, 15, false, TEXT, PIC_LEFT, buf);

  /* The third line: the ships in deep space, then those still to be
   * placed, each as its shape and a name or count. */
  double tx = x + 24, ty = y + PLAYER_H + 4;
  size_t k;
  json_t *u;
  json_array_foreach(json_object_get(v, "units"), k, u) {
    if (eng_jnum(u, "owner") != seat ||
        !json_is_null(json_object_get(u, "sector")))
      continue;
    if (tx > x + w - 150)
      break;
    ship(cr, type_of(u), tx, ty + 9, oc, 1);
    snprintf(buf, sizeof buf, "%s in deep space", eng_jstr(u, "name"));
    pic_text(c, tx + 16, ty, 200, 14, false, MUTED, PIC_LEFT, buf);
    tx += 230;
  }
  const json_t *place = json_object_get(p, "to_place");
  for (int t = 0; t < TYPES; t++) {
    long n = eng_jnum(place, type_ids[t]);
    if (n <= 0 || tx > x + w - 90)
      continue;
    ship(cr, t, tx, ty + 9, oc, 1);
    snprintf(buf, sizeof buf, "%ld to place", n);
    pic_text(c, tx + 16, ty, 90, 14, false, MUTED, PIC_LEFT, buf);
    tx += 104;
  }
}

/* Whether player p has anything for the third line of its panel. */
static bool has_extra(const json_t *p) {
  if (eng_jnum(p, "in_deep_space") > 0)
    return true;
  const json_t *place = json_object_get(p, "to_place");
  for (int t = 0; t < TYPES; t++)
    if (eng_jnum(place, type_ids[t]) > 0)
      return true;
  return false;
}

/* A ship's row in a sector at (x, y): its shape, name, shields, hull and
 * charge. */
static void ship_row(pic_canvas *c, const board *b, const json_t *u, double x,
                     double y, bool acting) {
  cairo_t *cr = c->cr;
  uint32_t oc = owner_colour(b, eng_jnum(u, "owner"));
  bool done = acted(b, u);
  double a = done ? 0.45 : 1.0;
  char buf[64];
  if (acting) {
    pic_round_rect(cr, x + 3, y - 1, 148, ROW_H - 2, 6);
    pic_colour(cr, CHARGE, 1);
    cairo_set_line_width(cr, 2);
    cairo_stroke(cr);
  }
  ship(cr, type_of(u), x + 18, y + 15, oc, a);
  pic_text(c, x + 36, y + 1, 104, 14, true, done ? MUTED : TEXT, PIC_LEFT,
           eng_jstr(u, "name"));
  double px = x + 36, py = y + 20;
  px += pips(cr, px, py, eng_jnum(u, "shields"), eng_jnum(u, "max_shields"),
             SHIELD, a);
  pips(cr, px + 6, py, eng_jnum(u, "hull"), eng_jnum(u, "max_hull"), HULL, a);

  /* The charge, at the right: a bolt for a fleet jump, a small black
   * hole and its aim for a black hole shot. */
  const char *charge = eng_jstr(u, "charge");
  double rx = x + CELL_W - 8;
  if (strcmp(charge, "jump") == 0) {
    bolt(cr, rx - 40, y + 24);
    pic_text(c, rx, y + 17, 0, 13, true, CHARGE, PIC_RIGHT, "jump");
  } else if (strcmp(charge, "black_hole") == 0) {
    pic_colour(cr, CHARGE, 1);
    cairo_arc(cr, rx - 50, y + 24, 6, 0, 2 * PI);
    cairo_fill(cr);
    pic_colour(cr, 0x000000, 1);
    cairo_arc(cr, rx - 50, y + 24, 4, 0, 2 * PI);
    cairo_fill(cr);
    snprintf(buf, sizeof buf, "→ %s", eng_jstr(u, "aim"));
    pic_text(c, rx, y + 17, 0, 13, true, CHARGE, PIC_RIGHT, buf);
  }
}

int pic_galactic(const json_t *view, pic_png *out, char *err, size_t cap) {
  out->data = NULL;
  out->len = 0;
  board b = {.view = view};
  const json_t *zones = json_object_get(view, "zones");
  const json_t *sectors = json_object_get(view, "sectors");
  const json_t *players = json_object_get(view, "players");
  const json_t *units = json_object_get(view, "units");
  if (strcmp(eng_jstr(view, "game"), "galactic") != 0 ||
      !json_is_array(zones) || !json_is_array(sectors) ||
      !json_is_array(players) || !json_is_array(units) ||
      json_array_size(zones) > MAX_ZONES ||
      json_array_size(sectors) > MAX_SECTORS ||
      json_array_size(players) != SEATS) {
    snprintf(err, cap, "The view to draw is not a Galactic Domination board.");
    return -1;
  }
  size_t k;
  json_t *x;
  json_array_foreach(zones, k, x) {
    b.zone[k].id = eng_jstr(x, "id");
    b.zone[k].colour = parse_colour(eng_jstr(x, "colour"));
  }
  b.n_zones = json_array_size(zones);
  bool used[GRID][GRID] = {{false}};
  json_array_foreach(sectors, k, x) {
    long col = eng_jnum(x, "col"), row = eng_jnum(x, "row");
    if (col < 0 || col >= GRID || row < 0 || row >= GRID || used[col][row]) {
      snprintf(err, cap,
               "The view to draw is not a Galactic Domination board: sector "
               "%s is off the grid.",
               eng_jstr(x, "id"));
      return -1;
    }
    used[col][row] = true;
    b.sector[k].j = x;
    b.sector[k].col = (int)col;
    b.sector[k].row = (int)row;
    b.sector[k].zone = -1;
    for (size_t z = 0; z < b.n_zones; z++)
      if (strcmp(b.zone[z].id, eng_jstr(x, "zone")) == 0)
        b.sector[k].zone = (int)z;
  }
  b.n_sectors = json_array_size(sectors);
  json_array_foreach(players, k, x) {
    long seat = eng_jnum(x, "seat");
    if (seat >= 0 && seat < SEATS)
      b.player_no[seat] = eng_jnum(x, "player");
  }

  bool extra = false;
  json_array_foreach(players, k, x) extra |= has_extra(x);
  double player_h = PLAYER_H + (extra ? EXTRA_H : 0);
  double board_y = MARGIN + HEAD_H + player_h + 24;
  double legend_y = board_y + GRID * CELL_H + (GRID - 1) * CELL_GAP + 18;
  double height = legend_y + 30 + MARGIN;

  pic_canvas cv;
  if (pic_begin(&cv, WIDTH, (int)ceil(height), BG, err, cap))
    return -1;
  pic_canvas *c = &cv;
  cairo_t *cr = c->cr;
  char buf[200];

  /* The head. */
  pic_text(c, MARGIN, MARGIN, 0, 30, true, TEXT, PIC_LEFT,
           "Galactic Domination");
  snprintf(buf, sizeof buf, "turn %ld, %s phase", eng_jnum(view, "turn"),
           eng_jstr(view, "phase"));
  pic_text(c, WIDTH - MARGIN, MARGIN + 10, 0, 17, false, MUTED, PIC_RIGHT, buf);
  status_line(&b, buf, sizeof buf);
  bool over = strcmp(eng_jstr(view, "phase"), "over") == 0;
  pic_text(c, MARGIN, MARGIN + 42, WIDTH - 2 * MARGIN, over ? 21 : 19, over,
           over ? GOLD : TEXT, PIC_LEFT, buf);

  /* The players. */
  double pw = (WIDTH - 2 * MARGIN - CELL_GAP) / 2.0;
  json_array_foreach(players, k, x) {
    long seat = eng_jnum(x, "seat");
    double px = MARGIN + (seat == 1 ? pw + CELL_GAP : 0);
    player_panel(c, &b, x, px, MARGIN + HEAD_H, pw, player_h);
  }

  /* The borders between sectors, under the boxes: within a zone a wide
   * band in its colour, between zones a dashed light line. */
  for (size_t i = 0; i < b.n_sectors; i++) {
    size_t a;
    json_t *adj;
    json_array_foreach(json_object_get(b.sector[i].j, "adjacent"), a, adj) {
      int j = sector_index(&b, json_string_value(adj));
      if (j <= (int)i)
        continue; /* once per pair */
      double x0 = cell_x(b.sector[i].col) + CELL_W / 2.0;
      double y0 =
          board_y + b.sector[i].row * (CELL_H + CELL_GAP) + CELL_H / 2.0;
      double x1 = cell_x(b.sector[j].col) + CELL_W / 2.0;
      double y1 =
          board_y + b.sector[j].row * (CELL_H + CELL_GAP) + CELL_H / 2.0;
      bool same = b.sector[i].zone == b.sector[j].zone;
      if (same) {
        pic_colour(
            cr, b.sector[i].zone >= 0 ? b.zone[b.sector[i].zone].colour : MUTED,
            1);
        cairo_set_line_width(cr, 8);
      } else {
        pic_colour(cr, LINK, 1);
        cairo_set_line_width(cr, 3);
        cairo_set_dash(cr, (double[]){8, 5}, 2, 0);
      }
      cairo_move_to(cr, x0, y0);
      cairo_line_to(cr, x1, y1);
      cairo_stroke(cr);
      cairo_set_dash(cr, NULL, 0, 0);
    }
  }

  /* The sectors. */
  long acting = json_is_integer(json_object_get(view, "acting"))
                    ? eng_jnum(view, "acting")
                    : -1;
  for (size_t i = 0; i < b.n_sectors; i++) {
    const json_t *s = b.sector[i].j;
    const char *id = eng_jstr(s, "id");
    uint32_t zc =
        b.sector[i].zone >= 0 ? b.zone[b.sector[i].zone].colour : MUTED;
    double sx = cell_x(b.sector[i].col);
    double sy = board_y + b.sector[i].row * (CELL_H + CELL_GAP);
    pic_round_rect(cr, sx, sy, CELL_W, CELL_H, 10);
    pic_colour(cr, SPACE, 1);
    cairo_fill_preserve(cr);
    pic_colour(cr, zc, 1);
    cairo_set_line_width(cr, 3);
    cairo_stroke(cr);
    /* The id on a tab in the zone's colour. */
    pic_round_rect(cr, sx, sy, 50, 26, 10);
    cairo_fill(cr);
    cairo_rectangle(cr, sx + 10, sy + 16, 40, 10);
    cairo_fill(cr);
    pic_text(c, sx + 25, sy + 3, 0, 17, true, OUTLINE, PIC_CENTRE, id);

    /* The planet and its attached miners on its orbit. */
    bool black_hole = flag(s, "black_hole");
    double plx = sx + CELL_W - 28, ply = sy + 26;
    planet(cr, plx, ply, black_hole, zc);
    int on_orbit = 0;
    size_t j;
    json_t *u;
    json_array_foreach(units, j, u) {
      if (strcmp(eng_jstr(u, "sector"), id) != 0 || type_of(u) != MINER ||
          !flag(u, "attached"))
        continue;
      if (on_orbit < 8) {
        double ang = PI * (0.75 + 0.25 * on_orbit);
        pic_colour(cr, owner_colour(&b, eng_jnum(u, "owner")), 1);
        cairo_arc(cr, plx + 19 * cos(ang), ply + 19 * sin(ang), 4.5, 0, 2 * PI);
        cairo_fill_preserve(cr);
        pic_colour(cr, OUTLINE, 1);
        cairo_set_line_width(cr, 1.2);
        cairo_stroke(cr);
      }
      on_orbit++;
    }
    if (on_orbit > 8) {
      snprintf(buf, sizeof buf, "%d", on_orbit);
      pic_text(c, plx - 34, ply - 8, 0, 13, true, TEXT, PIC_RIGHT, buf);
    }

    /* One row per ship but miners, at most three (a sector's room);
     * a view with more says how many are not drawn. */
    int rows = 0, more = 0;
    json_array_foreach(units, j, u) {
      if (strcmp(eng_jstr(u, "sector"), id) != 0 || type_of(u) == MINER)
        continue;
      if (rows < 3)
        ship_row(c, &b, u, sx, sy + SECTOR_TOP + rows * ROW_H,
                 eng_jnum(u, "id") == acting);
      else
        more++;
      rows++;
    }
    if (more) {
      snprintf(buf, sizeof buf, "+%d", more);
      pic_text(c, sx + CELL_W - 8, sy + 4, 0, 13, true, TEXT, PIC_RIGHT, buf);
    }

    /* The miners not attached, as a row of small discs; a long row is
     * one disc per owner and a count. */
    int loose[SEATS] = {0};
    json_array_foreach(units, j, u) {
      long o = eng_jnum(u, "owner");
      if (strcmp(eng_jstr(u, "sector"), id) == 0 && type_of(u) == MINER &&
          !flag(u, "attached") && o >= 0 && o < SEATS)
        loose[o]++;
    }
    double mx = sx + 16, my = sy + CELL_H - 16;
    for (int o = 0; o < SEATS; o++) {
      if (loose[o] > 5) {
        ship(cr, MINER, mx, my, owner_colour(&b, o), 1);
        snprintf(buf, sizeof buf, "×%d", loose[o]);
        pic_text(c, mx + 10, my - 9, 0, 14, true, TEXT, PIC_LEFT, buf);
        mx += 46;
        continue;
      }
      json_array_foreach(units, j, u) {
        if (eng_jnum(u, "owner") != o ||
            strcmp(eng_jstr(u, "sector"), id) != 0 || type_of(u) != MINER ||
            flag(u, "attached"))
          continue;
        ship(cr, MINER, mx, my, owner_colour(&b, o), acted(&b, u) ? 0.45 : 1);
        /* A damaged miner shows its hull under it. */
        if (eng_jnum(u, "hull") < eng_jnum(u, "max_hull"))
          pips(cr, mx - 6, my + 9, eng_jnum(u, "hull"), eng_jnum(u, "max_hull"),
               HULL, 1);
        mx += 20;
      }
      mx += 6;
    }
  }

  /* The legend. */
  double lx = MARGIN;
  for (int t = 0; t < TYPES; t++) {
    ship(cr, t, lx + 13, legend_y + 11, MUTED, 1);
    pic_text(c, lx + 32, legend_y + 2, 0, 14, false, MUTED, PIC_LEFT,
             type_names[t]);
    lx += 112;
  }
  lx += 8;
  pips(cr, lx, legend_y + 7, 2, 2, SHIELD, 1);
  pic_text(c, lx + 18, legend_y + 2, 0, 14, false, MUTED, PIC_LEFT, "shields");
  pips(cr, lx + 90, legend_y + 7, 2, 3, HULL, 1);
  pic_text(c, lx + 115, legend_y + 2, 0, 14, false, MUTED, PIC_LEFT,
           "hull (dark: lost)");
  cairo_save(cr);
  cairo_translate(cr, lx + 270, legend_y + 11);
  cairo_scale(cr, 0.5, 0.5);
  planet(cr, 0, 0, true, 0);
  cairo_restore(cr);
  pic_text(c, lx + 284, legend_y + 2, 0, 14, false, MUTED, PIC_LEFT,
           "black hole");
  pic_text(c, WIDTH - MARGIN, legend_y + 2, 0, 14, false, MUTED, PIC_RIGHT,
           "faded: has acted this turn");
  return pic_end(c, out, err, cap);
}
