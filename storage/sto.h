/*
 * sto.h: Lair's persistence, one interface with two engines behind it:
 * SQLite (a file, the default) and PostgreSQL (a postgresql:// URL, so
 * that several Lair processes can share one database).
 *
 * Event sourcing: a game row (ruleset, config, seed, where it is played,
 * status), its seats, an append-only moves table and periodic snapshots of
 * the state. A move is committed before anyone hears of it; the moves
 * table's (game, seq) key is the arbiter, so a move is accepted only if
 * its sequence number is the next one, and a request id (a Discord
 * interaction id, a console line number) is applied at most once.
 * Nothing here knows a game's rules: states and configs are opaque text.
 * Processes sharing a database coordinate through it alone: a game's
 * version and row lock (sto_game_lock), timers taken once
 * (sto_timer_take).
 */
#ifndef LAIR_STO_H
#define LAIR_STO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define STO_ERRORS(X)                                                          \
  X(OK, "OK.")                                                                 \
  X(NOMEM, "Out of memory.")                                                   \
  X(IO, "The database could not be read or written.")                          \
  X(CORRUPT, "The database file is damaged or not a Lair database; it was "    \
             "left untouched.")                                                \
  X(TOO_NEW, "The database was written by a newer Lair; it was left "          \
             "untouched. Upgrade Lair to use it.")                             \
  X(BUSY, "The database is busy; try again.")                                  \
  X(NOT_FOUND, "No such game.")                                                \
  X(CONFLICT, "Another move was recorded first; reload and try again.")        \
  X(DUPLICATE, "That request was already applied.")                            \
  X(TOO_BIG, "A stored value is larger than Lair accepts.")                    \
  X(INVALID, "Storage was asked to record a malformed value.")

typedef enum {
#define STO_RC_ENUM(name, text) STO_##name,
  STO_ERRORS(STO_RC_ENUM)
#undef STO_RC_ENUM
      STO_RC_COUNT
} sto_rc;

/* Returns the human text of rc (static, never NULL). */
const char *sto_strerror(sto_rc rc);

typedef struct sto sto;

/* Opens the database at path. A path that starts with postgresql:// or
 * postgres:// is a PostgreSQL connection URI (libpq's, e.g.
 * postgresql://lair@db/lair or postgresql:///lair?host=/run/pg&port=5432):
 * a database without Lair's tables gets the whole schema in one
 * transaction under an advisory lock (processes starting at once do not
 * race; sto_created tells which made it), its version in the table
 * lair_meta; one of a newer version is refused (STO_TOO_NEW), one that
 * holds a table of Lair's names but no lair_meta is another program's
 * (STO_CORRUPT), both untouched. Errors name the database without its
 * password (sto_redact). A connection the server dropped is made again
 * before the next transaction or statement outside one; a transaction it
 * cut fails whole (STO_IO).
 *
 * Anything else is an SQLite file path: opened in WAL mode, its schema
 * migrated forward (PRAGMA user_version). Only where no file exists is a new
 * database made (under another name, renamed into place once its schema
 * is in; sto_created tells). An existing file that is empty, not a
 * database, not Lair's, missing a table of its schema version, or of a
 * newer version is refused (STO_CORRUPT / STO_TOO_NEW) WITHOUT being
 * modified. Start-up cost does not grow with the file: the full check is
 * sto_check. On error *out is NULL and err (if not NULL) holds a one-line
 * explanation. A handle is used by one thread at a time; open one per
 * thread. On PostgreSQL a handle is one connection: two handles are two
 * sessions, whose transactions and locks wait on each other even within
 * one thread. */
sto_rc sto_open(const char *path, sto **out, char *err, size_t cap);
/* Whether sto_open made a new database (no file was at its path, or the
 * PostgreSQL database held no Lair schema). */
bool sto_created(const sto *db);
/* Which engine db runs on: "sqlite" or "postgresql" (static text). */
const char *sto_backend(const sto *db);
/* Whether path names a PostgreSQL database (a postgresql:// or
 * postgres:// URL) rather than an SQLite file: a URL is no file path, so
 * callers make no directory for it and write nothing beside it. */
