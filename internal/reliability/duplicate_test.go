package reliability_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
)

// httptest: a fifth of the creates are cut after the server acted on them (a hijacked connection closed before or in the middle of its answer), which needs a real socket.

// What the flaky order server does with one create.
type outcome int

const (
	answered     outcome = iota // creates the order and answers 200
	rateLimited                 // refuses with 429 and Retry-After: 0 (creates nothing)
	unavailable                 // refuses with 503 (creates nothing)
	failedAfter                 // creates the order, then answers 500
	cutAfter                    // creates the order, then cuts the connection
	cutMidAnswer                // creates the order, then cuts its 200 answer
	numOutcomes
)

var outcomeNames = [numOutcomes]string{"answered", "429", "503", "500 after create", "cut after create", "cut mid-answer"}

// orderServer creates orders and keeps, per external_reference_number,
// how many times it created one and how many creates it received.
type orderServer struct {
	mu       sync.Mutex
	rng      *rand.Rand
	created  map[string]int // orders created per reference
	received map[string]int // creates received per reference
	twice    []string       // references received again after an order existed
	total    int            // orders created
	outcomes [numOutcomes]int
	seq      int
}

// draw picks what to do with a create: 20% create then fail (500, a cut
// before the answer, a cut in the middle of it), 15% refuse without
// creating (429, 503), the rest create and answer.
func (s *orderServer) draw() outcome {
	switch n := s.rng.IntN(100); {
	case n < 7:
		return failedAfter
	case n < 14:
		return cutAfter
	case n < 20:
		return cutMidAnswer
	case n < 30:
		return rateLimited
	case n < 35:
		return unavailable
	default:
		return answered
	}
}

func (s *orderServer) handle(t *testing.T) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, _ int64) {
		if r.Method != http.MethodPost || r.URL.Path != "/api/v1/orders" {
			writeJSON(w, http.StatusNotFound, `{"error":{"message":"Not found"}}`)
			return
		}
		raw, err := io.ReadAll(r.Body)
		if err != nil {
			return
		}
		var body struct {
			Ref string `json:"external_reference_number"`
		}
		if err := json.Unmarshal(raw, &body); err != nil || body.Ref == "" {
			t.Errorf("create without a readable external_reference_number: %v", err)
			writeJSON(w, http.StatusBadRequest, `{"error":{"message":"bad body"}}`)
			return
		}

		s.mu.Lock()
		o := s.draw()
		s.outcomes[o]++
		s.received[body.Ref]++
		if s.created[body.Ref] > 0 {
			s.twice = append(s.twice, body.Ref)
		}
		var id string
		if o != rateLimited && o != unavailable {
			s.created[body.Ref]++
			s.total++
			s.seq++
			id = fmt.Sprintf("ord_%06d", s.seq)
		}
		s.mu.Unlock()

		answer := `{"order":{"id":"` + id + `","status":"new","external_reference_number":"` + body.Ref + `"}}`
		switch o {
		case rateLimited:
			w.Header().Set("Retry-After", "0")
			writeJSON(w, http.StatusTooManyRequests, `{"error":{"message":"Too many requests"}}`)
		case unavailable:
			writeJSON(w, http.StatusServiceUnavailable, `{"error":{"message":"Service unavailable"}}`)
		case failedAfter:
			writeJSON(w, http.StatusInternalServerError, `{"error":{"message":"Internal error"}}`)
		case cutAfter:
			hijack(t, w, r, "")
		case cutMidAnswer:
			hijack(t, w, r, partial(answer[:len(answer)/2], len(answer)))
		default:
			writeJSON(w, http.StatusOK, answer)
		}
	}
}

// TestNoDuplicateDelivery makes 1,000 creates through a server that, on a
// seeded random 20%, creates the order and then fails, and on another 15%
// refuses with 429 or 503 (which the SDK retries). No create may be carried
// out twice: the server's count equals the successful calls plus at most
// one per call that returned ErrUnknownOutcome, and no reference reaches
// the server again once its order exists.
func TestNoDuplicateDelivery(t *testing.T) {
	t.Parallel()
	const (
		creates = 1000
		workers = 8
	)
	srv := &orderServer{
		rng:      rand.New(rand.NewPCG(20240502, 1)),
		created:  map[string]int{},
		received: map[string]int{},
	}
	s := newServer(t, srv.handle(t))
	c := newClient(t, s)
	ctx := context.Background()

	type result struct {
		ref string
		id  string
		err error
	}
	results := make([]result, creates)
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				ref := fmt.Sprintf("dup-%04d", i)
				o, err := c.Orders.Create(ctx, createParams(t, ref))
				results[i] = result{ref: ref, err: err}
				if o != nil {
					results[i].id = o.ID
				}
			}
		}()
	}
	for i := 0; i < creates; i++ {
		next <- i
	}
	close(next)
	wg.Wait()

	srv.mu.Lock()
	defer srv.mu.Unlock()
	var ok, unknown, refused int
	for _, r := range results {
		switch {
		case r.err == nil:
			ok++
			assert.Equal(t, 1, srv.created[r.ref], "%s succeeded: its order exists once", r.ref)
			assert.NotEmpty(t, r.id)
		case errors.Is(r.err, rxdelivery.ErrUnknownOutcome):
			unknown++
			assert.LessOrEqual(t, srv.created[r.ref], 1, "%s", r.ref)
		default:
			// Refused every time (429 or 503 past the retries): nothing
			// may exist.
			refused++
			assert.True(t, errors.Is(r.err, rxdelivery.ErrRateLimited) || errors.Is(r.err, rxdelivery.ErrUnavailable), "%s: %v", r.ref, r.err)
			assert.Zero(t, srv.created[r.ref], "%s was refused but created", r.ref)
		}
	}
	assert.Empty(t, srv.twice, "creates received again after their order existed")
	assert.GreaterOrEqual(t, srv.total, ok)
	assert.LessOrEqual(t, srv.total, ok+unknown, "orders created beyond the successes and unknown outcomes")
	for ref, n := range srv.created {
		assert.Equal(t, 1, n, "orders created for %s", ref)
	}

	attempts := 0
	for _, n := range srv.outcomes {
		attempts += n
	}
	assert.Greater(t, attempts, creates, "refusals were retried")
	assert.Positive(t, srv.outcomes[rateLimited])
	assert.Positive(t, srv.outcomes[unavailable])
	for o := outcome(0); o < numOutcomes; o++ {
		t.Logf("%-17s %d", outcomeNames[o], srv.outcomes[o])
	}
	t.Logf("calls: %d succeeded, %d unknown outcome, %d refused; orders created: %d", ok, unknown, refused, srv.total)
	require.Equal(t, creates, ok+unknown+refused)
}
