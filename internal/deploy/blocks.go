package deploy

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// MaxExactBytes bounds the bytes the Exact Texts of one container hold
// together: an Exact Text's Src is the container up to the end of its
// block (see Text), so a file of many blocks would otherwise cost its size
// once per block. 64 MiB is four times parsed.MaxFileSize; past it a block
// is read as a non-Exact Text (its decoded content) and Blocks.Note says so.
const MaxExactBytes = 64 << 20

// Blocks makes Texts of the scalars of one YAML file (a ConfigMap's data,
// a pod's FLINK_PROPERTIES value), with the positions of literal block
// scalars in it. It is not safe for concurrent use.
type Blocks struct {
	src       []byte
	container string
	lines     []int // offset of the start of each line, 0-based
	exact     int   // bytes held by the Exact Texts made so far
	// Note is set (once) when a block was read as a non-Exact Text because
	// the file's Exact Texts reached MaxExactBytes.
	Note string
}

// NewBlocks indexes the lines of src, the bytes of the file displayed as
// container.
func NewBlocks(container string, src []byte) *Blocks {
	lines := []int{0}
	for i, c := range src {
		if c == '\n' {
			lines = append(lines, i+1)
		}
	}
	return &Blocks{src: src, container: container, lines: lines}
}

// Text returns the Text named name held by value (a scalar node of the
// file; key is the node of its key, nil for a sequence item). It is Exact
// when value is a literal block scalar ("|", "|-", "|+", with or without an
// indentation indicator) written directly, not through an alias, and its
// content lines, stripped of their indentation and chomped as the header
// says, give exactly the value the YAML parser decoded: then Start and End
// are the offsets of its first content byte and of the end of its last
// content line (after its newline), Indent the indentation every content
// line carries, and Src the file with every byte before Start a space
// (newlines kept) cut at End, so a reader of the embedded format sees each
// line at the line, column and offset it has in the file. Otherwise Src is
// the decoded value. Loc is the line of the key (of the value without one).
func (b *Blocks) Text(name string, key, value *yaml.Node) *Text {
	at := value
	if key != nil {
		at = key
	}
	t := &Text{Name: name, Container: b.container, Loc: Loc{File: b.container, Line: at.Line}}
	if value.Kind == yaml.AliasNode && value.Alias != nil {
		t.Src = []byte(value.Alias.Value) // written elsewhere: not Exact here
		return t
	}
	t.Src = []byte(value.Value)
	if value.Kind != yaml.ScalarNode || value.Style&yaml.LiteralStyle == 0 {
		return t
	}
	start, end, indent, ok := b.literal(key, value)
	if !ok {
		return t
	}
	if b.exact+end > MaxExactBytes {
		if b.Note == "" {
			b.Note = fmt.Sprintf("%s:%d: this block and the later ones are read without their positions: the file's blocks hold more than %d bytes together", b.container, at.Line, MaxExactBytes)
		}
		return t
	}
	b.exact += end
	src := make([]byte, end)
	for i := range start {
		if c := b.src[i]; c == '\n' || c == '\r' {
			src[i] = c
		} else {
			src[i] = ' '
		}
	}
	copy(src[start:], b.src[start:end])
	t.Src, t.Exact, t.Start, t.End, t.Indent = src, true, start, end, strings.Repeat(" ", indent)
	return t
}

