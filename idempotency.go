package prospector

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"time"
)

// RequestHash identifies a request by its meaning, for the idempotency
// keys of enrich/email and feedback events: v is the request's values as
// understood (a struct), so the same fields with other spacing or member
// order hash alike, and a key reused with another meaning is refused.
func RequestHash(v any) string {
	b, _ := json.Marshal(v)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// IdempotencyWindow is how long an Idempotency-Key is remembered.
const IdempotencyWindow = 24 * time.Hour

// ReplayKey decides what a request carrying an Idempotency-Key does when
// the workspace already used the key, at used, for a request whose hash
// was usedHash. Within IdempotencyWindow it replays the first answer
// (true), or fails with ErrIdempotencyMismatch when hash differs from
// usedHash. After the window the key is free again (false, nil): the
// store releases it from the old record, which stays with what it cost,
// and handles the request as a new one. Every store that keeps keys
// decides with it, so they all forget a key at the same moment.
func ReplayKey(used time.Time, usedHash, hash string, now time.Time) (bool, error) {
	if now.Sub(used) >= IdempotencyWindow {
		return false, nil
	}
	if usedHash != hash {
		return false, ErrIdempotencyMismatch
	}
	return true, nil
}
