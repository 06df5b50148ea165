package tracking_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rxdelivery/rxdelivery-go/internal/testutil"
	"github.com/rxdelivery/rxdelivery-go/tracking"
)

// canary stands for patient or tracking data: it must never appear in an
// error or a log line.
const canary = "CANARY9400111899"

func post(body string, contentType string) *http.Request {
	r := httptest.NewRequest(http.MethodPost, "/hooks/tracking?token=secret", strings.NewReader(body))
	if contentType != "" {
		r.Header.Set("Content-Type", contentType)
	}
	return r
}

func TestParseNotificationFull(t *testing.T) {
	t.Parallel()
	n, err := tracking.ParseNotification(post(string(testutil.Fixture(t, "tracking/notification.json")), "application/json"))
	require.NoError(t, err)
	assert.Equal(t, "ord_01HV7Q2M3N4P5R6S7T8V9W0XYZ", n.ReferenceID)
	assert.Equal(t, "9400111899223344556677", n.TrackingNumber)
	assert.True(t, n.Timestamp.Equal(time.Date(2024, 5, 15, 13, 5, 42, 0, time.UTC)))
	assert.Equal(t, "2024-05-15T13:05:42Z", n.Timestamp.Raw)
	assert.Equal(t, tracking.CarrierPostal, n.Carrier)
	assert.Equal(t, tracking.TrackingMovingThroughNetwork, n.Status)
	assert.Equal(t, "Your package is moving within the carrier network and is on track to be delivered.", n.StatusText)
	assert.True(t, n.StatusOccurredAt.Equal(time.Date(2024, 5, 15, 16, 58, 0, 0, time.UTC)))
	require.Len(t, n.TrackingEvents, 2)
	assert.Equal(t, tracking.TrackingAccepted, n.TrackingEvents[0].Status)
	assert.True(t, n.TrackingEvents[0].StatusOccurredAt.Equal(time.Date(2024, 5, 14, 21, 10, 0, 0, time.UTC)))
	assert.Equal(t, tracking.TrackingMovingThroughNetwork, n.TrackingEvents[1].Status)
	assert.True(t, n.TrackingEvents[1].StatusOccurredAt.Equal(n.StatusOccurredAt.Time))
}

func TestParseNotificationMinimal(t *testing.T) {
	t.Parallel()
	n, err := tracking.ParseNotification(post(string(testutil.Fixture(t, "tracking/notification_minimal.json")), "application/json; charset=UTF-8"))
	require.NoError(t, err)
	assert.Equal(t, "", n.ReferenceID)
	assert.Equal(t, "1Z999AA10123456784", n.TrackingNumber)
	assert.True(t, n.Timestamp.Equal(time.Date(2024, 5, 15, 8, 0, 0, 0, time.UTC)))
	assert.Equal(t, tracking.CarrierParcelA, n.Carrier)
	assert.Equal(t, tracking.TrackingAccepted, n.Status)
	assert.Equal(t, "", n.StatusText)
	assert.True(t, n.StatusOccurredAt.Equal(time.Date(2024, 5, 15, 7, 45, 0, 0, time.UTC)))
	assert.Empty(t, n.TrackingEvents)
}

func TestParseNotificationUnknownValues(t *testing.T) {
	t.Parallel()
	n, err := tracking.ParseNotification(post(string(testutil.Fixture(t, "tracking/notification_unknown_values.json")), "application/json"))
	require.NoError(t, err)
	assert.Equal(t, "", n.ReferenceID)
	assert.Equal(t, tracking.Carrier("NEWCARRIER"), n.Carrier)
	assert.Equal(t, tracking.TrackingStatus("Held At Facility"), n.Status)
	assert.False(t, n.Timestamp.Valid(), "no offset: kept verbatim, not read as UTC")
	assert.Equal(t, "2024-05-16 09:00:00", n.Timestamp.Raw)
	assert.False(t, n.StatusOccurredAt.Valid())
	assert.Equal(t, "sometime on Thursday", n.StatusOccurredAt.Raw)
	require.Len(t, n.TrackingEvents, 2)
	assert.Equal(t, tracking.TrackingAccepted, n.TrackingEvents[0].Status)
	assert.True(t, n.TrackingEvents[0].StatusOccurredAt.IsZero())
	assert.Equal(t, tracking.TrackingStatus(""), n.TrackingEvents[1].Status)
	assert.True(t, n.TrackingEvents[1].StatusOccurredAt.Valid())
}

func TestNotificationRoundTrip(t *testing.T) {
	t.Parallel()
	n, err := tracking.ParseNotification(post(string(testutil.Fixture(t, "tracking/notification.json")), "application/json"))
	require.NoError(t, err)
	out, err := json.Marshal(n)
	require.NoError(t, err)
	assert.JSONEq(t, string(testutil.Fixture(t, "tracking/notification.json")), string(out))
}

