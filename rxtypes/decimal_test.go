package rxtypes

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
		d, err := NewDecimal(tc.in)
		require.NoError(t, err, tc.in)
		assert.Equal(t, tc.want, d.String(), tc.in)
		b, err := json.Marshal(d)
		require.NoError(t, err)
		assert.Equal(t, tc.want, string(b), "%s is written as a JSON number in canonical form", tc.in)
		back, err := NewDecimal(d.String())
		require.NoError(t, err)
		assert.Equal(t, d, back, "parse(format(%s))", tc.in)
	}
	for _, s := range []string{"", "-", "+1", " 1", "1 ", "1.", ".5", "01", "-01", "1e", "1e+", "abc", "NaN", "Inf", "1,00", "0x10", "1_000", "--1", "1.2.3"} {
		_, err := NewDecimal(s)
		assert.ErrorIs(t, err, ErrInvalidDecimal, "%q", s)
		assert.NotErrorIs(t, err, ErrDecimalRange, "%q", s)
	}
	for _, s := range []string{"1e100", "1e-101", "1e99999999999999999999", "-1e400", "1e-2147483648", "12345678901e90"} {
		_, err := NewDecimal(s)
		assert.ErrorIs(t, err, ErrDecimalRange, s)
		assert.ErrorIs(t, err, ErrInvalidDecimal, s)
	}
	assert.Panics(t, func() { MustDecimal("x") })
	assert.Equal(t, "5.00", DecimalFromCents(500).String())
	assert.Equal(t, "0.05", DecimalFromCents(5).String())
	assert.Equal(t, "-12.34", DecimalFromCents(-1234).String())
	assert.Equal(t, "42.00", DecimalFromInt(42).String())
	assert.Equal(t, "0.00", Decimal{}.String())
}

func TestDecimalEqualByValue(t *testing.T) {
	t.Parallel()
	assert.True(t, MustDecimal("5.0") == MustDecimal("5.00"), "== compares values")
	assert.True(t, MustDecimal("5.0").Equal(MustDecimal("5")))
	assert.True(t, MustDecimal("1e-2") == DecimalFromCents(1))
	assert.True(t, MustDecimal("-0.00") == Decimal{})
	assert.False(t, MustDecimal("5.01") == MustDecimal("5"))
	prices := map[Decimal]string{MustDecimal("5.00"): "five"}
	assert.Equal(t, "five", prices[MustDecimal("5")], "map lookup by value")
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
		assert.Equal(t, tc.want, MustDecimal(tc.a).Cmp(MustDecimal(tc.b)), "%s vs %s", tc.a, tc.b)
		assert.Equal(t, -tc.want, MustDecimal(tc.b).Cmp(MustDecimal(tc.a)), "%s vs %s", tc.b, tc.a)
	}
	assert.Equal(t, 0, MustDecimal("0.00").Sign())
	assert.Equal(t, 1, MustDecimal("0.01").Sign())
	assert.Equal(t, -1, MustDecimal("-2").Sign())
	assert.True(t, Decimal{}.IsZero())
	assert.True(t, MustDecimal("0.00").IsZero())
	assert.False(t, MustDecimal("0.001").IsZero())
	assert.InDelta(t, 5.25, MustDecimal("5.25").Float64(), 1e-12)
	assert.Equal(t, "5.25", MustDecimal("5.25").Rat().FloatString(2))
	assert.Equal(t, "1.50", MustDecimal("-1.5").Abs().String())
	assert.Equal(t, "-1.50", MustDecimal("1.5").Neg().String())
	assert.Equal(t, "0.00", Decimal{}.Neg().String())
}

