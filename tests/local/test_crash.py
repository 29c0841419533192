#!/usr/bin/env python3
"""local_crash: a command is one transaction, whatever moment kills it.

For each command kind (a move, the final move, a move the AI seats answer,
/game new with AI seats, join, leave, kick, leaving a running game, a
moderator's abort, undo, a deadline firing, a deadline that escalates
after a second missed turn, a rematch inviting a player back) a database
is prepared up to just before the command and copied; an uninterrupted
run of the command on one copy gives the after-state. Then the command is run again and again on fresh copies by
a `lair local` built with the fault hook (LAIR_FAULTS) and started with
LAIR_FAULT_AFTER=N, which kills the process with SIGKILL right after its
Nth write (or BEGIN/COMMIT), for N = 1, 2, ... 30, then every fifth,
and the last few writes (the COMMIT among them), until the command runs
to its end. After each kill a plain process is started on the database
(it catches up on AI seats and due timers before any command) and
closed; the database must then hold exactly the before-state or the
after-state: every row of every table, apart from wall-clock times.
The same request sent again after it ran is answered "That request was
already handled." and changes nothing.
"""

import os
import random
import shutil
import sqlite3
import subprocess

import lairlocal as ll

TABLES = {
    # table: (columns compared, order); times of day are left out, since
    # each run reads the clock anew
    "games": ("id, ruleset, ruleset_version, config, seed, guild, channel, "
              "creator, status, moves, ai_due", "id"),
    "seats": ("game, seat, user, name", "game, seat"),
    "moves": ("game, seq, seat, kind, turn, revealed, option, request",
              "game, seq"),
    "snapshots": ("game, seq, state", "game"),
    "settings": ("scope, key, value", "scope, key"),
    "timers": ("game, kind, seat, data, turn", "game, kind, seat"),
    "invites": ("game, user, name, seat", "game, user"),
    "audit": ("scope, actor, action, game, detail", "id"),
    "requests": ("id, user, answer", "id"),
}
# What some commands must have done for their scenario to mean anything.
EXPECT = {
    "escalate": ("audit", "hand the seat to the AI for good",
                 lambda rows: [r[2] for r in rows][-1:] == ["missed_turns"]),
    "rematch": ("invites", "invite bob back",
                lambda rows: [(r[0], r[1]) for r in rows] == [(2, "bob")]),
}
EVERY_N_UP_TO = 30  # every N up to here, then a sample, then the last ones
STEP_AFTER = 5


def dump(db):
    con = sqlite3.connect("file:%s?mode=ro" % db, uri=True)
    try:
        return {t: con.execute("SELECT %s FROM %s ORDER BY %s" %
                               (cols, t, order)).fetchall()
                for t, (cols, order) in TABLES.items()}
    finally:
        con.close()


def differs(a, b):
    """The first table where dumps a and b differ, or None."""
    for t in TABLES:
        if a[t] != b[t]:
            return t
    return None


def lines_until_end(lair, user, options):
    """Answers options[0] (never 'end') until 'end' is an option of the
    human who decides; returns the lines sent and that user."""
    sent = []
    for _ in range(60):
        if any(o["id"] == "end" for o in options):
            return sent, user
        opt = next(o for o in options if o["id"] != "end")
        line = "%s> /game move choice:%s" % (user, opt["id"])
        out = lair.send(line)
        ll.check(not any(m["to"] == "ephemeral" for m in out),
                 "%r refused: %r" % (line, out))
        sent.append(line)
        user, options = ll.one_prompt(out, line)
    raise ll.Fail("no 'end' option within 60 answers")


