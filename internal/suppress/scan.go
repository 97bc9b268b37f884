package suppress

import (
	"bytes"
	"path"
	"regexp"
	"strings"
	"sync"

	"github.com/ckptlint/ckptlint/internal/parsed"
)

// Syntax is how a file writes comments.
type Syntax int

// Syntaxes.
const (
	// FlinkConf is Flink's legacy flink-conf.yaml line parser: the first
	// '#' of a line starts a comment, wherever it is.
	FlinkConf Syntax = iota + 1
	// YAML is YAML 1.2 (config.yaml, FlinkDeployment manifests): '#' starts
	// a comment at the start of a line or after a space or tab, outside
	// quoted and block scalars.
	YAML
	// XML is Hadoop XML: <!-- --> outside CDATA sections and processing
	// instructions.
	XML
)

// SyntaxOfPath guesses the comment syntax from a file name (for files
// pulled in through xi:include, which have no format of their own): .xml
// is XML, flink-conf.yaml the legacy parser, other .yaml/.yml YAML.
func SyntaxOfPath(p string) Syntax {
	base := path.Base(strings.ReplaceAll(p, `\`, "/"))
	switch ext := strings.ToLower(path.Ext(base)); {
	case ext == ".xml":
		return XML
	case base == "flink-conf.yaml":
		return FlinkConf
	case ext == ".yaml" || ext == ".yml":
		return YAML
	}
	return 0
}

// comment is one comment of a file.
type comment struct {
	start, end         int // bytes [start, end), markers included
	textStart, textEnd int // the content between the markers
	startLine, endLine int
	// alone is true when nothing but whitespace shares the comment's lines.
	alone bool
}

// scanned is what an ignore needs to know about its file.
type scanned struct {
	lines    *parsed.Lines
	comments []comment
	// code[n] is true when 1-based line n holds something besides comments
	// and whitespace; commented[n] when it holds (part of) a comment.
	code, commented []bool
	// top is the offset of the first key or property: a file-level ignore
	// must start before it.
	top int
	// elems maps the line a Hadoop <property> element starts on to the line
	// it ends on (the last, when several start on one line).
	elems map[int]int
	next  []int // see nextCodeLine
}

func newScanned(src []byte) *scanned {
	l := parsed.NewLines(src)
	return &scanned{lines: l, code: make([]bool, l.Count()+2), commented: make([]bool, l.Count()+2), top: len(src)}
}

// markCode marks the lines of the non-whitespace bytes of src[from:to].
func (s *scanned) markCode(src []byte, from, to int) {
	for i := from; i < to; i++ {
		if !isSpace(src[i]) {
			s.code[s.lines.Pos(i).Line] = true
			// skip to the end of the line
			if j := bytes.IndexByte(src[i:to], '\n'); j >= 0 {
				i += j
			} else {
				return
			}
		}
	}
}

func (s *scanned) addComment(c comment) {
	c.startLine, c.endLine = s.lines.Pos(c.start).Line, s.lines.Pos(max(c.end-1, c.start)).Line
	for n := c.startLine; n <= c.endLine; n++ {
		s.commented[n] = true
	}
	s.comments = append(s.comments, c)
}

// finish decides which comments are alone on their lines.
func (s *scanned) finish(src []byte) {
	for i := range s.comments {
		c := &s.comments[i]
		ls, le := s.lines.LineStart(c.startLine), lineEnd(src, c.end)
		before := src[ls:c.start]
		if ls == 0 {
			before = bytes.TrimPrefix(before, bom)
		}
		c.alone = len(bytes.TrimSpace(before)) == 0 && len(bytes.TrimSpace(src[c.end:le])) == 0
	}
}

var bom = []byte("\uFEFF")

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' }

// lineEnd returns the offset of the newline ending the line holding off,
// or len(src).
func lineEnd(src []byte, off int) int {
	if j := bytes.IndexByte(src[off:], '\n'); j >= 0 {
		return off + j
	}
	return len(src)
}

// scan finds the comments of src.
func scan(src []byte, syn Syntax) *scanned {
	switch syn {
	case XML:
		return scanXML(src)
	case FlinkConf, YAML:
		return scanHash(src, syn)
	}
	return newScanned(src)
}

// scanHash scans the '#' comments of a legacy flink-conf.yaml or a YAML
// file, line by line.
func scanHash(src []byte, syn Syntax) *scanned {
	s := newScanned(src)
	var y yamlState
	y.block = noBlock
	topFound := false
	for off := 0; off < len(src) || off == 0; {
		end := lineEnd(src, off)
		line := src[off:end]
		body := off
		if off == 0 && bytes.HasPrefix(line, bom) {
			line, body = line[3:], 3
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		var at int
		var content bool
		if syn == FlinkConf {
			at = bytes.IndexByte(line, '#')
			head := line
			if at >= 0 {
				head = line[:at]
			}
			content = len(bytes.TrimSpace(head)) > 0
		} else {
			at, content = y.line(line)
		}
		n := s.lines.Pos(off).Line
		if content {
			s.code[n] = true
			if !topFound && !(syn == YAML && isMarker(line)) {
				s.top, topFound = off, true
			}
		}
		if at >= 0 {
			s.addComment(comment{start: body + at, end: body + len(line), textStart: body + at + 1, textEnd: body + len(line)})
		}
		if end >= len(src) {
			break
		}
		off = end + 1
	}
	s.finish(src)
	return s
}

// isMarker reports a YAML document marker or directive line: not a key.
func isMarker(line []byte) bool {
	t := bytes.TrimRight(line, " \t")
	return bytes.HasPrefix(t, []byte("%")) ||
		((bytes.HasPrefix(t, []byte("---")) || bytes.HasPrefix(t, []byte("..."))) && (len(t) == 3 || isSpace(t[3])))
}

const noBlock = -2 // yamlState.block when not in a block scalar

// yamlState carries what spans lines in YAML: an open quoted scalar, or a
// block scalar (| or >) whose content lines are indented more than block.
type yamlState struct {
	quote byte
	block int // parent indentation of an open block scalar, or noBlock; -1 for a top-level one
}

var blockIndicator = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[|>]([1-9][-+]?|[-+][1-9]?)?$`) })

