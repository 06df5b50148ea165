package sandbox

import (
	"math"
	"strconv"
	"time"
)

// cents is an amount (money, or miles for distances) in hundredths,
// encoded as a JSON number with exactly two decimals (12.30, never "12.30"
// nor 12.3).
type cents int64

// MarshalJSON writes the amount with two decimals.
func (c cents) MarshalJSON() ([]byte, error) {
	v := int64(c)
	neg := v < 0
	if neg {
		v = -v
	}
	s := strconv.FormatInt(v/100, 10) + "." + strconv.FormatInt(100+v%100, 10)[1:]
	if neg {
		s = "-" + s
	}
	return []byte(s), nil
}

// toCents rounds f to hundredths.
func toCents(f float64) cents { return cents(math.Round(f * 100)) }

// eastern is a fixed -05:00 zone some timestamps are written in, so that the
// client's decoding meets offsets other than Z.
var eastern = time.FixedZone("EST", -5*60*60)

// The sandbox writes timestamps in several ISO 8601 forms, all of which the
// documents allow, to exercise tolerant decoding:
//
//	tsMillis  2025-01-06T14:00:00.000Z        (created_at, subscribed_at, ...)
//	tsOffset  2025-01-06T09:00:30-05:00       (occurred_at of omni orders, eta)
//	tsMicro   2025-01-06T14:01:00.000000Z     (status_note_updated_at)
//	tsSeconds 2025-01-06T14:01:00Z            (delivery order occurred_at)
func tsMillis(t time.Time) string  { return t.UTC().Format("2006-01-02T15:04:05.000Z07:00") }
func tsOffset(t time.Time) string  { return t.In(eastern).Format(time.RFC3339) }
func tsMicro(t time.Time) string   { return t.UTC().Format("2006-01-02T15:04:05.000000Z07:00") }
func tsSeconds(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// strp returns a pointer to s.
func strp(s string) *string { return &s }

// timep returns a pointer to a copy of t.
func timep(t time.Time) *time.Time { return &t }

// fmtTime formats an optional time with f, giving nil for nil.
func fmtTime(t *time.Time, f func(time.Time) string) *string {
	if t == nil {
		return nil
	}
	return strp(f(*t))
}
