package tracking_test

import (
	"bytes"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rxdelivery/rxdelivery-go/internal/testutil"
	"github.com/rxdelivery/rxdelivery-go/tracking"
)

func FuzzParseNotification(f *testing.F) {
	seeds, err := filepath.Glob(filepath.Join(testutil.Root(), "testdata", "tracking", "notification*.json"))
	if err != nil || len(seeds) == 0 {
		f.Fatalf("no seed fixtures: %v", err)
	}
	for _, s := range seeds {
		b, err := os.ReadFile(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{}`))
	f.Add([]byte(`{"tracking_number":"1","timestamp":1,"carrier":"POSTAL","status":"Accepted","status_occurred_at":"x"}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		r := httptest.NewRequest(http.MethodPost, "/hook", bytes.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		n, err := tracking.ParseNotification(r)
		if err != nil {
			var ne *tracking.NotificationError
			if !errors.As(err, &ne) {
				t.Fatalf("error is not a *NotificationError: %T", err)
			}
			if ne.StatusCode != http.StatusBadRequest && ne.StatusCode != http.StatusRequestEntityTooLarge {
				t.Fatalf("status %d for a POSTed JSON body", ne.StatusCode)
			}
			if n != nil {
				t.Fatal("a notification came with an error")
			}
			return
		}
		for name, v := range map[string]string{
			"tracking_number":    n.TrackingNumber,
			"timestamp":          n.Timestamp.Raw,
			"carrier":            string(n.Carrier),
			"status":             string(n.Status),
			"status_occurred_at": n.StatusOccurredAt.Raw,
		} {
			if strings.TrimSpace(v) == "" {
				t.Fatalf("accepted a notification without %s", name)
			}
		}
	})
}
