package sandbox_test

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/rxdelivery/rxdelivery-go/internal/sandbox"
)

// A test starts a server on a manual clock, creates a request that runs a
// scenario, moves time instead of sleeping, and reads the result.
func ExampleNewServer() {
	clock := sandbox.NewManualClock(time.Time{})
	srv := sandbox.NewServer(sandbox.Config{Key: "k", Secret: "s", Clock: clock})
	defer srv.Close()

	call := func(method, path, body string) string {
		req, _ := http.NewRequest(method, srv.OmniURL()+path, strings.NewReader(body))
		req.SetBasicAuth("k", "s")
		req.Header.Set("Content-Type", "application/json")
		res, err := srv.Client().Do(req)
		if err != nil {
			return err.Error()
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return fmt.Sprint(res.StatusCode, " ", len(b) > 0)
	}
	fmt.Println(call("POST", "/api/v1/requests", `{
		"identifier": "program", "external_reference_number": "ref-1", "name_of_pickup": "Item",
		"pharmacy": {"ncpdp": "5550001"},
		"dropoff": {"name": "A Patient", "phone_number": "2125550100", "address": {"place_id": "abc"}},
		"patient": {"first_name": "A", "last_name": "Patient", "date_of_birth": "1980-01-01"},
		"test_meta": {"scenario": "successful_delivery", "duration_between": 10}}`))

	clock.Advance(40 * time.Second) // four steps of ten seconds
	status, _ := srv.RequestOrderStatus("req_000001")
	fmt.Println(status)

	srv.InjectFault(sandbox.Fault{Kind: sandbox.FaultRateLimit, RetryAfter: 2 * time.Second})
	fmt.Println(call("GET", "/api/v1/requests/req_000001", ""))
	fmt.Println(srv.Stats().RequestsCreated, srv.Stats().FaultsApplied)
	// Output:
	// 200 true
	// delivered
	// 429 true
	// 1 1
}
