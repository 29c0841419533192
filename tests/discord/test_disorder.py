#!/usr/bin/python3
"""discord_disorder: a whole Disorder of the Villains game through the fake
Discord, its interrupt windows answered from DMs out of turn.

Two members play game #1 (alice and bob, seats in that order): /game new
kind:disorder (mode standard), join, start. The game's seed is fixed
once it has started (SIGTERM, the seed written into its row while the
bot is down, restart), so every run deals the same cards; the test's own
answers come from a seeded random generator. The decks are chosen
through the first prompts: alice clicks her "Your turn" DM's buttons,
bob types /game move choice:ID (autocomplete's choices equal his DM's),
for the deck designs, the draft of the Villains (1-2-2-1-1-2-2-1, each
pick offering only the Villains nobody drafted) and the
Rock-Paper-Scissors winner's start or defer; each prefers the designs
and Villains with 🧠 traits (PREFER), else answers at random. The game
is then played to its end:

- answers clicked on the "Your turn" DMs' buttons for the first answers
  and after the restart, else typed as /game move choice:<id or label>
  with the options taken from autocomplete (compared with the DM's
  options whenever both are at hand);
- every interrupt window is answered out of turn by clicking the asked
  member's DM: the member is not the player whose turn it is, the DM
  asks "Interrupt with a 🧠 trait, or pass?" and offers `pass` and
  exactly the 🧠 traits that fit the window by the table alone (dis.c's
  fits_window, from the state: the card in the member's play or minted
  area, its trait unused, not put into play this turn, the step's card
  or newest trait fitting what the trait answers), whatever the hand; a
  🧠 trait offered is used far more often than passed, and at least one
  must be; a pass puts "NAME passed." in the channel, a 🧠 trait "NAME
  triggers CARD's 🧠 ...";
- mid-game the bot is killed with SIGKILL with a move in flight and
  started again: every answered move is stored once, the killed one at
  most once (a lost one is sent again, so the game is the same either
  way).

After every answer the state is read from the same database (`lair
local --json`, `!restart` + `!dump 1`): with two members and no AI seat
every state the game passes through is read. Checked:

- the moves table: request ids unique, seq 0..n-1, each answer stored at
  the seq it was made for, every answered move stored once; the end
  announced in the channel with the winner of the state; the game saw
  at least one 🧠 trait used in a window, a chain of two entries or
  more and a mint;
- every interaction answered within 3 s (latency and age at the
  callback, no 10062, no 40060), except the one that died with the
  process;
- privacy: no channel message names a card that is in a hand or a deck
  in both states around the answer it reports (a card Played or
  DROPped into a full row is open while room is made); a turn's message
  (edited as the turn goes on) names only cards open during that turn
  or the turns beside it. Hands go only to their owner (DMs and
  ephemeral answers), each listing exactly the owner's hand of a state
  the game was in by then (every version of every DM, by the time the
  fake stored it); every other private text names only cards that were
  open or in the recipient's hand around then. The decks' lists of
  Villains ("NAME (SEQUENCE)"), the draft, the designs' guides and card
  texts, public by the rules, are read past (lairlocal's DisCards);
- a turn's message is an embed in Disorder's colour (0x2f7d5b); once the
  decks are chosen, while the turn is current, its table has a field
  per player in seat order, named after the player;
- every request checked against openapi.json by the fake (no violation,
  no unexpected 429); SIGTERM ends the bot with status 0 and no
  sanitizer report; the token is in no log line.

The seeds give a game of about 85 moves: about 40 s in the ASan build.

The playing and the checks every whole game of hidden cards gets are
gametable.py's Table; this file gives Disorder's: its State and card
names, its interrupt windows, its end, the decks' choice and the chains
and mints it must see.
"""

import collections
import os
import random
import re
import sys

import discordlib as dl
from discordlib import check
import gametable as gt

sys.path.insert(0, os.path.join(dl.ROOT, "tests", "local"))
import lairlocal as ll  # noqa: E402

