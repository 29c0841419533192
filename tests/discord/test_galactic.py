#!/usr/bin/python3
"""discord_galactic: a whole Galactic Domination game through the fake
Discord, with the pictures of its board.

A member and an AI seat play game #1 (seats in turn order: alice, "AI
2"): /game new kind:galactic by alice, /game join by bob, /game start.
The game's seed is fixed once it has started (SIGTERM, the seed written
into its row while the bot is down, restart): nobody has moved yet, so
the game is set up again from it, and every run places and fights the
same way (the rulebook's D10 roll-off, the dice of an explorer's
re-entry and the spinner all come from it). Then bob leaves the running
game (/game leave confirm:yes): his seat goes to the AI, "AI 2". (An AI
seat of the lobby's would have placed a ship at once had the first
process's roll-off, from a seed nobody knows, made it player 1.)
alice's answers come from a seeded random generator, weighted towards
attacks, builds and the special actions; the heuristic AI answers for
its seat (a game of about 25 turns). The game is then played to its
end:

- alice's answers clicked on her "Your turn" DM's components (buttons,
  or a select menu, paged, for a prompt of more than 20 options) for the
  first answers and after the restart, else typed as /game move
  choice:<id or label> with the options taken from autocomplete
  (compared with the DM's options whenever both are at hand);
- mid-game the bot is killed with SIGKILL with a move in flight and
  started again: every answered move is stored once, the killed one at
  most once (a lost one is sent again, so the game is the same either
  way).

After every answer the state is read from the same database (`lair
local --json`, `!restart` + `!dump 1`), and a second console table
replays the stored moves from the same seed (a person in the AI seat's
place), which must reach the same state: so every state the game passed
through is known, the AI seat's answers included. Checked:

- the moves table: request ids unique, seq 0..n-1, each answer stored at
  the seq it was made for, followed only by the AI seat's answers, every
  answered move stored once; the end announced in the channel with the
  state's winner;
- every interaction answered within 3 s, except the one that died with
  the process;
- Galactic Domination hides nothing (every line the rules told is
  public: the database's lines table holds none for one seat), so what
  is checked is that nothing private goes where it does not belong and
  that what is shown is the board: no channel message carries a DM's
  text (a prompt, "Your fleet", "You chose", option ids); a turn's
  message is an embed in the game's colour (0x2c3e7a) whose table, while
  the turn is current, has a field per seat in seat order, each the
  seat's summary and fleet exactly as one of that turn's states has
  them (lairlocal's GalBoard), and its description that state's phase;
  alice's DMs (every version) hold her fleet exactly as a state the
  game had passed through by then, the turn's public lines, her own
  "You chose: ..." and her own prompt, and her answers (/game status,
  /game board, a move's) the table besides; /game status's table is
  exactly the state's; a DM's edit into the turn's embed leaves no
  earlier version's content above it (Discord keeps what an edit leaves
  out); bob gets no DM once he has left, and autocomplete offers him
  nothing. The first process's messages (bob still seated, the game set
  up from another seed) show the empty board of either roll-off;
- the pictures (Lair draws Galactic Domination: engine/pic/pic.c lists
  it; the test fails if it does not find them): a turn's message that
  shows the table carries one PNG, game-1-turn-T-vV.png for its turn T
  and state version V, shown in the embed as attachment://NAME, drawn
  from the state its table shows (the table of version V is the
  message's), or none and no image (the bot leaves a picture out while
  its files wait behind the rate limits: never an older one); a passed
  turn's message none; /game status carries the picture of the current
  version, or none, and /game board too (at the start, where it must,
  mid-game and at the end); at least MIN_TABLES tables and twice as
  many tables and answers with their picture as without; each picture
  a valid PNG (signature, chunks whose CRCs hold, IHDR first and IEND
  last, IDAT inflating to exactly IHDR's rows) of a sane size; every
  upload was a multipart/form-data request with payload_json and
  files[0], image/png, that the fake accepted after checking it against
  openapi.json (its form, the file, attachments against files, embeds'
  attachment:// images against the attachments). The bot may draw
  every picture here (LAIR_PICTURE_MS=1000, the most it takes: a second
  of drawing a second, which one thread cannot outrun), so that only
  the files' backlog leaves one out;
- every request checked against openapi.json by the fake (no violation,
  no unexpected 429); SIGTERM ends the bot with status 0 and no
  sanitizer report; the token and picture bytes are in no log line.

The seeds give a game of about 95 of alice's answers and 125 of the
AI's: about 50 s in the ASan build.
"""

