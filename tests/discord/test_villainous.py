#!/usr/bin/python3
"""discord_villainous: a whole Villainous game through the fake Discord.

Run with a third argument, marvel-villainous, it is discord_marvel: the
same game under the Marvel rulebook (the engine's second profile; its
own seeds, villains, colour and card numbering, where the shared fate
deck's common cards and the Stones follow the seats' blocks). Marvel has
no Condition windows: there no prompt may offer `pass` and no DM may ask
about one; instead Events, Stones and invading Allies must come up (the
channel's lines counted). Everything else below holds for both.

Three members and one AI seat play game #1 (seats in turn order: alice,
the lobby's AI seat "AI 2", bob, carol): /game new kind:villainous,
/game addai, join, start. The game's seed is fixed once it has started
(SIGTERM, the seed written into its row while the bot is down, restart),
so every run deals the same cards; the test's own answers come from a
seeded random generator. The villains are chosen through the first
prompts: alice and carol click their "Your turn" DM's button, bob types
/game move choice:villain.ID (autocomplete's choices equal his DM's);
the AI seat chooses for itself. The game is then played to its end:

- answers clicked on the "Your turn" DMs' components (buttons; a select
  menu when a prompt has more than 20 options, paged when more than 25,
  if one comes up: the test does not force one) for the first answers
  and after the restart, else typed as /game move choice:<id or label>
  with the options taken from autocomplete (compared with the DM's
  options whenever both are at hand);
- every Condition window that asks a member is answered out of turn by
  clicking that member's DM: the member is not the current player, a
  Condition of their villain's deck fits the action (the state's record
  of it), the DM asks "Play a Condition now, or pass?" and offers `pass`
  and exactly the fitting Conditions they hold (none when they hold
  none), and a pass puts "NAME played no Condition." in the channel;
- mid-game the bot is killed with SIGKILL with a move in flight and
  started again: every answered move is stored once, the killed one at
  most once (a lost one is sent again, so the game is the same either
  way).

After every answer the state is read from the same database (`lair
local --json`, `!restart` + `!dump 1`). The bot plays the AI seat's
answers right after a member's, so states between them are never read
there; a second console table replays the stored moves from the same
seed when a check needs them (and must reach the same states). Checked:

- the moves table: request ids unique, seq 0..n-1, each answer stored
  at the seq it was made for, followed only by the AI seat's answers,
  every answered move stored once; the end announced in the channel
  with the winners of the state;
- every interaction answered within 3 s (latency and age at the
  callback, no 10062, no 40060), except the one that died with the
  process;
- privacy: no channel message names a card that is in a hand or a deck
  in every state around the answer it reports (a card a search took
  from a deck, "searched ... and took X", was shown to everyone); a
  turn's message (edited as the turn goes on) names only cards open
  during that turn. Hands go only to their owner (DMs and ephemeral
  answers), each listing exactly the owner's hand (and the fate cards
  they looked at) of a state the game was in by then (every version of
  every DM, by the time the fake stored it); every other private text
  names only cards that were open, in the recipient's hand or looked at
  by them during its turn, or that a search offers them from their own
  villain deck (`pick.cI` "Take NAME", card I in that deck).
  Objectives, guides and card texts, public by the rules, are read past
  (they name cards: "Have Moonwort Root, ... at Cauldron Glade");
- a turn's message is an embed in the game's colour (Villainous's
  0x5b2a86, Marvel's 0x9b1c1c); while the turn is current and the
  villains are chosen its table has a field per player in seat order,
  named after the player; the end's names no card hidden at the end;
- every request checked against openapi.json by the fake (no
  violation, no unexpected 429); SIGTERM ends the bot with status 0 and
  no sanitizer report; the token is in no log line.

Four seats and the ruleset's seeds give a game of about 200 moves, 150
of them the members': about 45 s (Villainous) and 60 s (Marvel) in the
ASan build.
"""

import calendar
import collections
import glob
import json
import os
import random
import re
import subprocess
import sys
import time

import discordlib as dl
from discordlib import check

sys.path.insert(0, os.path.join(dl.ROOT, "tests", "local"))
import lairlocal as ll  # noqa: E402

GAME = 1
PLAYERS = ["alice", "AI 2", "bob", "carol"]  # seats in turn order
MEMBERS = ["alice", "bob", "carol"]


class Ruleset:
    """What differs between the two rulebooks of the Villainous engine
    here: the ctest's name, the game's kind, its name in titles, its
    colour, its data, the game's seed (written into its row after the
    start, while the bot is down) and the test's own, the villains each
    member prefers (best first; the AI seat takes one before bob and
    carol choose), whether Condition windows are opened (the Marvel
    rulebook has none) and whether Events and Stones are played (its
    data has a common part)."""

    def __init__(self, test, kind, title, colour, seed, rng_seed, prefer,
                 windows, events):
        self.test, self.kind, self.title = test, kind, title
        self.colour, self.seed, self.rng_seed = colour, seed, rng_seed
        self.prefer, self.windows, self.events = prefer, windows, events
        self.data = os.path.join(dl.ROOT, "engine", "games", kind, "data")


RULESETS = {
    # With these seeds the game takes about 200 moves, 150 of them the
    # members' (seeds tried with lair local gave 100 to 400).
    "villainous": Ruleset(
        "discord_villainous", "villainous", "Villainous", 0x5b2a86,
        5341265852227340161, 20261126,
        {"alice": ["gilded_baron", "hive_queen"],
         "bob": ["hive_queen", "lich_archivist", "iron_warlord"],
         "carol": ["lich_archivist", "iron_warlord", "bog_witch"]},
        windows=True, events=False),
    # Marvel in its default mode, inevitable (Events, Stones, invading
    # Allies); alice takes the Vault Tyrant, who brings the Stones. These
    # seeds give about 220 moves, 160 of them the members', won by the
    # AI seat (a game that reaches the 60-round limit takes far longer).
    "marvel-villainous": Ruleset(
        "discord_marvel", "marvel-villainous", "Marvel Villainous",
        0x9b1c1c, 7160357270931158419, 20261127,
        {"alice": ["vault_tyrant", "null_marshal"],
         "bob": ["scrap_sovereign", "horologue", "hollow_cantor"],
         "carol": ["hollow_cantor", "horologue", "null_marshal"]},
        windows=False, events=True),
}
RS = RULESETS["villainous"]  # the one this run plays (__main__ sets it)
# Answers that move a game on (random play without them takes far
# longer): option id prefix -> weight.
WEIGHTS = {"play": 5, "act": 4, "vanq": 6, "gain": 6, "move": 2, "fate": 3,
           "end": 1, "discard": 0.3, "pick": 2, "loc": 2, "seat": 2,
           "done": 2, "skip": 1, "cond": 8, "pass": 1, "ally": 1, "hero": 1}
