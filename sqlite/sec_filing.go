package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/prospectorhq/prospector"
)

// ApplyFiling stores one processed filing in one transaction; see
// prospector.SECStore. SQLite has one writer, so two filings of one
// offering never interleave.
func (db *DB) ApplyFiling(ctx context.Context, f *prospector.SECFiling) (prospector.FilingResult, error) {
	var res prospector.FilingResult
	if err := f.Validate(); err != nil {
		return res, err
	}
	hash, err := f.ContentHash()
	if err != nil {
		return res, err
	}
	now := time.Now()
	err = db.tx(ctx, func(tx *sql.Tx) error {
		res = prospector.FilingResult{}
		if f.Match.CompanyID > 0 {
			if _, err := companyDomainTx(ctx, tx, f.Match.CompanyID); err != nil {
				return err
			}
		}
		iss, err := issuerTx(ctx, tx, f.Issuer.CIK)
		if err != nil {
			return err
		}
		wasResolved := iss != nil && iss.Resolved()
		if iss == nil {
			iss = &prospector.SECIssuer{CIK: f.Issuer.CIK}
			iss.Absorb(f.Issuer, f.Filed, f.Match, now)
			err = saveIssuer(ctx, tx, iss, now)
		} else if iss.Absorb(f.Issuer, f.Filed, f.Match, now) {
			err = saveIssuer(ctx, tx, iss, now)
		}
		if err != nil {
			return err
		}
		var oldStatus string
		var oldHash int64
		switch err := tx.QueryRowContext(ctx, `SELECT status, content_hash FROM sec_filings WHERE accession = ?`,
			f.Accession).Scan(&oldStatus, &oldHash); {
		case errors.Is(err, sql.ErrNoRows):
		case err != nil:
			return fmt.Errorf("filing %s: %w", f.Accession, err)
		case oldHash == hash && (oldStatus != prospector.FilingPending || !iss.Resolved()):
			res.Status, res.Duplicate = oldStatus, true
			return nil
		}
		res.Status = f.StatusFor(iss.Resolved())
		if err := saveFiling(ctx, tx, f, hash, now); err != nil {
			return err
		}
		if !iss.Resolved() {
			return nil
		}
		if !wasResolved {
			// The issuer is resolved now: every filing waiting for it is
			// applied, this one among them.
			r, _, err := db.applyIssuerFilings(ctx, tx, iss, now)
			res.Add(r)
			return err
		}
		if res.Status == prospector.FilingApplied {
			r, err := db.applyFiling(ctx, tx, f, iss, now)
			res.Add(r)
			return err
		}
		return nil
	})
	if err != nil {
		return prospector.FilingResult{}, fmt.Errorf("sqlite: apply filing %s: %w", f.Accession, err)
	}
	return res, nil
}

