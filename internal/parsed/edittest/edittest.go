// Package edittest holds test helpers shared by the editors' tests: the
// expected line-level change of an edit (LineOps), to check that an edit
// touched only the lines it meant to, and CRLF conversion; and, in
// harness.go, the checks every format's editor must pass, parameterised by
// the format (Format): one table row (RunRow, CheckEdit), one fuzz input
// (FuzzOps) and one round of operations on a file of the shared corpus
// (EditCorpus, CorpusRound). It is imported only from _test files.
package edittest

import (
	"bytes"
	"strings"

	"github.com/ckptlint/ckptlint/internal/parsed"
)

// Lines splits src into lines at "\n"; a line keeps a "\r" before its
// "\n". A final "\n" does not open an empty last line, so "a\nb" and
// "a\nb\n" have the same lines (SameEnding tells them apart).
func Lines(src []byte) []string {
	if len(src) == 0 {
		return nil
	}
	return strings.Split(strings.TrimSuffix(string(src), "\n"), "\n")
}

// LineOps is an expected change of a file in whole lines, against the
// numbering of the original (1-based). A test applies it to the original
// and compares the result with the edited file: every line it does not
// name must be kept, in order. (A minimal line diff is no oracle here: it
// may describe a deleted element and an added one as a few changed lines.)
type LineOps struct {
	Replace map[int]string // line -> new content
	Delete  map[int]bool
	Insert  []Insertion
}

// Insertion is new lines before line Before (Lines(src) count + 1: at
// the end).
type Insertion struct {
	Before int
	Lines  []string
}

// Apply returns the lines of old changed by o, without "\r".
func (o LineOps) Apply(old []byte) []string {
	lines := Lines(old)
	var out []string
	insert := func(before int) {
		for _, in := range o.Insert {
			if in.Before == before {
				out = append(out, in.Lines...)
			}
		}
	}
	for i, l := range lines {
		insert(i + 1)
		switch r, ok := o.Replace[i+1]; {
		case o.Delete[i+1]:
		case ok:
			out = append(out, r)
		default:
			out = append(out, l)
		}
	}
	insert(len(lines) + 1)
	return trimCR(out)
}

// Result returns the lines of src without "\r", to compare with Apply.
func Result(src []byte) []string { return trimCR(Lines(src)) }

func trimCR(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strings.TrimSuffix(l, "\r")
	}
	return out
}

// InsertionOf describes the insert e makes in src as whole lines; ok is
// false when e is not an insert of whole lines at a line boundary.
func InsertionOf(src []byte, e parsed.Edit) (in Insertion, ok bool) {
	if e.Start != e.End || e.Text == "" {
		return in, false
	}
	before := bytes.Count(src[:e.Start], []byte("\n")) + 1
	switch {
	case e.Start == 0 || src[e.Start-1] == '\n':
		if !strings.HasSuffix(e.Text, "\n") {
			return in, false
		}
		return Insertion{Before: before, Lines: trimCR(Lines([]byte(e.Text)))}, true
	case e.Start == len(src) && strings.HasPrefix(strings.TrimPrefix(e.Text, "\r"), "\n"):
		// after a last line without a line break
		text := strings.TrimPrefix(strings.TrimPrefix(e.Text, "\r"), "\n")
		return Insertion{Before: len(Lines(src)) + 1, Lines: trimCR(Lines([]byte(text)))}, true
	}
	return in, false
}

// SameEnding reports whether old and new both end with a line break, or
// both do not; an empty file counts as either.
func SameEnding(old, new []byte) bool {
	ends := func(b []byte) bool { return len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r') }
	return len(old) == 0 || len(new) == 0 || ends(old) == ends(new)
}

// CRLF returns src with every "\n" turned into "\r\n".
func CRLF(src []byte) []byte { return bytes.ReplaceAll(src, []byte("\n"), []byte("\r\n")) }

// OnlyCRLF reports whether every "\n" of src is preceded by "\r" and every
// "\r" followed by "\n".
func OnlyCRLF(src []byte) bool {
	for i, c := range src {
		if c == '\n' && (i == 0 || src[i-1] != '\r') {
			return false
		}
		if c == '\r' && (i+1 == len(src) || src[i+1] != '\n') {
			return false
		}
	}
	return true
}
