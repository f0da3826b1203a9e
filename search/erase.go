package search

import (
	"context"
	"fmt"
	"hash/maphash"

	"github.com/prospectorhq/prospector"
)

// syncErasures applies the erasure feed (companies, people and signals a
// subject request deleted), then takes in again any erased id the store
// holds anew: SQLite may give a deleted row's id to a later insert,
// which the index can have taken in before it read the erasure.
func (ix *Index) syncErasures(ctx context.Context) (int, error) {
	var cos, people []int64
	n, err := catchUp(ctx, ix, "erasures", func() int64 { return ix.erasureSeq }, 0, ix.store.ErasuresSince,
		func(e prospector.Erasure) int64 { return e.Seq }, func(es []prospector.Erasure) error {
			for _, e := range es {
				switch e.Kind {
				case prospector.ErasedCompany:
					cos = append(cos, e.RowID)
				case prospector.ErasedPerson:
					people = append(people, e.RowID)
				}
			}
			ix.applyErasures(es)
			return nil
		})
	if err != nil || n == 0 {
		return n, err
	}
	// Only ids erased here can have been reused; nothing to read back
	// (and no lock or cache version to move) when none were.
	if len(cos) > 0 {
		back, err := ix.store.CompaniesByID(ctx, cos)
		if err != nil {
			return n, fmt.Errorf("search: erased companies: %w", err)
		}
		if err := ix.applyCompanies(back); err != nil {
			return n, err
		}
	}
	if len(people) > 0 {
		again, err := ix.store.PeopleByID(ctx, people)
		if err != nil {
			return n, fmt.Errorf("search: erased people: %w", err)
		}
		return n, ix.applyPeople(again)
	}
	return n, nil
}

// applyErasures takes erased rows out of every structure under the write
// lock.
func (ix *Index) applyErasures(es []prospector.Erasure) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.gen++
	ix.peopleVersion.Add(1)
	// A company's facts go last: its people erased in the same batch are
	// taken out of peopleCo under those facts' terms.
	var erasedCos []uint32
	defer func() {
		for _, id := range erasedCos {
			ix.facts.clear(id)
		}
	}()
	for _, e := range es {
		if e.Seq > ix.erasureSeq {
			ix.erasureSeq = e.Seq
		}
		if e.RowID <= 0 || e.RowID > 1<<32-1 {
			continue
		}
		id := uint32(e.RowID)
		switch e.Kind {
		case prospector.ErasedPerson:
			// people and peopleCo keep no row terms: the terms it was
			// indexed under come from its card and its company's facts,
			// read before either is dropped.
			if int(id) < len(ix.people.keys) && ix.people.keys[id] != 0 {
				ix.peopleAll.Remove(ix.people.keys[id])
				coFacts, _ := ix.facts.get(ix.members.ownerOf(id))
				ix.people.move(id, 0, ix.personTermsOf(id), nil)
				ix.peopleCo.move(id, 0, coFacts.terms(), nil)
			}
			ix.members.remove(id)
			ix.personCards.drop(id)
			ix.personFacts.clear(id)
		case prospector.ErasedCompany:
			if key := ix.companyKey(id); key != 0 {
				ix.companyAll.Remove(key)
				ix.companies.remove(id)
				ix.companies.keys[id] = 0
			}
			if card := ix.cards.get(int64(id)); card != nil {
				h := maphash.String(ix.seed, ix.cardDomain(card))
				if ix.byDomain[h] == id {
					delete(ix.byDomain, h)
				}
			}
			ix.cards.drop(id)
			erasedCos = append(erasedCos, id)
			var sigs []uint32
			ix.signals.byCo.each(id, func(sid uint32) bool { sigs = append(sigs, sid); return true })
			for _, sid := range sigs {
				ix.signals.byCo.remove(sid)
				ix.signals.recs.drop(sid)
			}
		case prospector.ErasedSignal:
			ix.signals.byCo.remove(id)
			ix.signals.recs.drop(id)
		}
	}
}
