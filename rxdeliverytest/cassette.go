package rxdeliverytest

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/rxdelivery/rxdelivery-go/internal/fields"
)

// CassetteVersion is the version of the cassette format this SDK writes
// and replays. A cassette of another version fails to load with a message
// saying how to record it again.
const CassetteVersion = 1

// RecordEnv is the environment variable that makes [UseCassette] record
// instead of replaying: RXDELIVERY_RECORD=1 go test -run TestX ./pkg.
const RecordEnv = "RXDELIVERY_RECORD"

// rerecordHint is the sentence every load failure ends with.
const rerecordHint = "record it again: " + RecordEnv + "=1 go test -run <the test> <its package>"

// cassette is a cassette file: a version and the exchanges, oldest first.
type cassette struct {
	Version   int        `json:"version"`
	Exchanges []exchange `json:"exchanges"`
}

// exchange is one request and what answered it, redacted.
type exchange struct {
	// Operation is the SDK's name of the endpoint, "orders.Create".
	Operation string `json:"operation"`
	Method    string `json:"method"`
	// Route is the route template, "/api/v1/orders/{id}".
	Route string `json:"route"`
	// Path holds the route's placeholders' values.
	Path     map[string]string   `json:"path,omitempty"`
	Query    map[string][]string `json:"query,omitempty"`
	Request  message             `json:"request"`
	Response *message            `json:"response,omitempty"`
	// Error is the kind of transport failure when no response came.
	Error string `json:"error,omitempty"`
}

// message is a request's or a response's part of an exchange.
type message struct {
	Status  int               `json:"status,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
	Body    json.RawMessage   `json:"body,omitempty"`
	// NotJSON is the length of a body that is not JSON, which a cassette
	// does not keep.
	NotJSON int `json:"not_json_bytes,omitempty"`
}

// placeholderForm is the form of a placeholder: "<patient.last_name#1>".
var placeholderForm = regexp.MustCompile(`^<([a-z]+(?:\.[a-z0-9_]+)?)#([1-9][0-9]{0,8})>$`)

// keptHeaders are the headers a cassette keeps, with the kind of their
// values; every other header is left out.
var keptHeaders = map[string]string{
	"Authorization":         "credential",
	"Content-Type":          "media",
	"Retry-After":           "time",
	"X-Request-Id":          "id",
	"Request-Id":            "id",
	"X-Correlation-Id":      "id",
	"Ratelimit-Limit":       "count",
	"Ratelimit-Remaining":   "count",
	"Ratelimit-Reset":       "count",
	"X-Ratelimit-Limit":     "count",
	"X-Ratelimit-Remaining": "count",
	"X-Ratelimit-Reset":     "count",
}

// urlFields are the patient fields whose values are URLs that carry a
// token: their placeholders are of type url.
var urlFields = map[string]bool{"listener_url": true, "signature_url": true, "tracking_url": true, "label_pdf": true}

// redactor turns values into placeholders, the same value into the same
// placeholder everywhere in one cassette. It holds the values it replaced,
// in memory only, to keep a kept value from holding one of them.
type redactor struct {
	byValue map[string]string
	last    map[string]int
	secrets []string
	// replaced holds the keys of byValue in lower case, for clean.
	replaced []string
	// live marks the placeholders of a Replayer's redactor, which stand for
	// the live request's own values: "<live:patient.city#1>". A replay binds
	// each to the recorded placeholder in its place.
	live bool
}

func newRedactor() *redactor {
	return &redactor{byValue: map[string]string{}, last: map[string]int{}}
}

// placeholder returns v's placeholder, of type typ when v has none yet. A
// value that is a placeholder already (one a replayed answer gave and the
// code under test sent back) stays itself.
func (r *redactor) placeholder(typ, v string) string {
	if r.note(v) {
		return v
	}
	if p, ok := r.byValue[v]; ok {
		return p
	}
	r.last[typ]++
	p := "<" + typ + "#" + strconv.Itoa(r.last[typ]) + ">"
	if r.live {
		p = "<" + livePrefix + p[1:]
	}
	r.byValue[v] = p
	r.replaced = append(r.replaced, strings.ToLower(v))
	return p
}

// livePrefix begins the placeholders of a live request's own values.
const livePrefix = "live:"

// note reports whether v is a placeholder, and when it is, numbers the
// next placeholder of its type after it.
func (r *redactor) note(v string) bool {
	m := placeholderForm.FindStringSubmatch(v)
	if m == nil {
		return false
	}
	if n, err := strconv.Atoi(m[2]); err == nil && n > r.last[m[1]] {
		r.last[m[1]] = n
	}
	return true
}

// noteAll notes every placeholder in a redacted JSON body.
func (r *redactor) noteAll(body []byte) {
	for _, m := range placeholderScan.FindAll(body, -1) {
		r.note(string(m))
	}
}

var placeholderScan = regexp.MustCompile(`<[a-z]+(?:\.[a-z0-9_]+)?#[1-9][0-9]{0,8}>`)

// secret registers a credential: any value holding it is replaced.
func (r *redactor) secret(v string) {
	if len(v) >= 3 {
		r.secrets = append(r.secrets, strings.ToLower(v))
	}
}

// clean reports whether a value kept as recorded holds no credential and
// no value the cassette replaced (compared without case; a replaced value
// of fewer than five characters only when it is the whole value).
func (r *redactor) clean(v string) bool {
	lv := strings.ToLower(v)
	for _, s := range r.secrets {
		if strings.Contains(lv, s) {
			return false
		}
	}
	for _, lp := range r.replaced {
		if lp == lv || (len(lp) >= 5 && strings.Contains(lv, lp)) {
			return false
		}
	}
	return true
}

// typeName is the type of a placeholder for a value of field key of kind.
func typeName(kind fields.Kind, key string) string {
	if !fields.FieldNameForm.MatchString(key) {
		key = "field"
	}
	switch {
	case kind == fields.Patient && urlFields[key]:
		return "url." + key
	case kind == fields.Patient:
		return "patient." + key
	}
	return strings.ToLower(kind.String()) + "." + key
}

// keeps reports whether a scalar of a field of kind may stay as recorded:
// a value of the kind's form (an identifier with a digit, a documented
// enum or carrier word, a timestamp with a time of day, a decimal of at
// most 7 digits, a flag).
func keeps(kind fields.Kind, v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case bool:
		return true
	case json.Number:
		s := x.String()
		switch kind {
		case fields.Money, fields.Count:
			return fields.SmallDecimal(s)
		case fields.ID:
			return fields.IDForm.MatchString(s)
		}
		return false
	case string:
		switch kind {
		case fields.ID:
			return fields.IDForm.MatchString(x) && strings.ContainsAny(x, "0123456789")
		case fields.Enum, fields.Carrier:
			return fields.Documented(x)
		case fields.Time:
			return fields.TimestampForm.MatchString(x)
		case fields.Money, fields.Count:
			return fields.SmallDecimal(x)
		case fields.Flag:
			return x == "true" || x == "false"
		}
	}
	return false
}

