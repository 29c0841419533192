#!/usr/bin/python3
"""bench_prompt_wait.py: how long a player who answers at once waits for
their next question on Discord.

    /usr/bin/python3 bench/bench_prompt_wait.py [--lair build/release/lair]
        [--openapi tests/discord/spec/openapi.json] [--games 1]
        [--answers 20] [--seed 1] [--weights end=30] [--think-ms 0]
        [--old]

Runs the Release `lair` against the fake Discord (tests/fake_discord/),
which holds the bot to Discord's rate limits (5 messages per 5 s per
channel, a DM channel included). alice opens a two-player Supervillain
game against one AI seat (/game new kind:supervillain ai:1, /game start)
and then answers ANSWERS decisions in a row by clicking the buttons (or
the select menu) of her turn's DM, each click sent as soon as the
question it answers is visible to her (or --think-ms later): quick
answers, spanning her turns when one turn has fewer decisions (the AI's
turn in between is played by the bot within the click that ends hers).
The option is drawn at random, weighted as tests/discord/test_game.py
draws them (mob and project often, end seldom: about five decisions a
turn); --weights changes a kind's weight (end=30 ends a turn whenever
it may: about four, as some decisions of a turn cannot end it).

For each click, the wait is the time from the click (the interaction as
the fake created it) until her next question is visible: the first state
of one of her DMs that carries buttons of a newer game version, timed by
the fake when it stored that state: the clicked DM updated by the
interaction's response (type 7 UPDATE_MESSAGE), or a DM posted or edited
later. Both ends are the fake's clock.

One JSON line per game: the waits (max, median, each); how each next
question came (`update`: the click's own response; `dm_post`: a new DM;
`dm_edit`: a DM edited later) and the longest wait of each way;
`spent_clicks`, the clicks whose response carried no next question (on a
Lair that keeps a turn in one DM, those that ended alice's turn; on an
older one, every click); and what the bot sent meanwhile: channel posts
and edits, DM posts and edits, interaction callbacks, 429s. --old drives
a Lair from before the command groups (/game new game:supervillain), for
the same measure of an older build.

Nothing asserts on the figures (see bench/README.md).
"""

import argparse
import collections
import datetime
import json
import os
import random
import re
import statistics
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "tests", "discord"))
import discordlib as dl  # noqa: E402

PLAYER = "alice"
CH_BASE = 1187000000300000000
# As tests/discord/test_game.py draws: long turns, the end of one now
# and then.
WEIGHTS = {"mob": 6, "project": 6, "use": 2, "ops": 2, "end": 1,
           "launch": 1, "shoot": 1}


def when(iso_text):
    return datetime.datetime.fromisoformat(iso_text).timestamp()


def versions(components, game):
    """The game versions the custom_ids of a message's components carry."""
    out = set()
    for c in dl.custom_ids({"components": components}):
        m = dl.CUSTOM_ID.match(c.get("custom_id", ""))
        if m and m.group(1) in "msp" and m.group(3) is not None and \
                int(m.group(2)) == game:
            out.add(int(m.group(3)))
    return out


def states(m):
    """[(time, components)] of a stored message, oldest first: each state
    it has had and when it got it (its creation, then each edit)."""
    meta = m["_fake"]
    out = []
    for h in meta["history"] + [m]:
        t = h.get("edited_timestamp")
        out.append((when(t) if t else meta["created_at"],
                    h.get("components") or []))
    return out


def find_prompt(fake, game, after_version):
    """(message, version, time it became visible, edited) of the first
    DM state to the player carrying a version of game newer than
    after_version, or None."""
    best = None
    for m in fake.dms(PLAYER):
        for k, (t, comps) in enumerate(states(m)):
            vs = [v for v in versions(comps, game) if v > after_version]
            if vs and (best is None or t < best[2]):
                best = (m, max(vs), t, k > 0)
                break
    return best


def wait_prompt(fake, game, after_version, channel, timeout=30.0):
    """find_prompt's answer once there is one, or None when the game's
    channel tells it is over."""
    def found():
        p = find_prompt(fake, game, after_version)
        if p:
            return p
        if "is over.**" in dl.channel_text(fake, channel):
            return "over"
        return None
    p = dl.wait_until(found, timeout, "%s's question after version %d of "
                      "game %d" % (PLAYER, after_version, game), step=0.01)
    return None if p == "over" else p


def options_of(m, game, version):
    """[(custom_id, value or None, option id)] that answer m's question:
    buttons, or the first page of a select menu."""
    out = []
    for c in dl.custom_ids(m):
        cm = dl.CUSTOM_ID.match(c.get("custom_id", ""))
        if not cm or int(cm.group(2)) != game or \
                int(cm.group(3) or -1) != version:
            continue
        if c["type"] == 2 and cm.group(1) == "m":
            out.append((c["custom_id"], None, cm.group(4)))
        elif c["type"] == 3:
            out += [(c["custom_id"], o["value"], o["value"])
                    for o in c["options"]]
    return out


def pick(rng, opts):
    ws = [WEIGHTS.get(o[2].split(".")[0], 2) for o in opts]
    return rng.choices(opts, ws)[0]


def open_game(fake, channel, old):
    """/game new against one AI seat and /game start; returns the game's
    number."""
    kind = "game" if old else "kind"
    info = dl.slash(fake, PLAYER, "new",
                    dl.options(**{kind: "supervillain", "ai": 1}),
                    channel=channel)
    text = dl.answer_text(info)
    m = re.search(r"game #(\d+)", text)
    dl.check(m and not dl.is_ephemeral(info), "/game new: %s" % text)
    info = dl.slash(fake, PLAYER, "start", channel=channel)
    dl.check(not dl.is_ephemeral(info) or dl.acted(info),
             "/game start: %s" % dl.answer_text(info))
    return int(m.group(1))


