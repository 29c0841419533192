#!/usr/bin/python3
"""discord_game: three members play a whole Supervillain game through the
fake Discord.

Game #1 (a second channel) is the fixture for big prompts: after its first
answer, while the bot is down (below), the Day's decider is given a hand
of many Minion cards through the game's snapshot (a position with more
than 25 options is rare in play); after the restart the decider pages
through the "Your turn" DM (page buttons) and answers from the second
page's select menu, with their DMs closed: the notice that follows in the
channel has a "Show my hand" button that a non-player's click is refused
on and the decider's shows their own hand.

Game #2 (blitz, the test channel) is played to its end: /game new, join,
start, status and hand; answers clicked on the buttons of the "Your
turn" DM (type 3) while DMs are fresh, then typed as /game move
choice:<id> or choice:<label> with the options taken from autocomplete
(type 4, compared with the DM's components whenever both are at hand).
Mid-game the gateway connection is dropped (fault "drop") with a move
sent during the gap, and later the bot is killed with SIGKILL with a move
in flight and started again. After every answer the full state is read
from the same database (`lair local --json`, `!restart` + `!dump 2`):

- the moves table: request ids unique, seq 0..n-1, every answered move
  stored once, the killed one at most once; the final state is over with
  the winner the channel announced;
- every interaction answered within 3 s (latency and age at the callback,
  no 10062, no 40060), except the one that died with the process;
- privacy: no channel message names a card that is in a hand or a deck
  both before and after the answer it reports (a card played from a hand
  or shuffled back into a deck may be named); hands only in DMs and
  ephemeral replies to their owner, listing exactly that hand;
- a turn's message is an embed in Supervillain's colour whose table has
  a field per player, named after the player; the last one, the end's,
  names no card that is in a hand or a deck at the end;
- a stale button (an older version) gets a clear ephemeral error and
  changes nothing; a non-player's /game start, hand and move are refused;
- after the end, every player's /game stats and a non-player's
  /game leaderboard are ephemeral: one game each, the winner's wins and
  Glicko-2 rating exact, nobody ranked yet (deviations above 110);
- the fake saw no violation and no unexpected 429; SIGTERM ends the bot
  with status 0 and no sanitizer report; the token is in no log line.
"""

import collections
import json
import os
import random
import re
import sys

import discordlib as dl
from discordlib import check

sys.path.insert(0, os.path.join(dl.ROOT, "tests", "local"))
import lairlocal as ll  # noqa: E402
from test_ratings import glicko  # noqa: E402

CHANNEL2 = "1187000000000000201"
PLAYERS = ["alice", "bob", "carol"]
WAITING = re.compile(r"Waiting for (\w+)\.")
COLOUR = 0x8e1b2f  # Supervillain's (engine/games/supervillain/sv.c)
HAND_HEAD = re.compile(r"\*\*Your hand\*\* \((.+?), (\d+) cards?\)")
HAND_LINE = re.compile(r"^- \*\*(.+?)\*\*: Mob ", re.M)
# Answers that move a blitz game on (random play takes ~500 answers).
WEIGHTS = {"mob": 6, "project": 6, "use": 2, "ops": 2, "end": 1,
           "launch": 1, "shoot": 1}
FIRST_CLICKS = 4   # clicked answers while DMs are fresh, after the start
AFTER_KILL_CLICKS = 2
DROP_AT, KILL_AT = 40, 80  # slash answers before the drop / the kill


