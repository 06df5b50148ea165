package core

import (
	"context"
	"errors"
	"math"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeClock is a clock that moves only when a test advances it, firing
// the timers that come due on the way, in order, at their time.
type fakeClock struct {
	mu     sync.Mutex
	now    time.Time
	timers []*fakeTimer
}

type fakeTimer struct {
	c    *fakeClock
	f    func()
	when time.Time
	on   bool
}

func newFakeClock() *fakeClock {
	return &fakeClock{now: time.Now()}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) AfterFunc(d time.Duration, f func()) stopper {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &fakeTimer{c: c, f: f, when: c.now.Add(d), on: true}
	c.timers = append(c.timers, t)
	return t
}

func (t *fakeTimer) Reset(d time.Duration) bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	was := t.on
	t.when, t.on = t.c.now.Add(d), true
	return was
}

func (t *fakeTimer) Stop() bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	was := t.on
	t.on = false
	return was
}

// advance moves the clock by d, firing each timer that comes due.
func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	end := c.now.Add(d)
	for {
		var next *fakeTimer
		for _, t := range c.timers {
			if t.on && !t.when.After(end) && (next == nil || t.when.Before(next.when)) {
				next = t
			}
		}
		if next == nil {
			break
		}
		if next.when.After(c.now) {
			c.now = next.when
		}
		next.on = false
		c.mu.Unlock()
		next.f()
		c.mu.Lock()
	}
	c.now = end
	c.mu.Unlock()
}

// jump moves the clock by d without firing the timers that come due: a
// timer running late.
func (c *fakeClock) jump(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// deadlineCtx has a deadline that only the limiter reads: it never ends
// by itself, so a test on the fake clock does not race the real one.
type deadlineCtx struct {
	context.Context
	d time.Time
}

func (c deadlineCtx) Deadline() (time.Time, bool) { return c.d, true }

func (l *Limiter) queued() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.queue)
}

// eventually polls cond until it holds; it gives up (failing the test)
// only after a long while, so it never decides an outcome by time.
func eventually(t *testing.T, cond func() bool, what string) {
	t.Helper()
	for giveUp := time.Now().Add(20 * time.Second); !cond(); runtime.Gosched() {
		if time.Now().After(giveUp) {
			t.Fatalf("never happened: %s", what)
		}
		time.Sleep(100 * time.Microsecond)
	}
}

// waiters starts waits on l and records which returned, with what.
type waiters struct {
	t    *testing.T
	l    *Limiter
	mu   sync.Mutex
	done map[string]error
}

// emptied returns a limiter of perSecond and burst on a fake clock, with
// its bucket emptied by burst waits, and a waiters record of it.
func emptied(t *testing.T, perSecond float64, burst int) (*fakeClock, *Limiter, *waiters) {
	t.Helper()
	clk := newFakeClock()
	l := newLimiter(perSecond, burst, clk)
	for range burst {
		require.NoError(t, l.Wait(context.Background(), 0))
	}
	return clk, l, newWaiters(t, l)
}

func newWaiters(t *testing.T, l *Limiter) *waiters {
	return &waiters{t: t, l: l, done: map[string]error{}}
}

// start starts a wait named name and returns once it is queued (or has
// returned).
func (ws *waiters) start(name string, ctx context.Context) {
	ws.t.Helper()
	before := ws.l.queued()
	go func() {
		err := ws.l.Wait(ctx, 0)
		ws.mu.Lock()
		ws.done[name] = err
		ws.mu.Unlock()
	}()
	eventually(ws.t, func() bool { return ws.l.queued() > before || ws.returned(name) }, name+" queued")
}

func (ws *waiters) returned(name string) bool {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	_, ok := ws.done[name]
	return ok
}

