package flinkyaml

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/ckptlint/ckptlint/internal/parsed"
)

// NewConfigEditor returns an editor for the config.yaml f, as returned by
// ParseConfig (f.Src holds its bytes). NewDeploymentEditor is the same for
// the spec.flinkConfiguration of one FlinkDeployment. Keys are Flink's
// flattened keys. What the editors write:
//
//   - Values are YAML scalars that Flink's loader (YAML 1.2 core schema)
//     reads back as the value given, and that YAML 1.1 tools such as
//     kubectl read the same way. A canonical decimal integer, or true or
//     false, is written plain (an int or a bool) when the key is new, null,
//     or already holds that type; anything else is a string: plain when
//     safe, else single-quoted (a quote doubled), else double-quoted with
//     escapes for control characters and line breaks; a quoted value keeps
//     its quote style when it can. Strings that look
//     like another type (1, 010, true, yes, null, ~, 1:20, 2024-01-01, ...)
//     or start with an indicator (- * & ! ...) are quoted.
//   - Set of an existing key replaces the winning (last) value token, quotes,
//     brackets and alias included; it returns no edits when Flink already
//     reads the value as that text. A value that spans lines (block
//     scalars, multi-line flow collections, folded plain scalars), a block
//     sequence, or a value with a tag or anchor is refused with
//     parsed.ErrCannotRepresent.
//   - Set of a new key goes into the deepest existing block mapping whose
//     flattened prefix starts the key, as one flat key for the rest
//     (checkpointing: gets "min-pause: 30 s"; execution: without
//     checkpointing: gets "checkpointing.min-pause: 30 s"), indented like
//     that mapping's keys, after the pair that shares most leading dotted
//     segments with it (at least two) or else after the mapping's last
//     pair. In a flat file that is the top-level mapping, so the new line
//     lands next to related keys. An empty config.yaml gets the key at the
//     end.
//   - Delete removes the lines of every pair that sets the key, from the key
//     to the end of the value, comments on those lines included (comment
//     lines above stay). A nested mapping left empty is removed with its
//     key as well, up to the configuration's top level: left in place it
//     would be a null value, which Flink refuses to load.
//   - Rename rewrites the key token of each definition when the new key
//     keeps its parent mapping's prefix; otherwise the definition moves:
//     its lines are deleted and the new key is added as Set does, with the
//     old value token copied verbatim (a multi-line value cannot move).
//     Renaming onto a key that is already set returns parsed.ErrExists.
//   - Line breaks (CRLF) and a byte order mark are kept; new lines use the
//     file's first line break.
//
// Every operation is checked by parsing the edited bytes (see package
// edit). A file that did not parse cannot be edited.
func NewConfigEditor(f *parsed.File) parsed.Editor {
	if f == nil {
		return &yamlEditor{err: fmt.Errorf("edit: no file given: %w", parsed.ErrCannotRepresent)}
	}
	if f.Encoding != "" {
		return &yamlEditor{err: fmt.Errorf("edit %s: the file is %s; ckptlint writes config.yaml in UTF-8 only: save it as UTF-8: %w", f.Path, f.Encoding, parsed.ErrCannotRepresent)}
	}
	ed := &yamlEditor{path: f.Path, src: f.Src, cfg: f}
	ed.reparse = func(src []byte) (*parsed.File, error) {
		g := ParseConfig(f.Path, src)
		if g.Err != nil {
			return nil, g.Err
		}
		return g, nil
	}
	ed.buildTree = configTree
	ed.init()
	return ed
}

