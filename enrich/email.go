// Package enrich holds the enrich workflows: finding a person's work
// address (POST /enrich/email), charged one credit when an address is
// found, with an Idempotency-Key honoured before any work is done.
package enrich

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync/atomic"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/input"
)

// Service runs the enrich workflows for every front end. Build it with
// New.
type Service struct {
	store    Store
	catalog  prospector.Catalog
	finder   prospector.EmailFinder
	now      func() time.Time
	subjects *subjectCache // people looked up by profile URL
	// suppressions refuses subjects on the suppression list.
	suppressions *prospector.SuppressionCache
	suppressed   atomic.Int64
}

// Store is what Service reads and writes.
type Store interface {
	CompanyByDomain(ctx context.Context, domain string) (*prospector.Company, error)
	CompanyByName(ctx context.Context, name string) (*prospector.Company, error)
	PersonByKey(ctx context.Context, naturalKey string) (*prospector.Person, error)
	CreditUsage(ctx context.Context, workspaceID string, now time.Time) (*prospector.CreditUsage, error)
	prospector.EmailLookupStore
	SuppressionSet(ctx context.Context) (*prospector.SuppressionSet, error)
}

// New returns a Service finding addresses with finder, reading people
// and companies through catalog (the search index, then st) and st; now
// is the clock (nil: time.Now).
func New(st Store, catalog prospector.Catalog, finder prospector.EmailFinder, now func() time.Time) *Service {
	if now == nil {
		now = time.Now
	}
	return &Service{store: st, catalog: catalog, finder: finder, now: now, subjects: newSubjectCache(),
		suppressions: &prospector.SuppressionCache{Store: st}}
}

// Suppressed counts the lookups answered with nothing because their
// subject is on the suppression list.
func (s *Service) Suppressed() int64 { return s.suppressed.Load() }

// EmailRequest is whom to find an address for: POST /enrich/email's
// body. Give network_url, or both name and company (a name or a domain).
type EmailRequest struct {
	NetworkURL *string `json:"network_url"`
	Name       *string `json:"name"`
	Company    *string `json:"company"`
}

// EmailAnswer is an enrich/email answer. Email is "" when nothing was
// found (and nothing charged).
type EmailAnswer struct {
	Email      string  `json:"email"`
	Verified   bool    `json:"verified"`
	Confidence float64 `json:"confidence"`
}

// Email finds the address req asks for in the workspace's name and
// charges one credit when it finds one. With an idempotency key (""
// for none, else checked by input.IdempotencyKey), a repeat within
// prospector.IdempotencyWindow returns the first answer with replayed
// true and does nothing else: no lookup, no probe, no charge. Errors: a
// validation error naming the field, and for a key already used with
// another body; 404 for a subject the data cannot place; 429 with
// RetryAfter when the workspace's credits are spent.
func (s *Service) Email(ctx context.Context, ws *prospector.Workspace, key string, req *EmailRequest) (EmailAnswer, bool, error) {
	if err := req.validate(); err != nil {
		return EmailAnswer{}, false, err
	}
	hash := prospector.RequestHash(req)
	if key != "" {
		prev, err := s.store.EmailLookupByKey(ctx, ws.ID, key)
		switch {
		case err == nil && prev.KeyHeldAt(s.now()):
			if prev.RequestHash != hash {
				return EmailAnswer{}, false, prospector.ErrIdempotencyMismatch
			}
			return answer(prev), true, nil
		case err != nil && !errors.Is(err, prospector.ErrNotFound):
			return EmailAnswer{}, false, fmt.Errorf("enrich email: idempotency key: %w", err)
		}
	}
	q, err := s.subject(ctx, req)
	if err != nil {
		return EmailAnswer{}, false, err
	}
	set, err := s.suppressions.Set(ctx)
	if err != nil {
		return EmailAnswer{}, false, fmt.Errorf("enrich email: %w", err)
	}
	res := prospector.EmailResult{Evidence: prospector.EvidenceNone}
	// Most deployments suppress nobody: skip building the subject's
	// identifiers then.
	if !set.Empty() && (set.Lookup(q.FirstName+" "+q.LastName, q.Domain, q.Known) || set.Lookup(input.Str(req.Name), q.Domain, "") ||
		set.Person(&prospector.Person{NetworkURL: prospector.NormalizeProfileURL(input.Str(req.NetworkURL))})) {
		// Answered as "nothing found" (and not charged): saying the
		// subject opted out would tell who did.
		s.suppressed.Add(1)
		q.Domain = ""
	}
	if q.Domain != "" {
		if res, err = s.finder.FindEmail(ctx, q); err != nil {
			return EmailAnswer{}, false, fmt.Errorf("enrich email: %w", err)
		}
		if set.Lookup("", "", res.Email) {
			s.suppressed.Add(1)
			res = prospector.EmailResult{Evidence: prospector.EvidenceNone}
		}
	}
	l := &prospector.EmailLookup{WorkspaceID: ws.ID, IdempotencyKey: key, RequestHash: hash,
		Email: res.Email, Verified: res.Verified, Confidence: res.Confidence}
	if l.Email != "" {
		l.Credits = 1
	}
	replayed := false
	if l.Credits > 0 || key != "" {
		// A concurrent call with the same key may have recorded its
		// answer since the check above: this replays it.
		first, again, err := s.store.RecordEmailLookup(ctx, l, s.now())
		if errors.Is(err, prospector.ErrInsufficientCredits) {
			return EmailAnswer{}, false, s.outOfCredits(ctx, ws.ID)
		}
		if err != nil {
			return EmailAnswer{}, false, err
		}
		l, replayed = first, again
	}
	return answer(l), replayed, nil
}

