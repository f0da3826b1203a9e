package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/prospectorhq/prospector"
)

const personColumns = `id, external_id, full_name, first_name, last_name, title, job_level, job_function,
	company_id, company_name, company_domain, network_url, email, phone, city, region, country_code, score,
	seq, created_at, updated_at`

func personSpec(now string) upsertSpec[*prospector.Person] {
	return upsertSpec[*prospector.Person]{
		table:      "people",
		hashedKey:  true,
		sequenced:  true,
		suppressed: (*prospector.SuppressionSet).Person,
		columns: []string{"natural_key", "external_id", "full_name", "first_name", "last_name", "title", "job_level",
			"job_function", "company_id", "company_name", "company_domain", "network_url", "email", "phone", "city",
			"region", "country_code", "score", "created_at", "updated_at"},
		parents: []parentRef[*prospector.Person]{
			{"company_id", "companies", func(p *prospector.Person) *int64 { return p.CompanyID }},
		},
		key:   func(p *prospector.Person) string { return p.NaturalKey() },
		hash:  func(p *prospector.Person) (int64, error) { return p.ContentHash(), nil },
		setID: func(p *prospector.Person, id int64) { p.ID = id },
		values: func(p *prospector.Person) ([]any, error) {
			return []any{p.NaturalKey(), p.ExternalID, p.FullName, p.FirstName, p.LastName, p.Title, p.JobLevel,
				p.JobFunction, nullInt(p.CompanyID), p.CompanyName, p.CompanyDomain, p.NetworkURL, p.Email, p.Phone,
				p.City, p.Region, p.CountryCode, nullFloat(p.Score), now, now}, nil
		},
	}
}

// UpsertPeople upserts by natural key in one transaction.
func (db *DB) UpsertPeople(ctx context.Context, ps []*prospector.Person) (prospector.UpsertResult, error) {
	return upsertBulk(ctx, db, personSpec(formatTime(time.Now())), ps)
}

func scanPerson(row rowScanner) (*prospector.Person, error) {
	var (
		p                prospector.Person
		company          sql.NullInt64
		score            sql.NullFloat64
		created, updated string
	)
	err := row.Scan(&p.ID, &p.ExternalID, &p.FullName, &p.FirstName, &p.LastName, &p.Title, &p.JobLevel, &p.JobFunction,
		&company, &p.CompanyName, &p.CompanyDomain, &p.NetworkURL, &p.Email, &p.Phone, &p.City, &p.Region,
		&p.CountryCode, &score, &p.Seq, &created, &updated)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, prospector.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("sqlite: scan person: %w", err)
	}
	p.CompanyID, p.Score = int64Ptr(company), float64Ptr(score)
	p.CreatedAt, p.UpdatedAt = parseTime(created), parseTime(updated)
	return &p, nil
}

// PersonByKey returns ErrNotFound for an unknown natural key.
func (db *DB) PersonByKey(ctx context.Context, key string) (*prospector.Person, error) {
	return scanPerson(db.row(ctx, `SELECT `+personColumns+` FROM people
		WHERE key_hash = ? AND natural_key = ?`, keyHash(key), key))
}

// PeopleByID returns the people with those ids.
func (db *DB) PeopleByID(ctx context.Context, ids []int64) ([]*prospector.Person, error) {
	return queryByIDs(ctx, db, "people", personColumns, ids, scanPerson)
}

// PeopleAtCompany returns a company's current people by id.
func (db *DB) PeopleAtCompany(ctx context.Context, companyID int64) ([]*prospector.Person, error) {
	return queryPrepared(ctx, db, `SELECT `+personColumns+` FROM people WHERE company_id = ? ORDER BY id`, scanPerson, companyID)
}

// ListPeople walks the table by id.
func (db *DB) ListPeople(ctx context.Context, after int64, limit int) ([]*prospector.Person, error) {
	return queryList(ctx, db.read, `SELECT `+personColumns+` FROM people WHERE id > ? ORDER BY id LIMIT ?`, scanPerson, after, limit)
}

// CountPeople counts every person.
func (db *DB) CountPeople(ctx context.Context) (int64, error) { return db.count(ctx, "people") }

// PersonIDsByKey resolves stored natural keys to ids.
func (db *DB) PersonIDsByKey(ctx context.Context, keys []string) (map[string]int64, error) {
	out := make(map[string]int64, len(keys))
	asked := make(map[string]bool, len(keys))
	for _, k := range keys {
		asked[k] = true
	}
	for start := 0; start < len(keys); start += 500 {
		chunk := keys[start:min(start+500, len(keys))]
		found, err := queryList(ctx, db.read, `SELECT natural_key, id FROM people WHERE key_hash IN (`+
			placeholders(len(chunk))+`)`, scanKeyID, keyArgs(chunk, true)...)
		if err != nil {
			return nil, err
		}
		for _, kv := range found {
			if asked[kv.key] { // a hash collision with a key not asked for is skipped
				out[kv.key] = kv.id
			}
		}
	}
	return out, nil
}

type keyID struct {
	key string
	id  int64
}

func scanKeyID(row rowScanner) (keyID, error) {
	var kv keyID
	if err := row.Scan(&kv.key, &kv.id); err != nil {
		return kv, fmt.Errorf("sqlite: scan key: %w", err)
	}
	return kv, nil
}

const personCardColumns = `id, external_id, full_name, title, company_name, network_url, city, region, country_code, score`

func scanPersonCard(row rowScanner) (*prospector.Person, error) {
	var (
		p     prospector.Person
		score sql.NullFloat64
	)
	if err := row.Scan(&p.ID, &p.ExternalID, &p.FullName, &p.Title, &p.CompanyName, &p.NetworkURL, &p.City, &p.Region,
		&p.CountryCode, &score); err != nil {
		return nil, fmt.Errorf("sqlite: scan person card: %w", err)
	}
	p.Score = float64Ptr(score)
	return &p, nil
}

// PersonCards reads only the fields result lists show.
func (db *DB) PersonCards(ctx context.Context, ids []int64) ([]*prospector.Person, error) {
	return queryByIDs(ctx, db, "people", personCardColumns, ids, scanPersonCard)
}