PLAYERS = ["alice", "bob"]  # seats in turn order, both members
KIND, TITLE, COLOUR = "disorder", "Disorder of the Villains", ll.DIS_COLOUR
# The game's seed (written into its row after the start, while the bot
# is down) and the test's own: a game of about 85 moves with 🧠 traits
# used, chains and mints (seeds tried gave 80 to 130 moves).
SEED = 4402913577130561821
RNG_SEED = 1
# What each member chooses when it is offered (else a choice at random):
# designs and Villains rich in 🧠 traits, so that windows offer some.
PREFER = {"alice": ["design.thornmind", "villain.gutterglass_king",
                    "villain.countess_marrowgale"],
          "bob": ["design.emberwick", "villain.countess_marrowgale",
                  "villain.gutterglass_king"]}
# Answers that move a game on: option id prefix -> weight. A window's 🧠
# trait is used far more often than passed.
WEIGHTS = {"play": 4, "trait": 3, "mint": 12, "resolve": 3, "end": 1,
           "int": 10, "pass": 1, "pick": 2, "room": 2, "copy": 2,
           "design": 2, "villain": 2, "start": 2, "defer": 1}

WINDOW_Q = "Interrupt with a 🧠 trait, or pass?"
USED_INT = re.compile(r"^(\w+) triggers (.+?)'s \U0001f9e0 [A-Za-z]+: ", re.M)
IN_AREA = ("villain_row", "monster_row", "minted")


class Cards:
    """lairlocal's Disorder card model, and the card names a text gives
    with the texts public by the rules read past."""

    def __init__(self, binary):
        self.model = ll.card_model(binary, KIND)
        self.public_texts = self.model.public_texts()
        self.finder = ll.Names(self.model.names)

    def names(self, text):
        return self.finder.find(self.model.read_past(text,
                                                     self.public_texts))

    def interrupt(self, name):
        """The 🧠 trait of card name, or None."""
        for tr in self.model.cards[name]["traits"]:
            if tr["timing"] == "interrupt":
                return tr
        return None


class State(gt.State):
    """One !dump of game 1, decoded."""

    HAND = ll.DIS_HAND

    def __init__(self, st, cards, at):
        super().__init__(st, at)
        m = cards.model
        self.cards = cards
        self.inst = m.instances(st)
        self.place = m.places(st)
        self.public = {n for n, p in zip(self.inst, self.place)
                       if n and m.public_zone(p[0])}
        self.public |= {self.inst[i] for i in m.announced(st)}

    def fits_on(self, on, i):
        """Whether card i fits a trait's `on` filter (dis.c's fits, for
        the keys an `on` may have: kind, dna, colour, name)."""
        if not on:
            return True
        c = self.cards.model.cards[self.inst[i]]
        if on.get("kind", "card") not in ("card", c["kind"]):
            return False
        if "dna" in on and (c["kind"] != "monster" or
                            c["dna"] not in on["dna"]):
            return False
        if "colour" in on and c["colour"] not in on["colour"]:
            return False
        return "name" not in on or c["id"] in on["name"]

    def window_offers(self, seat):
        """The options a window of this state must offer seat: int.cI for
        each 🧠 trait that fits it by the table alone, and pass."""
        st = self.st
        out = set()
        for i, name in enumerate(self.inst):
            tr = self.cards.interrupt(name) if name else None
            if not tr or st["zone"][i] not in IN_AREA or \
                    st["side"][i] != seat or st["used"][i] or \
                    st["entered"][i] == st["turn"]:
                continue
            if tr["answers"] == "enter":
                c = st["win_enter"]
                fit = c is not None and \
                    st["zone"][c] in ("villain_row", "monster_row") and \
                    st["side"][c] != seat and self.fits_on(tr.get("on"), c)
            else:
                fit = bool(st["win_trait"] and st["chain"]) and \
                    self.fits_on(tr.get("on"), st["chain"][-1]["card"])
            if fit:
                out.add("int.c%d" % i)
        return out | {"pass"}


