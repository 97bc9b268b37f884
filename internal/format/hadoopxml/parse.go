package hadoopxml

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/ckptlint/ckptlint/internal/parsed"
)

// Parse reads a core-site.xml or hdfs-site.xml file as Hadoop's
// Configuration would and returns its entries. The format comes from the
// base name (see Detect; other names count as core-site unless they contain
// "hdfs-site"). Parse never fails: a file Hadoop or ckptlint cannot load is
// returned with File.Err set and the entries read before the error.
func Parse(path string, src []byte, opts Options) *parsed.File {
	return ParseDoc(path, src, opts).File
}

// ParseDoc is Parse plus the layout editors need (property element spans,
// the insertion point before </configuration>, indentation).
func ParseDoc(path string, src []byte, opts Options) *Doc {
	f := &parsed.File{Path: path, Format: formatFor(path), Src: src}
	doc := &Doc{File: f, InsertOffset: -1, Indent: "  ", Newline: newline(src)}
	p := &parser{opts: opts, top: path, doc: doc, stack: []string{path}}
	perr := p.parseFile(path, src, true)
	doc.Newline = newline(doc.Src)
	p.load()
	p.substitute()
	f.Includes = p.includes
	f.IncludeComments = p.incComments
	f.Notices = p.sortedNotices()
	if perr != nil {
		f.Err = perr
		doc.Root, doc.CloseTag = parsed.Span{}, parsed.Span{}
		// keep only the <property> elements that were closed before the error
		doc.Properties = slices.DeleteFunc(doc.Properties, func(pr Property) bool { return pr.Span.End.IsZero() })
		return doc
	}
	doc.layout()
	return doc
}

// parser holds the state shared by the top-level file and its includes.
type parser struct {
	opts     Options
	top      string // path of the file given to Parse (Hadoop's resource name)
	doc      *Doc
	items    []*item
	notices  []parsed.Notice
	includes []string
	stack    []string // include chain, top-level file first
	nprops   int      // <property> elements seen, includes too
	// incComments are the comments of the includes read, each once.
	incComments []*parsed.Comments
}

// parseFile scans one file (the top-level one or an include) and appends its
// property definitions to p.items.
func (p *parser) parseFile(path string, src []byte, top bool) *parsed.ParseError {
	lines := parsed.NewLines(src)
	if len(src) > parsed.MaxFileSize {
		return &parsed.ParseError{File: path, Pos: lines.Pos(0),
			Msg: fmt.Sprintf("file is %d bytes, larger than the %d-byte limit", len(src), parsed.MaxFileSize), Kind: parsed.ErrLimit}
	}
	text, tr, perr := decodeXML(path, src)
	if perr != nil {
		return perr
	}
	if tr != nil {
		src, lines = text, parsed.NewLines(text)
	}
	if top {
		p.doc.Src, p.doc.trans = src, tr
	}
	sc := newScanner(path, src, lines)
	sc.decoded = tr != nil
	if in, xml11 := decoderText(src); xml11 {
		sc.readFrom(in)
	}
	fp := &fileParser{p: p, path: path, src: src, lines: lines, top: top, sc: sc,
		comments: &parsed.Comments{File: path, Src: src, Body: len(src)}}
	defer p.keepComments(fp.comments, top)
	defer fp.paramNotice()
	defer fp.attDefaultNotices()
	for starts := 0; ; {
		t, perr, eof := fp.sc.next()
		if perr != nil {
			fp.unterminatedComment()
			return perr
		}
		if eof {
			return nil
		}
		switch t.kind {
		case tkStart:
			if starts++; starts == 2 {
				fp.comments.Body = t.start // the first element inside the root
			}
			perr = fp.onStart(t)
		case tkEnd:
			perr = fp.onEnd(t)
		case tkText:
			fp.onText(t)
		case tkComment:
			fp.comment(t.start, t.end, t.end-len("-->"))
		case tkOther:
			fp.directiveComments(t)
		}
		if perr != nil {
			return perr
		}
	}
}

func (p *parser) notice(file, code string, sp parsed.Span, key, format string, args ...any) {
	p.notices = append(p.notices, parsed.Notice{Code: code, Message: fmt.Sprintf(format, args...), File: file, Span: sp, Key: key})
}

// sortedNotices orders notices by file (the top-level file first, then
// includes in reading order) and position.
func (p *parser) sortedNotices() []parsed.Notice {
	rank := map[string]int{p.top: 0}
	for i, inc := range p.includes {
		if _, ok := rank[inc]; !ok {
			rank[inc] = i + 1
		}
	}
	slices.SortStableFunc(p.notices, func(a, b parsed.Notice) int {
		return cmp.Or(cmp.Compare(rank[a.File], rank[b.File]), cmp.Compare(a.Span.Start.Offset, b.Span.Start.Offset))
	})
	return p.notices
}

func (it *item) keySpanOr() parsed.Span {
	if it.keySpan.IsZero() {
		return it.propSpan
	}
	return it.keySpan
}

func (it *item) valueSpanOr() parsed.Span {
	if it.valueSpan.IsZero() {
		return it.propSpan
	}
	return it.valueSpan
}

// layout fills the editor fields of a file that parsed.
func (d *Doc) layout() {
	src := d.Src
	lines := parsed.NewLines(src)
	if !d.CloseTag.IsZero() {
		off := d.CloseTag.Start.Offset
		ls := lines.LineStart(d.CloseTag.Start.Line)
		d.InsertOffset = off
		if isBlank(src[ls:off]) {
			d.InsertOffset = ls
		}
	}
	counts := map[string]int{}
	best, bestN := "", 0
	for i := range d.Properties {
		pr := &d.Properties[i]
		pr.DeleteSpan = pr.Span
		ls := lines.LineStart(pr.Span.Start.Line)
		if !isBlank(src[ls:pr.Span.Start.Offset]) {
			continue
		}
		indent := string(src[ls:pr.Span.Start.Offset])
		counts[indent]++
		if counts[indent] > bestN {
			best, bestN = indent, counts[indent]
		}
		end := pr.Span.End.Offset
		le := end
		for le < len(src) && (src[le] == ' ' || src[le] == '\t' || src[le] == '\r') {
			le++
		}
		if le < len(src) && src[le] == '\n' {
			pr.DeleteSpan = lines.Span(ls, le+1)
		} else if le == len(src) {
			pr.DeleteSpan = lines.Span(ls, le)
		}
	}
	if bestN > 0 {
		d.Indent = best
	}
}

func isBlank(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' {
			return false
		}
	}
	return true
}

func newline(src []byte) string {
	if i := bytes.IndexByte(src, '\n'); i > 0 && src[i-1] == '\r' {
		return "\r\n"
	}
	return "\n"
}

// paramNotice notes the parameter entity references of a DOCTYPE that
// ckptlint did not expand: external ones, which Hadoop's parser would fetch
// and ckptlint never does, and undeclared ones. Declarations they would add
// are unknown to it. Internal parameter entities are expanded (dtd.go).
func (fp *fileParser) paramNotice() {
	d := fp.sc.dtd
	if d == nil || len(d.paramRefs) == 0 {
		return
	}
	fp.notice(NoticeParamEntity, fp.sp(fp.sc.dtdFrom, min(fp.sc.dtdTo, len(fp.src))), "",
		"the DOCTYPE uses parameter entities %s; ckptlint does not resolve external entities, so declarations they hold are unknown to it",
		strings.Join(d.paramRefs, ", "))
}