bool sto_is_url(const char *path);
/* Copies path into out (cap bytes with the NUL, cut to fit) with a URL's
 * password, in its user part or as a `password` parameter, replaced by
 * "***": what may be shown or logged of a database's name. */
void sto_redact(const char *path, char *out, size_t cap);
/* Checks the whole database at path, read-only: SQLite's integrity check,
 * foreign keys (skipped on PostgreSQL, whose server keeps its own pages
 * and keys sound), then Lair's rules on its rows (moves numbered 0..n-1 and
 * counted, seats dense, snapshots within the moves, known statuses, no
 * invitation left in a started game),
 * calling report for each problem found (*problems counts them; a kind
 * with more than 100 is cut short). Returns STO_OK when the check ran,
 * problems or not, else why it could not (err says so). Reads the whole
 * database: for `lair check`, not for start-up. */
sto_rc sto_check(const char *path,
                 void (*report)(void *ctx, const char *problem), void *ctx,
                 long *problems, char *err, size_t cap);
/* Closes db; NULL is fine. */
void sto_close(sto *db);
/* The schema version this build writes. */
int sto_schema_version(void);

/* ---- games ------------------------------------------------------------ */
enum { STO_LOBBY = 0, STO_RUNNING = 1, STO_FINISHED = 2, STO_ABORTED = 3 };

#define STO_ID_MAX 32      /* ruleset ids, Discord snowflakes as text */
#define STO_CONFIG_MAX 512 /* a game's config JSON */

typedef struct sto_game {
  int64_t id;                   /* assigned by sto_game_create */
  char ruleset[STO_ID_MAX + 1]; /* "supervillain" */
  int ruleset_version;
  char config[STO_CONFIG_MAX + 1]; /* JSON text, opaque here */
  uint64_t seed;
  char guild[STO_ID_MAX + 1];   /* "" for a DM or the console */
  char channel[STO_ID_MAX + 1]; /* where the game is played */
  char creator[STO_ID_MAX + 1]; /* user id */
  int status;                   /* STO_LOBBY ... */
  int64_t created, updated;     /* Unix seconds, from the caller's clock */
  int64_t moves;                /* number of moves recorded (next seq) */
  int ai_due;                   /* 1: the next decision is an AI seat's */
  int64_t version; /* advanced by every write to the game's row, seats,
                      invitations and moves */
} sto_game;

/* Inserts g (id and moves ignored); *id receives the new game id. */
sto_rc sto_game_create(sto *db, const sto_game *g, int64_t *id);
/* Reads game id into *out; STO_NOT_FOUND if there is none. */
sto_rc sto_game_get(sto *db, int64_t id, sto_game *out);
/* Sets a game's status and updated time; STO_NOT_FOUND if no such game. */
sto_rc sto_game_set_status(sto *db, int64_t id, int status, int64_t now);
/* Replaces a game's config (e.g. seats fixed at start) and seed;
 * STO_NOT_FOUND if no such game. */
sto_rc sto_game_set_config(sto *db, int64_t id, const char *config,
                           uint64_t seed, int64_t now);
/* Marks whether game id's next decision belongs to an AI seat (a restart
 * lets those seats answer: sto_game_list_ai_due). */
sto_rc sto_game_set_ai_due(sto *db, int64_t id, bool due);
/* Inside a transaction: holds game id against every other writer until
 * the transaction ends, and reads its current version into *version (a
 * process that cached the game compares it with the version it read).
 * On PostgreSQL a row lock (another handle's lock makes this wait, up to
 * the server's lock_timeout: STO_BUSY); on SQLite the transaction already
 * holds the file's write lock. STO_NOT_FOUND if there is no such game;
 * STO_INVALID outside a transaction. */
sto_rc sto_game_lock(sto *db, int64_t id, int64_t *version);
/* Calls fn for each running game marked ai_due, oldest first. */
sto_rc sto_game_list_ai_due(sto *db, int (*fn)(void *ctx, const sto_game *g),
                            void *ctx);
