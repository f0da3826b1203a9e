package prospector

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"encoding/hex"
	"strings"
	"time"
)

// KeyHeader is the request header that carries the API key.
const KeyHeader = "X-Service-API-Key"

// keySecretPrefix marks a Prospector key so it is recognisable in a
// secret scanner; the rest is 32 random bytes.
const keySecretPrefix = "psk_"

// APIKey is a stored key. The secret itself is never stored: only its
// SHA-256 (keys are 256 random bits, so a slow hash adds nothing) and a
// short prefix that lets people tell keys apart in listings.
type APIKey struct {
	ID          string
	WorkspaceID string
	Tier        string
	Role        string
	Hash        string
	Prefix      string
	CreatedAt   time.Time
	ExpiresAt   *time.Time
	RevokedAt   *time.Time
}

// Active reports whether the key may authenticate at now.
func (k *APIKey) Active(now time.Time) bool {
	if k.RevokedAt != nil {
		return false
	}
	return k.ExpiresAt == nil || now.Before(*k.ExpiresAt)
}

// NewAPIKey makes a key for workspaceID and returns it with its secret,
// which is shown once and never again.
func NewAPIKey(workspaceID, tier string, expiresAt *time.Time) (*APIKey, string) {
	secret := keySecretPrefix + randomToken(32)
	return &APIKey{
		ID:          NewID("key"),
		WorkspaceID: workspaceID,
		Tier:        tier,
		Role:        "owner",
		Hash:        HashKey(secret),
		Prefix:      secret[:12],
		ExpiresAt:   expiresAt,
	}, secret
}

// HashKey returns the stored form of a key secret.
func HashKey(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	var text [2 * sha256.Size]byte // one allocation, the string, on every authenticated request
	hex.Encode(text[:], sum[:])
	return string(text[:])
}

func randomToken(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		// crypto/rand never fails on supported platforms; if it does,
		// handing out guessable ids would be worse than stopping.
		panic("prospector: crypto/rand: " + err.Error())
	}
	return strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(b))
}

// Principal is what a key resolves to: the key, its workspace, and the
// facts the request path needs without another database round trip.
type Principal struct {
	Key       APIKey
	Workspace Workspace
}

// KeyStore persists API keys.
type KeyStore interface {
	// CreateAPIKey inserts k, filling CreatedAt.
	CreateAPIKey(ctx context.Context, k *APIKey) error
	// PrincipalByKeyHash returns the key with that hash and its workspace,
	// whether or not the key is still active; ErrNotFound when unknown.
	PrincipalByKeyHash(ctx context.Context, hash string) (*Principal, error)
	// ListAPIKeys returns a workspace's keys, newest first.
	ListAPIKeys(ctx context.Context, workspaceID string) ([]*APIKey, error)
	// RevokeAPIKey marks a key revoked at now; ErrNotFound when unknown.
	// Revoking twice keeps the first time.
	RevokeAPIKey(ctx context.Context, id string, now time.Time) error
}
