#!/usr/bin/env bash
# gen_docs.sh [--check] [LAIR]: keeps the card lists in docs/rules/ equal
# to the validated card data built into lair.
#
# Every game whose `lair cards GAME --markdown` works must have a page
# docs/rules/GAME.md holding exactly one pair of lines
#     <!-- cards:begin -->
#     <!-- cards:end -->
# Without --check the lines between them are replaced in place by the
# command's output. With --check nothing is written: each difference is
# printed as a diff and the exit status is 1 (ctest's docs_cards runs
# this). LAIR defaults to the first of build/release/lair, build/test/lair
# and build/*/lair that exists. Plain bash, awk and diff: CI may lack
# python.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
check=0
if [ "${1:-}" = "--check" ]; then
  check=1
  shift
fi
lair=${1:-}
if [ -z "$lair" ]; then
  for f in "$root"/build/release/lair "$root"/build/test/lair \
           "$root"/build/*/lair; do
    if [ -x "$f" ]; then
      lair=$f
      break
    fi
  done
fi
if [ -z "$lair" ] || [ ! -x "$lair" ]; then
  echo "gen_docs: no lair binary; build one or pass its path" \
       "(tools/gen_docs.sh [--check] path/to/lair)" >&2
  exit 2
fi

[ "$check" -eq 1 ] || echo "gen_docs: using $lair"

begin='<!-- cards:begin -->'
end='<!-- cards:end -->'
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The games lair lists under "Games:" in its help, one id per line. The
# help is read whole first: awk leaving early would kill lair with
# SIGPIPE, which pipefail reports as a failure.
help=$("$lair" --help)
games=$(awk '/^Games:/{g=1;next} g&&!NF{exit} g{print $1}' <<<"$help")

status=0
checked=0
for game in $games; do
  [ "$game" = "(none" ] && continue
  if ! "$lair" cards "$game" --markdown >"$tmp/gen" 2>"$tmp/err"; then
    # A game without a Markdown card list has nothing to keep in sync.
    grep -q "has no Markdown card list" "$tmp/err" && continue
    echo "gen_docs: 'lair cards $game --markdown' failed:" >&2
    cat "$tmp/err" >&2
    exit 1
  fi
  if [ ! -s "$tmp/gen" ]; then
    echo "gen_docs: 'lair cards $game --markdown' printed nothing" >&2
    exit 1
  fi
  doc="docs/rules/$game.md"
  if [ ! -f "$root/$doc" ]; then
    echo "gen_docs: $doc is missing; it must hold the card list between" \
         "the lines '$begin' and '$end'" >&2
    status=1
    continue
  fi
  nb=$(grep -cxF -- "$begin" "$root/$doc" || true)
  ne=$(grep -cxF -- "$end" "$root/$doc" || true)
  if [ "$nb" -ne 1 ] || [ "$ne" -ne 1 ] ||
     [ "$(grep -nxF -- "$begin" "$root/$doc" | cut -d: -f1)" -ge \
       "$(grep -nxF -- "$end" "$root/$doc" | cut -d: -f1)" ]; then
    echo "gen_docs: $doc must hold the line '$begin' once, followed later" \
         "by the line '$end' once" >&2
    status=1
    continue
  fi
  checked=$((checked + 1))
  if [ "$check" -eq 1 ]; then
    awk -v b="$begin" -v e="$end" '$0 == e {f = 0} f {print} $0 == b {f = 1}' \
      "$root/$doc" >"$tmp/doc"
    if ! diff -u --label "$doc (between the cards markers)" \
         --label "lair cards $game --markdown" "$tmp/doc" "$tmp/gen"; then
      echo "gen_docs: the card list in $doc differs from" \
           "'lair cards $game --markdown' (diff above)." >&2
      echo "gen_docs: regenerate it with: $root/tools/gen_docs.sh $lair" \
           "(then review the change to $doc)" >&2
      status=1
    fi
  else
    awk -v b="$begin" -v e="$end" -v gen="$tmp/gen" '
      $0 == e {f = 0}
      !f {print}
      $0 == b {
        while ((getline line < gen) > 0)
          print line
        close(gen)
        f = 1
      }' "$root/$doc" >"$tmp/new"
    if cmp -s "$tmp/new" "$root/$doc"; then
      echo "gen_docs: $doc is up to date"
    else
      cat "$tmp/new" >"$root/$doc"
      echo "gen_docs: rewrote the card list in $doc"
    fi
  fi
done
if [ "$checked" -eq 0 ] && [ "$status" -eq 0 ]; then
  echo "gen_docs: no game has a Markdown card list" >&2
fi
[ "$check" -eq 1 ] && [ "$status" -eq 0 ] &&
  echo "gen_docs: the card lists in docs/rules/ match lair's card data"
exit "$status"
