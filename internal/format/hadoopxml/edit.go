package hadoopxml

import (
	"bytes"
	"fmt"
	"unicode/utf8"

	"github.com/ckptlint/ckptlint/internal/parsed"
)

// NewEditor returns an editor for the core-site.xml or hdfs-site.xml d, as
// returned by ParseDoc. Keys are Hadoop's effective keys: a deprecated name
// given to Set or Delete means its replacement, and the definitions written
// under the deprecated name are found too. What it writes:
//
//   - Set of a key this file defines changes the winning definition (the
//     one Hadoop's get returns: the last, or the first final one): the
//     content of its <value> (all of it: text, CDATA, comments), or
//     <value/> replaced by <value>…</value>, or a missing <value> added
//     after </name>, or the value attribute of the compact form
//     <property name=".." value=".."/>. It returns no edits when the value
//     as written (before ${var} expansion) is already the one given. Text
//     is escaped: & < > (and a carriage return) in content, plus quotes,
//     tabs and line breaks in attributes.
//   - Set of a key whose winning definition is in an xi:included file is
//     refused with parsed.ErrCannotRepresent naming that file: an override
//     added here would be ignored if the included definition is final,
//     and would hide the shared file's value from its readers; edit the
//     included file instead.
//   - Set of a new key adds a <property> before </configuration>, laid out
//     like the file's last property (one line, one element per line, or the
//     compact attribute form) with its indentation, and a blank line before
//     it when the file separates properties with blank lines. A property of
//     that name without a value (<value></value>, <value/>) is filled in
//     instead, when that makes Hadoop read the value. The new property is
//     named as given (a deprecated name stays deprecated).
//   - Delete removes every <property> of this file that defines the key
//     (with or without a value, under any spelling), whole lines included
//     when the element is alone on them. A key that an
//     included file defines is refused with parsed.ErrCannotRepresent: it
//     would stay set.
//   - Rename rewrites the <name> (or name attribute) of every definition
//     written as key, e.g. a deprecated dfs.block.size to dfs.blocksize.
//     Renaming onto a key that is already set returns parsed.ErrExists; a key
//     also written under another spelling, or set in an included file, is
//     refused with parsed.ErrCannotRepresent.
//   - Everything else (declaration, processing instructions, comments,
//     CDATA, line breaks) is untouched; new lines use the file's line
//     break.
//
// Every operation is checked by parsing the edited bytes without following
// includes and comparing this file's definitions (see package edit). A
// file that did not parse cannot be edited.
//
// A file read in another encoding than UTF-8 (UTF-16, ISO-8859-1, ...)
// keeps it: edits are computed on the decoded text and mapped back to the
// file's bytes, the new text encoded, with characters the encoding cannot
// hold written as character references (&#NNNN;).
func NewEditor(d *Doc) parsed.Editor {
	if d != nil && d.trans != nil {
		return &encodedEditor{inner: &xmlEditor{d: d}, t: d.trans}
	}
	return &xmlEditor{d: d}
}

// encodedEditor maps the edits of a decoded file back to its encoding.
type encodedEditor struct {
	inner *xmlEditor
	t     *transcoded
}

func (e *encodedEditor) back(edits []parsed.Edit, err error) ([]parsed.Edit, error) {
	if err != nil || len(edits) == 0 {
		return edits, err
	}
	return e.t.mapEdits(edits)
}

// mapEdits maps edits of the decoded text to the file's bytes.
func (t *transcoded) mapEdits(edits []parsed.Edit) ([]parsed.Edit, error) {
	out := make([]parsed.Edit, len(edits))
	for i, ed := range edits {
		s, en, text, err := t.origEdit(ed.Start, ed.End, ed.Text)
		if err != nil {
			return nil, fmt.Errorf("%s (file encoded as %s): %w", err.Error(), t.name, parsed.ErrCannotRepresent)
		}
		out[i] = parsed.Edit{Start: s, End: en, Text: text}
	}
	return out, nil
}

func (e *encodedEditor) Set(key, value string) ([]parsed.Edit, error) {
	return e.back(e.inner.Set(key, value))
}
func (e *encodedEditor) Delete(key string) ([]parsed.Edit, error) { return e.back(e.inner.Delete(key)) }
func (e *encodedEditor) Rename(key, newKey string) ([]parsed.Edit, error) {
	return e.back(e.inner.Rename(key, newKey))
}

type xmlEditor struct{ d *Doc }

func (ed *xmlEditor) usable() error {
	switch {
	case ed.d == nil || ed.d.File == nil:
		return fmt.Errorf("edit: no document given: %w", parsed.ErrCannotRepresent)
	case ed.d.Err != nil:
		return fmt.Errorf("edit %s: the file did not parse: %w", ed.d.Path, ed.d.Err)
	}
	return nil
}

