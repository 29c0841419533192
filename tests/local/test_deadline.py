#!/usr/bin/env python3
"""local_deadline: a deadline is per turn, with escalation after misses.

With a virtual clock (!advance) at the console table:
- a turn of several decisions shares one clock: the AI answers the rest
  of the turn once the turn's time is gone, not a minute before, and a
  !restart in the middle keeps the clock where it was (as does a
  moderator's pause);
- an out-of-turn decision has its own clock, and the turn's player's
  clock stands still meanwhile; when the out-of-turn clock runs out the
  AI answers for that seat only;
- escalation: miss_limit 2 with miss_action ai (the seat is the AI's,
  under the player's name, for the rest of the game) and with forfeit
  (the count starts again when the player answers themself), announced
  and audited, and the player asked back by a rematch;
- forfeit never at the first miss unless miss_limit is 1: a database
  whose server chose deadline_policy forfeit under the old schema is
  migrated to miss_action forfeit at the second miss;
- the half-time warning: by DM with reminders:dm, in the channel
  otherwise, none when muted or off, held by quiet hours until they end,
  and none at all when quiet hours last until the deadline;
- on a German server: the warning by DM in its player's language (German
  or English), the misses and the forfeit in the channel's, the audit
  log in English.
"""

import os
import re
import sqlite3
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lairlocal as ll  # noqa: E402
from lairlocal import send_ok  # noqa: E402


def texts(out, to="channel"):
    return [m["text"] for m in out if m["to"] == to]


def ran_out(out):
    return [t for t in texts(out) if "ran out" in t or "missed" in t]


def warnings(out):
    return [m for m in out if "half your time" in m["text"].lower()]


def moves(db):
    return ll.moves_in_db(db)


def db_rows(db, sql, args=()):
    con = sqlite3.connect("file:%s?mode=ro" % db, uri=True)
    try:
        return con.execute(sql, args).fetchall()
    finally:
        con.close()


def turn_of(lair):
    return __import__("json").loads(lair.dump())["turn"]


def waiting(lair):
    out = lair.send("alice> /game status")
    text = out[0]["text"]
    m = re.search(r"Waiting for (\w+)\.", text)
    ll.check(m, "nobody decides: %r" % out)
    return m.group(1)


def setup(binary, tmp, name, seed, settings, align=False):
    """A 2-player game with the server's settings; align: the bot's clock
    is first moved to 5 minutes past an hour (lair.hour, UTC), so that
    quiet hours, which are real hours, are not crossed by the minutes
    the test takes."""
    db = os.path.join(tmp, name + ".db")
    lair = ll.Lair(binary, db, seed=seed, mods=["mod"])
    if align:
        now = time.time()
        shift = (65 - time.gmtime(now).tm_min) % 60
        if shift:
            lair.send("!advance %dm" % shift)
        lair.hour = time.gmtime(now + shift * 60).tm_hour
    for key, value in settings:
        out = lair.send("mod> /gamemod settings key:%s value:%s" % (key, value))
        ll.check("set %s to %s" % (key, value) in out[0]["text"],
                 "settings %s said %r" % (key, out))
    user, options = ll.open_game(lair, 2)
    return lair, db, user, options


def own_move(options):
    """An answer that keeps the turn going: a project, else a Mob."""
    ids = [o["id"] for o in options]
    if "project" in ids:
        return "project"
    return next((i for i in ids if i.startswith("mob.")), None)


def play_turn(lair, user, options):
    """user plays their own turn to its end (project, then end); returns
    the next prompt."""
    for _ in range(40):
        ids = [o["id"] for o in options]
        pick = "project" if "project" in ids else (
            "end" if "end" in ids else ids[0])
        line = "%s> /game move choice:%s" % (user, pick)
        out = send_ok(lair, line)
        nxt = ll.next_prompt(out)
        ll.check(nxt is not None, "the game ended in a test turn")
        if pick == "end" or nxt[0] != user:
            return nxt
        options = nxt[1]
    raise ll.Fail("%s's turn does not end" % user)


# -- a turn's clock ------------------------------------------------------------

