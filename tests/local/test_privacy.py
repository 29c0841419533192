#!/usr/bin/env python3
"""local_privacy: hidden cards never reach the wrong eyes.

Plays a whole 2-player Supervillain game and the first 300 answers of a
4-player one, a whole 2-player Villainous game and the first 250
answers of a 4-player one, whole Marvel
Villainous games (2 players in the default mode, 4 in mode undying)
through `lair local --json` with seeded random answers (and, now and
then, /game undo, hand, status and log, and in both Villainous games a
wrong answer naming a card its sender may not see), dumping the full
state after every input line to know where each card is (lairlocal's
card model: in Villainous which instance is which card follows from the
villains chosen; Marvel's common fate cards and Stones follow the seats'
blocks). Marvel's fate deck is one, shared: its order is hidden from
everyone, a card in it is seen only by those who looked at it alone
(`known` bits), its discard pile, the Events, Specialty areas and the
Stones in the centre are public. Then:
- no channel message names a card unless some card of that name is in a
  public zone (Supervillain: discards, Mobs, Projects, Facilities,
  Asteroids, drawn face up; Villainous: realms, discard piles, revealed
  by Fate, resolving) just before or just after the input line that made
  it: an answer may tell what it did to a card in the open ("took
  Adrenaline Shot from the Minion discard pile"), and a card that went
  into a deck meanwhile lay in a discard pile (a deck is refilled only
  from one). The hidden zones are the Minion deck, the Domination deck
  and the hands (Supervillain), the villain decks, the fate decks and
  the hands (Villainous). /game log (an ephemeral account of the public
  history) may name only cards that were public at some time;
- a wrong answer (`/game move choice:play.cI`, `pick.cI`... naming a
  card I its sender may not see, by the decider or out of turn) gets
  one error, to its sender alone, which names no card they may not see
  (read as any private text below), and leaves the state unchanged;
- every message showing a hand ("**Your hand** (NAME, ...") is a DM or an
  ephemeral reply to NAME, and lists exactly the cards in NAME's hand
  (Villainous: and, on its "On top of your fate deck (you looked)" line,
  exactly the fate cards NAME looked at that still lie on their deck);
  in Villainous, where every DM opens with the hand, the rest of such a
  message (the turn so far, the question) is checked as any other DM;
- any other DM or ephemeral reply to a player names only public cards,
  cards in that player's own hand and (Villainous) fate cards that
  player looked at in secret (the state's `known` bits) just before or
  after the line;
- a turn's message lays the table out in fields, one per player in seat
  order, each named after its player and in the game's colour, and its
  fields name only cards that are public right after the input line
  (the table is drawn from the state that line left).

Messages are edited as a turn goes on (the turn's channel message, each
player's DM): a line that the same message showed before is not checked
again (it may name a card that was open then and is hidden now), every
new line is. Villainous has a few more ways for a hidden card to be
named rightly, each allowed only where it applies:
- a search for a named card ("searched their villain deck and took
  Force the Lamp Door into their hand") shows it to everyone: such a
  sentence may name a card that went from that deck or discard pile into
  a hand in that line;
- a discard pile shuffled into a new deck in the line ("shuffled their
  villain discard pile", "fate discard pile ... was shuffled into a new
  fate deck", Marvel's "The fate discard pile ... was shuffled into a new
  fate deck"): its cards may have been discarded in the open earlier in
  the same line and now lie in the deck again or in the hand;
- a search lets its player choose from their own villain deck (options
  `pick.cI` "Take NAME", card I in their deck), and a resolving card
  whose text names another ("Find Maren Holt, the Lightkeeper, ...") may
  have its player asked about that card;
- a Condition played and taken back was shown in the channel: a DM may
  repeat the lines of the turn's channel message;
- texts that are public whatever the state name cards too and are read
  as naming none: each villain's objective (whole or cut short with
  "..." in an option) and guide, its progress "X is not in the realm", and a
  card's rules text that names another card (Wrecker's Pilot's names
  Force the Lamp Door) counts as naming only its own card.
The Marvel games must between them show an Event, a Stone and an
invading Ally coming into play (their channel lines are counted), and
each Villainous rulebook a hand with looked-at fate cards.

Disorder of the Villains (2 players: mode standard, its deck designs and
Villains drafted in the first answers, and mode random) is checked the
same way (every DM opens with its recipient's hand, checked exactly;
wrong answers `play.cI`, `pick.cI`, `room.cI`, `int.cI`, `trait.cI`,
`mint.cI` naming a card in a hand or a deck are refused alone). Its
hidden zones are the decks and the hands; rows, minted areas and
discard piles are open, and so is the draft: a drafted Villain not yet
dealt is open, and texts that name cards without placing them are read
as naming none: each deck's list of Villains ("NAME (SEQUENCE)", the
table's "Villains:" line and a draft's line), the Villains still free
and the draft's options, the deck designs' guides, and a card's text
that names others (Mudskipper Troll's) counts as naming only its own
card. A card Played or DROPped into a full row is named ("... make room
for NAME") while its owner chooses what to discard: it counts as open
until it enters, and that Play may not be taken back (the test asks for
a takeback at each such moment: it must be refused, for the table has
seen the card). The Disorder games must between them show an interrupt
window answered with a 🧠 trait, a chain of two entries or more and a
mint.

Galactic Domination (a whole game of alice against the lobby's AI seat,
and the first 260 answers of one between two players: a random game
between two ends only after about 500) hides nothing: every view is the
whole board, so there is no card to keep from anyone. What is checked
there (GalGame) is that nothing private goes where it does not belong
and that what each seat is shown is the board as the state has it
(lairlocal's GalBoard): no channel message carries a DM's text (a
prompt, "Your fleet", "You chose", option ids); a turn's table has a
field per seat in seat order, in the game's colour, each exactly the
seat's summary and fleet, and says the state's phase; DMs go to the
seated members only and hold the recipient's fleet (exactly the state's
in the last one of a line), the turn's channel lines, their own "You
chose" and their own prompt (the active seat's, a collision's
defender's), listing exactly its options; /game hand is the asker's
fleet and /game status every seat's, exactly. Each DM's fleet, drawn
from the recipient's view, equals their field in the table, drawn from
the public view (tests/test_gal_views.c compares the views themselves).
The games must between them show a ship built, an explorer warped into
deep space and a ship lost.
"""

