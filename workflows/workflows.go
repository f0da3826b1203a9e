// Package workflows composes the capability services every front end
// calls: the HTTP API, the MCP server and the console pages. serve builds
// one set and hands the same one to each, so their caches (the enrich
// subject cache) and clocks are shared and an answer does not depend on
// which front end asked.
package workflows

import (
	"log/slog"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/account"
	"github.com/prospectorhq/prospector/contacts"
	"github.com/prospectorhq/prospector/discovery"
	"github.com/prospectorhq/prospector/enrich"
	"github.com/prospectorhq/prospector/feedback"
	"github.com/prospectorhq/prospector/leads"
	"github.com/prospectorhq/prospector/radar"
	"github.com/prospectorhq/prospector/signals"
	"github.com/prospectorhq/prospector/sources"
	"github.com/prospectorhq/prospector/webhook"
)

// Parts is what the services are built from; main fills it.
type Parts struct {
	Store prospector.Store
	// Index is the search index (required): it answers discovery and
	// search, and holds the cards, domains and recent signals that a
	// Catalog completes from the store.
	Index prospector.Index
	// CursorKey signs search cursors; every node of a deployment must
	// share it (main keeps it in the store's settings).
	CursorKey []byte
	// Emails finds and verifies addresses for enrich/email (required).
	Emails prospector.EmailFinder
	// Webhooks sends leads/push deliveries and reaches outreach tools,
	// refusing private destinations unless built to allow them. Nil: a
	// default client.
	Webhooks *webhook.Client
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Logger receives the workflows' own lines (a push's failed
	// deliveries); nil discards them.
	Logger *slog.Logger
}

// Services are the workflows, one Service per capability; a front end
// decodes a request, calls one method and renders what it returns.
type Services struct {
	Account   *account.Service
	Discovery *discovery.Service
	Contacts  *contacts.Service
	Enrich    *enrich.Service
	Signals   *signals.Service
	Radars    *radar.Service
	Leads     *leads.Service
	Feedback  *feedback.Service
	// Sources reads what the live sources found: job openings and
	// technologies.
	Sources *sources.Reader
}

// New builds the services from p. It does no I/O and cannot fail.
func New(p Parts) *Services {
	now := p.Now
	if now == nil {
		now = time.Now
	}
	logger := p.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	hooks := p.Webhooks
	if hooks == nil {
		hooks = webhook.NewClient(webhook.Config{})
	}
	catalog := prospector.Catalog{Index: p.Index, Store: p.Store}
	return &Services{
		Account:   &account.Service{Store: p.Store, Now: now},
		Discovery: &discovery.Service{Index: p.Index, Catalog: catalog, CursorKey: p.CursorKey},
		Contacts:  &contacts.Service{Store: p.Store, Index: p.Index, Catalog: catalog, Now: now},
		Enrich:    enrich.New(p.Store, catalog, p.Emails, now),
		Signals:   &signals.Service{Store: p.Store, Catalog: catalog},
		Radars:    &radar.Service{Store: p.Store, Now: now},
		Leads:     &leads.Service{Store: p.Store, Webhooks: hooks, Logger: logger, Now: now},
		Feedback:  &feedback.Service{Store: p.Store, Emails: p.Emails, Now: now},
		Sources:   &sources.Reader{Store: p.Store},
	}
}
