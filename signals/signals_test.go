package signals

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/wire"
)

// A bulk result renders as encoding/json renders the map it holds.
func TestBulkResultJSON(t *testing.T) {
	score := 12.5
	r := &BulkResult{Domains: []string{"a.example", "b.example", "c.example"}, Signals: map[string][]wire.Signal{
		"a.example": {},
		"b.example": {{RowID: 1, Type: "company_hiring", LeadID: "company:b.example", LeadName: "B <&>", Score: &score},
			{RowID: 2, Type: "tech_changes", LeadID: "company:b.example", LeadName: "B"}},
		"c.example": {},
	}}
	got, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(r.Signals)
	if !bytes.Equal(got, want) {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

// The workflows validate before they read anything.
func TestValidation(t *testing.T) {
	s := &Service{}
	ctx := context.Background()
	for _, c := range []struct {
		err  error
		want string
	}{
		{second(s.Bulk(ctx, &BulkRequest{})), "company_domains: required: give one or more domains"},
		{second(s.Bulk(ctx, &BulkRequest{CompanyDomains: []string{"a.example", "not a domain"}})), `company_domains[1]: "not a domain" is not a domain`},
		{second(s.Company(ctx, " ")), "id: required: a company domain, profile URL or company id"},
		{second(s.News(ctx, NewsRequest{})), "company_domain: required"},
		{second(s.Financing(ctx, FinancingRequest{CompanyDomain: "a.example", FirstSeenAtFrom: "2026-02-01", FirstSeenAtUntil: "2026-01-01"})),
			"first_seen_at_from: must not be after first_seen_at_until"},
		{second(s.Hiring(ctx, FeedRequest{Location: "Atlantis"})), `location: "Atlantis" is not a country`},
		{second(s.Funding(ctx, FeedRequest{Limit: "51"})), "limit: must be between 1 and 50"},
	} {
		if prospector.ErrorCode(c.err) != prospector.EINVALID || !bytes.HasPrefix([]byte(prospector.ErrorMessage(c.err)), []byte(c.want)) {
			t.Errorf("%v, want a validation error starting %q", c.err, c.want)
		}
	}
}

func second[T any](_ T, err error) error { return err }
