"""The fake Discord gateway (v10, JSON, optional zlib-stream) on
python3-websockets.

One `Gateway` serves every connection. Sessions outlive connections: a
session keeps its dispatched events with their sequence numbers so a
Resume (op 6) replays what the client missed, then sends RESUMED. Close
codes follow Discord's table; client mistakes are recorded as violations
through the owning FakeDiscord before the connection is closed.

Sharding: an Identify may carry `shard` [id, N]; every connected session
must use the same N and no shard may be identified twice at once. The
Identify rate is per bucket (id % max_concurrency): a second Identify of
a bucket within the identify interval is a violation. A guild's events go
to the shard (guild_id >> 22) % N, DMs to shard 0; one for a shard
without a connected session is recorded in `undelivered`.
"""

import asyncio
import collections
import json
import secrets
import time
import urllib.parse
import zlib

import websockets

# Close codes after which the session cannot be resumed.
NON_RESUMABLE = {4004, 4007, 4009, 4010, 4011, 4012, 4013, 4014}
KNOWN_INTENTS = (1 << 26) - 1
PRIVILEGED_INTENTS = (1 << 1) | (1 << 8) | (1 << 15)
GUILDS_INTENT = 1 << 0
MAX_PAYLOAD = 4096
MAX_PAYLOADS_PER_MINUTE = 120
KEEP_EVENTS = 5000


class Session:
    def __init__(self, sid, shard, intents, properties):
        self.id = sid
        self.created = time.time()
        self.shard = shard
        self.intents = intents
        self.properties = properties
        self.seq = 0
        self.events = []  # {"s", "t", "d", "iid", "replay"}
        self.conn = None
        self.valid = True
        self.resumes = 0
        self.end_reason = None

    def summary(self):
        return {"session_id": self.id, "created_at": self.created,
                "shard": self.shard, "intents": self.intents,
                "properties": self.properties, "seq": self.seq,
                "connected": self.conn is not None and self.conn.open,
                "connection": self.conn.n if self.conn else None,
                "resumable": self.valid, "resumes": self.resumes,
                "ended": self.end_reason,
                "events": [{"s": e["s"], "t": e["t"]} for e in self.events[-50:]]}


class Conn:
    def __init__(self, n, ws, path):
        self.n = n
        self.ws = ws
        self.path = path
        self.opened_at = time.time()
        self.hello_at = None
        self.session = None
        self.acking = True
        self.identifies = 0
        self.resumes = 0
        self.failed_resumes = 0
        self.heartbeats = 0
        self.acks = 0
        self.server_heartbeat_requests = 0
        self.last_heartbeat_at = None
        self.last_heartbeat_d = None
        self.payload_times = collections.deque()
        self.payloads_in = 0
        self.payloads_out = 0
        self.ops_in = collections.Counter()
        self.invalid_sessions_sent = 0
        self.reconnects_sent = 0
        self.zctx = None
        self.open = True
        self.server_closing = False
        self.closed_by = None
        self.close_code = None
        self.close_reason = None
        self.closed_at = None
        self.max_seq_sent = 0

    def summary(self):
        return {"id": self.n, "path": self.path, "opened_at": self.opened_at,
                "open": self.open, "session_id": self.session.id
                if self.session else None, "identifies": self.identifies,
                "resumes": self.resumes, "failed_resumes": self.failed_resumes,
                "heartbeats": self.heartbeats, "acks": self.acks,
                "acking": self.acking,
                "last_heartbeat_d": self.last_heartbeat_d,
                "payloads_in": self.payloads_in,
                "payloads_out": self.payloads_out,
                "ops_in": {str(k): v for k, v in self.ops_in.items()},
                "invalid_sessions_sent": self.invalid_sessions_sent,
                "reconnects_sent": self.reconnects_sent,
                "compressed": self.zctx is not None,
                "closed_by": self.closed_by, "close_code": self.close_code,
                "close_reason": self.close_reason, "closed_at": self.closed_at}


