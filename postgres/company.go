package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/prospectorhq/prospector"
)

const companyColumns = `id, domain, name, website, industry, description, keywords, city, region, country_code,
	employee_count, employee_range, founded, revenue_usd, network_url, ticker, seq, created_at, updated_at`

// companyUpdate sets seq and every column but domain (the key) and
// created_at.
// keywords travel as JSON: unnest would flatten a two-dimensional array.
const companyUpdate = `UPDATE companies AS c SET content_hash = v.content_hash, name = v.name, website = v.website,
	industry = v.industry, description = v.description,
	keywords = ARRAY(SELECT jsonb_array_elements_text(v.keywords)), city = v.city, region = v.region,
	country_code = v.country_code, employee_count = v.employee_count, employee_range = v.employee_range,
	founded = v.founded, revenue_usd = v.revenue_usd, network_url = v.network_url, ticker = v.ticker,
	updated_at = v.updated_at, seq = v.seq
	FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::jsonb[],
		$9::text[], $10::text[], $11::text[], $12::bigint[], $13::text[], $14::bigint[], $15::bigint[], $16::text[],
		$17::text[], $18::timestamptz[], $19::timestamptz[], $20::bigint[])
	AS v(id, content_hash, domain, name, website, industry, description, keywords, city, region, country_code,
		employee_count, employee_range, founded, revenue_usd, network_url, ticker, created_at, updated_at, seq)
	WHERE c.id = v.id`

func companySpec() *upsertSpec[*prospector.Company] {
	now := nowUTC()
	return &upsertSpec[*prospector.Company]{
		table:      "companies",
		keyColumn:  "domain",
		sequenced:  true,
		suppressed: (*prospector.SuppressionSet).Company,
		columns: []string{"id", "content_hash", "domain", "name", "website", "industry", "description", "keywords",
			"city", "region", "country_code", "employee_count", "employee_range", "founded", "revenue_usd",
			"network_url", "ticker", "created_at", "updated_at"},
		key:   func(c *prospector.Company) string { return c.Domain },
		hash:  func(c *prospector.Company) (int64, error) { return c.ContentHash(), nil },
		setID: func(c *prospector.Company, id int64) { c.ID = id },
		row: func(id, hash int64, c *prospector.Company) ([]any, error) {
			return []any{id, hash, c.Domain, c.Name, c.Website, c.Industry, c.Description, stringList(c.Keywords),
				c.City, c.Region, c.CountryCode, c.EmployeeCount, c.EmployeeRange, c.Founded, c.RevenueUSD,
				c.NetworkURL, c.Ticker, now, now}, nil
		},
		update: companyUpdate,
	}
}

// UpsertCompanies upserts by domain in one transaction.
func (db *DB) UpsertCompanies(ctx context.Context, cs []*prospector.Company) (prospector.UpsertResult, error) {
	return upsert(ctx, db, companySpec(), cs)
}

func scanCompany(row pgx.Row) (*prospector.Company, error) {
	var c prospector.Company
	err := row.Scan(&c.ID, &c.Domain, &c.Name, &c.Website, &c.Industry, &c.Description, &c.Keywords, &c.City,
		&c.Region, &c.CountryCode, &c.EmployeeCount, &c.EmployeeRange, &c.Founded, &c.RevenueUSD, &c.NetworkURL,
		&c.Ticker, &c.Seq, &c.CreatedAt, &c.UpdatedAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, prospector.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("postgres: scan company: %w", err)
	}
	c.Keywords = stringList(c.Keywords)
	c.CreatedAt, c.UpdatedAt = c.CreatedAt.UTC(), c.UpdatedAt.UTC()
	return &c, nil
}

// CompanyByDomain returns ErrNotFound for an unknown domain.
func (db *DB) CompanyByDomain(ctx context.Context, domain string) (*prospector.Company, error) {
	return scanCompany(db.pool.QueryRow(ctx, `SELECT `+companyColumns+` FROM companies WHERE domain = $1`, domain))
}

// CompanyByName returns ErrNotFound when no company has the name. The
// WHERE clause repeats the indexed expression lower(name) so the
// companies_name_lower index serves it.
func (db *DB) CompanyByName(ctx context.Context, name string) (*prospector.Company, error) {
	if name == "" {
		return nil, prospector.ErrNotFound
	}
	return scanCompany(db.pool.QueryRow(ctx, `SELECT `+companyColumns+` FROM companies
		WHERE lower(name) = lower($1) ORDER BY employee_count DESC NULLS LAST, id LIMIT 1`, name))
}

