#!/usr/bin/python3
"""discord_async: Lair's asynchronous play, on the Discord side, against
the fake Discord.

One `lair` process (restarted once) and one fake; each part uses a
channel of its own, so that no part waits behind another's messages.

1. Threads (a second server): a plain member may not change settings; a
   moderator sets `threads` to on; `/game new` then makes the bot call
   POST /channels/{parent}/threads (a public thread, type 11, validated
   against openapi.json); the parent channel gets only the answer that
   points to the thread, and the game lives in the thread: it is the
   game's channel in the database, every announcement and table is posted
   there, interactions sent from the thread (join, start, a move, status)
   act on the game and are answered there, and in the parent channel
   there is no game any more. By default (a third server, `threads`
   auto) a game gets a thread only where the interaction's
   app_permissions hold Create Public Threads and Send Messages in
   Threads, and none once a moderator sets `threads` off.
2. Timers, fired by the bot's own worker (every 5 s, real time): the test
   makes the rows of the `timers` table due by writing to the database
   while the bot runs. A turn reminder comes as a channel message that
   mentions the awaited player, with allowed_mentions letting only that
   user be pinged; after `/prefs set reminders:dm` it comes by DM (no
   ping, no channel message). Back to the channel, the opener's `/game
   deadline` starts the turn's clock again and its half-time warning
   pings the player alone; `/prefs mute` then silences the rest of the
   turn (no reminder is left armed). At the deadline the time-ran-out
   notice comes, the AI plays the rest of the player's turn (its answers
   stored as that seat's moves), and the player whose turn is next gets
   its prompt DM and a clock of its own; with `miss_limit` 1 and
   `miss_action` forfeit the next miss forfeits the seat to the AI,
   which plays on until the other player gets the prompt.
3. Export: a blitz game against one AI seat is played to its end by one
   member (autocomplete, then `/game move`); `/game export` answers with a
   deferred ephemeral response whose edit carries the record as
   multipart/form-data (payload_json + files[0]); the fake accepted it and
   kept the bytes. The record's answers are the moves table's; `lair
   replay` accepts the file (exit 0, the stored number of moves,
   finished, a winner); a copy with one answer changed (checksum
   recomputed) and one with the checksum left stale exit 1. Exported
   again while Discord takes 1 s to acknowledge the deferral, the edit
   that carries the file waits for the acknowledgement (sent before it,
   Discord refuses it with 10015 and the file is lost) and the file is
   the same.
2b. A rematch: alice's rematch of a 3-player game invites bob and carol
   in one announcement whose allowed_mentions let exactly those two be
   pinged; it cannot start until bob joined and carol declined.
4. DM channels survive a restart: each player's DM channel was opened
   once and is stored (setting `dm_channel` of scope `user:<id>`); after
   SIGTERM and a restart on the same database, a move that sends the
   remaining player a DM arrives in the same DM channel without a new
   POST /users/@me/channels, and edits that turn's DM made before the
   restart (its id is kept in the database) rather than posting another.
5. A new turn by follow-up: alice plays against the AI from her DM; the
   click that ends her turn (the AI's turn is played in the same
   command) is answered by updating the clicked DM, and her next turn's
   DM is a follow-up of that click (POST /webhooks/{app}/{token}, in her
   DM channel, not ephemeral), not a post in her DM channel; a move she
   then makes from the channel edits that follow-up in place.

Throughout: every interaction answered within 3 s, no violation, no
unexpected 429, and a clean SIGTERM. A part that fails does not stop the
others (those that need it are skipped); the test then fails naming
every failed part.
"""

import hashlib
import json
import os
import random
import re
import subprocess
import sys
import time

import discordlib as dl
from discordlib import check

sys.path.insert(0, os.path.join(dl.ROOT, "tests", "local"))
import lairlocal as ll  # noqa: E402

GUILD2 = "1187000000000000101"     # the server with threads on
CH_THREADS = "1187000000000000210"  # its channel: the threads' parent
CH_TIMERS = "1187000000000000202"
CH_EXPORT = "1187000000000000203"
CH_REMATCH = "1187000000000000205"
CH_FOLLOW = "1187000000000000206"  # a game against the AI, played by DM
GUILD3 = "1187000000000000102"     # a server that left threads as they are
CH_AUTO = "1187000000000000220"    # its channel
MOD = "dave"
WAITING = re.compile(r"Waiting for (\w[\w ]*)\.")
PROMPT_ID = r"^[ms]:%d:%d:"
STO_FINISHED = 2
WEIGHTS = {"mob": 6, "project": 6, "use": 2, "ops": 2, "end": 1,
           "launch": 1, "shoot": 1}
TIMER_WAIT = 25  # s: a worker tick (5 s) and the message's way out


def mod_slash(fake, sub, opts=None, **kw):
    return dl.slash(fake, MOD, sub, opts, perms=dl.MOD_PERMISSIONS, **kw)


def public(info, what):
    """The text of an answer that must be public (not ephemeral)."""
    text = dl.answer_text(info)
    check(not dl.is_ephemeral(info), "%s was refused: %s" % (what, text))
    return text


def acted(info, what):
    """The text of a move's answer: public, or the mover's turn shown to
    them alone (a move answered from the channel), never a refusal."""
    text = dl.answer_text(info)
    check(dl.acted(info), "%s was refused: %s" % (what, text))
    return text


def private(info, what):
    text = dl.answer_text(info)
    check(dl.is_ephemeral(info), "%s answered publicly: %s" % (what, text))
    return text


def game_no(text, what):
    m = re.search(r"opened game #(\d+)", text)
    check(m, "%s: no game number in %r" % (what, text))
    return int(m.group(1))


def posts(fake, channel, after=0):
    """Messages posted in a channel (not interaction answers), oldest
    first, newer than message id after."""
    return [m for m in fake.messages(channel=channel)
            if m["_fake"]["via"] == "channel" and int(m["id"]) > int(after)]