// NewDeploymentEditor returns an editor for the spec.flinkConfiguration of
// the FlinkDeployment d, read by ParseManifests from src. Its edits stay
// inside that document's spec: a missing flinkConfiguration is added under
// spec, indented like spec's other keys, after flinkVersion (or after
// spec's last key); a null or empty one ("flinkConfiguration:", "~", "{}")
// gets its first key on the next line, one indentation step deeper. Every
// value it writes is a YAML string, numbers and booleans included ('3',
// 'true'): the operator's CRD declares flinkConfiguration a map of strings
// (renderValue). Otherwise it behaves as NewConfigEditor describes.
func NewDeploymentEditor(d *Deployment, src []byte) parsed.Editor {
	if d == nil || d.Config == nil {
		return &yamlEditor{err: fmt.Errorf("edit: no FlinkDeployment given: %w", parsed.ErrCannotRepresent)}
	}
	path, doc := d.Config.Path, d.Doc
	ed := &yamlEditor{path: path, src: src, cfg: d.Config, deployment: true}
	ed.reparse = func(src []byte) (*parsed.File, error) {
		deps, _, perr := ParseManifests(path, src)
		if perr != nil {
			return nil, perr
		}
		for i := range deps {
			if deps[i].Doc == doc {
				if deps[i].Config.Err != nil {
					return nil, deps[i].Config.Err
				}
				return deps[i].Config, nil
			}
		}
		return nil, fmt.Errorf("document %d is no longer a FlinkDeployment", doc)
	}
	ed.buildTree = func(src []byte) (*ytree, error) { return deploymentTree(src, doc) }
	ed.init()
	return ed
}

// yamlEditor implements parsed.Editor for config.yaml and FlinkDeployment
// configurations.
type yamlEditor struct {
	path       string
	src        []byte
	cfg        *parsed.File
	deployment bool
	tree       *ytree
	err        error // why the file cannot be edited
	// reparse reads the configuration from edited bytes; buildTree reads
	// its mapping structure.
	reparse   func(src []byte) (*parsed.File, error)
	buildTree func(src []byte) (*ytree, error)
}

func (ed *yamlEditor) init() {
	if ed.cfg.Err != nil {
		ed.err = fmt.Errorf("edit %s: the configuration did not parse: %w", ed.path, ed.cfg.Err)
		return
	}
	t, err := ed.buildTree(ed.src)
	if err != nil {
		ed.err = fmt.Errorf("edit %s: %w", ed.path, err)
		return
	}
	ed.tree = t
}

// typed is a value as Flink holds it.
type typed struct {
	Value string
	Kind  parsed.Kind
}

// Set implements parsed.Editor.
func (ed *yamlEditor) Set(key, value string) ([]parsed.Edit, error) {
	if ed.err != nil {
		return nil, ed.err
	}
	fail := func(format string, args ...any) ([]parsed.Edit, error) {
		return nil, fmt.Errorf("set %q in %s: %s: %w", key, ed.path, fmt.Sprintf(format, args...), parsed.ErrCannotRepresent)
	}
	if key == "" {
		return fail("empty key")
	}
	var edits []parsed.Edit
	var kind parsed.Kind
	if e := ed.cfg.Lookup(key); e != nil {
		if e.Kind != parsed.KindNull && e.Value == value {
			return nil, nil
		}
		p := ed.tree.pairs[e.KeySpan.Start.Offset]
		switch {
		case p == nil || p.full != key:
			return fail("the key token was not found")
		case p.val.Kind == yaml.SequenceNode && p.val.Style&yaml.FlowStyle == 0:
			return fail("the value is a block sequence")
		case p.val.Kind != yaml.AliasNode && ed.tree.hasProps(p.vr):
			return fail("the value carries a YAML tag or anchor")
		case !ed.tree.singleLine(p.vr):
			return fail("the value spans several lines")
		}
		var quote byte
		if p.vr.end > p.vr.start && (ed.src[p.vr.start] == '"' || ed.src[p.vr.start] == '\'') {
			quote = ed.src[p.vr.start]
		}
		tok, k, err := renderValue(value, e, quote, p.owner.flow, ed.deployment)
		if err != nil {
			return nil, fmt.Errorf("set %q in %s: %w", key, ed.path, err)
		}
		kind = k
		if p.vr.start == p.vr.end { // "key:" with no value token
			edits = []parsed.Edit{{Start: p.vr.start, End: p.vr.start, Text: " " + tok}}
		} else {
			edits = []parsed.Edit{{Start: p.vr.start, End: p.vr.end, Text: tok}}
		}
	} else {
		tok, k, err := renderValue(value, nil, 0, false, ed.deployment)
		if err != nil {
			return nil, fmt.Errorf("set %q in %s: %w", key, ed.path, err)
		}
		kind = k
		if edits, err = ed.insert(ed.tree, key, tok); err != nil {
			return nil, fmt.Errorf("set %q in %s: %w", key, ed.path, err)
		}
	}
	want := ed.effective()
	want[key] = typed{value, kind}
	return ed.checked(fmt.Sprintf("set %q", key), edits, want)
}

