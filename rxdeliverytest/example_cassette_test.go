package rxdeliverytest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"testing"
	"time"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/rxdeliverytest"
)

// samedayCassette was recorded against rxdelivery sandbox (docs/cassettes.md):
//
//	rxdelivery sandbox --addr 127.0.0.1:8787 --cadence 2s --env-file sandbox.env &
//	. ./sandbox.env
//	RXDELIVERY_RECORD=1 go test -run TestSamedayCassette ./rxdeliverytest
const samedayCassette = "testdata/cassettes/sameday.json"

// followSameday is the code under test of the cassette examples: it
// creates a same-day order and follows it to a final status, and returns
// what it saw.
func followSameday(ctx context.Context, client *rxdelivery.Client) ([]string, error) {
	order, err := client.Orders.Create(ctx, rxdeliverytest.SamedayOrderParams())
	if err != nil {
		return nil, err
	}
	seen := []string{"created " + order.ID + " " + string(order.Status)}
	for o, err := range client.Orders.Watch(ctx, order.ID, rxdelivery.WithPollInterval(500*time.Millisecond)) {
		if err != nil {
			return seen, err
		}
		line := "status " + string(o.Status)
		if o.Delivery != nil {
			line += ", signed by " + o.Delivery.SignedBy
		}
		seen = append(seen, line)
	}
	return seen, nil
}

// Record a client's exchanges with the simulator into a cassette: the patient's values are placeholders, the ids as they were.
func ExampleRecorder() {
	rec := rxdeliverytest.NewRecorder(nil)
	srv := rxdeliverytest.NewServer(rxdeliverytest.WithClientOptions(rec.ClientOptions()...)) // in a test: rxdeliverytest.Start(t, ...)
	defer srv.Close()
	order, err := srv.Client().Orders.Create(context.Background(), rxdeliverytest.SamedayOrderParams())
	if err != nil {
		log.Fatal(err)
	}

	dir, err := os.MkdirTemp("", "cassettes") // in a test: t.TempDir(), or testdata to commit it
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "order.json")
	if err := rec.Save(path); err != nil {
		log.Fatal(err)
	}

	data, err := os.ReadFile(path)
	if err != nil {
		log.Fatal(err)
	}
	var cassette struct {
		Version   int
		Exchanges []struct {
			Operation string
			Request   struct {
				Body struct {
					Patient struct {
						LastName string `json:"last_name"`
					}
				}
			}
		}
	}
	if err := json.Unmarshal(data, &cassette); err != nil {
		log.Fatal(err)
	}
	ex := cassette.Exchanges[0]
	fmt.Println("version", cassette.Version, ex.Operation, order.ID, "last name", ex.Request.Body.Patient.LastName)
	fmt.Println("check:", rxdeliverytest.CheckCassette(data))
	// Output:
	// version 1 orders.Create ord_000001 last name <patient.last_name#1>
	// check: <nil>
}

// Replay a cassette recorded against rxdelivery sandbox: no network, no credentials. Identifiers and statuses are as
// recorded; a patient value reads as its placeholder.
func ExampleNewReplayer() {
	rp, err := rxdeliverytest.NewReplayer(samedayCassette) // in a test: rxdeliverytest.Replay(t, path)
	if err != nil {
		log.Fatal(err)
	}
	seen, err := followSameday(context.Background(), rp.Client())
	if err != nil {
		log.Fatal(err)
	}
	for _, line := range seen {
		fmt.Println(line)
	}
	fmt.Println("every recorded exchange replayed:", rp.Err() == nil)
	// Output:
	// created ord_000001 new
	// status new
	// status submitted_to_courier
	// status picked_up
	// status delivered, signed by <patient.signed_by#1>
	// every recorded exchange replayed: true
}

// TestSamedayCassette is the test of followSameday on the cassette: it
// replays it, or with RXDELIVERY_RECORD=1 records it again.
func TestSamedayCassette(t *testing.T) {
	t.Parallel()
	client := rxdeliverytest.UseCassette(t, samedayCassette)
	seen, err := followSameday(context.Background(), client)
	if err != nil {
		t.Fatal(err)
	}
	if last := seen[len(seen)-1]; len(seen) < 2 || last[:len("status delivered")] != "status delivered" {
		t.Fatalf("saw %v, want the order followed to delivered", seen)
	}
}

func TestCommittedCassettesPassTheCheck(t *testing.T) {
	t.Parallel()
	if rxdeliverytest.Recording() {
		t.Skip("recording")
	}
	for _, name := range []string{samedayCassette, filepath.Join("..", "examples", "quickstart", "testdata", "quickstart.json")} {
		data, err := readFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if err := rxdeliverytest.CheckCassette(data); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func readFile(name string) ([]byte, error) { return os.ReadFile(name) }