def test_turn_clock(binary, tmp, stats):
    lair, db, p, options = setup(binary, tmp, "turn", 12, (
        ("deadline_hours", "12"), ("reminder_hours", "100")))
    turn = turn_of(lair)
    # Three decisions of p's turn, three hours apart: 9 of 12 hours spent.
    for k in range(3):
        out = lair.send("!advance 3h")
        ll.check(not ran_out(out), "the AI answered after %dh" % (3 * k + 3))
        pick = own_move(options)
        ll.check(pick, "no project or Mob for %s: %r" % (p, options))
        out = send_ok(lair, "%s> /game move choice:%s" % (p, pick))
        nxt = ll.next_prompt(out)
        ll.check(nxt and nxt[0] == p and turn_of(lair) == turn,
                 "%s's turn ended after %d decisions" % (p, k + 1))
        options = nxt[1]
    before = len(moves(db))
    lair.restart()  # the clock is a row: it goes on where it was
    # A moderator's pause stops it, and resuming starts no new one.
    send_ok(lair, "mod> /gamemod pause")
    out = lair.send("!advance 5h")
    ll.check(not ran_out(out), "the clock ran on in a paused game")
    send_ok(lair, "mod> /gamemod resume")
    out = lair.send("!advance 2h58m")
    ll.check(not ran_out(out) and len(moves(db)) == before,
             "the AI answered with a minute of the turn left (a clock per "
             "decision, or a new clock after the restart): %r" % out)
    out = lair.send("!advance 3m")
    ll.check(any("%s's time for this turn of game #1 ran out: the AI plays "
                 "the rest of %s's turn." % (p, p) == t for t in texts(out)),
             "the turn's 12 hours passed silently: %r" % texts(out))
    rows = moves(db)[before:]
    seat = db_rows(db, "SELECT seat FROM seats WHERE game = 1 AND user = ?",
                   (p,))[0][0]
    ll.check(rows and all(r[1].startswith("ai:1:") and r[2] == seat
                          for r in rows) and rows[-1][3] == "end",
             "the AI did not play the rest of %s's turn: %r" % (p, rows))
    ll.check(turn_of(lair) == turn + 1 and waiting(lair) != p,
             "the turn did not pass after the AI played it")
    ll.check(db_rows(db, "SELECT value FROM settings WHERE scope = 'game:1' "
                     "AND key = ?", ("misses:%d" % seat,)) == [("1",)],
             "the missed turn was not counted")
    # /game log says who answered: p's own three decisions plainly, the
    # rest as the AI's for p on the deadline.
    log = [m["text"] for m in lair.send("%s> /game log since:start" % p)
           if m["to"] == "ephemeral"]
    marked = re.findall(r"(?m)^(\d+)\. .*_\(AI for (\w+), deadline\)_$",
                        log[0] if log else "")
    ll.check([int(n) for n, _ in marked] ==
             list(range(before + 1, before + len(rows) + 1)) and
             all(who == p for _, who in marked),
             "the log marks moves %r as the AI's for someone on a deadline; "
             "want %d..%d for %s:\n%s" % (marked, before + 1,
                                          before + len(rows), p,
                                          log[0] if log else log))
    stats["clock"] = len(rows)
    lair.close()


