package safetext

import (
	"regexp"
	"strconv"
	"strings"
	"time"
)

// The forms of what the platform says that are judged as a whole, before
// its words: where a value's form is known safe (an amount of money, a
// clock time, a duration, a measure, a count of something, a date near
// the present) its digits stay; where it is a place or a contact (a
// street address, an apartment, an e-mail address, a URL) or a date far
// from the present (a date of birth), all of it goes. A number of no
// known form is judged by numberAlone.
var (
	reURL    = regexp.MustCompile(`(?i)\b[a-z][a-z0-9+.-]*://[^ "'<>]+`)
	reEmail  = regexp.MustCompile(`[^ @"'<>(),;:\[\]]+@[^ @"'<>(),;:\[\]]+\.[A-Za-z]{2,}`)
	reStreet = regexp.MustCompile(`(?i)\b\d{1,6}[a-z]?((?: +[a-z][a-z.'’-]*){1,3}) +(?:st|street|ave|avenue|rd|road|blvd|boulevard|ln|lane|dr|drive|ct|court|way|pl|place|ter|terrace|pkwy|parkway|hwy|highway|cir|circle|sq|square|trl|trail|loop|aly|alley)\b\.?`)
	// reNamedStreet is a street named in capitals without a number
	// ("on Maple Avenue"), judged where capitals say something.
	reNamedStreet = regexp.MustCompile(`\b(?:[A-Z][a-z]+ +){1,3}(?:Street|St|Avenue|Ave|Road|Rd|Boulevard|Blvd|Lane|Ln|Drive|Dr|Court|Ct|Place|Pl|Terrace|Parkway|Pkwy|Highway|Hwy|Circle|Cir)\b\.?`)
	reUnit        = regexp.MustCompile(`(?i)(?:\b(?:apt|apartment|suite|ste|unit|bldg|building|lot)\.?(?: *#)?|#) *[a-z]?\d+[a-z]?\b`)
	rePOBox       = regexp.MustCompile(`(?i)\bp\.? ?o\.? +box +\d+\b`)

	reISODate  = regexp.MustCompile(`(?i)\b(\d{4})-(\d{1,2})-(\d{1,2})(?:[t ]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:z\b|[+-]\d{2}:?\d{2}\b| ?utc\b)?)?`)
	reNumDate  = regexp.MustCompile(`\b(\d{1,2})[/.-](\d{1,2})[/.-](\d{4}|\d{2})\b`)
	reYMDDate  = regexp.MustCompile(`\b(\d{4})[/.](\d{1,2})[/.](\d{1,2})\b`)
	reNameDate = regexp.MustCompile(`(?i)\b(?:(\d{1,2})(?:st|nd|rd|th)? +(?:of +)?)?(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b\.?(?: +(\d{1,2})(?:st|nd|rd|th)?\b)?(?:,? +(\d{4})\b)?`)
	reYear     = regexp.MustCompile(`\b(?:19|20)\d{2}\b`)

	reClock    = regexp.MustCompile(`(?i)\b([01]?\d|2[0-4]):([0-5]\d)(?::[0-5]\d)?(?: ?[ap]\.?m\b\.?)?(?: ?[-–] ?([01]?\d|2[0-4]):([0-5]\d)(?: ?[ap]\.?m\b\.?)?)?|\b(?:1[0-2]|0?[1-9]) ?[ap]\.?m\b\.?`)
	reMoney    = regexp.MustCompile(`(?i)[$£€] ?\d{1,3}(?:,\d{3})+(?:\.\d{1,2})?\b|[$£€] ?\d+(?:\.\d{1,2})?\b|\b\d+(?:,\d{3})*(?:\.\d{1,2})? ?(?:usd|eur|gbp|dollars?|cents?)\b|\b\d{1,6}\.\d{2}\b`)
	reMeasure  = regexp.MustCompile(`(?i)\b\d+(?:,\d{3})*(?:\.\d+)? ?(?:percent|per cent|kb|mb|gb|bytes|lbs?|oz|ounces?|pounds?|kgs?|kilos?|kilograms?|grams?|inch(?:es)?|cm|mm|ft|feet|foot|yards?|mi|miles?|kms?|kilomet(?:er|re)s?|met(?:er|re)s?|ms|milliseconds?|secs?|seconds?|mins?|minutes?|hrs?|hours?|days?|weeks?|wks?|months?|years?|yrs?|degrees?|business days?|s|h|m)\b|\b\d+(?:\.\d+)?(?: ?°[cf]\b|%|(?:lbs?|oz|kg|g|in|cm|mm|ft|mi|km|m|ms|s|h|hr|d|x|k)\b)`)
	reDims     = regexp.MustCompile(`(?i)\b\d+(?:\.\d+)?(?: ?[x×] ?\d+(?:\.\d+)?){1,2}(?: ?(?:in|inch(?:es)?|cm|mm|ft)\b)?`)
	reDuration = regexp.MustCompile(`\b(?:\d+(?:\.\d+)?(?:h|m|s|ms|µs|us|ns))+\b`)
	reOrdinal  = regexp.MustCompile(`(?i)\b\d{1,3}(?:st|nd|rd|th)\b`)
	reVersion  = regexp.MustCompile(`(?i)\bv\d{1,2}\b`)
	// reLabelled is a number after the word that says what it is, where
	// that is no patient's: a provider's NPI, a pharmacy's NCPDP id, a
	// drug's NDC, a status or an error, a port.
	reLabelled = regexp.MustCompile(`(?i)\b(?:npi|ncpdp|ndc|pharmacy|status|http|port|error)[ :#]+(\d[\d-]{0,13}\d)\b`)
	reCount    = regexp.MustCompile(`\b(\d{1,3}(?:,\d{3})+|\d+) +(?:per\b|([A-Za-z]+)\b)`)
)

