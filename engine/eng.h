/*
 * eng.h: the public face of Lair's game engine core.
 *
 * engine/ is pure game rules: it never reads a clock, a file or the
 * network, and links nothing but libc and jansson. Every game is a ruleset
 * (a table of functions over a flat state value) that the core drives
 * through one prompt/answer loop: prompt() says who must decide now and
 * which options they have, apply() takes one of those options. Everything
 * else Lair offers (buttons, autocomplete, AI seats, random playouts,
 * replays, takeback) is built on that one loop.
 *
 * States are flat values: a ruleset's state is `state_size` bytes with no
 * pointers inside, so the core copies it with memcpy and a game never owns
 * hidden heap memory. All randomness comes from the eng_rng inside the
 * state, so options + seed + ordered answers replay byte for byte.
 */
#ifndef LAIR_ENG_H
#define LAIR_ENG_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- results ----------------------------------------------------------
 * One result type for the whole engine; 0 is success. The strings are
 * player-facing: transports show them as they are. */
#define ENG_ERRORS(X)                                                          \
  X(OK, "OK.")                                                                 \
  X(NOMEM, "Lair ran out of memory; the move was not made.")                   \
  X(NOT_YOUR_TURN, "It is not your decision right now; another player must "   \
                   "answer first.")                                            \
  X(NOT_PLAYING, "You are not a player in this game.")                         \
  X(BAD_OPTION, "That is not one of the options you have right now.")          \
  X(GAME_OVER, "The game is over; no more moves can be made.")                 \
  X(BAD_PLAYERS, "That number of players is not allowed for this game.")       \
  X(BAD_MODE, "This game has no such mode, or those modes cannot be "          \
              "combined.")                                                     \
  X(BAD_SEAT, "There is no such seat at this table.")                          \
  X(BAD_STATE, "The saved game state is malformed.")                           \
  X(BAD_RECORD, "The game record is malformed.")                               \
  X(UNKNOWN_GAME, "Lair has no game by that name.")                            \
  X(NO_TAKEBACK, "You have no answer of this turn that can be taken back.")    \
  X(INTERNAL, "Lair's rules engine hit an internal error; the move was not "   \
              "made.")                                                         \
  X(BAD_AI, "There is no such AI level.")

typedef enum {
#define ENG_RC_ENUM(name, text) ENG_##name,
  ENG_ERRORS(ENG_RC_ENUM)
#undef ENG_RC_ENUM
      ENG_RC_COUNT
} eng_rc;

/* Returns the player-facing text of rc (static storage, never NULL). */
const char *eng_strerror(eng_rc rc);
/* Returns the stable name of rc, e.g. "BAD_OPTION" (static, never NULL). */
const char *eng_rcname(eng_rc rc);

/* ---- randomness -------------------------------------------------------
 * PCG32 (XSH-RR, 64-bit state): two 64-bit words are the whole state, so
 * it serialises into a save exactly; it passes the usual statistical
 * batteries, is a few instructions per draw, and distinct streams come for
 * free from the increment. Bounded draws use Lemire's unbiased method. */
typedef struct eng_rng {
  uint64_t state;
  uint64_t inc; /* always odd */
} eng_rng;

/* Seeds r (the caller's) from seed and a stream number (e.g. 0 for the
 * game itself). Returns nothing; cannot fail. */
void eng_rng_seed(eng_rng *r, uint64_t seed, uint64_t stream);
/* Returns the next 32 random bits; r advances. */
uint32_t eng_rng_u32(eng_rng *r);
/* Returns a uniform integer in [0, n); n must be > 0 (returns 0 if not). */
uint32_t eng_rng_below(eng_rng *r, uint32_t n);
/* Returns r as JSON, ["<16 hex>", "<16 hex>"]: a new reference the
 * caller owns, or NULL when out of memory. */
json_t *eng_rng_to_json(const eng_rng *r);
/* Reads r from eng_rng_to_json's form (j stays the caller's). Returns
 * ENG_OK, or ENG_BAD_STATE with r unchanged. */
eng_rc eng_rng_from_json(eng_rng *r, const json_t *j);
/* Returns the splitmix64 step of x: well-spread seeds from a counter. */
uint64_t eng_mix64(uint64_t x);

/* ---- piles ------------------------------------------------------------
 * An ordered stack of card numbers (a ruleset's own numbering), top last.
 * Fixed capacity keeps states flat. */
