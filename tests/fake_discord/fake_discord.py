#!/usr/bin/python3
"""A fake Discord for Lair's integration tests: REST (/api/v10), the
gateway, and a control API (/_fake/) for tests. See README.md.

Every REST request is checked against Discord's OpenAPI description
(path template, method, parameters, JSON body) and against the limits
Discord enforces beyond it; every mismatch is recorded as a violation and
answered the way Discord answers it. Run it with Debian's interpreter:

  /usr/bin/python3 tests/fake_discord/fake_discord.py --openapi PATH \
      [--http-port 0] [--gw-port 0] [--heartbeat-ms 41250] \
      [--token TOKEN] [--app-id ID] [--portfile FILE]
"""

import argparse
import asyncio
import base64
import collections
import copy
import hashlib
import json
import math
import os
import random
import re
import secrets
import signal
import sys
import time
import urllib.parse

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import discord_rules as rules  # noqa: E402
import openapi_check  # noqa: E402
from gateway import Gateway  # noqa: E402
from httpserver import HttpServer, Response  # noqa: E402

try:  # Debian's python3-nacl: only the HTTP interactions mode needs it
    import nacl.signing
except ImportError:  # pragma: no cover - reported when the mode is used
    nacl = None

DISCORD_EPOCH_MS = 1420070400000
API_PREFIX = "/api/v10"
TOKEN_TTL = 15 * 60.0
MAX_RECORDS = 20000
# The uploaded files' bytes kept for GET /_fake/attachments/{id}: the
# newest, up to this many bytes (a benchmark uploads pictures by the
# hundred a second); an older file's record stays, its bytes do not.
MAX_ATTACHMENT_BYTES = 64 << 20

# Rate limits per route (method, template): (limit, seconds). Others get
# DEFAULT_LIMIT. Buckets are keyed by the route's hash and its major
# parameter (channel, guild, webhook id + token, interaction id + token).
ROUTE_LIMITS = {
    ("POST", "/channels/{channel_id}/messages"): (5, 5.0),
    ("PATCH", "/channels/{channel_id}/messages/{message_id}"): (5, 5.0),
    ("DELETE", "/channels/{channel_id}/messages/{message_id}"): (5, 1.0),
    ("POST", "/users/@me/channels"): (10, 10.0),
    # Discord does not publish it; thread creation is known to be limited
    # per parent channel and far more tightly than messages.
    ("POST", "/channels/{channel_id}/threads"): (5, 60.0),
    ("PUT", "/applications/{application_id}/commands"): (5, 20.0),
    ("PUT", "/applications/{application_id}/guilds/{guild_id}/commands"):
        (5, 20.0),
    ("POST", "/interactions/{interaction_id}/{interaction_token}/callback"):
        (5, 1.0),
    ("GET", "/gateway/bot"): (2, 5.0),
}
DEFAULT_LIMIT = (5, 5.0)
WEBHOOK_LIMIT = (5, 2.0)
GLOBAL_LIMIT = 50
MAJOR_PARAMS = (("channel_id",), ("guild_id",),
                ("webhook_id", "webhook_token"),
                ("interaction_id", "interaction_token"))

DEFAULT_MEMBER_PERMISSIONS = str(1071698660929)
THREAD_TYPES = (10, 11, 12)  # announcement, public and private threads
DEFAULT_APP_PERMISSIONS = str(562949953601536)


def iso(t):
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t)) + \
        ".%06d+00:00" % int((t % 1) * 1e6)


def jdump(obj):
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


class Snowflakes:
    def __init__(self):
        self.last = 0

    def next(self, at=None):
        ms = int((at or time.time()) * 1000) - DISCORD_EPOCH_MS
        v = (ms << 22) | (1 << 17) | (1 << 12)
        v = max(v, self.last + 1)
        self.last = v
        return str(v)


class Reply:
    """What a REST handler returns."""

    def __init__(self, status=200, obj=None, headers=None):
        self.status = status
        self.obj = obj
        self.headers = headers or []


def error(status, code, message, errors=None):
    body = {"message": message, "code": code}
    if errors is not None:
        body["errors"] = errors
    return Reply(status, body)


def form_error(triples):
    return error(400, 50035, "Invalid Form Body",
                 openapi_check.discord_errors(triples))


class Bucket:
    __slots__ = ("limit", "per", "count", "reset_at", "told_zero_at",
                 "told_zero_conn", "hash")

    def __init__(self, limit, per, h):
        self.limit, self.per, self.hash = limit, per, h
        self.count = 0
        self.reset_at = 0.0
        self.told_zero_at = None  # when a response said remaining=0
        self.told_zero_conn = None  # on which TCP connection


class Interaction:
    def __init__(self, iid, token, payload):
        self.id = iid
        self.token = token
        self.payload = payload
        self.type = payload["type"]
        self.created = time.time()
        self.dispatched_at = None
        self.dispatch_count = 0
        self.callback = None
        self.callback_at = None
        self.callback_errors = []
        self.original_id = None
        self.original_loading = False
        self.followups = []
        self.source_message_id = None
        # Delivered by POST to the bot's Interactions Endpoint URL: the
        # HTTP response's status, its time, and whether it is awaited.
        self.http_status = None
        self.http_ms = None
        self.http_inflight = False
        self.http_url = None  # the endpoint it went to (several: which)
        self.http_lost = False  # its process died holding it
        self.channel_id = payload.get("channel_id")
        u = (payload.get("member") or {}).get("user") or payload.get("user")
        self.user_id = u["id"] if u else None


