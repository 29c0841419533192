/*
 * vl.h: internals of the Villainous engine, one engine for both
 * Villainous rulebooks.
 *
 * Every player is a villain with a realm of four locations in a row, a
 * mover that must change location every turn, a villain deck and a fate
 * deck. The rulebooks differ in a few rules (how Fate is played, how far
 * a card may be moved, Conditions, Events...): those differences are one
 * vl_profile per ruleset, and everything else is shared. This file holds
 * the Disney rulebook's profile (ruleset id "villainous"); the Marvel
 * rulebook's profile is meant to be a second vl_profile over the same
 * state, vocabulary and data format.
 *
 * The villains are data (data/VILLAIN.json, one file each, built into the
 * binary and validated when first loaded, see README.md beside this
 * file): their realm, objective, guide, villain deck and fate deck. Card
 * abilities are lists of effects from the closed vocabulary VL_OPS and
 * static modifiers from VL_MODS, interpreted by one switch each in vl.c.
 * The state is a flat value: where each card instance is, the piles in
 * order, each seat's power, mover and locks, and a small stack of frames
 * still to resolve.
 */
#ifndef LAIR_VL_H
#define LAIR_VL_H

#include "../../eng.h"

/* ---- sizes ------------------------------------------------------------
 * Card instances are numbered by seat: seat s owns the block
 * [s * VL_BLOCK, (s + 1) * VL_BLOCK), its villain deck first (VL_VDECK
 * cards), then its fate deck. VL_COMMON instances after the seats are
 * hold the common cards of a profile with one shared fate deck (the
 * Marvel profile: its common fate part and the six Stones), numbered
 * right after the last seat's block; the Disney profile has none. An
 * instance's card is read through its seat's villain, a common one
 * through the data's common part. */
#define VL_SEATS 6
#define VL_LOCS 4
#define VL_VDECK 30
#define VL_FDECK_MAX 18
#define VL_BLOCK (VL_VDECK + VL_FDECK_MAX)
#define VL_COMMON 24
#define VL_STONES 6
#define VL_N (VL_SEATS * VL_BLOCK + VL_COMMON)
#define VL_NONE 0xffff
#define VL_HAND 4          /* draw back up to this at the end of a turn */
#define VL_MAX_VILLAINS 16 /* villains in the data */
#define VL_MAX_DEFS 40     /* distinct cards of one villain (both decks) */
#define VL_MAX_ABILITIES 3 /* abilities of one card */
#define VL_MAX_EFFECTS 4   /* effects (or modifiers) of one ability */
#define VL_MAX_ACTIONS 5   /* action symbols of one location */
#define VL_MAX_ITEMS 3     /* items of one items_together objective */
#define VL_STACK 24
#define VL_LIST 12
#define VL_ROUND_LIMIT 60 /* rounds before the game ends unwon */

/* ---- vocabularies -----------------------------------------------------
 * Each list: enum name, the name in the data files. */

/* Card kinds. */
#define VL_KINDS(X)                                                            \
  X(ALLY, "ally")                                                              \
  X(ITEM, "item")                                                              \
  X(EFFECT, "effect")                                                          \
  X(CONDITION, "condition")                                                    \
  X(SPECIAL, "special")                                                        \
  X(HERO, "hero")                                                              \
  X(EVENT, "event")         /* Marvel: a fate card that becomes a location */  \
  X(SPECIALTY, "specialty") /* Marvel: played to the Specialty area */

/* Action symbols of a location. */
#define VL_ACTIONS(X)                                                          \
  X(GAIN_1, "gain_1")                                                          \
  X(GAIN_2, "gain_2")                                                          \
  X(GAIN_3, "gain_3")                                                          \
  X(PLAY, "play")                                                              \
  X(ACTIVATE, "activate")                                                      \
  X(MOVE_ALLY, "move_ally")                                                    \
  X(MOVE_HERO, "move_hero")                                                    \
  X(VANQUISH, "vanquish")                                                      \
  X(FATE, "fate")                                                              \
  X(DISCARD, "discard")

