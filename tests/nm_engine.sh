#!/usr/bin/env bash
# nm_engine.sh NM LIBRARY: the engine library must neither define nor use
# any curl, libwebsockets or SQLite symbol (style.md: engine/ builds with no
# link dependency on them).
set -euo pipefail
nm_tool=$1
lib=$2
syms=$("$nm_tool" "$lib")
if [ -z "$syms" ] || ! grep -qE ' T eng_' <<<"$syms"; then
  echo "nm_engine: no eng_ symbols defined in $lib" >&2
  exit 1
fi
if grep -E ' [A-Za-z] _*(curl_|lws_|sqlite3_)' <<<"$syms"; then
  echo "nm_engine: $lib refers to curl, libwebsockets or SQLite" >&2
  exit 1
fi
echo "nm_engine: ok"
