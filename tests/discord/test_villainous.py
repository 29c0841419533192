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

The playing and the checks every whole game of hidden cards gets are
gametable.py's Table; this file gives Villainous's: the two rulebooks,
the card numbering and names, the AI seat and the replay, the Condition
windows, the looked-at fate cards, a search's offers, its end and the
villains' choice.
"""

import collections
import glob
import json
import os
import random
import re
import subprocess
import sys

import discordlib as dl
from discordlib import check
import gametable as gt

sys.path.insert(0, os.path.join(dl.ROOT, "tests", "local"))
import lairlocal as ll  # noqa: E402

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

# Zones of the state's "where" (engine/games/villainous/vl.h).
Z_NONE, Z_VDECK, Z_HAND, Z_FDECK = 0, 1, 3, 6
HIDDEN = {Z_NONE, Z_VDECK, Z_HAND, Z_FDECK}  # none: not dealt
BLOCK, VDECK = 48, 30

LOOKED = re.compile(r"^On top of your fate deck \(you looked\): (.+)$",
                    re.M)
OFFER = re.compile(r"^- `pick\.c(\d+)` Take (.+?) \(", re.M)
FOUND = re.compile(r"searched their villain deck and took (.+?) into their "
                   r"hand")
# engine/games/villainous/vl.h, VL_TRIGGERS, in order.
TRIGGERS = ["opp_ally", "opp_item", "opp_effect", "opp_defeat", "opp_power",
            "opp_activate", "opp_fate", "opp_discard", "opp_move_hero"]
WINDOW_Q = "Play a Condition now, or pass?"


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


class State(gt.State):
    """One !dump of game 1, decoded."""

    HAND = Z_HAND

    def __init__(self, st, cards, at):
        super().__init__(st, at)
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

    def held(self, seat):
        """Instances in seat's hand."""
        return {i for i, p in enumerate(self.place)
                if self.inst[i] and p[0] == Z_HAND and p[1] == seat}

    def looked(self, seat):
        """The fate cards seat looked at that are still on their deck."""
        return sorted(n for n, p in zip(self.inst, self.place)
                      if n and p[0] == Z_FDECK and p[2] >> seat & 1)

    def seen_by(self, seat):
        return super().seen_by(seat) | set(self.looked(seat))


