package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/prospectorhq/prospector"
)

// ApplyFiling stores one processed filing in one transaction under its
// issuer's lock; see prospector.SECStore.
func (db *DB) ApplyFiling(ctx context.Context, f *prospector.SECFiling) (prospector.FilingResult, error) {
	var res prospector.FilingResult
	if err := f.Validate(); err != nil {
		return res, err
	}
	hash, err := f.ContentHash()
	if err != nil {
		return res, err
	}
	now := time.Now().UTC().Truncate(time.Microsecond)
	err = pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		res = prospector.FilingResult{}
		st, err := filingState(ctx, tx, f)
		if err != nil {
			return err
		}
		iss := st.issuer
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
		if st.stored && st.hash == hash && (st.status != prospector.FilingPending || !iss.Resolved()) {
			res.Status, res.Duplicate = st.status, true
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
			r, _, err := applyIssuerFilings(ctx, tx, iss, now)
			res.Add(r)
			return err
		}
		if res.Status == prospector.FilingApplied {
			r, err := applyFiling(ctx, tx, f, iss, now)
			res.Add(r)
			return err
		}
		return nil
	})
	if err != nil {
		return prospector.FilingResult{}, fmt.Errorf("postgres: apply filing %s: %w", f.Accession, err)
	}
	return res, nil
}

// storedFiling is what ApplyFiling reads first: the issuer (nil when
// new) and the filing as stored, if it is.
type storedFiling struct {
	issuer *prospector.SECIssuer
	stored bool
	status string
	hash   int64
}

// filingState takes the issuer's lock and reads the issuer, the filing's
// stored status and hash, and checks the match's company, in one round
// trip (the statements of a batch run in order, so the reads follow the
// lock). ErrNotFound when the match names no company.
func filingState(ctx context.Context, tx pgx.Tx, f *prospector.SECFiling) (storedFiling, error) {
	var st storedFiling
	b := &pgx.Batch{}
	b.Queue(`SELECT pg_advisory_xact_lock($1, hashtext($2))`, secLockSpace, f.Issuer.CIK)
	b.Queue(`SELECT `+issuerColumns+issuerFrom+` WHERE i.cik = $1`, f.Issuer.CIK)
	b.Queue(`SELECT status, content_hash FROM sec_filings WHERE accession = $1`, f.Accession)
	if f.Match.CompanyID > 0 {
		b.Queue(`SELECT count(*) FROM companies WHERE id = $1`, f.Match.CompanyID)
	}
	br := tx.SendBatch(ctx, b)
	defer br.Close()
	if _, err := br.Exec(); err != nil {
		return st, fmt.Errorf("lock issuer %s: %w", f.Issuer.CIK, err)
	}
	iss, err := scanIssuer(br.QueryRow())
	switch {
	case errors.Is(err, pgx.ErrNoRows):
	case err != nil:
		return st, fmt.Errorf("issuer %s: %w", f.Issuer.CIK, err)
	default:
		st.issuer = iss
	}
	switch err := br.QueryRow().Scan(&st.status, &st.hash); {
	case errors.Is(err, pgx.ErrNoRows):
	case err != nil:
		return st, fmt.Errorf("filing %s: %w", f.Accession, err)
	default:
		st.stored = true
	}
	if f.Match.CompanyID > 0 {
		var n int
		if err := br.QueryRow().Scan(&n); err != nil {
			return st, fmt.Errorf("company %d: %w", f.Match.CompanyID, err)
		}
		if n == 0 {
			return st, fmt.Errorf("company %d: %w", f.Match.CompanyID, prospector.ErrNotFound)
		}
	}
	return st, br.Close()
}

