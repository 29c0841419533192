"""lairlocal.py: drives `lair local --json` for the console-table tests.

Shared by the tests in tests/local/ (Python 3, standard library only).
A Lair object is one `lair local --json` process: send(line) writes one
input line and returns the messages it produced, up to its {"to":"done"}.
Games are played with seeded random answers taken from the options that
the bot sends by DM to the player who must decide. Every game Lair hosts
can be played (game="supervillain", the default, "villainous",
"marvel-villainous", those two one engine under two rulebooks,
"disorder" or "galactic"); card_model() says, per game, which card each
instance of a state is, which zones are hidden and who may see a card
(Galactic Domination has no cards and nothing hidden: its model is the
units on the sectors, GalBoard).
"""

import glob
import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import tempfile
import traceback

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
NAMES = ["alice", "bob", "carol", "dave", "erin", "frank"]
GAMES = ("supervillain", "villainous", "marvel-villainous", "disorder",
         "galactic")
DONE = {"to": "done"}

# Zones of the state's "where" list (engine/games/supervillain/sv.h).
Z_MDECK, Z_MDISC, Z_HAND, Z_MOB, Z_DDECK, Z_DDISC = 0, 1, 2, 3, 4, 5
Z_PROJECT, Z_FACILITY, Z_ASTEROID, Z_LIMBO = 6, 7, 8, 9
HIDDEN_ZONES = {Z_MDECK, Z_HAND, Z_DDECK}
N_CARDS = 87
TAKEBACK_REFUSED = "You have no answer of this turn that can be taken back."

# Villainous (engine/games/villainous/vl.h): 48 instances per seat, k 0-29
# the villain deck, 30-44 the fate deck; "where" packs zone + 16 seat +
# 128 loc + 512 known + 32768 (host + 1) + 2^25 order.
VL_BLOCK, VL_VDECK = 48, 30
VL_NONE, VL_VDECK_Z, VL_VDISC, VL_HAND, VL_REALM, VL_TOP = 0, 1, 2, 3, 4, 5
VL_FDECK, VL_FDISC, VL_REVEALED, VL_PLAYING = 6, 7, 8, 9
# Marvel's own zones, all open: Events, Specialty areas, the centre.
VL_EVENT, VL_SPECIALTY, VL_CENTRE = 10, 11, 12
VL_HIDDEN_ZONES = {VL_VDECK_Z, VL_HAND, VL_FDECK}
VL_COLOUR = 0x5b2a86
MV_COLOUR = 0x9b1c1c  # Marvel Villainous's

# Disorder of the Villains (engine/games/disorder/dis.h): 20 instances
# per seat, the four drafted Villains first, then the design's 16
# Monsters; the save names each instance's card ("def", null while not
# dealt), zone ("zone", by name) and side ("side": whose play or minted
# area, the owner elsewhere).
DIS_BLOCK = 20
DIS_ZONES = ("none", "deck", "hand", "villain_row", "monster_row",
             "minted", "discard")
DIS_NONE, DIS_DECK, DIS_HAND, DIS_VROW, DIS_MROW, DIS_MINTED, \
    DIS_DISCARD = range(7)
DIS_HIDDEN_ZONES = {DIS_DECK, DIS_HAND}
DIS_COLOUR = 0x2f7d5b

# Galactic Domination (engine/games/galactic/gal.h, gal_data.c): 2 seats,
# 15 sectors in the order of the board's view, each unit type's short
# name (a unit is "Raider 3": its owner's third Raider). The save lists
# the living units ("units": slot, owner, type, serial, sector: an id,
# "deep" in deep space).
GAL_COLOUR = 0x2c3e7a
GAL_SECTORS = ("R1", "R2", "R3", "B1", "B2", "B3", "Y1", "Y2", "Y3",
               "G1", "G2", "G3", "P1", "P2", "P3")
GAL_SHORT = {"command": "Command", "explorer": "Explorer", "miner": "Miner",
             "destroyer": "Destroyer", "raider": "Raider"}
GAL_ROUNDS = 40
FIELD_CUT = "(more: /game status)"  # a field's value cut (cmd_int.h)


# Lines of Marvel's channel messages that show an Event, a Stone or an
# invading Ally came into play (tests count them, so that a Marvel game
# without them cannot pass unnoticed).
MV_SIGNS = {
    "events": re.compile(r"^The (?:Global Event .+ is in play \(|Targeted "
                         r"Event .+ is played above|Event .+ is resolved)"),
    "stones": re.compile(r" drew the Stone .+ at random from the centre"),
    "invaders": re.compile(r" to the top of \S+ domain at "),
}