#define ENG_PILE_MAX 128
typedef struct eng_pile {
  uint16_t n;
  uint16_t c[ENG_PILE_MAX];
} eng_pile;

/* Pushes card on top; false (pile unchanged) when full. */
bool eng_pile_push(eng_pile *p, uint16_t card);
/* Pops the top card into *card; false when empty. */
bool eng_pile_pop(eng_pile *p, uint16_t *card);
/* Removes the first occurrence of card keeping order; false if absent. */
bool eng_pile_remove(eng_pile *p, uint16_t card);
/* Returns the index of card in p, or -1. */
int eng_pile_find(const eng_pile *p, uint16_t card);
/* Shuffles p in place (Fisher-Yates) with draws from r. Returns nothing. */
void eng_pile_shuffle(eng_pile *p, eng_rng *r);
/* Draws the top of deck into *card. When deck is empty it first moves the
 * whole discard pile into deck and shuffles it (*reshuffled set true).
 * Returns false, with nothing changed, when both are empty. */
bool eng_pile_draw(eng_pile *deck, eng_pile *discard, eng_rng *r,
                   uint16_t *card, bool *reshuffled);
/* Returns p as a JSON array of numbers, bottom first: a new reference
 * the caller owns, or NULL when out of memory. */
json_t *eng_pile_to_json(const eng_pile *p);
/* Reads a pile from j (the caller's); every card must be < limit.
 * Returns ENG_OK, or ENG_BAD_STATE with *p undefined. */
eng_rc eng_pile_from_json(eng_pile *p, const json_t *j, uint16_t limit);

/* ---- prompts ----------------------------------------------------------
 * A prompt addresses exactly one seat, whoever that is: the player whose
 * turn it is, or anyone else for an out-of-turn decision. Options are
 * kept compact as ruleset-private codes; their stable ids (at most
 * ENG_ID_MAX characters of [A-Za-z0-9_.-], safe inside a Discord
 * custom_id) and human labels are formatted on demand. */
#define ENG_ID_MAX 40
#define ENG_LABEL_MAX 80 /* Discord's button label limit */
#define ENG_QUESTION_MAX 200
#define ENG_OPTIONS_MAX 256 /* one prompt never needs more */
#define ENG_MAX_SEATS 8

typedef struct eng_prompt {
  int player; /* seat that must answer; -1 when the game is over */
  int turn;   /* turn counter; answers of one turn may be taken back */
  int n;      /* number of options, >= 1 while player >= 0 */
  uint32_t code[ENG_OPTIONS_MAX];
} eng_prompt;

/* Flags apply() adds to *flags. */
enum {
  ENG_REVEALED = 1u << 0, /* new information came out: no takeback past it */
};

/* ---- events -----------------------------------------------------------
 * What an answer did, told as sentences per viewer. A ruleset's apply()
 * appends one line per thing that happened, at the moment it happens: a
 * card destroyed, stolen, drawn or discarded, an Asteroid turned, points
 * scored, the game's end. A public line (seat -1) is for every viewer,
 * the channel included, and never names a card that is hidden once the
 * answer is made (in a hand or a deck, face down) unless the answer
 * revealed it; a line for seat s holds only what s may see (the cards s
 * drew, say). Players are written "Villain N" (seat + 1), which the
 * transports replace with names. Channel lines and game logs are written
 * from these lines, so every answer must yield at least one public line.
 * The lists are flat values the caller owns, usually on its stack. */
#define ENG_EVENT_TEXT_MAX 240
#define ENG_EVENTS_MAX 48
typedef struct eng_event {
  int8_t seat; /* -1: public (every viewer, the channel); else only this seat */
  char text[ENG_EVENT_TEXT_MAX + 1]; /* one whole sentence, UTF-8, ends with
                                        '.', '!' or '?' */
} eng_event;
typedef struct eng_events {
  int n;
  bool truncated; /* more happened than ENG_EVENTS_MAX lines */
  eng_event ev[ENG_EVENTS_MAX];
} eng_events;

/* Appends a line (printf-style) for seat (-1 public) to ev. A text longer
 * than ENG_EVENT_TEXT_MAX bytes is cut on a UTF-8 boundary and ends in
 * "..."; when ev already holds ENG_EVENTS_MAX lines the line is dropped
 * and ev->truncated set. A no-op when ev is NULL (nothing is formatted).
 * Returns nothing and cannot fail. */
