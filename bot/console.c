/*
 * console.c: the console table, `lair local`, Lair's second transport.
 *
 * Several named people share one channel on stdin/stdout: each input line
 * is `NAME> /game ...`, typed as a Discord user types a slash command, and
 * every message shows who sees it ([#table], [DM name], [eph name]). It is
 * what plain `lair` opens when no Discord token is set, and it makes whole
 * games scriptable: `!restart` drops all memory as a crash would,
 * `!advance 25h` moves the bot's clock, `#` starts a comment, and with
 * --json every delivered message is one JSON line, each input line closed
 * by {"to":"done"}. A line may start with `@ID ` to give its request id
 * (as Discord's interaction id), so a resent line is applied only once.
 * With --images DIR the pictures of the table that messages carry are
 * written there as PNG files, each named by its game, turn and state
 * version, and the message names the file; without it none is drawn.
 */
#include "cli.h"
#include "cmd.h"
#include "sto.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MAX_MODS 16
#define LINE_MAX_BYTES 4000

typedef struct console {
  bool json;
  FILE *out;
  const char *mods[MAX_MODS];
  int n_mods;
  char db_path[1024];
  sto *db;
  cmd_ctx *cmd;
  int64_t offset; /* seconds added by !advance */
  bool fixed_seed;
  uint64_t seed;
  uint64_t seeds_used;
  uint64_t counter;
  uint64_t nonce; /* random per process, in generated request ids */
  /* The messages kept up to date in place that were shown (cmd_msg.edit):
   * a later one of the same key is shown as an edit of it. */
  char edited[128][96];
  int n_edited;
  const char *images; /* --images: where pictures are written, or NULL */
  const char *locale; /* --locale: every user's and the table's, or NULL */
} console;

/* Whether m edits a message shown before; remembers it otherwise. */
static bool is_edit(console *k, const cmd_msg *m) {
  if (!m->edit)
    return false;
  char key[96];
  snprintf(key, sizeof key, "%d|%s|%" PRId64 "|%s", (int)m->to,
           m->user ? m->user : "", m->game, m->edit);
  for (int i = 0; i < k->n_edited && i < 128; i++)
    if (strcmp(k->edited[i], key) == 0)
      return true;
  snprintf(k->edited[k->n_edited++ % 128], sizeof key, "%s", key);
  return false;
}

/* Writes an attachment (an exported record) beside the database, where
 * the console's user finds it; path receives where, or why not. The name
 * comes from Lair (game-N.json), never from a user. With a PostgreSQL
 * URL there is no file to put it beside: it goes in the current
 * directory. */
static bool save_file(const console *k, const cmd_msg *m, char *path,
                      size_t cap) {
  const char *slash = sto_is_url(k->db_path) ? NULL : strrchr(k->db_path, '/');
  int dir = slash ? (int)(slash - k->db_path) : 1;
  snprintf(path, cap, "%.*s/%s", dir, slash ? k->db_path : ".", m->file_name);
  FILE *f = fopen(path, "wb");
  bool ok = f && fwrite(m->file_data, 1, m->file_len, f) == m->file_len;
  if (f && fclose(f) != 0)
    ok = false;
  if (!ok)
    snprintf(path, cap, "%s", strerror(errno));
  return ok;
}

/* Writes m's picture into the --images directory (through a temporary
 * file, so a reader never sees half a picture); path receives the file's
 * path, or why it was not written. The name comes from Lair
 * (game-N-turn-T-vV.png), never from a user. */
static bool save_image(const console *k, const cmd_msg *m, char *path,
                       size_t cap) {
  char tmp[1200];
  snprintf(path, cap, "%s/%s", k->images, m->image_name);
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  FILE *f = fopen(tmp, "wb");
  bool ok = f && fwrite(m->image_data, 1, m->image_len, f) == m->image_len;
  if (f && fclose(f) != 0)
    ok = false;
  if (ok && rename(tmp, path) != 0)
    ok = false;
  if (!ok) {
    snprintf(path, cap, "%s", strerror(errno));
    remove(tmp);
  }
  return ok;
}

