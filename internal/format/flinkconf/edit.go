package flinkconf

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/ckptlint/ckptlint/internal/parsed"
)

// NewEditor returns an editor for the legacy flink-conf.yaml f, as returned
// by Parse (f.Src holds its bytes). It writes what Flink's line parser
// reads back unchanged:
//
//   - Values and keys are written raw (the legacy parser keeps quotes), so
//     Set refuses, with parsed.ErrCannotRepresent, a value or key the parser
//     cannot return: empty, with '#' (it cuts the line), a line break, a NUL
//     byte, invalid UTF-8, or leading or trailing blanks (it trims); and a
//     key that contains ": " or ends with ':'.
//   - Set changes the value bytes of the winning (last) definition only;
//     earlier duplicates stay as they are (Flink ignores them; the
//     duplicate-key notice still reports them).
//   - Set of an absent key adds a "key: value" line after the last
//     definition whose key shares the most leading dotted segments with it
//     (at least two, e.g. "execution.checkpointing."), else at the end of
//     the file, with the file's line break; a file without a final line
//     break keeps that.
//   - Delete removes the whole line of every definition of the key (an
//     earlier duplicate would otherwise take effect), comments on the line
//     included; comment lines above it stay.
//   - Rename rewrites the key of every definition. When newKey is already
//     set it returns parsed.ErrExists and no edits: renaming would silently
//     change which value wins; the caller decides which one to delete.
//
// Every operation is checked by parsing the edited bytes (see package
// edit). A file that did not parse cannot be edited.
func NewEditor(f *parsed.File) parsed.Editor {
	if f == nil {
		f = &parsed.File{Err: &parsed.ParseError{Msg: "no file given"}}
	}
	return &editor{f: f}
}

type editor struct{ f *parsed.File }

// usable refuses a file the parser could not read.
func (ed *editor) usable() error {
	if ed.f.Err != nil {
		return fmt.Errorf("edit %s: the file did not parse: %w", ed.f.Path, ed.f.Err)
	}
	return nil
}

// Set implements parsed.Editor.
func (ed *editor) Set(key, value string) ([]parsed.Edit, error) {
	if err := ed.usable(); err != nil {
		return nil, err
	}
	if err := checkText("key", key); err != nil {
		return nil, err
	}
	if err := checkText("value", value); err != nil {
		return nil, err
	}
	src := ed.f.Src
	var edits []parsed.Edit
	if e := ed.f.Lookup(key); e != nil {
		if e.Value == value {
			return nil, nil
		}
		edits = []parsed.Edit{{Start: e.ValueSpan.Start.Offset, End: e.ValueSpan.End.Offset, Text: value}}
	} else {
		line := key + ": " + value
		nl := parsed.LineBreak(src)
		if anchor := ed.related(key); anchor != nil {
			edits = []parsed.Edit{parsed.InsertAfterLine(src, anchor.ValueSpan.End.Offset, []string{line}, nl)}
		} else {
			edits = []parsed.Edit{parsed.AppendLines(src, []string{line}, nl)}
		}
	}
	want := ed.effective()
	want[key] = value
	return ed.checked(fmt.Sprintf("set %q", key), edits, want)
}

// related returns the last entry whose key shares the most leading dotted
// segments with key, at least two; nil when none does.
func (ed *editor) related(key string) *parsed.Entry {
	var best *parsed.Entry
	bestN := 1
	for i := range ed.f.Entries {
		e := &ed.f.Entries[i]
		if n := parsed.SharedSegments(key, e.Key); n >= bestN && n >= 2 {
			best, bestN = e, n
		}
	}
	return best
}

// Delete implements parsed.Editor.
func (ed *editor) Delete(key string) ([]parsed.Edit, error) {
	if err := ed.usable(); err != nil {
		return nil, err
	}
	src := ed.f.Src
	var edits []parsed.Edit
	start, end := -1, -1 // the current run of adjacent lines
	flush := func() {
		if start >= 0 {
			edits = append(edits, parsed.DeleteLines(src, start, end))
		}
	}
	for _, e := range ed.f.Entries {
		if e.Key != key {
			continue
		}
		// A byte order mark goes with the first line: Flink reads it as
		// part of that line's key.
		ls, _, next := parsed.LineBounds(src, e.KeySpan.Start.Offset)
		if ls != end {
			flush()
			start = ls
		}
		end = next
	}
	if start < 0 {
		return nil, fmt.Errorf("delete %q from %s: %w", key, ed.f.Path, parsed.ErrNotFound)
	}
	flush()
	want := ed.effective()
	delete(want, key)
	return ed.checked(fmt.Sprintf("delete %q", key), edits, want)
}

