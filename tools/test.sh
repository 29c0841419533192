#!/usr/bin/env bash
# test.sh: installs what is missing, builds the sanitizer (ASan + UBSan)
# Debug build in build/test and runs every test, then runs each libFuzzer
# target for a few seconds (build/fuzz). .ci/run runs exactly this.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
. tools/deps.sh
lair_install_deps "${LAIR_TEST_DEBS[@]}"
cmake -S . -B build/test -DCMAKE_BUILD_TYPE=Debug -DLAIR_SANITIZE=ON \
  -DLAIR_TESTS=ON -DLAIR_FAULTS=ON
cmake --build build/test -j2
# One test per CPU: the suite is about ten minutes of work, much of it
# waiting on subprocesses; every test keeps to its own temporary files
# and ports, so they run side by side.
(cd build/test && ctest --output-on-failure --verbose -j "$(nproc)")
# Every parser under libFuzzer for a few seconds each (a longer run:
# tests/fuzz/run.sh 600, see tests/fuzz/README.md).
tests/fuzz/run.sh 5
