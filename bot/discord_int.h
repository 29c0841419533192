/*
 * discord_int.h: inside the Discord transport, shared by its files:
 * discord.c (configuration, threads, start-up), discord_send.c (messages
 * out: channel posts, DMs and their channels) and discord_ix.c
 * (interactions: answering them within Discord's time, buttons and
 * menus). Not for other layers.
 */
#ifndef LAIR_DISCORD_INT_H
#define LAIR_DISCORD_INT_H

#include "cli.h"
#include "cmd.h"
#include "discord.h"
#include "gateway.h"
#include "rest.h"
#include "sto.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#ifndef LAIR_VERSION
#define LAIR_VERSION "0.0.0"
#endif

#define MANAGE_GUILD (1ull << 5)
#define SEEN_MAX 4096
#define DM_CACHE 512
#define PER_PAGE 25
#define MAX_MSGS 32
#define LAIR_COLOUR 0x6a0dad /* an embed's colour when the game has none */
#define EDIT_CACHE 512       /* messages kept up to date in place, remembered */
/* Bytes of files the REST client may hold (waiting behind Discord's
 * limits, or on their way) before a new message goes without its
 * picture: a table's picture is 40-90 KB, so a dozen or more. */
#define PICTURES_WAITING_MAX ((size_t)512 << 10)

/* The files a message's body names in its "attachments" (their ids are
 * the indexes here), copied into one block with their bytes and names:
 * free() frees it. */
typedef struct dc_files {
  int n;
  bot_rest_file f[2];
  unsigned char data[];
} dc_files;

/* A message Lair keeps up to date in place (discord_edit.c). */
typedef struct edit_entry {
  char key[112]; /* where and what: "c:<channel>:<game:key>", "d:<user>:.." */
  char channel[32];    /* the channel it is in */
  char id[24];         /* its message id, "" while its POST is under way */
  bool saved;          /* id is recorded in the database (sto_kept_set) */
  bot_packed *pending; /* a newer body that waits for that id, packed */
  /* and its files (its picture), or NULL */
  dc_files *pending_files;
  uint64_t pending_gen;
  bot_rest_done pending_done;
  void *pending_ctx;
} edit_entry;

enum { LOG_ERROR, LOG_WARN, LOG_INFO, LOG_DEBUG };

typedef struct event {
  json_t *d;
  double received;
  uint64_t http; /* its request's handle (discord_http.h), 0: the gateway */
  struct event *next;
} event;

/* A user's DM channel ("" once Discord said it is gone). Kept in the
 * database too (setting "dm_channel" of scope "user:<id>"), so a restart
 * does not open every player's channel again; saved is false until the
 * worker has written it there. */
typedef struct dm_entry {
  char user[32];
  char channel[32];
  bool saved;
  /* When Discord refused a DM because the user's DMs are closed (50007),
   * 0 while they are open: no DM is tried until the user sends a command
   * again. Kept in the database too (setting "dm_closed"), like the
   * channel; closed_saved is false until the worker wrote it there. */
  int64_t closed;
  bool closed_saved;
  /* When the user last sent a command (bot_dc_now): a refusal of a DM
   * queued before it no longer closes their DMs. */
  double heard;
  /* The games whose channel was told that this user's DMs are closed:
   * one notice per game, however often a DM is refused again, and after a
   * restart too: kept in the database (setting "dm_noticed", the newest
   * DM_NOTICED game numbers), read once (noticed_loaded) by the worker
   * before the user's first DM, written by it while noticed_saved is
   * false. */
#define DM_NOTICED 8
  int64_t noticed[DM_NOTICED];
  int n_noticed;
  bool noticed_loaded, noticed_saved;
} dm_entry;

/* A message produced by the command being handled, kept until the
 * interaction's answer is decided. */
