#!/usr/bin/env bash
# run.sh: installs what is missing, builds a Release lair in build/release
# and starts it. Arguments go to lair (e.g. tools/run.sh simulate toy).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
. tools/deps.sh
lair_install_deps
cmake -S . -B build/release -DCMAKE_BUILD_TYPE=Release -DLAIR_TESTS=OFF \
  >/dev/null
cmake --build build/release -j "$(nproc)" >/dev/null
exec ./build/release/lair "$@"
