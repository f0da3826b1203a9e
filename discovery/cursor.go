package discovery

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"strings"

	"github.com/prospectorhq/prospector"
)

// maxCursor bounds a search cursor; the ones the service issues are
// about 100 characters.
const maxCursor = 512

// cursorPayload is what a search cursor carries: the position in the
// result walk and a fingerprint of the query that produced it. It is
// signed, so a client can neither forge positions nor reuse a cursor for
// another query.
type cursorPayload struct {
	Version int    `json:"v"`
	Query   string `json:"q"`
	Tier    int    `json:"t"`
	After   int64  `json:"a"`
}

// queryFingerprint identifies a normalised query (max_results aside:
// changing the page size between pages is harmless).
func queryFingerprint(endpoint string, q any) string {
	b, _ := json.Marshal(q)
	sum := sha256.Sum256(append([]byte(endpoint+"\x00"), b...))
	return hex.EncodeToString(sum[:12])
}

func (s *Service) signCursor(fp string, pos prospector.SearchPosition) string {
	payload, _ := json.Marshal(cursorPayload{Version: 1, Query: fp, Tier: pos.Tier, After: pos.After})
	mac := hmac.New(sha256.New, s.CursorKey)
	mac.Write(payload)
	enc := base64.RawURLEncoding
	return enc.EncodeToString(payload) + "." + enc.EncodeToString(mac.Sum(nil)[:16])
}

// readCursor verifies a cursor for the query fingerprint fp.
func (s *Service) readCursor(token, fp string) (prospector.SearchPosition, error) {
	bad := prospector.Errorf(prospector.EINVALID, "cursor: not a cursor this service issued (malformed or altered)")
	// Strict: otherwise the unused low bits of a segment's last character
	// are ignored, and altering them yields a cursor that still verifies.
	enc := base64.RawURLEncoding.Strict()
	body, sig, ok := strings.Cut(token, ".")
	if !ok {
		return prospector.SearchPosition{}, bad
	}
	payload, err1 := enc.DecodeString(body)
	given, err2 := enc.DecodeString(sig)
	if err1 != nil || err2 != nil {
		return prospector.SearchPosition{}, bad
	}
	mac := hmac.New(sha256.New, s.CursorKey)
	mac.Write(payload)
	if !hmac.Equal(given, mac.Sum(nil)[:16]) {
		return prospector.SearchPosition{}, bad
	}
	var c cursorPayload
	if err := json.Unmarshal(payload, &c); err != nil || c.Version != 1 || c.Tier < 0 || c.After < 0 {
		return prospector.SearchPosition{}, bad
	}
	if c.Query != fp {
		return prospector.SearchPosition{}, prospector.Errorf(prospector.EINVALID,
			"cursor: made for a different query; send the same filters as the request that returned it")
	}
	return prospector.SearchPosition{Tier: c.Tier, After: c.After}, nil
}
