package core

import (
	"context"
	"net/http"
	"net/url"

	"github.com/rxdelivery/rxdelivery-go/option"
)

// Call is one exchange as the tests of this package describe it: a method
// and a path of their own rather than one of the platform's endpoints.
type Call struct {
	Method, Path, Query string
	Body                any
	Write               bool
	Opts                []option.CallOption
}

// Response is what Do reports of a successful exchange.
type Response struct {
	StatusCode int
	Header     http.Header
}

// Do runs c through Execute on an endpoint made for it, decoding a 2xx
// body into out.
func (b *Backend) Do(ctx context.Context, c Call, out any) (*Response, error) {
	ep := &Endpoint{Name: "test.Call", Interface: b.iface, Method: c.Method, Route: c.Path, Write: c.Write}
	var md option.Metadata
	r := &Request{Endpoint: ep, Body: c.Body, Out: out, Opts: append([]option.CallOption{option.WithMetadata(&md)}, c.Opts...)}
	if c.Query != "" {
		q, err := url.ParseQuery(c.Query)
		if err != nil {
			panic(err)
		}
		r.Query = q
	}
	if err := b.Execute(ctx, *r); err != nil {
		return nil, err
	}
	return &Response{StatusCode: md.StatusCode, Header: md.Header}, nil
}