# Lines of Disorder's channel messages that show the game's special
# moments happened: an interrupt window answered with a 🧠 trait, a chain
# of two entries or more, a mint.
DIS_SIGNS = {
    "interrupts": re.compile(r"^.+? triggers .+'s \U0001f9e0 [A-Za-z]+: "),
    "chains": re.compile(r" \(chain: (?:[2-9]|\d\d+)\)\.$"),
    "mints": re.compile(r"^.+? MINTs .+ \([A-Dxy]{4}\), discarding "),
}
# Lines of Galactic Domination's channel messages that show the moments
# whose state is more than ships on sectors: a ship built, an explorer
# warped into deep space (and back), a ship destroyed, a charge made.
GAL_SIGNS = {
    "builds": re.compile(r" builds .+ in \S+ for \d+ minerals \("),
    "warps": re.compile(r" warps from \S+ into deep space "),
    "losses": re.compile(r" (?:is destroyed|is swallowed by the black hole)"),
    "charges": re.compile(r" charges a (?:fleet jump|black hole shot)"),
}
SIGNS = {"marvel-villainous": MV_SIGNS, "disorder": DIS_SIGNS,
         "galactic": GAL_SIGNS}
# The signs a game's tests must see (Galactic Domination's charges are
# rare in random play: counted, not required).
REQUIRED_SIGNS = {"galactic": ("builds", "warps", "losses")}


class Fail(AssertionError):
    pass


def check(cond, what):
    if not cond:
        raise Fail(what)


class Names:
    """Finds card names in text, longest first, so that a name inside a
    longer one is not counted twice."""

    def __init__(self, names):
        self.names = sorted(set(names), key=len, reverse=True)

    def find(self, text):
        found = set()
        for n in self.names:
            if n in text:
                found.add(n)
                text = text.replace(n, "\0")
        return found


def sanitizer_env():
    env = dict(os.environ)
    env.setdefault("ASAN_OPTIONS", "detect_leaks=1:abort_on_error=0")
    env.setdefault("UBSAN_OPTIONS", "print_stacktrace=1:halt_on_error=1")
    env.pop("DISCORD_TOKEN", None)
    return env


class Lair:
    """One `lair local --json` process on a database file."""

    def __init__(self, binary, db, seed=None, mods=(), locale=None):
        self.binary, self.db, self.seed, self.mods = binary, db, seed, mods
        self.locale = locale
        self.proc = None
        self.start()

    def start(self):
        argv = [self.binary, "local", "--json", "--db", self.db]
        if self.seed is not None:
            argv += ["--seed", str(self.seed)]
        for m in self.mods:
            argv += ["--mod", m]
        if self.locale:
            argv += ["--locale", self.locale]
        self.err = tempfile.TemporaryFile()
        self.proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=self.err, env=sanitizer_env(), bufsize=0)

    def write(self, line):
        """Sends one line without waiting for its answer."""
        self.proc.stdin.write(line.encode() + b"\n")
        self.proc.stdin.flush()

    def read_message(self):
        """The next message (a dict), or None at the end of the output."""
        raw = self.proc.stdout.readline()
        if not raw:
            return None
        if not raw.endswith(b"\n"):
            return None  # a partial line cut by a kill
        try:
            return json.loads(raw)
        except ValueError:
            raise Fail("not JSON: %r" % raw[:300])

    def read_answer(self):
        """The messages up to the next done; None if the output ended
        first (the process died)."""
        out = []
        while True:
            m = self.read_message()
            if m is None:
                return None
            if m == DONE:
                return out
            out.append(m)

    def send(self, line):
        self.write(line)
        out = self.read_answer()
        check(out is not None, "lair ended while answering %r: %s" %
              (line, self.stderr_text()))
        return out

    def dump(self, game=1):
        out = self.send("!dump %d" % game)
        check(len(out) == 1 and out[0].get("to") == "state",
              "!dump gave %r" % out)
        return out[0]["state"]

    def restart(self):
        check(self.send("!restart") == [], "!restart said something")

    def stderr_text(self):
        self.err.seek(0)
        return self.err.read().decode(errors="replace")

    def close(self):
        """Ends the process with end of input; it must exit 0, silently."""
        self.proc.stdin.close()
        rest = self.proc.stdout.read()
        rc = self.proc.wait(timeout=60)
        self.proc.stdout.close()
        err = self.stderr_text()
        self.err.close()
        check(rc == 0 and not err.strip(),
              "lair exited %d; stderr: %s" % (rc, err[-3000:]))
        check(not rest.strip(), "unread output at exit: %r" % rest[:300])

    def kill(self):
        """SIGKILL; returns the messages still readable (complete lines)."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.stdin.close()
        msgs = []
        while True:
            m = self.read_message()
            if m is None:
                break
            msgs.append(m)
        self.proc.wait(timeout=60)
        self.proc.stdout.close()
        self.err.close()
        return msgs


def prompts(msgs):
    """The DMs carrying options in msgs: [(user, options)]."""
    return [(m["user"], m["options"]) for m in msgs
            if m.get("to") == "dm" and m.get("options")]


_OPTION_START = re.compile(r"(^| )[a-z_]+:")


def choice_text(rng, options, opt):
    """What to type for opt: its id, or its label when that label is
    unique among the options (chosen at random between the two when both
    are possible)."""
    label = opt["label"]
    unique = sum(1 for o in options if o["label"] == label) == 1
    typeable = (label == label.strip() and not label.endswith("?") and
                not _OPTION_START.search(label) and "\n" not in label)
    if unique and typeable and rng.random() < 0.5:
        return label
    return opt["id"]


def setup_lines(players, game="supervillain", mode=None, ai=0):
    """The lines that open and start game 1 (mode: the game's mode, None
    for its default; ai: how many of the players are AI seats, the last
    ones, named "AI N" after their seat)."""
    check(game in GAMES, "no game %r" % game)
    lines = ["alice> /game new kind:%s%s%s" % (
        game, "" if mode is None else " mode:%s" % mode,
        " ai:%d" % ai if ai else "")]
    lines += ["%s> /game join" % n for n in NAMES[1:players - ai]]
    lines.append("alice> /game start")
    return lines


def seat_names(players, ai=0):
    """The seats' names in seat order (the AI seats last, "AI N")."""
    return NAMES[:players - ai] + ["AI %d" % (s + 1) for s in
                                   range(players - ai, players)]


