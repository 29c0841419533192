#!/usr/bin/python3
"""Self-test of the fake Discord (ctest fake_discord_selftest).

  /usr/bin/python3 -B tests/fake_discord/test_fake.py --openapi PATH [-v]

Starts fake_discord.py on ephemeral ports and speaks to it the way Lair
will: urllib / http.client for REST and the control API, websockets for
the gateway. A missing openapi.json is a failure, not a skip.
"""

import asyncio
import hashlib
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.error
import urllib.request
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
FAKE = os.path.join(HERE, "fake_discord.py")
DEFAULT_OPENAPI = os.path.normpath(os.path.join(
    HERE, "..", "discord", "spec", "openapi.json"))
TOKEN = "selftest-token"
UA = "DiscordBot (https://example.invalid/lair, 0.1.0)"
APP = "1187000000000000001"
GUILD = "1187000000000000100"
CHANNEL = "1187000000000000200"
ALICE = "1187000000000001001"
BOB = "1187000000000001002"
OPENAPI = None  # set in main()

try:
    import websockets
except ImportError:  # pragma: no cover
    websockets = None


def tiny_png(width=1):
    """A valid PNG of width x 1 grey pixels."""
    def chunk(kind, data):
        return len(data).to_bytes(4, "big") + kind + data + \
            zlib.crc32(kind + data).to_bytes(4, "big")
    ihdr = width.to_bytes(4, "big") + (1).to_bytes(4, "big") + \
        bytes([8, 0, 0, 0, 0])
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + \
        chunk(b"IDAT", zlib.compress(b"\0" + b"\x80" * width)) + \
        chunk(b"IEND", b"")


class Fake:
    """One fake_discord.py process."""

    def __init__(self, *extra):
        self.dir = tempfile.mkdtemp(prefix="fake_discord_")
        portfile = os.path.join(self.dir, "ports.json")
        self.log = open(os.path.join(self.dir, "fake.log"), "w+")
        self.proc = subprocess.Popen(
            [sys.executable, "-B", FAKE, "--openapi", OPENAPI,
             "--token", TOKEN, "--portfile", portfile] + list(extra),
            stdout=self.log, stderr=subprocess.STDOUT)
        end = time.monotonic() + 10
        while not os.path.exists(portfile):
            if self.proc.poll() is not None or time.monotonic() > end:
                raise RuntimeError("fake_discord did not start:\n" +
                                   self.output())
            time.sleep(0.02)
        with open(portfile) as f:
            ports = json.load(f)
        self.http, self.gw = ports["http"], ports["gateway"]
        self.base = f"http://127.0.0.1:{self.http}"
        self.gw_url = f"ws://127.0.0.1:{self.gw}"

    def output(self):
        self.log.flush()
        self.log.seek(0)
        return self.log.read()

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            return None
        finally:
            self.log.close()

    def api(self, method, path, body=None, auth=True, ua=UA, ctype=None,
            raw=None, headers=None):
        """(status, {lower-case header: value}, parsed body or bytes)."""
        h = dict(headers or {})
        if auth is True:
            h["Authorization"] = "Bot " + TOKEN
        elif auth:
            h["Authorization"] = auth
        if ua:
            h["User-Agent"] = ua
        data = raw
        if body is not None:
            data = json.dumps(body).encode()
            h.setdefault("Content-Type", "application/json")
        if ctype is not None:
            h["Content-Type"] = ctype
        req = urllib.request.Request(self.base + "/api/v10" + path, data=data,
                                     method=method, headers=h)
        try:
            with urllib.request.urlopen(req, timeout=10) as r:
                st, hd, payload = r.status, r.headers, r.read()
        except urllib.error.HTTPError as e:
            st, hd, payload = e.code, e.headers, e.read()
        hd = {k.lower(): v for k, v in hd.items()}
        if hd.get("content-type", "").startswith("application/json") and \
                payload:
            payload = json.loads(payload)
        return st, hd, payload

    def ctl(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.base + "/_fake" + path, data=data,
                                     method=method)
        try:
            with urllib.request.urlopen(req, timeout=10) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())

    def ctl_raw(self, path):
        """(status, content type, bytes) of a control GET."""
        req = urllib.request.Request(self.base + "/_fake" + path)
        try:
            with urllib.request.urlopen(req, timeout=10) as r:
                return r.status, r.headers["Content-Type"], r.read()
        except urllib.error.HTTPError as e:
            return e.code, e.headers["Content-Type"], e.read()

    def violations(self):
        return self.ctl("GET", "/violations")[1]

    def kinds(self):
        return [v["kind"] for v in self.violations()]


class GW:
    """A small gateway client that heartbeats like a real one."""

    def __init__(self, url, query="?v=10&encoding=json", compress=False):
        self.url = url + query + ("&compress=zlib-stream" if compress else "")
        self.compress = compress
        self.seq = None
        self.acks = 0
        self.hb = None
        self.seen = []

    async def open(self, hello=True, heartbeat=True):
        self.ws = await websockets.connect(
            self.url, max_size=None, compression=None, ping_interval=None,
            close_timeout=1)
        self.q = asyncio.Queue()
        self.z = zlib.decompressobj()
        self.buf = b""
        self.reader = asyncio.ensure_future(self._read())
        if hello:
            p = await self.expect(10)
            self.interval = p["d"]["heartbeat_interval"] / 1000.0
            if heartbeat:
                self.hb = asyncio.ensure_future(self._beat())
        return self

    async def _read(self):
        try:
            async for m in self.ws:
                if isinstance(m, bytes):
                    self.buf += m
                    if not self.buf.endswith(b"\x00\x00\xff\xff"):
                        continue
                    m = self.z.decompress(self.buf).decode()
                    self.buf = b""
                p = json.loads(m)
                if p.get("s") is not None:
                    self.seq = p["s"]
                if p["op"] == 11:
                    self.acks += 1
                await self.q.put(p)
        except websockets.ConnectionClosed:
            pass
        finally:
            await self.q.put(None)

    async def _beat(self):
        try:
            while True:
                await asyncio.sleep(self.interval * 0.5)
                await self.send({"op": 1, "d": self.seq})
        except (websockets.ConnectionClosed, asyncio.CancelledError):
            pass

    async def send(self, obj):
        await self.ws.send(obj if isinstance(obj, str) else json.dumps(obj))

    async def expect(self, op, t=None, timeout=3.0):
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no op {op} {t or ''} within "
                                     f"{timeout} s; saw {self.seen[-5:]}")
            try:
                p = await asyncio.wait_for(self.q.get(), left)
            except asyncio.TimeoutError:
                continue
            if p is None:
                await self.q.put(None)
                raise AssertionError(f"connection closed ({self.ws.close_code}"
                                     f") while waiting for op {op} {t or ''}")
            self.seen.append((p["op"], p.get("t")))
            if p["op"] == 11 and op != 11:
                continue
            if p["op"] == op and (t is None or p.get("t") == t):
                return p

    async def identify(self, token=TOKEN, intents=1, **extra):
        d = {"token": token, "intents": intents,
             "properties": {"os": "linux", "browser": "lair",
                            "device": "lair"}}
        d.update(extra)
        await self.send({"op": 2, "d": d})
        return await self.expect(0, "READY")

    async def resume(self, session_id, seq, token=TOKEN):
        await self.send({"op": 6, "d": {"token": token,
                                        "session_id": session_id,
                                        "seq": seq}})

    async def closed(self, timeout=4.0):
        await asyncio.wait_for(self.ws.wait_closed(), timeout)
        return self.ws.close_code

    async def close(self, code=1000):
        if self.hb:
            self.hb.cancel()
        await self.ws.close(code)
        await asyncio.sleep(0.05)  # let the fake record it


