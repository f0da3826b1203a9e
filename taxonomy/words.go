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

// TextTokens are the distinct meaningful words of s.
func TextTokens(s string) []string {
	var out []string
	for _, w := range Words(s) {
		if !stopwords[w] && !contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

// TitleTokens are textTokens with "vice president" read as "vp" and
// common abbreviations expanded.
func TitleTokens(s string) []string {
	ws := Words(s)
	var out []string
	add := func(w string) {
		if !stopwords[w] && !contains(out, w) {
			out = append(out, w)
		}
	}
	for i := 0; i < len(ws); i++ {
		w := ws[i]
		if w == "vice" && i+1 < len(ws) && ws[i+1] == "president" {
			add("vp")
			i++
			continue
		}
		if syn, ok := titleSynonyms[w]; ok {
			for _, s := range syn {
				add(s)
			}
			continue
		}
		add(w)
	}
	return out
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}
