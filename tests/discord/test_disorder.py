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
"""

import calendar
import collections
import json
import os
import random
import re
import sys
import time

import discordlib as dl
from discordlib import check

sys.path.insert(0, os.path.join(dl.ROOT, "tests", "local"))
import lairlocal as ll  # noqa: E402

GAME = 1
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
FIRST_CLICKS = 6       # answers clicked after the decks are chosen
AFTER_KILL_CLICKS = 3  # and after the restart
KILL_AT = 20           # typed answers before the SIGKILL

WAITING = re.compile(r"Waiting for (\w+)\.")
HAND_HEAD = re.compile(r"\*\*Your hand\*\* \((.+?), (\d+) cards?\)[.:]")
HAND_LINE = re.compile(r"^- \*\*(.+?)\*\* \(", re.M)
OVER = re.compile(r"\*\*Game #%d is over\.\*\* (.+?) wins? \(" % GAME)
TITLE_RE = re.compile(r"^%s - game #%d, turn (\d+)$" % (re.escape(TITLE),
                                                       GAME), re.M)
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


class State:
    """One !dump of game 1, decoded."""

    def __init__(self, st, cards, at):
        m = cards.model
        self.st, self.at, self.cards = st, at, cards
        self.n = None  # moves made (the table's, once read)
        self.inst = m.instances(st)
        self.place = m.places(st)
        self.public = {n for n, p in zip(self.inst, self.place)
                       if n and m.public_zone(p[0])}
        self.public |= {self.inst[i] for i in m.announced(st)}

    def hand(self, seat):
        return sorted(n for n, p in zip(self.inst, self.place)
                      if n and p[0] == ll.DIS_HAND and p[1] == seat)

    def seen_by(self, seat):
        return self.public | set(self.hand(seat))

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


class Table:
    """What the test knows of game 1: version, decider, the states."""

    def __init__(self, fake, bot, db, local, cards):
        self.fake, self.bot, self.db, self.local = fake, bot, db, local
        self.cards = cards
        self.version = 0
        self.decider = None
        self.state = None
        self.states = []        # every State read, oldest first
        self.answered = []      # ids of the interactions answered
        self.lost = []          # interactions that died with the process
        self.checked = set()    # (channel message id, edits) examined
        self.public_move = set()
        self.passed = collections.Counter()
        self.used = collections.Counter()  # 🧠 traits used, per member
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
        check([r[0] for r in rows] == list(range(len(rows))),
              "moves of game 1 are not numbered 0..n-1: %r" %
              [r[0] for r in rows][-10:])
        reqs = [r[1] for r in rows]
        check(len(set(reqs)) == len(reqs), "a request id is stored twice")
        self.version = len(rows)
        self.stats["longest_chain"] = max(self.stats["longest_chain"],
                                          len(self.state.st["chain"]))
        self.stats["mints"] = max(self.stats["mints"], sum(
            len(m) for m in self.state.st["minted"]))
        return rows

    def seat(self, who):
        return PLAYERS.index(who)

    # -- privacy -------------------------------------------------------------
    def examine_channel(self, msg, what):
        """A channel message names only open cards: open before or after
        the last answer; a turn's message, open during its turn."""
        text = dl.message_text(msg)
        check("Your hand" not in text and "Your turn" not in text,
              "%s: a channel message shows private text:\n%s" % (what, text))
        titled = [e for e in msg.get("embeds") or [] if e.get("title")]
        if titled:
            # A turn's message, edited as the turn goes on and as fast as
            # the channel's rate limit lets the edits out: its lines may
            # tell of a card that was open earlier in the turn and is
            # hidden now. No line may name a card that was not open in
            # the turn.
            leak = self.unseen(self.cards.names(text), None, turn_of(text),
                               self.states)
        else:
            leak = self.cards.names(text) - self.public_move
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
        seat = self.seat(who)
        if head:
            check(head.group(1) == who, "%s: %s was shown %s's hand" %
                  (what, who, head.group(1)))
            listed = listed_hand(text, head)
            check(listed == st.hand(seat) and int(head.group(2)) ==
                  len(listed), "%s: %s's hand message lists %r, the hand "
                  "holds %r" % (what, who, listed, st.hand(seat)))
            self.stats["hands_exact"] += 1
        # Its lines tell of the turn so far: a card open earlier in the
        # turn (one BOUNCEd back to its owner's hand) may be named.
        leak = self.unseen(self.cards.names(text) - st.seen_by(seat), seat,
                           turn_of(text), self.states)
        check(not leak, "%s: a message to %s names %s:\n%s" %
              (what, who, sorted(leak), text))

    def unseen(self, names, seat, turn, past):
        """Of names, those seat (None: everyone) saw in none of the states
        past of that turn or the turns beside it (a turn's lines begin
        with the end of the one before)."""
        leak = set(names)
        for s in past:
            if turn is None or abs(s.st["turn"] - turn) <= 1:
                leak -= s.public if seat is None else s.seen_by(seat)
        return leak

    # -- moves ---------------------------------------------------------------
    def after_answer(self, info, what, sent):
        """Reads the state after an answer that moved the game: stored at
        the seq it was made for, and nothing after it (no AI seat)."""
        before = self.version
        rows = self.refresh(sent)
        check(self.version == before + 1 and rows[before][1] == info["id"],
              "%s: the moves table went from %d to %d moves (request at %d: "
              "%s, the interaction was %s)" % (
                  what, before, self.version, before,
                  rows[before][1] if len(rows) > before else None,
                  info["id"]))
        self.stats["moves"] += 1

    def choices(self, who=None):
        """The decider's autocomplete choices; now and then, that the
        other member gets none."""
        who = who or self.decider
        ch = dl.autocomplete(self.fake, who, "move", "choice", "")
        check(ch, "autocomplete offered %s nothing" % who)
        if self.stats["autocomplete"] % 20 == 0:
            other = PLAYERS[1 - self.seat(who)]
            got = dl.autocomplete(self.fake, other, "move", "choice", "")
            check(len(got) == 1 and got[0]["value"] == "-" and
                  got[0]["name"].startswith("Not your decision: game #")
                  and who in got[0]["name"],
                  "autocomplete offered %s choices out of turn: %r" %
                  (other, got))
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
    def prompt_dm(self, version, who, timeout=15):
        """The newest DM to who carrying the game's prompt of version."""
        return dl.prompt_dm(self.fake, who, GAME, version, timeout)

    def click_move(self, rng, window=False, value=None, choices=None):
        """Answers the decider's prompt on their DM's buttons; value: that
        option (else one at random); choices: autocomplete's, if asked
        already. Returns the option clicked."""
        who, v = self.decider, self.version
        dm = self.prompt_dm(v, who)
        comps = dl.custom_ids(dm)
        offered = dl.component_options(comps)
        choices = choices or self.choices()
        check([(c["value"], c["name"]) for c in choices] ==
              [(o["value"], o["label"]) for o in offered],
              "autocomplete %r differs from the DM's options %r" %
              (choices, offered))
        check(not any(c["type"] == 3 for c in comps),
              "a Disorder prompt came as a select menu: %r" % comps)
        self.stats["compared"] += 1
        if window:
            self.check_window(dm, who, offered)
        if value is None:
            value = dl.pick(rng, WEIGHTS, [{"value": o["value"],
                                            "name": o["label"]}
                                           for o in offered])["value"]
        sent = time.time()
        info = dl.click(self.fake, who, "m:%d:%d:%s" % (GAME, v, value),
                        message_id=dm["id"])
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

    def public_after(self, what):
        """After an answer: every channel message that is new or was
        edited since it was last read is examined; who decides next comes
        from /game status."""
        for m in self.fake.messages(channel=dl.CHANNEL):
            if m["_fake"]["via"] == "channel" and \
                    (m["id"], m["_fake"].get("edits", 0)) not in self.checked:
                self.examine_channel(m, what)
        info = dl.slash(self.fake, "bob", "status")
        status = dl.answer_text(info)
        self.answered.append(info["id"])
        self.follow(status)
        if self.decider is None:
            check(self.state.st["phase"] == "over", "after %s nobody "
                  "decides and the game is not over: %r" % (what, status))

    def follow(self, text):
        m = WAITING.search(text)
        if m is None:
            check(self.state.st["phase"] == "over" and
                  re.search(r"\*\*(\w+ wins|The game is a draw)\*\*", text),
                  "no 'Waiting for' in %r" % text)
            self.decider = None
            return
        check(m.group(1) in PLAYERS, "waiting for %r: %r" %
              (m.group(1), text))
        self.decider = m.group(1)