/* When an ability works. */
#define VL_WHENS(X)                                                            \
  X(PLAYED, "played")             /* when the card is played */                \
  X(ACTIVATE, "activate")         /* with an Activate action, for a cost */    \
  X(STATIC, "static")             /* always, while it is in a realm */         \
  X(DISCARDED, "discarded")       /* when it leaves the realm to a discard */  \
  X(HERO_ARRIVES, "hero_arrives") /* a Hero is played or moved here */         \
  X(DEFEAT, "defeat")             /* whenever its owner defeats a Hero */      \
  X(TURN_START, "turn_start")     /* at the start of its owner's turn */       \
  X(ARRIVE, "arrive")       /* its owner's mover comes to its location */      \
  X(CONDITION, "condition") /* a Condition's trigger, in others' turns */   \
  X(RESOLVED, "resolved") /* an Event's reward, for each villain there */

/* What a Condition waits for, always an action of the player whose turn
 * it is (an opponent of the Condition's owner); n is the threshold. */
#define VL_TRIGGERS(X)                                                         \
  X(OPP_ALLY, "opp_ally")           /* plays an Ally of Strength n or more */  \
  X(OPP_ITEM, "opp_item")           /* plays an Item */                        \
  X(OPP_EFFECT, "opp_effect")       /* plays an Effect */                      \
  X(OPP_DEFEAT, "opp_defeat")       /* defeats a Hero */                       \
  X(OPP_POWER, "opp_power")         /* their Power reaches n (was below) */    \
  X(OPP_ACTIVATE, "opp_activate")   /* activates an ability */                 \
  X(OPP_FATE, "opp_fate")           /* performs Fate against you */            \
  X(OPP_DISCARD, "opp_discard")     /* discards n or more cards */             \
  X(OPP_MOVE_HERO, "opp_move_hero") /* moves a Hero */

/* Effects: what an ability does, in order. "You" is the villain whose
 * realm the card is in (a fate card's target); the card's player makes
 * the choices, except choices among a hand, which its holder makes.
 * Columns: enum name, data-file name, whether it picks a card, a
 * location or a seat (then it needs something to pick to be done), and
 * what it finds when there is nothing to pick, for the line that says
 * so. */
#define VL_OPS(X)                                                              \
  X(GAIN_POWER, "gain_power", 0, NULL)                                         \
  X(LOSE_POWER, "lose_power", 0, NULL)                                         \
  X(DRAW, "draw", 0, NULL)                                                     \
  X(DISCARD_CARDS, "discard_cards", 1, "no card in hand to discard")           \
  X(PLAY_FREE, "play_free", 1, "no card it may play")                          \
  X(PLAY_DISCARD, "play_discard", 1, "no card it may play")                    \
  X(TAKE_DISCARD, "take_discard", 1, "no card to take from the discard pile")  \
  X(SEARCH, "search", 1, "no such card in the deck or the discard pile")       \
  X(MOVE_HERO, "move_hero", 1, "no Hero it may move")                          \
  X(MOVE_ALLY, "move_ally", 1, "no Ally it may move")                          \
  X(DEFEAT_HERO, "defeat_hero", 1, "no Hero it may defeat")                    \
  X(VANQUISH, "vanquish", 0, NULL)                                             \
  X(FATE, "fate", 1, "no villain it may target with Fate")                     \
  X(UNLOCK, "unlock", 0, NULL)                                                 \
  X(LOOK_FATE, "look_fate", 0, NULL)                                           \
  X(RETURN_ALLY, "return_ally", 1, "no Ally to return")                        \
  X(GAIN_PER, "gain_per", 0, NULL)                                             \
  X(TRACK, "track", 0, NULL)                                                   \
  X(REMOVE_ALLY, "remove_ally", 1, "no Ally it may defeat")                    \
  X(REMOVE_CARD, "remove_card", 1, "no card it may discard")                   \
  X(FIND_HERO, "find_hero", 1, "the Hero nowhere it may be found")             \
  X(PLAY_FATE_TOP, "play_fate_top", 0, NULL)                                   \
  X(HOOK, "hook", 1, "no two Heroes to trade places")                         \
  X(TOKEN, "token", 1, "no character to put a Strength token on")              \
  X(STONE, "stone", 0, NULL)                                                   \
  X(GIVE_STONE, "give_stone", 1, "no opponent to take a Stone")

/* Static modifiers. */
#define VL_MODS(X)                                                             \
  X(STRENGTH, "strength") /* n to the Strength of `who` */                     \
  X(COST, "cost")         /* n to the cost of cards of a kind you play */      \
  X(GAIN, "gain")         /* n to Gain Power actions at its location */        \
  X(NO_ACTIVATE, "no_activate") /* no card at its location is activated */     \
  X(NO_MOVE, "no_move")         /* no Ally or Item leaves its location */      \
  X(NO_HEROES, "no_heroes")     /* no Hero is played or moved to it */

