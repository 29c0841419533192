"""A small HTTP/1.1 server on asyncio streams, for the fake Discord.

It keeps connections alive (libcurl reuses them), answers
"Expect: 100-continue", reads Content-Length and chunked bodies, and hands
each request to an async handler on the event loop, so all of the fake's
state lives on one thread and needs no locks.
"""

import asyncio
import http
import sys
import time
import traceback

MAX_LINE = 16 * 1024
MAX_HEADERS = 64 * 1024
MAX_BODY = 32 * 1024 * 1024


class Request:
    __slots__ = ("method", "target", "path", "query", "version", "headers",
                 "body", "arrived", "peer", "conn_id", "conn_seq")

    def __init__(self):
        self.method = ""
        self.target = ""
        self.path = ""
        self.query = ""
        self.version = ""
        self.headers = []  # [(name, value)] in arrival order
        self.body = b""
        self.arrived = 0.0  # time.time() when the request line was read
        self.peer = None
        self.conn_id = 0  # which TCP connection (keep-alive checks)
        self.conn_seq = 0  # the request's position on that connection

    def header(self, name):
        """The first value of a header (case-insensitive), or None."""
        name = name.lower()
        for k, v in self.headers:
            if k.lower() == name:
                return v
        return None

    def header_count(self, name):
        name = name.lower()
        return sum(1 for k, _ in self.headers if k.lower() == name)


class Response:
    __slots__ = ("status", "headers", "body", "delay")

    def __init__(self, status=200, body=b"", headers=None):
        self.status = status
        self.headers = list(headers or [])
        self.body = body if isinstance(body, bytes) else body.encode()


class BadRequest(Exception):
    pass


async def _read_line(reader):
    try:
        line = await reader.readuntil(b"\n")
    except asyncio.LimitOverrunError:
        raise BadRequest("line too long")
    if len(line) > MAX_LINE:
        raise BadRequest("line too long")
    return line


async def _read_chunked(reader):
    out = bytearray()
    while True:
        line = (await _read_line(reader)).strip()
        size = int(line.split(b";")[0], 16)
        if size == 0:
            break
        out += await reader.readexactly(size)
        await reader.readexactly(2)
        if len(out) > MAX_BODY:
            raise BadRequest("body too large")
    while True:  # trailers
        line = await _read_line(reader)
        if line in (b"\r\n", b"\n"):
            break
    return bytes(out)


class HttpServer:
    def __init__(self, handler, log=None):
        self.handler = handler
        self.log = log or (lambda msg: print(msg, file=sys.stderr))
        self.server = None
        self.connections = 0
        self.writers = set()

    async def start(self, host, port):
        self.server = await asyncio.start_server(self._conn, host, port,
                                                 limit=MAX_LINE * 2)
        return self.server.sockets[0].getsockname()[1]

    async def close(self):
        if self.server:
            self.server.close()
        for w in list(self.writers):
            w.close()

    async def _conn(self, reader, writer):
        self.connections += 1
        conn_id = self.connections
        self.writers.add(writer)
        peer = writer.get_extra_info("peername")
        seq = 0
        try:
            while True:
                try:
                    line = await _read_line(reader)
                except (asyncio.IncompleteReadError, ConnectionError,
                        BadRequest):
                    return
                if line in (b"\r\n", b"\n"):
                    continue  # tolerate stray CRLF between requests
                req = Request()
                req.arrived = time.time()
                req.peer = peer
                req.conn_id = conn_id
                seq += 1
                req.conn_seq = seq
                try:
                    keep = await self._parse(reader, writer, line, req)
                except (BadRequest, ValueError, UnicodeDecodeError) as e:
                    await self._write(writer, Response(
                        400, b"bad request: " + str(e).encode(),
                        [("Content-Type", "text/plain")]), False)
                    return
                except (asyncio.IncompleteReadError, ConnectionError):
                    return
                try:
                    resp = await self.handler(req)
                except Exception:  # a bug in the fake: say so loudly
                    self.log("fake_discord: handler error\n" +
                             traceback.format_exc())
                    resp = Response(500, b'{"message": "fake_discord '
                                    b'internal error", "code": 0}',
                                    [("Content-Type", "application/json")])
                if resp is None:  # the handler asked to drop the connection
                    writer.transport.abort()
                    return
                try:
                    await self._write(writer, resp, keep)
                except ConnectionError:
                    return
                if not keep:
                    return
        finally:
            self.writers.discard(writer)
            try:
                writer.close()
            except Exception:
                pass

    async def _parse(self, reader, writer, line, req):
        parts = line.decode("latin-1").rstrip("\r\n").split(" ")
        if len(parts) != 3 or not parts[2].startswith("HTTP/1."):
            raise BadRequest("malformed request line")
        req.method, req.target, req.version = parts
        path, _, query = req.target.partition("?")
        req.path, req.query = path, query
        total = 0
        while True:
            h = await _read_line(reader)
            total += len(h)
            if total > MAX_HEADERS:
                raise BadRequest("headers too large")
            if h in (b"\r\n", b"\n"):
                break
            name, sep, value = h.decode("latin-1").partition(":")
            if not sep or not name or name != name.strip():
                raise BadRequest("malformed header")
            req.headers.append((name, value.strip()))
        conn_hdr = (req.header("Connection") or "").lower()
        if req.version == "HTTP/1.0":
            keep = "keep-alive" in conn_hdr
        else:
            keep = "close" not in conn_hdr
        te = (req.header("Transfer-Encoding") or "").lower()
        cl = req.header("Content-Length")
        expect = (req.header("Expect") or "").lower()
        if expect == "100-continue" and (cl not in (None, "0") or te):
            writer.write(b"HTTP/1.1 100 Continue\r\n\r\n")
            await writer.drain()
        if "chunked" in te:
            req.body = await _read_chunked(reader)
        elif cl is not None:
            n = int(cl)
            if n < 0 or n > MAX_BODY:
                raise BadRequest("bad Content-Length")
            req.body = await reader.readexactly(n) if n else b""
        return keep

    async def _write(self, writer, resp, keep):
        try:
            reason = http.HTTPStatus(resp.status).phrase
        except ValueError:
            reason = "Unknown"
        lines = [f"HTTP/1.1 {resp.status} {reason}"]
        names = {k.lower() for k, _ in resp.headers}
        hdrs = list(resp.headers)
        if "date" not in names:
            hdrs.append(("Date", time.strftime("%a, %d %b %Y %H:%M:%S GMT",
                                               time.gmtime())))
        if resp.status != 204 and resp.status >= 200:
            hdrs.append(("Content-Length", str(len(resp.body))))
        hdrs.append(("Connection", "keep-alive" if keep else "close"))
        for k, v in hdrs:
            lines.append(f"{k}: {v}")
        head = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")
        writer.write(head + (resp.body if resp.status != 204 else b""))
        await writer.drain()