class Table:
    """What the test knows of game 2: version, decider, the state."""

    def __init__(self, fake, bot, db, local, card):
        self.fake, self.bot, self.db, self.local = fake, bot, db, local
        self.card = card
        self.finder = ll.Names(card)
        self.version = 0
        self.decider = None
        self.answered = []      # ids of the interactions answered
        self.lost = []          # interactions that died with the process
        self.checked = set()    # channel message ids examined
        self.ever_public = set()
        self.stats = collections.Counter()
        self.over_text = None
        self.state = None
        self.public_now = self.public_move = set()

    # -- the truth, from the database --------------------------------------
    def refresh(self):
        """Reads game 2 from the database; the public cards before and
        after are kept (a move's message may name a card that was public
        on either side of it: one played from a hand, or one shuffled
        back into a deck)."""
        self.local.restart()
        old = self.state
        self.state = json.loads(self.local.dump(2))
        before = self.public_now
        self.public_now = {self.card[i]
                           for i, x in enumerate(self.state["where"])
                           if x[0] not in ll.HIDDEN_ZONES}
        self.public_move = self.public_now | before | self.passed_open(old)
        self.ever_public |= self.public_move
        rows = dl.moves_in_db(self.db, 2)
        dl.check_moves(rows, 2)
        self.version = len(rows)
        return rows

    def passed_open(self, old):
        """Cards open only inside the answers since the last read: when
        the Minion discard pile was shuffled into a new deck, a card that
        went from a hand to that deck was played or discarded (open) on
        the way; the rules put no card from a hand into a deck face down."""
        if old is None:
            return set()
        was, now = old["where"], self.state["where"]
        if not any(w[0] == ll.Z_MDISC and n[0] == ll.Z_MDECK
                   for w, n in zip(was, now)):
            return set()
        return {self.card[i] for i, (w, n) in enumerate(zip(was, now))
                if w[0] == ll.Z_HAND and n[0] == ll.Z_MDECK}

    def hand(self, who):
        seat = PLAYERS.index(who)
        return sorted(self.card[i] for i, x in enumerate(self.state["where"])
                      if x[0] == ll.Z_HAND and x[1] == seat)

    # -- privacy -------------------------------------------------------------
    def examine_channel(self, msg, what, moved=True):
        """A channel message names only public cards (moved: of the
        last move, public before or after it)."""
        text = dl.message_text(msg)
        check("Your hand" not in text and "Your turn" not in text,
              "%s: a channel message shows private text:\n%s" % (what, text))
        public = self.public_move if moved else self.public_now
        if any(e.get("title") for e in msg.get("embeds") or []):
            # A turn's message, edited as the turn goes on and as fast as
            # the channel's rate limit lets the edits out: its lines may
            # tell of a card that was open a few moves ago and is hidden
            # now. No line may name a card that was never open.
            public = self.ever_public
        leak = self.finder.find(text) - public
        check(not leak, "%s: a channel message names %s, which is in a hand "
              "or a deck now:\n%s" % (what, sorted(leak), text))
        for e in msg.get("embeds") or []:
            if e.get("fields"):
                check_table(e, what)
                self.stats["tables"] += 1
        self.checked.add(msg["id"])
        self.checked.add((msg["id"], msg.get("_fake", {}).get("edits", 0)))
        self.stats["channel_messages"] += 1

    def examine_private(self, text, who, what):
        head = HAND_HEAD.search(text)
        if head:
            check(head.group(1) == who, "%s: %s was shown %s's hand" %
                  (what, who, head.group(1)))
            listed = sorted(HAND_LINE.findall(text))
            check(listed == self.hand(who) and
                  int(head.group(2)) == len(listed),
                  "%s: %s's hand message lists %r, the hand holds %r" %
                  (what, who, listed, self.hand(who)))
            self.stats["hands"] += 1
        # The end's summary and a turn DM's "since your last turn" lines
        # quote earlier answers: cards open then may be hidden now.
        rows = text.split("\n")
        quoted = [x for i, x in enumerate(rows)
                  if "**Summary of game #" in text or
                  x.startswith("**Since your last turn:**") or
                  (i and rows[i - 1].startswith("**Since your last turn:**"))]
        rest = "\n".join(x for x in rows if x not in quoted)
        leak = (self.finder.find(rest) - self.public_now -
                set(self.hand(who))) | \
            (self.finder.find("\n".join(quoted)) - self.ever_public -
             set(self.hand(who)))
        check(not leak, "%s: a message to %s names %s" % (what, who,
                                                          sorted(leak)))

    # -- moves -----------------------------------------------------------------
    def after_answer(self, info, what):
        """Reads the state after an answer that moved the game."""
        before = self.version
        rows = self.refresh()
        check(self.version == before + 1 and rows[-1][1] == info["id"],
              "%s: the moves table went from %d to %d moves (last request "
              "%s, the interaction was %s)" % (what, before, self.version,
              rows[-1][1] if rows else None, info["id"]))
        self.stats["moves"] += 1

    def slash_move(self, rng, choices, label_ok):
        """Answers with /game move choice:<id or label>."""
        opt = dl.pick(rng, WEIGHTS, choices)
        value = dl.value_or_label(rng, opt, choices, 0.5, self.stats) \
            if label_ok else opt["value"]
        # Answered from the channel: the mover's turn DM, to them alone
        # (its lines are the channel's, examined there, and their own);
        # the channel's turn message is edited.
        info, text = dl.typed_move(self.fake, self.decider, value)
        self.answered.append(info["id"])
        self.after_answer(info, "move %r" % value)
        self.public_after(text, "move %r" % value)

    def follow(self, text):
        if "is over.**" in text:
            self.over_text = text
            self.decider = None
            return
        m = WAITING.search(text)
        check(m and m.group(1) in PLAYERS, "no 'Waiting for' in %r" % text)
        self.decider = m.group(1)

    def choices(self):
        """The decider's autocomplete choices; the others get none."""
        ch = dl.autocomplete(self.fake, self.decider, "move", "choice", "")
        check(ch, "autocomplete offered %s nothing" % self.decider)
        other = [p for p in PLAYERS if p != self.decider]
        if self.stats["moves"] % 50 == 0:
            for p in other:
                dl.check_not_yours(self.fake, p, self.decider)
        self.stats["autocomplete"] += 1
        return ch

    # -- clicks --------------------------------------------------------------
    def prompt_dm(self, game, version, who, timeout=15, after="0"):
        return dl.prompt_dm(self.fake, who, game, version, timeout, after)

    def click_move(self, rng):
        who, v = self.decider, self.version
        dm = self.prompt_dm(2, v, who)
        comps = dl.custom_ids(dm)
        offered = dl.component_options(comps)
        dl.check_same_options(self.choices(), offered[:25])
        self.stats["compared"] += 1
        opt = dl.pick(rng, WEIGHTS, [{"value": o["value"],
                                      "name": o["label"]} for o in offered])
        sel = [c for c in comps if c["type"] == 3]
        if sel:
            info = dl.click(self.fake, who, sel[0]["custom_id"],
                            [opt["value"]], message_id=dm["id"])
            self.stats["select_clicks"] += 1
        else:
            cid = "m:2:%d:%s" % (v, opt["value"])
            info = dl.click(self.fake, who, cid, message_id=dm["id"])
            self.stats["button_clicks"] += 1
        # The clicked DM becomes the turn's DM as it now stands: what was
        # chosen, and the next question's buttons if it is still theirs.
        cb = info["callback"]
        later = [c.get("custom_id", "") for c in
                 dl.custom_ids(cb.get("data") or {})]
        check(cb["type"] == 7 and
              all(re.match(r"^[msp]:2:%d:" % (v + 1), c) for c in later) and
              "You chose: " in dl.message_text(cb.get("data") or {}),
              "a click that answered got %r" % cb)
        self.answered.append(info["id"])
        self.after_answer(info, "click %r" % opt["value"])
        self.public_after("", "click %r" % opt["value"])
        return dm, info

    def public_after(self, text, what):
        """After a move: every channel message that is new or was edited
        since it was last read is examined (the turn's message is edited
        as the turn goes on, as fast as the channel's rate limit lets the
        edits out: the test does not wait for each); who decides next
        comes from /game status, the end from the channel's last turn
        message."""
        for m in self.fake.messages(channel=dl.CHANNEL):
            if m["_fake"]["via"] == "channel" and \
                    (m["id"], m["_fake"].get("edits", 0)) not in self.checked:
                self.examine_channel(m, what)
        info = dl.slash(self.fake, "carol", "status")
        status = dl.answer_text(info)
        if WAITING.search(status):
            self.follow(status)
            return

        check(self.state["over"] == 1, "after %s nobody decides and the "
              "game is not over: %r" % (what, status))
        self.decider = None  # the end's message is read by finish()


