package validate

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

type level string

func TestCollectorRecordsEveryProblemWithItsPath(t *testing.T) {
	t.Parallel()
	var c Collector
	assert.NoError(t, c.Err())
	c.Required("a", " ")
	c.RequiredMaxLen("b", "toolong", 3)
	c.RequiredMaxLen("b2", "", 3)
	c.MaxLen("c", "ééé", 3) // runes, not bytes: passes
	OneOf(&c, "d", level("x"), true, "ondemand", "shipping")
	OneOf(&c, "e", level(""), true, "ondemand")
	OneOf(&c, "f", level(""), false, "ondemand")
	OneOf(&c, "g", level("ondemand"), true, "ondemand")
	c.Positive("h", rxtypes.Decimal{})
	c.Positive("i", rxtypes.MustDecimal("-0.01"))
	c.Positive("j", rxtypes.MustDecimal("0.01"))
	c.NonNegative("k", ptr(rxtypes.MustDecimal("-1")))
	c.NonNegative("l", nil)
	c.NonNegative("l2", ptr(rxtypes.MustDecimal("0")))
	assert.False(t, c.RequiredDecimal("m", nil))
	assert.True(t, c.RequiredDecimal("n", ptr(rxtypes.MustDecimal("1"))))
	assert.True(t, c.RequiredDecimal("n2", ptr(rxtypes.MustDecimal("0.00"))), "zero is a value")
	assert.False(t, c.RequiredDate("o", rxtypes.Date{}))
	assert.False(t, c.RequiredDate("p", rxtypes.Date{Year: 2023, Month: time.February, Day: 29}))
	assert.True(t, c.RequiredDate("q", rxtypes.Date{Year: 2024, Month: time.February, Day: 29}))
	c.AddErr("r", nil)
	c.AddErr("s", errors.New("is odd"))
	c.Merge("t", nil)
	c.Merge("u", errors.New("plain"))
	c.Merge("v", &rxtypes.ValidationError{Problems: []rxtypes.Problem{{Path: "w", Message: "m1"}, {Path: "[0].x", Message: "m2"}, {Message: "m3"}}})
	c.Add("", "whole value")

	err := c.Err()
	var ve *rxtypes.ValidationError
	require.ErrorAs(t, err, &ve)
	assert.ErrorIs(t, err, rxtypes.ErrInvalidParams)
	got := map[string]string{}
	for _, p := range ve.Problems {
		got[p.Path] = p.Message
	}
	assert.Equal(t, map[string]string{
		"a": "is required", "b": "must be at most 3 characters", "b2": "is required",
		"d": "must be one of ondemand, shipping", "e": "is required",
		"h": "is required and must be greater than 0", "i": "is required and must be greater than 0", "k": "must not be negative",
		"m": "is required", "o": "is required", "p": "must be a valid date",
		"s": "is odd", "u": "plain", "v.w": "m1", "v[0].x": "m2", "v": "m3", "": "whole value",
	}, got)
	assert.Equal(t, c.Len(), len(ve.Problems))
	assert.True(t, ve.Has("v.w"))
	assert.False(t, ve.Has("zzz"))
	assert.Contains(t, err.Error(), "rxdelivery: invalid params: a: is required; b: must be at most 3 characters")
	assert.Equal(t, "whole value", rxtypes.Problem{Message: "whole value"}.String())
}

// TestDateOfBirth checks the three problems of a date of birth, in order:
// missing, not a real day, after today where a day starts first (so a
// birth today anywhere passes).
func TestDateOfBirth(t *testing.T) {
	t.Parallel()
	today := time.Now().In(latest)
	var c Collector
	c.DateOfBirth("zero", rxtypes.Date{})
	c.DateOfBirth("unreal", rxtypes.Date{Year: 2023, Month: time.February, Day: 29})
	c.DateOfBirth("tomorrow", rxtypes.DateOf(today.AddDate(0, 0, 1)))
	c.DateOfBirth("today", rxtypes.DateOf(today))
	c.DateOfBirth("past", rxtypes.Date{Year: 1980, Month: time.February, Day: 29})
	var ve *rxtypes.ValidationError
	require.ErrorAs(t, c.Err(), &ve)
	assert.Equal(t, []rxtypes.Problem{
		{Path: "zero", Message: "is required"},
		{Path: "unreal", Message: "must be a valid date"},
		{Path: "tomorrow", Message: "must not be in the future"},
	}, ve.Problems)
}

