package rxtypes

// Gender is a patient's gender. It is required on orders and optional on
// omni requests.
type Gender string

// The genders of the document.
const (
	// GenderMale is male.
	GenderMale Gender = "male"
	// GenderFemale is female.
	GenderFemale Gender = "female"
	// GenderUnspecified is for a patient whose gender is not given.
	GenderUnspecified Gender = "unspecified"
)
