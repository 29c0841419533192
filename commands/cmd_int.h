/*
 * cmd_int.h: inside the command layer. Not for transports.
 *
 * Three layers, calls flowing one way: the entry (cmd.c: requests, the
 * clock, restart recovery, one transaction each) -> the handlers
 * (cmd_table.c, cmd_async.c, cmd_history.c, cmd_settings.c) -> the shared
 * helpers (cmd_core.c, cmd_turn.c, cmd_conf.c, cmd_pic.c). A helper never
 * calls a handler or the entry; tests/layers.sh checks it on the object
 * files.
 */
#ifndef LAIR_CMD_INT_H
#define LAIR_CMD_INT_H

#include "cmd.h"
#include "pic.h"

#include <stdarg.h>
#include <string.h>

/* Copies src into dst (cap bytes), cutting it short if need be but never
 * inside a UTF-8 sequence. */
static inline void cmd_copy(char *dst, size_t cap, const char *src) {
  size_t n = strlen(src);
  if (n >= cap) {
    n = cap - 1;
    while (n > 0 && ((unsigned char)src[n] & 0xC0) == 0x80)
      n--;
  }
  memcpy(dst, src, n);
  dst[n] = '\0';
}

#define CMD_VALUE_MAX 100 /* Discord's limit for an option value we accept */

/* A game in the cache: its row, seats and (once started) engine game. */
typedef struct live {
  sto_game row;
  sto_seat seats[ENG_MAX_SEATS];
  int n_seats;
  eng_game *g; /* NULL while in the lobby */
  /* Locked and checked against storage in the open transaction
   * (cmd_load): no other process can change it until the transaction
   * ends, and the command's own writes keep it current. */
  bool held;
  struct live *next;
} live;

/* A message held while its command runs (cmd_deliver), and where its
 * picture comes from: the public view of its game when it was made
 * (pic_view, a reference of its own, or NULL), drawn only once the
 * command has committed and only if no later message replaced it. */
typedef struct cmd_held {
  cmd_msg m;
  json_t *pic_view;
  const char *pic_ruleset; /* the ruleset's id (static) */
  int pic_turn;
  bool pic_say;      /* a picture left out is said so in its text, */
  cmd_lang pic_lang; /* in this language */
} cmd_held;

/* The last pictures drawn (cmd_pic.c), by game and state version. */
#define CMD_PIC_CACHE 4
typedef struct cmd_pic_entry {
  int64_t game, version; /* game 0: empty */
  uint64_t used;
  char name[64];
  pic_png png;
} cmd_pic_entry;

struct cmd_ctx {
  cmd_config cfg;
  int64_t now;
  cmd_lang lang; /* the requester's language (cmd_lang_request) */
  /* The languages read from storage during this command, by scope
   * ("user:ID", "guild:ID"; cmd_lang.c), so that a command's many
   * messages to one reader read its settings once; forgotten when a
   * command begins and when it writes a language. */
  struct {
    char scope[64];
    cmd_lang lang;
  } langs[8];
  int n_langs;
  live *games;
  bool settling; /* AI seats are answering (cmd_settle) */
  /* The command in progress (cmd.c's transaction): its messages, held
   * until it commits; whether it failed and what to tell; the text of its
   * first answer, remembered with its request id. */
  bool holding;
  cmd_held *held;
  int n_held, cap_held;
  bool failed;
  bool retry; /* it failed because another process changed its game first:
                 cmd.c runs it again on the fresh state */
  char fail_text[400];
  char answer[STO_ANSWER_MAX + 1];
  int answer_rank;
  const char *requester;
  int64_t pruned; /* when old request ids were last forgotten */
  /* Pictures (cmd_pic.c): the last ones drawn, the drawing time left to
   * spend (milliseconds, refilled by cfg.picture_ms a second) and when it
   * was last refilled (CLOCK_MONOTONIC seconds), and the last failure
   * logged. */
  cmd_pic_entry pics[CMD_PIC_CACHE];
  uint64_t pic_uses;
  double pic_budget, pic_refilled;
  char pic_logged[200];
};

/* ---- languages (cmd_lang.c) ----
 * Every text a person reads goes through the catalogue: T(lang, "...")
 * where it is made, N_("...") where a table holds it (translated with
 * cmd_tr where it is shown). cmd_reply and cmd_fail translate their
 * format into the requester's language (c->lang), cmd_announce and
 * cmd_announce_lobby into the language of the game's server; a text
 * passed to them through "%s" is translated by whoever made it.
 * tests/lang_check.py finds the marked texts and fails on one without
 * its German form, and on a text shown without a mark. */
