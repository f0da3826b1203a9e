package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/prospectorhq/prospector"
)

// inList is the IN-list of a JSON array argument: one bound parameter
// however many ids a subject has.
const inList = `(SELECT value FROM json_each(?))`

func jsonArray[T any](v []T) string {
	if len(v) == 0 {
		return "[]"
	}
	b, _ := json.Marshal(v) // ids and strings always encode
	return string(b)
}

// subjectRows are the rows a subject names, resolved once for finding
// or erasing.
type subjectRows struct {
	s         prospector.Subject
	people    []*prospector.Person
	companies []prospector.SubjectCompany
	personIDs []int64
	coIDs     []int64
	emails    []string // lowercase
	urls      []string
	names     []secName // people by name at a company, for SEC filings
	domain    string    // set for a domain subject
	leadIDs   []string
}

type secName struct {
	Name      string `json:"name"`
	CompanyID int64  `json:"company_id"`
}

// resolveSubject reads the companies and people s names.
func resolveSubject(ctx context.Context, q querier, s prospector.Subject) (*subjectRows, error) {
	r := &subjectRows{s: s}
	var where string
	var args []any
	switch s.Kind {
	case prospector.SubjectProfileURL:
		key := "url:" + s.Value
		where, args = `key_hash = ? AND natural_key = ?`, []any{keyHash(key), key}
		r.urls = append(r.urls, s.Value)
	case prospector.SubjectEmail:
		where, args = `lower(email) = ?`, []any{s.Value}
		r.emails = append(r.emails, s.Value)
	case prospector.SubjectName:
		where, args = `company_domain = ? OR company_id IN (SELECT id FROM companies WHERE domain = ?)`, []any{s.Domain, s.Domain}
	case prospector.SubjectDomain:
		r.domain = s.Value
		where = `company_domain = ? OR company_id IN (SELECT id FROM companies WHERE domain = ?) OR lower(email) LIKE ?`
		args = []any{s.Value, s.Value, "%@" + s.Value}
		rows, err := q.QueryContext(ctx, `SELECT c.id, c.domain, c.name, c.created_at, c.updated_at,
			EXISTS (SELECT 1 FROM watches WHERE domain = c.domain),
			(SELECT count(*) FROM job_openings WHERE company_id = c.id) FROM companies c WHERE c.domain = ?`, s.Value)
		cs, err := collect(rows, err, func(row rowScanner) (prospector.SubjectCompany, error) {
			var c prospector.SubjectCompany
			var created, updated string
			err := row.Scan(&c.ID, &c.Domain, &c.Name, &created, &updated, &c.Watched, &c.Openings)
			c.CreatedAt, c.UpdatedAt = parseTime(created), parseTime(updated)
			return c, err
		})
		if err != nil {
			return nil, fmt.Errorf("sqlite: subject companies: %w", err)
		}
		r.companies = cs
		for _, c := range cs {
			r.coIDs = append(r.coIDs, c.ID)
		}
	default:
		return nil, prospector.Errorf(prospector.EINVALID, "subject kind %q", s.Kind)
	}
	rows, err := q.QueryContext(ctx, `SELECT `+personColumns+` FROM people WHERE `+where+` ORDER BY id`, args...)
	people, err := collect(rows, err, scanPerson)
	if err != nil {
		return nil, fmt.Errorf("sqlite: subject people: %w", err)
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
			r.names = append(r.names, secName{prospector.NormalizeSubjectName(p.FullName), *p.CompanyID})
		}
	}
	if s.Kind == prospector.SubjectName {
		var co int64
		err := q.QueryRowContext(ctx, `SELECT id FROM companies WHERE domain = ?`, s.Domain).Scan(&co)
		if err == nil {
			r.names = append(r.names, secName{s.Name, co})
		}
	}
	rows, err = q.QueryContext(ctx, `SELECT id FROM leads WHERE person_id IN `+inList+` OR company_id IN `+inList+
		` OR lower(email) IN `+inList+` OR network_url IN `+inList,
		jsonArray(r.personIDs), jsonArray(r.coIDs), jsonArray(r.emails), jsonArray(r.urls))
	r.leadIDs, err = collect(rows, err, func(row rowScanner) (string, error) {
		var id string
		return id, row.Scan(&id)
	})
	if err != nil {
		return nil, fmt.Errorf("sqlite: subject leads: %w", err)
	}
	return r, nil
}

