package sandbox

import (
	"encoding/json"
	"math"
	"net/http"
	"strconv"
	"strings"
)

// ---- wire ----

// quotePlaceIn is a pickup or dropoff of a quote. Only the ZIP code is
// used; the other members are accepted because the document says they are
// not required (so a client may send them).
type quotePlaceIn struct {
	Name        *string `json:"name"`
	PhoneNumber *string `json:"phone_number"`
	Address     *struct {
		Street1 *string `json:"street1"`
		Street  *string `json:"street"`
		Street2 *string `json:"street2"`
		City    *string `json:"city"`
		State   *string `json:"state"`
		Zipcode *string `json:"zipcode"`
	} `json:"address"`
}

type quoteIn struct {
	Pickup            *quotePlaceIn `json:"pickup"`
	Dropoff           *quotePlaceIn `json:"dropoff"`
	Providers         *[]string     `json:"providers"`
	ServiceLevel      *string       `json:"service_level"`
	PackageDimensions *struct {
		LengthIn *num `json:"length_in"`
		WidthIn  *num `json:"width_in"`
		HeightIn *num `json:"height_in"`
		WeightOz *num `json:"weight_oz"`
	} `json:"package_dimensions"`
	PackageCode          json.RawMessage `json:"package_code"`
	SignatureRequirement json.RawMessage `json:"signature_requirement"`
}

type quoteOut struct {
	Provider string `json:"provider"`
	Service  string `json:"service"`
	PriceUSD cents  `json:"price_usd"`
}

// normalizeZIP returns the 5-digit form of a ZIP code written as 12345,
// 12345-6789 or 123456789 (surrounding spaces ignored).
func normalizeZIP(z string) (string, bool) {
	z = strings.TrimSpace(z)
	switch {
	case len(z) == 5 && allDigits(z):
		return z, true
	case len(z) == 9 && allDigits(z):
		return z[:5], true
	case len(z) == 10 && z[5] == '-' && allDigits(z[:5]) && allDigits(z[6:]):
		return z[:5], true
	}
	return "", false
}

// quoteZIP checks the ZIP code of a pickup or dropoff.
func quoteZIP(ck *checker, path string, p *quotePlaceIn) string {
	if p == nil || p.Address == nil || p.Address.Zipcode == nil {
		ck.add(path+".address.zipcode", "is required")
		return ""
	}
	z, ok := normalizeZIP(*p.Address.Zipcode)
	if !ok {
		ck.add(path+".address.zipcode", "must normalize to a valid 5-digit ZIP code")
	}
	return z
}

// quotePrice is the sandbox's deterministic price: 4.50, plus 0.35 per
// started ounce, plus 1.10 per hundred between the first three digits of
// the two ZIP codes, plus 5.00 above one cubic foot.
func quotePrice(from, to string, l, w, h, oz float64) cents {
	a, _ := strconv.Atoi(from[:3])
	b, _ := strconv.Atoi(to[:3])
	zone := a - b
	if zone < 0 {
		zone = -zone
	}
	price := cents(450) + cents(math.Ceil(oz))*35 + cents(zone/100)*110
	if l*w*h > 1728 {
		price += 500
	}
	return price
}

// pricingHandlers names the handler of each pricing operation, one line
// per endpoint (handlers.go joins every interface's).
func (s *Sandbox) pricingHandlers() map[string]handlerFunc {
	return map[string]handlerFunc{
		OpPricingQuote: s.createQuote,
	}
}

func (s *Sandbox) createQuote(c *call) {
	var in quoteIn
	if _, ok := s.readJSONBody(c, &in); !ok {
		return
	}
	var ck checker
	from := quoteZIP(&ck, "pickup", in.Pickup)
	to := quoteZIP(&ck, "dropoff", in.Dropoff)
	if in.Providers != nil {
		for _, p := range *in.Providers {
			if p != "all" && p != "postal" {
				ck.add("providers", "unsupported provider (accepted: all, postal)")
				break
			}
		}
	}
	ck.enum("service_level", in.ServiceLevel, false, "all", "ground_service")
	var l, w, h, oz float64
	if d := in.PackageDimensions; d == nil {
		ck.add("package_dimensions", "length_in, width_in, height_in and weight_oz are required")
	} else {
		for _, m := range []struct {
			name string
			v    *num
			out  *float64
		}{{"length_in", d.LengthIn, &l}, {"width_in", d.WidthIn, &w}, {"height_in", d.HeightIn, &h}, {"weight_oz", d.WeightOz, &oz}} {
			if f, ok := ck.number("package_dimensions."+m.name, m.v, true); ok {
				*m.out = f
				switch {
				case m.name == "weight_oz" && f <= 0:
					ck.add("package_dimensions."+m.name, "must be greater than 0")
				case f < 0:
					ck.add("package_dimensions."+m.name, "must not be negative")
				}
			}
		}
	}
	if len(in.PackageCode) > 0 && string(in.PackageCode) != "null" {
		ck.add("package_code", "is not supported in this version")
	}
	if len(in.SignatureRequirement) > 0 && string(in.SignatureRequirement) != "null" {
		ck.add("signature_requirement", "is not supported in this version")
	}
	if !ck.ok() {
		s.fail(c, http.StatusBadRequest, "", ck.message())
		return
	}
	quotes := []quoteOut{}
	if !noService(to) && !s.noQuotes.Load() {
		quotes = append(quotes, quoteOut{Provider: "postal", Service: "ground_service", PriceUSD: quotePrice(from, to, l, w, h, oz)})
	}
	s.mu.Lock()
	s.stats.QuotesServed++
	s.mu.Unlock()
	writeJSON(c.w, http.StatusOK, map[string]any{"quotes": quotes})
}

// SetEmptyQuotes makes every valid quote call answer 200 {"quotes":[]}
// (when empty is true), as the platform does when no quote matches, or
// restores the normal answer.
func (s *Sandbox) SetEmptyQuotes(empty bool) { s.noQuotes.Store(empty) }
