//go:build unix

package main

import (
	"io"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSandboxSIGTERMStopsCleanly: SIGTERM ends the sandbox with exit code 0.
// Not parallel: the signal goes to the whole test process, which only the
// command's handler may catch.
func TestSandboxSIGTERMStopsCleanly(t *testing.T) {
	var out syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- runProcess([]string{"sandbox", "--addr", "127.0.0.1:0"}, strings.NewReader(""), &out, io.Discard)
	}()
	for !strings.Contains(out.String(), "# interrupt") {
		select {
		case code := <-done:
			t.Fatalf("sandbox ended with exit code %d before serving", code)
		case <-time.After(5 * time.Millisecond):
		}
	}
	// runProcess has installed its handler before the sandbox printed: the
	// signal is caught, not fatal to the test process.
	if err := syscall.Kill(os.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case code := <-done:
		want(t, code, exitOK, "exit code after SIGTERM")
	case <-time.After(10 * time.Second):
		t.Fatal("SIGTERM did not stop the sandbox")
	}
}
