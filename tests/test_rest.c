/*
 * test_rest.c: bot/rest.c against a scripted HTTP server on loopback
 * (tests/rest_server.py, run with Debian's /usr/bin/python3). The server
 * answers each "METHOD path" from a script the test posts to it and logs
 * every request with its headers and its arrival time on the server's
 * clock, so waits are measured between requests as the server saw them.
 * Covered: headers, route keys, bucket waits, 429s (bucket, Retry-After
 * only, global, Cloudflare), 5xx retries and their cap, 4xx without
 * retries, the invalid-request budget, the interaction lane, the global
 * 50/s limit, timeouts, Discord error codes, the size cap, file uploads,
 * superseded messages (bot_rest_send_latest), bodies kept packed while
 * they wait (bot_pack), bot_rest_call and shutdown; the multipart framing
 * of files (rest_multipart.c) byte for byte.
 */
#define _GNU_SOURCE /* memmem */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <errno.h>
#include <malloc.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <curl/curl.h>
#include <jansson.h>

#include "rest.h"
#include "rest_int.h" /* rest_multipart.c's framing */

#ifndef REST_SERVER_PY
#error "REST_SERVER_PY must name tests/rest_server.py"
#endif
#ifndef REST_PYTHON
#define REST_PYTHON "/usr/bin/python3"
#endif

#define TOKEN "TEST.t0ken-SECRET_xyz"
#define UA "DiscordBot (https://example.invalid/lair, 0.1.0)"
#define API "/api/v10"

static pid_t server_pid = -1;
static int server_stdin = -1;
static char server_base[64]; /* http://127.0.0.1:PORT */
static char api_base[96];

/* ---- time ------------------------------------------------------------- */

static int64_t mono_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void sleep_ms(int ms) {
  struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
  while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
    ;
}

/* ---- talking to the server's control endpoints ------------------------ */

typedef struct cbuf {
  char *p;
  size_t n;
} cbuf;

static size_t cbuf_write(char *data, size_t size, size_t nmemb, void *ud) {
  cbuf *b = ud;
  size_t n = size * nmemb;
  char *p = realloc(b->p, b->n + n + 1);
  if (!p)
    return 0;
  memcpy(p + b->n, data, n);
  b->p = p;
  b->n += n;
  b->p[b->n] = '\0';
  return n;
}

/* Returns the malloc'd body of a control request; fails the test on any
 * error. */
static char *ctl(const char *method, const char *path, const char *body) {
  char url[160];
  snprintf(url, sizeof url, "%s%s", server_base, path);
  CURL *e = curl_easy_init();
  assert_non_null(e);
  cbuf b = {0};
  struct curl_slist *h =
      curl_slist_append(NULL, "Content-Type: application/json");
  curl_easy_setopt(e, CURLOPT_URL, url);
  curl_easy_setopt(e, CURLOPT_CUSTOMREQUEST, method);
  curl_easy_setopt(e, CURLOPT_HTTPHEADER, h);
  curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, cbuf_write);
  curl_easy_setopt(e, CURLOPT_WRITEDATA, &b);
  curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
  if (body)
    curl_easy_setopt(e, CURLOPT_POSTFIELDS, body);
  CURLcode cc = curl_easy_perform(e);
  long status = 0;
  curl_easy_getinfo(e, CURLINFO_RESPONSE_CODE, &status);
  curl_easy_cleanup(e);
  curl_slist_free_all(h);
  if (cc != CURLE_OK || status != 200)
    fail_msg("control %s %s: %s, HTTP %ld", method, path,
             curl_easy_strerror(cc), status);
  return b.p ? b.p : strdup("");
}

/* Scripts the answers of KEY ("METHOD /api/v10/..."). queue and then are
 * JSON written with single quotes (none of the values holds one). */
static void script(const char *key, const char *queue, const char *then) {
  char q[4096], t[1024], body[6144];
  snprintf(q, sizeof q, "%s", queue ? queue : "[]");
  snprintf(t, sizeof t, "%s", then ? then : "null");
  for (char *p = q; *p; p++)
    if (*p == '\'')
      *p = '"';
  for (char *p = t; *p; p++)
    if (*p == '\'')
      *p = '"';
  int n = snprintf(body, sizeof body,
                   "{\"key\": \"%s\", \"queue\": %s, \"then\": %s}", key, q, t);
  assert_true(n > 0 && (size_t)n < sizeof body);
  free(ctl("POST", "/_ctl/script", body));
}

static json_t *server_log(void) {
  char *text = ctl("GET", "/_ctl/log", NULL);
  json_error_t err;
  json_t *j = json_loads(text, 0, &err);
  free(text);
  assert_non_null(j);
  assert_true(json_is_array(j));
  return j;
}

/* The arrival times (seconds, server clock) of METHOD path, in order;
 * returns how many. */
static int times_of(json_t *log, const char *method, const char *path,
                    double *t, int max) {
  int n = 0;
  size_t i;
  json_t *e;
  json_array_foreach(log, i, e) {
    if (strcmp(json_string_value(json_object_get(e, "method")), method) ||
        strcmp(json_string_value(json_object_get(e, "path")), path))
      continue;
    if (n < max)
      t[n] = json_number_value(json_object_get(e, "t"));
    n++;
  }
  return n;
}

static int count_of(const char *method, const char *path) {
  json_t *log = server_log();
  double t[1];
  int n = times_of(log, method, path, t, 0);
  json_decref(log);
  return n;
}

/* Waits until the server has seen n requests of METHOD path. */
static void wait_seen(const char *method, const char *path, int n) {
  int64_t end = mono_ms() + 5000;
  while (count_of(method, path) < n) {
    if (mono_ms() > end)
      fail_msg("the server never saw %d x %s %s", n, method, path);
    sleep_ms(10);
  }
}

/* ---- outcomes of requests --------------------------------------------- */

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;

typedef struct outcome {
  bool done;
  int status, code, attempts;
  char error[128];
  char body[256];
  bool had_error, superseded;
} outcome;

static void on_done(void *ctx, const bot_rest_result *res) {
  outcome *o = ctx;
  pthread_mutex_lock(&mu);
  o->status = res->status;
  o->code = res->discord_code;
  o->attempts = res->attempts;
  o->had_error = res->error != NULL;
  o->superseded = res->superseded;
  snprintf(o->error, sizeof o->error, "%s", res->error ? res->error : "");
  snprintf(o->body, sizeof o->body, "%s", res->body);
  o->done = true;
  pthread_cond_broadcast(&cv);
  pthread_mutex_unlock(&mu);
}

