package safetext

import "testing"

// BenchmarkText judges one message of the corpus' kind with the second
// line of a create: the cost of one error's safe rendering.
func BenchmarkText(b *testing.B) {
	f := call()
	const msg = "Dropoff address 12 Elm St could not be geocoded for Recipient Will Page; same-day cutoff passed at 14:00, fee $45.00"
	lex()
	b.ReportAllocs()
	for range b.N {
		f.Text(msg)
	}
}

// BenchmarkLexicon unpacks the word lists, which a process does once, on
// its first error.
func BenchmarkLexicon(b *testing.B) {
	b.ReportAllocs()
	for range b.N {
		l := &lexicon{words: gunzip(englishGz)}
		_ = l
		gunzip(namesGz)
	}
}
