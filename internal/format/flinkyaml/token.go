package flinkyaml

import (
	"bytes"

	"go.yaml.in/yaml/v3"
)

// tokenRange is the byte range [start, end) of a node's text: its
// properties (anchor, tag) and its content, quotes and brackets included.
type tokenRange struct {
	start, end int
	// nonSpecific is set when the node carries the non-specific tag "!",
	// which makes a plain scalar a string (yaml.v3 drops that tag).
	nonSpecific bool
}

// nodeRange locates n in the source. parentIndent is the 0-based column of
// the construct that owns n (the key of a mapping value, the "-" of a
// sequence item); block scalars need it to find their last line.
func (l *locator) nodeRange(n *yaml.Node, parentIndent int) tokenRange {
	start := l.offset(n.Line, n.Column)
	propsEnd, content, nonSpecific := l.skipProps(start)
	r := tokenRange{start: start, end: start, nonSpecific: nonSpecific}
	switch n.Kind {
	case yaml.AliasNode:
		if l.at(content) == '*' {
			r.end = content + 1 + len(n.Value)
		}
	case yaml.ScalarNode:
		r.end = l.scalarEnd(n, propsEnd, content, parentIndent)
	case yaml.MappingNode, yaml.SequenceNode:
		r.end = l.collectionEnd(n, content)
	}
	r.end = clamp(r.end, start, len(l.src))
	return r
}

// at returns the byte at off, or 0 outside the file.
func (l *locator) at(off int) byte {
	if off < 0 || off >= len(l.src) {
		return 0
	}
	return l.src[off]
}

// skipProps steps over the anchor and tag tokens at start. It returns the
// end of the last property, the offset where the content begins, and
// whether one of the properties was the non-specific tag "!".
func (l *locator) skipProps(start int) (propsEnd, content int, nonSpecific bool) {
	src := l.src
	p := start
	propsEnd, content = start, start
	for p < len(src) && (src[p] == '&' || src[p] == '!') {
		s := p
		if src[p] == '!' && p+1 < len(src) && src[p+1] == '<' { // verbatim tag !<…>
			for p < len(src) && src[p] != '>' {
				p++
			}
			p = min(p+1, len(src))
		} else {
			p++
			for p < len(src) && !isBlank(src[p]) && !isFlowIndicator(src[p]) {
				p++
			}
		}
		if p-s == 1 && src[s] == '!' {
			nonSpecific = true
		}
		propsEnd = p
		p = l.skipSeparation(p)
		content = p
	}
	return propsEnd, content, nonSpecific
}

// skipSeparation steps over spaces, tabs, line breaks and comments.
func (l *locator) skipSeparation(p int) int {
	src := l.src
	for p < len(src) {
		switch src[p] {
		case ' ', '\t', '\r', '\n':
			p++
		case '#':
			for p < len(src) && src[p] != '\n' {
				p++
			}
		default:
			return p
		}
	}
	return p
}

func (l *locator) scalarEnd(n *yaml.Node, propsEnd, content, parentIndent int) int {
	switch c := l.at(content); {
	case n.Style&yaml.DoubleQuotedStyle != 0 && c == '"':
		return l.quotedEnd(content, '"')
	case n.Style&yaml.SingleQuotedStyle != 0 && c == '\'':
		return l.quotedEnd(content, '\'')
	case n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 && (c == '|' || c == '>'):
		return l.blockScalarEnd(content, parentIndent)
	case n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0:
		return l.lineValueEnd(content) // position did not match the style
	case n.Value == "":
		return propsEnd // an empty plain scalar: only its properties, if any
	}
	return l.plainEnd(content, n.Value)
}

// quotedEnd returns the offset after the quote that closes the quoted
// scalar opening at p.
func (l *locator) quotedEnd(p int, q byte) int {
	src := l.src
	for i := p + 1; i < len(src); i++ {
		switch src[i] {
		case '\\':
			if q == '"' {
				i++
			}
		case q:
			if q == '\'' && i+1 < len(src) && src[i+1] == '\'' {
				i++
				continue
			}
			return i + 1
		}
	}
	return len(src)
}