/* m's text with its fields after it, each as its name in bold and its
 * value ("**name**\nvalue"), so a table laid out in fields reads whole;
 * malloc'd, NULL when out of memory. */
static char *with_fields(const cmd_msg *m) {
  size_t n = strlen(m->text) + 1;
  for (int i = 0; i < m->n_fields; i++)
    n += strlen(m->fields[i].name) + strlen(m->fields[i].value) + 8;
  char *s = malloc(n);
  if (!s)
    return NULL;
  size_t o = (size_t)snprintf(s, n, "%s", m->text);
  for (int i = 0; i < m->n_fields; i++)
    o += (size_t)snprintf(s + o, n - o, "%s**%s**\n%s", o ? "\n" : "",
                          m->fields[i].name, m->fields[i].value);
  return s;
}

static void deliver(void *ctx, const cmd_msg *m) {
  console *k = ctx;
  bool edit = is_edit(k, m);
  char *text = with_fields(m);
  if (!text)
    return;
  char image[1200] = "";
  bool image_saved = false;
  if (k->images && m->image_name && m->image_data)
    image_saved = save_image(k, m, image, sizeof image);
  if (k->json) {
    json_t *o = json_pack("{s:s, s:s?, s:s}", "to",
                          m->to == CMD_TO_CHANNEL ? "channel"
                          : m->to == CMD_TO_DM    ? "dm"
                                                  : "ephemeral",
                          "user", m->user_name, "text", text);
    free(text);
    if (!o)
      return;
    if (m->game) {
      json_object_set_new(o, "game", json_integer(m->game));
      json_object_set_new(o, "status",
                          json_string(m->status == STO_LOBBY     ? "lobby"
                                      : m->status == STO_RUNNING ? "running"
                                                                 : "finished"));
    }
    if (m->n_options > 0) {
      json_t *opts = json_array();
      for (int i = 0; i < m->n_options; i++)
        json_array_append_new(opts, json_pack("{ssss}", "id", m->options[i].id,
                                              "label", m->options[i].label));
      json_object_set_new(o, "options", opts);
    }
    if (m->edit)
      json_object_set_new(o, "edit", json_boolean(edit));
    if (m->lobby)
      json_object_set_new(
          o, "buttons", json_pack("[ssss]", "join", "leave", "start", "addai"));
    if (m->ended)
      json_object_set_new(o, "buttons", json_pack("[ss]", "rematch", "export"));
    if (m->title)
      json_object_set_new(o, "title", json_string(m->title));
    if (m->n_fields > 0) { /* the table's layout; text holds them too */
      json_t *f = json_array();
      for (int i = 0; i < m->n_fields; i++)
        json_array_append_new(f, json_pack("{ssss}", "name", m->fields[i].name,
                                           "value", m->fields[i].value));
      json_object_set_new(o, "fields", f);
    }
    if (m->colour)
      json_object_set_new(o, "colour", json_integer(m->colour));
    if (m->file_name && m->file_data) /* an attachment: shown, never saved */
      json_object_set_new(o, "file",
                          json_pack("{s:s, s:s%}", "name", m->file_name,
                                    "content", m->file_data, m->file_len));
    if (image[0]) /* the picture's file, or why it was not written */
      json_object_set_new(o, image_saved ? "image" : "image_error",
                          json_string(image));
    char *s = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    if (s)
      fprintf(k->out, "%s\n", s);
    free(s);
    return;
  }
  char tag[96];
  if (m->to == CMD_TO_CHANNEL)
    snprintf(tag, sizeof tag, "[#table%s]", edit ? ", edited" : "");
  else
    snprintf(tag, sizeof tag, "[%s %s%s]", m->to == CMD_TO_DM ? "DM" : "eph",
             m->user_name ? m->user_name : "?", edit ? ", edited" : "");
  fprintf(k->out, "%s ", tag);
  if (m->title)
    fprintf(k->out, "%s\n%*s", m->title, (int)strlen(tag) + 1, "");
  if (m->file_name && m->file_data) {
    char path[1200];
    if (save_file(k, m, path, sizeof path))
      fprintf(k->out, "(file saved as %s, %zu bytes) ", path, m->file_len);
    else
      fprintf(k->out, "(file %s, %zu bytes, NOT saved: %s) ", m->file_name,
              m->file_len, path);
  }
  for (const char *p = text; *p; p++) {
    fputc(*p, k->out);
    if (*p == '\n' && p[1])
      fprintf(k->out, "%*s", (int)strlen(tag) + 1, "");
  }
  fputc('\n', k->out);
  free(text);
  if (image[0] && image_saved)
    fprintf(k->out, "%*spicture: %s\n", (int)strlen(tag) + 1, "", image);
  else if (image[0])
    fprintf(k->out, "%*spicture %s NOT saved: %s\n", (int)strlen(tag) + 1, "",
            m->image_name, image);
  if (m->lobby)
    fprintf(k->out, "%*s[%s] [%s] [%s] [%s]\n", (int)strlen(tag) + 1, "",
            cmd_tr(m->lang, "Join"), cmd_tr(m->lang, "Leave"),
            cmd_tr(m->lang, "Start"), cmd_tr(m->lang, "Add AI"));
  if (m->ended)
    fprintf(k->out, "%*s[%s] [%s]\n", (int)strlen(tag) + 1, "",
            cmd_tr(m->lang, "Rematch"), cmd_tr(m->lang, "Export"));
}

