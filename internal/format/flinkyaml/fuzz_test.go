package flinkyaml

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ckptlint/ckptlint/internal/parsed"
)

// extraSeeds are inputs aimed at the span finder and the alias handling.
var extraSeeds = []string{
	"a: &a [*a]\n",
	"a: &m {x: 1, y: [2]}\nb: *m\nc: [*m, *m]\n",
	"a: &s [1]\nb: &t {p: *s, q: *s}\nc: *t\n",
	"a: &x 1\nb: [*x, *x, *x]\n",
	"? |\n  k\n: v\n",
	"a: !<tag:yaml.org,2002:str> x\n",
	"\ufeff---\r\na: 'x\r\n\r\n  y'\r\n",
	"a: |-2\n   x\n  y\nb: >+\n\n  z\n\n",
	"a:\t1\nb: [\t1 ,2 ]\n",
	"a: \"\\u00e9\\x41\\\n  b\"\n",
	"- [a: 1]\n",
	"{a: [b, {c: d}], e: f}\n",
	// scalar aliases (issue 25): one anchored scalar named many times, in
	// a list, as values and as keys
	scalarAliases(2000, 600),
	"a: &b " + strings.Repeat("v", 300) + "\nl: [" + strings.Repeat("*b, ", 40) + "*b]\nk: *b\nm: {*b : 1}\n",
}

func FuzzParseConfig(f *testing.F) {
	for _, tc := range domainVectors {
		f.Add([]byte(tc.src))
	}
	for _, tc := range configCases {
		f.Add([]byte(tc.src))
	}
	for _, tc := range spanCases {
		f.Add([]byte(tc.src))
	}
	for _, s := range extraSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		file := ParseConfig("fuzz.yaml", src)
		checkFile(t, file)
		checkComments(t, file.Comments)
		for _, e := range file.Entries {
			checkKind(t, e)
		}
	})
}

func FuzzParseManifests(f *testing.F) {
	for _, tc := range manifestCases {
		f.Add([]byte(tc.src))
	}
	f.Add([]byte(twoDeployments))
	for _, tc := range spanCases { // as flinkConfiguration bodies
		f.Add([]byte(manifestAround(tc.src)))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		deps, comments, perr := ParseManifests("fuzz.yaml", src)
		if perr != nil && (perr.Pos.Line < 1 || perr.Pos.Col < 1 || perr.Pos.Offset > len(src)) {
			t.Fatalf("error position %+v out of bounds", perr.Pos)
		}
		if perr != nil && comments != nil {
			t.Fatal("comments of a manifest that is not valid YAML")
		}
		checkComments(t, comments)
		lines := parsed.NewLines(src)
		for _, d := range deps {
			checkFile(t, d.Config)
			for _, e := range d.Config.Entries {
				checkKind(t, e)
			}
			for _, s := range []parsed.Span{d.Span, d.ConfigSpan, d.FlinkVersionSpan} {
				if !s.IsZero() {
					checkSpan(t, "deployment", src, lines, s)
				}
			}
			for _, fl := range []*Field{d.JobParallelism, d.TaskManagerReplicas, d.UpgradeMode, d.Mode} {
				if fl != nil {
					checkSpan(t, "field", src, lines, fl.Span)
				}
			}
		}
	})
}

// manifestAround wraps a config.yaml body as a FlinkDeployment's
// spec.flinkConfiguration.
func manifestAround(body string) string {
	var b strings.Builder
	b.WriteString("apiVersion: flink.apache.org/v1beta1\nkind: FlinkDeployment\nmetadata:\n  name: x\nspec:\n  flinkConfiguration:\n")
	for _, l := range strings.Split(body, "\n") {
		b.WriteString("    " + l + "\n")
	}
	return b.String()
}

// checkKind fails on an entry whose kind is unknown or whose list value is
// not a flow sequence.
func checkKind(t *testing.T, e parsed.Entry) {
	t.Helper()
	switch e.Kind {
	case parsed.KindString, parsed.KindInt, parsed.KindFloat, parsed.KindBool, parsed.KindNull:
	case parsed.KindList:
		if !strings.HasPrefix(e.Value, "[") || !strings.HasSuffix(e.Value, "]") {
			t.Fatalf("list %q rendered as %q", e.Key, e.Value)
		}
	default:
		t.Fatalf("entry %q has kind %q", e.Key, e.Kind)
	}
}

// checkComments holds comments to parsed.Comments.Check and to YAML's
// rule: each starts at a '#' that opens a line or follows a blank, runs to
// the line break, and its text is what follows the '#'.
func checkComments(t *testing.T, c *parsed.Comments) {
	t.Helper()
	if c == nil {
		return
	}
	if err := c.Check(); err != nil {
		t.Fatal(err)
	}
	src := c.Src
	for _, cm := range c.List {
		s, e := cm.Span.Start.Offset, cm.Span.End.Offset
		opens := s == 0 || s == 3 && bytes.HasPrefix(src, []byte("\uFEFF")) || strings.ContainsRune(" \t\r\n", rune(src[s-1]))
		if src[s] != '#' || !opens || bytes.ContainsAny(src[s:e], "\r\n") || e < len(src) && !strings.ContainsRune("\r\n", rune(src[e])) {
			t.Fatalf("comment %q at %d is not a YAML comment", src[s:e], s)
		}
		if cm.Text.Start.Offset != s+1 || cm.Text.End != cm.Span.End {
			t.Fatalf("comment %+v: its text is not what follows the '#'", cm)
		}
	}
}
