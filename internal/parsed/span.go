// The position model (span.go), shared by every parser, editor and reporter
// in ckptlint: 1-based line and column plus a 0-based byte offset.

package parsed

import "fmt"

// Pos is a position in a file. Line and Col are 1-based; Col counts bytes
// (reporters convert to runes where a format asks for it). Offset is the
// 0-based byte offset into the file.
type Pos struct {
	Line   int `json:"line"`
	Col    int `json:"column"`
	Offset int `json:"offset"`
}

// IsZero reports whether p was never set.
func (p Pos) IsZero() bool { return p.Line == 0 }

// String renders p as line:col.
func (p Pos) String() string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }

// Top is the first position of a file, line 1 column 1: where a finding
// about the file as a whole (a default value, a file-level parse error) is
// reported.
func Top() Pos { return Pos{Line: 1, Col: 1} }

// At is the empty span at p.
func At(p Pos) Span { return Span{Start: p, End: p} }

// Span is a half-open byte range [Start, End) in one file.
type Span struct {
	Start Pos `json:"start"`
	End   Pos `json:"end"`
}

// IsZero reports whether s was never set.
func (s Span) IsZero() bool { return s.Start.IsZero() }

// Len is the number of bytes covered.
func (s Span) Len() int { return s.End.Offset - s.Start.Offset }

// Lines maps byte offsets to positions for one file's content.
type Lines struct {
	starts []int // byte offset of the first byte of each line
	size   int
}

// NewLines indexes src. Both LF and CRLF line endings are handled: a CR that
// precedes LF belongs to the line it ends.
func NewLines(src []byte) *Lines {
	l := &Lines{starts: []int{0}, size: len(src)}
	for i, c := range src {
		if c == '\n' {
			l.starts = append(l.starts, i+1)
		}
	}
	return l
}

// Pos returns the position of byte offset off (clamped to the file).
func (l *Lines) Pos(off int) Pos {
	if off < 0 {
		off = 0
	}
	if off > l.size {
		off = l.size
	}
	lo, hi := 0, len(l.starts)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if l.starts[mid] <= off {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return Pos{Line: lo + 1, Col: off - l.starts[lo] + 1, Offset: off}
}

// Span returns the span of bytes [start, end).
func (l *Lines) Span(start, end int) Span { return Span{Start: l.Pos(start), End: l.Pos(end)} }

// LineStart returns the byte offset of the first byte of 1-based line n.
func (l *Lines) LineStart(n int) int {
	if n < 1 {
		return 0
	}
	if n > len(l.starts) {
		return l.size
	}
	return l.starts[n-1]
}

// Count is the number of lines (a trailing newline opens an empty last line).
func (l *Lines) Count() int { return len(l.starts) }
