#!/usr/bin/env python3
"""local_quickstart: a newcomer's first command lands at the console table.

The README's quick start runs plain `lair` (tools/run.sh). With no
DISCORD_TOKEN that is the console table: `lair local` and plain `lair`
with empty input must print the short help (it names the console table
and /game new), exit 0 and write nothing to stderr; plain `lair` with
HOME set to a fresh directory (no LAIR_DB, no XDG_DATA_HOME) must create
its database at $HOME/.local/share/lair/lair.db. Then the example lines
the help shows, typed as they stand, open and start a game.
"""

import os
import re
import sqlite3
import subprocess
import sys

import lairlocal as ll


def run_lair(binary, args, home, stdin=""):
    env = ll.sanitizer_env()
    for k in ("LAIR_DB", "XDG_DATA_HOME", "DISCORD_TOKEN"):
        env.pop(k, None)
    env["HOME"] = home
    p = subprocess.run([binary] + args, input=stdin.encode(), env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=60, cwd=home)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def intro_ok(what, rc, out, err, db):
    ll.check(rc == 0, "%s exited %d: %s" % (what, rc, err))
    ll.check(not err.strip(), "%s wrote to stderr: %s" % (what, err))
    for t in ("console table", "/game new", "Ctrl-D"):
        ll.check(t in out, "%s: the help lacks %r:\n%s" % (what, t, out))
    ll.check("(database: %s)" % db in out,
             "%s does not say where its database is:\n%s" % (what, out))
    ll.check(len(out.splitlines()) <= 20, "%s: the help is not short "
             "(%d lines)" % (what, len(out.splitlines())))


def run(binary, tmp):
    checks = 0
    for what, args in (("lair local", ["local"]), ("plain lair", [])):
        home = os.path.join(tmp, what.replace(" ", "_"))
        os.mkdir(home)
        db = os.path.join(home, ".local", "share", "lair", "lair.db")
        rc, out, err = run_lair(binary, args, home)
        intro_ok(what, rc, out, err, db)
        ll.check(os.path.isfile(db), "%s did not create %s" % (what, db))
        con = sqlite3.connect("file:%s?mode=ro" % db, uri=True)
        tables = {r[0] for r in con.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
        con.close()
        ll.check({"games", "moves"} <= tables,
                 "%s: %s is not Lair's database (tables %r)" %
                 (what, db, sorted(tables)))
        checks += 1

    # The example lines of the help, typed as shown, start a game.
    example = [l.strip() for l in out.splitlines()
               if re.match(r"^\s+[a-z]+> /game (new|join|start)\b", l)]
    ll.check(len(example) == 3, "the help's example: %r" % example)
    rc, out, err = run_lair(binary, [], home, "\n".join(example) + "\n")
    ll.check(rc == 0 and not err.strip(), "the example exited %d: %s" %
             (rc, err))
    ll.check(re.search(r"^\[#table\] Game #1 \(.*\) starts!", out, re.M),
             "the help's example did not start a game:\n%s" % out)
    # A message is a line that starts with "[" and its indented lines.
    msgs = re.findall(r"^\[.*(?:\n[ ]+.*)*", out, re.M)
    ll.check(any(re.match(r"\[DM (alice|bob)\] ", m) and
                 "**Your turn** in game #1:" in m for m in msgs),
             "nobody was asked to move:\n%s" % out)
    return "plain lair and lair local print the console table's help, exit " \
           "0, create $HOME/.local/share/lair/lair.db; the help's example " \
           "starts a game (%d runs)" % (checks + 1)


if __name__ == "__main__":
    sys.exit(ll.main("local_quickstart", run))