class FakeDiscord:
    def __init__(self, args):
        self.args = args
        self.spec = openapi_check.Spec(args.openapi)
        self.token = args.token
        self.app_id = args.app_id
        self.app_flags = 0
        self.ids = Snowflakes()
        self.started = time.time()
        self.deadline = args.interaction_deadline_ms / 1000.0
        self.gw = Gateway(self, args.heartbeat_ms, args.identify_interval_ms,
                          args.privileged_intents, args.max_concurrency)
        self.http = HttpServer(self.handle, log=self.log)
        # The application's Ed25519 key pair: the fake signs what it POSTs
        # to the Interactions Endpoint URL (POST /_fake/endpoint), as
        # Discord does; the bot is given the public key.
        self.signing_key = nacl.signing.SigningKey.generate() if nacl \
            else None
        self.public_key = self.signing_key.verify_key.encode().hex() \
            if nacl else None
        self.endpoint = None
        # Several endpoints (POST /_fake/endpoint {"urls": [...]}): a load
        # balancer in front of several Lair processes, each interaction
        # POSTed to one of them at random (seeded), the next tried when one
        # refuses the connection (its process is down).
        self.endpoints = []
        self.lb_rng = random.Random(17)
        self.last_signature = None  # the X-Signature-Ed25519 last sent
        self.reset_all()

    def log(self, msg):
        if not self.args.quiet:
            print(msg, file=sys.stderr, flush=True)

    # -- state ----------------------------------------------------------------
    def reset_all(self):
        self.requests = []
        self.request_n = 0
        self.violations = []
        self.violation_n = 0
        self.response_mismatches = []
        self.faults = []
        self.fault_n = 0
        self.buckets = {}
        self.global_window = [0.0, 0]
        self.stats = collections.Counter()
        self.invalid_times = collections.deque()
        self.interactions = {}
        self.by_token = {}
        self.messages = {}
        self.channel_msgs = collections.defaultdict(list)
        self.commands = {}  # scope ("global" or guild id) -> [command]
        self.command_puts = collections.Counter()
        self.users = {}
        self.dm_by_user = {}
        self.dm_closed = set()
        self.guilds = {}
        self.channels = {}
        self.attachments = {}  # attachment id -> {filename, ..., data}
        self.attachment_bytes = 0  # of the data kept
        self.attachment_kept = collections.deque()  # their ids, oldest first
        gid, cid = self.args.guild_id, self.args.channel_id
        self.guilds[gid] = {"id": gid, "name": "Lair Test Server",
                            "owner_id": self.args.owner_id}
        self.channels[cid] = {"id": cid, "type": 0, "guild_id": gid,
                              "name": "games", "position": 0}
        self.session_start_reset = time.time() + \
            self.args.session_start_reset_ms / 1000.0
        self.session_start_base = 0  # gw.session_starts at the last reset

    def session_starts_left(self):
        """session_start_limit.remaining: --session-start-remaining at
        first, less each session started; 1000 again once reset_after
        has passed."""
        if time.time() >= self.session_start_reset:
            self.session_start_reset = time.time() + 86400
            self.session_start_base = self.gw.session_starts
            self.args.session_start_remaining = 1000
        used = self.gw.session_starts - self.session_start_base
        return max(0, self.args.session_start_remaining - used)

    def violation(self, kind, method, path, reason, extra=None):
        self.violation_n += 1
        v = {"n": self.violation_n, "at": time.time(), "kind": kind,
             "method": method, "path": path, "reason": reason}
        if extra:
            v.update(extra)
        self.violations.append(v)
        del self.violations[:-MAX_RECORDS]
        self.stats["violations"] += 1
        self.log(f"fake_discord: VIOLATION {kind} {method} {path}: {reason}")
        return v

    def user(self, uid, partial=None):
        u = self.users.get(uid)
        if u is None:
            u = {"id": uid, "username": f"user{uid[-4:]}", "avatar": None,
                 "discriminator": "0", "public_flags": 0, "flags": 0,
                 "banner": None, "accent_color": None,
                 "global_name": None, "avatar_decoration_data": None,
                 "collectibles": None, "primary_guild": None}
            self.users[uid] = u
        if partial:
            for k in ("username", "global_name", "avatar", "bot"):
                if k in partial:
                    u[k] = partial[k]
        return u

    def bot_user(self, private=False):
        u = {"id": self.app_id, "username": "Lair", "avatar": None,
             "discriminator": "0001", "public_flags": 0, "flags": 0,
             "bot": True, "banner": None, "accent_color": None,
             "global_name": None, "avatar_decoration_data": None,
             "collectibles": None, "primary_guild": None}
        if private:
            u.update({"mfa_enabled": True, "locale": "en-US",
                      "verified": True, "email": None, "premium_type": 0})
        return u

    def guild_ids(self, shard=None):
        out = []
        for gid in self.guilds:
            if shard and shard[1] > 1 and (int(gid) >> 22) % shard[1] != \
                    shard[0]:
                continue
            out.append(gid)
        return out

    def guild_create(self, gid):
        g = self.guilds[gid]
        chans = [dict(c, permission_overwrites=[], flags=0,
                      last_message_id=None, topic=None, nsfw=False,
                      rate_limit_per_user=0, parent_id=None)
                 for c in self.channels.values() if c.get("guild_id") == gid
                 and c["type"] not in THREAD_TYPES]
        for c in chans:
            c.pop("guild_id", None)
        threads = [self.channel_object(c) for c in self.channels.values()
                   if c.get("guild_id") == gid and c["type"] in THREAD_TYPES]
        return {
            "id": gid, "name": g["name"], "icon": None, "splash": None,
            "discovery_splash": None, "banner": None, "description": None,
            "owner_id": g["owner_id"], "region": "deprecated",
            "afk_channel_id": None, "afk_timeout": 300,
            "verification_level": 0, "default_message_notifications": 0,
            "explicit_content_filter": 0, "mfa_level": 0, "nsfw_level": 0,
            "premium_tier": 0, "premium_subscription_count": 0,
            "premium_progress_bar_enabled": False, "preferred_locale": "en-US",
            "system_channel_id": None, "system_channel_flags": 0,
            "rules_channel_id": None, "public_updates_channel_id": None,
            "safety_alerts_channel_id": None, "vanity_url_code": None,
            "application_id": None, "max_members": 500000,
            "max_video_channel_users": 25, "features": [],
            "roles": [{"id": gid, "name": "@everyone", "color": 0,
                       "hoist": False, "icon": None, "unicode_emoji": None,
                       "position": 0, "permissions": DEFAULT_MEMBER_PERMISSIONS,
                       "managed": False, "mentionable": False, "flags": 0}],
            "emojis": [], "stickers": [], "channels": chans,
            "threads": threads,
            "members": [], "voice_states": [], "presences": [],
            "stage_instances": [], "guild_scheduled_events": [],
            "soundboard_sounds": [], "member_count": len(self.users) + 1,
            "joined_at": iso(self.started), "large": False,
            "unavailable": False, "lazy": True,
        }

    def dm_channel(self, uid):
        cid = self.dm_by_user.get(uid)
        if cid is None:
            cid = self.ids.next()
            self.dm_by_user[uid] = cid
            self.channels[cid] = {"id": cid, "type": 1, "recipient_id": uid}
        return self.channels[cid]

    def channel_object(self, ch):
        last = self.channel_msgs.get(ch["id"])
        last_id = last[-1] if last else None
        if ch["type"] == 1:
            return {"id": ch["id"], "type": 1, "last_message_id": last_id,
                    "flags": 0, "last_pin_timestamp": None,
                    "recipients": [self.user(ch["recipient_id"])]}
        if ch["type"] in THREAD_TYPES:
            return self.thread_object(ch)
        return {"id": ch["id"], "type": ch["type"], "guild_id": ch["guild_id"],
                "name": ch.get("name", "channel"),
                "position": ch.get("position", 0), "flags": 0,
                "permission_overwrites": [], "last_message_id": last_id,
                "topic": None, "nsfw": False, "rate_limit_per_user": 0,
                "parent_id": None, "last_pin_timestamp": None}

    def thread_object(self, ch, member=False):
        """A thread channel as Discord returns it (ThreadResponse); with
        member, the bot's own thread member (CreatedThreadResponse)."""
        msgs = [self.messages[i] for i in self.channel_msgs.get(ch["id"], [])
                if not self.messages[i]["meta"]["ephemeral"]]
        live = [m for m in msgs if not m["meta"]["deleted"]]
        meta = {"archived": False, "archive_timestamp": iso(ch["created"]),
                "auto_archive_duration": ch["auto_archive_duration"],
                "locked": False, "create_timestamp": iso(ch["created"])}
        if ch["type"] == 12:
            meta["invitable"] = ch["invitable"]
        out = {"id": ch["id"], "type": ch["type"],
               "guild_id": ch["guild_id"], "parent_id": ch["parent_id"],
               "owner_id": ch["owner_id"], "name": ch["name"],
               "last_message_id": live[-1]["obj"]["id"] if live else None,
               "last_pin_timestamp": None, "flags": 0,
               "rate_limit_per_user": ch["rate_limit_per_user"],
               "thread_metadata": meta, "message_count": len(live),
               "member_count": 1, "total_message_sent": len(msgs)}
        if member:
            out["member"] = {"id": ch["id"], "user_id": ch["owner_id"],
                             "join_timestamp": iso(ch["created"]),
                             "flags": 1}
        return out

    # -- HTTP entry -----------------------------------------------------------
    async def handle(self, req):
        if req.path.startswith("/_fake/") or req.path == "/_fake":
            return await self.control(req)
        if req.path.startswith("/api"):
            return await self.rest(req)
        return Response(404, b"404: Not Found", [("Content-Type",
                                                   "text/plain")])

    def _record(self, req, sub):
        self.request_n += 1
        rec = {"n": self.request_n, "at": req.arrived, "method": req.method,
               "path": sub, "query": req.query,
               "connection": req.conn_id, "conn_seq": req.conn_seq,
               "user_agent": req.header("User-Agent"),
               "content_type": req.header("Content-Type"),
               "status": None, "code": None, "route": None, "bucket": None,
               "body": None}
        self.requests.append(rec)
        del self.requests[:-MAX_RECORDS]
        self.stats["requests"] += 1
        return rec

    async def rest(self, req):
        m = re.match(r"^/api/v(\d+)(/.*)$", req.path)
        sub = m.group(2) if m else req.path
        rec = self._record(req, sub)
        method = req.method.upper()
        v = lambda kind, reason: self.violation(  # noqa: E731
            kind, method, sub, reason, {"request": rec["n"]})
        if not m or m.group(1) != "10":
            v("api_version", f"{req.path}: Lair must use {API_PREFIX}")
            return self._finish(rec, None, method, Reply(
                404, {"message": "404: Not Found", "code": 0}))
        found = self.spec.match(sub)
        if found is None:
            v("unknown_route", "no path in openapi.json matches")
            return self._finish(rec, None, method, Reply(
                404, {"message": "404: Not Found", "code": 0}))
        route, params = found
        rec["route"] = route.template
        if self.spec.operation(route, method) is None:
            v("method", f"{method} is not defined for {route.template} "
              f"(only {', '.join(self.spec.methods(route))})")
            return self._finish(rec, route, method, Reply(
                405, {"message": "405: Method Not Allowed", "code": 0}))
        bucket = self._bucket(method, route.template, params)
        rec["bucket"] = bucket.hash
        # Authorization.
        anonymous_ok, _ = self.spec.security(route, method)
        auth = req.header("Authorization")
        if req.header_count("Authorization") > 1:
            v("auth", "more than one Authorization header")
        if auth is None:
            if anonymous_ok:
                v("auth", "no Authorization header (Discord accepts this "
                  "route without one; Lair sends it on every request)")
            else:
                v("auth", "no Authorization header")
                return self._finish(rec, route, method, Reply(
                    401, {"message": "401: Unauthorized", "code": 0}), bucket)
        elif auth != "Bot " + self.token:
            v("auth", "Authorization is not \"Bot <token>\" with the "
              "configured token")
            return self._finish(rec, route, method, Reply(
                401, {"message": "401: Unauthorized", "code": 0}), bucket)
        ua = req.header("User-Agent") or ""
        if not re.match(r"^DiscordBot \([^,()]+, [^()]+\)", ua):
            v("user_agent", f"User-Agent {ua!r} is not "
              "\"DiscordBot ($url, $version)\"")
        # Scripted faults come before Discord's own limits.
        f = self._take_fault(method, sub)
        while f is not None and f["kind"] == "slow":
            self.stats["slowed"] += 1
            await asyncio.sleep(f["ms"] / 1000.0)
            f = self._take_fault(method, sub, skip_slow=True)
        if f is not None:
            return self._scripted(rec, route, method, bucket, f)
        limited = self._rate_limit(req, rec, route, bucket)
        if limited is not None:
            return limited
        # Parameters.
        pairs = urllib.parse.parse_qsl(req.query, keep_blank_values=True)
        perrs = self.spec.check_params(route, method, params, pairs)
        if perrs:
            v("params", openapi_check.explain(perrs))
            return self._finish(rec, route, method, form_error(perrs), bucket)
        # Body.
        body, files, bad = self._body(req, rec, route, method, v)
        if bad is not None:
            return self._finish(rec, route, method, bad, bucket)
        handler = HANDLERS.get((method, route.template))
        if handler is None:
            v("unemulated", "valid per openapi.json, but the fake does not "
              "emulate this endpoint")
            return self._finish(rec, route, method, Reply(
                404, {"message": "404: Not Found", "code": 0}), bucket)
        ctx = Ctx(self, req, rec, method, sub, route, params, dict(pairs),
                  body, files, v)
        if route.template.startswith("/webhooks/{webhook_id}/"
                                     "{webhook_token}"):
            await self._settle_http(params.get("webhook_token"))
        reply = await handler(self, ctx)
        return self._finish(rec, route, method, reply, bucket)

    async def _settle_http(self, token):
        """A follow-up may overtake the HTTP response that acknowledged
        its interaction by a hair (two connections): Discord has read that
        response before it sees the follow-up, so the fake lets it land
        (up to 0.5 s)."""
        it = self.by_token.get(token)
        end = time.monotonic() + 0.5
        while it is not None and it.http_inflight and \
                it.callback is None and time.monotonic() < end:
            await asyncio.sleep(0.005)

    def _body(self, req, rec, route, method, v):
        """(body, files, error Reply or None)."""
        raw = req.body
        ctype_full = req.header("Content-Type") or ""
        ctype = ctype_full.split(";")[0].strip().lower()
        rb = self.spec.request_body(route, method)
        if not raw:
            if rb and rb.get("required"):
                v("body", "the operation requires a JSON body; none sent")
                return None, [], error(400, 50109, "The request body "
                                       "contains invalid JSON.")
            if ctype and method in ("GET", "DELETE"):
                pass
            return None, [], None
        if rb is None:
            v("body", f"a {len(raw)}-byte body on an operation that takes "
              "none")
            return None, [], None
        accepted = rb.get("content", {})
        files = []
        if ctype == "application/json":
            try:
                body = json.loads(raw.decode("utf-8"),
                                  parse_constant=_reject_constant)
            except (ValueError, UnicodeDecodeError) as e:
                v("body", f"invalid JSON: {e}")
                return None, [], error(400, 50109, "The request body contains "
                                       "invalid JSON.")
        elif ctype == "multipart/form-data" and ctype in accepted:
            body, files, problem = _parse_multipart(ctype_full, raw)
            if problem:
                v("body", f"multipart: {problem}")
                return None, [], error(400, 50109, "The request body "
                                       "contains invalid JSON.")
            bad = _file_problems(files)
            if bad:
                v("multipart", "; ".join(bad))
                return None, [], form_error([(("files",), "FILE_INVALID",
                                              bad[0])])
        else:
            v("content_type", f"Content-Type {ctype_full!r}: a body must be "
              "sent as application/json" +
              (" (or multipart/form-data with payload_json)"
               if "multipart/form-data" in accepted else ""))
            return None, [], form_error([((), "CONTENT_TYPE_INVALID",
                                          "Expected \"Content-Type\" header "
                                          "to be one of {'application/json', "
                                          "'multipart/form-data'}.")])
        rec["body"] = body
        if files:
            rec["files"] = [dict({k: f[k] for k in (
                "name", "filename", "size", "content_type")},
                sha256=hashlib.sha256(f["data"]).hexdigest())
                for f in files]
        if not self.args.check_requests:
            errs = []
        elif ctype == "multipart/form-data":
            # The form as openapi.json describes it: payload_json's fields
            # beside the files[n] parts (binary strings).
            form = dict(body) if isinstance(body, dict) else body
            if isinstance(form, dict):
                form.update({f["name"]: "(binary)" for f in files})
            errs = self.spec.check_body(route, method, form,
                                        "multipart/form-data")
        else:
            errs = self.spec.check_body(route, method, body)
        if errs:
            v("schema", openapi_check.explain(errs))
            return body, files, form_error(errs)
        return body, files, None

    def _finish(self, rec, route, method, reply, bucket=None):
        st = reply.status
        rec["status"] = st
        if isinstance(reply.obj, dict) and "code" in reply.obj and st >= 400:
            rec["code"] = reply.obj["code"]
        self.stats[f"status_{st}"] += 1
        if st in (401, 403, 429):
            now = time.time()
            self.invalid_times.append(now)
            while self.invalid_times and self.invalid_times[0] < now - 600:
                self.invalid_times.popleft()
        headers = [("Content-Type", "application/json")] if st != 204 else []
        headers += [("Via", "1.1 google"), ("X-Fake-Request", str(rec["n"]))]
        if bucket is not None and not any(h[0] == "X-RateLimit-Limit"
                                          for h in reply.headers):
            headers += self._bucket_headers(bucket)
        headers += reply.headers
        body = b"" if st == 204 or reply.obj is None else \
            jdump(reply.obj).encode()
        if st in (200, 201) and route is not None and \
                reply.obj is not None and self.args.check_responses:
            problems = self.spec.check_response(route, method, st, reply.obj)
            if problems:
                self.response_mismatches.append({
                    "request": rec["n"], "route": route.template,
                    "method": method, "problems": problems[:10]})
                self.log(f"fake_discord: RESPONSE MISMATCH (a fake bug) "
                         f"{method} {route.template}: {problems[:3]}")
        return Response(st, body, headers)

    # -- rate limits ----------------------------------------------------------
    def _bucket(self, method, template, params):
        limit, per = ROUTE_LIMITS.get((method, template), (None, None))
        if limit is None:
            limit, per = WEBHOOK_LIMIT if template.startswith(
                "/webhooks/{webhook_id}/{webhook_token}") else DEFAULT_LIMIT
        major = ""
        for names in MAJOR_PARAMS:
            if all(n in params for n in names):
                major = "/".join(params[n] for n in names)
                break
        h = hashlib.sha1(f"{method} {template}".encode()).hexdigest()[:32]
        key = (h, major)
        b = self.buckets.get(key)
        if b is None:
            b = self.buckets[key] = Bucket(limit, per, h)
        return b

    def _bucket_headers(self, b, now=None):
        now = now or time.time()
        if now >= b.reset_at:
            remaining, after = b.limit, b.per
            reset = now + b.per
        else:
            remaining = max(0, b.limit - b.count)
            after = b.reset_at - now
            reset = b.reset_at
        return [("X-RateLimit-Limit", str(b.limit)),
                ("X-RateLimit-Remaining", str(remaining)),
                ("X-RateLimit-Reset", f"{reset:.3f}"),
                ("X-RateLimit-Reset-After", f"{after:.3f}"),
                ("X-RateLimit-Bucket", b.hash)]

    def _global_exempt(self, template):
        return template.startswith("/interactions/") or \
            template.startswith("/webhooks/{webhook_id}/{webhook_token}")

    def _rate_limit(self, req, rec, route, b):
        now = time.time()
        if not self._global_exempt(route.template):
            w = self.global_window
            if now >= w[0] + 1.0:
                w[0], w[1] = now, 0
            if w[1] >= self.args.global_limit:
                retry = w[0] + 1.0 - now
                self.stats["natural_429_global"] += 1
                self.stats["unexpected_429"] += 1
                self.violation("rate_limit", req.method, rec["path"],
                               f"global limit of {self.args.global_limit} "
                               "requests per second exceeded",
                               {"request": rec["n"]})
                return self._finish(rec, route, req.method, Reply(
                    429, {"message": "You are being rate limited.",
                          "retry_after": round(retry, 3), "global": True},
                    [("Retry-After", str(max(1, math.ceil(retry)))),
                     ("X-RateLimit-Global", "true"),
                     ("X-RateLimit-Scope", "global")]))
            w[1] += 1
        if now >= b.reset_at:
            b.count, b.reset_at, b.told_zero_at = 0, now + b.per, None
        if b.count >= b.limit:
            retry = b.reset_at - now
            self.stats["natural_429"] += 1
            # The client ignored remaining=0 if it had that answer before
            # sending this request: certainly when the answer came on the
            # same keep-alive connection (HTTP/1.1, no pipelining), and
            # when it came on another one more than 50 ms earlier.
            told = b.told_zero_at
            # With several processes sharing the token (--several-clients)
            # only the same connection's answer counts: another process
            # cannot know what this one was told.
            ignored = told is not None and (
                (b.told_zero_conn == req.conn_id and told <= req.arrived) or
                (told < req.arrived - 0.05 and
                 not self.args.several_clients))
            b.told_zero_at, b.told_zero_conn = now, req.conn_id
            if ignored:
                self.stats["unexpected_429"] += 1
                self.violation("rate_limit", req.method, rec["path"],
                               f"request sent while bucket {b.hash} had "
                               f"remaining=0 (reset in {retry:.3f} s)",
                               {"request": rec["n"]})
            return self._finish(rec, route, req.method, Reply(
                429, {"message": "You are being rate limited.",
                      "retry_after": round(retry, 3), "global": False},
                [("Retry-After", str(max(1, math.ceil(retry)))),
                 ("X-RateLimit-Scope", "user")] +
                self._bucket_headers(b, now)))
        b.count += 1
        if b.count >= b.limit:
            b.told_zero_at, b.told_zero_conn = time.time(), req.conn_id
        return None

    # -- faults ---------------------------------------------------------------
    def _take_fault(self, method, sub, skip_slow=False):
        target = f"{method} {sub}"
        for f in self.faults:
            if skip_slow and f["kind"] == "slow":
                continue
            if f["kind"] not in ("http", "slow"):
                continue
            if f["route"] and not re.search(f["route"], target):
                continue
            f["count"] -= 1
            f["used"] += 1
            if f["count"] <= 0:
                self.faults.remove(f)
            return f
        return None

    def _scripted(self, rec, route, method, b, f):
        st = f["status"]
        self.stats["scripted"] += 1
        rec["scripted"] = f["id"]
        if st == 429:
            self.stats["scripted_429"] += 1
            retry = float(f.get("retry_after", 1.0))
            scope = f.get("scope", "bucket")
            ra = str(max(1, math.ceil(retry)))
            if scope == "cloudflare":
                rec["status"] = 429
                self.stats["status_429"] += 1
                return Response(429, b"<!DOCTYPE html><html><head><title>"
                                b"Access denied | discord.com used Cloudflare"
                                b" to restrict access</title></head><body>"
                                b"<h1>Error 1015</h1><p>You are being rate "
                                b"limited.</p></body></html>",
                                [("Content-Type", "text/html; charset=UTF-8"),
                                 ("Retry-After", ra), ("Server", "cloudflare")])
            body = {"message": "You are being rate limited.",
                    "retry_after": retry, "global": scope == "global"}
            if scope == "global":
                return self._finish(rec, route, method, Reply(429, body, [
                    ("Retry-After", ra), ("X-RateLimit-Global", "true"),
                    ("X-RateLimit-Scope", "global")]))
            now = time.time()
            hdrs = [("Retry-After", ra),
                    ("X-RateLimit-Scope",
                     "shared" if scope == "shared" else "user"),
                    ("X-RateLimit-Limit", str(b.limit)),
                    ("X-RateLimit-Remaining", "0"),
                    ("X-RateLimit-Reset", f"{now + retry:.3f}"),
                    ("X-RateLimit-Reset-After", f"{retry:.3f}"),
                    ("X-RateLimit-Bucket", b.hash)]
            return self._finish(rec, route, method, Reply(429, body, hdrs))
        if f.get("body") is not None:
            obj = f["body"]
        elif st >= 500:
            obj = {"message": f"{st}: {_phrase(st)}", "code": 0}
        else:
            obj = {"message": f.get("message", _phrase(st)),
                   "code": int(f.get("code", 0))}
        return self._finish(rec, route, method, Reply(st, obj), b)

    # -- messages -------------------------------------------------------------
    def _components(self, comps):
        """Components as Discord returns them: nulls dropped, numeric ids
        assigned, select defaults filled in."""
        comps = _strip_nulls(copy.deepcopy(comps or []))
        n = [0]

        def walk(cs):
            for c in cs:
                if not isinstance(c, dict):
                    continue
                n[0] += 1
                c.setdefault("id", n[0])
                if c.get("type") in rules.SELECT_TYPES:
                    c.setdefault("min_values", 1)
                    c.setdefault("max_values", 1)
                if isinstance(c.get("components"), list):
                    walk(c["components"])
                if isinstance(c.get("accessory"), dict):
                    walk([c["accessory"]])
        walk(comps)
        return comps

    def _embeds(self, embeds):
        out = []
        for e in embeds or []:
            e = _strip_nulls(copy.deepcopy(e))
            e.setdefault("type", "rich")
            e["content_scan_version"] = 0
            for f in e.get("fields") or []:  # Discord fills in the default
                if isinstance(f, dict):
                    f.setdefault("inline", False)
            out.append(e)
        return out

    def _attachments(self, body, files):
        """Attachment objects for uploaded files; the bytes are kept for
        GET /_fake/attachments/{id}."""
        out = []
        for f in files:
            aid = self.ids.next()
            self.attachments[aid] = {
                "id": aid, "filename": f["filename"] or "file",
                "size": f["size"], "content_type": f["content_type"],
                "sha256": hashlib.sha256(f["data"]).hexdigest(),
                "data": f["data"]}
            self.attachment_bytes += f["size"]
            self.attachment_kept.append(aid)
            while self.attachment_bytes > MAX_ATTACHMENT_BYTES:
                old = self.attachments[self.attachment_kept.popleft()]
                self.attachment_bytes -= len(old["data"])
                old["data"] = None
            out.append({"id": aid, "filename": f["filename"] or "file",
                        "size": f["size"],
                        "url": f"https://cdn.discordapp.com/attachments/0/"
                               f"{aid}/{f['filename']}",
                        "proxy_url": f"https://media.discordapp.net/"
                                     f"attachments/0/{aid}/{f['filename']}",
                        "content_type": f["content_type"]})
        return out

    def new_message(self, channel_id, body, via, *, interaction=None,
                    ephemeral=False, loading=False, files=()):
        mid = self.ids.next()
        now = time.time()
        flags = (body.get("flags") or 0) & ~rules.EPHEMERAL
        if ephemeral:
            flags |= rules.EPHEMERAL
        if loading:
            flags |= rules.LOADING
        obj = {
            "type": 0, "content": body.get("content") or "", "mentions": [],
            "mention_roles": [], "attachments":
                self._attachments(body, files), "embeds":
                self._embeds(body.get("embeds")), "timestamp": iso(now),
            "edited_timestamp": None, "flags": flags,
            "components": self._components(body.get("components")),
            "id": mid, "channel_id": channel_id,
            "author": self.bot_user(), "pinned": False,
            "mention_everyone": False, "tts": bool(body.get("tts") or False),
        }
        if body.get("nonce") is not None:
            obj["nonce"] = body["nonce"]
        if isinstance(body.get("message_reference"), dict):
            ref = body["message_reference"]
            obj["type"] = 19
            obj["message_reference"] = {
                "type": 0, "channel_id": ref.get("channel_id", channel_id),
                "message_id": ref.get("message_id")}
        meta = {"ephemeral": ephemeral, "via": via, "deleted": False,
                "created_at": now, "interaction_id": None, "audience": None,
                "history": []}
        if interaction is not None:
            it = interaction
            payload = it.payload
            u = (payload.get("member") or {}).get("user") or payload["user"]
            obj["application_id"] = self.app_id
            obj["webhook_id"] = self.app_id
            md = {"id": it.id, "type": it.type, "user": u,
                  "authorizing_integration_owners":
                      payload["authorizing_integration_owners"]}
            if it.type == 2:
                md["name"] = payload["data"]["name"]
                md["command_type"] = payload["data"].get("type", 1)
                if via == "callback" or via == "deferred":
                    obj["type"] = 20
            if it.type == 3 and it.source_message_id:
                md["interacted_message_id"] = it.source_message_id
            if via == "followup" and it.original_id:
                md["original_response_message_id"] = it.original_id
            obj["interaction_metadata"] = md
            obj["interaction"] = {"id": it.id, "type": it.type,
                                  "name": payload.get("data", {}).get(
                                      "name", ""), "user": u}
            meta["interaction_id"] = it.id
            if ephemeral:
                meta["audience"] = it.user_id
        self.messages[mid] = {"obj": obj, "meta": meta}
        self.channel_msgs[channel_id].append(mid)
        self.stats["messages"] += 1
        return self.messages[mid]

    def edit_message(self, m, body, files=()):
        obj = m["obj"]
        m["meta"]["history"].append({k: copy.deepcopy(obj[k]) for k in (
            "content", "embeds", "components", "flags", "edited_timestamp")})
        if "content" in body:
            obj["content"] = body["content"] or ""
        if "embeds" in body:
            obj["embeds"] = self._embeds(body["embeds"])
        if "components" in body:
            obj["components"] = self._components(body["components"])
        if "attachments" in body or files:
            keep = {a.get("id") for a in body.get("attachments") or []
                    if isinstance(a, dict)}
            obj["attachments"] = [a for a in obj["attachments"]
                                  if a["id"] in keep] + \
                self._attachments(body, files)
        if body.get("flags") is not None:
            keep = obj["flags"] & (rules.EPHEMERAL | rules.IS_COMPONENTS_V2)
            obj["flags"] = keep | (body["flags"] & (rules.SUPPRESS_EMBEDS |
                                                    rules.IS_COMPONENTS_V2))
        obj["flags"] &= ~rules.LOADING
        obj["edited_timestamp"] = iso(time.time())
        self.stats["edits"] += 1

    def public_message(self, m):
        out = copy.deepcopy(m["obj"])
        meta = dict(m["meta"])
        meta["edits"] = len(meta["history"])
        out["_fake"] = meta
        return out

    def message_problem(self, body, kind, create, ctx, existing=None):
        """A Reply for an invalid message body (and a violation), else
        None. existing: the message an edit changes."""
        errs = rules.message_errors(body, kind)
        if errs:
            ctx.v("message_limits", openapi_check.explain(errs))
            return form_error(errs)
        bad = _attachment_problems(body, ctx.files, existing)
        if bad:
            ctx.v("attachments", "; ".join(bad))
            return form_error([(("attachments",), "ATTACHMENT_INVALID",
                                bad[0])])
        if create and rules.message_is_empty(body) and not ctx.files:
            ctx.v("empty_message", "a message with no content, embeds, "
                  "components, attachments, stickers or poll")
            return error(400, 50006, "Cannot send an empty message")
        return None

    def on_interaction_sent(self, iid):
        it = self.interactions.get(iid)
        if it is not None:
            it.dispatch_count += 1
            if it.dispatched_at is None:
                it.dispatched_at = time.time()

    # -- control API ----------------------------------------------------------
    async def control(self, req):
        path = req.path[len("/_fake"):]
        q = dict(urllib.parse.parse_qsl(req.query))
        body = None
        if req.body:
            try:
                body = json.loads(req.body)
            except ValueError as e:
                return _json(400, {"error": f"invalid JSON: {e}"})
        try:
            st, obj = await control_route(self, req.method.upper(), path, q,
                                          body)
        except ControlError as e:
            st, obj = e.status, {"error": str(e)}
        if isinstance(obj, RawBody):
            return Response(st, obj.data, [("Content-Type", obj.ctype)])
        return _json(st, obj)


