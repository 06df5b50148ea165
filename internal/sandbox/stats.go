package sandbox

import (
	"crypto/sha256"
	"encoding/hex"
	"sort"
	"strings"
	"time"
)

// Stats is a snapshot of what the sandbox has seen, for tests.
type Stats struct {
	// RequestsCreated counts omni requests created.
	RequestsCreated int
	// RequestsCancelled counts successful omni cancels (204).
	RequestsCancelled int
	// OrdersCreated counts delivery orders created.
	OrdersCreated int
	// OrdersCancelled counts successful delivery order cancels (204).
	OrdersCancelled int
	// SubscriptionsCreated and SubscriptionsUpdated count tracking
	// subscribe calls answered 201 and 200.
	SubscriptionsCreated, SubscriptionsUpdated int
	// QuotesServed counts pricing quote calls answered 200.
	QuotesServed int
	// FaultsApplied counts calls an injected fault applied to.
	FaultsApplied int

	// CreateBodies counts successful creates (omni requests and delivery
	// orders) per exact body: the key is the interface name, a space and the
	// SHA-256 of the body in hex. A count above 1 means the same create was
	// received and carried out more than once.
	CreateBodies map[string]int
	// DuplicateCreates counts creates whose exact body had already created
	// something.
	DuplicateCreates int

	// Calls lists the calls received, oldest first (capped by
	// Config.MaxCalls). A call is listed as soon as its request has been
	// read, before any fault delays, withholds or cuts its response, so a
	// call the client gave up on is listed too; its Status is filled when
	// the status is written, before any byte of the response reaches the
	// client.
	Calls []Call
	// CallCounts counts the calls received per operation ("" for a call
	// no route matched), every one of them since New or ResetStats: it
	// keeps counting past the MaxCalls bound of Calls.
	CallCounts map[string]int
	// Notifications lists the tracking notification deliveries attempted,
	// oldest first.
	Notifications []NotificationAttempt
}

// Call is one HTTP call the sandbox served.
type Call struct {
	// Interface is the interface the path belongs to ("" for an unknown
	// prefix).
	Interface Interface
	// Operation names the endpoint, such as "orders.Create" (see
	// Operations); "" when no route matched.
	Operation string
	// Method is the HTTP method.
	Method string
	// Path is the request path, without the query.
	Path string
	// Query is the raw query string ("" when none).
	Query string
	// Body is the request body as received (nil when none). The record
	// never holds a header, so no credential is in it.
	Body []byte
	// Route is the matched route template with the interface prefix, such
	// as "/delivery/api/v1/orders/{id}", or "(unknown)".
	Route string
	// Status is the status answered; 0 when the connection was dropped,
	// or while the response has not been written yet (a stalled call).
	Status int
	// Fault names the injected fault applied ("" when none): Fault.Name
	// when set, else its kind's name, with "_after" for a fault applied
	// after the call was carried out, such as "rate_limit" or "cut_after".
	Fault string
	// ReceivedAt is the wall-clock time (time.Now, monotonic reading
	// included) at which the sandbox began serving the call, once its
	// headers were read and before its body was. Durations between two
	// calls' ReceivedAt are real elapsed time, whatever the sandbox clock.
	ReceivedAt time.Time
	// SimulatedAt is the sandbox clock's time (UTC) at the same moment:
	// the time the call's timestamps and transitions are measured on.
	SimulatedAt time.Time
}

// NotificationAttempt is one tracking notification the sandbox tried to
// deliver.
type NotificationAttempt struct {
	// TrackingNumber is the subscription's tracking number.
	TrackingNumber string
	// Status is the tracking status notified.
	Status string
	// ListenerURL is where the notification was sent.
	ListenerURL string
	// StatusCode is the listener's answer, 0 when there was none.
	StatusCode int
	// Err describes a transport failure or an invalid URL ("" when the
	// listener answered).
	Err string
	// At is the notification's timestamp on the sandbox clock.
	At time.Time
}

// CallsTo counts the calls with the given method ("" for any) whose path
// starts with pathPrefix.
func (st Stats) CallsTo(method, pathPrefix string) int {
	n := 0
	for _, c := range st.Calls {
		if (method == "" || strings.EqualFold(method, c.Method)) && strings.HasPrefix(c.Path, pathPrefix) {
			n++
		}
	}
	return n
}