static uint64_t next_seed(void *ctx) {
  console *k = ctx;
  return eng_mix64(k->seed + k->seeds_used++) >> 1;
}

static int64_t now(const console *k) { return (int64_t)time(NULL) + k->offset; }

static void done(console *k) {
  if (k->json)
    fprintf(k->out, "{\"to\":\"done\"}\n");
  fflush(k->out);
}

/* A message from the table itself (not from a command). */
static void say(console *k, const char *user, const char *text) {
  /* An echo of the input may have been cut mid-character. */
  char clean[CMD_TEXT_MAX + 1];
  snprintf(clean, sizeof clean, "%s", text);
  cmd_utf8_repair(clean);
  cmd_msg m = {.to = user ? CMD_TO_EPHEMERAL : CMD_TO_CHANNEL,
               .user = user,
               .user_name = user,
               .text = clean,
               .status = -1};
  deliver(k, &m);
}

static bool open_db(console *k) {
  char err[300] = "";
  char name[1024]; /* a URL's password is never shown */
  sto_redact(k->db_path, name, sizeof name);
  sto_rc rc = sto_open(k->db_path, &k->db, err, sizeof err);
  if (rc) {
    fprintf(stderr, "lair: cannot use the database %s: %s\n", name,
            err[0] ? err : sto_strerror(rc));
    return false;
  }
  cmd_config cfg = {.db = k->db,
                    .sink = {deliver, k},
                    .seed = k->fixed_seed ? next_seed : NULL,
                    .seed_ctx = k,
                    /* every picture, however long it takes: a script's
                       output must not depend on the machine's speed */
                    .pictures = k->images != NULL,
                    .picture_ms = 0};
  k->cmd = cmd_new(&cfg);
  if (!k->cmd) {
    fprintf(stderr, "lair: out of memory\n");
    return false;
  }
  /* Before the first line: AI seats an interrupted process left to move
   * answer, and the timers that fell due meanwhile fire. */
  cmd_set_now(k->cmd, now(k));
  if (cmd_recover(k->cmd) < 0)
    fprintf(stderr, "lair: the games left to AI seats could not be read\n");
  return true;
}

static void close_db(console *k) {
  cmd_free(k->cmd);
  k->cmd = NULL;
  sto_close(k->db);
  k->db = NULL;
}

/* Parses "25h", "90m", "1d12h", "30s" into seconds; false if malformed. */
static bool parse_duration(const char *s, int64_t *out) {
  int64_t total = 0;
  if (!*s)
    return false;
  while (*s) {
    if (!isdigit((unsigned char)*s))
      return false;
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    int64_t unit = *end == 's'   ? 1
                   : *end == 'm' ? 60
                   : *end == 'h' ? 3600
                   : *end == 'd' ? 86400
                                 : 0;
    if (errno || unit == 0 || v > 100000000LL)
      return false;
    total += v * unit;
    s = end + 1;
  }
  *out = total;
  return true;
}