def check_table(embed, what):
    """A turn's table: the game's colour, a field per player in seat
    order, each named after its player."""
    fields = embed["fields"]
    check(embed.get("color") == COLOUR,
          "%s: a turn's embed has colour %r" % (what, embed.get("color")))
    check(len(fields) == len(PLAYERS) and
          all(f["name"].startswith(p + ": ") and f["value"]
              for f, p in zip(fields, PLAYERS)),
          "%s: a turn's fields are not one per player: %r" % (what, fields))


def play_fixture_start(fake):
    """Opens game 1 in CHANNEL2 and answers its first prompt with project:
    the decider is then in the Day with a Project."""
    dl.slash(fake, "alice", "new", dl.options(kind="supervillain"),
             channel=CHANNEL2)
    for p in PLAYERS[1:]:
        dl.slash(fake, p, "join", channel=CHANNEL2)
    info = dl.slash(fake, "alice", "start", channel=CHANNEL2)
    who = WAITING.search(dl.answer_text(info)).group(1)
    info = dl.slash(fake, who, "move", dl.options(choice="project"),
                    channel=CHANNEL2)
    check(dl.acted(info), "project refused: %s" % dl.answer_text(info))
    who = WAITING.search(dl.answer_text(dl.slash(
        fake, "alice", "status", channel=CHANNEL2))).group(1)
    return who


