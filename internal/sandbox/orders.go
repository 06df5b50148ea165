package sandbox

import (
	"fmt"
	"net/http"
	"time"
)

// Delivery order statuses as the sandbox writes them. "submitted to
// courier" carries spaces, as in the document's sample body.
const (
	orderNew        = "new"
	orderSubmitted  = "submitted to courier"
	orderPickedUp   = "picked_up"
	orderDelivered  = "delivered"
	orderAttempted  = "delivery_attempted"
	orderReturned   = "returned_to_pharmacy"
	orderCancelled  = "cancelled"
	levelSameday    = "sameday"
	levelOndemand   = "ondemand"
	levelShipping   = "shipping"
	cancelledReason = "Order Canceled"
)

// carrierServices lists each carrier's services (document 001).
var carrierServices = map[string][]string{
	"PARCELA": {"PARCELA Ground", "PARCELA 2nd Day Air", "PARCELA Next Day Air"},
	"PARCELB": {"PARCELB 2 Day", "PARCELB Standard Overnight", "PARCELB Priority Overnight", "PARCELB Ground", "PARCELB Home Delivery"},
	"POSTAL":  {"POSTAL Priority Mail", "POSTAL Priority Mail Express", "POSTAL First Class Mail"},
}

// carrierSignatures lists the signature options each carrier supports.
var carrierSignatures = map[string][]string{
	"POSTAL":  {"none", "required", "adult_required", "patient_signature"},
	"PARCELA": {"none", "required", "adult_required"},
	"PARCELB": {"none", "required", "patient_signature", "adult_required"},
}

// carrierPackages lists each carrier's package codes (PARCELA has none).
var carrierPackages = map[string][]string{
	"POSTAL":  {"postal_small_flat_rate_box", "postal_medium_flat_rate_box", "postal_large_flat_rate_box"},
	"PARCELB": {"parcelb_envelope_onerate", "parcelb_small_box_onerate", "parcelb_medium_box_onerate", "parcelb_large_box_onerate", "parcelb_extra_large_box_onerate"},
}

// serviceBaseCents is the base shipping cost of each carrier service.
var serviceBaseCents = map[string]cents{
	"PARCELA Ground": 850, "PARCELA 2nd Day Air": 1800, "PARCELA Next Day Air": 3200,
	"PARCELB 2 Day": 1700, "PARCELB Standard Overnight": 2900, "PARCELB Priority Overnight": 3600,
	"PARCELB Ground": 825, "PARCELB Home Delivery": 910,
	"POSTAL Priority Mail": 945, "POSTAL Priority Mail Express": 2875, "POSTAL First Class Mail": 460,
}

// saturdayMessage is the document's message for a Saturday delivery the
// carrier service does not offer.
const saturdayMessage = "Carrier service level does not offer saturday delivery."

// ---- wire: input ----

type addressIn struct {
	Street  *string `json:"street"`
	Street2 *string `json:"street2"`
	City    *string `json:"city"`
	State   *string `json:"state"`
	Zipcode *string `json:"zipcode"`
}

type payerIn struct {
	BIN                     *string `json:"bin"`
	PCN                     *string `json:"pcn"`
	RxGroup                 *string `json:"rx_group"`
	CoverageType            *string `json:"coverage_type"`
	GovernmentPlanIndicator *bool   `json:"government_plan_indicator"`
}

type prescriptionIn struct {
	Number        *string `json:"number"`
	NDC           *string `json:"ndc"`
	Refrigeration *string `json:"refrigeration"`
	DaysSupply    *num    `json:"days_supply"`
	FillQuantity  *num    `json:"fill_quantity"`
	FillNumber    *num    `json:"fill_number"`
	PatientPay    *num    `json:"patient_pay"`
	Prescriber    *struct {
		FirstName *string    `json:"first_name"`
		LastName  *string    `json:"last_name"`
		NPI       *string    `json:"npi"`
		Address   *addressIn `json:"address"`
	} `json:"prescriber"`
	DateOfService *string    `json:"date_of_service"`
	Payers        *[]payerIn `json:"payers"`
}

