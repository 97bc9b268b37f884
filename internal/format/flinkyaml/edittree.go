package flinkyaml

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/ckptlint/ckptlint/internal/parsed"
)

// ytree is the mapping structure of one Flink configuration (a config.yaml
// document, or the spec.flinkConfiguration of one FlinkDeployment) with
// the byte ranges an editor splices.
type ytree struct {
	src []byte
	loc *locator
	// root is the configuration's top mapping; nil when there is none yet
	// (an empty config.yaml, a null or missing flinkConfiguration).
	root *ymap
	// maps holds every mapping of the configuration in document order.
	maps []*ymap
	// pairs indexes every pair by the offset of its key token.
	pairs map[int]*ypair
	// scalarRoot is set when the document is a written null ("~"), which
	// a new key cannot follow.
	scalarRoot bool

	// For a FlinkDeployment: the spec mapping (not flattened, prefix ""),
	// the flinkConfiguration key and value (nil when absent), and the
	// column of the document's top-level keys.
	spec           *ymap
	cfgKey, cfgVal *yaml.Node
	docCol         int
}

// ymap is one mapping of the configuration.
type ymap struct {
	node *yaml.Node
	// prefix is the flattened key prefix of its pairs: "" for the root,
	// "execution.checkpointing." for the value of checkpointing: under
	// execution:.
	prefix string
	flow   bool
	// col is the 0-based column of its keys (block mappings).
	col    int
	pairs  []*ypair
	parent *ypair // nil for the root
}

// ypair is one key/value pair of a mapping.
type ypair struct {
	owner    *ymap
	key, val *yaml.Node
	written  string // the key as Flink joins it
	full     string // the flattened key
	kr, vr   tokenRange
	child    *ymap // the value, when it is a mapping
}

// end is the offset after the pair's last token.
func (p *ypair) end() int { return max(p.kr.end, p.vr.end) }

func newTree(src []byte) *ytree {
	return &ytree{src: src, loc: newLocator(src), pairs: map[int]*ypair{}}
}

// configTree reads the mapping structure of a config.yaml.
func configTree(src []byte) (*ytree, error) {
	t := newTree(src)
	var doc yaml.Node
	in, perr := yamlInput("", src, t.loc)
	if perr != nil {
		return nil, perr
	}
	if err := decodeNext(yaml.NewDecoder(bytes.NewReader(in)), &doc); err != nil {
		if errors.Is(err, io.EOF) {
			return t, nil
		}
		return nil, err
	}
	switch r := docRoot(&doc); {
	case r == nil:
	case r.Kind == yaml.MappingNode:
		t.docCol = r.Column - 1
		t.root = t.walk(r, "", nil, true)
	default:
		if tr := t.loc.nodeRange(r, -1); tr.end > tr.start {
			t.scalarRoot = true // "~" or "null": there is no mapping to add to
		}
	}
	return t, nil
}

// deploymentTree reads the spec.flinkConfiguration structure of document
// doc of a manifest.
func deploymentTree(src []byte, doc int) (*ytree, error) {
	t := newTree(src)
	dec := yaml.NewDecoder(bytes.NewReader(src))
	var root *yaml.Node
	for i := 0; i <= doc; i++ {
		var n yaml.Node
		if err := decodeNext(dec, &n); err != nil {
			return nil, fmt.Errorf("read document %d: %w", doc, err)
		}
		if i == doc {
			root = docRoot(&n)
		}
	}
	if root == nil || root.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("document %d is not a mapping", doc)
	}
	t.docCol = root.Column - 1
	_, spec := lookup(root, "spec")
	if spec == nil || spec.Kind != yaml.MappingNode {
		return t, nil
	}
	t.spec = t.walk(spec, "", nil, false)
	t.cfgKey, t.cfgVal = lookup(spec, "flinkConfiguration")
	if t.cfgVal != nil && t.cfgVal.Kind == yaml.MappingNode {
		t.root = t.walk(t.cfgVal, "", nil, true)
	}
	return t, nil
}

// walk records mapping m with the given prefix. With flatten set, mapping
// values are walked too and every mapping and pair is indexed.
func (t *ytree) walk(m *yaml.Node, prefix string, parent *ypair, flatten bool) *ymap {
	ym := &ymap{node: m, prefix: prefix, flow: m.Style&yaml.FlowStyle != 0, col: m.Column - 1, parent: parent}
	if flatten {
		t.maps = append(t.maps, ym)
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		kn, vn := m.Content[i], m.Content[i+1]
		p := &ypair{owner: ym, key: kn, val: vn}
		p.kr = t.loc.nodeRange(kn, m.Column-1)
		p.vr = t.loc.nodeRange(vn, kn.Column-1)
		if k := aliasTarget(kn); k.Kind == yaml.ScalarNode {
			if v, err := resolveScalar(k, p.kr.nonSpecific); err == nil {
				p.written = v.keyText()
			}
		}
		p.full = prefix + p.written
		ym.pairs = append(ym.pairs, p)
		if !flatten {
			continue
		}
		t.pairs[p.kr.start] = p
		if vn.Kind == yaml.MappingNode {
			p.child = t.walk(vn, p.full+".", p, true)
		}
	}
	return ym
}

// has reports whether m has a pair whose key is written.
func (m *ymap) has(written string) bool {
	for _, p := range m.pairs {
		if p.written == written {
			return true
		}
	}
	return false
}

