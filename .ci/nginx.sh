#!/usr/bin/env bash
# Makes sure nginx is installed for the reliability suite's load-balancer
# tests (internal/reliability/nginx_test.go), which start nginx themselves
# with a configuration of their own on a loopback port and stop it when
# they end. This script starts nothing. Source it from .ci/run, or run it
# directly.
#
# When nginx is missing and apt-get can be used (as root), it installs the
# Debian package nginx-light, keeping the package from starting its own
# service. It fails, and so fails CI, when nginx is still missing: with
# CI=true the tests fail rather than skip without it.

ci_nginx_install() {
  if command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ]; then
    return 0
  fi
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    echo "nginx.sh: nginx not found; installing nginx-light" >&2
    # policy-rc.d answering 101 keeps the package from starting nginx as a
    # service; one already there (as in most container images) is kept.
    local policy=/usr/sbin/policy-rc.d made_policy=0 rc=0
    if [ ! -e "$policy" ]; then
      printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod 755 "$policy" && made_policy=1
    fi
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light >/dev/null) >&2 || rc=$?
    if [ "$made_policy" = 1 ]; then
      rm -f "$policy"
    fi
    [ "$rc" = 0 ] || return "$rc"
  fi
  if ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ]; then
    echo "nginx.sh: nginx not found and not installable here (Debian: apt-get install nginx-light)" >&2
    return 1
  fi
}

ci_nginx_install
