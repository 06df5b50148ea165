package journal_test

import (
	"context"
	"errors"
	"net"
	"testing"
	"time"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/journal"
)

// httptest: a create dialled to a closed loopback port never leaves, and a create the platform holds on a real connection is ended by the lease's deadline.

// TestUnsentCreateReleasesTheClaim: a create that fails before it is
// sent (a dial to a port nothing listens on) proves nothing was created,
// so its claim is released.
func TestUnsentCreateReleasesTheClaim(t *testing.T) {
	t.Parallel()
	j := journal.New(journal.NewMemoryStore())
	ctx := context.Background()

	// Nothing listens: the request never leaves.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String()
	ln.Close()
	c, err := rxdelivery.NewClient("key", "secret", rxdelivery.WithDeliveryURL(closed), rxdelivery.WithRetryMax(0))
	if err != nil {
		t.Fatal(err)
	}
	_, err = j.Orders(c.Orders).Create(ctx, orderParams("unsent"))
	if err == nil || errors.Is(err, rxdelivery.ErrUnknownOutcome) {
		t.Fatalf("Create to a closed port = %v; want a known failure", err)
	}
	if _, err := j.Get(ctx, deliveryKey("unsent")); !errors.Is(err, journal.ErrNoClaim) {
		t.Fatalf("claim after a failed dial: %v; want released", err)
	}
}

func TestCreateIsBoundedByTheLease(t *testing.T) {
	t.Parallel()
	// The lease's deadline ends a create the platform holds on a real
	// connection, after the request was written.
	p := newLoopbackPlatform(t)
	p.hold, p.arrived = make(chan struct{}), make(chan string, 1)
	defer close(p.hold)
	j := journal.New(journal.NewMemoryStore(), journal.WithLease(2*time.Second))
	_, err := j.Orders(p.client(t).Orders).Create(context.Background(), orderParams("slow"))
	if !errors.Is(err, rxdelivery.ErrUnknownOutcome) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Create past the lease = %v; want ErrUnknownOutcome after the deadline", err)
	}
	if c, _ := j.Get(context.Background(), deliveryKey("slow")); c.State != journal.StateUnknown {
		t.Fatalf("claim = %+v; want unknown", c)
	}
}