static void wait_done(outcome *o, int n) {
  int64_t end = mono_ms() + 15000;
  pthread_mutex_lock(&mu);
  for (int i = 0; i < n; i++) {
    while (!o[i].done) {
      pthread_mutex_unlock(&mu);
      sleep_ms(5);
      pthread_mutex_lock(&mu);
      if (mono_ms() > end) {
        pthread_mutex_unlock(&mu);
        fail_msg("request %d never finished", i);
      }
    }
  }
  pthread_mutex_unlock(&mu);
}

static bot_rest *client(int retries, int timeout_ms, int budget) {
  bot_rest_config cfg = {.api_base = api_base,
                         .token = TOKEN,
                         .user_agent = UA,
                         .max_5xx_retries = retries,
                         .timeout_ms = timeout_ms,
                         .invalid_budget = budget};
  bot_rest *r = bot_rest_new(&cfg);
  assert_non_null(r);
  return r;
}

static void send_ok(bot_rest *r, const char *method, const char *path,
                    const char *body, unsigned flags, outcome *o) {
  assert_int_equal(bot_rest_send(r, method, path, body, flags, on_done, o), 0);
}

static void wait_stat_429(bot_rest *r, uint64_t n) {
  int64_t end = mono_ms() + 5000;
  for (;;) {
    bot_rest_stats st;
    bot_rest_get_stats(r, &st);
    if (st.got_429 >= n)
      return;
    if (mono_ms() > end)
      fail_msg("no 429 was handled");
    sleep_ms(5);
  }
}

/* ---- capturing stderr (the client's log lines) ------------------------ */

static int saved_stderr = -1;
static char capture_path[64];

static void capture_begin(void) {
  snprintf(capture_path, sizeof capture_path, "/tmp/test_rest_XXXXXX");
  int fd = mkstemp(capture_path);
  assert_true(fd >= 0);
  fflush(stderr);
  saved_stderr = dup(2);
  assert_true(saved_stderr >= 0);
  assert_true(dup2(fd, 2) >= 0);
  close(fd);
}

/* Returns what was written to stderr since capture_begin (malloc'd). */
static char *capture_end(void) {
  fflush(stderr);
  dup2(saved_stderr, 2);
  close(saved_stderr);
  saved_stderr = -1;
  FILE *f = fopen(capture_path, "rb");
  assert_non_null(f);
  char *text = calloc(1, 65536);
  assert_non_null(text);
  size_t n = fread(text, 1, 65535, f);
  text[n] = '\0';
  fclose(f);
  unlink(capture_path);
  return text;
}

static int count_substr(const char *hay, const char *needle) {
  int n = 0;
  for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
    n++;
  return n;
}

/* ---- fixtures --------------------------------------------------------- */

static int start_server(void **state) {
  (void)state;
  if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
    return -1;
  int out[2], in[2];
  if (pipe(out) != 0 || pipe(in) != 0)
    return -1;
  pid_t pid = fork();
  if (pid < 0)
    return -1;
  if (pid == 0) {
    dup2(in[0], 0);
    dup2(out[1], 1);
    close(in[0]);
    close(in[1]);
    close(out[0]);
    close(out[1]);
    execl(REST_PYTHON, "python3", "-B", REST_SERVER_PY, (char *)NULL);
    _exit(127);
  }
  close(in[0]);
  close(out[1]);
  server_pid = pid;
  server_stdin = in[1];
  char line[32] = {0};
  size_t n = 0;
  while (n + 1 < sizeof line) {
    ssize_t k = read(out[0], line + n, 1);
    if (k <= 0 || line[n] == '\n')
      break;
    n++;
  }
  close(out[0]);
  line[n] = '\0';
  char *end;
  errno = 0;
  long port = strtol(line, &end, 10);
  if (end == line || errno || port <= 0 || port > 65535) {
    fprintf(stderr, "test_rest: the scripted server did not start\n");
    return -1;
  }
  snprintf(server_base, sizeof server_base, "http://127.0.0.1:%ld", port);
  snprintf(api_base, sizeof api_base, "%s%s", server_base, API);
  return 0;
}

static int stop_server(void **state) {
  (void)state;
  if (server_stdin >= 0)
    close(server_stdin); /* the server exits on EOF */
  if (server_pid > 0) {
    int st;
    int64_t end = mono_ms() + 2000;
    while (waitpid(server_pid, &st, WNOHANG) == 0) {
      if (mono_ms() > end) {
        kill(server_pid, SIGKILL);
        waitpid(server_pid, &st, 0);
        break;
      }
      sleep_ms(10);
    }
  }
  curl_global_cleanup();
  return 0;
}

static int reset_server(void **state) {
  (void)state;
  free(ctl("POST", "/_ctl/reset", NULL));
  return 0;
}

/* ---- tests ------------------------------------------------------------ */

static void test_route_keys(void **state) {
  (void)state;
  static const struct {
    const char *method, *path, *want;
  } cases[] = {
      {"POST", "/channels/123/messages", "POST /channels/123/messages"},
      {"PATCH", "/channels/123/messages/456",
       "PATCH /channels/123/messages/{id}"},
      {"DELETE", "/channels/123/messages/456",
       "DELETE /channels/123/messages/{id}"},
      {"GET", "/guilds/9/members/8?limit=5", "GET /guilds/9/members/{id}"},
      {"PUT", "/guilds/77/commands", "PUT /guilds/77/commands"},
      {"PUT", "/applications/777/commands", "PUT /applications/{id}/commands"},
      {"PUT", "/applications/777/guilds/888/commands",
       "PUT /applications/{id}/guilds/{id}/commands"},
      {"POST", "/webhooks/111/aW50ZXJhY3Rpb24",
       "POST /webhooks/111/aW50ZXJhY3Rpb24"},
      {"PATCH", "/webhooks/111/tok/messages/@original",
       "PATCH /webhooks/111/tok/messages/@original"},
      {"PATCH", "/webhooks/111/tok/messages/222",
       "PATCH /webhooks/111/tok/messages/{id}"},
      {"POST", "/interactions/555/tokABC/callback",
       "POST /interactions/555/tokABC/callback"},
      {"PUT", "/channels/1/messages/2/reactions/%F0%9F%91%8D/@me",
       "PUT /channels/1/messages/{id}/reactions/{emoji}/@me"},
      {"POST", "/users/@me/channels", "POST /users/@me/channels"},
      {"GET", "/users/42", "GET /users/{id}"},
      {"GET", "/gateway/bot", "GET /gateway/bot"},
  };
  char out[256];
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    bot_rest_route(cases[i].method, cases[i].path, out, sizeof out);
    assert_string_equal(out, cases[i].want);
  }
  /* Truncation keeps the string terminated; cap 0 writes nothing. */
  bot_rest_route("POST", "/channels/123/messages", out, 10);
  assert_string_equal(out, "POST /cha");
  out[0] = 'x';
  bot_rest_route("POST", "/channels/123/messages", out, 0);
  assert_int_equal(out[0], 'x');
}