// saveFiling writes the filing (pending or recorded; applyFiling marks it
// applied) and its people.
func saveFiling(ctx context.Context, tx *sql.Tx, f *prospector.SECFiling, hash int64, now time.Time) error {
	details, _ := json.Marshal(prospector.SECFilingDetails{Offering: f.Offering, Unparsed: f.Unparsed})
	var financing any
	if f.Financing != nil && f.Skip == "" {
		b, _ := json.Marshal(f.Financing)
		financing = string(b)
	}
	signals := []byte("[]")
	if f.Skip == "" && len(f.Signals) > 0 {
		signals, _ = json.Marshal(f.Signals)
	}
	status := f.StatusFor(false)
	if _, err := tx.ExecContext(ctx, `INSERT INTO sec_filings (accession, cik, form, filed, url, kind, skip_reason,
		event_key, status, company_id, details, financing, signals, content_hash, processed_at, applied_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, ?, NULL)
		ON CONFLICT (accession) DO UPDATE SET cik = excluded.cik, form = excluded.form, filed = excluded.filed,
			url = excluded.url, kind = excluded.kind, skip_reason = excluded.skip_reason, event_key = excluded.event_key,
			status = excluded.status, company_id = NULL, details = excluded.details, financing = excluded.financing,
			signals = excluded.signals, content_hash = excluded.content_hash, processed_at = excluded.processed_at,
			applied_at = NULL`,
		f.Accession, f.Issuer.CIK, f.Form, f.Filed, f.URL, f.Kind, f.Skip, f.EventKey(), status, string(details),
		financing, string(signals), hash, formatTime(now)); err != nil {
		return fmt.Errorf("save filing %s: %w", f.Accession, err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM sec_filing_people WHERE accession = ?`, f.Accession); err != nil {
		return fmt.Errorf("save filing %s people: %w", f.Accession, err)
	}
	for i, p := range f.People {
		if _, err := tx.ExecContext(ctx, `INSERT INTO sec_filing_people (accession, position, role, name, title, action,
			effective_date, city, state, note, signal_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			f.Accession, i, p.Role, p.Name, p.Title, p.Action, p.EffectiveDate, p.City, p.State, p.Note,
			p.SignalID); err != nil {
			return fmt.Errorf("save filing %s people: %w", f.Accession, err)
		}
	}
	return nil
}

// applyFiling writes the filing's event and signals for its issuer's
// company and marks it applied.
func (db *DB) applyFiling(ctx context.Context, tx *sql.Tx, f *prospector.SECFiling, iss *prospector.SECIssuer, now time.Time) (prospector.FilingResult, error) {
	res := prospector.FilingResult{Status: prospector.FilingApplied}
	companyID := *iss.CompanyID
	domain, err := companyDomainTx(ctx, tx, companyID)
	if err != nil {
		return res, err
	}
	var stored *prospector.FinancingEvent
	latest := true
	if key := f.EventKey(); key != "" {
		stored, err = scanFinancing(tx.QueryRowContext(ctx, `SELECT id, external_id, company_id, event_type, categories,
			financing_type, financing_type_normalized, amount, amount_normalized, effective_date, found_at, source_urls,
			investors FROM financing_events WHERE external_id = ?`, key))
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return res, err
		}
		var filed, acc string
		switch err := tx.QueryRowContext(ctx, `SELECT filed, accession FROM sec_filings
			WHERE event_key = ? AND status = 'applied' AND accession <> ? ORDER BY filed DESC, accession DESC LIMIT 1`,
			key, f.Accession).Scan(&filed, &acc); {
		case errors.Is(err, sql.ErrNoRows):
		case err != nil:
			return res, err
		default:
			latest = prospector.FilingAfter(f.Filed, f.Accession, filed, acc)
		}
	}
	event, signals := f.Outputs(companyID, domain, stored, latest)
	set, err := loadSuppressions(ctx, tx)
	if err != nil {
		return res, err
	}
	gone, err := suppressFilingPeople(ctx, tx, f.Accession, set, domain)
	if err != nil {
		return res, err
	}
	signals = slices.DeleteFunc(signals, func(s *prospector.Signal) bool { return gone[s.ExternalID] })
	res.Suppressed = len(gone)
	if event != nil {
		r, err := upsert(ctx, tx, financingSpec(), []*prospector.FinancingEvent{event})
		if err != nil {
			return res, err
		}
		res.EventsInserted, res.EventsUpdated = r.Inserted, r.Updated
	}
	r, err := upsert(ctx, tx, signalSpec(formatTime(now)), signals)
	if err != nil {
		return res, err
	}
	res.SignalsInserted, res.SignalsUpdated = r.Inserted, r.Updated
	_, err = tx.ExecContext(ctx, `UPDATE sec_filings SET status = 'applied', company_id = ?, applied_at = ?
		WHERE accession = ?`, companyID, formatTime(now), f.Accession)
	return res, err
}

