/*
 * dis.h: Disorder of the Villains (rulebook 002) as ruleset `disorder`.
 *
 * Two players, each with a deck of one deck design (16 Monsters, four of
 * each DNA letter) and 4 Villains drafted from a shared pool; the first
 * to mint two Villains wins. docs/rules/disorder.md is the specification
 * this engine follows: the words, the chain, the windows, the end.
 *
 * Files: dis_dna.c (Sequence matching), dis_cards.c (the data: parsing,
 * validation, the card list), dis.c (the rules: setup, prompts, answers,
 * the chain), dis_io.c (saves, views, the invariants), dis_text.c (the
 * Markdown render of a view), dis_ai.c (the heuristic player).
 */
#ifndef LAIR_GAMES_DISORDER_DIS_H
#define LAIR_GAMES_DISORDER_DIS_H

#include "../../eng.h"
#include "dis_dna.h"

#include <stdbool.h>
#include <stdint.h>

/* ---- the data ------------------------------------------------------------ */

enum { DIS_KIND_MONSTER, DIS_KIND_VILLAIN, DIS_KIND_CARD };
enum { DIS_RED, DIS_GOLD, DIS_BLUE, DIS_GREEN, DIS_VIOLET, DIS_COLOURS };
enum {
  DIS_T_IMMEDIATE, /* !!! */
  DIS_T_TIMED,     /* ⏳ */
  DIS_T_ALWAYS,    /* ♾ */
  DIS_T_AFTER_MINT, /* 👤 */
  DIS_T_INTERRUPT, /* 🧠 */
  DIS_TIMINGS
};
enum {
  DIS_TR_NONE,
  DIS_TR_OWN_TURN,
  DIS_TR_TURN_START,
  DIS_TR_OPP_PLAY,
  DIS_TR_OPP_MINT
};
enum { DIS_AN_NONE, DIS_AN_ENTER, DIS_AN_TRAIT };
enum {
  DIS_OP_NONE,
  DIS_OP_BOUNCE,
  DIS_OP_BURN,
  DIS_OP_FLIP,
  DIS_OP_COPY,
  DIS_OP_NEGATE,
  DIS_OP_DROP,
  DIS_OP_DRAW,
  DIS_OP_DISCARD,
  DIS_OP_READY,
  DIS_OPS
};
enum { DIS_MOD_NONE, DIS_MOD_WARD, DIS_MOD_ALIAS };
enum { DIS_SIDE_NONE, DIS_SIDE_OWN, DIS_SIDE_OPP, DIS_SIDE_ANY };

#define DIS_ID_MAX 31
#define DIS_NAME_MAX 39
#define DIS_TEXT_MAX 239
#define DIS_GUIDE_MAX 400
#define DIS_FILTER_NAMES 6
#define DIS_MAX_CARDS 160 /* card definitions, pool and designs together */
#define DIS_MAX_DESIGNS 8
#define DIS_MAX_POOL 24

/* Which cards a trait acts on or answers. Every given key must hold; a
 * zero mask means "any". */
typedef struct dis_filter {
  uint8_t side;    /* DIS_SIDE_*, seen from the trait's controller */
  uint8_t kind;    /* DIS_KIND_* (DIS_KIND_CARD: either) */
  uint8_t dna;     /* bit l: DNA letter l (only Monsters fit) */
  uint8_t colour;  /* bit c: colour c */
  bool other;      /* not the trait's own card */
  bool subject;    /* exactly the trait's subject ("it") */
  uint8_t n_names;
  uint16_t names[DIS_FILTER_NAMES]; /* card definition numbers */
} dis_filter;

typedef struct dis_trait {
  uint8_t timing;  /* DIS_T_* */
  uint8_t trigger; /* DIS_TR_* (timed only) */
  uint8_t answers; /* DIS_AN_* (interrupt only) */
  uint8_t op;      /* DIS_OP_* (not for always) */
  uint8_t n;       /* draw, discard: 1 or 2 */
  uint8_t mod;     /* DIS_MOD_* (always only) */
  uint8_t against; /* ward: bit DIS_OP_x for each op it stops */
  int8_t letter;   /* dna_alias: the other letter 0-3, else -1 */
  bool has_on;     /* `on` given */
  dis_filter on;   /* opp_play, interrupt: what the subject must fit */
  dis_filter target;
} dis_trait;

