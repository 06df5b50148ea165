package rxtypes

import (
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/rxdelivery/rxdelivery-go/internal/jsonx"
)

// Date is a civil date (year, month, day) with no time of day and no time
// zone, such as a date of birth or a service date. On the wire it is the
// ISO 8601 form "2006-01-02".
type Date struct {
	// Year is the year, such as 1980.
	Year int
	// Month is the month of the year, January being 1.
	Month time.Month
	// Day is the day of the month, from 1.
	Day int
}

// ErrInvalidDate is returned when a text is not an ISO 8601 calendar date.
var ErrInvalidDate = errors.New("not a valid date (want YYYY-MM-DD)")

// ErrInvalidUSDate is returned by [ParseUSDate] when a text is not a date
// in month/day/year form.
var ErrInvalidUSDate = errors.New("not a valid date (want MM/DD/YYYY)")

// ParseDate parses an ISO 8601 calendar date ("1980-02-29") and checks that
// the day exists.
func ParseDate(s string) (Date, error) {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return Date{}, ErrInvalidDate
	}
	return DateOf(t), nil
}

// ParseUSDate parses a date written month/day/year, the form US pharmacy
// systems export: "02/29/1980", or "2/9/1980" without leading zeros. The
// year has four digits; the day must exist. The error never quotes s.
func ParseUSDate(s string) (Date, error) {
	m, rest, ok1 := strings.Cut(s, "/")
	d, y, ok2 := strings.Cut(rest, "/")
	if !ok1 || !ok2 || len(m) < 1 || len(m) > 2 || len(d) < 1 || len(d) > 2 || len(y) != 4 {
		return Date{}, ErrInvalidUSDate
	}
	mm, err1 := strconv.Atoi(m)
	dd, err2 := strconv.Atoi(d)
	yy, err3 := strconv.Atoi(y)
	if err1 != nil || err2 != nil || err3 != nil || !allDigits(m+d+y) {
		return Date{}, ErrInvalidUSDate
	}
	v := Date{Year: yy, Month: time.Month(mm), Day: dd}
	if !v.IsValid() {
		return Date{}, ErrInvalidUSDate
	}
	return v, nil
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

// Compare returns -1, 0 or +1 as d is before, the same day as, or after e.
func (d Date) Compare(e Date) int {
	switch {
	case d.Year != e.Year:
		return cmpInt(d.Year, e.Year)
	case d.Month != e.Month:
		return cmpInt(int(d.Month), int(e.Month))
	}
	return cmpInt(d.Day, e.Day)
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Before reports whether d is a day before e.
func (d Date) Before(e Date) bool { return d.Compare(e) < 0 }

// After reports whether d is a day after e.
func (d Date) After(e Date) bool { return d.Compare(e) > 0 }

// DateOf returns the civil date of t in t's location.
func DateOf(t time.Time) Date {
	y, m, d := t.Date()
	return Date{Year: y, Month: m, Day: d}
}

// IsZero reports whether d is the zero value.
func (d Date) IsZero() bool { return d == Date{} }

// IsValid reports whether d names a day that exists in the Gregorian calendar.
func (d Date) IsValid() bool {
	if d.Year < 1 || d.Year > 9999 || d.Month < time.January || d.Month > time.December || d.Day < 1 {
		return false
	}
	return DateOf(d.In(time.UTC)) == d
}

// In returns the time at midnight that starts d in loc.
func (d Date) In(loc *time.Location) time.Time {
	return time.Date(d.Year, d.Month, d.Day, 0, 0, 0, 0, loc)
}

// String returns d as "YYYY-MM-DD".
func (d Date) String() string {
	b, _ := d.AppendText(make([]byte, 0, 10))
	return string(b)
}

// AppendText appends d as "YYYY-MM-DD" to b.
func (d Date) AppendText(b []byte) ([]byte, error) {
	b = appendPadded(b, d.Year, 4)
	b = append(b, '-')
	b = appendPadded(b, int(d.Month), 2)
	b = append(b, '-')
	return appendPadded(b, d.Day, 2), nil
}

func appendPadded(b []byte, v, width int) []byte {
	if v < 0 {
		b = append(b, '-')
		v = -v
	}
	// Digits written into a buffer on the stack: strconv.Itoa allocates
	// a string for any value above 99, such as a year.
	var buf [20]byte
	s := strconv.AppendInt(buf[:0], int64(v), 10)
	for i := len(s); i < width; i++ {
		b = append(b, '0')
	}
	return append(b, s...)
}

// MarshalText returns d as "YYYY-MM-DD".
func (d Date) MarshalText() ([]byte, error) {
	return d.AppendText(make([]byte, 0, 10))
}

// UnmarshalText parses "YYYY-MM-DD".
func (d *Date) UnmarshalText(b []byte) error {
	v, err := ParseDate(string(b))
	if err != nil {
		return err
	}
	*d = v
	return nil
}

// MarshalJSON writes d as a JSON string "YYYY-MM-DD".
func (d Date) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, 12)
	b = append(b, '"')
	b, _ = d.AppendText(b)
	return append(b, '"'), nil
}

// UnmarshalJSON reads a JSON string "YYYY-MM-DD". A full timestamp is accepted
// too and reduced to its date as written. JSON null leaves d unchanged.
func (d *Date) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		return nil
	}
	unq, ok := jsonx.Unquote(b)
	if !ok {
		return ErrInvalidDate
	}
	if len(unq) > 10 && unq[10] == 'T' {
		unq = unq[:10]
	}
	return d.UnmarshalText([]byte(unq))
}
