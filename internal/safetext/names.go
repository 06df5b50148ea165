package safetext

import (
	"strings"
	"sync"
	"unicode"

	"github.com/rxdelivery/rxdelivery-go/internal/fields"
)

// A word of the language that is also a person's or a place's name
// (Will, Hope, Price, Street, Reading) is judged by its context. It is a
// name, and goes, when:
//
//   - it is capitalised inside a sentence of a text whose capitals say
//     something, unless it is a word of the platform's vocabulary that is
//     no first name and no preposition introduces it ("picked up by the
//     Courier" stays, "Recipient Will Page" goes);
//   - it follows a word that introduces a person (recipient, patient,
//     Mr, signed by, …), unless it is a function word;
//   - it stands next to a name: a first name before a surname, a surname
//     after a first name, either next to a word the filter does not know
//     written like a name;
//   - a first name and a surname stand together where a person is named:
//     after a word that introduces one, at the start of a sentence, or
//     before a verb ("recipient will page could not be reached");
//   - it is a possessive ("Price's order") with no determiner before it;
//   - it starts a sentence and a verb follows ("Rose could not be
//     reached"), unless it is a word of the platform's vocabulary and no
//     first name ("Price could not be computed" stays).
//
// Otherwise it is the word of the language, and stays.

// personCues are the words after which a name is a person's.
var personCues = set("recipient", "recipients", "patient", "patients", "customer", "member", "cardholder",
	"subscriber", "consignee", "addressee", "caregiver", "guardian", "prescriber", "physician", "doctor", "dr",
	"mr", "mrs", "ms", "miss", "mx", "dear", "attn", "named", "name", "surname", "nee", "née", "contact",
	"firstname", "lastname", "hi", "hello")

// signedVerbs are the verbs after which "by" introduces a person.
var signedVerbs = set("signed", "received", "collected", "accepted", "countersigned", "witnessed", "refused",
	"declined", "rejected", "requested", "ordered", "placed", "submitted", "authorised", "authorized")

// prepositions introduce a person or a place as readily as a thing.
var prepositions = set("to", "for", "by", "from", "with", "and", "of", "at", "in", "near", "call", "ask", "tell",
	"notify", "contact", "above", "below", "over", "under", "via", "into", "onto", "through", "across", "around",
	"toward", "towards", "beyond", "within", "behind", "along", "past", "outside", "inside", "between", "beside")

// plainNext reports whether the word after toks[k] makes it an ordinary
// word's modifier or object rather than a name: a noun of the platform's
// follows ("for wood pallets"), or a plain word joined to it by a hyphen.
func (t *text) plainNext(k int) bool {
	if k+1 >= len(t.toks) || !t.joined(k, k+1) {
		return false
	}
	n := t.toks[k+1]
	return nouns[n.lower] && n.flags == 0
}

// roles are the platform's words for the people and places a delivery
// passes through, whose possessive is written without a determiner in
// terse messages ("driver's license", "carrier's cutoff passed").
var roles = set("driver", "courier", "carrier", "pharmacist", "pharmacy", "dispatcher", "rider", "sender",
	"shipper", "payer", "prescriber", "agent", "operator", "store", "branch", "clinic", "provider", "partner",
	"merchant", "customer", "recipient", "patient", "member", "signer", "handler")

// idioms are the fixed phrases of a preposition and a word that is also
// a name ("in progress", "on hold"): the word is the phrase's.
var idioms = set("in progress", "in transit", "in stock", "in person", "in full", "in time", "in store",
	"in review", "in force", "in bulk", "in range", "in line", "in place", "at risk", "at home", "at cost",
	"at rest", "on hold", "on time", "on file", "on call", "on site", "on route", "by hand", "by law",
	"by mail", "by post", "by courier", "by phone", "for review", "for pickup", "for now", "to date",
	"with care", "of age", "from stock")

// modals are the modal verbs, some of which are names (will, may).
var modals = set("will", "may", "might", "must", "can", "could", "shall", "should", "would")

