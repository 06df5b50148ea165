package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

// The tables show what an operator follows a delivery by: ids, statuses,
// references, times and carriers. Names, addresses and signatures (patient
// data) are in the --json form of the resource only. Each kind of
// resource's columns stand beside its commands.

// table writes rows under a header, columns aligned.
func table(w io.Writer, header string, rows [][]string) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, header)
	for _, r := range rows {
		for i := range r {
			r[i] = dash(strings.NewReplacer("\t", " ", "\n", " ").Replace(r[i]))
		}
		fmt.Fprintln(tw, strings.Join(r, "\t"))
	}
	tw.Flush()
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// when formats a platform time: RFC 3339 in UTC, or the text as sent.
func when(t rxtypes.Time) string {
	if t.Valid() {
		return t.UTC().Format(time.RFC3339)
	}
	return t.Raw
}

// columns is how one kind of resource prints as a table: the header (its
// column names, tab-separated) and the cells of one resource under it.
type columns[T any] struct {
	header string
	row    func(T) []string
}

// print writes list as a table, a row a resource.
func (c columns[T]) print(w io.Writer, list []T) {
	rows := make([][]string, 0, len(list))
	for _, v := range list {
		rows = append(rows, c.row(v))
	}
	table(w, c.header, rows)
}

// showOne prints one resource: a table of one row, or with --json the
// resource.
func showOne[T any](a *app, cols columns[T], v *T) error {
	if a.jsonOut {
		return a.printJSON(v)
	}
	cols.print(a.stdout, []T{*v})
	return nil
}

// showList prints a list of resources: a table, or with --json a JSON
// array.
func showList[T any](a *app, cols columns[T], list []T) error {
	if a.jsonOut {
		return a.printJSON(list)
	}
	cols.print(a.stdout, list)
	return nil
}

// done reports a write with no resource in its response: v with --json,
// otherwise a line of text.
func (a *app) done(v any, format string, args ...any) error {
	if a.jsonOut {
		return a.printJSON(v)
	}
	_, err := fmt.Fprintf(a.stdout, format, args...)
	return err
}
