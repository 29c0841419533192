#!/usr/bin/python3
"""discord_shards: gateway sharding through the fake Discord.

Four parts, each with a fake of its own (about 25 s in all):

- one process, LAIR_SHARDS=4, max_concurrency 2: it identifies [0,4] to
  [3,4], each once; shards 0 and 1 (buckets 0 and 1) side by side, 2 and
  3 each at least 5 s after the shard of its bucket before it, every
  bucket in ascending id order (the fake also checks its buckets and
  records no violation); /game new from guilds on shards 1 and 3 and
  /game list from a DM are answered, each arriving on its own shard (the
  bot's log names it; the DM on shard 0); the fake drops shard 2's
  connection and that shard alone resumes (no new Identify, the other
  connections untouched), and a command of shard 2's guild sent in the
  gap is answered in time;
- two processes on one SQLite database, LAIR_SHARDS=2 and LAIR_SHARD_IDS
  0 and 1: each identifies only its shard and answers only the guilds of
  its shard (each guild its own game), and a DM goes to the process of
  shard 0; the fake never had to deliver to a shard without a
  connection;
- LAIR_SHARDS=auto takes the count from GET /gateway/bot (3 there); with
  session_start_limit.remaining 1 (fewer than the shards) the bot says
  so and waits reset_after (2.5 s) before its first Identify;
- every process ends cleanly on SIGTERM, no token in any log.
"""

import os
import re

import discordlib as dl
from discordlib import check

GAP_S = 5.0  # Discord's: one Identify per bucket per 5 s


def guild_on(shard, n):
    """(guild, channel): a guild id Discord puts on shard of n, and a
    text channel of it."""
    top = (int(dl.GUILD) >> 22) // n * n + shard
    return str((top << 22) | 100), str((top << 22) | 200)


def start(binary, fake, db, env, shards):
    """A bot whose shards (a list of ids) are all connected."""
    bot = dl.Bot(binary, fake, db, env=env, wait=False)

    def ready():
        check(bot.proc.poll() is None, "lair exited %s: %s" %
              (bot.proc.returncode, bot.stderr_text()[-3000:]))
        text = bot.stderr_text()
        return all("lair discord: connected (shard %d)" % s in text
                   for s in shards)
    dl.wait_until(ready, 40, "shards %r connected" % shards)
    return bot


def arrived_on(bot, iid):
    """The shard the bot's log says interaction iid arrived on, or None."""
    m = re.search(r"interaction %s arrived on shard (\d+)" % iid,
                  bot.stderr_text())
    return int(m.group(1)) if m else None


def answered(fake, payload, what):
    r = fake.interaction(payload)
    info = fake.wait(r["id"], 5000)
    check(info["callback"] is not None and not info["callback_errors"] and
          info["age_at_callback_ms"] < 3000,
          "%s: %r" % (what, {k: info[k] for k in (
              "callback", "callback_errors", "age_at_callback_ms")}))
    return r, info


def accepted_identifies(fake):
    return [i for i in fake.gateway()["identify_log"] if i["accepted"]]


def check_clean(fake, *bots):
    fake.no_violations()
    for bot in bots:
        bot.stop()


def part_one_process(binary, openapi, tmp):
    fake = dl.Fake(openapi, tmp, "--shards", "4", "--max-concurrency", "2",
                   "--identify-interval-ms", "1000", name="one")
    bot = None
    try:
        bot = start(binary, fake, os.path.join(tmp, "one.db"),
                    {"LAIR_SHARDS": "4"}, range(4))
        ids = accepted_identifies(fake)
        check(sorted((i["shard"], i["shards"]) for i in ids) ==
              [(s, 4) for s in range(4)], "identifies: %r" % ids)
        at = {i["shard"]: i["at"] for i in ids}
        check(abs(at[0] - at[1]) < 1.5,
              "buckets 0 and 1 did not start side by side: %r" % at)
        for lo, hi in ((0, 2), (1, 3)):
            check(at[hi] - at[lo] >= GAP_S - 0.2,
                  "shard %d identified %.2f s after shard %d of its bucket"
                  % (hi, at[hi] - at[lo], lo))
        fake.no_violations("at the start")

        # Commands from guilds on shards 1 and 3 and from a DM.
        for shard in (1, 3):
            guild, channel = guild_on(shard, 4)
            r, info = answered(fake, dl.slash_payload(
                "alice", "new", dl.options(kind="supervillain", seats=2),
                guild=guild, channel=channel), "/game new on shard %d" % shard)
            check(r["shard"] == shard, "dispatched on %r" % r)
            check("opened game" in dl.answer_text(info),
                  "/game new on shard %d: %r" % (shard,
                                                 dl.answer_text(info)))
            check(arrived_on(bot, r["id"]) == shard,
                  "the bot's log does not name shard %d" % shard)
        r, info = answered(fake, dl.slash_payload("alice", "list", dm=True),
                           "/game list in a DM")
        check(r["shard"] == 0 and arrived_on(bot, r["id"]) == 0,
              "a DM arrived elsewhere than on shard 0")

        # Shard 2's connection drops: shard 2 alone resumes.
        state = fake.gateway()
        before = state["counters"].get("resumes", 0)
        others = sorted(c["id"] for c in state["connections"] if c["open"]
                        and c["session_id"] and not any(
                            s["session_id"] == c["session_id"] and
                            s["shard"] == [2, 4] for s in state["sessions"]))
        check(len(others) == 3, "open connections: %r" % others)
        fake.fault(kind="drop", shard=2)
        guild, channel = guild_on(2, 4)
        r, info = answered(fake, dl.slash_payload(
            "bob", "new", dl.options(kind="supervillain", seats=2),
            guild=guild, channel=channel), "/game new in shard 2's gap")
        check(arrived_on(bot, r["id"]) == 2, "not on shard 2")
        dl.wait_until(lambda: fake.gateway()["counters"].get("resumes", 0) >
                      before, 10, "shard 2's resume")
        state = fake.gateway()
        check(state["counters"]["resumes"] == before + 1,
              "more than one resume: %r" % state["counters"])
        check(len(accepted_identifies(fake)) == 4, "a drop led to an Identify")
        still = sorted(c["id"] for c in state["connections"] if c["open"])
        check(all(c in still for c in others),
              "another shard's connection changed: %r -> %r" % (others, still))
        check("shard 2: the connection dropped without a close frame: "
              "resuming" in bot.stderr_text(), "no log line for the drop")
        check_clean(fake, bot)
        bot = None
    finally:
        if bot:
            bot.close()
        fake.stop()
    return "4 shards in one process"


