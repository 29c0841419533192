/*
 * test_pic.c: the table pictures (engine/pic/, lair_pic): golden images,
 * the same bytes every time and from every thread, the errors, and the
 * privacy of a picture drawn from the public view.
 *
 * Golden images: each case draws a view and compares the PNG's bytes with
 * tests/data/pictures/NAME.png. Most views are built here from the engine
 * (a seeded playout of the real rules, answered by the AI), so the
 * goldens follow the views players get; the view drawn is committed
 * beside its golden as NAME.json, and compared too, so a failure says
 * whether the engine's view changed or the drawing did. One view,
 * galactic_features.json, is written by hand (from a real view) to show
 * what playouts seldom reach: a black hole, both charges, a ship in deep
 * space, ships to place, many miners.
 *
 * When a picture changes on purpose, rewrite the goldens (and the
 * engine-built views) and look at them before committing:
 *
 *   LAIR_UPDATE_GOLDEN=1 build/<dir>/test_pic
 *
 * A failing comparison leaves what it drew as NAME.actual.png in the
 * working directory (the build directory under ctest). The goldens are
 * exact bytes: they hold for the fonts and libraries of Debian 12
 * (cairo 1.16, pango 1.50, fontconfig 2.14, freetype 2.12, libpng 1.6,
 * fonts-dejavu-core 2.37), the platform Lair is built and shipped on.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cairo.h>
#include <cmocka.h>

#include "eng.h"
#include "games/supervillain/sv.h"
#include "pic.h"
#include "sv_position.h"

#define MAX_PNG (150 * 1024) /* a full table's picture, at most */

/* ---- views from the engine -------------------------------------------- */

/* Plays `answers` answers (fewer if the game ends) of a new game of
 * ruleset id, every seat at AI level, and returns the public view (the
 * caller's). The playout is seeded, so the view is the same every run. */
static json_t *played_view(const char *id, int players, uint64_t seed,
                           int answers, int level) {
  const eng_ruleset *rs = eng_find(id);
  assert_non_null(rs);
  eng_config cfg = {.players = players, .first = 0};
  eng_game *g;
  assert_int_equal(eng_game_new(rs, &cfg, seed, &g), ENG_OK);
  eng_rng pick;
  eng_rng_seed(&pick, seed, 7);
  for (int k = 0; k < answers && g->prompt.player >= 0; k++) {
    int i = eng_ai_choose(rs, g->state, &g->prompt, level, &pick);
    assert_true(i >= 0);
    assert_int_equal(eng_game_answer_index(g, i, NULL), ENG_OK);
  }
  json_t *v = rs->view(g->state, -1);
  assert_non_null(v);
  eng_game_free(g);
  return v;
}

static char *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap + 1);
  assert_non_null(buf);
  size_t got;
  while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
    n += got;
    if (n == cap) {
      cap *= 2;
      buf = realloc(buf, cap + 1);
      assert_non_null(buf);
    }
  }
  fclose(f);
  buf[n] = '\0';
  *len = n;
  return buf;
}

static void write_file(const char *path, const void *data, size_t len) {
  FILE *f = fopen(path, "wb");
  if (!f)
    fail_msg("cannot write %s", path);
  assert_int_equal(fwrite(data, 1, len, f), len);
  assert_int_equal(fclose(f), 0);
}

static bool updating(void) {
  const char *u = getenv("LAIR_UPDATE_GOLDEN");
  return u && strcmp(u, "1") == 0;
}

/* The view as the committed NAME.json holds it. */
static char *view_text(const json_t *view) {
  char *t = json_dumps(view, JSON_INDENT(1) | JSON_SORT_KEYS);
  assert_non_null(t);
  return t;
}

/* Draws view as game and checks it against the golden NAME.png (and,
 * when engine_built, the view against NAME.json); with
 * LAIR_UPDATE_GOLDEN=1 rewrites them instead. */
