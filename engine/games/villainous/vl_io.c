/*
 * vl_io.c: the Villainous state as JSON (saves), each viewer's view, and
 * the invariants the simulator checks after every answer.
 *
 * The full state (to_json) holds everything, deck orders and hands
 * included, and never leaves the engine except into storage. A view holds
 * exactly what its viewer may see: every realm, mover, lock, Power and
 * objective, the open discard piles, the sizes of hands and decks, cards
 * turned face up, plus the viewer's own hand and the fate cards the
 * viewer looked at in secret. vl_check proves that for every view it
 * builds, with the same code that builds it.
 */
#include "vl.h"

#include "../../rsutil.h"

#include <stdio.h>
#include <string.h>

static const char *const phase_names[] = {"choose",  "start", "move",
                                          "actions", "end",   "over"};
static const char *const zone_names[] = {
    "none",    "villain_deck", "villain_discard", "hand",
    "realm",   "top",          "fate_deck",       "fate_discard",
    "revealed", "playing",     "event",           "specialty",
    "centre"};

#define SHARED(s) vl_shared(s)

const char *vl_phase_name(int phase) {
  return phase >= 0 && phase <= VL_PH_OVER ? phase_names[phase] : "?";
}
const char *vl_zone_name(int zone) {
  return zone >= 0 && zone < VL_Z_COUNT ? zone_names[zone] : "?";
}

bool vl_visible(const vl_state *s, int i, int viewer) {
  const vl_where *w = &s->w[i];
  if (vl_zone_public(w->zone))
    return true;
  if (viewer < 0)
    return false;
  if (w->zone == VL_Z_HAND && w->seat == viewer)
    return true;
  return (w->known >> viewer) & 1u;
}

/* A view is built once, either as JSON or, for the privacy check, as the
 * set of cards it would show: the same code decides both. In collecting
 * mode every JSON value is NULL and jansson's setters ignore it. */
typedef struct vb {
  bool json;
  uint8_t *seen; /* collecting mode: seen[i] set for every card shown */
} vb;

#define J(b, expr) ((b)->json ? (expr) : NULL)

static json_t *ref(vb *b, const vl_state *s, int i) {
  if (!b->json) {
    b->seen[i] = 1;
    return NULL;
  }
  const vl_card *c = vl_card_of(s, i);
  return json_pack("{sissss}", "i", i, "id", c->id, "name", c->name);
}

static json_t *pile_refs(vb *b, const vl_state *s, const eng_pile *p) {
  json_t *a = J(b, json_array());
  for (int k = 0; k < p->n; k++)
    json_array_append_new(a, ref(b, s, p->c[k]));
  return a;
}

static json_t *action_list(vb *b, const vl_location *l, int from, int to) {
  json_t *a = J(b, json_array());
  for (int k = from; k < to; k++)
    json_array_append_new(a, J(b, json_string(vl_action_label(l->a[k].kind))));
  return a;
}

/* One realm's locations with their cards. One pass sorts the seat's
 * cards by location and host; a realm is read once per view. */
/* A card in play for a view: its kind, Strength (with its tokens) and
 * its owner when it is an opponent's. */
static void card_facts(const vl_state *s, int i, int seat, json_t *o) {
  const vl_card *c = vl_card_of(s, i);
  json_object_set_new(o, "kind", json_string(c->kind_name));
  if (c->kind == VL_K_ALLY || c->kind == VL_K_HERO)
    json_object_set_new(o, "strength", json_integer(vl_strength(s, i)));
  if (s->tok[i])
    json_object_set_new(o, "tokens", json_integer(s->tok[i]));
  if (c->protector)
    json_object_set_new(o, "protector", json_true());
  if (vl_owner(s, i) >= 0 && vl_owner(s, i) != seat)
    json_object_set_new(o, "owner", json_integer(vl_owner(s, i)));
}

/* The cards attached to i, in instance order. */
static json_t *attached(vb *b, const vl_state *s, int i, int lo, int hi) {
  json_t *items = J(b, json_array());
  for (int j = lo; j < hi; j++)
    if (s->w[j].host == i && s->w[j].zone != VL_Z_NONE &&
        s->w[j].zone == s->w[i].zone) {
      json_t *o = ref(b, s, j);
      if (b->json && vl_is_stone(s, j))
        json_object_set_new(o, "kind", json_string("Stone"));
      json_array_append_new(items, o);
    }
  return items;
}

static json_t *realm(vb *b, const vl_state *s, int seat) {
  const vl_villain *v = vl_villain_of(s, seat);
  int at[VL_LOCS][VL_N], n_at[VL_LOCS] = {0};
  int lo = vl_span_lo(s, seat), hi = vl_span_hi(s, seat);
  for (int i = lo; i < hi; i++) {
    const vl_where *w = &s->w[i];
    if ((w->zone != VL_Z_REALM && w->zone != VL_Z_TOP) || w->seat != seat)
      continue;
    if (w->host == VL_NONE)
      at[w->loc][n_at[w->loc]++] = i;
  }
  json_t *locs = J(b, json_array());
  for (int l = 0; l < VL_LOCS; l++) {
    int *order = at[l], n = n_at[l];
    vl_sort_by_order(s, order, n); /* the first Hero came first */
    json_t *heroes = J(b, json_array()), *cards = J(b, json_array());
    bool covered = false;
    for (int k = 0; k < n; k++) {
      int i = order[k];
      const vl_card *c = vl_card_of(s, i);
      json_t *o = ref(b, s, i);
      json_t *items = attached(b, s, i, lo, hi);
      bool top = s->w[i].zone == VL_Z_TOP;
      covered |= top;
      if (!b->json) /* collecting: only which cards it shows */
        continue;
      card_facts(s, i, seat, o);
      if (vl_is_stone(s, i))
        json_object_set_new(o, "kind", json_string("Stone"));
      json_object_set_new(o, "items", items);
      (void)c;
      json_array_append_new(top ? heroes : cards, o);
    }
    if (!b->json)
      continue;
    const vl_location *loc = &v->loc[l];
    json_t *lo = json_pack("{ss sb sb sb so so}", "name", loc->name, "locked",
                           (s->seat[seat].locked >> l) & 1u, "mover",
                           s->seat[seat].mover == l, "covered", covered, "top",
                           action_list(b, loc, 0, loc->n_top), "bottom",
                           action_list(b, loc, loc->n_top, loc->n));
    json_object_set_new(lo, "heroes", heroes);
    json_object_set_new(lo, "cards", cards);
    json_array_append_new(locs, lo);
  }
  return locs;
}

