package search

import (
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"math"
	"slices"
	"time"

	"github.com/prospectorhq/prospector"
)

// signalSet keeps every company signal in memory: signals/bulk asks for
// the newest signals of a hundred companies at once, and reading ~450
// rows through SQLite took ~7 ms of CPU per call (docs/benchmarks.md).
// Records live in a pointer-free arena; each company's list holds signal
// ids newest first (detected_at, then id, descending), so a call copies
// the head of a hundred lists.
type signalSet struct {
	recs    recordArena
	at      []int64     // signal id -> detected_at, Unix ns
	byCo    memberLists // signals under their company, newest first
	types   []string    // interned signal types; records hold an index
	typeIdx map[string]byte
	seq     int64
}

// signal record flags.
const (
	sigHasScore    = 1 << iota
	sigHasDetected // DetectedAt is not the zero time
	sigOwnDomain   // CompanyDomain differs from the company's own domain
)

// applySignals adds or replaces signals under the write lock. A signal without a company is remembered only for its seq: the
// per-company lists are all the index answers.
func (ix *Index) applySignals(ss []*prospector.Signal) error {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	set := &ix.signals
	for _, s := range ss {
		if s.Seq > set.seq {
			set.seq = s.Seq
		}
		if s.ID <= 0 || s.ID > math.MaxUint32 {
			return fmt.Errorf("search: signal id %d out of the index's range", s.ID)
		}
		id := uint32(s.ID)
		set.at = grow(set.at, id)
		if s.CompanyID == nil || *s.CompanyID <= 0 || *s.CompanyID > math.MaxUint32 {
			set.byCo.remove(id)
			continue
		}
		co := uint32(*s.CompanyID)
		rec, err := ix.encodeSignal(s)
		if err != nil {
			return err
		}
		set.recs.put(id, rec)
		if !s.DetectedAt.IsZero() {
			set.at[id] = s.DetectedAt.UnixNano()
		} else {
			set.at[id] = math.MinInt64
		}
		set.byCo.insert(id, co, set.newer)
	}
	return nil
}

// newer reports whether signal a comes before signal b, newest first: by
// detected_at, then by id, both descending.
func (set *signalSet) newer(a, b uint32) bool {
	if set.at[a] != set.at[b] {
		return set.at[a] > set.at[b]
	}
	return a > b
}

func (ix *Index) encodeSignal(s *prospector.Signal) ([]byte, error) {
	set := &ix.signals
	t, ok := set.typeIdx[s.Type]
	if !ok {
		if len(set.types) == math.MaxUint8 {
			return nil, fmt.Errorf("search: more than %d signal types", math.MaxUint8)
		}
		if set.typeIdx == nil {
			set.typeIdx = map[string]byte{}
		}
		t = byte(len(set.types))
		set.types = append(set.types, s.Type)
		set.typeIdx[s.Type] = t
	}
	var flags byte
	if s.Score != nil {
		flags |= sigHasScore
	}
	if !s.DetectedAt.IsZero() {
		flags |= sigHasDetected
	}
	domain := ""
	if c := ix.cards.get(*s.CompanyID); c == nil || ix.cardDomain(c) != s.CompanyDomain {
		flags |= sigOwnDomain
		domain = s.CompanyDomain
	}
	b := append(make([]byte, 0, 48+len(s.ExternalID)+len(s.Title)+len(s.Detail)+len(s.SourceURL)), t, flags)
	b = appendStrings(b, s.ExternalID, s.Title, s.Detail, s.SourceURL)
	if flags&sigOwnDomain != 0 {
		b = appendStrings(b, domain)
	}
	var person int64
	if s.PersonID != nil {
		person = *s.PersonID
	}
	b = binary.AppendVarint(b, person)
	b = binary.AppendVarint(b, s.Seq)
	b = binary.AppendVarint(b, s.CreatedAt.UnixNano())
	if flags&sigHasDetected != 0 {
		b = binary.AppendVarint(b, s.DetectedAt.UnixNano())
	}
	if flags&sigHasScore != 0 {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(*s.Score))
	}
	return ix.strs.pack(b, 2, signalModes), nil
}

