package hadoopxml

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/ckptlint/ckptlint/internal/parsed"
)

// tokKind classifies the tokens the Hadoop emulation cares about.
type tokKind int

const (
	tkStart   tokKind = iota // start tag (self-closing tags give tkStart then a zero-length tkEnd)
	tkEnd                    // end tag
	tkText                   // character data or a CDATA section
	tkComment                // <!-- -->
	tkOther                  // processing instruction, DOCTYPE
)

// tok is one XML token with its byte range [start, end) in the source.
type tok struct {
	kind       tokKind
	start, end int
	local      string   // element local name (tkStart, tkEnd)
	tag        startTag // tkStart only
	text       string   // tkText: decoded text
	cdata      bool     // tkText: a <![CDATA[...]]> section
}

// scanner runs encoding/xml in strict mode over one file and adds the
// well-formedness checks Woodstox (Hadoop's parser) makes and encoding/xml
// does not: one root element, no text outside it, an XML declaration only at
// the start, no duplicate attributes, no undeclared namespace prefixes.
// The root may have any name, as for Hadoop (see NoticeRootElement).
type scanner struct {
	file  string
	src   []byte
	lines *parsed.Lines
	dec   *xml.Decoder

	depth      int
	rootSeen   bool
	rootClosed bool
	prefixes   []map[string]bool // namespace prefixes declared per open element
	badCharset string            // encoding label refused by charsetReader
	decoded    bool              // src was decoded to UTF-8 from the declared encoding
	xml11      bool              // an XML 1.1 document (readFrom)

	dtd     *dtd              // entities of the DOCTYPE internal subset; nil without one
	ents    map[string]string // their expanded text, given to encoding/xml
	dtdFrom int               // offsets of the DOCTYPE
	dtdTo   int

	// last is the offset of the token next read, or of the one that
	// failed.
	last int
}

func newScanner(file string, src []byte, lines *parsed.Lines) *scanner {
	s := &scanner{file: file, src: src, lines: lines}
	s.dec = xml.NewDecoder(bytes.NewReader(src))
	s.dec.Strict = true // never Permissive: undefined entities stay errors
	s.dec.CharsetReader = s.charsetReader
	return s
}

// readFrom makes the decoder read in, src with an XML 1.1 declaration that
// says 1.0 (decoderText; encoding/xml reads only 1.0), for an XML 1.1
// document.
func (s *scanner) readFrom(in []byte) {
	s.dec = xml.NewDecoder(bytes.NewReader(in))
	s.dec.Strict = true
	s.dec.CharsetReader = s.charsetReader
	s.xml11 = true
}

// asciiCompatible lists encodings whose 7-bit range is ASCII; a file that
// declares one of them but contains only ASCII bytes is read as UTF-8
// ("utf8", without the hyphen, is UTF-8 itself).
var asciiCompatible = map[string]bool{
	"us-ascii": true, "ascii": true,
	"iso-8859-1": true, "iso8859-1": true, "latin1": true, "latin-1": true,
	"iso-8859-15": true, "windows-1252": true, "cp1252": true,
}

