package main

import (
	"bytes"
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"time"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
	"go.yaml.in/yaml/v3"
)

// maxInputBytes bounds a params file: the largest create is a few
// kilobytes.
const maxInputBytes = 4 << 20

// scalar is one leaf of a params file, as written: its text and what kind
// of value the file made it. plain marks a YAML scalar written without
// quotes, whose text is taken as is for a string field (a ZIP code, an NPI
// or an NDC with its leading zeros).
type scalar struct {
	text  string
	kind  scalarKind
	plain bool
}

// scalarKind is the JSON kind of a scalar.
type scalarKind int

const (
	kindNull scalarKind = iota
	kindString
	kindNumber
	kindBool
)

// readParams reads the params file at path ("-" is standard input), JSON or
// YAML, into v (a pointer to a params struct), then runs validate. Every
// problem, of the file's shape and of the params' rules, is returned in one
// *rxdelivery.ValidationError, each with its JSON path; no problem quotes a
// value of the file, which holds patient data.
func readParams(path string, stdin io.Reader, v any, validate func() error) error {
	data, err := readInput(path, stdin)
	if err != nil {
		return err
	}
	tree, dups, err := parseTree(path, data)
	if err != nil {
		return err
	}
	return checkInto(tree, v, validate, dups...)
}

// checkInto decodes a parsed tree into v, then runs validate, and returns
// every problem of both in one *rxdelivery.ValidationError, after the
// problems of the file found by its parser (first, its keys given twice).
func checkInto(tree any, v any, validate func() error, first ...rxtypes.Problem) error {
	shape := append([]rxtypes.Problem(nil), first...)
	out := walk("", tree, reflect.TypeOf(v).Elem(), &shape)
	body, err := json.Marshal(out)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(body, v); err != nil {
		// walk let through only what decodes, so this is a bug, not the
		// file: say so without the decoder's words, which may quote it.
		return errUndecodable
	}
	problems := append([]rxtypes.Problem(nil), shape...)
	if err := validate(); err != nil {
		var ve *rxdelivery.ValidationError
		if !errors.As(err, &ve) {
			return err
		}
		for _, p := range ve.Problems {
			if !coveredBy(p.Path, shape) {
				problems = append(problems, p)
			}
		}
	}
	if len(problems) > 0 {
		return &rxdelivery.ValidationError{Problems: problems}
	}
	return nil
}

// errUndecodable is a params tree that walk passed and encoding/json then
// refused: a bug of walk, which FuzzReadParams looks for.
var errUndecodable = errors.New("the input could not be decoded")

// coveredBy reports whether a validation problem at path concerns a field
// that the file gave in a wrong shape (and so was left empty): the file's
// problem already says what is wrong there.
func coveredBy(path string, shape []rxtypes.Problem) bool {
	for _, s := range shape {
		if s.Message == msgUnknownField || strings.HasPrefix(s.Message, msgDuplicateKey) {
			continue
		}
		if path == s.Path || strings.HasPrefix(path, s.Path+".") || strings.HasPrefix(path, s.Path+"[") {
			return true
		}
	}
	return false
}

// readInput reads a file, or standard input for "-".
func readInput(path string, stdin io.Reader) ([]byte, error) {
	var r io.Reader
	if path == "-" {
		r = stdin
	} else {
		f, err := os.Open(path)
		if err != nil {
			return nil, &inputError{err: err}
		}
		defer f.Close()
		r = f
	}
	data, err := io.ReadAll(io.LimitReader(r, maxInputBytes+1))
	if err != nil {
		return nil, &inputError{err: fmt.Errorf("%s: %w", displayName(path), err)}
	}
	if len(data) > maxInputBytes {
		return nil, &inputError{err: fmt.Errorf("%s: larger than %d bytes", displayName(path), maxInputBytes)}
	}
	return data, nil
}

// inputError is a params file that cannot be read or parsed: a validation
// failure of the command's input (exit code 3).
type inputError struct{ err error }

func (e *inputError) Error() string { return e.err.Error() }
func (e *inputError) Unwrap() error { return e.err }

func displayName(path string) string {
	if path == "-" {
		return "standard input"
	}
	return path
}

