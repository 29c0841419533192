#!/usr/bin/env python3
"""local_recover: a restarted process finishes what was due before any
command: AI seats left to move answer, and timers that fell due fire.

1. A game of alice against an AI seat is played up to alice's 'end'. A
   reference copy takes the 'end' (the AI seat answers in the same
   command). On another copy the database is made as a process killed
   between alice's answer and the AI's would have left it under an older
   Lair: alice's move row alone, the game marked as waiting for an AI
   seat. A new process lets the AI answer before its first line: the
   moves equal the reference's and the mark is gone.
2. A deadline is set, then the process stops and the clock passes the
   deadline (the timers' due times are moved into the past). The next
   process fires them at once: the AI plays the rest of the late
   player's turn, and the announcement comes before the first line's own
   answer.
"""

import shutil
import sqlite3
import sys

import lairlocal as ll

MOVE_COLS = "seq, seat, kind, turn, revealed, option"


def rows(db, sql, *args):
    con = sqlite3.connect("file:%s?mode=ro" % db, uri=True)
    try:
        return con.execute(sql, args).fetchall()
    finally:
        con.close()


def write(db, *stmts):
    con = sqlite3.connect(db)
    try:
        for sql, args in stmts:
            con.execute(sql, args)
        con.commit()
    finally:
        con.close()


def to_end(lair, user, options):
    for _ in range(60):
        if any(o["id"] == "end" for o in options):
            return user
        opt = next(o for o in options if o["id"] != "end")
        line = "%s> /game move choice:%s" % (user, opt["id"])
        out = lair.send(line)
        user, options = ll.one_prompt(out, line)
    raise ll.Fail("no 'end' within 60 answers")


def run(binary, tmp):
    base = "%s/base.db" % tmp
    lair = ll.Lair(binary, base, 21)
    lair.send("alice> /game new kind:supervillain ai:1")
    out = lair.send("alice> /game start")
    user, options = ll.one_prompt(out, "start")
    user = to_end(lair, user, options)
    lair.close()
    before = rows(base, "SELECT moves FROM games WHERE id = 1")[0][0]

    ref = "%s/ref.db" % tmp
    shutil.copy(base, ref)
    lair = ll.Lair(binary, ref, 21)
    lair.send("@end %s> /game move choice:end" % user)
    lair.close()
    want = rows(ref, "SELECT %s FROM moves WHERE game = 1 ORDER BY seq" %
                MOVE_COLS)
    ll.check(len(want) > before + 1, "the AI seat did not answer in the "
             "reference run")
    human = rows(ref, "SELECT %s, request, time FROM moves WHERE game = 1 "
                 "AND seq = ?" % MOVE_COLS, before)[0]

    old = "%s/old.db" % tmp
    shutil.copy(base, old)
    write(old,
          ("INSERT INTO moves(game, seq, seat, kind, turn, revealed, option, "
           "request, time) VALUES(1, ?, ?, ?, ?, ?, ?, ?, ?)", human),
          ("UPDATE games SET moves = moves + 1, ai_due = 1 WHERE id = 1", ()))
    lair = ll.Lair(binary, old, 21)
    lair.send("alice> /game status")
    lair.close()
    got = rows(old, "SELECT %s FROM moves WHERE game = 1 ORDER BY seq" %
               MOVE_COLS)
    ll.check(got == want, "after the restart the moves are %d, the "
             "uninterrupted run's %d (first difference at %r)" %
             (len(got), len(want),
              next((i for i, (a, b) in enumerate(zip(got, want)) if a != b),
                   None)))
    ll.check(rows(old, "SELECT ai_due FROM games WHERE id = 1")[0][0] == 0,
             "the game is still marked as waiting for an AI seat")

    # 2. A deadline that passes while no process runs.
    lair = ll.Lair(binary, old, 21)
    out = lair.send("alice> /game deadline hours:2")
    ll.check(out and out[0]["to"] == "channel", "deadline: %r" % out)
    lair.close()
    n = rows(old, "SELECT moves FROM games WHERE id = 1")[0][0]
    write(old, ("UPDATE timers SET due = 0 WHERE game = 1", ()))
    lair = ll.Lair(binary, old, 21)
    out = lair.send("alice> /game status")
    lair.close()
    texts = [m["text"] for m in out if m["to"] == "channel"]
    ll.check(any("time for this turn of game #1 ran out: the AI plays the "
                 "rest" in t for t in texts),
             "no deadline announcement at start-up: %r" % texts)
    ll.check(rows(old, "SELECT moves FROM games WHERE id = 1")[0][0] > n,
             "the AI did not answer for the late player")
    return ("a game left waiting for its AI seat moved on at start-up (%d "
            "moves, as uninterrupted); a deadline passed while down fired "
            "before the first command" % len(got))


if __name__ == "__main__":
    sys.exit(ll.main("local_recover", run))