func (s *scanner) charsetReader(label string, input io.Reader) (io.Reader, error) {
	l := strings.ToLower(label)
	if s.decoded || l == "utf8" || asciiCompatible[l] && isASCII(s.src) {
		return input, nil
	}
	s.badCharset = label
	return nil, errors.New("unsupported encoding")
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

// errAt builds a ParseError at byte offset off: the file is not
// well-formed XML (parsed.ErrXML), or past a limit on entities (the
// messages of the DTD reader, dtd.go and attlist.go, that cite a JDK limit,
// refuse an expansion bomb or a nesting); errKind gives another kind.
func (s *scanner) errAt(off int, format string, args ...any) *parsed.ParseError {
	kind := parsed.ErrXML
	if msg := fmt.Sprintf(format, args...); strings.Contains(msg, "jdk.xml.") || strings.Contains(msg, "entity-expansion bomb") || strings.Contains(msg, "nests more than") {
		kind = parsed.ErrLimit
	}
	return s.errKind(kind, off, format, args...)
}

// errKind is errAt for a ParseError of another kind.
func (s *scanner) errKind(kind parsed.ErrKind, off int, format string, args ...any) *parsed.ParseError {
	return &parsed.ParseError{File: s.file, Pos: s.lines.Pos(off), Msg: fmt.Sprintf(format, args...), Kind: kind}
}

// next returns the next token, io.EOF at a clean end, or a ParseError.
func (s *scanner) next() (tok, *parsed.ParseError, bool) {
	for {
		start := int(s.dec.InputOffset())
		s.last = start
		t, err := s.dec.Token()
		end := int(s.dec.InputOffset())
		if errors.Is(err, io.EOF) {
			if !s.rootSeen {
				return tok{}, s.errAt(len(s.src), "no root element: expected <configuration>"), false
			}
			return tok{}, nil, true
		}
		if err != nil {
			return tok{}, s.convertErr(err, start, end), false
		}
		switch t := t.(type) {
		case xml.StartElement:
			return s.startElement(t, start, end)
		case xml.EndElement:
			s.depth--
			if len(s.prefixes) > 0 {
				s.prefixes = s.prefixes[:len(s.prefixes)-1]
			}
			if s.depth == 0 {
				s.rootClosed = true
			}
			return tok{kind: tkEnd, start: start, end: end, local: t.Name.Local}, nil, false
		case xml.CharData:
			if perr := s.countRefs(start, end); perr != nil {
				return tok{}, perr, false
			}
			if s.depth == 0 {
				if perr := s.outsideText(t, start); perr != nil {
					return tok{}, perr, false
				}
				continue
			}
			return tok{kind: tkText, start: start, end: end, text: string(t),
				cdata: bytes.HasPrefix(s.src[start:], []byte("<![CDATA["))}, nil, false
		case xml.ProcInst:
			if strings.EqualFold(t.Target, "xml") && start != bomLen(s.src) {
				return tok{}, s.errAt(start, "XML declaration allowed only at the start of the document"), false
			}
			return tok{kind: tkOther, start: start, end: end}, nil, false
		case xml.Directive:
			if perr := s.directive(t, start); perr != nil {
				return tok{}, perr, false
			}
			return tok{kind: tkOther, start: start, end: end}, nil, false
		default: // comment
			return tok{kind: tkComment, start: start, end: end}, nil, false
		}
	}
}

func (s *scanner) startElement(t xml.StartElement, start, end int) (tok, *parsed.ParseError, bool) {
	if perr := s.countRefs(start, end); perr != nil {
		return tok{}, perr, false
	}
	if n := len(t.Attr); n > maxAttributes { // before lexing them: encoding/xml has counted
		name := s.src[start+1 : end]
		if i := bytes.IndexAny(name, " \t\r\n/>"); i >= 0 {
			name = name[:i]
		}
		return tok{}, s.errKind(parsed.ErrLimit, start, "start tag <%s> has %d attributes; ckptlint reads up to %d on one element (the JDK's jdk.xml.elementAttributeLimit default; Hadoop's Woodstox parser refuses more than about 1,000)",
			name, n, maxAttributes), false
	}
	st := lexStartTag(s.src, start, end, s.ents)
	if s.depth == 0 {
		if s.rootClosed {
			return tok{}, s.errAt(start, "second root element <%s> after the end of <configuration>; a configuration file has one root element", qname(st.prefix, st.local)), false
		}
		s.rootSeen = true
	}
	var declared map[string]bool // nil unless the tag declares a prefix
	// One pass with a set of the names seen: comparing each attribute with
	// every earlier one took 22-39 s for 40,000 xmlns attributes (issue 25).
	var seen map[attrName]bool
	if len(st.attrs) > 1 {
		seen = make(map[attrName]bool, len(st.attrs))
	}
	for _, a := range st.attrs {
		if n := (attrName{a.prefix, a.local}); seen != nil {
			if seen[n] {
				return tok{}, s.errAt(a.valStart, "duplicate attribute %q", qname(a.prefix, a.local)), false
			}
			seen[n] = true
		}
		if a.prefix == "xmlns" {
			if declared == nil {
				declared = map[string]bool{}
			}
			declared[a.local] = true
		}
	}
	s.prefixes = append(s.prefixes, declared)
	if p := st.prefix; !s.prefixDeclared(p) {
		return tok{}, s.errAt(start, "undeclared namespace prefix %q in <%s>", p, qname(st.prefix, st.local)), false
	}
	for _, a := range st.attrs {
		if !s.prefixDeclared(a.prefix) {
			return tok{}, s.errAt(a.valStart, "undeclared namespace prefix %q in attribute %q", a.prefix, qname(a.prefix, a.local)), false
		}
	}
	s.depth++
	return tok{kind: tkStart, start: start, end: end, local: t.Name.Local, tag: st}, nil, false
}

// maxAttributes bounds the attributes of one start tag: the JDK's
// jdk.xml.elementAttributeLimit default of 10,000 (JAXP processing limits,
// since 7u45 and 8). Hadoop reads its files with Woodstox, whose
// ReaderConfig.DEFAULT_MAX_ATTRIBUTES_PER_ELEMENT is 1,000 (woodstox-core
// 5.0.3; it counts namespace declarations too and is enforced loosely), so
// a tag ckptlint refuses Hadoop refuses as well. A Hadoop configuration
// needs at most the three of <property name= value= final=>.
const maxAttributes = 10000

// attrName is an attribute's qualified name, a map key that needs no
// concatenation.
type attrName struct{ prefix, local string }

func (s *scanner) prefixDeclared(p string) bool {
	if p == "" || p == "xml" || p == "xmlns" {
		return true
	}
	for i := len(s.prefixes) - 1; i >= 0; i-- {
		if s.prefixes[i][p] {
			return true
		}
	}
	return false
}

// outsideText accepts white space (and a leading byte-order mark) before or
// after the root element and refuses anything else, as XML requires.
func (s *scanner) outsideText(t xml.CharData, start int) *parsed.ParseError {
	txt := []byte(t)
	if start == 0 {
		txt = bytes.TrimPrefix(txt, []byte("\uFEFF"))
	}
	i := 0
	for i < len(txt) && isXMLSpace(txt[i]) {
		i++
	}
	if i == len(txt) {
		return nil
	}
	off := start + (len(t) - len(txt)) + i
	where := "before"
	if s.rootClosed {
		where = "after"
	}
	return s.errAt(off, "text %s the root element; expected only white space, comments or processing instructions", where)
}

// convertErr turns an encoding/xml error into a ParseError at the most useful
// offset: the start of a mismatched end tag, the '&' of a bad entity
// reference, or where the decoder stopped.
func (s *scanner) convertErr(err error, start, end int) *parsed.ParseError {
	if s.badCharset != "" {
		off := bytes.Index(s.src[:min(len(s.src), 200)], []byte("encoding"))
		return s.errKind(parsed.ErrEncoding, max(off, 0), "encoding %q is not supported: ckptlint reads UTF-8 files (and pure-ASCII files that declare an ASCII-compatible encoding); convert the file to UTF-8", s.badCharset)
	}
	var se *xml.SyntaxError
	if !errors.As(err, &se) {
		return s.errAt(end, "%s", strings.TrimPrefix(err.Error(), "xml: "))
	}
	off := end
	switch {
	case strings.Contains(se.Msg, "closed by") || strings.HasPrefix(se.Msg, "unexpected end element"):
		off = start
	case strings.HasPrefix(se.Msg, "invalid character entity"):
		if i := bytes.LastIndexByte(s.src[start:min(end, len(s.src))], '&'); i >= 0 {
			off = start + i
		}
	case se.Msg == "invalid UTF-8":
		for i := start; i < min(end+1, len(s.src)); {
			r, n := utf8.DecodeRune(s.src[i:])
			if r == utf8.RuneError && n <= 1 {
				off = i
				break
			}
			i += n
		}
	case strings.HasPrefix(se.Msg, `invalid sequence "--"`):
		if i := bytes.Index(s.src[min(start+4, end):end], []byte("--")); i >= 0 {
			off = min(start+4, end) + i
		}
	}
	msg := se.Msg
	if strings.HasPrefix(msg, "invalid character entity") {
		msg += " (not declared in the file's DOCTYPE)"
	}
	if s.xml11 && strings.HasPrefix(msg, "illegal character code U+00") {
		// XML 1.1 §2.2 allows &#x1; to &#x1F; as references; encoding/xml
		// reads no control character (docs/input.md)
		msg += " (XML 1.1 allows it as a character reference, but ckptlint reads control characters in no version of XML)"
	}
	pos := s.lines.Pos(off)
	return &parsed.ParseError{File: s.file, Pos: pos, Msg: fmt.Sprintf("XML syntax error on line %d: %s", pos.Line, msg), Kind: parsed.ErrXML}
}

func bomLen(src []byte) int {
	if bytes.HasPrefix(src, []byte("\uFEFF")) {
		return 3
	}
	return 0
}

func qname(prefix, local string) string {
	if prefix == "" {
		return local
	}
	return prefix + ":" + local
}

// directive reads a <!DOCTYPE ...> internal subset: internal general
// entities are expanded (within the JDK's limits, see dtd.go) and handed to
// encoding/xml; external ones are never opened and stand for an unknown
// value; internal parameter entities are expanded between declarations,
// external ones never fetched (see includePE and paramNotice).
func (s *scanner) directive(t xml.Directive, start int) *parsed.ParseError {
	text := string(t)
	if !strings.HasPrefix(text, "DOCTYPE") {
		return nil
	}
	if s.dtd != nil {
		return s.errAt(start, "second DOCTYPE; a document has at most one")
	}
	d, off, msg := parseDoctype(text, start+2)
	if msg != "" {
		return s.errAt(off, "%s", msg)
	}
	s.dtdFrom, s.dtdTo = start, start+2+len(text)+1
	s.dtd, s.ents = d, map[string]string{}
	names := make([]string, 0, len(d.decls))
	for n := range d.decls {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		decl := d.decls[n]
		if decl.external != "" {
			if bytes.Contains(s.src, []byte(externalMark)) {
				return s.errKind(parsed.ErrLimit, decl.off, "the file declares an external entity and contains U+FDD0, which ckptlint uses to mark one")
			}
			s.ents[n] = externalMark + n + externalEnd
			continue
		}
		v, err := d.expand(n, 0, nil)
		if err != nil {
			return s.errAt(decl.off, "%s", err.Error())
		}
		s.ents[n] = v
	}
	s.dec.Entity = s.ents
	return nil
}

// countRefs counts the declared entities referenced in src[start:end]
// against the expansion limits (one reference of an entity costs what its
// expansion cost).
func (s *scanner) countRefs(start, end int) *parsed.ParseError {
	if s.dtd == nil || len(s.ents) == 0 {
		return nil
	}
	raw := s.src[start:min(end, len(s.src))]
	for i := 0; i < len(raw); i++ {
		if raw[i] != '&' {
			continue
		}
		j := bytes.IndexByte(raw[i:], ';')
		if j < 0 {
			break
		}
		v, ok := s.ents[string(raw[i+1:i+j])]
		if !ok {
			continue
		}
		s.dtd.expansions++
		s.dtd.total += len(v)
		if s.dtd.expansions > maxEntityExpansions {
			return s.errKind(parsed.ErrLimit, start+i, "more than %d entity expansions (the JDK 24+ default of jdk.xml.entityExpansionLimit); refusing a possible entity-expansion bomb", maxEntityExpansions)
		}
		if s.dtd.total > maxTotalEntitySize {
			return s.errKind(parsed.ErrLimit, start+i, "entity expansions total more than %d bytes (the JDK's jdk.xml.totalEntitySizeLimit); refusing a possible entity-expansion bomb", maxTotalEntitySize)
		}
	}
	return nil
}
