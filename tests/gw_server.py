#!/usr/bin/python3
"""A scripted Discord gateway for tests/test_gateway.c.

Usage: gw_server.py SCENARIO LOGFILE [CERT KEY]

With CERT and KEY it speaks TLS (wss://; tests/data/gateway/ holds a
self-signed certificate for localhost and 127.0.0.1, valid 2000-2100, made
for these tests only).

Listens on 127.0.0.1 on a free port, prints "PORT <n>" on stdout, and
plays SCENARIO on every connection (the connection's number n picks the
step of the script). Each scenario ends by dispatching LAIR_TEST_END, on
which the test calls bot_gw_stop, or by a close code that must end
bot_gw_run. Everything seen goes to LOGFILE, one JSON object a line, with
t in milliseconds since the start (monotonic):

  {"ev": "connect", "n": 1, "path": "/?v=10&encoding=json", "t": 3}
  {"ev": "sent", "n": 1, "op": 0, "tname": "READY", "s": 1, "t": 9}
  {"ev": "recv", "n": 1, "op": 2, "d": {...}, "t": 8}
  {"ev": "close_sent", "n": 1, "code": 4004, "t": 400}  (a scripted close)
  {"ev": "closed", "n": 1, "code": 4000, "by": "client", "t": 420}
  {"ev": "error", "n": 1, "msg": "..."}  (the script did not go as planned)

The C test reads the log and checks it; this script only plays its part.
Needs Debian's python3-websockets (10.x). Runs until killed, at most
120 s.
"""
import asyncio
import json
import ssl
import sys
import time

import websockets

T0 = time.monotonic()
LOG = None
CONNS = 0
RESUME_PATH = "/resume"


def now_ms():
    return int((time.monotonic() - T0) * 1000)


def log(**ev):
    ev["t"] = now_ms()
    LOG.write(json.dumps(ev) + "\n")
    LOG.flush()


class ScriptError(Exception):
    pass


class Conn:
    """One client connection: a reader task logs what arrives, answers
    heartbeats (unless ack is False) and queues everything else."""

    def __init__(self, ws, n, port):
        self.ws = ws
        self.n = n
        self.port = port
        self.ack = True
        self.beats = 0
        self.inbox = asyncio.Queue()
        self.closed_by_server = False
        self.reader = asyncio.ensure_future(self.read())

    async def read(self):
        try:
            async for text in self.ws:
                msg = json.loads(text)
                op = msg.get("op")
                log(ev="recv", n=self.n, op=op, d=msg.get("d"))
                if op == 1:
                    self.beats += 1
                    if self.ack:
                        await self.send({"op": 11, "d": None, "s": None})
                else:
                    await self.inbox.put(msg)
        except websockets.ConnectionClosed:
            pass

    async def send(self, msg, fragment=0):
        text = json.dumps(msg)
        tname = msg.get("t")
        log(ev="sent", n=self.n, op=msg["op"], tname=tname, s=msg.get("s"),
            size=len(text))
        if fragment:
            parts = [text[i:i + fragment]
                     for i in range(0, len(text), fragment)]
            await self.ws.send(parts)
        else:
            await self.ws.send(text)

    async def hello(self, interval=200):
        await self.send({"op": 10, "d": {"heartbeat_interval": interval},
                         "s": None, "t": None})

    async def dispatch(self, t, d, s, fragment=0):
        await self.send({"op": 0, "d": d, "s": s, "t": t}, fragment)

    async def ready(self, s=1, session="sess-1", extra=None):
        d = {"v": 10, "session_id": session,
             "resume_gateway_url": "ws://127.0.0.1:%d%s" % (self.port,
                                                           RESUME_PATH),
             "user": {"id": "1", "username": "lair"}, "guilds": []}
        if extra:
            d.update(extra)
        await self.dispatch("READY", d, s)

    async def expect(self, *ops, timeout=5.0):
        try:
            msg = await asyncio.wait_for(self.inbox.get(), timeout)
        except asyncio.TimeoutError:
            raise ScriptError("expected op %s, got nothing" % (ops,))
        if msg.get("op") not in ops:
            raise ScriptError("expected op %s, got %s" % (ops, msg.get("op")))
        return msg

    async def beats_at_least(self, k, timeout=5.0):
        end = time.monotonic() + timeout
        while self.beats < k:
            if time.monotonic() > end:
                raise ScriptError("only %d heartbeats" % self.beats)
            await asyncio.sleep(0.01)

    async def close(self, code):
        self.closed_by_server = True
        log(ev="close_sent", n=self.n, code=code)
        await self.ws.close(code=code, reason="scripted close")

    async def end(self, s):
        await self.dispatch("LAIR_TEST_END", {}, s)
        await self.wait_closed()

    async def wait_closed(self, timeout=10.0):
        try:
            await asyncio.wait_for(self.ws.wait_closed(), timeout)
        except asyncio.TimeoutError:
            raise ScriptError("the client did not close")


# ---- scenarios: async def NAME(c), c.n = 1, 2, ... -------------------------

async def basic(c):
    await c.hello(200)
    await c.expect(2)
    await c.ready(s=1)
    await c.dispatch("LAIR_TEST_EVENT", {"x": 42, "name": "event"}, 2)
    await c.beats_at_least(4)
    await c.end(3)


async def zombie(c):
    if c.n == 1:
        c.ack = False
        await c.hello(200)
        await c.expect(2)
        await c.ready(s=1)
        await c.dispatch("LAIR_TEST_EVENT", {}, 5)
        await c.send({"op": 99, "d": None, "s": None, "t": None})
        await c.wait_closed()
    else:
        await c.hello(200)
        await c.expect(6)
        await c.dispatch("RESUMED", {}, 6)
        await c.end(7)


