package flinkconf

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/ckptlint/ckptlint/internal/parsed"
)

var bom = []byte("\xef\xbb\xbf")

// parser holds the state of one Parse call.
type parser struct {
	f     *parsed.File
	src   []byte
	pos   *parsed.Lines
	lines []line
}

// Parse reads src, the content of the flink-conf.yaml at path, as Flink's
// legacy parser does. Every "key: value" line becomes an Entry (Kind
// KindString, value verbatim with quotes kept), in file order with duplicates
// included, so that File.Lookup returns the last one as Flink does. Lines
// Flink skips or misreads become Notices. Flink loads any text file, so the
// only parse errors are a file above parsed.MaxFileSize and a NUL byte (a
// binary file); Entries then holds the lines before the NUL. Comments holds
// the comment of every line read, from its first '#' on.
func Parse(path string, src []byte) *parsed.File {
	f := &parsed.File{Path: path, Format: parsed.FlinkConfLegacy, Src: src}
	if len(src) > parsed.MaxFileSize {
		f.Err = &parsed.ParseError{File: path, Pos: parsed.Top(), Msg: fmt.Sprintf("file is %d bytes; ckptlint reads at most %d", len(src), parsed.MaxFileSize), Kind: parsed.ErrLimit}
		return f
	}
	p := &parser{f: f, src: src, pos: parsed.NewLines(src), lines: splitLines(src)}
	if nul := bytes.IndexByte(src, 0); nul >= 0 {
		f.Err = &parsed.ParseError{File: path, Pos: p.pos.Pos(nul), Msg: "NUL byte: not a text file", Kind: parsed.ErrEncoding}
		n := 0
		for n < len(p.lines) && p.lines[n].end <= nul {
			n++
		}
		p.lines = p.lines[:n]
	}
	for i := range p.lines {
		classify(src, &p.lines[i])
	}
	p.comments()
	p.read()
	p.duplicates()
	p.byteOrderMark()
	sort.SliceStable(f.Notices, func(i, j int) bool {
		return f.Notices[i].Span.Start.Offset < f.Notices[j].Span.Start.Offset
	})
	return f
}

func (p *parser) text(s, e int) string { return string(p.src[s:e]) }

func (p *parser) span(s, e int) parsed.Span { return p.pos.Span(s, e) }

// frame is an open "key:" line whose indented lines follow.
type frame struct {
	indent int
	key    string
}

// read turns the lines into entries and notices. It tracks "key:" lines
// followed by deeper indentation to name the nested key an author meant.
func (p *parser) read() {
	var open []frame
	var sig []*line // lines Flink does not skip silently
	for i := range p.lines {
		if p.lines[i].kind != kindBlank {
			sig = append(sig, &p.lines[i])
		}
	}
	for n, l := range sig {
		for len(open) > 0 && open[len(open)-1].indent >= l.indent() {
			open = open[:len(open)-1]
		}
		parent := make([]string, len(open))
		for i, fr := range open {
			parent[i] = fr.key
		}
		if bytes.Equal(p.src[l.confStart:l.confEnd], bom) {
			continue // a byte order mark alone (before a comment): NoticeBOM covers it
		}
		p.commentCut(l)
		conf := p.span(l.confStart, l.confEnd)
		switch l.kind {
		case kindEntry:
			p.entry(l, parent)
		case kindHeader:
			// The nested key the author meant has no byte order mark.
			key := strings.TrimPrefix(p.text(l.keyStart, l.keyEnd), "\ufeff")
			full := strings.Join(append(parent, key), ".")
			if n+1 < len(sig) && p.opensBlock(l, sig[n+1]) {
				p.notice(NoticeNestedYAML, conf, full,
					"Flink's legacy flink-conf.yaml parser does not read nested YAML: it skips %q and reads the indented keys below it as top-level keys; write each key in full on one line (\"%s.<key>: <value>\")", key+":", full)
				open = append(open, frame{indent: l.indent(), key: key})
			} else {
				p.notice(NoticeEmptyValue, conf, full, "Flink skips %q: the value is empty", full)
			}
		case kindMissingSpace:
			key := p.text(l.keyStart, l.keyEnd)
			colon := bytes.IndexByte(p.src[l.confStart:l.confEnd], ':') + l.confStart
			vs, ve := trim(p.src, colon+1, l.confEnd)
			p.notice(NoticeMissingSpace, conf, key,
				"Flink skips this line, so %q is not set: the legacy parser needs \": \" (a colon and a space) between key and value; write %q", key, key+": "+p.text(vs, ve))
		case kindNoSeparator:
			p.notice(NoticeNoSeparator, conf, "", "Flink skips this line: it has no \": \" between a key and a value")
		case kindEmptyKey:
			p.notice(NoticeEmptyKey, conf, "", "Flink skips this line: the key is empty")
		}
	}
}

// opensBlock reports whether next is indented under the "key:" line l (or is
// a "- item" of a block sequence at the same indentation).
func (p *parser) opensBlock(l, next *line) bool {
	return next.indent() > l.indent() || next.indent() == l.indent() && isSeqItem(p.src, next)
}

