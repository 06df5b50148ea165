// Command rxdelivery is the operator's command line for the
// prescription-delivery platform, over the rxdelivery-go SDK: every
// operation of the platform's interfaces (requests, orders, pharmacies,
// tracking, pricing), watching a delivery to its end, the local simulator
// (sandbox), the journal's runbook (journal) and a local receiver of
// tracking notifications (listen).
//
//	go install github.com/rxdelivery/rxdelivery-go/cmd/rxdelivery@latest
//	rxdelivery orders create -f order.yaml
//	rxdelivery orders watch ord_123
//
// It is a module of its own, so that programs using the SDK download none of
// its dependencies. It reads the same RXDELIVERY_* variables as
// rxdelivery.NewClientFromEnv; flags override the non-secret ones, and
// credentials come from the environment only. Tables are for people, --json
// for scripts; --dump writes a patient-safe transcript of each attempt
// (rxdelivery.WithTranscript) for the platform's support.
//
// # Exit codes
//
//	0  success
//	1  failure: network, platform unavailable, journal store
//	2  usage or configuration error: nothing was sent
//	3  invalid input (a file or a value breaking a rule): nothing was sent
//	4  not found
//	5  refused by the platform (such as a cancel after pickup)
//	6  unknown outcome of a write: it may have taken effect
//	7  another create of the reference is in flight: retry after its lease
//	130, 143  ended by an interrupt (SIGINT) or SIGTERM, after printing
//	   what it had; sandbox and listen, which serve until stopped, exit 0
//
// A panic is reported on one line, without its value or a stack, with
// exit code 1. Errors name the command's flags and RXDELIVERY_* variables;
// a problem with params given by flags is printed under the flag.
//
// A create from a file (JSON or YAML) is checked first: every problem is
// printed with its JSON path, no value of the file quoted, and nothing is
// sent. A write whose outcome is unknown says so and what to do next.
//
// Every command has --help with an example ('rxdelivery help orders create'
// says the same), showing its own flags first and the global ones, in
// groups, only where they apply; bare 'rxdelivery' shows the commands, and a
// mistyped one is answered with what it may have meant. 'rxdelivery
// version' (or --version; --json too) prints the version the modules are
// released under and the commit of the build. 'rxdelivery completion SHELL'
// prints a completion script for bash, zsh, fish or PowerShell.
package main

import (
	"context"
	"io"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	os.Exit(mainCode())
}

// mainCode runs the command with the process's arguments and streams.
func mainCode() int {
	return runProcess(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
}

// runProcess runs the command line args, ending its context when the
// process is interrupted or sent SIGTERM, with an *interrupted cause: the
// command prints what it has and exits 130 (SIGINT) or 143 (SIGTERM). A
// second signal ends the process at once.
func runProcess(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	go func() {
		select {
		case s := <-sigs:
			signal.Stop(sigs)
			cancel(&interrupted{sig: s})
		case <-ctx.Done():
		}
	}()
	return run(ctx, args, stdin, stdout, stderr)
}

// interrupted is the cause of a command's context ended by a signal.
type interrupted struct{ sig os.Signal }

func (e *interrupted) Error() string {
	if e.sig == syscall.SIGTERM {
		return "terminated (SIGTERM)"
	}
	return "interrupted (SIGINT)"
}

// exitCode is the shells' code of a process ended by the signal: 128 plus
// its number.
func (e *interrupted) exitCode() int {
	if s, ok := e.sig.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return 128 + int(syscall.SIGINT)
}
