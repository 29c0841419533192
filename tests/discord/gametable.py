"""gametable.py: what the fake-Discord tests of a whole game share
(test_villainous.py, test_disorder.py: games of hidden cards;
test_galactic.py, whose game hides nothing, adds its board's checks).

A Table plays game #GAME through the fake as its members and checks it
against the state read from the bot's database after every answer:

- the lobby (/game new, addai, join, start); once the start's DMs are
  out, the game's seed fixed (SIGTERM, the seed written into its row,
  restart), the first state read;
- play to the end: answers clicked on the "Your turn" DMs' components for
  the first answers and after the restart (a select menu, paged, where a
  game has them), else typed as /game move choice:<id or label> with the
  options taken from autocomplete (compared with the DM's options
  whenever both are at hand; now and then, that the other members get
  none); every window answered out of turn from the asked member's DM;
  mid-game a SIGKILL with a move in flight and a restart;
- after every answer: the moves table (request ids unique, seq 0..n-1,
  the answer stored at the seq it was made for and followed only by the
  AI seats' answers); every channel message new or edited since examined
  (naming no card hidden in the states around the answer it reports; a
  turn's message, only cards open during its turn or the turns beside
  it; its embed in the game's colour with a field per player in seat
  order while the turn is current); the answer's hand exactly the
  owner's hand now;
- the end: announced in the channel with the state's result, its table
  naming no hidden card; every answered move stored once, the killed one
  at most once; every interaction answered within 3 s; every pass told
  in the channel; every version of every private message naming only
  what its recipient could see by then, a hand its owner's hand of a
  state the game was in by then.

A game's test subclasses Table and gives what differs: its State (the
dump decoded: inst, place, public, the hand zone), the class attributes
below, kind, title, colour and seed, and the game's own checks
(check_window, is_window, is_over, check_ended, check_winner,
finish_checks); it may widen what a member may see (search_offers,
open_between, unseen, held_by_then) only with what the rules show them.
"""

import collections
import json
import os
import re
import time

import discordlib as dl
from discordlib import check

SUMMARY = "**Summary of game #"
SINCE = "**Since your last turn:**"
GAME = 1
WAITING = re.compile(r"Waiting for (\w+(?: \d+)?)\.")
HAND_LINE = re.compile(r"^- \*\*(.+?)\*\* \(", re.M)
OVER = re.compile(r"\*\*Game #%d is over\.\*\* (.+?) wins? \(" % GAME)


class State:
    """One !dump of game GAME, decoded. A game's State sets inst (the card
    name of each instance, None where none), place ((zone, seat, ...) of
    each) and public (the names of the open cards); HAND is its hand
    zone."""

    HAND = None

    def __init__(self, st, at):
        self.st, self.at = st, at
        self.n = None  # moves made (the table's, once read)

    def hand(self, seat):
        return sorted(n for n, p in zip(self.inst, self.place)
                      if n and p[0] == self.HAND and p[1] == seat)

    def seen_by(self, seat):
        return self.public | set(self.hand(seat))


