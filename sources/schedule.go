package sources

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/prospectorhq/prospector"
)

// DefaultScheduleEvery is how often Schedule looks for due targets.
const DefaultScheduleEvery = time.Minute

// maxEnqueue bounds the jobs one look enqueues; the rest wait for the
// next, soonest due first.
const maxEnqueue = 5000

// Schedule enqueues a poll job (prospector.SourcePollJob) for every due
// target, now and every `every` (DefaultScheduleEvery when 0), until ctx
// ends. Run it on every node: each job's key names its target, so a
// target is queued once however many nodes find it due, and the job
// runner runs it once across nodes. Errors are logged and the next look
// tries again.
func (p *Poller) Schedule(ctx context.Context, q Enqueuer, every time.Duration) {
	if every <= 0 {
		every = DefaultScheduleEvery
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		if n, err := p.ScheduleOnce(ctx, q); err != nil && ctx.Err() == nil {
			p.logger().Warn("sources scheduler", "err", err)
		} else if n > 0 {
			p.logger().Info("sources scheduled", "jobs", n)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// ScheduleOnce brings the radars' watches up to date and enqueues a poll
// job for every due target (boards and homepages of watched companies,
// not paused). It returns how many jobs it created.
func (p *Poller) ScheduleOnce(ctx context.Context, q Enqueuer) (int, error) {
	now := p.now()
	if _, err := p.Store.SyncWatches(ctx, now); err != nil {
		return 0, fmt.Errorf("sources: sync watches: %w", err)
	}
	if err := p.syncGDELT(ctx, false); err != nil {
		return 0, err
	}
	due, err := p.Store.DueTargets(ctx, prospector.DueFilter{Now: now, Kinds: p.polledKinds(), Limit: maxEnqueue})
	if err != nil {
		return 0, fmt.Errorf("sources: due targets: %w", err)
	}
	n := 0
	if created, err := p.scheduleSEC(ctx, q); err != nil {
		return 0, fmt.Errorf("sources: schedule sec: %w", err)
	} else if created {
		n++
	}
	for _, t := range due {
		created, err := q.Enqueue(ctx, prospector.SourcePollJob(t.ID))
		if err != nil {
			return n, fmt.Errorf("sources: enqueue poll of %s: %w", Label(t), err)
		}
		if created {
			n++
		}
	}
	return n, nil
}

// PollJob is the handler of prospector.JobSourcePoll jobs: it polls the
// job's target if it is still due (a job queued twice, or one another
// node's poll overtook, finds it done and does nothing), and queues the
// boards a website crawl discovers. A source's failure is recorded on
// the target and the job succeeds; a store failure fails the job, to be
// retried.
func (p *Poller) PollJob(ctx context.Context, j *prospector.Job) error {
	var payload struct {
		TargetID int64 `json:"target_id"`
	}
	if err := json.Unmarshal(j.Payload, &payload); err != nil || payload.TargetID <= 0 {
		return fmt.Errorf("sources: job %d: payload %s names no target", j.ID, j.Payload)
	}
	t, err := p.Store.Target(ctx, payload.TargetID)
	if errors.Is(err, prospector.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	now := p.now()
	if t.NextPollAt.After(now) || t.Health(now) == prospector.HealthPaused {
		return nil
	}
	r, err := p.Poll(ctx, t)
	if err != nil {
		return err
	}
	p.logger().Info("source polled", "target", t.ID, "kind", t.Kind, "source", Label(t), "domain", t.Domain,
		"result", r.Status, "error", r.Error, "new", r.Openings.New, "changed", r.Openings.Changed,
		"closed", r.Openings.Closed, "signals", r.Openings.Signals+r.Tech.Signals+r.News.Signals, "news_events", r.News.Events,
		"new_targets", r.NewTargets)
	if p.Queue != nil {
		for _, d := range r.Discovered {
			if _, err := p.Queue.Enqueue(ctx, prospector.SourcePollJob(d.ID)); err != nil {
				p.logger().Warn("sources: queue a discovered board", "target", d.ID, "err", err)
			}
		}
	}
	return nil
}
