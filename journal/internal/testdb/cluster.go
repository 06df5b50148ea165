package testdb

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rxdelivery/rxdelivery-go/internal/fullsuite"
)

// Cluster is a PostgreSQL server of a test's own, on loopback, stopped and
// removed when the test ends.
type Cluster struct {
	// DSN connects to its postgres database as the postgres superuser.
	DSN string
	// Port is its TCP port on 127.0.0.1.
	Port int
	// Dir is its data directory.
	Dir string

	t       testing.TB
	bin     string
	opts    string // the server options it was started with
	running bool
	cleanup bool // its stop at the test's end is registered
}

// PostgresBin returns the directory of the PostgreSQL server binaries
// (initdb, pg_ctl, pg_basebackup), skipping t when there is none (failing
// it in CI).
func PostgresBin(t testing.TB) string {
	t.Helper()
	bin, err := findBin(os.Getenv("PG_BINDIR"))
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	return bin
}

// run runs a PostgreSQL binary, as the server's user when root (command).
func (c *Cluster) run(name string, args ...string) {
	c.t.Helper()
	if out, err := command(c.bin, name, args...).CombinedOutput(); err != nil {
		c.t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
}

// newDir makes a directory the server's user owns.
func newDir(t testing.TB) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "journal-cluster-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	uid, gid, root, err := serverUser()
	if err != nil {
		t.Skip(err)
	}
	if root {
		if err := os.Chown(dir, uid, gid); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// freePort returns a TCP port free on 127.0.0.1 just now.
func freePort(t testing.TB) int {
	t.Helper()
	port, err := freeLoopbackPort()
	if err != nil {
		t.Fatal(err)
	}
	return port
}

// start starts the server of c.Dir on c.Port and registers its stop.
func (c *Cluster) start(extra ...string) {
	c.t.Helper()
	c.opts = fmt.Sprintf("-c listen_addresses=127.0.0.1 -p %d -k %s -c fsync=off %s", c.Port, filepath.Dir(c.Dir), strings.Join(extra, " "))
	c.Start()
	c.DSN = fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", c.Port)
}

// Start starts the server again after Stop, with the options it first
// started with, and waits until it accepts connections (for a standby:
// until it is consistent, which it may be before its walreceiver has
// connected to the primary).
func (c *Cluster) Start() {
	c.t.Helper()
	c.run("pg_ctl", "-D", c.Dir, "-l", c.Dir+".log", "-w", "-t", "60", "-o", c.opts, "start")
	c.running = true
	if !c.cleanup {
		c.cleanup = true
		c.t.Cleanup(func() {
			if c.running {
				c.run("pg_ctl", "-D", c.Dir, "-m", "immediate", "-w", "stop")
			}
		})
	}
}

// StartNoWait starts the server again after Stop and returns at once,
// for a test that watches what happens while it starts.
func (c *Cluster) StartNoWait() {
	c.t.Helper()
	c.run("pg_ctl", "-D", c.Dir, "-l", c.Dir+".log", "-W", "-o", c.opts, "start")
	c.running = true
}

// Stop stops the server (fast shutdown: its sessions end, a standby's
// replication connection with them) and waits until it is down.
func (c *Cluster) Stop() {
	c.t.Helper()
	c.run("pg_ctl", "-D", c.Dir, "-m", "fast", "-w", "stop")
	c.running = false
}

// StartCluster initialises and starts a PostgreSQL server of t's own,
// whose pg_hba trusts local and loopback connections, replication ones
// included.
func StartCluster(t testing.TB) *Cluster {
	t.Helper()
	fullsuite.Require(t, "the journal's PostgreSQL cluster tests")
	c := &Cluster{t: t, bin: PostgresBin(t)}
	c.Dir = filepath.Join(newDir(t), "data")
	c.run("initdb", "-D", c.Dir, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-instructions")
	c.Port = freePort(t)
	c.start()
	return c
}

// StartStandby makes a streaming standby of primary (pg_basebackup -R)
// and starts it; it replicates asynchronously unless the primary's
// synchronous_standby_names names it (its application_name is
// "standby").
func StartStandby(t testing.TB, primary *Cluster) *Cluster {
	t.Helper()
	c := &Cluster{t: t, bin: primary.bin}
	c.Dir = filepath.Join(newDir(t), "data")
	c.run("pg_basebackup", "-h", "127.0.0.1", "-p", strconv.Itoa(primary.Port), "-U", "postgres",
		"-D", c.Dir, "-R", "-X", "stream", "-d", fmt.Sprintf("application_name=standby host=127.0.0.1 port=%d user=postgres", primary.Port))
	c.Port = freePort(t)
	c.start()
	return c
}

// WaitFor polls cond every 50 ms until it holds or 30 s have passed.
func WaitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(30 * time.Second); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("waited 30s for %s", what)
}
