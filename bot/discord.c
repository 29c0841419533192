/*
 * discord.c: the Discord transport: configuration, its threads and
 * start-up. Messages going out are discord_send.c's, interactions
 * discord_ix.c's (discord_int.h).
 *
 * Three threads, so that nothing waits behind anything else: the gateway
 * thread (gateway.c: heartbeats on lws timers) only queues events; one
 * worker thread owns the database and the command context and handles
 * interactions in order; the REST thread (rest.c) sends, with interaction
 * callbacks in a lane of their own. An interaction is answered from what
 * its command produced: the first channel message or the ephemeral reply
 * becomes the callback, the rest are follow-ups, channel posts and DMs.
 * Buttons and select menus carry the game id and state version in their
 * custom_id, so a stale or foreign click gets a clear ephemeral error.
 */
/* madvise (Linux, BSD) and dl_iterate_phdr (glibc): not in POSIX. */
#define _GNU_SOURCE
#include "discord_http.h"
#include "discord_int.h"
#include "pic.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <link.h>
#include <malloc.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

double bot_dc_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void bot_dc_log(const bot_discord *b, int level, const char *fmt, ...) {
  if (level > b->cfg.log_level)
    return;
  va_list ap;
  va_start(ap, fmt);
  fputs("lair discord: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

/* cmd_config.log: the command layer's own faults, as warnings. */
static void log_command(void *ctx, const char *line) {
  bot_dc_log(ctx, LOG_WARN, "%s", line);
}

/* ---- configuration ----------------------------------------------------- */

bool bot_dc_snowflake_ok(const char *s) {
  size_t n = strlen(s);
  if (n == 0 || n > 20)
    return false;
  for (size_t i = 0; i < n; i++)
    if (s[i] < '0' || s[i] > '9')
      return false;
  return true;
}

bool bot_dc_body_id(const char *body, char *id, size_t cap) {
  json_t *o = body ? json_loads(body, 0, NULL) : NULL;
  const char *s = json_string_value(json_object_get(o, "id"));
  bool ok = s && bot_dc_snowflake_ok(s) && strlen(s) < cap;
  if (ok)
    memcpy(id, s, strlen(s) + 1);
  json_decref(o);
  return ok;
}

/* A shard id at *p (digits) into *out, moving *p past it; false when
 * there is none. Values past 99999 read as 99999: never a shard id. */
static bool shard_number(const char **p, long *out) {
  if (!isdigit((unsigned char)**p))
    return false;
  long v = 0;
  for (; isdigit((unsigned char)**p); (*p)++)
    v = v > 99999 ? v : v * 10 + (**p - '0');
  *out = v > 99999 ? 99999 : v;
  return true;
}

int bot_discord_shard_ids(const char *spec, int n_shards, int *ids, char *err,
                          size_t cap) {
  unsigned char seen[BOT_GW_MAX_SHARDS / 8] = {0};
  const char *p = spec;
  for (;;) {
    long a, b;
    bool ok = shard_number(&p, &a);
    b = a;
    if (ok && *p == '-') {
      p++;
      ok = shard_number(&p, &b);
    }
    if (!ok || (*p != ',' && *p != '\0')) {
      snprintf(err, cap,
               "LAIR_SHARD_IDS must list shard ids and ranges like 0-3 or "
               "0,2,5 (got '%.60s')",
               spec);
      return -1;
    }
    if (b < a) {
      snprintf(err, cap,
               "LAIR_SHARD_IDS: the range %ld-%ld is empty (write it low to "
               "high)",
               a, b);
      return -1;
    }
    if (b >= n_shards) {
      snprintf(err, cap,
               "LAIR_SHARD_IDS: shard %ld is not below the shard count %d "
               "(ids run from 0 to %d)",
               b, n_shards, n_shards - 1);
      return -1;
    }
    for (long id = a; id <= b; id++) {
      if (seen[id / 8] & (1u << (id % 8))) {
        snprintf(err, cap, "LAIR_SHARD_IDS lists shard %ld twice", id);
        return -1;
      }
      seen[id / 8] |= (unsigned char)(1u << (id % 8));
    }
    if (*p == '\0')
      break;
    p++; /* the ',' */
  }
  int n = 0;
  for (int id = 0; id < n_shards; id++)
    if (seen[id / 8] & (1u << (id % 8)))
      ids[n++] = id;
  return n;
}

/* LAIR_SHARDS and LAIR_SHARD_IDS into c (bot_discord_config_from_env).
 * With LAIR_SHARDS=auto the ids are checked against the count once GET
 * /gateway/bot has given it (bot_discord_run); everything else now. */
static bool shards_from_env(bot_discord_config *c, char *err, size_t cap) {
  const char *shards = getenv("LAIR_SHARDS");
  const char *ids = getenv("LAIR_SHARD_IDS");
  if (shards && *shards) {
    char *end;
    errno = 0;
    long v = strtol(shards, &end, 10);
    if (strcmp(shards, "auto") == 0) {
      c->shards = BOT_DC_SHARDS_AUTO;
    } else if (errno || *end || !isdigit((unsigned char)*shards) || v < 1 ||
               v > BOT_GW_MAX_SHARDS) {
      snprintf(err, cap,
               "LAIR_SHARDS must be the total shard count, from 1 to %d, or "
               "auto (Discord's recommendation)",
               BOT_GW_MAX_SHARDS);
      return false;
    } else {
      c->shards = (int)v;
    }
  }
  if (!ids || !*ids)
    return true;
  if (c->shards == 0) {
    snprintf(err, cap,
             "LAIR_SHARD_IDS needs LAIR_SHARDS, the total shard count of "
             "every process");
    return false;
  }
  if (strlen(ids) >= sizeof c->shard_ids) {
    snprintf(err, cap,
             "LAIR_SHARD_IDS is too long (at most %zu characters; ranges like "
             "0-99 are shorter)",
             sizeof c->shard_ids - 1);
    return false;
  }
  int *tmp = malloc(BOT_GW_MAX_SHARDS * sizeof *tmp);
  if (!tmp) {
    snprintf(err, cap, "out of memory reading LAIR_SHARD_IDS");
    return false;
  }
  int n = c->shards > 0 ? c->shards : BOT_GW_MAX_SHARDS;
  bool ok = bot_discord_shard_ids(ids, n, tmp, err, cap) > 0;
  free(tmp);
  if (ok)
    snprintf(c->shard_ids, sizeof c->shard_ids, "%s", ids);
  return ok;
}

bool bot_discord_config_from_env(bot_discord_config *c, char *err, size_t cap) {
  memset(c, 0, sizeof *c);
  const char *token = getenv("DISCORD_TOKEN");
  const char *api = getenv("LAIR_DISCORD_API_URL");
  const char *guild = getenv("LAIR_GUILD_ID");
  const char *role = getenv("LAIR_MOD_ROLE");
  const char *level = getenv("LAIR_LOG_LEVEL");
  const char *picture_ms = getenv("LAIR_PICTURE_MS");
  if (!token || !*token || strlen(token) >= sizeof c->token) {
    snprintf(err, cap, "DISCORD_TOKEN is not set or too long");
    return false;
  }
  for (const char *p = token; *p; p++)
    if (*p <= ' ' || *p > '~') {
      snprintf(err, cap,
               "DISCORD_TOKEN contains spaces or control "
               "characters (check the env file)");
      return false;
    }
  memcpy(c->token, token, strlen(token) + 1);
  snprintf(c->api, sizeof c->api, "%s",
           api && *api ? api : "https://discord.com/api/v10");
  size_t n = strlen(c->api);
  while (n > 0 && c->api[n - 1] == '/')
    c->api[--n] = '\0';
  if (strncmp(c->api, "http://", 7) != 0 &&
      strncmp(c->api, "https://", 8) != 0) {
    snprintf(err, cap,
             "LAIR_DISCORD_API_URL must start with http:// or "
             "https://");
    return false;
  }
  if (guild && *guild) {
    if (!bot_dc_snowflake_ok(guild)) {
      snprintf(err, cap, "LAIR_GUILD_ID must be a server id (digits)");
      return false;
    }
    snprintf(c->guild, sizeof c->guild, "%s", guild);
  }
  if (role && *role) {
    if (!bot_dc_snowflake_ok(role)) {
      snprintf(err, cap, "LAIR_MOD_ROLE must be a role id (digits)");
      return false;
    }
    snprintf(c->mod_role, sizeof c->mod_role, "%s", role);
  }
  c->log_level = LOG_INFO;
  if (level && *level) {
    static const char *const names[] = {"error", "warn", "info", "debug"};
    int found = -1;
    for (int i = 0; i < 4; i++)
      if (strcmp(level, names[i]) == 0)
        found = i;
    if (found < 0) {
      snprintf(err, cap, "LAIR_LOG_LEVEL must be error, warn, info or debug");
      return false;
    }
    c->log_level = found;
  }
  /* A quarter of the worker's time at most, by default: a picture takes
   * 20-30 ms of it (bench/README.md). */
  c->picture_ms = 250;
  if (picture_ms && *picture_ms) {
    char *end;
    errno = 0;
    long v = strtol(picture_ms, &end, 10);
    if (errno || *end || v < 0 || v > 1000 ||
        !isdigit((unsigned char)*picture_ms)) {
      snprintf(err, cap,
               "LAIR_PICTURE_MS must be a number of milliseconds from 0 "
               "(no pictures) to 1000");
      return false;
    }
    c->picture_ms = (int)v;
  }
  return shards_from_env(c, err, cap);
}

/* ---- threads ---------------------------------------------------------- */

/* Queues interaction d (a reference taken over) for the worker; http:
 * its HTTP request's handle, 0 when it came over the gateway. */
static void queue_event(bot_discord *b, json_t *d, double received,
                        uint64_t http) {
  event *e = calloc(1, sizeof *e);
  if (!e) {
    json_decref(d);
    if (http)
      bot_http_finish(b->http, http, 503);
    return;
  }
  e->d = d;
  e->received = received;
  e->http = http;
  pthread_mutex_lock(&b->mu);
  if (b->tail)
    b->tail->next = e;
  else
    b->head = e;
  b->tail = e;
  b->queued++;
  pthread_cond_signal(&b->cv);
  pthread_mutex_unlock(&b->mu);
}

struct guild_name {
  char id[24];
  char *name;
};

void bot_dc_guild_named(bot_discord *b, const char *id, const char *name) {
  if (!bot_dc_snowflake_ok(id))
    return;
  char *copy = strndup(name, 400); /* Discord: 100 characters */
  if (!copy)
    return;
  pthread_mutex_lock(&b->guild_mu);
  size_t i = 0;
  while (i < b->n_guilds && strcmp(b->guilds[i].id, id) != 0)
    i++;
  if (i == b->n_guilds && b->n_guilds == b->cap_guilds) {
    size_t cap = b->cap_guilds ? b->cap_guilds * 2 : 16;
    struct guild_name *g = realloc(b->guilds, cap * sizeof *g);
    if (g) {
      b->guilds = g;
      b->cap_guilds = cap;
    }
  }
  if (i < b->n_guilds) {
    free(b->guilds[i].name);
    b->guilds[i].name = copy;
  } else if (b->n_guilds < b->cap_guilds) {
    snprintf(b->guilds[i].id, sizeof b->guilds[i].id, "%s", id);
    b->guilds[i].name = copy;
    b->n_guilds++;
  } else {
    free(copy); /* out of memory: the DMs go without the name */
  }
  pthread_mutex_unlock(&b->guild_mu);
}

bool bot_dc_guild_name(bot_discord *b, const char *id, char *out, size_t cap) {
  bool found = false;
  pthread_mutex_lock(&b->guild_mu);
  for (size_t i = 0; i < b->n_guilds && !found; i++)
    if (strcmp(b->guilds[i].id, id) == 0) {
      snprintf(out, cap, "%s", b->guilds[i].name);
      found = true;
    }
  pthread_mutex_unlock(&b->guild_mu);
  return found;
}

/* Every shard's events come here; INTERACTION_CREATE from any shard goes
 * to the one worker (a guild's always come on the same shard, DMs on
 * shard 0, and the database is shared by every process). */
static void on_event(void *ctx, int shard, const char *type, json_t *d) {
  bot_discord *b = ctx;
  if (strcmp(type, "READY") == 0) {
    json_t *app = json_object_get(d, "application");
    const char *id = json_string_value(json_object_get(app, "id"));
    if (id && !b->app_id[0])
      snprintf(b->app_id, sizeof b->app_id, "%s", id);
    if (b->cfg.shards)
      bot_dc_log(b, LOG_INFO, "connected (shard %d)", shard);
    else
      bot_dc_log(b, LOG_INFO, "connected");
    return;
  }
  if (strcmp(type, "GUILD_CREATE") == 0 || strcmp(type, "GUILD_UPDATE") == 0) {
    const char *id = json_string_value(json_object_get(d, "id"));
    const char *name = json_string_value(json_object_get(d, "name"));
    if (id && name) /* an unavailable server comes without its name */
      bot_dc_guild_named(b, id, name);
    return;
  }
  if (strcmp(type, "INTERACTION_CREATE") != 0)
    return;
  const char *iid = json_string_value(json_object_get(d, "id"));
  bot_dc_log(b, LOG_DEBUG, "interaction %s arrived on shard %d",
             iid ? iid : "?", shard);
  queue_event(b, json_incref(d), bot_dc_now(), 0);
}

/* The HTTP endpoint's interactions join the same queue (discord_http.h). */
static void on_http_interaction(void *ctx, json_t *d, uint64_t handle,
                                double received) {
  queue_event(ctx, d, received, handle);
}

static char *http_deferral(void *ctx, json_t *d) {
  (void)ctx;
  return bot_dc_deferral(d);
}

static void on_stop(void *ctx, int code, const char *why) {
  bot_discord *b = ctx;
  if (code)
    bot_dc_log(b, LOG_ERROR, "the gateway closed for good (%d: %s)", code,
               why ? why : "");
}

#define TICK_S 5 /* how often the timers are looked at */

/* The timers' turn: reminders, deadlines, lobby expiry (they live in the
 * database), the DM channels opened meanwhile, then the memory freed
 * meanwhile goes back to the system, so that a burst does not leave the
 * process larger for good. */
/* Touches the health file when the gateway heard from Discord since the
 * last tick (for `lair health`, cli/cli_health.c). */
static void note_health(bot_discord *b) {
  bot_gw_stats st;
  bot_gw_get_stats(b->gw, &st);
  /* Over HTTP: while the endpoint's loop runs (it beats every 2 s). */
  uint64_t heard = b->http ? bot_http_heard(b->http) : st.acks + st.dispatches;
  if (heard == b->heard || !b->health[0])
    return;
  b->heard = heard;
  int fd = open(b->health, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0 || futimens(fd, NULL) != 0) {
    if (!b->health_warned)
      bot_dc_log(b, LOG_WARN, "cannot touch the health file: %s",
                 strerror(errno));
    b->health_warned = true;
  }
  if (fd >= 0)
    close(fd);
}

/* The page-aligned part [*lo, *hi) of [a, a + n) that lies wholly inside
 * it, so that a page shared with a neighbouring segment is never part of
 * it; false when no whole page is. */
static bool whole_pages(uintptr_t a, size_t n, uintptr_t *lo, uintptr_t *hi) {
  uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
  *lo = (a + page - 1) & ~(page - 1);
  *hi = (a + n) & ~(page - 1);
  return *hi > *lo;
}

/* Whether an object's dynamic section asks for text relocations: then
 * the loader wrote into its read-only segments, which hold private
 * copies that must not be dropped. */
static bool has_textrel(const struct dl_phdr_info *info) {
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type != PT_DYNAMIC)
      continue;
    for (const ElfW(Dyn) *d =
             (const ElfW(Dyn) *)(info->dlpi_addr + ph->p_vaddr);
         d->d_tag != DT_NULL; d++)
      if (d->d_tag == DT_TEXTREL ||
          (d->d_tag == DT_FLAGS && (d->d_un.d_val & DF_TEXTREL)))
        return true;
  }
  return false;
}

