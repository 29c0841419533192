#!/usr/bin/env bash
# cli.sh LAIR CASE: one case of the command-line contract (design.md,
# README). Each case runs lair, then checks exit status, stdout and stderr.
set -uo pipefail
lair=$1
case_name=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# run ARGS...: runs lair with stdout/stderr captured; sets $rc.
run() {
  "$lair" "$@" >"$tmp/out" 2>"$tmp/err"
  rc=$?
}
fail() {
  echo "cli $case_name: $*" >&2
  echo "--- exit status: $rc" >&2
  echo "--- stdout:" >&2; cat "$tmp/out" >&2
  echo "--- stderr:" >&2; cat "$tmp/err" >&2
  exit 1
}
expect_rc() { [ "$rc" -eq "$1" ] || fail "expected exit status $1"; }
expect_out() { grep -qF -- "$1" "$tmp/out" || fail "stdout lacks '$1'"; }
expect_err() { grep -qF -- "$1" "$tmp/err" || fail "stderr lacks '$1'"; }
expect_no_out() { [ ! -s "$tmp/out" ] || fail "expected empty stdout"; }
expect_no_err() { [ ! -s "$tmp/err" ] || fail "expected empty stderr"; }
expect_one_err_line() {
  [ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "expected one line on stderr"
}
# The games `lair --help` lists under "Games:" (all_games), or the first.
# The help is read whole first: awk leaving early would kill lair with
# SIGPIPE.
all_games() {
  local help
  help=$("$lair" --help)
  awk '/^Games:/{g=1;next} g&&!NF{exit} g{print $1}' <<<"$help"
}
first_game() { all_games | head -n 1; }

unset DISCORD_TOKEN
case $case_name in
unknown_game)
  run simulate nosuchgame
  expect_rc 2; expect_no_out; expect_one_err_line
  expect_err "lair: unknown game 'nosuchgame' (known: "
  ;;
version)
  run --version
  expect_rc 0; expect_no_err
  [ "$(cat "$tmp/out")" = "lair 0.1.0" ] || fail "expected 'lair 0.1.0'"
  ;;
help)
  run --help
  expect_rc 0; expect_no_err
  for word in "lair simulate GAME" "--games N" "--players P" "--seed S" \
              "--mode M" "--ai SPEC" "--no-check" "lair cards GAME" \
              "--markdown" "lair replay FILE" "lair health" "lair check" \
              "--version" \
              "DISCORD_TOKEN"; do
    expect_out "$word"
  done
  ;;
no_command)
  run --bogus
  expect_rc 2; expect_no_out; expect_one_err_line; expect_err "--bogus"
  ;;
unknown_command)
  run frobnicate
  expect_rc 2; expect_no_out; expect_one_err_line; expect_err "frobnicate"
  ;;
plain_no_token)
  # No token: the console table, on the default database under $HOME.
  HOME=$tmp/home run </dev/null
  expect_rc 0; expect_no_err; expect_out "console table"
  [ -f "$tmp/home/.local/share/lair/lair.db" ] || fail "no default database"
  DISCORD_TOKEN= HOME=$tmp/home run </dev/null
  expect_rc 0; expect_no_err
  ;;
plain_with_token)
  # Discord unreachable: a clear failure, and the token never printed.
  DISCORD_TOKEN=sekrit-token-42 LAIR_DISCORD_API_URL=http://127.0.0.1:9/api/v10 \
    HOME=$tmp/home run </dev/null
  expect_rc 1; expect_no_out; expect_err "/applications/@me failed"
  ! grep -q "sekrit-token-42" "$tmp/err" || fail "the token was printed"
  ;;