def test_out_of_turn(binary, tmp, stats):
    """Seed 27: bob's Extortion Clerks make alice discard in bob's turn."""
    for absent in ("bob", "alice"):
        lair, db, p, _ = setup(binary, tmp, "oot-" + absent, 27, (
            ("deadline_hours", "12"), ("reminder_hours", "100")))
        ll.check(p == "bob", "seed 27 starts with %s, not bob" % p)
        lair.send("!advance 2h")
        send_ok(lair, "bob> /game move choice:launch.1")
        lair.send("!advance 2h")
        out = send_ok(lair, "bob> /game move choice:ops.c37")
        nxt = ll.next_prompt(out)
        ll.check(nxt and nxt[0] == "alice" and
                 any(o["id"] == "pick.c36" for o in nxt[1]),
                 "Extortion Clerks asked nothing of alice: %r" % (nxt,))
        if absent == "alice":
            # alice's own clock: 12 hours for her out-of-turn decision;
            # bob's stands still at 8 hours left meanwhile.
            out = lair.send("!advance 11h59m")
            ll.check(not ran_out(out), "alice's clock ran out early, or "
                     "bob's ran on during alice's decision: %r" % out)
            lair.restart()
            before = len(moves(db))
            out = lair.send("!advance 2m")
            ll.check(any(t.startswith("alice's time for this turn of game "
                                      "#1 ran out") for t in texts(out)),
                     "alice's out-of-turn clock did not run out: %r" % out)
            rows = moves(db)[before:]
            ll.check(len(rows) == 1 and rows[0][1].startswith("ai:") and
                     rows[0][3].startswith("pick."),
                     "the AI answered %r for alice, not her one discard" %
                     rows)
            ll.check(waiting(lair) == "bob", "bob was not asked again")
            out = lair.send("!advance 7h58m")
            ll.check(not ran_out(out), "bob's clock did not keep its 8 "
                     "hours: %r" % out)
            out = lair.send("!advance 3m")
            ll.check(any(t.startswith("bob's time") for t in texts(out)),
                     "bob's clock did not run out after its 8 hours")
            stats["out_of_turn"] += 1
            lair.close()
            continue
        # alice answers after 5 hours; bob's clock had stopped at 8 left.
        lair.send("!advance 5h")
        lair.restart()
        send_ok(lair, "alice> /game move choice:pick.c36")
        out = lair.send("!advance 1h59m")
        ll.check(not warnings(out), "the warning came before half of "
                 "bob's turn (alice's 5 hours were counted?)")
        out = lair.send("!advance 2m")
        w = warnings(out)
        # The console's clock is the real one moved by !advance: a slow
        # machine's seconds may take the remainder below the full minute.
        ll.check(len(w) == 1 and re.search(
                 r"<@bob>, half your time for this turn of game #1 is gone: "
                 r"decide within 5h 5[89]m", w[0]["text"]),
                 "no half-time warning at 6 of bob's 12 hours: %r" % out)
        before = len(moves(db))
        out = lair.send("!advance 5h57m")
        ll.check(not ran_out(out) and len(moves(db)) == before,
                 "bob's clock ran out early (it ran during alice's "
                 "decision): %r" % texts(out))
        out = lair.send("!advance 3m")
        ll.check(any(t.startswith("bob's time for this turn of game #1 "
                                  "ran out") for t in texts(out)),
                 "bob's turn did not end at its 12 hours: %r" % out)
        ll.check(waiting(lair) == "alice", "alice is not asked after bob's "
                 "turn")
        clocks = db_rows(db, "SELECT seat, turn, data FROM timers WHERE "
                         "game = 1 AND kind = 'deadline'")
        ll.check(clocks == [(0, turn_of(lair), 12 * 3600)],
                 "alice's new turn has no fresh clock: %r" % clocks)
        stats["out_of_turn"] += 1
        lair.close()


# -- escalation ---------------------------------------------------------------