const validBody = `{"tracking_number":"` + canary + `","timestamp":"2024-05-15T08:00:00Z","carrier":"POSTAL","status":"Accepted","status_occurred_at":"2024-05-15T07:45:00Z","reference_id":"` + canary + `"}`

// badInputs are requests the handler and ParseNotification refuse.
func badInputs() []struct {
	name   string
	req    func() *http.Request
	status int
	fields []string
} {
	return []struct {
		name   string
		req    func() *http.Request
		status int
		fields []string
	}{
		{"GET", func() *http.Request { return httptest.NewRequest(http.MethodGet, "/hooks/tracking", nil) }, 405, nil},
		{"PUT", func() *http.Request {
			r := httptest.NewRequest(http.MethodPut, "/hooks/tracking", strings.NewReader(validBody))
			r.Header.Set("Content-Type", "application/json")
			return r
		}, 405, nil},
		{"too large by length", func() *http.Request {
			return post(`{"tracking_number":"`+strings.Repeat("x", 2<<20)+`"}`, "application/json")
		}, 413, nil},
		{"too large streamed", func() *http.Request {
			r := post("", "application/json")
			r.Body = io.NopCloser(io.MultiReader(strings.NewReader(`{"status_text":"`+canary), strings.NewReader(strings.Repeat("y", 2<<20))))
			r.ContentLength = -1
			return r
		}, 413, nil},
		{"empty", func() *http.Request { return post("", "application/json") }, 400, nil},
		{"blank", func() *http.Request { return post(" \n ", "application/json") }, 400, nil},
		{"nil body", func() *http.Request {
			r := post("", "application/json")
			r.Body = nil
			return r
		}, 400, nil},
		{"syntax", func() *http.Request { return post(`{"tracking_number":"`+canary+`",`+canary+`}`, "application/json") }, 400, nil},
		{"truncated", func() *http.Request { return post(validBody[:len(validBody)-5], "application/json") }, 400, nil},
		{"trailing data", func() *http.Request { return post(validBody+` {"x":"`+canary+`"}`, "application/json") }, 400, nil},
		{"array", func() *http.Request { return post(`["`+canary+`"]`, "application/json") }, 400, nil},
		{"string", func() *http.Request { return post(`"`+canary+`"`, "application/json") }, 400, nil},
		{"null", func() *http.Request { return post(`null`, "application/json") }, 400,
			[]string{"tracking_number", "timestamp", "carrier", "status", "status_occurred_at"}},
		{"empty object", func() *http.Request { return post(`{}`, "application/json") }, 400,
			[]string{"tracking_number", "timestamp", "carrier", "status", "status_occurred_at"}},
		{"wrong type", func() *http.Request {
			return post(`{"tracking_number":94001118,"timestamp":"2024-05-15T08:00:00Z","carrier":"POSTAL","status":"`+canary+`","status_occurred_at":"2024-05-15T07:45:00Z"}`, "application/json")
		}, 400, []string{"tracking_number"}},
		{"nested wrong type", func() *http.Request {
			return post(`{"tracking_number":"`+canary+`","tracking_events":[{"status":7}]}`, "application/json")
		}, 400, []string{"tracking_events[0].status"}},
		{"wrong type in a later event", func() *http.Request {
			return post(`{"tracking_number":"`+canary+`","tracking_events":[{"status":"Accepted"},{"status":"`+canary+`","status_occurred_at":"2024-05-15T07:45:00Z"},{"status":["`+canary+`"]}]}`, "application/json")
		}, 400, []string{"tracking_events[2].status"}},
		{"timestamp not a string", func() *http.Request {
			return post(`{"tracking_number":"`+canary+`","timestamp":1715760000,"carrier":"POSTAL","status":"Accepted","status_occurred_at":"2024-05-15T07:45:00Z"}`, "application/json")
		}, 400, []string{"timestamp"}},
		{"occurred_at an object", func() *http.Request {
			return post(`{"tracking_number":"`+canary+`","timestamp":"2024-05-15T08:00:00Z","carrier":"POSTAL","status":"Accepted","status_occurred_at":{"t":"`+canary+`"}}`, "application/json")
		}, 400, []string{"status_occurred_at"}},
		{"missing carrier and status", func() *http.Request {
			return post(`{"tracking_number":"`+canary+`","timestamp":"2024-05-15T08:00:00Z","carrier":"","status":null,"status_occurred_at":"2024-05-15T07:45:00Z"}`, "application/json")
		}, 400, []string{"carrier", "status"}},
		{"blank tracking number", func() *http.Request {
			return post(`{"tracking_number":"  ","timestamp":"2024-05-15T08:00:00Z","carrier":"POSTAL","status":"Accepted","status_occurred_at":""}`, "application/json")
		}, 400, []string{"tracking_number", "status_occurred_at"}},
	}
}

