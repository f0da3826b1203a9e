package sources

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/prospectorhq/prospector"
)

// Bounds of what one crawl adds: a page listing many boards (a job
// aggregator, a portfolio page) does not make a company poll all of
// them.
const (
	maxDiscoveredBoards = 10
	maxDiscoveredFeeds  = 10
)

// pageAccept is the Accept header of page fetches.
const pageAccept = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5"

// fetchPage gets a company page, honouring robots.txt; a status other
// than 2xx or 304 is an error naming it.
func (p *Poller) fetchPage(ctx context.Context, url, etag, lastModified string) (*prospector.FetchResponse, error) {
	resp, err := p.Fetcher.Fetch(ctx, prospector.FetchRequest{URL: url, ETag: etag, LastModified: lastModified,
		Accept: pageAccept, Robots: true})
	if err != nil {
		return nil, err
	}
	if resp.NotModified || (resp.Status >= 200 && resp.Status < 300) {
		return resp, nil
	}
	return nil, fmt.Errorf("%s: HTTP %d", url, resp.Status)
}

// crawlSite crawls a company's site from its homepage target t: the
// homepage, then its careers page (the homepage's best careers link, or
// the one stored when the homepage is unchanged). Both are read for
// technologies, job boards and feeds; the crawl is stored on the
// homepage target (ApplyTechCrawl) and the careers page's fetch on its
// own target. When every page answers 304 the crawl is not modified;
// when any changed, pages that answered 304 are fetched again in full,
// since a crawl's detections must cover every page.
func (p *Poller) crawlSite(ctx context.Context, t *prospector.SourceTarget, co *companies) (*Result, error) {
	if co == nil {
		co = newCompanies(p.Store)
	}
	known, err := p.Store.ListTargets(ctx, prospector.TargetFilter{CompanyID: t.CompanyID})
	if err != nil {
		return nil, fmt.Errorf("sources: targets of %s: %w", t.Domain, err)
	}
	at := p.now()
	home, err := p.fetchPage(ctx, t.Ref, t.ETag, t.LastModified)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return p.fail(ctx, t, at, err)
	}
	r := &Result{Target: t, Pages: 1}
	var homePage *Page
	if !home.NotModified {
		if homePage, err = p.Sites.Read(home.URL, home.Header, home.Body); err != nil {
			return p.fail(ctx, t, at, err)
		}
	}
	careers := careersTarget(known, homePage, t)
	var (
		careersResp *prospector.FetchResponse
		careersErr  error
	)
	if careers != nil {
		careersResp, careersErr = p.fetchPage(ctx, careers.Ref, careers.ETag, careers.LastModified)
		r.Pages++
	}
	unchanged := home.NotModified && (careers == nil || (careersErr == nil && careersResp.NotModified))
	if unchanged {
		return p.storeCrawl(ctx, r, at, home, nil, careers, careersResp, careersErr, co)
	}
	if home.NotModified {
		if home, err = p.fetchPage(ctx, t.Ref, "", ""); err != nil {
			return p.fail(ctx, t, at, err)
		}
		r.Pages++
		if homePage, err = p.Sites.Read(home.URL, home.Header, home.Body); err != nil {
			return p.fail(ctx, t, at, err)
		}
	}
	if careers != nil && careersErr == nil && careersResp.NotModified {
		careersResp, careersErr = p.fetchPage(ctx, careers.Ref, "", "")
		r.Pages++
	}
	pages := []*Page{homePage}
	if careers != nil && careersErr == nil {
		cp, err := p.Sites.Read(careersResp.URL, careersResp.Header, careersResp.Body)
		if err != nil {
			careersErr = err
		} else {
			pages = append(pages, cp)
		}
	}
	if err := p.discover(ctx, r, t, known, pages, careers); err != nil {
		return nil, err
	}
	return p.storeCrawl(ctx, r, at, home, pages, careers, careersResp, careersErr, co)
}

// careersTarget is the careers page to fetch with the homepage: the
// homepage's best careers link when the homepage was read (a target
// made for it when it is new), else the careers target polled last.
func careersTarget(known []*prospector.SourceTarget, home *Page, t *prospector.SourceTarget) *prospector.SourceTarget {
	if home != nil {
		for _, u := range home.Careers {
			if u == home.URL || u == t.Ref {
				continue
			}
			for _, k := range known {
				if k.Kind == prospector.TargetCareers && k.Ref == u {
					return k
				}
			}
			c := &prospector.SourceTarget{CompanyID: t.CompanyID, Domain: t.Domain, Kind: prospector.TargetCareers,
				Ref: prospector.CleanText(u), Origin: prospector.OriginDiscovered, DiscoveredOn: home.URL}
			if c.Validate() == nil {
				return c
			}
		}
		return nil
	}
	var last *prospector.SourceTarget
	for _, k := range known {
		if k.Kind != prospector.TargetCareers || k.LastSuccessAt == nil {
			continue
		}
		if last == nil || k.LastSuccessAt.After(*last.LastSuccessAt) {
			last = k
		}
	}
	return last
}