def wait_post(fake, channel, needle, what, after=0, timeout=TIMER_WAIT):
    def find():
        for m in posts(fake, channel, after):
            if needle in dl.message_text(m):
                return m
        return None
    return dl.wait_until(find, timeout, what)


def wait_dm(fake, user, pred, what, after=0, timeout=TIMER_WAIT):
    def find():
        for m in fake.dms(user):
            if int(m["id"]) > int(after) and pred(m):
                return m
        return None
    return dl.wait_until(find, timeout, what)


def prompt_dm(fake, user, game, version, after=0):
    pat = re.compile(PROMPT_ID % (game, version))
    return wait_dm(fake, user, lambda m: any(
        pat.match(c.get("custom_id", "")) for c in dl.custom_ids(m)),
        "the prompt DM of game #%d version %d to %s" % (game, version, user),
        after)


def sent_request(fake, method, path, since, content=None):
    """The requests (method, path) since request n, whose JSON body's
    content holds `content` when given."""
    out = []
    for r in fake.requests(since):
        if r["method"] != method or r["path"] != path:
            continue
        if content is not None and content not in \
                ((r["body"] or {}).get("content") or ""):
            continue
        out.append(r)
    return out


def last_message_id(fake, channel=None, user=None):
    msgs = fake.messages(channel=channel) if channel else fake.dms(user)
    return msgs[-1]["id"] if msgs else "0"


def seats(db, game):
    return dict(dl.db_read(db, "SELECT seat, user FROM seats WHERE game = ? "
                           "ORDER BY seat", (game,)))


def waiting(fake, user, channel, **kw):
    """Who must decide in the channel's game (from /game status)."""
    text = public(dl.slash(fake, user, "status", dl.options(public="yes"),
                           channel=channel, **kw), "/game status public:yes")
    m = WAITING.search(text)
    check(m, "/game status shows nobody waiting: %r" % text)
    return m.group(1)


def move(fake, rng, who, channel, what):
    choices = dl.autocomplete(fake, who, "move", "choice", "",
                              channel=channel)
    check(choices, "%s: autocomplete offered %s nothing" % (what, who))
    value = dl.pick(rng, WEIGHTS, choices)["value"]
    info = dl.slash(fake, who, "move", dl.options(choice=value),
                    channel=channel)
    return acted(info, "%s: move %r by %s" % (what, value, who)), info


# -- 1. threads ----------------------------------------------------------------

def part_threads(fake, db, stats):
    info = dl.slash(fake, "mallory", "settings",
                    dl.options(key="threads", value="on"),
                    guild=GUILD2, channel=CH_THREADS)
    check(private(info, "a plain member's /gamemod settings") ==
          "Only moderators can use /gamemod settings (members with Manage "
          "Server, or the server's mod_role).",
          "a plain member's /gamemod settings: %r" % dl.answer_text(info))
    text = public(mod_slash(fake, "settings", dl.options(
        key="threads", value="on"), guild=GUILD2, channel=CH_THREADS),
        "/gamemod settings key:threads value:on")
    check("set threads to on" in text, "settings said %r" % text)

    since = fake.last_request_n()
    info = dl.slash(fake, "alice", "new", dl.options(
        kind="supervillain", mode="blitz", seats=2), guild=GUILD2,
        channel=CH_THREADS)
    pointer = public(info, "/game new with threads on")
    game = game_no(pointer, "/game new")
    opened = sent_request(fake, "POST", "/channels/%s/threads" % CH_THREADS,
                          since)
    check(len(opened) == 1 and opened[0]["status"] == 201,
          "/game new with threads on made %d thread requests: %r" %
          (len(opened), opened))
    body = opened[0]["body"]
    check(body.get("type") == 11 and body.get("name", "").startswith(
        "Supervillain") and "alice" in body["name"],
          "the thread request asked for %r" % body)
    threads = fake.channels(parent=CH_THREADS)
    check(len(threads) == 1 and threads[0]["type"] == 11 and
          threads[0]["guild_id"] == GUILD2 and
          threads[0]["name"] == body["name"],
          "the fake holds these threads under the channel: %r" % threads)
    thread = threads[0]["id"]
    check("<#%s>" % thread in pointer,
          "the answer in the parent does not point to the thread: %r" %
          pointer)
    row = dl.db_read(db, "SELECT channel, guild FROM games WHERE id = ?",
                     (game,))
    check(row == [(thread, GUILD2)], "game #%d is stored in %r, not in "
          "thread %s" % (game, row, thread))
    # The lobby's announcement is posted in the thread.
    wait_post(fake, thread, "alice opened game #%d: Supervillain" % game,
              "the lobby's announcement in the thread", timeout=15)

    # The members play from the thread.
    answered_in_thread = []
    info = dl.slash(fake, "bob", "join", guild=GUILD2, channel=thread)
    check("bob joined game #%d" % game in public(info, "join in the thread"),
          "join in the thread: %r" % dl.answer_text(info))
    answered_in_thread.append(info)
    info = dl.slash(fake, "carol", "join", guild=GUILD2,
                    channel=CH_THREADS)
    check("There is no game in this channel" in
          private(info, "a join in the parent channel"),
          "a join in the parent found a game: %r" % dl.answer_text(info))
    info = dl.slash(fake, "alice", "start", guild=GUILD2, channel=thread)
    text = public(info, "start in the thread")
    check("Game #%d" % game in text and "starts!" in text,
          "start in the thread: %r" % text)
    answered_in_thread.append(info)
    who = waiting(fake, "bob", thread, guild=GUILD2)
    before = dl.moves_in_db(db, game)
    ac = dl.autocomplete(fake, who, "move", "choice", "", guild=GUILD2,
                         channel=thread)
    check(ac, "autocomplete in the thread offered %s nothing" % who)
    info = dl.slash(fake, who, "move", dl.options(choice=ac[0]["value"]),
                    guild=GUILD2, channel=thread)
    acted(info, "a move in the thread")
    answered_in_thread.append(info)
    rows = dl.moves_in_db(db, game)
    check(len(rows) == len(before) + 1 and rows[-1][1] == info["id"] and
          rows[-1][3] == ac[0]["value"],
          "the move from the thread is not stored: %r" % rows[-2:])
    info = dl.slash(fake, "alice", "status", dl.options(public="yes"),
                    guild=GUILD2, channel=thread)
    check("Waiting for" in public(info, "status in the thread"),
          "status in the thread: %r" % dl.answer_text(info))
    answered_in_thread.append(info)
    for info in answered_in_thread:
        check(info["original"]["channel_id"] == thread,
              "an answer to an interaction from the thread went to %s" %
              info["original"]["channel_id"])

    # Everything the game posted went to the thread (or to its players'
    # DMs); the parent channel holds only the two answers given there
    # (the setting, the pointer).
    named = re.compile(r"\bgame #%d\b" % game, re.I)
    reqs = [r for r in fake.requests()
            if r["method"] == "POST" and r["path"].endswith("/messages") and
            named.search(dl.message_text(r["body"] or {}))]
    wrong = [r for r in reqs if r["path"] != "/channels/%s/messages" % thread
             and not is_dm_path(fake, r["path"])]
    check(reqs and not wrong, "game #%d's messages posted outside its "
          "thread: %r" % (game, [(r["path"], r["body"]) for r in wrong]))
    check(not sent_request(fake, "POST", "/channels/%s/messages" %
                           CH_THREADS, 0),
          "the bot posted in the parent channel")
    parent = [dl.message_text(m) for m in fake.messages(channel=CH_THREADS)
              if not m["_fake"]["ephemeral"]]
    check(len(parent) == 2 and "set threads to on" in parent[0] and
          parent[1] == pointer,
          "the parent channel holds %r" % parent)
    in_thread = [dl.message_text(m) for m in fake.messages(channel=thread)]
    check(any("starts!" in t for t in in_thread),
          "no table in the thread: %r" % in_thread)
    stats["thread_messages"] = len(in_thread)
    stats["thread"] = thread


