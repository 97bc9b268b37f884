// Package safetext renders untrusted text — file and directory names,
// values quoted from configuration files, log lines, HTTP bodies — for the
// streams people read: the text report, standard error, `explain`, `fix`'s
// summaries and diff headers, `init`'s comments, and the CI logs all of
// them end up in. It is the one sanitiser of docs/security.md
// ("Sanitised streams").
//
// Two dangers decide the rules. A terminal obeys escape sequences (ESC,
// the C1 controls, bidirectional overrides that reorder what is shown),
// and a CI runner obeys workflow commands in its log: GitHub's runner
// reads `::command::` at the start of a line (after white space) and the
// legacy `##[command]` anywhere in one (actions/runner
// src/Runner.Common/ActionCommand.cs, TryParseV2 and TryParse; a line is
// ended by \n or a lone \r), Azure Pipelines' agent `##vso[` anywhere. A
// name holding a newline followed by `::stop-commands::x` would otherwise
// silence every later annotation of the step.
//
// The runner reads blanks and ignorables as .NET does (ignorable.go): the
// white space before "::" is every Unicode white space character (its
// TrimStart), and with ICU its culture-sensitive StartsWith and IndexOf
// skip default ignorable code points, so ":\u00ad:" starts a command and
// "#\u200b#[" opens one. Every rule below reads through both.
//
// So every character that is not printing (strconv.IsPrint: C0 and C1
// controls, DEL, U+2028/U+2029, the bidirectional controls U+061C,
// U+200E/U+200F, U+202A-U+202E and U+2066-U+2069 with every other format
// character, spaces other than U+0020) and every byte of invalid UTF-8 is
// written as a visible escape (\n, \x1b, \u202e), the "[" of "##[" and
// "##vso[" is written \x5b, and the second colon of a "::" that starts a
// line is written \x3a; a printing ignorable written as it is (U+034F,
// the variation selectors, the Hangul fillers) neither starts nor breaks
// one.
//
// Machine formats carry exact data and are escaped by their encoders;
// JSONWriter and XMLWriter only rewrite, in the encoders' own escape syntax,
// what a CI log or a terminal would still act on when such a document is
// printed, so a parser reads the same data.
package safetext

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Text renders s on one line for a human-facing stream, with the escapes
// of the package comment. A backslash is kept as it is, so Text is not
// reversible ("\n" may have been a newline or a backslash and an n); names
// go through Path, which is.
func Text(s string) string { return render(s, false, false) }

// Source renders a line of a source file for the snippet under a finding:
// as Text, but a tab is kept, so that the caret line below it, which
// repeats the tabs, lines up.
func Source(s string) string { return render(s, true, false) }

// Path renders a file name as git renders one with core.quotePath=false
// (quote.c, quote_c_style): unchanged when it needs nothing, else in double
// quotes with C-style escapes, `\"` and `\\` included. A name needs quoting
// when Text would change it or it holds `"` or `\`. Non-ASCII letters are
// kept, as with quotePath=false. Path is reversible (Unquote), so two
// different names never print the same.
func Path(p string) string {
	if render(p, false, false) == p && !strings.ContainsAny(p, `"\`) {
		return p
	}
	return `"` + render(p, false, true) + `"`
}

// DiffPath renders a name for the header of a unified diff as git does
// (quote.c, quote_c_style, which git apply and GNU patch's fetchname
// read back): unchanged when Path would leave it so, else in double quotes
// with `\"`, `\\`, the C escapes \a \b \t \n \v \f \r, and every other byte
// of a non-printing character (or of invalid UTF-8) in three-digit octal,
// the only other escape both readers know. The "[" of "##[" and "##vso[" is
// \133. A name holding "\n+++ b/evil.sh" so stays one name in the patch.
func DiffPath(p string) string {
	if Path(p) == p {
		return p
	}
	var b strings.Builder
	var t tail
	b.WriteByte('"')
	for i := 0; i < len(p); {
		r, size := utf8.DecodeRuneInString(p[i:])
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteByte(byte(r))
		case r == '[' && t.opensCommand():
			b.WriteString(`\133`)
		case r == utf8.RuneError && size == 1, !strconv.IsPrint(r):
			if e := escape(r); r < 0x80 && len(e) == 2 {
				b.WriteString(e) // \n, \t, ...
			} else {
				for _, c := range []byte(p[i : i+size]) {
					fmt.Fprintf(&b, `\%03o`, c)
				}
			}
		default:
			b.WriteString(p[i : i+size])
			t.wrote(r)
			i += size
			continue
		}
		t.push(0)
		i += size
	}
	b.WriteByte('"')
	return b.String()
}

// Unquote reverses Path and DiffPath: a name in double quotes has its
// escapes decoded, any other is returned as it is.
func Unquote(s string) (string, error) {
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return s, nil
	}
	var b strings.Builder
	in := s[1 : len(s)-1]
	for i := 0; i < len(in); i++ {
		c := in[i]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		if i+1 >= len(in) {
			return "", fmt.Errorf("%s: a backslash ends the name", s)
		}
		i++
		switch in[i] {
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte('\v')
		case '"', '\\':
			b.WriteByte(in[i])
		case '0', '1', '2', '3':
			v, err := strconv.ParseUint(in[i:min(i+3, len(in))], 8, 8)
			if err != nil || i+3 > len(in) {
				return "", fmt.Errorf("%s: bad octal escape", s)
			}
			b.WriteByte(byte(v))
			i += 2
		case 'x', 'u', 'U':
			n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[in[i]]
			if i+1+n > len(in) {
				return "", fmt.Errorf("%s: a short \\%c escape", s, in[i])
			}
			if in[i] == 'x' {
				v, err := strconv.ParseUint(in[i+1:i+3], 16, 8)
				if err != nil {
					return "", fmt.Errorf("%s: bad \\x escape", s)
				}
				b.WriteByte(byte(v))
			} else {
				// 21 bits hold every code point.
				v, err := strconv.ParseUint(in[i+1:i+1+n], 16, 21)
				if err != nil || v > utf8.MaxRune {
					return "", fmt.Errorf("%s: bad \\%c escape", s, in[i])
				}
				b.WriteRune(rune(v))
			}
			i += n
		default:
			return "", fmt.Errorf("%s: unknown escape \\%c", s, in[i])
		}
	}
	return b.String(), nil
}