def test_escalation_ai(binary, tmp, stats):
    lair, db, p, options = setup(binary, tmp, "esc-ai", 31, (
        ("deadline_hours", "2"), ("reminder_hours", "100"),
        ("miss_limit", "2"), ("miss_action", "ai")))
    q = "bob" if p == "alice" else "alice"
    out = lair.send("!advance 2h1m")
    ll.check(("%s's time for this turn of game #1 ran out: the AI plays the "
              "rest of %s's turn. That is 1 missed turn in a row; at 2, the "
              "AI plays %s's seat for the rest of the game." % (p, p, p))
             in texts(out), "the first miss said %r" % texts(out))
    user, options = ll.next_prompt(out)
    ll.check(user == q, "%s is not asked after %s's miss" % (q, p))
    user, options = play_turn(lair, q, options)
    ll.check(user == p, "%s is not asked again" % p)
    lair.restart()
    out = lair.send("!advance 2h1m")
    ll.check("%s missed 2 turns in a row; the AI plays %s's seat for the "
             "rest of game #1." % (p, p) in texts(out),
             "the escalation said %r" % texts(out))
    seats = dict(db_rows(db, "SELECT user, name FROM seats WHERE game = 1"))
    ll.check(p not in seats and "%s (AI)" % p in seats.values(),
             "%s's seat is not the AI's under their name: %r" % (p, seats))
    audit = db_rows(db, "SELECT actor, action, detail FROM audit WHERE "
                    "action = 'missed_turns'")
    ll.check(len(audit) == 1 and audit[0][0] == "Lair (miss_limit)" and
             "%s (seat" % p in audit[0][2] and "2 turns" in audit[0][2],
             "the audit log holds %r" % audit)
    # The AI seat plays on its own; only q is asked from now on.
    nxt = ll.next_prompt(out)
    ll.check(nxt and nxt[0] == q, "after the escalation %r decides" % (nxt,))
    user, options = play_turn(lair, q, nxt[1])
    ll.check(user == q, "the AI seat did not play its turn")
    # A rematch asks p back.
    lair.send("mod> /gamemod abort")
    out = lair.send("%s> /game rematch" % q)
    ll.check(any("<@%s>" % p in t and "invited back" in t
                 for t in texts(out)), "the rematch did not invite %s "
             "back: %r" % (p, texts(out)))
    stats["escalations"] += 1
    lair.close()


def test_escalation_forfeit(binary, tmp, stats):
    lair, db, p, options = setup(binary, tmp, "esc-forfeit", 33, (
        ("deadline_hours", "2"), ("reminder_hours", "100"),
        ("miss_limit", "2"), ("miss_action", "forfeit")))
    q = "bob" if p == "alice" else "alice"
    seat = db_rows(db, "SELECT seat FROM seats WHERE game = 1 AND user = ?",
                   (p,))[0][0]
    out = lair.send("!advance 2h1m")
    ll.check(any("That is 1 missed turn in a row; at 2, %s forfeits the game"
                 % p in t for t in texts(out)),
             "the first miss said %r" % texts(out))
    user, options = play_turn(lair, q, ll.next_prompt(out)[1])
    # p plays this turn themself: the count starts again.
    user, options = play_turn(lair, p, options)
    ll.check(db_rows(db, "SELECT value FROM settings WHERE scope = 'game:1' "
                     "AND key = ?", ("misses:%d" % seat,)) == [("0",)],
             "%s's own turn did not reset the count" % p)
    user, options = play_turn(lair, q, options)
    out = lair.send("!advance 2h1m")
    ll.check(any("That is 1 missed turn in a row" in t for t in texts(out))
             and not any("forfeits game" in t for t in texts(out)),
             "a miss after an own turn was not the first again: %r" %
             texts(out))
    user, options = play_turn(lair, q, ll.next_prompt(out)[1])
    out = lair.send("!advance 2h1m")
    ll.check(any(re.match(r"%s missed 2 turns in a row and forfeits game #1: "
                          r"the seat goes to AI \d, and %s can no longer "
                          r"win\.$" % (p, p), t) for t in texts(out)),
             "the forfeit said %r" % texts(out))
    users = [u for (u,) in db_rows(db, "SELECT user FROM seats WHERE "
                                   "game = 1")]
    ll.check(p not in users, "%s still sits in game #1" % p)
    audit = db_rows(db, "SELECT detail FROM audit WHERE action = "
                    "'missed_turns'")
    ll.check(len(audit) == 1 and "forfeited" in audit[0][0],
             "the audit log holds %r" % audit)
    stats["escalations"] += 1
    lair.close()


