/*
 * cmd.h: Lair's chat commands, between the transports and the engine.
 *
 * The command set is declared once as data (cmd_table: names, options
 * with types and descriptions, handler, who may use it), so the console
 * and Discord register and parse the very same table. A transport turns
 * what a user typed or clicked into a cmd_request; cmd_handle validates
 * it, asks the engine, commits the move through storage and only then
 * renders what each person may see, delivering it through the
 * transport's sink. Nothing here knows how a message travels.
 */
#ifndef LAIR_CMD_H
#define LAIR_CMD_H

#include "eng.h"
#include "sto.h"

#include <stdbool.h>
#include <stdint.h>

#define CMD_TEXT_MAX 2000 /* Discord's message limit */
#define CMD_EDIT_MAX 4000 /* an edited message: Discord's embed limit */
#define CMD_MAX_ARGS 8

typedef enum { CMD_TO_CHANNEL, CMD_TO_DM, CMD_TO_EPHEMERAL } cmd_to;

/* ---- languages (cmd_lang.c) ----------------------------------------------
 * Lair's texts are written in English and looked up, by that English
 * text, in the message catalogue of the reader's language
 * (commands/locale/LANG/NAME.json, embedded at build time). */
typedef enum { CMD_LANG_EN, CMD_LANG_DE, CMD_LANG_N } cmd_lang;
/* The language of a Discord locale: German for "de" (and "de-AT",
 * "de_DE"...), else English (NULL too). */
cmd_lang cmd_lang_of_locale(const char *locale);
/* Its code, which is also Discord's locale: "en", "de". */
const char *cmd_lang_code(cmd_lang lang);
/* english in lang: its catalogue entry, else english itself (never NULL
 * for a non-NULL english). The entry takes the same printf arguments. */
const char *cmd_tr(cmd_lang lang, const char *english)
    __attribute__((format_arg(2)));
/* Whether lang's catalogue has english (always for English). */
bool cmd_lang_has(cmd_lang lang, const char *english);
/* Whether two printf formats take the same arguments (positions "%2$s"
 * allowed in either). */
bool cmd_lang_same_args(const char *a, const char *b);
/* NULL when the catalogues are sound (JSON objects of strings, each with
 * its English text's arguments, no English text translated two ways);
 * else what is wrong (static). A faulty entry is never used. */
const char *cmd_lang_check(void);

typedef struct cmd_choice {
  char id[ENG_ID_MAX + 1];
  char label[ENG_LABEL_MAX + 1];
} cmd_choice;

/* One field of a message's table (an embed field on Discord): a name of
 * one line and a value of one or more. */
#define CMD_FIELD_NAME_MAX 256   /* bytes; Discord: 256 characters */
#define CMD_FIELD_VALUE_MAX 1024 /* bytes; Discord: 1024 characters */
#define CMD_FIELDS_MAX 25        /* Discord's fields per embed */
#define CMD_EMBED_MAX 6000       /* title, text and fields' names and values */
typedef struct cmd_field {
  const char *name;
  const char *value;
} cmd_field;

