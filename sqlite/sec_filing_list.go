package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/prospectorhq/prospector"
)

// SECFilings returns the stored filings matching f, newest first, with
// their people.
func (db *DB) SECFilings(ctx context.Context, f prospector.SECFilingFilter) ([]*prospector.SECFiling, error) {
	var where []string
	var args []any
	if f.CIK != "" {
		where, args = append(where, "f.cik = ?"), append(args, f.CIK)
	}
	if f.Status != "" {
		where, args = append(where, "f.status = ?"), append(args, f.Status)
	}
	q := `SELECT f.accession, f.cik, i.name, f.form, f.filed, f.url, f.kind, f.skip_reason, f.status, f.company_id,
		f.details, f.financing, f.signals, f.processed_at, f.applied_at
		FROM sec_filings f JOIN sec_issuers i ON i.cik = f.cik`
	if len(where) > 0 {
		q += ` WHERE ` + strings.Join(where, " AND ")
	}
	limit := f.Limit
	if limit <= 0 {
		limit = -1
	}
	out, err := queryPrepared(ctx, db, q+` ORDER BY f.filed DESC, f.accession DESC LIMIT (? + 0)`, scanFiling,
		append(args, limit)...)
	if err != nil {
		return nil, fmt.Errorf("sqlite: filings: %w", err)
	}
	if len(out) == 0 {
		return out, nil
	}
	byAcc := map[string]*prospector.SECFiling{}
	list := make([]string, len(out))
	for i, fl := range out {
		byAcc[fl.Accession], list[i] = fl, fl.Accession
	}
	ids, _ := json.Marshal(list)
	rows, err := db.read.QueryContext(ctx, `SELECT accession, role, name, title, action, effective_date, city, state,
		note, signal_id FROM sec_filing_people WHERE accession IN (SELECT value FROM json_each(?))
		ORDER BY accession, position`, string(ids))
	err = eachRow(rows, err, func(r *sql.Rows) error {
		var acc string
		var p prospector.FilingPerson
		if err := r.Scan(&acc, &p.Role, &p.Name, &p.Title, &p.Action, &p.EffectiveDate, &p.City, &p.State, &p.Note,
			&p.SignalID); err != nil {
			return err
		}
		byAcc[acc].People = append(byAcc[acc].People, p)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("sqlite: filing people: %w", err)
	}
	return out, nil
}

func scanFiling(row rowScanner) (*prospector.SECFiling, error) {
	var (
		f                   prospector.SECFiling
		company             sql.NullInt64
		financing, applied  sql.NullString
		details, signals, p string
	)
	if err := row.Scan(&f.Accession, &f.Issuer.CIK, &f.Issuer.Name, &f.Form, &f.Filed, &f.URL, &f.Kind, &f.Skip,
		&f.Status, &company, &details, &financing, &signals, &p, &applied); err != nil {
		return nil, err
	}
	var d prospector.SECFilingDetails
	if err := json.Unmarshal([]byte(details), &d); err != nil {
		return nil, fmt.Errorf("filing %s details: %w", f.Accession, err)
	}
	f.Offering, f.Unparsed = d.Offering, d.Unparsed
	f.CompanyID, f.ProcessedAt, f.AppliedAt = int64Ptr(company), parseTime(p), parseTimePtr(applied)
	return &f, decodeOutputs(&f, financing, signals)
}