// emailMatch is the condition on an email column (named col) for the
// subject's addresses, and the whole domain for a domain subject.
func (r *subjectRows) emailMatch(col string) (string, []any) {
	if r.domain != "" {
		return `(lower(` + col + `) IN ` + inList + ` OR lower(` + col + `) LIKE ?)`, []any{jsonArray(r.emails), "%@" + r.domain}
	}
	return `lower(` + col + `) IN ` + inList, []any{jsonArray(r.emails)}
}

// secMatch is the condition on sec_filing_people (p) joined to
// sec_filings (f).
func (r *subjectRows) secMatch() (string, []any) {
	return `(f.company_id IN ` + inList + ` OR EXISTS (SELECT 1 FROM json_each(?) n
		WHERE lower(p.name) = json_extract(n.value, '$.name') AND f.company_id = json_extract(n.value, '$.company_id')))`,
		[]any{jsonArray(r.coIDs), jsonArray(r.names)}
}

// FindSubject returns every row naming s.
func (db *DB) FindSubject(ctx context.Context, s prospector.Subject, secret string) (*prospector.SubjectRecord, error) {
	r, err := resolveSubject(ctx, db.read, s)
	if err != nil {
		return nil, err
	}
	out := &prospector.SubjectRecord{Subject: s.Kind, Companies: r.companies}
	for _, p := range r.people {
		out.People = append(out.People, prospector.NewSubjectPerson(p))
	}
	leads := jsonArray(r.leadIDs)
	queries := []func() error{
		func() error {
			rows, err := db.read.QueryContext(ctx, `SELECT id, type, title, source_url, detected_at FROM signals
				WHERE person_id IN `+inList+` OR company_id IN `+inList+` ORDER BY detected_at`, jsonArray(r.personIDs), jsonArray(r.coIDs))
			out.Signals, err = collect(rows, err, func(row rowScanner) (prospector.SubjectSignal, error) {
				var sg prospector.SubjectSignal
				var at string
				err := row.Scan(&sg.ID, &sg.Type, &sg.Title, &sg.SourceURL, &at)
				sg.DetectedAt = parseTime(at)
				return sg, err
			})
			return err
		},
		func() error {
			rows, err := db.read.QueryContext(ctx, `SELECT w.name, l.id, coalesce(l.radar_id, ''), l.source, l.full_name,
				coalesce(l.email, ''), l.status, l.created_at FROM leads l JOIN workspaces w ON w.id = l.workspace_id
				WHERE l.id IN `+inList+` ORDER BY w.name, l.created_at`, leads)
			out.Leads, err = collect(rows, err, func(row rowScanner) (prospector.SubjectLead, error) {
				var l prospector.SubjectLead
				var at string
				err := row.Scan(&l.Workspace, &l.LeadID, &l.RadarID, &l.Source, &l.FullName, &l.Email, &l.Status, &at)
				l.CreatedAt = parseTime(at)
				return l, err
			})
			return err
		},
		func() error {
			cond, args := r.emailMatch("e.email")
			rows, err := db.read.QueryContext(ctx, `SELECT w.name, e.email, e.created_at FROM email_lookups e
				JOIN workspaces w ON w.id = e.workspace_id WHERE `+cond+` ORDER BY e.created_at`, args...)
			out.EmailLookups, err = collect(rows, err, func(row rowScanner) (prospector.SubjectEmailLookup, error) {
				var l prospector.SubjectEmailLookup
				var at string
				err := row.Scan(&l.Workspace, &l.Email, &at)
				l.CreatedAt = parseTime(at)
				return l, err
			})
			return err
		},
		func() error {
			rows, err := db.read.QueryContext(ctx, `SELECT w.name, d.lead_id, d.destination_kind, d.destination_url, d.status,
				d.delivered_at, d.created_at FROM deliveries d JOIN workspaces w ON w.id = d.workspace_id
				WHERE d.lead_id IN `+inList+` ORDER BY d.created_at`, leads)
			out.Deliveries, err = collect(rows, err, func(row rowScanner) (prospector.SubjectDelivery, error) {
				var d prospector.SubjectDelivery
				var delivered sql.NullString
				var at string
				err := row.Scan(&d.Workspace, &d.LeadID, &d.Destination, &d.URL, &d.Status, &delivered, &at)
				d.DeliveredAt, d.CreatedAt = parseTimePtr(delivered), parseTime(at)
				return d, err
			})
			return err
		},
		func() error {
			rows, err := db.read.QueryContext(ctx, `SELECT w.name, f.lead_id, f.event_type, f.source, f.occurred_at
				FROM feedback_events f JOIN workspaces w ON w.id = f.workspace_id WHERE f.lead_id IN `+inList+
				` ORDER BY f.occurred_at`, leads)
			out.FeedbackEvents, err = collect(rows, err, func(row rowScanner) (prospector.SubjectFeedbackEvent, error) {
				var e prospector.SubjectFeedbackEvent
				var at string
				err := row.Scan(&e.Workspace, &e.LeadID, &e.Type, &e.Source, &at)
				e.OccurredAt = parseTime(at)
				return e, err
			})
			return err
		},
		func() error {
			cond, args := r.secMatch()
			rows, err := db.read.QueryContext(ctx, `SELECT f.accession, f.form, f.filed, f.url, p.role, p.name
				FROM sec_filing_people p JOIN sec_filings f ON f.accession = p.accession WHERE `+cond+` ORDER BY f.filed`, args...)
			out.SECFilings, err = collect(rows, err, func(row rowScanner) (prospector.SubjectFiling, error) {
				var f prospector.SubjectFiling
				return f, row.Scan(&f.Accession, &f.Form, &f.Filed, &f.URL, &f.Role, &f.Name)
			})
			return err
		},
		func() error {
			if secret == "" {
				return nil
			}
			var n int
			err := db.read.QueryRowContext(ctx, `SELECT count(*) FROM suppressions WHERE hash = ?`, s.Hash(secret)).Scan(&n)
			out.Suppressed = n > 0
			return err
		},
	}
	for _, q := range queries {
		if err := q(); err != nil {
			return nil, fmt.Errorf("sqlite: find subject: %w", err)
		}
	}
	return out, nil
}

