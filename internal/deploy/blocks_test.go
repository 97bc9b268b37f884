package deploy

import (
	"bytes"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// blockValue finds the value of key k in the first mapping that has it.
func blockValue(t *testing.T, src string, k string) (key, value *yaml.Node) {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	var walk func(n *yaml.Node) bool
	walk = func(n *yaml.Node) bool {
		if n.Kind == yaml.MappingNode {
			for i := 0; i+1 < len(n.Content); i += 2 {
				if n.Content[i].Value == k {
					key, value = n.Content[i], n.Content[i+1]
					return true
				}
			}
		}
		for _, c := range n.Content {
			if walk(c) {
				return true
			}
		}
		return false
	}
	if !walk(&doc) {
		t.Fatalf("no key %q", k)
	}
	return key, value
}

func TestBlocksText(t *testing.T) {
	for _, tc := range []struct {
		name, src  string
		key        string // "f" when empty
		exact      bool
		line       int    // Loc.Line
		first      string // the first content line, as in the file
		startLine  int    // line of Start
		indent     string // Indent
		wantSuffix string // the end of Src
	}{
		{name: "clip", src: "data:\n  f: |\n    a: 1\n    b: 2\n  g: x\n", exact: true, line: 2, first: "    a: 1", startLine: 3, indent: "    ", wantSuffix: "    b: 2\n"},
		{name: "keep with trailing blank lines", src: "data:\n  f: |+\n    a: 1\n\n\n  g: x\n", exact: true, line: 2, first: "    a: 1", startLine: 3, indent: "    ", wantSuffix: "    a: 1\n\n\n"},
		{name: "strip", src: "data:\n  f: |-\n    a: 1\n\n  g: x\n", exact: true, line: 2, first: "    a: 1", startLine: 3, indent: "    ", wantSuffix: "    a: 1\n"},
		{name: "indentation indicator", src: "data:\n  f: |2\n      a: 1\n    b: 2\n", exact: true, line: 2, first: "      a: 1", startLine: 3, indent: "    ", wantSuffix: "    b: 2\n"},
		{name: "indicators in either order", src: "data:\n  f: |-2\n    a: 1\n", exact: true, line: 2, first: "    a: 1", startLine: 3, indent: "    ", wantSuffix: "    a: 1\n"},
		{name: "indicators reversed", src: "data:\n  f: |2-\n    a: 1\n", exact: true, line: 2, first: "    a: 1", startLine: 3, indent: "    ", wantSuffix: "    a: 1\n"},
		{name: "comment after header", src: "data:\n  f: | # the config\n    a: 1\n", exact: true, line: 2, first: "    a: 1", startLine: 3, indent: "    ", wantSuffix: "    a: 1\n"},
		{name: "CRLF", src: "data:\r\n  f: |\r\n    a: 1\r\n    b: 2\r\n", exact: true, line: 2, first: "    a: 1", startLine: 3, indent: "    ", wantSuffix: "    b: 2\r\n"},
		{name: "no newline at the end of the file", src: "data:\n  f: |\n    a: 1", exact: true, line: 2, first: "    a: 1", startLine: 3, indent: "    ", wantSuffix: "    a: 1"},
		{name: "blank lines inside", src: "data:\n  f: |\n    a: 1\n\n    # c\n    b: 2\n", exact: true, line: 2, first: "    a: 1", startLine: 3, indent: "    ", wantSuffix: "    b: 2\n"},
		{name: "leading blank line", src: "data:\n  f: |\n\n    a: 1\n", exact: true, line: 2, first: "", startLine: 3, indent: "    ", wantSuffix: "    a: 1\n"},
		{name: "non-ASCII key before the header", key: "éé", src: "données:\n  éé: |\n    a: 1\n", exact: true, line: 2, first: "    a: 1", startLine: 3, indent: "    ", wantSuffix: "    a: 1\n"},
		{name: "value on the next line", src: "data:\n  f:\n    |\n      a: 1\n", exact: true, line: 2, first: "      a: 1", startLine: 4, indent: "      ", wantSuffix: "      a: 1\n"},
		{name: "lone CR", src: "data:\r  f: |\r    a: 1\r    b: 2\r", exact: true, line: 2, first: "    a: 1", startLine: 3, indent: "    ", wantSuffix: "    b: 2\r"},
		{name: "anchor before the header", src: "data:\n  f: &c |\n    a: 1\n", exact: true, line: 2, first: "    a: 1", startLine: 3, indent: "    ", wantSuffix: "    a: 1\n"},
		{name: "tag and anchor before the header", src: "data:\n  f: !!str &c |-\n    a: 1\n", exact: true, line: 2, first: "    a: 1", startLine: 3, indent: "    ", wantSuffix: "    a: 1\n"},
		{name: "a line of spaces past the indentation is content", src: "data:\n  f: |\n    a: 1\n      \n", exact: true, line: 2, first: "    a: 1", startLine: 3, indent: "    ", wantSuffix: "    a: 1\n      \n"},
		{name: "an empty line with fewer spaces", src: "data:\n  f: |+\n    a: 1\n  \n", exact: true, line: 2, first: "    a: 1", startLine: 3, indent: "    ", wantSuffix: "    a: 1\n  \n"},
		{name: "sequence item with an indicator", key: "-", src: "data:\n  - |1\n    a: 1\n", exact: true, line: 2, first: "    a: 1", startLine: 3, indent: "   ", wantSuffix: "    a: 1\n"},
		{name: "empty block", src: "data:\n  f: |\n  g: x\n", exact: false, line: 2},
		{name: "folded", src: "data:\n  f: >\n    a: 1\n", exact: false, line: 2},
		{name: "double-quoted", src: "data:\n  f: \"a: 1\\nb: 2\\n\"\n", exact: false, line: 2},
		{name: "plain multi-line", src: "data:\n  f: a\n    b\n", exact: false, line: 2},
		{name: "alias", src: "x: &c |\n  a: 1\ndata:\n  f: *c\n", exact: false, line: 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k := tc.key
			if k == "" {
				k = "f"
			}
			var key, value *yaml.Node
			if k == "-" { // the first item of data, a sequence
				_, seq := blockValue(t, tc.src, "data")
				value = seq.Content[0]
			} else {
				key, value = blockValue(t, tc.src, k)
			}
			b := NewBlocks("cm.yaml", []byte(tc.src))
			txt := b.Text("flink-conf.yaml", key, value)
			if txt.Exact != tc.exact {
				t.Fatalf("Exact = %v, want %v", txt.Exact, tc.exact)
			}
			if txt.Loc != (Loc{File: "cm.yaml", Line: tc.line}) || txt.Name != "flink-conf.yaml" || txt.Container != "cm.yaml" {
				t.Errorf("Loc, Name, Container = %v, %q, %q", txt.Loc, txt.Name, txt.Container)
			}
			if !tc.exact {
				if string(txt.Src) != aliasTargetValue(value) {
					t.Errorf("Src = %q, want the decoded value %q", txt.Src, value.Value)
				}
				return
			}
			if len(txt.Src) != txt.End || !strings.HasSuffix(string(txt.Src), tc.wantSuffix) {
				t.Errorf("Src = %q (len %d, End %d), want it to end with %q", txt.Src, len(txt.Src), txt.End, tc.wantSuffix)
			}
			if got := b.Line(txt.Start); got != tc.startLine {
				t.Errorf("Start on line %d, want %d", got, tc.startLine)
			}
			if txt.Indent != tc.indent {
				t.Errorf("Indent = %q, want %q", txt.Indent, tc.indent)
			}
			if !bytes.Equal(txt.Src[txt.Start:], []byte(tc.src)[txt.Start:txt.End]) {
				t.Errorf("Src[Start:] differs from the file")
			}
			if string(txt.Content()) != value.Value && string(txt.Content()) != value.Value+"\n" {
				t.Errorf("Content() = %q, want %q", txt.Content(), value.Value)
			}
			if strings.Trim(string(txt.Src[:txt.Start]), " \r\n") != "" || len(NewBlocks("", txt.Src[:txt.Start]).lines) != tc.startLine {
				t.Errorf("Src before Start = %q, want spaces and the file's newlines", txt.Src[:txt.Start])
			}
			from := bytes.LastIndexAny(txt.Src[:txt.Start], "\r\n") + 1
			if first, _, _ := cutLine(txt.Src[from:]); string(first) != tc.first || txt.Start-from != min(len(txt.Indent), len(first)-len(bytes.TrimLeft(first, " "))) {
				t.Errorf("first content line %q, want %q", first, tc.first)
			}
		})
	}
}