bad_config)
  DISCORD_TOKEN=t LAIR_GUILD_ID=abc HOME=$tmp/home run </dev/null
  expect_rc 2; expect_one_err_line; expect_err "LAIR_GUILD_ID"
  DISCORD_TOKEN=t LAIR_LOG_LEVEL=loud HOME=$tmp/home run </dev/null
  expect_rc 2; expect_err "LAIR_LOG_LEVEL"
  DISCORD_TOKEN=t LAIR_DISCORD_API_URL=ftp://x HOME=$tmp/home run </dev/null
  expect_rc 2; expect_err "LAIR_DISCORD_API_URL"
  # Interactions over HTTP: refused at start, before any connection.
  DISCORD_TOKEN=t LAIR_HTTP_PORT=70000 HOME=$tmp/home run </dev/null
  expect_rc 2; expect_one_err_line; expect_err "LAIR_HTTP_PORT"
  DISCORD_TOKEN=t LAIR_HTTP_PORT=8080 HOME=$tmp/home run </dev/null
  expect_rc 2; expect_one_err_line; expect_err "LAIR_PUBLIC_KEY"
  DISCORD_TOKEN=t LAIR_HTTP_PORT=8080 LAIR_PUBLIC_KEY=xyz \
    HOME=$tmp/home run </dev/null
  expect_rc 2; expect_one_err_line; expect_err "LAIR_PUBLIC_KEY"
  DISCORD_TOKEN=t LAIR_PUBLIC_KEY=00 HOME=$tmp/home run </dev/null
  expect_rc 2; expect_one_err_line; expect_err "LAIR_HTTP_PORT"
  DISCORD_TOKEN=t LAIR_HTTP_PORT=8080 LAIR_SHARDS=2 \
    LAIR_PUBLIC_KEY=$(printf '%064d' 0) HOME=$tmp/home run </dev/null
  expect_rc 2; expect_one_err_line; expect_err "LAIR_SHARDS"
  ;;
bad_games)
  game=$(first_game)
  [ -n "$game" ] && [ "$game" != "(none" ] || exit 0
  for v in 0 -1 abc 1x "" " 5" 99999999999999999999 1e3; do
    run simulate "$game" --games "$v"
    expect_rc 2; expect_no_out; expect_one_err_line; expect_err "--games"
  done
  ;;
bad_players_text)
  game=$(first_game)
  [ -n "$game" ] && [ "$game" != "(none" ] || exit 0
  for v in x 2.5 -2 9; do
    run simulate "$game" --players "$v"
    expect_rc 2; expect_no_out; expect_one_err_line; expect_err "--players"
  done
  ;;
bad_seed)
  game=$(first_game)
  [ -n "$game" ] && [ "$game" != "(none" ] || exit 0
  for v in -1 +1 x 9223372036854775808 18446744073709551616; do
    run simulate "$game" --seed "$v"
    expect_rc 2; expect_no_out; expect_one_err_line; expect_err "--seed"
  done
  ;;
missing_game)
  run simulate
  expect_rc 2; expect_no_out; expect_one_err_line
  run simulate --games
  expect_rc 2; expect_no_out; expect_one_err_line; expect_err "needs a value"
  run cards
  expect_rc 2; expect_no_out; expect_one_err_line
  ;;
extra_argument)
  run simulate a b
  expect_rc 2; expect_no_out; expect_one_err_line; expect_err "'b'"
  ;;
cards_unknown)
  run cards nosuchgame
  expect_rc 2; expect_no_out; expect_one_err_line
  expect_err "lair: unknown game 'nosuchgame'"
  ;;
cards_markdown)
  # The Markdown card list (what docs/rules/supervillain.md embeds): both
  # tables, their totals, rows that add up to the rulebook's deck sizes,
  # the same text wherever the option stands; JSON stays the default.
  run cards supervillain --markdown
  expect_rc 0; expect_no_err
  for text in "### Minion cards" "### Domination cards" \
              "| Card | Count | Power | Asteroid-proof | Boosted | Swift |" \
              "| Card | Count | Cost | Points | Project ability |" \
              "| Adrenaline Shot | 2 | 100m |  | yes |  |" \
              "| Transgalactic Bank | 1 | 1,200m | 2 | \`whenever\`" \
              "Total: 43 Minion cards" "Total: 44 Domination cards"; do
    expect_out "$text"
  done
  # Sum the Count column of each table.
  sums=$(awk '/^### /{t++} /^\| [^-]/ && $0 !~ /^\| Card \|/ {
                split($0, f, " \\| "); n[t] += f[2] }
              END {print n[1] + 0, n[2] + 0}' "$tmp/out")
  [ "$sums" = "43 44" ] || fail "table counts add up to '$sums', not '43 44'"
  cp "$tmp/out" "$tmp/first"
  run cards --markdown supervillain
  expect_rc 0; expect_no_err
  cmp -s "$tmp/out" "$tmp/first" || fail "output depends on option order"
  run cards supervillain
  expect_rc 0
  head -c1 "$tmp/out" | grep -q '\[' || fail "default: expected a JSON array"
  ;;
