package rxtypes_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

func TestDecimalParseCanonical(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"0", "0.00"},
		{"-0", "0.00"},
		{"0.000", "0.00"},
		{"0e999999999999", "0.00"},
		{"5", "5.00"},
		{"5.0", "5.00"},
		{"5.00", "5.00"},
		{"5.000", "5.00"},
		{"5.5", "5.50"},
		{"-0.5", "-0.50"},
		{"12.345", "12.345"},
		{"100.10", "100.10"},
		{"1e3", "1000.00"},
		{"1E+3", "1000.00"},
		{"1e-2", "0.01"},
		{"1.25E-2", "0.0125"},
		{"-1.5e1", "-15.00"},
		{"0.000001e6", "1.00"},
		{"123e-1", "12.30"},
		{"1e99", "1" + strings.Repeat("0", 99) + ".00"},
		{"1e-100", "0." + strings.Repeat("0", 99) + "1"},
		{"9999.99", "9999.99"},
	} {
		d, err := rxtypes.NewDecimal(tc.in)
		require.NoError(t, err, tc.in)
		assert.Equal(t, tc.want, d.String(), tc.in)
		b, err := json.Marshal(d)
		require.NoError(t, err)
		assert.Equal(t, tc.want, string(b), "%s is written as a JSON number in canonical form", tc.in)
		back, err := rxtypes.NewDecimal(d.String())
		require.NoError(t, err)
		assert.Equal(t, d, back, "parse(format(%s))", tc.in)
	}
	for _, s := range []string{"", "-", "+1", " 1", "1 ", "1.", ".5", "01", "-01", "1e", "1e+", "abc", "NaN", "Inf", "1,00", "0x10", "1_000", "--1", "1.2.3"} {
		_, err := rxtypes.NewDecimal(s)
		assert.ErrorIs(t, err, rxtypes.ErrInvalidDecimal, "%q", s)
		assert.NotErrorIs(t, err, rxtypes.ErrDecimalRange, "%q", s)
	}
	for _, s := range []string{"1e100", "1e-101", "1e99999999999999999999", "-1e400", "1e-2147483648", "12345678901e90"} {
		_, err := rxtypes.NewDecimal(s)
		assert.ErrorIs(t, err, rxtypes.ErrDecimalRange, s)
		assert.ErrorIs(t, err, rxtypes.ErrInvalidDecimal, s)
	}
	assert.Panics(t, func() { rxtypes.MustDecimal("x") })
	assert.Equal(t, "5.00", rxtypes.DecimalFromCents(500).String())
	assert.Equal(t, "0.05", rxtypes.DecimalFromCents(5).String())
	assert.Equal(t, "-12.34", rxtypes.DecimalFromCents(-1234).String())
	assert.Equal(t, "42.00", rxtypes.DecimalFromInt(42).String())
	assert.Equal(t, "0.00", rxtypes.Decimal{}.String())
}

func TestDecimalEqualByValue(t *testing.T) {
	t.Parallel()
	assert.True(t, rxtypes.MustDecimal("5.0") == rxtypes.MustDecimal("5.00"), "== compares values")
	assert.True(t, rxtypes.MustDecimal("5.0").Equal(rxtypes.MustDecimal("5")))
	assert.True(t, rxtypes.MustDecimal("1e-2") == rxtypes.DecimalFromCents(1))
	assert.True(t, rxtypes.MustDecimal("-0.00") == rxtypes.Decimal{})
	assert.False(t, rxtypes.MustDecimal("5.01") == rxtypes.MustDecimal("5"))
	prices := map[rxtypes.Decimal]string{rxtypes.MustDecimal("5.00"): "five"}
	assert.Equal(t, "five", prices[rxtypes.MustDecimal("5")], "map lookup by value")
}