/* seat's Specialty area (Marvel): Specialties and the collector's
 * Stones. */
static json_t *specialties(vb *b, const vl_state *s, int seat) {
  json_t *a = J(b, json_array());
  for (int i = 0; i < vl_n_inst(s); i++)
    if (s->w[i].zone == VL_Z_SPECIALTY && s->w[i].seat == seat) {
      json_t *o = ref(b, s, i);
      if (b->json) {
        json_object_set_new(o, "kind", json_string(vl_is_stone(s, i)
                                                       ? "Stone"
                                                       : "Specialty"));
        json_object_set_new(o, "text",
                            json_string(vl_card_of(s, i)->text));
      }
      json_array_append_new(a, o);
    }
  return a;
}

/* The Events in play (Marvel), with their Allies; the Stones left in the
 * centre; the shared fate piles. */
static void build_marvel(const vl_state *s, vb *b, json_t *v) {
  json_t *events = J(b, json_array()), *centre = J(b, json_array());
  for (int e = 0; e < vl_n_inst(s); e++) {
    if (vl_is_stone(s, e) && s->w[e].zone == VL_Z_CENTRE)
      json_array_append_new(centre, ref(b, s, e));
    if (s->w[e].zone != VL_Z_EVENT || vl_card_of(s, e)->kind != VL_K_EVENT)
      continue;
    json_t *o = ref(b, s, e), *allies = J(b, json_array());
    for (int i = 0; i < vl_common_base(s); i++)
      if (s->w[i].zone == VL_Z_EVENT && s->w[i].host == e) {
        json_t *x = ref(b, s, i);
        if (b->json) {
          json_object_set_new(x, "owner", json_integer(vl_owner(s, i)));
          json_object_set_new(x, "strength", json_integer(vl_strength(s, i)));
          json_object_set_new(x, "items", attached(b, s, i, 0, vl_n_inst(s)));
        }
        json_array_append_new(allies, x);
      }
    if (b->json) {
      json_object_set_new(o, "text", json_string(vl_card_of(s, e)->text));
      json_object_set_new(o, "needed", json_integer(vl_strength(s, e)));
      json_object_set_new(o, "strength",
                          json_integer(vl_event_strength(s, e)));
      json_object_set_new(o, "target", s->w[e].loc == 1
                                           ? json_integer(s->w[e].seat)
                                           : json_null());
      json_object_set_new(o, "allies", allies);
    }
    json_array_append_new(events, o);
  }
  json_object_set_new(v, "events", events);
  json_object_set_new(v, "stones_centre", centre);
  json_object_set_new(v, "fate_deck", J(b, json_integer(s->fdeck[0].n)));
  json_object_set_new(v, "fate_discard", pile_refs(b, s, &s->fdisc[0]));
}

/* What every viewer sees alike: the realms, Power, piles, cards face up. */
static void build_common(const vl_state *s, vb *b, json_t *v) {
  json_object_set_new(v, "game", J(b, json_string(SHARED(s)
                                                      ? "marvel-villainous"
                                                      : "villainous")));
  json_object_set_new(v, "mode", J(b, json_string(s->mode)));
  json_object_set_new(v, "turn", J(b, json_integer(s->turn)));
  json_object_set_new(v, "round", J(b, json_integer(s->round)));
  json_object_set_new(v, "round_limit", J(b, json_integer(VL_ROUND_LIMIT)));
  json_object_set_new(v, "current", J(b, json_integer(s->current)));
  json_object_set_new(v, "first", J(b, json_integer(s->first)));
  json_object_set_new(v, "phase", J(b, json_string(vl_phase_name(s->phase))));
  json_object_set_new(v, "fate_token",
                      s->fate_token < s->players
                          ? J(b, json_integer(s->fate_token))
                          : J(b, json_null()));
  if (s->phase == VL_PH_CHOOSE) {
    json_t *free = J(b, json_array());
    for (int k = 0; k < vl_data_of(s)->n; k++) {
      if (!vl_villain_taken(s, k))
        json_array_append_new(
            free, J(b, json_pack("{ssssss}", "id", vl_data_of(s)->v[k].id, "name",
                                 vl_data_of(s)->v[k].name, "objective",
                                 vl_data_of(s)->v[k].obj.text)));
    }
    json_object_set_new(v, "chooser", J(b, json_integer(s->chooser)));
    json_object_set_new(v, "villains_left", free);
  }

  json_t *players = J(b, json_array());
  for (int p = 0; p < s->players; p++) {
    const vl_villain *vil = vl_villain_of(s, p);
    json_t *po =
        J(b, json_pack("{si si si si si si}", "seat", p, "power",
                       s->seat[p].power, "hand", vl_hand_size(s, p), "deck",
                       s->vdeck[p].n, "fate_deck", s->fdeck[p].n, "defeated",
                       s->seat[p].defeated));
    if (SHARED(s))
      json_object_del(po, "fate_deck");
    if (vil && !b->json) {
      if (s->phase != VL_PH_CHOOSE) {
        realm(b, s, p);
        specialties(b, s, p);
      }
    } else if (vil) {
      char progress[120];
      vl_progress_text(s, p, progress, sizeof progress);
      json_object_set_new(
          po, "villain",
          J(b, json_pack("{ssssss}", "id", vil->id, "name", vil->name,
                         "objective", vil->obj.text)));
      json_object_set_new(po, "progress", J(b, json_string(progress)));
      json_object_set_new(po, "mover", J(b, json_integer(s->seat[p].mover)));
      if (vil->track_name[0])
        json_object_set_new(
            po, "track",
            J(b, json_pack("{sssisi}", "name", vil->track_name, "value",
                           s->seat[p].track, "max", vil->track_max)));
      if (s->phase != VL_PH_CHOOSE)
        json_object_set_new(po, "locations", realm(b, s, p));
      if (s->phase != VL_PH_CHOOSE && SHARED(s))
        json_object_set_new(po, "specialties", specialties(b, s, p));
    }
    json_array_append_new(players, po);
    char key[24];
    snprintf(key, sizeof key, "discard_%d", p + 1);
    json_object_set_new(v, key, pile_refs(b, s, &s->vdisc[p]));
    if (!SHARED(s)) {
      snprintf(key, sizeof key, "fate_discard_%d", p + 1);
      json_object_set_new(v, key, pile_refs(b, s, &s->fdisc[p]));
    }
  }
  json_object_set_new(v, "players", players);
  if (SHARED(s) && s->phase != VL_PH_CHOOSE)
    build_marvel(s, b, v);

  /* Cards face up between the realms: revealed by Fate, or an Effect or
   * Condition resolving. */
  json_t *revealed = J(b, json_array()), *playing = J(b, json_array());
  for (int i = 0; i < vl_n_inst(s); i++) {
    if (s->w[i].zone == VL_Z_REVEALED)
      json_array_append_new(revealed, ref(b, s, i));
    else if (s->w[i].zone == VL_Z_PLAYING)
      json_array_append_new(playing, ref(b, s, i));
  }
  json_object_set_new(v, "revealed", revealed);
  json_object_set_new(v, "playing", playing);
}

