# deps.sh: installs the Debian packages Lair needs to build and test.
# Sourced by tools/run.sh and tools/test.sh; installs only what `dpkg -s`
# reports missing, so a second run costs a few dpkg queries and no network.
LAIR_DEBS=(gcc libc6-dev make cmake pkg-config binutils
           libjansson-dev libcurl4-openssl-dev libwebsockets-dev
           libsqlite3-dev zlib1g-dev libssl-dev libcmocka-dev)
# Table pictures (engine/pic/): cairo and pango, and the one font they
# draw with, loaded through Lair's own fontconfig configuration.
LAIR_DEBS+=(libcairo2-dev libpango1.0-dev libfontconfig-dev libpng-dev
           fonts-dejavu-core)
LAIR_DEBS+=(tzdata) # players' time zones for quiet hours (/usr/share/zoneinfo)
# libpq: the PostgreSQL backend (storage/sto_pg.c), so that several Lair
# processes can share one database (LAIR_DB=postgresql://...).
LAIR_DEBS+=(libpq-dev)
LAIR_DEBS+=(python3) # tests/local/: the console-table tests (stdlib only)
# tests/fake_discord/: the fake Discord for integration tests runs on
# Debian's /usr/bin/python3 with its websockets (gateway) and jsonschema
# (checks requests against Discord's openapi.json) packages.
LAIR_DEBS+=(python3-websockets python3-jsonschema)
# Interactions over HTTP (bot/discord_http.c): libsodium verifies the
# Ed25519 signature Discord puts on every request.
LAIR_DEBS+=(libsodium-dev)

# tools/test.sh also needs clang and its runtimes for the fuzz targets
# (tests/fuzz/): lair_install_deps takes extra packages as arguments.
LAIR_TEST_DEBS=(clang libclang-rt-14-dev)
# The fake Discord signs the interactions it POSTs to the bot's HTTP
# endpoint with an Ed25519 key of its own (tests/discord/test_http.py).
LAIR_TEST_DEBS+=(python3-nacl)
# The PostgreSQL 15 server, for tests only: tools/pg.sh starts a throwaway
# cluster that the storage tests run against (LAIR_TEST_PG); util-linux's
# runuser and passwd's useradd run it as an unprivileged user under root.
LAIR_TEST_DEBS+=(postgresql-15 util-linux passwd)

lair_install_deps() {
  local want=("${LAIR_DEBS[@]}" "$@")
  if ! command -v dpkg >/dev/null 2>&1; then
    echo "tools: not a Debian system; install these yourself:" \
         "${want[*]}" >&2
    return 0
  fi
  local missing=() p status
  for p in "${want[@]}"; do
    # Captured, not piped into grep -q: with pipefail an early-exiting grep
    # would make dpkg die of SIGPIPE and the package look missing.
    status=$(dpkg -s "$p" 2>/dev/null) || status=
    if [[ $status != *"Status: install ok installed"* ]]; then
      missing+=("$p")
    fi
  done
  [ "${#missing[@]}" -eq 0 ] && return 0
  echo "tools: installing ${missing[*]}" >&2
  local sudo=()
  [ "$(id -u)" -eq 0 ] || sudo=(sudo)
  "${sudo[@]}" apt-get update
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y --no-install-recommends "${missing[@]}"
}