async def op1(c):
    await c.hello(60000)
    await c.expect(2)
    await c.ready(s=1)
    await asyncio.sleep(0.1)
    before = c.beats
    await c.send({"op": 1, "d": None, "s": None, "t": None})
    await c.beats_at_least(before + 1, timeout=2.0)
    await c.end(2)


def resume_after(action):
    """n=1 identifies, gets READY (s=3), then `action`; n=2 must resume."""
    async def scenario(c):
        if c.n == 1:
            await c.hello(200)
            await c.expect(2)
            await c.ready(s=3)
            await action(c)
            await c.wait_closed()
        else:
            await c.hello(200)
            await c.expect(6)
            await c.dispatch("RESUMED", {}, 4)
            await c.end(5)
    return scenario


async def send_op7(c):
    await c.send({"op": 7, "d": None, "s": None, "t": None})


async def send_op9_true(c):
    await c.send({"op": 9, "d": True, "s": None, "t": None})


async def drop_tcp(c):
    c.ws.transport.abort()


async def op7_before_hello(c):
    if c.n == 1:
        await c.send({"op": 7, "d": None, "s": None, "t": None})
        await c.wait_closed()
    else:
        await c.hello(200)
        await c.expect(2)
        await c.ready(s=1)
        await c.end(2)


async def op9_false(c):
    if c.n == 1:
        await c.hello(200)
        await c.expect(2)
        await c.ready(s=3)
        await c.send({"op": 9, "d": False, "s": None, "t": None})
        await c.wait_closed()
    else:
        await c.hello(200)
        await c.expect(2)
        await c.ready(s=1, session="sess-2")
        await c.end(2)


def close_with(code):
    """n=1 closes with code after READY; n=2 answers Resume or Identify."""
    async def scenario(c):
        if c.n == 1:
            await c.hello(200)
            await c.expect(2)
            await c.ready(s=2)
            await c.close(code)
            await c.wait_closed()
        else:
            await c.hello(200)
            msg = await c.expect(2, 6)
            if msg["op"] == 6:
                await c.dispatch("RESUMED", {}, 3)
            else:
                await c.ready(s=1, session="sess-2")
            await c.end(4)
    return scenario


async def fragmented(c):
    await c.hello(200)
    await c.expect(2)
    guilds = [{"id": str(10**17 + i), "unavailable": True}
              for i in range(6000)]
    d = {"v": 10, "session_id": "sess-big",
         "resume_gateway_url": "ws://127.0.0.1:%d%s" % (c.port, RESUME_PATH),
         "user": {"id": "1", "username": "lair"}, "guilds": guilds}
    await c.dispatch("READY", d, 1, fragment=7000)
    await c.end(2)


async def overcap(c):
    if c.n == 1:
        await c.hello(200)
        await c.expect(2)
        await c.ready(s=1)
        await c.dispatch("LAIR_TEST_BIG", {"blob": "x" * 100000}, 2,
                         fragment=16000)
        await c.wait_closed()
    else:
        await c.hello(200)
        await c.expect(6)
        await c.dispatch("RESUMED", {}, 3)
        await c.end(4)


async def budget(c):
    await c.hello(200)
    await c.expect(2)
    await c.ready(s=1)
    await asyncio.sleep(0.7)  # the test floods from on_event(READY)
    await c.end(2)


async def identify_loop(c):
    await c.hello(200)
    await c.expect(2)
    if c.n < 4:
        await c.close(4007)
        await c.wait_closed()
    else:
        await c.ready(s=1)
        await c.end(2)


async def refuse(c):
    if c.n < 5:
        await c.close(4000)  # before Hello: nothing to resume yet
        await c.wait_closed()
    else:
        await c.hello(200)
        await c.expect(2)
        await c.ready(s=1)
        await c.end(2)


async def stay(c):
    await c.hello(200)
    await c.expect(2)
    await c.ready(s=1)
    await c.wait_closed()


SCENARIOS = {
    "basic": basic,
    "zombie": zombie,
    "op1": op1,
    "op7": resume_after(send_op7),
    "op7_before_hello": op7_before_hello,
    "op9_true": resume_after(send_op9_true),
    "op9_false": op9_false,
    "drop": resume_after(drop_tcp),
    "fragmented": fragmented,
    "overcap": overcap,
    "budget": budget,
    "identify_loop": identify_loop,
    "refuse": refuse,
    "stay": stay,
}


async def main():
    global LOG
    name, logpath = sys.argv[1], sys.argv[2]
    if name.startswith("close_"):
        scenario = close_with(int(name[len("close_"):]))
    else:
        scenario = SCENARIOS[name]
    LOG = open(logpath, "w", encoding="utf-8")
    port = 0

    async def handler(ws):
        global CONNS
        CONNS += 1
        c = Conn(ws, CONNS, port)
        log(ev="connect", n=c.n, path=ws.path)
        try:
            await scenario(c)
        except ScriptError as e:
            log(ev="error", n=c.n, msg=str(e))
            await ws.close(code=1011)
        except websockets.ConnectionClosed:
            pass
        await ws.wait_closed()
        c.reader.cancel()
        log(ev="closed", n=c.n, code=ws.close_code,
            by="server" if c.closed_by_server else "client")

    tls = None
    if len(sys.argv) > 4:
        tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        tls.load_cert_chain(sys.argv[3], sys.argv[4])
    async with websockets.serve(handler, "127.0.0.1", 0, ping_interval=None,
                                max_size=None, ssl=tls) as server:
        port = server.sockets[0].getsockname()[1]
        print("PORT %d" % port, flush=True)
        await asyncio.sleep(120)  # a failed test may not kill it: end anyway


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        pass
