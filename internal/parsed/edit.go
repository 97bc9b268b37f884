package parsed

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
)

// Edit replaces the bytes src[Start:End] with Text. Start == End inserts
// Text at Start; an empty Text deletes the range.
type Edit struct {
	Start, End int
	Text       string
}

// String renders the edit for error messages.
func (e Edit) String() string {
	switch {
	case e.Start == e.End:
		return fmt.Sprintf("insert %q at byte %d", e.Text, e.Start)
	case e.Text == "":
		return fmt.Sprintf("delete bytes %d-%d", e.Start, e.End)
	}
	return fmt.Sprintf("replace bytes %d-%d with %q", e.Start, e.End, e.Text)
}

// ErrOverlap is returned by Apply when two edits touch the same bytes.
var ErrOverlap = errors.New("overlapping edits")

// ErrOutOfRange is returned by Apply for an edit outside the source or
// with End before Start.
var ErrOutOfRange = errors.New("edit outside the file")

// Apply returns a copy of src with edits applied. The edits refer to src,
// in any order; Apply sorts them by position. Two inserts at the same
// offset are both applied, in the order given, and an insert at the start
// or end of a replaced range goes before or after it. Exact duplicates of
// an edit that replaces a range are applied once. Any other pair of edits
// that touch the same bytes (an insert strictly inside a replaced range
// included) is an error wrapping ErrOverlap, and nothing is applied.
// With no edits the result equals src.
func Apply(src []byte, edits []Edit) ([]byte, error) {
	sorted, err := Normalize(len(src), edits)
	if err != nil {
		return nil, err
	}
	size := len(src)
	for _, e := range sorted {
		size += len(e.Text) - (e.End - e.Start)
	}
	out := make([]byte, 0, size)
	last := 0
	for _, e := range sorted {
		out = append(out, src[last:e.Start]...)
		out = append(out, e.Text...)
		last = e.End
	}
	return append(out, src[last:]...), nil
}

// Normalize validates edits against a source of size bytes and returns
// them in the order Apply applies them: by Start, inserts before a range
// that starts at the same offset, ties in the given order, exact duplicate
// range edits removed. It reports the errors Apply reports.
func Normalize(size int, edits []Edit) ([]Edit, error) {
	for _, e := range edits {
		if e.Start < 0 || e.End < e.Start || e.End > size {
			return nil, fmt.Errorf("%v in a %d-byte file: %w", e, size, ErrOutOfRange)
		}
	}
	sorted := slices.Clone(edits)
	slices.SortStableFunc(sorted, func(a, b Edit) int {
		return cmp.Or(cmp.Compare(a.Start, b.Start), cmp.Compare(a.End, b.End))
	})
	out := sorted[:0]
	for _, e := range sorted {
		if n := len(out); n > 0 {
			prev := out[n-1]
			if prev == e && e.Start < e.End {
				continue // the same replacement twice
			}
			if prev.End > e.Start {
				return nil, fmt.Errorf("%v overlaps %v: %w", e, prev, ErrOverlap)
			}
		}
		out = append(out, e)
	}
	return out, nil
}
