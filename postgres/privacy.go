package postgres

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/prospectorhq/prospector"
)

// subjectRows are the rows a subject names, resolved once for finding
// or erasing. Lists are never nil: a nil slice would be sent as NULL.
type subjectRows struct {
	people    []*prospector.Person
	companies []prospector.SubjectCompany
	personIDs []int64
	coIDs     []int64
	emails    []string // lowercase
	urls      []string
	secNames  []string // people by name at a company, for SEC filings
	secCos    []int64
	domain    string // set for a domain subject
	leadIDs   []string
}

// resolveSubject reads the companies and people s names.
func resolveSubject(ctx context.Context, q querier, s prospector.Subject) (*subjectRows, error) {
	r := &subjectRows{personIDs: []int64{}, coIDs: []int64{}, emails: []string{}, urls: []string{},
		secNames: []string{}, secCos: []int64{}}
	var where string
	var args []any
	switch s.Kind {
	case prospector.SubjectProfileURL:
		where, args = `natural_key = $1`, []any{"url:" + s.Value}
		r.urls = append(r.urls, s.Value)
	case prospector.SubjectEmail:
		where, args = `lower(email) = $1`, []any{s.Value}
		r.emails = append(r.emails, s.Value)
	case prospector.SubjectName:
		where, args = `company_domain = $1 OR company_id IN (SELECT id FROM companies WHERE domain = $1)`, []any{s.Domain}
	case prospector.SubjectDomain:
		r.domain = s.Value
		where = `company_domain = $1 OR company_id IN (SELECT id FROM companies WHERE domain = $1) OR lower(email) LIKE $2`
		args = []any{s.Value, "%@" + s.Value}
		rows, err := q.Query(ctx, `SELECT c.id, c.domain, c.name, c.created_at, c.updated_at,
			EXISTS (SELECT 1 FROM watches WHERE domain = c.domain),
			(SELECT count(*) FROM job_openings WHERE company_id = c.id) FROM companies c WHERE c.domain = $1`, s.Value)
		cs, err := collectRows(rows, err, func(row pgx.Row) (prospector.SubjectCompany, error) {
			var c prospector.SubjectCompany
			err := row.Scan(&c.ID, &c.Domain, &c.Name, &c.CreatedAt, &c.UpdatedAt, &c.Watched, &c.Openings)
			c.CreatedAt, c.UpdatedAt = c.CreatedAt.UTC(), c.UpdatedAt.UTC()
			return c, err
		})
		if err != nil {
			return nil, fmt.Errorf("postgres: subject companies: %w", err)
		}
		r.companies = cs
		for _, c := range cs {
			r.coIDs = append(r.coIDs, c.ID)
		}
	default:
		return nil, prospector.Errorf(prospector.EINVALID, "subject kind %q", s.Kind)
	}
	rows, err := q.Query(ctx, `SELECT `+personColumns+` FROM people WHERE `+where+` ORDER BY id`, args...)
	people, err := collectRows(rows, err, scanPerson)
	if err != nil {
		return nil, fmt.Errorf("postgres: subject people: %w", err)
	}
	for _, p := range people {
		if s.Kind == prospector.SubjectName && prospector.NormalizeSubjectName(p.FullName) != s.Name {
			continue
		}
		r.people = append(r.people, p)
		r.personIDs = append(r.personIDs, p.ID)
		if p.Email != "" {
			r.emails = append(r.emails, strings.ToLower(p.Email))
		}
		if p.NetworkURL != "" {
			r.urls = append(r.urls, p.NetworkURL)
		}
		if p.CompanyID != nil {
			r.secNames, r.secCos = append(r.secNames, prospector.NormalizeSubjectName(p.FullName)), append(r.secCos, *p.CompanyID)
		}
	}
	if s.Kind == prospector.SubjectName {
		var co int64
		if err := q.QueryRow(ctx, `SELECT id FROM companies WHERE domain = $1`, s.Domain).Scan(&co); err == nil {
			r.secNames, r.secCos = append(r.secNames, s.Name), append(r.secCos, co)
		}
	}
	rows, err = q.Query(ctx, `SELECT id FROM leads WHERE person_id = ANY($1) OR company_id = ANY($2)
		OR lower(email) = ANY($3) OR network_url = ANY($4)`, r.personIDs, r.coIDs, r.emails, r.urls)
	r.leadIDs, err = collectRows(rows, err, scanString)
	if err != nil {
		return nil, fmt.Errorf("postgres: subject leads: %w", err)
	}
	if r.leadIDs == nil {
		r.leadIDs = []string{}
	}
	return r, nil
}