def test_first_miss_forfeit(binary, tmp, stats):
    # A server that chose deadline_policy forfeit before this Lair: a
    # database of schema version 4, made by hand from a new one.
    db = os.path.join(tmp, "old.db")
    lair = ll.Lair(binary, db, seed=35, mods=["mod"])
    lair.close()
    con = sqlite3.connect(db)
    # Every table a later schema version added goes, whatever they are.
    v4_tables = {"games", "seats", "moves", "snapshots", "settings",
                 "timers", "audit", "requests"}
    for (name,) in con.execute("SELECT name FROM sqlite_master WHERE "
                               "type = 'table'").fetchall():
        if name not in v4_tables:
            con.execute("DROP TABLE %s" % name)
    con.executescript(
        "ALTER TABLE timers DROP COLUMN turn;"
        "ALTER TABLE games DROP COLUMN version;"
        "INSERT INTO settings VALUES('guild:local', 'deadline_policy', "
        "'forfeit'), ('guild:local', 'deadline_hours', '2'), "
        "('guild:local', 'reminder_hours', '100');"
        "PRAGMA user_version = 4;")
    con.close()
    lair = ll.Lair(binary, db, seed=35, mods=["mod"])
    out = lair.send("mod> /gamemod settings key:deadline_policy value:forfeit")
    ll.check(out[0]["to"] == "ephemeral" and "miss_limit" in out[0]["text"]
             and "miss_action" in out[0]["text"],
             "the retired deadline_policy said %r" % out)
    p, _ = ll.open_game(lair, 2)
    out = lair.send("!advance 2h1m")
    ll.check(any("%s's time for this turn of game #1 ran out: the AI plays "
                 "the rest of %s's turn. That is 1 missed turn in a row; at "
                 "2, %s forfeits the game" % (p, p, p) in t
                 for t in texts(out)) and
             not any("can no longer win" in t for t in texts(out)),
             "the first miss under forfeit said %r" % texts(out))
    lair.close()
    # miss_limit 1 with forfeit: the first miss forfeits.
    lair, db, p, _ = setup(binary, tmp, "limit1", 36, (
        ("deadline_hours", "2"), ("reminder_hours", "100"),
        ("miss_limit", "1"), ("miss_action", "forfeit")))
    out = lair.send("!advance 2h1m")
    ll.check(any(t.startswith("%s missed a turn and forfeits game #1" % p)
                 for t in texts(out)), "miss_limit 1 said %r" % texts(out))
    stats["first_miss"] += 2
    lair.close()


# -- warnings -----------------------------------------------------------------

def test_warnings(binary, tmp, stats):
    cases = ("channel", "dm", "off", "mute", "quiet_held", "quiet_all")
    for case in cases:
        lair, db, p, _ = setup(binary, tmp, "warn-" + case, 40, (
            ("deadline_hours", "12"), ("reminder_hours", "100")), align=True)
        h = lair.hour
        if case == "dm":
            lair.send("%s> /prefs set reminders:dm" % p)
        elif case == "off":
            lair.send("%s> /prefs set reminders:off" % p)
        elif case == "mute":
            out = lair.send("%s> /prefs mute" % p)
            ll.check("nor its deadline's warning" in out[0]["text"],
                     "mute said %r" % out)
        elif case == "quiet_held":  # the 6h warning waits until h+8
            lair.send("%s> /prefs set quiet:%d-%d" % (p, (h + 5) % 24,
                                                     (h + 8) % 24))
        elif case == "quiet_all":  # quiet past the deadline: no warning
            lair.send("%s> /prefs set quiet:%d-%d" % (p, (h + 5) % 24,
                                                     (h + 13) % 24))
        out = lair.send("!advance 5h58m")
        ll.check(not warnings(out), "%s: a warning before half time" % case)
        out = lair.send("!advance 3m")
        w = warnings(out)
        if case == "channel":
            ll.check(len(w) == 1 and w[0]["to"] == "channel" and
                     w[0]["text"].startswith("<@%s>, half your time" % p),
                     "channel: %r" % w)
        elif case == "dm":
            ll.check(len(w) == 1 and w[0]["to"] == "dm" and
                     w[0]["user"] == p and "<@" not in w[0]["text"],
                     "dm: the warning came as %r" % w)
        else:
            ll.check(not w, "%s: a warning at half time: %r" % (case, w))
        out = lair.send("!advance 2h")
        w = warnings(out)
        if case == "quiet_held":
            ll.check(len(w) == 1 and w[0]["to"] == "channel" and
                     re.search(r"decide within 3h 5[89]m", w[0]["text"]),
                     "quiet_held: no warning when quiet hours ended: %r" % w)
        else:
            ll.check(not w, "%s: a warning came late: %r" % (case, w))
        out = lair.send("!advance 4h")
        ll.check(not warnings(out) and any(t.startswith("%s's time" % p)
                                           for t in texts(out)),
                 "%s: the deadline: %r" % (case, texts(out)))
        stats["warnings"] += 1
        lair.close()