// parseTree parses JSON (a .json file, or text starting with '{') or YAML
// into maps, slices and scalars. A key given twice in one object, at any
// depth, is a problem of the file (JSON and YAML leave it to the parser,
// whose choice of one of them would be sent without a word): each is
// returned under its path, with the lines of both; the tree keeps the last.
func parseTree(path string, data []byte) (any, []rxtypes.Problem, error) {
	ext := strings.ToLower(filepath.Ext(path))
	trimmed := bytes.TrimLeft(data, " \t\r\n")
	if len(trimmed) == 0 {
		return nil, nil, &inputError{err: fmt.Errorf("%s is empty", displayName(path))}
	}
	if ext == ".json" || (ext != ".yaml" && ext != ".yml" && trimmed[0] == '{') {
		return parseJSON(path, data)
	}
	return parseYAML(path, data)
}

func parseJSON(path string, data []byte) (any, []rxtypes.Problem, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	if err == nil {
		if _, err2 := dec.Token(); err2 != io.EOF {
			off := dec.InputOffset()
			line, col := position(data, off)
			return nil, nil, &inputError{err: fmt.Errorf("%s:%d:%d: not valid JSON: more after the object", displayName(path), line, col)}
		}
		return fromJSON(v), jsonDuplicates(data), nil
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		line, col := position(data, se.Offset)
		// The decoder's own words quote the offending character: give the
		// position alone.
		return nil, nil, &inputError{err: fmt.Errorf("%s:%d:%d: not valid JSON", displayName(path), line, col)}
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return nil, nil, &inputError{err: fmt.Errorf("%s: not valid JSON: it ends early", displayName(path))}
	}
	return nil, nil, &inputError{err: fmt.Errorf("%s: not valid JSON", displayName(path))}
}

// msgDuplicateKey begins the problem of a key given twice in one object.
const msgDuplicateKey = "given twice"

// duplicateKey is the problem of the key at path given on line first and
// again on line again.
func duplicateKey(path string, first, again int) rxtypes.Problem {
	return rxtypes.Problem{Path: path, Message: fmt.Sprintf("%s in one object (lines %d and %d): give it once", msgDuplicateKey, first, again)}
}

// jsonDuplicates returns a problem for each key given twice in one object
// of data, valid JSON, at any depth.
func jsonDuplicates(data []byte) []rxtypes.Problem {
	// One frame per open object or array: the path to it, and for an
	// object the line of each key seen and whether a key is next; for an
	// array the index of the next element.
	type frame struct {
		path   string
		object bool
		keys   map[string]int
		key    bool
		index  int
		member string // the path of the member being read
	}
	var problems []rxtypes.Problem
	var stack []*frame
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	// valuePath is where the next value goes, and moves its parent on.
	valuePath := func() string {
		if len(stack) == 0 {
			return ""
		}
		f := stack[len(stack)-1]
		if f.object {
			f.key = true
			return f.member
		}
		p := fmt.Sprintf("%s[%d]", f.path, f.index)
		f.index++
		return p
	}
	for {
		tok, err := dec.Token()
		if err != nil {
			return problems
		}
		if len(stack) > 0 {
			if f := stack[len(stack)-1]; f.object && f.key {
				if k, ok := tok.(string); ok {
					line, _ := position(data, dec.InputOffset())
					f.member = join(f.path, k)
					if first, seen := f.keys[k]; seen {
						problems = append(problems, duplicateKey(f.member, first, line))
					} else {
						f.keys[k] = line
					}
					f.key = false
					continue
				}
			}
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{path: valuePath(), object: true, keys: map[string]int{}, key: true})
		case json.Delim('['):
			stack = append(stack, &frame{path: valuePath()})
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
		default:
			valuePath()
		}
	}
}

// position returns the line and column of a byte offset, from 1.
func position(data []byte, off int64) (line, col int) {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	before := data[:off]
	line = bytes.Count(before, []byte("\n")) + 1
	col = int(off) - (bytes.LastIndexByte(before, '\n') + 1)
	if col < 1 {
		col = 1
	}
	return line, col
}

func fromJSON(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			v[k] = fromJSON(e)
		}
		return v
	case []any:
		for i, e := range v {
			v[i] = fromJSON(e)
		}
		return v
	case string:
		return scalar{text: v, kind: kindString}
	case json.Number:
		return scalar{text: string(v), kind: kindNumber}
	case bool:
		return scalar{text: strconv.FormatBool(v), kind: kindBool}
	}
	return scalar{kind: kindNull}
}

