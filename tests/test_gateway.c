/*
 * test_gateway.c: the gateway client (bot/gateway.c) against a scripted
 * gateway on loopback (tests/gw_server.py, run with Debian's python3 and
 * python3-websockets).
 *
 * Each session test starts the server with a scenario, runs bot_gw_run on
 * this thread until the server dispatches LAIR_TEST_END (on_event calls
 * bot_gw_stop) or a fatal close ends it, then reads the server's log (one
 * JSON object a line: connects, payloads both ways with times, close
 * codes) and checks what the client did. A watchdog thread stops a run
 * that hangs. Heartbeats are 200 ms, backoff starts at 50 ms and the
 * identify spacing is 300 ms, so the whole file runs in seconds. The send
 * budget, the URL parser and the backoff are also tested directly
 * (bot/gateway_internal.h).
 */
#include "gateway.h"
#include "gateway_internal.h"

#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include <openssl/pem.h>
#include <openssl/x509.h>

#ifndef LAIR_GW_SERVER
#error "LAIR_GW_SERVER (the path of tests/gw_server.py) is set by CMake"
#endif
#ifndef LAIR_GW_TLS_DIR
#error "LAIR_GW_TLS_DIR (tests/data/gateway) is set by CMake"
#endif
#ifndef LAIR_GW_PYTHON
#define LAIR_GW_PYTHON "/usr/bin/python3"
#endif

extern char **environ;

#define TOKEN "test-token-DO-NOT-LOG-7f3a"
#define HB_MS 200
#define GAP_MS 300
#define BASE_MS 50
#define MAX_MS 400

/* ---- the scripted server ------------------------------------------------ */

typedef struct server {
  pid_t pid;
  int port;
  char logpath[64];
  json_t *log; /* array of the logged events, after server_stop */
} server;

/* Starts gw_server.py SCENARIO (over TLS with the test certificate if tls)
 * and reads its port; false on failure. */
static bool server_start(server *s, const char *scenario, bool tls) {
  memset(s, 0, sizeof *s);
  snprintf(s->logpath, sizeof s->logpath, "/tmp/lair_gw_log_XXXXXX");
  int fd = mkstemp(s->logpath);
  if (fd < 0)
    return false;
  close(fd);
  int out[2];
  if (pipe(out) != 0)
    return false;
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, out[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclose(&fa, out[0]);
  posix_spawn_file_actions_addclose(&fa, out[1]);
  char *argv[] = {LAIR_GW_PYTHON,
                  "-B",
                  LAIR_GW_SERVER,
                  (char *)scenario,
                  s->logpath,
                  tls ? LAIR_GW_TLS_DIR "/tls_cert.pem" : NULL,
                  LAIR_GW_TLS_DIR "/tls_key.pem",
                  NULL};
  int rc = posix_spawn(&s->pid, LAIR_GW_PYTHON, &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  close(out[1]);
  if (rc != 0) {
    close(out[0]);
    return false;
  }
  char line[64];
  size_t n = 0;
  while (n + 1 < sizeof line) {
    struct pollfd p = {.fd = out[0], .events = POLLIN};
    if (poll(&p, 1, 10000) <= 0)
      break;
    ssize_t k = read(out[0], line + n, 1);
    if (k <= 0 || line[n] == '\n')
      break;
    n++;
  }
  line[n] = '\0';
  close(out[0]);
  if (strncmp(line, "PORT ", 5) != 0) {
    fprintf(stderr, "gw_server.py did not start (is python3-websockets "
                    "installed? tools/deps.sh)\n");
    kill(s->pid, SIGKILL);
    waitpid(s->pid, NULL, 0);
    return false;
  }
  char *end = NULL;
  long port = strtol(line + 5, &end, 10);
  if (port <= 0 || port > 65535 || (*end && *end != '\n'))
    return false;
  s->port = (int)port;
  return true;
}

static json_t *read_log(const char *path) {
  json_t *log = json_array();
  FILE *f = fopen(path, "r");
  if (f) {
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, f) > 0) {
      json_t *e = json_loads(line, 0, NULL);
      if (e)
        json_array_append_new(log, e);
    }
    free(line);
    fclose(f);
  }
  return log;
}

static int count(json_t *log, const char *ev, int n, int op);
static void sleep_ms(int ms);

/* Stops the server, once it has logged the end of every connection (the
 * client may be done a moment before the server is), and loads its log. */
static void server_stop(server *s) {
  for (int i = 0; i < 200; i++) {
    json_t *log = read_log(s->logpath);
    bool settled = count(log, "connect", 0, -1) == count(log, "closed", 0, -1);
    json_decref(log);
    if (settled)
      break;
    sleep_ms(10);
  }
  if (s->pid > 0) {
    kill(s->pid, SIGTERM);
    waitpid(s->pid, NULL, 0);
    s->pid = 0;
  }
  s->log = read_log(s->logpath);
  unlink(s->logpath);
}

static void server_free(server *s) {
  json_decref(s->log);
  s->log = NULL;
}

/* The nth (from 0) log event of kind ev on connection n (0 = any) with op
 * (-1 = any); NULL if there is none. */
