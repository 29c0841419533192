#!/usr/bin/python3
"""discord_faults: every fault the fake Discord can inject, one test each,
asserting what the bot visibly does.

One fake (heartbeats every second, so a zombie connection shows within
two) and one bot on a game of three members serve most tests:

- gateway: unanswered heartbeats (the bot closes with 4000 and resumes),
  a server op 1 (a heartbeat at once), op 7 (resume; also before Hello),
  op 9 true (resume) and false (one new Identify, no loop), close codes
  4000-4003, 4005 and 4008 (resume) and 4007 and 4009 (a new session), a
  dropped TCP connection (resume, the event sent meanwhile replayed and
  answered in time), a duplicate INTERACTION_CREATE after a resume
  (applied once, answered once: no 40060);
- REST: a 429 of each kind (bucket, global, Cloudflare) on a DM (it
  arrives after retry_after, no unexpected 429), a temporary 500
  (retried) and a permanent one (given up after the retries), a slow
  callback and a slow DM (interactions still answered in time, a deferred
  /game log filled in), a commit held up by a busy database (the answer
  in time, the interaction queued behind it deferred, then filled in), a
  DM refused with 50007 (a notice in the channel
  naming no card, its "Show my hand" button shows the hand to that player
  alone and refuses a non-player);
- games: slash commands in a DM act on the player's game (and /game list
  there lists the player's games); 300 lobbies (more than the bot keeps
  loaded) and the running game still moves;
- health: `lair health` says ok while the bot hears from Discord, not ok
  once a killed bot has been silent longer than --max-age, and ok again
  after a restart;
- commands: registered once, not PUT again by a restart with the same
  commands; LAIR_GUILD_ID registers to that guild; moderators (Manage
  Server, or LAIR_MOD_ROLE) can /gamemod abort, a plain member cannot;
- fatal closes 4004 and 4010-4014 and a refused token: the process exits
  non-zero with a log line naming the code.

The token is never in the bot's stderr, the bot leaves with status 0 on
SIGTERM, and the fake records no violation beyond those a test provokes
on purpose. Run one test with its name as a third argument.
"""

import json
import os
import re
import sqlite3
import subprocess
import sys
import time

import discordlib as dl
from discordlib import check

PLAYERS = ["alice", "bob", "carol"]
CHANNEL3 = "1187000000000000203"
MOD_ROLE = "1187000000000000777"
WAITING = re.compile(r"Waiting for (\w+)\.")
HAND_HEAD = re.compile(r"\*\*Your hand\*\* \((.+?), (\d+) cards?\)")


class Ctx:
    """The shared fake, bot and game of the tests."""

    def __init__(self, binary, openapi, tmp):
        self.binary, self.tmp = binary, tmp
        self.fake = dl.Fake(openapi, tmp, "--heartbeat-ms", "1000",
                            "--identify-interval-ms", "100")
        self.db = os.path.join(tmp, "a.db")
        self.bot = None
        self.decider = None
        self.version = 0
        self.card_names = None

    # -- the gateway's record ------------------------------------------------
    def counters(self):
        return self.fake.gateway()["counters"]

    def wait_connected(self, what, timeout=15):
        return dl.wait_until(lambda: self.fake.gateway()["ready_sessions"],
                             timeout, what)

    def wait_counter(self, name, above, what, timeout=15):
        dl.wait_until(lambda: self.counters().get(name, 0) > above and
                      self.fake.gateway()["ready_sessions"], timeout, what)

    def last_close(self):
        closes = self.fake.gateway()["last_closes"]
        return closes[-1] if closes else None

    def works(self, what):
        """An interaction is answered (the bot is connected again)."""
        info = dl.slash(self.fake, "bob", "status")
        check(info["age_at_callback_ms"] < 3000 and not
              info["callback_errors"], "%s: status answered late: %r" %
              (what, info["age_at_callback_ms"]))
        self.follow(dl.answer_text(info))
        return info

    # -- the game --------------------------------------------------------------
    def follow(self, text):
        m = WAITING.search(text)
        if m:
            self.decider = m.group(1)

    def moves(self):
        return dl.moves_in_db(self.db, 1)

    def choices(self, **kw):
        return dl.autocomplete(self.fake, self.decider, "move", "choice", "",
                               **kw)

    def move_payload(self, **kw):
        ch = self.choices()
        ends = [c for c in ch if c["value"] == "end"]
        choice = (ends or ch)[0]["value"]
        return dl.slash_payload(self.decider, "move",
                                dl.options(choice=choice), **kw)

    def after_move(self, info):
        text = dl.answer_text(info)
        self.follow(text)
        if not WAITING.search(text):  # a long table: the rest is posted
            self.decider = None
            st = dl.wait_until(lambda: self.status_decider(), 10,
                               "who decides")
            self.decider = st

    def status_decider(self):
        info = dl.slash(self.fake, "bob", "status")
        m = WAITING.search(dl.answer_text(info))
        return m.group(1) if m else None

    def dm_count(self, who):
        return len(self.fake.dms(who))

    def start_bot(self, **env):
        self.bot = dl.Bot(self.binary, self.fake, self.db, env=env)