func parseYAML(path string, data []byte) (any, []rxtypes.Problem, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil && err != io.EOF {
		return nil, nil, &inputError{err: fmt.Errorf("%s: not valid YAML: %s", displayName(path), yamlMessage(err))}
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return nil, nil, &inputError{err: fmt.Errorf("%s is empty", displayName(path))}
	}
	// A second document (after "---") would be left unread without a
	// word, as JSON's text after the object is: refuse it.
	var next yaml.Node
	switch err := dec.Decode(&next); {
	case err == nil:
		return nil, nil, &inputError{err: fmt.Errorf("%s: line %d: a second YAML document: give one", displayName(path), next.Line)}
	case err != io.EOF:
		return nil, nil, &inputError{err: fmt.Errorf("%s: not valid YAML: %s", displayName(path), yamlMessage(err))}
	}
	y := yamlTree{budget: maxYAMLValues}
	v, err := y.from(doc.Content[0], "", 0)
	if err != nil {
		return nil, nil, &inputError{err: fmt.Errorf("%s: %w", displayName(path), err)}
	}
	return v, y.dups, nil
}

// yamlMessage keeps the line number of a YAML syntax error and drops the
// rest of the parser's words, which may quote the file.
func yamlMessage(err error) string {
	msg := err.Error()
	if i := strings.Index(msg, "line "); i >= 0 {
		rest := msg[i+len("line "):]
		n := 0
		for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
			n++
		}
		if n > 0 {
			return "at line " + rest[:n]
		}
	}
	return "syntax error"
}

// maxYAMLValues bounds the values a YAML file expands to, aliases
// included, so that a file of nested aliases cannot make the command
// build an exponential tree.
const maxYAMLValues = 100000

// yamlTree builds the tree of a YAML document: the values it may still
// expand to (aliases included), and the keys it found given twice.
type yamlTree struct {
	budget int
	dups   []rxtypes.Problem
}

// from returns the tree of n, found at path.
func (y *yamlTree) from(n *yaml.Node, path string, depth int) (any, error) {
	if depth > 64 {
		return nil, errors.New("nested too deeply")
	}
	if y.budget--; y.budget < 0 {
		return nil, errors.New("too many values (aliases expanded)")
	}
	switch n.Kind {
	case yaml.AliasNode:
		return y.from(n.Alias, path, depth+1)
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return scalar{kind: kindNull}, nil
		}
		return y.from(n.Content[0], path, depth+1)
	case yaml.MappingNode:
		m := make(map[string]any, len(n.Content)/2)
		lines := make(map[string]int, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind != yaml.ScalarNode {
				return nil, fmt.Errorf("line %d: a key must be a name", k.Line)
			}
			at := join(path, k.Value)
			if first, seen := lines[k.Value]; seen {
				y.dups = append(y.dups, duplicateKey(at, first, k.Line))
			} else {
				lines[k.Value] = k.Line
			}
			v, err := y.from(n.Content[i+1], at, depth+1)
			if err != nil {
				return nil, err
			}
			m[k.Value] = v
		}
		return m, nil
	case yaml.SequenceNode:
		s := make([]any, len(n.Content))
		for i, c := range n.Content {
			v, err := y.from(c, fmt.Sprintf("%s[%d]", path, i), depth+1)
			if err != nil {
				return nil, err
			}
			s[i] = v
		}
		return s, nil
	}
	plain := n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) == 0
	switch n.ShortTag() {
	case "!!null":
		return scalar{kind: kindNull, plain: plain}, nil
	case "!!bool":
		var b bool
		if err := n.Decode(&b); err != nil {
			return scalar{text: n.Value, kind: kindString, plain: plain}, nil
		}
		return scalar{text: strconv.FormatBool(b), kind: kindBool, plain: plain}, nil
	case "!!int", "!!float":
		return scalar{text: n.Value, kind: kindNumber, plain: plain}, nil
	}
	return scalar{text: n.Value, kind: kindString, plain: plain}, nil
}

// Messages of the file's shape problems. None quotes the value.
const (
	msgUnknownField = "unknown field"
	msgWantObject   = "want an object"
	msgWantList     = "want a list"
	msgWantString   = "want a string (in quotes)"
	msgWantInt      = "want a whole number"
	msgWantBool     = "want true or false"
	msgWantNumber   = "want a number"
)