static void golden(const char *game, const char *name, const json_t *view,
                   bool engine_built) {
  char path[512], err[256];
  pic_png png;
  assert_int_equal(pic_draw(game, view, &png, err, sizeof err), 0);
  assert_true(png.len > 8 && memcmp(png.data, "\x89PNG", 4) == 0);
  if (png.len >= MAX_PNG)
    fail_msg("%s: the PNG is %zu bytes, over %d", name, png.len, MAX_PNG);

  if (engine_built) {
    char *text = view_text(view);
    snprintf(path, sizeof path, "%s/%s.json", PIC_TEST_DATA, name);
    if (updating())
      write_file(path, text, strlen(text));
    size_t len;
    char *want = read_file(path, &len);
    if (!want)
      fail_msg("%s is missing: LAIR_UPDATE_GOLDEN=1 writes it", path);
    if (strcmp(want, text) != 0) {
      snprintf(path, sizeof path, "%s.actual.json", name);
      write_file(path, text, strlen(text));
      fail_msg("%s: the engine's view changed (see %s in the working "
               "directory); if that is meant, rewrite the goldens with "
               "LAIR_UPDATE_GOLDEN=1 and look at them",
               name, path);
    }
    free(want);
    free(text);
  }

  snprintf(path, sizeof path, "%s/%s.png", PIC_TEST_DATA, name);
  if (updating()) {
    write_file(path, png.data, png.len);
    print_message("rewrote %s (%zu bytes)\n", path, png.len);
  }
  size_t len;
  char *want = read_file(path, &len);
  if (!want)
    fail_msg("%s is missing: LAIR_UPDATE_GOLDEN=1 writes it", path);
  if (len != png.len || memcmp(want, png.data, len) != 0) {
    snprintf(path, sizeof path, "%s.actual.png", name);
    write_file(path, png.data, png.len);
    fail_msg("%s: the picture differs from its golden (%zu bytes, the "
             "golden %zu; this one is %s in the working directory); if "
             "that is meant, rewrite the goldens with LAIR_UPDATE_GOLDEN=1 "
             "and look at them",
             name, png.len, len, path);
  }
  free(want);
  pic_png_free(&png);
}

static json_t *load_view(const char *name) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s.json", PIC_TEST_DATA, name);
  json_error_t e;
  json_t *v = json_load_file(path, 0, &e);
  if (!v)
    fail_msg("%s: %s (line %d)", path, e.text, e.line);
  return v;
}

/* The views the goldens draw: a full four-Villain table in the middle of
 * a game (Projects with Mobs, Facilities, six Asteroids in flight), a
 * finished two-Villain game, and a Galactic Domination board in the
 * middle of a ship's actions. */
static json_t *sv_table(void) {
  return played_view("supervillain", 4, 35, 220, ENG_AI_HEURISTIC);
}
static json_t *sv_over(void) {
  return played_view("supervillain", 2, 3, 100000, ENG_AI_HEURISTIC);
}
static json_t *gal_board(void) {
  return played_view("galactic", 2, 9, 800, ENG_AI_RANDOM);
}

/* ---- the goldens --------------------------------------------------------- */

static void test_golden_supervillain(void **unused) {
  (void)unused;
  json_t *v = sv_table();
  assert_string_equal(json_string_value(json_object_get(v, "phase")), "day");
  assert_int_equal(json_array_size(json_object_get(v, "players")), 4);
  golden("supervillain", "supervillain_table", v, true);
  json_decref(v);

  v = sv_over();
  assert_non_null(json_object_get(v, "winners"));
  golden("supervillain", "supervillain_over", v, true);
  json_decref(v);
}

static void test_golden_galactic(void **unused) {
  (void)unused;
  json_t *v = gal_board();
  golden("galactic", "galactic_board", v, true);
  json_decref(v);

  v = load_view("galactic_features");
  golden("galactic", "galactic_features", v, false);
  json_decref(v);
}

/* Two pictures are the very same bytes (a macro, so that a failure names
 * the caller's line). */
#define assert_same_png(x, y)                                                  \
  do {                                                                         \
    assert_int_equal((x).len, (y).len);                                        \
    assert_memory_equal((x).data, (y).data, (y).len);                          \
  } while (0)

/* ---- the same bytes every time ------------------------------------------- */

