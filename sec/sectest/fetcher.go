package sectest

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/prospectorhq/prospector"
)

var _ prospector.Fetcher = (*Fetcher)(nil)

// Fetcher is a plain prospector.Fetcher for tests against the fixture
// server: it sends UserAgent and nothing else of the production client's
// politeness (no robots.txt, pacing, retries or address guard).
type Fetcher struct {
	Client    *http.Client
	UserAgent string
}

// Fetch implements prospector.Fetcher; it fails only on transport errors.
func (f *Fetcher) Fetch(ctx context.Context, r prospector.FetchRequest) (*prospector.FetchResponse, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, r.URL, nil)
	if err != nil {
		return nil, fmt.Errorf("sectest: %w", err)
	}
	req.Header.Set("User-Agent", f.UserAgent)
	if r.Accept != "" {
		req.Header.Set("Accept", r.Accept)
	}
	c := f.Client
	if c == nil {
		c = http.DefaultClient
	}
	start := time.Now()
	resp, err := c.Do(req)
	if err != nil {
		return nil, fmt.Errorf("sectest: %w", err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return nil, fmt.Errorf("sectest: %w", err)
	}
	return &prospector.FetchResponse{URL: r.URL, Status: resp.StatusCode, Header: resp.Header, Body: b, Elapsed: time.Since(start)}, nil
}
