#!/usr/bin/env bash
# Starts PgBouncer on loopback in transaction pooling mode in front of the
# PostgreSQL cluster .ci/postgres.sh started (JOURNAL_TEST_POSTGRES_DSN),
# and exports its address as JOURNAL_TEST_PGBOUNCER_DSN (any database name
# of the cluster is reachable through it). Source it from .ci/run after
# .ci/postgres.sh (it registers its stop with .ci/run's on_exit, or with an
# EXIT trap when there is none), or run it directly with
# JOURNAL_TEST_POSTGRES_DSN set to print the DSN and leave it running.
#
# It fails, and so fails CI, when PgBouncer cannot be installed or started:
# the journal's PgBouncer test is skipped only when the variable is unset.
#
# PgBouncer refuses to run as root: as root it runs as the user "postgres"
# (which .ci/postgres.sh creates).

ci_pgbouncer_start() {
  if [ -z "${JOURNAL_TEST_POSTGRES_DSN:-}" ]; then
    echo "pgbouncer.sh: JOURNAL_TEST_POSTGRES_DSN is unset; start PostgreSQL first (.ci/postgres.sh)" >&2
    return 1
  fi
  local bin
  bin=$(command -v pgbouncer || true)
  [ -z "$bin" ] && [ -x /usr/sbin/pgbouncer ] && bin=/usr/sbin/pgbouncer
  if [ -z "$bin" ] && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    echo "pgbouncer.sh: PgBouncer not found; installing it" >&2
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends pgbouncer >/dev/null) >&2
    # The package starts its own service; this script runs its own.
    (systemctl stop pgbouncer || service pgbouncer stop) >/dev/null 2>&1 || true
    bin=$(command -v pgbouncer || echo /usr/sbin/pgbouncer)
  fi
  if [ ! -x "$bin" ]; then
    echo "pgbouncer.sh: no pgbouncer binary found" >&2
    return 1
  fi

  # The cluster's port, from postgres://user@127.0.0.1:PORT/...
  local pgport
  pgport=$(printf '%s\n' "$JOURNAL_TEST_POSTGRES_DSN" | sed -n 's|.*@127\.0\.0\.1:\([0-9]*\)/.*|\1|p')
  [ -n "$pgport" ] || { echo "pgbouncer.sh: cannot read the port of $JOURNAL_TEST_POSTGRES_DSN" >&2; return 1; }

  local run=()
  if [ "$(id -u)" = 0 ]; then
    run=(runuser -u postgres --)
  fi
  CI_PGB_DIR=$(mktemp -d "${TMPDIR:-/tmp}/journal-pgbouncer.XXXXXX")
  chmod 755 "$CI_PGB_DIR"
  printf '"postgres" ""\n' >"$CI_PGB_DIR/userlist.txt"
  [ "$(id -u)" = 0 ] && chown -R postgres "$CI_PGB_DIR"

  local port started=""
  for port in $(shuf -i 20000-60000 -n 5); do
    cat >"$CI_PGB_DIR/pgbouncer.ini" <<EOF
[databases]
* = host=127.0.0.1 port=$pgport

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $port
unix_socket_dir =
auth_type = trust
auth_file = $CI_PGB_DIR/userlist.txt
pool_mode = transaction
max_client_conn = 1000
default_pool_size = 20
pidfile = $CI_PGB_DIR/pgbouncer.pid
logfile = $CI_PGB_DIR/pgbouncer.log
ignore_startup_parameters = extra_float_digits
EOF
    [ "$(id -u)" = 0 ] && chown postgres "$CI_PGB_DIR/pgbouncer.ini"
    if "${run[@]}" "$bin" -d "$CI_PGB_DIR/pgbouncer.ini" >/dev/null 2>&1; then
      local i
      for i in $(seq 50); do
        if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
          started=$port
          break
        fi
        sleep 0.1
      done
      [ -n "$started" ] && break
      [ -f "$CI_PGB_DIR/pgbouncer.pid" ] && kill "$(cat "$CI_PGB_DIR/pgbouncer.pid")" 2>/dev/null
    fi
  done
  if [ -z "$started" ]; then
    echo "pgbouncer.sh: PgBouncer did not start; its log:" >&2
    cat "$CI_PGB_DIR/pgbouncer.log" >&2 2>/dev/null
    return 1
  fi
  export JOURNAL_TEST_PGBOUNCER_DSN="postgres://postgres@127.0.0.1:$started/postgres?sslmode=disable"
  echo "pgbouncer.sh: PgBouncer $("$bin" --version | head -1 | awk '{print $2}') (transaction mode) on 127.0.0.1:$started" >&2
}

ci_pgbouncer_stop() {
  if [ -n "${CI_PGB_DIR:-}" ]; then
    if [ -f "$CI_PGB_DIR/pgbouncer.pid" ]; then
      kill "$(cat "$CI_PGB_DIR/pgbouncer.pid")" 2>/dev/null || true
    fi
    rm -rf "$CI_PGB_DIR"
    CI_PGB_DIR=""
  fi
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -euo pipefail
  ci_pgbouncer_start
  echo "JOURNAL_TEST_PGBOUNCER_DSN=$JOURNAL_TEST_PGBOUNCER_DSN"
  echo "stop with: kill \$(cat $CI_PGB_DIR/pgbouncer.pid) && rm -rf $CI_PGB_DIR"
else
  # shellcheck source=.ci/cleanup.sh
  . "$(dirname "${BASH_SOURCE[0]}")/cleanup.sh"
  ci_pgbouncer_start || return 1
  ci_on_exit ci_pgbouncer_stop
fi