/* Whom a strength modifier counts for. */
#define VL_WHOS(X)                                                             \
  X(SELF, "self")                                                              \
  X(HOST, "host") /* the character it is attached to */                        \
  X(ALLIES_HERE, "allies_here")                                                \
  X(HEROES_HERE, "heroes_here")                                                \
  X(ALLIES, "allies") /* every Ally in the realm */                            \
  X(HEROES, "heroes") /* every Hero in the realm */

/* Objectives. */
#define VL_OBJECTIVES(X)                                                       \
  X(DEFEAT_HERO_AT, "defeat_hero_at")                                          \
  X(START_POWER, "start_power")                                                \
  X(CARD_EVERYWHERE, "card_everywhere")                                        \
  X(ITEMS_TOGETHER, "items_together")                                          \
  X(REACH, "count")

/* What a count objective counts. */
#define VL_COUNTS(X)                                                           \
  X(TRACK, "track")       /* the villain's own track */                        \
  X(DEFEATED, "defeated") /* Heroes it has defeated this game */               \
  X(ALLIES, "allies")     /* Allies in its realm */                           \
  X(STONES, "stones")     /* Stones on their Specialty side in its domain */

/* The named hooks: a card's one-of-a-kind effect, written in C beside
 * the rules (vl.c, hooks). Keep this list short; every entry is
 * reviewed. */
#define VL_HOOKS(X)                                                            \
  X(SWAP_HEROES, "swap_heroes") /* two Heroes trade locations */

typedef enum {
#define X(e, s) VL_K_##e,
  VL_KINDS(X)
#undef X
      VL_K_COUNT
} vl_kind;
typedef enum {
#define X(e, s) VL_A_##e,
  VL_ACTIONS(X)
#undef X
      VL_A_COUNT
} vl_action_kind;
typedef enum {
#define X(e, s) VL_W_##e,
  VL_WHENS(X)
#undef X
      VL_W_COUNT
} vl_when;
typedef enum {
#define X(e, s) VL_T_##e,
  VL_TRIGGERS(X)
#undef X
      VL_T_COUNT
} vl_trigger;
typedef enum {
#define X(e, s, chooses, nothing) VL_OP_##e,
  VL_OPS(X)
#undef X
      VL_OP_COUNT
} vl_op;
typedef enum {
#define X(e, s) VL_M_##e,
  VL_MODS(X)
#undef X
      VL_M_COUNT
} vl_mod_kind;
typedef enum {
#define X(e, s) VL_WHO_##e,
  VL_WHOS(X)
#undef X
      VL_WHO_COUNT
} vl_who;
typedef enum {
#define X(e, s) VL_O_##e,
  VL_OBJECTIVES(X)
#undef X
      VL_O_COUNT
} vl_objective_kind;
typedef enum {
#define X(e, s) VL_C_##e,
  VL_COUNTS(X)
#undef X
      VL_C_COUNT
} vl_count;
typedef enum {
#define X(e, s) VL_H_##e,
  VL_HOOKS(X)
#undef X
      VL_H_COUNT
} vl_hook;

/* The data-file names of card kinds and effect ops ("?" out of range). */
const char *vl_kind_name(int kind);
const char *vl_op_name(int op);

/* An action's name for people ("Gain 2 Power", "Move a Hero"). */
const char *vl_action_label(int action);
/* A card's kind and numbers for people: "Ally, cost 2, Strength 3". */
struct vl_card;
void vl_card_summary(const struct vl_card *c, char *buf, size_t cap);

/* Kind filters of effects and modifiers: VL_ANY or a vl_kind. */
#define VL_ANY 0xff

/* Scopes of effects that pick a card or a location. */
enum {
  VL_SC_REALM = 0,    /* anywhere in the realm */
  VL_SC_HERE = 1,     /* at the location of the card the ability is on */
  VL_SC_ADJACENT = 2, /* move: to an adjacent location */
  VL_SC_ANY = 3,      /* move: to any other location */
  VL_SC_MOVER = 4,    /* move: to the location of the realm's mover */
  VL_SC_ACTIVE = 5    /* fate: against the player whose turn it is */
};