class FakeTest(unittest.IsolatedAsyncioTestCase):
    fake = None

    @classmethod
    def setUpClass(cls):
        cls.fake = Fake("--heartbeat-ms", "600", "--identify-interval-ms",
                        "0", "--quiet")

    @classmethod
    def tearDownClass(cls):
        rc = cls.fake.stop()
        assert rc == 0, f"fake_discord exited with {rc} on SIGTERM"

    def setUp(self):
        self.f = self.fake
        st, _ = self.f.ctl("POST", "/reset", {"gateway": True})
        self.assertEqual(st, 200)

    def tearDown(self):
        st, stats = self.f.ctl("GET", "/stats")
        self.assertEqual(stats["response_mismatches"], [],
                         "the fake's own responses disagree with openapi.json")

    def assertViolation(self, kind, n=1):
        kinds = self.f.kinds()
        self.assertEqual(kinds.count(kind), n, f"violations: {kinds}")

    def assertClean(self):
        self.assertEqual(self.f.violations(), [])

    def put_commands(self, scope_guild=None):
        cmds = [{"name": "game", "description": "Play a game", "options": [
            {"type": 1, "name": "new", "description": "Start a game",
             "options": [{"type": 3, "name": "game", "description": "Which",
                          "required": True,
                          "choices": [{"name": "Supervillain",
                                       "value": "supervillain"}]}]},
            {"type": 1, "name": "move", "description": "Make a move",
             "options": [{"type": 3, "name": "choice", "description": "What",
                          "required": True, "autocomplete": True}]},
            {"type": 1, "name": "invite", "description": "Invite",
             "options": [{"type": 6, "name": "who", "description": "Who",
                          "required": True}]}],
            "contexts": [0, 1], "default_member_permissions": None}]
        path = f"/applications/{APP}/commands" if scope_guild is None else \
            f"/applications/{APP}/guilds/{scope_guild}/commands"
        st, _, body = self.f.api("PUT", path, cmds)
        self.assertEqual(st, 200, body)
        return body

    async def session(self, **kw):
        g = await GW(self.f.gw_url, **kw).open()
        ready = await g.identify()
        return g, ready

    def test_one_command(self):
        """GET, PATCH and DELETE of one command by id, in either scope;
        an unknown id is 404 with code 10063."""
        for scope in (None, GUILD):
            base = f"/applications/{APP}/commands" if scope is None else \
                f"/applications/{APP}/guilds/{scope}/commands"
            cid = self.put_commands(scope)[0]["id"]
            st, _, c = self.f.api("GET", f"{base}/{cid}")
            self.assertEqual((st, c["name"]), (200, "game"))
            st, _, c = self.f.api("PATCH", f"{base}/{cid}",
                                  {"description": "Play a board game"})
            self.assertEqual((st, c["description"]), (200,
                                                      "Play a board game"))
            st, _, _ = self.f.api("DELETE", f"{base}/{cid}")
            self.assertEqual(st, 204)
            for method, body in (("GET", None), ("PATCH", {"name": "x"}),
                                 ("DELETE", None)):
                st, _, err = self.f.api(method, f"{base}/{cid}", body)
                self.assertEqual((st, err["code"]), (404, 10063), method)
        self.assertClean()

    # -- REST: validation -----------------------------------------------------
    def test_valid_requests_pass(self):
        st, h, body = self.f.api("GET", "/gateway/bot")
        self.assertEqual(st, 200)
        self.assertEqual(body["url"], self.f.gw_url)
        self.assertEqual(body["shards"], 1)
        self.assertEqual(body["session_start_limit"]["max_concurrency"], 1)
        st, _, app = self.f.api("GET", "/applications/@me")
        self.assertEqual((st, app["id"]), (200, APP))
        st, _, app = self.f.api("GET", "/oauth2/applications/@me")
        self.assertEqual((st, app["id"]), (200, APP))
        st, _, me = self.f.api("GET", "/users/@me")
        self.assertTrue(me["bot"])
        cmds = self.put_commands()
        self.assertTrue(cmds[0]["id"].isdigit())
        again = self.put_commands()
        self.assertEqual(again[0]["id"], cmds[0]["id"], "ids are stable")
        self.put_commands(GUILD)
        st, _, got = self.f.api("GET", f"/applications/{APP}/commands")
        self.assertEqual([c["name"] for c in got], ["game"])
        st, _, dm1 = self.f.api("POST", "/users/@me/channels",
                                {"recipient_id": ALICE})
        st, _, dm2 = self.f.api("POST", "/users/@me/channels",
                                {"recipient_id": ALICE})
        self.assertEqual(dm1["id"], dm2["id"])
        self.assertEqual(dm1["type"], 1)
        st, _, m = self.f.api("POST", f"/channels/{dm1['id']}/messages", {
            "content": "Your hand", "embeds": [{"title": "Hand",
                                                "description": "x"}],
            "components": [{"type": 1, "components": [
                {"type": 3, "custom_id": "g1:v3:play", "options": [
                    {"label": "A", "value": "a"}, {"label": "B",
                                                   "value": "b"}]}]}]})
        self.assertEqual(st, 200, m)
        st, _, m2 = self.f.api("PATCH", f"/channels/{dm1['id']}/messages/"
                               f"{m['id']}", {"content": "Your new hand"})
        self.assertEqual((st, m2["content"]), (200, "Your new hand"))
        self.assertIsNotNone(m2["edited_timestamp"])
        st, _, ch = self.f.api("GET", f"/channels/{dm1['id']}")
        self.assertEqual((st, ch["recipients"][0]["id"]), (200, ALICE))
        st, _, ch = self.f.api("GET", f"/channels/{CHANNEL}")
        self.assertEqual((st, ch["guild_id"]), (200, GUILD))
        st, _, got = self.f.api("GET", f"/channels/{dm1['id']}/messages"
                                "?limit=10")
        self.assertEqual([x["id"] for x in got], [m["id"]])
        st, _, _ = self.f.api("POST", f"/channels/{CHANNEL}/typing")
        self.assertEqual(st, 204)
        st, _, tmp = self.f.api("POST", f"/channels/{CHANNEL}/messages",
                                {"content": "bye", "embeds": [{
                                    "title": "t", "color": 5,
                                    "timestamp": "2025-01-01T00:00:00Z",
                                    "fields": [{"name": "a", "value": "b",
                                                "inline": True}]}]})
        self.assertEqual(st, 200, tmp)
        st, _, _ = self.f.api("DELETE", f"/channels/{CHANNEL}/messages/"
                              f"{tmp['id']}")
        self.assertEqual(st, 204)
        st, _, _ = self.f.api("GET", f"/channels/{CHANNEL}/messages/"
                              f"{tmp['id']}")
        self.assertEqual(st, 404)
        st, msgs = self.f.ctl("GET", f"/messages?user={ALICE}")
        self.assertEqual(len(msgs), 1)
        self.assertEqual(msgs[0]["_fake"]["edits"], 1)
        self.assertEqual(msgs[0]["components"][0]["components"][0]
                         ["custom_id"], "g1:v3:play")
        st, stats = self.f.ctl("GET", "/stats")
        self.assertEqual(stats["command_puts"], {"global": 2, GUILD: 1})
        self.assertClean()

    def test_invalid_body_is_violation(self):
        st, _, body = self.f.api("POST", f"/channels/{CHANNEL}/messages",
                                 {"content": 5})
        self.assertEqual(st, 400)
        self.assertEqual(body["code"], 50035)
        self.assertEqual(body["message"], "Invalid Form Body")
        self.assertIn("_errors", body["errors"]["content"])
        self.assertViolation("schema")
        st, _, body = self.f.api("PUT", f"/applications/{APP}/commands",
                                 {"name": "x"})
        self.assertEqual(st, 400)
        self.assertViolation("schema", 2)

    def test_message_limits(self):
        row = lambda *cs: {"type": 1, "components": list(cs)}  # noqa: E731
        btn = lambda cid: {"type": 2, "style": 1, "label": "b",  # noqa: E731
                           "custom_id": cid}
        sel = {"type": 3, "custom_id": "s", "options": [
            {"label": "a", "value": "a"}]}
        cases = [
            {"content": "x" * 2001},
            {"components": [row(btn(f"b{i}")) for i in range(6)]},
            {"components": [row(*[btn(f"b{i}") for i in range(6)])]},
            {"components": [row(sel, btn("b"))]},
            {"components": [row(btn("x" * 101))]},
            {"components": [row(btn("same"), btn("same"))]},
            {"components": [row({"type": 3, "custom_id": "s", "options": [
                {"label": str(i), "value": str(i)} for i in range(26)]})]},
            {"embeds": [{"title": "t"}] * 11},
            {"embeds": [{"description": "d" * 4000},
                        {"description": "d" * 2001}]},
            {"content": "hi", "flags": 64},
        ]
        for i, body in enumerate(cases):
            self.f.ctl("POST", "/reset")  # 5 messages per 5 s per channel
            st, _, r = self.f.api("POST", f"/channels/{CHANNEL}/messages",
                                  body)
            self.assertEqual((st, r["code"]), (400, 50035), f"case {i}: {r}")
            self.assertEqual(len(self.f.violations()), 1, f"case {i}")
        st, _, r = self.f.api("POST", f"/channels/{CHANNEL}/messages", {})
        self.assertEqual((st, r["code"]), (400, 50006))
        st, _, r = self.f.api("POST", f"/channels/{CHANNEL}/messages",
                              {"content": "x" * 2000})
        self.assertEqual(st, 200)

    def test_unknown_path_and_method(self):
        st, _, body = self.f.api("GET", "/nope/at/all")
        self.assertEqual((st, body["code"]), (404, 0))
        self.assertViolation("unknown_route")
        st, _, body = self.f.api("DELETE", "/gateway/bot")
        self.assertEqual(st, 405)
        self.assertViolation("method")
        st, _, _ = self.f.api("GET", f"/channels/{CHANNEL}/messages/")
        self.assertEqual(st, 404)
        self.assertViolation("unknown_route", 2)
        req = urllib.request.Request(self.f.base + "/api/v9/gateway/bot",
                                     headers={"Authorization": "Bot " + TOKEN,
                                              "User-Agent": UA})
        with self.assertRaises(urllib.error.HTTPError):
            urllib.request.urlopen(req)
        self.assertViolation("api_version")
        st, _, body = self.f.api("GET", f"/guilds/{GUILD}/audit-logs")
        self.assertEqual(st, 404)
        self.assertViolation("unemulated")

    def test_params(self):
        st, _, body = self.f.api("POST", "/channels/abc/messages",
                                 {"content": "x"})
        self.assertEqual(st, 400)
        self.assertEqual(body["errors"]["channel_id"]["_errors"][0]["code"],
                         "NUMBER_TYPE_COERCE")
        st, _, body = self.f.api("GET", f"/channels/{CHANNEL}/messages"
                                 "?limit=5&colour=red")
        self.assertEqual(st, 400)
        self.assertIn("colour", body["errors"])
        self.assertViolation("params", 2)

    def test_headers_auth_user_agent_content_type(self):
        st, _, body = self.f.api("GET", "/gateway/bot", auth=None)
        self.assertEqual((st, body["message"]), (401, "401: Unauthorized"))
        st, _, _ = self.f.api("GET", "/gateway/bot", auth="Bot wrong")
        self.assertEqual(st, 401)
        st, _, _ = self.f.api("GET", "/gateway/bot", auth="Bearer " + TOKEN)
        self.assertEqual(st, 401)
        self.assertViolation("auth", 3)
        st, _, _ = self.f.api("GET", "/users/@me", ua="curl/8.0")
        self.assertEqual(st, 200)
        self.assertViolation("user_agent")
        st, _, body = self.f.api("POST", f"/channels/{CHANNEL}/messages",
                                 raw=b'{"content":"x"}',
                                 ctype="text/plain")
        self.assertEqual((st, body["code"]), (400, 50035))
        self.assertViolation("content_type")
        st, _, body = self.f.api("POST", f"/channels/{CHANNEL}/messages",
                                 raw=b'{"content":', ctype="application/json")
        self.assertEqual((st, body["code"]), (400, 50109))
        st, stats = self.f.ctl("GET", "/stats")
        self.assertEqual(stats["invalid_requests_10min"], 3)

    def multipart(self, method, path, payload, files):
        """(status, body) of a multipart/form-data request: payload_json,
        then files [(part name, filename, content type, bytes)]."""
        boundary = "xYzZY"
        parts = [("payload_json", None, "application/json",
                  json.dumps(payload).encode())] + list(files)
        body = b""
        for name, fn, ct, data in parts:
            body += f"--{boundary}\r\n".encode()
            disp = f'form-data; name="{name}"' + \
                (f'; filename="{fn}"' if fn else "")
            body += f"Content-Disposition: {disp}\r\nContent-Type: {ct}" \
                    f"\r\n\r\n".encode() + data + b"\r\n"
        body += f"--{boundary}--\r\n".encode()
        st, _, m = self.f.api(method, path, raw=body,
                              ctype=f"multipart/form-data; boundary={boundary}")
        return st, m

    def test_multipart_upload(self):
        png = tiny_png()
        parts = [("files[0]", "board.png", "image/png", png)]
        st, m = self.multipart(
            "POST", f"/channels/{CHANNEL}/messages",
            {"content": "board", "attachments": [
                {"id": "0", "filename": "board.png"}],
             "embeds": [{"image": {"url": "attachment://board.png"}}]}, parts)
        self.assertEqual(st, 200, m)
        self.assertEqual(m["attachments"][0]["filename"], "board.png")
        self.assertEqual(m["attachments"][0]["size"], len(png))
        # The bytes are kept: the control API serves them by attachment id,
        # and the request record carries each file's SHA-256.
        st, ctype, data = self.f.ctl_raw(
            f"/attachments/{m['attachments'][0]['id']}")
        self.assertEqual((st, ctype, data), (200, "image/png", png))
        st, listed = self.f.ctl("GET", "/attachments")
        self.assertEqual([(a["id"], a["filename"], a["size"]) for a in listed],
                         [(m["attachments"][0]["id"], "board.png", len(png))])
        rec = self.f.ctl("GET", "/requests")[1][-1]
        self.assertEqual(rec["files"], [{
            "name": "files[0]", "filename": "board.png", "size": len(png),
            "content_type": "image/png",
            "sha256": hashlib.sha256(png).hexdigest()}])
        self.assertEqual(rec["body"]["attachments"][0]["filename"],
                         "board.png")
        self.assertEqual(self.f.ctl_raw("/attachments/1")[0], 404)
        self.assertClean()
        # An edit that lists only its new file replaces the old one.
        png2 = tiny_png(2)
        st, m2 = self.multipart(
            "PATCH", f"/channels/{CHANNEL}/messages/{m['id']}",
            {"attachments": [{"id": "0", "filename": "board2.png"}],
             "embeds": [{"image": {"url": "attachment://board2.png"}}]},
            [("files[0]", "board2.png", "image/png", png2)])
        self.assertEqual(st, 200, m2)
        self.assertEqual([a["filename"] for a in m2["attachments"]],
                         ["board2.png"])
        # An edit that keeps the old one by its id keeps it.
        aid = m2["attachments"][0]["id"]
        st, _, m3 = self.f.api(
            "PATCH", f"/channels/{CHANNEL}/messages/{m['id']}",
            {"content": "still", "attachments": [{"id": aid}],
             "embeds": [{"image": {"url": "attachment://board2.png"}}]})
        self.assertEqual(st, 200, m3)
        self.assertEqual([a["id"] for a in m3["attachments"]], [aid])
        self.assertClean()

    def test_multipart_refused(self):
        """Files Discord would refuse or not show: a .png that is no PNG,
        a PNG sent as another type, a file without an attachments entry of
        its index, an entry naming no file, a part without a file name, an
        index past 9, and an embed image naming no attachment."""
        png, path = tiny_png(), f"/channels/{CHANNEL}/messages"
        att0 = {"attachments": [{"id": "0", "filename": "b.png"}]}
        cases = [
            ("multipart", att0,
             [("files[0]", "b.png", "image/png", b"\x89PNG\r\n\x1a\n")]),
            ("multipart", att0,
             [("files[0]", "b.png", "application/json", png)]),
            ("multipart", dict(att0, content="x"),
             [("files[0]", None, "image/png", png)]),
            ("multipart", {"content": "x"},
             [("files[10]", "b.png", "image/png", png)]),
            ("attachments", {"content": "x"},
             [("files[0]", "b.png", "image/png", png)]),
            ("attachments", {"content": "x", "attachments": [
                {"id": "0", "filename": "b.png"}, {"id": "1"}]},
             [("files[0]", "b.png", "image/png", png)]),
            ("attachments", dict(att0, embeds=[
                {"image": {"url": "attachment://other.png"}}]),
             [("files[0]", "b.png", "image/png", png)]),
        ]
        for i, (kind, payload, files) in enumerate(cases):
            st, _ = self.f.ctl("POST", "/reset", {})
            st, body = self.multipart("POST", path, payload, files)
            self.assertEqual((st, body.get("code")), (400, 50035),
                             f"case {i}: {body}")
            self.assertViolation(kind)

    def test_keepalive_and_expect_continue(self):
        c = http.client.HTTPConnection("127.0.0.1", self.f.http, timeout=5)
        h = {"Authorization": "Bot " + TOKEN, "User-Agent": UA}
        for _ in range(3):
            c.request("GET", "/api/v10/users/@me", headers=h)
            r = c.getresponse()
            self.assertEqual(r.status, 200)
            r.read()
        c.close()
        reqs = self.f.ctl("GET", "/requests")[1]
        self.assertEqual(len({r["connection"] for r in reqs}), 1)
        self.assertEqual([r["conn_seq"] for r in reqs], [1, 2, 3])
        # libcurl sends Expect: 100-continue for large bodies; chunked too.
        s = socket.create_connection(("127.0.0.1", self.f.http), timeout=5)
        payload = json.dumps({"content": "x" * 1500}).encode()
        s.sendall((f"POST /api/v10/channels/{CHANNEL}/messages HTTP/1.1\r\n"
                   f"Host: x\r\nAuthorization: Bot {TOKEN}\r\n"
                   f"User-Agent: {UA}\r\nContent-Type: application/json\r\n"
                   f"Content-Length: {len(payload)}\r\n"
                   "Expect: 100-continue\r\n\r\n").encode())
        self.assertTrue(s.recv(100).startswith(b"HTTP/1.1 100 Continue"))
        s.sendall(payload)
        self.assertIn(b"200 OK", s.recv(4096))
        chunk = json.dumps({"content": "chunked"}).encode()
        s.sendall((f"POST /api/v10/channels/{CHANNEL}/messages HTTP/1.1\r\n"
                   f"Host: x\r\nAuthorization: Bot {TOKEN}\r\n"
                   f"User-Agent: {UA}\r\nContent-Type: application/json\r\n"
                   "Transfer-Encoding: chunked\r\n\r\n"
                   f"{len(chunk):x}\r\n").encode() + chunk + b"\r\n0\r\n\r\n")
        self.assertIn(b"200 OK", s.recv(4096))
        s.close()
        self.assertClean()

    def test_commands_rules(self):
        bad = [
            [{"name": "Game", "description": "d"}],
            [{"name": "game", "description": ""}],
            [{"name": "game", "description": "d", "options": [
                {"type": 3, "name": f"o{i}", "description": "d"}
                for i in range(26)]}],
            [{"name": "game", "description": "d", "options": [
                {"type": 3, "name": "a", "description": "d"},
                {"type": 3, "name": "b", "description": "d",
                 "required": True}]}],
            [{"name": "game", "description": "d"},
             {"name": "game", "description": "e"}],
            [{"name": "game", "description": "d",
              "default_member_permissions": "8"}],
        ]
        for i, cmds in enumerate(bad):
            # PUT is limited to 5 per 20 s per scope: alternate scopes.
            scope = "" if i % 2 else f"/guilds/{GUILD}"
            st, _, r = self.f.api("PUT", f"/applications/{APP}{scope}"
                                  "/commands", cmds)
            self.assertEqual((st, r.get("code")), (400, 50035), f"case {i}")
        st, _, r = self.f.api("PUT", "/applications/1187000000000000999/"
                              "commands", [])
        self.assertEqual((st, r["code"]), (403, 50001))
        self.assertEqual(self.f.ctl("GET", "/stats")[1]["command_puts"], {})

    # -- REST: rate limits ----------------------------------------------------
    def keepalive_post(self, conn, path, body):
        conn.request("POST", "/api/v10" + path, json.dumps(body), headers={
            "Authorization": "Bot " + TOKEN, "User-Agent": UA,
            "Content-Type": "application/json"})
        r = conn.getresponse()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, \
            json.loads(r.read() or b"null")

    def test_rate_limit_headers_and_429(self):
        path = f"/channels/{CHANNEL}/messages"
        buckets = set()
        c = http.client.HTTPConnection("127.0.0.1", self.f.http, timeout=5)
        for i in range(5):
            st, h, _ = self.keepalive_post(c, path, {"content": str(i)})
            self.assertEqual(st, 200)
            self.assertEqual(h["x-ratelimit-limit"], "5")
            self.assertEqual(h["x-ratelimit-remaining"], str(4 - i))
            self.assertGreater(float(h["x-ratelimit-reset-after"]), 0)
            self.assertGreater(float(h["x-ratelimit-reset"]), time.time())
            buckets.add(h["x-ratelimit-bucket"])
        self.assertEqual(len(buckets), 1)
        st, h, body = self.keepalive_post(c, path, {"content": "too many"})
        c.close()
        self.assertEqual(st, 429)
        self.assertEqual(body["message"], "You are being rate limited.")
        self.assertFalse(body["global"])
        self.assertGreater(body["retry_after"], 0)
        self.assertEqual(h["x-ratelimit-scope"], "user")
        self.assertIn("retry-after", h)
        self.assertNotIn("x-ratelimit-global", h)
        # Another channel is another bucket (same hash).
        st, _, dm = self.f.api("POST", "/users/@me/channels",
                               {"recipient_id": BOB})
        st, h2, _ = self.f.api("POST", f"/channels/{dm['id']}/messages",
                               {"content": "hi"})
        self.assertEqual((st, h2["x-ratelimit-bucket"]), (200, buckets.pop()))
        stats = self.f.ctl("GET", "/stats")[1]
        self.assertEqual(stats["unexpected_429"], 1)
        self.assertEqual(stats["scripted_429"], 0)
        self.assertViolation("rate_limit")

    def test_concurrent_first_burst_is_not_unexpected(self):
        # Six requests on six connections before any answer: the client
        # could not know the bucket yet, so the 429 is natural.
        socks = []
        body = json.dumps({"content": "burst"}).encode()
        for _ in range(6):
            s = socket.create_connection(("127.0.0.1", self.f.http), 5)
            s.sendall((f"POST /api/v10/channels/{CHANNEL}/messages HTTP/1.1"
                       f"\r\nHost: x\r\nAuthorization: Bot {TOKEN}\r\n"
                       f"User-Agent: {UA}\r\nContent-Type: application/json"
                       f"\r\nContent-Length: {len(body)}\r\n\r\n").encode()
                      + body)
            socks.append(s)
        codes = sorted(int(s.recv(4096).split(b" ")[1]) for s in socks)
        for s in socks:
            s.close()
        self.assertEqual(codes, [200] * 5 + [429])
        stats = self.f.ctl("GET", "/stats")[1]
        self.assertEqual((stats["natural_429"], stats["unexpected_429"]),
                         (1, 0))

    def test_global_limit(self):
        c = http.client.HTTPConnection("127.0.0.1", self.f.http, timeout=5)
        h = {"Authorization": "Bot " + TOKEN, "User-Agent": UA}
        statuses = []
        for i in range(51):
            c.request("GET", f"/api/v10/channels/1{i:018d}", headers=h)
            r = c.getresponse()
            statuses.append((r.status, r.getheader("X-RateLimit-Global"),
                             r.getheader("X-RateLimit-Scope")))
            r.read()
        c.close()
        self.assertEqual(statuses[-1], (429, "true", "global"))
        self.assertNotIn(429, [s[0] for s in statuses[:50]])

    def test_scripted_http_faults(self):
        def fault(**f):
            st, r = self.f.ctl("POST", "/fault", dict(kind="http", **f))
            self.assertEqual(st, 200, r)
        fault(status=429, scope="bucket", route=r"^GET /users/@me$",
              retry_after=0.25)
        st, h, body = self.f.api("GET", "/users/@me")
        self.assertEqual((st, body["retry_after"], body["global"]),
                         (429, 0.25, False))
        self.assertEqual(h["x-ratelimit-scope"], "user")
        self.assertEqual(h["x-ratelimit-remaining"], "0")
        self.assertIn("x-ratelimit-bucket", h)
        fault(status=429, scope="global", route="users")
        st, h, body = self.f.api("GET", "/users/@me")
        self.assertEqual((st, body["global"], h["x-ratelimit-global"],
                          h["x-ratelimit-scope"]), (429, True, "true",
                                                     "global"))
        fault(status=429, scope="cloudflare", route="users")
        st, h, body = self.f.api("GET", "/users/@me")
        self.assertEqual(st, 429)
        self.assertTrue(h["content-type"].startswith("text/html"))
        self.assertIn("retry-after", h)
        self.assertFalse([k for k in h if k.startswith("x-ratelimit")])
        fault(status=500, route="gateway/bot", count=2)
        self.assertEqual(self.f.api("GET", "/gateway/bot")[0], 500)
        self.assertEqual(self.f.api("GET", "/gateway/bot")[0], 500)
        self.assertEqual(self.f.api("GET", "/gateway/bot")[0], 200)
        fault(status=403, route="messages", code=50013,
              message="Missing Permissions")
        st, _, body = self.f.api("POST", f"/channels/{CHANNEL}/messages",
                                 {"content": "x"})
        self.assertEqual((st, body["code"]), (403, 50013))
        st, _ = self.f.ctl("POST", "/fault", {"kind": "slow", "ms": 300,
                                              "route": "applications"})
        t0 = time.monotonic()
        st, _, _ = self.f.api("GET", "/applications/@me")
        self.assertEqual(st, 200)
        self.assertGreaterEqual(time.monotonic() - t0, 0.29)
        stats = self.f.ctl("GET", "/stats")[1]
        self.assertEqual((stats["scripted_429"], stats["unexpected_429"]),
                         (3, 0))
        self.assertEqual(self.f.ctl("GET", "/faults")[1], [])
        self.assertClean()

    def test_dm_closed(self):
        self.f.ctl("POST", "/dm_closed", {"user_id": BOB})
        st, _, dm = self.f.api("POST", "/users/@me/channels",
                               {"recipient_id": BOB})
        self.assertEqual(st, 200)
        st, _, body = self.f.api("POST", f"/channels/{dm['id']}/messages",
                                 {"content": "your hand"})
        self.assertEqual((st, body["code"], body["message"]),
                         (403, 50007, "Cannot send messages to this user"))
        self.assertClean()
        st, _, body = self.f.api("POST", "/channels/1234567/messages",
                                 {"content": "?"})
        self.assertEqual((st, body["code"]), (404, 10003))

    # -- interactions ---------------------------------------------------------
    async def test_interaction_flow(self):
        self.put_commands()
        g, ready = await self.session()
        st, r = self.f.ctl("POST", "/interaction", {
            "type": 2, "data": {"name": "game", "options": [
                {"name": "new", "options": [{"name": "game",
                                             "value": "supervillain"}]}]},
            "member": {"user": {"id": ALICE, "username": "alice"},
                       "permissions": "8"}})
        self.assertEqual(st, 200, r)
        self.assertTrue(r["dispatched"])
        ev = await g.expect(0, "INTERACTION_CREATE")
        d = ev["d"]
        self.assertEqual((d["id"], d["token"]), (r["id"], r["token"]))
        self.assertEqual(d["application_id"], APP)
        self.assertEqual(d["member"]["permissions"], "8")
        self.assertEqual(d["member"]["user"]["id"], ALICE)
        self.assertEqual(d["guild_id"], GUILD)
        self.assertEqual(d["data"]["options"][0]["type"], 1)
        self.assertEqual(d["data"]["options"][0]["options"][0]["type"], 3)
        for k in ("version", "app_permissions", "locale", "channel",
                  "authorizing_integration_owners", "context"):
            self.assertIn(k, d)
        cb = f"/interactions/{d['id']}/{d['token']}/callback"
        st, h, _ = self.f.api("POST", cb, {"type": 4, "data": {
            "content": "Game 7 created", "components": [{"type": 1,
                "components": [{"type": 2, "style": 1, "label": "Join",
                                "custom_id": "g7:v1:join"}]}]}})
        self.assertEqual(st, 204)
        self.assertIn("x-ratelimit-bucket", h)
        st, info = self.f.ctl("GET", f"/interaction/{d['id']}")
        self.assertEqual(info["callback"]["type"], 4)
        self.assertIsNotNone(info["latency_ms"])
        self.assertLess(info["latency_ms"], 3000)
        st, _, body = self.f.api("POST", cb, {"type": 4, "data": {
            "content": "again"}})
        self.assertEqual((st, body["code"]), (400, 40060))
        self.assertViolation("double_ack")
        wh = f"/webhooks/{APP}/{d['token']}"
        st, _, fu = self.f.api("POST", wh, {"content": "Only you see this",
                                            "flags": 64})
        self.assertEqual(st, 200, fu)
        self.assertEqual(fu["flags"] & 64, 64)
        st, _, orig = self.f.api("PATCH", wh + "/messages/@original",
                                 {"content": "Game 7 (1/4 players)"})
        self.assertEqual((st, orig["content"]), (200, "Game 7 (1/4 players)"))
        st, _, got = self.f.api("GET", wh + f"/messages/{fu['id']}")
        self.assertEqual((st, got["id"]), (200, fu["id"]))
        st, _, _ = self.f.api("PATCH", wh + f"/messages/{fu['id']}",
                              {"content": "Your cards: none"})
        self.assertEqual(st, 200)
        msgs = self.f.ctl("GET", f"/messages?channel={CHANNEL}")[1]
        self.assertEqual([m["_fake"]["ephemeral"] for m in msgs],
                         [False, True])
        # Bob clicks Join on the original message.
        st, r2 = self.f.ctl("POST", "/interaction", {
            "type": 3, "data": {"custom_id": "g7:v1:join"},
            "member": {"user": {"id": BOB, "username": "bob"}}})
        self.assertEqual(st, 200, r2)
        ev = await g.expect(0, "INTERACTION_CREATE")
        self.assertEqual(ev["d"]["message"]["id"], orig["id"])
        self.assertEqual(ev["d"]["data"]["component_type"], 2)
        st, _, _ = self.f.api("POST", f"/interactions/{r2['id']}/"
                              f"{r2['token']}/callback", {"type": 7, "data": {
                                  "content": "Game 7 (2/4 players)"}})
        self.assertEqual(st, 204)
        msgs = self.f.ctl("GET", f"/messages?channel={CHANNEL}")[1]
        self.assertEqual(msgs[0]["content"], "Game 7 (2/4 players)")
        self.assertEqual(msgs[0]["_fake"]["edits"], 2)
        # Nobody can click a component that no message carries.

        self.assertEqual(self.f.ctl("POST", "/interaction", {
            "type": 3, "data": {"custom_id": "nope"}})[0], 400)
        await g.close()
        self.assertViolation("double_ack")
        self.assertEqual(len(self.f.violations()), 1)

    async def test_threads(self):
        self.put_commands()
        g, _ = await self.session()
        st, h, th = self.f.api("POST", f"/channels/{CHANNEL}/threads", {
            "name": "Supervillain (opened by alice)", "type": 11,
            "auto_archive_duration": 10080})
        self.assertEqual(st, 201, th)
        tid = th["id"]
        self.assertEqual((th["type"], th["parent_id"], th["guild_id"],
                          th["owner_id"], th["name"]),
                         (11, CHANNEL, GUILD, APP,
                          "Supervillain (opened by alice)"))
        self.assertEqual((th["thread_metadata"]["archived"],
                          th["thread_metadata"]["locked"],
                          th["thread_metadata"]["auto_archive_duration"]),
                         (False, False, 10080))
        self.assertEqual((th["message_count"], th["member"]["user_id"]),
                         (0, APP))
        self.assertEqual((h["x-ratelimit-limit"], h["x-ratelimit-remaining"]),
                         ("5", "4"))
        ev = await g.expect(0, "THREAD_CREATE")
        self.assertEqual((ev["d"]["id"], ev["d"]["newly_created"]),
                         (tid, True))
        # A channel now: messages, GET, the control API's list.
        st, _, m = self.f.api("POST", f"/channels/{tid}/messages",
                              {"content": "Game #7 opened"})
        self.assertEqual((st, m["channel_id"]), (200, tid))
        st, _, got = self.f.api("GET", f"/channels/{tid}")
        self.assertEqual((st, got["type"], got["parent_id"],
                          got["message_count"], got["last_message_id"]),
                         (200, 11, CHANNEL, 1, m["id"]))
        listed = self.f.ctl("GET", f"/channels?parent={CHANNEL}")[1]
        self.assertEqual([c["id"] for c in listed], [tid])
        # An interaction from the thread.
        st, r = self.f.ctl("POST", "/interaction", {
            "type": 2, "channel_id": tid, "data": {
                "name": "game", "options": [{"name": "move", "options": [
                    {"name": "choice", "value": "end"}]}]},
            "member": {"user": {"id": BOB, "username": "bob"}}})
        self.assertEqual(st, 200, r)
        ev = await g.expect(0, "INTERACTION_CREATE")
        d = ev["d"]
        self.assertEqual((d["channel_id"], d["channel"]["type"],
                          d["channel"]["parent_id"], d["guild_id"]),
                         (tid, 11, CHANNEL, GUILD))
        st, _, _ = self.f.api("POST", f"/interactions/{d['id']}/{d['token']}"
                              "/callback", {"type": 4, "data": {
                                  "content": "bob ends the day"}})
        self.assertEqual(st, 204)
        msgs = self.f.ctl("GET", f"/messages?channel={tid}")[1]
        self.assertEqual([x["content"] for x in msgs],
                         ["Game #7 opened", "bob ends the day"])
        self.assertClean()
        # Without a type Discord makes a private thread (v9, v10).
        st, _, priv = self.f.api("POST", f"/channels/{CHANNEL}/threads",
                                 {"name": "private"})
        self.assertEqual((st, priv["type"]), (201, 12))
        self.assertIn("invitable", priv["thread_metadata"])
        self.assertClean()
        # Refused: a thread in a thread or a DM, an unknown channel, a
        # missing name, an archive duration Discord does not offer, an
        # announcement thread in a text channel.
        st, _, dm = self.f.api("POST", "/users/@me/channels",
                               {"recipient_id": ALICE})
        for where in (tid, dm["id"]):
            st, _, body = self.f.api("POST", f"/channels/{where}/threads",
                                     {"name": "x", "type": 11})
            self.assertEqual((st, body["code"]), (400, 50024))
        self.assertViolation("thread", 2)
        st, _, body = self.f.api("POST", "/channels/1187000000000000999/"
                                 "threads", {"name": "x", "type": 11})
        self.assertEqual((st, body["code"]), (404, 10003))
        self.assertViolation("unknown_channel")
        for bad in ({"type": 11}, {"name": "x", "type": 11,
                                    "auto_archive_duration": 7}):
            self.f.ctl("POST", "/reset")  # 5 threads per minute per channel
            st, _, body = self.f.api("POST", f"/channels/{CHANNEL}/threads",
                                     bad)
            self.assertEqual((st, body["code"]), (400, 50035), bad)
            self.assertViolation("schema")
        self.f.ctl("POST", "/reset")
        st, _, body = self.f.api("POST", f"/channels/{CHANNEL}/threads",
                                 {"name": "x", "type": 10})
        self.assertEqual((st, body["code"]), (400, 50035))
        self.assertViolation("thread")
        # The parent channel's thread bucket: 5 per minute.
        self.f.ctl("POST", "/reset")
        for i in range(5):
            st, h, _ = self.f.api("POST", f"/channels/{CHANNEL}/threads",
                                  {"name": f"t{i}", "type": 11})
            self.assertEqual(st, 201)
        self.assertEqual(h["x-ratelimit-remaining"], "0")
        st, h, body = self.f.api("POST", f"/channels/{CHANNEL}/threads",
                                 {"name": "t5", "type": 11})
        self.assertEqual(st, 429, body)
        self.assertGreater(body["retry_after"], 50)
        await g.close()

    async def test_late_and_unknown_callbacks(self):
        self.put_commands()
        g, _ = await self.session()
        st, r = self.f.ctl("POST", "/interaction", {
            "type": 2, "user": {"id": ALICE}, "data": {
                "name": "game", "options": [{"name": "move", "options": [
                    {"name": "choice", "value": "x"}]}]}})
        self.assertEqual(st, 200, r)
        ev = await g.expect(0, "INTERACTION_CREATE")
        self.assertEqual(ev["d"]["context"], 1)
        self.assertIn("user", ev["d"])
        self.assertNotIn("member", ev["d"])
        self.f.ctl("POST", "/age", {"interaction_id": r["id"], "ms": 3100})
        st, _, body = self.f.api("POST", f"/interactions/{r['id']}/"
                                 f"{r['token']}/callback", {"type": 5})
        self.assertEqual((st, body["code"]), (404, 10062))
        self.assertViolation("late_callback")
        st, _, body = self.f.api("POST", f"/interactions/{r['id']}/wrong/"
                                 "callback", {"type": 5})
        self.assertEqual((st, body["code"]), (404, 10062))
        self.assertViolation("unknown_interaction")
        st, _, body = self.f.api("POST", f"/webhooks/{APP}/{r['token']}",
                                 {"content": "x"})
        self.assertEqual((st, body["code"]), (404, 10015))
        self.assertViolation("followup_before_ack")
        info = self.f.ctl("GET", f"/interaction/{r['id']}")[1]
        self.assertIsNone(info["callback"])
        self.assertEqual(info["callback_errors"][0]["code"], 10062)
        await g.close()

    async def test_deferred_and_autocomplete(self):
        self.put_commands(GUILD)
        g, _ = await self.session()
        st, r = self.f.ctl("POST", "/interaction", {
            "type": 2, "data": {"name": "game", "options": [
                {"name": "invite", "options": [{"name": "who",
                                                "value": BOB}]}]}})
        self.assertEqual(st, 200, r)
        ev = await g.expect(0, "INTERACTION_CREATE")
        self.assertIn(BOB, ev["d"]["data"]["resolved"]["users"])
        self.assertEqual(ev["d"]["data"]["guild_id"], GUILD)
        st, _, res = self.f.api("POST", f"/interactions/{r['id']}/"
                                f"{r['token']}/callback?with_response=true",
                                {"type": 5, "data": {"flags": 64}})
        self.assertEqual(st, 200)
        self.assertTrue(res["interaction"]["response_message_loading"])
        st, _, fu = self.f.api("POST", f"/webhooks/{APP}/{r['token']}",
                               {"content": "Invited"})
        self.assertEqual(st, 200)
        info = self.f.ctl("GET", f"/interaction/{r['id']}")[1]
        self.assertEqual(info["original"]["id"], fu["id"],
                         "the first followup fills the deferred message")
        self.assertTrue(info["original"]["_fake"]["ephemeral"])
        self.assertEqual(info["original"]["flags"] & 128, 0)
        st, r = self.f.ctl("POST", "/interaction", {
            "type": 4, "data": {"name": "game", "options": [
                {"name": "move", "options": [{"name": "choice", "value": "pl",
                                              "focused": True}]}]}})
        self.assertEqual(st, 200, r)
        cb = f"/interactions/{r['id']}/{r['token']}/callback"
        st, _, body = self.f.api("POST", cb, {"type": 4, "data": {
            "content": "no"}})
        self.assertEqual(st, 400)
        self.assertViolation("callback_type")
        st, _, _ = self.f.api("POST", cb, {"type": 8, "data": {"choices": [
            {"name": "Play Ace", "value": "c1"}]}})
        self.assertEqual(st, 204)
        st, r3 = self.f.ctl("POST", "/interaction", {
            "type": 2, "data": {"name": "game", "options": [
                {"name": "new", "options": []}]}})
        self.assertEqual(st, 400, "a required option is missing")
        await g.close()

    async def test_interaction_needs_a_session(self):
        self.put_commands()
        st, r = self.f.ctl("POST", "/interaction", {
            "type": 2, "data": {"name": "game", "options": [
                {"name": "move", "options": [{"name": "choice",
                                              "value": "x"}]}]}})
        self.assertEqual(st, 409, r)

    # -- gateway --------------------------------------------------------------
    async def test_hello_identify_ready_heartbeat(self):
        g = await GW(self.f.gw_url).open(heartbeat=False)
        self.assertEqual(g.interval, 0.6)
        await g.send({"op": 1, "d": None})
        await g.expect(11)
        ready = await g.identify(shard=[0, 1])
        d = ready["d"]
        self.assertEqual(ready["s"], 1)
        self.assertEqual(d["v"], 10)
        self.assertEqual(d["resume_gateway_url"], self.f.gw_url)
        self.assertEqual(d["application"]["id"], APP)
        self.assertEqual(d["shard"], [0, 1])
        self.assertTrue(d["user"]["bot"])
        self.assertEqual(d["guilds"], [{"id": GUILD, "unavailable": True}])
        gc = await g.expect(0, "GUILD_CREATE")
        self.assertEqual((gc["s"], gc["d"]["id"]), (2, GUILD))
        await g.send({"op": 1, "d": 2})
        await g.expect(11)
        await g.send({"op": 3, "d": {"since": None, "activities": [],
                                     "status": "online", "afk": False}})
        state = self.f.ctl("GET", "/gateway?wait_ready_ms=1000")[1]
        c = state["connections"][-1]
        self.assertEqual((c["identifies"], c["heartbeats"], c["acks"]),
                         (1, 2, 2))
        self.assertEqual(state["ready_sessions"], [d["session_id"]])
        await g.close()
        state = self.f.ctl("GET", "/gateway")[1]
        self.assertEqual(state["last_closes"][-1]["code"], 1000)
        self.assertFalse(state["sessions"][-1]["resumable"])
        self.assertClean()

    async def test_zlib_stream(self):
        g = await GW(self.f.gw_url, compress=True).open()
        ready = await g.identify(intents=0)
        self.assertEqual(ready["d"]["v"], 10)
        await g.close()

    async def test_close_codes(self):
        async def case(payloads, code, query="?v=10&encoding=json",
                       identify=False):
            g = GW(self.f.gw_url, query)
            await g.open(hello=code != 4012, heartbeat=False)
            if identify:
                await g.identify()
            for p in payloads:
                try:
                    await g.send(p)
                except websockets.ConnectionClosed:
                    break
            self.assertEqual(await g.closed(), code, f"payloads {payloads}")
        ident = {"op": 2, "d": {"token": TOKEN, "intents": 1, "properties": {
            "os": "l", "browser": "b", "device": "d"}}}
        bad_token = json.loads(json.dumps(ident))
        bad_token["d"]["token"] = "Bot " + TOKEN
        priv = json.loads(json.dumps(ident))
        priv["d"]["intents"] = 1 << 15
        await case([bad_token], 4004)
        await case([ident], 4005, identify=True)
        await case([{"op": 3, "d": {}}], 4003)
        await case([{"op": 42, "d": None}], 4001)
        await case(["{not json"], 4002)
        await case([{"op": 1, "d": "x" * 5000}], 4002)
        await case([{"op": 1, "d": None}] * 125, 4008)
        await case([priv], 4014)
        await case([], 4012, query="?encoding=json")
        kinds = self.f.kinds()
        for k in ("gateway_auth", "gateway_op", "gateway_decode",
                  "gateway_rate", "gateway_intents", "gateway_url"):
            self.assertIn(k, kinds)
        closes = self.f.ctl("GET", "/gateway")[1]["close_codes"]
        for code in (4004, 4005, 4003, 4001, 4002, 4008, 4014, 4012):
            self.assertIn(str(code), closes)

    async def test_heartbeat_timeout(self):
        g = await GW(self.f.gw_url).open(heartbeat=False)
        t0 = time.monotonic()
        self.assertEqual(await g.closed(timeout=5), 4009)
        self.assertGreater(time.monotonic() - t0, 0.6)
        self.assertViolation("heartbeat")

    async def test_resume_replays_missed_events(self):
        self.put_commands()
        g, ready = await self.session()
        sid = ready["d"]["session_id"]
        await g.expect(0, "GUILD_CREATE")
        seq = g.seq
        await g.close(4000)
        st, r = self.f.ctl("POST", "/interaction", {
            "type": 2, "data": {"name": "game", "options": [
                {"name": "move", "options": [{"name": "choice",
                                              "value": "x"}]}]}})
        self.assertEqual((st, r["dispatched"]), (200, False))
        g2 = await GW(self.f.gw_url).open()
        await g2.resume(sid, seq)
        ev = await g2.expect(0)
        self.assertEqual((ev["t"], ev["s"], ev["d"]["id"]),
                         ("INTERACTION_CREATE", seq + 1, r["id"]))
        ev = await g2.expect(0)
        self.assertEqual(ev["t"], "RESUMED")
        info = self.f.ctl("GET", f"/interaction/{r['id']}")[1]
        self.assertIsNotNone(info["dispatched_at"])
        await g2.close(4000)
        # Unknown sessions are invalid; so is a session closed with 1000.
        g3 = await GW(self.f.gw_url).open()
        await g3.resume("0" * 32, 1)
        self.assertFalse((await g3.expect(9))["d"])
        await g3.resume(sid, 1)
        await g3.expect(0, "INTERACTION_CREATE")
        await g3.expect(0, "RESUMED")
        await g3.close(1000)
        g4 = await GW(self.f.gw_url).open()
        await g4.resume(sid, 1)
        self.assertFalse((await g4.expect(9))["d"])
        await g4.send({"op": 6, "d": {"token": TOKEN, "session_id": sid}})
        self.assertEqual(await g4.closed(), 4002)
        state = self.f.ctl("GET", "/gateway")[1]
        self.assertEqual(state["counters"]["resumes"], 2)
        self.assertEqual(state["counters"]["resume_failed"], 2)

    async def test_gateway_faults(self):
        g, ready = await self.session()
        sid = ready["d"]["session_id"]
        await g.expect(0, "GUILD_CREATE")
        self.assertEqual(self.f.ctl("POST", "/fault", {"kind": "op1"})[0],
                         200)
        await g.expect(1)
        self.f.ctl("POST", "/fault", {"kind": "op7"})
        await g.expect(7)
        self.f.ctl("POST", "/fault", {"kind": "stop_acks"})
        before = g.acks
        await g.send({"op": 1, "d": g.seq})
        await asyncio.sleep(0.3)
        self.assertEqual(g.acks, before, "acks stopped")
        await g.close(4000)
        # op 9 resumable: the session survives; not resumable: it ends.
        g2 = await GW(self.f.gw_url).open()
        await g2.resume(sid, 2)
        await g2.expect(0, "RESUMED")
        self.f.ctl("POST", "/fault", {"kind": "op9", "resumable": True})
        self.assertTrue((await g2.expect(9))["d"])
        await g2.resume(sid, g2.seq)
        await g2.expect(0, "RESUMED")
        self.f.ctl("POST", "/fault", {"kind": "op9", "resumable": False})
        self.assertFalse((await g2.expect(9))["d"])
        await g2.resume(sid, g2.seq)
        self.assertFalse((await g2.expect(9))["d"])
        ready2 = await g2.identify()
        self.assertNotEqual(ready2["d"]["session_id"], sid)
        self.f.ctl("POST", "/fault", {"kind": "close", "code": 4000})
        self.assertEqual(await g2.closed(), 4000)
        g3, _ = await self.session()
        self.f.ctl("POST", "/fault", {"kind": "drop"})
        self.assertEqual(await g3.closed(), 1006)
        state = self.f.ctl("GET", "/gateway")[1]
        self.assertEqual(state["last_closes"][-1]["by"], "server_dropped")
        self.assertEqual(state["last_closes"][-2]["code"], 4000)
        # op 7 before Hello on the next connection.
        self.f.ctl("POST", "/fault", {"kind": "op7", "before_hello": True})
        g4 = GW(self.f.gw_url)
        await g4.open(hello=False)
        await g4.expect(7)
        await g4.expect(10)
        await g4.close(4000)
        self.assertEqual(self.f.ctl("POST", "/fault", {"kind": "op7"})[0],
                         409, "no open connection")

    async def test_dup_after_resume(self):
        self.put_commands()
        g, ready = await self.session()
        sid = ready["d"]["session_id"]
        st, r = self.f.ctl("POST", "/interaction", {
            "type": 2, "data": {"name": "game", "options": [
                {"name": "move", "options": [{"name": "choice",
                                              "value": "x"}]}]}})
        first = await g.expect(0, "INTERACTION_CREATE")
        self.f.ctl("POST", "/fault", {"kind": "dup_after_resume"})
        seq = g.seq
        await g.close(4000)
        g2 = await GW(self.f.gw_url).open()
        await g2.resume(sid, seq)
        await g2.expect(0, "RESUMED")
        dup = await g2.expect(0, "INTERACTION_CREATE")
        self.assertEqual(dup["d"]["id"], first["d"]["id"])
        self.assertGreater(dup["s"], first["s"])
        info = self.f.ctl("GET", f"/interaction/{r['id']}")[1]
        self.assertEqual(info["dispatch_count"], 2)
        await g2.close(4000)