def give_big_hand(db, local, who):
    """Moves Minion cards from the deck into who's hand in game 1's
    snapshot (the bot is stopped), so the Day offers more than 25."""
    local.restart()
    st = json.loads(local.dump(1))
    seat = PLAYERS.index(who)
    check(st["current"] == seat and st["phase"] == 4,
          "game 1 is not in %s's Day: %r" % (who, (st["current"],
                                                   st["phase"])))
    held = sum(1 for x in st["where"] if x[0] == ll.Z_HAND and x[1] == seat)
    moved = st["minion_deck"][:20 - held]
    st["minion_deck"] = st["minion_deck"][20 - held:]
    for i in moved:
        st["where"][i] = [ll.Z_HAND, seat, 0, 0, 0, 0, 0, 0]
    return ll.write_snapshot(db, st)


def page_through(fake, t, who, version):
    """The big prompt of game 1: page buttons, then the second page's
    select menu."""
    dms = fake.dms(who)
    info = dl.slash(fake, who, "hand", dl.options(game=1), channel=CHANNEL2)
    check(dl.is_ephemeral(info), "/game hand was not ephemeral")
    dm = t.prompt_dm(1, version, who, after=dms[-1]["id"] if dms else "0")
    comps = dl.custom_ids(dm)
    sel = [c for c in comps if c["type"] == 3]
    nav = {c["label"]: c for c in comps if c["type"] == 2}
    check(len(sel) == 1 and len(sel[0]["options"]) == 25 and
          set(nav) == {"Previous page", "Next page"} and
          nav["Previous page"].get("disabled") and
          not nav["Next page"].get("disabled"),
          "the big prompt's components: %r" % comps)
    choices = dl.autocomplete(fake, who, "move", "choice", "",
                              dl.options(game=1), channel=CHANNEL2)
    check([(c["value"], c["name"]) for c in choices] ==
          [(o["value"], o["label"]) for o in sel[0]["options"]],
          "autocomplete %r is not the first page %r" % (choices,
                                                         sel[0]["options"]))
    info = dl.click(fake, who, nav["Next page"]["custom_id"],
                    message_id=dm["id"])
    cb = info["callback"]
    check(cb["type"] == 7, "Next page answered %r" % cb)
    page = dl.custom_ids(cb["data"])
    sel2 = [c for c in page if c["type"] == 3]
    check(len(sel2) == 1 and sel2[0]["custom_id"] == "s:1:%d:1" % version
          and 1 <= len(sel2[0]["options"]) <= 25,
          "page 2 components: %r" % page)
    first = {o["value"] for o in sel[0]["options"]}
    second = [o["value"] for o in sel2[0]["options"]]
    check(not first & set(second), "page 2 repeats page 1's options")
    check([c["label"] for c in page if c["type"] == 2] ==
          ["Previous page", "Next page"], "page 2 navigation: %r" % page)
    value = second[-1]
    # The decider now refuses DMs: what the answer sends them fails.
    fake.post("/dm_closed", {"user_id": dl.USERS[who]})
    info = dl.click(fake, who, sel2[0]["custom_id"], [value],
                    message_id=dm["id"])
    check(info["callback"]["type"] == 7, "the select on page 2 answered %r"
          % info["callback"])
    rows = dl.moves_in_db(t.db, 1)
    check(len(rows) == version + 1 and rows[-1][1] == info["id"] and
          rows[-1][3] == value,
          "the page-2 answer %s is not stored as move %d: %r" %
          (value, version, rows[-2:]))
    foreign_click(t, who)
    fake.post("/dm_closed", {"user_id": dl.USERS[who], "closed": False})
    return len(first) + len(second)


