"""discordlib.py: runs the fake Discord and the Discord bot for the tests in
tests/discord/ (and bench/bench_discord.py).

Debian's /usr/bin/python3, standard library only (the fake itself needs
python3-websockets). A Fake is one tests/fake_discord/fake_discord.py
process on loopback, driven through its /_fake/ control API; a Bot is one
`lair` process on a database file, pointed at the fake with DISCORD_TOKEN
and LAIR_DISCORD_API_URL. Members are snowflakes with names; interactions
are posted as Discord's client would send them and answered by the bot
through the fake, which records everything.
"""

import calendar
import contextlib
import http.client
import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests", "local"))
import lairlocal as ll  # noqa: E402
FAKE_PY = os.path.join(ROOT, "tests", "fake_discord", "fake_discord.py")
PYTHON = "/usr/bin/python3"
TOKEN = "fake-bot-token"
APP_ID = "1187000000000000001"
GUILD = "1187000000000000100"
CHANNEL = "1187000000000000200"
USERS = {"alice": "1187000000000001001", "bob": "1187000000000001002",
         "carol": "1187000000000001003", "dave": "1187000000000001004",
         "mallory": "1187000000000001666"}
NAMES = {v: k for k, v in USERS.items()}
MANAGE_GUILD = 1 << 5
PLAIN_PERMISSIONS = 1071698660929 & ~MANAGE_GUILD  # no Manage Server
MOD_PERMISSIONS = PLAIN_PERMISSIONS | MANAGE_GUILD
EPHEMERAL = 64
CUSTOM_ID = re.compile(r"^([msph]):(\d+)(?::(\d+)(?::(.*))?)?$")


Fail, check = ll.Fail, ll.check


def sanitizer_env():
    """lairlocal's, without any of the bot's Discord settings."""
    env = ll.sanitizer_env()
    for k in ("LAIR_GUILD_ID", "LAIR_MOD_ROLE", "LAIR_DISCORD_API_URL",
              "LAIR_LOG_LEVEL", "LAIR_DB"):
        env.pop(k, None)
    return env


def wait_until(fn, timeout, what, step=0.02):
    """Polls fn() until it returns something true; returns it."""
    end = time.monotonic() + timeout
    while True:
        v = fn()
        if v:
            return v
        if time.monotonic() > end:
            raise Fail("timed out after %.1f s waiting for %s" %
                       (timeout, what))
        time.sleep(step)


