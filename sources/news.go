package sources

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/prospectorhq/prospector"
)

// NewsReader reads news for a company: its feeds and GDELT. Package
// sources/adapters implements it over package news.
type NewsReader interface {
	// Feed polls a company's feed through f (conditionally with the last
	// answer's validators, obeying robots.txt) and classifies each item
	// for co as news of its own feed. An unchanged feed gives a NewsPoll
	// with NotModified set.
	Feed(ctx context.Context, f prospector.Fetcher, feedURL, etag, lastModified string, co NewsCompany, at time.Time) (*NewsPoll, error)
	// GDELT asks GDELT for recent articles naming co.Name and classifies
	// each for co.
	GDELT(ctx context.Context, f prospector.Fetcher, co NewsCompany, at time.Time) (*NewsPoll, error)
}

// NewsCompany is the company news is read for.
type NewsCompany struct {
	Name   string
	Domain string
}

// NewsPoll is one read of a feed or of GDELT: the stories whose item
// says something of the company (those that say nothing are dropped).
type NewsPoll struct {
	Items       int // items read
	Stories     []*prospector.NewsStory
	NotModified bool
	// ETag and LastModified are the validators to send next time.
	ETag, LastModified string
}

// NewsStore stores the stories the news source reads
// (prospector.NewsStore's ApplyNews).
type NewsStore interface {
	ApplyNews(ctx context.Context, stories []*prospector.NewsStory) (prospector.NewsResult, error)
}

// News is the news source: a watched company's feeds (found on its
// website or given with watch add --feed) and, when GDELT is set, a
// GDELT search for its name.
type News struct {
	Store  NewsStore
	Reader NewsReader
	// GDELT makes every watched company with a name a GDELT target.
	// GDELT is a third party that sees the names searched, so it is the
	// operator's choice (serve --gdelt).
	GDELT bool

	mu     sync.Mutex
	synced time.Time
}

// gdeltSyncEvery is how often the scheduler makes sure every watched
// company has its GDELT target: adding them is one statement per
// thousand companies, not worth doing every minute.
const gdeltSyncEvery = time.Hour

// syncGDELT gives every watched company that has a real name its GDELT
// target (AddTargets keeps those stored), at most once an hour unless
// force. It does nothing without News or GDELT.
func (p *Poller) syncGDELT(ctx context.Context, force bool) error {
	n := p.News
	if n == nil || !n.GDELT {
		return nil
	}
	now := p.now()
	n.mu.Lock()
	if !force && now.Sub(n.synced) < gdeltSyncEvery {
		n.mu.Unlock()
		return nil
	}
	n.mu.Unlock()
	ws, err := p.Store.Watches(ctx)
	if err != nil {
		return fmt.Errorf("sources: watches: %w", err)
	}
	co := newCompanies(p.Store)
	var ids []int64
	for _, w := range ws {
		if w.CompanyID > 0 {
			ids = append(ids, w.CompanyID)
		}
	}
	if err := co.load(ctx, ids); err != nil {
		return fmt.Errorf("sources: companies: %w", err)
	}
	var ts []*prospector.SourceTarget
	for _, id := range ids {
		name, err := co.name(ctx, id)
		if err != nil {
			return err
		}
		if name = cleanName(name); name != "" && len(name) <= 300 {
			ts = append(ts, &prospector.SourceTarget{CompanyID: id, Kind: prospector.TargetGDELT, Ref: name,
				Origin: prospector.OriginWatch})
		}
	}
	for len(ts) > 0 {
		k := min(len(ts), 1000)
		if _, err := p.Store.AddTargets(ctx, ts[:k], now); err != nil {
			return fmt.Errorf("sources: gdelt targets: %w", err)
		}
		ts = ts[k:]
	}
	n.mu.Lock()
	n.synced = now
	n.mu.Unlock()
	return nil
}

// newsCompany is the company a feed or GDELT target reads news for: its
// name, or for a feed of a company still known by its domain only, a
// name made of the domain's first label ("acme-robotics.example" reads
// "acme robotics"), since the company's own feed names it that way more
// often than not.
func newsCompany(ctx context.Context, co *companies, t *prospector.SourceTarget) (NewsCompany, error) {
	name, err := co.name(ctx, t.CompanyID)
	if err != nil {
		return NewsCompany{}, err
	}
	if t.Kind == prospector.TargetGDELT {
		name = t.Ref
	}
	if name == "" {
		label, _, _ := strings.Cut(t.Domain, ".")
		name = strings.Join(strings.FieldsFunc(label, func(r rune) bool { return r == '-' || r == '_' }), " ")
	}
	return NewsCompany{Name: name, Domain: t.Domain}, nil
}

// pollNews reads a feed or GDELT target and stores its stories
// (ApplyNews: one event per company, category and week, and the signal
// it means), then records the poll.
func (p *Poller) pollNews(ctx context.Context, t *prospector.SourceTarget, co *companies) (*Result, error) {
	if p.News == nil || p.News.Reader == nil {
		return &Result{Target: t, Status: StatusSkipped, Error: "the news source is off"}, nil
	}
	if co == nil {
		co = newCompanies(p.Store)
	}
	at := p.now()
	c, err := newsCompany(ctx, co, t)
	if err != nil {
		return nil, fmt.Errorf("sources: company of %s: %w", Label(t), err)
	}
	var np *NewsPoll
	if t.Kind == prospector.TargetGDELT {
		np, err = p.News.Reader.GDELT(ctx, p.Fetcher, c, at)
	} else {
		np, err = p.News.Reader.Feed(ctx, p.Fetcher, t.Ref, t.ETag, t.LastModified, c, at)
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return p.fail(ctx, t, at, err)
	}
	r := &Result{Target: t, Status: prospector.PollOK, Items: np.Items}
	if np.NotModified {
		r.Status = prospector.PollNotModified
	}
	for _, s := range np.Stories {
		s.Event.CompanyID = t.CompanyID
	}
	if len(np.Stories) > 0 {
		res, err := p.News.Store.ApplyNews(ctx, np.Stories)
		if err != nil {
			return nil, fmt.Errorf("sources: store news of %s: %w", Label(t), err)
		}
		r.News = res
	}
	o := p.outcome(t.Kind, at, r.Status)
	o.ETag, o.LastModified = np.ETag, np.LastModified
	if _, err := p.Store.RecordPoll(ctx, t.ID, o); err != nil {
		return nil, fmt.Errorf("sources: record poll of %s: %w", Label(t), err)
	}
	return r, nil
}
