package facts

import (
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ckptlint/ckptlint/internal/logs"
)

func summarize(t *testing.T, path string) *logs.Summary {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s, err := logs.Summarize(f)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestFromLogs: story (b)'s DataNode and TaskManager logs prove the
// DataNode's block replicas and the longest write stall, which go into the
// cluster block with the line that shows each (issue 24).
func TestFromLogs(t *testing.T) {
	const seeds = "../internal/logs/testdata/seeds/"
	o := FromLogs([]NamedLog{
		{"dn.log", summarize(t, seeds+"b-directoryscanner-datanode.log")},
		{"tm.log", summarize(t, seeds+"b-directoryscanner-taskmanager.log")},
	})
	if o == nil || o.Kind != Log || len(o.Deployment)+len(o.Running) != 0 {
		t.Fatalf("observation %+v", o)
	}
	if d := cmp.Diff(map[string]string{"datanode_blocks": "98412377", "write_stall": `"37204ms"`}, values(o.Cluster)); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	for _, v := range o.Cluster {
		if v.Attr == "write_stall" && !strings.HasPrefix(v.Note, "dn.log:3: lockHeldTimeMs=37204 (org.apache.hadoop.hdfs.server.datanode.fsdataset.impl.FsDatasetImpl); the stack trace shows DirectoryScanner.scan holding it") {
			t.Errorf("write_stall note %q", v.Note)
		}
	}
	got, err := Apply([]byte("cluster \"shared\" {\n  datanodes = 20\n}\n"), "c.hcl", []*Observation{o}, Target{Cluster: "shared"}, testNow)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`  datanode_blocks = 98412377 # from log dn.log, tm.log, 2026-12-01; dn.log:20: DirectoryScanner BlockPool BP-1394720581-10.30.0.5-1496820112733 Total blocks: 98412377; the worst of 2 logs`,
		`  write_stall = "37204ms" # from log dn.log, tm.log, 2026-12-01; dn.log:3: lockHeldTimeMs=37204`,
		`  facts "log" {`,
	} {
		if !strings.Contains(string(got), want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
	if FromLogs([]NamedLog{{"c.log", summarize(t, seeds+"c-lease-expired-jobmanager.log")}}) != nil {
		t.Error("a log that proves nothing gave an observation")
	}
}
