#!/usr/bin/python3
"""discord_pictures: the table's pictures on Discord, through the fake.

Two members play a few turns of a Supervillain game (a game Lair draws),
and a Disorder of the Villains game (one it does not) sits in a second
channel. Checked:

- the turn's channel message carries the picture of the public table: a
  multipart/form-data request (payload_json with `attachments` [{id 0,
  filename}] and files[0], image/png) that the fake accepted, shown in
  the embed as `attachment://NAME`, NAME game-1-turn-T-vV.png;
- every picture's bytes are a valid PNG: its signature, chunks whose
  CRCs hold, IHDR first and IEND last, and IDAT that inflates to exactly
  the rows IHDR describes;
- /game status answers with the same picture (the type 4 callback itself
  is multipart, ephemeral, its embed showing the attachment); /game
  board answers with it and one line naming the game, the turn and
  whose decision it is; `public:yes` posts it in the channel; a /game
  board whose command waited 2.2 s for the database (another writer) is
  deferred (type 5, ephemeral) before Discord's 3 s, and the picture
  comes with the edit of the deferred answer (PATCH @original,
  multipart);
- a move edits the turn's message: the PATCH lists only the new file, and
  the message then holds exactly one attachment, the newest picture
  (never an older one); when the turn passes, the old turn's message is
  edited to hold none (its table is gone too) and the next turn's
  message has the new picture;
- /game board in the Disorder game is refused, naming the game and
  pointing to /game status; Disorder's turn messages carry no file;
- every interaction answered within 3 s, no violation (the fake checks
  each multipart body against openapi.json: payload_json's schema, file
  names, PNG signatures, attachments ids against the files, embed images
  against the attachments), a clean SIGTERM, and no picture bytes in
  the bot's log.
"""

import os
import re
import sqlite3
import struct
import time
import zlib

import discordlib as dl
from discordlib import check

CH_SV = dl.CHANNEL
CH_DIS = "1187000000000000202"
NAME = re.compile(r"^game-(\d+)-turn-(\d+)-v(\d+)\.png$")
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
# Bytes per pixel by PNG colour type (8-bit samples).
CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}


def png_size(data, what):
    """(width, height) of data, which must be a whole, valid PNG."""
    check(data.startswith(PNG_SIGNATURE), "%s: no PNG signature" % what)
    pos, chunks, idat = 8, [], b""
    while pos < len(data):
        check(pos + 12 <= len(data), "%s: a chunk cut short" % what)
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        crc, = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])
        check(len(body) == length and zlib.crc32(kind + body) == crc,
              "%s: chunk %r has a bad CRC" % (what, kind))
        chunks.append(kind)
        if kind == b"IHDR":
            w, h, depth, colour, _, _, interlace = struct.unpack(
                ">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    check(chunks[0] == b"IHDR" and chunks[-1] == b"IEND" and
          b"IDAT" in chunks, "%s: chunks %r" % (what, chunks))
    check(depth == 8 and colour in CHANNELS and interlace == 0 and
          w > 0 and h > 0, "%s: IHDR %r" % (what, (w, h, depth, colour)))
    raw = zlib.decompress(idat)
    check(len(raw) == h * (1 + w * CHANNELS[colour]),
          "%s: %d bytes of pixels for %d x %d" % (what, len(raw), w, h))
    return w, h


def picture_of(fake, msg, what):
    """(name, bytes) of the one picture a message holds, shown in its
    embed; checked as a PNG."""
    att = msg["attachments"]
    check(len(att) == 1, "%s holds %d attachments: %r" %
          (what, len(att), [a["filename"] for a in att]))
    name = att[0]["filename"]
    check(NAME.match(name) and att[0]["content_type"] == "image/png",
          "%s: attachment %r" % (what, att[0]))
    urls = [(e.get("image") or {}).get("url") for e in msg["embeds"]]
    check("attachment://" + name in urls,
          "%s: no embed shows attachment://%s (%r)" % (what, name, urls))
    data = fake.attachment(att[0]["id"])
    png_size(data, what)
    return name, data


