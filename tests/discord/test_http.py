#!/usr/bin/python3
"""discord_http: interactions over HTTP (LAIR_HTTP_PORT) against the fake
Discord, which POSTs them to the bot's endpoint signed with its own
Ed25519 key instead of sending them over the gateway.

- Setting the endpoint passes Discord's own checks (the fake's): a signed
  PING gets a PONG, one with a bad signature 401. The bot opens no
  gateway session.
- Every kind of bad request (bad, foreign, missing, odd-length and non-hex
  signatures, a missing timestamp, a body changed after signing, stale
  and future timestamps, GET, PUT, another path, an oversized body, a
  wrong Content-Type, an empty body) is refused with its status (401,
  404, 405, 413, 415, 400) at once, and nothing else happens: no REST request, no message,
  no game; the log names no signature, token or interaction id of them.
- A game played through HTTP: /game new, /game join, the lobby's Join
  button (an update in the HTTP response), /game start, moves clicked on
  the "Your turn" DMs' buttons, an autocomplete, a DM's /game hand, and
  /game board, whose picture goes to the callback endpoint as multipart
  while the request gets 202. Each answer reaches the fake within 3 s.
- Slow commands: while the test holds the database's write lock, a
  /game join and a click wait in the worker; the endpoint defers them
  itself at 2.5 s (type 5, type 6), within Discord's 3 s, and their
  answers come later as an edit of the deferred message and of the
  clicked message.
- No violation; SIGTERM ends the bot with status 0 and no sanitizer
  report.
"""

import re
import sqlite3
import threading
import time

import discordlib as dl
from discordlib import check

GAME = 1
BAD_KINDS = ["bad_signature", "wrong_key", "no_signature", "no_timestamp",
             "odd_hex", "non_hex", "tampered_body", "stale", "future",
             "get", "put", "wrong_path", "oversized", "content_type",
             "empty"]


def answered_in_time(info, what):
    check(info["callback"] is not None, "%s: no answer" % what)
    check(not info["callback_errors"], "%s: callback errors %r" %
          (what, info["callback_errors"]))
    check(info["age_at_callback_ms"] < 3000,
          "%s: answered %s ms after it was sent" %
          (what, info["age_at_callback_ms"]))
    return info


def http_slash(fake, who, sub, opts=None, status=200, **kw):
    info = answered_in_time(dl.slash(fake, who, sub, opts, **kw),
                            "/game %s by %s" % (sub, who))
    if info["http_status"] is None:  # a 202 follows the REST callback
        info = dl.wait_until(
            lambda: (lambda i: i["http_status"] is not None and i)(
                fake.get("/interaction/%s" % info["id"])),
            3, "the HTTP response to /game %s" % sub)
    check(info["http_status"] == status,
          "/game %s: HTTP %s, want %s" % (sub, info["http_status"], status))
    return info


def bad_requests(fake, bot, db):
    """Every bad kind: refused with its status, nothing else happens."""
    since = fake.last_request_n()
    secrets_seen = []
    for kind in BAD_KINDS:
        r = fake.post("/interaction", dict(
            dl.slash_payload("mallory", "new",
                             dl.options(kind="supervillain")),
            http_bad=kind))
        check(r["status"] == r["want"], "%s: HTTP %s (%r), want %s" %
              (kind, r["status"], r["body"], r["want"]))
        check(len(r["body"]) < 80 and "\n" in r["body"],
              "%s: the refusal's body is not a short line: %r" %
              (kind, r["body"]))
        check(r["ms"] < 1000, "%s: refused after %s ms" % (kind, r["ms"]))
        secrets_seen += [r["id"], r["token"], r["signature"]]
    time.sleep(1.0)  # anything the bot would do, it would have begun
    for iid in secrets_seen[::3]:
        info = fake.get("/interaction/%s" % iid)
        check(info["callback"] is None, "a refused request was answered: %r"
              % info["callback"])
    reqs = fake.requests(since)
    check(not reqs, "a refused request made the bot call Discord: %r" %
          [(q["method"], q["path"]) for q in reqs])
    check(not fake.messages(), "a refused request made a message")
    check(dl.db_read(db, "SELECT COUNT(*) FROM games")[0][0] == 0,
          "a refused request made a game")
    log = bot.stderr_text()
    for s in secrets_seen + [fake.public_key]:
        check(s not in log, "the log holds %r of a refused request" % s)
    return secrets_seen[::3]


def lobby(fake):
    """/game new by alice, /game join by bob, carol's click on Join."""
    info = http_slash(fake, "alice", "new", dl.options(kind="supervillain"))
    check("opened game #1" in dl.answer_text(info),
          "/game new: %r" % dl.answer_text(info))
    http_slash(fake, "bob", "join")
    lobby_msg = info["original"]
    check(lobby_msg is not None, "no lobby message")
    join = [c["custom_id"] for c in dl.custom_ids(lobby_msg)
            if c.get("custom_id", "").startswith("j:")]
    check(join, "the lobby has no Join button: %r" % lobby_msg)
    p = {"type": 3, "data": {"custom_id": join[0]}, "message_id":
         lobby_msg["id"], "guild_id": dl.GUILD, "channel_id": dl.CHANNEL,
         "member": dl.member("carol")}
    r = fake.interaction(p)
    click = answered_in_time(fake.wait(r["id"]), "carol's Join")
    check(click["http_status"] == 200 and click["callback"]["type"] == 7,
          "the Join click: HTTP %s, callback %r" %
          (click["http_status"], click["callback"]))
    check("carol" in dl.message_text(click["callback"]["data"]),
          "the lobby does not show carol: %r" % click["callback"])


