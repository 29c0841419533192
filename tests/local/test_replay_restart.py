#!/usr/bin/env python3
"""local_replay_restart: games survive !restart bit for bit.

Plays a complete 2-player Supervillain game and the first 300 moves of
a 4-player one, a complete 2-player Villainous game and the first 150 and 60 moves of a 4- and a
6-player one, a complete 2-player Marvel Villainous game (its default
mode, inevitable) and the first 150 moves of a 4-player one in mode
undying (villains chosen at random too; whole 4- and 6-player games
would add about a minute each in the sanitizer build, and the cut-short
parts still pass several snapshots), two complete Disorder of the
Villains games (2 players: mode standard, its deck designs and Villains
drafted in the first answers, restarted through the draft too, and mode
random) and two Galactic Domination games (a complete one of alice
against the lobby's AI seat, whose answers follow hers in both
processes, and the first 150 answers of one between two players:
random play between two players reaches the round limit or a destroyed
fleet only after about 500) through `lair local --json` with seeded
random answers taken from the options the bot sends (Galactic
Domination's weighted towards attacks, builds and the special actions:
lairlocal's pick) (and now and then a /game undo, often right after a
restart; Disorder's more often), in two processes in lockstep on two
databases with the same --seed: A gets a !restart at random points, B
never restarts. Every input line must produce the same messages in A
and B; the !dump right after each restart must equal the one just
before it; the final states must be equal; and A's database must hold
exactly the moves sent (and the AI seat's answers, the same as B's).
The Marvel games must between them have shown an Event, a Stone and an
invading Ally coming into play (their channel lines are counted), so
that the states restarted through hold them; the Disorder games,
between them, an interrupt window answered with a 🧠 trait, a chain of
two entries or more and a mint; the Galactic Domination games a ship
built, an explorer warped into deep space and a ship lost.
"""

import random
import sys

import lairlocal as ll

# (game, players, --seed, answer seed, restart chance per line, moves to
# play (None: to the end), mode (None: the game's default)[, AI seats,
# the last ones])
GAMES = [("supervillain", 2, 11, 101, 0.04, None, None),
         ("supervillain", 4, 13, 103, 0.03, 300, None),
         ("villainous", 2, 64, 604, 0.04, None, None),
         ("villainous", 4, 85, 805, 0.03, 150, None),
         ("villainous", 6, 16, 106, 0.06, 60, None),
         ("marvel-villainous", 2, 72, 722, 0.03, None, None),
         ("marvel-villainous", 4, 74, 704, 0.03, 150, "undying"),
         ("disorder", 2, 91, 911, 0.06, None, None),
         ("disorder", 2, 92, 922, 0.05, None, "random"),
         ("galactic", 2, 41, 411, 0.06, None, None, 1),
         ("galactic", 2, 42, 421, 0.05, 150, None)]
# Games whose signs are counted (lairlocal's SIGNS, those of
# REQUIRED_SIGNS required).
SIGNED = ("marvel-villainous", "disorder", "galactic")
# Chance of a /game undo instead of an answer. Disorder's answers can
# seldom be taken back (an opponent's window follows almost every step):
# its games ask more often, to restart through a few takebacks.
UNDO = {"disorder": 0.2}


def both(a, b, line):
    """Sends line to A and B at once; their answers must be equal."""
    out_a, out_b = ll.send_both(a, b, line)
    for k in range(max(len(out_a), len(out_b))):
        x, y = out_a[k:k + 1], out_b[k:k + 1]
        ll.check(x == y, "after %r the restarted run said\n  %r\nwhere the "
                 "uninterrupted run said\n  %r" % (line, x, y))
    return out_a