class Fake:
    """One fake Discord process; its control API as methods."""

    def __init__(self, openapi, tmp, *extra, name="fake"):
        LIVE.append(self)
        check(os.path.isfile(openapi),
              "%s: no such file (Discord's openapi.json is required; it is "
              "committed as tests/discord/spec/openapi.json)" % openapi)
        self.portfile = os.path.join(tmp, name + ".ports")
        self.log_path = os.path.join(tmp, name + ".log")
        self.log = open(self.log_path, "wb")
        self.proc = subprocess.Popen(
            [PYTHON, "-B", FAKE_PY, "--openapi", openapi, "--portfile",
             self.portfile] + list(extra),
            stdout=self.log, stderr=subprocess.STDOUT)
        ports = wait_until(self._ports, 20, "the fake's port file")
        self.http, self.gw_port = ports["http"], ports["gateway"]
        self.public_key = ports.get("public_key")  # the application's
        self.api = "http://127.0.0.1:%d/api/v10" % self.http
        self.conn = None

    def _ports(self):
        check(self.proc.poll() is None,
              "the fake exited %s: %s" % (self.proc.returncode, self.text()))
        try:
            with open(self.portfile) as f:
                return json.load(f)
        except (OSError, ValueError):
            return None

    def text(self):
        if not self.log.closed:
            self.log.flush()
        with open(self.log_path, "rb") as f:
            return f.read().decode(errors="replace")[-4000:]

    def call(self, method, path, body=None):
        """(status, decoded JSON) of a control request."""
        data = json.dumps(body).encode() if body is not None else None
        for attempt in range(2):
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.http,
                                                       timeout=60)
            try:
                self.conn.request(method, "/_fake" + path, body=data,
                                  headers={"Content-Type": "application/json"})
                r = self.conn.getresponse()
                raw = r.read()
                return r.status, json.loads(raw) if raw else None
            except (http.client.HTTPException, OSError):
                self.conn.close()
                self.conn = None
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def get(self, path):
        st, obj = self.call("GET", path)
        check(st == 200, "GET /_fake%s: %s %r" % (path, st, obj))
        return obj

    def post(self, path, body):
        st, obj = self.call("POST", path, body)
        check(st == 200, "POST /_fake%s %r: %s %r" % (path, body, st, obj))
        return obj

    def fault(self, **f):
        return self.post("/fault", f)

    def attachment(self, aid):
        """The bytes of an uploaded file (GET /_fake/attachments/ID)."""
        if self.conn is None:
            self.conn = http.client.HTTPConnection("127.0.0.1", self.http,
                                                   timeout=60)
        self.conn.request("GET", "/_fake/attachments/%s" % aid)
        r = self.conn.getresponse()
        data = r.read()
        check(r.status == 200, "GET /_fake/attachments/%s: %s %r" %
              (aid, r.status, data[:200]))
        return data

    def channels(self, parent=None):
        return self.get("/channels" + ("?parent=%s" % parent
                                       if parent else ""))

    def violations(self):
        return self.get("/violations")

    def stats(self):
        return self.get("/stats")

    def gateway(self):
        return self.get("/gateway")

    def requests(self, since=0):
        return self.get("/requests?since=%d" % since)

    def last_request_n(self):
        reqs = self.get("/requests")
        return reqs[-1]["n"] if reqs else 0

    def messages(self, **q):
        qs = "&".join("%s=%s" % kv for kv in q.items())
        return self.get("/messages" + ("?" + qs if qs else ""))

    def dms(self, user):
        return self.messages(user=USERS.get(user, user))

    def interaction(self, payload, expect=200):
        st, obj = self.call("POST", "/interaction", payload)
        check(st == expect, "POST /_fake/interaction %r: %s %r" %
              (payload, st, obj))
        return obj

    def wait(self, iid, ms=3500):
        """The interaction's record once answered (or after ms). The bot
        answers in a few ms; asking once at once spares the fake's 10 ms
        polling step."""
        time.sleep(0.003)
        info = self.get("/interaction/%s" % iid)
        if info["callback"] is None:
            info = self.get("/interaction/%s?wait_ms=%d" % (iid, ms))
        return info

    def no_violations(self, what=""):
        v = self.violations()
        check(not v, "the fake saw %d violations%s: %s" %
              (len(v), " " + what if what else "",
               json.dumps(v[:5], indent=1)))
        st = self.stats()
        check(st["unexpected_429"] == 0, "unexpected 429s: %r" % st)
        check(not st["response_mismatches"],
              "fake response mismatches: %r" % st["response_mismatches"])
        return st

    def stop(self):
        if self.conn:
            self.conn.close()
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()


LIVE = []  # Fakes and Bots of the running test, for failure reports


