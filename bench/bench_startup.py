#!/usr/bin/python3
"""bench_startup.py: start-up time with a large database.

    /usr/bin/python3 bench/bench_startup.py [--lair build/release/lair]
        [--games 100000] [--running 0.1] [--moves 60] [--runs 5]
        [--keep PATH]

It builds the database itself: one real two-player Supervillain game is
played with `lair local` (seeded answers) up to MOVES moves, and its
rows (game, seats, moves, snapshot) are copied into GAMES games, each in
a channel of its own, a RUNNING share of them running and the rest
finished (each with its snapshot, as games keep their latest), in one
transaction of Python's sqlite3. Then, RUNS times, it
starts `lair local --json` on that file and times, from the process's
start to its first answer, a `/game status` of a running game in the
middle of the file (which loads that game from its snapshot and moves).
It prints one JSON line:

  games, running, moves_per_game, db_mb, build_s,
  first_answer_ms_min / _median / _max (process start -> the status
  answer), idle_exit_ms_median (start -> exit with no input),
  quick_check_s: what one `PRAGMA quick_check` of the file takes (the
  whole-file check start-up ran before `lair check` took it over).

Nothing asserts on the figures (see bench/README.md).
"""

import argparse
import json
import os
import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "tests", "local"))
import lairlocal as ll  # noqa: E402


def template(lair, tmp, moves):
    """A real game's rows: (games row, seats, moves, snapshot)."""
    db = os.path.join(tmp, "template.db")
    game = ll.Lair(lair, db, 77)
    ll.play_random(game, random.Random(7), 2, max_moves=moves)
    game.close()
    con = sqlite3.connect(db)
    try:
        g = con.execute("SELECT * FROM games WHERE id = 1").fetchone()
        cols = [d[0] for d in con.execute(
            "SELECT * FROM games LIMIT 0").description]
        seats = con.execute("SELECT * FROM seats WHERE game = 1").fetchall()
        mv = con.execute("SELECT * FROM moves WHERE game = 1 "
                         "ORDER BY seq").fetchall()
        snap = con.execute("SELECT * FROM snapshots WHERE game = 1"
                           ).fetchone()
    finally:
        con.close()
    return db, dict(zip(cols, g)), seats, mv, snap


def build(lair, path, games, running, moves):
    tmp = os.path.dirname(path)
    tdb, g, seats, mv, snap = template(lair, tmp, moves)
    shutil.copy(tdb, path)
    con = sqlite3.connect(path)
    con.execute("PRAGMA synchronous = OFF")
    n_running = int(games * running)
    run_every = max(1, games // max(1, n_running))
    with con:
        for t in ("moves", "seats", "snapshots", "timers", "requests",
                  "games"):
            con.execute("DELETE FROM %s" % t)
        for i in range(1, games + 1):
            status = 1 if i % run_every == 0 and n_running > 0 else 2
            con.execute(
                "INSERT INTO games(id, ruleset, ruleset_version, config, "
                "seed, guild, channel, creator, status, created, updated, "
                "moves) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (i, g["ruleset"], g["ruleset_version"], g["config"],
                 g["seed"], g["guild"], "chan-%d" % i, g["creator"],
                 status, g["created"], g["updated"], len(mv)))
            con.executemany("INSERT INTO seats VALUES(?, ?, ?, ?)",
                            [(i,) + tuple(s[1:]) for s in seats])
            con.executemany(
                "INSERT INTO moves VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(i,) + tuple(m[1:7]) + ("g%d-%s" % (i, m[7]),) +
                 tuple(m[8:]) for m in mv])
            if snap:
                con.execute("INSERT INTO snapshots VALUES(?, ?, ?)",
                            (i, snap[1], snap[2]))
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    return n_running, run_every


def first_answer(lair, path, line):
    """ms from the process's start to its first output line."""
    env = ll.sanitizer_env()
    t0 = time.monotonic()
    p = subprocess.Popen([lair, "local", "--json", "--db", path],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, env=env)
    p.stdin.write(line.encode() + b"\n")
    p.stdin.flush()
    first = p.stdout.readline()
    t = (time.monotonic() - t0) * 1000
    p.stdin.close()
    p.stdout.read()
    p.wait(timeout=60)
    msg = json.loads(first)
    ll.check(msg.get("to") == "ephemeral" or msg.get("to") == "channel",
             "no answer: %r" % first[:200])
    ll.check("Supervillain" in msg.get("text", ""), "status said %r" %
             msg.get("text", "")[:200])
    return t


def idle_exit(lair, path):
    t0 = time.monotonic()
    subprocess.run([lair, "local", "--json", "--db", path],
                   stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                   check=True, env=ll.sanitizer_env())
    return (time.monotonic() - t0) * 1000


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lair", default=os.path.join(ROOT, "build", "release",
                                                   "lair"))
    ap.add_argument("--games", type=int, default=100000)
    ap.add_argument("--running", type=float, default=0.1)
    ap.add_argument("--moves", type=int, default=150)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--keep", help="build the database here and keep it")
    args = ap.parse_args()
    lair = os.path.abspath(args.lair)
    with tempfile.TemporaryDirectory(prefix="lair-bench-startup-") as tmp:
        path = os.path.abspath(args.keep) if args.keep else \
            os.path.join(tmp, "big.db")
        t0 = time.monotonic()
        n_running, every = build(lair, path, args.games, args.running,
                                 args.moves)
        build_s = time.monotonic() - t0
        mid = (args.games // 2) // every * every or every
        line = "alice> /game status game:%d" % mid
        # The status of a game in another channel from the one it is
        # played in: give the channel by playing as a seated member.
        times = [first_answer(lair, path, line) for _ in range(args.runs)]
        idle = [idle_exit(lair, path) for _ in range(args.runs)]
        con = sqlite3.connect(path)
        t0 = time.monotonic()
        con.execute("PRAGMA quick_check").fetchall()
        qc = time.monotonic() - t0
        con.close()
        print(json.dumps({
            "games": args.games, "running": n_running,
            "moves_per_game": args.moves,
            "db_mb": round(os.path.getsize(path) / 2**20, 1),
            "build_s": round(build_s, 1),
            "first_answer_ms_min": round(min(times), 1),
            "first_answer_ms_median": round(statistics.median(times), 1),
            "first_answer_ms_max": round(max(times), 1),
            "idle_exit_ms_median": round(statistics.median(idle), 1),
            "quick_check_s": round(qc, 2)}))


if __name__ == "__main__":
    main()
