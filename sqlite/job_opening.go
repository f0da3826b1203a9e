package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"github.com/prospectorhq/prospector"
)

func scanOpening(row rowScanner) (*prospector.JobOpening, error) {
	var (
		o                   prospector.JobOpening
		posted, closed      sql.NullString
		firstSeen, lastSeen string
	)
	if err := row.Scan(&o.ID, &o.CompanyID, &o.Source, &o.BoardToken, &o.ExternalID, &o.Title, &o.Level, &o.Function,
		&o.Department, &o.Location, &o.CountryCode, &o.Remote, &o.URL, &posted, &firstSeen, &lastSeen, &closed,
		&o.Misses, &o.ContentHash); err != nil {
		return nil, fmt.Errorf("sqlite: scan job opening: %w", err)
	}
	o.PostedAt, o.ClosedAt = parseTimePtr(posted), parseTimePtr(closed)
	o.FirstSeenAt, o.LastSeenAt = parseTime(firstSeen), parseTime(lastSeen)
	return &o, nil
}

// The statements of a board poll, prepared once on the writer.
const (
	qBoardOpenOpenings = `SELECT id, external_id, content_hash, misses, closed_at, first_seen_at FROM job_openings
		WHERE company_id = ? AND source = ? AND board_token = ? AND closed_at IS NULL`
	qBoardClosedOpenings = `SELECT id, external_id, content_hash, misses, closed_at, first_seen_at FROM job_openings
		WHERE company_id = ? AND source = ? AND board_token = ? AND closed_at IS NOT NULL
			AND external_id IN (SELECT value FROM json_each(?))`
	qInsertOpening = `INSERT INTO job_openings (company_id, source, board_token, external_id, title, job_level,
		job_function, department, location, country_code, remote, url, posted_at, first_seen_at, last_seen_at,
		closed_at, misses, content_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, 0, ?) RETURNING id`
	qUpdateOpening = `UPDATE job_openings SET title = ?, job_level = ?, job_function = ?, department = ?, location = ?,
		country_code = ?, remote = ?, url = ?, posted_at = ?, last_seen_at = ?, closed_at = NULL, misses = 0,
		content_hash = ? WHERE id = ?`
	// Seen openings move last_seen_at, which no index holds; misses is
	// reset apart, only where it is not 0, so the open index (which holds
	// misses) is rewritten only for openings that had been missed.
	qSeenOpenings = `UPDATE job_openings SET last_seen_at = ? WHERE id IN (SELECT value FROM json_each(?))`
	qResetMisses  = `UPDATE job_openings SET misses = 0 WHERE id IN (SELECT value FROM json_each(?)) AND misses <> 0`
	// An opening missed for the first time keeps the last poll that saw
	// it: its board's last success, which JobOpenings read in its place
	// while it was open and not missed (openingLastSeen).
	qMissedOpenings = `UPDATE job_openings SET misses = misses + 1,
		last_seen_at = CASE WHEN misses = 0 THEN max(last_seen_at, coalesce(?, last_seen_at)) ELSE last_seen_at END
		WHERE id IN (SELECT value FROM json_each(?))`
	qCloseOpenings = `UPDATE job_openings SET closed_at = ?, misses = misses + 1,
		last_seen_at = CASE WHEN misses = 0 THEN max(last_seen_at, coalesce(?, last_seen_at)) ELSE last_seen_at END
		WHERE id IN (SELECT value FROM json_each(?))`
	// A poll listing what the last one did is PlanBoardPoll with same
	// true: the openings the last poll missed miss again (closing at
	// prospector.ClosingMisses), found through the open index, which
	// holds misses, and usually none; the others are seen, which writes
	// nothing: their last sighting is the target's last success
	// (openingLastSeen), so qSameSeen only counts them, in the index.
	qSameClose = `UPDATE job_openings SET closed_at = ?, misses = misses + 1
		WHERE company_id = ? AND source = ? AND board_token = ? AND closed_at IS NULL AND misses > 0 AND misses + 1 >= ?`
	qSameMiss = `UPDATE job_openings SET misses = misses + 1
		WHERE company_id = ? AND source = ? AND board_token = ? AND closed_at IS NULL AND misses > 0`
	qSameSeen = `SELECT count(*) FROM job_openings
		WHERE company_id = ? AND source = ? AND board_token = ? AND closed_at IS NULL AND misses = 0`
)