type otherItemIn struct {
	UPC         *string `json:"upc"`
	SKU         *string `json:"sku"`
	Quantity    *num    `json:"quantity"`
	Description *string `json:"description"`
}

type shippingIn struct {
	Carrier          *string `json:"carrier"`
	CarrierService   *string `json:"carrier_service"`
	Signature        *string `json:"signature"`
	SaturdayDelivery *bool   `json:"saturday_delivery"`
	Weight           *struct {
		Unit  *string `json:"unit"`
		Value *num    `json:"value"`
	} `json:"weight"`
	PackageCode *string `json:"package_code"`
	Dimensions  *struct {
		Unit   *string `json:"unit"`
		Length *num    `json:"length"`
		Width  *num    `json:"width"`
		Height *num    `json:"height"`
	} `json:"dimensions"`
}

type orderCreateIn struct {
	ServiceLevel            *string `json:"service_level"`
	ReadyAt                 *string `json:"ready_at"`
	ServiceDate             *string `json:"service_date"`
	Initiator               *string `json:"initiator"`
	DeliveryFee             *num    `json:"delivery_fee"`
	RxAmountDue             *num    `json:"rx_amount_due"`
	OtherItemsAmountDue     *num    `json:"other_items_amount_due"`
	DeliveryNotes           *string `json:"delivery_notes"`
	ExternalReferenceNumber *string `json:"external_reference_number"`
	PhotoIDRequired         *bool   `json:"photo_id_required"`
	Pharmacy                *struct {
		NPI   *string `json:"npi"`
		NCPDP *string `json:"ncpdp"`
	} `json:"pharmacy"`
	Recipient *struct {
		Description       *string    `json:"description"`
		MobilePhoneNumber *string    `json:"mobile_phone_number"`
		HomePhoneNumber   *string    `json:"home_phone_number"`
		Address           *addressIn `json:"address"`
	} `json:"recipient"`
	Patient *struct {
		FirstName         *string `json:"first_name"`
		LastName          *string `json:"last_name"`
		Gender            *string `json:"gender"`
		DateOfBirth       *string `json:"date_of_birth"`
		MobilePhoneNumber *string `json:"mobile_phone_number"`
		HomePhoneNumber   *string `json:"home_phone_number"`
	} `json:"patient"`
	Shipping      *shippingIn       `json:"shipping"`
	Prescriptions *[]prescriptionIn `json:"prescriptions"`
	OtherItems    *[]otherItemIn    `json:"other_items"`
}

// ---- wire: output ----

type orderOut struct {
	ID                      string           `json:"id"`
	Status                  string           `json:"status"`
	ExternalReferenceNumber *string          `json:"external_reference_number"`
	Pickup                  *occurrenceOut   `json:"pickup"`
	Delivery                *deliveryOut     `json:"delivery"`
	Return                  *occurrenceOut   `json:"return"`
	Shipping                *shippingOut     `json:"shipping"`
	Cancellation            *cancellationOut `json:"cancellation"`
	ETA                     *etaOut          `json:"eta"`
}

// orderCreatedOut is the subset the create answer carries.
type orderCreatedOut struct {
	ID           string           `json:"id"`
	Status       string           `json:"status"`
	Pickup       *occurrenceOut   `json:"pickup"`
	Delivery     *deliveryOut     `json:"delivery"`
	Return       *occurrenceOut   `json:"return"`
	Cancellation *cancellationOut `json:"cancellation"`
	ETA          *etaOut          `json:"eta"`
}

// orderBriefOut is the subset the add-prescription answer carries.
type orderBriefOut struct {
	ID       string         `json:"id"`
	Status   string         `json:"status"`
	Pickup   *occurrenceOut `json:"pickup"`
	Delivery *deliveryOut   `json:"delivery"`
	Return   *occurrenceOut `json:"return"`
}