/* What viewer alone sees: their hand and the fate cards they looked at. */
static void build_personal(const vl_state *s, int viewer, vb *b, json_t *v) {
  if (viewer >= 0 && viewer < s->players && s->phase == VL_PH_CHOOSE) {
    json_object_set_new(v, "you", J(b, json_integer(viewer)));
    json_object_set_new(v, "hand", J(b, json_array()));
  } else if (viewer >= 0 && viewer < s->players &&
             s->seat[viewer].villain >= 0) {
    json_t *hand = J(b, json_array()), *looked = J(b, json_array());
    for (int i = viewer * VL_BLOCK; i < viewer * VL_BLOCK + VL_VDECK; i++)
      if (s->w[i].zone == VL_Z_HAND) {
        const vl_card *c = vl_card_of(s, i);
        json_t *o = ref(b, s, i);
        if (!b->json)
          continue;
        char sum[96];
        vl_card_summary(c, sum, sizeof sum);
        json_object_set_new(o, "summary", J(b, json_string(sum)));
        json_object_set_new(o, "text", J(b, json_string(c->text)));
        if (c->kind != VL_K_CONDITION)
          json_object_set_new(o, "cost",
                              J(b, json_integer(vl_cost(s, viewer, i))));
        json_array_append_new(hand, o);
      }
    /* The fate cards this viewer looked at in secret, top first. */
    const eng_pile *fd = &s->fdeck[SHARED(s) ? 0 : viewer];
    for (int k = fd->n - 1; k >= 0; k--)
      if ((s->w[fd->c[k]].known >> viewer) & 1u)
        json_array_append_new(looked, ref(b, s, fd->c[k]));
    json_object_set_new(v, "you", J(b, json_integer(viewer)));
    json_object_set_new(v, "hand", hand);
    json_object_set_new(v, "looked", looked);
  }
}

static json_t *build_view(const vl_state *s, int viewer, vb *b) {
  json_t *v = J(b, json_object());
  if (b->json && !v)
    return NULL;
  build_common(s, b, v);
  build_personal(s, viewer, b, v);
  if (s->over) {
    json_t *winners = J(b, json_array());
    for (int p = 0; p < s->players; p++)
      if (s->winners & (1u << p))
        json_array_append_new(winners, J(b, json_integer(p)));
    json_object_set_new(v, "winners", winners);
    json_object_set_new(v, "reason", J(b, json_string(vl_end_name(s))));
  }
  return v;
}

json_t *vl_view(const void *st, int viewer) {
  vb b = {.json = true};
  return build_view(st, viewer, &b);
}

/* Marks in seen[] the cards every view shows (common) or only viewer's
 * (!common): built by the same functions as the views themselves. */
static void view_cards(const vl_state *s, int viewer, bool common,
                       uint8_t seen[VL_N]) {
  memset(seen, 0, VL_N);
  vb b = {.json = false, .seen = seen};
  if (common)
    build_common(s, &b, NULL);
  else
    build_personal(s, viewer, &b, NULL);
}

/* ---- full state --------------------------------------------------------- */

/* A fingerprint of a villain's card list in instance order (FNV-1a over
 * the card ids): a save made with other card data is refused. */
static uint32_t fingerprint(const vl_villain *v) {
  uint32_t h = 2166136261u;
  for (int k = 0; k < VL_VDECK + v->n_fate; k++) {
    const char *id =
        v->defs[k < VL_VDECK ? v->vinst[k] : v->finst[k - VL_VDECK]].id;
    for (const char *p = id; *p; p++)
      h = (h ^ (uint8_t)*p) * 16777619u;
    h = (h ^ 0xff) * 16777619u;
  }
  return h;
}

/* A card's place as one number, so that a save stays small:
 * zone + 16 seat + 128 loc + 512 known + 32768 (host + 1) + 2^25 order
 * (host + 1 is 0 for no host). */
static json_int_t where_pack(const vl_where *w) {
  json_int_t host = w->host == VL_NONE ? 0 : (json_int_t)w->host + 1;
  return (json_int_t)w->zone + 16 * (json_int_t)w->seat +
         128 * (json_int_t)w->loc + 512 * (json_int_t)w->known + 32768 * host +
         ((json_int_t)w->order << 25);
}

static json_t *effect_json(const vl_effect *e) {
  return json_pack("[iiiiiiii]", e->op, e->n, e->may, e->scope, e->where,
                   e->kind, e->card, e->hook);
}