class RawBody:
    """A control answer that is bytes, not JSON (an attachment)."""

    def __init__(self, data, ctype):
        self.data, self.ctype = data, ctype or "application/octet-stream"


class ControlError(Exception):
    def __init__(self, status, msg):
        super().__init__(msg)
        self.status = status


def _json(st, obj):
    return Response(st, jdump(obj).encode(),
                    [("Content-Type", "application/json")])


def _phrase(st):
    import http
    try:
        return http.HTTPStatus(st).phrase
    except ValueError:
        return "Error"


def _strip_nulls(x):
    if isinstance(x, dict):
        return {k: _strip_nulls(v) for k, v in x.items() if v is not None}
    if isinstance(x, list):
        return [_strip_nulls(v) for v in x]
    return x


def _reject_constant(name):
    raise ValueError(f"{name} is not JSON")


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _is_png(data):
    """A PNG's signature, then its IHDR chunk (13 bytes) with a width and
    a height."""
    if len(data) < 33 or not data.startswith(PNG_SIGNATURE):
        return False
    length, kind = int.from_bytes(data[8:12], "big"), data[12:16]
    w, h = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24],
                                                              "big")
    return length == 13 and kind == b"IHDR" and w > 0 and h > 0


def _file_problems(files):
    """What is wrong with a multipart body's files[n] parts: at most 10,
    each index once, each with a file name; a PNG by its name or type must
    be one, sent as image/png."""
    out, seen = [], set()
    for f in files:
        n = int(f["name"][6:-1])
        if n >= 10 or n in seen:
            out.append(f"{f['name']}: Discord takes files[0] to files[9], "
                       "each once")
        seen.add(n)
        if not f["filename"]:
            out.append(f"{f['name']} has no filename")
            continue
        png = f["filename"].lower().endswith(".png") or \
            f["content_type"] == "image/png"
        if png and not _is_png(f["data"]):
            out.append(f"{f['name']} ({f['filename']}) is not a PNG image "
                       "(no PNG signature and IHDR chunk)")
        if png and f["content_type"] != "image/png":
            out.append(f"{f['name']} ({f['filename']}) is a PNG sent as "
                       f"{f['content_type']}")
    return out


