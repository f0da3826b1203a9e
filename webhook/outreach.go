package webhook

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/wire"
)

// Outreach tools. Both adapters speak to an add-leads API of the tool,
// through the same Client as webhooks, so the same address policy holds
// (docs/webhooks.md describes both APIs).

// OutreachTool adds leads to a campaign or list of an outreach tool.
type OutreachTool interface {
	// Name is the destination: outreach_tool_a or outreach_tool_b.
	Name() string
	// Target is the campaign or list id leads join (their campaign_id).
	Target() string
	// AddLeads sends leads, in batches when the tool wants them. The
	// result is never nil: it counts the leads the tool took before any
	// failure. err is set when a request got no answer (refused, timed
	// out); an answer other than 2xx is a result with OK false.
	AddLeads(ctx context.Context, leads []wire.Lead) (*OutreachResult, error)
}

// OutreachResult is how an add-leads call went.
type OutreachResult struct {
	OK         bool // every batch was accepted
	Dispatched int  // leads in accepted batches
	StatusCode int  // the last answer's status; 0 without one
	Response   string
}

// OutreachOptions tune the adapters.
type OutreachOptions struct {
	// MaxRetryWait is the longest Retry-After a 429 may ask for and still
	// be retried, once, inside the call; default 5s. Longer waits, or a
	// second 429, fail the call with the 429.
	MaxRetryWait time.Duration
	// Sleep waits d or until ctx ends; default a timer.
	Sleep func(ctx context.Context, d time.Duration) error
}

// NotConfiguredError: the workspace has not set up the tool it pushes to.
// Error tells the operator the command that sets it up (logs, the CLI);
// Message tells a caller of the API what is missing.
type NotConfiguredError struct{ Tool string }

// Message is the error in an API caller's words: what the workspace
// lacks and who provides it, without a command the caller cannot run.
func (e *NotConfiguredError) Message() string {
	mapping := "the campaign its leads join"
	if e.Tool == prospector.DestinationOutreachToolB {
		mapping = "the list its contacts join"
	}
	return fmt.Sprintf("%s is not configured for this workspace: pushing there needs an integration with the tool "+
		"(its base URL and an API key) and %s, which the service's operator sets up", e.Tool, mapping)
}

func (e *NotConfiguredError) Error() string {
	mapping := "--campaign ID"
	if e.Tool == prospector.DestinationOutreachToolB {
		mapping = "--list ID"
	}
	return fmt.Sprintf("%s is not configured for this workspace: set it up with 'prospector integrations outreach --workspace NAME --tool %s --base-url URL --api-key KEY %s'",
		e.Tool, e.Tool, mapping)
}

// Integrations reads a workspace's outreach integrations.
type Integrations interface {
	OutreachIntegration(ctx context.Context, workspaceID, tool string) (*prospector.OutreachIntegration, error)
}

// Outreach returns the workspace's adapter for tool; *NotConfiguredError
// when the workspace has no integration with it.
func (c *Client) Outreach(ctx context.Context, st Integrations, workspaceID, tool string, opt OutreachOptions) (OutreachTool, error) {
	in, err := st.OutreachIntegration(ctx, workspaceID, tool)
	if errors.Is(err, prospector.ErrNotFound) {
		return nil, &NotConfiguredError{Tool: tool}
	}
	if err != nil {
		return nil, err
	}
	return c.NewOutreachTool(in, opt)
}

// NewOutreachTool returns the adapter of in.Tool; a validation error
// when in is incomplete.
func (c *Client) NewOutreachTool(in *prospector.OutreachIntegration, opt OutreachOptions) (OutreachTool, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	if opt.MaxRetryWait <= 0 {
		opt.MaxRetryWait = 5 * time.Second
	}
	if opt.Sleep == nil {
		opt.Sleep = sleep
	}
	b := base{client: c, in: *in, opt: opt}
	if in.Tool == prospector.DestinationOutreachToolA {
		return &toolA{b}, nil
	}
	return &toolB{b}, nil
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// base is what both adapters share: the integration and posting with
// one bounded retry on 429.
type base struct {
	client *Client
	in     prospector.OutreachIntegration
	opt    OutreachOptions
}

// endpoint appends path segments, each escaped, to the base URL's path
// (its query and fragment are dropped).
func (b *base) endpoint(segments ...string) string {
	u, err := url.Parse(b.in.BaseURL)
	if err != nil {
		return b.in.BaseURL // Validate parsed it already
	}
	path := strings.TrimRight(u.EscapedPath(), "/")
	for _, s := range segments {
		path += "/" + url.PathEscape(s)
	}
	return u.Scheme + "://" + u.Host + path
}

// post sends body with the tool's auth header, retrying once after a 429
// whose Retry-After is short enough. 5xx answers are not retried: adding
// leads is not idempotent, and the tool may have taken them.
func (b *base) post(ctx context.Context, target string, auth http.Header, body any) (*Result, error) {
	raw, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	allow, err := b.client.AllowPrivate(ctx)
	if err != nil {
		return nil, err
	}
	if _, err := b.client.checkURL(target, allow); err != nil {
		return nil, err
	}
	for try := 0; ; try++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, target, bytes.NewReader(raw))
		if err != nil {
			return nil, fmt.Errorf("webhook: request to %s: invalid", hostOf(target))
		}
		req.Header = auth.Clone()
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json")
		req.Header.Set("User-Agent", UserAgent)
		res, err := b.client.do(req, allow, b.in.APIKey)
		if err != nil || res.StatusCode != http.StatusTooManyRequests || try > 0 {
			return res, err
		}
		wait := res.RetryAfter
		if wait == 0 {
			wait = time.Second
		}
		if wait > b.opt.MaxRetryWait {
			return res, nil
		}
		if err := b.opt.Sleep(ctx, wait); err != nil {
			return res, nil
		}
	}
}