# -- languages ------------------------------------------------------------------

def test_german(binary, tmp, stats):
    db = os.path.join(tmp, "german.db")
    lair = ll.Lair(binary, db, seed=33, mods=["mod"])
    for key, value in (("language", "de"), ("deadline_hours", "2"),
                       ("reminder_hours", "100"), ("miss_limit", "2"),
                       ("miss_action", "forfeit")):
        lair.send("mod> /gamemod settings key:%s value:%s" % (key, value))
    p, _ = ll.open_game(lair, 2)
    q = "bob" if p == "alice" else "alice"
    out = lair.send("%s> /prefs set language:de reminders:dm" % p)
    ll.check(out[0]["text"].startswith("Deine Einstellungen: Erinnerungen "
                                       "dm,"), "/prefs said %r" % out)
    lair.send("%s> /prefs set reminders:dm" % q)  # and reads English

    def warning(who, then):
        w = [m for m in lair.send("!advance 1h1m") if m["to"] == "dm"]
        ll.check(len(w) == 1 and w[0]["user"] == who and  # under a header
                 re.fullmatch(then, w[0]["text"].split("\n")[-1]),
                 "%s's warning was %r" % (who, w))

    warning(p, r"Die Hälfte deiner Zeit für diesen Zug in Spiel #1 ist um: "
            r"Entscheide innerhalb von 5\d Min\., sonst spielt die KI den "
            r"Rest deines Zugs\.")
    out = lair.send("!advance 1h")
    ll.check(("Die Zeit von %s für diesen Zug in Spiel #1 ist abgelaufen: Die "
              "KI spielt den Rest des Zugs von %s. Das ist der 1. verpasste "
              "Zug in Folge; beim 2. gibt %s das Spiel auf (der Platz geht an "
              "die KI)." % (p, p, p)) in texts(out),
             "the first miss said %r" % texts(out))
    warning(q, r"Half your time for this turn of game #1 is gone: decide "
            r"within 5\dm, or the AI plays the rest of your turn\.")
    lair.send("!advance 1h")
    warning(p, r"Die Hälfte deiner Zeit .* sonst gibst du das Spiel auf \(der "
            r"Platz geht an die KI\)\.")
    out = lair.send("!advance 1h")
    ll.check(any(re.fullmatch(r"%s hat 2 Züge in Folge verpasst und gibt Spiel "
                              r"#1 auf: Der Platz geht an AI \d, und %s kann "
                              r"nicht mehr gewinnen\." % (p, p), t)
                 for t in texts(out)), "the forfeit said %r" % texts(out))
    audit = db_rows(db, "SELECT detail FROM audit WHERE action = "
                    "'missed_turns'")
    ll.check(len(audit) == 1 and "missed 2 turns in a row: forfeited" in
             audit[0][0], "the audit log holds %r" % audit)
    stats["german"] += 1
    lair.close()


def run(binary, tmp):
    stats = {"clock": 0, "out_of_turn": 0, "escalations": 0,
             "first_miss": 0, "warnings": 0, "german": 0}
    test_turn_clock(binary, tmp, stats)
    test_out_of_turn(binary, tmp, stats)
    test_escalation_ai(binary, tmp, stats)
    test_escalation_forfeit(binary, tmp, stats)
    test_first_miss_forfeit(binary, tmp, stats)
    test_warnings(binary, tmp, stats)
    test_german(binary, tmp, stats)
    return ("a turn's clock (the AI played its last %(clock)d answers), "
            "out-of-turn clocks %(out_of_turn)d, escalations %(escalations)d,"
            " first misses under forfeit %(first_miss)d, warning routes "
            "%(warnings)d, German games %(german)d" % stats)


if __name__ == "__main__":
    sys.exit(ll.main("local_deadline", run))
