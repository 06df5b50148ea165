#!/usr/bin/env bash
# Compares the two sides of internal/jsonx's decoder seam: the standard
# library's encoding/json/v2 (Go 1.27 and later) and the pinned
# github.com/go-json-experiment/json module (older releases).
#
#   internal/jsonx/bench.sh time [ROUNDS]   interleaved rounds, then benchstat
#   internal/jsonx/bench.sh instr [INPUT...] callgrind instructions per decode
#
# Two test binaries are built: one with NEWEST_GO (default go1.27.3, from
# the Go module proxy), whose BenchmarkUnmarshal runs jsonx (there
# encoding/json/v2), the pinned module and encoding/json side by side; one
# with the Go on the PATH (an older release), whose jsonx runs on the
# module. Each benchmark's name gets the Go release as /go=..., so
# benchstat can put every decoder of every release in one table.
#
# time: each round runs every benchmark of both binaries once, so a slow
# spell of a shared machine hits every decoder alike.
#
# instr: counts instructions with valgrind's callgrind, which is
# repeatable whatever else the machine is doing. Each decoder and input
# runs alone at two iteration counts; the difference divided by the
# difference in iterations is the cost of one decode, free of start-up
# costs.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-${TMPDIR:-/tmp}/rxdelivery-jsonx-bench}
mkdir -p "$out"
newest=${NEWEST_GO:-go1.27.3}
old=$(go env GOVERSION)
benchstat=${BENCHSTAT:-benchstat}
# valgrind runs a pure-Go binary (internal/callgrind.sh).
export CGO_ENABLED=0
GOTOOLCHAIN=$newest go test -c -o "$out/new.test" ./internal/jsonx/
GOTOOLCHAIN=local go test -c -o "$out/old.test" ./internal/jsonx/

# tag GO: adds /go=GO to every benchmark name read on stdin.
tag() { sed -E "s|^(BenchmarkUnmarshal/[^[:space:]]*)-([0-9]+)([[:space:]])|\1/go=$1-\2\3|"; }

case "${1:-time}" in
time)
	rounds=${2:-10}
	: >"$out/unmarshal.txt"
	for i in $(seq "$rounds"); do
		"$out/new.test" -test.run '^$' -test.bench '^BenchmarkUnmarshal$' -test.benchmem -test.benchtime=0.5s | tag "$newest" >>"$out/unmarshal.txt"
		"$out/old.test" -test.run '^$' -test.bench '^BenchmarkUnmarshal$' -test.benchmem -test.benchtime=0.5s | tag "$old" >>"$out/unmarshal.txt"
	done
	"$benchstat" -row /in -col /go,/decoder "$out/unmarshal.txt" | tee "$out/unmarshal.benchstat"
	;;
instr)
	shift
	inputs=${*:-order orders50 pharmacies100 notification}
	# shellcheck source=internal/callgrind.sh
	. internal/callgrind.sh
	for input in $inputs; do
		case $input in
		orders50 | pharmacies100) lo=20 hi=100 ;;
		*) lo=500 hi=2500 ;;
		esac
		for run in "new.test $newest jsonx" "new.test $newest module" "old.test $old jsonx"; do
			read -r bin goversion decoder <<<"$run"
			per=$(instructions_per_op "$out" $lo $hi "$out/$bin" "^BenchmarkUnmarshal\$/^in=${input}\$/^decoder=${decoder}\$")
			echo "in=$input go=$goversion decoder=$decoder instructions/decode $per"
		done
	done
	;;
*)
	echo "usage: $0 time [ROUNDS] | instr [INPUT...]" >&2
	exit 2
	;;
esac
