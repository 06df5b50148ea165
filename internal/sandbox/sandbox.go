package sandbox

import (
	"container/heap"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// Interface names one of the platform's four interfaces. Its string value is
// also the path prefix the sandbox serves it under ("/omni", "/delivery",
// "/tracking", "/pricing").
type Interface string

// The four interfaces the sandbox serves.
const (
	// Omni is the omni request and pharmacy lookup interface (document 000).
	Omni Interface = "omni"
	// Delivery is the delivery order interface (document 001).
	Delivery Interface = "delivery"
	// Tracking is the tracking subscription interface (document 002).
	Tracking Interface = "tracking"
	// Pricing is the pricing quote interface (document 002).
	Pricing Interface = "pricing"
)

// Interfaces lists the four interfaces in a fixed order.
var Interfaces = []Interface{Omni, Delivery, Tracking, Pricing}

// Prefix returns the path prefix the interface is mounted under, such as
// "/omni". A client's base URL for the interface is the server URL followed
// by this prefix.
func (i Interface) Prefix() string { return "/" + string(i) }

// DefaultKey and DefaultSecret are the credentials a Sandbox accepts on all
// four interfaces when Config names no credentials at all.
const (
	DefaultKey    = "sandbox_key"
	DefaultSecret = "sandbox_secret"
)

// DefaultCadence is the time between two automatic status changes of a
// delivery order, and between two tracking events of a shipping order, when
// Config.OrderCadence is zero.
const DefaultCadence = 30 * time.Second

// DefaultMaxCalls is the number of calls Stats().Calls keeps when
// Config.MaxCalls is zero.
const DefaultMaxCalls = 10000

// Credentials is one API key and secret the sandbox accepts.
type Credentials struct {
	// Key is the API key (the Basic username).
	Key string
	// Secret is the API secret (the Basic password).
	Secret string
	// Interfaces lists the interfaces the credentials are enabled for; nil
	// or empty means all four. A call to another interface gets 403.
	Interfaces []Interface
	// Disabled makes every call with these credentials fail with 401
	// ("API credentials are disabled").
	Disabled bool
}

// Config configures a Sandbox. The zero Config is usable: it accepts
// DefaultKey and DefaultSecret on every interface and runs on the real
// clock.
type Config struct {
	// Key and Secret, when Key is set, are accepted on all four interfaces.
	Key, Secret string
	// Credentials adds further credentials, each optionally limited to some
	// interfaces. When neither Key nor Credentials is set the sandbox accepts
	// DefaultKey and DefaultSecret.
	Credentials []Credentials

	// Clock is the time source; nil means RealClock. Pass a *ManualClock in
	// tests and move time with Advance.
	Clock Clock
	// OrderCadence is the time between two automatic status changes of a
	// delivery order (and between two tracking events of a shipping order).
	// Zero means DefaultCadence; a negative value turns automatic progression
	// off, leaving SetOrderStatus and EmitTracking.
	OrderCadence time.Duration

	// NotifyClient sends tracking notifications to listener URLs. Nil means a
	// client with default TLS settings. Tests pass the Client of their
	// httptest TLS server so that its certificate is trusted.
	NotifyClient *http.Client
	// NotifyTimeout bounds one notification delivery; zero means 10 seconds.
	NotifyTimeout time.Duration

	// Pharmacies, when not nil, replaces the built-in pharmacy set (see
	// BuiltinPharmacies and GeneratePharmacies); it is copied.
	Pharmacies []Pharmacy

	// AllowUnknownFields turns off the strict decoding that rejects unknown
	// JSON fields and unknown query parameters with 400. The strict default
	// catches a misspelt key in the client's encoding.
	AllowUnknownFields bool

	// Logger, when set, receives one line per call with the interface,
	// method, route template (never the raw path or query) and status.
	Logger *slog.Logger
	// MaxCalls caps the number of calls kept in Stats().Calls (and of
	// notifications in Stats().Notifications); the oldest are dropped
	// first. Zero means DefaultMaxCalls; a negative value keeps every one.
	// Stats().CallCounts counts past the cap.
	MaxCalls int

	// ExtraRoutes adds operations beyond the documents' (Routes), each
	// served by its handler in ExtraHandlers, through the same route
	// table and checks as every other: the seam the endpoint walk test
	// (rxdeliverytest's TestEndpointWalk) serves a test-only endpoint
	// through. Leave both empty anywhere else.
	ExtraRoutes []Route
	// ExtraHandlers holds the handler of each operation of ExtraRoutes.
	ExtraHandlers map[string]Handler
}

// Sandbox is the in-process fake of the four interfaces. It is an
// http.Handler serving each interface under its Prefix, and it is safe for
// concurrent use. Call Close when done with it.
type Sandbox struct {
	clock      Clock
	manual     bool
	unhook     func()
	cadence    time.Duration
	creds      []Credentials
	notify     *http.Client
	notifyWait time.Duration
	strict     bool
	logger     *slog.Logger
	maxCalls   int
	routes     []*route

	pharm    atomic.Pointer[pharmacySet] // replaced whole by SetPharmacies
	noQuotes atomic.Bool                 // SetEmptyQuotes

	ctx    context.Context // cancelled by Close; bounds notifications and slow faults
	cancel context.CancelFunc

	mu      sync.Mutex
	closed  bool
	driving bool
	kick    chan struct{}
	wg      sync.WaitGroup
	events  eventQueue
	seq     uint64
	outbox  []notification // applied by a read's catchUp, not yet delivered

	requests map[string]*omniRequest
	orders   map[string]*deliveryOrder
	subs     map[string]*subscription
	tracks   map[string]*trackingHistory
	faults   []*faultState
	counter  int // ids
	sigSeq   int // signature URL tokens
	lookup   lookupCache
	stats    Stats // Calls is kept in calls instead

	callsMu    sync.Mutex // guards calls and callCounts; taken after mu, never before
	calls      []*Call
	callCounts map[string]int
}

// New returns a Sandbox configured by cfg.
func New(cfg Config) *Sandbox {
	ctx, cancel := context.WithCancel(context.Background())
	s := &Sandbox{
		clock:      cfg.Clock,
		cadence:    cfg.OrderCadence,
		notify:     cfg.NotifyClient,
		notifyWait: cfg.NotifyTimeout,
		strict:     !cfg.AllowUnknownFields,
		logger:     cfg.Logger,
		maxCalls:   cfg.MaxCalls,
		ctx:        ctx,
		cancel:     cancel,
		kick:       make(chan struct{}, 1),
		requests:   map[string]*omniRequest{},
		orders:     map[string]*deliveryOrder{},
		subs:       map[string]*subscription{},
		tracks:     map[string]*trackingHistory{},
	}
	if s.clock == nil {
		s.clock = RealClock{}
	}
	if s.cadence == 0 {
		s.cadence = DefaultCadence
	}
	if s.notify == nil {
		s.notify = &http.Client{}
	}
	if s.notifyWait <= 0 {
		s.notifyWait = 10 * time.Second
	}
	if s.maxCalls == 0 {
		s.maxCalls = DefaultMaxCalls
	}
	if cfg.Key != "" {
		s.creds = append(s.creds, Credentials{Key: cfg.Key, Secret: cfg.Secret})
	}
	s.creds = append(s.creds, cfg.Credentials...)
	if len(s.creds) == 0 {
		s.creds = []Credentials{{Key: DefaultKey, Secret: DefaultSecret}}
	}
	if cfg.Pharmacies == nil {
		s.pharm.Store(newPharmacySet(BuiltinPharmacies()))
	} else {
		s.pharm.Store(newPharmacySet(cfg.Pharmacies))
	}
	s.stats.CreateBodies = map[string]int{}
	s.routes = s.mustRoutes(cfg)
	switch c := s.clock.(type) {
	case *ManualClock:
		s.manual = true
		s.unhook = c.register(s.runDue)
	case *ShiftClock:
		s.unhook = c.register(func() {
			s.runDue()
			s.kickDriver()
		})
	}
	return s
}

// mustRoutes builds the route table from Routes and cfg's extra routes,
// each served by its operation's handler (handlers.go, cfg.ExtraHandlers).
// It panics on an operation without a handler or a handler without an
// operation: a simulator that answered 404 for an endpoint of the
// documents would fail tests far from the missing line.
func (s *Sandbox) mustRoutes(cfg Config) []*route {
	handlers := s.handlers()
	for name, h := range cfg.ExtraHandlers {
		if _, dup := handlers[name]; dup {
			panic("sandbox: extra handler of " + name + " replaces the documents' operation")
		}
		if h != nil {
			handlers[name] = func(c *call) { h(c.w, c.r, c.params) }
		}
	}
	routes := append(append([]Route(nil), Routes...), cfg.ExtraRoutes...)
	rts, err := buildRoutes(routes, handlers)
	if err != nil {
		panic(err.Error())
	}
	return rts
}

// Handler returns the sandbox as an http.Handler (the Sandbox itself).
func (s *Sandbox) Handler() http.Handler { return s }

// Close stops the background goroutine (if any), cancels notifications and
// slow faults in progress, and waits until nothing the sandbox started is
// still running. Handlers keep answering after Close but no longer schedule
// or deliver anything. Close may be called more than once.
func (s *Sandbox) Close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	s.events = nil
	s.mu.Unlock()
	if s.unhook != nil {
		s.unhook()
	}
	s.cancel()
	s.wg.Wait()
}

