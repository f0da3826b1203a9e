package search

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"hash/crc32"
	"hash/maphash"
	"os"
	"path/filepath"

	"github.com/RoaringBitmap/roaring/v2"
)

// A snapshot is the whole index written to one file, so a restart loads
// it in seconds and then catches up from the store's change sequences
// where it left off, instead of reading every row again. It starts with
// snapshotMagic and a header (format version, schema version, database
// identity, the three change-sequence positions), then the index's
// structures, and ends with a CRC-32C of every byte before it. A file
// that fails any of those checks is never loaded: the caller builds from
// the store instead.
const snapshotMagic = "PROSPECTOR-INDEX\n"

// snapshotFormat is the layout of the file (header, primitives,
// checksum). Bump it when the layout changes.
const snapshotFormat = 1

// SchemaVersion is the version of what the index holds: its terms and
// tokenisation, rank keys, card and signal encodings. Bump it whenever
// any of them changes, so a snapshot written by an older binary is
// rebuilt rather than answered from.
const SchemaVersion = 3

// The reasons a snapshot is not used; errors.Is tells them apart.
var (
	ErrSnapshotVersion  = errors.New("search: index snapshot from another format or schema version")
	ErrSnapshotDatabase = errors.New("search: index snapshot of another database")
	ErrSnapshotCorrupt  = errors.New("search: index snapshot corrupt")
	ErrSnapshotAhead    = errors.New("search: index snapshot ahead of the database")
)

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// SnapshotInfo describes a snapshot written or loaded.
type SnapshotInfo struct {
	Companies, People, Signals int64 // change-sequence positions it reflects
	Bytes                      int64
}