def setup(c):
    """Bot A on a fresh database, its commands registered once, and a game
    of three members."""
    c.start_bot()
    st = c.fake.get("/commands")
    check(st["puts"] == {"global": 1} and
          [x["name"] for x in st["commands"]["global"]] ==
          ["game", "gamemod", "prefs"] and
          [x.get("default_member_permissions") for x in
           st["commands"]["global"]] == [None, "32", None],
          "commands after the first start: %r" % st["puts"])
    subs = {o["name"] for o in st["commands"]["global"][0]["options"]}
    mod = {o["name"] for o in st["commands"]["global"][1]["options"]}
    check({"new", "join", "start", "move", "hand", "status"} <= subs and
          {"abort", "kick", "settings"} <= mod and "abort" not in subs,
          "the /game subcommands: %r" % sorted(subs))
    info = dl.slash(c.fake, "alice", "new", dl.options(kind="supervillain"))
    lobby = info["original"]
    check([x.get("custom_id") for x in dl.custom_ids(lobby)] ==
          ["j:1", "l:1", "b:1", "a:1"],
          "the lobby's buttons: %r" % dl.custom_ids(lobby))
    # The first to join clicks the lobby's Join button; the others type.
    # The click updates the lobby message in place (no new message per
    # seat), buttons and all.
    info = dl.click(c.fake, PLAYERS[1], "j:1", message_id=lobby["id"])
    now = [m for m in c.fake.messages(channel=dl.CHANNEL)
           if m["id"] == lobby["id"]]
    check(info["callback"]["type"] == 7 and
          "%s joined game #1" % PLAYERS[1] in
          dl.message_text(info["callback"]["data"]) and now and
          "%s joined game #1" % PLAYERS[1] in dl.message_text(now[0]) and
          [x.get("custom_id") for x in dl.custom_ids(now[0])] ==
          ["j:1", "l:1", "b:1", "a:1"],
          "the Join button answered %r; the lobby message is now %r" %
          (info["callback"], now))
    info = dl.click(c.fake, PLAYERS[1], "b:1", message_id=lobby["id"])
    check(dl.is_ephemeral(info) and "Only the player who opened" in
          dl.answer_text(info), "Start by another player: %r" %
          dl.answer_text(info))
    for p in PLAYERS[2:]:
        dl.slash(c.fake, p, "join")
    info = dl.slash(c.fake, "alice", "start")
    c.follow(dl.answer_text(info))
    check(c.decider, "no decider after the start")


# == gateway ================================================================

def t_stop_acks(c):
    """Heartbeats go unanswered: the bot closes with 4000 and resumes."""
    before = c.counters()
    c.fake.fault(kind="stop_acks")
    c.wait_counter("resumes", before.get("resumes", 0),
                   "a resume after unanswered heartbeats", timeout=10)
    close = c.last_close()
    check(close["by"] == "client" and close["code"] == 4000,
          "the zombie connection was closed with %r" % close)
    check(c.counters().get("identifies") == before.get("identifies"),
          "a new Identify after a zombie connection")
    check("no heartbeat ACK" in c.bot.stderr_text(), "no log line")
    c.works("after stop_acks")


def t_op1(c):
    """A server op 1: a heartbeat at once, not at the next interval."""
    conn = c.fake.gateway()["connections"][-1]
    c.fake.fault(kind="op1")
    t0 = time.monotonic()
    dl.wait_until(lambda: c.fake.gateway()["connections"][-1]["heartbeats"]
                  > conn["heartbeats"], 2, "a heartbeat after op 1")
    check(time.monotonic() - t0 < 0.9, "the heartbeat took %.2f s" %
          (time.monotonic() - t0))


def resume_after(c, what, fault, code=4000, by="client"):
    """The fault ends the connection (closed by `by` with code) and the
    bot resumes the session, without a new Identify."""
    before = c.counters()
    n = len(c.fake.gateway()["last_closes"])
    c.fake.fault(**fault)
    c.wait_counter("resumes", before.get("resumes", 0), "a resume after " +
                   what)
    after = c.counters()
    check(after.get("identifies") == before.get("identifies"),
          "%s: a new Identify instead of a resume" % what)
    closes = c.fake.gateway()["last_closes"][n:]
    check(closes and closes[0]["code"] == code and closes[0]["by"] == by,
          "%s: the connection ended %r, not by the %s with %d" %
          (what, closes, by, code))
    c.works(what)


def t_op7(c):
    """op 7 Reconnect: close (not 1000/1001) and resume."""
    resume_after(c, "op 7", {"kind": "op7"})


def t_op7_before_hello(c):
    """op 7 on a new connection before Hello: the bot still resumes."""
    c.fake.fault(kind="op7", before_hello=True)
    before = c.counters()
    c.fake.fault(kind="drop")
    c.wait_counter("resumes", before.get("resumes", 0),
                   "a resume after op 7 before Hello")
    check(not c.fake.gateway()["pending"]["next_connection"],
          "the op 7 was never sent")
    check(c.counters().get("identifies") == before.get("identifies"),
          "a new Identify after op 7 before Hello")
    c.works("op 7 before Hello")


def t_op9_resumable(c):
    """op 9 d=true: resume."""
    resume_after(c, "op 9 true", {"kind": "op9", "resumable": True})


