package jsonx_test

import (
	"encoding/json"
	"go/version"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rxdelivery/rxdelivery-go/internal/jsonx"
	"github.com/rxdelivery/rxdelivery-go/tracking"
)

// keyed has a map, whose keys are steps of a path as array indexes are.
type keyed struct {
	M map[string]struct {
		N int `json:"n"`
	} `json:"m"`
}

// embedding has a list of structs that embed another, whose fields
// encoding/json before Go 1.27 names with the embedded type's name.
type embedding struct {
	L []struct{ embedded } `json:"l"`
}

type embedded struct {
	N int `json:"n"`
}

// TestTypeErrorPathIsIndexed pins the path of a type error on every Go
// release: the full path with array indexes and map keys, the input's
// names, and the root type, as Go 1.27's encoding/json reports it (the
// encoding/json of older releases leaves indexes and keys out).
func TestTypeErrorPathIsIndexed(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in            string
		into          func() any
		struc, field  string
		path, message string
	}{
		{`{"tracking_events":[{"status":"Accepted"},{"status":7}]}`, func() any { return new(tracking.Notification) },
			"Notification", "tracking_events.1.status", "tracking_events[1].status", "Notification.tracking_events.1.status"},
		{`{"TRACKING_EVENTS":[{"Status":{}}]}`, func() any { return new(tracking.Notification) },
			"Notification", "TRACKING_EVENTS.0.Status", "TRACKING_EVENTS[0].Status", "Notification.TRACKING_EVENTS.0.Status"},
		{`[{"status":[]}]`, func() any { return new([]tracking.TrackingEvent) },
			"", "0.status", "[0].status", ".0.status"},
		{`{"m":{"a":{"n":1},"7":{"n":"x"}}}`, func() any { return new(keyed) },
			"keyed", "m.7.n", "m.7.n", "keyed.m.7.n"},
		{`{"l":[{"n":1},{"n":"x"}]}`, func() any { return new(embedding) },
			"embedding", "l.1.n", "l[1].n", "embedding.l.1.n"},
		{"{\"l\": [ {\"n\": 1} ,\n\t{\"n\":  [1, 2]} ] }", func() any { return new(embedding) },
			"embedding", "l.1.n", "l[1].n", "embedding.l.1.n"},
		{`{"tracking_number":5}`, func() any { return new(tracking.Notification) },
			"Notification", "tracking_number", "tracking_number", "Notification.tracking_number"},
	} {
		err := jsonx.Unmarshal([]byte(tc.in), tc.into())
		var te *json.UnmarshalTypeError
		require.ErrorAs(t, err, &te, tc.in)
		assert.Equal(t, tc.struc, te.Struct, tc.in)
		assert.Equal(t, tc.field, te.Field, tc.in)
		assert.Contains(t, err.Error(), " "+tc.message+" ", tc.in)
		assert.Equal(t, tc.path, jsonx.Path([]byte(tc.in), te.Field), tc.in)
	}
}

// TestPath covers the steps Path reads from the input: indexes, members
// whose names are digits or hold dots or a JSON Pointer's escapes, names
// in another case, and steps the input does not hold.
func TestPath(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, field, want string }{
		{`{"tracking_events":[{"status":7}]}`, "tracking_events.0.status", "tracking_events[0].status"},
		{` [ {"a": 1} ] `, "0.a", "[0].a"},
		{`{"x":[[0,[1,2]]]}`, "x.0.1.1", "x[0][1][1]"},
		{`{"m":{"0":{"n":"x"}}}`, "m.0.n", "m.0.n"},
		{`{"a.b":[1,{"c":"x"}],"a":{"b":0}}`, "a.b.1.c", "a.b[1].c"},
		{`{"a/b":{"~c":1}}`, "a~1b.~0c", "a/b.~c"},
		{`{"Tracking_Events":[{"Status":1}]}`, "tracking_events.0.status", "tracking_events[0].status"},
		{`{"tracking_events":[{}]}`, "tracking_events.status", "tracking_events.status"},
		{`{"a":[1]}`, "a.5", "a.5"},
		{`{"a":[1]}`, "a.-0", "a.-0"},
		{`{"a":[1]}`, "a.+0", "a.+0"},
		{`{"a":1}`, "", ""},
		{`not json`, "a.0.b", "a.0.b"},
	} {
		assert.Equal(t, tc.want, jsonx.Path([]byte(tc.in), tc.field), "%s in %s", tc.field, tc.in)
	}
}

// FuzzPath checks that Path never panics and only ever turns a step into
// an index: with the brackets written as dots again, the result is the
// path it was given.
func FuzzPath(f *testing.F) {
	f.Add([]byte(`{"tracking_events":[{"status":7}]}`), "tracking_events.0.status")
	f.Add([]byte(`{"a.b":[[1,{"c":"x"}]]}`), "a.b.0.1.c")
	f.Fuzz(func(t *testing.T, data []byte, field string) {
		got := jsonx.Path(data, field)
		if strings.ContainsAny(field, "[]~") || strings.Contains(field, "..") || strings.HasPrefix(field, ".") {
			return
		}
		back := strings.TrimPrefix(strings.NewReplacer("[", ".", "]", "").Replace(got), ".")
		if back != field {
			t.Fatalf("Path(%q, %q) = %q", data, field, got)
		}
	})
}

// TestDecoderFollowsGoRelease checks which decoder the build runs on: the
// standard library's encoding/json/v2 from Go 1.27 on (unless built with
// GOEXPERIMENT=nojsonv2), the pinned module before, as the package of the
// decoder's syntax error tells.
func TestDecoderFollowsGoRelease(t *testing.T) {
	t.Parallel()
	v, _, _ := strings.Cut(runtime.Version(), " ")
	std := version.IsValid(v) && version.Compare(v, "go1.27") >= 0 && !strings.Contains(runtime.Version(), "nojsonv2")
	err := jsonx.Decode([]byte(`{`), new(any))
	require.Error(t, err)
	pkg := reflect.TypeOf(err).Elem().PkgPath()
	if std {
		assert.Equal(t, "encoding/json/jsontext", pkg)
		assert.Equal(t, "encoding/json/v2", jsonx.DecoderName)
	} else {
		assert.Equal(t, "github.com/go-json-experiment/json/jsontext", pkg)
		assert.Equal(t, "github.com/go-json-experiment/json", jsonx.DecoderName)
	}
}
