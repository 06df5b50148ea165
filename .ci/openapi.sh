#!/usr/bin/env bash
# The OpenAPI lint of the platform's documents in api/ (one per interface and
# the simulator's control API): Redocly CLI's `redocly lint` at a pinned
# version, with api/redocly.yaml (the recommended ruleset; the exceptions
# and the warnings accepted are said there). Fails on any error.
#
# Then a client's types are generated from each platform document with
# openapi-typescript at a pinned version, and the TypeScript compiler (pinned)
# checks them with a program that uses the omni and pricing bodies, as
# docs/api.md shows: fails when a document cannot be generated from, or when
# the generated types do not hold the documents' required members.
#
# Last, a client of the delivery and omni interfaces generated with
# openapi-typescript and openapi-fetch (api/typescript/sandbox-client.ts,
# which docs/api.md shows, with its query serializer for ids[] and
# delivery[address][street]) is compiled with tsc --strict and run with node
# against `rxdelivery sandbox` started on loopback: it creates an order, gets
# it, gets it through ids[], asks a pharmacy's delivery information, creates
# and gets a request. Fails on any answer it did not expect.
#
# Installs the pinned tools from the npm registry into a temporary directory
# when they are not given: REDOCLY, OPENAPI_TS and TSC, when set, are the
# commands to run instead (local installs of the same versions);
# OPENAPI_FETCH_DIR, when set, is a node_modules directory holding
# openapi-fetch at its pinned version. Needs Node.js 20 or later (and npm)
# and Go on the PATH (Go builds the rxdelivery command).
set -euo pipefail
exec </dev/null
cd "$(dirname "$0")/.."

REDOCLY_VERSION=2.77.0           # @redocly/cli
OPENAPI_TS_VERSION=7.13.0        # openapi-typescript
TYPESCRIPT_VERSION=5.9.3         # typescript (tsc)
OPENAPI_FETCH_VERSION=0.15.0     # openapi-fetch (the generated client's runtime)
export PATH="$PATH:/usr/local/go/bin"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

