#!/usr/bin/env python3
"""local_history: a game's history, its record, rematches, moderators' views.

A seeded 2-player game is played to its end (with a few undos) through
`lair local --json`; /game log is read page by page; /game export gives
its record as a file, which `lair replay` accepts (same result, same
final state as the bot's !dump) and which, changed in each of several
ways (an answer's id, a dropped answer, the seed, the result, the state
checksum, the record checksum, a cut-off file, not a record at all), it
refuses with exit status 1 or 2 and one clear line on stderr. /game
rematch opens a lobby that invites the other player back and starts once
they joined; that game, aborted by a
moderator, is exported and replayed too. The audit log holds the
moderators' settings, kick and abort with actor and detail, newest
first and paged; /gamemod list lists every game of the server.
A reader whose language is German gets the log, the export's messages
and its transcript in German, and the same record file.
The console's human output shows the attachment and writes no file.
"""

import json
import os
import random
import re
import sqlite3
import subprocess
import sys

import lairlocal as ll

SEED = 23
fnv1a64, canonical, rehash = ll.fnv1a64, ll.canonical, ll.rehash


def text_of(out):
    return "\n".join(m["text"] for m in out)


def only_reply(out, user, what):
    ll.check(out and all(m["to"] == "ephemeral" and m["user"] == user
                         for m in out),
             "%s: expected ephemeral replies to %s, got %r" % (what, user, out))
    return text_of(out)


def export(lair, line, user, name):
    """Sends an export line; returns (record dict, file content text).
    The record comes with a readable transcript, checked by
    check_transcript."""
    out = lair.send(line)
    ll.check(len(out) == 2 and all(m["to"] == "ephemeral" and
                                   m["user"] == user and "file" in m
                                   for m in out),
             "%r gave no record and transcript: %r" % (line, out))
    f = out[0]["file"]
    ll.check(f["name"] == name, "the file is called %r, not %r" %
             (f["name"], name))
    ll.check("lair replay %s" % name in out[0]["text"],
             "the export message does not say how to check it: %r" %
             out[0]["text"])
    md = out[1]["file"]
    ll.check(md["name"] == name.replace(".json", ".md") and
             "turn by turn" in out[1]["text"],
             "the transcript came as %r: %r" % (md["name"], out[1]["text"]))
    EXPORTED_MD[name] = md["content"]
    rec = json.loads(f["content"])
    ll.check(rec["record_fnv1a64"] == fnv1a64(canonical(
        {k: v for k, v in rec.items() if k != "record_fnv1a64"})),
        "record_fnv1a64 is not the FNV-1a of the canonical record")
    return rec, f["content"]


def replay(binary, path):
    p = subprocess.run([binary, "replay", path], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, env=ll.sanitizer_env(),
                       timeout=120)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def replay_ok(binary, path, rec):
    rc, out, err = replay(binary, path)
    ll.check(rc == 0 and not err,
             "lair replay %s: exit %d, stderr %r" % (path, rc, err))
    lines = out.splitlines()
    ll.check(len(lines) == 1, "lair replay printed %r" % out)
    got = json.loads(lines[0])
    ll.check(got["ok"] is True and got["game"] == rec["ruleset"] and
             got["moves"] == len(rec["answers"]) and
             got["result"] == rec["result"] and
             got["state_fnv1a64"] == rec["state_fnv1a64"] and
             got["status"] == rec["status"],
             "lair replay said %r for a record with %d answers, result %r" %
             (got, len(rec["answers"]), rec["result"]))
    return got