FIRST_CLICKS = 6       # answers clicked after the villains are chosen
AFTER_KILL_CLICKS = 3  # and after the restart
KILL_AT = 60           # typed answers before the SIGKILL

# Zones of the state's "where" (engine/games/villainous/vl.h).
Z_NONE, Z_VDECK, Z_HAND, Z_FDECK = 0, 1, 3, 6
HIDDEN = {Z_NONE, Z_VDECK, Z_HAND, Z_FDECK}  # none: not dealt
BLOCK, VDECK = 48, 30

WAITING = re.compile(r"Waiting for (\w+(?: \d+)?)\.")
HAND_HEAD = re.compile(r"\*\*Your hand\*\* \((.+?), (\d+) cards?\):")
HAND_LINE = re.compile(r"^- \*\*(.+?)\*\* \(", re.M)
LOOKED = re.compile(r"^On top of your fate deck \(you looked\): (.+)$",
                    re.M)
OFFER = re.compile(r"^- `pick\.c(\d+)` Take (.+?) \(", re.M)
FOUND = re.compile(r"searched their villain deck and took (.+?) into their "
                   r"hand")
OVER = re.compile(r"\*\*Game #%d is over\.\*\* (.+?) wins? \(" % GAME)
# engine/games/villainous/vl.h, VL_TRIGGERS, in order.
TRIGGERS = ["opp_ally", "opp_item", "opp_effect", "opp_defeat", "opp_power",
            "opp_activate", "opp_fate", "opp_discard", "opp_move_hero"]
WINDOW_Q = "Play a Condition now, or pass?"


def title_re():
    """A turn's title (its embed's, or a DM's first line) of RS's game."""
    return re.compile(r"^%s - game #%d, turn (\d+)$" % (re.escape(RS.title),
                                                       GAME), re.M)


class Cards:
    """Which card each instance of a state is (Marvel: after the seats'
    blocks, the common fate cards and the Stones), and the texts that
    name cards without telling where any copy is (objectives, guides,
    card texts), which the privacy checks read past."""

    def __init__(self, binary):
        raw = subprocess.run([binary, "cards", RS.kind], check=True,
                             stdout=subprocess.PIPE,
                             env=dl.sanitizer_env()).stdout
        decks = collections.defaultdict(lambda: ([], []))
        common = {"fate": [], "stone": []}
        self.kind = {}
        static = set()
        for c in json.loads(raw):
            if c["deck"] not in ("villain", "fate", "stone"):
                continue  # a villain's own entry (objective, guide)
            if c["villain"] == "common":
                common[c["deck"]].extend([c["name"]] * c["count"])
            else:
                decks[c["villain"]][c["deck"] == "fate"].extend(
                    [c["name"]] * c["count"])
            self.kind[c["name"]] = c["kind"]
            static.add(c["text"])
        # vl.h: common instance k, from players * BLOCK, is the common
        # part's fate cards, then its Stones.
        self.common = common["fate"] + common["stone"]
        check(bool(self.common) == RS.events,
              "%d common cards in %s" % (len(self.common), RS.kind))
        self.deck = {}
        for vid, (vd, fd) in decks.items():
            check(len(vd) == VDECK and len(fd) <= BLOCK - VDECK,
                  "%s has %d + %d cards" % (vid, len(vd), len(fd)))
            self.deck[vid] = (vd + fd + [None] * BLOCK)[:BLOCK]
        self.finder = ll.Names(self.kind)
        by_id = {}
        for c in json.loads(raw):
            by_id[c["id"]] = c["name"]
        cut = set()
        self.trigger = {}   # Condition name -> (trigger, n)
        self.conditions = collections.defaultdict(set)  # villain -> names
        for path in glob.glob(os.path.join(RS.data, "*.json")):
            with open(path) as f:
                v = json.load(f)
            if "objective" not in v:
                continue  # Marvel's common part
            obj = v["objective"]
            static |= {obj["text"], v["guide"]}
            if obj.get("hero"):  # its progress: "X is not in the realm"
                static.add("%s is not in the realm" % by_id[obj["hero"]])
            # The choosing prompt's labels, cut at 80 characters.
            cut |= {obj["text"], "%s: %s" % (v["name"], obj["text"])}
            for c in v["deck"]:
                for ab in c.get("abilities") or []:
                    if ab["when"] == "condition":
                        self.trigger[c["name"]] = (ab["trigger"],
                                                   ab.get("n", 0))
                        self.conditions[v["id"]].add(c["name"])
        self.static = sorted(static, key=len, reverse=True)
        self.cut = sorted({s[:k].rstrip() + "..." for s in cut
                           for k in range(12, len(s))}, key=len,
                          reverse=True)

    def names(self, text):
        """The card names text gives, public texts read past."""
        for s in self.static:
            if s in text:
                text = text.replace(s, "\0")
        if "..." in text:
            for s in self.cut:
                if s in text:
                    text = text.replace(s, "\0")
        return self.finder.find(text)


def fits(st, owner, trigger, n):
    """Whether a Condition of owner's with trigger (threshold n) fits what
    the current player's last action did: vl.c's trigger_fits, from the
    state's record of that action ("fired" has a bit per trigger in
    VL_TRIGGERS's order)."""
    bit = 1 << TRIGGERS.index(trigger)
    if trigger == "opp_ally":
        return bool(st["fired"] & bit) and st["fired_ally"] >= n
    if trigger == "opp_power":
        return st["power_before"] < n <= st["power_after"]
    if trigger == "opp_fate":
        return bool(st["fated"] >> owner & 1)
    if trigger == "opp_discard":
        return n > 0 and st["discarded"] >= n
    return bool(st["fired"] & bit)