static void test_same_bytes_twice(void **unused) {
  (void)unused;
  char err[256];
  json_t *views[2] = {sv_table(), gal_board()};
  const char *games[2] = {"supervillain", "galactic"};
  for (int k = 0; k < 2; k++) {
    pic_png a, b;
    assert_int_equal(pic_draw(games[k], views[k], &a, err, sizeof err), 0);
    assert_int_equal(pic_draw(games[k], views[k], &b, err, sizeof err), 0);
    assert_same_png(a, b);
    pic_png_free(&a);
    pic_png_free(&b);
    json_decref(views[k]);
  }
}

/* pic_prepare loads the font (a second call is harmless), and
 * pic_release_pages gives back the process's mappings of the font's
 * files: afterwards a picture is the very same bytes (the pages come
 * back from the file), and a second release finds those pages mapped
 * again. */
static void test_release_pages(void **unused) {
  (void)unused;
  char err[256];
  assert_int_equal(pic_prepare(err, sizeof err), 0);
  assert_int_equal(pic_prepare(err, sizeof err), 0);
  json_t *view = sv_table();
  pic_png a, b;
  assert_int_equal(pic_draw("supervillain", view, &a, err, sizeof err), 0);
  assert_true(pic_release_pages() > 0);
  assert_int_equal(pic_draw("supervillain", view, &b, err, sizeof err), 0);
  assert_same_png(a, b);
  assert_true(pic_release_pages() > 0);
  pic_png_free(&a);
  pic_png_free(&b);
  json_decref(view);
}

/* A view with the players' names (the commands layer adds them) draws
 * them where the seats are named: different bytes from the bare view,
 * and the very bytes of the bare view when the names are the numbered
 * words the picture would use anyway. */
static void test_names(void **unused) {
  (void)unused;
  char err[256];
  json_t *views[2] = {sv_table(), gal_board()};
  const char *games[2] = {"supervillain", "galactic"};
  const char *words[2] = {"Villain", "Player"};
  for (int k = 0; k < 2; k++) {
    size_t n = json_array_size(json_object_get(views[k], "players"));
    json_t *named = json_deep_copy(views[k]), *same = json_deep_copy(views[k]);
    json_t *a = json_array(), *b = json_array();
    for (size_t i = 0; i < n; i++) {
      char w[32];
      snprintf(w, sizeof w, "%s %zu", words[k], i + 1);
      json_array_append_new(a, json_sprintf("Member number %zu", i + 1));
      json_array_append_new(b, json_string(w));
    }
    json_object_set_new(named, "names", a);
    json_object_set_new(same, "names", b);
    pic_png bare, with, alike;
    assert_int_equal(pic_draw(games[k], views[k], &bare, err, sizeof err), 0);
    assert_int_equal(pic_draw(games[k], named, &with, err, sizeof err), 0);
    assert_int_equal(pic_draw(games[k], same, &alike, err, sizeof err), 0);
    assert_true(with.len != bare.len ||
                memcmp(with.data, bare.data, bare.len) != 0);
    assert_same_png(alike, bare);
    pic_png_free(&bare);
    pic_png_free(&with);
    pic_png_free(&alike);
    json_decref(named);
    json_decref(same);
    json_decref(views[k]);
  }
}

/* Pictures drawn by several threads at once (pic_draw is thread-safe)
 * are the very bytes one thread draws. */
typedef struct job {
  const char *game;
  const json_t *view;
  pic_png png;
  int rc;
} job;

static void *draw_job(void *arg) {
  job *j = arg;
  char err[256];
  j->rc = 0;
  for (int k = 0; k < 3 && j->rc == 0; k++) {
    pic_png_free(&j->png);
    j->rc = pic_draw(j->game, j->view, &j->png, err, sizeof err);
  }
  return NULL;
}

