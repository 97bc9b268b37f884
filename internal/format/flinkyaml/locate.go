package flinkyaml

import (
	"unicode/utf8"

	"github.com/ckptlint/ckptlint/internal/parsed"
)

// locator maps yaml.v3 positions (1-based line, 1-based rune column) to byte
// offsets, and byte offsets to span positions.
type locator struct {
	src   []byte
	lines *parsed.Lines
	// ystarts holds the byte offset of each line as yaml.v3 counts lines:
	// it breaks on LF, CRLF, a lone CR, NEL, LS and PS, where parsed.Lines
	// breaks on LF only.
	ystarts []int
	// bom is the length of a leading UTF-8 byte-order mark, which yaml.v3
	// skips without counting a column.
	bom int
	// The last conversion, so that nodes met left to right on one long
	// line cost linear rather than quadratic time.
	lastLine, lastCol, lastOff int
}

func newLocator(src []byte) *locator {
	l := &locator{src: src, lines: parsed.NewLines(src), ystarts: []int{0}}
	if len(src) >= 3 && src[0] == 0xEF && src[1] == 0xBB && src[2] == 0xBF {
		l.bom = 3
	}
	for i := 0; i < len(src); {
		if n := breakLen(src, i); n > 0 {
			i += n
			l.ystarts = append(l.ystarts, i)
			continue
		}
		i++
	}
	return l
}

// breakLen returns the length of the yaml.v3 line break at src[i], or 0.
func breakLen(src []byte, i int) int {
	switch c := src[i]; {
	case c == '\n':
		return 1
	case c == '\r':
		if i+1 < len(src) && src[i+1] == '\n' {
			return 2
		}
		return 1
	case c == 0xC2 && i+1 < len(src) && src[i+1] == 0x85: // NEL
		return 2
	case c == 0xE2 && i+2 < len(src) && src[i+1] == 0x80 && (src[i+2] == 0xA8 || src[i+2] == 0xA9): // LS, PS
		return 3
	}
	return 0
}

// lineStart returns the byte offset of yaml.v3's 1-based line n.
func (l *locator) lineStart(n int) int {
	switch {
	case n < 1:
		return 0
	case n > len(l.ystarts):
		return len(l.src)
	case n == 1:
		return min(l.bom, len(l.src))
	}
	return l.ystarts[n-1]
}

// offset converts yaml.v3's line and rune column to a byte offset. It never
// leaves the line, and never leaves the file.
func (l *locator) offset(line, col int) int {
	off, c := l.lineStart(line), 1
	if line == l.lastLine && col >= l.lastCol && l.lastCol > 0 {
		off, c = l.lastOff, l.lastCol
	}
	for ; c < col && off < len(l.src); c++ {
		if breakLen(l.src, off) > 0 {
			break
		}
		_, size := utf8.DecodeRune(l.src[off:])
		off += size
	}
	l.lastLine, l.lastCol, l.lastOff = line, c, off
	return off
}

// span returns the span of bytes [start, end), clamped to the file.
func (l *locator) span(start, end int) parsed.Span {
	start = clamp(start, 0, len(l.src))
	end = clamp(end, start, len(l.src))
	return l.lines.Span(start, end)
}

// pos returns the position of byte offset off.
func (l *locator) pos(off int) parsed.Pos { return l.lines.Pos(off) }

func clamp(v, lo, hi int) int { return max(lo, min(v, hi)) }
