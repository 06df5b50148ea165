package journal_test

import (
	"os"
	"strings"
	"testing"
)

// TestTheSDKModuleNeedsNoDriver checks the promise that makes the journal a
// module of its own: a program that uses the SDK without the journal
// downloads no database driver, because the SDK's go.mod names none.
func TestTheSDKModuleNeedsNoDriver(t *testing.T) {
	t.Parallel()
	root, err := os.ReadFile("../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	own, err := os.ReadFile("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	for _, driver := range []string{"github.com/jackc/pgx", "modernc.org/sqlite", "modernc.org/libc"} {
		if !strings.Contains(string(own), driver) {
			t.Errorf("the journal's go.mod does not name %s: is this test still checking the right modules?", driver)
		}
		if strings.Contains(string(root), driver) {
			t.Errorf("the SDK's go.mod names %s: programs that do not use the journal would download it", driver)
		}
	}
}
