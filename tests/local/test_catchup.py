#!/usr/bin/env python3
"""local_catchup: what brings a player of a slow game back up to date.

A seeded 3-player Supervillain game played to its end with random
answers; after every line the database's stored lines (table `lines`,
each with the seat that may read it, -1 for everyone) are the reference:

- `/game log since:me` (and a player's plain `/game log`) lists exactly
  the answers after the asker's own last one, numbered, one row each,
  under turn headings, page by page; it shows the asker's own private
  lines and never a line only another seat may read; `since:start` is
  the whole public account; a non-player's `since:me` is refused.
- each turn DM of a player who answered before and whose opponents
  answered since opens with the two "since your last turn" lines: the
  lines naming that player first (or "nothing aimed at you"), then each
  opponent's count of answers, as the stored lines give them, and the
  points that changed since (each seat's change and its points now, as
  the turn tables showed them).
- every DM about the game starts with the header naming it.
- at the end, a summary in the channel with Rematch and Export buttons
  (the winner as announced, turns and answers as stored, a final table
  line per seat, what scored: each seat's greatest rises of its points,
  up to 3, in move order, each the rise the turn tables showed after
  that move; each seat's biggest moment: its own answer after which
  its points, as the turn tables showed them, rose most), and the same
  summary by DM to each player.
"""

import random
import re
import sqlite3

import lairlocal as ll

SEED, ANSWERS = 5, 11
PLAYERS = 3
SEATS = ll.NAMES[:PLAYERS]
HEADER = re.compile(r"^_Game #1 \(Supervillain[^)]*\) in channel \S+_$")
SINCE = "**Since your last turn:** "


def db_lines(db):
    """[(seq, n, seat, mover, text)] of game 1, names put in."""
    con = sqlite3.connect("file:%s?mode=ro" % db, uri=True)
    try:
        rows = con.execute(
            "SELECT l.seq, l.n, l.seat, m.seat, l.text FROM lines l JOIN "
            "moves m ON m.game = l.game AND m.seq = l.seq WHERE l.game = 1 "
            "ORDER BY l.seq, l.n").fetchall()
    finally:
        con.close()
    return [(q, n, s, mv, named(t)) for q, n, s, mv, t in rows]


def named(text):
    return re.sub(r"Villain (\d+)(?!\d)",
                  lambda m: SEATS[int(m.group(1)) - 1], text)


def names_seat(text, s):
    return re.search(r"Villain %d(?!\d)" % (s + 1), text) is not None


def raw_lines(db):
    con = sqlite3.connect("file:%s?mode=ro" % db, uri=True)
    try:
        return con.execute(
            "SELECT l.seq, l.seat, m.seat, l.text FROM lines l JOIN moves m "
            "ON m.game = l.game AND m.seq = l.seq WHERE l.game = 1 "
            "ORDER BY l.seq, l.n").fetchall()
    finally:
        con.close()


def only(out, what):
    ll.check(len(out) == 1, "%s: %d messages: %r" % (what, len(out), out))
    return out[0]


def read_catchup(lair, who, stats):
    """Every page of who's `/game log since:me`: (header range, rows)."""
    first = only(lair.send("%s> /game log since:me" % who), "since:me")
    text = first["text"]
    ll.check(first["to"] == "ephemeral" and first["user"] == who,
             "since:me went to %r" % first)
    if text.startswith("Game #1: nothing has happened since your last "
                       "answer"):
        return None, []
    m = re.match(r"\*\*Game #1\*\*, since (your last answer|the start "
                 r"\(you have not answered yet\)): moves? (\d+)(?:-(\d+))? "
                 r"of (\d+) \((\d+) answers?\), as you see them, page 1 of "
                 r"(\d+):\n", text)
    ll.check(m, "since:me began %r" % text[:160])
    pages = int(m.group(6))
    texts = [text]
    for page in range(2, pages + 1):
        ll.check("Later answers: /game log since:me page:%d" % page
                 in texts[-1], "page %d has no pointer to the next" %
                 (page - 1))
        t = only(lair.send("%s> /game log since:me page:%d" % (who, page)),
                 "since:me page %d" % page)["text"]
        ll.check(t.startswith("**Game #1**, since ") and
                 ("page %d of %d:" % (page, pages)) in t.split("\n")[0],
                 "page %d began %r" % (page, t[:120]))
        texts.append(t)
    stats["pages"] = max(stats["pages"], pages)
    for t in texts:
        ll.check(len(t) <= 2000, "a catch-up page is %d long" % len(t))
        ll.check(t.endswith("The whole public account: /game log "
                            "since:start"), "no pointer to since:start")
    rows = []
    for t in texts:
        rows += [x for x in t.split("\n")[1:] if re.match(r"\d+\. ", x)]
    return (int(m.group(2)), int(m.group(3) or m.group(2)),
            int(m.group(4)), int(m.group(5))), rows