// now returns the clock's time in UTC.
func (s *Sandbox) now() time.Time { return s.clock.Now().UTC() }

// nextIDLocked returns a new identifier with the given prefix, unique within
// the sandbox. The caller holds s.mu.
func (s *Sandbox) nextIDLocked(prefix string) string {
	s.counter++
	return fmt.Sprintf("%s%06d", prefix, s.counter)
}

// ---- scheduling ----

// event is one scheduled transition. run is called with s.mu held and the
// time the event was due; it returns notifications to deliver once the lock
// is released.
type event struct {
	due time.Time
	seq uint64
	run func(at time.Time) []notification
}

type eventQueue []*event

func (q eventQueue) Len() int { return len(q) }
func (q eventQueue) Less(i, j int) bool {
	if q[i].due.Equal(q[j].due) {
		return q[i].seq < q[j].seq
	}
	return q[i].due.Before(q[j].due)
}
func (q eventQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *eventQueue) Push(x any)   { *q = append(*q, x.(*event)) }
func (q *eventQueue) Pop() any {
	old := *q
	e := old[len(old)-1]
	*q = old[:len(old)-1]
	return e
}

// scheduleLocked queues run at due. The caller holds s.mu.
func (s *Sandbox) scheduleLocked(due time.Time, run func(at time.Time) []notification) {
	if s.closed {
		return
	}
	s.seq++
	heap.Push(&s.events, &event{due: due, seq: s.seq, run: run})
	if s.manual {
		return
	}
	if !s.driving {
		s.driving = true
		s.wg.Add(1)
		go s.drive()
	}
	select {
	case s.kick <- struct{}{}:
	default:
	}
}

