#!/usr/bin/env python3
"""local_pg_tables: two console tables on one PostgreSQL database see
each other's games and moves, as two Lair processes do.

Two `lair local --db postgresql://...` processes share a fresh database
on the throwaway server of tools/pg.sh (LAIR_TEST_PG). Alice opens a
Supervillain game at the first table, bob joins it at the second, and
the game is played to 60 answers, each sent to a table chosen at
random: every answer is accepted even though the other table made the
moves before it (each table notices that the game changed and reads it
again), and after each answer both tables dump the same state. Then the
same decision is sent to both tables at once: exactly one answer is
recorded, the other is refused in words, and the tables still agree. A
table restarted on the database finds the game as it was.
"""

import os
import random
import subprocess
import sys

import lairlocal as ll

sys.path.insert(0, os.path.join(ll.ROOT, "tests"))
import pg_db  # noqa: E402

ANSWERS = 60


def moves(url):
    out = subprocess.run([pg_db._psql(), "-X", "-q", "-t", "-A", "-d", url,
                          "-c", "SELECT count(*) FROM moves"],
                         capture_output=True, text=True, timeout=60)
    ll.check(out.returncode == 0, "psql failed: %s" % out.stderr)
    return int(out.stdout)


def run(binary, tmp):
    if not pg_db.server():
        if os.environ.get("LAIR_TEST_PG_REQUIRED"):
            raise ll.Fail("LAIR_TEST_PG is not set, but tools/test.sh "
                          "said PostgreSQL would be there")
        return "skipped: LAIR_TEST_PG is not set (tools/test.sh sets it)"
    with pg_db.fresh() as url:
        return play(binary, url)


def refused(out):
    return [m for m in out if m.get("to") == "ephemeral"]


def play(binary, url):
    rng = random.Random(7)
    tables = [ll.Lair(binary, url, seed=11), ll.Lair(binary, url, seed=11)]
    a, b = tables
    out = a.send("alice> /game new kind:supervillain")
    ll.check(not refused(out), "the first table refused the game: %r" % out)
    out = b.send("bob> /game join")
    ll.check(not refused(out),
             "the second table did not see alice's lobby: %r" % out)
    out = a.send("alice> /game start")
    ll.check(not refused(out),
             "the first table did not see bob join: %r" % out)
    prompt = ll.one_prompt(out, "alice> /game start")
    sent = {0: 0, 1: 0}
    for k in range(ANSWERS):
        who, options = prompt
        t = rng.randrange(2)
        opt = ll.pick(rng, options)
        line = "%s> /game move choice:%s" % (who, opt["id"])
        out = tables[t].send(line)
        ll.check(not refused(out),
                 "answer %d (%r) at table %d, after the other table's "
                 "moves, was refused: %r" % (k + 1, line, t + 1, out))
        sent[t] += 1
        ll.check(a.dump() == b.dump(),
                 "after answer %d the tables disagree on the state" % (k + 1))
        p = ll.next_prompt(out)
        if p is None:
            break
        prompt = p
    ll.check(min(sent.values()) > 0, "one table made every move")
    # The same decision at both tables at once: one answer is recorded.
    before = moves(url)
    who, options = prompt
    line = "%s> /game move choice:%s" % (who, options[0]["id"])
    a.write(line)
    b.write(line)
    outs = [a.read_answer(), b.read_answer()]
    ll.check(all(o is not None for o in outs), "a table died: %s" %
             (a.stderr_text() + b.stderr_text()))
    accepted = [o for o in outs if not refused(o)]
    ll.check(moves(url) == before + 1,
             "%d moves recorded for one decision sent twice" %
             (moves(url) - before))
    ll.check(len(accepted) == 1, "%d tables accepted the same decision" %
             len(accepted))
    loser = [o for o in outs if refused(o)][0]
    text = " ".join(m.get("text", "") for m in refused(loser))
    ll.check(any(w in text for w in ("not one of your options",
                                     "not your turn", "Another move")),
             "the refused twin does not say why: %r" % text)
    ll.check(a.dump() == b.dump(), "after the race the tables disagree")
    state = a.dump()
    b.close()
    c = ll.Lair(binary, url, seed=11)
    ll.check(c.dump() == state, "a restarted table reads another state")
    c.close()
    a.close()
    return ("%d answers at two tables (%d + %d), a twin answer recorded "
            "once, a restart agrees" % (sum(sent.values()), sent[0], sent[1]))


if __name__ == "__main__":
    sys.exit(ll.main("local_pg_tables", run))