def foreign_click(t, who):
    """The notice for closed DMs carries a "Show my hand" button in the
    channel: a non-player's click is refused, the player's shows their
    hand to them alone."""
    fake = t.fake

    def notice():
        for m in fake.messages(channel=CHANNEL2):
            if any(c.get("custom_id") == "h:1" for c in dl.custom_ids(m)):
                return m
        return None
    # The click's own answer updates the clicked DM (no DM is sent); the
    # notice comes with the first DM Lair must send who: play on until
    # their next turn's DM.
    for _ in range(80):
        if notice():
            break
        status = dl.answer_text(dl.slash(fake, "alice", "status",
                                         channel=CHANNEL2))
        w = WAITING.search(status)
        if not w:
            break
        ch = dl.autocomplete(fake, w.group(1), "move", "choice", "",
                             channel=CHANNEL2)
        ends = [c for c in ch if c["value"] == "end"]
        dl.slash(fake, w.group(1), "move",
                 dl.options(choice=(ends or ch)[0]["value"]),
                 channel=CHANNEL2)
    m = dl.wait_until(notice, 15, "the closed-DMs notice in the channel")
    text = dl.message_text(m)
    check(dl.USERS[who] in text and not t.finder.find(text) and
          not m["_fake"]["ephemeral"],
          "the notice: %r" % text)
    info = dl.click(fake, "mallory", "h:1", message_id=m["id"])
    check(dl.is_ephemeral(info) and "not playing" in dl.answer_text(info),
          "a non-player's click on Show my hand got %r" % info["callback"])
    t.answered.append(info["id"])
    info = dl.click(fake, who, "h:1", message_id=m["id"])
    head = HAND_HEAD.search(dl.answer_text(info))
    check(dl.is_ephemeral(info) and head and head.group(1) == who,
          "%s's click on Show my hand got %r" % (who, info["callback"]))
    t.answered.append(info["id"])
    t.stats["foreign_refused"] += 1


def stale_click(t, old_dm, old_version):
    """A button of an older version: a clear ephemeral error, no change."""
    comps = dl.custom_ids(old_dm)
    recipient = [p for p in PLAYERS
                 if any(m["id"] == old_dm["id"] for m in t.fake.dms(p))][0]
    before = dl.moves_in_db(t.db, 2)
    c = comps[0]
    values = [c["options"][0]["value"]] if c["type"] == 3 else None
    # The DM was edited since (a turn's DM is kept up to date), so no
    # message carries this button any more; a copy of it can still be
    # clicked (an ephemeral answer's, or one whose edit was lost).
    info = dl.click(t.fake, recipient, c["custom_id"], values,
                    message_id=old_dm["id"], force=True)
    text = dl.answer_text(info)
    check(info["callback"]["type"] == 4 and dl.is_ephemeral(info) and
          "out of date" in text,
          "a stale button (version %d, now %d) got %r" %
          (old_version, t.version, info["callback"]))
    check(dl.moves_in_db(t.db, 2) == before, "a stale click changed moves")
    t.answered.append(info["id"])
    t.stats["stale_refused"] += 1


