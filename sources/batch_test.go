package sources_test

import (
	"context"
	"strings"
	"testing"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/sources"
)

// refusingStore refuses batches of board polls, and one target's polls:
// a fault the store could raise.
type refusingStore struct {
	prospector.Store
	target int64
}

func (s refusingStore) ApplyBoardPolls(context.Context, []*prospector.BoardPoll) ([]prospector.BoardPollResult, error) {
	return nil, prospector.Errorf(prospector.EINVALID, "name_check: refused for the test")
}

func (s refusingStore) ApplyBoardPoll(ctx context.Context, p *prospector.BoardPoll) (prospector.BoardPollResult, error) {
	if p.TargetID == s.target {
		return prospector.BoardPollResult{}, prospector.Errorf(prospector.EINVALID, "name_check: refused for the test")
	}
	return s.Store.ApplyBoardPoll(ctx, p)
}

// A cycle stores the polls of unchanged boards together; when the store
// refuses the batch, each is stored alone, and the one refused fails
// alone (recorded on its target), never the others.
func TestBatchRefusedPollFailsAlone(t *testing.T) {
	h := newHarness(t, nil)
	for _, tok := range []string{"alpha", "bravo", "charlie"} {
		if err := h.boards.AddGenerated("greenhouse", tok, tok, 4, 1); err != nil {
			t.Fatal(err)
		}
		h.watch(tok+".test", "greenhouse:"+tok)
	}
	boardsOnly := sources.CycleOptions{Source: sources.SourceBoards}
	if sum := h.cycle(boardsOnly); sum.OK != 3 || sum.Openings.New != 12 {
		t.Fatalf("first cycle: %+v", sum)
	}
	if sum := h.cycle(boardsOnly); sum.NotModified != 3 || sum.Openings.Seen != 12 {
		t.Fatalf("unchanged cycle, batched: %+v", sum)
	}
	bravo := h.target("bravo.test", prospector.TargetBoard, "greenhouse")
	h.poller.Store = refusingStore{Store: h.st, target: bravo.ID}
	sum := h.cycle(boardsOnly)
	if sum.NotModified != 2 || sum.Failed != 1 || sum.Openings.Seen != 8 {
		t.Fatalf("cycle with a refused poll: %+v", sum)
	}
	if tg := h.target("bravo.test", prospector.TargetBoard, "greenhouse"); tg.Failures != 1 || !strings.Contains(tg.LastError, "refused") {
		t.Fatalf("the refused board: %+v", tg)
	}
	for _, d := range []string{"alpha.test", "charlie.test"} {
		if tg := h.target(d, prospector.TargetBoard, "greenhouse"); tg.Failures != 0 || !tg.LastSuccessAt.After(*bravo.LastSuccessAt) {
			t.Fatalf("%s lost with the refused poll: %+v", d, tg)
		}
	}
}