static json_t *find(json_t *log, const char *ev, int n, int op, int nth) {
  size_t i;
  json_t *e;
  json_array_foreach(log, i, e) {
    if (strcmp(json_string_value(json_object_get(e, "ev")), ev) != 0)
      continue;
    if (n && json_integer_value(json_object_get(e, "n")) != n)
      continue;
    if (op >= 0 && json_integer_value(json_object_get(e, "op")) != op)
      continue;
    if (nth-- == 0)
      return e;
  }
  return NULL;
}

static int count(json_t *log, const char *ev, int n, int op) {
  int c = 0;
  while (find(log, ev, n, op, c))
    c++;
  return c;
}

static int64_t t_of(json_t *e) {
  assert_non_null(e);
  return json_integer_value(json_object_get(e, "t"));
}

static int int_of(json_t *o, const char *key) {
  json_t *v = json_object_get(o, key);
  assert_true(json_is_integer(v));
  return (int)json_integer_value(v);
}

static const char *str_of(json_t *o, const char *key) {
  const char *v = json_string_value(json_object_get(o, key));
  assert_non_null(v);
  return v;
}

/* Fails on any scripted step that did not happen as planned. */
static void assert_no_script_errors(json_t *log) {
  json_t *e = find(log, "error", 0, -1, 0);
  if (e)
    fail_msg("gw_server.py: %s", str_of(e, "msg"));
}

/* ---- one session ------------------------------------------------------ */

typedef struct run run;
struct run {
  server srv;
  bot_gw *g;
  json_t *events; /* [type, d] in order */
  int stops, stop_code;
  char stop_why[160];
  int rc;
  bot_gw_stats stats;
  bool tls; /* wss://localhost with the test certificate */
  atomic_bool done, timed_out, saw_ready;
  void (*on_ready)(run *r);
  pthread_t stopper; /* joined before bot_gw_free: it uses r->g */
  bool has_stopper;
  /* the budget test */
  int sent_ok, sent_budget, sent_too_big;
};

static void on_event(void *ctx, int shard, const char *type, json_t *d) {
  (void)shard;
  run *r = ctx;
  json_array_append_new(r->events, json_pack("[sO]", type, d));
  if (strcmp(type, "READY") == 0) {
    atomic_store(&r->saw_ready, true);
    if (r->on_ready)
      r->on_ready(r);
  }
  if (strcmp(type, "LAIR_TEST_END") == 0)
    bot_gw_stop(r->g);
}

static void on_stop(void *ctx, int code, const char *why) {
  run *r = ctx;
  r->stops++;
  r->stop_code = code;
  snprintf(r->stop_why, sizeof r->stop_why, "%s", why ? why : "");
}

static void sleep_ms(int ms) {
  struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
}

static void *watchdog(void *arg) {
  run *r = arg;
  for (int i = 0; i < 1500 && !atomic_load(&r->done); i++)
    sleep_ms(10);
  if (!atomic_load(&r->done)) {
    atomic_store(&r->timed_out, true);
    bot_gw_stop(r->g);
  }
  return NULL;
}

static bot_gw_config test_config(run *r, const char *url) {
  return (bot_gw_config){.url = url,
                         .token = TOKEN,
                         .intents = 1,
                         .on_event = on_event,
                         .on_stop = on_stop,
                         .ctx = r,
                         .backoff_base_ms = BASE_MS,
                         .backoff_max_ms = MAX_MS,
                         .identify_gap_ms = GAP_MS};
}

/* Runs scenario to its end; cfg_edit (may be NULL) adjusts the config. */
static void run_scenario(run *r, const char *scenario,
                         void (*cfg_edit)(bot_gw_config *)) {
  assert_true(server_start(&r->srv, scenario, r->tls));
  char url[64];
  snprintf(url, sizeof url, "%s:%d",
           r->tls ? "wss://localhost" : "ws://127.0.0.1", r->srv.port);
  r->events = json_array();
  bot_gw_config cfg = test_config(r, url);
  if (cfg_edit)
    cfg_edit(&cfg);
  r->g = bot_gw_new(&cfg);
  assert_non_null(r->g);
  pthread_t wd;
  assert_int_equal(pthread_create(&wd, NULL, watchdog, r), 0);
  r->rc = bot_gw_run(r->g);
  atomic_store(&r->done, true);
  pthread_join(wd, NULL);
  if (r->has_stopper)
    pthread_join(r->stopper, NULL);
  bot_gw_get_stats(r->g, &r->stats);
  bot_gw_free(r->g);
  r->g = NULL;
  server_stop(&r->srv);
  assert_false(atomic_load(&r->timed_out));
  assert_int_equal(r->stops, 1);
  assert_no_script_errors(r->srv.log);
}

static run *run_new(void) {
  run *r = calloc(1, sizeof *r);
  assert_non_null(r);
  return r;
}

static void run_free(run *r) {
  if (!r)
    return;
  json_decref(r->events);
  server_free(&r->srv);
  free(r);
}

/* The nth event of type; NULL if none. */
static json_t *event_d(run *r, const char *type, int nth) {
  size_t i;
  json_t *e;
  json_array_foreach(r->events, i, e) {
    if (strcmp(json_string_value(json_array_get(e, 0)), type) == 0 &&
        nth-- == 0)
      return json_array_get(e, 1);
  }
  return NULL;
}

