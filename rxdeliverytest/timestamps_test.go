package rxdeliverytest_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rxdelivery/rxdelivery-go/rxdeliverytest"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
	"github.com/rxdelivery/rxdelivery-go/tracking"
)

// TestManualClockStart: the manual clock starts at the documented
// DefaultStart, 2026-03-02T09:00:00Z, and at WithStartTime's time when
// given.
func TestManualClockStart(t *testing.T) {
	t.Parallel()
	assert.Equal(t, time.Date(2026, time.March, 2, 9, 0, 0, 0, time.UTC), rxdeliverytest.DefaultStart)
	assert.Equal(t, rxdeliverytest.DefaultStart, rxdeliverytest.Start(t).Now())
	at := time.Date(2030, time.June, 1, 12, 0, 0, 0, time.UTC)
	assert.True(t, at.Equal(rxdeliverytest.Start(t, rxdeliverytest.WithStartTime(at)).Now()))
}

// TestTimestampForms pins each timestamp form the simulator writes, as the
// package doc and docs/lifecycles.md list them: milliseconds and Z on omni
// created_at and on tracking; a -05:00 offset on omni occurred_at and on
// a delivery order's eta; microseconds and Z on status_note_updated_at;
// whole seconds and Z on a delivery order's occurred_at.
func TestTimestampForms(t *testing.T) {
	t.Parallel()
	srv := rxdeliverytest.Start(t)
	ctx := context.Background()
	var (
		millisZ  = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$`)
		microsZ  = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$`)
		secondsZ = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`)
		offset   = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d-05:00$`)
	)
	get := func(url string, std bool) map[string]any {
		t.Helper()
		req, err := http.NewRequest("GET", url, nil)
		require.NoError(t, err)
		key, secret := srv.Credentials()
		enc := base64.URLEncoding
		if std {
			enc = base64.StdEncoding
		}
		req.Header.Set("Authorization", "Basic "+enc.EncodeToString([]byte(key+":"+secret)))
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer res.Body.Close()
		require.Equal(t, http.StatusOK, res.StatusCode, url)
		var out map[string]any
		require.NoError(t, json.NewDecoder(res.Body).Decode(&out))
		return out
	}
	field := func(m map[string]any, path ...string) string {
		var v any = m
		for _, p := range path {
			v = v.(map[string]any)[p]
		}
		s, _ := v.(string)
		return s
	}

	req, err := srv.Client().Requests.Create(ctx, omniParams("", 0))
	require.NoError(t, err)
	require.NoError(t, srv.SetRequestOrderStatus(req.ID, rxtypes.OrderStatusSubmittedToCourier))
	require.NoError(t, srv.SetRequestOrderStatus(req.ID, rxtypes.OrderStatusPickedUp))
	r := get(srv.OmniURL()+"/api/v1/requests/"+req.ID, false)
	assert.Regexp(t, millisZ, field(r, "request", "created_at"))
	assert.Regexp(t, offset, field(r, "request", "order", "pickup", "occurred_at"))
	assert.Regexp(t, microsZ, field(r, "request", "order", "status_note_updated_at"))

	order, err := srv.Client().Orders.Create(ctx, rxdeliverytest.SamedayOrderParams())
	require.NoError(t, err)
	srv.Advance(2 * rxdeliverytest.DefaultOrderCadence) // submitted, then picked up
	o := get(srv.DeliveryURL()+"/api/v1/orders/"+order.ID, false)
	assert.Regexp(t, secondsZ, field(o, "order", "pickup", "occurred_at"))
	assert.Regexp(t, offset, field(o, "order", "eta", "arrival_at"))

	_, err = srv.Client().Tracking.Subscribe(ctx, &tracking.SubscribeParams{TrackingNumber: "9400111899223333444455", ListenerURL: "https://example.test/hook"})
	require.NoError(t, err)
	s := get(srv.TrackingURL()+"/tracking/v1/subscriptions?tracking_number=9400111899223333444455", true)
	assert.Regexp(t, millisZ, field(s, "subscribed_at"))
	assert.Regexp(t, millisZ, field(s, "updated_at"))
}
