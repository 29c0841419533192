#!/usr/bin/python3
"""bench_discord.py: interaction latency and memory of the Discord
transport under a sustained load, against the fake Discord on loopback.

    /usr/bin/python3 bench/bench_discord.py [--lair build/release/lair]
        [--openapi tests/discord/spec/openapi.json] [--games 1000]
        [--rates 100,500] [--seconds 20] [--users 200]

First it opens GAMES two-player Supervillain games, one per channel of the
test server (/game new, join, start), then restarts the bot so that every
rate starts from a bot that has the games only in its database (they load
when first touched, as after any restart). For each rate it sends, open
loop, a mix of interactions on random games: 40% /game status, 20%
/game hand (by either player), 20% autocomplete of /game move choice for
the player who decides and 20% /game move with one of those choices
(durable: each is committed to SQLite with synchronous=FULL before the
answer). It prints one JSON line per rate:

  rate, seconds, interactions (sent), achieved_rate, p50_ms, p99_ms,
  max_ms: INTERACTION_CREATE dispatched by the fake -> callback received
  by the fake, from the fake's records;
  bot_p50_ms, bot_p99_ms, bot_max_ms: inside the bot, the event's arrival
  on the gateway thread -> its callback queued for sending (from its
  debug log); bot_sent_p50_ms, bot_sent_p99_ms, bot_sent_max_ms: the
  event's arrival -> the callback's request going out on the socket
  (curl's pre-transfer time), the bot's own latency; bot_ack_p99_ms to
  the callback's HTTP answer;
  rss_mb (VmRSS at the end), rss_peak_mb (VmHWM), rss_anon_mb (the
  anonymous part at the end), uss_mb (the pages only the bot maps, RSS
  less what it shares with other processes), moves (committed), errors (unanswered, late
  beyond 3 s, or answered with a Discord error), refused (a move or
  autocomplete answered with an error text because the game moved on),
  fake_cpu and bot_cpu (share of one core during the run).

With --ceiling the rate goes up from the last of --rates by --step
(250) while the bot answers within 50 ms at p99 and the load side keeps
up (the fake then skips checking request bodies against openapi.json,
its heaviest work, which the other runs and every test do); the last line
gives the highest such rate, the bot's CPU share there and what that
makes per core.

Nothing asserts on the figures (see bench/README.md).
"""

import argparse
import collections
import http.client
import json
import os
import queue
import random
import re
import statistics
import sys
import tempfile
import threading
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "tests", "discord"))
import discordlib as dl  # noqa: E402

WAITING = re.compile(r"Waiting for (\w+)\.")
BOT_LINE = re.compile(r"interaction answered: callback queued ([\d.]+) ms, "
                      r"sent (-?[\d.]+) ms, acknowledged ([\d.]+) ms")
CH_BASE = 1187000000100000000
USER_BASE = 1187000000200000000


def pct(xs, p):
    if not xs:
        return None
    xs = sorted(xs)
    return round(xs[min(len(xs) - 1, int(len(xs) * p))], 2)