// literal locates the content of literal block scalar value and checks it
// against the decoded value.
func (b *Blocks) literal(key, value *yaml.Node) (start, end, indent int, ok bool) {
	if value.Line < 1 || value.Line > len(b.lines) {
		return 0, 0, 0, false
	}
	// The header: "|" at value.Column (yaml.v3 counts characters, not
	// bytes), then a chomping indicator and an indentation indicator in
	// either order (YAML 1.2 §8.1.1), then an optional comment.
	line := b.line(value.Line - 1)
	i := b.lines[value.Line-1] + runeOffset(line, value.Column-1)
	if i >= len(b.src) || b.src[i] != '|' {
		return 0, 0, 0, false
	}
	i++
	chomp, digit := byte(0), 0
	for n := 0; n < 2 && i < len(b.src); n++ {
		switch c := b.src[i]; {
		case c == '-' || c == '+':
			chomp = c
			i++
		case c >= '1' && c <= '9':
			digit = int(c - '0')
			i++
		}
	}
	if value.Line >= len(b.lines) {
		return 0, 0, 0, false // nothing after the header line
	}
	start = b.lines[value.Line]
	// The indentation of the node the block belongs to: content lines
	// are indented more (YAML 1.2 §8.1.1.1).
	parent := leadingSpaces(line)
	if key != nil {
		parent = key.Column - 1
	}
	indent = -1
	if digit > 0 {
		indent = parent + digit
	}
	// The content: the lines after the header that are empty (only
	// spaces) or indented at least as much as the content (the first
	// non-empty line's indentation when no indicator gives it).
	lastContent, blockEnd := start, start
	for l := value.Line; l < len(b.lines); l++ {
		text := b.line(l)
		sp := leadingSpaces(text)
		if sp == len(bytes.TrimRight(text, "\r")) { // empty line
			blockEnd = b.lineEnd(l)
			continue
		}
		if indent < 0 {
			indent = sp
		}
		if sp < indent || indent <= parent {
			break
		}
		blockEnd = b.lineEnd(l)
		lastContent = blockEnd
	}
	if indent <= parent {
		return 0, 0, 0, false
	}
	end = lastContent
	if chomp == '+' {
		end = blockEnd
	}
	if end <= start || decodeLiteral(b.src[start:end], indent, chomp) != value.Value {
		return 0, 0, 0, false
	}
	// The first content byte: after the first line's indentation (a blank
	// first line's content is its line break).
	return start + min(indent, leadingSpaces(b.src[start:end])), end, indent, true
}

// decodeLiteral is the value of the literal block content lines (each
// carrying at least indent spaces, or empty) chomped as chomp says.
func decodeLiteral(content []byte, indent int, chomp byte) string {
	var sb strings.Builder
	for _, l := range bytes.SplitAfter(content, []byte("\n")) {
		if len(l) == 0 {
			continue
		}
		nl := bytes.HasSuffix(l, []byte("\n"))
		l = bytes.TrimSuffix(bytes.TrimSuffix(l, []byte("\n")), []byte("\r"))
		if len(l) >= indent {
			sb.Write(l[indent:])
		}
		if nl {
			sb.WriteByte('\n')
		}
	}
	s := sb.String()
	switch chomp {
	case '-':
		return strings.TrimRight(s, "\n")
	case '+':
		return s
	}
	if t := strings.TrimRight(s, "\n"); t != s {
		return t + "\n" // clip keeps one line break, if there is one
	}
	return s
}

// line returns line l (0-based) without its newline.
func (b *Blocks) line(l int) []byte {
	end := len(b.src)
	if l+1 < len(b.lines) {
		end = b.lines[l+1] - 1
	}
	return b.src[b.lines[l]:end]
}

// lineEnd is the offset after line l's newline (the end of the file for
// a last line without one).
func (b *Blocks) lineEnd(l int) int {
	if l+1 < len(b.lines) {
		return b.lines[l+1]
	}
	return len(b.src)
}

// Line returns the 1-based line of offset off.
func (b *Blocks) Line(off int) int {
	lo, hi := 0, len(b.lines)
	for lo+1 < hi {
		mid := (lo + hi) / 2
		if b.lines[mid] <= off {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo + 1
}

func leadingSpaces(l []byte) int {
	n := 0
	for n < len(l) && l[n] == ' ' {
		n++
	}
	return n
}

// runeOffset is the byte offset of the n-th character of l.
func runeOffset(l []byte, n int) int {
	off := 0
	for ; n > 0 && off < len(l); n-- {
		_, size := utf8.DecodeRune(l[off:])
		off += size
	}
	return off
}

// Content is the text a Text holds: Src when it is not Exact, else the
// lines of its block without their indentation, with "\n" line breaks as
// YAML reads them (a block that strips its last line break keeps it here).
func (t *Text) Content() []byte {
	if !t.Exact {
		return t.Src
	}
	var out []byte
	from := bytes.LastIndexByte(t.Src[:t.Start], '\n') + 1 // the start of the first line
	for _, l := range bytes.SplitAfter(t.Src[from:], []byte("\n")) {
		l = bytes.TrimPrefix(l, []byte(t.Indent))
		if bytes.HasSuffix(l, []byte("\r\n")) { // YAML reads a CRLF as a line break
			l = append(l[:len(l)-2:len(l)-2], '\n')
		}
		out = append(out, l...)
	}
	return out
}