func aliasTargetValue(n *yaml.Node) string {
	if n.Kind == yaml.AliasNode {
		return n.Alias.Value
	}
	return n.Value
}

// TestBlockTextParsesInPlace reads an embedded config.yaml from Src with
// yaml.v3: its keys are on the lines and columns they have in the manifest.
func TestBlockTextParsesInPlace(t *testing.T) {
	src := "apiVersion: v1\nkind: ConfigMap\ndata:\n  config.yaml: |\n    state:\n      checkpoints.dir: hdfs:///ck\n    parallelism.default: 2\n"
	key, value := blockValue(t, src, "config.yaml")
	txt := NewBlocks("cm.yaml", []byte(src)).Text("config.yaml", key, value)
	if !txt.Exact {
		t.Fatal("not Exact")
	}
	_, dir := blockValue(t, string(txt.Src), "checkpoints.dir")
	if dir.Line != 6 || dir.Column != 24 || dir.Value != "hdfs:///ck" {
		t.Errorf("checkpoints.dir value at %d:%d %q, want 6:24 hdfs:///ck", dir.Line, dir.Column, dir.Value)
	}
}

// TestBlockTextBound: past MaxExactBytes a file's blocks are read without
// positions, with one note.
func TestBlockTextBound(t *testing.T) {
	src := "data:\n  f: |\n    a: 1\n  g: |\n    b: 2\n"
	b := NewBlocks("cm.yaml", []byte(src))
	b.exact = MaxExactBytes - 30
	k, v := blockValue(t, src, "f")
	if !b.Text("f", k, v).Exact {
		t.Fatal("first block not Exact")
	}
	k, v = blockValue(t, src, "g")
	if txt := b.Text("g", k, v); txt.Exact || string(txt.Src) != "b: 2\n" {
		t.Errorf("second block Exact=%v Src=%q, want the decoded value", txt.Exact, txt.Src)
	}
	if !strings.HasPrefix(b.Note, "cm.yaml:4: this block and the later ones") {
		t.Errorf("Note = %q", b.Note)
	}
}

