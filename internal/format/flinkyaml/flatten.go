package flinkyaml

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/ckptlint/ckptlint/internal/parsed"
)

// flattener turns a YAML mapping into Flink's flat entries, the way
// GlobalConfiguration.flatten does: a mapping value is flattened into
// "parent.child" keys, a sequence value becomes its flow string, a scalar
// keeps its core-schema type.
type flattener struct {
	loc  *locator
	file *parsed.File
	doc  int
	// standard is set for config.yaml, where the notices about Flink's own
	// loader apply (null values, yes/no strings, env.java.home).
	standard bool
	// last maps a flattened key to the index of its latest entry.
	last map[string]int
	// via is set while flattening a collection reached through an alias
	// (alias.go); viaEntries counts the entries added that way.
	via        *aliasSite
	viaEntries int
	// aliased counts the text reached through aliases in the file.
	aliased *aliasBudget
	// open lists the mappings being flattened, to refuse a recursive alias.
	open []*yaml.Node
	// anchors and emitted hold the anchors of the list being rendered.
	anchors map[*yaml.Node]string
	emitted map[*yaml.Node]bool
	// keyErr is the first key of a mapping that is not a string
	// (config.yaml): Flink fails on it once the whole file is loaded.
	keyErr *parsed.ParseError
}

func newFlattener(loc *locator, file *parsed.File, doc int, standard bool, aliased *aliasBudget) *flattener {
	return &flattener{loc: loc, file: file, doc: doc, standard: standard, last: map[string]int{}, aliased: aliased}
}

// fail returns a ParseError at byte offset off: YAML that Flink does not
// take as a configuration (parsed.ErrConfig).
func (f *flattener) fail(off int, format string, args ...any) *parsed.ParseError {
	return &parsed.ParseError{File: f.file.Path, Pos: f.loc.pos(off), Msg: fmt.Sprintf(format, args...), Kind: parsed.ErrConfig}
}

// failNode returns a ParseError at the start of n.
func (f *flattener) failNode(n *yaml.Node, format string, args ...any) *parsed.ParseError {
	return f.fail(f.loc.offset(n.Line, n.Column), format, args...)
}

// mapping flattens the pairs of m under prefix; depth is 0 at the top of
// the configuration.
func (f *flattener) mapping(m *yaml.Node, prefix string, depth int) *parsed.ParseError {
	if err := f.checkCollectionTag(m, "!!map"); err != nil {
		return err
	}
	f.open = append(f.open, m)
	defer func() { f.open = f.open[:len(f.open)-1] }()
	seen := keySet{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		kn, vn := m.Content[i], m.Content[i+1]
		key, kr, err := f.scalarOf(kn, m.Column-1, "key")
		if err != nil {
			return err
		}
		if err := f.unique(seen, key, kr, prefix); err != nil {
			return err
		}
		if f.standard && f.keyErr == nil && key.kind != parsed.KindString && key.kind != parsed.KindNull {
			f.keyErr = f.nonStringKey(key, kr, prefix)
		}
		k := pairKey{
			node:    kn,
			full:    prefix + key.keyText(),
			written: aliasTarget(kn).Value,
			span:    f.loc.span(kr.start, kr.end),
		}
		if err := f.value(k, vn, depth); err != nil {
			return err
		}
	}
	return nil
}

// nonStringKey is the error of a mapping key that is not a string. Flink
// 1.19/1.20 GlobalConfiguration.flatten walks the loaded Map<String, Object>
// with config.forEach((key, value) -> ...), whose lambda takes a String
// key: for a key of another type the call casts and throws
// ClassCastException, at any depth of nested mappings, and
// loadYAMLResource fails with "Error parsing YAML configuration." (Flink
// 1.20 GlobalConfiguration.java L292-310, L343-353). A null key is cast
// fine and concatenates to "null". It is found after the whole file is
// constructed, so every YAML error comes first.
func (f *flattener) nonStringKey(key value, kr tokenRange, prefix string) *parsed.ParseError {
	what := map[parsed.Kind]string{parsed.KindInt: "an integer", parsed.KindFloat: "a float", parsed.KindBool: "a boolean", kindBinary: "binary data"}[key.kind]
	in := ""
	if prefix != "" {
		in = fmt.Sprintf(" (in %q)", strings.TrimSuffix(prefix, "."))
	}
	cls := key.javaClass()
	return f.fail(kr.start, "key %s%s is %s, not a string, so Flink cannot load config.yaml: GlobalConfiguration.flatten takes every key of a mapping as a String, and loading fails with \"Error parsing YAML configuration.\" caused by java.lang.ClassCastException: class %s cannot be cast to class java.lang.String (%s and java.lang.String are in module java.base of loader 'bootstrap'). Quote the key ('%s') to make it a string",
		key.keyText(), in, what, cls, cls, key.keyText())
}

