#!/usr/bin/env python3
"""local_learn: /game help and /game learn at the console table.

/game help answers its asker alone, within Discord's 2,000 characters:
without a game and without kind:, the list of games; with kind: (or the
channel's game), an index of the topics (the "## " headings of
docs/rules/<game>.md) and the first page; with topic:, that topic in
pages whose text is the rules summary's own (read here from docs/rules:
each page is a piece of the file, and the pages of a topic together are
the whole topic); the generated card lists only under the topic that
holds them. An unknown topic or game is a clear error that lists the
topics or games.

/game learn kind:<game> starts a tutorial game at once for every game
Lair hosts: the requester against heuristic AI seats at the smallest
table, "learn": true in its stored config. Every prompt to the player
carries one hint line naming one of the options offered, in the same
words as that option, and a reason that names no card; the hint is what
the AI really answers: when the player leaves (the AI takes the seat),
the AI's first answer is the hinted option. In Supervillain and
Villainous the hint names only cards the player may see (the card
model of lairlocal, as local_privacy checks every message). Once the
AI has played a Supervillain tutorial to its end, its rematch is a
tutorial too (started at once, "learn": true, hints).
"""

import json
import random
import re
import sqlite3

import lairlocal as ll

LIMIT = 2000
HINT = re.compile(r"^Hint: the AI would choose `([^`]+)` \((.*)\): (.+)\.$",
                  re.M)
CARDS_BEGIN, CARDS_END = "<!-- cards:begin -->", "<!-- cards:end -->"
PROMPTS = 10  # prompts of each tutorial answered before leaving


def only(out, what):
    ll.check(len(out) == 1, "%s: %d messages: %r" % (what, len(out), out))
    m = out[0]
    ll.check(m["to"] == "ephemeral", "%s is not ephemeral: %r" % (what, m))
    ll.check(len(m["text"]) <= LIMIT, "%s: %d characters" %
             (what, len(m["text"])))
    return m["text"]


def doc(game):
    with open("%s/docs/rules/%s.md" % (ll.ROOT, game), encoding="utf-8") as f:
        return f.read()


def topics_of(text):
    """The topics of a rules summary: Overview, then its "## " headings."""
    out, fenced = ["Overview"], False
    for line in text.split("\n"):
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and line.startswith("## "):
            out.append(line[3:])
    return out


def section(text, title):
    """The text of topic title in a rules summary (its heading on)."""
    if title == "Overview":
        return text[:text.index("\n## ")]
    start = text.index("\n## %s\n" % title) + 1
    end = text.find("\n## ", start)
    return text[start:] if end < 0 else text[start:end]


def body(text):
    """A page's rules text: without the index above it and the page
    line below it."""
    if text.startswith("**") and " rules.** Topics" in text:
        text = text.split("\n\n", 1)[1]
    return re.sub(r"\n\n\((?:page \d+ of \d+[^)]*|The card list: [^)]*)\)$",
                  "", text)


def squash(text):
    return re.sub(r"\s+", " ", text).strip()


