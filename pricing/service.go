package pricing

import "github.com/rxdelivery/rxdelivery-go/internal/core"

// Service calls the pricing endpoints. Get one from rxdelivery.Client; it is
// safe for concurrent use.
type Service struct {
	b *core.Backend
}

// New returns a Service on backend b. It is meant for rxdelivery.NewClient;
// programs get a Service from the client.
func New(b *core.Backend) *Service { return &Service{b: b} }
