package flinkyaml

import (
	"strings"
	"testing"
)

// scalarAliases is a config.yaml with one anchored scalar of size bytes on
// line 2, named by n aliases in a list (issue 25: 100 KB named 20,000
// times passed 3.9 GB).
func scalarAliases(size, n int) string {
	return "execution.checkpointing.interval: 1 min\nbig: &b " + strings.Repeat("x", size) + "\nlist:\n" + strings.Repeat("- *b\n", n)
}

// TestScalarAliasBudget: aliases to scalars that repeat more than
// maxAliasBytes of text are refused as an alias bomb, at the alias that
// crosses the budget, in a list, as values and as keys, in config.yaml and
// in a manifest (one budget for all its documents).
func TestScalarAliasBudget(t *testing.T) {
	const size = 10 << 10 // 10 KiB, named 200 times: 2 MiB of text
	big := "&b " + strings.Repeat("x", size)
	var vals, keys strings.Builder
	for i := range 200 {
		vals.WriteString("k" + strings.Repeat("y", i) + ": *b\n")
		keys.WriteString("m" + strings.Repeat("y", i) + ": {*b : v}\n")
	}
	cases := map[string]string{
		"list":   scalarAliases(size, 200),
		"flow":   "big: " + big + "\nlist: [" + strings.Repeat("*b, ", 199) + "*b]\n",
		"values": "big: " + big + "\n" + vals.String(),
		"keys":   "big: " + big + "\n" + keys.String(),
		// 40 aliases (under snakeyaml-engine's 50) to a mapping of 30 KiB
		"through a mapping": "m: &m {a: " + strings.Repeat("x", 30<<10) + "}\n" + aliasesTo("m", 40),
	}
	for name, src := range cases {
		t.Run(name, func(t *testing.T) {
			f := ParseConfig("config.yaml", []byte(src))
			if f.Err == nil || !strings.Contains(f.Err.Msg, "aliases repeat more than 1048576 bytes of text") {
				t.Fatalf("err %v, want the alias budget", f.Err)
			}
			if f.Err.Pos.Line < 2 {
				t.Errorf("error at line %d, want at an alias", f.Err.Pos.Line)
			}
		})
	}
	t.Run("manifest", func(t *testing.T) {
		doc := "apiVersion: flink.apache.org/v1beta1\nkind: FlinkDeployment\nmetadata:\n  name: d%d\nspec:\n  flinkConfiguration:\n    a: &b " +
			strings.Repeat("x", size) + "\n    l: [" + strings.Repeat("*b, ", 19) + "*b]\n"
		var b strings.Builder
		for i := range 10 { // 10 documents of 20 aliases: each under the budget, the file over it
			b.WriteString("---\n" + strings.ReplaceAll(doc, "%d", strings.Repeat("i", i+1)))
		}
		deps, _, perr := ParseManifests("m.yaml", []byte(b.String()))
		if perr != nil {
			t.Fatal(perr)
		}
		refused := 0
		for _, d := range deps {
			if d.Config.Err != nil && strings.Contains(d.Config.Err.Msg, "aliases repeat more than") {
				refused++
			}
		}
		if len(deps) != 10 || refused == 0 || refused == 10 {
			t.Errorf("%d deployments, %d refused; want the documents past the file's budget refused", len(deps), refused)
		}
	})
}

// TestScalarAliasesUnderBudget: aliases that repeat less than the budget
// are read as snakeyaml-engine reads them.
func TestScalarAliasesUnderBudget(t *testing.T) {
	f := ParseConfig("config.yaml", []byte(scalarAliases(1000, 100)))
	if f.Err != nil {
		t.Fatal(f.Err)
	}
	e := f.Lookup("list")
	if e == nil || strings.Count(e.Value, strings.Repeat("x", 1000)) != 100 {
		t.Errorf("list not read whole: %v", e)
	}
}

// aliasesTo names anchor n times, each under a key of its own.
func aliasesTo(anchor string, n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString("a" + strings.Repeat("z", i) + ": *" + anchor + "\n")
	}
	return b.String()
}
