// Package wiring lets the root package build each service on the internal
// transport without the service packages exporting a constructor that
// takes an internal type, which no program outside the module could call.
//
// Each service package sets its constructor here in an init function; the
// root package imports the service packages, so their init functions have
// run before NewClient calls a constructor.
package wiring

import "github.com/rxdelivery/rxdelivery-go/internal/core"

// The services' constructors. Each returns the service as *S of its own
// package (*orders.Service for Orders, and so on).
var (
	// Requests builds a *requests.Service on the omni backend, sending
	// programID when a request leaves its identifier empty.
	Requests func(omni *core.Backend, programID string) any
	// Orders builds an *orders.Service on the delivery backend.
	Orders func(delivery *core.Backend) any
	// Pharmacies builds a *pharmacies.Service on the omni and delivery
	// backends.
	Pharmacies func(omni, delivery *core.Backend) any
	// Tracking builds a *tracking.Service on the tracking backend.
	Tracking func(tracking *core.Backend) any
	// Pricing builds a *pricing.Service on the pricing backend.
	Pricing func(pricing *core.Backend) any
)
