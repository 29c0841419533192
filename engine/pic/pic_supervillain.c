/*
 * pic_supervillain.c: the picture of a Supervillain table, drawn from a
 * view (engine/games/supervillain/sv_io.c, sv_view).
 *
 * The layout, top to bottom: the game and whose turn it is (and the
 * winners once it is over); the decks, the discard piles' tops and the
 * Domination card drawn and awaiting a decision; the Asteroids in flight,
 * each with who launched it at whom; then one panel per Villain, two to
 * a row: points, cards in hand, the Projects with their Mobs and the
 * Minion Power put toward each cost, and the Secret Facilities.
 *
 * It reads only the view's table. A seat's view also holds that seat's
 * hand, which is left out: the picture is of the table, and may be shown
 * to everyone whoever's view it was drawn from. Every shape is drawn here
 * (no card art); the layout is computed from fixed row heights, so the
 * function that draws a panel also measures it first (canvas NULL), and
 * a row of two panels is as tall as the taller.
 */
#include "pic_int.h"

#include "games/supervillain/sv.h"
#include "rsutil.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define WIDTH 1200
#define MARGIN 20
#define GAP 16
#define PANEL_W ((WIDTH - 2 * MARGIN - GAP) / 2)
#define MAX_SEATS 8
#define PI 3.14159265358979323846

/* Colours (0xRRGGBB): a dark table, which reads well in Discord's dark
 * and light themes alike. */
enum {
  BG = 0x141829,
  PANEL = 0x1f2540,
  BOX = 0x283052,
  EDGE = 0x3a4370,
  TEXT = 0xeef1fb,
  MUTED = 0x9aa3c7,
  GOLD = 0xf2c14e,
  POWER = 0x5cc777,
  POWER_FULL = 0x9be36d,
  TRACK = 0x151a30,
  FACILITY = 0xb48cf2,
  ROCK = 0xa08f7d,
  CHARGE = 0xffd23f,
  SHIELD = 0x7fd4ff,
};

/* Each seat's colour, for its panel and wherever the seat is named. */
static const uint32_t seat_colour[MAX_SEATS] = {
    0xe8615a, 0x4f9be8, 0x5cc777, 0xe6a93a,
    0xd070d0, 0x4fd1c5, 0xc0c050, 0xa0a0a0,
};

/* ---- small readers ------------------------------------------------------ */

static bool flag(const json_t *o, const char *key) {
  return json_is_true(json_object_get(o, key));
}

static uint32_t colour_of(long seat) {
  return seat >= 0 && seat < MAX_SEATS ? seat_colour[seat] : MUTED;
}

/* Minion Power as the rulebook writes it: "1,300m". */
static void power_text(long m, char *buf, size_t cap) {
  if (m >= 1000 || m <= -1000)
    snprintf(buf, cap, "%ld,%03ldm", m / 1000, labs(m % 1000));
  else
    snprintf(buf, cap, "%ldm", m);
}

/* ---- shapes -------------------------------------------------------------- */

/* Text on c, or nothing when measuring (c NULL). */
static void text(pic_canvas *c, double x, double y, double w, double size,
                 bool bold, uint32_t rgb, int align, const char *s) {
  if (c)
    pic_text(c, x, y, w, size, bold, rgb, align, s);
}

static void box(pic_canvas *c, double x, double y, double w, double h, double r,
                uint32_t fill, uint32_t edge, double line) {
  if (!c)
    return;
  pic_round_rect(c->cr, x, y, w, h, r);
  pic_colour(c->cr, fill, 1.0);
  if (line > 0) {
    cairo_fill_preserve(c->cr);
    pic_colour(c->cr, edge, 1.0);
    cairo_set_line_width(c->cr, line);
    cairo_stroke(c->cr);
  } else
    cairo_fill(c->cr);
}