// Stats returns a copy of the sandbox's counters and logs.
func (s *Sandbox) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.stats
	st.CreateBodies = make(map[string]int, len(s.stats.CreateBodies))
	for k, v := range s.stats.CreateBodies {
		st.CreateBodies[k] = v
	}
	st.Notifications = append([]NotificationAttempt(nil), s.stats.Notifications...)
	s.callsMu.Lock()
	st.Calls = make([]Call, len(s.calls))
	for i, c := range s.calls {
		st.Calls[i] = *c
	}
	s.callsMu.Unlock()
	st.CallCounts = s.CallCounts()
	return st
}

// CallCounts returns Stats().CallCounts without copying the record.
func (s *Sandbox) CallCounts() map[string]int {
	s.callsMu.Lock()
	defer s.callsMu.Unlock()
	out := make(map[string]int, len(s.callCounts))
	for op, n := range s.callCounts {
		out[op] = n
	}
	return out
}

// ResetStats zeroes the counters and empties the logs; the sandbox's
// resources (requests, orders, subscriptions) stay.
func (s *Sandbox) ResetStats() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stats = Stats{CreateBodies: map[string]int{}}
	s.callsMu.Lock()
	s.calls = nil
	s.callCounts = nil
	s.callsMu.Unlock()
}

// recordCreateLocked counts a successful create of body. The caller holds
// s.mu.
func (s *Sandbox) recordCreateLocked(iface Interface, body []byte) {
	sum := sha256.Sum256(body)
	key := string(iface) + " " + hex.EncodeToString(sum[:])
	s.stats.CreateBodies[key]++
	if s.stats.CreateBodies[key] > 1 {
		s.stats.DuplicateCreates++
	}
}

// recordCall adds a received call to the record, with Status 0 until
// setStatus fills it, and returns it. It is called as soon as the request
// has been read, possibly with s.mu held, so it uses its own lock.
func (s *Sandbox) recordCall(c Call) *Call {
	rec := &c
	s.callsMu.Lock()
	defer s.callsMu.Unlock()
	if s.callCounts == nil {
		s.callCounts = map[string]int{}
	}
	s.callCounts[c.Operation]++
	s.calls = append(s.calls, rec)
	if over := len(s.calls) - s.maxCalls; s.maxCalls > 0 && over > 0 {
		s.calls = s.calls[over:]
	}
	return rec
}

// setStatus records the status answered to rec (0 for a dropped
// connection) and logs the call.
func (s *Sandbox) setStatus(rec *Call, status int) {
	s.callsMu.Lock()
	rec.Status = status
	c := *rec
	s.callsMu.Unlock()
	if s.logger != nil {
		s.logger.Info("sandbox call", "interface", string(c.Interface), "operation", c.Operation, "method", c.Method, "route", c.Route, "status", c.Status, "fault", c.Fault)
	}
}

// recordNotificationLocked logs a notification attempt. The caller holds
// s.mu.
func (s *Sandbox) recordNotificationLocked(a NotificationAttempt) {
	s.stats.Notifications = append(s.stats.Notifications, a)
	if over := len(s.stats.Notifications) - s.maxCalls; s.maxCalls > 0 && over > 0 {
		s.stats.Notifications = s.stats.Notifications[over:]
	}
}

// Resource is the state of one omni request or delivery order, for tests
// that check what exists, such as after a create whose answer was lost.
type Resource struct {
	// ID is the request or order identifier.
	ID string
	// ExternalReferenceNumber is the caller's reference ("" when none).
	ExternalReferenceNumber string
	// Status is the order's status ("" for a request without an order).
	Status string
	// ServiceLevel is sameday, ondemand or shipping (orders only).
	ServiceLevel string
	// TrackingNumber is a shipping order's tracking number.
	TrackingNumber string
}

// Orders returns the delivery orders, in creation order.
func (s *Sandbox) Orders() []Resource {
	s.catchUp(s.now())
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Resource, 0, len(s.orders))
	for _, o := range s.orders {
		r := Resource{ID: o.id, Status: o.status, ServiceLevel: o.level}
		if o.extRef != nil {
			r.ExternalReferenceNumber = *o.extRef
		}
		if o.ship != nil {
			r.TrackingNumber = o.ship.trackingNumber
		}
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// Requests returns the omni requests, in creation order.
func (s *Sandbox) Requests() []Resource {
	s.catchUp(s.now())
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Resource, 0, len(s.requests))
	for _, q := range s.requests {
		r := Resource{ID: q.id, ExternalReferenceNumber: q.extRef}
		if q.order != nil {
			r.Status = q.order.status
		}
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}
