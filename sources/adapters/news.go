package adapters

import (
	"context"
	"fmt"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/news"
	"github.com/prospectorhq/prospector/sources"
)

// News reads feeds and GDELT with package news and classifies their
// items with one shared Classifier.
type News struct {
	Classifier *news.Classifier
	// GDELTBaseURL replaces news.DefaultGDELTBaseURL (--source-base-url
	// gdelt=URL).
	GDELTBaseURL string
	// Bucket, when set, paces GDELT searches for every node together
	// (the store's prospector.TokenBucket): GDELT asks each client for one
	// request every five seconds, and the fetcher's pacing is per node.
	Bucket prospector.TokenBucket
}

// gdeltRate is GDELT's documented pace, in requests per second.
const gdeltRate = float64(time.Second) / float64(news.GDELTMinInterval)

var _ sources.NewsReader = News{}

// Feed implements sources.NewsReader: news.PollFeed, then the stories
// of the company's own feed.
func (n News) Feed(ctx context.Context, f prospector.Fetcher, feedURL, etag, lastModified string, co sources.NewsCompany, at time.Time) (*sources.NewsPoll, error) {
	p, err := news.PollFeed(ctx, f, feedURL, etag, lastModified)
	if err != nil {
		return nil, err
	}
	return n.stories(p, co, true, at), nil
}

// GDELT implements sources.NewsReader: news.PollGDELT for the company's
// name, then the stories that say something of it.
func (n News) GDELT(ctx context.Context, f prospector.Fetcher, co sources.NewsCompany, at time.Time) (*sources.NewsPoll, error) {
	if n.Bucket != nil {
		wait, err := n.Bucket.Reserve(ctx, "gdeltproject.org", gdeltRate, 1)
		if err != nil {
			return nil, fmt.Errorf("news: pace gdelt: %w", err)
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		case <-t.C:
		}
	}
	p, err := news.PollGDELT(ctx, f, news.GDELTQuery{BaseURL: n.GDELTBaseURL, Name: co.Name})
	if err != nil {
		return nil, err
	}
	return n.stories(p, co, false, at), nil
}

// stories classifies a poll's items for co; an item without a link
// (the store keeps the article's URL with its event) or that says no
// category about co is dropped.
func (n News) stories(p news.Poll, co sources.NewsCompany, own bool, at time.Time) *sources.NewsPoll {
	out := &sources.NewsPoll{Items: len(p.Items), NotModified: p.NotModified, ETag: p.ETag, LastModified: p.LastModified}
	c := news.Company{Name: co.Name, Domain: co.Domain}
	for _, it := range p.Items {
		if it.Link == "" {
			continue
		}
		s, ok := n.Classifier.Story(c, it, own, at)
		if !ok {
			continue
		}
		out.Stories = append(out.Stories, s.Record(it))
	}
	return out
}
