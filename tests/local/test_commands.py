#!/usr/bin/env python3
"""local_commands: the commands are shaped as Discord users expect.

/game for players, /gamemod for moderators, /prefs for oneself; fixed
values are choices accepted in any case; mode completes the modes of the
chosen game; a choice matches ids and labels in any case; choice:? out of
turn says whose turn it is; /game status answers the asker alone unless
public:yes; /game pile lists an open pile in full; a member who reads
German reads them in German, while the channel keeps its language.
"""

import re

import lairlocal as ll

SEED = 34  # alice decides first


def only(out, what):
    ll.check(len(out) == 1, "%s: %d messages: %r" % (what, len(out), out))
    return out[0]


def run(binary, tmp):
    lair = ll.Lair(binary, tmp + "/c.db", SEED, mods=["mod"])
    checks = 0

    # Modes of the chosen game complete, also after a '+'.
    m = only(lair.send("alice> /game new kind:supervillain mode:?"), "mode:?")
    for mode in ("standard", "blitz", "slow", "team", "annihilation"):
        ll.check("- %s (%s)" % (mode, mode) in m["text"],
                 "mode:? lacks %s: %r" % (mode, m["text"]))
    m = only(lair.send("alice> /game new kind:supervillain mode:team+AN?"),
             "mode:team+AN?")
    ll.check("- team+annihilation (team+annihilation)" in m["text"] and
             "blitz" not in m["text"], "mode:team+AN?: %r" % m["text"])
    checks += 2

    # seats is checked against the chosen game.
    m = only(lair.send("alice> /game new kind:supervillain seats:6"),
             "seats:6")
    ll.check("is for 2 to 4 players, not 6" in m["text"], m["text"])
    # Fixed values: listed, any case, the listed spelling kept.
    m = only(lair.send("alice> /game addai level:genius"), "level:genius")
    ll.check(m["text"].startswith("Option 'level' of /game addai takes "
                                  "heuristic or random, not 'genius'."),
             "level:genius: %r" % m["text"])
    m = only(lair.send("alice> /prefs set reminders:DM"), "reminders:DM")
    ll.check("reminders dm," in m["text"], "reminders:DM: %r" % m["text"])
    m = only(lair.send("alice> /prefs show"), "/prefs show")
    ll.check(m["to"] == "ephemeral" and "reminders dm," in m["text"],
             "/prefs show: %r" % m)
    lair.send("alice> /prefs set reminders:channel")
    checks += 4

    # Moderators' commands live under /gamemod, and only there.
    m = only(lair.send("mod> /game abort"), "/game abort")
    ll.check(m["text"].startswith("Unknown command '/game abort'."),
             "/game abort: %r" % m["text"])
    m = only(lair.send("alice> /gamemod list"), "a player's /gamemod list")
    ll.check(m["text"].startswith("Only moderators can use /gamemod list"),
             m["text"])
    m = only(lair.send("mod> /gamemod list"), "/gamemod list")
    ll.check(m["text"] == "This server has no games yet.", m["text"])
    m = only(lair.send("alice> /frob it"), "/frob")
    ll.check(m["text"].startswith("Unknown command '/frob it'. Lair's "
                                  "commands are /game"), m["text"])
    checks += 4

    user, options = ll.open_game(lair, 2)
    ll.check(user == "alice", "seed %d: %s decides first" % (SEED, user))

    # choice:? out of turn says whose turn it is.
    m = only(lair.send("bob> /game move choice:?"), "bob's choice:?")
    ll.check("Not your decision: game #1 waits for alice" in m["text"],
             "bob's choice:?: %r" % m["text"])
    m = only(lair.send("bob> /game move choice:%s" % options[0]["id"]),
             "bob's move")
    ll.check(m["text"].startswith("It is not your decision now. Game #1 "
                                  "(Supervillain: This Galaxy Is Mine!) is "
                                  "running: turn 1, waiting for alice."),
             "bob's move: %r" % m["text"])
    checks += 2

    # /game status: to the asker alone, or posted with public:yes.
    m = only(lair.send("bob> /game status"), "status")
    ll.check(m["to"] == "ephemeral" and m["user"] == "bob" and
             "Waiting for alice." in m["text"], "status: %r" % m)
    m = only(lair.send("bob> /game status public:YES"), "status public")
    ll.check(m["to"] == "channel" and "Waiting for alice." in m["text"],
             "status public:YES: %r" % m)
    checks += 2

    # A label in another case is the same option.
    opt = options[0]
    out = lair.send("alice> /game move choice:%s" % opt["label"].upper())
    ll.check(not any(x["to"] == "ephemeral" for x in out),
             "%r in upper case was refused: %r" % (opt["label"], out))
    checks += 1

    # /game pile: the open piles, and one in full.
    m = only(lair.send("bob> /game pile"), "pile")
    ll.check(m["to"] == "ephemeral" and
             re.search(r"\*\*Minion discard\*\* \(\d+ cards?\)", m["text"]) and
             "**Domination discard**" in m["text"] and
             "/game pile pile:minion_discard" in m["text"], "pile: %r" % m)
    m = only(lair.send("bob> /game pile pile:Minion discard"), "pile in full")
    ll.check(m["to"] == "ephemeral" and
             m["text"].startswith("**Minion discard**"), "pile: %r" % m)
    m = only(lair.send("bob> /game pile pile:hand"), "pile:hand")
    ll.check("has no open pile 'hand'. Its open piles are: minion_discard, "
             "domination_discard." in m["text"], "pile:hand: %r" % m)
    checks += 3

    # In German to a member who reads German: what goes to them alone;
    # what goes to the channel stays in the server's language.
    lair.send("bob> /prefs set language:de")
    m = only(lair.send("bob> /game pile"), "German pile")
    ll.check(re.search(r"\*\*Minion discard\*\* \(\d+ Karten?\)", m["text"])
             and "Liste einen ganz auf mit /game pile pile:minion_discard."
             in m["text"], "German pile: %r" % m["text"])
    m = only(lair.send("bob> /game status"), "German status")
    ll.check(re.match(r"Spiel #1: Es wartet auf \w+\.\n", m["text"]),
             "German status: %r" % m["text"])
    m = only(lair.send("bob> /game status public:yes"), "status posted")
    ll.check(re.match(r"Game #1: Waiting for \w+\.\n", m["text"]),
             "status posted from a German reader: %r" % m["text"])
    m = only(lair.send("bob> /game list"), "German list")
    ll.check(m["text"].startswith("Spiele in diesem Kanal:\n- #1 ") and
             " Züge; alice, bob" in m["text"], "German list: %r" % m["text"])
    checks += 4
    lair.close()
    return "%d command shapes checked" % checks


if __name__ == "__main__":
    raise SystemExit(ll.main("local_commands", run))