class Bot:
    """One `lair` process talking to a Fake."""

    def __init__(self, binary, fake, db, env=None, level="debug",
                 wait=True, http=False):
        """http: interactions come over HTTP, to a port of its own
        (LAIR_HTTP_PORT, the fake's public key), and the fake POSTs them
        there once the bot listens; no gateway session."""
        LIVE.append(self)
        self.binary, self.fake, self.db = binary, fake, db
        self.extra = dict(env or {})
        self.level = level
        self.proc = None
        self.logs = []  # stderr of earlier runs
        self.http_port = None
        if http:
            check(fake.public_key, "the fake has no key pair (python3-nacl)")
            self.http_port = free_port()
            self.extra.update({"LAIR_HTTP_PORT": str(self.http_port),
                               "LAIR_PUBLIC_KEY": fake.public_key})
        self.start(wait)

    def start(self, wait=True):
        self.started_at = time.time()
        env = sanitizer_env()
        env.update({"DISCORD_TOKEN": TOKEN, "LAIR_DISCORD_API_URL":
                    self.fake.api, "LAIR_DB": self.db})
        if self.level:
            env["LAIR_LOG_LEVEL"] = self.level
        env.update(self.extra)
        self.err = tempfile.TemporaryFile()
        before = self.ready_count()
        # In the test's own directory: with a PostgreSQL URL the bot
        # touches its health mark (lair-alive) in its working directory.
        self.proc = subprocess.Popen([self.binary], env=env,
                                     stdin=subprocess.DEVNULL,
                                     stdout=self.err, stderr=self.err,
                                     cwd=os.path.dirname(self.fake.portfile))
        if wait and self.http_port:
            self.wait_http()
        elif wait:
            self.wait_ready(before)

    @property
    def endpoint(self):
        return "http://127.0.0.1:%d/interactions" % self.http_port

    def wait_http(self, timeout=30):
        """Waits until the bot serves interactions over HTTP, then makes
        its URL the fake's Interactions Endpoint URL (the fake checks it
        as Discord does: a PING, and a badly signed one)."""
        def serving():
            check(self.proc.poll() is None, "lair exited %s: %s" %
                  (self.proc.returncode, self.stderr_text()))
            return "interactions over HTTP)" in self.stderr_text()
        wait_until(serving, timeout, "the bot's HTTP endpoint")
        st, obj = self.fake.call("POST", "/endpoint", {"url": self.endpoint})
        check(st == 200, "the fake refused the endpoint: %r" % (obj,))

    def ready_count(self):
        st = self.fake.gateway()
        return st["counters"].get("sessions", 0)

    def wait_ready(self, before=None, timeout=30):
        """Waits until this process identified a new session that is
        connected (READY seen by the fake)."""
        if before is None:
            before = 0

        def ready():
            check(self.proc.poll() is None, "lair exited %s: %s" %
                  (self.proc.returncode, self.stderr_text()))
            st = self.fake.gateway()
            return st["counters"].get("sessions", 0) > before and \
                st["ready_sessions"]
        wait_until(ready, timeout, "the bot's READY")
        # The bot logs "connected" when READY reached it.
        wait_until(lambda: "lair discord: connected" in self.stderr_text(),
                   10, "the bot to log that it is connected")

    @property
    def pid(self):
        return self.proc.pid

    def stderr_text(self):
        self.err.flush()
        self.err.seek(0)
        return self.err.read().decode(errors="replace")

    def all_stderr(self):
        return "".join(self.logs) + (self.stderr_text() if self.proc else "")

    def rss_kb(self):
        return proc_status(self.proc.pid)

    def kill(self):
        """SIGKILL, as a crash would."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=30)
        self.logs.append(self.stderr_text())
        self.err.close()
        self.proc = None

    def wait_exit(self, timeout=30):
        """Waits for the process to end by itself; returns its status."""
        try:
            rc = self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            raise Fail("lair did not exit within %d s: %s" %
                       (timeout, self.stderr_text()[-2000:]))
        self.logs.append(self.stderr_text())
        self.err.close()
        self.proc = None
        return rc

    def stop(self):
        """SIGTERM: the bot must end cleanly (status 0, no sanitizer
        report)."""
        self.proc.send_signal(signal.SIGTERM)
        rc = self.wait_exit()
        text = self.logs[-1]
        check(rc == 0, "lair exited %d after SIGTERM: %s" % (rc, text[-3000:]))
        check("Sanitizer" not in text and "runtime error" not in text,
              "a sanitizer report: %s" % text[-3000:])
        check(TOKEN not in self.all_stderr(), "the token is in the log")
        return text

    def close(self):
        if self.proc is not None:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()
            self.logs.append(self.stderr_text())
            self.err.close()
        self.proc = None


@contextlib.contextmanager
def processes(binary, openapi, tmp):
    """(fake, bot, db, local): a Fake (Identify at most every 1 s), a Bot
    on the database db in tmp and a console table on the same database
    (`lair local`, to !dump a game), all ended on the way out whatever
    happened."""
    db = os.path.join(tmp, "lair.db")
    fake = Fake(openapi, tmp, "--identify-interval-ms", "1000")
    bot = local = None
    try:
        bot = Bot(binary, fake, db)
        local = ll.Lair(binary, db)
        yield fake, bot, db, local
    finally:
        if local is not None:
            local.proc.kill()
        if bot is not None:
            bot.close()
        fake.stop()


def free_port():
    """A TCP port of 127.0.0.1 that nothing listens on now."""
    import socket
    with socket.socket() as sk:
        sk.bind(("127.0.0.1", 0))
        return sk.getsockname()[1]


def proc_status(pid):
    """{VmRSS, VmHWM} in kB of a process."""
    out = {}
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                k, _, v = line.partition(":")
                if k in ("VmRSS", "VmHWM"):
                    out[k] = int(v.split()[0])
    except OSError:
        pass
    return out


# -- interactions -------------------------------------------------------------

def member(user, perms=PLAIN_PERMISSIONS, roles=()):
    return {"user": {"id": USERS.get(user, user), "username": user,
                     "global_name": user},
            "permissions": str(perms), "roles": list(roles)}


def options(**kw):
    return [{"name": k, "value": v} for k, v in kw.items()]


# The subcommands that live outside /game: the moderators' /gamemod and a
# member's own /prefs ("prefs" itself is /prefs set).
GROUP_OF = {"abort": "gamemod", "replace": "gamemod", "pause": "gamemod",
            "resume": "gamemod", "kick": "gamemod", "settings": "gamemod",
            "audit": "gamemod", "modlist": "gamemod", "prefs": "prefs",
            "mute": "prefs", "vacation": "prefs"}
SUB_NAME = {"prefs": "set", "modlist": "list"}


# Lair's own permissions where it may open threads for games: the fake's
# default ones plus Create Public Threads and Send Messages in Threads.
THREAD_APP_PERMISSIONS = str(562949953601536 | 1 << 35 | 1 << 38)


def slash_payload(user, sub, opts=None, *, channel=CHANNEL, guild=GUILD,
                  dm=False, perms=PLAIN_PERMISSIONS, roles=(),
                  app_perms=None, locale=None, guild_locale=None):
    """An INTERACTION_CREATE for /game SUB, or for /gamemod or /prefs when
    SUB is one of theirs (GROUP_OF); app_perms: Lair's permissions there
    (the fake's default when None); locale, guild_locale: the user's and
    the server's Discord locales (the fake's en-US when None)."""
    p = {"type": 2, "data": {"name": GROUP_OF.get(sub, "game"), "options": [
        {"name": SUB_NAME.get(sub, sub), "options": opts or []}]}}
    if locale:
        p["locale"] = locale
    if guild_locale:
        p["guild_locale"] = guild_locale
    if app_perms is not None:
        p["app_permissions"] = app_perms
    if dm:
        p["user"] = {"id": USERS.get(user, user), "username": user,
                     "global_name": user}
        p["dm"] = True
    else:
        p.update({"guild_id": guild, "channel_id": channel,
                  "member": member(user, perms, roles)})
    return p


def slash(fake, user, sub, opts=None, ms=3500, **kw):
    """Sends /game SUB and returns the fake's record once answered."""
    r = fake.interaction(slash_payload(user, sub, opts, **kw))
    info = fake.wait(r["id"], ms)
    check(info["callback"] is not None,
          "/game %s by %s got no answer in %d ms" % (sub, user, ms))
    return info