install=()
[ -n "${REDOCLY:-}" ] || install+=("@redocly/cli@$REDOCLY_VERSION")
[ -n "${OPENAPI_TS:-}" ] || install+=("openapi-typescript@$OPENAPI_TS_VERSION")
[ -n "${TSC:-}" ] || install+=("typescript@$TYPESCRIPT_VERSION")
[ -n "${OPENAPI_FETCH_DIR:-}" ] || install+=("openapi-fetch@$OPENAPI_FETCH_VERSION")
if [ ${#install[@]} -gt 0 ]; then
  if ! command -v npm >/dev/null; then
    echo "openapi.sh: npm is needed to install ${install[*]}" >&2
    exit 1
  fi
  npm install --prefix "$work/tools" --no-audit --no-fund --silent "${install[@]}" >&2
fi
REDOCLY=${REDOCLY:-$work/tools/node_modules/.bin/redocly}
OPENAPI_TS=${OPENAPI_TS:-$work/tools/node_modules/.bin/openapi-typescript}
TSC=${TSC:-$work/tools/node_modules/.bin/tsc}
OPENAPI_FETCH_DIR=${OPENAPI_FETCH_DIR:-$work/tools/node_modules}

got=$("$REDOCLY" --version)
if [ "$got" != "$REDOCLY_VERSION" ]; then
  echo "openapi.sh: redocly $got, want $REDOCLY_VERSION" >&2
  exit 1
fi
# redocly lint exits non-zero on any error; warnings are printed.
REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true \
  "$REDOCLY" lint --config api/redocly.yaml --format=stylish

got=$("$OPENAPI_TS" --version | grep -o '[0-9][0-9.]*' | head -n 1)
if [ "$got" != "$OPENAPI_TS_VERSION" ]; then
  echo "openapi.sh: openapi-typescript $got, want $OPENAPI_TS_VERSION" >&2
  exit 1
fi
got=$("$TSC" --version | grep -o '[0-9][0-9.]*' | head -n 1)
if [ "$got" != "$TYPESCRIPT_VERSION" ]; then
  echo "openapi.sh: tsc $got, want $TYPESCRIPT_VERSION" >&2
  exit 1
fi

# Generate each platform document's types; any document that cannot be
# generated from fails the step.
gen=$work/client
mkdir -p "$gen"
for doc in omni delivery tracking pricing; do
  "$OPENAPI_TS" "api/$doc.yaml" --default-non-nullable false --output "$gen/$doc.ts"
done

# A program over the generated types: a create and a quote like the documents'
# examples type-check, and a create without its patient, a payment kind outside
# its enum and a quote without its package are errors (each @ts-expect-error
# fails the compile if the types accept it).
cat >"$gen/check.ts" <<'TS'
import type { components as omni, paths as omniPaths } from "./omni";
import type { components as pricing } from "./pricing";

type CreateRequest = omni["schemas"]["CreateRequest"];
type Request = omni["schemas"]["Request"];
type Quote = pricing["schemas"]["QuoteRequest"];
type Quoted = omniPaths["/api/v1/requests/{id}"]["get"]["responses"]["200"]["content"]["application/json"];

const create: CreateRequest = {
  identifier: "program-0001",
  external_reference_number: "rx-000123",
  ndc: "00000000000",
  pharmacy: { ncpdp: "0000001" },
  dropoff: { name: "Sam Example", phone_number: "2125550100", address: { place_id: "place-0001" } },
  patient: { first_name: "Sam", last_name: "Example", date_of_birth: "1970-01-01" },
  remittance: { contact: { mobile_phone_number: "2125550100" }, payments: [{ fee: 5.0, kind: "copay" }] },
  test_meta: { scenario: "successful_delivery", duration_between: 1 },
};

// @ts-expect-error: patient is required.
const noPatient: CreateRequest = { ...create, patient: undefined };

// @ts-expect-error: a payment's kind is delivery_fee or copay.
const badKind: CreateRequest = { ...create, remittance: { contact: { mobile_phone_number: "2125550100" }, payments: [{ fee: 1, kind: "tip" }] } };

const got: Quoted = { request: { id: "req_1", external_reference_number: "rx-000123", created_at: "2025-01-06T14:00:00.000Z", order: null } };
const eta: Request["delivery_eta"] = got.request.delivery_eta;

const quote: Quote = {
  pickup: { address: { zipcode: "10001" } },
  dropoff: { address: { zipcode: "94105" } },
  package_dimensions: { length_in: 10, width_in: 6, height_in: 4, weight_oz: 12.5 },
};

// @ts-expect-error: the package's dimensions are required.
const noPackage: Quote = { pickup: quote.pickup, dropoff: quote.dropoff };

export { create, noPatient, badKind, got, eta, quote, noPackage };
TS
"$TSC" --noEmit --strict --target es2022 --module es2022 --moduleResolution bundler "$gen"/*.ts
echo "openapi.sh: client types generated from api/{omni,delivery,tracking,pricing}.yaml and checked"

# The client against the simulator. The program, its generated types and a
# package.json marking it an ES module sit beside a node_modules holding
# openapi-fetch, where tsc and node resolve the import.
got=$(sed -n 's/^ *"version": *"\([0-9][0-9.]*\)".*/\1/p' "$OPENAPI_FETCH_DIR/openapi-fetch/package.json" | head -n 1)
if [ "$got" != "$OPENAPI_FETCH_VERSION" ]; then
  echo "openapi.sh: openapi-fetch $got, want $OPENAPI_FETCH_VERSION" >&2
  exit 1
fi
run=$work/run
mkdir -p "$run/out"
ln -s "$OPENAPI_FETCH_DIR" "$run/node_modules"
cp api/typescript/sandbox-client.ts "$run/"
cp "$gen/omni.ts" "$gen/delivery.ts" "$run/"
echo '{"type": "module"}' >"$run/package.json"
cp "$run/package.json" "$run/out/"
"$TSC" --strict --target es2022 --module nodenext --moduleResolution nodenext --outDir "$run/out" "$run/sandbox-client.ts"

(cd cmd/rxdelivery && go build -o "$work/rxdelivery" .)
"$work/rxdelivery" sandbox --addr 127.0.0.1:0 --manual-clock --env-file "$work/sandbox.env" >"$work/sandbox.log" 2>&1 &
sandbox=$!
trap 'kill "$sandbox" 2>/dev/null; wait "$sandbox" 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 1 100); do
  [ -s "$work/sandbox.env" ] && break
  kill -0 "$sandbox" 2>/dev/null || { cat "$work/sandbox.log" >&2; echo "openapi.sh: rxdelivery sandbox did not start" >&2; exit 1; }
  sleep 0.1
done
[ -s "$work/sandbox.env" ] || { echo "openapi.sh: rxdelivery sandbox wrote no env file" >&2; exit 1; }
(
  # shellcheck source=/dev/null
  . "$work/sandbox.env"
  node "$run/out/sandbox-client.js"
)
echo "openapi.sh: the client generated with openapi-typescript and openapi-fetch ran against rxdelivery sandbox"
