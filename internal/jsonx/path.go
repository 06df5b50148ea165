package jsonx

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Path returns field, the path of a *json.UnmarshalTypeError that
// Unmarshal reported for data, in the notation of the paths the SDK shows
// users (the one of the params types' Validate): object members joined by
// dots, array elements as [i], such as tracking_events[0].status.
//
// Whether a step is an array index or a member's name (which may be
// digits, or hold a dot) is read from data itself. A step data does not
// settle is written as given, after a dot. The result is built from the
// input's names and the indexes only, never from a value.
func Path(data []byte, field string) string {
	if field == "" {
		return ""
	}
	steps := strings.Split(field, ".")
	var b strings.Builder
	cur := data
	for i := 0; i < len(steps); {
		next, n, index := step(cur, steps[i:])
		if index {
			b.WriteString("[" + steps[i] + "]")
		} else {
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(unescape(strings.Join(steps[i:i+n], ".")))
		}
		cur = next
		i += n
	}
	return b.String()
}

// step finds the first of steps in the JSON value v: an element of an
// array (index is true), or a member of an object, whose name may span
// several steps when it holds dots (the longest name that is there wins).
// n is the number of steps it took; next is the value found, nil when v
// does not hold it.
func step(v []byte, steps []string) (next []byte, n int, index bool) {
	v = bytes.TrimSpace(v)
	if len(v) == 0 {
		return nil, 1, false
	}
	switch v[0] {
	case '[':
		i, err := strconv.Atoi(steps[0])
		var elems []json.RawMessage
		if err == nil && isDigits(steps[0]) && json.Unmarshal(v, &elems) == nil && i < len(elems) {
			return elems[i], 1, true
		}
	case '{':
		var members map[string]json.RawMessage
		if json.Unmarshal(v, &members) != nil {
			break
		}
		for n := len(steps); n > 0; n-- {
			if m, ok := members[unescape(strings.Join(steps[:n], "."))]; ok {
				return m, n, false
			}
		}
		// encoding/json matches names without regard to case; of several
		// such names the first in byte order is taken, so that the response
		// does not depend on the map's order.
		keys := slices.Sorted(maps.Keys(members))
		for n := len(steps); n > 0; n-- {
			name := unescape(strings.Join(steps[:n], "."))
			for _, k := range keys {
				if strings.EqualFold(k, name) {
					return members[k], n, false
				}
			}
		}
	}
	return nil, 1, false
}

// isDigits reports whether s is a non-empty run of ASCII digits.
func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// unescape undoes a JSON Pointer's escapes in one step of a path (~1 for
// a slash, ~0 for a tilde): the v2 decoder's paths keep them.
func unescape(s string) string {
	if !strings.Contains(s, "~") {
		return s
	}
	return strings.NewReplacer("~1", "/", "~0", "~").Replace(s)
}
