package prospector

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Outbound destinations of lead deliveries (POST /leads/push and auto-sync).
const (
	DestinationWebhook       = "webhook_url"
	DestinationOutreachToolA = "outreach_tool_a"
	DestinationOutreachToolB = "outreach_tool_b"
)

// ValidOutreachTool reports whether tool names an outreach tool adapter.
func ValidOutreachTool(tool string) bool {
	return tool == DestinationOutreachToolA || tool == DestinationOutreachToolB
}

// MaxWebhookURL bounds a destination URL (it is part of a unique index).
const MaxWebhookURL = 2048

// WebhookSettings is a workspace's outbound webhook configuration: where
// auto-sync sends new leads, the auth header the receiver checks, the
// shape of the body and the Standard Webhooks signing secret. AuthValue
// and SigningSecret are secrets: they are stored because every delivery
// needs them, and they are never printed back in full.
type WebhookSettings struct {
	WorkspaceID string
	// URL is the auto-sync destination; "" when only pushes are used.
	URL        string
	AuthHeader string
	AuthValue  string
	// DisabledFields are envelope or lead fields left out of the default
	// shape (see docs/webhooks.md).
	DisabledFields []string
	// CustomFields are static members added to the default envelope, or
	// to every lead entry when the key starts with "lead.". Values are
	// JSON.
	CustomFields map[string]json.RawMessage
	// Template, when set, replaces the default shape (docs/webhooks.md).
	Template string
	// AutoSync sends new radar leads to URL as they surface.
	AutoSync bool
	// SigningSecret is "whsec_" + base64 of 32 random bytes.
	SigningSecret string
	// DisabledReason says why auto-sync was switched off by the service
	// (the destination answered 410 Gone); DisabledAt is when.
	DisabledReason string
	DisabledAt     *time.Time
	CreatedAt      time.Time
	UpdatedAt      time.Time
}

// Validate checks the fields that do not depend on how bodies are shaped
// (the webhook package checks fields and templates).
func (s *WebhookSettings) Validate() error {
	if s.URL != "" {
		if err := ValidateOutboundURL(s.URL); err != nil {
			return Errorf(EINVALID, "url: %s", err.Message)
		}
	}
	if s.AutoSync && s.URL == "" {
		return Errorf(EINVALID, "auto_sync: needs a url")
	}
	if (s.AuthHeader == "") != (s.AuthValue == "") {
		return Errorf(EINVALID, "auth header: name and value go together")
	}
	if s.AuthHeader != "" {
		if err := ValidateAuthHeader(s.AuthHeader, s.AuthValue); err != nil {
			return err
		}
	}
	for k, v := range s.CustomFields {
		if k == "" || k == "lead." {
			return Errorf(EINVALID, "custom field: empty name")
		}
		if !json.Valid(v) {
			return Errorf(EINVALID, "custom field %s: value is not JSON", k)
		}
	}
	if s.SigningSecret == "" {
		return Errorf(EINVALID, "signing secret: required")
	}
	return nil
}

// ValidateOutboundURL checks the syntax of a destination URL: absolute
// http or https, a host, no user info, at most MaxWebhookURL bytes. Where
// it points is checked when it is dialled.
func ValidateOutboundURL(raw string) *Error {
	if len(raw) > MaxWebhookURL {
		return Errorf(EINVALID, "longer than %d bytes", MaxWebhookURL)
	}
	u, err := url.Parse(raw)
	if err != nil {
		return Errorf(EINVALID, "not a valid URL")
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return Errorf(EINVALID, "scheme must be http or https")
	}
	if u.User != nil {
		return Errorf(EINVALID, "must not carry user info (put credentials in the auth header)")
	}
	if u.Hostname() == "" {
		return Errorf(EINVALID, "needs a host")
	}
	return nil
}

// reservedHeaders are set by the service or by HTTP itself; a workspace's
// auth header may not replace them. Lower case.
var reservedHeaders = map[string]bool{
	"host": true, "content-length": true, "content-type": true, "transfer-encoding": true,
	"connection": true, "keep-alive": true, "proxy-authenticate": true, "proxy-authorization": true,
	"proxy-connection": true, "te": true, "trailer": true, "upgrade": true, "expect": true,
	"user-agent": true, "content-encoding": true, "accept-encoding": true,
}

// ValidateAuthHeader checks a workspace's auth header: the name an HTTP
// token (RFC 9110) that is neither hop-by-hop nor one the service sets
// (Host, Content-Length, webhook-*, ...), the value at most 4 KiB of
// printable text without CR, LF or NUL. The messages never quote the value.
func ValidateAuthHeader(name, value string) error {
	if name == "" || len(name) > 128 || !isToken(name) {
		return Errorf(EINVALID, "auth header: name must be an HTTP token (letters, digits and !#$%%&'*+-.^_`|~)")
	}
	lower := strings.ToLower(name)
	if reservedHeaders[lower] || strings.HasPrefix(lower, "webhook-") || strings.HasPrefix(lower, "sec-") {
		return Errorf(EINVALID, "auth header: %s is reserved", name)
	}
	if value == "" || len(value) > 4096 {
		return Errorf(EINVALID, "auth header: value must be 1 to 4096 bytes")
	}
	for i := 0; i < len(value); i++ {
		if c := value[i]; c == '\r' || c == '\n' || c == 0 || (c < ' ' && c != '\t') || c == 0x7f {
			return Errorf(EINVALID, "auth header: value must not contain CR, LF, NUL or other control characters")
		}
	}
	if strings.TrimSpace(value) != value {
		return Errorf(EINVALID, "auth header: value must not start or end with spaces")
	}
	return nil
}

func isToken(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0:
		default:
			return false
		}
	}
	return true
}