class SeparateProcessTest(unittest.IsolatedAsyncioTestCase):
    def setUp(self):
        self.f = None
        if self._testMethodName == "test_identify_rate":
            self.f = Fake("--identify-interval-ms", "5000", "--quiet")
        if self._testMethodName == "test_shards":
            self.f = Fake("--identify-interval-ms", "5000", "--shards", "4",
                          "--max-concurrency", "2", "--quiet")

    def tearDown(self):
        if self.f is not None:
            self.assertEqual(self.f.stop(), 0)

    async def test_identify_rate(self):
        f = self.f
        g = await GW(f.gw_url).open()
        await g.identify()
        await g.close(4000)
        g2 = await GW(f.gw_url).open()
        await g2.send({"op": 2, "d": {"token": TOKEN, "intents": 1,
                                      "properties": {"os": "l",
                                                     "browser": "b",
                                                     "device": "d"}}})
        self.assertFalse((await g2.expect(9))["d"])
        await g2.close(1000)
        self.assertEqual(f.kinds(), ["identify_rate"])

    async def test_shards(self):
        """Identify buckets, one shard count, routing by guild, DMs on
        shard 0, and what could not be delivered."""
        f = self.f
        st, _, body = f.api("GET", "/gateway/bot")
        self.assertEqual((body["shards"],
                          body["session_start_limit"]["max_concurrency"]),
                         (4, 2))

        def guild_on(shard):  # a guild id that Discord puts on shard/4
            top = (int(GUILD) >> 22) // 4 * 4 + shard
            return str((top << 22) | 100)

        g0, g1 = await GW(f.gw_url).open(), await GW(f.gw_url).open()
        await g0.identify(shard=[0, 4])
        await g1.identify(shard=[1, 4])  # bucket 1: at once is fine
        self.assertEqual(f.kinds(), [])
        g2 = await GW(f.gw_url).open()
        await g2.send({"op": 2, "d": {"token": TOKEN, "intents": 1,
                                      "shard": [2, 4], "properties": {
                                          "os": "l", "browser": "b",
                                          "device": "d"}}})
        self.assertFalse((await g2.expect(9))["d"])  # bucket 0 again
        self.assertEqual(f.kinds(), ["identify_rate"])
        g3 = await GW(f.gw_url).open()
        await g3.send({"op": 2, "d": {"token": TOKEN, "intents": 1,
                                      "shard": [3, 8], "properties": {
                                          "os": "l", "browser": "b",
                                          "device": "d"}}})
        self.assertEqual(await g3.closed(), 4010)
        self.assertEqual(f.kinds(), ["identify_rate", "gateway_shard"])

        def post(**where):
            st, r = f.ctl("POST", "/interaction", dict(
                {"type": 2, "force": True, "data": {"name": "x"}}, **where))
            return st, r
        st, r = post(guild_id=guild_on(1), channel_id=guild_on(1)[:-1] + "1")
        self.assertEqual((st, r.get("shard")), (200, 1), r)
        ev = await g1.expect(0, "INTERACTION_CREATE")
        self.assertEqual(ev["d"]["id"], r["id"])
        st, r = post(user={"id": BOB, "username": "bob"})
        self.assertEqual((st, r.get("shard")), (200, 0), r)
        ev = await g0.expect(0, "INTERACTION_CREATE")
        self.assertEqual(ev["d"]["id"], r["id"])
        st, r = post(guild_id=guild_on(3), channel_id=guild_on(3)[:-1] + "1")
        self.assertEqual(st, 409, r)
        state = f.ctl("GET", "/gateway")[1]
        self.assertEqual([(u["shard"], u["why"]) for u in
                          state["undelivered"]], [(3, "no session")])
        self.assertEqual([(i["shard"], i["bucket"], i["accepted"]) for i in
                          state["identify_log"]],
                         [(0, 0, True), (1, 1, True), (2, 0, False)])
        for g in (g0, g1, g2):
            await g.close(1000)

    def test_missing_openapi(self):
        r = subprocess.run([sys.executable, "-B", FAKE, "--openapi",
                            "/nonexistent/openapi.json"],
                           capture_output=True, text=True, timeout=10)
        self.assertEqual(r.returncode, 2)
        self.assertIn("openapi.json", r.stderr)


def main():
    global OPENAPI
    argv = sys.argv[1:]
    OPENAPI = os.environ.get("LAIR_DISCORD_OPENAPI", DEFAULT_OPENAPI)
    if "--openapi" in argv:
        i = argv.index("--openapi")
        OPENAPI = argv[i + 1]
        del argv[i:i + 2]
    if not os.path.isfile(OPENAPI):
        print(f"test_fake: FAIL: Discord's OpenAPI description {OPENAPI} is "
              "missing. The fake Discord validates every request against it; "
              "it is committed as tests/discord/spec/openapi.json "
              "(pass --openapi PATH or set LAIR_DISCORD_OPENAPI).",
              file=sys.stderr)
        return 1
    if websockets is None:
        print("test_fake: FAIL: python3-websockets is not installed for "
              f"{sys.executable} (tools/deps.sh installs it)", file=sys.stderr)
        return 1
    t0 = time.monotonic()
    prog = unittest.main(argv=[sys.argv[0]] + argv, exit=False)
    print(f"test_fake: {prog.result.testsRun} tests in "
          f"{time.monotonic() - t0:.1f} s", file=sys.stderr)
    return 0 if prog.result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