def cpu_seconds(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except OSError:
        return 0.0


class Conn:
    """One keep-alive connection to the fake's control API."""

    def __init__(self, port):
        self.port = port
        self.c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def call(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        self.c.request(method, "/_fake" + path, body=data,
                       headers={"Content-Type": "application/json"})
        r = self.c.getresponse()
        raw = r.read()
        return r.status, json.loads(raw) if raw else None


class Game:
    __slots__ = ("n", "channel", "players", "decider", "choices", "busy")

    def __init__(self, n, players):
        self.n = n
        self.channel = str(CH_BASE + n)
        self.players = players
        self.decider = None
        self.choices = None
        self.busy = False


def user_name(uid):
    return "u%s" % uid[-4:]


def payload(game, user, sub, opts=None, kind=2):
    p = {"type": kind, "guild_id": dl.GUILD, "channel_id": game.channel,
         "member": {"user": {"id": user, "username": user_name(user)},
                    "permissions": str(dl.PLAIN_PERMISSIONS)},
         "data": {"name": "game", "options": [{"name": sub,
                                               "options": opts or []}]}}
    return p


def setup_games(fake, n_games, n_users):
    """Opens and starts the games; returns them with their deciders."""
    users = [str(USER_BASE + i) for i in range(n_users)]
    games = []
    for n in range(n_games):
        a, b = users[(2 * n) % n_users], users[(2 * n + 1) % n_users]
        g = Game(n, [a, b])
        for who, sub, opts in ((a, "new", [{"name": "kind", "value":
                                             "supervillain"}]),
                               (b, "join", None), (a, "start", None)):
            r = fake.interaction(payload(g, who, sub, opts))
            info = fake.wait(r["id"], 5000)
            text = dl.answer_text(info)
            if dl.is_ephemeral(info):
                raise SystemExit("setup: /game %s in game %d refused: %s" %
                                 (sub, n, text))
        m = WAITING.search(text)
        g.decider = {user_name(u): u for u in g.players}[m.group(1)]
        games.append(g)
        if n % 100 == 99:
            print("  %d games open" % (n + 1), file=sys.stderr, flush=True)
    return games


def run_rate(fake, bot, games, rate, seconds, rng, mix):
    """One open-loop run; returns the figures."""
    sent = []  # (id, kind)
    reads = queue.Queue()
    lock = threading.Lock()
    stop = threading.Event()
    rss = {"VmRSS": 0, "VmHWM": 0}
    refused = collections.Counter()

    def reader():
        c = Conn(fake.http)
        while True:
            item = reads.get()
            if item is None:
                return
            iid, kind, g = item
            st, info = c.call("GET", "/interaction/%s?wait_ms=3000" % iid)
            text = dl.answer_text(info) if info and info["callback"] else ""
            with lock:
                g.busy = False
                if kind == "autocomplete":
                    ch = ((info["callback"] or {}).get("data") or {}).get(
                        "choices") if info and info["callback"] else None
                    # Out of turn, one "Not your decision" entry ("-").
                    ch = [x for x in ch or [] if x["value"] != "-"]
                    g.choices = [x["value"] for x in ch] if ch else None
                    if not ch:
                        refused["autocomplete"] += 1
                        g.decider = None
                elif kind == "move":
                    g.choices = None
                    m = WAITING.search(text)
                    # A move is answered with the mover's turn, to them
                    # alone; a refusal is a plain ephemeral text.
                    if not (info["callback"] and dl.acted(info)):
                        refused["move"] += 1
                        g.decider = None
                    elif m:
                        g.decider = {user_name(u): u
                                     for u in g.players}.get(m.group(1))
                    elif "is over" in text:
                        g.decider = None
                    else:  # a long table: the rest comes as a post
                        g.decider = None
                elif kind == "status":
                    m = WAITING.search(text)
                    if m:
                        g.decider = {user_name(u): u
                                     for u in g.players}.get(m.group(1))

    def sampler():
        while not stop.is_set():
            st = dl.proc_status(bot.pid)
            for k in rss:
                rss[k] = max(rss[k], st.get(k, 0))
            time.sleep(0.1)

    readers = [threading.Thread(target=reader, daemon=True)
               for _ in range(2)]
    for t in readers:
        t.start()
    smp = threading.Thread(target=sampler, daemon=True)
    smp.start()
    conn = Conn(fake.http)
    first_request = fake.last_request_n()
    cpu0 = (cpu_seconds(fake.proc.pid), cpu_seconds(bot.pid))
    t0 = time.monotonic()
    total = int(rate * seconds)
    for k in range(total):
        due = t0 + k / rate
        now = time.monotonic()
        if due > now:
            time.sleep(due - now)
        g = games[rng.randrange(len(games))]
        pick = rng.random()
        kind = "status" if pick < mix[0] else \
            "hand" if pick < mix[0] + mix[1] else "advance"
        with lock:
            if kind == "advance" and (g.busy or g.decider is None):
                kind = "status"  # learn who decides; the game is busy
            if kind == "advance":
                kind = "move" if g.choices else "autocomplete"
                g.busy = True
            elif kind == "status" and g.decider is None and not g.busy:
                g.busy = True
                kind = "status_read"
            choices, decider = g.choices, g.decider
        if kind == "move":
            p = payload(g, decider, "move", [
                {"name": "choice", "value": rng.choice(choices)}])
        elif kind == "autocomplete":
            p = payload(g, decider, "move", [
                {"name": "choice", "value": "", "focused": True}], kind=4)
        elif kind == "hand":
            p = payload(g, rng.choice(g.players), "hand")
        else:
            p = payload(g, rng.choice(g.players), "status")
        st, r = conn.call("POST", "/interaction", p)
        if st != 200:
            raise SystemExit("the fake refused an interaction: %s %r" %
                             (st, r))
        if kind == "status_read":
            reads.put((r["id"], "status", g))
            kind = "status"
        elif kind in ("move", "autocomplete"):
            reads.put((r["id"], kind, g))
        sent.append((r["id"], kind))
    elapsed = time.monotonic() - t0
    cpu1 = (cpu_seconds(fake.proc.pid), cpu_seconds(bot.pid))
    for _ in readers:
        reads.put(None)
    for t in readers:
        t.join(timeout=30)
    time.sleep(3.0)  # the last answers
    stop.set()
    smp.join()
    end = dl.proc_status(bot.pid)
    with open("/proc/%d/status" % bot.pid) as f:
        anon = [int(x.split()[1]) for x in f if x.startswith("RssAnon:")]
    # The pages only the bot maps (its unique set): RSS less the library
    # pages it shares with other processes, such as the fake here.
    with open("/proc/%d/smaps_rollup" % bot.pid) as f:
        uss = sum(int(x.split()[1]) for x in f
                  if x.startswith(("Private_Clean:", "Private_Dirty:")))
    # The fake's records of this run.
    lat, errors, kinds = [], 0, collections.Counter()
    for iid, kind in sent:
        st, info = conn.call("GET", "/interaction/%s" % iid)
        kinds[kind] += 1
        if st != 200 or info["callback"] is None or info["callback_errors"] \
                or info["age_at_callback_ms"] > 3000:
            errors += 1
            continue
        lat.append(info["latency_ms"])
    text = bot.stderr_text()
    bot_q, bot_sent, bot_ack = [], [], []
    for m in BOT_LINE.finditer(text):
        bot_q.append(float(m.group(1)))
        if float(m.group(2)) >= 0:
            bot_sent.append(float(m.group(2)))
        bot_ack.append(float(m.group(3)))
    # What the bot sent besides callbacks (messages wait for Discord's
    # rate limits: 50 requests a second, 5 messages per 5 s per channel,
    # 10 DM channels opened per 10 s).
    out = collections.Counter()
    for r in fake.requests(first_request):
        route = r["route"] or ""
        out["callbacks" if route.endswith("/callback") else
            "dm_opens" if route == "/users/@me/channels" else
            "messages" if route.endswith("/messages") else "other"] += 1
    moves = kinds["move"] - refused["move"]
    return {
        "rate": rate, "seconds": round(elapsed, 1), "interactions":
        len(sent), "achieved_rate": round(len(sent) / elapsed, 1),
        "p50_ms": pct(lat, 0.5), "p99_ms": pct(lat, 0.99),
        "max_ms": round(max(lat), 2) if lat else None,
        "mean_ms": round(statistics.mean(lat), 2) if lat else None,
        "bot_p50_ms": pct(bot_q, 0.5), "bot_p99_ms": pct(bot_q, 0.99),
        "bot_max_ms": round(max(bot_q), 2) if bot_q else None,
        "bot_sent_p50_ms": pct(bot_sent, 0.5),
        "bot_sent_p99_ms": pct(bot_sent, 0.99),
        "bot_sent_max_ms": round(max(bot_sent), 2) if bot_sent else None,
        "bot_ack_p99_ms": pct(bot_ack, 0.99),
        "rss_mb": round(end.get("VmRSS", 0) / 1024, 1),
        "rss_peak_mb": round(max(rss["VmHWM"], end.get("VmHWM", 0)) / 1024,
                             1),
        "rss_anon_mb": round(anon[0] / 1024, 1) if anon else None,
        "uss_mb": round(uss / 1024, 1),
        "moves": moves, "errors": errors, "rest_out": dict(out),
        "refused": sum(refused.values()), "mix": dict(kinds),
        "fake_cpu": round((cpu1[0] - cpu0[0]) / elapsed, 2),
        "bot_cpu": round((cpu1[1] - cpu0[1]) / elapsed, 2),
    }


def wait_buckets(fake):
    """The message windows (5 s) of an old process pass before a new one
    sends (a new process cannot know its predecessor's buckets)."""
    reqs = fake.get("/requests")
    posts = [r["at"] for r in reqs if r["method"] == "POST" and
             not r["path"].startswith("/interactions/")]
    if posts:
        time.sleep(max(0.0, posts[-1] + 10.2 - time.time()))


def all_shards(fake, shards):
    """Waits until every shard's session is ready: the bench's guild may
    be on any of them."""
    if shards:
        dl.wait_until(lambda: len(fake.gateway()["ready_sessions"]) >= shards,
                      30, "%d ready shard sessions" % shards)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lair", default=os.path.join(ROOT, "build", "release",
                                                   "lair"))
    ap.add_argument("--openapi", default=os.path.join(
        ROOT, "tests", "discord", "spec", "openapi.json"))
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--users", type=int, default=200)
    ap.add_argument("--rates", default="100,500")
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--shards", type=int, default=0,
                    help="run the bot with LAIR_SHARDS=N (all in this "
                         "process, max_concurrency N so they start at once)")
    ap.add_argument("--mix", default="40,20,40",
                    help="percent status, hand, autocomplete+move")
    ap.add_argument("--ceiling", action="store_true",
                    help="step the rate up from the last of --rates by "
                         "--step until the bot's p99 passes 50 ms or the "
                         "load side falls behind; then print the ceiling")
    ap.add_argument("--step", type=int, default=250)
    args = ap.parse_args()
    mix = [float(x) / 100 for x in args.mix.split(",")]
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory(prefix="lair-bench-discord-") as tmp:
        # Every request of the bot is checked; the fake's own answers are
        # left unchecked here (its self-test and the Discord tests check
        # them), as that work would only slow the fake down.
        extra = ["--no-check-requests"] if args.ceiling else []
        env = {}
        if args.shards:
            extra += ["--shards", str(args.shards), "--max-concurrency",
                      str(args.shards)]
            env["LAIR_SHARDS"] = str(args.shards)
        fake = dl.Fake(os.path.abspath(args.openapi), tmp, "--quiet",
                       "--no-check-responses", *extra)
        db = os.path.join(tmp, "bench.db")
        bot = None
        try:
            bot = dl.Bot(args.lair, fake, db, env=env, level="debug")
            all_shards(fake, args.shards)
            t = time.monotonic()
            games = setup_games(fake, args.games, args.users)
            print("  %d games open in %.1f s" % (len(games),
                                                 time.monotonic() - t),
                  file=sys.stderr, flush=True)
            rates = [int(x) for x in args.rates.split(",")]
            best = None
            stopped_by = None
            while rates:
                rate = rates.pop(0)
                bot.stop()
                wait_buckets(fake)
                bot.start()
                all_shards(fake, args.shards)
                res = run_rate(fake, bot, games, rate, args.seconds, rng,
                               mix)
                res["games"] = len(games)
                print(json.dumps(res), flush=True)
                if not args.ceiling:
                    continue
                kept_up = res["achieved_rate"] >= 0.95 * rate
                fast = res["bot_sent_p99_ms"] is not None and \
                    res["bot_sent_p99_ms"] < 50 and res["errors"] == 0
                if fast and kept_up:
                    best = res
                if fast and kept_up and not rates:
                    rates.append(rate + args.step)
                elif not rates:
                    stopped_by = "bot (p99 past 50 ms)" if not fast else \
                        "load side (sent %.0f of %d/s)" % (
                            res["achieved_rate"], rate)
            if args.ceiling and best:
                # The bot's CPU share at the highest rate it served within
                # 50 ms: what one core of it would serve.
                per_core = best["achieved_rate"] / max(best["bot_cpu"], 0.01)
                print(json.dumps({
                    "ceiling_rate": best["achieved_rate"],
                    "bot_sent_p99_ms": best["bot_sent_p99_ms"],
                    "bot_cpu": best["bot_cpu"],
                    "fake_cpu": best["fake_cpu"],
                    "interactions_per_core": round(per_core),
                    "stopped_by": stopped_by}), flush=True)
            bot.stop()
            bot = None
        finally:
            if bot is not None:
                bot.close()
            fake.stop()


if __name__ == "__main__":
    main()
