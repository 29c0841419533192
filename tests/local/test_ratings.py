#!/usr/bin/env python3
"""local_ratings: Glicko-2 ratings, /game stats and /game leaderboard.

Four seeded 2-player games to their end at the console table (alice
against the AI, bob against the AI and alice against bob at Supervillain
mode blitz, alice against the AI at Villainous mode random), each winner
read from the channel's "is over" line. The test keeps its own Glicko-2
ratings of the same games (written here again from Glickman's paper, not
read from Lair) and checks that /game stats says exactly those games,
wins and ratings, and a favourite villain for Villainous; that
/game leaderboard ranks nobody while every deviation is above the
server's leaderboard_rd (110) and, with leaderboard_rd 350, lists the
three Supervillain players in the order of those ratings, the AI as an
AI level. An aborted game and a finished game whose config says
"learn": true (a tutorial) change neither answer. Last, alice against
two AI seats: the AI level is one player with one more game, paired
with alice from each seat, never with itself. Every answer is
ephemeral, to its asker alone.
"""

import math
import os
import random
import re
import sqlite3
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lairlocal as ll  # noqa: E402
from lairlocal import channel, reply, send_ok  # noqa: E402

SCALE = 173.7178
TAU = 0.5
SV = "Supervillain: This Galaxy Is Mine!"
OVER = re.compile(r"\*\*Game #(\d+) is over\.\*\* (.*?) (?:wins|win)? ?\(")


def glicko(me, results):
    """One Glicko-2 rating period: me = (rating, rd, vol), results =
    [(rating, rd, score)]; returns the new (rating, rd, vol)."""
    mu, phi, sigma = (me[0] - 1500) / SCALE, me[1] / SCALE, me[2]

    def g(p):
        return 1 / math.sqrt(1 + 3 * p * p / math.pi ** 2)

    inv_v = total = 0.0
    for r, rd, s in results:
        mj, pj = (r - 1500) / SCALE, rd / SCALE
        e = 1 / (1 + math.exp(-g(pj) * (mu - mj)))
        inv_v += g(pj) ** 2 * e * (1 - e)
        total += g(pj) * (s - e)
    v = 1 / inv_v
    delta = v * total
    a = math.log(sigma ** 2)

    def f(x):
        ex = math.exp(x)
        return (ex * (delta ** 2 - phi ** 2 - v - ex) /
                (2 * (phi ** 2 + v + ex) ** 2) - (x - a) / TAU ** 2)

    big_a = a
    if delta ** 2 > phi ** 2 + v:
        big_b = math.log(delta ** 2 - phi ** 2 - v)
    else:
        k = 1
        while f(a - k * TAU) < 0:
            k += 1
        big_b = a - k * TAU
    fa, fb = f(big_a), f(big_b)
    while abs(big_b - big_a) > 0.000001:
        c = big_a + (big_a - big_b) * fa / (fb - fa)
        fc = f(c)
        if fc * fb <= 0:
            big_a, fa = big_b, fb
        else:
            fa /= 2
        big_b, fb = c, fc
    sigma2 = math.exp(big_a / 2)
    phi_star = math.sqrt(phi ** 2 + sigma2 ** 2)
    phi2 = 1 / math.sqrt(1 / phi_star ** 2 + 1 / v)
    return (1500 + SCALE * (mu + phi2 ** 2 * total), SCALE * phi2, sigma2)


class Model:
    """The ratings the games must have given: (kind, player) ->
    [rating, rd, vol, games, wins]."""

    def __init__(self):
        self.r = {}

    def get(self, kind, p):
        return self.r.setdefault((kind, p), [1500.0, 200.0, 0.06, 0, 0])

    def game(self, kind, a, b, winner):
        ra, rb = self.get(kind, a), self.get(kind, b)
        sa = 0.5 if winner is None else (1.0 if winner == a else 0.0)
        na = glicko(ra[:3], [(rb[0], rb[1], sa)])
        nb = glicko(rb[:3], [(ra[0], ra[1], 1 - sa)])
        ra[:3], rb[:3] = na, nb
        ra[3] += 1
        rb[3] += 1
        ra[4] += winner == a
        rb[4] += winner == b