/* Whether the object is the vDSO (the kernel's, not a file's). */
static bool is_vdso(const struct dl_phdr_info *info) {
  uintptr_t vdso = (uintptr_t)getauxval(AT_SYSINFO_EHDR);
  for (int i = 0; vdso && i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    uintptr_t a = info->dlpi_addr + ph->p_vaddr;
    if (ph->p_type == PT_LOAD && vdso >= a && vdso < a + ph->p_memsz)
      return true;
  }
  return false;
}

/* dl_iterate_phdr's callback: drops this process's mappings of the pages
 * of one object's read-only segments. */
static int drop_object_pages(struct dl_phdr_info *info, size_t size,
                             void *arg) {
  (void)size;
  size_t *total = arg;
  if (is_vdso(info) || has_textrel(info))
    return 0;
  /* The part of the writable segment made read-only after relocation
   * (RELRO) holds relocated pointers: never dropped. It lies inside a
   * writable PT_LOAD; looked for anyway, in case a linker did otherwise. */
  uintptr_t relro_lo = 0, relro_hi = 0;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type == PT_GNU_RELRO) {
      uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
      relro_lo = (info->dlpi_addr + ph->p_vaddr) & ~(page - 1);
      relro_hi = (info->dlpi_addr + ph->p_vaddr + ph->p_memsz + page - 1) &
                 ~(page - 1);
    }
  }
  /* The ranges are noted first: the program headers lie in the first
   * segment, and reading them after dropping it would map it again. */
  uintptr_t lo[16], hi[16];
  int n = 0;
  for (int i = 0; i < info->dlpi_phnum && n < 16; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type == PT_LOAD && !(ph->p_flags & PF_W) &&
        ph->p_memsz == ph->p_filesz &&
        whole_pages(info->dlpi_addr + ph->p_vaddr, ph->p_memsz, &lo[n],
                    &hi[n]) &&
        !(lo[n] < relro_hi && relro_lo < hi[n]))
      n++;
  }
  for (int i = 0; i < n; i++)
    if (madvise((void *)lo[i], hi[i] - lo[i], MADV_DONTNEED) == 0)
      *total += hi[i] - lo[i];
  return 0;
}