// valueOf decodes src and returns the key and value nodes of key k of the
// mapping at path (a dotted path of mapping keys).
func valueOf(t *testing.T, src, path string) (*yaml.Node, *yaml.Node) {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	n := doc.Content[0]
	var key *yaml.Node
	for _, k := range strings.Split(path, ".") {
		found := false
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == k {
				key, n, found = n.Content[i], n.Content[i+1], true
				break
			}
		}
		if !found {
			t.Fatalf("no %s in %q", path, src)
		}
	}
	return key, n
}

// TestBlocksTextOffsets: the cases of compose's former LiteralBlock, by
// the bytes of the container between Start and End.
func TestBlocksTextOffsets(t *testing.T) {
	for _, c := range []struct {
		name, src, path string
		exact           bool
		content         string // what Src holds from Start on
		line            int
	}{
		{"clip", "a:\n  p: |\n    k: 1\n    j: 2\n  q: x\n", "a.p", true, "k: 1\n    j: 2\n", 2},
		{"strip", "p: |-\n  k: 1\n", "p", true, "k: 1\n", 1},
		{"keep and blank lines", "p: |+\n\n  k: 1\n\n  j: 2\n\n\nq: 1\n", "p", true, "\n  k: 1\n\n  j: 2\n\n\n", 1}, // kept: the blank lines around are content
		{"indicator", "p: |4\n      k: 1\n    j: 2\n", "p", true, "  k: 1\n    j: 2\n", 1},
		{"comment on header", "p: | # flink\n  k: 1", "p", true, "k: 1", 1},
		{"folded", "p: >\n  k: 1\n", "p", false, "k: 1\n", 1},
		{"quoted", "p: \"k: 1\\nj: 2\"\n", "p", false, "k: 1\nj: 2", 1},
		{"crlf", "x: 1\r\np: |\r\n  k: 1\r\n  j: 2\r\n", "p", true, "k: 1\r\n  j: 2\r\n", 2},
		{"lone cr", "x: 1\rp: |\r  k: 1\r", "p", true, "k: 1\r", 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			key, val := valueOf(t, c.src, c.path)
			tx := NewBlocks("c.yml", []byte(c.src)).Text("flink-conf.yaml", key, val)
			if tx.Exact != c.exact || tx.Loc.Line != c.line {
				t.Fatalf("exact %v line %d, want %v %d", tx.Exact, tx.Loc.Line, c.exact, c.line)
			}
			if !c.exact {
				if string(tx.Src) != c.content {
					t.Fatalf("Src %q, want %q", tx.Src, c.content)
				}
				return
			}
			if got := c.src[tx.Start:tx.End]; got != c.content {
				t.Fatalf("container[Start:End] = %q, want %q", got, c.content)
			}
			if len(tx.Src) != tx.End || strings.TrimSpace(string(tx.Src[:tx.Start])) != "" ||
				strings.Count(string(tx.Src[:tx.Start]), "\n") != strings.Count(c.src[:tx.Start], "\n") {
				t.Fatalf("Src %q does not blank the bytes before Start %d", tx.Src, tx.Start)
			}
			// Every content line carries Indent.
			for _, l := range strings.Split(strings.Trim(c.src[tx.Start:tx.End], "\n"), "\n")[1:] {
				if l != "" && !strings.HasPrefix(l, tx.Indent) {
					t.Fatalf("line %q lacks indent %q", l, tx.Indent)
				}
			}
		})
	}
}

