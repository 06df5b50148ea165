package main

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync/atomic"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/spf13/cobra"
)

// A dry run (--dry-run, on every command that writes or POSTs) checks the
// input as the command would, builds the client and makes the call, whose
// request the SDK validates and transcribes (rxdelivery.WithTranscript:
// patient values replaced by placeholders, no credential) before handing
// it to the client's transport. The transport of a dry run is dryRun,
// which sends nothing: it stops every request before the network, and the
// command prints the transcript of what would have been sent and exits 0.
// A create's journal is not opened, and a cancel asks no confirmation.

// dryRun is the --dry-run of one command: whether it was given, and the
// transport and transcript of its call.
type dryRun struct {
	on         bool
	transcript bytes.Buffer
	stopped    atomic.Int32
}

// errDryRun is what a dry run's transport answers every request with.
var errDryRun = errors.New("dry run: not sent")

// RoundTrip stops r before the network: nothing is sent.
func (d *dryRun) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Body != nil {
		_ = r.Body.Close()
	}
	d.stopped.Add(1)
	return nil, errDryRun
}

// register gives cmd the --dry-run flag.
func (d *dryRun) register(cmd *cobra.Command) {
	cmd.Flags().BoolVar(&d.on, "dry-run", false, "check the input and print the transcript of the request it would send (patient values as placeholders); send nothing")
}

// wrap makes runE, a command's RunE, give its client the dry run's
// transport when --dry-run is given.
func (d *dryRun) wrap(a *app, runE func(*cobra.Command, []string) error) func(*cobra.Command, []string) error {
	return func(c *cobra.Command, args []string) error {
		if d.on {
			a.clientOpts = append(a.clientOpts, rxdelivery.WithHTTPClient(&http.Client{Transport: d}))
		}
		return runE(c, args)
	}
}

// callOptions are the options of the call of a dry run: its transcript,
// and no retry (the one attempt shows what would be sent). None without
// --dry-run.
func (d *dryRun) callOptions() []rxdelivery.CallOption {
	if !d.on {
		return nil
	}
	return []rxdelivery.CallOption{rxdelivery.WithTranscript(&d.transcript), rxdelivery.WithRetryMax(0)}
}

// report ends a dry run whose call returned err: when the call reached the
// transport (the request passed every check and would have been sent),
// the request's transcript is printed, with --json as the "transcript"
// of an object, and the dry run succeeds; otherwise err (the input or
// the configuration refused before anything would be sent) is returned.
func (d *dryRun) report(a *app, err error) error {
	if d.stopped.Load() == 0 {
		if err == nil {
			// A call that neither reached the transport nor failed: not
			// one of the SDK's, so say so rather than claim a dry run.
			return errors.New("dry run: the call made no request")
		}
		return err
	}
	// The request's part of the transcript; the response's part is the
	// transport's refusal.
	var b strings.Builder
	for _, line := range strings.SplitAfter(d.transcript.String(), "\n") {
		if !strings.HasPrefix(line, "< ") {
			b.WriteString(line)
		}
	}
	if a.jsonOut {
		return a.printJSON(map[string]any{"dry_run": true, "sent": false, "transcript": b.String()})
	}
	var out strings.Builder
	for _, line := range strings.SplitAfter(b.String(), "\n") {
		if line != "" {
			out.WriteString(printable(strings.TrimSuffix(line, "\n")) + "\n")
		}
	}
	out.WriteString("dry run: nothing was sent\n")
	_, err = io.WriteString(a.stdout, out.String())
	return err
}
