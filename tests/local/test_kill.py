#!/usr/bin/env python3
"""local_kill: SIGKILL loses no acknowledged move and applies none twice.

A scripted game (seeded random answers and a few /game undo, recorded
from an uninterrupted reference run, every line carrying a request id
`@mvN`; a whole 2-player and 120 lines of a 4-player Supervillain game,
a whole 3-player Villainous game with its villains chosen in its first
lines, a whole 2-player Marvel Villainous game, which must show an
Event, a Stone and an invading Ally coming into play, and a whole
Disorder of the Villains game, its deck designs and Villains drafted in
its first lines, which must show an interrupt window answered with a 🧠
trait, a chain of two entries or more and a mint, and a whole Galactic
Domination game of alice against the lobby's AI seat, which must show a
ship built, an explorer warped into deep space and a ship lost) is
replayed into a real `lair local --json` process that is killed with
SIGKILL at random points: while idle between lines, right after a line
was written, a random few milliseconds into a line, after the first
message of a line (before its done), right after a restart, and after a
done that the harness then treats as lost (as a dropped reply would
be). After each kill the harness reads the database: every acknowledged
line (its {"to":"done"} arrived) must be stored, in order, once; the
line in flight at most once, right after them. A new process is started
on the same database and the unacknowledged line is resent with the
same request id: it must be applied if it was not stored, and otherwise
be refused with "That request was already handled." without a channel
message. The !dump after each restart and at the end must equal
the reference run's state after as many lines, the moves table must hold
exactly the script's requests in order (and the AI seat's answers, as
many after each line as in the reference run: a new process plays those
a killed one did not) and /game log must count them all.

Then, on the cut-short game, a few moves without request ids are made in
fresh processes, one after another: ids the console makes up itself must
not repeat those of an earlier process on the same database.
"""

import random
import re
import sys
import time

import lairlocal as ll

# (game, players, --seed, answer seed, lines to play (None: to the end),
# kills, mode (None: the game's default)[, AI seats, the last ones: their
# answers follow the line that leads to them, with request ids of their
# own])
GAMES = [("supervillain", 2, 31, 301, None, 40, None),
         ("supervillain", 4, 32, 302, 120, 15, None),
         ("villainous", 3, 34, 343, None, 30, None),
         ("marvel-villainous", 2, 52, 523, None, 25, None),
         ("disorder", 2, 96, 966, None, 30, None),
         ("galactic", 2, 51, 511, None, 30, None, 1)]
# Chances of a /game undo instead of an answer: Disorder's answers can
# seldom be taken back (an opponent's window follows almost every step),
# so its script asks more often to hold a few.
UNDO = {"disorder": 0.25}
KINDS = ["idle", "written", "delay", "first_message", "startup",
         "reply_lost"]
IN_FLIGHT = ("written", "delay", "first_message", "reply_lost")
ALREADY = "That request was already handled."


def reference(binary, tmp, game, players, seed, answer_seed, limit, mode,
              signs, ai=0):
    """The script, the states after each line of an uninterrupted run and
    the moves stored by then (the AI seats' answers with the lines'), and
    the average time of a line; the Marvel, Disorder or Galactic
    Domination lines of its channel messages counted in signs."""
    lair = ll.Lair(binary, "%s/ref%s%d%s.db" % (tmp, game, players,
                                                mode or ""), seed)
    states, stored = [], []

    def on_line(line, out):
        states.append(lair.dump())
        stored.append(len(ll.moves_in_db(lair.db)))
        signs.add(out)
    t = time.monotonic()
    lines = ll.play_random(lair, random.Random(answer_seed), players,
                           max_moves=limit, move_id=lambda i: "mv%d" % i,
                           undo_chance=UNDO.get(game, 0.04), game=game,
                           mode=mode, on_line=on_line, ai=ai)
    per_line = (time.monotonic() - t) / max(1, len(lines)) / 2
    lair.close()
    return lines, states, stored, per_line


def stored_requests(db, every=False):
    """The request ids of the moves stored, in order: the lines' (every:
    the AI seats' answers too)."""
    rows = ll.moves_in_db(db)
    ll.check([r[0] for r in rows] == list(range(len(rows))),
             "move numbers are not 0..n-1: %r" % [r[0] for r in rows])
    return [r[1] for r in rows if every or not r[1].startswith("ai:")]