static void test_threads(void **unused) {
  (void)unused;
  char err[256];
  json_t *sv = sv_table(), *gal = gal_board();
  pic_png want[2];
  assert_int_equal(pic_draw("supervillain", sv, &want[0], err, sizeof err), 0);
  assert_int_equal(pic_draw("galactic", gal, &want[1], err, sizeof err), 0);
  enum { N = 4 };
  job jobs[N];
  pthread_t th[N];
  for (int k = 0; k < N; k++) {
    jobs[k] = (job){
        k % 2 ? "galactic" : "supervillain", k % 2 ? gal : sv, {NULL, 0}, -1};
    assert_int_equal(pthread_create(&th[k], NULL, draw_job, &jobs[k]), 0);
  }
  for (int k = 0; k < N; k++) {
    assert_int_equal(pthread_join(th[k], NULL), 0);
    assert_int_equal(jobs[k].rc, 0);
    assert_same_png(jobs[k].png, want[k % 2]);
    pic_png_free(&jobs[k].png);
  }
  pic_png_free(&want[0]);
  pic_png_free(&want[1]);
  json_decref(sv);
  json_decref(gal);
}

/* ---- the PNG itself ------------------------------------------------------ */

typedef struct reader {
  const pic_png *png;
  size_t at;
} reader;

static cairo_status_t read_png(void *closure, unsigned char *data,
                               unsigned int length) {
  reader *r = closure;
  if (r->png->len - r->at < length)
    return CAIRO_STATUS_READ_ERROR;
  memcpy(data, r->png->data + r->at, length);
  r->at += length;
  return CAIRO_STATUS_SUCCESS;
}

/* pic_end writes its PNG itself (engine/pic/pic_canvas.c): libpng, which
 * checks every chunk's CRC and the zlib stream, reads it back through
 * cairo, the whole file, at its size, with the table's background in the
 * corner. */
static void test_png_decodes(void **unused) {
  (void)unused;
  char err[256];
  json_t *views[2] = {sv_table(), gal_board()};
  const char *games[2] = {"supervillain", "galactic"};
  const uint32_t background[2] = {0x141829, 0x10131f};
  for (int k = 0; k < 2; k++) {
    pic_png png;
    assert_int_equal(pic_draw(games[k], views[k], &png, err, sizeof err), 0);
    reader r = {&png, 0};
    cairo_surface_t *s =
        cairo_image_surface_create_from_png_stream(read_png, &r);
    assert_int_equal(cairo_surface_status(s), CAIRO_STATUS_SUCCESS);
    /* A 1200-unit table written at 5/6 (pic_canvas.c: PIC_SCALE). */
    assert_int_equal(cairo_image_surface_get_width(s), 1000);
    assert_true(cairo_image_surface_get_height(s) > 500);
    assert_int_equal(cairo_image_surface_get_format(s), CAIRO_FORMAT_RGB24);
    const uint32_t *px = (const uint32_t *)cairo_image_surface_get_data(s);
    assert_int_equal(px[0] & 0xffffff, background[k]);
    cairo_surface_destroy(s);
    pic_png_free(&png);
    json_decref(views[k]);
  }
}

/* ---- errors -------------------------------------------------------------- */

/* A failed draw leaves no PNG and says why. */
static void assert_refused(const char *game, const json_t *view,
                           const char *reason) {
  char err[256] = "";
  pic_png png = {(unsigned char *)"x", 1};
  assert_int_equal(pic_draw(game, view, &png, err, sizeof err), -1);
  assert_null(png.data);
  assert_int_equal(png.len, 0);
  if (!strstr(err, reason))
    fail_msg("expected an error with \"%s\", got \"%s\"", reason, err);
}

static void test_wrong_game(void **unused) {
  (void)unused;
  json_t *sv = sv_table(), *gal = gal_board();
  assert_refused("supervillain", gal, "not a Supervillain table");
  assert_refused("galactic", sv, "not a Galactic Domination board");
  json_t *odd = json_pack("{s:s}", "game", "supervillain");
  assert_refused("supervillain", odd, "not a Supervillain table");
  json_decref(odd);
  odd = json_pack("{s:s, s:[], s:[], s:[], s:[]}", "game", "galactic", "zones",
                  "sectors", "players", "units");
  assert_refused("galactic", odd, "not a Galactic Domination board");
  json_decref(odd);
  /* A sector off the 5 x 5 grid. */
  json_t *bad = json_deep_copy(gal);
  json_object_set_new(json_array_get(json_object_get(bad, "sectors"), 0), "col",
                      json_integer(7));
  assert_refused("galactic", bad, "off the grid");
  json_decref(bad);
  json_t *arr = json_array();
  assert_refused("supervillain", arr, "not a game's view");
  assert_refused("supervillain", NULL, "not a game's view");
  json_decref(arr);
  json_decref(sv);
  json_decref(gal);
}

