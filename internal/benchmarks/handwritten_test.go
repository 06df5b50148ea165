package benchmarks_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"testing"
	"time"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/internal/testutil"
)

// handwritten is what an integrator writes without the SDK: net/http with
// a tuned keep-alive transport, the Authorization value computed once,
// json.Marshal of its own plain request struct, json.NewDecoder into its
// own plain answer structs (strings, float64 amounts, time.Time
// timestamps), a status check, and the rest of the body drained so that
// the connection is reused. It validates nothing and retries nothing.
type handwritten struct {
	plainHTTP
}

func newHandwritten(t testing.TB, s *server, omniPrefix string) *handwritten {
	return &handwritten{newPlainHTTP(t, s, omniPrefix)}
}

// plainHTTP is the net/http and encoding/json plumbing an integrator
// writes by hand: one tuned keep-alive client, the base URLs, the
// Authorization and User-Agent values computed once, and do. handwritten
// uses it with its own structs, sdkTypes with the SDK's models.
type plainHTTP struct {
	hc             *http.Client
	omni, delivery string
	auth, ua       string
}

func newPlainHTTP(t testing.TB, s *server, omniPrefix string) plainHTTP {
	tr := &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          256,
		MaxIdleConnsPerHost:   128,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ExpectContinueTimeout: time.Second,
	}
	t.Cleanup(tr.CloseIdleConnections)
	return plainHTTP{
		// A careful integrator bounds every call, as the SDK bounds each
		// attempt (DefaultAttemptTimeout): net/http then arms a timer and
		// a cancelable context per request.
		hc:       &http.Client{Transport: tr, Timeout: 30 * time.Second},
		omni:     s.URL + omniPrefix,
		delivery: s.URL + "/delivery",
		auth:     authHeader,
		ua:       "rxdelivery-go/" + rxdelivery.Version,
	}
}

// The integrator's own structs: only the fields it reads, with the
// plainest Go types that hold them.
type (
	hwAddress struct {
		Street  string `json:"street"`
		Street2 string `json:"street2,omitempty"`
		City    string `json:"city"`
		State   string `json:"state"`
		Zipcode string `json:"zipcode"`
	}
	hwCreateOrder struct {
		Initiator               string  `json:"initiator"`
		DeliveryFee             float64 `json:"delivery_fee"`
		RxAmountDue             float64 `json:"rx_amount_due"`
		OtherItemsAmountDue     float64 `json:"other_items_amount_due,omitempty"`
		DeliveryNotes           string  `json:"delivery_notes,omitempty"`
		ExternalReferenceNumber string  `json:"external_reference_number,omitempty"`
		PhotoIDRequired         bool    `json:"photo_id_required"`
		Pharmacy                struct {
			NPI   string `json:"npi"`
			NCPDP string `json:"ncpdp"`
		} `json:"pharmacy"`
		Recipient struct {
			Description       string    `json:"description"`
			MobilePhoneNumber string    `json:"mobile_phone_number,omitempty"`
			Address           hwAddress `json:"address"`
		} `json:"recipient"`
		Patient struct {
			FirstName         string `json:"first_name"`
			LastName          string `json:"last_name"`
			Gender            string `json:"gender"`
			DateOfBirth       string `json:"date_of_birth"`
			MobilePhoneNumber string `json:"mobile_phone_number,omitempty"`
		} `json:"patient"`
		Prescriptions []hwPrescription `json:"prescriptions"`
		OtherItems    []hwOtherItem    `json:"other_items,omitempty"`
	}
	hwPrescription struct {
		Number        string  `json:"number"`
		NDC           string  `json:"ndc"`
		Refrigeration string  `json:"refrigeration"`
		DaysSupply    int     `json:"days_supply"`
		FillQuantity  float64 `json:"fill_quantity"`
		FillNumber    int     `json:"fill_number"`
		PatientPay    float64 `json:"patient_pay"`
		Prescriber    struct {
			FirstName string    `json:"first_name"`
			LastName  string    `json:"last_name"`
			NPI       string    `json:"npi"`
			Address   hwAddress `json:"address"`
		} `json:"prescriber"`
		DateOfService string    `json:"date_of_service,omitempty"`
		Payers        []hwPayer `json:"payers"`
	}
	hwPayer struct {
		BIN                     string `json:"bin"`
		PCN                     string `json:"pcn"`
		RxGroup                 string `json:"rx_group"`
		CoverageType            string `json:"coverage_type"`
		GovernmentPlanIndicator bool   `json:"government_plan_indicator"`
	}
	hwOtherItem struct {
		UPC         string `json:"upc"`
		SKU         string `json:"sku"`
		Quantity    int    `json:"quantity"`
		Description string `json:"description"`
	}

	hwEvent struct {
		OccurredAt time.Time `json:"occurred_at"`
	}
	hwOrder struct {
		ID                      string   `json:"id"`
		Status                  string   `json:"status"`
		ExternalReferenceNumber string   `json:"external_reference_number"`
		Pickup                  *hwEvent `json:"pickup"`
		Delivery                *struct {
			OccurredAt                   time.Time `json:"occurred_at"`
			SignatureURL                 string    `json:"signature_url"`
			SignedBy                     string    `json:"signed_by"`
			Relationship                 string    `json:"relationship"`
			OtherRelationshipDescription string    `json:"other_relationship_description"`
			FailureReason                string    `json:"failure_reason"`
			RecipientIdentification      *struct {
				Number           string `json:"number"`
				Type             string `json:"type"`
				Qualifier        string `json:"qualifier"`
				JurisdictionCode string `json:"jurisdiction_code"`
			} `json:"recipient_identification"`
		} `json:"delivery"`
		Return   *hwEvent `json:"return"`
		Shipping *struct {
			TrackingNumber   string   `json:"tracking_number"`
			TrackingURL      string   `json:"tracking_url"`
			Carrier          string   `json:"carrier"`
			CarrierService   string   `json:"carrier_service"`
			LabelPDF         string   `json:"label_pdf"`
			Cost             float64  `json:"cost"`
			SaturdayDelivery bool     `json:"saturday_delivery"`
			Delivery         *hwEvent `json:"delivery"`
		} `json:"shipping"`
		Cancellation *struct {
			OccurredAt         time.Time `json:"occurred_at"`
			CancellationReason string    `json:"cancellation_reason"`
		} `json:"cancellation"`
		ETA *struct {
			ArrivalAt time.Time `json:"arrival_at"`
			Type      string    `json:"type"`
		} `json:"eta"`
	}
	hwPharmacy struct {
		NPI                string  `json:"npi"`
		NCPDP              string  `json:"ncpdp"`
		Name               string  `json:"name"`
		Preferred          bool    `json:"preferred"`
		DistanceFromOrigin float64 `json:"distance_from_origin"`
		PhoneNumber        string  `json:"phone_number"`
		FaxNumber          string  `json:"fax_number"`
		Address            struct {
			Street1 string `json:"street1"`
			Street2 string `json:"street2"`
			City    string `json:"city"`
			State   string `json:"state"`
			Zipcode string `json:"zipcode"`
		} `json:"address"`
	}
	hwSearchPage struct {
		Count            int          `json:"count"`
		Page             int          `json:"page"`
		PageSize         int          `json:"page_size"`
		TotalPages       int          `json:"total_pages"`
		FormattedAddress string       `json:"formatted_address"`
		Pharmacies       []hwPharmacy `json:"pharmacies"`
	}
)