def kill_at(lair, binary, db, seed, kind, line, rng, per_line):
    """Kills lair (or, for "startup", a fresh process on db) as kind says;
    returns (whether line was sent, whether its done arrived)."""
    if kind == "startup":
        # A fresh process killed at once, maybe while it opens the database.
        lair.close()
        lair = ll.Lair(binary, db, seed)
        lair.kill()
        return False, False
    if kind == "idle":
        lair.kill()
        return False, False
    lair.write(line)
    if kind == "delay":
        time.sleep(rng.uniform(0, 2.5 * per_line))
    elif kind == "first_message":
        ll.check(lair.read_message() is not None, "no output for %r" % line)
    elif kind == "reply_lost":
        ll.check(lair.read_answer() is not None, "no answer to %r" % line)
    rest = lair.kill()
    return True, kind != "reply_lost" and ll.DONE in rest


def play(binary, tmp, game, players, seed, answer_seed, limit, n_kills,
         mode, stats, ai=0):
    signs = ll.Signs(game)
    script, ref_states, ref_stored, per_line = reference(
        binary, tmp, game, players, seed, answer_seed, limit, mode, signs,
        ai)
    ll.check(game != "marvel-villainous" or signs.all_seen(),
             "the %dp Marvel game showed %s: it killed nothing through an "
             "Event, a Stone or an invading Ally" % (players, signs.text()))
    ll.check(game != "disorder" or signs.all_seen(),
             "the %dp Disorder game showed %s: it killed nothing through a "
             "🧠 interrupt, a chain or a mint" % (players, signs.text()))
    ll.check(game != "galactic" or signs.all_seen(),
             "the Galactic Domination game showed %s: it killed nothing "
             "through a build, an explorer in deep space or a ship lost" %
             signs.text())
    undos = [i for i, line in enumerate(script) if line.endswith(" undo")]
    ll.check(len(undos) >= 2, "the script has %d undos" % len(undos))
    rng = random.Random(answer_seed + 1)
    plan = dict((i, rng.choice(KINDS))
                for i in rng.sample(range(len(script)),
                                    min(n_kills, len(script))))
    for i in undos[:2]:  # an undo applied whose reply was lost
        plan[i] = "reply_lost"
    db = "%s/kill%s%d%s.db" % (tmp, game, players, mode or "")
    lair = ll.Lair(binary, db, seed)
    for line in ll.setup_lines(players, game, mode, ai):
        out = lair.send(line)
        ll.check(not any(m["to"] == "ephemeral" for m in out),
                 "%r refused: %r" % (line, out))
    want = ["local:mv%d" % i for i in range(len(script))]
    acked = 0  # script lines acknowledged so far
    for i, line in enumerate(script):
        kind = plan.get(i)
        if kind is None:
            out = lair.send(line)
            ll.check(not any(m["to"] == "ephemeral" for m in out),
                     "%r refused: %r" % (line, out))
            acked += 1
            continue
        stats["kills"] += 1
        sent, done = kill_at(lair, binary, db, seed, kind, line, rng,
                             per_line)
        stored = stored_requests(db)
        # Every acknowledged line is there, once, in order; the line in
        # flight at most once, right after them.
        ll.check(stored[:acked] == want[:acked],
                 "after a kill (%s at line %d) the stored moves begin %r, "
                 "not with the %d acknowledged ones" %
                 (kind, i, stored[:acked + 1], acked))
        ll.check(len(stored) in ((acked, acked + 1) if sent else (acked,)),
                 "after a kill (%s at line %d) %d moves are stored; %d were "
                 "acknowledged" % (kind, i, len(stored), acked))
        committed = len(stored) == acked + 1
        ll.check(committed or not done,
                 "line %d was acknowledged but is not stored" % i)
        stats["acked_in_flight" if done else "stored_unacked" if committed
              else "lost_unacked" if sent else "idle"] += 1
        lair = ll.Lair(binary, db, seed)
        if not done:
            # Resend the unacknowledged line (or send the next one).
            out = lair.send(line)
            if committed:
                ll.check(len(out) == 1 and out[0]["to"] == "ephemeral" and
                         out[0]["text"].startswith(ALREADY),
                         "resending stored line %d (%r) said %r" %
                         (i, line, out))
                stats["resent_refused"] += 1
                stats["undo_resent"] += line.endswith(" undo")
            else:
                ll.check(any(m["to"] == "channel" for m in out) and
                         not any(m["to"] == "ephemeral" for m in out),
                         "line %d %r was refused after a restart: %r" %
                         (i, line, out))
        acked += 1
        n = len(stored_requests(db))
        ll.check(n == acked, "after line %d and a restart %d moves are "
                 "stored, not %d" % (i, n, acked))
        n = len(stored_requests(db, every=True))
        ll.check(n == ref_stored[i], "after line %d and a restart %d moves "
                 "(the AI seats' too) are stored, not %d as in the reference "
                 "run" % (i, n, ref_stored[i]))
        ll.check(lair.dump() == ref_states[i], "after line %d and a "
                 "restart the state differs from the reference run's" % i)
    log = lair.send("alice> /game log since:start")
    m = re.search(r"\*\*Game #1\*\*, (\d+) moves?", log[0]["text"])
    every = len(stored_requests(db, every=True))
    ll.check(m and int(m.group(1)) == every,
             "/game log counts %s moves, not %d" % (m and m.group(1), every))
    stats["ai_moves"] += every - len(script)
    final = lair.dump()
    lair.close()
    ll.check(stored_requests(db) == want,
             "the stored requests differ from the script's")
    ll.check(final == ref_states[-1], "the final state differs from the "
             "uninterrupted run's:\nkilled    %s\nreference %s" %
             (final, ref_states[-1]))
    if limit is None:
        ll.check(ll.is_over_state(final), "the full game did not finish")
    else:
        stats["fresh_moves"] += moves_without_ids(binary, db, seed,
                                                  players, rng)
    return len(script), limit is None, signs