def turn_of(text):
    """The turn a turn's message or DM is about (its title), or None."""
    m = TITLE_RE.search(text)
    return int(m.group(1)) if m else None


def listed_hand(text, head):
    """The card names a hand message lists (its lines after the head)."""
    lines = []
    for line in text[head.end():].split("\n")[1:]:
        if not line.startswith("- **"):
            break
        lines.append(line)
    return sorted(HAND_LINE.findall("\n".join(lines)))


def check_turn_embed(embed, what):
    """A turn's message: Disorder's colour; once the decks are chosen,
    while the turn is current (it waits for someone, or tells the end), a
    field per player in seat order, each named after its player."""
    check(embed.get("color") == COLOUR,
          "%s: a turn's embed has colour %r" % (what, embed.get("color")))
    desc = embed.get("description") or ""
    turn = re.search(r", turn (\d+)$", embed.get("title", ""))
    check(turn, "%s: a turn's title %r" % (what, embed.get("title")))
    fields = embed.get("fields") or []
    if "choosing decks" not in desc and ("Waiting for" in desc or
                                         "is over" in desc):
        check(len(fields) == len(PLAYERS) and
              all(f["name"].startswith(p + ": ") and f["value"]
                  for f, p in zip(fields, PLAYERS)),
              "%s: a turn's fields are not one per player: %r" %
              (what, [f["name"] for f in fields]))