def _attachment_problems(body, files, existing=None):
    """What is wrong with a message body's attachments against the files
    sent with it: each files[n] needs an attachments entry of id n, and
    each entry is a file sent now or (in an edit) one the message has; an
    embed's attachment://NAME image must name one of the message's
    attachments once the body applies."""
    if not isinstance(body, dict):
        return []
    out = []
    sent = {str(int(f["name"][6:-1])): f for f in files}
    have = {a["id"]: a for a in (existing or {}).get("obj", {}).get(
        "attachments", [])} if existing else {}
    atts = body.get("attachments")
    listed = {}
    for a in atts if isinstance(atts, list) else []:
        if not isinstance(a, dict):
            continue
        aid = str(a.get("id"))
        if aid in listed:
            out.append(f"attachments: id {aid} is listed twice")
        listed[aid] = a
        if aid not in sent and aid not in have:
            out.append(f"attachments: id {aid} is neither a file of this "
                       "request (files[n], id n) nor one the message has")
    for n, f in sorted(sent.items()):
        if n not in listed:
            out.append(f"{f['name']} ({f['filename']}) has no attachments "
                       f"entry with id {n}")
    names = {f["filename"] for n, f in sent.items()}
    if isinstance(atts, list):
        names |= {a["filename"] for i, a in have.items() if i in listed}
    elif existing:
        names |= {a["filename"] for a in have.values()}
    embeds = body.get("embeds")
    for i, e in enumerate(embeds if isinstance(embeds, list) else []):
        for key in ("image", "thumbnail"):
            url = ((e or {}).get(key) or {}).get("url") \
                if isinstance(e, dict) else None
            if isinstance(url, str) and url.startswith("attachment://") and \
                    url[len("attachment://"):] not in names:
                out.append(f"embeds[{i}].{key}: {url} names no attachment "
                           "of the message")
    return out


_PARAM = re.compile(r';\s*([A-Za-z][A-Za-z0-9*-]*)\s*=\s*'
                    r'(?:"((?:[^"\\]|\\.)*)"|([^;\s]*))')


def _header_params(value):
    """(the value before its parameters, {name: value}) of a header such as
    'form-data; name="files[0]"; filename="a.png"'."""
    head, _, rest = value.partition(";")
    params = {}
    for m in _PARAM.finditer(";" + rest):
        v = m.group(2)
        params[m.group(1).lower()] = re.sub(r"\\(.)", r"\1", v) \
            if v is not None else m.group(3)
    return head.strip().lower(), params


def _parse_multipart(ctype_full, raw):
    """(payload_json object, files, problem) of a multipart/form-data
    body (RFC 7578). Parsed by hand, not with the email package, which
    takes 14 ms over a 90 KB picture: the benchmark sends hundreds a
    second."""
    _, params = _header_params(ctype_full)
    boundary = params.get("boundary")
    if not boundary:
        return None, [], "no boundary in Content-Type"
    delim = b"--" + boundary.encode("latin-1")
    if not raw.startswith(delim):
        return None, [], "the body does not start with its boundary"
    chunks = raw.split(b"\r\n" + delim)
    first = chunks[0][len(delim):]
    chunks = [first] + chunks[1:]
    if not chunks[-1].startswith(b"--"):
        return None, [], "no closing boundary"
    payload, files = None, []
    for chunk in chunks[:-1]:
        if not chunk.startswith(b"\r\n"):
            return None, [], "a boundary not followed by CRLF"
        head, sep, data = chunk[2:].partition(b"\r\n\r\n")
        if not sep:
            return None, [], "a part without a blank line after its headers"
        headers = {}
        for line in head.decode("latin-1").split("\r\n"):
            k, colon, v = line.partition(":")
            if not colon:
                return None, [], f"a part's header line {line!r}"
            headers[k.strip().lower()] = v.strip()
        disp, dparams = _header_params(headers.get("content-disposition", ""))
        if disp != "form-data":
            return None, [], "a part that is not form-data"
        name = dparams.get("name")
        ctype, _ = _header_params(headers.get("content-type", "text/plain"))
        if name == "payload_json":
            try:
                payload = json.loads(data.decode("utf-8"))
            except (ValueError, UnicodeDecodeError) as e:
                return None, [], f"payload_json: {e}"
        elif name and re.fullmatch(r"files\[\d+\]", name):
            files.append({"name": name, "filename": dparams.get("filename"),
                          "size": len(data), "content_type": ctype,
                          "data": data})
        else:
            return None, [], f"unexpected part {name!r}"
    if payload is None:
        payload = {}
    return payload, files, None


class Ctx:
    def __init__(self, fake, req, rec, method, sub, route, params, query,
                 body, files, v):
        self.fake, self.req, self.rec = fake, req, rec
        self.method, self.sub, self.route = method, sub, route
        self.params, self.query, self.body, self.files = \
            params, query, body, files
        self.v = v


# == REST handlers ==========================================================

HANDLERS = {}


def route(method, template):
    def deco(fn):
        HANDLERS[(method, template)] = fn
        return fn
    return deco


@route("GET", "/gateway")
async def get_gateway(fake, ctx):
    return Reply(200, {"url": fake.gw.url})


@route("GET", "/gateway/bot")
async def get_gateway_bot(fake, ctx):
    return Reply(200, {
        "url": fake.gw.url, "shards": fake.args.shards,
        "session_start_limit": {
            "total": 1000,
            "remaining": fake.session_starts_left(),
            "reset_after": int(max(0, fake.session_start_reset - time.time())
                               * 1000),
            "max_concurrency": fake.args.max_concurrency}})


@route("GET", "/users/@me")
async def get_me(fake, ctx):
    return Reply(200, fake.bot_user(private=True))


def _application(fake):
    return {
        "id": fake.app_id, "name": "Lair", "icon": None,
        "description": "Tabletop games in Discord", "type": None,
        "bot": fake.bot_user(), "summary": "", "rpc_origins": [],
        "bot_public": True, "bot_require_code_grant": False,
        "integration_types_config": {"0": {}},
        "verify_key": "0" * 64, "flags": fake.app_flags,
        "flags_new": str(fake.app_flags), "max_participants": None,
        "tags": [], "redirect_uris": [], "interactions_endpoint_url": None,
        "role_connections_verification_url": None,
        "owner": fake.user(fake.args.owner_id),
        "approximate_guild_count": len(fake.guilds),
        "approximate_user_install_count": 0,
        "approximate_user_authorization_count": 0,
        "explicit_content_filter": 0, "team": None,
        "eligible_oauth2_scopes": ["bot", "applications.commands"],
        "event_webhooks_url": None, "event_webhooks_status": 1,
        "event_webhooks_types": []}


@route("GET", "/applications/@me")
async def get_application(fake, ctx):
    return Reply(200, _application(fake))


@route("GET", "/oauth2/applications/@me")
async def get_oauth2_application(fake, ctx):
    return Reply(200, _application(fake))


# -- application commands ---------------------------------------------------

def _command_scope(fake, ctx):
    if ctx.params["application_id"] != fake.app_id:
        ctx.v("application_id", f"application id {ctx.params['application_id']}"
              f" is not this bot's ({fake.app_id})")
        return None, error(403, 50001, "Missing Access")
    gid = ctx.params.get("guild_id")
    if gid is None:
        return "global", None
    if gid not in fake.guilds:
        ctx.v("guild", f"the bot is not in guild {gid}")
        return None, error(403, 50001, "Missing Access")
    return gid, None


def _command_object(fake, scope, c, old=None):
    t = c.get("type") or 1
    dmp = c.get("default_member_permissions")
    out = {
        "id": old["id"] if old else fake.ids.next(),
        "application_id": fake.app_id, "version": fake.ids.next(),
        "default_member_permissions": None if dmp is None else str(dmp),
        "type": t, "name": c["name"],
        "description": c.get("description") or "",
        "nsfw": bool(c.get("nsfw", False)),
    }
    if c.get("name_localizations") is not None:
        out["name_localizations"] = c["name_localizations"]
    if c.get("description_localizations") is not None:
        out["description_localizations"] = c["description_localizations"]
    if c.get("options"):
        out["options"] = copy.deepcopy(c["options"])
    if scope == "global":
        out["dm_permission"] = c.get("dm_permission", True) \
            if c.get("dm_permission") is not None else True
        out["contexts"] = c.get("contexts")
        out["integration_types"] = c.get("integration_types") or [0]
    else:
        out["guild_id"] = scope
    if old and all(old.get(k) == out.get(k) for k in (
            "name", "description", "options", "default_member_permissions",
            "type", "contexts", "dm_permission", "nsfw")):
        out["version"] = old["version"]
    return out


@route("GET", "/applications/{application_id}/commands")
@route("GET", "/applications/{application_id}/guilds/{guild_id}/commands")
async def get_commands(fake, ctx):
    scope, bad = _command_scope(fake, ctx)
    if bad:
        return bad
    return Reply(200, fake.commands.get(scope, []))


@route("PUT", "/applications/{application_id}/commands")
@route("PUT", "/applications/{application_id}/guilds/{guild_id}/commands")
async def put_commands(fake, ctx):
    scope, bad = _command_scope(fake, ctx)
    if bad:
        return bad
    cmds = ctx.body or []
    errs = rules.bulk_command_errors(cmds)
    if errs:
        ctx.v("command_limits", openapi_check.explain(errs))
        return form_error(errs)
    old = {(c["type"], c["name"]): c for c in fake.commands.get(scope, [])}
    new = [_command_object(fake, scope, c, old.get((c.get("type") or 1,
                                                    c["name"])))
           for c in cmds]
    fake.commands[scope] = new
    fake.command_puts[scope] += 1
    return Reply(200, new)


@route("POST", "/applications/{application_id}/commands")
@route("POST", "/applications/{application_id}/guilds/{guild_id}/commands")
async def post_command(fake, ctx):
    scope, bad = _command_scope(fake, ctx)
    if bad:
        return bad
    errs = rules.command_errors(ctx.body)
    if errs:
        ctx.v("command_limits", openapi_check.explain(errs))
        return form_error(errs)
    cur = fake.commands.setdefault(scope, [])
    key = (ctx.body.get("type") or 1, ctx.body["name"])
    old = next((c for c in cur if (c["type"], c["name"]) == key), None)
    obj = _command_object(fake, scope, ctx.body, old)
    if old:
        cur[cur.index(old)] = obj
        return Reply(200, obj)
    cur.append(obj)
    return Reply(201, obj)


def _command(fake, ctx):
    """(scope, the command named by the path, None), or (.., .., the
    error reply) for a bad scope or an unknown command."""
    scope, bad = _command_scope(fake, ctx)
    if bad:
        return scope, None, bad
    for c in fake.commands.get(scope, []):
        if c["id"] == ctx.params["command_id"]:
            return scope, c, None
    return scope, None, error(404, 10063, "Unknown application command")