import collections
import json
import random
import re
import subprocess
import sys

import lairlocal as ll

# (game, players, --seed, answer seed, mode (None: the game's default)[,
# AI seats (the last ones), answers to play (None: to the end)])
GAMES = [("supervillain", 2, 21, 201, None),
         ("supervillain", 4, 23, 208, None, 0, 300),
         ("villainous", 2, 39, 309, None), ("villainous", 4, 41, 401, None, 0, 250),
         ("marvel-villainous", 2, 56, 567, None),
         ("marvel-villainous", 4, 81, 817, "undying"),
         ("disorder", 2, 95, 951, None), ("disorder", 2, 96, 961, "random"),
         ("galactic", 2, 26, 261, None, 1, None),
         ("galactic", 2, 27, 271, None, 0, 260)]
VILLAINOUS = ("villainous", "marvel-villainous")
# Games whose every DM opens with its recipient's hand.
HAND_DMS = VILLAINOUS + ("disorder",)
# Wrong answers the probes send, per game: option kinds naming a card.
PROBES = {"villainous": ("play", "pick", "cond", "act"),
          "marvel-villainous": ("play", "pick", "cond", "act"),
          "disorder": ("play", "pick", "room", "int", "trait", "mint")}

HAND_HEAD = re.compile(r"\*\*Your hand\*\* \((.+?), (\d+) cards?\)")
HAND_LINE = {"supervillain": re.compile(r"^- \*\*(.+?)\*\*: Mob ", re.M),
             "villainous": re.compile(r"^- \*\*(.+?)\*\* \("),
             "marvel-villainous": re.compile(r"^- \*\*(.+?)\*\* \("),
             "disorder": re.compile(r"^- \*\*(.+?)\*\* \(")}
LOOKED = "On top of your fate deck (you looked): "
SEARCHED = re.compile(r"searched their (?:villain deck|discard pile) and "
                      r"took (.+?) into their hand")
RESHUFFLE = re.compile(r"^(\S+?)(?: (shuffled) their villain discard pile|"
                       r"'s fate discard pile .*was shuffled into a new)")
# Marvel's one fate discard pile, shared by everyone.
RESHUFFLE_SHARED = re.compile(r"^The fate discard pile \(\d+ cards?\) was "
                              r"shuffled into a new fate deck")


def public_texts(binary, model):
    """(text, replacement) pairs, longest first: the texts that are
    public whatever the state and name cards (see the docstring); card
    name -> the other cards its text names; and (pattern, replacement)
    pairs for public texts of a form (Disorder's)."""
    if model.game == "disorder":
        return disorder_texts(model)
    if model.game not in VILLAINOUS:
        return [], {}, []
    finder = ll.Names(model.names)
    pairs, names = [], {}
    for c in json.loads(subprocess.run(
            [binary, "cards", model.game], check=True,
            stdout=subprocess.PIPE, env=ll.sanitizer_env()).stdout):
        if c["name"] not in model.kinds:
            continue  # a villain's entry
        names[c["name"]] = finder.find(c["text"]) - {c["name"]}
        if names[c["name"]]:
            pairs.append((c["text"], c["name"]))
    ll.check(len(model.villains) >= 5, "no villains in the card list")
    for v in model.villains.values():
        pairs += [(v["objective"], ""), (v["guide"], "")]
        for name in finder.find(v["objective"]):
            pairs.append(("%s is not in the realm" % name, ""))
    return sorted(pairs, key=lambda p: len(p[0]), reverse=True), names, []


