package postgres

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/prospectorhq/prospector"
)

// lockTable takes the upsert lock of table (see lockAndLookup) until the
// end of tx. The watch list's writers take the watches lock so two
// nodes syncing at once do not both add the same radar watch; taking
// it again in one transaction is harmless (advisory locks stack).
func lockTable(ctx context.Context, tx pgx.Tx, table string) error {
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1, '`+table+`'::regclass::oid::int)`, dataLockSpace); err != nil {
		return fmt.Errorf("lock %s: %w", table, err)
	}
	return nil
}

// AddWatches watches the requests' domains in one transaction.
func (db *DB) AddWatches(ctx context.Context, reqs []prospector.WatchRequest, now time.Time) ([]prospector.WatchAdded, error) {
	for i := range reqs {
		if err := reqs[i].Validate(); err != nil {
			return nil, err
		}
	}
	now = now.UTC().Truncate(time.Microsecond)
	cs := make([]*prospector.Company, len(reqs))
	for i, r := range reqs {
		cs[i] = &prospector.Company{Domain: r.Domain}
	}
	out := make([]prospector.WatchAdded, len(reqs))
	err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		if err := lockTable(ctx, tx, "watches"); err != nil {
			return err
		}
		created, err := ensureCompanies(ctx, tx, cs)
		if err != nil {
			return err
		}
		for i, r := range reqs {
			if cs[i].ID == 0 {
				out[i] = prospector.WatchAdded{Domain: r.Domain, Suppressed: true}
				continue
			}
			tag, err := tx.Exec(ctx, `INSERT INTO watches (domain, added_by, added_at) VALUES ($1, $2, $3)
				ON CONFLICT (domain) DO NOTHING`, r.Domain, r.AddedBy, now)
			if err != nil {
				return fmt.Errorf("add watch %s: %w", r.Domain, err)
			}
			added, err := addTargets(ctx, tx, r.Targets(cs[i].ID), now)
			if err != nil {
				return err
			}
			out[i] = prospector.WatchAdded{Domain: r.Domain, CompanyID: cs[i].ID, NewWatch: tag.RowsAffected() > 0,
				NewCompany: created[r.Domain], NewTargets: added}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: add watches: %w", err)
	}
	return out, nil
}

// RemoveWatches deletes the explicit watches of the domains.
func (db *DB) RemoveWatches(ctx context.Context, domains []string) (int, error) {
	norm := make([]string, len(domains))
	for i, d := range domains {
		if norm[i] = prospector.NormalizeDomain(d); norm[i] == "" {
			return 0, prospector.Errorf(prospector.EINVALID, "domain: %q is not a domain", d)
		}
	}
	tag, err := db.pool.Exec(ctx, `DELETE FROM watches WHERE domain = ANY($1)`, norm)
	if err != nil {
		return 0, fmt.Errorf("postgres: remove watches: %w", err)
	}
	return int(tag.RowsAffected()), nil
}

// Watches merges the explicit watches, the radar watches and the flag
// targets of the watched companies, reading one snapshot.
func (db *DB) Watches(ctx context.Context) ([]*prospector.Watch, error) {
	byDomain := map[string]*prospector.Watch{}
	get := func(d string, id *int64) *prospector.Watch {
		w := byDomain[d]
		if w == nil {
			w = &prospector.Watch{Domain: d}
			if id != nil {
				w.CompanyID = *id
			}
			byDomain[d] = w
		}
		return w
	}
	err := pgx.BeginTxFunc(ctx, db.pool, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		var (
			d, by, radar string
			at           time.Time
			id           *int64
		)
		if err := eachRow(ctx, tx, "watches", `SELECT w.domain, w.added_by, w.added_at, c.id FROM watches w
			LEFT JOIN companies c ON c.domain = w.domain`, []any{&d, &by, &at, &id}, func() error {
			w := get(d, id)
			w.Explicit, w.AddedBy, w.AddedAt = true, by, at.UTC()
			return nil
		}); err != nil {
			return err
		}
		if err := eachRow(ctx, tx, "radar watches", `SELECT r.domain, r.radar_id, c.id FROM radar_watches r
			LEFT JOIN companies c ON c.domain = r.domain ORDER BY r.radar_id`, []any{&d, &radar, &id}, func() error {
			w := get(d, id)
			w.RadarIDs = append(w.RadarIDs, radar)
			return nil
		}); err != nil {
			return err
		}
		var kind, board, ref string
		if err := eachRow(ctx, tx, "watch flags", `SELECT c.domain, t.kind, t.board, t.ref FROM source_targets t
			JOIN companies c ON c.id = t.company_id WHERE t.origin = $1 ORDER BY t.id`, []any{&d, &kind, &board, &ref}, func() error {
			if w := byDomain[d]; w != nil {
				if kind == prospector.TargetBoard {
					w.Boards = append(w.Boards, prospector.BoardRef{Kind: board, Token: ref})
				} else if kind == prospector.TargetFeed {
					w.Feeds = append(w.Feeds, ref)
				}
			}
			return nil
		}, prospector.OriginFlag); err != nil {
			return err
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	out := make([]*prospector.Watch, 0, len(byDomain))
	for _, w := range byDomain {
		out = append(out, w)
	}
	slices.SortFunc(out, func(a, b *prospector.Watch) int { return cmp.Compare(a.Domain, b.Domain) })
	return out, nil
}

// SyncWatches refreshes the radar watches and fills in the companies and
// homepage targets of watched domains, in one transaction under the
// watches lock.
func (db *DB) SyncWatches(ctx context.Context, now time.Time) (prospector.WatchSync, error) {
	var res prospector.WatchSync
	err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		if err := lockTable(ctx, tx, "watches"); err != nil {
			return err
		}
		var err error
		if res, err = syncRadarWatches(ctx, tx); err != nil {
			return err
		}
		var missing []*prospector.Company
		var d string
		if err := eachRow(ctx, tx, "watched domains without a company", `SELECT domain FROM watches UNION SELECT domain FROM radar_watches
			EXCEPT SELECT domain FROM companies`, []any{&d}, func() error {
			missing = append(missing, &prospector.Company{Domain: d})
			return nil
		}); err != nil {
			return err
		}
		created, err := ensureCompanies(ctx, tx, missing)
		if err != nil {
			return err
		}
		res.CompaniesCreated = len(created)
		res.Suppressed = len(missing) - len(created)
		var (
			homes    []*prospector.SourceTarget
			id       int64
			explicit bool
		)
		if err := eachRow(ctx, tx, "watched companies without a homepage", `SELECT c.id, c.domain,
			EXISTS (SELECT 1 FROM watches w WHERE w.domain = c.domain)
			FROM companies c WHERE c.domain IN (SELECT domain FROM watches UNION SELECT domain FROM radar_watches)
			AND NOT EXISTS (SELECT 1 FROM source_targets t WHERE t.company_id = c.id AND t.kind = $1)`,
			[]any{&id, &d, &explicit}, func() error {
				origin := prospector.OriginRadar
				if explicit {
					origin = prospector.OriginWatch
				}
				homes = append(homes, prospector.HomepageTarget(id, d, origin))
				return nil
			}, prospector.TargetHomepage); err != nil {
			return err
		}
		res.TargetsCreated, err = addTargets(ctx, tx, homes, now)
		return err
	})
	if err != nil {
		return res, fmt.Errorf("postgres: sync watches: %w", err)
	}
	return res, nil
}

// syncRadarWatches makes radar_watches what the radars name.
func syncRadarWatches(ctx context.Context, tx pgx.Tx) (prospector.WatchSync, error) {
	var res prospector.WatchSync
	refs := map[string]prospector.RadarRefs{} // by radar id
	var (
		ids         []int64
		urls        []string
		radar, cfg  string
		key, domain string
		companyID   int64
	)
	if err := eachRow(ctx, tx, "radars", `SELECT id, config::text FROM radars WHERE paused_at IS NULL`, []any{&radar, &cfg}, func() error {
		c, err := prospector.UnmarshalRadarConfig(cfg)
		if err != nil {
			return fmt.Errorf("radar %s config: %w", radar, err)
		}
		i, d, u := prospector.RadarWatchRefs(&c)
		refs[radar] = prospector.RadarRefs{CompanyIDs: i, Domains: d, ProfileURLs: u}
		ids, urls = append(ids, i...), append(urls, u...)
		return nil
	}); err != nil {
		return res, err
	}
	byID, byURL := map[int64]string{}, map[string]string{}
	if ids == nil {
		ids = []int64{}
	}
	if err := eachRow(ctx, tx, "radar companies", `SELECT id, domain FROM companies WHERE id = ANY($1)`, []any{&companyID, &domain},
		func() error { byID[companyID] = domain; return nil }, ids); err != nil {
		return res, err
	}
	if urls == nil {
		urls = []string{}
	}
	if err := eachRow(ctx, tx, "radar companies by profile", `SELECT DISTINCT ON (network_url) network_url, domain FROM companies
		WHERE network_url = ANY($1) AND network_url <> '' ORDER BY network_url, id`, []any{&key, &domain},
		func() error { byURL[key] = domain; return nil }, urls); err != nil {
		return res, err
	}
	have := map[prospector.RadarWatch]bool{}
	if err := eachRow(ctx, tx, "radar watches", `SELECT radar_id, domain FROM radar_watches`, []any{&radar, &domain},
		func() error { have[prospector.RadarWatch{Radar: radar, Domain: domain}] = true; return nil }); err != nil {
		return res, err
	}
	add, drop := prospector.PlanRadarWatches(refs, byID, byURL, have)
	if len(drop) > 0 {
		r, d := watchColumns(drop)
		if _, err := tx.Exec(ctx, `DELETE FROM radar_watches r USING unnest($1::text[], $2::text[]) AS v(radar_id, domain)
			WHERE r.radar_id = v.radar_id AND r.domain = v.domain`, r, d); err != nil {
			return res, fmt.Errorf("drop radar watches: %w", err)
		}
	}
	if len(add) > 0 {
		r, d := watchColumns(add)
		if _, err := tx.Exec(ctx, `INSERT INTO radar_watches (radar_id, domain)
			SELECT * FROM unnest($1::text[], $2::text[]) ON CONFLICT DO NOTHING`, r, d); err != nil {
			return res, fmt.Errorf("add radar watches: %w", err)
		}
	}
	res.RadarWatchesRemoved, res.RadarWatchesAdded = len(drop), len(add)
	return res, nil
}

// watchColumns splits watches into the radar and domain arrays unnest
// takes.
func watchColumns(ws []prospector.RadarWatch) (radars, domains []string) {
	for _, w := range ws {
		radars, domains = append(radars, w.Radar), append(domains, w.Domain)
	}
	return radars, domains
}

// EnsureCompanies creates the unknown companies in one transaction.
func (db *DB) EnsureCompanies(ctx context.Context, cs []*prospector.Company) (int, error) {
	var created map[string]bool
	err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		var err error
		created, err = ensureCompanies(ctx, tx, cs)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("postgres: ensure companies: %w", err)
	}
	return len(created), nil
}

// ensureCompanies inserts the companies whose domains are unknown
// through the company upsert (so they get ids and seqs like imported
// ones), names those still named after their domain when a name is
// given, and fills every ID. It takes the companies' upsert lock before
// reading them, so an import cannot slip a company in between and see
// it overwritten. It returns the domains it created.
func ensureCompanies(ctx context.Context, tx pgx.Tx, cs []*prospector.Company) (map[string]bool, error) {
	if len(cs) == 0 {
		return map[string]bool{}, nil
	}
	domains := make([]string, len(cs))
	for i, c := range cs {
		if err := prospector.ValidateEnsured(c); err != nil {
			return nil, err
		}
		domains[i] = c.Domain
	}
	if err := lockTable(ctx, tx, "companies"); err != nil {
		return nil, err
	}
	stored := map[string]*prospector.Company{}
	rows, err := tx.Query(ctx, `SELECT `+companyColumns+` FROM companies WHERE domain = ANY($1)`, domains)
	if err != nil {
		return nil, fmt.Errorf("companies: %w", err)
	}
	for rows.Next() {
		c, err := scanCompany(rows)
		if err != nil {
			rows.Close()
			return nil, err
		}
		stored[c.Domain] = c
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("companies: %w", err)
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
	if len(writes) > 0 {
		if _, err := upsertTx(ctx, tx, companySpec(), writes); err != nil {
			return nil, err
		}
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

// eachRow runs query in tx and calls fn after scanning each row into
// dest; an error, the query's own included, is wrapped with what.
func eachRow(ctx context.Context, tx pgx.Tx, what, query string, dest []any, fn func() error, args ...any) error {
	rows, err := tx.Query(ctx, query, args...)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	if _, err := pgx.ForEachRow(rows, dest, fn); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}