/* A five-pointed star of outer radius r centred on (x, y): points. */
static void star(pic_canvas *c, double x, double y, double r, uint32_t rgb) {
  if (!c)
    return;
  for (int k = 0; k < 10; k++) {
    double a = -PI / 2 + k * PI / 5, rr = k % 2 ? r * 0.45 : r;
    if (k == 0)
      cairo_move_to(c->cr, x + rr * cos(a), y + rr * sin(a));
    else
      cairo_line_to(c->cr, x + rr * cos(a), y + rr * sin(a));
  }
  cairo_close_path(c->cr);
  pic_colour(c->cr, rgb, 1.0);
  cairo_fill(c->cr);
}

/* A card seen from the back, w x h at (x, y): a deck or a hand. */
static void card_back(pic_canvas *c, double x, double y, double w, double h,
                      uint32_t rgb) {
  if (!c)
    return;
  box(c, x, y, w, h, 3, rgb, TEXT, 1.5);
  cairo_set_line_width(c->cr, 1.5);
  pic_colour(c->cr, TEXT, 0.55);
  pic_round_rect(c->cr, x + 3.5, y + 3.5, w - 7, h - 7, 2);
  cairo_stroke(c->cr);
}

/* A small stack of card backs: a deck of n cards (none when n is 0). */
static void deck(pic_canvas *c, double x, double y, long n, uint32_t rgb) {
  if (!c)
    return;
  if (n <= 0) {
    cairo_set_line_width(c->cr, 1.5);
    cairo_set_dash(c->cr, (double[]){4, 3}, 2, 0);
    pic_colour(c->cr, MUTED, 1.0);
    pic_round_rect(c->cr, x + 4, y, 26, 38, 3);
    cairo_stroke(c->cr);
    cairo_set_dash(c->cr, NULL, 0, 0);
    return;
  }
  int shown = n > 2 ? 3 : (int)n;
  for (int k = shown - 1; k >= 0; k--)
    card_back(c, x + 4 * k, y + 4 - 2 * k, 26, 36, rgb);
}

/* A shield: the Asteroid-proof token. */
static void shield(pic_canvas *c, double x, double y, double s) {
  if (!c)
    return;
  cairo_t *cr = c->cr;
  cairo_move_to(cr, x, y);
  cairo_line_to(cr, x + s / 2, y - s * 0.12);
  cairo_line_to(cr, x + s, y);
  cairo_curve_to(cr, x + s, y + s * 0.55, x + s * 0.75, y + s * 0.85, x + s / 2,
                 y + s);
  cairo_curve_to(cr, x + s * 0.25, y + s * 0.85, x, y + s * 0.55, x, y);
  cairo_close_path(cr);
  pic_colour(cr, SHIELD, 1.0);
  cairo_fill_preserve(cr);
  pic_colour(cr, BG, 1.0);
  cairo_set_line_width(cr, 1);
  cairo_stroke(cr);
}

/* An Asteroid: a lumpy rock of radius r, with a ring of sparks when it
 * is charged. */
static void rock(pic_canvas *c, double x, double y, double r, bool charged) {
  if (!c)
    return;
  static const double lump[9] = {1.0,  0.82, 0.95, 0.78, 1.0,
                                 0.86, 0.97, 0.8,  0.92};
  cairo_t *cr = c->cr;
  if (charged) {
    pic_colour(cr, CHARGE, 1.0);
    cairo_set_line_width(cr, 2);
    cairo_set_dash(cr, (double[]){3, 3}, 2, 0);
    cairo_arc(cr, x, y, r + 4, 0, 2 * PI);
    cairo_stroke(cr);
    cairo_set_dash(cr, NULL, 0, 0);
  }
  for (int k = 0; k < 9; k++) {
    double a = k * 2 * PI / 9, rr = r * lump[k];
    if (k == 0)
      cairo_move_to(cr, x + rr * cos(a), y + rr * sin(a));
    else
      cairo_line_to(cr, x + rr * cos(a), y + rr * sin(a));
  }
  cairo_close_path(cr);
  pic_colour(cr, ROCK, 1.0);
  cairo_fill(cr);
  pic_colour(cr, 0x6e6152, 1.0);
  cairo_arc(cr, x - r * 0.3, y - r * 0.2, r * 0.22, 0, 2 * PI);
  cairo_fill(cr);
  cairo_arc(cr, x + r * 0.35, y + r * 0.3, r * 0.16, 0, 2 * PI);
  cairo_fill(cr);
}