static bool is_mod(const console *k, const char *name) {
  for (int i = 0; i < k->n_mods; i++)
    if (strcmp(k->mods[i], name) == 0)
      return true;
  return false;
}

/* Whether an option starts at p: `key:` with a lowercase key that is one
 * of the command's options, or followed by a non-space character. */
static size_t option_key(const cmd_def *d, const char *p) {
  size_t n = 0;
  while ((p[n] >= 'a' && p[n] <= 'z') || p[n] == '_')
    n++;
  if (n == 0 || p[n] != ':')
    return 0;
  if (p[n + 1] && p[n + 1] != ' ')
    return n;
  for (int i = 0; d && i < d->n_options; i++)
    if (strlen(d->options[i].name) == n &&
        strncmp(d->options[i].name, p, n) == 0)
      return n;
  return 0;
}

static void trim_end(char *s) {
  size_t n = strlen(s);
  while (n > 0 && isspace((unsigned char)s[n - 1]))
    s[--n] = '\0';
}

static void handle_command(console *k, const char *request, const char *name,
                           char *text) {
  char msg[300];
  /* "/GROUP SUB options...": GROUP one of cmd_groups (game, gamemod,
   * prefs). */
  char *p = text;
  const cmd_group_def *g = NULL;
  if (*p == '/') {
    char *end = p + 1;
    while (*end && *end != ' ')
      end++;
    char saved = *end;
    *end = '\0';
    g = cmd_find_group(p + 1);
    *end = saved;
    p = end;
  }
  if (!g) {
    snprintf(msg, sizeof msg,
             "Unknown command '%.40s'. Lair's commands are /game (try /game "
             "new kind:supervillain), /prefs and /gamemod.",
             text);
    say(k, name, msg);
    return;
  }
  while (*p == ' ')
    p++;
  char *sub = p;
  while (*p && *p != ' ')
    p++;
  if (*p)
    *p++ = '\0';
  const cmd_def *d = cmd_find(g->name, sub);
  cmd_request r = {.request_id = request,
                   .guild = "",
                   .channel = "local-table",
                   .user = name,
                   .user_name = name,
                   .is_mod = is_mod(k, name),
                   .locale = k->locale,
                   .guild_locale = k->locale,
                   .group = g->name,
                   .command = sub};
  /* Options: key:value, the value running to the next option. */
  while (*p) {
    while (*p == ' ')
      p++;
    if (!*p)
      break;
    size_t kn = option_key(d, p);
    if (kn == 0) {
      snprintf(msg, sizeof msg,
               "Cannot read '%.40s': options are written name:value.", p);
      say(k, name, msg);
      return;
    }
    if (r.n_args == CMD_MAX_ARGS) {
      say(k, name, "Too many options.");
      return;
    }
    p[kn] = '\0';
    cmd_arg *a = &r.args[r.n_args++];
    a->name = p;
    p += kn + 1;
    a->value = p;
    char *next = p;
    while (*next) {
      if (*next == ' ' && option_key(d, next + 1)) {
        *next = '\0';
        next++;
        break;
      }
      next++;
    }
    trim_end(p);
    p = next;
  }
  /* `option:partial?` asks for the suggestions autocomplete would give. */
  for (int i = 0; i < r.n_args; i++) {
    size_t n = strlen(r.args[i].value);
    if (n > 0 && r.args[i].value[n - 1] == '?') {
      char partial[128];
      snprintf(partial, sizeof partial, "%.*s", (int)(n - 1), r.args[i].value);
      cmd_choice choices[25];
      int c =
          cmd_autocomplete(k->cmd, &r, r.args[i].name, partial, choices, 25);
      char list[1800];
      size_t o = (size_t)snprintf(list, sizeof list,
                                  "Suggestions for %s:", r.args[i].name);
      for (int j = 0; j < c && o < sizeof list; j++)
        o += (size_t)snprintf(list + o, sizeof list - o, "\n- %s (%s)",
                              choices[j].label, choices[j].id);
      if (c == 0)
        snprintf(list + o, sizeof list - o, " none.");
      say(k, name, list);
      return;
    }
  }
  cmd_set_now(k->cmd, now(k));
  cmd_tick(k->cmd);
  cmd_handle(k->cmd, &r);
}

