package facts

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2/hclwrite"
)

var update = flag.Bool("update", false, "rewrite testdata/parse.golden")

// render is an observation as text, one value a line.
func render(o *Observation) string {
	var b strings.Builder
	fmt.Fprintf(&b, "kind %s\n", o.Kind)
	for _, blk := range []struct {
		name string
		vs   []Value
	}{{"cluster", o.Cluster}, {"deployment", o.Deployment}, {"running_checkpointing", o.Running}} {
		for _, v := range blk.vs {
			fmt.Fprintf(&b, "  %s.%s = %s  # %s\n", blk.name, v.Attr, hclwrite.TokensForValue(v.Val).Bytes(), v.Note)
		}
	}
	return b.String()
}

// TestParseRecorded runs every parser on the recorded responses in
// testdata (see testdata/README.md for the upstream class each follows).
func TestParseRecorded(t *testing.T) {
	files, err := filepath.Glob("testdata/*.*")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, f := range files {
		base := filepath.Base(f)
		if base == "README.md" || base == "parse.golden" {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		o, err := Parse(base, data)
		fmt.Fprintf(&b, "== %s\n", base)
		if err != nil {
			fmt.Fprintf(&b, "error: %v\n", err)
			continue
		}
		b.WriteString(render(o))
	}
	golden := filepath.Join("testdata", "parse.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(string(want), b.String()); d != "" {
		t.Errorf("parse output differs from %s (-want +got; go test ./facts -update):\n%s", golden, d)
	}
}

// TestWorstDataNode checks the capacity choice directly: decommissioning
// and maintenance nodes are left out, the minimum remaining and maximum
// counts are taken, and the DataNode version is the oldest.
func TestWorstDataNode(t *testing.T) {
	data, err := os.ReadFile("testdata/namenode-3.3.json")
	if err != nil {
		t.Fatal(err)
	}
	o, err := Parse("nn.json", data)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, v := range o.Cluster {
		got[v.Attr] = string(hclwrite.TokensForValue(v.Val).Bytes())
	}
	want := map[string]string{
		"datanodes":                 "6",
		"datanode_free_bytes":       "2048000000",
		"datanode_blocks":           "3100000",
		"datanode_blocks_scheduled": "312",
		"datanode_hadoop_version":   `"3.3.4"`,
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"empty", "  \n", "empty input"},
		{"truncated", `{"beans":[{"name":"Hadoop:service=NameNode,name=NameNodeInfo","LiveNodes":"{}"`, "truncated"},
		{"trailing", `{"taskmanagers":1,"slots-total":1} {}`, "data after the end"},
		{"unknown json", `{"foo":1}`, "none of the known sources"},
		{"livenodes not string", `{"beans":[{"name":"Hadoop:service=NameNode,name=NameNodeInfo","LiveNodes":{}}]}`, "not a string"},
		{"livenodes truncated", `{"beans":[{"name":"Hadoop:service=NameNode,name=NameNodeInfo","LiveNodes":"{\"a\":{"}]}`, "LiveNodes"},
		{"none in service", `{"beans":[{"name":"Hadoop:service=NameNode,name=NameNodeInfo","LiveNodes":"{\"a:1\":{\"adminState\":\"Decommissioned\",\"remaining\":1}}"}]}`, "none in service"},
		{"no bean", `{"beans":[]}`, "NameNodeInfo"},
		{"dfsadmin no live", "Configured Capacity: 1 (1 B)\nName: x\n", "Live datanodes"},
		{"dfsadmin bad number", "Configured Capacity: 1\nLive datanodes (1):\n\nName: a:1 (a)\nDecommission Status : Normal\nDFS Remaining: lots (x)\n", "line 6"},
		{"dfsadmin truncated", "Configured Capacity: 1\nLive datanodes (1):\n\nName: a:1 (a)\nDecommission Status : Normal\n", "no \"DFS Remaining\""},
		{"yaml other kind", "kind: Deployment\nspec: {}\n", "not a FlinkDeployment"},
		{"not yaml", "\x00\x01: [", "neither JSON"},
		{"overview bad", `{"taskmanagers":"x","slots-total":1}`, "whole numbers"},
		{"flink error", `{"errors":["Job not found"]}`, "error document"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("src", []byte(tc.in))
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "src: ") {
				t.Fatalf("error %v, want one naming src and containing %q", err, tc.want)
			}
		})
	}
}