// finite are the finite forms of verbs that never follow a modal.
var finite = set("is", "was", "are", "were", "has", "had", "does", "did", "isn", "wasn", "hasn", "doesn", "didn",
	"needs", "wants", "lives", "says", "takes", "gets", "goes", "lies", "remains", "requires", "shows", "closes",
	"opens")

// objectPrepositions are the prepositions whose object is a noun, never a
// verb: a modal after one is a name.
var objectPrepositions = set("to", "for", "by", "from", "with", "of", "at", "near")

// participle reports whether w (lower case) is a past participle of the
// language ("skipped", "refused").
func participle(w string) bool {
	return len(w) > 4 && strings.HasSuffix(w, "ed") && lex().english(w)
}

// canBeVerb reports whether w (lower case) is a verb by the language's
// list: its past or its present participle is a word ("price": priced,
// pricing; "king": neither).
func canBeVerb(w string) bool {
	l := lex()
	if l.english(w+"ed") || l.english(w+"ing") {
		return true
	}
	if n := len(w); n > 2 {
		if w[n-1] == 'e' && (l.english(w+"d") || l.english(w[:n-1]+"ing")) {
			return true
		}
		c := w[n-1:]
		return l.english(w+c+"ed") || l.english(w+c+"ing")
	}
	return false
}

// placeCues are the words after which a name is a place's.
var placeCues = set("to", "in", "at", "from", "near", "match", "origin", "destination", "city", "town", "outside",
	"above", "below", "via", "into", "through", "across", "around", "beyond", "past", "toward", "towards")

// personObjects are the verbs whose object is a person.
var personObjects = set("call", "phone", "text", "email", "ask", "tell", "notify", "contact", "page", "meet",
	"thank", "inform", "remind", "visit", "reach", "try", "retry", "find", "locate", "serve", "see", "help",
	"identify", "verify", "greet", "wake", "reached", "tried", "found", "located", "served", "helped",
	"identified", "verified")

// verbs are the words that follow a name that is the subject of a
// sentence.
var verbs = set("could", "cannot", "can", "couldn", "is", "isn", "was", "wasn", "has", "hasn", "had", "did",
	"didn", "does", "doesn", "will", "won", "may", "must", "should", "would", "refused", "declined", "signed",
	"asked", "requested", "wants", "said", "called", "cancelled", "canceled", "moved", "rejected", "needs",
	"lives", "collected", "picked", "not", "born", "held", "left", "signed", "received", "needs", "wants")

// adverbs are the words that stand between a sentence's subject and its
// verb ("Amber already opened the box").
var adverbs = set("already", "still", "never", "just", "also", "then", "now", "again", "previously", "recently",
	"reportedly", "apparently", "only", "since")

// finiteAfter reports whether the words after toks[k] are a verb's finite
// form, maybe after an adverb ("could", "already opened", "still has").
func (t *text) finiteAfter(k int) bool {
	next := t.wordAt(k + 1)
	if !t.joined(k, k+1) {
		return false
	}
	if verbs[next] || finite[next] {
		return true
	}
	after := t.wordAt(k + 2)
	return adverbs[next] && t.joined(k+1, k+2) && (verbs[after] || finite[after] || participle(after))
}

// determiners make the word after them a thing, not a name.
var determiners = set("the", "a", "an", "this", "that", "these", "those", "your", "our", "their", "its", "his",
	"her", "my", "each", "every", "no", "any", "some", "which", "whose")

func set(ws ...string) map[string]bool {
	m := make(map[string]bool, len(ws))
	for _, w := range ws {
		m[w] = true
	}
	return m
}

// judgeNames decides the words of the language that are also names, from
// their context, until no decision changes.
func (t *text) judgeNames() {
	for changed := true; changed; {
		changed = false
		for k := range t.toks {
			w := &t.toks[k]
			if w.decided || w.name || w.flags == 0 {
				continue
			}
			if t.isName(k) {
				w.name, changed = true, true
			}
		}
	}
	for k := range t.toks {
		if w := &t.toks[k]; !w.decided && !w.digits {
			w.keep, w.decided = !w.name, true
		}
	}
}

