package hadoopxml

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/ckptlint/ckptlint/internal/parsed"
)

// propLayout is how the file writes a <property>, copied from its last one.
type propLayout struct {
	compact   bool   // <property name=".." value=".."/>
	oneLine   bool   // <property><name>..</name><value>..</value></property>
	separated bool   // a blank line between properties
	indent    string // before <property>
	child     string // before <name> and <value> (multi-line layout)
	closing   string // before </property> (multi-line layout)
}

// layout reads the property layout of the file from its last <property>
// element. A file without properties gets the Hadoop default: two-space
// indentation, one element per line.
func (ed *xmlEditor) layout() propLayout {
	d := ed.d
	src := d.Src
	l := propLayout{indent: d.Indent, child: d.Indent + d.Indent, closing: d.Indent}
	if len(d.Properties) == 0 {
		return l
	}
	// lead returns the white space before off when nothing else precedes
	// it on its line.
	lead := func(off int) (string, bool) {
		ls, _, _ := parsed.LineBounds(src, off)
		if !isBlank(src[ls:off]) {
			return "", false
		}
		return string(src[ls:off]), true
	}
	p := d.Properties[len(d.Properties)-1]
	start, end := p.Span.Start.Offset, p.Span.End.Offset
	if s, ok := lead(start); ok {
		l.indent = s
	}
	l.compact = p.Compact
	l.oneLine = p.Span.Start.Line == p.Span.End.Line
	l.child, l.closing = l.indent+"  ", l.indent
	if !p.NameSpan.IsZero() && !p.Compact {
		if lt := bytes.LastIndexByte(src[start:p.NameSpan.Start.Offset], '<'); lt >= 0 {
			if s, ok := lead(start + lt); ok {
				l.child = s
			}
		}
	}
	if lt := bytes.LastIndexByte(src[start:end], '<'); lt > 0 {
		if s, ok := lead(start + lt); ok {
			l.closing = s
		}
	}
	if len(d.Properties) >= 2 {
		between := strings.Split(string(src[d.Properties[len(d.Properties)-2].Span.End.Offset:start]), "\n")
		for i := 1; i < len(between)-1; i++ {
			l.separated = l.separated || strings.Trim(between[i], " \t\r") == ""
		}
	}
	return l
}

// insert returns the edit that adds a property for key before
// </configuration>.
func (ed *xmlEditor) insert(key, value string) ([]parsed.Edit, error) {
	d := ed.d
	src, nl := d.Src, d.Newline
	l := ed.layout()
	name, val := escapeText(key), escapeText(value)
	var lines []string
	switch {
	case l.compact:
		lines = []string{l.indent + `<property name="` + escapeAttr(key) + `" value="` + escapeAttr(value) + `"/>`}
	case l.oneLine:
		lines = []string{l.indent + "<property><name>" + name + "</name><value>" + val + "</value></property>"}
	default:
		lines = []string{
			l.indent + "<property>",
			l.child + "<name>" + name + "</name>",
			l.child + "<value>" + val + "</value>",
			l.closing + "</property>",
		}
	}
	block := strings.Join(lines, nl)
	off := d.InsertOffset
	if off < 0 { // <configuration/>: open it
		root := src[d.Root.Start.Offset:d.Root.End.Offset]
		if d.Root.IsZero() || !bytes.HasSuffix(root, []byte("/>")) {
			return nil, fmt.Errorf("cannot find where a property goes (no </configuration>): %w", parsed.ErrCannotRepresent)
		}
		e := d.Root.End.Offset
		return []parsed.Edit{{Start: e - 2, End: e, Text: ">" + nl + block + nl + "</" + tagName(root) + ">"}}, nil
	}
	text := block + nl
	switch ls, _, _ := parsed.LineBounds(src, off); {
	case ls != off: // </configuration> follows other text on its line
		text = nl + text
	case l.separated && ls > 0 && isBlankLine(src, ls-1):
		text += nl
	case l.separated:
		text = nl + text
	}
	return []parsed.Edit{{Start: off, End: off, Text: text}}, nil
}

// isBlankLine reports whether the line holding off has only white space.
func isBlankLine(src []byte, off int) bool {
	ls, le, _ := parsed.LineBounds(src, off)
	return isBlank(src[ls:le])
}

// escapeText escapes s for element content: & < > and a carriage return,
// which XML would otherwise turn into a line feed.
func escapeText(s string) string {
	return textEscaper.Replace(s)
}

var textEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "\r", "&#13;")

// escapeAttr escapes s for an attribute value: also both quotes (so either
// may delimit it), and tabs and line breaks, which attribute-value
// normalisation would turn into spaces.
func escapeAttr(s string) string { return attrEscaper.Replace(s) }

var attrEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&apos;",
	"\t", "&#9;", "\n", "&#10;", "\r", "&#13;")