def t_op9_new_session(c):
    """op 9 d=false: one new Identify after a wait, no loop."""
    before = c.counters()
    c.fake.fault(kind="op9", resumable=False)
    c.wait_counter("sessions", before.get("sessions", 0),
                   "a new session after op 9 false", timeout=15)
    time.sleep(1.0)
    after = c.counters()
    check(after.get("identifies", 0) == before.get("identifies", 0) + 1,
          "identifies went from %s to %s" % (before.get("identifies"),
                                              after.get("identifies")))
    check("invalid session (op 9): a new session in" in
          c.bot.stderr_text(), "no log line for op 9")
    c.works("op 9 false")


def t_close_resume(c):
    """Close codes after which a session resumes."""
    for code in (4000, 4001, 4002, 4003, 4005, 4008):
        resume_after(c, "close %d" % code, {"kind": "close", "code": code},
                     code=code, by="server")
        check("closed the connection with %d" % code in c.bot.stderr_text(),
              "no log line for %d" % code)


def new_session_after(c, code):
    before = c.counters()
    c.fake.fault(kind="close", code=code)
    c.wait_counter("sessions", before.get("sessions", 0),
                   "a new session after %d" % code, timeout=15)
    after = c.counters()
    check(after.get("identifies", 0) == before.get("identifies", 0) + 1,
          "after %d: identifies %s -> %s" % (code, before.get("identifies"),
                                            after.get("identifies")))
    check("with %d (" % code in c.bot.stderr_text() and
          "starting a new session" in c.bot.stderr_text(),
          "no log line for %d" % code)
    c.works("close %d" % code)


def t_close_4007(c):
    """4007 Invalid seq: a new session."""
    new_session_after(c, 4007)


def t_close_4009(c):
    """4009 Session timed out: a new session."""
    new_session_after(c, 4009)


def t_drop(c):
    """A dropped TCP connection: resume; an interaction sent during the gap
    is replayed and answered within 3 s."""
    before = c.counters()
    c.fake.fault(kind="drop")
    r = c.fake.interaction(dl.slash_payload("carol", "status"))
    info = c.fake.wait(r["id"], 5000)
    check(info["callback"] is not None and info["age_at_callback_ms"] < 3000
          and not info["callback_errors"],
          "the interaction of the gap: %r" % {k: info[k] for k in (
              "callback", "age_at_callback_ms", "callback_errors")})
    c.wait_counter("resumes", before.get("resumes", 0), "a resume")
    check(c.counters().get("identifies") == before.get("identifies"),
          "a drop led to a new Identify")
    check("dropped without a close frame: resuming" in c.bot.stderr_text(),
          "no log line for the drop")


def t_dup_after_resume(c):
    """The same INTERACTION_CREATE again after a resume: applied once,
    answered once."""
    before_moves = c.moves()
    c.fake.fault(kind="dup_after_resume")
    r = c.fake.interaction(c.move_payload())
    info = c.fake.wait(r["id"])
    check(info["callback"] is not None, "the move was not answered")
    answered = info
    before = c.counters()
    c.fake.fault(kind="drop")
    dl.wait_until(lambda: c.counters().get("duplicates_sent", 0) >
                  before.get("duplicates_sent", 0), 10, "the duplicate")
    time.sleep(0.5)
    info = c.fake.get("/interaction/%s" % r["id"])
    check(info["dispatch_count"] == 2, "dispatched %d times" %
          info["dispatch_count"])
    # Who decides next is read only now: a /game status before the drop
    # would be the interaction the fault delivers again.
    c.after_move(answered)
    check(not info["callback_errors"], "a second answer: %r" %
          info["callback_errors"])
    rows = c.moves()
    check(len(rows) == len(before_moves) + 1 and rows[-1][1] == r["id"],
          "moves after a duplicate: %r" % rows[len(before_moves):])
    check("delivered again; ignored" in c.bot.stderr_text(),
          "no log line for the duplicate")
    c.works("after a duplicate")


# == REST =====================================================================

def dm_trigger(c):
    """The decider's /game hand, which also sends the prompt by DM;
    returns (who, DMs before)."""
    who = c.decider
    n = c.dm_count(who)
    info = dl.slash(c.fake, who, "hand")
    check(dl.is_ephemeral(info), "/game hand was not ephemeral")
    return who, n


def dm_arrives(c, who, n, what, timeout=10):
    dl.wait_until(lambda: c.dm_count(who) > n, timeout, "the DM after " +
                  what)


def requests_to(c, since, rx):
    return [r for r in c.fake.requests(since)
            if re.search(rx, "%s %s" % (r["method"], r["path"]))]


def t_429(c):
    """A 429 of each kind on a DM: retried after retry_after, delivered."""
    for scope in ("bucket", "global", "cloudflare"):
        since = c.fake.last_request_n()
        c.fake.fault(kind="http", status=429, scope=scope,
                     route=r"^POST /channels/\d+/messages", retry_after=0.6)
        who, n = dm_trigger(c)
        dm_arrives(c, who, n, "a %s 429" % scope)
        reqs = requests_to(c, since, r"^POST /channels/\d+/messages")
        check([r["status"] for r in reqs][:2] == [429, 200],
              "%s 429: statuses %r" % (scope, [r["status"] for r in reqs]))
        gap = reqs[1]["at"] - reqs[0]["at"]
        check(gap >= 0.55, "%s 429: retried after %.3f s, not after "
              "retry_after 0.6 s" % (scope, gap))
        st = c.fake.stats()
        check(st["unexpected_429"] == 0, "unexpected 429s: %r" % st)
    check(c.fake.stats()["scripted_429"] >= 3, "the 429s were not used")
    c.works("after 429s")


