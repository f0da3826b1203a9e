package adapters

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/sec"
	"github.com/prospectorhq/prospector/sources"
)

// SEC reads EDGAR with package sec: the client keeps the fair-access
// pace (its bucket shared by every node) and backs off when throttled.
// Safe for concurrent use.
type SEC struct {
	Client *sec.Client

	mu   sync.Mutex
	subs map[string]*sec.Submissions // by CIK; nil: EDGAR has none
}

var _ sources.Filings = (*SEC)(nil)

// maxCachedSubmissions bounds the submissions records kept between
// filings (a record is a few KB; a busy day names about 1,500 issuers).
const maxCachedSubmissions = 5000

// Index implements sources.Filings.
func (s *SEC) Index(ctx context.Context, day time.Time) ([]sources.FilingRef, bool, error) {
	es, ok, err := s.Client.DailyIndex(ctx, day)
	if err != nil || !ok {
		return nil, ok, err
	}
	refs := make([]sources.FilingRef, 0, len(es))
	for _, e := range es {
		refs = append(refs, sources.FilingRef{Form: e.FormType, Company: e.CompanyName, CIK: e.CIK, Filed: e.DateFiled,
			Accession: e.Accession})
	}
	return refs, true, nil
}

// Filing implements sources.Filings. Issuers are resolved from what the
// filing itself says first (a Form D's name, state and city; an 8-K's
// name); the issuer's submissions record (its website, former names,
// address) is fetched only for an amendment, whose original notice it
// tells, and for an issuer that did not resolve without it: at the
// fair-access pace every request counts (a day of 500 notices is 53 s
// with one request each, twice that with the record).
func (s *SEC) Filing(ctx context.Context, ref sources.FilingRef, lookup sources.IssuerLookup, at time.Time) (*prospector.SECFiling, error) {
	e := sec.IndexEntry{FormType: ref.Form, CompanyName: ref.Company, CIK: ref.CIK, DateFiled: ref.Filed,
		Accession: ref.Accession}
	match := func(f sec.IssuerFacts) (sec.Match, error) {
		cs, err := lookup(ctx, f.Query())
		if err != nil {
			return sec.Match{}, fmt.Errorf("issuer candidates of %s: %w", f.CIK, err)
		}
		return sec.Resolve(f, cs), nil
	}
	switch ref.Form {
	case sec.FormD, sec.FormDA:
		o, err := s.Client.FormD(ctx, e)
		if err != nil {
			return nil, err
		}
		var subs *sec.Submissions
		if o.IsAmendment {
			if subs, err = s.submissions(ctx, ref.CIK); err != nil {
				return nil, err
			}
			sec.ResolveOriginal(o, subs)
		}
		facts := o.Facts(subs)
		if o.Skip != "" {
			return o.Filing(s.Client.BaseURL(), facts, sec.Match{}, at), nil
		}
		m, err := match(facts)
		if err != nil {
			return nil, err
		}
		if !m.Resolved && subs == nil {
			if subs, err = s.submissions(ctx, ref.CIK); err != nil {
				return nil, err
			}
			if subs != nil {
				facts = o.Facts(subs)
				if m, err = match(facts); err != nil {
					return nil, err
				}
			}
		}
		return o.Filing(s.Client.BaseURL(), facts, m, at), nil
	default:
		r, err := s.Client.ExecutiveChanges(ctx, e)
		if err != nil {
			return nil, err
		}
		if !r.HasItem {
			return r.Filing(r.Facts(nil), sec.Match{}, at), nil
		}
		facts := r.Facts(nil)
		m, err := match(facts)
		if err != nil {
			return nil, err
		}
		if !m.Resolved {
			subs, err := s.submissions(ctx, ref.CIK)
			if err != nil {
				return nil, err
			}
			if subs != nil {
				facts = r.Facts(subs)
				if m, err = match(facts); err != nil {
					return nil, err
				}
			}
		}
		return r.Filing(facts, m, at), nil
	}
}

// submissions returns the issuer's submissions record, cached; nil
// when EDGAR has none.
func (s *SEC) submissions(ctx context.Context, cik string) (*sec.Submissions, error) {
	cik = sec.NormalizeCIK(cik)
	s.mu.Lock()
	sub, ok := s.subs[cik]
	s.mu.Unlock()
	if ok {
		return sub, nil
	}
	sub, err := s.Client.Submissions(ctx, cik)
	if errors.Is(err, sec.ErrMissing) {
		sub, err = nil, nil
	}
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	if s.subs == nil || len(s.subs) >= maxCachedSubmissions {
		s.subs = map[string]*sec.Submissions{}
	}
	s.subs[cik] = sub
	s.mu.Unlock()
	return sub, nil
}

// RetryAt implements sources.Filings: EDGAR asking to wait is a
// *sec.BackoffError (its rate-limit 403 page, or a 429 the fetcher
// passed on), or the fetcher's *prospector.RetryLaterError (a 429 or
// 503 whose Retry-After is longer than it waits itself).
func (s *SEC) RetryAt(err error) (time.Time, bool) {
	var be *sec.BackoffError
	if errors.As(err, &be) {
		return be.Until, true
	}
	var rl *prospector.RetryLaterError
	if errors.As(err, &rl) {
		return rl.Until, true
	}
	return time.Time{}, false
}
