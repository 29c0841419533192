/*
 * pic_int.h: what the games' pictures share: a canvas with Lair's font,
 * text in a box, colours, and the PNG at the end. Only engine/pic/ sees
 * it.
 */
#ifndef LAIR_PIC_INT_H
#define LAIR_PIC_INT_H

#include "pic.h"

#include <cairo.h>
#include <jansson.h>
#include <pango/pangocairo.h>
#include <stdint.h>

/* A game's drawing function: the picture of view into *out (see
 * pic_draw). */
typedef int (*pic_draw_fn)(const json_t *view, pic_png *out, char *err,
                           size_t cap);

int pic_supervillain(const json_t *view, pic_png *out, char *err, size_t cap);
int pic_galactic(const json_t *view, pic_png *out, char *err, size_t cap);

/* Seat's name for the picture: the view's "names" member (the players'
 * names in seat order, which the commands layer adds to the view it
 * draws) when it has one for seat, else word and the seat's number
 * ("Villain 2"). Writes into buf (cap bytes) and returns it. */
const char *pic_seat(const json_t *view, long seat, const char *word, char *buf,
                     size_t cap);

/* A picture being drawn: a recording surface of width x height units, its
 * cairo context, and a pango layout in Lair's font. */
typedef struct pic_canvas {
  cairo_surface_t *surface;
  cairo_t *cr;
  PangoLayout *layout;
  int width, height;      /* the layout's units */
  int pixels_w, pixels_h; /* the PNG's size (pic_canvas.c: PIC_SCALE) */
} pic_canvas;

enum { PIC_LEFT, PIC_CENTRE, PIC_RIGHT };

/* Starts a canvas filled with background (0xRRGGBB). Returns 0, or -1
 * with a reason in err (out of memory; Lair's font not found, naming the
 * file and the Debian package that has it). */
int pic_begin(pic_canvas *c, int width, int height, uint32_t background,
              char *err, size_t cap);

/* Sets cairo's source colour to 0xRRGGBB with alpha a (0..1). */
void pic_colour(cairo_t *cr, uint32_t rgb, double a);

/* Draws utf8 (plain text, not markup) at (x, y), its top-left corner when
 * align is PIC_LEFT (PIC_CENTRE: x is the centre, PIC_RIGHT: the right
 * edge), in size pixels, bold or not, in colour rgb, on one line
 * ellipsized to width pixels (width <= 0: no limit). Returns the height
 * drawn in pixels. */
double pic_text(pic_canvas *c, double x, double y, double width, double size,
                bool bold, uint32_t rgb, int align, const char *utf8);

/* A rectangle with rounded corners (radius r) as cairo's current path. */
void pic_round_rect(cairo_t *cr, double x, double y, double w, double h,
                    double r);

/* Ends the canvas: writes its PNG into *out and frees the canvas.
 * Returns 0, or -1 with a reason in err (out is then empty). */
int pic_end(pic_canvas *c, pic_png *out, char *err, size_t cap);

/* Frees a canvas without writing it (after an error); fine twice. */
void pic_abort(pic_canvas *c);

#endif