def t_500(c):
    """A temporary 500 is retried; a permanent one is given up."""
    since = c.fake.last_request_n()
    c.fake.fault(kind="http", status=500, route=r"^POST /channels/\d+/messages",
                 count=2)
    who, n = dm_trigger(c)
    dm_arrives(c, who, n, "two 500s")
    reqs = requests_to(c, since, r"^POST /channels/\d+/messages")
    check([r["status"] for r in reqs][:3] == [500, 500, 200],
          "temporary 500: %r" % [r["status"] for r in reqs])
    # A 502 on every attempt: four (the first and three retries), then
    # the bot gives up and says so; a fifth attempt would have succeeded.
    since = c.fake.last_request_n()
    c.fake.fault(kind="http", status=502, route=r"^POST /channels/\d+/messages",
                 count=4)
    who, n = dm_trigger(c)
    dl.wait_until(lambda: "a direct message failed: 502" in
                  c.bot.stderr_text(), 15, "the bot giving up on 502s")
    time.sleep(1.0)
    reqs = requests_to(c, since, r"^POST /channels/\d+/messages")
    check([r["status"] for r in reqs] == [502] * 4,
          "a permanent 502: %r" % [r["status"] for r in reqs])
    check(c.dm_count(who) == n, "the DM arrived after all")
    c.works("after 500s")


def t_slow(c):
    """Slow answers: a slow callback is still in time, other callbacks do
    not wait behind it or behind a slow DM, and a deferred /game log is
    filled in."""
    # A callback that takes 1.5 s at the fake and a second interaction.
    c.fake.fault(kind="slow", ms=1500, route=r"/callback$")
    r1 = c.fake.interaction(dl.slash_payload("alice", "status"))
    time.sleep(0.05)
    r2 = c.fake.interaction(dl.slash_payload("bob", "status"))
    i2 = c.fake.wait(r2["id"])
    i1 = c.fake.wait(r1["id"])
    check(i1["callback"] and 1400 <= i1["age_at_callback_ms"] < 3000,
          "the slow callback: %r" % i1["age_at_callback_ms"])
    check(i2["callback"] and i2["callback_at"] < i1["callback_at"],
          "the second callback waited behind the slow one: %s ms, %s ms" %
          (i1["age_at_callback_ms"], i2["age_at_callback_ms"]))
    # Slow DMs: the callbacks still go at once.
    c.fake.fault(kind="slow", ms=2000, route=r"^POST /channels/\d+/messages",
                 count=3)
    who, n = dm_trigger(c)
    info = dl.slash(c.fake, "carol", "status")
    check(info["latency_ms"] < 500, "a callback waited behind slow DMs: "
          "%s ms" % info["latency_ms"])
    dm_arrives(c, who, n, "a slow DM", timeout=10)
    # A move whose commit waits 1.3 s for the database (another writer
    # holds it): answered in time; the status queued behind it waited
    # over a second, so it is deferred first, then filled in.
    con = sqlite3.connect(c.db, timeout=5, isolation_level=None)
    con.execute("BEGIN IMMEDIATE")
    before = c.moves()
    r1 = c.fake.interaction(c.move_payload())
    time.sleep(0.1)
    r2 = c.fake.interaction(dl.slash_payload("carol", "status"))
    time.sleep(1.3)
    con.execute("ROLLBACK")
    con.close()
    i1 = c.fake.wait(r1["id"])
    rows = c.moves()
    check(i1["callback"] and i1["callback"]["type"] == 4 and
          1200 < i1["age_at_callback_ms"] < 3000 and
          rows[len(before):] and rows[-1][1] == r1["id"],
          "the move behind a busy database: %r" % i1["age_at_callback_ms"])
    c.after_move(i1)
    i2 = c.fake.wait(r2["id"])
    check(i2["callback"] and i2["callback"]["type"] == 5 and
          i2["age_at_callback_ms"] < 3000, "the status queued behind it: "
          "%r, %s ms" % (i2["callback"], i2["age_at_callback_ms"]))
    orig = dl.wait_until(lambda: (lambda o: o if o and dl.message_text(o)
                                  else None)(c.fake.wait(r2["id"])[
                                      "original"]), 10,
                         "the deferred status")
    # Deferred as the answer is: /game status (no public:yes) is carol's
    # alone.
    check("Waiting for" in dl.message_text(orig) and
          orig["_fake"]["ephemeral"] and
          orig["_fake"]["audience"] == dl.USERS["carol"],
          "the deferred status: %r" % dl.message_text(orig)[-200:])
    # /game log answers late by design: deferred, then filled in, also
    # when the deferral itself is slow to be acknowledged.
    for slow in (False, True):
        if slow:
            c.fake.fault(kind="slow", ms=400, route=r"/callback$")
        # the whole account, then alice's catch-up
        info = dl.slash(c.fake, "alice", "log",
                        None if slow else dl.options(since="start"))
        check(info["callback"]["type"] == 5, "/game log was not deferred")
        orig = dl.wait_until(lambda: (lambda o: o if o and o["content"]
                                      else None)(c.fake.wait(info["id"])[
                                          "original"]), 10,
                             "the deferred /game log")
        # alice's catch-up: the answers since her last one, or, when the
        # last answer was hers, that nothing happened since.
        want = ("**Game #1**, since ",
                "Game #1: nothing has happened since your last answer") \
            if slow else ("**Game #1**, 2 moves",)
        check(orig["_fake"]["ephemeral"] and
              orig["content"].startswith(want),
              "the deferred log: %r" % orig["content"][:200])
    c.works("after slow answers")


