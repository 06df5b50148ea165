package pharmacies

import "github.com/rxdelivery/rxdelivery-go/internal/core"

// Service calls the pharmacy lookup endpoints of the omni interface and the
// delivery-information endpoint of the delivery interface. Get one from
// rxdelivery.Client; it is safe for concurrent use.
type Service struct {
	omni, delivery *core.Backend
}

// New returns a Service on the omni and delivery backends. It is meant for
// rxdelivery.NewClient; programs get a Service from the client.
func New(omni, delivery *core.Backend) *Service { return &Service{omni: omni, delivery: delivery} }
