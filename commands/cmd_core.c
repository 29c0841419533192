/*
 * cmd_core.c: the helpers every command handler shares: messages (held
 * until the command's transaction commits), arguments, finding and lazily
 * loading games, recording moves, and rendering what each person may see.
 *
 * Games are loaded the first time a request touches them (a snapshot plus
 * the moves after it, or a full replay) and kept in a small cache that
 * cmd_forget empties, as a restart would; beyond CMD_CACHE_MAX games the
 * least recently used are dropped between requests. A cached game changes
 * with the command's writes; when the command's transaction does not
 * commit, cmd.c empties the cache, so the next request reloads the truth
 * from storage.
 */
#include "cmd_int.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Games kept loaded, about 9 KB each (the engine's game, its answers'
 * index, the seats). Loading one (its snapshot and the moves after it) is
 * cheap next to a commit, so the cache serves a player's burst of
 * requests, not the whole server: 32 games are 32 bursts at once. */
#define CMD_CACHE_MAX 32

static void live_free(live *L) {
  if (!L)
    return;
  eng_game_free(L->g);
  free(L);
}

void cmd_forget(cmd_ctx *c) {
  while (c->games) {
    live *next = c->games->next;
    live_free(c->games);
    c->games = next;
  }
}

/* ---- messages ------------------------------------------------------- */

const char *cmd_status_name(cmd_lang lang, int status) {
  return status == STO_LOBBY     ? T(lang, "lobby")
         : status == STO_RUNNING ? T(lang, "running")
                                 : T(lang, "finished");
}

/* ---- text ------------------------------------------------------------------
 */

