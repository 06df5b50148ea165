package journal_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/journal"
	"github.com/rxdelivery/rxdelivery-go/journal/internal/testdb"
	"github.com/rxdelivery/rxdelivery-go/journal/pgstore"
	"github.com/rxdelivery/rxdelivery-go/journal/sqlitestore"
	"github.com/rxdelivery/rxdelivery-go/rxdeliverytest"
)

// The tests that need several processes run this test binary again as a
// child: TestMain sees JOURNAL_TEST_CHILD and runs child instead of the
// tests. A child opens the store named by JOURNAL_TEST_STORE, builds its
// client from the RXDELIVERY_* variables (the simulator's EnvLines), says
// "ready", waits for a line on stdin (so that every child starts at once),
// then creates the orders of JOURNAL_TEST_REFS (its share of them when
// JOURNAL_TEST_SHARDS is set) through a journal and prints one line per
// attempt: reference, outcome, order id. Otherwise it runs the tests and
// stops the PostgreSQL server they started, if any (testdb.Main).
func TestMain(m *testing.M) {
	if os.Getenv("JOURNAL_TEST_CHILD") != "" {
		if err := child(); err != nil {
			fmt.Fprintln(os.Stderr, "child:", err)
			os.Exit(2)
		}
		os.Exit(0)
	}
	os.Exit(testdb.Main(m))
}

// Outcomes a child prints.
const (
	outCreated  = "created"   // the order, created now or recorded before
	outInFlight = "in_flight" // refused: another holder is creating it
	outClaimed  = "claimed"   // refused: the claim is of unknown outcome
	outUnknown  = "unknown"   // this create failed with an unknown outcome
)

func openStore(spec string) (journal.Store, func(), error) {
	kind, arg, _ := strings.Cut(spec, ":")
	switch kind {
	case "sqlite":
		s, err := sqlitestore.Open(arg)
		if err != nil {
			return nil, nil, err
		}
		return s, func() { s.Close() }, nil
	case "postgres":
		s, err := pgstore.Open(context.Background(), arg)
		if err != nil {
			return nil, nil, err
		}
		return s, func() { s.Close() }, nil
	}
	return nil, nil, fmt.Errorf("unknown store %q", spec)
}

// refList expands "prefix:count" (prefix-0000 ... ) or a single reference.
func refList(spec string) []string {
	prefix, count, ok := strings.Cut(spec, ":")
	n, err := strconv.Atoi(count)
	if !ok || err != nil {
		return []string{spec}
	}
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s-%04d", prefix, i)
	}
	return out
}

func child() error {
	store, closeStore, err := openStore(os.Getenv("JOURNAL_TEST_STORE"))
	if err != nil {
		return err
	}
	defer closeStore()
	client, err := rxdelivery.NewClientFromEnv(rxdelivery.WithRetryWaitMin(time.Millisecond), rxdelivery.WithRetryWaitMax(10*time.Millisecond))
	if err != nil {
		return err
	}
	lease, _ := time.ParseDuration(os.Getenv("JOURNAL_TEST_LEASE"))
	j := journal.New(store, journal.WithLease(lease), journal.WithHolder(os.Getenv("JOURNAL_TEST_HOLDER")))
	o := j.Orders(client.Orders)

	var refs []string
	copies, _ := strconv.Atoi(os.Getenv("JOURNAL_TEST_COPIES"))
	for range max(copies, 1) {
		refs = append(refs, refList(os.Getenv("JOURNAL_TEST_REFS"))...)
	}
	if shards, _ := strconv.Atoi(os.Getenv("JOURNAL_TEST_SHARDS")); shards > 1 {
		// Keep this child's share only: every reference is tried once.
		index, _ := strconv.Atoi(os.Getenv("JOURNAL_TEST_INDEX"))
		var mine []string
		for i, r := range refs {
			if i%shards == index {
				mine = append(mine, r)
			}
		}
		refs = mine
	}
	rand.Shuffle(len(refs), func(a, b int) { refs[a], refs[b] = refs[b], refs[a] })
	workers, _ := strconv.Atoi(os.Getenv("JOURNAL_TEST_WORKERS"))

	fmt.Println("ready")
	if _, err := bufio.NewReader(os.Stdin).ReadString('\n'); err != nil {
		return err
	}
	work := make(chan string)
	var mu sync.Mutex
	out := bufio.NewWriter(os.Stdout)
	var wg sync.WaitGroup
	var firstErr error
	for range max(workers, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ref := range work {
				p := rxdeliverytest.SamedayOrderParams()
				p.ExternalReferenceNumber = ref
				order, err := o.Create(context.Background(), p)
				outcome, id := outCreated, ""
				var ce *journal.ClaimedError
				switch {
				case err == nil:
					id = order.ID
				case errors.As(err, &ce) && ce.Claim.State == journal.StateInFlight:
					outcome = outInFlight
				case errors.As(err, &ce):
					outcome = outClaimed
				case errors.Is(err, rxdelivery.ErrUnknownOutcome):
					outcome = outUnknown
				}
				mu.Lock()
				if outcome == outCreated && err != nil && firstErr == nil {
					firstErr = fmt.Errorf("%s: %w", ref, err)
				}
				fmt.Fprintf(out, "%s\t%s\t%s\n", ref, outcome, id)
				mu.Unlock()
			}
		}()
	}
	for _, r := range refs {
		work <- r
	}
	close(work)
	wg.Wait()
	if err := out.Flush(); err != nil {
		return err
	}
	return firstErr
}