cards_markdown_errors)
  run cards nosuchgame --markdown
  expect_rc 2; expect_no_out; expect_one_err_line
  expect_err "lair: unknown game 'nosuchgame'"
  run cards --markdown
  expect_rc 2; expect_no_out; expect_one_err_line
  run cards supervillain --markdown extra
  expect_rc 2; expect_no_out; expect_one_err_line; expect_err "'extra'"
  run cards supervillain --markdown --bogus
  expect_rc 2; expect_no_out; expect_one_err_line; expect_err "--bogus"
  ;;
simulate_registered)
  # Every registered game plays a few games, prints one JSON line with the
  # documented keys, and exits 0 (no violations).
  games=$(all_games)
  for game in $games; do
    [ "$game" = "(none" ] && continue
    run simulate "$game" --games 3 --seed 7
    expect_rc 0
    [ "$(wc -l <"$tmp/out")" -eq 1 ] || fail "expected one line of JSON"
    for key in '"game": "'"$game"'"' '"games": 3' '"players": ' \
               '"mode": "' '"seed": 7' '"moves": ' '"avg_turns": ' \
               '"avg_moves": ' '"wins_by_seat": [' '"end_reasons": {' \
               '"violations": 0' '"first_violation": null' \
               '"games_per_second": '; do
      expect_out "$key"
    done
    run cards "$game"
    expect_rc 0
    head -c1 "$tmp/out" | grep -q '\[' || fail "cards: expected a JSON array"
    run simulate "$game" --mode no-such-mode --games 1
    expect_rc 2; expect_no_out; expect_one_err_line
  done
  ;;
simulate_marvel)
  # Marvel Villainous (docs/rules/marvel-villainous.md) in every mode at
  # every table size: random and heuristic playouts keep every invariant
  # (cards conserved, views hiding what they must, the Events and Stones
  # where they may be) and every game ends.
  for mode in omnipotent-random inevitable-random undying-random; do
    for players in 2 3 4; do
      ai=$(printf 'heuristic,random,heuristic,random' | cut -d, -f1-"$players")
      run simulate marvel-villainous --games 12 --players "$players" \
        --seed 5 --mode "$mode" --ai "$ai"
      expect_rc 0; expect_out '"violations": 0'
      expect_out '"mode": "'"$mode"'"'
      grep -q '"violation"' "$tmp/out" && fail "a game ended by a violation"
    done
  done
  ;;
simulate_disorder)
  # Disorder of the Villains (docs/rules/disorder.md) with decks drafted
  # and dealt: random and heuristic playouts keep every invariant (40
  # cards each in one place, hands and decks hidden in every view, the
  # chain's entries real, the last turns only once both decks are empty)
  # and every game ends, by two mints or after the last four turns.
  for mode in standard random; do
    for ai in random,random heuristic,random random,heuristic; do
      run simulate disorder --games 25 --seed 9 --mode "$mode" --ai "$ai"
      expect_rc 0; expect_out '"violations": 0'
      expect_out '"mode": "'"$mode"'"'
      grep -q '"violation"' "$tmp/out" && fail "a game ended by a violation"
    done
  done
  ;;
simulate_galactic)
  # Galactic Domination (docs/rules/galactic.md): random and heuristic
  # playouts keep every invariant (sector capacity, team limits, minerals
  # and Dark Matter conserved, charges and deep space by their rules, the
  # view showing every living unit and no generator) and every game ends,
  # a fleet gone from the board or at the round limit. Random play is the
  # slow one (about 1,000 answers a game), hence fewer such games.
  while read -r games ai; do
    run simulate galactic --games "$games" --seed 9 --ai "$ai"
    expect_rc 0; expect_out '"violations": 0'
    expect_out '"games": '"$games"','
    grep -q '"violation"' "$tmp/out" && fail "a game ended by a violation"
  done <<'RUNS'
