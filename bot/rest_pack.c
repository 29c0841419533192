/*
 * rest_pack.c: texts kept deflated while they wait (bot/rest.h,
 * bot_pack). Under load most of the bot's heap is messages waiting behind
 * Discord's rate limits: a player's hand and prompt by DM, a game's turn
 * message, 300 to 2,000 bytes of JSON each, a thousand or more of them.
 *
 * Each is deflated on its own (raw deflate, an 8 KB window, small hash
 * tables: zlib's defaults, a 32 KB window and 256 KB of state cleared on
 * every call, would cost far more time than the text is worth), and on
 * its own a 1 KB text only halves: most of it is JSON and phrasing that
 * every other message repeats. So the first message texts the process
 * packs teach it: a piece of each (its first and last 256 bytes) goes
 * into a dictionary until that holds 8 KB, and every later text is
 * deflated against it, which takes it to about a fifth. The dictionary
 * never changes once learned, so whatever was packed against it can
 * always be unpacked; a text packed before then is packed without it,
 * and one that does not shrink is kept as it is.
 */
#include "rest.h"

#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define ZLIB_CONST /* next_in points to const */
#include <zlib.h>

#define PACK_WINDOW_BITS 13 /* an 8 KB window: the dictionary fits */
#define PACK_MEM_LEVEL 4    /* 2,048 hash heads */
#define DICT_SIZE 8192
#define DICT_PIECE 512 /* learned from each text: its head and tail */
/* Texts the dictionary learns from: shorter ones carry little, longer
 * ones are not messages (commands registered at start-up). */
#define DICT_TEXT_MIN 64
#define DICT_TEXT_MAX 4096

enum { PACK_PLAIN, PACK_DEFLATE, PACK_DICT };

struct bot_packed {
  uint32_t len;  /* the text's length */
  uint32_t zlen; /* what data holds: len bytes of text, or zlen deflated */
  uint8_t how;   /* PACK_PLAIN, PACK_DEFLATE or PACK_DICT */
  unsigned char data[];
};

/* The dictionary: filled under mu, then read-only once ready is set. One
 * for the process, as packed texts travel between the bot's layers and
 * threads and are freed with free(). */
static struct {
  pthread_mutex_t mu;
  bool ready;
  size_t len;
  unsigned char data[DICT_SIZE];
} dict = {.mu = PTHREAD_MUTEX_INITIALIZER};

static bool dict_ready(void) {
  return __atomic_load_n(&dict.ready, __ATOMIC_ACQUIRE);
}

/* Adds a piece of text to the dictionary while it is being learned. */
static void dict_learn(const char *text, size_t len) {
  if (len < DICT_TEXT_MIN || len > DICT_TEXT_MAX)
    return;
  pthread_mutex_lock(&dict.mu);
  if (!dict.ready) {
    size_t room = DICT_SIZE - dict.len;
    size_t head = len <= DICT_PIECE ? len : DICT_PIECE / 2;
    size_t tail = len <= DICT_PIECE ? 0 : DICT_PIECE / 2;
    head = head < room ? head : room;
    memcpy(dict.data + dict.len, text, head);
    dict.len += head;
    room -= head;
    tail = tail < room ? tail : room;
    memcpy(dict.data + dict.len, text + len - tail, tail);
    dict.len += tail;
    if (dict.len == DICT_SIZE)
      __atomic_store_n(&dict.ready, true, __ATOMIC_RELEASE);
  }
  pthread_mutex_unlock(&dict.mu);
}

bot_packed *bot_pack(const char *text) {
  size_t len = strlen(text);
  if (len > UINT32_MAX / 2)
    return NULL;
  bool with_dict = dict_ready();
  if (!with_dict)
    dict_learn(text, len);
  z_stream z;
  memset(&z, 0, sizeof z);
  if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, -PACK_WINDOW_BITS,
                   PACK_MEM_LEVEL, Z_DEFAULT_STRATEGY) != Z_OK)
    return NULL;
  if (with_dict &&
      deflateSetDictionary(&z, dict.data, (uInt)DICT_SIZE) != Z_OK) {
    deflateEnd(&z);
    return NULL;
  }
  size_t cap = deflateBound(&z, (uLong)len);
  bot_packed *p = malloc(sizeof *p + (cap > len ? cap : len));
  if (!p) {
    deflateEnd(&z);
    return NULL;
  }
  z.next_in = (const Bytef *)text;
  z.avail_in = (uInt)len;
  z.next_out = p->data;
  z.avail_out = (uInt)cap;
  int rc = deflate(&z, Z_FINISH);
  size_t zlen = cap - z.avail_out;
  deflateEnd(&z);
  p->len = (uint32_t)len;
  if (rc != Z_STREAM_END || zlen >= len) {
    memcpy(p->data, text, len);
    p->zlen = (uint32_t)len;
    p->how = PACK_PLAIN;
  } else {
    p->zlen = (uint32_t)zlen;
    p->how = with_dict ? PACK_DICT : PACK_DEFLATE;
  }
  /* Only what it holds stays allocated. */
  bot_packed *fit = realloc(p, sizeof *p + p->zlen);
  return fit ? fit : p;
}

char *bot_unpack(const bot_packed *p) {
  char *text = malloc((size_t)p->len + 1);
  if (!text)
    return NULL;
  if (p->how == PACK_PLAIN) {
    memcpy(text, p->data, p->len);
    text[p->len] = '\0';
    return text;
  }
  z_stream z;
  memset(&z, 0, sizeof z);
  if (inflateInit2(&z, -PACK_WINDOW_BITS) != Z_OK) {
    free(text);
    return NULL;
  }
  /* PACK_DICT exists only once the dictionary is ready: no lock needed. */
  if (p->how == PACK_DICT &&
      inflateSetDictionary(&z, dict.data, (uInt)DICT_SIZE) != Z_OK) {
    inflateEnd(&z);
    free(text);
    return NULL;
  }
  z.next_in = p->data;
  z.avail_in = p->zlen;
  z.next_out = (Bytef *)text;
  z.avail_out = p->len;
  int rc = inflate(&z, Z_FINISH);
  bool whole = rc == Z_STREAM_END && z.avail_out == 0;
  inflateEnd(&z);
  if (!whole) {
    free(text);
    return NULL;
  }
  text[p->len] = '\0';
  return text;
}
