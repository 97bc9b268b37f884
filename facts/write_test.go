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
