package callpath_test

import (
	"context"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/orders"
	"github.com/rxdelivery/rxdelivery-go/rxdeliverytest"
)

// platform answers every request with the documents' new sameday order,
// without a socket: the measure counts the SDK's functions, not
// net/http's.
type platform struct{ body string }

func (p platform) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Body != nil {
		_, _ = io.Copy(io.Discard, r.Body)
		_ = r.Body.Close()
	}
	return &http.Response{
		StatusCode:    http.StatusCreated,
		Header:        http.Header{"Content-Type": {"application/json"}},
		Body:          io.NopCloser(strings.NewReader(p.body)),
		ContentLength: int64(len(p.body)),
		Request:       r,
	}, nil
}

// setup makes what both measures make: the client and the params.
func setup(t *testing.T) (*rxdelivery.Client, *orders.CreateParams) {
	t.Helper()
	body, err := os.ReadFile("../../testdata/delivery/order_new_sameday.json")
	if err != nil {
		t.Fatal(err)
	}
	c, err := rxdelivery.NewClient("key", "secret",
		rxdelivery.WithDeliveryURL("https://delivery.example.com"),
		rxdelivery.WithHTTPClient(&http.Client{Transport: platform{string(body)}}))
	if err != nil {
		t.Fatal(err)
	}
	return c, rxdeliverytest.SamedayOrderParams()
}

// TestClientOnly makes a client and the params of a create, and sends
// nothing: the base count.sh subtracts.
func TestClientOnly(t *testing.T) {
	c, p := setup(t)
	if c == nil || p == nil {
		t.Fatal("no client")
	}
}

// TestClientAndCreate makes a client and the params, and creates one
// order: the functions it runs beyond TestClientOnly's are those of a
// first create.
func TestClientAndCreate(t *testing.T) {
	c, p := setup(t)
	o, err := c.Orders.Create(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if o.ID == "" {
		t.Fatal("the order has no id")
	}
}