/* Whether a debugger (or strace...) is attached: /proc/self/status's
 * TracerPid is not 0. */
static bool being_traced(void) {
  FILE *f = fopen("/proc/self/status", "r");
  if (!f)
    return false;
  char line[128];
  bool traced = false;
  while (fgets(line, sizeof line, f))
    if (strncmp(line, "TracerPid:", 10) == 0) {
      char *end;
      traced = strtol(line + 10, &end, 10) != 0;
      break;
    }
  fclose(f);
  return traced;
}

/* Unmaps from this process the pages of the binary's and the shared
 * libraries' read-only segments (code and constants), so that the next
 * use maps back only those still used. curl alone brings in some thirty
 * libraries (GnuTLS through its LDAP support, Kerberos, ssh...) whose
 * start-up touched pages Lair never uses again: about 10 MB of RSS.
 *
 * Why this is safe: these segments are mapped read-only and private from
 * their files and nothing writes to them, so every page of them is a
 * clean page of the file in the page cache. MADV_DONTNEED drops only this
 * process's page-table entries; the pages stay in the page cache (also
 * for other processes mapping them) and the next access maps them again
 * with a minor fault, without reading the disk. Excluded: objects with
 * text relocations (the loader wrote into their code), the RELRO part
 * (relocated pointers, private copies: dropping them would bring back the
 * file's unrelocated bytes), every writable segment, any page shared with
 * another segment, and the vDSO. madvise(MADV_PAGEOUT), used before,
 * skipped the pages other processes map too (libc, libcrypto...). A
 * debugger writes its breakpoints into private copies of code pages,
 * which this would drop: nothing is done while one is attached.
 *
 * What it means for RSS: the binary's and libraries' part of it is the
 * code and constants used since the last call, not every page ever
 * touched. The memory is not freed for the machine (the page cache keeps
 * it while the kernel has room), only no longer held by this process.
 * Returns the bytes of the ranges advised. */