typedef struct vl_effect {
  uint8_t op;    /* vl_op */
  int8_t n;      /* amount, threshold or maximum Strength (0: any) */
  uint8_t may;   /* optional: the player may skip it */
  uint8_t scope; /* VL_SC_ADJACENT/ANY/MOVER (moves), VL_SC_ACTIVE (fate) */
  uint8_t where; /* VL_SC_REALM or VL_SC_HERE: where it picks a card */
  uint8_t kind;  /* a card kind filter (gain_per: what it counts):
                    vl_kind or VL_ANY */
  int8_t card;   /* a named card: def index in the same villain, or -1 */
  uint8_t hook;  /* vl_hook */
} vl_effect;

typedef struct vl_mod {
  uint8_t mod; /* vl_mod_kind */
  int8_t n;
  uint8_t who;  /* vl_who, for strength */
  uint8_t kind; /* cost: vl_kind or VL_ANY */
} vl_mod;

typedef struct vl_ability {
  uint8_t when;    /* vl_when */
  uint8_t trigger; /* vl_trigger, for conditions */
  int8_t tn;       /* the trigger's threshold */
  uint8_t cost;    /* activate: Power to pay */
  uint8_t n_eff, n_mod;
  vl_effect eff[VL_MAX_EFFECTS];
  vl_mod mod[VL_MAX_EFFECTS];
} vl_ability;

enum { VL_DECK_VILLAIN = 0, VL_DECK_FATE = 1 };
enum { VL_AT_NONE = 0, VL_AT_ALLY = 1, VL_AT_HERO = 2 };

typedef struct vl_card {
  char id[32];
  char name[40];
  char kind_name[20]; /* "Ally", or a special kind's own name */
  char text[240];
  uint8_t kind;    /* vl_kind */
  uint8_t deck;    /* VL_DECK_* */
  uint8_t cost;    /* Power to play (0 for fate cards and Conditions) */
  int8_t strength; /* Allies and Heroes */
  uint8_t count;
  uint8_t attach; /* VL_AT_*: an Item that must be attached */
  uint8_t protector; /* a Hero defeated before the others at its place */
  uint8_t invade;    /* an Ally that may be played to an opponent's top */
  uint8_t ai;     /* how much the heuristic player wants it, 1-5 */
  uint8_t n_ab;
  vl_ability ab[VL_MAX_ABILITIES];
} vl_card;

typedef struct vl_action {
  uint8_t kind; /* vl_action_kind */
} vl_action;

typedef struct vl_location {
  char name[32];
  uint8_t n_top; /* the first n_top actions are the top part */
  uint8_t n;
  uint8_t locked; /* starts with a lock token */
  vl_action a[VL_MAX_ACTIONS];
} vl_location;

typedef struct vl_objective {
  uint8_t kind;     /* vl_objective_kind */
  uint8_t at_start; /* checked at the start of the owner's turn only */
  int16_t n;        /* start_power, count */
  uint8_t count;    /* vl_count */
  int8_t hero;      /* defeat_hero_at: def index */
  int8_t loc;       /* defeat_hero_at, items_together: a location, or -1 */
  uint8_t kind_of;  /* card_everywhere: a vl_kind */
  int8_t card;      /* card_everywhere: a def index, or -1 for any of kind */
  uint8_t n_items;  /* items_together */
  int8_t items[VL_MAX_ITEMS];
  char text[200];
} vl_objective;

/* One pair of a Condition trigger and its threshold in a villain's
 * deck: what opens a Condition window for that villain (public). */
typedef struct vl_cond_trigger {
  uint8_t trigger;
  int8_t tn;
} vl_cond_trigger;

typedef struct vl_villain {
  char id[32];
  char name[40];
  char guide[1200];
  char track_name[24]; /* "" when the villain has no track */
  uint8_t track_max;
  uint32_t colour;
  vl_location loc[VL_LOCS];
  vl_objective obj;
  int n_defs;
  vl_card defs[VL_MAX_DEFS];
  uint8_t vinst[VL_VDECK];     /* villain deck slot -> def */
  uint8_t finst[VL_FDECK_MAX]; /* fate deck slot -> def */
  uint8_t n_fate;
  uint8_t n_cond;
  vl_cond_trigger cond[4];
  uint8_t collector; /* Marvel: collects the Stones */
} vl_villain;

