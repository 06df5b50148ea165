package main

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/internal/fullsuite"
	"github.com/rxdelivery/rxdelivery-go/journal/journaltest"
	"github.com/rxdelivery/rxdelivery-go/rxdeliverytest"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
	"github.com/rxdelivery/rxdelivery-go/tracking"
)

// TestMain makes the test binary the rxdelivery command when a script runs
// it, so that the scripts drive the built command, process and exit code
// included.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"rxdelivery": func() { os.Exit(mainCode()) },
	})
}

// simKey is where a script's simulator is kept in its Env.Values.
type simKey struct{}

// TestScripts runs the transcripts in testdata/script, each against a
// simulator of its own (the public test kit, on its manual clock, trusting
// the self-signed certificate of a listener on loopback), whose RXDELIVERY_*
// lines are the script's environment.
func TestScripts(t *testing.T) {
	t.Parallel()
	// The journal's PostgreSQL: JOURNAL_TEST_POSTGRES_DSN's, else a
	// throwaway server from the installed binaries. Without them, or
	// outside the whole suite (RXDELIVERY_FULL=1, set by .ci/run), the
	// subtest skips (fails in CI) and the scripts' [postgres] parts with it.
	var dsn string
	t.Run("postgres", func(t *testing.T) {
		fullsuite.Require(t, "the scripts' PostgreSQL parts")
		dsn = journaltest.PostgresDSN(t)
	})
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			srv := rxdeliverytest.NewServer(rxdeliverytest.WithListenerClient(notifyClient(true)))
			env.Defer(srv.Close)
			for _, line := range srv.EnvLines(true) {
				k, v, _ := strings.Cut(line, "=")
				env.Setenv(k, v)
			}
			env.Setenv("RXDELIVERY_PROGRAM_ID", rxdeliverytest.DefaultProgramID)
			// The journal's PostgreSQL, when the tests have one; RUN makes a
			// script's references its own in a database other runs share.
			env.Setenv(envDSN, dsn)
			env.Setenv("RUN", strconv.FormatInt(time.Now().UnixNano(), 36))
			env.Values[simKey{}] = srv
			return nil
		},
		Condition: func(cond string) (bool, error) {
			if cond == "postgres" {
				return dsn != "", nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"rxd":     cmdRxd,
			"sim":     cmdSim,
			"loadenv": cmdLoadenv,
			"capture": cmdCapture,
			"expand":  cmdExpand,
			// The journal's scripts: printed command lines, calls in flight.
			"runprinted": cmdRunPrinted,
			"waitcalls":  cmdWaitCalls,
			"signal":     cmdSignal,
		},
	})
}

// cmdRxd runs the command and checks its exit code:
//
//	rxd CODE ARGS...
func cmdRxd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 1 {
		ts.Fatalf("usage: rxd CODE ARGS...")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("rxd: exit code %q: %v", args[0], err)
	}
	err = ts.Exec("rxdelivery", args[1:]...)
	got := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		got = ee.ExitCode()
	case err != nil:
		ts.Fatalf("rxd: %v", err)
	}
	if got != want {
		ts.Fatalf("rxdelivery %s: exit code %d, want %d", strings.Join(args[1:], " "), got, want)
	}
}

