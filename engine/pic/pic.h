/*
 * pic.h: pictures of a game's table, drawn from a view.
 *
 * A ruleset's view (eng_ruleset.view) is all a picture reads, exactly as
 * the Markdown render: a picture drawn from the public view (-1) can never
 * show a hidden card. Pictures are PNG files drawn with cairo and pango in
 * a font Lair loads through its own fontconfig configuration (DejaVu Sans
 * from Debian's fonts-dejavu-core, nothing else), with fixed hinting and
 * antialiasing, so the same view gives the same bytes on every Debian 12
 * host (the golden-image tests compare them).
 *
 * This library (lair_pic) is apart from the engine core, which links only
 * libc and jansson; transports link it to attach pictures.
 */
#ifndef LAIR_PIC_H
#define LAIR_PIC_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* A PNG in memory: data (malloc'd, the caller's) of len bytes. */
typedef struct pic_png {
  unsigned char *data;
  size_t len;
} pic_png;

/* Returns whether Lair draws pictures of the ruleset with this id. */
bool pic_has(const char *ruleset_id);

/* Draws the picture of view, a view (any viewer's) of a game of the
 * ruleset ruleset_id, into *out (the caller frees it with pic_png_free).
 * Returns 0, or -1 with *out empty and a reason for people in err (cap
 * bytes, NUL-terminated): no picture for that game, a view that is not
 * that game's, the font missing, out of memory. Thread-safe. */
int pic_draw(const char *ruleset_id, const json_t *view, pic_png *out,
             char *err, size_t cap);

/* Loads Lair's font now rather than at the first picture (a process
 * that will draw calls it during its start-up, before it gives back the
 * memory start-up touched). Returns 0, or -1 with the reason in err, as
 * pic_draw would give it. Thread-safe. */
int pic_prepare(char *err, size_t cap);

/* Gives back this process's mappings of the font's files (FreeType and
 * HarfBuzz map them, read-only): the pages stay in the page cache, and
 * the next picture maps back only the glyphs it draws. Loading the font
 * reads every glyph of both files once (fontconfig's scan), about 1 MB
 * that would otherwise stay in the process's RSS. Returns the bytes of
 * the ranges given back. Safe at any time, from any thread. */
size_t pic_release_pages(void);

/* Frees p's data and empties it; NULL or an empty p is fine. */
void pic_png_free(pic_png *p);

#endif
