/*
 * pic_canvas.c: the canvas every game's picture is drawn on (pic_int.h):
 * a cairo image surface, text laid out by pango in Lair's own font, and
 * the PNG written at the end.
 *
 * The font is loaded once per process through a private fontconfig
 * configuration that knows two files and nothing else (DejaVu Sans and
 * DejaVu Sans Bold from Debian's fonts-dejavu-core): the system's
 * fontconfig files, its other fonts and the user's settings never change
 * a picture. Antialiasing, hinting, the language and the text direction
 * are fixed as well, so the same view gives the same PNG bytes on every
 * host with the same libraries (the golden-image tests compare them).
 *
 * Pango's font map is not safe to use from two threads at once, so a
 * canvas holds one process-wide lock from pic_begin until pic_end or
 * pic_abort: pictures are drawn one at a time, and a drawing function
 * must never begin a second canvas while it holds one.
 */
#define _DEFAULT_SOURCE /* madvise: not in C17 or POSIX's base */
#include "pic_int.h"

#include <errno.h>
#include <fontconfig/fontconfig.h>
#include <math.h>
#include <pango/pangofc-fontmap.h>
#include <png.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define PIC_FONT_DIR "/usr/share/fonts/truetype/dejavu/"
#define PIC_FAMILY "DejaVu Sans"

static const char *const font_files[] = {
    PIC_FONT_DIR "DejaVuSans.ttf",
    PIC_FONT_DIR "DejaVuSans-Bold.ttf",
};

/* The process's font: made once by load_font, then read-only but for
 * the pango objects, which are used only under lock. */
static struct {
  PangoFontMap *map;
  PangoContext *context;
  char error[256]; /* why there is no font, or "" */
} font;

static pthread_once_t font_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* Frees the font at exit, so that a leak checker finds nothing of it
 * left: the font map, and the private configuration, which the font map
 * and fontconfig (as its current configuration: load_font says why) each
 * hold a reference to. fontconfig keeps a font's character set as offsets
 * rather than pointers, so LeakSanitizer takes whatever of it is still
 * allocated at exit for a leak: freeing it is the cure, not a
 * suppression. Nothing else in Lair uses fontconfig, so FcFini() cannot
 * pull it from under another user. A picture begun after this gets an
 * error, not a freed font. */
static void free_font(void) {
  pthread_mutex_lock(&lock);
  if (font.context)
    g_object_unref(font.context);
  if (font.map) {
    pango_fc_font_map_set_config(PANGO_FC_FONT_MAP(font.map), NULL);
    g_object_unref(font.map);
  }
  font.context = NULL;
  font.map = NULL;
  snprintf(font.error, sizeof font.error,
           "Lair's font was freed: the process is exiting.");
  FcFini();
  pthread_mutex_unlock(&lock);
}