def run(binary, openapi, tmp):
    rng = random.Random(20240611)
    card = ll.cards(binary)
    # No pictures: this test is the whole game's flow (faults, a kill,
    # privacy of every message), and a picture costs the sanitizer build
    # a tenth of a second; discord_pictures and discord_galactic check the
    # pictures. The bot reads it from its environment.
    os.environ["LAIR_PICTURE_MS"] = "0"
    with dl.processes(binary, openapi, tmp) as (fake, bot, db, local):
        t = Table(fake, bot, db, local, card)

        # Game 1: the fixture's first answer.
        fixture_who = play_fixture_start(fake)

        # Game 2: the lobby, status and hands.
        info = dl.slash(fake, "alice", "new", dl.options(
            kind="supervillain", mode="blitz"))
        check("game #2" in dl.answer_text(info), "not game #2: %s" %
              dl.answer_text(info))
        t.examine_channel(info["original"], "/game new")
        for p in PLAYERS[1:]:
            info = dl.slash(fake, p, "join")
            t.examine_channel(info["original"], "/game join")
        info = dl.slash(fake, "mallory", "start")
        check(dl.is_ephemeral(info) and "Only the player who opened" in
              dl.answer_text(info), "a stranger started the game: %s" %
              dl.answer_text(info))
        info = dl.slash(fake, "alice", "start")
        t.refresh()
        t.examine_channel(info["original"], "/game start")
        t.follow(dl.answer_text(info))
        info = dl.slash(fake, "bob", "status")
        t.examine_channel(info["original"], "/game status", moved=False)
        check(t.decider in dl.answer_text(info), "status names no decider")
        for p in PLAYERS:
            info = dl.slash(fake, p, "hand")
            check(dl.is_ephemeral(info), "/game hand was not ephemeral")
            t.examine_private(dl.answer_text(info), p, "/game hand")
        info = dl.slash(fake, "mallory", "hand")
        check(dl.is_ephemeral(info) and "not playing" in
              dl.answer_text(info), "a stranger's /game hand: %s" %
              dl.answer_text(info))

        # Clicks while DMs are fresh; then a stale button.
        for k in range(FIRST_CLICKS):
            t.click_move(rng)
        # A prompt answered by typing keeps its buttons, now stale.
        old = (t.prompt_dm(2, t.version, t.decider), t.version)
        t.slash_move(rng, t.choices(), label_ok=True)
        stale_click(t, *old)
        info = dl.slash(fake, "mallory", "move", dl.options(choice="end"))
        check(dl.is_ephemeral(info) and "not playing" in
              dl.answer_text(info), "a stranger's move: %s" %
              dl.answer_text(info))

        # Game 2 at speed, with a dropped gateway and a SIGKILL; while the
        # bot is down the fixture gets its big hand, and after the restart
        # its decider pages through the big prompt.
        version1 = None
        n_big = 0

        def while_down():
            nonlocal version1
            version1 = give_big_hand(db, local, fixture_who)

        slash_moves = 0
        clicks_left = 0
        while t.decider:
            if clicks_left and t.version:
                clicks_left -= 1
                t.click_move(rng)
                continue
            if slash_moves == DROP_AT:
                drop_and_move(t, rng)
                slash_moves += 1
                continue
            if slash_moves == KILL_AT:
                kill_mid_move(t, rng, while_down)
                n_big = page_through(fake, t, fixture_who, version1)
                slash_moves += 1
                clicks_left = AFTER_KILL_CLICKS
                info = dl.slash(fake, t.decider, "hand")
                t.examine_private(dl.answer_text(info), t.decider,
                                  "/game hand after the restart")
                continue
            t.slash_move(rng, t.choices(), label_ok=True)
            slash_moves += 1
            check(t.stats["moves"] < 3000, "the game does not end")
        check(n_big > 25 and t.stats["drops"] == 1 and
              t.stats["killed_applied"] + t.stats["killed_lost"] == 1,
              "the game ended before the drop, the kill or the fixture")
        finish(t)
        check_summary(t)
        rated = check_ratings(t)
        stats = fake.no_violations()
        bot.stop()
        check(dl.TOKEN not in bot.all_stderr(), "the token is in the log")
        st = t.stats
        return ("game #2 over after %d moves (%d clicked: %d buttons, %d "
                "selects; %d typed, %d by label), a %d-option prompt paged; "
                "%d interactions answered in time, %d channel messages "
                "checked (%d turn tables), %d hands checked against the state and %d against "
                "their recipient, stale and foreign clicks refused, "
                "gateway resumed, SIGKILL survived, %s, %d REST requests, 0 "
                "violations" % (
                    t.version, st["button_clicks"] + st["select_clicks"],
                    st["button_clicks"], st["select_clicks"],
                    t.version - st["button_clicks"] - st["select_clicks"],
                    st["by_label"], n_big, st["answered"],
                    st["channel_messages"], st["tables"], st["hands"],
                    st["private_hands"], rated, stats["requests"]))


def drop_and_move(t, rng):
    """Drops the gateway's TCP connection and answers during the gap: the
    bot resumes, the event is replayed and answered in time."""
    gw = t.fake.gateway()["counters"]
    choices = t.choices()
    t.fake.fault(kind="drop")
    t.slash_move(rng, choices, label_ok=False)
    after = t.fake.gateway()["counters"]
    check(after.get("resumes", 0) == gw.get("resumes", 0) + 1 and
          after.get("identifies") == gw.get("identifies"),
          "after a drop: %r -> %r" % (gw, after))
    t.stats["drops"] += 1