@route("GET", "/applications/{application_id}/commands/{command_id}")
@route("GET", "/applications/{application_id}/guilds/{guild_id}/commands/"
       "{command_id}")
async def get_command(fake, ctx):
    scope, c, bad = _command(fake, ctx)
    if bad:
        return bad
    return Reply(200, c)


@route("PATCH", "/applications/{application_id}/commands/{command_id}")
@route("PATCH", "/applications/{application_id}/guilds/{guild_id}/commands/"
       "{command_id}")
async def patch_command(fake, ctx):
    scope, c, bad = _command(fake, ctx)
    if bad:
        return bad
    merged = dict(c)
    merged.update(ctx.body or {})
    errs = rules.command_errors(merged)
    if errs:
        ctx.v("command_limits", openapi_check.explain(errs))
        return form_error(errs)
    obj = _command_object(fake, scope, merged, c)
    cur = fake.commands[scope]
    cur[cur.index(c)] = obj
    return Reply(200, obj)


@route("DELETE", "/applications/{application_id}/commands/{command_id}")
@route("DELETE", "/applications/{application_id}/guilds/{guild_id}/commands/"
       "{command_id}")
async def delete_command(fake, ctx):
    scope, c, bad = _command(fake, ctx)
    if bad:
        return bad
    fake.commands[scope].remove(c)
    return Reply(204)


# -- interaction callbacks ---------------------------------------------------

CALLBACKS_FOR = {1: {1}, 2: {4, 5, 9}, 3: {4, 5, 6, 7, 9}, 4: {8},
                 5: {4, 5, 6, 7}}


@route("POST", "/interactions/{interaction_id}/{interaction_token}/callback")
async def interaction_callback(fake, ctx):
    iid = ctx.params["interaction_id"]
    it = fake.interactions.get(iid)
    now = time.time()
    if it is None or it.token != ctx.params["interaction_token"]:
        ctx.v("unknown_interaction", f"no interaction {iid} with that token")
        return error(404, 10062, "Unknown interaction")
    age = now - it.created
    cb = ctx.body or {}
    ctype = cb.get("type")
    if it.callback is not None:
        it.callback_errors.append({"at": now, "code": 40060, "type": ctype})
        ctx.v("double_ack", f"interaction {iid} was already acknowledged "
              f"(type {it.callback['type']})")
        return error(400, 40060, "Interaction has already been acknowledged.")
    if age > fake.deadline:
        it.callback_errors.append({"at": now, "code": 10062, "type": ctype,
                                   "age_ms": round(age * 1000, 1)})
        ctx.v("late_callback", f"callback {age * 1000:.0f} ms after the "
              f"interaction was created (limit {fake.deadline * 1000:.0f} ms)")
        return error(404, 10062, "Unknown interaction")
    if ctype not in CALLBACKS_FOR.get(it.type, set()):
        ctx.v("callback_type", f"callback type {ctype} does not answer an "
              f"interaction of type {it.type}")
        return form_error([(("type",), "INTERACTION_RESPONSE_TYPE_INVALID",
                            f"Interaction response type {ctype} is not valid "
                            f"for interaction type {it.type}.")])
    data = cb.get("data") or {}
    ephemeral = bool((data.get("flags") or 0) & rules.EPHEMERAL)
    if ctype in (4, 7):
        kind = "interaction_create" if ctype == 4 else "interaction_edit"
        src = fake.messages.get(it.source_message_id) \
            if it.source_message_id and ctype == 7 else None
        bad = fake.message_problem(data, kind, ctype == 4, ctx, src)
        if bad:
            return bad
    if ctype == 5 and data.get("flags") is not None and \
            data["flags"] & ~rules.EPHEMERAL:
        ctx.v("message_limits", "a deferred response takes only the "
              "EPHEMERAL flag")
        return form_error([(("data", "flags"), "MESSAGE_FLAGS_INVALID",
                            "Only EPHEMERAL may be set here.")])
    it.callback = {"type": ctype, "data": cb.get("data")}
    it.callback_at = now
    fake.stats["callbacks"] += 1
    src = fake.messages.get(it.source_message_id) \
        if it.source_message_id else None
    msg = None
    if ctype == 4:
        msg = fake.new_message(it.channel_id, data, "callback",
                               interaction=it, ephemeral=ephemeral,
                               files=ctx.files)
        it.original_id = msg["obj"]["id"]
    elif ctype == 5:
        msg = fake.new_message(it.channel_id, {}, "deferred", interaction=it,
                               ephemeral=ephemeral, loading=True)
        it.original_id = msg["obj"]["id"]
        it.original_loading = True
    elif ctype in (6, 7) and src is not None:
        it.original_id = src["obj"]["id"]
        if ctype == 7:
            fake.edit_message(src, data, ctx.files)
        msg = src
    if ctx.query.get("with_response") == "true":
        res = {"interaction": {"id": it.id, "type": it.type}}
        if msg is not None:
            res["interaction"].update({
                "response_message_id": msg["obj"]["id"],
                "response_message_loading": bool(msg["obj"]["flags"] &
                                                 rules.LOADING),
                "response_message_ephemeral": msg["meta"]["ephemeral"]})
        if ctype in (4, 7) and msg is not None:
            res["resource"] = {"type": ctype, "message": msg["obj"]}
        return Reply(200, res)
    return Reply(204)


# -- interaction webhooks (followups) ----------------------------------------

def _webhook_interaction(fake, ctx):
    """(Interaction, None) or (None, error Reply)."""
    wid, tok = ctx.params["webhook_id"], ctx.params["webhook_token"]
    it = fake.by_token.get(tok)
    if wid != fake.app_id or it is None:
        ctx.v("unknown_webhook", "not this application's interaction "
              "webhook (webhook_id must be the application id, the token an "
              "interaction token)")
        return None, error(404, 10015, "Unknown Webhook")
    if it.type == 4:
        ctx.v("unknown_webhook", f"interaction {it.id} is an autocomplete: "
              "it has no messages")
        return None, error(404, 10015, "Unknown Webhook")
    if time.time() - it.created > TOKEN_TTL:
        ctx.v("expired_token", f"interaction token of {it.id} is older than "
              "15 minutes")
        return None, error(401, 50027, "Invalid Webhook Token")
    if it.callback is None:
        ctx.v("followup_before_ack", f"interaction {it.id} has not been "
              "acknowledged yet")
        return None, error(404, 10015, "Unknown Webhook")
    return it, None


def _interaction_message(fake, it, mid):
    if mid == "@original":
        mid = it.original_id
    if mid is None or (mid != it.original_id and mid not in it.followups):
        return None
    m = fake.messages.get(mid)
    if m is None or m["meta"]["deleted"]:
        return None
    return m


@route("POST", "/webhooks/{webhook_id}/{webhook_token}")
async def post_followup(fake, ctx):
    it, bad = _webhook_interaction(fake, ctx)
    if bad:
        return bad
    body = ctx.body or {}
    bad = fake.message_problem(body, "interaction_create", True, ctx)
    if bad:
        return bad
    if it.original_loading and it.original_id in fake.messages:
        # The first followup after a deferred response replaces the
        # "thinking..." message (and keeps its ephemerality).
        m = fake.messages[it.original_id]
        fake.edit_message(m, body, ctx.files)
        it.original_loading = False
        it.followups.append(m["obj"]["id"])
        m["meta"]["via"] = "deferred+followup"
    else:
        eph = bool((body.get("flags") or 0) & rules.EPHEMERAL)
        m = fake.new_message(it.channel_id, body, "followup", interaction=it,
                             ephemeral=eph, files=ctx.files)
        it.followups.append(m["obj"]["id"])
    fake.stats["followups"] += 1
    return Reply(200, m["obj"])


@route("GET", "/webhooks/{webhook_id}/{webhook_token}/messages/@original")
@route("GET", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}")
async def get_webhook_message(fake, ctx):
    it, bad = _webhook_interaction(fake, ctx)
    if bad:
        return bad
    m = _interaction_message(fake, it, ctx.params.get("message_id",
                                                      "@original"))
    if m is None:
        return error(404, 10008, "Unknown Message")
    return Reply(200, m["obj"])


@route("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original")
@route("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/"
       "{message_id}")
async def patch_webhook_message(fake, ctx):
    it, bad = _webhook_interaction(fake, ctx)
    if bad:
        return bad
    m = _interaction_message(fake, it, ctx.params.get("message_id",
                                                      "@original"))
    if m is None:
        ctx.v("unknown_message", "no such message for this interaction")
        return error(404, 10008, "Unknown Message")
    body = ctx.body or {}
    bad = fake.message_problem(body, "interaction_edit", False, ctx, m)
    if bad:
        return bad
    after = dict(m["obj"])
    after.update({k: body[k] for k in body})
    if rules.message_is_empty(after) and not m["obj"]["attachments"] and \
            not ctx.files:
        ctx.v("empty_message", "the edit leaves the message empty")
        return error(400, 50006, "Cannot send an empty message")
    fake.edit_message(m, body, ctx.files)
    if m["obj"]["id"] == it.original_id:
        it.original_loading = False
    return Reply(200, m["obj"])


@route("DELETE", "/webhooks/{webhook_id}/{webhook_token}/messages/@original")
@route("DELETE", "/webhooks/{webhook_id}/{webhook_token}/messages/"
       "{message_id}")
async def delete_webhook_message(fake, ctx):
    it, bad = _webhook_interaction(fake, ctx)
    if bad:
        return bad
    m = _interaction_message(fake, it, ctx.params.get("message_id",
                                                      "@original"))
    if m is None:
        return error(404, 10008, "Unknown Message")
    m["meta"]["deleted"] = True
    return Reply(204)


# -- DMs and channel messages ------------------------------------------------

@route("POST", "/users/@me/channels")
async def create_dm(fake, ctx):
    rid = (ctx.body or {}).get("recipient_id")
    if rid is None:
        ctx.v("dm", "a bot opens a DM with recipient_id")
        return form_error([(("recipient_id",), "BASE_TYPE_REQUIRED",
                            "This field is required")])
    if rid == fake.app_id:
        ctx.v("dm", "a DM with the bot itself")
        return error(400, 50007, "Cannot send messages to this user")
    fake.user(rid)
    ch = fake.dm_channel(rid)
    return Reply(200, fake.channel_object(ch))


def _channel(fake, ctx):
    ch = fake.channels.get(ctx.params["channel_id"])
    if ch is None:
        ctx.v("unknown_channel", f"channel {ctx.params['channel_id']} is "
              "unknown to the fake (not from an interaction, a DM or "
              "--channel-id)")
        return None, error(404, 10003, "Unknown Channel")
    return ch, None


@route("GET", "/channels/{channel_id}")
async def get_channel(fake, ctx):
    ch, bad = _channel(fake, ctx)
    return bad or Reply(200, fake.channel_object(ch))


@route("POST", "/channels/{channel_id}/typing")
async def typing(fake, ctx):
    ch, bad = _channel(fake, ctx)
    return bad or Reply(204)


@route("POST", "/channels/{channel_id}/threads")
async def create_thread(fake, ctx):
    """Start Thread without Message: a thread under a guild text (public
    11 or private 12) or announcement channel (10), registered as a
    channel, owned by the bot, announced by THREAD_CREATE."""
    ch, bad = _channel(fake, ctx)
    if bad:
        return bad
    body = ctx.body or {}
    if ch["type"] not in (0, 5):
        ctx.v("thread", f"channel {ch['id']} (type {ch['type']}) cannot hold "
              "threads (only guild text and announcement channels can)")
        return error(400, 50024, "Cannot execute action on this channel "
                     "type")
    if "message" in body or "applied_tags" in body:
        ctx.v("thread", "a forum post's body (message, applied_tags) sent to "
              "a text channel")
        return form_error([(("message",), "BASE_TYPE_BAD",
                            "Forum threads need a forum channel.")])
    # Discord: "type defaults to PRIVATE_THREAD" (API v9 and v10).
    ttype = body.get("type")
    if ttype is None:
        ttype = 12
    if (ch["type"] == 5) != (ttype == 10):
        ctx.v("thread", f"thread type {ttype} under a channel of type "
              f"{ch['type']} (text channels take 11 or 12, announcement "
              "channels 10)")
        return form_error([(("type",), "BASE_TYPE_CHOICES",
                            "Value must be 11 or 12." if ch["type"] == 0
                            else "Value must be 10.")])
    aad = body.get("auto_archive_duration")
    if aad is None:
        aad = 1440
    tid = fake.ids.next()
    th = fake.channels[tid] = {
        "id": tid, "type": ttype, "guild_id": ch["guild_id"],
        "parent_id": ch["id"], "name": body["name"],
        "owner_id": fake.app_id, "created": time.time(),
        "auto_archive_duration": aad, "position": 0,
        "rate_limit_per_user": body.get("rate_limit_per_user") or 0,
        "invitable": body.get("invitable") is not False,
        "request": ctx.rec["n"]}
    fake.stats["threads"] += 1
    obj = fake.thread_object(th, member=True)
    s = fake.gw.pick_session(ch["guild_id"])
    if s is not None and s.intents & 1:  # GUILDS
        await fake.gw.dispatch("THREAD_CREATE", dict(obj, newly_created=True),
                               guild_id=ch["guild_id"])
    return Reply(201, obj)