// insert returns the edits that add key with the value token tok to the
// configuration t describes.
func (ed *yamlEditor) insert(t *ytree, key, tok string) ([]parsed.Edit, error) {
	nl := parsed.LineBreak(t.src)
	if t.root == nil || t.root.flow && len(t.root.pairs) == 0 {
		if ed.deployment {
			return t.newConfiguration(key, tok, nl)
		}
		if t.root != nil || t.scalarRoot {
			return nil, fmt.Errorf("the top level is an empty flow mapping ({}) or a null: %w", parsed.ErrCannotRepresent)
		}
		k, err := renderKey(key, false)
		if err != nil {
			return nil, err
		}
		return []parsed.Edit{parsed.AppendLines(t.src, []string{k + ": " + tok}, nl)}, nil
	}
	m, suffix, anchor := t.place(key)
	if m == nil {
		return nil, fmt.Errorf("no block mapping can take the key (flow style, or a mapping of that name): %w", parsed.ErrCannotRepresent)
	}
	k, err := renderKey(suffix, false)
	if err != nil {
		return nil, err
	}
	line := strings.Repeat(" ", m.col) + k + ": " + tok
	return []parsed.Edit{parsed.InsertAfterLine(t.src, t.insertAfter(anchor, m.col), []string{line}, nl)}, nil
}

// newConfiguration returns the edits that give a FlinkDeployment without
// configuration keys its first key.
func (t *ytree) newConfiguration(key, tok, nl string) ([]parsed.Edit, error) {
	if t.spec == nil || t.spec.flow || len(t.spec.pairs) == 0 {
		return nil, fmt.Errorf("the FlinkDeployment has no block spec mapping to add flinkConfiguration to: %w", parsed.ErrCannotRepresent)
	}
	k, err := renderKey(key, false)
	if err != nil {
		return nil, err
	}
	step := t.spec.col - t.docCol
	if step <= 0 {
		step = 2
	}
	if t.cfgKey == nil {
		anchor := t.spec.pairs[len(t.spec.pairs)-1]
		for _, p := range t.spec.pairs {
			if p.written == "flinkVersion" {
				anchor = p
			}
		}
		lines := []string{
			strings.Repeat(" ", t.spec.col) + "flinkConfiguration:",
			strings.Repeat(" ", t.spec.col+step) + k + ": " + tok,
		}
		return []parsed.Edit{parsed.InsertAfterLine(t.src, t.insertAfter(anchor, t.spec.col), lines, nl)}, nil
	}
	if t.cfgVal.Kind == yaml.AliasNode {
		return nil, fmt.Errorf("flinkConfiguration is an alias: %w", parsed.ErrCannotRepresent)
	}
	kr := t.loc.nodeRange(t.cfgKey, t.spec.col)
	vr := t.loc.nodeRange(t.cfgVal, t.cfgKey.Column-1)
	line := strings.Repeat(" ", t.cfgKey.Column-1+step) + k + ": " + tok
	if vr.start == vr.end { // "flinkConfiguration:" and nothing else
		return []parsed.Edit{parsed.InsertAfterLine(t.src, kr.end, []string{line}, nl)}, nil
	}
	// "flinkConfiguration: ~" or "{}": drop the token, then add the line.
	colon := kr.end
	for colon < vr.start && t.src[colon] != ':' {
		colon++
	}
	if colon >= vr.start || !t.singleLine(tokenRange{start: kr.start, end: vr.end}) {
		return nil, fmt.Errorf("cannot find the value of flinkConfiguration on its line: %w", parsed.ErrCannotRepresent)
	}
	return []parsed.Edit{
		{Start: colon + 1, End: vr.end},
		parsed.InsertAfterLine(t.src, vr.end, []string{line}, nl),
	}, nil
}