def check_help(binary, tmp):
    lair = ll.Lair(binary, tmp + "/help.db", 1)
    checks = 0
    # No game here, no kind: the list of games, each by its id.
    text = only(lair.send("alice> /game help"), "/game help")
    for g in ll.GAMES:
        ll.check("`%s`" % g in text, "/game help lacks %s: %r" % (g, text))
    ll.check("/game learn kind:" in text, "no word of /game learn: %r" % text)
    text = only(lair.send("alice> /game help kind:chess"), "kind:chess")
    ll.check(text.startswith("Lair has no game called 'chess'") and
             "`galactic`" in text, "kind:chess: %r" % text)
    checks += 2
    pages = 0
    for game in ll.GAMES:
        md = doc(game)
        topics = topics_of(md)
        text = only(lair.send("alice> /game help kind:%s" % game),
                    "help kind:%s" % game)
        for t in topics:
            ll.check(t in text, "%s's index lacks topic %r" % (game, t))
        first = md.split("\n", 1)[0]
        ll.check(first in text, "%s's first page lacks %r" % (game, first))
        ll.check(CARDS_BEGIN not in text, "a card mark in %r" % text)
        # Every topic, page by page: pieces of the file that make up the
        # whole topic (the card lists only in their own topic).
        for t in topics:
            whole, n, k = section(md, t), None, 1
            has_cards = CARDS_BEGIN in whole
            got = []
            while True:
                line = "alice> /game help kind:%s topic:%s page:%d" % (
                    game, t, k)
                text = only(lair.send(line), line)
                m = re.search(r"\(page (\d+) of (\d+)", text)
                n = int(m.group(2)) if m else 1
                piece = body(text)
                ll.check(piece.strip() and piece in md,
                         "%s: a page not from docs/rules: %r" % (line,
                                                                 piece[:300]))
                got.append(piece)
                pages += 1
                if k >= n:
                    break
                k += 1
            want = whole
            if not has_cards:
                while CARDS_BEGIN in want:
                    a = want.index(CARDS_BEGIN)
                    want = want[:a] + want[want.index(CARDS_END) +
                                           len(CARDS_END):]
            ll.check(squash("".join(got)) == squash(want),
                     "%s topic %r: the pages are not the topic" % (game, t))
            if has_cards:
                inside = md[md.index(CARDS_BEGIN):md.index(CARDS_END)]
                row = [ln for ln in inside.split("\n") if ln.startswith("|")]
                ll.check(row and row[-1] in "".join(got),
                         "%s: the card list is missing from %r" % (game, t))
            checks += 1
        # A page past the end, an unknown topic: errors that say what is
        # there and show nothing.
        line = "alice> /game help kind:%s topic:%s page:999" % (game,
                                                                topics[1])
        text = only(lair.send(line), line)
        ll.check("not 999; nothing is shown" in text, "%s: %r" % (line, text))
        line = "alice> /game help kind:%s topic:zebra crossing" % game
        text = only(lair.send(line), line)
        ll.check("have no topic 'zebra crossing'; nothing is shown" in text
                 and all(t in text for t in topics), "%s: %r" % (line, text))
        checks += 2
    # A part of a heading is enough when it fits one topic; in a channel
    # with a game, /game help means that game.
    text = only(lair.send("alice> /game help kind:supervillain topic:asteroid"),
                "topic:asteroid")
    ll.check(text.startswith("## Asteroids"), "topic:asteroid: %r" % text[:80])
    lair.send("alice> /game new kind:galactic")
    text = only(lair.send("bob> /game help"), "help in galactic's channel")
    ll.check("Galactic Domination rules." in text, "not galactic: %r" %
             text[:200])
    checks += 2
    lair.close()
    return checks, pages


def hidden_ok(model, st, hint, seat=0):
    """The card names in hint that seat may not see in state st (a parsed
    !dump), none of which may be there."""
    names = model.instances(st)
    places = model.places(st)
    sees = set()
    for i, p in enumerate(places):
        if names[i] and model.may_see(p, seat):
            sees.add(names[i])
    return ll.Names(model.names).find(hint) - sees


