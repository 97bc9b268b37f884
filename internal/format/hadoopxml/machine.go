package hadoopxml

import (
	"fmt"
	"strings"

	"github.com/ckptlint/ckptlint/internal/parsed"
)

// item is one property definition as Hadoop's Configuration.Parser hands it
// to loadProperty (a ParsedItem), plus where it was written.
type item struct {
	file    string  // path of the file the definition is written in
	key     string  // effective key (deprecated names mapped)
	written string  // the deprecated name as written; "" otherwise
	value   *string // nil: no value (empty or missing <value>)
	final   bool
	unknown string // why the value is unknown (an external entity); "" otherwise
	sources []string
	keySpan parsed.Span
	// valueSpan is the content of the <value> that set the value, or of the
	// last <value> element when there is no value; zero without any.
	valueSpan parsed.Span
	propSpan  parsed.Span
	prop      int // index into Doc.Properties; -1 for included files
}

// openElem is an element whose end tag has not been seen yet.
type openElem struct {
	local       string
	start, end  int // the start tag
	selfClosing bool
}

// propState holds the positions of the property being read; Hadoop resets
// its own state at every <property> start and so do we.
type propState struct {
	nameSpan, valueSpan, lastValue, valueElem, finalSpan parsed.Span
	finalText                                            string
	finalSet, compact                                    bool
	cdata                                                []cdataNote
	// valueOther is the <value> text under the other CDATA reading (with
	// CDATA when the file is read without, and the reverse); nil for none.
	valueOther *string
}

type cdataNote struct {
	elem string
	sp   parsed.Span
}

// fileParser is Hadoop's Configuration.Parser for one file (a new one per
// xi:include, as in Hadoop). Elements are matched by local name wherever
// they occur, and the text of name/value/final/source/tag is accumulated in
// one token that only a new start of those elements resets, exactly as the
// StAX loop does.
type fileParser struct {
	p     *parser
	path  string
	src   []byte
	lines *parsed.Lines
	top   bool
	sc    *scanner

	token           strings.Builder
	tokenPlain      strings.Builder // token without CDATA text
	parseToken      bool
	tokenCDATA      []parsed.Span
	name, value     *string
	final           bool
	sources         []string
	include         *string
	includeAt       int
	fallbackAllowed bool
	fallbackEntered bool

	cur   propState
	elems []openElem
	props []int // open <property> elements (indices into Doc.Properties)
	// comments are this file's comments, <property> elements and body
	// (comments.go).
	comments *parsed.Comments
}

func (fp *fileParser) sp(start, end int) parsed.Span { return fp.lines.Span(start, end) }

func (fp *fileParser) notice(code string, sp parsed.Span, key, format string, args ...any) {
	fp.p.notices = append(fp.p.notices, parsed.Notice{
		Code: code, Message: fmt.Sprintf(format, args...), File: fp.path, Span: sp, Key: key,
	})
}

func (fp *fileParser) onStart(t tok) *parsed.ParseError {
	if fp.top && len(fp.elems) == 0 {
		fp.p.doc.Root.Start = fp.lines.Pos(t.start)
	}
	if len(fp.elems) == 0 && t.local != "configuration" {
		// Hadoop 3.4.1 Configuration.Parser.handleStartElement (L3240-3265)
		// matches elements by local name and never checks the root; the
		// DOM reader before 2.9 (2.6.5 Configuration.loadResource
		// L2526-2527) logs FATAL and reads the root's properties too.
		fp.notice(NoticeRootElement, fp.sp(t.start, t.end), "",
			"root element is <%s>, not <configuration>; Hadoop reads the <property> elements inside it all the same (Hadoop 2.9+ and 3.x without a word, earlier releases after logging FATAL \"bad conf file: top-level element not <configuration>\")",
			qname(t.tag.prefix, t.local))
	}
	if fp.sc.dtd != nil && len(fp.sc.dtd.attlists) > 0 {
		if perr := fp.applyAttDefaults(&t); perr != nil {
			return perr
		}
	}
	fp.elems = append(fp.elems, openElem{local: t.local, start: t.start, end: t.end, selfClosing: t.tag.selfClosing})
	switch t.local {
	case "property":
		// Stop early: every property costs memory far beyond its bytes
		// (the lint package refuses a file over the limit anyway).
		if fp.p.nprops++; fp.p.nprops > parsed.MaxEntries {
			return fp.sc.errKind(parsed.ErrLimit, t.start, "more than %d properties; ckptlint reads configuration files of up to %d keys", parsed.MaxEntries, parsed.MaxEntries)
		}
		fp.startProperty(t)
	case "name", "value", "final", "source", "tag":
		fp.parseToken = true
		fp.token.Reset()
		fp.tokenPlain.Reset()
		fp.tokenCDATA = nil
	case "include":
		return fp.startInclude(t)
	case "fallback":
		fp.fallbackEntered = true
	}
	return nil
}