class Table(gt.Table):
    """What the test knows of game 1 (gametable's Table): three members
    and the AI seat, whose answers follow a member's at once (the states
    between are the replay's); a search's finds and offers open to whom
    they are shown; the windows are Condition windows (none in Marvel)."""

    STATE = State
    PLAYERS, MEMBERS = PLAYERS, MEMBERS
    AI_SEATS = frozenset({1})
    STATUS_BY = "carol"
    WEIGHTS = WEIGHTS
    OTHERS_EVERY = 25
    SELECTS = True
    CHOOSING = "choosing villains"  # no realm to show yet
    HAND_HEAD = re.compile(r"\*\*Your hand\*\* \((.+?), (\d+) cards?\):")
    PASS_TOLD = "%s played no Condition."
    KILL_AT = 60           # typed answers before the SIGKILL
    MAX_MOVES = 1500

    def __init__(self, fake, bot, db, local, cards, replay):
        super().__init__(fake, bot, db, local, cards, kind=RS.kind,
                         title=RS.title, colour=RS.colour, seed=RS.seed)
        self.replay = replay
        self.before = 0         # the version before the last answer
        self.shown = set()      # found by a search: shown to everyone

    def refresh(self, at=None):
        self.before = self.version
        return super().refresh(at)

    def is_over(self, st):
        return st["over"] == 1

    def check_ended(self, text):
        check("is over" in text or "has won!" in text or
              "no villain achieved" in text,
              "no 'Waiting for' in %r" % text)

    # -- privacy -------------------------------------------------------------
    def examine_channel(self, msg, what):
        """gametable's, a card a search took from a deck ("searched ...
        and took X") shown to everyone from then on."""
        self.shown |= set(FOUND.findall(dl.message_text(msg)))
        super().examine_channel(msg, what)

    def open_between(self, names):
        """Of names, those neither found by a search nor open between the
        two states the test read (the AI seat's answers: the replay has
        every state)."""
        leak = names - self.shown
        if leak:
            leak -= set().union(*(
                s.public for s in
                self.replayed(self.version)[self.before:]))
        return leak

    def replayed(self, n):
        """The states after 0..n moves, from the replay, which must agree
        with every state the test read."""
        rp = self.replay
        done = len(rp.states)
        rp.upto(dl.moves_in_db(self.db, gt.GAME))
        for s in self.states:
            if done <= s.n < len(rp.states):
                check(rp.states[s.n].st["where"] == s.st["where"],
                      "the replay's state after %d moves is not the bot's"
                      % s.n)
        self.stats["replayed"] += 1
        return rp.states[:n + 1]

    def unseen(self, names, seat, turn, past):
        """gametable's, less the cards found by a search and, failing
        that, those seen in any state of the replay between the states
        past: every state, the AI seat's answers included, up to the last
        move of past."""
        leak = super().unseen(set(names) - self.shown, seat, turn, past)
        if leak:
            leak = super().unseen(leak, seat, turn,
                                  self.replayed(max(s.n for s in past)))
        return leak

    def held_by_then(self, listed, seat, past, n):
        """gametable's, or in a state of the replay up to n moves."""
        return super().held_by_then(listed, seat, past, n) or \
            any(listed == s.hand(seat) for s in self.replayed(n))

    def search_offers(self, text, seat, states):
        """The cards of seat's own villain deck that a search in text lets
        them choose from (options `pick.cI` "Take NAME", card I in their
        villain deck in one of states): theirs to see while they
        choose."""
        out = set()
        for i, name in OFFER.findall(text):
            i = int(i)
            if any(i < len(s.inst) and s.inst[i] == name and
                   s.place[i][:2] == (Z_VDECK, seat) for s in states):
                out.add(name)
        return out

    def examine_private(self, text, who, past):
        """gametable's; no Condition window asked about in Marvel; a hand
        that tells the fate cards its owner looked at tells those of a
        state by then."""
        check(RS.windows or WINDOW_Q not in text, "%s asks %s about a "
              "Condition window:\n%s" % (RS.title, who, text))
        super().examine_private(text, who, past)
        looked = LOOKED.search(text)
        if looked and self.HAND_HEAD.search(text):
            seat = self.seat(who)
            n = max(s.n for s in past)
            names = self.cards.names(looked.group(1))
            check(any(names == set(s.looked(seat)) for s in past) or
                  any(names == set(s.looked(seat))
                      for s in self.replayed(n)),
                  "%s was told they looked at %r" % (who, names))
            self.stats["looked"] += 1

    # -- windows -------------------------------------------------------------
    def is_window(self, ids):
        """A prompt offering pass is a Condition window, which Marvel
        never opens."""
        window = "pass" in ids
        check(RS.windows or not window, "a %s prompt offers to pass, as a "
              "Condition window would: %r" % (RS.title, ids))
        return window

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

    # -- the end -------------------------------------------------------------
    def check_winner(self, said):
        winners = [PLAYERS[s] for s in range(len(PLAYERS))
                   if self.state.st["winners"] >> s & 1]
        check(winners and said and said.group(1).split(" and ") == winners,
              "the state's winners %r, the channel: %r" % (winners,
                                                           self.over_text))
        self.stats["winner"] = winners

    def finish_checks(self, every):
        """Marvel: Events, Stones and invading Allies came up."""
        lines = set(every.split("\n"))
        for sign, pattern in ll.MV_SIGNS.items():
            self.stats[sign] = sum(1 for x in lines if pattern.search(x))
        check(not RS.events or all(self.stats[sign] for sign in ll.MV_SIGNS),
              "the game showed %d Event, %d Stone and %d invasion lines" %
              tuple(self.stats[sign] for sign in ll.MV_SIGNS))


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
            dl.check_same_options(t.choices(), offered)
            t.type_move("villain." + vid)
        else:
            t.click_move(rng, value="villain." + vid)
        chosen[who] = vid
    seats = [s["villain"] for s in t.state.st["seats"]]
    check(seats[0] == chosen["alice"] and seats[2] == chosen["bob"] and
          seats[3] == chosen["carol"] and seats[1] and
          len(set(seats)) == 4, "the villains are %r" % seats)
    return seats


def run(binary, openapi, tmp):
    rng = random.Random(RS.rng_seed)
    cards = Cards(binary)
    replay = gt.Replay(binary, tmp, RS.kind, RS.seed,
                       ["alice", "robot", "bob", "carol"],
                       lambda st: State(st, cards, 0))
    try:
        with dl.processes(binary, openapi, tmp) as (fake, bot, db, local):
            t = Table(fake, bot, db, local, cards, replay)
            t.open_game()
            villains = choose_villains(t, rng)
            for p in MEMBERS:
                t.hand_command(p, "/game hand")
            t.play(rng)
            stats = t.end()
    finally:
        replay.close()
    st = t.stats
    if RS.windows:
        windows = ("%d Condition windows answered from DMs out of turn "
                   "(%d offering a Condition, %d played)" % (
                       st["windows"], st["windows_with_condition"],
                       sum(t.used.values())))
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