def t_dm_closed(c):
    """50007: a channel notice naming no card, with a button that shows the
    hand to that player alone, and to the player who decides also the
    prompt, whose buttons answer it."""
    names = card_names(c)
    who = c.decider
    c.fake.post("/dm_closed", {"user_id": dl.USERS[who]})
    before = len(c.fake.messages(channel=dl.CHANNEL))
    dl.slash(c.fake, who, "hand")

    def notice():
        for m in c.fake.messages(channel=dl.CHANNEL)[before:]:
            if any(x.get("custom_id") == "h:1" for x in dl.custom_ids(m)):
                return m
        return None
    m = dl.wait_until(notice, 10, "the notice for closed DMs")
    text = dl.message_text(m)
    check(dl.USERS[who] in text and not [n for n in names if n in text],
          "the notice: %r" % text)
    check(m["_fake"]["via"] == "channel" and not m["_fake"]["ephemeral"],
          "the notice is not a channel message")
    info = dl.click(c.fake, "mallory", "h:1", message_id=m["id"])
    check(dl.is_ephemeral(info) and "not playing" in dl.answer_text(info),
          "a non-player's Show my hand: %r" % info["callback"])
    refused = c.fake.stats().get("dm_refused", 0)
    check(refused >= 1, "no DM was refused")
    for p in ([x for x in PLAYERS if x != who][0], who):
        info = dl.click(c.fake, p, "h:1", message_id=m["id"])
        head = HAND_HEAD.search(dl.answer_text(info))
        check(dl.is_ephemeral(info) and head and head.group(1) == p,
              "%s's Show my hand: %r" % (p, info["callback"]))
    # The decider's prompt came with the hand, ephemeral, with buttons,
    # and no DM was tried.
    prompt = dl.wait_until(lambda: [f for f in c.fake.wait(info["id"])[
        "followups"] if dl.custom_ids(f)], 10, "the prompt after Show my hand")
    time.sleep(0.3)
    check(c.fake.stats().get("dm_refused", 0) == refused,
          "Show my hand tried a DM again")
    f = prompt[0]
    check(f["_fake"]["ephemeral"] and f["_fake"]["audience"] ==
          dl.USERS[who] and "Your turn" in f["content"],
          "the prompt follow-up: %r" % f["content"][:200])
    comp = dl.custom_ids(f)[0]
    before = c.moves()
    values = [comp["options"][0]["value"]] if comp["type"] == 3 else None
    click = dl.click(c.fake, who, comp["custom_id"], values,
                     message_id=f["id"])
    rows = c.moves()
    check(click["callback"]["type"] == 7 and len(rows) == len(before) + 1
          and rows[-1][1] == click["id"],
          "a click on the ephemeral prompt: %r" % click["callback"])
    c.fake.post("/dm_closed", {"user_id": dl.USERS[who], "closed": False})
    c.decider = c.status_decider()


def t_dm_closed_remembered(c):
    """After Discord refused a member's DMs (50007), no DM is tried on the
    next games' deals, until the member uses a command again: then DMs are
    tried once more (and refused, as the DMs are still closed). dave joins
    four lobbies (one per channel) while his DMs are open; carol starts
    them one by one after they closed: each start deals dave a hand
    without any doing of his. Each game's channel is told once that his
    DMs are closed, and not again after a restart."""
    chans = ["11870000000000002%02d" % k for k in (4, 5, 6, 7)]
    for ch in chans:
        info = dl.slash(c.fake, "carol", "new", dl.options(
            kind="supervillain"), channel=ch)
        check(not dl.is_ephemeral(info), "new: %s" % dl.answer_text(info))
        info = dl.slash(c.fake, "dave", "join", channel=ch)
        check(not dl.is_ephemeral(info), "join: %s" % dl.answer_text(info))
    c.fake.post("/dm_closed", {"user_id": dl.USERS["dave"]})

    def deal(ch, what):
        info = dl.slash(c.fake, "carol", "start", channel=ch)
        check(not dl.is_ephemeral(info), "%s: start: %s" %
              (what, dl.answer_text(info)))

    def refused():
        return c.fake.stats().get("dm_refused", 0)

    r0 = refused()
    deal(chans[0], "deal 1")
    dl.wait_until(lambda: refused() > r0, 10, "the first refused DM")
    time.sleep(0.5)
    r1 = refused()
    for k in range(2):
        deal(chans[k + 1], "deal %d" % (k + 2))
        time.sleep(1.0)
        check(refused() == r1, "deal %d: a DM was tried again though "
              "Discord had refused them (%d refused, %d before)" %
              (k + 2, refused(), r1))
    # dave uses a command: DMs are tried again at the next deal.
    dl.slash(c.fake, "dave", "status", channel=chans[2])
    deal(chans[3], "after dave's command")
    dl.wait_until(lambda: refused() > r1, 10,
                  "a DM tried again after dave's command")
    wait_notices(c, chans[3], 1, "the notice in the fourth game's channel")
    # One notice per game, for good. In the first game (told at its deal)
    # and the second (never told: no DM was tried there), carol plays
    # until dave decides, so that his /game hand tries a DM again. The
    # first game's channel is not told again, before a restart as after
    # it; the second's is told once.
    for ch in chans[:2]:
        until_decides(c, "dave", ch)
    for restart in (False, True):
        if restart:
            c.bot.stop()
            wait_buckets(c)
            c.start_bot()
        r2 = refused()
        dl.slash(c.fake, "dave", "hand", channel=chans[0])
        dl.wait_until(lambda: refused() > r2, 10, "a refused DM for /game "
                      "hand%s" % (" after a restart" if restart else ""))
        time.sleep(0.5)
        check(notices(c, chans[0]) == 1, "%d notices in the first game's "
              "channel%s" % (notices(c, chans[0]),
                             " after a restart" if restart else ""))
    dl.slash(c.fake, "dave", "hand", channel=chans[1])
    wait_notices(c, chans[1], 1, "the notice in the second game's channel")
    c.fake.post("/dm_closed", {"user_id": dl.USERS["dave"], "closed": False})
    for ch in chans:
        dl.slash(c.fake, "mallory", "abort", channel=ch,
                 perms=dl.MOD_PERMISSIONS)