def part_threads_default(fake, db, stats):
    """By default (threads: auto) a game gets a thread wherever Lair's
    permissions allow one, and stays in the channel elsewhere; a server
    that sets threads off keeps its games in the channel either way."""
    def new_game(app_perms, what):
        since = fake.last_request_n()
        text = public(dl.slash(fake, "dave", "new", dl.options(
            kind="supervillain", seats=2), guild=GUILD3, channel=CH_AUTO,
            app_perms=app_perms), what)
        game = game_no(text, what)
        opened = sent_request(fake, "POST", "/channels/%s/threads" % CH_AUTO,
                              since)
        row = dl.db_read(db, "SELECT channel FROM games WHERE id = ?",
                         (game,))[0][0]
        # One open game a channel: close this one before the next.
        public(mod_slash(fake, "abort", dl.options(game=game), guild=GUILD3,
                         channel=row), "the abort of game #%d" % game)
        return text, opened, row

    text, opened, row = new_game(None, "/game new without thread rights")
    check(not opened and row == CH_AUTO and "<#" not in text,
          "without Create Public Threads a game went to %s (%d thread "
          "requests): %r" % (row, len(opened), text))
    text, opened, row = new_game(dl.THREAD_APP_PERMISSIONS,
                                 "/game new with thread rights")
    check(len(opened) == 1 and opened[0]["status"] == 201 and
          row != CH_AUTO and "<#%s>" % row in text,
          "with thread rights and threads auto game went to %s (%d thread "
          "requests): %r" % (row, len(opened), text))
    check([c["id"] for c in fake.channels(parent=CH_AUTO)] == [row],
          "the fake's threads under the channel: %r" %
          fake.channels(parent=CH_AUTO))
    public(mod_slash(fake, "settings", dl.options(key="threads", value="off"),
                     guild=GUILD3, channel=CH_AUTO), "threads off")
    text, opened, row = new_game(dl.THREAD_APP_PERMISSIONS,
                                 "/game new with threads off")
    check(not opened and row == CH_AUTO,
          "with threads off a game went to %s (%d thread requests)" %
          (row, len(opened)))
    stats["threads_default"] = 3


def turn_of(body):
    """The turn number in a turn message's title, or None."""
    for e in (body or {}).get("embeds") or []:
        m = re.search(r"turn (\d+)$", e.get("title") or "")
        if m:
            return int(m.group(1))
    return None