func TestParseNotificationRefusals(t *testing.T) {
	t.Parallel()
	for _, tc := range badInputs() {
		t.Run(tc.name, func(t *testing.T) {
			n, err := tracking.ParseNotification(tc.req())
			assert.Nil(t, n)
			var ne *tracking.NotificationError
			require.ErrorAs(t, err, &ne)
			assert.Equal(t, tc.status, ne.StatusCode, err.Error())
			assert.Equal(t, tc.fields, ne.Fields)
			assert.NotContains(t, err.Error(), canary)
			assert.NotContains(t, err.Error(), "xxxx")
			assert.True(t, strings.HasPrefix(err.Error(), "rxdelivery: tracking notification: "), err.Error())
		})
	}
}

func TestParseNotificationUserLimit(t *testing.T) {
	t.Parallel()
	r := post(validBody, "application/json")
	w := httptest.NewRecorder()
	r.Body = http.MaxBytesReader(w, r.Body, 20)
	r.ContentLength = -1
	_, err := tracking.ParseNotification(r)
	var ne *tracking.NotificationError
	require.ErrorAs(t, err, &ne)
	assert.Equal(t, 413, ne.StatusCode)
	var mbe *http.MaxBytesError
	assert.ErrorAs(t, err, &mbe)
}

type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, errors.New("connection reset") }

func TestParseNotificationReadError(t *testing.T) {
	t.Parallel()
	r := post("", "application/json")
	r.Body = io.NopCloser(failingReader{})
	_, err := tracking.ParseNotification(r)
	var ne *tracking.NotificationError
	require.ErrorAs(t, err, &ne)
	assert.Equal(t, 400, ne.StatusCode)
	assert.EqualError(t, errors.Unwrap(err), "connection reset")
}

func TestHandlerRefusals(t *testing.T) {
	t.Parallel()
	var logs bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&logs, nil))
	called := 0
	h := tracking.NewHandler(func(context.Context, *tracking.Notification) error {
		called++
		return nil
	}, tracking.WithErrorLogger(logger))
	for _, tc := range badInputs() {
		t.Run(tc.name, func(t *testing.T) {
			w := httptest.NewRecorder()
			h.ServeHTTP(w, tc.req())
			assert.Equal(t, tc.status, w.Code)
			if tc.status == 405 {
				assert.Equal(t, "POST", w.Header().Get("Allow"))
			} else {
				assert.Empty(t, w.Header().Get("Allow"))
			}
			assert.NotContains(t, w.Body.String(), canary)
		})
	}
	assert.Equal(t, 0, called, "the callback must not be called for bad input")
	out := logs.String()
	assert.Equal(t, len(badInputs()), strings.Count(out, "rxdelivery: tracking notification refused"), out)
	assert.NotContains(t, out, canary)
	assert.NotContains(t, out, "token=secret", "the query must not be logged")
	assert.NotContains(t, out, "/hooks/tracking", "the path is not logged")
}

// TestAnyContentTypeIsAccepted: the documents promise a JSON body, not a
// header, so a valid notification is accepted whatever its Content-Type
// says, and a body that is not one is still refused with 400.
func TestAnyContentTypeIsAccepted(t *testing.T) {
	t.Parallel()
	called := 0
	h := tracking.NewHandler(func(context.Context, *tracking.Notification) error {
		called++
		return nil
	})
	types := []string{"", "text/plain", "application/x-www-form-urlencoded", "application/vnd.api+json",
		"application/json; charset=iso-8859-1", "application/json; charset", "application/octet-stream"}
	for _, ct := range types {
		_, err := tracking.ParseNotification(post(validBody, ct))
		assert.NoError(t, err, "Content-Type %q", ct)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, post(validBody, ct))
		assert.Equal(t, http.StatusNoContent, w.Code, "Content-Type %q", ct)

		w = httptest.NewRecorder()
		h.ServeHTTP(w, post("\ufeff"+validBody, ct))
		assert.Equal(t, http.StatusNoContent, w.Code, "a byte order mark, Content-Type %q", ct)

		w = httptest.NewRecorder()
		h.ServeHTTP(w, post("tracking_number=9400", ct))
		assert.Equal(t, http.StatusBadRequest, w.Code, "Content-Type %q", ct)
	}
	assert.Equal(t, 2*len(types), called)
}