def until_decides(c, who, channel):
    """Lets whoever decides in channel's game answer (the turn's end, or
    else the first option) until it is who's decision."""
    for _ in range(60):
        info = dl.slash(c.fake, "mallory", "status", channel=channel)
        m = WAITING.search(dl.answer_text(info))
        check(m, "status in %s said %r" % (channel, dl.answer_text(info)))
        if m.group(1) == who:
            return
        ch = dl.autocomplete(c.fake, m.group(1), "move", "choice", "",
                             channel=channel)
        # The turn's end where it is offered: the first option may be a
        # play that can be made again and again (Minion Recyclers, Swift,
        # takes itself back from the discard pile).
        ends = [o for o in dl.autocomplete(c.fake, m.group(1), "move",
                                           "choice", "end", channel=channel)
                if o["value"] == "end"]
        dl.slash(c.fake, m.group(1), "move",
                 dl.options(choice=(ends or ch)[0]["value"]), channel=channel)
    raise dl.Fail("%s never decides in %s" % (who, channel))


def notices(c, channel):
    """The notices for closed DMs in channel (their Show my hand
    button)."""
    return len([m for m in c.fake.messages(channel=channel)
                if any(x.get("custom_id", "").startswith("h:")
                       for x in dl.custom_ids(m))])


def wait_notices(c, channel, n, what):
    dl.wait_until(lambda: notices(c, channel) >= n, 10, what)
    time.sleep(0.3)
    check(notices(c, channel) == n, "%s: %d notices, not %d" %
          (what, notices(c, channel), n))


def card_names(c):
    if c.card_names is None:
        sys.path.insert(0, os.path.join(dl.ROOT, "tests", "local"))
        import lairlocal as ll
        c.card_names = set(ll.cards(c.binary))
    return c.card_names


# == commands, moderators, DMs ==============================================

def t_dm_commands(c):
    """Slash commands in a DM act on the player's game."""
    who = c.decider
    info = dl.slash(c.fake, who, "hand", dm=True)
    head = HAND_HEAD.search(dl.answer_text(info))
    check(dl.is_ephemeral(info) and head and head.group(1) == who,
          "/game hand in a DM: %r" % info["callback"])
    ch = c.choices(dm=True)
    check(ch, "autocomplete in a DM offered nothing")
    before = c.moves()
    n = len(c.fake.messages(channel=dl.CHANNEL))
    info = dl.slash(c.fake, who, "move", dl.options(choice=ch[0]["value"]),
                    dm=True)
    rows = c.moves()
    check(len(rows) == len(before) + 1 and rows[-1][1] == info["id"],
          "a move in a DM was not applied: %s" % dl.answer_text(info))
    check(not info["callback_errors"], "callback errors")
    # The mover reads what the move did in the answer (their turn, to them
    # alone); the channel's turn message tells it too.
    text = dl.answer_text(info)
    check("You chose: " in text and "**This turn:**" in text,
          "the answer in the DM: %r" % text)
    turn = text.split("**This turn:**\n", 1)[1].split("\n\n")[0]
    rows = turn.split("\n")
    last = max(i for i, x in enumerate(rows) if x.startswith("You chose: "))
    prev = [i for i, x in enumerate(rows[:last])
            if x.startswith("You chose: ")]
    mine = rows[(prev[-1] + 1 if prev else 0):last]
    said = next((x for x in mine if x.startswith(who)), None)
    check(said, "the move's public line in %r" % turn)
    dl.wait_until(lambda: said in dl.channel_text(c.fake), 15,
                  "the move's public line in the channel")
    c.decider = c.status_decider()
    other = [p for p in PLAYERS if p != c.decider][0]
    info = dl.slash(c.fake, other, "move", dl.options(choice="end"), dm=True)
    check(dl.is_ephemeral(info) and "not your decision" in
          dl.answer_text(info), "out of turn in a DM: %s" %
          dl.answer_text(info))
    # /game list in a DM: the player's own games, with their channels.
    info = dl.slash(c.fake, who, "list", dm=True)
    text = dl.answer_text(info)
    check(dl.is_ephemeral(info) and text.startswith("Your games:") and
          "in <#%s>" % dl.CHANNEL in text and "running" in text,
          "/game list in a DM: %r" % text)
    info = dl.slash(c.fake, "1187000000499999999", "list", dm=True)
    check("You have no games yet" in dl.answer_text(info),
          "/game list in a stranger's DM: %r" % dl.answer_text(info))


