package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/prospectorhq/prospector"
)

const companyColumns = `id, domain, name, website, industry, description, keywords, city, region, country_code,
	employee_count, employee_range, founded, revenue_usd, network_url, ticker, seq, created_at, updated_at`

func companySpec(now string) upsertSpec[*prospector.Company] {
	return upsertSpec[*prospector.Company]{
		table:      "companies",
		sequenced:  true,
		suppressed: (*prospector.SuppressionSet).Company,
		columns: []string{"domain", "name", "website", "industry", "description", "keywords", "city", "region",
			"country_code", "employee_count", "employee_range", "founded", "revenue_usd", "network_url", "ticker",
			"created_at", "updated_at"},
		key:   func(c *prospector.Company) string { return c.Domain },
		hash:  func(c *prospector.Company) (int64, error) { return c.ContentHash(), nil },
		setID: func(c *prospector.Company, id int64) { c.ID = id },
		values: func(c *prospector.Company) ([]any, error) {
			return []any{c.Domain, c.Name, c.Website, c.Industry, c.Description, jsonList(c.Keywords), c.City, c.Region,
				c.CountryCode, nullInt(c.EmployeeCount), c.EmployeeRange, nullInt(c.Founded), nullInt(c.RevenueUSD),
				c.NetworkURL, c.Ticker, now, now}, nil
		},
	}
}

// UpsertCompanies upserts by domain in one transaction.
func (db *DB) UpsertCompanies(ctx context.Context, cs []*prospector.Company) (prospector.UpsertResult, error) {
	return upsertBulk(ctx, db, companySpec(formatTime(time.Now())), cs)
}

func scanCompany(row rowScanner) (*prospector.Company, error) {
	var (
		c                          prospector.Company
		keywords, created, updated string
		count, founded, revenue    sql.NullInt64
	)
	err := row.Scan(&c.ID, &c.Domain, &c.Name, &c.Website, &c.Industry, &c.Description, &keywords, &c.City, &c.Region,
		&c.CountryCode, &count, &c.EmployeeRange, &founded, &revenue, &c.NetworkURL, &c.Ticker, &c.Seq, &created, &updated)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, prospector.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("sqlite: scan company: %w", err)
	}
	if err := json.Unmarshal([]byte(keywords), &c.Keywords); err != nil {
		return nil, fmt.Errorf("sqlite: company %d keywords: %w", c.ID, err)
	}
	c.EmployeeCount, c.Founded, c.RevenueUSD = int64Ptr(count), int64Ptr(founded), int64Ptr(revenue)
	c.CreatedAt, c.UpdatedAt = parseTime(created), parseTime(updated)
	return &c, nil
}

// CompanyByDomain returns ErrNotFound for an unknown domain.
func (db *DB) CompanyByDomain(ctx context.Context, domain string) (*prospector.Company, error) {
	return scanCompany(db.row(ctx, `SELECT `+companyColumns+` FROM companies WHERE domain = ?`, domain))
}

// CompanyByName returns ErrNotFound when no company has the name. Case is
// ignored for ASCII letters only: SQLite's lower() does not fold others.
// The WHERE clause repeats the indexed expression lower(name) so the
// companies_name_lower index serves it.
func (db *DB) CompanyByName(ctx context.Context, name string) (*prospector.Company, error) {
	if name == "" {
		return nil, prospector.ErrNotFound
	}
	return scanCompany(db.row(ctx, `SELECT `+companyColumns+` FROM companies
		WHERE lower(name) = lower(?) ORDER BY employee_count IS NULL, employee_count DESC, id LIMIT 1`, name))
}

// CompanyByNetworkURL returns ErrNotFound for an unknown URL.
func (db *DB) CompanyByNetworkURL(ctx context.Context, url string) (*prospector.Company, error) {
	if url == "" {
		return nil, prospector.ErrNotFound
	}
	return scanCompany(db.row(ctx, `SELECT `+companyColumns+` FROM companies
		WHERE network_url = ? ORDER BY id LIMIT 1`, url))
}

// CompaniesByID returns the companies with those ids.
func (db *DB) CompaniesByID(ctx context.Context, ids []int64) ([]*prospector.Company, error) {
	return queryByIDs(ctx, db, "companies", companyColumns, ids, scanCompany)
}

// ListCompanies walks the table by id.
func (db *DB) ListCompanies(ctx context.Context, after int64, limit int) ([]*prospector.Company, error) {
	return queryList(ctx, db.read, `SELECT `+companyColumns+` FROM companies WHERE id > ? ORDER BY id LIMIT ?`,
		scanCompany, after, limit)
}

// CountCompanies counts every company.
func (db *DB) CountCompanies(ctx context.Context) (int64, error) { return db.count(ctx, "companies") }

// CompanyIDsByDomain resolves stored domains to ids.
func (db *DB) CompanyIDsByDomain(ctx context.Context, domains []string) (map[string]int64, error) {
	return db.idsByKey(ctx, "companies", "domain", domains)
}

// CompanyIDsByNetworkURL resolves stored company profile URLs to ids.
func (db *DB) CompanyIDsByNetworkURL(ctx context.Context, urls []string) (map[string]int64, error) {
	return db.idsByKey(ctx, "companies", "network_url", urls)
}

const companyCardColumns = `id, name, domain, website, industry, city, region, country_code, employee_count, employee_range, network_url`

func scanCompanyCard(row rowScanner) (*prospector.Company, error) {
	var (
		c     prospector.Company
		count sql.NullInt64
	)
	if err := row.Scan(&c.ID, &c.Name, &c.Domain, &c.Website, &c.Industry, &c.City, &c.Region, &c.CountryCode,
		&count, &c.EmployeeRange, &c.NetworkURL); err != nil {
		return nil, fmt.Errorf("sqlite: scan company card: %w", err)
	}
	c.EmployeeCount = int64Ptr(count)
	return &c, nil
}

// CompanyCards reads only the fields result lists show.
func (db *DB) CompanyCards(ctx context.Context, ids []int64) ([]*prospector.Company, error) {
	return queryByIDs(ctx, db, "companies", companyCardColumns, ids, scanCompanyCard)
}