// lineState follows the start of a line, where "::" is a workflow
// command.
type lineState uint8

const (
	lineStart lineState = iota // only blanks so far
	oneColon                   // blanks, then ':' (and ignorables)
	midLine                    // anything else
)

// next is the state after r, written as it is. Ignorables are read
// through everywhere: before "::" and between its colons. (A lone \r also
// ends a line for the runner, but no stream that follows lines writes one
// raw.)
func (st lineState) next(r rune) lineState {
	switch {
	case r == '\n':
		return lineStart
	case ignorable(r):
		return st
	case st == lineStart && blank(r):
		return lineStart
	case st == lineStart && r == ':':
		return oneColon
	}
	return midLine
}

// tail holds the last characters written as they are, read through
// ignorables: ASCII bytes, 0 for any other character or an escape. It is
// enough to see that a "[" would complete "##[" or "##vso[", which runners
// read anywhere in a line (see the package comment).
type tail [5]byte

// push records an ASCII byte c, or 0.
func (t *tail) push(c byte) {
	copy(t[:], t[1:])
	t[len(t)-1] = c
}

// wrote records r written as it is.
func (t *tail) wrote(r rune) {
	switch {
	case r < utf8.RuneSelf:
		t.push(byte(r)) //nolint:gosec // G115: r is ASCII
	case !ignorable(r):
		t.push(0)
	}
}

// opensCommand reports whether a "[" after t opens a workflow command:
// "##[" (GitHub) or "##vso[" (Azure Pipelines).
func (t *tail) opensCommand() bool {
	return t[3] == '#' && t[4] == '#' || string(t[:]) == "##vso"
}

// render writes s with the escapes of the package comment, keeping tabs
// with keepTab and escaping `"` and `\` with quoted (Path). It returns s
// itself when nothing needs an escape.
func render(s string, keepTab, quoted bool) string {
	if unchanged(s, quoted) {
		return s
	}
	return renderFull(s, keepTab, quoted)
}

// renderFull is render's pass rune by rune.
func renderFull(s string, keepTab, quoted bool) string {
	var b strings.Builder
	changed := false
	st := lineStart
	var t tail
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		esc := ""
		switch {
		case r == utf8.RuneError && size == 1:
			esc = fmt.Sprintf(`\x%02x`, s[i])
		case r == '\t' && keepTab:
		case quoted && (r == '"' || r == '\\'):
			esc = `\` + string(r)
		case r == '[' && t.opensCommand():
			esc = `\x5b`
		case r == ':' && st == oneColon:
			esc = `\x3a`
		case !strconv.IsPrint(r):
			esc = escape(r)
		}
		switch {
		case esc != "":
			if !changed {
				b.Grow(len(s) + 16)
				b.WriteString(s[:i])
				changed = true
			}
			b.WriteString(esc)
			st = midLine
			t.push(0)
		default:
			if changed {
				b.WriteString(s[i : i+size])
			}
			st = st.next(r)
			t.wrote(r)
		}
		i += size
	}
	if !changed {
		return s
	}
	return b.String()
}

// unchanged reports, in one pass over bytes, that render would return
// the printable ASCII s as it is: without line breaks, tabs, `"` or `\`
// (quoted), the only escapes left are a "[" that opens a workflow command
// and the second colon of a "::" after the line's leading blanks. It is
// false for anything else, which render decides rune by rune.
func unchanged(s string, quoted bool) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c > 0x7e || (quoted && (c == '"' || c == '\\')) {
			return false
		}
	}
	if strings.HasPrefix(strings.TrimLeft(s, " "), "::") {
		return false
	}
	return !strings.Contains(s, "##[") && !strings.Contains(s, "##vso[")
}

// escape is the C-style escape of a non-printing rune.
func escape(r rune) string {
	switch r {
	case '\a':
		return `\a`
	case '\b':
		return `\b`
	case '\f':
		return `\f`
	case '\n':
		return `\n`
	case '\r':
		return `\r`
	case '\t':
		return `\t`
	case '\v':
		return `\v`
	}
	switch {
	case r < 0x80:
		return fmt.Sprintf(`\x%02x`, r)
	case r < 0x10000:
		return fmt.Sprintf(`\u%04x`, r)
	}
	return fmt.Sprintf(`\U%08x`, r)
}