// do sends one request and decodes a 2xx JSON answer into out.
func (c *plainHTTP) do(ctx context.Context, method, u string, in, out any) error {
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return err
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, u, body)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", c.auth)
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", c.ua)
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	defer func() {
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
		return fmt.Errorf("%s %s: status %d: %s", method, u, resp.StatusCode, msg)
	}
	return json.NewDecoder(resp.Body).Decode(out)
}

func (c *handwritten) getOrder(ctx context.Context, id string) (*hwOrder, error) {
	var env struct {
		Order *hwOrder `json:"order"`
	}
	if err := c.do(ctx, http.MethodGet, c.delivery+"/api/v1/orders/"+url.PathEscape(id), nil, &env); err != nil {
		return nil, err
	}
	if env.Order == nil {
		return nil, errNoOrder
	}
	return env.Order, nil
}

func (c *handwritten) createOrder(ctx context.Context, p *hwCreateOrder) (*hwOrder, error) {
	var env struct {
		Order *hwOrder `json:"order"`
	}
	if err := c.do(ctx, http.MethodPost, c.delivery+"/api/v1/orders", p, &env); err != nil {
		return nil, err
	}
	if env.Order == nil {
		return nil, errNoOrder
	}
	return env.Order, nil
}

func (c *handwritten) search(ctx context.Context, origin string, page, size int) (*hwSearchPage, error) {
	q := url.Values{}
	q.Set("origin_address", origin)
	q.Set("page", strconv.Itoa(page))
	q.Set("page_size", strconv.Itoa(size))
	var p hwSearchPage
	if err := c.do(ctx, http.MethodGet, c.omni+"/api/v1/pharmacies/?"+q.Encode(), nil, &p); err != nil {
		return nil, err
	}
	return &p, nil
}

func (c *handwritten) getMany(ctx context.Context, ids []string) ([]hwOrder, error) {
	q := url.Values{"ids[]": ids}
	var env struct {
		Orders []hwOrder `json:"orders"`
	}
	if err := c.do(ctx, http.MethodGet, c.delivery+"/api/v1/orders?"+q.Encode(), nil, &env); err != nil {
		return nil, err
	}
	return env.Orders, nil
}

// hwCreateParams returns the same-day order of the request fixture in
// the integrator's struct.
func hwCreateParams(t testing.TB) *hwCreateOrder {
	var p hwCreateOrder
	if err := json.Unmarshal(testutil.Fixture(t, "delivery/order_create_sameday_request.json"), &p); err != nil {
		t.Fatal(err)
	}
	return &p
}
