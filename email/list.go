package email

import (
	_ "embed"
	"strings"
)

//go:embed disposable.txt
var disposableText string

// disposableDomains is parsed once from disposable.txt; it is read-only.
var disposableDomains = func() map[string]bool {
	m := make(map[string]bool)
	for _, line := range strings.Split(disposableText, "\n") {
		line = strings.TrimSpace(line)
		if line != "" && !strings.HasPrefix(line, "#") {
			m[strings.ToLower(line)] = true
		}
	}
	return m
}()

// isDisposable reports whether domain, or a domain it is under, is a
// throwaway mail provider.
func isDisposable(domain string) bool {
	for d := domain; ; {
		if disposableDomains[d] {
			return true
		}
		i := strings.IndexByte(d, '.')
		if i < 0 {
			return false
		}
		d = d[i+1:]
	}
}

// roleLocals are local parts of shared mailboxes rather than people.
var roleLocals = map[string]bool{
	"abuse": true, "accounting": true, "accounts": true, "admin": true,
	"administrator": true, "billing": true, "careers": true, "contact": true,
	"customerservice": true, "enquiries": true, "feedback": true,
	"finance": true, "hello": true, "help": true, "helpdesk": true,
	"hostmaster": true, "hr": true, "info": true, "inquiries": true,
	"jobs": true, "legal": true, "mail": true, "marketing": true,
	"media": true, "news": true, "newsletter": true, "no-reply": true,
	"noreply": true, "do-not-reply": true, "donotreply": true,
	"office": true, "orders": true, "postmaster": true, "press": true,
	"privacy": true, "recruiting": true, "reservations": true, "root": true,
	"sales": true, "security": true, "service": true, "support": true,
	"team": true, "webmaster": true,
}

// isRole reports whether local names a shared mailbox such as info@.
func isRole(local string) bool { return roleLocals[local] }