def uploads(fake, since, method, path_re):
    """The fake's records of requests since n whose method is method and
    whose path matches path_re, with the files they carried."""
    return [r for r in fake.requests(since) if r["method"] == method and
            re.search(path_re, r["path"])]


def check_upload(r, name, what):
    """r (a request record) sent exactly one file, name, as files[0]
    listed in payload_json's attachments, and the fake took it."""
    check((r.get("content_type") or "").startswith("multipart/form-data;"),
          "%s: sent as %r" % (what, r.get("content_type")))
    check(r["status"] in (200, 204), "%s: refused %s %s" %
          (what, r["status"], r.get("code")))
    check([(f["name"], f["filename"], f["content_type"])
           for f in r.get("files") or []] ==
          [("files[0]", name, "image/png")],
          "%s: files %r" % (what, r.get("files")))
    body = r["body"]
    if "type" in body:  # an interaction callback: the message is its data
        body = body.get("data") or {}
    check(body.get("attachments") == [{"id": "0", "filename": name}],
          "%s: attachments %r" % (what, body.get("attachments")))


def turn_messages(fake, channel):
    """The channel's turn messages (an embed titled "... turn N"), by
    turn."""
    out = {}
    for m in fake.messages(channel=channel):
        for e in m["embeds"]:
            t = re.search(r"game #\d+, turn (\d+)$", e.get("title") or "")
            if t and m["_fake"]["via"] == "channel":
                out[int(t.group(1))] = m
    return out


def answered_with_picture(fake, info, what):
    """The answer's message (ephemeral or not; a deferred answer once its
    edit came) and its picture."""
    def answer():
        it = fake.get("/interaction/%s" % info["id"])
        msg = it.get("original")
        return msg if msg and msg["attachments"] else None
    msg = dl.wait_until(answer, 10, "the picture of %s" % what)
    name, data = picture_of(fake, msg, what)
    return msg, name, data


def start_game(fake, channel, kind):
    """/game new, join, start: the game's number."""
    info = dl.slash(fake, "alice", "new", dl.options(kind=kind, seats=2),
                    channel=channel)
    m = re.search(r"opened game #(\d+)", dl.answer_text(info))
    check(m, "/game new kind:%s: %r" % (kind, dl.answer_text(info)))
    dl.slash(fake, "bob", "join", channel=channel)
    info = dl.slash(fake, "alice", "start", channel=channel)
    check("starts!" in dl.answer_text(info), "/game start: %r" %
          dl.answer_text(info))
    return int(m.group(1))


def decider_of(fake, channel, game):
    """Who decides now in game, from the board's line."""
    info = dl.slash(fake, "alice", "status", channel=channel)
    m = re.search(r"Game #%d: Waiting for (\w+)\." % game,
                  dl.answer_text(info))
    check(m, "/game status: %r" % dl.answer_text(info))
    return m.group(1), info


def typed(fake, who, channel):
    """who answers with the first option autocomplete offers, ending the
    turn when that is all there is to do. Returns the option's id."""
    choices = dl.autocomplete(fake, who, "move", "choice", "",
                              channel=channel)
    check(choices and choices[0]["value"] != "-",
          "%s has nothing to answer: %r" % (who, choices))
    ids = [c["value"] for c in choices]
    value = next((v for v in ids if v.split(".")[0] in ("mob", "project")),
                 "end" if "end" in ids else ids[0])
    info = dl.slash(fake, who, "move", dl.options(choice=value),
                    channel=channel)
    check(dl.acted(info), "move %r by %s: %r" %
          (value, who, dl.answer_text(info)))
    return value


