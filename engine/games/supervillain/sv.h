/*
 * sv.h: internals of the Supervillain: This Galaxy Is Mine! ruleset.
 *
 * The cards are data (data/minion.json, data/domination.json, built into
 * the binary and validated when first loaded); their abilities are lists
 * of effects from the closed vocabulary SV_OPS below, interpreted by one
 * switch in sv.c. The state is a flat value: where each of the 87
 * physical cards is, four ordered piles, the turn's allowances and a
 * small stack of effects still to resolve.
 */
#ifndef LAIR_SV_H
#define LAIR_SV_H

#include "../../eng.h"

#define SV_N_MINION 43
#define SV_N_DOMINATION 44
#define SV_N 87 /* minion instances 0..42, domination 43..86 */
#define SV_MAX_EFFECTS 4
#define SV_STACK 32
#define SV_HAND_LIMIT 7

/* The effect vocabulary: enum name, data-file name. */
#define SV_OPS(X)                                                              \
  X(DRAW_MINION, "draw_minion")                                                \
  X(DISCARD_MINION, "discard_minion")                                          \
  X(EACH_OTHER_DISCARDS, "each_other_discards")                                \
  X(LAUNCH_ASTEROID, "launch_asteroid")                                        \
  X(DRAW_PROJECT, "draw_project")                                              \
  X(DESTROY_OWN_PROJECT, "destroy_own_project")                                \
  X(TAKE_DISCARD_PROJECT, "take_discard_project")                              \
  X(TAKE_DISCARD_MINION, "take_discard_minion")                                \
  X(PUT_MOB_FROM_HAND, "put_mob_from_hand")                                    \
  X(PUT_MOB_FROM_DISCARD, "put_mob_from_discard")                              \
  X(STEAL_MOB, "steal_mob")                                                    \
  X(SWAP_MOBS, "swap_mobs")                                                    \
  X(DESTROY_MOB, "destroy_mob")                                                \
  X(DESTROY_PROJECT, "destroy_project")                                        \
  X(DESTROY_FACILITY, "destroy_facility")                                      \
  X(DESTROY_ALL_MOBS, "destroy_all_mobs")                                      \
  X(CHARGE_ASTEROID, "charge_asteroid")                                        \
  X(SHOOT_DOWN, "shoot_down")                                                  \
  X(RETARGET, "retarget")                                                      \
  X(ADD_PROOF, "add_proof")                                                    \
  X(REMOVE_PROOF, "remove_proof")                                              \
  X(REVERT_FACILITY, "revert_facility")                                        \
  X(EXTRA_MOB, "extra_mob")                                                    \
  X(EXTRA_OPS, "extra_ops")

typedef enum {
#define SV_OP_ENUM(e, s) SV_OP_##e,
  SV_OPS(SV_OP_ENUM)
#undef SV_OP_ENUM
      SV_OP_COUNT
} sv_op;

/* Ability kinds; which are allowed on which half is checked at load. */
#define SV_KINDS(X)                                                            \
  X(NONE, "none")                                                              \
  X(WHEN_COMPLETE, "when_complete")                                            \
  X(DESTROY_THIS, "destroy_this")                                              \
  X(ONCE_PER_TURN, "once_per_turn")                                            \
  X(WHENEVER, "whenever")                                                      \
  X(IF_DESTROYED, "if_destroyed")                                              \
  X(WIN_BLOCK, "win_block")

typedef enum {
#define SV_KIND_ENUM(e, s) SV_KIND_##e,
  SV_KINDS(SV_KIND_ENUM)
#undef SV_KIND_ENUM
      SV_KIND_COUNT
} sv_kind;

#define SV_TRIGGERS(X)                                                         \
  X(NONE, "none")                                                              \
  X(YOU_COMPLETE_PROJECT, "you_complete_project")                              \
  X(YOUR_MOB_DESTROYED, "your_mob_destroyed")                                  \
  X(YOU_SHOOT_DOWN, "you_shoot_down")                                          \
  X(ASTEROID_HITS_YOU, "asteroid_hits_you")                                    \
  X(TURN_START, "turn_start")                                                  \
  X(OTHER_COMPLETES_PROJECT, "other_completes_project")                        \
  X(MOB_PUT_HERE, "mob_put_here")