def moves_without_ids(binary, db, seed, players, rng, n=4):
    """Makes n moves, each in a new process, without request ids."""
    before = len(stored_requests(db))
    for k in range(n):
        lair = ll.Lair(binary, db, seed)
        prompt = None
        for who in ll.NAMES[:players]:  # /game hand re-sends the prompt
            prompt = prompt or ll.next_prompt(lair.send("%s> /game hand" %
                                                        who))
        ll.check(prompt, "nobody has a decision to make")
        user, options = prompt
        line = "%s> /game move choice:%s" % (user, rng.choice(options)["id"])
        out = lair.send(line)
        ll.check(any(m["to"] == "channel" for m in out),
                 "%r in a fresh process was refused: %r" % (line, out))
        lair.close()
    ll.check(len(stored_requests(db)) == before + n,
             "moves without request ids were not all stored")
    return n


def run(binary, tmp):
    stats = dict.fromkeys(("kills", "idle", "acked_in_flight",
                           "stored_unacked", "lost_unacked",
                           "resent_refused", "undo_resent", "fresh_moves",
                           "ai_moves"),
                          0)
    parts = []
    for game, players, seed, answer_seed, limit, kills, mode, *ai in GAMES:
        before = stats["ai_moves"]
        lines, full, signs = play(binary, tmp, game, players, seed,
                                  answer_seed, limit, kills, mode, stats,
                                  *ai)
        parts.append("%s %dp%s %d lines%s%s%s" % (
            game, players, "" if mode is None else " " + mode, lines,
            " (complete)" if full else "",
            " and %d answers of the AI seat" % (stats["ai_moves"] - before)
            if ai else "", "" if game not in ll.SIGNS
            else " with " + signs.text()))
    ll.check(stats["kills"] >= 50, "only %d kill points" % stats["kills"])
    ll.check(stats["stored_unacked"] > 0 and stats["undo_resent"] > 0,
             "no stored but unacknowledged line was resent: %r" % stats)
    return ("%d kill points, 0 lost, 0 doubled (%s; killed %d idle, %d in a "
            "line before its commit, %d after its commit but before its "
            "done or with its reply lost, %d after its done; %d stored lines "
            "resent and refused, %d of them undos; %d moves without ids in "
            "fresh processes)" %
            (stats["kills"], ", ".join(parts), stats["idle"],
             stats["lost_unacked"], stats["stored_unacked"],
             stats["acked_in_flight"], stats["resent_refused"],
             stats["undo_resent"], stats["fresh_moves"]))


if __name__ == "__main__":
    sys.exit(ll.main("local_kill", run))