static size_t release_file_pages(void) {
  if (being_traced())
    return 0;
  size_t total = 0;
  dl_iterate_phdr(drop_object_pages, &total);
  return total;
}

/* Whether pictures are drawn: then the font's file pages are given back
 * too. Set once at start-up. */
static bool pictures_on;

/* Gives back what the process holds and does not use: freed heap
 * memory, and its mappings of file pages (release_file_pages, and the
 * font's, pic_release_pages). Returns the bytes of file pages advised. */
static size_t release_memory(void) {
  malloc_trim(0);
  size_t n = release_file_pages();
  if (pictures_on)
    n += pic_release_pages();
  return n;
}

static void tick(bot_discord *b) {
  double t0 = bot_dc_now();
  note_health(b);
  bot_dc_dm_save(b);
  cmd_set_now(b->cmd, (int64_t)time(NULL));
  cmd_tick(b->cmd);
  bot_dc_deliver_unprompted(b);
  double t1 = bot_dc_now();
  size_t advised = release_memory();
  double t2 = bot_dc_now();
  struct mallinfo2 mi = mallinfo2();
  bot_dc_log(b, LOG_DEBUG,
             "tick: timers %.2f ms, trim %.2f ms (%zu KB of file pages "
             "unmapped; heap %zu KB in use, %zu KB free)",
             (t1 - t0) * 1e3, (t2 - t1) * 1e3, advised >> 10,
             (mi.uordblks + mi.hblkhd) >> 10, mi.fordblks >> 10);
}