def t_many_games(c):
    """More open games than the bot keeps loaded (64): the least recently
    used are dropped and load again when touched; the running game still
    takes a move."""
    # Each lobby has its own opener: a member may sit in at most
    # games_per_member (10) open games.
    for i in range(300):
        info = dl.slash(c.fake, str(1187000000400000000 + i), "new",
                        dl.options(kind="supervillain"),
                        channel=str(1187000000300000000 + i))
        check(not dl.is_ephemeral(info), "lobby %d: %s" % (i, dl.answer_text(
            info)))
    info = dl.slash(c.fake, str(1187000000400000000 + 299), "join",
                    channel=str(1187000000300000000 + 299))
    check(dl.is_ephemeral(info) and "already joined" in dl.answer_text(info),
          "the newest lobby: %s" % dl.answer_text(info))
    before = c.moves()
    c.decider = c.status_decider()
    r = c.fake.interaction(c.move_payload())
    info = c.fake.wait(r["id"])
    rows = c.moves()
    check(len(rows) == len(before) + 1 and rows[-1][1] == r["id"],
          "game 1 after 300 lobbies: %s" % dl.answer_text(info))
    c.after_move(info)
    info = dl.slash(c.fake, str(1187000000400000000), "status",
                    channel=str(1187000000300000000))
    check("waiting for players" in dl.answer_text(info),
          "the oldest lobby: %s" % dl.answer_text(info))


def t_moderators(c):
    """/gamemod abort: a member with Manage Server may, a plain member not."""
    dl.slash(c.fake, "dave", "new", dl.options(kind="supervillain"),
             channel=CHANNEL3)
    info = dl.slash(c.fake, "mallory", "abort", channel=CHANNEL3)
    check(dl.is_ephemeral(info) and "Only moderators" in
          dl.answer_text(info), "a plain member aborted: %s" %
          dl.answer_text(info))
    info = dl.slash(c.fake, "mallory", "abort", channel=CHANNEL3,
                    perms=dl.MOD_PERMISSIONS)
    check(not dl.is_ephemeral(info) and "was ended by mallory" in
          dl.answer_text(info), "a moderator could not abort: %s" %
          dl.answer_text(info))


def health(c, *args):
    """`lair health ARGS` beside the bot (same LAIR_DB): (status, stdout)."""
    env = dict(dl.sanitizer_env(), LAIR_DB=c.db)
    env.pop("DISCORD_TOKEN", None)
    p = subprocess.run([c.binary, "health"] + list(args), env=env,
                       stdin=subprocess.DEVNULL, capture_output=True,
                       text=True, timeout=30)
    return p.returncode, p.stdout + p.stderr


def t_health(c):
    """`lair health`: ok while the bot hears from Discord; not ok once it
    heard nothing for longer than --max-age (the bot killed); a restarted
    bot removes the old file and is ok again once it hears from Discord."""
    alive = c.db + "-alive"
    r = dl.wait_until(lambda: (lambda r: r if r[0] == 0 else None)(
        health(c)), 12, "lair health to say ok")
    check("lair health: ok" in r[1], "lair health said %r" % (r,))
    c.bot.kill()
    killed = os.stat(alive).st_mtime
    time.sleep(3.5)  # the file is at least that old now
    rc, out = health(c, "--max-age", "3")
    check(rc == 1 and "nothing heard from Discord for" in out,
          "lair health of a killed bot: %d %r" % (rc, out))
    wait_buckets(c)
    c.start_bot()
    # The new process removed the old file at its start and touches a new
    # one once it has heard from Discord.
    dl.wait_until(lambda: os.path.exists(alive) and
                  os.stat(alive).st_mtime > killed + 1, 12,
                  "the restarted bot's health file")
    rc, out = health(c, "--max-age", "10")
    check(rc == 0, "lair health after the restart: %d %r" % (rc, out))
    c.works("after the health check's restart")


def t_restart_commands(c):
    """A restart with unchanged commands does not PUT them again."""
    c.bot.stop()
    wait_buckets(c)
    c.start_bot()
    puts = c.fake.get("/commands")["puts"]
    check(puts == {"global": 1}, "commands PUT again: %r" % puts)
    check("slash commands unchanged" in c.bot.stderr_text(), "no log line")
    c.works("after a restart")


def wait_buckets(c):
    """A new process cannot know the rate-limit buckets its predecessor
    emptied, and the fake counts a 429 on one as unexpected: the message
    windows (5 s) of the old process pass before a new one starts."""
    posts = [r["at"] for r in c.fake.requests()
             if re.match(r"POST /channels/\d+/messages$",
                         "%s %s" % (r["method"], r["path"]))]
    if posts:
        time.sleep(max(0.0, posts[-1] + 5.2 - time.time()))


