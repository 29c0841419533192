/*
 * test_sv_render.c: Supervillain's table for people (sv_render, the
 * ruleset's render): the whole table, one seat's area alone
 * (ENG_RENDER_SEAT) and what lies between the seats (ENG_RENDER_COMMON).
 * A transport lays the table out from the last two, so they must say
 * exactly what the table says, split where the seats' areas begin and
 * end; and since a turn's message shows them to the channel, a seat's
 * area must name no card that is hidden, whoever's view it is drawn from.
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
#include "games/supervillain/sv.h"
#include "sv_position.h"

#define TEXT_MAX 8192


/* Renders what from the view of viewer of st into out. */
static void render(const void *st, int viewer, int what, char *out) {
  json_t *v = sv_ruleset.view(st, viewer);
  assert_non_null(v);
  sv_ruleset.render(v, what, out, TEXT_MAX);
  json_decref(v);
}

/* Three Villains: one with a Project under way and two Facilities, one
 * with nothing on the table, one with a bare Project; an Asteroid in
 * flight; cards in every hand. */
static const char *TABLE_POSITION =
    "{\"rule\": \"a table\", \"players\": 3, \"current\": 1,"
    " \"phase\": \"day\","
    " \"hands\": [[\"mental_restart\", \"colossal_clone\"],"
    "             [\"middle_management\"], []],"
    " \"projects\": [{\"seat\": 0, \"card\": \"doomsday_clock\","
    "                \"mobs\": [{\"card\": \"tractor_beam_techs\"},"
    "                           {\"card\": \"flak_gnomes\", \"proof\": true}]},"
    "               {\"seat\": 2, \"card\": \"asteroid_slingshot\"}],"
    " \"facilities\": [{\"seat\": 0, \"card\": \"overtime_hq\"},"
    "                  {\"seat\": 0, \"card\": \"volcano_lair\","
    "                   \"proof\": true}],"
    " \"asteroids\": [{\"owner\": 2, \"target\": 0, \"card\": \"wormhole\","
    "                  \"charged\": true}],"
    " \"minion_discard\": [\"adrenaline_shot\"]}";

/* The table reads as it always has (the console, /game status and the
 * tests read it); the seat and common renders are its pieces. */
static void test_table_and_pieces(void **unused) {
  (void)unused;
  sv_state s;
  char text[TEXT_MAX];
  sv_position_text(&s, TABLE_POSITION);

  render(&s, -1, ENG_RENDER_TABLE, text);
  assert_string_equal(
      text,
      "**Supervillain** (standard, 5 points to win) - turn 1, Villain 2's "
      "day\n"
      "Decks: Minion 37, Domination 39\n"
      "- **Villain 1**: 3 points, 2 cards in hand\n"
      "  - Project Doomsday Clock Tower: 800m of 1,300m (Mobs: Flak Gnomes "
      "300m [proof], Tractor Beam Techs 500m)\n"
      "  - Secret Facility Overtime Headquarters (1 pt)\n"
      "  - Secret Facility Secret Volcano Lair (2 pts) [proof]\n"
      "- **Villain 2**: 0 points, 1 card in hand\n"
      "- **Villain 3**: 0 points, 0 cards in hand\n"
      "  - Project Asteroid Slingshot: 0m of 800m\n"
      "Asteroids in flight:\n"
      "- charged Wormhole: Villain 3 -> Villain 1\n"
      "Minion discard: Adrenaline Shot\n"
      "Domination discard: empty\n");

  render(&s, -1, ENG_RENDER_SEAT(0), text);
  assert_string_equal(
      text, "Villain 1: 3 points, 2 cards in hand\n"
            "- Project Doomsday Clock Tower: 800m of 1,300m (Mobs: Flak "
            "Gnomes 300m [proof], Tractor Beam Techs 500m)\n"
            "- Secret Facility Overtime Headquarters (1 pt)\n"
            "- Secret Facility Secret Volcano Lair (2 pts) [proof]\n");
  render(&s, -1, ENG_RENDER_SEAT(1), text);
  assert_string_equal(text, "Villain 2: 0 points, 1 card in hand\n");
  render(&s, -1, ENG_RENDER_SEAT(2), text);
  assert_string_equal(text, "Villain 3: 0 points, 0 cards in hand\n"
                            "- Project Asteroid Slingshot: 0m of 800m\n");
  render(&s, -1, ENG_RENDER_SEAT(3), text); /* no such seat */
  assert_string_equal(text, "");

  render(&s, -1, ENG_RENDER_COMMON, text);
  assert_string_equal(
      text,
      "**Supervillain** (standard, 5 points to win) - turn 1, Villain 2's "
      "day\n"
      "Decks: Minion 37, Domination 39\n"
      "Asteroids in flight:\n"
      "- charged Wormhole: Villain 3 -> Villain 1\n"
      "Minion discard: Adrenaline Shot\n"
      "Domination discard: empty\n");
}

/* Team mode: the team is part of a seat's summary line. */
static void test_team_summary(void **unused) {
  (void)unused;
  sv_state s;
  char text[TEXT_MAX];
  sv_position_text(&s, "{\"rule\": \"teams\", \"players\": 4, \"mode\": \"team\","
            " \"phase\": \"day\"}");
  render(&s, -1, ENG_RENDER_SEAT(1), text);
  assert_non_null(strstr(text, "Villain 2: 0 points, "));
  assert_non_null(strstr(text, " cards in hand, team 2\n"));
  assert_null(strchr(text, '*'));
}

