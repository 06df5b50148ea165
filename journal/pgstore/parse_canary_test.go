package pgstore

import (
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
)

// TestParseReasonsCanary provokes pgx's refusal of connection strings and
// checks that parseError still finds each reason among pgx's words.
// pgx's ParseConfigError keeps its reason unexported, so parseError reads
// the text: the day pgx rewords one, this test fails instead of the
// refusal silently losing its reason.
func TestParseReasonsCanary(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ conn, reason string }{
		{"postgres://h/%zz", "failed to parse as URL"},
		{"host=h port", "failed to parse as keyword/value"},
		{"host=h port=abc", "invalid port"},
		{"host=h connect_timeout=abc", "invalid connect_timeout"},
		{"host=h sslmode=bogus", "failed to configure TLS"},
	} {
		_, err := pgconn.ParseConfig(c.conn)
		if err == nil {
			t.Errorf("%q: pgx parsed it", c.conn)
			continue
		}
		got := parseError(err).Error()
		if !strings.Contains(got, "("+c.reason+")") {
			t.Errorf("%q: pgx said %q; parseError said %q, not the reason %q", c.conn, err, got, c.reason)
		}
	}
}