# Galactic Domination's random answers: option id's first part -> weight
# (1 when not listed).
GAL_WEIGHTS = {"attack": 6, "build": 5, "warp": 4, "charge": 4, "fire": 6,
               "jump": 4, "attach": 3, "ship": 3, "move": 2}


def pick(rng, options, game="supervillain"):
    """An option at random: rng.choice(options), but for Galactic
    Domination, whose random turns would wander for hundreds of answers,
    weighted towards what ends them (GAL_WEIGHTS: attacks, builds and the
    special actions; a game between two random players then ends with a
    fleet destroyed in about 500 answers, not at the round limit)."""
    if game != "galactic":
        return rng.choice(options)
    return rng.choices(options, [GAL_WEIGHTS.get(o["id"].split(".")[0], 1)
                                 for o in options])[0]


def open_game(lair, players, game="supervillain", villains=None,
              mode=None, ai=0):
    """Opens and starts game 1 with `players` players (mode, ai: see
    setup_lines); returns the prompt (user, options) the start produced.
    For the Villainous games, villains (ids in seat order) are chosen
    too, and the prompt is the one after them; without villains the
    first prompt is seat 1's choice."""
    last = None
    for line in setup_lines(players, game, mode, ai):
        out = lair.send(line)
        check(not any(m["to"] == "ephemeral" for m in out),
              "%r was refused: %r" % (line, out))
        last = out
    prompt = one_prompt(last, line)
    for who, vid in zip(NAMES, villains or ()):
        check(prompt[0] == who and
              any(o["id"] == "villain." + vid for o in prompt[1]),
              "%s cannot choose %s now: %r" % (who, vid, prompt))
        line = "%s> /game move choice:villain.%s" % (who, vid)
        out = lair.send(line)
        check(not any(m["to"] == "ephemeral" for m in out),
              "%r was refused: %r" % (line, out))
        prompt = one_prompt(out, line)
    return prompt


def next_prompt(out):
    """The prompt in out (None if none); more than one is an error."""
    p = prompts(out)
    check(len(p) <= 1, "several prompts after one line: %r" % p)
    return p[0] if p else None


def one_prompt(out, line):
    """The one prompt (user, options) that line's answer out must hold."""
    p = prompts(out)
    check(len(p) == 1, "after %r %d prompts came, not 1: %r" %
          (line, len(p), out))
    return p[0]