typedef struct vl_data {
  int n;
  vl_villain v[VL_MAX_VILLAINS]; /* sorted by id */
  /* A shared fate deck's common part (Marvel): its cards are `common`'s
   * defs; common instance k (0..n_common-1) is def cinst[k], the fate
   * cards first, then the Stones. */
  vl_villain common;
  uint8_t n_common, n_common_fate;
  uint8_t cinst[VL_COMMON];
} vl_data;

/* Returns the validated villains of profile (VL_PROFILE_*), loading them
 * on first use (thread-safe); NULL if the shipped data is invalid
 * (errors went to stderr). */
const vl_data *vl_data_get(int profile);
/* Parses and validates n data texts (names[i] is text i's file name,
 * for messages) into *out, for profile. Returns the number of errors;
 * each is reported through report(ctx, message). */
int vl_data_parse(int profile, const char *const *texts,
                  const char *const *names, int n, vl_data *out,
                  void (*report)(void *ctx, const char *msg), void *ctx);
/* The card list as JSON: for each villain first an object for the
 * villain itself (deck "guide", kind "villain": objective, guide, realm),
 * then one object per distinct card with villain, deck, count, kind,
 * cost, strength, text; new reference. */
json_t *vl_cards_json(const vl_data *d);
/* The villains and their cards as Markdown (what docs/rules/villainous.md
 * embeds); malloc'd, NULL when out of memory. */
char *vl_cards_markdown(const vl_data *d);

/* ---- the state ---------------------------------------------------------- */

typedef enum {
  VL_Z_NONE,     /* an unused instance slot */
  VL_Z_VDECK,    /* its seat's villain deck (face down) */
  VL_Z_VDISC,    /* its seat's villain discard pile (face up) */
  VL_Z_HAND,     /* its seat's hand */
  VL_Z_REALM,    /* the bottom of a realm: Allies, Items, specials */
  VL_Z_TOP,      /* the top of a realm: Heroes and the Items on them */
  VL_Z_FDECK,    /* its seat's fate deck (face down) */
  VL_Z_FDISC,    /* its seat's fate discard pile (face up) */
  VL_Z_REVEALED, /* turned face up by a Fate action, not yet placed */
  VL_Z_PLAYING,  /* an Effect or Condition resolving, face up */
  VL_Z_EVENT,    /* Marvel: an Event in play (loc 1: targeted at seat, 0:
                    global), or an Ally (with its Items) at the Event that
                    is its host */
  VL_Z_SPECIALTY, /* Marvel: seat's Specialty area, in its domain */
  VL_Z_CENTRE,    /* Marvel: a Stone not yet in play */
  VL_Z_COUNT
} vl_zone;

typedef struct vl_where {
  uint8_t zone;   /* vl_zone */
  uint8_t seat;   /* the realm, hand or pile it is in */
  uint8_t loc;    /* realm zones: its location */
  uint8_t known;  /* hidden zones: seats that looked at it (bit mask) */
  uint16_t host;  /* attached to this instance, or VL_NONE */
  uint16_t order; /* when it came to its place (Heroes: who covers) */
} vl_where;

typedef struct vl_seat {
  int8_t villain; /* index into vl_data, -1 before the choice */
  uint8_t mover;  /* location 0..3, or VL_PORTRAIT before the first move */
  uint8_t locked; /* bit mask of locations with a lock token */
  uint8_t track;
  uint8_t defeated; /* Heroes defeated */
  uint8_t pos;      /* place in turn order, 0 = first player */
  int16_t power;
} vl_seat;

typedef enum {
  VL_PH_CHOOSE,  /* seats choose their villains in seat order */
  VL_PH_START,   /* start of a turn: objectives, triggers */
  VL_PH_MOVE,    /* decision: where the mover goes */
  VL_PH_ACTIONS, /* decision: the next action, or the end of the turn */
  VL_PH_END,     /* drawing back up, then the next player */
  VL_PH_OVER
} vl_phase;

/* Frames: multi-step actions and effects still to resolve. */
typedef enum {
  VL_F_EFFECT,   /* one effect of an ability */
  VL_F_PLACE,    /* where a card being played goes (a: the card) */
  VL_F_VANQUISH, /* a: the Hero; list: the Allies chosen so far */
  VL_F_FATE,     /* a Fate action: realm = target; list: revealed cards */
  VL_F_DISCARD,  /* the Discard action: any number of cards */
  VL_F_WINDOW,   /* a Condition window for `player` */
  VL_F_FINISH,   /* a: an Effect or Condition to discard once resolved */
  VL_F_COUNT
} vl_frame_kind;

