// Package wire holds the records the service's answers are made of, one
// Go type per noun of the contract (a lead, a company item, a signal
// record...), each with the one way it is rendered, and the helpers that
// rendering needs (null for an unknown value, a place, a timestamp). The
// HTTP API, deliveries and exports, and any other front end (an MCP
// server, console pages) show a noun through its type here, so the same
// lead reads the same everywhere. It depends on the root package and the
// taxonomy only.
package wire

import (
	"strings"
	"time"

	"github.com/prospectorhq/prospector/taxonomy"
)

// TimestampLayout is the contract's time format: UTC, milliseconds.
const TimestampLayout = "2006-01-02T15:04:05.000Z"

// Timestamp renders t in TimestampLayout.
func Timestamp(t time.Time) string { return t.UTC().Format(TimestampLayout) }

// TimeOrNull renders t, or returns nil for a nil or zero t.
func TimeOrNull(t *time.Time) *string {
	if t == nil || t.IsZero() {
		return nil
	}
	s := Timestamp(*t)
	return &s
}

// OrNull maps "" to nil, for the fields the contract says may be null.
func OrNull(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// OrEmpty maps nil to an empty list, for list fields that are never null.
func OrEmpty(l []string) []string {
	if l == nil {
		return []string{}
	}
	return l
}

// Place renders a location as the API shows it everywhere: city, region
// and the country's English name, those known, joined by ", "; "" when
// none is.
func Place(city, region, countryCode string) string {
	country := taxonomy.CountryName(countryCode)
	switch {
	case region == "" && country == "":
		return city
	case city == "" && country == "":
		return region
	case city == "" && region == "":
		return country
	}
	parts := make([]string, 0, 3)
	for _, s := range [...]string{city, region, country} {
		if s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, ", ")
}