static bool name_ok(const char *s, size_t n) {
  if (n == 0 || n > 32)
    return false;
  for (size_t i = 0; i < n; i++)
    if (!isalnum((unsigned char)s[i]) && s[i] != '_' && s[i] != '-' &&
        s[i] != '.')
      return false;
  return true;
}

/* Handles one input line; false to stop (a fatal database error). */
static bool handle_line(console *k, char *line) {
  trim_end(line);
  char *p = line;
  while (*p == ' ' || *p == '\t')
    p++;
  if (!*p || *p == '#')
    return true;
  if (*p == '!') {
    int64_t secs;
    if (strcmp(p, "!restart") == 0) {
      close_db(k);
      if (!open_db(k))
        return false;
      if (!k->json)
        say(k, NULL,
            "(restarted: all memory dropped, reloading from the "
            "database)");
    } else if (strncmp(p, "!advance ", 9) == 0 &&
               parse_duration(p + 9, &secs)) {
      k->offset += secs;
      if (!k->json) {
        char msg[100];
        snprintf(msg, sizeof msg, "(the clock moves %s forward)", p + 9);
        say(k, NULL, msg);
      }
      cmd_set_now(k->cmd, now(k));
      cmd_tick(k->cmd); /* what fell due meanwhile happens now */
    } else if (strncmp(p, "!dump ", 6) == 0) {
      /* For tests: the whole state, hidden cards included. */
      long long id = strtoll(p + 6, NULL, 10);
      char *state = cmd_state_text(k->cmd, (int64_t)id);
      json_t *o = json_pack("{sssIss?}", "to", "state", "game", (json_int_t)id,
                            "state", state);
      char *line = o ? json_dumps(o, JSON_COMPACT) : NULL;
      if (line)
        fprintf(k->out, "%s\n", line);
      free(line);
      json_decref(o);
      free(state);
    } else {
      say(k, "table",
          "Table controls: !restart, !advance DURATION (e.g. 25h, 1d12h, "
          "90m), !dump GAME (tests: the full state).");
    }
    return true;
  }
  char request[80];
  if (*p == '@') {
    char *sp = strchr(p, ' ');
    size_t n = sp ? (size_t)(sp - p - 1) : 0;
    /* "local:" + ID must fit a stored request id whole. */
    if (!sp || n == 0 || n > STO_REQUEST_MAX - 6) {
      say(k, "table", "A request id is written @ID before the name.");
      return true;
    }
    snprintf(request, sizeof request, "local:%.*s", (int)n, p + 1);
    p = sp + 1;
  } else {
    /* Unique across processes too (k->nonce): a later run on the same
     * database must not repeat an earlier run's id, or its move would be
     * refused as already handled. */
    snprintf(request, sizeof request, "local:%016" PRIx64 ":%" PRIu64, k->nonce,
             ++k->counter);
  }
  char *gt = strstr(p, "> ");
  if (!gt || !name_ok(p, (size_t)(gt - p))) {
    say(k, "table",
        "Write NAME> /game ... (NAME: letters, digits, _ - or ., at most 32).");
    return true;
  }
  *gt = '\0';
  char *text = gt + 2;
  while (*text == ' ')
    text++;
  handle_command(k, request, p, text);
  return true;
}

/* The default database: $LAIR_DB, else $XDG_DATA_HOME/lair/lair.db, else
 * ~/.local/share/lair/lair.db (directories created). */