def kill_mid_move(t, rng, while_down):
    """SIGKILL with a move in flight, then a restart: every answered move
    is stored once, the one in flight at most once."""
    before = t.refresh()
    choices = t.choices()
    opt = dl.pick(rng, WEIGHTS, choices)
    r, killed = dl.move_then_kill(t.fake, t.bot, t.decider, opt["value"],
                                  rng)
    rows = t.refresh()
    info = t.fake.get("/interaction/%s" % r["id"])
    check(rows[:len(before)] == before, "moves changed under the kill")
    applied = len(rows) == len(before) + 1
    check(len(rows) in (len(before), len(before) + 1) and
          (not applied or rows[-1][1] == r["id"]),
          "after the kill the moves table holds %r" % rows[len(before):])
    dl.killed_move(info, applied, t.answered, t.lost, t.stats)
    if info["callback"] is not None and info["original"] and \
            not info["original"]["_fake"]["ephemeral"]:
        t.examine_channel(info["original"], "the move at the kill")
    while_down()
    t.bot.start()
    info = dl.slash(t.fake, "carol", "status")
    t.examine_channel(info["original"], "/game status after the restart",
                      moved=False)
    t.follow(dl.answer_text(info))
    dl.wait_buckets(killed)


def check_ratings(t):
    """After the end: /game stats and /game leaderboard, ephemeral, with
    the game's numbers. The winner beat two new players (1500 ± 200): its
    rating is the Glicko-2 of two wins against them; the others lost to
    it and rank no higher than 1500."""
    winner = [s for s in range(3) if t.state["winners"] >> s & 1]
    check(len(winner) == 1, "winners %r" % winner)
    new = (1500.0, 200.0, 0.06)
    best = glicko(new, [(1500.0, 200.0, 1.0)] * 2)
    for s, p in enumerate(PLAYERS):
        info = dl.slash(t.fake, p, "stats", dl.options(kind="supervillain"))
        text = dl.answer_text(info)
        check(dl.is_ephemeral(info), "/game stats was not ephemeral")
        m = re.search(r"\*\*Supervillain: This Galaxy Is Mine!\*\*: 1 game, "
                      r"(\d) wins? \(\d+%\), rating (\d+) ± (\d+)\.$", text)
        check(m and text.startswith("**Statistics of %s**" % p),
              "%s's /game stats: %r" % (p, text))
        wins, rating = int(m.group(1)), int(m.group(2))
        if s == winner[0]:
            check(wins == 1 and (rating, int(m.group(3))) ==
                  (round(best[0]), round(best[1])),
                  "the winner %s's stats %r, not %.0f ± %.0f" %
                  (p, text, best[0], best[1]))
        else:
            check(wins == 0 and rating <= 1500, "%s lost: %r" % (p, text))
    info = dl.slash(t.fake, "mallory", "leaderboard",
                    dl.options(kind="supervillain"))
    text = dl.answer_text(info)
    check(dl.is_ephemeral(info) and "Nobody yet: 3 players are rated, none "
          "with a deviation below 110." in text,
          "/game leaderboard: %r" % text)
    info = dl.slash(t.fake, "alice", "stats", dm=True)
    check("Ratings are kept per server: ask /game stats in a channel" in
          dl.answer_text(info), "/game stats in a DM: %r" %
          dl.answer_text(info))
    return "rated (%s %.0f ± %.0f)" % (PLAYERS[winner[0]], best[0], best[1])