def play(binary, tmp, game, players, seed, answer_seed, chance, limit,
         mode, ai=0):
    rng = random.Random(answer_seed)
    name = "%s%d%s%d" % (game, players, mode or "", seed)
    a = ll.Lair(binary, "%s/a%s.db" % (tmp, name), seed)
    b = ll.Lair(binary, "%s/b%s.db" % (tmp, name), seed)
    stats = {"restarts": 0, "at_snapshot": 0, "mid_setup": 0, "undos": 0,
             "signs": ll.Signs(game)}
    moves = 0

    def maybe_restart(forced=False):
        if not forced and rng.random() >= chance:
            return False
        before = a.dump()
        a.restart()
        after = a.dump()
        ll.check(before == after,
                 "the state changed across !restart after %d moves:\n"
                 "before %s\nafter  %s" % (moves, before, after))
        ll.check(after == b.dump(), "restarted state differs from the "
                 "uninterrupted run's after %d moves" % moves)
        stats["restarts"] += 1
        if before is None:
            stats["mid_setup"] += 1
        elif moves % 32 == 0:
            stats["at_snapshot"] += 1
        return True

    out = None
    for k, line in enumerate(ll.setup_lines(players, game, mode, ai)):
        out = both(a, b, line)
        ll.check(not any(m["to"] == "ephemeral" for m in out),
                 "%r refused: %r" % (line, out))
        maybe_restart(forced=k == 0)  # always once in the lobby
    user, options = ll.one_prompt(out, line)
    undo_next = False
    while True:
        undo = undo_next or rng.random() < UNDO.get(game, 0.03)
        if undo:
            line = "%s> /game undo" % user
        else:
            opt = ll.pick(rng, options, game)
            line = "%s> /game move choice:%s" % (
                user, ll.choice_text(rng, options, opt))
        out = both(a, b, line)
        stats["signs"].add(out)
        if undo and [m["to"] for m in out] == ["ephemeral"]:
            ll.check(ll.TAKEBACK_REFUSED in out[0]["text"],
                     "%r said %r" % (line, out[0]["text"]))
            undo_next = False
            continue  # nothing to take back: nothing changed
        ll.check(not any(m["to"] == "ephemeral" for m in out),
                 "move %d %r refused: %r" % (moves, line, out))
        moves += 1
        stats["undos"] += undo
        if ll.is_over(out) or moves == limit:
            break
        # Always right after the start, at the first snapshot (every 32
        # moves) and just after it; elsewhere at random. After a restart,
        # often an undo, which needs the answers from before it.
        undo_next = maybe_restart(forced=moves in (1, 32, 33)) and \
            rng.random() < 0.5
        user, options = ll.one_prompt(out, line)
        ll.check(moves < 20000, "the game does not end")
    # A restart after the end (or the last move) must change nothing
    # either.
    final_b = b.dump()
    before = a.dump()
    a.restart()
    final_a = a.dump()
    ll.check(before == final_a, "the finished game changed across !restart")
    ll.check(final_a == final_b, "final states differ:\nrestarted     %s\n"
             "uninterrupted %s" % (final_a, final_b))
    ll.check(final_a is not None and (ll.is_over_state(final_a) or
                                      moves == limit),
             "the final state is not a finished game: %s" % final_a)
    a.close()
    b.close()
    stored = ll.moves_in_db(a.db)
    # The same moves (the console's own request ids differ: each process
    # makes up its own).
    ll.check([(r[0], r[2], r[3]) for r in stored] ==
             [(r[0], r[2], r[3]) for r in ll.moves_in_db(b.db)],
             "the moves tables differ")
    sent = [r for r in stored if not r[1].startswith("ai:")]
    ll.check(len(sent) == moves and (ai or len(stored) == moves),
             "%d moves sent, %d stored (%d of them by AI seats)" %
             (moves, len(sent), len(stored) - len(sent)))
    stats["ai_moves"] = len(stored) - len(sent)
    ll.check(stats["restarts"] >= 3, "only %d restarts" % stats["restarts"])
    return moves, stats


def run(binary, tmp):
    parts = []
    total = 0
    signs = dict((g, ll.Signs(g)) for g in SIGNED)
    for game, players, seed, answer_seed, chance, limit, mode, *ai in GAMES:
        moves, st = play(binary, tmp, game, players, seed, answer_seed,
                         chance, limit, mode, *ai)
        total += st["restarts"]
        for sign, n in st["signs"].counts.items():
            signs[game].counts[sign] += n
        parts.append("%s %dp%s %d moves%s (%d undos%s) %d restarts (%d at "
                     "a snapshot, %d in the lobby)" %
                     (game, players, "" if mode is None else " " + mode,
                      moves, ("" if limit is None else " (cut short)") +
                      ("" if not ai else ", %d by the AI seat" %
                       st["ai_moves"]),
                      st["undos"], "" if game not in SIGNED else
                      "; " + st["signs"].text(), st["restarts"],
                      st["at_snapshot"], st["mid_setup"]))
    played = set(g[0] for g in GAMES)
    ll.check("marvel-villainous" not in played or
             signs["marvel-villainous"].all_seen(), "the Marvel games "
             "showed %s: no Event, Stone or invading Ally was restarted "
             "through" % signs["marvel-villainous"].text())
    ll.check("disorder" not in played or signs["disorder"].all_seen(),
             "the Disorder games showed %s: no 🧠 interrupt, chain or mint "
             "was restarted through" % signs["disorder"].text())
    ll.check("galactic" not in played or signs["galactic"].all_seen(),
             "the Galactic Domination games showed %s: no build, explorer "
             "in deep space or ship lost was restarted through" %
             signs["galactic"].text())
    return "%d games, %d restarts, states and messages equal to " \
           "uninterrupted runs: %s" % (len(GAMES), total, "; ".join(parts))


if __name__ == "__main__":
    sys.exit(ll.main("local_replay_restart", run))
