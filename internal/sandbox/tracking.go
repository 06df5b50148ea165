package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Subscription statuses (document 002).
const (
	subEnabled   = "ENABLED"
	subSuspended = "SUSPENDED"
)

// ---- wire ----

type subscriptionOut struct {
	ReferenceID              *string `json:"reference_id,omitempty"`
	TrackingNumber           string  `json:"tracking_number"`
	Carrier                  string  `json:"carrier"`
	SubscriptionStatus       string  `json:"subscription_status"`
	SubscriptionStatusReason *string `json:"subscription_status_reason"`
	SubscribedAt             string  `json:"subscribed_at"`
	UpdatedAt                string  `json:"updated_at"`
}

type trackingEventOut struct {
	Status           string `json:"status"`
	StatusOccurredAt string `json:"status_occurred_at"`
}

type notificationOut struct {
	ReferenceID      *string            `json:"reference_id,omitempty"`
	TrackingNumber   string             `json:"tracking_number"`
	Timestamp        string             `json:"timestamp"`
	Carrier          string             `json:"carrier"`
	Status           string             `json:"status"`
	StatusText       string             `json:"status_text,omitempty"`
	StatusOccurredAt string             `json:"status_occurred_at"`
	TrackingEvents   []trackingEventOut `json:"tracking_events"`
}

// ---- state ----

type subscription struct {
	trackingNumber string
	carrier        string
	listenerURL    string
	referenceID    *string
	status         string
	reason         *string
	subscribedAt   time.Time
	updatedAt      time.Time
}

// trackingHistory is the chronological tracking events of one number.
type trackingHistory struct {
	events []trackingEventOut
}

// notification is one POST to deliver once s.mu is released.
type notification struct {
	trackingNumber string
	listenerURL    string
	status         string
	at             time.Time
	body           []byte
}

// carrierFor derives the carrier of a tracking number: PARCELA for numbers
// starting with 1Z (any case), POSTAL for every other number.
func carrierFor(trackingNumber string) string {
	if len(trackingNumber) >= 2 && strings.EqualFold(trackingNumber[:2], "1Z") {
		return "PARCELA"
	}
	return "POSTAL"
}

func renderSubscription(sub *subscription) subscriptionOut {
	return subscriptionOut{
		ReferenceID:              sub.referenceID,
		TrackingNumber:           sub.trackingNumber,
		Carrier:                  sub.carrier,
		SubscriptionStatus:       sub.status,
		SubscriptionStatusReason: sub.reason,
		SubscribedAt:             tsMillis(sub.subscribedAt),
		UpdatedAt:                tsMillis(sub.updatedAt),
	}
}

// trackingHandlers names the handler of each tracking operation, one line
// per endpoint (handlers.go joins every interface's).
func (s *Sandbox) trackingHandlers() map[string]handlerFunc {
	return map[string]handlerFunc{
		OpTrackingSubscribe:       s.subscribe,
		OpTrackingGetSubscription: s.getSubscription,
	}
}

// ---- handlers ----

// rawString reads an optional JSON string: present is false for an absent
// or null value, isString is false for a value of another JSON kind.
func rawString(raw json.RawMessage) (v string, present, isString bool) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", false, true
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		return "", true, false
	}
	return v, true, true
}

