package tracking

import (
	"context"
	"net/http"

	"github.com/rxdelivery/rxdelivery-go/internal/core"
	"github.com/rxdelivery/rxdelivery-go/internal/wiring"
	"github.com/rxdelivery/rxdelivery-go/option"
)

// Service calls the tracking endpoints. Get one from rxdelivery.Client; it is
// safe for concurrent use.
//
// Every method takes per-call options as its trailing arguments
// (rxdelivery.WithRetryMax, WithAttemptTimeout, WithHeader, WithMetadata,
// WithMiddleware, ...): they apply to that call only.
type Service struct {
	b *core.Backend
}

func init() {
	wiring.Tracking = func(b *core.Backend) any { return &Service{b: b} }
}

// subscriptionsPath is the path of the subscription endpoints.
const subscriptionsPath = "/tracking/v1/subscriptions"

// Subscribe creates the subscription of a tracking number, or updates it
// when the tracking number is already subscribed (POST
// /tracking/v1/subscriptions). While the subscription is ENABLED the
// platform POSTs a Notification to p.ListenerURL whenever the tracking
// status changes; NewHandler serves that URL.
//
// Any 2xx answer is a success. The returned Subscription's Created field is
// true when the platform answered 201 Created. An answer without a body
// (204) gives an empty Subscription. Because the call is a
// create-or-update, it is retried like a read on 429, 5xx and transport
// failures.
func (s *Service) Subscribe(ctx context.Context, p *SubscribeParams, opts ...option.CallOption) (*Subscription, error) {
	if err := core.Check(s.b, p, (*SubscribeParams).validate); err != nil {
		return nil, core.Refused(opts, err)
	}
	var sub Subscription
	resp, err := s.b.Do(ctx, core.Call{Method: http.MethodPost, Path: subscriptionsPath, Body: p,
		Op: "tracking.Subscribe", Route: subscriptionsPath, Opts: core.CallOptions(opts)}, &sub)
	if err != nil {
		return nil, err
	}
	sub.Created = resp.StatusCode == http.StatusCreated
	return &sub, nil
}

// subscriptionQuery is the query of GetSubscription.
type subscriptionQuery struct {
	TrackingNumber string `url:"tracking_number"`
}

// GetSubscription returns the subscription of trackingNumber (GET
// /tracking/v1/subscriptions?tracking_number=...). Lookup is by tracking
// number only. When there is none, the error is an *rxdelivery.APIError
// with Code CodeNotFound that matches rxdelivery.ErrNotFound through
// errors.Is.
//
// An empty trackingNumber is refused with a *rxdelivery.ValidationError at
// path "tracking_number", even when validation is turned off; nothing is
// sent.
func (s *Service) GetSubscription(ctx context.Context, trackingNumber string, opts ...option.CallOption) (*Subscription, error) {
	if err := core.CheckID("tracking_number", trackingNumber); err != nil {
		return nil, core.Refused(opts, err)
	}
	q, err := core.Query(subscriptionQuery{TrackingNumber: trackingNumber})
	if err != nil {
		return nil, core.Refused(opts, &core.ConfigError{Message: "GET " + subscriptionsPath + ": encoding the query failed", Err: err})
	}
	var sub Subscription
	if _, err := s.b.Do(ctx, core.Call{Method: http.MethodGet, Path: subscriptionsPath, Query: q,
		Op: "tracking.GetSubscription", Route: subscriptionsPath, Opts: core.CallOptions(opts)}, &sub); err != nil {
		return nil, err
	}
	return &sub, nil
}
