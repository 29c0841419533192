#!/usr/bin/env python3
"""local_pictures: the console writes the table's pictures with --images.

`lair local --json --images DIR` on a Supervillain game (one Lair draws):
the turn's channel message, /game status and /game board each name their
picture ("image": DIR/game-1-turn-T-vV.png) and the file is there, a
whole PNG (signature, chunks whose CRCs hold, IHDR first, IEND last);
after a move the turn's message names a newer file and the older one is
still there, unchanged. /game board's line names the game, the turn and
whom it waits for. In a Disorder of the Villains game (no pictures) no
message names an image and /game board says why and points to /game
status. Without --json each picture is named on a line of its own
("picture: PATH"); without --images no message names one, nothing is
written and /game board says how to get pictures; --images on a file
that is not a directory stops `lair local` with status 2.
"""

import os
import re
import struct
import subprocess
import sys
import zlib

import lairlocal as ll

NAME = re.compile(r"^game-(\d+)-turn-(\d+)-v(\d+)\.png$")


def lair(binary, args, lines):
    """(exit status, stdout, stderr) of `lair local` ARGS fed lines."""
    p = subprocess.run([binary, "local"] + args, input="".join(
        line + "\n" for line in lines).encode(), stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, env=ll.sanitizer_env(), timeout=120)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def answers(binary, db, images, lines):
    """The messages of each input line (--json), in order."""
    args = ["--json", "--db", db, "--seed", "5"]
    if images:
        args += ["--images", images]
    rc, out, err = lair(binary, args, lines)
    ll.check(rc == 0 and not err.strip(), "lair exited %d: %s" %
             (rc, err[-2000:]))
    out_lines = ll.split_answers(out.splitlines())
    ll.check(len(out_lines) == len(lines), "%d answers to %d lines" %
             (len(out_lines), len(lines)))
    return out_lines


def check_png(path):
    """Reads path, which must be a whole PNG; returns its bytes."""
    with open(path, "rb") as f:
        data = f.read()
    ll.check(data.startswith(b"\x89PNG\r\n\x1a\n"), "%s: no PNG signature"
             % path)
    pos, kinds = 8, []
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        crc, = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])
        ll.check(zlib.crc32(kind + body) == crc, "%s: a bad CRC in %r" %
                 (path, kind))
        kinds.append(kind)
        pos += 12 + length
    ll.check(kinds[0] == b"IHDR" and kinds[-1] == b"IEND" and
             b"IDAT" in kinds, "%s: chunks %r" % (path, kinds))
    return data


def image_of(msg, images, what):
    """The picture a message names: its path, checked (in images, named
    game-G-turn-T-vV.png, a PNG); returns (path, (G, T, V))."""
    path = msg.get("image")
    ll.check(path, "%s names no picture: %r" % (what, msg))
    ll.check(os.path.dirname(path) == images and
             NAME.match(os.path.basename(path)),
             "%s: the picture %r" % (what, path))
    check_png(path)
    return path, tuple(map(int, NAME.match(os.path.basename(path)).groups()))


def channel_table(msgs):
    """The turn's channel message among msgs (it has a title)."""
    tables = [m for m in msgs if m["to"] == "channel" and m.get("title")]
    ll.check(tables, "no turn message in %r" % msgs)
    return tables[-1]


def decider_and_option(msgs):
    """(the player asked to decide by DM, their first option's id)."""
    for m in msgs:
        if m["to"] == "dm" and m.get("options"):
            return m["user"], m["options"][0]["id"]
    raise ll.Fail("nobody was asked to decide: %r" % msgs)


def run(binary, tmp):
    db, images = os.path.join(tmp, "p.db"), os.path.join(tmp, "pictures")
    lines = ["alice> /game new kind:supervillain", "bob> /game join",
             "alice> /game start", "alice> /game status", "bob> /game board"]
    a = answers(binary, db, images, lines)
    start = a[2]
    first, (g, t, v) = image_of(channel_table(start), images,
                                "the first turn's message")
    ll.check(g == 1, "the picture is of game %d" % g)
    status = [m for m in a[3] if m["to"] == "ephemeral"]
    ll.check(status and image_of(status[0], images, "/game status")[0] ==
             first, "/game status: %r" % a[3])
    who, option = decider_and_option(start)
    board = a[4]
    want = "Game #1 (Supervillain: This Galaxy Is Mine!), turn %d: " \
        "waiting for %s." % (t, who)
    ll.check(len(board) == 1 and board[0]["text"] == want and
             image_of(board[0], images, "/game board")[0] == first,
             "/game board: %r" % board)
    before = check_png(first)

    # A move: the turn's message names a newer picture; the old one stays.
    a = answers(binary, db, images, ["%s> /game move choice:%s" %
                                     (who, option)])
    now, (g2, t2, v2) = image_of(channel_table(a[0]), images,
                                 "the turn's message after a move")
    ll.check(v2 > v and now != first, "after the move: %s, before %s" %
             (now, first))
    ll.check(check_png(first) == before, "%s changed" % first)
    files = sorted(os.listdir(images))
    ll.check(os.path.basename(first) in files and
             os.path.basename(now) in files and
             not [f for f in files if not NAME.match(f)],
             "the directory holds %r" % files)

    # Disorder of the Villains: no pictures, and /game board says so.
    ddb = os.path.join(tmp, "d.db")
    a = answers(binary, ddb, images, [
        "alice> /game new kind:disorder", "bob> /game join",
        "alice> /game start", "alice> /game board"])
    ll.check(not [m for msgs in a for m in msgs if "image" in m],
             "a Disorder message names a picture")
    ll.check(len(a[3]) == 1 and "Lair draws no pictures of Disorder of "
             "the Villains games (game #1)" in a[3][0]["text"] and
             "/game status" in a[3][0]["text"], "/game board: %r" % a[3])

    # Text output: each picture on a line of its own.
    tdb, timages = os.path.join(tmp, "t.db"), os.path.join(tmp, "tpics")
    rc, out, err = lair(binary, ["--db", tdb, "--seed", "5", "--images",
                                 timages], lines[:4])
    ll.check(rc == 0 and not err.strip(), "text mode: %d %s" % (rc, err))
    named = re.findall(r"^ +picture: (\S+)$", out, re.M)
    ll.check(len(named) == 2 and
             named[0] == os.path.join(timages, os.path.basename(first)) and
             all(os.path.isfile(p) for p in named),
             "text mode named %r" % named)

    # Without --images: nothing drawn, nothing named, and board says how.
    ndb = os.path.join(tmp, "n.db")
    a = answers(binary, ndb, None, lines)
    ll.check(not [m for msgs in a for m in msgs if "image" in m],
             "a picture without --images")
    ll.check(len(a[4]) == 1 and "lair local --images DIR" in a[4][0]["text"],
             "/game board without --images: %r" % a[4])

    # --images on a file.
    rc, out, err = lair(binary, ["--db", ndb, "--images", db], [])
    ll.check(rc == 2 and "cannot write pictures into %s: not a directory"
             % db in err, "--images on a file: %d %r" % (rc, err))
    return ("pictures written and named (%s, then %s), the older kept; "
            "Disorder without; text mode names them; none without "
            "--images" % (os.path.basename(first), os.path.basename(now)))


if __name__ == "__main__":
    sys.exit(ll.main("local_pictures", run))