type shippingOut struct {
	TrackingNumber   string         `json:"tracking_number"`
	TrackingURL      string         `json:"tracking_url"`
	Carrier          string         `json:"carrier"`
	CarrierService   string         `json:"carrier_service"`
	LabelPDF         string         `json:"label_pdf"`
	Cost             cents          `json:"cost"`
	SaturdayDelivery bool           `json:"saturday_delivery"`
	Delivery         *occurrenceOut `json:"delivery"`
}

// cancellationOut is a delivery order's cancellation.
//
// x-rxdelivery-reading: cancellation-reason. The schema table names the key
// cancellation_reason, the sample body reason, and which one the service
// emits is not shown (doc 2): the simulator emits reason, as the sample
// does (pinned by TestCancelOrder); the SDK reads either.
type cancellationOut struct {
	OccurredAt string `json:"occurred_at"`
	Reason     string `json:"reason"`
}

type etaOut struct {
	ArrivalAt string `json:"arrival_at"`
	Type      string `json:"type"`
}

// ---- state ----

// deliveryOrder is the sandbox's record of a delivery order. It keeps no
// patient data: only what the answers show and the prescription numbers.
type deliveryOrder struct {
	id          string
	level       string
	status      string
	extRef      *string
	rx          []string
	photoID     bool
	pickupAt    *time.Time
	deliveredAt *time.Time
	attemptedAt *time.Time
	returnAt    *time.Time
	cancelledAt *time.Time
	eta         *etaOut
	ship        *shipment
	step        int
	epoch       int // bumped to stop automatic progression
}

type shipment struct {
	trackingNumber, carrier, service string
	cost                             cents
	saturday                         bool
	deliveredAt                      *time.Time
}

// courierSteps and trackingSteps are the automatic progressions, one step
// per cadence.
var (
	courierSteps  = []string{orderSubmitted, orderPickedUp, orderDelivered}
	trackingSteps = []string{"Accepted", "Moving Through Network", "Out for Delivery", "Delivered"}
)

// trackingText is the customer-facing sentence of each tracking status.
var trackingText = map[string]string{
	"Accepted":               "The carrier has accepted the package.",
	"Moving Through Network": "The package is moving through the carrier's network.",
	"Out for Delivery":       "The package is out for delivery.",
	"Delivered":              "The package was delivered.",
}

// ---- validation ----

func checkDeliveryAddress(ck *checker, path string, a *addressIn) {
	if a == nil {
		ck.add(path, "is required")
		return
	}
	ck.str(path+".street", a.Street, true, 255)
	ck.str(path+".street2", a.Street2, false, 255)
	ck.str(path+".city", a.City, true, 255)
	ck.str(path+".state", a.State, true, 2)
	ck.zip(path+".zipcode", a.Zipcode, true)
}

// checkPrescription checks a prescription whose fields sit under path
// ("" for a body that is the prescription itself).
func checkPrescription(ck *checker, path string, p *prescriptionIn) {
	at := func(name string) string {
		if path == "" {
			return name
		}
		return path + "." + name
	}
	ck.str(at("number"), p.Number, true, 255)
	ck.exact(at("ndc"), p.NDC, true, 11)
	ck.enum(at("refrigeration"), p.Refrigeration, true, "none", "fridge", "frozen")
	ck.integer(at("days_supply"), p.DaysSupply, true)
	ck.number(at("fill_quantity"), p.FillQuantity, true)
	ck.integer(at("fill_number"), p.FillNumber, true)
	ck.number(at("patient_pay"), p.PatientPay, true)
	if pr := p.Prescriber; pr == nil {
		ck.add(at("prescriber"), "is required")
	} else {
		ck.present(at("prescriber.first_name"), pr.FirstName, true)
		ck.present(at("prescriber.last_name"), pr.LastName, true)
		ck.present(at("prescriber.npi"), pr.NPI, true)
		checkDeliveryAddress(ck, at("prescriber.address"), pr.Address)
	}
	if p.Payers == nil {
		ck.add(at("payers"), "is required")
		return
	}
	for i, y := range *p.Payers {
		yp := fmt.Sprintf("%s[%d]", at("payers"), i)
		ck.str(yp+".bin", y.BIN, true, 255)
		ck.str(yp+".pcn", y.PCN, true, 255)
		ck.present(yp+".rx_group", y.RxGroup, true)
		ck.enum(yp+".coverage_type", y.CoverageType, true, "primary", "secondary", "tertiary")
		ck.boolean(yp+".government_plan_indicator", y.GovernmentPlanIndicator, true)
	}
}