class Signs:
    """Counts the lines of the channel messages given to add() that match
    a game's signs (MV_SIGNS, the default, or DIS_SIGNS), each line of a
    turn's message once however often it is edited."""

    def __init__(self, game="marvel-villainous"):
        self.game = game
        self.patterns = SIGNS.get(game, {})
        self.seen = set()
        self.counts = dict.fromkeys(self.patterns, 0)

    def add(self, out):
        for m in out:
            if m.get("to") != "channel":
                continue
            for x in m.get("text", "").split("\n"):
                for sign, pattern in self.patterns.items():
                    key = (m.get("title"), x)
                    if pattern.search(x) and key not in self.seen:
                        self.seen.add(key)
                        self.counts[sign] += 1

    def all_seen(self):
        """Whether every sign (of REQUIRED_SIGNS, where the game has
        them) came up at least once."""
        need = REQUIRED_SIGNS.get(self.game, self.patterns)
        return all(self.counts[sign] for sign in need)

    def text(self):
        if self.game == "galactic":
            return "%d builds, %d warps into deep space, %d ships lost " \
                "and %d charges" % (
                    self.counts["builds"], self.counts["warps"],
                    self.counts["losses"], self.counts["charges"])
        if self.game == "disorder":
            return "%d 🧠 interrupts, %d chains of 2+ and %d mints" % (
                self.counts["interrupts"], self.counts["chains"],
                self.counts["mints"])
        if not self.patterns:
            return "no signs (%s has none)" % self.game
        return "%d Event, %d Stone and %d invasion lines" % (
            self.counts["events"], self.counts["stones"],
            self.counts["invaders"])


def is_over(out):
    return any(m.get("to") == "channel" and "is over.**" in m.get("text", "")
               for m in out)


def cards(binary):
    """Instance number -> card name (87 entries)."""
    raw = subprocess.run([binary, "cards", "supervillain"], check=True,
                         stdout=subprocess.PIPE, env=sanitizer_env()).stdout
    all_cards = json.loads(raw)
    names = []
    for deck in ("minion", "domination"):
        for c in all_cards:
            if c["deck"] == deck:
                names += [c["name"]] * c["count"]
    check(len(names) == N_CARDS, "%d card instances, not 87" % len(names))
    return names


def _card_list(binary, game):
    raw = subprocess.run([binary, "cards", game], check=True,
                         stdout=subprocess.PIPE, env=sanitizer_env()).stdout
    return json.loads(raw)


class SvCards:
    """Supervillain's card model: 87 instances, the same in every game
    (cards()); "where" entries are lists [zone, seat, ...]."""

    game = "supervillain"
    hidden_zones = HIDDEN_ZONES
    hand_zone = Z_HAND
    deck_zones = (Z_MDECK, Z_DDECK)
    undealt = None  # the zone of a card not dealt yet (None: no such zone)
    colour = 0x8e1b2f

    def __init__(self, binary):
        self.fixed = cards(binary)
        self.names = sorted(set(self.fixed))

    def instances(self, st):
        """Instance -> card name of the state (a parsed !dump)."""
        return self.fixed

    def places(self, st):
        """Instance -> (zone, seat, known): known is a bit mask of the
        seats that may see the card where it is although it is hidden."""
        w = st["where"]
        check(len(w) == N_CARDS, "where has %d entries" % len(w))
        return [(x[0], x[1], 0) for x in w]

    def public_zone(self, zone):
        """Whether everyone sees the cards in zone."""
        return zone not in self.hidden_zones

    def announced(self, st):
        """Instances of state st open although their zone is hidden."""
        return []

    def may_see(self, place, seat):
        """Whether seat (0-based) may see a card at place."""
        zone, owner, known = place
        return (self.public_zone(zone) or
                (zone == self.hand_zone and owner == seat) or
                bool(known >> seat & 1))