// startProperty resets the property state and reads the attribute form
// <property name=".." value=".." final="true" source=".." tag=".."/>. As in
// Hadoop, the name attribute is not trimmed and value="" is an empty value,
// not a missing one.
func (fp *fileParser) startProperty(t tok) {
	fp.name, fp.value, fp.final, fp.sources = nil, nil, false, nil
	fp.cur = propState{}
	for _, a := range t.tag.attrs {
		if a.prefix == "xmlns" || (a.prefix == "" && a.local == "xmlns") {
			continue
		}
		asp := fp.sp(a.valStart, a.valEnd)
		if a.defaulted {
			// from the DTD: not in the tag, so an editor finds nothing to
			// splice (a value written into the file overrides it); notices
			// point at the start tag
			asp = fp.sp(t.start, t.end)
		}
		switch a.local {
		case "name":
			v := a.value
			fp.name = &v
			if !a.defaulted {
				fp.cur.nameSpan, fp.cur.compact = asp, true
			}
		case "value":
			v := a.value
			fp.value = &v
			if !a.defaulted {
				fp.cur.valueSpan, fp.cur.compact = asp, true
			}
		case "final":
			fp.final = a.value == "true"
			fp.cur.finalSpan, fp.cur.finalText, fp.cur.finalSet = asp, a.value, true
		case "source":
			fp.sources = append(fp.sources, a.value)
		}
	}
	if fp.top {
		fp.p.doc.Properties = append(fp.p.doc.Properties, Property{Index: -1, Span: parsed.Span{Start: fp.lines.Pos(t.start)}})
		fp.props = append(fp.props, len(fp.p.doc.Properties)-1)
	}
}

func (fp *fileParser) onText(t tok) {
	if !fp.parseToken {
		return
	}
	if t.cdata {
		fp.tokenCDATA = append(fp.tokenCDATA, fp.sp(t.start, t.end))
		fp.token.WriteString(t.text)
		return
	}
	fp.token.WriteString(t.text)
	fp.tokenPlain.WriteString(t.text)
}

// tokenText is the element text as this file is read: with or without
// CDATA sections (Options.IgnoreCDATA), and the text under the other
// reading.
func (fp *fileParser) tokenText() (text, other string) {
	if fp.p.opts.IgnoreCDATA {
		return fp.tokenPlain.String(), fp.token.String()
	}
	return fp.token.String(), fp.tokenPlain.String()
}