// plainEnd returns the end of the plain scalar at p whose value is value.
// A multi-line plain scalar is folded by YAML (line break plus indentation
// become one space), so runs of white space are matched loosely.
func (l *locator) plainEnd(p int, value string) int {
	src := l.src
	if bytes.HasPrefix(src[p:], []byte(value)) {
		return p + len(value)
	}
	i, j := p, 0
	for j < len(value) {
		if c := value[j]; c == ' ' || c == '\n' {
			for j < len(value) && (value[j] == ' ' || value[j] == '\n') {
				j++
			}
			k := i
			for k < len(src) && isBlank(src[k]) {
				k++
			}
			if k == i {
				return l.lineValueEnd(p)
			}
			i = k
			continue
		}
		if i >= len(src) || src[i] != value[j] {
			return l.lineValueEnd(p)
		}
		i++
		j++
	}
	return i
}

// lineValueEnd is the fallback end of a token starting at p: the end of
// its line, before a " #" comment and trailing blanks.
func (l *locator) lineValueEnd(p int) int {
	src := l.src
	end := p
	for end < len(src) && src[end] != '\n' && src[end] != '\r' {
		if src[end] == '#' && end > p && (src[end-1] == ' ' || src[end-1] == '\t') {
			break
		}
		end++
	}
	for end > p && (src[end-1] == ' ' || src[end-1] == '\t') {
		end--
	}
	return end
}

// blockScalarEnd returns the end of the last content line of the literal
// or folded scalar whose indicator is at p, following libyaml: content
// lines are indented at least as far as the first non-empty line (or the
// explicit indentation indicator), and more than the parent.
func (l *locator) blockScalarEnd(p, parentIndent int) int {
	src := l.src
	i := p + 1
	explicit := 0
	for i < len(src) && (src[i] == '+' || src[i] == '-' || (src[i] >= '1' && src[i] <= '9')) {
		if src[i] != '+' && src[i] != '-' {
			explicit = int(src[i] - '0')
		}
		i++
	}
	end := i
	nl := bytes.IndexByte(src[i:], '\n')
	if nl < 0 {
		return end
	}
	indent := 0
	if explicit > 0 {
		indent = max(parentIndent, 0) + explicit
	}
	for cur := i + nl + 1; cur < len(src); {
		next := len(src)
		if k := bytes.IndexByte(src[cur:], '\n'); k >= 0 {
			next = cur + k
		}
		line := bytes.TrimSuffix(src[cur:next], []byte{'\r'})
		sp := 0
		for sp < len(line) && line[sp] == ' ' {
			sp++
		}
		if sp < len(line) { // not a blank line
			if indent == 0 {
				indent = max(sp, parentIndent+1, 1)
			}
			if sp < indent {
				break
			}
			end = cur + len(line)
		}
		cur = next + 1
	}
	return end
}

// collectionEnd returns the end of a mapping or sequence whose content
// starts at p: after the closing bracket for flow style, after the last
// child for block style.
func (l *locator) collectionEnd(n *yaml.Node, p int) int {
	end := p
	closer := byte(0)
	if n.Style&yaml.FlowStyle != 0 {
		switch l.at(p) {
		case '[':
			end, closer = p+1, ']'
		case '{':
			end, closer = p+1, '}'
		}
	}
	own := n.Column - 1
	for i, c := range n.Content {
		indent := own
		if n.Kind == yaml.MappingNode && i%2 == 1 {
			indent = n.Content[i-1].Column - 1 // a value belongs to its key
		}
		end = max(end, l.nodeRange(c, indent).end)
	}
	if closer != 0 {
		return l.closeBracket(end, closer)
	}
	return end
}

// closeBracket returns the offset after the first closer at or after from,
// skipping comments.
func (l *locator) closeBracket(from int, closer byte) int {
	src := l.src
	for i := from; i < len(src); i++ {
		switch src[i] {
		case closer:
			return i + 1
		case '#':
			if i == 0 || isBlank(src[i-1]) {
				for i < len(src) && src[i] != '\n' {
					i++
				}
			}
		}
	}
	return len(src)
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

func isFlowIndicator(c byte) bool {
	return c == ',' || c == '[' || c == ']' || c == '{' || c == '}'
}