// nearYears is how far from the present a year may be for a date to stay:
// a delivery window, a cut-off, a subscription's end; a date of birth is
// further away.
const nearYears = 2

// markForms marks the spans of the text's known forms: kept, or denied.
func (t *text) markForms() {
	deny := func(re *regexp.Regexp) {
		for _, m := range re.FindAllStringIndex(t.s, -1) {
			t.span(m[0], m[1], t.deny)
		}
	}
	if strings.Contains(t.s, "://") {
		deny(reURL)
	}
	if strings.Contains(t.s, "@") {
		deny(reEmail)
	}
	if !t.caps {
		for _, m := range reNamedStreet.FindAllStringIndex(t.s, -1) {
			if t.streetWords(t.s[m[0]:m[1]]) {
				t.span(m[0], m[1], t.deny)
			}
		}
	}
	if strings.IndexFunc(t.s, func(r rune) bool { return isDigit(r) }) < 0 {
		return // the forms below all hold a digit
	}
	deny(reUnit)
	deny(rePOBox)
	for _, m := range reStreet.FindAllStringSubmatchIndex(t.s, -1) {
		if t.streetWords(t.s[m[2]:m[3]]) {
			t.span(m[0], m[1], t.deny)
		}
	}
	year := t.f.now().Year()
	near := func(y string) bool {
		n, err := strconv.Atoi(y)
		if err != nil {
			return false
		}
		if len(y) == 2 {
			n += year / 100 * 100
		}
		return n >= year-nearYears && n <= year+nearYears
	}
	date := func(m []int, y string) {
		if near(y) {
			t.span(m[0], m[1], t.kept)
		} else {
			t.span(m[0], m[1], t.deny)
		}
	}
	for _, m := range reISODate.FindAllStringSubmatchIndex(t.s, -1) {
		date(m, t.s[m[2]:m[3]])
	}
	for _, m := range reNumDate.FindAllStringSubmatchIndex(t.s, -1) {
		date(m, t.s[m[6]:m[7]])
	}
	for _, m := range reYMDDate.FindAllStringSubmatchIndex(t.s, -1) {
		date(m, t.s[m[2]:m[3]])
	}
	for _, m := range reNameDate.FindAllStringSubmatchIndex(t.s, -1) {
		switch {
		case m[6] >= 0:
			date(m, t.s[m[6]:m[7]])
		case m[2] >= 0 || m[4] >= 0:
			// A day and a month with no year: a birthday as well as a
			// delivery day.
			t.span(m[0], m[1], t.deny)
		}
	}
	for _, m := range reYear.FindAllStringIndex(t.s, -1) {
		if near(t.s[m[0]:m[1]]) && t.isolated(m[0], m[1]) {
			t.span(m[0], m[1], t.kept)
		}
	}
	for _, m := range reLabelled.FindAllStringSubmatchIndex(t.s, -1) {
		if t.isolated(m[2], m[3]) {
			t.span(m[2], m[3], t.kept)
		}
	}
	for _, re := range [...]*regexp.Regexp{reClock, reMoney, reMeasure, reDims, reDuration, reOrdinal, reVersion} {
		for _, m := range re.FindAllStringIndex(t.s, -1) {
			if t.isolated(m[0], m[1]) {
				t.span(m[0], m[1], t.kept)
			}
		}
	}
	for _, m := range reCount.FindAllStringSubmatchIndex(t.s, -1) {
		if !t.isolated(m[2], m[3]) {
			continue
		}
		n := t.s[m[2]:m[3]]
		if len(n) > 5 && !strings.Contains(n, ",") || len(n) >= 4 && n[0] == '0' {
			continue // a ZIP code, a record's number, a phone number
		}
		if m[4] < 0 || t.countNoun(t.s[m[4]:m[5]]) {
			t.span(m[2], m[3], t.kept)
		}
	}
}