// saveFiling writes the filing (pending or recorded; applyFiling marks it
// applied) and its people, in one round trip.
func saveFiling(ctx context.Context, tx pgx.Tx, f *prospector.SECFiling, hash int64, now time.Time) error {
	details, _ := json.Marshal(prospector.SECFilingDetails{Offering: f.Offering, Unparsed: f.Unparsed})
	var financing []byte
	if f.Financing != nil && f.Skip == "" {
		financing, _ = json.Marshal(f.Financing)
	}
	signals := []byte("[]")
	if f.Skip == "" && len(f.Signals) > 0 {
		signals, _ = json.Marshal(f.Signals)
	}
	b := &pgx.Batch{}
	b.Queue(`INSERT INTO sec_filings (accession, cik, form, filed, url, kind, skip_reason, event_key, status,
		company_id, details, financing, signals, content_hash, processed_at, applied_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, NULL, $10, $11, $12, $13, $14, NULL)
		ON CONFLICT (accession) DO UPDATE SET cik = excluded.cik, form = excluded.form, filed = excluded.filed,
			url = excluded.url, kind = excluded.kind, skip_reason = excluded.skip_reason, event_key = excluded.event_key,
			status = excluded.status, company_id = NULL, details = excluded.details, financing = excluded.financing,
			signals = excluded.signals, content_hash = excluded.content_hash, processed_at = excluded.processed_at,
			applied_at = NULL`,
		f.Accession, f.Issuer.CIK, f.Form, f.Filed, f.URL, f.Kind, f.Skip, f.EventKey(), f.StatusFor(false), details,
		financing, signals, hash, now)
	b.Queue(`DELETE FROM sec_filing_people WHERE accession = $1`, f.Accession)
	if len(f.People) > 0 {
		n := len(f.People)
		pos, roles, names, titles, actions, dates := make([]int32, n), make([]string, n), make([]string, n),
			make([]string, n), make([]string, n), make([]string, n)
		cities, states, notes, sigs := make([]string, n), make([]string, n), make([]string, n), make([]string, n)
		for i, p := range f.People {
			pos[i], roles[i], names[i], titles[i], actions[i], dates[i] = int32(i), p.Role, p.Name, p.Title, p.Action, p.EffectiveDate
			cities[i], states[i], notes[i], sigs[i] = p.City, p.State, p.Note, p.SignalID
		}
		b.Queue(`INSERT INTO sec_filing_people (accession, position, role, name, title, action, effective_date, city,
			state, note, signal_id) SELECT $1, * FROM unnest($2::int[], $3::text[], $4::text[], $5::text[], $6::text[],
			$7::text[], $8::text[], $9::text[], $10::text[], $11::text[])`,
			f.Accession, pos, roles, names, titles, actions, dates, cities, states, notes, sigs)
	}
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return fmt.Errorf("save filing %s: %w", f.Accession, err)
	}
	return nil
}

// applyFiling writes the filing's event and signals for its issuer's
// company and marks it applied. The events' and signals' upsert locks
// come last and are held to commit.
func applyFiling(ctx context.Context, tx pgx.Tx, f *prospector.SECFiling, iss *prospector.SECIssuer, now time.Time) (prospector.FilingResult, error) {
	res := prospector.FilingResult{Status: prospector.FilingApplied}
	companyID := *iss.CompanyID
	domain, stored, latest, err := applyState(ctx, tx, f, companyID)
	if err != nil {
		return res, err
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
		r, err := upsertTx(ctx, tx, financingSpec(), []*prospector.FinancingEvent{event})
		if err != nil {
			return res, err
		}
		res.EventsInserted, res.EventsUpdated = r.Inserted, r.Updated
	}
	if len(signals) > 0 {
		r, err := upsertTx(ctx, tx, signalSpec(), signals)
		if err != nil {
			return res, err
		}
		res.SignalsInserted, res.SignalsUpdated = r.Inserted, r.Updated
	}
	_, err = tx.Exec(ctx, `UPDATE sec_filings SET status = 'applied', company_id = $1, applied_at = $2
		WHERE accession = $3`, companyID, now, f.Accession)
	return res, err
}

// applyState reads what applying f needs, in one round trip: the
// company's domain, the event stored under f's key and whether f comes
// after every other applied filing of that offering.
func applyState(ctx context.Context, tx pgx.Tx, f *prospector.SECFiling, companyID int64) (string, *prospector.FinancingEvent, bool, error) {
	key := f.EventKey()
	b := &pgx.Batch{}
	b.Queue(`SELECT domain FROM companies WHERE id = $1`, companyID)
	if key != "" {
		b.Queue(`SELECT id, external_id, company_id, event_type, categories, financing_type, financing_type_normalized,
			amount, amount_normalized, effective_date, found_at, source_urls, investors
			FROM financing_events WHERE external_id = $1`, key)
		b.Queue(`SELECT filed, accession FROM sec_filings WHERE event_key = $1 AND status = 'applied' AND accession <> $2
			ORDER BY filed DESC, accession DESC LIMIT 1`, key, f.Accession)
	}
	br := tx.SendBatch(ctx, b)
	defer br.Close()
	var domain string
	if err := br.QueryRow().Scan(&domain); errors.Is(err, pgx.ErrNoRows) {
		return "", nil, false, fmt.Errorf("company %d: %w", companyID, prospector.ErrNotFound)
	} else if err != nil {
		return "", nil, false, err
	}
	if key == "" {
		return domain, nil, true, br.Close()
	}
	stored, err := scanFinancing(br.QueryRow())
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return "", nil, false, err
	}
	latest := true
	var filed, acc string
	switch err := br.QueryRow().Scan(&filed, &acc); {
	case errors.Is(err, pgx.ErrNoRows):
	case err != nil:
		return "", nil, false, err
	default:
		latest = prospector.FilingAfter(f.Filed, f.Accession, filed, acc)
	}
	return domain, stored, latest, br.Close()
}

