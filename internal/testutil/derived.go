package testutil

import (
	"context"
	"net/url"
	"reflect"
	"regexp"
	"strings"
	"testing"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/internal/core"
	"github.com/rxdelivery/rxdelivery-go/option"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

// baseURLs are the mock client's base URL of each interface.
var baseURLs = map[rxtypes.Interface]string{
	rxtypes.InterfaceOmni: OmniURL, rxtypes.InterfaceDelivery: DeliveryURL,
	rxtypes.InterfaceTracking: TrackingURL, rxtypes.InterfacePricing: PricingURL,
}

var placeholder = regexp.MustCompile(`\{([^}]+)\}`)

// DerivedRow returns the test row of ep made from the endpoint table and
// its service method alone, for an endpoint whose only inputs are its
// path's placeholders (a read or a delete of a resource by id): its
// method is found by name on the Client (orders.ProofOfDelivery is
// Client.Orders.ProofOfDelivery) and must take a context, one string per
// placeholder in the route's order and the call options. Each placeholder
// is given "<name>_1"; the row's URL and Path are the route's with those
// values, a hidden placeholder shown as ":name" in Path; EmptyID passes ""
// as the first. It returns false, and says why, for an endpoint it cannot
// derive (a body, a query, another signature): such an endpoint's row is
// written in calls.go.
func DerivedRow(ep *core.Endpoint) (Call, string) {
	svcName, methodName, ok := strings.Cut(ep.Name, ".")
	if !ok || svcName == "" {
		return Call{}, "its name is not service.Method"
	}
	field, ok := reflect.TypeOf(rxdelivery.Client{}).FieldByName(strings.ToUpper(svcName[:1]) + svcName[1:])
	if !ok {
		return Call{}, "the Client has no service " + svcName
	}
	m, ok := field.Type.MethodByName(methodName)
	if !ok {
		return Call{}, "its service has no method " + methodName
	}
	names := placeholder.FindAllStringSubmatch(ep.Route, -1)
	mt := m.Type // the receiver, then the method's inputs
	ctxType := reflect.TypeOf((*context.Context)(nil)).Elem()
	optsType := reflect.TypeOf([]option.CallOption(nil))
	if !mt.IsVariadic() || mt.NumIn() != 2+len(names)+1 || mt.In(1) != ctxType || mt.In(mt.NumIn()-1) != optsType {
		return Call{}, "its method does not take (ctx, one string per path placeholder, ...option.CallOption)"
	}
	for i := range names {
		if mt.In(2+i).Kind() != reflect.String {
			return Call{}, "its method takes more than its path's placeholders"
		}
	}
	if mt.NumOut() == 0 || mt.Out(mt.NumOut()-1) != reflect.TypeOf((*error)(nil)).Elem() {
		return Call{}, "its method does not return an error last"
	}
	values := make([]string, len(names))
	urlPath, shown := ep.Route, ep.Route
	for i, n := range names {
		values[i] = n[1] + "_1"
		urlPath = strings.Replace(urlPath, n[0], url.PathEscape(values[i]), 1)
		show := values[i]
		for _, h := range ep.Hidden {
			if h == n[1] {
				show = ":" + n[1]
			}
		}
		shown = strings.Replace(shown, n[0], show, 1)
	}
	call := func(vals []string) CallFunc { return byReflection(field.Name, methodName, vals) }
	row := Call{
		Name: ep.Name, Interface: ep.Interface, Call: call(values),
		Method: ep.Method, URL: baseURLs[ep.Interface] + urlPath, Path: shown,
	}
	if len(values) > 0 {
		empty := append([]string{""}, values[1:]...)
		row.EmptyID = call(empty)
	}
	return row, ""
}

// DerivedCall returns the call DerivedRow makes of ep, with the given
// values of its placeholders in place of "<name>_1": a test calls an
// endpoint read or deleted by id on a resource it created.
func DerivedCall(ep *core.Endpoint, values ...string) (CallFunc, string) {
	row, why := DerivedRow(ep)
	if why != "" {
		return nil, why
	}
	if n := len(placeholder.FindAllString(ep.Route, -1)); n != len(values) {
		return nil, "its route has another number of placeholders"
	}
	svc, method, _ := strings.Cut(row.Name, ".")
	return byReflection(strings.ToUpper(svc[:1])+svc[1:], method, values), ""
}

// withDerived returns rows and, for each endpoint of core.Endpoints
// without one, its derived row (DerivedRow); an endpoint whose row cannot
// be derived fails t with the reason, to be written in calls.go.
func withDerived(t testing.TB, rows []Call) []Call {
	t.Helper()
	have := map[string]bool{}
	for _, r := range rows {
		have[r.Name] = true
	}
	for _, ep := range core.Endpoints {
		if have[ep.Name] {
			continue
		}
		row, why := DerivedRow(ep)
		if why != "" {
			t.Errorf("core.Endpoints has %s: its row cannot be derived (%s): add its row to testutil.Calls", ep.Name, why)
			continue
		}
		rows = append(rows, row)
	}
	return rows
}

// byReflection calls the method of the Client's service field with the
// strings vals after the context, then the call options.
func byReflection(field, method string, vals []string) CallFunc {
	return func(ctx context.Context, c *rxdelivery.Client, o ...option.CallOption) error {
		svc := reflect.ValueOf(c).Elem().FieldByName(field)
		args := []reflect.Value{reflect.Zero(reflect.TypeOf((*context.Context)(nil)).Elem())} // a nil context, as some tests pass
		if ctx != nil {
			args[0] = reflect.ValueOf(ctx)
		}
		for _, v := range vals {
			args = append(args, reflect.ValueOf(v))
		}
		args = append(args, reflect.ValueOf(append([]option.CallOption(nil), o...)))
		out := svc.MethodByName(method).CallSlice(args)
		err, _ := out[len(out)-1].Interface().(error)
		return err
	}
}