def autocomplete(fake, user, sub, focused, partial, opts=None, **kw):
    p = slash_payload(user, sub, opts, **kw)
    p["type"] = 4
    p["data"]["options"][0]["options"] = (opts or []) + [
        {"name": focused, "value": partial, "focused": True}]
    r = fake.interaction(p)
    info = fake.wait(r["id"])
    check(info["callback"] is not None and info["callback"]["type"] == 8,
          "autocomplete got %r" % info["callback"])
    return info["callback"]["data"]["choices"]


def click(fake, user, custom_id, values=None, message_id=None, ms=3500,
          expect=200, force=False):
    """A click on a component; force: one no message carries any more (a
    button of a message that was since edited)."""
    p = {"type": 3, "data": {"custom_id": custom_id},
         "user": {"id": USERS.get(user, user), "username": user}}
    if force:
        p["force"] = True
    if values is not None:
        p["data"]["values"] = values
    if message_id:
        p["message_id"] = message_id
    r = fake.interaction(p, expect)
    if expect != 200:
        return r
    info = fake.wait(r["id"], ms)
    check(info["callback"] is not None, "the click %s by %s got no answer" %
          (custom_id, user))
    return info


def answer_text(info):
    """The text of an interaction's answer: the callback's message (or the
    deferred message's edit), content and embed descriptions."""
    cb = info["callback"] or {}
    data = cb.get("data") or {}
    if cb.get("type") == 5 and info.get("original"):
        data = info["original"]
    return message_text(data)