// keySet maps the identity of each key of one mapping to the line where it
// first appears.
type keySet map[string]int

// unique records key in seen, or returns snakeyaml-engine's duplicate-key
// error for it. prefix is prepended to the key in the message.
func (f *flattener) unique(seen keySet, key value, kr tokenRange, prefix string) *parsed.ParseError {
	if first, dup := seen[key.ident()]; dup {
		return f.fail(kr.start, "duplicate key %q (first defined at line %d): Flink's YAML parser rejects duplicate keys",
			prefix+key.keyText(), first)
	}
	seen[key.ident()] = f.loc.pos(kr.start).Line
	return nil
}

// pairKey is the key side of one mapping pair.
type pairKey struct {
	node    *yaml.Node
	full    string // the flattened key
	written string // the key's own value, as written
	span    parsed.Span
}

// value flattens the value vn of key k.
func (f *flattener) value(k pairKey, vn *yaml.Node, depth int) *parsed.ParseError {
	indent := k.node.Column - 1
	switch vn.Kind {
	case yaml.MappingNode:
		return f.mapping(vn, k.full+".", depth+1)
	case yaml.SequenceNode:
		text, err := f.flowValue(vn)
		if err != nil {
			return err
		}
		return f.add(k, vn, value{kind: parsed.KindList, text: text}, f.loc.nodeRange(vn, indent), depth)
	case yaml.AliasNode:
		if t := vn.Alias; t != nil && (t.Kind == yaml.MappingNode || t.Kind == yaml.SequenceNode) {
			return f.aliasValue(k, vn, depth)
		}
		fallthrough
	case yaml.ScalarNode:
		v, r, err := f.scalarOf(vn, indent, "value")
		if err != nil {
			return err
		}
		return f.add(k, vn, v, r, depth)
	}
	return f.failNode(vn, "unexpected YAML node for key %q", k.full)
}

// scalarOf types the scalar n, following an alias to a scalar. role
// ("key" or "value") is used in error messages.
func (f *flattener) scalarOf(n *yaml.Node, indent int, role string) (value, tokenRange, *parsed.ParseError) {
	r := f.loc.nodeRange(n, indent)
	t, nonSpecific := n, r.nonSpecific
	if n.Kind == yaml.AliasNode {
		t = n.Alias
		if t == nil || t.Kind != yaml.ScalarNode {
			return value{}, r, f.fail(r.start, "alias *%s refers to a %s, where a single value is expected",
				n.Value, kindName(t))
		}
		_, _, nonSpecific = f.loc.skipProps(f.loc.offset(t.Line, t.Column))
		if err := f.charge(len(t.Value), r.start); err != nil {
			return value{}, r, err
		}
	}
	if t.Kind != yaml.ScalarNode {
		return value{}, r, f.fail(r.start, "expected a scalar %s, found a %s", role, kindName(t))
	}
	v, err := resolveScalar(t, nonSpecific)
	if err == nil && v.kind == kindBinary && !f.standard {
		err = unsupportedTag("!!binary") // a manifest: not Flink's loader
	}
	if err != nil {
		return value{}, r, f.fail(r.start, "%v", err)
	}
	return v, r, nil
}

// checkCollectionTag refuses an explicit tag other than want on a mapping
// or sequence.
func (f *flattener) checkCollectionTag(n *yaml.Node, want string) *parsed.ParseError {
	if n.Style&yaml.TaggedStyle != 0 && n.Tag != want {
		return f.failNode(n, "%v", unsupportedTag(n.Tag))
	}
	return nil
}

// aliasTarget returns the node an alias refers to, or n itself.
func aliasTarget(n *yaml.Node) *yaml.Node {
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		return n.Alias
	}
	return n
}

// kindName names a node kind for messages.
func kindName(n *yaml.Node) string {
	if n == nil {
		return "missing node"
	}
	switch n.Kind {
	case yaml.MappingNode:
		return "mapping"
	case yaml.SequenceNode:
		return "sequence"
	case yaml.ScalarNode:
		return "scalar"
	case yaml.AliasNode:
		return "alias"
	case yaml.DocumentNode:
		return "document"
	}
	return "node"
}
