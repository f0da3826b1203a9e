package sqlite

import (
	"context"
	"database/sql"

	"github.com/prospectorhq/prospector"
)

// qPeopleFeed reads the fields of a person the index keeps (feed.go).
const qPeopleFeed = `SELECT id, company_id, score, seq, external_id || char(0) || full_name || char(0) || title ||
	char(0) || job_level || char(0) || job_function || char(0) || company_name || char(0) || network_url ||
	char(0) || city || char(0) || region || char(0) || country_code
	FROM people WHERE seq > ? ORDER BY seq LIMIT ?`

// PeopleChangedSince walks the table by seq, filling the fields the
// interface names.
func (db *DB) PeopleChangedSince(ctx context.Context, seq int64, limit int) ([]*prospector.Person, error) {
	return readFeed(ctx, db, "people", qPeopleFeed, seq, limit, 10, scanPersonFeed, db.PeopleByID,
		func(p *prospector.Person) (int64, *int64) { return p.ID, &p.Seq })
}

func scanPersonFeed(rows *sql.Rows, p *prospector.Person, text *string, f []string) (bool, error) {
	var (
		company sql.NullInt64
		score   sql.NullFloat64
	)
	if err := rows.Scan(&p.ID, &company, &score, &p.Seq, text); err != nil {
		return false, err
	}
	p.CompanyID, p.Score = int64Ptr(company), float64Ptr(score)
	ok := unpackFields(*text, f)
	p.ExternalID, p.FullName, p.Title, p.JobLevel, p.JobFunction = f[0], f[1], f[2], f[3], f[4]
	p.CompanyName, p.NetworkURL, p.City, p.Region, p.CountryCode = f[5], f[6], f[7], f[8], f[9]
	return ok, nil
}