typedef enum {
#define SV_TRIG_ENUM(e, s) SV_TRIG_##e,
  SV_TRIGGERS(SV_TRIG_ENUM)
#undef SV_TRIG_ENUM
      SV_TRIG_COUNT
} sv_trigger;

/* Scopes of the ops that take one. */
enum {
  SV_SCOPE_DEFAULT = 0, /* own Asteroid / incoming / one of your Mobs */
  SV_SCOPE_ANY = 1,     /* any Asteroid / any of your Mobs or Facilities */
  SV_SCOPE_FACILITY = 2 /* add_proof: a Facility only */
};

typedef struct sv_effect {
  uint8_t op; /* sv_op */
  uint8_t n;
  uint8_t scope;
} sv_effect;

typedef struct sv_ability {
  uint8_t kind;    /* sv_kind */
  uint8_t trigger; /* sv_trigger, for WHENEVER */
  uint8_t cost;    /* Minion cards to discard to use it */
  uint8_t n_effects;
  sv_effect eff[SV_MAX_EFFECTS];
  char text[160];
} sv_ability;

typedef struct sv_card {
  char id[25];
  char name[32];
  bool domination;
  int power;  /* Minion: Mob power in millions */
  int cost;   /* Domination: Project cost in millions */
  int points; /* Domination: points of the Secret Facility */
  bool proof, boosted, swift;
  int count;
  sv_ability ops;      /* Minion */
  sv_ability project;  /* Domination */
  sv_ability facility; /* Domination */
} sv_card;

typedef struct sv_deck {
  int n_cards;
  sv_card cards[SV_N];
  uint8_t inst[SV_N]; /* instance -> index into cards */
  /* For each trigger, the Domination instances with a "whenever" ability
   * of it on either side, in instance order: the only cards a trigger
   * needs to look at (sv.c, fire). */
  uint8_t whenever[SV_TRIG_COUNT][SV_N_DOMINATION];
  uint8_t n_whenever[SV_TRIG_COUNT];
} sv_deck;

/* Returns the validated card set, loading it on first use (thread-safe);
 * NULL if the shipped data is invalid (see sv_cards_errors). */
const sv_deck *sv_cards(void);
/* Parses and validates both data texts into *out. Returns the number of
 * errors; each is reported through report(ctx, message). */
int sv_cards_parse(const char *minion_json, const char *domination_json,
                   sv_deck *out, void (*report)(void *ctx, const char *msg),
                   void *ctx);
/* The card list as JSON: one object per distinct card with deck and
 * count; new reference. */
json_t *sv_cards_json(const sv_deck *d);
/* The card list as Markdown: a Minion table and a Domination table, each
 * with its totals (what docs/rules/supervillain.md embeds). Returns a
 * malloc'd string the caller frees, or NULL when out of memory. */
char *sv_cards_markdown(const sv_deck *d);
/* sv_cards_markdown of the validated built-in cards, for the ruleset's
 * cards_markdown; NULL also when the built-in data is invalid. */
char *sv_cards_markdown_list(void);
/* Formats a Minion Power like the rulebook ("1,200m"). */
void sv_format_power(int millions, char *buf, size_t cap);
/* Data-file names of the vocabularies, for docs and validation. */
const char *sv_op_name(int op);
const char *sv_kind_name(int kind);
const char *sv_trigger_name(int trigger);

/* Option codes: type in the top byte, then up to three operands. */
enum {
  OPT_PROJECT = 1, /* Act III: start the drawn card as a Project */
  OPT_LAUNCH,      /* Act III: launch it at seat a */
  OPT_MOB,         /* Day: play card a as a Mob */
  OPT_OPS,         /* Day: play card a as Minion Ops */
  OPT_SHOOT,       /* Day: shoot down incoming Asteroid a */
  OPT_USE,         /* Day: use the ability of Project/Facility a */
  OPT_CHARGE,      /* Day, Total Annihilation: charge own Asteroid a */
  OPT_END,         /* Day: end the day */
  OPT_PICK,        /* a frame's choice of card a */
  OPT_SEAT,        /* a frame's choice of seat a */
  OPT_STOP,        /* stop an optional repetition */
};
#define CODE(t, a) (((uint32_t)(t) << 24) | ((uint32_t)(a) << 16))
#define OPT_TYPE(c) ((int)((c) >> 24))
#define OPT_A(c) ((int)(((c) >> 16) & 0xff))