typedef struct out_msg {
  cmd_to to;
  char user[32];
  char channel[32];
  char *text;
  int64_t game;
  int64_t version;
  cmd_choice *options;
  int n_options;
  /* the users the message may ping, separated by spaces ("" none) */
  char mention[ENG_MAX_SEATS * (STO_ID_MAX + 1)];
  char *file_name; /* an attachment (an exported record), or NULL */
  char *file_data;
  size_t file_len;
  char *image_name; /* the table's picture (cmd_msg.image_name), or NULL */
  unsigned char *image_data;
  size_t image_len;
  char latest[48]; /* "slot:game" when a later message replaces it, or "" */
  char edit[48];   /* "game:key" of a message kept up to date in place
                      (cmd_msg.edit), or "" */
  char *title;     /* cmd_msg.title, or NULL */
  json_t *fields;  /* cmd_msg.fields as an embed's "fields", or NULL */
  uint32_t colour; /* cmd_msg.colour (0: Lair's own, LAIR_COLOUR) */
  bool lobby;      /* cmd_msg.lobby: the lobby's buttons */
  bool ended;      /* cmd_msg.ended: a summary's Rematch and Export */
  cmd_lang lang;   /* cmd_msg.lang: the buttons' labels */
  uint64_t gen;    /* counts messages (a text's pieces share it) */
} out_msg;

struct bot_discord {
  bot_discord_config cfg;
  char app_id[32];
  bot_rest *rest;
  bot_gw *gw;
  struct bot_http *http; /* the HTTP endpoint, NULL: the gateway's */
  sto *db;
  cmd_ctx *cmd;
  pthread_t worker;
  bool worker_started;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  event *head, *tail;
  int queued;
  bool stopping;
  /* The recent interaction ids (worker only), as numbers: a snowflake
   * takes 8 bytes where its text took 24. seen_n counts them all. */
  uint64_t seen[SEEN_MAX];
  unsigned seen_n;
  pthread_mutex_t dm_mu;
  dm_entry dm[DM_CACHE];
  int dm_pos;
  struct dm_job *opening;  /* DMs whose channel is being opened (dm_mu) */
  pthread_mutex_t gate_mu; /* every ack_gate's state, refs and list */
  pthread_mutex_t edit_mu; /* edits[] */
  /* The servers' names, from the gateway's GUILD_CREATE and GUILD_UPDATE
   * (guild_mu): a DM names the server of its game. */
  pthread_mutex_t guild_mu;
  struct guild_name *guilds;
  size_t n_guilds, cap_guilds;
  edit_entry edits[EDIT_CACHE];
  int edit_pos;
  bool edits_unsaved;     /* an entry's id awaits bot_dc_edit_save (edit_mu) */
  int64_t kept_pruned;    /* when old kept-message keys were last forgotten */
  out_msg msgs[MAX_MSGS]; /* worker only */
  int n_msgs;
  uint64_t gen;      /* the last out_msg.gen (worker only) */
  char health[1100]; /* DB-alive, touched while Discord is heard from */
  uint64_t heard;    /* the gateway's acks + dispatches at the last tick */
  bool health_warned;
  bot_discord_stats stats;
};

/* Keeps (or renames) the name of server id, as a GUILD_CREATE or
 * GUILD_UPDATE gave it. */
void bot_dc_guild_named(bot_discord *b, const char *id, const char *name);
/* Copies the name of server id into out (cap bytes); false when Lair
 * has not heard it (before the gateway's GUILD_CREATE, or with
 * interactions over HTTP, where no gateway runs). */
bool bot_dc_guild_name(bot_discord *b, const char *id, char *out, size_t cap);

/* Whether s is a Discord id (a snowflake: 1-20 digits). */
bool bot_dc_snowflake_ok(const char *s);
/* Copies the "id" of the object that JSON text body (a message, a
 * channel Discord made) holds into id (cap bytes); false, with id left
 * as it was, when body is NULL, not such an object, or its id no
 * snowflake that fits. */
