#!/usr/bin/python3
"""discord_multi: two Lair processes on one PostgreSQL database serve the
same games from behind one load balancer, while one of them is SIGKILLed
and restarted at random moments.

The fake Discord POSTs every interaction, signed, to one of the two
processes' HTTP endpoints at random (the other when one refuses the
connection: its process is down), as a load balancer in front of
several workers does. Both processes use the same fresh database on the
throwaway server of tools/pg.sh (LAIR_TEST_PG).

1. Four two-player games are opened in four channels, each command
   going to either process.
2. Game 1 is played for CALM_MOVES answers, then MOVES more: before
   each, the decider and its options are asked by autocomplete (either
   process may answer, and must know the latest move whichever process
   made it); the answer is /game move. Each turn of the calm part is one
   channel message, edited by whichever process took each answer (the
   kept message's id is shared through the database). Then, at random
   about one answer in six, a random process is
   SIGKILLed 0-30 ms after the answer is sent, the answer perhaps in
   its hands, and restarted. Every answer that Discord saw acknowledged
   is stored; none is stored twice; the moves are numbered 0..n-1.
3. Every game's turn reminder is made due at once, twice: the second
   time a process is killed 0-6 s later and restarted. Each timer fires
   exactly once (its counter goes up by one and it is armed again, and
   stays so through later ticks of both processes), and no reminder is
   posted twice.
4. `lair check` finds the database sound; the fake saw no violation
   (a 429 counts only when the same connection was told the bucket was
   empty: two processes cannot share what Discord told each).
"""

import os
import random
import subprocess
import sys
import time

import discordlib as dl
from discordlib import check

sys.path.insert(0, os.path.join(dl.ROOT, "tests"))
import pg_db  # noqa: E402

PLAYERS = ("alice", "bob")
CHANNELS = (dl.CHANNEL, "1187000000000000231", "1187000000000000232",
            "1187000000000000233")
CALM_MOVES = 24  # answers before the kills begin
MOVES = 40
KILL_EVERY = 6  # about one answer in this many is followed by a SIGKILL
TIMER_WAIT = 25  # s: a worker tick (5 s), a restart, the message's way


def sql(url, query):
    """The rows of query on the database of url, as tuples of text."""
    out = subprocess.run([pg_db._psql(), "-X", "-q", "-t", "-A", "-d", url,
                          "-c", query], capture_output=True, text=True,
                         timeout=60)
    check(out.returncode == 0, "psql %r: %s" % (query, out.stderr))
    return [tuple(line.split("|")) for line in out.stdout.splitlines()
            if line]


def serving(bot, timeout=60):
    dl.wait_until(lambda: check(bot.proc.poll() is None, "lair exited %s: %s"
                                % (bot.proc.returncode, bot.stderr_text()))
                  or "interactions over HTTP)" in bot.stderr_text(),
                  timeout, "the restarted bot's HTTP endpoint")


def restart(bot, stats):
    """SIGKILLs bot and starts it again on the same port and database."""
    bot.kill()
    stats["kills"] += 1
    bot.start(wait=False)
    serving(bot)


def settle(fake, iid, timeout=15):
    """The fake's record of interaction iid once it is answered, or its
    process died holding it, or it was never delivered."""
    def done():
        it = fake.get("/interaction/%s" % iid)
        if it["callback"] is not None or it["http_lost"] or \
                it["http_status"] not in (None, 200):
            return it
        return None
    return dl.wait_until(done, timeout, "interaction %s to settle" % iid)


def send(fake, who, sub, opts=None, channel=dl.CHANNEL):
    r = fake.interaction(dl.slash_payload(who, sub, opts, channel=channel))
    return settle(fake, r["id"])


def must_act(info, what):
    check(info["callback"] is not None, "%s: no answer" % what)
    check(dl.acted(info), "%s was refused: %s" % (what, dl.answer_text(info)))


def decider(fake, game, channel):
    """(who, [option ids]) of game's current decision, asked by
    autocomplete of whichever process the balancer picks."""
    for _ in range(3):
        for who in PLAYERS:
            p = dl.slash_payload(who, "move", dl.options(game=game),
                                 channel=channel)
            p["type"] = 4
            p["data"]["options"][0]["options"].append(
                {"name": "choice", "value": "", "focused": True})
            info = settle(fake, fake.interaction(p)["id"])
            cb = info["callback"]
            # Not the decider: one entry "-" that says whose it is.
            values = [c["value"] for c in (cb or {}).get("data", {}).get(
                "choices", []) if c["value"] != "-"] \
                if cb and cb["type"] == 8 else []
            if values:
                return who, values
    check(False, "nobody has a decision in game %d" % game)