#define T(lang, s) cmd_tr((lang), (s))
#define N_(s) (s)
#define K_(s) (s) /* kept in English on purpose: a file format, a log line */
/* one (n is 1) or many, in lang. */
const char *cmd_trn(cmd_lang lang, long n, const char *one, const char *many)
    __attribute__((format_arg(3))) __attribute__((format_arg(4)));
/* The language a user reads in DMs and replies: their /prefs language,
 * else their Discord client's as last seen, else English. */
cmd_lang cmd_lang_user(cmd_ctx *c, const char *user);
/* The language of a server's channels ("" the console's): its
 * /gamemod settings language, else its Discord locale as last seen,
 * else English. */
cmd_lang cmd_lang_guild(cmd_ctx *c, const char *guild);
/* The language of L's channel (NULL: the console's). */
cmd_lang cmd_lang_game(cmd_ctx *c, const live *L);
/* The requester's language: their /prefs language, else r's locale,
 * else what was kept. */
cmd_lang cmd_lang_request(cmd_ctx *c, const cmd_request *r);
/* Keeps the languages r's locales name, where they changed (inside the
 * command's transaction; fails the command when it cannot). */
void cmd_lang_note(cmd_ctx *c, const cmd_request *r);
/* Forgets the languages read so far (cmd_ctx.langs): a command begins,
 * or a language setting was written. */
void cmd_lang_forget(cmd_ctx *c);

/* ---- the command in progress (cmd_core.c) ---- */
/* Starts holding messages for request r (cmd.c's transaction). */
void cmd_hold_begin(cmd_ctx *c, const cmd_request *r);
/* Delivers the held messages, in order, and stops holding. */
void cmd_hold_flush(cmd_ctx *c);
/* Forgets the held messages and stops holding. */
void cmd_hold_drop(cmd_ctx *c);
/* Hands m to the transport, or holds a copy while a command runs. */
void cmd_deliver(cmd_ctx *c, const cmd_msg *m);
/* cmd_deliver with the picture of L's public table as it is now
 * (cmd_pic.c): drawn once the command has committed, if no later message
 * replaced m, or at once outside a command. Without a picture for L
 * (cmd_pic_wanted) m goes as it is. say: a picture left out (it could
 * not be drawn, or the drawing budget is spent) is said so in m's text. */
void cmd_deliver_pic(cmd_ctx *c, const cmd_msg *m, const live *L, bool say);
/* Fails the command in progress: nothing it wrote is kept and, instead of
 * its messages, the requester reads this text (the first failure's). */
