package pgstore_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/rxdelivery/rxdelivery-go/journal/pgstore"
)

// TestOpenNeverShowsThePassword: a connection string that does not parse
// is refused without its password in any rendering of the error or of an
// error it wraps (pgx's own error keeps the string in a field, which %#v
// would print).
func TestOpenNeverShowsThePassword(t *testing.T) {
	t.Parallel()
	const password = "s3cret-Pa55"
	for _, dsn := range []string{
		"postgres://journal:" + password + "@db.example:notaport/journal",
		"host=db.example port=notaport user=journal password=" + password,
	} {
		_, err := pgstore.Open(context.Background(), dsn)
		if err == nil {
			t.Fatalf("Open(%q) succeeded", dsn)
		}
		for e := err; e != nil; e = errors.Unwrap(e) {
			for _, verb := range []string{"%v", "%+v", "%#v", "%q"} {
				if out := fmt.Sprintf(verb, e); strings.Contains(out, password) {
					t.Errorf("%s of %T shows the password: %s", verb, e, out)
				}
			}
		}
		if !strings.Contains(err.Error(), "connection string") {
			t.Errorf("Open = %v; want it to say the connection string is wrong", err)
		}
	}
}