def finish(t):
    """The end: the stored game, every interaction, every message."""
    fake = t.fake

    def over():  # the channel's edits drain at its rate limit
        texts = [dl.message_text(m) for m in fake.messages(channel=dl.CHANNEL)
                 if "is over.**" in dl.message_text(m)]
        return texts[-1] if texts else None
    t.over_text = dl.wait_until(over, 120, "the end in the channel")
    for m in fake.messages(channel=dl.CHANNEL):
        if m["_fake"]["via"] == "channel":
            t.examine_channel(m, "the end")
    rows = t.refresh()
    check(t.state["over"] == 1, "the state is not over")
    # The end's message shows the final table: every card its fields name
    # is open now.
    end = [m for m in fake.messages(channel=dl.CHANNEL)
           if "is over.**" in dl.message_text(m)][-1]
    table = [e for e in end.get("embeds") or [] if e.get("fields")]
    check(len(table) == 1, "the end's message has no table: %r" % end)
    check_table(table[0], "the end")
    named = t.finder.find("\n".join(f["name"] + "\n" + f["value"]
                                    for f in table[0]["fields"]))
    check(not named - t.public_now, "the end's table names %s, which is in "
          "a hand or a deck" % sorted(named - t.public_now))
    check(t.stats["tables"] > 20, "only %d turn tables were seen" %
          t.stats["tables"])
    winners = [PLAYERS[s] for s in range(3) if t.state["winners"] >> s & 1]
    check(winners and all(w in t.over_text for w in winners),
          "the state's winners %r are not in %r" % (winners, t.over_text))
    # Every answered move is stored; nothing else was stored.
    dl.check_stored(t.answered, t.lost, rows)
    t.stats["answered"] += dl.check_interactions(fake, t.lost)
    # Hands went only to their owners, never to a channel. The bot is
    # still running and the game's last DMs may still be arriving: the
    # messages are read before the DM channels, so that every DM among
    # them is in dm_of.
    messages = fake.messages()
    dm_of = {m["id"]: p for p in PLAYERS for m in fake.dms(p)}
    for m in messages:
        text = dl.message_text(m)
        head = HAND_HEAD.search(text)
        ch = m["channel_id"]
        if ch in (dl.CHANNEL, CHANNEL2) and not m["_fake"]["ephemeral"]:
            check(not head and "Your turn" not in text,
                  "a channel message shows private text: %s" % text)
            if ch == dl.CHANNEL:
                check(m["id"] in t.checked,
                      "a channel message was never examined: %s" % text)
        elif head:
            owner = head.group(1)
            where = dl.NAMES.get(m["_fake"]["audience"]) \
                if m["_fake"]["ephemeral"] else dm_of.get(m["id"])
            check(where == owner, "%s's hand went to %r" % (owner, where))
            t.stats["private_hands"] += 1


LINK = re.compile(r"https://discord\.com/channels/(\d+)/(\d+)/(\d+)")


def check_summary(t):
    """The end's summary: in the channel (an embed of its own with Rematch
    and Export buttons, whose Export runs /game export for the clicker)
    and in each player's DM; every DM about game #2 names it and its
    channel, and their links lead to turn messages of game #2."""
    fake = t.fake

    def summary():
        ms = [m for m in fake.messages(channel=dl.CHANNEL)
              if "**Summary of game #2 " in dl.message_text(m)]
        return ms[-1] if ms else None
    m = dl.wait_until(summary, 120, "the summary in the channel")
    text = dl.message_text(m)
    check(t.over_text and any(w + " win" in text for w in PLAYERS) and
          "**Final table:**" in text and "**Biggest moments**" in text,
          "the summary reads %r" % text)
    buttons = {c.get("label"): c.get("custom_id") for c in dl.custom_ids(m)}
    check(buttons == {"Rematch": "r:2", "Export": "x:2"},
          "the summary's buttons: %r" % buttons)
    info = dl.click(fake, "alice", "x:2", message_id=m["id"])

    def exported():  # a deferred answer, filled in when the record is made
        i = fake.wait(info["id"])
        return i if "The record of game #2" in dl.answer_text(i) else None
    info = dl.wait_until(exported, 15, "the Export button's record")
    check(dl.is_ephemeral(info), "the Export button's record went to the "
          "channel: %r" % dl.answer_text(info))

    def dm_summaries():
        got = {p for p in PLAYERS for d in fake.dms(p)
               if "**Summary of game #2 " in dl.message_text(d)}
        return got if got == set(PLAYERS) else None
    dl.wait_until(dm_summaries, 60, "the summary in each player's DM")
    turns = {x["id"] for x in fake.messages(channel=dl.CHANNEL)
             if any("game #2, turn" in (e.get("title") or "")
                    for e in x.get("embeds") or [])}
    head = "_Game #2 (Supervillain: This Galaxy Is Mine!) in <#%s>_" % \
        dl.CHANNEL
    links = 0
    for p in PLAYERS:
        for d in fake.dms(p):
            text = dl.message_text(d)
            if "Game #2" not in text.split("\n")[0]:
                continue
            check(text.startswith(head + " on Lair Test Server"),
                  "a DM to %s begins %r (the game, its channel and its "
                  "server)" % (p, text[:160]))
            for g, ch, mid in LINK.findall(text.split("\n")[0]):
                check(g == dl.GUILD and ch == dl.CHANNEL and mid in turns,
                      "a DM to %s links to %s/%s/%s, not a turn message of "
                      "game #2" % (p, g, ch, mid))
                links += 1
    check(links >= 5, "only %d DMs link to the table" % links)
    t.stats["dm_links"] = links


if __name__ == "__main__":
    sys.exit(dl.main("discord_game", run))