void cmd_fail(cmd_ctx *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Drops the least recently used cached games beyond the cache's size;
 * only between requests. */
void cmd_trim_cache(cmd_ctx *c);
/* Sets L's status; false (the command failed) when it cannot be saved.
 * A game that becomes finished is rated in the same transaction
 * (cmd_rate_game). */
bool cmd_set_status(cmd_ctx *c, live *L, int status);
/* Rates L's finished game (cmd_rating.c): every player's Glicko-2 rating
 * on the game's server, and the sides they played. Does nothing for a
 * game not over, whose config has "learn": true, or whose seats are all
 * one player (AI seats of one level). False after failing
 * the command when a rating cannot be read or written. */
bool cmd_rate_game(cmd_ctx *c, live *L);
/* /game stats and /game leaderboard (cmd_rating.c). */
void cmd_h_stats(cmd_ctx *c, const cmd_request *r);
void cmd_h_leaderboard(cmd_ctx *c, const cmd_request *r);

/* A game's status for people, in lang: "lobby", "running", "finished". */
const char *cmd_status_name(cmd_lang lang, int status);
void cmd_send(cmd_ctx *c, const cmd_request *r, cmd_to to, const char *user,
              const char *user_name, const live *L, const char *text,
              const cmd_choice *options, int n_options);
/* cmd_send with a user the message may ping (reminders) and a slot
 * (cmd_msg.slot, or NULL); DMs to AI seats are dropped. */
void cmd_send_to(cmd_ctx *c, const cmd_request *r, cmd_to to, const char *user,
                 const char *user_name, const live *L, const char *text,
                 const char *mention, const char *slot);
/* Sends text (split as cmd_send does) to L's channel (to:
 * CMD_TO_CHANNEL) or to the requester alone, its first piece carrying the
 * picture of L's public table (cmd_deliver_pic) for the games that have
 * one. */
void cmd_send_pic(cmd_ctx *c, const cmd_request *r, cmd_to to, const live *L,
                  const char *text);
/* An ephemeral reply to the requester. */
void cmd_reply(cmd_ctx *c, const cmd_request *r, const live *L, const char *fmt,
               ...) __attribute__((format(printf, 4, 5)));
/* A message to the channel. */
/* Announces in L's channel (one message, at most CMD_TEXT_MAX bytes) with
 * the lobby's buttons while L is a lobby. */
void cmd_announce_lobby(cmd_ctx *c, const cmd_request *r, const live *L,
                        const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void cmd_announce(cmd_ctx *c, const cmd_request *r, const live *L,
                  const char *fmt, ...) __attribute__((format(printf, 4, 5)));
const char *cmd_arg_get(const cmd_request *r, const char *name);
bool cmd_parse_int(const char *text, long min, long max, long *out);
bool cmd_parse_config(const char *text, eng_config *cfg, int *max_seats);
int cmd_seat_of(const live *L, const char *user);
void cmd_evict(cmd_ctx *c, int64_t id);
/* The ruleset called id; NULL after replying to r that Lair has no game
 * of that name, and which it has. */
const eng_ruleset *cmd_ruleset_named(cmd_ctx *c, const cmd_request *r,
                                     const char *id);
/* Makes game g (its ruleset, config and seed filled in) where request r
 * was sent: in r's channel, or in a thread of its own under it when the
 * server's `threads` setting asks for one (named thread_name), and seats
 * the requester in seat 0. *threaded tells whether a thread was opened.
 * On failure replies or fails the command, naming `what` ("game",
 * "tutorial game", in the requester's language: T(c->lang, "game")), and
 * returns false. */
bool cmd_place_game(cmd_ctx *c, const cmd_request *r, sto_game *g,
                    const char *thread_name, const char *what, int64_t *gid,
                    bool *threaded);
/* Loads game id (cached after the first time); NULL with why on error
 * (in the requester's language, c->lang).
 * Inside a command's transaction it first locks the game against every
 * other writer (sto_game_lock) and drops a cached copy that another
 * process has changed since; outside one it compares the versions only.
 * Several Lair processes may share one database. */
live *cmd_load(cmd_ctx *c, int64_t id, char *why, size_t cap);
/* L's game as it stood after its first `moves` moves (from the newest
 * snapshot not past them, else from the start), for the caller to free
 * with eng_game_free; NULL when it cannot be rebuilt. */
eng_game *cmd_game_at(cmd_ctx *c, const live *L, int64_t moves);
/* At the end of a transaction: reads the version each game held in it
 * reached through the command's own writes (commit true) and lets go of
 * them. */
void cmd_release(cmd_ctx *c, bool commit);
/* Game ids in channel with a status in the mask; -1 on error. */
int cmd_channel_games(cmd_ctx *c, const char *channel, unsigned statuses,
                      int64_t *ids, int max);
/* The games user sits in, anywhere (for requests from a DM), newest
 * first, like cmd_channel_games. */
int cmd_user_games(cmd_ctx *c, const char *user, unsigned statuses,
                   int64_t *ids, int max);
/* The display name of L's game (its ruleset's, else the stored id);
 * static storage or L's own. */
const char *cmd_game_name(const live *L);
/* Writes where L stands for people, in lang ("Game #4 (Supervillain) is
 * running: turn 3, waiting for bob") into out. */
void cmd_where(cmd_ctx *c, cmd_lang lang, const live *L, char *out, size_t cap);
/* Replies to r (ephemeral) with lead (may be NULL), L's state and next, or
 * when next is NULL the next step for r's command in that state. lead and
 * next are texts in the requester's language (c->lang), as the rest of
 * the reply is. */
void cmd_reply_state(cmd_ctx *c, const cmd_request *r, const live *L,
                     const char *lead, const char *next);
/* The game a request means (its game option, or the one game of the
 * channel the user sits in, or the only one); replies and returns NULL
 * when there is none or it is ambiguous. */
live *cmd_find_game(cmd_ctx *c, const cmd_request *r, unsigned statuses);
/* The members still invited to lobby L (a rematch's): their names
 * ("bob and carol", in lang) in buf; returns how many, or -1 when they
 * cannot be read. */
int cmd_invited(cmd_ctx *c, cmd_lang lang, const live *L, char *buf,
                size_t cap);
/* Whether r comes from the player who opened L or a moderator; if not,
 * replies that only they can `what` ("start it", in the requester's
 * language: T(c->lang, "start it")) and returns false. */
bool cmd_opener_or_mod(cmd_ctx *c, const cmd_request *r, const live *L,
                       const char *what);
/* cmd_catch.c. The line that heads every DM about L, in lang (its
 * reader's, cmd_lang_user): its number, its game's name and its channel
 * (a link on Discord). */
void cmd_dm_header(cmd_lang lang, const live *L, char *out, size_t cap);
/* The edit key of L's latest table post in its channel (cmd_msg.table);
 * false when L has none (a lobby). */
bool cmd_table_key(const live *L, char *out, size_t cap);
/* The two lines that open seat's turn DM: what happened since that seat's
 * last answer, what concerns it first, as it may see it, in the language
 * its player reads (cmd_lang_user); "" when nothing did (or it has not
 * answered yet). */
void cmd_since_text(cmd_ctx *c, const live *L, int seat, char *out, size_t cap);
/* Posts the summary of L, which has just ended, in its channel and in
 * each human player's DM (cmd_send_end), in the channel's language
 * (cmd_lang_game). */
void cmd_end_summary(cmd_ctx *c, const cmd_request *r, const live *L);
/* Sends text (at most CMD_TEXT_MAX bytes) to L's channel and, with the
 * DM header, to each human seat, as a summary with the end's buttons. */
void cmd_send_end(cmd_ctx *c, const cmd_request *r, const live *L,
                  const char *text);
/* Replaces "Villain N" by the name of seat N. */
void cmd_names(const live *L, const char *in, char *out, size_t cap);
void cmd_render(const live *L, int viewer, int what, char *out, size_t cap);
/* The current prompt's options with names put in; returns how many. */
int cmd_options(const live *L, cmd_choice *out, int max);
/* Writes who won res, a game of L, into out (cap bytes), in lang: "alice
 * and bob win", "alice wins", or nobody (a text in lang: "nobody wins")
 * when no seat did. Returns the length written. */
size_t cmd_winners(cmd_lang lang, const live *L, const eng_result *res,
                   const char *nobody, char *out, size_t cap);
/* The line that tells how L ended, in lang ("**Game #4 is over.** alice
 * wins (...)."). */
void cmd_result_text(cmd_lang lang, const live *L, char *out, size_t cap);
/* DMs the deciding player their turn (hand, as cmd_render wrote it, or
 * NULL to render it here; this turn's lines; the question and options):
 * their turn's DM, kept up to date in place, or with fresh a DM of its
 * own (asked for again with /game hand). */
void cmd_prompt(cmd_ctx *c, const cmd_request *r, const live *L,
                const char *hand, bool fresh);
void cmd_hands(const live *L, char hands[][CMD_TEXT_MAX + 1]);
/* A table's fields as they are sent: CMD_FIELD_CUT (in the reader's
 * language) ends a value that lost lines. */
#define CMD_FIELD_CUT "(more: /game status)"
typedef struct cmd_fitted {
  int n;
  const char *more; /* CMD_FIELD_CUT in the fields' language */
  char name[CMD_FIELDS_MAX][CMD_FIELD_NAME_MAX + 1];
  char value[CMD_FIELDS_MAX][CMD_FIELD_VALUE_MAX + 1];
  bool cut[CMD_FIELDS_MAX];
  cmd_field f[CMD_FIELDS_MAX]; /* pointing into name and value */
} cmd_fitted;
/* Copies the n fields f into t (the caller's, about 32 KB) within
 * Discord's limits: the first CMD_FIELDS_MAX, a name on one line of at
 * most CMD_FIELD_NAME_MAX bytes, a value of at most CMD_FIELD_VALUE_MAX
 * ("-" for an empty one), all valid UTF-8. Then, while title, text and
 * fields exceed CMD_EMBED_MAX, the longest value of several lines loses
 * its last line; when none has a line to give, text (the caller's, in
 * place) loses its oldest lines. Values cut short end with
 * CMD_FIELD_CUT in lang. Cannot fail. */
void cmd_fit_fields(cmd_fitted *t, cmd_lang lang, const cmd_field *f, int n,
                    const char *title, char *text);
/* Delivers a message kept up to date in place (cmd_msg.edit): to the
 * channel, or to who by DM; text is cut to CMD_EDIT_MAX bytes (never
 * mid-character). */
void cmd_send_edit(cmd_ctx *c, const cmd_request *r, cmd_to to,
                   const sto_seat *who, const live *L, const char *edit,
                   const char *title, const char *text,
                   const cmd_choice *options, int n_options);
/* What a move did, in words, for whom (seat -1: everyone), stored with it
 * (storage's lines). "Villain N" stands for seat N-1's name. */
#define CMD_LINES_MAX 48
typedef struct cmd_lines {
  int n;
  int seat[CMD_LINES_MAX];
  char text[CMD_LINES_MAX][STO_LINE_MAX + 1];
} cmd_lines;
/* Appends a line for seat (-1: everyone); ignored when full or empty. */
void cmd_lines_add(cmd_lines *ls, int seat, const char *text);
/* The lines of seat's answer (whose label was label) that told ev: what
 * everyone is told, what each seat alone is told, and "You chose" for
 * seat, in lang (the language of seat's person: the line is theirs
 * alone, and kept with the move as it was said). */
void cmd_answer_lines(cmd_lang lang, int seat, const eng_events *ev,
                      const char *label, cmd_lines *out);
/* After a change made in turn by seat mover (-1: nobody's move, e.g. the
 * start): the turn's channel message (and the next turn's, when it
 * passed), the mover's turn DM, changed hands by DM, the prompt to
 * whoever must answer; then AI seats answer and timers are armed. */
void cmd_after_change(cmd_ctx *c, const cmd_request *r, live *L, int turn,
                      int mover, char before[][CMD_TEXT_MAX + 1]);
/* Records a move of L with its lines (may be NULL), and its finished
 * status when it ended the game; false when it cannot be saved: then the
 * command has failed. */
bool cmd_commit(cmd_ctx *c, const cmd_request *r, live *L, int seat, int kind,
                const char *option, int turn, bool revealed,
                const cmd_lines *lines);
eng_rc cmd_apply_stored(eng_game *g, const sto_move *m);

/* ---- settings (cmd_conf.c; the /gamemod settings handler: cmd_settings.c)
 * ----
 */
typedef struct cmd_setting_def {
  const char *key;
  const char *help;
  long min, max, dflt;
  const char *const *words; /* NULL-terminated names of the values, or NULL */
} cmd_setting_def;
const cmd_setting_def *cmd_setting_find(const char *key);
/* What replaced a setting that is no more (a sentence), or NULL. */
const char *cmd_setting_retired(const char *key);
/* The ith setting of the table, or NULL past its end. */
const cmd_setting_def *cmd_setting_at(size_t i);
/* The value of setting d in scope (*found: whether it was set there), or
 * its default. */
long cmd_setting_scoped(cmd_ctx *c, const char *scope, const cmd_setting_def *d,
                        bool *found);
void cmd_guild_scope(const char *guild, char *buf, size_t cap);
/* The settings scope of a member's own preferences (/prefs). */
void cmd_user_scope(const char *user, char *buf, size_t cap);
/* A server's setting (a number, or the index of its word). */
long cmd_setting(cmd_ctx *c, const char *guild, const char *key);
/* A game's setting: the game's own value if it has one, else its
 * server's. */
long cmd_game_setting(cmd_ctx *c, const live *L, const char *key);
/* Appends a moderator action to the audit log. */
void cmd_audit(cmd_ctx *c, const cmd_request *r, const char *action,
               int64_t game, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
void cmd_h_settings(cmd_ctx *c, const cmd_request *r);
/* Parses text as a value of setting d: a number in range, or one of its
 * words (their index). */
bool cmd_setting_parse(const cmd_setting_def *d, const char *text, long *out);

/* ---- turns, AI seats and timers (cmd_turn.c) ---- */
bool cmd_is_ai(const char *user);
/* The storage scope of L's own settings ("game:<id>"). */
void cmd_game_scope(const live *L, char *buf, size_t cap);
/* L's own value of key (a number), or dflt when unset. */
long cmd_game_value(cmd_ctx *c, const live *L, const char *key, long dflt);
sto_rc cmd_set_game_value(cmd_ctx *c, const live *L, const char *key,
                          long value);
/* A request for messages that no user's request caused (timers). */
cmd_request cmd_timer_request(const live *L, const char *id);
/* Sets (or moves) L's timer of kind for seat. */
void cmd_set_timer(cmd_ctx *c, const live *L, const char *kind, int seat,
                   int64_t due, int64_t data);
/* Until when seat is on vacation in L (Unix seconds; 0: never was). */
int64_t cmd_vacation_until(cmd_ctx *c, const live *L, int seat);
/* Plays one answer with the AI of level for whoever decides in L; when
 * that is a person (their turn's clock ran out) the move's request id
 * ends in CMD_AI_FOR. */
#define CMD_AI_FOR ":deadline"
bool cmd_ai_answer(cmd_ctx *c, const cmd_request *r, live *L, int level);
/* Whether L is a tutorial game (/game learn: "learn": true in its
 * config). */
bool cmd_learning(const live *L);
/* In a tutorial game, writes into out (cap bytes, the caller's) the hint
 * for the current prompt in lang (the deciding player's): the option the
 * heuristic AI would answer now (the very one cmd_ai_answer would pick)
 * and why (the ruleset's words, English), in one line. It reads
 * only what the ruleset's ai hook reads, which is what the deciding seat
 * may see, and names only an option that seat is offered (docs/learn.md).
 * Returns its length; 0 (out empty) when L is no tutorial or nobody
 * decides. */
size_t cmd_hint(const live *L, cmd_lang lang, char *out, size_t cap);
/* Whether user asked Lair to pass every Condition or interrupt window for
 * them (/prefs set conditions:auto-pass); cmd_settle then answers "pass"
 * at once, with a request id ending in CMD_AUTO_PASS. */
#define CMD_AUTO_PASS ":autopass"
bool cmd_auto_passes(cmd_ctx *c, const char *user);
/* How many lobbies and running games user sits in, or -1 on error. */
long cmd_open_games_of(cmd_ctx *c, const char *user);
/* Whether the requester may sit in one more open game (games_per_member)
 * and the channel may hold one more (games_per_channel); false after a
 * reply saying why. */
bool cmd_member_has_room(cmd_ctx *c, const cmd_request *r, const live *L);
bool cmd_channel_has_room(cmd_ctx *c, const cmd_request *r);
/* The AI level of an AI seat's user id, or -1 for a person. */
int cmd_ai_level(const char *user);
/* Fills out as an AI seat of level at seat. */
void cmd_ai_seat(int seat, int level, sto_seat *out);
/* Lets AI seats answer while it is their decision, and passes the
 * windows of persons who pass them by standing preference. */
void cmd_settle(cmd_ctx *c, const cmd_request *r, live *L);
/* Passes, in every running game of r's user, the window waiting for them
 * now when they pass windows by standing preference (just set). */
void cmd_settle_user(cmd_ctx *c, const cmd_request *r);
/* Keeps the turn clocks (deadlines: the rule is in cmd_turn.c) and
 * re-arms the reminder for whoever must answer now. A clock already
 * running goes on: calling it again, or after a restart, starts none. */
void cmd_arm_timers(cmd_ctx *c, live *L);
/* Marks seat's clock for the turn in progress as run out: the AI answers
 * the seat's prompts until the turn passes (cmd_settle). */
void cmd_clock_run_out(cmd_ctx *c, const live *L, int seat);
/* Whether seat's clock ran out in the turn in progress. */
bool cmd_clock_ran_out(cmd_ctx *c, const live *L, int seat);
/* When seat's running clock for this turn runs out, or 0 when it has none
 * running. */
int64_t cmd_clock_due(cmd_ctx *c, const live *L, int seat);
/* Counts a missed turn for seat (durably, in the command's transaction);
 * returns the missed turns in a row, or -1 after failing the command. */
long cmd_add_miss(cmd_ctx *c, const live *L, int seat);
/* seat's missed turns in a row. */
long cmd_misses(cmd_ctx *c, const live *L, int seat);
/* seat's person answered a prompt themself: no missed turns in a row. */
void cmd_played_self(cmd_ctx *c, const live *L, int seat);
/* Starts a new lobby's expiry clock. */
void cmd_arm_lobby(cmd_ctx *c, live *L);
bool cmd_paused(cmd_ctx *c, const live *L);
/* Hands seat to the AI for good (leaving, kicks, missed turns under
 * miss_action forfeit), announced as a forfeit with why: an English text
 * marked N_() (its German form in the caller's catalogue), said in L's
 * channel's language. */
void cmd_forfeit_seat(cmd_ctx *c, const cmd_request *r, live *L, int seat,
                      const char *why);
/* Seats `to` (a person or an AI seat; its seat number is ignored) in seat
 * of running or lobby game L, with a fresh clock and no missed turns; a
 * person the AI takes over from is remembered for a rematch
 * (cmd_seat_human). false after failing the command. */
bool cmd_give_seat(cmd_ctx *c, live *L, int seat, const sto_seat *to);
/* The person who held seat of L before the AI took it over (out: their
 * id and name, seat = seat); false when there is none. */
bool cmd_seat_human(cmd_ctx *c, const live *L, int seat, sto_seat *out);
/* ---- pictures (cmd_pic.c) ---- */
/* Whether messages showing L's table carry its picture: the transport
 * shows pictures and Lair draws L's game, which has begun. */
bool cmd_pic_wanted(const cmd_ctx *c, const live *L);
/* Puts in *m the picture of view (a game of ruleset at turn) for m's game
 * and version: the one kept from before, else drawn now if the budget
 * allows. Without one, m->image_name stays NULL and, with say, its text
 * is replaced by a copy in text (cap bytes) that says why, in lang (m's
 * reader's language). A failure to draw is logged (cfg.log) once per
 * reason. The image stays valid until the next call. */
void cmd_pic_attach(cmd_ctx *c, cmd_msg *m, const char *ruleset,
                    const json_t *view, int turn, bool say, cmd_lang lang,
                    char *text, size_t cap);
/* Frees the pictures kept. */
void cmd_pic_free(cmd_ctx *c);

/* ---- game commands (cmd_table.c) ---- */
/* /game start (a rematch starts its game through it). */
void cmd_h_start(cmd_ctx *c, const cmd_request *r);
/* cmd_learn.c: /game help (a game's rules summary, by topic and page) and
 * /game learn (a tutorial game against the AI, with hints). */
void cmd_h_help(cmd_ctx *c, const cmd_request *r);
void cmd_h_learn(cmd_ctx *c, const cmd_request *r);
/* The topics of the rules that r's /game help means, completing partial
 * (autocomplete); returns how many went into out. */
int cmd_help_topics(cmd_ctx *c, const cmd_request *r, const char *partial,
                    cmd_choice *out, int max);
/* A new game's seed: the configured source's (tests) or the system's. */
uint64_t cmd_new_seed(cmd_ctx *c);

/* ---- asynchronous play (cmd_async.c) ---- */
/* Acts on a due timer t that the caller claimed. */
void cmd_fire_timer(cmd_ctx *c, const sto_timer *t);
void cmd_h_mute(cmd_ctx *c, const cmd_request *r);
void cmd_h_prefs(cmd_ctx *c, const cmd_request *r);
void cmd_h_vacation(cmd_ctx *c, const cmd_request *r);
void cmd_h_deadline(cmd_ctx *c, const cmd_request *r);
void cmd_h_addai(cmd_ctx *c, const cmd_request *r);
void cmd_h_replace(cmd_ctx *c, const cmd_request *r);
void cmd_h_pause(cmd_ctx *c, const cmd_request *r);
void cmd_h_resume(cmd_ctx *c, const cmd_request *r);

/* ---- history, records, rematches, server views (cmd_history.c) ---- */
/* An ephemeral reply to the requester carrying the file name (len bytes
 * of data) with text (cut to CMD_TEXT_MAX). */
void cmd_reply_file(cmd_ctx *c, const cmd_request *r, const live *L,
                    const char *text, const char *name, const char *data,
                    size_t len);
void cmd_h_log(cmd_ctx *c, const cmd_request *r);
void cmd_h_export(cmd_ctx *c, const cmd_request *r);
void cmd_h_rematch(cmd_ctx *c, const cmd_request *r);
void cmd_h_audit(cmd_ctx *c, const cmd_request *r);
/* /gamemod list: every game of the server, open ones first, to the
 * moderator alone. */
void cmd_h_list_server(cmd_ctx *c, const cmd_request *r);

#endif