func TestDecimalCompare(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"16", "16.000", 0},
		{"15.99", "16", -1},
		{"1e2", "99.9", 1},
		{"-1", "0", -1},
		{"0", "-0.01", 1},
		{"-2.5", "-2.45", -1},
		{"-2.45", "-2.5", 1},
		{"0.1", "0.09", 1},
		{"10", "9.999", 1},
		{"123.4", "123.45", -1},
	} {
		assert.Equal(t, tc.want, rxtypes.MustDecimal(tc.a).Cmp(rxtypes.MustDecimal(tc.b)), "%s vs %s", tc.a, tc.b)
		assert.Equal(t, -tc.want, rxtypes.MustDecimal(tc.b).Cmp(rxtypes.MustDecimal(tc.a)), "%s vs %s", tc.b, tc.a)
	}
	assert.Equal(t, 0, rxtypes.MustDecimal("0.00").Sign())
	assert.Equal(t, 1, rxtypes.MustDecimal("0.01").Sign())
	assert.Equal(t, -1, rxtypes.MustDecimal("-2").Sign())
	assert.True(t, rxtypes.Decimal{}.IsZero())
	assert.True(t, rxtypes.MustDecimal("0.00").IsZero())
	assert.False(t, rxtypes.MustDecimal("0.001").IsZero())
	assert.InDelta(t, 5.25, rxtypes.MustDecimal("5.25").Float64(), 1e-12)
	assert.Equal(t, "5.25", rxtypes.MustDecimal("5.25").Rat().FloatString(2))
	assert.Equal(t, "1.50", rxtypes.MustDecimal("-1.5").Abs().String())
	assert.Equal(t, "-1.50", rxtypes.MustDecimal("1.5").Neg().String())
	assert.Equal(t, "0.00", rxtypes.Decimal{}.Neg().String())
}

func TestDecimalArithmetic(t *testing.T) {
	t.Parallel()
	d := rxtypes.MustDecimal
	for _, tc := range []struct {
		name string
		got  rxtypes.Decimal
		want string
	}{
		{"add", d("5.00").Add(d("12.50")), "17.50"},
		{"add exact", d("0.1").Add(d("0.2")), "0.30"},
		{"add to zero value", rxtypes.Decimal{}.Add(d("3.3")), "3.30"},
		{"add zero", d("3.3").Add(rxtypes.Decimal{}), "3.30"},
		{"add mixed scales", d("1e-3").Add(d("1e3")), "1000.001"},
		{"add to zero", d("-2.5").Add(d("2.50")), "0.00"},
		{"sub", d("10").Sub(d("0.01")), "9.99"},
		{"sub below zero", d("1").Sub(d("2.25")), "-1.25"},
		{"mul", d("2.345").Mul(d("3")), "7.035"},
		{"mul fractions", d("0.1").Mul(d("0.1")), "0.01"},
		{"mul negative", d("-1.5").Mul(d("2.5")), "-3.75"},
		{"mul zero", d("5").Mul(rxtypes.Decimal{}), "0.00"},
		{"mulint", d("4.99").MulInt(3), "14.97"},
		{"mulint negative", d("4.99").MulInt(-2), "-9.98"},
		{"mulint zero", d("4.99").MulInt(0), "0.00"},
	} {
		assert.Equal(t, tc.want, tc.got.String(), tc.name)
	}
}

