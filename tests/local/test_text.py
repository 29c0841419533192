#!/usr/bin/env python3
"""local_text: input that is not clean text is refused; output is UTF-8.

Raw bytes go to `lair local --json`: a line holding a NUL byte is refused
and the next line is still read (a NUL once swallowed it); a line of
invalid UTF-8 and an option value with a control character are refused
with their reason; an echo of a long multi-byte value is cut on a
character boundary (every message must decode as UTF-8, which Discord
requires); /prefs set quiet takes the whole value or nothing.
"""

import subprocess
import sys

import lairlocal as ll


def run_bytes(binary, db, data):
    p = subprocess.run([binary, "local", "--json", "--db", db],
                       input=data, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, env=ll.sanitizer_env(),
                       timeout=60)
    ll.check(p.returncode == 0 and not p.stderr.strip(),
             "lair exited %d: %s" % (p.returncode, p.stderr[-2000:]))
    return ll.split_answers(utf8_lines(p.stdout))


def utf8_lines(data):
    """data's lines as text, each checked to be UTF-8."""
    for raw in data.splitlines():
        try:
            yield raw.decode("utf-8")
        except UnicodeDecodeError:
            raise ll.Fail("output is not UTF-8: %r" % raw[:200])


def one_reply(answer, want, what):
    ll.check(len(answer) == 1 and answer[0]["to"] == "ephemeral" and
             want in answer[0]["text"], "%s: %r" % (what, answer))
    return answer[0]["text"]


def run(binary, tmp):
    db = "%s/text.db" % tmp
    a = run_bytes(binary, db,
                  b"alice> /game new\x00 game:supervillain\n"
                  b"alice> /game new kind:supervillain\n"
                  b"alice> /game card name:\xff\xfeab\n"
                  b"alice> /game card name:ab\x01cd\n"
                  b"alice> /game new kind:x" + "\u00e9".encode() * 40 +
                  b"\n"
                  b"alice> /prefs set quiet:22-000000000007XYZ\n"
                  b"alice> /prefs set quiet:22-7-1\n"
                  b"alice> /prefs set quiet:22-7\n")
    ll.check(len(a) == 8, "%d answers to 8 lines: %r" % (len(a), a))
    one_reply(a[0], "That line holds a NUL byte; it was ignored and "
              "nothing changed.", "a NUL byte")
    ll.check(a[1] and a[1][0]["to"] == "channel" and
             "opened game #1" in a[1][0]["text"],
             "the line after a NUL byte was not read: %r" % a[1])
    one_reply(a[2], "That line is not valid UTF-8 text", "invalid UTF-8")
    one_reply(a[3], "Option 'name' is not valid text", "a control character")
    echo = one_reply(a[4], "Lair has no game called 'x", "a long echo")
    quoted = echo.split("'")[1]
    ll.check(set(quoted[1:]) == {"\u00e9"} and len(quoted.encode()) <= 40,
             "the echo was not cut on a character: %r" % quoted)
    one_reply(a[5], "quiet takes two different hours", "quiet with a tail")
    one_reply(a[6], "quiet takes two different hours", "quiet with 3 parts")
    one_reply(a[7], "quiet hours 22-7", "a good quiet value")
    return ("NUL, invalid UTF-8 and control characters refused, the next "
            "line read; a 40-byte echo of 2-byte characters cut whole; "
            "quiet checked whole")


if __name__ == "__main__":
    sys.exit(ll.main("local_text", run))