def part_turn_followup(fake, db, stats):
    """A click in alice's DM that ends her turn against the AI: the AI's
    turn is played in the same command, and her next turn's DM comes as
    a follow-up of the click (an interaction webhook, outside her DM
    channel's 5 messages per 5 s), not a post in her DM channel; that
    message is then her turn's DM, edited in place by a move made from
    the channel. A move from the channel that ends a turn rightly posts
    the next turn's DM (an answer to the AI's card in the AI's turn, a
    discard that ends it): then the clicks go on from that DM."""
    text = public(dl.slash(fake, "alice", "new", dl.options(
        kind="supervillain", seats=2, ai=1), channel=CH_FOLLOW),
        "/game new against the AI")
    game = game_no(text, "/game new")
    public(dl.slash(fake, "alice", "start", channel=CH_FOLLOW), "start")
    pat = re.compile(r"^[ms]:%d:(\d+):" % game)

    def prompt():
        for m in reversed(fake.dms("alice")):
            ids = [c for c in dl.custom_ids(m)
                   if pat.match(c.get("custom_id", ""))]
            if ids:
                return m, ids[0]
        return None
    clicks, ended = 0, 0
    for attempt in range(20):
        for k in range(200):
            dm, comp = dl.wait_until(prompt, 15, "alice's turn DM")
            version = int(pat.match(comp["custom_id"]).group(1))
            if comp["type"] == 3:  # a select menu: the first option
                value = comp["options"][0]["value"]
                ends = [o["value"] for o in comp["options"]
                        if o["value"] == "end"]
                info = dl.click(fake, "alice", comp["custom_id"],
                                [ends[0] if ends else value],
                                message_id=dm["id"])
            else:
                ids = [c["custom_id"] for c in dl.custom_ids(dm)
                       if c.get("custom_id", "").startswith(
                           "m:%d:%d:" % (game, version))]
                ends = [i for i in ids if i.endswith(":end")]
                info = dl.click(fake, "alice", (ends or ids)[0],
                                message_id=dm["id"])
            clicks += 1
            check(info["callback"]["type"] == 7,
                  "a click in alice's DM got %r" % info["callback"])
            hook = "/webhooks/%s/%s" % (dl.APP_ID, info["token"])
            time.sleep(0.3)
            ups = [r for r in fake.requests() if r["method"] == "POST" and
                   r["path"] == hook]
            if ups:
                break
        else:
            raise dl.Fail("no click of alice's ended her turn against the AI")
        check(len(ups) == 1 and ups[0]["status"] == 200,
              "the new turn's follow-up: %r" % ups)
        it = fake.get("/interaction/%s" % info["id"])
        new = it["followups"]
        check(len(new) == 1 and not new[0]["_fake"]["ephemeral"] and
              new[0]["channel_id"] == dm["channel_id"] and
              "Your turn" in dl.message_text(new[0]) and
              dl.custom_ids(new[0]),
              "the new turn's DM came as %r" % new)
        turn = turn_of(new[0])
        check(turn is not None, "the follow-up turn DM names no turn: %r" %
              new[0].get("embeds"))
        # A move from the channel edits that message; nothing new is
        # posted in her DM channel unless the move ended the turn.
        since = fake.last_request_n()
        mine = "/channels/%s/messages" % dm["channel_id"]
        # Not the end of her turn: that would rightly post the next DM.
        choices = [c for c in dl.autocomplete(
            fake, "alice", "move", "choice", "", channel=CH_FOLLOW)
            if c["value"] != "end"]
        check(choices, "alice was offered nothing but the end of her turn")
        value = dl.pick(random.Random(3), WEIGHTS, choices)["value"]
        acted(dl.slash(fake, "alice", "move", dl.options(choice=value),
                       channel=CH_FOLLOW),
              "a move from the channel (%s)" % value)
        edited = "%s/%s" % (mine, new[0]["id"])
        dl.wait_until(lambda: sent_request(fake, "PATCH", edited, since) or
                      sent_request(fake, "POST", mine, since), 10,
                      "the edit of the follow-up turn DM")
        dl.quiet(fake)
        posted = [turn_of(r["body"])
                  for r in sent_request(fake, "POST", mine, since)]
        if posted and all(t is not None and t > turn for t in posted):
            ended += 1  # the move ended turn `turn`: a new turn's DM
            continue
        check(not posted,
              "a move from the channel (%s) in turn %d posted a new DM "
              "(turns %r) instead of editing the turn's" %
              (value, turn, posted))
        check(sent_request(fake, "PATCH", edited, since),
              "a move from the channel (%s) did not edit the follow-up "
              "turn DM" % value)
        break
    else:
        raise dl.Fail("in 20 tries every move from the channel ended "
                      "alice's turn")
    public(mod_slash(fake, "abort", dl.options(game=game),
                     channel=CH_FOLLOW), "the abort of game #%d" % game)
    stats["followup_clicks"] = clicks
    stats["followup_ended"] = ended


def is_dm_path(fake, path):
    m = re.fullmatch(r"/channels/(\d+)/messages", path)
    return m and any(c["id"] == m.group(1) and c["type"] == 1
                     for c in fake.channels())


# -- 2. timers -----------------------------------------------------------------

def reminder_posts(fake, user, game, after):
    needle = "<@%s>, game #%d is waiting for your decision" % (
        dl.USERS[user], game)
    return [m for m in posts(fake, CH_TIMERS, after)
            if needle in dl.message_text(m)]


def reminder_dms(fake, user, game, after):
    needle = "Reminder: game #%d is waiting for your decision" % game
    return [m for m in fake.dms(user) if int(m["id"]) > int(after) and
            needle in dl.message_text(m)]


def check_ping(fake, r, user, what):
    """The request r pings exactly user: its content mentions only user
    and allowed_mentions permits only that user."""
    body = r["body"] or {}
    uid = dl.USERS[user]
    mentioned = re.findall(r"<@!?(\d+)>", body.get("content") or "")
    check(mentioned == [uid], "%s mentions %r, not only %s" %
          (what, mentioned, user))
    check(body.get("allowed_mentions") == {"parse": [], "users": [uid]},
          "%s: allowed_mentions %r (only %s may be pinged)" %
          (what, body.get("allowed_mentions"), user))


def due_now(db, game, kinds, seat=None, want=None):
    n = dl.timers_due_now(db, game, kinds, seat)
    if want is not None:
        check(n == want, "game #%d has %d timers of kinds %r for seat %r, "
              "not %d: %r" % (game, n, kinds, seat, want, dl.db_read(
                  db, "SELECT kind, seat, due, data FROM timers WHERE "
                  "game = ?", (game,))))
    return n