// keyKept reports whether a JSON key stays as recorded: a field name of
// the table, or one written like a field name.
func keyKept(k string) bool {
	return fields.Known(k) || (fields.FieldNameForm.MatchString(k) && !fields.DigitRun(k, 3))
}

// scalar returns v, the value of the field key under parent, as the
// cassette keeps it.
func (r *redactor) scalar(parent, key string, v any) any {
	kind := fields.OfIn(parent, key)
	switch x := v.(type) {
	case nil, bool:
		return v
	case string:
		if r.note(x) {
			return x
		}
		if kind.Safe() && keeps(kind, x) && r.clean(x) {
			return x
		}
		return r.placeholder(typeName(kind, key), x)
	case json.Number:
		if kind.Safe() && keeps(kind, x) && r.clean(x.String()) {
			return x
		}
		return r.placeholder(typeName(kind, key), x.String())
	}
	return r.placeholder(typeName(kind, key), fmt.Sprint(v))
}

// value returns v, the value of the field key inside the object under the
// key parent, redacted. The fields of an object are judged under its key;
// the elements of a list under the list's own key and parent.
func (r *redactor) value(parent, key string, v any) any {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		out := make(map[string]any, len(x))
		for _, k := range keys {
			name := k
			if !fields.Known(k) && (!keyKept(k) || !r.clean(k)) {
				name = r.placeholder("key", k)
			}
			out[name] = r.value(key, k, x[k])
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i := range x {
			out[i] = r.value(parent, key, x[i])
		}
		return out
	}
	return r.scalar(parent, key, v)
}

// body returns a JSON body redacted, or nil and the body's length when
// it is not JSON.
func (r *redactor) body(data []byte) (json.RawMessage, int) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, 0
	}
	v, err := decodeJSON(data)
	if err != nil {
		return nil, len(data)
	}
	out, err := encodeJSON(r.value("", "", v))
	if err != nil {
		return nil, len(data)
	}
	return out, 0
}

// queryKey splits a query key into the parent and field it names, and
// reports whether each of its names is kept as a key:
// "delivery[address][street]" is street under address, "ids[]" is ids.
func queryKey(k string) (parent, key string, kept bool) {
	names := strings.Split(strings.TrimSuffix(strings.TrimSuffix(k, "[]"), "]"), "[")
	kept = true
	for i, n := range names {
		n = strings.TrimSuffix(n, "]")
		names[i] = n
		kept = kept && keyKept(n)
	}
	key = names[len(names)-1]
	if len(names) > 1 {
		parent = names[len(names)-2]
	}
	return parent, key, kept
}