// checkOrderCreate applies the rules of document 001 and returns the
// service level.
func checkOrderCreate(ck *checker, in *orderCreateIn) string {
	level := levelSameday
	if in.ServiceLevel != nil {
		switch *in.ServiceLevel {
		case levelOndemand, levelShipping:
			level = *in.ServiceLevel
		default:
			ck.add("service_level", "must be absent (same-day) or one of ondemand, shipping")
		}
	}
	ck.timestamp("ready_at", in.ReadyAt, false)
	ck.date("service_date", in.ServiceDate, false)
	ck.enum("initiator", in.Initiator, false, "pharmacy")
	// delivery_fee and rx_amount_due read "only for sameday" in the
	// Required column: required on same-day orders, allowed (not required)
	// on the other levels. other_items_amount_due and photo_id_required read
	// "no; sameday only": optional, and refused on the other levels.
	sameday := level == levelSameday
	for _, m := range []struct {
		name string
		v    *num
		req  bool
	}{{"delivery_fee", in.DeliveryFee, sameday}, {"rx_amount_due", in.RxAmountDue, sameday}, {"other_items_amount_due", in.OtherItemsAmountDue, false}} {
		if f, ok := ck.number(m.name, m.v, m.req); ok && f < 0 {
			ck.add(m.name, "must not be negative")
		}
	}
	if !sameday {
		if in.OtherItemsAmountDue != nil {
			ck.add("other_items_amount_due", "is only accepted for same-day orders")
		}
		if in.PhotoIDRequired != nil {
			ck.add("photo_id_required", "is only accepted for same-day orders")
		}
	}
	ck.str("delivery_notes", in.DeliveryNotes, false, 280)
	ck.str("external_reference_number", in.ExternalReferenceNumber, false, 255)
	if in.Pharmacy == nil {
		ck.add("pharmacy", "is required")
	} else {
		ck.exact("pharmacy.npi", in.Pharmacy.NPI, true, 10)
		ck.exact("pharmacy.ncpdp", in.Pharmacy.NCPDP, true, 7)
	}
	if r := in.Recipient; r == nil {
		ck.add("recipient", "is required")
	} else {
		ck.str("recipient.description", r.Description, true, 71)
		ck.phone("recipient.mobile_phone_number", r.MobilePhoneNumber, false)
		ck.phone("recipient.home_phone_number", r.HomePhoneNumber, false)
		checkDeliveryAddress(ck, "recipient.address", r.Address)
	}
	if p := in.Patient; p == nil {
		ck.add("patient", "is required")
	} else {
		ck.str("patient.first_name", p.FirstName, true, 30)
		ck.str("patient.last_name", p.LastName, true, 40)
		ck.enum("patient.gender", p.Gender, true, "male", "female", "unspecified")
		ck.date("patient.date_of_birth", p.DateOfBirth, true)
		ck.phone("patient.mobile_phone_number", p.MobilePhoneNumber, false)
		ck.phone("patient.home_phone_number", p.HomePhoneNumber, false)
		if level == levelShipping && p.MobilePhoneNumber == nil && p.HomePhoneNumber == nil {
			ck.add("patient", "mobile_phone_number or home_phone_number is required for shipping orders")
		}
	}
	if in.Prescriptions == nil || len(*in.Prescriptions) == 0 {
		ck.add("prescriptions", "is required (at least one)")
	} else {
		for i := range *in.Prescriptions {
			checkPrescription(ck, fmt.Sprintf("prescriptions[%d]", i), &(*in.Prescriptions)[i])
		}
	}
	if in.OtherItems != nil {
		for i, it := range *in.OtherItems {
			p := fmt.Sprintf("other_items[%d]", i)
			ck.present(p+".upc", it.UPC, true)
			ck.present(p+".sku", it.SKU, true)
			ck.integer(p+".quantity", it.Quantity, true)
			ck.present(p+".description", it.Description, true)
		}
	}
	switch {
	case level == levelShipping && in.Shipping == nil:
		ck.add("shipping", "is required for shipping orders")
	case level != levelShipping && in.Shipping != nil:
		ck.add("shipping", "is only accepted for shipping orders")
	case in.Shipping != nil:
		checkShipping(ck, in.Shipping)
	}
	return level
}

