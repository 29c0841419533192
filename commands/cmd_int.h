/*
 * cmd_int.h: what the command handlers (cmd_table.c) share with the
 * machinery in cmd.c. Not for transports.
 */
#ifndef LAIR_CMD_INT_H
#define LAIR_CMD_INT_H

#include "cmd.h"

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
  struct live *next;
} live;

struct cmd_ctx {
  cmd_config cfg;
  int64_t now;
  live *games;
};

const char *cmd_status_name(int status);
void cmd_send(cmd_ctx *c, const cmd_request *r, cmd_to to, const char *user,
              const char *user_name, const live *L, const char *text,
              const cmd_choice *options, int n_options);
/* An ephemeral reply to the requester. */
void cmd_reply(cmd_ctx *c, const cmd_request *r, const live *L,
               const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* A message to the channel. */
void cmd_announce(cmd_ctx *c, const cmd_request *r, const live *L,
                  const char *fmt, ...) __attribute__((format(printf, 4, 5)));
const char *cmd_arg_get(const cmd_request *r, const char *name);
bool cmd_parse_int(const char *text, long min, long max, long *out);
bool cmd_parse_config(const char *text, eng_config *cfg, int *max_seats);
int cmd_seat_of(const live *L, const char *user);
void cmd_evict(cmd_ctx *c, int64_t id);
/* Loads game id (cached after the first time); NULL with why on error. */
live *cmd_load(cmd_ctx *c, int64_t id, char *why, size_t cap);
/* Game ids in channel with a status in the mask; -1 on error. */
int cmd_channel_games(cmd_ctx *c, const char *channel, unsigned statuses,
                      int64_t *ids, int max);
/* The game a request means (its game option, or the one game of the
 * channel the user sits in, or the only one); replies and returns NULL
 * when there is none or it is ambiguous. */
live *cmd_find_game(cmd_ctx *c, const cmd_request *r, unsigned statuses);
/* Replaces "Villain N" by the name of seat N. */
void cmd_names(const live *L, const char *in, char *out, size_t cap);
void cmd_render(const live *L, int viewer, int what, char *out, size_t cap);
/* The current prompt's options with names put in; returns how many. */
int cmd_options(const live *L, cmd_choice *out, int max);
void cmd_result_text(const live *L, char *out, size_t cap);
void cmd_prompt(cmd_ctx *c, const cmd_request *r, const live *L);
void cmd_hands(const live *L, char hands[][CMD_TEXT_MAX + 1]);
/* After a change: the public line and table to the channel, changed
 * hands by DM, and the prompt to whoever must answer. */
void cmd_after_change(cmd_ctx *c, const cmd_request *r, live *L,
                      const char *public_line,
                      char before[][CMD_TEXT_MAX + 1], bool table);
/* Commits a move of L; on failure evicts L, replies and returns false. */
bool cmd_commit(cmd_ctx *c, const cmd_request *r, live *L, int seat, int kind,
                const char *option, int turn, bool revealed);
eng_rc cmd_apply_stored(eng_game *g, const sto_move *m);

#endif