def part_timers(fake, db, stats):
    for key, value in (("deadline_hours", "10"), ("miss_action", "ai")):
        text = public(mod_slash(fake, "settings", dl.options(
            key=key, value=value), channel=CH_TIMERS), "settings " + key)
        check("set %s to %s" % (key, value) in text, "settings said %r" %
              text)
    game = game_no(public(dl.slash(fake, "alice", "new", dl.options(
        kind="supervillain", mode="blitz", seats=2), channel=CH_TIMERS),
        "/game new"), "/game new")
    public(dl.slash(fake, "bob", "join", channel=CH_TIMERS), "join")
    text = public(dl.slash(fake, "alice", "start", channel=CH_TIMERS),
                  "start")
    m = WAITING.search(text)
    check(m and m.group(1) in ("alice", "bob"),
          "the start waits for nobody: %r" % text)
    p = m.group(1)
    seat = {u: s for s, u in seats(db, game).items()}[dl.USERS[p]]
    other = "bob" if p == "alice" else "alice"
    mark = last_message_id(fake, CH_TIMERS)
    dm_mark = last_message_id(fake, user=p)

    # a. A reminder in the channel, pinging p alone.
    since = fake.last_request_n()
    due_now(db, game, ["remind"], seat, want=1)
    dl.wait_until(lambda: reminder_posts(fake, p, game, mark), TIMER_WAIT,
                  "the channel reminder for %s" % p)
    check(not reminder_posts(fake, other, game, mark),
          "%s was reminded too" % other)
    reqs = sent_request(fake, "POST", "/channels/%s/messages" % CH_TIMERS,
                        since, "waiting for your decision")
    check(len(reqs) == 1, "%d reminder requests, not 1" % len(reqs))
    check_ping(fake, reqs[0], p, "the channel reminder")
    check(not reminder_dms(fake, p, game, dm_mark),
          "the default reminder came by DM too")
    nxt = dl.db_read(db, "SELECT due, data FROM timers WHERE game = ? AND "
                     "kind = 'remind' AND seat = ?", (game, seat))
    check(len(nxt) == 1 and nxt[0][1] == 1 and nxt[0][0] > time.time(),
          "after the first reminder the next one is %r" % nxt)
    stats["reminders"] += 1

    # b. By DM once p prefers it; no ping, nothing in the channel.
    text = private(dl.slash(fake, p, "prefs", dl.options(reminders="dm"),
                            channel=CH_TIMERS), "/prefs set")
    check("reminders dm" in text, "prefs said %r" % text)
    mark = last_message_id(fake, CH_TIMERS)
    since = fake.last_request_n()
    due_now(db, game, ["remind"], seat, want=1)
    m = dl.wait_until(lambda: reminder_dms(fake, p, game, dm_mark),
                      TIMER_WAIT, "the DM reminder for %s" % p)[0]
    check("/prefs mute" in dl.message_text(m),
          "the DM reminder does not say how to mute: %r" %
          dl.message_text(m))
    reqs = sent_request(fake, "POST", "/channels/%s/messages" %
                        m["channel_id"], since, "Reminder: game")
    check(len(reqs) == 1 and reqs[0]["body"].get("allowed_mentions") ==
          {"parse": []}, "the DM reminder's request: %r" % reqs)
    check(not reminder_posts(fake, p, game, mark),
          "the channel got a reminder though %s prefers DMs" % p)
    stats["reminders"] += 1

    # c. Back to channel reminders; the opener's /game deadline starts
    # the turn's clock again; its half-time warning pings p alone; then
    # /prefs mute silences the rest of the turn.
    private(dl.slash(fake, p, "prefs", dl.options(reminders="channel"),
                     channel=CH_TIMERS), "/prefs set")
    text = public(dl.slash(fake, "alice", "deadline", dl.options(hours=10),
                           channel=CH_TIMERS), "/game deadline")
    check("10 hours per turn" in text, "deadline said %r" % text)
    mark = last_message_id(fake, CH_TIMERS)
    dm_mark = last_message_id(fake, user=p)
    since = fake.last_request_n()
    due_now(db, game, ["warn"], seat, want=1)
    warn = wait_post(fake, CH_TIMERS, "half your time for this turn of game "
                     "#%d is gone" % game, "the half-time warning", mark)
    text = dl.message_text(warn)
    check("the AI plays the rest of your turn" in text and
          re.search(r"decide within 9h 5\dm", text),
          "the warning says %r" % text)
    reqs = sent_request(fake, "POST", "/channels/%s/messages" % CH_TIMERS,
                        since, "half your time")
    check(len(reqs) == 1, "%d warning requests" % len(reqs))
    check_ping(fake, reqs[0], p, "the half-time warning")
    stats["warnings"] += 1
    text = private(dl.slash(fake, p, "mute", channel=CH_TIMERS),
                   "/prefs mute")
    check(text == "No more reminders for this turn of game #%d, nor its "
          "deadline's warning." % game, "mute said %r" % text)
    due_now(db, game, ["remind"], seat, want=0)

    # d. The deadline: the AI plays the rest of p's turn, the game moves
    # on, and whoever decides next gets the prompt.
    before = dl.moves_in_db(db, game)
    due_now(db, game, ["deadline"], seat, want=1)
    ran_out = wait_post(fake, CH_TIMERS, "%s's time for this turn of game "
                        "#%d ran out: the AI plays the rest of %s's turn." %
                        (p, game, p), "the deadline's notice", mark)
    check(not reminder_posts(fake, p, game, mark) and
          not reminder_dms(fake, p, game, dm_mark),
          "a muted turn was reminded (before the warning or the deadline)")
    stats["muted"] += 1
    rows = dl.moves_in_db(db, game)
    new = rows[len(before):]
    check(new and all(r[2] == seat and
                      r[1] == "ai:%d:%d:deadline" % (game, r[0])
                      for r in new) and new[-1][3] == "end",
          "after %s's deadline the moves are %r (were %d)" %
          (p, rows[-3:], len(before)))
    x = waiting(fake, other, CH_TIMERS)
    check(x in ("alice", "bob"), "after the deadline %r decides" % x)
    prompt_dm(fake, x, game, len(rows))
    armed = dl.db_read(db, "SELECT kind, seat FROM timers WHERE game = ? "
                       "AND kind IN ('warn', 'deadline') ORDER BY kind",
                       (game,))
    xseat = {u: s for s, u in seats(db, game).items()}[dl.USERS[x]]
    check(armed == [("deadline", xseat), ("warn", xseat)],
          "after the deadline the timers are %r" % armed)
    check(int(ran_out["id"]) > int(warn["id"]), "the notices are out of "
          "order")
    stats["deadlines"] += 1

    # e. Forfeit at the first miss (miss_limit 1): x's seat goes to the
    # AI, which plays on until the other member must decide; that member
    # gets the prompt.
    for key, value in (("miss_limit", "1"), ("miss_action", "forfeit")):
        text = public(mod_slash(fake, "settings", dl.options(
            key=key, value=value), channel=CH_TIMERS), "settings " + key)
        check("set %s to %s" % (key, value) in text, "settings said %r" %
              text)
    y = "bob" if x == "alice" else "alice"
    mark = last_message_id(fake, CH_TIMERS)
    due_now(db, game, ["deadline"], xseat, want=1)
    wait_post(fake, CH_TIMERS, "%s missed a turn and forfeits game #%d: the "
              "seat goes to AI" % (x, game), "the forfeit's notice", mark)
    users = seats(db, game)
    check(users[xseat].startswith("ai:") and
          users[1 - xseat] == dl.USERS[y],
          "after the forfeit the seats are %r" % users)
    check(waiting(fake, y, CH_TIMERS) == y, "after the forfeit %s does not "
          "decide" % y)
    prompt_dm(fake, y, game, len(dl.moves_in_db(db, game)))
    stats["deadlines"] += 1
    return game, y