// cmdSim drives and checks the script's simulator:
//
//	sim advance DURATION
//	sim fail OPERATION KIND [TIMES]    (KIND: committed_then_failed, server_error, unavailable, stall, status=NNN)
//	sim calls OPERATION N              (the simulator received N calls of OPERATION)
//	sim order-status ID STATUS
//	sim request-status ID STATUS
//	sim tracking-number ORDER_ID VAR   (sets $VAR to the order's tracking number)
//	sim track TRACKING_NUMBER STATUS   (a tracking event, notified to the listener)
//	sim wait-subscribed TRACKING_NUMBER
//	sim empty-quotes
func cmdSim(ts *testscript.TestScript, neg bool, args []string) {
	srv := ts.Value(simKey{}).(*rxdeliverytest.Server)
	if neg || len(args) == 0 {
		ts.Fatalf("usage: sim COMMAND ARGS...")
	}
	need := func(n int) {
		if len(args) != n+1 {
			ts.Fatalf("sim %s: want %d arguments", args[0], n)
		}
	}
	switch args[0] {
	case "advance":
		need(1)
		d, err := time.ParseDuration(args[1])
		ts.Check(err)
		srv.Advance(d)
	case "fail":
		if len(args) != 3 && len(args) != 4 {
			ts.Fatalf("usage: sim fail OPERATION KIND [TIMES]")
		}
		times := 1
		if len(args) == 4 {
			var err error
			times, err = strconv.Atoi(args[3])
			ts.Check(err)
		}
		var f rxdeliverytest.Fault
		switch kind := args[2]; {
		case kind == "committed_then_failed":
			f = rxdeliverytest.CommittedThenFailed()
		case kind == "server_error":
			f = rxdeliverytest.ServerError()
		case kind == "unavailable":
			f = rxdeliverytest.Unavailable(0)
		case kind == "stall":
			f = rxdeliverytest.Stall()
		case strings.HasPrefix(kind, "status="):
			code, err := strconv.Atoi(strings.TrimPrefix(kind, "status="))
			ts.Check(err)
			f = rxdeliverytest.StatusError(code)
		default:
			ts.Fatalf("sim fail: unknown kind %q", kind)
		}
		srv.FailNext(rxdeliverytest.Operation(args[1]), times, f)
	case "calls":
		need(2)
		want, err := strconv.Atoi(args[2])
		ts.Check(err)
		if got := len(srv.CallsTo(rxdeliverytest.Operation(args[1]))); got != want {
			ts.Fatalf("%s: %d calls, want %d", args[1], got, want)
		}
	case "order-status":
		need(2)
		ts.Check(srv.SetOrderStatus(args[1], rxtypes.OrderStatus(args[2])))
	case "request-status":
		need(2)
		ts.Check(srv.SetRequestOrderStatus(args[1], rxtypes.OrderStatus(args[2])))
	case "tracking-number":
		need(2)
		tn, ok := srv.TrackingNumber(args[1])
		if !ok {
			ts.Fatalf("order %s has no tracking number", args[1])
		}
		ts.Setenv(args[2], tn)
	case "track":
		need(2)
		srv.Track(args[1], tracking.TrackingStatus(args[2]))
	case "wait-subscribed":
		need(1)
		for range 1000 {
			if _, ok := srv.SubscriptionStatus(args[1]); ok {
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
		ts.Fatalf("%s was not subscribed", args[1])
	case "empty-quotes":
		need(0)
		srv.SetEmptyQuotes(true)
	default:
		ts.Fatalf("sim: unknown command %q", args[0])
	}
}

// cmdLoadenv waits for a file of "export NAME=value" lines (as
// 'rxdelivery sandbox --env-file' writes it) and sets them in the script's
// environment:
//
//	loadenv FILE
func cmdLoadenv(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: loadenv FILE")
	}
	path := ts.MkAbs(args[0])
	var f *os.File
	for range 1000 {
		var err error
		if f, err = os.Open(path); err == nil {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if f == nil {
		ts.Fatalf("%s did not appear", args[0])
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(strings.TrimPrefix(sc.Text(), "export "), "=")
		if ok {
			ts.Setenv(k, v)
		}
	}
	ts.Check(sc.Err())
}

// cmdCapture sets $VAR to the first group of the first match of REGEXP in
// the last command's standard output:
//
//	capture VAR REGEXP
func cmdCapture(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: capture VAR REGEXP")
	}
	re, err := regexp.Compile("(?m)" + args[1])
	ts.Check(err)
	m := re.FindStringSubmatch(ts.ReadFile("stdout"))
	if len(m) < 2 {
		ts.Fatalf("capture: no match for %q in stdout", args[1])
	}
	ts.Setenv(args[0], m[1])
}

// cmdExpand replaces $NAME and ${NAME} in a file by the script's
// environment:
//
//	expand FILE
func cmdExpand(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: expand FILE")
	}
	path := ts.MkAbs(args[0])
	b, err := os.ReadFile(path)
	ts.Check(err)
	ts.Check(os.WriteFile(path, []byte(os.Expand(string(b), ts.Getenv)), 0o600))
}

// cmdSignal runs the built command as a process of its own, waits until
// its standard output or error matches REGEXP, sends it the signal (INT or
// TERM), and checks its exit code; its output is the script's stdout and
// stderr, for the checks that follow:
//
//	signal CODE SIGNAL REGEXP ARGS...
func cmdSignal(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 4 {
		ts.Fatalf("usage: signal CODE INT|TERM REGEXP ARGS...")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	sig := map[string]syscall.Signal{"INT": syscall.SIGINT, "TERM": syscall.SIGTERM}[args[1]]
	if sig == 0 {
		ts.Fatalf("signal: unknown signal %q", args[1])
	}
	ready, err := regexp.Compile("(?m)" + args[2])
	ts.Check(err)
	bin, err := exec.LookPath("rxdelivery")
	ts.Check(err)
	cmd := exec.Command(bin, args[3:]...)
	cmd.Dir = ts.MkAbs(".")
	cmd.Env = scriptEnv(ts)
	var out, errOut syncBuffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	ts.Check(cmd.Start())
	deadline := time.Now().Add(20 * time.Second)
	for !ready.MatchString(out.String()) && !ready.MatchString(errOut.String()) {
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			ts.Fatalf("signal: no match for %q; stdout %q, stderr %q", args[2], out.String(), errOut.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	ts.Check(cmd.Process.Signal(sig))
	err = cmd.Wait()
	got := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		got = ee.ExitCode()
	case err != nil:
		ts.Fatalf("signal: %v", err)
	}
	fmt.Fprint(ts.Stdout(), out.String())
	fmt.Fprint(ts.Stderr(), errOut.String())
	if got != want {
		ts.Fatalf("rxdelivery %s after SIG%s: exit code %d, want %d; stderr %q", strings.Join(args[3:], " "), args[1], got, want, errOut.String())
	}
}

// scriptEnv is the environment a script's commands run with: the
// process's, with PATH, HOME and every RXDELIVERY_* and journal variable
// as the script has them.
func scriptEnv(ts *testscript.TestScript) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if !strings.HasPrefix(k, "RXDELIVERY_") && k != envDSN && k != "PATH" && k != "HOME" {
			env = append(env, kv)
		}
	}
	for _, k := range []string{"PATH", "HOME", envDSN, rxdelivery.EnvAPIKey, rxdelivery.EnvAPISecret, rxdelivery.EnvOmniURL,
		rxdelivery.EnvDeliveryURL, rxdelivery.EnvTrackingURL, rxdelivery.EnvPricingURL, rxdelivery.EnvSandbox, rxdelivery.EnvProgramID} {
		env = append(env, k+"="+ts.Getenv(k))
	}
	return env
}
