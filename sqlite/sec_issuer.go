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

const issuerColumns = `i.cik, i.name, i.former_names, i.state, i.city, i.website, i.facts_filed, i.company_id,
	coalesce(c.domain, ''), i.candidate_id, i.confidence, i.match, i.resolved_at, i.updated_at`

const issuerFrom = ` FROM sec_issuers i LEFT JOIN companies c ON c.id = i.company_id`

func scanIssuer(row rowScanner, extra ...any) (*prospector.SECIssuer, error) {
	var (
		i                  prospector.SECIssuer
		former, updated    string
		company, candidate sql.NullInt64
		resolved           sql.NullString
	)
	dst := append([]any{&i.CIK, &i.Name, &former, &i.State, &i.City, &i.Website, &i.FactsFiled, &company,
		&i.CompanyDomain, &candidate, &i.Confidence, &i.Match, &resolved, &updated}, extra...)
	if err := row.Scan(dst...); err != nil {
		return nil, err
	}
	if err := json.Unmarshal([]byte(former), &i.FormerNames); err != nil {
		return nil, fmt.Errorf("issuer %s former names: %w", i.CIK, err)
	}
	i.CompanyID, i.CandidateID = int64Ptr(company), int64Ptr(candidate)
	i.ResolvedAt, i.UpdatedAt = parseTimePtr(resolved), parseTime(updated)
	return &i, nil
}

// SECIssuer returns the issuer with the CIK.
func (db *DB) SECIssuer(ctx context.Context, cik string) (*prospector.SECIssuer, error) {
	i, err := scanIssuer(db.row(ctx, `SELECT `+issuerColumns+issuerFrom+` WHERE i.cik = ?`, cik))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("sqlite: issuer %s: %w", cik, prospector.ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("sqlite: issuer %s: %w", cik, err)
	}
	return i, nil
}

// issuerTx reads an issuer in tx; nil when there is none.
func issuerTx(ctx context.Context, tx *sql.Tx, cik string) (*prospector.SECIssuer, error) {
	i, err := scanIssuer(tx.QueryRowContext(ctx, `SELECT `+issuerColumns+issuerFrom+` WHERE i.cik = ?`, cik))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("issuer %s: %w", cik, err)
	}
	return i, nil
}

// saveIssuer writes the issuer's facts and resolution.
func saveIssuer(ctx context.Context, tx *sql.Tx, i *prospector.SECIssuer, now time.Time) error {
	former, _ := json.Marshal(nonNil(i.FormerNames))
	ts := formatTime(now)
	_, err := tx.ExecContext(ctx, `INSERT INTO sec_issuers (cik, name, former_names, state, city, website, facts_filed,
		company_id, candidate_id, confidence, match, resolved_at, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (cik) DO UPDATE SET name = excluded.name, former_names = excluded.former_names,
			state = excluded.state, city = excluded.city, website = excluded.website, facts_filed = excluded.facts_filed,
			company_id = excluded.company_id, candidate_id = excluded.candidate_id, confidence = excluded.confidence,
			match = excluded.match, resolved_at = excluded.resolved_at, updated_at = excluded.updated_at`,
		i.CIK, i.Name, string(former), i.State, i.City, i.Website, i.FactsFiled, nullInt(i.CompanyID),
		nullInt(i.CandidateID), i.Confidence, i.Match, formatTimePtr(i.ResolvedAt), ts, ts)
	if err != nil {
		return fmt.Errorf("save issuer %s: %w", i.CIK, err)
	}
	i.UpdatedAt = parseTime(ts)
	return nil
}

func nonNil(l []string) []string {
	if l == nil {
		return []string{}
	}
	return l
}

// UnresolvedIssuers lists the unresolved issuers with pending filings,
// most pending first.
func (db *DB) UnresolvedIssuers(ctx context.Context, limit int) ([]*prospector.SECIssuer, error) {
	if limit <= 0 {
		limit = -1
	}
	out, err := queryPrepared(ctx, db, `SELECT `+issuerColumns+`, p.n`+issuerFrom+`
		JOIN (SELECT cik, count(*) AS n FROM sec_filings WHERE status = 'pending' GROUP BY cik) p ON p.cik = i.cik
		WHERE i.company_id IS NULL ORDER BY p.n DESC, i.cik LIMIT (? + 0)`,
		func(row rowScanner) (*prospector.SECIssuer, error) {
			var n int
			i, err := scanIssuer(row, &n)
			if err != nil {
				return nil, err
			}
			i.Pending = n
			return i, nil
		}, limit)
	if err != nil {
		return nil, fmt.Errorf("sqlite: unresolved issuers: %w", err)
	}
	return out, nil
}

// companyDomainTx returns the domain of the company with the id, in
// tx; ErrNotFound when there is none.
func companyDomainTx(ctx context.Context, tx *sql.Tx, id int64) (string, error) {
	var d string
	err := tx.QueryRowContext(ctx, `SELECT domain FROM companies WHERE id = ?`, id).Scan(&d)
	if errors.Is(err, sql.ErrNoRows) {
		return "", fmt.Errorf("company %d: %w", id, prospector.ErrNotFound)
	}
	return d, err
}
