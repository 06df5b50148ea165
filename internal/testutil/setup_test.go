package testutil_test

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"testing"
	"time"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/internal/testutil"
)

// TestServeAnswersAsAServerWould: Env.Serve's handler answers what no
// Expect takes, a HEAD gets its headers without a body, and a handler
// that waits for the request's context ends the call with the context's
// error; a responder of Expect still comes first.
func TestServeAnswersAsAServerWould(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t, rxdelivery.WithRetryMax(0))
	var mu sync.Mutex
	var methods []string
	env.Serve(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		methods = append(methods, r.Method)
		mu.Unlock()
		if r.URL.Path == "/stall" {
			<-r.Context().Done()
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Request-Id", "req_s1")
		_, _ = w.Write([]byte(`{"kept":true}`))
	}))
	rec := env.Expect("GET", testutil.OmniURL+"/expected", testutil.BytesResponder(200, []byte(`{"expected":true}`)))
	ctx := context.Background()
	do := func(ctx context.Context, method, path string, into any) error {
		return env.Client.Do(ctx, rxdelivery.Request{Interface: rxdelivery.Omni, Method: method, Path: path}, into)
	}

	var got map[string]bool
	if err := do(ctx, "GET", "/served", &got); err != nil || !got["kept"] {
		t.Errorf("GET: %v, %v", got, err)
	}
	got = nil
	if err := do(ctx, "GET", "/expected", &got); err != nil || !got["expected"] || len(rec.Requests()) != 1 {
		t.Errorf("Expect's responder: %v, %v", got, err)
	}
	var raw rxdelivery.RawResponse
	if err := env.Client.Do(ctx, rxdelivery.Request{Interface: rxdelivery.Omni, Method: "HEAD", Path: "/served"}, nil,
		rxdelivery.WithResponseInto(&raw)); err != nil || raw.Header.Get("X-Request-Id") != "req_s1" || len(raw.Body) != 0 {
		t.Errorf("HEAD: %+v, %v", raw, err)
	}
	stalled, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel()
	if err := do(stalled, "GET", "/stall", nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("a stalled call ended with %v, want the context's error", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if want := []string{"GET", "HEAD", "GET"}; len(methods) != len(want) {
		t.Errorf("the handler saw %v, want %v", methods, want)
	}
}
