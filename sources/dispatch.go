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
	return d.wait()
}

// wait is next with d.mu held.
func (d *dispatch) wait() (*prospector.SourceTarget, bool) {
	for {
		if d.pending == 0 && d.running == 0 {
			return nil, false
		}
		if t, _ := d.take(); t != nil {
			return t, true
		}
		d.cond.Wait()
	}
}

// take starts the next target whose group is under its limit, round
// robin, and returns it with its group; nil when none may start now.
// d.mu held.
func (d *dispatch) take() (*prospector.SourceTarget, *group) {
	for i := range d.order {
		g := d.order[(d.turn+i)%len(d.order)]
		if len(g.targets) > 0 && g.running < g.limit {
			d.turn = (d.turn + i + 1) % len(d.order)
			t := g.targets[0]
			g.targets = g.targets[1:]
			g.running++
			d.pending--
			d.running++
			return t, g
		}
	}
	return nil, nil
}

// done ends t's poll and queues the boards it discovered (it returns how
// many were new to the cycle); the last poll
// wakes every waiting worker to end. It wakes no one else: the worker
// calls nextAfter, which takes the slot t freed when it can and wakes a
// worker only for a slot or a discovered board it leaves. Waking one for
// the freed slot while its own worker takes it cost every poll a
// scheduler round trip to a worker that found nothing to do.
func (d *dispatch) done(t *prospector.SourceTarget, found []*prospector.SourceTarget) (queued int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	name, _ := groupOf(t)
	d.groups[name].running--
	d.running--
	before := d.queued
	for _, f := range found {
		d.push(f)
	}
	if d.pending == 0 && d.running == 0 {
		d.cond.Broadcast()
	}
	return d.queued - before
}

// nextAfter is next for the worker whose poll of t ended (done) and
// queued found new boards.
func (d *dispatch) nextAfter(t *prospector.SourceTarget, found int) (*prospector.SourceTarget, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.pending == 0 && d.running == 0 {
		return nil, false
	}
	name, _ := groupOf(t)
	freed := d.groups[name]
	next, g := d.take()
	wake := found
	if next == nil || (g != freed && len(freed.targets) > 0 && freed.running < freed.limit) {
		wake++
	}
	for range wake {
		d.cond.Signal()
	}
	if next != nil {
		return next, true
	}
	return d.wait()
}

// total is how many targets the cycle has queued so far.
func (d *dispatch) total() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.queued
}