func TestPathHelpers(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "a.b", Join("a", "b"))
	assert.Equal(t, "b", Join("", "b"))
	assert.Equal(t, "a", Join("a", ""))
	assert.Equal(t, "a[2]", Join("a", "[2]"))
	assert.Equal(t, "payers[3]", Index("payers", 3))
	assert.True(t, Digits("0123", 4))
	assert.False(t, Digits("01a3", 4))
	assert.False(t, Digits("012", 4))
	assert.Equal(t, "rxdelivery: invalid params: x: y", fmt.Sprint(&rxtypes.ValidationError{Problems: []rxtypes.Problem{{Path: "x", Message: "y"}}}))
}

func ptr[T any](v T) *T { return &v }

func TestCollectorLocation(t *testing.T) {
	t.Parallel()
	var c Collector
	c.Push("prescriptions")
	c.PushIndex(1)
	c.Push("payers")
	c.PushIndex(0)
	c.Add("bin", "is required")
	c.Add("", "is odd")
	c.Pop()
	c.Add("", "needs one")
	c.Pop()
	c.Push("prescriber")
	c.Add("npi", "is required")
	c.Pop()
	c.Pop()
	c.Pop()
	c.Pop() // one too many is harmless
	c.Add("top", "is required")
	for i := 0; i < 12; i++ { // deeper than the inline storage
		c.Push("a")
	}
	c.Add("b", "deep")
	var ve *rxtypes.ValidationError
	require.ErrorAs(t, c.Err(), &ve)
	var paths []string
	for _, p := range ve.Problems {
		paths = append(paths, p.Path)
	}
	assert.Equal(t, []string{"prescriptions[1].payers[0].bin", "prescriptions[1].payers[0]", "prescriptions[1].payers",
		"prescriptions[1].prescriber.npi", "top", "a.a.a.a.a.a.a.a.a.a.a.a.b"}, paths)
}

func TestCollectorBuildsNoPathWhenValid(t *testing.T) {
	allocs := testing.AllocsPerRun(100, func() {
		var c Collector
		c.Push("recipient")
		c.Push("address")
		c.RequiredMaxLen("street", "42 Elm Avenue", 255)
		c.ZIP("zipcode", "43210")
		c.State("state", "OH")
		c.Pop()
		c.Phone("mobile_phone_number", "6145550100")
		c.Pop()
		if c.Err() != nil {
			panic("valid")
		}
	})
	assert.LessOrEqual(t, allocs, 1.0, "at most the collector itself")
}

func TestEachChecksEveryElementAtItsIndex(t *testing.T) {
	t.Parallel()
	var c Collector
	c.Push("order")
	Each(&c, "items", []string{"ok", "", "ok", ""}, func(s *string, c *Collector) {
		c.Required("name", *s)
	})
	Each(&c, "none", []string(nil), func(*string, *Collector) { t.Fatal("called for no element") })
	c.Add("after", "is required")
	assert.Equal(t, []rxtypes.Problem{
		{Path: "order.items[1].name", Message: "is required"},
		{Path: "order.items[3].name", Message: "is required"},
		{Path: "order.after", Message: "is required"},
	}, c.Err().(*rxtypes.ValidationError).Problems, "Each leaves the collector where it found it")
}

// TestRequiredAndMaxLenAgreeWithTheirDefinitions: Required refuses exactly
// what strings.TrimSpace empties, and MaxLen counts characters, whatever
// shortcut either takes; both refuse what the text rule refuses.
func TestRequiredAndMaxLenAgreeWithTheirDefinitions(t *testing.T) {
	t.Parallel()
	for _, s := range []string{
		"", " ", "\t\n\v\f\r ", "\u0085", "\u00a0", "\u3000 \u2028", "a", " a", "a ", "\x7f", "\xff", "\u00a0x", "é",
	} {
		// Both apply the text rule too (refusedText, in text_test.go).
		var c Collector
		got := c.Required("p", s)
		assert.Equal(t, strings.TrimSpace(s) != "" && !refusedText(s, false), got, "%q", s)
		for n := 0; n <= 8; n++ {
			var m Collector
			m.MaxLen("p", s, n)
			assert.Equal(t, refusedText(s, false) || utf8.RuneCountInString(s) > n, m.Err() != nil, "%q at most %d", s, n)
		}
	}
}
