/*
 * rest_route.c: the rate-limit side of the Discord HTTP client (rest.c):
 * route keys (a route's major parameter kept, other ids folded), the
 * routes' queues, the buckets Discord names in X-RateLimit-Bucket (routes
 * it counts together share one), and the sliding window of invalid
 * answers. The client's thread only, except the window (under its lock).
 */
#include "rest_int.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t fnv1a(const char *s) {
  uint32_t h = 2166136261u;
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 16777619u;
  return h;
}

/* ---- route keys ------------------------------------------------------- */

static bool all_digits(const char *s, size_t n) {
  if (n == 0)
    return false;
  for (size_t i = 0; i < n; i++)
    if (!isdigit((unsigned char)s[i]))
      return false;
  return true;
}

static bool seg_is(const char *s, size_t n, const char *word) {
  return strlen(word) == n && memcmp(s, word, n) == 0;
}

/* Appends n bytes, truncating at cap - 1; *len counts what would have
 * been written. */
static void put(char *out, size_t cap, size_t *len, const char *s, size_t n) {
  for (size_t i = 0; i < n; i++, (*len)++)
    if (*len + 1 < cap)
      out[*len] = s[i];
  if (cap)
    out[*len < cap ? *len : cap - 1] = '\0';
}

/* Writes the route key of method path into out and returns its full
 * length (like snprintf). The major parameter is out[*mbeg, *mend): the
 * top-level resource and its id (channels, guilds), a webhook's id and
 * token, an interaction's id and token. */
size_t bot_rest_route_key(const char *method, const char *path, char *out,
                          size_t cap, size_t *mbeg, size_t *mend) {
  size_t len = 0;
  if (cap)
    out[0] = '\0';
  put(out, cap, &len, method, strlen(method));
  put(out, cap, &len, " ", 1);
  *mbeg = *mend = len;
  size_t plen = strcspn(path, "?#");
  const char *seg0 = NULL, *prev = NULL;
  size_t seg0n = 0, prevn = 0;
  int idx = -1; /* index of the segment after the leading '/' */
  const char *p = path;
  while (p < path + plen) {
    if (*p == '/') {
      put(out, cap, &len, "/", 1);
      p++;
      idx++;
      continue;
    }
    size_t n = strcspn(p, "/?#");
    if (p + n > path + plen)
      n = (size_t)(path + plen - p);
    bool top_id =
        idx == 1 && seg0 &&
        (seg_is(seg0, seg0n, "channels") || seg_is(seg0, seg0n, "guilds") ||
         seg_is(seg0, seg0n, "webhooks") ||
         seg_is(seg0, seg0n, "interactions"));
    bool top_token = idx == 2 && seg0 &&
                     (seg_is(seg0, seg0n, "webhooks") ||
                      seg_is(seg0, seg0n, "interactions"));
    if (idx == 0) {
      seg0 = p;
      seg0n = n;
      *mbeg = len;
    }
    if (top_id || top_token) {
      put(out, cap, &len, p, n);
      *mend = len;
    } else if (prev && seg_is(prev, prevn, "reactions")) {
      put(out, cap, &len, "{emoji}", 7);
    } else if (all_digits(p, n)) {
      put(out, cap, &len, "{id}", 4);
    } else {
      put(out, cap, &len, p, n);
    }
    prev = p;
    prevn = n;
    p += n;
  }
  if (*mend == *mbeg || *mend < *mbeg)
    *mbeg = *mend = len;
  return len;
}

void bot_rest_route(const char *method, const char *path, char *out,
                    size_t cap) {
  size_t b, e;
  if (!method || !path || !out || cap == 0) {
    if (out && cap)
      out[0] = '\0';
    return;
  }
  bot_rest_route_key(method, path, out, cap, &b, &e);
}

/* ---- invalid-request window (under lock) ------------------------------ */

void bot_rest_inv_expire(bot_rest *r, int64_t now) {
  while (r->inv_n > 0 && r->inv[r->inv_head] <= now - INVALID_WINDOW_MS) {
    r->inv_head = (r->inv_head + 1) % r->inv_cap;
    r->inv_n--;
  }
}

void bot_rest_inv_push(bot_rest *r, int64_t now) {
  pthread_mutex_lock(&r->lock);
  bot_rest_inv_expire(r, now);
  int slot = (r->inv_head + r->inv_n) % r->inv_cap;
  r->inv[slot] = now;
  if (r->inv_n < r->inv_cap)
    r->inv_n++;
  else /* full: the oldest falls out, the count stays at the budget */
    r->inv_head = (r->inv_head + 1) % r->inv_cap;
  pthread_mutex_unlock(&r->lock);
}

int bot_rest_inv_count(bot_rest *r, int64_t now) {
  pthread_mutex_lock(&r->lock);
  bot_rest_inv_expire(r, now);
  int n = r->inv_n;
  pthread_mutex_unlock(&r->lock);
  return n;
}

/* ---- routes and buckets (the client's thread) ------------------------- */

static bucket *bucket_get(bot_rest *r, const char *key) {
  uint32_t slot = fnv1a(key) % TABLE_SLOTS;
  for (bucket *b = r->buckets[slot]; b; b = b->next)
    if (strcmp(b->key, key) == 0)
      return b;
  size_t n = strlen(key) + 1;
  bucket *b = calloc(1, sizeof *b + n);
  if (!b)
    return NULL;
  memcpy(b->key, key, n);
  b->next = r->buckets[slot];
  r->buckets[slot] = b;
  return b;
}