func TestDecimalRound(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in     string
		places int
		mode   rxtypes.RoundingMode
		want   string
	}{
		{"2.345", 2, rxtypes.RoundHalfUp, "2.35"},
		{"-2.345", 2, rxtypes.RoundHalfUp, "-2.35"},
		{"2.344", 2, rxtypes.RoundHalfUp, "2.34"},
		{"2.345", 2, rxtypes.RoundHalfEven, "2.34"},
		{"2.355", 2, rxtypes.RoundHalfEven, "2.36"},
		{"-2.345", 2, rxtypes.RoundHalfEven, "-2.34"},
		{"2.3451", 2, rxtypes.RoundHalfEven, "2.35"},
		{"2.349", 2, rxtypes.RoundDown, "2.34"},
		{"-2.349", 2, rxtypes.RoundDown, "-2.34"},
		{"2.341", 2, rxtypes.RoundUp, "2.35"},
		{"-2.341", 2, rxtypes.RoundUp, "-2.35"},
		{"2.340", 2, rxtypes.RoundUp, "2.34"},
		{"0.004", 2, rxtypes.RoundHalfUp, "0.00"},
		{"0.005", 2, rxtypes.RoundHalfUp, "0.01"},
		{"-0.004", 2, rxtypes.RoundHalfUp, "0.00"},
		{"2.5", 0, rxtypes.RoundHalfUp, "3.00"},
		{"2.5", 0, rxtypes.RoundHalfEven, "2.00"},
		{"1234.5", -2, rxtypes.RoundHalfUp, "1200.00"},
		{"1250", -2, rxtypes.RoundHalfEven, "1200.00"},
		{"1250", -2, rxtypes.RoundHalfUp, "1300.00"},
		{"5", 2, rxtypes.RoundUp, "5.00"},
		// A mode that is none of the four rounds as RoundHalfEven.
		{"2.345", 2, rxtypes.RoundingMode(9), "2.34"},
		{"2.355", 2, rxtypes.RoundingMode(9), "2.36"},
		// Past the int64 fast path (more than 18 digits): every mode, short
		// of, at and past the halfway point.
		{"123456789012345678901234567890.125", 2, rxtypes.RoundHalfUp, "123456789012345678901234567890.13"},
		{"-123456789012345678901234567890.125", 2, rxtypes.RoundHalfUp, "-123456789012345678901234567890.13"},
		{"123456789012345678901234567890.124", 2, rxtypes.RoundHalfUp, "123456789012345678901234567890.12"},
		{"123456789012345678901234567890.125", 2, rxtypes.RoundHalfEven, "123456789012345678901234567890.12"},
		{"-123456789012345678901234567890.135", 2, rxtypes.RoundHalfEven, "-123456789012345678901234567890.14"},
		{"123456789012345678901234567890.1251", 2, rxtypes.RoundHalfEven, "123456789012345678901234567890.13"},
		{"123456789012345678901234567890.129", 2, rxtypes.RoundDown, "123456789012345678901234567890.12"},
		{"-123456789012345678901234567890.129", 2, rxtypes.RoundDown, "-123456789012345678901234567890.12"},
		{"123456789012345678901234567890.121", 2, rxtypes.RoundUp, "123456789012345678901234567890.13"},
		{"-123456789012345678901234567890.121", 2, rxtypes.RoundUp, "-123456789012345678901234567890.13"},
		{"123456789012345678901234567890.125", 2, rxtypes.RoundingMode(9), "123456789012345678901234567890.12"},
		{"123456789012345678901234567890.135", 2, rxtypes.RoundingMode(9), "123456789012345678901234567890.14"},
	} {
		got := rxtypes.MustDecimal(tc.in).Round(tc.places, tc.mode)
		assert.Equal(t, tc.want, got.String(), "%s to %d with %s", tc.in, tc.places, tc.mode)
	}
	assert.Equal(t, "RoundHalfEven", rxtypes.RoundHalfEven.String())
	assert.Equal(t, "RoundingMode(9)", rxtypes.RoundingMode(9).String())
	assert.Equal(t, "3.33", rxtypes.DecimalFromRat(big.NewRat(10, 3), 2, rxtypes.RoundHalfUp).String())
	assert.Equal(t, "-3.34", rxtypes.DecimalFromRat(big.NewRat(-10, 3), 2, rxtypes.RoundUp).String())
	assert.Equal(t, "10.00", rxtypes.DecimalFromRat(big.NewRat(14, 1), -1, rxtypes.RoundDown).String())
}

func TestDecimalCents(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]int64{"5.00": 500, "0.01": 1, "-12.3": -1230, "0": 0, "92233720368547758.07": 1<<63 - 1} {
		got, err := rxtypes.MustDecimal(in).Cents()
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
	}
	_, err := rxtypes.MustDecimal("0.005").Cents()
	assert.ErrorIs(t, err, rxtypes.ErrNotWholeCents)
	_, err = rxtypes.MustDecimal("92233720368547758.08").Cents()
	assert.ErrorIs(t, err, rxtypes.ErrCentsRange)
	c, err := rxtypes.MustDecimal("2.345").Round(2, rxtypes.RoundHalfUp).Cents()
	require.NoError(t, err)
	assert.Equal(t, int64(235), c)
}

func TestDecimalFormat(t *testing.T) {
	t.Parallel()
	d := rxtypes.MustDecimal("2.345")
	for _, tc := range []struct {
		format string
		v      rxtypes.Decimal
		want   string
	}{
		{"%v", d, "2.345"},
		{"%s", rxtypes.MustDecimal("5"), "5.00"},
		{"%v", rxtypes.Decimal{}, "0.00"},
		{"%q", rxtypes.MustDecimal("5"), `"5.00"`},
		{"%f", rxtypes.MustDecimal("5.00"), "5"},
		{"%f", d, "2.345"},
		{"%.2f", d, "2.35"},
		{"%.2f", rxtypes.MustDecimal("-2.345"), "-2.35"},
		{"%.2f", rxtypes.MustDecimal("1e-2"), "0.01"},
		{"%.0f", rxtypes.MustDecimal("2.5"), "3"},
		{"%.4f", d, "2.3450"},
		{"%8.2f", d, "    2.35"},
		{"%-8.2f|", d, "2.35    |"},
		{"%08.2f", rxtypes.MustDecimal("-2.345"), "-0002.35"},
		{"%+.2f", d, "+2.35"},
		{"% .1f", d, " 2.3"},
		{"%10v", rxtypes.MustDecimal("5"), "      5.00"},
		{"%#v", rxtypes.MustDecimal("5"), `MustDecimal("5.00")`},
		{"%d", d, "%!d(Decimal=2.345)"},
	} {
		assert.Equal(t, tc.want, fmt.Sprintf(tc.format, tc.v), tc.format)
	}
	assert.Equal(t, "5.00", rxtypes.MustDecimal("5").StringFixed(2))
	assert.Equal(t, "2.35", d.StringFixed(2))
	assert.Equal(t, "2", d.StringFixed(-1))
	assert.Equal(t, "1000", rxtypes.MustDecimal("1e3").StringFixed(0))
	assert.Equal(t, "fee 5.00", fmt.Sprint("fee ", rxtypes.MustDecimal("5")), "Sprint uses %v")
	p := rxtypes.MustDecimal("7.5")
	assert.Equal(t, "7.50", fmt.Sprintf("%v", &p), "a pointer prints its value")
}

