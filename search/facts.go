package search

// factTable maps row ids to small structs of strings, each distinct
// value kept once (+1 per row; 0: unknown): a map or slice of structs
// of strings would hold pointers per row for the garbage collector.
type factTable[T comparable] struct {
	of    []uint32
	table []T
	idx   map[T]uint32
}

// get returns the row's value, ok false when it has none.
func (f *factTable[T]) get(id uint32) (v T, ok bool) {
	if int(id) < len(f.of) && f.of[id] != 0 {
		return f.table[f.of[id]-1], true
	}
	return v, false
}

func (f *factTable[T]) set(id uint32, v T) {
	if f.idx == nil {
		f.idx = map[T]uint32{}
	}
	i, ok := f.idx[v]
	if !ok {
		f.table = append(f.table, v)
		i = uint32(len(f.table))
		f.idx[v] = i
	}
	f.of = grow(f.of, id)
	f.of[id] = i
}