def player_of(name):
    return "ai:heuristic" if name.startswith("AI ") else name


def play(lair, rng, kind, mode, opener, other, moves=None, hook=None,
         ai=1):
    """Opens and plays a 2-player game (other None: against an AI seat)
    with random answers; returns (game number, winner's player id or
    None for nobody), or (None, "open") after `moves` answers. hook, if
    given, is called once the game has started, before its first
    answer."""
    lines = ["%s> /game new kind:%s mode:%s%s" % (
        opener, kind, mode, "" if other else " ai:%d" % ai)]
    if other:
        lines.append("%s> /game join" % other)
    lines.append("%s> /game start" % opener)
    for line in lines:
        out = send_ok(lair, line)
    prompt = ll.one_prompt(out, line)
    if hook:
        hook()
    n = 0
    while True:
        who, opts = prompt
        if moves is not None and n == moves:
            return None, "open"
        out = send_ok(lair, "%s> /game move choice:%s" %
                      (who, ll.pick(rng, opts, kind)["id"]))
        n += 1
        for t in channel(out):
            m = OVER.search(t)
            if m:
                names = m.group(2)
                if names.startswith("Nobody"):
                    return int(m.group(1)), None
                return int(m.group(1)), player_of(names)
        ll.check(n < 3000, "%s game did not end in 3000 answers" % kind)
        prompt = ll.next_prompt(out)


def words(r):
    return "%.0f ± %.0f" % (r[0], r[1])


