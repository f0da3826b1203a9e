package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/prospectorhq/prospector"
)

// nameKeyBatch is how many companies one catch-up transaction indexes.
const nameKeyBatch = 5000

// catchUpNameKeys indexes the companies written since the last call
// under prospector.NormalizeLegalName of their names; one query when
// nothing changed. Company seqs ascend in commit order (the upsert lock),
// so following them misses nothing. Two nodes catching up at once write
// the same keys; a row only moves forward (seq), and the cursor too.
func (db *DB) catchUpNameKeys(ctx context.Context) error {
	var cursor, latest int64
	if err := db.pool.QueryRow(ctx, `SELECT (SELECT seq FROM company_name_key_cursor WHERE id = 1),
		(SELECT coalesce(max(seq), 0) FROM companies)`).Scan(&cursor, &latest); err != nil {
		return fmt.Errorf("postgres: company name keys: %w", err)
	}
	for cursor < latest {
		rows, err := db.pool.Query(ctx, `SELECT id, name, seq FROM companies WHERE seq > $1 ORDER BY seq LIMIT $2`,
			cursor, nameKeyBatch)
		if err != nil {
			return fmt.Errorf("postgres: company name keys: %w", err)
		}
		var ids, seqs []int64
		var keys []string
		for rows.Next() {
			var id, seq int64
			var name string
			if err := rows.Scan(&id, &name, &seq); err != nil {
				rows.Close()
				return fmt.Errorf("postgres: company name keys: %w", err)
			}
			ids, keys, seqs = append(ids, id), append(keys, prospector.NormalizeLegalName(name)), append(seqs, seq)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return fmt.Errorf("postgres: company name keys: %w", err)
		}
		if len(ids) == 0 {
			return nil
		}
		cursor = seqs[len(seqs)-1]
		err = pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
			b := &pgx.Batch{}
			b.Queue(`INSERT INTO company_name_keys (company_id, name_key, seq)
				SELECT * FROM unnest($1::bigint[], $2::text[], $3::bigint[])
				ON CONFLICT (company_id) DO UPDATE SET name_key = excluded.name_key, seq = excluded.seq
				WHERE company_name_keys.seq < excluded.seq`, ids, keys, seqs)
			b.Queue(`UPDATE company_name_key_cursor SET seq = greatest(seq, $1) WHERE id = 1`, cursor)
			return tx.SendBatch(ctx, b).Close()
		})
		if err != nil {
			return fmt.Errorf("postgres: company name keys: %w", err)
		}
	}
	return nil
}

// IssuerCandidates returns the companies named like the issuer, or on
// its website's domain or a parent of it, in one query.
func (db *DB) IssuerCandidates(ctx context.Context, q prospector.IssuerCandidateQuery) ([]*prospector.Company, error) {
	if err := db.catchUpNameKeys(ctx); err != nil {
		return nil, err
	}
	limit := q.Limit
	if limit <= 0 {
		limit = 50
	}
	keys, domains := prospector.LegalNameKeys(q.Names), prospector.DomainAndParents(q.Website)
	if len(keys)+len(domains) == 0 {
		return nil, nil
	}
	out, err := queryList(ctx, db, `SELECT `+companyCardColumns+` FROM companies WHERE id IN (
			SELECT k.company_id FROM unnest($1::text[]) AS n(key)
			CROSS JOIN LATERAL (SELECT company_id FROM company_name_keys WHERE name_key = n.key
				ORDER BY company_id LIMIT $3) k
			UNION SELECT id FROM companies WHERE domain = ANY($2))
		ORDER BY id`, scanCompanyCard, keys, domains, limit)
	if err != nil {
		return nil, fmt.Errorf("postgres: issuer candidates: %w", err)
	}
	return out, nil
}