// ApplyBoardPoll stores one successful board poll in one transaction.
// SQLite has one writer, so polls of one board never interleave.
func (db *DB) ApplyBoardPoll(ctx context.Context, p *prospector.BoardPoll) (prospector.BoardPollResult, error) {
	res, err := db.ApplyBoardPolls(ctx, []*prospector.BoardPoll{p})
	if err != nil {
		return prospector.BoardPollResult{}, err
	}
	return res[0], nil
}

// ApplyBoardPolls stores several successful board polls in one
// transaction, in target order, each as ApplyBoardPoll would.
func (db *DB) ApplyBoardPolls(ctx context.Context, ps []*prospector.BoardPoll) ([]prospector.BoardPollResult, error) {
	for _, p := range ps {
		if err := p.Validate(); err != nil {
			return nil, err
		}
	}
	if err := db.writeStmts(ctx, qTarget, qSaveSchedule, qBoardOpenOpenings, qBoardClosedOpenings, qInsertOpening,
		qUpdateOpening, qSeenOpenings, qResetMisses, qMissedOpenings, qCloseOpenings, qSameClose, qSameMiss,
		qSameSeen); err != nil {
		return nil, err
	}
	if err := db.writeStmts(ctx, batchStatements...); err != nil {
		return nil, err
	}
	res := make([]prospector.BoardPollResult, len(ps))
	err := db.tx(ctx, func(tx *sql.Tx) error {
		// The polls of unchanged boards are applied together; the others
		// one by one, after them (their targets differ, so the order
		// between the two sets changes nothing).
		slow := make([]bool, len(ps))
		if len(ps) > 1 {
			same, s, err := db.splitBatch(ctx, tx, ps)
			if err != nil {
				return err
			}
			if err := db.applySame(ctx, tx, same, res); err != nil {
				return err
			}
			slow = s
		} else if len(ps) == 1 {
			slow[0] = true
		}
		for _, i := range prospector.BoardPollOrder(ps) {
			if !slow[i] {
				continue
			}
			r, err := db.applyBoardPoll(ctx, tx, ps[i])
			if err != nil {
				return err
			}
			res[i] = r
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("sqlite: apply board poll: %w", err)
	}
	return res, nil
}

// applyBoardPoll stores one poll in tx.
func (db *DB) applyBoardPoll(ctx context.Context, tx *sql.Tx, p *prospector.BoardPoll) (prospector.BoardPollResult, error) {
	var res prospector.BoardPollResult
	t, err := targetTx(ctx, db, tx, p.TargetID)
	if err != nil {
		return res, err
	}
	if t.Kind != prospector.TargetBoard {
		return res, fmt.Errorf("target %d is a %s, not a board: %w", t.ID, t.Kind, prospector.ErrNotFound)
	}
	if t.Stale(p.Outcome.At) {
		res.Duplicate = true
		return res, nil
	}
	if p.Same(t) {
		if res, err = db.sameListing(ctx, tx, t, p.Outcome.At); err != nil {
			return res, err
		}
		p.Record(t)
		return res, saveSchedule(ctx, db, tx, t)
	}
	stored, err := db.boardOpenings(ctx, tx, t, p.Postings)
	if err != nil {
		return res, err
	}
	plan, err := prospector.PlanBoardPoll(t, stored, p.Postings, false, p.Outcome.At)
	if err != nil {
		return res, err
	}
	if err := db.writeBoardPlan(ctx, tx, plan, t.LastSuccessAt); err != nil {
		return res, err
	}
	sig, err := upsert(ctx, tx, signalSpec(formatTime(time.Now())), plan.Signals)
	if err != nil {
		return res, err
	}
	res, res.Signals = plan.Result, sig.Inserted
	p.Record(t)
	return res, saveSchedule(ctx, db, tx, t)
}

// sameListing applies a poll that lists what the last one did (a 304,
// or the same PostingsHash): the board's openings are not read, and
// nothing but their last_seen_at, misses and closed_at is written. Such
// a poll creates no opening and no signal.
func (db *DB) sameListing(ctx context.Context, tx *sql.Tx, t *prospector.SourceTarget, at time.Time) (prospector.BoardPollResult, error) {
	var res prospector.BoardPollResult
	ts := formatTime(at.UTC().Truncate(time.Microsecond))
	for _, step := range []struct {
		query string
		args  []any
		n     *int
	}{
		{qSameClose, []any{ts, t.CompanyID, t.Board, t.Ref, prospector.ClosingMisses}, &res.Closed},
		{qSameMiss, []any{t.CompanyID, t.Board, t.Ref}, &res.Missed},
	} {
		s, _ := txStmt(ctx, db, tx, step.query) // prepared by ApplyBoardPoll: cannot fail
		r, err := s.ExecContext(ctx, step.args...)
		if err != nil {
			return res, fmt.Errorf("same listing: %w", err)
		}
		n, _ := r.RowsAffected()
		*step.n = int(n)
	}
	s, _ := txStmt(ctx, db, tx, qSameSeen)
	if err := s.QueryRowContext(ctx, t.CompanyID, t.Board, t.Ref).Scan(&res.Seen); err != nil {
		return res, fmt.Errorf("same listing: %w", err)
	}
	return res, nil
}

// boardOpenings reads what PlanBoardPoll needs of the board's open
// openings and of the closed ones the poll lists again: the narrow
// columns PlanBoardPoll reads, a fraction of whole rows.
func (db *DB) boardOpenings(ctx context.Context, tx *sql.Tx, t *prospector.SourceTarget, ps []prospector.JobPosting) ([]*prospector.JobOpening, error) {
	scan := func(row rowScanner) (*prospector.JobOpening, error) {
		o := &prospector.JobOpening{CompanyID: t.CompanyID, Source: t.Board, BoardToken: t.Ref}
		var (
			closed    sql.NullString
			firstSeen string
		)
		if err := row.Scan(&o.ID, &o.ExternalID, &o.ContentHash, &o.Misses, &closed, &firstSeen); err != nil {
			return nil, fmt.Errorf("scan job opening: %w", err)
		}
		o.ClosedAt, o.FirstSeenAt = parseTimePtr(closed), parseTime(firstSeen)
		return o, nil
	}
	open, _ := txStmt(ctx, db, tx, qBoardOpenOpenings) // prepared by ApplyBoardPoll: cannot fail
	rows, err := open.QueryContext(ctx, t.CompanyID, t.Board, t.Ref)
	out, err := collect(rows, err, scan)
	if err != nil || len(ps) == 0 {
		return out, err
	}
	ids := make([]string, len(ps))
	for i, p := range ps {
		ids[i] = p.ExternalID
	}
	list, _ := json.Marshal(ids)
	closed, _ := txStmt(ctx, db, tx, qBoardClosedOpenings)
	rows, err = closed.QueryContext(ctx, t.CompanyID, t.Board, t.Ref, string(list))
	reopen, err := collect(rows, err, scan)
	return append(out, reopen...), err
}

// writeBoardPlan writes a plan's openings: new ones, whole rows of
// changed and reopened ones, then one statement per set for the seen,
// missed and closed ones.
// lastSuccess is the board's last successful poll before this one.
func (db *DB) writeBoardPlan(ctx context.Context, tx *sql.Tx, plan *prospector.BoardPlan, lastSuccess *time.Time) error {
	stmt := func(q string) *sql.Stmt { s, _ := txStmt(ctx, db, tx, q); return s } // prepared by ApplyBoardPoll
	for _, o := range plan.Insert {
		if err := stmt(qInsertOpening).QueryRowContext(ctx, o.CompanyID, o.Source, o.BoardToken, o.ExternalID, o.Title,
			o.Level, o.Function, o.Department, o.Location, o.CountryCode, o.Remote, o.URL, formatTimePtr(o.PostedAt),
			formatTime(o.FirstSeenAt), formatTime(o.LastSeenAt), o.ContentHash).Scan(&o.ID); err != nil {
			return fmt.Errorf("insert job opening %s: %w", o.ExternalID, err)
		}
	}
	for _, o := range plan.Update {
		if _, err := stmt(qUpdateOpening).ExecContext(ctx, o.Title, o.Level, o.Function, o.Department, o.Location,
			o.CountryCode, o.Remote, o.URL, formatTimePtr(o.PostedAt), formatTime(o.LastSeenAt), o.ContentHash,
			o.ID); err != nil {
			return fmt.Errorf("update job opening %d: %w", o.ID, err)
		}
	}
	at := formatTime(plan.At)
	if err := execForIDs(ctx, stmt(qSeenOpenings), plan.Seen, at); err != nil {
		return fmt.Errorf("seen job openings: %w", err)
	}
	if err := execForIDs(ctx, stmt(qResetMisses), plan.Seen); err != nil {
		return fmt.Errorf("seen job openings: %w", err)
	}
	last := formatTimePtr(lastSuccess)
	if err := execForIDs(ctx, stmt(qMissedOpenings), openingIDs(plan.Missed), last); err != nil {
		return fmt.Errorf("missed job openings: %w", err)
	}
	if err := execForIDs(ctx, stmt(qCloseOpenings), openingIDs(plan.Close), at, last); err != nil {
		return fmt.Errorf("close job openings: %w", err)
	}
	return nil
}

// execForIDs runs stmt with args and then the ids as a JSON list, when
// there are ids.
func execForIDs(ctx context.Context, stmt *sql.Stmt, ids []int64, args ...any) error {
	if len(ids) == 0 {
		return nil
	}
	list, _ := json.Marshal(ids)
	_, err := stmt.ExecContext(ctx, append(args, string(list))...)
	return err
}

func openingIDs(os []*prospector.JobOpening) []int64 {
	ids := make([]int64, len(os))
	for i, o := range os {
		ids[i] = o.ID
	}
	return ids
}

// openingLastSeen is an opening's last sighting: an open opening its
// board's last poll did not miss was seen by that poll, so its board
// target's last success stands for it. Polls of unchanged boards write
// no opening (qSameSeen); a poll that misses one writes its last
// sighting down (qMissedOpenings).
const openingLastSeen = `CASE WHEN o.closed_at IS NULL AND o.misses = 0
	THEN max(o.last_seen_at, coalesce(t.last_success_at, o.last_seen_at)) ELSE o.last_seen_at END`

// JobOpenings pages a company's openings newest first.
func (db *DB) JobOpenings(ctx context.Context, f prospector.JobOpeningFilter) ([]*prospector.JobOpening, error) {
	where, args := `o.company_id = ?`, []any{f.CompanyID}
	if f.ActiveOnly {
		where += ` AND o.closed_at IS NULL`
	}
	if f.Since != nil {
		where, args = where+` AND o.first_seen_at >= ?`, append(args, formatTime(*f.Since))
	}
	limit := f.Limit
	if limit <= 0 {
		limit = -1
	}
	return queryPrepared(ctx, db, `SELECT o.id, o.company_id, o.source, o.board_token, o.external_id, o.title,
		o.job_level, o.job_function, o.department, o.location, o.country_code, o.remote, o.url, o.posted_at,
		o.first_seen_at, `+openingLastSeen+`, o.closed_at, o.misses, o.content_hash
		FROM job_openings AS o LEFT JOIN source_targets AS t ON t.company_id = o.company_id AND t.kind = 'board'
			AND t.board = o.source AND t.ref = o.board_token
		WHERE `+where+` ORDER BY o.first_seen_at DESC, o.id DESC LIMIT (? + 0) OFFSET (? + 0)`, scanOpening,
		append(args, limit, f.Offset)...)
}
