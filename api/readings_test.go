// Package api_test checks the OpenAPI documents of the platform's
// interfaces in this directory against each other and against the SDK.
package api_test

import (
	"bufio"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// readingMarks returns each x-rxdelivery-reading name in the documents with
// the files that carry it.
func readingMarks(t *testing.T) map[string][]string {
	t.Helper()
	files, err := filepath.Glob("*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no documents: %v", err)
	}
	marks := map[string][]string{}
	for _, f := range files {
		for _, line := range readLines(t, f) {
			k, v, ok := strings.Cut(strings.TrimSpace(line), ":")
			if ok && k == "x-rxdelivery-reading" {
				name := strings.TrimSpace(v)
				marks[name] = append(marks[name], f)
			}
		}
	}
	return marks
}

// readingRows returns the names in the first column of READINGS.md's table.
func readingRows(t *testing.T) []string {
	t.Helper()
	var rows []string
	for _, line := range readLines(t, "READINGS.md") {
		if !strings.HasPrefix(line, "| ") {
			continue
		}
		name := strings.TrimSpace(strings.Split(line, "|")[1])
		if name == "name" {
			continue
		}
		rows = append(rows, name)
	}
	return rows
}

func readLines(t *testing.T, name string) []string {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return lines
}

// TestReadingsListed checks that every reading marked in the documents has
// its row in READINGS.md and every row its mark, each row once.
func TestReadingsListed(t *testing.T) {
	t.Parallel()
	marks := readingMarks(t)
	rows := readingRows(t)
	seen := map[string]bool{}
	for _, r := range rows {
		if seen[r] {
			t.Errorf("READINGS.md lists %q twice", r)
		}
		seen[r] = true
		if _, ok := marks[r]; !ok {
			t.Errorf("READINGS.md lists %q, which no document marks", r)
		}
	}
	for m, files := range marks {
		if !seen[m] {
			t.Errorf("%s mark the reading %q, which READINGS.md does not list", strings.Join(slices.Compact(files), ", "), m)
		}
	}
}