/* Counts the games of channel (*n) with a status in statuses, or those
 * user sits in (sto_game_count_user). */
sto_rc sto_game_count(sto *db, const char *channel, unsigned statuses, long *n);
sto_rc sto_game_count_user(sto *db, const char *user, unsigned statuses,
                           long *n);
/* The game a request that names none means: among the games of channel
 * (or, channel NULL, the games user sits in anywhere) with a status in
 * statuses, the best two by rank (2 when user sits in it or is invited
 * to it, plus 1 when it is a lobby or running), newest first within a
 * rank. *n receives how many (0-2); two of equal rank make the choice
 * ambiguous. */
sto_rc sto_game_pick(sto *db, const char *channel, const char *user,
                     unsigned statuses, int64_t ids[2], int ranks[2], int *n);
/* Calls fn for each game in channel (all channels when channel is NULL)
 * whose status is in the bit mask statuses (1 << STO_LOBBY | ...), newest
 * first; fn returns non-zero to stop. */
sto_rc sto_game_list(sto *db, const char *channel, unsigned statuses,
                     int (*fn)(void *ctx, const sto_game *g), void *ctx);

/* The same for the games user sits in, in any channel. */
sto_rc sto_game_list_user(sto *db, const char *user, unsigned statuses,
                          int (*fn)(void *ctx, const sto_game *g), void *ctx);
/* The same for the games of one server (guild "" : the console table's
 * and DMs'), in every channel. */
sto_rc sto_game_list_guild(sto *db, const char *guild, unsigned statuses,
                           int (*fn)(void *ctx, const sto_game *g), void *ctx);

/* ---- seats ------------------------------------------------------------ */
typedef struct sto_seat {
  int seat; /* 0-based */
  char user[STO_ID_MAX + 1];
  char name[64]; /* display name at join time */
} sto_seat;

/* Puts user in seat (replacing whoever sat there); STO_NOT_FOUND if no
 * such game. */
sto_rc sto_seat_set(sto *db, int64_t game, const sto_seat *s);
/* Removes a seat and renumbers nothing (callers keep seats dense); an
 * empty seat is not an error. */
sto_rc sto_seat_remove(sto *db, int64_t game, int seat);
/* Reads up to max seats of game ordered by seat; *n receives the count.
 * STO_TOO_BIG if the game has more than max seats (out holds the first). */
sto_rc sto_seat_list(sto *db, int64_t game, sto_seat *out, int max, int *n);

/* ---- invitations --------------------------------------------------------
 * The members invited to a lobby (a rematch's) who have not joined or
 * declined yet: a sto_seat each, whose seat is the one they held in the
 * game before (it orders the list). A lobby's game picks rank an invited
 * member as seated (sto_game_pick). */
/* Invites inv->user to game (replacing an invitation of theirs);
 * STO_NOT_FOUND if no such game. */
sto_rc sto_invite_set(sto *db, int64_t game, const sto_seat *inv);
/* Withdraws user's invitation to game; *removed (if not NULL) tells
 * whether there was one. */
sto_rc sto_invite_remove(sto *db, int64_t game, const char *user,
                         bool *removed);
/* Reads up to max invitations of game, as sto_seat_list reads seats. */
sto_rc sto_invite_list(sto *db, int64_t game, sto_seat *out, int max, int *n);

/* ---- moves ------------------------------------------------------------ */
#define STO_OPTION_MAX 64
#define STO_REQUEST_MAX 64

typedef struct sto_move {
  int64_t seq;  /* 0, 1, 2... per game */
  int seat;     /* who answered */
  int kind;     /* STO_MOVE_ANSWER, STO_MOVE_TAKEBACK */
  int turn;     /* the engine's turn number when it was answered */
  int revealed; /* 1 if the answer revealed information (no takeback) */
  char option[STO_OPTION_MAX + 1];   /* the option id ("" for a takeback) */
  char request[STO_REQUEST_MAX + 1]; /* the request id that caused it */
  int64_t time;
} sto_move;
enum { STO_MOVE_ANSWER = 0, STO_MOVE_TAKEBACK = 1 };

