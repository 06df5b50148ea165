package journal

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// The reference of a Key is the caller's external_reference_number, which
// pharmacies fill with medical record numbers: it is kept in the Reference
// field for code and left out of every rendering of a Key, a Claim and the
// journal's errors. The keys of tracking notifications follow the same rule,
// although a tracking number is not patient data, so that no rendering of a
// Key ever depends on its interface.

// withheld stands for a reference in renderings, in the style of the SDK's
// templated paths (:rx_number).
const withheld = ":reference"

// String returns the key's interface and a placeholder for its reference,
// "delivery/:reference": the reference is never rendered (read the
// Reference field when code needs it).
func (k Key) String() string { return k.Interface + "/" + withheld }

// Format renders k as [Key.String] does for every verb and flag (%v, %+v,
// %#v, %q, %s, %x...), so that no format prints the reference.
func (k Key) Format(f fmt.State, verb rune) {
	switch {
	case verb == 'v' && f.Flag('#'):
		fmt.Fprintf(f, "journal.Key{Interface:%q, Reference:%q}", k.Interface, withheld)
	case verb == 'v' && f.Flag('+'):
		fmt.Fprintf(f, "{Interface:%s Reference:%s}", k.Interface, withheld)
	case verb == 'q':
		fmt.Fprint(f, strconv.Quote(k.String()))
	default:
		fmt.Fprint(f, k.String())
	}
}

// String returns the claim's fields as %v shows them, with its reference
// and token withheld.
func (c Claim) String() string { return fmt.Sprint(c) }

// Format renders c with its reference and token withheld, for every verb
// and flag: %+v and %#v name the fields.
func (c Claim) Format(f fmt.State, verb rune) {
	ts := func(t time.Time) string {
		if t.IsZero() {
			return "0"
		}
		return t.UTC().Format(time.RFC3339Nano)
	}
	token := ""
	if c.Token != "" {
		token = "(withheld)"
	}
	switch {
	case verb == 'v' && f.Flag('#'):
		fmt.Fprintf(f, "journal.Claim{Key:%#v, State:%q, Token:%q, Holder:%q, ID:%q, Note:%q, ClaimedAt:%q, LeaseUntil:%q, UpdatedAt:%q}",
			c.Key, string(c.State), token, c.Holder, c.ID, c.Note, ts(c.ClaimedAt), ts(c.LeaseUntil), ts(c.UpdatedAt))
	case verb == 'v' && f.Flag('+'):
		fmt.Fprintf(f, "{Key:%s State:%s Token:%s Holder:%s ID:%s Note:%s ClaimedAt:%s LeaseUntil:%s UpdatedAt:%s}",
			c.Key, c.State, token, c.Holder, c.ID, c.Note, ts(c.ClaimedAt), ts(c.LeaseUntil), ts(c.UpdatedAt))
	default:
		s := fmt.Sprintf("{%s %s %s %s %s %s %s %s}", c.Key, c.State, c.Holder, c.ID, c.Note,
			ts(c.ClaimedAt), ts(c.LeaseUntil), ts(c.UpdatedAt))
		if verb == 'q' {
			s = strconv.Quote(s)
		}
		fmt.Fprint(f, s)
	}
}

// redactedError is an error of the journal whose text has had a reference
// removed. The original error is kept for errors.Is and errors.As (code
// asking for a *pgconn.PgError gets it) but is neither unwrapped nor
// rendered: a database's error may quote a statement's parameters, and so
// the reference.
type redactedError struct {
	msg string
	err error
}

func (e *redactedError) Error() string { return e.msg }

// GoString keeps %#v to the redacted text.
func (e *redactedError) GoString() string { return "journal.Error(" + strconv.Quote(e.msg) + ")" }

func (e *redactedError) Is(target error) bool { return errors.Is(e.err, target) }

func (e *redactedError) As(target any) bool { return errors.As(e.err, target) }

// redact returns err with k's reference removed from its text (in any
// case, and quoted or escaped as Go, JSON, SQL and URLs write it), or nil.
// Errors the journal returns that may carry a store's or a callback's
// words go through it.
func redact(k Key, err error) error {
	if err == nil {
		return nil
	}
	if _, ok := err.(*redactedError); ok {
		return err
	}
	return &redactedError{msg: scrub(err.Error(), k.Reference), err: err}
}

// errorf formats an error about k (whose %v and %s show no reference) and
// redacts what the wrapped errors say.
func errorf(k Key, format string, args ...any) error {
	return redact(k, fmt.Errorf(format, args...))
}

// scrub replaces every occurrence of ref in s, in any case and in the
// quoted and escaped forms an error may carry it in, with the placeholder.
func scrub(s, ref string) string {
	if ref == "" {
		return s
	}
	q := strconv.Quote(ref)
	j, _ := json.Marshal(ref)
	forms := []string{
		ref,
		q[1 : len(q)-1],
		strings.Trim(string(j), `"`),
		strings.ReplaceAll(ref, "'", "''"),
		url.PathEscape(ref),
		url.QueryEscape(ref),
	}
	for _, f := range forms {
		if f == "" {
			continue
		}
		re := regexp.MustCompile("(?i)" + regexp.QuoteMeta(f))
		s = re.ReplaceAllLiteralString(s, withheld)
	}
	return s
}