class Table:
    """What the test knows of game GAME: version, decider, the states."""

    STATE = State          # the game's State class
    PLAYERS = ()           # seats in turn order
    MEMBERS = ()           # the members among them (alice first)
    AI_SEATS = frozenset()  # seats the bot answers for (ai:GAME:SEQ)
    STATUS_BY = "bob"      # who asks /game status after each answer
    WEIGHTS = {}           # answers that move the game on (dl.pick's)
    OTHERS_EVERY = 20      # the others' autocomplete checked so often
    SELECTS = True         # prompts of more than 20 options: a select menu
    CHOOSING = None        # a turn's description before it has a table
    HAND_HEAD = None       # a hand message's head: (owner, count)
    PASS_TOLD = None       # the channel's line for a member's pass
    FIRST_CLICKS = 6       # answers clicked after the first choices
    AFTER_KILL_CLICKS = 3  # and after the restart
    KILL_AT = None         # typed answers before the SIGKILL
    MAX_MOVES = None       # a game longer than this does not end
    MIN_TABLES = 20        # the test must see more turn tables than this

    def __init__(self, fake, bot, db, local, cards, *, kind, title, colour,
                 seed):
        self.fake, self.bot, self.db, self.local = fake, bot, db, local
        self.cards = cards
        self.kind, self.title, self.colour, self.seed = kind, title, \
            colour, seed
        self.title_re = re.compile(r"^%s - game #%d, turn (\d+)$" % (
            re.escape(title), GAME), re.M)
        self.ready_at = time.monotonic()  # the bot identified by then
        self.version = 0
        self.decider = None
        self.state = None
        self.states = []        # every State read, oldest first
        self.answered = []      # ids of the interactions answered
        self.lost = []          # interactions that died with the process
        self.checked = set()    # (channel message id, edits) examined
        self.public_move = set()
        self.passed = collections.Counter()  # windows passed, per member
        self.used = collections.Counter()    # windows used, per member
        self.stats = collections.Counter()
        self.over_text = None

    # -- the game's own ------------------------------------------------------
    def check_window(self, dm, who, offered):
        """A window's DM to who, offering offered: who may be asked and
        is offered exactly what the rules give them."""
        raise NotImplementedError

    def is_window(self, ids):
        """Whether the decider's prompt offering ids is a window (checked
        against the state)."""
        raise NotImplementedError

    def is_over(self, st):
        """Whether the dump st is of a game over."""
        raise NotImplementedError

    def check_ended(self, text):
        """A /game status waiting for nobody tells the end."""
        raise NotImplementedError

    def check_winner(self, said):
        """The end's announcement (OVER's match) names the state's
        result; stats["winner"]."""
        raise NotImplementedError

    def finish_checks(self, every):
        """The game's own checks at the end; every: all the channel's
        text, every version of every message."""

    def search_offers(self, text, seat, states):
        """Cards text shows seat because the rules let them see them while
        they choose (none here)."""
        return set()

    def open_between(self, names):
        """Of names, hidden in both states around the last answer, those
        open in between (none: every state is read)."""
        return names

    def held_by_then(self, listed, seat, past, n):
        """Whether seat held the hand listed in a state of past (the
        states read by then; n moves made by then)."""
        return any(listed == s.hand(seat) for s in past)

    # -- the truth, from the database --------------------------------------
    def refresh(self, at=None):
        """Reads game GAME from the database; at: when the answer that led
        to it was sent (a message made from it is younger)."""
        self.local.restart()
        before = self.state.public if self.state else set()
        n = len(dl.moves_in_db(self.db, GAME))
        self.state = self.STATE(json.loads(self.local.dump(GAME)),
                                self.cards, time.time() if at is None
                                else at)
        self.states.append(self.state)
        self.public_move = before | self.state.public
        rows = dl.moves_in_db(self.db, GAME)
        check(len(rows) == n, "the game moved on while the test read it "
              "(%d moves, then %d)" % (n, len(rows)))
        self.state.n = len(rows)
        dl.check_moves(rows, GAME)
        self.version = len(rows)
        return rows

    def seat(self, who):
        return self.PLAYERS.index(who)

    def turn_of(self, text):
        """The turn a turn's message or DM is about (its title), or
        None."""
        m = self.title_re.search(text)
        return int(m.group(1)) if m else None

    def fix_seed(self):
        """SIGTERM, the game's seed and no snapshot written into the
        database, restart: the game is set up again from the seed
        (nothing is dealt before the first choices are made)."""
        # The fake's Identify interval (1 s) since the first process's,
        # which had identified when dl.Bot returned.
        time.sleep(max(0.0, self.ready_at + 1.1 - time.monotonic()))
        self.bot.stop()
        stopped = time.monotonic()
        n = dl.db_write(self.db, "UPDATE games SET seed = ? WHERE id = ?",
                        (self.seed, GAME))
        check(n == 1, "no game %d to give its seed" % GAME)
        dl.db_write(self.db, "DELETE FROM snapshots WHERE game = ?", (GAME,))
        self.bot.start()
        dl.wait_buckets(stopped)

    def open_game(self):
        """The lobby: /game new kind:KIND by the first member, /game addai
        by them for each AI seat (the seats after theirs), the others'
        join, /game start (seats in turn order: PLAYERS); then the start's
        DMs out, the seed fixed, the first state read, the decider from
        /game status, the lobby's messages examined."""
        fake, opener = self.fake, self.MEMBERS[0]
        info = dl.slash(fake, opener, "new", dl.options(kind=self.kind))
        check("game #%d: %s (" % (GAME, self.title) in dl.answer_text(info),
              "not a %s game #%d: %s" % (self.title, GAME,
                                         dl.answer_text(info)))
        self.answered.append(info["id"])
        for s in sorted(self.AI_SEATS):
            info = dl.slash(fake, opener, "addai")
            check(dl.acted(info) and self.PLAYERS[s] in dl.answer_text(info),
                  "/game addai: %s" % dl.answer_text(info))
            self.answered.append(info["id"])
        for p in self.MEMBERS[1:]:
            info = dl.slash(fake, p, "join")
            check(dl.acted(info), "%s's join: %s" % (p, dl.answer_text(info)))
            self.answered.append(info["id"])
        info = dl.slash(fake, opener, "start")
        text = dl.answer_text(info)
        check(dl.acted(info) and "Seats in turn order: %s" %
              ", ".join(self.PLAYERS) in text, "/game start: %s" % text)
        self.answered.append(info["id"])
        self.prompt_dm(0, opener)  # the start's DMs are out
        self.fix_seed()
        self.refresh(0)
        info = dl.slash(self.fake, "bob", "status")
        self.answered.append(info["id"])
        self.follow(dl.answer_text(info))
        for m in self.fake.messages(channel=dl.CHANNEL):
            self.examine_channel(m, "the lobby")

    # -- privacy -------------------------------------------------------------
    def examine_channel(self, msg, what):
        """A channel message names only open cards: open before or after
        the last answer (or in between); a turn's message, open during
        its turn."""
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
            leak = self.unseen(self.cards.names(text), None,
                               self.turn_of(text), self.states)
        else:
            leak = self.open_between(self.cards.names(text) -
                                     self.public_move)
        check(not leak, "%s: a channel message names %s, which is in a hand "
              "or a deck now:\n%s" % (what, sorted(leak), text))
        for e in titled:
            if e["title"].endswith(", summary"):
                continue  # the end's summary: no turn's table
            self.check_turn_embed(e, what)
            if e.get("fields"):
                self.stats["tables"] += 1
        self.checked.add((msg["id"], msg["_fake"].get("edits", 0)))
        self.stats["channel_messages"] += 1

    def check_turn_embed(self, embed, what):
        """A turn's message: the game's colour; while the turn is current
        (it waits for someone, or tells the end) and the first choices
        are made (CHOOSING: not yet), a field per player in seat order,
        each named after its player."""
        check(embed.get("color") == self.colour,
              "%s: a turn's embed has colour %r" % (what, embed.get("color")))
        desc = embed.get("description") or ""
        turn = re.search(r", turn (\d+)$", embed.get("title", ""))
        check(turn, "%s: a turn's title %r" % (what, embed.get("title")))
        fields = embed.get("fields") or []
        if self.CHOOSING not in desc and ("Waiting for" in desc or
                                          "is over" in desc):
            check(len(fields) == len(self.PLAYERS) and
                  all(f["name"].startswith(p + ": ") and f["value"]
                      for f, p in zip(fields, self.PLAYERS)),
                  "%s: a turn's fields are not one per player: %r" %
                  (what, [f["name"] for f in fields]))

    def listed_hand(self, text, head):
        """The card names a hand message lists (its lines after the
        head)."""
        lines = []
        for line in text[head.end():].split("\n")[1:]:
            if not line.startswith("- **"):
                break
            lines.append(line)
        return sorted(HAND_LINE.findall("\n".join(lines)))

    def examine_hand(self, text, who, what):
        """An answer to who read now: its hand is who's hand now."""
        st = self.state
        seat = self.seat(who)
        head = self.HAND_HEAD.search(text)
        if head:
            check(head.group(1) == who, "%s: %s was shown %s's hand" %
                  (what, who, head.group(1)))
            listed = self.listed_hand(text, head)
            check(listed == st.hand(seat) and int(head.group(2)) ==
                  len(listed), "%s: %s's hand message lists %r, the hand "
                  "holds %r" % (what, who, listed, st.hand(seat)))
            self.stats["hands_exact"] += 1
        # Its lines tell of the turn so far: a card open earlier in the
        # turn (one returned to its owner's hand) may be named.
        leak = self.unseen(self.cards.names(text) - st.seen_by(seat) -
                           self.search_offers(text, seat, [st]), seat,
                           self.turn_of(text), self.states)
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
    def check_followers(self, rows, what):
        """The moves stored after a member's: only the AI seats'."""
        check(all(r[1].startswith("ai:%d:" % GAME) and r[2] in self.AI_SEATS
                  for r in rows), "%s: stored after it: %r" % (what, rows))

    def after_answer(self, info, what, sent):
        """Reads the state after an answer that moved the game: stored at
        the seq it was made for, followed only by the AI seats'
        answers."""
        before = self.version
        rows = self.refresh(sent)
        check(self.version > before and rows[before][1] == info["id"],
              "%s: the moves table went from %d to %d moves (request at %d: "
              "%s, the interaction was %s)" % (
                  what, before, self.version,
                  before, rows[before][1] if len(rows) > before else None,
                  info["id"]))
        self.check_followers(rows[before + 1:], what)
        self.stats["moves"] += 1
        self.stats["ai_moves"] += len(rows) - before - 1

    def choices(self, who=None):
        """The decider's autocomplete choices; now and then, that the
        other members get none."""
        who = who or self.decider
        ch = dl.autocomplete(self.fake, who, "move", "choice", "")
        check(ch, "autocomplete offered %s nothing" % who)
        if self.stats["autocomplete"] % self.OTHERS_EVERY == 0:
            for p in self.MEMBERS:
                if p != who:
                    dl.check_not_yours(self.fake, p, who)
        self.stats["autocomplete"] += 1
        return ch

    def slash_move(self, rng, choices):
        """Answers with /game move choice:<id or label>."""
        value = dl.value_or_label(rng, dl.pick(rng, self.WEIGHTS, choices),
                                  choices, 0.3, self.stats)
        self.type_move(value)

    def type_move(self, value):
        """/game move choice:value by the decider."""
        sent = time.time()
        info, text = dl.typed_move(self.fake, self.decider, value)
        self.answered.append(info["id"])
        self.after_answer(info, "move %r" % value, sent)
        self.examine_hand(text, self.decider, "move %r" % value)
        self.stats["typed"] += 1
        self.public_after("move %r" % value)

    def hand_command(self, who, what):
        """/game hand by who: ephemeral, who's hand now."""
        info = dl.slash(self.fake, who, "hand")
        self.answered.append(info["id"])
        check(dl.is_ephemeral(info), "/game hand was not ephemeral")
        self.examine_hand(dl.answer_text(info), who, what)

    # -- clicks --------------------------------------------------------------
    def prompt_dm(self, version, who, timeout=15, after="0"):
        """The newest DM to who carrying the game's prompt of version."""
        return dl.prompt_dm(self.fake, who, GAME, version, timeout, after)

    def click_move(self, rng, window=False, value=None, choices=None):
        """Answers the decider's prompt on their DM's components; value:
        that option (else one at random); choices: autocomplete's, if
        asked already. Returns the option clicked."""
        who, v = self.decider, self.version
        dm = self.prompt_dm(v, who)
        comps = dl.custom_ids(dm)
        offered = dl.component_options(comps)
        choices = choices or self.choices()
        sel = [c for c in comps if c["type"] == 3]
        dl.check_same_options(choices, offered[:25] if sel else offered)
        check(self.SELECTS or not sel, "a %s prompt came as a select menu: "
              "%r" % (self.title, comps))
        self.stats["compared"] += 1
        if window:
            self.check_window(dm, who, offered)
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
            value = dl.pick(rng, self.WEIGHTS, [{"value": o["value"],
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

    def public_after(self, what):
        """After an answer: every channel message that is new or was
        edited since it was last read is examined; who decides next comes
        from /game status."""
        for m in self.fake.messages(channel=dl.CHANNEL):
            if m["_fake"]["via"] == "channel" and \
                    (m["id"], m["_fake"].get("edits", 0)) not in self.checked:
                self.examine_channel(m, what)
        info = dl.slash(self.fake, self.STATUS_BY, "status")
        status = dl.answer_text(info)
        self.answered.append(info["id"])
        self.follow(status)
        if self.decider is None:
            check(self.is_over(self.state.st), "after %s nobody decides "
                  "and the game is not over: %r" % (what, status))

    def follow(self, text):
        m = WAITING.search(text)
        if m is None:
            self.check_ended(text)
            self.decider = None
            return
        check(m.group(1) in self.MEMBERS, "waiting for %r (only members "
              "are: an AI seat answers at once): %r" % (m.group(1), text))
        self.decider = m.group(1)

    # -- the game ----------------------------------------------------------
    def play(self, rng):
        """Plays to the end: clicks first, then typed answers (a prompt
        of more than 20 options clicked, where those are select menus);
        windows are always answered from the DM; the SIGKILL after KILL_AT
        typed answers."""
        clicks_left, typed = self.FIRST_CLICKS, 0
        killed = False
        while self.decider:
            check(self.stats["moves"] < self.MAX_MOVES, "the game does not "
                  "end")
            if not killed and typed == self.KILL_AT:
                self.kill_mid_move(rng)
                killed = True
                clicks_left = self.AFTER_KILL_CLICKS
                self.hand_command(self.decider,
                                  "/game hand after the restart")
                continue
            choices = self.choices()
            if self.is_window([c["value"] for c in choices]):
                who = self.decider
                value = self.click_move(rng, window=True, choices=choices)
                self.stats["windows"] += 1
                if value == "pass":
                    self.passed[who] += 1
                else:
                    self.used[who] += 1
                continue
            if clicks_left or (self.SELECTS and len(choices) > 20):
                clicks_left = max(0, clicks_left - 1)
                self.click_move(rng, choices=choices)
                continue
            self.slash_move(rng, choices)
            typed += 1
        check(killed, "the game ended before the SIGKILL (%d typed answers)"
              % typed)

    def kill_mid_move(self, rng):
        """SIGKILL with a move in flight, then a restart: every answered
        move is stored once, the one in flight at most once."""
        before = self.refresh()
        opt = dl.pick(rng, self.WEIGHTS, self.choices())
        sent = time.time()
        r, killed = dl.move_then_kill(self.fake, self.bot, self.decider,
                                      opt["value"], rng)
        rows = self.refresh(sent)  # what the killed process left
        info = self.fake.get("/interaction/%s" % r["id"])
        check(rows[:len(before)] == before, "moves changed under the kill")
        applied = len(rows) > len(before)
        check(not applied or rows[len(before)][1] == r["id"],
              "after the kill the moves table holds %r" % rows[len(before):])
        self.check_followers(rows[len(before) + 1:], "after the kill")
        dl.killed_move(info, applied, self.answered, self.lost, self.stats)
        started = time.time()
        self.bot.start()
        dl.wait_buckets(killed)
        # A move the process stored but whose AI answers it did not reach
        # are played by the new process before it reads anything.
        self.refresh(started)
        info = dl.slash(self.fake, self.STATUS_BY, "status")
        self.answered.append(info["id"])
        self.follow(dl.answer_text(info))
        if not applied:
            # Its sender sends it again (so that the game goes on the same
            # whichever way the kill fell).
            self.type_move(opt["value"])

    def finish(self):
        """The end: the stored game, every interaction, every message."""
        fake = self.fake

        def over():  # the channel's edits drain at its rate limit
            for m in fake.messages(channel=dl.CHANNEL):
                if "is over" in dl.message_text(m) and \
                        any(e.get("fields") for e in m.get("embeds") or []):
                    return m
            return None
        end = dl.wait_until(over, 60, "the end in the channel")
        # An earlier turn's last edit may still be behind the rate limit.
        dl.quiet(fake)
        self.over_text = dl.message_text(end)
        for m in fake.messages(channel=dl.CHANNEL):
            if m["_fake"]["via"] == "channel" and \
                    (m["id"], m["_fake"].get("edits", 0)) not in self.checked:
                self.examine_channel(m, "the end")
        rows = self.refresh()
        check(self.is_over(self.state.st), "the state is not over")
        # The end's message shows the final table: every card its fields
        # name is open now.
        table = [e for e in end.get("embeds") or [] if e.get("fields")]
        check(len(table) == 1, "the end's message has no table: %r" % end)
        named = self.cards.names("\n".join(f["name"] + "\n" + f["value"]
                                           for f in table[0]["fields"]))
        check(not named - self.state.public, "the end's table names %s, "
              "which is in a hand or a deck" %
              sorted(named - self.state.public))
        check(self.stats["tables"] > self.MIN_TABLES,
              "only %d turn tables were seen" %
              self.stats["tables"])
        self.check_winner(OVER.search(self.over_text))
        # Every answered move is stored; nothing else was, but the AI
        # seats' answers.
        dl.check_stored(self.answered, self.lost, [
            r for r in rows
            if not (r[2] in self.AI_SEATS and r[1].startswith("ai:"))])
        self.stats["answered"] += dl.check_interactions(fake, self.lost)
        # Every pass a member clicked was told in the channel.
        every = "\n".join(dl.versions_text(m) for m in
                          fake.messages(channel=dl.CHANNEL))
        for who, n in self.passed.items():
            check(self.PASS_TOLD % who in every,
                  "%s passed %d windows; the channel never said so" %
                  (who, n))
        self.finish_checks(every)
        self.private()

    def channel_public(self, m):
        """A channel message (every version of it) shows no private text
        and was examined when it came."""
        text = dl.versions_text(m)
        check(not self.HAND_HEAD.search(text) and "Your turn" not in text,
              "a channel message shows private text: %s" % text)
        check((m["id"], m["_fake"].get("edits", 0)) in self.checked,
              "a channel message was never examined: %s" % text)

    def private_messages(self):
        """Checks every channel message (channel_public) and yields every
        other message, a DM or an ephemeral answer, with its recipient,
        a member."""
        fake = self.fake
        # The messages are read before the DM channels, so that every DM
        # among them is in dm_of.
        messages = fake.messages()
        dm_of = {m["id"]: p for p in self.MEMBERS for m in fake.dms(p)}
        for m in messages:
            if m["channel_id"] == dl.CHANNEL and not m["_fake"]["ephemeral"]:
                self.channel_public(m)
                continue
            who = dl.NAMES.get(m["_fake"]["audience"]) \
                if m["_fake"]["ephemeral"] else dm_of.get(m["id"])
            check(who in self.MEMBERS, "a message to nobody playing: %r" % m)
            yield m, who

    def private(self):
        """Hands went only to their owners, never to a channel; every
        version of every private message names only what its recipient
        could see by then, and a hand it shows is its owner's hand of a
        state the game was in by then."""
        for m, who in self.private_messages():
            for text, at in dl.versions(m):
                past = [s for s in self.states if s.at <= at] or \
                    self.states[:1]
                self.examine_private(text, who, past)
                self.stats["private_versions"] += 1

    def examine_private(self, text, who, past):
        """One version of a private message to who, made when the states
        past had been read."""
        seat = self.seat(who)
        # The moves made by then: those of the answers sent by then.
        n = max(s.n for s in past)
        head = self.HAND_HEAD.search(text)
        if head:
            check(head.group(1) == who, "%s's hand went to %s" %
                  (head.group(1), who))
            listed = self.listed_hand(text, head)
            check(int(head.group(2)) == len(listed) and
                  self.held_by_then(listed, seat, past, n),
                  "%s was shown the hand %r, which they never held by then "
                  "(%d moves made):\n%s" % (who, listed, n, text))
            self.stats["private_hands"] += 1
        # The end's summary and a turn DM's "since your last turn" lines
        # quote earlier turns: what who saw in any of them.
        rows = text.split("\n")
        since = [x for i, x in enumerate(rows) if SUMMARY in text or
                 x.startswith(SINCE) or (i and rows[i - 1].startswith(SINCE))]
        rest = "\n".join(x for x in rows if x not in since)
        leak = self.unseen(self.cards.names(rest) -
                           self.search_offers(text, seat, past), seat,
                           self.turn_of(text), past) | \
            self.unseen(self.cards.names("\n".join(since)), seat, None, past)
        check(not leak, "a message to %s names %s, hidden from them:\n%s"
              % (who, sorted(leak), text))

    def end(self):
        """finish(), then no violation, a clean SIGTERM and the token in
        no log line; returns the fake's stats."""
        self.finish()
        stats = self.fake.no_violations()
        self.bot.stop()
        check(dl.TOKEN not in self.bot.all_stderr(), "the token is in the "
              "log")
        return stats


class Replay:
    """Every state of game 1, the AI seat's answers included: a second
    console table on a database of its own plays the stored moves one by
    one from the same seed, with a person ("robot") in the AI seat's
    place (the rules do not know names), and is dumped after each. The
    bot plays the AI seat's answers right after a member's, so a test
    reads no state between them; this has them. Started when first
    needed, then kept up to date. names: the replay's seats in order
    (seat 1, the AI's, is "robot"); wrap makes a dumped state (a dict)
    what the test keeps."""

    def __init__(self, binary, tmp, kind, seed, names, wrap=lambda st: st):
        self.binary, self.db = binary, os.path.join(tmp, "replay.db")
        self.kind, self.seed, self.names, self.wrap = kind, seed, names, wrap
        self.lair = None
        self.states = []  # the state after seq moves, at index seq

    def start(self):
        self.lair = dl.ll.Lair(self.binary, self.db)
        lines = ["%s> /game new kind:%s" % (self.names[0], self.kind)] + \
            ["%s> /game join" % n for n in self.names[1:]] + \
            ["%s> /game start" % self.names[0]]
        for line in lines:
            out = self.lair.send(line)
            check(not any(m["to"] == "ephemeral" for m in out),
                  "replay: %r refused: %r" % (line, out))
        dl.db_write(self.db, "UPDATE games SET seed = ? WHERE id = 1",
                    (self.seed,))
        dl.db_write(self.db, "DELETE FROM snapshots WHERE game = 1")
        self.lair.restart()
        self.states.append(self.wrap(json.loads(self.lair.dump(1))))

    def upto(self, rows):
        """Plays the stored moves rows (of the bot's database) the replay
        has not played yet; returns the states."""
        if self.lair is None:
            self.start()
        for seq, _, seat, option in rows[len(self.states) - 1:]:
            line = "%s> /game move choice:%s" % (self.names[seat], option)
            out = self.lair.send(line)
            check(not any(m["to"] == "ephemeral" for m in out),
                  "replay of move %d: %r refused: %r" % (seq, line, out))
            self.states.append(self.wrap(json.loads(self.lair.dump(1))))
        return self.states

    def close(self):
        if self.lair is not None:
            self.lair.proc.kill()
            self.lair.proc.wait()