func TestDecimalJSON(t *testing.T) {
	t.Parallel()
	var v struct {
		A rxtypes.Decimal  `json:"a"`
		B rxtypes.Decimal  `json:"b"`
		C *rxtypes.Decimal `json:"c"`
		D rxtypes.Decimal  `json:"d"`
	}
	require.NoError(t, json.Unmarshal([]byte(`{"a":5.00,"b":"12.50","c":null,"d":1e-2}`), &v))
	assert.Equal(t, "5.00", v.A.String())
	assert.Equal(t, "12.50", v.B.String())
	assert.Nil(t, v.C)
	assert.Equal(t, "0.01", v.D.String())
	out, err := json.Marshal(v)
	require.NoError(t, err)
	assert.Equal(t, `{"a":5.00,"b":12.50,"c":null,"d":0.01}`, string(out))
	for _, bad := range []string{`{"a":"five"}`, `{"a":true}`, `{"a":"1e400"}`, `{"a":1e400}`, `{"a":-1e99999999999}`, `{"a":"\"5\""}`} {
		var w struct{ A rxtypes.Decimal }
		err := json.Unmarshal([]byte(bad), &w)
		assert.Error(t, err, bad)
		assert.True(t, w.A.IsZero(), "nothing is stored on failure: %s", bad)
	}
	err = json.Unmarshal([]byte(`{"a":1e400}`), &v)
	assert.True(t, errors.Is(err, rxtypes.ErrDecimalRange), "an exponent beyond range is a decode error, not zero: %v", err)
	var d rxtypes.Decimal
	require.NoError(t, d.UnmarshalText([]byte("3.10")))
	assert.Equal(t, "3.10", d.String())
	txt, _ := d.MarshalText()
	assert.Equal(t, "3.10", string(txt))
	app, _ := d.AppendText([]byte("x="))
	assert.Equal(t, "x=3.10", string(app))
	assert.Error(t, d.UnmarshalText([]byte("x")))
}

