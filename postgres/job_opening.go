package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/prospectorhq/prospector"
)

func scanOpening(row pgx.Row) (*prospector.JobOpening, error) {
	var o prospector.JobOpening
	if err := row.Scan(&o.ID, &o.CompanyID, &o.Source, &o.BoardToken, &o.ExternalID, &o.Title, &o.Level, &o.Function,
		&o.Department, &o.Location, &o.CountryCode, &o.Remote, &o.URL, &o.PostedAt, &o.FirstSeenAt, &o.LastSeenAt,
		&o.ClosedAt, &o.Misses, &o.ContentHash); err != nil {
		return nil, fmt.Errorf("postgres: scan job opening: %w", err)
	}
	o.PostedAt, o.ClosedAt = utcPtr(o.PostedAt), utcPtr(o.ClosedAt)
	o.FirstSeenAt, o.LastSeenAt = o.FirstSeenAt.UTC(), o.LastSeenAt.UTC()
	return &o, nil
}

// ApplyBoardPoll stores one successful board poll in one transaction;
// see ApplyBoardPolls.
func (db *DB) ApplyBoardPoll(ctx context.Context, p *prospector.BoardPoll) (prospector.BoardPollResult, error) {
	res, err := db.ApplyBoardPolls(ctx, []*prospector.BoardPoll{p})
	if err != nil {
		return prospector.BoardPollResult{}, err
	}
	return res[0], nil
}

// ApplyBoardPolls stores several successful board polls in one
// transaction, each under its board target's row lock (FOR UPDATE),
// taken in prospector.BoardPollOrder: a second node applying a poll of
// the same board waits, then reads what the first wrote, and two batches
// never deadlock. A poll's signals come last, so the signals' upsert
// lock (held to commit) is held briefly by one poll; a batch of polls
// that write signals holds it to the batch's commit, which is why cycles
// batch the polls of unchanged boards only.
func (db *DB) ApplyBoardPolls(ctx context.Context, ps []*prospector.BoardPoll) ([]prospector.BoardPollResult, error) {
	for _, p := range ps {
		if err := p.Validate(); err != nil {
			return nil, err
		}
	}
	res := make([]prospector.BoardPollResult, len(ps))
	err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		return applyBoardPolls(ctx, tx, ps, res)
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: apply board poll: %w", err)
	}
	return res, nil
}

// applyBoardPolls stores ps in tx, filling res. The targets are locked
// in one statement, in BoardPollOrder's order, and the polls that list
// what their board's last one did (most of a cycle's) are applied in one
// round trip at the end: they read nothing, and no other poll of the
// batch touches their target or openings. Before, each cost two round
// trips. A batch with two polls of one target, or a target that is not
// there, goes poll by poll, so each decision and error stays as it was.
func applyBoardPolls(ctx context.Context, tx pgx.Tx, ps []*prospector.BoardPoll, res []prospector.BoardPollResult) error {
	order := prospector.BoardPollOrder(ps)
	ids := make([]int64, 0, len(ps))
	for _, i := range order {
		if n := len(ids); n > 0 && ids[n-1] == ps[i].TargetID {
			return applyEach(ctx, tx, ps, res, order)
		}
		ids = append(ids, ps[i].TargetID)
	}
	rows, err := tx.Query(ctx, `SELECT `+targetColumns+targetFrom+` WHERE t.id = ANY($1) ORDER BY t.id FOR UPDATE OF t`, ids)
	if err != nil {
		return fmt.Errorf("targets: %w", err)
	}
	locked, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (*prospector.SourceTarget, error) { return scanTarget(r) })
	if err != nil {
		return fmt.Errorf("targets: %w", err)
	}
	if len(locked) != len(ids) {
		return applyEach(ctx, tx, ps, res, order) // it names the missing one
	}
	same := &pgx.Batch{}
	for k, i := range order {
		p, t := ps[i], locked[k]
		switch {
		case t.Kind != prospector.TargetBoard || t.Stale(p.Outcome.At) || !p.Same(t):
			r, err := applyBoardPoll(ctx, tx, p)
			if err != nil {
				return err
			}
			res[i] = r
		default:
			at := p.Outcome.At
			p.Record(t)
			queueSameListing(same, t, at, &res[i])
		}
	}
	if same.Len() == 0 {
		return nil
	}
	if err := tx.SendBatch(ctx, same).Close(); err != nil {
		return fmt.Errorf("same listing: %w", err)
	}
	return nil
}

// applyEach stores ps one by one in order.
func applyEach(ctx context.Context, tx pgx.Tx, ps []*prospector.BoardPoll, res []prospector.BoardPollResult, order []int) error {
	for _, i := range order {
		r, err := applyBoardPoll(ctx, tx, ps[i])
		if err != nil {
			return err
		}
		res[i] = r
	}
	return nil
}

