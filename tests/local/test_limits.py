#!/usr/bin/env python3
"""local_limits: a channel's games are counted, never listed into a cap.

A moderator raises games_per_channel to its maximum (20) and twenty
members open a lobby each in one channel: every one is accepted and the
21st is refused with the limit in its text. The member whose lobby is the
oldest (beyond the 16 newest, where an earlier cap stopped looking) still
reaches it with commands that name no game, /game list says how many
games it did not show, and a member of no game is asked to say which.
"""

import sys

import lairlocal as ll


def run(binary, tmp):
    lair = ll.Lair(binary, "%s/limits.db" % tmp, 7, mods=("mod",))
    out = lair.send("mod> /gamemod settings key:games_per_channel value:20")
    ll.check(out and out[0]["to"] == "channel", "setting refused: %r" % out)
    members = ["m%02d" % i for i in range(21)]
    for i, m in enumerate(members[:20]):
        out = lair.send("%s> /game new kind:supervillain" % m)
        ll.check(out and out[0]["to"] == "channel" and
                 "opened game #%d" % (i + 1) in out[0]["text"],
                 "lobby %d: %r" % (i + 1, out))
    out = lair.send("%s> /game new kind:supervillain" % members[20])
    ll.check(len(out) == 1 and out[0]["to"] == "ephemeral" and
             "This channel already has 20 open games (the limit is 20)."
             in out[0]["text"], "the 21st lobby: %r" % out)
    out = lair.send("m00> /game status")
    ll.check(len(out) == 1 and "#1" in out[0]["text"] and
             "Several games" not in out[0]["text"],
             "the oldest lobby's opener: %r" % out)
    out = lair.send("m00> /game leave")
    ll.check(out and out[0]["to"] == "channel" and
             "Game #1 closed" in out[-1]["text"],
             "leaving the oldest lobby: %r" % out)
    out = lair.send("m20> /game join")
    ll.check(len(out) == 1 and out[0]["to"] == "ephemeral" and
             "Several games are open here" in out[0]["text"],
             "a join naming no game among 19: %r" % out)
    out = lair.send("m20> /game list")
    ll.check(len(out) == 1 and "(the newest 10 of 20;" in out[0]["text"],
             "/game list: %r" % out)
    lair.close()
    return ("20 lobbies in one channel, the 21st refused; the oldest "
            "reached and closed without naming it; the list says what it "
            "left out")


if __name__ == "__main__":
    sys.exit(ll.main("local_limits", run))
