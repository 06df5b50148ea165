package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recorded is a cassette the test kit recorded against rxdelivery sandbox.
var recorded = filepath.Join("..", "..", "rxdeliverytest", "testdata", "cassettes", "sameday.json")

func checkCassettes(t *testing.T, files ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(context.Background(), append([]string{"cassette", "check"}, files...), strings.NewReader(""), &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestCassetteCheckPassesARecordedCassette(t *testing.T) {
	t.Parallel()
	code, out, errOut := checkCassettes(t, recorded)
	if code != exitOK || !strings.HasPrefix(out, "ok   ") || errOut != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

func TestCassetteCheckFailsOnAValuePutBack(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(recorded)
	if err != nil {
		t.Fatal(err)
	}
	const name = "Vandersloot"
	edited := strings.Replace(string(data), `"<patient.last_name#1>"`, `"`+name+`"`, 1)
	if edited == string(data) {
		t.Fatal("no placeholder to put a name back in")
	}
	dir := t.TempDir()
	bad := filepath.Join(dir, "edited.json")
	if err := os.WriteFile(bad, []byte(edited), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := checkCassettes(t, recorded, bad, filepath.Join(dir, "missing.json"))
	if code != exitFailure {
		t.Errorf("exit %d, want %d", code, exitFailure)
	}
	for _, want := range []string{"ok   ", "FAIL " + bad, "exchanges[0].request.body.patient.last_name: a patient field that holds a value", "FAIL " + filepath.Join(dir, "missing.json") + ": cannot read it"} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(errOut, "2 of 3 cassettes failed the check") {
		t.Errorf("stderr %q", errOut)
	}
	if strings.Contains(out+errOut, name) {
		t.Error("the check quotes the value it found")
	}
}

func TestCassetteCheckWantsAFile(t *testing.T) {
	t.Parallel()
	if code, _, _ := checkCassettes(t); code != exitUsage {
		t.Errorf("exit %d, want %d", code, exitUsage)
	}
}