def fix_seed(t):
    """SIGTERM, the game's seed and no snapshot written into the
    database, restart: the game is set up again from SEED (nothing is
    dealt before the decks are chosen)."""
    # The fake's Identify interval (1 s) since the first process's, which
    # had identified when dl.Bot returned.
    time.sleep(max(0.0, t.ready_at + 1.1 - time.monotonic()))
    t.bot.stop()
    stopped = time.monotonic()
    n = dl.db_write(t.db, "UPDATE games SET seed = ? WHERE id = ?",
                    (SEED, GAME))
    check(n == 1, "no game %d to give its seed" % GAME)
    dl.db_write(t.db, "DELETE FROM snapshots WHERE game = ?", (GAME,))
    t.bot.start()
    dl.wait_buckets(stopped)


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
            choices = t.choices()
            check([(c["value"], c["name"]) for c in choices] ==
                  [(o["value"], o["label"]) for o in offered],
                  "autocomplete %r differs from the DM's options %r" %
                  (choices, offered))
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


def play(t, rng):
    """Plays to the end: clicks first, then typed answers; windows are
    always answered from the DM; the SIGKILL after KILL_AT typed
    answers."""
    clicks_left, typed = FIRST_CLICKS, 0
    killed = False
    while t.decider:
        check(t.stats["moves"] < 1000, "the game does not end")
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
        if t.state.st["phase"] == "window":
            check("pass" in ids, "a window offers no pass: %r" % ids)
            who = t.decider
            value = t.click_move(rng, window=True, choices=choices)
            t.stats["windows"] += 1
            if value == "pass":
                t.passed[who] += 1
            else:
                t.used[who] += 1
            continue
        check("pass" not in ids, "a prompt outside a window offers to "
              "pass: %r" % ids)
        if clicks_left:
            clicks_left -= 1
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
    check(len(rows) <= len(before) + 1 and
          (not applied or rows[len(before)][1] == r["id"]),
          "after the kill the moves table holds %r" % rows[len(before):])
    check(info["callback"] is None or applied,
          "answered but not stored: %r" % info["callback"])
    if info["callback"] is None:
        t.lost.append(r["id"])
    else:
        t.answered.append(r["id"])
    t.stats["killed_applied" if applied else "killed_lost"] += 1
    t.bot.start()
    dl.wait_buckets(killed)
    info = dl.slash(t.fake, "bob", "status")
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
    st = t.state.st
    check(st["phase"] == "over", "the state is not over")
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
    said = OVER.search(t.over_text)
    if st["winner"] is None:
        check(said and said.group(1) == "Nobody",
              "a draw in the state, the channel: %r" % t.over_text)
        t.stats["winner"] = "nobody (%s)" % st["reason"]
    else:
        check(said and said.group(1) == PLAYERS[st["winner"]],
              "the state's winner %r, the channel: %r" %
              (PLAYERS[st["winner"]], t.over_text))
        t.stats["winner"] = "%s (%s)" % (PLAYERS[st["winner"]],
                                         st["reason"])
    stored = {r[1] for r in rows}
    # Every answered move is stored; nothing else was.
    moved = [i for i in t.answered if i in stored]
    check(len(moved) == len(rows) - sum(1 for i in t.lost if i in stored),
          "stored moves %d, answered moves %d" % (len(rows), len(moved)))
    for it in fake.get("/interactions"):
        if it["id"] in t.lost:
            continue
        dl.check_answered(it)
        t.stats["answered"] += 1
    # Every window's answer was told in the channel: a pass as such, a
    # 🧠 trait by its card.
    every = "\n".join(versions_text(m) for m in
                      fake.messages(channel=dl.CHANNEL))
    for who, n in t.passed.items():
        check("%s passed." % who in every,
              "%s passed %d windows; the channel never said so" % (who, n))
    told = collections.Counter(who for who, _ in set(USED_INT.findall(
        every)))
    for who, n in t.used.items():
        check(told[who] > 0, "%s used %d 🧠 traits; the channel never said "
              "so" % (who, n))
    check(sum(t.used.values()) > 0 and t.stats["longest_chain"] >= 2 and
          t.stats["mints"] > 0,
          "the game used %d 🧠 traits in windows, its longest chain held %d "
          "entries and %d Villains were minted: it must have had each" %
          (sum(t.used.values()), t.stats["longest_chain"], t.stats["mints"]))
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
    dm_of = {m["id"]: p for p in PLAYERS for m in fake.dms(p)}
    for m in fake.messages():
        if m["channel_id"] == dl.CHANNEL and not m["_fake"]["ephemeral"]:
            text = versions_text(m)
            check(not HAND_HEAD.search(text) and "Your turn" not in text,
                  "a channel message shows private text: %s" % text)
            check((m["id"], m["_fake"].get("edits", 0)) in t.checked,
                  "a channel message was never examined: %s" % text)
            continue
        who = dl.NAMES.get(m["_fake"]["audience"]) \
            if m["_fake"]["ephemeral"] else dm_of.get(m["id"])
        check(who in PLAYERS, "a message to nobody playing: %r" % m)
        seat = t.seat(who)
        for text, at in versions(m):
            past = [s for s in t.states if s.at <= at] or t.states[:1]
            head = HAND_HEAD.search(text)
            if head:
                check(head.group(1) == who, "%s's hand went to %s" %
                      (head.group(1), who))
                listed = listed_hand(text, head)
                check(int(head.group(2)) == len(listed) and
                      any(listed == s.hand(seat) for s in past),
                      "%s was shown the hand %r, which they never held "
                      "by then:\n%s" % (who, listed, text))
                t.stats["private_hands"] += 1
            leak = t.unseen(t.cards.names(text), seat, turn_of(text), past)
            check(not leak, "a message to %s names %s, hidden from them:\n%s"
                  % (who, sorted(leak), text))
            t.stats["private_versions"] += 1


def run(binary, openapi, tmp):
    rng = random.Random(RNG_SEED)
    db = os.path.join(tmp, "lair.db")
    cards = Cards(binary)
    fake = dl.Fake(openapi, tmp, "--identify-interval-ms", "1000")
    bot = local = None
    try:
        bot = dl.Bot(binary, fake, db)
        local = ll.Lair(binary, db)
        t = Table(fake, bot, db, local, cards)
        t.ready_at = time.monotonic()

        info = dl.slash(fake, "alice", "new", dl.options(kind=KIND))
        check("game #1: %s (" % TITLE in dl.answer_text(info),
              "not a %s game #1: %s" % (TITLE, dl.answer_text(info)))
        t.answered.append(info["id"])
        info = dl.slash(fake, "bob", "join")
        check(dl.acted(info), "bob's join: %s" % dl.answer_text(info))
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

        designs, decks = choose_decks(t, rng)
        for p in PLAYERS:
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
    finally:
        if local is not None:
            local.proc.kill()
        if bot is not None:
            bot.close()
        fake.stop()


if __name__ == "__main__":
    sys.exit(dl.main("discord_disorder", run))
