// Package input reads the values of requests: trimmed, bounded,
// normalised to the taxonomy and checked, each failure a validation error
// (prospector.EINVALID) whose message starts with the field's name. The
// request types of the workflows (radar.CreateRequest,
// contacts.FindRequest...) validate themselves with it, so the HTTP API
// and any other front end that builds those requests give the same
// answers to the same values. It depends on the root package and the
// taxonomy only.
package input

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/prospectorhq/prospector"
)

// Bounds of the free text a request may carry (docs/decisions.md,
// "Request bounds"), counted in characters after surrounding blanks are
// trimmed. Every text value of every request has one, so the work a
// request can cause is bounded by its size; api/openapi.json states them
// as maxLength.
const (
	// MaxText bounds a name, title, keyword, location, industry or any
	// other filter value, alone or in a list.
	MaxText = 200
	// MaxURLText bounds a URL, and a company domain or identifier, which
	// may be given as a URL.
	MaxURLText = 2048
)

// Errorf returns a validation error naming field: "field: message".
func Errorf(field, format string, args ...any) error {
	return prospector.Errorf(prospector.EINVALID, "%s: %s", field, fmt.Sprintf(format, args...))
}

// Str reads an optional string field; null, "" and blanks mean absent.
func Str(p *string) string {
	if p == nil {
		return ""
	}
	return strings.TrimSpace(*p)
}

// Len returns a validation error naming field when v has more than max
// characters; it reads v once.
func Len(field, v string, max int) error {
	if len(v) > max && utf8.RuneCountInString(v) > max {
		return Errorf(field, "at most %d characters", max)
	}
	return nil
}

// Text reads an optional string field: trimmed, "" when absent or null,
// and at most max characters.
func Text(field string, p *string, max int) (string, error) {
	v := Str(p)
	return v, Len(field, v, max)
}

// Truncate cuts s to n characters and marks the cut, to quote a value
// that may be long in a message.
func Truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "..."
}

// IdempotencyKey checks an Idempotency-Key that was given: 1 to 255
// visible ASCII characters once surrounding blanks are trimmed.
func IdempotencyKey(field, v string) (string, error) {
	k := strings.TrimSpace(v)
	if k == "" || len(k) > 255 {
		return "", Errorf(field, "must be one value of 1 to 255 visible ASCII characters")
	}
	for i := 0; i < len(k); i++ {
		if k[i] < 0x21 || k[i] > 0x7e {
			return "", Errorf(field, "must be one value of 1 to 255 visible ASCII characters")
		}
	}
	return k, nil
}

// KnownCompany turns a company lookup's ErrNotFound into the caller's
// 404, the contract's "company data unavailable", naming the field and
// the value looked up; other results pass through.
func KnownCompany(c *prospector.Company, err error, field, value string) (*prospector.Company, error) {
	if errors.Is(err, prospector.ErrNotFound) {
		return nil, prospector.Errorf(prospector.ENOTFOUND, "company data unavailable for %s %s", field, value)
	}
	return c, err
}