static void load_font(void) {
  for (size_t i = 0; i < sizeof font_files / sizeof font_files[0]; i++)
    if (access(font_files[i], R_OK) != 0) {
      snprintf(font.error, sizeof font.error,
               "Lair's font %s is missing: install the Debian package "
               "fonts-dejavu-core.",
               font_files[i]);
      return;
    }
  FcConfig *config = FcConfigCreate();
  if (!config) {
    snprintf(font.error, sizeof font.error,
             "Lair ran out of memory loading its font.");
    return;
  }
  for (size_t i = 0; i < sizeof font_files / sizeof font_files[0]; i++)
    if (!FcConfigAppFontAddFile(config, (const FcChar8 *)font_files[i])) {
      snprintf(font.error, sizeof font.error,
               "Lair could not load its font %s: reinstall the Debian "
               "package fonts-dejavu-core.",
               font_files[i]);
      FcConfigDestroy(config);
      return;
    }
  /* Pango's font map calls FcInit() once per process, in a thread of its
   * own, whatever configuration it is then given, and FcInit() would load
   * the system's configuration and scan every font installed: made the
   * process's current configuration first, Lair's is the one FcInit()
   * finds, and nothing else is read. (Nothing else in Lair uses
   * fontconfig.) */
  if (!FcConfigSetCurrent(config)) {
    snprintf(font.error, sizeof font.error,
             "Lair could not load its fonts: fontconfig refused them.");
    FcConfigDestroy(config);
    return;
  }
  PangoFontMap *map =
      pango_cairo_font_map_new_for_font_type(CAIRO_FONT_TYPE_FT);
  if (!map) {
    FcConfigDestroy(config);
    snprintf(font.error, sizeof font.error,
             "Lair's pango has no FreeType fonts to draw pictures with.");
    return;
  }
  /* The font map takes its own reference to the configuration. */
  pango_fc_font_map_set_config(PANGO_FC_FONT_MAP(map), config);
  FcConfigDestroy(config);

  PangoContext *context = pango_font_map_create_context(map);
  cairo_font_options_t *options = cairo_font_options_create();
  cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY);
  cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE);
  cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF);
  pango_cairo_context_set_font_options(context, options);
  cairo_font_options_destroy(options);
  /* Sizes are absolute pixels, but the resolution, the language (which
   * picks glyph variants) and the direction would otherwise come from
   * the host and its environment. */
  pango_cairo_context_set_resolution(context, 96.0);
  pango_context_set_language(context, pango_language_from_string("en"));
  pango_context_set_base_dir(context, PANGO_DIRECTION_LTR);

  font.map = map;
  font.context = context;
  atexit(free_font);
}

/* Lays out layout's text in Lair's font, bold or not, size pixels
 * high (under the lock). */
static void set_font(PangoLayout *layout, bool bold, double size) {
  PangoFontDescription *fd = pango_font_description_new();
  pango_font_description_set_family_static(fd, PIC_FAMILY);
  pango_font_description_set_weight(fd, bold ? PANGO_WEIGHT_BOLD
                                             : PANGO_WEIGHT_NORMAL);
  pango_font_description_set_absolute_size(fd, size * PANGO_SCALE);
  pango_layout_set_font_description(layout, fd);
  pango_font_description_free(fd);
}

int pic_prepare(char *err, size_t cap) {
  pthread_once(&font_once, load_font);
  pthread_mutex_lock(&lock);
  int rc = 0;
  if (!font.context) {
    snprintf(err, cap, "%s", font.error);
    rc = -1;
  } else {
    /* Both faces opened once (FreeType's, and HarfBuzz's for the
     * shaping), so that the first picture does not do it. */
    PangoLayout *layout = pango_layout_new(font.context);
    for (int bold = 0; bold < 2; bold++) {
      set_font(layout, bold, 16);
      pango_layout_set_text(layout, "Lair", -1);
      PangoRectangle logical;
      pango_layout_get_pixel_extents(layout, NULL, &logical);
    }
    g_object_unref(layout);
  }
  pthread_mutex_unlock(&lock);
  return rc;
}

/* A line of /proc/self/maps ("lo-hi perms offset dev inode path"): the
 * path of a private, read-only mapping of a file, with its range in *lo
 * and *hi; NULL for any other line. line loses its newline. */
static const char *map_line(char *line, uintptr_t *lo, uintptr_t *hi) {
  char *end;
  errno = 0;
  unsigned long long a = strtoull(line, &end, 16);
  if (errno || *end != '-')
    return NULL;
  unsigned long long b = strtoull(end + 1, &end, 16);
  if (errno || *end != ' ' || b <= a)
    return NULL;
  char *p = end + 1; /* the permissions, as "r-xp" */
  if (strlen(p) < 5 || p[1] != '-' || p[3] != 'p')
    return NULL;
  /* past the permissions, offset, device and inode to the path */
  for (int field = 0; field < 4; field++) {
    p = strchr(p, ' ');
    if (!p)
      return NULL;
    p += strspn(p, " ");
  }
  p[strcspn(p, "\n")] = '\0';
  if (*p != '/')
    return NULL;
  *lo = (uintptr_t)a;
  *hi = (uintptr_t)b;
  return p;
}

