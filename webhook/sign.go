package webhook

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Standard Webhooks (https://www.standardwebhooks.com/) headers.
const (
	HeaderID        = "webhook-id"
	HeaderTimestamp = "webhook-timestamp"
	HeaderSignature = "webhook-signature"
)

// secretPrefix starts a signing secret; the rest is standard base64.
const secretPrefix = "whsec_"

// ParseSecret returns the key of a "whsec_<base64>" secret (the prefix
// is optional, as the specification's libraries accept). The
// specification asks for 24 to 64 bytes of key.
func ParseSecret(secret string) ([]byte, error) {
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, secretPrefix))
	if err != nil {
		return nil, errors.New("webhook: signing secret is not whsec_ and base64")
	}
	if len(key) < 24 || len(key) > 64 {
		return nil, errors.New("webhook: signing secret must hold 24 to 64 bytes")
	}
	return key, nil
}

// Sign returns the webhook-signature value for one message: "v1," and
// the base64 HMAC-SHA256, under key, of "id.timestamp.body".
func Sign(key []byte, id string, ts time.Time, body []byte) string {
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(id))
	mac.Write([]byte{'.'})
	mac.Write([]byte(strconv.FormatInt(ts.Unix(), 10)))
	mac.Write([]byte{'.'})
	mac.Write(body)
	return "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil))
}

// Verification failures.
var (
	ErrNoSignature    = errors.New("webhook: missing webhook-id, webhook-timestamp or webhook-signature")
	ErrStaleTimestamp = errors.New("webhook: timestamp outside the tolerance")
	ErrBadSignature   = errors.New("webhook: no signature matches")
	ErrInvalidSecret  = errors.New("webhook: invalid signing secret")
)

// DefaultTolerance is how far a timestamp may be from the receiver's
// clock, as the specification's libraries default.
const DefaultTolerance = 5 * time.Minute

// Verify checks a received delivery as a receiver would: the timestamp
// within tolerance of now (0: DefaultTolerance) and one of the
// space-separated v1 signatures matching. Receivers in Go can use it; the
// tests use it to check what the client sends.
func Verify(secret string, h http.Header, body []byte, now time.Time, tolerance time.Duration) error {
	key, err := ParseSecret(secret)
	if err != nil {
		return ErrInvalidSecret
	}
	id, tsText, sigs := h.Get(HeaderID), h.Get(HeaderTimestamp), h.Get(HeaderSignature)
	if id == "" || tsText == "" || sigs == "" {
		return ErrNoSignature
	}
	ts, err := strconv.ParseInt(tsText, 10, 64)
	if err != nil {
		return ErrStaleTimestamp
	}
	if tolerance <= 0 {
		tolerance = DefaultTolerance
	}
	if d := now.Sub(time.Unix(ts, 0)); d > tolerance || d < -tolerance {
		return ErrStaleTimestamp
	}
	want := Sign(key, id, time.Unix(ts, 0), body)
	for _, sig := range strings.Fields(sigs) {
		if hmac.Equal([]byte(sig), []byte(want)) {
			return nil
		}
	}
	return ErrBadSignature
}
