// Command chart draws the chart that opens BENCHMARKS.md: for each call
// benchmark, the SDK next to the hand-written client, in time per call
// (ns/op) and allocations per call (allocs/op). It reads the output of
// `go test -bench` (any number of rounds; the chart shows each figure's
// median) and writes a self-contained SVG, so that the next run redraws
// it:
//
//	go run ./internal/benchmarks/chart -in internal/benchmarks/testdata/calls.txt -out docs/benchmarks.svg
//
// internal/benchmarks/bench.sh time does this after its rounds. Output for
// the same input is the same byte for byte.
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "chart:", err)
		os.Exit(1)
	}
}

// run reads the benchmark output named by -in and writes the SVG to -out.
func run(args []string) error {
	fs := flag.NewFlagSet("chart", flag.ContinueOnError)
	in := fs.String("in", "internal/benchmarks/testdata/calls.txt", "benchmark output to read (go test -bench -benchmem)")
	out := fs.String("out", "docs/benchmarks.svg", "SVG file to write")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	f, err := os.Open(*in)
	if err != nil {
		return err
	}
	defer f.Close()
	res, err := parse(f)
	if err != nil {
		return fmt.Errorf("%s: %w", *in, err)
	}
	svg, err := render(res)
	if err != nil {
		return fmt.Errorf("%s: %w", *in, err)
	}
	return os.WriteFile(*out, svg, 0o644)
}

// The clients compared, as the benchmarks name their sub-benchmarks
// (client=NAME).
const (
	baseline = "handwritten"
	subject  = "sdk"
)

// results are the measurements of one benchmark output.
type results struct {
	// cpu is the output's cpu: line ("" when absent).
	cpu string
	// order lists the benchmarks in the order they first appear.
	order []string
	// samples holds, per benchmark, client and unit, one value per round.
	samples map[string]map[string]map[string][]float64
}