@route("POST", "/channels/{channel_id}/messages")
async def create_message(fake, ctx):
    ch, bad = _channel(fake, ctx)
    if bad:
        return bad
    body = ctx.body or {}
    bad = fake.message_problem(body, "channel_create", True, ctx)
    if bad:
        return bad
    if ch["type"] == 1 and ch["recipient_id"] in fake.dm_closed:
        fake.stats["dm_refused"] += 1
        return error(403, 50007, "Cannot send messages to this user")
    ref = body.get("message_reference")
    if isinstance(ref, dict) and ref.get("message_id") and \
            ref.get("fail_if_not_exists", True) and \
            ref["message_id"] not in fake.channel_msgs.get(ch["id"], []):
        return form_error([(("message_reference",),
                            "MESSAGE_REFERENCE_UNKNOWN_MESSAGE",
                            "Unknown message")])
    m = fake.new_message(ch["id"], body, "channel", files=ctx.files)
    return Reply(200, m["obj"])


def _channel_message(fake, ctx):
    ch, bad = _channel(fake, ctx)
    if bad:
        return None, bad
    mid = ctx.params["message_id"]
    m = fake.messages.get(mid)
    if m is None or m["obj"]["channel_id"] != ch["id"] or \
            m["meta"]["deleted"] or m["meta"]["ephemeral"]:
        return None, error(404, 10008, "Unknown Message")
    return m, None


@route("GET", "/channels/{channel_id}/messages/{message_id}")
async def get_message(fake, ctx):
    m, bad = _channel_message(fake, ctx)
    return bad or Reply(200, m["obj"])


@route("GET", "/channels/{channel_id}/messages")
async def list_messages(fake, ctx):
    ch, bad = _channel(fake, ctx)
    if bad:
        return bad
    limit = int(ctx.query.get("limit", 50))
    ids = [i for i in fake.channel_msgs.get(ch["id"], [])
           if not fake.messages[i]["meta"]["deleted"]
           and not fake.messages[i]["meta"]["ephemeral"]]
    before, after = ctx.query.get("before"), ctx.query.get("after")
    if before:
        ids = [i for i in ids if int(i) < int(before)]
    if after:
        ids = [i for i in ids if int(i) > int(after)]
    ids = ids[-limit:] if not after else ids[:limit]
    return Reply(200, [fake.messages[i]["obj"] for i in reversed(ids)])


@route("PATCH", "/channels/{channel_id}/messages/{message_id}")
async def edit_message(fake, ctx):
    m, bad = _channel_message(fake, ctx)
    if bad:
        ctx.v("unknown_message", f"message {ctx.params['message_id']} is "
              "not an editable message in this channel")
        return bad
    body = ctx.body or {}
    bad = fake.message_problem(body, "channel_edit", False, ctx, m)
    if bad:
        return bad
    after = dict(m["obj"])
    after.update({k: body[k] for k in body})
    if rules.message_is_empty(after) and not ctx.files:
        ctx.v("empty_message", "the edit leaves the message empty")
        return error(400, 50006, "Cannot send an empty message")
    fake.edit_message(m, body, ctx.files)
    return Reply(200, m["obj"])


@route("DELETE", "/channels/{channel_id}/messages/{message_id}")
async def delete_message(fake, ctx):
    m, bad = _channel_message(fake, ctx)
    if bad:
        return bad
    m["meta"]["deleted"] = True
    return Reply(204)



# == interactions over HTTP (the Interactions Endpoint URL) =================
#
# With an endpoint set (POST /_fake/endpoint), /_fake/interaction POSTs
# each interaction there instead of dispatching it on the gateway, signed
# as Discord signs: X-Signature-Ed25519 (hex) over X-Signature-Timestamp
# followed by the body, with the application's key. A 200 response is
# the interaction's response: checked against openapi.json's body of
# POST /interactions/{id}/{token}/callback and applied exactly as that
# callback would be (deadline, type, message rules). A 202 says the bot
# answered through that callback instead. Anything else is a violation.

HTTP_TIMEOUT = 10.0
# Deliberately bad requests (/_fake/interaction with "http_bad"): what
# each breaks, and the status the bot must answer.
HTTP_BAD = {
    "bad_signature": 401, "wrong_key": 401, "no_signature": 401,
    "no_timestamp": 401, "odd_hex": 401, "non_hex": 401,
    "tampered_body": 401, "stale": 401, "future": 401,
    "get": 405, "put": 405, "wrong_path": 404, "oversized": 413,
    "content_type": 415, "empty": 400,
}


def _sign(key, ts, body):
    return key.sign(ts.encode() + body).signature.hex()


async def http_request(url, method, headers, body):
    """(status, {lower-case header: value}, body bytes) of one HTTP/1.1
    request on a connection of its own."""
    u = urllib.parse.urlsplit(url)
    target = (u.path or "/") + ("?" + u.query if u.query else "")
    reader, writer = await asyncio.wait_for(
        asyncio.open_connection(u.hostname, u.port or 80), HTTP_TIMEOUT)
    try:
        head = [f"{method} {target} HTTP/1.1", f"Host: {u.netloc}",
                "User-Agent: Discord-Interactions/1.0 (+https://discord.com)",
                "Connection: close", f"Content-Length: {len(body)}"]
        head += [f"{k}: {v}" for k, v in headers]
        writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + body)
        try:
            await writer.drain()
        except ConnectionError:
            pass  # refused before the body was read: the answer says why
        line = await asyncio.wait_for(reader.readline(), HTTP_TIMEOUT)
        parts = line.decode("latin-1").split(None, 2)
        if len(parts) < 2 or not parts[0].startswith("HTTP/1."):
            raise ValueError(f"not an HTTP response: {line[:80]!r}")
        status = int(parts[1])
        hdrs = {}
        while True:
            h = await asyncio.wait_for(reader.readline(), HTTP_TIMEOUT)
            if h in (b"\r\n", b"\n", b""):
                break
            k, _, v = h.decode("latin-1").partition(":")
            hdrs[k.strip().lower()] = v.strip()
        n = int(hdrs.get("content-length", "0"))
        data = await asyncio.wait_for(reader.readexactly(n), HTTP_TIMEOUT) \
            if n else b""
        return status, hdrs, data
    finally:
        writer.close()


async def http_send(fake, payload, bad=None, url=None):
    """Sends payload (a dict) to the endpoint (or url), signed, or broken
    the way bad (HTTP_BAD) says; (status, headers, body, seconds)."""
    url, method = url or fake.endpoint, "POST"
    body = jdump(payload).encode()
    ts = str(int(time.time()))
    key = fake.signing_key
    ctype = "application/json"
    if bad == "stale":
        ts = str(int(time.time()) - 600)
    elif bad == "future":
        ts = str(int(time.time()) + 600)
    elif bad == "wrong_key":
        key = nacl.signing.SigningKey.generate()
    elif bad == "oversized":  # valid JSON, signed, past 64 KiB
        body = body[:-1] + b" " * (70 << 10) + b"}"
    elif bad == "empty":  # signed, but no body
        body = b""
    sig = _sign(key, ts, body)
    if bad == "bad_signature":
        sig = secrets.token_hex(64)
    elif bad == "odd_hex":
        sig = sig[:-1]
    elif bad == "non_hex":
        sig = "zz" + sig[2:]
    elif bad == "tampered_body":  # signed, then changed on the way
        body = body.replace(b'"version":1', b'"version":2')
    elif bad == "get":
        method = "GET"
    elif bad == "put":
        method = "PUT"
    elif bad == "wrong_path":
        url += "x"
    elif bad == "content_type":
        ctype = "text/plain"
    headers = [("Content-Type", ctype)]
    if bad != "no_signature":
        headers.append(("X-Signature-Ed25519", sig))
    if bad != "no_timestamp":
        headers.append(("X-Signature-Timestamp", ts))
    t0 = time.monotonic()
    st, hdrs, data = await http_request(url, method, headers, body)
    fake.last_signature = sig
    return st, hdrs, data, time.monotonic() - t0


def _http_violation(fake, it, kind, reason):
    fake.violation(kind, "HTTP", "(interactions endpoint)", reason,
                   {"interaction": it.id})


async def balanced_send(fake, it):
    """http_send of interaction it to the endpoint, or with several to one
    of them at random, going on to the next while a connection is refused;
    it.http_url tells which answered."""
    if not fake.endpoints:
        it.http_url = fake.endpoint
        return await http_send(fake, it.payload)
    urls = list(fake.endpoints)
    fake.lb_rng.shuffle(urls)
    for k, url in enumerate(urls):
        it.http_url = url
        try:
            return await http_send(fake, it.payload, url=url)
        except ConnectionRefusedError:
            if k == len(urls) - 1:
                raise
            fake.stats["http_failover"] += 1


async def deliver_http(fake, it):
    """POSTs interaction it to the endpoint and applies the response."""
    it.http_inflight = True
    it.dispatch_count += 1
    it.dispatched_at = time.time()
    try:
        try:
            st, hdrs, data, secs = await balanced_send(fake, it)
        except (OSError, ValueError, asyncio.TimeoutError,
                asyncio.IncompleteReadError) as e:
            it.http_status = 0
            if fake.endpoints:
                # Behind a load balancer a process killed while it held the
                # request leaves it unanswered, as Discord would see it:
                # lost, for the test to account for, not a fault of Lair.
                fake.stats["http_lost"] += 1
                it.http_lost = True
                return
            _http_violation(fake, it, "http_response",
                            f"no HTTP response: {e!r}")
            return
        it.http_status, it.http_ms = st, round(secs * 1000, 1)
        fake.stats[f"http_status_{st}"] += 1
        if st == 202:  # answered through the callback endpoint
            if data:
                _http_violation(fake, it, "http_response",
                                "a 202 has no body")
            return
        if st != 200:
            _http_violation(fake, it, "http_response",
                            f"status {st} for a valid interaction: "
                            f"{data[:200]!r}")
            return
        ctype = hdrs.get("content-type", "").split(";")[0].strip().lower()
        try:
            obj = json.loads(data.decode("utf-8"),
                             parse_constant=_reject_constant)
        except (ValueError, UnicodeDecodeError) as e:
            obj = None
            _http_violation(fake, it, "http_response", f"not JSON: {e}")
        if ctype != "application/json":
            _http_violation(fake, it, "http_response",
                            f"Content-Type {ctype!r}, not application/json")
        if not isinstance(obj, dict):
            return
        sub = f"/interactions/{it.id}/{it.token}/callback"
        route, params = fake.spec.match(sub)
        errs = fake.spec.check_body(route, "POST", obj)
        if errs:
            _http_violation(fake, it, "schema",
                            "the interaction response: " +
                            openapi_check.explain(errs))
            it.callback_errors.append({"at": time.time(), "code": 50035,
                                       "type": obj.get("type")})
            return

        def v(kind, reason):
            _http_violation(fake, it, kind, reason)
        ctx = Ctx(fake, None, {"n": 0}, "POST", sub, route, params, {}, obj,
                  [], v)
        await interaction_callback(fake, ctx)
    finally:
        it.http_inflight = False


async def set_endpoints(fake, urls):
    """Puts a load balancer in front of several endpoints (each checked as
    set_endpoint checks one): interactions go to one of them at random."""
    if not isinstance(urls, list) or not urls:
        raise ControlError(400, "urls: a list of http://HOST:PORT/PATH")
    for u in urls:
        st, obj = await set_endpoint(fake, u)
        if st != 200:
            fake.endpoints = []
            return st, obj
    fake.endpoints = list(urls)
    return 200, {"ok": True, "endpoints": urls}


