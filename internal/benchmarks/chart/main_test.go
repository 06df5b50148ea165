package main

import (
	"encoding/xml"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The checked-in data and chart, relative to this package.
const (
	dataFile  = "../testdata/calls.txt"
	chartFile = "../../../docs/benchmarks.svg"
)

// TestCheckedInChartIsRedrawn: drawing the checked-in benchmark output
// gives the checked-in chart byte for byte, so the chart shows the data
// beside it and the next run of bench.sh redraws it the same way.
func TestCheckedInChartIsRedrawn(t *testing.T) {
	t.Parallel()
	f, err := os.Open(dataFile)
	require.NoError(t, err)
	defer f.Close()
	res, err := parse(f)
	require.NoError(t, err)
	got, err := render(res)
	require.NoError(t, err)
	want, err := os.ReadFile(chartFile)
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got),
		"docs/benchmarks.svg is not the chart of internal/benchmarks/testdata/calls.txt: run go run ./internal/benchmarks/chart at the module root")
}

const sample = `goos: linux
goarch: amd64
pkg: github.com/rxdelivery/rxdelivery-go/internal/benchmarks
cpu: Test CPU <fast> & "cool"
BenchmarkGetOrder/client=handwritten-2   	  1000	    200000 ns/op	   10000 B/op	     100 allocs/op
BenchmarkGetOrder/client=sdk-2           	  1000	    150000 ns/op	    9000 B/op	     110 allocs/op
BenchmarkGetOrder/client=nethttp-sdktypes-2 	  1000	    999999 ns/op	    9000 B/op	     999 allocs/op
BenchmarkValidateSamedayOrder-2          	  1000	      1000 ns/op	       0 B/op	       0 allocs/op
BenchmarkGetOrder/client=handwritten-2   	  1000	    400000 ns/op	   10000 B/op	     100 allocs/op
BenchmarkGetOrder/client=sdk-2           	  1000	    100000 ns/op	    9000 B/op	     110 allocs/op
BenchmarkGetOrder/client=handwritten-2   	  1000	    300000 ns/op	   10000 B/op	     100 allocs/op
BenchmarkGetOrder/client=sdk-2           	  1000	    125000 ns/op	    9000 B/op	     110 allocs/op
BenchmarkSearchPharmacies100/client=handwritten-2 	 100	   1500000 ns/op	  130000 B/op	    1000 allocs/op
BenchmarkSearchPharmacies100/client=sdk-2         	 100	   1000000 ns/op	   64000 B/op	     600 allocs/op
PASS
ok  	github.com/rxdelivery/rxdelivery-go/internal/benchmarks	10.0s
`

// TestParse: medians per benchmark and client, the GOMAXPROCS suffix
// dropped, benchmarks without a client and other lines skipped.
func TestParse(t *testing.T) {
	t.Parallel()
	res, err := parse(strings.NewReader(sample))
	require.NoError(t, err)
	assert.Equal(t, `Test CPU <fast> & "cool"`, res.cpu)
	assert.Equal(t, []string{"GetOrder", "SearchPharmacies100"}, res.order)
	assert.Equal(t, []float64{200000, 400000, 300000}, res.samples["GetOrder"]["handwritten"]["ns/op"])
	assert.Equal(t, 300000.0, median(res.samples["GetOrder"]["handwritten"]["ns/op"]))
	assert.Equal(t, 125000.0, median(res.samples["GetOrder"]["sdk"]["ns/op"]))
	assert.Equal(t, 2.5, median([]float64{4, 1, 3, 2}))
	assert.Contains(t, res.samples["GetOrder"], "nethttp-sdktypes")

	for _, bad := range []string{
		"",
		"PASS\n",
		"BenchmarkX/client=sdk-2 many 10 ns/op\n",
		"BenchmarkX/client=sdk-2 10 fast ns/op\n",
		"BenchmarkX/client=sdk-2 10 100 ns/op 7\n",
	} {
		_, err := parse(strings.NewReader(bad))
		assert.Error(t, err, "%q", bad)
	}
}

// TestRender: one bar per client and benchmark in each panel, the SDK's
// ratio to the hand-written client written beside its bar, the medians,
// the CPU escaped, and a well-formed SVG.
func TestRender(t *testing.T) {
	t.Parallel()
	res, err := parse(strings.NewReader(sample))
	require.NoError(t, err)
	b, err := render(res)
	require.NoError(t, err)
	svg := string(b)
	for _, want := range []string{
		"Median of 1 to 3 rounds", // GetOrder has 3, search 1
		"get an order", "search, one page of 100",
		"300.0 µs [200.0 µs – 400.0 µs]", "125.0 µs (0.42×) [100.0 µs – 150.0 µs]", // time medians, ratio, spread
		"100 allocs", "110 allocs (1.10×)", // allocation medians and ratio
		"1.50 ms</text>", "1.00 ms (0.67×)</text>", "1,000 allocs", "600 allocs (0.60×)", // one round: no spread
		"Test CPU &lt;fast&gt; &amp; &quot;cool&quot;",
	} {
		assert.Contains(t, svg, want)
	}
	assert.NotContains(t, svg, "999", "another client's figures are drawn")
	assert.NotContains(t, svg, "allocs [", "a spread of allocations, which do not vary")
	assert.NotContains(t, svg, "ValidateSamedayOrder")
	assert.Equal(t, 2*2*2+1+2, strings.Count(svg, "<rect "), "2 panels x 2 benchmarks x 2 clients, the background and 2 legend keys")

	// Bars are drawn to one scale per panel, the widest filling the bar
	// area: in allocations the SDK's 1.10× of get-an-order is 400 wide, so
	// 1× is 363.6 and the SDK's search (0.60×) 218.2.
	assert.Contains(t, svg, `width="400" height="14" fill="#0969da"`)
	assert.Contains(t, svg, `width="363.6" height="14" fill="#8c959f"`)
	assert.Contains(t, svg, `width="218.2" height="14" fill="#0969da"`)
	dec := xml.NewDecoder(strings.NewReader(svg))
	for {
		_, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err)
	}

	again, err := render(res)
	require.NoError(t, err)
	assert.Equal(t, svg, string(again), "the output is not stable")
}

// TestRenderRefuses: a benchmark output without both clients, or without
// -benchmem figures, gives an error rather than an empty chart.
func TestRenderRefuses(t *testing.T) {
	t.Parallel()
	for _, in := range []string{
		"BenchmarkGetOrder/client=sdk-2 10 100 ns/op 1 B/op 1 allocs/op\n",
		"BenchmarkGetOrder/client=sdk-2 10 100 ns/op\nBenchmarkGetOrder/client=handwritten-2 10 100 ns/op\n",
		"BenchmarkGetOrder/client=sdk-2 10 100 ns/op 1 allocs/op\nBenchmarkGetOrder/client=handwritten-2 10 0 ns/op 1 allocs/op\n",
	} {
		res, err := parse(strings.NewReader(in))
		require.NoError(t, err)
		_, err = render(res)
		assert.Error(t, err, "%q", in)
	}
}

// TestRun: the command reads -in and writes -out.
func TestRun(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	in, out := filepath.Join(dir, "calls.txt"), filepath.Join(dir, "chart.svg")
	require.NoError(t, os.WriteFile(in, []byte(sample), 0o644))
	require.NoError(t, run([]string{"-in", in, "-out", out}))
	b, err := os.ReadFile(out)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(string(b), "<svg "))
	assert.Error(t, run([]string{"-in", filepath.Join(dir, "missing.txt"), "-out", out}))
	assert.Error(t, run([]string{"-in", in, "-out", out, "extra"}))
}