/* The length of the valid UTF-8 sequence at s (n bytes left), or 0. */
static size_t utf8_seq(const unsigned char *s, size_t n) {
  unsigned c = s[0];
  size_t len;
  unsigned min;
  if (c < 0x80)
    return 1;
  if (c >= 0xC2 && c <= 0xDF)
    len = 2, min = 0x80;
  else if (c >= 0xE0 && c <= 0xEF)
    len = 3, min = 0x800;
  else if (c >= 0xF0 && c <= 0xF4)
    len = 4, min = 0x10000;
  else
    return 0;
  if (n < len)
    return 0;
  unsigned cp = c & (0x7Fu >> len);
  for (size_t i = 1; i < len; i++) {
    if ((s[i] & 0xC0) != 0x80)
      return 0;
    cp = cp << 6 | (s[i] & 0x3Fu);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
    return 0;
  return len;
}

bool cmd_utf8_valid(const char *s, size_t n) {
  const unsigned char *p = (const unsigned char *)s;
  for (size_t i = 0; i < n;) {
    size_t k = utf8_seq(p + i, n - i);
    if (!k)
      return false;
    i += k;
  }
  return true;
}

size_t cmd_utf8_repair(char *s) {
  unsigned char *p = (unsigned char *)s;
  size_t n = strlen(s), o = 0;
  for (size_t i = 0; i < n;) {
    size_t k = utf8_seq(p + i, n - i);
    if (!k) {
      i++; /* not part of a character: dropped */
      continue;
    }
    memmove(p + o, p + i, k);
    o += k;
    i += k;
  }
  p[o] = '\0';
  return o;
}

/* ---- held messages ---------------------------------------------------------
 * While a command's transaction is open, messages are copied here and
 * delivered only after it commits: nobody hears of a change that a crash
 * or a failed write could still undo. */

static char *dup_or_null(const char *s, bool *nomem) {
  if (!s)
    return NULL;
  char *d = strdup(s);
  if (!d)
    *nomem = true;
  return d;
}

static void held_free(cmd_held *h) {
  cmd_msg *m = &h->m;
  json_decref(h->pic_view);
  h->pic_view = NULL;
  free((char *)m->user);
  free((char *)m->user_name);
  free((char *)m->channel);
  free((char *)m->text);
  free((char *)m->mention);
  free((char *)m->slot);
  free((char *)m->edit);
  free((char *)m->title);
  free((char *)m->guild);
  free((char *)m->table);
  for (int i = 0; m->fields && i < m->n_fields; i++) {
    free((char *)m->fields[i].name);
    free((char *)m->fields[i].value);
  }
  free((cmd_field *)m->fields);
  free((char *)m->file_name);
  free((char *)m->file_data);
  free((char *)m->image_name);
  free((unsigned char *)m->image_data);
  free((cmd_choice *)m->options);
}

void cmd_hold_begin(cmd_ctx *c, const cmd_request *r) {
  cmd_hold_drop(c);
  cmd_lang_forget(c); /* another process may have changed one since */
  c->holding = true;
  c->failed = false;
  c->fail_text[0] = '\0';
  c->answer[0] = '\0';
  c->answer_rank = 0;
  c->requester = r->user;
}

void cmd_hold_drop(cmd_ctx *c) {
  for (int i = 0; i < c->n_held; i++)
    held_free(&c->held[i]);
  c->n_held = 0;
  c->holding = false;
}

/* Whether held message i is a hand by DM that a later held message of
 * the command shows anyway: a turn's DM (which opens with the hand) to
 * the same player of the same game. Such a hand is not sent: it would
 * spend a message of the player's DM channel (Discord allows 5 in 5 s)
 * that their next prompt may be waiting for. */
static bool hand_shown_later(const cmd_ctx *c, int i) {
  const cmd_msg *h = &c->held[i].m;
  if (h->to != CMD_TO_DM || !h->slot || strcmp(h->slot, "hand") != 0 ||
      h->edit || !h->user)
    return false;
  for (int j = i + 1; j < c->n_held; j++) {
    const cmd_msg *t = &c->held[j].m;
    if (t->to == CMD_TO_DM && t->edit && t->game == h->game && t->user &&
        strcmp(t->user, h->user) == 0)
      return true;
  }
  return false;
}

void cmd_hold_flush(cmd_ctx *c) {
  c->holding = false;
  for (int i = 0; i < c->n_held; i++) {
    cmd_held *h = &c->held[i];
    if (hand_shown_later(c, i))
      continue;
    if (!h->pic_view) {
      c->cfg.sink.deliver(c->cfg.sink.ctx, &h->m);
      continue;
    }
    /* The picture is drawn now, once nothing can undo what it shows. */
    cmd_msg m = h->m;
    char text[CMD_TEXT_MAX + 1];
    cmd_pic_attach(c, &m, h->pic_ruleset, h->pic_view, h->pic_turn, h->pic_say,
                   h->pic_lang, text, sizeof text);
    c->cfg.sink.deliver(c->cfg.sink.ctx, &m);
  }
  cmd_hold_drop(c);
}

/* Keeps the text of the command's first answer for its request id: the
 * first reply to the requester, else the first channel message. */
static void note_answer(cmd_ctx *c, const cmd_msg *m) {
  int rank = m->to == CMD_TO_EPHEMERAL && m->user && c->requester &&
                     strcmp(m->user, c->requester) == 0
                 ? 2
             : m->to == CMD_TO_CHANNEL ? 1
                                       : 0;
  if (rank > c->answer_rank) {
    c->answer_rank = rank;
    cmd_copy(c->answer, sizeof c->answer, m->text);
  }
}

/* Holds a copy of m, with where its picture comes from (view, taken
 * over; or NULL) and the language that says it was left out (say). */
static void hold(cmd_ctx *c, const cmd_msg *m, json_t *view,
                 const char *ruleset, int turn, bool say, cmd_lang lang);

/* m with the language of its reader (cmd_msg.lang). */
static cmd_msg with_lang(cmd_ctx *c, const cmd_msg *m) {
  cmd_msg out = *m;
  if (m->to == CMD_TO_DM) {
    out.lang = cmd_lang_user(c, m->user);
  } else if (m->to == CMD_TO_EPHEMERAL) {
    out.lang = c->lang;
  } else {
    const live *L = c->games;
    while (L && L->row.id != m->game)
      L = L->next;
    out.lang = L ? cmd_lang_game(c, L) : cmd_lang_guild(c, m->guild);
  }
  return out;
}

void cmd_deliver(cmd_ctx *c, const cmd_msg *msg) {
  cmd_msg m = with_lang(c, msg);
  if (!c->holding) {
    c->cfg.sink.deliver(c->cfg.sink.ctx, &m);
    return;
  }
  hold(c, &m, NULL, NULL, 0, false, CMD_LANG_EN);
}

void cmd_deliver_pic(cmd_ctx *c, const cmd_msg *msg, const live *L, bool say) {
  cmd_msg lm = with_lang(c, msg);
  const cmd_msg *m = &lm;
  if (!cmd_pic_wanted(c, L)) {
    cmd_deliver(c, m);
    return;
  }
  json_t *view = L->g->rs->view(L->g->state, -1); /* the public table */
  if (!view) { /* out of memory: the text goes alone */
    cmd_deliver(c, m);
    return;
  }
  /* The players' names, which the picture writes where the text does
   * (engine/pic/pic_int.h: pic_seat). */
  json_t *names = json_array();
  for (int s = 0; names && s < L->n_seats; s++)
    json_array_append_new(names, json_string(L->seats[s].name));
  if (names)
    json_object_set_new(view, "names", names);
  /* The language of m's reader, who may read that the picture is left
   * out. */
  cmd_lang lang = !say                      ? CMD_LANG_EN
                  : m->to == CMD_TO_CHANNEL ? cmd_lang_game(c, L)
                  : m->to == CMD_TO_DM      ? cmd_lang_user(c, m->user)
                                            : c->lang;
  if (c->holding) {
    hold(c, m, view, L->g->rs->id, L->g->prompt.turn, say, lang);
    return;
  }
  cmd_msg now = *m;
  char text[CMD_TEXT_MAX + 1];
  cmd_pic_attach(c, &now, L->g->rs->id, view, L->g->prompt.turn, say, lang,
                 text, sizeof text);
  json_decref(view);
  c->cfg.sink.deliver(c->cfg.sink.ctx, &now);
}

static void hold(cmd_ctx *c, const cmd_msg *m, json_t *view,
                 const char *ruleset, int turn, bool say, cmd_lang lang) {
  note_answer(c, m);
  if (c->n_held == c->cap_held) {
    int cap = c->cap_held ? c->cap_held * 2 : 16;
    cmd_held *p = realloc(c->held, (size_t)cap * sizeof *p);
    if (!p) {
      json_decref(view);
      cmd_fail(c, "Lair ran out of memory; nothing changed.");
      return;
    }
    c->held = p;
    c->cap_held = cap;
  }
  bool nomem = false;
  cmd_held held = {.m = *m,
                   .pic_view = view,
                   .pic_ruleset = ruleset,
                   .pic_turn = turn,
                   .pic_say = say,
                   .pic_lang = lang};
  cmd_msg h = *m;
  h.user = dup_or_null(m->user, &nomem);
  h.user_name = dup_or_null(m->user_name, &nomem);
  h.channel = dup_or_null(m->channel, &nomem);
  h.text = dup_or_null(m->text, &nomem);
  h.mention = dup_or_null(m->mention, &nomem);
  h.slot = dup_or_null(m->slot, &nomem);
  h.edit = dup_or_null(m->edit, &nomem);
  h.title = dup_or_null(m->title, &nomem);
  h.guild = dup_or_null(m->guild, &nomem);
  h.table = dup_or_null(m->table, &nomem);
  h.file_name = dup_or_null(m->file_name, &nomem);
  h.file_data = NULL;
  h.image_name = dup_or_null(m->image_name, &nomem);
  h.image_data = NULL;
  h.options = NULL;
  h.fields = NULL;
  h.n_fields = 0;
  if (m->fields && m->n_fields > 0) {
    cmd_field *f = calloc((size_t)m->n_fields, sizeof *f);
    if (f) {
      h.fields = f;
      h.n_fields = m->n_fields;
      for (int i = 0; i < m->n_fields; i++) {
        f[i].name = dup_or_null(m->fields[i].name, &nomem);
        f[i].value = dup_or_null(m->fields[i].value, &nomem);
      }
    } else
      nomem = true;
  }
  if (m->file_data && m->file_len) {
    char *f = malloc(m->file_len);
    if (f)
      memcpy(f, m->file_data, m->file_len);
    else
      nomem = true;
    h.file_data = f;
  }
  if (m->image_data && m->image_len) {
    unsigned char *f = malloc(m->image_len);
    if (f)
      memcpy(f, m->image_data, m->image_len);
    else
      nomem = true;
    h.image_data = f;
  }
  if (m->options && m->n_options > 0) {
    cmd_choice *o = malloc((size_t)m->n_options * sizeof *o);
    if (o)
      memcpy(o, m->options, (size_t)m->n_options * sizeof *o);
    else
      nomem = true;
    h.options = o;
  }
  held.m = h;
  if (nomem) {
    held_free(&held);
    cmd_fail(c, "Lair ran out of memory; nothing changed.");
    return;
  }
  /* A message edited in place: only its last text of this command goes
   * out (with its picture, drawn once), where its first stood. */
  for (int i = 0; h.edit && i < c->n_held; i++) {
    cmd_msg *o = &c->held[i].m;
    if (o->edit && o->to == h.to && o->game == h.game &&
        strcmp(o->edit, h.edit) == 0 &&
        ((!o->user && !h.user) ||
         (o->user && h.user && strcmp(o->user, h.user) == 0))) {
      held_free(&c->held[i]);
      c->held[i] = held;
      return;
    }
  }
  c->held[c->n_held++] = held;
}

void cmd_fail(cmd_ctx *c, const char *fmt, ...) {
  if (c->failed)
    return; /* the first failure is the one to tell */
  c->failed = true;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(c->fail_text, sizeof c->fail_text, cmd_tr(c->lang, fmt), ap);
  va_end(ap);
}

/* Delivers text, split at line ends into pieces Discord accepts; the
 * options ride on the last piece. */
static void send_msg(cmd_ctx *c, const cmd_request *r, cmd_to to,
                     const char *user, const char *user_name, const live *L,
                     const char *text, const cmd_choice *options, int n_options,
                     const char *mention, const char *slot, bool pic);

void cmd_send(cmd_ctx *c, const cmd_request *r, cmd_to to, const char *user,
              const char *user_name, const live *L, const char *text,
              const cmd_choice *options, int n_options) {
  send_msg(c, r, to, user, user_name, L, text, options, n_options, NULL, NULL,
           false);
}

void cmd_send_to(cmd_ctx *c, const cmd_request *r, cmd_to to, const char *user,
                 const char *user_name, const live *L, const char *text,
                 const char *mention, const char *slot) {
  send_msg(c, r, to, user, user_name, L, text, NULL, 0, mention, slot, false);
}

void cmd_send_pic(cmd_ctx *c, const cmd_request *r, cmd_to to, const live *L,
                  const char *text) {
  if (to == CMD_TO_CHANNEL)
    send_msg(c, r, to, NULL, NULL, L, text, NULL, 0, NULL, NULL, true);
  else
    send_msg(c, r, to, r->user, r->user_name, L, text, NULL, 0, NULL, NULL,
             true);
}

static void send_msg(cmd_ctx *c, const cmd_request *r, cmd_to to,
                     const char *user, const char *user_name, const live *L,
                     const char *text, const cmd_choice *options, int n_options,
                     const char *mention, const char *slot, bool pic) {
  if (to == CMD_TO_DM && user && cmd_is_ai(user))
    return; /* AI seats read no messages */
  char *headed = NULL;
  if (to == CMD_TO_DM && L) { /* a DM names its game */
    char head[200];
    cmd_dm_header(cmd_lang_user(c, user), L, head, sizeof head);
    size_t n = strlen(head) + strlen(text) + 2;
    headed = malloc(n);
    if (headed) {
      snprintf(headed, n, "%s\n%s", head, text);
      text = headed;
    }
  }
  cmd_msg m = {.to = to,
               .user = to == CMD_TO_CHANNEL ? NULL : user,
               .user_name = to == CMD_TO_CHANNEL ? NULL : user_name,
               /* a game's messages belong to its channel, even when the
                  request came from a DM */
               .channel = L ? L->row.channel : r->channel,
               .game = L ? L->row.id : 0,
               .status = L ? L->row.status : -1,
               .version = L ? L->row.moves : 0,
               .mention = mention,
               .slot = slot};
  char table[24];
  if (to == CMD_TO_DM && L && cmd_table_key(L, table, sizeof table)) {
    m.guild = L->row.guild;
    m.table = table;
  }
  char piece[CMD_TEXT_MAX + 1];
  size_t len = strlen(text);
  while (len > 0 && text[len - 1] == '\n')
    len--;
  const char *p = text;
  do {
    size_t n = (size_t)(text + len - p);
    if (n > CMD_TEXT_MAX) {
      n = CMD_TEXT_MAX;
      const char *nl = NULL;
      /* At a blank line if there is one (a hand stays whole before the
       * turn's question), else at a line end in the second half. */
      for (size_t k = n; k > 1 && !nl; k--)
        if (p[k] == '\n' && p[k - 1] == '\n')
          nl = p + k - 1;
      for (size_t k = n; k > CMD_TEXT_MAX / 2 && !nl; k--)
        if (p[k] == '\n') {
          nl = p + k;
          break;
        }
      if (nl)
        n = (size_t)(nl - p);
      else
        while (n > 0 && ((unsigned char)p[n] & 0xC0) == 0x80)
          n--; /* never cut a UTF-8 sequence */
    }
    memcpy(piece, p, n);
    piece[n] = '\0';
    /* Whatever was put in it (an echo cut mid-character), what reaches a
     * user is UTF-8: Discord refuses anything else, and the message
     * would be lost. */
    cmd_utf8_repair(piece);
    p += n;
    while (p < text + len && *p == '\n')
      p++;
    bool last = p >= text + len;
    m.text = piece;
    m.options = last ? options : NULL;
    m.n_options = last ? n_options : 0;
    if (pic && m.piece == 0) /* the picture heads a long text */
      cmd_deliver_pic(c, &m, L, false);
    else
      cmd_deliver(c, &m);
    m.piece++;
  } while (p < text + len);
  free(headed);
}

void cmd_send_end(cmd_ctx *c, const cmd_request *r, const live *L,
                  const char *text) {
  (void)r; /* a game's messages belong to its channel */
  char dm[CMD_TEXT_MAX + 1], head[200], title[160];
  /* In the channel a kept message of its own (edit key "end"), so that
   * it is posted where the game is, never as the answer to the last
   * move's interaction. */
  snprintf(title, sizeof title,
           T(cmd_lang_game(c, L), "%s - game #%" PRId64 ", summary"),
           cmd_game_name(L), L->row.id);
  const eng_ruleset *rs = eng_find(L->row.ruleset);
  cmd_msg m = {.to = CMD_TO_CHANNEL,
               .channel = L->row.channel,
               .game = L->row.id,
               .status = L->row.status,
               .version = L->row.moves,
               .text = text,
               .edit = "end",
               .title = title,
               .colour = rs ? rs->colour : 0,
               .ended = true};
  cmd_deliver(c, &m);
  m.edit = NULL;
  m.title = NULL;
  m.colour = 0;
  m.to = CMD_TO_DM;
  m.text = dm;
  char table[24];
  if (cmd_table_key(L, table, sizeof table)) {
    m.guild = L->row.guild;
    m.table = table;
  }
  for (int s = 0; s < L->n_seats; s++) {
    bool again = false; /* a person with two seats gets it once */
    for (int t = 0; t < s; t++)
      again |= strcmp(L->seats[t].user, L->seats[s].user) == 0;
    if (again || cmd_is_ai(L->seats[s].user))
      continue;
    /* the header in the language its reader reads */
    cmd_dm_header(cmd_lang_user(c, L->seats[s].user), L, head, sizeof head);
    snprintf(dm, sizeof dm, "%s\n%s", head, text);
    cmd_utf8_repair(dm);
    m.user = L->seats[s].user;
    m.user_name = L->seats[s].name;
    cmd_deliver(c, &m);
  }
}

/* ---- a table's fields ----------------------------------------------------
 * Discord shows at most CMD_FIELDS_MAX fields, each with a one-line name
 * and a value of at most CMD_FIELD_VALUE_MAX, and an embed of at most
 * CMD_EMBED_MAX in all. Bytes are counted, never fewer than Discord's
 * characters. A value too long loses whole lines from its end, the
 * longest value first, and says so; the text loses its oldest lines only
 * when no value has a line left to give. */

/* The bytes field i will take once sent: an empty value is sent as "-",
 * a cut one ends with a line that says so. */
static size_t field_len(const cmd_fitted *t, int i) {
  size_t v = strlen(t->value[i]);
  return strlen(t->name[i]) + (t->cut[i] ? v + (v ? 1 : 0) + strlen(t->more)
                               : v       ? v
                                         : 1);
}

void cmd_fit_fields(cmd_fitted *t, cmd_lang lang, const cmd_field *f, int n,
                    const char *title, char *text) {
  /* CMD_FIELD_CUT, written out to be found in the catalogue */
  t->more = T(lang, "(more: /game status)");
  t->n = n < CMD_FIELDS_MAX ? n : CMD_FIELDS_MAX;
  size_t total = (title ? strlen(title) : 0) + strlen(text);
  for (int i = 0; i < t->n; i++) {
    char *name = t->name[i], *value = t->value[i];
    cmd_copy(name, sizeof t->name[i], f[i].name ? f[i].name : "");
    for (char *p = name; *p; p++)
      if (*p == '\n' || *p == '\r')
        *p = ' ';
    cmd_utf8_repair(name);
    t->cut[i] = false;
    const char *v = f[i].value ? f[i].value : "";
    size_t vn = strlen(v);
    while (vn > 0 && v[vn - 1] == '\n')
      vn--;
    if (vn > CMD_FIELD_VALUE_MAX) { /* whole lines, and room to say so */
      size_t keep = CMD_FIELD_VALUE_MAX - strlen(t->more) - 1;
      while (keep > 0 && v[keep] != '\n')
        keep--;
      vn = keep;
      t->cut[i] = true;
    }
    memcpy(value, v, vn);
    value[vn] = '\0';
    cmd_utf8_repair(value);
    if (!name[0])
      snprintf(name, sizeof t->name[i], "-");
    total += field_len(t, i);
  }
  while (total > CMD_EMBED_MAX) {
    /* Each step makes total smaller: first the longest value of several
     * lines loses its last line, */
    int longest = -1;
    for (int i = 0; i < t->n; i++)
      if (strchr(t->value[i], '\n') &&
          (longest < 0 || strlen(t->value[i]) > strlen(t->value[longest])))
        longest = i;
    if (longest >= 0) {
      total -= field_len(t, longest);
      *strrchr(t->value[longest], '\n') = '\0';
      t->cut[longest] = true;
      total += field_len(t, longest);
      continue;
    }
    /* then the longest one-line value gives way to the word that it was
     * cut, */
    for (int i = 0; i < t->n; i++)
      if (strlen(t->value[i]) > strlen(t->more) &&
          (longest < 0 || strlen(t->value[i]) > strlen(t->value[longest])))
        longest = i;
    if (longest >= 0) {
      total -= field_len(t, longest);
      t->value[longest][0] = '\0';
      t->cut[longest] = true;
      total += field_len(t, longest);
      continue;
    }
    /* then the text's oldest lines go, */
    size_t over = total - CMD_EMBED_MAX, len = strlen(text);
    if (len > 0) {
      size_t cut = over < len ? over : len;
      while (cut < len && text[cut - 1] != '\n')
        cut++;
      memmove(text, text + cut, len - cut + 1);
      total -= cut;
      continue;
    }
    /* and last the last fields (only names longer than people's). */
    if (t->n == 0)
      break; /* a title cannot exceed it */
    t->n--;
    total -= field_len(t, t->n);
  }
  for (int i = 0; i < t->n; i++) {
    size_t o = strlen(t->value[i]);
    if (t->cut[i])
      snprintf(t->value[i] + o, sizeof t->value[i] - o, "%s%s", o ? "\n" : "",
               t->more);
    else if (!o)
      snprintf(t->value[i], sizeof t->value[i], "-");
    t->f[i].name = t->name[i];
    t->f[i].value = t->value[i];
  }
}

/* cmd_send_edit with the table's fields (f, n of them), the message
 * wearing the game's colour. */
static void send_table(cmd_ctx *c, cmd_to to, const sto_seat *who,
                       const live *L, const char *edit, const char *title,
                       const char *text, const cmd_field *f, int n,
                       const cmd_choice *options, int n_options, bool pic) {
  if (to == CMD_TO_DM && who && cmd_is_ai(who->user))
    return;
  char piece[CMD_EDIT_MAX + 1];
  snprintf(piece, sizeof piece, "%s", text);
  size_t len = strlen(piece);
  while (len > 0 && piece[len - 1] == '\n')
    piece[--len] = '\0';
  cmd_utf8_repair(piece);
  cmd_fitted *t = NULL;
  if (n > 0) {
    t = malloc(sizeof *t);
    if (t)
      cmd_fit_fields(t,
                     to == CMD_TO_CHANNEL ? cmd_lang_game(c, L)
                     : who                ? cmd_lang_user(c, who->user)
                                          : c->lang,
                     f, n, title, piece);
  }
  const eng_ruleset *rs = eng_find(L->row.ruleset);
  cmd_msg m = {.to = to,
               .user = to == CMD_TO_CHANNEL || !who ? NULL : who->user,
               .user_name = to == CMD_TO_CHANNEL || !who ? NULL : who->name,
               .channel = L->row.channel,
               .game = L->row.id,
               .status = L->row.status,
               .version = L->row.moves,
               .text = piece,
               .options = options,
               .n_options = n_options,
               .edit = edit,
               .title = title,
               .fields = t ? t->f : NULL,
               .n_fields = t ? t->n : 0,
               .colour = rs ? rs->colour : 0};
  char table[24];
  if (to == CMD_TO_DM && cmd_table_key(L, table, sizeof table)) {
    m.guild = L->row.guild;
    m.table = table;
  }
  if (pic)
    cmd_deliver_pic(c, &m, L, false);
  else
    cmd_deliver(c, &m);
  free(t);
}

void cmd_send_edit(cmd_ctx *c, const cmd_request *r, cmd_to to,
                   const sto_seat *who, const live *L, const char *edit,
                   const char *title, const char *text,
                   const cmd_choice *options, int n_options) {
  (void)r; /* a game's messages belong to its channel */
  send_table(c, to, who, L, edit, title, text, NULL, 0, options, n_options,
             false);
}

static void vsay(cmd_ctx *c, const cmd_request *r, const live *L, cmd_to to,
                 const char *fmt, va_list ap) {
  char text[CMD_TEXT_MAX * 2];
  cmd_lang lang = to != CMD_TO_CHANNEL ? c->lang
                  : L                  ? cmd_lang_game(c, L)
                                       : cmd_lang_guild(c, r->guild);
  vsnprintf(text, sizeof text, cmd_tr(lang, fmt), ap);
  if (to == CMD_TO_CHANNEL)
    cmd_send(c, r, to, NULL, NULL, L, text, NULL, 0);
  else
    cmd_send(c, r, to, r->user, r->user_name, L, text, NULL, 0);
}

void cmd_reply(cmd_ctx *c, const cmd_request *r, const live *L, const char *fmt,
               ...) {
  va_list ap;
  va_start(ap, fmt);
  vsay(c, r, L, CMD_TO_EPHEMERAL, fmt, ap);
  va_end(ap);
}

void cmd_announce(cmd_ctx *c, const cmd_request *r, const live *L,
                  const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsay(c, r, L, CMD_TO_CHANNEL, fmt, ap);
  va_end(ap);
}

void cmd_announce_lobby(cmd_ctx *c, const cmd_request *r, const live *L,
                        const char *fmt, ...) {
  char text[CMD_TEXT_MAX + 1];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(text, sizeof text, cmd_tr(cmd_lang_game(c, L), fmt), ap);
  va_end(ap);
  cmd_utf8_repair(text);
  cmd_msg m = {.to = CMD_TO_CHANNEL,
               .channel = L->row.channel,
               .game = L->row.id,
               .status = L->row.status,
               .version = L->row.moves,
               .text = text,
               .lobby = L->row.status == STO_LOBBY};
  cmd_deliver(c, &m);
  (void)r;
}

/* ---- arguments ------------------------------------------------------ */

const char *cmd_arg_get(const cmd_request *r, const char *name) {
  for (int i = 0; i < r->n_args; i++)
    if (strcmp(r->args[i].name, name) == 0)
      return r->args[i].value;
  return NULL;
}

bool cmd_parse_int(const char *text, long min, long max, long *out) {
  if (!text || !*text)
    return false;
  char *end;
  errno = 0;
  long v = strtol(text, &end, 10);
  if (errno || *end || v < min || v > max)
    return false;
  *out = v;
  return true;
}

/* Drops the least recently used games beyond CMD_CACHE_MAX. Only between
 * requests: a request may hold several games at once. */
void cmd_trim_cache(cmd_ctx *c) {
  int n = 0;
  for (live **p = &c->games; *p;) {
    if (++n <= CMD_CACHE_MAX) {
      p = &(*p)->next;
      continue;
    }
    live *dead = *p;
    *p = dead->next;
    live_free(dead);
  }
}

/* ---- games ------------------------------------------------------------ */

int cmd_seat_of(const live *L, const char *user) {
  for (int i = 0; i < L->n_seats; i++)
    if (strcmp(L->seats[i].user, user) == 0)
      return i;
  return -1;
}

void cmd_evict(cmd_ctx *c, int64_t id) {
  for (live **p = &c->games; *p; p = &(*p)->next)
    if ((*p)->row.id == id) {
      live *dead = *p;
      *p = dead->next;
      live_free(dead);
      return;
    }
}

/* Reads a game's engine config from its stored JSON. */
bool cmd_parse_config(const char *text, eng_config *cfg, int *max_seats) {
  json_t *j = json_loads(text, 0, NULL);
  const char *mode = NULL;
  int players = 0, first = -1, seats = 0;
  bool ok = j &&
            !json_unpack(j, "{s?i, s:s, s?i, s:i}", "players", &players, "mode",
                         &mode, "first", &first, "seats", &seats) &&
            strlen(mode) < sizeof cfg->mode;
  if (ok) {
    memset(cfg, 0, sizeof *cfg);
    cfg->players = players;
    cfg->first = first;
    memcpy(cfg->mode, mode, strlen(mode) + 1);
    *max_seats = seats;
  }
  json_decref(j);
  return ok;
}

typedef struct move_list {
  sto_move *m;
  size_t n, cap;
  bool nomem;
} move_list;

static int collect_move(void *ctx, const sto_move *m) {
  move_list *l = ctx;
  if (l->n == l->cap) {
    size_t cap = l->cap ? l->cap * 2 : 64;
    sto_move *p = realloc(l->m, cap * sizeof *p);
    if (!p) {
      l->nomem = true;
      return 1;
    }
    l->m = p;
    l->cap = cap;
  }
  l->m[l->n++] = *m;
  return 0;
}

eng_rc cmd_apply_stored(eng_game *g, const sto_move *m) {
  if (m->kind == STO_MOVE_TAKEBACK)
    return eng_game_takeback(g, m->seat);
  return eng_game_answer(g, m->seat, m->option, NULL);
}

/* Builds the engine game of L from storage as it stood after its moves
 * before `upto` (INT64_MAX: all of them) into *out: the newest snapshot
 * (when it is not past upto) and the moves after it, or every move from
 * the start. */
static bool build_game(cmd_ctx *c, const live *L, int64_t upto, eng_game **out,
                       char *why, size_t cap) {
  const eng_ruleset *rs = eng_find(L->row.ruleset);
  eng_config cfg;
  int seats;
  if (!rs || rs->version != L->row.ruleset_version) {
    snprintf(
        why, cap,
        T(c->lang, "it was saved by rules this Lair does not have (%s v%d)"),
        L->row.ruleset, L->row.ruleset_version);
    return false;
  }
  if (!cmd_parse_config(L->row.config, &cfg, &seats)) {
    snprintf(why, cap, "%s", T(c->lang, "its stored settings are malformed"));
    return false;
  }
  move_list ml = {0};
  if (sto_move_list(c->cfg.db, L->row.id, 0, collect_move, &ml) || ml.nomem) {
    free(ml.m);
    snprintf(why, cap, "%s", T(c->lang, "its moves could not be read"));
    return false;
  }
  if (upto >= 0 && (uint64_t)upto < ml.n)
    ml.n = (size_t)upto;
  eng_game *g = NULL;
  int64_t snap_seq;
  char *snap = NULL;
  size_t from = 0;
  if (sto_snapshot_get(c->cfg.db, L->row.id, &snap_seq, &snap) == STO_OK &&
      snap_seq >= 0 && (size_t)snap_seq <= ml.n) {
    /* The answers as they stood at the snapshot keep takeback working. */
    eng_answer *ans = calloc((size_t)snap_seq + 1, sizeof *ans);
    size_t n = 0;
    for (size_t k = 0; ans && k < (size_t)snap_seq; k++) {
      if (ml.m[k].kind == STO_MOVE_TAKEBACK) {
        if (n)
          n--;
        continue;
      }
      eng_answer *a = &ans[n++];
      a->player = (int8_t)ml.m[k].seat;
      a->turn = ml.m[k].turn;
      a->revealed = (uint8_t)ml.m[k].revealed;
      cmd_copy(a->id, sizeof a->id, ml.m[k].option);
    }
    if (ans &&
        eng_game_restore(rs, &cfg, L->row.seed, ans, n, snap, &g) == ENG_OK)
      from = (size_t)snap_seq;
    free(ans);
  }
  free(snap);
  if (!g && eng_game_new(rs, &cfg, L->row.seed, &g) != ENG_OK) {
    free(ml.m);
    snprintf(why, cap, "%s", T(c->lang, "its rules could not set it up"));
    return false;
  }
  for (size_t k = from; k < ml.n; k++)
    if (cmd_apply_stored(g, &ml.m[k]) != ENG_OK) {
      snprintf(why, cap, T(c->lang, "its move %zu no longer fits the rules"),
               k + 1);
      eng_game_free(g);
      free(ml.m);
      return false;
    }
  free(ml.m);
  *out = g;
  return true;
}

static bool build_engine(cmd_ctx *c, live *L, char *why, size_t cap) {
  return build_game(c, L, INT64_MAX, &L->g, why, cap);
}

eng_game *cmd_game_at(cmd_ctx *c, const live *L, int64_t moves) {
  char why[200];
  eng_game *g = NULL;
  return build_game(c, L, moves, &g, why, sizeof why) ? g : NULL;
}

const eng_ruleset *cmd_ruleset_named(cmd_ctx *c, const cmd_request *r,
                                     const char *id) {
  const eng_ruleset *rs = eng_find(id);
  if (!rs) {
    char known[200] = "";
    size_t n, o = 0;
    const eng_ruleset *const *all = eng_rulesets(&n);
    for (size_t i = 0; i < n && o < sizeof known; i++)
      o += (size_t)snprintf(known + o, sizeof known - o, "%s%s", i ? ", " : "",
                            all[i]->id);
    cmd_reply(c, r, NULL, "Lair has no game called '%.40s'. It has: %s.", id,
              known);
  }
  return rs;
}

bool cmd_place_game(cmd_ctx *c, const cmd_request *r, sto_game *g,
                    const char *thread_name, const char *what, int64_t *gid,
                    bool *threaded) {
  snprintf(g->guild, sizeof g->guild, "%s", r->guild ? r->guild : "");
  snprintf(g->channel, sizeof g->channel, "%s", r->channel);
  /* A server plays each game in a thread of its own: by default (auto)
     wherever Lair may open one, in the channel otherwise. */
  *threaded = false;
  long threads = cmd_setting(c, r->guild, "threads");
  if (c->cfg.open_thread && (threads == 1 || (threads == 2 && r->may_thread))) {
    *threaded = c->cfg.open_thread(c->cfg.thread_ctx, r->channel, thread_name,
                                   g->channel, sizeof g->channel);
    if (!*threaded && threads == 2)
      snprintf(g->channel, sizeof g->channel, "%s", r->channel);
    else if (!*threaded) {
      cmd_reply(c, r, NULL,
                "A thread for the %s could not be opened (does Lair have the "
                "Create Public Threads permission here?); nothing was "
                "created.",
                what);
      return false;
    }
  }
  snprintf(g->creator, sizeof g->creator, "%s", r->user);
  sto_seat s = {.seat = 0};
  snprintf(s.user, sizeof s.user, "%s", r->user);
  snprintf(s.name, sizeof s.name, "%s", r->user_name);
  sto_rc rc = sto_game_create(c->cfg.db, g, gid);
  if (!rc)
    rc = sto_seat_set(c->cfg.db, *gid, &s);
  if (rc) {
    cmd_fail(c, "The %s could not be created: %s", what, sto_strerror(rc));
    return false;
  }
  return true;
}

/* Game id's version in storage, and inside a transaction its lock. */
static sto_rc current_version(cmd_ctx *c, int64_t id, int64_t *version) {
  if (sto_in_tx(c->cfg.db))
    return sto_game_lock(c->cfg.db, id, version);
  sto_game row;
  sto_rc rc = sto_game_get(c->cfg.db, id, &row);
  *version = row.version;
  return rc;
}

static void load_failed(cmd_ctx *c, sto_rc rc, char *why, size_t cap) {
  snprintf(why, cap, "%s",
           rc == STO_NOT_FOUND ? T(c->lang, "there is no such game")
                               : sto_strerror(rc));
  if (rc == STO_BUSY)
    c->retry = true; /* a lock another process held, or a deadlock */
}

live *cmd_load(cmd_ctx *c, int64_t id, char *why, size_t cap) {
  live **at = NULL;
  for (live **p = &c->games; *p; p = &(*p)->next)
    if ((*p)->row.id == id) {
      at = p;
      break;
    }
  bool tx = sto_in_tx(c->cfg.db);
  if (at && (*at)->held) /* already checked in this transaction */
    return *at;
  int64_t version = 0;
  sto_rc rc = current_version(c, id, &version);
  if (rc) {
    load_failed(c, rc, why, cap);
    return NULL;
  }
  if (at) {
    live *L = *at;
    *at = L->next;
    if (L->row.version == version) {
      L->next = c->games; /* to the front: cmd_trim_cache drops from the
                             back */
      c->games = L;
      L->held = tx;
      return L;
    }
    live_free(L); /* another process changed it: read it again */
  }
  live *L = calloc(1, sizeof *L);
  if (!L) {
    snprintf(why, cap, "%s", T(c->lang, "out of memory"));
    return NULL;
  }
  rc = sto_game_get(c->cfg.db, id, &L->row);
  if (!rc)
    rc = sto_seat_list(c->cfg.db, id, L->seats, ENG_MAX_SEATS, &L->n_seats);
  if (rc) {
    load_failed(c, rc, why, cap);
    free(L);
    return NULL;
  }
  if ((L->row.status == STO_RUNNING || L->row.status == STO_FINISHED) &&
      !build_engine(c, L, why, cap)) {
    free(L);
    return NULL;
  }
  L->held = tx;
  L->next = c->games;
  c->games = L;
  return L;
}

void cmd_release(cmd_ctx *c, bool commit) {
  for (live *L = c->games; L; L = L->next) {
    sto_game row;
    if (L->held && commit && sto_game_get(c->cfg.db, L->row.id, &row) == STO_OK)
      L->row.version = row.version;
    else if (L->held && commit)
      L->row.version = -1; /* unknown: the next use reads it again */
    L->held = false;
  }
}

typedef struct id_list {
  int64_t id[16];
  int n;
} id_list;

static int collect_id(void *ctx, const sto_game *g) {
  id_list *l = ctx;
  if (l->n < 16)
    l->id[l->n++] = g->id;
  return 0;
}

/* The first max ids a listing (its outcome rc) collected into l, or -1. */
static int take_ids(sto_rc rc, const id_list *l, int64_t *ids, int max) {
  if (rc)
    return -1;
  int n = l->n < max ? l->n : max;
  memcpy(ids, l->id, (size_t)n * sizeof *ids);
  return n;
}

int cmd_channel_games(cmd_ctx *c, const char *channel, unsigned statuses,
                      int64_t *ids, int max) {
  id_list l = {.n = 0};
  sto_rc rc = sto_game_list(c->cfg.db, channel, statuses, collect_id, &l);
  return take_ids(rc, &l, ids, max);
}

int cmd_user_games(cmd_ctx *c, const char *user, unsigned statuses,
                   int64_t *ids, int max) {
  id_list l = {.n = 0};
  sto_rc rc = sto_game_list_user(c->cfg.db, user, statuses, collect_id, &l);
  return take_ids(rc, &l, ids, max);
}

int cmd_invited(cmd_ctx *c, cmd_lang lang, const live *L, char *buf,
                size_t cap) {
  sto_seat inv[ENG_MAX_SEATS];
  int n = 0;
  buf[0] = '\0';
  sto_rc rc = sto_invite_list(c->cfg.db, L->row.id, inv, ENG_MAX_SEATS, &n);
  if (rc && rc != STO_TOO_BIG)
    return -1;
  size_t o = 0;
  for (int k = 0; k < n && o < cap; k++)
    o += (size_t)snprintf(buf + o, cap - o, "%s%s",
                          k == 0       ? ""
                          : k == n - 1 ? T(lang, " and ")
                                       : ", ",
                          inv[k].name);
  return n;
}

bool cmd_opener_or_mod(cmd_ctx *c, const cmd_request *r, const live *L,
                       const char *what) {
  if (strcmp(L->row.creator, r->user) == 0 || r->is_mod)
    return true;
  cmd_reply(c, r, L,
            "Only the player who opened game #%" PRId64
            " or a moderator can %s.",
            L->row.id, what);
  return false;
}

/* ---- where a game stands, and what to do next ---------------------------
 * Every refusal that comes from a game's state names that state and the
 * command that moves things on, so someone who looks in once a day knows
 * what to type. */

/* What the command called cmd can do next in a game in L's state, in
 * lang. */
static const char *next_step(cmd_lang lang, const live *L, const char *cmd,
                             bool paused) {
  bool is = false;
#define IS(name) (is = is || strcmp(cmd, name) == 0)
  switch (L->row.status) {
  case STO_LOBBY:
    if (IS("join") || IS("start") || IS("leave") || IS("addai"))
      return T(lang,
               "Others join with /game join or AI players with /game addai, "
               "and its opener starts it with /game start.");
    return T(lang,
             "Nothing is played before it starts: join with /game join, add "
             "AI players with /game addai, and its opener starts it with "
             "/game start.");
  case STO_RUNNING:
    if (paused)
      return T(lang,
               "No moves count until a moderator lets it go on with /gamemod "
               "resume; /game status shows the table meanwhile.");
    if (IS("addai"))
      return T(lang,
               "/game addai only adds AI players to a lobby; a moderator can "
               "hand a player's seat to the AI with /gamemod replace "
               "user:<player>.");
    if (IS("join") || IS("start"))
      return T(lang,
               "It has started, so its seats are no longer open; a moderator "
               "can give you a player's seat with /gamemod replace, or watch "
               "with /game status.");
    if (IS("rematch") || IS("export"))
      return T(lang,
               "A rematch and the record come once it ends; /game log shows "
               "it so far.");
    return T(lang,
             "Play with /game move (choice:? lists your options), see the "
             "table with /game status.");
  case STO_FINISHED:
    return T(lang,
             "Read how it went with /game log, keep its record with /game "
             "export, or play again with /game rematch.");
  default:
    break;
  }
#undef IS
  (void)is;
  return T(lang, "Open a new game with /game new kind:<game>.");
}

void cmd_where(cmd_ctx *c, cmd_lang lang, const live *L, char *out,
               size_t cap) {
  int64_t id = L->row.id;
  const char *name = cmd_game_name(L);
  switch (L->row.status) {
  case STO_LOBBY: {
    char who[300] = "";
    size_t w = 0;
    for (int i = 0; i < L->n_seats && w < sizeof who; i++)
      w += (size_t)snprintf(who + w, sizeof who - w, "%s%s", i ? ", " : "",
                            L->seats[i].name);
    snprintf(out, cap,
             T(lang, "Game #%" PRId64 " (%s) is waiting for players (%s so "
                     "far)"),
             id, name, L->n_seats ? who : T(lang, "nobody"));
    break;
  }
  case STO_RUNNING:
    if (cmd_paused(c, L))
      snprintf(out, cap,
               T(lang, "Game #%" PRId64 " (%s) is paused by a "
                       "moderator"),
               id, name);
    else if (L->g && L->g->prompt.player >= 0 &&
             L->g->prompt.player < L->n_seats)
      snprintf(out, cap,
               T(lang, "Game #%" PRId64 " (%s) is running: turn %d, waiting "
                       "for %s"),
               id, name, L->g->prompt.turn, L->seats[L->g->prompt.player].name);
    else
      snprintf(out, cap, T(lang, "Game #%" PRId64 " (%s) is running"), id,
               name);
    break;
  case STO_FINISHED:
    snprintf(out, cap, T(lang, "Game #%" PRId64 " (%s) is over"), id, name);
    break;
  default:
    snprintf(out, cap,
             T(lang, "Game #%" PRId64 " (%s) was ended by a "
                     "moderator"),
             id, name);
    break;
  }
}

void cmd_reply_state(cmd_ctx *c, const cmd_request *r, const live *L,
                     const char *lead, const char *next) {
  char state[500];
  cmd_where(c, c->lang, L, state, sizeof state);
  if (!next)
    next =
        next_step(c->lang, L, r->command ? r->command : "", cmd_paused(c, L));
  cmd_reply(c, r, L, "%s%s%s.%s%s", lead ? lead : "", lead ? " " : "", state,
            next[0] ? " " : "", next);
}

live *cmd_find_game(cmd_ctx *c, const cmd_request *r, unsigned statuses) {
  char why[200];
  const char *explicit = cmd_arg_get(r, "game");
  if (explicit) {
    long id = 0;
    cmd_parse_int(explicit, 1, LONG_MAX, &id); /* validated by the table */
    live *L = cmd_load(c, id, why, sizeof why);
    if (!L) {
      cmd_reply(c, r, NULL, "Game #%ld cannot be used: %s.", id, why);
      return NULL;
    }
    if (strcmp(L->row.channel, r->channel) != 0 &&
        cmd_seat_of(L, r->user) < 0) { /* from a DM: only one's own games */
      cmd_reply(c, r, NULL, "Game #%ld is not played in this channel.", id);
      return NULL;
    }
    if (!(statuses & (1u << L->row.status))) {
      cmd_reply_state(c, r, L, NULL, NULL);
      return NULL;
    }
    return L;
  }
  /* The user's own games first, and among those (or the others) an open
     one before one that has ended: once a game is over, the next one in
     the channel (a rematch) is the one meant. Ranked by storage, so that
     no number of games in a channel changes what a command means. */
  int64_t ids[2];
  int ranks[2], n = 0;
  if (sto_game_pick(c->cfg.db, r->in_dm ? NULL : r->channel, r->user, statuses,
                    ids, ranks, &n)) {
    cmd_reply(c, r, NULL,
              "The games of this channel could not be read; nothing "
              "changed. Try again in a moment.");
    return NULL;
  }
  if (n == 0) {
    /* Nothing this command acts on; if there is a game in another state,
       say where it stands and what comes next. */
    unsigned others = ~statuses & ((1u << STO_LOBBY) | (1u << STO_RUNNING) |
                                   (1u << STO_FINISHED));
    if (others &&
        !sto_game_pick(c->cfg.db, r->in_dm ? NULL : r->channel, r->user, others,
                       ids, ranks, &n) &&
        n > 0) {
      live *A = cmd_load(c, ids[0], why, sizeof why);
      if (A) {
        cmd_reply_state(c, r, A, NULL, NULL);
        return NULL;
      }
    }
    cmd_reply(c, r, NULL,
              r->in_dm ? "You are not playing in any game right now. Open "
                         "one in a server's channel with /game new "
                         "kind:<game>, or join one there with /game join."
                       : "There is no game in this channel. Open one with "
                         "/game new kind:<game> (/game new kind:? lists "
                         "them).");
    return NULL;
  }
  if (n == 2 && ranks[0] == ranks[1]) {
    cmd_reply(c, r, NULL,
              r->in_dm ? "You sit in several games; say which with "
                         "game:<number>."
                       : "Several games are open here; say which with "
                         "game:<number> (see /game list).");
    return NULL;
  }
  live *L = cmd_load(c, ids[0], why, sizeof why);
  if (!L)
    cmd_reply(c, r, NULL,
              "Game #%" PRId64 " cannot continue: %s. A moderator can end "
              "it with /gamemod abort game:%" PRId64 ".",
              ids[0], why, ids[0]);
  return L;
}

/* ---- rendering -------------------------------------------------------- */

const char *cmd_game_name(const live *L) {
  const eng_ruleset *rs = eng_find(L->row.ruleset);
  return rs ? rs->name : L->row.ruleset;
}

void cmd_names(const live *L, const char *in, char *out, size_t cap) {
  size_t o = 0;
  while (*in && o + 1 < cap) {
    if (strncmp(in, "Villain ", 8) == 0 && in[8] >= '1' && in[8] <= '8' &&
        !isdigit((unsigned char)in[9]) && in[8] - '1' < L->n_seats) {
      const char *name = L->seats[in[8] - '1'].name;
      size_t n = strlen(name);
      if (o + n >= cap)
        break;
      memcpy(out + o, name, n);
      o += n;
      in += 9;
      continue;
    }
    out[o++] = *in++;
  }
  out[o] = '\0';
}

void cmd_render(const live *L, int viewer, int what, char *out, size_t cap) {
  char raw[CMD_TEXT_MAX * 4];
  json_t *v = L->g->rs->view(L->g->state, viewer);
  raw[0] = '\0';
  if (v)
    L->g->rs->render(v, what, raw, sizeof raw);
  json_decref(v);
  cmd_names(L, raw, out, cap);
}

int cmd_options(const live *L, cmd_choice *out, int max) {
  int n = 0;
  for (int i = 0; i < L->g->prompt.n && n < max; i++, n++) {
    char label[ENG_LABEL_MAX + 1];
    eng_game_option(L->g, i, out[n].id, label);
    char named[ENG_LABEL_MAX * 2];
    cmd_names(L, label, named, sizeof named);
    cmd_copy(out[n].label, sizeof out[n].label, named);
  }
  return n;
}

size_t cmd_winners(cmd_lang lang, const live *L, const eng_result *res,
                   const char *nobody, char *out, size_t cap) {
  char names[1024] = "";
  size_t o = 0;
  int winners = 0;
  if (cap)
    out[0] = '\0';
  for (int s = 0; s < L->n_seats && o < sizeof names; s++)
    if (res->winners & (1u << s))
      o +=
          (size_t)snprintf(names + o, sizeof names - o, "%s%s",
                           winners++ ? T(lang, " and ") : "", L->seats[s].name);
  /* Whole texts: a language's verb need not be a suffix of the names. */
  int n = winners ? snprintf(out, cap,
                             cmd_trn(lang, winners, "%s wins", "%s win"), names)
                  : snprintf(out, cap, "%s", nobody);
  o = n < 0 ? 0 : (size_t)n;
  return o < cap ? o : cap ? cap - 1 : 0;
}

void cmd_result_text(cmd_lang lang, const live *L, char *out, size_t cap) {
  eng_result res;
  char who[400];
  eng_game_result(L->g, &res);
  cmd_winners(lang, L, &res, T(lang, "Nobody wins"), who, sizeof who);
  snprintf(out, cap, T(lang, "**Game #%" PRId64 " is over.** %s (%s)."),
           L->row.id, who, res.reason);
}

/* ---- the turn's messages ---------------------------------------------
 * A turn is one channel message, edited as the turn goes on: what each
 * answer did (the lines stored with the moves), the table and whom it
 * waits for. A new message is posted only when the turn passes (so the
 * next player is notified), at the start and at the end. The player who
 * decides has one DM per turn, edited the same way: their hand, what
 * they chose this turn and the question with its buttons; once the turn
 * is theirs no more, it keeps what they chose. */

typedef struct text_buf {
  char *buf;
  size_t cap, o;
  int lines, dropped;
} text_buf;

/* Collects the lines of a turn, the latest kept when they do not fit. */
static int collect_line(void *ctx, const sto_line *l) {
  text_buf *t = ctx;
  size_t n = strlen(l->text);
  while (t->o + n + 2 > t->cap && t->lines > 0) { /* drop the oldest */
    char *nl = memchr(t->buf, '\n', t->o);
    size_t cut = nl ? (size_t)(nl - t->buf) + 1 : t->o;
    memmove(t->buf, t->buf + cut, t->o - cut);
    t->o -= cut;
    t->lines--;
    t->dropped++;
  }
  if (t->o + n + 2 > t->cap)
    return 0;
  memcpy(t->buf + t->o, l->text, n);
  t->o += n;
  t->buf[t->o++] = '\n';
  t->buf[t->o] = '\0';
  t->lines++;
  return 0;
}

/* The lines of turn of L that viewer may read (-1: the public ones), at
 * most cap bytes, names filled in, what was left out said in lang; *n
 * gets how many. */
static void turn_lines(cmd_ctx *c, cmd_lang lang, const live *L, int turn,
                       int viewer, char *out, size_t cap, int *n) {
  char raw[CMD_EDIT_MAX];
  text_buf t = {raw, cap < sizeof raw ? cap : sizeof raw, 0, 0, 0};
  raw[0] = '\0';
  sto_line_list(c->cfg.db, L->row.id, turn, turn, viewer, collect_line, &t);
  char head[80] = "";
  if (t.dropped)
    snprintf(head, sizeof head,
             cmd_trn(lang, t.dropped, "(%d earlier line: /game log)\n",
                     "(%d earlier lines: /game log)\n"),
             t.dropped);
  char joined[CMD_EDIT_MAX + 80];
  snprintf(joined, sizeof joined, "%s%s", head, raw);
  cmd_names(L, joined, out, cap);
  *n = t.lines;
}

#define SEAT_VALUE_MAX (CMD_FIELD_VALUE_MAX * 2)

/* The seats' areas as a table's fields: each seat's summary line (names
 * put in) as a field's name, the rest of its area as the value. Returns
 * how many, 0 when the ruleset does not render seats alone. */
static int seat_fields(const live *L, char names[][CMD_FIELD_NAME_MAX + 1],
                       char values[][SEAT_VALUE_MAX], cmd_field *f) {
  json_t *v = L->g->rs->view(L->g->state, -1);
  int n = 0;
  for (int s = 0; v && s < L->n_seats && s < ENG_MAX_SEATS; s++) {
    char raw[CMD_FIELD_VALUE_MAX * 2], named[CMD_FIELD_VALUE_MAX * 3];
    raw[0] = '\0';
    L->g->rs->render(v, ENG_RENDER_SEAT(s), raw, sizeof raw);
    if (!raw[0])
      break;
    cmd_names(L, raw, named, sizeof named);
    char *nl = strchr(named, '\n');
    if (nl)
      *nl = '\0';
    cmd_copy(names[n], CMD_FIELD_NAME_MAX + 1, named);
    /* whole lines: one longer than a field holds is cut where it is sent
     * (cmd_fit_fields), at a line end */
    cmd_copy(values[n], SEAT_VALUE_MAX, nl ? nl + 1 : "");
    f[n].name = names[n];
    f[n].value = values[n];
    n++;
  }
  json_decref(v);
  return n == L->n_seats ? n : 0;
}

/* The channel message of turn of L: its lines, and while it is the
 * current turn the table and whom it waits for (or the result). The
 * table is the common part in the text and a field per player; the
 * turn's oldest lines give way when all would not fit in an embed. */
static void turn_message(cmd_ctx *c, const cmd_request *r, const live *L,
                         int turn) {
  char text[CMD_EDIT_MAX + 1];
  char lines[CMD_EDIT_MAX / 2], key[24], title[160];
  char table[CMD_EDIT_MAX], end[400];
  char names[ENG_MAX_SEATS][CMD_FIELD_NAME_MAX + 1];
  char values[ENG_MAX_SEATS][SEAT_VALUE_MAX];
  cmd_field fields[ENG_MAX_SEATS];
  int n = 0, n_fields = 0;
  bool current = L->g->prompt.turn == turn || L->g->prompt.player < 0;
  cmd_lang lang = cmd_lang_game(c, L);
  (void)r; /* a game's messages belong to its channel */
  snprintf(title, sizeof title, T(lang, "%s - game #%" PRId64 ", turn %d"),
           cmd_game_name(L), L->row.id, turn);
  table[0] = end[0] = '\0';
  if (current) {
    n_fields = seat_fields(L, names, values, fields);
    /* at most 3400 bytes: the last line and some of the turn's lines
     * still fit in the text */
    cmd_render(L, -1, n_fields ? ENG_RENDER_COMMON : ENG_RENDER_TABLE, table,
               sizeof table - 600);
    if (L->g->prompt.player < 0)
      cmd_result_text(lang, L, end, sizeof end);
    else
      snprintf(end, sizeof end, T(lang, "Waiting for %s."),
               L->seats[L->g->prompt.player].name);
  } else if (L->g->prompt.player >= 0) {
    snprintf(end, sizeof end, T(lang, "Turn over; now %s."),
             L->seats[L->g->prompt.player].name);
  }
  /* The room for the turn's lines: what the table and the last line
   * leave of the text, and of the embed what the title, the fields' names
   * and each value's first 300 bytes leave too. */
  size_t text_used = strlen(table) + strlen(end) + 2;
  size_t embed_used = text_used + strlen(title);
  for (int i = 0; i < n_fields; i++) {
    size_t v = strlen(values[i]);
    embed_used += strlen(names[i]) + (v < 300 ? v : 300);
  }
  size_t room = sizeof lines;
  if (CMD_EDIT_MAX - text_used < room) /* text_used < CMD_EDIT_MAX */
    room = CMD_EDIT_MAX - text_used;
  if (embed_used >= CMD_EMBED_MAX)
    room = 0;
  else if (CMD_EMBED_MAX - embed_used < room)
    room = CMD_EMBED_MAX - embed_used;
  lines[0] = '\0';
  if (room > 80)
    turn_lines(c, lang, L, turn, -1, lines, room, &n);
  size_t o = (size_t)snprintf(text, sizeof text, "%s", lines);
  if (table[0] && o < sizeof text)
    o += (size_t)snprintf(text + o, sizeof text - o, "%s%s", o ? "\n" : "",
                          table);
  if (o < sizeof text)
    snprintf(text + o, sizeof text - o, "%s", end);
  snprintf(key, sizeof key, "turn:%d", turn);
  /* The picture of the table, while the message shows the table: a
   * turn's message, once the turn has passed, shows none. */
  send_table(c, CMD_TO_CHANNEL, NULL, L, key, title, text, fields, n_fields,
             NULL, 0, current);
}

/* Seat s's DM of turn of L: hand, this turn's lines for s and, when s
 * decides now, the question and its options. */
static void turn_dm(cmd_ctx *c, const cmd_request *r, const live *L, int s,
                    int turn, const char *hand, bool fresh) {
  const sto_seat *who = &L->seats[s];
  if (cmd_is_ai(who->user))
    return;
  char text[CMD_EDIT_MAX + 1];
  cmd_choice opts[ENG_OPTIONS_MAX];
  char lines[CMD_EDIT_MAX / 3], key[24], title[160];
  int n = 0, k = 0;
  const eng_prompt *p = &L->g->prompt;
  bool deciding = p->player == s && p->turn == turn;
  cmd_lang lang = cmd_lang_user(c, who->user);
  char head[200] = "", since[CMD_TEXT_MAX / 2] = "";
  if (!fresh) /* send_msg heads a DM of its own */
    cmd_dm_header(cmd_lang_user(c, who->user), L, head, sizeof head);
  if (deciding)
    cmd_since_text(c, L, s, since, sizeof since);
  /* the hand, as before, at most CMD_TEXT_MAX bytes; the header and the
   * catch-up above it */
  size_t o = (size_t)snprintf(text, sizeof text, "%s%s%s%s%.*s", head,
                              head[0] ? "\n" : "", since,
                              since[0] ? "\n\n" : "", (int)CMD_TEXT_MAX, hand);
  if (o >= sizeof text)
    o = sizeof text - 1;
  while (o > 0 && text[o - 1] == '\n')
    o--;
  turn_lines(c, lang, L, turn, s, lines, sizeof lines, &n);
  if (n)
    o += (size_t)snprintf(text + o, sizeof text - o, "\n\n%s\n%s",
                          T(lang, "**This turn:**"), lines);
  if (deciding) {
    char q[ENG_QUESTION_MAX], qn[ENG_QUESTION_MAX * 2];
    L->g->rs->question(L->g->state, p, q, sizeof q);
    cmd_names(L, q, qn, sizeof qn);
    k = cmd_options(L, opts, ENG_OPTIONS_MAX);
    o += (size_t)snprintf(
        text + o, sizeof text - o,
        T(lang, "\n\n**Your turn** in game #%" PRId64 ": %s\n"), L->row.id, qn);
    for (int i = 0; i < k && o < sizeof text; i++)
      o += (size_t)snprintf(text + o, sizeof text - o, "- `%s` %s\n",
                            opts[i].id, opts[i].label);
    char hint[ENG_ID_MAX + ENG_LABEL_MAX + 240];
    if (cmd_hint(L, cmd_lang_user(c, who->user), hint, sizeof hint) &&
        o < sizeof text)
      o += (size_t)snprintf(text + o, sizeof text - o, "%s\n", hint);
    if (o < sizeof text)
      snprintf(text + o, sizeof text - o, "%s",
               T(lang, "Answer with the buttons, or /game move choice:<id or "
                       "label>."));
  } else if (p->player == s && o < sizeof text) {
    snprintf(text + o, sizeof text - o,
             T(lang, "\n\nNothing more for you this turn of game #%" PRId64
                     ". Waiting for you."),
             L->row.id);
  } else if (p->player >= 0 && o < sizeof text) {
    snprintf(text + o, sizeof text - o,
             T(lang, "\n\nNothing more for you this turn of game #%" PRId64
                     ". Waiting for %s."),
             L->row.id, L->seats[p->player].name);
  }
  if (fresh) { /* asked for again: a DM of its own, at the bottom */
    send_msg(c, r, CMD_TO_DM, who->user, who->name, L, text, opts, k, NULL,
             "hand", false);
    return;
  }
  snprintf(key, sizeof key, "turn:%d", turn);
  snprintf(title, sizeof title, T(lang, "%s - game #%" PRId64 ", turn %d"),
           cmd_game_name(L), L->row.id, turn);
  cmd_send_edit(c, r, CMD_TO_DM, who, L, key, title, text, opts, k);
}

/* Whether seat s gets the current prompt by DM (cmd_prompt): not an AI
 * seat, nor a player whose time for this turn ran out (the AI answers for
 * them). */
static bool prompted_by_dm(cmd_ctx *c, const live *L, int s) {
  const eng_prompt *p = &L->g->prompt;
  return p->player >= 0 && p->player < L->n_seats && p->player == s &&
         !cmd_is_ai(L->seats[s].user) && !cmd_clock_ran_out(c, L, s);
}

/* Tells the player who must answer now, by DM: their turn's message with
 * the question and its options (the transport adds buttons or menus), so
 * that a whole turn can be taken from the DM. */
void cmd_prompt(cmd_ctx *c, const cmd_request *r, const live *L,
                const char *hand, bool fresh) {
  const eng_prompt *p = &L->g->prompt;
  if (!prompted_by_dm(c, L, p->player))
    return;
  char own[CMD_TEXT_MAX + 1];
  if (!hand) {
    cmd_render(L, p->player, ENG_RENDER_HAND, own, sizeof own);
    hand = own;
  }
  turn_dm(c, r, L, p->player, p->turn, hand, fresh);
}

/* Renders every seat's hand, for noticing which changed. */
void cmd_hands(const live *L, char hands[][CMD_TEXT_MAX + 1]) {
  for (int s = 0; s < L->n_seats; s++)
    cmd_render(L, s, ENG_RENDER_HAND, hands[s], CMD_TEXT_MAX + 1);
}

void cmd_after_change(cmd_ctx *c, const cmd_request *r, live *L, int turn,
                      int mover, char before[][CMD_TEXT_MAX + 1]) {
  bool over = L->g->prompt.player < 0;
  bool passed = over || L->g->prompt.turn != turn;
  turn_message(c, r, L, turn);
  if (passed && !over)
    turn_message(c, r, L, L->g->prompt.turn);
  char now[ENG_MAX_SEATS][CMD_TEXT_MAX + 1];
  cmd_hands(L, now);
  for (int s = 0; s < L->n_seats; s++) {
    bool changed = !before || strcmp(before[s], now[s]) != 0;
    if (s == mover && (passed || !prompted_by_dm(c, L, s)))
      turn_dm(c, r, L, s, turn, now[s], false); /* their turn's DM, final */
    else if (changed && (over || !prompted_by_dm(c, L, s)))
      send_msg(c, r, CMD_TO_DM, L->seats[s].user, L->seats[s].name, L, now[s],
               NULL, 0, NULL, "hand", false);
  }
  if (!over)
    cmd_prompt(c, r, L, now[L->g->prompt.player], false);
  else
    cmd_end_summary(c, r, L);
  if (!c->settling) {
    cmd_settle(c, r, L);
    cmd_arm_timers(c, L);
  }
}

void cmd_lines_add(cmd_lines *ls, int seat, const char *text) {
  if (ls->n >= CMD_LINES_MAX || !text || !text[0])
    return;
  ls->seat[ls->n] = seat;
  cmd_copy(ls->text[ls->n], sizeof ls->text[0], text);
  ls->n++;
}

/* Records one move; on failure fails the command (nothing of it is kept). */
bool cmd_commit(cmd_ctx *c, const cmd_request *r, live *L, int seat, int kind,
                const char *option, int turn, bool revealed,
                const cmd_lines *lines) {
  sto_move m = {.seq = L->row.moves,
                .seat = seat,
                .kind = kind,
                .turn = turn,
                .revealed = revealed,
                .time = c->now};
  snprintf(m.option, sizeof m.option, "%s", option);
  snprintf(m.request, sizeof m.request, "%s", r->request_id);
  sto_rc rc = sto_move_append(c->cfg.db, L->row.id, &m);
  if (rc) {
    /* Another process recorded this game's next move first (or held
     * the database): cmd.c runs the command again on the fresh state. */
    c->retry = rc == STO_CONFLICT || rc == STO_BUSY;
    if (rc == STO_DUPLICATE)
      cmd_fail(c, "That request was already handled.");
    else if (rc == STO_CONFLICT)
      cmd_fail(c,
               "Another move was recorded first in game #%" PRId64
               "; nothing changed. Look at /game status and try again.",
               L->row.id);
    else
      cmd_fail(c,
               "Your move in game #%" PRId64
               " could not be saved (%s); nothing changed. Try again.",
               L->row.id, sto_strerror(rc));
    return false;
  }
  for (int i = 0; lines && i < lines->n; i++)
    if ((rc = sto_line_add(c->cfg.db, L->row.id, m.seq, i, lines->seat[i],
                           lines->text[i]))) {
      cmd_fail(c,
               "Your move in game #%" PRId64 " could not be saved (%s); "
               "nothing changed. Try again.",
               L->row.id, sto_strerror(rc));
      return false;
    }
  L->row.moves++;
  if (L->row.moves % c->cfg.snapshot_every == 0) {
    char *state = eng_game_state_text(L->g);
    if (state)
      sto_snapshot_put(c->cfg.db, L->row.id, L->row.moves, state);
    free(state);
  }
  if (L->g->prompt.player < 0 && L->row.status == STO_RUNNING)
    return cmd_set_status(c, L, STO_FINISHED);
  return true;
}

bool cmd_set_status(cmd_ctx *c, live *L, int status) {
  if (status == STO_FINISHED && L->row.status != STO_FINISHED &&
      !cmd_rate_game(c, L))
    return false;
  sto_rc rc = sto_game_set_status(c->cfg.db, L->row.id, status, c->now);
  if (rc) {
    cmd_fail(c,
             "Game #%" PRId64 " could not be saved (%s); nothing changed. "
             "Try again.",
             L->row.id, sto_strerror(rc));
    return false;
  }
  L->row.status = status;
  return true;
}

long cmd_open_games_of(cmd_ctx *c, const char *user) {
  long n = 0;
  if (sto_game_count_user(c->cfg.db, user,
                          (1u << STO_LOBBY) | (1u << STO_RUNNING), &n))
    return -1;
  return n;
}

bool cmd_member_has_room(cmd_ctx *c, const cmd_request *r, const live *L) {
  long mine = cmd_open_games_of(c, r->user);
  long per_member = cmd_setting(c, r->guild, "games_per_member");
  if (mine < 0) {
    cmd_reply(c, r, L, "Your games could not be read; nothing changed.");
    return false;
  }
  if (mine >= per_member) {
    cmd_reply(c, r, L,
              "You already sit in %ld open games (the limit is %ld). Finish "
              "one first.",
              mine, per_member);
    return false;
  }
  return true;
}

bool cmd_channel_has_room(cmd_ctx *c, const cmd_request *r) {
  long limit = cmd_setting(c, r->guild, "games_per_channel");
  long open = 0;
  if (sto_game_count(c->cfg.db, r->channel,
                     (1u << STO_LOBBY) | (1u << STO_RUNNING), &open)) {
    cmd_reply(c, r, NULL,
              "The games of this channel could not be counted; nothing "
              "changed. Try again in a moment.");
    return false;
  }
  if (open >= limit) {
    char text[300];
    snprintf(text, sizeof text,
             cmd_trn(c->lang, open,
                     "This channel already has %ld open game (the limit is "
                     "%ld). Finish it, or ask a moderator to raise "
                     "games_per_channel.",
                     "This channel already has %ld open games (the limit is "
                     "%ld). Finish it, or ask a moderator to raise "
                     "games_per_channel."),
             open, limit);
    cmd_reply(c, r, NULL, "%s", text);
    return false;
  }
  return true;
}

/* ---- delivering a file ------------------------------------------------- */

void cmd_reply_file(cmd_ctx *c, const cmd_request *r, const live *L,
                    const char *text, const char *name, const char *data,
                    size_t len) {
  char piece[CMD_TEXT_MAX + 1];
  cmd_copy(piece, sizeof piece, text);
  cmd_msg m = {.to = CMD_TO_EPHEMERAL,
               .user = r->user,
               .user_name = r->user_name,
               .channel = L ? L->row.channel : r->channel,
               .text = piece,
               .game = L ? L->row.id : 0,
               .status = L ? L->row.status : -1,
               .version = L ? L->row.moves : 0,
               .file_name = name,
               .file_data = data,
               .file_len = len};
  cmd_deliver(c, &m);
}