async def set_endpoint(fake, url):
    """Sets the Interactions Endpoint URL after Discord's own checks: a
    signed PING must get a PONG, one with a bad signature a 401."""
    if nacl is None:
        raise ControlError(500, "the HTTP mode needs python3-nacl")
    fake.endpoints = []
    if url is None:
        fake.endpoint = None
        return 200, {"ok": True, "endpoint": None}
    if not isinstance(url, str) or not url.startswith("http://"):
        raise ControlError(400, "url: http://HOST:PORT/PATH")
    old, fake.endpoint = fake.endpoint, url
    ping = {"id": fake.ids.next(), "application_id": fake.app_id, "type": 1,
            "token": secrets.token_urlsafe(48), "version": 1}
    try:
        st, hdrs, data, _ = await http_send(fake, ping)
        bad_st, _, _, _ = await http_send(fake, ping, "bad_signature")
    except (OSError, ValueError, asyncio.TimeoutError,
            asyncio.IncompleteReadError) as e:
        fake.endpoint = old
        return 400, {"error": f"the endpoint did not answer: {e!r}"}
    pong = None
    try:
        pong = json.loads(data)
    except ValueError:
        pass
    if st != 200 or pong != {"type": 1} or bad_st != 401:
        fake.endpoint = old
        return 400, {"error": "the endpoint failed Discord's checks: PING "
                     f"got {st} {data[:100]!r} (want 200 {{\"type\":1}}), "
                     f"a bad signature got {bad_st} (want 401)"}
    return 200, {"ok": True, "endpoint": url}

# == control API ============================================================

def _snowflake_ok(s):
    return isinstance(s, str) and s.isdigit() and not s.startswith("0")


def _interaction_summary(fake, it):
    lat = None
    if it.callback_at is not None and it.dispatched_at is not None:
        lat = round((it.callback_at - it.dispatched_at) * 1000, 1)
    orig = fake.messages.get(it.original_id) if it.original_id else None
    return {
        "id": it.id, "token": it.token, "type": it.type,
        "created_at": it.created, "dispatched_at": it.dispatched_at,
        "dispatch_count": it.dispatch_count, "callback": it.callback,
        "callback_at": it.callback_at, "latency_ms": lat,
        "age_at_callback_ms": None if it.callback_at is None else
        round((it.callback_at - it.created) * 1000, 1),
        "callback_errors": it.callback_errors,
        "http_status": it.http_status, "http_ms": it.http_ms,
        "http_url": it.http_url, "http_lost": it.http_lost,
        "original": fake.public_message(orig) if orig else None,
        "followups": [fake.public_message(fake.messages[m])
                      for m in it.followups if m in fake.messages],
        "payload": it.payload,
    }


def _fill_options(cmd_opts, given, itype, path, force):
    """Completes option types from the registered command; returns the
    filled list. Raises ControlError for what Discord's client would never
    send."""
    by_name = {o["name"]: o for o in cmd_opts or []}
    out = []
    for g in given or []:
        if not isinstance(g, dict) or "name" not in g:
            raise ControlError(400, f"{path}: options are objects with a "
                               "name")
        o = by_name.get(g["name"])
        if o is None:
            if not force:
                raise ControlError(400, f"{path}: the command has no option "
                                   f"{g['name']!r}")
            out.append(g)
            continue
        f = dict(g)
        f["type"] = o["type"]
        if o["type"] in (1, 2):
            f["options"] = _fill_options(o.get("options"), g.get("options"),
                                         itype, f"{path}.{g['name']}", force)
        elif "value" not in g and not force:
            raise ControlError(400, f"{path}.{g['name']}: no value")
        elif not g.get("focused") and not force:
            _check_value(o, g["value"], f"{path}.{g['name']}")
        out.append(f)
    if not force and itype == 2:
        names = {g["name"] for g in out}
        for o in cmd_opts or []:
            if o.get("required") and o["name"] not in names and \
                    o["type"] not in (1, 2):
                raise ControlError(400, f"{path}: required option "
                                   f"{o['name']!r} missing")
        subs = [g for g in out if g.get("type") in (1, 2)]
        if any(o["type"] in (1, 2) for o in cmd_opts or []) and \
                len(subs) != 1:
            raise ControlError(400, f"{path}: choose exactly one subcommand")
    return out


def _check_value(o, val, path):
    t = o["type"]
    okt = {3: str, 4: int, 5: bool, 6: str, 7: str, 8: str, 9: str,
           10: (int, float), 11: str}.get(t, object)
    if not isinstance(val, okt) or (t in (4, 10) and isinstance(val, bool)):
        raise ControlError(400, f"{path}: value {val!r} does not fit option "
                           f"type {t}")
    if o.get("choices") and val not in [c["value"] for c in o["choices"]]:
        raise ControlError(400, f"{path}: {val!r} is not one of the choices")
    if t in (4, 10):
        if o.get("min_value") is not None and val < o["min_value"] or \
                o.get("max_value") is not None and val > o["max_value"]:
            raise ControlError(400, f"{path}: {val} is out of range")
    if t == 3:
        if o.get("min_length") is not None and len(val) < o["min_length"] or \
                o.get("max_length") is not None and len(val) > o["max_length"]:
            raise ControlError(400, f"{path}: length out of range")


def _focused_count(opts):
    n = 0
    for o in opts or []:
        n += 1 if o.get("focused") else 0
        n += _focused_count(o.get("options"))
    return n


def _find_component(comps, custom_id):
    for c in comps or []:
        if not isinstance(c, dict):
            continue
        if c.get("custom_id") == custom_id:
            return c
        found = _find_component(c.get("components"), custom_id)
        if found is None and isinstance(c.get("accessory"), dict):
            found = _find_component([c["accessory"]], custom_id)
        if found is not None:
            return found
    return None


def build_interaction(fake, p):
    itype = p.get("type", 2)
    if itype not in (2, 3, 4, 5):
        raise ControlError(400, "type must be 2, 3, 4 or 5")
    force = bool(p.get("force"))
    iid = fake.ids.next()
    raw = f"interaction:{iid}:{secrets.token_urlsafe(96)}".encode()
    token = base64.urlsafe_b64encode(raw).decode().rstrip("=")
    member_p = p.get("member")
    user_p = (member_p or {}).get("user") or p.get("user") or \
        {"id": fake.args.user_id, "username": "alice"}
    if not _snowflake_ok(user_p.get("id")):
        raise ControlError(400, "user.id must be a snowflake string")
    user = copy.deepcopy(fake.user(user_p["id"], user_p))
    in_guild = "guild_id" in p or member_p is not None or \
        ("user" not in p and not p.get("dm"))
    payload = {
        "id": iid, "application_id": fake.app_id, "type": itype,
        "token": token, "version": 1,
        "app_permissions": str(p.get("app_permissions",
                                     DEFAULT_APP_PERMISSIONS)),
        "locale": p.get("locale", "en-US"), "entitlements": [],
        "attachment_size_limit": 10485760,
    }
    msg = None
    if itype == 3:
        data = p.get("data") or {}
        cid = data.get("custom_id")
        if not isinstance(cid, str):
            raise ControlError(400, "data.custom_id is required")
        mid = p.get("message_id")
        cands = [mid] if mid else [i for ids in fake.channel_msgs.values()
                                   for i in ids]
        for i in sorted(cands, key=lambda x: int(x), reverse=True):
            m = fake.messages.get(i)
            if m and not m["meta"]["deleted"] and \
                    _find_component(m["obj"]["components"], cid):
                msg = m
                break
        if msg is None and not force:
            raise ControlError(400, f"no message carries a component with "
                               f"custom_id {cid!r}")
        if msg is not None:
            comp = _find_component(msg["obj"]["components"], cid)
            if comp.get("disabled") and not force:
                raise ControlError(400, f"component {cid!r} is disabled")
            if msg["meta"]["ephemeral"] and msg["meta"]["audience"] != \
                    user["id"] and not force:
                raise ControlError(400, "only the user who saw that "
                                   "ephemeral message can click it")
            d = {"custom_id": cid, "component_type": comp["type"],
                 "id": comp.get("id")}
            if comp["type"] == 3:
                vals = data.get("values")
                allowed = [o["value"] for o in comp.get("options", [])]
                lo = comp.get("min_values", 1)
                hi = comp.get("max_values", 1)
                lo = 1 if lo is None else lo
                hi = 1 if hi is None else hi
                if not isinstance(vals, list) or not force and (
                        any(x not in allowed for x in vals) or
                        not lo <= len(vals) <= hi):
                    raise ControlError(400, f"values must be {lo}..{hi} of "
                                       f"{allowed}")
                d["values"] = vals
            elif comp["type"] in (5, 6, 7, 8):
                d["values"] = data.get("values", [])
                d["resolved"] = data.get("resolved", {})
            payload["data"] = d
            ch = fake.channels.get(msg["obj"]["channel_id"])
            if ch is not None:
                in_guild = ch["type"] != 1
                if ch["type"] == 0:  # the click comes from that channel
                    p["guild_id"] = ch["guild_id"]
                    p["channel_id"] = ch["id"]
                elif ch["recipient_id"] != user["id"] and not force:
                    raise ControlError(400, "that message is in another "
                                       "user's DM")
        else:
            payload["data"] = dict(data, component_type=data.get(
                "component_type", 2))
    elif itype == 5:
        data = p.get("data") or {}
        if not isinstance(data.get("custom_id"), str):
            raise ControlError(400, "data.custom_id is required")
        payload["data"] = {"custom_id": data["custom_id"],
                           "components": data.get("components", [])}
    if in_guild:
        gid = p.get("guild_id", fake.args.guild_id)
        if not _snowflake_ok(gid):
            raise ControlError(400, "guild_id must be a snowflake string")
        fake.guilds.setdefault(gid, {"id": gid, "name": f"Guild {gid[-4:]}",
                                     "owner_id": fake.args.owner_id})
        cid = p.get("channel_id", fake.args.channel_id)
        if not _snowflake_ok(cid):
            raise ControlError(400, "channel_id must be a snowflake string")
        ch = fake.channels.get(cid)
        if ch is None:
            ch = fake.channels[cid] = {"id": cid, "type": 0, "guild_id": gid,
                                       "name": f"channel-{cid[-4:]}",
                                       "position": len(fake.channels)}
        elif ch["type"] not in (0,) + THREAD_TYPES or \
                ch["guild_id"] != gid:
            raise ControlError(400, f"channel {cid} is not a text channel "
                               f"or thread of guild {gid}")
        perms = (member_p or {}).get("permissions",
                                     DEFAULT_MEMBER_PERMISSIONS)
        if ch["type"] in THREAD_TYPES:
            chan = dict(fake.thread_object(ch), permissions=str(perms))
        else:
            chan = {"id": cid, "type": 0, "guild_id": gid,
                    "name": ch["name"], "position": ch["position"],
                    "flags": 0, "permissions": str(perms),
                    "nsfw": False, "parent_id": None, "topic": None,
                    "last_message_id": None, "rate_limit_per_user": 0}
        payload.update({
            "guild_id": gid, "guild": {"id": gid, "locale": p.get(
                "guild_locale", "en-US"), "features": []},
            "guild_locale": p.get("guild_locale", "en-US"), "channel_id": cid,
            "channel": chan,
            "member": {"user": user, "roles": list((member_p or {}).get(
                "roles", [])), "premium_since": None,
                "permissions": str(perms), "pending": False, "nick":
                (member_p or {}).get("nick"), "mute": False, "joined_at":
                iso(fake.started), "flags": 0, "deaf": False,
                "communication_disabled_until": None, "avatar": None,
                "banner": None, "unusual_dm_activity_until": None},
            "context": 0, "authorizing_integration_owners": {"0": gid},
        })
    else:
        ch = fake.dm_channel(user["id"])
        payload.update({
            "channel_id": ch["id"],
            "channel": {"id": ch["id"], "type": 1, "flags": 0,
                        "last_message_id": None, "recipients": [user]},
            "user": user, "context": 1,
            "authorizing_integration_owners": {"0": "0"},
        })
    if itype in (2, 4):
        data = p.get("data") or {}
        name = data.get("name")
        if not isinstance(name, str):
            raise ControlError(400, "data.name (the command) is required")
        gid = payload.get("guild_id")
        cmd = None
        for scope in ([gid] if gid else []) + ["global"]:
            for c in fake.commands.get(scope, []):
                if c["name"] == name and c["type"] == data.get("type", 1):
                    cmd = c
                    break
            if cmd:
                break
        if cmd is None and not force:
            raise ControlError(400, f"no registered command {name!r} "
                               "visible here (register it with PUT first)")
        if cmd is not None and not in_guild and not force:
            ctxs = cmd.get("contexts")
            if "guild_id" in cmd or (ctxs is not None and 1 not in ctxs) or \
                    (ctxs is None and cmd.get("dm_permission") is False):
                raise ControlError(400, f"command {name!r} is not available "
                                   "in DMs")
        d = {"id": cmd["id"] if cmd else fake.ids.next(), "name": name,
             "type": data.get("type", 1)}
        if cmd is not None and "guild_id" in cmd:
            d["guild_id"] = cmd["guild_id"]
        opts = _fill_options(cmd.get("options") if cmd else None,
                             data.get("options"), itype, name, force)
        if opts:
            d["options"] = opts
        if itype == 4 and _focused_count(opts) != 1 and not force:
            raise ControlError(400, "autocomplete needs exactly one option "
                               "with focused: true")
        users = {}

        def collect(os_):
            for o in os_ or []:
                if o.get("type") == 6 and isinstance(o.get("value"), str):
                    users[o["value"]] = fake.user(o["value"])
                collect(o.get("options"))
        collect(opts)
        if users:
            d["resolved"] = {"users": users}
            if in_guild:
                d["resolved"]["members"] = {
                    uid: {"roles": [], "joined_at": iso(fake.started),
                          "nick": None, "avatar": None, "flags": 0,
                          "pending": False, "premium_since": None,
                          "communication_disabled_until": None,
                          "permissions": DEFAULT_MEMBER_PERMISSIONS}
                    for uid in users}
        payload["data"] = d
    if msg is not None:
        payload["message"] = copy.deepcopy(msg["obj"])
    it = Interaction(iid, token, payload)
    if msg is not None:
        it.source_message_id = msg["obj"]["id"]
    return it