func answer(l *prospector.EmailLookup) EmailAnswer {
	return EmailAnswer{Email: l.Email, Verified: l.Verified, Confidence: math.Round(l.Confidence*100) / 100}
}

// validate checks what can be checked without reading the data: whom to
// look up, and the fields' lengths and shapes.
func (req *EmailRequest) validate() error {
	url, name, company := input.Str(req.NetworkURL), input.Str(req.Name), input.Str(req.Company)
	if url == "" && (name == "" || company == "") {
		field := "name"
		if name != "" {
			field = "company"
		}
		return input.Errorf(field, "required: give network_url, or both name and company")
	}
	for _, f := range []struct{ field, v string }{{"name", name}, {"company", company}, {"network_url", url}} {
		max := input.MaxText
		if f.field == "network_url" {
			max = input.MaxURLText
		}
		if err := input.Len(f.field, f.v, max); err != nil {
			return err
		}
	}
	if url != "" && prospector.NormalizeProfileURL(url) == "" {
		return input.Errorf("network_url", "%q is not an http(s) profile URL", url)
	}
	return nil
}

// subject resolves whom to look up in a validated request. A subject the
// data cannot place (an unknown profile URL without name and company, or
// a company name nobody has) is 404 not_found; a known subject with no
// domain gives a query with Domain "" (no match, nothing charged).
func (s *Service) subject(ctx context.Context, req *EmailRequest) (prospector.EmailQuery, error) {
	var q prospector.EmailQuery
	url, name, company := input.Str(req.NetworkURL), input.Str(req.Name), input.Str(req.Company)
	if url != "" {
		norm := prospector.NormalizeProfileURL(url)
		p, err := s.personByURL(ctx, norm)
		switch {
		case err == nil:
			return s.personSubject(ctx, p)
		case !errors.Is(err, prospector.ErrNotFound):
			return q, err
		case name == "" || company == "":
			return q, prospector.Errorf(prospector.ENOTFOUND, "no person known with network_url %s; give name and company instead", norm)
		}
	}
	if q.FirstName, q.LastName = prospector.SplitName(name); q.FirstName == "" {
		return q, input.Errorf("name", "%q holds no name", name)
	}
	var co *prospector.Company
	var err error
	if d := prospector.NormalizeDomain(company); d != "" && strings.Contains(company, ".") && !strings.Contains(company, " ") {
		q.Domain = d
		co, err = s.store.CompanyByDomain(ctx, d)
	} else {
		co, err = s.store.CompanyByName(ctx, company)
		if errors.Is(err, prospector.ErrNotFound) {
			return q, prospector.Errorf(prospector.ENOTFOUND, "company data unavailable for company %q; give its domain instead", company)
		}
	}
	switch {
	case err == nil:
		q.Domain, q.CompanyID = co.Domain, co.ID
	case !errors.Is(err, prospector.ErrNotFound):
		return q, err
	}
	return q, nil
}

// personByURL reads the person with a normalised profile URL, from the
// subject cache when the index has taken in no change of people since.
func (s *Service) personByURL(ctx context.Context, url string) (*prospector.Person, error) {
	version := s.catalog.Index.PeopleVersion()
	if p, ok := s.subjects.get(url, version); ok {
		return p, nil
	}
	p, err := s.store.PersonByKey(ctx, "url:"+url)
	if err == nil {
		s.subjects.put(url, p, version)
	}
	return p, err
}

// personSubject is the query for a stored person: their names, their
// company's domain and the address the data already has.
func (s *Service) personSubject(ctx context.Context, p *prospector.Person) (prospector.EmailQuery, error) {
	q := prospector.EmailQuery{FirstName: p.FirstName, LastName: p.LastName, Domain: p.CompanyDomain, Known: p.Email}
	if q.FirstName == "" {
		q.FirstName, q.LastName = prospector.SplitName(p.FullName)
	}
	if p.CompanyID != nil {
		// The company's card in the search index has its domain: no
		// database read unless the index has not seen the company yet.
		cs, err := s.catalog.CompanyCards(ctx, []int64{*p.CompanyID})
		if err != nil {
			return q, err
		}
		if len(cs) == 1 {
			q.Domain, q.CompanyID = cs[0].Domain, cs[0].ID
		}
	}
	return q, nil
}

// outOfCredits answers a lookup the workspace cannot pay for: 429, the
// contract's code for "over your allowance, retry later", retried when
// the credits renew (docs/decisions.md).
func (s *Service) outOfCredits(ctx context.Context, workspaceID string) error {
	now := s.now()
	u, err := s.store.CreditUsage(ctx, workspaceID, now)
	if err != nil {
		return err
	}
	limit := int64(0)
	if u.Credits.Limit != nil {
		limit = *u.Credits.Limit
	}
	e := prospector.Errorf(prospector.ERATELIMIT, "Credit limit reached: %d of %d credits used this period; credits renew at %s.",
		u.CreditsUsed, limit, u.PeriodEnd.UTC().Format("2006-01-02T15:04:05Z"))
	e.RetryAfter = u.PeriodEnd.Sub(now)
	return e
}