def disorder_texts(model):
    """public_texts for Disorder (lairlocal's DisCards.public_texts: the
    decks' lists of Villains, the draft, guides, Mudskipper Troll's
    text)."""
    pairs, patterns = model.public_texts()
    return pairs, {}, patterns


def strip_public(text, texts, patterns=()):
    """text with each of texts (pairs from public_texts) replaced, whole
    or cut short with "..." (as in an option's label) after 20 or more of
    its characters, and each match of patterns replaced."""
    for pattern, name in patterns:
        text = pattern.sub(name, text)
    for t, name in texts:
        start = 0
        while True:
            p = text.find(t[:20], start)
            if p < 0:
                break
            n = min(20, len(t))
            while n < len(t) and p + n < len(text) and text[p + n] == t[n]:
                n += 1
            if n == len(t):
                text = text[:p] + name + text[p + n:]
            elif text.startswith("...", p + n):
                text = text[:p] + name + text[p + n + 3:]
            start = p + 1
    return text


class Versions:
    """The lines each message (channel, title; or DM, user, title) showed
    last: new_lines gives those a new version adds."""

    def __init__(self):
        self.last = {}
        self.ever = collections.defaultdict(set)

    def new_lines(self, key, rows):
        old = collections.Counter(self.last.get(key, ()))
        self.last[key] = rows
        self.ever[key].update(rows)
        new = []
        for x in rows:
            if old[x]:
                old[x] -= 1
            else:
                new.append(x)
        return new