static void test_bad_arguments(void **state) {
  (void)state;
  bot_rest_config cfg = {.api_base = api_base, .token = NULL};
  assert_null(bot_rest_new(&cfg));
  cfg.token = "bad\r\nX-Injected: 1";
  assert_null(bot_rest_new(&cfg));
  assert_null(bot_rest_new(NULL));
  bot_rest *r = client(0, 2000, 0);
  outcome o = {0};
  assert_int_equal(bot_rest_send(r, "GET", "no-slash", NULL, 0, on_done, &o),
                   -1);
  assert_int_equal(bot_rest_send(r, "get", "/x", NULL, 0, on_done, &o), -1);
  assert_int_equal(bot_rest_send(r, "GET", "/a b", NULL, 0, on_done, &o), -1);
  bot_rest_free(r);
  bot_rest_free(NULL);
  assert_false(o.done);
}

static void test_headers(void **state) {
  (void)state;
  bot_rest *r = client(0, 2000, 0);
  char *body = NULL;
  assert_int_equal(bot_rest_call(r, "POST", "/channels/1/messages",
                                 "{\"content\":\"hi\"}", NULL),
                   200);
  assert_int_equal(bot_rest_call(r, "GET", "/gateway/bot", NULL, &body), 200);
  free(body);
  assert_int_equal(bot_rest_call(r, "POST", "/channels/1/typing", NULL, NULL),
                   200);
  bot_rest_free(r);

  json_t *log = server_log();
  assert_int_equal(json_array_size(log), 3);
  for (size_t i = 0; i < 3; i++) {
    json_t *h = json_object_get(json_array_get(log, i), "headers");
    assert_string_equal(json_string_value(json_object_get(h, "authorization")),
                        "Bot " TOKEN);
    assert_string_equal(json_string_value(json_object_get(h, "user-agent")),
                        UA);
    assert_null(json_object_get(h, "expect"));
  }
  json_t *post = json_array_get(log, 0), *get = json_array_get(log, 1),
         *typing = json_array_get(log, 2);
  json_t *hp = json_object_get(post, "headers");
  assert_string_equal(json_string_value(json_object_get(post, "path")),
                      API "/channels/1/messages");
  assert_string_equal(json_string_value(json_object_get(hp, "content-type")),
                      "application/json");
  assert_string_equal(json_string_value(json_object_get(post, "body")),
                      "{\"content\":\"hi\"}");
  assert_string_equal(json_string_value(json_object_get(get, "method")), "GET");
  assert_null(json_object_get(json_object_get(get, "headers"), "content-type"));
  json_t *ht = json_object_get(typing, "headers");
  assert_string_equal(json_string_value(json_object_get(typing, "method")),
                      "POST");
  assert_null(json_object_get(ht, "content-type"));
  assert_string_equal(json_string_value(json_object_get(ht, "content-length")),
                      "0");
  json_decref(log);
}

static void test_call_sync(void **state) {
  (void)state;
  script("GET " API "/gateway/bot",
         "[{'status':200,'body':{'url':'wss://gateway.discord.gg',"
         "'shards':1}}]",
         NULL);
  script("GET " API "/users/@me", NULL,
         "{'status':404,'body':"
         "{'message':'nope','code':0}}");
  bot_rest *r = client(0, 2000, 0);
  char *body = NULL;
  assert_int_equal(bot_rest_call(r, "GET", "/gateway/bot", NULL, &body), 200);
  assert_non_null(body);
  json_t *j = json_loads(body, 0, NULL);
  assert_non_null(j);
  assert_string_equal(json_string_value(json_object_get(j, "url")),
                      "wss://gateway.discord.gg");
  json_decref(j);
  free(body);
  body = NULL;
  assert_int_equal(bot_rest_call(r, "GET", "/users/@me", NULL, &body), 404);
  assert_non_null(body);
  free(body);
  /* Refused arguments: 0 and no body. */
  body = (char *)"sentinel";
  assert_int_equal(bot_rest_call(r, "GET", "nope", NULL, &body), 0);
  assert_null(body);
  bot_rest_free(r);
}

/* Channel ch's messages answer 200 with a bucket of one request that
 * resets 0.4 s after each answer. */
static void script_spent_bucket(const char *ch) {
  char key[64], then[256];
  snprintf(key, sizeof key, "POST " API "/channels/%s/messages", ch);
  snprintf(then, sizeof then,
           "{'status':200,'headers':{'X-RateLimit-Bucket':'b%s',"
           "'X-RateLimit-Limit':'1','X-RateLimit-Remaining':'0',"
           "'X-RateLimit-Reset':'1.0','X-RateLimit-Reset-After':'0.4'},"
           "'body':{'id':'1'}}",
           ch);
  script(key, NULL, then);
}

/* A bucket with nothing remaining holds the next request of its route
 * until Reset-After, but not a request to another channel. */
static void test_bucket_waits_for_reset(void **state) {
  (void)state;
  script_spent_bucket("10");
  bot_rest *r = client(0, 2000, 0);
  outcome o[3] = {0};
  send_ok(r, "POST", "/channels/10/messages", "{\"content\":\"a\"}", 0, &o[0]);
  send_ok(r, "POST", "/channels/10/messages", "{\"content\":\"b\"}", 0, &o[1]);
  send_ok(r, "POST", "/channels/11/messages", "{\"content\":\"c\"}", 0, &o[2]);
  wait_done(o, 3);
  for (int i = 0; i < 3; i++) {
    assert_int_equal(o[i].status, 200);
    assert_int_equal(o[i].attempts, 1);
    assert_false(o[i].had_error);
  }
  json_t *log = server_log();
  double a[2], b[1];
  assert_int_equal(times_of(log, "POST", API "/channels/10/messages", a, 2), 2);
  assert_int_equal(times_of(log, "POST", API "/channels/11/messages", b, 1), 1);
  json_decref(log);
  assert_true(a[1] - a[0] >= 0.38);
  assert_true(b[0] - a[0] < 0.25);
  bot_rest_free(r);
}

/* A file goes as multipart/form-data with its boundary in Content-Type
 * (a bare "; boundary=" makes Discord refuse the request), the JSON as
 * payload_json and the file as files[0]. */
