package rxtypes_test

import (
	"encoding/json"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

func TestDate(t *testing.T) {
	t.Parallel()
	d, err := rxtypes.ParseDate("1980-02-29")
	require.NoError(t, err)
	assert.Equal(t, rxtypes.Date{1980, time.February, 29}, d)
	assert.True(t, d.IsValid())
	assert.False(t, rxtypes.Date{1981, time.February, 29}.IsValid())
	assert.False(t, rxtypes.Date{}.IsValid())
	assert.True(t, rxtypes.Date{}.IsZero())
	_, err = rxtypes.ParseDate("1981-02-29")
	assert.ErrorIs(t, err, rxtypes.ErrInvalidDate)
	b, err := json.Marshal(rxtypes.Date{7, time.March, 5})
	require.NoError(t, err)
	assert.Equal(t, `"0007-03-05"`, string(b))
	var got rxtypes.Date
	require.NoError(t, json.Unmarshal([]byte(`"2024-05-01T10:00:00Z"`), &got))
	assert.Equal(t, "2024-05-01", got.String())
	require.NoError(t, json.Unmarshal([]byte(`null`), &got))
	assert.Equal(t, "2024-05-01", got.String())
	assert.Error(t, json.Unmarshal([]byte(`5`), &got))
	assert.Equal(t, time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC), got.In(time.UTC))
	txt, _ := got.MarshalText()
	assert.Equal(t, "2024-05-01", string(txt))
}

func TestParseUSDate(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]rxtypes.Date{
		"02/29/1980": {1980, time.February, 29},
		"2/9/1980":   {1980, time.February, 9},
		"12/31/2024": {2024, time.December, 31},
		"01/01/0001": {1, time.January, 1},
	} {
		got, err := rxtypes.ParseUSDate(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
	}
	for _, in := range []string{"", "1980-02-29", "02/29/1981", "13/01/2000", "00/10/2000", "02/30/2000", "2/9/80", "02/29/19800",
		"+2/09/1980", "02/-9/1980", "02/09/+980", "021/09/1980", "02/09", "02/09/1980/", " 02/09/1980", "a2/09/1980"} {
		_, err := rxtypes.ParseUSDate(in)
		assert.ErrorIs(t, err, rxtypes.ErrInvalidUSDate, "%q", in)
	}
}

func TestDateCompare(t *testing.T) {
	t.Parallel()
	a := rxtypes.Date{2024, time.May, 1}
	for _, tc := range []struct {
		b    rxtypes.Date
		want int
	}{
		{rxtypes.Date{2024, time.May, 1}, 0}, {rxtypes.Date{2024, time.May, 2}, -1}, {rxtypes.Date{2024, time.April, 30}, 1},
		{rxtypes.Date{2023, time.December, 31}, 1}, {rxtypes.Date{2025, time.January, 1}, -1},
	} {
		assert.Equal(t, tc.want, a.Compare(tc.b), "%s vs %s", a, tc.b)
		assert.Equal(t, tc.want < 0, a.Before(tc.b))
		assert.Equal(t, tc.want > 0, a.After(tc.b))
	}
}

func TestTimeTolerant(t *testing.T) {
	t.Parallel()
	cases := map[string]time.Time{
		`"2024-05-01T10:11:12Z"`:           time.Date(2024, 5, 1, 10, 11, 12, 0, time.UTC),
		`"2024-05-01T10:11:12.123456Z"`:    time.Date(2024, 5, 1, 10, 11, 12, 123456000, time.UTC),
		`"2024-05-01T10:11:12-0400"`:       time.Date(2024, 5, 1, 14, 11, 12, 0, time.UTC),
		`"2024-05-01 10:11:12 -0400"`:      time.Date(2024, 5, 1, 14, 11, 12, 0, time.UTC),
		`"2024-05-01T10:11:12\u002B00:00"`: time.Date(2024, 5, 1, 10, 11, 12, 0, time.UTC),
		`"Wed, 01 May 2024 10:11:12 GMT"`:  time.Date(2024, 5, 1, 10, 11, 12, 0, time.UTC),
	}
	for in, want := range cases {
		var v rxtypes.Time
		require.NoError(t, json.Unmarshal([]byte(in), &v), in)
		assert.True(t, v.Valid(), in)
		assert.True(t, want.Equal(v.Time), "%s: %s", in, v.Time)
	}
	for _, in := range []string{`"2024-05-01T10:11:12.123456"`, `"2024-05-01 10:11:12"`, `"Wed, 01 May 2024 10:11:12 EDT"`, `"Wed, 01 May 2024 10:11:12 XYZ"`} {
		var v rxtypes.Time
		require.NoError(t, json.Unmarshal([]byte(in), &v), in)
		assert.False(t, v.Valid(), "%s names no offset: not read as UTC", in)
		assert.Equal(t, in[1:len(in)-1], v.Raw, "kept verbatim")
	}
	var odd rxtypes.Time
	require.NoError(t, json.Unmarshal([]byte(`"tomorrow afternoon"`), &odd))
	assert.False(t, odd.Valid())
	assert.Equal(t, "tomorrow afternoon", odd.Raw)
	b, _ := json.Marshal(odd)
	assert.Equal(t, `"tomorrow afternoon"`, string(b))
	var num rxtypes.Time
	require.NoError(t, json.Unmarshal([]byte(`12345`), &num))
	assert.Equal(t, "12345", num.Raw)
	var null rxtypes.Time
	require.NoError(t, json.Unmarshal([]byte(`null`), &null))
	assert.True(t, null.IsZero())
	b, _ = json.Marshal(null)
	assert.Equal(t, "null", string(b))
	assert.Equal(t, "", null.String())
	nt := rxtypes.NewTime(time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC))
	assert.Equal(t, "2024-01-02T03:04:05Z", nt.String())
	assert.Equal(t, "2024-01-02T03:04:05Z", rxtypes.Time{Time: nt.Time}.String())
}

func TestTimeRoundTripsOddText(t *testing.T) {
	t.Parallel()
	for _, in := range []string{`"\u0007"`, "\"\xdc\"", `"a\"b"`, `"<&>"`} {
		var v rxtypes.Time
		require.NoError(t, json.Unmarshal([]byte(in), &v), in)
		b, err := json.Marshal(v)
		require.NoError(t, err, in)
		var back rxtypes.Time
		require.NoError(t, json.Unmarshal(b, &back), in)
		if utf8.ValidString(v.Raw) {
			assert.Equal(t, v.Raw, back.Raw, in)
		} else {
			assert.Equal(t, "\uFFFD", back.Raw, "invalid UTF-8 is written as JSON writes it")
		}
	}
}