// applyIssuerFilings applies every filing of the issuer that has
// something to apply (pending ones, and applied ones again), oldest
// first, so the latest filing of an offering sets its figures.
func (db *DB) applyIssuerFilings(ctx context.Context, tx *sql.Tx, iss *prospector.SECIssuer, now time.Time) (prospector.FilingResult, int, error) {
	var res prospector.FilingResult
	rows, err := tx.QueryContext(ctx, `SELECT accession, form, filed, url, kind, financing, signals FROM sec_filings
		WHERE cik = ? AND status IN ('pending', 'applied') ORDER BY filed, accession`, iss.CIK)
	fs, err := collect(rows, err, func(row rowScanner) (*prospector.SECFiling, error) {
		f := &prospector.SECFiling{Issuer: prospector.SECIssuer{CIK: iss.CIK, Name: iss.Name}}
		var financing sql.NullString
		var signals string
		if err := row.Scan(&f.Accession, &f.Form, &f.Filed, &f.URL, &f.Kind, &financing, &signals); err != nil {
			return nil, err
		}
		return f, decodeOutputs(f, financing, signals)
	})
	if err != nil {
		return res, 0, fmt.Errorf("issuer %s filings: %w", iss.CIK, err)
	}
	for _, f := range fs {
		r, err := db.applyFiling(ctx, tx, f, iss, now)
		if err != nil {
			return res, 0, err
		}
		res.Add(r)
	}
	return res, len(fs), nil
}

// decodeOutputs reads a stored filing's event and signals.
func decodeOutputs(f *prospector.SECFiling, financing sql.NullString, signals string) error {
	if financing.Valid {
		f.Financing = &prospector.FinancingEvent{}
		if err := json.Unmarshal([]byte(financing.String), f.Financing); err != nil {
			return fmt.Errorf("filing %s financing: %w", f.Accession, err)
		}
	}
	if err := json.Unmarshal([]byte(signals), &f.Signals); err != nil {
		return fmt.Errorf("filing %s signals: %w", f.Accession, err)
	}
	return nil
}

// MapIssuer resolves an issuer by hand and applies its filings.
func (db *DB) MapIssuer(ctx context.Context, cik, domain string, at time.Time) (prospector.MapResult, error) {
	var res prospector.MapResult
	co, err := db.CompanyByDomain(ctx, prospector.NormalizeDomain(domain))
	if err != nil {
		return res, err
	}
	err = db.tx(ctx, func(tx *sql.Tx) error {
		res = prospector.MapResult{}
		iss, err := issuerTx(ctx, tx, cik)
		if err != nil {
			return err
		}
		if iss == nil {
			return fmt.Errorf("issuer %s: %w", cik, prospector.ErrNotFound)
		}
		iss.MapTo(co.ID, at)
		if err := saveIssuer(ctx, tx, iss, time.Now()); err != nil {
			return err
		}
		iss.CompanyDomain = co.Domain
		res.FilingResult, res.Applied, err = db.applyIssuerFilings(ctx, tx, iss, time.Now())
		res.Issuer = iss
		return err
	})
	if err != nil {
		return prospector.MapResult{}, fmt.Errorf("sqlite: map issuer %s: %w", cik, err)
	}
	return res, nil
}

// suppressFilingPeople deletes the people of a filing the set suppresses
// by name at the filer's domain, and returns the ExternalIDs of their
// signals (a name without a signal counts too, under its position). The
// people are read back from the store: a filing applied when its issuer
// resolves is read from sec_filings, without them.
func suppressFilingPeople(ctx context.Context, tx *sql.Tx, accession string, set *prospector.SuppressionSet, domain string) (map[string]bool, error) {
	if set.Empty() {
		return nil, nil
	}
	rows, err := tx.QueryContext(ctx, `SELECT position, name, signal_id FROM sec_filing_people WHERE accession = ?`, accession)
	type named struct {
		pos          int
		name, signal string
	}
	people, err := collect(rows, err, func(r rowScanner) (named, error) {
		var n named
		return n, r.Scan(&n.pos, &n.name, &n.signal)
	})
	if err != nil {
		return nil, fmt.Errorf("filing %s people: %w", accession, err)
	}
	gone := map[string]bool{}
	for _, p := range people {
		if !prospector.SuppressedFilingName(set, p.name, domain) {
			continue
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM sec_filing_people WHERE accession = ? AND position = ?`, accession, p.pos); err != nil {
			return nil, fmt.Errorf("filing %s: suppressed person: %w", accession, err)
		}
		key := p.signal
		if key == "" {
			key = fmt.Sprintf("position:%d", p.pos)
		}
		gone[key] = true
	}
	return gone, nil
}
