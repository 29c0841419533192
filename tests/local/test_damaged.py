#!/usr/bin/env python3
"""local_damaged: a damaged stored game is rebuilt, or says why it cannot go on.

A two-player game is played past its first snapshot (every 32 moves).
Then, with the process stopped, the snapshot's text is overwritten with
garbage: after a restart the game is rebuilt by replaying its stored
moves from the seed, so its state equals the one before and play goes
on. Then a stored move is made one that does not fit the rules: /game
status no longer pretends there is no game but names the game, says
exactly why it cannot continue and what a moderator can do, and a move
gets the same answer.
"""

import random
import sqlite3
import sys

import lairlocal as ll


def write(db, sql, *args):
    con = sqlite3.connect(db)
    try:
        con.execute(sql, args)
        con.commit()
    finally:
        con.close()


def run(binary, tmp):
    db = "%s/damaged.db" % tmp
    lair = ll.Lair(binary, db, 11)
    ll.play_random(lair, random.Random(5), 2, max_moves=40)
    state = lair.dump()
    lair.close()
    con = sqlite3.connect(db)
    snaps = con.execute("SELECT seq FROM snapshots WHERE game = 1").fetchall()
    con.close()
    ll.check(snaps and snaps[0][0] == 32, "no snapshot at 32: %r" % snaps)

    write(db, "UPDATE snapshots SET state = ? WHERE game = 1",
          '{"not": "a state"')
    lair = ll.Lair(binary, db, 11)
    ll.check(lair.dump() == state,
             "the game rebuilt from its moves differs from the one saved")
    out = lair.send("alice> /game status")
    ll.check(out and "cannot continue" not in out[0]["text"],
             "status after a damaged snapshot: %r" % out)
    lair.close()

    write(db, "UPDATE moves SET option = 'no-such-option' WHERE game = 1 "
          "AND seq = 3")
    lair = ll.Lair(binary, db, 11)
    want = ("Game #1 cannot continue: its move 4 no longer fits the rules. "
            "A moderator can end it with /gamemod abort game:1.")
    for line in ("alice> /game status", "bob> /game move choice:end"):
        out = lair.send(line)
        ll.check(len(out) == 1 and out[0]["to"] == "ephemeral" and
                 out[0]["text"] == want, "%r after a damaged move: %r" %
                 (line, out))
    lair.close()
    return ("a garbage snapshot rebuilt from 40 stored moves (state "
            "unchanged); a move that no longer fits: status and move say "
            "why the game cannot continue")


if __name__ == "__main__":
    sys.exit(ll.main("local_damaged", run))
