#!/usr/bin/python3
"""rest_server.py: a scripted HTTP server for tests/test_rest.c.

Python 3 standard library only. It listens on 127.0.0.1 on a free port and
prints that port on its first line of output. Every request outside /_ctl/
is recorded (method, path, headers, body, arrival time on the server's
monotonic clock) and answered from the script of its "METHOD path" key
(path without the query): the queued answers in order, then the key's
"then" answer, then 200 {}. An answer is an object:
{"status": 429, "headers": {...}, "body": "text" or JSON value,
 "delay": seconds to wait before answering,
 "size": bytes of filler body (for the size cap)}.

Control endpoints:
  POST /_ctl/script {"key": "POST /api/v10/x", "queue": [...], "then": {...}}
  POST /_ctl/reset   forget scripts and the log
  GET  /_ctl/log     the log, a JSON array
It exits when its standard input closes, so it never outlives the test.
"""
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LOCK = threading.Lock()
SCRIPTS = {}
LOG = []


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def _read_body(self):
        n = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(n) if n > 0 else b""

    def _reply(self, status, headers, body):
        self.send_response(status)
        for k, v in headers.items():
            self.send_header(k, str(v))
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _control(self, path, body):
        if path == "/_ctl/script":
            spec = json.loads(body or b"{}")
            with LOCK:
                SCRIPTS[spec["key"]] = {"queue": list(spec.get("queue", [])),
                                        "then": spec.get("then")}
            return self._reply(200, {"Content-Type": "application/json"},
                               b"{}")
        if path == "/_ctl/reset":
            with LOCK:
                SCRIPTS.clear()
                LOG.clear()
            return self._reply(200, {"Content-Type": "application/json"},
                               b"{}")
        if path == "/_ctl/log":
            with LOCK:
                data = json.dumps(LOG).encode()
            return self._reply(200, {"Content-Type": "application/json"},
                               data)
        return self._reply(404, {}, b"")

    def _any(self):
        t = time.monotonic()
        body = self._read_body()
        path = self.path.split("?", 1)[0]
        if path.startswith("/_ctl/"):
            return self._control(path, body)
        key = self.command + " " + path
        with LOCK:
            LOG.append({
                "method": self.command,
                "path": self.path,
                "headers": {k.lower(): v for k, v in self.headers.items()},
                "header_count": len(self.headers.keys()),
                "body": body.decode("utf-8", "replace"),
                "t": t,
            })
            answer = None
            script = SCRIPTS.get(key)
            if script:
                if script["queue"]:
                    answer = script["queue"].pop(0)
                else:
                    answer = script["then"]
        if answer is None:
            answer = {"status": 200, "body": {}}
        if answer.get("delay"):
            time.sleep(answer["delay"])
        headers = dict(answer.get("headers", {}))
        payload = answer.get("body", "")
        if answer.get("size"):
            data = b"x" * int(answer["size"])
        elif isinstance(payload, str):
            data = payload.encode()
        else:
            data = json.dumps(payload).encode()
            headers.setdefault("Content-Type", "application/json")
        try:
            self._reply(int(answer.get("status", 200)), headers, data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (a timeout test)

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _any


class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 256  # the global-limit test opens many at once

    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def main():
    server = Server(("127.0.0.1", 0), Handler)
    sys.stdout.write("%d\n" % server.server_address[1])
    sys.stdout.flush()

    def watch_stdin():
        while sys.stdin.buffer.read(4096):
            pass
        os._exit(0)

    threading.Thread(target=watch_stdin, daemon=True).start()
    server.serve_forever()


if __name__ == "__main__":
    main()