json_t *vl_to_json(const void *st) {
  const vl_state *s = st;
  json_t *seats = json_array(), *where = json_array(), *stack = json_array();
  json_t *piles = json_object();
  json_t *vdeck = json_array(), *vdisc = json_array(), *fdeck = json_array(),
         *fdisc = json_array();
  for (int p = 0; p < s->players; p++) {
    const vl_villain *v = vl_villain_of(s, p);
    const vl_seat *q = &s->seat[p];
    json_array_append_new(
        seats, json_pack("{so sI si si si si si si}", "villain",
                         v ? json_string(v->id) : json_null(), "fingerprint",
                         v ? (json_int_t)fingerprint(v) : 0, "mover", q->mover,
                         "locked", q->locked, "track", q->track, "defeated",
                         q->defeated, "pos", q->pos, "power", q->power));
    json_array_append_new(vdeck, eng_pile_to_json(&s->vdeck[p]));
    json_array_append_new(vdisc, eng_pile_to_json(&s->vdisc[p]));
    json_array_append_new(fdeck, eng_pile_to_json(&s->fdeck[p]));
    json_array_append_new(fdisc, eng_pile_to_json(&s->fdisc[p]));
  }
  json_object_set_new(piles, "villain_deck", vdeck);
  json_object_set_new(piles, "villain_discard", vdisc);
  json_object_set_new(piles, "fate_deck", fdeck);
  json_object_set_new(piles, "fate_discard", fdisc);
  for (int i = 0; i < vl_n_inst(s); i++)
    json_array_append_new(where, json_integer(where_pack(&s->w[i])));
  for (int k = 0; k < s->sp; k++) {
    const vl_frame *f = &s->stack[k];
    json_t *list = json_array();
    for (int j = 0; j < f->n_list; j++)
      json_array_append_new(list, json_integer(f->list[j]));
    json_array_append_new(
        stack,
        json_pack("[iiiioiiiiiio]", f->kind, f->player, f->realm, f->step,
                  effect_json(&f->e), f->src == VL_NONE ? -1 : f->src,
                  f->a == VL_NONE ? -1 : f->a, f->b == VL_NONE ? -1 : f->b,
                  f->asked, f->free, f->from, list));
  }
  json_t *j = json_pack(
      "{ss si ss so si ss si si si si si si si si si si si si si si si si si "
      "si si si si si}",
      "ruleset", "villainous", "version", vl_ruleset.version, "profile",
      vl_profiles[s->profile].id, "rng", eng_rng_to_json(&s->rng), "players",
      s->players, "mode", s->mode, "random_deal", s->random_deal, "first",
      s->first, "current", s->current, "phase", s->phase, "chooser", s->chooser,
      "used", s->used, "fate_token", s->fate_token == 0xff ? -1 : s->fate_token,
      "over", s->over, "winners", s->winners, "reason", s->reason, "hit",
      s->hit, "acting", s->acting, "turn", s->turn, "round", s->round, "seq",
      s->seq, "fired", s->fired, "fired_ally", s->fired_ally, "power_before",
      s->power_before, "power_after", s->power_after, "fated", s->fated,
      "discarded", s->discarded, "sp", s->sp);
  if (!j || !seats || !where || !stack || !piles) {
    json_decref(j);
    json_decref(seats);
    json_decref(where);
    json_decref(stack);
    json_decref(piles);
    return NULL;
  }
  if (SHARED(s)) { /* the Marvel profile's own fields */
    json_t *tok = json_array();
    for (int i = 0; i < vl_n_inst(s); i++)
      json_array_append_new(tok, json_integer(s->tok[i]));
    json_object_set_new(j, "tokens", tok);
    json_object_set_new(j, "events", json_integer(s->events));
    json_object_set_new(j, "once", json_integer((json_int_t)s->once));
  }
  json_object_set_new(j, "seats", seats);
  json_object_set_new(j, "piles", piles);
  json_object_set_new(j, "where", where);
  json_object_set_new(j, "stack", stack);
  return j;
}

#define FIELD(obj, name, lo, hi, dst)                                          \
  do {                                                                         \
    long tmp_;                                                                 \
    if (!eng_jint(json_object_get(obj, name), lo, hi, &tmp_))                  \
      return ENG_BAD_STATE;                                                    \
    dst = tmp_;                                                                \
  } while (0)

static eng_rc piles_from_json(eng_pile *piles, const json_t *a, int players,
                             int n_inst) {
  if (!json_is_array(a) || (int)json_array_size(a) != players)
    return ENG_BAD_STATE;
  for (int p = 0; p < players; p++)
    if (eng_pile_from_json(&piles[p], json_array_get(a, (size_t)p),
                           (uint16_t)n_inst))
      return ENG_BAD_STATE;
  return ENG_OK;
}

static eng_rc frame_from_json(vl_state *s, const json_t *fr, vl_frame *f) {
  long v[12];
  static const long hi[12] = {VL_F_COUNT - 1,
                              VL_SEATS - 1,
                              VL_SEATS - 1,
                              255,
                              0,
                              VL_N - 1,
                              VL_N - 1,
                              VL_N,
                              1,
                              1,
                              VL_Z_COUNT - 1,
                              0};
  if (!json_is_array(fr) || json_array_size(fr) != 12)
    return ENG_BAD_STATE;
  for (int k = 0; k < 12; k++) {
    if (k == 4 || k == 11)
      continue;
    long lo = (k == 5 || k == 6 || k == 7) ? -1 : 0;
    if (!eng_jint(json_array_get(fr, (size_t)k), lo, hi[k], &v[k]))
      return ENG_BAD_STATE;
  }
  memset(f, 0, sizeof *f);
  f->kind = (uint8_t)v[0];
  f->player = (uint8_t)v[1];
  f->realm = (uint8_t)v[2];
  f->step = (uint8_t)v[3];
  f->src = v[5] < 0 ? VL_NONE : (uint16_t)v[5];
  f->a = v[6] < 0 ? VL_NONE : (uint16_t)v[6];
  f->b = v[7] < 0 ? VL_NONE : (uint16_t)v[7];
  f->asked = (uint8_t)v[8];
  f->free = (uint8_t)v[9];
  f->from = (uint8_t)v[10];
  if (f->player >= s->players || f->realm >= s->players)
    return ENG_BAD_STATE;
  json_t *e = json_array_get(fr, 4);
  long x[8];
  static const long elo[8] = {0, -6, 0, 0, 0, 0, -1, 0};
  static const long ehi[8] = {
      VL_OP_COUNT - 1, 6, 1, VL_SC_ACTIVE, VL_SC_HERE, 255, VL_MAX_DEFS - 1,
      VL_H_COUNT - 1};
  if (!json_is_array(e) || json_array_size(e) != 8)
    return ENG_BAD_STATE;
  for (int k = 0; k < 8; k++)
    if (!eng_jint(json_array_get(e, (size_t)k), elo[k], ehi[k], &x[k]))
      return ENG_BAD_STATE;
  f->e.op = (uint8_t)x[0];
  f->e.n = (int8_t)x[1];
  f->e.may = (uint8_t)x[2];
  f->e.scope = (uint8_t)x[3];
  f->e.where = (uint8_t)x[4];
  f->e.kind = (uint8_t)x[5];
  f->e.card = (int8_t)x[6];
  f->e.hook = (uint8_t)x[7];
  json_t *list = json_array_get(fr, 11);
  if (!json_is_array(list) || json_array_size(list) > VL_LIST)
    return ENG_BAD_STATE;
  size_t k;
  json_t *c;
  json_array_foreach(list, k, c) {
    long i;
    if (!eng_jint(c, 0, vl_n_inst(s) - 1, &i))
      return ENG_BAD_STATE;
    f->list[f->n_list++] = (uint16_t)i;
  }
  return ENG_OK;
}