func TestDecimalArithmetic(t *testing.T) {
	t.Parallel()
	d := MustDecimal
	for _, tc := range []struct {
		name string
		got  Decimal
		want string
	}{
		{"add", d("5.00").Add(d("12.50")), "17.50"},
		{"add exact", d("0.1").Add(d("0.2")), "0.30"},
		{"add to zero value", Decimal{}.Add(d("3.3")), "3.30"},
		{"add zero", d("3.3").Add(Decimal{}), "3.30"},
		{"add mixed scales", d("1e-3").Add(d("1e3")), "1000.001"},
		{"add to zero", d("-2.5").Add(d("2.50")), "0.00"},
		{"sub", d("10").Sub(d("0.01")), "9.99"},
		{"sub below zero", d("1").Sub(d("2.25")), "-1.25"},
		{"mul", d("2.345").Mul(d("3")), "7.035"},
		{"mul fractions", d("0.1").Mul(d("0.1")), "0.01"},
		{"mul negative", d("-1.5").Mul(d("2.5")), "-3.75"},
		{"mul zero", d("5").Mul(Decimal{}), "0.00"},
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
		mode   RoundingMode
		want   string
	}{
		{"2.345", 2, RoundHalfUp, "2.35"},
		{"-2.345", 2, RoundHalfUp, "-2.35"},
		{"2.344", 2, RoundHalfUp, "2.34"},
		{"2.345", 2, RoundHalfEven, "2.34"},
		{"2.355", 2, RoundHalfEven, "2.36"},
		{"-2.345", 2, RoundHalfEven, "-2.34"},
		{"2.3451", 2, RoundHalfEven, "2.35"},
		{"2.349", 2, RoundDown, "2.34"},
		{"-2.349", 2, RoundDown, "-2.34"},
		{"2.341", 2, RoundUp, "2.35"},
		{"-2.341", 2, RoundUp, "-2.35"},
		{"2.340", 2, RoundUp, "2.34"},
		{"0.004", 2, RoundHalfUp, "0.00"},
		{"0.005", 2, RoundHalfUp, "0.01"},
		{"-0.004", 2, RoundHalfUp, "0.00"},
		{"2.5", 0, RoundHalfUp, "3.00"},
		{"2.5", 0, RoundHalfEven, "2.00"},
		{"1234.5", -2, RoundHalfUp, "1200.00"},
		{"1250", -2, RoundHalfEven, "1200.00"},
		{"1250", -2, RoundHalfUp, "1300.00"},
		{"5", 2, RoundUp, "5.00"},
		// A mode that is none of the four rounds as RoundHalfEven.
		{"2.345", 2, RoundingMode(9), "2.34"},
		{"2.355", 2, RoundingMode(9), "2.36"},
		// Past the int64 fast path (more than 18 digits): every mode, short
		// of, at and past the halfway point.
		{"123456789012345678901234567890.125", 2, RoundHalfUp, "123456789012345678901234567890.13"},
		{"-123456789012345678901234567890.125", 2, RoundHalfUp, "-123456789012345678901234567890.13"},
		{"123456789012345678901234567890.124", 2, RoundHalfUp, "123456789012345678901234567890.12"},
		{"123456789012345678901234567890.125", 2, RoundHalfEven, "123456789012345678901234567890.12"},
		{"-123456789012345678901234567890.135", 2, RoundHalfEven, "-123456789012345678901234567890.14"},
		{"123456789012345678901234567890.1251", 2, RoundHalfEven, "123456789012345678901234567890.13"},
		{"123456789012345678901234567890.129", 2, RoundDown, "123456789012345678901234567890.12"},
		{"-123456789012345678901234567890.129", 2, RoundDown, "-123456789012345678901234567890.12"},
		{"123456789012345678901234567890.121", 2, RoundUp, "123456789012345678901234567890.13"},
		{"-123456789012345678901234567890.121", 2, RoundUp, "-123456789012345678901234567890.13"},
		{"123456789012345678901234567890.125", 2, RoundingMode(9), "123456789012345678901234567890.12"},
		{"123456789012345678901234567890.135", 2, RoundingMode(9), "123456789012345678901234567890.14"},
	} {
		got := MustDecimal(tc.in).Round(tc.places, tc.mode)
		assert.Equal(t, tc.want, got.String(), "%s to %d with %s", tc.in, tc.places, tc.mode)
	}
	assert.Equal(t, "RoundHalfEven", RoundHalfEven.String())
	assert.Equal(t, "RoundingMode(9)", RoundingMode(9).String())
	assert.Equal(t, "3.33", DecimalFromRat(big.NewRat(10, 3), 2, RoundHalfUp).String())
	assert.Equal(t, "-3.34", DecimalFromRat(big.NewRat(-10, 3), 2, RoundUp).String())
	assert.Equal(t, "10.00", DecimalFromRat(big.NewRat(14, 1), -1, RoundDown).String())
}

func TestDecimalCents(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]int64{"5.00": 500, "0.01": 1, "-12.3": -1230, "0": 0, "92233720368547758.07": 1<<63 - 1} {
		got, err := MustDecimal(in).Cents()
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
	}
	_, err := MustDecimal("0.005").Cents()
	assert.ErrorIs(t, err, ErrNotWholeCents)
	_, err = MustDecimal("92233720368547758.08").Cents()
	assert.ErrorIs(t, err, ErrCentsRange)
	c, err := MustDecimal("2.345").Round(2, RoundHalfUp).Cents()
	require.NoError(t, err)
	assert.Equal(t, int64(235), c)
}