def part_supervillain(fake, db, stats):
    since = fake.last_request_n()
    game = start_game(fake, CH_SV, "supervillain")
    turns = dl.wait_until(lambda: turn_messages(fake, CH_SV), 10,
                          "the first turn's message")
    turn = max(turns)
    first = turns[turn]
    name, data = picture_of(fake, first, "turn %d's message" % turn)
    g, t, v = map(int, NAME.match(name).groups())
    check((g, t) == (game, turn), "the picture %s is not game #%d turn %d" %
          (name, game, turn))
    posted = uploads(fake, since, "POST", r"/channels/%s/messages$" % CH_SV)
    check([r for r in posted if r.get("files")],
          "the turn's message was not posted with its picture")
    check_upload([r for r in posted if r.get("files")][-1], name,
                 "the turn's first post")
    stats["png_bytes"] = len(data)
    stats["png_size"] = "%dx%d" % png_size(data, name)

    # /game status: the same picture on the (multipart) callback itself.
    since = fake.last_request_n()
    decider, info = decider_of(fake, CH_SV, game)
    check(dl.is_ephemeral(info), "/game status was not ephemeral")
    msg, sname, sdata = answered_with_picture(fake, info, "/game status")
    check(sname == name and sdata == data,
          "/game status showed %s, not the turn's %s" % (sname, name))
    cb = uploads(fake, since, "POST", r"^/interactions/%s/" % info["id"])
    check(len(cb) == 1, "%d callbacks for /game status" % len(cb))
    if info["callback"]["type"] == 4:
        check_upload(cb[0], name, "/game status's callback")
    else:  # a slow machine: deferred, the picture on the edit
        stats["deferred"] += 1

    # /game board: one line and the picture; public:yes in the channel.
    info = dl.slash(fake, "bob", "board", channel=CH_SV)
    text = dl.answer_text(info)
    want = "Game #%d (Supervillain: This Galaxy Is Mine!), turn %d: " \
        "waiting for %s." % (game, turn, decider)
    check(text == want, "/game board said %r, not %r" % (text, want))
    check(dl.is_ephemeral(info), "/game board was not ephemeral")
    _, bname, bdata = answered_with_picture(fake, info, "/game board")
    check(bname == name and bdata == data, "/game board showed %s" % bname)
    info = dl.slash(fake, "bob", "board", dl.options(public="yes"),
                    channel=CH_SV)
    check(not dl.is_ephemeral(info), "/game board public:yes was ephemeral")
    answered_with_picture(fake, info, "/game board public:yes")

    # An answer that comes late (its command waited 2.2 s for the
    # database, another writer holding it) is deferred, ephemeral as the
    # answer is, and the picture comes with the edit of the deferred
    # answer (PATCH @original, multipart).
    since = fake.last_request_n()
    con = sqlite3.connect(db, timeout=5, isolation_level=None)
    con.execute("BEGIN IMMEDIATE")
    r = fake.interaction(dl.slash_payload("bob", "board", channel=CH_SV))
    time.sleep(2.2)
    con.execute("ROLLBACK")
    con.close()
    info = fake.wait(r["id"])
    cb = info["callback"] or {}
    check(cb.get("type") == 5 and (cb.get("data") or {}).get("flags") == 64
          and info["age_at_callback_ms"] < 3000,
          "the late /game board was answered %r after %s ms" %
          (cb, info["age_at_callback_ms"]))
    msg, lname, _ = answered_with_picture(fake, info, "the late /game board")
    check(lname == name and msg["_fake"]["ephemeral"] and
          dl.message_text(msg) == want, "the late /game board: %r, %s" %
          (dl.message_text(msg), lname))
    edit = uploads(fake, since, "PATCH", r"/messages/@original$")
    check(len(edit) == 1, "%d edits of the late answer" % len(edit))
    check_upload(edit[0], name, "the late answer's edit")

    # Moves: each edit of the turn's message replaces its picture; a
    # passed turn's message keeps none.
    seen = {name}
    edits = passed = 0
    for k in range(12):
        since = fake.last_request_n()
        before = turn_messages(fake, CH_SV)
        cur = max(before)
        old_name = before[cur]["attachments"][0]["filename"]
        who, _ = decider_of(fake, CH_SV, game)
        typed(fake, who, CH_SV)

        def settled():
            now = turn_messages(fake, CH_SV)
            m = now.get(max(now))
            att = m["attachments"] if m else []
            return now if att and att[0]["filename"] != old_name and \
                len(now[cur]["attachments"]) <= 1 else None
        now = dl.wait_until(settled, 10, "the turn's message after move %d"
                            % (k + 1))
        top = max(now)
        pname, pdata = picture_of(fake, now[top], "turn %d's message" % top)
        check(pname not in seen, "the picture %s came again" % pname)
        seen.add(pname)
        check(int(NAME.match(pname).group(3)) >
              int(NAME.match(old_name).group(3)),
              "%s is not newer than %s" % (pname, old_name))
        if top == cur:
            edits += 1
            mid = now[cur]["id"]
            patches = dl.wait_until(lambda: [r for r in uploads(
                fake, since, "PATCH", r"/channels/%s/messages/%s$" %
                (CH_SV, mid)) if r["status"] is not None], 10,
                "the PATCH of the turn's message")
            check_upload(patches[-1], pname, "the turn's edit")
            check(now[cur]["_fake"]["edits"] >= 1,
                  "the turn's message was not edited")
        else:
            passed += 1
            old = dl.wait_until(
                lambda: [m for t, m in turn_messages(fake, CH_SV).items()
                         if t == cur and not m["attachments"]], 10,
                "turn %d's message without its picture" % cur)[0]
            check(not any((e.get("image") or {}).get("url")
                          for e in old["embeds"]),
                  "turn %d's message still shows a picture" % cur)
            check("Turn over; now" in dl.message_text(old),
                  "turn %d's message reads %r" % (cur, dl.message_text(old)))
        if edits and passed:
            break
    check(edits and passed, "%d edits and %d passed turns: the test "
          "wants both" % (edits, passed))
    stats["pictures"] = len(seen)
    stats["edits"], stats["passed"] = edits, passed
    return game