// attempt is one create a child reported.
type attempt struct{ ref, outcome, id string }

// children runs n children with env added to this process's, starts them
// at once, and returns what each reported. Each child is killed when the
// test ends, if still running.
type childProcs struct {
	cmds   []*exec.Cmd
	outs   []*bufio.Reader
	ins    []io.WriteCloser
	stderr []*strings.Builder
}

func startChildren(t *testing.T, n int, env ...string) *childProcs {
	t.Helper()
	cp := &childProcs{}
	for i := range n {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "JOURNAL_TEST_CHILD=1", fmt.Sprintf("JOURNAL_TEST_HOLDER=child-%d", i),
			fmt.Sprintf("JOURNAL_TEST_INDEX=%d", i))
		cmd.Env = append(cmd.Env, env...)
		stdin, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			if cmd.ProcessState == nil {
				_ = cmd.Process.Kill()
				_ = cmd.Wait()
			}
		})
		cp.cmds, cp.ins, cp.stderr = append(cp.cmds, cmd), append(cp.ins, stdin), append(cp.stderr, &stderr)
		cp.outs = append(cp.outs, bufio.NewReader(stdout))
	}
	for i, r := range cp.outs {
		if line, err := r.ReadString('\n'); line != "ready\n" {
			t.Fatalf("child %d: %q, %v; stderr: %s", i, line, err, cp.stderr[i])
		}
	}
	return cp
}

// goAll lets every child start.
func (cp *childProcs) goAll(t *testing.T) {
	for _, in := range cp.ins {
		if _, err := io.WriteString(in, "go\n"); err != nil {
			t.Fatal(err)
		}
	}
}

// wait collects every child's report and checks that each exited 0.
func (cp *childProcs) wait(t *testing.T) [][]attempt {
	t.Helper()
	out := make([][]attempt, len(cp.cmds))
	for i, r := range cp.outs {
		for {
			line, err := r.ReadString('\n')
			if line != "" {
				f := strings.Split(strings.TrimSuffix(line, "\n"), "\t")
				if len(f) != 3 {
					t.Fatalf("child %d printed %q", i, line)
				}
				out[i] = append(out[i], attempt{f[0], f[1], f[2]})
			}
			if err != nil {
				break
			}
		}
		if err := cp.cmds[i].Wait(); err != nil {
			t.Fatalf("child %d: %v; stderr: %s", i, err, cp.stderr[i])
		}
	}
	return out
}

// run starts n children, lets them go, and waits for their reports.
func runChildren(t *testing.T, n int, env ...string) [][]attempt {
	t.Helper()
	cp := startChildren(t, n, env...)
	cp.goAll(t)
	return cp.wait(t)
}

// stores lists the stores shared by processes: an SQLite file, and a
// PostgreSQL schema when a server is available. Each entry gives the spec a
// child opens and a store for the parent.
func sharedStores(t *testing.T) map[string]func(t *testing.T) (string, journal.Store) {
	return map[string]func(t *testing.T) (string, journal.Store){
		"sqlite": func(t *testing.T) (string, journal.Store) {
			path := testdb.SQLitePath(t)
			return "sqlite:" + path, testdb.SQLite(t, path)
		},
		"postgres": func(t *testing.T) (string, journal.Store) {
			dsn := testdb.NewSchema(t)
			s, err := pgstore.Open(context.Background(), dsn)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			return "postgres:" + dsn, s
		},
	}
}