func checkShipping(ck *checker, sh *shippingIn) {
	ck.enum("shipping.carrier", sh.Carrier, true, "POSTAL", "PARCELA", "PARCELB")
	carrier := ""
	if sh.Carrier != nil {
		carrier = *sh.Carrier
	}
	services, known := carrierServices[carrier]
	if known {
		ck.enum("shipping.carrier_service", sh.CarrierService, true, services...)
		ck.enum("shipping.signature", sh.Signature, true, carrierSignatures[carrier]...)
	} else {
		ck.present("shipping.carrier_service", sh.CarrierService, true)
		ck.present("shipping.signature", sh.Signature, true)
	}
	service := ""
	if sh.CarrierService != nil {
		service = *sh.CarrierService
	}
	if sh.SaturdayDelivery != nil && *sh.SaturdayDelivery &&
		service != "PARCELA 2nd Day Air" && service != "PARCELA Next Day Air" {
		ck.addRaw(saturdayMessage)
	}
	if w := sh.Weight; w == nil {
		ck.add("shipping.weight", "is required")
	} else {
		ck.enum("shipping.weight.unit", w.Unit, true, "ounce", "pound")
		if v, ok := ck.number("shipping.weight.value", w.Value, true); ok {
			if v <= 0 {
				ck.add("shipping.weight.value", "must be greater than 0")
			}
			if service == "POSTAL First Class Mail" && w.Unit != nil &&
				((*w.Unit == "pound" && v >= 1) || (*w.Unit == "ounce" && v >= 16)) {
				ck.add("shipping.weight.value", "must be under 1 pound for POSTAL First Class Mail")
			}
		}
	}
	if sh.PackageCode != nil {
		if codes := carrierPackages[carrier]; known && len(codes) == 0 {
			ck.add("shipping.package_code", "is not available for this carrier")
		} else if known {
			ck.enum("shipping.package_code", sh.PackageCode, true, codes...)
		}
		return
	}
	d := sh.Dimensions
	if d == nil {
		ck.add("shipping.dimensions", "is required when package_code is not set")
		return
	}
	ck.enum("shipping.dimensions.unit", d.Unit, true, "inch")
	ck.positive("shipping.dimensions.length", d.Length, true)
	ck.positive("shipping.dimensions.width", d.Width, true)
	ck.positive("shipping.dimensions.height", d.Height, true)
}

// orderHandlers names the handler of each delivery order operation, one
// line per endpoint (handlers.go joins every interface's).
func (s *Sandbox) orderHandlers() map[string]handlerFunc {
	return map[string]handlerFunc{
		OpOrdersCreate:             s.createOrder,
		OpOrdersGetMany:            s.getOrders,
		OpOrdersCancel:             s.cancelOrder,
		OpOrdersGet:                s.getOrder,
		OpOrdersAddPrescription:    s.addPrescription,
		OpOrdersRemovePrescription: s.removePrescription,
	}
}

// ---- handlers ----

