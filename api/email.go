package api

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"

	"github.com/prospectorhq/prospector"
)

// IdempotencyHeader makes a retried enrich/email call return the first
// answer without charging again.
const IdempotencyHeader = "Idempotency-Key"

// maxNameLen bounds enrich/email's name and company.
const maxNameLen = 200

type enrichEmailRequest struct {
	NetworkURL *string `json:"network_url"`
	Name       *string `json:"name"`
	Company    *string `json:"company"`
}

type enrichEmailResult struct {
	Email      string  `json:"email"`
	Verified   bool    `json:"verified"`
	Confidence float64 `json:"confidence"`
}

// enrichEmail: POST /api/v1/enrich/email
func (s *Server) enrichEmail(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	key, err := idempotencyKey(r)
	if err != nil {
		return err
	}
	var req enrichEmailRequest
	if err := decodeBody(w, r, &req); err != nil {
		return err
	}
	q, err := s.emailSubject(ctx, &req)
	if err != nil {
		return err
	}
	res := prospector.EmailResult{Evidence: prospector.EvidenceNone}
	if q.Domain != "" {
		if res, err = s.emails.FindEmail(ctx, q); err != nil {
			return fmt.Errorf("enrich email: %w", err)
		}
	}
	p := principal(ctx)
	l := &prospector.EmailLookup{WorkspaceID: p.Workspace.ID, IdempotencyKey: key, RequestHash: requestHash(&req),
		Email: res.Email, Verified: res.Verified, Confidence: res.Confidence}
	if l.Email != "" {
		l.Credits = 1
	}
	if l.Credits > 0 || key != "" {
		first, replayed, err := s.store.RecordEmailLookup(ctx, l, s.now())
		if errors.Is(err, prospector.ErrInsufficientCredits) {
			return s.outOfCredits(ctx, w, p.Workspace.ID)
		}
		if err != nil {
			return err
		}
		if replayed {
			w.Header().Set("Idempotent-Replayed", "true")
		}
		l = first
	}
	writeData(w, enrichEmailResult{Email: l.Email, Verified: l.Verified, Confidence: math.Round(l.Confidence*100) / 100})
	return nil
}

// emailSubject resolves whom to look up. A subject the data cannot
// place (an unknown profile URL without name and company, or a company
// name nobody has) is 404 not_found; a known subject with no domain gives
// a query with Domain "" (no match, nothing charged).
func (s *Server) emailSubject(ctx context.Context, req *enrichEmailRequest) (prospector.EmailQuery, error) {
	var q prospector.EmailQuery
	url, name, company := str(req.NetworkURL), str(req.Name), str(req.Company)
	if url == "" && (name == "" || company == "") {
		field := "name"
		if name != "" {
			field = "company"
		}
		return q, filterErr(field, "required: give network_url, or both name and company")
	}
	for _, f := range []struct{ field, v string }{{"name", name}, {"company", company}} {
		if len(f.v) > maxNameLen {
			return q, filterErr(f.field, "at most %d characters", maxNameLen)
		}
	}
	if url != "" {
		norm := prospector.NormalizeProfileURL(url)
		if norm == "" {
			return q, filterErr("network_url", "%q is not an http(s) profile URL", url)
		}
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
		return q, filterErr("name", "%q holds no name", name)
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
// subject cache when the searcher has taken in no change of people since.
func (s *Server) personByURL(ctx context.Context, url string) (*prospector.Person, error) {
	version := s.searcher.PeopleVersion()
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
func (s *Server) personSubject(ctx context.Context, p *prospector.Person) (prospector.EmailQuery, error) {
	q := prospector.EmailQuery{FirstName: p.FirstName, LastName: p.LastName, Domain: p.CompanyDomain, Known: p.Email}
	if q.FirstName == "" {
		q.FirstName, q.LastName = prospector.SplitName(p.FullName)
	}
	if p.CompanyID != nil {
		// The company's card in the search index has its domain: no
		// database read unless the index has not seen the company yet.
		cs, err := items(ctx, []int64{*p.CompanyID}, s.searcher.CompanyCards, s.store.CompanyCards,
			func(c *prospector.Company) int64 { return c.ID }, self[prospector.Company])
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
// contract's code for "over your allowance, retry later", with the time
// the credits renew (docs/decisions.md).
func (s *Server) outOfCredits(ctx context.Context, w http.ResponseWriter, workspaceID string) error {
	u, err := s.store.CreditUsage(ctx, workspaceID, s.now())
	if err != nil {
		return err
	}
	if wait := u.PeriodEnd.Sub(s.now()); wait > 0 {
		w.Header().Set("Retry-After", strconv.FormatInt(int64(math.Ceil(wait.Seconds())), 10))
	}
	limit := int64(0)
	if u.Credits.Limit != nil {
		limit = *u.Credits.Limit
	}
	return prospector.Errorf(prospector.ERATELIMIT, "Credit limit reached: %d of %d credits used this period; credits renew at %s.",
		u.CreditsUsed, limit, u.PeriodEnd.UTC().Format("2006-01-02T15:04:05Z"))
}

// idempotencyKey reads the optional Idempotency-Key header: 1 to 255
// visible ASCII characters.
func idempotencyKey(r *http.Request) (string, error) {
	vs := r.Header.Values(IdempotencyHeader)
	if len(vs) == 0 {
		return "", nil
	}
	k := strings.TrimSpace(vs[0])
	if len(vs) > 1 || k == "" || len(k) > 255 {
		return "", filterErr(IdempotencyHeader, "must be one value of 1 to 255 visible ASCII characters")
	}
	for i := 0; i < len(k); i++ {
		if k[i] < 0x21 || k[i] > 0x7e {
			return "", filterErr(IdempotencyHeader, "must be one value of 1 to 255 visible ASCII characters")
		}
	}
	return k, nil
}

// requestHash identifies a request body by its meaning: the same fields
// with other spacing or member order hash alike.
func requestHash(v any) string {
	b, _ := json.Marshal(v)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
