package deploy

import (
	"bytes"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Block is where the content of a YAML literal block scalar lies in the
// file holding it.
type Block struct {
	// Lines are the byte offsets where each content line starts (its
	// indentation included), up to the last line that is not blank.
	Lines []int
	// End is the offset just after the last non-blank content line's
	// newline (the length of the file when that line has none).
	End int
	// Indent is the indentation every content line carries.
	Indent string
}

// LiteralBlock locates the literal block scalar n (`|`, `|-`, `|+`, with
// or without an indentation indicator) in src, the bytes n was decoded
// from. It reports false for any other node, and for a block whose lines,
// their indentation taken off, do not give back n.Value byte for byte
// (tabs where YAML expects spaces, an escape YAML decoded): a Text made
// from it would not be Exact.
func LiteralBlock(src []byte, n *yaml.Node) (Block, bool) {
	if n == nil || n.Kind != yaml.ScalarNode || n.Style&yaml.LiteralStyle == 0 || n.Line < 1 {
		return Block{}, false
	}
	starts := lineStarts(src)
	if n.Line >= len(starts) {
		return Block{}, false // nothing after the header line
	}
	// The content starts on the line after the header (`|` and its
	// comment); it runs while lines are blank or indented at least as
	// far as its first non-blank line (YAML 1.2 §8.1.1.1), which the
	// indentation indicator can only lower: the widest indentation that
	// gives back the value is the one YAML used.
	first := n.Line // 0-based index of the first content line
	var lines []string
	for i := first; i < len(starts); i++ {
		lines = append(lines, string(lineAt(src, starts, i)))
	}
	width := -1
	for _, l := range lines {
		if strings.TrimLeft(l, " ") != "" {
			width = len(l) - len(strings.TrimLeft(l, " "))
			break
		}
	}
	if width < 0 {
		return Block{}, false // no content line
	}
	for w := width; w >= 0; w-- {
		if b, ok := tryBlock(src, starts, first, lines, w, n.Value); ok {
			return b, true
		}
	}
	return Block{}, false
}

// tryBlock checks that the block of lines indented by w from line first
// on decodes to value.
func tryBlock(src []byte, starts []int, first int, lines []string, w int, value string) (Block, bool) {
	var b Block
	b.Indent = strings.Repeat(" ", w)
	var out strings.Builder
	last := -1
	for i, l := range lines {
		blank := strings.TrimLeft(l, " ") == ""
		if !blank && !strings.HasPrefix(l, b.Indent) {
			break // less indented: the block has ended
		}
		if !blank && w == 0 && i > 0 && (strings.HasPrefix(l, "---") || strings.HasPrefix(l, "...")) {
			break
		}
		if len(l) > w {
			out.WriteString(l[w:])
		}
		out.WriteByte('\n')
		b.Lines = append(b.Lines, starts[first+i])
		if !blank {
			last = i
		}
	}
	if last < 0 {
		return Block{}, false
	}
	b.Lines = b.Lines[:last+1]
	got := strings.TrimRight(out.String(), "\n")
	if got != strings.TrimRight(value, "\n") {
		return Block{}, false
	}
	b.End = len(src)
	if next := first + last + 1; next < len(starts) {
		b.End = starts[next]
	}
	return b, true
}

// TextAt makes the Exact text that starts at offset start of container
// src and ends at end: Src is src up to end with every byte before start
// a space (newlines kept), so a reader of the embedded format sees its
// content at the lines, columns and offsets it has in the container.
func TextAt(name, container string, src []byte, start, end int, indent string, loc Loc) *Text {
	out := make([]byte, end)
	copy(out, src[:end])
	for i := 0; i < start; i++ {
		if out[i] != '\n' {
			out[i] = ' '
		}
	}
	return &Text{Name: name, Container: container, Loc: loc, Src: out, Exact: true, Start: start, End: end, Indent: indent}
}

// BlockText is the text held by the YAML scalar value (the value of key,
// in the file container whose bytes are src): Exact when value is a
// literal block scalar LiteralBlock locates, otherwise the decoded value
// located at the key's line.
func BlockText(name, container string, src []byte, key, value *yaml.Node) *Text {
	loc := Loc{File: container, Line: key.Line}
	if b, ok := LiteralBlock(src, value); ok {
		return TextAt(name, container, src, b.Start(src), b.End, b.Indent, loc)
	}
	return &Text{Name: name, Container: container, Loc: loc, Src: []byte(value.Value)}
}

// Start is the offset of the block's first content byte: the first byte
// after the indentation of its first line that is not blank.
func (b Block) Start(src []byte) int {
	for _, l := range b.Lines {
		i := l
		for i < b.End && src[i] == ' ' {
			i++
		}
		if i < b.End && src[i] != '\n' && src[i] != '\r' {
			return l + len(b.Indent)
		}
	}
	return b.End
}

// lineStarts are the offsets where each line of src starts, a line
// ending at "\n", "\r\n" or a lone "\r" as YAML's (and internal/parsed's)
// lines do, so that index n.Line-1 is the line of node n.
func lineStarts(src []byte) []int {
	starts := []int{0}
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '\r':
			if i+1 < len(src) && src[i+1] == '\n' {
				i++
			}
		case '\n':
		default:
			continue
		}
		if i+1 < len(src) {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// lineAt is line i of src without its line break.
func lineAt(src []byte, starts []int, i int) []byte {
	end := len(src)
	if i+1 < len(starts) {
		end = starts[i+1]
	}
	l := bytes.TrimSuffix(src[starts[i]:end], []byte("\n"))
	return bytes.TrimSuffix(l, []byte("\r"))
}