// canonical maps a deprecated key to the key Hadoop stores it under.
func canonical(key string) string {
	if nk, ok := Deprecated(key); ok {
		return nk
	}
	return key
}

// writtenKey is the key as the file spells it.
func writtenKey(e *parsed.Entry) string {
	if e.WrittenKey != "" {
		return e.WrittenKey
	}
	return e.Key
}

// writtenValue is the value as the file writes it, before ${var}
// expansion.
func writtenValue(e *parsed.Entry) string {
	if e.Raw != "" {
		return e.Raw
	}
	return e.Value
}

// Set implements parsed.Editor.
func (ed *xmlEditor) Set(key, value string) ([]parsed.Edit, error) {
	if err := ed.usable(); err != nil {
		return nil, err
	}
	d := ed.d
	if err := checkXMLText("key", key, true); err != nil {
		return nil, err
	}
	if err := checkXMLText("value", value, false); err != nil {
		return nil, err
	}
	ck := canonical(key)
	want := ed.view(d.Src)
	want[ck] = xmlValue{Value: value, Kind: parsed.KindString}
	if e := d.Lookup(ck); e != nil {
		if e.File != d.Path {
			return nil, fmt.Errorf("set %q: it is set in %s, which %s includes; edit that file: %w", ck, e.File, d.Path, parsed.ErrCannotRepresent)
		}
		if e.Kind != parsed.KindNull && writtenValue(e) == value {
			return nil, nil
		}
		pr := ed.propertyOf(e)
		if pr == nil {
			return nil, fmt.Errorf("set %q in %s: its <property> was not found: %w", ck, d.Path, parsed.ErrCannotRepresent)
		}
		edits, err := ed.setValue(pr, value)
		if err != nil {
			return nil, fmt.Errorf("set %q in %s: %w", ck, d.Path, err)
		}
		return ed.checked(fmt.Sprintf("set %q", ck), edits, want, ck)
	}
	// A property of that name without a value: fill it in when that works.
	for i := len(d.Properties) - 1; i >= 0; i-- {
		pr := &d.Properties[i]
		if name, ok := ed.nameOf(pr); !ok || pr.Index >= 0 || canonical(name) != ck {
			continue
		}
		if edits, err := ed.setValue(pr, value); err == nil && ed.verify(fmt.Sprintf("set %q", ck), edits, want, ck) == nil {
			return edits, nil
		}
		break
	}
	edits, err := ed.insert(key, value)
	if err != nil {
		return nil, fmt.Errorf("set %q in %s: %w", ck, d.Path, err)
	}
	return ed.checked(fmt.Sprintf("set %q", ck), edits, want, ck)
}

// propertyOf returns the <property> element of this file that defines e.
func (ed *xmlEditor) propertyOf(e *parsed.Entry) *Property {
	for i := range ed.d.Properties {
		if pr := &ed.d.Properties[i]; pr.Index >= 0 && &ed.d.Entries[pr.Index] == e {
			return pr
		}
	}
	return nil
}

// nameOf returns the name a property sets when it is written as plain text
// (no entity or character reference, comment or CDATA).
func (ed *xmlEditor) nameOf(pr *Property) (string, bool) {
	if pr.NameSpan.IsZero() {
		return "", false
	}
	raw := ed.d.Src[pr.NameSpan.Start.Offset:pr.NameSpan.End.Offset]
	if bytes.ContainsAny(raw, "&<") {
		return "", false
	}
	if pr.Compact {
		if bytes.ContainsAny(raw, "\t\n\r") {
			return "", false
		}
		return string(raw), true
	}
	return javaTrim(string(raw)), true
}