static void test_file_upload(void **state) {
  (void)state;
  bot_rest *r = client(0, 2000, 0);
  outcome o = {0};
  const char data[] = "{\"format\":\"lair-record\"}";
  assert_int_equal(
      bot_rest_send_file(r, "PATCH", "/webhooks/1/tok/messages/@original",
                         "{\"content\":\"the record\"}", "game-1.json", data,
                         sizeof data - 1, 0, on_done, &o),
      0);
  assert_int_equal(bot_rest_send_file(r, "POST", "/channels/1/messages", "{}",
                                      "", data, 1, 0, on_done, &o),
                   -1);
  wait_done(&o, 1);
  assert_int_equal(o.status, 200);
  bot_rest_free(r);
  json_t *log = server_log();
  assert_int_equal(json_array_size(log), 1);
  json_t *e = json_array_get(log, 0);
  json_t *h = json_object_get(e, "headers");
  const char *ct = json_string_value(json_object_get(h, "content-type"));
  assert_non_null(ct);
  assert_int_equal(strncmp(ct, "multipart/form-data; boundary=", 30), 0);
  assert_string_equal(json_string_value(json_object_get(h, "authorization")),
                      "Bot " TOKEN);
  /* The body, byte for byte: RFC 7578's framing with the header's
   * boundary. */
  const char *b = ct + 30;
  assert_int_equal(strlen(b), BOT_REST_BOUNDARY_LEN);
  char want[1024];
  snprintf(want, sizeof want,
           "--%s\r\nContent-Disposition: form-data; name=\"payload_json\"\r\n"
           "Content-Type: application/json\r\n\r\n{\"content\":\"the "
           "record\"}\r\n--%s\r\nContent-Disposition: form-data; "
           "name=\"files[0]\"; filename=\"game-1.json\"\r\nContent-Type: "
           "application/json\r\n\r\n%s\r\n--%s--\r\n",
           b, b, data, b);
  assert_string_equal(json_string_value(json_object_get(e, "body")), want);
  json_decref(log);
}

/* The multipart body read in pieces of any size, and again after a seek
 * (curl rewinds a body it must send again), is the same bytes; a part
 * that holds the boundary, or a file name that cannot be quoted, is
 * refused rather than sent torn. */
static size_t read_all(rest_multipart *m, size_t step, char *out, size_t cap) {
  size_t n = 0, got;
  while (n < cap && (got = bot_rest_multipart_read(
                         out + n, 1, step < cap - n ? step : cap - n, m)) > 0)
    n += got;
  return n;
}

static void test_multipart_framing(void **state) {
  (void)state;
  char boundary[BOT_REST_BOUNDARY_LEN + 1], other[BOT_REST_BOUNDARY_LEN + 1];
  assert_int_equal(bot_rest_boundary(boundary), 0);
  assert_int_equal(bot_rest_boundary(other), 0);
  assert_string_not_equal(boundary, other);
  assert_int_equal(strncmp(boundary, "lair-", 5), 0);
  req_file *f[2];
  const char *bytes[2] = {"\x89PNG\r\n\x1a\n\0binary", "second"};
  size_t lens[2] = {15, 6}; /* the first holds a NUL */
  const char *names[2] = {"a.png", "b.md"};
  for (int i = 0; i < 2; i++) {
    f[i] = calloc(1, sizeof *f[i] + lens[i] + strlen(names[i]) + 1);
    assert_non_null(f[i]);
    memcpy(f[i]->data, bytes[i], lens[i]);
    f[i]->len = lens[i];
    strcpy(f[i]->data + lens[i], names[i]);
    f[i]->name = f[i]->data + lens[i];
  }
  f[0]->next = f[1];
  rest_multipart *m =
      bot_rest_multipart_new(boundary, "{\"x\":1}", f[0], bot_rest_file_type);
  assert_non_null(m);
  char whole[2048], piece[2048];
  size_t n = read_all(m, 4096, whole, sizeof whole);
  assert_int_equal(n, m->total);
  for (size_t step = 1; step < 40; step += 7) {
    assert_int_equal(bot_rest_multipart_seek(m, 0, SEEK_SET), CURL_SEEKFUNC_OK);
    assert_int_equal(read_all(m, step, piece, sizeof piece), n);
    assert_memory_equal(piece, whole, n);
  }
  for (size_t at = 0; at <= n; at += 13) {
    assert_int_equal(bot_rest_multipart_seek(m, (curl_off_t)at, SEEK_SET),
                     CURL_SEEKFUNC_OK);
    assert_int_equal(read_all(m, 5, piece, sizeof piece), n - at);
    assert_memory_equal(piece, whole + at, n - at);
  }
  assert_int_equal(bot_rest_multipart_seek(m, (curl_off_t)n + 1, SEEK_SET),
                   CURL_SEEKFUNC_FAIL);
  assert_int_equal(bot_rest_multipart_seek(m, 0, SEEK_CUR), CURL_SEEKFUNC_FAIL);
  /* The file's bytes, NUL and all, between its header and the next
   * boundary. */
  char head[256];
  snprintf(head, sizeof head,
           "filename=\"a.png\"\r\nContent-Type: image/png\r\n\r\n");
  char *at = memmem(whole, n, head, strlen(head));
  assert_non_null(at);
  assert_memory_equal(at + strlen(head), bytes[0], lens[0]);
  assert_memory_equal(at + strlen(head) + lens[0], "\r\n--", 4);
  free(m);
  /* Refused: the boundary inside the JSON or a file, a name with a
   * quote. */
  char inside[128];
  snprintf(inside, sizeof inside, "{\"x\":\"--%s\"}", boundary);
  assert_null(
      bot_rest_multipart_new(boundary, inside, f[0], bot_rest_file_type));
  assert_non_null(
      m = bot_rest_multipart_new(other, inside, f[0], bot_rest_file_type));
  free(m);
  f[1]->name = "b\".md";
  assert_null(bot_rest_multipart_new(boundary, "{}", f[0], bot_rest_file_type));
  free(f[0]);
  free(f[1]);
}

/* bot_rest_send_latest: while a bucket waits, a later message of the same
 * slot drops the earlier ones (all pieces of them) on the same route; other
 * slots, other routes and the later message's own pieces stay, in order. */