def find_prompt(fake, version, players, timeout=15):
    """(who, DM message) of the prompt of game 1 at version."""
    pat = re.compile(r"^[ms]:%d:%d:" % (GAME, version))

    def find():
        for who in players:
            for m in reversed(fake.dms(who)):
                if any(pat.match(c.get("custom_id", ""))
                       for c in dl.custom_ids(m)):
                    return who, m
        return None
    return dl.wait_until(find, timeout, "the prompt of version %d" % version)


def moves(db):
    return len(dl.moves_in_db(db, GAME))


def click_move(fake, db, players, stats):
    """The decider clicks the first button of their prompt; the game moves
    on and the click is answered in time (an update of the DM)."""
    v = moves(db)
    who, m = find_prompt(fake, v, players)
    comps = [c for c in dl.custom_ids(m)
             if dl.CUSTOM_ID.match(c.get("custom_id", "")) and
             c["custom_id"].startswith("m:")]
    check(comps, "the prompt has no move buttons: %r" % m)
    info = dl.click(fake, who, comps[0]["custom_id"], message_id=m["id"])
    answered_in_time(info, "a click by %s" % who)
    check(info["http_status"] == 200, "a click: HTTP %s" % info["http_status"])
    dl.wait_until(lambda: moves(db) > v, 10, "the click's move")
    stats["clicks"] += 1
    return info


class Lock:
    """The database's write lock held by the test for `seconds`."""

    def __init__(self, db, seconds):
        self.con = sqlite3.connect(db, timeout=10, isolation_level=None,
                                   check_same_thread=False)
        self.con.execute("BEGIN IMMEDIATE")
        self.t = threading.Timer(seconds, self.release)
        self.t.start()

    def release(self):
        if self.con is not None:
            self.con.execute("COMMIT")
            self.con.close()
            self.con = None


def slow_join(fake, db):
    """dave's /game join waits for the database; the endpoint defers."""
    lock = Lock(db, 3.5)
    try:
        r = fake.interaction(dl.slash_payload("dave", "join"))
        info = answered_in_time(fake.wait(r["id"], 3500), "a slow join")
        check(info["callback"]["type"] == 5 and info["http_status"] == 200,
              "a slow join was not deferred in its HTTP response: %r, HTTP %s"
              % (info["callback"], info["http_status"]))
    finally:
        lock.t.join()
    orig = dl.wait_until(
        lambda: (lambda i: i["original"] and not i["original"]["flags"] &
                 128 and i)(fake.get("/interaction/%s" % r["id"])),
        15, "the slow join's answer")["original"]
    check("dave" in dl.message_text(orig),
          "the deferred join's edit: %r" % orig)


def slow_click(fake, db, players):
    """A move clicked while the database is locked: deferred (type 6),
    then the clicked DM is updated in place."""
    v = moves(db)
    who, m = find_prompt(fake, v, players)
    comps = [c["custom_id"] for c in dl.custom_ids(m)
             if c.get("custom_id", "").startswith("m:")]
    lock = Lock(db, 3.5)
    try:
        p = {"type": 3, "data": {"custom_id": comps[0]},
             "user": {"id": dl.USERS[who], "username": who},
             "message_id": m["id"]}
        r = fake.interaction(p)
        info = answered_in_time(fake.wait(r["id"], 3500), "a slow click")
        check(info["callback"]["type"] == 6,
              "a slow click was not deferred: %r" % info["callback"])
    finally:
        lock.t.join()
    dl.wait_until(lambda: moves(db) > v, 15, "the slow click's move")
    dl.wait_until(lambda: "You chose" in dl.message_text(
        [x for x in fake.dms(who) if x["id"] == m["id"]][0]), 15,
        "the clicked DM updated after the deferral")


def run(binary, openapi, tmp):
    db = tmp + "/lair.db"
    fake = dl.Fake(openapi, tmp)
    bot = dl.Bot(binary, fake, db, http=True)
    stats = {"clicks": 0}
    players = ["alice", "bob", "carol", "dave"]
    check(fake.gateway()["counters"].get("sessions", 0) == 0,
          "the bot opened a gateway session in HTTP mode")
    bad = bad_requests(fake, bot, db)
    lobby(fake)
    slow_join(fake, db)
    http_slash(fake, "alice", "start")
    for _ in range(4):
        click_move(fake, db, players, stats)
    choices = dl.autocomplete(fake, find_prompt(fake, moves(db), players)[0],
                              "move", "choice", "")
    check(choices, "autocomplete offered nothing")
    slow_click(fake, db, players)
    hand = http_slash(fake, "bob", "hand", dm=True)
    check("Your hand" in dl.answer_text(hand),
          "/game hand in a DM: %r" % dl.answer_text(hand))
    board = http_slash(fake, "alice", "board", status=202)
    check(board["callback"]["type"] in (4, 5),
          "/game board: %r" % board["callback"])
    for _ in range(3):
        click_move(fake, db, players, stats)
    dl.quiet(fake)
    n = dl.check_interactions(fake, lost=bad)
    st = fake.no_violations()
    bot.stop()
    fake.stop()
    return ("%d interactions over HTTP answered within 3 s (%d clicks, two "
            "deferred by the endpoint, one picture through the callback "
            "and 202), %d bad requests refused; HTTP statuses %s" %
            (n, stats["clicks"], len(BAD_KINDS),
             {k: v for k, v in st.items() if k.startswith("http_status")}))


if __name__ == "__main__":
    raise SystemExit(dl.main("discord_http", run))
