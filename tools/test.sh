#!/usr/bin/env bash
# test.sh: installs what is missing, builds the sanitizer (ASan + UBSan)
# Debug build in build/test and runs every test, then runs each libFuzzer
# target for a few seconds (build/fuzz). .ci/run runs exactly this.
# A throwaway PostgreSQL cluster (tools/pg.sh) runs for the duration, so
# the storage tests run on PostgreSQL too (LAIR_TEST_PG); it is stopped and
# removed on exit, failed or not. LAIR_TEST_PG_REQUIRED=1 makes the
# storage_pg_required test fail should the URL ever not reach the tests.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
. tools/deps.sh
lair_install_deps "${LAIR_TEST_DEBS[@]}"
cmake -S . -B build/test -DCMAKE_BUILD_TYPE=Debug -DLAIR_SANITIZE=ON \
  -DLAIR_TESTS=ON -DLAIR_FAULTS=ON
cmake --build build/test -j2
lair_root=$PWD
pg_dir=$(mktemp -d /tmp/lair-pg.XXXXXX)
# Absolute paths: the trap may fire wherever the script then is.
trap '"$lair_root"/tools/pg.sh stop "$pg_dir"' EXIT
LAIR_TEST_PG=$(tools/pg.sh start "$pg_dir")
export LAIR_TEST_PG LAIR_TEST_PG_REQUIRED=1
# Two tests per CPU: the suite is about fifteen minutes of work, much of
# it waiting on subprocesses and on the bot's own timers, so a second
# test per CPU fills that time (on 2 CPUs: 6 minutes instead of 8);
# every test keeps to its own temporary files and ports, so they run side
# by side, and the timeouts allow for the shared CPU.
(cd build/test && ctest --output-on-failure --verbose -j "$(($(nproc) * 2))")
# Every parser under libFuzzer for a few seconds each (a longer run:
# tests/fuzz/run.sh 600, see tests/fuzz/README.md).
tests/fuzz/run.sh 5