eng_rc vl_from_json(void *st, const json_t *j) {
  vl_state *s = st;
  memset(s, 0, sizeof *s);
  const char *rs = json_string_value(json_object_get(j, "ruleset"));
  const char *prof = json_string_value(json_object_get(j, "profile"));
  const char *mode = json_string_value(json_object_get(j, "mode"));
  if (!json_is_object(j) || !rs || strcmp(rs, "villainous") != 0 || !prof ||
      !mode || strlen(mode) >= sizeof s->mode)
    return ENG_BAD_STATE;
  long version;
  FIELD(j, "version", 1, 1000, version);
  if (version != vl_ruleset.version)
    return ENG_BAD_STATE;
  int profile = -1;
  for (int k = 0; k < VL_PROFILE_COUNT; k++)
    if (strcmp(vl_profiles[k].id, prof) == 0)
      profile = k;
  if (profile < 0)
    return ENG_BAD_STATE;
  if (!vl_data_get(profile))
    return ENG_INTERNAL;
  s->profile = (uint8_t)profile;
  memcpy(s->mode, mode, strlen(mode) + 1);
  if (eng_rng_from_json(&s->rng, json_object_get(j, "rng")))
    return ENG_BAD_STATE;
  FIELD(j, "players", 2, VL_SEATS, s->players);
  int n = s->players;
  long token;
  FIELD(j, "random_deal", 0, 1, s->random_deal);
  FIELD(j, "first", 0, n - 1, s->first);
  FIELD(j, "current", 0, n - 1, s->current);
  FIELD(j, "phase", 0, VL_PH_OVER, s->phase);
  FIELD(j, "chooser", 0, n, s->chooser);
  FIELD(j, "used", 0, 255, s->used);
  FIELD(j, "fate_token", -1, n - 1, token);
  s->fate_token = token < 0 ? 0xff : (uint8_t)token;
  FIELD(j, "over", 0, 1, s->over);
  FIELD(j, "winners", 0, (1 << n) - 1, s->winners);
  FIELD(j, "reason", 0, VL_END_ROUNDS, s->reason);
  FIELD(j, "hit", 0, (1 << n) - 1, s->hit);
  FIELD(j, "acting", 0, 1, s->acting);
  FIELD(j, "turn", 0, 1000000000, s->turn);
  FIELD(j, "round", 0, 60000, s->round);
  FIELD(j, "seq", 0, 65535, s->seq);
  FIELD(j, "fired", 0, (1L << VL_T_COUNT) - 1, s->fired);
  FIELD(j, "fired_ally", 0, 127, s->fired_ally);
  FIELD(j, "power_before", 0, 32767, s->power_before);
  FIELD(j, "power_after", 0, 32767, s->power_after);
  FIELD(j, "fated", 0, (1 << n) - 1, s->fated);
  FIELD(j, "discarded", 0, 255, s->discarded);

  json_t *seats = json_object_get(j, "seats");
  if (!json_is_array(seats) || (int)json_array_size(seats) != n)
    return ENG_BAD_STATE;
  for (int p = 0; p < VL_SEATS; p++)
    s->seat[p].villain = -1;
  for (int p = 0; p < n; p++) {
    json_t *q = json_array_get(seats, (size_t)p);
    json_t *vid = json_object_get(q, "villain");
    vl_seat *x = &s->seat[p];
    if (!json_is_object(q))
      return ENG_BAD_STATE;
    if (json_is_string(vid)) {
      for (int k = 0; k < vl_data_of(s)->n; k++)
        if (strcmp(vl_data_of(s)->v[k].id, json_string_value(vid)) == 0)
          x->villain = (int8_t)k;
      long fp;
      FIELD(q, "fingerprint", 0, 0xffffffffL, fp);
      if (x->villain < 0 ||
          (uint32_t)fp != fingerprint(&vl_data_of(s)->v[x->villain]))
        return ENG_BAD_STATE; /* a villain or card list Lair no longer has */
    } else if (!json_is_null(vid)) {
      return ENG_BAD_STATE;
    }
    FIELD(q, "mover", 0,
          vl_profiles[s->profile].portrait ? VL_PORTRAIT : VL_LOCS - 1,
          x->mover);
    FIELD(q, "locked", 0, (1 << VL_LOCS) - 1, x->locked);
    FIELD(q, "track", 0, 30, x->track);
    FIELD(q, "defeated", 0, 255, x->defeated);
    FIELD(q, "pos", 0, n - 1, x->pos);
    FIELD(q, "power", 0, 32767, x->power);
  }
  int ni = vl_n_inst(s);
  json_t *piles = json_object_get(j, "piles");
  if (piles_from_json(s->vdeck, json_object_get(piles, "villain_deck"), n,
                      ni) ||
      piles_from_json(s->vdisc, json_object_get(piles, "villain_discard"), n,
                      ni) ||
      piles_from_json(s->fdeck, json_object_get(piles, "fate_deck"), n, ni) ||
      piles_from_json(s->fdisc, json_object_get(piles, "fate_discard"), n, ni))
    return ENG_BAD_STATE;
  if (SHARED(s)) {
    json_t *tok = json_object_get(j, "tokens");
    if (!json_is_array(tok) || (int)json_array_size(tok) != ni)
      return ENG_BAD_STATE;
    for (int i = 0; i < ni; i++) {
      long x;
      if (!eng_jint(json_array_get(tok, (size_t)i), -20, 20, &x))
        return ENG_BAD_STATE;
      s->tok[i] = (int8_t)x;
    }
    FIELD(j, "events", 0, VL_EV_MANY, s->events);
    json_int_t once = json_integer_value(json_object_get(j, "once"));
    if (!json_is_integer(json_object_get(j, "once")) || once < 0)
      return ENG_BAD_STATE;
    s->once = (uint64_t)once;
  }
  for (int i = 0; i < VL_N; i++)
    s->w[i].host = VL_NONE;
  json_t *where = json_object_get(j, "where");
  if (!json_is_array(where) || (int)json_array_size(where) != ni)
    return ENG_BAD_STATE;
  for (int i = 0; i < ni; i++) {
    json_t *w = json_array_get(where, (size_t)i);
    if (!json_is_integer(w) || json_integer_value(w) < 0 ||
        json_integer_value(w) >= ((json_int_t)65536 << 25))
      return ENG_BAD_STATE;
    json_int_t x = json_integer_value(w);
    long zone = (long)(x % 16), seat = (long)(x / 16 % 8),
         loc = (long)(x / 128 % 4), known = (long)(x / 512 % 64),
         host = (long)(x / 32768 % 1024) - 1, order = (long)(x >> 25);
    if (zone >= VL_Z_COUNT || seat >= n || known >= (1 << n) || host >= ni)
      return ENG_BAD_STATE;
    vl_where y = {(uint8_t)zone,
                  (uint8_t)seat,
                  (uint8_t)loc,
                  (uint8_t)known,
                  host < 0 ? VL_NONE : (uint16_t)host,
                  (uint16_t)order};
    s->w[i] = y;
  }
  json_t *stack = json_object_get(j, "stack");
  if (!json_is_array(stack) || json_array_size(stack) > VL_STACK)
    return ENG_BAD_STATE;
  size_t k;
  json_t *fr;
  json_array_foreach(stack, k, fr) {
    if (frame_from_json(s, fr, &s->stack[s->sp++]))
      return ENG_BAD_STATE;
  }
  long sp;
  FIELD(j, "sp", 0, VL_STACK, sp);
  if (sp != s->sp)
    return ENG_BAD_STATE;
  char msg[200];
  if (vl_check(s, msg, sizeof msg))
    return ENG_BAD_STATE;
  return ENG_OK;
}