bool bot_dc_body_id(const char *body, char *id, size_t cap);

/* ---- discord_send.c ---- */
/* The REST outcome of a message Lair does not wait for: counted, and
 * logged when it failed. */
void bot_dc_note_result(void *ctx, const bot_rest_result *r);
/* Queues a JSON request (body not consumed) on the REST thread with
 * flags (rest.h); false when it could not be queued. */
bool bot_dc_send_json(bot_discord *b, const char *method, const char *path,
                      json_t *body, unsigned flags, bot_rest_done done,
                      void *ctx);
/* The buttons or select menus of m's options, page `page` of them; NULL
 * when it has none. New reference. */
json_t *bot_dc_components(const out_msg *m, int page);
/* The JSON body of message m (ephemeral: the flag for an interaction's
 * answer); new reference, NULL when out of memory. Its "attachments"
 * name m's files as bot_dc_files lists them, and its picture is the
 * embed's image; a channel message kept up to date in place always says
 * which attachments it keeps ("[]" without a picture), so an edit
 * replaces or removes the picture an earlier text carried. */
json_t *bot_dc_message_body(const out_msg *m, bool ephemeral);
/* The files m carries (the record, then the picture), in the order of
 * its body's "attachments"; returns how many (0-2). Pointers into m. */
int bot_dc_files(const out_msg *m, bot_rest_file out[2]);
/* A copy of m's files (bot_dc_files) in one block, or NULL when m has
 * none (*nomem tells when memory ran out). */
dc_files *bot_dc_files_copy(const out_msg *m, bool *nomem);
/* m without its picture (for a copy that shows what the channel shows). */
out_msg bot_dc_without_picture(const out_msg *m);
/* Sends m to its user's DM channel, opening it first if need be. */
void bot_dc_send_dm(bot_discord *b, const out_msg *m);
/* Saves the DM channels opened since the last save (worker only). */
void bot_dc_dm_save(bot_discord *b);
/* An interaction from user came in: if Discord had refused their DMs,
 * they are tried again (worker only). */
void bot_dc_dm_heard_from(bot_discord *b, const char *user);
/* The command context's sink: keeps a copy of m in b->msgs. */
void bot_dc_collect(void *ctx, const cmd_msg *m);
/* Frees the collected messages. */
void bot_dc_clear_msgs(bot_discord *b);

/* ---- discord_edit.c ---- */
/* Sends body (JSON text, taken over) with its files (taken over, or
 * NULL) as the message key names: the first time a POST to channel,
 * later a PATCH of the message that POST made (a body waiting for that
 * message's id is replaced by a newer one, its files with it, so the
 * newest text always goes with its own picture). done (ctx) runs once
 * with the outcome, superseded when a newer body took its place. Nonzero
 * when it could not be queued (done not called). */
int bot_dc_send_edited(bot_discord *b, const char *channel, const char *key,
                       uint64_t gen, char *body, dc_files *files,
                       bot_rest_done done, void *ctx);
/* Keeps m's embed in o: its title, fields (as Discord's "fields") and
 * colour; o->title and o->fields stay NULL when out of memory. */
void bot_dc_embed_keep(out_msg *o, const cmd_msg *m);
/* Frees what bot_dc_embed_keep kept in o. */
void bot_dc_embed_drop(out_msg *o);
/* The embed of m, which has a title: title, description (m's text),
 * colour and fields, as POSTed and PATCHed. A new reference; NULL when
 * out of memory. */
json_t *bot_dc_embed(const out_msg *m);
/* Claims key, which has no message yet, for a message in channel that
 * the caller POSTs itself (an interaction's follow-up): later texts wait
 * for it as for bot_dc_send_edited's POST. The caller's request must
 * finish with *posted_fn(*posted_ctx, result) exactly once (its result
 * body the message made). false when key has a message already, or out
 * of memory. */
