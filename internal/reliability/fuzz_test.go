package reliability_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"testing"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/internal/reliability"
	"github.com/rxdelivery/rxdelivery-go/internal/testutil"
	"github.com/rxdelivery/rxdelivery-go/tracking"
)

// FuzzDecodeSubscription decodes arbitrary bodies as a tracking
// subscription and as the answers of Subscribe and GetSubscription:
// nothing panics, a failure is a DecodeError, and a decoded subscription
// encodes again. (The tracking package fuzzes the notification parser.)
func FuzzDecodeSubscription(f *testing.F) {
	for _, b := range reliability.Fixtures(f, "tracking", "subscription*.json") {
		f.Add(b)
	}
	f.Add([]byte(`{"subscribed_at":17,"carrier":null,"subscription_status":["ENABLED"]}`))
	params := &tracking.SubscribeParams{TrackingNumber: "9400111899223344556677", ListenerURL: "https://pharmacy.example.com/hooks"}

	c, answer := reliability.AnsweringClient(f)
	f.Fuzz(func(t *testing.T, in []byte) {
		answer(in)
		ctx := context.Background()
		sub, err := c.Tracking.Subscribe(ctx, params)
		reliability.CheckDecoded(t, err, false)
		if err == nil {
			reliability.Reencodes(t, sub)
		}
		sub, err = c.Tracking.GetSubscription(ctx, params.TrackingNumber)
		reliability.CheckDecoded(t, err, false)
		if err == nil {
			reliability.Reencodes(t, sub)
		}
	})
}

// FuzzValidateSubscribeParams sets string fields of the valid subscribe
// fixtures to arbitrary values: Validate never panics, reports only a
// *ValidationError, and a value it accepts encodes as JSON with an https
// listener URL.
func FuzzValidateSubscribeParams(f *testing.F) {
	fixtures := reliability.Fixtures(f, "tracking", "subscribe_request*.json")
	reliability.AddValidateSeeds(f, len(fixtures))
	f.Add(uint8(0), uint16(1), "https://user:pw@example.com/x", uint16(0), "1Z")
	f.Add(uint8(0), uint16(1), "http://example.com/x", uint16(0), "1Z")
	f.Fuzz(func(t *testing.T, fixture uint8, i uint16, v string, j uint16, w string) {
		var p tracking.SubscribeParams
		if err := json.Unmarshal(fixtures[int(fixture)%len(fixtures)], &p); err != nil {
			t.Fatal(err)
		}
		reliability.SetStrings(&p, i, v, j, w)
		err := p.Validate()
		reliability.CheckValidated(t, &p, err)
		if err == nil && !strings.HasPrefix(p.ListenerURL, "https:") {
			t.Fatalf("accepted a listener URL that is not https")
		}
	})
}

// FuzzErrorAnswer answers a call with an arbitrary status outside 2xx and
// an arbitrary body (seeded with every error fixture): the error is always
// an *rxdelivery.APIError with that status, naming the endpoint, matching
// the status's sentinels, and keeping at most 4 KiB of the body.
func FuzzErrorAnswer(f *testing.F) {
	for _, dir := range []string{"delivery", "pricing", "tracking"} {
		for _, b := range reliability.Fixtures(f, dir, "error_*.json") {
			f.Add(uint16(400), b)
			f.Add(uint16(503), b)
		}
	}
	for _, b := range reliability.Fixtures(f, "omni", "request_error_*.json") {
		f.Add(uint16(422), b)
	}
	f.Add(uint16(429), []byte(`{"error":{"id":12,"type":["x"],"message":null}}`))

	var (
		status int
		body   []byte
	)
	env := testutil.Setup(f, rxdelivery.WithRetryMax(0))
	c, mock := env.Client, env.Mock
	mock.RegisterNoResponder(func(*http.Request) (*http.Response, error) {
		return testutil.BytesResponder(status, body)(nil)
	})
	f.Fuzz(func(t *testing.T, code uint16, in []byte) {
		status, body = 300+int(code)%300, in
		_, err := c.Orders.Get(context.Background(), "ord_1")
		var ae *rxdelivery.APIError
		if !errors.As(err, &ae) {
			t.Fatalf("status %d gave %T: %v", status, err, err)
		}
		if ae.StatusCode != status || len(ae.Body) > 4<<10 {
			t.Fatalf("status %d, body of %d bytes kept", ae.StatusCode, len(ae.Body))
		}
		msg := err.Error()
		if !strings.Contains(msg, "GET /api/v1/orders/ord_1") || !strings.Contains(msg, strconv.Itoa(status)) {
			t.Fatalf("the error does not name the endpoint and status: %q", msg)
		}
		sentinels := map[error]bool{
			rxdelivery.ErrNotFound:     status == http.StatusNotFound,
			rxdelivery.ErrRateLimited:  status == http.StatusTooManyRequests,
			rxdelivery.ErrUnauthorized: status == http.StatusUnauthorized,
			rxdelivery.ErrForbidden:    status == http.StatusForbidden,
			rxdelivery.ErrUnavailable:  status == 502 || status == 503 || status == 504,
			rxdelivery.ErrBadRequest:   status == 400 || status == 422,
		}
		for s, want := range sentinels {
			if errors.Is(err, s) != want {
				t.Fatalf("status %d: errors.Is(%v) = %v", status, s, !want)
			}
		}
		if errors.Is(err, rxdelivery.ErrUnknownOutcome) {
			t.Fatal("a read has no unknown outcome")
		}
	})
}
