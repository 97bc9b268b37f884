package safetext

import (
	"bytes"
	"encoding/binary"
	"sync"
	"unicode/utf8"
)

// Inert reports whether b, a whole report as ckptlint printed it, holds
// nothing a terminal or a CI runner would act on beyond what ckptlint's
// renderers write: it is valid UTF-8 without a character the machine
// writers escape (control(r, true): C0 controls but \n and \t, DEL, C1
// controls, U+2028/U+2029, the bidirectional controls), without "##[" or
// "##vso[", and without a line whose first non-blank characters are "::",
// read as the runner reads them (ignorable.go): blanks are Unicode white
// space and ignorable code points, and ignorables among the characters of
// "::", "##[" and "##vso[" do not break them. With commands (GitHub
// workflow-command output, internal/report/github.go) a line may start, at
// its first column, with the three commands that reporter writes, exactly:
// "::error ", "::warning " and "::notice ".
//
// It guards the replay of a stored report, whose bytes whoever can write
// the cache could have forged. It is true for everything Text, Source,
// Path and the Writers produce: the line guard, Text, Source and Path
// escape every non-printing rune, but NewJSONWriter and NewXMLWriter keep
// the other ones (U+00A0, U+200B, U+FEFF, private use) as they are, so
// Inert accepts them too.
//
// It runs over whole reports on the warm path (tens of megabytes), so it
// reads them 32 bytes at a time while they are printable ASCII, tabs and
// newlines without "::", and finds "##" with bytes.Index. (Reports have
// colons on most lines, too many for bytes.Index to find "::" fast.) Those
// checks see blanks and ignorables of ASCII only; when b holds another
// (mayBeBlank), readsCommand reads it again, rune by rune.
//
// A report of parallelInert bytes or more is read in two halves at once,
// split after a newline: nothing these checks look for spans a line's end
// (a newline is neither blank nor ignorable), and a warm run's replay of a
// 27 MB SARIF log is bound by memory reads on one core (17-22 ms there,
// `go test -bench` over the mixed benchmark tree's log).
func Inert(b []byte, commands bool) bool {
	if len(b) >= parallelInert {
		if mid := bytes.IndexByte(b[len(b)/2:], '\n'); mid >= 0 {
			mid += len(b)/2 + 1
			var first bool
			var wg sync.WaitGroup
			wg.Go(func() { first = inertOne(b[:mid], commands) })
			second := inertOne(b[mid:], commands)
			wg.Wait()
			return first && second
		}
	}
	return inertOne(b, commands)
}

// parallelInert is the size from which Inert reads two halves at once (a
// variable for tests).
var parallelInert = 4 << 20

// inertOne is Inert over b on one core.
func inertOne(b []byte, commands bool) bool {
	ok, wide := inertText(b, commands)
	return ok && !legacyCommand(b) && (!wide || !readsCommand(b, commands))
}

const (
	ones  = 0x0101010101010101 // 0x01 in each byte of a word
	highs = 0x8080808080808080 // the high bit of each byte
)

// inertText reports whether b is valid UTF-8 free of the runes
// control(r, true) reports and of lines that are commands
// (lineCommandAt), and with wide whether it holds a rune from 0x80 that
// may be a blank or an ignorable.
func inertText(b []byte, commands bool) (ok, wide bool) {
	i, v := 0, verdict(0)
	for i+33 <= len(b) {
		if suspect(b[i:])|suspect(b[i+8:])|suspect(b[i+16:])|suspect(b[i+24:]) == 0 {
			i += 32
			continue
		}
		for end := i + 32; i < end && i+9 <= len(b); {
			if suspect(b[i:]) == 0 {
				i += 8
				continue
			}
			for stop := i + 8; i < stop; { // and on to the end of a rune that crosses stop
				if c := b[i]; c >= ' ' && c < 0x7f && c != ':' || c == '\n' || c == '\t' {
					i++ // what step would say, without a call
					continue
				}
				switch i, v = step(b, i, commands); v {
				case refused:
					return false, wide
				case mayRead:
					wide = true
				}
			}
		}
	}
	for i < len(b) {
		switch i, v = step(b, i, commands); v {
		case refused:
			return false, wide
		case mayRead:
			wide = true
		}
	}
	return true, wide
}