typedef struct vl_frame {
  uint8_t kind;   /* vl_frame_kind */
  uint8_t player; /* who decides */
  uint8_t realm;  /* whose realm it concerns */
  uint8_t step;
  vl_effect e;   /* EFFECT: the effect */
  uint16_t src;  /* the card whose ability (or action) this is */
  uint16_t a, b; /* chosen cards, locations, counts */
  uint8_t asked; /* EFFECT: an optional effect's question was answered */
  uint8_t free;  /* PLACE: without paying (an effect plays it) */
  uint8_t from;  /* PLACE: VL_Z_HAND or VL_Z_VDISC it comes from */
  uint8_t n_list;
  uint16_t list[VL_LIST];
} vl_frame;

/* A rules profile: where the rulebooks differ. */
typedef enum { VL_FATE_OWN_TWO, VL_FATE_SHARED_ONE } vl_fate_mode;
typedef struct vl_profile {
  const char *id;
  const char *data_dir; /* the blobs "DIR/NAME.json" of its villains */
  uint8_t fate_mode;  /* vl_fate_mode */
  uint8_t move_any;   /* relocate anywhere (else only adjacent) */
  uint8_t conditions; /* Conditions are played in others' turns */
  uint8_t fate_token; /* the Fate token from this many players (0: never) */
  uint8_t min_players, max_players;
  uint8_t events;     /* Events, Specialties, Strength tokens, Stones */
  uint8_t zero_ally;  /* a 0-Strength Hero needs an Ally to vanquish it */
  uint8_t portrait;   /* movers start on the portrait (else location 0) */
  int8_t start_power[VL_SEATS]; /* by place in turn order */
} vl_profile;

/* A mover on its villain's portrait, before its first move (Marvel):
 * not a location; the first move may go to any location. */
enum { VL_PORTRAIT = VL_LOCS };
/* The profiles by index (VL_PROFILE_*). */
enum { VL_PROFILE_DISNEY = 0, VL_PROFILE_MARVEL, VL_PROFILE_COUNT };
/* The Marvel modes: how many Global Events may be in play. */
enum { VL_EV_NONE = 0, VL_EV_ONE = 1, VL_EV_MANY = 2 };
extern const vl_profile vl_profiles[VL_PROFILE_COUNT];

typedef struct vl_state {
  eng_rng rng;
  uint8_t profile; /* index into vl_profiles */
  uint8_t players;
  uint8_t random_deal; /* mode random: villains dealt at setup */
  uint8_t first;
  uint8_t current;
  uint8_t phase;
  uint8_t chooser;    /* CHOOSE: the seat choosing */
  uint8_t used;       /* action slots of the mover's location used this turn */
  uint8_t fate_token; /* the seat holding it, or 0xff */
  uint8_t over, winners, reason;
  uint8_t hit; /* seats whose defeat_hero_at objective just came true */
  uint8_t sp, overflow;
  uint8_t acting; /* an action of the current player is resolving */
  uint8_t events; /* Marvel: VL_EV_* (the mode) */
  int32_t turn;
  uint16_t round;
  uint16_t seq; /* placement counter for vl_where.order */
  /* What the action in progress did that Conditions may answer: a bit
   * per vl_trigger, the strongest Ally played, the Power it started
   * with, whom it fated, how many cards it discarded. */
  uint32_t fired;
  int8_t fired_ally;
  int16_t power_before, power_after;
  uint8_t fated; /* bit mask of seats */
  uint8_t discarded;
  vl_seat seat[VL_SEATS];
  eng_pile vdeck[VL_SEATS], vdisc[VL_SEATS], fdeck[VL_SEATS], fdisc[VL_SEATS];
  vl_where w[VL_N];
  int8_t tok[VL_N]; /* Marvel: Strength tokens on a card in play */
  /* Marvel: cards activated this turn that may be only once a turn
   * (Specialties and Stones), a bit per instance of the current seat's
   * villain deck (0-29) and per Stone (32-37). */
  uint64_t once;
  vl_frame stack[VL_STACK];
  char mode[64];
} vl_state;

enum { VL_END_NONE, VL_END_OBJECTIVE, VL_END_ROUNDS };

extern const eng_ruleset vl_ruleset, vl_marvel_ruleset;

/* The loaded data by profile, once vl_data_get() has succeeded. */
extern vl_data vl_loaded[VL_PROFILE_COUNT];

