package input_test

import (
	"strings"
	"testing"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/input"
)

// The readers' messages name the field first: front ends other than the
// HTTP API (which tests every message through its requests) rely on it.
func TestMessagesNameTheField(t *testing.T) {
	ten := 10
	for _, c := range []struct {
		err  error
		want string
	}{
		{input.Len("name", strings.Repeat("é", input.MaxText+1), input.MaxText), "name: at most 200 characters"},
		{second(input.List("titles", []string{"VP", " "})), "titles[1]: must not be empty"},
		{second(input.Industries("industry", []string{"saas", "knitting"})), `industry[1]: unknown industry "knitting"`},
		{second(input.Bounded("max_contacts", &ten, 1, 5, 3)), "max_contacts: must be between 1 and 5"},
		{second(input.Int("page", "x", 1, 9, 1)), "page: must be an integer between 1 and 9"},
		{second(input.Time("since", "yesterday", false)), `since: "yesterday" is not a date`},
		{second(input.IdempotencyKey("Idempotency-Key", " ")), "Idempotency-Key: must be one value"},
		{second(input.Places("locations", []string{"ZZ"})), `locations[0]: unknown country code "ZZ"`},
	} {
		if prospector.ErrorCode(c.err) != prospector.EINVALID || !strings.HasPrefix(prospector.ErrorMessage(c.err), c.want) {
			t.Errorf("%v, want a validation error starting %q", c.err, c.want)
		}
	}
	if k, err := input.IdempotencyKey("k", " retry-1 "); k != "retry-1" || err != nil {
		t.Errorf("key %q, %v", k, err)
	}
}

func second[T any](_ T, err error) error { return err }
