package flinkyaml

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ckptlint/ckptlint/internal/parsed"
)

// commentTexts renders c's comments as "line:text", the text between the
// markers.
func commentTexts(t *testing.T, c *parsed.Comments) []string {
	t.Helper()
	if err := c.Check(); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, cm := range c.List {
		if c.Src[cm.Span.Start.Offset] != '#' || cm.Text.Start.Offset != cm.Span.Start.Offset+1 || cm.Text.End != cm.Span.End {
			t.Fatalf("comment %+v is not '#' and its text", cm)
		}
		out = append(out, fmt.Sprintf("%02d:%s", cm.Span.Start.Line, c.Src[cm.Text.Start.Offset:cm.Text.End.Offset]))
	}
	return out
}

// TestComments: the comments ParseConfig returns are YAML 1.2's: a '#'
// that opens a line or follows a blank, outside the quoted and block
// scalars the parse located, to the line break; Body is the first key.
func TestComments(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string
		body string // the text at Body, to the line's end
	}{
		{name: "own line and end of line",
			src:  "# head\na: 1 # eol\n",
			want: []string{"01: head", "02: eol"}, body: "a: 1 # eol"},
		{name: "a '#' inside a plain scalar is text",
			src:  "a: x#y\nb: x #y\n",
			want: []string{"02:y"}, body: "a: x#y"},
		{name: "quoted scalars, across lines and with escaped quotes",
			src:  "a: \"x # in\" # after\nb: 'it''s # in' # after\nc: \"one\n  # in\n  two\" # after\n\"k # in\": 1\n",
			want: []string{"01: after", "02: after", "05: after"}, body: "a: \"x # in\" # after"},
		{name: "block scalars: the header's comment is one, the content's lines are text",
			src:  "a: >-2 # header\n  # text\n\n  more # text\nb: |\n    # text\n  # less indented than the content: a comment\nc: 1\n",
			want: []string{"01: header", "07: less indented than the content: a comment"}, body: "a: >-2 # header"},
		{name: "a block scalar in a sequence ends at the sibling key",
			src:  "l:\n- k: |\n    # text\n  other: 1 # after\n",
			want: []string{"04: after"}, body: "l:"},
		{name: "flow collections, anchors and tags",
			src:  "a: [x, \"y # in\"] # after\nb: &anchor # on the anchor\n  c: 1\nd: !!str # on the tag\n  e\nf: {k: 'v # in', # in the flow\n  g: 1}\n",
			want: []string{"01: after", "02: on the anchor", "04: on the tag", "06: in the flow"}, body: "a: [x, \"y # in\"] # after"},
		{name: "CRLF: a comment ends before the CR",
			src:  "# a\r\nb: 'x # in' # c\r\n",
			want: []string{"01: a", "02: c"}, body: "b: 'x # in' # c\r"},
		{name: "a byte order mark, a directive and a document marker come before the body",
			src:  "\uFEFF# first\n%YAML 1.2 # on the directive\n--- !!map # on the marker\n# above\na: 1\n",
			want: []string{"01: first", "02: on the directive", "03: on the marker", "04: above"}, body: "a: 1"},
		{name: "only comments",
			src:  "# a\n\n  # b\n",
			want: []string{"01: a", "03: b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := ParseConfig("config.yaml", []byte(tt.src))
			if f.Err != nil {
				t.Fatal(f.Err)
			}
			if diff := cmp.Diff(tt.want, commentTexts(t, f.Comments)); diff != "" {
				t.Errorf("comments (-want +got):\n%s", diff)
			}
			body, _, _ := strings.Cut(tt.src[f.Comments.Body:], "\n")
			if body != tt.body || f.Comments.File != "config.yaml" {
				t.Errorf("body %q in %s, want %q", body, f.Comments.File, tt.body)
			}
		})
	}
}

// TestCommentsOfFilesFlinkRefuses: a config.yaml Flink refuses after YAML
// parsed it (not a mapping, two documents) still has its comments; one
// that is not valid YAML has none. A UTF-16 one with its byte-order mark
// has them, in the UTF-8 text it is read as (parseUTF16).
func TestCommentsOfFilesFlinkRefuses(t *testing.T) {
	for src, want := range map[string][]string{
		"- a # c\n":                        {"01: c"},
		"a: 1 # c\n---\nb: 'x # in' # d\n": {"01: c", "03: d"},
	} {
		f := ParseConfig("config.yaml", []byte(src))
		if f.Err == nil {
			t.Fatalf("%q: no error", src)
		}
		if diff := cmp.Diff(want, commentTexts(t, f.Comments)); diff != "" {
			t.Errorf("%q: comments (-want +got):\n%s", src, diff)
		}
	}
	for _, src := range []string{"a: [1 # c\n", "a: 1\n---\nb: [ # c\n"} {
		if f := ParseConfig("config.yaml", []byte(src)); f.Comments != nil {
			t.Errorf("%q: comments %+v", src, f.Comments.List)
		}
	}
	f := ParseConfig("config.yaml", []byte("\xff\xfe#\x00 \x00c\x00\n\x00a\x00:\x00 \x001\x00\n\x00"))
	if diff := cmp.Diff([]string{"01: c"}, commentTexts(t, f.Comments)); diff != "" || f.Encoding != "UTF-16LE" {
		t.Errorf("UTF-16LE: comments (-want +got):\n%s; encoding %q", diff, f.Encoding)
	}
}

// TestManifestComments: ParseManifests returns the comments of the whole
// file, every document's and those between them; the deployments' Config
// files have none of their own; a file that is not valid YAML has none.
func TestManifestComments(t *testing.T) {
	src := "# a ConfigMap first\napiVersion: v1\nkind: ConfigMap\ndata:\n  x: \"# in\"\n---\n# the deployment\n" +
		"apiVersion: flink.apache.org/v1beta1\nkind: FlinkDeployment\nmetadata:\n  name: a # the name\nspec:\n  flinkConfiguration:\n    k: |\n      # in\n"
	deps, c, perr := ParseManifests("deploy.yaml", []byte(src))
	if perr != nil || len(deps) == 0 {
		t.Fatalf("%v, %d deployments", perr, len(deps))
	}
	if diff := cmp.Diff([]string{"01: a ConfigMap first", "07: the deployment", "11: the name"}, commentTexts(t, c)); diff != "" {
		t.Errorf("comments (-want +got):\n%s", diff)
	}
	if body, _, _ := strings.Cut(src[c.Body:], "\n"); body != "apiVersion: v1" {
		t.Errorf("body %q", body)
	}
	for _, d := range deps {
		if d.Config.Comments != nil {
			t.Errorf("deployment %s has comments of its own", d.Name)
		}
	}
	if _, c, perr := ParseManifests("deploy.yaml", []byte(src+"---\nkind: [\n")); perr == nil || c != nil {
		t.Errorf("a manifest that is not valid YAML: error %v, comments %v", perr, c)
	}
}