def stats_line(name, r):
    return "**%s**: %d game%s, %d win%s (%d%%), rating %s" % (
        name, r[3], "" if r[3] == 1 else "s", r[4], "" if r[4] == 1 else "s",
        r[4] * 100 // r[3], words(r))


def run(binary, tmp):
    db = os.path.join(tmp, "ratings.db")
    lair = ll.Lair(binary, db, seed=31, mods=["mod"])
    rng = random.Random(18)
    model = Model()

    # Nothing yet.
    text = reply(lair.send("alice> /game stats"), "alice", "first stats")
    ll.check(text == "You have no rated games of any game on this server "
             "yet; finish a game to get a rating.", "first stats: %r" % text)
    text = reply(lair.send("alice> /game leaderboard kind:supervillain"),
                 "alice", "first leaderboard")
    ll.check(text == "No rated games of %s on this server yet; finish a "
             "game to get a rating." % SV, "first leaderboard: %r" % text)
    text = reply(lair.send("alice> /game stats kind:chess"), "alice",
                 "unknown kind")
    ll.check(text.startswith("Lair has no game called 'chess'."),
             "unknown kind: %r" % text)

    # Three Supervillain games and a Villainous one.
    played = [("supervillain", "blitz", "alice", None),
              ("supervillain", "blitz", "bob", None),
              ("supervillain", "blitz", "alice", "bob"),
              ("villainous", "random", "alice", None)]
    for kind, mode, a, b in played:
        _, winner = play(lair, rng, kind, mode, a, b)
        model.game(kind, a, b or "ai:heuristic", winner)

    sv_alice = model.get("supervillain", "alice")
    vl_alice = model.get("villainous", "alice")
    stats = reply(lair.send("alice> /game stats"), "alice", "alice's stats")
    lines = stats.split("\n")
    ll.check(len(lines) == 3 and lines[0] == "**Statistics of alice** on "
             "this server (rating ± deviation, Glicko-2):",
             "alice's stats: %r" % stats)
    ll.check(lines[1] == stats_line(SV, sv_alice) + ".",
             "alice's Supervillain line %r, not %r" %
             (lines[1], stats_line(SV, sv_alice)))
    ll.check(re.fullmatch(re.escape(stats_line("Villainous", vl_alice)) +
                          r"; favourite: [A-Z][A-Za-z' ]+ \(1 game\)\.",
                          lines[2]),
             "alice's Villainous line %r, not %r + favourite" %
             (lines[2], stats_line("Villainous", vl_alice)))
    text = reply(lair.send("carol> /game stats user:bob kind:supervillain"),
                 "carol", "bob's stats")
    ll.check(text.split("\n")[1:] ==
             [stats_line(SV, model.get("supervillain", "bob")) + "."],
             "bob's stats for carol: %r" % text)
    text = reply(lair.send("carol> /game stats user:bob kind:villainous"),
                 "carol", "bob's Villainous stats")
    ll.check(text == "That member has no rated games of Villainous on this "
             "server yet; finish a game to get a rating.",
             "bob's Villainous stats: %r" % text)

    # Every deviation is still above 110: nobody ranks.
    board = reply(lair.send("bob> /game leaderboard kind:supervillain"),
                  "bob", "unsettled leaderboard")
    ll.check(all(r[1] >= 110 for r in model.r.values()) and
             "Nobody yet: 3 players are rated, none with a deviation below "
             "110." in board, "unsettled leaderboard: %r" % board)

    # leaderboard_rd 350: all three, best first, the AI as an AI level.
    send_ok(lair, "mod> /gamemod settings key:leaderboard_rd value:350")
    board = reply(lair.send("bob> /game leaderboard kind:supervillain"),
                  "bob", "leaderboard")
    ranked = sorted(((k[1], v) for k, v in model.r.items()
                     if k[0] == "supervillain"),
                    key=lambda e: (-round(e[1][0], 6), round(e[1][1], 6),
                                   -e[1][3], e[0]))
    want = ["**Leaderboard** of this server (Glicko-2 rating ± deviation; "
            "ranked: deviation below 350)",
            "**%s**, top 10:" % SV]
    for i, (p, r) in enumerate(ranked):
        want.append("%d. %s: %s (%d game%s, %d win%s)" % (
            i + 1, "AI (heuristic) [AI level]" if p.startswith("ai:") else p,
            words(r), r[3], "" if r[3] == 1 else "s", r[4],
            "" if r[4] == 1 else "s"))
    ll.check(board.split("\n") == want,
             "leaderboard:\n%s\nnot:\n%s" % (board, "\n".join(want)))
    everything = reply(lair.send("bob> /game leaderboard"), "bob",
                       "both boards")
    ll.check(everything.startswith(board) and "**Villainous**, top 10:\n1. "
             in everything, "both boards: %r" % everything)

    # In German for a member who reads German, numbers and names the same.
    lair.send("carol> /prefs set language:de")

    def de_counts(r):
        return "%d Spiel%s, %d Sieg%s" % (r[3], "" if r[3] == 1 else "e",
                                          r[4], "" if r[4] == 1 else "e")

    board_de = reply(lair.send("carol> /game leaderboard kind:supervillain"),
                     "carol", "German leaderboard")
    want_de = ["**Bestenliste** dieses Servers (Glicko-2-Wertung ± "
               "Abweichung; gelistet: Abweichung unter 350)",
               "**%s**, Top 10:" % SV]
    for i, (p, r) in enumerate(ranked):
        want_de.append("%d. %s: %s (%s)" % (
            i + 1, "AI (heuristic) [KI-Stufe]" if p.startswith("ai:") else p,
            words(r), de_counts(r)))
    ll.check(board_de.split("\n") == want_de,
             "German leaderboard:\n%s\nnot:\n%s" % (board_de,
                                                    "\n".join(want_de)))
    r = model.get("supervillain", "bob")
    text = reply(lair.send("carol> /game stats user:bob kind:supervillain"),
                 "carol", "bob's stats in German")
    ll.check(text == "**Statistik von bob** auf diesem Server (Wertung ± "
             "Abweichung, Glicko-2):\n**%s**: %s (%d %%), Wertung %s." % (
                 SV, de_counts(r), r[4] * 100 // r[3], words(r)),
             "bob's stats in German: %r" % text)

    # An aborted game and a tutorial game change nothing.
    before = (stats, board)
    play(lair, rng, "supervillain", "blitz", "alice", None, moves=3)
    send_ok(lair, "mod> /gamemod abort")

    def make_tutorial():
        # What /game learn writes into a game's config, put there by hand.
        game = max(g for (g,) in rows(db, "SELECT id FROM games"))
        con = sqlite3.connect(db)
        try:
            con.execute("UPDATE games SET config = json_set(config, "
                        "'$.learn', json('true')) WHERE id = ?", (game,))
            con.commit()
        finally:
            con.close()
        lair.restart()

    learn_game, winner = play(lair, rng, "supervillain", "blitz", "alice",
                              None, hook=make_tutorial)
    ll.check(learn_game is not None and
             rows(db, "SELECT json_extract(config, '$.learn') FROM games "
                  "WHERE id = ?", (learn_game,)) == [(1,)],
             "the tutorial game is #%r" % learn_game)
    after = (reply(lair.send("alice> /game stats"), "alice", "stats after"),
             reply(lair.send("bob> /game leaderboard kind:supervillain"),
                   "bob", "leaderboard after"))
    ll.check(after == before, "an aborted or tutorial game changed the "
             "ratings:\n%s\n%s" % (after, before))

    # Two AI seats against alice: the AI level is one player, its seats
    # not paired with each other, each paired with alice. Who of alice
    # and the losing AI seat placed higher depends on points this test
    # does not read, so one of the three outcomes must fit both.
    sv_ai = model.get("supervillain", "ai:heuristic")
    a, b = tuple(sv_alice[:3]), tuple(sv_ai[:3])
    _, winner = play(lair, rng, "supervillain", "blitz", "alice", None, ai=2)
    if winner == "alice":
        outcomes = [(glicko(a, [(b[0], b[1], 1.0)] * 2),
                     glicko(b, [(a[0], a[1], 0.0)] * 2))]
    else:
        outcomes = [(glicko(a, [(b[0], b[1], 0.0), (b[0], b[1], s)]),
                     glicko(b, [(a[0], a[1], 1.0), (a[0], a[1], 1 - s)]))
                    for s in (0.0, 0.5, 1.0)]
    stats = reply(lair.send("alice> /game stats kind:supervillain"), "alice",
                  "stats after the 3-seat game")
    board = reply(lair.send("alice> /game leaderboard kind:supervillain"),
                  "alice", "leaderboard after the 3-seat game")
    wins = sv_alice[4] + (winner == "alice")
    ai_wins = sv_ai[4] + (winner != "alice")
    fits = [o for o in outcomes if stats.endswith(
        stats_line(SV, [*o[0], sv_alice[3] + 1, wins]) + ".") and
        "AI (heuristic) [AI level]: %s (%d games, %d win%s)" % (
            words(o[1]), sv_ai[3] + 1, ai_wins, "" if ai_wins == 1 else "s")
        in board]
    ll.check(len(fits) >= 1, "the 3-seat game (winner %s) rated as none of "
             "%r:\n%s\n%s" % (winner, outcomes, stats, board))
    lair.close()
    return ("5 games rated as the paper's Glicko-2 says (stats, a "
            "favourite villain, the leaderboard's order and threshold, two "
            "AI seats as one player); an aborted game and tutorial game #%d "
            "changed nothing" % learn_game)


def rows(db, sql, args=()):
    con = sqlite3.connect("file:%s?mode=ro" % db, uri=True)
    try:
        return con.execute(sql, args).fetchall()
    finally:
        con.close()


if __name__ == "__main__":
    sys.exit(ll.main("local_ratings", run))
