#!/usr/bin/env python3
"""local_states: every refusal names the game's state and the next step.

A player who looks in once a day types a command that does not fit where
the game stands: a move while the lobby waits for players, addai once the
game runs, a rematch before the end. For each game command and each state
(no game, lobby, running, paused by a moderator, finished) a database is
prepared, copied, and the command is sent once by the game's opener. When
the command is refused (one ephemeral answer, the database unchanged) the
answer must say where the game stands, in words, and name a command that
moves things on. Commands that act in that state are left to the other
tests; the matrix also checks that each command acts in at least one
state, so a command that refuses everything cannot pass.
"""

import os
import random
import re
import shutil
import sqlite3

import lairlocal as ll

# Each command as the opener (alice) types it; carol, who sits in no game,
# asks to join. With seed 34 alice decides first.
SEED = 34
COMMANDS = {
    "join": "carol> /game join",
    "leave": "/game leave",
    "start": "/game start",
    "status": "/game status",
    "hand": "/game hand",
    "move": "/game move choice:project",  # her first option, seed 34
    "undo": "/game undo",
    "pile": "/game pile",
    "log": "/game log",
    "export": "/game export",
    "rematch": "/game rematch",
    "addai": "/game addai",
    "deadline": "/game deadline hours:12",
    "mute": "/prefs mute",
    "vacation": "/prefs vacation days:1",
}

# What a refusal must say of each state.
STATE_WORDS = {
    "none": "There is no game in this channel",
    "lobby": "is waiting for players",
    "running": "is running",
    "paused": "is paused by a moderator",
    "finished": "is over",
}
NEXT_STEP = re.compile(r"/(game|gamemod|prefs) [a-z]+")


def rows(db):
    con = sqlite3.connect("file:%s?mode=ro" % db, uri=True)
    try:
        out = []
        for (t,) in con.execute("SELECT name FROM sqlite_master WHERE "
                                "type = 'table' ORDER BY name"):
            out.append((t, con.execute("SELECT * FROM %s" % t).fetchall()))
        return out
    finally:
        con.close()


def prepare(binary, tmp):
    """One database per state, with game #1 in it (none: no game)."""
    dbs = {}
    for state in STATE_WORDS:
        db = os.path.join(tmp, "%s.db" % state)
        lair = ll.Lair(binary, db, seed=SEED, mods=["mod"])
        if state == "lobby":
            lair.send("alice> /game new kind:supervillain")
            lair.send("bob> /game join")
        elif state in ("running", "paused"):
            ll.open_game(lair, 2)
            if state == "paused":
                lair.send("mod> /gamemod pause")
        elif state == "finished":
            finish(lair)
        elif state == "none":
            lair.send("alice> /game list")
        lair.close()
        dbs[state] = db
    return dbs


def finish(lair):
    """Plays game 1 (alice against an AI seat) to its end at random."""
    rng = random.Random(5)
    out = []
    for line in ("alice> /game new kind:supervillain mode:blitz ai:1",
                 "alice> /game start"):
        out = lair.send(line)
    for _ in range(3000):
        if ll.is_over(out):
            return
        user, options = ll.one_prompt(out, "a move")
        ll.check(user == "alice", "the AI seat did not answer")
        out = lair.send("alice> /game move choice:%s" %
                        rng.choice(options)["id"])
    raise ll.Fail("the game did not end within 3000 answers")


def run(binary, tmp):
    dbs = prepare(binary, tmp)
    refused = 0
    bad = []
    acted = {name: [] for name in COMMANDS}
    for state, db in dbs.items():
        for name, command in COMMANDS.items():
            copy = os.path.join(tmp, "try.db")
            for suffix in ("", "-wal", "-shm"):
                if os.path.exists(copy + suffix):
                    os.remove(copy + suffix)
            shutil.copy(db, copy)
            before = rows(copy)
            lair = ll.Lair(binary, copy, seed=SEED, mods=["mod"])
            out = lair.send(command if ">" in command else "alice> " + command)
            lair.close()
            changed = rows(copy) != before
            quiet = (len(out) == 1 and out[0]["to"] == "ephemeral" and
                     not changed)
            # Showing something to the asker alone is no refusal, unless
            # it says the game is not where the command fits.
            shows = name in ("status", "hand", "pile", "log", "export")
            if quiet and (not shows or STATE_WORDS[state] in out[0]["text"]):
                text = out[0]["text"]
                if STATE_WORDS[state] not in text:
                    bad.append("%s, %r: the answer does not say %r: %r" %
                               (state, command, STATE_WORDS[state], text))
                elif not NEXT_STEP.search(text.split(STATE_WORDS[state])[-1]):
                    bad.append("%s, %r: no next step after the state: %r" %
                               (state, command, text))
                refused += 1
            else:
                acted[name].append(state)
    ll.check(not bad, "%d answers:\n%s" % (len(bad), "\n".join(bad)))
    # undo refuses in every state of these fixtures (nothing to take back
    # yet); the other tests take answers back.
    idle = [n for n, states in acted.items() if not states and n != "undo"]
    ll.check(not idle, "commands that act in no state: %s" % idle)
    return ("%d commands in %d states: %d refusals name the state and the "
            "next step" % (len(COMMANDS), len(dbs), refused))


if __name__ == "__main__":
    raise SystemExit(ll.main("local_states", run))