def message_text(m):
    parts = [m.get("content") or ""]
    for e in m.get("embeds") or []:
        parts.append(e.get("description") or "")
        parts.append(e.get("title") or "")
        for f in e.get("fields") or []:
            parts += [f.get("name", ""), f.get("value", "")]
    return "\n".join(p for p in parts if p)


def is_ephemeral(info):
    cb = info["callback"] or {}
    if cb.get("type") == 5 and info.get("original"):
        return bool(info["original"]["flags"] & EPHEMERAL)
    return bool(((cb.get("data") or {}).get("flags") or 0) & EPHEMERAL)


def acted(info):
    """Whether a command did what it was asked: a public answer, or the
    turn's message shown to the requester alone (an embed with a title: a
    move answered from the channel), never a refusal."""
    if not is_ephemeral(info):
        return True
    cb = info["callback"] or {}
    data = cb.get("data") or {}
    if cb.get("type") == 5 and info.get("original"):
        data = info["original"]
    return any(e.get("title") for e in data.get("embeds") or [])


def channel_text(fake, channel=CHANNEL):
    """Every message of the channel as it reads now (edits applied),
    oldest first, joined."""
    return "\n".join(message_text(m) for m in fake.messages(channel=channel))


def versions(m):
    """[(text, time made)] of every version a message had (the fake's
    history, then the message as it stands)."""
    out = []
    hist = m["_fake"]["history"] + [m]
    at = m["_fake"]["created_at"]
    for k, h in enumerate(hist):
        if k:
            at = parse_ts(h.get("edited_timestamp")) or at
        out.append((message_text(h), at))
    return out


def versions_text(m):
    """Every version of a message, joined."""
    return "\n".join(text for text, _ in versions(m))


def parse_ts(ts):
    """The fake's edited_timestamp (UTC, microseconds) as epoch seconds."""
    if not ts:
        return None
    day, rest = ts.split("T")
    clock, _, frac = rest.partition(".")
    return calendar.timegm(time.strptime(day + " " + clock,
                                         "%Y-%m-%d %H:%M:%S")) + \
        float("0." + frac.split("+")[0])


def typed_move(fake, who, value):
    """/game move choice:value by who in the channel, which must be taken:
    answered with the mover's turn (its DM's text, to them alone).
    Returns (the interaction's record, the answer's text)."""
    info = slash(fake, who, "move", options(choice=value))
    text = answer_text(info)
    check(acted(info), "move %r by %s refused: %s" % (value, who, text))
    check(is_ephemeral(info) and "You chose: " in text,
          "move %r: the answer is not the mover's turn: %r" % (value, text))
    return info, text


def move_then_kill(fake, bot, who, value, rng):
    """Sends who's /game move choice:value and SIGKILLs the bot 0-20 ms
    later, the move in flight; returns (the interaction as posted,
    time.monotonic() at the kill)."""
    r = fake.interaction(slash_payload(who, "move", options(choice=value)))
    time.sleep(rng.uniform(0, 0.02))
    bot.kill()
    return r, time.monotonic()


def killed_move(info, applied, answered, lost, stats):
    """The move in flight at a SIGKILL (info: its record, read after the
    kill; applied: stored): answered only if stored; its id added to
    answered or to lost (died with the process), counted in
    stats["killed_applied"] or stats["killed_lost"]."""
    check(info["callback"] is None or applied,
          "answered but not stored: %r" % info["callback"])
    (lost if info["callback"] is None else answered).append(info["id"])
    stats["killed_applied" if applied else "killed_lost"] += 1


def custom_ids(m):
    out = []
    for row in m.get("components") or []:
        for c in row.get("components") or []:
            out.append(c)
    return out


def prompt_dm(fake, who, game, version, timeout=15, after="0"):
    """The newest DM to who carrying game's prompt of version (its
    buttons or menu), newer than message id after; waits for it."""
    pat = re.compile(r"^[ms]:%d:%d:" % (game, version))

    def find():
        for m in reversed(fake.dms(who)):
            if int(m["id"]) > int(after) and \
                    any(pat.match(c.get("custom_id", ""))
                        for c in custom_ids(m)):
                return m
        return None
    return wait_until(find, timeout, "the Your turn DM of game %d version "
                      "%d to %s" % (game, version, who))