def check_catchup(lair, db, who, stats):
    s = SEATS.index(who)
    lines = db_lines(db)
    mine = [q for q, _, seat, mv, _ in lines if mv == s and seat in (-1, s)]
    last = max(mine) if mine else -1
    moves = sorted({q for q, _, _, _, _ in lines})
    total = moves[-1] + 1 if moves else 0
    want = [q + 1 for q in moves if q > last]
    rng_, rows = read_catchup(lair, who, stats)
    if not want:
        ll.check(rng_ is None, "%s's catch-up shows %r, want nothing" %
                 (who, rows[:3]))
        return
    ll.check(rng_ == (last + 2, total, total, len(want)) or
             (rng_ and rng_[0] == rng_[1] == total and last + 2 == total and
              rng_[2:] == (total, len(want))),
             "%s's catch-up says %r; want moves %d-%d of %d, %d answers" %
             (who, rng_, last + 2, total, total, len(want)))
    got = [int(re.match(r"(\d+)\. ", x).group(1)) for x in rows]
    ll.check(got == want, "%s's catch-up numbers %r, want %r" %
             (who, got[:20], want[:20]))
    # each row: its move's lines that who may read, joined; nothing else
    by_seq = {}
    for q, _, seat, _, text in lines:
        by_seq.setdefault(q, []).append((seat, text))
    for row, q in zip(rows, [w - 1 for w in want]):
        body = row.split(". ", 1)[1]
        seen = [t for seat, t in by_seq[q] if seat in (-1, s)]
        hidden = [t for seat, t in by_seq[q] if seat not in (-1, s) and
                  t not in seen]
        ll.check(body.startswith(" ".join(seen)[:150]),
                 "%s's row %d is %r, want %r" % (who, q + 1, body, seen))
        for t in hidden:
            ll.check(t not in body, "%s's catch-up shows seat-private line "
                     "%r" % (who, t))
            stats["hidden_kept"] += 1
        stats["own_private"] += sum(1 for seat, t in by_seq[q]
                                    if seat == s and t in body)
    stats["catchups"] += 1


def points_at(state, seq):
    """Each seat's points after move seq (0 first), as the tables showed
    them: {seat: points}."""
    known = [q for q in state["hist"] if q <= seq]
    return state["hist"][max(known)] if known else {}


def check_since(db, out, stats, state):
    """The "since your last turn" lines of the prompt DMs in out."""
    lines = raw_lines(db)
    for m in out:
        if m["to"] != "dm" or not m.get("options"):
            continue
        who = m["user"]
        s = SEATS.index(who)
        text = m["text"].split("\n")
        ll.check(HEADER.match(text[0]), "the turn DM begins %r" % text[0])
        vis = [(q, seat, mv, t) for q, seat, mv, t in lines
               if seat in (-1, s)]
        mine = [q for q, _, mv, _ in vis if mv == s]
        after = [(q, mv, t) for q, _, mv, t in vis
                 if mine and q > max(mine) and mv != s]
        if not after:
            ll.check(not text[1].startswith(SINCE),
                     "%s's DM has a summary with nothing since: %r" %
                     (who, text[1]))
            continue
        ll.check(text[1].startswith(SINCE),
                 "%s's turn DM lacks the summary: %r" % (who, text[:3]))
        about = [named(t) for _, _, t in after if names_seat(t, s)]
        if about:
            ll.check(text[1][len(SINCE):].startswith(about[0][:120]),
                     "%s's summary begins %r, want %r" %
                     (who, text[1], about[0]))
            stats["about_you"] += 1
        else:
            ll.check(text[1] == SINCE + "nothing aimed at you.",
                     "%s's summary line 1: %r" % (who, text[1]))
        counts = {}
        for seq in sorted({(q, mv) for q, mv, _ in after}):
            counts[SEATS[seq[1]]] = counts.get(SEATS[seq[1]], 0) + 1
        got = dict((n, int(k)) for n, k in
                   re.findall(r"(?:^|; )(\w+): (\d+) answers?", text[2]))
        ll.check(got == counts, "%s's summary counts %r, want %r: %r" %
                 (who, got, counts, text[2]))
        ll.check(text[2].endswith(". All of it: /game log since:me") and
                 text[3] == "", "%s's summary line 2: %r" % (who, text[2:4]))
        # the points that changed since the reader's last answer
        then, now = points_at(state, max(mine)), state["points"]
        want = {SEATS[p]: (now[p] - then.get(p, 0), now[p]) for p in now
                if now[p] != then.get(p, 0)}
        x = re.search(r"; points: (.*)\. All of it", text[2])
        got = {n: (int(d), int(v)) for n, d, v in re.findall(
            r"(\w+) ([+-]\d+) \((\d+)\)", x.group(1))} if x else {}
        ll.check(got == want, "%s's summary points %r, want %r: %r" %
                 (who, got, want, text[2]))
        stats["points_since"] += bool(want)
        stats["since"] += 1