import collections
import json
import os
import random
import re
import struct
import sys
import time
import zlib

import discordlib as dl
from discordlib import check
import gametable as gt

sys.path.insert(0, os.path.join(dl.ROOT, "tests", "local"))
import lairlocal as ll  # noqa: E402

LOBBY = ["alice", "bob"]  # seats in turn order at the start
PLAYERS = ["alice", "AI 2"]  # and once bob has left his to the AI
MEMBERS = ["alice", "bob"]
KIND, TITLE, COLOUR = "galactic", "Galactic Domination", ll.GAL_COLOUR
# The game's seed (written into its row after the start, while the bot
# is down) and the test's own.
SEED = 7205761
RNG_SEED = 1
# Answers that move the game on: option id prefix -> weight (2 when not
# listed), lairlocal's for the console tests.
WEIGHTS = dict(ll.GAL_WEIGHTS, end=1, done=1)

# A DM's texts (never in the channel).
FLEET = "**Your fleet**\n"
PRIVATE = ("Your turn", "Your fleet", "You chose", "Answer with the "
           "buttons", "Nothing more for you", "\n- `")
QUESTION = re.compile(r"^\*\*Your turn\*\* in game #1: .+$")
OPTION = re.compile(r"^- `[a-z][A-Za-z0-9_.-]*` .+$")
ANSWER = re.compile(r"^Answer with the (?:buttons|menu)")
CHOSE = re.compile(r"^You chose: (?:Place a .+ in [A-Z]\d|Come out in .+|"
                   r"Destroy .+|Act with .+|Build a .+|End your turn|"
                   r"Move to [A-Z]\d|Attack .+|Attach to the planet of .+|"
                   r"Warp into deep space .+|Charge a .+|Fire the .+|"
                   r"Fleet jump to [A-Z]\d|.+ is done)\.$")
NOTHING = re.compile(r"^Nothing more for you this turn of game #1\. "
                     r"Waiting for .+\.$")
SUMMARY = "**Summary of game #"
SINCE = "**Since your last turn:**"
DM_HEADER = re.compile(r"^_Game #\d+ \(.+\) in <#\d+>_ on Lair Test Server"
                       r"( - the table: "
                       r"https://discord\.com/channels/\d+/\d+/\d+)?$")
EARLIER = re.compile(r"^\(\d+ earlier lines?: /game log\)$")
TITLE_LINE = re.compile(r"^Galactic Domination - game #1, turn \d+$")
# The lines of an answer that shows the table (/game status, /game
# board) besides the seats' summaries and fleets.
TABLE_LINE = re.compile(
    r"^(?:Game #1: Waiting for (?:alice|AI 2)\.|"
    r"Game #1 \(Galactic Domination\), turn \d+: .+|"
    r"Round \d+ of 40: (?:alice|AI 2)'s turn\.|"
    r"Placement: (?:alice|AI 2) places a ship\.|"
    r"The game is over: .+\.|Black holes: [A-Z]\d(?:, [A-Z]\d)*|"
    r"An explorer is coming out of deep space \(.+\)\.)$")
SEAT_NAME = re.compile(r"Villain ([1-8])(?!\d)")

PIC_C = os.path.join(dl.ROOT, "engine", "pic", "pic.c")
PIC_NAME = re.compile(r"^game-1-turn-(\d+)-v(\d+)\.png$")
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}  # bytes per pixel by colour type


def pictures_expected():
    """Whether Lair draws Galactic Domination: engine/pic/pic.c's table of
    games with pictures lists it (pic_has)."""
    try:
        with open(PIC_C) as f:
            return re.search(r'\{\s*"galactic"\s*,', f.read()) is not None
    except OSError:
        return False


def png_size(data, what):
    """(width, height) of data, which must be a whole, valid PNG of a size
    a board can be read at."""
    check(data.startswith(PNG_SIGNATURE), "%s: no PNG signature" % what)
    pos, chunks, idat, ihdr = 8, [], b"", None
    while pos < len(data):
        check(pos + 12 <= len(data), "%s: a chunk cut short" % what)
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        crc = data[pos + 8 + length:pos + 12 + length]
        check(len(body) == length and len(crc) == 4 and
              zlib.crc32(kind + body) == struct.unpack(">I", crc)[0],
              "%s: chunk %r has a bad CRC" % (what, kind))
        chunks.append(kind)
        if kind == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    check(chunks and chunks[0] == b"IHDR" and chunks[-1] == b"IEND" and
          b"IDAT" in chunks, "%s: chunks %r" % (what, chunks))
    w, h, depth, colour, _, _, interlace = ihdr
    check(depth == 8 and colour in CHANNELS and interlace == 0 and
          400 <= w <= 4096 and 400 <= h <= 4096,
          "%s: IHDR %r" % (what, ihdr))
    check(len(zlib.decompress(idat)) == h * (1 + w * CHANNELS[colour]),
          "%s: IDAT does not hold %d x %d pixels" % (what, w, h))
    return w, h


