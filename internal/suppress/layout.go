package suppress

import (
	"bytes"
	"path"
	"strings"

	"github.com/ckptlint/ckptlint/internal/parsed"
)

// Syntax is how a file writes comments, and so how an ignore is written
// in it.
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

// SyntaxOfPath guesses the comment syntax from a file name: .xml is XML,
// flink-conf.yaml the legacy parser, other .yaml/.yml YAML.
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

// layout is what placing an ignore needs of its file, beyond the comments
// its reader found (parsed.Comments): the lines of its text, which of them
// hold something besides comments and white space, and the lines of its
// Hadoop <property> elements.
type layout struct {
	c     *parsed.Comments
	lines *parsed.Lines
	// code[n] is true when 1-based line n holds something besides comments
	// and white space; commented[n] when it holds (part of) a comment.
	code, commented []bool
	// elems maps the line a Hadoop <property> element starts on to the
	// line it ends on (the last, when several start on one line).
	elems map[int]int
	next  []int // see nextCodeLine
}

func newLayout(c *parsed.Comments) *layout {
	l := parsed.NewLines(c.Src)
	s := &layout{c: c, lines: l, code: make([]bool, l.Count()+2), commented: make([]bool, l.Count()+2)}
	from := 0
	for _, cm := range c.List {
		s.markCode(from, cm.Span.Start.Offset)
		first, last := s.commentLines(cm)
		for n := first; n <= last; n++ {
			s.commented[n] = true
		}
		from = cm.Span.End.Offset
	}
	s.markCode(from, len(c.Src))
	if len(c.Elements) > 0 {
		s.elems = make(map[int]int, len(c.Elements))
		for _, e := range c.Elements {
			s.elems[e.Start.Line] = max(s.elems[e.Start.Line], e.End.Line)
		}
	}
	return s
}

// commentLines are the first and last line of a comment.
func (s *layout) commentLines(cm parsed.Comment) (first, last int) {
	return cm.Span.Start.Line, s.lines.Pos(max(cm.Span.End.Offset-1, cm.Span.Start.Offset)).Line
}

// markCode marks the lines of src[from:to], a stretch between comments,
// that hold something besides white space (a leading byte order mark is
// none).
func (s *layout) markCode(from, to int) {
	src := s.c.Src
	for n := s.lines.Pos(from).Line; from < to; n++ {
		end := to
		if j := bytes.IndexByte(src[from:to], '\n'); j >= 0 {
			end = from + j
		}
		seg := src[from:end]
		if from == 0 {
			seg = bytes.TrimPrefix(seg, bom)
		}
		if len(bytes.TrimSpace(seg)) > 0 {
			s.code[n] = true
		}
		from = end + 1
	}
}

// alone reports whether nothing but white space shares the comment's
// first and last lines.
func (s *layout) alone(cm parsed.Comment) bool {
	src := s.c.Src
	start, end := cm.Span.Start.Offset, cm.Span.End.Offset
	ls, le := s.lines.LineStart(cm.Span.Start.Line), lineEnd(src, end)
	before := src[ls:start]
	if ls == 0 {
		before = bytes.TrimPrefix(before, bom)
	}
	return len(bytes.TrimSpace(before)) == 0 && len(bytes.TrimSpace(src[end:le])) == 0
}

// nextCodeLine returns the first line after n that is not a comment-only
// line (blank lines count: an ignore above a blank line covers the blank
// line), or n+1 at the end of the file.
func (s *layout) nextCodeLine(n int) int {
	if s.next == nil {
		// next[m] is the first line at or after m that is not comment-only.
		count := s.lines.Count()
		s.next = make([]int, count+2)
		s.next[count+1] = -1
		for m := count; m >= 1; m-- {
			if s.code[m] || !s.commented[m] {
				s.next[m] = m
			} else {
				s.next[m] = s.next[m+1]
			}
		}
	}
	if n+1 < len(s.next) && s.next[n+1] > 0 {
		return s.next[n+1]
	}
	return n + 1
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
