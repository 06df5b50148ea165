package sandbox

import (
	"fmt"
	"net/http"
	"time"
)

// Omni order statuses (document 000).
const (
	omniNew         = "new"
	omniSubmitted   = "submitted_to_courier"
	omniPickedUp    = "picked_up"
	omniDelivered   = "delivered"
	omniAttempted   = "delivery_attempted"
	omniReturned    = "returned_to_pharmacy"
	omniCancelled   = "cancelled"
	omniIncomplete  = "request_incomplete" // pseudo status: the request status, not the order's
	scenarioSuccess = "successful_delivery"
	scenarioFailure = "unsuccessful_delivery"
	scenarioPartial = "incomplete_request"
)

// scenarioSteps lists the statuses each sandbox scenario passes through,
// one per duration_between.
var scenarioSteps = map[string][]string{
	scenarioSuccess: {omniNew, omniSubmitted, omniPickedUp, omniDelivered},
	scenarioFailure: {omniNew, omniSubmitted, omniPickedUp, omniAttempted, omniReturned},
	scenarioPartial: {omniNew, omniIncomplete},
}

// ---- wire: input ----

type omniAddressIn struct {
	Street1 *string `json:"street1"`
	Street2 *string `json:"street2"`
	City    *string `json:"city"`
	State   *string `json:"state"`
	Zipcode *string `json:"zipcode"`
	PlaceID *string `json:"place_id"`
}

type omniPartyIn struct {
	Name        *string        `json:"name"`
	PhoneNumber *string        `json:"phone_number"`
	Address     *omniAddressIn `json:"address"`
}

type omniPaymentIn struct {
	Fee  *num    `json:"fee"`
	Kind *string `json:"kind"`
}

type omniCreateIn struct {
	Identifier              *string `json:"identifier"`
	ExternalReferenceNumber *string `json:"external_reference_number"`
	NDC                     *string `json:"ndc"`
	NameOfPickup            *string `json:"name_of_pickup"`
	Pharmacy                *struct {
		NCPDP *string `json:"ncpdp"`
	} `json:"pharmacy"`
	Pickup  *omniPartyIn `json:"pickup"`
	Dropoff *omniPartyIn `json:"dropoff"`
	Patient *struct {
		FirstName   *string `json:"first_name"`
		LastName    *string `json:"last_name"`
		Gender      *string `json:"gender"`
		DateOfBirth *string `json:"date_of_birth"`
	} `json:"patient"`
	Remittance *struct {
		Contact *struct {
			MobilePhoneNumber *string `json:"mobile_phone_number"`
			Email             *string `json:"email"`
		} `json:"contact"`
		Payments *[]omniPaymentIn `json:"payments"`
	} `json:"remittance"`
	TestMeta *struct {
		Scenario        *string `json:"scenario"`
		DurationBetween *num    `json:"duration_between"`
	} `json:"test_meta"`
}

// ---- wire: output ----

type omniRequestOut struct {
	ID                      string         `json:"id"`
	ExternalReferenceNumber string         `json:"external_reference_number"`
	CreatedAt               string         `json:"created_at"`
	Order                   *omniOrderOut  `json:"order"`
	Status                  *omniStatusOut `json:"status,omitempty"`
	DeliveryETA             string         `json:"delivery_eta,omitempty"`
}

type omniStatusOut struct {
	Name   string  `json:"name"`
	Detail *string `json:"detail"`
}

type omniOrderOut struct {
	ID                      string         `json:"id"`
	CourierCompany          *string        `json:"courier_company"`
	ExternalReferenceNumber *string        `json:"external_reference_number"`
	Status                  string         `json:"status"`
	Pickup                  *occurrenceOut `json:"pickup"`
	Delivery                *deliveryOut   `json:"delivery"`
	Return                  *occurrenceOut `json:"return"`
	CancelledBy             *string        `json:"cancelled_by"`
	CancellationReason      *string        `json:"cancellation_reason"`
	StatusNote              *string        `json:"status_note"`
	StatusNoteUpdatedAt     *string        `json:"status_note_updated_at"`
}