/* Appends m to game in one transaction, together with the game's move
 * count. STO_CONFLICT if m->seq is not the next sequence number;
 * STO_DUPLICATE if m->request was already used by any move (then nothing
 * is written); STO_NOT_FOUND if there is no such game; STO_INVALID if
 * m->request is empty. Durable (SQLite synchronous=FULL; PostgreSQL's
 * commit as the server's synchronous_commit has it) when it returns
 * STO_OK. */
sto_rc sto_move_append(sto *db, int64_t game, const sto_move *m);
/* Calls fn for each move of game with seq >= from, in order. */
sto_rc sto_move_list(sto *db, int64_t game, int64_t from,
                     int (*fn)(void *ctx, const sto_move *m), void *ctx);
/* Whether request id was already applied; *game and *seq (if not NULL)
 * receive where. */
sto_rc sto_request_seen(sto *db, const char *request, bool *seen, int64_t *game,
                        int64_t *seq);

/* What a move did, in words: line n of move seq, for seat (-1: everyone).
 * Written in the move's transaction; read back per turn. */
#define STO_LINE_MAX 480
typedef struct sto_line {
  int64_t seq;
  int n;
  int seat;                          /* who may read it; -1: everyone */
  int mover;                         /* the seat that made the move */
  int turn;                          /* the move's turn */
  int64_t time;                      /* the move's time */
  char request[STO_REQUEST_MAX + 1]; /* the move's request id */
  char text[STO_LINE_MAX + 1];
} sto_line;
/* Adds line n of move seq of game; STO_TOO_BIG when text is longer than
 * STO_LINE_MAX bytes (the transaction is spoilt, like any failed write). */
sto_rc sto_line_add(sto *db, int64_t game, int64_t seq, int n, int seat,
                    const char *text);
/* Calls fn, in order, for each line of game's moves of turns from..to that
 * viewer may read (viewer -1: the public lines only); fn returning nonzero
 * stops the walk. */
sto_rc sto_line_list(sto *db, int64_t game, int from, int to, int viewer,
                     int (*fn)(void *ctx, const sto_line *l), void *ctx);

/* Every state-changing request is remembered in the transaction of its
 * command, with who sent it and the text it was first answered with, so
 * that a retry is answered rather than applied again. */
#define STO_ANSWER_MAX 2000
/* Remembers request id; STO_DUPLICATE when it already is. */
sto_rc sto_request_put(sto *db, const char *id, const char *user, int64_t time,
                       const char *answer);
/* Whether request id is remembered (*seen); then user and answer (cut to
 * their caps) receive who sent it and its first answer. */
sto_rc sto_request_answer(sto *db, const char *id, bool *seen, char *user,
                          size_t ucap, char *answer, size_t cap);
/* Forgets the requests remembered before the time `before`. */
sto_rc sto_request_prune(sto *db, int64_t before);

/* ---- snapshots ------------------------------------------------------- */
#define STO_STATE_MAX (16u << 20) /* bytes of one snapshot's state text */

/* Stores the state text after `seq` moves (replacing an older one; a
 * snapshot older than the stored one is ignored). STO_TOO_BIG past
 * STO_STATE_MAX. */
sto_rc sto_snapshot_put(sto *db, int64_t game, int64_t seq, const char *state);
/* Reads the newest snapshot of game: *seq and *state (malloc'd, caller
 * frees); STO_NOT_FOUND when there is none. */
sto_rc sto_snapshot_get(sto *db, int64_t game, int64_t *seq, char **state);

/* ---- timers -------------------------------------------------------------
 * Reminders, deadlines and lobby expiry are rows, not memory, so they
 * survive restarts and several processes can share them: whoever claims
 * a due row (deletes it while it still has the due time it read) acts.
 * A turn's clock is a row too: while its seat is not deciding it is kept
 * stopped (due STO_TIMER_STOPPED, never due) with the seconds it has
 * left in data. */
