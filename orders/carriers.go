package orders

// The shipping rules of the document, by carrier: which services,
// signatures and package codes each carrier offers, and which services
// deliver on Saturdays.

var carrierServices = map[Carrier][]CarrierService{
	CarrierParcelA: {
		CarrierServiceParcelAGround, CarrierServiceParcelA2ndDayAir, CarrierServiceParcelANextDayAir,
	},
	CarrierParcelB: {
		CarrierServiceParcelB2Day, CarrierServiceParcelBStandardOvernight,
		CarrierServiceParcelBPriorityOvernight, CarrierServiceParcelBGround,
		CarrierServiceParcelBHomeDelivery,
	},
	CarrierPostal: {
		CarrierServicePostalPriorityMail, CarrierServicePostalPriorityMailExpress,
		CarrierServicePostalFirstClassMail,
	},
}

var carrierSignatures = map[Carrier][]Signature{
	CarrierPostal:  {SignatureNone, SignatureRequired, SignatureAdultRequired, SignaturePatient},
	CarrierParcelA: {SignatureNone, SignatureRequired, SignatureAdultRequired},
	CarrierParcelB: {SignatureNone, SignatureRequired, SignaturePatient, SignatureAdultRequired},
}

var carrierPackages = map[Carrier][]PackageCode{
	CarrierPostal: {
		PackagePostalSmallFlatRateBox, PackagePostalMediumFlatRateBox, PackagePostalLargeFlatRateBox,
	},
	CarrierParcelB: {
		PackageParcelBEnvelopeOneRate, PackageParcelBSmallBoxOneRate, PackageParcelBMediumBoxOneRate,
		PackageParcelBLargeBoxOneRate, PackageParcelBExtraLargeBoxOneRate,
	},
}

// signatures lists every signature, in the document's order.
var signatures = []Signature{SignatureNone, SignatureRequired, SignatureAdultRequired, SignaturePatient}

// carriers lists the carriers in the document's order.
var carriers = []Carrier{CarrierPostal, CarrierParcelA, CarrierParcelB}

// Known reports whether c is one of the document's carriers.
func (c Carrier) Known() bool {
	_, ok := carrierServices[c]
	return ok
}

// Services returns the carrier's services, or nil for an unknown carrier.
func (c Carrier) Services() []CarrierService {
	return append([]CarrierService(nil), carrierServices[c]...)
}

// Signatures returns the signatures the carrier supports, or nil for an
// unknown carrier.
func (c Carrier) Signatures() []Signature {
	return append([]Signature(nil), carrierSignatures[c]...)
}

// SupportsSignature reports whether the carrier offers signature s.
func (c Carrier) SupportsSignature(s Signature) bool {
	return contains(carrierSignatures[c], s)
}

// PackageCodes returns the carrier's package codes; PARCELA and unknown
// carriers have none.
func (c Carrier) PackageCodes() []PackageCode {
	return append([]PackageCode(nil), carrierPackages[c]...)
}

// Carrier returns the carrier the service belongs to, or "" for a service
// the document does not list.
func (s CarrierService) Carrier() Carrier {
	for _, c := range carriers {
		if contains(carrierServices[c], s) {
			return c
		}
	}
	return ""
}

// OffersSaturdayDelivery reports whether the service delivers on
// Saturdays: only PARCELA 2nd Day Air and PARCELA Next Day Air do.
func (s CarrierService) OffersSaturdayDelivery() bool {
	return s == CarrierServiceParcelA2ndDayAir || s == CarrierServiceParcelANextDayAir
}

// Carrier returns the carrier the package code belongs to, or "" for a
// code the document does not list.
func (p PackageCode) Carrier() Carrier {
	for _, c := range carriers {
		if contains(carrierPackages[c], p) {
			return c
		}
	}
	return ""
}

func contains[T comparable](list []T, v T) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// allServices lists every carrier service, for validation messages.
func allServices() []CarrierService {
	var all []CarrierService
	for _, c := range carriers {
		all = append(all, carrierServices[c]...)
	}
	return all
}

// allPackageCodes lists every package code, for validation messages.
func allPackageCodes() []PackageCode {
	var all []PackageCode
	for _, c := range carriers {
		all = append(all, carrierPackages[c]...)
	}
	return all
}
