package radar

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/prospectorhq/prospector"
)

// Scan is the handler of prospector.JobRadarScan jobs.
func (e *Engine) Scan(ctx context.Context, _ *prospector.Job) error {
	st, err := e.ScanOnce(ctx)
	if err != nil {
		return err
	}
	if st.Signals > 0 {
		e.logger().Info("radar scan", "signals", st.Signals, "batches", st.Batches, "leads_created", st.LeadsCreated,
			"leads_updated", st.LeadsUpdated, "signals_added", st.SignalsAdded, "over_quota", st.OverQuota)
	}
	return nil
}

// ScanOnce processes the signals stored after the radars' cursors, in id
// order, ScanBatch signals per transaction, until it has caught up or
// ScanBudget has passed. Each transaction writes the batch's leads and
// moves the cursor of every radar it covered from where it was read to
// the batch's last signal, so a signal is processed once per radar, a
// crash loses nothing (the batch is applied again from the stored
// cursors), and a second worker that read the same cursors fails with
// ErrCursorMoved and writes nothing; ScanOnce then stops and returns nil,
// the other worker having done the work. Matching the next batch overlaps
// with writing the current one. Radars created while it runs wait for
// the next scan.
func (e *Engine) ScanOnce(ctx context.Context) (Stats, error) {
	var st Stats
	all, err := e.Store.ListRadars(ctx)
	if err != nil {
		return st, err
	}
	// A paused radar is not scanned: its cursor stays, and resuming it
	// moves the cursor past what was stored meanwhile.
	radars := slices.DeleteFunc(all, func(r *prospector.Radar) bool { return r.PausedAt != nil })
	if len(radars) == 0 {
		return st, nil
	}
	ms := make([]*matcher, len(radars))
	exhausted := make([]bool, len(radars))
	checked := map[string]bool{}
	for i, r := range radars {
		ms[i] = compile(r)
		if _, seen := checked[r.WorkspaceID]; !seen {
			left, limited, err := e.quotaLeft(ctx, r.WorkspaceID)
			if err != nil {
				return st, err
			}
			checked[r.WorkspaceID] = limited && left <= 0
		}
		// A workspace out of radar signals still moves its cursors, so
		// the signals of this period are not scanned again in the next.
		exhausted[i] = checked[r.WorkspaceID]
	}
	pctx, stop := context.WithCancel(ctx)
	defer stop()
	batches := make(chan scanBatch, 1)
	go e.prepareBatches(pctx, radars, ms, exhausted, batches)
	for b := range batches {
		if b.err != nil {
			return st, b.err
		}
		res, err := e.Store.ApplyLeadBatch(ctx, b.batch)
		if errors.Is(err, prospector.ErrCursorMoved) {
			e.logger().Warn("radar scan: another worker moved a cursor; stopping", "err", err)
			return st, nil
		}
		if err != nil {
			return st, err
		}
		st.Signals += b.signals
		st.add(res)
	}
	return st, nil
}

// scanBatch is one prepared transaction of a scan.
type scanBatch struct {
	batch   *prospector.LeadBatch
	signals int
	err     error
}

// prepareBatches reads and matches the batches of a scan, each from the
// cursors the previous one leaves, and sends them until it has caught up,
// the budget has passed or ctx ends; then it closes out.
func (e *Engine) prepareBatches(ctx context.Context, radars []*prospector.Radar, ms []*matcher, exhausted []bool,
	out chan<- scanBatch) {
	defer close(out)
	send := func(b scanBatch) bool {
		select {
		case out <- b:
			return true
		case <-ctx.Done():
			return false
		}
	}
	cursors := make([]int64, len(radars))
	for i, r := range radars {
		cursors[i] = r.Cursor
	}
	deadline := time.Now().Add(orDefault(e.ScanBudget, DefaultScanBudget))
	size := orDefault(e.ScanBatch, DefaultScanBatch)
	for ctx.Err() == nil && time.Now().Before(deadline) {
		from := slices.Min(cursors)
		sigs, err := e.Store.ListSignals(ctx, from, size)
		if err != nil {
			send(scanBatch{err: err})
			return
		}
		if len(sigs) == 0 {
			return
		}
		last := sigs[len(sigs)-1].ID
		since := e.since()
		infos := make([]*sigInfo, 0, len(sigs))
		for _, s := range sigs {
			if !s.DetectedAt.Before(since) {
				infos = append(infos, newSigInfo(s))
			}
		}
		matches, err := e.match(ctx, ms, infos, e.newCards(), func(i int, s *sigInfo) bool {
			return !exhausted[i] && cursors[i] < s.ID
		})
		if err != nil {
			send(scanBatch{err: err})
			return
		}
		b := &prospector.LeadBatch{Matches: matches, Now: e.now(), AutoSync: e.AutoSync}
		for i, r := range radars {
			if cursors[i] < last {
				b.Cursors = append(b.Cursors, prospector.RadarCursor{RadarID: r.ID, From: cursors[i], To: last})
				cursors[i] = last
			}
		}
		if !send(scanBatch{batch: b, signals: len(sigs)}) {
			return
		}
	}
}

// Enqueuer stores jobs; *jobs.Runner is one (it also wakes itself).
type Enqueuer interface {
	Enqueue(ctx context.Context, j *prospector.Job) (bool, error)
}

// backfillRetry is how long the scheduler waits before enqueuing the
// backfill of a radar again whose backfill has not completed.
const backfillRetry = time.Minute

// Schedule enqueues the radar jobs until ctx ends: every interval it
// reads the backlog and enqueues a scan when signals wait beyond a
// radar's cursor (imports run in another process, so polling is how it
// learns of them), and the backfill of radars whose backfill has not
// completed (one that failed, or a radar written by CreateRadar, which
// enqueues none; CreateRadarInQuota writes the radar and its job in one
// transaction), at most once a minute per radar. Dedupe
// keys keep one scan and one backfill per radar queued at a time across
// every node.
func (e *Engine) Schedule(ctx context.Context, q Enqueuer, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	tried := map[string]time.Time{}
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if err := e.scheduleOnce(ctx, q, tried); err != nil && ctx.Err() == nil {
			e.logger().Warn("radar scheduler", "err", err)
		}
	}
}

func (e *Engine) scheduleOnce(ctx context.Context, q Enqueuer, tried map[string]time.Time) error {
	b, err := e.Store.RadarBacklog(ctx)
	if err != nil {
		return err
	}
	if b.Radars > 0 && b.MaxSignalID > b.MinCursor {
		if _, err := q.Enqueue(ctx, prospector.RadarScanJob()); err != nil {
			return err
		}
	}
	now := time.Now()
	for _, id := range b.Unbackfilled {
		if at, ok := tried[id]; ok && now.Sub(at) < backfillRetry {
			continue
		}
		if _, err := q.Enqueue(ctx, prospector.RadarBackfillJob(id)); err != nil {
			return err
		}
		tried[id] = now
	}
	return nil
}
