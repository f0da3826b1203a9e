package prospector

import (
	"context"
	"time"
)

// ConsoleSession is a web console sign-in, kept server-side so that
// signing out ends it on every node at once, whoever holds a copy of its
// cookie. The cookie carries the session's random id; the store keeps
// only the id's hash, so a read of the table cannot forge a cookie.
type ConsoleSession struct {
	IDHash      string // HashKey of the session id the cookie carries
	KeyID       string // the API key signed in with
	KeyHash     string // that key's hash: every request re-reads the key
	WorkspaceID string
	CreatedAt   time.Time
	ExpiresAt   time.Time
	SignedOutAt *time.Time
}

// Live reports whether the session may still be used at now: not signed
// out and not expired. (The key's own state is checked separately.)
func (s *ConsoleSession) Live(now time.Time) bool {
	return s.SignedOutAt == nil && now.Before(s.ExpiresAt)
}

// ConsoleSessionStore keeps the console's sessions. Sessions past their
// expiry are deleted by RetentionStore.PurgeExpired.
type ConsoleSessionStore interface {
	// CreateConsoleSession inserts s; its IDHash must be new.
	CreateConsoleSession(ctx context.Context, s *ConsoleSession) error
	// ConsoleSession returns the session whose id hashes to idHash;
	// ErrNotFound when there is none (never made, or purged).
	ConsoleSession(ctx context.Context, idHash string) (*ConsoleSession, error)
	// SignOutConsoleSession marks the session signed out at at; a session
	// already signed out keeps its first time, and an unknown one is not
	// an error (signing out twice is signing out).
	SignOutConsoleSession(ctx context.Context, idHash string, at time.Time) error
}