// SaveSnapshot writes the index to path (through a temporary file and a
// rename, so a crash leaves the previous snapshot whole), stamped with
// database, the identity of the store it reflects. Queries go on while
// it writes; changes wait.
func (ix *Index) SaveSnapshot(path, database string) (SnapshotInfo, error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp*")
	if err != nil {
		return SnapshotInfo{}, fmt.Errorf("search: snapshot: %w", err)
	}
	defer os.Remove(tmp.Name()) // after the rename, a no-op
	ix.mu.RLock()
	w := &snapWriter{w: bufio.NewWriterSize(tmp, 1<<20), sum: crc32.New(crcTable)}
	info := SnapshotInfo{Companies: ix.companySeq, People: ix.personSeq, Signals: ix.signals.seq}
	ix.encode(w, database)
	ix.mu.RUnlock()
	if w.err == nil {
		_, w.err = w.w.Write(w.sum.Sum(nil))
	}
	if w.err == nil {
		w.err = w.w.Flush()
	}
	if w.err == nil {
		w.err = tmp.Sync()
	}
	if err := errors.Join(w.err, tmp.Close()); err != nil {
		return SnapshotInfo{}, fmt.Errorf("search: snapshot: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return SnapshotInfo{}, fmt.Errorf("search: snapshot: %w", err)
	}
	if fi, err := os.Stat(path); err == nil {
		info.Bytes = fi.Size()
	}
	return info, nil
}

// LoadSnapshot fills an empty index from the snapshot at path, which
// must have been written for database by a binary of the same format and
// schema versions, and whose positions the store has reached (a store
// restored from an older backup would otherwise leave rows in the index
// that it no longer has). On any error the index is left empty. Sync then
// catches up from the snapshot's positions.
func (ix *Index) LoadSnapshot(ctx context.Context, path, database string) (SnapshotInfo, error) {
	f, err := os.Open(path)
	if err != nil {
		return SnapshotInfo{}, fmt.Errorf("search: snapshot: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return SnapshotInfo{}, fmt.Errorf("search: snapshot: %w", err)
	}
	r := &snapReader{r: bufio.NewReaderSize(f, 1<<20), sum: crc32.New(crcTable), left: fi.Size() - crc32.Size}
	loaded := New(ix.store)
	if err := loaded.decodeSafely(r, database); err != nil {
		return SnapshotInfo{}, err
	}
	want := r.sum.Sum32()
	r.sum = crc32.New(crcTable)
	r.left += crc32.Size
	tail := r.read(crc32.Size)
	if r.err != nil || r.left != 0 || tail == nil ||
		uint32(tail[0])<<24|uint32(tail[1])<<16|uint32(tail[2])<<8|uint32(tail[3]) != want {
		return SnapshotInfo{}, fmt.Errorf("%w: checksum mismatch", ErrSnapshotCorrupt)
	}
	info := SnapshotInfo{Companies: loaded.companySeq, People: loaded.personSeq, Signals: loaded.signals.seq, Bytes: fi.Size()}
	if err := loaded.reached(ctx); err != nil {
		return SnapshotInfo{}, err
	}
	loaded.strs.reindex()
	loaded.byDomainFromCards()
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.adopt(loaded)
	return info, nil
}

// reached checks that the store holds a row at or past each position:
// a store behind the snapshot is another store's past.
func (ix *Index) reached(ctx context.Context) error {
	check := func(kind string, seq int64, n func() (int, error)) error {
		if seq == 0 {
			return nil
		}
		got, err := n()
		if err != nil {
			return fmt.Errorf("search: snapshot check %s: %w", kind, err)
		}
		if got == 0 {
			return fmt.Errorf("%w: the store has no %s at or after change %d", ErrSnapshotAhead, kind, seq)
		}
		return nil
	}
	return errors.Join(
		check("companies", ix.companySeq, func() (int, error) {
			rs, err := ix.store.CompaniesChangedSince(ctx, ix.companySeq-1, 1)
			return len(rs), err
		}),
		check("people", ix.personSeq, func() (int, error) {
			rs, err := ix.store.PeopleChangedSince(ctx, ix.personSeq-1, 1)
			return len(rs), err
		}),
		check("signals", ix.signals.seq, func() (int, error) {
			rs, err := ix.store.SignalsChangedSince(ctx, ix.signals.seq-1, 1)
			return len(rs), err
		}))
}

// adopt takes the loaded index's state (under ix's write lock).
func (ix *Index) adopt(l *Index) {
	ix.companies, ix.companyAll, ix.facts, ix.personFacts = l.companies, l.companyAll, l.facts, l.personFacts
	ix.cards, ix.strs, ix.companySeq = l.cards, l.strs, l.companySeq
	ix.people, ix.personCards, ix.peopleCo, ix.peopleAll = l.people, l.personCards, l.peopleCo, l.peopleAll
	ix.members, ix.personSeq, ix.signals = l.members, l.personSeq, l.signals
	ix.byDomain, ix.seed, ix.optimizedAtLen = l.byDomain, l.seed, l.optimizedAtLen
	ix.gen++
	ix.peopleVersion.Add(1)
}

// byDomainFromCards indexes the companies' domains: hashes are seeded
// per process, so they are not in the file.
func (ix *Index) byDomainFromCards() {
	for id, o := range ix.cards.off {
		if o != 0 {
			ix.byDomain[maphash.String(ix.seed, ix.cardDomain(ix.cards.get(int64(id))))] = uint32(id)
		}
	}
}

func (ix *Index) encode(w *snapWriter, database string) {
	w.write([]byte(snapshotMagic))
	w.uvarint(snapshotFormat)
	w.uvarint(SchemaVersion)
	w.str(database)
	w.varint(ix.companySeq)
	w.varint(ix.personSeq)
	w.varint(ix.signals.seq)
	w.uvarint(ix.optimizedAtLen)
	for _, p := range []*postings{ix.companies, ix.people, ix.peopleCo} {
		p.encode(w)
	}
	w.bitmap(ix.companyAll)
	w.bitmap(ix.peopleAll)
	encodeFacts(w, &ix.facts, func(f companyFacts) [2]string { return [2]string{f.size, f.industry} })
	encodeFacts(w, &ix.personFacts, func(f personFacts) [2]string { return [2]string{f.level, f.function} })
	w.uvarint(uint64(ix.strs.n))
	ix.strs.vals.encode(w)
	ix.cards.encode(w)
	ix.personCards.encode(w)
	ix.members.encode(w)
	set := &ix.signals
	set.recs.encode(w)
	w.i64s(set.at)
	set.byCo.encode(w)
	w.uvarint(uint64(len(set.types)))
	for _, t := range set.types {
		w.str(t)
	}
}

// decodeSafely is decode, with a panic of the bitmap library on bytes
// the checksum will refuse (it is checked at the end, so the file is read
// once) turned into ErrSnapshotCorrupt.
func (ix *Index) decodeSafely(r *snapReader, database string) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%w: %v", ErrSnapshotCorrupt, p)
		}
	}()
	return ix.decode(r, database)
}

// decode reads what encode wrote into an empty index; the header's
// checks come first, so a snapshot of another version or database is
// turned down before its body is read.
func (ix *Index) decode(r *snapReader, database string) error {
	if magic := r.read(len(snapshotMagic)); string(magic) != snapshotMagic {
		return fmt.Errorf("%w: not an index snapshot", ErrSnapshotCorrupt)
	}
	if format, schema := r.uvarint(), r.uvarint(); r.err == nil && (format != snapshotFormat || schema != SchemaVersion) {
		return fmt.Errorf("%w: format %d schema %d, this binary writes format %d schema %d",
			ErrSnapshotVersion, format, schema, snapshotFormat, SchemaVersion)
	}
	if db := r.str(); r.err == nil && db != database {
		return fmt.Errorf("%w: written for database %q, this is %q", ErrSnapshotDatabase, db, database)
	}
	ix.companySeq, ix.personSeq, ix.signals.seq = r.varint(), r.varint(), r.varint()
	ix.optimizedAtLen = r.uvarint()
	for _, p := range []*postings{ix.companies, ix.people, ix.peopleCo} {
		p.decode(r)
	}
	ix.companyAll, ix.peopleAll = r.bitmap(), r.bitmap()
	decodeFacts(r, &ix.facts, func(v [2]string) companyFacts { return companyFacts{size: v[0], industry: v[1]} })
	decodeFacts(r, &ix.personFacts, func(v [2]string) personFacts { return personFacts{level: v[0], function: v[1]} })
	ix.strs.n = uint32(r.uvarint())
	ix.strs.vals.decode(r)
	ix.cards.decode(r)
	ix.personCards.decode(r)
	ix.members.decode(r)
	set := &ix.signals
	set.recs.decode(r)
	set.at = r.i64s()
	set.byCo.decode(r)
	n := r.length(1)
	set.typeIdx = map[string]byte{}
	for i := range n {
		t := r.str()
		set.types = append(set.types, t)
		set.typeIdx[t] = byte(i)
	}
	if r.err == nil {
		r.err = ix.consistent()
	}
	if r.err != nil {
		return fmt.Errorf("%w: %w", ErrSnapshotCorrupt, r.err)
	}
	return nil
}