// occurrences returns the pairs that define key, in file order.
func (ed *yamlEditor) occurrences(key string) ([]*ypair, error) {
	var out []*ypair
	for _, e := range ed.cfg.Entries {
		if e.Key != key {
			continue
		}
		p := ed.tree.pairs[e.KeySpan.Start.Offset]
		if p == nil || p.full != key {
			return nil, fmt.Errorf("the key token of %q was not found: %w", key, parsed.ErrCannotRepresent)
		}
		out = append(out, p)
	}
	return out, nil
}

// Delete implements parsed.Editor.
func (ed *yamlEditor) Delete(key string) ([]parsed.Edit, error) {
	if ed.err != nil {
		return nil, ed.err
	}
	pairs, err := ed.occurrences(key)
	if err != nil {
		return nil, fmt.Errorf("delete %q in %s: %w", key, ed.path, err)
	}
	if len(pairs) == 0 {
		return nil, fmt.Errorf("delete %q from %s: %w", key, ed.path, parsed.ErrNotFound)
	}
	edits, err := ed.tree.deletion(pairs)
	if err != nil {
		return nil, fmt.Errorf("delete %q in %s: %w", key, ed.path, err)
	}
	want := ed.effective()
	delete(want, key)
	return ed.checked(fmt.Sprintf("delete %q", key), edits, want)
}

// Rename implements parsed.Editor.
func (ed *yamlEditor) Rename(key, newKey string) ([]parsed.Edit, error) {
	if ed.err != nil {
		return nil, ed.err
	}
	pairs, err := ed.occurrences(key)
	switch {
	case err != nil:
		return nil, fmt.Errorf("rename %q in %s: %w", key, ed.path, err)
	case len(pairs) == 0:
		return nil, fmt.Errorf("rename %q in %s: %w", key, ed.path, parsed.ErrNotFound)
	case newKey == key:
		return nil, nil
	case newKey == "":
		return nil, fmt.Errorf("rename %q in %s: empty key: %w", key, ed.path, parsed.ErrCannotRepresent)
	case ed.cfg.Lookup(newKey) != nil:
		return nil, fmt.Errorf("rename %q to %q in %s: %w", key, newKey, ed.path, parsed.ErrExists)
	}
	edits, ok, err := ed.renameInPlace(pairs, newKey)
	if err == nil && !ok {
		edits, err = ed.move(key, newKey, pairs)
	}
	if err != nil {
		return nil, fmt.Errorf("rename %q to %q in %s: %w", key, newKey, ed.path, err)
	}
	want := ed.effective()
	want[newKey] = want[key]
	delete(want, key)
	return ed.checked(fmt.Sprintf("rename %q", key), edits, want)
}

// renameInPlace rewrites each key token; ok is false when one of them
// cannot take the new key (another parent prefix, a sibling of that name,
// a key with a tag or anchor).
func (ed *yamlEditor) renameInPlace(pairs []*ypair, newKey string) (edits []parsed.Edit, ok bool, err error) {
	for _, p := range pairs {
		prefix := p.owner.prefix
		if !strings.HasPrefix(newKey, prefix) || len(newKey) == len(prefix) {
			return nil, false, nil
		}
		suffix := newKey[len(prefix):]
		if p.owner.has(suffix) || p.key.Kind != yaml.ScalarNode || ed.tree.hasProps(p.kr) {
			return nil, false, nil
		}
		tok, err := renderKey(suffix, p.owner.flow)
		if err != nil {
			return nil, false, err
		}
		edits = append(edits, parsed.Edit{Start: p.kr.start, End: p.kr.end, Text: tok})
	}
	return edits, true, nil
}