/* ---- state ------------------------------------------------------------ */
typedef enum {
  SV_Z_MDECK,
  SV_Z_MDISC,
  SV_Z_HAND,
  SV_Z_MOB,
  SV_Z_DDECK,
  SV_Z_DDISC,
  SV_Z_PROJECT,
  SV_Z_FACILITY,
  SV_Z_ASTEROID,
  SV_Z_LIMBO, /* the Domination card drawn in Act III, face up, undecided */
  SV_Z_COUNT
} sv_zone;

typedef struct sv_where {
  uint8_t zone;
  uint8_t owner;   /* hand/table/asteroid owner */
  uint8_t host;    /* Mob: the Project instance it lies on */
  uint8_t target;  /* Asteroid: the targeted seat */
  uint8_t proof;   /* Asteroid-proof token (Mob, Facility) */
  uint8_t charged; /* charge token (Asteroid) */
  uint8_t used;    /* once-per-turn ability used this turn */
  uint8_t due;     /* Asteroid: hits in this Act I */
} sv_where;

typedef enum {
  SV_PH_START,     /* turn_start triggers */
  SV_PH_ASTEROIDS, /* Act I */
  SV_PH_ACT2,
  SV_PH_ACT3, /* decision: Project or Asteroid */
  SV_PH_DAY,  /* decision: the day's actions */
  SV_PH_EVENING,
  SV_PH_OVER
} sv_phase;

typedef enum {
  SV_F_EFFECT,   /* one effect of an ability being resolved */
  SV_F_DISCARD,  /* a player discards n Minion cards of their choice */
  SV_F_PLACE,    /* choose the Project for a Mob (a = card, b = how) */
  SV_F_HIT,      /* an Asteroid hits: a = asteroid */
  SV_F_COMPLETE, /* a Project completes: a = project */
  SV_F_SHOOT,    /* an Asteroid being shot down after the discards */
  SV_F_TRIGGERS, /* triggered abilities waiting: list[], ordered by player */
  SV_F_LAUNCH,   /* a drawn card waits for its target: a = card */
} sv_frame_kind;

/* Which ability an effect comes from, kept in its frames so that
 * questions and lines can name it ("Chronosphere (when complete)"): a
 * Minion card's Ops, or one side of a Domination card ORed with the
 * ability's kind (an sv_kind). Frames saved before it was kept read 0. */
enum { SV_AB_OPS = 0, SV_AB_PROJECT = 0x10, SV_AB_FACILITY = 0x20 };
#define SV_AB_SIDE(ab) ((ab)&0x30)
#define SV_AB_KIND(ab) ((ab)&0x0f)

/* Why a player discards (an SV_F_DISCARD frame's b), for the question. */
enum {
  SV_WHY_NONE,    /* (frames saved before the reason was kept) */
  SV_WHY_COST,    /* the cost of the ability of src */
  SV_WHY_SHOOT,   /* shooting down Asteroid src */
  SV_WHY_CHARGE,  /* charging Asteroid src (Total Annihilation) */
  SV_WHY_EVENING, /* down to the hand limit */
  SV_WHY_EFFECT   /* an effect of src, used by seat a */
};

/* One entry of the effect stack. What the fields hold depends on kind:
 *   EFFECT   op, n, scope; step (how far a two-choice op is, or 1 once
 *            an op that repeats has acted); a (the first choice); src and
 *            b (the card and SV_AB_* of its ability).
 *   DISCARD  n (cards left to discard); b (SV_WHY_*); src, step (the
 *            card and SV_AB_* of what demands it); a (the seat whose
 *            effect it is, for SV_WHY_EFFECT).
 *   PLACE    a (the Mob's card); b (how it comes: PLACE_* in sv.c); src,
 *            n (the card and SV_AB_* of the effect that puts it).
 *   HIT      a (the Asteroid); step (1. draw 2. destroy 3. triggers).
 *   COMPLETE a (the Project); step.
 *   SHOOT    a (the Asteroid); step.
 *   TRIGGERS n_list, list, owner.
 *   LAUNCH   a (the drawn card); src, b (the effect that launches it). */
#define SV_TRIG_MAX 12
typedef struct sv_frame {
  uint8_t kind;
  uint8_t player; /* who decides */
  uint8_t op, n, scope;
  uint8_t step;
  uint8_t a, b; /* cards chosen so far / subject */
  uint8_t src;  /* the card whose ability this is */
  uint8_t n_list;
  uint8_t list[SV_TRIG_MAX];  /* TRIGGERS: source cards */
  uint8_t owner[SV_TRIG_MAX]; /* TRIGGERS: whose ability; bit 7: if_destroyed */
} sv_frame;