/* A Minion: a head and shoulders in the owner's colour. */
static void minion(pic_canvas *c, double x, double y, uint32_t rgb) {
  if (!c)
    return;
  cairo_t *cr = c->cr;
  pic_colour(cr, rgb, 1.0);
  cairo_arc(cr, x + 7, y + 4.5, 4, 0, 2 * PI);
  cairo_fill(cr);
  cairo_arc(cr, x + 7, y + 16, 7, PI, 2 * PI);
  cairo_close_path(cr);
  cairo_fill(cr);
}

/* A Secret Facility: a small base under a dome. */
static void facility(pic_canvas *c, double x, double y) {
  if (!c)
    return;
  cairo_t *cr = c->cr;
  pic_colour(cr, FACILITY, 1.0);
  cairo_arc(cr, x + 9, y + 11, 7, PI, 2 * PI);
  cairo_close_path(cr);
  cairo_fill(cr);
  cairo_rectangle(cr, x, y + 11, 18, 5);
  cairo_fill(cr);
}

/* A right-pointing arrow from x0 to x1 at height y. */
static void arrow(pic_canvas *c, double x0, double x1, double y, uint32_t rgb) {
  if (!c)
    return;
  cairo_t *cr = c->cr;
  pic_colour(cr, rgb, 1.0);
  cairo_set_line_width(cr, 2.5);
  cairo_move_to(cr, x0, y);
  cairo_line_to(cr, x1 - 6, y);
  cairo_stroke(cr);
  cairo_move_to(cr, x1, y);
  cairo_line_to(cr, x1 - 9, y - 6);
  cairo_line_to(cr, x1 - 9, y + 6);
  cairo_close_path(cr);
  cairo_fill(cr);
}

/* A small rounded label with text, right edge at x; returns its width. */
static double tag(pic_canvas *c, double right, double y, const char *s,
                  uint32_t fill, uint32_t ink) {
  double w = 8.5 * (double)strlen(s) + 14;
  box(c, right - w, y, w, 20, 10, fill, fill, 0);
  text(c, right - w / 2, y + 2, 0, 13, true, ink, PIC_CENTRE, s);
  return w;
}

/* ---- the parts of the table ---------------------------------------------- */

/* Row heights of a panel. */
enum {
  HEAD_H = 52,
  PROJECT_H = 56, /* a Project's name and its Power bar */
  MOB_H = 21,
  GAP_H = 8, /* under a Project */
  FACILITY_H = 28,
  EMPTY_H = 24,
  PAD = 12,
  COMMON_H = 60, /* a deck's or a discard pile's box */
};

enum { MINION_BACK = 0x3f7d5a, DOMINATION_BACK = 0x7a4a9e };

/* Seat p's panel at (x, y), width PANEL_W; returns its height. With c
 * NULL it only measures. */
