package hadoopxml

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode/utf16"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/ianaindex"
	"golang.org/x/text/encoding/unicode"

	"github.com/ckptlint/ckptlint/internal/parsed"
)

// Encodings. Hadoop's StAX parser (Woodstox, like the JDK's) detects the
// encoding from a byte-order mark or the first bytes (XML 1.0 appendix F)
// and otherwise follows the encoding declaration
// (TestConfiguration.testCharsetInDocumentEncoding reads an ISO-8859-1
// file). ckptlint decodes UTF-16 (with a byte-order mark, or detected from
// "<?xml" in UTF-16) and the single-byte charsets of golang.org/x/text
// (ISO-8859-*, windows-125*, KOI8, ...) to UTF-8 before reading; positions
// then refer to the decoded text, and the editor maps its edits back to the
// file's bytes and encoding (see transcoded).
//
// A file without a declaration or byte-order mark is UTF-8, as XML says.

// transcoded describes a file read in another encoding than UTF-8.
type transcoded struct {
	name string            // encoding as declared or detected, for messages
	enc  encoding.Encoding // to encode edited text back
	orig []byte            // the file's bytes
	// off maps a byte offset of the decoded text (at a rune boundary) to
	// the offset of the same character in orig; len(text)+1 entries.
	off []int
}

var declEncoding = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^<\?xml[ \t\r\n][^>]*?encoding[ \t\r\n]*=[ \t\r\n]*(?:"([^"]*)"|'([^']*)')`)
})

// Text is the text a parse of src reads and its positions point into: src
// decoded to UTF-8 when it is in UTF-16 or a declared single-byte charset,
// else (also when it cannot be decoded) src itself. The reporters and the
// ignore comments read a file the run does not hold the bytes of (an
// xi:include target, a file of a cached run) through it.
func Text(src []byte) []byte {
	text, _, perr := decodeXML("", src)
	if perr != nil {
		return src
	}
	return text
}

// decodeXML returns the UTF-8 text of src and, for another encoding, how it
// was decoded. A file that cannot be decoded is a ParseError naming the
// encoding. An XML 1.1 document read by one of Woodstox's own readers has
// its line ends made as XML 1.1 says (lineEnds11).
func decodeXML(path string, src []byte) ([]byte, *transcoded, *parsed.ParseError) {
	text, tr, own, perr := decodeCharset(path, src)
	if perr != nil || !own || !isXML11(text) {
		return text, tr, perr
	}
	return lineEnds11(path, src, text, tr)
}

// decodeCharset is decodeXML without the XML 1.1 line ends. own reports a
// text Woodstox decodes with one of its own readers (UTF-8, ISO-8859-1,
// US-ASCII; StreamBootstrapper.initialLoad), which make XML 1.1's line
// ends; UTF-16 and the other charsets go through the JDK's
// InputStreamReader, which does not.
func decodeCharset(path string, src []byte) (text []byte, tr *transcoded, own bool, perr *parsed.ParseError) {
	text, tr, perr = decodeLabel(path, src)
	if perr != nil {
		return nil, nil, false, perr
	}
	switch {
	case tr == nil:
		m := declEncoding().FindSubmatch(src)
		l := ""
		if m != nil {
			l = strings.ToLower(string(m[1]) + string(m[2]))
		}
		own = l == "" || l == "utf-8" || l == "utf8" || l == "us-ascii" || l == "ascii" || ianaISOLatin1(l)
	default:
		own = tr.enc == charmap.ISO8859_1
	}
	return text, tr, own, nil
}

// ianaISOLatin1 reports a label that names ISO-8859-1.
func ianaISOLatin1(l string) bool {
	enc, err := ianaindex.IANA.Encoding(l)
	return err == nil && enc == charmap.ISO8859_1
}