typedef struct sv_state {
  eng_rng rng;
  uint8_t players;
  uint8_t team;         /* Team Battle 2x2 */
  uint8_t annihilation; /* Total Annihilation variant */
  uint8_t target;       /* Domination points to win */
  uint8_t current;
  uint8_t phase;
  uint8_t mobs_left, ops_left;
  int32_t turn;
  uint8_t over;
  uint8_t winners; /* bit mask of seats */
  uint8_t reason;  /* SV_END_* */
  uint8_t sp;
  uint8_t overflow; /* the effect stack overflowed: a rules bug */
  uint8_t recheck;  /* victory may have changed; 0 whenever run() rests */
  eng_pile mdeck, mdisc, ddeck, ddisc;
  sv_where w[SV_N];
  /* The instances in each zone, one bit each (w[i].zone, kept by put()
   * and rebuilt after a load): the rules look at a zone's few cards, not
   * all 87. Derived, never saved. */
  uint64_t zbits[SV_Z_COUNT][2];
  sv_frame stack[SV_STACK];
  char mode[64];
} sv_state;

/* Rebuilds s->zbits from s->w (after a load). */
void sv_zbits_rebuild(sv_state *s);

enum { SV_END_NONE, SV_END_POINTS, SV_END_EXHAUSTED };

extern const eng_ruleset sv_ruleset;

/* sv_io.c */
json_t *sv_view(const void *st, int viewer);
json_t *sv_to_json(const void *st);
eng_rc sv_from_json(void *st, const json_t *j);
int sv_check(const void *st, char *msg, size_t cap);
/* Marks in seen[] every card the view of viewer shows (no JSON built). */
void sv_view_cards(const sv_state *s, int viewer, uint8_t seen[SV_N]);
/* Walks a view's JSON: 0 if every card in it is public or in viewer's
 * hand, else 1 with msg. */
int sv_check_view_json(const sv_state *s, const json_t *v, int viewer,
                       char *msg, size_t cap);
/* sv_ai.c: the ruleset's ai hook (see eng_ruleset.ai): the index of the
 * option a sensible player picks in prompt p of state st, ties broken by
 * rng. Looks only at what seat p->player may see; never fails. */
int sv_ai_choose(const void *st, const eng_prompt *p, eng_rng *rng);
void sv_ai_why(const void *st, const eng_prompt *p, int i, char *buf,
               size_t cap);
/* sv_text.c: renders a view as Markdown into buf (see eng_ruleset.render). */
void sv_render(const json_t *view, int what, char *buf, size_t cap);

/* A test seam into what apply() tells: per effect op, how often it
 * finished its work (or found nothing to do) and how many public lines
 * were told for it, its Mob placements, launches and discards included;
 * and the Minion cards that went to the discard pile, face up, at some
 * moment (set, never cleared: the caller clears it per answer). */
typedef struct sv_trace {
  long acted[SV_OP_COUNT];
  long told[SV_OP_COUNT];
  uint8_t shown[SV_N];
} sv_trace;
/* sv_ruleset.apply that also records into *trace (the caller's; NULL:
 * nothing recorded, exactly sv_ruleset.apply). Returns as apply. */
eng_rc sv_apply_traced(void *st, uint32_t code, unsigned *flags, eng_events *ev,
                       sv_trace *trace);
/* sv.c helpers shared with sv_io.c */
int sv_points(const sv_state *s, int seat);
int sv_team_points(const sv_state *s, int seat);
bool sv_win_blocked(const sv_state *s, int seat);
const char *sv_phase_name(int phase);
const char *sv_zone_name(int zone);
bool sv_zone_public(int zone);
/* The card of instance inst, once sv_cards() has succeeded. */
extern sv_deck sv_loaded;
static inline const sv_card *sv_card_of(int inst) {
  return &sv_loaded.cards[sv_loaded.inst[inst]];
}
static inline int sv_card_index(int inst) { return sv_loaded.inst[inst]; }

/* A view's phase ("day", "act3"...) in words for people ("day",
 * "morning, Act III"): the Markdown render and the picture say it alike. */
const char *sv_phase_text(const char *phase);

#endif
