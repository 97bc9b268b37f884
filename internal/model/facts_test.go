package model

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/ckptlint/ckptlint/internal/config"
)

// TestFactsInput loads a real .ckptlint.hcl with facts blocks and checks the
// cluster, deployment and facts parts of the input document rules read.
func TestFactsInput(t *testing.T) {
	src := `
facts_max_age = "7d"
cluster "prod" {
  datanodes                 = 3
  datanode_blocks_scheduled = 312
  datanode_hadoop_version   = "3.3.6"
  facts "namenode" {
    source      = "http://nn:9870/jmx"
    observed_at = "2026-11-01T08:00:00Z"
    attributes  = ["datanodes", "datanode_blocks_scheduled", "datanode_hadoop_version"]
  }
}
deployment "etl" {
  flink_conf        = "conf"
  cluster           = "prod"
  checkpoint_p99    = "41s"
  checkpoint_size   = 2147483648
  checkpoint_failed = 12
  running_checkpointing {
    job_id             = "a1b2"
    interval           = "3m"
    timeout            = "10m"
    min_pause          = "0s"
    max_concurrent     = 1
    tolerable_failures = 0
    unaligned          = false
  }
  facts "jobmanager" {
    source      = "http://jm:8081/jobs/a1b2/checkpoints"
    observed_at = "2026-11-30T08:00:00+01:00"
    attributes  = ["checkpoint_p99", "checkpoint_size", "checkpoint_failed", "running_checkpointing"]
  }
}
`
	p := filepath.Join(t.TempDir(), config.FileName)
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, diags := config.Load(p)
	if diags.HasErrors() {
		t.Fatal(diags.Err())
	}
	s := &Set{
		Cluster:    &cfg.Clusters[0],
		Deployment: &cfg.Deployments[0],
		Facts: FactsClock{
			Now:        time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC),
			MaxAge:     cfg.MaxFactsAge(),
			ConfigFile: ".ckptlint.hcl",
		},
	}
	v, err := Input(s)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := ast.JSON(v)
	if err != nil {
		t.Fatal(err)
	}
	in := doc.(map[string]any)
	// Round-trip through JSON, as inspect prints it and as rules see numbers.
	var got map[string]any
	b, err := json.Marshal(map[string]any{"cluster": in["cluster"], "deployment": in["deployment"], "facts": in["facts"]})
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	nn := map[string]any{
		"kind": "namenode", "source": "http://nn:9870/jmx", "observed_at": "2026-11-01T08:00:00Z", "date": "2026-11-01",
		"attributes": []any{"datanodes", "datanode_blocks_scheduled", "datanode_hadoop_version"},
		"cite":       "facts from namenode http://nn:9870/jmx, 2026-11-01",
		"at":         ".ckptlint.hcl:7", "age_ms": float64(30*24*3600*1000 + 3600*1000), "age": "30 days", "stale": true,
	}
	jm := map[string]any{
		"kind": "jobmanager", "source": "http://jm:8081/jobs/a1b2/checkpoints", "observed_at": "2026-11-30T07:00:00Z", "date": "2026-11-30",
		"attributes": []any{"checkpoint_p99", "checkpoint_size", "checkpoint_failed", "running_checkpointing"},
		"cite":       "facts from jobmanager http://jm:8081/jobs/a1b2/checkpoints, 2026-11-30",
		"at":         ".ckptlint.hcl:28", "age_ms": float64(26 * 3600 * 1000), "age": "26 hours", "stale": false,
	}
	want := map[string]any{
		"facts": map[string]any{"today": "2026-12-01", "max_age_ms": float64(7 * 24 * 3600 * 1000), "max_age": "7 days", "config_file": ".ckptlint.hcl"},
		"cluster": map[string]any{
			"declared": true, "name": "prod", "datanodes": float64(3), "datanode_blocks_scheduled": float64(312),
			"datanode_hadoop_version": "3.3.6", "fact_blocks": []any{nn},
			"facts": map[string]any{"datanodes": nn, "datanode_blocks_scheduled": nn, "datanode_hadoop_version": nn},
		},
		"deployment": map[string]any{
			"declared": true, "name": "etl", "checkpoint_p99_ms": float64(41000), "checkpoint_size": float64(2 << 30),
			"checkpoint_failed": float64(12),
			"running_checkpointing": map[string]any{
				"job_id": "a1b2", "interval_ms": float64(180000), "timeout_ms": float64(600000), "min_pause_ms": float64(0),
				"max_concurrent": float64(1), "tolerable_failures": float64(0), "unaligned": false, "at": ".ckptlint.hcl:19",
			},
			"fact_blocks": []any{jm},
			"facts":       map[string]any{"checkpoint_p99": jm, "checkpoint_size": jm, "checkpoint_failed": jm, "running_checkpointing": jm},
		},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("input mismatch (-want +got):\n%s", diff)
	}
}