size_t pic_release_pages(void) {
  /* Under the lock, so that no face is opened or closed meanwhile: a
   * range read here is still the font's when it is advised. */
  pthread_mutex_lock(&lock);
  FILE *f = fopen("/proc/self/maps", "re");
  if (!f) {
    pthread_mutex_unlock(&lock);
    return 0;
  }
  size_t total = 0;
  char line[4352]; /* a mapping's line: its path is at most PATH_MAX */
  while (fgets(line, sizeof line, f)) {
    uintptr_t lo, hi;
    const char *path = map_line(line, &lo, &hi);
    if (!path)
      continue;
    for (size_t i = 0; i < sizeof font_files / sizeof font_files[0]; i++)
      if (strcmp(path, font_files[i]) == 0 &&
          madvise((void *)lo, hi - lo, MADV_DONTNEED) == 0)
        total += hi - lo;
  }
  fclose(f);
  pthread_mutex_unlock(&lock);
  return total;
}

/* The pictures are laid out on a canvas of the width and height their
 * game asks for and written at PIC_SCALE of it: 1000 pixels across for a
 * 1200-unit table, which Discord shows as sharply (it scales pictures to
 * its chat's width anyway) for 30% fewer pixels to fill, encode, upload
 * and hold in memory while drawing. */
#define PIC_SCALE (5.0 / 6.0)

int pic_begin(pic_canvas *c, int width, int height, uint32_t background,
              char *err, size_t cap) {
  memset(c, 0, sizeof *c);
  if (width < 1 || height < 1 || width > 8192 || height > 8192) {
    snprintf(err, cap, "A picture of %d x %d pixels is not drawn.", width,
             height);
    return -1;
  }
  pthread_once(&font_once, load_font);
  pthread_mutex_lock(&lock);
  if (!font.context) {
    snprintf(err, cap, "%s", font.error);
    pthread_mutex_unlock(&lock);
    return -1;
  }
  c->width = width;
  c->height = height;
  /* The drawing is recorded, and rendered strip by strip as it is
   * written (pic_end). */
  c->pixels_w = (int)ceil(width * PIC_SCALE);
  c->pixels_h = (int)ceil(height * PIC_SCALE);
  cairo_rectangle_t extents = {0, 0, c->pixels_w, c->pixels_h};
  c->surface =
      cairo_recording_surface_create(CAIRO_CONTENT_COLOR_ALPHA, &extents);
  c->cr = cairo_create(c->surface);
  if (cairo_status(c->cr) != CAIRO_STATUS_SUCCESS) {
    snprintf(err, cap, "Lair ran out of memory drawing a picture.");
    pic_abort(c);
    return -1;
  }
  cairo_scale(c->cr, PIC_SCALE, PIC_SCALE);
  pango_cairo_update_context(c->cr, font.context);
  c->layout = pango_layout_new(font.context);
  pango_layout_set_single_paragraph_mode(c->layout, TRUE);
  pic_colour(c->cr, background, 1.0);
  cairo_paint(c->cr);
  return 0;
}

void pic_colour(cairo_t *cr, uint32_t rgb, double a) {
  cairo_set_source_rgba(cr, ((rgb >> 16) & 0xff) / 255.0,
                        ((rgb >> 8) & 0xff) / 255.0, (rgb & 0xff) / 255.0, a);
}

