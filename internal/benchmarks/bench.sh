#!/usr/bin/env bash
# Runs the benchmarks of this package the way BENCHMARKS.md reports them.
#
#   internal/benchmarks/bench.sh time [ROUNDS]   interleaved rounds, then benchstat
#   internal/benchmarks/bench.sh instr [NAME...] callgrind instructions per call
#                                               (CLIENTS="sdk ..." to pick clients)
#
# time: builds the test binary once and runs ROUNDS (default 8) rounds; each
# round runs every call benchmark once for every client, so a slow spell of
# a shared machine hits every client alike. benchstat then compares the
# clients of each call (-col /client) with its p-values. The rounds of the
# call benchmarks are kept in internal/benchmarks/testdata/calls.txt and
# drawn into docs/benchmarks.svg (internal/benchmarks/chart).
#
# instr: counts the instructions of one call with valgrind's callgrind,
# which is repeatable whatever else the machine is doing. The server runs
# in a process of its own (BenchmarkServe, not under valgrind), so the counts are
# the client's alone: building and encoding the request, the transport,
# reading and decoding the answer, and the garbage collection and
# scheduling they cause. Each benchmark and client runs alone at two
# iteration counts; the difference divided by the difference in iterations
# is the cost of one call, free of start-up costs.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-${TMPDIR:-/tmp}/rxdelivery-bench}
mkdir -p "$out"
go test -c -o "$out/bench.test" ./internal/benchmarks/
bin="$out/bench.test"
benchstat=${BENCHSTAT:-benchstat}

case "${1:-time}" in
time)
	rounds=${2:-8}
	: >"$out/calls.txt"
	: >"$out/concurrent.txt"
	: >"$out/walk.txt"
	for i in $(seq "$rounds"); do
		"$bin" -test.run '^$' -test.bench 'GetOrder$|CreateSameday|Search|GetMany' \
			-test.benchmem -test.benchtime=1s >>"$out/calls.txt"
		"$bin" -test.run '^$' -test.bench Concurrent -test.benchmem -test.benchtime=3x >>"$out/concurrent.txt"
		"$bin" -test.run '^$' -test.bench Walk -test.benchmem -test.benchtime=10x >>"$out/walk.txt"
	done
	# The chart that opens BENCHMARKS.md is drawn from these rounds.
	cp "$out/calls.txt" internal/benchmarks/testdata/calls.txt
	go run ./internal/benchmarks/chart -in internal/benchmarks/testdata/calls.txt -out docs/benchmarks.svg
	for f in calls concurrent walk; do
		"$benchstat" -col /client "$out/$f.txt" | tee "$out/$f.benchstat"
	done
	;;
instr)
	shift
	names=${*:-GetOrder CreateSamedayOrder SearchPharmacies100 GetManyOrders50}
	# shellcheck source=internal/callgrind.sh
	. internal/callgrind.sh
	# valgrind runs a pure-Go binary (internal/callgrind.sh).
	CGO_ENABLED=0 go test -c -o "$out/bench-nocgo.test" ./internal/benchmarks/
	RXDELIVERY_BENCH_SERVE_FOR=2h "$bin" -test.run '^$' -test.bench '^BenchmarkServe$' -test.benchtime=1x >"$out/server.log" 2>&1 &
	server=$!
	trap 'kill "$server" 2>/dev/null' EXIT
	for _ in $(seq 100); do
		url=$(sed -n 's/^serving //p' "$out/server.log")
		[ -n "$url" ] && break
		sleep 0.1
	done
	[ -n "$url" ] || { echo "the server did not start" >&2; exit 1; }
	for name in $names; do
		for client in ${CLIENTS:-handwritten nethttp-sdktypes sdk}; do
			case $name in
			Search* | GetMany*) lo=50 hi=250 ;;
			*) lo=200 hi=1000 ;;
			esac
			per=$(RXDELIVERY_BENCH_SERVER=$url instructions_per_op "$out" $lo $hi "$out/bench-nocgo.test" "^Benchmark${name}/client=${client}\$")
			echo "$name client=$client instructions/call $per"
		done
	done
	;;
*)
	echo "usage: $0 time [ROUNDS] | instr [NAME...]" >&2
	exit 2
	;;
esac
