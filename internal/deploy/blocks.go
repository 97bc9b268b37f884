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
// container. A line ends at "\n", "\r\n" or a lone "\r", as YAML's (and
// internal/parsed's) lines do, so that line n.Line of a node n is its line.
func NewBlocks(container string, src []byte) *Blocks {
	lines := []int{0}
	for i := 0; i < len(src); i++ {
		if n := lineBreak(src[i:]); n > 0 {
			i += n - 1
			lines = append(lines, i+1)
		}
	}
	return &Blocks{src: src, container: container, lines: lines}
}

// lineBreak is the length of the line break b starts with ("\r\n", "\n"
// or a lone "\r"), 0 when it starts with none.
func lineBreak(b []byte) int {
	switch {
	case len(b) == 0:
		return 0
	case b[0] == '\n':
		return 1
	case b[0] == '\r' && len(b) > 1 && b[1] == '\n':
		return 2
	case b[0] == '\r':
		return 1
	}
	return 0
}

// Span is where the content of a literal block scalar lies in its file:
// Start is the offset of its first content byte, End the end of its last
// content line (after its line break), Indent the indentation every
// content line carries (see Blocks.Text).
type Span struct {
	Start, End int
	Indent     string
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
	if s, ok := b.Literal(key, value); ok {
		b.Exact(t, s)
	}
	return t
}

// Exact makes t, a Text of the file whose Src is its decoded content, the
// Exact Text of the content at s (as Blocks.Text describes it), unless the
// file's Exact Texts would then hold more than MaxExactBytes: then t stays
// as it is and Note says so. It reports whether t is Exact.
func (b *Blocks) Exact(t *Text, s Span) bool {
	if b.exact+s.End > MaxExactBytes {
		if b.Note == "" {
			b.Note = fmt.Sprintf("%s:%d: this block and the later ones are read without their positions: the file's blocks hold more than %d bytes together", b.container, t.Loc.Line, MaxExactBytes)
		}
		return false
	}
	b.exact += s.End
	src := make([]byte, s.End)
	for i := range s.Start {
		if c := b.src[i]; c == '\n' || c == '\r' {
			src[i] = c
		} else {
			src[i] = ' '
		}
	}
	copy(src[s.Start:], b.src[s.Start:s.End])
	t.Src, t.Exact, t.Start, t.End, t.Indent = src, true, s.Start, s.End, s.Indent
	return true
}

// Literal locates the content of value, a literal block scalar of the
// file written directly (key is the node of its key, nil for a sequence
// item), and checks it against the value the YAML parser decoded: false
// for any other node, and for a block whose lines, their indentation taken
// off and chomped as the header says, do not give back value.Value byte
// for byte (tabs where YAML expects spaces, an escape YAML decoded).
func (b *Blocks) Literal(key, value *yaml.Node) (Span, bool) {
	if value == nil || value.Kind != yaml.ScalarNode || value.Style&yaml.LiteralStyle == 0 {
		return Span{}, false
	}
	start, end, indent, ok := b.literal(key, value)
	if !ok {
		return Span{}, false
	}
	return Span{Start: start, End: end, Indent: strings.Repeat(" ", indent)}, true
}

// literal locates the content of literal block scalar value and checks it
// against the decoded value.
func (b *Blocks) literal(key, value *yaml.Node) (start, end, indent int, ok bool) {
	if value.Line < 1 || value.Line > len(b.lines) {
		return 0, 0, 0, false
	}
	line := b.line(value.Line - 1)
	at, chomp, digit, ok := b.header(value, line)
	if !ok {
		return 0, 0, 0, false
	}
	if value.Line >= len(b.lines) {
		return 0, 0, 0, false // nothing after the header line
	}
	start = b.lines[value.Line]
	// The indentation of the node the block belongs to: content lines
	// are indented more (YAML 1.2 §8.1.1.1). It is its key's column, the
	// column of the "-" of a sequence item written on the header line, or
	// -1 (a document's top node, or a header alone on its line: content
	// indented less than YAML reads it does not give back the value).
	parent := -1
	if key != nil {
		parent = key.Column - 1
	} else if d := len(bytes.TrimRight(line[:at], " \t")) - 1; d >= 0 && line[d] == '-' {
		parent = d
	}
	indent = -1
	if digit > 0 {
		indent = max(parent, 0) + digit // as libyaml's yaml_parser_scan_block_scalar
	}
	// The content: the lines after the header that are empty (only
	// spaces) or indented at least as much as the content (the first
	// non-empty line's indentation when no indicator gives it).
	lastContent, blockEnd := start, start
	for l := value.Line; l < len(b.lines); l++ {
		text := b.line(l)
		sp := leadingSpaces(text)
		if sp == len(text) && (indent < 0 || sp <= indent) { // empty line (more spaces are content)
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

// header reads the header of literal block scalar value on its line:
// the node's properties (a tag, an anchor: value.Column is where they
// start; yaml.v3 counts characters, not bytes), "|", then a chomping
// indicator and an indentation indicator in either order (YAML 1.2
// §8.1.1), then an optional comment. at is the offset of value in line.
func (b *Blocks) header(value *yaml.Node, line []byte) (at int, chomp byte, digit int, ok bool) {
	at = runeOffset(line, value.Column-1)
	i := at
	for i < len(line) && (line[i] == '!' || line[i] == '&') {
		for i < len(line) && line[i] != ' ' && line[i] != '\t' {
			i++
		}
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
	}
	if i >= len(line) || line[i] != '|' {
		return 0, 0, 0, false
	}
	i++
	for n := 0; n < 2 && i < len(line); n++ {
		switch c := line[i]; {
		case c == '-' || c == '+':
			chomp = c
			i++
		case c >= '1' && c <= '9':
			digit = int(c - '0')
			i++
		}
	}
	return at, chomp, digit, true
}

// decodeLiteral is the value of the literal block content lines (each
// carrying at least indent spaces, or empty) chomped as chomp says.
func decodeLiteral(content []byte, indent int, chomp byte) string {
	var sb strings.Builder
	for len(content) > 0 {
		l, nl, rest := cutLine(content)
		if len(l) >= indent {
			sb.Write(l[indent:])
		}
		if nl {
			sb.WriteByte('\n') // YAML reads every line break as "\n"
		}
		content = rest
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

// cutLine splits b at the end of its first line: the line without its
// line break, whether it has one, and what follows.
func cutLine(b []byte) (line []byte, brk bool, rest []byte) {
	for i := range b {
		if n := lineBreak(b[i:]); n > 0 {
			return b[:i], true, b[i+n:]
		}
	}
	return b, false, nil
}

// line returns line l (0-based) without its line break.
func (b *Blocks) line(l int) []byte {
	l0, _, _ := cutLine(b.src[b.lines[l]:])
	return l0
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
	from := bytes.LastIndexAny(t.Src[:t.Start], "\r\n") + 1 // the start of the first line
	for rest := t.Src[from:]; len(rest) > 0; {
		l, nl, r := cutLine(rest)
		out = append(out, l[min(len(t.Indent), leadingSpaces(l)):]...) // an empty line may carry fewer spaces
		if nl {                                                        // YAML reads a CRLF or a lone CR as "\n"
			out = append(out, '\n')
		}
		rest = r
	}
	return out
}