def prepare(binary, tmp, name, seed):
    """The setup lines and the command of scenario name, found with a
    scratch process (options depend on the seed)."""
    db = os.path.join(tmp, "scratch-%s.db" % name)
    lair = ll.Lair(binary, db, seed, mods=("mod",))
    try:
        if name == "new_ai":
            return [], "alice> /game new kind:supervillain ai:2"
        if name == "join":
            return ["alice> /game new kind:supervillain"], "bob> /game join"
        if name == "leave":
            return (["alice> /game new kind:supervillain", "bob> /game join",
                     "carol> /game join"], "bob> /game leave")
        setup = ll.setup_lines(2)
        if name == "final":
            lines = ll.play_random(lair, random.Random(seed), 2)
            return setup + lines[:-1], lines[-1]
        user, options = ll.open_game(lair, 2)
        if name == "move":
            return setup, "%s> /game move choice:%s" % (user, options[0]["id"])
        if name == "undo":
            line = "%s> /game move choice:project" % user
            ll.check(any(o["id"] == "project" for o in options),
                     "no project option: %r" % options)
            out = lair.send(line)
            ll.check(not any(m["to"] == "ephemeral" for m in out), repr(out))
            return setup + [line], "%s> /game undo" % user
        if name == "kick":
            # The kicked player decides now: the AI answers at once.
            return setup, "mod> /gamemod kick user:%s" % user
        if name == "abort":
            return setup, "mod> /gamemod abort"
        if name == "leave_running":
            return setup, "%s> /game leave confirm:yes" % user
        if name == "deadline":
            line = "alice> /game deadline hours:2"
            out = lair.send(line)
            ll.check(not any(m["to"] == "ephemeral" for m in out), repr(out))
            # The half-time warning fires in the setup (a transaction of
            # its own), the deadline in the command: the AI plays the
            # rest of the turn.
            return setup + [line, "!advance 90m"], "!advance 3h"
        if name == "escalate":
            # The second missed turn in a row: the seat goes to the AI
            # for good (audited), which plays on until a person decides.
            lines = ["mod> /gamemod settings key:miss_limit value:2",
                     "mod> /gamemod settings key:miss_action value:ai",
                     "alice> /game deadline hours:2"]
            for line in lines:
                out = lair.send(line)
                ll.check(not any(m["to"] == "ephemeral" for m in out),
                         repr(out))
            out = lair.send("!advance 150m")
            ll.check(any("That is 1 missed turn" in m["text"] for m in out),
                     "no first miss: %r" % out)
            other, options = ll.one_prompt(out, "the first miss")
            more, who = lines_until_end(lair, other, options)
            end = "%s> /game move choice:end" % who
            out = lair.send(end)
            ll.check(ll.one_prompt(out, end)[0] == user, repr(out))
            # The clock of user's next turn starts at +150m: its warning
            # fires in the setup (+220m), its deadline (+270m) in the
            # command, run by a new process whose clock starts again.
            return (setup + lines + ["!advance 150m"] + more +
                    [end, "!advance 70m"], "!advance 5h")
        if name == "rematch":
            # A lobby with bob invited back (and pinged), nothing started.
            return setup + ["mod> /gamemod abort"], "alice> /game rematch"
        raise ll.Fail("no scenario %s" % name)
    finally:
        lair.kill()


def prepare_ai(binary, tmp, seed):
    """A game of alice against one AI seat, up to alice's 'end'."""
    db = os.path.join(tmp, "scratch-ai.db")
    lair = ll.Lair(binary, db, seed)
    try:
        setup = ["alice> /game new kind:supervillain ai:1",
                 "alice> /game start"]
        out = None
        for line in setup:
            out = lair.send(line)
            ll.check(not any(m["to"] == "ephemeral" for m in out), repr(out))
        user, options = ll.one_prompt(out, setup[-1])
        more, user = lines_until_end(lair, user, options)
        return setup + more, "%s> /game move choice:end" % user
    finally:
        lair.kill()


def run_lines(binary, db, seed, lines, env_extra=None):
    """Runs lines on db; returns (the answers, or None when the process
    was killed by the fault hook)."""
    if env_extra:
        env = ll.sanitizer_env()
        env.update(env_extra)
        argv = [binary, "local", "--json", "--db", db, "--seed", str(seed),
                "--mod", "mod"]
        p = subprocess.run(argv, input="\n".join(lines).encode() + b"\n",
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           env=env, timeout=120)
        if p.returncode == -9:
            return None
        ll.check(p.returncode == 0 and not p.stderr.strip(),
                 "lair exited %d: %s" % (p.returncode, p.stderr[-2000:]))
        return p.stdout
    lair = ll.Lair(binary, db, seed, mods=("mod",))
    outs = []
    for line in lines:
        outs.append(lair.send(line))
    lair.close()
    return outs


