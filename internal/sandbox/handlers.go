package sandbox

// handlers maps each operation to the method that serves it, one line per
// endpoint: the generated Routes give each operation's interface, method
// and route, and New fails on an operation without a line here (or a line
// without an operation). A new endpoint's handler is written in the file
// of its interface (omni.go, orders.go, pharmacies.go, tracking.go,
// pricing.go) and named here.
func (s *Sandbox) handlers() map[string]handlerFunc {
	return map[string]handlerFunc{
		OpRequestsCreate:           s.createRequest,
		OpRequestsCancel:           s.cancelRequest,
		OpRequestsGet:              s.getRequest,
		OpRequestsGetMany:          s.getRequests,
		OpPharmaciesSearch:         s.searchPharmacies,
		OpPharmaciesGet:            s.getPharmacy,
		OpPharmaciesDeliveryInfo:   s.deliveryInfo,
		OpOrdersCreate:             s.createOrder,
		OpOrdersGetMany:            s.getOrders,
		OpOrdersCancel:             s.cancelOrder,
		OpOrdersGet:                s.getOrder,
		OpOrdersAddPrescription:    s.addPrescription,
		OpOrdersRemovePrescription: s.removePrescription,
		OpTrackingSubscribe:        s.subscribe,
		OpTrackingGetSubscription:  s.getSubscription,
		OpPricingQuote:             s.createQuote,
	}
}