// TestFactsInputNoClock leaves ages out when the set has no time.
func TestFactsInputNoClock(t *testing.T) {
	f := plain(t, factInput(config.Facts{Kind: "dfsadmin", Source: "report.txt", ObservedAt: time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)}, FactsClock{}).Value)
	for _, k := range []string{"age_ms", "stale", "at"} {
		if _, ok := f[k]; ok {
			t.Errorf("factInput without a clock has %q: %v", k, f)
		}
	}
	if got := plain(t, factsClockInput(FactsClock{}).object())["max_age"]; got != "30 days" {
		t.Errorf("default max_age = %v, want 30 days", got)
	}
}

// TestFlinkSizePerDeployment: input.deployment carries the TaskManagers and
// slots of the set's Flink cluster, the deployment block's own, else the
// cluster block's (their old place), with where each came from and the facts
// block that observed it; two deployments on one cluster keep their own
// (issue 24).
func TestFlinkSizePerDeployment(t *testing.T) {
	src := `
cluster "prod" {
  datanodes             = 3
  taskmanagers          = 9
  slots_per_taskmanager = 8
}
deployment "a" {
  flink_conf   = "a"
  cluster      = "prod"
  taskmanagers = 4
  facts "jobmanager" {
    source      = "jm-a.json"
    observed_at = "2026-11-30T08:00:00Z"
    attributes  = ["taskmanagers"]
  }
}
deployment "b" {
  flink_conf            = "b"
  cluster               = "prod"
  taskmanagers          = 2
  slots_per_taskmanager = 1
}
deployment "c" {
  flink_conf = "c"
  cluster    = "prod"
}
`
	p := filepath.Join(t.TempDir(), config.FileName)
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, diags := config.Load(p)
	if diags.HasErrors() {
		t.Fatal(diags.Err())
	}
	for i, want := range []map[string]any{
		{"taskmanagers": 4, "taskmanagers_in": `deployment "a"`, "slots_per_taskmanager": 8, "slots_per_taskmanager_in": `cluster "prod"`,
			"cite": "facts from jobmanager jm-a.json, 2026-11-30"},
		{"taskmanagers": 2, "taskmanagers_in": `deployment "b"`, "slots_per_taskmanager": 1, "slots_per_taskmanager_in": `deployment "b"`},
		{"taskmanagers": 9, "taskmanagers_in": `cluster "prod"`, "slots_per_taskmanager": 8, "slots_per_taskmanager_in": `cluster "prod"`},
	} {
		d := plain(t, deploymentInput(&cfg.Deployments[i], &cfg.Clusters[0], FactsClock{}).object())
		got := map[string]any{}
		for _, k := range []string{"taskmanagers", "taskmanagers_in", "slots_per_taskmanager", "slots_per_taskmanager_in"} {
			got[k] = d[k]
		}
		if f, ok := d["facts"].(map[string]any)["taskmanagers"].(map[string]any); ok {
			got["cite"] = f["cite"]
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("deployment %q (-want +got):\n%s", cfg.Deployments[i].Name, diff)
		}
	}
	// A config set no deployment block names still gets its cluster's.
	d := plain(t, deploymentInput(nil, &cfg.Clusters[0], FactsClock{}).object())
	if d["declared"] != false || d["taskmanagers"] != 9 || d["taskmanagers_in"] != `cluster "prod"` {
		t.Errorf("undeclared deployment: %v", d)
	}
}

// plain is the Go form of an object of the input document, its integers
// as int.
func plain(t *testing.T, v ast.Value) map[string]any {
	t.Helper()
	x, err := ast.JSON(v)
	if err != nil {
		t.Fatal(err)
	}
	var ints func(x any) any
	ints = func(x any) any {
		switch x := x.(type) {
		case json.Number:
			if n, err := x.Int64(); err == nil {
				return int(n)
			}
		case map[string]any:
			for k, e := range x {
				x[k] = ints(e)
			}
		case []any:
			for i, e := range x {
				x[i] = ints(e)
			}
		}
		return x
	}
	return ints(x).(map[string]any)
}
