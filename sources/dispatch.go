package sources

import (
	"sync"

	"github.com/prospectorhq/prospector"
)

// dispatch hands a cycle's targets to its workers so that one slow host
// does not hold the others up: targets are grouped by where they are
// fetched from (a board vendor's API, a company's site) and each group
// runs at most its limit at once, groups taking turns.
type dispatch struct {
	mu      sync.Mutex
	cond    *sync.Cond
	groups  map[string]*group
	order   []*group // round robin
	turn    int
	pending int
	running int
	seen    map[int64]bool // every target queued in this cycle
	queued  int
}

type group struct {
	limit, running int
	targets        []*prospector.SourceTarget
}

func newDispatch(ts []*prospector.SourceTarget) *dispatch {
	d := &dispatch{groups: map[string]*group{}, seen: map[int64]bool{}}
	d.cond = sync.NewCond(&d.mu)
	for _, t := range ts {
		d.push(t)
	}
	return d
}

// groupOf names where a target is fetched from and how many of its
// group may run at once.
func groupOf(t *prospector.SourceTarget) (string, int) {
	switch t.Kind {
	case prospector.TargetBoard:
		return "board:" + t.Board, BoardsPerVendor
	case prospector.TargetGDELT:
		return "gdelt", 1 // one client, one request every five seconds
	}
	return "site:" + t.Domain, 1
}

// push queues t unless this cycle has queued it already; d.mu held or
// not yet shared.
func (d *dispatch) push(t *prospector.SourceTarget) {
	if d.seen[t.ID] {
		return
	}
	d.seen[t.ID] = true
	name, limit := groupOf(t)
	g := d.groups[name]
	if g == nil {
		g = &group{limit: limit}
		d.groups[name] = g
		d.order = append(d.order, g)
	}
	g.targets = append(g.targets, t)
	d.pending++
	d.queued++
}

// next returns the next target to poll, waiting while every group with
// targets left is at its limit; false when the cycle is over.
func (d *dispatch) next() (*prospector.SourceTarget, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for {
		if d.pending == 0 && d.running == 0 {
			return nil, false
		}
		for i := range d.order {
			g := d.order[(d.turn+i)%len(d.order)]
			if len(g.targets) > 0 && g.running < g.limit {
				d.turn = (d.turn + i + 1) % len(d.order)
				t := g.targets[0]
				g.targets = g.targets[1:]
				g.running++
				d.pending--
				d.running++
				return t, true
			}
		}
		if d.pending == 0 && d.running == 0 {
			return nil, false
		}
		d.cond.Wait()
	}
}

// done ends t's poll and queues the boards it discovered: the poll frees
// one slot and each board adds one target, so it wakes one waiting
// worker for each rather than all of them; the last poll wakes them all
// to end.
func (d *dispatch) done(t *prospector.SourceTarget, found []*prospector.SourceTarget) {
	d.mu.Lock()
	defer d.mu.Unlock()
	name, _ := groupOf(t)
	d.groups[name].running--
	d.running--
	added := d.queued
	for _, f := range found {
		d.push(f)
	}
	if d.pending == 0 && d.running == 0 {
		d.cond.Broadcast()
		return
	}
	for range 1 + d.queued - added {
		d.cond.Signal()
	}
}

// total is how many targets the cycle has queued so far.
func (d *dispatch) total() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.queued
}
