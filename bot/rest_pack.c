/*
 * rest_pack.c: texts kept deflated while they wait (bot/rest.h,
 * bot_pack). Under load most of the bot's heap is messages waiting behind
 * Discord's rate limits: a player's hand and prompt by DM, 300 to 2,000
 * bytes of JSON each, hundreds of them. Deflated they take about half.
 *
 * Raw deflate with a 4 KB window and small hash tables: a message is a
 * few KB, and zlib's defaults (a 32 KB window, 256 KB of state cleared on
 * every call) would cost far more time than the text is worth. A text
 * that does not shrink is kept as it is.
 */
#include "rest.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define ZLIB_CONST /* next_in points to const */
#include <zlib.h>

#define PACK_WINDOW_BITS 12 /* a 4 KB window */
#define PACK_MEM_LEVEL 4    /* 2,048 hash heads */

struct bot_packed {
  uint32_t len;  /* the text's length */
  uint32_t zlen; /* the deflated length; 0: data holds the text as is */
  unsigned char data[];
};

bot_packed *bot_pack(const char *text) {
  size_t len = strlen(text);
  if (len > UINT32_MAX / 2)
    return NULL;
  z_stream z;
  memset(&z, 0, sizeof z);
  if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, -PACK_WINDOW_BITS,
                   PACK_MEM_LEVEL, Z_DEFAULT_STRATEGY) != Z_OK)
    return NULL;
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
    p->zlen = 0;
    zlen = len;
  } else {
    p->zlen = (uint32_t)zlen;
  }
  /* Only what it holds stays allocated. */
  bot_packed *fit = realloc(p, sizeof *p + zlen);
  return fit ? fit : p;
}

char *bot_unpack(const bot_packed *p) {
  char *text = malloc((size_t)p->len + 1);
  if (!text)
    return NULL;
  if (p->zlen == 0) {
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