// applyIssuerFilings applies every filing of the issuer that has
// something to apply (pending ones, and applied ones again), oldest
// first, so the latest filing of an offering sets its figures.
func applyIssuerFilings(ctx context.Context, tx pgx.Tx, iss *prospector.SECIssuer, now time.Time) (prospector.FilingResult, int, error) {
	var res prospector.FilingResult
	rows, err := tx.Query(ctx, `SELECT accession, form, filed, url, kind, financing, signals FROM sec_filings
		WHERE cik = $1 AND status IN ('pending', 'applied') ORDER BY filed, accession`, iss.CIK)
	if err != nil {
		return res, 0, fmt.Errorf("issuer %s filings: %w", iss.CIK, err)
	}
	fs, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (*prospector.SECFiling, error) {
		f := &prospector.SECFiling{Issuer: prospector.SECIssuer{CIK: iss.CIK, Name: iss.Name}}
		if err := row.Scan(&f.Accession, &f.Form, &f.Filed, &f.URL, &f.Kind, &f.Financing, &f.Signals); err != nil {
			return nil, err
		}
		return f, nil
	})
	if err != nil {
		return res, 0, fmt.Errorf("issuer %s filings: %w", iss.CIK, err)
	}
	for _, f := range fs {
		r, err := applyFiling(ctx, tx, f, iss, now)
		if err != nil {
			return res, 0, err
		}
		res.Add(r)
	}
	return res, len(fs), nil
}

// MapIssuer resolves an issuer by hand and applies its filings.
func (db *DB) MapIssuer(ctx context.Context, cik, domain string, at time.Time) (prospector.MapResult, error) {
	var res prospector.MapResult
	co, err := db.CompanyByDomain(ctx, prospector.NormalizeDomain(domain))
	if err != nil {
		return res, err
	}
	now := time.Now().UTC().Truncate(time.Microsecond)
	err = pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		res = prospector.MapResult{}
		iss, err := lockIssuer(ctx, tx, cik)
		if err != nil {
			return err
		}
		if iss == nil {
			return fmt.Errorf("issuer %s: %w", cik, prospector.ErrNotFound)
		}
		iss.MapTo(co.ID, at)
		if err := saveIssuer(ctx, tx, iss, now); err != nil {
			return err
		}
		iss.CompanyDomain = co.Domain
		res.FilingResult, res.Applied, err = applyIssuerFilings(ctx, tx, iss, now)
		res.Issuer = iss
		return err
	})
	if err != nil {
		return prospector.MapResult{}, fmt.Errorf("postgres: map issuer %s: %w", cik, err)
	}
	return res, nil
}

// suppressFilingPeople deletes the people of a filing the set suppresses
// by name at the filer's domain, and returns the ExternalIDs of their
// signals (a name without a signal counts too, under its position). The
// people are read back from the store: a filing applied when its issuer
// resolves is read from sec_filings, without them.
func suppressFilingPeople(ctx context.Context, tx pgx.Tx, accession string, set *prospector.SuppressionSet, domain string) (map[string]bool, error) {
	if set.Empty() {
		return nil, nil
	}
	rows, err := tx.Query(ctx, `SELECT position, name, signal_id FROM sec_filing_people WHERE accession = $1`, accession)
	type named struct {
		pos          int
		name, signal string
	}
	people, err := collectRows(rows, err, func(r pgx.Row) (named, error) {
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
		if _, err := tx.Exec(ctx, `DELETE FROM sec_filing_people WHERE accession = $1 AND position = $2`, accession, p.pos); err != nil {
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