// EraseSubject deletes what r.Subject names in one write transaction.
func (db *DB) EraseSubject(ctx context.Context, req prospector.EraseRequest, now time.Time) (*prospector.Erased, error) {
	var out prospector.Erased
	err := db.tx(ctx, func(tx *sql.Tx) error {
		out = prospector.Erased{}
		r, err := resolveSubject(ctx, tx, req.Subject)
		if err != nil {
			return err
		}
		leads := jsonArray(r.leadIDs)
		rows, err := tx.QueryContext(ctx, `SELECT w.id, w.name, count(*) FROM leads l JOIN workspaces w ON w.id = l.workspace_id
			WHERE l.id IN `+inList+` GROUP BY w.id, w.name ORDER BY w.name`, leads)
		type wsLeads struct {
			id, name string
			n        int64
		}
		affected, err := collect(rows, err, func(row rowScanner) (wsLeads, error) {
			var w wsLeads
			return w, row.Scan(&w.id, &w.name, &w.n)
		})
		if err != nil {
			return fmt.Errorf("sqlite: erase subject: %w", err)
		}
		emailCond, emailArgs := r.emailMatch("email")
		addrCond, addrArgs := r.emailMatch("address")
		secCond, secArgs := r.secMatch()
		for _, st := range []struct {
			count *int64
			query string
			args  []any
		}{
			{&out.Cancelled, `UPDATE deliveries SET status = 'disabled', last_error = 'cancelled: subject erased', updated_at = ?
				WHERE lead_id IN ` + inList + ` AND status = 'pending'`, []any{formatTime(now), leads}},
			{nil, `UPDATE deliveries SET payload = '{}' WHERE lead_id IN ` + inList, []any{leads}},
			{&out.FeedbackEvents, `DELETE FROM feedback_events WHERE lead_id IN ` + inList, []any{leads}},
			{nil, `DELETE FROM lead_feedback WHERE lead_id IN ` + inList, []any{leads}},
			{nil, `DELETE FROM lead_signals WHERE lead_id IN ` + inList, []any{leads}},
			{&out.Leads, `DELETE FROM leads WHERE id IN ` + inList, []any{leads}},
			{&out.EmailLookups, `DELETE FROM email_lookups WHERE ` + emailCond, emailArgs},
			{nil, `DELETE FROM email_address_outcomes WHERE ` + addrCond, addrArgs},
			{nil, `DELETE FROM email_pattern_outcomes WHERE domain = ?`, []any{r.domain}},
			{&out.SECPeople, `DELETE FROM sec_filing_people WHERE (accession, position) IN (SELECT p.accession, p.position FROM sec_filing_people p
				JOIN sec_filings f ON f.accession = p.accession WHERE ` + secCond + `)`, secArgs},
			{nil, `INSERT INTO erasures (kind, row_id) SELECT 'signal', id FROM signals
				WHERE person_id IN ` + inList + ` OR company_id IN ` + inList + ` ORDER BY id`,
				[]any{jsonArray(r.personIDs), jsonArray(r.coIDs)}},
			{&out.Signals, `DELETE FROM signals WHERE person_id IN ` + inList + ` OR company_id IN ` + inList,
				[]any{jsonArray(r.personIDs), jsonArray(r.coIDs)}},
			{&out.People, `DELETE FROM people WHERE id IN ` + inList, []any{jsonArray(r.personIDs)}},
			{nil, `INSERT INTO erasures (kind, row_id) SELECT 'person', value FROM json_each(?)`, []any{jsonArray(r.personIDs)}},
			{nil, `DELETE FROM watches WHERE domain = ?`, []any{r.domain}},
			{nil, `DELETE FROM radar_watches WHERE domain = ?`, []any{r.domain}},
			{&out.Companies, `DELETE FROM companies WHERE id IN ` + inList, []any{jsonArray(r.coIDs)}},
			{nil, `INSERT INTO erasures (kind, row_id) SELECT 'company', value FROM json_each(?)`, []any{jsonArray(r.coIDs)}},
		} {
			n, err := rowsAffected(tx.ExecContext(ctx, st.query, st.args...))
			if err != nil {
				return fmt.Errorf("sqlite: erase subject: %w", err)
			}
			if st.count != nil {
				*st.count = n
			}
		}
		for _, sp := range req.Suppress {
			if _, err := tx.ExecContext(ctx, `INSERT INTO suppressions (hash, kind, reason, created_at) VALUES (?, ?, ?, ?)
				ON CONFLICT (hash) DO UPDATE SET reason = excluded.reason, created_at = excluded.created_at`,
				sp.Hash, string(sp.Kind), sp.Reason, formatTime(sp.CreatedAt)); err != nil {
				return fmt.Errorf("sqlite: suppress: %w", err)
			}
			out.Suppressed = true
		}
		for _, w := range affected {
			out.Workspaces = append(out.Workspaces, w.name)
			e := prospector.EraseAudit(req, w.id, w.n, now)
			if err := appendAudit(ctx, tx, e); err != nil {
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
	out, err := queryList(ctx, db.read, `SELECT seq, kind, row_id FROM erasures WHERE seq > ? ORDER BY seq LIMIT ?`,
		func(r rowScanner) (prospector.Erasure, error) {
			var e prospector.Erasure
			return e, r.Scan(&e.Seq, &e.Kind, &e.RowID)
		}, seq, limit)
	if err != nil {
		return nil, fmt.Errorf("sqlite: erasures: %w", err)
	}
	return out, nil
}