static bool starts_with(const char *s, const char *prefix) {
  return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Connection n resumed the session: on the resume URL, with session_id
 * and seq. */
static void assert_resumed(run *r, int n, const char *session, int seq) {
  json_t *log = r->srv.log;
  json_t *c = find(log, "connect", n, -1, 0);
  assert_non_null(c);
  assert_true(starts_with(str_of(c, "path"), "/resume?v=10&encoding=json"));
  json_t *res = find(log, "recv", n, 6, 0);
  assert_non_null(res);
  json_t *d = json_object_get(res, "d");
  assert_string_equal(str_of(d, "token"), TOKEN);
  assert_string_equal(str_of(d, "session_id"), session);
  assert_int_equal(int_of(d, "seq"), seq);
  assert_null(find(log, "recv", n, 2, 0)); /* no Identify as well */
  assert_non_null(event_d(r, "RESUMED", 0));
}

/* Connection n identified afresh on the main URL. */
static void assert_identified(run *r, int n) {
  json_t *c = find(r->srv.log, "connect", n, -1, 0);
  assert_non_null(c);
  assert_string_equal(str_of(c, "path"), "/?v=10&encoding=json");
  assert_non_null(find(r->srv.log, "recv", n, 2, 0));
  assert_null(find(r->srv.log, "recv", n, 6, 0));
}

/* How connection n ended, as the server saw it. */
static int closed_code(run *r, int n) {
  json_t *e = find(r->srv.log, "closed", n, -1, 0);
  assert_non_null(e);
  return int_of(e, "code");
}

/* ---- a plain session: Hello, heartbeats, Identify, dispatches ------------ */

static int basic_setup(void **state) {
  run *r = run_new();
  run_scenario(r, "basic", NULL);
  *state = r;
  return 0;
}

static int basic_teardown(void **state) {
  run_free(*state);
  return 0;
}

static void test_heartbeats(void **state) {
  run *r = *state;
  json_t *log = r->srv.log;
  int64_t hello = t_of(find(log, "sent", 1, 10, 0));
  int beats = count(log, "recv", 1, 1);
  assert_true(beats >= 4);
  /* the first beat after interval * random[0, 1) */
  int64_t first = t_of(find(log, "recv", 1, 1, 0));
  assert_true(first - hello >= 0 && first - hello <= HB_MS + 100);
  /* then every interval (on average: the times are the server's) */
  int64_t last = t_of(find(log, "recv", 1, 1, beats - 1));
  int64_t mean = (last - first) / (beats - 1);
  assert_true(mean >= HB_MS - 30 && mean <= HB_MS + 80);
  /* each carries the last seq (2 once LAIR_TEST_EVENT arrived) */
  json_t *final = find(log, "recv", 1, 1, beats - 1);
  assert_int_equal(json_integer_value(json_object_get(final, "d")), 2);
  assert_true(r->stats.heartbeats >= 4);
  assert_true(r->stats.acks >= 3);
  assert_int_equal(r->stats.zombies, 0);
}

static void test_identify_payload(void **state) {
  run *r = *state;
  json_t *c = find(r->srv.log, "connect", 1, -1, 0);
  assert_string_equal(str_of(c, "path"), "/?v=10&encoding=json");
  json_t *idf = find(r->srv.log, "recv", 1, 2, 0);
  assert_non_null(idf);
  assert_int_equal(count(r->srv.log, "recv", 0, 2), 1);
  json_t *d = json_object_get(idf, "d");
  assert_string_equal(str_of(d, "token"), TOKEN);
  assert_int_equal(int_of(d, "intents"), 1);
  json_t *p = json_object_get(d, "properties");
  assert_string_equal(str_of(p, "os"), "linux");
  assert_string_equal(str_of(p, "browser"), "lair");
  assert_string_equal(str_of(p, "device"), "lair");
  assert_int_equal(r->stats.identifies, 1);
  assert_int_equal(r->stats.connects, 1);
}

static void test_dispatch(void **state) {
  run *r = *state;
  assert_int_equal(json_array_size(r->events), 3);
  assert_string_equal(
      json_string_value(json_array_get(json_array_get(r->events, 0), 0)),
      "READY");
  assert_string_equal(str_of(event_d(r, "READY", 0), "session_id"), "sess-1");
  json_t *d = event_d(r, "LAIR_TEST_EVENT", 0);
  assert_non_null(d);
  assert_int_equal(int_of(d, "x"), 42);
  assert_string_equal(str_of(d, "name"), "event");
  assert_int_equal(r->stats.dispatches, 3);
  assert_int_equal(r->stats.last_seq, 3);
  /* bot_gw_stop: on_stop(0), run returns 0, the close is 1000 */
  assert_int_equal(r->rc, 0);
  assert_int_equal(r->stop_code, 0);
  assert_int_equal(closed_code(r, 1), 1000);
}

/* ---- resumes ------------------------------------------------------------ */

static void test_zombie_resume(void **state) {
  (void)state;
  run *r = run_new();
  run_scenario(r, "zombie", NULL);
  /* unanswered beats: closed with 4000 when the next beat was due */
  assert_int_equal(closed_code(r, 1), 4000);
  assert_int_equal(count(r->srv.log, "recv", 1, 1), 1);
  assert_int_equal(r->stats.zombies, 1);
  /* the seq is the last non-null s (5), not the op 99's null */
  assert_resumed(r, 2, "sess-1", 5);
  assert_int_equal(r->stats.identifies, 1);
  assert_int_equal(r->stats.resumes, 1);
  assert_int_equal(r->rc, 0);
  run_free(r);
}

static void test_op1_beats_now(void **state) {
  (void)state;
  run *r = run_new();
  run_scenario(r, "op1", NULL);
  int64_t asked = t_of(find(r->srv.log, "sent", 1, 1, 0));
  json_t *beat = NULL;
  for (int i = 0; (beat = find(r->srv.log, "recv", 1, 1, i)); i++)
    if (t_of(beat) >= asked)
      break;
  assert_non_null(beat);
  assert_true(t_of(beat) - asked <= 1000); /* not the 60 s interval */
  run_free(r);
}

static void test_op7_resume(void **state) {
  (void)state;
  run *r = run_new();
  run_scenario(r, "op7", NULL);
  int code = closed_code(r, 1);
  assert_true(code != 1000 && code != 1001); /* keeps the session */
  assert_resumed(r, 2, "sess-1", 3);
  assert_int_equal(r->rc, 0);
  run_free(r);
}

static void test_op7_before_hello(void **state) {
  (void)state;
  run *r = run_new();
  run_scenario(r, "op7_before_hello", NULL);
  int code = closed_code(r, 1);
  assert_true(code != 1000 && code != 1001);
  assert_identified(r, 2); /* no session yet */
  assert_int_equal(r->stats.identifies, 1);
  run_free(r);
}

static void test_op9_true_resume(void **state) {
  (void)state;
  run *r = run_new();
  run_scenario(r, "op9_true", NULL);
  assert_resumed(r, 2, "sess-1", 3);
  run_free(r);
}

static void test_op9_false_new_session(void **state) {
  (void)state;
  run *r = run_new();
  run_scenario(r, "op9_false", NULL);
  assert_identified(r, 2);
  /* Lower bounds from causes the server saw, so that a slow machine
   * cannot make them fail: the client waited after op 9, and its first
   * Identify came after the first Hello. */
  int64_t op9 = t_of(find(r->srv.log, "sent", 1, 9, 0));
  int64_t hello1 = t_of(find(r->srv.log, "sent", 1, 10, 0));
  int64_t id2 = t_of(find(r->srv.log, "recv", 2, 2, 0));
  assert_true(id2 - op9 >= GAP_MS / 5); /* waited, not at once */
  assert_true(id2 - hello1 >= GAP_MS);  /* identify spacing */
  assert_int_equal(r->stats.identifies, 2);
  assert_string_equal(str_of(event_d(r, "READY", 1), "session_id"), "sess-2");
  run_free(r);
}

static void test_drop_resume(void **state) {
  (void)state;
  run *r = run_new();
  run_scenario(r, "drop", NULL);
  assert_int_equal(closed_code(r, 1), 1006); /* no close frame */
  assert_resumed(r, 2, "sess-1", 3);
  run_free(r);
}

/* ---- close codes -------------------------------------------------------- */

static void test_close_codes_resume(void **state) {
  (void)state;
  static const int codes[] = {4000, 4001, 4002, 4003, 4005, 4008};
  for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
    char name[32];
    snprintf(name, sizeof name, "close_%d", codes[i]);
    run *r = run_new();
    run_scenario(r, name, NULL);
    assert_int_equal(closed_code(r, 1), codes[i]);
    assert_resumed(r, 2, "sess-1", 2);
    assert_int_equal(r->rc, 0);
    run_free(r);
  }
}

