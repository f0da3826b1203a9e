package prospector

import "context"

// Store is everything the service keeps in its database, composed of one
// interface per noun (WorkspaceStore, KeyStore, CreditStore, ...), each
// declared beside its noun's type. The sqlite and postgres engines
// implement all of it and the storetest suite holds both to it.
//
// The rule: a consumer declares, in its own package, the narrow interface
// it calls (a few methods, or a local interface embedding the nouns it
// needs) and takes that, so a reader sees what a package touches and a
// test fake stays small. Only wiring code takes the whole Store: the
// binary (cmd/prospector), the construction of the workflows, and the
// storetest suite.
type Store interface {
	WorkspaceStore
	KeyStore
	CreditStore
	CompanyStore
	PersonStore
	SignalStore
	EventStore
	SettingStore
	EmailLookupStore
	JobStore
	RadarStore
	LeadStore
	LeadCampaignStore
	IntegrationStore
	FeedbackStore
	BulkStore
	WatchStore
	TargetStore
	JobOpeningStore
	TechnologyStore
	SECStore
	NewsStore
	SuppressionStore
	PrivacyStore
	AuditStore
	RetentionStore
	ConsoleSessionStore
	// TokenBucket paces requests to services with one budget for the
	// whole deployment (SEC EDGAR): every node shares the database's.
	TokenBucket
	// Ping checks that the database answers.
	Ping(ctx context.Context) error
	// Close releases connections.
	Close() error
}
