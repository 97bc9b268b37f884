package safetext

import (
	"fmt"
	"io"
	"strconv"
	"unicode/utf8"
)

// A Writer applies the rules of the package comment to everything written
// through it, as a guard over a whole stream: NewWriter for a stream of
// lines (standard error), NewJSONWriter and NewXMLWriter for documents
// printed where a CI log or a terminal reads them. Writes may split a
// rune or a command; Flush writes what an incomplete rune left pending.
type Writer struct {
	w       io.Writer
	mode    mode
	st      lineState
	hist    tail   // the end of what was written
	pending []byte // an incomplete rune at the end of the last write
	out     []byte
}

type mode uint8

const (
	lines mode = iota
	jsonDoc
	xmlDoc
)

// NewWriter guards a stream of lines: each line as Text renders it, but
// newlines and tabs are written as they are, and "::" is broken at the
// start of every line.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w, mode: lines} }

// NewJSONWriter guards a JSON document as encoding/json writes it, where
// these characters occur only inside strings: DEL, the C1 controls,
// U+2028/U+2029 and the bidirectional controls are written \uXXXX, and the
// "[" of "##[" and "##vso[" \u005b. The document decodes to the same data.
func NewJSONWriter(w io.Writer) *Writer { return &Writer{w: w, mode: jsonDoc} }

// NewXMLWriter guards an XML document as encoding/xml writes it, whose
// text may hold line breaks: \r, DEL, the C1 controls, U+2028/U+2029 and
// the bidirectional controls are written as character references
// (&#xD;), and so are the "[" of "##[" and "##vso[" and the second colon of
// a "::" that starts a line. The document parses to the same data (a \r is
// kept, where a literal one would become \n).
func NewXMLWriter(w io.Writer) *Writer { return &Writer{w: w, mode: xmlDoc} }

// Write writes p through the guard. It reports len(p) when every byte
// was handled: what reaches the writer underneath is longer when something
// was escaped.
func (g *Writer) Write(p []byte) (int, error) {
	n := len(p)
	if len(g.pending) > 0 {
		p = append(g.pending, p...)
		g.pending = nil
	}
	g.out = g.out[:0]
	for i := 0; i < len(p); {
		c := p[i]
		if plain := &plainBytes[g.mode]; plain[c] {
			j := i + 1
			for j < len(p) && plain[p[j]] {
				j++
			}
			g.out = append(g.out, p[i:j]...)
			g.pushRun(p[i:j])
			i = j
			continue
		}
		if c == '[' && !g.hist.opensCommand() {
			// What rune does with a "[" that opens nothing, without
			// decoding it: the brackets of every JSON array.
			g.out = append(g.out, c)
			g.push(c)
			i++
			continue
		}
		if c >= utf8.RuneSelf && !utf8.FullRune(p[i:]) {
			g.pending = append([]byte(nil), p[i:]...)
			break
		}
		r, size := utf8.DecodeRune(p[i:])
		g.rune(r, p[i:i+size])
		i += size
	}
	if _, err := g.w.Write(g.out); err != nil {
		return 0, err
	}
	return n, nil
}

// Flush writes the bytes of an incomplete rune left by the last Write, as
// the escapes of invalid UTF-8.
func (g *Writer) Flush() error {
	if len(g.pending) == 0 {
		return nil
	}
	g.out = g.out[:0]
	for _, c := range g.pending {
		g.rune(utf8.RuneError, []byte{c})
	}
	g.pending = nil
	_, err := g.w.Write(g.out)
	return err
}

// special reports whether the byte c may need an escape, or is not ASCII.
func (g *Writer) special(c byte) bool { return !plainBytes[g.mode][c] }