bool bot_dc_edit_claim(bot_discord *b, const char *channel, const char *key,
                       bot_rest_done *posted_fn, void **posted_ctx);
/* Records that key's message is message id in channel (one an
 * interaction's callback just updated). */
void bot_dc_edit_known(bot_discord *b, const char *key, const char *channel,
                       const char *id);
/* The key of out_msg m's message: "" when m is not kept up to date. */
void bot_dc_edit_key(const out_msg *m, char *key, size_t cap);
/* Worker only. Another process (or this one before a restart) may have
 * made key's message: when key is not in the table, its message is
 * looked up in the database (sto_kept_get), so that the next text edits
 * it rather than posting another. */
void bot_dc_edit_recall(bot_discord *b, const char *key);
/* Worker only. The message id of kept message key (recalled from the
 * database when this process does not hold it) into id; false when none
 * is known yet. */
bool bot_dc_edit_id(bot_discord *b, const char *key, char *id, size_t cap);
/* Worker only: records in the database the ids the table learnt since
 * (one transaction), and now and then forgets old keys there. */
void bot_dc_edit_save(bot_discord *b);

/* ---- discord_ix.c ---- */
struct ack_gate;
typedef struct ix {
  const char *id, *token, *channel, *guild;
  const char *user, *name;
  const char *locale, *guild_locale; /* Discord's ("de", "en-US"), or NULL */
  bool is_mod, in_dm;
  int type;
  json_t *data;
  double received;
  struct ack_gate *gate;  /* NULL when out of memory: follow-ups go at once */
  bool dms_here;          /* the requester's DMs come as ephemeral follow-ups */
  const char *message;    /* a component's message id, or NULL */
  bool message_ephemeral; /* that message is an ephemeral one */
  bool may_thread;  /* Lair may open public threads in this server channel */
  bool lobby_click; /* a lobby's button: its message shows the lobby anew */
  uint64_t http;    /* its HTTP request's handle, 0: it came by gateway */
} ix;
/* Reads an INTERACTION_CREATE's fields into x (pointers into d, which
 * must outlive x); false when one it needs is missing or malformed. */
bool bot_dc_read_interaction(json_t *d, ix *x);
/* The request of a slash command or autocomplete x: its subcommand and
 * options (vals holds integer options as text; *focused, if focused is
 * not NULL, the option being typed). Pointers into x->data and vals. */
cmd_request bot_dc_command_request(const ix *x, char vals[][24],
                                   const char **focused);
/* Parses a button's or menu's custom_id "K:GAME[:VERSION[:REST]]" (K one
 * letter; only 'h' goes without a version); false when it is not one of
 * Lair's. */
bool bot_dc_parse_custom(const char *id, char *kind, int64_t *game,
                         int64_t *version, const char **rest);
/* Handles one INTERACTION_CREATE (d), received at `received` (worker);
 * http: its HTTP request's handle (discord_http.h), 0 when it came over
 * the gateway. */
void bot_dc_handle_interaction(bot_discord *b, json_t *d, double received,
                               uint64_t http);
/* The answer the HTTP endpoint gives interaction d if the worker has
 * none in time (any thread: it only reads d): a deferral as ephemeral as
 * the command's answer will be (type 5), a component's deferred update
 * (6), an autocomplete's empty list (8). Malloc'd JSON text; NULL when d
 * is malformed or of a type Lair does not answer. */
char *bot_dc_deferral(json_t *d);
/* Sends the messages no interaction asked for (timers, restart). */
void bot_dc_deliver_unprompted(bot_discord *b);
/* cmd_config.open_thread: opens a thread under channel for a new game. */
bool bot_dc_open_thread(void *ctx, const char *channel, const char *name,
                        char *thread_id, size_t cap);

/* Seconds on the monotonic clock. */
double bot_dc_now(void);
/* Logs one line at level (LOG_*) if the configured level lets it through;
 * never given the token. */
void bot_dc_log(const bot_discord *b, int level, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