typedef struct dis_card {
  char id[DIS_ID_MAX + 1];
  char name[DIS_NAME_MAX + 1];
  char text[DIS_TEXT_MAX + 1];
  uint8_t kind;    /* DIS_KIND_MONSTER or DIS_KIND_VILLAIN */
  uint8_t colour;  /* DIS_RED.. */
  int8_t letter;   /* a Monster's DNA letter 0-3; -1 for a Villain */
  char seq[DIS_SEQ + 1]; /* a Villain's Sequence ("BBxy"); "" for a Monster */
  int8_t deck;     /* -1: the pool; else the design's number */
  uint8_t n_traits;
  dis_trait t[2];
} dis_card;

typedef struct dis_design {
  char id[DIS_ID_MAX + 1];
  char name[DIS_NAME_MAX + 1];
  char guide[DIS_GUIDE_MAX + 1];
  uint16_t monsters[16]; /* card definition numbers, in file order */
} dis_design;

typedef struct dis_data {
  int n_cards;
  dis_card cards[DIS_MAX_CARDS];
  int n_designs;
  dis_design designs[DIS_MAX_DESIGNS]; /* sorted by id */
  int n_pool;
  uint16_t pool[DIS_MAX_POOL]; /* the pool's Villains, in file order */
} dis_data;

/* The validated built-in data (the JSON files of engine/games/disorder/data),
 * loaded on first use (thread-safe); NULL when it is invalid (every error
 * went to stderr). */
const dis_data *dis_data_get(void);
/* Parses and validates n data texts (names[i] is text i's file name, for
 * messages) into *out. Returns the number of errors, each reported
 * through report(ctx, message); *out is usable only when 0. */
int dis_data_parse(const char *const *texts, const char *const *names, int n,
                   dis_data *out, void (*report)(void *ctx, const char *msg),
                   void *ctx);
/* The card number of id, or -1. */
int dis_card_find(const dis_data *d, const char *id);
/* The card list: one object per card (deck "pool" or the design id, id,
 * name, kind, dna, colour, text, traits); new reference. */
json_t *dis_cards_json(const dis_data *d);
/* The pool and the designs as Markdown (what docs/rules/disorder.md
 * embeds); malloc'd, NULL when out of memory. */
char *dis_cards_markdown(const dis_data *d);
/* Names for people and for data: "red" / "Red", "BURN", "immediate". */
const char *dis_colour_id(int colour);
const char *dis_colour_name(int colour);
const char *dis_op_name(int op);      /* "BURN", "DRAW", "discard"... */
const char *dis_op_id(int op);        /* "burn", "draw", ... */
const char *dis_timing_id(int timing);
const char *dis_timing_symbol(int timing); /* "!!!", "⏳", ... */

/* ---- the state ----------------------------------------------------------- */

#define DIS_PLAYERS 2
#define DIS_DECK 20          /* cards a player owns */
#define DIS_CARDS 40         /* instances in a game */
#define DIS_ROW 4            /* the limit of each row */
#define DIS_CHAIN 48
#define DIS_NONE 0xFF        /* no card */

/* Where an instance is. */
enum {
  DIS_Z_NONE,    /* not yet dealt (before the draft is complete) */
  DIS_Z_DECK,
  DIS_Z_HAND,
  DIS_Z_VROW,    /* the Villain row of play area `side` */
  DIS_Z_MROW,    /* the Monster row of play area `side` */
  DIS_Z_MINTED,  /* the minted area of `side` */
  DIS_Z_DISCARD,
  DIS_ZONES
};

/* What the game waits for. */
enum {
  DIS_PH_DESIGN,  /* seat `pick_seat` chooses a deck design */
  DIS_PH_DRAFT,   /* draft pick `drafted` (order 1-2-2-1-1-2-2-1) */
  DIS_PH_RPS,     /* the Rock-Paper-Scissors winner: start or defer */
  DIS_PH_MAIN,    /* the active player has priority */
  DIS_PH_WINDOW,  /* the other player: a 🧠 trait or pass */
  DIS_PH_ROOM,    /* `room_seat` discards a card of a full row */
  DIS_PH_PICK,    /* the resolving trait's chooser picks a card */
  DIS_PH_COPY,    /* the resolving COPY's controller picks a trait */
  DIS_PH_DISCARD, /* `res.chooser` discards a card from their hand */
  DIS_PH_OVER,
  DIS_PHASES
};