class Table(gt.Table):
    """What the test knows of game 1 (gametable's Table): two members, no
    AI seat, so every state the game passes through is read; no select
    menus; the windows are interrupt windows."""

    STATE = State
    PLAYERS = MEMBERS = PLAYERS
    STATUS_BY = "bob"
    WEIGHTS = WEIGHTS
    OTHERS_EVERY = 20
    SELECTS = False
    CHOOSING = "choosing decks"
    HAND_HEAD = re.compile(r"\*\*Your hand\*\* \((.+?), (\d+) cards?\)[.:]")
    PASS_TOLD = "%s passed."
    KILL_AT = 20           # typed answers before the SIGKILL
    MAX_MOVES = 1000

    def __init__(self, fake, bot, db, local, cards):
        super().__init__(fake, bot, db, local, cards, kind=KIND, title=TITLE,
                         colour=COLOUR, seed=SEED)

    def refresh(self, at=None):
        """gametable's, and the longest chain and the most Villains minted
        seen so far."""
        rows = super().refresh(at)
        self.stats["longest_chain"] = max(self.stats["longest_chain"],
                                          len(self.state.st["chain"]))
        self.stats["mints"] = max(self.stats["mints"], sum(
            len(m) for m in self.state.st["minted"]))
        return rows

    def is_over(self, st):
        return st["phase"] == "over"

    def check_ended(self, text):
        check(self.is_over(self.state.st) and
              re.search(r"\*\*(\w+ wins|The game is a draw)\*\*", text),
              "no 'Waiting for' in %r" % text)

    def is_window(self, ids):
        """A window is the state's phase; it offers pass, nothing else
        does."""
        if self.state.st["phase"] == "window":
            check("pass" in ids, "a window offers no pass: %r" % ids)
            return True
        check("pass" not in ids, "a prompt outside a window offers to "
              "pass: %r" % ids)
        return False

    def check_window(self, dm, who, offered):
        """An interrupt window asks who, not the player whose turn it is:
        pass, and exactly the 🧠 traits that fit by the table alone."""
        st = self.state
        seat = self.seat(who)
        check(st.st["phase"] == "window" and st.st["active"] != seat,
              "a window asks %s in phase %s, active seat %d" %
              (who, st.st["phase"], st.st["active"]))
        check(WINDOW_Q in dl.message_text(dm),
              "the window's DM does not ask: %s" % dl.message_text(dm))
        ids = {o["value"] for o in offered}
        want = st.window_offers(seat)
        check(ids == want, "the window offers %s %r; by the table it "
              "should offer %r" % (who, sorted(ids), sorted(want)))
        self.stats["windows_with_trait" if len(ids) > 1 else
                   "windows_pass_only"] += 1

    def check_winner(self, said):
        st = self.state.st
        if st["winner"] is None:
            check(said and said.group(1) == "Nobody",
                  "a draw in the state, the channel: %r" % self.over_text)
            self.stats["winner"] = "nobody (%s)" % st["reason"]
        else:
            check(said and said.group(1) == PLAYERS[st["winner"]],
                  "the state's winner %r, the channel: %r" %
                  (PLAYERS[st["winner"]], self.over_text))
            self.stats["winner"] = "%s (%s)" % (PLAYERS[st["winner"]],
                                                st["reason"])

    def finish_checks(self, every):
        """Every 🧠 trait used in a window was told in the channel by its
        card; the game saw one used, a chain of two entries or more and a
        mint."""
        told = collections.Counter(who for who, _ in set(USED_INT.findall(
            every)))
        for who, n in self.used.items():
            check(told[who] > 0, "%s used %d 🧠 traits; the channel never "
                  "said so" % (who, n))
        check(sum(self.used.values()) > 0 and
              self.stats["longest_chain"] >= 2 and self.stats["mints"] > 0,
              "the game used %d 🧠 traits in windows, its longest chain "
              "held %d entries and %d Villains were minted: it must have "
              "had each" % (sum(self.used.values()),
                            self.stats["longest_chain"],
                            self.stats["mints"]))