def part_two_processes(binary, openapi, tmp):
    fake = dl.Fake(openapi, tmp, "--shards", "2", "--max-concurrency", "2",
                   "--identify-interval-ms", "1000", name="two")
    db = os.path.join(tmp, "two.db")
    a = b = None
    try:
        a = start(binary, fake, db, {"LAIR_SHARDS": "2",
                                     "LAIR_SHARD_IDS": "0"}, [0])
        b = start(binary, fake, db, {"LAIR_SHARDS": "2",
                                     "LAIR_SHARD_IDS": "1"}, [1])
        ids = accepted_identifies(fake)
        check(sorted(i["shard"] for i in ids) == [0, 1],
              "identifies: %r" % ids)
        check("connected (shard 1)" not in a.stderr_text() and
              "connected (shard 0)" not in b.stderr_text(),
              "a process ran a shard it was not given")
        for bot, shard in ((a, 0), (b, 1)):
            guild, channel = guild_on(shard, 2)
            r, info = answered(fake, dl.slash_payload(
                "carol", "new", dl.options(kind="supervillain", seats=2),
                guild=guild, channel=channel), "/game new on shard %d" % shard)
            check("opened game" in dl.answer_text(info),
                  "shard %d: %r" % (shard, dl.answer_text(info)))
            other = b if bot is a else a
            check(arrived_on(bot, r["id"]) == shard and
                  arrived_on(other, r["id"]) is None,
                  "the guild of shard %d was not served by its process alone"
                  % shard)
            r, info = answered(fake, dl.slash_payload(
                "dave", "join", guild=guild, channel=channel),
                "/game join on shard %d" % shard)
            check(arrived_on(bot, r["id"]) == shard, "join elsewhere")
        r, info = answered(fake, dl.slash_payload("dave", "list", dm=True),
                           "/game list in a DM")
        check(arrived_on(a, r["id"]) == 0 and arrived_on(b, r["id"]) is None,
              "the DM did not go to the process of shard 0")
        games = dl.db_read(db, "SELECT COUNT(*) FROM games")[0][0]
        check(games == 2, "games in the shared database: %r" % games)
        check(fake.gateway()["undelivered"] == [],
              "undelivered: %r" % fake.gateway()["undelivered"])
        check_clean(fake, a, b)
        a = b = None
    finally:
        for bot in (a, b):
            if bot:
                bot.close()
        fake.stop()
    return "2 processes"


def part_auto(binary, openapi, tmp):
    fake = dl.Fake(openapi, tmp, "--shards", "3", "--max-concurrency", "3",
                   "--identify-interval-ms", "1000",
                   "--session-start-remaining", "1",
                   # Room for a slow start: under a loaded CI machine the
                   # bot took more than 2.5 s to ask GET /gateway/bot,
                   # after the limit had reset.
                   "--session-start-reset-ms", "8000", name="auto")
    bot = None
    try:
        bot = start(binary, fake, os.path.join(tmp, "auto.db"),
                    {"LAIR_SHARDS": "auto"}, range(3))
        text = bot.stderr_text()
        check("LAIR_SHARDS=auto: Discord recommends 3 shard(s)" in text,
              "no line about the count: %s" % text[-2000:])
        m = re.search(r"1 more session start\(s\) for now, fewer than the "
                      r"3 shard\(s\) to start: waiting ([0-9.]+) s", text)
        check(m and 0.5 < float(m.group(1)) <= 8.0,
              "no line about session_start_limit: %s" % text[-2000:])
        asked = [q["at"] for q in fake.requests()
                 if q["path"].endswith("/gateway/bot")]
        ids = accepted_identifies(fake)
        check(sorted((i["shard"], i["shards"]) for i in ids) ==
              [(0, 3), (1, 3), (2, 3)], "identifies: %r" % ids)
        first = min(i["at"] for i in ids)
        check(first - asked[-1] >= float(m.group(1)) - 0.15,
              "identified %.2f s after GET /gateway/bot, before reset_after"
              % (first - asked[-1]))
        check_clean(fake, bot)
        bot = None
    finally:
        if bot:
            bot.close()
        fake.stop()
    return "auto"


def run(binary, openapi, tmp):
    done = []
    for part in (part_one_process, part_two_processes, part_auto):
        done.append(part(binary, openapi, tmp))
        print("  ok %s" % done[-1], flush=True)
    return ", ".join(done)


if __name__ == "__main__":
    raise SystemExit(dl.main("discord_shards", run))