class Gateway:
    def __init__(self, fake, heartbeat_ms, identify_interval_ms,
                 privileged_intents=False, max_concurrency=1):
        self.fake = fake
        self.heartbeat_ms = heartbeat_ms
        self.identify_interval = identify_interval_ms / 1000.0
        self.max_concurrency = max(1, max_concurrency)
        self.privileged_ok = privileged_intents
        self.port = None
        self.server = None
        self.reset()

    def reset(self, drop_sessions=False):
        live = [c for c in getattr(self, "conns", []) if c.open]
        self.conns = live
        self.conn_seq = getattr(self, "conn_seq", 0)
        if drop_sessions or not hasattr(self, "sessions"):
            self.sessions = {}
        self.counters = collections.Counter()
        self.close_codes = collections.Counter()
        self.last_closes = []
        self.pending_dup = 0
        self.next_conn_faults = []
        self.last_identify = {}  # bucket (shard id % max_concurrency) -> t
        self.identify_log = []  # {shard, bucket, at, conn, accepted}
        self.undelivered = []  # {t, guild_id, shard, why, at}
        self.session_starts = 0

    async def start(self, host, port):
        self.server = await websockets.serve(
            self.handler, host, port, max_size=1 << 20, compression=None,
            ping_interval=None, close_timeout=2, max_queue=256)
        self.port = self.server.sockets[0].getsockname()[1]
        return self.port

    async def close(self):
        if self.server:
            self.server.close()

    @property
    def url(self):
        return f"ws://127.0.0.1:{self.port}"

    def live(self):
        return [c for c in self.conns if c.open and not c.server_closing]

    # -- sending -------------------------------------------------------------
    async def send(self, conn, payload):
        if not conn.open:
            return False
        text = json.dumps(payload, separators=(",", ":"))
        try:
            if conn.zctx is not None:
                data = conn.zctx.compress(text.encode()) + \
                    conn.zctx.flush(zlib.Z_SYNC_FLUSH)
                await conn.ws.send(data)
            else:
                await conn.ws.send(text)
        except websockets.ConnectionClosed:
            return False
        conn.payloads_out += 1
        self.counters["payloads_out"] += 1
        return True

    async def send_event(self, conn, e):
        ok = await self.send(conn, {"op": 0, "t": e["t"], "s": e["s"],
                                    "d": e["d"]})
        if ok:
            conn.max_seq_sent = max(conn.max_seq_sent, e["s"])
            self.counters["dispatches"] += 1
            if e.get("iid"):
                self.fake.on_interaction_sent(e["iid"])
        return ok

    async def emit(self, session, t, d, iid=None, replay=True):
        session.seq += 1
        e = {"s": session.seq, "t": t, "d": d, "iid": iid, "replay": replay}
        session.events.append(e)
        if len(session.events) > KEEP_EVENTS:
            del session.events[:len(session.events) - KEEP_EVENTS]
        conn = session.conn
        if conn is not None and conn.open:
            await self.send_event(conn, e)
        return e

    @staticmethod
    def shard_of(guild_id, n):
        """Discord's rule: (guild_id >> 22) % n; DMs (no guild) on 0."""
        return (int(guild_id) >> 22) % n if guild_id else 0

    def pick_session(self, guild_id=None):
        """The newest resumable session for the shard that owns guild_id."""
        cands = []
        for s in self.sessions.values():
            if not s.valid:
                continue
            if s.shard and s.shard[1] > 1:
                if s.shard[0] != self.shard_of(guild_id, s.shard[1]):
                    continue
            cands.append(s)
        if not cands:
            return None
        return max(cands, key=lambda s: s.created)

    def shard_count(self):
        """N of the newest resumable session (1 when unsharded)."""
        live = [s for s in self.sessions.values() if s.valid]
        if not live:
            return 1
        s = max(live, key=lambda s: s.created)
        return s.shard[1] if s.shard else 1

    async def dispatch(self, t, d, guild_id=None, iid=None):
        s = self.pick_session(guild_id)
        if s is None or s.conn is None or not s.conn.open:
            n = self.shard_count()
            self.undelivered.append({
                "t": t, "guild_id": guild_id, "at": time.time(),
                "shard": self.shard_of(guild_id, n), "shards": n,
                "why": "no session" if s is None else "not connected"})
            del self.undelivered[:-200]
            self.counters["undelivered"] += 1
        if s is None:
            return None
        e = await self.emit(s, t, d, iid=iid)
        return {"session_id": s.id, "s": e["s"],
                "shard": s.shard[0] if s.shard else 0,
                "sent": s.conn is not None and s.conn.open}

    # -- closing -------------------------------------------------------------
    def _violation(self, conn, kind, reason):
        self.fake.violation(kind, "WS", conn.path, reason,
                            extra={"connection": conn.n})

    async def server_close(self, conn, code, reason):
        if conn.server_closing or not conn.open:
            return
        conn.server_closing = True
        conn.closed_by = "server"
        conn.close_code = code
        conn.close_reason = reason
        s = conn.session
        if s is not None:
            if code in NON_RESUMABLE:
                s.valid = False
                s.end_reason = f"server closed with {code}"
            if s.conn is conn:
                s.conn = None
        try:
            await conn.ws.close(code, reason)
        except Exception:
            pass

    def _detach(self, conn):
        s = conn.session
        conn.session = None
        if s is not None and s.conn is conn:
            s.conn = None
        return s

    # -- the connection ------------------------------------------------------
    async def handler(self, ws, path=None):
        path = path if path is not None else ws.path
        self.conn_seq += 1
        conn = Conn(self.conn_seq, ws, path)
        self.conns.append(conn)
        if len(self.conns) > 200:
            self.conns = [c for c in self.conns if c.open] + \
                [c for c in self.conns if not c.open][-100:]
        self.counters["connections"] += 1
        watchdog = None
        try:
            if not await self._open(conn):
                return
            watchdog = asyncio.ensure_future(self._watchdog(conn))
            async for msg in ws:
                if not await self._on_message(conn, msg):
                    break
        except websockets.ConnectionClosed:
            pass
        finally:
            if watchdog:
                watchdog.cancel()
            await self._closed(conn)

    async def _open(self, conn):
        u = urllib.parse.urlsplit(conn.path)
        q = urllib.parse.parse_qs(u.query, keep_blank_values=True)
        for f in [f for f in self.next_conn_faults if f == "op7"]:
            self.next_conn_faults.remove(f)
            conn.reconnects_sent += 1
            await self.send(conn, {"op": 7, "d": None, "s": None, "t": None})
        if u.path not in ("", "/"):
            self._violation(conn, "gateway_url", f"path {u.path!r}: the "
                            "gateway URL has no path")
        if q.get("v") != ["10"]:
            self._violation(conn, "gateway_url",
                            f"query {u.query!r}: v=10 is required")
            await self.server_close(conn, 4012, "Invalid API version.")
            return False
        enc = q.get("encoding")
        if enc is None:
            self._violation(conn, "gateway_url", "encoding=json is missing")
        elif enc != ["json"]:
            self._violation(conn, "gateway_url",
                            f"encoding {enc!r}: Lair speaks JSON")
            await self.server_close(conn, 4002, "Decode error.")
            return False
        comp = q.get("compress")
        if comp == ["zlib-stream"]:
            conn.zctx = zlib.compressobj()
        elif comp is not None:
            self._violation(conn, "gateway_url", f"compress {comp!r}")
            await self.server_close(conn, 4002, "Decode error.")
            return False
        for k in q:
            if k not in ("v", "encoding", "compress"):
                self._violation(conn, "gateway_url",
                                f"unknown query parameter {k!r}")
        conn.hello_at = time.monotonic()
        await self.send(conn, {"op": 10, "s": None, "t": None, "d": {
            "heartbeat_interval": self.heartbeat_ms,
            "_trace": ["[\"gateway-prd-fake-1\",{\"micros\":0.0}]"]}})
        return True

    async def _watchdog(self, conn):
        interval = self.heartbeat_ms / 1000.0
        grace = interval * 0.5 + 1.0
        while conn.open and not conn.server_closing:
            last = conn.last_heartbeat_at or conn.hello_at
            deadline = last + interval + grace
            now = time.monotonic()
            if now >= deadline:
                self._violation(conn, "heartbeat", f"no heartbeat for "
                                f"{now - last:.2f} s (interval "
                                f"{interval:.3f} s)")
                await self.server_close(conn, 4009, "Session timed out.")
                return
            await asyncio.sleep(min(deadline - now, 1.0) + 0.01)

    async def _closed(self, conn):
        conn.open = False
        conn.closed_at = time.time()
        ws = conn.ws
        if conn.closed_by is None:
            rcvd = getattr(ws, "close_rcvd", None)
            if rcvd is None:
                conn.closed_by = "client_dropped"
                conn.close_code = 1006
            else:
                conn.closed_by = "client"
                conn.close_code = rcvd.code
                conn.close_reason = rcvd.reason
        s = self._detach(conn)
        if s is not None and conn.closed_by == "client" and \
                conn.close_code in (1000, 1001):
            s.valid = False
            s.end_reason = f"client closed with {conn.close_code}"
        self.close_codes[str(conn.close_code)] += 1
        self.last_closes.append({"connection": conn.n, "code": conn.close_code,
                                 "by": conn.closed_by,
                                 "reason": conn.close_reason,
                                 "at": conn.closed_at})
        del self.last_closes[:-50]

    async def _on_message(self, conn, msg):
        now = time.monotonic()
        conn.payloads_in += 1
        self.counters["payloads_in"] += 1
        conn.payload_times.append(now)
        while conn.payload_times and conn.payload_times[0] < now - 60:
            conn.payload_times.popleft()
        raw = msg.encode() if isinstance(msg, str) else msg
        if len(conn.payload_times) > MAX_PAYLOADS_PER_MINUTE:
            self._violation(conn, "gateway_rate", f"more than "
                            f"{MAX_PAYLOADS_PER_MINUTE} payloads in 60 s")
            await self.server_close(conn, 4008, "Rate limited.")
            return False
        if isinstance(msg, bytes):
            self._violation(conn, "gateway_decode", "binary frame: JSON "
                            "encoding expects text frames")
            await self.server_close(conn, 4002, "Decode error.")
            return False
        if len(raw) > MAX_PAYLOAD:
            self._violation(conn, "gateway_decode", f"payload of {len(raw)} "
                            f"bytes (at most {MAX_PAYLOAD})")
            await self.server_close(conn, 4002, "Decode error.")
            return False
        try:
            p = json.loads(msg)
        except ValueError:
            self._violation(conn, "gateway_decode", f"invalid JSON: "
                            f"{msg[:120]!r}")
            await self.server_close(conn, 4002, "Decode error.")
            return False
        if not isinstance(p, dict) or not isinstance(p.get("op"), int) or \
                isinstance(p.get("op"), bool):
            self._violation(conn, "gateway_decode", f"not a payload: "
                            f"{msg[:120]!r}")
            await self.server_close(conn, 4002, "Decode error.")
            return False
        op, d = p["op"], p.get("d")
        conn.ops_in[op] += 1
        if op == 1:
            return await self._heartbeat(conn, d)
        if op == 2:
            return await self._identify(conn, d)
        if op == 6:
            return await self._resume(conn, d)
        if op in (3, 4, 8, 31):  # presence, voice, members, soundboard
            if conn.session is None:
                self._violation(conn, "gateway_auth", f"op {op} before "
                                "Identify")
                await self.server_close(conn, 4003, "Not authenticated.")
                return False
            if op == 8 and not (conn.session.intents & (1 << 1)):
                self._violation(conn, "gateway_op", "op 8 without the "
                                "GUILD_MEMBERS intent")
                await self.server_close(conn, 4014, "Disallowed intent(s).")
                return False
            return True
        self._violation(conn, "gateway_op", f"unknown or receive-only "
                        f"opcode {op}")
        await self.server_close(conn, 4001, "Unknown opcode.")
        return False

    async def _heartbeat(self, conn, d):
        if d is not None and (not isinstance(d, int) or isinstance(d, bool)):
            self._violation(conn, "gateway_decode", f"heartbeat d={d!r}")
            await self.server_close(conn, 4002, "Decode error.")
            return False
        if isinstance(d, int) and d > conn.max_seq_sent and conn.session:
            self._violation(conn, "heartbeat", f"heartbeat d={d} is beyond "
                            f"the last sequence sent ({conn.max_seq_sent})")
        conn.heartbeats += 1
        self.counters["heartbeats"] += 1
        conn.last_heartbeat_at = time.monotonic()
        conn.last_heartbeat_d = d
        if conn.acking:
            conn.acks += 1
            self.counters["acks"] += 1
            await self.send(conn, {"op": 11, "d": None, "s": None, "t": None})
        return True

    async def _bad_payload(self, conn, what):
        self._violation(conn, "gateway_decode", what)
        await self.server_close(conn, 4002, "Decode error.")
        return False

    async def _identify(self, conn, d):
        conn.identifies += 1
        self.counters["identifies"] += 1
        if conn.session is not None:
            self._violation(conn, "gateway_auth", "second Identify on an "
                            "authenticated connection")
            await self.server_close(conn, 4005, "Already authenticated.")
            return False
        if not isinstance(d, dict):
            return await self._bad_payload(conn, "Identify d is not an object")
        token = d.get("token")
        props = d.get("properties")
        intents = d.get("intents")
        if not isinstance(token, str):
            return await self._bad_payload(conn, "Identify without a token")
        if not isinstance(props, dict) or any(
                not isinstance(props.get(k), str)
                for k in ("os", "browser", "device")):
            return await self._bad_payload(conn, "Identify properties need "
                                           "os, browser and device strings")
        if not isinstance(intents, int) or isinstance(intents, bool):
            return await self._bad_payload(conn, "Identify without intents")
        lt = d.get("large_threshold")
        if lt is not None and not (isinstance(lt, int) and 50 <= lt <= 250):
            return await self._bad_payload(conn, f"large_threshold {lt!r}")
        if token != self.fake.token:
            self._violation(conn, "gateway_auth", "Identify with a wrong "
                            "token" + (" (the gateway takes the bare token, "
                                       "without \"Bot \")"
                                       if token == "Bot " + self.fake.token
                                       else ""))
            await self.server_close(conn, 4004, "Authentication failed.")
            return False
        shard = d.get("shard")
        if shard is not None:
            if not (isinstance(shard, list) and len(shard) == 2 and
                    all(isinstance(x, int) and not isinstance(x, bool)
                        for x in shard) and 0 <= shard[0] < shard[1]):
                self._violation(conn, "gateway_shard", f"shard {shard!r}")
                await self.server_close(conn, 4010, "Invalid shard.")
                return False
        mine = shard or [0, 1]
        if shard is not None:  # sharded sessions: one N for all
            for other in self.sharded_peers():
                if other.shard[1] != shard[1]:
                    self._violation(conn, "gateway_shard", f"shard {shard!r} "
                                    f"while connection {other.conn.n} runs "
                                    f"{other.shard!r}: one shard count for "
                                    "all")
                    await self.server_close(conn, 4010, "Invalid shard.")
                    return False
        if intents & ~KNOWN_INTENTS or intents < 0:
            self._violation(conn, "gateway_intents", f"intents {intents}")
            await self.server_close(conn, 4013, "Invalid intent(s).")
            return False
        if intents & PRIVILEGED_INTENTS and not self.privileged_ok:
            self._violation(conn, "gateway_intents", f"privileged intents "
                            f"{intents & PRIVILEGED_INTENTS} are not enabled "
                            "for this application")
            await self.server_close(conn, 4014, "Disallowed intent(s).")
            return False
        now = time.monotonic()
        bucket = mine[0] % self.max_concurrency
        last = self.last_identify.get(bucket)
        rec = {"shard": mine[0], "shards": mine[1], "bucket": bucket,
               "at": time.time(), "connection": conn.n, "accepted": False}
        self.identify_log.append(rec)
        del self.identify_log[:-500]
        if last is not None and now - last < self.identify_interval:
            self._violation(conn, "identify_rate", f"Identify of shard "
                            f"{mine[0]} {now - last:.2f} s after the previous "
                            f"one of its bucket {bucket} (max_concurrency "
                            f"{self.max_concurrency}: one per bucket per "
                            f"{self.identify_interval:g} s)")
            conn.invalid_sessions_sent += 1
            await self.send(conn, {"op": 9, "d": False, "s": None, "t": None})
            return True
        self.last_identify[bucket] = now
        rec["accepted"] = True
        if shard is not None:
            for other in self.sharded_peers():
                if other.shard[0] == shard[0]:
                    self._violation(conn, "gateway_shard", f"shard {shard!r} "
                                    "identified again while connection "
                                    f"{other.conn.n} runs it")
        if self.fake.session_starts_left() <= 0:
            self._violation(conn, "session_start_limit", "Identify with no "
                            "session start left (session_start_limit)")
        self.session_starts += 1
        s = Session(secrets.token_hex(16), shard, intents, props)
        self.sessions[s.id] = s
        conn.session = s
        self.counters["sessions"] += 1
        user = self.fake.bot_user(private=True)
        ready = {
            "v": 10, "user_settings": {}, "user": user,
            "guilds": [{"id": g, "unavailable": True}
                       for g in self.fake.guild_ids(shard)],
            "session_id": s.id, "session_type": "normal",
            "resume_gateway_url": self.url,
            "application": {"id": self.fake.app_id,
                            "flags": self.fake.app_flags},
            "private_channels": [], "presences": [], "relationships": [],
            "guild_join_requests": [], "geo_ordered_rtc_regions": ["fake"],
            "auth": {}, "_trace": ["[\"gateway-prd-fake-1\",{}]"]}
        if shard is not None:
            ready["shard"] = shard
        s.conn = conn
        await self.emit(s, "READY", ready)
        if intents & GUILDS_INTENT:
            for g in self.fake.guild_ids(shard):
                await self.emit(s, "GUILD_CREATE", self.fake.guild_create(g))
        return True

    def sharded_peers(self):
        """The connected resumable sessions that identified with a shard."""
        return [s for s in self.sessions.values() if s.valid and s.shard
                and s.conn is not None and s.conn.open]

    async def _resume(self, conn, d):
        conn.resumes += 1
        self.counters["resume_attempts"] += 1
        if conn.session is not None:
            self._violation(conn, "gateway_auth", "Resume on an "
                            "authenticated connection")
            await self.server_close(conn, 4005, "Already authenticated.")
            return False
        if not isinstance(d, dict) or not isinstance(d.get("token"), str) or \
                not isinstance(d.get("session_id"), str) or \
                not isinstance(d.get("seq"), int) or \
                isinstance(d.get("seq"), bool):
            return await self._bad_payload(conn, "Resume needs token, "
                                           "session_id and seq (an integer)")
        if d["token"] != self.fake.token:
            self._violation(conn, "gateway_auth", "Resume with a wrong token")
            await self.server_close(conn, 4004, "Authentication failed.")
            return False
        s = self.sessions.get(d["session_id"])
        seq = d["seq"]
        oldest = s.events[0]["s"] if s and s.events else 1
        if s is None or not s.valid or seq < oldest - 1:
            conn.failed_resumes += 1
            conn.invalid_sessions_sent += 1
            self.counters["resume_failed"] += 1
            await self.send(conn, {"op": 9, "d": False, "s": None, "t": None})
            return True
        if seq > s.seq:
            self._violation(conn, "gateway_seq", f"Resume with seq {seq} > "
                            f"the session's last {s.seq}")
            conn.session = s
            await self.server_close(conn, 4007, "Invalid seq.")
            return False
        if s.conn is not None and s.conn is not conn:
            old = s.conn
            s.conn = None
            old.session = None
        conn.session = s
        conn.max_seq_sent = max(conn.max_seq_sent, seq)  # the client has it
        s.resumes += 1
        self.counters["resumes"] += 1
        i = 0
        while i < len(s.events):  # events emitted meanwhile are included
            e = s.events[i]
            i += 1
            if e["s"] > seq and e["replay"]:
                self.counters["replayed"] += 1
                if not await self.send_event(conn, e):
                    return False
        s.conn = conn
        await self.emit(s, "RESUMED", {"_trace": ["[\"gateway-prd-fake-1\","
                                                  "{}]"]}, replay=False)
        if self.pending_dup > 0:
            olds = [e for e in s.events if e["t"] == "INTERACTION_CREATE"]
            if olds:
                self.pending_dup -= 1
                self.counters["duplicates_sent"] += 1
                e = olds[-1]
                await self.emit(s, e["t"], e["d"], iid=e["iid"])
        return True

    # -- faults --------------------------------------------------------------
    async def fault(self, f):
        kind = f.get("kind")
        if kind == "dup_after_resume":
            self.pending_dup += int(f.get("count", 1))
            return 200, {"ok": True, "pending": self.pending_dup}
        if kind == "op7" and f.get("before_hello"):
            self.next_conn_faults.append("op7")
            return 200, {"ok": True, "pending": "next connection"}
        live = self.live()
        if "shard" in f:  # only the connection of that shard's session
            live = [c for c in live if c.session is not None and
                    (c.session.shard or [0, 1])[0] == f["shard"]]
        if not live:
            return 409, {"error": "no open gateway connection"}
        ids = [c.n for c in live]
        if kind == "stop_acks":
            for c in live:
                c.acking = False
        elif kind == "op1":
            for c in live:
                c.server_heartbeat_requests += 1
                await self.send(c, {"op": 1, "d": None, "s": None, "t": None})
        elif kind == "op7":
            for c in live:
                c.reconnects_sent += 1
                await self.send(c, {"op": 7, "d": None, "s": None, "t": None})
        elif kind == "op9":
            resumable = bool(f.get("resumable", False))
            for c in live:
                s = self._detach(c)
                if s is not None and not resumable:
                    s.valid = False
                    s.end_reason = "op 9 (not resumable)"
                c.invalid_sessions_sent += 1
                await self.send(c, {"op": 9, "d": resumable, "s": None,
                                    "t": None})
        elif kind == "close":
            code = int(f.get("code", 4000))
            for c in live:
                asyncio.ensure_future(self.server_close(
                    c, code, str(f.get("reason", "fake close"))))
        elif kind == "drop":
            for c in live:
                c.server_closing = True
                c.closed_by = "server_dropped"
                c.close_code = 1006
                c.ws.transport.abort()
        else:
            return 400, {"error": f"unknown gateway fault kind {kind!r}"}
        self.counters["faults"] += 1
        return 200, {"ok": True, "connections": ids}

    def state(self):
        return {
            "url": self.url,
            "heartbeat_interval": self.heartbeat_ms,
            "counters": dict(self.counters),
            "close_codes": dict(self.close_codes),
            "last_closes": self.last_closes,
            "connections": [c.summary() for c in self.conns],
            "sessions": [s.summary() for s in self.sessions.values()],
            "ready_sessions": [s.id for s in self.sessions.values()
                               if s.valid and s.conn is not None and
                               s.conn.open],
            "session_starts": self.session_starts,
            "max_concurrency": self.max_concurrency,
            "identify_log": self.identify_log,
            "undelivered": self.undelivered,
            "pending": {"dup_after_resume": self.pending_dup,
                        "next_connection": list(self.next_conn_faults)},
        }