// consistent checks the cross-references a query follows, so that a
// snapshot whose checksum happens to match yet whose structures
// disagree fails here rather than panicking under a query.
func (ix *Index) consistent() error {
	for _, p := range []*postings{ix.companies, ix.people, ix.peopleCo} {
		if len(p.start) != len(p.length) || p.rowTerms && len(p.start) != len(p.keys) {
			return errCorrupt
		}
		for doc := range p.start {
			if uint64(p.start[doc])+uint64(p.length[doc]) > uint64(len(p.arena)) {
				return errCorrupt
			}
		}
		for _, id := range p.arena {
			if int(id) >= len(p.lists) {
				return errCorrupt
			}
		}
	}
	for _, f := range ix.facts.of {
		if int(f) > len(ix.facts.table) {
			return errCorrupt
		}
	}
	for _, f := range ix.personFacts.of {
		if int(f) > len(ix.personFacts.table) {
			return errCorrupt
		}
	}
	if int(ix.strs.n) >= len(ix.strs.vals.off) && ix.strs.n > 0 {
		return errCorrupt
	}
	for _, l := range []*memberLists{&ix.members, &ix.signals.byCo} {
		if len(l.next) != len(l.owner) {
			return errCorrupt
		}
		for _, ids := range [][]uint32{l.head, l.next} {
			for _, m := range ids {
				if int(m) > len(l.next) {
					return errCorrupt
				}
			}
		}
	}
	return nil
}

func encodeFacts[T comparable](w *snapWriter, f *factTable[T], fields func(T) [2]string) {
	w.u32s(f.of)
	w.uvarint(uint64(len(f.table)))
	for _, v := range f.table {
		for _, s := range fields(v) {
			w.str(s)
		}
	}
}

func decodeFacts[T comparable](r *snapReader, f *factTable[T], value func([2]string) T) {
	f.of = r.u32s()
	n := r.length(2)
	f.idx = make(map[T]uint32, n)
	for range n {
		v := value([2]string{r.str(), r.str()})
		f.table = append(f.table, v)
		f.idx[v] = uint32(len(f.table))
	}
}

func (p *postings) encode(w *snapWriter) {
	terms := make([]string, len(p.lists))
	for t, id := range p.ids {
		terms[id] = t
	}
	w.uvarint(uint64(len(terms)))
	for i, t := range terms {
		w.str(t)
		w.bitmap(p.lists[i])
	}
	w.u32s(p.arena)
	w.u32s(p.start)
	w.u16s(p.length)
	w.u32s(p.keys)
	w.uvarint(uint64(p.dead))
}

func (p *postings) decode(r *snapReader) {
	n := r.length(2)
	p.lists = make([]*roaring.Bitmap, 0, n)
	for range n {
		t := r.str()
		p.ids[t] = uint32(len(p.lists))
		p.lists = append(p.lists, r.bitmap())
	}
	p.arena, p.start, p.length, p.keys = r.u32s(), r.u32s(), r.u16s(), r.u32s()
	p.dead = int(r.uvarint())
}

// encode writes the live records only, id by id: bytes of replaced or
// dropped records never reach the file (they may be data someone asked
// to have erased), and the snapshot is smaller for it.
func (a *recordArena) encode(w *snapWriter) {
	w.uvarint(uint64(len(a.off)))
	for id, o := range a.off {
		if o == 0 {
			w.uvarint(0)
			continue
		}
		rec := a.get(int64(id))
		w.uvarint(uint64(len(rec)) + 1)
		w.write(rec)
	}
}

func (a *recordArena) decode(r *snapReader) {
	n := r.length(1)
	for id := range n {
		size := r.uvarint()
		if size == 0 || r.err != nil {
			continue
		}
		if size-1 > uint64(r.left) {
			r.fail(errCorrupt)
			return
		}
		if rec := r.read(int(size - 1)); r.err == nil {
			a.put(uint32(id), rec)
		}
	}
	if r.err == nil && n > 0 {
		a.off = grow(a.off, uint32(n-1))
	}
}

func (l *memberLists) encode(w *snapWriter) {
	w.u32s(l.head)
	w.u32s(l.next)
	w.u32s(l.owner)
}

func (l *memberLists) decode(r *snapReader) {
	l.head, l.next, l.owner = r.u32s(), r.u32s(), r.u32s()
}
