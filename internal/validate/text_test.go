package validate

import (
	"strings"
	"testing"
	"unicode"
)

// refusedText is the text rule written from its definition, rune by rune:
// what badText must agree with.
func refusedText(s string, multiline bool) bool {
	for _, r := range s {
		switch {
		case multiline && (r == '\t' || r == '\n' || r == '\r' || r == '\u2028' || r == '\u2029'):
		case unicode.IsControl(r): // C0, DEL and C1
			return true
		case r >= '\u202a' && r <= '\u202e', r >= '\u2066' && r <= '\u2069':
			return true
		case r == '\u2028' || r == '\u2029':
			return true
		}
	}
	return false
}

// textSamples are strings at the edges of the rule: each refused
// character, its neighbours that pass, and bytes that are not UTF-8.
var textSamples = []string{
	"", "Marguerite", "O'Brien-Smith", "José Ñúñez", "李小龙", "Ренат", "محمد", "👩‍⚕️",
	"a\x00b", "\x01", "a\x1b[2J", "\t", "a\tb", "a\nb", "a\r\nb", "\x1f", " ", "~", "\x7f",
	"\u0080", "\u0085", "\u009f", "\u00a0", "\u00a9",
	"\u2027", "\u2028", "\u2029", "\u202a", "\u202e", "\u202f", "\u2065", "\u2066", "\u2069", "\u206a",
	"\u200e", "\u200f", "\u061c", "\ufeff",
	"\xc2", "a\xc2", "\xc2\x85", "\xe2\x80", "\xe2\x80\xae", "\xe2\x81", "\xe2\x81\xa6x", "\xff\xfe",
}

// TestBadTextAgreesWithItsDefinition holds badText's byte shortcuts to the
// rune-by-rune definition, for single-line and multi-line text.
func TestBadTextAgreesWithItsDefinition(t *testing.T) {
	t.Parallel()
	for _, s := range textSamples {
		for _, multiline := range []bool{false, true} {
			if got, want := badText(s, multiline), refusedText(s, multiline); got != want {
				t.Errorf("badText(%q, multiline %v) = %v; want %v", s, multiline, got, want)
			}
		}
	}
}

func FuzzBadText(f *testing.F) {
	for _, s := range textSamples {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, multiline := range []bool{false, true} {
			if got, want := badText(s, multiline), refusedText(s, multiline); got != want {
				t.Fatalf("badText(%q, multiline %v) = %v; want %v", s, multiline, got, want)
			}
		}
	})
}

// TestTextRule: every string check refuses a control character or a
// bidirectional override with the text rule's message, once, before its
// own rule; NoteMaxLen lets tabs and line breaks through.
func TestTextRule(t *testing.T) {
	t.Parallel()
	checks := map[string]func(c *Collector, path, s string){
		"Text":           func(c *Collector, p, s string) { c.Text(p, s) },
		"Required":       func(c *Collector, p, s string) { c.Required(p, s) },
		"MaxLen":         func(c *Collector, p, s string) { c.MaxLen(p, s, 255) },
		"RequiredMaxLen": func(c *Collector, p, s string) { c.RequiredMaxLen(p, s, 255) },
		"Phone":          func(c *Collector, p, s string) { c.Phone(p, "614555"+s+"0100") },
		"OptionalPhone":  func(c *Collector, p, s string) { c.OptionalPhone(p, s+"6145550100") },
		"NDC":            func(c *Collector, p, s string) { c.NDC(p, "00002"+s+"143380") },
		"NPI":            func(c *Collector, p, s string) { c.NPI(p, s+"1234567890") },
		"NCPDP":          func(c *Collector, p, s string) { c.NCPDP(p, "5550001"+s) },
		"State":          func(c *Collector, p, s string) { c.State(p, "O"+s+"H") },
		"ZIP":            func(c *Collector, p, s string) { c.ZIP(p, "43210"+s) },
		"NoteMaxLen":     func(c *Collector, p, s string) { c.NoteMaxLen(p, "Leave with "+s+"neighbour", 280) },
	}
	for name, check := range checks {
		for _, s := range textSamples {
			multiline := name == "NoteMaxLen"
			var c Collector
			check(&c, "a.b[0].f", "x"+s+"y")
			got := problems(&c)
			if !refusedText(s, multiline) {
				for _, p := range got {
					if strings.Contains(p.Message, "control characters") {
						t.Errorf("%s(%q): refused by the text rule: %v", name, s, got)
					}
				}
				continue
			}
			want := msgTextLine
			if multiline {
				want = msgTextNote
			}
			if len(got) != 1 || got[0].Path != "a.b[0].f" || got[0].Message != want {
				t.Errorf("%s(%q): got %v; want [a.b[0].f: %s]", name, s, got, want)
			}
		}
	}
	// A note's line breaks and tabs pass, and its length still counts.
	var c Collector
	c.NoteMaxLen("delivery_notes", "Ring twice.\r\nLeave\twith the neighbour\u2028at 12.", 280)
	c.NoteMaxLen("delivery_notes", strings.Repeat("\n", 281), 280)
	if got := problems(&c); len(got) != 1 || got[0].Message != "must be at most 280 characters" {
		t.Errorf("notes: %v; want only the second refused, for its length", got)
	}
}