// isName reports whether toks[k], a word of the language that is also a
// name, is used as one here.
func (t *text) isName(k int) bool {
	w := t.toks[k]
	if finite[w.lower] && !w.quoted {
		return false // a verb's finite form ("reading takes"), not the town of Takes
	}
	fl := w.flags
	start := t.sentenceStart(k)
	prev, prev2, next := t.wordAt(k-1), t.wordAt(k-2), t.wordAt(k+1)
	shaped := w.title || w.upper || t.caps // written as a name may be
	fn := functionWords[w.lower]

	// Capitalised inside a sentence, other than in a capitalised phrase
	// of ordinary words ("Refill Too Soon", "Front Door").
	if !t.caps && (w.title || w.upper) && !start && !t.inPhrase(k) &&
		(fl&firstName != 0 || !nouns[w.lower] || prepositions[prev]) {
		return true
	}
	// A fixed phrase of a preposition and the word ("in progress").
	if !shaped && idioms[prev+" "+w.lower] && t.joined(k-1, k) && !w.quoted {
		return false
	}
	// At the start of a quoted or bracketed value ("reference_id
	// \"Street-0418\""), or the value of a patient's field
	// ("patient.last_name long").
	if fl.personal() && !fn && (w.start > 0 && strings.ContainsRune("\"'“‘(", t.rs[w.start-1]) && (shaped || !domain(w.lower)) && !(fl&firstName == 0 && t.inPhrase(k)) ||
		t.afterPatientField(k) && !verbs[w.lower]) {
		return true
	}
	// Inside quotes, a value the platform echoes: a name there is
	// anyone's, whatever words stand around it ("note \"ring twice,
	// hope answers\"").
	if fl.personal() && w.quoted && !t.quotedEnum(k) {
		return true
	}
	// After a word that introduces a person, where a name ends: written
	// as one, or before a verb, a clause's end, a possessive or a name.
	if !fn && fl.personal() && t.joined(k-1, k) && (personCues[prev] && !t.abbreviation(k-1) || prev == "by" && signedVerbs[prev2]) &&
		(shaped || verbs[next] || t.boundaryAfter(k) || next == "s" || t.toks[k+1].flags.personal() || !verbs[w.lower] && !nouns[w.lower]) {
		return true
	}
	// A person's word after a preposition, where a name ends: before a
	// verb, a clause's end or a possessive ("order for hill is out").
	// After "to", a word that can be a verb is the infinitive's ("to
	// page"); one that cannot ("to king") is the preposition's object.
	infinitive := prev == "to" && canBeVerb(w.lower)
	// A noun of the platform's, bare after a preposition and before a
	// participle, is the subject of a clause, and a person ("request for
	// price skipped"); with a determiner or a noun after it, the word.
	if !fn && fl&(surname|firstName) != 0 && nouns[w.lower] && !shaped && t.joined(k-1, k) && objectPrepositions[prev] &&
		t.joined(k, k+1) && participle(next) && !nouns[next] {
		return true
	}
	if !fn && fl.personal() && t.joined(k-1, k) && prepositions[prev] && !nouns[w.lower] &&
		(!infinitive && !t.plainNext(k) || verbs[next] && t.joined(k, k+1) || t.boundaryAfter(k) || next == "s" && t.possessiveS(k+1)) {
		return true
	}
	// A modal where no modal can be: after a preposition ("delivered to
	// may"), or before another modal or a verb's finite form ("will is
	// not authorised", "may must meet").
	if fn && modals[w.lower] && fl.personal() &&
		(t.joined(k-1, k) && objectPrepositions[prev] && !t.toks[min(k+1, len(t.toks)-1)].digits ||
			t.joined(k, k+1) && (modals[next] || finite[next]) ||
			t.comma(k-1, k) && t.toks[k-1].name && t.toks[k-1].flags&(surname|rareSurname) != 0 && t.boundaryAfter(k)) {
		return true
	}
	// Next to a name, written alike.
	if t.joined(k-1, k) && t.nameLike(k-1) && t.alike(k-1, k) && fl&(surname|rareSurname|firstName) != 0 && (shaped || !fn) &&
		!(fn && t.plain(k+1)) && !(verbs[w.lower] && !shaped) {
		return true
	}
	if t.joined(k, k+1) && t.nameLike(k+1) && (t.alike(k, k+1) || w.title && start && t.toks[k+1].name) &&
		fl&(firstName|surname) != 0 && (shaped || !fn) &&
		!(personObjects[w.lower] && !shaped) {
		return true
	}
	// A first name and a surname where a person is named.
	if fl&firstName != 0 && t.joined(k, k+1) && t.alike(k, k+1) && t.toks[k+1].flags&(surname|rareSurname) != 0 &&
		!t.toks[k+1].decided && !functionWords[next] && !verbs[next] {
		after := t.wordAt(k + 2)
		before := start || personCues[prev] || prepositions[prev]
		if before || verbs[after] && t.joined(k+1, k+2) || !fn && t.boundaryAfter(k+1) {
			return true
		}
	}
	// A sentence's capital says nothing: a first name that starts one may
	// stand before a surname in lower case ("Frank hill (caregiver)").
	startCap := t.toks[max(k-1, 0)].title && !shaped && t.sentenceStart(k-1)
	if fl&(surname|rareSurname) != 0 && t.joined(k-1, k) && (t.alike(k-1, k) || startCap && t.bracketAfter(k)) &&
		t.toks[k-1].flags&firstName != 0 && !t.toks[k-1].decided && !fn && !verbs[w.lower] {
		before := t.sentenceStart(k-1) || personCues[prev2] || prepositions[prev2]
		if before || verbs[next] && t.joined(k, k+1) || !functionWords[prev] && t.boundaryAfter(k) {
			return true
		}
	}
	// The object of a verb whose object is a person ("call mark before
	// cancelling").
	if !fn && fl.personal() && t.joined(k-1, k) && personObjects[prev] && !nouns[w.lower] {
		return true
	}
	// A surname, a comma and a first name ("long, joy)").
	if fl&(surname|rareSurname) != 0 && !fn && t.comma(k, k+1) && t.alike(k, k+1) &&
		t.toks[k+1].flags&firstName != 0 && t.boundaryAfter(k+1) {
		return true
	}
	if fl&firstName != 0 && !fn && t.comma(k-1, k) && t.alike(k-1, k) && t.toks[k-1].flags&(surname|rareSurname) != 0 &&
		t.boundaryAfter(k) {
		return true
	}
	// A town after a word that introduces a place, or after an address
	// removed ("12 elm st, independence"); a word of the platform's too
	// when a verb follows it, whose subject it cannot be ("roads above
	// reading are closed").
	if fl&place != 0 && !fn && t.joined(k-1, k) &&
		(!nouns[w.lower] && (placeCues[prev] && (t.boundaryAfter(k) || verbs[next]) || k > 0 && t.toks[k-1].decided && !t.toks[k-1].keep && anyTrue(t.deny[t.toks[k-1].start:t.toks[k-1].end])) ||
			placeCues[prev] && t.joined(k, k+1) && (next == "are" || next == "were" || finite[next])) {
		return true
	}
	// A possessive with no determiner before it: a thing takes one ("the
	// street's"), a person does not; a role may go without ("driver's
	// license", "carrier's cutoff").
	if k+1 < len(t.toks) && t.toks[k+1].lower == "s" && t.possessiveS(k+1) && !determiners[prev] &&
		(!roles[w.lower] || fl&firstName != 0 || shaped && !start) && fl&(firstName|surname|rareSurname) != 0 &&
		!(w.title && t.plain(k+2) && t.toks[k+2].title && fl&firstName == 0) {
		return true
	}
	// The subject of a sentence.
	if start && (shaped || !domain(w.lower) || !nouns[w.lower] && modals[next]) && fl.personal() && (t.finiteAfter(k) || t.boundaryAfter(k) && !t.sentenceEnd(k) ||
		fn && next != "" && t.toks[k+1].flags.personal()) && (fl&firstName != 0 || !nouns[w.lower]) && !(fn && !verbs[next]) {
		return true
	}
	if start && shaped && fn && fl&firstName != 0 && verbs[next] && t.joined(k, k+1) {
		// "Will will collect": a modal is not followed by a modal.
		return true
	}
	return false
}