def open_games(fake):
    for n, channel in enumerate(CHANNELS, 1):
        info = send(fake, "alice", "new", dl.options(kind="supervillain"),
                    channel=channel)
        must_act(info, "/game new in channel %d" % n)
        check("opened game #%d" % n in dl.answer_text(info),
              "the game in channel %d: %r" % (n, dl.answer_text(info)))
        must_act(send(fake, "bob", "join", channel=channel),
                 "bob's join of game %d" % n)
        must_act(send(fake, "alice", "start", channel=channel),
                 "the start of game %d" % n)


def play(fake, bots, url, rng, stats, moves, kills=True):
    """Plays game 1 for `moves` answers, with kills if kills; returns
    (acknowledged, lost) move ids."""
    answered, lost = [], []
    for k in range(moves):
        who, choices = decider(fake, 1, dl.CHANNEL)
        value = rng.choice(choices)
        r = fake.interaction(dl.slash_payload(who, "move",
                                              dl.options(choice=value)))
        if kills and rng.randrange(KILL_EVERY) == 0:
            time.sleep(rng.uniform(0, 0.03))
            victim = rng.choice(bots)
            restart(victim, stats)
        info = settle(fake, r["id"])
        stored = bool(sql(url, "SELECT 1 FROM moves WHERE request = '%s'" %
                          r["id"]))
        if info["callback"] is None:
            lost.append(r["id"])
            stats["lost_with_a_process"] += 1
            stats["lost_but_stored"] += stored
            continue
        check(dl.acted(info), "answer %d (%r by %s) was refused: %s" %
              (k + 1, value, who, dl.answer_text(info)))
        check(stored, "answer %d was acknowledged but is not stored" %
              (k + 1))
        answered.append(r["id"])
        stats["by_" + str(info["http_url"]).split(":")[2].split("/")[0]] \
            += 1
    return answered, lost


def turn_posts(fake):
    """{turn message title: how many messages carry it} in game 1's
    channel."""
    out = {}
    for m in fake.messages(channel=dl.CHANNEL):
        title = ((m.get("embeds") or [{}])[0]).get("title") or ""
        if m["_fake"]["via"] == "channel" and ", turn " in title:
            out[title] = out.get(title, 0) + 1
    return out


def check_one_message_per_turn(fake):
    """Each turn of game 1 so far is one channel message, edited as the
    turn went on, whichever process made each answer."""
    posts = turn_posts(fake)
    twice = {t: n for t, n in posts.items() if n > 1}
    check(posts and not twice, "turns posted more than once: %r" % twice)
    return len(posts)


def check_moves(url, answered, lost):
    rows = sql(url, "SELECT seq, request FROM moves WHERE game = 1 "
               "ORDER BY seq")
    check([int(r[0]) for r in rows] == list(range(len(rows))),
          "game 1's moves are not numbered 0..n-1")
    reqs = [r[1] for r in rows]
    check(len(set(reqs)) == len(reqs), "a request was stored twice")
    missing = [i for i in answered if i not in set(reqs)]
    check(not missing, "acknowledged answers not stored: %r" % missing)
    extra = set(reqs) - set(answered) - set(lost)
    check(not extra, "moves stored for no answer sent: %r" % extra)
    count = sql(url, "SELECT moves FROM games WHERE id = 1")[0][0]
    check(int(count) == len(rows), "game 1 counts %s moves, has %d" %
          (count, len(rows)))
    return len(rows)


def reminders(fake, game, after):
    needle = "game #%d is waiting for your decision" % game
    return [m for m in fake.messages(channel=CHANNELS[game - 1])
            if m["_fake"]["via"] == "channel" and int(m["id"]) > after and
            needle in dl.message_text(m)]


def last_message_id(fake):
    ids = [int(m["id"]) for c in CHANNELS for m in fake.messages(channel=c)]
    return max(ids) if ids else 0