20 heuristic,random
20 random,heuristic
8 heuristic,heuristic
8 random,random
RUNS
  ;;
simulate_ai)
  # --ai gives each seat a level; the JSON names them; the default is all
  # random, and saying so explicitly plays the very same games.
  run simulate supervillain --games 4 --seed 3
  expect_rc 0; expect_out '"ai": ["random", "random"]'
  cp "$tmp/out" "$tmp/default"
  run simulate supervillain --games 4 --seed 3 --ai random,random
  expect_rc 0; expect_out '"ai": ["random", "random"]'
  sed 's/"games_per_second": [0-9.e+]*//' "$tmp/out" >"$tmp/a"
  sed 's/"games_per_second": [0-9.e+]*//' "$tmp/default" >"$tmp/b"
  cmp -s "$tmp/a" "$tmp/b" || fail "--ai random,random changed the games"
  run simulate supervillain --games 4 --players 4 --seed 3 \
    --ai heuristic,random,heuristic,random
  expect_rc 0; expect_out '"violations": 0'
  expect_out '"ai": ["heuristic", "random", "heuristic", "random"]'
  ;;
bad_ai)
  # An unknown level, a wrong count or an empty spec: exit 2, one line.
  for spec in smart heuristic heuristic,random,random "" heuristic, \
              ,random Random,random; do
    run simulate supervillain --games 1 --ai "$spec"
    expect_rc 2; expect_no_out; expect_one_err_line; expect_err "--ai"
  done
  run simulate supervillain --games 1 --players 3 --ai heuristic,random
  expect_rc 2; expect_no_out; expect_one_err_line
  expect_err "--ai gives 2 levels for 3 players"
  run simulate supervillain --ai
  expect_rc 2; expect_no_out; expect_one_err_line; expect_err "needs a value"
  ;;
replay_usage)
  # lair replay (tests/local/test_history.py checks real records): usage
  # errors and unreadable files are exit 2 with one line on stderr.
  run replay
  expect_rc 2; expect_no_out; expect_one_err_line; expect_err "which file?"
  run replay a.json b.json
  expect_rc 2; expect_no_out; expect_one_err_line
  expect_err "unexpected argument 'b.json'"
  run replay --frobnicate x.json
  expect_rc 2; expect_no_out; expect_one_err_line; expect_err "--frobnicate"
  run replay "$tmp/absent.json"
  expect_rc 2; expect_no_out; expect_one_err_line; expect_err "cannot read"
  run replay "$tmp"
  expect_rc 2; expect_no_out; expect_one_err_line; expect_err "cannot read"
  printf '{"lair_record": 1' >"$tmp/cut.json"
  run replay "$tmp/cut.json"
  expect_rc 2; expect_no_out; expect_one_err_line
  expect_err "is not valid JSON"
  run replay --help
  expect_rc 0; expect_no_err; expect_out "lair replay FILE"
  ;;
health)
  # lair health reads DB-alive, which the running bot touches while it
  # hears from Discord (tests/discord/test_faults.py checks that side).
  export LAIR_DB="$tmp/lair.db"
  run health
  expect_rc 1; expect_no_err; expect_out "has not reached Discord"
  touch "$tmp/lair.db-alive"
  run health
  expect_rc 0; expect_no_err; expect_out "lair health: ok"
  touch -d '-10 minutes' "$tmp/lair.db-alive"
  run health
  expect_rc 1; expect_no_err; expect_out "nothing heard from Discord for"
  run health --max-age 900
  expect_rc 0; expect_no_err; expect_out "lair health: ok"
  run health --max-age 0
  expect_rc 2; expect_no_out; expect_one_err_line; expect_err "--max-age"
  run health extra
  expect_rc 2; expect_no_out; expect_one_err_line
  expect_err "unexpected argument 'extra'"
  ;;
