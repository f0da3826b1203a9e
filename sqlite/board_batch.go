package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"github.com/prospectorhq/prospector"
)

// The statements of a batch of polls of unchanged boards. Each takes the
// whole batch as one JSON list, so a batch of 100 costs three statements
// instead of five per poll (the second cycle of the sources benchmark
// spent a quarter of its CPU in them; docs/benchmarks.md). Such a poll
// writes its target and no opening (openingLastSeen). Each board is
// [company_id, source, board_token] and each schedule the arguments of
// qSaveSchedule in a list, the target's id first.
const (
	qBatchTargets = `SELECT ` + targetColumns + targetFrom + ` WHERE t.id IN (SELECT value FROM json_each(?))`
	// The open index holds misses: the counts read it alone.
	qBatchOpenCounts = `SELECT j.key, sum(o.misses = 0), sum(o.misses > 0) FROM json_each(?) AS j
		JOIN job_openings AS o ON o.company_id = j.value->>0 AND o.source = j.value->>1 AND o.board_token = j.value->>2
		WHERE o.closed_at IS NULL GROUP BY j.key`
	qBatchSchedule = `UPDATE source_targets SET etag = j.value->>1, last_modified = j.value->>2,
		content_hash = j.value->>3, last_poll_at = j.value->>4, last_success_at = j.value->>5, next_poll_at = j.value->>6,
		failures = j.value->>7, last_error = j.value->>8, paused_until = j.value->>9, board_company_name = j.value->>10,
		name_check = j.value->>11
		FROM json_each(?) AS j WHERE source_targets.id = j.value->>0`
)

// batchStatements are prepared on the writer with ApplyBoardPolls' own.
var batchStatements = []string{qBatchTargets, qBatchOpenCounts, qBatchSchedule}

// samePoll is a poll of a batch that the fast path applies, with its
// target as stored and its place in the batch.
type samePoll struct {
	i int
	p *prospector.BoardPoll
	t *prospector.SourceTarget
}

// splitBatch reads the batch's targets in one statement and returns the
// polls that list what their board's last poll did (prospector.BoardPoll
// Same), each the only poll of its target in the batch and not stale.
// The others (a changed board, two polls of one board, a target that is
// not a stored board) are left to applyBoardPoll, which decides and
// fails as it always has.
func (db *DB) splitBatch(ctx context.Context, tx *sql.Tx, ps []*prospector.BoardPoll) ([]samePoll, []bool, error) {
	slow := make([]bool, len(ps))
	polls := map[int64]int{}
	for _, p := range ps {
		polls[p.TargetID]++
	}
	ids := make([]int64, 0, len(polls))
	for id, n := range polls {
		if n == 1 {
			ids = append(ids, id)
		}
	}
	list, _ := json.Marshal(ids)
	s, _ := txStmt(ctx, db, tx, qBatchTargets) // prepared by ApplyBoardPolls: cannot fail
	rows, err := s.QueryContext(ctx, string(list))
	ts, err := collect(rows, err, scanTarget)
	if err != nil {
		return nil, nil, err
	}
	byID := make(map[int64]*prospector.SourceTarget, len(ts))
	for _, t := range ts {
		byID[t.ID] = t
	}
	var same []samePoll
	for i, p := range ps {
		t := byID[p.TargetID]
		if t == nil || t.Kind != prospector.TargetBoard || t.Stale(p.Outcome.At) || !p.Same(t) {
			slow[i] = true
			continue
		}
		same = append(same, samePoll{i: i, p: p, t: t})
	}
	return same, slow, nil
}

// applySame applies the fast path's polls in tx, each as applyBoardPoll
// would (sameListing, then the schedule), into res. The openings a last
// poll missed are rare: their boards go through sameListing's own
// statements; every other board only has its openings counted.
func (db *DB) applySame(ctx context.Context, tx *sql.Tx, same []samePoll, res []prospector.BoardPollResult) error {
	if len(same) == 0 {
		return nil
	}
	boards := make([][3]any, len(same))
	for k, sp := range same {
		boards[k] = [3]any{sp.t.CompanyID, sp.t.Board, sp.t.Ref}
	}
	list, _ := json.Marshal(boards)
	stmt := func(q string) *sql.Stmt { s, _ := txStmt(ctx, db, tx, q); return s } // prepared by ApplyBoardPolls
	rows, err := stmt(qBatchOpenCounts).QueryContext(ctx, string(list))
	if err != nil {
		return fmt.Errorf("same listings: %w", err)
	}
	missed := map[int]bool{}
	for rows.Next() {
		var k, seen, miss int
		if err := rows.Scan(&k, &seen, &miss); err != nil {
			rows.Close()
			return fmt.Errorf("same listings: %w", err)
		}
		res[same[k].i].Seen = seen
		missed[k] = miss > 0
	}
	if err := rows.Close(); err != nil {
		return fmt.Errorf("same listings: %w", err)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("same listings: %w", err)
	}
	for k, sp := range same {
		if !missed[k] {
			continue
		}
		// sameListing closes and misses these, and counts as seen what
		// the count above did.
		r, err := db.sameListing(ctx, tx, sp.t, sp.p.Outcome.At)
		if err != nil {
			return err
		}
		res[sp.i] = r
	}
	schedules := make([][12]any, len(same))
	for k, sp := range same {
		t := sp.t
		sp.p.Record(t)
		schedules[k] = [12]any{t.ID, t.ETag, t.LastModified, nullInt(t.ContentHash), formatTimePtr(t.LastPollAt),
			formatTimePtr(t.LastSuccessAt), formatTime(t.NextPollAt), t.Failures, t.LastError, formatTimePtr(t.PausedUntil),
			t.BoardCompanyName, t.NameCheck}
	}
	list, _ = json.Marshal(schedules)
	if _, err := stmt(qBatchSchedule).ExecContext(ctx, string(list)); err != nil {
		return fmt.Errorf("save targets: %w", err)
	}
	return nil
}