class Game:
    """One game played and checked line by line."""

    def __init__(self, game, players, model, finder, public, stats):
        self.game, self.vl = game, game in VILLAINOUS
        self.hand_dms = game in HAND_DMS
        self.model, self.finder, self.stats = model, finder, stats
        self.texts, self.text_names, self.patterns = public
        self.seats = ll.NAMES[:players]
        self.hand_line = HAND_LINE[game]
        self.versions = Versions()
        self.ever_public = set()
        self.ever_seen = collections.defaultdict(set)  # per player
        # Before the line: public names, places, looked-at cards.
        self.public, self.places = set(), []
        self.known = collections.defaultdict(set)

    def find(self, text):
        return self.finder.find(strip_public(text, self.texts,
                                             self.patterns))

    def examine(self, line, out, state):
        st = json.loads(state) if state is not None else None  # None: lobby
        model, seats = self.model, self.seats
        places = model.places(st) if st else []
        names = model.instances(st) if st else []
        public = {names[i] for i, p in enumerate(places)
                  if model.public_zone(p[0])}
        # A card announced out of a hidden zone (Disorder: one entering a
        # full row while room is made).
        public |= {names[i] for i in model.announced(st)} if st else set()
        self.ever_public.update(public)
        into_deck = {names[i] for i, p in enumerate(places)
                     if self.places and p[0] in model.deck_zones and
                     self.places[i][0] not in (p[0], model.undealt)}
        # Cards from their owner's deck or discard pile into the hand
        # during this line: a search sentence may name them.
        searched = {names[i] for i, p in enumerate(places)
                    if self.vl and self.places and p[0] == ll.VL_HAND and
                    self.places[i][0] in (ll.VL_VDECK_Z, ll.VL_VDISC)}
        hands = collections.defaultdict(list)
        known = collections.defaultdict(set)  # fate cards looked at
        sees = collections.defaultdict(set)  # what each player may see
        resolving = set()  # what the texts of resolving cards name
        for i, p in enumerate(places):
            if p[0] == model.hand_zone:
                hands[seats[p[1]]].append(names[i])
            if self.vl and p[0] == ll.VL_PLAYING:
                resolving |= self.text_names[names[i]]
            for s, who in enumerate(seats):
                if p[2] >> s & 1:
                    known[who].add(names[i])
                if model.may_see(p, s):
                    sees[who].add(names[i])
        # The new lines of every message, the channel's first.
        lines, new = {}, {}
        for k, m in sorted(enumerate(out), key=lambda x: x[1]["to"] !=
                           "channel"):
            lines[k] = self.hand_message(line, m, hands, known)
            if m["to"] in ("channel", "dm"):
                new[k] = self.versions.new_lines(
                    (m["to"], m.get("user"), m.get("title")), lines[k])
            else:
                new[k] = lines[k]
        reshuffled = set()
        for k, m in enumerate(out):
            for x in new[k] if self.vl and m["to"] == "channel" else ():
                r = RESHUFFLE.match(x)
                if RESHUFFLE_SHARED.match(x):
                    # Marvel's one fate deck (all at seat 0).
                    reshuffled |= {names[i] for i, p in enumerate(places)
                                   if p[0] == ll.VL_FDECK}
                    self.stats["shared_reshuffles"] += 1
                elif r and r.group(1) in seats:
                    s, fate = seats.index(r.group(1)), not r.group(2)
                    zones = (ll.VL_FDECK,) if fate else (ll.VL_VDECK_Z,
                                                         ll.VL_HAND)
                    reshuffled |= {
                        names[i] for i, p in enumerate(places)
                        if p[0] in zones and p[1] == s and
                        model.is_fate(i, st) == fate}
                for sign, pattern in ll.MV_SIGNS.items():
                    self.stats[sign] += bool(
                        self.game == "marvel-villainous" and
                        pattern.search(x))
            for x in new[k] if self.game == "disorder" and \
                    m["to"] == "channel" else ():
                for sign, pattern in ll.DIS_SIGNS.items():
                    self.stats[sign] += bool(pattern.search(x))
        self.stats["reshuffled"] += len(reshuffled)
        shown = public | self.public | into_deck | reshuffled
        self.ever_public.update(shown)  # open for a moment in this line
        known_before = self.known
        for k, m in enumerate(out):
            text = "\n".join(lines[k])
            named = self.find(text)
            self.stats["messages"] += 1
            if m["to"] == "channel" and "fields" in m:
                self.fields(line, m, public)
            if "**Summary of game #" in text:
                # the end's summary quotes lines of the whole game
                leak = named - self.ever_public - \
                    (self.ever_seen[m["user"]] if m["to"] == "dm" else set())
                what = "summary %s" % m["to"]
            elif m["to"] == "channel":
                told = set()
                for x in new[k]:
                    for found in SEARCHED.findall(x) if self.vl else ():
                        told |= self.find(found) & searched
                self.ever_public.update(told)
                self.stats["searched"] += len(told)
                leak = (self.find("\n".join(new[k])) - shown - told) | \
                    (named - self.ever_public)
                what = "channel message"
            elif text.startswith("**Game #"):
                # /game log: a player's catch-up (since:me) shows their own
                # seat's lines too, never another seat's hidden cards
                leak = named - self.ever_public - self.ever_seen[m["user"]]
                what = "log for %s" % m["user"]
                self.stats["catchups"] += "since your last answer" in text
            else:
                who = m["user"]
                mine = sees[who] | known_before[who] | resolving | \
                    self.searching(m, places, names)
                self.ever_seen[who] |= mine
                channel = self.versions.ever[("channel", None,
                                              m.get("title"))]
                rows = [x for x in new[k] if x not in channel]
                # a turn DM's "since your last turn" lines quote earlier
                # lines: what was public then, or the recipient's own
                since = [x for i, x in enumerate(rows)
                         if x.startswith(SINCE) or
                         (i and rows[i - 1].startswith(SINCE))]
                rows = [x for x in rows if x not in since]
                leak = (self.find("\n".join(rows)) - shown - mine) | \
                    (named - self.ever_public - self.ever_seen[who]) | \
                    (self.find("\n".join(since)) - self.ever_public -
                     self.ever_seen[who] - mine)
                self.stats["since"] += bool(since)
                what = "%s to %s" % (m["to"], who)
                self.stats["looked_named"] += bool(
                    named & (known[who] | known_before[who]))
            ll.check(not leak,
                     "after %r a %s names %s, which nobody may see:\n%s" %
                     (line, what, sorted(leak), text))
            self.stats["names"] += len(named)
            self.stats[self.game + "_names"] += len(named)
        self.public, self.places, self.known = public, places, known

    def hand_message(self, line, m, hands, known):
        """The lines of m but its hand, which must be its recipient's
        (Supervillain: no line of a hand message is left)."""
        text = m.get("text", "")
        head = HAND_HEAD.search(text)
        if not head:
            return text.split("\n")
        self.stats["hands"] += 1
        self.stats[self.game + "_hands"] += 1
        who = head.group(1)
        ll.check(m["to"] in ("dm", "ephemeral") and m["user"] == who,
                 "after %r the hand of %s went to %s %s: %r" %
                 (line, who, m["to"], m["user"], text))
        if not self.hand_dms:
            listed = sorted(self.hand_line.findall(text))
            ll.check(listed == sorted(hands[who]) and
                     int(head.group(2)) == len(listed),
                     "after %r %s's hand message lists %r; the hand "
                     "holds %r" % (line, who, listed, sorted(hands[who])))
            return []
        # The hand is the block up to the first empty line.
        rows = text[head.start():].split("\n")
        block = rows[1:rows.index("")] if "" in rows else rows[1:]
        listed = [self.hand_line.match(x).group(1) for x in block
                  if self.hand_line.match(x)]
        looked = [x for x in block if x.startswith(LOOKED)]
        ll.check(len(listed) + len(looked) == len(block) and
                 len(looked) <= 1,
                 "after %r %s's hand has other lines: %r" %
                 (line, who, block))
        ll.check(sorted(listed) == sorted(hands[who]) and
                 int(head.group(2)) == len(listed),
                 "after %r %s's hand message lists %r; the hand holds %r" %
                 (line, who, listed, sorted(hands[who])))
        seen = self.finder.find(looked[0][len(LOOKED):]) if looked else set()
        ll.check(seen == known[who],
                 "after %r %s's hand message shows the looked-at fate "
                 "cards %r, not %r" % (line, who, sorted(seen),
                                       sorted(known[who])))
        self.stats["looked"] += bool(looked)
        self.stats[self.game + "_looked"] += bool(looked)
        return text[:head.start()].split("\n") + rows[len(block) + 1:]

    def fields(self, line, m, public):
        """A turn's table: a field per player, in the game's colour,
        naming only public cards."""
        fields = m["fields"]
        ll.check(len(fields) == len(self.seats) and all(
            f["name"].startswith(who + ": ")
            for f, who in zip(fields, self.seats)),
            "after %r a turn's fields are not one per player: %r" %
            (line, fields))
        ll.check(m.get("colour") == self.model.colour and m.get("title"),
                 "after %r a turn's message has colour %r, title %r" %
                 (line, m.get("colour"), m.get("title")))
        on_table = self.find("\n".join(
            f["name"] + "\n" + f["value"] for f in fields))
        ll.check(not on_table - public,
                 "after %r a turn's fields name %s, which is hidden:\n%r" %
                 (line, sorted(on_table - public), fields))
        self.stats["fields"] += len(fields)
        self.stats[self.game + "_fields"] += len(fields)

    def searching(self, m, places, names):
        """The cards of the recipient's villain deck that a search lets
        them choose from: options pick.cI labelled "Take NAME ..." with
        card I in their villain deck."""
        if not self.vl or not m.get("options"):
            return set()
        seat = self.seats.index(m["user"])
        offered = set()
        for o in m["options"]:
            i = re.match(r"pick\.c(\d+)$", o["id"])
            i = i and int(i.group(1))
            if i is None or places[i][:2] != (ll.VL_VDECK_Z, seat):
                continue
            label = self.finder.find(o["label"])
            ll.check(o["label"].startswith("Take ") and
                     label == {names[i]},
                     "%s is offered %r for card %d (%s)" %
                     (m["user"], o["label"], i, names[i]))
            offered |= label
        self.stats["searching"] += bool(offered)
        return offered


