package radar

import (
	"context"
	"fmt"
	"slices"

	"github.com/prospectorhq/prospector"
)

// apply writes a lead batch without the matches of suppressed people.
// An erasure removes a suppressed person from the store and, within
// --index-poll, from every node's index; until then the index can still
// hand this engine the person, and this check keeps the lead out.
func (e *Engine) apply(ctx context.Context, b *prospector.LeadBatch) (prospector.LeadBatchResult, error) {
	e.suppressOnce.Do(func() { e.suppressions = &prospector.SuppressionCache{Store: e.Store} })
	set, err := e.suppressions.Set(ctx)
	if err != nil {
		return prospector.LeadBatchResult{}, fmt.Errorf("radar: %w", err)
	}
	if !set.Empty() {
		b.Matches = slices.DeleteFunc(b.Matches, func(m prospector.LeadMatch) bool {
			l := &m.Lead
			return set.Person(&prospector.Person{NetworkURL: l.NetworkURL, FullName: l.FullName, Email: l.Email})
		})
	}
	return e.Store.ApplyLeadBatch(ctx, b)
}
