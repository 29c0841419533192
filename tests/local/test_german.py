#!/usr/bin/env python3
"""local_german: Lair in German at the console table (`--locale de`).

The same seeded session is played twice, in English (no --locale) and in
German (--locale de): a lobby, a bad option, the start, random answers
with /game status, hand, log and undo between them, /prefs, and a game of
every other kind opened and aborted. The message catalogue
(commands/locale/de/*.json) is the reference:

- in German, no message shows an English text of the catalogue (a piece
  of an English entry of 20 characters or more, between its printf
  conversions, that its German form does not share), and German texts
  of the catalogue are shown in replies, channel posts and DMs alike;
- in English, no German text of the catalogue is shown: the English
  output is what it was;
- /prefs set language:en makes that player's replies and DMs English
  while the channel stays German; /gamemod settings key:language
  value:en makes the channel English; language:de for a player of the
  English table makes only theirs German.
Engine texts (prompts, option labels, the game's lines) stay English, as
the card texts do.
"""

import collections
import os
import random

import lairlocal as ll


class Seen:
    """Which catalogue texts the messages showed, by language."""

    def __init__(self, cat):
        self.cat = cat
        self.en, self.de = {}, {}  # piece -> (where, text)

    def add(self, m, where):
        text = m.get("text") or ""
        for field in m.get("fields") or []:
            text += "\n" + field.get("name", "") + "\n" + field.get(
                "value", "")
        text += "\n" + (m.get("title") or "")
        for en_p, de_p, _ in self.cat:
            de_all = "\n".join(de_p)
            for p in en_p:
                if p in text and p not in de_all:
                    self.en.setdefault(p, (where, text[:300]))
            en_all = "\n".join(en_p)
            for p in de_p:
                if p in text and p not in en_all:
                    self.de.setdefault(p, (where, text[:300]))


def kind_of(m):
    return m.get("to")


def session(binary, tmp, locale, seen, name):
    """Plays the session; every message goes to seen (one Seen per
    audience: seen[to])."""
    db = os.path.join(tmp, "%s.db" % name)
    lair = ll.Lair(binary, db, seed=7, mods=("mallory",), locale=locale)
    rng = random.Random(3)

    def send(line):
        out = lair.send(line)
        for m in out:
            seen[kind_of(m)].add(m, line)
        return out

    send("alice> /game new kind:supervillain")
    send("bob> /game move choice:nothing")  # no game running yet
    send("bob> /game join")
    send("carol> /game status")
    send("alice> /game start")
    send("alice> /prefs show")
    send("bob> /prefs set quiet:25-3")  # refused
    send("alice> /game status")
    moves = 0
    for _ in range(40):
        # whoever holds a prompt answers at random
        for user in ("alice", "bob"):
            p = ll.prompts(send("%s> /game hand" % user))
            if p:
                opt = ll.pick(rng, p[0][1])
                send("%s> /game move choice:%s" % (user, opt["id"]))
                moves += 1
                if moves % 5 == 0:
                    send("%s> /game undo" % user)
                    send("%s> /game log" % user)
                break
    send("carol> /game move choice:end")  # not a player
    send("mallory> /gamemod list")
    send("mallory> /gamemod audit")
    for kind in ("villainous", "disorder", "galactic"):
        send("carol> /game new kind:%s" % kind)
    send("mallory> /gamemod settings")
    lair.close()
    return moves


def run(binary, tmp):
    cat = ll.catalogue()
    ll.check(len(cat) > 300, "only %d catalogue entries" % len(cat))

    # English: no German anywhere.
    seen_en = collections.defaultdict(lambda: Seen(cat))
    moves_en = session(binary, tmp, None, seen_en, "en")
    for k, s in list(seen_en.items()):
        for p, (where, text) in s.de.items():
            raise ll.Fail("English table: a German text %r in a %s message "
                          "after %r: %r" % (p, k, where, text))

    # German: no English text of the catalogue, German in every audience.
    seen_de = collections.defaultdict(lambda: Seen(cat))
    moves_de = session(binary, tmp, "de", seen_de, "de")
    ll.check(moves_de == moves_en, "the German session made %d moves, the "
             "English one %d" % (moves_de, moves_en))
    for k, s in list(seen_de.items()):
        for p, (where, text) in s.en.items():
            raise ll.Fail("German table: the English text %r in a %s "
                          "message after %r: %r" % (p, k, where, text))
    counts = {k: len(seen_de[k].de) for k in ("channel", "dm", "ephemeral")}
    for k, n in counts.items():
        ll.check(n >= 3, "German table: only %d German texts in %s "
                 "messages" % (n, k))

    # Per player and per server.
    db = os.path.join(tmp, "mix.db")
    lair = ll.Lair(binary, db, seed=7, mods=("mallory",), locale="de")
    out = lair.send("alice> /game new kind:supervillain")
    lair.send("bob> /game join")
    out = lair.send("bob> /prefs set language:en")
    ll.check(out and "language en" in out[-1]["text"],
             "/prefs set language:en said %r" % out)
    out = lair.send("bob> /game status")
    mix = Seen(cat)
    for m in out:
        mix.add(m, "bob status")
    ll.check(not mix.de and mix.en, "bob (language:en) read German or no "
             "English: %r" % out)
    out = lair.send("alice> /game status")
    mix = Seen(cat)
    for m in out:
        mix.add(m, "alice status")
    ll.check(mix.de and not mix.en, "alice (German) read %r" % out)
    out = lair.send("alice> /game start")
    for m in out:
        mix = Seen(cat)
        mix.add(m, "start")
        if m["to"] == "dm" and m.get("user") == "bob" or \
                m["to"] == "ephemeral" and m.get("user") == "bob":
            ll.check(not mix.de, "bob's %s is German: %r" % (m["to"], m))
        if m["to"] == "channel":
            ll.check(not mix.en, "the channel is English: %r" % m)
    out = lair.send("mallory> /gamemod settings key:language value:en")
    chan = [m for m in out if m["to"] == "channel"]
    ll.check(chan, "the setting was not announced: %r" % out)
    out = lair.send("alice> /game status public:yes")
    for m in out:
        if m["to"] == "channel":
            mix = Seen(cat)
            mix.add(m, "status")
            ll.check(not mix.de, "channel German after language:en: %r" % m)
    lair.close()
    return "ok (%d answers each way; German texts shown: %d in the " \
        "channel, %d in DMs, %d in replies; none English; per player and " \
        "server)" % (moves_de, counts["channel"], counts["dm"],
                     counts["ephemeral"])


if __name__ == "__main__":
    raise SystemExit(ll.main("local_german", run))