# The private texts of Galactic Domination: a DM is the recipient's fleet,
# then the turn so far (lines the channel shows, and the recipient's own
# "You chose: LABEL."), then their prompt or that nothing more is theirs.
GAL_FLEET = "**Your fleet**\n"
GAL_PRIVATE = ("Your turn", "Your fleet", "You chose", "Answer with the "
               "buttons", "Nothing more for you", "\n- `")
GAL_QUESTION = re.compile(r"^\*\*Your turn\*\* in game #1: .+$")
GAL_CHOSE = re.compile(r"^You chose: (.+)\.$")
GAL_NOTHING = re.compile(r"^Nothing more for you this turn of game #1\. "
                         r"Waiting for (.+)\.$")
GAL_ANSWER = "Answer with the buttons, or /game move choice:<id or label>."
SINCE = "**Since your last turn:**"
DM_HEADER = re.compile(r"^_Game #\d+ \(.+\) in (<#\d+>|channel \S+)_$")
GAL_EARLIER = re.compile(r"^\(\d+ earlier lines?: /game log\)$")


class GalGame:
    """Galactic Domination played and checked line by line. It hides
    nothing: every view is the whole board, so privacy here is that
    nothing private is sent where it does not belong, and that what a
    seat is shown of the board is the board (lairlocal's GalBoard, from
    the state dumped after every line):
    - no channel message carries a DM's text (a prompt, "Your fleet",
      "You chose", option ids);
    - a turn's table has a field per seat in seat order, in the game's
      colour, each the seat's summary and fleet exactly as the state
      says (or its first lines and "(more: /game status)"), and its text
      the state's phase and whose turn it is;
    - DMs go to the seated members only (never to an AI seat) and hold
      only the recipient's fleet (the state's, exactly, for the last one
      of a line: earlier ones are of states between two AI answers) and
      a turn's DM the turn so far (each line one that the turn's channel
      message showed, or "You chose: LABEL." with a label the recipient
      was offered), then the recipient's own prompt (the decider's
      alone, listing exactly its options) or that nothing more is
      theirs;
    - /game hand is the asker's fleet, /game status the table with every
      seat's exact, /game log nothing private.
    A seat's view and the public one render the same board: each DM's
    fleet (drawn from the recipient's view) equals their field in the
    table (drawn from the public view)."""

    hand_dms = False  # no card probes
    places = ()

    def __init__(self, players, ai, model, stats):
        self.model, self.stats = model, stats
        self.names = ll.seat_names(players, ai)
        self.humans = self.names[:players - ai]
        self.versions = Versions()
        self.offered = collections.defaultdict(set)  # labels, per member

    def private_free(self, line, text, what):
        for x in GAL_PRIVATE:
            ll.check(x not in text, "after %r a %s shows %r, a DM's text:"
                     "\n%s" % (line, what, x, text))

    def fleet_block(self, st, seat):
        """The recipient's fleet as the state says: summary, fleet lines
        (or only their purse while the other player acts)."""
        return self.model.own_dm(st, seat, self.names)

    def table_field(self, line, st, seat, f):
        """A seat's field: its summary as the name, its fleet the value."""
        want = self.model.fleet(st, seat)
        value = f["value"].split("\n")
        if value[-1] == ll.FIELD_CUT:
            ok = value[:-1] == want[:len(value) - 1] and \
                len(value) - 1 < len(want)
            self.stats["galactic_fields_cut"] += 1
        else:
            ok = value == (want or ["-"])
        ll.check(f["name"] == self.model.summary(st, seat, self.names) and ok,
                 "after %r %s's field reads\n%s\n%s\nwhere the state has"
                 "\n%s\n%s" % (line, self.names[seat], f["name"],
                                 f["value"], self.model.summary(
                                     st, seat, self.names),
                                 "\n".join(want)))

    def examine(self, line, out, state):
        st = json.loads(state) if state is not None else None
        model = self.model
        sender = line.split(">", 1)[0]
        last_dm = {}
        # The channel's messages first: a DM repeats their lines.
        for m in sorted(out, key=lambda m: m["to"] != "channel"):
            text = m.get("text", "")
            self.stats["messages"] += 1
            self.stats["galactic_messages"] += 1
            if "**Summary of game #" in text:  # the end's, for all to see
                if m["to"] == "channel":
                    self.private_free(line, text, "summary")
                continue
            if m["to"] == "dm":  # past the game's header and catch-up
                rows = text.split("\n")
                ll.check(DM_HEADER.match(rows[0]), "after %r a DM begins "
                         "%r" % (line, rows[0]))
                rows = rows[1:]
                if rows and rows[0].startswith(SINCE):
                    rows = rows[3:]
                    self.stats["since"] += 1
                text = "\n".join(rows)
                m = dict(m, text=text)
            if m["to"] == "channel":
                self.private_free(line, text, "channel message")
                for x in self.versions.new_lines(("channel", m.get("title")),
                                                 text.split("\n")):
                    for sign, pattern in ll.GAL_SIGNS.items():
                        self.stats["galactic_" + sign] += bool(
                            pattern.search(x))
                if "fields" in m:
                    self.table(line, m, st)
                continue
            ll.check(m["user"] in self.humans, "after %r a %s went to %r, "
                     "who plays no seat of it" % (line, m["to"], m["user"]))
            seat = self.names.index(m["user"])
            if m["to"] == "dm":
                self.dm(line, m, st, seat)
                if text.startswith(GAL_FLEET):
                    last_dm[m["user"]] = m
            elif text.startswith(GAL_FLEET):  # /game hand
                ll.check(m["user"] == sender and
                         text[len(GAL_FLEET):].split("\n") ==
                         self.fleet_block(st, seat),
                         "after %r %s was shown the fleet\n%s\nwhere the "
                         "state has\n%s" % (line, m["user"], text,
                                             "\n".join(self.fleet_block(
                                                 st, seat))))
                self.stats["galactic_fleets"] += 1
            else:
                self.private_free(line, text, "reply to %s" % m["user"])
                if line.endswith("/game status"):
                    self.status(line, text, st)
        # The last DM of each member in a line shows the fleet of the
        # state the line left.
        for who, m in last_dm.items():
            seat = self.names.index(who)
            got = m["text"][len(GAL_FLEET):].split("\n\n")[0]
            want = "\n".join(self.fleet_block(st, seat))
            ll.check(got == want, "after %r %s's last DM shows the fleet\n"
                     "%s\nwhere the state has\n%s" % (line, who, got, want))
            self.stats["galactic_fleets"] += 1
        for m in out:
            if m.get("options"):
                self.offered[m["user"]].update(o["label"]
                                               for o in m["options"])

    def table(self, line, m, st):
        """A turn's table: colour, title, the phase, a field per seat."""
        fields = m["fields"]
        ll.check(m.get("colour") == self.model.colour and m.get("title"),
                 "after %r a turn's message has colour %r, title %r" %
                 (line, m.get("colour"), m.get("title")))
        ll.check(len(fields) == len(self.names),
                 "after %r a turn's fields are not one per seat: %r" %
                 (line, fields))
        for seat, f in enumerate(fields):
            self.table_field(line, st, seat, f)
        head = self.model.headline(st, self.names)
        ll.check(head in m["text"], "after %r the table does not say %r:"
                 "\n%s" % (line, head, m["text"]))
        self.stats["fields"] += len(fields)
        self.stats["galactic_fields"] += len(fields)

    def status(self, line, text, st):
        """/game status: every seat's summary in bold, then its fleet."""
        for seat in range(len(self.names)):
            block = "**%s**%s" % (self.model.summary(st, seat, self.names),
                                  "".join("\n" + x for x in
                                          self.model.fleet(st, seat)))
            ll.check("\n\n%s\n\n" % block in text + "\n\n",
                     "after %r /game status lacks\n%s\n:\n%s" %
                     (line, block, text))
        self.stats["galactic_status"] += 1

    def dm(self, line, m, st, seat):
        """A DM: the fleet, then only the turn so far and the recipient's
        own prompt; or the prompt alone (sent again by /game hand)."""
        text, who = m["text"], m["user"]
        options = m.get("options") or []
        # The prompt is the active seat's; a collision's, the defender's.
        ll.check(not options or st["phase"] == "collision" or
                 seat == st["active"], "after %r %s is asked (%s's turn, "
                 "phase %s)" % (line, who, self.names[st["active"]],
                                st["phase"]))
        rows = text.split("\n")
        if GAL_QUESTION.match(rows[0]):
            rest = rows
        else:
            ll.check(text.startswith(GAL_FLEET), "after %r a DM to %s opens "
                     "with neither the fleet nor a prompt: %r" %
                     (line, who, text))
            rows = rows[1:]
            ll.check(rows[0].startswith(who + " (player "),
                     "after %r %s's DM sums up another fleet: %r" %
                     (line, who, rows[0]))
            k = 1
            while k < len(rows) and rows[k].startswith("- **"):
                k += 1
            rest = rows[k:]
        # A turn's lines are its channel message's (any DM without a
        # title: any channel message's).
        shown = self.versions.ever[("channel", m["title"])] \
            if "title" in m else set().union(*(
                v for k, v in self.versions.ever.items()
                if k[0] == "channel"))
        asked = False
        for k, x in enumerate(rest):
            chose = GAL_CHOSE.match(x)
            if x in ("", "**This turn:**") or x in shown or \
                    GAL_EARLIER.match(x):
                continue
            if chose and chose.group(1) in self.offered[who]:
                self.stats["galactic_chose"] += 1
                continue
            nothing = GAL_NOTHING.match(x)
            if nothing and not options and k == len(rest) - 1:
                continue
            if GAL_QUESTION.match(x) and options:
                listed = rest[k + 1:k + 1 + len(options)]
                ll.check(listed == ["- `%s` %s" % (o["id"], o["label"])
                                    for o in options] and
                         rest[k + 1 + len(options):] == [GAL_ANSWER],
                         "after %r %s's prompt lists %r, not its options "
                         "%r" % (line, who, rest[k + 1:], options))
                asked = True
                self.stats["galactic_prompts"] += 1
                break
            raise ll.Fail("after %r a DM to %s holds %r, which is neither "
                          "a line of the turn's channel message nor theirs "
                          "to read:\n%s" % (line, who, x, text))
        ll.check(asked == bool(options), "after %r %s's DM has options %r "
                 "and %s question" % (line, who, options,
                                      "a" if asked else "no"))
        self.stats["galactic_dms"] += 1


