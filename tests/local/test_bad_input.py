#!/usr/bin/env python3
"""local_bad_input: every kind of bad input is refused and changes nothing.

Each case sends one bad line to `lair local --json` and checks that the
answer is exactly one ephemeral message, to the sender, with the expected
error text (so no channel message), and that nothing changed: the !dump
of the game and the whole database (every row of every table) are the
same before and after. Cases run in the lobby and during a running game,
including a `choice` label shared by two options (found by playing seeded
random moves until a prompt has such a label). Finally a real moderator
(--mod) can do what the players were refused, so the refusals are about
who asked.
"""

import collections
import random
import sqlite3
import sys

import lairlocal as ll

SEED = 41
# The list grows with the command table; its start is stable.
COMMANDS = "new, join, leave, start, status, hand, move, undo, pile, log, list"


def db_rows(db):
    """Every row of every table, for comparing before and after."""
    con = sqlite3.connect("file:%s?mode=ro" % db, uri=True)
    try:
        tables = [r[0] for r in con.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' "
            "ORDER BY name")]
        return {t: sorted(con.execute('SELECT * FROM "%s"' % t).fetchall(),
                          key=repr)
                for t in tables}
    finally:
        con.close()


class Cases:
    def __init__(self, lair):
        self.lair = lair
        self.names = []

    def refused(self, name, line, user, *texts):
        """line must get one ephemeral reply to user containing every one
        of texts, and leave the game and the database as they were."""
        lair = self.lair
        state, rows = lair.dump(), db_rows(lair.db)
        out = lair.send(line)
        ll.check(len(out) == 1,
                 "%s: %r gave %d messages: %r" % (name, line, len(out), out))
        m = out[0]
        ll.check(m["to"] == "ephemeral" and m["user"] == user,
                 "%s: %r answered with a %s to %s, not an ephemeral reply to "
                 "%s: %r" % (name, line, m["to"], m["user"], user, m["text"]))
        for t in texts:
            ll.check(t in m["text"], "%s: %r said %r, which lacks %r" %
                     (name, line, m["text"], t))
        ll.check(lair.dump() == state, "%s: %r changed the game" %
                 (name, line))
        ll.check(db_rows(lair.db) == rows, "%s: %r changed the database" %
                 (name, line))
        self.names.append(name)
        return m["text"]

    def ok(self, line):
        out = self.lair.send(line)
        ll.check(out and not any(m["to"] == "ephemeral" for m in out),
                 "%r was refused: %r" % (line, out))
        return out