// send posts batches of at most size leads, stopping at the first that
// fails; build makes one batch's body.
func (b *base) send(ctx context.Context, target string, auth http.Header, leads []wire.Lead, size int, build func([]wire.Lead) any) (*OutreachResult, error) {
	out := &OutreachResult{OK: true}
	for start := 0; start < len(leads); start += size {
		batch := leads[start:min(start+size, len(leads))]
		res, err := b.post(ctx, target, auth, build(batch))
		if err != nil {
			out.OK = false
			out.Response = err.Error()
			return out, err
		}
		out.StatusCode, out.Response = res.StatusCode, res.Response
		if !res.OK() {
			out.OK = false
			return out, nil
		}
		out.Dispatched += len(batch)
	}
	return out, nil
}

// toolA is outreach_tool_a: POST {base}/v1/campaigns/{campaign_id}/leads
// with "Authorization: Bearer KEY" and {"leads": [...]}, at most 500
// leads a request.
type toolA struct{ base }

// ToolABatch is the most leads outreach_tool_a takes in one request.
const ToolABatch = 500

func (t *toolA) Name() string   { return prospector.DestinationOutreachToolA }
func (t *toolA) Target() string { return t.in.CampaignID }

type toolALead struct {
	Email      *string `json:"email"`
	FirstName  *string `json:"first_name"`
	LastName   *string `json:"last_name"`
	FullName   string  `json:"full_name"`
	Company    *string `json:"company_name"`
	Title      *string `json:"title"`
	ProfileURL *string `json:"profile_url"`
	Phone      *string `json:"phone"`
	Location   *string `json:"location"`
	ExternalID string  `json:"external_id"`
}

func strPtr(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func (t *toolA) AddLeads(ctx context.Context, leads []wire.Lead) (*OutreachResult, error) {
	auth := http.Header{"Authorization": {"Bearer " + t.in.APIKey}}
	return t.send(ctx, t.endpoint("v1", "campaigns", t.in.CampaignID, "leads"), auth, leads, ToolABatch, func(batch []wire.Lead) any {
		out := make([]toolALead, len(batch))
		for i, l := range batch {
			out[i] = toolALead{Email: strPtr(l.Email), FirstName: strPtr(l.FirstName), LastName: strPtr(l.LastName),
				FullName: l.FullName, Company: strPtr(l.Company), Title: strPtr(l.Title), ProfileURL: strPtr(l.NetworkURL),
				Phone: strPtr(l.Phone), Location: strPtr(l.Location), ExternalID: l.ID}
		}
		return map[string]any{"leads": out, "skip_duplicates": true}
	})
}

// toolB is outreach_tool_b: POST {base}/api/lists/{list_id}/contacts with
// "X-Api-Key: KEY" and {"contacts": [...]} in camelCase, at most 100
// contacts a request.
type toolB struct{ base }

// ToolBBatch is the most contacts outreach_tool_b takes in one request.
const ToolBBatch = 100

func (t *toolB) Name() string   { return prospector.DestinationOutreachToolB }
func (t *toolB) Target() string { return t.in.ListID }

type toolBContact struct {
	Email        string            `json:"email,omitempty"`
	FirstName    string            `json:"firstName,omitempty"`
	LastName     string            `json:"lastName,omitempty"`
	Name         string            `json:"name"`
	Company      string            `json:"company,omitempty"`
	JobTitle     string            `json:"jobTitle,omitempty"`
	LinkedIn     string            `json:"linkedinUrl,omitempty"`
	Phone        string            `json:"phone,omitempty"`
	Location     string            `json:"location,omitempty"`
	CustomFields map[string]string `json:"customFields"`
}

func (t *toolB) AddLeads(ctx context.Context, leads []wire.Lead) (*OutreachResult, error) {
	auth := http.Header{"X-Api-Key": {t.in.APIKey}}
	return t.send(ctx, t.endpoint("api", "lists", t.in.ListID, "contacts"), auth, leads, ToolBBatch, func(batch []wire.Lead) any {
		out := make([]toolBContact, len(batch))
		for i, l := range batch {
			out[i] = toolBContact{Email: l.Email, FirstName: l.FirstName, LastName: l.LastName, Name: l.FullName,
				Company: l.Company, JobTitle: l.Title, LinkedIn: l.NetworkURL, Phone: l.Phone, Location: l.Location,
				CustomFields: map[string]string{"prospector_lead_id": l.ID}}
		}
		return map[string]any{"contacts": out}
	})
}
