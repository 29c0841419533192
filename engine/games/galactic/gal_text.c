/*
 * gal_text.c: Galactic Domination for people: the board as Markdown,
 * sector by sector, each player's fleet and purse, and the turn. (What an
 * answer did is told by the rules themselves, in gal.c; the picture of
 * the board is drawn by engine/pic/.)
 *
 * The render reads only a view (gal_view's JSON). Seats are written
 * "Villain N" (1-based); the commands layer puts player names in.
 */
#include "gal.h"

#include "../../rsutil.h"

#include <stdio.h>
#include <string.h>

static const char *plural(long n) { return n == 1 ? "" : "s"; }

/* "Raider 2 (shields 1/1, hull 3/3, 4 AP)" and its state. */
static void unit(eng_text *o, const json_t *u, bool owner) {
  if (owner)
    eng_put(o, "Villain %ld's ", eng_jnum(u, "owner") + 1);
  eng_put(o, "%s (shields %ld/%ld, hull %ld/%ld", eng_jstr(u, "name"),
          eng_jnum(u, "shields"), eng_jnum(u, "max_shields"),
          eng_jnum(u, "hull"), eng_jnum(u, "max_hull"));
  if (json_is_true(json_object_get(u, "attached")))
    eng_put(o, ", mining");
  const char *ch = eng_jstr(u, "charge");
  if (strcmp(ch, "jump") == 0)
    eng_put(o, ", charging a fleet jump");
  else if (strcmp(ch, "black_hole") == 0)
    eng_put(o, ", charging a black hole shot at %s", eng_jstr(u, "aim"));
  eng_put(o, ")");
}

static void summary(eng_text *o, const json_t *v, long seat) {
  const json_t *p = eng_view_player(v, seat);
  if (!p)
    return;
  eng_put(o,
          "Villain %ld (player %ld, %s): %ld mineral%s, %ld Dark Matter, "
          "%ld ship%s on the board",
          seat + 1, eng_jnum(p, "player"),
          strcmp(eng_jstr(p, "zone"), "red") == 0 ? "Red" : "Purple",
          eng_jnum(p, "minerals"), plural(eng_jnum(p, "minerals")),
          eng_jnum(p, "dark_matter"), eng_jnum(p, "on_board"),
          plural(eng_jnum(p, "on_board")));
  if (eng_jnum(p, "in_deep_space"))
    eng_put(o, ", %ld in deep space", eng_jnum(p, "in_deep_space"));
  long left = 0;
  const char *k;
  json_t *n;
  json_object_foreach(json_object_get(p, "to_place"), k, n) {
    left += (long)json_integer_value(n);
  }
  if (left)
    eng_put(o, ", %ld to place", left);
}

/* Seat's ships, a line per sector (deep space last). */
static void fleet(eng_text *o, const json_t *v, long seat) {
  size_t i, j;
  json_t *x, *u;
  json_array_foreach(json_object_get(v, "sectors"), i, x) {
    int k = 0;
    json_array_foreach(json_object_get(v, "units"), j, u) {
      if (eng_jnum(u, "owner") != seat ||
          strcmp(eng_jstr(u, "sector"), eng_jstr(x, "id")) != 0)
        continue;
      eng_put(o, k++ ? ", " : "\n- **%s**: ", eng_jstr(x, "id"));
      unit(o, u, false);
    }
  }
  int k = 0;
  json_array_foreach(json_object_get(v, "units"), j, u) {
    if (eng_jnum(u, "owner") == seat &&
        json_is_null(json_object_get(u, "sector"))) {
      eng_put(o, k++ ? ", " : "\n- **Deep space**: ");
      unit(o, u, false);
    }
  }
}

static void common(eng_text *o, const json_t *v) {
  const char *phase = eng_jstr(v, "phase");
  long winner = eng_jnum(v, "winner");
  if (strcmp(phase, "over") == 0) {
    if (winner == -2)
      eng_put(o, "The game is over: a draw");
    else
      eng_put(o, "The game is over: Villain %ld wins", winner + 1);
    eng_put(o, " (%s).",
            strcmp(eng_jstr(v, "reason"), "round_limit") == 0
                ? "the larger fleet after the last round"
                : "no enemy ship left on the board");
  } else if (strcmp(phase, "placement") == 0) {
    eng_put(o, "Placement: Villain %ld places a ship.",
            eng_jnum(v, "active") + 1);
  } else {
    eng_put(o, "Round %ld of %d: Villain %ld's turn.", eng_jnum(v, "round"),
            GAL_ROUNDS, eng_jnum(v, "active") + 1);
  }
  int k = 0;
  size_t i;
  json_t *x;
  json_array_foreach(json_object_get(v, "sectors"), i, x) {
    if (json_is_true(json_object_get(x, "black_hole")))
      eng_put(o, k++ ? ", %s" : "\nBlack holes: %s", eng_jstr(x, "id"));
  }
  const json_t *land = json_object_get(v, "landing");
  if (json_is_object(land))
    eng_put(o, "\nAn explorer is coming out of deep space (%s).",
            eng_jstr(land, "sector"));
}

void gal_render(const json_t *view, int what, char *buf, size_t cap) {
  eng_text o = {.buf = buf, .cap = cap};
  if (cap)
    buf[0] = '\0';
  if (what == ENG_RENDER_HAND) {
    /* No hidden hand: a player's private message sums up their fleet in
     * full on their own turn and at the end; between, it names only what
     * the other's turn cannot change (their purse), so that every hit
     * the other lands does not send a new DM: the channel tells them. */
    long seat = eng_jnum(view, "viewer");
    const json_t *p = eng_view_player(view, seat);
    if (!p)
      return;
    bool over = strcmp(eng_jstr(view, "phase"), "over") == 0;
    eng_put(&o, "**Your fleet**\n");
    if (over || eng_jnum(view, "active") == seat) {
      summary(&o, view, seat);
      eng_put(&o, ".");
      fleet(&o, view, seat);
    } else {
      eng_put(&o,
              "Villain %ld (player %ld): %ld mineral%s, %ld Dark Matter. "
              "Your ships are on the table in the channel; the next "
              "message here comes with your turn.",
              seat + 1, eng_jnum(p, "player"), eng_jnum(p, "minerals"),
              plural(eng_jnum(p, "minerals")), eng_jnum(p, "dark_matter"));
    }
    return;
  }
  if (what >= ENG_RENDER_SEAT(0)) {
    long seat = what - ENG_RENDER_SEAT(0);
    summary(&o, view, seat);
    fleet(&o, view, seat);
    return;
  }
  common(&o, view);
  if (what == ENG_RENDER_COMMON) {
    eng_put(&o, "\n");
    return;
  }
  for (long seat = 0; seat < GAL_SEATS; seat++) {
    eng_put(&o, "\n\n**");
    summary(&o, view, seat);
    eng_put(&o, "**");
    fleet(&o, view, seat);
  }
}