type occurrenceOut struct {
	OccurredAt string `json:"occurred_at"`
}

type deliveryOut struct {
	OccurredAt                   string          `json:"occurred_at"`
	SignatureURL                 *string         `json:"signature_url"`
	SignedBy                     *string         `json:"signed_by"`
	Relationship                 *string         `json:"relationship"`
	OtherRelationshipDescription *string         `json:"other_relationship_description"`
	FailureReason                *string         `json:"failure_reason"`
	RecipientIdentification      *recipientIDOut `json:"recipient_identification"`
}

type recipientIDOut struct {
	Number           string `json:"number"`
	Type             string `json:"type"`
	Qualifier        string `json:"qualifier"`
	JurisdictionCode string `json:"jurisdiction_code"`
}

// ---- state ----

// omniRequest is the sandbox's record of an omni request. It keeps no
// patient data.
type omniRequest struct {
	id        string
	extRef    string
	createdAt time.Time
	scenario  string
	cadence   time.Duration
	step      int
	epoch     int // bumped to stop the scenario
	status    *omniStatusOut
	eta       string
	order     *omniOrder
}

type omniOrder struct {
	id          string
	status      string
	pickupAt    *time.Time
	deliveredAt *time.Time
	attemptedAt *time.Time
	returnAt    *time.Time
	cancelledBy *string
	cancelWhy   *string
	note        *string
	noteAt      *time.Time
}

// omniHandlers names the handler of each omni request operation, one
// line per endpoint (handlers.go joins every interface's).
func (s *Sandbox) omniHandlers() map[string]handlerFunc {
	return map[string]handlerFunc{
		OpRequestsCreate:  s.createRequest,
		OpRequestsCancel:  s.cancelRequest,
		OpRequestsGet:     s.getRequest,
		OpRequestsGetMany: s.getRequests,
	}
}

// ---- handlers ----