// FuzzDecimal checks that parsing and formatting round-trip, and that every
// operation agrees with math/big.Rat on the same operands.
func FuzzDecimal(f *testing.F) {
	for _, s := range []string{"0", "5.00", "-0.5", "1e-2", "2.345", "-2.355", "1e99", "123456789012345678901234567890.123", "9.995"} {
		f.Add(s, "1.25", int64(3), 2)
	}
	// Around the int64 fast path's bounds (18 digits).
	f.Add("999999999999999999", "999999999999999999", int64(math.MaxInt64), 0)
	f.Add("-999999999999999999", "0.000000000000000001", int64(math.MinInt64), 17)
	f.Add("9999999999999999.99", "-9999999999999999.99", int64(-1), 1)
	f.Add("0.999999999999999999", "99999999999999999.9", int64(10), 9)
	f.Fuzz(func(t *testing.T, as, bs string, n int64, places int) {
		a, err := rxtypes.NewDecimal(as)
		if err != nil {
			var r big.Rat
			if _, ok := r.SetString(as); ok && isJSONNumberText(as) && !errors.Is(err, rxtypes.ErrDecimalRange) {
				t.Fatalf("%q is a JSON number but was refused: %v", as, err)
			}
			return
		}
		b, err := rxtypes.NewDecimal(bs)
		if err != nil {
			return
		}
		ra, okA := new(big.Rat).SetString(as)
		rb, okB := new(big.Rat).SetString(bs)
		if !okA || !okB {
			// big.Rat refuses an exponent it cannot hold; NewDecimal takes
			// one only on a zero coefficient ("0e2170000000000000000000000"),
			// whose value is zero whatever the exponent.
			if (!okA && !a.IsZero()) || (!okB && !b.IsZero()) {
				t.Fatalf("%q or %q: accepted an exponent beyond range on a non-zero value: %v, %v", as, bs, a, b)
			}
			return
		}
		if a.Rat().Cmp(ra) != 0 {
			t.Fatalf("parse %q gave %s", as, a)
		}
		// The decimal built from its own value at its own number of
		// fraction digits is the one parsed: the text kept is canonical.
		own := 0
		if _, frac, ok := strings.Cut(a.String(), "."); ok {
			own = len(frac)
		}
		if rxtypes.DecimalFromRat(a.Rat(), own, rxtypes.RoundDown) != a {
			t.Fatalf("parse %q kept a text that is not canonical: %q", as, a.String())
		}
		again, err := rxtypes.NewDecimal(a.String())
		if err != nil || again != a {
			t.Fatalf("parse(format(%q)) = %v, %v; want %v", as, again, err, a)
		}
		check := func(op string, got rxtypes.Decimal, want *big.Rat) {
			t.Helper()
			if got.Rat().Cmp(want) != 0 {
				t.Fatalf("%s %s, %s: got %s, want %s", op, a, b, got, want.RatString())
			}
		}
		check("add", a.Add(b), new(big.Rat).Add(ra, rb))
		check("sub", a.Sub(b), new(big.Rat).Sub(ra, rb))
		check("mul", a.Mul(b), new(big.Rat).Mul(ra, rb))
		check("mulint", a.MulInt(n), new(big.Rat).Mul(ra, new(big.Rat).SetInt64(n)))
		if got, want := a.Cmp(b), ra.Cmp(rb); got != want {
			t.Fatalf("cmp %s, %s: got %d, want %d", a, b, got, want)
		}
		if (a == b) != (ra.Cmp(rb) == 0) {
			t.Fatalf("== %s, %s disagrees with the values", a, b)
		}
		places = places%12 - 2 // -2 to 9
		for _, mode := range []rxtypes.RoundingMode{rxtypes.RoundHalfUp, rxtypes.RoundHalfEven, rxtypes.RoundDown, rxtypes.RoundUp} {
			check("round "+mode.String(), a.Round(places, mode), ratRound(ra, places, mode))
		}
		if c, err := a.Cents(); err == nil {
			check("cents", rxtypes.DecimalFromCents(c), ra)
		}
	})
}

// ratRound rounds r to places fraction digits with mode, on big.Rat alone.
func ratRound(r *big.Rat, places int, mode rxtypes.RoundingMode) *big.Rat {
	scale := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(abs(places))), nil))
	x := new(big.Rat).Set(r)
	if places >= 0 {
		x.Mul(x, scale)
	} else {
		x.Quo(x, scale)
	}
	// floor and the fraction above it
	fl := new(big.Int).Div(x.Num(), x.Denom()) // Euclidean: floor for a positive denominator
	frac := new(big.Rat).Sub(x, new(big.Rat).SetInt(fl))
	half := big.NewRat(1, 2)
	up := new(big.Int).Add(fl, big.NewInt(1))
	var q *big.Int
	switch {
	case frac.Sign() == 0:
		q = fl
	case mode == rxtypes.RoundDown:
		q = fl
		if x.Sign() < 0 {
			q = up
		}
	case mode == rxtypes.RoundUp:
		q = up
		if x.Sign() < 0 {
			q = fl
		}
	default:
		switch frac.Cmp(half) {
		case -1:
			q = fl
		case 1:
			q = up
		default:
			if mode == rxtypes.RoundHalfEven {
				q = fl
				if fl.Bit(0) == 1 {
					q = up
				}
			} else if x.Sign() < 0 {
				q = fl
			} else {
				q = up
			}
		}
	}
	out := new(big.Rat).SetInt(q)
	if places >= 0 {
		return out.Quo(out, scale)
	}
	return out.Mul(out, scale)
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// isJSONNumberText is an independent reading of JSON's number grammar.
func isJSONNumberText(s string) bool {
	var v any
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return false
	}
	_, ok := v.(json.Number)
	return ok && strings.TrimSpace(s) == s && !dec.More()
}

func BenchmarkNewDecimal(b *testing.B) {
	for _, s := range []string{"5.00", "12.5", "1e-2"} {
		b.Run(s, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				if _, err := rxtypes.NewDecimal(s); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkDecimalArithmetic(b *testing.B) {
	copay, fee := rxtypes.MustDecimal("4.99"), rxtypes.MustDecimal("5.00")
	b.ReportAllocs()
	for range b.N {
		total := copay.MulInt(3).Add(fee).Round(2, rxtypes.RoundHalfUp)
		if _, err := total.Cents(); err != nil {
			b.Fatal(err)
		}
	}
}