static void test_close_codes_new_session(void **state) {
  (void)state;
  static const int codes[] = {4007, 4009};
  for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
    char name[32];
    snprintf(name, sizeof name, "close_%d", codes[i]);
    run *r = run_new();
    run_scenario(r, name, NULL);
    assert_identified(r, 2);
    int64_t hello1 = t_of(find(r->srv.log, "sent", 1, 10, 0));
    int64_t id2 = t_of(find(r->srv.log, "recv", 2, 2, 0));
    assert_true(id2 - hello1 >= GAP_MS);
    assert_int_equal(r->stats.identifies, 2);
    assert_int_equal(r->rc, 0);
    run_free(r);
  }
}

/* Reads a whole small file into a new string. */
static char *slurp(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f)
    return NULL;
  char *buf = calloc(1, 65536);
  size_t n = buf ? fread(buf, 1, 65535, f) : 0;
  (void)n;
  fclose(f);
  return buf;
}

static void test_close_codes_fatal(void **state) {
  (void)state;
  static const int codes[] = {4004, 4010, 4011, 4012, 4013, 4014};
  for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
    char name[32];
    snprintf(name, sizeof name, "close_%d", codes[i]);
    /* the log line: one clear line naming the code, never the token */
    char errpath[] = "/tmp/lair_gw_err_XXXXXX";
    int efd = mkstemp(errpath);
    assert_true(efd >= 0);
    fflush(stderr);
    int saved = dup(STDERR_FILENO);
    dup2(efd, STDERR_FILENO);
    run *r = run_new();
    run_scenario(r, name, NULL);
    fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(saved);
    close(efd);
    char *err = slurp(errpath);
    unlink(errpath);
    assert_non_null(err);
    fputs(err, stderr); /* keep it visible in the test output */
    char want[16];
    snprintf(want, sizeof want, "%d", codes[i]);
    assert_non_null(strstr(err, want));
    assert_non_null(strstr(err, "not reconnecting"));
    assert_null(strstr(err, TOKEN));
    if (codes[i] == 4004)
      assert_non_null(strstr(err, "authentication failed"));
    free(err);
    /* bot_gw_run ends with the code, on_stop says why, no reconnect */
    assert_int_equal(r->rc, codes[i]);
    assert_int_equal(r->stop_code, codes[i]);
    assert_true(strlen(r->stop_why) > 5);
    assert_int_equal(count(r->srv.log, "connect", 0, -1), 1);
    run_free(r);
  }
}

