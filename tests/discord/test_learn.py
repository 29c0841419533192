#!/usr/bin/python3
"""discord_learn: /game help and /game learn through the fake Discord.

- /game help kind:supervillain answers alice alone (ephemeral), within
  2,000 characters, with the index of topics; topic autocomplete offers
  the rules' headings; /game help topic:Asteroids answers alone too;
- /game learn kind:supervillain starts tutorial game #1 at once (a
  public answer), and alice's turn DM (with its buttons) carries one
  hint line naming one of the options its components offer;
- /game learn where Lair may open a thread (threads: auto, its
  permissions allowing) plays the tutorial in a new thread;
- every request passes the fake's openapi.json checks, every
  interaction is answered within 3 s; SIGTERM ends the bot cleanly.
"""

import re

import discordlib as dl
from discordlib import check

CH2 = "1187000000000000230"  # a second channel, where threads may open
HINT = re.compile(r"^Hint: the AI would choose `([^`]+)` \(.*\): .+\.$",
                  re.M)


def run(binary, openapi, tmp):
    with dl.processes(binary, openapi, tmp) as (fake, bot, db, local):
        info = dl.slash(fake, "alice", "help",
                        dl.options(kind="supervillain"))
        text = dl.answer_text(info)
        check(dl.is_ephemeral(info), "/game help was public: %r" % text)
        check(len(text) <= 2000 and "Topics" in text and "Asteroids" in text,
              "/game help kind:supervillain: %r" % text[:300])
        choices = dl.autocomplete(fake, "alice", "help", "topic", "ast",
                                  dl.options(kind="supervillain"))
        check([c["value"] for c in choices] == ["Asteroids"],
              "topic autocomplete: %r" % choices)
        info = dl.slash(fake, "alice", "help",
                        dl.options(kind="supervillain", topic="Asteroids"))
        text = dl.answer_text(info)
        check(dl.is_ephemeral(info) and text.startswith("## Asteroids"),
              "/game help topic:Asteroids: %r" % text[:200])

        info = dl.slash(fake, "alice", "learn",
                        dl.options(kind="supervillain"))
        check(dl.acted(info), "/game learn was refused: %r" %
              dl.answer_text(info))
        row = dl.db_read(db, "SELECT config FROM games WHERE id = 1")
        check(row and '"learn":true' in row[0][0], "config: %r" % row)
        dm = dl.wait_until(
            lambda: next((m for m in reversed(fake.dms("alice"))
                          if HINT.search(dl.message_text(m))), None),
            15, "alice's turn DM with a hint")
        hid = HINT.search(dl.message_text(dm)).group(1)
        offered = [o["value"] for o in
                   dl.component_options(dl.custom_ids(dm))]
        check(offered, "the hinted DM has no components: %r" % dm)
        check(hid in offered,
              "the hint names %s, the DM offers %r" % (hid, offered))
        # Where Lair may open threads (threads: auto), a tutorial gets
        # one, as /game new does.
        info = dl.slash(fake, "bob", "learn", dl.options(kind="galactic"),
                        channel=CH2, app_perms=dl.THREAD_APP_PERMISSIONS)
        check(dl.acted(info), "bob's /game learn was refused: %r" %
              dl.answer_text(info))
        row = dl.db_read(db, "SELECT channel FROM games WHERE id = 2")
        threads = [c["id"] for c in fake.channels(parent=CH2)]
        check(row and threads == [row[0][0]],
              "bob's tutorial went to %r, threads under %s: %r" %
              (row, CH2, threads))
        n = dl.check_interactions(fake)
        fake.no_violations()
        bot.stop()
    return "%d interactions; help ephemeral, the tutorial's DM hints %s" % (
        n, hid)


if __name__ == "__main__":
    raise SystemExit(dl.main("discord_learn", run))
