package pharmacies

import (
	"context"
	"encoding/json"
	"errors"
	"iter"
	"slices"
	"strconv"

	"github.com/rxdelivery/rxdelivery-go/internal/core"
	"github.com/rxdelivery/rxdelivery-go/internal/validate"
	"github.com/rxdelivery/rxdelivery-go/internal/wiring"
	"github.com/rxdelivery/rxdelivery-go/option"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

// Service searches the pharmacy directory and reads one pharmacy (the omni
// interface's lookup endpoints), and asks whether a pharmacy delivers to an
// address (the delivery interface's delivery-information endpoint). A
// program gets it as client.Pharmacies; it is safe for concurrent use, and
// every method takes per-call options last (rxdelivery.CallOption).
type Service struct {
	omni, delivery *core.Backend
}

func init() {
	wiring.Pharmacies = func(omni, delivery *core.Backend) any { return &Service{omni: omni, delivery: delivery} }
}

// Search returns one page of the pharmacies within a deliverable radius of
// an origin address or place id (GET /api/v1/pharmacies/ on the omni
// interface), preferred pharmacies first, then by increasing distance.
// All walks every page.
func (s *Service) Search(ctx context.Context, p *SearchParams, opts ...option.CallOption) (*SearchPage, error) {
	return s.search(ctx, p, &searchResponse{}, opts)
}

// search is Search, with the checks of a walk's page in r.
func (s *Service) search(ctx context.Context, p *SearchParams, r *searchResponse, opts []option.CallOption) (*SearchPage, error) {
	req := core.Request{Endpoint: core.PharmaciesSearch, Check: core.Params(p, (*SearchParams).validate), Out: r, Opts: opts}
	if p != nil {
		req.Query = p
	}
	if err := s.omni.Execute(ctx, req); err != nil {
		return nil, err
	}
	if r.SearchPage.Pharmacies == nil {
		r.SearchPage.Pharmacies = []Pharmacy{}
	}
	return &r.SearchPage, nil
}

// searchResponse is a search page as decoded, with what All expects of
// it: the page number asked for, and the pharmacies of the page before.
type searchResponse struct {
	SearchPage          // decoded in place: its fields are the body's
	want       int      // the page asked for; 0 for a single Search
	prev       []string // pageKeys of the page before, in a walk
}

// CheckResponse refuses, in a walk, a page the platform responded with
// another page's number, or without a number and with the same pharmacies
// as the page before (core.ResponseChecker).
func (r *searchResponse) CheckResponse() error {
	switch got := r.Page; {
	case r.want == 0:
	case got != 0 && got != r.want:
		return errors.New("asked for page " + strconv.Itoa(r.want) + ", the response is page " + strconv.Itoa(got))
	case got == 0 && r.prev != nil && slices.Equal(r.prev, pageKeys(&r.SearchPage)):
		// A response without a page number is taken for a repeat when it
		// lists the same pharmacies as the page before.
		return errors.New("page " + strconv.Itoa(r.want) + " repeats page " + strconv.Itoa(r.want-1))
	}
	return nil
}

// Pages returns an iterator over the pages of a search, from p.Page (page
// 1 when 0) to the last page the platform reports. Each page comes whole,
// with its Count (pharmacies within the radius, over every page), Page,
// TotalPages and FormattedAddress, so a long walk can show its progress:
//
//	for page, err := range client.Pharmacies.Pages(ctx, &pharmacies.SearchParams{PlaceID: id}) {
//		if err != nil {
//			return err
//		}
//		fmt.Printf("page %d of %d (%d pharmacies near %s)\n",
//			page.Page, page.TotalPages, page.Count, page.FormattedAddress)
//	}
//
// Pages are fetched lazily, one at a time, when the loop reaches them, and
// breaking out of the loop fetches no further page. When a page fails
// (invalid params included) the error is yielded once, with a nil page,
// and the iteration ends. p is copied; the caller may reuse it. The walk
// is bounded as [Service.All]'s is: by the total_pages of the first page
// fetched, at an empty page (which is yielded), and with a
// *rxdelivery.DecodeError for a page the platform sends with another page's
// number, or without a number and with the same pharmacies as the page
// before.
func (s *Service) Pages(ctx context.Context, p *SearchParams, opts ...option.CallOption) iter.Seq2[*SearchPage, error] {
	return func(yield func(*SearchPage, error) bool) {
		if p == nil {
			_, err := s.search(ctx, nil, &searchResponse{}, opts)
			yield(nil, err)
			return
		}
		q := *p
		if q.Page == 0 {
			q.Page = 1
		}
		last := 0         // the first page's total_pages
		var prev []string // the identifiers of the page before
		for {
			page, err := s.search(ctx, &q, &searchResponse{want: q.Page, prev: prev}, opts)
			if err != nil {
				yield(nil, err)
				return
			}
			if last == 0 {
				last = page.TotalPages
			}
			if !yield(page, nil) {
				return
			}
			// An empty page ends the walk too, so that a platform that
			// misreports total_pages cannot loop it forever.
			if len(page.Pharmacies) == 0 || q.Page >= last {
				return
			}
			prev = pageKeys(page)
			q.Page++
		}
	}
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
// It is [Service.Pages] with each page's pharmacies yielded one by one:
// pages are fetched lazily, one at a time, when the loop reaches them; at
// most one page is held in memory, and breaking out of the loop fetches no
// further page. When a page fails (invalid params included) the error is
// yielded once, with a zero [Pharmacy], and the iteration ends. p is
// copied; the caller may reuse it. Use Pages to see the count and the page
// numbers as the walk goes.
//
// The walk is bounded by the total_pages of the first page fetched, and
// ends at an empty page. A page the platform sends with another page's
// number, or without a number and with the same pharmacies as the page
// before, ends it with a
// *rxdelivery.DecodeError (matching rxdelivery.ErrMalformedResponse), so a
// platform that keeps sending one page cannot loop it.
func (s *Service) All(ctx context.Context, p *SearchParams, opts ...option.CallOption) iter.Seq2[Pharmacy, error] {
	return func(yield func(Pharmacy, error) bool) {
		for page, err := range s.Pages(ctx, p, opts...) {
			if err != nil {
				yield(Pharmacy{}, err)
				return
			}
			for _, ph := range page.Pharmacies {
				if !yield(ph, nil) {
					return
				}
			}
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
// digits) (GET /api/v1/pharmacies/{id} on the omni interface). The response
// has no distance, so DistanceFromOrigin is nil.
func (s *Service) Get(ctx context.Context, id string, opts ...option.CallOption) (*Pharmacy, error) {
	var ph Pharmacy
	if err := s.omni.Execute(ctx, core.Request{Endpoint: core.PharmaciesGet, PathValues: []string{id},
		Check: checkID(id), Out: &ph, Opts: opts}); err != nil {
		return nil, err
	}
	return &ph, nil
}

// DeliveryInfo returns the delivery information of a pharmacy, by its NPI
// or NCPDP identifier, for a dropoff address (GET /api/v1/pharmacies/{id} on
// the delivery interface).
//
// The document names the inputs (delivery.address, POD, package,
// saturday.delivery) but neither where they go nor the response's schema.
// The SDK sends them as bracket-nested query parameters
// (delivery[address][street]=…&POD=…&package=…&saturday[delivery]=true)
// and returns the response whole in DeliveryInfo.Raw, with the NPI, NCPDP and
// name filled when the body carries them.
func (s *Service) DeliveryInfo(ctx context.Context, id string, p *DeliveryInfoParams, opts ...option.CallOption) (*DeliveryInfo, error) {
	params := core.Params(p, (*DeliveryInfoParams).validate)
	req := core.Request{Endpoint: core.PharmaciesDeliveryInfo, PathValues: []string{id},
		Check: func(ck core.Checks) error {
			if err := checkID(id)(ck); err != nil {
				return err
			}
			return params(ck)
		}, Opts: opts}
	if p != nil {
		req.Query = p.query()
	}
	var raw json.RawMessage
	req.Out = &raw
	if err := s.delivery.Execute(ctx, req); err != nil {
		return nil, err
	}
	return newDeliveryInfo(raw), nil
}

// checkID returns the check of a pharmacy id: when the client validates,
// an id that is neither an NCPDP identifier nor an NPI is refused. (An
// empty id, which would make the request a search, is refused whatever
// the setting, as every path value is.)
func checkID(id string) func(core.Checks) error {
	return func(ck core.Checks) error {
		if ck.Validate && !validate.Digits(id, 7) && !validate.Digits(id, 10) && core.CheckID("id", id) == nil {
			return idProblem("must be an NCPDP identifier (7 digits) or an NPI (10 digits)")
		}
		return nil
	}
}

func idProblem(msg string) error {
	return &rxtypes.ValidationError{Problems: []rxtypes.Problem{{Path: "id", Message: msg}}}
}
