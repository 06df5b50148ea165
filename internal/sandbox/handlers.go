package sandbox

import "fmt"

// handlers maps each operation to the method that serves it: the
// generated Routes give each operation's interface, method and route, and
// New fails on an operation without a handler (or a handler without an
// operation). Each interface's file names its handlers, one line per
// endpoint, beside them: omniHandlers (omni.go), pharmacyHandlers
// (pharmacies.go), orderHandlers (orders.go), trackingHandlers
// (tracking.go), pricingHandlers (pricing.go). A new endpoint's handler is
// written in the file of its interface and named in its map there, so that
// the simulator's side of an endpoint is one file.
func (s *Sandbox) handlers() map[string]handlerFunc {
	all := map[string]handlerFunc{}
	for _, part := range []map[string]handlerFunc{
		s.omniHandlers(), s.pharmacyHandlers(), s.orderHandlers(), s.trackingHandlers(), s.pricingHandlers(),
	} {
		for op, h := range part {
			if _, dup := all[op]; dup {
				panic(fmt.Sprintf("sandbox: operation %s has two handlers", op))
			}
			all[op] = h
		}
	}
	return all
}