bool bot_default_db(char *out, size_t cap) {
  const char *env = getenv("LAIR_DB");
  if (env && *env) {
    snprintf(out, cap, "%s", env);
    return true;
  }
  char dir[900];
  const char *xdg = getenv("XDG_DATA_HOME");
  const char *home = getenv("HOME");
  if (xdg && *xdg)
    snprintf(dir, sizeof dir, "%s/lair", xdg);
  else if (home && *home)
    snprintf(dir, sizeof dir, "%s/.local/share/lair", home);
  else
    return false;
  /* mkdir -p */
  for (char *p = dir + 1; *p; p++)
    if (*p == '/') {
      *p = '\0';
      if (mkdir(dir, 0700) != 0 && errno != EEXIST)
        return false;
      *p = '/';
    }
  if (mkdir(dir, 0700) != 0 && errno != EEXIST)
    return false;
  snprintf(out, cap, "%s/lair.db", dir);
  return true;
}

static const char *const intro =
    "Lair's console table: everyone here shares one channel.\n"
    "Type lines as NAME> /game COMMAND option:value, for example:\n"
    "  alice> /game new kind:supervillain\n"
    "  bob> /game join\n"
    "  alice> /game start\n"
    "  alice> /game move choice:end      (an option id or its label;\n"
    "                                     choice:? lists your options)\n"
    "/game: new, join, leave, start, status, hand, move, undo, pile, log,\n"
    "list, card, export, rematch, addai, deadline, board. /prefs: show, set,\n"
    "mute, vacation. /gamemod (moderators, --mod NAME): list, abort, replace,\n"
    "pause, resume, kick, settings, audit.\n"
    "[#table] is the channel, [DM name] a direct message, [eph name] a reply\n"
    "only name sees. !restart reloads from the database; Ctrl-D quits.";

void bot_usage_local(FILE *f) {
  fputs("  lair local [--db PATH] [--script FILE] [--json] [--mod NAME]...\n"
        "           [--seed S] [--images DIR] [--locale en|de]\n"
        "                 The console table: lines NAME> /game ... from\n"
        "                 stdin or FILE. The database defaults to $LAIR_DB,\n"
        "                 else ~/.local/share/lair/lair.db. --seed makes\n"
        "                 new games' seeds reproducible. --images writes\n"
        "                 the pictures of the table into DIR (made if\n"
        "                 need be), game-N-turn-T-vV.png, and names each\n"
        "                 file in the message (--json: \"image\").\n"
        "                 --locale de: every player and the table read\n"
        "                 Lair in German (as Discord's locale de does);\n"
        "                 /prefs set language: still chooses per player.\n",
        f);
}

/* Makes dir if it is missing; false, after saying why, when pictures
 * cannot be written there. */
static bool images_dir_ok(const char *dir) {
  struct stat st;
  if (strlen(dir) > 1000) { /* a picture's path must fit save_image's */
    fputs("lair local: the --images directory's path is too long\n", stderr);
    return false;
  }
  if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
    fprintf(stderr,
            "lair local: cannot make the directory %s for pictures: %s\n", dir,
            strerror(errno));
    return false;
  }
  const char *why = stat(dir, &st) != 0        ? strerror(errno)
                    : !S_ISDIR(st.st_mode)     ? "not a directory"
                    : access(dir, W_OK | X_OK) ? strerror(errno)
                                               : NULL;
  if (why)
    fprintf(stderr, "lair local: cannot write pictures into %s: %s\n", dir,
            why);
  return why == NULL;
}