// line scans one line (without its newline) and returns the offset of its
// comment's '#' (-1 if none) and whether it holds anything besides a
// comment and whitespace.
func (y *yamlState) line(l []byte) (int, bool) {
	indent := 0
	for indent < len(l) && l[indent] == ' ' {
		indent++
	}
	blank := len(bytes.TrimSpace(l)) == 0
	if y.block != noBlock {
		switch {
		case blank:
			return -1, false
		case y.block == -1 && !isMarker(l), y.block >= 0 && indent > y.block:
			return -1, true // block scalar content: a '#' here is text
		}
		y.block = noBlock
	}
	atStart := true // a quoted scalar may start here
	i := 0
	if y.quote == 0 {
		i = indent
	}
	comment := -1
scan:
	for ; i < len(l); i++ {
		c := l[i]
		switch y.quote {
		case '"':
			if c == '\\' {
				i++
			} else if c == '"' {
				y.quote, atStart = 0, false
			}
			continue
		case '\'':
			if c == '\'' {
				if i+1 < len(l) && l[i+1] == '\'' {
					i++
				} else {
					y.quote, atStart = 0, false
				}
			}
			continue
		}
		switch {
		case c == ' ' || c == '\t':
		case c == '#' && (i == 0 || l[i-1] == ' ' || l[i-1] == '\t'):
			comment = i
			break scan
		case (c == '\'' || c == '"') && atStart:
			y.quote = c
		case c == '[' || c == '{' || c == ',':
			atStart = true
		case (c == '-' || c == ':' || c == '?') && (i+1 == len(l) || l[i+1] == ' ' || l[i+1] == '\t'):
			atStart = true
		default:
			atStart = false
		}
	}
	head := l
	if comment >= 0 {
		head = l[:comment]
	}
	if y.quote == 0 {
		y.block = blockParent(head, indent)
	}
	return comment, !blank && len(bytes.TrimSpace(head)) > 0
}

// blockParent returns the parent indentation of a block scalar that head
// (a line without its comment) opens, or noBlock.
func blockParent(head []byte, indent int) int {
	f := strings.Fields(string(head))
	if len(f) == 0 || !blockIndicator().MatchString(f[len(f)-1]) {
		return noBlock
	}
	// The node's column: past "- " sequence indicators.
	col, lastDash := indent, -1
	for col < len(head) && head[col] == '-' && (col+1 == len(head) || head[col+1] == ' ' || head[col+1] == '\t') {
		lastDash = col
		col++
		for col < len(head) && (head[col] == ' ' || head[col] == '\t') {
			col++
		}
	}
	k := len(f) - 2
	for k >= 0 && (strings.HasPrefix(f[k], "!") || strings.HasPrefix(f[k], "&")) {
		k-- // tags and anchors before the indicator
	}
	switch {
	case k < 0:
		if lastDash >= 0 {
			return lastDash // "- |"
		}
		return noBlock
	case strings.HasSuffix(f[k], ":"):
		return col // "key: |": content is indented more than the key
	case f[k] == "-":
		return lastDash
	case f[k] == "---" && indent == 0:
		return -1
	}
	return noBlock
}