/* ---- big messages ------------------------------------------------------- */

static void test_fragmented_ready(void **state) {
  (void)state;
  run *r = run_new();
  run_scenario(r, "fragmented", NULL);
  json_t *sent = find(r->srv.log, "sent", 1, 0, 0);
  assert_true(int_of(sent, "size") > 200000); /* about 30 fragments */
  json_t *d = event_d(r, "READY", 0);
  assert_non_null(d);
  assert_string_equal(str_of(d, "session_id"), "sess-big");
  json_t *guilds = json_object_get(d, "guilds");
  assert_int_equal(json_array_size(guilds), 6000);
  assert_string_equal(str_of(json_array_get(guilds, 5999), "id"),
                      "100000000000005999");
  assert_int_equal(r->rc, 0);
  run_free(r);
}

static void small_cap(bot_gw_config *cfg) { cfg->max_payload = 65536; }

static void test_over_cap(void **state) {
  (void)state;
  run *r = run_new();
  run_scenario(r, "overcap", small_cap);
  assert_int_equal(closed_code(r, 1), 1009);
  assert_null(event_d(r, "LAIR_TEST_BIG", 0)); /* never dispatched */
  assert_resumed(r, 2, "sess-1", 1);           /* resumes before it */
  assert_int_equal(r->rc, 0);
  run_free(r);
}

/* ---- the send budget ---------------------------------------------------- */

static void test_budget_window(void **state) {
  (void)state;
  bot_gw_budget b;
  bot_gw_budget_init(&b);
  int64_t t = 1000000;
  int ok = 0;
  for (int i = 0; i < 200; i++)
    ok += bot_gw_budget_take(&b, t + i, false);
  assert_int_equal(ok, BOT_GW_BUDGET_LIMIT - BOT_GW_BUDGET_HB_RESERVE);
  /* the reserve is for heartbeats only */
  for (int i = 0; i < BOT_GW_BUDGET_HB_RESERVE; i++)
    assert_true(bot_gw_budget_take(&b, t + 300, true));
  assert_false(bot_gw_budget_take(&b, t + 300, true));
  /* a slot comes back 60 s after it was taken, not before */
  assert_false(bot_gw_budget_take(&b, t + 59999, true));
  assert_true(bot_gw_budget_take(&b, t + 60000, true));
  assert_false(bot_gw_budget_take(&b, t + 60000, true));
  /* at t + 60010, ten more came back (t + 1 .. t + 10): with 110 taken,
   * 5 more for anything, then the 5 reserved for heartbeats */
  ok = 0;
  for (int i = 0; i < 20; i++)
    ok += bot_gw_budget_take(&b, t + 60010, false);
  assert_int_equal(ok, 5);
  ok = 0;
  for (int i = 0; i < 20; i++)
    ok += bot_gw_budget_take(&b, t + 60010, true);
  assert_int_equal(ok, BOT_GW_BUDGET_HB_RESERVE);
  /* never more than 120 in any 60 s */
  bot_gw_budget_init(&b);
  int64_t times[2000];
  int n = 0;
  for (int i = 0; i < 2000 && n < 2000; i++) {
    int64_t now = t + i * 97;
    if (bot_gw_budget_take(&b, now, i % 7 == 0))
      times[n++] = now;
  }
  for (int i = 0; i < n; i++) {
    int in_window = 0;
    for (int j = i; j < n && times[j] - times[i] < 60000; j++)
      in_window++;
    assert_true(in_window <= BOT_GW_BUDGET_LIMIT);
  }
}

static void flood(run *r) {
  json_t *p = json_pack("{s:i, s:{s:n, s:[], s:s, s:b}}", "op", 3, "d", "since",
                        "activities", "status", "online", "afk", 0);
  for (int i = 0; i < 130; i++) {
    bot_gw_send_result res = bot_gw_send(r->g, p);
    r->sent_ok += res == BOT_GW_SEND_OK;
    r->sent_budget += res == BOT_GW_SEND_BUDGET;
  }
  json_decref(p);
  char big[5000];
  memset(big, 'x', sizeof big - 1);
  big[sizeof big - 1] = '\0';
  json_t *b = json_pack("{s:i, s:s}", "op", 3, "d", big);
  r->sent_too_big += bot_gw_send(r->g, b) == BOT_GW_SEND_TOO_BIG;
  json_decref(b);
}