/* One message to deliver. Pointers are valid during deliver() only. */
typedef struct cmd_msg {
  cmd_to to;
  const char *user;          /* recipient's user id (DM, ephemeral) or NULL */
  const char *user_name;     /* recipient's display name or NULL */
  const char *channel;       /* the channel the request came from */
  const char *text;          /* at most CMD_TEXT_MAX bytes */
  int64_t game;              /* the game it concerns, 0 if none */
  int status;                /* STO_LOBBY.. of that game, -1 if none */
  int64_t version;           /* moves recorded in that game (for custom_ids) */
  const cmd_choice *options; /* a prompt addressed to `user` */
  int n_options;
  const char *mention; /* the user ids the message may ping (separated by
                          spaces; at most ENG_MAX_SEATS), or NULL */
  /* What the message shows when a later message to the same place (same
   * to, user and game) replaces it: "hand" (a player's hand, with their
   * turn's prompt when they decide) or "reminder"; NULL for messages that
   * all count (the table, notices). A transport that
   * holds messages back (rate limits) may drop an unsent one once a later
   * one of its slot comes. piece numbers the pieces of a long text from 0. */
  const char *slot;
  int piece;
  /* A message kept up to date in place: a later message with the same
   * to, user (or channel) , game and edit key ("turn:12") replaces its
   * text and buttons, where a transport can edit (Discord), instead of
   * being posted anew; NULL for a message of its own. Such a message is
   * never split: its text is at most CMD_EDIT_MAX bytes. title (or NULL)
   * heads it (an embed's title on Discord). */
  const char *edit;
  const char *title;
  /* With a title: the table laid out in n_fields fields (one per player),
   * shown after the text, and the game's colour (0xRRGGBB; 0: the
   * transport's own). Title, text and fields stay within Discord's
   * limits (CMD_FIELD_*, CMD_EMBED_MAX). A transport that cannot show
   * fields prints each as its name in bold, then its value. */
  const cmd_field *fields;
  int n_fields;
  uint32_t colour;
  /* A lobby's message: the transport adds Join, Leave, Start and Add AI
   * buttons for game (each runs that /game command for the clicker). */
  bool lobby;
  /* The summary of game that has ended: the transport adds Rematch and
   * Export buttons (each runs that /game command for the clicker). */
  bool ended;
  /* A DM about a game: the game's server (guild id, "" at the console)
   * and the edit key of its latest table post in the channel ("turn:12",
   * a message with channel, game and that edit), so that a transport
   * that knows where that message is can link to it; NULL otherwise. */
  const char *guild;
  const char *table;
  /* An attachment (a game record), or file_name NULL: file_len bytes of
   * file_data, sent as a file called file_name with the text. */
  const char *file_name;
  const char *file_data;
  size_t file_len;
  /* A picture of the game's table, or image_name NULL: image_len bytes of
   * a PNG (engine/pic/pic.h) drawn from the game's public view, never a
   * seat's, called image_name ("game-4-turn-12-v37.png": game, turn and
   * state version, so no two pictures of a game share a name). Carried
   * by the turn's channel message while its turn is current (and at the
   * game's end) and by the answers of /game status and /game board, for
   * the games that have pictures, when the transport shows them
   * (cmd_config.pictures). A message kept up to date in place (edit)
   * that comes without one shows none: a transport that edits it removes
   * the picture an earlier text carried, so a table never shows an older
   * picture than its text. */
  const char *image_name;
  const unsigned char *image_data;
  size_t image_len;
  /* The language of its reader (the game's channel's, the DM's user's,
   * the requester's), for the words a transport adds of its own (the
   * buttons' labels, through cmd_tr). Set by the command layer. */
  cmd_lang lang;
} cmd_msg;

#define CMD_FILE_MAX (8u << 20) /* bytes of one attachment */

typedef struct cmd_sink {
  void (*deliver)(void *ctx, const cmd_msg *m);
  void *ctx;
} cmd_sink;

typedef enum { CMD_ARG_STRING, CMD_ARG_INTEGER, CMD_ARG_USER } cmd_arg_type;

typedef struct cmd_option_def {
  const char *name;
  const char *description; /* 1-100 characters (Discord) */
  cmd_arg_type type;
  bool required;
  bool autocomplete;
  long min, max; /* CMD_ARG_INTEGER */
  /* CMD_ARG_STRING with fixed values: the NULL-terminated list of them
   * (Discord shows them as choices; Lair accepts them in any case and
   * hands the handler the listed spelling). NULL: free text. */
  const char *const *choices;
} cmd_option_def;

typedef struct cmd_request cmd_request;
typedef struct cmd_ctx cmd_ctx;

/* The top-level commands, one per audience: /game for players, /gamemod
 * for moderators (Discord shows it only to members with Manage Server,
 * default_permissions; Lair still checks every call), /prefs for a
 * member's own settings. */
typedef struct cmd_group_def {
  const char *name;
  const char *description;
  long default_permissions; /* Discord's permission bits, or -1: everyone */
} cmd_group_def;
extern const cmd_group_def cmd_groups[];
extern const size_t cmd_groups_n;

