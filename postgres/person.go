package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/prospectorhq/prospector"
)

const personColumns = `id, external_id, full_name, first_name, last_name, title, job_level, job_function,
	company_id, company_name, company_domain, network_url, email, phone, city, region, country_code, score,
	seq, created_at, updated_at`

// personUpdate sets seq and every column but natural_key (the key) and
// created_at.
const personUpdate = `UPDATE people AS p SET content_hash = v.content_hash, external_id = v.external_id,
	full_name = v.full_name, first_name = v.first_name, last_name = v.last_name, title = v.title,
	job_level = v.job_level, job_function = v.job_function, company_id = v.company_id,
	company_name = v.company_name, company_domain = v.company_domain, network_url = v.network_url,
	email = v.email, phone = v.phone, city = v.city, region = v.region, country_code = v.country_code,
	score = v.score, updated_at = v.updated_at, seq = v.seq
	FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
		$9::text[], $10::text[], $11::bigint[], $12::text[], $13::text[], $14::text[], $15::text[], $16::text[],
		$17::text[], $18::text[], $19::text[], $20::float8[], $21::timestamptz[], $22::timestamptz[],
		$23::bigint[])
	AS v(id, content_hash, natural_key, external_id, full_name, first_name, last_name, title, job_level,
		job_function, company_id, company_name, company_domain, network_url, email, phone, city, region,
		country_code, score, created_at, updated_at, seq)
	WHERE p.id = v.id`

func personSpec() *upsertSpec[*prospector.Person] {
	now := nowUTC()
	return &upsertSpec[*prospector.Person]{
		table:      "people",
		keyColumn:  "natural_key",
		sequenced:  true,
		suppressed: (*prospector.SuppressionSet).Person,
		columns: []string{"id", "content_hash", "natural_key", "external_id", "full_name", "first_name", "last_name",
			"title", "job_level", "job_function", "company_id", "company_name", "company_domain", "network_url",
			"email", "phone", "city", "region", "country_code", "score", "created_at", "updated_at"},
		key:   func(p *prospector.Person) string { return p.NaturalKey() },
		hash:  func(p *prospector.Person) (int64, error) { return p.ContentHash(), nil },
		setID: func(p *prospector.Person, id int64) { p.ID = id },
		row: func(id, hash int64, p *prospector.Person) ([]any, error) {
			return []any{id, hash, p.NaturalKey(), p.ExternalID, p.FullName, p.FirstName, p.LastName, p.Title,
				p.JobLevel, p.JobFunction, p.CompanyID, p.CompanyName, p.CompanyDomain, p.NetworkURL, p.Email,
				p.Phone, p.City, p.Region, p.CountryCode, p.Score, now, now}, nil
		},
		update: personUpdate,
	}
}

// UpsertPeople upserts by natural key in one transaction.
func (db *DB) UpsertPeople(ctx context.Context, ps []*prospector.Person) (prospector.UpsertResult, error) {
	return upsert(ctx, db, personSpec(), ps)
}

func scanPerson(row pgx.Row) (*prospector.Person, error) {
	var p prospector.Person
	err := row.Scan(&p.ID, &p.ExternalID, &p.FullName, &p.FirstName, &p.LastName, &p.Title, &p.JobLevel,
		&p.JobFunction, &p.CompanyID, &p.CompanyName, &p.CompanyDomain, &p.NetworkURL, &p.Email, &p.Phone, &p.City,
		&p.Region, &p.CountryCode, &p.Score, &p.Seq, &p.CreatedAt, &p.UpdatedAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, prospector.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("postgres: scan person: %w", err)
	}
	p.CreatedAt, p.UpdatedAt = p.CreatedAt.UTC(), p.UpdatedAt.UTC()
	return &p, nil
}

// PersonByKey returns ErrNotFound for an unknown natural key.
func (db *DB) PersonByKey(ctx context.Context, key string) (*prospector.Person, error) {
	return scanPerson(db.pool.QueryRow(ctx, `SELECT `+personColumns+` FROM people WHERE natural_key = $1`, key))
}

// PeopleByID returns the people with those ids.
func (db *DB) PeopleByID(ctx context.Context, ids []int64) ([]*prospector.Person, error) {
	return queryByIDs(ctx, db, `SELECT `+personColumns+` FROM people WHERE id = ANY($1)`, scanPerson, ids)
}

// PeopleAtCompany returns a company's current people by id.
func (db *DB) PeopleAtCompany(ctx context.Context, companyID int64) ([]*prospector.Person, error) {
	return queryList(ctx, db, `SELECT `+personColumns+` FROM people WHERE company_id = $1 ORDER BY id`,
		scanPerson, companyID)
}

// ListPeople walks the table by id.
func (db *DB) ListPeople(ctx context.Context, after int64, limit int) ([]*prospector.Person, error) {
	return queryList(ctx, db, `SELECT `+personColumns+` FROM people WHERE id > $1 ORDER BY id LIMIT $2`,
		scanPerson, after, sqlLimit(limit))
}

// PeopleChangedSince walks the table by seq, reading only the columns
// the interface names.
func (db *DB) PeopleChangedSince(ctx context.Context, seq int64, limit int) ([]*prospector.Person, error) {
	return queryList(ctx, db, `SELECT id, seq, external_id, full_name, title, job_level, job_function, company_id,
		company_name, network_url, city, region, country_code, score FROM people WHERE seq > $1 ORDER BY seq LIMIT $2`,
		scanPersonFeed, seq, sqlLimit(limit))
}

func scanPersonFeed(row pgx.Row) (*prospector.Person, error) {
	var p prospector.Person
	if err := row.Scan(&p.ID, &p.Seq, &p.ExternalID, &p.FullName, &p.Title, &p.JobLevel, &p.JobFunction, &p.CompanyID,
		&p.CompanyName, &p.NetworkURL, &p.City, &p.Region, &p.CountryCode, &p.Score); err != nil {
		return nil, fmt.Errorf("postgres: scan person: %w", err)
	}
	return &p, nil
}

// CountPeople counts every person.
func (db *DB) CountPeople(ctx context.Context) (int64, error) { return db.count(ctx, "people") }

// PersonIDsByKey resolves stored natural keys to ids.
func (db *DB) PersonIDsByKey(ctx context.Context, keys []string) (map[string]int64, error) {
	return db.idsByKey(ctx, `SELECT natural_key, id FROM people WHERE natural_key = ANY($1)`, "people", keys)
}

const personCardColumns = `id, external_id, full_name, title, company_name, network_url, city, region, country_code, score`

func scanPersonCard(row pgx.Row) (*prospector.Person, error) {
	var p prospector.Person
	if err := row.Scan(&p.ID, &p.ExternalID, &p.FullName, &p.Title, &p.CompanyName, &p.NetworkURL, &p.City, &p.Region,
		&p.CountryCode, &p.Score); err != nil {
		return nil, fmt.Errorf("postgres: scan person card: %w", err)
	}
	return &p, nil
}

// PersonCards reads only the fields result lists show.
func (db *DB) PersonCards(ctx context.Context, ids []int64) ([]*prospector.Person, error) {
	return queryByIDs(ctx, db, `SELECT `+personCardColumns+` FROM people WHERE id = ANY($1)`, scanPersonCard, ids)
}