double pic_text(pic_canvas *c, double x, double y, double width, double size,
                bool bold, uint32_t rgb, int align, const char *utf8) {
  /* A view's text is UTF-8 by jansson's checks; anything else is drawn
   * with its bad bytes replaced rather than handed to pango, which would
   * warn on stderr and draw nothing. */
  gchar *valid = NULL;
  if (!utf8)
    utf8 = "";
  else if (!g_utf8_validate(utf8, -1, NULL))
    utf8 = valid = g_utf8_make_valid(utf8, -1);
  set_font(c->layout, bold, size);
  if (width > 0) {
    pango_layout_set_width(c->layout, (int)(width * PANGO_SCALE));
    pango_layout_set_ellipsize(c->layout, PANGO_ELLIPSIZE_END);
  } else {
    pango_layout_set_width(c->layout, -1);
    pango_layout_set_ellipsize(c->layout, PANGO_ELLIPSIZE_NONE);
  }
  pango_layout_set_text(c->layout, utf8, -1);
  g_free(valid);

  PangoRectangle logical;
  pango_layout_get_pixel_extents(c->layout, NULL, &logical);
  double left = x - logical.x;
  if (align == PIC_CENTRE)
    left = x - logical.x - logical.width / 2.0;
  else if (align == PIC_RIGHT)
    left = x - logical.x - logical.width;
  pic_colour(c->cr, rgb, 1.0);
  cairo_move_to(c->cr, left, y);
  pango_cairo_show_layout(c->cr, c->layout);
  cairo_new_path(c->cr);
  return logical.height;
}

void pic_round_rect(cairo_t *cr, double x, double y, double w, double h,
                    double r) {
  const double quarter = 1.5707963267948966;
  if (r > w / 2)
    r = w / 2;
  if (r > h / 2)
    r = h / 2;
  cairo_new_sub_path(cr);
  cairo_arc(cr, x + w - r, y + r, r, -quarter, 0);
  cairo_arc(cr, x + w - r, y + h - r, r, 0, quarter);
  cairo_arc(cr, x + r, y + h - r, r, quarter, 2 * quarter);
  cairo_arc(cr, x + r, y + r, r, 2 * quarter, 3 * quarter);
  cairo_close_path(cr);
}

/* ---- the PNG ----------------------------------------------------------------
 * cairo's own writer (cairo_surface_write_to_png_stream) has libpng try
 * all five row filters on every row and deflate at zlib's level 6: 80% of
 * a picture's time went there (40-60 ms of CPU for a full table, where
 * the drawing takes about 10), and the file came out larger. A table is
 * flat colour and text, which deflate matches best unfiltered, so pic_end
 * drives libpng itself: 8-bit RGB (the canvas is opaque: pic_begin paints
 * it all), filter None on every row, zlib at PNG_LEVEL. */
#define PNG_LEVEL 3

/* The PNG being written: a buffer that doubles as it fills. */
typedef struct png_buf {
  unsigned char *data;
  size_t len, cap;
  bool failed;
} png_buf;

static void png_put(png_structp png, png_bytep p, size_t n) {
  png_buf *b = png_get_io_ptr(png);
  if (b->failed || n == 0)
    return;
  if (n > SIZE_MAX / 4 - b->len) {
    b->failed = true;
    return;
  }
  if (b->len + n > b->cap) {
    size_t cap = b->cap ? b->cap : 128 * 1024;
    while (cap < b->len + n)
      cap *= 2;
    unsigned char *q = realloc(b->data, cap);
    if (!q) {
      b->failed = true;
      return;
    }
    b->data = q;
    b->cap = cap;
  }
  memcpy(b->data + b->len, p, n);
  b->len += n;
}

static void png_flush_none(png_structp png) { (void)png; }

/* Writes the picture recorded on surface (w x h pixels) as a PNG into b
 * with libpng, rendering it TILE_ROWS rows at a time: the whole image is
 * never in memory at once, only a strip of it (a picture's peak memory is
 * a bot's peak memory). Called with the lock held: replaying the
 * recording draws the glyphs. Returns false on any failure (b may hold
 * part of it). */