async def control_route(fake, method, path, q, body):
    if path == "/endpoint" and method == "POST":
        if "urls" in (body or {}):
            return await set_endpoints(fake, body["urls"])
        return await set_endpoint(fake, (body or {}).get("url"))
    if path == "/interaction" and method == "POST":
        if not isinstance(body, dict):
            raise ControlError(400, "body: a partial interaction object")
        bad = body.pop("http_bad", None)
        if bad is not None and (bad not in HTTP_BAD or not fake.endpoint):
            raise ControlError(400, "http_bad: one of " +
                               ", ".join(HTTP_BAD) + ", with an endpoint")
        it = build_interaction(fake, body)
        fake.interactions[it.id] = it
        fake.by_token[it.token] = it
        fake.stats["interactions"] += 1
        if bad is not None:
            # Sent now, and the answer returned: it must be a refusal.
            try:
                st, _, data, secs = await http_send(fake, it.payload, bad)
            except (OSError, ValueError, asyncio.TimeoutError,
                    asyncio.IncompleteReadError) as e:
                st, data, secs = 0, repr(e).encode(), 0.0
            it.http_status = st
            return 200, {"id": it.id, "token": it.token, "status": st,
                         "want": HTTP_BAD[bad],
                         "signature": fake.last_signature,
                         "body": data.decode("utf-8", "replace"),
                         "ms": round(secs * 1000, 1)}
        if fake.endpoint:
            asyncio.get_running_loop().create_task(deliver_http(fake, it))
            return 200, {"id": it.id, "token": it.token,
                         "application_id": fake.app_id, "http": True}
        res = await fake.gw.dispatch("INTERACTION_CREATE", it.payload,
                                     guild_id=it.payload.get("guild_id"),
                                     iid=it.id)
        if res is None:
            del fake.interactions[it.id]
            del fake.by_token[it.token]
            raise ControlError(409, "no gateway session to dispatch to (the "
                               "bot has not identified, or its session "
                               "ended)")
        return 200, {"id": it.id, "token": it.token,
                     "application_id": fake.app_id, "dispatched": res["sent"],
                     "session_id": res["session_id"], "s": res["s"],
                     "shard": res["shard"]}
    m = re.fullmatch(r"/interaction/(\d+)", path)
    if m and method == "GET":
        it = fake.interactions.get(m.group(1))
        if it is None:
            raise ControlError(404, "unknown interaction")
        wait = float(q.get("wait_ms", 0)) / 1000.0
        end = time.monotonic() + wait
        while it.callback is None and time.monotonic() < end:
            await asyncio.sleep(0.01)
        return 200, _interaction_summary(fake, it)
    if path == "/interactions" and method == "GET":
        return 200, [_interaction_summary(fake, it)
                     for it in fake.interactions.values()]
    if path == "/age" and method == "POST":
        it = fake.interactions.get(str((body or {}).get("interaction_id")))
        if it is None:
            raise ControlError(404, "unknown interaction")
        it.created -= float(body.get("ms", 0)) / 1000.0
        return 200, {"ok": True, "created_at": it.created}
    if path == "/messages" and method == "GET":
        ids = None
        if "channel" in q:
            ids = list(fake.channel_msgs.get(q["channel"], []))
        elif "user" in q:
            cid = fake.dm_by_user.get(q["user"])
            ids = list(fake.channel_msgs.get(cid, [])) if cid else []
        else:
            ids = sorted(fake.messages, key=int)
        out = [fake.public_message(fake.messages[i]) for i in ids]
        if "interaction" in q:
            out = [x for x in out if x["_fake"]["interaction_id"] ==
                   q["interaction"]]
        return 200, out
    if path == "/channels" and method == "GET":
        out = []
        for ch in fake.channels.values():
            if "parent" in q and ch.get("parent_id") != q["parent"]:
                continue
            o = fake.channel_object(ch)
            o["_fake"] = {"request": ch.get("request")}
            out.append(o)
        return 200, out
    if path == "/attachments" and method == "GET":
        return 200, [{k: v for k, v in a.items() if k != "data"}
                     for a in fake.attachments.values()]
    m = re.fullmatch(r"/attachments/(\d+)", path)
    if m and method == "GET":
        a = fake.attachments.get(m.group(1))
        if a is None:
            raise ControlError(404, "unknown attachment")
        if a["data"] is None:
            raise ControlError(410, "its bytes were dropped (the fake keeps "
                               "the newest 64 MB)")
        return 200, RawBody(a["data"], a["content_type"])
    if path == "/requests" and method == "GET":
        since = int(q.get("since", 0))
        return 200, [r for r in fake.requests if r["n"] > since]
    if path == "/violations" and method == "GET":
        since = int(q.get("since", 0))
        return 200, [v for v in fake.violations if v["n"] > since]
    if path == "/gateway" and method == "GET":
        wait = float(q.get("wait_ready_ms", 0)) / 1000.0
        end = time.monotonic() + wait
        while not fake.gw.state()["ready_sessions"] and \
                time.monotonic() < end:
            await asyncio.sleep(0.01)
        return 200, fake.gw.state()
    if path == "/stats" and method == "GET":
        st = dict(fake.stats)
        for k in ("unexpected_429", "natural_429", "natural_429_global",
                  "scripted_429", "violations", "requests"):
            st.setdefault(k, 0)
        st["invalid_requests_10min"] = len(fake.invalid_times)
        st["command_puts"] = dict(fake.command_puts)
        st["response_mismatches"] = fake.response_mismatches
        st["http_connections"] = fake.http.connections
        return 200, st
    if path == "/commands" and method == "GET":
        return 200, {"commands": fake.commands,
                     "puts": dict(fake.command_puts)}
    if path == "/dm_closed" and method == "POST":
        uid = (body or {}).get("user_id")
        if not _snowflake_ok(uid):
            raise ControlError(400, "user_id must be a snowflake string")
        if (body or {}).get("closed", True):
            fake.dm_closed.add(uid)
        else:
            fake.dm_closed.discard(uid)
        return 200, {"ok": True, "dm_closed": sorted(fake.dm_closed)}
    if path == "/fault" and method == "POST":
        return await add_fault(fake, body or {})
    if path == "/faults" and method == "GET":
        return 200, fake.faults
    if path == "/dispatch" and method == "POST":
        if not isinstance((body or {}).get("t"), str):
            raise ControlError(400, "body: {t, d, guild_id?}")
        res = await fake.gw.dispatch(body["t"], body.get("d"),
                                     guild_id=body.get("guild_id"))
        if res is None:
            raise ControlError(409, "no gateway session")
        return 200, res
    if path == "/reset" and method == "POST":
        if (body or {}).get("gateway"):
            live = fake.gw.live()
            for c in live:
                await fake.gw.server_close(c, 4009, "Session timed out.")
            end = time.monotonic() + 2
            while any(c.open for c in live) and time.monotonic() < end:
                await asyncio.sleep(0.01)
        fake.reset_all()
        fake.gw.reset(drop_sessions=bool((body or {}).get("gateway")))
        return 200, {"ok": True}
    raise ControlError(404, f"no control endpoint {method} /_fake{path}")


async def add_fault(fake, f):
    kind = f.get("kind")
    if kind in ("http", "slow"):
        rx = f.get("route", "")
        try:
            re.compile(rx)
        except re.error as e:
            raise ControlError(400, f"route regex: {e}")
        fake.fault_n += 1
        entry = {"id": fake.fault_n, "kind": kind, "route": rx,
                 "count": int(f.get("count", 1)), "used": 0}
        if kind == "http":
            st = int(f.get("status", 500))
            entry["status"] = st
            if st == 429:
                scope = f.get("scope", "bucket")
                if scope not in ("bucket", "global", "cloudflare", "shared"):
                    raise ControlError(400, "scope: bucket, global, "
                                       "cloudflare or shared")
                entry["scope"] = scope
                entry["retry_after"] = float(f.get("retry_after", 1.0))
            for k in ("code", "message", "body"):
                if k in f:
                    entry[k] = f[k]
        else:
            entry["ms"] = int(f.get("ms", 1000))
        fake.faults.append(entry)
        return 200, {"ok": True, "id": entry["id"]}
    return await fake.gw.fault(f)


# == main ===================================================================

def parse_args(argv):
    ap = argparse.ArgumentParser(
        description="A fake Discord (REST, gateway, control API) for Lair's "
        "integration tests; see tests/fake_discord/README.md.")
    ap.add_argument("--openapi", required=True,
                    help="Discord's openapi.json")
    ap.add_argument("--http-port", type=int, default=0)
    ap.add_argument("--gw-port", type=int, default=0)
    ap.add_argument("--heartbeat-ms", type=int, default=41250)
    ap.add_argument("--token", default="fake-bot-token")
    ap.add_argument("--app-id", default="1187000000000000001")
    ap.add_argument("--guild-id", default="1187000000000000100")
    ap.add_argument("--channel-id", default="1187000000000000200")
    ap.add_argument("--user-id", default="1187000000000001001",
                    help="the default user of /_fake/interaction")
    ap.add_argument("--owner-id", default="1187000000000001000")
    ap.add_argument("--portfile")
    ap.add_argument("--shards", type=int, default=1,
                    help="shards recommended by GET /gateway/bot")
    ap.add_argument("--max-concurrency", type=int, default=1,
                    help="session_start_limit.max_concurrency: Identify "
                    "buckets (shard id %% this)")
    ap.add_argument("--session-start-remaining", type=int, default=1000,
                    help="session_start_limit.remaining at the start")
    ap.add_argument("--session-start-reset-ms", type=int, default=86400000,
                    help="session_start_limit.reset_after at the start")
    ap.add_argument("--global-limit", type=int, default=GLOBAL_LIMIT)
    ap.add_argument("--interaction-deadline-ms", type=int, default=3000)
    ap.add_argument("--identify-interval-ms", type=int, default=5000,
                    help="Identify at most once per this per bucket")
    ap.add_argument("--privileged-intents", action="store_true")
    ap.add_argument("--no-check-responses", dest="check_responses",
                    action="store_false",
                    help="do not validate the fake's own 200 responses")
    ap.add_argument("--no-check-requests", dest="check_requests",
                    action="store_false",
                    help="do not validate request bodies against openapi.json "
                         "(only for finding the bot's ceiling in "
                         "bench/bench_discord.py --ceiling; tests never use "
                         "it)")
    ap.add_argument("--several-clients", action="store_true",
                    help="several bot processes share the token: a 429 is "
                         "the bot's fault only when the same connection "
                         "was told the bucket was empty")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)
    for name in ("app_id", "guild_id", "channel_id", "user_id", "owner_id"):
        if not _snowflake_ok(getattr(args, name)):
            ap.error(f"--{name.replace('_', '-')} must be a snowflake")
    return args


async def amain(args):
    fake = FakeDiscord(args)
    gw_port = await fake.gw.start("127.0.0.1", args.gw_port)
    http_port = await fake.http.start("127.0.0.1", args.http_port)
    if args.portfile:
        tmp = args.portfile + ".tmp"
        with open(tmp, "w") as f:
            json.dump({"http": http_port, "gateway": gw_port,
                       "public_key": fake.public_key}, f)
        os.replace(tmp, args.portfile)
    fake.log(f"fake_discord: http=127.0.0.1:{http_port} "
             f"gateway=ws://127.0.0.1:{gw_port} (pid {os.getpid()})")
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    await fake.http.close()
    await fake.gw.close()


def main(argv=None):
    args = parse_args(argv if argv is not None else sys.argv[1:])
    if not os.path.isfile(args.openapi):
        print(f"fake_discord: {args.openapi}: no such file (Discord's "
              "openapi.json is required)", file=sys.stderr)
        return 2
    asyncio.run(amain(args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