static void *worker(void *arg) {
  bot_discord *b = arg;
  /* Before any new command: AI seats an interrupted process left to move
   * answer, and the timers that fell due while Lair was down fire. */
  cmd_set_now(b->cmd, (int64_t)time(NULL));
  int caught_up = cmd_recover(b->cmd);
  bot_dc_deliver_unprompted(b);
  release_memory(); /* start-up's, before the first tick */
  if (caught_up < 0)
    bot_dc_log(b, LOG_WARN,
               "restart: the games left to AI seats could not be read");
  else if (caught_up > 0)
    bot_dc_log(b, LOG_INFO, "restart: %d game(s) left to AI seats moved on",
               caught_up);
  double next_tick = bot_dc_now() + TICK_S;
  for (;;) {
    pthread_mutex_lock(&b->mu);
    double wait = next_tick - bot_dc_now();
    if (!b->head && !b->stopping && wait > 0) {
      struct timespec until;
      clock_gettime(CLOCK_REALTIME, &until);
      double ns = (double)until.tv_nsec + wait * 1e9;
      until.tv_sec += (time_t)(ns / 1e9);
      until.tv_nsec = (long)(ns - (double)(time_t)(ns / 1e9) * 1e9);
      pthread_cond_timedwait(&b->cv, &b->mu, &until);
    }
    event *e = b->head;
    if (e) {
      b->head = e->next;
      if (!b->head)
        b->tail = NULL;
      b->queued--;
    }
    bool stop = b->stopping && !e;
    pthread_mutex_unlock(&b->mu);
    if (stop) {
      bot_dc_dm_save(b);
      bot_dc_edit_save(b);
      break;
    }
    if (e) {
      bot_dc_handle_interaction(b, e->d, e->received, e->http);
      __atomic_add_fetch(&b->stats.interactions, 1, __ATOMIC_RELAXED);
      json_decref(e->d);
      free(e);
    }
    /* The kept messages' new ids, for the other processes on the
     * database: the REST threads wake this one when they learn one. */
    bot_dc_edit_save(b);
    /* Due every TICK_S seconds, busy or not: a steady stream of
     * interactions must not hold the timers back. */
    double now = bot_dc_now();
    if (now >= next_tick) {
      tick(b);
      next_tick = now + TICK_S;
    }
  }
  return NULL;
}

/* SIGTERM and SIGINT end the session cleanly: every thread blocks them
 * and this one waits for them. */
static void *signal_thread(void *arg) {
  bot_discord *b = arg;
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGUSR1); /* sent by bot_discord_run to end this thread */
  int sig = 0;
  sigwait(&set, &sig);
  if (sig != SIGUSR1) {
    bot_dc_log(b, LOG_INFO, "stopping (signal %d)", sig);
    bot_gw_stop(b->gw);
    bot_http_stop(b->http);
  }
  return NULL;
}

/* ---- start-up ---------------------------------------------------------- */

/* Adds to o the description_localizations of its description: each
 * language's form from the message catalogue, under the language's
 * Discord locale ("de"). Names stay English: users type them, and every
 * answer names commands the way they are typed. */
static json_t *localized(json_t *o, const char *description) {
  json_t *loc = json_object();
  for (int l = 1; l < CMD_LANG_N; l++)
    if (cmd_lang_has((cmd_lang)l, description))
      json_object_set_new(loc, cmd_lang_code((cmd_lang)l),
                          json_string(cmd_tr((cmd_lang)l, description)));
  if (json_object_size(loc))
    json_object_set_new(o, "description_localizations", loc);
  else
    json_decref(loc);
  return o;
}

/* The subcommands of group as Discord's JSON, from the one command
 * table. */
static json_t *subcommands_json(const char *group) {
  json_t *subs = json_array();
  for (size_t i = 0; i < cmd_table_n; i++) {
    const cmd_def *d = &cmd_table[i];
    if (strcmp(d->group, group) != 0)
      continue;
    json_t *opts = json_array();
    for (int k = 0; k < d->n_options; k++) {
      const cmd_option_def *o = &d->options[k];
      int type = o->type == CMD_ARG_INTEGER ? 4
                 : o->type == CMD_ARG_USER  ? 6
                                            : 3;
      json_t *jo = localized(json_pack("{sisssssb}", "type", type, "name",
                                       o->name, "description", o->description,
                                       "required", o->required),
                             o->description);
      if (type == 3 && o->choices) {
        json_t *ch = json_array();
        for (const char *const *c = o->choices; *c; c++)
          json_array_append_new(ch,
                                json_pack("{ssss}", "name", *c, "value", *c));
        json_object_set_new(jo, "choices", ch);
      } else if (type == 3 && o->autocomplete) {
        json_object_set_new(jo, "autocomplete", json_true());
      }
      if (type == 4) {
        json_object_set_new(jo, "min_value", json_integer(o->min));
        json_object_set_new(jo, "max_value", json_integer(o->max));
      }
      json_array_append_new(opts, jo);
    }
    json_array_append_new(
        subs,
        localized(json_pack("{sissssso}", "type", 1, "name", d->name,
                            "description", d->description, "options", opts),
                  d->description));
  }
  return subs;
}

