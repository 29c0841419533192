#!/usr/bin/env python3
"""bench_messages.py: how many messages a whole game posts.

Plays whole games at the console table (`lair local --json`), Supervillain
unless --game names another: one member, alice, against AI seats (1 for a
2-player game, 3 for a 4-player one), alice answering every prompt at
random from the options of her turn's DM. Counts what a Discord deployment would send: channel
messages posted and edited, DMs posted and edited, and the answers to
alice's own commands (interaction answers, which post nothing in the
channel). One JSON line per table size (2 and 4 players; only 2 for a
two-player game such as disorder, or those --players lists), the mean
over --games games.

    /usr/bin/python3 bench/bench_messages.py [--lair build/release/lair]
        [--games 5] [--seed 1] [--game supervillain] [--players 2,4] [--old]

--old drives a Lair from before the command groups (/game new game:...),
for before/after figures of the same games.
"""

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile


def play(lair, players, seed, old, game):
    with tempfile.TemporaryDirectory() as tmp:
        p = subprocess.Popen([lair, "local", "--json", "--seed", str(seed),
                              "--db", os.path.join(tmp, "m.db")],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True, bufsize=1)

        def send(line):
            p.stdin.write(line + "\n")
            p.stdin.flush()
            out = []
            while True:
                raw = p.stdout.readline()
                if not raw:
                    raise SystemExit("lair ended")
                m = json.loads(raw)
                if m.get("to") == "done":
                    return out
                out.append(m)

        count = {"channel_posts": 0, "channel_edits": 0, "dm_posts": 0,
                 "dm_edits": 0, "answers": 0}
        rng = random.Random(seed)
        kind = "game" if old else "kind"
        lines = ["alice> /game new %s:%s ai:%d" % (kind, game, players - 1),
                 "alice> /game start"]
        options = None
        moves = 0
        for _ in range(5000):
            line = lines.pop(0) if lines else \
                "alice> /game move choice:%s" % rng.choice(options)["id"]
            out = send(line)
            moves += line.startswith("alice> /game move")
            over = False
            options = None
            for m in out:
                to, edit = m.get("to"), m.get("edit", False)
                if to == "channel":
                    count["channel_edits" if edit else "channel_posts"] += 1
                    over = over or "is over.**" in m.get("text", "")
                elif to == "dm":
                    count["dm_edits" if edit else "dm_posts"] += 1
                elif to == "ephemeral":
                    count["answers"] += 1
                if to == "dm" and m.get("options") and m.get("user") == "alice":
                    options = m["options"]
            if over and not lines:
                break
            if not lines and not options:
                raise SystemExit("no prompt for alice after %r" % line)
        p.stdin.close()
        p.wait()
        count["alice_moves"] = moves
        return count


# Games for two players only: one table size.
TWO_PLAYERS = ("disorder", "galactic")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lair", default="build/release/lair")
    ap.add_argument("--games", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--old", action="store_true")
    ap.add_argument("--game", default="supervillain")
    ap.add_argument("--players", default=None,
                    help="table sizes, comma-separated (default 2,4; 2 for "
                    "%s)" % ", ".join(TWO_PLAYERS))
    a = ap.parse_args()
    sizes = [int(x) for x in a.players.split(",")] if a.players else \
        [2] if a.game in TWO_PLAYERS else [2, 4]
    for players in sizes:
        total = {}
        for g in range(a.games):
            for k, v in play(a.lair, players, a.seed + g, a.old,
                             a.game).items():
                total[k] = total.get(k, 0) + v
        res = {"game": a.game, "players": players, "games": a.games}
        res.update({k: round(v / a.games, 1) for k, v in total.items()})
        res["channel_posts_per_alice_move"] = round(
            total["channel_posts"] / max(1, total["alice_moves"]), 2)
        print(json.dumps(res), flush=True)


if __name__ == "__main__":
    sys.exit(main())