func (s *Sandbox) createRequest(c *call) {
	var in omniCreateIn
	body, ok := s.readJSONBody(c, &in)
	if !ok {
		return
	}
	var ck checker
	s.checkOmniCreate(&ck, &in)
	if !ck.ok() {
		s.fail(c, http.StatusUnprocessableEntity, "", ck.message())
		return
	}
	scenario, cadence := "", 30*time.Second
	if in.TestMeta != nil {
		scenario = *in.TestMeta.Scenario
		if in.TestMeta.DurationBetween != nil {
			n, _ := in.TestMeta.DurationBetween.float()
			cadence = time.Duration(n) * time.Second
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	req := &omniRequest{
		id:        s.nextIDLocked("req_"),
		extRef:    *in.ExternalReferenceNumber,
		createdAt: now,
		scenario:  scenario,
		cadence:   cadence,
	}
	s.requests[req.id] = req
	s.stats.RequestsCreated++
	s.recordCreateLocked(Omni, body)
	if scenario != "" {
		s.scheduleRequestStepLocked(req, firstDue(now, cadence))
	}
	writeJSON(c.w, http.StatusOK, map[string]any{"request": s.renderRequestLocked(req)})
}

// checkOmniCreate applies every rule of document 000 to a create body.
func (s *Sandbox) checkOmniCreate(ck *checker, in *omniCreateIn) {
	ck.present("identifier", in.Identifier, true)
	ck.str("external_reference_number", in.ExternalReferenceNumber, true, 255)
	ck.exact("ndc", in.NDC, false, 11)
	if (in.NDC == nil || *in.NDC == "") && !ck.present("name_of_pickup", in.NameOfPickup, false) {
		ck.add("name_of_pickup", "is required when ndc is not provided")
	}
	knownPharmacy := false
	if in.Pharmacy == nil {
		ck.add("pharmacy", "is required")
	} else {
		ck.exact("pharmacy.ncpdp", in.Pharmacy.NCPDP, true, 7)
		if in.Pharmacy.NCPDP != nil {
			set := s.pharm.Load()
			if i, ok := set.index[*in.Pharmacy.NCPDP]; ok && set.list[i].NCPDP == *in.Pharmacy.NCPDP {
				knownPharmacy = true
			}
		}
	}
	switch {
	case in.Pickup != nil:
		checkOmniParty(ck, "pickup", in.Pickup, false)
	case !knownPharmacy:
		ck.add("pickup", "is required when pharmacy.ncpdp is not a pharmacy the sandbox knows")
	}
	if in.Dropoff == nil {
		ck.add("dropoff", "is required")
	} else {
		checkOmniParty(ck, "dropoff", in.Dropoff, true)
	}
	if p := in.Patient; p == nil {
		ck.add("patient", "is required")
	} else {
		ck.str("patient.first_name", p.FirstName, true, 30)
		ck.str("patient.last_name", p.LastName, true, 40)
		ck.enum("patient.gender", p.Gender, false, "male", "female", "unspecified")
		ck.date("patient.date_of_birth", p.DateOfBirth, true)
	}
	if r := in.Remittance; r != nil {
		if r.Contact == nil {
			ck.add("remittance.contact", "is required when remittance is present")
		} else {
			ck.phone("remittance.contact.mobile_phone_number", r.Contact.MobilePhoneNumber, true)
			ck.str("remittance.contact.email", r.Contact.Email, false, 255)
		}
		if r.Payments == nil {
			ck.add("remittance.payments", "is required when remittance is present")
		} else {
			for i, p := range *r.Payments {
				path := fmt.Sprintf("remittance.payments[%d]", i)
				ck.positive(path+".fee", p.Fee, true)
				ck.enum(path+".kind", p.Kind, true, "delivery_fee", "copay")
			}
		}
	}
	if tm := in.TestMeta; tm != nil {
		ck.enum("test_meta.scenario", tm.Scenario, true, scenarioSuccess, scenarioFailure, scenarioPartial)
		if n, ok := ck.integer("test_meta.duration_between", tm.DurationBetween, false); ok && (n < 1 || n > 900) {
			ck.add("test_meta.duration_between", "must be between 1 and 900")
		}
	}
}

// checkOmniParty checks a pickup or dropoff; only a dropoff may give its
// address as a place_id alone.
func checkOmniParty(ck *checker, path string, p *omniPartyIn, dropoff bool) {
	ck.str(path+".name", p.Name, true, 71)
	ck.phone(path+".phone_number", p.PhoneNumber, true)
	a := p.Address
	if a == nil {
		ck.add(path+".address", "is required")
		return
	}
	if a.PlaceID != nil {
		if !dropoff {
			ck.add(path+".address.place_id", "is only accepted for the dropoff address")
			return
		}
		if a.Street1 != nil || a.Street2 != nil || a.City != nil || a.State != nil || a.Zipcode != nil {
			ck.add(path+".address", "must be either a full address or an object with only place_id")
			return
		}
		ck.str(path+".address.place_id", a.PlaceID, true, 255)
		return
	}
	ck.str(path+".address.street1", a.Street1, true, 255)
	ck.str(path+".address.street2", a.Street2, false, 255)
	ck.str(path+".address.city", a.City, true, 255)
	ck.str(path+".address.state", a.State, true, 2)
	ck.zip(path+".address.zipcode", a.Zipcode, true)
}

func (s *Sandbox) getRequest(c *call) {
	s.mu.Lock()
	defer s.mu.Unlock()
	req := s.requests[c.params["id"]]
	if req == nil {
		s.fail(c, http.StatusNotFound, "", "Request not found")
		return
	}
	writeJSON(c.w, http.StatusOK, map[string]any{"request": s.renderRequestLocked(req)})
}

func (s *Sandbox) getRequests(c *call) {
	ids, ok := s.idsParam(c)
	if !ok {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	out := []any{}
	for _, id := range ids {
		if req := s.requests[id]; req != nil {
			out = append(out, map[string]any{"request": s.renderRequestLocked(req)})
		}
	}
	writeJSON(c.w, http.StatusOK, map[string]any{"requests": out})
}

func (s *Sandbox) cancelRequest(c *call) {
	s.mu.Lock()
	defer s.mu.Unlock()
	id := c.params["id"]
	req := s.requests[id]
	if req == nil {
		s.fail(c, http.StatusNotFound, "", "Request not found")
		return
	}
	if o := req.order; o != nil {
		// x-rxdelivery-reading: unable-to-cancel-status. The status of the
		// unable_to_cancel answer is not shown (doc 1): the simulator
		// answers 422 with the request's id (pinned by TestCancelRequest).
		if o.status != omniNew && o.status != omniSubmitted {
			s.failID(c, http.StatusUnprocessableEntity, "unable_to_cancel", "Orders are not in a cancellable status", req.id)
			return
		}
		s.applyOmniStatusLocked(req, omniCancelled, s.now())
	}
	req.epoch++
	s.stats.RequestsCancelled++
	noContent(c.w)
}

// dedupe drops repeated and empty values, keeping the first order.
func dedupe(in []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, v := range in {
		if v != "" && !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

// ---- scenarios ----

// scheduleRequestStepLocked queues the request's next scenario step at due.
func (s *Sandbox) scheduleRequestStepLocked(req *omniRequest, due time.Time) {
	epoch := req.epoch
	s.scheduleLocked(due, func(at time.Time) []notification {
		if req.epoch != epoch {
			return nil
		}
		steps := scenarioSteps[req.scenario]
		if req.step >= len(steps) {
			return nil
		}
		s.applyOmniStatusLocked(req, steps[req.step], at)
		req.step++
		if req.step < len(steps) {
			s.scheduleRequestStepLocked(req, at.Add(req.cadence))
		}
		return nil
	})
}

// applyOmniStatusLocked moves a request's order to status at the given
// time, creating the order when there is none and filling the occurrence
// data the status implies. omniIncomplete marks the request incomplete and
// cancels its order. The caller holds s.mu.
func (s *Sandbox) applyOmniStatusLocked(req *omniRequest, status string, at time.Time) {
	o := req.order
	if o == nil {
		o = &omniOrder{id: s.nextIDLocked("ord_"), status: omniNew}
		req.order = o
		req.status = &omniStatusOut{Name: "request_received"}
		req.eta = omniETA(req.scenario, at)
	}
	switch status {
	case omniNew:
	case omniSubmitted:
		o.note, o.noteAt = strp("Courier assigned"), timep(at)
	case omniPickedUp:
		o.pickupAt = orTime(o.pickupAt, at)
	case omniDelivered:
		o.pickupAt = orTime(o.pickupAt, at)
		o.deliveredAt, o.attemptedAt = timep(at), nil
	case omniAttempted:
		o.pickupAt = orTime(o.pickupAt, at)
		o.attemptedAt, o.deliveredAt = timep(at), nil
	case omniReturned:
		o.pickupAt = orTime(o.pickupAt, at)
		if o.deliveredAt == nil {
			o.attemptedAt = orTime(o.attemptedAt, at)
		}
		o.returnAt = timep(at)
	case omniCancelled:
		o.cancelledBy, o.cancelWhy = strp("requester"), strp("Order Canceled")
	case omniIncomplete:
		req.status = &omniStatusOut{Name: "request_incomplete", Detail: strp("pharmacy_out_of_stock")}
		o.cancelledBy, o.cancelWhy = strp("pharmacy"), strp("Out of Stock")
		status = omniCancelled
	}
	o.status = status
}

func orTime(t *time.Time, at time.Time) *time.Time {
	if t != nil {
		return t
	}
	return timep(at)
}

// omniETA gives the delivery_eta of a request whose order was created at
// at: free text for successful_delivery (and requests moved by hand), an
// ISO 8601 timestamp for the other scenarios, since the document shows both.
func omniETA(scenario string, at time.Time) string {
	start := at.In(eastern).Add(2 * time.Hour).Truncate(time.Hour)
	if scenario == scenarioFailure || scenario == scenarioPartial {
		return start.Format(time.RFC3339)
	}
	return fmt.Sprintf("%s between %s and %s EST", start.Format("Monday, January 2, 2006"),
		start.Format("3:04 PM"), start.Add(2*time.Hour).Format("3:04 PM"))
}

// renderRequestLocked builds the wire form of a request. A signature URL is
// new on every retrieval, as the document says. The caller holds s.mu.
func (s *Sandbox) renderRequestLocked(req *omniRequest) omniRequestOut {
	out := omniRequestOut{
		ID:                      req.id,
		ExternalReferenceNumber: req.extRef,
		CreatedAt:               tsMillis(req.createdAt),
		Status:                  req.status,
		DeliveryETA:             req.eta,
	}
	o := req.order
	if o == nil {
		return out
	}
	oo := &omniOrderOut{
		ID:                  o.id,
		CourierCompany:      strp("Sandbox Courier Co."),
		Status:              o.status,
		CancelledBy:         o.cancelledBy,
		CancellationReason:  o.cancelWhy,
		StatusNote:          o.note,
		StatusNoteUpdatedAt: fmtTime(o.noteAt, tsMicro),
	}
	if o.pickupAt != nil {
		oo.Pickup = &occurrenceOut{OccurredAt: tsOffset(*o.pickupAt)}
	}
	if o.returnAt != nil {
		oo.Return = &occurrenceOut{OccurredAt: tsOffset(*o.returnAt)}
	}
	switch {
	case o.deliveredAt != nil:
		oo.Delivery = s.successfulDeliveryLocked(o.id, tsOffset(*o.deliveredAt), true, true)
	case o.attemptedAt != nil:
		oo.Delivery = &deliveryOut{OccurredAt: tsOffset(*o.attemptedAt), FailureReason: strp("Recipient unavailable")}
	}
	out.Order = oo
	return out
}

// successfulDeliveryLocked builds the delivery data of a successful
// delivery, with a signature URL new on every call. The caller holds s.mu.
func (s *Sandbox) successfulDeliveryLocked(orderID, occurredAt string, relationship, identification bool) *deliveryOut {
	s.sigSeq++
	d := &deliveryOut{
		OccurredAt:   occurredAt,
		SignatureURL: strp(fmt.Sprintf("https://sandbox.rxdelivery.invalid/signatures/%s.png?token=%d", orderID, s.sigSeq)),
		SignedBy:     strp("Sandbox Recipient"),
	}
	if relationship {
		d.Relationship, d.OtherRelationshipDescription = strp("Other"), strp("Neighbor")
	}
	if identification {
		d.RecipientIdentification = &recipientIDOut{Number: "S0000001", Type: "Driver's License ID", Qualifier: "06", JurisdictionCode: "NY"}
	}
	return d
}

// SetRequestOrderStatus moves the order of omni request id to status (one
// of new, submitted_to_courier, picked_up, delivered, delivery_attempted,
// returned_to_pharmacy, cancelled), creating the order when the request has
// none, and stops the request's scenario. Occurrence data the status implies
// (pickup, delivery, return, cancellation) is filled at the clock's time.
// The pseudo status request_incomplete sets the request's status to
// {request_incomplete, pharmacy_out_of_stock} and cancels its order, as the
// incomplete_request scenario does.
func (s *Sandbox) SetRequestOrderStatus(id, status string) error {
	switch status {
	case omniNew, omniSubmitted, omniPickedUp, omniDelivered, omniAttempted, omniReturned, omniCancelled, omniIncomplete:
	default:
		return fmt.Errorf("sandbox: unknown omni order status %q", status)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	req := s.requests[id]
	if req == nil {
		return fmt.Errorf("sandbox: no request %q", id)
	}
	req.epoch++
	s.applyOmniStatusLocked(req, status, s.now())
	return nil
}

// RequestOrderStatus returns the status of the order of omni request id
// ("" when it has no order yet) and whether the request exists.
func (s *Sandbox) RequestOrderStatus(id string) (string, bool) {
	s.catchUp(s.now())
	s.mu.Lock()
	defer s.mu.Unlock()
	req := s.requests[id]
	if req == nil {
		return "", false
	}
	if req.order == nil {
		return "", true
	}
	return req.order.status, true
}
