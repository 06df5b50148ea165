// Package rxotel traces and measures the calls of an rxdelivery client
// with OpenTelemetry. It is its own module, so that a program that does
// not use OpenTelemetry does not download it.
//
//	client, err := rxdelivery.NewClient(key, secret,
//		rxdelivery.WithDeliveryURL(deliveryURL),
//		rxotel.New()) // the global tracer and meter providers
//
// Given to NewClient, [New]'s option covers every call; given to one call,
// that call only.
//
// # Spans
//
// Each call has a span named by its operation and templated path, such as
// "orders.Get /api/v1/orders/{id}", with one child span per attempt (the
// same name with " attempt" after it, of kind client). A retry is an event
// on the call span ("rxdelivery.retry", with the attempt's number and what
// the previous attempt got), after an event for the wait before it
// ("rxdelivery.wait", stamped when the wait began, with its length). The
// call span carries the verdict: rxdelivery.outcome is "ok", "failed" or
// "unknown" (a write that may or may not have taken effect, to reconcile),
// and error.type names the error by the SDK's sentinel ("unknown_outcome",
// "rate_limited", "not_found", ...) or kind ("transport", "canceled"),
// never by its message.
//
// # Metrics
//
//   - rxdelivery.client.calls: calls, by operation, interface, class,
//     outcome and error.type;
//   - rxdelivery.client.attempts: attempts, by operation, status and
//     error.type;
//   - rxdelivery.client.retries: retries, by operation;
//   - rxdelivery.client.unknown_outcomes: writes whose outcome is
//     unknown, by operation;
//   - rxdelivery.client.call.duration: the calls' duration in seconds,
//     waits included, by operation and outcome.
//
// # What is never recorded
//
// Spans, events and metrics carry the operation, method, templated path,
// interface, class, attempt numbers, statuses, durations, the platform's
// request id and error kinds. They never carry a query string, a body, a
// header the caller sent, an identifier from the path or a credential:
// the hooks this package is built on are not given them (see package
// option), and error messages, which can repeat the platform's words, are
// not recorded.
package rxotel

import (
	"context"
	"net/http"
	"strconv"
	"sync"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/option"
)

// ScopeName is the instrumentation scope of the tracer and the meter.
const ScopeName = "github.com/rxdelivery/rxdelivery-go/otel"

// Attribute keys this package records.
const (
	// KeyOperation is the operation, such as "orders.Create".
	KeyOperation = attribute.Key("rxdelivery.operation")
	// KeyInterface is the platform interface: omni, delivery, tracking or
	// pricing.
	KeyInterface = attribute.Key("rxdelivery.interface")
	// KeyClass is "safe" or "write".
	KeyClass = attribute.Key("rxdelivery.class")
	// KeyAttempt is an attempt's number, 1 for the first.
	KeyAttempt = attribute.Key("rxdelivery.attempt")
	// KeyAttempts is how many attempts a call made.
	KeyAttempts = attribute.Key("rxdelivery.attempts")
	// KeyOutcome is the call's verdict: "ok", "failed" or "unknown".
	KeyOutcome = attribute.Key("rxdelivery.outcome")
	// KeyOutcomeKnown is false for a write whose outcome is unknown.
	KeyOutcomeKnown = attribute.Key("rxdelivery.outcome_known")
	// KeyRequestID is the platform's request id, when it sent one.
	KeyRequestID = attribute.Key("rxdelivery.request_id")
	// KeyWait is a wait's length in seconds.
	KeyWait = attribute.Key("rxdelivery.wait_seconds")
	// KeyMethod, KeyRoute, KeyStatus and KeyErrorType follow
	// OpenTelemetry's HTTP and error conventions.
	KeyMethod    = attribute.Key("http.request.method")
	KeyRoute     = attribute.Key("url.template")
	KeyStatus    = attribute.Key("http.response.status_code")
	KeyErrorType = attribute.Key("error.type")
)

// Outcomes recorded in [KeyOutcome].
const (
	OutcomeOK      = "ok"
	OutcomeFailed  = "failed"
	OutcomeUnknown = "unknown"
)

// Config sets where [New] sends its spans and metrics.
type Config func(*config)

type config struct {
	tp    trace.TracerProvider
	mp    metric.MeterProvider
	props propagation.TextMapPropagator
}

// WithTracerProvider sets the tracer provider (default: the global one).
func WithTracerProvider(tp trace.TracerProvider) Config {
	return func(c *config) { c.tp = tp }
}