def choose_decks(t, rng):
    """The designs, the draft and who starts: alice clicks her DM's
    buttons, bob types /game move choice:ID. Returns the designs' ids
    and each deck's Villains."""
    drafted = []
    while t.state.st["phase"] in ("design", "draft", "rps"):
        phase, who = t.state.st["phase"], t.decider
        offered = dl.component_options(dl.custom_ids(
            t.prompt_dm(t.version, who)))
        values = [o["value"] for o in offered]
        if phase == "design":
            check(len(values) >= 3 and
                  all(v.startswith("design.") for v in values),
                  "%s's design choice offers %r" % (who, values))
        elif phase == "draft":
            check(len(values) == 12 - len(drafted) and
                  all(v.startswith("villain.") and v not in drafted
                      for v in values),
                  "%s's draft pick %d offers %r (drafted: %r)" %
                  (who, len(drafted) + 1, values, drafted))
        else:
            check(sorted(values) == ["defer", "start"] and
                  t.state.st["rps"] == t.seat(who),
                  "%s is asked %r after Rock-Paper-Scissors (won by seat "
                  "%r)" % (who, values, t.state.st["rps"]))
        value = ([v for v in PREFER[who] if v in values] or
                 [dl.pick(rng, WEIGHTS, [{"value": v} for v in values])[
                     "value"]])[0]
        if who == "alice":
            t.click_move(rng, value=value)
        else:
            dl.check_same_options(t.choices(), offered)
            t.type_move(value)
        if phase == "draft":
            drafted.append(value)
    designs = t.state.st["designs"]
    inst = t.state.inst
    decks = [inst[s * ll.DIS_BLOCK:s * ll.DIS_BLOCK + 4] for s in range(2)]
    # Each deck's Villains are its picks in the order 1-2-2-1-1-2-2-1.
    by_id = t.cards.model.by_id
    picks = [[by_id[v[len("villain."):]] for k, v in enumerate(drafted)
              if [0, 1, 1, 0, 0, 1, 1, 0][k] == s] for s in range(2)]
    check(len(drafted) == 8 and all(designs) and decks == picks,
          "after the draft: designs %r, Villains %r; drafted %r" %
          (designs, decks, picks))
    return designs, decks


def run(binary, openapi, tmp):
    rng = random.Random(RNG_SEED)
    cards = Cards(binary)
    with dl.processes(binary, openapi, tmp) as (fake, bot, db, local):
        t = Table(fake, bot, db, local, cards)
        t.open_game()
        designs, decks = choose_decks(t, rng)
        for p in PLAYERS:
            t.hand_command(p, "/game hand")
        t.play(rng)
        stats = t.end()
    st = t.stats
    return (
        "%s: seed %d, designs %s, Villains %s; over after %d moves, won "
        "by %s; answers: %d clicked, %d typed (%d by label); %d "
        "interrupt windows answered from DMs out of turn (%d offering "
        "a 🧠 trait; %d 🧠 traits used, %d passes); longest chain %d, "
        "%d Villains minted; SIGKILL survived (%s); %d interactions "
        "answered in time, %d channel messages checked (%d turn "
        "tables), %d hands exact at once, %d private versions checked "
        "(%d showing a hand), %d REST requests, 0 violations" % (
            KIND, SEED, ",".join(designs),
            " / ".join(", ".join(d) for d in decks), t.version,
            st["winner"], st["button_clicks"], st["typed"],
            st["by_label"], st["windows"], st["windows_with_trait"],
            sum(t.used.values()), sum(t.passed.values()),
            st["longest_chain"], st["mints"],
            "the move in flight applied" if st["killed_applied"]
            else "the move in flight lost", st["answered"],
            st["channel_messages"], st["tables"], st["hands_exact"],
            st["private_versions"], st["private_hands"],
            stats["requests"]))


if __name__ == "__main__":
    sys.exit(dl.main("discord_disorder", run))
