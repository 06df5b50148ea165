package pharmacies

import (
	"context"
	"encoding/json"
	"iter"
	"net/http"
	"net/url"
	"slices"
	"strconv"

	"github.com/rxdelivery/rxdelivery-go/internal/core"
	"github.com/rxdelivery/rxdelivery-go/internal/validate"
	"github.com/rxdelivery/rxdelivery-go/internal/wiring"
	"github.com/rxdelivery/rxdelivery-go/option"
)

// Service calls the pharmacy lookup endpoints of the omni interface and the
// delivery-information endpoint of the delivery interface. Get one from
// rxdelivery.Client; it is safe for concurrent use.
//
// Every method takes per-call options as its trailing arguments
// (rxdelivery.WithRetryMax, WithAttemptTimeout, WithHeader, WithMetadata,
// WithMiddleware, ...): they apply to that call only.
type Service struct {
	omni, delivery *core.Backend
}

func init() {
	wiring.Pharmacies = func(omni, delivery *core.Backend) any { return &Service{omni: omni, delivery: delivery} }
}

// searchPath is the lookup's path; the document writes it with a trailing
// slash.
const searchPath = "/api/v1/pharmacies/"

// Search returns one page of the pharmacies within a deliverable radius of
// an origin address or place id (GET /api/v1/pharmacies/ on the omni
// interface), preferred pharmacies first, then by increasing distance.
// All walks every page.
func (s *Service) Search(ctx context.Context, p *SearchParams, opts ...option.CallOption) (*SearchPage, error) {
	page, _, err := s.search(ctx, p, opts)
	return page, err
}

// search is Search, and reports the call and its answer for All's checks.
func (s *Service) search(ctx context.Context, p *SearchParams, opts []option.CallOption) (*SearchPage, func(msg string) error, error) {
	if err := core.Check(s.omni, p, (*SearchParams).validate); err != nil {
		return nil, nil, core.Refused(opts, err)
	}
	q, err := core.Query(p)
	if err != nil {
		return nil, nil, core.Refused(opts, &core.ConfigError{Message: "GET " + searchPath + ": encoding the query failed", Err: err})
	}
	var page SearchPage
	c := core.Call{Method: http.MethodGet, Path: searchPath, Query: q,
		Op: "pharmacies.Search", Route: searchPath, Opts: core.CallOptions(opts)}
	resp, err := s.omni.Do(ctx, c, &page)
	if err != nil {
		return nil, nil, err
	}
	if page.Pharmacies == nil {
		page.Pharmacies = []Pharmacy{}
	}
	return &page, func(msg string) error { return core.Unusable(c, resp, msg) }, nil
}

// All returns an iterator over every pharmacy of a search, from p.Page
// (page 1 when 0) to the last page the platform reports, in the platform's
// order:
//
//	for ph, err := range client.Pharmacies.All(ctx, &pharmacies.SearchParams{PlaceID: id}) {
//		if err != nil {
//			return err
//		}
//		fmt.Println(ph.Name, ph.DistanceFromOrigin)
//	}
//
// Pages are fetched lazily, one at a time, when the loop reaches them: at
// most one page is held in memory, and breaking out of the loop fetches no
// further page. When a page fails (invalid params included) the error is
// yielded once, with a zero Pharmacy, and the iteration ends. p is copied;
// the caller may reuse it.
//
// The walk is bounded by the total_pages of the first page fetched, and
// ends at an empty page. A page the platform answers with another page's
// number, or without a number and with the same pharmacies as the page
// before, ends it with a
// *rxdelivery.DecodeError (matching rxdelivery.ErrMalformedResponse), so a
// platform that keeps answering one page cannot loop it.
func (s *Service) All(ctx context.Context, p *SearchParams, opts ...option.CallOption) iter.Seq2[Pharmacy, error] {
	return func(yield func(Pharmacy, error) bool) {
		if p == nil {
			yield(Pharmacy{}, core.Refused(opts, &validate.ValidationError{Problems: []validate.Problem{{Message: "params are required"}}}))
			return
		}
		q := *p
		if q.Page == 0 {
			q.Page = 1
		}
		last := 0         // the first page's total_pages
		var prev []string // the identifiers of the page before
		for {
			page, unusable, err := s.search(ctx, &q, opts)
			if err != nil {
				yield(Pharmacy{}, err)
				return
			}
			if last == 0 {
				last = page.TotalPages
			}
			keys := pageKeys(page)
			switch {
			case page.Page != 0 && page.Page != q.Page:
				yield(Pharmacy{}, unusable("asked for page "+strconv.Itoa(q.Page)+", the answer is page "+strconv.Itoa(page.Page)))
				return
			case page.Page == 0 && prev != nil && slices.Equal(prev, keys):
				// An answer without a page number is taken for a repeat
				// when it lists the same pharmacies as the page before.
				yield(Pharmacy{}, unusable("page "+strconv.Itoa(q.Page)+" repeats page "+strconv.Itoa(q.Page-1)))
				return
			}
			for _, ph := range page.Pharmacies {
				if !yield(ph, nil) {
					return
				}
			}
			// An empty page ends the walk too, so that a platform that
			// misreports total_pages cannot loop it forever.
			if len(page.Pharmacies) == 0 || q.Page >= last {
				return
			}
			prev = keys
			q.Page++
		}
	}
}

