package demo

import (
	"strings"
	"sync"
)

// CompanyTLD is the top-level domain of every demo company: .example is
// reserved for documentation (RFC 2606, RFC 6761 section 6.5) and never
// delegated, so no real domain can be under it, and none has mail
// servers.
const CompanyTLD = "example"

// domainWords are the lowercase brand parts and nouns company domains
// are made of.
type domainWords struct{ heads, tails, nouns map[string]bool }

var companyWords = sync.OnceValue(func() domainWords {
	w := domainWords{heads: map[string]bool{}, tails: map[string]bool{}, nouns: map[string]bool{}}
	for _, h := range brandHeads {
		w.heads[strings.ToLower(h)] = true
	}
	for _, t := range brandTails {
		w.tails[t] = true
	}
	for _, n := range nouns {
		w.nouns[strings.ToLower(n)] = true
	}
	return w
})

// IsCompanyDomain reports whether domain (lowercase, without a trailing
// dot) is one the generator gives companies: "<brand>-<noun>.example",
// where the brand is a head and a tail of its word tables and the noun
// an industry's, optionally followed by "-n" (n ≥ 2) for the nth company
// that drew the same pair: "northwind-labs.example",
// "bluepeak-cloud-3.example". Anything else, and every name outside the
// reserved .example TLD, is not.
func IsCompanyDomain(domain string) bool {
	label, ok := strings.CutSuffix(domain, "."+CompanyTLD)
	if !ok || strings.Contains(label, ".") {
		return false
	}
	parts := strings.Split(label, "-")
	switch len(parts) {
	case 2:
	case 3:
		if !counter(parts[2]) {
			return false
		}
	default:
		return false
	}
	w := companyWords()
	if !w.nouns[parts[1]] {
		return false
	}
	for i := 1; i < len(parts[0]); i++ {
		if w.heads[parts[0][:i]] && w.tails[parts[0][i:]] {
			return true
		}
	}
	return false
}

// counter reports whether s is a decimal of at least 2 without leading
// zeros.
func counter(s string) bool {
	if s == "" || s[0] == '0' || (len(s) == 1 && s[0] == '1') {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