def scenario(binary, tmp, name, seed):
    if name == "ai_move":
        setup, command = prepare_ai(binary, tmp, seed)
    else:
        setup, command = prepare(binary, tmp, name, seed)
    if not command.startswith("!"):
        command = "@crash-%s %s" % (name, command)
    base = os.path.join(tmp, "%s-base.db" % name)
    run_lines(binary, base, seed, setup)
    before = dump(base)
    ref = os.path.join(tmp, "%s-ref.db" % name)
    shutil.copy(base, ref)
    out = run_lines(binary, ref, seed, [command])[0]
    ll.check(not any(m["to"] == "ephemeral" for m in out),
             "%s: %r was refused: %r" % (name, command, out))
    after = dump(ref)
    ll.check(differs(before, after), "%s: %r changed nothing" %
             (name, command))
    if name in EXPECT:
        table, what, ok = EXPECT[name]
        ll.check(ok(after[table]), "%s: %r did not %s: %s holds %r" %
                 (name, command, what, table, after[table]))
    if not command.startswith("!"):
        # A retry of the same request is answered, not applied again.
        again = run_lines(binary, ref, seed, [command])[0]
        ll.check(len(again) == 1 and again[0]["to"] == "ephemeral" and
                 again[0]["text"].startswith(
                     "That request was already handled."),
                 "%s: the retried %r said %r" % (name, command, again))
        ll.check(differs(dump(ref), after) is None,
                 "%s: the retried %r changed the database" % (name, command))
    trial = os.path.join(tmp, "%s-trial.db" % name)
    kills = {"before": 0, "after": 0}
    tried = set()

    def trial_at(n):
        for f in os.listdir(tmp):
            if f.startswith("%s-trial.db" % name):
                os.unlink(os.path.join(tmp, f))
        shutil.copy(base, trial)
        tried.add(n)
        got = run_lines(binary, trial, seed, [command],
                        {"LAIR_FAULT_AFTER": str(n)})
        # A plain process catches up, then the file is compared.
        run_lines(binary, trial, seed, [])
        now = dump(trial)
        if got is not None:
            t = differs(now, after)
            ll.check(t is None, "%s: ran to the end with N=%d but table %s "
                     "differs from the uninterrupted run" % (name, n, t))
            return False
        if differs(now, before) is None:
            kills["before"] += 1
        elif differs(now, after) is None:
            kills["after"] += 1
        else:
            raise ll.Fail("%s: killed after write %d, the database is "
                          "neither the before- nor the after-state (table "
                          "%s differs from before, %s from after)" %
                          (name, n, differs(now, before),
                           differs(now, after)))
        return True

    n = 1
    while trial_at(n):
        n += 1 if n < EVERY_N_UP_TO else STEP_AFTER
    # The writes just before the end (the COMMIT among them) are tried
    # whatever the step skipped.
    for k in range(n - 1, max(0, n - STEP_AFTER), -1):
        if k not in tried:
            trial_at(k)
    ll.check(kills["before"] > 0 and kills["after"] > 0,
             "%s: %r: the kills never left the %s-state" %
             (name, command, "before" if not kills["before"] else "after"))
    return "%s %d kills (%d before, %d after)" % (
        name, len(tried) - 1, kills["before"], kills["after"])


def run(binary, tmp):
    results = []
    for i, name in enumerate(["move", "final", "ai_move", "new_ai", "join",
                              "leave", "kick", "leave_running", "abort",
                              "undo", "deadline", "escalate", "rematch"]):
        results.append(scenario(binary, tmp, name, 4100 + i))
    return "; ".join(results)


if __name__ == "__main__":
    raise SystemExit(ll.main("local_crash", run))