def check_headers(out, stats):
    for m in out:
        if m["to"] == "dm" and m.get("game") == 1:
            ll.check(HEADER.match(m["text"].split("\n")[0]),
                     "a DM begins %r" % m["text"][:120])
            stats["headers"] += 1


def check_scored(text, state, stats):
    """The end summary's "What scored": each seat's greatest rises (up to
    3, in move order), each the rise of its points after that move as the
    tables showed them."""
    rises = {}
    seqs = sorted(state["hist"])
    for i, q in enumerate(seqs):
        before = state["hist"][seqs[i - 1]] if i else {}
        for p, pts in state["hist"][q].items():
            if pts > before.get(p, 0):
                rises.setdefault(p, []).append((q, pts - before.get(p, 0)))
    j = [k for k, x in enumerate(text) if x.startswith("**What scored**")]
    ll.check(bool(j) == bool(rises), "what scored: %r, rises %r" %
             (j and text[j[0]:j[0] + 5], rises))
    if not j:
        return
    listed = {}
    for line in text[j[0] + 1:]:
        m = re.match(r"- (\w+):(.*)$", line)
        if not m or m.group(1) not in SEATS:
            break
        listed[SEATS.index(m.group(1))] = [
            (int(mv) - 1, int(pts)) for pts, mv in
            re.findall(r"\+(\d+) at move (\d+) \(", m.group(2))]
    for p, got in listed.items():
        have = dict(rises.get(p, []))
        for q, pts in got:
            ll.check(have.get(q) == pts, "%s scored +%d at move %d, the "
                     "tables say %r" % (SEATS[p], pts, q + 1, have.get(q)))
        ll.check([q for q, _ in got] == sorted(q for q, _ in got),
                 "%s's gains out of order: %r" % (SEATS[p], got))
        top = sorted((pts for _, pts in rises.get(p, [])), reverse=True)[:3]
        ll.check(sorted((pts for _, pts in got), reverse=True) == top,
                 "%s's greatest gains %r, the tables' %r" %
                 (SEATS[p], got, top))
        stats["scored"] += len(got)
    ll.check(set(listed) == set(rises), "what scored lists %r, seats that "
             "scored: %r" % (sorted(listed), sorted(rises)))


def check_end(db, out, announced, stats, state):
    summ = [m for m in out if "**Summary of game #1 " in m.get("text", "")]
    chan = [m for m in summ if m["to"] == "channel"]
    ll.check(len(chan) == 1, "%d channel summaries" % len(chan))
    c = chan[0]
    ll.check(c.get("buttons") == ["rematch", "export"],
             "the summary's buttons: %r" % c.get("buttons"))
    text = c["text"].split("\n")
    ll.check(text[0].startswith("**Summary of game #1 (Supervillain"),
             "the summary begins %r" % text[0])
    ll.check(text[1] == announced + ".", "the summary says %r; the end was "
             "announced as %r" % (text[1], announced))
    lines = raw_lines(db)
    moves = len({q for q, _, _, _ in lines})
    m = re.match(r"(\d+) turns?, (\d+) answers?, in \d+ (minute|hour|day)",
                 text[2])
    ll.check(m and int(m.group(2)) == moves, "the summary's count: %r, "
             "%d moves" % (text[2], moves))
    i = text.index("**Final table:**")
    table = text[i + 1:i + 1 + PLAYERS]
    ll.check(all(t.startswith("- %s" % who) for t, who in zip(table, SEATS)),
             "the final table: %r" % table)
    # biggest moments: each seat's own move after which its points (as
    # the turn tables showed them) rose most, else its move with the most
    # public lines
    public = {}
    for q, seat, mv, t in lines:
        if seat == -1:
            public.setdefault(q, []).append(t)
    count = {}
    for q, seat, mv, t in lines:
        if seat == -1:
            count.setdefault((q, mv), []).append(t)
    best = {}
    for (q, mv), ts in sorted(count.items()):
        if mv not in best or len(ts) > len(count[(best[mv], mv)]):
            best[mv] = q
    check_scored(text, state, stats)
    j = [k for k, x in enumerate(text) if x.startswith("**Biggest moments")]
    ll.check(j, "no biggest moments: %r" % text)
    for k, s in enumerate(sorted(best)):
        rise = stats["rises"].get(s)
        if rise:
            q = rise[1]
            want = "- %s, move %d: %s" % (SEATS[s], q + 1,
                                          named(public[q][0])[:150])
            stats["moments_by_points"] += 1
        else:
            q = best[s]
            want = "- %s, move %d (their answer that did most): %s" % (
                SEATS[s], q + 1, named(count[(q, s)][0])[:150])
        ll.check(text[j[0] + 1 + k][:len(want) - 3] == want[:len(want) - 3],
                 "moment %r, want %r" % (text[j[0] + 1 + k], want))
    ll.check(text[-1] == "Play again: /game rematch game:1. The record: "
             "/game export game:1.", "the summary ends %r" % text[-1])
    dms = sorted(m["user"] for m in summ if m["to"] == "dm")
    ll.check(dms == sorted(SEATS), "the summary went by DM to %r" % dms)
    for m in summ:
        if m["to"] == "dm":
            head, rest = m["text"].split("\n", 1)
            ll.check(HEADER.match(head) and rest == c["text"],
                     "%s's summary DM differs: %r" % (m["user"],
                                                     m["text"][:200]))
    stats["summaries"] += len(summ)


