package email

import "strings"

// parseAddress lowercases s and splits it into local part and domain.
// ok is false unless both pass validLocal and validDomain and the whole
// address fits the 254 octets SMTP allows in a path.
func parseAddress(s string) (local, domain string, ok bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	i := strings.LastIndexByte(s, '@')
	if i < 0 || len(s) > 254 {
		return "", "", false
	}
	local, domain = s[:i], s[i+1:]
	if !validLocal(local) || !validDomain(domain) {
		return "", "", false
	}
	return local, domain, true
}

// validLocal is the practical subset of RFC 5321 that real mailboxes
// use: dot-atoms of atext, at most 64 octets. Quoted local parts are
// refused because no work address generator produces them.
func validLocal(s string) bool {
	if s == "" || len(s) > 64 || s[0] == '.' || s[len(s)-1] == '.' || strings.Contains(s, "..") {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' {
			continue
		}
		if !strings.ContainsRune("!#$%&'*+/=?^_`{|}~-", rune(c)) {
			return false
		}
	}
	return true
}

// validDomain wants at least two labels of letters, digits and inner
// hyphens, each at most 63 octets, 253 in all, and a top-level label
// that is not all digits (so no bare IP addresses).
func validDomain(s string) bool {
	if len(s) > 253 {
		return false
	}
	labels := strings.Split(s, ".")
	if len(labels) < 2 {
		return false
	}
	for _, l := range labels {
		if l == "" || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
			return false
		}
		for i := 0; i < len(l); i++ {
			c := l[i]
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-') {
				return false
			}
		}
	}
	return strings.Trim(labels[len(labels)-1], "0123456789") != ""
}

// foldName turns a name as written into the lowercase ASCII that
// address patterns are built from: accents are stripped ("é" is "e"),
// a few letters are spelled out ("ß" is "ss") and everything that is not
// a letter, such as apostrophes, hyphens, dots and spaces, is dropped, so
// "O'Neil" is "oneil" and "Anne-Marie" is "annemarie". Scripts other
// than Latin fold to "".
func foldName(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' {
			b.WriteRune(r)
		} else if f, ok := latinFold[r]; ok {
			b.WriteString(f)
		}
	}
	return b.String()
}

// latinFold maps the accented and special Latin letters of European and
// Vietnamese names to ASCII. The standard library has no Unicode
// decomposition, and golang.org/x/text is not worth a dependency here.
var latinFold = func() map[rune]string {
	groups := map[string]string{
		"a":  "àáâãäåāăąǎǻạảấầẩẫậắằẳẵặ",
		"c":  "çćĉċč",
		"d":  "ďđð",
		"e":  "èéêëēĕėęěẹẻẽếềểễệ",
		"g":  "ĝğġģ",
		"h":  "ĥħ",
		"i":  "ìíîïĩīĭįıǐịỉ",
		"j":  "ĵ",
		"k":  "ķ",
		"l":  "ĺļľŀł",
		"n":  "ñńņňŉ",
		"o":  "òóôõöøōŏőǒơọỏốồổỗộớờởỡợ",
		"r":  "ŕŗř",
		"s":  "śŝşšș",
		"t":  "ţťŧț",
		"u":  "ùúûüũūŭůűųǔưụủứừửữự",
		"w":  "ŵ",
		"y":  "ýÿŷỳỵỷỹ",
		"z":  "źżž",
		"ss": "ß",
		"ae": "æ",
		"oe": "œ",
		"th": "þ",
		"ij": "ĳ",
	}
	m := make(map[rune]string)
	for ascii, letters := range groups {
		for _, r := range letters {
			m[r] = ascii
		}
	}
	return m
}()