// applyBoardPoll stores one poll in tx.
func applyBoardPoll(ctx context.Context, tx pgx.Tx, p *prospector.BoardPoll) (prospector.BoardPollResult, error) {
	var res prospector.BoardPollResult
	t, err := lockTarget(ctx, tx, p.TargetID)
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
		at := p.Outcome.At
		p.Record(t)
		return sameListing(ctx, tx, t, at)
	}
	stored, err := boardOpenings(ctx, tx, t, p.Postings)
	if err != nil {
		return res, err
	}
	plan, err := prospector.PlanBoardPoll(t, stored, p.Postings, false, p.Outcome.At)
	if err != nil {
		return res, err
	}
	if err := writeBoardPlan(ctx, tx, plan, t.LastSuccessAt); err != nil {
		return res, err
	}
	if len(plan.Signals) > 0 {
		sig, err := upsertTx(ctx, tx, signalSpec(), plan.Signals)
		if err != nil {
			return res, err
		}
		plan.Result.Signals = sig.Inserted
	}
	p.Record(t)
	return plan.Result, saveSchedule(ctx, tx, t)
}

// sameListing applies a poll that lists what the last one did (a 304,
// or the same PostingsHash), recorded on t already: PlanBoardPoll with
// same true, in three statements sent at once with the target's update,
// that read nothing. The openings the last poll
// missed miss again (closing at prospector.ClosingMisses), found through
// the open index, which holds misses; the others only move last_seen_at,
// which no index holds, so those updates stay HOT. Such a poll creates
// no opening and no signal.
func sameListing(ctx context.Context, tx pgx.Tx, t *prospector.SourceTarget, at time.Time) (prospector.BoardPollResult, error) {
	var res prospector.BoardPollResult
	b := &pgx.Batch{}
	queueSameListing(b, t, at, &res)
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return res, fmt.Errorf("same listing: %w", err)
	}
	return res, nil
}

// queueSameListing queues sameListing's statements on b; res is filled
// when b is sent.
func queueSameListing(b *pgx.Batch, t *prospector.SourceTarget, at time.Time, res *prospector.BoardPollResult) {
	at = at.UTC().Truncate(time.Microsecond)
	count := func(n *int) func(pgconn.CommandTag) error {
		return func(tag pgconn.CommandTag) error { *n = int(tag.RowsAffected()); return nil }
	}
	b.Queue(`UPDATE job_openings SET closed_at = $1, misses = misses + 1 WHERE company_id = $2 AND source = $3
		AND board_token = $4 AND closed_at IS NULL AND misses > 0 AND misses + 1 >= $5`,
		at, t.CompanyID, t.Board, t.Ref, prospector.ClosingMisses).Exec(count(&res.Closed))
	b.Queue(`UPDATE job_openings SET misses = misses + 1 WHERE company_id = $1 AND source = $2 AND board_token = $3
		AND closed_at IS NULL AND misses > 0`, t.CompanyID, t.Board, t.Ref).Exec(count(&res.Missed))
	// Seen openings write nothing: the target's last success is their
	// last sighting (openingLastSeen). They are counted in the open index.
	b.Queue(`SELECT count(*) FROM job_openings WHERE company_id = $1 AND source = $2 AND board_token = $3
		AND closed_at IS NULL AND misses = 0`, t.CompanyID, t.Board, t.Ref).QueryRow(func(row pgx.Row) error {
		return row.Scan(&res.Seen)
	})
	queueSchedule(b, t)
}

// boardOpenings reads what PlanBoardPoll needs of the board's open
// openings and of the closed ones the poll lists again: the narrow
// columns PlanBoardPoll reads, a fraction of whole rows.
func boardOpenings(ctx context.Context, tx pgx.Tx, t *prospector.SourceTarget, ps []prospector.JobPosting) ([]*prospector.JobOpening, error) {
	ids := make([]string, len(ps))
	for i, p := range ps {
		ids[i] = p.ExternalID
	}
	rows, err := tx.Query(ctx, `SELECT id, external_id, content_hash, misses, closed_at, first_seen_at FROM job_openings
		WHERE company_id = $1 AND source = $2 AND board_token = $3 AND closed_at IS NULL
		UNION ALL SELECT id, external_id, content_hash, misses, closed_at, first_seen_at FROM job_openings
		WHERE company_id = $1 AND source = $2 AND board_token = $3 AND closed_at IS NOT NULL AND external_id = ANY($4)`,
		t.CompanyID, t.Board, t.Ref, ids)
	if err != nil {
		return nil, fmt.Errorf("board openings: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (*prospector.JobOpening, error) {
		o := &prospector.JobOpening{CompanyID: t.CompanyID, Source: t.Board, BoardToken: t.Ref}
		if err := r.Scan(&o.ID, &o.ExternalID, &o.ContentHash, &o.Misses, &o.ClosedAt, &o.FirstSeenAt); err != nil {
			return nil, err
		}
		o.ClosedAt, o.FirstSeenAt = utcPtr(o.ClosedAt), o.FirstSeenAt.UTC()
		return o, nil
	})
	if err != nil {
		return nil, fmt.Errorf("board openings: %w", err)
	}
	return out, nil
}