// emailMatch is the condition on an email column for the subject's
// addresses (the array $n), and the whole domain ($n+1) for a domain
// subject.
func (r *subjectRows) emailMatch(col string, n int) (string, []any) {
	return fmt.Sprintf(`(lower(%s) = ANY($%d) OR ($%d <> '' AND lower(%s) LIKE '%%@' || $%d))`, col, n, n+1, col, n+1),
		[]any{r.emails, r.domain}
}

// secMatch is the condition on sec_filing_people (p) joined to
// sec_filings (f), taking $1..$3.
const secMatch = `(f.company_id = ANY($1) OR EXISTS (SELECT 1 FROM unnest($2::text[], $3::bigint[]) AS n(name, co)
	WHERE lower(p.name) = n.name AND f.company_id = n.co))`

func (r *subjectRows) secArgs() []any { return []any{r.coIDs, r.secNames, r.secCos} }

// FindSubject returns every row naming s.
func (db *DB) FindSubject(ctx context.Context, s prospector.Subject, secret string) (*prospector.SubjectRecord, error) {
	r, err := resolveSubject(ctx, db.pool, s)
	if err != nil {
		return nil, err
	}
	out := &prospector.SubjectRecord{Subject: s.Kind, Companies: r.companies}
	for _, p := range r.people {
		out.People = append(out.People, prospector.NewSubjectPerson(p))
	}
	queries := []func() error{
		func() error {
			rows, err := db.pool.Query(ctx, `SELECT id, type, title, source_url, detected_at FROM signals
				WHERE person_id = ANY($1) OR company_id = ANY($2) ORDER BY detected_at`, r.personIDs, r.coIDs)
			out.Signals, err = collectRows(rows, err, func(row pgx.Row) (prospector.SubjectSignal, error) {
				var sg prospector.SubjectSignal
				err := row.Scan(&sg.ID, &sg.Type, &sg.Title, &sg.SourceURL, &sg.DetectedAt)
				sg.DetectedAt = sg.DetectedAt.UTC()
				return sg, err
			})
			return err
		},
		func() error {
			rows, err := db.pool.Query(ctx, `SELECT w.name, l.id, coalesce(l.radar_id, ''), l.source, l.full_name,
				coalesce(l.email, ''), l.status, l.created_at FROM leads l JOIN workspaces w ON w.id = l.workspace_id
				WHERE l.id = ANY($1) ORDER BY w.name, l.created_at`, r.leadIDs)
			out.Leads, err = collectRows(rows, err, func(row pgx.Row) (prospector.SubjectLead, error) {
				var l prospector.SubjectLead
				err := row.Scan(&l.Workspace, &l.LeadID, &l.RadarID, &l.Source, &l.FullName, &l.Email, &l.Status, &l.CreatedAt)
				l.CreatedAt = l.CreatedAt.UTC()
				return l, err
			})
			return err
		},
		func() error {
			cond, args := r.emailMatch("e.email", 1)
			rows, err := db.pool.Query(ctx, `SELECT w.name, e.email, e.created_at FROM email_lookups e
				JOIN workspaces w ON w.id = e.workspace_id WHERE `+cond+` ORDER BY e.created_at`, args...)
			out.EmailLookups, err = collectRows(rows, err, func(row pgx.Row) (prospector.SubjectEmailLookup, error) {
				var l prospector.SubjectEmailLookup
				err := row.Scan(&l.Workspace, &l.Email, &l.CreatedAt)
				l.CreatedAt = l.CreatedAt.UTC()
				return l, err
			})
			return err
		},
		func() error {
			rows, err := db.pool.Query(ctx, `SELECT w.name, d.lead_id, d.destination_kind, d.destination_url, d.status,
				d.delivered_at, d.created_at FROM deliveries d JOIN workspaces w ON w.id = d.workspace_id
				WHERE d.lead_id = ANY($1) ORDER BY d.created_at`, r.leadIDs)
			out.Deliveries, err = collectRows(rows, err, func(row pgx.Row) (prospector.SubjectDelivery, error) {
				var d prospector.SubjectDelivery
				err := row.Scan(&d.Workspace, &d.LeadID, &d.Destination, &d.URL, &d.Status, &d.DeliveredAt, &d.CreatedAt)
				d.DeliveredAt, d.CreatedAt = utcPtr(d.DeliveredAt), d.CreatedAt.UTC()
				return d, err
			})
			return err
		},
		func() error {
			rows, err := db.pool.Query(ctx, `SELECT w.name, f.lead_id, f.event_type, f.source, f.occurred_at
				FROM feedback_events f JOIN workspaces w ON w.id = f.workspace_id WHERE f.lead_id = ANY($1)
				ORDER BY f.occurred_at`, r.leadIDs)
			out.FeedbackEvents, err = collectRows(rows, err, func(row pgx.Row) (prospector.SubjectFeedbackEvent, error) {
				var e prospector.SubjectFeedbackEvent
				err := row.Scan(&e.Workspace, &e.LeadID, &e.Type, &e.Source, &e.OccurredAt)
				e.OccurredAt = e.OccurredAt.UTC()
				return e, err
			})
			return err
		},
		func() error {
			rows, err := db.pool.Query(ctx, `SELECT f.accession, f.form, f.filed::text, f.url, p.role, p.name
				FROM sec_filing_people p JOIN sec_filings f ON f.accession = p.accession WHERE `+secMatch+` ORDER BY f.filed`,
				r.secArgs()...)
			out.SECFilings, err = collectRows(rows, err, func(row pgx.Row) (prospector.SubjectFiling, error) {
				var f prospector.SubjectFiling
				return f, row.Scan(&f.Accession, &f.Form, &f.Filed, &f.URL, &f.Role, &f.Name)
			})
			return err
		},
		func() error {
			if secret == "" {
				return nil
			}
			return db.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM suppressions WHERE hash = $1)`, s.Hash(secret)).
				Scan(&out.Suppressed)
		},
	}
	for _, q := range queries {
		if err := q(); err != nil {
			return nil, fmt.Errorf("postgres: find subject: %w", err)
		}
	}
	return out, nil
}

// EraseSubject deletes what r.Subject names in one transaction. It takes
// the upsert locks of companies, people and signals first, so no batch
// can write a row of the subject between the resolution and the
// deletion, and the erasure feed's lock to give its rows ascending seqs.
func (db *DB) EraseSubject(ctx context.Context, req prospector.EraseRequest, now time.Time) (*prospector.Erased, error) {
	var out prospector.Erased
	now = now.UTC().Truncate(time.Microsecond)
	err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		out = prospector.Erased{}
		for _, t := range []string{"companies", "people", "signals"} {
			if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1, $2::regclass::oid::int)`, dataLockSpace, t); err != nil {
				return fmt.Errorf("postgres: erase subject: lock %s: %w", t, err)
			}
		}
		if _, err := tx.Exec(ctx, `LOCK TABLE erasures IN EXCLUSIVE MODE`); err != nil {
			return fmt.Errorf("postgres: erase subject: %w", err)
		}
		r, err := resolveSubject(ctx, tx, req.Subject)
		if err != nil {
			return err
		}
		rows, err := tx.Query(ctx, `SELECT w.id, w.name, count(*) FROM leads l JOIN workspaces w ON w.id = l.workspace_id
			WHERE l.id = ANY($1) GROUP BY w.id, w.name ORDER BY w.name`, r.leadIDs)
		type wsLeads struct {
			id, name string
			n        int64
		}
		affected, err := collectRows(rows, err, func(row pgx.Row) (wsLeads, error) {
			var w wsLeads
			return w, row.Scan(&w.id, &w.name, &w.n)
		})
		if err != nil {
			return fmt.Errorf("postgres: erase subject: %w", err)
		}
		emailCond, emailArgs := r.emailMatch("email", 1)
		addrCond, addrArgs := r.emailMatch("address", 1)
		for _, st := range []struct {
			count *int64
			query string
			args  []any
		}{
			{&out.Cancelled, `UPDATE deliveries SET status = 'disabled', last_error = 'cancelled: subject erased', updated_at = $1
				WHERE lead_id = ANY($2) AND status = 'pending'`, []any{now, r.leadIDs}},
			{nil, `UPDATE deliveries SET payload = '{}' WHERE lead_id = ANY($1)`, []any{r.leadIDs}},
			{&out.FeedbackEvents, `DELETE FROM feedback_events WHERE lead_id = ANY($1)`, []any{r.leadIDs}},
			{nil, `DELETE FROM lead_feedback WHERE lead_id = ANY($1)`, []any{r.leadIDs}},
			{nil, `DELETE FROM lead_signals WHERE lead_id = ANY($1)`, []any{r.leadIDs}},
			{&out.Leads, `DELETE FROM leads WHERE id = ANY($1)`, []any{r.leadIDs}},
			{&out.EmailLookups, `DELETE FROM email_lookups WHERE ` + emailCond, emailArgs},
			{nil, `DELETE FROM email_address_outcomes WHERE ` + addrCond, addrArgs},
			{nil, `DELETE FROM email_pattern_outcomes WHERE domain = $1`, []any{r.domain}},
			{&out.SECPeople, `DELETE FROM sec_filing_people p USING sec_filings f WHERE f.accession = p.accession AND ` + secMatch,
				r.secArgs()},
			{nil, `INSERT INTO erasures (seq, kind, row_id)
				SELECT (SELECT coalesce(max(seq), 0) FROM erasures) + row_number() OVER (ORDER BY id), 'signal', id
				FROM signals WHERE person_id = ANY($1) OR company_id = ANY($2)`, []any{r.personIDs, r.coIDs}},
			{&out.Signals, `DELETE FROM signals WHERE person_id = ANY($1) OR company_id = ANY($2)`, []any{r.personIDs, r.coIDs}},
			{&out.People, `DELETE FROM people WHERE id = ANY($1)`, []any{r.personIDs}},
			{nil, `INSERT INTO erasures (seq, kind, row_id) SELECT (SELECT coalesce(max(seq), 0) FROM erasures) + n, 'person', id
				FROM unnest($1::bigint[]) WITH ORDINALITY AS u(id, n)`, []any{r.personIDs}},
			{nil, `DELETE FROM watches WHERE domain = $1`, []any{r.domain}},
			{nil, `DELETE FROM radar_watches WHERE domain = $1`, []any{r.domain}},
			{&out.Companies, `DELETE FROM companies WHERE id = ANY($1)`, []any{r.coIDs}},
			{nil, `INSERT INTO erasures (seq, kind, row_id) SELECT (SELECT coalesce(max(seq), 0) FROM erasures) + n, 'company', id
				FROM unnest($1::bigint[]) WITH ORDINALITY AS u(id, n)`, []any{r.coIDs}},
		} {
			tag, err := tx.Exec(ctx, st.query, st.args...)
			if err != nil {
				return fmt.Errorf("postgres: erase subject: %w", err)
			}
			if st.count != nil {
				*st.count = tag.RowsAffected()
			}
		}
		for _, sp := range req.Suppress {
			if _, err := tx.Exec(ctx, `INSERT INTO suppressions (hash, kind, reason, created_at) VALUES ($1, $2, $3, $4)
				ON CONFLICT (hash) DO UPDATE SET reason = excluded.reason, created_at = excluded.created_at`,
				sp.Hash, string(sp.Kind), sp.Reason, sp.CreatedAt); err != nil {
				return fmt.Errorf("postgres: suppress: %w", err)
			}
			out.Suppressed = true
		}
		for _, w := range affected {
			out.Workspaces = append(out.Workspaces, w.name)
			if err := appendAudit(ctx, tx, prospector.EraseAudit(req, w.id, w.n, now)); err != nil {
				return err
			}
		}
		return appendAudit(ctx, tx, prospector.EraseAudit(req, "", out.Leads, now))
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// ErasuresSince walks the erasure feed by seq.
func (db *DB) ErasuresSince(ctx context.Context, seq int64, limit int) ([]prospector.Erasure, error) {
	out, err := queryList(ctx, db, `SELECT seq, kind, row_id FROM erasures WHERE seq > $1 ORDER BY seq LIMIT $2`,
		func(r pgx.Row) (prospector.Erasure, error) {
			var e prospector.Erasure
			return e, r.Scan(&e.Seq, &e.Kind, &e.RowID)
		}, seq, limit)
	if err != nil {
		return nil, fmt.Errorf("postgres: erasures: %w", err)
	}
	return out, nil
}