// FuzzBlocksText: every literal block scalar Text makes Exact lies in the
// file at its offsets and gives back the value YAML decoded.
func FuzzBlocksText(f *testing.F) {
	for _, s := range []string{"a:\n  p: |\n    k: 1\n    j: 2\n  q: x\n", "p: |+\n\n  k: 1\n\n  j: 2\n\n\nq: 1\n", "p: |4\n      k: 1\n    j: 2\n",
		"x: 1\rp: |\r  k: 1\r", "x: 1\r\np: |\r\n  k: 1\r\n  j: 2\r\n", "e:\n  - |\n    FLINK_PROPERTIES=\n    a: 1\n", "e:\n- &x |2-\n   a\n  b\n",
		"p: !!str |\n  é: 1\n", "p: |\n\t a\n", "|1\n 0\n  ", "- - |1\n    a\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		var doc yaml.Node
		if yaml.Unmarshal(src, &doc) != nil {
			return
		}
		b := NewBlocks("c", src)
		var walk func(key, n *yaml.Node)
		walk = func(key, n *yaml.Node) {
			if n.Kind == yaml.ScalarNode && key != n {
				tx := b.Text("f", key, n)
				if tx.Exact {
					if tx.End > len(src) || tx.Start > tx.End || len(tx.Src) != tx.End || !bytes.Equal(tx.Src[tx.Start:], src[tx.Start:tx.End]) {
						t.Fatalf("%q: Exact text [%d:%d] does not lie in the file", src, tx.Start, tx.End)
					}
					if c := string(tx.Content()); c != n.Value && c != n.Value+"\n" {
						t.Fatalf("%q: Content %q, the value is %q", src, c, n.Value)
					}
				}
			}
			for i, c := range n.Content {
				if n.Kind == yaml.MappingNode && i%2 == 1 {
					walk(n.Content[i-1], c)
				} else if n.Kind != yaml.MappingNode {
					walk(nil, c)
				}
			}
		}
		walk(nil, &doc)
	})
}
