#!/usr/bin/env bash
# pg.sh: a throwaway PostgreSQL 15 cluster for Lair's tests.
#
#   tools/pg.sh start DIR   initialises and starts a cluster in DIR and
#                           prints its connection URL
#   tools/pg.sh stop DIR    stops it at once and removes DIR
#
# The cluster listens only on a Unix socket in DIR (no TCP), trusts every
# local connection, and has a superuser role `lair` that the URL names.
# It runs with fsync and full_page_writes off: it is thrown away, and its
# speed matters more than surviving a power cut. PostgreSQL refuses to run
# as root: as root the cluster runs as the system user lairpg (made once
# if missing), which owns DIR; root's test processes can still reach the
# socket. The binaries come from Debian's postgresql-15 (tools/deps.sh).
set -euo pipefail

PGBIN=/usr/lib/postgresql/15/bin
PGUSER_SYS=lairpg

usage() {
  echo "usage: tools/pg.sh start DIR | tools/pg.sh stop DIR" >&2
  exit 2
}

[ $# -eq 2 ] || usage
cmd=$1
dir=$2

# Runs a command as the cluster's owner.
as_owner() {
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u "$PGUSER_SYS" -- "$@"
  else
    "$@"
  fi
}

start() {
  if [ ! -x "$PGBIN/initdb" ]; then
    echo "pg.sh: $PGBIN/initdb not found: install postgresql-15" >&2
    exit 1
  fi
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  # The URL carries DIR unescaped, and a socket path must stay short
  # (about 100 bytes with its file name).
  if [[ ! $dir =~ ^[A-Za-z0-9/._-]+$ ]] || [ "${#dir}" -gt 80 ]; then
    echo "pg.sh: $dir: use a short directory name of letters, digits," \
      "'/', '.', '_' and '-'" >&2
    exit 1
  fi
  if [ -n "$(ls -A "$dir")" ]; then
    echo "pg.sh: $dir is not empty" >&2
    exit 1
  fi
  if [ "$(id -u)" -eq 0 ]; then
    if ! id -u "$PGUSER_SYS" >/dev/null 2>&1; then
      useradd --system --no-create-home --shell /usr/sbin/nologin \
        "$PGUSER_SYS"
    fi
    chown "$PGUSER_SYS" "$dir"
    chmod 0700 "$dir"
    if ! runuser -u "$PGUSER_SYS" -- test -w "$dir"; then
      echo "pg.sh: $dir is not reachable by the user $PGUSER_SYS (a parent" \
        "directory is closed to others); choose a directory under /tmp" >&2
      exit 1
    fi
  fi
  as_owner "$PGBIN/initdb" -D "$dir/data" -U lair --auth=trust -E UTF8 \
    --no-locale --no-sync >"$dir/initdb.log" 2>&1 || {
    cat "$dir/initdb.log" >&2
    exit 1
  }
  # Only a Unix socket, in DIR, so the port number only names the socket
  # file: any number is free in a directory of its own, but a random one
  # keeps clusters apart should two share a directory by mistake.
  local port=$((20000 + RANDOM % 40000))
  while [ -e "$dir/.s.PGSQL.$port" ]; do
    port=$((20000 + RANDOM % 40000))
  done
  cat >>"$dir/data/postgresql.conf" <<EOF
listen_addresses = ''
unix_socket_directories = '$dir'
port = $port
fsync = off
full_page_writes = off
max_connections = 200
EOF
  as_owner "$PGBIN/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
    start >/dev/null || {
    cat "$dir/server.log" >&2
    exit 1
  }
  echo "postgresql://lair@/postgres?host=$dir&port=$port"
}

stop() {
  if [ -d "$dir/data" ]; then
    as_owner "$PGBIN/pg_ctl" -D "$dir/data" -m immediate -w stop \
      >/dev/null 2>&1 || true
  fi
  rm -rf "$dir"
}

case $cmd in
start) start ;;
stop) stop ;;
*) usage ;;
esac
