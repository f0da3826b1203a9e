package sqlite

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/prospectorhq/prospector"
)

// AddWatches watches the requests' domains in one transaction.
func (db *DB) AddWatches(ctx context.Context, reqs []prospector.WatchRequest, now time.Time) ([]prospector.WatchAdded, error) {
	for i := range reqs {
		if err := reqs[i].Validate(); err != nil {
			return nil, err
		}
	}
	cs := make([]*prospector.Company, len(reqs))
	for i, r := range reqs {
		cs[i] = &prospector.Company{Domain: r.Domain}
	}
	out := make([]prospector.WatchAdded, len(reqs))
	err := db.tx(ctx, func(tx *sql.Tx) error {
		created, err := ensureCompanies(ctx, tx, cs)
		if err != nil {
			return err
		}
		for i, r := range reqs {
			if cs[i].ID == 0 {
				out[i] = prospector.WatchAdded{Domain: r.Domain, Suppressed: true}
				continue
			}
			res, err := tx.ExecContext(ctx, `INSERT INTO watches (domain, added_by, added_at) VALUES (?, ?, ?)
				ON CONFLICT (domain) DO NOTHING`, r.Domain, r.AddedBy, formatTime(now))
			if err != nil {
				return fmt.Errorf("add watch %s: %w", r.Domain, err)
			}
			n, _ := res.RowsAffected()
			added, err := addTargets(ctx, tx, r.Targets(cs[i].ID), now)
			if err != nil {
				return err
			}
			out[i] = prospector.WatchAdded{Domain: r.Domain, CompanyID: cs[i].ID, NewWatch: n > 0,
				NewCompany: created[r.Domain], NewTargets: added}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("sqlite: add watches: %w", err)
	}
	return out, nil
}

// RemoveWatches deletes the explicit watches of the domains.
func (db *DB) RemoveWatches(ctx context.Context, domains []string) (int, error) {
	norm, err := normalizedDomains(domains)
	if err != nil {
		return 0, err
	}
	var removed int64
	err = db.tx(ctx, func(tx *sql.Tx) error {
		for _, d := range norm {
			res, err := tx.ExecContext(ctx, `DELETE FROM watches WHERE domain = ?`, d)
			if err != nil {
				return err
			}
			n, _ := res.RowsAffected()
			removed += n
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("sqlite: remove watches: %w", err)
	}
	return int(removed), nil
}

// normalizedDomains normalises each domain; EINVALID naming the first
// that is not one.
func normalizedDomains(domains []string) ([]string, error) {
	out := make([]string, len(domains))
	for i, d := range domains {
		if out[i] = prospector.NormalizeDomain(d); out[i] == "" {
			return nil, prospector.Errorf(prospector.EINVALID, "domain: %q is not a domain", d)
		}
	}
	return out, nil
}

// Watches merges the explicit watches, the radar watches and the flag
// targets of the watched companies.
func (db *DB) Watches(ctx context.Context) ([]*prospector.Watch, error) {
	byDomain := map[string]*prospector.Watch{}
	get := func(d string, id sql.NullInt64) *prospector.Watch {
		w := byDomain[d]
		if w == nil {
			w = &prospector.Watch{Domain: d, CompanyID: id.Int64}
			byDomain[d] = w
		}
		return w
	}
	rows, err := db.read.QueryContext(ctx, `SELECT w.domain, w.added_by, w.added_at, c.id FROM watches w
		LEFT JOIN companies c ON c.domain = w.domain`)
	if err := eachRow(rows, err, func(r *sql.Rows) error {
		var (
			d, by, at string
			id        sql.NullInt64
		)
		if err := r.Scan(&d, &by, &at, &id); err != nil {
			return err
		}
		w := get(d, id)
		w.Explicit, w.AddedBy, w.AddedAt = true, by, parseTime(at)
		return nil
	}); err != nil {
		return nil, fmt.Errorf("sqlite: watches: %w", err)
	}
	rows, err = db.read.QueryContext(ctx, `SELECT r.domain, r.radar_id, c.id FROM radar_watches r
		LEFT JOIN companies c ON c.domain = r.domain ORDER BY r.radar_id`)
	if err := eachRow(rows, err, func(r *sql.Rows) error {
		var (
			d, radar string
			id       sql.NullInt64
		)
		if err := r.Scan(&d, &radar, &id); err != nil {
			return err
		}
		w := get(d, id)
		w.RadarIDs = append(w.RadarIDs, radar)
		return nil
	}); err != nil {
		return nil, fmt.Errorf("sqlite: radar watches: %w", err)
	}
	rows, err = db.read.QueryContext(ctx, `SELECT c.domain, t.kind, t.board, t.ref FROM source_targets t
		JOIN companies c ON c.id = t.company_id WHERE t.origin = ? ORDER BY t.id`, prospector.OriginFlag)
	if err := eachRow(rows, err, func(r *sql.Rows) error {
		var d, kind, board, ref string
		if err := r.Scan(&d, &kind, &board, &ref); err != nil {
			return err
		}
		if w := byDomain[d]; w != nil {
			if kind == prospector.TargetBoard {
				w.Boards = append(w.Boards, prospector.BoardRef{Kind: board, Token: ref})
			} else if kind == prospector.TargetFeed {
				w.Feeds = append(w.Feeds, ref)
			}
		}
		return nil
	}); err != nil {
		return nil, fmt.Errorf("sqlite: watch flags: %w", err)
	}
	out := make([]*prospector.Watch, 0, len(byDomain))
	for _, w := range byDomain {
		out = append(out, w)
	}
	slices.SortFunc(out, func(a, b *prospector.Watch) int { return cmp.Compare(a.Domain, b.Domain) })
	return out, nil
}

// eachRow calls fn for every row of a query and closes it.
func eachRow(rows *sql.Rows, err error, fn func(*sql.Rows) error) error {
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := fn(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

// SyncWatches refreshes the radar watches and fills in the companies and
// homepage targets of watched domains, in one transaction.
func (db *DB) SyncWatches(ctx context.Context, now time.Time) (prospector.WatchSync, error) {
	var res prospector.WatchSync
	err := db.tx(ctx, func(tx *sql.Tx) error {
		var err error
		if res, err = syncRadarWatches(ctx, tx); err != nil {
			return err
		}
		var missing []*prospector.Company
		rows, err := tx.QueryContext(ctx, `SELECT domain FROM watches UNION SELECT domain FROM radar_watches
			EXCEPT SELECT domain FROM companies`)
		if err := eachRow(rows, err, func(r *sql.Rows) error {
			c := &prospector.Company{}
			missing = append(missing, c)
			return r.Scan(&c.Domain)
		}); err != nil {
			return fmt.Errorf("watched domains without a company: %w", err)
		}
		created, err := ensureCompanies(ctx, tx, missing)
		if err != nil {
			return err
		}
		res.CompaniesCreated = len(created)
		res.Suppressed = len(missing) - len(created)
		var homes []*prospector.SourceTarget
		rows, err = tx.QueryContext(ctx, `SELECT c.id, c.domain, EXISTS (SELECT 1 FROM watches w WHERE w.domain = c.domain)
			FROM companies c WHERE c.domain IN (SELECT domain FROM watches UNION SELECT domain FROM radar_watches)
			AND NOT EXISTS (SELECT 1 FROM source_targets t WHERE t.company_id = c.id AND t.kind = ?)`,
			prospector.TargetHomepage)
		if err := eachRow(rows, err, func(r *sql.Rows) error {
			var (
				id       int64
				d        string
				explicit bool
			)
			if err := r.Scan(&id, &d, &explicit); err != nil {
				return err
			}
			origin := prospector.OriginRadar
			if explicit {
				origin = prospector.OriginWatch
			}
			homes = append(homes, prospector.HomepageTarget(id, d, origin))
			return nil
		}); err != nil {
			return fmt.Errorf("watched companies without a homepage: %w", err)
		}
		res.TargetsCreated, err = addTargets(ctx, tx, homes, now)
		return err
	})
	if err != nil {
		return res, fmt.Errorf("sqlite: sync watches: %w", err)
	}
	return res, nil
}

// syncRadarWatches makes radar_watches what the radars name.
func syncRadarWatches(ctx context.Context, tx *sql.Tx) (prospector.WatchSync, error) {
	var res prospector.WatchSync
	refs := map[string]prospector.RadarRefs{} // by radar id
	var ids []int64
	var urls []string
	rows, err := tx.QueryContext(ctx, `SELECT id, config FROM radars WHERE paused_at IS NULL`)
	if err := eachRow(rows, err, func(r *sql.Rows) error {
		var id, config string
		if err := r.Scan(&id, &config); err != nil {
			return err
		}
		c, err := prospector.UnmarshalRadarConfig(config)
		if err != nil {
			return fmt.Errorf("radar %s config: %w", id, err)
		}
		i, d, u := prospector.RadarWatchRefs(&c)
		refs[id] = prospector.RadarRefs{CompanyIDs: i, Domains: d, ProfileURLs: u}
		ids, urls = append(ids, i...), append(urls, u...)
		return nil
	}); err != nil {
		return res, fmt.Errorf("radars: %w", err)
	}
	byID, byURL := map[int64]string{}, map[string]string{}
	for _, id := range ids {
		var d string
		switch err := tx.QueryRowContext(ctx, `SELECT domain FROM companies WHERE id = ?`, id).Scan(&d); {
		case err == nil:
			byID[id] = d
		case errors.Is(err, sql.ErrNoRows):
		default:
			return res, fmt.Errorf("radar company %d: %w", id, err)
		}
	}
	for _, u := range urls {
		var d string
		switch err := tx.QueryRowContext(ctx, `SELECT domain FROM companies WHERE network_url = ? AND network_url <> ''
			ORDER BY id LIMIT 1`, u).Scan(&d); {
		case err == nil:
			byURL[u] = d
		case errors.Is(err, sql.ErrNoRows):
		default:
			return res, fmt.Errorf("radar company %s: %w", u, err)
		}
	}
	have := map[prospector.RadarWatch]bool{}
	rows, err = tx.QueryContext(ctx, `SELECT radar_id, domain FROM radar_watches`)
	if err := eachRow(rows, err, func(r *sql.Rows) error {
		var w prospector.RadarWatch
		if err := r.Scan(&w.Radar, &w.Domain); err != nil {
			return err
		}
		have[w] = true
		return nil
	}); err != nil {
		return res, fmt.Errorf("radar watches: %w", err)
	}
	add, drop := prospector.PlanRadarWatches(refs, byID, byURL, have)
	for _, w := range drop {
		if _, err := tx.ExecContext(ctx, `DELETE FROM radar_watches WHERE radar_id = ? AND domain = ?`, w.Radar, w.Domain); err != nil {
			return res, fmt.Errorf("drop radar watch: %w", err)
		}
	}
	for _, w := range add {
		if _, err := tx.ExecContext(ctx, `INSERT INTO radar_watches (radar_id, domain) VALUES (?, ?)`, w.Radar, w.Domain); err != nil {
			return res, fmt.Errorf("add radar watch: %w", err)
		}
	}
	res.RadarWatchesRemoved, res.RadarWatchesAdded = len(drop), len(add)
	return res, nil
}

// EnsureCompanies creates the unknown companies in one transaction.
func (db *DB) EnsureCompanies(ctx context.Context, cs []*prospector.Company) (int, error) {
	var created map[string]bool
	err := db.tx(ctx, func(tx *sql.Tx) error {
		var err error
		created, err = ensureCompanies(ctx, tx, cs)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("sqlite: ensure companies: %w", err)
	}
	return len(created), nil
}

// ensureCompanies inserts the companies whose domains are unknown
// through the company upsert (so they get ids and seqs like imported
// ones), names those still named after their domain when a name is
// given, and fills every ID. It returns the domains it created.
func ensureCompanies(ctx context.Context, tx *sql.Tx, cs []*prospector.Company) (map[string]bool, error) {
	for _, c := range cs {
		if err := prospector.ValidateEnsured(c); err != nil {
			return nil, err
		}
	}
	stored := map[string]*prospector.Company{}
	for _, c := range cs {
		if _, ok := stored[c.Domain]; ok {
			continue
		}
		s, err := scanCompany(tx.QueryRowContext(ctx, `SELECT `+companyColumns+` FROM companies WHERE domain = ?`, c.Domain))
		switch {
		case err == nil:
			stored[c.Domain] = s
		case errors.Is(err, prospector.ErrNotFound):
			stored[c.Domain] = nil
		default:
			return nil, err
		}
	}
	created := map[string]bool{}
	var writes []*prospector.Company
	for _, c := range cs {
		s := stored[c.Domain]
		switch {
		case s == nil:
			s = prospector.NewWatchedCompany(c.Domain, c.Name)
			stored[c.Domain], created[c.Domain] = s, true
			writes = append(writes, s)
		case c.Name != "" && s.Name == s.Domain && c.Name != s.Name:
			s.Name = c.Name
			writes = append(writes, s)
		}
	}
	if _, err := upsert(ctx, tx, companySpec(formatTime(time.Now())), writes); err != nil {
		return nil, err
	}
	for _, c := range cs {
		c.ID = stored[c.Domain].ID
		if c.ID == 0 {
			// The upsert left it out: its domain is suppressed. It is
			// not created, and its caller skips it.
			delete(created, c.Domain)
		}
	}
	return created, nil
}