static void test_unknown_game(void **unused) {
  (void)unused;
  json_t *sv = sv_table();
  assert_refused("chess", sv, "Lair draws no picture of chess games");
  assert_refused(NULL, sv, "Lair draws no picture");
  assert_refused("villainous", sv, "no picture of villainous games");
  assert_true(pic_has("supervillain"));
  assert_true(pic_has("galactic"));
  assert_false(pic_has("villainous"));
  assert_false(pic_has(NULL));
  pic_png_free(NULL);
  pic_png empty = {NULL, 0};
  pic_png_free(&empty);
  json_decref(sv);
}

/* ---- privacy ------------------------------------------------------------- */

/* Two tables alike in everything open, different in what is hidden: the
 * cards in the hands (the same number each) and the order of the decks
 * (another seed). */
#define PRIVATE(seed, hands)                                                   \
  "{\"rule\": \"privacy\", \"players\": 3, \"current\": 1, \"seed\": " seed    \
  ", \"phase\": \"day\", \"hands\": " hands                                    \
  ", \"projects\": [{\"seat\": 0, \"card\": \"doomsday_clock\","               \
  "                \"mobs\": [{\"card\": \"tractor_beam_techs\"},"             \
  "                           {\"card\": \"flak_gnomes\", \"proof\": true}]}," \
  "               {\"seat\": 2, \"card\": \"asteroid_slingshot\"}],"           \
  " \"facilities\": [{\"seat\": 0, \"card\": \"overtime_hq\"}],"               \
  " \"asteroids\": [{\"owner\": 2, \"target\": 0, \"card\": \"wormhole\","     \
  "                  \"charged\": true}],"                                     \
  " \"minion_discard\": [\"adrenaline_shot\"]}"
static const char *const PRIVATE_A =
    PRIVATE("1", "[[\"mental_restart\", \"colossal_clone\"],"
                 " [\"middle_management\"], []]");
static const char *const PRIVATE_B =
    PRIVATE("2", "[[\"jetpack_couriers\", \"plasma_stokers\"],"
                 " [\"warranty_voiders\"], []]");

static void test_privacy(void **unused) {
  (void)unused;
  static sv_state a, b;
  sv_position_text(&a, PRIVATE_A);
  sv_position_text(&b, PRIVATE_B);
  char err[256];

  /* The states do differ where it is hidden: the seats' own views. */
  json_t *va = sv_ruleset.view(&a, 0), *vb = sv_ruleset.view(&b, 0);
  assert_false(json_equal(va, vb));
  json_decref(va);
  json_decref(vb);

  va = sv_ruleset.view(&a, -1);
  vb = sv_ruleset.view(&b, -1);
  pic_png pa, pb;
  assert_int_equal(pic_draw("supervillain", va, &pa, err, sizeof err), 0);
  assert_int_equal(pic_draw("supervillain", vb, &pb, err, sizeof err), 0);
  assert_same_png(pa, pb);

  /* A seat's view holds its hand, which the picture leaves out: drawn
   * from seat 0's view, the table is the public one. */
  json_t *seat = sv_ruleset.view(&a, 0);
  pic_png ps;
  assert_int_equal(pic_draw("supervillain", seat, &ps, err, sizeof err), 0);
  assert_same_png(ps, pa);
  pic_png_free(&pa);
  pic_png_free(&pb);
  pic_png_free(&ps);
  json_decref(seat);
  json_decref(va);
  json_decref(vb);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_golden_supervillain),
      cmocka_unit_test(test_golden_galactic),
      cmocka_unit_test(test_same_bytes_twice),
      cmocka_unit_test(test_release_pages),
      cmocka_unit_test(test_names),
      cmocka_unit_test(test_threads),
      cmocka_unit_test(test_png_decodes),
      cmocka_unit_test(test_wrong_game),
      cmocka_unit_test(test_unknown_game),
      cmocka_unit_test(test_privacy),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
