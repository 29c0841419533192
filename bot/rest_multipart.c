/*
 * rest_multipart.c: the multipart/form-data body of a message with files
 * (RFC 7578, as Discord takes it: the JSON as payload_json, the files as
 * files[0], files[1]...), streamed to curl from the request's own copies
 * of the JSON and the files.
 *
 * Why not curl's mime API: curl_mime_init draws every body's boundary
 * from the TLS library's random generator, and each of those calls runs
 * through about 1.1 MB of OpenSSL's code, which the bot's memory release
 * (bot/discord.c) then maps back every five seconds while pictures are
 * uploaded: measured with bench/bench_discord.py, 1.1 MB of the bot's RSS
 * at 500 interactions/s. A client's boundary here is drawn once from the
 * kernel (getrandom) and checked against every part it frames, so a part
 * that holds it (one chance in 2^128) is refused, never sent torn.
 */
#define _GNU_SOURCE /* memmem (glibc): not in POSIX */
#include "rest_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

int bot_rest_boundary(char out[BOT_REST_BOUNDARY_LEN + 1]) {
  unsigned char raw[16];
  size_t got = 0;
  while (got < sizeof raw) {
    ssize_t n = getrandom(raw + got, sizeof raw - got, 0);
    if (n <= 0)
      return -1;
    got += (size_t)n;
  }
  static const char hex[] = "0123456789abcdef";
  memcpy(out, "lair-", 5);
  for (size_t i = 0; i < sizeof raw; i++) {
    out[5 + 2 * i] = hex[raw[i] >> 4];
    out[6 + 2 * i] = hex[raw[i] & 15];
  }
  out[BOT_REST_BOUNDARY_LEN] = '\0';
  return 0;
}

/* Whether the boundary's line ("--" and the boundary) occurs in p. */
static bool holds(const char *boundary, const void *p, size_t n) {
  char line[BOT_REST_BOUNDARY_LEN + 3];
  size_t len = (size_t)snprintf(line, sizeof line, "--%s", boundary);
  return n >= len && memmem(p, n, line, len) != NULL;
}

/* Whether a file name may stand between quotes in a part's header. */
static bool name_ok(const char *name) {
  if (!*name)
    return false;
  for (const char *s = name; *s; s++)
    if ((unsigned char)*s < 0x20 || *s == '"' || *s == '\\' || *s == 0x7f)
      return false;
  return true;
}

rest_multipart *bot_rest_multipart_new(const char *boundary, const char *json,
                                       const req_file *files,
                                       const char *(*type_of)(const char *)) {
  size_t jlen = strlen(json);
  if (holds(boundary, json, jlen))
    return NULL;
  /* The text between the files: its size first, then the text itself. */
  size_t text = jlen + 200;
  int n_files = 0;
  for (const req_file *f = files; f; f = f->next, n_files++) {
    if (n_files == BOT_REST_FILES_MAX || !name_ok(f->name) ||
        holds(boundary, f->data, f->len))
      return NULL;
    text += strlen(f->name) + strlen(type_of(f->name)) + 200;
  }
  rest_multipart *m = malloc(sizeof *m + text);
  if (!m)
    return NULL;
  char *t = m->text, *end = m->text + text, *start = t;
  int k = 0;
  m->seg[k].p = t;
  t += snprintf(t, (size_t)(end - t),
                "--%s\r\nContent-Disposition: form-data; "
                "name=\"payload_json\"\r\nContent-Type: application/json"
                "\r\n\r\n",
                boundary);
  memcpy(t, json, jlen);
  t += jlen;
  int i = 0;
  for (const req_file *f = files; f; f = f->next, i++) {
    t += snprintf(t, (size_t)(end - t),
                  "\r\n--%s\r\nContent-Disposition: form-data; "
                  "name=\"files[%d]\"; filename=\"%s\"\r\nContent-Type: "
                  "%s\r\n\r\n",
                  boundary, i, f->name, type_of(f->name));
    m->seg[k].n = (size_t)(t - start);
    k++;
    m->seg[k].p = f->data; /* the request's copy, which outlives this */
    m->seg[k].n = f->len;
    k++;
    m->seg[k].p = start = t;
  }
  t += snprintf(t, (size_t)(end - t), "\r\n--%s--\r\n", boundary);
  m->seg[k].n = (size_t)(t - start);
  m->n_seg = k + 1;
  m->total = 0;
  for (int s = 0; s < m->n_seg; s++)
    m->total += m->seg[s].n;
  m->at = 0;
  m->off = 0;
  return m;
}

size_t bot_rest_multipart_read(char *buf, size_t size, size_t nitems,
                               void *arg) {
  rest_multipart *m = arg;
  size_t want = size * nitems, done = 0;
  while (done < want && m->at < m->n_seg) {
    size_t left = m->seg[m->at].n - m->off;
    size_t n = want - done < left ? want - done : left;
    memcpy(buf + done, (const char *)m->seg[m->at].p + m->off, n);
    done += n;
    m->off += n;
    if (m->off == m->seg[m->at].n) {
      m->at++;
      m->off = 0;
    }
  }
  return done;
}

int bot_rest_multipart_seek(void *arg, curl_off_t offset, int origin) {
  rest_multipart *m = arg;
  if (origin != SEEK_SET || offset < 0 || (uint64_t)offset > m->total)
    return CURL_SEEKFUNC_FAIL;
  size_t pos = (size_t)offset;
  m->at = 0;
  while (m->at < m->n_seg && pos >= m->seg[m->at].n) {
    pos -= m->seg[m->at].n;
    m->at++;
  }
  m->off = pos;
  return CURL_SEEKFUNC_OK;
}