def component_options(comps):
    """[{value, label}] offered by a prompt's components (custom_ids(m):
    its move buttons, or the options of its select menu on this page)."""
    out = []
    for c in comps:
        m = CUSTOM_ID.match(c.get("custom_id", ""))
        if c["type"] == 2 and m and m.group(1) == "m":
            out.append({"value": m.group(4), "label": c["label"]})
        elif c["type"] == 3:
            out += [{"value": o["value"], "label": o["label"]}
                    for o in c["options"]]
    return out


def check_same_options(choices, offered):
    """Autocomplete's choices ([{value, name}]) are the DM's options
    ([{value, label}], component_options'), in order."""
    check([(c["value"], c["name"]) for c in choices] ==
          [(o["value"], o["label"]) for o in offered],
          "autocomplete %r differs from the DM's options %r" %
          (choices, offered))


def check_not_yours(fake, user, decider):
    """user's autocomplete for /game move offers only "Not your decision"
    naming decider (user plays, but it is not their turn)."""
    got = autocomplete(fake, user, "move", "choice", "")
    check(len(got) == 1 and got[0]["value"] == "-" and
          got[0]["name"].startswith("Not your decision: game #") and
          decider in got[0]["name"],
          "autocomplete offered %s choices out of turn: %r" % (user, got))


def pick(rng, weights, choices):
    """One of choices ({"value": option id, ...}) at random, weighted by
    the id's first part ("play" of "play.c12"; weights[first part],
    2 when not listed)."""
    ws = [weights.get(c["value"].split(".")[0], 2) for c in choices]
    return rng.choices(choices, ws)[0]


def value_or_label(rng, opt, choices, p, stats):
    """What to type for option opt of choices: its label with
    probability p when that names it alone (counted in
    stats["by_label"]), else its id."""
    if rng.random() < p and \
            sum(c["name"] == opt["name"] for c in choices) == 1 and \
            all(c["value"] != opt["name"] for c in choices):
        stats["by_label"] += 1
        return opt["name"]
    return opt["value"]


def quiet(fake, seconds=5.5, timeout=60):
    """Waits until the bot has sent nothing for `seconds`, longer than
    Discord's 5-second windows: the edits of older messages (a passed
    turn's last text) drain behind the channel's rate limit, on a bucket
    of their own, so they may come after a newer message's post."""
    end = time.monotonic() + timeout
    last, since = fake.last_request_n(), time.monotonic()
    while time.monotonic() - since < seconds:
        if time.monotonic() > end:
            raise Fail("the bot kept sending requests for %d s" % timeout)
        time.sleep(0.1)
        new = fake.requests(last)  # only the newer ones, not the log
        if new:
            last, since = new[-1]["n"], time.monotonic()


def wait_buckets(since):
    """A new process cannot know the rate-limit buckets its predecessor
    emptied, and the fake counts a 429 on one as unexpected: the channel
    and DM windows (5 s) of the old process pass before messages flow.
    since: time.monotonic() when the old process ended."""
    time.sleep(max(0.0, since + 5.2 - time.monotonic()))


def db_write(db, sql, args=()):
    """Runs one statement on the bot's database while the bot runs (WAL:
    a second connection is fine; the busy timeout waits out its
    commits); returns the number of rows changed."""
    con = sqlite3.connect(db, timeout=10)
    try:
        con.execute("PRAGMA busy_timeout = 10000")
        with con:
            return con.execute(sql, args).rowcount
    finally:
        con.close()


def db_read(db, sql, args=()):
    """The rows of a query, read-only."""
    con = sqlite3.connect("file:%s?mode=ro" % db, uri=True, timeout=10)
    try:
        con.execute("PRAGMA busy_timeout = 10000")
        return con.execute(sql, args).fetchall()
    finally:
        con.close()


def timers_due_now(db, game, kinds, seat=None):
    """Makes a game's timers of the given kinds due now, as if their time
    had come: the bot's worker fires them on its next tick (every 5 s).
    Returns how many rows were changed."""
    q = "UPDATE timers SET due = ? WHERE game = ? AND kind IN (%s)" % \
        ",".join("?" * len(kinds))
    args = [int(time.time()), game] + list(kinds)
    if seat is not None:
        q += " AND seat = ?"
        args.append(seat)
    return db_write(db, q, args)