// kickDriver makes the background goroutine, when running, run what is
// due, deliver the outbox and measure its wait again (the clock jumped, or
// a call caught up).
func (s *Sandbox) kickDriver() {
	select {
	case s.kick <- struct{}{}:
	default:
	}
}

// drive is the background goroutine used with a real-time clock: it sleeps
// until the next event is due, runs what is due, and exits on Close.
func (s *Sandbox) drive() {
	defer s.wg.Done()
	t := time.NewTimer(time.Hour)
	defer t.Stop()
	for {
		s.mu.Lock()
		wait := time.Hour
		if len(s.events) > 0 {
			wait = s.events[0].due.Sub(s.clock.Now())
			if wait < 0 {
				wait = 0
			}
		}
		s.mu.Unlock()
		t.Reset(wait)
		select {
		case <-s.ctx.Done():
			return
		case <-s.kick:
			// A new event, a clock that jumped, or a call's catch-up that
			// left notifications in the outbox.
			s.runDue()
		case <-t.C:
			s.runDue()
		}
	}
}

// runDue applies every event due at the clock's current time, in time
// order (events scheduled by an event run in the same pass when they are
// due too), then delivers the notifications they produced, after those a
// read's catch-up left in the outbox.
func (s *Sandbox) runDue() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	out := s.outbox
	s.outbox = nil
	out = append(out, s.runDueLocked(s.clock.Now())...)
	s.mu.Unlock()
	s.deliver(out)
}

// runDueLocked applies every event due at now, in time order, and returns
// the notifications they produced. The caller holds s.mu.
func (s *Sandbox) runDueLocked(now time.Time) []notification {
	var out []notification
	for len(s.events) > 0 && !s.events[0].due.After(now) {
		ev := heap.Pop(&s.events).(*event)
		out = append(out, ev.run(ev.due.UTC())...)
	}
	return out
}

// catchUp applies, before a call is served, the events due at now (the
// time the call was received) that the background goroutine has not run
// yet, so that on a real-time clock a call shows every transition due
// when it arrived, however late the goroutine wakes. Their notifications
// go to the outbox, which the goroutine, woken here, delivers in order.
// A ManualClock needs none of this: Advance runs what is due before it
// returns.
func (s *Sandbox) catchUp(now time.Time) {
	if s.manual {
		return
	}
	s.mu.Lock()
	if s.closed || len(s.events) == 0 || s.events[0].due.After(now) {
		s.mu.Unlock()
		return
	}
	s.outbox = append(s.outbox, s.runDueLocked(now)...)
	s.mu.Unlock()
	s.kickDriver()
}

// firstDue is when the first scheduled step of a request or an order falls
// for one created at now with a cadence: now+cadence moved back to the
// whole second, unless that would be now or before (a cadence under a
// second). The platform writes occurred_at to the second, so a step at a
// fraction of a second would show an occurred_at up to a second before it
// becomes visible; on a whole second the two agree. Moving back rather
// than forward keeps "Advance by n cadences after a create applies n
// steps" true on a real-time clock, where a create falls between seconds.
// The steps after the first follow at the cadence, so with a cadence of
// whole seconds every step falls on a whole second.
func firstDue(now time.Time, cadence time.Duration) time.Time {
	due := now.Add(cadence)
	if t := due.Truncate(time.Second); t.After(now) {
		return t
	}
	return due
}
