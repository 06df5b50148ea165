package rxdelivery

import "time"

// LimiterState is what the client's limiter of one interface holds at one
// moment: the pause a Retry-After set, and the client-side rate limit
// ([WithRateLimit]). Every call's attempts on the interface wait on it.
type LimiterState struct {
	// PausedUntil is when the running pause ends: the platform answered
	// a 429, or a 503, with a Retry-After, and no attempt of any call goes
	// to the interface before then (at most [WithMaxPause] after the
	// answer; [Client.EndPause] ends it early). Zero when no pause runs. It
	// is counted on the client's clock ([WithClock]; real time by default).
	PausedUntil time.Time
	// Limited is false when [WithRateLimit] set no rate for the interface;
	// Rate, Burst, Tokens and Waiting are then zero.
	Limited bool
	// Rate is the rate in force, in attempts a second: the one set, or
	// less after 429s (see [WithRateLimit]).
	Rate float64
	// Burst is how many attempts may go at once.
	Burst int
	// Tokens is how many attempts may go now without waiting (a fraction
	// of one while attempts wait their turn).
	Tokens float64
	// Waiting is how many attempts wait for their turn.
	Waiting int
}

// EndPause ends the pause a Retry-After set on iface ([Client.LimiterState]
// shows it in PausedUntil), before its end: the attempts waiting for it go
// at once, and calls made afterwards are sent. For an application that
// knows the platform is back, or that reads a Retry-After as wrong. An
// interface that is not one of the four, or that no pause holds, is left
// as it is; it is safe on the zero Client.
func (c *Client) EndPause(iface Interface) {
	if validInterface(iface) && c.shared != nil {
		c.shared.EndPause(iface)
	}
}

// LimiterState returns what the limiter of iface holds now, for a health
// page or a metric: whether a Retry-After pauses the interface and until
// when, and the rate limit's rate and turns. An interface that is not one
// of the four gives the zero LimiterState.
func (c *Client) LimiterState(iface Interface) LimiterState {
	if !validInterface(iface) || c.shared == nil {
		return LimiterState{}
	}
	st := c.shared.LimiterState(iface)
	return LimiterState{
		PausedUntil: st.PausedUntil,
		Limited:     st.Limited,
		Rate:        st.Rate,
		Burst:       st.Burst,
		Tokens:      st.Tokens,
		Waiting:     st.Waiting,
	}
}