// writeBoardPlan writes a plan's openings in one round trip: new ones
// from arrays, changed and reopened ones row by row, then one statement
// per set for the seen, missed and closed ones.
// lastSuccess is the board's last successful poll before this one: an
// opening missed for the first time keeps it as its last sighting, which
// JobOpenings read in its place while it was open and not missed.
func writeBoardPlan(ctx context.Context, tx pgx.Tx, plan *prospector.BoardPlan, lastSuccess *time.Time) error {
	b := &pgx.Batch{}
	for _, o := range plan.Insert {
		b.Queue(`INSERT INTO job_openings (company_id, source, board_token, external_id, title, job_level,
			job_function, department, location, country_code, remote, url, posted_at, first_seen_at, last_seen_at,
			misses, content_hash) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, 0, $16)
			RETURNING id`, o.CompanyID, o.Source, o.BoardToken, o.ExternalID, o.Title, o.Level, o.Function,
			o.Department, o.Location, o.CountryCode, o.Remote, o.URL, o.PostedAt, o.FirstSeenAt, o.LastSeenAt,
			o.ContentHash).QueryRow(func(row pgx.Row) error { return row.Scan(&o.ID) })
	}
	for _, o := range plan.Update {
		b.Queue(`UPDATE job_openings SET title = $1, job_level = $2, job_function = $3, department = $4,
			location = $5, country_code = $6, remote = $7, url = $8, posted_at = $9, last_seen_at = $10,
			closed_at = NULL, misses = 0, content_hash = $11 WHERE id = $12`,
			o.Title, o.Level, o.Function, o.Department, o.Location, o.CountryCode, o.Remote, o.URL, o.PostedAt,
			o.LastSeenAt, o.ContentHash, o.ID)
	}
	if len(plan.Seen) > 0 {
		// misses apart, and only where it is not 0: the open index holds
		// it, and rewriting it would end the updates' HOT path.
		b.Queue(`UPDATE job_openings SET last_seen_at = $1 WHERE id = ANY($2)`, plan.At, plan.Seen)
		b.Queue(`UPDATE job_openings SET misses = 0 WHERE id = ANY($1) AND misses <> 0`, plan.Seen)
	}
	if len(plan.Missed) > 0 {
		b.Queue(`UPDATE job_openings SET misses = misses + 1,
			last_seen_at = CASE WHEN misses = 0 THEN GREATEST(last_seen_at, $2) ELSE last_seen_at END
			WHERE id = ANY($1)`, openingIDs(plan.Missed), lastSuccess)
	}
	if len(plan.Close) > 0 {
		b.Queue(`UPDATE job_openings SET closed_at = $1, misses = misses + 1,
			last_seen_at = CASE WHEN misses = 0 THEN GREATEST(last_seen_at, $3) ELSE last_seen_at END
			WHERE id = ANY($2)`, plan.At, openingIDs(plan.Close), lastSuccess)
	}
	if b.Len() == 0 {
		return nil
	}
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return fmt.Errorf("write job openings: %w", err)
	}
	return nil
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
// no opening (sameListing); a poll that misses one writes its last
// sighting down (writeBoardPlan).
const openingLastSeen = `CASE WHEN o.closed_at IS NULL AND o.misses = 0
	THEN GREATEST(o.last_seen_at, t.last_success_at) ELSE o.last_seen_at END`

// JobOpenings pages a company's openings newest first, walking
// job_openings_company backwards.
func (db *DB) JobOpenings(ctx context.Context, f prospector.JobOpeningFilter) ([]*prospector.JobOpening, error) {
	var since *time.Time
	if f.Since != nil {
		s := f.Since.UTC()
		since = &s
	}
	return queryList(ctx, db, `SELECT o.id, o.company_id, o.source, o.board_token, o.external_id, o.title,
		o.job_level, o.job_function, o.department, o.location, o.country_code, o.remote, o.url, o.posted_at,
		o.first_seen_at, `+openingLastSeen+`, o.closed_at, o.misses, o.content_hash
		FROM job_openings o LEFT JOIN source_targets t ON t.company_id = o.company_id AND t.kind = 'board'
			AND t.board = o.source AND t.ref = o.board_token
		WHERE o.company_id = $1 AND (NOT $2 OR o.closed_at IS NULL) AND ($3::timestamptz IS NULL OR o.first_seen_at >= $3)
		ORDER BY o.first_seen_at DESC, o.id DESC LIMIT $4 OFFSET $5`, scanOpening, f.CompanyID, f.ActiveOnly, since,
		positiveLimit(f.Limit), f.Offset)
}