// decodeLabel decodes src by its byte-order mark, its first bytes or its
// declared encoding.
func decodeLabel(path string, src []byte) ([]byte, *transcoded, *parsed.ParseError) {
	at := 0 // where the encoding label starts, for errors
	fail := func(kind parsed.ErrKind, format string, args ...any) *parsed.ParseError {
		return &parsed.ParseError{File: path, Pos: parsed.NewLines(src).Pos(at), Msg: fmt.Sprintf(format, args...), Kind: kind}
	}
	switch {
	case bytes.HasPrefix(src, []byte{0xFE, 0xFF}):
		return decodeUTF16(path, src, 2, true, "UTF-16BE (byte-order mark)")
	case bytes.HasPrefix(src, []byte{0xFF, 0xFE}):
		return decodeUTF16(path, src, 2, false, "UTF-16LE (byte-order mark)")
	case bytes.HasPrefix(src, []byte{0, '<', 0, '?'}):
		return decodeUTF16(path, src, 0, true, "UTF-16BE")
	case bytes.HasPrefix(src, []byte{'<', 0, '?', 0}):
		return decodeUTF16(path, src, 0, false, "UTF-16LE")
	}
	m := declEncoding().FindSubmatchIndex(src)
	if m == nil {
		return src, nil, nil
	}
	label := ""
	if m[2] >= 0 {
		label, at = string(src[m[2]:m[3]]), m[2]
	} else {
		label, at = string(src[m[4]:m[5]]), m[4]
	}
	l := strings.ToLower(label)
	if l == "utf-8" || l == "utf8" || asciiCompatible[l] && isASCII(src) {
		return src, nil, nil
	}
	if strings.HasPrefix(l, "utf-16") || strings.HasPrefix(l, "utf-32") || strings.HasPrefix(l, "ucs") {
		return nil, nil, fail(parsed.ErrXML, "the declaration says encoding %q, but the file starts with single-byte text; save it with a byte-order mark or declare the encoding it is written in", label)
	}
	enc, err := ianaindex.IANA.Encoding(label)
	if err != nil || enc == nil {
		return nil, nil, fail(parsed.ErrEncoding, "encoding %q is not one ckptlint can decode (UTF-8, UTF-16, and the single-byte charsets such as ISO-8859-1 and windows-1252); convert the file to UTF-8", label)
	}
	cm, ok := enc.(*charmap.Charmap)
	if !ok {
		return nil, nil, fail(parsed.ErrEncoding, "encoding %q is a multi-byte charset ckptlint does not decode (it decodes UTF-8, UTF-16 and single-byte charsets such as ISO-8859-1); convert the file to UTF-8", label)
	}
	var b strings.Builder
	b.Grow(len(src))
	off := make([]int, 0, len(src)+1)
	for i, c := range src {
		r := cm.DecodeByte(c)
		n := utf8.RuneLen(r)
		for k := 0; k < n; k++ {
			off = append(off, i)
		}
		b.WriteRune(r)
	}
	off = append(off, len(src))
	return []byte(b.String()), &transcoded{name: label, enc: cm, orig: src, off: off}, nil
}

// decodeUTF16 decodes src after a byte-order mark of bom bytes.
func decodeUTF16(path string, src []byte, bom int, big bool, name string) ([]byte, *transcoded, *parsed.ParseError) {
	if (len(src)-bom)%2 != 0 {
		return nil, nil, &parsed.ParseError{File: path, Pos: parsed.Top(), Kind: parsed.ErrXML,
			Msg: fmt.Sprintf("the file is %s but has an odd number of bytes after the byte-order mark", name)}
	}
	unit := func(i int) uint16 {
		if big {
			return uint16(src[i])<<8 | uint16(src[i+1])
		}
		return uint16(src[i+1])<<8 | uint16(src[i])
	}
	var b strings.Builder
	off := make([]int, 0, len(src))
	for i := bom; i < len(src); {
		u, n := rune(unit(i)), 2
		if utf16.IsSurrogate(u) && i+4 <= len(src) {
			if r := utf16.DecodeRune(u, rune(unit(i+2))); r != utf8.RuneError {
				u, n = r, 4
			}
		}
		if utf16.IsSurrogate(u) {
			// an unpaired surrogate: keep an invalid byte so the XML
			// reader reports it at this position
			off = append(off, i)
			b.WriteByte(0xFF)
			i += n
			continue
		}
		for k := 0; k < utf8.RuneLen(u); k++ {
			off = append(off, i)
		}
		b.WriteRune(u)
		i += n
	}
	off = append(off, len(src))
	e := unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM)
	if big {
		e = unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM)
	}
	return []byte(b.String()), &transcoded{name: name, enc: e, orig: src, off: off}, nil
}

// origEdit maps an edit of the decoded text to the file's bytes: offsets
// through the map, text encoded, with characters the encoding cannot hold
// written as XML character references (&#NNNN;), which Hadoop reads back as
// the same characters.
func (t *transcoded) origEdit(start, end int, text string) (int, int, string, error) {
	if start < 0 || end > len(t.off)-1 || start > end {
		return 0, 0, "", fmt.Errorf("edit [%d,%d) outside the file", start, end)
	}
	enc := encoding.HTMLEscapeUnsupported(t.enc.NewEncoder())
	out, err := enc.String(text)
	if err != nil {
		return 0, 0, "", fmt.Errorf("cannot write %q in %s: %w", text, t.name, err)
	}
	return t.off[start], t.off[end], out, nil
}