# -- 2b. a rematch's invitations -------------------------------------------------

def part_rematch(fake, db, stats):
    """A 3-player game ended by a moderator; alice's rematch invites bob
    and carol in one announcement that may ping exactly them two; it
    cannot start before both answered; bob joins, carol declines, and it
    starts."""
    game = game_no(public(dl.slash(fake, "alice", "new", dl.options(
        kind="supervillain", seats=3), channel=CH_REMATCH), "/game new"),
        "/game new")
    for who in ("bob", "carol"):
        public(dl.slash(fake, who, "join", channel=CH_REMATCH), who + " join")
    public(dl.slash(fake, "alice", "start", channel=CH_REMATCH), "start")
    public(mod_slash(fake, "abort", channel=CH_REMATCH), "abort")
    info = dl.slash(fake, "alice", "rematch", channel=CH_REMATCH)
    text = public(info, "/game rematch")
    ids = [dl.USERS["bob"], dl.USERS["carol"]]
    check("<@%s> and <@%s> are invited back" % tuple(ids) in text,
          "the rematch said %r" % text)
    data = (info["callback"] or {}).get("data") or {}
    check(data.get("allowed_mentions") == {"parse": [], "users": ids},
          "the rematch's allowed_mentions are %r (bob and carol alone may "
          "be pinged)" % data.get("allowed_mentions"))
    m = re.search(r"game #(\d+) \(", text)
    check(m and int(m.group(1)) > game, "no new game in %r" % text)
    text = private(dl.slash(fake, "alice", "start", channel=CH_REMATCH),
                   "an early start")
    check("bob and carol are still invited" in text, "start said %r" % text)
    public(dl.slash(fake, "bob", "join", channel=CH_REMATCH), "bob's join")
    text = public(dl.slash(fake, "carol", "leave", channel=CH_REMATCH),
                  "carol's decline")
    check("carol declined the invitation" in text, "leave said %r" % text)
    text = public(dl.slash(fake, "alice", "start", channel=CH_REMATCH),
                  "the rematch's start")
    check("Seats in turn order: alice, bob." in text, "start said %r" % text)
    stats["rematch"] = 1


# -- 3. export -----------------------------------------------------------------

def part_export_game(fake, db, rng, stats):
    """Plays a blitz game against one AI seat to its end; its number."""
    text = public(dl.slash(fake, "alice", "new", dl.options(
        kind="supervillain", mode="blitz", seats=2, ai=1),
        channel=CH_EXPORT), "/game new with an AI seat")
    check("AI players seated" in text, "/game new ai:1 said %r" % text)
    game = game_no(text, "/game new")
    public(dl.slash(fake, "alice", "start", channel=CH_EXPORT), "start")
    answers = 0
    while dl.db_read(db, "SELECT status FROM games WHERE id = ?",
                     (game,))[0][0] != STO_FINISHED:
        move(fake, rng, "alice", CH_EXPORT, "game #%d" % game)
        answers += 1
        check(answers < 500, "game #%d does not end" % game)
    stats["export_answers"] = answers
    return game


def export(fake, game, db):
    """/game export by alice: (interaction record, the edit's request)
    once the bot has sent the edit that carries the file."""
    since = fake.last_request_n()
    info = dl.slash(fake, "alice", "export", channel=CH_EXPORT)
    cb = info["callback"]
    check(cb["type"] == 5 and cb["data"] and cb["data"].get("flags") == 64,
          "/game export answered %r (a deferred ephemeral response)" % cb)
    path = "/webhooks/%s/%s/messages/@original" % (dl.APP_ID, info["token"])
    reqs = dl.wait_until(lambda: [r for r in sent_request(
        fake, "PATCH", path, since) if r["status"] is not None], 15,
        "the edit of the export's answer")
    check(len(reqs) == 1, "%d edits of the export's answer" % len(reqs))
    # The readable transcript follows as a message of its own, once the
    # deferral is acknowledged too.
    hook = "/webhooks/%s/%s" % (dl.APP_ID, info["token"])
    md = dl.wait_until(lambda: [r for r in sent_request(
        fake, "POST", hook, since) if r["status"] is not None], 15,
        "the export's transcript")
    name = "game-%d.md" % game
    check(len(md) == 1 and md[0]["status"] == 200 and
          [(f["name"], f["filename"]) for f in md[0].get("files") or []] ==
          [("files[0]", name)],
          "the transcript was sent as %r" %
          [(r["status"], r.get("files")) for r in md])
    it = fake.get("/interaction/%s" % info["id"])
    ups = [m for m in it["followups"] if m["attachments"] and
           m["attachments"][0]["filename"] == name]
    check(len(ups) == 1 and ups[0]["_fake"]["ephemeral"] and
          ups[0]["_fake"]["audience"] == dl.USERS["alice"],
          "the transcript is not one message for alice alone: %r" %
          it["followups"])
    text = fake.attachment(ups[0]["attachments"][0]["id"]).decode()
    moves = len(dl.moves_in_db(db, game))
    check(text.startswith("# Game #%d: " % game) and
          [int(n) for n in re.findall(r"(?m)^(\d+)\. ", text)] ==
          list(range(1, moves + 1)) and "## Turn " in text,
          "the transcript of game #%d (%d moves) reads %r" %
          (game, moves, text[:300]))
    return it, reqs[0]