/* Whether s's profile shares one fate deck (Marvel: Events, Stones,
 * cards of any block in a domain). */
static inline bool vl_shared(const vl_state *s) {
  return vl_profiles[s->profile].fate_mode == VL_FATE_SHARED_ONE;
}
/* The instances that may lie in seat's realm: a Disney realm holds only
 * its own block's cards; a Marvel domain may hold any (shared fate cards,
 * Stones, an opponent's invading Ally). */
static inline int vl_span_lo(const vl_state *s, int seat) {
  return vl_shared(s) ? 0 : seat * VL_BLOCK;
}
static inline int vl_span_hi(const vl_state *s, int seat);

/* The data of s's profile. */
static inline const vl_data *vl_data_of(const vl_state *s) {
  return &vl_loaded[s->profile];
}
/* The villain of seat s, or NULL before its choice. */
static inline const vl_villain *vl_villain_of(const vl_state *s, int seat) {
  return s->seat[seat].villain < 0
             ? NULL
             : &vl_data_of(s)->v[s->seat[seat].villain];
}
/* The first common instance, and how many instances s uses. */
static inline int vl_common_base(const vl_state *s) {
  return s->players * VL_BLOCK;
}
static inline int vl_n_inst(const vl_state *s) {
  return s->players * VL_BLOCK + vl_data_of(s)->n_common;
}
/* Whether instance i is a common card (a shared fate card or a Stone). */
static inline bool vl_is_common(const vl_state *s, int i) {
  return i >= vl_common_base(s);
}
/* The seat whose block holds instance i (its owner; a common card: -1). */
static inline int vl_owner(const vl_state *s, int i) {
  return vl_is_common(s, i) ? -1 : i / VL_BLOCK;
}
static inline int vl_inst_seat(int i) { return i / VL_BLOCK; }
/* The def index of instance i within its villain (or the common part). */
static inline int vl_def_of(const vl_state *s, int i) {
  if (vl_is_common(s, i))
    return vl_data_of(s)->cinst[i - vl_common_base(s)];
  const vl_villain *v = vl_villain_of(s, i / VL_BLOCK);
  int k = i % VL_BLOCK;
  return k < VL_VDECK ? v->vinst[k] : v->finst[k - VL_VDECK];
}
/* The card of instance i (its seat's villain must be chosen). */
static inline const vl_card *vl_card_of(const vl_state *s, int i) {
  if (vl_is_common(s, i))
    return &vl_data_of(s)->common.defs[vl_def_of(s, i)];
  return &vl_villain_of(s, i / VL_BLOCK)->defs[vl_def_of(s, i)];
}
static inline int vl_span_hi(const vl_state *s, int seat) {
  return vl_shared(s) ? vl_n_inst(s) : (seat + 1) * VL_BLOCK;
}

/* Whether common instance i is a Stone. */
static inline bool vl_is_stone(const vl_state *s, int i) {
  return vl_is_common(s, i) &&
         i - vl_common_base(s) >= vl_data_of(s)->n_common_fate;
}

/* vl.c: rules helpers shared with the other files. */
int vl_strength(const vl_state *s, int i);
int vl_cost(const vl_state *s, int seat, int i);
bool vl_covered(const vl_state *s, int seat, int loc);
/* Objective progress of seat, 0..100, from public information only. */
int vl_progress(const vl_state *s, int seat);
/* A one-line account of seat's progress ("12 of 20 Power"). */
void vl_progress_text(const vl_state *s, int seat, char *buf, size_t cap);
bool vl_zone_public(int zone);
const char *vl_zone_name(int zone);
const char *vl_phase_name(int phase);

/* Questions about the rules the heuristic player and the views ask
 * (vl.c): whether i lies in seat's realm; is a fate card; loc of seat's
 * realm is locked, open for a card (a Hero); what a Gain n action at loc
 * gives; whether Hero h can be vanquished, card i played (free: without
 * its cost) or activated now; seat's hand size. */
bool vl_in_realm(const vl_state *s, int i, int seat);
bool vl_is_fate_card(const vl_state *s, int i);
bool vl_locked(const vl_state *s, int seat, int loc);
bool vl_open_for(const vl_state *s, int seat, int loc, bool hero);
int vl_gain_amount(const vl_state *s, int seat, int loc, int n);
bool vl_vanquishable(const vl_state *s, int seat, int h);
bool vl_playable(const vl_state *s, int seat, int i, bool free);
bool vl_activatable(const vl_state *s, int seat, int i);
int vl_hand_size(const vl_state *s, int seat);
/* Whether a seat plays villain v (an index into vl_data). */
bool vl_villain_taken(const vl_state *s, int v);
/* How a game ended, as results and views name it: "objective" or
 * "round_limit" ("" while it runs). */