// setValue returns the edit that makes the property pr hold value.
func (ed *xmlEditor) setValue(pr *Property, value string) ([]parsed.Edit, error) {
	src := ed.d.Src
	if pr.Compact {
		if !pr.ValueSpan.IsZero() {
			vs := pr.ValueSpan
			return []parsed.Edit{{Start: vs.Start.Offset, End: vs.End.Offset, Text: escapeAttr(value)}}, nil
		}
		if !pr.NameSpan.IsZero() {
			ne := pr.NameSpan.End.Offset
			q := src[ne]
			return []parsed.Edit{{Start: ne + 1, End: ne + 1, Text: " value=" + string(q) + escapeAttr(value) + string(q)}}, nil
		}
		return nil, fmt.Errorf("the property has no name attribute: %w", parsed.ErrCannotRepresent)
	}
	if ve := pr.ValueElem; !ve.IsZero() {
		elem := src[ve.Start.Offset:ve.End.Offset]
		if bytes.HasSuffix(elem, []byte("/>")) {
			name := tagName(elem)
			return []parsed.Edit{{Start: ve.Start.Offset, End: ve.End.Offset, Text: "<" + name + ">" + escapeText(value) + "</" + name + ">"}}, nil
		}
		if !pr.ValueSpan.IsZero() {
			return []parsed.Edit{{Start: pr.ValueSpan.Start.Offset, End: pr.ValueSpan.End.Offset, Text: escapeText(value)}}, nil
		}
	}
	if !pr.NameSpan.IsZero() {
		if gt := bytes.IndexByte(src[pr.NameSpan.End.Offset:], '>'); gt >= 0 {
			at := pr.NameSpan.End.Offset + gt + 1 // after </name>
			return []parsed.Edit{{Start: at, End: at, Text: "<value>" + escapeText(value) + "</value>"}}, nil
		}
	}
	return nil, fmt.Errorf("cannot find where the property's value goes: %w", parsed.ErrCannotRepresent)
}

// tagName returns the qualified name of the tag that starts elem.
func tagName(elem []byte) string {
	i := 1
	for i < len(elem) && !isXMLSpace(elem[i]) && elem[i] != '/' && elem[i] != '>' {
		i++
	}
	return string(elem[1:i])
}

// Delete implements parsed.Editor.
func (ed *xmlEditor) Delete(key string) ([]parsed.Edit, error) {
	if err := ed.usable(); err != nil {
		return nil, err
	}
	d := ed.d
	ck := canonical(key)
	if f := ed.definedElsewhere(func(e *parsed.Entry) bool { return e.Key == ck }); f != "" {
		return nil, fmt.Errorf("delete %q: %s, which %s includes, sets it too and would keep it set: %w", ck, f, d.Path, parsed.ErrCannotRepresent)
	}
	var edits []parsed.Edit
	for i := range d.Properties {
		pr := &d.Properties[i]
		hit := pr.Index >= 0 && d.Entries[pr.Index].Key == ck
		if name, ok := ed.nameOf(pr); pr.Index < 0 && ok && canonical(name) == ck {
			hit = true
		}
		if hit {
			edits = append(edits, parsed.Edit{Start: pr.DeleteSpan.Start.Offset, End: pr.DeleteSpan.End.Offset})
		}
	}
	if len(edits) == 0 {
		return nil, fmt.Errorf("delete %q from %s: %w", ck, d.Path, parsed.ErrNotFound)
	}
	want := ed.view(d.Src)
	delete(want, ck)
	return ed.checked(fmt.Sprintf("delete %q", ck), edits, want, "")
}

// definedElsewhere returns the first included file with an entry that
// matches, or "".
func (ed *xmlEditor) definedElsewhere(match func(e *parsed.Entry) bool) string {
	for i := range ed.d.Entries {
		if e := &ed.d.Entries[i]; e.File != ed.d.Path && match(e) {
			return e.File
		}
	}
	return ""
}

// Rename implements parsed.Editor.
func (ed *xmlEditor) Rename(key, newKey string) ([]parsed.Edit, error) {
	if err := ed.usable(); err != nil {
		return nil, err
	}
	d := ed.d
	ck, cn := canonical(key), canonical(newKey)
	var set bool                      // an entry is written as key
	var included, other, taken string // an included file, another spelling of key, a definition of newKey
	for i := range d.Entries {
		e := &d.Entries[i]
		switch w := writtenKey(e); {
		case w == key && e.File != d.Path:
			included = e.File
		case w == key:
			set = true
		case e.Key == ck && ck != cn:
			other = w
		case e.Key == cn:
			taken = w
		}
	}
	switch {
	case !set && included == "":
		return nil, fmt.Errorf("rename %q in %s: %w", key, d.Path, parsed.ErrNotFound)
	case newKey == key:
		return nil, nil
	case included != "":
		return nil, fmt.Errorf("rename %q: %s, which %s includes, sets it too: %w", key, included, d.Path, parsed.ErrCannotRepresent)
	case other != "":
		return nil, fmt.Errorf("rename %q in %s: the file also sets it as %q; renaming one spelling would split the key: %w", key, d.Path, other, parsed.ErrCannotRepresent)
	case taken != "":
		return nil, fmt.Errorf("rename %q to %q in %s: %q is set: %w", key, newKey, d.Path, taken, parsed.ErrExists)
	}
	if err := checkXMLText("key", newKey, true); err != nil {
		return nil, err
	}
	var edits []parsed.Edit // every property written as key, with or without a value
	for i := range d.Properties {
		pr := &d.Properties[i]
		hit := pr.Index >= 0 && writtenKey(&d.Entries[pr.Index]) == key
		if name, ok := ed.nameOf(pr); pr.Index < 0 && ok && name == key {
			hit = true
		}
		if hit {
			edits = append(edits, parsed.Edit{Start: pr.NameSpan.Start.Offset, End: pr.NameSpan.End.Offset, Text: ed.nameText(pr, newKey)})
		}
	}
	want := ed.view(d.Src)
	if v, ok := want[ck]; ok && ck != cn {
		want[cn] = v
		delete(want, ck)
	}
	return ed.checked(fmt.Sprintf("rename %q", key), edits, want, "")
}

