package main

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/rxdelivery/rxdelivery-go/rxdeliverytest"
)

const cassetteCheckLong = `Check that each cassette FILE (a recording of a test's exchanges with the
platform, written by the test kit's Recorder) holds no value outside what its
fields allow: a field of patient data, a message, a credential or a field the
SDK does not know holds only a placeholder such as <patient.last_name#1>; an
identifier, status, time, amount, count or flag holds a value of its kind's
form; only the headers a recording keeps appear. Each value outside is
reported by its path in the file, never quoted.

Exit code 0 when every file passes, 1 when one fails the check or cannot be
read. Run it in CI over the cassettes committed with the tests; a cassette of
another version than the SDK's is reported with how to record it again
(RXDELIVERY_RECORD=1 go test -run <the test> <its package>).`

func (a *app) cassetteCommand() *cobra.Command {
	c := &cobra.Command{
		Use:   "cassette",
		Short: "Work with the test kit's recorded cassettes",
	}
	check := &cobra.Command{
		Use:     "check FILE...",
		Short:   "Prove that cassettes hold no patient value or credential",
		Long:    cassetteCheckLong,
		Example: "  rxdelivery cassette check testdata/cassettes/*.json",
		Args:    cobra.MinimumNArgs(1),
		RunE: func(_ *cobra.Command, files []string) error {
			failed := 0
			for _, name := range files {
				if err := checkCassetteFile(name); err != nil {
					failed++
					fmt.Fprintf(a.stdout, "FAIL %s: %s\n", printable(name), printableBlock(err.Error()))
					continue
				}
				fmt.Fprintf(a.stdout, "ok   %s\n", printable(name))
			}
			if failed > 0 {
				return fmt.Errorf("%d of %d cassettes failed the check", failed, len(files))
			}
			return nil
		},
	}
	c.AddCommand(check)
	return c
}

// checkCassetteFile checks one file. A file that cannot be read is named
// by the reason only (the operating system's error quotes the path, which
// the caller prints once).
func checkCassetteFile(name string) error {
	data, err := os.ReadFile(name)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			return fmt.Errorf("cannot read it: %v", pe.Err)
		}
		return fmt.Errorf("cannot read it: %v", err)
	}
	return rxdeliverytest.CheckCassette(data)
}

// printableBlock returns s with each line printable, keeping its line
// breaks.
func printableBlock(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = printable(l)
	}
	return strings.Join(lines, "\n")
}