def tamper_cases(rec, content):
    """(name, file text, exit status, text stderr must hold)."""
    n = len(rec["answers"])
    k = n // 2
    cases = []

    changed = json.loads(json.dumps(rec))
    changed["answers"][k][1] = "no.such-option"
    cases.append(("an answer's id changed", json.dumps(rehash(changed)), 1,
                  "lair replay: answer %d (no.such-option by seat %d) is not "
                  "legal at that point" % (k + 1, changed["answers"][k][0])))
    cases.append(("an answer changed, checksum left", json.dumps(changed), 1,
                  "record_fnv1a64"))

    wrong_seat = json.loads(json.dumps(rec))
    wrong_seat["answers"][k][0] = 1 - wrong_seat["answers"][k][0]
    cases.append(("an answer given to the other seat",
                  json.dumps(rehash(wrong_seat)), 1,
                  "lair replay: answer %d (" % (k + 1)))

    dropped = json.loads(json.dumps(rec))
    del dropped["answers"][k]
    cases.append(("an answer dropped", json.dumps(rehash(dropped)), 1,
                  ("is not legal at that point",
                   "the final state does not match the record")))

    last = json.loads(json.dumps(rec))
    del last["answers"][-1]
    cases.append(("the last answer dropped", json.dumps(rehash(last)), 1,
                  "the final state does not match the record (tampered or "
                  "from other rules)"))

    seed = json.loads(json.dumps(rec))
    seed["seed"] = str(int(seed["seed"]) + 1)
    cases.append(("the seed changed", json.dumps(rehash(seed)), 1,
                  ("is not legal at that point",
                   "the final state does not match the record")))

    result = json.loads(json.dumps(rec))
    result["result"]["winners"] = [1 - w for w in result["result"]["winners"]] \
        or [0]
    cases.append(("the result changed", json.dumps(rehash(result)), 1,
                  "the result does not match the record"))

    reason = json.loads(json.dumps(rec))
    reason["result"]["reason"] = "charm"
    cases.append(("the result's reason changed", json.dumps(rehash(reason)),
                  1, "the result does not match the record"))

    state = json.loads(json.dumps(rec))
    state["state_fnv1a64"] = "%016x" % (int(state["state_fnv1a64"], 16) ^ 1)
    cases.append(("the state checksum changed", json.dumps(rehash(state)), 1,
                  "the final state does not match the record (tampered or "
                  "from other rules)"))

    rules = json.loads(json.dumps(rec))
    rules["version"] += 1
    cases.append(("other rules' version", json.dumps(rehash(rules)), 1,
                  "rules this Lair does not have"))

    cases.append(("the file cut in half", content[:len(content) // 2], 2,
                  "is not valid JSON"))
    cases.append(("an empty file", "", 2, "is not valid JSON"))
    cases.append(("not a record", '{"hello": 1}\n', 2,
                  "is not a valid Lair game record: 'lair_record' is "
                  "missing"))
    cases.append(("a JSON list", "[1, 2]\n", 2, "is not a Lair game record"))
    no_answers = json.loads(json.dumps(rec))
    del no_answers["answers"]
    cases.append(("answers missing", json.dumps(rehash(no_answers)), 2,
                  "'answers' is missing"))
    newer = json.loads(json.dumps(rec))
    newer["lair_record"] = 2
    cases.append(("a newer record format", json.dumps(rehash(newer)), 2,
                  "this Lair reads format 1"))
    dup = content.replace('"game":', '"game": 7, "game":', 1)
    cases.append(("a duplicated key", dup, 2, "is not valid JSON"))
    return cases


def check_tampering(binary, tmp, rec, content):
    names = []
    for i, (name, text, want_rc, want) in enumerate(tamper_cases(rec,
                                                                 content)):
        path = os.path.join(tmp, "tampered-%d.json" % i)
        with open(path, "w") as f:
            f.write(text)
        rc, out, err = replay(binary, path)
        wants = want if isinstance(want, tuple) else (want,)
        ll.check(rc == want_rc and not out and
                 len(err.splitlines()) == 1 and
                 any(w in err for w in wants),
                 "%s: lair replay exited %d (want %d), stdout %r, stderr %r "
                 "(want one line with %r)" % (name, rc, want_rc, out, err,
                                              wants))
        names.append(name)
    rc, out, err = replay(binary, os.path.join(tmp, "no-such-file.json"))
    ll.check(rc == 2 and not out and "cannot read" in err and
             len(err.splitlines()) == 1,
             "an absent file: exit %d, stderr %r" % (rc, err))
    return len(names) + 1


EXPORTED_MD = {}


def check_transcript(md, game, total, seats):
    """The Markdown transcript of an export: a heading naming the game,
    the players, then every move numbered once, in order, under turn
    headings with their times."""
    ll.check(md.startswith("# Game #%d: Supervillain" % game) and
             "- Players, in seat order: %s\n" % ", ".join(seats) in md,
             "the transcript begins %r" % md[:200])
    numbers = [int(n) for n in re.findall(r"(?m)^(\d+)\. ", md)]
    ll.check(numbers == list(range(1, total + 1)),
             "the transcript numbers %d moves, not %d: %r" %
             (len(numbers), total, numbers[:10]))
    turns = re.findall(r"(?m)^## Turn (\d+) - (\w+), (\d{4}-\d\d-\d\d "
                       r"\d\d:\d\d UTC)", md)
    ll.check(turns and all(t[1] in seats for t in turns),
             "the transcript's turn headings: %r" % turns[:5])
    unnamed = re.findall(r".*Villain \d.*", md)
    ll.check(not unnamed, "a seat is not named in %r" % unnamed[:3])


def check_log(lair, total):
    """Pages of whole turns, each under Discord's 2,000 characters, that
    together number every move once, in order, under turn headings."""
    text = only_reply(lair.send("bob> /game log since:start"), "bob", "the last page")
    m = re.match(r"\*\*Game #1\*\*, %d moves, page (\d+) of (\d+):\n" %
                 total, text)
    ll.check(m and m.group(1) == m.group(2), "/game log began %r" % text[:80])
    pages = int(m.group(2))
    ll.check(pages > 1, "a %d-move game's log fits one page" % total)
    numbers, turns = [], []
    for page in range(1, pages + 1):
        line = "bob> /game log since:start" + ("" if page == pages else
                                   " page:%d" % page)
        text = only_reply(lair.send(line), "bob", line)
        head = "**Game #1**, %d moves, page %d of %d:" % (total, page, pages)
        ll.check(text.startswith(head), "%r began %r, not %r" %
                 (line, text[:80], head))
        ll.check(len(text) <= 2000, "%r is %d characters long" %
                 (line, len(text)))
        numbers += [int(n) for n in re.findall(r"(?m)^(\d+)\. ", text)]
        turns += re.findall(r"(?m)^\*\*Turn (\d+)\*\* - (alice|bob), "
                            r"\d{4}-\d\d-\d\d \d\d:\d\d UTC"
                            r"( \(continued\))?$", text)
        ll.check((page > 1) == ("Earlier turns: /game log since:start page:%d" %
                                (page - 1) in text),
                 "%r: the pointer to earlier turns is wrong" % line)
        unnamed = re.findall(r".*Villain \d.*", text)
        ll.check(not unnamed, "%r leaves a seat unnamed: %r" %
                 (line, unnamed))
    ll.check(numbers == list(range(1, total + 1)),
             "the log's pages number %d moves, not 1..%d: %r" %
             (len(numbers), total, numbers[:30]))
    firsts = [int(t[0]) for t in turns if not t[2]]
    ll.check(firsts and firsts == sorted(set(firsts)),
             "each turn is headed once, in order: %r" % firsts[:30])
    text = only_reply(lair.send("bob> /game log since:start page:%d" % (pages + 1)),
                      "bob", "log past the end")
    ll.check("has %d pages (whole turns, about 1700 characters a page); "
             "there is no page %d." % (pages, pages + 1) in text,
             "log past the end said %r" % text)
    text = only_reply(lair.send("bob> /game log page:0"), "bob", "page 0")
    ll.check("Option 'page' must be a whole number from 1" in text,
             "page:0 said %r" % text)
    return pages


def check_log_without_lines(lair, db):
    """Moves stored before Lair kept their lines (a database from an
    older Lair) are still told: the log replays the game for them. The
    lines of moves 1-6 are taken away; the first page numbers them all
    again, each with a sentence, in the same turns as before."""
    def first_page():
        return only_reply(lair.send("bob> /game log since:start page:1"), "bob",
                          "page 1")
    before = first_page()
    con = sqlite3.connect(db)
    with con:
        con.execute("DELETE FROM lines WHERE game = 1 AND seq < 6")
    con.close()
    after = first_page()
    moves = re.findall(r"(?m)^(\d+)\. (\S.*)$", after)
    ll.check([int(n) for n, _ in moves[:6]] == list(range(1, 7)) and
             all(len(t) > 10 for _, t in moves[:6]),
             "without their lines moves 1-6 read %r" % moves[:6])
    heads = re.compile(r"(?m)^\*\*Turn \d+\*\* - \w+")
    ll.check(heads.findall(before) == heads.findall(after),
             "the turns of page 1 changed without the lines:\n%s\n%s" %
             (before, after))


def check_german(lair, total, pages, content, md):
    """A reader whose language is German reads the log, the export's
    messages and its transcript in German (the seats named, the moves
    numbered as in English); the record is the same file, its format
    having no language."""
    lair.send("dora> /prefs set language:de")
    text = only_reply(lair.send("dora> /game log since:start page:1"),
                      "dora", "a German log")
    ll.check(text.startswith("**Spiel #1**, %d Züge, Seite 1 von %d:\n" %
                             (total, pages)) and
             re.search(r"(?m)^\*\*Zug 1\*\* - alice, \d{4}-", text) and
             not re.search(r"Villain \d", text) and
             "Frühere Züge" not in text,
             "the German log's first page: %r" % text[:300])
    out = lair.send("dora> /game export game:1")
    ll.check(len(out) == 2 and all(m["to"] == "ephemeral" and
                                   m["user"] == "dora" and "file" in m
                                   for m in out),
             "the German export gave %r" % out)
    ll.check(out[0]["text"].startswith("Das Protokoll von Spiel #1 (") and
             "Prüfe es mit `lair replay game-1.json`." in out[0]["text"] and
             out[1]["text"] == "Was in Spiel #1 geschah, Zug für Zug "
             "(game-1.md).", "the German export said %r" %
             [m["text"] for m in out])
    ll.check(out[0]["file"]["content"] == content,
             "the record differs for a German reader")
    de = out[1]["file"]["content"]
    ll.check(de.startswith("# Spiel #1: Supervillain") and
             "- Spieler, nach Plätzen: alice, bob\n" in de and
             re.findall(r"(?m)^(\d+)\. ", de) ==
             re.findall(r"(?m)^(\d+)\. ", md) and
             re.findall(r"(?m)^## Zug (\d+) - (alice|bob), ", de) ==
             re.findall(r"(?m)^## Turn (\d+) - (alice|bob), ", md),
             "the German transcript begins %r" % de[:300])


def human_export(binary, db, tmp):
    """The console without --json saves the attachment beside the
    database and names its path; nothing lands in the working directory."""
    cwd = os.path.join(tmp, "human")
    os.mkdir(cwd)
    p = subprocess.run([binary, "local", "--db", db], cwd=cwd,
                       input=b"alice> /game export game:1\n",
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       env=ll.sanitizer_env(), timeout=120)
    out = p.stdout.decode()
    saved = os.path.join(os.path.dirname(db), "game-1.json")
    m = re.search(r"\[eph alice\] \(file saved as %s, (\d+) bytes\) The "
                  r"record of game #1 " % re.escape(saved), out)
    ll.check(p.returncode == 0 and not p.stderr and m,
             "human export: exit %d, stdout %r, stderr %r" %
             (p.returncode, out[-500:], p.stderr))
    ll.check(os.listdir(cwd) == [], "the console wrote files here: %r" %
             os.listdir(cwd))
    ll.check(os.path.getsize(saved) == int(m.group(1)),
             "the saved record has %d bytes, the console said %s" %
             (os.path.getsize(saved), m.group(1)))
    return int(m.group(1))


def run(binary, tmp):
    db = os.path.join(tmp, "history.db")
    lair = ll.Lair(binary, db, SEED, mods=["mod"])
    rng = random.Random(SEED)
    over = []

    def remember_end(line, out):
        over.extend(m["text"] for m in out if m["to"] == "channel" and
                    "is over.**" in m["text"])

    ll.play_random(lair, rng, 2, on_line=remember_end, undo_chance=0.03)
    ll.check(len(over) == 1, "the game's end was announced %d times" %
             len(over))
    total = len(ll.moves_in_db(db))
    pages = check_log(lair, total)
    check_log_without_lines(lair, db)

    # The finished game's record.
    rec, content = export(lair, "carol> /game export", "carol",
                          "game-1.json")
    ll.check(rec["lair_record"] == 1 and rec["game"] == 1 and
             rec["ruleset"] == "supervillain" and rec["players"] == 2 and
             rec["seats"] == ["alice", "bob"] and
             rec["status"] == "finished" and rec["result"],
             "the record's header: %r" %
             {k: v for k, v in rec.items() if k != "answers"})
    winners = " and ".join(rec["seats"][s] for s in rec["result"]["winners"])
    ll.check("%s win" % winners in over[0] and
             "(%s)" % rec["result"]["reason"] in over[0],
             "the record's result %r differs from the channel's %r" %
             (rec["result"], over[0]))
    ll.check(rec["state_fnv1a64"] == fnv1a64(lair.dump(1).encode()),
             "state_fnv1a64 is not the FNV-1a of the final state's text")
    check_transcript(EXPORTED_MD["game-1.json"], 1, total, ["alice", "bob"])
    md = EXPORTED_MD["game-1.json"]
    again, content2 = export(lair, "alice> /game export game:1", "alice",
                             "game-1.json")
    ll.check(content2 == content and EXPORTED_MD["game-1.json"] == md,
             "two exports of one game differ")
    check_german(lair, total, pages, content, md)
    path = os.path.join(tmp, "game-1.json")
    with open(path, "w") as f:
        f.write(content)
    replay_ok(binary, path, rec)
    p = subprocess.run([binary, "replay", "-"], input=content.encode(),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       env=ll.sanitizer_env(), timeout=120)
    ll.check(p.returncode == 0 and not p.stderr and
             json.loads(p.stdout)["ok"] is True,
             "lair replay - (stdin): exit %d, stderr %r" %
             (p.returncode, p.stderr))
    n_tampers = check_tampering(binary, tmp, rec, content)

    # Rematch: a lobby that waits for the other player, then starts.
    text = only_reply(lair.send("carol> /game rematch"), "carol",
                      "an onlooker's rematch")
    ll.check("Only the players of game #1 or a moderator can ask for a "
             "rematch." in text, "an onlooker's rematch said %r" % text)
    out = lair.send("bob> /game rematch")
    ll.check(not any(m["to"] == "ephemeral" for m in out),
             "the rematch was refused: %r" % out)
    chan = [m for m in out if m["to"] == "channel"]
    ll.check(chan and "bob asked for a rematch of game #1: game #2 " in
             chan[0]["text"] and "<@alice> is invited back" in
             chan[0]["text"] and chan[0]["game"] == 2 and
             chan[0]["status"] == "lobby",
             "the rematch was announced as %r" % chan[:1])
    text = only_reply(lair.send("bob> /game start"), "bob",
                      "a rematch started before alice answered")
    ll.check("Game #2 cannot start yet: alice is still invited" in text,
             "the early start said %r" % text)
    out = lair.send("alice> /game join")
    ll.check(any("alice joined game #2. Players: bob, alice. Everyone "
                 "invited has answered" in m["text"] for m in out),
             "alice's join said %r" % out)
    out = lair.send("bob> /game start")
    chan = [m for m in out if m["to"] == "channel"]
    ll.check(any("Game #2 (" in m["text"] and
                 "starts! Seats in turn order: bob, alice." in m["text"]
                 for m in chan), "game #2 did not start with bob, alice")
    ll.check(all(m.get("status") == "running" for m in out
                 if m.get("game") == 2),
             "game #2 is not running after the rematch")
    user, options = ll.one_prompt(out, "the rematch's start")
    status = only_reply(lair.send("alice> /game rematch game:1"), "alice",
                        "a rematch over the channel's limit")
    ll.check("This channel already has 1 open game (the limit is 1)." in
             status, "a second rematch said %r" % status)
    text = only_reply(lair.send("alice> /game export game:2"), "alice",
                      "exporting a running game")
    ll.check("Game #2 is still running." in text and "hidden card" in text,
             "exporting a running game said %r" % text)
    for _ in range(6):
        line = "%s> /game move choice:%s" % (user, rng.choice(options)["id"])
        out = lair.send(line)
        user, options = ll.one_prompt(out, line)

    # Moderators: settings, abort and kick are audited.
    text = only_reply(lair.send("alice> /gamemod audit"), "alice",
                      "a player's audit")
    ll.check(text == "Only moderators can use /gamemod audit (members with "
             "Manage Server, or the server's mod_role).",
             "a player's /gamemod audit said %r" % text)
    lair.send("mod> /gamemod settings key:games_per_channel value:2")
    out = lair.send("mod> /gamemod abort game:2")
    ll.check(any(m["to"] == "channel" and "Game #2 was ended by mod" in
                 m["text"] for m in out), "the abort said %r" % out)
    rec2, content2 = export(lair, "bob> /game export", "bob", "game-2.json")
    ll.check(rec2["status"] == "aborted" and rec2["result"] is None and
             len(rec2["answers"]) == 6 and rec2["seats"] == ["bob", "alice"],
             "the aborted game's record: %r" % rec2)
    check_transcript(EXPORTED_MD["game-2.json"], 2, 6, ["bob", "alice"])
    path2 = os.path.join(tmp, "game-2.json")
    with open(path2, "w") as f:
        f.write(content2)
    replay_ok(binary, path2, rec2)
    text = only_reply(lair.send("alice> /game log since:start"), "alice", "aborted log")
    ll.check(text.startswith("**Game #2**, 6 moves, page 1 of 1:"),
             "the aborted game's log began %r" % text[:80])

    lair.send("carol> /game new kind:supervillain")
    lair.send("dave> /game join game:3")
    out = lair.send("mod> /gamemod kick user:dave game:3")
    ll.check(any(m["to"] == "channel" and "removed dave" in m["text"]
                 for m in out), "the kick said %r" % out)
    text = only_reply(lair.send("alice> /game log game:3"), "alice",
                      "a lobby's log")
    ll.check(text.startswith("It has no moves yet. Game #3 (Supervillain: "
                             "This Galaxy Is Mine!) is waiting for players"),
             "a lobby's log said %r" % text)
    text = only_reply(lair.send("mod> /gamemod audit"), "mod", "audit")
    entries = re.findall(r"(?m)^- `(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)` "
                         r"(.+?): \*\*(\w+)\*\*(.*)$", text)
    ll.check(text.startswith("**Audit log** of this server, 3 entries, page "
                             "1 of 1 (newest first):") and
             [e[2] for e in entries] == ["kick", "abort", "settings"] and
             all(e[1] == "mod (mod)" for e in entries),
             "the audit log: %r" % text)
    ll.check(entries[0][3].startswith(", game #3: ") and
             "dave" in entries[0][3] and
             entries[1][3].startswith(", game #2") and
             entries[2][3] == ": games_per_channel = 2",
             "the audit entries' details: %r" % entries)
    for i in range(20):
        lair.send("mod> /gamemod settings key:vacation_days value:%d" % (i + 1))
    text = only_reply(lair.send("mod> /gamemod audit"), "mod", "audit page 1")
    ll.check("23 entries, page 1 of 2" in text and
             "vacation_days = 20" in text and "kick" not in text and
             "Older entries: /gamemod audit page:2" in text,
             "audit page 1: %r" % text[:300])
    text = only_reply(lair.send("mod> /gamemod audit page:2"), "mod",
                      "audit page 2")
    ll.check("23 entries, page 2 of 2" in text and
             text.count("\n- `") == 3 and "games_per_channel = 2" in text,
             "audit page 2: %r" % text)
    text = only_reply(lair.send("mod> /gamemod audit page:3"), "mod",
                      "audit page 3")
    ll.check("there is no page 3" in text, "audit page 3: %r" % text)

    # Every game of the server.
    text = only_reply(lair.send("alice> /gamemod list"), "alice",
                      "a player's list all")
    ll.check(text == "Only moderators can use /gamemod list (members with "
             "Manage Server, or the server's mod_role).",
             "a player's list all said %r" % text)
    text = only_reply(lair.send("mod> /game list all:yes"), "mod",
                      "/game list all:yes")
    ll.check(text == "/game list has no option 'all'.", "all:yes: %r" % text)
    text = only_reply(lair.send("mod> /game list"), "mod", "/game list")
    ll.check(text.startswith("Games in this channel:"), "list: %r" % text)
    lair.send("!advance 3h12m")
    text = only_reply(lair.send("mod> /gamemod list"), "mod",
                      "list all")
    games = re.findall(r"(?m)^- #(\d+) .+?: (lobby|running|finished|"
                       r"aborted) in #local-table, "
                       r"(\d+) moves?, idle ([\dhmd ]+?)(;|$)", text)
    ll.check(text.startswith("Every game of this server: 1 open, 2 ended") and
             [(g[0], g[1]) for g in games] ==
             [("3", "lobby"), ("2", "aborted"), ("1", "finished")] and
             games[1][2] == "6" and int(games[2][2]) == total and
             games[0][3] in ("3h 12m", "3h 13m"),
             "list all:yes said %r" % text)
    lair.close()

    size = human_export(binary, db, tmp)
    ll.check(size == len(content.encode()), "the console said %d bytes, "
             "the file has %d" % (size, len(content.encode())))
    return ("a %d-move game: log in %d pages, exported and replayed; %d "
            "tampered or broken records refused; rematch, aborted export, "
            "audit (23 entries, 2 pages) and list all checked" %
            (total, pages, n_tampers))


if __name__ == "__main__":
    sys.exit(ll.main("local_history", run))
