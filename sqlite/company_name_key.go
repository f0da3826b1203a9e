package sqlite

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/prospectorhq/prospector"
)

// nameKeyBatch is how many companies one catch-up transaction indexes:
// small enough that the writer is not held for long when a store of
// millions is indexed the first time.
const nameKeyBatch = 5000

const (
	qNameKeyBehind = `SELECT (SELECT seq FROM company_name_key_cursor WHERE id = 1),
		(SELECT coalesce(max(seq), 0) FROM companies)`
	qNameKeyCompanies = `SELECT id, name, seq FROM companies
		WHERE seq > (SELECT seq FROM company_name_key_cursor WHERE id = 1) ORDER BY seq LIMIT ?`
	qNameKeyUpsert = `INSERT INTO company_name_keys (company_id, name_key, seq) VALUES (?, ?, ?)
		ON CONFLICT (company_id) DO UPDATE SET name_key = excluded.name_key, seq = excluded.seq`
	qNameKeyCursor = `UPDATE company_name_key_cursor SET seq = ? WHERE id = 1 AND seq < ?`
)

// catchUpNameKeys indexes the companies written since the last call
// under prospector.NormalizeLegalName of their names. It reads two
// numbers when nothing changed.
func (db *DB) catchUpNameKeys(ctx context.Context) error {
	var cursor, latest int64
	if err := db.row(ctx, qNameKeyBehind).Scan(&cursor, &latest); err != nil {
		return fmt.Errorf("sqlite: company name keys: %w", err)
	}
	if latest <= cursor {
		return nil
	}
	if err := db.writeStmts(ctx, qNameKeyCompanies, qNameKeyUpsert, qNameKeyCursor); err != nil {
		return err
	}
	for {
		n := 0
		err := db.tx(ctx, func(tx *sql.Tx) error {
			var err error
			n, err = db.nameKeyBatch(ctx, tx)
			return err
		})
		if err != nil {
			return fmt.Errorf("sqlite: company name keys: %w", err)
		}
		if n < nameKeyBatch {
			return nil
		}
	}
}

// nameKeyBatch indexes the next companies after the cursor and moves it.
func (db *DB) nameKeyBatch(ctx context.Context, tx *sql.Tx) (int, error) {
	read, _ := txStmt(ctx, db, tx, qNameKeyCompanies) // prepared by catchUpNameKeys
	rows, err := read.QueryContext(ctx, nameKeyBatch)
	if err != nil {
		return 0, err
	}
	type key struct {
		id, seq int64
		name    string
	}
	var keys []key
	for rows.Next() {
		var k key
		if err := rows.Scan(&k.id, &k.name, &k.seq); err != nil {
			rows.Close()
			return 0, err
		}
		keys = append(keys, k)
	}
	rows.Close()
	if err := rows.Err(); err != nil || len(keys) == 0 {
		return 0, err
	}
	upsert, _ := txStmt(ctx, db, tx, qNameKeyUpsert)
	for _, k := range keys {
		if _, err := upsert.ExecContext(ctx, k.id, prospector.NormalizeLegalName(k.name), k.seq); err != nil {
			return 0, err
		}
	}
	last := keys[len(keys)-1].seq
	cursor, _ := txStmt(ctx, db, tx, qNameKeyCursor)
	if _, err := cursor.ExecContext(ctx, last, last); err != nil {
		return 0, err
	}
	return len(keys), nil
}

// IssuerCandidates returns the companies named like the issuer, or on
// its website's domain or a parent of it.
func (db *DB) IssuerCandidates(ctx context.Context, q prospector.IssuerCandidateQuery) ([]*prospector.Company, error) {
	if err := db.catchUpNameKeys(ctx); err != nil {
		return nil, err
	}
	limit := q.Limit
	if limit <= 0 {
		limit = 50
	}
	var out []*prospector.Company
	seen := map[int64]bool{}
	add := func(cs []*prospector.Company, err error) error {
		for _, c := range cs {
			if !seen[c.ID] {
				seen[c.ID] = true
				out = append(out, c)
			}
		}
		return err
	}
	for _, k := range prospector.LegalNameKeys(q.Names) {
		if err := add(queryPrepared(ctx, db, `SELECT `+companyCardColumns+` FROM companies WHERE id IN
			(SELECT company_id FROM company_name_keys WHERE name_key = ? ORDER BY company_id LIMIT (? + 0))
			ORDER BY id`, scanCompanyCard, k, limit)); err != nil {
			return nil, fmt.Errorf("sqlite: issuer candidates: %w", err)
		}
	}
	for _, d := range prospector.DomainAndParents(q.Website) {
		if err := add(queryPrepared(ctx, db, `SELECT `+companyCardColumns+` FROM companies WHERE domain = ?`,
			scanCompanyCard, d)); err != nil {
			return nil, fmt.Errorf("sqlite: issuer candidates: %w", err)
		}
	}
	return out, nil
}
