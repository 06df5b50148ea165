package testdb

import (
	"bufio"
	"database/sql"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/rxdelivery/rxdelivery-go/internal/fullsuite"
)

// envChild makes this test binary a child that starts the shared server
// (see childMain) instead of running the tests.
const envChild = "JOURNAL_TESTDB_CHILD"

func TestMain(m *testing.M) {
	if mode := os.Getenv(envChild); mode != "" {
		os.Exit(childMain(mode))
	}
	os.Exit(Main(m))
}

// childMain starts the shared server as a test binary would, prints
// "server PORT DIR", runs a query and prints "ok". Then, by mode: "main"
// returns as Main does after the tests (the server stopped), "exit"
// returns without stopping it, "hang" waits to be killed.
func childMain(mode string) int {
	if err := shared.start(); err != nil {
		fmt.Println("error:", err)
		return 3
	}
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(strings.Split(shared.dsn, "/")[2], "postgres@"))
	fmt.Println("server", port, shared.base)
	db, err := sql.Open("pgx", shared.dsn)
	if err != nil {
		fmt.Println("error:", err)
		return 3
	}
	var one int
	if err := db.QueryRow("SELECT 1").Scan(&one); err != nil || one != 1 {
		fmt.Println("error: SELECT 1:", one, err)
		return 3
	}
	db.Close()
	fmt.Println("ok")
	switch mode {
	case "main":
		shared.Stop()
	case "hang":
		select {}
	}
	return 0
}

// recorder is a testing.TB that records a skip or a failure and ends the
// goroutine, as the real ones do.
type recorder struct {
	testing.TB
	skipped, failed string
}

func (r *recorder) Helper() {}

func (r *recorder) Skip(args ...any) {
	r.skipped = fmt.Sprint(args...)
	runtime.Goexit()
}

func (r *recorder) Fatal(args ...any) {
	r.failed = fmt.Sprint(args...)
	runtime.Goexit()
}

// dsnOf calls s.DSN with a recorder in a goroutine of its own.
func dsnOf(s *server) (dsn string, r *recorder) {
	r = &recorder{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		dsn = s.DSN(r)
	}()
	<-done
	return dsn, r
}

// TestPostgresDSNPrefersTheVariable: JOURNAL_TEST_POSTGRES_DSN, when set,
// is the server the tests use; none is started.
func TestPostgresDSNPrefersTheVariable(t *testing.T) {
	const dsn = "postgres://postgres@127.0.0.1:1/postgres?sslmode=disable"
	t.Setenv(EnvPostgres, dsn)
	if got := PostgresDSN(t); got != dsn {
		t.Fatalf("PostgresDSN = %q, want the variable's %q", got, dsn)
	}
	if shared.dsn != "" || shared.stop != nil {
		t.Fatal("a server was started although the variable names one")
	}
}

// TestWithoutBinariesTheTestsSkipSayingHowToGetThem: on a machine without
// PostgreSQL's server binaries the PostgreSQL tests skip, and the message
// says how to get them or name a server; in CI they fail instead.
func TestWithoutBinariesTheTestsSkipSayingHowToGetThem(t *testing.T) {
	t.Parallel()
	empty := t.TempDir()
	dsn, r := dsnOf(&server{bindir: empty})
	if dsn != "" || r.failed != "" || r.skipped == "" {
		t.Fatalf("got dsn %q, failure %q, skip %q; want a skip", dsn, r.failed, r.skipped)
	}
	for _, want := range []string{"apt-get install postgresql", "/usr/lib/postgresql/<version>/bin", "PG_BINDIR", EnvPostgres, empty} {
		if !strings.Contains(r.skipped, want) {
			t.Errorf("the skip message %q does not say %q", r.skipped, want)
		}
	}

	_, r = dsnOf(&server{bindir: empty, ci: true})
	if r.failed == "" || r.skipped != "" {
		t.Fatalf("in CI: failure %q, skip %q; want a failure", r.failed, r.skipped)
	}
}

// TestTheServerStopsWhenTheTestBinaryEnds runs this test binary as a child
// that starts its own server and uses it, then ends: through Main (the
// server is stopped and its directory gone once the child has exited),
// by returning without stopping it, or killed (the watchdog stops it and
// removes the directory when it sees the child gone).
func TestTheServerStopsWhenTheTestBinaryEnds(t *testing.T) {
	t.Parallel()
	fullsuite.Require(t, "the journal's PostgreSQL tests")
	if _, err := findBin(os.Getenv("PG_BINDIR")); errors.Is(err, errNoPostgres) {
		if os.Getenv("CI") == "true" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	for _, mode := range []string{"main", "exit", "hang"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(withoutVar(os.Environ(), EnvPostgres), envChild+"="+mode)
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			lines := bufio.NewScanner(out)
			var port, dir string
			for lines.Scan() {
				line := lines.Text()
				if f := strings.Fields(line); len(f) == 3 && f[0] == "server" {
					port, dir = f[1], f[2]
				}
				if line == "ok" || strings.HasPrefix(line, "error:") {
					if line != "ok" {
						t.Fatal(line)
					}
					break
				}
			}
			if port == "" {
				t.Fatalf("the child printed no server line (%v)", lines.Err())
			}
			if _, err := strconv.Atoi(port); err != nil {
				t.Fatalf("port %q", port)
			}
			if mode == "hang" {
				if err := cmd.Process.Kill(); err != nil {
					t.Fatal(err)
				}
			}
			_ = cmd.Wait()
			stopped := func() bool {
				c, err := net.Dial("tcp", "127.0.0.1:"+port)
				if err == nil {
					c.Close()
					return false
				}
				_, err = os.Stat(dir)
				return errors.Is(err, os.ErrNotExist)
			}
			if mode == "main" {
				if !stopped() {
					t.Fatalf("after Main the server on port %s still answers or %s remains", port, dir)
				}
				return
			}
			WaitFor(t, "the server of the ended test binary to stop and its directory to go", stopped)
		})
	}
}

// withoutVar returns env without the variable name.
func withoutVar(env []string, name string) []string {
	var out []string
	for _, kv := range env {
		if !strings.HasPrefix(kv, name+"=") {
			out = append(out, kv)
		}
	}
	return out
}