static void test_latest_supersedes(void **state) {
  (void)state;
  script_spent_bucket("20");
  bot_rest *r = client(0, 2000, 0);
  outcome o[9] = {0};
  const char *ch20 = "/channels/20/messages", *ch21 = "/channels/21/messages";
  send_ok(r, "POST", ch20, "{\"content\":\"first\"}", 0, &o[0]);
  struct {
    const char *path, *text, *latest;
    uint64_t gen;
  } later[] = {
      {ch20, "hand1a", "hand:1", 1},    {ch20, "hand1b", "hand:1", 1},
      {ch20, "prompt1", "prompt:1", 2}, {ch21, "other", "hand:1", 1},
      {ch20, "hand2a", "hand:1", 3},    {ch20, "hand2b", "hand:1", 3},
      {ch20, "game2", "hand:2", 4},     {ch20, "hand0", "hand:1", 0},
  };
  for (int i = 0; i < 8; i++) {
    char body[64];
    snprintf(body, sizeof body, "{\"content\":\"%s\"}", later[i].text);
    assert_int_equal(bot_rest_send_latest(r, "POST", later[i].path, body,
                                          later[i].latest, later[i].gen,
                                          on_done, &o[i + 1]),
                     0);
  }
  assert_int_equal(
      bot_rest_send_latest(r, "POST", ch20, "{}", "", 1, on_done, &o[0]), -1);
  wait_done(o, 9);
  bool dropped[9] = {false, true,  true,  false, false,
                     false, false, false, false};
  for (int i = 0; i < 9; i++) {
    assert_int_equal(o[i].superseded, dropped[i]);
    assert_int_equal(o[i].status, dropped[i] ? 0 : 200);
    assert_int_equal(o[i].attempts, dropped[i] ? 0 : 1);
  }
  bot_rest_stats st;
  bot_rest_get_stats(r, &st);
  assert_int_equal(st.superseded, 2);
  bot_rest_free(r);
  /* What went out on channel 20, in order: a message older than what
   * waits (gen 0) is not dropped either, it simply comes last. */
  json_t *log = server_log();
  const char *want[] = {"first",  "prompt1", "hand2a",
                        "hand2b", "game2",   "hand0"};
  size_t k = 0, i;
  json_t *e;
  json_array_foreach(log, i, e) {
    if (strcmp(json_string_value(json_object_get(e, "path")),
               API "/channels/20/messages"))
      continue;
    assert_true(k < 6);
    char body[64];
    snprintf(body, sizeof body, "{\"content\":\"%s\"}", want[k++]);
    assert_string_equal(json_string_value(json_object_get(e, "body")), body);
  }
  assert_int_equal(k, 6);
  json_decref(log);
}

static void test_429_retry_after_in_body(void **state) {
  (void)state;
  script("POST " API "/channels/20/messages",
         "[{'status':429,'headers':{'X-RateLimit-Bucket':'b20',"
         "'X-RateLimit-Limit':'5','X-RateLimit-Remaining':'0',"
         "'X-RateLimit-Reset-After':'0.3','X-RateLimit-Scope':'user',"
         "'Retry-After':'1'},"
         "'body':{'message':'You are being rate limited.',"
         "'retry_after':0.3,'global':false}}]",
         NULL);
  bot_rest *r = client(0, 2000, 0);
  outcome o = {0};
  send_ok(r, "POST", "/channels/20/messages", "{}", 0, &o);
  wait_done(&o, 1);
  assert_int_equal(o.status, 200);
  assert_int_equal(o.attempts, 2);
  json_t *log = server_log();
  double t[2];
  assert_int_equal(times_of(log, "POST", API "/channels/20/messages", t, 2), 2);
  json_decref(log);
  assert_true(t[1] - t[0] >= 0.28); /* retry_after from the body */
  assert_true(t[1] - t[0] < 0.9);   /* not the header's whole second */
  bot_rest_stats st;
  bot_rest_get_stats(r, &st);
  assert_int_equal(st.got_429, 1);
  assert_int_equal(st.invalid_10min, 1);
  assert_int_equal(st.sent, 2);
  bot_rest_free(r);
}

/* Retry-After only (JSON body without retry_after, no X-RateLimit-*): a
 * wait for that route, not for others. */
static void test_429_retry_after_header_only(void **state) {
  (void)state;
  script("POST " API "/channels/21/messages",
         "[{'status':429,'headers':{'Retry-After':'1'},"
         "'body':{'message':'You are being rate limited.'}}]",
         NULL);
  bot_rest *r = client(0, 2000, 0);
  outcome o[2] = {0};
  send_ok(r, "POST", "/channels/21/messages", "{}", 0, &o[0]);
  wait_stat_429(r, 1);
  send_ok(r, "POST", "/channels/22/messages", "{}", 0, &o[1]);
  wait_done(o, 2);
  assert_int_equal(o[0].status, 200);
  assert_int_equal(o[0].attempts, 2);
  assert_int_equal(o[1].status, 200);
  json_t *log = server_log();
  double a[2], b[1];
  assert_int_equal(times_of(log, "POST", API "/channels/21/messages", a, 2), 2);
  assert_int_equal(times_of(log, "POST", API "/channels/22/messages", b, 1), 1);
  json_decref(log);
  assert_true(a[1] - a[0] >= 0.95);
  assert_true(b[0] < a[1]);
  assert_true(b[0] - a[0] < 0.5);
  bot_rest_free(r);
}

/* A global 429 pauses every route, but not interaction callbacks. */
static void test_global_429(void **state) {
  (void)state;
  script("POST " API "/channels/30/messages",
         "[{'status':429,'headers':{'X-RateLimit-Global':'true',"
         "'X-RateLimit-Scope':'global','Retry-After':'1'},"
         "'body':{'message':'You are being rate limited.',"
         "'retry_after':0.5,'global':true}}]",
         NULL);
  script("POST " API "/interactions/901/itok/callback", NULL,
         "{'status':204,'body':''}");
  capture_begin();
  bot_rest *r = client(0, 2000, 0);
  outcome o[3] = {0};
  send_ok(r, "POST", "/channels/30/messages", "{}", 0, &o[0]);
  wait_stat_429(r, 1);
  send_ok(r, "POST", "/channels/31/messages", "{}", 0, &o[1]);
  send_ok(r, "POST", "/interactions/901/itok/callback", "{\"type\":4}",
          BOT_REST_INTERACTION, &o[2]);
  wait_done(o, 3);
  bot_rest_free(r);
  char *err = capture_end();
  assert_int_equal(o[0].status, 200);
  assert_int_equal(o[0].attempts, 2);
  assert_int_equal(o[1].status, 200);
  assert_int_equal(o[2].status, 204);
  json_t *log = server_log();
  double a[2], b[1], it[1];
  assert_int_equal(times_of(log, "POST", API "/channels/30/messages", a, 2), 2);
  assert_int_equal(times_of(log, "POST", API "/channels/31/messages", b, 1), 1);
  assert_int_equal(
      times_of(log, "POST", API "/interactions/901/itok/callback", it, 1), 1);
  json_decref(log);
  assert_true(a[1] - a[0] >= 0.48);
  assert_true(b[0] - a[0] >= 0.48);
  assert_true(it[0] - a[0] < 0.3);
  assert_non_null(strstr(err, "lair rest: "));
  assert_null(strstr(err, TOKEN));
  free(err);
}