def play(binary, tmp, game, players, seed, answer_seed, mode, checker, ai=0,
         limit=None):
    """Plays game 1 (ai: its last seats the AI's; limit: answers to play,
    None: to the end) with checker examining every line; returns the
    answers played."""
    rng = random.Random(answer_seed)
    probes = random.Random(answer_seed + 1)  # leaves rng's sequence alone
    lair = ll.Lair(binary, "%s/p%s%d%s%d.db" % (tmp, game, players,
                                                mode or "", seed), seed)
    seats = ll.NAMES[:players - ai]  # the members
    moves = 0
    state = [None]

    def send(line):
        out = lair.send(line)
        state[0] = lair.dump()
        checker.examine(line, out, state[0])
        return out

    def probe(user, options):
        """A wrong answer naming a card its sender may not see (the
        decider's choice that is no option, or anyone else's out of
        turn): one error to the sender, which examine reads as a private
        text, and the game unchanged."""
        who = probes.choice(seats)
        seat = seats.index(who)
        hidden = [i for i, p in enumerate(checker.places)
                  if not checker.model.public_zone(p[0]) and
                  not checker.model.may_see(p, seat)]
        if not hidden:
            return
        choice = "%s.c%d" % (probes.choice(PROBES[game]),
                             probes.choice(hidden))
        if who == user and choice in [o["id"] for o in options]:
            return  # a search's card of the decider's own deck
        line = "%s> /game move choice:%s" % (who, choice)
        before = state[0]
        out = send(line)
        ll.check([(m["to"], m["user"]) for m in out] == [("ephemeral", who)]
                 and state[0] == before,
                 "%r (%s decides) was not refused alone: %r" %
                 (line, user, out))
        checker.stats["probes"] += 1

    def room_takeback(user, options):
        """Disorder: while a card Played or DROPped into a full row waits
        for room, the table has read its name; taking back the answer
        that announced it would put a card the table saw back into a
        hand unseen. The takeback must be refused, to its sender alone,
        and the game unchanged."""
        if game != "disorder" or not options or \
                not all(o["id"].startswith("room.") for o in options):
            return
        st = json.loads(state[0])
        card = st["enter"]["card"]
        if st["zone"][card] != "hand":
            return
        line = "%s> /game undo" % user
        before = state[0]
        out = send(line)
        ll.check([(m["to"], m["user"]) for m in out] == [("ephemeral", user)]
                 and state[0] == before,
                 "%r took back the answer that named %s (in %s's hand) in "
                 "the channel (\"... make room for ...\"): %r" %
                 (line, checker.model.instances(st)[card], user,
                  [(m["to"], m.get("text", "")[:200]) for m in out]))
        checker.stats["room_takebacks_refused"] += 1

    out = None
    for line in ll.setup_lines(players, game, mode, ai):
        out = send(line)
    user, options = ll.one_prompt(out, line)
    while True:
        if checker.hand_dms and probes.random() < 0.03:
            probe(user, options)
        room_takeback(user, options)
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
            opt = ll.pick(rng, options, game)
            line = "%s> /game move choice:%s" % (
                user, ll.choice_text(rng, options, opt))
        out = send(line)
        if undo and [m["to"] for m in out] == ["ephemeral"]:
            continue  # nothing to take back
        ll.check(not any(m["to"] == "ephemeral" for m in out),
                 "move %r refused: %r" % (line, out))
        moves += 1
        if ll.is_over(out) or moves == limit:
            break
        user, options = ll.one_prompt(out, line)
        ll.check(moves < 20000, "the game does not end")
    for who in seats:  # hands and the log after the end
        send("%s> /game hand" % who)
        send("%s> /game log" % who)
    lair.close()
    return moves


