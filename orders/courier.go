package orders

import "github.com/rxdelivery/rxdelivery-go/types"

// The models the delivery order and omni request documents share are
// defined in package types; these names are the ones the orders package
// has always used.
type (
	// Status is types.OrderStatus: the current state of an order.
	Status = types.OrderStatus
	// Pickup is types.Pickup: when the courier picked the item up.
	Pickup = types.Pickup
	// Return is types.Return: when the item was brought back.
	Return = types.Return
	// Delivery is types.Delivery: the outcome of a delivery or an attempt.
	Delivery = types.Delivery
	// Relationship is types.Relationship: the recipient's relationship to
	// the patient.
	Relationship = types.Relationship
	// RecipientIdentification is types.RecipientIdentification: the
	// identification checked at the point of delivery.
	RecipientIdentification = types.RecipientIdentification
	// IDQualifier is types.IDQualifier: the code of an identification type.
	IDQualifier = types.IDQualifier
	// Gender is types.Gender: a patient's gender.
	Gender = types.Gender
	// Address is types.Address: a US postal address of the delivery
	// interface.
	Address = types.Address
)

// The order statuses (types.OrderStatusNew and so on).
const (
	// StatusNew is an order the platform accepted and has not yet handed
	// to a courier.
	StatusNew = types.OrderStatusNew
	// StatusSubmittedToCourier is an order handed to a courier.
	StatusSubmittedToCourier = types.OrderStatusSubmittedToCourier
	// StatusPickedUp is an order the courier picked up.
	StatusPickedUp = types.OrderStatusPickedUp
	// StatusDelivered is an order delivered to the recipient.
	StatusDelivered = types.OrderStatusDelivered
	// StatusDeliveryAttempted is an order whose delivery was attempted and
	// failed.
	StatusDeliveryAttempted = types.OrderStatusDeliveryAttempted
	// StatusReturnedToPharmacy is an order brought back to the pharmacy.
	StatusReturnedToPharmacy = types.OrderStatusReturnedToPharmacy
	// StatusCancelled is a cancelled order.
	StatusCancelled = types.OrderStatusCancelled
)

// The genders of the document.
const (
	// GenderMale is male.
	GenderMale = types.GenderMale
	// GenderFemale is female.
	GenderFemale = types.GenderFemale
	// GenderUnspecified is for a patient whose gender is not given.
	GenderUnspecified = types.GenderUnspecified
)

// RelationshipOther means the relationship is described in
// Delivery.OtherRelationshipDescription.
const RelationshipOther = types.RelationshipOther

// Identification qualifier codes (types.QualifierMilitaryID and so on).
const (
	// QualifierMilitaryID is "01", a military ID.
	QualifierMilitaryID = types.QualifierMilitaryID
	// QualifierStateIssuedID is "02", a state issued ID.
	QualifierStateIssuedID = types.QualifierStateIssuedID
	// QualifierUniqueSystemID is "03", a unique system ID.
	QualifierUniqueSystemID = types.QualifierUniqueSystemID
	// QualifierPermanentResidentCard is "04", a permanent resident card.
	QualifierPermanentResidentCard = types.QualifierPermanentResidentCard
	// QualifierPassportID is "05", a passport.
	QualifierPassportID = types.QualifierPassportID
	// QualifierDriversLicenseID is "06", a driver's license.
	QualifierDriversLicenseID = types.QualifierDriversLicenseID
	// QualifierSocialSecurityNumber is "07", a social security number.
	QualifierSocialSecurityNumber = types.QualifierSocialSecurityNumber
	// QualifierTribalID is "08", a tribal ID.
	QualifierTribalID = types.QualifierTribalID
)