def check_upload(fake, it, r, name):
    """The edit r of the export's answer: multipart/form-data that the
    fake accepted, with payload_json and files[0]; returns the bytes."""
    check((r["content_type"] or "").startswith("multipart/form-data;"),
          "the export's upload was sent with Content-Type %r, not "
          "multipart/form-data (answer: %s %s)" %
          (r["content_type"], r["status"], r["code"]))
    check(r["status"] == 200, "the export's upload was refused: %s %s" %
          (r["status"], r["code"]))
    check([(f["name"], f["filename"]) for f in r.get("files") or []] ==
          [("files[0]", name)],
          "the upload's files: %r" % r.get("files"))
    check(r["body"].get("attachments") == [{"id": "0", "filename": name}],
          "payload_json's attachments: %r" % r["body"].get("attachments"))
    orig = it["original"]
    check(orig["_fake"]["ephemeral"] and
          orig["_fake"]["audience"] == dl.USERS["alice"],
          "the export is not only for alice: %r" % orig["_fake"])
    check("lair replay %s" % name in dl.message_text(orig),
          "the export message says %r" % dl.message_text(orig))
    att = orig["attachments"]
    check(len(att) == 1 and att[0]["filename"] == name,
          "the export's attachments: %r" % att)
    data = fake.attachment(att[0]["id"])
    check(len(data) == att[0]["size"] == r["files"][0]["size"] and
          hashlib.sha256(data).hexdigest() == r["files"][0]["sha256"],
          "the attachment holds %d bytes, the message says %d" %
          (len(data), att[0]["size"]))
    return data


def part_export(fake, bot, db, game, tmp, stats):
    name = "game-%d.json" % game
    it, r = export(fake, game, db)
    data = check_upload(fake, it, r, name)
    rec = json.loads(data)
    rows = dl.moves_in_db(db, game)
    check(rec["game"] == game and rec["status"] == "finished" and
          rec["answers"] == [[s, o] for (_, _, s, o) in rows],
          "the record's answers are not the moves of game #%d" % game)
    check(rec["seats"][0] == "alice", "the record's seats: %r" %
          rec["seats"])
    path = os.path.join(tmp, name)
    with open(path, "wb") as f:
        f.write(data)
    rc, out, err = replay(bot.binary, path)
    check(rc == 0 and not err, "lair replay %s: exit %d, stderr %r" %
          (name, rc, err))
    got = json.loads(out)
    check(got["ok"] is True and got["record"] == game and
          got["moves"] == len(rows) and got["status"] == "finished" and
          got["result"] == rec["result"] and rec["result"]["winners"] and
          got["state_fnv1a64"] == rec["state_fnv1a64"],
          "lair replay said %r for game #%d (%d moves)" %
          (got, game, len(rows)))

    # One answer changed: refused, with the checksum recomputed (by the
    # replay) and with it left as it was (by the checksum).
    k = len(rec["answers"]) // 2
    forged = json.loads(json.dumps(rec))
    forged["answers"][k][1] = "no.such-option"
    for label, text, want in (
            ("an answer changed", json.dumps(ll.rehash(forged)),
             "answer %d (no.such-option by seat %d) is not legal" %
             (k + 1, forged["answers"][k][0])),
            ("an answer changed, checksum left", json.dumps(forged),
             "record_fnv1a64")):
        bad = os.path.join(tmp, "tampered-" + name)
        with open(bad, "w") as f:
            f.write(text)
        rc, out, err = replay(bot.binary, bad)
        check(rc == 1 and not out and len(err.splitlines()) == 1 and
              want in err, "%s: lair replay exited %d, stdout %r, stderr %r "
              "(want exit 1 and %r)" % (label, rc, out, err, want))
        stats["tampered"] += 1
    stats["export_bytes"] = len(data)
    stats["export_moves"] = len(rows)
    return data


def part_export_slow_ack(fake, db, game, first, stats):
    """The export again while Discord is slow to acknowledge the deferral
    (1 s, well within the 3 s): the edit that carries the file must wait
    for the acknowledgement (before it, Discord answers 10015 Unknown
    Webhook and the file is lost), as every other edit of an answer
    does."""
    fake.fault(kind="slow", ms=1000, count=1,
               route=r"^POST /interactions/\d+/[^/]+/callback$")
    it, r = export(fake, game, db)
    acked = it["callback_at"]
    check(acked is not None and r["at"] >= acked,
          "the edit carrying the file reached the fake %s before the "
          "deferral was acknowledged (answer: %s %s)" % (
              "%.0f ms" % ((acked - r["at"]) * 1000) if acked else "",
              r["status"], r["code"]))
    data = check_upload(fake, it, r, "game-%d.json" % game)
    check(first is None or data == first,
          "the second export differs from the first")
    stats["slow_ack"] = 1


def replay(binary, path):
    p = subprocess.run([binary, "replay", path], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, env=dl.sanitizer_env(),
                       timeout=60)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


