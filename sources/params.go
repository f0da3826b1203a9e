package sources

import (
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/prospectorhq/prospector"
)

// The checks of request parameters given as text, each error an
// EINVALID starting with the parameter's name.

// maxDomainText bounds a company_domain parameter, which may be given as
// a URL.
const maxDomainText = 2048

func invalid(name, format string, args ...any) error {
	return prospector.Errorf(prospector.EINVALID, "%s: "+format, append([]any{name}, args...)...)
}

// companyDomain reads the required company_domain, normalised.
func companyDomain(v string) (string, error) {
	if v == "" {
		return "", invalid("company_domain", "required")
	}
	if len(v) > maxDomainText && utf8.RuneCountInString(v) > maxDomainText {
		return "", invalid("company_domain", "at most %d characters", maxDomainText)
	}
	norm := prospector.NormalizeDomain(v)
	if norm == "" {
		return "", invalid("company_domain", "%q is not a domain", v)
	}
	return norm, nil
}

// boolean reads an optional true/false parameter; absent is false.
func boolean(name, v string) (bool, error) {
	switch v {
	case "", "false":
		return false, nil
	case "true":
		return true, nil
	}
	return false, invalid(name, "must be true or false")
}

// integer reads an optional integer parameter with inclusive bounds.
func integer(name, v string, lo, hi, def int) (int, error) {
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, invalid(name, "must be an integer between %d and %d", lo, hi)
	}
	if n < lo || n > hi {
		return 0, invalid(name, "must be between %d and %d", lo, hi)
	}
	return n, nil
}

// since reads an optional lower time bound: a day (YYYY-MM-DD, UTC, from
// its first instant) or an RFC 3339 timestamp.
func since(name, v string) (*time.Time, error) {
	if v == "" {
		return nil, nil
	}
	if d, err := time.Parse(time.DateOnly, v); err == nil {
		return &d, nil
	}
	t, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		return nil, invalid(name, "%q is not a date (YYYY-MM-DD) or an RFC 3339 timestamp (2026-01-31T09:30:00Z; encode + as %%2B)", v)
	}
	t = t.UTC()
	return &t, nil
}
