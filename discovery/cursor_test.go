package discovery

import (
	"testing"

	"github.com/prospectorhq/prospector"
)

// A cursor reads back only for the query and key it was made with.
func TestCursor(t *testing.T) {
	s := &Service{CursorKey: []byte("k1")}
	fp := queryFingerprint("search/people", prospector.PersonQuery{Titles: []string{"VP Sales"}})
	c := s.signCursor(fp, prospector.SearchPosition{Tier: 2, After: 99})
	if pos, err := s.readCursor(c, fp); err != nil || pos != (prospector.SearchPosition{Tier: 2, After: 99}) {
		t.Fatalf("read back %+v, %v", pos, err)
	}
	other := queryFingerprint("search/people", prospector.PersonQuery{Titles: []string{"CTO"}})
	if _, err := s.readCursor(c, other); prospector.ErrorMessage(err) !=
		"cursor: made for a different query; send the same filters as the request that returned it" {
		t.Fatalf("another query: %v", err)
	}
	if _, err := (&Service{CursorKey: []byte("k2")}).readCursor(c, fp); prospector.ErrorMessage(err) !=
		"cursor: not a cursor this service issued (malformed or altered)" {
		t.Fatalf("another key: %v", err)
	}
}
