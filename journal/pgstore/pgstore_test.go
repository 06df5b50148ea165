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
// is refused without its password, or any other part of it, in any
// rendering of the error or of an error it wraps (pgx's own error keeps
// the string in a field, which %#v would print, and quotes it in its text
// hiding only the passwords it recognises). The strings include ones
// whose password pgx cannot find: text that is no connection string, a
// URL password with a space, an unterminated quote.
func TestOpenNeverShowsThePassword(t *testing.T) {
	t.Parallel()
	const password = "s3cret-Pa55"
	for _, dsn := range []string{
		"postgres://dbuser:" + password + "@db.example:notaport/journal",
		"host=db.example port=notaport user=dbuser password=" + password,
		"not a url " + password,
		password,
		"postgres://dbuser:" + password + " x@db.example/journal",
		"postgres://dbuser:" + password + "@[::1/journal",
		"password='" + password + " user=dbuser",
		"postgres://dbuser:" + password + "@db.example/journal?sslmode=" + password,
		"host=db.example target_session_attrs=" + password,
	} {
		_, err := pgstore.Open(context.Background(), dsn)
		if err == nil {
			t.Fatalf("Open(%q) succeeded", dsn)
		}
		for e := err; e != nil; e = errors.Unwrap(e) {
			for _, verb := range []string{"%v", "%+v", "%#v", "%q"} {
				out := fmt.Sprintf(verb, e)
				for _, part := range []string{password, "db.example", "dbuser"} {
					if strings.Contains(out, part) {
						t.Errorf("%s of %T shows %q of the connection string: %s", verb, e, part, out)
					}
				}
			}
		}
		if !strings.Contains(err.Error(), "connection string") {
			t.Errorf("Open = %v; want it to say the connection string is wrong", err)
		}
	}
}
