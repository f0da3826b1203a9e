package taxonomy

import (
	"strings"
	"sync"
	"unicode"
)

// A place name's entry in the location index: the country it is in and
// what kind of name it is.
type placeEntry struct {
	code string
	kind placeKind
}

type placeKind uint8

const (
	placeState       placeKind = iota + 1 // a US state's name
	placeSubdivision                      // a province or state elsewhere
	placeCity
)

type locationIndex struct {
	byKey    map[string]placeEntry // lookup key (appendCountryKey) -> entry
	usCodes  map[string]bool       // "TX", "CA", ...
	cityCode map[string]string     // city key -> country, for "Berlin, DE"
	places   *strings.Replacer     // turns " or " into a place separator
	dashes   *strings.Replacer     // turns spaced and long dashes into a segment separator
}

var locations = sync.OnceValue(func() *locationIndex {
	idx := &locationIndex{
		byKey:    make(map[string]placeEntry, len(usStates)+len(subdivisions)+len(cities)),
		usCodes:  make(map[string]bool, len(usStates)),
		cityCode: make(map[string]string, len(cities)),
		places:   strings.NewReplacer(" or ", ";", " OR ", ";", " Or ", ";"),
		dashes:   strings.NewReplacer(" - ", ",", " – ", ",", " — ", ",", "–", ",", "—", ","),
	}
	for _, s := range usStates {
		idx.usCodes[s[0]] = true
		idx.byKey[string(appendCountryKey(nil, s[1]))] = placeEntry{"US", placeState}
	}
	for _, s := range subdivisions {
		idx.byKey[string(appendCountryKey(nil, s[0]))] = placeEntry{s[1], placeSubdivision}
	}
	for _, c := range cities {
		key := string(appendCountryKey(nil, c[0]))
		idx.byKey[key] = placeEntry{c[1], placeCity}
		idx.cityCode[key] = c[1]
	}
	return idx
})

// LocationCountry returns the ISO 3166-1 alpha-2 code of the country a
// free-text location names, as job boards write them: "Berlin, Germany",
// "New York, NY, United States", "Austin, TX", "Remote - US", "London",
// "Toronto, ON", "US-Remote". It returns ("", false) when no country can be
// told ("Remote", "EMEA", "Anywhere") or when the text names places in
// different countries ("New York / London").
//
// The text is cut into places at ";", "|", "/", "•", newlines and " or ",
// and each place into segments at commas, brackets, colons and spaced
// dashes. Segments are read from the last one back, the first that names
// something wins:
//   - a two-letter upper-case US state code after another segment is the
//     United States ("Austin, TX", "Portland, OR"), unless the segment
//     before is a known city of the country with that code ("Berlin, DE");
//     so is a US state's name after another segment ("Atlanta, Georgia");
//   - a country's code, name or alias (see NormalizeCountry);
//   - a US state's name, a Canadian province or territory, an Australian
//     state, a UK nation, a few European regions;
//   - a known employment hub city (London, Berlin, Bangalore, ...);
//   - failing all that, runs of up to four words inside the segment, so
//     "Remote US" and "Hybrid in Berlin" are read too (words of three
//     letters or fewer count only when written in capitals).
//
// "Worldwide" and the like name no country here: a posting open anywhere
// has none.
func LocationCountry(text string) (string, bool) {
	if len(text) > 1024 {
		text = text[:1024]
	}
	idx := locations()
	found := ""
	for _, place := range idx.splitPlaces(text) {
		code := idx.placeCountry(place)
		if code == "" {
			continue
		}
		if found != "" && found != code {
			return "", false
		}
		found = code
	}
	return found, found != ""
}

func (idx *locationIndex) splitPlaces(s string) []string {
	s = idx.places.Replace(s)
	return strings.FieldsFunc(s, func(r rune) bool {
		return r == ';' || r == '|' || r == '/' || r == '•' || r == '\n' || r == '\r'
	})
}

func (idx *locationIndex) splitSegments(place string) []string {
	place = idx.dashes.Replace(place)
	var segs []string
	for _, s := range strings.FieldsFunc(place, func(r rune) bool {
		return r == ',' || r == '(' || r == ')' || r == '[' || r == ']' || r == ':'
	}) {
		if s = strings.TrimSpace(s); s != "" {
			segs = append(segs, s)
		}
	}
	return segs
}

func (idx *locationIndex) placeCountry(place string) string {
	segs := idx.splitSegments(place)
	for i := len(segs) - 1; i >= 0; i-- {
		seg := segs[i]
		if i > 0 && isUpperCode(seg, 2) && idx.usCodes[seg] {
			var buf [96]byte
			if c, ok := idx.cityCode[string(appendCountryKey(buf[:0], segs[i-1]))]; ok && c == seg {
				return c
			}
			return "US"
		}
		// "Atlanta, Georgia" is in the United States, "Georgia" alone is not.
		var buf [96]byte
		if i > 0 && idx.byKey[string(appendCountryKey(buf[:0], seg))].kind == placeState {
			return "US"
		}
		if code := idx.lookup(seg, true); code != "" {
			return code
		}
	}
	for i := len(segs) - 1; i >= 0; i-- {
		if code := idx.wordsCountry(segs[i]); code != "" {
			return code
		}
	}
	return ""
}

// lookup reads s whole as a country, a subdivision or a city. short says
// whether codes of two or three letters in any case are accepted.
func (idx *locationIndex) lookup(s string, short bool) string {
	if !short && len(s) <= 3 && !isUpperCode(s, len(s)) {
		return ""
	}
	if code, ok := NormalizeCountry(s); ok {
		if code == WorldCode {
			return ""
		}
		return code
	}
	var buf [96]byte
	key := appendCountryKey(buf[:0], s)
	if e, ok := idx.byKey[string(key)]; ok {
		return e.code
	}
	return ""
}

// wordsCountry tries runs of up to four words of seg, longest and
// rightmost first.
func (idx *locationIndex) wordsCountry(seg string) string {
	words := strings.FieldsFunc(seg, func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '\'' || r == '.' || r == '\u2019')
	})
	if len(words) < 2 {
		return ""
	}
	for n := min(4, len(words)); n >= 1; n-- {
		for i := len(words) - n; i >= 0; i-- {
			if code := idx.lookup(strings.Join(words[i:i+n], " "), false); code != "" {
				return code
			}
		}
	}
	return ""
}

func isUpperCode(s string, n int) bool {
	if len(s) != n || n < 2 || n > 3 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 'A' || s[i] > 'Z' {
			return false
		}
	}
	return true
}