func TestDecimalFormat(t *testing.T) {
	t.Parallel()
	d := MustDecimal("2.345")
	for _, tc := range []struct {
		format string
		v      Decimal
		want   string
	}{
		{"%v", d, "2.345"},
		{"%s", MustDecimal("5"), "5.00"},
		{"%v", Decimal{}, "0.00"},
		{"%q", MustDecimal("5"), `"5.00"`},
		{"%f", MustDecimal("5.00"), "5"},
		{"%f", d, "2.345"},
		{"%.2f", d, "2.35"},
		{"%.2f", MustDecimal("-2.345"), "-2.35"},
		{"%.2f", MustDecimal("1e-2"), "0.01"},
		{"%.0f", MustDecimal("2.5"), "3"},
		{"%.4f", d, "2.3450"},
		{"%8.2f", d, "    2.35"},
		{"%-8.2f|", d, "2.35    |"},
		{"%08.2f", MustDecimal("-2.345"), "-0002.35"},
		{"%+.2f", d, "+2.35"},
		{"% .1f", d, " 2.3"},
		{"%10v", MustDecimal("5"), "      5.00"},
		{"%#v", MustDecimal("5"), `MustDecimal("5.00")`},
		{"%d", d, "%!d(Decimal=2.345)"},
	} {
		assert.Equal(t, tc.want, fmt.Sprintf(tc.format, tc.v), tc.format)
	}
	assert.Equal(t, "5.00", MustDecimal("5").StringFixed(2))
	assert.Equal(t, "2.35", d.StringFixed(2))
	assert.Equal(t, "2", d.StringFixed(-1))
	assert.Equal(t, "1000", MustDecimal("1e3").StringFixed(0))
	assert.Equal(t, "fee 5.00", fmt.Sprint("fee ", MustDecimal("5")), "Sprint uses %v")
	p := MustDecimal("7.5")
	assert.Equal(t, "7.50", fmt.Sprintf("%v", &p), "a pointer prints its value")
}

func TestDecimalJSON(t *testing.T) {
	t.Parallel()
	var v struct {
		A Decimal  `json:"a"`
		B Decimal  `json:"b"`
		C *Decimal `json:"c"`
		D Decimal  `json:"d"`
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
		var w struct{ A Decimal }
		err := json.Unmarshal([]byte(bad), &w)
		assert.Error(t, err, bad)
		assert.True(t, w.A.IsZero(), "nothing is stored on failure: %s", bad)
	}
	err = json.Unmarshal([]byte(`{"a":1e400}`), &v)
	assert.True(t, errors.Is(err, ErrDecimalRange), "an exponent beyond range is a decode error, not zero: %v", err)
	var d Decimal
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
		a, err := NewDecimal(as)
		if err != nil {
			var r big.Rat
			if _, ok := r.SetString(as); ok && isJSONNumberText(as) && !errors.Is(err, ErrDecimalRange) {
				t.Fatalf("%q is a JSON number but was refused: %v", as, err)
			}
			return
		}
		b, err := NewDecimal(bs)
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
		if x, scale := a.big(); fromBig(x, scale) != a {
			t.Fatalf("parse %q kept a text that is not canonical: %q", as, a.s)
		}
		again, err := NewDecimal(a.String())
		if err != nil || again != a {
			t.Fatalf("parse(format(%q)) = %v, %v; want %v", as, again, err, a)
		}
		check := func(op string, got Decimal, want *big.Rat) {
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
		for _, mode := range []RoundingMode{RoundHalfUp, RoundHalfEven, RoundDown, RoundUp} {
			check("round "+mode.String(), a.Round(places, mode), ratRound(ra, places, mode))
		}
		if c, err := a.Cents(); err == nil {
			check("cents", DecimalFromCents(c), ra)
		}
	})
}

// ratRound rounds r to places fraction digits with mode, on big.Rat alone.
func ratRound(r *big.Rat, places int, mode RoundingMode) *big.Rat {
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
	case mode == RoundDown:
		q = fl
		if x.Sign() < 0 {
			q = up
		}
	case mode == RoundUp:
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
			if mode == RoundHalfEven {
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
				if _, err := NewDecimal(s); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkDecimalArithmetic(b *testing.B) {
	copay, fee := MustDecimal("4.99"), MustDecimal("5.00")
	b.ReportAllocs()
	for range b.N {
		total := copay.MulInt(3).Add(fee).Round(2, RoundHalfUp)
		if _, err := total.Cents(); err != nil {
			b.Fatal(err)
		}
	}
}