var (
	unmarshalerType = reflect.TypeFor[json.Unmarshaler]()
	textType        = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// leafMessages says what a value of a type with its own decoding wants.
var leafMessages = map[reflect.Type]string{
	reflect.TypeFor[rxtypes.Decimal](): "want a decimal number, such as 5.00",
	reflect.TypeFor[rxtypes.Date]():    "want a date written YYYY-MM-DD",
	reflect.TypeFor[time.Time]():       "want a date and time in RFC 3339 form, such as 2026-03-02T09:00:00-05:00",
	reflect.TypeFor[rxtypes.Time]():    "want a date and time in RFC 3339 form",
}

// walk checks v against the Go type t and returns what of it decodes,
// as JSON values; every part that does not is left out and recorded in
// problems under its path.
func walk(path string, v any, t reflect.Type, problems *[]rxtypes.Problem) any {
	if s, ok := v.(scalar); ok && s.kind == kindNull {
		return nil
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if reflect.PointerTo(t).Implements(unmarshalerType) || reflect.PointerTo(t).Implements(textType) {
		return leaf(path, v, t, problems)
	}
	switch t.Kind() {
	case reflect.Struct:
		m, ok := v.(map[string]any)
		if !ok {
			addProblem(problems, path, msgWantObject)
			return nil
		}
		out := make(map[string]any, len(m))
		known := make(map[string]bool, t.NumField())
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			name, ok := jsonName(f)
			if !ok {
				continue
			}
			known[name] = true
			if e, present := m[name]; present {
				if d := walk(join(path, name), e, f.Type, problems); d != nil {
					out[name] = d
				}
			}
		}
		var unknown []string
		for k := range m {
			if !known[k] {
				unknown = append(unknown, k)
			}
		}
		sort.Strings(unknown)
		for _, k := range unknown {
			addProblem(problems, join(path, k), msgUnknownField)
		}
		return out
	case reflect.Slice:
		s, ok := v.([]any)
		if !ok {
			addProblem(problems, path, msgWantList)
			return nil
		}
		out := make([]any, 0, len(s))
		for i, e := range s {
			d := walk(fmt.Sprintf("%s[%d]", path, i), e, t.Elem(), problems)
			if d == nil {
				// Keep the index of every later element: decode a zero
				// value here, validation then points at the same place.
				d = map[string]any{}
				if t.Elem().Kind() != reflect.Struct {
					d = json.RawMessage("null")
				}
			}
			out = append(out, d)
		}
		return out
	case reflect.Map:
		m, ok := v.(map[string]any)
		if !ok {
			addProblem(problems, path, msgWantObject)
			return nil
		}
		out := make(map[string]any, len(m))
		for k, e := range m {
			if d := walk(join(path, k), e, t.Elem(), problems); d != nil {
				out[k] = d
			}
		}
		return out
	}
	return leaf(path, v, t, problems)
}

// leaf checks one scalar against a type.
func leaf(path string, v any, t reflect.Type, problems *[]rxtypes.Problem) any {
	s, ok := v.(scalar)
	if !ok {
		addProblem(problems, path, wantFor(t))
		return nil
	}
	var raw json.RawMessage
	switch {
	case t.Kind() == reflect.String && !custom(t):
		if s.kind != kindString && !s.plain {
			addProblem(problems, path, msgWantString)
			return nil
		}
		raw, _ = json.Marshal(s.text)
		return raw
	case s.kind == kindString && (s.plain || custom(t)):
		raw, _ = json.Marshal(s.text)
	case s.kind == kindString:
		addProblem(problems, path, wantFor(t))
		return nil
	default:
		raw = json.RawMessage(s.text)
	}
	if custom(t) && s.kind == kindNumber && !json.Valid(raw) {
		raw, _ = json.Marshal(s.text)
	}
	if !json.Valid(raw) {
		addProblem(problems, path, wantFor(t))
		return nil
	}
	if err := json.Unmarshal(raw, reflect.New(t).Interface()); err != nil {
		addProblem(problems, path, wantFor(t))
		return nil
	}
	return raw
}

// custom reports whether t decodes itself.
func custom(t reflect.Type) bool {
	return reflect.PointerTo(t).Implements(unmarshalerType) || reflect.PointerTo(t).Implements(textType)
}

func wantFor(t reflect.Type) string {
	if m, ok := leafMessages[t]; ok {
		return m
	}
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		return msgWantObject
	case reflect.Slice:
		return msgWantList
	case reflect.Bool:
		return msgWantBool
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return msgWantInt
	case reflect.Float32, reflect.Float64:
		return msgWantNumber
	case reflect.String:
		return msgWantString
	}
	return "not a valid value"
}

func addProblem(problems *[]rxtypes.Problem, path, msg string) {
	*problems = append(*problems, rxtypes.Problem{Path: path, Message: msg})
}

// jsonName returns the JSON name of a struct field, false for a field JSON
// leaves out.
func jsonName(f reflect.StructField) (string, bool) {
	if !f.IsExported() {
		return "", false
	}
	tag := f.Tag.Get("json")
	if tag == "-" {
		return "", false
	}
	name, _, _ := strings.Cut(tag, ",")
	if name == "" {
		name = f.Name
	}
	return name, true
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}