// CompanyByNetworkURL returns ErrNotFound for an unknown URL. Several
// companies may share a URL: the first stored wins.
func (db *DB) CompanyByNetworkURL(ctx context.Context, url string) (*prospector.Company, error) {
	if url == "" {
		return nil, prospector.ErrNotFound
	}
	return scanCompany(db.pool.QueryRow(ctx, `SELECT `+companyColumns+` FROM companies
		WHERE network_url = $1 AND network_url <> '' ORDER BY id LIMIT 1`, url))
}

// CompaniesByID returns the companies with those ids.
func (db *DB) CompaniesByID(ctx context.Context, ids []int64) ([]*prospector.Company, error) {
	return queryByIDs(ctx, db, `SELECT `+companyColumns+` FROM companies WHERE id = ANY($1)`, scanCompany, ids)
}

// ListCompanies walks the table by id.
func (db *DB) ListCompanies(ctx context.Context, after int64, limit int) ([]*prospector.Company, error) {
	return queryList(ctx, db, `SELECT `+companyColumns+` FROM companies WHERE id > $1 ORDER BY id LIMIT $2`,
		scanCompany, after, sqlLimit(limit))
}

// CompaniesChangedSince walks the table by seq, reading only the
// columns the interface names.
func (db *DB) CompaniesChangedSince(ctx context.Context, seq int64, limit int) ([]*prospector.Company, error) {
	return queryList(ctx, db, `SELECT id, seq, domain, name, website, industry, description, keywords, city, region,
		country_code, employee_count, employee_range, revenue_usd, network_url FROM companies
		WHERE seq > $1 ORDER BY seq LIMIT $2`, scanCompanyFeed, seq, sqlLimit(limit))
}

func scanCompanyFeed(row pgx.Row) (*prospector.Company, error) {
	var c prospector.Company
	if err := row.Scan(&c.ID, &c.Seq, &c.Domain, &c.Name, &c.Website, &c.Industry, &c.Description, &c.Keywords,
		&c.City, &c.Region, &c.CountryCode, &c.EmployeeCount, &c.EmployeeRange, &c.RevenueUSD, &c.NetworkURL); err != nil {
		return nil, fmt.Errorf("postgres: scan company: %w", err)
	}
	c.Keywords = stringList(c.Keywords)
	return &c, nil
}

// CountCompanies counts every company.
func (db *DB) CountCompanies(ctx context.Context) (int64, error) { return db.count(ctx, "companies") }

// CompanyIDsByDomain resolves stored domains to ids.
func (db *DB) CompanyIDsByDomain(ctx context.Context, domains []string) (map[string]int64, error) {
	return db.idsByKey(ctx, `SELECT domain, id FROM companies WHERE domain = ANY($1)`, "companies", domains)
}

// CompanyIDsByNetworkURL resolves stored company profile URLs to ids, the
// lowest id when several companies share one. The empty URL, which most
// companies have, is never resolved.
func (db *DB) CompanyIDsByNetworkURL(ctx context.Context, urls []string) (map[string]int64, error) {
	return db.idsByKey(ctx, `SELECT network_url, min(id) FROM companies
		WHERE network_url = ANY($1) AND network_url <> '' GROUP BY network_url`, "companies", urls)
}

const companyCardColumns = `id, name, domain, website, industry, city, region, country_code, employee_count, employee_range, network_url`

func scanCompanyCard(row pgx.Row) (*prospector.Company, error) {
	var c prospector.Company
	if err := row.Scan(&c.ID, &c.Name, &c.Domain, &c.Website, &c.Industry, &c.City, &c.Region, &c.CountryCode,
		&c.EmployeeCount, &c.EmployeeRange, &c.NetworkURL); err != nil {
		return nil, fmt.Errorf("postgres: scan company card: %w", err)
	}
	return &c, nil
}

// CompanyCards reads only the fields result lists show.
func (db *DB) CompanyCards(ctx context.Context, ids []int64) ([]*prospector.Company, error) {
	return queryByIDs(ctx, db, `SELECT `+companyCardColumns+` FROM companies WHERE id = ANY($1)`, scanCompanyCard, ids)
}
