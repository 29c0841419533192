"""test_async.py: slow games at the console table with a virtual clock.

Reminders (first after reminder_hours, then at growing intervals up to a
cap, never in a burst after downtime, muted for a turn, by DM when a
player prefers, postponed past quiet hours), vacations, lobby expiry, AI
seats playing a game to its end, and the moderator commands (refused to
players, audited, games left in working order) -- across !restart, since
timers live in the database. Deadlines (a turn's clock, missed turns):
test_deadline.py.
"""

import re
import os
import random
import sqlite3
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lairlocal as ll  # noqa: E402


def reminders(out, user):
    return [m for m in out if "waiting for your decision" in m["text"] and
            (m["to"] == "channel" and "<@%s>" % user in m["text"] or
             m["to"] == "dm" and m["user"] == user)]


def waiting_user(lair):
    """Who must answer game 1 now (from a fresh /game status)."""
    out = lair.send("alice> /game status")
    text = out[0]["text"]
    m = re.search(r"Waiting for (\w+)\.", text)
    ll.check(m, "status shows nobody waiting: %r" % out)
    return m.group(1)


def moves(db):
    return len(ll.moves_in_db(db))


def test_reminders(binary, tmp, stats):
    db = os.path.join(tmp, "remind.db")
    lair = ll.Lair(binary, db, seed=11)
    ll.open_game(lair, 2)
    p = waiting_user(lair)
    ll.check(reminders(lair.send("!advance 3h"), p) == [],
             "a reminder came before reminder_hours (4h)")
    r = reminders(lair.send("!advance 61m"), p)
    ll.check(len(r) == 1 and r[0]["to"] == "channel",
             "no channel reminder after 4h: %r" % r)
    lair.restart()  # the next one is a row in the database
    ll.check(reminders(lair.send("!advance 7h"), p) == [],
             "the second reminder came before 4h + 8h")
    ll.check(len(reminders(lair.send("!advance 62m"), p)) == 1,
             "no second reminder after 8 more hours (growing interval)")
    ll.check(reminders(lair.send("!advance 15h"), p) == [],
             "the third reminder came before 16 more hours")
    ll.check(len(reminders(lair.send("!advance 62m"), p)) == 1,
             "no third reminder after 16 more hours")
    # Capped at reminder_cap_hours (24h), and never a burst after downtime.
    ll.check(reminders(lair.send("!advance 23h"), p) == [],
             "the fourth reminder came before the 24h cap")
    ll.check(len(reminders(lair.send("!advance 62m"), p)) == 1,
             "no fourth reminder at the 24h cap")
    burst = reminders(lair.send("!advance 200h"), p)
    ll.check(len(burst) == 1, "200 hours of downtime gave %d reminders, "
             "not 1" % len(burst))
    stats["reminders"] += 6
    # Muted for this turn: silence.
    out = lair.send("%s> /prefs mute" % p)
    ll.check(out and out[0]["to"] == "ephemeral" and
             "No more reminders for this turn" in out[0]["text"],
             "mute said %r" % out)
    ll.check(reminders(lair.send("!advance 300h"), p) == [],
             "a muted turn was reminded")
    # By DM when preferred; the next turn is reminded again.
    lair.send("%s> /game move choice:project" % p)
    lair.send("%s> /game move choice:end" % p)
    q = waiting_user(lair)
    ll.check(q != p, "%s still decides after ending the day" % p)
    lair.send("%s> /prefs set reminders:dm" % q)
    r = reminders(lair.send("!advance 5h"), q)
    ll.check(len(r) == 1 and r[0]["to"] == "dm" and r[0]["user"] == q,
             "no DM reminder for %s: %r" % (q, r))
    lair.close()


def test_quiet_hours(binary, tmp, stats):
    # UTC, and a zone nine hours ahead without summer time: the quiet
    # hours are the player's local ones, so the window moves with the zone.
    for tz, offset in (("UTC", 0), ("Asia/Tokyo", 9)):
        db = os.path.join(tmp, "quiet-%d.db" % offset)
        lair = ll.Lair(binary, db, seed=12)
        ll.open_game(lair, 2)
        p = waiting_user(lair)
        # the reminder falls 4h after the prompt
        h = (time.gmtime().tm_hour + offset) % 24
        # Quiet from 3 to 6 hours from now (local): the 4h reminder is
        # held until quiet hours end.
        out = lair.send("%s> /prefs set tz:%s quiet:%d-%d" %
                        (p, tz, (h + 3) % 24, (h + 6) % 24))
        ll.check("quiet hours %d-%d" % ((h + 3) % 24, (h + 6) % 24) in
                 out[0]["text"], "prefs said %r" % out)
        bad = lair.send("%s> /prefs set tz:Mars/Olympus" % p)
        ll.check(bad[0]["to"] == "ephemeral" and "not a time zone" in
                 bad[0]["text"], "a bad time zone was taken: %r" % bad)
        ll.check(reminders(lair.send("!advance 4h"), p) == [],
                 "a reminder came during quiet hours (%s)" % tz)
        lair.restart()
        ll.check(len(reminders(lair.send("!advance 2h"), p)) == 1,
                 "no reminder once quiet hours ended (%s)" % tz)
        stats["quiet"] += 1
        lair.close()