func (fp *fileParser) onEnd(t tok) *parsed.ParseError {
	e := fp.elems[len(fp.elems)-1]
	fp.elems = fp.elems[:len(fp.elems)-1]
	content := fp.sp(e.end, t.start)
	if e.selfClosing {
		content = fp.sp(e.end-2, e.end-2) // before "/>"
	}
	tokenStr, otherStr := fp.tokenText()
	switch t.local {
	case "name":
		if tokenStr != "" {
			v := javaTrim(tokenStr)
			fp.name, fp.cur.nameSpan = &v, content
		}
		fp.noteCDATA("name")
	case "value":
		fp.cur.valueElem, fp.cur.lastValue = fp.sp(e.start, t.end), content
		if tokenStr != "" {
			v := tokenStr
			fp.value, fp.cur.valueSpan = &v, content
		}
		if len(fp.tokenCDATA) > 0 {
			fp.cur.valueOther = nil
			if otherStr != "" {
				o := otherStr
				fp.cur.valueOther = &o
			}
		}
		fp.noteCDATA("value")
	case "final":
		fp.final = tokenStr == "true"
		fp.cur.finalSpan, fp.cur.finalText, fp.cur.finalSet = content, tokenStr, true
		fp.noteCDATA("final")
	case "source":
		fp.sources = append(fp.sources, tokenStr)
		fp.noteCDATA("source")
	case "include":
		if fp.fallbackAllowed && !fp.fallbackEntered {
			return fp.sc.errKind(parsed.ErrInclude, fp.includeAt, "Fetch fail on include for '%s' with no fallback while loading '%s'", deref(fp.include), fp.p.top)
		}
		fp.fallbackAllowed, fp.fallbackEntered = false, false
	case "property":
		fp.comments.Elements = append(fp.comments.Elements, fp.sp(e.start, t.end))
		fp.endProperty(e, t)
	}
	if fp.top && len(fp.elems) == 0 {
		fp.p.doc.Root.End = fp.lines.Pos(t.end)
		if !e.selfClosing {
			fp.p.doc.CloseTag = fp.sp(t.start, t.end)
		}
	}
	return nil
}

func (fp *fileParser) noteCDATA(elem string) {
	for _, sp := range fp.tokenCDATA {
		fp.cur.cdata = append(fp.cur.cdata, cdataNote{elem: elem, sp: sp})
	}
	fp.tokenCDATA = nil
}

// endProperty is Hadoop's handleEndProperty: a property without a name, or
// inside the <xi:fallback> of an include that was found, is dropped.
func (fp *fileParser) endProperty(e openElem, t tok) {
	whole := fp.sp(e.start, t.end)
	pidx := -1
	if fp.top && len(fp.props) > 0 {
		pidx = fp.props[len(fp.props)-1]
		fp.props = fp.props[:len(fp.props)-1]
		pr := &fp.p.doc.Properties[pidx]
		pr.Span = whole
		pr.NameSpan, pr.FinalSpan, pr.ValueElem, pr.Compact = fp.cur.nameSpan, fp.cur.finalSpan, fp.cur.valueElem, fp.cur.compact
		pr.ValueSpan = fp.cur.valueSpan
		if fp.value == nil {
			pr.ValueSpan = fp.cur.lastValue
		}
	}
	if !fp.fallbackAllowed && fp.fallbackEntered {
		return // fallback of an include that was read (or not followed)
	}
	if fp.name == nil {
		fp.notice(NoticeNoName, whole, "", "<property> has no <name>; Hadoop ignores it")
		return
	}
	key, written := *fp.name, ""
	if key == "" {
		fp.notice(NoticeNoName, whole, "", "<property> has an empty name; Hadoop stores it under the empty key, which nothing reads")
	}
	if nk, ok := Deprecated(key); ok {
		fp.notice(NoticeDeprecatedKey, fp.cur.nameSpan, nk, "%s", deprecationMessage(key, nk))
		key, written = nk, key
	}
	if fp.cur.finalSet && !fp.final && strings.EqualFold(strings.TrimSpace(fp.cur.finalText), "true") {
		fp.notice(NoticeFinalNotTrue, fp.cur.finalSpan, key, "final is %q, not exactly \"true\"; Hadoop does not make %q final", fp.cur.finalText, key)
	}
	fp.cdataNotices(key)
	unknown := fp.externalRefs(key)
	vsp := fp.cur.valueSpan
	if fp.value == nil {
		vsp = fp.cur.lastValue
	}
	fp.p.items = append(fp.p.items, &item{
		file: fp.path, key: key, written: written, value: fp.value, final: fp.final, unknown: unknown,
		sources: fp.sources, keySpan: fp.cur.nameSpan, valueSpan: vsp, propSpan: whole, prop: pidx,
	})
}

