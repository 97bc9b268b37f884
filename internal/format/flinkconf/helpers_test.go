package flinkconf

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/ckptlint/ckptlint/internal/parsed"
)

// checkSpans fails unless every span of f lies inside src, carries the
// line/column that parsed.Lines gives for its offsets, and every entry's key and
// value are exactly the bytes their spans cover.
func checkSpans(t testing.TB, src []byte, f *parsed.File) {
	t.Helper()
	lines := parsed.NewLines(src)
	check := func(what string, s parsed.Span) {
		t.Helper()
		if s.Start.Offset < 0 || s.Start.Offset > s.End.Offset || s.End.Offset > len(src) {
			t.Fatalf("%s: span %d..%d outside the %d-byte file", what, s.Start.Offset, s.End.Offset, len(src))
		}
		if s.Start != lines.Pos(s.Start.Offset) || s.End != lines.Pos(s.End.Offset) {
			t.Fatalf("%s: span %+v disagrees with parsed.Lines (%+v..%+v)", what, s, lines.Pos(s.Start.Offset), lines.Pos(s.End.Offset))
		}
	}
	for _, e := range f.Entries {
		check("key "+e.Key, e.KeySpan)
		check("value of "+e.Key, e.ValueSpan)
		if got := string(src[e.KeySpan.Start.Offset:e.KeySpan.End.Offset]); got != e.Key {
			t.Fatalf("KeySpan covers %q, Key is %q", got, e.Key)
		}
		if got := string(src[e.ValueSpan.Start.Offset:e.ValueSpan.End.Offset]); got != e.Value {
			t.Fatalf("ValueSpan covers %q, Value is %q", got, e.Value)
		}
		if e.Kind != parsed.KindString || e.File != f.Path {
			t.Fatalf("entry %q: Kind %q, File %q", e.Key, e.Kind, e.File)
		}
	}
	for _, n := range f.Notices {
		check("notice "+n.Code, n.Span)
		if n.Code == "" || n.Message == "" || n.File != f.Path {
			t.Fatalf("incomplete notice %+v", n)
		}
	}
}

// checkComments holds f's comments to parsed.Comments.Check and to Flink's
// rule: each is a line's text from its first '#' on, the line as
// BufferedReader.readLine splits it (lines after a NUL are not read).
func checkComments(t testing.TB, f *parsed.File) {
	t.Helper()
	c := f.Comments
	if c == nil {
		if f.Err == nil {
			t.Fatal("no comments for a file that parsed")
		}
		return
	}
	if err := c.Check(); err != nil {
		t.Fatal(err)
	}
	var want []string
	text := string(c.Src)
	if nul := strings.IndexByte(text, 0); nul >= 0 {
		text = text[:nul] // a line holding the NUL is not read either
		if i := strings.LastIndexAny(text, "\r\n"); i >= 0 {
			text = text[:i]
		} else {
			text = ""
		}
	}
	for _, line := range regexp.MustCompile("\r\n|\r|\n").Split(text, -1) {
		if _, comment, ok := strings.Cut(line, "#"); ok {
			want = append(want, "#"+comment)
		}
	}
	var got []string
	for _, cm := range c.List {
		got = append(got, string(c.Src[cm.Span.Start.Offset:cm.Span.End.Offset]))
		if cm.Text.Start.Offset != cm.Span.Start.Offset+1 || cm.Text.End != cm.Span.End {
			t.Fatalf("comment %+v: its text is not what follows the '#'", cm)
		}
	}
	if !slices.Equal(got, want) {
		t.Fatalf("comments %q, want %q", got, want)
	}
}