/* Cloudflare's 429 (HTML, Retry-After, no Discord headers) stops all. */
static void test_cloudflare_429(void **state) {
  (void)state;
  script("GET " API "/channels/40/messages",
         "[{'status':429,'headers':{'Content-Type':'text/html',"
         "'Retry-After':'1'},"
         "'body':'<html><body>error code: 1015</body></html>'}]",
         NULL);
  capture_begin();
  bot_rest *r = client(0, 2000, 0);
  outcome o[3] = {0};
  send_ok(r, "GET", "/channels/40/messages", NULL, 0, &o[0]);
  wait_stat_429(r, 1);
  send_ok(r, "GET", "/channels/41/messages", NULL, 0, &o[1]);
  send_ok(r, "POST", "/interactions/902/itok/callback", "{\"type\":4}",
          BOT_REST_INTERACTION, &o[2]);
  wait_done(o, 3);
  bot_rest_free(r);
  char *err = capture_end();
  for (int i = 0; i < 3; i++)
    assert_int_equal(o[i].status, 200);
  assert_int_equal(o[0].attempts, 2);
  json_t *log = server_log();
  double a[2], b[1], it[1];
  assert_int_equal(times_of(log, "GET", API "/channels/40/messages", a, 2), 2);
  assert_int_equal(times_of(log, "GET", API "/channels/41/messages", b, 1), 1);
  assert_int_equal(
      times_of(log, "POST", API "/interactions/902/itok/callback", it, 1), 1);
  json_decref(log);
  assert_true(a[1] - a[0] >= 0.95);
  assert_true(b[0] - a[0] >= 0.95);
  assert_true(it[0] - a[0] >= 0.95);
  assert_non_null(strstr(err, "Cloudflare"));
  assert_null(strstr(err, TOKEN));
  free(err);
}

/* A 429 is retried at most MAX_429_RETRIES (3) times. */
static void test_429_cap(void **state) {
  (void)state;
  script("GET " API "/channels/42/pins", NULL,
         "{'status':429,'headers':{'X-RateLimit-Scope':'shared'},"
         "'body':{'message':'busy','retry_after':0.05,'global':false}}");
  bot_rest *r = client(0, 2000, 0);
  outcome o = {0};
  send_ok(r, "GET", "/channels/42/pins", NULL, 0, &o);
  wait_done(&o, 1);
  assert_int_equal(o.status, 429);
  assert_int_equal(o.attempts, 4);
  assert_true(o.had_error);
  assert_int_equal(count_of("GET", API "/channels/42/pins"), 4);
  bot_rest_stats st;
  bot_rest_get_stats(r, &st);
  assert_int_equal(st.got_429, 4);
  assert_int_equal(st.invalid_10min, 0); /* scope "shared" is not counted */
  bot_rest_free(r);
}

static void test_500_then_200(void **state) {
  (void)state;
  script("POST " API "/channels/50/messages",
         "[{'status':500,'body':{'message':'500: Internal Server Error',"
         "'code':0}}]",
         NULL);
  bot_rest *r = client(3, 2000, 0);
  outcome o = {0};
  send_ok(r, "POST", "/channels/50/messages", "{}", 0, &o);
  wait_done(&o, 1);
  assert_int_equal(o.status, 200);
  assert_int_equal(o.attempts, 2);
  assert_false(o.had_error);
  bot_rest_stats st;
  bot_rest_get_stats(r, &st);
  assert_int_equal(st.retried_5xx, 1);
  assert_int_equal(st.invalid_10min, 0);
  bot_rest_free(r);
}

/* bot_pack: whatever goes in comes out, whether it shrinks (JSON, long
 * text) or is kept as it is (empty, short, incompressible). */
static void test_pack_round_trip(void **state) {
  (void)state;
  size_t big = 200000;
  char *json = malloc(big + 1), *noise = malloc(4097);
  assert_non_null(json);
  assert_non_null(noise);
  size_t o = 0;
  while (o + 80 < big)
    o += (size_t)snprintf(json + o, big + 1 - o,
                          "{\"type\":2,\"label\":\"Card %zu\",\"custom_id\":"
                          "\"m:1:0:c%zu\"},",
                          o % 97, o);
  uint64_t x = 88172645463325252ull;
  for (int i = 0; i < 4096; i++) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    noise[i] = (char)(' ' + x % 95);
  }
  noise[4096] = '\0';
  const char *texts[] = {"", "{}", "{\"content\":\"short\"}", json, noise};
  for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
    bot_packed *p = bot_pack(texts[i]);
    assert_non_null(p);
    char *back = bot_unpack(p);
    assert_non_null(back);
    assert_string_equal(back, texts[i]);
    free(back);
    free(p);
  }
  free(json);
  free(noise);
}

/* bot_pack learns a dictionary from the first message-sized texts: texts
 * packed before, while and after it learns all come back, and a message
 * like those it learned from packs to a fraction of itself. */
static void test_pack_learns(void **state) {
  (void)state;
  enum { N = 64 };
  bot_packed *p[N];
  char text[N][1200];
  for (int i = 0; i < N; i++) {
    size_t n = (size_t)snprintf(
        text[i], sizeof text[i],
        "{\"allowed_mentions\":{\"parse\":[]},\"content\":\"**Turn %d** "
        "of game #%d: Waiting for u%04d.\",\"components\":[{\"type\":1,"
        "\"components\":[",
        i, 100 + i, 7 * i);
    for (int b = 0; b < 5 && n < sizeof text[i] - 120; b++)
      n += (size_t)snprintf(text[i] + n, sizeof text[i] - n,
                            "{\"type\":2,\"style\":%d,\"label\":\"Play "
                            "card %d\",\"custom_id\":\"m:%d:%d:c%d\"},",
                            1 + b % 2, b * i, 100 + i, i, b);
    snprintf(text[i] + n - 1, sizeof text[i] - n + 1, "]}]}");
    p[i] = bot_pack(text[i]);
    assert_non_null(p[i]);
  }
  for (int i = 0; i < N; i++) {
    char *back = bot_unpack(p[i]);
    assert_non_null(back);
    assert_string_equal(back, text[i]);
    free(back);
    free(p[i]);
  }
  /* Learned by now, from these texts (this test runs first). */
  bot_packed *q = bot_pack(text[N - 1]);
  assert_non_null(q);
  assert_true(malloc_usable_size(q) < strlen(text[N - 1]) / 4);
  char *back = bot_unpack(q);
  assert_non_null(back);
  assert_string_equal(back, text[N - 1]);
  free(back);
  free(q);
}

/* A queued request's body waits packed and is unpacked for each attempt:
 * a retry sends the same bytes again. */