def run(binary, tmp):
    lair = ll.Lair(binary, tmp + "/bad.db", SEED, mods=["mod"])
    c = Cases(lair)
    R = c.refused

    # Before any game.
    R("no game yet", "alice> /game start", "alice",
      "There is no game in this channel. Open one with /game new "
      "kind:<game>")
    R("malformed value (seats:abc)",
      "alice> /game new kind:supervillain seats:abc", "alice",
      "Option 'seats' must be a whole number from 2 to 8, not 'abc'.")
    R("seats out of the game's range",
      "alice> /game new kind:supervillain seats:5", "alice",
      "is for 2 to 4 players, not 5.")
    # Every game Lair hosts, in the registry's order (lairlocal's GAMES).
    R("unknown game", "alice> /game new kind:chess", "alice",
      "Lair has no game called 'chess'. It has: %s." % ", ".join(ll.GAMES))
    R("unknown mode", "alice> /game new kind:supervillain mode:turbo",
      "alice", "Mode 'turbo'")
    c.ok("alice> /game new kind:supervillain")

    # In the lobby.
    R("second game in the channel", "bob> /game new kind:supervillain",
      "bob", "This channel already has 1 open game (the limit is 1).")
    R("starting without enough players", "alice> /game start", "alice",
      "needs at least 2 players; game #1 has 1. Game #1 (Supervillain: This "
      "Galaxy Is Mine!) is waiting for players (alice so far). Others join "
      "with /game join")
    R("joining twice (the creator)", "alice> /game join", "alice",
      "You have already joined game #1.")
    c.ok("bob> /game join")
    R("joining twice", "bob> /game join", "bob",
      "You have already joined game #1.")
    R("start by someone else", "bob> /game start", "bob",
      "Only the player who opened game #1 or a moderator can start it.")
    R("leaving a game one is not in", "carol> /game leave", "carol",
      "You are not in game #1.")
    R("unknown command", "alice> /game frobnicate", "alice",
      "Unknown command '/game frobnicate'. The /game commands are: %s"
      % COMMANDS)
    R("not a /game command", "alice> /roll d20", "alice",
      "Unknown command '/roll d20'. Lair's commands are /game")
    R("unknown option", "bob> /game join colour:red", "bob",
      "/game join has no option 'colour'.")
    R("option given twice", "carol> /game join game:1 game:1", "carol",
      "Option 'game' was given twice.")
    R("unreadable option", "carol> /game join =red", "carol",
      "Cannot read '=red': options are written name:value.")
    R("missing required option", "alice> /game move", "alice",
      "/game move needs the option 'choice'")
    R("game that does not exist", "carol> /game join game:999", "carol",
      "Game #999 cannot be used: there is no such game.")
    R("move in the lobby", "alice> /game move choice:end", "alice",
      "Game #1 (Supervillain: This Galaxy Is Mine!) is waiting for players "
      "(alice, bob so far). Nothing is played before it starts: join with "
      "/game join")
    for cmd, args in (("abort", ""), ("kick", " user:bob"),
                      ("settings", " key:games_per_channel value:3")):
        R("moderator command by a player (%s, lobby)" % cmd,
          "alice> /gamemod %s%s" % (cmd, args), "alice",
          "Only moderators can use /gamemod %s " % cmd)
    R("line without NAME>", "/game join", "table",
      "Write NAME> /game ... (NAME: letters, digits, _ - or ., at most 32).")
    R("NAME without the space", "carol>/game join", "table",
      "Write NAME> /game ...")
    R("bad NAME", "car ol> /game join", "table", "Write NAME> /game ...")
    R("request id without a line", "@ carol> /game join", "table",
      "A request id is written @ID before the name.")
    R("table control typo", "!restrat", "table",
      "Table controls: !restart, !advance DURATION")
    R("malformed !advance", "!advance soon", "table", "Table controls:")

    out = c.ok("alice> /game start")
    user, options = ll.one_prompt(out, "alice> /game start")
    other = "bob" if user == "alice" else "alice"

    # A running game.
    R("leaving a running game", "alice> /game leave", "alice",
      "is running: turn 1, waiting for bob. Leaving it forfeits your seat: "
      "the AI plays it to the end and you cannot win. To leave, repeat with "
      "/game leave confirm:yes.")
    R("joining a running game", "carol> /game join", "carol",
      "Game #1 (Supervillain: This Galaxy Is Mine!) is running: turn 1, "
      "waiting for bob. It has started, so its seats are no longer open")
    R("move out of turn", "%s> /game move choice:%s" %
      (other, options[0]["id"]), other,
      "It is not your decision now. Game #1 (Supervillain: This Galaxy Is "
      "Mine!) is running: turn 1, waiting for %s." % user)
    R("move by an onlooker", "carol> /game move choice:%s" %
      options[0]["id"], "carol", "You are not playing in game #1.")
    listed = "".join("\n- `%s` %s" % (o["id"], o["label"]) for o in options)
    R("move not among the options",
      "%s> /game move choice:conquer-the-moon" % user, user,
      "That is not one of your options. Your options:" + listed)
    R("malformed value (game:abc)",
      "%s> /game move choice:%s game:abc" % (user, options[0]["id"]), user,
      "Option 'game' must be a whole number from 1 to 1000000000, not "
      "'abc'.")
    R("game that does not exist (game:999)",
      "%s> /game move choice:%s game:999" % (user, options[0]["id"]), user,
      "Game #999 cannot be used: there is no such game.")
    R("unknown option of move", "%s> /game move choice:%s speed:3" %
      (user, options[0]["id"]), user, "/game move has no option 'speed'.")
    for cmd, args in (("abort", ""), ("kick", " user:bob"),
                      ("settings", "")):
        R("moderator command by a player (%s, running)" % cmd,
          "bob> /gamemod %s%s" % (cmd, args), "bob",
          "Only moderators can use /gamemod %s " % cmd)
    R("line without NAME> (running)", "/game move choice:%s" %
      options[0]["id"], "table", "Write NAME> /game ...")
    R("table control typo (running)", "!dump", "table", "Table controls:")

    # Play on until some prompt offers two options with the same label.
    rng = random.Random(SEED)
    moves = 0
    while True:
        labels = collections.Counter(o["label"] for o in options)
        twice = sorted(l for l, n in labels.items() if n > 1)
        if twice:
            break
        opt = rng.choice(options)
        line = "%s> /game move choice:%s" % (user, opt["id"])
        out = c.ok(line)
        moves += 1
        ll.check(not ll.is_over(out), "no option label came twice in a game")
        user, options = ll.one_prompt(out, line)
    R("choice matching several labels", "%s> /game move choice:%s" %
      (user, twice[0]), user,
      "That label fits several options; use an id. Your options:")
    ids = [o["id"] for o in options if o["label"] == twice[0]]
    ll.check(len(set(ids)) == len(ids) >= 2, "the shared label's ids: %r" %
             ids)

    # What players were refused, a moderator may do.
    out = lair.send("mod> /gamemod settings")
    ll.check(len(out) == 1 and out[0]["to"] == "ephemeral" and
             "`games_per_channel` = 1" in out[0]["text"],
             "a moderator's /gamemod settings: %r" % out)
    out = c.ok("mod> /gamemod abort")
    ll.check(out[0]["to"] == "channel" and
             out[0]["text"] == "Game #1 was ended by mod.",
             "a moderator's /gamemod abort: %r" % out)
    R("move in an aborted game", "%s> /game move choice:%s" % (user, ids[0]),
      user, "There is no game in this channel. Open one with /game new")
    lair.close()
    return "%d bad inputs refused with their error text, no channel " \
           "message, state and database unchanged (a shared label found " \
           "after %d moves: '%s')" % (len(c.names), moves, twice[0])


if __name__ == "__main__":
    sys.exit(ll.main("local_bad_input", run))