/* A triggered trait waiting on the chain. */
typedef struct dis_entry {
  uint8_t card;       /* the instance whose trait it is */
  uint8_t trait;      /* 0 or 1 */
  uint8_t ctrl;       /* its controller (seat) */
  uint8_t subject;    /* "it": a card, or DIS_NONE */
  /* For a 🧠 trait answering a trait: the answered entry's card and
   * trait (what a 🧠 COPY copies); DIS_NONE otherwise. */
  uint8_t ans_card, ans_trait;
} dis_entry;

/* The trait being carried out (popped off the chain), and where it is. */
typedef struct dis_res {
  bool on;            /* a resolution is under way */
  dis_entry e;        /* the entry resolving */
  uint8_t op;         /* what is carried out: the entry's op, or a copied one */
  uint8_t card;       /* whose trait text is carried out (the copied card) */
  uint8_t trait;
  uint8_t step;       /* op-specific: FLIP 0 take / 1 give; COPY 0 choose */
  uint8_t chooser;    /* who answers PH_PICK / PH_DISCARD */
  uint8_t left;       /* discard: cards still to discard */
  uint8_t taken;      /* FLIP: the Monster taken */
  bool copied;        /* carrying out a copied trait */
} dis_res;

/* A card waiting to enter a full row. */
typedef struct dis_enter {
  uint8_t card;
  uint8_t seat;   /* whose play area */
  bool play;      /* a Play (else a DROP) */
} dis_enter;

typedef struct dis_state {
  eng_rng rng;
  uint8_t phase;      /* DIS_PH_* */
  uint8_t mode_random;
  int16_t turn;       /* 0 during the draft; 1 is the first turn */
  uint8_t active;     /* whose turn */
  uint8_t first;      /* who took the first turn */
  uint8_t rps;        /* who won Rock-Paper-Scissors (DIS_NONE: none) */
  uint8_t pick_seat;  /* DIS_PH_DESIGN: who chooses */
  uint8_t drafted;    /* Villains drafted so far (0-8) */
  int8_t design[DIS_PLAYERS];    /* -1 until chosen */
  uint16_t def[DIS_CARDS];       /* instance -> card definition */
  /* Per instance: zone, side (whose play or minted area; the owner
   * elsewhere), used mark, the turn it was put into play (-1: at setup). */
  uint8_t zone[DIS_CARDS];
  uint8_t side[DIS_CARDS];
  uint8_t used[DIS_CARDS];
  int16_t entered[DIS_CARDS];
  /* Ordered places; decks top last, discard piles top last, rows in the
   * order their cards came in. */
  uint8_t n_deck[DIS_PLAYERS], deck[DIS_PLAYERS][DIS_DECK];
  uint8_t n_hand[DIS_PLAYERS], hand[DIS_PLAYERS][DIS_DECK];
  uint8_t n_vrow[DIS_PLAYERS], vrow[DIS_PLAYERS][DIS_ROW];
  uint8_t n_mrow[DIS_PLAYERS], mrow[DIS_PLAYERS][DIS_ROW];
  uint8_t n_minted[DIS_PLAYERS], minted[DIS_PLAYERS][DIS_ROW];
  uint8_t n_discard[DIS_PLAYERS], discard[DIS_PLAYERS][DIS_DECK];
  /* The turn. */
  bool drawn;         /* the turn's draw is done */
  bool played;        /* the turn's Play is done */
  bool started;       /* the turn's start traits went on the chain */
  int8_t last_left;   /* the last turns: -1 not begun, else turns left */
  /* The chain, newest last. */
  uint8_t n_chain;
  dis_entry chain[DIS_CHAIN];
  /* The window being asked: the card the step put into play (DIS_NONE)
   * and whether the step put the top entry on the chain. */
  uint8_t win_enter;
  bool win_trait;
  char win_what[64]; /* the step, for the question ("Played Cinder Whelp") */
  dis_res res;
  dis_enter enter;    /* DIS_PH_ROOM */
  uint8_t room_back;  /* the phase to go on with after the room is made */
  /* The end. */
  uint8_t winner;     /* DIS_NONE: none (a draw when over) */
  char reason[24];    /* minted_two, exhausted, exhausted_draw */
} dis_state;