// plainBytes[m][c] is set for an ASCII byte c that mode m writes as it is
// whatever comes before it: printable, not "[" (which opens a workflow
// command after "##"), and not ":" outside JSON (a "::" starts a command
// at the start of a line; encoding/json writes no line a value starts).
// In JSON, whose line state the guard does not follow, a newline and a
// tab are plain too (rune writes them as they are): an indented
// document has one every few dozen bytes.
var plainBytes = func() (t [3][256]bool) {
	for m := range t {
		for c := 0x20; c < 0x7f; c++ {
			t[m][c] = c != '[' && (c != ':' || mode(m) == jsonDoc)
		}
	}
	t[jsonDoc]['\n'], t[jsonDoc]['\t'] = true, true
	return t
}()

// pushRun records a run of ASCII bytes written as they are, none of them
// special: what push does byte by byte, at once. Outside JSON (whose
// line state is not followed) such a run holds no newline and no colon,
// so the line state can only stay at the start of a line (blanks only) or
// move to its middle.
func (g *Writer) pushRun(run []byte) {
	if n := len(run); n >= len(g.hist) {
		copy(g.hist[:], run[n-len(g.hist):])
	} else {
		copy(g.hist[:], g.hist[n:])
		copy(g.hist[len(g.hist)-n:], run)
	}
	if g.mode == jsonDoc || g.st == midLine {
		return
	}
	for _, c := range run {
		if g.st == oneColon || c != ' ' {
			g.st = midLine
			return
		}
	}
}

// push records an ASCII byte written as it is.
func (g *Writer) push(c byte) {
	g.hist.push(c)
	if g.mode != jsonDoc {
		g.st = g.st.next(rune(c))
	}
}

// rune writes one rune (or, as utf8.RuneError, one invalid byte) whose
// bytes are raw.
func (g *Writer) rune(r rune, raw []byte) {
	esc := ""
	switch {
	case r == utf8.RuneError && len(raw) == 1:
		esc = g.escape(rune(raw[0]), true)
	case r == '[' && g.hist.opensCommand():
		esc = g.escape(r, false)
	case r == ':' && g.st == oneColon && g.mode != jsonDoc:
		esc = g.escape(r, false)
	case g.mode == lines && r != '\n' && r != '\t' && !strconv.IsPrint(r):
		esc = g.escape(r, false)
	case g.mode != lines && control(r, g.mode == xmlDoc):
		esc = g.escape(r, false)
	}
	if esc == "" {
		g.out = append(g.out, raw...)
		g.hist.wrote(r)
		if g.mode != jsonDoc {
			g.st = g.st.next(r) // a blank or an ignorable keeps the start of a line
		}
		return
	}
	g.out = append(g.out, esc...)
	g.hist.push(0)
	if g.mode != jsonDoc {
		g.st = midLine
	}
}

// escape is r written in the syntax of the writer's mode; invalid is a
// byte of invalid UTF-8 (which encoding/json and encoding/xml never write).
func (g *Writer) escape(r rune, invalid bool) string {
	switch g.mode {
	case jsonDoc:
		return fmt.Sprintf(`\u%04x`, r)
	case xmlDoc:
		if invalid {
			return "\uFFFD"
		}
		return fmt.Sprintf("&#x%X;", r)
	}
	if invalid {
		return fmt.Sprintf(`\x%02x`, r)
	}
	switch r {
	case '[':
		return `\x5b`
	case ':':
		return `\x3a`
	}
	return escape(r)
}

// control reports whether a JSON or XML document printed to a terminal or
// a CI log must not carry r as it is: DEL, the C1 controls, U+2028/U+2029
// and the bidirectional controls, and in XML \r and the C0 controls but
// tab and newline (encoding/xml writes neither, but text a reporter
// escaped itself may hold \r).
func control(r rune, xml bool) bool {
	switch {
	case r < 0x20:
		return xml && r != '\t' && r != '\n'
	case r == 0x7f, r >= 0x80 && r <= 0x9f, r == 0x2028, r == 0x2029:
		return true
	}
	return bidi(r)
}

// bidi reports whether r is a bidirectional control (Unicode Bidi_Control:
// the characters of "Trojan Source", CVE-2021-42574).
func bidi(r rune) bool {
	return r == 0x061c || r == 0x200e || r == 0x200f || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069)
}