def check_learn(binary, tmp, game, seed):
    db = "%s/learn-%s.db" % (tmp, game)
    lair = ll.Lair(binary, db, seed)
    rng = random.Random(seed)
    out = lair.send("alice> /game learn kind:%s" % game)
    ll.check(not any(m["to"] == "ephemeral" for m in out),
             "/game learn kind:%s refused: %r" % (game, out))
    con = sqlite3.connect("file:%s?mode=ro" % db, uri=True)
    conf, = con.execute("SELECT config FROM games WHERE id = 1").fetchone()
    seats = [r[0] for r in con.execute(
        "SELECT user FROM seats WHERE game = 1 ORDER BY seat")]
    con.close()
    ll.check(json.loads(conf).get("learn") is True,
             "%s: config %r lacks learn: true" % (game, conf))
    ll.check(seats[0] == "alice" and len(seats) >= 2 and
             all(s.startswith("ai:heuristic:") for s in seats[1:]),
             "%s: seats %r" % (game, seats))
    model = None
    if game in ("supervillain", "villainous"):
        model = ll.card_model(binary, game)
    hints = 0
    for k in range(PROMPTS + 1):
        dms = [m for m in out if m["to"] == "dm" and m.get("options")]
        ll.check(len(dms) == 1 and dms[0]["user"] == "alice",
                 "%s: no single prompt to alice: %r" % (game, out))
        text, options = dms[0]["text"], dms[0]["options"]
        found = HINT.findall(text)
        ll.check(len(found) == 1, "%s: %d hints in %r" % (game, len(found),
                                                          text))
        hid, label, why = found[0]
        ll.check(any(o["id"] == hid and o["label"] == label
                     for o in options),
                 "%s: the hint names no option offered: %r" % (game, text))
        if model:
            st = json.loads(lair.dump())
            if all(s.get("villain", True) for s in st.get("seats", [{}])):
                bad = hidden_ok(model, st, hid + " " + label)
                ll.check(not bad, "%s: the hint %r names %s, hidden from "
                         "alice" % (game, found[0], bad))
            ll.check(not ll.Names(model.names).find(why),
                     "%s: the reason names a card: %r" % (game, why))
        hints += 1
        if k == PROMPTS:
            # The AI takes the seat: its first answer is the hint's.
            before = len(ll.moves_in_db(db))
            out = lair.send("alice> /game leave confirm:yes")
            moves = ll.moves_in_db(db)
            ll.check(len(moves) > before and moves[before][2] == 0 and
                     moves[before][3] == hid,
                     "%s: the hint said %s, the AI answered %r" %
                     (game, hid, moves[before:before + 1]))
            break
        # Follow the hint now and then, else any option.
        o = next(o for o in options if o["id"] == hid) \
            if rng.random() < 0.5 else ll.pick(rng, options, game)
        out = lair.send("alice> /game move choice:%s" % o["id"])
        if not any(m["to"] == "dm" and m.get("options") for m in out):
            ll.check(ll.is_over(out) or lair.dump() and
                     json.loads(lair.dump()).get("over"),
                     "%s: no prompt and no end after %s: %r" %
                     (game, o["id"], out))
            break
    if game == "supervillain":
        check_rematch(lair, db, game)
    lair.close()
    return hints


def check_rematch(lair, db, game):
    """Once the AI has played the tutorial to its end, alice's rematch is
    a tutorial too: started at once against the AI seats, "learn": true,
    its prompts with hints."""
    ll.check(json.loads(lair.dump()).get("over"),
             "%s: the tutorial did not end once the AI took alice's seat"
             % game)
    out = lair.send("alice> /game rematch")
    ll.check(not any(m["to"] == "ephemeral" for m in out),
             "%s: the tutorial's rematch was refused: %r" % (game, out))
    con = sqlite3.connect("file:%s?mode=ro" % db, uri=True)
    row = con.execute("SELECT config, status FROM games WHERE id = 2") \
        .fetchone()
    con.close()
    ll.check(row and json.loads(row[0]).get("learn") is True and
             row[1] == 1,  # STO_RUNNING
             "%s: the rematch is %r, not a running tutorial" % (game, row))
    dms = [m for m in out if m["to"] == "dm" and m.get("options") and
           m.get("game") == 2]
    ll.check(dms and dms[0]["user"] == "alice" and
             len(HINT.findall(dms[0]["text"])) == 1,
             "%s: the rematch's first prompt has no hint: %r" % (game, out))


def run(binary, tmp):
    checks, pages = check_help(binary, tmp)
    hints = 0
    for n, game in enumerate(ll.GAMES):
        hints += check_learn(binary, tmp, game, 11 + n)
    return "ok (%d help checks over %d pages; %d hints in %d tutorials, " \
        "each followed by the AI)" % (checks, pages, hints, len(ll.GAMES))


if __name__ == "__main__":
    raise SystemExit(ll.main("local_learn", run))