// query returns a query redacted: every value judged by its key's field.
func (r *redactor) query(q url.Values) map[string][]string {
	if len(q) == 0 {
		return nil
	}
	keys := make([]string, 0, len(q))
	for k := range q {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make(map[string][]string, len(q))
	for _, k := range keys {
		parent, key, kept := queryKey(k)
		name := k
		if !kept || (!fields.Known(key) && !r.clean(k)) {
			name = r.placeholder("key", k)
		}
		for _, v := range q[k] {
			out[name] = append(out[name], r.scalar(parent, key, v).(string))
		}
	}
	return out
}

// pathValues returns the route's placeholders' values, redacted by the
// field each names ("id" an identifier, "rx_number" a patient's).
func (r *redactor) pathValues(names, values []string) map[string]string {
	if len(names) == 0 {
		return nil
	}
	out := make(map[string]string, len(names))
	for i, n := range names {
		out[n] = r.scalar("", n, values[i]).(string)
	}
	return out
}

// header returns the value a cassette keeps of a header of kept kind.
func (r *redactor) header(name, kind, v string) string {
	switch kind {
	case "credential":
		if scheme, cred, ok := strings.Cut(v, " "); ok && strings.EqualFold(scheme, "Basic") {
			for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding, base64.RawURLEncoding} {
				if raw, err := enc.DecodeString(cred); err == nil {
					key, secret, _ := strings.Cut(string(raw), ":")
					r.secret(key)
					r.secret(secret)
					break
				}
			}
			r.secret(cred)
		}
		r.secret(v)
		return r.placeholder("credential.authorization", v)
	case "media":
		if mt, _, err := mime.ParseMediaType(v); err == nil && fields.FieldNameForm.MatchString(strings.NewReplacer("/", "_", "+", "_", ".", "_", "-", "_").Replace(mt)) {
			return mt
		}
	case "time":
		if _, err := http.ParseTime(v); err == nil || (len(v) <= 7 && fields.AllDigits(v)) {
			return v
		}
	case "count":
		if len(v) <= 7 && fields.AllDigits(v) {
			return v
		}
	case "id":
		if fields.IDForm.MatchString(v) && r.clean(v) {
			return v
		}
	}
	return r.placeholder("header."+strings.ReplaceAll(strings.ToLower(name), "-", "_"), v)
}

// headers returns the kept headers of h, redacted.
func (r *redactor) headers(h http.Header) map[string]string {
	out := map[string]string{}
	for name, kind := range keptHeaders {
		if v := h.Get(name); v != "" {
			out[name] = r.header(name, kind, v)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

func decodeJSON(data []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if d.More() {
		return nil, errors.New("more than one JSON value")
	}
	return v, nil
}

func encodeJSON(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// loadCassette reads and decodes the cassette at path, refusing another
// version than CassetteVersion.
func loadCassette(path string) (*cassette, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("cassette %s: %w (%s)", filepath.Base(path), err, rerecordHint)
	}
	return parseCassette(filepath.Base(path), data)
}

func parseCassette(name string, data []byte) (*cassette, error) {
	var head struct {
		Version *int `json:"version"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, fmt.Errorf("cassette %s is not a cassette (not a JSON object): %s", name, rerecordHint)
	}
	switch {
	case head.Version == nil:
		return nil, fmt.Errorf("cassette %s has no version field: %s", name, rerecordHint)
	case *head.Version < CassetteVersion:
		return nil, fmt.Errorf("cassette %s is of version %d, older than this SDK's %d, which does not replay it: %s", name, *head.Version, CassetteVersion, rerecordHint)
	case *head.Version > CassetteVersion:
		return nil, fmt.Errorf("cassette %s is of version %d, newer than this SDK's %d: update the SDK, or %s", name, *head.Version, CassetteVersion, rerecordHint)
	}
	d := json.NewDecoder(bytes.NewReader(data))
	d.DisallowUnknownFields()
	var c cassette
	if err := d.Decode(&c); err != nil {
		return nil, fmt.Errorf("cassette %s does not decode as version %d: %s", name, CassetteVersion, rerecordHint)
	}
	return &c, nil
}

// writeCassette writes c to path atomically: to a file beside it, then
// renamed over it. c holds redacted values only.
func writeCassette(path string, c *cassette) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // a placeholder reads <patient.last_name#1>
	enc.SetIndent("", "  ")
	if err := enc.Encode(c); err != nil {
		return err
	}
	data := buf.Bytes()
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, werr := f.Write(data)
	serr := f.Sync()
	cerr := f.Close()
	if err := errors.Join(werr, serr, cerr); err != nil {
		_ = os.Remove(tmp)
		return err
	}
	if err := os.Chmod(tmp, 0o644); err != nil {
		_ = os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		_ = os.Remove(tmp)
		return err
	}
	return nil
}
