/*
 * test_http.c: the HTTP interactions endpoint's pure parts
 * (bot/discord_http.c): its configuration from the environment
 * (LAIR_HTTP_PORT, LAIR_HTTP_ADDR, LAIR_HTTP_PATH, LAIR_PUBLIC_KEY),
 * each refusal naming its variable, and the Ed25519 check with a key
 * pair libsodium makes here: a good signature, a wrong one, one by
 * another key, a changed body or timestamp, truncated and non-hex
 * signatures; and the timestamp's window. The server itself is tested
 * against the fake Discord (tests/discord/test_http.py).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <sodium.h>
#include <stdio.h>
#include <time.h>

#include "discord_http.h"

/* ---- configuration ------------------------------------------------------ */

#define KEY "3b6a27bcceb6a42d62a3a8d02a6f0d73653215771de243a63ac048a18b59da29"

static void clear_env(void) {
  unsetenv("LAIR_HTTP_PORT");
  unsetenv("LAIR_HTTP_ADDR");
  unsetenv("LAIR_HTTP_PATH");
  unsetenv("LAIR_PUBLIC_KEY");
}

/* Parses the environment; returns whether it was accepted, the reason in
 * err. */
static bool parse(bot_http_config *c, char *err, size_t cap) {
  err[0] = '\0';
  return bot_http_config_from_env(c, err, cap);
}

static void config_unset(void **state) {
  (void)state;
  clear_env();
  bot_http_config c;
  char err[300];
  assert_true(parse(&c, err, sizeof err));
  assert_int_equal(c.port, 0);
  setenv("LAIR_HTTP_PORT", "", 1); /* empty is unset */
  assert_true(parse(&c, err, sizeof err));
  assert_int_equal(c.port, 0);
}

static void config_defaults(void **state) {
  (void)state;
  clear_env();
  setenv("LAIR_HTTP_PORT", "8080", 1);
  setenv("LAIR_PUBLIC_KEY", KEY, 1);
  bot_http_config c;
  char err[300];
  assert_true(parse(&c, err, sizeof err));
  assert_int_equal(c.port, 8080);
  assert_string_equal(c.addr, "127.0.0.1");
  assert_string_equal(c.path, "/interactions");
  assert_int_equal(c.public_key[0], 0x3b);
  assert_int_equal(c.public_key[31], 0x29);
  setenv("LAIR_HTTP_ADDR", "::1", 1);
  setenv("LAIR_HTTP_PATH", "/discord/in", 1);
  setenv("LAIR_HTTP_PORT", "65535", 1);
  assert_true(parse(&c, err, sizeof err));
  assert_string_equal(c.addr, "::1");
  assert_string_equal(c.path, "/discord/in");
  assert_int_equal(c.port, 65535);
  /* Upper-case hex is the same key. */
  char upper[65];
  for (int i = 0; i < 64; i++)
    upper[i] = (char)(KEY[i] >= 'a' ? KEY[i] - 32 : KEY[i]);
  upper[64] = '\0';
  setenv("LAIR_PUBLIC_KEY", upper, 1);
  assert_true(parse(&c, err, sizeof err));
  assert_int_equal(c.public_key[0], 0x3b);
}

