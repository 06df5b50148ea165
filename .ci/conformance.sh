#!/usr/bin/env bash
# Conformance of the simulator and of the SDK's requests to the OpenAPI
# documents in api/: the tests of every module that runs the simulator run
# with the conformance build tag, under which the simulator records each
# exchange it serves (internal/sandbox/conformance_on.go) in a scratch
# directory; internal/conformance (a module of its own, so that the SDK's
# users never require its validator, kin-openapi) then validates every
# request and response against the documents, prints each violation and what
# it validated of each operation, and fails on any violation and on any
# operation (or webhook) without a validated request and success response.
#
# Usage: .ci/conformance.sh [go test flags...] (flags that leave out
# rxdeliverytest's TestEndpointWalk leave its endpoint unreached, which the
# check reports)
set -euo pipefail
exec </dev/null
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin"

record=$(mktemp -d)
trap 'rm -rf "$record"' EXIT
export RXDELIVERY_CONFORMANCE_DIR=$record

# The modules whose tests start the simulator (the root module's packages
# and examples, the command's sandbox and transcripts, the journal).
tests=0
go test -tags conformance -count=1 "$@" ./... ./cmd/rxdelivery/... ./journal/... || tests=$?
# The endpoint walk's test-only endpoint (rxdeliverytest's TestEndpointWalk)
# is validated against omni's document with its overlay merged, and must
# have been reached.
(cd internal/conformance && go run . "$OLDPWD/api" "$record" omni.yaml="$OLDPWD/rxdeliverytest/testdata/walk/widgets.yaml")
exit "$tests"