// XML 1.1. Woodstox reads versions 1.0 and 1.1 (InputBootstrapper); for a
// 1.1 document its readers (Woodstox 5.4.0 io/UTF8Reader.read,
// io/ISOLatinReader.read) turn NEL (U+0085) and LINE SEPARATOR (U+2028)
// into a line feed, and a carriage return just before U+2028 into one too,
// before the tokenizer sees the text (XML 1.1 §2.11: "#xD #x85" is one line
// end, "#xD #x2028" two); and they refuse a literal DEL and the C1
// controls other than NEL (XML 1.1 §2.2 RestrictedChar: they may occur
// only as character references). encoding/xml reads only version 1.0:
// ckptlint reads a 1.1 file from the text with those line ends made and
// tells encoding/xml it is 1.0 (decoderText), which is what remains of the
// difference between the versions for a configuration file.

// declVersion matches the version of an XML declaration.
var declVersion = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:\xEF\xBB\xBF)?<\?xml[ \t\r\n]+version[ \t\r\n]*=[ \t\r\n]*(?:"([^"]*)"|'([^']*)')`)
})

// isXML11 reports a text that declares XML 1.1.
func isXML11(text []byte) bool {
	_, ok := version11(text)
	return ok
}

// version11 returns the offset of the "1.1" of an XML 1.1 declaration.
func version11(text []byte) (int, bool) {
	m := declVersion().FindSubmatchIndex(text)
	switch {
	case m == nil:
		return 0, false
	case m[2] >= 0 && string(text[m[2]:m[3]]) == "1.1":
		return m[2], true
	case m[4] >= 0 && string(text[m[4]:m[5]]) == "1.1":
		return m[4], true
	}
	return 0, false
}

// decoderText is the text encoding/xml reads: text itself, or for an XML
// 1.1 document a copy that declares version 1.0 (same length, so offsets
// agree). ok is false for a text that is not XML 1.1.
func decoderText(text []byte) ([]byte, bool) {
	at, ok := version11(text)
	if !ok {
		return text, false
	}
	in := slices.Clone(text)
	in[at+2] = '0'
	return in, true
}

// lineEnds11 makes the line ends of XML 1.1 in text (decoded from src as
// tr says, nil for UTF-8) and refuses the characters XML 1.1 allows only as
// references, as Woodstox's readers do.
func lineEnds11(path string, src, text []byte, tr *transcoded) ([]byte, *transcoded, *parsed.ParseError) {
	b := make([]byte, 0, len(text))
	off := make([]int, 0, len(text)+1) // offset in b -> offset in text
	changed, bad, badRune := false, -1, rune(0)
	for i := 0; i < len(text); {
		r, n := utf8.DecodeRune(text[i:])
		switch {
		case r == 0x85 || r == 0x2028:
			if r == 0x2028 && len(b) > 0 && b[len(b)-1] == '\r' {
				b[len(b)-1] = '\n'
			}
			b, off, changed = append(b, '\n'), append(off, i), true
		case (r == 0x7F || r >= 0x80 && r <= 0x9F) && bad < 0:
			bad, badRune = i, r // an offset in text: the error points into the file
			fallthrough
		default:
			b = append(b, text[i:i+n]...)
			for k := 0; k < n; k++ {
				off = append(off, i+k)
			}
		}
		i += n
	}
	off = append(off, len(text))
	if bad >= 0 {
		// A parse that fails holds the file's own bytes (parseFile), so the
		// position is in src, not in b, whose NELs are already line feeds.
		if tr != nil {
			bad = tr.off[bad]
		}
		return nil, nil, &parsed.ParseError{File: path, Pos: parsed.NewLines(src).Pos(bad), Kind: parsed.ErrXML, Msg: fmt.Sprintf(
			"character U+%04X may appear in an XML 1.1 document only as a character reference (&#x%X;, XML 1.1 §2.2); Hadoop's parser refuses it (Woodstox: \"Invalid character 0x%x, can only be included in xml 1.1 using character entities\")",
			badRune, badRune, badRune)}
	}
	if !changed {
		return text, tr, nil
	}
	if tr == nil {
		return b, &transcoded{name: "UTF-8", enc: unicode.UTF8, orig: src, off: off}, nil
	}
	for j, o := range off {
		off[j] = tr.off[o]
	}
	return b, &transcoded{name: tr.name, enc: tr.enc, orig: tr.orig, off: off}, nil
}