def test_vacation_and_lobby(binary, tmp, stats):
    db = os.path.join(tmp, "vacation.db")
    lair = ll.Lair(binary, db, seed=14)
    ll.open_game(lair, 2)
    p = waiting_user(lair)
    out = lair.send("%s> /prefs vacation days:2" % p)
    ll.check(any("on vacation for 2 days" in m["text"] for m in out),
             "vacation said %r" % out)
    ll.check(reminders(lair.send("!advance 50h"), p) == [],
             "a reminder came during a vacation")
    ll.check(len(reminders(lair.send("!advance 3h"), p)) == 1,
             "no reminder 4h after the vacation ended")
    out = lair.send("%s> /prefs vacation days:6" % p)
    ll.check(out[0]["to"] == "ephemeral" and "vacation days left" in
             out[0]["text"], "a vacation beyond the allowance: %r" % out)
    # An unstarted lobby closes after lobby_hours (72).
    lair.send("erin> /game new kind:supervillain")  # refused: channel full
    lair.send("mod> /gamemod abort")  # refused: erin is no moderator here
    lair.close()
    db2 = os.path.join(tmp, "lobby.db")
    lair = ll.Lair(binary, db2, seed=15)
    lair.send("alice> /game new kind:supervillain")
    ll.check(not any("closed" in m["text"] for m in lair.send("!advance 71h")),
             "the lobby closed early")
    lair.restart()
    out = lair.send("!advance 2h")
    ll.check(any("closed: nobody started it" in m["text"] for m in out),
             "the lobby did not expire: %r" % out)
    stats["lobbies"] += 1
    lair.close()


def test_ai_seats(binary, tmp, stats):
    db = os.path.join(tmp, "ai.db")
    lair = ll.Lair(binary, db, seed=16)
    lair.send("alice> /game new kind:supervillain ai:3")
    out = lair.send("alice> /game start")
    rng = random.Random(5)
    answers = 0
    while not ll.is_over(out):
        p = ll.next_prompt(out)
        ll.check(p is not None and p[0] == "alice",
                 "only alice should be asked, got %r" % (p,))
        opt = rng.choice(p[1])
        out = lair.send("alice> /game move choice:%s" % opt["id"])
        answers += 1
        ll.check(answers < 3000, "the game does not end")
    stats["ai_games"] += 1
    stats["ai_answers"] = answers
    lair.close()


def test_moderation(binary, tmp, stats):
    db = os.path.join(tmp, "mod.db")
    lair = ll.Lair(binary, db, seed=17, mods=["mod"])
    ll.open_game(lair, 3)
    state = lair.dump()
    for line, name in (("bob> /gamemod pause", "pause"),
                       ("bob> /gamemod resume", "resume"),
                       ("bob> /gamemod replace user:carol", "replace"),
                       ("bob> /gamemod abort", "abort"),
                       ("bob> /gamemod kick user:carol", "kick")):
        out = lair.send(line)
        ll.check(len(out) == 1 and out[0]["to"] == "ephemeral" and
                 out[0]["text"] == "Only moderators can use /gamemod %s (members "
                 "with Manage Server, or the server's mod_role)." % name,
                 "%r said %r" % (line, out))
    ll.check(lair.dump() == state, "a refused command changed the game")
    p = waiting_user(lair)
    lair.send("mod> /gamemod pause")
    out = lair.send("%s> /game move choice:project" % p)
    ll.check(out[0]["text"].startswith("Game #1 (Supervillain: This Galaxy "
                                       "Is Mine!) is paused by a moderator. "
                                       "No moves count until a moderator "
                                       "lets it go on with /gamemod resume"),
             "a move in a paused game: %r" % out)
    ll.check(reminders(lair.send("!advance 50h"), p) == [],
             "a paused game sent reminders")
    lair.send("mod> /gamemod resume")
    # carol's seat to dave, who gets the hand by DM.
    out = lair.send("mod> /gamemod replace user:carol with:dave")
    ll.check(any(m["to"] == "dm" and m["user"] == "dave" and
                 "Your hand" in m["text"] for m in out),
             "the newcomer got no hand: %r" % out)
    # bob leaves (confirmed): the AI plays on; the game keeps working.
    out = lair.send("bob> /game leave")
    ll.check("confirm:yes" in out[0]["text"], "leave asked nothing: %r" % out)
    lair.send("bob> /game leave confirm:yes")
    lair.restart()
    p = waiting_user(lair)
    out = lair.send("%s> /game hand" % p)
    ll.check(out and out[0]["to"] == "ephemeral", "the game broke: %r" % out)
    # games_per_member: a member seated in as many open games as allowed
    # cannot open or join another.
    lair.send("mod> /gamemod settings key:games_per_channel value:5")
    lair.send("mod> /gamemod settings key:games_per_member value:1")
    out = lair.send("alice> /game new kind:supervillain")
    ll.check(len(out) == 1 and out[0]["text"] ==
             "You already sit in 1 open games (the limit is 1). Finish one "
             "first.", "games_per_member was not kept: %r" % out)
    audit = [a for (a,) in sqlite3.connect(db).execute(
        "SELECT action FROM audit ORDER BY id")]
    ll.check(audit[:3] == ["pause", "resume", "replace"],
             "the audit log holds %r" % audit)
    stats["moderation"] += 1
    lair.close()


def run(binary, tmp):
    stats = {"reminders": 0, "quiet": 0, "lobbies": 0,
             "ai_games": 0, "ai_answers": 0, "moderation": 0}
    test_reminders(binary, tmp, stats)
    test_quiet_hours(binary, tmp, stats)
    test_vacation_and_lobby(binary, tmp, stats)
    test_ai_seats(binary, tmp, stats)
    test_moderation(binary, tmp, stats)
    return ("%(reminders)d reminders on time, quiet hours %(quiet)d, "
            "lobby expiry %(lobbies)d, "
            "a 3-AI game finished after %(ai_answers)d human answers, "
            "moderation checks %(moderation)d" % stats)


if __name__ == "__main__":
    sys.exit(ll.main("local_async", run))