simulate_golden)
  # The same seed plays the same games: Supervillain playouts whose
  # statistics were recorded before the engine was made faster
  # (bench/README.md), and Villainous playouts recorded when it was first
  # hosted, must come out the same, move for move, so no speed-up or
  # refactoring may change what a stored game replays to. Without the
  # invariant checks (they change no statistic, and cost thirty times the
  # play under the sanitizers): simulate_checked keeps them busy.
  data=$(dirname "$0")/data/simulate/golden.txt
  : >"$tmp/got"
  while read -r line; do
    # shellcheck disable=SC2086 # one run's arguments, split on purpose
    run simulate $line --no-check
    sed 's/"games_per_second": [0-9.e+]*//' "$tmp/out" >>"$tmp/got"
  done <<'RUNS'
supervillain --games 300 --players 2 --seed 11
supervillain --games 300 --players 3 --seed 11 --mode blitz
supervillain --games 300 --players 4 --seed 11
supervillain --games 200 --players 4 --seed 3 --ai heuristic,random,heuristic,random
villainous --games 60 --players 3 --seed 7
villainous --games 100 --players 4 --seed 5 --ai heuristic,random,heuristic,heuristic
RUNS
  diff "$data" "$tmp/got" >&2 || fail "the playouts differ from $data"
  ;;
simulate_checked)
  # Random and heuristic playouts of the first two games with every
  # invariant checked after every move (cards conserved, views hiding what
  # they must, the game ending), at their smallest and largest tables.
  while read -r line; do
    # shellcheck disable=SC2086
    run simulate $line
    expect_rc 0; expect_out '"violations": 0'
  done <<'RUNS'
supervillain --games 40 --players 2 --seed 21
supervillain --games 30 --players 4 --seed 21 --mode blitz
supervillain --games 30 --players 4 --seed 22 --ai heuristic,random,heuristic,random
villainous --games 20 --players 2 --seed 23
villainous --games 12 --players 6 --seed 23 --ai heuristic,random,heuristic,random,heuristic,random
RUNS
  ;;
check)
  # lair check: the full check start-up leaves out (test_storage checks
  # the findings); here the contract: sound 0, problems or unreadable 1,
  # usage 2.
  printf 'alice> /game new kind:supervillain\n' |
    "$lair" local --json --db "$tmp/lair.db" >/dev/null 2>&1
  run check --db "$tmp/lair.db"
  expect_rc 0; expect_no_err; expect_out "lair check: $tmp/lair.db: sound"
  LAIR_DB="$tmp/lair.db" run check
  expect_rc 0; expect_out "sound"
  run check --db "$tmp/absent.db"
  expect_rc 1; expect_no_err; expect_out "absent.db: No such file"
  : >"$tmp/empty.db"
  run check --db "$tmp/empty.db"
  expect_rc 1; expect_out "an empty file (0 bytes)"
  run check --frobnicate
  expect_rc 2; expect_no_out; expect_one_err_line; expect_err "--frobnicate"
  run check --db "$tmp/lair.db" extra
  expect_rc 2; expect_no_out; expect_one_err_line
  expect_err "unexpected argument 'extra'"
  run check --help
  expect_rc 0; expect_no_err; expect_out "lair check [--db PATH]"
  ;;
bad_database)
  # A database is made only where no file is; an empty or foreign file
  # is refused with what was found, and left as it was.
  : >"$tmp/empty.db"
  run local --db "$tmp/empty.db" </dev/null
  expect_rc 1; expect_no_out; expect_one_err_line
  expect_err "an empty file (0 bytes), not a Lair database"
  [ ! -s "$tmp/empty.db" ] || fail "the empty file was written to"
  printf 'this is a text file, not a database, and it is long enough\n' \
    >"$tmp/text.db"
  cp "$tmp/text.db" "$tmp/text.orig"
  run local --db "$tmp/text.db" </dev/null
  expect_rc 1; expect_no_out; expect_one_err_line
  expect_err "cannot use the database"
  cmp -s "$tmp/text.db" "$tmp/text.orig" || fail "the text file changed"
  run local --db "$tmp/new.db" </dev/null
  expect_rc 0; expect_no_err
  expect_out "A new database was made there: no file was at that path."
  run local --db "$tmp/new.db" </dev/null
  expect_rc 0; expect_no_err
  ! grep -q "A new database" "$tmp/out" || fail "said new the second time"
  ;;
*)
  echo "cli.sh: unknown case '$case_name'" >&2
  exit 1
  ;;
esac
echo "cli $case_name: ok"