/* Appends the table rebuilt from the pieces: the common render's lines
 * before the first line that follows the seats ("Asteroids in
 * flight:" or "Minion discard:"), every seat as the table writes it,
 * then the rest of the common render. */
static void rebuild(const void *st, int players, char *out, size_t cap) {
  char common[TEXT_MAX], seat[TEXT_MAX];
  size_t o = 0;
  render(st, -1, ENG_RENDER_COMMON, common);
  const char *split = strstr(common, "\nAsteroids in flight:\n");
  if (!split)
    split = strstr(common, "\nMinion discard: ");
  assert_non_null(split);
  split++;
  o +=
      (size_t)snprintf(out + o, cap - o, "%.*s", (int)(split - common), common);
  for (int p = 0; p < players; p++) {
    render(st, -1, ENG_RENDER_SEAT(p), seat);
    const char *colon = strstr(seat, ": ");
    assert_non_null(colon);
    assert_true(strncmp(seat, "Villain ", 8) == 0);
    o += (size_t)snprintf(out + o, cap - o, "- **%.*s**", (int)(colon - seat),
                          seat);
    for (const char *l = colon; *l;) {
      const char *nl = strchr(l, '\n');
      assert_non_null(nl);
      o += (size_t)snprintf(out + o, cap - o, "%s%.*s", l == colon ? "" : "  ",
                            (int)(nl - l + 1), l);
      l = nl + 1;
    }
  }
  snprintf(out + o, cap - o, "%s", split);
}

/* The names of cards that only hidden zones hold (hands, decks): no name
 * a public card shares. */
static int hidden_names(const sv_state *s, const char **names, int max) {
  int n = 0;
  for (int i = 0; i < SV_N; i++) {
    int z = s->w[i].zone;
    if (z != SV_Z_HAND && z != SV_Z_MDECK && z != SV_Z_DDECK)
      continue;
    const char *name = sv_card_of(i)->name;
    bool public = false, listed = false;
    for (int k = 0; k < SV_N && !public; k++) {
      int zk = s->w[k].zone;
      public = zk != SV_Z_HAND && zk != SV_Z_MDECK && zk != SV_Z_DDECK &&
               strstr(sv_card_of(k)->name, name);
    }
    for (int k = 0; k < n && !listed; k++)
      listed = strcmp(names[k], name) == 0;
    if (!public && !listed && n < max)
      names[n++] = name;
  }
  return n;
}

/* Along many random games: the pieces rebuild the table exactly; a
 * seat's area reads the same from every view (the public one, its own
 * player's, another player's) and names no hidden card; nor does the
 * common render. */
static void test_pieces_in_play(void **unused) {
  (void)unused;
  long checked = 0, with_areas = 0;
  for (int g = 0; g < 10; g++) {
    eng_config cfg = {.players = 2 + g % 3, .first = -1};
    if (g % 6 == 5) {
      cfg.players = 4;
      snprintf(cfg.mode, sizeof cfg.mode, "team");
    }
    eng_game *G;
    assert_int_equal(eng_game_new(&sv_ruleset, &cfg, 900 + (uint64_t)g, &G),
                     ENG_OK);
    eng_rng pick;
    eng_rng_seed(&pick, (uint64_t)g, 7);
    for (int k = 0; k < 4000 && G->prompt.player >= 0; k++) {
      if (k % 4 == 0) {
        static char table[TEXT_MAX], rebuilt[TEXT_MAX], seat[TEXT_MAX],
            other[TEXT_MAX];
        render(G->state, -1, ENG_RENDER_TABLE, table);
        rebuild(G->state, cfg.players, rebuilt, sizeof rebuilt);
        assert_string_equal(rebuilt, table);
        const char *hidden[SV_N];
        int n_hidden = hidden_names(G->state, hidden, SV_N);
        render(G->state, -1, ENG_RENDER_COMMON, seat);
        for (int h = 0; h < n_hidden; h++)
          assert_null(strstr(seat, hidden[h]));
        for (int p = 0; p < cfg.players; p++) {
          render(G->state, -1, ENG_RENDER_SEAT(p), seat);
          for (int v = 0; v < cfg.players; v++) {
            render(G->state, v, ENG_RENDER_SEAT(p), other);
            assert_string_equal(other, seat);
          }
          for (int h = 0; h < n_hidden; h++)
            if (strstr(seat, hidden[h]))
              fail_msg("seat %d's area names %s, which is hidden:\n%s", p,
                       hidden[h], seat);
          with_areas += strchr(seat, '\n')[1] != '\0';
        }
        checked++;
      }
      assert_int_equal(
          eng_game_answer_index(
              G, (int)eng_rng_below(&pick, (uint32_t)G->prompt.n), NULL),
          ENG_OK);
    }
    eng_game_free(G);
  }
  assert_true(checked > 200);
  assert_true(with_areas > 100); /* Projects and Facilities were shown */
}

/* The ruleset has a colour for its messages. */
static void test_colour(void **unused) {
  (void)unused;
  const eng_ruleset *rs = eng_find("supervillain");
  assert_non_null(rs);
  assert_true(rs->colour > 0 && rs->colour <= 0xffffff);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_table_and_pieces),
      cmocka_unit_test(test_team_summary),
      cmocka_unit_test(test_pieces_in_play),
      cmocka_unit_test(test_colour),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