// WithMeterProvider sets the meter provider (default: the global one).
func WithMeterProvider(mp metric.MeterProvider) Config {
	return func(c *config) { c.mp = mp }
}

// WithPropagators sets the propagators that put the attempt's trace
// context in its request headers (default: the global ones, which send
// nothing until a program sets them).
func WithPropagators(p propagation.TextMapPropagator) Config {
	return func(c *config) { c.props = p }
}

// New returns the option that traces and measures calls: give it to
// [rxdelivery.NewClient] for every call, or to one call.
func New(cfgs ...Config) rxdelivery.CallOption {
	c := config{}
	for _, f := range cfgs {
		if f != nil {
			f(&c)
		}
	}
	if c.tp == nil {
		c.tp = otel.GetTracerProvider()
	}
	if c.mp == nil {
		c.mp = otel.GetMeterProvider()
	}
	if c.props == nil {
		c.props = otel.GetTextMapPropagator()
	}
	m := c.mp.Meter(ScopeName)
	t := &telemetry{tracer: c.tp.Tracer(ScopeName), props: c.props}
	// The instruments' constructors fail only on invalid names; these are
	// constant and valid, and a no-op instrument is returned regardless.
	t.calls, _ = m.Int64Counter("rxdelivery.client.calls", metric.WithUnit("{call}"),
		metric.WithDescription("Calls made, by operation and outcome."))
	t.attempts, _ = m.Int64Counter("rxdelivery.client.attempts", metric.WithUnit("{attempt}"),
		metric.WithDescription("HTTP attempts made, by operation and status."))
	t.retries, _ = m.Int64Counter("rxdelivery.client.retries", metric.WithUnit("{retry}"),
		metric.WithDescription("Attempts after the first, by operation."))
	t.unknown, _ = m.Int64Counter("rxdelivery.client.unknown_outcomes", metric.WithUnit("{call}"),
		metric.WithDescription("Writes whose outcome is unknown, to reconcile."))
	t.duration, _ = m.Float64Histogram("rxdelivery.client.call.duration", metric.WithUnit("s"),
		metric.WithDescription("Duration of calls, waits between attempts included."))
	return option.Join(option.WithCallMiddleware(t.call), option.WithMiddleware(t.attempt))
}

type telemetry struct {
	tracer                            trace.Tracer
	props                             propagation.TextMapPropagator
	calls, attempts, retries, unknown metric.Int64Counter
	duration                          metric.Float64Histogram
	// sets caches the metrics' attribute sets by setKey: building one
	// (sorting, deduplicating) costs more than the measurement itself,
	// and the sets are few (operations × outcomes × statuses × kinds).
	sets sync.Map
}

// setKey names one metric attribute set.
type setKey struct {
	which                       uint8 // the instrument group: setCall, setAttempt, setOp
	name, iface, class, outcome string
	kind                        string
	status                      int
}

const (
	setCall uint8 = iota
	setAttempt
	setOp
	setDuration
)

// set returns the measurement option of k, built once.
func (t *telemetry) set(k setKey) metric.MeasurementOption {
	if o, ok := t.sets.Load(k); ok {
		return o.(metric.MeasurementOption)
	}
	kvs := []attribute.KeyValue{KeyOperation.String(k.name), KeyInterface.String(k.iface)}
	switch k.which {
	case setCall:
		kvs = append(kvs, KeyClass.String(k.class), KeyOutcome.String(k.outcome))
	case setDuration:
		kvs = append(kvs, KeyOutcome.String(k.outcome))
	}
	if k.status != 0 {
		kvs = append(kvs, KeyStatus.Int(k.status))
	}
	if k.kind != "" {
		kvs = append(kvs, KeyErrorType.String(k.kind))
	}
	o, _ := t.sets.LoadOrStore(k, metric.WithAttributeSet(attribute.NewSet(kvs...)))
	return o.(metric.MeasurementOption)
}

// callRec is what a call's attempts share.
type callRec struct {
	span    trace.Span
	lastEnd time.Time
	last    option.AttemptResult
}

type recKey struct{}

func opAttrs(op *option.Operation) []attribute.KeyValue {
	return []attribute.KeyValue{
		KeyOperation.String(op.Name),
		KeyMethod.String(op.Method),
		KeyRoute.String(op.Path),
		KeyInterface.String(op.Interface),
		KeyClass.String(op.Class.String()),
	}
}

