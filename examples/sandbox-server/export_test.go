package main

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// shellValues runs script in sh, then reads names in a child process of
// that shell, so that only exported variables are seen; it returns their
// values in order.
func shellValues(t *testing.T, script string, names ...string) []string {
	t.Helper()
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no POSIX shell on this machine")
	}
	read := `printf '%s\0'`
	for _, n := range names {
		read += ` "$` + n + `"`
	}
	full := script + "\nexec sh -c '" + strings.ReplaceAll(read, "'", `'\''`) + "'\n"
	out, err := exec.Command(sh, "-c", full).Output()
	require.NoError(t, err, "script:\n%s", full)
	vals := strings.Split(string(out), "\x00")
	require.Len(t, vals, len(names)+1, "output %q", out)
	return vals[:len(names)]
}

// TestExportLinesRunInShell: what the server prints can be pasted into a
// shell as it is, and exports every variable with exactly its value, even
// credentials full of characters a shell would otherwise interpret.
// Printing NAME=value lines (as before) fails it: a shell keeps such a
// variable to itself, and a quote or $ in the value breaks or changes it.
func TestExportLinesRunInShell(t *testing.T) {
	t.Parallel()
	key := `k'ey $HOME "quoted" ` + "`id` ~ \\ ; & |"
	secret := "se'cr'et, * ? [a] $(id) 'é'"
	ctx, cancel := context.WithCancel(context.Background())
	var out syncBuffer
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-addr", "127.0.0.1:0", "-key", key, "-secret", secret, "-manual-clock"}, &out)
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			assert.NoError(t, err)
		case <-time.After(10 * time.Second):
			t.Error("run did not return after cancel")
		}
	})
	require.Eventually(t, func() bool { return strings.Contains(out.String(), "# interrupt") }, 10*time.Second, 5*time.Millisecond)
	printed := out.String()
	for _, line := range strings.Split(strings.TrimSpace(printed), "\n") {
		if !strings.HasPrefix(line, "#") && !strings.HasPrefix(line, "export RXDELIVERY_") {
			t.Errorf("line %q is neither a comment nor an export", line)
		}
	}

	names := []string{"RXDELIVERY_API_KEY", "RXDELIVERY_API_SECRET", "RXDELIVERY_OMNI_URL",
		"RXDELIVERY_DELIVERY_URL", "RXDELIVERY_TRACKING_URL", "RXDELIVERY_PRICING_URL", "RXDELIVERY_SANDBOX"}
	got := shellValues(t, printed, names...)
	assert.Equal(t, key, got[0])
	assert.Equal(t, secret, got[1])
	base := strings.TrimSuffix(got[2], "/omni")
	assert.True(t, strings.HasPrefix(base, "http://127.0.0.1:"), "omni URL %q", got[2])
	assert.Equal(t, []string{base + "/omni", base + "/delivery", base + "/tracking", base + "/pricing", "true"}, got[2:])
}

// TestShellQuote: every value comes back from sh unchanged, and a value
// of safe characters only is printed without quotes.
func TestShellQuote(t *testing.T) {
	t.Parallel()
	values := []string{"", "plain", "http://127.0.0.1:8787/omni", "a=b,c+d@e%f",
		"'", "''", "it's", `"`, "$x", "${x}", "$(id)", "`id`", "~", "a~b", "a:~", "\\", "\\'",
		"a b", "\t", "\n", "line\nline", "*", "?", "[a]", "#x", "a#x", ";", "&", "|", "<", ">", "!", "é"}
	script := ""
	names := make([]string, len(values))
	for i, v := range values {
		names[i] = "V" + strings.Repeat("x", i)
		script += exportLine(names[i]+"="+v) + "\n"
	}
	assert.Equal(t, values, shellValues(t, script, names...))
	assert.Equal(t, "export A=http://127.0.0.1:8787/omni", exportLine("A=http://127.0.0.1:8787/omni"))
	assert.Equal(t, `export A='it'\''s'`, exportLine("A=it's"))
}
