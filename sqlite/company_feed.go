package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"strings"

	"github.com/prospectorhq/prospector"
)

// qCompaniesFeed reads the fields of a company the index keeps (feed.go).
const qCompaniesFeed = `SELECT id, employee_count, revenue_usd, seq, domain || char(0) || name || char(0) || website ||
	char(0) || industry || char(0) || description || char(0) || keywords || char(0) || city || char(0) || region ||
	char(0) || country_code || char(0) || employee_range || char(0) || network_url
	FROM companies WHERE seq > ? ORDER BY seq LIMIT ?`

// CompaniesChangedSince walks the table by seq, filling the fields the
// interface names.
func (db *DB) CompaniesChangedSince(ctx context.Context, seq int64, limit int) ([]*prospector.Company, error) {
	return readFeed(ctx, db, "companies", qCompaniesFeed, seq, limit, 11, scanCompanyFeed, db.CompaniesByID,
		func(c *prospector.Company) (int64, *int64) { return c.ID, &c.Seq })
}

func scanCompanyFeed(rows *sql.Rows, c *prospector.Company, text *string, f []string) (bool, error) {
	var count, revenue sql.NullInt64
	if err := rows.Scan(&c.ID, &count, &revenue, &c.Seq, text); err != nil {
		return false, err
	}
	c.EmployeeCount, c.RevenueUSD = int64Ptr(count), int64Ptr(revenue)
	if !unpackFields(*text, f) {
		return false, nil
	}
	c.Domain, c.Name, c.Website, c.Industry, c.Description = f[0], f[1], f[2], f[3], f[4]
	c.City, c.Region, c.CountryCode, c.EmployeeRange, c.NetworkURL = f[6], f[7], f[8], f[9], f[10]
	var err error
	c.Keywords, err = parseKeywords(f[5])
	return err == nil, err
}

// parseKeywords reads the JSON array of strings the store writes. Most
// hold no escapes and are split by hand: json.Unmarshal was 2.5% of a
// cold build's CPU for 1M companies.
func parseKeywords(s string) ([]string, error) {
	if inner, ok := strings.CutPrefix(s, `["`); ok && !strings.Contains(s, `\`) {
		if inner, ok = strings.CutSuffix(inner, `"]`); ok {
			out := strings.Split(inner, `","`)
			plain := true
			for _, k := range out {
				plain = plain && !strings.Contains(k, `"`)
			}
			if plain {
				return out, nil
			}
		}
	}
	var out []string
	if err := json.Unmarshal([]byte(s), &out); err != nil {
		return nil, err
	}
	return out, nil
}