def fire_reminders(fake, bots, url, rng, stats, kill):
    """Makes every game's turn reminder due at once (with a kill while
    they fire when kill); each fires exactly once."""
    before = {int(g): int(d) for g, d in sql(
        url, "SELECT game, data FROM timers WHERE kind = 'remind'")}
    check(sorted(before) == [1, 2, 3, 4],
          "the games' turn reminders: %r" % before)
    mark = last_message_id(fake)
    now = int(time.time())
    sql(url, "UPDATE timers SET due = %d WHERE kind = 'remind'" % now)
    if kill:
        time.sleep(rng.uniform(0, 6))
        restart(rng.choice(bots), stats)

    def fired():
        rows = sql(url, "SELECT game, data, due FROM timers "
                   "WHERE kind = 'remind'")
        return len(rows) == 4 and all(
            int(d) > before[int(g)] and int(due) > now + 60
            for g, d, due in rows) and rows
    dl.wait_until(fired, TIMER_WAIT, "every reminder to fire")
    time.sleep(6)  # another tick of both processes: nothing fires again
    rows = sql(url, "SELECT game, data, due FROM timers WHERE kind = 'remind'")
    for g, d, _ in rows:
        check(int(d) == before[int(g)] + 1,
              "game %s's reminder fired %d times" %
              (g, int(d) - before[int(g)]))
    posted = 0
    for game in range(1, 5):
        n = len(reminders(fake, game, mark))
        check(n <= 1, "game %d's reminder was posted %d times" % (game, n))
        posted += n
    stats["timers_fired"] += 4
    stats["reminders_posted"] += posted


def run(binary, openapi, tmp):
    if not pg_db.server():
        if os.environ.get("LAIR_TEST_PG_REQUIRED"):
            check(False, "LAIR_TEST_PG is not set, but tools/test.sh said "
                  "PostgreSQL would be there")
        return "skipped: LAIR_TEST_PG is not set (tools/test.sh sets it)"
    with pg_db.fresh() as url:
        return scenario(binary, openapi, tmp, url)


def scenario(binary, openapi, tmp, url):
    rng = random.Random(int(os.environ.get("LAIR_TEST_SEED", "17")))
    fake = dl.Fake(openapi, tmp, "--several-clients")
    bots = [dl.Bot(binary, fake, url, http=True, wait=False)
            for _ in range(2)]
    for b in bots:
        serving(b)
    st, obj = fake.call("POST", "/endpoint",
                        {"urls": [b.endpoint for b in bots]})
    check(st == 200, "the fake refused the endpoints: %r" % (obj,))
    stats = {k: 0 for k in ("kills", "lost_with_a_process", "lost_but_stored",
                            "timers_fired", "reminders_posted")}
    for b in bots:
        stats["by_%d" % b.http_port] = 0
    open_games(fake)
    answered, lost = play(fake, bots, url, rng, stats, CALM_MOVES, False)
    turns = check_one_message_per_turn(fake)
    more, lost = play(fake, bots, url, rng, stats, MOVES)
    answered += more
    n = check_moves(url, answered, lost)
    fire_reminders(fake, bots, url, rng, stats, kill=False)
    fire_reminders(fake, bots, url, rng, stats, kill=True)
    out = subprocess.run([binary, "check"], env=dict(
        dl.sanitizer_env(), LAIR_DB=url), capture_output=True, text=True,
        timeout=120)
    check(out.returncode == 0 and "sound" in out.stdout,
          "lair check: %s %s" % (out.stdout, out.stderr))
    served = [v for k, v in stats.items() if k.startswith("by_")]
    check(min(served) > 0, "one process answered every move: %r" % stats)
    dl.check_interactions(fake, lost=lost + [
        it["id"] for it in fake.get("/interactions") if it["http_lost"]])
    fst = fake.no_violations()
    for b in bots:
        b.stop()
    fake.stop()
    return ("%d turns one message each with answers at either process, "
            "%d moves stored, %d acknowledged (%s by each process), %d "
            "lost with a killed process (%d of them stored), %d kills, %d "
            "timers fired exactly once (%d reminders posted), %d failovers"
            % (turns, n, len(answered), "/".join(map(str, served)), len(lost),
               stats["lost_but_stored"], stats["kills"],
               stats["timers_fired"], stats["reminders_posted"],
               fst.get("http_failover", 0)))


if __name__ == "__main__":
    raise SystemExit(dl.main("discord_multi", run))
