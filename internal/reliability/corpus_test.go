package reliability_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/internal/corpus"
	"github.com/rxdelivery/rxdelivery-go/internal/testutil"
)

var memberName = regexp.MustCompile(`"[a-z0-9_]+":`)

// TestCorpusThroughEveryRendering serves every message of the privacy
// filter's corpus (corpus.Messages: wordings the documents do not use,
// patient values planted as written and in capitals) as the error body of
// its operation's call, in the shape of its interface. No planted value
// survives in Error(), any fmt verb of any link of the Unwrap chain, slog
// at debug or the call's transcript; APIError.Platform gives the
// platform's whole message and type, and neither the log nor the
// transcript holds that text where it carried a planted value.
func TestCorpusThroughEveryRendering(t *testing.T) {
	t.Parallel()
	var logs lockedBuffer
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	var current atomic.Pointer[corpus.Message]
	c, _ := newHostileMocked(t, func(w http.ResponseWriter, r *http.Request, _ int64) {
		drainRequest(r)
		m := current.Load()
		e := map[string]any{"message": m.Message}
		if m.Type != "" {
			e["type"], e["code"] = m.Type, m.Type
		}
		b, _ := json.Marshal(map[string]any{"error": e})
		writeJSON(w, m.Status, string(b))
	}, rxdelivery.WithLogger(logger))
	rows := map[string]testutil.Call{}
	for _, row := range testutil.Calls(t) {
		rows[row.Name] = row
	}
	messages, survived := 0, 0
	for _, plantCase := range []int{0, 2} {
		for _, m := range corpus.Messages(t, plantCase) {
			row, ok := rows[m.Op]
			require.True(t, ok, "corpus line %d: no endpoint %s", m.Line, m.Op)
			current.Store(&m)
			var transcript bytes.Buffer
			before := len(logs.String())
			err := row.Call(context.Background(), c, rxdelivery.WithTranscript(&transcript))
			require.Error(t, err, m.Op)
			messages++
			outs := renderings(err)
			outs["slog"] = logs.String()[before:]
			// The transcript's JSON member names are the models' field
			// names ("street"), not what the platform said.
			outs["transcript"] = memberName.ReplaceAllString(transcript.String(), " ")
			for place, out := range outs {
				if s := corpus.Survivors(out, m); len(s) > 0 {
					survived++
					t.Errorf("corpus line %d (%s): %s holds planted %q", m.Line, m.Op, place, s)
				}
			}
			var apiErr *rxdelivery.APIError
			require.True(t, errors.As(err, &apiErr), "corpus line %d", m.Line)
			p := apiErr.Platform()
			assert.Equal(t, m.Message, p.Message, "corpus line %d: Platform gives the whole message", m.Line)
			if m.Type != "" && row.Interface == rxdelivery.Omni {
				assert.Equal(t, m.Type, p.Type, "corpus line %d", m.Line)
			}
			if len(m.Plants) > 0 {
				for _, place := range []string{"slog", "transcript"} {
					assert.NotContains(t, outs[place], p.Message, "corpus line %d: %s holds what Platform returns", m.Line, place)
				}
			}
		}
	}
	t.Logf("corpus messages served: %d; renderings holding a planted value: %d", messages, survived)
	assert.Zero(t, survived)
	assert.False(t, strings.Contains(logs.String(), "withheld"), "the SDK never logs a PlatformError")
}