extern const eng_ruleset dis_ruleset;

/* ---- shared between the files -------------------------------------------- */

/* The definition of instance i. */
const dis_card *dis_def(const dis_state *s, int i);
/* The owner of instance i (seat). */
static inline int dis_owner(int i) { return i / DIS_DECK; }
/* The ordered place zone (DIS_Z_DECK..DIS_Z_DISCARD) of seat: its cards
 * (top or newest last), *n their number; NULL (and *n NULL) for another
 * zone. */
uint8_t *dis_place(dis_state *s, int zone, int seat, uint8_t **n);
/* Whether card i, on side's play area, fits filter f of a trait whose
 * controller is ctrl, whose own card is self and whose subject ("it") is
 * subj (DIS_NONE: none). */
bool dis_fits(const dis_state *s, const dis_filter *f, int ctrl, int self,
              int subj, int i, int side);
/* Whether instance i is in a play area (a row; not minted). */
bool dis_in_play(const dis_state *s, int i);
/* Whether instance i is in a row or its side's minted area. */
bool dis_in_area(const dis_state *s, int i);
/* How many of the first `picks` draft picks (1-2-2-1-1-2-2-1) are seat's:
 * the Villain instances of its block filled so far. */
int dis_picks_of(int picks, int seat);
/* Whether seat could mint Villain v now (the rows as they are). */
bool dis_can_mint(const dis_state *s, int seat, int v);
/* Applies an option (dis.c); the ruleset's apply. */
eng_rc dis_apply(void *st, uint32_t code, unsigned *flags, eng_events *ev);
/* The ruleset's prompt, question, option, pass_option (dis.c). */
void dis_prompt(const void *st, eng_prompt *p);
void dis_question(const void *st, const eng_prompt *p, char *buf, size_t cap);
void dis_option(const void *st, const eng_prompt *p, int i,
                char id[ENG_ID_MAX + 1], char label[ENG_LABEL_MAX + 1]);
int dis_pass_option(const void *st, const eng_prompt *p);
/* Option codes: kind << 16 | a << 8 | b. */
enum {
  DIS_O_DESIGN = 1, /* a: design */
  DIS_O_VILLAIN,    /* a: pool index */
  DIS_O_START,
  DIS_O_DEFER,
  DIS_O_PLAY,       /* a: card */
  DIS_O_ROOM,
  DIS_O_TRAIT,
  DIS_O_MINT,
  DIS_O_RESOLVE,
  DIS_O_END,
  DIS_O_INT,
  DIS_O_PASS,
  DIS_O_PICK,
  DIS_O_COPY        /* a: card, b: trait */
};
#define DIS_CODE(k, a, b) ((uint32_t)(k) << 16 | (uint32_t)(a) << 8 | (uint32_t)(b))
#define DIS_CODE_KIND(c) ((int)((c) >> 16))
#define DIS_CODE_A(c) ((int)(((c) >> 8) & 0xFF))
#define DIS_CODE_B(c) ((int)((c)&0xFF))

/* dis_io.c */
json_t *dis_view(const void *st, int viewer);
json_t *dis_to_json(const void *st);
eng_rc dis_from_json(void *st, const json_t *j);
int dis_check(const void *st, char *msg, size_t cap);
void dis_result(const void *st, eng_result *r);
/* dis_text.c */
void dis_render(const json_t *view, int what, char *buf, size_t cap);
/* dis_ai.c */
int dis_ai(const void *st, const eng_prompt *p, eng_rng *rng);
void dis_ai_why(const void *st, const eng_prompt *p, int i, char *buf,
                size_t cap);
/* The phase's stable name ("main", "window"...), for saves and views. */
const char *dis_phase_name(int phase);
const char *dis_zone_name(int zone);

#endif