#define CMD_MAX_OPTIONS 5
typedef struct cmd_def {
  const char *group; /* "game", "gamemod" or "prefs" */
  const char *name;  /* its subcommand */
  const char *description;
  bool mod_only;
  void (*handler)(cmd_ctx *c, const cmd_request *r);
  int n_options;
  cmd_option_def options[CMD_MAX_OPTIONS];
} cmd_def;

/* The command table; cmd_table_n entries. */
extern const cmd_def cmd_table[];
extern const size_t cmd_table_n;
/* Returns the command called name in group (NULL group: "game"), or
 * NULL. */
const cmd_def *cmd_find(const char *group, const char *name);
/* Returns the group called name, or NULL. */
const cmd_group_def *cmd_find_group(const char *name);

typedef struct cmd_arg {
  const char *name;
  const char *value;
} cmd_arg;

struct cmd_request {
  const char *request_id; /* unique per user action (interaction id) */
  const char *guild;      /* "" for DMs and the console */
  const char *channel;
  const char *user;      /* user id */
  const char *user_name; /* display name */
  bool is_mod;           /* the transport decided (permissions, role) */
  bool in_dm;            /* sent from a direct message: acts on the
                            games the user sits in, wherever they are */
  bool may_thread;       /* the transport could open a thread for a game
                            here (Discord: Lair's permissions allow it) */
  /* The requester's language and the server's, as Discord names them
   * ("de", "en-US"; the interaction's locale and guild_locale), or NULL
   * when the transport does not know (cmd_lang.c keeps what they were). */
  const char *locale;
  const char *guild_locale;
  const char *group;   /* top-level command; NULL means "game" */
  const char *command; /* subcommand name, e.g. "move" */
  int n_args;
  cmd_arg args[CMD_MAX_ARGS];
};

typedef struct cmd_config {
  sto *db;
  cmd_sink sink;
  /* Where new games get their seed; NULL = the system's randomness. */
  uint64_t (*seed)(void *ctx);
  void *seed_ctx;
  int snapshot_every; /* moves between snapshots; 0 = 32 */
  /* Opens a thread under channel for a new game (the server's "threads"
   * setting); writes its channel id and returns true. NULL when the
   * transport has no threads (the console). */
  bool (*open_thread)(void *ctx, const char *channel, const char *name,
                      char *thread_id, size_t cap);
  void *thread_ctx;
  /* Pictures of the table (cmd_msg.image_name): whether the transport
   * shows them (false: none is drawn), and how much drawing they may
   * take: picture_ms milliseconds of drawing per second on average, in
   * bursts of up to CMD_PICTURE_BURST seconds of that (0: no limit). A
   * picture takes a few tens of milliseconds of one core, most of it the
   * PNG's compression, on the transport's one thread; past the limit a
   * message goes without its picture, so a flood of requests cannot keep
   * that thread drawing. The same game at the same state version is
   * drawn once: the last few pictures are kept. */
  bool pictures;
  int picture_ms;
  /* Reports a fault that nobody asked about (a picture that could not be
   * drawn), one line without private content; NULL: stderr. */
  void (*log)(void *ctx, const char *line);
  void *log_ctx;
} cmd_config;

/* Seconds of picture_ms that a burst may spend: a quarter of a second's
 * worth, so that pictures drawn back to back never hold the transport's
 * thread for long (at 250 ms/s: about 60 ms, four or five pictures). */
#define CMD_PICTURE_BURST 0.25

/* Gives TZ a value (the system's zone, CMD_TZ_DEFAULT, when it has none)
 * so that time zones can be switched safely later; call it first in main,
 * before any thread starts. */
#define CMD_TZ_DEFAULT ":/etc/localtime"
void cmd_tz_init(void);

/* Creates a command context over an open database; NULL when out of
 * memory. The caller keeps owning db and closes it after cmd_free. */
cmd_ctx *cmd_new(const cmd_config *cfg);
/* Frees c and its cached games; NULL is fine. */
void cmd_free(cmd_ctx *c);
/* Forgets every cached game, as after a restart. */
void cmd_forget(cmd_ctx *c);
/* Sets the clock (Unix seconds) used for timestamps. */
void cmd_set_now(cmd_ctx *c, int64_t now);

