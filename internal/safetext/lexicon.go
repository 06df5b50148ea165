package safetext

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"io"
	"sort"
	"strings"
	"sync"
)

// The word lists of lexicon/ (SOURCES.md there says where they come from,
// under which licences, and how they are refreshed): the words of the
// English language, and those of them that are also people's names or
// places. They are read once, on the first judgement: a program whose
// calls all succeed never unpacks them.
var (
	//go:embed lexicon/english.txt.gz
	englishGz []byte
	//go:embed lexicon/names.txt.gz
	namesGz []byte
)

// nameFlags says of a word of the language what names it also is.
type nameFlags uint8

const (
	firstName   nameFlags = 1 << iota // a person's first name
	surname                           // one of the common surnames
	rareSurname                       // a surname beyond the common ones
	place                             // a town or a city
)

// personal reports whether the word is a first name or a common surname.
func (f nameFlags) personal() bool { return f&(firstName|surname) != 0 }

// lexicon is the unpacked lists: the English words as one sorted,
// newline-joined string with the offset of each word, and the names.
type lexicon struct {
	words string
	offs  []uint32
	names map[string]nameFlags
}

var lex = sync.OnceValue(func() *lexicon {
	l := &lexicon{words: gunzip(englishGz), names: map[string]nameFlags{}}
	l.offs = make([]uint32, 0, strings.Count(l.words, "\n"))
	for i := 0; i < len(l.words); {
		l.offs = append(l.offs, uint32(i))
		j := strings.IndexByte(l.words[i:], '\n')
		if j < 0 {
			break
		}
		i += j + 1
	}
	for _, line := range strings.Split(gunzip(namesGz), "\n") {
		w, flags, ok := strings.Cut(line, " ")
		if !ok {
			continue
		}
		var f nameFlags
		for _, c := range flags {
			switch c {
			case 'F':
				f |= firstName
			case 'L':
				f |= surname
			case 'l':
				f |= rareSurname
			case 'C':
				f |= place
			}
		}
		l.names[w] = f
	}
	return l
})

// gunzip unpacks an embedded list; the lists are the package's own files,
// so a list that does not unpack is a broken build.
func gunzip(b []byte) string {
	z, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		panic("safetext: a word list does not unpack: " + err.Error())
	}
	out, err := io.ReadAll(z)
	if err != nil {
		panic("safetext: a word list does not unpack: " + err.Error())
	}
	return string(out)
}

// word returns the i-th word of the list.
func (l *lexicon) word(i int) string {
	s := l.words[l.offs[i]:]
	if j := strings.IndexByte(s, '\n'); j >= 0 {
		s = s[:j]
	}
	return s
}

// English reports whether w (lower case) is a word of the language.
func (l *lexicon) english(w string) bool {
	i := sort.Search(len(l.offs), func(i int) bool { return l.word(i) >= w })
	return i < len(l.offs) && l.word(i) == w
}

// English reports whether w, in any case, is a word of the English
// language by the package's word list.
func English(w string) bool { return lex().english(strings.ToLower(w)) }

// calendar holds the names of the days and months and their
// abbreviations: words of the language the lists keep as proper nouns.
var calendar = map[string]bool{
	"monday": true, "tuesday": true, "wednesday": true, "thursday": true, "friday": true, "saturday": true,
	"sunday": true, "mon": true, "tue": true, "tues": true, "wed": true, "thu": true, "thur": true, "thurs": true,
	"fri": true, "sat": true, "sun": true, "january": true, "february": true, "march": true, "april": true,
	"may": true, "june": true, "july": true, "august": true, "september": true, "october": true, "november": true,
	"december": true, "jan": true, "feb": true, "mar": true, "apr": true, "jun": true, "jul": true, "aug": true,
	"sep": true, "sept": true, "oct": true, "nov": true, "dec": true,
}
