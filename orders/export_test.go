package orders

// AddPrescriptionBody returns the body AddPrescription sends for p, for
// the one-pass encoding tests.
func AddPrescriptionBody(p *Prescription) interface {
	AppendJSON([]byte) ([]byte, error)
} {
	return p.addBody()
}
