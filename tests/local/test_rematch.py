#!/usr/bin/env python3
"""local_rematch: /game rematch proposes a new game to the same people.

A 4-seat game (alice, an AI seat alice added, bob, carol) in which bob
leaves, so the AI takes his seat; a moderator ends it. carol's rematch
is a lobby, not a game: carol sits in it, the AI seat alice added comes
along, the one that stood in for bob does not, and alice and bob are
invited (pinged once, in one announcement, which names them). It cannot
start while an invitation is open (and says who is missing), it keeps
their seats from newcomers, and the invitations outlive a restart. bob
joins, alice declines with /game leave (which frees her seat for dave),
and it starts with who is there. In the next rematch a moderator
withdraws an invitation with /gamemod kick (audited). A rematch against AI
seats alone has nobody to wait for and starts at once.
"""

import os
import sqlite3
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lairlocal as ll  # noqa: E402
from lairlocal import channel, reply, send_ok  # noqa: E402


def rows(db, sql, args=()):
    con = sqlite3.connect("file:%s?mode=ro" % db, uri=True)
    try:
        return con.execute(sql, args).fetchall()
    finally:
        con.close()


def seats(db, game):
    return rows(db, "SELECT user, name FROM seats WHERE game = ? ORDER BY "
                "seat", (game,))


def invites(db, game):
    return [u for (u,) in rows(db, "SELECT user FROM invites WHERE game = ? "
                               "ORDER BY seat", (game,))]


def run(binary, tmp):
    db = os.path.join(tmp, "rematch.db")
    lair = ll.Lair(binary, db, seed=51, mods=["mod"])
    for line in ("alice> /game new kind:supervillain seats:4 ai:1",
                 "bob> /game join", "carol> /game join",
                 "alice> /game start", "bob> /game leave confirm:yes",
                 "mod> /gamemod abort"):
        send_ok(lair, line)
    ll.check([u for u, _ in seats(db, 1)][2].startswith("ai:"),
             "bob's seat did not go to the AI: %r" % seats(db, 1))

    out = send_ok(lair, "carol> /game rematch")
    text = channel(out)
    ll.check(len(text) == 1 and
             "carol asked for a rematch of game #1: game #2" in text[0] and
             "<@alice> and <@bob> are invited back" in text[0] and
             "cannot start before everyone invited has answered" in text[0],
             "the rematch was announced as %r" % text)
    for who in ("alice", "bob"):
        pings = sum(t.count("<@%s>" % who) for t in text)
        ll.check(pings == 1, "%s was pinged %d times" % (who, pings))
    ll.check(all(m.get("status") == "lobby" for m in out),
             "the rematch did not stay a lobby: %r" % out)
    got = seats(db, 2)
    ll.check(len(got) == 2 and got[0][0] == "carol" and
             got[1][0].startswith("ai:"),
             "game #2 seats %r, not carol and alice's AI seat" % got)
    ll.check(invites(db, 2) == ["alice", "bob"],
             "game #2 invites %r, not alice and bob (bob's AI seat goes "
             "back to bob)" % invites(db, 2))

    text = reply(lair.send("carol> /game start"), "carol", "an early start")
    ll.check("Game #2 cannot start yet: alice and bob are still invited"
             in text, "the early start said %r" % text)
    lair.restart()
    text = reply(lair.send("dave> /game join"), "dave", "a newcomer")
    ll.check("Game #2 is full: its other seats are kept for alice and bob"
             in text, "dave's join said %r" % text)
    out = send_ok(lair, "bob> /game join")
    ll.check(any("bob joined game #2. Players: carol, AI 2, bob. Still "
                 "invited: alice." == t for t in channel(out)),
             "bob's join said %r" % channel(out))
    text = reply(lair.send("carol> /game start"), "carol", "a start")
    ll.check("alice is still invited" in text, "the start said %r" % text)
    out = send_ok(lair, "carol> /game status public:yes")
    ll.check("Still invited: alice." in channel(out)[0],
             "the lobby's status said %r" % channel(out))
    out = send_ok(lair, "alice> /game leave")
    ll.check(any(t.startswith("alice declined the invitation to game #2. "
                              "Everyone invited has answered")
                 for t in channel(out)), "the decline said %r" % out)
    ll.check(invites(db, 2) == [], "invitations left: %r" % invites(db, 2))
    send_ok(lair, "dave> /game join")  # alice's seat is free now
    out = send_ok(lair, "carol> /game start")
    ll.check(any("starts! Seats in turn order: carol, AI 2, bob, dave." in t
                 for t in channel(out)), "game #2 started as %r" %
             channel(out))

    # The next rematch: a moderator withdraws an invitation.
    send_ok(lair, "mod> /gamemod abort")
    out = send_ok(lair, "bob> /game rematch")
    ll.check(invites(db, 3) == ["carol", "dave"],
             "game #3 invites %r" % invites(db, 3))
    out = send_ok(lair, "mod> /gamemod kick user:carol")
    ll.check(any(t.startswith("mod withdrew carol's invitation to game #3. "
                              "Still invited: dave.") for t in channel(out)),
             "the kick said %r" % channel(out))
    audit = rows(db, "SELECT action, detail FROM audit ORDER BY id DESC "
                 "LIMIT 1")
    ll.check(audit == [("kick", "carol (invited, from the lobby)")],
             "the audit log's last entry is %r" % audit)
    send_ok(lair, "dave> /game join")
    out = send_ok(lair, "bob> /game start")
    ll.check(any("Seats in turn order: bob, AI 2, dave." in t
                 for t in channel(out)), "game #3 started as %r" %
             channel(out))
    lair.close()

    # Against AI seats alone: nobody to wait for.
    db = os.path.join(tmp, "solo.db")
    lair = ll.Lair(binary, db, seed=52, mods=["mod"])
    send_ok(lair, "alice> /game new kind:supervillain ai:2")
    send_ok(lair, "alice> /game start")
    send_ok(lair, "mod> /gamemod abort")
    out = send_ok(lair, "alice> /game rematch")
    ll.check(any("starts! Seats in turn order: alice, AI 2, AI 3." in t
                 for t in channel(out)) and invites(db, 2) == [],
             "the rematch against the AI said %r" % channel(out))
    lair.close()
    return ("a rematch lobby waited for 2 invited players (one joined, one "
            "declined), kept their seats, survived a restart; a withdrawn "
            "invitation; an AI-only rematch started at once")


if __name__ == "__main__":
    sys.exit(ll.main("local_rematch", run))