/* ---- invariants -----------------------------------------------------------
 */

static int fail(char *msg, size_t cap, const char *what, int i) {
  snprintf(msg, cap, "%s (card %d)", what, i);
  return 1;
}

static int check_pile(const vl_state *s, const eng_pile *p, int zone, int seat,
                      char *msg, size_t cap) {
  int in_zone = 0;
  for (int i = 0; i < vl_n_inst(s); i++)
    in_zone += s->w[i].zone == zone && s->w[i].seat == seat;
  if (in_zone != p->n)
    return fail(msg, cap, "a pile and its cards' zones disagree", zone);
  uint8_t twice[VL_N] = {0};
  for (int k = 0; k < p->n; k++) {
    int i = p->c[k];
    if (i >= vl_n_inst(s) || s->w[i].zone != zone ||
        s->w[i].seat != seat)
      return fail(msg, cap, "a pile holds a card from elsewhere", i);
    if (twice[i]++)
      return fail(msg, cap, "a card lies twice in one pile", i);
  }
  return 0;
}

/* 0 when viewer may see card i where it is now, else 1 with msg. */
static int shown_wrongly(const vl_state *s, int i, int viewer, char *msg,
                         size_t cap) {
  if (vl_visible(s, i, viewer))
    return 0;
  snprintf(msg, cap, "the view of seat %d shows card %d from %s", viewer, i,
           vl_zone_name(s->w[i].zone));
  return 1;
}

typedef struct view_check {
  const vl_state *s;
  int viewer;
  char *msg;
  size_t cap;
} view_check;

static int check_ref(void *ctx, json_int_t i) {
  const view_check *c = ctx;
  if (i < 0 || i >= vl_n_inst(c->s))
    return fail(c->msg, c->cap, "a view names a card that does not exist",
                (int)i);
  return shown_wrongly(c->s, (int)i, c->viewer, c->msg, c->cap);
}

int vl_check_view_json(const vl_state *s, const json_t *v, int viewer,
                       char *msg, size_t cap) {
  view_check c = {s, viewer, msg, cap};
  return eng_view_cards(v, check_ref, &c);
}

/* Whether frame kind with card i is on the stack. */
static bool held_by_frame(const vl_state *s, int kind, int i) {
  for (int k = 0; k < s->sp; k++) {
    const vl_frame *f = &s->stack[k];
    if (f->kind != kind)
      continue;
    if (kind == VL_F_FINISH && f->a == i)
      return true;
    if (kind == VL_F_PLACE && f->a == i)
      return true;
    for (int j = 0; kind == VL_F_FATE && j < f->n_list; j++)
      if (f->list[j] == i)
        return true;
  }
  return false;
}

static int check_card(const vl_state *s, int i, char *msg, size_t cap) {
  const vl_where *w = &s->w[i];
  int seat = i / VL_BLOCK, k = i % VL_BLOCK;
  const vl_villain *v = vl_villain_of(s, seat);
  bool used = v && k < VL_VDECK + v->n_fate;
  bool dealt = used && s->phase != VL_PH_CHOOSE;
  if (!dealt)
    return w->zone == VL_Z_NONE
               ? 0
               : fail(msg, cap, "an unused card slot is in play", i);
  if (w->zone == VL_Z_NONE)
    return fail(msg, cap, "a card of the game is nowhere", i);
  if (w->seat != seat)
    return fail(msg, cap,
                "a card is in another villain's hand, pile or "
                "realm",
                i);
  bool fate = k >= VL_VDECK;
  static const bool villain_ok[VL_Z_COUNT] = {[VL_Z_VDECK] = true,
                                              [VL_Z_VDISC] = true,
                                              [VL_Z_HAND] = true,
                                              [VL_Z_REALM] = true,
                                              [VL_Z_PLAYING] = true};
  static const bool fate_ok[VL_Z_COUNT] = {
      [VL_Z_TOP] = true,      [VL_Z_FDECK] = true,   [VL_Z_FDISC] = true,
      [VL_Z_REVEALED] = true, [VL_Z_PLAYING] = true, [VL_Z_REALM] = false};
  if (!(fate ? fate_ok : villain_ok)[w->zone])
    return fail(msg, cap, "a card is in a zone of the other deck", i);
  const vl_card *c = vl_card_of(s, i);
  if (w->zone == VL_Z_PLAYING &&
      ((c->kind != VL_K_EFFECT && c->kind != VL_K_CONDITION) ||
       !held_by_frame(s, VL_F_FINISH, i)))
    return fail(msg, cap, "a card resolves without its Effect frame", i);
  if (w->zone == VL_Z_REVEALED && !held_by_frame(s, VL_F_FATE, i) &&
      !held_by_frame(s, VL_F_PLACE, i))
    return fail(msg, cap, "a revealed fate card has no Fate action", i);
  if (w->known && (w->zone != VL_Z_FDECK || w->known != (1u << seat)))
    return fail(msg, cap,
                "a card is marked as secretly seen where it is not "
                "hidden, or by someone else",
                i);
  bool in_realm = w->zone == VL_Z_REALM || w->zone == VL_Z_TOP;
  if (!in_realm && w->host != VL_NONE)
    return fail(msg, cap, "a card outside a realm is attached", i);
  if (in_realm) {
    if ((s->seat[seat].locked >> w->loc) & 1u)
      return fail(msg, cap, "a card lies at a locked location", i);
    if ((c->kind == VL_K_HERO) != (w->zone == VL_Z_TOP && w->host == VL_NONE))
      return fail(msg, cap,
                  "a Hero off the top of a realm, or another card "
                  "on top",
                  i);
    if (w->host != VL_NONE) {
      const vl_where *h = &s->w[w->host];
      int hk = vl_card_of(s, w->host)->kind;
      bool need_hero = c->attach == VL_AT_HERO;
      if (c->kind != VL_K_ITEM || c->attach == VL_AT_NONE ||
          h->zone != w->zone || h->seat != w->seat || h->loc != w->loc ||
          h->host != VL_NONE || hk != (need_hero ? VL_K_HERO : VL_K_ALLY))
        return fail(msg, cap, "an Item attached where it cannot be", i);
    } else if (c->attach != VL_AT_NONE && c->kind == VL_K_ITEM) {
      return fail(msg, cap, "an Item that must be attached lies alone", i);
    }
  }
  return 0;
}