func (s *Sandbox) createOrder(c *call) {
	var in orderCreateIn
	body, ok := s.readJSONBody(c, &in)
	if !ok {
		return
	}
	var ck checker
	level := checkOrderCreate(&ck, &in)
	if !ck.ok() {
		s.fail(c, http.StatusBadRequest, "", ck.message())
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	o := &deliveryOrder{id: s.nextIDLocked("ord_"), level: level, status: orderNew, extRef: in.ExternalReferenceNumber}
	o.photoID = in.PhotoIDRequired != nil && *in.PhotoIDRequired
	for _, p := range *in.Prescriptions {
		o.rx = append(o.rx, *p.Number)
	}
	if level == levelShipping {
		o.ship = s.newShipmentLocked(in.Shipping)
		s.trackLocked(o.ship.trackingNumber)
	} else {
		o.eta = &etaOut{ArrivalAt: tsOffset(now.Add(2 * s.etaStep())), Type: "pickup"}
	}
	s.orders[o.id] = o
	s.stats.OrdersCreated++
	s.recordCreateLocked(Delivery, body)
	if s.cadence > 0 {
		s.scheduleOrderStepLocked(o, firstDue(now, s.cadence))
	}
	full := s.renderOrderLocked(o)
	writeJSON(c.w, http.StatusOK, map[string]any{"order": orderCreatedOut{
		ID: full.ID, Status: full.Status, Pickup: full.Pickup, Delivery: full.Delivery,
		Return: full.Return, Cancellation: full.Cancellation, ETA: full.ETA,
	}})
}

// etaStep is the cadence the ETA is computed with (DefaultCadence when
// automatic progression is off).
func (s *Sandbox) etaStep() time.Duration {
	if s.cadence > 0 {
		return s.cadence
	}
	return DefaultCadence
}

// newShipmentLocked creates the label data of a shipping order. The
// caller holds s.mu.
func (s *Sandbox) newShipmentLocked(in *shippingIn) *shipment {
	s.counter++
	n := s.counter
	sh := &shipment{carrier: *in.Carrier, service: *in.CarrierService, saturday: in.SaturdayDelivery != nil && *in.SaturdayDelivery}
	switch sh.carrier {
	case "PARCELA":
		sh.trackingNumber = fmt.Sprintf("1ZSBX%013d", n)
	case "PARCELB":
		sh.trackingNumber = fmt.Sprintf("%012d", 700000000000+n)
	default:
		sh.trackingNumber = fmt.Sprintf("9400%018d", n)
	}
	ounces := 0.0
	if in.Weight != nil && in.Weight.Value != nil {
		ounces, _ = in.Weight.Value.float()
		if in.Weight.Unit != nil && *in.Weight.Unit == "pound" {
			ounces *= 16
		}
	}
	sh.cost = serviceBaseCents[sh.service] + toCents(ounces*0.12)
	if sh.saturday {
		sh.cost += 1500
	}
	return sh
}

// scheduleOrderStepLocked queues the order's next automatic step at due:
// courier statuses for same-day and on-demand orders, tracking events for
// shipping orders.
func (s *Sandbox) scheduleOrderStepLocked(o *deliveryOrder, due time.Time) {
	epoch := o.epoch
	s.scheduleLocked(due, func(at time.Time) []notification {
		if o.epoch != epoch {
			return nil
		}
		var out []notification
		steps := len(courierSteps)
		if o.ship != nil {
			steps = len(trackingSteps)
			// emitLocked moves the order as the tracking status says.
			out = s.emitLocked(o.ship.trackingNumber, trackingSteps[o.step], at)
		} else {
			s.applyOrderStatusLocked(o, courierSteps[o.step], at)
		}
		o.step++
		if o.step < steps {
			s.scheduleOrderStepLocked(o, at.Add(s.cadence))
		}
		return out
	})
}

// applyOrderStatusLocked moves an order to status at the given time and
// fills the occurrence data the status implies. The caller holds s.mu.
func (s *Sandbox) applyOrderStatusLocked(o *deliveryOrder, status string, at time.Time) {
	courier := o.ship == nil
	switch status {
	case orderPickedUp:
		if courier {
			o.pickupAt = orTime(o.pickupAt, at)
			o.eta = &etaOut{ArrivalAt: tsOffset(at.Add(s.etaStep())), Type: "delivery"}
		}
	case orderDelivered:
		if courier {
			o.pickupAt = orTime(o.pickupAt, at)
			o.deliveredAt, o.attemptedAt = timep(at), nil
		} else {
			o.ship.deliveredAt = timep(at)
		}
	case orderAttempted:
		if courier {
			o.pickupAt = orTime(o.pickupAt, at)
			o.attemptedAt, o.deliveredAt = timep(at), nil
		}
	case orderReturned:
		if courier {
			o.pickupAt = orTime(o.pickupAt, at)
			if o.deliveredAt == nil {
				o.attemptedAt = orTime(o.attemptedAt, at)
			}
		}
		o.returnAt = timep(at)
	case orderCancelled:
		o.cancelledAt = timep(at)
	}
	o.status = status
}

// renderOrderLocked builds the wire form of an order. The caller holds
// s.mu.
func (s *Sandbox) renderOrderLocked(o *deliveryOrder) orderOut {
	out := orderOut{ID: o.id, Status: o.status, ExternalReferenceNumber: o.extRef}
	if o.returnAt != nil {
		out.Return = &occurrenceOut{OccurredAt: tsSeconds(*o.returnAt)}
	}
	if o.cancelledAt != nil {
		out.Cancellation = &cancellationOut{OccurredAt: tsSeconds(*o.cancelledAt), Reason: cancelledReason}
	}
	if sh := o.ship; sh != nil {
		out.Shipping = &shippingOut{
			TrackingNumber:   sh.trackingNumber,
			TrackingURL:      "https://sandbox.rxdelivery.invalid/track/" + sh.trackingNumber,
			Carrier:          sh.carrier,
			CarrierService:   sh.service,
			LabelPDF:         "https://sandbox.rxdelivery.invalid/labels/" + o.id + ".pdf",
			Cost:             sh.cost,
			SaturdayDelivery: sh.saturday,
		}
		if sh.deliveredAt != nil {
			out.Shipping.Delivery = &occurrenceOut{OccurredAt: tsSeconds(*sh.deliveredAt)}
		}
		return out
	}
	out.ETA = o.eta
	if o.pickupAt != nil {
		out.Pickup = &occurrenceOut{OccurredAt: tsSeconds(*o.pickupAt)}
	}
	switch {
	case o.deliveredAt != nil:
		out.Delivery = s.successfulDeliveryLocked(o.id, tsSeconds(*o.deliveredAt), o.level == levelSameday, o.photoID)
	case o.attemptedAt != nil:
		out.Delivery = &deliveryOut{OccurredAt: tsSeconds(*o.attemptedAt), FailureReason: strp("Recipient unavailable")}
	}
	return out
}

func (s *Sandbox) getOrder(c *call) {
	s.mu.Lock()
	defer s.mu.Unlock()
	o := s.orders[c.params["id"]]
	if o == nil {
		s.fail(c, http.StatusNotFound, "", "Order not found")
		return
	}
	writeJSON(c.w, http.StatusOK, map[string]any{"order": s.renderOrderLocked(o)})
}

func (s *Sandbox) getOrders(c *call) {
	ids, ok := s.idsParam(c)
	if !ok {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	out := []orderOut{}
	for _, id := range ids {
		if o := s.orders[id]; o != nil {
			out = append(out, s.renderOrderLocked(o))
		}
	}
	// x-rxdelivery-reading: orders-key. The array is keyed orders in the
	// sample body and labelled objects in the schema table (doc 2): the
	// simulator keys it orders (pinned by TestGetOrders).
	writeJSON(c.w, http.StatusOK, map[string]any{"orders": out})
}

func (s *Sandbox) cancelOrder(c *call) {
	s.mu.Lock()
	defer s.mu.Unlock()
	o := s.orders[c.params["id"]]
	if o == nil {
		s.fail(c, http.StatusNotFound, "", "Order not found")
		return
	}
	if o.status != orderNew && o.status != orderSubmitted {
		s.fail(c, http.StatusBadRequest, "", "Order is not in a cancellable status")
		return
	}
	o.epoch++
	s.applyOrderStatusLocked(o, orderCancelled, s.now())
	s.stats.OrdersCancelled++
	noContent(c.w)
}

// editableLocked answers 404 or 400 and returns nil unless the call's order
// exists and may still have its prescriptions changed (new or submitted to
// courier).
func (s *Sandbox) editableLocked(c *call) *deliveryOrder {
	o := s.orders[c.params["id"]]
	if o == nil {
		s.fail(c, http.StatusNotFound, "", "Order not found")
		return nil
	}
	if o.status != orderNew && o.status != orderSubmitted {
		s.fail(c, http.StatusBadRequest, "", "Prescriptions can only be changed while the order is new or submitted to courier")
		return nil
	}
	return o
}

func (s *Sandbox) addPrescription(c *call) {
	var in prescriptionIn
	if _, ok := s.readJSONBody(c, &in); !ok {
		return
	}
	var ck checker
	checkPrescription(&ck, "", &in)
	if !ck.ok() {
		s.fail(c, http.StatusBadRequest, "", ck.message())
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	o := s.editableLocked(c)
	if o == nil {
		return
	}
	for _, n := range o.rx {
		if n == *in.Number {
			s.fail(c, http.StatusBadRequest, "", "number: is already on the order")
			return
		}
	}
	o.rx = append(o.rx, *in.Number)
	full := s.renderOrderLocked(o)
	writeJSON(c.w, http.StatusOK, map[string]any{"order": orderBriefOut{
		ID: full.ID, Status: full.Status, Pickup: full.Pickup, Delivery: full.Delivery, Return: full.Return,
	}})
}

func (s *Sandbox) removePrescription(c *call) {
	s.mu.Lock()
	defer s.mu.Unlock()
	o := s.editableLocked(c)
	if o == nil {
		return
	}
	for i, n := range o.rx {
		if n == c.params["rx_number"] {
			o.rx = append(o.rx[:i:i], o.rx[i+1:]...)
			noContent(c.w)
			return
		}
	}
	s.fail(c, http.StatusNotFound, "", "Prescription not found on this order")
}

// SetOrderStatus moves delivery order id to status and stops its automatic
// progression. status is one of new, "submitted to courier" (or
// submitted_to_courier), picked_up, delivered, delivery_attempted,
// returned_to_pharmacy, cancelled; the occurrence data it implies is filled
// at the clock's time. It emits no tracking event (see EmitTracking).
func (s *Sandbox) SetOrderStatus(id, status string) error {
	if status == "submitted_to_courier" {
		status = orderSubmitted
	}
	switch status {
	case orderNew, orderSubmitted, orderPickedUp, orderDelivered, orderAttempted, orderReturned, orderCancelled:
	default:
		return fmt.Errorf("sandbox: unknown order status %q", status)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	o := s.orders[id]
	if o == nil {
		return fmt.Errorf("sandbox: no order %q", id)
	}
	o.epoch++
	s.applyOrderStatusLocked(o, status, s.now())
	return nil
}

// OrderStatus returns the status of delivery order id as the sandbox
// writes it, and whether the order exists.
func (s *Sandbox) OrderStatus(id string) (string, bool) {
	s.catchUp(s.now())
	s.mu.Lock()
	defer s.mu.Unlock()
	o := s.orders[id]
	if o == nil {
		return "", false
	}
	return o.status, true
}

// OrderTrackingNumber returns the tracking number of shipping order id, and
// whether the order exists and is a shipping order.
func (s *Sandbox) OrderTrackingNumber(id string) (string, bool) {
	s.catchUp(s.now())
	s.mu.Lock()
	defer s.mu.Unlock()
	o := s.orders[id]
	if o == nil || o.ship == nil {
		return "", false
	}
	return o.ship.trackingNumber, true
}

// idsParam reads the ids[] query of a get-many call, without repeats. It
// answers 400 and reports false when the query has other parameters or no
// id.
func (s *Sandbox) idsParam(c *call) ([]string, bool) {
	q := c.r.URL.Query()
	if !s.checkQuery(c, q, "ids[]") {
		return nil, false
	}
	ids := dedupe(q["ids[]"])
	if len(ids) == 0 {
		s.fail(c, http.StatusBadRequest, "", "ids[] is required")
		return nil, false
	}
	return ids, true
}