# -- 4. DM channels across a restart ------------------------------------------

def dm_channel_of(fake, user):
    uid = dl.USERS[user]
    found = [c["id"] for c in fake.channels()
             if c["type"] == 1 and c["recipients"][0]["id"] == uid]
    check(len(found) == 1, "the fake has %d DM channels for %s" %
          (len(found), user))
    return found[0]


def opens(fake, user, since=0):
    return [r for r in sent_request(fake, "POST", "/users/@me/channels",
                                    since)
            if (r["body"] or {}).get("recipient_id") == dl.USERS[user]]


def stored_dm_channel(db, user):
    rows = dl.db_read(db, "SELECT value FROM settings WHERE scope = ? AND "
                      "key = 'dm_channel'", ("user:%s" % dl.USERS[user],))
    return rows[0][0] if rows else None


def part_restart(fake, bot, db, rng, game, y):
    channels = {}
    for user in ("alice", "bob"):
        channels[user] = dm_channel_of(fake, user)
        check(len(opens(fake, user)) == 1, "%s's DM channel was opened %d "
              "times" % (user, len(opens(fake, user))))
        dl.wait_until(lambda: stored_dm_channel(db, user) == channels[user],
                      12, "%s's DM channel in the database" % user)
    bot.stop()
    stopped = time.monotonic()
    bot.start()
    dl.wait_buckets(stopped)
    since = fake.last_request_n()
    mark = last_message_id(fake, user=y)
    # y, the one member left in the game, moves: the next prompt (and
    # any changed hand) goes to y by DM.
    move(fake, rng, y, CH_TIMERS, "after the restart")
    # The turn's DM, made before the restart, is edited in place: the
    # restarted process found its id in the database (kept messages).
    m = prompt_dm(fake, y, game, len(dl.moves_in_db(db, game)))
    check(m["channel_id"] == channels[y], "after the restart %s's DM came "
          "in channel %s, not %s" % (y, m["channel_id"], channels[y]))
    check(int(m["id"]) <= int(mark), "after the restart %s's turn DM was "
          "posted anew (message %s), not edited in place" % (y, m["id"]))
    check(not opens(fake, y, since) and not sent_request(
        fake, "POST", "/users/@me/channels", since),
          "after the restart the bot opened DM channels again: %r" %
          sent_request(fake, "POST", "/users/@me/channels", since))
    check(sent_request(fake, "PATCH", "/channels/%s/messages/%s" %
                       (channels[y], m["id"]), since),
          "no edit of %s's turn DM in the stored channel" % y)


# -- the run -------------------------------------------------------------------

def answered_in_time(fake):
    n = 0
    for it in fake.get("/interactions"):
        dl.check_answered(it)
        n += 1
    return n


def run(binary, openapi, tmp):
    """Runs the parts in order; a part that fails is reported with the
    others' outcome (a part that needs an earlier one is skipped when
    that one failed), and the test fails."""
    rng = random.Random(20250301)
    db = os.path.join(tmp, "lair.db")
    fake = dl.Fake(openapi, tmp, "--identify-interval-ms", "1000")
    bot = None
    stats = {"reminders": 0, "warnings": 0, "muted": 0, "deadlines": 0,
             "tampered": 0, "rematch": 0}
    failed, state = [], {}

    def part(name, fn, needs=None):
        if needs and needs not in state:
            failed.append((name, "skipped: it needs part %r" % needs))
            return
        try:
            state[name] = fn()
        except dl.Fail as e:
            failed.append((name, str(e)))
            print("discord_async: part %r FAILED: %s" % (name, e))
    try:
        bot = dl.Bot(binary, fake, db)
        part("threads", lambda: part_threads(fake, db, stats))
        part("threads by default",
             lambda: part_threads_default(fake, db, stats))
        part("turn DM as a follow-up",
             lambda: part_turn_followup(fake, db, stats))
        part("timers", lambda: part_timers(fake, db, stats))
        part("rematch", lambda: part_rematch(fake, db, stats))
        part("export game", lambda: part_export_game(fake, db, rng, stats))
        part("export", lambda: part_export(
            fake, bot, db, state["export game"], tmp, stats),
            needs="export game")
        part("export, slow ack", lambda: part_export_slow_ack(
            fake, db, state["export game"], state.get("export"), stats),
            needs="export game")
        part("restart", lambda: part_restart(
            fake, bot, db, rng, *state["timers"]), needs="timers")
        part("in time", lambda: answered_in_time(fake))
        part("violations", lambda: fake.no_violations())
        bot.stop()
        check(not failed, "%d of 11 parts failed: %s" % (
            len(failed), "; ".join("%s: %s" % f for f in failed)))
        return ("a game in thread %s (%d messages there, none in the "
                "parent); threads by default only where Lair may open "
                "them (%d cases); a new turn's DM as the follow-up of a "
                "click after %d clicks (%d channel moves that ended the "
                "turn tried again); %d reminders (channel with one ping, "
                "DM), a muted "
                "turn, a half-time warning, %d deadlines (ai, forfeit) by "
                "the bot's timers; a rematch pinging its 2 invited players; "
                "a %d-answer game exported as a %d-byte "
                "multipart upload that lair replay accepts (%d moves) and "
                "%d tampered copies it refuses, the same file after a slow "
                "acknowledgement; DM channels reused after a "
                "restart; %d interactions answered in time, %d REST "
                "requests, 0 violations" % (
                    stats["thread"], stats["thread_messages"],
                    stats["threads_default"], stats["followup_clicks"],
                    stats["followup_ended"],
                    stats["reminders"], stats["deadlines"],
                    stats["export_answers"], stats["export_bytes"],
                    stats["export_moves"], stats["tampered"],
                    state["in time"], state["violations"]["requests"]))
    finally:
        if bot is not None:
            bot.close()
        fake.stop()


if __name__ == "__main__":
    sys.exit(dl.main("discord_async", run))