// move deletes every definition of key and adds newKey with the winning
// value token, as Set adds a key. The insertion is computed on the file
// with the deletions applied and mapped back to the original offsets.
func (ed *yamlEditor) move(key, newKey string, pairs []*ypair) ([]parsed.Edit, error) {
	win := pairs[len(pairs)-1]
	if e := ed.cfg.Lookup(key); e != nil {
		if p := ed.tree.pairs[e.KeySpan.Start.Offset]; p != nil {
			win = p
		}
	}
	if win.vr.start == win.vr.end || !ed.tree.singleLine(win.vr) {
		return nil, fmt.Errorf("the value is empty or spans several lines and cannot move to another mapping: %w", parsed.ErrCannotRepresent)
	}
	tok := string(ed.src[win.vr.start:win.vr.end])
	dels, err := ed.tree.deletion(pairs)
	if err != nil {
		return nil, err
	}
	dels, err = parsed.Normalize(len(ed.src), dels)
	if err != nil {
		return nil, err
	}
	mid, err := parsed.Apply(ed.src, dels)
	if err != nil {
		return nil, err
	}
	t, err := ed.buildTree(mid)
	if err != nil {
		return nil, fmt.Errorf("%v: %w", err, parsed.ErrCannotRepresent)
	}
	ins, err := ed.insert(t, newKey, tok)
	if err != nil {
		return nil, err
	}
	// An offset of mid maps to the original after every deletion that
	// starts at or before it; an insertion where lines were deleted goes
	// after them.
	back := func(off int) int {
		for _, d := range dels {
			if d.Start > off {
				break
			}
			off += d.End - d.Start
		}
		return off
	}
	for _, e := range ins {
		s := back(e.Start)
		dels = append(dels, parsed.Edit{Start: s, End: s + e.End - e.Start, Text: e.Text})
	}
	return dels, nil
}

// effective returns the keys Flink reads from the configuration.
func (ed *yamlEditor) effective() map[string]typed { return effectiveTyped(ed.cfg) }

func effectiveTyped(f *parsed.File) map[string]typed {
	m := make(map[string]typed, len(f.Entries))
	for k, e := range f.Effective() {
		m[k] = typed{e.Value, e.Kind}
	}
	return m
}

// checked returns edits when verify accepts them.
func (ed *yamlEditor) checked(op string, edits []parsed.Edit, want map[string]typed) ([]parsed.Edit, error) {
	if err := ed.verify(op, edits, want); err != nil {
		return nil, err
	}
	return edits, nil
}

// verify applies edits, parses the result and checks that Flink reads
// exactly want from it.
func (ed *yamlEditor) verify(op string, edits []parsed.Edit, want map[string]typed) error {
	out, err := parsed.Apply(ed.src, edits)
	if err != nil {
		return fmt.Errorf("%s in %s: %w", op, ed.path, err)
	}
	g, err := ed.reparse(out)
	if err != nil {
		return fmt.Errorf("%s in %s: the edited file would not parse (%v): %w", op, ed.path, err, parsed.ErrCannotRepresent)
	}
	show := func(v typed) string { return fmt.Sprintf("the %s %q", v.Kind, v.Value) }
	if diff := parsed.DiffViews(want, effectiveTyped(g), show); diff != "" {
		return fmt.Errorf("%s in %s: Flink would read the edited file differently: %s: %w", op, ed.path, diff, parsed.ErrCannotRepresent)
	}
	return nil
}
