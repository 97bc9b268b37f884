package flinkyaml

import (
	"strings"
	"testing"

	"github.com/ckptlint/ckptlint/internal/parsed"
)

// kv is the part of an entry most tests compare.
type kv struct {
	Key   string
	Value string
	Kind  parsed.Kind
}

func entriesKV(entries []parsed.Entry) []kv {
	out := make([]kv, 0, len(entries))
	for _, e := range entries {
		out = append(out, kv{e.Key, e.Value, e.Kind})
	}
	return out
}

// noticeAt is a notice code and the line it points at.
type noticeAt struct {
	Code string
	Line int
}

func noticesAt(ns []parsed.Notice) []noticeAt {
	var out []noticeAt
	for _, n := range ns {
		out = append(out, noticeAt{n.Code, n.Span.Start.Line})
	}
	return out
}

// text returns the bytes a span covers.
func text(src []byte, s parsed.Span) string { return string(src[s.Start.Offset:s.End.Offset]) }

// checkSpan fails when s is out of bounds or its positions disagree with
// parsed.Lines.
func checkSpan(t *testing.T, what string, src []byte, lines *parsed.Lines, s parsed.Span) {
	t.Helper()
	if s.Start.Offset < 0 || s.Start.Offset > s.End.Offset || s.End.Offset > len(src) {
		t.Fatalf("%s span %+v out of bounds (len %d)", what, s, len(src))
	}
	if got := lines.Pos(s.Start.Offset); got != s.Start {
		t.Fatalf("%s span start %+v, want %+v", what, s.Start, got)
	}
	if got := lines.Pos(s.End.Offset); got != s.End {
		t.Fatalf("%s span end %+v, want %+v", what, s.End, got)
	}
}

// checkFile checks every span and the error position of a parsed file.
func checkFile(t *testing.T, f *parsed.File) {
	t.Helper()
	lines := parsed.NewLines(f.Src)
	for _, e := range f.Entries {
		checkSpan(t, "key "+e.Key, f.Src, lines, e.KeySpan)
		checkSpan(t, "value "+e.Key, f.Src, lines, e.ValueSpan)
		if e.Kind != parsed.KindNull && e.ValueSpan.Len() == 0 {
			t.Fatalf("value %q of %q has an empty span", e.Value, e.Key)
		}
		if e.KeySpan.Len() == 0 && !strings.HasSuffix(e.Key, "null") {
			t.Fatalf("key %q has an empty span", e.Key)
		}
	}
	for _, n := range f.Notices {
		checkSpan(t, "notice "+n.Code, f.Src, lines, n.Span)
	}
	if f.Err != nil && (f.Err.Pos.Line < 1 || f.Err.Pos.Col < 1 || f.Err.Pos.Offset > len(f.Src)) {
		t.Fatalf("error position %+v out of bounds", f.Err.Pos)
	}
}
