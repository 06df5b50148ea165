package testdb

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/rxdelivery/rxdelivery-go/internal/fullsuite"
)

// EnvPgBouncer names the variable holding the DSN of a PgBouncer in
// transaction pooling mode in front of the test server (.ci/pgbouncer.sh
// sets it).
const EnvPgBouncer = "JOURNAL_TEST_PGBOUNCER_DSN"

// bouncer is the test binary's own PgBouncer, started on first use in
// front of the test server and stopped when the binary ends (Main).
var bouncer struct {
	once sync.Once
	dsn  string
	err  error
	stop func()
}

// PgBouncerDSN returns the DSN of a PgBouncer in transaction pooling mode
// in front of PostgresDSN's server: the one JOURNAL_TEST_PGBOUNCER_DSN
// names, else one the test binary starts from the installed pgbouncer
// binary (Debian and Ubuntu: apt-get install pgbouncer), on a free
// loopback port. Without the binary t is skipped, saying how to get it
// (in CI, failed).
func PgBouncerDSN(t testing.TB) string {
	t.Helper()
	fullsuite.Require(t, "the journal's PgBouncer tests")
	if dsn := os.Getenv(EnvPgBouncer); dsn != "" {
		return dsn
	}
	server := PostgresDSN(t)
	bouncer.once.Do(func() { bouncer.dsn, bouncer.stop, bouncer.err = startPgBouncer(server) })
	switch err := bouncer.err; {
	case err == nil:
		return bouncer.dsn
	case errors.Is(err, errNoPostgres) && os.Getenv("CI") != "true":
		t.Skip(err)
	default:
		t.Fatal(err)
	}
	return ""
}

// stopPgBouncer stops the test binary's PgBouncer, if it started one.
func stopPgBouncer() {
	bouncer.once.Do(func() { bouncer.err = errors.New("the test binary's PgBouncer was stopped before it was started") })
	if bouncer.stop != nil {
		bouncer.stop()
		bouncer.stop = nil
	}
}

// startPgBouncer starts PgBouncer in transaction mode in front of the
// server at serverDSN, trusting every connection from loopback as the
// server does, and returns its DSN and the function that stops it.
func startPgBouncer(serverDSN string) (dsn string, stop func(), err error) {
	bin, err := exec.LookPath("pgbouncer")
	if err != nil {
		if _, serr := os.Stat("/usr/sbin/pgbouncer"); serr != nil {
			return "", nil, fmt.Errorf("%w: no pgbouncer binary found: install it (Debian and Ubuntu: apt-get install pgbouncer) or set %s",
				errNoPostgres, EnvPgBouncer)
		}
		bin = "/usr/sbin/pgbouncer"
	}
	u, err := url.Parse(serverDSN)
	if err != nil {
		return "", nil, err
	}
	for range 3 { // a port found free may be taken before PgBouncer binds it
		dsn, stop, err = tryPgBouncer(bin, u)
		if err == nil {
			return dsn, stop, nil
		}
	}
	return "", nil, err
}

// tryPgBouncer starts PgBouncer once, in a new directory, on a port found
// free.
func tryPgBouncer(bin string, server *url.URL) (dsn string, stop func(), err error) {
	uid, gid, asUser, err := serverUser()
	if err != nil {
		return "", nil, err
	}
	dir, err := os.MkdirTemp("", "journal-pgbouncer-")
	if err != nil {
		return "", nil, err
	}
	fail := func(err error) (string, func(), error) {
		os.RemoveAll(dir)
		return "", nil, err
	}
	port, err := freeLoopbackPort()
	if err != nil {
		return fail(err)
	}
	user := server.User.Username()
	users := filepath.Join(dir, "userlist.txt")
	conf := filepath.Join(dir, "pgbouncer.ini")
	logFile := filepath.Join(dir, "pgbouncer.log")
	ini := fmt.Sprintf(`[databases]
* = host=%s port=%s

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = %d
unix_socket_dir =
auth_type = trust
auth_file = %s
pool_mode = transaction
max_client_conn = 1000
default_pool_size = 20
logfile = %s
ignore_startup_parameters = extra_float_digits
`, server.Hostname(), server.Port(), port, users, logFile)
	if err := os.WriteFile(users, []byte(strconv.Quote(user)+` ""`+"\n"), 0o644); err != nil {
		return fail(err)
	}
	if err := os.WriteFile(conf, []byte(ini), 0o644); err != nil {
		return fail(err)
	}
	if asUser {
		for _, f := range []string{dir, users, conf} {
			if err := os.Chown(f, uid, gid); err != nil {
				return fail(err)
			}
		}
	}
	cmd := exec.Command(bin, conf)
	if asUser {
		cmd = exec.Command("runuser", "-u", "postgres", "--", bin, conf)
	}
	setOwnGroup(cmd)
	if err := cmd.Start(); err != nil {
		return fail(err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	stop = func() {
		// SIGTERM, PgBouncer's immediate shutdown (SIGINT waits for its
		// clients), to the group: PgBouncer and runuser above it.
		terminate(cmd)
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			killGroup(cmd)
			<-done
		}
		os.RemoveAll(dir)
	}
	if !waitListening(port, done) {
		log, _ := os.ReadFile(logFile)
		stop()
		return "", nil, fmt.Errorf("pgbouncer did not start on 127.0.0.1:%d: %s", port, log)
	}
	dsn = (&url.URL{Scheme: "postgres", User: url.User(user), Host: "127.0.0.1:" + strconv.Itoa(port),
		Path: server.Path, RawQuery: server.RawQuery}).String()
	return dsn, stop, nil
}

// waitListening waits up to 10 s for a listener on the loopback port,
// giving up early when the process has ended (done closed).
func waitListening(port int, done <-chan struct{}) bool {
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-done:
			return false
		default:
		}
		c, err := net.DialTimeout("tcp", "127.0.0.1:"+strconv.Itoa(port), 100*time.Millisecond)
		if err == nil {
			c.Close()
			return true
		}
		time.Sleep(50 * time.Millisecond)
	}
	return false
}