def part_disorder(fake, stats):
    game = start_game(fake, CH_DIS, "disorder")
    info = dl.slash(fake, "alice", "board", channel=CH_DIS)
    text = dl.answer_text(info)
    check(dl.is_ephemeral(info) and "Disorder of the Villains" in text and
          "game #%d" % game in text and "/game status" in text and
          not (info.get("original") or {}).get("attachments"),
          "/game board in Disorder said %r" % text)
    for t, m in turn_messages(fake, CH_DIS).items():
        check(not m["attachments"], "Disorder's turn %d carries %r" %
              (t, m["attachments"]))


def run(binary, openapi, tmp):
    stats = {"deferred": 0}
    # The most drawing time Lair allows: in the sanitizer build a picture
    # takes 100-200 ms, and the default (250 ms a second) would leave a
    # picture out of a move that follows the last one closely.
    os.environ["LAIR_PICTURE_MS"] = "1000"
    with dl.processes(binary, openapi, tmp) as (fake, bot, db, local):
        part_supervillain(fake, db, stats)
        part_disorder(fake, stats)
        n = dl.check_interactions(fake)
        fake.no_violations()
        log = bot.stop()
        check("\x89PNG" not in log and "IHDR" not in log,
              "picture bytes in the bot's log")
    return ("%d interactions, %d pictures (%s, %d bytes), %d turn "
            "messages edited, %d passed, a late /game board deferred with "
            "its picture, %d status answers deferred" %
            (n, stats["pictures"], stats["png_size"], stats["png_bytes"],
             stats["edits"], stats["passed"], stats["deferred"]))


if __name__ == "__main__":
    raise SystemExit(dl.main("discord_pictures", run))