static void test_budget_flood(void **state) {
  (void)state;
  run *r = run_new();
  r->on_ready = flood;
  run_scenario(r, "budget", NULL);
  json_t *log = r->srv.log;
  int op3 = count(log, "recv", 0, 3);
  int total = count(log, "recv", 0, -1);
  /* Identify and a beat or two came first; the rest of the 115 */
  assert_true(op3 >= 110 && op3 <= 114);
  assert_int_equal(op3, r->sent_ok);
  assert_int_equal(r->sent_ok + r->sent_budget, 130);
  assert_int_equal(r->sent_too_big, 1);
  assert_int_equal(r->stats.dropped_by_budget, r->sent_budget + 1);
  assert_true(total <= BOT_GW_BUDGET_LIMIT);
  assert_int_equal(r->stats.sent, (uint64_t)total);
  /* no payload over 4096 bytes reached the server */
  size_t i;
  json_t *e;
  json_array_foreach(log, i, e) {
    if (strcmp(str_of(e, "ev"), "recv") == 0) {
      char *s =
          json_dumps(json_object_get(e, "d"), JSON_COMPACT | JSON_ENCODE_ANY);
      assert_true(strlen(s) < 4096);
      free(s);
    }
  }
  /* heartbeats still go out after the flood, from the reserve */
  json_t *last3 = find(log, "recv", 0, 3, op3 - 1);
  json_t *beat = NULL;
  for (int k = 0; (beat = find(log, "recv", 0, 1, k)); k++)
    if (t_of(beat) > t_of(last3))
      break;
  assert_non_null(beat);
  assert_int_equal(r->stats.zombies, 0);
  run_free(r);
}

/* ---- pacing: Identify never loops, backoff grows ----------------------- */

static void test_identify_never_loops(void **state) {
  (void)state;
  run *r = run_new();
  run_scenario(r, "identify_loop", NULL);
  assert_int_equal(count(r->srv.log, "recv", 0, 2), 4);
  for (int n = 2; n <= 4; n++) { /* Identify n - 1 came after Hello n - 1 */
    int64_t hello = t_of(find(r->srv.log, "sent", n - 1, 10, 0));
    int64_t id = t_of(find(r->srv.log, "recv", n, 2, 0));
    assert_true(id - hello >= GAP_MS);
  }
  assert_int_equal(count(r->srv.log, "connect", 0, -1), 4);
  run_free(r);
}

static void test_backoff_grows(void **state) {
  (void)state;
  run *r = run_new();
  run_scenario(r, "refuse", NULL);
  assert_int_equal(count(r->srv.log, "connect", 0, -1), 5);
  for (int k = 0; k < 4; k++) { /* attempt k waits [d/2, d], d = 50 << k */
    int64_t closing = t_of(find(r->srv.log, "close_sent", k + 1, -1, 0));
    int64_t next = t_of(find(r->srv.log, "connect", k + 2, -1, 0));
    int d = BASE_MS << k;
    if (d > MAX_MS)
      d = MAX_MS;
    assert_true(next - closing >= d / 2);
    assert_true(next - closing <= d + 300);
  }
  assert_identified(r, 5);
  run_free(r);
}

static void test_backoff_bounds(void **state) {
  (void)state;
  for (int a = 0; a < 40; a++) {
    int d = 1000;
    for (int i = 0; i < a && d < 60000; i++)
      d *= 2;
    if (d > 60000)
      d = 60000;
    int lo = bot_gw_backoff_ms(1000, 60000, a, 0.0);
    int hi = bot_gw_backoff_ms(1000, 60000, a, 0.999999);
    assert_int_equal(lo, d / 2);
    assert_true(hi <= d && hi >= d - 1);
  }
  assert_int_equal(bot_gw_backoff_ms(1000, 60000, 1000000, 0.5), 45000);
}

/* ---- stopping ----------------------------------------------------------- */

static void *stop_after_ready(void *arg) {
  run *r = arg;
  for (int i = 0; i < 1000 && !atomic_load(&r->saw_ready); i++)
    sleep_ms(5);
  sleep_ms(250); /* a beat or so */
  bot_gw_stop(r->g);
  return NULL;
}

static void start_stopper(run *r) {
  assert_int_equal(pthread_create(&r->stopper, NULL, stop_after_ready, r), 0);
  r->has_stopper = true;
}

static void test_stop_from_another_thread(void **state) {
  (void)state;
  run *r = run_new();
  r->on_ready = start_stopper;
  run_scenario(r, "stay", NULL);
  assert_int_equal(r->rc, 0);
  assert_int_equal(r->stop_code, 0);
  assert_int_equal(closed_code(r, 1), 1000);
  run_free(r);
}

static void test_stop_before_run(void **state) {
  (void)state;
  run r = {0};
  bot_gw_config cfg = test_config(&r, "ws://127.0.0.1:9");
  r.g = bot_gw_new(&cfg);
  assert_non_null(r.g);
  bot_gw_stop(r.g);
  assert_int_equal(bot_gw_run(r.g), 0);
  assert_int_equal(r.stops, 1);
  assert_int_equal(r.stop_code, 0);
  bot_gw_free(r.g);
}

