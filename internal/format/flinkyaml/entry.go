package flinkyaml

import (
	"go.yaml.in/yaml/v3"

	"github.com/ckptlint/ckptlint/internal/parsed"
)

// add records one flattened entry for key k with value v, read from node vn
// at r, and the notices it raises. The error is the alias budget's
// (aliasBudget), for a value reached through an alias to a collection.
func (f *flattener) add(k pairKey, vn *yaml.Node, v value, r tokenRange, depth int) *parsed.ParseError {
	if f.via != nil {
		// reached through an alias: point at the alias, not the original
		k.span, r = f.via.key, f.via.val
		f.viaEntries++
		if vn.Kind != yaml.AliasNode || vn.Alias == nil || vn.Alias.Kind != yaml.ScalarNode { // scalarOf counted an alias to a scalar
			if err := f.charge(len(v.text), r.start); err != nil {
				return err
			}
		}
	}
	raw := string(f.loc.src[r.start:r.end])
	text, kind := v.text, v.kind
	if f.standard {
		text, kind = v.flinkString()
	}
	e := parsed.Entry{
		Key:       k.full,
		Value:     text,
		Kind:      kind,
		File:      f.file.Path,
		KeySpan:   k.span,
		ValueSpan: f.loc.span(r.start, r.end),
		Nested:    depth > 0,
		Doc:       f.doc,
	}
	if raw != e.Value {
		e.Raw = raw
	}
	if depth > 0 || k.written != k.full {
		e.WrittenKey = k.written
	}
	if depth > 0 {
		f.file.Nested = true
	}
	path := f.file.Path
	if prev, ok := f.last[e.Key]; ok {
		f.file.Notices = append(f.file.Notices, newNotice(path, NoticeFlatNestedOverlap, e.KeySpan, e.Key,
			"key %q is also set at line %d; Flink flattens both into one map and keeps this later value",
			e.Key, f.file.Entries[prev].KeySpan.Start.Line))
	}
	f.last[e.Key] = len(f.file.Entries)
	f.file.Entries = append(f.file.Entries, e)
	if !f.standard {
		return nil
	}
	switch {
	case e.Kind == parsed.KindNull:
		f.file.Notices = append(f.file.Notices, newNotice(path, NoticeNullValue, e.KeySpan, e.Key,
			"key %q has a null value; Flink's Configuration rejects null values (\"Value must not be null.\"), so Flink fails to load the file",
			e.Key))
	case e.Kind == parsed.KindString && isPlainUntagged(vn, r) && isBoolLike(e.Value):
		f.file.Notices = append(f.file.Notices, newNotice(path, NoticeBoolLikeString, e.ValueSpan, e.Key,
			"%q is a string in YAML 1.2, not a boolean; Flink's boolean options accept only true or false", e.Value))
	}
	if e.Key == "env.java.home" && e.Nested {
		f.file.Notices = append(f.file.Notices, newNotice(path, NoticeEnvJavaHomeNested, e.KeySpan, e.Key,
			"env.java.home is written nested; Flink's start scripts read it from the raw file with sed, so write it flat as \"env.java.home: …\""))
	}
	return nil
}

// isPlainUntagged reports whether vn is a plain scalar without a tag.
func isPlainUntagged(vn *yaml.Node, r tokenRange) bool {
	return vn.Kind == yaml.ScalarNode && !r.nonSpecific && vn.Style&(quotedStyles|yaml.TaggedStyle) == 0
}
