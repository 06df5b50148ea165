package tracking

import (
	"context"
	"net/http"

	"github.com/rxdelivery/rxdelivery-go/internal/core"
	"github.com/rxdelivery/rxdelivery-go/internal/wiring"
	"github.com/rxdelivery/rxdelivery-go/option"
)

// Service subscribes a tracking number to status notifications and reads
// its subscription: the tracking interface. A program gets it as
// client.Tracking; it is safe for concurrent use, and every method takes
// per-call options last (rxdelivery.CallOption).
type Service struct {
	b *core.Backend
}

func init() {
	wiring.Tracking = func(b *core.Backend) any { return &Service{b: b} }
}

// Subscribe creates the subscription of a tracking number, or updates it
// when the tracking number is already subscribed (POST
// /tracking/v1/subscriptions). While the subscription is ENABLED the
// platform POSTs a [Notification] to p.ListenerURL whenever the tracking
// status changes; [NewHandler] serves that URL.
//
// Any 2xx response is a success. The returned [Subscription]'s Created
// field is true when the platform responded 201 Created. A response without
// a body (204) gives an empty Subscription. Because the call is a
// create-or-update, it is retried like a read on 429, 5xx and transport
// failures.
func (s *Service) Subscribe(ctx context.Context, p *SubscribeParams, opts ...option.CallOption) (*Subscription, error) {
	var sub Subscription
	var status int
	if err := s.b.Execute(ctx, core.Request{Endpoint: core.TrackingSubscribe,
		Check: core.Params(p, (*SubscribeParams).validate), Body: p, Out: &sub, Status: &status, Opts: opts}); err != nil {
		return nil, err
	}
	sub.Created = status == http.StatusCreated
	return &sub, nil
}

// subscriptionQuery is the query of GetSubscription.
type subscriptionQuery struct {
	TrackingNumber string `url:"tracking_number"`
}

// GetSubscription returns the subscription of trackingNumber (GET
// /tracking/v1/subscriptions?tracking_number=...). Lookup is by tracking
// number only. When there is none, the error is an *rxdelivery.APIError
// with Code [CodeNotFound] that matches rxdelivery.ErrNotFound through
// [errors.Is].
//
// An empty trackingNumber is refused with a *rxdelivery.ValidationError at
// path "tracking_number", even when validation is turned off; nothing is
// sent.
func (s *Service) GetSubscription(ctx context.Context, trackingNumber string, opts ...option.CallOption) (*Subscription, error) {
	var sub Subscription
	if err := s.b.Execute(ctx, core.Request{Endpoint: core.TrackingGetSubscription,
		Check: func(core.Checks) error { return core.CheckID("tracking_number", trackingNumber) },
		Query: subscriptionQuery{TrackingNumber: trackingNumber}, Out: &sub, Opts: opts}); err != nil {
		return nil, err
	}
	return &sub, nil
}