class VlCards(SvCards):
    """Villainous's card model: instance 48 * seat + k is card k of the
    seat's villain (k 0-29 its villain deck, from 30 its fate deck, in
    the order of `lair cards villainous`, each card repeated by its
    count), so it depends on the villains chosen; "where" entries are
    packed integers. A fate card its looker saw in secret (known bit) is
    theirs to see."""

    game = "villainous"
    hidden_zones = VL_HIDDEN_ZONES
    hand_zone = VL_HAND
    deck_zones = (VL_VDECK_Z, VL_FDECK)
    undealt = VL_NONE  # while villains are chosen
    colour = VL_COLOUR

    def __init__(self, binary):
        self.by_villain = {}
        self.kinds = {}
        self.villains = {}  # id -> the list's "guide" entry (objective...)
        common = {"fate": [], "stone": []}
        for c in _card_list(binary, self.game):
            if c["villain"] == "common":  # Marvel's common part
                common[c["deck"]].extend([c["name"]] * c["count"])
                self.kinds[c["name"]] = c["kind"]
                continue
            if c["deck"] not in ("villain", "fate"):
                self.villains[c["villain"]] = c
                continue
            decks = self.by_villain.setdefault(c["villain"], ([], []))
            decks[c["deck"] == "fate"].extend([c["name"]] * c["count"])
            self.kinds[c["name"]] = c["kind"]
        # The common instances after the seats' blocks: the common fate
        # cards, then the Stones (vl.h, cinst).
        self.common = common["fate"] + common["stone"]
        for vid, (vdeck, fdeck) in self.by_villain.items():
            check(len(vdeck) == VL_VDECK and len(fdeck) <= VL_BLOCK -
                  VL_VDECK, "%s has %d + %d cards" % (vid, len(vdeck),
                                                     len(fdeck)))
        self.names = sorted(self.kinds)

    def public_zone(self, zone):
        return zone not in self.hidden_zones and zone != self.undealt

    def deck_of(self, vid):
        """The 48 names of one villain's instances (None: unused)."""
        vdeck, fdeck = self.by_villain[vid]
        return (vdeck + fdeck + [None] * VL_BLOCK)[:VL_BLOCK]

    def instances(self, st):
        out = []
        for seat in st["seats"]:
            v = seat["villain"]
            out += self.deck_of(v) if v else [None] * VL_BLOCK
        return out + self.common

    def places(self, st):
        w = st["where"]
        check(len(w) == VL_BLOCK * st["players"] + len(self.common),
              "where has %d entries" % len(w))
        return [(x % 16, x // 16 % 8, x // 512 % 64) for x in w]

    def is_fate(self, i, st):
        """Whether instance i of st is a fate card (not a Stone)."""
        base = VL_BLOCK * st["players"]
        if i >= base:
            return self.kinds[self.common[i - base]] != "stone"
        return i % VL_BLOCK >= VL_VDECK


class MvCards(VlCards):
    """Marvel Villainous's card model: VlCards's seat blocks (k 0-29 the
    villain deck, 30-40 the villain's part of the fate deck), then the
    common instances from vl_common_base = players * 48: the common fate
    part, then the six Stones, in the order of `lair cards
    marvel-villainous`. The fate deck and its discard pile are one,
    shared (their cards all lie at seat 0): the deck's order is
    nobody's, a card in it is seen only by those who looked at it (known
    bits), its discard pile by everyone."""

    game = "marvel-villainous"
    colour = MV_COLOUR

    def __init__(self, binary):
        VlCards.__init__(self, binary)
        check(len(self.common) > 6, "%d common cards in the card list" %
              len(self.common))


class DisCards(SvCards):
    """Disorder of the Villains's card model: 40 instances, seat s's from
    20 * s (its four drafted Villains, then its design's 16 Monsters), each
    named by the save's "def" (a card id; null while not dealt), so it
    depends on the draft. A card in a hand is seen by its owner only, a
    deck's by nobody; rows, minted areas and discard piles are open. The
    draft is public too: a card not dealt yet (zone "none": a Villain
    drafted, a Monster of a chosen design) is open, and so are both
    decks' lists of Villains (the privacy test reads a Villain's "NAME
    (SEQUENCE)" as naming no place). A card Played or DROPped into a full
    row is told to the table while its owner makes room, still in their
    hand: announced() counts it open then."""

    game = "disorder"
    hidden_zones = DIS_HIDDEN_ZONES
    hand_zone = DIS_HAND
    deck_zones = (DIS_DECK,)
    undealt = DIS_NONE  # open (the draft is public), but no deck's source
    colour = DIS_COLOUR

    def __init__(self, binary):
        self.by_id = {}
        self.cards = {}  # name -> the card list's entry
        for c in _card_list(binary, self.game):
            self.by_id[c["id"]] = c["name"]
            self.cards[c["name"]] = c
        self.names = sorted(self.cards)
        self.villains = sorted(n for n, c in self.cards.items()
                               if c["kind"] == "villain")

    def instances(self, st):
        d = st["def"]
        check(len(d) == 2 * DIS_BLOCK, "def has %d entries" % len(d))
        return [self.by_id[x] if x is not None else None for x in d]

    def places(self, st):
        z, side = st["zone"], st["side"]
        check(len(z) == len(side) == 2 * DIS_BLOCK,
              "zone/side have %d/%d entries" % (len(z), len(side)))
        return [(DIS_ZONES.index(x), y, 0) for x, y in zip(z, side)]

    def announced(self, st):
        """The card waiting to enter a full row (phase room): open."""
        if st["phase"] == "room":
            return [st["enter"]["card"]]
        return []

    def public_texts(self):
        """The texts that name cards without telling where any copy is,
        public whatever the state: (text, replacement) pairs, longest
        first, and (pattern, replacement) pairs. The card texts that name
        other cards (Mudskipper Troll's) stand for their own card; the
        deck designs' guides (read from the data files) and each pool
        Villain as a deck's list names it, "NAME (SEQUENCE)" (the table's
        "Villains:" line, a draft's line: a Villain's place is never
        written so), and the drafter's echo of a pick, "You chose: NAME
        (SEQUENCE, Colour).", stand for nothing; so do, as patterns, the
        lines that list the pool's Villains still free (the draft's table
        and its options)."""
        finder = Names(self.names)
        pairs = []
        for name, c in self.cards.items():
            if finder.find(c["text"]) - {name}:
                pairs.append((c["text"], name))
            if c["kind"] == "villain":
                pairs.append(("%s (%s)" % (name, c["dna"]), ""))
                pairs.append(("You chose: %s (%s, %s)." % (
                    name, c["dna"], c["colour"].capitalize()), ""))
        guides = 0
        data = os.path.join(ROOT, "engine", "games", "disorder", "data")
        for path in glob.glob(os.path.join(data, "*.json")):
            with open(path) as f:
                d = json.load(f)
            if d.get("type") == "deck_design":
                pairs.append((d["guide"], ""))
                guides += 1
        check(guides >= 3 and len(self.villains) >= 10,
              "%d deck designs' guides and %d Villains found in %s" %
              (guides, len(self.villains), data))
        patterns = [(re.compile(r"^Villains still free: .*$", re.M), ""),
                    (re.compile(r"^- `villain\.[a-z0-9_]+` .*$", re.M), "")]
        return sorted(pairs, key=lambda p: len(p[0]), reverse=True), \
            patterns

    def read_past(self, text, public=None):
        """text with public_texts() (or the given pair of lists) replaced."""
        pairs, patterns = public or self.public_texts()
        for pattern, name in patterns:
            text = pattern.sub(name, text)
        for t, name in pairs:
            text = text.replace(t, name)
        return text


class GalBoard:
    """Galactic Domination's model: no cards and nothing hidden; a state
    is units on sectors (the save's "units": slot, owner, type, serial,
    sector, shields, hull, attached, charge, aim) and each seat's purse
    (minerals, dark), so every view is the whole board. It writes what
    gal_text.c must render of a state for a seat, names put in: the
    summary line (summary) and the fleet's lines, a sector per line in
    the board's order, deep space last (fleet); the maxima of shields and
    hull come from `lair cards galactic`."""

    game = "galactic"
    colour = GAL_COLOUR

    def __init__(self, binary):
        self.types = dict((t["id"], t) for t in _card_list(binary,
                                                           self.game))
        check(set(self.types) == set(GAL_SHORT),
              "the unit types are %r" % sorted(self.types))

    def units(self, st):
        """The living units in slot order (the views' order)."""
        return sorted(st["units"], key=lambda u: u["slot"])

    def unit_text(self, u):
        t = self.types[u["type"]]
        x = "%s %d (shields %d/%d, hull %d/%d" % (
            GAL_SHORT[u["type"]], u["serial"], u["shields"], t["shields"],
            u["hull"], t["hull"])
        if u["attached"]:
            x += ", mining"
        if u["charge"] == "jump":
            x += ", charging a fleet jump"
        elif u["charge"] == "black_hole":
            x += ", charging a black hole shot at %s" % u["aim"]
        return x + ")"

    def fleet(self, st, seat):
        """seat's fleet lines: "- **R1**: Raider 1 (...), ..."."""
        mine = [u for u in self.units(st) if u["owner"] == seat]
        out = []
        for x, name in [(x, x) for x in GAL_SECTORS] + [("deep",
                                                         "Deep space")]:
            here = [self.unit_text(u) for u in mine if u["sector"] == x]
            if here:
                out.append("- **%s**: %s" % (name, ", ".join(here)))
        return out

    def summary(self, st, seat, names):
        """seat's summary line, names (seat order) put in."""
        units = [u for u in st["units"] if u["owner"] == seat]
        board = sum(1 for u in units if u["sector"] in GAL_SECTORS)
        deep = sum(1 for u in units if u["sector"] == "deep")
        player = 1 if st["first"] == seat else 2
        minerals = st["minerals"][seat]
        x = "%s (player %d, %s): %d mineral%s, %d Dark Matter, %d ship%s " \
            "on the board" % (names[seat], player,
                              "Red" if player == 1 else "Purple", minerals,
                              "" if minerals == 1 else "s", st["dark"][seat],
                              board, "" if board == 1 else "s")
        if deep:
            x += ", %d in deep space" % deep
        left = sum(st["to_place"][seat])
        if left:
            x += ", %d to place" % left
        return x

    def own_dm(self, st, seat, names):
        """What seat's DM sums up (gal_text.c): the whole fleet on its own
        turn and at the end; between, only the purse, which the other
        player's turn cannot change."""
        if st["phase"] == "over" or st["active"] == seat:
            return [self.summary(st, seat, names) + "."] + \
                self.fleet(st, seat)
        player = 1 if st["first"] == seat else 2
        minerals = st["minerals"][seat]
        return ["%s (player %d): %d mineral%s, %d Dark Matter. Your ships "
                "are on the table in the channel; the next message here "
                "comes with your turn." % (
                    names[seat], player, minerals,
                    "" if minerals == 1 else "s", st["dark"][seat])]

    def headline(self, st, names):
        """The table's first sentence: the phase and whose turn."""
        if st["phase"] == "over":
            if st["winner"] == 254:
                return "The game is over: a draw ("
            return "The game is over: %s wins (" % names[st["winner"]]
        if st["phase"] == "placement":
            return "Placement: %s places a ship." % names[st["active"]]
        return "Round %d of %d: %s's turn." % ((st["play"] + 1) // 2,
                                               GAL_ROUNDS,
                                               names[st["active"]])


def is_over_state(state_text):
    """Whether a !dump's text (any game's save) is a finished game."""
    return '"over":1' in state_text or '"phase":"over"' in state_text


MODELS = {"supervillain": SvCards, "villainous": VlCards,
          "marvel-villainous": MvCards, "disorder": DisCards,
          "galactic": GalBoard}


def card_model(binary, game="supervillain"):
    """The card model of game (SvCards, VlCards, MvCards or DisCards;
    for Galactic Domination, which has no cards, its board: GalBoard)."""
    check(game in GAMES, "no game %r" % game)
    return MODELS[game](binary)


def where(state_text):
    w = json.loads(state_text)["where"]
    check(len(w) == N_CARDS, "where has %d entries" % len(w))
    return w


MASK64 = (1 << 64) - 1


def fnv1a64(data):
    """A game record's checksums: 64-bit FNV-1a as 16 hex digits."""
    h = 0xcbf29ce484222325
    for b in data:
        h = ((h ^ b) * 0x100000001b3) & MASK64
    return "%016x" % h


def canonical(obj):
    """jansson's JSON_COMPACT | JSON_SORT_KEYS text (for ASCII records)."""
    return json.dumps(obj, separators=(",", ":"), sort_keys=True,
                      ensure_ascii=False).encode()


def rehash(rec):
    """rec with record_fnv1a64 recomputed, as a careful forger would."""
    rec = dict(rec)
    rec.pop("record_fnv1a64", None)
    rec["record_fnv1a64"] = fnv1a64(canonical(rec))
    return rec


def moves_in_db(db, game=1):
    """[(seq, request, seat, option)] of game from the moves table."""
    con = sqlite3.connect("file:%s?mode=ro" % db, uri=True)
    try:
        return con.execute(
            "SELECT seq, request, seat, option FROM moves WHERE game = ? "
            "ORDER BY seq", (game,)).fetchall()
    finally:
        con.close()


def write_snapshot(db, st, game=1):
    """Stores state st (a parsed !dump) as game's latest snapshot in db,
    as Lair writes one (no process may be running on db): the next
    process loads the game from it. Returns the snapshot's move count."""
    con = sqlite3.connect(db, timeout=10)
    with con:
        n = con.execute("SELECT COUNT(*) FROM moves WHERE game = ?",
                        (game,)).fetchone()[0]
        con.execute("INSERT OR REPLACE INTO snapshots(game, seq, state) "
                    "VALUES(?, ?, ?)", (game, n, json.dumps(
                        st, sort_keys=True, separators=(",", ":"))))
    con.close()
    return n


def send_both(a, b, line):
    """Sends line to processes a and b at once and reads both answers;
    neither may have ended. Returns (answer of a, answer of b)."""
    a.write(line)
    b.write(line)
    out_a, out_b = a.read_answer(), b.read_answer()
    check(out_a is not None and out_b is not None,
          "lair ended at %r: %s %s" % (line, a.stderr_text(),
                                       b.stderr_text()))
    return out_a, out_b


def play_random(lair, rng, players, max_moves=None, on_line=None,
                move_id=None, undo_chance=0.0, game="supervillain",
                mode=None, ai=0):
    """Plays game 1 of game (in mode, None: its default; the Villainous
    games: their villains chosen at random too; ai: AI seats, see
    setup_lines) from its setup with random legal answers (pick), and now
    and then (undo_chance) a /game undo by the player who must decide.
    Returns the lines that changed the game (refused undos are left
    out).
    on_line(line, out) runs after each of them; move_id(i) gives the
    request id of line i (None: no id)."""
    user, options = open_game(lair, players, game, mode=mode, ai=ai)
    lines = []
    while max_moves is None or len(lines) < max_moves:
        undo = rng.random() < undo_chance
        if undo:
            text = "%s> /game undo" % user
        else:
            opt = pick(rng, options, game)
            text = "%s> /game move choice:%s" % (
                user, choice_text(rng, options, opt))
        if move_id:
            text = "@%s %s" % (move_id(len(lines)), text)
        out = lair.send(text)
        if undo and len(out) == 1 and out[0]["to"] == "ephemeral":
            check(TAKEBACK_REFUSED in out[0]["text"],
                  "%r said %r" % (text, out[0]["text"]))
            continue  # nothing to take back: nothing changed
        check(not any(m["to"] == "ephemeral" for m in out),
              "line %d %r refused: %r" % (len(lines), text, out))
        lines.append(text)
        if on_line:
            on_line(text, out)
        if is_over(out):
            check(not prompts(out), "a prompt after the end")
            break
        user, options = one_prompt(out, text)
    return lines


def split_answers(lines):
    """A whole `lair local --json` output (its lines, JSON texts) as
    the messages of each input line, in order (each answer ends with
    DONE)."""
    answers, cur = [], []
    for text in lines:
        m = json.loads(text)
        if m == DONE:
            answers.append(cur)
            cur = []
        else:
            cur.append(m)
    return answers


def print_gist(name, e):
    """A failure whose message quotes a long text (a message, a state)
    is said again in one line, last: a log cut in its middle keeps its
    end, and this line names the check that failed."""
    text = str(e)
    if "\n" in text:
        print("%s: FAIL, in short: %s" % (name, text.split("\n")[0][:400]))


def main(name, fn):
    """Runs fn(binary, tmpdir) -> summary text; prints it; exit status."""
    if len(sys.argv) != 2:
        print("usage: %s PATH/TO/lair" % sys.argv[0], file=sys.stderr)
        return 2
    binary = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory(prefix="lair-%s-" % name) as tmp:
        try:
            summary = fn(binary, tmp)
        except Fail as e:
            print("%s: FAIL: %s" % (name, e))
            print_gist(name, e)
            return 1
        except Exception:
            traceback.print_exc(file=sys.stdout)
            print("%s: FAIL: the harness broke (above)" % name)
            return 1
    print("%s: %s" % (name, summary))
    return 0


def channel(out):
    """The texts of the channel's messages in out."""
    return [m["text"] for m in out if m["to"] == "channel"]


def reply(out, user, what):
    """The text of out, which must be one reply to user alone."""
    check(len(out) == 1 and out[0]["to"] == "ephemeral" and
          out[0]["user"] == user, "%s: %r" % (what, out))
    return out[0]["text"]


def send_ok(lair, line):
    """lair.send(line), which must not be refused (no reply to its sender
    alone)."""
    out = lair.send(line)
    check(not any(m["to"] == "ephemeral" for m in out),
          "%r was refused: %r" % (line, out))
    return out


# ---- the message catalogue (commands/locale/de/*.json) -------------------
_CONV = re.compile(r"%(?:\d+\$)?[-+ #0']*\d*(?:\.\d*)?[hljztL]*"
                   r"[diouxXeEfgGcspaA%]")


def text_pieces(text, least=20):
    """The fixed pieces of a catalogue text: between its printf
    conversions and line ends, of `least` characters or more and at least
    two words (short ones are too often the same in both languages)."""
    out = []
    for part in _CONV.split(text):
        for line in part.split("\n"):
            line = line.strip()
            if len(line) >= least and len(line.split()) >= 2:
                out.append(line)
    return out


def catalogue(lang="de"):
    """[(English pieces, translated pieces, English text)] of every entry
    of lang's catalogue."""
    out = []
    for path in sorted(glob.glob(os.path.join(ROOT, "commands", "locale",
                                              lang, "*.json"))):
        with open(path, encoding="utf-8") as f:
            for en, tr in json.load(f).items():
                out.append((text_pieces(en), text_pieces(tr), en))
    return out