class Board:
    """lairlocal's Galactic Domination model (GalBoard); no card names."""

    def __init__(self, binary):
        self.model = ll.card_model(binary, KIND)

    def names(self, text):
        return set()

    def fleet(self, st, seat, names=None):
        """seat's DM fleet block: the summary line, then the fleet (on
        seat's turn and at the end; else only the purse: own_dm)."""
        return "\n".join(self.model.own_dm(st, seat, names or PLAYERS))

    def fields(self, st, names=None):
        """The table's fields of st: [(name, value)] per seat."""
        return [(self.model.summary(st, s, names or PLAYERS),
                 "\n".join(self.model.fleet(st, s)) or "-")
                for s in range(len(PLAYERS))]


class State(gt.State):
    """One !dump of game 1: units on sectors, nothing hidden (no cards)."""

    HAND = None

    def __init__(self, st, cards, at):
        super().__init__(st, at)
        self.inst, self.place, self.public = [], [], set()


class Table(gt.Table):
    """What the test knows of game 1 (gametable's Table): alice and the
    AI seat (bob's until he leaves it), whose answers follow hers at once
    (the states between are the replay's); nothing hidden, so the card
    checks find nothing and the board's own are made instead; no
    windows; the pictures."""

    STATE = State
    PLAYERS, MEMBERS = PLAYERS, MEMBERS
    AI_SEATS = frozenset({1})
    STATUS_BY = "alice"
    WEIGHTS = WEIGHTS
    OTHERS_EVERY = 20
    SELECTS = True
    HAND_HEAD = re.compile(r"\*\*Your fleet\*\*\n(.+?) \(player [12]"
                           r"(?:, (?:Red|Purple))?\): ")
    PASS_TOLD = None  # no windows, no passes
    KILL_AT = 25      # typed answers before the SIGKILL
    MAX_MOVES = 1000
    # alice's ~20 turns give as many tables seen in the channel at least
    # (edits within a turn drain at the channel's rate limit, so how many
    # more depends on the machine's speed); every /game status answer's
    # table is checked exactly besides.
    MIN_TABLES = 12

    def __init__(self, fake, bot, db, local, cards, replay, pictures):
        super().__init__(fake, bot, db, local, cards, kind=KIND, title=TITLE,
                         colour=COLOUR, seed=SEED)
        self.replay = replay
        self.pictures = pictures
        self.before = 0  # the version before the last answer
        self.public_lines = set()  # the rules' lines, names put in
        self.tables = {}  # a state's table lines (table_lines)
        self.stale = []  # DM versions with an older version's content
        self.png = {}  # picture name -> its size, checked once
        self.fleets = {}  # (state's id, seat, names) -> its fleet block
        self.bob_left = None  # when bob's seat went to the AI

    # -- the truth ---------------------------------------------------------
    def refresh(self, at=None):
        """gametable's, and the replay kept up to date: its state after as
        many moves is the bot's."""
        self.before = self.version
        rows = super().refresh(at)
        states = self.replay.upto(rows)
        check(states[len(rows)] == self.state.st, "the replay's state after "
              "%d moves is not the bot's:\nreplay %s\nbot    %s" %
              (len(rows), states[len(rows)], self.state.st))
        self.stats["replayed"] = len(states) - 1
        return rows

    def lines_told(self):
        """The lines of game 1 stored so far, names put in: every one the
        rules told is public (Galactic Domination hides nothing); a seat's
        own are only the echoes of its answers ("You chose: ...")."""
        rows = dl.db_read(self.db, "SELECT seat, text FROM lines WHERE "
                          "game = ?", (gt.GAME,))
        private = [r for r in rows if r[0] != -1 and not CHOSE.match(r[1])]
        check(not private, "lines told to one seat alone: %r" % private[:5])
        self.public_lines = {SEAT_NAME.sub(lambda m: PLAYERS[int(
            m.group(1)) - 1], r[1]) for r in rows if r[0] == -1}
        self.stats["lines_told"] = len(rows)
        return self.public_lines

    def is_over(self, st):
        return st["phase"] == "over"

    def check_ended(self, text):
        check(self.is_over(self.state.st) and
              "The game is over: " in text,
              "no 'Waiting for' in %r" % text)

    def is_window(self, ids):
        """No windows: a collision's loss is an ordinary decision of the
        defender's."""
        return False

    def check_winner(self, said):
        st = self.state.st
        if st["winner"] == 254:
            check(said and said.group(1) == "Nobody",
                  "a draw in the state, the channel: %r" % self.over_text)
            self.stats["winner"] = "nobody (%s)" % st["why"]
        else:
            check(said and said.group(1) == PLAYERS[st["winner"]],
                  "the state's winner %r, the channel: %r" %
                  (PLAYERS[st["winner"]], self.over_text))
            self.stats["winner"] = PLAYERS[st["winner"]]

    # -- the lobby ---------------------------------------------------------
    def seat(self, who):
        """bob played seat 1 until he left it to the AI."""
        return 1 if who == "bob" else PLAYERS.index(who)

    def open_game(self):
        """/game new kind:galactic by alice, /game join by bob, /game
        start; once the first turn's message is out, the seed fixed (the
        rulebook's D10 roll-off made again from SEED: nobody has moved
        yet, both seats being members); then bob leaves the running game
        (/game leave confirm:yes), which hands his seat to the AI ("AI
        2"), the first state read, /game hand by alice, which sends her
        prompt again (the first process's DMs are of the game as set up
        from another seed). An AI seat from the lobby would have moved
        at once when the first process's roll-off made it player 1, under
        a seed the test does not know."""
        fake = self.fake
        info = dl.slash(fake, "alice", "new", dl.options(kind=KIND))
        check("game #%d: %s (" % (gt.GAME, TITLE) in dl.answer_text(info),
              "not a %s game #%d: %s" % (TITLE, gt.GAME,
                                         dl.answer_text(info)))
        self.answered.append(info["id"])
        info = dl.slash(fake, "bob", "join")
        check(dl.acted(info), "bob's join: %s" % dl.answer_text(info))
        self.answered.append(info["id"])
        info = dl.slash(fake, "alice", "start")
        text = dl.answer_text(info)
        check(dl.acted(info) and "Seats in turn order: %s" %
              ", ".join(LOBBY) in text, "/game start: %s" % text)
        self.answered.append(info["id"])
        dl.wait_until(lambda: [m for m in fake.messages(channel=dl.CHANNEL)
                               if self.turn_of(dl.message_text(m))], 15,
                      "the first turn's message")
        check(not dl.moves_in_db(self.db, gt.GAME), "a move before the "
              "seed was fixed")
        self.fix_seed()
        info = dl.slash(fake, "bob", "leave", dl.options(confirm="yes"))
        self.answered.append(info["id"])
        dl.wait_until(lambda: "bob's seat in game #1 goes to AI 2" in
                      dl.channel_text(fake), 10, "bob's seat handed over")
        self.bob_left = time.time()
        self.refresh(0)
        info = dl.slash(fake, "alice", "status")
        self.answered.append(info["id"])
        self.follow(dl.answer_text(info))
        check(self.decider == "alice", "after the start the game waits for "
              "%r" % self.decider)
        self.stats["first"] = PLAYERS[self.state.st["first"]]
        self.hand_command("alice", "/game hand after the seed was fixed")
        for m in fake.messages(channel=dl.CHANNEL):
            if not m["_fake"]["ephemeral"]:
                self.examine_channel(m, "the lobby")

    def choices(self, who=None):
        """gametable's, but the others asked now and then are bob, who
        plays no more: autocomplete offers him nothing to answer."""
        who = who or self.decider
        ch = dl.autocomplete(self.fake, who, "move", "choice", "")
        check(ch, "autocomplete offered %s nothing" % who)
        if self.stats["autocomplete"] % self.OTHERS_EVERY == 0:
            got = dl.autocomplete(self.fake, "bob", "move", "choice", "")
            check(all(c["value"] == "-" for c in got),
                  "autocomplete offered bob, who left, %r" % got)
            self.stats["bob_offered_nothing"] += 1
        self.stats["autocomplete"] += 1
        return ch

    # -- what is shown -----------------------------------------------------
    def fresh(self):
        """The game as set up, player 1 either seat: the first process set
        it up from a seed of its own, whose roll-off SEED's need not
        repeat."""
        st = self.replay.states[0]
        return [dict(st, first=f, active=f) for f in (0, 1)]

    def candidates(self, turn=None, upto=None):
        """The replay's states the game passed through by move upto
        (None: now), of turn (None: any)."""
        states = self.replay.states[:None if upto is None else upto + 1]
        return [s for s in states if turn is None or s["turn"] == turn]

    def examine_channel(self, msg, what):
        """gametable's, then: no DM's text; a current turn's table is one
        of its turn's states exactly (fields and phase), and carries that
        state's picture; a passed turn's message none."""
        super().examine_channel(msg, what)
        text = dl.message_text(msg)
        for x in PRIVATE:
            check(x not in text, "%s: a channel message shows %r, a DM's "
                  "text:\n%s" % (what, x, text))
        for e in msg.get("embeds") or []:
            turn = self.turn_of(e.get("title") or "")
            if turn is None:
                continue
            if not e.get("fields"):
                check(not msg["attachments"] and
                      not (e.get("image") or {}).get("url"),
                      "%s: turn %d's message without a table shows a "
                      "picture: %r" % (what, turn, msg["attachments"]))
                continue
            got = [(f["name"], f["value"]) for f in e["fields"]]
            desc = e.get("description") or ""
            fits = [k for k, st in enumerate(self.replay.states)
                    if st["turn"] == turn and self.cards.fields(st) == got
                    and self.cards.model.headline(st, PLAYERS) in desc]
            if not fits:
                # The first process's: the empty board of a game set up
                # from another seed (its own player 1), bob still seated.
                fits = [0 for st in self.fresh() for names in (LOBBY,
                                                                 PLAYERS)
                        if turn == 1 and self.cards.fields(st, names) ==
                        got and self.cards.model.headline(st, names) in desc]
                self.stats["first_process_tables"] += bool(fits)
            check(fits, "%s: turn %d's table is no state of its turn:\n%s\n"
                  "%r" % (what, turn, desc, got))
            self.stats["tables_exact"] += 1
            if self.pictures:
                self.picture(msg, e, turn, fits, what)

    def check_turn_embed(self, embed, what):
        """gametable's, but a seat's field is named "NAME (player N,
        ZONE): ...": the game's colour, a title with the turn, and while
        the turn is current a field per seat in seat order, named after
        its player (bob in the first process's, before he left)."""
        check(embed.get("color") == self.colour,
              "%s: a turn's embed has colour %r" % (what, embed.get("color")))
        check(re.search(r", turn (\d+)$", embed.get("title", "")),
              "%s: a turn's title %r" % (what, embed.get("title")))
        desc = embed.get("description") or ""
        fields = embed.get("fields") or []
        if "Waiting for" in desc or "is over" in desc:
            check(len(fields) == len(PLAYERS) and any(
                all(f["name"].startswith(p + " (player ") and f["value"]
                    for f, p in zip(fields, names))
                for names in (PLAYERS, LOBBY)),
                  "%s: a turn's fields are not one per player: %r" %
                  (what, [f["name"] for f in fields]))

    def picture(self, msg, embed, turn, versions, what):
        """The message's picture, if it carries one (the bot leaves it out
        while many bytes of files wait behind Discord's rate limits; the
        message then shows none, never an older one): this turn's, of a
        state version whose table the message shows, in its embed, a
        valid PNG."""
        att = msg["attachments"]
        url = (embed.get("image") or {}).get("url")
        if not att:
            check(url is None, "%s: turn %d's embed shows %r, which it "
                  "does not carry" % (what, turn, url))
            self.stats["tables_left_out"] += 1
            return
        check(len(att) == 1, "%s: turn %d's table carries %d pictures: %r" %
              (what, turn, len(att), [a["filename"] for a in att]))
        name = att[0]["filename"]
        m = PIC_NAME.match(name)
        check(m and int(m.group(1)) == turn and att[0]["content_type"] ==
              "image/png", "%s: turn %d's attachment %r" % (what, turn,
                                                           att[0]))
        check(url == "attachment://" + name, "%s: the embed shows %r, not "
              "attachment://%s" % (what, url, name))
        check(int(m.group(2)) in versions, "%s: the picture %s is of "
              "version %s; the table is of version %r" %
              (what, name, m.group(2), versions))
        self.check_png(att[0], what)
        self.stats["table_pictures"] += 1

    def check_png(self, att, what):
        name = att["filename"]
        if name not in self.png:
            data = self.fake.attachment(att["id"])
            check(len(data) == att["size"], "%s: %s has %d bytes, not %d" %
                  (what, name, len(data), att["size"]))
            self.png[name] = png_size(data, "%s: %s" % (what, name))
        return self.png[name]

    def private_lines(self, text, who, states, what, table=False):
        """A DM or ephemeral answer to who: its fleet is who's in one of
        states, every other line the turn's public lines, who's own
        choices, who's prompt or that nothing more is theirs (table: an
        answer that may show the table too, every seat's summary and
        fleet as one of states has them)."""
        seat = self.seat(who)
        if SUMMARY in text:  # the end's summary: checked by discord_game
            return
        rows = text.split("\n")
        head = self.HAND_HEAD.search(text)
        if head:
            check(head.group(1) == who, "%s: %s was shown %s's fleet" %
                  (what, who, head.group(1)))
            start = text.index(FLEET) + len(FLEET)
            block = text[start:].split("\n\n")[0]
            names = LOBBY if who == "bob" else PLAYERS
            check(any(self.fleet(s, seat, names) == block
                      for s in states) or
                  any(self.cards.fleet(s, seat, names) == block
                      for s in self.fresh()),
                  "%s: %s's fleet reads\n%s\nwhich is the fleet of no "
                  "state %s had by then" % (what, who, block, who))
            self.stats["fleets_exact"] += 1
            rows = text[:text.index(FLEET)].split("\n") + \
                text[start + len(block):].split("\n")
        public = None
        shown = set().union(*(self.table_lines(s) for s in states)) \
            if table else ()
        # the game's header (with its link) and the "since your last
        # turn" lines, which quote earlier turns
        since = {x for i, x in enumerate(rows) if x.startswith(SINCE) or
                 (i and rows[i - 1].startswith(SINCE))}
        for x in rows:
            if DM_HEADER.match(x) or x in since:
                self.stats["dm_headers"] += bool(DM_HEADER.match(x))
                continue
            if x in ("", "**This turn:**") or EARLIER.match(x) or \
                    TITLE_LINE.match(x) or \
                    CHOSE.match(x) or QUESTION.match(x) or \
                    OPTION.match(x) or ANSWER.match(x) or NOTHING.match(x):
                continue
            if table and (x in shown or TABLE_LINE.match(x)):
                self.stats["table_lines"] += 1
                continue
            if public is None:
                public = self.public_lines or self.lines_told()
            if x not in public:
                public = self.lines_told()
            check(x in public, "%s: a message to %s holds %r, neither a "
                  "line the rules told nor theirs:\n%s" % (what, who, x,
                                                           text))
            self.stats["private_lines"] += 1

    def fleet(self, st, seat, names):
        """Board.fleet of st, one of the replay's states, kept by it."""
        key = (id(st), seat, names[seat])
        if key not in self.fleets:
            self.fleets[key] = self.cards.fleet(st, seat, names)
        return self.fleets[key]

    def table_lines(self, st):
        """The lines of st's table in an answer: each seat's summary in
        bold and its fleet (st one of the replay's states, kept by it)."""
        key = id(st)
        if key not in self.tables:
            model = self.cards.model
            self.tables[key] = {"**%s**" % model.summary(st, s, PLAYERS)
                                for s in range(len(PLAYERS))} | \
                set(x for s in range(len(PLAYERS))
                    for x in model.fleet(st, s))
        return self.tables[key]

    def examine_hand(self, text, who, what):
        """An answer to who read now: the fleet of a state since the last
        answer, nothing private but who's."""
        self.private_lines(text, who, self.candidates()[self.before:],
                           what)
        if self.HAND_HEAD.search(text):
            self.stats["hands_exact"] += 1

    def private(self):
        """gametable's, but a DM and an ephemeral answer are told apart:
        only an answer may show the table. Every channel message was
        examined and shows no DM's text; every version of every private
        message holds only what private_lines lets it."""
        for m, who in self.private_messages():
            answer = m["_fake"]["ephemeral"]
            hist = m["_fake"]["history"] + [m]
            for k, (text, at) in enumerate(dl.versions(m)):
                h = hist[k]
                if h.get("content") and any(e.get("title") for e in
                                            h.get("embeds") or []):
                    # An edit into an embed that left the content of an
                    # earlier version (checked as that version): the
                    # embed alone is this version's.
                    self.stale.append((who, h["content"][:120], k))
                    text = dl.message_text({"embeds": h["embeds"]})
                n = max([s.n for s in self.states if s.at <= at] or [0])
                self.private_lines(text, who, self.candidates(upto=n),
                                   "a private message", table=answer)
                self.stats["private_versions"] += 1
                self.stats["private_hands"] += bool(
                    self.HAND_HEAD.search(text))
        check(not self.stale, "%d versions of DMs show an earlier version's "
              "content above the turn's embed that replaced it (the edit "
              "sent embeds and left content as it was; Discord keeps what "
              "an edit leaves out): %r" % (len(self.stale), self.stale[:3]))

    # -- after each answer, pictures ------------------------------------------
    def public_after(self, what):
        """gametable's (the channel's new messages examined, the decider
        from /game status), with /game status's table checked against the
        state and its picture, the current version's; now and then /game
        board."""
        fake = self.fake
        for m in fake.messages(channel=dl.CHANNEL):
            if m["_fake"]["via"] == "channel" and \
                    (m["id"], m["_fake"].get("edits", 0)) not in self.checked:
                self.examine_channel(m, what)
        info = dl.slash(fake, self.STATUS_BY, "status")
        status = dl.answer_text(info)
        self.answered.append(info["id"])
        self.follow(status)
        self.status_table(status, what)
        if self.pictures:
            self.status_picture(info, "/game status after %s" % what)
        if self.decider is None:
            check(self.is_over(self.state.st), "after %s nobody decides "
                  "and the game is not over: %r" % (what, status))
        if self.stats["moves"] % 40 == 20:
            self.board("after %s" % what)

    def status_table(self, text, what):
        """/game status: each seat's summary in bold and its fleet, exactly
        as the current state has them."""
        st = self.state.st
        for seat in range(len(PLAYERS)):
            block = "**%s**%s" % (self.cards.model.summary(st, seat, PLAYERS),
                                  "".join("\n" + x for x in
                                          self.cards.model.fleet(st, seat)))
            check("\n\n%s\n" % block in text + "\n",
                  "after %s /game status lacks\n%s\n:\n%s" %
                  (what, block, text))
        self.stats["status_exact"] += 1

    def status_picture(self, info, what, required=False):
        """/game status's (or /game board's) answer: the picture of the
        current version, shown in its embed, or (not required: the bot
        leaves pictures out while its files wait) none and no image."""
        def answer():
            it = self.fake.get("/interaction/%s" % info["id"])
            msg = it.get("original")
            return msg if msg and (msg["attachments"] or not required and
                                   dl.message_text(msg)) else None
        msg = dl.wait_until(answer, 10, "the answer of %s" % what)
        att = msg["attachments"]
        urls = [(e.get("image") or {}).get("url") for e in msg["embeds"]]
        if not att:
            check(not any(urls), "%s shows %r, which it does not carry" %
                  (what, urls))
            self.stats["answers_left_out"] += 1
            return msg
        check(len(att) == 1, "%s carries %d attachments" % (what, len(att)))
        m = PIC_NAME.match(att[0]["filename"])
        check(m and int(m.group(2)) == self.version and
              int(m.group(1)) == self.state.st["turn"],
              "%s shows %s; the game is at turn %d, version %d" %
              (what, att[0]["filename"], self.state.st["turn"],
               self.version))
        check("attachment://" + att[0]["filename"] in urls,
              "%s: no embed shows its picture" % what)
        self.check_png(att[0], what)
        self.stats["answer_pictures"] += 1
        return msg

    def board(self, what):
        """/game board: one line naming the game, the turn and whose
        decision it is (or the end), and the picture."""
        info = dl.slash(self.fake, "alice", "board")
        self.answered.append(info["id"])
        text = dl.answer_text(info)
        check(dl.is_ephemeral(info) and "Game #1 (%s), turn %d" %
              (TITLE, self.state.st["turn"]) in text,
              "%s: /game board said %r" % (what, text))
        if self.pictures:
            self.status_picture(info, "/game board " + what,
                                required=what == "at the start")
        self.stats["boards"] += 1

    def finish_checks(self, every):
        """The lines told were all public; bob got no DM once he had
        left; the game lost ships; the pictures' uploads."""
        self.lines_told()
        for m in self.fake.dms("bob"):
            for text, at in dl.versions(m):
                check(at <= self.bob_left, "bob, who left, got a DM:\n%s" %
                      text)
        lines = set(every.split("\n"))
        for sign, pattern in ll.GAL_SIGNS.items():
            self.stats[sign] = sum(1 for x in lines if pattern.search(x))
        check(self.stats["losses"] > 0, "no ship was lost in the game")
        if not self.pictures:
            return
        # The bot leaves a picture out only while its files wait behind
        # the rate limits (the AI's answers edit the turn's message in a
        # burst): most must come.
        tables = self.stats["table_pictures"]
        answers = self.stats["answer_pictures"]
        check(tables >= self.MIN_TABLES and
              tables >= 2 * self.stats["tables_left_out"] and
              answers >= 2 * self.stats["answers_left_out"],
              "%d turn tables carried their picture and %d did not, %d "
              "answers did and %d did not" % (
                  tables, self.stats["tables_left_out"], answers,
                  self.stats["answers_left_out"]))
        self.uploads()

    def uploads(self):
        """Every request that carried a file was multipart/form-data:
        payload_json listing it as attachment 0 and files[0], a PNG named
        as a picture of game 1, sent as image/png; the fake accepted each
        (it checks each against openapi.json and Discord's rules)."""
        reqs = [r for r in self.fake.requests() if r.get("files")]
        for r in reqs:
            files = r["files"]
            what = "%s %s" % (r["method"], r["path"])
            check((r.get("content_type") or "").startswith(
                "multipart/form-data;") and r["status"] in (200, 204),
                  "%s: %r, answered %s" % (what, r.get("content_type"),
                                           r["status"]))
            check(len(files) == 1 and files[0]["name"] == "files[0]" and
                  PIC_NAME.match(files[0]["filename"] or "") and
                  files[0]["content_type"] == "image/png",
                  "%s: files %r" % (what, files))
            body = r["body"]
            if "type" in body:  # an interaction callback: its data
                body = body.get("data") or {}
            check({"id": "0", "filename": files[0]["filename"]} in
                  (body.get("attachments") or []),
                  "%s: attachments %r" % (what, body.get("attachments")))
            self.stats["uploads"] += 1
        check(self.stats["uploads"] >= self.stats["table_pictures"] / 4,
              "%d uploads for %d pictured tables" %
              (self.stats["uploads"], self.stats["table_pictures"]))


