package radar

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/prospectorhq/prospector"
)

// backfillChunk is the number of narrow signal rows a backfill reads at
// a time.
const backfillChunk = 50000

// Backfill is the handler of prospector.JobRadarBackfill jobs.
func (e *Engine) Backfill(ctx context.Context, j *prospector.Job) error {
	var p struct {
		RadarID string `json:"radar_id"`
	}
	if err := json.Unmarshal(j.Payload, &p); err != nil || p.RadarID == "" {
		return fmt.Errorf("radar: backfill payload %s: %w", j.Payload, errors.Join(err, errors.New("radar_id missing")))
	}
	st, err := e.BackfillRadar(ctx, p.RadarID)
	if err != nil {
		return err
	}
	e.logger().Info("radar backfilled", "radar", p.RadarID, "signals", st.Signals, "leads_created", st.LeadsCreated,
		"signals_added", st.SignalsAdded, "over_quota", st.OverQuota)
	return nil
}

// BackfillRadar matches the radar against the signals stored when it was
// created (ids up to its BackfillThrough) detected within the window,
// newest first, and writes the leads, best first, in transactions of
// WriteBatch leads; the last one marks the backfill done. It stops
// reading once the workspace's radar signals quota is covered. Running it
// again (a retried job) writes nothing twice. An unknown, paused or
// already backfilled radar is not an error: there is nothing to do (a
// paused radar's backfill is enqueued again when it is resumed).
func (e *Engine) BackfillRadar(ctx context.Context, radarID string) (Stats, error) {
	var st Stats
	r, err := e.Store.Radar(ctx, radarID)
	if errors.Is(err, prospector.ErrNotFound) {
		return st, nil
	}
	if err != nil {
		return st, err
	}
	if r.BackfilledAt != nil || r.PausedAt != nil {
		return st, nil
	}
	m := compile(r)
	left, limited, err := e.quotaLeft(ctx, r.WorkspaceID)
	if err != nil {
		return st, err
	}
	types := make([]string, 0, len(m.types))
	for t := range m.types {
		types = append(types, t)
	}
	c := e.newCards()
	leads := map[int64]*prospector.LeadMatch{}
	var order []int64
	attached := int64(0)
	scan := prospector.BackfillScan{Through: r.BackfillThrough, Since: e.since(), Types: types, Limit: backfillChunk}
	for !limited || attached < left {
		if err := ctx.Err(); err != nil {
			return st, err
		}
		refs, err := e.Store.BackfillSignals(ctx, scan)
		if err != nil {
			return st, err
		}
		if len(refs) == 0 {
			break
		}
		st.Signals += len(refs)
		scan.Before = refs[len(refs)-1].ID
		sigs, err := e.prefilter(ctx, m, refs, c)
		if err != nil {
			return st, err
		}
		matches, err := e.match(ctx, []*matcher{m}, sigs, c, nil)
		if err != nil {
			return st, err
		}
		for _, lm := range matches {
			if prev := leads[lm.Lead.PersonID]; prev != nil {
				prev.Signals = append(prev.Signals, lm.Signals...)
			} else {
				leads[lm.Lead.PersonID] = &lm
				order = append(order, lm.Lead.PersonID)
			}
			attached += int64(len(lm.Signals))
		}
		// People rarely repeat across chunks: keep memory flat.
		c.people, c.staff, c.fanouts = map[int64]*personInfo{}, map[int64][]*personInfo{}, map[int64]int{}
		if len(refs) < backfillChunk {
			break
		}
	}
	ptrs := make([]*prospector.LeadMatch, 0, len(order))
	for _, id := range order {
		ptrs = append(ptrs, leads[id])
	}
	all := sortMatches(ptrs)
	batch := orDefault(e.WriteBatch, DefaultWriteBatch)
	for start := 0; ; start += batch {
		b := &prospector.LeadBatch{Matches: all[start:min(start+batch, len(all))], Now: e.now(), AutoSync: e.AutoSync}
		last := start+batch >= len(all)
		if last {
			b.Backfilled = []string{r.ID}
		}
		res, err := e.apply(ctx, b)
		if err != nil {
			return st, err
		}
		st.add(res)
		if last {
			return st, nil
		}
	}
}

// prefilter drops the signals the radar refuses on their narrow columns
// (type, company, the person of a person signal) and reads the text of
// the survivors whose filters need it.
func (e *Engine) prefilter(ctx context.Context, m *matcher, refs []prospector.SignalRef, c *cards) ([]*sigInfo, error) {
	var companyIDs []int64
	for _, r := range refs {
		if r.CompanyID > 0 {
			companyIDs = append(companyIDs, r.CompanyID)
		}
	}
	if err := c.loadCompanies(ctx, companyIDs); err != nil {
		return nil, err
	}
	kept := make([]prospector.SignalRef, 0, len(refs))
	var personIDs []int64
	for _, r := range refs {
		if !m.types[r.Type] || !m.companyOK(c.companies[r.CompanyID]) {
			continue
		}
		if r.PersonID > 0 && m.hasPersonFilter() {
			personIDs = append(personIDs, r.PersonID)
		}
		kept = append(kept, r)
	}
	if err := c.loadPeople(ctx, personIDs); err != nil {
		return nil, err
	}
	out := make([]*sigInfo, 0, len(kept))
	var needText []int64
	byID := map[int64]*sigInfo{}
	for _, r := range kept {
		if r.PersonID > 0 && m.hasPersonFilter() {
			if p := c.people[r.PersonID]; p == nil || !m.personOK(p) {
				continue
			}
		}
		s := &sigInfo{SignalRef: r}
		out = append(out, s)
		if m.needsText(r.Type) {
			needText = append(needText, r.ID)
			byID[r.ID] = s
		}
	}
	for start := 0; start < len(needText); start += 512 {
		full, err := e.Store.SignalsByID(ctx, needText[start:min(start+512, len(needText))])
		if err != nil {
			return nil, err
		}
		for _, f := range full {
			if s := byID[f.ID]; s != nil {
				s.Title, s.Detail, s.SourceURL = f.Title, f.Detail, f.SourceURL
			}
		}
	}
	return out, nil
}

// since is the start of the window: older signals count for no radar.
func (e *Engine) since() time.Time { return e.now().Add(-orDefault(e.Window, DefaultWindow)) }