def moves_in_db(db, game):
    """[(seq, request, seat, option)] of a game, read-only."""
    con = sqlite3.connect("file:%s?mode=ro" % db, uri=True, timeout=10)
    try:
        return con.execute(
            "SELECT seq, request, seat, option FROM moves WHERE game = ? "
            "ORDER BY seq", (game,)).fetchall()
    finally:
        con.close()


def check_moves(rows, game):
    """A game's moves (moves_in_db's rows): numbered 0..n-1, no request id
    stored twice."""
    check([r[0] for r in rows] == list(range(len(rows))),
          "moves of game %d are not numbered 0..n-1: %r" %
          (game, [r[0] for r in rows][-10:]))
    reqs = [r[1] for r in rows]
    check(len(set(reqs)) == len(reqs), "a request id is stored twice")


def check_stored(answered, lost, rows):
    """Every answered move is stored and nothing else was: rows (a game's
    moves_in_db, less any stored for no interaction: an AI seat's) are
    as many as the interactions of answered and of lost (died with the
    process) stored among them."""
    stored = {r[1] for r in rows}
    moved = [i for i in answered if i in stored]
    check(len(moved) == len(rows) - sum(1 for i in lost if i in stored),
          "stored moves %d, answered moves %d" % (len(rows), len(moved)))


def report_live():
    """The last lines of every process's log, for a failure."""
    for x in LIVE:
        try:
            text = x.all_stderr() if isinstance(x, Bot) else x.text()
        except Exception as e:  # a closed file: nothing to add
            text = "(%s)" % e
        lines = text.splitlines()[-25:]
        print("--- %s, last lines:" % type(x).__name__)
        print("\n".join(lines).replace(TOKEN, "<TOKEN>"))


def close_live():
    """Ends every process a test left running (a failed test stops none
    of its own): a bot left behind would go on touching files and ports."""
    for x in LIVE:
        try:
            if isinstance(x, Bot):
                x.close()
            elif x.proc.poll() is None:
                x.proc.kill()
                x.proc.wait()
        except Exception:  # already closed: nothing left to end
            pass


def main(name, fn):
    """Runs fn(binary, openapi, tmpdir) -> summary text; prints it."""
    if len(sys.argv) < 3:
        print("usage: %s PATH/TO/openapi.json PATH/TO/lair [TEST...]" %
              sys.argv[0], file=sys.stderr)
        return 2
    openapi, binary = os.path.abspath(sys.argv[1]), os.path.abspath(
        sys.argv[2])
    if not os.path.isfile(openapi):
        print("%s: FAIL: %s: no such file (Discord's openapi.json is "
              "required; it is committed as tests/discord/spec/openapi.json)"
              % (name, openapi))
        return 1
    with tempfile.TemporaryDirectory(prefix="lair-%s-" % name) as tmp:
        t0 = time.monotonic()
        try:
            summary = fn(binary, openapi, tmp)
        except Fail as e:
            report_live()
            print("%s: FAIL: %s" % (name, e))
            sys.path.insert(0, os.path.join(ROOT, "tests", "local"))
            import lairlocal  # its one-line gist of a long failure
            lairlocal.print_gist(name, e)
            return 1
        except Exception:
            report_live()
            traceback.print_exc(file=sys.stdout)
            print("%s: FAIL: the harness broke (above)" % name)
            return 1
        finally:
            close_live()
    print("%s: %s (%.1f s)" % (name, summary, time.monotonic() - t0))
    return 0


def check_answered(it):
    """One of the fake's interaction records was answered, without errors,
    within Discord's 3 seconds."""
    check(it["callback"] is not None, "interaction %s (%r) unanswered"
          % (it["id"], it["payload"].get("data")))
    check(not it["callback_errors"], "callback errors: %r" %
          it["callback_errors"])
    check(it["age_at_callback_ms"] < 3000 and it["latency_ms"] < 3000,
          "interaction %s answered after %s ms" %
          (it["id"], it["age_at_callback_ms"]))


def check_interactions(fake, lost=()):
    """check_answered for every interaction the fake saw but those in
    lost (died with the process); returns how many."""
    n = 0
    for it in fake.get("/interactions"):
        if it["id"] in lost:
            continue
        check_answered(it)
        n += 1
    return n
