#!/usr/bin/env bash
# layers.sh NM LIBRARY: in the command layer calls flow one way, entry ->
# handlers -> helpers (commands/cmd_int.h). The library's members are
# sorted into the three layers by file name; a member may use only what
# its own layer or the layers below define.
set -euo pipefail
nm_tool=$1
lib=$2
layer_of() {
  case $1 in
  cmd.c.o) echo 1 ;;
  cmd_table.c.o | cmd_async.c.o | cmd_history.c.o | cmd_settings.c.o | cmd_learn.c.o) echo 2 ;;
  cmd_core.c.o | cmd_turn.c.o | cmd_conf.c.o | cmd_pic.c.o | cmd_rules.c.o) echo 3 ;;
  *) echo "layers: $1 belongs to no layer: add it to tests/layers.sh" >&2
     exit 1 ;;
  esac
}
declare -A defined_in
member=
while IFS= read -r line; do
  if [[ $line == *.o: ]]; then
    member=${line%:}
    continue
  fi
  read -r _ type sym _ <<<"$line" || true
  if [[ $type == T && -n $sym ]]; then
    defined_in[$sym]=$member
  fi
done < <("$nm_tool" "$lib")
[ ${#defined_in[@]} -gt 0 ] || { echo "layers: nothing defined in $lib" >&2; exit 1; }
bad=0
member=
while IFS= read -r line; do
  if [[ $line == *.o: ]]; then
    member=${line%:}
    continue
  fi
  [[ $line =~ ^[[:space:]]+U[[:space:]]+([A-Za-z_0-9]+)$ ]] || continue
  sym=${BASH_REMATCH[1]}
  owner=${defined_in[$sym]:-}
  [ -n "$owner" ] || continue
  if [ "$(layer_of "$owner")" -lt "$(layer_of "$member")" ]; then
    echo "layers: ${member%.o} calls $sym of ${owner%.o}, a layer above it" >&2
    bad=1
  fi
done < <("$nm_tool" "$lib")
[ $bad -eq 0 ] || exit 1
echo "layers: ok (${#defined_in[@]} functions)"