// suspect is zero when p[0:8] holds printable ASCII, tabs and newlines
// and no "::" starts there; p holds at least 9 bytes. For ASCII bytes c
// no sum carries out of a byte, and c+k reaches 0x80 just when
// c >= 0x80-k: c+0x77 for c >= 0x09, c+0x75 for c >= 0x0b (not \t or \n),
// c+0x60 for c >= 0x20, c+1 for DEL, (c^':')+0x7f for c != ':'. A byte
// from 0x80 sets its own high bit, and whatever its carries do, the
// result is not zero.
func suspect(p []byte) uint64 {
	w := binary.LittleEndian.Uint64(p)
	v := binary.LittleEndian.Uint64(p[1:]) // the bytes after each of w's
	ctl := ^(w + 0x77*ones) | (w+0x75*ones)&^(w+0x60*ones)
	pairs := ^((w ^ ':'*ones) + 0x7f*ones) & ^((v ^ ':'*ones) + 0x7f*ones)
	return (w | ctl | (w + ones) | pairs) & highs
}

// A verdict is step's on one character.
type verdict uint8

const (
	inert   verdict = iota
	refused         // what Inert refuses
	mayRead         // a rune that may be a blank or an ignorable (mayBeBlank)
)

// step checks the character at b[i], and for a colon the line it may
// start, and returns the index of the next one.
func step(b []byte, i int, commands bool) (int, verdict) {
	c := b[i]
	switch {
	case c >= utf8.RuneSelf:
		r, size := utf8.DecodeRune(b[i:])
		switch {
		case r == utf8.RuneError && size == 1, control(r, true):
			return i + size, refused
		case mayBeBlank(r):
			return i + size, mayRead
		}
		return i + size, inert
	case c == ':' && lineCommandAt(b, i, commands), control(rune(c), true):
		return i + 1, refused
	}
	return i + 1, inert
}

// legacyCommand reports whether b holds "##[" or "##vso[", which the
// runners read anywhere in a line (see the package comment).
func legacyCommand(b []byte) bool {
	for i := 0; ; {
		j := bytes.Index(b[i:], []byte("##"))
		if j < 0 {
			return false
		}
		rest := b[i+j+2:]
		if bytes.HasPrefix(rest, []byte("[")) || bytes.HasPrefix(rest, []byte("vso[")) {
			return true
		}
		i += j + 1 // "###[" holds "##[" one byte on
	}
}

// lineCommandAt reports whether b[p:] starts with "::" after nothing but
// blanks on its line: a workflow command, but, with commands, for those
// internal/report/github.go writes at the first column. Two "::" never
// share the blanks before them, so Inert steps back over each byte at
// most once.
func lineCommandAt(b []byte, p int, commands bool) bool {
	if p+1 >= len(b) || b[p] != ':' || b[p+1] != ':' {
		return false
	}
	k := p
	for k > 0 && (b[k-1] == ' ' || b[k-1] == '\t') {
		k--
	}
	if k > 0 && b[k-1] != '\n' {
		return false
	}
	return !commands || k != p || !reportedCommand(b[p:])
}

// reportedCommand reports whether line starts with a command GitHub's
// reporter writes.
func reportedCommand(line []byte) bool {
	return bytes.HasPrefix(line, []byte("::error ")) || bytes.HasPrefix(line, []byte("::warning ")) ||
		bytes.HasPrefix(line, []byte("::notice "))
}

// readsCommand reports whether b holds a command as the runners read it,
// through blanks and ignorables (the package comment): a line that starts
// with "::" after blanks, ignorables between its colons, but with commands
// those reportedCommand allows at its first column, or "##[" or "##vso["
// with ignorables among their characters. It follows the lines as the
// writers do (lineState, tail), rune by rune.
func readsCommand(b []byte, commands bool) bool {
	st := lineStart
	var t tail
	line, colon := 0, 0 // where the line and its first colon start
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		switch {
		case r == '[' && t.opensCommand():
			return true
		case r == ':' && st == lineStart:
			colon = i
		case r == ':' && st == oneColon:
			if !commands || colon != line || i != colon+1 || !reportedCommand(b[colon:]) {
				return true
			}
		case r == '\n':
			line = i + 1
		}
		st = st.next(r)
		t.wrote(r)
		i += size
	}
	return false
}