func (t *telemetry) call(next option.CallFunc) option.CallFunc {
	return func(ctx context.Context, op *option.Operation) option.CallResult {
		attrs := opAttrs(op)
		ctx, span := t.tracer.Start(ctx, op.Name+" "+op.Path, trace.WithAttributes(attrs...))
		rec := &callRec{span: span}
		res := next(context.WithValue(ctx, recKey{}, rec), op)

		outcome := OutcomeOK
		switch {
		case !res.Metadata.OutcomeKnown:
			outcome = OutcomeUnknown
		case res.Err != nil:
			outcome = OutcomeFailed
		}
		end := []attribute.KeyValue{
			KeyAttempts.Int(res.Metadata.Attempts),
			KeyOutcome.String(outcome),
			KeyOutcomeKnown.Bool(res.Metadata.OutcomeKnown),
		}
		if res.Metadata.StatusCode != 0 {
			end = append(end, KeyStatus.Int(res.Metadata.StatusCode))
		}
		if res.Metadata.RequestID != "" {
			end = append(end, KeyRequestID.String(res.Metadata.RequestID))
		}
		kind := option.ErrorKind(res.Err)
		if kind != "" {
			end = append(end, KeyErrorType.String(kind))
			span.SetStatus(codes.Error, kind)
		}
		span.SetAttributes(end...)
		span.End()

		t.calls.Add(ctx, 1, t.set(setKey{which: setCall, name: op.Name, iface: op.Interface,
			class: op.Class.String(), outcome: outcome, kind: kind}))
		t.duration.Record(ctx, res.Metadata.Duration.Seconds(), t.set(setKey{which: setDuration,
			name: op.Name, iface: op.Interface, outcome: outcome}))
		if outcome == OutcomeUnknown {
			t.unknown.Add(ctx, 1, t.set(setKey{which: setOp, name: op.Name, iface: op.Interface}))
		}
		return res
	}
}

func (t *telemetry) attempt(next option.AttemptFunc) option.AttemptFunc {
	return func(ctx context.Context, a *option.Attempt) option.AttemptResult {
		rec, _ := ctx.Value(recKey{}).(*callRec)
		if rec != nil && a.Number > 1 {
			if !rec.lastEnd.IsZero() {
				rec.span.AddEvent("rxdelivery.wait", trace.WithTimestamp(rec.lastEnd),
					trace.WithAttributes(KeyWait.Float64(time.Since(rec.lastEnd).Seconds())))
			}
			retry := []attribute.KeyValue{KeyAttempt.Int(a.Number)}
			if rec.last.StatusCode != 0 {
				retry = append(retry, KeyStatus.Int(rec.last.StatusCode))
			}
			if k := option.ErrorKind(rec.last.Err); k != "" {
				retry = append(retry, KeyErrorType.String(k))
			}
			rec.span.AddEvent("rxdelivery.retry", trace.WithAttributes(retry...))
			t.retries.Add(ctx, 1, t.set(setKey{which: setOp, name: a.Name, iface: a.Interface}))
		}
		attrs := append(opAttrs(&a.Operation), KeyAttempt.Int(a.Number))
		ctx, span := t.tracer.Start(ctx, a.Name+" "+a.Path+" attempt",
			trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(attrs...))
		t.props.Inject(ctx, headerSetter{a})
		r := next(ctx, a)
		k := option.ErrorKind(r.Err)
		if r.StatusCode != 0 {
			span.SetAttributes(KeyStatus.Int(r.StatusCode))
			if r.StatusCode >= 400 {
				span.SetStatus(codes.Error, strconv.Itoa(r.StatusCode)+" "+http.StatusText(r.StatusCode))
			}
		}
		if k != "" {
			span.SetAttributes(KeyErrorType.String(k))
			span.SetStatus(codes.Error, k)
		}
		span.End()
		t.attempts.Add(ctx, 1, t.set(setKey{which: setAttempt, name: a.Name, iface: a.Interface, status: r.StatusCode, kind: k}))
		if rec != nil {
			rec.lastEnd, rec.last = time.Now(), r
		}
		return r
	}
}

// headerSetter lets a propagator set the attempt's trace headers. It
// reads nothing: the request's headers are not the hook's to see.
type headerSetter struct{ a *option.Attempt }

func (h headerSetter) Get(string) string { return "" }
func (h headerSetter) Set(key, value string) {
	h.a.SetHeader(key, value)
}
func (h headerSetter) Keys() []string { return nil }