// entry records a "key: value" line and what Flink makes of its text.
func (p *parser) entry(l *line, parent []string) {
	key, value := p.text(l.keyStart, l.keyEnd), p.text(l.valStart, l.valEnd)
	e := parsed.Entry{
		Key:       key,
		Value:     value,
		Kind:      parsed.KindString,
		File:      p.f.Path,
		KeySpan:   p.span(l.keyStart, l.keyEnd),
		ValueSpan: p.span(l.valStart, l.valEnd),
	}
	p.f.Entries = append(p.f.Entries, e)
	if len(parent) > 0 {
		full := strings.Join(append(parent, key), ".")
		p.notice(NoticeNestedYAML, e.KeySpan, full,
			"Flink reads this as the top-level key %q, not %q: the legacy flink-conf.yaml parser does not read nested YAML; write %q", key, full, full+": "+value)
	}
	v := p.src[l.valStart:l.valEnd]
	if quoted(p.src[l.keyStart:l.keyEnd]) {
		p.notice(NoticeQuotedKey, e.KeySpan, key, "Flink's legacy parser keeps quotes: the key is %s, quotes included, and matches no option", key)
	}
	if quoted(v) {
		p.notice(NoticeQuotedValue, e.ValueSpan, key, "Flink's legacy parser keeps quotes: %q is set to %s, quotes included; remove them", key, value)
	}
	if enclosed(v, '[', ']') || enclosed(v, '{', '}') {
		p.notice(NoticeYAMLList, e.ValueSpan, key,
			"Flink's legacy parser reads %s literally, not as YAML; in flink-conf.yaml a list is written a;b;c and a map k1:v1,k2:v2", value)
	}
	for _, part := range []parsed.Span{e.KeySpan, e.ValueSpan} {
		if !utf8.Valid(p.src[part.Start.Offset:part.End.Offset]) {
			p.notice(NoticeInvalidUTF8, part, key, "%q holds bytes that are not UTF-8; Flink reads each as U+FFFD", p.text(part.Start.Offset, part.End.Offset))
		}
	}
}

// comments records the comment of every line Flink reads: from its first
// '#' to the end of the line, wherever that '#' is (loadLegacyYAMLResource
// splits each line at it), and where the first line Flink does not skip as
// blank starts (a byte order mark alone before a comment is no key).
func (p *parser) comments() {
	c := &parsed.Comments{File: p.f.Path, Src: p.src, Body: len(p.src)}
	body := false
	for i := range p.lines {
		l := &p.lines[i]
		if !body && l.kind != kindBlank && !bytes.Equal(p.src[l.confStart:l.confEnd], bom) {
			c.Body, body = l.confStart, true
		}
		if l.hash >= 0 {
			c.List = append(c.List, parsed.Comment{Span: p.span(l.hash, l.end), Text: p.span(l.hash+1, l.end)})
		}
	}
	p.f.Comments = c
}

// commentCut records a '#' that cut the line although YAML would not read it
// as a comment: it follows a non-blank character, or it sits inside quotes.
func (p *parser) commentCut(l *line) {
	if l.hash < 0 {
		return
	}
	prev := p.src[l.hash-1] // l.hash > l.start: the line has text before '#'
	afterBlank := prev == ' ' || prev == '\t'
	inQuotes := l.kind == kindEntry && unclosedQuote(p.src[l.valStart:l.valEnd])
	if afterBlank && !inQuotes {
		return
	}
	dropped := p.text(l.hash, l.end)
	if l.kind != kindEntry {
		p.notice(NoticeCommentCut, p.span(l.hash, l.end), "",
			"Flink's legacy parser cuts every line at its first \"#\", even inside quotes or URLs: %q is dropped", dropped)
		return
	}
	key := p.text(l.keyStart, l.keyEnd)
	p.notice(NoticeCommentCut, p.span(l.hash, l.end), key,
		"Flink's legacy parser cuts every line at its first \"#\", even inside quotes or URLs: %q is set to %q and %q is dropped", key, p.text(l.valStart, l.valEnd), dropped)
}

// byteOrderMark records a UTF-8 byte order mark at the start of the file.
// Java's UTF-8 reader keeps it as U+FEFF, which String.trim does not remove.
func (p *parser) byteOrderMark() {
	if !bytes.HasPrefix(p.src, bom) {
		return
	}
	msg := "the file starts with a UTF-8 byte order mark; Java keeps it, so Flink reads it as the first character of line 1"
	key := ""
	if len(p.f.Entries) > 0 && p.f.Entries[0].KeySpan.Start.Offset == 0 {
		key = p.f.Entries[0].Key
		msg += fmt.Sprintf(": the first key is %q, not %q", key, key[len(bom):])
	}
	p.notice(NoticeBOM, p.span(0, len(bom)), key, "%s", msg)
}

// duplicates records every entry that a later entry with the same key
// overrides (Configuration.setString: the last one wins).
func (p *parser) duplicates() {
	last := make(map[string]int, len(p.f.Entries))
	for i, e := range p.f.Entries {
		last[e.Key] = i
	}
	for i, e := range p.f.Entries {
		w := &p.f.Entries[last[e.Key]]
		if last[e.Key] == i {
			continue
		}
		p.notice(NoticeDuplicateKey, parsed.Span{Start: e.KeySpan.Start, End: e.ValueSpan.End}, e.Key,
			"%q is set again on line %d; Flink uses the last value (%q) and ignores this one (%q)", e.Key, w.KeySpan.Start.Line, w.Value, e.Value)
	}
}