def run(binary, openapi, tmp):
    rng = random.Random(RNG_SEED)
    cards = Board(binary)
    pictures = pictures_expected()
    # No drawing budget to leave pictures out (the default one does by
    # design on a slow sanitizer build): only the files' backlog may. The
    # bot reads it from its environment (lairlocal's sanitizer_env).
    os.environ["LAIR_PICTURE_MS"] = "1000"
    replay = gt.Replay(binary, tmp, KIND, SEED, ["alice", "robot"])
    try:
        with dl.processes(binary, openapi, tmp) as (fake, bot, db, local):
            t = Table(fake, bot, db, local, cards, replay, pictures)
            t.open_game()
            t.board("at the start")
            t.play(rng)
            t.board("at the end")
            stats = t.end()
            check(b"\x89PNG" not in "".join(bot.logs).encode() and
                  "IHDR" not in "".join(bot.logs),
                  "picture bytes in the bot's log")
    finally:
        replay.close()
    st = t.stats
    sizes = collections.Counter("%dx%d" % s for s in t.png.values())
    return (
        "%s: seed %d; over after %d moves (%d the AI's), won by %s; "
        "alice's answers: %d clicked (%d buttons, %d selects, %d paged), "
        "%d typed (%d by label); SIGKILL survived (%s); %d states "
        "replayed equal; %d interactions answered in time; %d channel "
        "messages checked (%d turn tables exact), %d fleets exact, %d "
        "status tables exact, %d private versions checked, %d lines told "
        "(all public; %d builds, %d warps, %d ships lost); %s; %d REST "
        "requests, 0 violations" % (
            KIND, SEED, t.version, st["ai_moves"], st["winner"],
            st["button_clicks"] + st["select_clicks"], st["button_clicks"],
            st["select_clicks"], st["paged"], st["typed"], st["by_label"],
            "the move in flight applied" if st["killed_applied"]
            else "the move in flight lost", st["replayed"], st["answered"],
            st["channel_messages"], st["tables_exact"], st["fleets_exact"],
            st["status_exact"], st["private_versions"], st["lines_told"],
            st["builds"], st["warps"], st["losses"],
            "pictures: %d turn tables and %d answers (%d /game board) "
            "carried theirs (%d and %d left out while files waited), %d "
            "PNGs (%s), %d multipart uploads" % (
                st["table_pictures"], st["answer_pictures"], st["boards"],
                st["tables_left_out"], st["answers_left_out"], len(t.png),
                ", ".join(sorted(sizes)), st["uploads"])
            if pictures else "no pictures expected (engine/pic/pic.c does "
            "not list galactic)", stats["requests"]))


if __name__ == "__main__":
    sys.exit(dl.main("discord_galactic", run))