int bot_cmd_local(int argc, char **argv) {
  static const struct option opts[] = {
      {"db", required_argument, NULL, 'd'},
      {"script", required_argument, NULL, 's'},
      {"json", no_argument, NULL, 'j'},
      {"mod", required_argument, NULL, 'm'},
      {"seed", required_argument, NULL, 'S'},
      {"images", required_argument, NULL, 'i'},
      {"locale", required_argument, NULL, 'l'},
      {"help", no_argument, NULL, 'h'},
      {NULL, 0, NULL, 0},
  };
  console k = {.out = stdout};
  if (getrandom(&k.nonce, sizeof k.nonce, 0) != (ssize_t)sizeof k.nonce)
    k.nonce = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
  const char *script = NULL, *db = NULL;
  int c;
  optind = 0;
  opterr = 0;
  while ((c = getopt_long(argc, argv, ":d:s:jm:S:i:l:h", opts, NULL)) != -1) {
    switch (c) {
    case 'd':
      db = optarg;
      break;
    case 's':
      script = optarg;
      break;
    case 'j':
      k.json = true;
      break;
    case 'm':
      if (k.n_mods == MAX_MODS) {
        fprintf(stderr, "lair local: at most %d --mod names\n", MAX_MODS);
        return BOT_EXIT_USAGE;
      }
      k.mods[k.n_mods++] = optarg;
      break;
    case 'S':
      if (!bot_parse_u64("--seed", optarg, INT64_MAX, &k.seed))
        return BOT_EXIT_USAGE;
      k.fixed_seed = true;
      break;
    case 'i':
      if (!optarg[0]) {
        fputs("lair local: --images needs a directory\n", stderr);
        return BOT_EXIT_USAGE;
      }
      k.images = optarg;
      break;
    case 'l':
      if (strcmp(optarg, cmd_lang_code(cmd_lang_of_locale(optarg))) != 0) {
        fprintf(stderr, "lair local: --locale takes en or de, not '%.40s'\n",
                optarg);
        return BOT_EXIT_USAGE;
      }
      k.locale = optarg;
      break;
    case 'h':
      return bot_print_usage(bot_usage_local);
    default:
      bot_option_error("local", c, argv);
      return BOT_EXIT_USAGE;
    }
  }
  if (optind < argc) {
    fprintf(stderr, "lair local: unexpected argument '%.40s'\n", argv[optind]);
    return BOT_EXIT_USAGE;
  }
  if (db)
    snprintf(k.db_path, sizeof k.db_path, "%s", db);
  else if (!bot_default_db(k.db_path, sizeof k.db_path)) {
    fputs("lair local: no database path: set LAIR_DB or HOME, or give "
          "--db PATH\n",
          stderr);
    return BOT_EXIT_USAGE;
  }
  if (k.images && !images_dir_ok(k.images))
    return BOT_EXIT_USAGE;
  FILE *in = stdin;
  if (script && !(in = fopen(script, "r"))) {
    fprintf(stderr, "lair local: cannot read %s: %s\n", script,
            strerror(errno));
    return BOT_EXIT_USAGE;
  }
  if (!open_db(&k)) {
    if (in != stdin)
      fclose(in);
    return BOT_EXIT_FAIL;
  }
  if (!k.json) {
    char name[1024]; /* a URL's password is never shown */
    sto_redact(k.db_path, name, sizeof name);
    fprintf(k.out, "%s\n(database: %s)\n%s", intro, name,
            !sto_created(k.db)      ? ""
            : sto_is_url(k.db_path) ? "Lair's tables were made there: it "
                                      "held none.\n"
                                    : "A new database was made there: no "
                                      "file was at that path.\n");
    fflush(k.out);
  }
  char *line = NULL;
  size_t line_cap = 0;
  ssize_t got;
  int status = BOT_EXIT_OK;
  /* getline, not fgets: a NUL byte inside a line must not hide its end
   * (and with it swallow the next line). */
  while ((got = getline(&line, &line_cap, in)) >= 0) {
    size_t len = (size_t)got;
    if (len > 0 && line[len - 1] == '\n')
      line[--len] = '\0';
    const char *bad = len >= LINE_MAX_BYTES     ? "That line is too long"
                      : memchr(line, '\0', len) ? "That line holds a NUL byte"
                      : !cmd_utf8_valid(line, len)
                          ? "That line is not valid UTF-8 text"
                          : NULL;
    if (bad) {
      char msg[120];
      snprintf(msg, sizeof msg, "%s; it was ignored and nothing changed.", bad);
      say(&k, "table", msg);
      done(&k);
      continue;
    }
    if (!handle_line(&k, line)) {
      status = BOT_EXIT_FAIL;
      break;
    }
    done(&k);
  }
  free(line);
  if (in != stdin)
    fclose(in);
  close_db(&k);
  return status;
}