// webhookSecretPrefix marks a Standard Webhooks signing secret.
const webhookSecretPrefix = "whsec_"

// NewWebhookSecret returns a fresh signing secret: "whsec_" and the
// standard base64 of 32 random bytes, as the Standard Webhooks libraries
// read it.
func NewWebhookSecret() string {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic("prospector: crypto/rand: " + err.Error())
	}
	return webhookSecretPrefix + base64.StdEncoding.EncodeToString(b)
}

// MaskSecret shows enough of a secret to tell two apart and no more: a
// short prefix (never more than a quarter of it) and its length.
func MaskSecret(s string) string {
	if s == "" {
		return ""
	}
	keep := 0
	switch {
	case strings.HasPrefix(s, webhookSecretPrefix) && len(s) >= 32:
		keep = len(webhookSecretPrefix) + 2
	case len(s) >= 12:
		keep = min(len(s)/4, 6)
	}
	return s[:keep] + "… (" + strconv.Itoa(len(s)) + " chars)"
}

// OutreachIntegration is a workspace's account at an outreach tool: the
// API base URL, the API key (a secret, never printed back in full) and the
// campaign (outreach_tool_a) or list (outreach_tool_b) pushed leads join.
type OutreachIntegration struct {
	WorkspaceID string
	Tool        string
	BaseURL     string
	APIKey      string
	CampaignID  string
	ListID      string
	CreatedAt   time.Time
	UpdatedAt   time.Time
}

// Validate checks the tool name, the base URL's syntax, the key and the
// mapping the tool needs.
func (o *OutreachIntegration) Validate() error {
	if !ValidOutreachTool(o.Tool) {
		return Errorf(EINVALID, "tool: must be outreach_tool_a or outreach_tool_b")
	}
	if err := ValidateOutboundURL(o.BaseURL); err != nil {
		return Errorf(EINVALID, "base url: %s", err.Message)
	}
	if o.APIKey == "" || len(o.APIKey) > 4096 || strings.ContainsAny(o.APIKey, "\r\n\x00") {
		return Errorf(EINVALID, "api key: must be 1 to 4096 bytes without CR, LF or NUL")
	}
	mapping := func(name, v string) error {
		if v == "" || v == "." || v == ".." || len(v) > 256 || strings.ContainsAny(v, "/?#%\r\n\x00 ") {
			return Errorf(EINVALID, "%s: required for %s, at most 256 characters without / ? # %% or spaces", name, o.Tool)
		}
		return nil
	}
	if o.Tool == DestinationOutreachToolA {
		if o.ListID != "" {
			return Errorf(EINVALID, "list: outreach_tool_a takes a campaign, not a list")
		}
		return mapping("campaign", o.CampaignID)
	}
	if o.CampaignID != "" {
		return Errorf(EINVALID, "campaign: outreach_tool_b takes a list, not a campaign")
	}
	return mapping("list", o.ListID)
}

// IntegrationStore keeps webhook settings, outreach integrations and the
// delivery outbox.
type IntegrationStore interface {
	// WebhookSettings returns a workspace's settings; ErrNotFound when it
	// has none.
	WebhookSettings(ctx context.Context, workspaceID string) (*WebhookSettings, error)
	// CreateWebhookSettings inserts s, filling CreatedAt and UpdatedAt;
	// ErrAlreadyExists when the workspace already has settings, ErrNotFound
	// when the workspace does not exist, a validation error when s is
	// invalid.
	CreateWebhookSettings(ctx context.Context, s *WebhookSettings) error
	// UpdateWebhookSettings replaces the settings, filling UpdatedAt;
	// ErrNotFound when the workspace has none.
	UpdateWebhookSettings(ctx context.Context, s *WebhookSettings) error
	// DisableWebhookAutoSync switches auto-sync off with reason, provided
	// it is on and still sends to url (a destination the owner changed in
	// the meantime is left alone). It reports whether it changed anything.
	DisableWebhookAutoSync(ctx context.Context, workspaceID, url, reason string, now time.Time) (bool, error)

	// OutreachIntegration returns a workspace's integration with tool;
	// ErrNotFound when there is none.
	OutreachIntegration(ctx context.Context, workspaceID, tool string) (*OutreachIntegration, error)
	// PutOutreachIntegration inserts or replaces the integration with
	// o.Tool, filling CreatedAt (kept on replace) and UpdatedAt;
	// ErrNotFound when the workspace does not exist.
	PutOutreachIntegration(ctx context.Context, o *OutreachIntegration) error
	// ListOutreachIntegrations returns a workspace's integrations by tool.
	ListOutreachIntegrations(ctx context.Context, workspaceID string) ([]*OutreachIntegration, error)

	// AddDelivery queues d as pending, filling ID when empty, CreatedAt
	// and UpdatedAt. A lead is delivered once per destination: when the
	// workspace already has a delivery of d.LeadID to the same kind and
	// URL, nothing is inserted, d is overwritten with the existing one and
	// created is false. ErrNotFound when the workspace does not exist.
	AddDelivery(ctx context.Context, d *Delivery) (created bool, err error)
	// Delivery returns one delivery; ErrNotFound when there is none.
	Delivery(ctx context.Context, id string) (*Delivery, error)
	// ListDeliveries returns deliveries, newest first (oldest due first
	// when f.DueBefore is set).
	ListDeliveries(ctx context.Context, f DeliveryFilter) ([]*Delivery, error)
	// MarkDelivery records u on a delivery, provided it still has
	// fromAttempts attempts, so that two workers racing on one attempt
	// record it once. ErrConcurrentUpdate when the attempts moved on, ErrNotFound
	// when there is no such delivery.
	MarkDelivery(ctx context.Context, id string, fromAttempts int, u DeliveryUpdate, now time.Time) error
}
