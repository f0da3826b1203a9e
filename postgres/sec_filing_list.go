package postgres

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/prospectorhq/prospector"
)

// SECFilings returns the stored filings matching f, newest first, with
// their people.
func (db *DB) SECFilings(ctx context.Context, f prospector.SECFilingFilter) ([]*prospector.SECFiling, error) {
	var where []string
	var args []any
	if f.CIK != "" {
		args = append(args, f.CIK)
		where = append(where, "f.cik = $"+strconv.Itoa(len(args)))
	}
	if f.Status != "" {
		args = append(args, f.Status)
		where = append(where, "f.status = $"+strconv.Itoa(len(args)))
	}
	q := `SELECT f.accession, f.cik, i.name, f.form, f.filed, f.url, f.kind, f.skip_reason, f.status, f.company_id,
		f.details, f.financing, f.signals, f.processed_at, f.applied_at
		FROM sec_filings f JOIN sec_issuers i ON i.cik = f.cik`
	if len(where) > 0 {
		q += ` WHERE ` + strings.Join(where, " AND ")
	}
	args = append(args, limitOrAll(f.Limit))
	out, err := queryList(ctx, db, q+` ORDER BY f.filed DESC, f.accession DESC LIMIT $`+strconv.Itoa(len(args)),
		scanFiling, args...)
	if err != nil {
		return nil, fmt.Errorf("postgres: filings: %w", err)
	}
	if len(out) == 0 {
		return out, nil
	}
	byAcc := map[string]*prospector.SECFiling{}
	list := make([]string, len(out))
	for i, fl := range out {
		byAcc[fl.Accession], list[i] = fl, fl.Accession
	}
	rows, err := db.pool.Query(ctx, `SELECT accession, role, name, title, action, effective_date, city, state, note,
		signal_id FROM sec_filing_people WHERE accession = ANY($1) ORDER BY accession, position`, list)
	if err != nil {
		return nil, fmt.Errorf("postgres: filing people: %w", err)
	}
	var acc string
	var p prospector.FilingPerson
	_, err = pgx.ForEachRow(rows, []any{&acc, &p.Role, &p.Name, &p.Title, &p.Action, &p.EffectiveDate, &p.City, &p.State,
		&p.Note, &p.SignalID}, func() error {
		byAcc[acc].People = append(byAcc[acc].People, p)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: filing people: %w", err)
	}
	return out, nil
}

func scanFiling(row pgx.Row) (*prospector.SECFiling, error) {
	var (
		f prospector.SECFiling
		d prospector.SECFilingDetails
	)
	if err := row.Scan(&f.Accession, &f.Issuer.CIK, &f.Issuer.Name, &f.Form, &f.Filed, &f.URL, &f.Kind, &f.Skip,
		&f.Status, &f.CompanyID, &d, &f.Financing, &f.Signals, &f.ProcessedAt, &f.AppliedAt); err != nil {
		return nil, fmt.Errorf("postgres: scan filing: %w", err)
	}
	f.Offering, f.Unparsed = d.Offering, d.Unparsed
	f.ProcessedAt, f.AppliedAt = f.ProcessedAt.UTC(), utcPtr(f.AppliedAt)
	return &f, nil
}