// quotedEnum reports whether toks[k] is alone in its quotes and a word
// of the platform's vocabulary ("got 'Mobile'" as an enum's value).
func (t *text) quotedEnum(k int) bool {
	alone := (k == 0 || !t.toks[k-1].quoted || !t.joined(k-1, k) && !t.joinedBy(k-1, k, "-")) &&
		(k+1 >= len(t.toks) || !t.toks[k+1].quoted || !t.joined(k, k+1) && !t.joinedBy(k, k+1, "-"))
	return alone && domain(t.toks[k].lower)
}

// afterPatientField reports whether toks[k] follows the name of a
// patient's field, or a path ending in one, with at most a colon or an
// equals sign between: its value.
func (t *text) afterPatientField(k int) bool {
	if k == 0 || !t.joinedBy(k-1, k, ":=") {
		return false
	}
	p := t.toks[k-1]
	return !p.digits && fields.Known(p.lower) && fields.Of(p.lower) == fields.Patient
}

// joinedBy reports whether toks[a] and toks[b] are separated by spaces
// and at most one of seps.
func (t *text) joinedBy(a, b int, seps string) bool {
	if a < 0 || b >= len(t.toks) {
		return false
	}
	between := strings.TrimSpace(string(t.rs[t.toks[a].end:t.toks[b].start]))
	return between == "" || len([]rune(between)) == 1 && strings.ContainsAny(between, seps)
}