static double seat_panel(pic_canvas *c, const json_t *v, const json_t *p,
                         double x, double y, double h_row) {
  long seat = eng_jnum(p, "seat");
  uint32_t sc = colour_of(seat);
  bool current =
      eng_jnum(v, "current") == seat && !json_object_get(v, "winners");
  bool won = false;
  size_t w;
  json_t *wj;
  json_array_foreach(json_object_get(v, "winners"), w, wj) {
    won |= json_integer_value(wj) == seat;
  }
  const json_t *projects = json_object_get(p, "projects");
  const json_t *facilities = json_object_get(p, "facilities");
  char buf[96], a[24], b[24];

  double h = HEAD_H + PAD;
  size_t k;
  json_t *pr;
  json_array_foreach(projects, k, pr) {
    size_t mobs = json_array_size(json_object_get(pr, "mobs"));
    h += PROJECT_H + MOB_H * (double)mobs + GAP_H;
  }
  h += FACILITY_H * (double)json_array_size(facilities);
  if (json_array_size(projects) + json_array_size(facilities) == 0)
    h += EMPTY_H;
  h += PAD;
  if (!c)
    return h;
  if (h_row > h)
    h = h_row;

  /* The frame: the seat's colour down the left, a brighter edge for the
   * Villain whose turn it is, a golden one for a winner. */
  uint32_t edge = won ? GOLD : current ? sc : EDGE;
  box(c, x, y, PANEL_W, h, 12, PANEL, edge, won || current ? 3 : 1);
  cairo_save(c->cr);
  pic_round_rect(c->cr, x, y, PANEL_W, h, 12);
  cairo_clip(c->cr);
  pic_colour(c->cr, sc, 1.0);
  cairo_rectangle(c->cr, x, y, 8, h);
  cairo_fill(c->cr);
  cairo_restore(c->cr);

  double left = x + 22, right = x + PANEL_W - 16;
  pic_seat(v, seat, "Villain", buf, sizeof buf);
  text(c, left, y + 13, 200, 22, true, sc, PIC_LEFT, buf);
  double tx = left + 140;
  if (json_object_get(p, "team")) {
    snprintf(buf, sizeof buf, "team %ld", eng_jnum(p, "team") + 1);
    box(c, tx, y + 16, 66, 20, 10, BOX, BOX, 0);
    text(c, tx + 33, y + 18, 0, 13, true, MUTED, PIC_CENTRE, buf);
    tx += 74;
  }
  if (current || won) {
    box(c, tx, y + 16, 86, 20, 10, won ? GOLD : sc, sc, 0);
    text(c, tx + 43, y + 18, 0, 13, true, BG, PIC_CENTRE,
         won ? "winner" : "their turn");
  }
  /* Points and hand, right-aligned. */
  long hand = eng_jnum(p, "hand");
  snprintf(buf, sizeof buf, "%ld in hand", hand);
  card_back(c, right - 112, y + 13, 17, 24, sc);
  text(c, right - 88, y + 16, 88, 16, false, TEXT, PIC_LEFT, buf);
  long pts = eng_jnum(p, "points");
  snprintf(buf, sizeof buf, "%ld pt%s", pts, pts == 1 ? "" : "s");
  star(c, right - 214, y + 26, 11, GOLD);
  text(c, right - 198, y + 13, 80, 20, true, GOLD, PIC_LEFT, buf);

  double cy = y + HEAD_H;
  pic_colour(c->cr, EDGE, 1.0);
  cairo_rectangle(c->cr, left, cy, right - left, 1);
  cairo_fill(c->cr);
  cy += PAD;

  /* Projects, each with its Power bar and its Mobs. There are no
   * section titles: a Project is a box with a bar, a Facility a dome
   * with its points, and every letter costs the PNG about 100 bytes. */
  if (json_array_size(projects) + json_array_size(facilities) == 0) {
    text(c, left, cy + 2, 0, 15, false, MUTED, PIC_LEFT,
         "No Projects, no Secret Facilities");
    cy += EMPTY_H;
  }
  json_array_foreach(projects, k, pr) {
    const json_t *mobs = json_object_get(pr, "mobs");
    double bh = PROJECT_H + MOB_H * (double)json_array_size(mobs);
    box(c, left, cy, right - left, bh, 8, BOX, BOX, 0);
    long power = eng_jnum(pr, "power"), cost = eng_jnum(pr, "cost");
    power_text(power, a, sizeof a);
    power_text(cost, b, sizeof b);
    snprintf(buf, sizeof buf, "%s / %s", a, b);
    double used = 0;
    if (flag(pr, "used"))
      used = tag(c, right - 10, cy + 8, "used", EDGE, MUTED) + 6;
    text(c, right - 10 - used, cy + 8, 0, 15, true, TEXT, PIC_RIGHT, buf);
    text(c, left + 12, cy + 7, right - left - 210 - used, 16, true, TEXT,
         PIC_LEFT, eng_jstr(pr, "name"));
    /* Power toward the cost. */
    double bx = left + 12, bw = right - left - 24, by = cy + 34;
    double f = cost > 0 ? (double)power / (double)cost : 0;
    if (f > 1)
      f = 1;
    if (f < 0)
      f = 0;
    pic_round_rect(c->cr, bx, by, bw, 10, 5);
    pic_colour(c->cr, TRACK, 1.0);
    cairo_fill(c->cr);
    if (f > 0) {
      pic_round_rect(c->cr, bx, by, bw * f, 10, 5);
      pic_colour(c->cr, f >= 1 ? POWER_FULL : POWER, 1.0);
      cairo_fill(c->cr);
    }
    double my = cy + PROJECT_H - 6;
    size_t m;
    json_t *mob;
    json_array_foreach(mobs, m, mob) {
      minion(c, left + 18, my + 1, sc);
      power_text(eng_jnum(mob, "power"), a, sizeof a);
      text(c, right - 12, my + 1, 0, 14, false, POWER, PIC_RIGHT, a);
      double name_w = right - left - 150;
      text(c, left + 40, my + 1, name_w, 14, false, TEXT, PIC_LEFT,
           eng_jstr(mob, "name"));
      if (flag(mob, "proof"))
        shield(c, right - 90, my + 3, 14);
      my += MOB_H;
    }
    cy += bh + GAP_H;
  }

  /* Secret Facilities, with their points. */
  json_t *fa;
  json_array_foreach(facilities, k, fa) {
    facility(c, left + 4, cy + 4);
    long fp = eng_jnum(fa, "points");
    snprintf(buf, sizeof buf, "%ld pt%s", fp, fp == 1 ? "" : "s");
    text(c, right - 10, cy + 3, 0, 15, true, GOLD, PIC_RIGHT, buf);
    double used = 0;
    if (flag(fa, "used"))
      used = tag(c, right - 70, cy + 3, "used", EDGE, MUTED) + 6;
    if (flag(fa, "proof"))
      shield(c, right - 92 - used, cy + 6, 15);
    text(c, left + 32, cy + 3, right - left - 160 - used, 15, false, TEXT,
         PIC_LEFT, eng_jstr(fa, "name"));
    cy += FACILITY_H;
  }
  return h;
}

