package testdb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// howToGetPostgres says how to give the PostgreSQL tests a server.
const howToGetPostgres = "install PostgreSQL's server binaries (Debian and Ubuntu: apt-get install postgresql; " +
	"the tests look in /usr/lib/postgresql/<version>/bin, then on PATH, or in PG_BINDIR) " +
	"and the tests start a throwaway server themselves, or set " + EnvPostgres + " to a server to test against"

// errNoPostgres marks the reasons a test binary cannot start a server of
// its own that are the machine's, not the code's: no binaries, or root
// without a postgres user to run the server as. Tests skip on it, except
// in CI, which must have PostgreSQL.
var errNoPostgres = errors.New("no PostgreSQL server to test against")

// findBin returns the directory of the PostgreSQL server binaries: dir
// when it is not empty (PG_BINDIR), else the newest
// /usr/lib/postgresql/<version>/bin, else the directory of initdb on PATH.
func findBin(dir string) (string, error) {
	if dir != "" {
		if _, err := os.Stat(filepath.Join(dir, "initdb")); err != nil {
			return "", fmt.Errorf("%w: PG_BINDIR (%s) holds no initdb: %s", errNoPostgres, dir, howToGetPostgres)
		}
		return dir, nil
	}
	// The newest version: /usr/lib/postgresql/9.6 sorts after 15 as text.
	matches, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	best, bestVersion := "", -1.0
	for _, m := range matches {
		v, err := strconv.ParseFloat(filepath.Base(filepath.Dir(filepath.Dir(m))), 64)
		if err == nil && v > bestVersion {
			best, bestVersion = filepath.Dir(m), v
		}
	}
	if best != "" {
		return best, nil
	}
	if p, err := exec.LookPath("initdb"); err == nil {
		return filepath.Dir(p), nil
	}
	return "", fmt.Errorf("%w: no PostgreSQL server binaries (initdb) found: %s", errNoPostgres, howToGetPostgres)
}

// serverUser is the user the server runs as when the tests run as root
// (PostgreSQL refuses root): its uid and gid, or ok false when not root.
func serverUser() (uid, gid int, ok bool, err error) {
	if os.Geteuid() != 0 {
		return 0, 0, false, nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return 0, 0, false, fmt.Errorf("%w: running as root without a user postgres to run the server as (PostgreSQL refuses root): "+
			"create one (useradd --system postgres; installing PostgreSQL's package does) or set "+EnvPostgres, errNoPostgres)
	}
	uid, _ = strconv.Atoi(u.Uid)
	gid, _ = strconv.Atoi(u.Gid)
	return uid, gid, true, nil
}

// command runs a PostgreSQL binary of bin, as the server's user when root.
func command(bin, name string, args ...string) *exec.Cmd {
	path := filepath.Join(bin, name)
	if os.Geteuid() == 0 {
		return exec.Command("runuser", append([]string{"-u", "postgres", "--", path}, args...)...)
	}
	return exec.Command(path, args...)
}

// watchdog runs the server (the arguments after the base directory) and
// stops it when its standard input reaches end of file: when the test
// binary closes the pipe, or when the test binary ends in any way, a panic,
// a timeout or a kill included. It then removes the base directory. When
// the server ends by itself (it could not start) the directory is kept for
// its log, and the test binary removes it.
const watchdog = `base=$1; shift
"$@" >"$base/server.log" 2>&1 &
pg=$!
exec 3<&0
{ read -r _ <&3; : >"$base/stopping"; kill -INT "$pg" 2>/dev/null; } &
wait "$pg"
rc=$?
if [ -e "$base/stopping" ]; then rm -rf "$base"; fi
exit "$rc"
`

// server is a throwaway PostgreSQL server of the test binary, started by
// the first test that needs one and stopped when the binary ends.
type server struct {
	bindir string // PG_BINDIR: where the binaries are, when set
	ci     bool   // in CI, a missing server fails the tests

	once sync.Once
	dsn  string
	base string // its directory: data, socket, log
	err  error
	stop func()
}

// shared is the test binary's server, used when JOURNAL_TEST_POSTGRES_DSN
// is unset.
var shared = &server{bindir: os.Getenv("PG_BINDIR"), ci: os.Getenv("CI") == "true"}

