// Package console is the web console: server-rendered pages for the
// people who prospect, over the same workflows the HTTP API and the MCP
// server call. It is served at / by serve, from templates and static
// files embedded in the binary; there is no front-end build step.
package console

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"embed"
	"fmt"
	"html/template"
	"io/fs"
	"log/slog"
	"net/http"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/workflows"
)

//go:embed assets
var assets embed.FS

// KeyResolver resolves a key's hash to its principal: what signing in
// and every signed-in request check (prospector.KeyStore has it).
type KeyResolver interface {
	PrincipalByKeyHash(ctx context.Context, hash string) (*prospector.Principal, error)
}

// Config is what a Console needs; main builds it.
type Config struct {
	// Workflows are the services the pages call (required): the same set
	// the API and the MCP server call.
	Workflows *workflows.Services
	// Keys resolves the key a person signs in with (required).
	Keys KeyResolver
	// Sessions keeps the sessions (required): every node of a deployment
	// must share it (main passes the store).
	Sessions prospector.ConsoleSessionStore
	// SessionKey seals session cookies (AES-256-GCM, 32 bytes); every
	// node of a deployment must share it (main keeps it in the store's
	// settings).
	SessionKey []byte
	// SessionTTL is how long a session lasts; zero means DefaultSessionTTL.
	SessionTTL time.Duration
	// SecureCookies marks cookies Secure even on plain-HTTP requests, for
	// a deployment behind a proxy that terminates TLS. Requests that
	// arrive over TLS always get Secure cookies.
	SecureCookies bool
	// TierRates are the rate limits the account page reports.
	TierRates prospector.TierRates
	Logger    *slog.Logger
	Now       func() time.Time // default time.Now
}

// DefaultSessionTTL is a working day: a session outlives a morning of
// prospecting, and a forgotten tab signs itself out overnight.
const DefaultSessionTTL = 12 * time.Hour

// Console serves the console's pages. It keeps no state between
// requests: a session lives in its sealed cookie and its row in the
// store, so any node answers.
type Console struct {
	flows     *workflows.Services
	keys      KeyResolver
	sessions  prospector.ConsoleSessionStore
	aead      cipher.AEAD
	ttl       time.Duration
	secure    bool
	tierRates prospector.TierRates
	logger    *slog.Logger
	now       func() time.Time
	pages     map[string]*template.Template
	static    fs.FS
	handler   http.Handler
}

// New builds the console; it fails when the session key is not 32 bytes
// or a template does not parse.
func New(cfg Config) (*Console, error) {
	if len(cfg.SessionKey) != 32 {
		return nil, fmt.Errorf("console: session key must be 32 bytes, got %d", len(cfg.SessionKey))
	}
	if cfg.Keys == nil || cfg.Sessions == nil {
		return nil, fmt.Errorf("console: Keys and Sessions are required")
	}
	block, err := aes.NewCipher(cfg.SessionKey)
	if err != nil {
		return nil, fmt.Errorf("console: session key: %w", err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, fmt.Errorf("console: session key: %w", err)
	}
	c := &Console{flows: cfg.Workflows, keys: cfg.Keys, sessions: cfg.Sessions, aead: aead, ttl: cfg.SessionTTL, secure: cfg.SecureCookies,
		tierRates: cfg.TierRates, logger: cfg.Logger, now: cfg.Now}
	if c.ttl <= 0 {
		c.ttl = DefaultSessionTTL
	}
	if c.logger == nil {
		c.logger = slog.New(slog.DiscardHandler)
	}
	if c.now == nil {
		c.now = time.Now
	}
	if c.tierRates == nil {
		c.tierRates = prospector.DefaultTierRates()
	}
	if c.pages, err = parsePages(); err != nil {
		return nil, err
	}
	if c.static, err = fs.Sub(assets, "assets/static"); err != nil {
		return nil, fmt.Errorf("console: static: %w", err)
	}
	c.handler = c.routes()
	return c, nil
}

// ServeHTTP implements http.Handler.
func (c *Console) ServeHTTP(w http.ResponseWriter, r *http.Request) { c.handler.ServeHTTP(w, r) }