/* The Marvel profile's card check: shared fate piles (index 0), Events,
 * Specialty areas, Stones, opponents' Allies on a domain's top. */
static int check_marvel_card(const vl_state *s, int i, char *msg,
                             size_t cap) {
  const vl_where *w = &s->w[i];
  bool common = vl_is_common(s, i), stone = vl_is_stone(s, i);
  int owner = vl_owner(s, i), k = i % VL_BLOCK;
  const vl_villain *v = common ? NULL : vl_villain_of(s, owner);
  bool used = common || (v && k < VL_VDECK + v->n_fate);
  bool dealt = used && s->phase != VL_PH_CHOOSE;
  const vl_card *c = dealt ? vl_card_of(s, i) : NULL;
  if (!dealt)
    return w->zone == VL_Z_NONE
               ? 0
               : fail(msg, cap, "an unused card slot is in play", i);
  if (w->zone == VL_Z_NONE)
    return c->kind == VL_K_EVENT && s->events == VL_EV_NONE
               ? 0
               : fail(msg, cap, "a card of the game is nowhere", i);
  bool fate = !stone && (common || k >= VL_VDECK);
  static const bool villain_ok[VL_Z_COUNT] = {
      [VL_Z_VDECK] = true,   [VL_Z_VDISC] = true,     [VL_Z_HAND] = true,
      [VL_Z_REALM] = true,   [VL_Z_PLAYING] = true,   [VL_Z_TOP] = true,
      [VL_Z_EVENT] = true,   [VL_Z_SPECIALTY] = true, [VL_Z_REVEALED] = true};
  static const bool fate_ok[VL_Z_COUNT] = {
      [VL_Z_TOP] = true,      [VL_Z_FDECK] = true,   [VL_Z_FDISC] = true,
      [VL_Z_REVEALED] = true, [VL_Z_PLAYING] = true, [VL_Z_EVENT] = true};
  static const bool stone_ok[VL_Z_COUNT] = {[VL_Z_CENTRE] = true,
                                            [VL_Z_REALM] = true,
                                            [VL_Z_TOP] = true,
                                            [VL_Z_SPECIALTY] = true};
  if (!(stone ? stone_ok : fate ? fate_ok : villain_ok)[w->zone])
    return fail(msg, cap, "a card is in a zone it cannot be in", i);
  bool own = w->zone == VL_Z_VDECK || w->zone == VL_Z_VDISC ||
             w->zone == VL_Z_HAND;
  if (own && w->seat != owner)
    return fail(msg, cap, "a card is in another villain's hand or pile", i);
  if ((w->zone == VL_Z_FDECK || w->zone == VL_Z_FDISC) && w->seat != 0)
    return fail(msg, cap, "a fate card outside the one fate deck", i);
  if (c->kind == VL_K_EVENT && (w->zone == VL_Z_TOP || w->host != VL_NONE))
    return fail(msg, cap, "an Event on a domain or attached", i);
  if (w->zone == VL_Z_EVENT && c->kind != VL_K_EVENT && fate)
    return fail(msg, cap, "a fate card at an Event", i);
  if (w->zone == VL_Z_SPECIALTY &&
      (stone ? !vl_villain_of(s, w->seat)->collector
             : c->kind != VL_K_SPECIALTY || w->seat != owner))
    return fail(msg, cap, "a card in a Specialty area that cannot be", i);
  if (c->kind == VL_K_SPECIALTY && w->zone != VL_Z_SPECIALTY && !own &&
      w->zone != VL_Z_REVEALED)
    return fail(msg, cap, "a Specialty out of its area", i);
  if (w->zone == VL_Z_PLAYING && !held_by_frame(s, VL_F_FINISH, i))
    return fail(msg, cap, "a card resolves without its Effect frame", i);
  if (w->zone == VL_Z_REVEALED && !held_by_frame(s, VL_F_FATE, i) &&
      !held_by_frame(s, VL_F_PLACE, i))
    return fail(msg, cap, "a revealed card has no action holding it", i);
  /* The one fate deck: any villain may have looked at a card of it. */
  if (w->known && w->zone != VL_Z_FDECK)
    return fail(msg, cap, "a card secretly seen where it is not hidden", i);
  if (w->zone == VL_Z_TOP && !stone && c->kind != VL_K_HERO &&
      !(c->kind == VL_K_ALLY && owner != w->seat) &&
      !(c->kind == VL_K_ITEM && w->host != VL_NONE))
    return fail(msg, cap, "a card on a domain's top that cannot be", i);
  if (w->zone == VL_Z_REALM && (c->kind == VL_K_HERO ||
                                (!stone && owner != w->seat)))
    return fail(msg, cap, "a card at a location that cannot be", i);
  if (w->host != VL_NONE) {
    const vl_where *h = &s->w[w->host];
    bool at_event = w->zone == VL_Z_EVENT;
    if (h->zone != w->zone || (!at_event && (h->seat != w->seat ||
                                              h->loc != w->loc)))
      return fail(msg, cap, "a card attached where its host is not", i);
  } else if (w->zone == VL_Z_EVENT && c->kind != VL_K_EVENT) {
    return fail(msg, cap, "a card at an Event without the Event", i);
  }
  return 0;
}

