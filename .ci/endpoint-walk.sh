#!/usr/bin/env bash
# The endpoint walk: CONTRIBUTING's "Adding an endpoint" done on a real
# endpoint in a scratch copy of the repository. orders.ProofOfDelivery
# (GET /api/v1/orders/{id}/proof-of-delivery: order_id, delivered_at,
# signed_by, signature_url, photo_url) is added by editing four files by
# hand, as a contributor would, from the fragments in .ci/endpoint-walk/:
#
#   api/delivery.yaml            the operation, its response and each
#                                field's x-rxdelivery-privacy
#   orders/models.go             the model
#   orders/service.go            the service method
#   internal/sandbox/orders.go   the simulator's handler and its line in
#                                orderHandlers
#
# then `go generate ./internal/core`, the targeted tests CONTRIBUTING names,
# and the conformance check of the exchanges those tests recorded (every
# operation, the new one included, validated and reached). Fails when the
# walk needs another file edited by hand, or when any step fails.
#
# Usage: .ci/endpoint-walk.sh (from anywhere in the repository; needs Go).
set -euo pipefail
exec </dev/null
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin"
frag=$PWD/.ci/endpoint-walk

# The targeted tests: the packages CONTRIBUTING's "Adding an endpoint"
# names in its test command, which must be these.
pkgs=". ./api ./internal/cmd/endpointgen ./internal/fields ./internal/sandbox ./internal/testutil ./orders ./requests ./pharmacies ./rxdeliverytest ./examples/..."
if ! grep -qxF "go test $pkgs" CONTRIBUTING.md; then
  echo "endpoint-walk: CONTRIBUTING.md does not name the targeted tests the walk runs: go test $pkgs" >&2
  exit 1
fi

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# The repository's files as they are in the work tree (tracked and new,
# not ignored), in a scratch repository of their own so that git can say
# which files the walk changed.
git ls-files -z --cached --others --exclude-standard | tar -c --null -T - -f - | tar -x -C "$scratch/"
cd "$scratch"
git init -q . && git add -A && git -c user.name=walk -c user.email=walk@example.invalid commit -qm base

# 1. The document: the operation under the delivery document's paths.
awk -v f="$frag/delivery.yaml" '{print} /^paths:$/ && !done {while ((getline l < f) > 0) print l; done=1}' \
  api/delivery.yaml >api/delivery.yaml.new && mv api/delivery.yaml.new api/delivery.yaml
# 2. The model, 3. the service method.
cat "$frag/models.go.fragment" >>orders/models.go
cat "$frag/service.go.fragment" >>orders/service.go
# 4. The simulator's handler, and its line in orderHandlers.
cat "$frag/orders.go.fragment" >>internal/sandbox/orders.go
sed -i 's/^\(\t\tOpOrdersRemovePrescription: *s.removePrescription,\)$/\1\n\t\tOpOrdersProofOfDelivery: s.proofOfDelivery,/' internal/sandbox/orders.go
grep -q 'OpOrdersProofOfDelivery: s.proofOfDelivery,' internal/sandbox/orders.go || {
  echo "endpoint-walk: orderHandlers in internal/sandbox/orders.go has no OpOrdersRemovePrescription line to add the handler's after" >&2
  exit 1
}
gofmt -w orders/models.go orders/service.go internal/sandbox/orders.go

mapfile -t edited < <(git diff --name-only)
echo "endpoint-walk: files edited by hand (${#edited[@]}): ${edited[*]}"
git diff --shortstat | sed "s/^/endpoint-walk: by hand:/"
if [ "${#edited[@]}" -gt 4 ]; then
  echo "endpoint-walk: more than four files edited by hand" >&2
  exit 1
fi

go generate ./internal/core
mapfile -t generated < <(git diff --name-only | grep -vxF -f <(printf '%s\n' "${edited[@]}"))
echo "endpoint-walk: files go generate wrote (${#generated[@]}): ${generated[*]}"

# The targeted tests of CONTRIBUTING, recording every exchange with the
# simulator for the conformance check.
record=$(mktemp -d)
trap 'rm -rf "$scratch" "$record" "$record.out"' EXIT
# shellcheck disable=SC2086 # the package list is split on purpose
RXDELIVERY_CONFORMANCE_DIR=$record go test -tags conformance -count=1 $pkgs
rc=0
(cd internal/conformance && go run . "$scratch/api" "$record" omni.yaml="$scratch/rxdeliverytest/testdata/walk/widgets.yaml") >"$record.out" 2>&1 || rc=$?
grep -E 'orders\.ProofOfDelivery|^conformance: [0-9]+ requests|not reached|violation' "$record.out" || true
if [ "$rc" != 0 ]; then
  cat "$record.out" >&2
  echo "endpoint-walk: the conformance check failed" >&2
  exit 1
fi
echo "endpoint-walk: orders.ProofOfDelivery added through ${#edited[@]} hand-edited files; tests and conformance pass"