// pageKeys identifies a page by its pharmacies' NPI and NCPDP.
func pageKeys(p *SearchPage) []string {
	keys := make([]string, len(p.Pharmacies))
	for i, ph := range p.Pharmacies {
		keys[i] = ph.NPI + "/" + ph.NCPDP
	}
	return keys
}

// Get returns a pharmacy by its NCPDP identifier (7 digits) or NPI (10
// digits) (GET /api/v1/pharmacies/:id on the omni interface). The answer
// has no distance, so DistanceFromOrigin is nil.
func (s *Service) Get(ctx context.Context, id string, opts ...option.CallOption) (*Pharmacy, error) {
	if err := checkID(s.omni, id); err != nil {
		return nil, core.Refused(opts, err)
	}
	var ph Pharmacy
	if _, err := s.omni.Do(ctx, core.Call{Method: http.MethodGet, Path: pharmacyPath(id),
		Op: "pharmacies.Get", Route: pharmacyRoute, Opts: core.CallOptions(opts)}, &ph); err != nil {
		return nil, err
	}
	return &ph, nil
}

// DeliveryInfo returns the delivery information of a pharmacy, by its NPI
// or NCPDP identifier, for a dropoff address (GET /api/v1/pharmacies/:id on
// the delivery interface).
//
// The document names the inputs (delivery.address, POD, package,
// saturday.delivery) but neither where they go nor the answer's schema.
// The SDK sends them as bracket-nested query parameters
// (delivery[address][street]=…&POD=…&package=…&saturday[delivery]=true)
// and returns the answer whole in DeliveryInfo.Raw, with the NPI, NCPDP and
// name filled when the body carries them.
func (s *Service) DeliveryInfo(ctx context.Context, id string, p *DeliveryInfoParams, opts ...option.CallOption) (*DeliveryInfo, error) {
	if err := checkID(s.delivery, id); err != nil {
		return nil, core.Refused(opts, err)
	}
	if err := core.Check(s.delivery, p, (*DeliveryInfoParams).validate); err != nil {
		return nil, core.Refused(opts, err)
	}
	q, err := core.Query(p.query())
	if err != nil {
		return nil, core.Refused(opts, &core.ConfigError{Message: "GET /api/v1/pharmacies/:id: encoding the query failed", Err: err})
	}
	var raw json.RawMessage
	if _, err := s.delivery.Do(ctx, core.Call{Method: http.MethodGet, Path: pharmacyPath(id), Query: q,
		Op: "pharmacies.DeliveryInfo", Route: pharmacyRoute, Opts: core.CallOptions(opts)}, &raw); err != nil {
		return nil, err
	}
	return newDeliveryInfo(raw), nil
}

// pharmacyRoute is the templated path of one pharmacy, for hooks and
// telemetry.
const pharmacyRoute = searchPath + "{id}"

func pharmacyPath(id string) string { return searchPath + url.PathEscape(id) }

// checkID refuses an empty pharmacy id whatever the validation setting (a
// request with an empty id would be a search), and, when the client
// validates, an id that is neither an NCPDP identifier nor an NPI.
func checkID(b *core.Backend, id string) error {
	if err := core.CheckID("id", id); err != nil {
		return err
	}
	if _, on := b.Validation(); on && !validate.Digits(id, 7) && !validate.Digits(id, 10) {
		return idProblem("must be an NCPDP identifier (7 digits) or an NPI (10 digits)")
	}
	return nil
}

func idProblem(msg string) error {
	return &validate.ValidationError{Problems: []validate.Problem{{Path: "id", Message: msg}}}
}