/* Lair's slash commands as Discord's JSON: one command per group of the
 * command table (/game, /gamemod, /prefs). */
json_t *bot_discord_commands_json(void) {
  json_t *all = json_array();
  for (size_t g = 0; g < cmd_groups_n; g++) {
    const cmd_group_def *gd = &cmd_groups[g];
    json_t *c = json_pack("{sisssss[ii]s[i]so}", "type", 1, "name", gd->name,
                          "description", gd->description, "contexts", 0, 1,
                          "integration_types", 0, "options",
                          subcommands_json(gd->name));
    localized(c, gd->description);
    if (gd->default_permissions >= 0)
      json_object_set_new(c, "default_member_permissions",
                          json_integer(gd->default_permissions));
    json_array_append_new(all, c);
  }
  return all;
}

/* FNV-1a of the command JSON, to register only when it changed. */
static uint64_t fnv(const char *s) {
  uint64_t h = 1469598103934665603ull;
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return h;
}

static bool register_commands(bot_discord *b) {
  json_t *cmds = bot_discord_commands_json();
  char *text = json_dumps(cmds, JSON_COMPACT | JSON_SORT_KEYS);
  json_decref(cmds);
  if (!text)
    return false;
  char scope[64], key[48], stored[40] = "", hash[40];
  snprintf(scope, sizeof scope, "discord:%s", b->app_id);
  snprintf(key, sizeof key, "commands:%s",
           b->cfg.guild[0] ? b->cfg.guild : "global");
  snprintf(hash, sizeof hash, "%016" PRIx64, fnv(text));
  sto_setting_get(b->db, scope, key, stored, sizeof stored);
  if (strcmp(stored, hash) == 0) {
    bot_dc_log(b, LOG_INFO, "slash commands unchanged; not registered again");
    free(text);
    return true;
  }
  char path[200];
  if (b->cfg.guild[0])
    snprintf(path, sizeof path, "/applications/%s/guilds/%s/commands",
             b->app_id, b->cfg.guild);
  else
    snprintf(path, sizeof path, "/applications/%s/commands", b->app_id);
  int status = bot_rest_call(b->rest, "PUT", path, text, NULL);
  free(text);
  if (status != 200) {
    bot_dc_log(b, LOG_ERROR, "registering the slash commands failed (HTTP %d)",
               status);
    return false;
  }
  sto_setting_set(b->db, scope, key, hash);
  bot_dc_log(b, LOG_INFO, "slash commands registered (%s)",
             b->cfg.guild[0] ? "this server only" : "globally");
  return true;
}

/* GET path's JSON object when it has the string field (new reference),
 * else NULL, logged. */
static json_t *get_json(bot_discord *b, const char *path, const char *field) {
  char *body = NULL;
  int status = bot_rest_call(b->rest, "GET", path, NULL, &body);
  json_t *j = status == 200 && body ? json_loads(body, 0, NULL) : NULL;
  free(body);
  if (json_is_string(json_object_get(j, field)))
    return j;
  json_decref(j);
  bot_dc_log(b, LOG_ERROR, "GET %s failed (HTTP %d)%s", path, status,
             status == 401 ? ": the token was refused" : "");
  return NULL;
}

static char *get_string(bot_discord *b, const char *path, const char *field) {
  json_t *j = get_json(b, path, field);
  char *out = j ? strdup(json_string_value(json_object_get(j, field))) : NULL;
  json_decref(j);
  return out;
}

/* An integer member of o in [lo, hi], or dflt when it is missing or out
 * of range. */
static int64_t json_int_in(json_t *o, const char *key, int64_t lo, int64_t hi,
                           int64_t dflt) {
  json_t *v = json_object_get(o, key);
  if (!json_is_integer(v) || json_integer_value(v) < lo ||
      json_integer_value(v) > hi)
    return dflt;
  return json_integer_value(v);
}

/* Fills the gateway's URL and sharding from GET /gateway/bot (gb) and the
 * configuration: the shard count (LAIR_SHARDS, or Discord's `shards` for
 * auto), this process's shards (LAIR_SHARD_IDS; *ids, the caller frees
 * it), max_concurrency (1, the slowest, when Discord gives none), and a
 * start delay when session_start_limit has fewer starts left than shards
 * to start. False, logged, when the count or the ids do not work. */
