#!/usr/bin/env python3
"""pg_db.py: a fresh PostgreSQL database per test, on the LAIR_TEST_PG server.

    tests/pg_db.py create          makes a database and prints its URL
    tests/pg_db.py drop URL        drops the database of URL (and ends
                                   whatever is still connected to it)

From Python:

    import pg_db
    with pg_db.fresh() as url:      # None when LAIR_TEST_PG is unset
        ...

LAIR_TEST_PG is a server's URL (tools/pg.sh start DIR prints one;
tools/test.sh sets it). Names are lair_p_<pid>_<n>_<random>, so tests
running side by side never meet. The SQL goes through psql (Debian's
postgresql-client, which the postgresql-15 server package brings).
"""

import contextlib
import os
import re
import secrets
import shutil
import subprocess
import sys
import urllib.parse

_made = 0


def _psql():
    for p in ("/usr/lib/postgresql/15/bin/psql", shutil.which("psql")):
        if p and os.access(p, os.X_OK):
            return p
    raise RuntimeError("psql not found: install postgresql-15")


def _with_db(url, name):
    """url with its database (the URL's path) replaced by name."""
    parts = urllib.parse.urlsplit(url)
    return urllib.parse.urlunsplit(parts._replace(path="/" + name))


def _run(server, sql):
    subprocess.run([_psql(), "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d",
                    server, "-c", sql], check=True,
                   stdout=subprocess.DEVNULL)


def server():
    """The LAIR_TEST_PG URL, or None."""
    return os.environ.get("LAIR_TEST_PG") or None


def create():
    """Makes a fresh database on the LAIR_TEST_PG server; returns its URL."""
    global _made
    base = server()
    if not base:
        raise RuntimeError("LAIR_TEST_PG is not set (tools/pg.sh start DIR)")
    _made += 1
    name = "lair_p_%d_%d_%s" % (os.getpid(), _made, secrets.token_hex(3))
    _run(base, "CREATE DATABASE %s" % name)
    return _with_db(base, name)


def drop(url):
    """Drops the database url names (made by create)."""
    name = urllib.parse.urlsplit(url).path.lstrip("/")
    if not re.fullmatch(r"lair_p_[0-9a-f_]+", name):
        raise ValueError("not a database of pg_db.py: %r" % name)
    _run(server() or url, "DROP DATABASE IF EXISTS %s WITH (FORCE)" % name)


@contextlib.contextmanager
def fresh():
    """A fresh database's URL for the with block (None without a server),
    dropped afterwards."""
    if not server():
        yield None
        return
    url = create()
    try:
        yield url
    finally:
        drop(url)


def main(argv):
    if len(argv) == 2 and argv[1] == "create":
        print(create())
        return 0
    if len(argv) == 3 and argv[1] == "drop":
        drop(argv[2])
        return 0
    print("usage: pg_db.py create | pg_db.py drop URL", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
