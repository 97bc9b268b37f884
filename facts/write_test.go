package facts

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

var testNow = time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)

func readObs(t *testing.T, names ...string) []*Observation {
	t.Helper()
	var out []*Observation
	for _, n := range names {
		data, err := os.ReadFile(filepath.Join("testdata", n))
		if err != nil {
			t.Fatal(err)
		}
		o, err := Parse(n, data)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, o)
	}
	return out
}

func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(string(want), string(got)); d != "" {
		t.Errorf("%s differs (-want +got; go test ./facts -update):\n%s", path, d)
	}
}

// TestApplyExisting edits a hand-written file: the golden shows every
// untouched line byte for byte (odd spacing, comments, the one-line rule
// block) and the values replaced in place with their comments.
func TestApplyExisting(t *testing.T) {
	src, err := os.ReadFile("testdata/write/existing.in.hcl")
	if err != nil {
		t.Fatal(err)
	}
	obs := readObs(t, "namenode-3.3.json", "flink-1.18-overview.json", "flink-1.18-checkpoints.json", "flink-1.18-config.json")
	got, err := Apply(src, "existing.in.hcl", obs, Target{Cluster: "main", Deployment: "orders", JobID: "3a1b2c3d4e5f60718293a4b5c6d7e8f9"}, testNow)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "testdata/write/existing.want.hcl", got)
	// Every line of the input that names no written attribute survives.
	for _, line := range strings.Split(string(src), "\n") {
		if strings.Contains(line, "datanodes") || strings.Contains(line, "checkpoint_p99") || strings.Contains(line, `"old"`) ||
			strings.Contains(line, "observed_at") || strings.Contains(line, "attributes") || strings.Contains(line, "source ") {
			continue
		}
		if !strings.Contains(string(got), line) {
			t.Errorf("line %q was lost", line)
		}
	}
	// Applying the same facts again changes nothing.
	again, err := Apply(got, "existing.in.hcl", obs, Target{Cluster: "main", Deployment: "orders", JobID: "3a1b2c3d4e5f60718293a4b5c6d7e8f9"}, testNow)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(string(got), string(again)); d != "" {
		t.Errorf("a second apply changed the file:\n%s", d)
	}
}

// TestApplyNewFile writes into an empty file and into one without the
// named blocks.
func TestApplyNewFile(t *testing.T) {
	obs := readObs(t, "dfsadmin-3.3.txt", "kubectl-flinkdeployment.yaml")
	if _, err := Apply(nil, ".ckptlint.hcl", obs, Target{Cluster: "prod", Deployment: "orders"}, testNow); err == nil ||
		!strings.Contains(err.Error(), `no deployment "orders" block`) {
		t.Fatalf("a deployment block without flink_conf was created: %v", err)
	}
	got, err := Apply([]byte("deployment \"orders\" {\n  flink_conf = \"conf\"\n}\n"), ".ckptlint.hcl", obs, Target{Cluster: "prod", Deployment: "orders"}, testNow)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "testdata/write/new.want.hcl", got)

	src := []byte("# nothing else\nplaceholders = \"detect\"") // no final newline
	got, err = Apply(src, ".ckptlint.hcl", obs[:1], Target{Cluster: "prod"}, testNow)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(got), string(src)+"\n\ncluster \"prod\" {\n") {
		t.Errorf("new block not appended after the existing text:\n%s", got)
	}
}

func TestApplyRefuses(t *testing.T) {
	obs := readObs(t, "namenode-3.1.json")
	for _, tc := range []struct{ name, src, want string }{
		{"syntax", "cluster \"main\" {\n", "cannot be edited"},
		{"duplicate", "cluster \"main\" {\n}\ncluster \"main\" {\n}\n", "2 cluster \"main\" blocks (lines 1, 3)"},
		{"one line", "cluster \"main\" { datanodes = 1 }\n", "on one line"},
		{"no name", "", "--cluster"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			target := Target{Cluster: "main"}
			if tc.name == "no name" {
				target = Target{}
			}
			_, err := Apply([]byte(tc.src), "c.hcl", obs, target, testNow)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
		})
	}
}

func TestMillis(t *testing.T) {
	for ms, want := range map[int64]string{0: "0s", 180000: "3m", 41000: "41s", 41230: "41230ms", 60500: "60500ms"} {
		if got := Millis(ms); got != want {
			t.Errorf("Millis(%d) = %q, want %q", ms, got, want)
		}
	}
}

