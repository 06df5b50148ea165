package tracking

import (
	"net/url"

	"github.com/rxdelivery/rxdelivery-go/internal/validate"
)

// SubscribeParams are the fields of [Service.Subscribe].
type SubscribeParams struct {
	// TrackingNumber is the POSTAL or PARCELA tracking number to subscribe
	// to. Required.
	TrackingNumber string `json:"tracking_number"`
	// ListenerURL is the address that receives the notifications. Required;
	// it must be an absolute https URL with a host.
	ListenerURL string `json:"listener_url"`
	// ReferenceID is the caller's own reference, stored with the
	// subscription and echoed in it and in every notification. Optional.
	ReferenceID string `json:"reference_id,omitempty"`
}

// Validate reports every problem of p, each with its JSON path, as a
// *rxdelivery.ValidationError; nil when p is valid.
func (p *SubscribeParams) Validate() error { return p.validate(validate.Options{}) }

func (p *SubscribeParams) validate(o validate.Options) error {
	c := validate.Collector{Options: o}
	c.Required("tracking_number", p.TrackingNumber)
	if c.Required("listener_url", p.ListenerURL) {
		if msg := checkListenerURL(p.ListenerURL); msg != "" {
			c.Add("listener_url", msg)
		}
	}
	c.Text("reference_id", p.ReferenceID)
	return c.Err()
}

// checkListenerURL returns what is wrong with a listener URL, or "". The
// message never quotes the URL.
func checkListenerURL(s string) string {
	u, err := url.Parse(s)
	switch {
	case err != nil:
		return "must be a valid URL"
	case u.Scheme != "https":
		return "must be an absolute https URL"
	case u.Opaque != "" || u.Host == "" || u.Hostname() == "":
		return "must be an absolute https URL with a host"
	}
	return ""
}
