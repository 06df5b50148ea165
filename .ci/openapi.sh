#!/usr/bin/env bash
# The OpenAPI lint of the platform's documents in api/ (one per interface and
# the simulator's control API): Redocly CLI's `redocly lint` at a pinned
# version, with api/redocly.yaml (the recommended ruleset; the exceptions
# and the warnings accepted are said there). Fails on any error.
#
# Installs the pinned CLI from the npm registry into a temporary directory
# when it is not given: REDOCLY, when set, is a redocly command to run
# instead (a local install of the same version). Needs Node.js 20 or later
# (and npm) on the PATH.
set -euo pipefail
exec </dev/null
cd "$(dirname "$0")/.."

REDOCLY_VERSION=2.77.0 # @redocly/cli

if [ -z "${REDOCLY:-}" ]; then
  if ! command -v npm >/dev/null; then
    echo "openapi.sh: npm is needed to install @redocly/cli@$REDOCLY_VERSION" >&2
    exit 1
  fi
  tools=$(mktemp -d)
  trap 'rm -rf "$tools"' EXIT
  npm install --prefix "$tools" --no-audit --no-fund --silent "@redocly/cli@$REDOCLY_VERSION" >&2
  REDOCLY=$tools/node_modules/.bin/redocly
fi

got=$("$REDOCLY" --version)
if [ "$got" != "$REDOCLY_VERSION" ]; then
  echo "openapi.sh: redocly $got, want $REDOCLY_VERSION" >&2
  exit 1
fi
# redocly lint exits non-zero on any error; warnings are printed.
REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true \
  "$REDOCLY" lint --config api/redocly.yaml --format=stylish