/* A discard pile at (x, y), w wide: its count and its top card. */
static void discard(pic_canvas *c, double x, double y, double w,
                    const char *title, const json_t *pile, uint32_t rgb) {
  char buf[96];
  size_t n = json_array_size(pile);
  box(c, x, y, w, COMMON_H, 8, BOX, BOX, 0);
  snprintf(buf, sizeof buf, "%s (%zu)", title, n);
  text(c, x + 12, y + 8, w - 24, 14, true, MUTED, PIC_LEFT, buf);
  if (n == 0) {
    text(c, x + 12, y + 30, w - 24, 16, false, MUTED, PIC_LEFT, "empty");
    return;
  }
  if (c) {
    pic_colour(c->cr, rgb, 1.0);
    cairo_rectangle(c->cr, x + 12, y + 31, 4, 18);
    cairo_fill(c->cr);
  }
  text(c, x + 22, y + 29, w - 34, 16, true, TEXT, PIC_LEFT,
       eng_jstr(json_array_get(pile, n - 1), "name"));
}

/* A deck at (x, y), w wide: a stack of card backs and its count. */
static void deck_box(pic_canvas *c, double x, double y, double w,
                     const char *title, long n, uint32_t rgb) {
  char buf[32];
  box(c, x, y, w, COMMON_H, 8, BOX, BOX, 0);
  deck(c, x + 12, y + 12, n, rgb);
  text(c, x + 58, y + 8, w - 66, 14, true, MUTED, PIC_LEFT, title);
  snprintf(buf, sizeof buf, "%ld", n);
  text(c, x + 58, y + 25, w - 66, 22, true, TEXT, PIC_LEFT, buf);
}