// place chooses where a new key goes: the deepest block mapping whose
// prefix starts key and that has no pair named like the rest of the key
// (the latest one when several have the same prefix); the rest of the key
// is written there as one flat key. Within that mapping the new pair
// follows the last pair whose flattened key shares the most leading dotted
// segments with key (at least two), else the mapping's last pair.
func (t *ytree) place(key string) (m *ymap, suffix string, anchor *ypair) {
	for _, c := range t.maps {
		if c.flow || len(c.pairs) == 0 || !strings.HasPrefix(key, c.prefix) || len(key) == len(c.prefix) {
			continue
		}
		if c.has(key[len(c.prefix):]) {
			continue
		}
		if m == nil || len(c.prefix) >= len(m.prefix) {
			m = c
		}
	}
	if m == nil {
		return nil, "", nil
	}
	suffix = key[len(m.prefix):]
	anchor = m.pairs[len(m.pairs)-1]
	best := 2
	for _, p := range m.pairs {
		if n := parsed.SharedSegments(key, p.full); n >= best {
			anchor, best = p, n
		}
	}
	return m, suffix, anchor
}

// insertAfter returns the offset on the last line a new pair of a mapping
// with key column col goes after, when it follows the pair p: the end of p,
// or of the comment lines indented deeper than col that follow p (they
// belong to p, often commented-out children).
func (t *ytree) insertAfter(p *ypair, col int) int {
	src := t.src
	at := p.end()
	_, _, next := parsed.LineBounds(src, at)
	for next < len(src) {
		ls, le, nx := parsed.LineBounds(src, next)
		line := src[ls:le]
		indent := 0
		for indent < len(line) && line[indent] == ' ' {
			indent++
		}
		rest := bytes.TrimRight(line[indent:], " \t")
		switch {
		case len(rest) == 0: // blank: keep looking
		case rest[0] == '#' && indent > col:
			at = ls
		default:
			return at
		}
		if nx == next {
			break
		}
		next = nx
	}
	return at
}

// ancestorIn reports whether a pair above p is in set.
func ancestorIn(p *ypair, set map[*ypair]bool) bool {
	for q := p.owner.parent; q != nil; q = q.owner.parent {
		if set[q] {
			return true
		}
	}
	return false
}

// deletion returns the edits that remove pairs, each with its whole lines.
// A mapping left without pairs is removed with its key, up to (not
// including) the configuration root: an empty nested mapping would be a
// null value, which Flink refuses to load (see NoticeNullValue). Pairs of
// a flow mapping, and pairs that share a line with other content, are
// refused with parsed.ErrCannotRepresent.
func (t *ytree) deletion(pairs []*ypair) ([]parsed.Edit, error) {
	gone := map[*ypair]bool{}
	for _, p := range pairs {
		gone[p] = true
		for m := p.owner; m != t.root && m.parent != nil; m = m.parent.owner {
			all := true
			for _, q := range m.pairs {
				all = all && gone[q]
			}
			if !all {
				break
			}
			gone[m.parent] = true
		}
	}
	tops := make([]*ypair, 0, len(gone))
	for p := range gone {
		if !ancestorIn(p, gone) {
			tops = append(tops, p)
		}
	}
	slices.SortFunc(tops, func(a, b *ypair) int { return a.kr.start - b.kr.start })
	type lineRange struct{ start, end int }
	var ranges []lineRange
	for _, p := range tops {
		if p.owner.flow {
			return nil, fmt.Errorf("%q is inside a flow mapping ({...}): %w", p.full, parsed.ErrCannotRepresent)
		}
		ls, ok := t.ownLineStart(p.kr.start)
		if !ok {
			return nil, fmt.Errorf("%q shares its line with other content: %w", p.full, parsed.ErrCannotRepresent)
		}
		_, _, next := parsed.LineBounds(t.src, p.end())
		ranges = append(ranges, lineRange{ls, next})
	}
	var edits []parsed.Edit
	for i := 0; i < len(ranges); {
		r := ranges[i]
		for i++; i < len(ranges) && ranges[i].start <= r.end; i++ {
			r.end = max(r.end, ranges[i].end)
		}
		edits = append(edits, parsed.DeleteLines(t.src, r.start, r.end))
	}
	return edits, nil
}

// ownLineStart returns the start of the line holding off when only spaces
// (and, on the first line, a byte order mark) precede off on it.
func (t *ytree) ownLineStart(off int) (int, bool) {
	ls, _, _ := parsed.LineBounds(t.src, off)
	if ls == 0 {
		ls = t.loc.bom
	}
	for i := ls; i < off; i++ {
		if t.src[i] != ' ' {
			return 0, false
		}
	}
	return ls, true
}

// hasProps reports whether the token at r starts with an anchor or a tag.
func (t *ytree) hasProps(r tokenRange) bool {
	propsEnd, _, _ := t.loc.skipProps(r.start)
	return propsEnd > r.start
}

// singleLine reports whether the token at r has no line break.
func (t *ytree) singleLine(r tokenRange) bool {
	return !bytes.ContainsAny(t.src[r.start:r.end], "\r\n") && !bytes.Contains(t.src[r.start:r.end], []byte("\u0085")) &&
		!bytes.Contains(t.src[r.start:r.end], []byte("\u2028")) && !bytes.Contains(t.src[r.start:r.end], []byte("\u2029"))
}