// parse reads benchmark output: lines such as
//
//	BenchmarkGetOrder/client=sdk-2   5000   185300 ns/op   8570 B/op   105 allocs/op
//
// Lines of other benchmarks (without a client=) and other text are skipped.
func parse(r io.Reader) (*results, error) {
	res := &results{samples: map[string]map[string]map[string][]float64{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if v, ok := strings.CutPrefix(line, "cpu: "); ok && res.cpu == "" {
			res.cpu = strings.TrimSpace(v)
			continue
		}
		fields := strings.Fields(line)
		if len(fields) < 4 || !strings.HasPrefix(fields[0], "Benchmark") {
			continue
		}
		bench, client, ok := strings.Cut(strings.TrimPrefix(fields[0], "Benchmark"), "/client=")
		if !ok {
			continue
		}
		// The -N suffix is GOMAXPROCS.
		if i := strings.LastIndexByte(client, '-'); i >= 0 {
			if _, err := strconv.Atoi(client[i+1:]); err == nil {
				client = client[:i]
			}
		}
		if _, err := strconv.ParseInt(fields[1], 10, 64); err != nil {
			return nil, fmt.Errorf("line %d: iterations %q: %w", n, fields[1], err)
		}
		if len(fields)%2 != 0 {
			return nil, fmt.Errorf("line %d: a value without its unit", n)
		}
		if res.samples[bench] == nil {
			res.samples[bench] = map[string]map[string][]float64{}
			res.order = append(res.order, bench)
		}
		if res.samples[bench][client] == nil {
			res.samples[bench][client] = map[string][]float64{}
		}
		for i := 2; i < len(fields); i += 2 {
			v, err := strconv.ParseFloat(fields[i], 64)
			if err != nil {
				return nil, fmt.Errorf("line %d: %q: %w", n, fields[i], err)
			}
			unit := fields[i+1]
			res.samples[bench][client][unit] = append(res.samples[bench][client][unit], v)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(res.order) == 0 {
		return nil, errors.New("no benchmark with a client=NAME sub-benchmark")
	}
	return res, nil
}

// median returns the median of vs (the mean of the two middle values of
// an even count).
func median(vs []float64) float64 {
	s := slices.Clone(vs)
	slices.Sort(s)
	m := len(s) / 2
	if len(s)%2 == 1 {
		return s[m]
	}
	return (s[m-1] + s[m]) / 2
}

// metric is one panel of the chart.
type metric struct {
	unit   string // as in the benchmark output
	title  string
	format func(float64) string
	// spread: the label also gives the fastest and slowest round, since
	// the figure varies between rounds.
	spread bool
}

var metrics = []metric{
	{"ns/op", "Time per call (ns/op; fastest and slowest round in brackets)", formatDuration, true},
	{"allocs/op", "Allocations per call (allocs/op)", func(v float64) string { return thousands(v) + " allocs" }, false},
}

// titles names the benchmarks of internal/benchmarks; another benchmark
// keeps its own name.
var titles = map[string]string{
	"GetOrder":            "get an order",
	"CreateSamedayOrder":  "create a same-day order",
	"SearchPharmacies100": "search, one page of 100",
	"GetManyOrders50":     "get-many of 50 orders",
}

// bar is one benchmark's pair of medians in a panel, with the rounds
// they are the medians of.
type bar struct {
	title                  string
	base, subj             float64
	baseRounds, subjRounds []float64
}

// Layout, in SVG user units.
const (
	width     = 860
	left      = 190 // the benchmarks' titles
	barArea   = 400 // a ratio of maxRatio fills it
	barHeight = 14
	barGap    = 3
	groupGap  = 14
	colorBase = "#8c959f"
	colorSubj = "#0969da"
)

// render draws the chart of res.
func render(res *results) ([]byte, error) {
	fewest, most := math.MaxInt, 0
	panels := make([][]bar, len(metrics))
	for _, bench := range res.order {
		clients := res.samples[bench]
		if clients[baseline] == nil || clients[subject] == nil {
			continue
		}
		for i, m := range metrics {
			b, s := clients[baseline][m.unit], clients[subject][m.unit]
			if len(b) == 0 || len(s) == 0 {
				return nil, fmt.Errorf("%s: no %s figure for both clients (run with -benchmem)", bench, m.unit)
			}
			fewest, most = min(fewest, len(b), len(s)), max(most, len(b), len(s))
			title := titles[bench]
			if title == "" {
				title = bench
			}
			panels[i] = append(panels[i], bar{title: title, base: median(b), subj: median(s), baseRounds: b, subjRounds: s})
		}
	}
	if len(panels[0]) == 0 {
		return nil, fmt.Errorf("no benchmark has both client=%s and client=%s", baseline, subject)
	}

	var body strings.Builder
	y := 0
	text := func(x, y int, anchor, class, s string) {
		fmt.Fprintf(&body, `<text x="%d" y="%d"%s%s>%s</text>`+"\n", x, y, attr("text-anchor", anchor), attr("class", class), escape(s))
	}
	y += 24
	text(0, y, "", "title", "rxdelivery-go: the SDK next to a hand-written client, per call")
	y += 18
	rounds := strconv.Itoa(fewest) + " rounds"
	switch {
	case fewest != most:
		rounds = strconv.Itoa(fewest) + " to " + strconv.Itoa(most) + " rounds"
	case fewest == 1:
		rounds = "1 round"
	}
	text(0, y, "", "note", "Median of "+rounds+" of go test -bench; bars relative to the hand-written client; shorter is better.")
	if res.cpu != "" {
		y += 16
		text(0, y, "", "note", "CPU: "+res.cpu+". Drawn by internal/benchmarks/chart from internal/benchmarks/testdata/calls.txt.")
	}
	y += 22
	fmt.Fprintf(&body, `<rect x="%d" y="%d" width="12" height="12" fill="%s"/>`+"\n", 0, y-10, colorBase)
	text(18, y, "", "", "hand-written client (net/http, encoding/json, its own structs)")
	fmt.Fprintf(&body, `<rect x="%d" y="%d" width="12" height="12" fill="%s"/>`+"\n", 400, y-10, colorSubj)
	text(418, y, "", "", "SDK (defaults, validation on)")

	for i, m := range metrics {
		maxRatio := 1.0
		for _, b := range panels[i] {
			if b.base <= 0 {
				return nil, fmt.Errorf("%s: the hand-written client's %s is %v", b.title, m.unit, b.base)
			}
			maxRatio = max(maxRatio, b.subj/b.base)
		}
		scale := barArea / maxRatio
		y += 34
		text(0, y, "", "panel", m.title)
		y += 10
		// The hand-written client's length, 1×, as a guide drawn under
		// the bars and their labels.
		x := num(left + scale)
		bottom := y + len(panels[i])*(groupGap+2*(barHeight+barGap))
		fmt.Fprintf(&body, `<line x1="%s" y1="%d" x2="%s" y2="%d" class="guide"/>`+"\n", x, y+4, x, bottom+4)
		text(int(math.Round(left+scale)), y+2, "middle", "note", "1×")
		for _, b := range panels[i] {
			y += groupGap
			ratio := b.subj / b.base
			text(left-10, y+barHeight+barGap/2+4, "end", "", b.title)
			for j, v := range []float64{b.base, b.subj} {
				w := scale * v / b.base
				color, label, rounds := colorBase, m.format(v), b.baseRounds
				if j == 1 {
					color, label, rounds = colorSubj, label+" ("+strconv.FormatFloat(ratio, 'f', 2, 64)+"×)", b.subjRounds
				}
				if m.spread && len(rounds) > 1 {
					label += " [" + m.format(slices.Min(rounds)) + " – " + m.format(slices.Max(rounds)) + "]"
				}
				fmt.Fprintf(&body, `<rect x="%d" y="%d" width="%s" height="%d" fill="%s"/>`+"\n", left, y, num(w), barHeight, color)
				text(left+int(math.Round(w))+6, y+barHeight-3, "", "value", label)
				y += barHeight + barGap
			}
		}
	}
	y += 16

	var out strings.Builder
	fmt.Fprintf(&out, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" role="img" aria-label="the SDK next to a hand-written client: time and allocations per call">`+"\n", width, y, width, y)
	out.WriteString(`<style>text{font-family:-apple-system,"Segoe UI",Helvetica,Arial,sans-serif;font-size:12px;fill:#1f2328}` +
		`.title{font-size:16px;font-weight:600}.panel{font-size:14px;font-weight:600}.note{font-size:11px;fill:#59636e}` +
		`.value{font-size:11px;paint-order:stroke;stroke:#ffffff;stroke-width:3px}.guide{stroke:#59636e;stroke-dasharray:3 3}</style>` + "\n")
	fmt.Fprintf(&out, `<rect width="%d" height="%d" fill="#ffffff"/>`+"\n", width, y)
	out.WriteString(`<g transform="translate(10,0)">` + "\n")
	out.WriteString(body.String())
	out.WriteString("</g>\n</svg>\n")
	return []byte(out.String()), nil
}

// attr returns ` name="value"`, or "" for an empty value.
func attr(name, value string) string {
	if value == "" {
		return ""
	}
	return " " + name + `="` + value + `"`
}

// escape escapes s for SVG text.
func escape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(s)
}

// num formats a coordinate with at most one decimal.
func num(v float64) string {
	return strconv.FormatFloat(math.Round(v*10)/10, 'f', -1, 64)
}

// formatDuration writes ns nanoseconds in the unit that suits them.
func formatDuration(ns float64) string {
	switch {
	case ns < 1e3:
		return strconv.FormatFloat(ns, 'f', 0, 64) + " ns"
	case ns < 1e6:
		return strconv.FormatFloat(ns/1e3, 'f', 1, 64) + " µs"
	case ns < 1e9:
		return strconv.FormatFloat(ns/1e6, 'f', 2, 64) + " ms"
	}
	return strconv.FormatFloat(ns/1e9, 'f', 2, 64) + " s"
}

// thousands writes v rounded to an integer with comma separators.
func thousands(v float64) string {
	s := strconv.FormatFloat(math.Round(v), 'f', 0, 64)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		s = "-" + s
	}
	return s
}
