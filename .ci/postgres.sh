#!/usr/bin/env bash
# Starts a throwaway PostgreSQL cluster on loopback for the journal's tests
# and exports its address as JOURNAL_TEST_POSTGRES_DSN. Source it from
# .ci/run (it registers the cluster's stop and removal with .ci/run's
# on_exit, or with an EXIT trap when there is none) or run it directly to
# print the DSN and leave the cluster running (stop it with the printed
# command).
#
# It fails, and so fails CI, when PostgreSQL cannot be found or started.
# Without the variable the journal's tests would start a server of their
# own (journal/internal/testdb); CI starts this one so that the tests and
# PgBouncer (.ci/pgbouncer.sh) share one server.
#
# PostgreSQL refuses to run as root: as root the cluster runs as the user
# "postgres" (created when missing).

ci_postgres_start() {
  local bindir=""
  if [ -n "${PG_BINDIR:-}" ]; then
    bindir=$PG_BINDIR
  else
    for d in /usr/lib/postgresql/*/bin; do
      [ -x "$d/initdb" ] && bindir=$d
    done
  fi
  if [ -z "$bindir" ] && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    echo "postgres.sh: PostgreSQL not found; installing it" >&2
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null) >&2
    for d in /usr/lib/postgresql/*/bin; do
      [ -x "$d/initdb" ] && bindir=$d
    done
  fi
  if [ -z "$bindir" ]; then
    echo "postgres.sh: no PostgreSQL server binaries (initdb) found; set PG_BINDIR" >&2
    return 1
  fi

  local run=()
  if [ "$(id -u)" = 0 ]; then
    id postgres >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin postgres
    run=(runuser -u postgres --)
  fi

  CI_PG_DIR=$(mktemp -d "${TMPDIR:-/tmp}/journal-pg.XXXXXX")
  chmod 755 "$CI_PG_DIR"
  [ "$(id -u)" = 0 ] && chown postgres "$CI_PG_DIR"
  "${run[@]}" "$bindir/initdb" -D "$CI_PG_DIR/data" -U postgres -A trust -E UTF8 --no-instructions >"$CI_PG_DIR/initdb.log" 2>&1 || {
    cat "$CI_PG_DIR/initdb.log" >&2
    return 1
  }

  # A port is free when the server starts on it; try a few.
  local port started=""
  for port in $(shuf -i 20000-60000 -n 5); do
    if "${run[@]}" "$bindir/pg_ctl" -D "$CI_PG_DIR/data" -l "$CI_PG_DIR/server.log" -w -t 60 start \
      -o "-c listen_addresses=127.0.0.1 -p $port -k $CI_PG_DIR -c max_connections=200" >/dev/null 2>&1; then
      started=$port
      break
    fi
  done
  if [ -z "$started" ]; then
    echo "postgres.sh: PostgreSQL did not start; its log:" >&2
    cat "$CI_PG_DIR/server.log" >&2
    return 1
  fi
  CI_PG_STOP=("${run[@]}" "$bindir/pg_ctl" -D "$CI_PG_DIR/data" -m fast -w stop)
  export JOURNAL_TEST_POSTGRES_DSN="postgres://postgres@127.0.0.1:$started/postgres?sslmode=disable"
  echo "postgres.sh: PostgreSQL $("$bindir/postgres" --version | awk '{print $3}') on 127.0.0.1:$started" >&2
}

ci_postgres_stop() {
  if [ -n "${CI_PG_DIR:-}" ]; then
    "${CI_PG_STOP[@]}" >/dev/null 2>&1 || true
    rm -rf "$CI_PG_DIR"
    CI_PG_DIR=""
  fi
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -euo pipefail
  ci_postgres_start
  echo "JOURNAL_TEST_POSTGRES_DSN=$JOURNAL_TEST_POSTGRES_DSN"
  echo "stop with: ${CI_PG_STOP[*]} && rm -rf $CI_PG_DIR"
else
  # shellcheck source=.ci/cleanup.sh
  . "$(dirname "${BASH_SOURCE[0]}")/cleanup.sh"
  ci_postgres_start || return 1
  ci_on_exit ci_postgres_stop
fi
