package hadoopxml

import (
	"github.com/ckptlint/ckptlint/internal/parsed"
)

// Doc is a parsed Hadoop XML file together with the layout a
// format-preserving editor needs. All spans refer to File.Src.
type Doc struct {
	*parsed.File
	// Properties lists every <property> element written in this file (not
	// those of included files) in document order; after a parse error, the
	// ones closed before it.
	Properties []Property
	// Root spans the root element, from the '<' of <configuration> to the
	// end of </configuration> (or of the self-closing tag).
	Root parsed.Span
	// CloseTag spans </configuration>; zero when the root is self-closing
	// or the file did not parse.
	CloseTag parsed.Span
	// InsertOffset is where a new property line goes: the first byte of the
	// line holding </configuration> when only white space precedes it on
	// that line, else the offset of </configuration> itself. -1 when there
	// is no </configuration> (self-closing root, or a parse error).
	InsertOffset int
	// Indent is the indentation most <property> lines of this file use, or
	// two spaces when no property starts its own line.
	Indent string
	// Newline is "\r\n" when the file's first line ends with CRLF, else "\n".
	Newline string
	// trans is set when the file is not UTF-8: File.Src then holds the
	// decoded text, and the editor maps its edits back (encoding.go).
	trans *transcoded
}

// Encoding names the encoding the file was decoded from ("" for UTF-8).
func (d *Doc) Encoding() string {
	if d.trans == nil {
		return ""
	}
	return d.trans.name
}

// Property is one <property> element of the parsed file.
type Property struct {
	// Index is the index in File.Entries of the entry this element defines,
	// or -1 when Hadoop takes nothing from it (no name, no value, or inside
	// an <xi:fallback> that was not used).
	Index int
	// Span covers the element from '<' to the end of </property> or "/>".
	Span parsed.Span
	// DeleteSpan is Span widened to whole lines (leading indentation and
	// the line break) when the element is alone on its lines; deleting it
	// leaves no blank line behind.
	DeleteSpan parsed.Span
	// NameSpan is the content of the <name> element that set the key (the
	// last non-empty one), or the value of the name attribute; zero if none.
	NameSpan parsed.Span
	// ValueSpan is the content of the <value> element that set the value
	// (CDATA markers included: an editor replaces the whole content), or the
	// value of the value attribute. For an empty <value></value> it is
	// zero-length at the content position, for <value/> zero-length before
	// the "/>". Zero when the property has no value element or attribute.
	ValueSpan parsed.Span
	// ValueElem spans the whole <value> element, so that an editor can
	// replace a self-closing <value/>; zero in the attribute form.
	ValueElem parsed.Span
	// FinalSpan is the content of <final> or the final attribute value.
	FinalSpan parsed.Span
	// Compact reports the attribute form <property name=".." value=".."/>.
	Compact bool
}