static void test_packed_body_retried(void **state) {
  (void)state;
  script("POST " API "/channels/52/messages",
         "[{'status':502,'body':{'message':'Bad Gateway','code':0}}]", NULL);
  bot_rest *r = client(3, 2000, 0);
  char body[3000];
  size_t n = (size_t)snprintf(body, sizeof body, "{\"content\":\"");
  while (n < sizeof body - 40)
    n +=
        (size_t)snprintf(body + n, sizeof body - n, "Mob %zum; Ops: draw. ", n);
  snprintf(body + n, sizeof body - n, "\"}");
  outcome o = {0};
  assert_int_equal(bot_rest_send_latest(r, "POST", "/channels/52/messages",
                                        body, "hand:52", 1, on_done, &o),
                   0);
  wait_done(&o, 1);
  assert_int_equal(o.status, 200);
  assert_int_equal(o.attempts, 2);
  bot_rest_free(r);
  json_t *log = server_log();
  assert_int_equal(json_array_size(log), 2);
  for (size_t i = 0; i < 2; i++)
    assert_string_equal(
        json_string_value(json_object_get(json_array_get(log, i), "body")),
        body);
  json_decref(log);
}

static void test_500_gives_up(void **state) {
  (void)state;
  script("POST " API "/channels/51/messages", NULL,
         "{'status':502,'headers':{'Content-Type':'text/html'},"
         "'body':'<html>Bad Gateway</html>'}");
  bot_rest *r = client(2, 2000, 0);
  outcome o = {0};
  send_ok(r, "POST", "/channels/51/messages", "{}", 0, &o);
  wait_done(&o, 1);
  assert_int_equal(o.status, 502);
  assert_int_equal(o.attempts, 3); /* the cap (2) + 1 */
  assert_string_equal(o.error, "HTTP 502");
  json_t *log = server_log();
  double t[4];
  assert_int_equal(times_of(log, "POST", API "/channels/51/messages", t, 4), 3);
  json_decref(log);
  assert_true(t[1] - t[0] >= 0.24); /* backoff 250 ms, then 500 ms */
  assert_true(t[2] - t[1] >= 0.49);
  bot_rest_free(r);
}

/* Never retry a 404, least of all on a webhook. */
static void test_404_not_retried(void **state) {
  (void)state;
  script("POST " API "/webhooks/5/wtok", NULL,
         "{'status':404,'body':{'message':'Unknown Webhook','code':10015}}");
  bot_rest *r = client(3, 2000, 0);
  outcome o = {0};
  send_ok(r, "POST", "/webhooks/5/wtok", "{\"content\":\"x\"}", 0, &o);
  wait_done(&o, 1);
  assert_int_equal(o.status, 404);
  assert_int_equal(o.attempts, 1);
  assert_int_equal(o.code, 10015);
  assert_true(o.had_error);
  sleep_ms(400);
  assert_int_equal(count_of("POST", API "/webhooks/5/wtok"), 1);
  bot_rest_stats st;
  bot_rest_get_stats(r, &st);
  assert_int_equal(st.invalid_10min, 0); /* 404 is not 401/403/429 */
  bot_rest_free(r);
}

static void test_50007_code(void **state) {
  (void)state;
  script("POST " API "/channels/52/messages", NULL,
         "{'status':403,'body':{'message':'Cannot send messages to this "
         "user','code':50007}}");
  bot_rest *r = client(3, 2000, 0);
  outcome o = {0};
  send_ok(r, "POST", "/channels/52/messages", "{\"content\":\"dm\"}", 0, &o);
  wait_done(&o, 1);
  assert_int_equal(o.status, 403);
  assert_int_equal(o.code, 50007);
  assert_int_equal(o.attempts, 1);
  assert_non_null(strstr(o.error, "50007"));
  assert_null(strstr(o.error, TOKEN));
  assert_non_null(strstr(o.body, "Cannot send messages"));
  bot_rest_stats st;
  bot_rest_get_stats(r, &st);
  assert_int_equal(st.invalid_10min, 1);
  bot_rest_free(r);
}

/* 401s fill the budget; then only interaction callbacks go out. */
static void test_invalid_budget(void **state) {
  (void)state;
  script("GET " API "/users/@me", NULL,
         "{'status':401,'body':{'message':'401: Unauthorized','code':0}}");
  script("POST " API "/interactions/903/itok/callback", NULL,
         "{'status':204,'body':''}");
  capture_begin();
  bot_rest *r = client(3, 2000, 3);
  for (int i = 0; i < 3; i++)
    assert_int_equal(bot_rest_call(r, "GET", "/users/@me", NULL, NULL), 401);
  bot_rest_stats st;
  bot_rest_get_stats(r, &st);
  assert_int_equal(st.invalid_10min, 3);
  outcome o[3] = {0};
  send_ok(r, "GET", "/users/@me", NULL, 0, &o[0]);
  send_ok(r, "POST", "/interactions/903/itok/callback", "{\"type\":4}",
          BOT_REST_INTERACTION, &o[1]);
  send_ok(r, "POST", "/channels/53/messages", "{}", 0, &o[2]);
  wait_done(o, 3);
  bot_rest_get_stats(r, &st);
  bot_rest_free(r);
  char *err = capture_end();
  assert_int_equal(o[0].status, 0);
  assert_int_equal(o[0].attempts, 0);
  assert_non_null(strstr(o[0].error, "budget"));
  assert_int_equal(o[1].status, 204);
  assert_int_equal(o[2].status, 0);
  assert_int_equal(st.dropped_budget, 2);
  assert_int_equal(count_of("GET", API "/users/@me"), 3);
  assert_int_equal(count_of("POST", API "/channels/53/messages"), 0);
  assert_int_equal(count_substr(err, "lair rest: "), 1); /* logged once */
  assert_null(strstr(err, TOKEN));
  free(err);
}

/* An interaction callback does not wait behind a bucket that waits. */
static void test_interaction_lane_skips_bucket(void **state) {
  (void)state;
  script("POST " API "/channels/60/messages", NULL,
         "{'status':200,'headers':{'X-RateLimit-Bucket':'b60',"
         "'X-RateLimit-Limit':'1','X-RateLimit-Remaining':'0',"
         "'X-RateLimit-Reset-After':'1.0'},'body':{'id':'1'}}");
  bot_rest *r = client(0, 2000, 0);
  outcome o[3] = {0};
  send_ok(r, "POST", "/channels/60/messages", "{}", 0, &o[0]);
  wait_done(o, 1);
  send_ok(r, "POST", "/channels/60/messages", "{}", 0, &o[1]);
  send_ok(r, "POST", "/interactions/904/itok/callback", "{\"type\":5}", 0,
          &o[2]); /* found by its path even without the flag */
  wait_done(o, 3);
  json_t *log = server_log();
  double a[2], it[1];
  assert_int_equal(times_of(log, "POST", API "/channels/60/messages", a, 2), 2);
  assert_int_equal(
      times_of(log, "POST", API "/interactions/904/itok/callback", it, 1), 1);
  json_decref(log);
  assert_true(a[1] - a[0] >= 0.95);
  assert_true(it[0] < a[1]);
  assert_true(it[0] - a[0] < 0.5);
  bot_rest_free(r);
}

