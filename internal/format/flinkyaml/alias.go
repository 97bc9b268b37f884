package flinkyaml

import (
	"fmt"

	"go.yaml.in/yaml/v3"

	"github.com/ckptlint/ckptlint/internal/parsed"
)

// Aliases. Flink loads config.yaml with YamlParserUtils.loadYamlFile:
// SnakeYAML's Yaml with default LoaderOptions apart from duplicate keys in
// Flink 1.19 (flink-core YamlParserUtils.java), snakeyaml-engine's Load
// with the core schema and otherwise default LoadSettings later. Both
// compose aliases to mappings and sequences up to maxAliasesForCollections
// (default 50) per document, failing with "Number of aliases for non-scalar
// nodes exceeds the specified max=50", and construct each anchored
// collection once, so every alias refers to the same Java object.
// GlobalConfiguration.flatten walks a mapping reached through an alias like
// any other, and YamlParserUtils.toYAMLString dumps a list with a Serializer
// that gives a collection met twice in one dump an anchor (&id001, numbered
// as the second encounters come: NumberAnchorGenerator) and writes *id001
// for the repeats.
const (
	// maxCollectionAliases is snakeyaml-engine's default
	// LoadSettings.maxAliasesForCollections.
	maxCollectionAliases = 50
	// maxAliasEntries bounds the keys flattened through aliases in one
	// file: Flink has no such limit, but 50 nested aliases can name 2^50
	// keys; ckptlint refuses that as an alias bomb.
	maxAliasEntries = 10000
	// maxAliasBytes bounds the text aliases make ckptlint produce again
	// in one file (aliasBudget). snakeyaml-engine counts only aliases to
	// collections ("Aliases for scalar nodes do not count because they do
	// not grow exponentially": LoadSettingsBuilder.setMaxAliasesForCollections,
	// 2.6), so this is ckptlint's own limit: one 100 KB scalar named by
	// 20,000 aliases in a 200 KB file made 2 GB of list text (issue 25).
	// 1 MiB is sixteen times the largest real file ckptlint is tested
	// against (docs/security.md).
	maxAliasBytes = 1 << 20
)

// aliasBudget counts, for one file (all documents of a manifest), the bytes
// of text reached through aliases: each scalar an alias names (a key, a
// value, an item of a list), and each value flattened from a collection an
// alias names (a list reached that way is counted whole, its aliased items
// again: an over-count, never an under-count).
type aliasBudget struct{ bytes int }

// limit marks e as past a limit of ckptlint's own (parsed.ErrLimit).
func limit(e *parsed.ParseError) *parsed.ParseError {
	e.Kind = parsed.ErrLimit
	return e
}

// charge counts n bytes reached through an alias written at offset at; past
// maxAliasBytes it returns the alias-bomb error there.
func (f *flattener) charge(n, at int) *parsed.ParseError {
	f.aliased.bytes += n
	if f.aliased.bytes > maxAliasBytes {
		return limit(f.fail(at, "aliases repeat more than %d bytes of text: ckptlint refuses this as an alias bomb", maxAliasBytes))
	}
	return nil
}

// aliasSite is where a value reached through an alias is written: the key
// that holds the alias and the alias token. Entries flattened through it
// point there, so an editor never edits the anchored original by mistake.
type aliasSite struct {
	key parsed.Span
	val tokenRange
}

// countCollectionAliases refuses a document with more aliases to
// collections than snakeyaml-engine's Composer allows, with its message.
func (f *flattener) countCollectionAliases(n *yaml.Node) *parsed.ParseError {
	count := 0
	var walk func(n *yaml.Node) *parsed.ParseError
	walk = func(n *yaml.Node) *parsed.ParseError {
		if n == nil {
			return nil
		}
		if n.Kind == yaml.AliasNode {
			if t := n.Alias; t != nil && (t.Kind == yaml.MappingNode || t.Kind == yaml.SequenceNode) {
				count++
				if count > maxCollectionAliases {
					return f.failNode(n, "Number of aliases for non-scalar nodes exceeds the specified max=%d (snakeyaml-engine's limit, which Flink keeps)", maxCollectionAliases)
				}
			}
			return nil
		}
		for _, c := range n.Content {
			if err := walk(c); err != nil {
				return err
			}
		}
		return nil
	}
	return walk(n)
}

// aliasValue flattens the value of key k that is an alias to a mapping or a
// sequence.
func (f *flattener) aliasValue(k pairKey, vn *yaml.Node, depth int) *parsed.ParseError {
	t := vn.Alias
	r := f.loc.nodeRange(vn, k.node.Column-1)
	if f.viaEntries > maxAliasEntries {
		at := r.start
		if f.via != nil {
			at = f.via.val.start // the outermost alias
		}
		return limit(f.fail(at, "aliases expand to more than %d keys: ckptlint refuses this as an alias bomb", maxAliasEntries))
	}
	if f.via == nil {
		f.via = &aliasSite{key: k.span, val: r}
		defer func() { f.via = nil }()
	}
	if t.Kind == yaml.MappingNode {
		for _, m := range f.open {
			if m == t {
				return f.fail(r.start, "alias *%s refers to a mapping that contains it: Flink's flatten would never end", vn.Value)
			}
		}
		return f.mapping(t, k.full+".", depth+1)
	}
	text, err := f.flowValue(t)
	if err != nil {
		return err
	}
	return f.add(k, vn, value{kind: parsed.KindList, text: text}, r, depth)
}

// flowValue renders a list value as toYAMLString does, anchors included.
func (f *flattener) flowValue(n *yaml.Node) (string, *parsed.ParseError) {
	f.anchors = map[*yaml.Node]string{}
	seen := map[*yaml.Node]bool{}
	next := 0
	onPath := map[*yaml.Node]bool{}
	var walk func(n *yaml.Node) *parsed.ParseError
	walk = func(n *yaml.Node) *parsed.ParseError {
		t := aliasTarget(n)
		if t.Kind != yaml.MappingNode && t.Kind != yaml.SequenceNode {
			return nil
		}
		if onPath[t] {
			return f.failNode(n, "alias *%s refers to a collection that contains it: Flink cannot write the list back as text", n.Value)
		}
		if seen[t] {
			if _, ok := f.anchors[t]; !ok {
				next++
				f.anchors[t] = fmt.Sprintf("id%03d", next)
			}
			return nil
		}
		seen[t] = true
		onPath[t] = true
		defer delete(onPath, t)
		for _, c := range t.Content {
			if err := walk(c); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(n); err != nil {
		return "", err
	}
	f.emitted = map[*yaml.Node]bool{}
	defer func() { f.anchors, f.emitted = nil, nil }()
	return f.flow(n)
}

// anchorFor returns the prefix ("&id001 ") of a collection's first
// rendering in a dump, or its alias ("*id001") for a repeat.
func (f *flattener) anchorFor(t *yaml.Node) (prefix, alias string) {
	name, ok := f.anchors[t]
	if !ok {
		return "", ""
	}
	if f.emitted[t] {
		return "", "*" + name
	}
	f.emitted[t] = true
	return "&" + name + " ", ""
}

// MaxCollectionAliases and MaxAliasBytes are the bounds above, for the
// readers of other YAML files that must not cost more than a config.yaml
// does (internal/deploy/kube: Kubernetes manifests; docs/security.md).
const (
	MaxCollectionAliases = maxCollectionAliases
	MaxAliasBytes        = maxAliasBytes
)