/* Fires the timers due by the clock (reminders, deadline warnings and
 * policies, lobby expiry), delivering through the sink. Transports call it
 * now and then (the console before each line and after !advance). */
void cmd_tick(cmd_ctx *c);

/* Catches up after a restart, before new requests are taken: lets every
 * AI seat that was left to move answer (each game in a transaction of its
 * own) and fires the timers that fell due meanwhile (cmd_tick). Returns
 * how many games it advanced, -1 when they could not be read. */
int cmd_recover(cmd_ctx *c);

/* Handles one request: validates it against the table, runs it and
 * delivers every resulting message through the sink. Bad input gets one
 * ephemeral error message and changes nothing. */
void cmd_handle(cmd_ctx *c, const cmd_request *r);

/* The server's mod_role setting (a role id), or 0 when unset. */
long cmd_mod_role(cmd_ctx *c, const char *guild);

/* The number of moves recorded in game id (its state version), or -1
 * when it cannot be loaded. */
int64_t cmd_game_version(cmd_ctx *c, int64_t id);

/* The options (with names put in) and question of game id's current
 * decision when it is user's; returns how many, or -1 when it is not
 * theirs (or the game cannot be loaded). */
int cmd_user_prompt(cmd_ctx *c, int64_t id, const char *user, cmd_choice *out,
                    int max, char *question, size_t qcap);

/* The full state of game id as canonical JSON text (hidden cards
 * included: for tests and operators, never for a channel); malloc'd,
 * NULL when the game cannot be loaded or has not started. */
char *cmd_state_text(cmd_ctx *c, int64_t id);

/* ---- game records (cmd_history.c) ------------------------------------
 * /game export writes a finished or aborted game as a JSON file:
 * eng_game_record's members plus "lair_record" (CMD_RECORD_VERSION),
 * "game" (its number), "seats" (names, in seat order), "status"
 * ("finished" or "aborted"), "result" ({"winners": [seat...], "reason"}
 * when the game is over, else null), "state_fnv1a64" (the checksum of the
 * final state's canonical text) and "record_fnv1a64" (the checksum of the
 * record's canonical JSON text without that member). `lair replay` checks
 * them. Checksums are 64-bit FNV-1a as 16 lowercase hex digits; canonical
 * JSON text is jansson's JSON_COMPACT | JSON_SORT_KEYS dump (UTF-8 kept). */
#define CMD_RECORD_VERSION 1
/* 64-bit FNV-1a of len bytes (offset basis 0xcbf29ce484222325, prime
 * 0x100000001b3). */
uint64_t cmd_fnv1a64(const void *data, size_t len);
/* Writes the checksum of g's final state (eng_game_state_text) into hex;
 * false when out of memory. */
bool cmd_state_checksum(const eng_game *g, char hex[17]);
/* Writes the checksum of the record rec (an object; its own
 * "record_fnv1a64" left out) into hex; false when out of memory or rec is
 * not an object. */
bool cmd_record_checksum(const json_t *rec, char hex[17]);
/* The record's "result" for g: {"winners": [...], "reason": ...} when the
 * game is over, else JSON null; new reference, NULL when out of memory. */
json_t *cmd_result_json(const eng_game *g);

/* Whether the n bytes at s are valid UTF-8 (RFC 3629: no overlong forms,
 * surrogates or code points past U+10FFFF). */
bool cmd_utf8_valid(const char *s, size_t n);
/* Drops, in place, every byte of s that is not part of a valid UTF-8
 * character (a character cut short at the end included); returns the new
 * length. */
size_t cmd_utf8_repair(char *s);

/* Fills out with up to max autocomplete choices for option `option` of
 * request r (whose other args are as typed so far), matching `partial`
 * case-insensitively. Returns the number of choices. */
int cmd_autocomplete(cmd_ctx *c, const cmd_request *r, const char *option,
                     const char *partial, cmd_choice *out, int max);

#endif