const char *vl_end_name(const vl_state *s);
/* Marvel: the Strength of the Allies at Event e; whether card i carries
 * a Stone. */
int vl_event_strength(const vl_state *s, int e);
bool vl_carries_stone(const vl_state *s, int i);
/* Sorts cards (instances) into the order they came to their places. */
void vl_sort_by_order(const vl_state *s, int *cards, int n);

/* Runs the automatic work of s until a decision is due or the game
 * ends, telling it to ev (NULL: nobody); for a state built by hand (the
 * rule tests' positions). Returns ENG_OK, or ENG_INTERNAL when the rules
 * looped or overflowed their stack. */
eng_rc vl_resume(vl_state *s, eng_events *ev, unsigned *flags);

/* vl_ruleset.apply that also marks in shown[] (VL_N entries, the
 * caller's; NULL: nothing) every hidden card the answer showed to
 * everyone (a test seam: what a public line may name). */
eng_rc vl_apply_traced(void *st, uint32_t code, unsigned *flags, eng_events *ev,
                       uint8_t *shown);

/* vl_io.c */
json_t *vl_view(const void *st, int viewer);
json_t *vl_to_json(const void *st);
eng_rc vl_from_json(void *st, const json_t *j);
int vl_check(const void *st, char *msg, size_t cap);
/* Whether viewer may see instance i where it is now. */
bool vl_visible(const vl_state *s, int i, int viewer);
/* Walks a view's JSON: 0 if every card in it may be seen by viewer, else
 * 1 with msg. */
int vl_check_view_json(const vl_state *s, const json_t *v, int viewer,
                       char *msg, size_t cap);
/* vl_text.c */
void vl_render(const json_t *view, int what, char *buf, size_t cap);
/* vl_ai.c */
int vl_ai_choose(const void *st, const eng_prompt *p, eng_rng *rng);
void vl_ai_why(const void *st, const eng_prompt *p, int i, char *buf,
               size_t cap);

/* Option codes: type in the top byte, then two 12-bit operands. */
enum {
  VL_OPT_VILLAIN = 1, /* choose villain a */
  VL_OPT_MOVE,        /* move the mover to location a */
  VL_OPT_GAIN,        /* action slot a: gain Power */
  VL_OPT_PLAY,        /* play card a from hand */
  VL_OPT_ACTIVATE,    /* activate card a */
  VL_OPT_MOVE_ALLY,   /* move card a to location b */
  VL_OPT_MOVE_HERO,   /* move Hero a to location b */
  VL_OPT_VANQUISH,    /* vanquish Hero a */
  VL_OPT_FATE,        /* Fate against seat a */
  VL_OPT_DISCARD,     /* start discarding */
  VL_OPT_END,         /* end the turn */
  VL_OPT_PICK,        /* a frame's choice of card a */
  VL_OPT_LOC,         /* a frame's choice of location a */
  VL_OPT_SEAT,        /* a frame's choice of seat a */
  VL_OPT_DONE,        /* stop choosing (discarding, vanquishing with these) */
  VL_OPT_SKIP,        /* skip an optional effect */
  VL_OPT_PASS,        /* play no Condition */
  VL_OPT_COND,        /* play Condition a */
};
/* Where a card goes in a Marvel option operand (VL_OPT_LOC's a,
 * VL_OPT_MOVE_ALLY's b): a location 0-3 of the mover's own domain, or */
#define VL_DEST_OTHER 0x100 /* + seat * 4 + loc: another domain's top */
#define VL_DEST_EVENT 0x800 /* + instance: an Event */
#define VL_CODE(t, a, b)                                                       \
  (((uint32_t)(t) << 24) | (((uint32_t)(a)&0xfff) << 12) |                     \
   ((uint32_t)(b)&0xfff))
#define VL_OPT_TYPE(c) ((int)((c) >> 24))
#define VL_OPT_A(c) ((int)(((c) >> 12) & 0xfff))
#define VL_OPT_B(c) ((int)((c)&0xfff))

#endif