// discover stores the boards and feeds the pages link to, and the
// careers page when it is new; r gets the boards that are new (to poll
// now) and how many targets were added.
func (p *Poller) discover(ctx context.Context, r *Result, t *prospector.SourceTarget, known []*prospector.SourceTarget,
	pages []*Page, careers *prospector.SourceTarget) error {
	key := func(s *prospector.SourceTarget) string { return s.Kind + "\x00" + s.Board + "\x00" + s.Ref }
	seen := map[string]bool{}
	for _, k := range known {
		seen[key(k)] = true
	}
	var add []*prospector.SourceTarget
	boards, feeds := 0, 0
	consider := func(s *prospector.SourceTarget) {
		if seen[key(s)] || s.Validate() != nil {
			return
		}
		seen[key(s)] = true
		add = append(add, s)
	}
	if careers != nil && careers.ID == 0 {
		consider(careers)
	}
	for _, pg := range pages {
		for _, link := range pg.Links {
			ref, ok := p.Boards.Recognize(link)
			if !ok || boards >= maxDiscoveredBoards {
				continue
			}
			n := len(add)
			consider(&prospector.SourceTarget{CompanyID: t.CompanyID, Domain: t.Domain, Kind: prospector.TargetBoard,
				Board: ref.Kind, Ref: prospector.CleanText(ref.Token), Origin: prospector.OriginDiscovered,
				DiscoveredOn: prospector.CleanText(pg.URL)})
			if len(add) > n {
				boards++
			}
		}
		for _, f := range pg.Feeds {
			if feeds >= maxDiscoveredFeeds {
				break
			}
			n := len(add)
			consider(&prospector.SourceTarget{CompanyID: t.CompanyID, Domain: t.Domain, Kind: prospector.TargetFeed,
				Ref: prospector.CleanText(f), Origin: prospector.OriginDiscovered, DiscoveredOn: prospector.CleanText(pg.URL)})
			if len(add) > n {
				feeds++
			}
		}
	}
	if len(add) == 0 {
		return nil
	}
	n, err := p.Store.AddTargets(ctx, add, p.now())
	if err != nil {
		return fmt.Errorf("sources: targets found on %s: %w", t.Domain, err)
	}
	r.NewTargets = n
	for _, s := range add {
		if s.Kind == prospector.TargetBoard {
			r.Discovered = append(r.Discovered, s)
		}
	}
	return nil
}

// storeCrawl stores a crawl: its detections (none and not modified when
// pages is nil), the careers page's fetch, and the company's name when
// the homepage's title gives it.
func (p *Poller) storeCrawl(ctx context.Context, r *Result, at time.Time, home *prospector.FetchResponse, pages []*Page,
	careers *prospector.SourceTarget, careersResp *prospector.FetchResponse, careersErr error, co *companies) (*Result, error) {
	t := r.Target
	result := prospector.PollOK
	if pages == nil {
		result = prospector.PollNotModified
	}
	crawl := &prospector.TechCrawl{TargetID: t.ID, Outcome: p.outcome(t.Kind, at, result), Detections: mergeDetections(pages)}
	crawl.Outcome.ETag, crawl.Outcome.LastModified = home.ETag, home.LastModified
	res, err := p.Store.ApplyTechCrawl(ctx, crawl)
	if err != nil {
		if storeError(err) {
			return nil, fmt.Errorf("sources: store crawl of %s: %w", t.Domain, err)
		}
		return p.fail(ctx, t, at, err)
	}
	r.Status, r.Tech = result, res
	if careers != nil && careers.ID != 0 {
		o := p.outcome(careers.Kind, at, prospector.PollOK)
		switch {
		case careersErr != nil:
			o.Result, o.Error = prospector.PollFailed, prospector.CleanText(careersErr.Error())
		case careersResp.NotModified:
			o.Result = prospector.PollNotModified
		default:
			o.ETag, o.LastModified = careersResp.ETag, careersResp.LastModified
		}
		if _, err := p.Store.RecordPoll(ctx, careers.ID, o); err != nil {
			return nil, fmt.Errorf("sources: record poll of %s: %w", careers.Ref, err)
		}
	}
	if len(pages) > 0 && pages[0] != nil {
		if name := NameFromTitle(pages[0].Title, t.Domain, p.Boards.Confirm); name != "" {
			if err := co.learn(ctx, t.CompanyID, t.Domain, name); err != nil {
				return nil, fmt.Errorf("sources: name of %s: %w", t.Domain, err)
			}
		}
	}
	return r, nil
}

// mergeDetections joins the detections of a crawl's pages: one per
// technology (by name, any case), with the evidence of every page.
func mergeDetections(pages []*Page) []prospector.TechDetection {
	var out []prospector.TechDetection
	at := map[string]int{}
	for _, pg := range pages {
		if pg == nil {
			continue
		}
		for _, d := range pg.Technologies {
			// Operator fingerprints may name anything; the store refuses
			// NUL and invalid UTF-8.
			d.Name, d.Version = prospector.CleanText(d.Name), prospector.CleanText(d.Version)
			for i, c := range d.Categories {
				d.Categories[i] = prospector.CleanText(c)
			}
			k := strings.ToLower(d.Name)
			i, ok := at[k]
			if !ok {
				at[k] = len(out)
				out = append(out, d)
				continue
			}
			m := &out[i]
			m.Confidence = max(m.Confidence, d.Confidence)
			if m.Version == "" {
				m.Version = d.Version
			}
			m.Evidence = append(m.Evidence, d.Evidence...)
		}
	}
	return out
}
