#!/usr/bin/env bash
# run.sh [SECONDS] [TARGET...]: builds Lair's libFuzzer targets with clang
# in build/fuzz and runs each for SECONDS (default 5) from its committed
# seed corpus (tests/fuzz/corpus/TARGET, copied: the committed corpus is
# never changed; villains also starts from the shipped villain files).
# Fails on the first crash, leak or sanitizer report; the input that
# caused it is left in build/fuzz/artifacts/.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
seconds=${1:-5}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] ||
  targets=(gateway interaction custom_id state record cards villains console)
CC=clang cmake -S . -B build/fuzz -DCMAKE_BUILD_TYPE=Debug -DLAIR_FUZZ=ON \
  -DLAIR_TESTS=OFF >/dev/null
cmake --build build/fuzz -j2 --target "${targets[@]/#/fuzz_}" >/dev/null
mkdir -p build/fuzz/artifacts
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
for t in "${targets[@]}"; do
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  if [ -d "tests/fuzz/corpus/$t" ]; then
    cp -r "tests/fuzz/corpus/$t/." "$work/"
  fi
  # The villain files Lair ships seed the villains target (kept once, in
  # each Villainous ruleset's data directory; Marvel's prefixed so that
  # no name collides).
  if [ "$t" = villains ]; then
    cp engine/games/villainous/data/*.json "$work/"
    for f in engine/games/marvel-villainous/data/*.json; do
      cp "$f" "$work/marvel-$(basename "$f")"
    done
  fi
  log=build/fuzz/artifacts/$t.log
  if ! build/fuzz/tests/fuzz/fuzz_"$t" -max_total_time="$seconds" -timeout=10 \
       -rss_limit_mb=1024 -artifact_prefix=build/fuzz/artifacts/"$t"- \
       -print_final_stats=1 "$work" >"$log" 2>&1; then
    tail -40 "$log" >&2
    echo "fuzz $t: FAILED (input and log in build/fuzz/artifacts/)" >&2
    exit 1
  fi
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  echo "fuzz $t: ok, ${runs:-?} inputs in ${seconds} s"
  rm -rf "$work"
  trap - EXIT
done