static bool gateway_config(bot_discord *b, json_t *gb, bot_gw_config *gc,
                           int **ids) {
  json_t *limit = json_object_get(gb, "session_start_limit");
  int n = b->cfg.shards;
  if (n == BOT_DC_SHARDS_AUTO) {
    n = (int)json_int_in(gb, "shards", 1, BOT_GW_MAX_SHARDS, 0);
    if (!n) {
      bot_dc_log(b, LOG_ERROR,
                 "LAIR_SHARDS=auto: GET /gateway/bot gave no shard count "
                 "from 1 to %d",
                 BOT_GW_MAX_SHARDS);
      return false;
    }
    bot_dc_log(b, LOG_INFO, "LAIR_SHARDS=auto: Discord recommends %d shard(s)",
               n);
  }
  int recommended = (int)json_int_in(gb, "shards", 1, INT_MAX, 1);
  if (n == 0 && recommended > 1)
    bot_dc_log(b, LOG_WARN,
               "Discord recommends %d shards for this bot: set LAIR_SHARDS "
               "(Discord closes an unsharded session with 4011 from 2,500 "
               "servers)",
               recommended);
  int running = n > 0 ? n : 1;
  if (b->cfg.shard_ids[0]) {
    char err[200];
    *ids = malloc((size_t)n * sizeof **ids);
    running =
        *ids ? bot_discord_shard_ids(b->cfg.shard_ids, n, *ids, err, sizeof err)
             : -1;
    if (running < 0) {
      bot_dc_log(b, LOG_ERROR, "%s", *ids ? err : "out of memory");
      return false;
    }
    gc->shard_ids = *ids;
    gc->n_shard_ids = running;
  }
  gc->url = json_string_value(json_object_get(gb, "url"));
  gc->shard_count = n;
  if (n > 0) {
    gc->max_concurrency =
        (int)json_int_in(limit, "max_concurrency", 1, BOT_GW_MAX_SHARDS, 0);
    if (!gc->max_concurrency) {
      bot_dc_log(b, LOG_WARN,
                 "GET /gateway/bot gave no max_concurrency: one Identify "
                 "per 5 s");
      gc->max_concurrency = 1;
    }
    bot_dc_log(b, LOG_INFO,
               "running %d of %d shard(s) (%s), max_concurrency %d", running, n,
               b->cfg.shard_ids[0] ? b->cfg.shard_ids : "all",
               gc->max_concurrency);
  }
  int64_t left = json_int_in(limit, "remaining", 0, INT64_MAX, INT64_MAX);
  if (left < running) {
    gc->start_delay_ms = (int)json_int_in(limit, "reset_after", 0, INT_MAX, 0);
    bot_dc_log(b, LOG_WARN,
               "Discord allows %lld more session start(s) for now, fewer "
               "than the %d shard(s) to start: waiting %.1f s for the limit "
               "to reset before identifying",
               (long long)left, running, gc->start_delay_ms / 1000.0);
  }
  return true;
}

void bot_discord_get_stats(bot_discord *b, bot_discord_stats *out) {
  out->interactions = __atomic_load_n(&b->stats.interactions, __ATOMIC_RELAXED);
  out->callbacks = __atomic_load_n(&b->stats.callbacks, __ATOMIC_RELAXED);
  out->duplicates = __atomic_load_n(&b->stats.duplicates, __ATOMIC_RELAXED);
  out->dm_refused = __atomic_load_n(&b->stats.dm_refused, __ATOMIC_RELAXED);
  out->dm_skipped = __atomic_load_n(&b->stats.dm_skipped, __ATOMIC_RELAXED);
  out->dm_superseded =
      __atomic_load_n(&b->stats.dm_superseded, __ATOMIC_RELAXED);
}

/* Serves interactions over HTTP (discord_http.c) until a signal: the
 * worker as with the gateway, but no gateway connection. Discord sends
 * no interaction over the gateway once the application has an
 * Interactions Endpoint URL, and nothing else Lair does needs it: the
 * application id comes from GET /applications/@me, messages and DMs go
 * through REST. So a process in this mode holds no gateway session, and
 * any number of them can run behind a load balancer. Returns the exit
 * status. */
static int run_http(bot_discord *b) {
  bot_http_hooks hk = {.deferral = http_deferral,
                       .deliver = on_http_interaction,
                       .ctx = b,
                       .log_level = b->cfg.log_level};
  b->http = bot_http_new(&b->cfg.http, &hk);
  if (!b->http || pthread_create(&b->worker, NULL, worker, b) != 0)
    return BOT_EXIT_FAIL;
  b->worker_started = true;
  pthread_t sigs;
  bool sigs_started = pthread_create(&sigs, NULL, signal_thread, b) == 0;
  bot_dc_log(b, LOG_INFO, "starting (application %s, interactions over HTTP)",
             b->app_id);
  int code = bot_http_run(b->http);
  if (sigs_started) {
    pthread_kill(sigs, SIGUSR1);
    pthread_join(sigs, NULL);
  }
  return code == 0 ? BOT_EXIT_OK : BOT_EXIT_FAIL;
}

