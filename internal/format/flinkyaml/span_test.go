package flinkyaml

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ckptlint/ckptlint/internal/parsed"
)

// tokens is an entry's key token and value token, as source text.
type tokens struct {
	Key, KeyText, ValueText string
}

// spanCases pin the token each span covers.
var spanCases = []struct {
	name string
	src  string
	want []tokens
}{
	{
		name: "plain, quoted and typed scalars",
		src:  "a: v\n\"b\": 'x''y'\nc: \"q\\\"r\"   # comment\nd: 010\n",
		want: []tokens{{"a", "a", "v"}, {"b", `"b"`, `'x''y'`}, {"c", "c", `"q\"r"`}, {"d", "d", "010"}},
	},
	{
		name: "UTF-8 keys and values",
		src:  "ключ: значение\nk2: 'ü€𝄞'\nnested:\n  名前: 値 # コメント\n",
		want: []tokens{{"ключ", "ключ", "значение"}, {"k2", "k2", "'ü€𝄞'"}, {"nested.名前", "名前", "値"}},
	},
	{
		name: "CRLF line endings",
		src:  "a: 1\r\nb:\r\n  c: 'x'\r\n  d: [1, 2]\r\ne: |\r\n  l1\r\n  l2\r\nf: z\r\n",
		want: []tokens{{"a", "a", "1"}, {"b.c", "c", "'x'"}, {"b.d", "d", "[1, 2]"}, {"e", "e", "|\r\n  l1\r\n  l2"}, {"f", "f", "z"}},
	},
	{
		name: "byte-order mark",
		src:  "\ufeffa: é\nb: 2\n",
		want: []tokens{{"a", "a", "é"}, {"b", "b", "2"}},
	},
	{
		name: "properties are part of the token",
		src:  "a: &x !!str 1\nb: *x\nc: ! 010\nd: !!null\ne: 1\n",
		want: []tokens{{"a", "a", "&x !!str 1"}, {"b", "b", "*x"}, {"c", "c", "! 010"}, {"d", "d", "!!null"}, {"e", "e", "1"}},
	},
	{
		name: "empty values",
		src:  "a:\nb: ~\nc:   # nothing\nd: x\n",
		want: []tokens{{"a", "a", ""}, {"b", "b", "~"}, {"c", "c", ""}, {"d", "d", "x"}},
	},
	{
		name: "block scalars",
		src:  "a: |\n  one\n\n  two\nb: >-\n    f1\n    f2\n\nc: |2\n    indented\nd: |\n  # not a comment\ne: x\n",
		want: []tokens{
			{"a", "a", "|\n  one\n\n  two"}, {"b", "b", ">-\n    f1\n    f2"}, {"c", "c", "|2\n    indented"},
			{"d", "d", "|\n  # not a comment"}, {"e", "e", "x"},
		},
	},
	{
		name: "multi-line plain and quoted scalars",
		src:  "a: one\n  two\n   three\nb: \"x\n  y\"\nc: 'p\n\n  q'\nd: z\n",
		want: []tokens{{"a", "a", "one\n  two\n   three"}, {"b", "b", "\"x\n  y\""}, {"c", "c", "'p\n\n  q'"}, {"d", "d", "z"}},
	},
	{
		name: "flow collections",
		src:  "a: [x, 'y]', {k: \"}\"}] # [c]\nb: {p: 1, q: [2]}\nc: [\n  1,\n  2, # two\n]\nd: x\n",
		want: []tokens{
			{"a", "a", "[x, 'y]', {k: \"}\"}]"}, {"b.p", "p", "1"}, {"b.q", "q", "[2]"},
			{"c", "c", "[\n  1,\n  2, # two\n]"}, {"d", "d", "x"},
		},
	},
	{
		name: "block sequences",
		src:  "a:\n  - x\n  - - y\n    - z\n  - k: v\n    n: |\n      t\nb:\n- 1\n- 2\nc: 3\n",
		want: []tokens{
			{"a", "a", "- x\n  - - y\n    - z\n  - k: v\n    n: |\n      t"}, {"b", "b", "- 1\n- 2"}, {"c", "c", "3"},
		},
	},
	{
		name: "document start marker",
		src:  "--- # config\na: 1\n...\n",
		want: []tokens{{"a", "a", "1"}},
	},
}

func TestParseConfigSpans(t *testing.T) {
	for _, tc := range spanCases {
		t.Run(tc.name, func(t *testing.T) {
			src := []byte(tc.src)
			f := ParseConfig("config.yaml", src)
			if f.Err != nil {
				t.Fatal(f.Err)
			}
			checkFile(t, f)
			var got []tokens
			for _, e := range f.Entries {
				got = append(got, tokens{e.Key, text(src, e.KeySpan), text(src, e.ValueSpan)})
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("tokens (-want +got):\n%s", diff)
			}
		})
	}
}

// TestParseConfigSpanPositions pins line and byte column of a span on a
// line with multi-byte characters and CRLF endings.
func TestParseConfigSpanPositions(t *testing.T) {
	src := []byte("x: 1\r\nключ: 'значение'\r\n")
	f := ParseConfig("config.yaml", src)
	if f.Err != nil {
		t.Fatal(f.Err)
	}
	e := f.Lookup("ключ")
	if e == nil {
		t.Fatal("ключ not found")
	}
	want := parsed.Span{
		Start: parsed.Pos{Line: 2, Col: 11, Offset: 16},
		End:   parsed.Pos{Line: 2, Col: 29, Offset: 34},
	}
	if diff := cmp.Diff(want, e.ValueSpan); diff != "" {
		t.Errorf("value span (-want +got):\n%s", diff)
	}
	if got := text(src, e.KeySpan); got != "ключ" || e.KeySpan.Start.Line != 2 || e.KeySpan.Start.Col != 1 {
		t.Errorf("key span %+v covers %q", e.KeySpan, got)
	}
}

// TestLocatorOtherBreaks covers line breaks yaml.v3 counts but parsed.Lines
// does not (a lone CR, NEL, LS, PS inside a value).
func TestLocatorOtherBreaks(t *testing.T) {
	tests := []struct {
		name, src, key, value string
	}{
		{"lone CR", "a: 1\rb: 2\n", "b", "2"},
		{"NEL in a quoted value", "a: \"x\u0085y\"\nb: 2\n", "b", "2"},
		{"LS in a quoted value", "a: 'x\u2028y'\nb: zz\n", "b", "zz"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := []byte(tc.src)
			f := ParseConfig("config.yaml", src)
			if f.Err != nil {
				t.Fatal(f.Err)
			}
			checkFile(t, f)
			e := f.Lookup(tc.key)
			if e == nil {
				t.Fatalf("%q not found in %+v", tc.key, f.Entries)
			}
			if got := text(src, e.ValueSpan); got != tc.value {
				t.Errorf("value span covers %q, want %q", got, tc.value)
			}
			if got := text(src, e.KeySpan); !strings.HasPrefix(got, tc.key) {
				t.Errorf("key span covers %q", got)
			}
		})
	}
}
