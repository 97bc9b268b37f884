package finding

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Output bounds. Messages quote values from the files, and files come from
// pull requests: a 10 MB value must not become 10 MB of log, annotation or
// SARIF per finding. Clip applies them; every reporter calls it (through
// Bounded) so each format is bounded the same way.
const (
	// MaxQuoted is the most runes of one quoted value ("...") or one
	// unbroken run of non-space text a message keeps, marker included.
	MaxQuoted = 200
	// MaxMessage is the most bytes of a whole message, marker included.
	MaxMessage = 4096
)

// Clip bounds a message: every quoted value and every run of non-space
// text longer than MaxQuoted runes keeps its start and ends with a marker
// saying how many bytes were cut ("…[1048576 bytes cut]"), and the whole
// message is cut at MaxMessage bytes. Clip is idempotent, and a message
// within the bounds is returned unchanged.
func Clip(s string) string {
	if len(s) <= MaxQuoted || within(s) {
		return s
	}
	return clip(s)
}

// clip is Clip's full pass, which builds the bounded message.
func clip(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		switch c := s[i]; {
		case c == '"':
			j := closingQuote(s, i+1)
			b.WriteByte('"')
			b.WriteString(clipRun(s[i+1 : j]))
			if j < len(s) {
				b.WriteByte('"')
				j++
			}
			i = j
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			b.WriteByte(c)
			i++
		default:
			j := i
			for j < len(s) && !isBreak(s[j]) {
				j++
			}
			b.WriteString(clipRun(s[i:j]))
			i = j
		}
	}
	out := b.String()
	if len(out) > MaxMessage {
		marker := fmt.Sprintf("…[message cut, %d bytes]", len(out))
		keep := MaxMessage - len(marker)
		for keep > 0 && !utf8.RuneStart(out[keep]) {
			keep--
		}
		out = out[:keep] + marker
	}
	return out
}

// within reports, without building anything, that Clip would return s
// unchanged: s is at most MaxMessage bytes and no quoted value or run of
// non-space text is longer than MaxQuoted bytes (so not longer than
// MaxQuoted runes either). A run over MaxQuoted bytes may still be within
// MaxQuoted runes; Clip's full pass decides those.
func within(s string) bool {
	if len(s) > MaxMessage {
		return false
	}
	for i := 0; i < len(s); {
		switch c := s[i]; {
		case c == '"':
			j := closingQuote(s, i+1)
			if j-(i+1) > MaxQuoted {
				return false
			}
			i = j + 1
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		default:
			j := i
			for j < len(s) && !isBreak(s[j]) {
				j++
			}
			if j-i > MaxQuoted {
				return false
			}
			i = j
		}
	}
	return true
}

// isBreak reports whether c ends a run of non-space text.
func isBreak(c byte) bool { return breaks[c] }

var breaks = [256]bool{' ': true, '\t': true, '\n': true, '\r': true, '"': true}

// closingQuote returns the index of the '"' that closes a quoted value
// starting at i (a backslash escapes the next byte), or len(s): the next
// quote, unless a backslash comes before it (two IndexByte calls, which
// use vector instructions, instead of a loop over every byte).
func closingQuote(s string, i int) int {
	// q, the next quote, is searched for again only once an escape has
	// passed it: each byte is looked at a bounded number of times however
	// many backslashes come before the quote.
	q := -1
	for i < len(s) {
		if q < i {
			k := strings.IndexByte(s[i:], '"')
			if k < 0 {
				return len(s)
			}
			q = i + k
		}
		if e := strings.IndexByte(s[i:q], '\\'); e >= 0 {
			i += e + 2
			continue
		}
		return q
	}
	return len(s)
}

// clipRun shortens s to MaxQuoted runes, marker included.
func clipRun(s string) string {
	n := utf8.RuneCountInString(s)
	if n <= MaxQuoted {
		return s
	}
	// The marker counts the bytes cut; sized for len(s), it is never
	// shorter than the real one, so the result fits in MaxQuoted runes.
	longest := utf8.RuneCountInString(fmt.Sprintf("…[%d bytes cut]", len(s)))
	cut := 0
	for r := 0; r < MaxQuoted-longest; r++ {
		_, size := utf8.DecodeRuneInString(s[cut:])
		cut += size
	}
	return s[:cut] + fmt.Sprintf("…[%d bytes cut]", len(s)-cut)
}

// Bounded returns fs with every message, detail and suppression reason
// clipped (Clip). The slice is copied only when something changes.
func Bounded(fs []Finding) []Finding {
	var out []Finding
	for i, f := range fs {
		msg, detail := Clip(f.Message), Clip(f.Detail)
		var sup *Suppression
		if f.Suppression != nil {
			if r := Clip(f.Suppression.Reason); r != f.Suppression.Reason {
				s := *f.Suppression
				s.Reason = r
				sup = &s
			}
		}
		if msg == f.Message && detail == f.Detail && sup == nil {
			if out != nil {
				out = append(out, f)
			}
			continue
		}
		if out == nil {
			out = append(make([]Finding, 0, len(fs)), fs[:i]...)
		}
		f.Message, f.Detail = msg, detail
		if sup != nil {
			f.Suppression = sup
		}
		out = append(out, f)
	}
	if out == nil {
		return fs
	}
	return out
}

// Short is a name or value as a headline quotes it: at most 40 characters,
// cut with "…" (the detail quotes it whole), as policies/lib's result.short
// cuts the values of the rules' headlines.
func Short(s string) string {
	if utf8.RuneCountInString(s) <= 40 {
		return s
	}
	return string([]rune(s)[:39]) + "…"
}
