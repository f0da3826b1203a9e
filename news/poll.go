package news

import (
	"context"
	"fmt"

	"github.com/prospectorhq/prospector"
)

// feedAccept is the Accept header of a feed poll.
const feedAccept = "application/rss+xml, application/atom+xml, application/feed+json, application/json;q=0.9, " +
	"application/xml;q=0.9, text/xml;q=0.9, */*;q=0.1"

// Poll is one fetch of a feed or of GDELT.
type Poll struct {
	Items []Item
	// NotModified is true when a conditional fetch found nothing new;
	// Items is then empty.
	NotModified bool
	// ETag and LastModified are the validators to send next time.
	ETag, LastModified string
	// URL is the final URL after redirects.
	URL string
}

// PollFeed fetches a feed through f, conditionally when etag or
// lastModified is set, obeying robots.txt, and parses it. A status other
// than 2xx or 304 is an error naming it; so is a body that is no feed
// (wrapping ErrNotFeed). Fetch errors are returned wrapped.
func PollFeed(ctx context.Context, f prospector.Fetcher, feedURL, etag, lastModified string) (Poll, error) {
	resp, err := f.Fetch(ctx, prospector.FetchRequest{URL: feedURL, ETag: etag, LastModified: lastModified,
		Accept: feedAccept, Robots: true})
	if err != nil {
		return Poll{}, fmt.Errorf("news: fetch feed %s: %w", feedURL, err)
	}
	p := Poll{NotModified: resp.NotModified, ETag: resp.ETag, LastModified: resp.LastModified, URL: resp.URL}
	if resp.NotModified {
		return p, nil
	}
	if resp.Status < 200 || resp.Status > 299 {
		return p, fmt.Errorf("news: fetch feed %s: status %d", feedURL, resp.Status)
	}
	base := resp.URL
	if base == "" {
		base = feedURL
	}
	if p.Items, err = ParseFeed(resp.Body, base); err != nil {
		return p, err
	}
	for i := range p.Items {
		p.Items[i].Source = feedURL
	}
	return p, nil
}

// PollGDELT asks GDELT for q through f and parses the answer. f must pace
// api.gdeltproject.org at GDELTMinInterval. A bad query is an error
// before any fetch; a status other than 2xx is an error naming it (429
// included: the fetcher has already honoured Retry-After); GDELT's
// plain-text refusals wrap ErrGDELT.
func PollGDELT(ctx context.Context, f prospector.Fetcher, q GDELTQuery) (Poll, error) {
	u, err := q.URL()
	if err != nil {
		return Poll{}, err
	}
	resp, err := f.Fetch(ctx, prospector.FetchRequest{URL: u, Accept: "application/json"})
	if err != nil {
		return Poll{}, fmt.Errorf("news: fetch gdelt: %w", err)
	}
	p := Poll{URL: resp.URL}
	if resp.Status < 200 || resp.Status > 299 {
		return p, fmt.Errorf("news: fetch gdelt: status %d", resp.Status)
	}
	p.Items, err = ParseGDELT(resp.Body)
	return p, err
}