#define STO_TIMER_STOPPED INT64_MAX
typedef struct sto_timer {
  int64_t game;
  char kind[17]; /* "remind", "warn", "deadline", "lobby" */
  int seat;      /* -1 when it concerns the whole game */
  int64_t due;   /* Unix seconds, or STO_TIMER_STOPPED */
  int64_t data;  /* the timer's own counter (reminders sent, seconds left) */
  int turn;      /* the engine turn a turn clock counts; -1 for the others */
} sto_timer;

/* Sets (or moves) the timer (game, kind, seat). */
sto_rc sto_timer_set(sto *db, const sto_timer *t);
/* Removes game's timers of kind for seat (seat < 0: every seat); kind
 * NULL removes all of the game's timers. */
sto_rc sto_timer_clear(sto *db, int64_t game, const char *kind, int seat);
/* The earliest timer due at or before now; STO_NOT_FOUND if none. */
sto_rc sto_timer_next(sto *db, int64_t now, sto_timer *out);
/* Reads one timer; STO_NOT_FOUND if unset. */
sto_rc sto_timer_get(sto *db, int64_t game, const char *kind, int seat,
                     sto_timer *out);
/* Claims t: deletes it if it still is as read. *claimed tells whether
 * this caller won it (another process may have been first). */
sto_rc sto_timer_claim(sto *db, const sto_timer *t, bool *claimed);
/* Inside a transaction: removes the earliest timer due at or before now
 * that no other open transaction holds, and returns it in *out. The
 * removal commits with the transaction, so the timer's effects and its
 * removal are one, and exactly one process fires each timer (on
 * PostgreSQL a timer another transaction holds is skipped, not waited
 * for). STO_NOT_FOUND when none is due; STO_INVALID outside a
 * transaction. */
sto_rc sto_timer_take(sto *db, int64_t now, sto_timer *out);

/* ---- audit log ------------------------------------------------------------
 */
typedef struct sto_audit {
  char scope[STO_ID_MAX + 8]; /* "guild:ID" */
  int64_t time;
  char actor[96];  /* "name (id)" */
  char action[24]; /* "abort", "kick", "settings"... */
  int64_t game;    /* 0 when none */
  char detail[256];
} sto_audit;

/* Appends a moderator action. */
sto_rc sto_audit_add(sto *db, const sto_audit *a);
/* Calls fn for the newest `limit` entries of scope, newest first. */
sto_rc sto_audit_list(sto *db, const char *scope, int limit,
                      int (*fn)(void *ctx, const sto_audit *a), void *ctx);

/* ---- key/value settings (per guild or channel) ----------------------- */
/* Reads setting key of scope into buf; STO_NOT_FOUND if unset. */
sto_rc sto_setting_get(sto *db, const char *scope, const char *key, char *buf,
                       size_t cap);
/* Writes setting key of scope. */
sto_rc sto_setting_set(sto *db, const char *scope, const char *key,
                       const char *value);

/* ---- messages kept up to date in place ---------------------------------
 * A transport that edits a message as a turn goes on (Discord: a turn's
 * channel message and DMs) records which message a key names, so that
 * another process, or this one after a restart, edits that message
 * rather than posting another. Keys and ids are the transport's own. */
#define STO_KEPT_KEY_MAX 160
/* Records that key names message in channel (replacing what it named). */
sto_rc sto_kept_set(sto *db, const char *key, const char *channel,
                    const char *message, int64_t time);
/* The channel and message key names; STO_NOT_FOUND if none. */
sto_rc sto_kept_get(sto *db, const char *key, char *channel, size_t ccap,
                    char *message, size_t mcap);
/* Forgets the keys recorded before the time `before`. */
sto_rc sto_kept_prune(sto *db, int64_t before);

/* ---- ratings ------------------------------------------------------------
 * A Glicko-2 rating per (server, game, player), written in the
 * transaction of a game's end (the commands layer computes it). player is
 * a user id, or an AI level ("ai:heuristic") rated as a player of its
 * own. Ratings, deviations and volatilities are stored in millionths, so
 * both engines order them exactly alike. */
