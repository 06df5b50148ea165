// Package usps reads the parts of a US postal address the platform checks:
// the two-letter state codes and ZIP codes, in the forms pharmacy systems
// write them, and the forms the platform takes on the wire. It depends on
// nothing of the SDK, so the public models and the validation rules can
// both use it.
package usps