// scanXML finds the comments of an XML file, skipping CDATA sections,
// processing instructions and the DOCTYPE, and records where <property>
// elements start and end and where the first element inside the root
// starts.
func scanXML(src []byte) *scanned {
	s := newScanned(src)
	s.elems = map[int]int{}
	tags, openProp, i := 0, 0, 0
	if bytes.HasPrefix(src, bom) {
		i = len(bom)
	}
	for i < len(src) {
		j := bytes.IndexByte(src[i:], '<')
		if j < 0 {
			s.markCode(src, i, len(src))
			break
		}
		j += i
		s.markCode(src, i, j)
		rest := src[j:]
		var end int
		switch {
		case bytes.HasPrefix(rest, []byte("<!--")):
			k := bytes.Index(src[j+4:], []byte("-->"))
			if k < 0 {
				s.addComment(comment{start: j, end: len(src), textStart: j + 4, textEnd: len(src)})
				i = len(src)
				continue
			}
			end = j + 4 + k + 3
			s.addComment(comment{start: j, end: end, textStart: j + 4, textEnd: j + 4 + k})
			i = end
			continue
		case bytes.HasPrefix(rest, []byte("<![CDATA[")):
			end = skipPast(src, j, "]]>")
		case bytes.HasPrefix(rest, []byte("<?")):
			end = skipPast(src, j, "?>")
		case bytes.HasPrefix(rest, []byte("<!")):
			end = s.skipDoctype(src, j)
		case bytes.HasPrefix(rest, []byte("</")):
			end = skipPast(src, j, ">")
			if localName(src[j+2:end]) == "property" && openProp > 0 {
				endLine := s.lines.Pos(end - 1).Line
				s.elems[openProp] = max(s.elems[openProp], endLine)
				openProp = 0
			}
		default:
			end = skipTag(src, j)
			tags++
			if tags == 2 {
				s.top = j
			}
			if localName(src[j+1:end]) == "property" {
				line := s.lines.Pos(j).Line
				if bytes.HasSuffix(bytes.TrimRight(src[j:end], " \t\r\n"), []byte("/>")) {
					s.elems[line] = max(s.elems[line], s.lines.Pos(end-1).Line)
				} else {
					openProp = line
				}
			}
		}
		s.markCode(src, j, end)
		i = end
	}
	s.finish(src)
	return s
}

// skipPast returns the offset just after the first occurrence of marker at
// or after from+1, or len(src).
func skipPast(src []byte, from int, marker string) int {
	if k := bytes.Index(src[from+1:], []byte(marker)); k >= 0 {
		return from + 1 + k + len(marker)
	}
	return len(src)
}

// skipDoctype skips <!DOCTYPE ...> with an internal subset in brackets,
// recording the comments of the subset.
func (s *scanned) skipDoctype(src []byte, from int) int {
	depth := 0
	for i := from + 2; i < len(src); i++ {
		switch src[i] {
		case '[':
			depth++
		case ']':
			depth--
		case '<':
			if bytes.HasPrefix(src[i:], []byte("<!--")) {
				end := skipPast(src, i+3, "-->")
				textEnd := max(end-3, i+4)
				if !bytes.HasSuffix(src[:end], []byte("-->")) {
					textEnd = end
				}
				s.addComment(comment{start: i, end: end, textStart: i + 4, textEnd: textEnd})
				i = end - 1
			}
		case '>':
			if depth <= 0 {
				return i + 1
			}
		}
	}
	return len(src)
}

// skipTag skips a start tag, honouring quoted attribute values.
func skipTag(src []byte, from int) int {
	var q byte
	for i := from + 1; i < len(src); i++ {
		c := src[i]
		switch {
		case q != 0:
			if c == q {
				q = 0
			}
		case c == '"' || c == '\'':
			q = c
		case c == '>':
			return i + 1
		}
	}
	return len(src)
}

// localName returns the element name at the start of b, without a prefix.
func localName(b []byte) string {
	n := 0
	for n < len(b) && !isSpace(b[n]) && b[n] != '>' && b[n] != '/' {
		n++
	}
	name := string(b[:n])
	if k := strings.LastIndexByte(name, ':'); k >= 0 {
		name = name[k+1:]
	}
	return name
}
