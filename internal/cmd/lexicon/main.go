// Command lexicon writes the word lists package safetext judges the
// platform's words by (internal/safetext/lexicon): the words of the
// English language, and those of them that are also people's first names
// or surnames or the names of towns and cities. Its inputs are plain text
// lists that internal/safetext/lexicon/refresh.sh extracts from the
// packages that maintain them; see internal/safetext/lexicon/SOURCES.md.
//
//	lexicon -words words.txt -first first.txt -last last.txt -cities cities.tsv -out DIR
//
// words.txt holds one word a line; first.txt one first name a line;
// last.txt one surname a line, most frequent first; cities.tsv a name, a
// tab and a population a line.
package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Cut-offs, documented in SOURCES.md: a surname among the most frequent
// commonSurnames is judged a name even when written in lower case next to
// a person's role; the rest of the list only when its form says so (a
// capital inside a sentence). A one-word town of at least minTown people,
// and each word of a longer name of a city of at least minCityWords, is a
// place name.
const (
	commonSurnames = 20000
	minTown        = 1000
	minCityWords   = 100000
)

// Flags of a name, as written to names.txt.
const (
	flagFirst    = 'F' // a first name
	flagSurname  = 'L' // a common surname
	flagRareName = 'l' // a surname beyond the common ones
	flagPlace    = 'C' // a town or city
)

func main() {
	wordsPath := flag.String("words", "", "English words, one a line")
	firstPath := flag.String("first", "", "first names, one a line")
	lastPath := flag.String("last", "", "surnames, most frequent first, one a line")
	citiesPath := flag.String("cities", "", "towns and cities: name TAB population, one a line")
	out := flag.String("out", ".", "directory to write english.txt.gz and names.txt.gz to")
	flag.Parse()
	if err := run(*wordsPath, *firstPath, *lastPath, *citiesPath, *out); err != nil {
		log.Fatal(err)
	}
}

func run(wordsPath, firstPath, lastPath, citiesPath, out string) error {
	words, err := lines(wordsPath)
	if err != nil {
		return err
	}
	english := map[string]bool{}
	for _, w := range words {
		if plain(w) {
			english[w] = true
		}
	}
	flags := map[string]map[rune]bool{}
	add := func(name string, f rune) {
		for _, w := range strings.Fields(strings.ToLower(name)) {
			if !english[w] {
				continue // not a word of the language: the filter redacts it anyway
			}
			if flags[w] == nil {
				flags[w] = map[rune]bool{}
			}
			flags[w][f] = true
		}
	}
	first, err := lines(firstPath)
	if err != nil {
		return err
	}
	for _, n := range first {
		add(n, flagFirst)
	}
	last, err := lines(lastPath)
	if err != nil {
		return err
	}
	for i, n := range last {
		if i < commonSurnames {
			add(n, flagSurname)
		} else {
			add(n, flagRareName)
		}
	}
	cities, err := lines(citiesPath)
	if err != nil {
		return err
	}
	for _, l := range cities {
		name, pop, ok := strings.Cut(l, "\t")
		n, err := strconv.Atoi(pop)
		if !ok || err != nil {
			return fmt.Errorf("%s: %q is not NAME<TAB>POPULATION", citiesPath, l)
		}
		if len(strings.Fields(name)) == 1 && n >= minTown || n >= minCityWords {
			add(name, flagPlace)
		}
	}

	list := make([]string, 0, len(english))
	for w := range english {
		list = append(list, w)
	}
	slices.Sort(list)
	var names []string
	for _, w := range list {
		if f := flags[w]; f != nil {
			var b strings.Builder
			for _, r := range []rune{flagFirst, flagSurname, flagRareName, flagPlace} {
				if f[r] {
					b.WriteRune(r)
				}
			}
			names = append(names, w+" "+b.String())
		}
	}
	if err := writeGzip(filepath.Join(out, "english.txt.gz"), list); err != nil {
		return err
	}
	return writeGzip(filepath.Join(out, "names.txt.gz"), names)
}

// plain reports whether w is a word of lower-case ASCII letters: the
// lists' capitalised entries are proper nouns and abbreviations, and
// their few accented loan words are not the platform's.
func plain(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return false
		}
	}
	return w != ""
}

func lines(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []string
	s := bufio.NewScanner(f)
	for s.Scan() {
		if l := strings.TrimSpace(s.Text()); l != "" {
			out = append(out, l)
		}
	}
	return out, s.Err()
}

// writeGzip writes the lines to path, gzipped at the best compression,
// with no name or time in the header, so the same lists give the same
// bytes.
func writeGzip(path string, list []string) error {
	var b bytes.Buffer
	z, err := gzip.NewWriterLevel(&b, gzip.BestCompression)
	if err != nil {
		return err
	}
	for _, l := range list {
		z.Write([]byte(l))
		z.Write([]byte{'\n'})
	}
	if err := z.Close(); err != nil {
		return err
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}