def run(binary, tmp):
    models = {}
    stats = collections.Counter()
    parts = []
    for game, players, seed, answer_seed, mode, *more in GAMES:
        ai, limit = more or (0, None)
        if game not in models:
            model = ll.card_model(binary, game)
            models[game] = model if game == "galactic" else (
                model, ll.Names(model.names), public_texts(binary, model))
        if game == "galactic":
            checker = GalGame(players, ai, models[game], stats)
        else:
            checker = Game(game, players, *models[game], stats)
        moves = play(binary, tmp, game, players, seed, answer_seed, mode,
                     checker, ai, limit)
        parts.append("%s %dp%s%s %d moves%s" % (
            game, players, "" if mode is None else " " + mode,
            " against %d AI seat%s" % (ai, "" if ai == 1 else "s")
            if ai else "", moves, "" if limit is None else " (cut short)"))
    played = set(g[0] for g in GAMES)
    ll.check(("supervillain" not in played or
              stats["supervillain_names"] > 1000 and stats["hands"] > 100 and
              stats["fields"] > 300 and stats["catchups"] > 0 and
              stats["since"] > 0) and
             all(stats[g + "_names"] > 1000 and stats[g + "_hands"] > 100 and
                 stats[g + "_fields"] > 300 and stats[g + "_looked"] > 0
                 for g in VILLAINOUS if g in played) and
             (not played & set(VILLAINOUS) or
              stats["looked_named"] > 0 and stats["searching"] > 0) and
             ("marvel-villainous" not in played or
              all(stats[sign] > 0 for sign in ll.MV_SIGNS)) and
             ("disorder" not in played or
              stats["disorder_names"] > 1000 and
              stats["disorder_hands"] > 100 and
              stats["disorder_fields"] > 100 and
              all(stats[sign] > 0 for sign in ll.DIS_SIGNS)) and
             ("galactic" not in played or
              stats["galactic_fields"] > 300 and
              stats["galactic_dms"] > 300 and
              stats["galactic_prompts"] > 200 and
              stats["galactic_fleets"] > 300 and
              stats["galactic_status"] > 0 and
              all(stats["galactic_" + sign] > 0
                  for sign in ll.REQUIRED_SIGNS["galactic"])),
             "too little was checked: %r" % dict(stats))
    return "%d games (%s), %d messages, %d hand messages (%d " \
           "showing looked-at fate cards), %d table fields, %d card names " \
           "checked (Marvel: %d, with %d Event, %d Stone and %d invasion " \
           "lines and %d shared fate decks reshuffled; Disorder: %d, with " \
           "%d 🧠 interrupts, %d chains of 2+, %d mints and %d takebacks of " \
           "a card named entering a full row refused), %d wrong answers " \
           "refused, 0 leaks; Galactic Domination: %d DMs holding only " \
           "their recipient's fleet, turn and prompt (%d prompts), %d " \
           "fleets and %d fields equal to the state's in %d messages, with " \
           "%d builds, %d warps and %d ships lost" % (
               len(GAMES), ", ".join(parts), stats["messages"],
               stats["hands"], stats["looked"], stats["fields"],
               stats["names"], stats["marvel-villainous_names"],
               stats["events"], stats["stones"], stats["invaders"],
               stats["shared_reshuffles"], stats["disorder_names"],
               stats["interrupts"], stats["chains"], stats["mints"],
               stats["room_takebacks_refused"], stats["probes"],
               stats["galactic_dms"], stats["galactic_prompts"],
               stats["galactic_fleets"], stats["galactic_fields"],
               stats["galactic_messages"], stats["galactic_builds"],
               stats["galactic_warps"], stats["galactic_losses"])


if __name__ == "__main__":
    sys.exit(ll.main("local_privacy", run))
