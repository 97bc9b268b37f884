package suppress

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// ig is an ignore in the compact form the table compares: kind, the line of
// the comment, the covered lines, the rules and the reason.
type ig struct {
	Kind     string
	Line     int
	From, To int
	Rules    string
	Reason   string
}

// prob is a problem: the line of the comment and a fragment of the message.
type prob struct {
	Line int
	Msg  string
}

func compact(f *File) ([]ig, []prob) {
	var igs []ig
	for _, i := range f.Ignores {
		igs = append(igs, ig{Kind: i.Kind, Line: i.Span.Start.Line, From: i.From, To: i.To, Rules: strings.Join(i.Rules, ","), Reason: i.Reason})
	}
	var ps []prob
	for _, p := range f.Problems {
		ps = append(ps, prob{Line: p.Span.Start.Line, Msg: p.Msg})
	}
	return igs, ps
}

func TestParse(t *testing.T) {
	tests := []struct {
		name  string
		syn   Syntax
		src   string
		want  []ig
		probs []prob // Msg must be contained in the problem's message
	}{
		// YAML forms.
		{name: "yaml end of line", syn: YAML,
			src:  "a: 1\nb: 2 # ckptlint:ignore CKPT101 -- measured, the cluster has room\n",
			want: []ig{{"inline", 2, 2, 2, "CKPT101", "measured, the cluster has room"}}},
		{name: "yaml line above", syn: YAML,
			src:  "a: 1\n# ckptlint:ignore CKPT101 -- reason\nb: 2\n",
			want: []ig{{"inline", 2, 3, 3, "CKPT101", "reason"}}},
		{name: "indented line above", syn: YAML,
			src:  "spec:\n  flinkConfiguration:\n    # ckptlint:ignore CKPT101 -- reason\n    a: 1\n",
			want: []ig{{"inline", 3, 4, 4, "CKPT101", "reason"}}},
		{name: "several ids", syn: YAML,
			src:  "# ckptlint:ignore CKPT101,CKPT205 -- reason\na: 1\n",
			want: []ig{{"inline", 1, 2, 2, "CKPT101,CKPT205", "reason"}}},
		{name: "several ids with spaces, duplicates dropped", syn: YAML,
			src:  "a: 1 # ckptlint:ignore CKPT101 , ckpt205,CKPT101 -- reason\n",
			want: []ig{{"inline", 1, 1, 1, "CKPT101,ckpt205", "reason"}}},
		{name: "ids in lower case and rule names, kept as written", syn: YAML,
			src:  "a: 1 # ckptlint:ignore ckpt101,blocksize-scheduled-space -- reason\n",
			want: []ig{{"inline", 1, 1, 1, "ckpt101,blocksize-scheduled-space", "reason"}}},
		{name: "a rule name and the single-hyphen separator", syn: YAML,
			src:  "a: 1 # ckptlint:ignore blocksize-scheduled-space - reason\n",
			want: []ig{{"inline", 1, 1, 1, "blocksize-scheduled-space", "reason"}}},
		{name: "directive in upper case, no space after #, extra spaces", syn: YAML,
			src:  "a: 1 #CKPTLINT:IGNORE   CKPT101   --   two  spaces kept  \n",
			want: []ig{{"inline", 1, 1, 1, "CKPT101", "two  spaces kept"}}},
		{name: "reason holding -- and #", syn: YAML,
			src:  "a: 1 # ckptlint:ignore CKPT101 -- see OPS-12 -- and #3\n",
			want: []ig{{"inline", 1, 1, 1, "CKPT101", "see OPS-12 -- and #3"}}},
		{name: "CRLF", syn: YAML,
			src: "# ckptlint:ignore CKPT101 -- above\r\na: 1\r\nb: 2 # ckptlint:ignore CKPT205 -- same line\r\n",
			want: []ig{
				{"inline", 1, 2, 2, "CKPT101", "above"},
				{"inline", 3, 3, 3, "CKPT205", "same line"},
			}},
		{name: "stacked ignores above one line", syn: YAML,
			src: "# ckptlint:ignore CKPT201 -- one reason\n# ckptlint:ignore CKPT301 -- another\n# a plain comment\nt: 10 s\n",
			want: []ig{
				{"inline", 1, 4, 4, "CKPT201", "one reason"},
				{"inline", 2, 4, 4, "CKPT301", "another"},
			}},
		{name: "a blank line below the ignore is what it covers", syn: YAML,
			src:  "# ckptlint:ignore CKPT101 -- reason\n\na: 1\n",
			want: []ig{{"inline", 1, 2, 2, "CKPT101", "reason"}}},
		{name: "ignore on the last line", syn: YAML,
			src:  "a: 1\n# ckptlint:ignore CKPT101 -- reason",
			want: []ig{{"inline", 2, 3, 3, "CKPT101", "reason"}}},
		{name: "a '#' inside a config.yaml value is not a comment", syn: YAML,
			src: "a: x#ckptlint:ignore CKPT101 -- r\n"},
		{name: "a '#' inside a double-quoted value", syn: YAML,
			src: "a: \"x # ckptlint:ignore CKPT101 -- r\"\n"},
		{name: "a '#' inside a single-quoted value with an escaped quote", syn: YAML,
			src: "a: 'it''s # ckptlint:ignore CKPT101 -- r'\n"},
		{name: "after a quoted value", syn: YAML,
			src:  "a: \"x # y\" # ckptlint:ignore CKPT101 -- r\n",
			want: []ig{{"inline", 1, 1, 1, "CKPT101", "r"}}},
		{name: "a quote inside a plain value opens nothing", syn: YAML,
			src:  "a: it's # ckptlint:ignore CKPT101 -- r\n",
			want: []ig{{"inline", 1, 1, 1, "CKPT101", "r"}}},
		{name: "quoted key", syn: YAML,
			src:  "\"a.b\": 1 # ckptlint:ignore CKPT101 -- r\n",
			want: []ig{{"inline", 1, 1, 1, "CKPT101", "r"}}},
		{name: "multi-line double-quoted value", syn: YAML,
			src:  "a: \"x\n  # ckptlint:ignore CKPT101 -- r\n  y\"\nb: 1 # ckptlint:ignore CKPT102 -- r2\n",
			want: []ig{{"inline", 4, 4, 4, "CKPT102", "r2"}}},
		{name: "block scalar content", syn: YAML,
			src:  "a: |\n  # ckptlint:ignore CKPT101 -- r\n\n  text\nb: 1 # ckptlint:ignore CKPT102 -- r2\n",
			want: []ig{{"inline", 5, 5, 5, "CKPT102", "r2"}}},
		{name: "block scalar with indicators and a comment on its header", syn: YAML,
			src:  "a: >-2 # ckptlint:ignore CKPT101 -- header\n  # not a comment\nb: 1\n",
			want: []ig{{"inline", 1, 1, 1, "CKPT101", "header"}}},
		{name: "block scalar in a sequence item ends at the sibling key", syn: YAML,
			src:  "- k: |\n    # ckptlint:ignore CKPT101 -- r\n  other: 1 # ckptlint:ignore CKPT102 -- r2\n",
			want: []ig{{"inline", 3, 3, 3, "CKPT102", "r2"}}},
		{name: "flow sequence with a quoted item", syn: YAML,
			src:  "a: [x, \"y # z\"] # ckptlint:ignore CKPT101 -- r\n",
			want: []ig{{"inline", 1, 1, 1, "CKPT101", "r"}}},

		// The legacy flink-conf.yaml parser: the first '#' starts a comment.
		{name: "flink-conf end of line", syn: FlinkConf,
			src:  "a: 1 # ckptlint:ignore CKPT101 -- reason\n",
			want: []ig{{"inline", 1, 1, 1, "CKPT101", "reason"}}},
		{name: "flink-conf: a '#' inside a value starts the comment", syn: FlinkConf,
			src:  "a: x#ckptlint:ignore CKPT101 -- r\n",
			want: []ig{{"inline", 1, 1, 1, "CKPT101", "r"}}},
		{name: "flink-conf: quotes do not protect a '#'", syn: FlinkConf,
			src: "a: \"x # y\" # ckptlint:ignore CKPT101 -- r\n"},

		// Problems: these silence nothing.
		{name: "no reason", syn: YAML,
			src:   "a: 1 # ckptlint:ignore CKPT101\n",
			probs: []prob{{1, "ckptlint:ignore has no reason, so it silences nothing: write # ckptlint:ignore CKPT101 -- reason"}}},
		{name: "empty reason", syn: YAML,
			src:   "a: 1 # ckptlint:ignore CKPT101 --   \n",
			probs: []prob{{1, "has no reason"}}},
		{name: "reason without the separator", syn: YAML,
			src:   "a: 1 # ckptlint:ignore CKPT101 because we measured\n",
			probs: []prob{{1, `has no reason after "--", so it silences nothing: write # ckptlint:ignore CKPT101 -- reason`}}},
		{name: "no rule", syn: YAML,
			src:   "a: 1 # ckptlint:ignore -- reason\n",
			probs: []prob{{1, "names no rule"}}},
		{name: "ids separated by spaces", syn: YAML,
			src:   "a: 1 # ckptlint:ignore CKPT101 CKPT205 -- reason\n",
			probs: []prob{{1, "separate rule ids with commas"}}},
		{name: "a word that cannot be a rule", syn: YAML,
			src:   "a: 1 # ckptlint:ignore CKPT101,$x -- reason\n",
			probs: []prob{{1, `"$x" is not a rule id or name`}}},
		{name: "near misses", syn: YAML,
			src: "# ckptlint ignore CKPT101 -- r\n# ckptlint-disable CKPT101\n# ckptlint:ignored CKPT101 -- r\n# ckptlint:ignore:CKPT101 -- r\n# ckptlint checks this file\na: 1\n",
			probs: []prob{
				{1, `"ckptlint ignore CKPT101 -- r" is not a ckptlint ignore`},
				{2, "is not a ckptlint ignore"},
				{3, "is not a ckptlint ignore"},
				{4, "is not a ckptlint ignore"},
			}},
		{name: "a comment mentioning the directive later is not one", syn: YAML,
			src: "# see docs for ckptlint:ignore CKPT101 -- r\na: 1\n"},

		// File-level ignores.
		{name: "file-level after leading comments", syn: YAML,
			src:  "# Flink settings for job x\n\n# ckptlint:ignore-file CKPT605 -- generated by our tooling\na: 1\n",
			want: []ig{{"file", 3, 0, 0, "CKPT605", "generated by our tooling"}}},
		{name: "file-level after a document marker", syn: YAML,
			src:  "---\n# ckptlint:ignore-file CKPT605 -- r\napiVersion: flink.apache.org/v1beta1\n",
			want: []ig{{"file", 2, 0, 0, "CKPT605", "r"}}},
		{name: "file-level after a BOM", syn: FlinkConf,
			src:  "\uFEFF# ckptlint:ignore-file CKPT605 -- r\na: 1\n",
			want: []ig{{"file", 1, 0, 0, "CKPT605", "r"}}},
		{name: "misplaced file-level", syn: YAML,
			src:   "a: 1\n# ckptlint:ignore-file CKPT605 -- r\n",
			probs: []prob{{2, "misplaced ckptlint:ignore-file silences nothing: it must come before the first key (line 1)"}}},
		{name: "file-level at the end of the first key's line is misplaced", syn: FlinkConf,
			src:   "a: 1 # ckptlint:ignore-file CKPT605 -- r\n",
			probs: []prob{{1, "misplaced"}}},
		{name: "file-level without a reason", syn: YAML,
			src:   "# ckptlint:ignore-file CKPT605\na: 1\n",
			probs: []prob{{1, "ckptlint:ignore-file has no reason, so it silences nothing: write # ckptlint:ignore-file CKPT605 -- reason"}}},

		// XML.
		{name: "xml end of line", syn: XML,
			src:  "<configuration>\n  <property><name>a</name><value>1</value></property> <!-- ckptlint:ignore CKPT101 - reason -->\n</configuration>\n",
			want: []ig{{"inline", 2, 2, 2, "CKPT101", "reason"}}},
		{name: "xml above a property covers the element", syn: XML,
			src:  "<configuration>\n  <!-- ckptlint:ignore CKPT101 - reason -->\n  <property>\n    <name>a</name>\n    <value>1</value>\n  </property>\n</configuration>\n",
			want: []ig{{"inline", 2, 3, 6, "CKPT101", "reason"}}},
		{name: "xml at the end of a <property> line covers the element", syn: XML,
			src:  "<configuration>\n  <property> <!-- ckptlint:ignore CKPT101 - reason -->\n    <name>a</name>\n    <value>1</value>\n  </property>\n</configuration>\n",
			want: []ig{{"inline", 2, 2, 5, "CKPT101", "reason"}}},
		{name: "xml above a value line", syn: XML,
			src:  "<configuration>\n  <property>\n    <name>a</name>\n    <!-- ckptlint:ignore CKPT101 - reason -->\n    <value>1</value>\n  </property>\n</configuration>\n",
			want: []ig{{"inline", 4, 5, 5, "CKPT101", "reason"}}},
		{name: "xml compact property", syn: XML,
			src:  "<configuration>\n<!-- ckptlint:ignore CKPT101 - r -->\n<property name=\"a\"\n  value=\"1\"/>\n</configuration>\n",
			want: []ig{{"inline", 2, 3, 4, "CKPT101", "r"}}},
		{name: "xml multi-line comment", syn: XML,
			src:  "<configuration>\n  <!--\n    ckptlint:ignore CKPT101,CKPT105 - a reason\n    on two lines\n  -->\n  <!-- a plain comment -->\n  <property>\n    <name>a</name><value>1</value>\n  </property>\n</configuration>\n",
			want: []ig{{"inline", 2, 7, 9, "CKPT101,CKPT105", "a reason on two lines"}}},
		{name: "xml CDATA and processing instructions hold no comment", syn: XML,
			src: "<?xml version=\"1.0\"?>\n<?pi <!-- ckptlint:ignore CKPT101 - r --> ?>\n<configuration>\n<property><name>a</name><value><![CDATA[<!-- ckptlint:ignore CKPT102 - r -->]]></value></property>\n</configuration>\n"},
		{name: "xml comment in an attribute-free DOCTYPE subset is a comment", syn: XML,
			src:  "<!DOCTYPE configuration [\n<!-- ckptlint:ignore-file CKPT605 - r -->\n]>\n<configuration>\n<property><name>a</name><value>1</value></property>\n</configuration>\n",
			want: []ig{{"file", 2, 0, 0, "CKPT605", "r"}}},
		{name: "xml file-level after the declaration and the root", syn: XML,
			src:  "<?xml version=\"1.0\"?>\n<!-- Licensed to the ASF -->\n<configuration>\n  <!-- ckptlint:ignore-file CKPT605 - r -->\n  <property><name>a</name><value>1</value></property>\n</configuration>\n",
			want: []ig{{"file", 4, 0, 0, "CKPT605", "r"}}},
		{name: "xml misplaced file-level", syn: XML,
			src:   "<configuration>\n  <property><name>a</name><value>1</value></property>\n  <!-- ckptlint:ignore-file CKPT605 - r -->\n</configuration>\n",
			probs: []prob{{3, "it must come before the first property (line 2)"}}},
		{name: "xml no reason suggests the single hyphen", syn: XML,
			src:   "<configuration>\n  <!-- ckptlint:ignore CKPT101 -->\n</configuration>\n",
			probs: []prob{{2, `has no reason, so it silences nothing: write <!-- ckptlint:ignore CKPT101 - reason --> (a single '-': XML comments cannot hold "--")`}}},
		{name: "xml unterminated comment", syn: XML,
			src:  "<configuration>\n<!-- ckptlint:ignore CKPT101 - r\n",
			want: []ig{{"inline", 2, 3, 3, "CKPT101", "r"}}},

		// No directive at all, or no comment syntax.
		{name: "no ckptlint comment", syn: YAML, src: "a: 1 # a comment\n"},
		{name: "empty file", syn: XML, src: ""},
		{name: "unknown syntax", syn: 0, src: "# ckptlint:ignore CKPT101 -- r\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := parseText("f", tt.src, tt.syn)
			got, probs := compact(f)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ignores (-want +got):\n%s", diff)
			}
			if len(probs) != len(tt.probs) {
				t.Fatalf("problems: got %d, want %d:\n%v", len(probs), len(tt.probs), probs)
			}
			for i, p := range tt.probs {
				if probs[i].Line != p.Line || !strings.Contains(probs[i].Msg, p.Msg) {
					t.Errorf("problem %d: got line %d %q, want line %d containing %q", i, probs[i].Line, probs[i].Msg, p.Line, p.Msg)
				}
			}
			// Each problem leads with one sentence of its own (the
			// CKPT002 headline; lint's TestHeadlines holds it to the
			// contract).
			for _, p := range f.Problems {
				if !strings.HasPrefix(p.Headline, "This ") || !strings.HasSuffix(p.Headline, ", so it silences nothing.") {
					t.Errorf("problem %q has the headline %q", p.Msg, p.Headline)
				}
			}
		})
	}
}

