package news

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"github.com/prospectorhq/prospector"
)

// DedupKey returns the key under which one story is one event, however
// many feeds carry it: the company, the category and the ISO week (UTC)
// of when the story appeared. "Acme raises $25M" from the company's blog,
// a trade paper and GDELT in the same week is one receives_financing
// event for acme.example. The company is its normalised domain, or
// "name:" and its lower-cased name when it has no domain. Two different
// stories of one category in one week (two hires) share the key too: the
// event keeps one of them.
func DedupKey(co Company, category string, when time.Time) string {
	company := prospector.NormalizeDomain(co.Domain)
	if company == "" {
		company = "name:" + strings.ToLower(strings.Join(strings.Fields(co.Name), " "))
	}
	year, week := when.UTC().ISOWeek()
	return fmt.Sprintf("%s|%s|%04d-W%02d", company, category, year, week)
}

// EventID returns the stable news event id of a dedup key: "news-" and the
// first 24 hex digits of its SHA-256.
func EventID(key string) string {
	sum := sha256.Sum256([]byte(key))
	return "news-" + hex.EncodeToString(sum[:12])
}