void bot_rest_bucket_unref(bot_rest *r, bucket *b) {
  if (--b->refs > 0 || b->busy)
    return;
  bucket **pp = &r->buckets[fnv1a(b->key) % TABLE_SLOTS];
  while (*pp != b)
    pp = &(*pp)->next;
  *pp = b->next;
  free(b);
}

route *bot_rest_route_get(bot_rest *r, const char *key, const char *major) {
  uint32_t slot = fnv1a(key) % TABLE_SLOTS;
  for (route *rt = r->routes[slot]; rt; rt = rt->next)
    if (strcmp(rt->key, key) == 0)
      return rt;
  size_t nkey = strlen(key), nmajor = strlen(major);
  route *rt = calloc(1, sizeof *rt + nkey + 1 + nmajor + 1);
  if (!rt)
    return NULL;
  memcpy(rt->key, key, nkey);
  memcpy(rt->key + nkey + 1, major, nmajor);
  rt->major = rt->key + nkey + 1;
  /* Its provisional bucket, "?key", until Discord names the real one. */
  char stack[256], *pkey = nkey + 2 <= sizeof stack ? stack : malloc(nkey + 2);
  if (pkey) {
    pkey[0] = '?';
    memcpy(pkey + 1, key, nkey + 1);
    rt->bucket = bucket_get(r, pkey);
    if (pkey != stack)
      free(pkey);
  }
  if (!rt->bucket) {
    free(rt);
    return NULL;
  }
  rt->bucket->refs++;
  rt->next = r->routes[slot];
  r->routes[slot] = rt;
  return rt;
}

void bot_rest_route_activate(bot_rest *r, route *rt) {
  if (rt->active)
    return;
  rt->active = true;
  rt->act_next = NULL;
  rt->act_prev = r->active_tail;
  if (r->active_tail)
    r->active_tail->act_next = rt;
  else
    r->active = rt;
  r->active_tail = rt;
}

void bot_rest_route_deactivate(bot_rest *r, route *rt) {
  if (!rt->active)
    return;
  rt->active = false;
  if (rt->act_prev)
    rt->act_prev->act_next = rt->act_next;
  else
    r->active = rt->act_next;
  if (rt->act_next)
    rt->act_next->act_prev = rt->act_prev;
  else
    r->active_tail = rt->act_prev;
  rt->act_next = rt->act_prev = NULL;
}

void bot_rest_route_push_back(bot_rest *r, route *rt, req *q) {
  q->next = NULL;
  if (rt->tail)
    rt->tail->next = q;
  else
    rt->head = q;
  rt->tail = q;
  bot_rest_route_activate(r, rt);
}

void bot_rest_route_push_front(bot_rest *r, route *rt, req *q) {
  q->next = rt->head;
  rt->head = q;
  if (!rt->tail)
    rt->tail = q;
  bot_rest_route_activate(r, rt);
}

req *bot_rest_route_pop(bot_rest *r, route *rt) {
  req *q = rt->head;
  rt->head = q->next;
  if (!rt->head) {
    rt->tail = NULL;
    bot_rest_route_deactivate(r, rt);
  }
  q->next = NULL;
  return q;
}

void bot_rest_ilane_push(bot_rest *r, req *q) {
  q->next = NULL;
  if (r->ilane_tail)
    r->ilane_tail->next = q;
  else
    r->ilane_head = q;
  r->ilane_tail = q;
}

/* Learns the bucket of rt from an answer's headers. */
void bot_rest_learn(bot_rest *r, route *rt, const rl_hdrs *h, int64_t now) {
  if (h->has_bucket) {
    size_t n = strlen(h->bucket) + strlen(rt->major) + 2;
    char *key = malloc(n);
    if (key) {
      snprintf(key, n, "%s %s", h->bucket, rt->major);
      if (strcmp(key, rt->bucket->key) != 0) {
        bucket *nb = bucket_get(r, key);
        if (nb) {
          nb->refs++;
          bot_rest_bucket_unref(r, rt->bucket);
          rt->bucket = nb;
        }
      }
      free(key);
    }
  }
  if (h->has_remaining && h->has_reset_after) {
    bucket *b = rt->bucket;
    b->known = true;
    b->remaining = h->remaining;
    /* Two milliseconds to spare: now is rounded down to whole
     * milliseconds (up to 1 ms early) and Discord may round Reset-After
     * to the nearest millisecond (up to 0.5 ms short), so the bucket
     * could otherwise reopen just before Discord's does. */
    double ms = h->reset_after * 1000.0;
    b->reset_at =
        now + (ms < RETRY_AFTER_MAX_MS ? ceil64(ms) + 2 : RETRY_AFTER_MAX_MS);
  }
}

/* Frees routes that have been idle a while and whose bucket holds no
 * pending wait, so a long-running bot does not keep every channel. */
void bot_rest_sweep(bot_rest *r, int64_t now) {
  for (int i = 0; i < TABLE_SLOTS; i++) {
    route **pp = &r->routes[i];
    while (*pp) {
      route *rt = *pp;
      bucket *b = rt->bucket;
      bool waiting = b->known && b->reset_at > now;
      if (!rt->head && rt->inflight == 0 && !waiting &&
          now - rt->last_used > ROUTE_IDLE_MS) {
        *pp = rt->next;
        bot_rest_bucket_unref(r, b);
        free(rt);
      } else {
        pp = &rt->next;
      }
    }
  }
}
