// Package boardtest serves job boards the way each vendor's public API
// does, from fixtures written from the vendors' documentation with
// generated companies and postings, so the boards adapters, the source
// runner and its benchmark can be tested without the internet. See Server.
package boardtest

import (
	"context"
	"errors"
	"io"
	"net/http"
	"time"

	"github.com/prospectorhq/prospector"
)

// Fetcher is a plain prospector.Fetcher over an http.Client, for tests:
// conditional requests, Accept and NoRedirects, and nothing else (no
// pacing, no robots, no retries, no address checks).
type Fetcher struct {
	Client *http.Client // nil uses a client with a 10 s timeout
}

var _ prospector.Fetcher = (*Fetcher)(nil)

// Fetch does one GET. Statuses are returned as responses; only transport
// failures are errors.
func (f *Fetcher) Fetch(ctx context.Context, req prospector.FetchRequest) (*prospector.FetchResponse, error) {
	client := f.Client
	if client == nil {
		client = &http.Client{Timeout: 10 * time.Second}
	}
	if req.NoRedirects {
		c := *client
		c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
		client = &c
	}
	hr, err := http.NewRequestWithContext(ctx, http.MethodGet, req.URL, nil)
	if err != nil {
		return nil, err
	}
	accept := req.Accept
	if accept == "" {
		accept = "*/*"
	}
	hr.Header.Set("Accept", accept)
	if req.ETag != "" {
		hr.Header.Set("If-None-Match", req.ETag)
	}
	if req.LastModified != "" {
		hr.Header.Set("If-Modified-Since", req.LastModified)
	}
	start := time.Now()
	resp, err := client.Do(hr)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	out := &prospector.FetchResponse{
		URL: resp.Request.URL.String(), Status: resp.StatusCode, Header: resp.Header, Body: body,
		ETag: resp.Header.Get("ETag"), LastModified: resp.Header.Get("Last-Modified"), Elapsed: time.Since(start),
	}
	if resp.StatusCode == http.StatusNotModified {
		out.NotModified = true
		out.Body = nil
		if out.ETag == "" {
			out.ETag = req.ETag
		}
		if out.LastModified == "" {
			out.LastModified = req.LastModified
		}
	}
	return out, nil
}
