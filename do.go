package rxdelivery

import (
	"context"
	"net/url"

	"github.com/rxdelivery/rxdelivery-go/internal/core"
	"github.com/rxdelivery/rxdelivery-go/option"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

// Request is a call of an endpoint the SDK does not model yet, for
// [Client.Do]: the interface that serves it, the method, the path below the
// interface's base URL, and what goes out.
type Request struct {
	// Interface is the platform interface that serves the endpoint
	// ([Omni], [Delivery], [Tracking] or [Pricing]): the call goes to its
	// base URL with its credentials, through its rate limiter.
	Interface Interface
	// Method is the HTTP method. GET and HEAD are reads, retried as the
	// SDK's reads are; POST, PUT, PATCH and DELETE are writes, sent again
	// only where the platform provably did not act (a 429, a 503, a
	// connection that never carried the request), and a write that
	// failed otherwise is an unknown outcome, as a create is. Any other
	// method is refused.
	Method string
	// Path is the path below the interface's base URL, with a {name}
	// placeholder for each path parameter, such as
	// "/api/v1/orders/{id}/notes". It must start with "/" and hold no
	// query (see Query), fragment, dot segment or character that needs
	// escaping outside its placeholders.
	Path string
	// PathParams holds the value of each placeholder of Path. Each value
	// is escaped as one path segment ("a/b" cannot address another
	// path), and an empty, blank, "." or ".." value, or one with a
	// control character, is refused before anything is sent.
	PathParams map[string]string
	// Visible names the placeholders whose values errors, log lines and
	// transcripts may show, such as an order id the platform minted.
	// Every other placeholder is hidden: errors show ":name" in its place,
	// as they do for a prescription number. The values are removed from
	// the platform's words in errors either way.
	Visible []string
	// Query is sent as the query string, its values never logged nor
	// shown in errors or transcripts.
	Query url.Values
	// Body, when not nil, is encoded as JSON (a json.RawMessage is sent as
	// it is) with Content-Type application/json.
	Body any
	// Name names the operation in hooks, log lines, spans and metrics,
	// such as "orders.Reschedule": at most 64 letters, digits, '.' and
	// '_'. Empty means "rxdelivery.Do".
	Name string
}

// Do calls an endpoint the SDK does not model yet, with every guarantee a
// modelled call has: the interface's credentials and base URL, the
// loopback rule, the attempt timeout, the rate limiter and a Retry-After's
// pause, the retry policy and budget by the write class of Method, the
// redaction of errors (the values of PathParams, Query and Body removed
// from the platform's words), hooks, [Metadata], log lines and transcripts.
// Call options apply as to any call.
//
// A 2xx response's body is decoded into out, as encoding/json does, when
// out is not nil: a pointer to a struct of the caller's, a map, or a
// *json.RawMessage to keep it whole (a body that is not a JSON object is
// refused, but for a *json.RawMessage). A 204, a HEAD, or a nil out
// decodes nothing. Errors are those of every call: an *[APIError] for a
// status outside 2xx, a *[TransportError], a *[DecodeError], or a
// *[ConfigError] (a descriptor that cannot be sent: an unknown method, a
// Path that is not a path, a placeholder without its value, a PathParams
// key or Visible name Path does not have) or *[ValidationError] (an empty
// path value) before anything is sent.
//
// Do is the escape hatch for an endpoint the platform adds before the SDK
// models it. A modelled endpoint's own method validates its params and
// decodes into its models; prefer it where it exists. Fields the SDK's
// models do not know yet are read from the response as received, with
// [WithResponseInto].
func (c *Client) Do(ctx context.Context, r Request, out any, opts ...CallOption) error {
	var b *core.Backend
	if int(r.Interface) >= 0 && int(r.Interface) < len(c.backends) {
		b = c.backends[r.Interface]
	}
	if b == nil {
		// Refused before anything is sent: what the call's options ask to
		// fill says so, as for every other refusal.
		s, _ := option.Resolve(&option.Settings{}, opts)
		if s.Metadata != nil {
			*s.Metadata = Metadata{OutcomeKnown: true}
		}
		if s.Response != nil {
			*s.Response = RawResponse{}
		}
		return &rxtypes.ConfigError{Message: "Do: the Request's Interface is not one of Omni, Delivery, Tracking and Pricing"}
	}
	return b.ExecuteCustom(ctx, core.Custom{
		Name: r.Name, Method: r.Method, Route: r.Path, Params: r.PathParams, Visible: r.Visible,
		Query: r.Query, Body: r.Body, Out: out, Opts: opts,
	})
}