/* Whether i names a card instance of the table (VL_NONE allowed when
 * none is). */
static bool inst_ok(const vl_state *s, int i, bool none) {
  return (none && i == VL_NONE) ||
         (i >= 0 && i < vl_n_inst(s) && s->w[i].zone != VL_Z_NONE);
}

/* A frame refers only to what exists, where its kind needs it to be. */
static int check_frame(const vl_state *s, const vl_frame *f, char *msg,
                       size_t cap) {
  if (f->player >= s->players || f->realm >= s->players ||
      f->kind >= VL_F_COUNT || f->n_list > VL_LIST)
    return fail(msg, cap,
                "a frame for a seat or of a kind that does not "
                "exist",
                f->kind);
  if (!inst_ok(s, f->src, true))
    return fail(msg, cap, "a frame's source card does not exist", f->src);
  for (int k = 0; k < f->n_list; k++)
    if (!inst_ok(s, f->list[k], false))
      return fail(msg, cap, "a frame lists a card that does not exist",
                  f->list[k]);
  const vl_villain *v = vl_villain_of(s, f->realm);
  switch ((vl_frame_kind)f->kind) {
  case VL_F_EFFECT:
    if (f->e.op >= VL_OP_COUNT || f->e.hook >= VL_H_COUNT ||
        (f->e.card >= 0 && (!v || f->e.card >= v->n_defs)) ||
        (f->a != VL_NONE && !inst_ok(s, f->a, false)))
      return fail(msg, cap, "an effect frame that no card could make", f->e.op);
    break;
  case VL_F_PLACE:
  case VL_F_FINISH:
    if (!inst_ok(s, f->a, false))
      return fail(msg, cap, "a frame's card does not exist", f->a);
    if (f->kind == VL_F_FINISH && s->w[f->a].zone != VL_Z_PLAYING &&
        s->w[f->a].zone != VL_Z_VDISC && s->w[f->a].zone != VL_Z_FDISC)
      return fail(msg, cap, "a card to discard after resolving is elsewhere",
                  f->a);
    if (f->kind == VL_F_PLACE && s->w[f->a].zone != VL_Z_HAND &&
        s->w[f->a].zone != VL_Z_VDISC && s->w[f->a].zone != VL_Z_REVEALED)
      return fail(msg, cap,
                  "a card to place is not in a hand, a discard "
                  "pile or face up",
                  f->a);
    break;
  case VL_F_VANQUISH:
    if (f->a != VL_NONE &&
        (!inst_ok(s, f->a, false) || s->w[f->a].zone != VL_Z_TOP ||
         s->w[f->a].seat != f->realm))
      return fail(msg, cap, "a Hero to vanquish is not in the realm", f->a);
    break;
  case VL_F_FATE:
    for (int k = 0; k < f->n_list; k++)
      if (s->w[f->list[k]].zone != VL_Z_REVEALED)
        return fail(msg, cap, "a Fate action's card is not face up",
                    f->list[k]);
    break;
  case VL_F_DISCARD:
  case VL_F_WINDOW:
  case VL_F_COUNT:
    break;
  }
  return 0;
}

int vl_check(const void *st, char *msg, size_t cap) {
  const vl_state *s = st;
  if (s->players < 2 || s->players > VL_SEATS)
    return fail(msg, cap, "a table of impossible size", s->players);
  for (int p = 0; p < s->players; p++) {
    int v = s->seat[p].villain;
    if (v < -1 || v >= vl_data_of(s)->n)
      return fail(msg, cap, "a seat plays a villain that does not exist", p);
    if (s->phase != VL_PH_CHOOSE && v < 0)
      return fail(msg, cap, "a seat plays without a villain", p);
    for (int q = 0; q < p; q++)
      if (v >= 0 && s->seat[q].villain == v)
        return fail(msg, cap, "two seats play the same villain", p);
    if (s->seat[p].power < 0)
      return fail(msg, cap, "a villain has negative Power", p);
    if (v >= 0 && s->seat[p].track > vl_data_of(s)->v[v].track_max)
      return fail(msg, cap, "a track past its end", p);
  }
  for (int i = 0; i < VL_N; i++) {
    if (i >= vl_n_inst(s)) {
      if (s->w[i].zone != VL_Z_NONE)
        return fail(msg, cap, "a card of an empty seat is in play", i);
      continue;
    }
    if (SHARED(s) ? check_marvel_card(s, i, msg, cap)
                  : check_card(s, i, msg, cap))
      return 1;
  }
  for (int p = 0; p < s->players; p++)
    if (check_pile(s, &s->vdeck[p], VL_Z_VDECK, p, msg, cap) ||
        check_pile(s, &s->vdisc[p], VL_Z_VDISC, p, msg, cap) ||
        check_pile(s, &s->fdeck[p], VL_Z_FDECK, p, msg, cap) ||
        check_pile(s, &s->fdisc[p], VL_Z_FDISC, p, msg, cap))
      return 1;
  if (s->fate_token != 0xff && s->fate_token >= s->players)
    return fail(msg, cap, "the Fate token is with nobody at the table",
                s->fate_token);
  for (int k = 0; k < s->sp; k++)
    if (check_frame(s, &s->stack[k], msg, cap))
      return 1;
  if (s->phase == VL_PH_CHOOSE)
    return 0;
  /* What all views share is checked against the public view; each
   * viewer's own part against that viewer. */
  uint8_t seen[VL_N];
  for (int viewer = -1; viewer < s->players; viewer++) {
    view_cards(s, viewer, viewer < 0, seen);
    for (int i = 0; i < VL_N; i++)
      if (seen[i] && shown_wrongly(s, i, viewer, msg, cap))
        return 1;
  }
  return 0;
}
