package benchmarks_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"

	jsonv2 "github.com/go-json-experiment/json"
)

// floor is the least a client can spend on a big read, the yardstick of the
// SDK's search and get-many: the hand-written client's transport, the body
// read whole, and a json/v2-class decoder (the class the SDK decodes with)
// filling the integrator's plain structs. It checks nothing but the status,
// keeps no money exact, and parses no tolerant timestamp: what the SDK
// spends above it is the price of those.
type floor struct {
	plainHTTP
}

func newFloor(h *handwritten) *floor { return &floor{h.plainHTTP} }

// get sends a GET and decodes a 2xx answer into out.
func (c *floor) get(ctx context.Context, u string, out any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", c.auth)
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", c.ua)
	resp, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return fmt.Errorf("GET %s: status %d", u, resp.StatusCode)
	}
	return jsonv2.Unmarshal(data, out)
}

func (c *floor) search(ctx context.Context, origin string, page, size int) (*hwSearchPage, error) {
	q := url.Values{}
	q.Set("origin_address", origin)
	q.Set("page", strconv.Itoa(page))
	q.Set("page_size", strconv.Itoa(size))
	var p hwSearchPage
	if err := c.get(ctx, c.omni+"/api/v1/pharmacies/?"+q.Encode(), &p); err != nil {
		return nil, err
	}
	return &p, nil
}

func (c *floor) getMany(ctx context.Context, ids []string) ([]hwOrder, error) {
	q := url.Values{"ids[]": ids}
	var env struct {
		Orders []hwOrder `json:"orders"`
	}
	if err := c.get(ctx, c.delivery+"/api/v1/orders?"+q.Encode(), &env); err != nil {
		return nil, err
	}
	return env.Orders, nil
}
