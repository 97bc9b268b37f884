package flinkyaml

import (
	"bytes"
	"slices"

	"go.yaml.in/yaml/v3"

	"github.com/ckptlint/ckptlint/internal/parsed"
)

// comments are the comments of the YAML stream src, every document of
// which yaml.v3 decoded into docs. YAML 1.2 (§6.6) starts a comment at a
// '#' that opens a line or follows a space or tab, outside any scalar, and
// ends it at the line break. A plain scalar cannot hold such a '#' (it
// ends before one), so the only scalars that can are the quoted and block
// scalars: the parse tells where each of them lies (the tokens the editors
// splice), and a '#' inside one is text. Body is where the first
// document's content starts: its first key when it is a mapping. nil when src is UTF-16, whose byte offsets
// the positions of yaml.v3 do not give (a FlinkDeployment manifest's bytes; a config.yaml in UTF-16 is
// decoded before it is parsed, parseUTF16).
func (l *locator) comments(path string, docs []*yaml.Node) *parsed.Comments {
	src := l.src
	if bytes.HasPrefix(src, []byte{0xFE, 0xFF}) || bytes.HasPrefix(src, []byte{0xFF, 0xFE}) {
		return nil
	}
	c := &parsed.Comments{File: path, Src: src, Body: len(src)}
	var text []tokenRange // the quoted and block scalars: where a '#' is text
	for _, d := range docs {
		root := docRoot(d)
		if root == nil {
			continue
		}
		if c.Body == len(src) && !emptyNode(root) {
			first := root // the first key of a mapping: its tag may stand on the "---" line
			if root.Kind == yaml.MappingNode && len(root.Content) > 0 {
				first = root.Content[0]
			}
			c.Body = l.offset(first.Line, first.Column)
		}
		l.textScalars(root, -1, &text)
	}
	slices.SortFunc(text, func(a, b tokenRange) int { return a.start - b.start })
	for i, t := 0, 0; ; {
		j := bytes.IndexByte(src[i:], '#')
		if j < 0 {
			break
		}
		h := i + j
		for t < len(text) && text[t].end <= h {
			t++
		}
		i = h + 1
		if t < len(text) && text[t].start <= h {
			continue // text of a quoted or block scalar
		}
		if h > l.bom && !isBlank(src[h-1]) {
			continue // "a#b": part of a plain scalar, an anchor or a tag
		}
		end := h
		for end < len(src) && src[end] != '\n' && src[end] != '\r' {
			end++
		}
		c.List = append(c.List, parsed.Comment{Span: l.span(h, end), Text: l.span(h+1, end)})
		i = end
	}
	return c
}

// emptyNode reports the null a document without content holds ("---"
// alone): no token of the file.
func emptyNode(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.Value == "" && n.Style == 0 && n.Anchor == "" && n.Tag == "!!null"
}

// textScalars appends the text ranges of the quoted and block scalars of
// n and below: a quoted scalar from its opening quote to its closing one,
// a block scalar from the line after its header (whose own comment is one)
// to its last content line. parentIndent is the column of the construct
// owning n, as nodeRange takes it. Aliases are not followed: their
// targets are written elsewhere in the file.
func (l *locator) textScalars(n *yaml.Node, parentIndent int, out *[]tokenRange) {
	switch n.Kind {
	case yaml.MappingNode, yaml.SequenceNode:
		own := n.Column - 1
		for i, ch := range n.Content {
			indent := own
			if n.Kind == yaml.MappingNode && i%2 == 1 {
				indent = n.Content[i-1].Column - 1 // a value belongs to its key
			}
			l.textScalars(ch, indent, out)
		}
	case yaml.ScalarNode:
		if n.Style&(quotedStyles|yaml.LiteralStyle|yaml.FoldedStyle) == 0 {
			return
		}
		start := l.offset(n.Line, n.Column)
		propsEnd, content, _ := l.skipProps(start)
		end := l.scalarEnd(n, propsEnd, content, parentIndent)
		if n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
			nl := bytes.IndexByte(l.src[content:end], '\n')
			if nl < 0 {
				return // no content line
			}
			content += nl + 1
		}
		*out = append(*out, tokenRange{start: content, end: end})
	}
}