// Rename implements parsed.Editor.
func (ed *editor) Rename(key, newKey string) ([]parsed.Edit, error) {
	if err := ed.usable(); err != nil {
		return nil, err
	}
	old := ed.f.Lookup(key)
	switch {
	case old == nil:
		return nil, fmt.Errorf("rename %q in %s: %w", key, ed.f.Path, parsed.ErrNotFound)
	case newKey == key:
		return nil, nil
	}
	if err := checkText("key", newKey); err != nil {
		return nil, err
	}
	if ed.f.Lookup(newKey) != nil {
		return nil, fmt.Errorf("rename %q to %q in %s: %w", key, newKey, ed.f.Path, parsed.ErrExists)
	}
	var edits []parsed.Edit
	for _, e := range ed.f.Entries {
		if e.Key == key {
			edits = append(edits, parsed.Edit{Start: e.KeySpan.Start.Offset, End: e.KeySpan.End.Offset, Text: newKey})
		}
	}
	want := ed.effective()
	want[newKey] = want[key]
	delete(want, key)
	return ed.checked(fmt.Sprintf("rename %q", key), edits, want)
}

// checkText refuses a key or value Flink's legacy parser cannot read back
// as written.
func checkText(what, s string) error {
	bad := func(why string) error {
		return fmt.Errorf("%s %q: %s: %w", what, s, why, parsed.ErrCannotRepresent)
	}
	switch {
	case s == "":
		return bad("Flink's legacy parser skips an empty " + what)
	case strings.Contains(s, "#"):
		return bad("Flink's legacy parser cuts every line at its first \"#\"")
	case strings.ContainsAny(s, "\n\r"):
		return bad("a line break ends the line")
	case strings.ContainsRune(s, 0):
		return bad("a NUL byte makes the file binary")
	case !utf8.ValidString(s):
		return bad("not valid UTF-8")
	case s[0] <= ' ' || s[len(s)-1] <= ' ':
		return bad("Flink trims leading and trailing blanks")
	case what == "key" && (strings.Contains(s, ": ") || strings.HasSuffix(s, ":")):
		return bad("Flink splits the line at the first \": \"")
	}
	return nil
}

// effective returns the key/value pairs Flink reads from the file.
func (ed *editor) effective() map[string]string {
	return effectiveOf(ed.f)
}

func effectiveOf(f *parsed.File) map[string]string {
	m := make(map[string]string, len(f.Entries))
	for k, e := range f.Effective() {
		m[k] = e.Value
	}
	return m
}

// checked returns edits when verify accepts them.
func (ed *editor) checked(op string, edits []parsed.Edit, want map[string]string) ([]parsed.Edit, error) {
	if err := ed.verify(op, edits, want); err != nil {
		return nil, err
	}
	return edits, nil
}

// verify applies edits, parses the result and checks that Flink reads
// exactly want from it.
func (ed *editor) verify(op string, edits []parsed.Edit, want map[string]string) error {
	out, err := parsed.Apply(ed.f.Src, edits)
	if err != nil {
		return fmt.Errorf("%s in %s: %w", op, ed.f.Path, err)
	}
	g := Parse(ed.f.Path, out)
	if g.Err != nil {
		return fmt.Errorf("%s in %s: the edited file would not parse (%v): %w", op, ed.f.Path, g.Err, parsed.ErrCannotRepresent)
	}
	if diff := parsed.DiffViews(want, effectiveOf(g), strconv.Quote); diff != "" {
		return fmt.Errorf("%s in %s: Flink would read the edited file differently: %s: %w", op, ed.f.Path, diff, parsed.ErrCannotRepresent)
	}
	return nil
}