int bot_discord_run(const bot_discord_config *cfg, const char *db_path) {
  /* One malloc arena for all threads: the worker does nearly all the
   * allocating, and an arena per thread keeps megabytes of free memory
   * that the others cannot use. */
  mallopt(M_ARENA_MAX, 1);
  /* Large blocks always from mmap, so that freeing gives them back: by
   * default glibc raises this threshold to the size of the largest block
   * freed, and a picture's canvas (4 MB) and PNG would then stay in the
   * heap between pictures. */
  mallopt(M_MMAP_THRESHOLD, 128 * 1024);
  /* Start-up touches in turn the loader's tables of some forty
   * libraries, SQLite and the engine's data, curl and OpenSSL, then lws:
   * each step's pages are given back before the next, so that the peak
   * stays near what the bot uses afterwards. */
  release_memory();
  bot_discord *b = calloc(1, sizeof *b);
  if (!b)
    return BOT_EXIT_FAIL;
  b->cfg = *cfg;
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGUSR1);
  pthread_sigmask(SIG_BLOCK, &set, NULL); /* inherited by every thread */
  pthread_mutex_init(&b->mu, NULL);
  pthread_cond_init(&b->cv, NULL);
  pthread_mutex_init(&b->dm_mu, NULL);
  pthread_mutex_init(&b->gate_mu, NULL);
  pthread_mutex_init(&b->edit_mu, NULL);
  pthread_mutex_init(&b->guild_mu, NULL);
  int status = BOT_EXIT_FAIL;
  char err[300] = "";
  char db_name[1024]; /* a URL's password is never logged */
  sto_redact(db_path, db_name, sizeof db_name);
  sto_rc src = sto_open(db_path, &b->db, err, sizeof err);
  if (src) {
    fprintf(stderr, "lair: cannot use the database %s: %s\n", db_name,
            err[0] ? err : sto_strerror(src));
    goto out;
  }
  if (sto_created(b->db))
    bot_dc_log(b, LOG_INFO, "made a new database at %s (%s)", db_name,
               sto_is_url(db_path) ? "it held no Lair schema"
                                   : "no file was there");
  /* Healthy only once this process hears from Discord. */
  if (bot_health_path(db_path, b->health, sizeof b->health) &&
      unlink(b->health) != 0 && errno != ENOENT)
    bot_dc_log(b, LOG_WARN, "cannot remove the old health file: %s",
               strerror(errno));
  cmd_config cc = {.db = b->db,
                   .sink = {bot_dc_collect, b},
                   .open_thread = bot_dc_open_thread,
                   .thread_ctx = b,
                   .pictures = cfg->picture_ms > 0,
                   .picture_ms = cfg->picture_ms,
                   .log = log_command,
                   .log_ctx = b};
  b->cmd = cmd_new(&cc);
  /* The font loads now, with the rest of start-up, whose pages are
   * given back before the first interaction. */
  if (cc.pictures) {
    if (pic_prepare(err, sizeof err) == 0)
      pictures_on = true;
    else
      bot_dc_log(b, LOG_WARN, "pictures: %s", err);
  }
  char ua[120];
  snprintf(ua, sizeof ua, "DiscordBot (https://github.com/lair-bot/lair, %s)",
           LAIR_VERSION);
  bot_rest_config rc = {
      .api_base = cfg->api, .token = cfg->token, .user_agent = ua};
  b->rest = bot_rest_new(&rc);
  if (!b->cmd || !b->rest)
    goto out;
  release_memory();
  char *app = get_string(b, "/applications/@me", "id");
  if (!app)
    goto out;
  snprintf(b->app_id, sizeof b->app_id, "%s", app);
  free(app);
  if (!register_commands(b))
    goto out;
  if (cfg->http.port) {
    status = run_http(b);
    goto out;
  }
  json_t *gb = get_json(b, "/gateway/bot", "url");
  int *shard_ids = NULL;
  bot_gw_config gc = {.token = cfg->token,
                      .intents = 1,
                      .on_event = on_event,
                      .on_stop = on_stop,
                      .ctx = b};
  if (gb && gateway_config(b, gb, &gc, &shard_ids))
    b->gw = bot_gw_new(&gc);
  json_decref(gb);
  free(shard_ids);
  release_memory();
  if (!b->gw || pthread_create(&b->worker, NULL, worker, b) != 0)
    goto out;
  b->worker_started = true;
  pthread_t sigs;
  bool sigs_started = pthread_create(&sigs, NULL, signal_thread, b) == 0;
  bot_dc_log(b, LOG_INFO, "starting (application %s)", b->app_id);
  int code = bot_gw_run(b->gw);
  status = code == 0 ? BOT_EXIT_OK : BOT_EXIT_FAIL;
  if (sigs_started) {
    pthread_kill(sigs, SIGUSR1);
    pthread_join(sigs, NULL);
  }
out:
  if (b->worker_started) {
    pthread_mutex_lock(&b->mu);
    b->stopping = true;
    pthread_cond_signal(&b->cv);
    pthread_mutex_unlock(&b->mu);
    pthread_join(b->worker, NULL);
  }
  bot_gw_free(b->gw);
  bot_rest_free(b->rest); /* after the worker: it queues requests */
  /* After REST: a callback's outcome may still tell the endpoint. */
  bot_http_free(b->http);
  cmd_free(b->cmd);
  sto_close(b->db);
  bot_dc_clear_msgs(b);
  while (b->head) {
    event *e = b->head;
    b->head = e->next;
    json_decref(e->d);
    free(e);
  }
  pthread_mutex_destroy(&b->mu);
  pthread_cond_destroy(&b->cv);
  pthread_mutex_destroy(&b->dm_mu);
  pthread_mutex_destroy(&b->gate_mu);
  pthread_mutex_destroy(&b->edit_mu);
  pthread_mutex_destroy(&b->guild_mu);
  for (size_t i = 0; i < b->n_guilds; i++)
    free(b->guilds[i].name);
  free(b->guilds);
  for (int i = 0; i < EDIT_CACHE; i++)
    free(b->edits[i].pending);
  free(b);
  return status;
}