def count_sent(fake, since, game_channel):
    """What the bot sent after request number since."""
    kinds = {c["id"]: c["type"] for c in fake.channels()}
    out = collections.Counter()
    for r in fake.requests(since):
        path = r["path"].replace("/api/v10", "", 1)
        if r["status"] == 429:
            out["rate_limited_429"] += 1
        if path.endswith("/callback"):
            out["callbacks"] += 1
            continue
        parts = path.strip("/").split("/")
        if parts[0] == "webhooks" and r["status"] < 300:
            # an interaction's follow-up (a new turn's DM after a click)
            # or an edit of its answer
            out["followup_%s" % ("posts" if r["method"] == "POST" else
                                 "edits")] += 1
            continue
        if len(parts) >= 3 and parts[0] == "channels" and \
                parts[2] == "messages" and r["status"] < 300:
            where = "channel" if parts[1] == game_channel else \
                "dm" if kinds.get(parts[1]) == 1 else "other_channel"
            what = "posts" if r["method"] == "POST" else \
                "edits" if r["method"] == "PATCH" else "deletes"
            out["%s_%s" % (where, what)] += 1
        elif r["status"] < 300:
            out["other_requests"] += 1
    return out


def play(fake, channel, answers, rng, old, think):
    """Opens a game and clicks answers quick answers (each think seconds
    after its question became visible); returns its line."""
    game = open_game(fake, channel, old)
    m, version, _, _ = wait_prompt(fake, game, -1, channel)
    since = fake.last_request_n()
    seen = len(fake.violations())
    unexpected = fake.stats()["unexpected_429"]
    waits, how, spent, chosen = [], collections.Counter(), 0, []
    by_how = collections.defaultdict(list)
    over = False
    for _ in range(answers):
        if think:
            time.sleep(think)
        opts = options_of(m, game, version)
        dl.check(opts, "no options in the DM of version %d" % version)
        cid, value, oid = pick(rng, opts)
        chosen.append(oid)
        p = {"type": 3, "data": {"custom_id": cid},
             "user": {"id": dl.USERS[PLAYER], "username": PLAYER},
             "message_id": m["id"]}
        if value is not None:
            p["data"]["values"] = [value]
        r = fake.interaction(p)
        info = fake.wait(r["id"], 5000)
        dl.check(info["callback"] is not None and
                 info["callback"]["type"] in (6, 7),
                 "the click %s got %r" % (cid, info["callback"]))
        clicked_at = info["created_at"]
        cb_comps = (info["callback"].get("data") or {}).get("components")
        if not versions(cb_comps or [], game):
            spent += 1  # the next question comes in another message
        p = wait_prompt(fake, game, version, channel)
        if p is None:
            over = True
            break
        nm, nv, t, edited = p
        wait = (t - clicked_at) * 1000.0
        came = "update" if nm["id"] == m["id"] and \
            info["callback"]["type"] == 7 and edited else \
            "dm_edit" if edited else "dm_post"
        waits.append(wait)
        how[came] += 1
        by_how[came].append(wait)
        m, version = nm, nv
    sent = count_sent(fake, since, channel)
    st = fake.stats()
    violations = fake.violations()[seen:]
    for v in violations:  # the bot broke one of Discord's rules: which
        print("violation: %s" % json.dumps(v), file=sys.stderr)
    return {
        "game": game, "answers": len(waits),
        "max_wait_ms": round(max(waits), 1) if waits else None,
        "median_wait_ms": round(statistics.median(waits), 1)
        if waits else None,
        "waits_ms": [round(w, 1) for w in waits],
        "how": dict(how),
        "max_wait_ms_by_how": {k: round(max(v), 1)
                               for k, v in by_how.items()},
        "spent_clicks": spent, "over": over,
        "chosen": [c.split(".")[0] for c in chosen],
        "sent": dict(sent),
        "unexpected_429": st["unexpected_429"] - unexpected,
        "violations": len(violations),
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lair", default=os.path.join(ROOT, "build", "release",
                                                   "lair"))
    ap.add_argument("--openapi", default=os.path.join(
        ROOT, "tests", "discord", "spec", "openapi.json"))
    ap.add_argument("--games", type=int, default=1)
    ap.add_argument("--answers", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--weights", default="",
                    help="weights of option kinds over the defaults, e.g. "
                         "end=30 for short turns")
    ap.add_argument("--think-ms", type=float, default=0.0,
                    help="wait this long after a question is visible "
                         "before clicking (0: at once)")
    ap.add_argument("--old", action="store_true",
                    help="a Lair from before the command groups")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    for kv in filter(None, args.weights.split(",")):
        k, _, v = kv.partition("=")
        WEIGHTS[k] = float(v)
    with tempfile.TemporaryDirectory(prefix="lair-bench-wait-") as tmp:
        fake = dl.Fake(os.path.abspath(args.openapi), tmp, "--quiet",
                       "--no-check-responses")
        bot = None
        try:
            bot = dl.Bot(os.path.abspath(args.lair), fake,
                         os.path.join(tmp, "bench.db"), level="info")
            for g in range(args.games):
                if g:
                    time.sleep(5.2)  # the last game's buckets empty again
                res = play(fake, str(CH_BASE + g), args.answers, rng,
                           args.old, args.think_ms / 1000.0)
                print(json.dumps(res), flush=True)
            bot.stop()
            bot = None
        except dl.Fail as e:
            dl.report_live()
            raise SystemExit("bench_prompt_wait: %s" % e)
        finally:
            if bot is not None:
                bot.close()
            fake.stop()


if __name__ == "__main__":
    main()