func (s *Sandbox) subscribe(c *call) {
	var in struct {
		TrackingNumber json.RawMessage `json:"tracking_number"`
		ListenerURL    json.RawMessage `json:"listener_url"`
		ReferenceID    json.RawMessage `json:"reference_id"`
	}
	if _, ok := s.readJSONBody(c, &in); !ok {
		return
	}
	tn, present, isString := rawString(in.TrackingNumber)
	switch {
	case !isString:
		s.fail(c, http.StatusBadRequest, "", "tracking_number must be a string")
		return
	case !present || strings.TrimSpace(tn) == "":
		s.fail(c, http.StatusBadRequest, "", "tracking_number is required")
		return
	}
	listener, present, isString := rawString(in.ListenerURL)
	switch {
	case !isString:
		s.fail(c, http.StatusBadRequest, "", "listener_url must be a string")
		return
	case !present || listener == "":
		s.fail(c, http.StatusBadRequest, "", "listener_url is required")
		return
	case !isHTTPSURL(listener):
		s.fail(c, http.StatusBadRequest, "", "listener_url must be an HTTPS URL")
		return
	}
	ref, present, isString := rawString(in.ReferenceID)
	if !isString {
		s.fail(c, http.StatusBadRequest, "", "reference_id must be a string")
		return
	}
	var refp *string
	if present {
		refp = &ref
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	// x-rxdelivery-reading: subscribe-status. The success status of the
	// POST is not shown (doc 3): the simulator answers 201 when it creates
	// the subscription and 200 when it updates one (pinned by
	// TestSubscribeCreateUpdateAndGet).
	status := http.StatusOK
	sub := s.subs[tn]
	if sub == nil {
		sub = &subscription{trackingNumber: tn, carrier: carrierFor(tn), subscribedAt: now}
		s.subs[tn] = sub
		status = http.StatusCreated
		s.stats.SubscriptionsCreated++
	} else {
		s.stats.SubscriptionsUpdated++
	}
	sub.listenerURL, sub.referenceID = listener, refp
	sub.status, sub.reason, sub.updatedAt = subEnabled, nil, now
	writeJSON(c.w, status, renderSubscription(sub))
}

// isHTTPSURL reports whether raw is an absolute https URL with a host.
func isHTTPSURL(raw string) bool {
	u, err := url.Parse(raw)
	return err == nil && u.Scheme == "https" && u.Host != ""
}

func (s *Sandbox) getSubscription(c *call) {
	q := c.r.URL.Query()
	if !s.checkQuery(c, q, "tracking_number") {
		return
	}
	tn := q.Get("tracking_number")
	if tn == "" {
		s.fail(c, http.StatusBadRequest, "", "tracking_number is required")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	sub := s.subs[tn]
	if sub == nil {
		s.fail(c, http.StatusNotFound, "", "Subscription not found")
		return
	}
	writeJSON(c.w, http.StatusOK, renderSubscription(sub))
}

// ---- events and notifications ----

// trackLocked starts the tracking history of a number. The caller holds
// s.mu.
func (s *Sandbox) trackLocked(trackingNumber string) {
	if s.tracks[trackingNumber] == nil {
		s.tracks[trackingNumber] = &trackingHistory{}
	}
}

// emitLocked records a tracking status of a number at the given time and
// returns the notification for its subscription when that is enabled. The
// caller holds s.mu.
func (s *Sandbox) emitLocked(trackingNumber, status string, at time.Time) []notification {
	s.moveShippingOrderLocked(trackingNumber, status, at)
	s.trackLocked(trackingNumber)
	h := s.tracks[trackingNumber]
	h.events = append(h.events, trackingEventOut{Status: status, StatusOccurredAt: tsMillis(at)})
	sub := s.subs[trackingNumber]
	if sub == nil || sub.status != subEnabled {
		return nil
	}
	body, err := json.Marshal(notificationOut{
		ReferenceID:      sub.referenceID,
		TrackingNumber:   trackingNumber,
		Timestamp:        tsMillis(at),
		Carrier:          sub.carrier,
		Status:           status,
		StatusText:       trackingText[status],
		StatusOccurredAt: tsMillis(at),
		TrackingEvents:   append([]trackingEventOut(nil), h.events...),
	})
	if err != nil {
		return nil
	}
	return []notification{{trackingNumber: trackingNumber, listenerURL: sub.listenerURL, status: status, at: at, body: body}}
}

// moveShippingOrderLocked moves the shipping order whose label carries
// trackingNumber as its carrier's tracking status says, whoever emits it
// (the order's own progression or EmitTracking, as the control API does):
// Accepted puts a new or submitted order in picked_up, Delivered puts an
// order not yet final in delivered. An order never moves back and a final
// one (delivered, cancelled, returned) stays; other statuses move nothing.
// The caller holds s.mu.
func (s *Sandbox) moveShippingOrderLocked(trackingNumber, status string, at time.Time) {
	var o *deliveryOrder
	for _, c := range s.orders {
		if c.ship != nil && c.ship.trackingNumber == trackingNumber {
			o = c
			break
		}
	}
	if o == nil {
		return
	}
	switch {
	case status == "Accepted" && (o.status == orderNew || o.status == orderSubmitted):
		s.applyOrderStatusLocked(o, orderPickedUp, at)
	case status == "Delivered" && o.status != orderDelivered && o.status != orderCancelled && o.status != orderReturned:
		s.applyOrderStatusLocked(o, orderDelivered, at)
	}
}

// EmitTracking records a new tracking status for trackingNumber at the
// clock's time and, before returning, POSTs the notification to the
// number's subscription when it is ENABLED. Any number may be used, subscribed
// or not. The tracking statuses the sandbox itself emits for shipping
// orders are Accepted, Moving Through Network, Out for Delivery and
// Delivered; an emitted Accepted or Delivered moves the number's shipping
// order as its own progression does (moveShippingOrderLocked).
func (s *Sandbox) EmitTracking(trackingNumber, status string) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	out := s.emitLocked(trackingNumber, status, s.now())
	s.mu.Unlock()
	s.deliver(out)
}

// deliver POSTs notifications, without holding s.mu, and records each
// attempt. A listener that cannot be reached, or an invalid listener URL,
// suspends the subscription. A listener that answers, whatever its status,
// keeps it enabled.
func (s *Sandbox) deliver(out []notification) {
	for _, n := range out {
		code, errText, suspend := s.post(n)
		s.mu.Lock()
		if s.closed || s.ctx.Err() != nil {
			s.mu.Unlock()
			return
		}
		s.recordNotificationLocked(NotificationAttempt{
			TrackingNumber: n.trackingNumber, Status: n.status, ListenerURL: n.listenerURL,
			StatusCode: code, Err: errText, At: n.at,
		})
		if sub := s.subs[n.trackingNumber]; suspend != "" && sub != nil && sub.listenerURL == n.listenerURL && sub.status == subEnabled {
			sub.status, sub.reason, sub.updatedAt = subSuspended, strp(suspend), s.now()
		}
		s.mu.Unlock()
	}
}

// post sends one notification. It returns the listener's status, a
// description of a failure, and the suspension reason ("" to keep the
// subscription enabled).
func (s *Sandbox) post(n notification) (int, string, string) {
	if !isHTTPSURL(n.listenerURL) {
		return 0, "invalid listener URL", "Listener URL is invalid"
	}
	ctx, cancel := context.WithTimeout(s.ctx, s.notifyWait)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, n.listenerURL, bytes.NewReader(n.body))
	if err != nil {
		return 0, "invalid listener URL", "Listener URL is invalid"
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "rxdelivery-sandbox")
	resp, err := s.notify.Do(req)
	if err != nil {
		return 0, "listener unreachable: " + err.Error(), "Listener URL could not be reached"
	}
	observeNotification(req, n.body, resp.StatusCode)
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	_ = resp.Body.Close()
	return resp.StatusCode, "", ""
}

// SubscriptionStatus returns the status (ENABLED or SUSPENDED) and status
// reason of the subscription of trackingNumber, and whether it exists.
func (s *Sandbox) SubscriptionStatus(trackingNumber string) (status, reason string, ok bool) {
	s.catchUp(s.now())
	s.mu.Lock()
	defer s.mu.Unlock()
	sub := s.subs[trackingNumber]
	if sub == nil {
		return "", "", false
	}
	if sub.reason != nil {
		reason = *sub.reason
	}
	return sub.status, reason, true
}