// nameText renders name for the name element or attribute of pr.
func (ed *xmlEditor) nameText(pr *Property, name string) string {
	if pr.Compact {
		return escapeAttr(name)
	}
	return escapeText(name)
}

// xmlValue is what Hadoop reads for a key from this file alone.
type xmlValue struct {
	Value string // as written, before ${var} expansion
	Kind  parsed.Kind
	Final bool
}

// view parses src without following includes and returns the winning
// definition of every key.
func (ed *xmlEditor) view(src []byte) map[string]xmlValue {
	m, _ := viewOf(ed.d.Path, src)
	return m
}

func viewOf(path string, src []byte) (map[string]xmlValue, *parsed.ParseError) {
	f := Parse(path, src, Options{})
	m := make(map[string]xmlValue, len(f.Entries))
	for k, e := range f.Effective() {
		m[k] = xmlValue{Value: writtenValue(e), Kind: e.Kind, Final: e.Final}
	}
	return m, f.Err
}

// checked returns edits when verify accepts them.
func (ed *xmlEditor) checked(op string, edits []parsed.Edit, want map[string]xmlValue, loose string) ([]parsed.Edit, error) {
	if err := ed.verify(op, edits, want, loose); err != nil {
		return nil, err
	}
	return edits, nil
}

// verify applies edits, parses the result and checks that this file's
// definitions are exactly want; for the key loose, the final flag is not
// compared.
func (ed *xmlEditor) verify(op string, edits []parsed.Edit, want map[string]xmlValue, loose string) error {
	path := ed.d.Path
	src := ed.d.Src
	if t := ed.d.trans; t != nil {
		// check what will be written: the file's own bytes and encoding
		var err error
		if edits, err = t.mapEdits(edits); err != nil {
			return fmt.Errorf("%s in %s: %w", op, path, err)
		}
		src = t.orig
	}
	out, err := parsed.Apply(src, edits)
	if err != nil {
		return fmt.Errorf("%s in %s: %w", op, path, err)
	}
	got, perr := viewOf(path, out)
	if perr != nil {
		return fmt.Errorf("%s in %s: the edited file would not parse (%v): %w", op, path, perr, parsed.ErrCannotRepresent)
	}
	if g, ok := got[loose]; ok {
		if w, ok := want[loose]; ok {
			g.Final = w.Final
			got[loose] = g
		}
	}
	show := func(v xmlValue) string { return fmt.Sprintf("%q (final %t)", v.Value, v.Final) }
	if diff := parsed.DiffViews(want, got, show); diff != "" {
		return fmt.Errorf("%s in %s: Hadoop would read the edited file differently: %s: %w", op, path, diff, parsed.ErrCannotRepresent)
	}
	return nil
}

// checkXMLText refuses text XML or Hadoop cannot hold: invalid UTF-8,
// characters outside XML 1.0's Char production, an empty value (Hadoop
// reads <value></value> as no value), a key with leading or trailing
// blanks (Hadoop trims names).
func checkXMLText(what, s string, isName bool) error {
	bad := func(why string) error {
		return fmt.Errorf("%s %q: %s: %w", what, s, why, parsed.ErrCannotRepresent)
	}
	switch {
	case s == "" && isName:
		return bad("Hadoop ignores a property with an empty name")
	case s == "":
		return bad("Hadoop reads an empty <value> as no value; delete the key instead")
	case !utf8.ValidString(s):
		return bad("not valid UTF-8")
	case isName && (s[0] <= ' ' || s[len(s)-1] <= ' '):
		return bad("Hadoop trims property names")
	}
	for _, r := range s {
		if !(r == 0x9 || r == 0xA || r == 0xD || r >= 0x20 && r <= 0xD7FF || r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF) {
			return bad(fmt.Sprintf("character U+%04X is not allowed in XML", r))
		}
	}
	return nil
}