#define STO_RATING_SCALE 1000000
typedef struct sto_rating {
  char guild[STO_ID_MAX + 1];     /* "" for the console */
  char ruleset[STO_ID_MAX + 1];   /* "supervillain" */
  char player[STO_ID_MAX + 1];    /* user id, or "ai:<level>" */
  char name[64];                  /* display name at the last rated game */
  int64_t rating, rd, volatility; /* millionths */
  int64_t games, wins;
  int64_t updated; /* Unix seconds of the last rated game */
} sto_rating;

/* Reads the rating of player in ruleset on guild into *out; STO_NOT_FOUND
 * when they have none. */
sto_rc sto_rating_get(sto *db, const char *guild, const char *ruleset,
                      const char *player, sto_rating *out);
/* Writes r (replacing the row of its guild, ruleset and player);
 * STO_INVALID for an empty ruleset or player or an oversized field. */
sto_rc sto_rating_put(sto *db, const sto_rating *r);
/* Calls fn for each rating player holds on guild, by ruleset id; fn
 * returning nonzero stops. */
sto_rc sto_rating_list_player(sto *db, const char *guild, const char *player,
                              int (*fn)(void *ctx, const sto_rating *r),
                              void *ctx);
/* Calls fn for the best `limit` ratings of ruleset on guild whose
 * deviation is below rd_below (millionths): by rating, then the smaller
 * deviation, more games, and player id, so the order is total. */
sto_rc sto_rating_top(sto *db, const char *guild, const char *ruleset,
                      int64_t rd_below, int limit,
                      int (*fn)(void *ctx, const sto_rating *r), void *ctx);
/* How many players of ruleset guild rates (*n). */
sto_rc sto_rating_count(sto *db, const char *guild, const char *ruleset,
                        long *n);
/* Counts one more rated game of player on guild in ruleset played as side
 * (a villain's stable id), whose display name is name (kept, the latest
 * replacing an older one); STO_INVALID for an empty or oversized side or
 * a name of STO_SIDE_NAME_MAX bytes or more. */
#define STO_SIDE_NAME_MAX 64
sto_rc sto_side_add(sto *db, const char *guild, const char *ruleset,
                    const char *player, const char *side, const char *name);
/* The side player played most often (ties: the smallest id): its id into
 * side, its display name into name (cap STO_SIDE_NAME_MAX is enough) and
 * how often into *games; STO_NOT_FOUND when none was counted. */
sto_rc sto_side_top(sto *db, const char *guild, const char *ruleset,
                    const char *player, char *side, size_t cap, char *name,
                    size_t ncap, int64_t *games);

/* ---- transactions --------------------------------------------------------
 * A command's writes (moves, status, seats, settings, timers, audit, its
 * request id) commit together or not at all: sto_tx_begin, the writes,
 * then sto_tx_end. Transactions nest: only the outermost pair begins and
 * commits, so sto_move_append (a transaction of its own when called alone)
 * joins the command's. A write that fails inside a transaction spoils it:
 * later writes are refused with the same result and the outermost
 * sto_tx_end rolls everything back, whatever its caller asks. */
/* Begins (or joins) a transaction; STO_BUSY when another process holds
 * the write lock past the busy timeout. On SQLite a transaction holds the
 * file's write lock from its start; on PostgreSQL (READ COMMITTED) it
 * holds only the rows it writes or locks (sto_game_lock), and a failed
 * statement of any kind spoils it (the server aborts the transaction). */
sto_rc sto_tx_begin(sto *db);
/* Ends one level. At the outermost level, commits when commit is true and
 * nothing failed (STO_OK once it is durable), else rolls back and returns
 * the first failure (STO_OK when commit was false: dropped as asked).
 * Inside, returns the transaction's first failure so far, or STO_OK. */
sto_rc sto_tx_end(sto *db, bool commit);
/* Whether a transaction is open. */
bool sto_in_tx(sto *db);
/* Rows changed through db since it was opened (to tell whether a command
 * wrote anything). */
int64_t sto_changes(sto *db);

#endif