/* 50 requests a second for everything but interaction callbacks. */
static void test_global_limit(void **state) {
  (void)state;
  enum { N = 100 };
  bot_rest *r = client(0, 5000, 0);
  static outcome o[N + 1];
  memset(o, 0, sizeof o);
  char path[64];
  for (int i = 0; i < N; i++) {
    snprintf(path, sizeof path, "/channels/%d/messages", 1000 + i);
    send_ok(r, "POST", path, "{}", 0, &o[i]);
  }
  send_ok(r, "POST", "/interactions/905/itok/callback", "{\"type\":4}",
          BOT_REST_INTERACTION, &o[N]);
  wait_done(o, N + 1);
  bot_rest_free(r);
  json_t *log = server_log();
  double first = 1e300, last = 0, it = 0;
  size_t i;
  json_t *e;
  int early = 0;
  json_array_foreach(log, i, e) {
    double t = json_number_value(json_object_get(e, "t"));
    if (strstr(json_string_value(json_object_get(e, "path")), "interactions"))
      it = t;
    else {
      first = t < first ? t : first;
      last = t > last ? t : last;
    }
  }
  json_array_foreach(log, i, e) {
    double t = json_number_value(json_object_get(e, "t"));
    if (!strstr(json_string_value(json_object_get(e, "path")),
                "interactions") &&
        t - first < 0.5)
      early++;
  }
  size_t total = json_array_size(log);
  json_decref(log);
  assert_int_equal(total, N + 1);
  assert_true(it - first < 0.5);
  assert_true(early <= 50 + 25 + 3);
  assert_true(last - first >= 0.85); /* 50 at once, then 50 more at 50/s */
}

static void test_timeout(void **state) {
  (void)state;
  script("GET " API "/channels/70/messages", NULL,
         "{'status':200,'delay':1.0,'body':{}}");
  script("GET " API "/channels/71/messages",
         "[{'status':200,'delay':1.0,'body':{}}]", NULL);
  bot_rest *r = client(1, 300, 0);
  outcome o[2] = {0};
  send_ok(r, "GET", "/channels/70/messages", NULL, 0, &o[0]);
  send_ok(r, "GET", "/channels/71/messages", NULL, 0, &o[1]);
  wait_done(o, 2);
  assert_int_equal(o[0].status, 0);
  assert_int_equal(o[0].attempts, 2);
  assert_string_equal(o[0].error, curl_easy_strerror(CURLE_OPERATION_TIMEDOUT));
  assert_int_equal(o[1].status, 200);
  assert_int_equal(o[1].attempts, 2);
  bot_rest_stats st;
  bot_rest_get_stats(r, &st);
  assert_int_equal(st.retried_5xx, 2);
  bot_rest_free(r);
}

static void test_body_cap(void **state) {
  (void)state;
  script("GET " API "/guilds/80/members", NULL,
         "{'status':200,'size':9437184}");
  bot_rest *r = client(3, 5000, 0);
  outcome o = {0};
  send_ok(r, "GET", "/guilds/80/members", NULL, 0, &o);
  wait_done(&o, 1);
  assert_int_equal(o.status, 0);
  assert_int_equal(o.attempts, 1);
  assert_string_equal(o.error, "response too large");
  assert_string_equal(o.body, "");
  bot_rest_free(r);
}

/* bot_rest_free ends what is in flight and what waits, with status 0. */
static void test_shutdown(void **state) {
  (void)state;
  script("GET " API "/channels/90/messages", NULL,
         "{'status':200,'delay':1.5,'body':{}}");
  bot_rest *r = client(0, 5000, 0);
  outcome o[2] = {0};
  send_ok(r, "GET", "/channels/90/messages", NULL, 0, &o[0]);
  send_ok(r, "GET", "/channels/90/messages", NULL, 0, &o[1]);
  wait_seen("GET", API "/channels/90/messages", 1);
  int64_t t0 = mono_ms();
  bot_rest_free(r);
  assert_true(mono_ms() - t0 < 1000);
  for (int i = 0; i < 2; i++) {
    assert_true(o[i].done);
    assert_int_equal(o[i].status, 0);
    assert_string_equal(o[i].error, "shutting down");
  }
  assert_int_equal(o[0].attempts, 1);
  assert_int_equal(o[1].attempts, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_pack_learns), /* first: nothing packed yet */
      cmocka_unit_test(test_route_keys),
      cmocka_unit_test_setup(test_bad_arguments, reset_server),
      cmocka_unit_test_setup(test_headers, reset_server),
      cmocka_unit_test_setup(test_call_sync, reset_server),
      cmocka_unit_test_setup(test_bucket_waits_for_reset, reset_server),
      cmocka_unit_test_setup(test_file_upload, reset_server),
      cmocka_unit_test(test_multipart_framing),
      cmocka_unit_test_setup(test_latest_supersedes, reset_server),
      cmocka_unit_test_setup(test_429_retry_after_in_body, reset_server),
      cmocka_unit_test_setup(test_429_retry_after_header_only, reset_server),
      cmocka_unit_test_setup(test_global_429, reset_server),
      cmocka_unit_test_setup(test_cloudflare_429, reset_server),
      cmocka_unit_test_setup(test_429_cap, reset_server),
      cmocka_unit_test_setup(test_500_then_200, reset_server),
      cmocka_unit_test(test_pack_round_trip),
      cmocka_unit_test_setup(test_packed_body_retried, reset_server),
      cmocka_unit_test_setup(test_500_gives_up, reset_server),
      cmocka_unit_test_setup(test_404_not_retried, reset_server),
      cmocka_unit_test_setup(test_50007_code, reset_server),
      cmocka_unit_test_setup(test_invalid_budget, reset_server),
      cmocka_unit_test_setup(test_interaction_lane_skips_bucket, reset_server),
      cmocka_unit_test_setup(test_global_limit, reset_server),
      cmocka_unit_test_setup(test_timeout, reset_server),
      cmocka_unit_test_setup(test_body_cap, reset_server),
      cmocka_unit_test_setup(test_shutdown, reset_server),
  };
  return cmocka_run_group_tests(tests, start_server, stop_server);
}