// names returns the waits that returned with err (nil: those that got
// their turn), sorted.
func (ws *waiters) names(err error) []string {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	var out []string
	for n, e := range ws.done {
		if (err == nil && e == nil) || (err != nil && errors.Is(e, err)) {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// settle returns once n waits have returned in all.
func (ws *waiters) settle(n int) {
	ws.t.Helper()
	eventually(ws.t, func() bool {
		ws.mu.Lock()
		defer ws.mu.Unlock()
		return len(ws.done) == n
	}, "waits returned")
}

func TestLimiterSlowsOn429AndComesBack(t *testing.T) {
	t.Parallel()
	l := NewLimiter(80, 1)
	l.observe(429, 0)
	assert.InDelta(t, 40, l.Limit(), 1e-9)
	l.observe(429, 0)
	l.observe(429, 0)
	assert.InDelta(t, 10, l.Limit(), 1e-9)
	for i := 0; i < 10; i++ {
		l.observe(429, 0)
	}
	assert.InDelta(t, 5, l.Limit(), 1e-9, "not below a sixteenth")
	l.observe(503, 0)
	assert.InDelta(t, 5, l.Limit(), 1e-9, "a 5xx does not speed it up")
	l.observe(200, 0)
	assert.InDelta(t, 9, l.Limit(), 1e-9, "a success gives back a twentieth")
	for i := 0; i < 100; i++ {
		l.observe(204, 0)
	}
	assert.InDelta(t, 80, l.Limit(), 1e-9, "not above the configured rate")
}

// TestLimiterGoesInTurn: at 2 a second with bursts of 2, two attempts go
// at once, then one every 500ms, first come first.
func TestLimiterGoesInTurn(t *testing.T) {
	t.Parallel()
	clk, l, ws := emptied(t, 2, 2)
	ctx := context.Background()
	for _, n := range []string{"a", "b", "c"} {
		ws.start(n, ctx)
	}
	clk.advance(499 * time.Millisecond)
	assert.Equal(t, 3, l.queued(), "nobody goes before the bucket holds a turn")
	clk.advance(time.Millisecond)
	ws.settle(1)
	assert.Equal(t, []string{"a"}, ws.names(nil))
	clk.advance(500 * time.Millisecond)
	ws.settle(2)
	assert.Equal(t, []string{"a", "b"}, ws.names(nil))
	clk.advance(500 * time.Millisecond)
	ws.settle(3)
	assert.Equal(t, 0, l.queued())

	// The bucket refills up to the burst, no further. (A wait whose
	// deadline is now goes at once or is refused at once.)
	clk.advance(time.Hour)
	now := deadlineCtx{ctx, clk.Now()}
	require.NoError(t, l.Wait(now, 0))
	require.NoError(t, l.Wait(now, 0))
	require.ErrorIs(t, l.Wait(now, 0), context.DeadlineExceeded)
	ws.start("d", ctx)
	assert.Equal(t, 1, l.queued())
	clk.advance(500 * time.Millisecond)
	ws.settle(4)
}

// TestLimiterCancelledWaiterGivesItsTurnBack: waiters whose context ends
// leave the queue and take no turn, so a call that comes after them is
// counted against the queue as it is (issue 19, item 9: with 2/s, eight
// cancelled waiters made a call with a 1s deadline be refused at once).
func TestLimiterCancelledWaiterGivesItsTurnBack(t *testing.T) {
	t.Parallel()
	clk, l, ws := emptied(t, 2, 1)
	ctx, cancel := context.WithCancel(context.Background())
	for _, n := range []string{"c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8"} {
		ws.start(n, ctx)
	}
	require.Equal(t, 8, l.queued())
	cancel()
	ws.settle(8)
	assert.Len(t, ws.names(context.Canceled), 8)
	assert.Equal(t, 0, l.queued())

	// A call with a 1s deadline: its turn comes 500ms after the first.
	dl := deadlineCtx{context.Background(), clk.Now().Add(time.Second)}
	ws.start("fresh", dl)
	assert.False(t, ws.returned("fresh"), "not refused: the cancelled waiters hold no turn")
	clk.advance(500 * time.Millisecond)
	ws.settle(9)
	assert.Equal(t, []string{"fresh"}, ws.names(nil))

	// One that leaves the middle of the queue lets those behind it move
	// up: with a, b and c queued and b cancelled, c goes 500ms after a.
	ws.start("a", context.Background())
	bctx, bcancel := context.WithCancel(context.Background())
	ws.start("b", bctx)
	ws.start("c", context.Background())
	bcancel()
	ws.settle(10)
	assert.Equal(t, 2, l.queued())
	clk.advance(500 * time.Millisecond)
	ws.settle(11)
	assert.Equal(t, []string{"a", "fresh"}, ws.names(nil))
	clk.advance(500 * time.Millisecond)
	ws.settle(12)
	assert.Equal(t, []string{"a", "c", "fresh"}, ws.names(nil))

	// The head leaving gives its turn to the next at the head's time:
	// with d gone, e queued for 500ms later and f behind it, e leaving
	// 200ms on lets f go 300ms after that.
	ws.start("d", context.Background())
	ectx, ecancel := context.WithCancel(context.Background())
	ws.start("e", ectx)
	ws.start("f", context.Background())
	clk.advance(500 * time.Millisecond)
	ws.settle(13)
	clk.advance(200 * time.Millisecond)
	ecancel()
	ws.settle(14)
	clk.advance(299 * time.Millisecond)
	assert.Equal(t, 1, l.queued())
	clk.advance(time.Millisecond)
	ws.settle(15)
	assert.Equal(t, []string{"a", "c", "d", "f", "fresh"}, ws.names(nil))
}

// TestLimiterTurnThatCameAsTheContextEndedGoesBack: a waiter whose turn
// had come (its timer late) when its context ended does not go, and the
// turn goes back to the bucket.
func TestLimiterTurnThatCameAsTheContextEndedGoesBack(t *testing.T) {
	t.Parallel()
	clk, l, ws := emptied(t, 2, 1)
	ctx, cancel := context.WithCancel(context.Background())
	ws.start("late", ctx)
	clk.jump(time.Second) // the bucket holds a turn again, and 1s is 2 turns
	cancel()
	ws.settle(1)
	assert.Equal(t, []string{"late"}, ws.names(context.Canceled))
	now := deadlineCtx{context.Background(), clk.Now()}
	require.NoError(t, l.Wait(now, 0), "the turn is in the bucket")
	ws.start("next", context.Background())
	assert.Equal(t, 1, l.queued(), "a bucket of one turn holds one")
}

// TestLimiterRateChangeRetimesTheQueue: a 429 slows every attempt that
// has not gone yet, not only those that come after it (issue 19, item
// 10: callers queued before a storm of 429s kept the old rate), and a
// response that gives rate back speeds them up.
func TestLimiterRateChangeRetimesTheQueue(t *testing.T) {
	t.Parallel()
	clk, l, ws := emptied(t, 20, 1)
	for i := 0; i < 10; i++ {
		ws.start(string(rune('a'+i)), context.Background())
	}
	for i := 0; i < 4; i++ {
		l.observe(429, 0)
	}
	require.InDelta(t, 1.25, l.Limit(), 1e-9)
	clk.advance(50 * time.Millisecond)
	assert.Equal(t, 10, l.queued(), "the head's turn moved from 50ms to 800ms")
	clk.advance(3 * time.Second)
	ws.settle(3) // at 800ms, 1.6s and 2.4s
	assert.Equal(t, []string{"a", "b", "c"}, ws.names(nil))
	assert.Equal(t, 7, l.queued())

	// A success gives back a twentieth: 2.25/s. At 3.05s the bucket
	// holds 0.8125 of a turn (0.65s since 2.4s at 1.25/s), so d goes at
	// 3.05s + 0.1875/2.25s, 83.3ms later, where at 1.25/s it would have
	// gone at 3.2s.
	l.observe(200, 0)
	clk.advance(83 * time.Millisecond)
	assert.Equal(t, 7, l.queued())
	clk.advance(time.Millisecond)
	ws.settle(4)
	assert.Equal(t, 6, l.queued())
}

// TestLimiterRefusesAgainstTheCurrentSchedule: a wait is refused at once
// when its turn, counted on the queue and the rate in force, would pass
// its deadline; a drop of the rate refuses the waiters it pushes past
// theirs, and those behind move up.
func TestLimiterRefusesAgainstTheCurrentSchedule(t *testing.T) {
	t.Parallel()
	clk := newFakeClock()
	l := newLimiter(2, 1, clk)
	require.NoError(t, l.Wait(context.Background(), 0))
	start := clk.Now()
	at := func(d time.Duration) context.Context { return deadlineCtx{context.Background(), start.Add(d)} }

	// The first waiter's turn is at 500ms.
	err := l.Wait(at(499*time.Millisecond), 0)
	require.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Equal(t, 0, l.queued(), "refused at once, without a place in the queue")
	ws := newWaiters(t, l)
	ws.start("a", at(500*time.Millisecond))
	// The second's at 1s, the third's at 1.5s.
	ws.start("b", at(2*time.Second))
	require.ErrorIs(t, l.Wait(at(1400*time.Millisecond), 0), context.DeadlineExceeded)
	ws.start("c", at(10*time.Second))
	assert.Equal(t, 3, l.queued())

	// At 1/s, a's turn is at 1s, past its deadline: it is refused, and
	// b (turn at 1s) and c (2s) move up.
	l.observe(429, 0)
	ws.settle(1)
	assert.Equal(t, []string{"a"}, ws.names(context.DeadlineExceeded))
	assert.Equal(t, 2, l.queued())
	clk.advance(time.Second)
	ws.settle(2)
	assert.Equal(t, []string{"b"}, ws.names(nil))
	clk.advance(time.Second)
	ws.settle(3)
	assert.Equal(t, []string{"b", "c"}, ws.names(nil))
}

func TestLimiterWaitsWithinTheContext(t *testing.T) {
	t.Parallel()
	clk := newFakeClock()
	l := newLimiter(1.0/7200, 1, clk) // one attempt every two hours
	require.NoError(t, l.Wait(context.Background(), 0), "the burst is free")

	ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	require.ErrorIs(t, l.Wait(ctx, 0), context.DeadlineExceeded, "refused at once, an hour before the deadline")

	cctx, ccancel := context.WithCancel(context.Background())
	ccancel()
	assert.True(t, errors.Is(l.Wait(cctx, 0), context.Canceled))
	assert.Equal(t, 0, l.queued())

	// An unlimited rate lets everything go.
	inf := NewLimiter(posInf(), 1)
	for i := 0; i < 100; i++ {
		require.NoError(t, inf.Wait(context.Background(), 0))
	}
}

func posInf() float64 { z := 0.0; return 1 / z }

// TestLimiterUnderLoad runs many callers on the system clock, some of
// them giving up, and checks that every wait ends and that no more turns
// are handed out than the bucket and the rate allow.
func TestLimiterUnderLoad(t *testing.T) {
	t.Parallel()
	const rate = 20000
	l := NewLimiter(rate, 4)
	var wg sync.WaitGroup
	var went, gaveUp atomic.Int64
	start := time.Now()
	for g := 0; g < 20; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 10; i++ {
				ctx, cancel := context.WithCancel(context.Background())
				if (g+i)%3 == 0 {
					go cancel()
				}
				switch err := l.Wait(ctx, 0); {
				case err == nil:
					went.Add(1)
				case errors.Is(err, context.Canceled):
					gaveUp.Add(1)
				default:
					t.Errorf("unexpected error: %v", err)
				}
				cancel()
				if i%4 == 0 {
					l.observe([]int{200, 429, 204}[g%3], 0)
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start).Seconds()
	assert.Equal(t, int64(200), went.Load()+gaveUp.Load())
	assert.LessOrEqual(t, float64(went.Load()), 4+elapsed*rate+1, "no more turns than the bucket and the rate give")
	assert.Equal(t, 0, l.queued())
}

func TestLimiterWaitDoesNotAllocate(t *testing.T) {
	l := NewLimiter(1e12, 1)
	ctx := context.Background()
	allocs := testing.AllocsPerRun(1000, func() {
		if err := l.Wait(ctx, 0); err != nil {
			t.Fatal(err)
		}
	})
	assert.Zero(t, allocs)
}

// BenchmarkLimiterWait is a wait that finds a turn in the bucket.
func BenchmarkLimiterWait(b *testing.B) {
	l := NewLimiter(1e12, 1)
	ctx := context.Background()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if err := l.Wait(ctx, 0); err != nil {
			b.Fatal(err)
		}
	}
}

// pauseClock is the fake clock as the option.Clock a Limiter's pauses run
// on, counting the sleeps in progress.
type pauseClock struct {
	*fakeClock
	sleeping atomic.Int32
}

func (c *pauseClock) Sleep(ctx context.Context, d time.Duration) error {
	done := make(chan struct{})
	// The count drops when the timer fires, inside advance, so that a test
	// that advances the clock and then waits for the count to be whole
	// again knows every waiter has woken and gone back to sleep.
	t := c.AfterFunc(d, func() { c.sleeping.Add(-1); close(done) })
	c.sleeping.Add(1)
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		if t.Stop() {
			c.sleeping.Add(-1)
		}
		return ctx.Err()
	}
}

// TestRetryAfterPausesEveryWaiter: a 429's Retry-After holds every
// attempt on the interface, of any caller, until it ends; a later one that
// ends later holds them longer; a pause past a caller's deadline, or
// longer than the longest wait, is refused at once with the rest of it.
func TestRetryAfterPausesEveryWaiter(t *testing.T) {
	t.Parallel()
	clk := &pauseClock{fakeClock: newFakeClock()}
	l := newLimiter(math.Inf(1), 1, clk.fakeClock)
	l.UseClock(clk, time.Hour)
	ra := func(v string) time.Duration { d, _ := parseRetryAfter(v, clk.Now()); return d }

	l.observe(429, 0)
	l.observe(200, ra("5"))
	assert.True(t, l.PausedUntil().IsZero(), "a 429 without Retry-After, or a 200, pauses nothing")
	start := clk.Now().Round(0)
	l.observe(429, ra("2"))
	assert.True(t, start.Add(2*time.Second).Equal(l.PausedUntil()))
	assert.True(t, start.Add(2*time.Second).Equal(l.State().PausedUntil))

	const callers = 8
	var returned atomic.Int32
	errs := make(chan error, callers)
	for range callers {
		go func() {
			err := l.Wait(context.Background(), 10*time.Second)
			returned.Add(1)
			errs <- err
		}()
	}
	eventually(t, func() bool { return clk.sleeping.Load() == callers }, "every caller waits out the pause")
	clk.advance(time.Second)
	l.observe(503, ra("3")) // ends at start+4s
	l.observe(429, ra("1")) // ends earlier: the longer pause holds
	assert.True(t, start.Add(4*time.Second).Equal(l.PausedUntil()), "the later end holds")
	clk.advance(time.Second) // start+2s: the first pause is over
	eventually(t, func() bool { return clk.sleeping.Load() == callers }, "every caller waits out the second pause")
	assert.Zero(t, returned.Load(), "no attempt goes inside a pause")

	// A pause past a caller's deadline, or above the longest wait, is
	// refused at once with what is left of it.
	err := l.Wait(deadlineCtx{context.Background(), time.Now().Add(time.Second)}, 10*time.Second)
	var pe *PauseError
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, PauseError{Until: start.Add(4 * time.Second), Rest: 2 * time.Second, PastDeadline: true}, *pe)
	l.observe(429, ra("60"))
	require.ErrorAs(t, l.Wait(context.Background(), 10*time.Second), &pe)
	assert.Equal(t, PauseError{Until: start.Add(2*time.Second + time.Minute), Rest: time.Minute}, *pe)
	assert.Zero(t, returned.Load())

	// The clock passes the end before the waiters wake, so that none reads
	// it midway.
	// A waiter may still be between two sleeps: the clock moves on until
	// every one has returned.
	clk.jump(time.Minute)
	eventually(t, func() bool { clk.advance(time.Second); return returned.Load() == callers }, "every waiter returns once the pause is over")
	for range callers {
		assert.NoError(t, <-errs)
	}
	assert.True(t, l.PausedUntil().IsZero())
}

// TestLimiterRunsOnTheClientsClock: a client given WithClock counts its
// rate's turns on that clock, as it counts its pauses and its watches
// wait: a turn an hour away comes when that clock has moved an hour, not
// when real time has.
func TestLimiterRunsOnTheClientsClock(t *testing.T) {
	t.Parallel()
	// The client's clock reads any time: now, or a fixed day a year
	// back, as a test's manual clock may. The bucket counts from the
	// clock it runs on, not from the real time it was built at.
	for _, start := range []time.Duration{0, -365 * 24 * time.Hour} {
		t.Run(start.String(), func(t *testing.T) {
			t.Parallel()
			limiterRunsOnTheClientsClock(t, start)
		})
	}
}

func limiterRunsOnTheClientsClock(t *testing.T, start time.Duration) {
	clk := &pauseClock{fakeClock: &fakeClock{now: time.Now().Add(start)}}
	l := NewLimiter(1.0/3600, 1)
	l.UseClock(clk, time.Hour)
	require.NoError(t, l.Wait(context.Background(), time.Minute), "the first turn is in the bucket")
	done := make(chan error, 1)
	go func() { done <- l.Wait(context.Background(), time.Minute) }()
	eventually(t, func() bool { return clk.sleeping.Load() == 1 }, "the second waits for its turn on the client's clock")
	select {
	case err := <-done:
		t.Fatalf("the turn came before the clock moved: %v", err)
	default:
	}
	clk.advance(time.Hour)
	eventually(t, func() bool {
		select {
		case err := <-done:
			require.NoError(t, err)
			return true
		default:
			return false
		}
	}, "the turn comes when the client's clock has moved an hour")
	assert.InDelta(t, 0, l.State().Tokens, 1e-6)

	// A deadline is wall-clock time: it is judged as the distance left,
	// whatever the clock, so a turn an hour away on the client's clock is
	// refused at once for a context of a minute.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	assert.ErrorIs(t, l.Wait(ctx, time.Minute), errRateWait)
}

// TestPauseIsCappedAndEndedByTheApplication: a Retry-After longer than
// the longest pause pauses for that longest pause, and EndPause lets the
// attempts waiting for it go at once.
func TestPauseIsCappedAndEndedByTheApplication(t *testing.T) {
	t.Parallel()
	clk := &pauseClock{fakeClock: newFakeClock()}
	l := newLimiter(math.Inf(1), 1, clk.fakeClock)
	l.UseClock(clk, 5*time.Minute)
	start := clk.Now().Round(0)
	l.observe(503, 365*24*time.Hour)
	assert.True(t, start.Add(5*time.Minute).Equal(l.PausedUntil()), "capped: %v", l.PausedUntil())

	done := make(chan error, 1)
	go func() { done <- l.Wait(context.Background(), time.Hour) }()
	eventually(t, func() bool { return clk.sleeping.Load() == 1 }, "the attempt waits for the pause")
	l.EndPause()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(10 * time.Second):
		t.Fatal("the attempt still waits after EndPause")
	}
	assert.True(t, l.PausedUntil().IsZero())
	require.NoError(t, l.Wait(context.Background(), time.Hour), "the next attempt goes")

	l.UseClock(clk, 0)
	l.observe(429, time.Minute)
	assert.True(t, l.PausedUntil().IsZero(), "a longest pause of zero pauses nothing")
}