// How the index keeps a signal's string fields: ExternalID, Title,
// Detail, SourceURL (its own domain, when it has one, stays inline).
var signalModes = []uint8{keepInline, keepShared, keepInline, keepPrefix}

// decodeSignal fills s from its record; ids (two slots) and score are
// where its CompanyID, PersonID and Score point, so a batch of signals
// takes a few allocations rather than a few per signal.
// join is where URLs kept as a shared prefix are joined (see
// strtab.strings).
func (ix *Index) decodeSignal(s *prospector.Signal, id int64, co uint32, b []byte, ids []int64, score *float64, join *[]byte) {
	set := &ix.signals
	t, flags := b[0], b[1]
	var f [4]string
	b = ix.strs.strings(b, 2, f[:], join)
	ids[0] = int64(co)
	*s = prospector.Signal{ID: id, ExternalID: f[0], Type: set.types[t], Title: f[1], Detail: f[2], SourceURL: f[3],
		CompanyID: &ids[0]}
	if flags&sigOwnDomain != 0 {
		var d [1]string
		b = readStrings(b, d[:])
		s.CompanyDomain = d[0]
	} else {
		s.CompanyDomain = ix.cardDomain(ix.cards.get(ids[0]))
	}
	var v [3]int64
	for i := range v {
		n, w := binary.Varint(b)
		v[i], b = n, b[w:]
	}
	if v[0] != 0 {
		ids[1] = v[0]
		s.PersonID = &ids[1]
	}
	s.Seq, s.CreatedAt = v[1], time.Unix(0, v[2]).UTC()
	if flags&sigHasDetected != 0 {
		n, w := binary.Varint(b)
		s.DetectedAt, b = time.Unix(0, n).UTC(), b[w:]
	}
	if flags&sigHasScore != 0 {
		*score = math.Float64frombits(binary.LittleEndian.Uint64(b))
		s.Score = score
	}
}

// cardDomain reads the domain, the second field of a company card as
// the index keeps it.
func (ix *Index) cardDomain(card []byte) string { return ix.strs.string(card, 0, 1) }

// CompanySignals returns the newest perCompany signals of each company the
// index knows, ordered by company id, then newest first (as
// SignalStore.SignalsByCompanies); missing lists the ids it does not
// know, for the caller to read from the store.
func (ix *Index) CompanySignals(companyIDs []int64, perCompany int) (signals []*prospector.Signal, missing []int64) {
	if perCompany <= 0 {
		return nil, nil
	}
	ids := slices.Clone(companyIDs)
	slices.Sort(ids)
	ids = slices.Compact(ids)
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	set := &ix.signals
	type hit struct {
		sid uint32
		co  uint32
	}
	var hits []hit
	for _, id := range ids {
		if ix.cards.get(id) == nil {
			missing = append(missing, id)
			continue
		}
		n := 0
		set.byCo.each(uint32(id), func(sid uint32) bool {
			hits = append(hits, hit{sid, uint32(id)})
			n++
			return n < perCompany
		})
	}
	slab := make([]prospector.Signal, len(hits))
	idSlab := make([]int64, 2*len(hits))
	scores := make([]float64, len(hits))
	signals = make([]*prospector.Signal, len(hits))
	join := make([]byte, 0, 48*len(hits)) // source URLs, joined from prefix and rest
	for i, h := range hits {
		ix.decodeSignal(&slab[i], int64(h.sid), h.co, set.recs.get(int64(h.sid)), idSlab[2*i:2*i+2], &scores[i], &join)
		signals[i] = &slab[i]
	}
	return signals, missing
}

// CompanyIDsByDomain resolves the normalised domains of companies the
// index knows; the caller asks the store for the others.
func (ix *Index) CompanyIDsByDomain(domains []string) map[string]int64 {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	out := make(map[string]int64, len(domains))
	for _, d := range domains {
		id, ok := ix.byDomain[maphash.String(ix.seed, d)]
		// Two domains could share a hash: the card says which one it is.
		if ok && ix.cardDomain(ix.cards.get(int64(id))) == d {
			out[d] = int64(id)
		}
	}
	return out
}
