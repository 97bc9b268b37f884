package deploy

import (
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

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

func TestBlockText(t *testing.T) {
	for _, c := range []struct {
		name, src, path string
		exact           bool
		content         string // what Src holds from Start on
		line            int
	}{
		{"clip", "a:\n  p: |\n    k: 1\n    j: 2\n  q: x\n", "a.p", true, "k: 1\n    j: 2\n", 2},
		{"strip", "p: |-\n  k: 1\n", "p", true, "k: 1\n", 1},
		{"keep and blank lines", "p: |+\n\n  k: 1\n\n  j: 2\n\n\nq: 1\n", "p", true, "k: 1\n\n  j: 2\n", 1},
		{"indicator", "p: |4\n      k: 1\n    j: 2\n", "p", true, "  k: 1\n    j: 2\n", 1},
		{"comment on header", "p: | # flink\n  k: 1", "p", true, "k: 1", 1},
		{"folded", "p: >\n  k: 1\n", "p", false, "k: 1\n", 1},
		{"quoted", "p: \"k: 1\\nj: 2\"\n", "p", false, "k: 1\nj: 2", 1},
		{"crlf", "x: 1\r\np: |\r\n  k: 1\r\n  j: 2\r\n", "p", true, "k: 1\r\n  j: 2\r\n", 2},
		{"lone cr", "x: 1\rp: |\r  k: 1\r", "p", true, "k: 1\r", 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			key, val := valueOf(t, c.src, c.path)
			tx := BlockText("flink-conf.yaml", "c.yml", []byte(c.src), key, val)
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
			for _, l := range strings.Split(strings.TrimRight(c.src[tx.Start:tx.End], "\n"), "\n")[1:] {
				if l != "" && !strings.HasPrefix(l, tx.Indent) {
					t.Fatalf("line %q lacks indent %q", l, tx.Indent)
				}
			}
		})
	}
}