class State:
    """One !dump of game 1, decoded."""

    def __init__(self, st, cards, at):
        self.st, self.at = st, at
        self.n = None  # moves made (the table's, once read)
        self.inst = []
        for seat in st["seats"]:
            v = seat["villain"]
            self.inst += cards.deck[v] if v else [None] * BLOCK
        self.inst += cards.common
        w = st["where"]
        check(len(w) == len(self.inst), "where has %d entries, not %d" %
              (len(w), len(self.inst)))
        # (zone, seat, known) of each instance.
        self.place = [(x % 16, x // 16 % 8, x // 512 % 64) for x in w]
        self.public = {n for n, p in zip(self.inst, self.place)
                       if n and p[0] not in HIDDEN}

    def hand(self, seat):
        return sorted(n for n, p in zip(self.inst, self.place)
                      if n and p[0] == Z_HAND and p[1] == seat)

    def held(self, seat):
        """Instances in seat's hand."""
        return {i for i, p in enumerate(self.place)
                if self.inst[i] and p[0] == Z_HAND and p[1] == seat}

    def looked(self, seat):
        """The fate cards seat looked at that are still on their deck."""
        return sorted(n for n, p in zip(self.inst, self.place)
                      if n and p[0] == Z_FDECK and p[2] >> seat & 1)

    def seen_by(self, seat):
        return self.public | set(self.hand(seat)) | set(self.looked(seat))


class Replay:
    """Every state of game 1, the AI seat's answers included: a second
    console table on a database of its own plays the stored moves one by
    one from the same seed, with a person in the AI seat's place (the
    rules do not know names), and is dumped after each. The bot plays the
    AI seat's answers right after a member's, so the test reads no state
    between them; a card open only there (an Ally the AI played and a
    Fate card returned to its hand) is looked up here. Started when first
    needed, then kept up to date."""

    NAMES = ["alice", "robot", "bob", "carol"]

    def __init__(self, binary, tmp, cards):
        self.binary, self.db, self.cards = binary, \
            os.path.join(tmp, "replay.db"), cards
        self.lair = None
        self.states = []   # the State after seq moves, at index seq

    def start(self):
        self.lair = ll.Lair(self.binary, self.db)
        for line in ["alice> /game new kind:%s" % RS.kind,
                     "robot> /game join", "bob> /game join",
                     "carol> /game join", "alice> /game start"]:
            out = self.lair.send(line)
            check(not any(m["to"] == "ephemeral" for m in out),
                  "replay: %r refused: %r" % (line, out))
        dl.db_write(self.db, "UPDATE games SET seed = ? WHERE id = 1",
                    (RS.seed,))
        dl.db_write(self.db, "DELETE FROM snapshots WHERE game = 1")
        self.lair.restart()
        self.add()

    def add(self):
        st = State(json.loads(self.lair.dump(1)), self.cards, 0)
        self.states.append(st)

    def upto(self, rows):
        """Plays the stored moves rows (of the bot's database) the replay
        has not played yet."""
        if self.lair is None:
            self.start()
        for seq, _, seat, option in rows[len(self.states) - 1:]:
            line = "%s> /game move choice:%s" % (self.NAMES[seat], option)
            out = self.lair.send(line)
            check(not any(m["to"] == "ephemeral" for m in out),
                  "replay of move %d: %r refused: %r" % (seq, line, out))
            self.add()

    def close(self):
        if self.lair is not None:
            self.lair.proc.kill()
            self.lair.proc.wait()


class Table:
    """What the test knows of game 1: version, decider, the states."""

    def __init__(self, fake, bot, db, local, cards, replay):
        self.fake, self.bot, self.db, self.local = fake, bot, db, local
        self.cards, self.replay = cards, replay
        self.before = 0         # the version before the last answer
        self.version = 0
        self.decider = None
        self.state = None
        self.states = []        # every State read, oldest first
        self.answered = []      # ids of the interactions answered
        self.lost = []          # interactions that died with the process
        self.checked = set()    # (channel message id, edits) examined
        self.shown = set()      # found by a search: shown to everyone
        self.public_move = set()
        self.passed = collections.Counter()
        self.stats = collections.Counter()
        self.over_text = None

    # -- the truth, from the database --------------------------------------
    def refresh(self, at=None):
        """Reads game 1 from the database; at: when the answer that led
        to it was sent (a message made from it is younger)."""
        self.local.restart()
        before = self.state.public if self.state else set()
        n = len(dl.moves_in_db(self.db, GAME))
        self.state = State(json.loads(self.local.dump(GAME)), self.cards,
                           time.time() if at is None else at)
        self.states.append(self.state)
        self.public_move = before | self.state.public
        rows = dl.moves_in_db(self.db, GAME)
        check(len(rows) == n, "the game moved on while the test read it "
              "(%d moves, then %d)" % (n, len(rows)))
        self.state.n = len(rows)
        self.before = self.version
        check([r[0] for r in rows] == list(range(len(rows))),
              "moves of game 1 are not numbered 0..n-1: %r" %
              [r[0] for r in rows][-10:])
        reqs = [r[1] for r in rows]
        check(len(set(reqs)) == len(reqs), "a request id is stored twice")
        self.version = len(rows)
        return rows

    def seat(self, who):
        return PLAYERS.index(who)

    # -- privacy -------------------------------------------------------------
    def examine_channel(self, msg, what):
        """A channel message names only open cards: open before or after
        the last answer, or in between (the AI seat's answers); a turn's
        message, open during its turn."""
        text = dl.message_text(msg)
        check("Your hand" not in text and "Your turn" not in text,
              "%s: a channel message shows private text:\n%s" % (what, text))
        self.shown |= set(FOUND.findall(text))
        titled = [e for e in msg.get("embeds") or [] if e.get("title")]
        if titled:
            # A turn's message, edited as the turn goes on and as fast as
            # the channel's rate limit lets the edits out: its lines may
            # tell of a card that was open earlier in the turn and is
            # hidden now. No line may name a card that was not open in
            # the turn.
            leak = self.unseen(self.cards.names(text), None,
                               turn_of(text), self.states)
        else:
            leak = self.cards.names(text) - self.public_move - self.shown
            if leak:
                # Open between two states the test read (the AI seat's
                # answers)? The replay has every state.
                leak -= set().union(*(
                    s.public for s in
                    self.replayed(self.version)[self.before:]))
        check(not leak, "%s: a channel message names %s, which is in a hand "
              "or a deck now:\n%s" % (what, sorted(leak), text))
        for e in titled:
            check_turn_embed(e, what)
            if e.get("fields"):
                self.stats["tables"] += 1
        self.checked.add((msg["id"], msg["_fake"].get("edits", 0)))
        self.stats["channel_messages"] += 1

    def examine_hand(self, text, who, what):
        """An answer to who read now: its hand is who's hand now."""
        st = self.state
        head = HAND_HEAD.search(text)
        if head:
            check(head.group(1) == who, "%s: %s was shown %s's hand" %
                  (what, who, head.group(1)))
            seat = self.seat(who)
            listed = listed_hand(text, head)
            check(listed == st.hand(seat) and int(head.group(2)) ==
                  len(listed), "%s: %s's hand message lists %r, the hand "
                  "holds %r" % (what, who, listed, st.hand(seat)))
            self.stats["hands_exact"] += 1
        # Its lines tell of the turn so far: a card open earlier in the
        # turn (an Ally returned to its owner's hand) may be named.
        seat = self.seat(who)
        leak = self.unseen(self.cards.names(text) - st.seen_by(seat) -
                           offered(text, seat, [st]), seat, turn_of(text),
                           self.states)
        check(not leak, "%s: a message to %s names %s:\n%s" %
              (what, who, sorted(leak), text))

    def replayed(self, n):
        """The states after 0..n moves, from the replay, which must agree
        with every state the test read."""
        rp = self.replay
        done = len(rp.states)
        rp.upto(dl.moves_in_db(self.db, GAME))
        for s in self.states:
            if done <= s.n < len(rp.states):
                check(rp.states[s.n].st["where"] == s.st["where"],
                      "the replay's state after %d moves is not the bot's"
                      % s.n)
        self.stats["replayed"] += 1
        return rp.states[:n + 1]

    def unseen(self, names, seat, turn, past):
        """Of names, those seat (None: everyone) saw in none of the states
        past of that turn or the turns beside it (a turn's lines begin
        with the end of the one before), nor, failing that, in any state
        of the replay between them: every state, the AI seat's answers
        included, up to the last move of past."""
        def near(s):
            return turn is None or abs(s.st["turn"] - turn) <= 1

        def seen(s):
            return s.public if seat is None else s.seen_by(seat)
        leak = set(names) - self.shown
        for s in past:
            if near(s):
                leak -= seen(s)
        if leak:
            for s in self.replayed(max(s.n for s in past)):
                if near(s):
                    leak -= seen(s)
        return leak

    # -- moves ---------------------------------------------------------------
    def after_answer(self, info, what, sent):
        """Reads the state after an answer that moved the game: stored at
        the seq it was made for, followed only by the AI seat's answers."""
        before = self.version
        rows = self.refresh(sent)
        check(self.version > before and rows[before][1] == info["id"],
              "%s: the moves table went from %d to %d moves (request at %d: "
              "%s, the interaction was %s)" % (
                  what, before, self.version,
                  before, rows[before][1] if len(rows) > before else None,
                  info["id"]))
        ai = rows[before + 1:]
        check(all(r[1].startswith("ai:%d:" % GAME) and r[2] == 1
                  for r in ai), "%s: stored after it: %r" % (what, ai))
        self.stats["moves"] += 1
        self.stats["ai_moves"] += len(ai)

    def choices(self, who=None):
        """The decider's autocomplete choices; now and then, that the
        others get none."""
        who = who or self.decider
        ch = dl.autocomplete(self.fake, who, "move", "choice", "")
        check(ch, "autocomplete offered %s nothing" % who)
        if self.stats["autocomplete"] % 25 == 0:
            for p in MEMBERS:
                if p == who:
                    continue
                got = dl.autocomplete(self.fake, p, "move", "choice", "")
                check(len(got) == 1 and got[0]["value"] == "-" and
                      got[0]["name"].startswith("Not your decision: game #")
                      and who in got[0]["name"],
                      "autocomplete offered %s choices out of turn: %r" %
                      (p, got))
        self.stats["autocomplete"] += 1
        return ch

    def slash_move(self, rng, choices):
        """Answers with /game move choice:<id or label>."""
        opt = dl.pick(rng, WEIGHTS, choices)
        value = opt["value"]
        if rng.random() < 0.3 and \
                sum(c["name"] == opt["name"] for c in choices) == 1 and \
                all(c["value"] != opt["name"] for c in choices):
            value = opt["name"]
            self.stats["by_label"] += 1
        self.type_move(value)

    def type_move(self, value):
        """/game move choice:value by the decider."""
        sent = time.time()
        info = dl.slash(self.fake, self.decider, "move",
                        dl.options(choice=value))
        text = dl.answer_text(info)
        check(dl.acted(info), "move %r by %s refused: %s" %
              (value, self.decider, text))
        self.answered.append(info["id"])
        self.after_answer(info, "move %r" % value, sent)
        # Answered from the channel: the mover's turn DM, to them alone.
        check(dl.is_ephemeral(info) and "You chose: " in text,
              "move %r: the answer is not the mover's turn: %r" %
              (value, text))
        self.examine_hand(text, self.decider, "move %r" % value)
        self.stats["typed"] += 1
        self.public_after("move %r" % value)

    # -- clicks --------------------------------------------------------------
    def prompt_dm(self, version, who, timeout=15, after="0"):
        """The newest DM to who carrying the game's prompt of version."""
        return dl.prompt_dm(self.fake, who, GAME, version, timeout, after)

    def click_move(self, rng, window=False, value=None, choices=None):
        """Answers the decider's prompt on their DM's components; value:
        that option (else one at random); choices: autocomplete's, if
        asked already."""
        who, v = self.decider, self.version
        dm = self.prompt_dm(v, who)
        comps = dl.custom_ids(dm)
        offered = dl.component_options(comps)
        choices = choices or self.choices()
        check([(c["value"], c["name"]) for c in choices] ==
              [(o["value"], o["label"]) for o in offered[:25]],
              "autocomplete %r differs from the DM's options %r" %
              (choices, offered))
        self.stats["compared"] += 1
        if window:
            self.check_window(dm, who, offered)
        sel = [c for c in comps if c["type"] == 3]
        nav = {c["label"]: c for c in comps if c["type"] == 2 and
               c.get("custom_id", "").startswith("p:")}
        check(not sel or (len(sel) == 1 and 1 <= len(sel[0]["options"])
                          <= 25 and set(nav) == {"Previous page",
                                                 "Next page"}),
              "a select menu's components: %r" % comps)
        if sel and not nav["Next page"].get("disabled"):
            # More than 25 options: the second page's select menu.
            info = dl.click(self.fake, who, nav["Next page"]["custom_id"],
                            message_id=dm["id"])
            cb = info["callback"]
            self.answered.append(info["id"])
            check(cb["type"] == 7, "Next page answered %r" % cb)
            page = dl.custom_ids(cb["data"])
            sel = [c for c in page if c["type"] == 3]
            check(len(sel) == 1 and sel[0]["custom_id"] ==
                  "s:%d:%d:1" % (GAME, v), "page 2: %r" % page)
            offered = dl.component_options(page)
            check(not {o["value"] for o in offered} &
                  {c["value"] for c in choices}, "page 2 repeats page 1")
            self.stats["paged"] += 1
        if value is None:
            value = dl.pick(rng, WEIGHTS, [{"value": o["value"],
                                            "name": o["label"]}
                                           for o in offered])["value"]
        sent = time.time()
        if sel:
            info = dl.click(self.fake, who, sel[0]["custom_id"], [value],
                            message_id=dm["id"])
            self.stats["select_clicks"] += 1
        else:
            cid = "m:%d:%d:%s" % (GAME, v, value)
            info = dl.click(self.fake, who, cid, message_id=dm["id"])
            self.stats["button_clicks"] += 1
        cb = info["callback"]
        data = cb.get("data") or {}
        check(cb["type"] == 7 and "You chose: " in dl.message_text(data),
              "a click that answered got %r" % cb)
        self.answered.append(info["id"])
        self.after_answer(info, "click %r" % value, sent)
        # The clicked DM becomes the turn's DM as it now stands: what was
        # chosen, and the next question's components if it is theirs.
        for c in dl.custom_ids(data):
            m = dl.CUSTOM_ID.match(c.get("custom_id", ""))
            check(m and m.group(1) in "msp" and int(m.group(2)) == GAME and
                  v < int(m.group(3)) <= self.version,
                  "click %r: the updated DM carries %r (version %d now)" %
                  (value, c.get("custom_id"), self.version))
        self.examine_hand(dl.message_text(data), who, "click %r" % value)
        self.public_after("click %r" % value)
        return value

    def check_window(self, dm, who, offered):
        """A Condition window asks who, not the current player: pass, and
        only Conditions who holds."""
        st = self.state
        seat = self.seat(who)
        check(st.st["current"] != seat and st.st["phase"] == 3,
              "a window asks %s in phase %d, current seat %d" %
              (who, st.st["phase"], st.st["current"]))
        check(WINDOW_Q in dl.message_text(dm),
              "the window's DM does not ask: %s" % dl.message_text(dm))
        ids = [o["value"] for o in offered]
        check("pass" in ids, "the window offers no pass: %r" % ids)
        # Opened because the villain's deck has a Condition that fits.
        vid = st.st["seats"][seat]["villain"]
        fit = {c for c in self.cards.conditions[vid]
               if fits(st.st, seat, *self.cards.trigger[c])}
        check(fit, "a window asks %s (%s), no Condition of whose deck fits "
              "the action" % (who, vid))
        # Offered: each fitting Condition held, once, and nothing else.
        held = st.held(seat)
        names = []
        for i in ids:
            if i == "pass":
                continue
            m = re.match(r"^cond\.c(\d+)$", i)
            check(m and int(m.group(1)) in held and
                  st.inst[int(m.group(1))] in fit,
                  "the window offers %s %r, which is not a fitting "
                  "Condition in their hand %r" % (who, i, st.hand(seat)))
            names.append(st.inst[int(m.group(1))])
        check(sorted(names) == sorted(fit & set(st.hand(seat))),
              "the window offers %s %r; they hold %r, of which %r fit" %
              (who, ids, st.hand(seat), sorted(fit)))
        self.stats["windows_with_condition" if names else
                   "windows_pass_only"] += 1

    def public_after(self, what):
        """After an answer: every channel message that is new or was
        edited since it was last read is examined; who decides next comes
        from /game status."""
        for m in self.fake.messages(channel=dl.CHANNEL):
            if m["_fake"]["via"] == "channel" and \
                    (m["id"], m["_fake"].get("edits", 0)) not in self.checked:
                self.examine_channel(m, what)
        info = dl.slash(self.fake, "carol", "status")
        status = dl.answer_text(info)
        self.answered.append(info["id"])
        self.follow(status)
        if self.decider is None:
            check(self.state.st["over"] == 1, "after %s nobody decides and "
                  "the game is not over: %r" % (what, status))

    def follow(self, text):
        m = WAITING.search(text)
        if m is None:
            check("is over" in text or "has won!" in text or
                  "no villain achieved" in text,
                  "no 'Waiting for' in %r" % text)
            self.decider = None
            return
        check(m.group(1) in MEMBERS, "waiting for %r (the AI seat answers "
              "at once): %r" % (m.group(1), text))
        self.decider = m.group(1)


def turn_of(text):
    """The turn a turn's message or DM is about (its title), or None."""
    m = title_re().search(text)
    return int(m.group(1)) if m else None


def offered(text, seat, states):
    """The cards of seat's own villain deck that a search in text lets
    them choose from (options `pick.cI` "Take NAME", card I in their
    villain deck in one of states): theirs to see while they choose."""
    out = set()
    for i, name in OFFER.findall(text):
        i = int(i)
        if any(i < len(s.inst) and s.inst[i] == name and
               s.place[i][:2] == (Z_VDECK, seat) for s in states):
            out.add(name)
    return out


def listed_hand(text, head):
    """The card names a hand message lists (its lines after the head)."""
    body = text[head.end():]
    lines = []
    for line in body.split("\n")[1:]:
        if not line.startswith("- **"):
            break
        lines.append(line)
    return sorted(HAND_LINE.findall("\n".join(lines)))


def check_turn_embed(embed, what):
    """A turn's message: Villainous's colour; while the turn is current
    (it waits for someone, or tells the end) and the villains are chosen,
    a field per player in seat order, each named after its player."""
    check(embed.get("color") == RS.colour,
          "%s: a turn's embed has colour %r" % (what, embed.get("color")))
    desc = embed.get("description") or ""
    turn = re.search(r", turn (\d+)$", embed.get("title", ""))
    check(turn, "%s: a turn's title %r" % (what, embed.get("title")))
    fields = embed.get("fields") or []
    # While villains are chosen there is no realm to show yet.
    if "choosing villains" not in desc and ("Waiting for" in desc or
                                            "is over" in desc):
        check(len(fields) == len(PLAYERS) and
              all(f["name"].startswith(p + ": ") and f["value"]
                  for f, p in zip(fields, PLAYERS)),
              "%s: a turn's fields are not one per player: %r" %
              (what, [f["name"] for f in fields]))


def fix_seed(t):
    """SIGTERM, the game's seed and no snapshot written into the
    database, restart: the game is set up again from SEED (its villains
    are not chosen yet, so nothing has been dealt)."""
    # The fake's Identify interval (1 s) since the first process's, which
    # had identified when dl.Bot returned.
    time.sleep(max(0.0, t.ready_at + 1.1 - time.monotonic()))
    t.bot.stop()
    stopped = time.monotonic()
    n = dl.db_write(t.db, "UPDATE games SET seed = ? WHERE id = ?",
                    (RS.seed, GAME))
    check(n == 1, "no game %d to give its seed" % GAME)
    dl.db_write(t.db, "DELETE FROM snapshots WHERE game = ?", (GAME,))
    t.bot.start()
    dl.wait_buckets(stopped)


def choose_villains(t, rng):
    """alice and carol click their DM's button, bob types /game move
    choice:villain.ID; the AI seat chooses between alice and bob."""
    chosen = {}
    for who in MEMBERS:
        check(t.decider == who, "%s should choose now, not %s" %
              (who, t.decider))
        dm = t.prompt_dm(t.version, who)
        offered = dl.component_options(dl.custom_ids(dm))
        free = [o["value"][len("villain."):] for o in offered]
        check(all(o["value"].startswith("villain.") for o in offered) and
              not set(free) & set(chosen.values()),
              "%s's choice offers %r" % (who, offered))
        vid = [v for v in RS.prefer[who] if v in free][0]
        if who == "bob":
            choices = t.choices()
            check([(c["value"], c["name"]) for c in choices] ==
                  [(o["value"], o["label"]) for o in offered],
                  "autocomplete %r differs from the DM's options %r" %
                  (choices, offered))
            sent = time.time()
            info = dl.slash(t.fake, who, "move",
                            dl.options(choice="villain." + vid))
            check(dl.acted(info) and "You chose: " in dl.answer_text(info),
                  "bob's villain: %s" % dl.answer_text(info))
            t.answered.append(info["id"])
            t.after_answer(info, "bob's villain", sent)
            t.stats["typed"] += 1
            t.public_after("bob's villain")
        else:
            t.click_move(rng, value="villain." + vid)
        chosen[who] = vid
    seats = [s["villain"] for s in t.state.st["seats"]]
    check(seats[0] == chosen["alice"] and seats[2] == chosen["bob"] and
          seats[3] == chosen["carol"] and seats[1] and
          len(set(seats)) == 4, "the villains are %r" % seats)
    return seats


def play(t, rng):
    """Plays to the end: clicks first, then typed answers; windows are
    always answered from the DM; the SIGKILL after KILL_AT typed
    answers."""
    clicks_left, typed = FIRST_CLICKS, 0
    killed = False
    while t.decider:
        check(t.stats["moves"] < 1500, "the game does not end")
        if not killed and typed == KILL_AT:
            kill_mid_move(t, rng)
            killed = True
            clicks_left = AFTER_KILL_CLICKS
            info = dl.slash(t.fake, t.decider, "hand")
            t.answered.append(info["id"])
            check(dl.is_ephemeral(info), "/game hand was not ephemeral")
            t.examine_hand(dl.answer_text(info), t.decider,
                           "/game hand after the restart")
            continue
        choices = t.choices()
        ids = [c["value"] for c in choices]
        window = "pass" in ids
        check(RS.windows or not window, "a %s prompt offers to pass, as a "
              "Condition window would: %r" % (RS.title, ids))
        if window:
            who = t.decider
            value = t.click_move(rng, window=True, choices=choices)
            t.stats["windows"] += 1
            if value == "pass":
                t.passed[who] += 1
            else:
                t.stats["conditions_played"] += 1
            continue
        if clicks_left or len(choices) > 20:
            clicks_left = max(0, clicks_left - 1)
            t.click_move(rng, choices=choices)
            continue
        t.slash_move(rng, choices)
        typed += 1
    check(killed, "the game ended before the SIGKILL (%d typed answers)" %
          typed)


def kill_mid_move(t, rng):
    """SIGKILL with a move in flight, then a restart: every answered move
    is stored once, the one in flight at most once."""
    before = t.refresh()
    choices = t.choices()
    opt = dl.pick(rng, WEIGHTS, choices)
    sent = time.time()
    r = t.fake.interaction(dl.slash_payload(t.decider, "move",
                                            dl.options(choice=opt["value"])))
    time.sleep(rng.uniform(0, 0.02))
    t.bot.kill()
    killed = time.monotonic()
    rows = t.refresh(sent)  # what the killed process left
    info = t.fake.get("/interaction/%s" % r["id"])
    check(rows[:len(before)] == before, "moves changed under the kill")
    applied = len(rows) > len(before)
    check(not applied or rows[len(before)][1] == r["id"],
          "after the kill the moves table holds %r" % rows[len(before):])
    check(all(x[1].startswith("ai:") for x in rows[len(before) + 1:]),
          "after the kill: %r" % rows[len(before):])
    check(info["callback"] is None or applied,
          "answered but not stored: %r" % info["callback"])
    if info["callback"] is None:
        t.lost.append(r["id"])
    else:
        t.answered.append(r["id"])
    t.stats["killed_applied" if applied else "killed_lost"] += 1
    started = time.time()
    t.bot.start()
    dl.wait_buckets(killed)
    # A move the process stored but whose AI answers it did not reach
    # are played by the new process before it reads anything.
    t.refresh(started)
    info = dl.slash(t.fake, "carol", "status")
    t.answered.append(info["id"])
    t.follow(dl.answer_text(info))
    if not applied:
        # Its sender sends it again (so that the game goes on the same
        # whichever way the kill fell).
        t.type_move(opt["value"])


def finish(t):
    """The end: the stored game, every interaction, every message."""
    fake = t.fake

    def over():  # the channel's edits drain at its rate limit
        for m in fake.messages(channel=dl.CHANNEL):
            if "is over" in dl.message_text(m) and \
                    any(e.get("fields") for e in m.get("embeds") or []):
                return m
        return None
    end = dl.wait_until(over, 60, "the end in the channel")
    t.over_text = dl.message_text(end)
    for m in fake.messages(channel=dl.CHANNEL):
        if m["_fake"]["via"] == "channel" and \
                (m["id"], m["_fake"].get("edits", 0)) not in t.checked:
            t.examine_channel(m, "the end")
    rows = t.refresh()
    check(t.state.st["over"] == 1, "the state is not over")
    # The end's message shows the final table: every card its fields
    # name is open now.
    table = [e for e in end.get("embeds") or [] if e.get("fields")]
    check(len(table) == 1, "the end's message has no table: %r" % end)
    named = t.cards.names("\n".join(f["name"] + "\n" + f["value"]
                                    for f in table[0]["fields"]))
    check(not named - t.state.public, "the end's table names %s, which is "
          "in a hand or a deck" % sorted(named - t.state.public))
    check(t.stats["tables"] > 20, "only %d turn tables were seen" %
          t.stats["tables"])
    winners = [PLAYERS[s] for s in range(len(PLAYERS))
               if t.state.st["winners"] >> s & 1]
    said = OVER.search(t.over_text)
    check(winners and said and said.group(1).split(" and ") == winners,
          "the state's winners %r, the channel: %r" % (winners,
                                                       t.over_text))
    t.stats["winner"] = winners
    stored = {r[1] for r in rows}
    # Every answered move is stored; nothing else was, but the AI's.
    moved = [i for i in t.answered if i in stored]
    humans = [r for r in rows if not r[1].startswith("ai:")]
    check(len(moved) == len(humans) - sum(1 for i in t.lost if i in stored),
          "stored moves %d, answered moves %d" % (len(humans), len(moved)))
    for it in fake.get("/interactions"):
        if it["id"] in t.lost:
            continue
        dl.check_answered(it)
        t.stats["answered"] += 1
    # Every pass a member clicked was told in the channel.
    every = "\n".join(versions_text(m) for m in
                      fake.messages(channel=dl.CHANNEL))
    for who, n in t.passed.items():
        check("%s played no Condition." % who in every,
              "%s passed %d windows; the channel never said so" % (who, n))
    # Marvel: Events, Stones and invading Allies came up.
    lines = set(every.split("\n"))
    for sign, pattern in ll.MV_SIGNS.items():
        t.stats[sign] = sum(1 for x in lines if pattern.search(x))
    check(not RS.events or all(t.stats[sign] for sign in ll.MV_SIGNS),
          "the game showed %d Event, %d Stone and %d invasion lines" %
          tuple(t.stats[sign] for sign in ll.MV_SIGNS))
    private(t)


def versions_text(m):
    return "\n".join(text for text, _ in versions(m))


def versions(m):
    """[(text, time made)] of every version a message had."""
    out = []
    hist = m["_fake"]["history"] + [m]
    at = m["_fake"]["created_at"]
    for k, h in enumerate(hist):
        if k:
            at = parse_ts(h.get("edited_timestamp")) or at
        out.append((dl.message_text(h), at))
    return out


def parse_ts(ts):
    """The fake's edited_timestamp (UTC, microseconds) as epoch seconds."""
    if not ts:
        return None
    day, rest = ts.split("T")
    clock, _, frac = rest.partition(".")
    return calendar.timegm(time.strptime(day + " " + clock,
                                         "%Y-%m-%d %H:%M:%S")) + \
        float("0." + frac.split("+")[0])


def private(t):
    """Hands went only to their owners, never to a channel; every version
    of every private message names only what its recipient could see by
    then, and a hand it shows is its owner's hand of a state the game
    was in by then."""
    fake = t.fake
    messages = fake.messages()
    dm_of = {m["id"]: p for p in MEMBERS for m in fake.dms(p)}
    for m in messages:
        ch = m["channel_id"]
        if ch == dl.CHANNEL and not m["_fake"]["ephemeral"]:
            text = versions_text(m)
            check(not HAND_HEAD.search(text) and "Your turn" not in text,
                  "a channel message shows private text: %s" % text)
            check((m["id"], m["_fake"].get("edits", 0)) in t.checked,
                  "a channel message was never examined: %s" % text)
            continue
        who = dl.NAMES.get(m["_fake"]["audience"]) \
            if m["_fake"]["ephemeral"] else dm_of.get(m["id"])
        check(who in MEMBERS, "a message to nobody playing: %r" % m)
        seat = t.seat(who)
        for text, at in versions(m):
            check(RS.windows or WINDOW_Q not in text, "%s asks %s about a "
                  "Condition window:\n%s" % (RS.title, who, text))
            past = [s for s in t.states if s.at <= at] or t.states[:1]
            # The moves made by then: those of the answers sent by then.
            n = max(s.n for s in past)
            head = HAND_HEAD.search(text)
            if head:
                check(head.group(1) == who, "%s's hand went to %s" %
                      (head.group(1), who))
                listed = listed_hand(text, head)
                held = any(listed == s.hand(seat) for s in past) or \
                    any(listed == s.hand(seat) for s in t.replayed(n))
                check(int(head.group(2)) == len(listed) and held,
                      "%s was shown the hand %r, which they never held "
                      "by then (%d moves made):\n%s" % (who, listed, n,
                                                        text))
                looked = LOOKED.search(text)
                if looked:
                    names = t.cards.names(looked.group(1))
                    check(any(names == set(s.looked(seat)) for s in past) or
                          any(names == set(s.looked(seat))
                              for s in t.replayed(n)),
                          "%s was told they looked at %r" % (who, names))
                    t.stats["looked"] += 1
                t.stats["private_hands"] += 1
            leak = t.unseen(t.cards.names(text) -
                            offered(text, seat, past), seat, turn_of(text),
                            past)
            check(not leak, "a message to %s names %s, hidden from them:\n%s"
                  % (who, sorted(leak), text))
            t.stats["private_versions"] += 1


def run(binary, openapi, tmp):
    rng = random.Random(RS.rng_seed)
    db = os.path.join(tmp, "lair.db")
    cards = Cards(binary)
    fake = dl.Fake(openapi, tmp, "--identify-interval-ms", "1000")
    replay = Replay(binary, tmp, cards)
    bot = local = None
    try:
        bot = dl.Bot(binary, fake, db)
        local = ll.Lair(binary, db)
        t = Table(fake, bot, db, local, cards, replay)
        t.ready_at = time.monotonic()

        info = dl.slash(fake, "alice", "new", dl.options(kind=RS.kind))
        check("game #1" in dl.answer_text(info) and
              "game #1: %s (" % RS.title in dl.answer_text(info),
              "not a %s game #1: %s" % (RS.title, dl.answer_text(info)))
        t.answered.append(info["id"])
        info = dl.slash(fake, "alice", "addai")
        check(dl.acted(info) and "AI 2" in dl.answer_text(info),
              "/game addai: %s" % dl.answer_text(info))
        t.answered.append(info["id"])
        for p in ("bob", "carol"):
            info = dl.slash(fake, p, "join")
            check(dl.acted(info), "%s's join: %s" % (p, dl.answer_text(info)))
            t.answered.append(info["id"])
        info = dl.slash(fake, "alice", "start")
        text = dl.answer_text(info)
        check(dl.acted(info) and "Seats in turn order: %s" %
              ", ".join(PLAYERS) in text, "/game start: %s" % text)
        t.answered.append(info["id"])
        t.prompt_dm(0, "alice")  # the start's DMs are out
        fix_seed(t)
        t.refresh(0)
        info = dl.slash(fake, "bob", "status")
        t.answered.append(info["id"])
        t.follow(dl.answer_text(info))
        for m in fake.messages(channel=dl.CHANNEL):
            t.examine_channel(m, "the lobby")

        villains = choose_villains(t, rng)
        for p in MEMBERS:
            info = dl.slash(fake, p, "hand")
            t.answered.append(info["id"])
            check(dl.is_ephemeral(info), "/game hand was not ephemeral")
            t.examine_hand(dl.answer_text(info), p, "/game hand")
        play(t, rng)
        finish(t)
        stats = fake.no_violations()
        bot.stop()
        check(dl.TOKEN not in bot.all_stderr(), "the token is in the log")
        st = t.stats
        if RS.windows:
            windows = ("%d Condition windows answered from DMs out of turn "
                       "(%d offering a Condition, %d played)" % (
                           st["windows"], st["windows_with_condition"],
                           st["conditions_played"]))
        else:
            windows = ("no Condition window (none in its rulebook); %d "
                       "Event, %d Stone and %d invasion lines" %
                       tuple(st[sign] for sign in ll.MV_SIGNS))
        return (
            "%s: seed %d, villains %s; over after %d moves (%d the AI's), "
            "won by %s; members' answers: %d clicked (%d buttons, %d "
            "selects, %d paged), %d typed (%d by label); %s; "
            "SIGKILL survived (%s); %d interactions answered in time, %d "
            "channel messages checked (%d turn tables), %d hands exact at "
            "once, %d private versions checked (%d showing a hand), %d "
            "look-ups in the replay, %d REST requests, 0 violations" % (
                RS.kind, RS.seed, ",".join(villains), t.version,
                st["ai_moves"], " and ".join(st["winner"]),
                st["button_clicks"] + st["select_clicks"],
                st["button_clicks"], st["select_clicks"], st["paged"],
                st["typed"], st["by_label"], windows,
                "the move in flight applied" if st["killed_applied"]
                else "the move in flight lost", st["answered"],
                st["channel_messages"], st["tables"], st["hands_exact"],
                st["private_versions"], st["private_hands"],
                st["replayed"], stats["requests"]))
    finally:
        replay.close()
        if local is not None:
            local.proc.kill()
        if bot is not None:
            bot.close()
        fake.stop()


if __name__ == "__main__":
    # An optional third argument names the ruleset (the default:
    # villainous).
    kind = sys.argv.pop(3) if len(sys.argv) > 3 else "villainous"
    if kind not in RULESETS:
        print("%s: no ruleset %r (%s)" % (sys.argv[0], kind,
                                          ", ".join(RULESETS)),
              file=sys.stderr)
        sys.exit(2)
    RS = RULESETS[kind]
    sys.exit(dl.main(RS.test, run))