def run(binary, tmp):
    db = tmp + "/c.db"
    lair = ll.Lair(binary, db, SEED)
    rng = random.Random(ANSWERS)
    stats = {k: 0 for k in ("pages", "catchups", "own_private",
                            "hidden_kept", "since", "about_you", "headers",
                            "summaries", "moments_by_points",
                            "points_since", "scored")}
    state = {"announced": None, "points": {}, "hist": {}}
    stats["rises"] = {}

    def on_line(line, out):
        # each seat's points after the line, as the turn's table shows
        # them, and the greatest rise after one move (the earliest)
        tables = [m for m in out if m["to"] == "channel" and m.get("fields")]
        seq = len(ll.moves_in_db(db)) - 1
        for f in tables[-1]["fields"] if tables else ():
            x = re.match(r"(\w+): (\d+) points?", f["name"])
            if x and x.group(1) in SEATS:
                s, pts = SEATS.index(x.group(1)), int(x.group(2))
                rise = pts - state["points"].get(s, 0)
                if line.startswith(SEATS[s] + ">") and \
                        rise > stats["rises"].get(s, (0, -1))[0]:
                    stats["rises"][s] = (rise, seq)
                state["points"][s] = pts
        state["hist"][seq] = dict(state["points"])
        check_headers(out, stats)
        check_since(db, out, stats, state)
        for m in out:
            x = re.search(r"\*\*Game #1 is over\.\*\* ([^\n]*)\.",
                          m.get("text", ""))
            if m["to"] == "channel" and x:
                state["announced"] = x.group(1).replace(" (", ", because ",
                                                        1)[:-1]
        if ll.is_over(out):
            check_end(db, out, state["announced"], stats, state)
        elif rng.random() < 0.15:
            check_catchup(lair, db, rng.choice(SEATS), stats)

    moves = ll.play_random(lair, rng, PLAYERS, on_line=on_line)
    for who in SEATS:  # after the end, too
        check_catchup(lair, db, who, stats)
    # a player's plain /game log is the catch-up; since:start the whole
    t = only(lair.send("bob> /game log"), "bob's /game log")["text"]
    ll.check(t.startswith("**Game #1**, since ") or
             t.startswith("Game #1: nothing has happened"),
             "a player's /game log: %r" % t[:100])
    t = only(lair.send("bob> /game log since:start"), "since:start")["text"]
    ll.check(re.match(r"\*\*Game #1\*\*, %d moves, page (\d+) of \1:" %
                      len(moves), t), "since:start: %r" % t[:100])
    t = only(lair.send("dave> /game log since:me"), "dave since:me")["text"]
    ll.check(t.startswith("You do not play in game #1, so there is no "
                          "answer of yours to catch up from."),
             "a non-player's since:me: %r" % t)
    t = only(lair.send("dave> /game log"), "dave's log")["text"]
    ll.check(re.match(r"\*\*Game #1\*\*, %d moves, page" % len(moves), t),
             "a non-player's /game log: %r" % t[:100])
    lair.close()
    ll.check(stats["catchups"] >= 10 and stats["own_private"] > 0 and
             stats["hidden_kept"] > 0 and stats["since"] > 20 and
             stats["about_you"] > 0 and stats["summaries"] == PLAYERS + 1 and
             stats["moments_by_points"] > 0 and
             stats["points_since"] > 0 and stats["scored"] > 0,
             "too little was checked: %r" % stats)
    return ("%d moves; %d catch-ups (up to %d pages; %d own private lines "
            "shown, %d other seats' kept out), %d turn summaries (%d about "
            "their reader, %d with points), %d DM headers, the end's summary "
            "(%d gains in what scored) in the channel and %d DMs" % (
                len(moves), stats["catchups"], stats["pages"],
                stats["own_private"], stats["hidden_kept"], stats["since"],
                stats["about_you"], stats["points_since"], stats["headers"],
                stats["scored"], stats["summaries"] - 1))


if __name__ == "__main__":
    raise SystemExit(ll.main("local_catchup", run))