// DSN returns the server's DSN, starting it on first use; it skips t (in
// CI, fails it) when the machine cannot run one, and fails it when the
// server does not start.
func (s *server) DSN(t testing.TB) string {
	t.Helper()
	switch err := s.start(); {
	case err == nil:
		return s.dsn
	case errors.Is(s.err, errNoPostgres) && !s.ci:
		t.Skip(s.err)
	default:
		t.Fatal(s.err)
	}
	return ""
}

// start starts the server unless it was started (or failed to) before.
func (s *server) start() error {
	s.once.Do(func() { s.dsn, s.base, s.stop, s.err = start(s.bindir) })
	return s.err
}

// Stop stops the server and removes its directory, if it was started.
func (s *server) Stop() {
	s.once.Do(func() { s.err = errors.New("the test binary's PostgreSQL server was stopped before it was started") })
	if s.stop != nil {
		s.stop()
		s.stop = nil
	}
}

// Main runs the tests of a package that uses the PostgreSQL server and
// then stops it; call it from TestMain as os.Exit(testdb.Main(m)). (The
// server stops when the binary ends without it too, a moment later.)
func Main(m *testing.M) int {
	code := m.Run()
	stopPgBouncer()
	shared.Stop()
	return code
}

// start initialises a cluster in a new directory and starts its server on
// a free loopback port under the watchdog. It returns the DSN, the
// directory and the function that stops the server and waits for the
// watchdog to remove the directory.
func start(bindir string) (dsn, base string, stop func(), err error) {
	bin, err := findBin(bindir)
	if err != nil {
		return "", "", nil, err
	}
	uid, gid, asUser, err := serverUser()
	if err != nil {
		return "", "", nil, err
	}
	var lastErr error
	for range 3 { // a port found free may be taken before the server binds it
		base, err = os.MkdirTemp("", "journal-pg-")
		if err != nil {
			return "", "", nil, err
		}
		if asUser {
			if err := os.Chown(base, uid, gid); err != nil {
				os.RemoveAll(base)
				return "", "", nil, err
			}
		}
		dsn, stop, err := startIn(bin, base)
		if err == nil {
			return dsn, base, stop, nil
		}
		os.RemoveAll(base)
		lastErr = err
	}
	return "", "", nil, lastErr
}

// startIn runs initdb and the server in base, and waits until the server
// answers.
func startIn(bin, base string) (dsn string, stop func(), err error) {
	data := filepath.Join(base, "data")
	if out, err := command(bin, "initdb", "-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-instructions").CombinedOutput(); err != nil {
		return "", nil, fmt.Errorf("initdb: %v\n%s", err, out)
	}
	port, err := freeLoopbackPort()
	if err != nil {
		return "", nil, err
	}
	args := []string{"runuser", "-u", "postgres", "--", "sh", "-c", watchdog, "watchdog", base}
	if os.Geteuid() != 0 {
		args = args[4:]
	}
	args = append(args, filepath.Join(bin, "postgres"), "-D", data, "-p", strconv.Itoa(port), "-k", base,
		"-c", "listen_addresses=127.0.0.1", "-c", "max_connections=200",
		"-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off")
	cmd := exec.Command(args[0], args[1:]...)
	setOwnGroup(cmd) // a Ctrl-C at the terminal reaches the test binary, not the watchdog
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return "", nil, err
	}
	if err := cmd.Start(); err != nil {
		return "", nil, err
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	stop = func() {
		stdin.Close()
		<-exited
	}
	dsn = fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", port)
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		stop()
		return "", nil, err
	}
	defer db.Close()
	for deadline := time.Now().Add(60 * time.Second); ; {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		err = db.PingContext(ctx)
		cancel()
		if err == nil {
			return dsn, stop, nil
		}
		select {
		case <-exited:
			stdin.Close()
			log, _ := os.ReadFile(filepath.Join(base, "server.log"))
			return "", nil, fmt.Errorf("PostgreSQL did not start on 127.0.0.1:%d; its log:\n%s", port, strings.TrimSpace(string(log)))
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			stop()
			return "", nil, fmt.Errorf("PostgreSQL did not answer on 127.0.0.1:%d within 60s: %v", port, err)
		}
	}
}

// freeLoopbackPort returns a TCP port free on 127.0.0.1 just now.
func freeLoopbackPort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