// TestApplyOneSourcePerAttribute: a value written from a new source is
// taken out of the older source's facts block, which goes when empty.
func TestApplyOneSourcePerAttribute(t *testing.T) {
	obs := readObs(t, "namenode-2.10.json")
	first, err := Apply(nil, "c.hcl", obs, Target{Cluster: "main"}, testNow)
	if err != nil {
		t.Fatal(err)
	}
	later := testNow.Add(24 * time.Hour)
	got, err := Apply(first, "c.hcl", readObs(t, "dfsadmin-2.10.txt"), Target{Cluster: "main"}, later)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`  facts "namenode" {
    source      = "namenode-2.10.json"
    observed_at = "2026-12-01T08:00:00Z"
    attributes  = ["datanode_blocks", "datanode_blocks_scheduled", "datanode_hadoop_version"]
  }
`, `  facts "dfsadmin" {
    source      = "dfsadmin-2.10.txt"
    observed_at = "2026-12-02T08:00:00Z"
    attributes  = ["datanodes", "datanode_free_bytes"]
  }
`} {
		if !strings.Contains(string(got), want) {
			t.Errorf("missing\n%s\nin\n%s", want, got)
		}
	}
	// dfsadmin again, then JMX again: the dfsadmin block is emptied and goes.
	got, err = Apply(got, "c.hcl", obs, Target{Cluster: "main"}, later)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(got), `facts "dfsadmin"`) || strings.Count(string(got), `facts "namenode"`) != 1 {
		t.Errorf("stale facts blocks left:\n%s", got)
	}
}

// TestApplyMovesFlinkFacts: the TaskManagers and slots a JobManager or a
// FlinkDeployment shows are written into the deployment block; when the
// cluster block still holds ones `ckptlint facts` wrote there before (the
// old place, shared by every Flink cluster on the HDFS cluster), they are
// taken out of it with their facts block, and a note says so. Values typed
// by hand stay, with a note (issue 24).
func TestApplyMovesFlinkFacts(t *testing.T) {
	src := []byte(`cluster "prod" {
  datanodes = 3 # from namenode nn.json, 2026-11-01
  taskmanagers = 9 # from jobmanager jm-b.json, 2026-11-01; /overview taskmanagers
  slots_per_taskmanager = 8 # from jobmanager jm-b.json, 2026-11-01
  facts "namenode" {
    source      = "nn.json"
    observed_at = "2026-11-01T08:00:00Z"
    attributes  = ["datanodes"]
  }
  facts "jobmanager" {
    source      = "jm-b.json"
    observed_at = "2026-11-01T08:00:00Z"
    attributes  = ["taskmanagers", "slots_per_taskmanager"]
  }
}

deployment "a" {
  flink_conf = "a"
  cluster    = "prod"
}

deployment "b" {
  flink_conf = "b"
  cluster    = "prod"
}
`)
	obs := readObs(t, "flink-1.18-overview.json")
	got, notes, err := ApplyNotes(src, "c.hcl", obs, Target{Cluster: "prod", Deployment: "a"}, testNow)
	if err != nil {
		t.Fatal(err)
	}
	want := `cluster "prod" {
  datanodes = 3 # from namenode nn.json, 2026-11-01
  facts "namenode" {
    source      = "nn.json"
    observed_at = "2026-11-01T08:00:00Z"
    attributes  = ["datanodes"]
  }
}

deployment "a" {
  flink_conf = "a"
  cluster    = "prod"
  taskmanagers = 4 # from jobmanager flink-1.18-overview.json, 2026-12-01; /overview taskmanagers
  slots_per_taskmanager = 2 # from jobmanager flink-1.18-overview.json, 2026-12-01; /overview slots-total 8 / taskmanagers 4
  flink_version = "1.18.1" # from jobmanager flink-1.18-overview.json, 2026-12-01; /overview flink-version
  facts "jobmanager" {
    source      = "flink-1.18-overview.json"
    observed_at = "2026-12-01T08:00:00Z"
    attributes  = ["taskmanagers", "slots_per_taskmanager", "flink_version"]
  }
}

deployment "b" {
  flink_conf = "b"
  cluster    = "prod"
}
`
	if d := cmp.Diff(want, string(got)); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	wantNotes := []string{`moved taskmanagers, slots_per_taskmanager out of cluster "prod" (facts "jobmanager" from jm-b.json, 2026-11-01): Flink facts belong to the deployment block of the Flink cluster they were read from; deployment "b" no longer has them: run ckptlint facts --deployment b on its JobManager or FlinkDeployment`}
	if d := cmp.Diff(wantNotes, notes); d != "" {
		t.Errorf("notes (-want +got):\n%s", d)
	}

	// Typed by hand: kept, and the note says the deployment's own wins.
	typed := []byte("cluster \"prod\" {\n  taskmanagers = 9\n}\n\ndeployment \"a\" {\n  flink_conf = \"a\"\n}\n")
	got, notes, err = ApplyNotes(typed, "c.hcl", obs, Target{Cluster: "prod", Deployment: "a"}, testNow)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(got), "cluster \"prod\" {\n  taskmanagers = 9\n}\n") {
		t.Errorf("the typed cluster value was changed:\n%s", got)
	}
	wantNotes = []string{`cluster "prod" still declares taskmanagers (typed, not observed): deployment "a" now declares its own, which lint uses for it; the cluster's applies to the deployments that declare none`}
	if d := cmp.Diff(wantNotes, notes); d != "" {
		t.Errorf("notes (-want +got):\n%s", d)
	}
}