// isolated reports whether the bytes [i, j) of the text are not joined
// to other digits: no digit group right before or after them (a phone
// number's, a date's), which would make them part of a longer value.
func (t *text) isolated(i, j int) bool {
	s := t.s
	if i > 0 && isDigit(rune(s[i-1])) {
		return false
	}
	if i > 1 && strings.ContainsRune("-/.:,", rune(s[i-1])) && isDigit(rune(s[i-2])) {
		return false
	}
	if j < len(s) && isDigit(rune(s[j])) {
		return false
	}
	if j+1 < len(s) && strings.ContainsRune("-/.:", rune(s[j])) && isDigit(rune(s[j+1])) {
		return false
	}
	return true
}

// countNoun reports whether w, after a number, says what the number
// counts: a plural noun of the language that is no one's name
// ("5000 requests", "3 prescriptions").
func (t *text) countNoun(w string) bool {
	l := strings.ToLower(w)
	if len(l) < 3 || !strings.HasSuffix(l, "s") || strings.HasSuffix(l, "ss") || functionWords[l] || verbs[l] {
		return false
	}
	if t.f != nil && t.f.words[l] {
		return false
	}
	if f := lex().names[l]; f != 0 {
		return false
	}
	return vocab[l] || lex().english(l)
}

// streetWords reports whether the words between a number and a street's
// suffix can be a street's name: none of them a function word, a unit or
// a count's noun ("3 prescriptions on the way" is no address).
func (t *text) streetWords(s string) bool {
	for _, w := range strings.Fields(s) {
		l := strings.ToLower(strings.Trim(w, ".'’-"))
		if functionWords[l] || units[l] || strings.HasSuffix(l, "s") && len(l) > 3 && lex().english(l) && lex().names[l] == 0 {
			return false
		}
	}
	return true
}

// units holds the words that follow a measure or a count.
var units = map[string]bool{
	"lb": true, "lbs": true, "oz": true, "kg": true, "pound": true, "pounds": true, "ounce": true, "ounces": true,
	"inch": true, "inches": true, "mile": true, "miles": true, "minutes": true, "minute": true, "hours": true,
	"hour": true, "days": true, "day": true, "business": true, "percent": true, "seconds": true, "second": true,
	"weeks": true, "week": true, "items": true, "item": true, "packages": true, "package": true,
}

// now is the present the filter judges dates by.
func (f *Filter) now() time.Time {
	if f != nil && !f.at.IsZero() {
		return f.at
	}
	return time.Now()
}

// groupSeparators may stand between the digit groups of one value: a
// phone number's, a date's, a street number's.
const groupSeparators = " -./,:()+#"

// judgeNumbers decides the runs of digits no known form kept or denied. A
// run passes when it stands alone (no other digits within three
// separators either side: "(614) 555-7319", "11/23/1937" and
// "Nov 23, 1937" are groups), has at most three digits (a status, a
// count, a length; a year or a street number has four), is not next to a
// redacted word ("23 November") and is no part of the digits of a
// patient's value.
func (t *text) judgeNumbers() {
	for k := range t.toks {
		if w := &t.toks[k]; !w.decided {
			w.keep, w.decided = t.numberAlone(k), true
		}
	}
}

func (t *text) numberAlone(k int) bool {
	w := t.toks[k]
	if w.end-w.start > 3 {
		return false
	}
	near := func(i, step int) bool {
		for n := 0; n < 4 && i >= 0 && i < len(t.rs); n, i = n+1, i+step {
			switch {
			case isDigit(t.rs[i]):
				return !t.kept[i]
			case !strings.ContainsRune(groupSeparators, t.rs[i]):
				return false
			}
		}
		return false
	}
	if near(w.start-1, -1) || near(w.end, 1) {
		return false
	}
	if k > 0 && t.toks[k-1].decided && !t.toks[k-1].keep {
		return false
	}
	if k+1 < len(t.toks) && t.toks[k+1].decided && !t.toks[k+1].keep {
		return false
	}
	if t.f != nil && w.end-w.start >= minDigits {
		d := string(t.rs[w.start:w.end])
		for _, p := range t.f.digits {
			if strings.Contains(p, d) {
				return false
			}
		}
	}
	return true
}
