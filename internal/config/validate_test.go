package config

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestValidate(t *testing.T) {
	known := []string{"CKPT101", "CKPT102", "CKPT201"}
	tests := []struct {
		name  string
		src   string
		known []string
		want  []wantDiag
	}{
		{
			name:  "all known",
			src:   "rule \"CKPT101\" {\n  enabled = false\n}\n",
			known: known,
		},
		{
			name:  "unknown rule id with suggestion",
			src:   "rule \"CKPT11\" {\n  enabled = false\n}\n",
			known: known,
			want:  []wantDiag{{"Unknown rule", 1, `There is no rule with the id "CKPT11". Did you mean "CKPT101"?`}},
		},
		{
			name:  "unknown rule id in lower case",
			src:   "rule \"ckpt201\" {\n  enabled = false\n}\n",
			known: known,
			want:  []wantDiag{{"Unknown rule", 1, `Did you mean "CKPT201"?`}},
		},
		{
			name:  "unknown rule id without suggestion",
			src:   "rule \"checkpoint-timeout\" {\n  enabled = false\n}\n",
			known: known,
			want:  []wantDiag{{"Unknown rule", 1, `There is no rule with the id "checkpoint-timeout".`}},
		},
		{
			name:  "nil known ids skip the id check",
			src:   "rule \"NOPE\" {\n  enabled = false\n}\n",
			known: nil,
		},
		{
			name:  "empty known ids reject every id",
			src:   "rule \"NOPE\" {\n  enabled = false\n}\n",
			known: []string{},
			want:  []wantDiag{{"Unknown rule", 1, `"NOPE"`}},
		},
		{
			name:  "duplicate rule block",
			src:   "rule \"CKPT101\" {\n  enabled = false\n}\n\nrule \"CKPT101\" {\n  severity = \"info\"\n}\n",
			known: known,
			want:  []wantDiag{{"Duplicate rule block", 5, `A rule "CKPT101" block is already defined at `}},
		},
		{
			name: "duplicate cluster block",
			src:  "cluster \"prod\" {\n  datanodes = 3\n}\ncluster \"prod\" {\n  datanodes = 4\n}\n",
			want: []wantDiag{{"Duplicate cluster block", 4, `.ckptlint.hcl:1,1-15; merge the two blocks.`}},
		},
		{
			name: "duplicate deployment block",
			src:  "deployment \"etl\" {\n  flink_conf = \"a\"\n}\ndeployment \"etl\" {\n  flink_conf = \"b\"\n}\n",
			want: []wantDiag{{"Duplicate deployment block", 4, `A deployment "etl" block`}},
		},
		{
			name: "unknown cluster with suggestion",
			src:  "cluster \"prod\" {\n  datanodes = 3\n}\ndeployment \"etl\" {\n  flink_conf = \"a\"\n  cluster = \"prd\"\n}\n",
			want: []wantDiag{{"Unknown cluster", 6, `Deployment "etl" refers to cluster "prd", which no cluster block defines. Did you mean "prod"?`}},
		},
		{
			name: "unknown cluster without clusters",
			src:  "deployment \"etl\" {\n  flink_conf = \"a\"\n  cluster = \"prod\"\n}\n",
			want: []wantDiag{{"Unknown cluster", 3, `Add a cluster "prod" block or remove the reference.`}},
		},
		{
			// issue 24: TaskManager counts `ckptlint facts` wrote into a
			// cluster block two Flink clusters share belong to one of them.
			name: "observed Flink facts in a shared cluster block",
			src: "cluster \"prod\" {\n  taskmanagers = 4\n  slots_per_taskmanager = 2\n  facts \"jobmanager\" {\n    source = \"jm1.json\"\n    observed_at = \"2026-12-01T08:00:00Z\"\n    attributes = [\"taskmanagers\", \"slots_per_taskmanager\"]\n  }\n}\n" +
				"deployment \"a\" {\n  flink_conf = \"a\"\n  cluster = \"prod\"\n}\ndeployment \"b\" {\n  flink_conf = \"b\"\n}\n",
			want: []wantDiag{{"Flink facts in a shared cluster block", 4,
				`Cluster "prod" holds taskmanagers, slots_per_taskmanager from facts "jobmanager" (jm1.json, 2026-12-01), but deployments "a", "b" run on it, and each Flink cluster has its own TaskManagers: move them into the deployment block of the Flink cluster they were read from, or run ckptlint facts --deployment NAME on each one's source, which writes them there and removes them from the cluster block.`}},
		},
		{
			// The old place keeps working: typed by hand, or observed for the
			// one deployment that runs on the cluster.
			name: "Flink facts in a cluster block of one deployment",
			src: "cluster \"prod\" {\n  taskmanagers = 4\n  facts \"jobmanager\" {\n    source = \"jm1.json\"\n    observed_at = \"2026-12-01T08:00:00Z\"\n    attributes = [\"taskmanagers\"]\n  }\n}\n" +
				"deployment \"a\" {\n  flink_conf = \"a\"\n}\ndeployment \"b\" {\n  flink_conf = \"b\"\n  taskmanagers = 2\n}\n",
		},
		{
			name: "typed Flink facts in a shared cluster block",
			src:  "cluster \"prod\" {\n  taskmanagers = 4\n}\ndeployment \"a\" {\n  flink_conf = \"a\"\n}\ndeployment \"b\" {\n  flink_conf = \"b\"\n}\n",
		},
		{
			name:  "everything in file order",
			src:   "deployment \"etl\" {\n  flink_conf = \"a\"\n  cluster = \"x\"\n}\nrule \"CKPT999\" {\n  enabled = false\n}\nrule \"CKPT999\" {\n  enabled = true\n}\n",
			known: known,
			want: []wantDiag{
				{"Unknown cluster", 3, `"x"`},
				{"Unknown rule", 5, `"CKPT999"`},
				{"Duplicate rule block", 8, `"CKPT999"`},
				{"Unknown rule", 8, `"CKPT999"`},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, diags := Load(writeConfig(t, tt.src))
			if diags.HasErrors() {
				t.Fatal(diags.Err())
			}
			got := cfg.Validate(tt.known)
			if diff := cmp.Diff(tt.want, summarize(got, tt.want)); diff != "" {
				t.Errorf("Validate() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestValidateHandBuilt(t *testing.T) {
	// A Config built in Go has no ranges; diagnostics then have no subject.
	cfg := &Config{
		Rules:       []Rule{{ID: "X"}},
		Deployments: []Deployment{{Name: "d", FlinkConf: "f", Cluster: "c"}},
	}
	got := cfg.Validate([]string{"Y"})
	want := []wantDiag{{"Unknown rule", 0, `"X"`}, {"Unknown cluster", 0, `"c"`}}
	if diff := cmp.Diff(want, summarize(got, want)); diff != "" {
		t.Errorf("Validate() mismatch (-want +got):\n%s", diff)
	}
}

func TestDidYouMean(t *testing.T) {
	opts := []string{"error", "warning", "info"}
	tests := []struct {
		name, in, want string
	}{
		{"prefix", "warn", ` Did you mean "warning"?`},
		{"case", "INFO", ` Did you mean "info"?`},
		{"typo", "eror", ` Did you mean "error"?`},
		{"far", "fatal", ""},
		{"empty", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := didYouMean(tt.in, opts); got != tt.want {
				t.Errorf("didYouMean(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}
