package poll

import (
	"context"
	"iter"

	"github.com/rxdelivery/rxdelivery-go/internal/core"
	"github.com/rxdelivery/rxdelivery-go/option"
)

// Kind is what a service tells the engine of one kind of resource (E is
// Order or Request): the names of its watch operations, how to judge a
// read, and how to read one and many. The service's Watch, WatchMany and
// Wait are Kind's methods and Last.
type Kind[E any] struct {
	// Watch and WatchMany name the operations in errors
	// ("orders.Watch", "orders.WatchMany").
	Watch, WatchMany string
	// ID, State, Unknown and Final are those of Resource.
	ID      func(*E) string
	State   func(*E) string
	Unknown func(*E) (status string, unknown bool)
	Final   func(*E) bool
	// Get reads one resource; GetMany reads several with the get-many
	// endpoint.
	Get     func(ctx context.Context, id string, opts ...option.CallOption) (*E, error)
	GetMany func(ctx context.Context, ids []string, opts ...option.CallOption) ([]E, error)
}

// resource is k as the engine sees it in the watch op, with the Until
// condition of set.
func (k *Kind[E]) resource(op string, set option.WatchSettings) (Resource[*E], error) {
	until, err := UntilOf[*E](op, set)
	return Resource[*E]{Op: op, ID: k.ID, State: k.State, Unknown: k.Unknown, Final: k.Final, Until: until}, err
}

// One follows the resource id (a service's Watch): opts are resolved on
// clock, and each read is one Get with the watch's call options.
func (k *Kind[E]) One(ctx context.Context, clock option.Clock, id string, opts []option.WatchOption) iter.Seq2[*E, error] {
	return func(yield func(*E, error) bool) {
		w, set := Resolve(clock, opts)
		res, err := k.resource(k.Watch, set)
		if err != nil {
			yield(nil, err)
			return
		}
		m := newMeter(set.Calls)
		w.RequestID, w.Attempts = m.requestID, m.attempts
		One(ctx, w, res, func(ctx context.Context) (*E, error) {
			v, err := k.Get(ctx, id, m.opts...)
			m.add()
			return v, err
		}, yield)
	}
}

// Many follows the resources ids (a service's WatchMany) with GetMany. An
// empty ids, or an empty id in it, is yielded as the refusal a get-many
// call gives, before anything is sent.
func (k *Kind[E]) Many(ctx context.Context, clock option.Clock, ids []string, opts []option.WatchOption) iter.Seq2[*E, error] {
	return func(yield func(*E, error) bool) {
		w, set := Resolve(clock, opts)
		res, err := k.resource(k.WatchMany, set)
		if err == nil {
			err = core.IDs(ids)(core.Checks{})
		}
		if err != nil {
			yield(nil, err)
			return
		}
		m := newMeter(set.Calls)
		w.RequestID, w.Attempts = m.requestID, m.attempts
		Many(ctx, w, res, ids, func(ctx context.Context, batch []string) ([]*E, error) {
			list, err := k.GetMany(ctx, batch, m.opts...)
			m.add()
			out := make([]*E, len(list))
			for i := range list {
				out[i] = &list[i]
			}
			return out, err
		}, yield)
	}
}

// Last runs a watch to its end and returns what a service's Wait returns:
// the resource that ended it, or the first error with the resource as
// last read (nil if none was).
func Last[E any](watch iter.Seq2[*E, error]) (*E, error) {
	var last *E
	for v, err := range watch {
		if v != nil {
			last = v
		}
		if err != nil {
			return last, err
		}
	}
	return last, nil
}

// meter reads the Metadata of each of a watch's reads: for the request id
// of the last one, and to sum them into the one a WithMetadata among the
// watch's call options asks for, so that no read overwrites what the
// reads before it did (see option.WatchOption).
type meter struct {
	// opts are the call options of each read: the watch's, and one more
	// that gives each read read's Metadata.
	opts []option.CallOption
	user *option.Metadata
	read option.Metadata
	// lastID is the request id of the last read, lastAttempts its
	// attempts.
	lastID       string
	lastAttempts int
}

// newMeter returns the meter of a watch with the call options calls. The
// caller's Metadata, when one is asked for, starts empty.
func newMeter(calls []option.CallOption) *meter {
	s, _ := option.Resolve(&option.Settings{}, calls)
	m := &meter{user: s.Metadata}
	if m.user != nil {
		*m.user = option.Metadata{OutcomeKnown: true}
	}
	// The last WithMetadata wins: each read fills m.read.
	m.opts = append(calls[:len(calls):len(calls)], option.WithMetadata(&m.read))
	return m
}

// requestID is the request id of the last read.
func (m *meter) requestID() string { return m.lastID }

// attempts is the attempts of the last read.
func (m *meter) attempts() int { return m.lastAttempts }

// add notes the read just made, and sums it into the caller's Metadata.
func (m *meter) add() {
	m.lastID, m.lastAttempts = m.read.RequestID, m.read.Attempts
	if m.user == nil {
		m.read = option.Metadata{}
		return
	}
	u, r := m.user, &m.read
	u.Attempts += r.Attempts
	u.Duration += r.Duration
	u.RetryBudgetExhausted = u.RetryBudgetExhausted || r.RetryBudgetExhausted
	u.GraceUsed = u.GraceUsed || r.GraceUsed
	u.OutcomeKnown = u.OutcomeKnown && r.OutcomeKnown
	if r.StatusCode != 0 {
		u.StatusCode, u.Header, u.RequestID = r.StatusCode, r.Header, r.RequestID
	}
	u.AttemptLog = r.AttemptLog
	*r = option.Metadata{}
}