#define TILE_ROWS 128
static bool write_png(cairo_surface_t *surface, int w, int h, png_buf *b) {
  cairo_surface_t *tile =
      cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, TILE_ROWS);
  png_structp png =
      png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
  png_infop info = png ? png_create_info_struct(png) : NULL;
  unsigned char *volatile row = malloc(3 * (size_t)w);
  if (!png || !info || !row ||
      cairo_surface_status(tile) != CAIRO_STATUS_SUCCESS) {
    png_destroy_write_struct(&png, &info);
    free(row);
    cairo_surface_destroy(tile);
    return false;
  }
  if (setjmp(png_jmpbuf(png))) { /* libpng's way of reporting an error */
    png_destroy_write_struct(&png, &info);
    free(row);
    cairo_surface_destroy(tile);
    return false;
  }
  png_set_write_fn(png, b, png_put, png_flush_none);
  png_set_IHDR(png, info, (png_uint_32)w, (png_uint_32)h, 8, PNG_COLOR_TYPE_RGB,
               PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
               PNG_FILTER_TYPE_DEFAULT);
  png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_NONE);
  png_set_compression_level(png, PNG_LEVEL);
  png_write_info(png, info);
  int stride = cairo_image_surface_get_stride(tile);
  for (int y0 = 0; y0 < h; y0 += TILE_ROWS) {
    cairo_t *cr = cairo_create(tile);
    cairo_set_source_surface(cr, surface, 0, -y0);
    cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE);
    cairo_paint(cr);
    cairo_destroy(cr);
    cairo_surface_flush(tile);
    const unsigned char *px = cairo_image_surface_get_data(tile);
    for (int y = 0; y < TILE_ROWS && y0 + y < h; y++) {
      /* cairo's ARGB32 is one native-endian word per pixel,
       * premultiplied: opaque, so its colour bytes are the colour. */
      const uint32_t *src = (const uint32_t *)(px + (size_t)y * (size_t)stride);
      for (int x = 0; x < w; x++) {
        row[3 * x] = (unsigned char)(src[x] >> 16);
        row[3 * x + 1] = (unsigned char)(src[x] >> 8);
        row[3 * x + 2] = (unsigned char)src[x];
      }
      png_write_row(png, row);
    }
  }
  png_write_end(png, NULL);
  png_destroy_write_struct(&png, &info);
  free(row);
  cairo_surface_destroy(tile);
  return !b->failed;
}

int pic_end(pic_canvas *c, pic_png *out, char *err, size_t cap) {
  out->data = NULL;
  out->len = 0;
  if (!c->surface) {
    snprintf(err, cap, "The picture was not begun.");
    return -1;
  }
  cairo_surface_flush(c->surface);
  cairo_status_t st = cairo_status(c->cr);
  png_buf b = {0};
  bool ok = st == CAIRO_STATUS_SUCCESS &&
            write_png(c->surface, c->pixels_w, c->pixels_h, &b);
  pic_abort(c);
  if (!ok) {
    free(b.data);
    if (st != CAIRO_STATUS_SUCCESS)
      snprintf(err, cap, "Lair could not draw the picture: %s.",
               cairo_status_to_string(st));
    else
      snprintf(err, cap, "Lair ran out of memory drawing a picture.");
    return -1;
  }
  out->data = b.data;
  out->len = b.len;
  return 0;
}

void pic_abort(pic_canvas *c) {
  /* Only a begun canvas has a surface, and it holds the lock. */
  bool held = c->surface != NULL;
  if (c->layout)
    g_object_unref(c->layout);
  if (c->cr)
    cairo_destroy(c->cr);
  if (c->surface)
    cairo_surface_destroy(c->surface);
  c->layout = NULL;
  c->cr = NULL;
  c->surface = NULL;
  if (held)
    pthread_mutex_unlock(&lock);
}

const char *pic_seat(const json_t *view, long seat, const char *word, char *buf,
                     size_t cap) {
  const json_t *n = json_array_get(json_object_get(view, "names"),
                                   seat < 0 ? (size_t)-1 : (size_t)seat);
  if (json_is_string(n) && json_string_length(n) > 0)
    snprintf(buf, cap, "%s", json_string_value(n));
  else
    snprintf(buf, cap, "%s %ld", word, seat + 1);
  return buf;
}