// javaTrim is Java's String.trim: it strips every char <= U+0020.
func javaTrim(s string) string {
	return strings.TrimFunc(s, func(r rune) bool { return r <= ' ' })
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// CDATAIgnored reports whether Hadoop release v (major, minor, patch)
// drops CDATA sections from names and values. Configuration.Parser (the StAX
// loop of HADOOP-14216, committed to trunk and branch-2: 2.9.0 and 3.0.0)
// first appended only CHARACTERS events (Parser.parseNext in the 3.1.3 and
// 3.2.1 sources); HADOOP-16749 ("Configuration parsing of CDATA values are
// blank") made it append CDATA events too (TestConfiguration.testCDATA,
// present in 3.4.1). Hadoop's release changelogs
// (hadoop-common-project/hadoop-common/src/site/markdown/release/<v>/CHANGELOG.<v>.md)
// list HADOOP-16749 in 2.10.1, 3.1.4, 3.2.2 and 3.3.0, the first release of
// each line with it (3.4.0 was branched from trunk after it); on the 2.9
// line it is listed only for 2.9.3, which was never released. Releases
// before 2.9 parse with DOM and read a CDATA value.
func CDATAIgnored(major, minor, patch int) bool {
	switch {
	case major == 2:
		return minor == 9 || minor == 10 && patch < 1
	case major == 3:
		return minor == 0 || minor == 1 && patch < 4 || minor == 2 && patch < 2
	}
	return false
}

// cdataNotices reports the CDATA sections of the property just read, with
// the text the other Hadoop reading gives.
func (fp *fileParser) cdataNotices(key string) {
	for _, c := range fp.cur.cdata {
		if c.elem != "value" {
			if fp.p.opts.IgnoreCDATA {
				fp.notice(NoticeCDATAIgnored, c.sp, key, "%s ignore CDATA sections in <%s> of %q", cdataIgnoringLines, c.elem, key)
			} else {
				fp.notice(NoticeCDATA, c.sp, key, "<%s> of %q holds a CDATA section, which %s ignore", c.elem, key, cdataIgnoringLines)
			}
			continue
		}
		got, other := "no value", "no value"
		if fp.value != nil {
			got = fmt.Sprintf("%q", *fp.value)
		}
		if fp.cur.valueOther != nil {
			other = fmt.Sprintf("%q", *fp.cur.valueOther)
		}
		if fp.p.opts.IgnoreCDATA {
			fp.notice(NoticeCDATAIgnored, c.sp, key, "%s ignore CDATA sections in <value>: %q reads as %s (releases that read CDATA: %s)", cdataIgnoringLines, key, got, other)
		} else {
			fp.notice(NoticeCDATA, c.sp, key, "%q reads as %s with CDATA, as Hadoop 2.10.1+, 3.1.4+, 3.2.2+ and 3.3+ read it; %s ignore CDATA sections and read %s", key, got, cdataIgnoringLines, other)
		}
	}
}

const cdataIgnoringLines = "Hadoop 2.9.0-2.10.0, 3.0.x, 3.1.0-3.1.3 and 3.2.0-3.2.1"

// externalRefs restores the external entity references in the property's
// name and value and says why the value is unknown; "" when there are none.
func (fp *fileParser) externalRefs(key string) string {
	if fp.value == nil || !strings.Contains(*fp.value, externalMark) {
		return ""
	}
	var targets []string
	v := restoreExternal(*fp.value, func(name string) {
		if d := fp.sc.dtd; d != nil && d.decls[name] != nil {
			targets = append(targets, d.decls[name].external)
		}
	})
	fp.value = &v
	why := fmt.Sprintf("ckptlint does not resolve external entities; Hadoop would read %s", strings.Join(targets, ", "))
	fp.notice(NoticeExternalEntity, fp.cur.valueSpan, key, "%q: %s, so its value is unknown", key, why)
	return why
}

// restoreExternal replaces each external-entity mark in s by "&name;".
func restoreExternal(s string, seen func(name string)) string {
	var b strings.Builder
	for {
		i := strings.Index(s, externalMark)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		j := strings.Index(s[i:], externalEnd)
		if j < 0 {
			b.WriteString(s)
			return b.String()
		}
		name := s[i+len(externalMark) : i+j]
		seen(name)
		b.WriteString(s[:i] + "&" + name + ";")
		s = s[i+j+len(externalEnd):]
	}
}