def t_guild_and_role(c):
    """LAIR_GUILD_ID registers to that guild; LAIR_MOD_ROLE makes
    moderators."""
    db = os.path.join(c.tmp, "b.db")
    bot = dl.Bot(c.binary, c.fake, db, env={"LAIR_GUILD_ID": dl.GUILD,
                                             "LAIR_MOD_ROLE": MOD_ROLE})
    try:
        st = c.fake.get("/commands")
        check(st["puts"].get(dl.GUILD) == 1 and
              [x["name"] for x in st["commands"][dl.GUILD]] == ["game", "gamemod", "prefs"],
              "guild commands: %r" % st["puts"])
        check("this server only" in bot.stderr_text(), "no log line")
        reqs = [r for r in c.fake.requests() if r["method"] == "PUT"]
        check(reqs[-1]["path"] == "/applications/%s/guilds/%s/commands" %
              (dl.APP_ID, dl.GUILD), "PUT %s" % reqs[-1]["path"])
        ch = "1187000000000000204"
        dl.slash(c.fake, "dave", "new", dl.options(kind="supervillain"),
                 channel=ch)
        info = dl.slash(c.fake, "mallory", "abort", channel=ch)
        check(dl.is_ephemeral(info), "a plain member aborted")
        info = dl.slash(c.fake, "mallory", "abort", channel=ch,
                        roles=[MOD_ROLE])
        check(not dl.is_ephemeral(info) and "was ended by" in
              dl.answer_text(info), "the moderator role could not abort: "
              "%s" % dl.answer_text(info))
        bot.stop()
    finally:
        bot.close()
    c.wait_connected("bot A again", timeout=15)


def t_fatal(c):
    """4004 and 4010-4014: exit non-zero, naming the code; a refused
    token: the same at start-up. The token is in no log line. (Gateway
    faults hit every connection: bot A leaves first, with SIGTERM.)"""
    c.bot.stop()
    check(dl.TOKEN not in c.bot.all_stderr(), "the token is in the log")
    c.bot = None
    for code in (4004, 4010, 4011, 4012, 4013, 4014):
        # Each process fetches GET /gateway/bot (2 per 5 s): fresh buckets.
        c.fake.post("/reset", {"gateway": True})
        bot = dl.Bot(c.binary, c.fake, os.path.join(c.tmp, "f.db"))
        try:
            c.fake.fault(kind="close", code=code)
            rc = bot.wait_exit(20)
            text = bot.logs[-1]
            check(rc != 0, "after %d the bot exited %d" % (code, rc))
            line = [x for x in text.splitlines()
                    if str(code) in x and "not reconnecting" in x]
            check(line, "no log line names %d:\n%s" % (code, text[-1500:]))
            check(dl.TOKEN not in text and "Sanitizer" not in text,
                  "the log after %d:\n%s" % (code, text[-1500:]))
        finally:
            bot.close()
    c.fake.post("/reset", {"gateway": True})
    bot = dl.Bot(c.binary, c.fake, os.path.join(c.tmp, "f.db"),
                 env={"DISCORD_TOKEN": "wrong-token-123"}, wait=False)
    try:
        rc = bot.wait_exit(20)
        text = bot.logs[-1]
        check(rc != 0 and "token was refused" in text and
              "wrong-token-123" not in text and "Sanitizer" not in text,
              "a refused token: exit %d\n%s" % (rc, text[-1500:]))
    finally:
        bot.close()
    new = c.fake.get("/violations")
    check(new and all(v["kind"] == "auth" for v in new),
          "violations of the refused token: %r" % new)
    c.expected_violations = len(new)


TESTS = [
    ("stop_acks", t_stop_acks), ("op1", t_op1), ("op7", t_op7),
    ("close_4007", t_close_4007), ("op7_before_hello", t_op7_before_hello),
    ("op9_resumable", t_op9_resumable), ("drop", t_drop),
    ("dup_after_resume", t_dup_after_resume),
    ("close_resume", t_close_resume), ("429", t_429), ("500", t_500),
    ("close_4009", t_close_4009), ("slow", t_slow),
    ("dm_closed", t_dm_closed),
    ("dm_closed_remembered", t_dm_closed_remembered),
    ("dm_commands", t_dm_commands),
    ("op9_new_session", t_op9_new_session), ("many_games", t_many_games),
    ("moderators", t_moderators),
    ("health", t_health), ("restart_commands", t_restart_commands),
    ("guild_and_role", t_guild_and_role), ("fatal", t_fatal),
]


def run(binary, openapi, tmp):
    only = sys.argv[3:] if len(sys.argv) > 3 else None
    c = Ctx(binary, openapi, tmp)
    c.expected_violations = 0
    done = []
    try:
        setup(c)
        for name, fn in TESTS:
            if only and name not in only:
                continue
            t0 = time.monotonic()
            fn(c)
            v = c.fake.violations()
            check(len(v) == c.expected_violations,
                  "%s: the fake saw violations: %s" % (
                      name, json.dumps(v[c.expected_violations:][:3],
                                       indent=1)))
            st = c.fake.stats()
            check(st["unexpected_429"] == 0 and not
                  st["response_mismatches"], "%s: %r" % (name, st))
            done.append("%s %.1fs" % (name, time.monotonic() - t0))
            print("  ok %-18s %.1f s" % (name, time.monotonic() - t0),
                  flush=True)
        if c.bot:
            c.bot.stop()
            check(dl.TOKEN not in c.bot.all_stderr(), "the token in a log")
    finally:
        if c.bot:
            c.bot.close()
        c.fake.stop()
    return "%d tests passed" % len(done)


if __name__ == "__main__":
    sys.exit(dl.main("discord_faults", run))
