#!/usr/bin/env python3
"""local_privacy: hidden cards never reach the wrong eyes.

Plays whole Supervillain games through `lair local --json` with seeded
random answers (and, now and then, /game undo, hand, status and log), dumping
the full state after every input line to know where each of the 87 cards
is. Then:
- no channel message names a card unless some card of that name is in a
  public zone (discards, Mobs, Projects, Facilities, Asteroids, drawn face
  up) just before or just after the input line that made it: an answer
  may tell what it did to a card in the open ("took Adrenaline Shot from
  the Minion discard pile"), and a card that went into a deck meanwhile
  lay in a discard pile (a deck is refilled only from one); the three
  hidden zones are the Minion deck,
  the Domination deck and the hands. /game log (an ephemeral account of
  the public history) may name only cards that were public at some time;
- every message showing a hand ("**Your hand** (NAME, ...") is a DM or an
  ephemeral reply to NAME, and lists exactly the cards in NAME's hand;
- any other DM or ephemeral reply to a player names only public cards and
  cards in that player's own hand;
- a turn's message lays the table out in fields, one per player in seat
  order, each named after its player and in the game's colour, and its
  fields name only cards that are public right after the input line
  (the table is drawn from the state that line left).
"""

import collections
import random
import re
import sys

import lairlocal as ll

# (players, --seed, answer seed)
GAMES = [(2, 21, 201), (3, 22, 202), (4, 23, 208)]

HAND_HEAD = re.compile(r"\*\*Your hand\*\* \((.+?), (\d+) cards?\)")
HAND_LINE = re.compile(r"^- \*\*(.+?)\*\*: Mob ", re.M)
COLOUR = 0x8e1b2f  # Supervillain's (engine/games/supervillain/sv.c)


def play(binary, tmp, players, seed, answer_seed, card, finder, stats):
    rng = random.Random(answer_seed)
    lair = ll.Lair(binary, "%s/p%d.db" % (tmp, players), seed)
    seats = ll.NAMES[:players]
    ever_public = set()
    before = [set(), []]  # public cards and places before the input line
    moves = 0

    lines_seen = set()

    def examine(line, out, state):
        w = ll.where(state) if state is not None else []  # None: lobby
        public = {card[i] for i, x in enumerate(w)
                  if x[0] not in ll.HIDDEN_ZONES}
        ever_public.update(public)
        into_deck = {card[i] for i, x in enumerate(w)
                     if before[1] and x[0] in (ll.Z_MDECK, ll.Z_DDECK) and
                     before[1][i][0] != x[0]}
        shown = public | before[0] | into_deck
        before[0], before[1] = public, w
        hands = collections.defaultdict(list)
        for i, x in enumerate(w):
            if x[0] == ll.Z_HAND:
                hands[seats[x[1]]].append(card[i])
        for m in out:
            text = m.get("text", "")
            named = finder.find(text)
            stats["messages"] += 1
            head = HAND_HEAD.search(text)
            if head:
                stats["hands"] += 1
                who = head.group(1)
                ll.check(m["to"] in ("dm", "ephemeral") and m["user"] == who,
                         "after %r the hand of %s went to %s %s: %r" %
                         (line, who, m["to"], m["user"], text))
                listed = sorted(HAND_LINE.findall(text))
                ll.check(listed == sorted(hands[who]) and
                         int(head.group(2)) == len(listed),
                         "after %r %s's hand message lists %r; the hand "
                         "holds %r" % (line, who, listed, sorted(hands[who])))
                continue
            if m["to"] == "channel" and "fields" in m:
                fields = m["fields"]
                ll.check(len(fields) == len(seats) and all(
                    f["name"].startswith(who + ": ")
                    for f, who in zip(fields, seats)),
                    "after %r a turn's fields are not one per player: %r" %
                    (line, fields))
                ll.check(m.get("colour") == COLOUR and m.get("title"),
                         "after %r a turn's message has colour %r, title %r" %
                         (line, m.get("colour"), m.get("title")))
                on_table = finder.find("\n".join(
                    f["name"] + "\n" + f["value"] for f in fields))
                ll.check(not on_table - public,
                         "after %r a turn's fields name %s, which is hidden:"
                         "\n%r" % (line, sorted(on_table - public), fields))
                stats["fields"] += len(fields)
            if m["to"] == "channel":
                # A turn's message is edited as the turn goes on: lines
                # already shown may name cards that were open then and
                # are hidden now (shuffled back into a deck); every new
                # line names only what is open around this line.
                rows = text.split("\n")
                new = [x for x in rows if x not in lines_seen]
                lines_seen.update(rows)
                leak = (finder.find("\n".join(new)) - shown) | \
                    (named - ever_public)
                what = "channel message"
            elif text.startswith("**Game #"):
                leak = named - ever_public
                what = "log for %s" % m["user"]
            else:
                leak = named - shown - set(hands[m["user"]])
                what = "%s to %s" % (m["to"], m["user"])
            ll.check(not leak,
                     "after %r a %s names %s, which nobody may see:\n%s" %
                     (line, what, sorted(leak), text))
            stats["names"] += len(named)

    def send(line):
        out = lair.send(line)
        examine(line, out, lair.dump())
        return out

    out = None
    for line in ll.setup_lines(players):
        out = send(line)
    user, options = ll.one_prompt(out, line)
    while True:
        r = rng.random()
        if r < 0.03:
            send("%s> /game hand" % rng.choice(seats))
        elif r < 0.04:
            send("%s> /game status" % rng.choice(seats))
        elif r < 0.05:
            send("%s> /game log" % rng.choice(seats))
        undo = rng.random() < 0.02
        if undo:
            line = "%s> /game undo" % user
        else:
            opt = rng.choice(options)
            line = "%s> /game move choice:%s" % (
                user, ll.choice_text(rng, options, opt))
        out = send(line)
        if undo and [m["to"] for m in out] == ["ephemeral"]:
            continue  # nothing to take back
        ll.check(not any(m["to"] == "ephemeral" for m in out),
                 "move %r refused: %r" % (line, out))
        moves += 1
        if ll.is_over(out):
            break
        user, options = ll.one_prompt(out, line)
        ll.check(moves < 20000, "the game does not end")
    for who in seats:  # hands and the log after the end
        send("%s> /game hand" % who)
        send("%s> /game log" % who)
    lair.close()
    return moves


def run(binary, tmp):
    card = ll.cards(binary)
    finder = ll.Names(card)
    stats = collections.Counter()
    parts = []
    for players, seed, answer_seed in GAMES:
        moves = play(binary, tmp, players, seed, answer_seed, card, finder,
                     stats)
        parts.append("%dp %d moves" % (players, moves))
    ll.check(stats["names"] > 1000 and stats["hands"] > 100 and
             stats["fields"] > 300,
             "too little was checked: %r" % dict(stats))
    return "%d complete games (%s), %d messages, %d hand messages, %d " \
           "table fields, %d card names checked, 0 leaks" % (
               len(GAMES), ", ".join(parts), stats["messages"],
               stats["hands"], stats["fields"], stats["names"])


if __name__ == "__main__":
    sys.exit(ll.main("local_privacy", run))