// comma reports whether toks[a] and toks[b] are separated by a comma and
// spaces.
func (t *text) comma(a, b int) bool {
	if a < 0 || b >= len(t.toks) {
		return false
	}
	return strings.TrimSpace(string(t.rs[t.toks[a].end:t.toks[b].start])) == ","
}

// wordAt returns the lower-case text of toks[k], or "" outside the text.
func (t *text) wordAt(k int) string {
	if k < 0 || k >= len(t.toks) {
		return ""
	}
	return t.toks[k].lower
}

// joined reports whether toks[a] and toks[b] (b = a+1) are separated by
// spaces alone, or a comma and spaces ("Page, Will").
func (t *text) joined(a, b int) bool {
	if a < 0 || b >= len(t.toks) {
		return false
	}
	between := strings.TrimSpace(string(t.rs[t.toks[a].end:t.toks[b].start]))
	return (between == "" || between == ",") && t.toks[a].end < t.toks[b].start
}

// plain reports whether toks[k] is a word of the language that is no
// name, nor a word introducing one.
func (t *text) plain(k int) bool {
	if k < 0 || k >= len(t.toks) {
		return false
	}
	w := t.toks[k]
	return !w.digits && w.known && w.flags == 0 && !personCues[w.lower] && (!w.decided || w.keep)
}

// inPhrase reports whether toks[k] stands in a capitalised phrase of
// ordinary words: a neighbour written like it is a plain word.
func (t *text) inPhrase(k int) bool {
	after := k + 1
	if after < len(t.toks) && t.possessiveS(after) {
		after++ // "Driver's License"
	}
	for _, n := range [...]int{k - 1, after} {
		if n >= 0 && n < len(t.toks) && (n < k && t.joined(n, k) || n > k && t.joined(n-1, n)) && t.alike(n, k) && t.toks[k].title &&
			t.plain(n) && !(n < k && t.sentenceStart(n) && !t.toks[n].upper) {
			return true
		}
	}
	return false
}

// alike reports whether toks[a] and toks[b] are written alike (both
// capitalised, both in capitals, both in lower case), as the words of one
// name are; in a text whose capitals say nothing, any two are.
func (t *text) alike(a, b int) bool {
	if t.caps {
		return true
	}
	x, y := t.toks[a], t.toks[b]
	return x.title == y.title && x.upper == y.upper
}