void eng_event_add(eng_events *ev, int seat, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Empties ev (n = 0, truncated = false); NULL is fine. */
void eng_events_clear(eng_events *ev);
/* Returns how many lines of ev are for seat exactly (-1: the public ones);
 * 0 when ev is NULL. */
int eng_events_count(const eng_events *ev, int seat);
/* Writes into buf (cap bytes, always NUL-terminated when cap > 0) the
 * lines of ev for seat exactly (-1: the public lines), in order, joined
 * with single spaces. Lines that do not fit are left out, the first of
 * them cut on a UTF-8 boundary and ended with "...". Returns the length
 * written (0 for a NULL ev). The caller owns buf. */
size_t eng_events_join(const eng_events *ev, int seat, char *buf, size_t cap);

/* What a game is set up from (besides its seed). */
typedef struct eng_config {
  int players;
  char mode[64]; /* "" = the ruleset's default; modes joined with '+' */
  int first;     /* seat that starts, or -1 for a random one */
} eng_config;

typedef struct eng_result {
  bool over;
  unsigned winners; /* bit i set: seat i won (teams win together) */
  char reason[32];  /* stable, e.g. "points", "decks_exhausted" */
  int score[ENG_MAX_SEATS];
  /* What seat i plays as, when seats differ (a villain's stable id,
   * "hive_queen"); "" when they do not. Random playouts count wins by
   * it. */
  char side[ENG_MAX_SEATS][32];
  /* The side's display name for people ("The Hive Queen"); "" when seats
   * do not differ. Ratings count the sides each player played. */
  char side_name[ENG_MAX_SEATS][64];
} eng_result;

/* ---- rulesets ---------------------------------------------------------
 * A ruleset never fails on an option taken from its own current prompt,
 * except for ENG_NOMEM/ENG_INTERNAL; the core validates answers before
 * apply() sees them and restores the state if apply() fails anyway. */
typedef struct eng_ruleset {
  const char *id;   /* stable id used in saves and commands */
  const char *name; /* display name */
  int version;      /* rules version recorded in saves */
  /* The game's colour as 0xRRGGBB (an embed's side bar on Discord), or 0
   * for none (the transport's own). */
  uint32_t colour;
  int min_players, max_players;
  const char *modes_help; /* one line: the modes and how they combine */
  /* The mode names, each of which may be given alone (NULL-terminated);
   * modes_help says which combine with '+'. Commands offer them. */
  const char *const *modes;
  /* The open piles (NULL-terminated; NULL: none): keys of view(-1) whose
   * value is an array of cards, bottom first, each an object with a
   * "name". Every player may read them in full (/game pile). */
  const char *const *open_piles;
  size_t state_size;

  /* Sets up a new game in st (state_size bytes, zeroed by the caller). */
  eng_rc (*setup)(void *st, const eng_config *cfg, uint64_t seed);
  /* Fills p with who must answer now and the legal options. */
  void (*prompt)(const void *st, eng_prompt *p);
  /* Writes the question of prompt p ("Play which card?") into buf, for
   * the seat that answers it: a question a card's effect asks names the
   * card ("Jetpack Couriers' Ops: ..."). */
  void (*question)(const void *st, const eng_prompt *p, char *buf, size_t cap);
  /* Writes option i of p: id (<= ENG_ID_MAX) and label (<= ENG_LABEL_MAX). */
  void (*option)(const void *st, const eng_prompt *p, int i,
                 char id[ENG_ID_MAX + 1], char label[ENG_LABEL_MAX + 1]);
  /* Applies option code (from the current prompt); may OR ENG_REVEALED
   * into *flags. When ev is not NULL it appends the lines that say what
   * the answer did (see eng_events): at least one public line, the
   * automatic consequences included (draws, hits, the next turn, the
   * game's end). When ev is NULL nobody reads them and the ruleset must
   * format nothing, so random playouts keep their speed. Returns ENG_OK,
   * or ENG_NOMEM/ENG_INTERNAL with st left for the core to restore. */
  eng_rc (*apply)(void *st, uint32_t code, unsigned *flags, eng_events *ev);
  /* JSON of exactly what viewer (a seat, or -1 for the public/channel)
   * may see; new reference, NULL only when out of memory. */
  json_t *(*view)(const void *st, int viewer);
  /* Full state as JSON; new reference, NULL only when out of memory. */
  json_t *(*to_json)(const void *st);
  /* Reads a full state; ENG_BAD_STATE (st undefined) on any error. */
  eng_rc (*from_json)(void *st, const json_t *j);
  /* Fills r; r->over tells whether the game has ended. */
  void (*result)(const void *st, eng_result *r);
  /* Checks the ruleset's invariants (conservation, token rules, view
   * privacy...). Returns 0, or 1 with a description in msg. */
  int (*check)(const void *st, char *msg, size_t cap);
  /* The validated card list: an array of one object per distinct card
   * (with its deck and count); new reference, NULL when the built-in data
   * is invalid (the errors went to stderr when it was loaded). */
  json_t *(*cards)(void);
  /* The same validated card list as Markdown tables (what the game's
   * docs/rules page embeds); a malloc'd string the caller frees, NULL when
   * out of memory or the built-in data is invalid. A NULL member means
   * the game has no Markdown card list. */
  char *(*cards_markdown)(void);
  /* Renders a view (from view()) as Markdown text for people; what is
   * one of:
   * - ENG_RENDER_TABLE: the whole table, every seat's area included;
   * - ENG_RENDER_HAND: the viewer's private hand;
   * - ENG_RENDER_COMMON: the table without the seats' areas (turn and
   *   phase, winners, decks, discard tops, what is in play between the
   *   seats);
   * - ENG_RENDER_SEAT(s): seat s's public area alone: a first line that
   *   sums it up ("Villain 2: 3 points, 4 cards in hand", no Markdown, at
   *   most one line), then its details one per line (Projects with their
   *   Mobs, Secret Facilities...), or nothing more when it has none.
   * COMMON and the SEAT renders together show what TABLE shows; they let
   * a transport lay the table out (an embed's field per player). A
   * ruleset that does not split its table writes an empty text for them.
   * Render sees only the view, so it cannot reveal more than the view
   * holds; a SEAT render reads only the seats' public areas, which every
   * view holds alike. Writes at most cap bytes, NUL-terminated. */
  void (*render)(const json_t *view, int what, char *buf, size_t cap);
  /* Optional (NULL: the game has no heuristic; eng_ai_choose then plays
   * at random). Returns the index in [0, p->n) of the option a sensible
   * player at seat p->player picks in prompt p (p->n >= 1, the current
   * prompt of st). It looks only at what that seat may see, takes every
   * tie-break from rng and nothing else, so the same state, prompt and
   * rng always give the same answer; it allocates nothing and cannot
   * fail. Call it through eng_ai_choose, which checks the index. */
  int (*ai)(const void *st, const eng_prompt *p, eng_rng *rng);
  /* Optional (NULL: the game has none). When prompt p (the current prompt
   * of st) is an optional window out of turn (a Condition or an
   * interrupt that its seat may play or pass), returns the index of its
   * "pass" option; else -1. Such a window is opened the same way
   * whatever its seat holds, so passing it for a player who asked Lair
   * to (a standing preference) tells nothing about their hand. */
  int (*pass_option)(const void *st, const eng_prompt *p);
  /* Optional (NULL: eng_ai_hint says it in general words). Writes into
   * buf (cap bytes, NUL-terminated) a few words on why the heuristic
   * picks option i of prompt p (the current prompt of st), e.g. "it
   * wins the game now" or "it attacks the leader, Villain 2" (players
   * written "Villain N", seat + 1, as in events): no card that seat
   * p->player cannot see, since it reads only what the ai hook reads
   * and names at most the option itself, which that seat is offered.
   * Allocates nothing and cannot fail. */
  void (*ai_why)(const void *st, const eng_prompt *p, int i, char *buf,
                 size_t cap);
} eng_ruleset;

/* What render() writes (see eng_ruleset.render). */
enum { ENG_RENDER_TABLE = 0, ENG_RENDER_HAND = 1, ENG_RENDER_COMMON = 2 };
#define ENG_RENDER_SEAT(s) (16 + (s)) /* s in [0, ENG_MAX_SEATS) */

/* Returns the ruleset registered under id (static, never freed), or NULL. */
const eng_ruleset *eng_find(const char *id);
/* Returns the registered rulesets (a static array ending in NULL); *n
 * receives their number. */
const eng_ruleset *const *eng_rulesets(size_t *n);
/* The name of a game's mode for people: mode itself, or when it is NULL
 * or "" the ruleset's default (its first listed mode; "standard" when it
 * lists none). */
const char *eng_mode_name(const eng_ruleset *rs, const char *mode);

/* ---- games ------------------------------------------------------------
 * A game is a ruleset, its config, its seed and its ordered answers; the
 * state is derived from them. */
typedef struct eng_answer {
  int8_t player;
  uint8_t revealed; /* it brought new information out: final */
  int32_t turn;
  char id[ENG_ID_MAX + 1];
} eng_answer;

typedef struct eng_game {
  const eng_ruleset *rs;
  eng_config cfg;
  uint64_t seed;
  void *state;
  eng_prompt prompt; /* always the current prompt */
  eng_answer *answers;
  size_t n_answers, cap_answers;
} eng_game;

/* Creates a game; *out is owned by the caller (eng_game_free). Returns
 * ENG_OK, or ENG_UNKNOWN_GAME (rs NULL), ENG_BAD_PLAYERS, ENG_BAD_SEAT,
 * ENG_BAD_MODE, ENG_NOMEM or a setup error, with *out NULL and nothing
 * allocated. */
eng_rc eng_game_new(const eng_ruleset *rs, const eng_config *cfg, uint64_t seed,
                    eng_game **out);
/* Recreates a game from its answers and the state they lead to (a
 * snapshot, as to_json text), without replaying them; the answers keep
 * takeback working. answers and state_text stay the caller's; *out is the
 * caller's to free (eng_game_free). Returns ENG_OK, or ENG_BAD_STATE if
 * the text is not a valid state (or a setup error, or ENG_NOMEM) with
 * *out NULL. */
eng_rc eng_game_restore(const eng_ruleset *rs, const eng_config *cfg,
                        uint64_t seed, const eng_answer *answers, size_t n,
                        const char *state_text, eng_game **out);
/* Frees g and everything it owns; NULL is fine. Returns nothing. */
void eng_game_free(eng_game *g);
/* Answers the current prompt as seat player with option id. When ev is
 * not NULL it is emptied and then filled with what the answer did (see
 * eng_events; the caller owns it); NULL skips the telling (replays).
 * Returns ENG_OK, or an error with the game unchanged and ev empty:
 * ENG_GAME_OVER, ENG_NOT_PLAYING, ENG_NOT_YOUR_TURN, ENG_BAD_OPTION,
 * ENG_NOMEM, or ENG_INTERNAL when the ruleset failed or, asked for events,
 * told nothing public (a ruleset that does not say what happened cannot
 * be played). */
eng_rc eng_game_answer(eng_game *g, int player, const char *id, eng_events *ev);
/* Answers with option index i of the current prompt (AI and simulator);
 * ev and the results as eng_game_answer. */
eng_rc eng_game_answer_index(eng_game *g, int i, eng_events *ev);
/* Finds the option of the current prompt whose id or exact label is text;
 * returns its index, -1 if none, -2 if several labels match. */
int eng_game_find_option(const eng_game *g, const char *text);
/* Writes option i of the current prompt into the caller's id and label
 * (both empty when there is no option i). Returns nothing. */
void eng_game_option(const eng_game *g, int i, char id[ENG_ID_MAX + 1],
                     char label[ENG_LABEL_MAX + 1]);
/* Takes back player's last answer if the takeback rule allows it, by
 * replaying the others (g keeps its address). Returns ENG_OK, or
 * ENG_NOT_PLAYING, ENG_NO_TAKEBACK or a replay error with g unchanged. */
eng_rc eng_game_takeback(eng_game *g, int player);
/* Returns the number of answers player could take back right now. */
size_t eng_game_takeback_count(const eng_game *g, int player);
/* Fills the caller's r with the game's result. Returns nothing. */
void eng_game_result(const eng_game *g, eng_result *r);
/* The full state as canonical JSON text (sorted keys, compact); caller
 * frees with free(). NULL when out of memory. */
char *eng_game_state_text(const eng_game *g);
/* Returns the record {ruleset, version, players, mode, first, seed
 * (decimal string), answers: [[seat, id]...]}: a new reference the caller
 * owns, or NULL when out of memory. */
json_t *eng_game_record(const eng_game *g);
/* Rebuilds a game by replaying a record (rec stays the caller's; *out is
 * the caller's to free). Returns ENG_OK, or ENG_BAD_RECORD,
 * ENG_UNKNOWN_GAME or an answer's error with *out NULL. */
eng_rc eng_game_from_record(const json_t *rec, eng_game **out);

/* ---- AI seats ---------------------------------------------------------
 * A seat played by Lair itself answers every prompt addressed to it at
 * one of these levels: RANDOM picks uniformly among the legal options;
 * HEURISTIC asks the ruleset's ai hook (a greedy player that scores each
 * option), or plays RANDOM when the ruleset has none. Level names are
 * stable: `lair simulate --ai` takes them. */
#define ENG_AI_LEVELS(X)                                                       \
  X(RANDOM, "random")                                                          \
  X(HEURISTIC, "heuristic")

typedef enum {
#define ENG_AI_ENUM(name, text) ENG_AI_##name,
  ENG_AI_LEVELS(ENG_AI_ENUM)
#undef ENG_AI_ENUM
      ENG_AI_COUNT
} eng_ai_level;

/* Returns the stable name of level ("random", "heuristic"; static
 * storage), or NULL when there is no such level. */
const char *eng_ai_name(int level);
/* Returns the level called name (exact, lower case), or -1. */
int eng_ai_find(const char *name);
/* Returns the index in [0, p->n) of the option seat p->player answers
 * prompt p with at level (an eng_ai_level), st being the state p came
 * from. Deterministic: the same state, prompt, level and rng state give
 * the same index; rng (owned by the caller) is the only source of
 * randomness and advances. Nothing is allocated. Returns -1 when p has
 * no options (the game is over), level is unknown, or the ruleset's hook
 * returned an index outside the prompt (a ruleset bug). */
int eng_ai_choose(const eng_ruleset *rs, const void *st, const eng_prompt *p,
                  int level, eng_rng *rng);

/* A hint for the person who decides prompt p (a tutorial game): the
 * index of the option the heuristic AI picks there, exactly as
 * eng_ai_choose(rs, st, p, ENG_AI_HEURISTIC, rng) would with the same
 * rng state, and in why (cap bytes, the caller's, NUL-terminated) a few
 * words on why, from the ruleset's ai_why or a general text. Returns -1
 * (why empty) when p has no options. */
int eng_ai_hint(const eng_ruleset *rs, const void *st, const eng_prompt *p,
                eng_rng *rng, char *why, size_t cap);

/* ---- random playouts -------------------------------------------------- */
#define ENG_SIM_REASONS 8
#define ENG_SIM_SIDES 16
typedef struct eng_sim_stats {
  long games, moves, turns;
  long wins_by_seat[ENG_MAX_SEATS];
  char reason[ENG_SIM_REASONS][32];
  long reason_count[ENG_SIM_REASONS];
  int n_reasons;
  /* By side (eng_result.side), in order of first appearance: the games
   * a side was played in and the games it won. */
  int n_sides;
  char side[ENG_SIM_SIDES][32];
  long side_games[ENG_SIM_SIDES], side_wins[ENG_SIM_SIDES];
  long violations;
  char first_violation[256];
} eng_sim_stats;

/* Plays `games` games with uniformly random legal answers, checking the
 * ruleset's invariants after every answer (when check is true). With
 * check the answers are also told (apply() gets events): an answer
 * without a public line, or a line that is not one whole sentence for a
 * seat of the table, is a violation. Without check apply() gets NULL, so
 * nothing is formatted. Game k uses seed eng_mix64(seed + k). A game
 * longer than max_answers answers counts as a violation. Returns ENG_OK
 * or a setup error; the statistics go to *out (the caller's). */
eng_rc eng_simulate(const eng_ruleset *rs, const eng_config *cfg, uint64_t seed,
                    long games, bool check, long max_answers,
                    eng_sim_stats *out);
/* eng_simulate with an AI level per seat: levels[s] (an eng_ai_level)
 * answers every prompt addressed to seat s, for s < cfg->players; NULL
 * means every seat plays ENG_AI_RANDOM, which is exactly eng_simulate.
 * All seats draw from one answer generator per game, seeded as in
 * eng_simulate, so a run is reproducible. An AI that picks no legal
 * option counts as a violation. Returns ENG_BAD_AI (nothing played) for
 * an unknown level, else as eng_simulate. */
eng_rc eng_simulate_ai(const eng_ruleset *rs, const eng_config *cfg,
                       uint64_t seed, long games, bool check, long max_answers,
                       const int *levels, eng_sim_stats *out);

#endif
