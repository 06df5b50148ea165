# Shell functions the benchmark scripts (internal/benchmarks/bench.sh,
# internal/jsonx/bench.sh) source to count instructions with valgrind's
# callgrind, which is repeatable whatever else the machine is doing.
#
# valgrind runs a pure-Go binary (build the test binary with
# CGO_ENABLED=0) without asynchronous preemption, whose signals its
# callgrind tool does not survive: the functions set
# GODEBUG=asyncpreemptoff=1.

# instructions_per_op OUT LO HI BINARY BENCH: prints the instructions one
# iteration of the benchmark BENCH (a -test.bench pattern that matches one
# benchmark) of the test binary BINARY costs. The benchmark runs alone at
# LO and at HI iterations; the difference divided by HI - LO is the cost
# of one iteration, free of start-up costs. callgrind writes OUT/cg.out
# and OUT/cg.log.
instructions_per_op() {
	local out=$1 lo=$2 hi=$3 bin=$4 bench=$5 a b
	a=$(callgrind_count "$out" "$bin" "$bench" "$lo")
	b=$(callgrind_count "$out" "$bin" "$bench" "$hi")
	echo $(((b - a) / (hi - lo)))
}

# callgrind_count OUT BINARY BENCH N: prints the instructions of the test
# binary BINARY running the benchmark BENCH N times, on one CPU.
callgrind_count() {
	local out=$1 bin=$2 bench=$3 n=$4
	GODEBUG=asyncpreemptoff=1 valgrind --tool=callgrind --callgrind-out-file="$out/cg.out" \
		"$bin" -test.run '^$' -test.bench "$bench" -test.benchtime="${n}x" -test.cpu 1 >/dev/null 2>"$out/cg.log"
	sed -n 's/^summary: //p' "$out/cg.out"
}