/* Each malformed value is refused with a reason naming its variable. */
static void config_refused(void **state) {
  (void)state;
  static const struct {
    const char *port, *addr, *path, *key, *named;
  } cases[] = {
      {"0", NULL, NULL, KEY, "LAIR_HTTP_PORT"},
      {"65536", NULL, NULL, KEY, "LAIR_HTTP_PORT"},
      {"-1", NULL, NULL, KEY, "LAIR_HTTP_PORT"},
      {"80x", NULL, NULL, KEY, "LAIR_HTTP_PORT"},
      {" 80", NULL, NULL, KEY, "LAIR_HTTP_PORT"},
      {"http", NULL, NULL, KEY, "LAIR_HTTP_PORT"},
      {"99999999999999999999", NULL, NULL, KEY, "LAIR_HTTP_PORT"},
      {"8080", NULL, NULL, NULL, "LAIR_PUBLIC_KEY"},
      {"8080", NULL, NULL, "", "LAIR_PUBLIC_KEY"},
      {"8080", NULL, NULL, "abc", "LAIR_PUBLIC_KEY"},
      {"8080", NULL, NULL, KEY "00", "LAIR_PUBLIC_KEY"},
      {"8080", NULL, NULL,
       "3b6a27bcceb6a42d62a3a8d02a6f0d73653215771de243a63ac048a18b59da2",
       "LAIR_PUBLIC_KEY"},
      {"8080", NULL, NULL,
       "zb6a27bcceb6a42d62a3a8d02a6f0d73653215771de243a63ac048a18b59da29",
       "LAIR_PUBLIC_KEY"},
      {"8080", "localhost", NULL, KEY, "LAIR_HTTP_ADDR"},
      {"8080", "127.0.0.1:80", NULL, KEY, "LAIR_HTTP_ADDR"},
      {"8080", "300.1.1.1", NULL, KEY, "LAIR_HTTP_ADDR"},
      {"8080", NULL, "interactions", KEY, "LAIR_HTTP_PATH"},
      {"8080", NULL, "/a b", KEY, "LAIR_HTTP_PATH"},
      {"8080", NULL, "/a?x=1", KEY, "LAIR_HTTP_PATH"},
      /* Without a port, the others are a mistake. */
      {NULL, NULL, NULL, KEY, "LAIR_PUBLIC_KEY"},
      {NULL, "0.0.0.0", NULL, NULL, "LAIR_HTTP_ADDR"},
      {NULL, NULL, "/in", NULL, "LAIR_HTTP_PATH"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    clear_env();
    if (cases[i].port)
      setenv("LAIR_HTTP_PORT", cases[i].port, 1);
    if (cases[i].addr)
      setenv("LAIR_HTTP_ADDR", cases[i].addr, 1);
    if (cases[i].path)
      setenv("LAIR_HTTP_PATH", cases[i].path, 1);
    if (cases[i].key)
      setenv("LAIR_PUBLIC_KEY", cases[i].key, 1);
    bot_http_config c;
    char err[300];
    bool ok = parse(&c, err, sizeof err);
    if (ok || !strstr(err, cases[i].named))
      fail_msg("case %zu (port %s addr %s path %s): %s, \"%s\" should name %s",
               i, cases[i].port ? cases[i].port : "-",
               cases[i].addr ? cases[i].addr : "-",
               cases[i].path ? cases[i].path : "-", ok ? "accepted" : "refused",
               err, cases[i].named);
    assert_null(strchr(err, '\n'));
  }
  /* A long path is refused, not cut. */
  clear_env();
  char path[200];
  memset(path, 'a', sizeof path - 1);
  path[0] = '/';
  path[sizeof path - 1] = '\0';
  setenv("LAIR_HTTP_PORT", "8080", 1);
  setenv("LAIR_PUBLIC_KEY", KEY, 1);
  setenv("LAIR_HTTP_PATH", path, 1);
  bot_http_config c;
  char err[300];
  assert_false(parse(&c, err, sizeof err));
  assert_non_null(strstr(err, "LAIR_HTTP_PATH"));
  clear_env();
}

/* ---- signatures ---------------------------------------------------------- */

typedef struct keys {
  unsigned char pk[crypto_sign_PUBLICKEYBYTES];
  unsigned char sk[crypto_sign_SECRETKEYBYTES];
} keys;

static void sign_hex(const keys *k, const char *ts, const char *body,
                     char out[2 * crypto_sign_BYTES + 1]) {
  size_t tl = strlen(ts), bl = strlen(body);
  unsigned char *msg = malloc(tl + bl + 1);
  assert_non_null(msg);
  memcpy(msg, ts, tl);
  memcpy(msg + tl, body, bl);
  unsigned char sig[crypto_sign_BYTES];
  assert_int_equal(crypto_sign_detached(sig, NULL, msg, tl + bl, k->sk), 0);
  free(msg);
  sodium_bin2hex(out, 2 * crypto_sign_BYTES + 1, sig, sizeof sig);
}

#define BODY "{\"type\":1,\"id\":\"1187000000000009999\"}"
#define TS "1767225600"

static void signature_good_and_bad(void **state) {
  (void)state;
  assert_true(sodium_init() >= 0);
  keys k, other;
  crypto_sign_keypair(k.pk, k.sk);
  crypto_sign_keypair(other.pk, other.sk);
  char sig[2 * crypto_sign_BYTES + 1];
  sign_hex(&k, TS, BODY, sig);
  const unsigned char *body = (const unsigned char *)BODY;
  size_t len = strlen(BODY);
  assert_true(bot_http_signature_ok(k.pk, sig, TS, body, len));
  /* Upper-case hex is the same signature. */
  char upper[sizeof sig];
  for (size_t i = 0; i < sizeof sig; i++)
    upper[i] = (char)(sig[i] >= 'a' && sig[i] <= 'f' ? sig[i] - 32 : sig[i]);
  assert_true(bot_http_signature_ok(k.pk, upper, TS, body, len));
  /* Another key's public key. */
  assert_false(bot_http_signature_ok(other.pk, sig, TS, body, len));
  /* Another key's signature. */
  char theirs[sizeof sig];
  sign_hex(&other, TS, BODY, theirs);
  assert_false(bot_http_signature_ok(k.pk, theirs, TS, body, len));
  /* One bit of the signature changed. */
  char flipped[sizeof sig];
  memcpy(flipped, sig, sizeof sig);
  flipped[10] = flipped[10] == '0' ? '1' : '0';
  assert_false(bot_http_signature_ok(k.pk, flipped, TS, body, len));
  /* The body changed after signing: a byte, one more, one fewer. */
  char tampered[] = BODY;
  tampered[8] = '2';
  assert_false(bot_http_signature_ok(k.pk, sig, TS,
                                     (const unsigned char *)tampered, len));
  assert_false(bot_http_signature_ok(k.pk, sig, TS, body, len - 1));
  char longer[] = BODY " ";
  assert_false(bot_http_signature_ok(k.pk, sig, TS,
                                     (const unsigned char *)longer, len + 1));
  /* The timestamp is signed too. */
  assert_false(bot_http_signature_ok(k.pk, sig, "1767225601", body, len));
  assert_false(bot_http_signature_ok(k.pk, sig, "", body, len));
  assert_false(bot_http_signature_ok(k.pk, sig, NULL, body, len));
  /* Truncated, lengthened, odd-length and non-hex signatures. */
  char cut[sizeof sig];
  memcpy(cut, sig, sizeof sig);
  cut[126] = '\0';
  assert_false(bot_http_signature_ok(k.pk, cut, TS, body, len));
  cut[127] = '\0';
  cut[126] = sig[126];
  assert_false(bot_http_signature_ok(k.pk, cut, TS, body, len));
  char more[sizeof sig + 2];
  snprintf(more, sizeof more, "%s00", sig);
  assert_false(bot_http_signature_ok(k.pk, more, TS, body, len));
  char nonhex[sizeof sig];
  memcpy(nonhex, sig, sizeof sig);
  nonhex[0] = 'g';
  assert_false(bot_http_signature_ok(k.pk, nonhex, TS, body, len));
  nonhex[0] = ' ';
  assert_false(bot_http_signature_ok(k.pk, nonhex, TS, body, len));
  assert_false(bot_http_signature_ok(k.pk, "", TS, body, len));
  assert_false(bot_http_signature_ok(k.pk, NULL, TS, body, len));
  /* An empty body can be signed too. */
  sign_hex(&k, TS, "", sig);
  assert_true(bot_http_signature_ok(k.pk, sig, TS, NULL, 0));
}

static void hex_decoding(void **state) {
  (void)state;
  unsigned char out[2];
  assert_true(bot_http_hex("00fF", out, 2));
  assert_int_equal(out[0], 0x00);
  assert_int_equal(out[1], 0xff);
  assert_false(bot_http_hex("00f", out, 2));
  assert_false(bot_http_hex("00fff", out, 2));
  assert_false(bot_http_hex("0x0f", out, 2));
  assert_false(bot_http_hex("-1ff", out, 2));
  assert_false(bot_http_hex(NULL, out, 2));
}

static void timestamp_window(void **state) {
  (void)state;
  int64_t now = 1767225600;
  char ts[32];
  snprintf(ts, sizeof ts, "%lld", (long long)now);
  assert_true(bot_http_timestamp_ok(ts, now));
  snprintf(ts, sizeof ts, "%lld", (long long)(now - BOT_HTTP_MAX_SKEW));
  assert_true(bot_http_timestamp_ok(ts, now));
  snprintf(ts, sizeof ts, "%lld", (long long)(now - BOT_HTTP_MAX_SKEW - 1));
  assert_false(bot_http_timestamp_ok(ts, now));
  snprintf(ts, sizeof ts, "%lld", (long long)(now + BOT_HTTP_MAX_SKEW + 1));
  assert_false(bot_http_timestamp_ok(ts, now));
  assert_false(bot_http_timestamp_ok("", now));
  assert_false(bot_http_timestamp_ok(NULL, now));
  assert_false(bot_http_timestamp_ok("-1767225600", now));
  assert_false(bot_http_timestamp_ok("1767225600.5", now));
  assert_false(bot_http_timestamp_ok(" 1767225600", now));
  assert_false(bot_http_timestamp_ok("99999999999999999999999", now));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(config_unset),
      cmocka_unit_test(config_defaults),
      cmocka_unit_test(config_refused),
      cmocka_unit_test(signature_good_and_bad),
      cmocka_unit_test(hex_decoding),
      cmocka_unit_test(timestamp_window),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