// TestHandlerLogsNoPathToken: a listener URL whose path holds a secret
// token: neither a refusal nor a callback failure logs any part of it.
func TestHandlerLogsNoPathToken(t *testing.T) {
	t.Parallel()
	const token = "tok-7f3c91d2e5"
	var logs bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&logs, nil))
	h := tracking.NewHandler(func(context.Context, *tracking.Notification) error {
		return errors.New("store down")
	}, tracking.WithErrorLogger(logger))
	for _, body := range []string{validBody, "{"} {
		r := httptest.NewRequest(http.MethodPost, "/hooks/tracking/"+token, strings.NewReader(body))
		h.ServeHTTP(httptest.NewRecorder(), r)
	}
	out := logs.String()
	assert.Contains(t, out, "store down")
	assert.Contains(t, out, "refused")
	assert.NotContains(t, out, token)
	assert.NotContains(t, out, "tok-")
}

func TestHandlerSuccess(t *testing.T) {
	t.Parallel()
	var got *tracking.Notification
	type key struct{}
	h := tracking.NewHandler(func(ctx context.Context, n *tracking.Notification) error {
		got = n
		assert.Equal(t, "v", ctx.Value(key{}), "the request's context is passed on")
		return nil
	})
	r := post(string(testutil.Fixture(t, "tracking/notification.json")), "application/json; charset=utf-8")
	r = r.WithContext(context.WithValue(r.Context(), key{}, "v"))
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	assert.Equal(t, http.StatusNoContent, w.Code)
	assert.Empty(t, w.Body.String())
	require.NotNil(t, got)
	assert.Equal(t, "9400111899223344556677", got.TrackingNumber)
	assert.Equal(t, "ord_01HV7Q2M3N4P5R6S7T8V9W0XYZ", got.ReferenceID)
	assert.Equal(t, tracking.CarrierPostal, got.Carrier)
	assert.Equal(t, tracking.TrackingMovingThroughNetwork, got.Status)
	assert.Len(t, got.TrackingEvents, 2)
}

func TestHandlerCallbackError(t *testing.T) {
	t.Parallel()
	var logs bytes.Buffer
	logger := slog.New(slog.NewJSONHandler(&logs, nil))
	h := tracking.NewHandler(func(context.Context, *tracking.Notification) error {
		return errors.New("database down")
	}, tracking.WithErrorLogger(logger), nil)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, post(validBody, "application/json"))
	assert.Equal(t, http.StatusInternalServerError, w.Code)
	assert.NotContains(t, w.Body.String(), "database down", "the callback's error is not shown to the caller")
	assert.Contains(t, logs.String(), "database down")
	assert.Contains(t, logs.String(), `"level":"ERROR"`)
	assert.NotContains(t, logs.String(), canary)
}

func TestHandlerMaxBodyBytes(t *testing.T) {
	t.Parallel()
	called := false
	h := tracking.NewHandler(func(context.Context, *tracking.Notification) error {
		called = true
		return nil
	}, tracking.WithMaxBodyBytes(int64(len(validBody))))
	w := httptest.NewRecorder()
	h.ServeHTTP(w, post(validBody, "application/json"))
	assert.Equal(t, http.StatusNoContent, w.Code, "a body of exactly the limit is read")
	assert.True(t, called)

	called = false
	h = tracking.NewHandler(func(context.Context, *tracking.Notification) error {
		called = true
		return nil
	}, tracking.WithMaxBodyBytes(int64(len(validBody)-1)))
	for _, streamed := range []bool{false, true} {
		r := post(validBody, "application/json")
		if streamed {
			r.ContentLength = -1
		}
		w = httptest.NewRecorder()
		h.ServeHTTP(w, r)
		assert.Equal(t, http.StatusRequestEntityTooLarge, w.Code)
	}
	assert.False(t, called)

	// Zero or negative keeps the default.
	h = tracking.NewHandler(func(context.Context, *tracking.Notification) error { return nil }, tracking.WithMaxBodyBytes(0), tracking.WithMaxBodyBytes(-1))
	w = httptest.NewRecorder()
	h.ServeHTTP(w, post(validBody, "application/json"))
	assert.Equal(t, http.StatusNoContent, w.Code)
}

func TestHandlerWrappedByCaller(t *testing.T) {
	t.Parallel()
	h := tracking.NewHandler(func(context.Context, *tracking.Notification) error { return nil })
	mux := http.NewServeMux()
	mux.Handle("POST /hooks/tracking/{token}", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.PathValue("token") != "tok_5f2c9a" {
			http.NotFound(w, r)
			return
		}
		h.ServeHTTP(w, r)
	}))
	for token, want := range map[string]int{"tok_5f2c9a": 204, "guess": 404} {
		w := httptest.NewRecorder()
		r := httptest.NewRequest(http.MethodPost, "/hooks/tracking/"+token, strings.NewReader(validBody))
		r.Header.Set("Content-Type", "application/json")
		mux.ServeHTTP(w, r)
		assert.Equal(t, want, w.Code, token)
	}
}

func TestNewHandlerNilCallback(t *testing.T) {
	t.Parallel()
	assert.Panics(t, func() { tracking.NewHandler(nil) })
}