// nameLike reports whether toks[k] is a name here: judged one already, or
// a word the filter does not know written as a name ("Nguyen", "NGUYEN").
func (t *text) nameLike(k int) bool {
	w := t.toks[k]
	if w.name {
		return true
	}
	if w.digits || w.known || !w.decided || w.keep {
		return false
	}
	if anyTrue(t.deny[w.start:w.end]) {
		return false
	}
	return w.title || w.upper || strings.IndexFunc(w.lower, func(r rune) bool { return !unicode.IsLetter(r) }) < 0
}

// sentenceStart reports whether toks[k] starts a sentence: nothing but
// quotes, brackets and spaces stand between it and the text's start or a
// sentence's end (. ! ? : ;).
func (t *text) sentenceStart(k int) bool {
	for i := t.toks[k].start - 1; i >= 0; i-- {
		switch r := t.rs[i]; {
		case (r == '-' || r == '–' || r == '—') && i > 0 && t.rs[i-1] == ' ' && i+1 < len(t.rs) && t.rs[i+1] == ' ':
			return true // a dash between spaces starts a clause
		case r == ' ' || strings.ContainsRune("([{<-–—*", r):
		case strings.ContainsRune(".!?:;", r):
			return true
		default:
			return false
		}
	}
	return true
}

// sentenceEnd reports whether toks[k] is the text's last word, or a
// sentence's (. ! ?).
func (t *text) sentenceEnd(k int) bool {
	for i := t.toks[k].end; i < len(t.rs); i++ {
		switch r := t.rs[i]; {
		case r == ' ':
		case strings.ContainsRune(".!?", r):
			return true
		default:
			return false
		}
	}
	return true
}

// honorifics are the person cues that are also abbreviations in
// capitals ("MX record", "DR site", "MS Word").
var honorifics = set("mr", "mrs", "ms", "mx", "dr", "miss")

// abbreviation reports whether toks[k], an honorific, is written in
// capitals in a text whose capitals say something: an abbreviation,
// introducing no one.
func (t *text) abbreviation(k int) bool {
	return honorifics[t.toks[k].lower] && t.toks[k].upper && !t.caps
}

// bracketAfter reports whether an opening bracket follows toks[k]: a
// name's gloss ("Frank hill (caregiver)").
func (t *text) bracketAfter(k int) bool {
	rest := strings.TrimLeft(string(t.rs[t.toks[k].end:min(t.toks[k].end+3, len(t.rs))]), " ")
	return strings.HasPrefix(rest, "(")
}

// boundaryAfter reports whether toks[k] ends a sentence or a clause: the
// text's end, or punctuation other than a hyphen or an apostrophe.
func (t *text) boundaryAfter(k int) bool {
	for i := t.toks[k].end; i < len(t.rs); i++ {
		switch r := t.rs[i]; {
		case r == ' ':
		case strings.ContainsRune(".!?:;,()[]{}\"”–—", r):
			return true
		case r == '-' && i > t.toks[k].end && i+1 < len(t.rs) && t.rs[i+1] == ' ':
			return true // a spaced hyphen, a dash
		default:
			return false
		}
	}
	return true
}

// phrases are the platform's documented phrases whose words are
// capitalised inside them (a carrier's service, a cancellation reason, an
// identity document): kept whole, as the documents write them.
var phrases = sync.OnceValue(func() [][]rune {
	var out [][]rune
	seen := map[string]bool{}
	for _, list := range [...][]string{documented, simulated, enums} {
		for _, s := range list {
			for _, p := range strings.FieldsFunc(s, func(r rune) bool { return strings.ContainsRune(";,.()", r) }) {
				p = strings.TrimSpace(p)
				ws := strings.Fields(p)
				if len(ws) < 2 || seen[p] {
					continue
				}
				inner := false
				for _, w := range ws[1:] {
					if t, u := caseOf([]rune(w)); t || u {
						inner = true
					}
				}
				if inner {
					seen[p] = true
					out = append(out, []rune(p))
				}
			}
		}
	}
	return out
})
