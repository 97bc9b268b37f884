package deploy

import (
	"bytes"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// BlockText is the Text of a YAML scalar node of the file container
// (display path file, bytes src) that holds a configuration file named
// name: Exact when the node is a literal block scalar (`|`, `|-`, `|+`,
// with or without an indentation indicator), whose content lines lie
// verbatim in src; otherwise the node's decoded value, located at its line.
//
// An Exact Text's Src is src with every byte before the block replaced by
// a space (newlines kept) and cut after the block's last line, so that a
// reader of the embedded format sees each content line at the line,
// column and offset it has in the container, indentation included
// (Flink's line reader trims it, a YAML mapping may start indented, XML
// ignores it): findings keep their positions and fix edits in place.
func BlockText(file string, src []byte, node *yaml.Node, name string) *Text {
	t := &Text{Name: name, Container: file, Loc: Loc{File: file, Line: node.Line}, Src: []byte(node.Value)}
	if node.Kind != yaml.ScalarNode || node.Style&yaml.LiteralStyle == 0 {
		return t
	}
	start, end, indent, ok := literalBlock(src, node)
	if !ok {
		return t
	}
	masked := make([]byte, end)
	for i, c := range src[:start] {
		if c == '\n' || c == '\r' {
			masked[i] = c
		} else {
			masked[i] = ' '
		}
	}
	copy(masked[start:], src[start:end])
	t.Src, t.Exact, t.Start, t.End, t.Indent = masked, true, start, end, indent
	t.Loc.Line = lineAt(src, start)
	return t
}

// literalBlock finds the content of the literal block scalar node in src:
// the offset of its first content line's start, the end of its last
// content line (after the line break), and the indentation of its lines.
// The content starts on the line after the node's indicator (`|`); it
// ends before the first non-empty line indented less than its first
// content line (YAML 1.2 §8.1.1.1).
func literalBlock(src []byte, node *yaml.Node) (start, end int, indent string, ok bool) {
	// node.Line/Column point at the indicator.
	off := offsetOf(src, node.Line, node.Column)
	if off < 0 || off >= len(src) || src[off] != '|' {
		return 0, 0, "", false
	}
	nl := bytes.IndexByte(src[off:], '\n')
	if nl < 0 {
		return 0, 0, "", false
	}
	start = off + nl + 1
	// The indentation is that of the first non-empty content line.
	n := -1
	for p := start; p < len(src); {
		e := lineEnd(src, p)
		line := bytes.TrimRight(src[p:e], "\r\n")
		if len(bytes.TrimLeft(line, " ")) > 0 {
			n = len(line) - len(bytes.TrimLeft(line, " "))
			break
		}
		p = e
	}
	if n <= 0 {
		return 0, 0, "", false
	}
	end = start
	for p := start; p < len(src); {
		e := lineEnd(src, p)
		line := bytes.TrimRight(src[p:e], "\r\n")
		if len(bytes.TrimLeft(line, " ")) > 0 && len(line)-len(bytes.TrimLeft(line, " ")) < n {
			break
		}
		p = e
		if len(bytes.TrimLeft(line, " ")) > 0 {
			end = p
		}
	}
	if end == start {
		return 0, 0, "", false
	}
	return start, end, string(bytes.Repeat([]byte{' '}, n)), true
}

// lineEnd is the offset just after the line break ending the line that
// starts at p (len(src) on the last line).
func lineEnd(src []byte, p int) int {
	if i := bytes.IndexByte(src[p:], '\n'); i >= 0 {
		return p + i + 1
	}
	return len(src)
}

// offsetOf is the byte offset of 1-based line and column (in runes, as
// yaml.Node counts them) of src, or -1.
func offsetOf(src []byte, line, col int) int {
	p := 0
	for l := 1; l < line; l++ {
		i := bytes.IndexByte(src[p:], '\n')
		if i < 0 {
			return -1
		}
		p += i + 1
	}
	for c := 1; c < col && p < len(src); c++ {
		_, size := utf8.DecodeRune(src[p:])
		p += size
	}
	return p
}

// lineAt is the 1-based line of offset off in src.
func lineAt(src []byte, off int) int {
	return 1 + bytes.Count(src[:off], []byte{'\n'})
}
