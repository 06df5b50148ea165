// Command consumer is the program .ci/consumer.sh builds in a scratch
// module outside the repository, as a user's program: it requires the
// journal and otel modules at their release version, with each module of
// the repository replaced by its directory (as a user does before the
// release is published). It creates an order exactly once against the
// test kit's simulator through a journal in a SQLite file, with the calls
// traced, and exits non-zero when anything differs.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/rxdelivery/rxdelivery-go/journal"
	"github.com/rxdelivery/rxdelivery-go/journal/sqlitestore"
	rxotel "github.com/rxdelivery/rxdelivery-go/otel"
	"github.com/rxdelivery/rxdelivery-go/rxdeliverytest"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "consumer:", err)
		os.Exit(1)
	}
}

func run() error {
	srv := rxdeliverytest.NewServer()
	defer srv.Close()
	spans := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans))
	defer func() { _ = tp.Shutdown(context.Background()) }()
	client, err := srv.NewClient(rxotel.New(rxotel.WithTracerProvider(tp)))
	if err != nil {
		return err
	}

	dir, err := os.MkdirTemp("", "consumer")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	store, err := sqlitestore.Open(filepath.Join(dir, "journal.db"))
	if err != nil {
		return err
	}
	defer store.Close()

	ctx := context.Background()
	orders := journal.New(store).Orders(client.Orders)
	params := rxdeliverytest.SamedayOrderParams()
	params.ExternalReferenceNumber = "rx-consumer-0001"
	first, err := orders.Create(ctx, params)
	if err != nil {
		return fmt.Errorf("first create: %w", err)
	}
	// The same create again (a retry, another replica, a restart): the
	// journal returns the order it recorded without sending it again.
	again, err := orders.Create(ctx, params)
	if err != nil {
		return fmt.Errorf("second create: %w", err)
	}
	if again.ID != first.ID {
		return fmt.Errorf("the second create returned order %s, the first %s", again.ID, first.ID)
	}
	if n := len(srv.Orders()); n != 1 {
		return fmt.Errorf("%d orders on the platform, want 1", n)
	}
	if n := len(srv.CallsTo(rxdeliverytest.OrdersCreate)); n != 1 {
		return fmt.Errorf("%d create calls reached the platform, want 1", n)
	}
	if len(spans.Ended()) == 0 {
		return errors.New("no span was recorded")
	}
	fmt.Printf("created %s exactly once (%d spans)\n", first.ID, len(spans.Ended()))
	return nil
}