static void *stop_later(void *arg) {
  sleep_ms(400);
  bot_gw_stop(arg);
  return NULL;
}

static void test_refused_connection_retries(void **state) {
  (void)state;
  /* a bound, never listening socket: connections are refused */
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  assert_true(fd >= 0);
  struct sockaddr_in a = {.sin_family = AF_INET,
                          .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
  assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
  socklen_t len = sizeof a;
  assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &len), 0);
  char url[64];
  snprintf(url, sizeof url, "ws://127.0.0.1:%d", ntohs(a.sin_port));
  run r = {0};
  bot_gw_config cfg = test_config(&r, url);
  r.g = bot_gw_new(&cfg);
  assert_non_null(r.g);
  pthread_t t;
  assert_int_equal(pthread_create(&t, NULL, stop_later, r.g), 0);
  assert_int_equal(bot_gw_run(r.g), 0); /* kept retrying until stopped */
  pthread_join(t, NULL);
  bot_gw_stats st;
  bot_gw_get_stats(r.g, &st);
  assert_int_equal(st.connects, 0);
  assert_int_equal(r.stop_code, 0);
  bot_gw_free(r.g);
  close(fd);
}

/* ---- TLS ---------------------------------------------------------------- */

/* The trust store honours SSL_CERT_FILE, as OpenSSL's default verify
 * paths do: with it pointing at the test certificate, the server is
 * trusted; without it, it is not, and the client must refuse it. */
static void test_tls_trusted(void **state) {
  (void)state;
  setenv("SSL_CERT_FILE", LAIR_GW_TLS_DIR "/tls_cert.pem", 1);
  run *r = run_new();
  r->tls = true;
  r->on_ready = start_stopper;
  run_scenario(r, "stay", NULL);
  unsetenv("SSL_CERT_FILE");
  assert_identified(r, 1);
  assert_int_equal(r->stats.connects, 1);
  assert_int_equal(closed_code(r, 1), 1000);
  run_free(r);
}

/* What a deployment trusts: the system's hashed certificate directory
 * (/etc/ssl/certs), read certificate by certificate as a chain needs it
 * (bot/gateway.c, load_trust_store). With SSL_CERT_DIR naming a directory
 * that holds the test certificate under its subject hash, the server is
 * trusted: with no SSL_CERT_FILE, or (bundle) with SSL_CERT_FILE naming
 * the directory's own ca-certificates.crt, as Debian's environments do,
 * which the directory stands for. */
static void trusted_dir(bool bundle) {
  char dir[] = "/tmp/lair-gw-certs-XXXXXX", path[64], crt[64];
  assert_non_null(mkdtemp(dir));
  FILE *f = fopen(LAIR_GW_TLS_DIR "/tls_cert.pem", "r");
  assert_non_null(f);
  X509 *cert = PEM_read_X509(f, NULL, NULL, NULL);
  fclose(f);
  assert_non_null(cert);
  snprintf(path, sizeof path, "%s/%08lx.0", dir, X509_subject_name_hash(cert));
  snprintf(crt, sizeof crt, "%s/ca-certificates.crt", dir);
  const char *files[] = {path, crt};
  for (int i = 0; i < (bundle ? 2 : 1); i++) {
    f = fopen(files[i], "w");
    assert_non_null(f);
    assert_int_equal(PEM_write_X509(f, cert), 1);
    fclose(f);
  }
  X509_free(cert);
  if (bundle)
    setenv("SSL_CERT_FILE", crt, 1);
  else
    unsetenv("SSL_CERT_FILE");
  setenv("SSL_CERT_DIR", dir, 1);
  run *r = run_new();
  r->tls = true;
  r->on_ready = start_stopper;
  run_scenario(r, "stay", NULL);
  unsetenv("SSL_CERT_DIR");
  unsetenv("SSL_CERT_FILE");
  unlink(path);
  if (bundle)
    unlink(crt);
  rmdir(dir);
  assert_identified(r, 1);
  assert_int_equal(r->stats.connects, 1);
  assert_int_equal(closed_code(r, 1), 1000);
  run_free(r);
}

static void test_tls_trusted_dir(void **state) {
  (void)state;
  trusted_dir(false);
}

static void test_tls_trusted_dir_bundle(void **state) {
  (void)state;
  trusted_dir(true);
}

static void *stop_run_later(void *arg) {
  run *r = arg;
  sleep_ms(600);
  bot_gw_stop(r->g);
  return NULL;
}

static void start_stop_later(run *r) {
  assert_int_equal(pthread_create(&r->stopper, NULL, stop_run_later, r), 0);
  r->has_stopper = true;
}

static void test_tls_untrusted(void **state) {
  (void)state;
  unsetenv("SSL_CERT_FILE");
  run *r = run_new();
  r->tls = true;
  assert_true(server_start(&r->srv, "stay", true));
  char url[64];
  snprintf(url, sizeof url, "wss://localhost:%d", r->srv.port);
  r->events = json_array();
  bot_gw_config cfg = test_config(r, url);
  r->g = bot_gw_new(&cfg);
  assert_non_null(r->g);
  start_stop_later(r);
  assert_int_equal(bot_gw_run(r->g), 0); /* retried until stopped */
  pthread_join(r->stopper, NULL);
  bot_gw_get_stats(r->g, &r->stats);
  bot_gw_free(r->g);
  r->g = NULL;
  server_stop(&r->srv);
  assert_int_equal(r->stats.connects, 0);
  assert_int_equal(count(r->srv.log, "connect", 0, -1), 0);
  assert_int_equal(json_array_size(r->events), 0);
  run_free(r);
}

