#!/usr/bin/env bash
# pg_required.sh: fails when PostgreSQL tests were asked for
# (LAIR_TEST_PG_REQUIRED=1, as tools/test.sh sets) but no server reached
# the tests (LAIR_TEST_PG unset), so that CI cannot skip them silently.
if [ "${LAIR_TEST_PG_REQUIRED:-}" = 1 ] && [ -z "${LAIR_TEST_PG:-}" ]; then
  echo "LAIR_TEST_PG_REQUIRED=1 but LAIR_TEST_PG is not set: the" \
    "PostgreSQL storage tests would be skipped" >&2
  exit 1
fi
if [ -z "${LAIR_TEST_PG:-}" ]; then
  echo "LAIR_TEST_PG is not set: the PostgreSQL tests are skipped" \
    "(tools/test.sh starts a server)"
else
  echo "PostgreSQL tests run against LAIR_TEST_PG"
fi