int pic_supervillain(const json_t *view, pic_png *out, char *err, size_t cap) {
  out->data = NULL;
  out->len = 0;
  const json_t *players = json_object_get(view, "players");
  if (strcmp(eng_jstr(view, "game"), "supervillain") != 0 ||
      !json_is_array(players) || json_array_size(players) == 0 ||
      json_array_size(players) > MAX_SEATS) {
    snprintf(err, cap, "The view to draw is not a Supervillain table.");
    return -1;
  }
  const json_t *asteroids = json_object_get(view, "asteroids");
  const json_t *drawn = json_object_get(view, "drawn");
  const json_t *winners = json_object_get(view, "winners");
  size_t n_players = json_array_size(players);
  size_t n_ast = json_array_size(asteroids);

  /* Heights first: the header, the common band, the Asteroids, then
   * each row of two panels as tall as its taller panel. */
  double head_h = winners ? 104 : 72;
  double common_h = COMMON_H + (json_is_object(drawn) ? 42 : 0) + 16;
  double ast_h = 30 + (n_ast ? 34.0 * (double)((n_ast + 1) / 2) : 30) + 12;
  double row_h[MAX_SEATS / 2] = {0};
  for (size_t i = 0; i < n_players; i++) {
    double h = seat_panel(NULL, view, json_array_get(players, i), 0, 0, 0);
    if (h > row_h[i / 2])
      row_h[i / 2] = h;
  }
  double height = MARGIN + head_h + common_h + ast_h;
  for (size_t r = 0; r < (n_players + 1) / 2; r++)
    height += row_h[r] + GAP;
  height += MARGIN - GAP;

  pic_canvas cv;
  if (pic_begin(&cv, WIDTH, (int)ceil(height), BG, err, cap))
    return -1;
  pic_canvas *c = &cv;
  char buf[160], who[64];

  /* The head: the game, the turn, the winners. */
  double y = MARGIN;
  text(c, MARGIN, y, 0, 30, true, TEXT, PIC_LEFT, "Supervillain");
  snprintf(buf, sizeof buf, "%s · %ld points to win", eng_jstr(view, "mode"),
           eng_jnum(view, "target_points"));
  text(c, WIDTH - MARGIN, y + 8, 0, 17, false, MUTED, PIC_RIGHT, buf);
  long cur = eng_jnum(view, "current");
  if (winners)
    snprintf(buf, sizeof buf, "Turn %ld · game over", eng_jnum(view, "turn"));
  else
    snprintf(buf, sizeof buf, "Turn %ld · %s's %s", eng_jnum(view, "turn"),
             pic_seat(view, cur, "Villain", who, sizeof who),
             sv_phase_text(eng_jstr(view, "phase")));
  text(c, MARGIN, y + 40, 0, 19, false, TEXT, PIC_LEFT, buf);
  if (winners) {
    size_t nw = json_array_size(winners);
    if (nw == 0)
      snprintf(buf, sizeof buf, "No winner: the world is saved!");
    else {
      /* At most MAX_SEATS names of 14 bytes: buf holds them all. */
      size_t len = (size_t)snprintf(buf, sizeof buf, "The Supervillain is");
      size_t k;
      json_t *w;
      json_array_foreach(winners, k, w) {
        if (len >= sizeof buf || k >= MAX_SEATS)
          break;
        len += (size_t)snprintf(buf + len, sizeof buf - len, "%s %s",
                                k ? " and" : "",
                                pic_seat(view, (long)json_integer_value(w),
                                         "Villain", who, sizeof who));
      }
      if (len + 1 < sizeof buf)
        snprintf(buf + len, sizeof buf - len, "!");
    }
    star(c, MARGIN + 12, y + 84, 12, GOLD);
    text(c, MARGIN + 32, y + 72, WIDTH - 2 * MARGIN - 32, 22, true, GOLD,
         PIC_LEFT, buf);
  }
  y += head_h;

  /* The common band: decks, discard piles, the drawn card. */
  double inner = WIDTH - 2 * MARGIN, small = 200;
  double wide = (inner - 2 * small - 3 * 10) / 2;
  deck_box(c, MARGIN, y, small, "Minion deck", eng_jnum(view, "minion_deck"),
           MINION_BACK);
  deck_box(c, MARGIN + small + 10, y, small, "Domination deck",
           eng_jnum(view, "domination_deck"), DOMINATION_BACK);
  discard(c, MARGIN + 2 * small + 20, y, wide, "Minion discard",
          json_object_get(view, "minion_discard"), MINION_BACK);
  discard(c, MARGIN + 2 * small + wide + 30, y, wide, "Domination discard",
          json_object_get(view, "domination_discard"), DOMINATION_BACK);
  if (json_is_object(drawn)) {
    double dy = y + COMMON_H + 10;
    box(c, MARGIN, dy, inner, 32, 8, BOX, GOLD, 1.5);
    card_back(c, MARGIN + 10, dy + 4, 17, 24, DOMINATION_BACK);
    snprintf(buf, sizeof buf, "Drawn, awaiting %s's decision:",
             pic_seat(view, cur, "Villain", who, sizeof who));
    text(c, MARGIN + 38, dy + 7, 0, 16, false, GOLD, PIC_LEFT, buf);
    text(c, MARGIN + 370, dy + 6, inner - 380, 16, true, TEXT, PIC_LEFT,
         eng_jstr(drawn, "name"));
  }
  y += common_h;

  /* Asteroids in flight, two columns: the rock, its name, who launched
   * it and at whom. */
  text(c, MARGIN, y, 0, 14, true, MUTED, PIC_LEFT, "ASTEROIDS IN FLIGHT");
  double ay = y + 30;
  if (n_ast == 0)
    text(c, MARGIN, ay, 0, 16, false, MUTED, PIC_LEFT, "none");
  size_t k;
  json_t *ast;
  json_array_foreach(asteroids, k, ast) {
    double ax = MARGIN + (k % 2 ? PANEL_W + GAP : 0);
    double ry = ay + 34.0 * (double)(k / 2);
    long from = eng_jnum(ast, "owner"), to = eng_jnum(ast, "target");
    bool charged = flag(ast, "charged");
    box(c, ax, ry - 3, PANEL_W, 30, 8, BOX, BOX, 0);
    rock(c, ax + 17, ry + 12, 9, charged);
    text(c, ax + 36, ry + 3, charged ? 242 : 320, 15, true, TEXT, PIC_LEFT,
         eng_jstr(ast, "name"));
    if (charged)
      tag(c, ax + 358, ry + 2, "charged", CHARGE, BG);
    pic_seat(view, from, "Villain", buf, sizeof buf);
    text(c, ax + 366, ry + 3, 72, 15, true, colour_of(from), PIC_LEFT, buf);
    arrow(c, ax + 440, ax + 474, ry + 12, TEXT);
    pic_seat(view, to, "Villain", buf, sizeof buf);
    text(c, ax + 480, ry + 3, PANEL_W - 490, 15, true, colour_of(to), PIC_LEFT,
         buf);
  }
  y += ast_h;

  /* The Villains, two to a row. */
  for (size_t i = 0; i < n_players; i++) {
    double px = MARGIN + (i % 2 ? PANEL_W + GAP : 0);
    seat_panel(c, view, json_array_get(players, i), px, y, row_h[i / 2]);
    if (i % 2 || i + 1 == n_players)
      y += row_h[i / 2] + GAP;
  }
  return pic_end(c, out, err, cap);
}
