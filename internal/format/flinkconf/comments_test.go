package flinkconf

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestComments: the comments Parse returns are Flink's: the first '#' of
// each line starts one (loadLegacyYAMLResource splits every line there,
// inside quotes and values too) and it runs to the line's end, the lines
// split as BufferedReader.readLine splits them; Body is the first line
// Flink does not skip as blank.
func TestComments(t *testing.T) {
	type comment struct {
		Line       int
		Span, Text string
	}
	tests := []struct {
		name string
		src  string
		want []comment
		body string // the text at Body, to the line's end
	}{
		{name: "own line and end of line",
			src:  "# head\na: 1 # ckptlint:ignore CKPT101 -- r\n",
			want: []comment{{1, "# head", " head"}, {2, "# ckptlint:ignore CKPT101 -- r", " ckptlint:ignore CKPT101 -- r"}},
			body: "a: 1 # ckptlint:ignore CKPT101 -- r"},
		{name: "the first '#' cuts the line, inside quotes and values too",
			src:  "url: \"a#b\"  # ckptlint:ignore CKPT101 -- r\nb: x#y\n",
			want: []comment{{1, "#b\"  # ckptlint:ignore CKPT101 -- r", "b\"  # ckptlint:ignore CKPT101 -- r"}, {2, "#y", "y"}},
			body: "url: \"a#b\"  # ckptlint:ignore CKPT101 -- r"},
		{name: "CRLF: the comment ends before the CR",
			src:  "# a\r\nb: 1 # c\r\n",
			want: []comment{{1, "# a", " a"}, {2, "# c", " c"}},
			body: "b: 1 # c\r"},
		{name: "a lone CR ends a line for Flink",
			src:  "# a\rb: 1 # c\r",
			want: []comment{{1, "# a", " a"}, {1, "# c", " c"}},
			body: "b: 1 # c\r"},
		{name: "a byte order mark before a comment is no key",
			src:  "\uFEFF# ckptlint:ignore-file CKPT605 -- r\n  a: 1\n",
			want: []comment{{1, "# ckptlint:ignore-file CKPT605 -- r", " ckptlint:ignore-file CKPT605 -- r"}},
			body: "a: 1"},
		{name: "a line Flink skips but does not read as blank is the body",
			src:  "# c\nno separator\na: 1\n",
			want: []comment{{1, "# c", " c"}},
			body: "no separator"},
		{name: "no key", src: "#\n\n", want: []comment{{1, "#", ""}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := Parse("flink-conf.yaml", []byte(tt.src))
			c := f.Comments
			if err := c.Check(); err != nil {
				t.Fatal(err)
			}
			var got []comment
			for _, cm := range c.List {
				got = append(got, comment{cm.Span.Start.Line, tt.src[cm.Span.Start.Offset:cm.Span.End.Offset], tt.src[cm.Text.Start.Offset:cm.Text.End.Offset]})
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("comments (-want +got):\n%s", diff)
			}
			body := tt.src[c.Body:]
			if i := strings.IndexByte(body, '\n'); i >= 0 {
				body = body[:i]
			}
			if body != tt.body || c.File != "flink-conf.yaml" {
				t.Errorf("body %q in %s, want %q", body, c.File, tt.body)
			}
		})
	}
}

// TestCommentsNUL: a file with a NUL byte is a parse error; its comments
// are those of the lines Flink read before it.
func TestCommentsNUL(t *testing.T) {
	f := Parse("flink-conf.yaml", []byte("# before\na: 1 # x\x00 # after\n# later\n"))
	if f.Err == nil || len(f.Comments.List) != 1 || f.Comments.List[0].Span.End.Offset != len("# before") {
		t.Fatalf("err %v, comments %+v", f.Err, f.Comments)
	}
}
