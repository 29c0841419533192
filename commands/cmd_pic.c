/*
 * cmd_pic.c: the pictures of a game's table that messages carry
 * (cmd_msg.image_name), drawn by lair_pic (engine/pic/pic.h) from the
 * game's public view, never a seat's.
 *
 * A picture costs tens of milliseconds, most of it the PNG's compression,
 * on the thread that runs commands, so it is drawn only when it is sure
 * to be sent (cmd_hold_flush, after the commit, once per kept message),
 * the last few are kept by game and state version (a turn's message and a
 * /game status at the same version share one), and the drawing time is
 * a budget (cmd_config.picture_ms): past it a message goes without its
 * picture rather than keep the transport's thread from its other work.
 */
#include "cmd_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static double mono_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

bool cmd_pic_wanted(const cmd_ctx *c, const live *L) {
  return c->cfg.pictures && L && L->g && pic_has(L->g->rs->id);
}

static void log_failure(cmd_ctx *c, int64_t game, const char *why) {
  if (strcmp(c->pic_logged, why) == 0)
    return; /* once per reason: the next message would fail alike */
  cmd_copy(c->pic_logged, sizeof c->pic_logged, why);
  char line[320];
  snprintf(line, sizeof line,
           K_("the picture of game #%" PRId64 " could not be drawn: %s "
              "(messages go without it; this is said once)"),
           game, why);
  if (c->cfg.log)
    c->cfg.log(c->cfg.log_ctx, line);
  else
    fprintf(stderr, "lair: %s\n", line);
}

/* Whether the budget lets one more picture be drawn now. */
static bool budget_allows(cmd_ctx *c, double now) {
  if (c->cfg.picture_ms <= 0)
    return true;
  double cap = (double)c->cfg.picture_ms * CMD_PICTURE_BURST;
  if (c->pic_refilled == 0) {
    c->pic_budget = cap;
  } else if (now > c->pic_refilled) {
    c->pic_budget += (now - c->pic_refilled) * c->cfg.picture_ms;
    if (c->pic_budget > cap)
      c->pic_budget = cap;
  }
  c->pic_refilled = now;
  return c->pic_budget > 0;
}

/* The kept picture of game at version, or NULL. */
static cmd_pic_entry *kept(cmd_ctx *c, int64_t game, int64_t version) {
  for (int i = 0; i < CMD_PIC_CACHE; i++)
    if (c->pics[i].game == game && c->pics[i].version == version &&
        c->pics[i].png.data)
      return &c->pics[i];
  return NULL;
}

/* Draws view into the least recently used entry; NULL with why on
 * failure (in English, as the drawing's own reasons are: it is logged). */
static cmd_pic_entry *draw(cmd_ctx *c, const cmd_msg *m, const char *ruleset,
                           const json_t *view, int turn, char *why,
                           size_t cap) {
  cmd_pic_entry *e = &c->pics[0];
  for (int i = 1; i < CMD_PIC_CACHE; i++)
    if (c->pics[i].used < e->used)
      e = &c->pics[i];
  pic_png_free(&e->png);
  e->game = 0;
  double start = mono_now();
  int rc = pic_draw(ruleset, view, &e->png, why, cap);
  if (c->cfg.picture_ms > 0)
    c->pic_budget -= (mono_now() - start) * 1000.0;
  if (!rc && e->png.len > CMD_FILE_MAX) { /* never, for a table */
    snprintf(why, cap, K_("the picture came out larger than %u bytes"),
             CMD_FILE_MAX);
    pic_png_free(&e->png);
    rc = -1;
  }
  if (rc)
    return NULL;
  e->game = m->game;
  e->version = m->version;
  snprintf(e->name, sizeof e->name,
           K_("game-%" PRId64 "-turn-%d-v%" PRId64 ".png"), m->game, turn,
           m->version);
  return e;
}

void cmd_pic_attach(cmd_ctx *c, cmd_msg *m, const char *ruleset,
                    const json_t *view, int turn, bool say, cmd_lang lang,
                    char *text, size_t cap) {
  m->image_name = NULL;
  m->image_data = NULL;
  m->image_len = 0;
  char why[200] = "";
  cmd_pic_entry *e = kept(c, m->game, m->version);
  if (!e && budget_allows(c, mono_now())) {
    e = draw(c, m, ruleset, view, turn, why, sizeof why);
    if (!e)
      log_failure(c, m->game, why);
  } else if (!e) {
    snprintf(why, sizeof why, "%s",
             T(lang, "Lair is drawing many pictures just now; ask again in a "
                     "few seconds"));
  }
  if (e) {
    e->used = ++c->pic_uses;
    m->image_name = e->name;
    m->image_data = e->png.data;
    m->image_len = e->png.len;
    return;
  }
  if (say) {
    size_t n = strlen(why);
    while (n > 0 && why[n - 1] == '.')
      why[--n] = '\0';
    snprintf(text, cap, T(lang, "%s\n(No picture this time: %s.)"), m->text,
             why);
    cmd_utf8_repair(text);
    m->text = text;
  }
}

void cmd_pic_free(cmd_ctx *c) {
  for (int i = 0; i < CMD_PIC_CACHE; i++) {
    pic_png_free(&c->pics[i].png);
    c->pics[i].game = 0;
  }
}
