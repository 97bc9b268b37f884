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

// values is an observation's values of one block, rendered as HCL.
func values(vs []Value) map[string]string {
	got := map[string]string{}
	for _, v := range vs {
		got[v.Attr] = string(hclwrite.TokensForValue(v.Val).Bytes())
	}
	return got
}

// TestKubectlJSON: `kubectl get flinkdeployment NAME -o json` (and a List
// of one, as `kubectl get flinkdeployment -o json` prints it) is read as
// the YAML form is, and every Flink-side fact lands in the deployment block,
// none in the HDFS cluster block (issue 24).
func TestKubectlJSON(t *testing.T) {
	for _, tc := range []struct {
		file string
		want map[string]string
	}{
		{"kubectl-flinkdeployment.json", map[string]string{
			"flink_version": `"1.20"`, "parallelism": "12", "slots_per_taskmanager": "4", "taskmanagers": "3",
		}},
		{"kubectl-list.json", map[string]string{
			"flink_version": `"1.19"`, "parallelism": "6", "slots_per_taskmanager": "2", "taskmanagers": "3",
		}},
		{"kubectl-flinkdeployment.yaml", map[string]string{
			"flink_version": `"1.18"`, "parallelism": "8", "slots_per_taskmanager": "2", "taskmanagers": "4",
		}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			o := readObs(t, tc.file)[0]
			if o.Kind != Kubectl {
				t.Fatalf("kind %s, want kubectl", o.Kind)
			}
			if len(o.Cluster) != 0 {
				t.Errorf("cluster values %v: a FlinkDeployment tells nothing about the HDFS cluster", values(o.Cluster))
			}
			if d := cmp.Diff(tc.want, values(o.Deployment)); d != "" {
				t.Errorf("deployment values (-want +got):\n%s", d)
			}
		})
	}
}

// TestOverviewPerDeployment: the TaskManagers and slots of a JobManager's
// /overview belong to that Flink cluster, the deployment block, so two
// Flink clusters on one HDFS cluster no longer overwrite each other's.
func TestOverviewPerDeployment(t *testing.T) {
	o := readObs(t, "flink-1.18-overview.json")[0]
	if len(o.Cluster) != 0 {
		t.Errorf("cluster values %v, want none", values(o.Cluster))
	}
	got := values(o.Deployment)
	if got["taskmanagers"] == "" || got["slots_per_taskmanager"] == "" {
		t.Errorf("deployment values %v, want taskmanagers and slots_per_taskmanager", got)
	}
}

// TestDFSAdminHeaderCount: a report whose DataNode sections disagree with
// the header's count (a truncated paste, a pager that cut it) is an error
// naming both numbers and the header's line, not a fact about fewer nodes.
func TestDFSAdminHeaderCount(t *testing.T) {
	data, err := os.ReadFile("testdata/dfsadmin-2.7-truncated.txt")
	if err != nil {
		t.Fatal(err)
	}
	_, err = Parse("report.txt", data)
	want := `report.txt: line 12: the header "Live datanodes (3):" counts 3 live DataNodes, but the report lists 1 (hdp-dn1.example.org:` // …
	if err == nil || !strings.HasPrefix(err.Error(), "report.txt: line 12: ") || !strings.Contains(err.Error(), `"Live datanodes (3):" counts 3`) || !strings.Contains(err.Error(), "lists 1") {
		t.Fatalf("error %v, want %s…", err, want)
	}
	// The older header, "Datanodes available: N (T total, D dead)", is
	// checked the same way.
	old, err := os.ReadFile("testdata/dfsadmin-2.4.txt")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Parse("old.txt", old); err != nil {
		t.Fatalf("Hadoop 2.4 report: %v", err)
	}
	cut := strings.Split(string(old), "Name: 10.1.0.13")[0]
	if _, err := Parse("old.txt", []byte(cut)); err == nil || !strings.Contains(err.Error(), `"Datanodes available: 3 (3 total, 0 dead)" counts 3`) || !strings.Contains(err.Error(), "lists 2") {
		t.Fatalf("cut Hadoop 2.4 report: error %v", err)
	}
}
