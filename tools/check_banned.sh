#!/usr/bin/env bash
# check_banned.sh ROOT: fails when a project C file calls sprintf, strcat,
# strtok, atoi or sscanf (style.md: checked conversions and bounded
# buffers only). A call is the whole word followed by "(".
set -euo pipefail
root=${1:-.}
cd "$root"
dirs=()
for d in engine bot cli commands storage tests bench; do
  [ -d "$d" ] && dirs+=("$d")
done
[ "${#dirs[@]}" -eq 0 ] && exit 0
pattern='(^|[^A-Za-z0-9_])(sprintf|strcat|strtok|atoi|sscanf)[[:space:]]*\('
if grep -rnE --include='*.c' --include='*.h' --exclude-dir='build*' \
     "$pattern" "${dirs[@]}"; then
  echo "check_banned: use snprintf, checked strtol/strtoull and bounded" \
       "copies instead of the calls above" >&2
  exit 1
fi
echo "check_banned: ok"