/* ---- configuration ------------------------------------------------------ */

static void test_parse_url(void **state) {
  (void)state;
  bot_gw_url u;
  assert_int_equal(bot_gw_parse_url("wss://gateway.discord.gg", &u), 0);
  assert_true(u.tls);
  assert_int_equal(u.port, 443);
  assert_string_equal(u.host, "gateway.discord.gg");
  assert_string_equal(u.path, "/?v=10&encoding=json");
  assert_int_equal(bot_gw_parse_url("ws://127.0.0.1:8080", &u), 0);
  assert_false(u.tls);
  assert_int_equal(u.port, 8080);
  assert_string_equal(u.host, "127.0.0.1");
  assert_int_equal(bot_gw_parse_url("wss://gw-us-east.discord.gg/", &u), 0);
  assert_string_equal(u.path, "/?v=10&encoding=json");
  assert_int_equal(bot_gw_parse_url("ws://h:1/resume", &u), 0);
  assert_string_equal(u.path, "/resume?v=10&encoding=json");
  assert_int_equal(bot_gw_parse_url("ws://h/x?compress=0", &u), 0);
  assert_string_equal(u.path, "/x?compress=0&v=10&encoding=json");
  assert_int_equal(u.port, 80);
  static const char *bad[] = {
      "http://gateway.discord.gg",
      "gateway.discord.gg",
      "ws://",
      "wss://:443",
      "ws://h:",
      "ws://h:0",
      "ws://h:65536",
      "ws://h:12ab",
      "ws://user@h",
      "ws://[::1]:80",
      "ws://h#frag",
      "ws://h x",
      "",
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    if (bot_gw_parse_url(bad[i], &u) == 0)
      fail_msg("accepted %s", bad[i]);
  }
  assert_int_equal(bot_gw_parse_url(NULL, &u), -1);
  char longhost[400];
  memset(longhost, 'a', sizeof longhost - 1);
  longhost[sizeof longhost - 1] = '\0';
  char url[512];
  snprintf(url, sizeof url, "ws://%s", longhost);
  assert_int_equal(bot_gw_parse_url(url, &u), -1);
}

static void test_new_rejects_bad_config(void **state) {
  (void)state;
  run r = {0};
  bot_gw_config cfg = test_config(&r, "http://example.com");
  assert_null(bot_gw_new(&cfg));
  cfg = test_config(&r, "ws://127.0.0.1:9");
  cfg.token = "";
  assert_null(bot_gw_new(&cfg));
  cfg.token = NULL;
  assert_null(bot_gw_new(&cfg));
  char *huge = malloc(5000);
  assert_non_null(huge);
  memset(huge, 't', 4999);
  huge[4999] = '\0';
  cfg.token = huge; /* Identify could never fit 4096 bytes */
  assert_null(bot_gw_new(&cfg));
  free(huge);
  assert_null(bot_gw_new(NULL));
  bot_gw_free(NULL);
}

int main(void) {
  signal(SIGPIPE, SIG_IGN);
  const struct CMUnitTest basic[] = {
      cmocka_unit_test(test_heartbeats),
      cmocka_unit_test(test_identify_payload),
      cmocka_unit_test(test_dispatch),
  };
  const struct CMUnitTest rest[] = {
      cmocka_unit_test(test_parse_url),
      cmocka_unit_test(test_new_rejects_bad_config),
      cmocka_unit_test(test_backoff_bounds),
      cmocka_unit_test(test_budget_window),
      cmocka_unit_test(test_zombie_resume),
      cmocka_unit_test(test_op1_beats_now),
      cmocka_unit_test(test_op7_resume),
      cmocka_unit_test(test_op7_before_hello),
      cmocka_unit_test(test_op9_true_resume),
      cmocka_unit_test(test_op9_false_new_session),
      cmocka_unit_test(test_drop_resume),
      cmocka_unit_test(test_close_codes_resume),
      cmocka_unit_test(test_close_codes_new_session),
      cmocka_unit_test(test_close_codes_fatal),
      cmocka_unit_test(test_fragmented_ready),
      cmocka_unit_test(test_over_cap),
      cmocka_unit_test(test_budget_flood),
      cmocka_unit_test(test_identify_never_loops),
      cmocka_unit_test(test_backoff_grows),
      cmocka_unit_test(test_stop_from_another_thread),
      cmocka_unit_test(test_stop_before_run),
      cmocka_unit_test(test_refused_connection_retries),
      cmocka_unit_test(test_tls_trusted),
      cmocka_unit_test(test_tls_trusted_dir),
      cmocka_unit_test(test_tls_trusted_dir_bundle),
      cmocka_unit_test(test_tls_untrusted),
  };
  int failed = cmocka_run_group_tests_name("gateway_session", basic,
                                           basic_setup, basic_teardown);
  failed += cmocka_run_group_tests_name("gateway", rest, NULL, NULL);
  return failed;
}