// TestParseSpan checks that a problem's span is the comment's, markers
// included, with byte columns.
func TestParseSpan(t *testing.T) {
	src := "a: 1\nb: 2   # ckptlint:ignore CKPT101\nc: <x>"
	f := parseText("f", src, YAML)
	if len(f.Problems) != 1 {
		t.Fatalf("got %d problems", len(f.Problems))
	}
	sp := f.Problems[0].Span
	got := fmt.Sprintf("%d:%d-%d:%d %q", sp.Start.Line, sp.Start.Col, sp.End.Line, sp.End.Col, src[sp.Start.Offset:sp.End.Offset])
	if want := `2:8-2:33 "# ckptlint:ignore CKPT101"`; got != want {
		t.Errorf("span %s, want %s", got, want)
	}
}

func TestSyntaxOfPath(t *testing.T) {
	for p, want := range map[string]Syntax{
		"conf/flink-conf.yaml": FlinkConf, "conf/config.yaml": YAML, "k8s/job.yml": YAML,
		"hadoop/extra.XML": XML, "README.md": 0,
	} {
		if got := SyntaxOfPath(p); got != want {
			t.Errorf("SyntaxOfPath(%q) = %d, want %d", p, got, want)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add("a: 1 # ckptlint:ignore CKPT101 -- r\n", uint8(YAML))
	f.Add("a: |\n  # ckptlint:ignore X -- r\nb: \"x\n# y\"\n", uint8(YAML))
	f.Add("<configuration><!-- ckptlint:ignore CKPT101 - r --><property/></configuration>", uint8(XML))
	f.Add("<![CDATA[<!--", uint8(XML))
	f.Add("# ckptlint:ignore-file A -- r\r\nk: v#x", uint8(FlinkConf))
	f.Fuzz(func(t *testing.T, src string, syn uint8) {
		pf := parseText("f", src, Syntax(syn%4))
		for _, i := range pf.Ignores {
			if len(i.Rules) == 0 || i.Reason == "" {
				t.Errorf("ignore without rules or reason: %+v", i)
			}
			if i.Kind == KindInline && (i.From < 1 || i.To < i.From) {
				t.Errorf("bad line range %+v", i)
			}
			if i.Span.Start.Offset < 0 || i.Span.End.Offset > len(src) || i.Span.End.Offset < i.Span.Start.Offset {
				t.Errorf("bad span %+v", i.Span)
			}
		}
	})
}
