package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/prospectorhq/prospector"
)

const issuerColumns = `i.cik, i.name, i.former_names, i.state, i.city, i.website, i.facts_filed, i.company_id,
	coalesce(c.domain, ''), i.candidate_id, i.confidence, i.match, i.resolved_at, i.updated_at`

const issuerFrom = ` FROM sec_issuers i LEFT JOIN companies c ON c.id = i.company_id`

// secLockSpace is the first key of the two-key advisory lock that
// serialises the filings of one issuer across nodes; the second is the
// hash of its CIK.
const secLockSpace int32 = 0x73656331 // "sec1"

func scanIssuer(row pgx.Row, extra ...any) (*prospector.SECIssuer, error) {
	var i prospector.SECIssuer
	dst := append([]any{&i.CIK, &i.Name, &i.FormerNames, &i.State, &i.City, &i.Website, &i.FactsFiled, &i.CompanyID,
		&i.CompanyDomain, &i.CandidateID, &i.Confidence, &i.Match, &i.ResolvedAt, &i.UpdatedAt}, extra...)
	if err := row.Scan(dst...); err != nil {
		return nil, err
	}
	i.FormerNames = stringList(i.FormerNames)
	i.ResolvedAt, i.UpdatedAt = utcPtr(i.ResolvedAt), i.UpdatedAt.UTC()
	return &i, nil
}

// SECIssuer returns the issuer with the CIK.
func (db *DB) SECIssuer(ctx context.Context, cik string) (*prospector.SECIssuer, error) {
	i, err := scanIssuer(db.pool.QueryRow(ctx, `SELECT `+issuerColumns+issuerFrom+` WHERE i.cik = $1`, cik))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("postgres: issuer %s: %w", cik, prospector.ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("postgres: issuer %s: %w", cik, err)
	}
	return i, nil
}

// lockIssuer takes the issuer's lock for the transaction and reads it;
// nil when it is not stored yet. Filings of one issuer (and MapIssuer)
// run one at a time on every node, so reading the issuer, its filings
// and its offering's event and writing them back cannot interleave.
func lockIssuer(ctx context.Context, tx pgx.Tx, cik string) (*prospector.SECIssuer, error) {
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1, hashtext($2))`, secLockSpace, cik); err != nil {
		return nil, fmt.Errorf("lock issuer %s: %w", cik, err)
	}
	i, err := scanIssuer(tx.QueryRow(ctx, `SELECT `+issuerColumns+issuerFrom+` WHERE i.cik = $1`, cik))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("issuer %s: %w", cik, err)
	}
	return i, nil
}

// saveIssuer writes the issuer's facts and resolution.
func saveIssuer(ctx context.Context, tx pgx.Tx, i *prospector.SECIssuer, now time.Time) error {
	now = now.UTC().Truncate(time.Microsecond)
	_, err := tx.Exec(ctx, `INSERT INTO sec_issuers (cik, name, former_names, state, city, website, facts_filed,
		company_id, candidate_id, confidence, match, resolved_at, created_at, updated_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $13)
		ON CONFLICT (cik) DO UPDATE SET name = excluded.name, former_names = excluded.former_names,
			state = excluded.state, city = excluded.city, website = excluded.website, facts_filed = excluded.facts_filed,
			company_id = excluded.company_id, candidate_id = excluded.candidate_id, confidence = excluded.confidence,
			match = excluded.match, resolved_at = excluded.resolved_at, updated_at = excluded.updated_at`,
		i.CIK, i.Name, stringList(i.FormerNames), i.State, i.City, i.Website, i.FactsFiled, i.CompanyID, i.CandidateID,
		i.Confidence, i.Match, i.ResolvedAt, now)
	if err != nil {
		return fmt.Errorf("save issuer %s: %w", i.CIK, err)
	}
	i.UpdatedAt = now
	return nil
}

// UnresolvedIssuers lists the unresolved issuers with pending filings,
// most pending first.
func (db *DB) UnresolvedIssuers(ctx context.Context, limit int) ([]*prospector.SECIssuer, error) {
	out, err := queryList(ctx, db, `SELECT `+issuerColumns+`, p.n`+issuerFrom+`
		JOIN (SELECT cik, count(*) AS n FROM sec_filings WHERE status = 'pending' GROUP BY cik) p ON p.cik = i.cik
		WHERE i.company_id IS NULL ORDER BY p.n DESC, i.cik LIMIT $1`,
		func(row pgx.Row) (*prospector.SECIssuer, error) {
			var n int64
			i, err := scanIssuer(row, &n)
			if err != nil {
				return nil, err
			}
			i.Pending = int(n)
			return i, nil
		}, limitOrAll(limit))
	if err != nil {
		return nil, fmt.Errorf("postgres: unresolved issuers: %w", err)
	}
	return out, nil
}

// limitOrAll maps a limit of 0 or less, which the SEC and news reads
// take as "all", to NULL (LIMIT ALL).
func limitOrAll(n int) *int {
	if n <= 0 {
		return nil
	}
	return &n
}
