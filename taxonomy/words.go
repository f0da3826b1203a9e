package taxonomy

import (
	"strings"
	"unicode"
)

// stopwords carry no meaning in titles, names and places.
var stopwords = map[string]bool{
	"of": true, "the": true, "and": true, "for": true, "at": true, "in": true, "to": true, "a": true, "an": true,
	"on": true, "with": true, "de": true,
}

// titleSynonyms make abbreviations and their spelled-out forms the same
// word: "VP Sales" and "Vice President of Sales" index alike.
var titleSynonyms = map[string][]string{
	"svp": {"senior", "vp"}, "evp": {"executive", "vp"}, "sr": {"senior"}, "jr": {"junior"},
	"mgr": {"manager"}, "dir": {"director"}, "snr": {"senior"}, "ops": {"operations"},
	"hr": {"people"}, "vpe": {"vp", "engineering"},
}

// Words splits text into lowercase words: letters and digits, anything
// else separates.
func Words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// TextTokens are the distinct meaningful words of s, in order.
func TextTokens(s string) []string {
	var d distinct
	for _, w := range Words(s) {
		d.add(w)
	}
	return d.out
}

// TitleTokens are textTokens with "vice president" read as "vp" and
// common abbreviations expanded.
func TitleTokens(s string) []string {
	ws := Words(s)
	var d distinct
	for i := 0; i < len(ws); i++ {
		w := ws[i]
		if w == "vice" && i+1 < len(ws) && ws[i+1] == "president" {
			d.add("vp")
			i++
			continue
		}
		if syn, ok := titleSynonyms[w]; ok {
			for _, s := range syn {
				d.add(s)
			}
			continue
		}
		d.add(w)
	}
	return d.out
}

// setAfter is how many words distinct keeps before it indexes them: a
// title or a place has a handful, which a scan checks faster than a map,
// but a description (indexed) or a hostile filter value holds thousands,
// and scanning for each made tokenising quadratic (50 keywords of 2,500
// words took seconds per request).
const setAfter = 32

// distinct collects meaningful words without repeats in time linear in
// their number.
type distinct struct {
	out  []string
	seen map[string]struct{}
}

func (d *distinct) add(w string) {
	if stopwords[w] {
		return
	}
	if d.seen != nil {
		if _, dup := d.seen[w]; dup {
			return
		}
		d.seen[w] = struct{}{}
	} else if contains(d.out, w) {
		return
	} else if len(d.out) == setAfter {
		d.seen = make(map[string]struct{}, 4*setAfter)
		for _, x := range d.out {
			d.seen[x] = struct{}{}
		}
		d.seen[w] = struct{}{}
	}
	d.out = append(d.out, w)
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}
